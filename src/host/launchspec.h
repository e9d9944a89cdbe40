/*
 * launchspec.h - launch-spec files: run any PTX file without writing C.
 *
 * A spec is a small line-based text file (docs/launch-spec.md): PTX modules
 * to load, buffers (element type, count, initial contents), launches (kernel,
 * grid, block, shared memory, arguments naming buffers or scalars), and
 * checks and prints that run in file order after the launches before them.
 * `gpucoh exec` runs one against the host API, in timing or functional mode.
 *
 * Loading is two-phase so that every mistake is reported against the spec's
 * own line before anything runs: launchspec_parse() checks the syntax and the
 * names; launchspec_resolve() reads the PTX and data files and checks each
 * launch against its kernel's parameters, and that every __constant__
 * variable it reads has contents (a PTX initialiser or a `symbol` line above
 * it). launchspec_load() does both.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef HOST_LAUNCHSPEC_H
#define HOST_LAUNCHSPEC_H

#include <stdio.h>

#include "base/types.h"
#include "host/host.h"

#define LSPEC_TYPES(X)                                                                             \
    X(U8, "u8", 1)                                                                                 \
    X(S8, "s8", 1)                                                                                 \
    X(U16, "u16", 2)                                                                               \
    X(S16, "s16", 2)                                                                               \
    X(U32, "u32", 4)                                                                               \
    X(S32, "s32", 4)                                                                               \
    X(U64, "u64", 8)                                                                               \
    X(S64, "s64", 8)                                                                               \
    X(F32, "f32", 4)                                                                               \
    X(F64, "f64", 8)

#define X(n, s, b) LSPEC_##n,
enum lspec_type { LSPEC_TYPES(X) LSPEC_NTYPES };
#undef X

/* A value of the spec's expression language: 64-bit integer or double. */
struct lspec_val {
    bool is_float;
    int64_t i;
    double f;
};

struct lspec_expr; /* an expression tree, private to launchspec*.c (launchspec_int.h) */

/* How a buffer's initial contents, or a check's expected contents, are made. */
enum lspec_fill {
    LSPEC_FILL_ZEROS,
    LSPEC_FILL_EXPR,   /* const(v), iota(start, step) and "= EXPR" (per element i) */
    LSPEC_FILL_RANDOM, /* random(seed[, lo, hi]) */
    LSPEC_FILL_FILE,   /* file(path): raw little-endian elements */
    LSPEC_FILL_VALUES, /* values(v0, v1, ...): exactly count of them */
};

struct lspec_source {
    enum lspec_fill kind;
    struct lspec_expr *expr; /* LSPEC_FILL_EXPR */
    uint64_t seed;           /* LSPEC_FILL_RANDOM */
    bool has_range;
    struct lspec_val lo, hi;  /* random range: [lo, hi) for floats, [lo, hi] for integers */
    char *path;               /* LSPEC_FILL_FILE, resolved against the spec's folder */
    struct lspec_val *values; /* LSPEC_FILL_VALUES */
    uint64_t n_values;
};

struct lspec_buffer {
    char *name;
    enum lspec_type type;
    uint64_t count; /* elements */
    struct lspec_source init;
    int line;
    /* --- filled while running --- */
    addr_t dev;
    uint8_t *initial; /* contents as initialized (host copy) */
    uint8_t *current; /* contents read back from the device */
};

struct lspec_module {
    char *path; /* resolved against the spec's folder */
    int line;
    char *text;             /* read by launchspec_resolve */
    struct ptx_module *mod; /* parsed by launchspec_resolve, for checking launches */
};

enum lspec_arg_kind { LSPEC_ARG_BUFFER, LSPEC_ARG_SCALAR };

struct lspec_arg {
    enum lspec_arg_kind kind;
    unsigned buf;         /* LSPEC_ARG_BUFFER: buffer index */
    uint64_t offset;      /* LSPEC_ARG_BUFFER: elements past the buffer's start */
    struct lspec_val val; /* LSPEC_ARG_SCALAR */
    int type;             /* forced type (u32:7), or -1: sized by the parameter */
    struct karg karg;     /* scalars: set by launchspec_resolve */
};

struct lspec_launch {
    char *kernel;
    struct dim3 grid, block;
    uint32_t shared_bytes; /* dynamic shared memory */
    bool on_cpu;           /* 'on cpu': runs on the CPU cores, one thread each */
    bool together;         /* ends in '&': runs together with the next launch */
    struct lspec_arg *args;
    unsigned n_args;
    int line;
};

struct lspec_check {
    unsigned buf;
    struct lspec_source expect;
    double tol; /* |got-exp| <= tol, or <= tol*|exp|; 0 = exact */
    int line;
};

struct lspec_print {
    unsigned buf;
    uint64_t first, count;
    int line;
};

/* `symbol NAME[+K] TYPE COUNT [FILL]`: writes COUNT elements of TYPE at
 * element K of a module-level variable of the PTX (a __constant__ array), as
 * the host's cudaMemcpyToSymbol does, before the launches below it. */
struct lspec_symbol {
    char *name;
    uint64_t first; /* element (of type) the write starts at */
    enum lspec_type type;
    uint64_t count;
    struct lspec_source init;
    int line;
};

enum lspec_step_kind { LSPEC_LAUNCH, LSPEC_CHECK, LSPEC_PRINT, LSPEC_SYMBOL };

/* Launches, checks and prints in file order. */
struct lspec_step {
    enum lspec_step_kind kind;
    unsigned index; /* into launches, checks, prints or symbols */
};

struct launchspec {
    char *filename; /* for messages */
    char *dir;      /* relative paths are resolved against it */
    struct lspec_module *modules;
    unsigned n_modules;
    struct lspec_buffer *buffers;
    unsigned n_buffers;
    struct lspec_launch *launches;
    unsigned n_launches;
    struct lspec_check *checks;
    unsigned n_checks;
    struct lspec_print *prints;
    unsigned n_prints;
    struct lspec_symbol *symbols;
    unsigned n_symbols;
    struct lspec_step *steps;
    unsigned n_steps;
    struct lspec_expr *exprs; /* every expression node, for freeing */
    bool resolved;
};

extern const char *const lspec_type_names[LSPEC_NTYPES];
extern const unsigned lspec_type_bytes[LSPEC_NTYPES];

/* Parse spec text. `filename` names it in messages; relative paths are
 * resolved against `dir` (NULL: the folder of filename). Returns NULL with
 * "file:line: what is wrong" in err. Touches no other file. */
struct launchspec *launchspec_parse(const char *text, const char *filename, const char *dir,
                                    char *err, size_t errlen);
/* Read and parse the PTX modules, check every launch against its kernel
 * (name, argument count and sizes), check data files' sizes. Returns 0, or -1
 * with "file:line: what is wrong" (the spec's line, or the PTX's). */
int launchspec_resolve(struct launchspec *s, char *err, size_t errlen);
/* Read a spec file, parse and resolve it. NULL with a message on error. */
struct launchspec *launchspec_load(const char *path, char *err, size_t errlen);
void launchspec_free(struct launchspec *s);

/* Index of the buffer called name, or -1. */
int launchspec_find_buffer(const struct launchspec *s, const char *name);

/* Run a resolved spec on h: load its PTX, allocate and fill the buffers, then
 * run launches, checks and prints in file order, reporting to out. Returns 0
 * when every check passed, 1 when one failed (each failure names the element:
 * index, expected, got). Errors found only while running (an expression
 * indexing past a buffer) are fatal, with the spec's file:line. */
int launchspec_run(struct launchspec *s, struct host *h, FILE *out);

/* Write the named buffer's current device contents to path as raw
 * little-endian elements. Returns 0, or -1 with a message. */
int launchspec_dump(struct launchspec *s, struct host *h, const char *buffer, const char *path,
                    char *err, size_t errlen);

#endif
