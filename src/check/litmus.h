/*
 * litmus.h - PTX litmus tests as data: the parsed test, its observable
 * outcome, the condition, and the barrier plan shared by the SC enumerator
 * and the PTX translation.
 *
 * The input format is the litmus dialect of the shared suite
 * (litmus/README.md): a header, an opaque comment, an init block, a
 * program table with one column per thread, and a final condition. Parsing
 * never exits: errors come back as "file:line: what is wrong".
 * An outcome is the vector of final values of the test's observables (the
 * registers the condition names, then every other register the code writes,
 * then every physical location), so that histograms, the SC oracle and the
 * condition all speak about the same thing.
 * INVARIANT: every label target, register and location index is in range
 * after a successful parse.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef CHECK_LITMUS_H
#define CHECK_LITMUS_H

#include <stdio.h>

#include "base/types.h"
#include "sim/req.h"

#define LITMUS_MAX_THREADS 8
#define LITMUS_MAX_REGS    16 /* r0 .. r15 */
#define LITMUS_MAX_LOCS    32
#define LITMUS_MAX_INSTRS  64 /* per thread, labels not counted */
#define LITMUS_MAX_LABELS  16 /* per thread */
#define LITMUS_MAX_NODES   64 /* condition expression nodes */
#define LITMUS_MAX_GROUPS  16 /* barrier groups of a test */
#define LITMUS_MAX_OBS     (LITMUS_MAX_THREADS * LITMUS_MAX_REGS + LITMUS_MAX_LOCS)

enum litmus_op {
    LOP_LD,         /* ld / tld / suld / cold: dst := [loc] */
    LOP_ST,         /* st / sust: [loc] := a */
    LOP_ATOM,       /* atom: dst := old; [loc] := f(old, a, b) */
    LOP_RED,        /* red: [loc] := f(old, a) */
    LOP_FENCE,      /* fence.sc / fence.acq_rel */
    LOP_PFENCE,     /* fence.proxy.* */
    LOP_BAR_SYNC,   /* bar.cta.sync inst[, id[, count]] */
    LOP_BAR_ARRIVE, /* bar.cta.arrive inst */
    LOP_ADD,        /* dst := a + b */
    LOP_BEQ,        /* if a == b goto target */
    LOP_BNE,        /* if a != b goto target */
    LOP_GOTO,
    LOP_N
};

enum litmus_proxy {
    LPROXY_GENERIC,
    LPROXY_TEXTURE,
    LPROXY_SURFACE,
    LPROXY_CONSTANT,
    LPROXY_ALIAS /* fence.proxy.alias only */
};

/* An operand: an integer or a register of the executing thread. */
struct litmus_val {
    bool is_reg;
    int32_t v; /* the integer, or the register number */
};

struct litmus_instr {
    uint8_t op;                /* enum litmus_op */
    uint8_t sem;               /* enum mem_sem: WEAK RELAXED ACQUIRE RELEASE ACQ_REL SC */
    uint8_t scope;             /* enum mem_scope (SCOPE_N for .weak and proxy fences) */
    uint8_t atom;              /* enum atom_kind: ADD SUB CAS EXCH */
    uint8_t proxy;             /* enum litmus_proxy of the access or proxy fence */
    uint8_t n_bar_ops;         /* bar.cta.sync: 1 (inst), 2 (+id) or 3 (+count) */
    int8_t dst;                /* destination register, -1 if none */
    int8_t loc;                /* location index (as written, maybe an alias), -1 if none */
    struct litmus_val a, b, c; /* st value | atom operand, cas new | add/branch operands |
                                  bar inst, id, count */
    int16_t target;            /* branch target: instruction index (may equal n_instrs) */
    int line;                  /* source line */
};

struct litmus_label {
    char name[16];
    int16_t at; /* index of the instruction the label precedes */
};

struct litmus_thread {
    int cta, gpu; /* placement from the header */
    int gpm;      /* ... and the GPU module, ",gpm N" (default 0) */
    int warp;     /* ",warp N": threads of one CTA naming the same warp
                     run as its lanes, in column order; -1: a warp of
                     its own */
    int lane;     /* its lane in that warp (0 without ",warp") */
    bool on_cpu;  /* "P1@cpu N" (docs/cpu.md): on CPU core `cpu`; gpu is -1
                     and cta -1 - cpu, so that it shares no CTA or GPU with
                     another thread, only the system (.sys) */
    int cpu;
    unsigned n_instrs;
    struct litmus_instr ins[LITMUS_MAX_INSTRS];
    unsigned n_labels;
    struct litmus_label labels[LITMUS_MAX_LABELS];
    int32_t reg_init[LITMUS_MAX_REGS];
    uint32_t regs_written;     /* bit r: some instruction writes register r */
    uint32_t regs_initialised; /* bit r: the init block gives register r a value */
    uint32_t regs_used;        /* bit r: read, written, initialised or in the condition */
};

struct litmus_loc {
    char name[24];
    int32_t init;
    int alias_of;  /* index of the location this one aliases, -1 for a real location */
    uint8_t proxy; /* enum litmus_proxy of the alias declaration */
    int root;      /* the physical location: follows alias chains */
};

enum litmus_kind { LITMUS_EXISTS, LITMUS_NOT_EXISTS, LITMUS_FORALL };
extern const char *const litmus_kind_names[3];

enum litmus_node_kind { LN_AND, LN_OR, LN_NOT, LN_EQ, LN_NE };
enum litmus_term_kind { LT_INT, LT_REG, LT_LOC };

struct litmus_term {
    uint8_t kind;  /* enum litmus_term_kind */
    int8_t thread; /* LT_REG */
    int16_t index; /* register number (LT_REG) or location index (LT_LOC) */
    int32_t value; /* LT_INT */
};

struct litmus_node {
    uint8_t kind;              /* enum litmus_node_kind */
    int16_t l, r;              /* children (LN_AND/OR; LN_NOT uses l) */
    struct litmus_term lt, rt; /* LN_EQ / LN_NE */
};

/* Feature flags found while parsing, for skip reasons. */
#define LITMUS_F_PROXY    (1u << 0) /* non-generic proxy access or proxy fence */
#define LITMUS_F_ALIAS    (1u << 1) /* "@ ... aliases" declaration */
#define LITMUS_F_MULTIGPU (1u << 2) /* threads on more than one GPU */
#define LITMUS_F_BARRIER  (1u << 3)
#define LITMUS_F_CONTROL  (1u << 4)
#define LITMUS_F_CPU      (1u << 5) /* threads on CPU cores ("P1@cpu N") */

/* One barrier group: barriers of one CTA with the same inst and id. */
struct litmus_bar_group {
    int cta, gpu, inst;
    int id;           /* the id value; -1 when the group has no id; -2 when dynamic */
    int count;        /* explicit thread count, 0 when none */
    uint32_t members; /* threads whose code holds a barrier of the group */
    bool dynamic;     /* an id comes from a register a thread writes: decided at run time */
};

struct litmus_test {
    char path[512]; /* as given */
    char name[128]; /* from the header */
    unsigned n_threads;
    struct litmus_thread th[LITMUS_MAX_THREADS];
    unsigned n_locs;
    struct litmus_loc locs[LITMUS_MAX_LOCS];
    enum litmus_kind kind;
    unsigned n_nodes;
    struct litmus_node nodes[LITMUS_MAX_NODES];
    int root;          /* condition root node */
    unsigned features; /* LITMUS_F_* */
    /* barrier plan (litmus_parse fills it) */
    unsigned n_groups;
    struct litmus_bar_group groups[LITMUS_MAX_GROUPS];
    int8_t bar_group[LITMUS_MAX_THREADS][LITMUS_MAX_INSTRS]; /* instr -> group, -1 */
    /* observables (litmus_parse fills them) */
    unsigned n_obs, n_obs_cond;             /* the first n_obs_cond are named by the condition */
    struct litmus_term obs[LITMUS_MAX_OBS]; /* LT_REG or LT_LOC (a root location) */
};

/* ---- parsing ---- */

/* Parse litmus text. `path` names the file in messages. Returns 0, or -1 with
 * "path:line: what is wrong" in err. */
int litmus_parse(const char *text, const char *path, struct litmus_test *t, char *err,
                 size_t errlen);
/* Read and parse a file. */
int litmus_parse_file(const char *path, struct litmus_test *t, char *err, size_t errlen);

/* ---- outcomes and the condition ---- */

/* Value of a condition term in an outcome (values[i] belongs to obs[i]).
 * Registers that are not observables keep their initial value. */
int32_t litmus_term_value(const struct litmus_test *t, const struct litmus_term *term,
                          const int32_t *values);
/* Whether the condition's expression C holds in the outcome. */
bool litmus_cond_holds(const struct litmus_test *t, const int32_t *values);
/* The condition's value when it is the same in every outcome (1 or 0: it
 * names no register or location, as `exists (0 == 0)`, or only ones no
 * instruction writes, or folds to a constant, as `P0:r0 == 1 /\ 0 == 1`),
 * else -1. */
int litmus_cond_constant(const struct litmus_test *t);
/* Order of two outcomes of n values: -1, 0 or 1, value by value. */
int litmus_outcome_cmp(const int32_t *a, const int32_t *b, unsigned n);
/* The row equal to v in a table of n_rows sorted rows of n values, or -1. */
int litmus_outcome_find(const int32_t *rows, unsigned n_rows, unsigned n, const int32_t *v);
/* Print an outcome as "P0:r1=1 P1:r2=0 x=1". */
void litmus_outcome_format(const struct litmus_test *t, const int32_t *values, char *buf,
                           size_t len);
/* Why gpucoh cannot run the test yet (proxies, aliases, several GPUs), or NULL. */
const char *litmus_unsupported(const struct litmus_test *t);
/* The same on a machine of `gpus` GPUs of `gpms` GPMs each and `cpus` CPU
 * cores: a test whose threads all fit runs there. */
const char *litmus_unsupported_on(const struct litmus_test *t, unsigned gpus, unsigned gpms,
                                  unsigned cpus);
/* Name of register/location observables, "P0:r1" or "x". */
void litmus_obs_name(const struct litmus_test *t, unsigned i, char *buf, size_t len);

#endif
