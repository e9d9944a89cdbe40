/*
 * log.h - errors, warnings and the exit-code contract of gpucoh.
 *
 *   fatal()  user error (bad config, PTX, litmus, spec file): message, exit 2
 *   panic()  simulator fault (deadlock, protocol hole, broken invariant):
 *            message, then every registered dump hook, exit 3
 *   warn()   suspicious but survivable input
 *
 * Parsers do not call fatal() themselves: they return a negative code and fill
 * a caller-provided message buffer, so that they can be tested; the CLI turns
 * that into fatal(). Model code never returns error codes: it panics.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef BASE_LOG_H
#define BASE_LOG_H

#include <stdio.h>

enum {
    EXIT_OK = 0,
    EXIT_CHECK_FAILED = 1, /* wrong output, forbidden outcome, wrong value */
    EXIT_USAGE = 2,        /* usage or input error */
    EXIT_SIM_FAULT = 3,    /* deadlock, protocol hole, broken invariant */
    EXIT_UNFINISHED = 75,  /* a sweep stopped at its --time-limit: run it again to go on
                              (sysexits.h's EX_TEMPFAIL) */
};

#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))

_Noreturn void fatal(const char *fmt, ...) PRINTF_LIKE(1, 2);
_Noreturn void panic(const char *fmt, ...) PRINTF_LIKE(1, 2);
void warn(const char *fmt, ...) PRINTF_LIKE(1, 2);

/* Copy s into out (len bytes), writing control bytes, DEL and bytes that are
 * not valid UTF-8 as \xNN: messages that echo input stay printable. */
void log_escape(const char *s, char *out, size_t len);

#define panic_if(cond, ...)                                                                        \
    do {                                                                                           \
        if (cond)                                                                                  \
            panic(__VA_ARGS__);                                                                    \
    } while (0)

/* A dump hook prints diagnostic state to `out` when the simulator panics
 * (outstanding requests, transient entries, ...). Hooks run newest first. */
typedef void log_dump_fn(void *obj, FILE *out);
void log_push_dump(log_dump_fn *fn, void *obj);
void log_pop_dump(void *obj);

/* Tests replace the exit with a longjmp so that they can assert on faults. */
typedef void log_exit_fn(int code); /* must not return */
void log_set_exit(log_exit_fn *fn);

#endif
