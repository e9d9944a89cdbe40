/*
 * printf.c - device printf (CUDA's vprintf): the launch's record log and its
 * formatting on the host.
 *
 * nvcc compiles printf(fmt, ...) into `call (retval), vprintf, (fmt, args)`:
 * fmt points at the format string, a module-level `.global .b8 $str[]`, and
 * args at a buffer in the thread's .local memory holding the arguments as C
 * passes them to a variadic function (int, unsigned, char and short as 4-byte
 * ints at 4-byte alignment; long, long long, pointers and doubles - floats
 * are promoted - as 8 bytes at 8-byte alignment). The interpreter turns such
 * a call into a record of this log (exec.c): the format's device address and
 * a copy of the thread's argument bytes, which die with the thread. The
 * formatting waits for the launch's end (ptx_printf_log_flush), as CUDA's
 * does: there the format string, and the strings of %s, are read from device
 * memory through the host's copy path, the bytes the simulated memory holds
 * once the kernel has completed. A format string is immutable module data
 * (nobody writes it), so reading it then rather than at the call raises no
 * coherence question; a %s string the kernel itself changes after printing it
 * shows its contents at the kernel's end.
 * The log is CUDA's printf FIFO: records take 16 bytes plus their argument
 * bytes, up to its limit (1 MiB, cudaLimitPrintfFifoSize); records past it
 * are dropped (CUDA's circular FIFO overwrites the oldest instead) and the
 * flush says how many on stderr.
 * Each conversion is formatted by the C library's snprintf with the same
 * flags, width, precision and length, on the argument read at its size.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "ptx/ptx.h"

#include "base/alloc.h"
#include "base/bits.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A record in the log: this header, then n_args argument bytes, padded to 8. */
struct printf_rec {
    addr_t fmt;
    uint32_t n_args;
    uint32_t pad;
};

#define REC_HEADER_BYTES 16u    /* what a record takes in the FIFO besides its arguments */
#define STRING_MAX       65536u /* longest %s or format string read (longer ones are cut) */
#define FIELD_MAX        4096   /* widest width or precision formatted */

struct ptx_printf_log {
    uint8_t *buf; /* the records, packed */
    size_t n, cap;
    uint64_t limit;   /* FIFO bytes */
    uint64_t used;    /* FIFO bytes the records take */
    uint64_t dropped; /* records past the limit since the last flush */
};

struct ptx_printf_log *ptx_printf_log_new(void)
{
    struct ptx_printf_log *log = xcalloc(1, sizeof *log);
    log->limit = PTX_PRINTF_FIFO_DEFAULT;
    return log;
}

void ptx_printf_log_free(struct ptx_printf_log *log)
{
    if (!log)
        return;
    free(log->buf);
    free(log);
}

void ptx_printf_log_set_limit(struct ptx_printf_log *log, uint64_t bytes)
{
    log->limit = bytes;
}

uint64_t ptx_printf_log_limit(const struct ptx_printf_log *log)
{
    return log->limit;
}

void ptx_printf_log_add(struct ptx_printf_log *log, addr_t fmt, const uint8_t *args,
                        uint32_t n_args)
{
    uint64_t cost = REC_HEADER_BYTES + (uint64_t)n_args;
    if (log->used + cost > log->limit) {
        log->dropped++;
        return;
    }
    size_t need = sizeof(struct printf_rec) + ((n_args + 7u) & ~7u);
    if (log->n + need > log->cap) {
        size_t cap = log->cap ? log->cap : 4096;
        while (cap < log->n + need)
            cap *= 2;
        log->buf = xrealloc(log->buf, cap);
        log->cap = cap;
    }
    struct printf_rec r = {fmt, n_args, 0};
    memcpy(log->buf + log->n, &r, sizeof r);
    if (n_args)
        memcpy(log->buf + log->n + sizeof r, args, n_args);
    log->n += need;
    log->used += cost;
}

/* ---- formatting ---- */

/* A growable output string. */
struct out {
    char *s;
    size_t n, cap;
};

static void out_reserve(struct out *o, size_t more)
{
    if (o->n + more + 1 <= o->cap)
        return;
    size_t cap = o->cap ? o->cap : 256;
    while (cap < o->n + more + 1)
        cap *= 2;
    o->s = xrealloc(o->s, cap);
    o->cap = cap;
}

static void out_put(struct out *o, const char *s, size_t n)
{
    out_reserve(o, n);
    memcpy(o->s + o->n, s, n);
    o->n += n;
}

/* snprintf of one conversion onto o (spec is a complete C conversion, built
 * from the device's format with the argument's C type: hence not a literal). */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#define OUT_FMT(o, spec, value)                                                                    \
    do {                                                                                           \
        int len_ = snprintf(NULL, 0, spec, value);                                                 \
        if (len_ > 0) {                                                                            \
            out_reserve(o, (size_t)len_);                                                          \
            snprintf((o)->s + (o)->n, (size_t)len_ + 1, spec, value);                              \
            (o)->n += (size_t)len_;                                                                \
        }                                                                                          \
    } while (0)

/* A NUL-terminated string of device memory at a (at most max bytes), read
 * through `read` in 64-byte pieces; the caller frees it. */
static char *read_string(ptx_printf_read_fn *read, void *obj, addr_t a, size_t max)
{
    struct out s = {0};
    while (s.n < max) {
        size_t k = 64 - (size_t)(a & 63);
        char piece[64];
        read(obj, piece, a, k);
        size_t len = strnlen(piece, k);
        len = MIN(len, max - s.n);
        out_put(&s, piece, len);
        if (len < k)
            break;
        a += k;
    }
    out_reserve(&s, 0);
    s.s[s.n] = '\0';
    return s.s;
}

/* Argument bytes of a record, consumed in order at their C alignment. */
struct args {
    const uint8_t *p;
    uint32_t n, at;
};

/* The next argument of `size` bytes (4 or 8) into *v; false when the
 * record's bytes end before it. */
static bool next_arg(struct args *a, unsigned size, uint64_t *v)
{
    uint32_t at = (a->at + size - 1) & ~(size - 1);
    if (at + size > a->n)
        return false;
    *v = 0;
    memcpy(v, a->p + at, size); /* little-endian host */
    a->at = at + size;
    return true;
}

static bool is_generic_private(addr_t a)
{
    return a - PTX_SHARED_WINDOW < PTX_WINDOW_BYTES || a - PTX_LOCAL_WINDOW < PTX_WINDOW_BYTES;
}

/* Format one record onto o. */
static void format_record(struct out *o, const char *fmt, struct args *a, ptx_printf_read_fn *read,
                          void *obj)
{
    for (const char *p = fmt; *p;) {
        if (*p != '%') {
            const char *q = strchr(p, '%');
            size_t n = q ? (size_t)(q - p) : strlen(p);
            out_put(o, p, n);
            p += n;
            continue;
        }
        const char *start = p++;
        char spec[64];
        size_t sn = 0;
        spec[sn++] = '%';
        bool bad = false;
        while (*p && strchr("-+ #0", *p) && sn < 8)
            spec[sn++] = *p++;
        /* width and precision: digits, or '*' taken from an int argument */
        for (int part = 0; part < 2 && !bad; part++) {
            if (part == 1) {
                if (*p != '.')
                    break;
                spec[sn++] = *p++;
            }
            long n = 0;
            bool given = part == 1 || *p == '*' || (*p >= '0' && *p <= '9');
            if (*p == '*') {
                uint64_t v;
                p++;
                if (!next_arg(a, 4, &v)) {
                    bad = true;
                    break;
                }
                n = (int32_t)v;
            } else {
                for (; *p >= '0' && *p <= '9'; p++)
                    n = n > FIELD_MAX ? n : n * 10 + (*p - '0');
            }
            if (n > FIELD_MAX || n < -FIELD_MAX)
                bad = true; /* not formatted: the text would be absurdly long */
            else if (given)
                sn += (size_t)snprintf(spec + sn, sizeof spec - sn, "%ld", n);
        }
        int longs = 0, shorts = 0;
        while (*p == 'l' || *p == 'h' || *p == 'z' || *p == 't' || *p == 'j')
            longs += *p == 'l' || *p == 'z' || *p == 't' || *p == 'j' ? 1 : 0, shorts += *p == 'h',
                p++;
        char conv = *p ? *p++ : '\0';
        uint64_t v = 0;
        switch (conv) {
        case '%':
            out_put(o, "%", 1);
            continue;
        case 'd':
        case 'i':
        case 'u':
        case 'x':
        case 'X':
        case 'o':
        case 'c':
            if (bad || !next_arg(a, longs ? 8 : 4, &v))
                break;
            if (conv == 'c') {
                spec[sn++] = 'c';
                spec[sn] = '\0';
                OUT_FMT(o, spec, (int)(int32_t)v);
                continue;
            }
            spec[sn++] = 'l', spec[sn++] = 'l', spec[sn++] = conv, spec[sn] = '\0';
            if (conv == 'd' || conv == 'i') {
                long long s = longs         ? (long long)(int64_t)v
                              : shorts == 1 ? (short)v
                              : shorts      ? (signed char)v
                                            : (int32_t)v;
                OUT_FMT(o, spec, s);
            } else {
                unsigned long long u = longs         ? v
                                       : shorts == 1 ? (unsigned short)v
                                       : shorts      ? (unsigned char)v
                                                     : (uint32_t)v;
                OUT_FMT(o, spec, u);
            }
            continue;
        case 'f':
        case 'F':
        case 'e':
        case 'E':
        case 'g':
        case 'G':
        case 'a':
        case 'A': {
            if (bad || !next_arg(a, 8, &v))
                break;
            double d;
            memcpy(&d, &v, sizeof d);
            spec[sn++] = conv, spec[sn] = '\0';
            OUT_FMT(o, spec, d);
            continue;
        }
        case 'p':
            if (bad || !next_arg(a, 8, &v))
                break;
            spec[sn++] = 'p', spec[sn] = '\0';
            OUT_FMT(o, spec, (void *)(uintptr_t)v);
            continue;
        case 's': {
            if (bad || !next_arg(a, 8, &v))
                break;
            spec[sn++] = 's', spec[sn] = '\0';
            if (!v) {
                OUT_FMT(o, spec, "(null)");
            } else if (is_generic_private((addr_t)v)) {
                OUT_FMT(o, spec, "(string in shared or local memory: not kept)");
            } else {
                char *s = read_string(read, obj, (addr_t)v, STRING_MAX);
                OUT_FMT(o, spec, s);
                free(s);
            }
            continue;
        }
        default:
            break;
        }
        /* an unknown conversion or one without its argument: as it stands,
         * as CUDA prints a specifier past its 32 arguments */
        out_put(o, start, (size_t)(p - start));
    }
}

uint64_t ptx_printf_log_flush(struct ptx_printf_log *log, ptx_printf_read_fn *read, void *obj,
                              FILE *out, const char *kernel)
{
    struct out o = {0};
    for (size_t at = 0; at < log->n;) {
        struct printf_rec r;
        memcpy(&r, log->buf + at, sizeof r);
        struct args a = {log->buf + at + sizeof r, r.n_args, 0};
        at += sizeof r + ((r.n_args + 7u) & ~7u);
        if (!r.fmt)
            continue; /* printf(NULL): CUDA prints nothing */
        if (is_generic_private(r.fmt)) {
            static const char msg[] = "(printf format in shared or local memory: not kept)\n";
            out_put(&o, msg, sizeof msg - 1);
            continue;
        }
        char *fmt = read_string(read, obj, r.fmt, STRING_MAX);
        format_record(&o, fmt, &a, read, obj);
        free(fmt);
    }
    if (o.n)
        fwrite(o.s, 1, o.n, out);
    fflush(out);
    free(o.s);
    uint64_t dropped = log->dropped;
    if (dropped)
        fprintf(stderr,
                "gpucoh: kernel %s: %llu printf call%s past the %llu-byte printf FIFO "
                "(cudaLimitPrintfFifoSize) dropped\n",
                kernel ? kernel : "?", (unsigned long long)dropped, dropped == 1 ? "" : "s",
                (unsigned long long)log->limit);
    log->n = 0;
    log->used = 0;
    log->dropped = 0;
    return dropped;
}
