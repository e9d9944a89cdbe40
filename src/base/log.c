/*
 * log.c - fatal/panic/warn and the panic dump-hook stack.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "base/log.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

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
    if (n_dumps < MAX_DUMPS) {
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

/* Length of the valid UTF-8 sequence at s (1..4), 0 if it is not one. */
static size_t utf8_len(const unsigned char *s)
{
    size_t n = s[0] < 0x80             ? 1
               : (s[0] & 0xe0) == 0xc0 ? 2
               : (s[0] & 0xf0) == 0xe0 ? 3
               : (s[0] & 0xf8) == 0xf0 ? 4
                                       : 0;
    if (n == 2 && s[0] < 0xc2)
        return 0; /* overlong */
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    return n;
}

void log_escape(const char *s, char *out, size_t len)
{
    size_t o = 0;
    const unsigned char *p = (const unsigned char *)s;
    while (*p && o + 5 < len) {
        size_t n = utf8_len(p);
        if (n == 1 && (*p >= 0x20 || *p == '\n' || *p == '\t') && *p != 0x7f) {
            out[o++] = (char)*p++;
        } else if (n > 1) {
            memcpy(out + o, p, n);
            o += n, p += n;
        } else {
            o += (size_t)snprintf(out + o, len - o, "\\x%02x", *p++);
        }
    }
    out[o] = 0;
}

/* Messages echo user input (file contents, arguments): print them escaped so
 * a binary file cannot put raw control bytes on the terminal. */
static void vprint_escaped(const char *prefix, const char *fmt, va_list ap)
{
    char msg[4096], esc[4 * sizeof msg + 1];
    vsnprintf(msg, sizeof msg, fmt, ap);
    log_escape(msg, esc, sizeof esc);
    fprintf(stderr, "%s%s\n", prefix, esc);
}

void fatal(const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    va_start(ap, fmt);
    vprint_escaped("gpucoh: error: ", fmt, ap);
    va_end(ap);
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
    va_start(ap, fmt);
    vprint_escaped("gpucoh: warning: ", fmt, ap);
    va_end(ap);
}
