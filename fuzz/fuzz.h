/*
 * fuzz.h - what every fuzz harness shares (fuzz/README.md).
 *
 * A harness feeds one input to one parser through fuzz_one(). The parsers
 * report bad input by returning an error (or, for a few host-side checks, by
 * fatal(): exit 2); both are fine outcomes. A simulator fault (panic: exit
 * 3), any other exit, a crash, a hang or a sanitizer report is a finding.
 * fatal() and exits 0..2 return here through log_set_exit; exit 3 aborts, so
 * libFuzzer saves the input.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef FUZZ_FUZZ_H
#define FUZZ_FUZZ_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"

static jmp_buf fuzz_jb;

static _Noreturn void fuzz_exit(int code)
{
    if (code > EXIT_USAGE)
        abort(); /* a simulator fault on input that only had to be parsed */
    longjmp(fuzz_jb, 1);
}

/* Run parse(text) on a NUL-terminated copy of the input. Inputs with a NUL
 * byte inside are cut there, as reading a text file would. */
static inline void fuzz_one(const uint8_t *data, size_t size, void (*parse)(const char *text))
{
    char *text = malloc(size + 1);
    if (!text)
        abort();
    memcpy(text, data, size);
    text[size] = 0;
    log_set_exit(fuzz_exit);
    if (!setjmp(fuzz_jb))
        parse(text);
    free(text);
}

/* The repository, for inputs that name files (launch specs, sweeps). */
static inline const char *fuzz_root(void)
{
    const char *r = getenv("GPUCOH_ROOT");
    return r ? r : GPUCOH_SOURCE_DIR;
}

#endif
