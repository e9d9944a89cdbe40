/*
 * opt.h - the one option parser of gpucoh's commands.
 *
 * A command describes its options as rows (name, kind, where the value goes,
 * bounds or choices) and calls opt_parse(), so every option of every command
 * is read the same way and nothing is accepted silently:
 *   - "--name VALUE" and "--name=VALUE"; a flag takes no value;
 *   - numbers (OPT_U64, OPT_UINT): decimal or 0x hex digits only - no sign,
 *     no trailing characters - within [min, max], overflow included;
 *     OPT_F64: a finite decimal number within [min, max];
 *   - OPT_ENUM: one of the listed names (the field gets its index);
 *   - OPT_IN: a path that must name a readable regular file; OPT_OUT: a path
 *     whose folder exists and is writable, and which is not a folder itself,
 *     checked before anything runs so a typo costs no simulation time;
 *   - OPT_CALL: the row's function takes the text (repeatable options such
 *     as --set, or a value only the command can check);
 *   - an option that takes one value (not a flag, not OPT_CALL) given twice
 *     is an error: the first value would be dropped without a word;
 *   - an unknown option, a missing value or a bad value prints
 *     "gpucoh CMD: --opt: what is wrong" and is exit 2 (EXIT_USAGE).
 * Rows are searched in order over several tables (the command's own first,
 * then shared ones such as sim_opts_rows()), so a command can override a
 * shared option. Arguments that do not start with '-' (and everything after
 * "--") are positional and handed back in order.
 *
 * Adopting it in a command: declare `struct opt rows[] = {OPT_FLAG_ROW(...),
 * ..., OPT_END}`, call opt_parse(), and return its result when it is not
 * OPT_CONTINUE. Code with its own loop can still use opt_number() and
 * opt_check_output() so numbers and paths follow the same rules.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef CLI_OPT_H
#define CLI_OPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum opt_kind {
    OPT_FLAG,
    OPT_STR,
    OPT_U64,
    OPT_UINT,
    OPT_F64,
    OPT_ENUM,
    OPT_IN,
    OPT_OUT,
    OPT_CALL
};

/* OPT_CALL: take `value` for option `name`; return 0, or -1 with a message in
 * err (printed after "gpucoh CMD: "). */
typedef int opt_call_fn(void *ctx, const char *name, const char *value, char *err, size_t errlen);

struct opt {
    const char *name;  /* "--episodes" */
    const char *alias; /* "-j", or NULL */
    enum opt_kind kind;
    void *dst;                  /* bool, const char *, uint64_t, unsigned, double, int */
    double min, max;            /* numbers */
    const char *const *choices; /* OPT_ENUM: NULL-terminated */
    opt_call_fn *call;          /* OPT_CALL */
    void *ctx;                  /* OPT_CALL */
};

#define OPT_FLAG_ROW(n, a, p)                                                                      \
    {                                                                                              \
        n, a, OPT_FLAG, p, 0, 0, NULL, NULL, NULL                                                  \
    }
#define OPT_STR_ROW(n, a, p)                                                                       \
    {                                                                                              \
        n, a, OPT_STR, p, 0, 0, NULL, NULL, NULL                                                   \
    }
#define OPT_U64_ROW(n, a, p, lo, hi)                                                               \
    {                                                                                              \
        n, a, OPT_U64, p, lo, hi, NULL, NULL, NULL                                                 \
    }
#define OPT_UINT_ROW(n, a, p, lo, hi)                                                              \
    {                                                                                              \
        n, a, OPT_UINT, p, lo, hi, NULL, NULL, NULL                                                \
    }
#define OPT_F64_ROW(n, a, p, lo, hi)                                                               \
    {                                                                                              \
        n, a, OPT_F64, p, lo, hi, NULL, NULL, NULL                                                 \
    }
#define OPT_ENUM_ROW(n, a, p, ch)                                                                  \
    {                                                                                              \
        n, a, OPT_ENUM, p, 0, 0, ch, NULL, NULL                                                    \
    }
#define OPT_IN_ROW(n, a, p)                                                                        \
    {                                                                                              \
        n, a, OPT_IN, p, 0, 0, NULL, NULL, NULL                                                    \
    }
#define OPT_OUT_ROW(n, a, p)                                                                       \
    {                                                                                              \
        n, a, OPT_OUT, p, 0, 0, NULL, NULL, NULL                                                   \
    }
#define OPT_CALL_ROW(n, a, fn, c)                                                                  \
    {                                                                                              \
        n, a, OPT_CALL, NULL, 0, 0, NULL, fn, c                                                    \
    }
#define OPT_END                                                                                    \
    {                                                                                              \
        0                                                                                          \
    }

/* Positional arguments, in order; at most `max` (more is a usage error). */
struct opt_args {
    const char **v;
    unsigned n, max;
};

#define OPT_CONTINUE (-1)

/* Parse argv[first..argc) against `tables` (NULL-terminated). --help and -h
 * print usage(stdout) and return 0; an error prints a message and a pointer to
 * --help on stderr and returns EXIT_USAGE; otherwise OPT_CONTINUE. */
int opt_parse(const char *cmd, const struct opt *const *tables, int argc, char **argv, int first,
              struct opt_args *pos, void (*usage)(FILE *));

/* For code with its own loop: if argv[*i] names a row of `tables`, take it
 * (and its value, advancing *i) as opt_parse() would and return 1; return 0
 * if it names none, -1 with a message in err if it is malformed. */
int opt_take(const struct opt *const *tables, int argc, char **argv, int *i, char *err,
             size_t errlen);

/* An OPT_CALL function for repeatable options: appends the value to the
 * struct opt_args passed as ctx (too many is an error). */
int opt_append(void *ctx, const char *name, const char *value, char *err, size_t errlen);

/* Apply one row to `value` (for callers with their own loop). Returns 0, or -1
 * with "--name: what is wrong" in err. */
int opt_apply(const struct opt *row, const char *value, char *err, size_t errlen);

/* A whole number in [min, max]: digits (or 0x hex) only. Returns 0, or -1 with
 * "OPT: 'TEXT' is not a whole number from MIN to MAX" in err. */
int opt_number(const char *opt, const char *text, uint64_t min, uint64_t max, uint64_t *out,
               char *err, size_t errlen);

/* Check that `path` can be written as a result file: its folder exists and is
 * writable, and it is not a folder. Returns 0, or -1 with a message in err. */
int opt_check_output(const char *opt, const char *path, char *err, size_t errlen);

/* Check that `path` is a readable regular file. Returns 0, or -1. */
int opt_check_input(const char *opt, const char *path, char *err, size_t errlen);

#endif
