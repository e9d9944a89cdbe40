/*
 * mutate.c - write a random mutation of a file, for the random-mutation test
 * of every input format (tests/long/mutate-inputs.sh).
 *
 * usage: mutate SEED IN OUT
 *
 * Applies 1 to 4 edits chosen by SEED (the same seed, the same output): flip
 * a bit, set a random byte, delete or duplicate a run of bytes, swap two
 * lines, or insert a token that parsers trip on (huge and negative numbers,
 * brackets, separators, keywords of the formats, bytes that are not text).
 * Libraries of mutators exist (radamsa, AFL's); this is the few lines that
 * make the test run on any machine that builds gpucoh.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"

static const char *const tokens[] = {
    "0", "-1", "4294967296", "99999999999999999999", "0x", "1e308", "nan", "\n", "\r\n",
    "[", "]", "{", "}", "(", ")", "=", ";", ",", ":", "|", "#", "\"", "%r1", "%rd9999",
    ".global", ".shared", ".entry", "ld.global.u32", "bra", "$L", "launch", "ptx", "buffer",
    "let", "check", "grid", "block", "args", "exists", "P0", "r1", "[l1]", "ways", "=\n",
    "\xff", "\x01", "\xc3\x28", "\t", "                                                        ",
};

int main(int argc, char **argv)
{
    if (argc != 4) {
        fputs("usage: mutate SEED IN OUT\n", stderr);
        return 2;
    }
    struct rng r;
    rng_seed(&r, strtoull(argv[1], NULL, 10), 0);
    FILE *f = fopen(argv[2], "rb");
    if (!f) {
        perror(argv[2]);
        return 2;
    }
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap);
    for (size_t k; b && (k = fread(b + n, 1, cap - n, f)) > 0;)
        if ((n += k) == cap)
            b = realloc(b, cap *= 2);
    fclose(f);
    if (!b)
        return 2;
    unsigned edits = 1 + (unsigned)(rng_next(&r) % 4);
    for (unsigned e = 0; e < edits; e++) {
        size_t at = n ? (size_t)(rng_next(&r) % n) : 0;
        size_t len = 1 + (size_t)(rng_next(&r) % 64);
        if (len > n - at)
            len = n - at;
        if (n + 4096 > cap)
            b = realloc(b, cap = 2 * (n + 4096));
        if (!b)
            return 2;
        switch (rng_next(&r) % 6) {
        case 0: /* flip a bit */
            if (n)
                b[at] ^= (char)(1u << (rng_next(&r) % 8));
            break;
        case 1: /* a random byte */
            if (n)
                b[at] = (char)rng_next(&r);
            break;
        case 2: /* delete a run */
            memmove(b + at, b + at + len, n - at - len);
            n -= len;
            break;
        case 3: /* duplicate a run */
            memmove(b + at + 2 * len, b + at + len, n - at - len);
            memcpy(b + at + len, b + at, len);
            n += len;
            break;
        case 4: { /* insert a token */
            const char *t = tokens[rng_next(&r) % (sizeof tokens / sizeof tokens[0])];
            size_t tl = strlen(t);
            memmove(b + at + tl, b + at, n - at);
            memcpy(b + at, t, tl);
            n += tl;
            break;
        }
        default: { /* swap the line at `at` with the next one */
            char *s = memchr(b + at, '\n', n - at);
            char *u = s ? memchr(s + 1, '\n', (size_t)(b + n - s - 1)) : NULL;
            if (!u)
                break;
            char *l0 = b + at;
            while (l0 > b && l0[-1] != '\n')
                l0--;
            size_t a = (size_t)(s + 1 - l0), c = (size_t)(u + 1 - (s + 1));
            char *tmp = malloc(a);
            if (!tmp)
                return 2;
            memcpy(tmp, l0, a);
            memmove(l0, s + 1, c);
            memcpy(l0 + c, tmp, a);
            free(tmp);
        }
        }
    }
    f = fopen(argv[3], "wb");
    if (!f || fwrite(b, 1, n, f) != n || fclose(f)) {
        perror(argv[3]);
        return 2;
    }
    free(b);
    return 0;
}
