/*
 * log.c - fatal/panic/warn and the panic dump-hook stack.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "base/log.h"

#include <stdarg.h>
#include <stdlib.h>

#define MAX_DUMPS 16

static struct {
    log_dump_fn *fn;
    void *obj;
} dumps[MAX_DUMPS];
static int n_dumps;
static log_exit_fn *exit_fn;
static int panicking;

static _Noreturn void do_exit(int code)
{
    fflush(stdout);
    fflush(stderr);
    if (exit_fn)
        exit_fn(code); /* does not return (longjmp in tests) */
    exit(code);
}

void log_set_exit(log_exit_fn *fn)
{
    exit_fn = fn;
}

void log_push_dump(log_dump_fn *fn, void *obj)
{
    if (n_dumps < MAX_DUMPS)
        {
        dumps[n_dumps].fn = fn;
        dumps[n_dumps++].obj = obj;
    }
}

void log_pop_dump(void *obj)
{
    for (int i = n_dumps - 1; i >= 0; i--) {
        if (dumps[i].obj == obj) {
            for (int j = i; j + 1 < n_dumps; j++)
                dumps[j] = dumps[j + 1];
            n_dumps--;
            return;
        }
    }
}

void fatal(const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fputs("gpucoh: error: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    do_exit(EXIT_USAGE);
}

void panic(const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fputs("gpucoh: simulator fault: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    if (!panicking) { /* a dump hook that panics must not recurse */
        panicking = 1;
        for (int i = n_dumps - 1; i >= 0; i--)
            dumps[i].fn(dumps[i].obj, stderr);
        panicking = 0;
    }
    do_exit(EXIT_SIM_FAULT);
}

void warn(const char *fmt, ...)
{
    va_list ap;
    fputs("gpucoh: warning: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}
