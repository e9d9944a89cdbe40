/*
 * oracle_int.h - what the files of the litmus oracle share (oracle.c,
 * oracle_trace.c, oracle_build.c, oracle_choose.c, oracle_explain.c): its
 * limits, a thread trace and its events, the enumeration's context, and the
 * functions one stage calls in another. Private to check/.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef CHECK_ORACLE_INT_H
#define CHECK_ORACLE_INT_H

#include "check/oracle.h"

#include "base/log.h"

/* ---- stage 1: thread traces ---- */

#define MAX_TEV      40    /* events of one thread trace */
#define MAX_TRACES   16384 /* traces of one thread */
#define MAX_VALS     64    /* values one location can hold */
#define MAX_VARIANTS 64    /* final states of one candidate */
#define MAX_CANDIDATES                                                                             \
    1000000ull /* candidates (and trace combinations) of one test: beyond                          \
                  this it is refused rather than left running for minutes */
#define MAX_SNAPS 32

enum ekind { EK_R, EK_W, EK_F, EK_BAR };

struct tev {
    uint8_t kind;     /* enum ekind */
    uint8_t sem;      /* enum mem_sem */
    uint8_t scope;    /* enum mem_scope, SCOPE_N: none */
    uint8_t proxy;    /* enum litmus_proxy */
    bool pfence;      /* fence.proxy.* */
    bool rmw_instr;   /* part of an atom/red */
    bool arrive;      /* bar.cta.arrive */
    int8_t loc, root; /* as written, physical */
    int32_t value;    /* read or written */
    int16_t instr;
    int32_t bar_inst, bar_id, bar_count;
    uint64_t data; /* local reads the written value depends on */
    uint64_t ctrl; /* local reads a branch before this event depends on */
};

/* How a thread trace ends (the last two only with oracle_opts.liveness). */
enum trace_end {
    TR_DONE,    /* the thread finishes */
    TR_SPIN,    /* it repeats its last iteration forever (spin_reads) */
    TR_BLOCKED, /* it waits forever at its last event, a bar.cta.sync */
};

struct trace {
    unsigned n;
    unsigned backjumps;
    int cut_line;        /* > 0: cut at the unroll bound by the jump on this line */
    uint8_t end;         /* enum trace_end */
    uint64_t spin_reads; /* TR_SPIN: the reads of the iteration that repeats */
    int32_t regs[LITMUS_MAX_REGS];
    int8_t rmw_w[MAX_TEV]; /* read of an atom -> its write, -1 */
    struct tev ev[MAX_TEV];
};

struct tstate {
    unsigned pc;
    int32_t regs[LITMUS_MAX_REGS];
    uint64_t rdeps[LITMUS_MAX_REGS];
    uint64_t ctrl;
    unsigned n_snaps;
    struct {
        int pc;
        unsigned ev_at; /* the trace's length then: the iteration since starts there */
        int32_t regs[LITMUS_MAX_REGS];
    } snap[MAX_SNAPS];
    struct trace tr;
};

struct tset {
    unsigned n, cap;
    struct trace *v;
};

struct ctx {
    const struct litmus_test *t;
    const struct cat_model *cat;
    unsigned unroll;
    bool explain;
    bool liveness;        /* oracle_opts.liveness */
    bool first_finishing; /* oracle_opts.first_finishing */
    bool found;           /* ... and a consistent execution that finishes was found: stop */
    int deferred_cut;     /* ... the line of a loop cut at the unroll bound in a consistent
                             execution, a limit only if no execution is found */
    bool failed;
    bool limit;                  /* the failure is one of the oracle's limits (fail_limit) */
    bool chain[LITMUS_MAX_LOCS]; /* root -> its writes form one coherence chain, each
                                    RMW reading its immediate predecessor (chain_locations) */
    char *err;
    size_t errlen;
    /* stage 1 */
    unsigned n_vals[LITMUS_MAX_LOCS];
    int32_t vals[LITMUS_MAX_LOCS][MAX_VALS];
    unsigned n_spun_vals[LITMUS_MAX_LOCS];        /* values written on paths dropped as spinning */
    int32_t spun_vals[LITMUS_MAX_LOCS][MAX_VALS]; /* this round: another thread may read them */
    bool head[LITMUS_MAX_THREADS][LITMUS_MAX_INSTRS + 1];       /* a loop head */
    uint32_t killed[LITMUS_MAX_THREADS][LITMUS_MAX_INSTRS + 1]; /* registers a loop head's
                                    straight-line start writes before reading them */
    struct tset ts[LITMUS_MAX_THREADS];
    unsigned max_backjumps;
    int first_cut; /* line of the first jump a trace was cut at */
    uint64_t n_combos;
    /* stage 2: the chosen traces */
    const struct trace *pick[LITMUS_MAX_THREADS];
    unsigned n_ev;
    struct tev ev[CAT_MAX_EVENTS];
    int8_t ev_thread[CAT_MAX_EVENTS];
    struct cat_exec x;                 /* the candidate; while choosing, the lower bound of a
                                          partial execution (the choices made so far) */
    struct cat_exec x_hi;              /* ... and its upper bound: rf, co, sync_fence and syncbar
                                          with every choice left too (refuted) */
    cat_rel fence_all;                 /* every sync_fence edge some fence.sc order has */
    cat_rel bar_all;                   /* every syncbar edge some choice of completers has */
    unsigned init_of[LITMUS_MAX_LOCS]; /* root -> its initial write */
    unsigned n_reads, reads[CAT_MAX_EVENTS];
    uint64_t rf_cand[CAT_MAX_EVENTS];        /* per read (index into reads) */
    uint64_t rf_now[CAT_MAX_EVENTS];         /* the same, narrowed by the co chosen */
    unsigned n_wlocs, wloc[LITMUS_MAX_LOCS]; /* roots with writes beyond the initial one */
    unsigned n_w[LITMUS_MAX_LOCS], w[LITMUS_MAX_LOCS][CAT_MAX_EVENTS];
    uint64_t lco[LITMUS_MAX_LOCS][CAT_MAX_EVENTS];        /* co among w[l] (local indices) */
    uint64_t must_order[LITMUS_MAX_LOCS][CAT_MAX_EVENTS]; /* pairs Coherence2 orders */
    bool partial_co;                                      /* the model's co need not be total */
    unsigned n_fsc, fsc[CAT_MAX_EVENTS];
    uint64_t fsc_ms[CAT_MAX_EVENTS]; /* morally strong fence.sc pairs */
    cat_rel bar_fixed;               /* syncbar edges without a choice */
    unsigned n_quorums;
    struct {
        unsigned n, count;
        unsigned ev[LITMUS_MAX_THREADS * 4];
    } quorum[LITMUS_MAX_GROUPS];
    unsigned quorum_pick[LITMUS_MAX_GROUPS]; /* bit mask of completers */
    int cut_line;          /* a chosen trace is cut at the unroll bound (its jump's line) */
    bool stuck;            /* a chosen trace spins: the candidates never finish */
    uint64_t spin_reads;   /* their spinning reads (event indices) */
    uint64_t blocked_bars; /* the barrier events threads wait at forever */
    int32_t outcome[LITMUS_MAX_OBS];
    unsigned n_cur;
    int cur[MAX_VARIANTS]; /* the outcomes of the candidate under way (several when
                              a location has several co-maximal writes) */
    bool registering;      /* outcomes() lists those of a pruned partial execution */
    bool variants_full;    /* ... and there were more than MAX_VARIANTS */
    struct oracle_result *r;
};

/* ---- oracle.c ---- */

/* The test is outside what the oracle handles (an unsupported instruction). */
void oracle_fail(struct ctx *c, int line, const char *fmt, ...) PRINTF_LIKE(3, 4);
/* The test is beyond the oracle's limits (events, paths, values, candidates,
 * the unroll bound): ORACLE_LIMIT, a test that can still run unjudged. */
void oracle_fail_limit(struct ctx *c, int line, const char *fmt, ...) PRINTF_LIKE(3, 4);

/* ---- oracle_trace.c: stage 1 ---- */

static inline bool scope_has(const struct litmus_test *t, unsigned scope, int a, int b)
{
    switch (scope) {
    case SCOPE_CTA:
        return t->th[a].gpu == t->th[b].gpu && t->th[a].cta == t->th[b].cta;
    case SCOPE_GPU:
        return t->th[a].gpu == t->th[b].gpu;
    case SCOPE_SYS:
        return true;
    default:
        return false;
    }
}

void oracle_chain_locations(struct ctx *c, enum oracle_model m);
void oracle_make_traces(struct ctx *c);

/* ---- oracle_build.c: stage 2 ---- */

void oracle_combine(struct ctx *c, unsigned th);

/* ---- oracle_choose.c: stage 3 ---- */

/* The enumeration is over: failed, or (first_finishing) it found what it
 * looked for. */
static inline bool halted(const struct ctx *c)
{
    return c->failed || c->found;
}

void oracle_quorum_edges(const struct ctx *c, unsigned k, unsigned pick, cat_rel rel);
void oracle_choose_co(struct ctx *c, unsigned li);

/* ---- oracle_explain.c ---- */

void oracle_describe(const struct ctx *c, unsigned e, char *buf, size_t len);
void oracle_explain(struct ctx *c, const struct cat_fail *f);

#endif
