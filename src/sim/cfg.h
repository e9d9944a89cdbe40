/*
 * cfg.h - configuration option tables, INI loading and --set overrides.
 *
 * Every option is one row: its full name ("l1.ways" = section l1, key ways),
 * kind, where it lives in the configuration struct, default (as text, parsed
 * like user input), bounds, unit and help. Loading an INI file (libinih) or a
 * --set override goes through the same parser; unknown keys, values that do
 * not parse and values out of bounds are errors that name file:line. The
 * resolved configuration prints back as a valid INI file.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef SIM_CFG_H
#define SIM_CFG_H

#include <stdio.h>

#include "base/types.h"

enum cfg_kind {
    CFG_KIND_U32,
    CFG_KIND_U64,
    CFG_KIND_F64,
    CFG_KIND_BOOL,
    CFG_KIND_ENUM,
    CFG_KIND_STR,
    CFG_KIND_LIMIT
};

/* CFG_KIND_LIMIT fields are uint64_t: a number (0 = no limit) or "auto",
 * stored as CFG_AUTO, for a limit the simulator scales to the work. */
#define CFG_AUTO UINT64_MAX

/* CFG_KIND_STR fields are char[CFG_STR_MAX]; some are file paths (fcs.table), which
 * must fit wherever a checkout or a temporary folder lives */
#define CFG_STR_MAX 256

struct cfg_opt {
    const char *name; /* "section.key" */
    enum cfg_kind kind;
    size_t off;                 /* offset of the field in the config struct */
    const char *def;            /* default, as text */
    double min, max;            /* bounds for numbers */
    const char *const *choices; /* ENUM: NULL-terminated names; the field is a uint32 index */
    const char *unit;           /* "cycles", "bytes", "MHz", or "" */
    const char *help;
};

#define CFG_U32(n, T, f, d, lo, hi, u, h)                                                          \
    {                                                                                              \
        n, CFG_KIND_U32, offsetof(T, f), d, lo, hi, NULL, u, h                                     \
    }
#define CFG_U64(n, T, f, d, lo, hi, u, h)                                                          \
    {                                                                                              \
        n, CFG_KIND_U64, offsetof(T, f), d, lo, hi, NULL, u, h                                     \
    }
#define CFG_F64(n, T, f, d, lo, hi, u, h)                                                          \
    {                                                                                              \
        n, CFG_KIND_F64, offsetof(T, f), d, lo, hi, NULL, u, h                                     \
    }
#define CFG_BOOL(n, T, f, d, h)                                                                    \
    {                                                                                              \
        n, CFG_KIND_BOOL, offsetof(T, f), d, 0, 1, NULL, "", h                                     \
    }
#define CFG_ENUM(n, T, f, d, ch, h)                                                                \
    {                                                                                              \
        n, CFG_KIND_ENUM, offsetof(T, f), d, 0, 0, ch, "", h                                       \
    }
#define CFG_STR(n, T, f, d, h)                                                                     \
    {                                                                                              \
        n, CFG_KIND_STR, offsetof(T, f), d, 0, 0, NULL, "", h                                      \
    }
#define CFG_LIMIT(n, T, f, d, hi, u, h)                                                            \
    {                                                                                              \
        n, CFG_KIND_LIMIT, offsetof(T, f), d, 0, hi, NULL, u, h                                    \
    }
#define CFG_END                                                                                    \
    {                                                                                              \
        0                                                                                          \
    }

/* Set every option to its default. */
void cfg_defaults(const struct cfg_opt *tab, void *base);

/* Set one option from text. Returns 0, or -1 with a message in err. */
int cfg_set(const struct cfg_opt *tab, void *base, const char *name, const char *value, char *err,
            size_t errlen);

/* Apply "section.key=value" (a --set argument). */
int cfg_set_assignment(const struct cfg_opt *tab, void *base, const char *assign, char *err,
                       size_t errlen);

/* Load an INI file (a regular file of at most CFG_FILE_MAX bytes). Errors read
 * "path:line: what is wrong": syntax, unknown keys, bad values, a key set
 * twice. If `lines` is not NULL (one entry per row of tab, zeroed), each
 * option set by the file gets the line that set it, for later checks to
 * name. */
#define CFG_FILE_MAX (1 << 20)
int cfg_load_ini(const struct cfg_opt *tab, void *base, const char *path, unsigned *lines,
                 char *err, size_t errlen);

/* The same on INI text in memory; `name` is used in messages. */
int cfg_parse_ini(const struct cfg_opt *tab, void *base, const char *name, const char *text,
                  unsigned *lines, char *err, size_t errlen);

/* Print the resolved configuration as INI (with help as comments if verbose). */
void cfg_print(const struct cfg_opt *tab, const void *base, FILE *out, bool verbose);

/* The value of one option as text (for JSON headers and sweeps). */
void cfg_format(const struct cfg_opt *o, const void *base, char *buf, size_t len);

const struct cfg_opt *cfg_find(const struct cfg_opt *tab, const char *name);

/* A hash of every option's name and value (doubles to the last bit), to tell
 * two resolved configurations apart: equal configurations give equal
 * fingerprints in every build whose option table is the same. */
uint64_t cfg_fingerprint(const struct cfg_opt *tab, const void *base);

#endif
