/*
 * exec_int.h - what the files of the PTX interpreter share (exec.c,
 * exec_alu.c, exec_warp.c): the CTA and warp state, the SIMT entry and call
 * frame, the small per-lane helpers every part uses (inline: they are on
 * the interpreter's hot path), and the functions one file calls in another.
 * Private to ptx/.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef PTX_EXEC_INT_H
#define PTX_EXEC_INT_H

#include "ptx/ir.h"

#include "base/bits.h"

#include <stddef.h>

struct ptx_cta {
    const struct ptx_kernel *k;
    const struct ptx_module *m;
    const struct px_func *f;
    struct ptx_dim3 ctaid, nctaid, ntid;
    uint8_t *params; /* copy of the launch's parameter buffer */
    uint32_t param_bytes;
    uint8_t *shmem; /* static + dynamic shared memory */
    uint32_t shmem_bytes, dyn_bytes, dynshm_base;
    unsigned n_threads, n_warps;
    struct {
        uint32_t popc; /* bar.red.popc: count of true predicates */
        bool all, any; /* bar.red.and / .or */
        unsigned arrived, released;
    } red[16];
};

/* Entry kinds: the Transaction entry runs an attempt of a transaction; the
 * Retry entry under it collects the lanes that aborted (docs/transactions.md). */
enum { SE_PLAIN, SE_TX, SE_RETRY };

struct simt_entry {
    uint32_t pc, rpc, mask;
    uint32_t call; /* 1 + frame index when this entry is a call marker */
    uint32_t kind; /* SE_* */
};

struct call_frame {
    const struct px_func *f;  /* the function running in this frame */
    const struct px_call *cs; /* the call site that created it (NULL: kernel) */
    uint32_t marker;          /* SIMT stack index of the caller's marker entry */
    uint32_t row_base, pred_base, local_base;
};

/* Warps are stepped interleaved with hundreds of others, so nearly every step
 * finds its warp out of the host's caches: what a step and an issue-cycle query
 * read first sits together at the start (the struct is cache-line aligned), and
 * the running SIMT entry is kept here rather than in the stack array. */
struct ptx_warp {
    /* hot */
    struct simt_entry top; /* the running entry, stack depth sp - 1 (when sp > 0) */
    const struct px_inst *ins;
    uint64_t *r;        /* register rows of the current function */
    uint32_t *p;        /* predicates of the current function */
    uint64_t *rr, *rp;  /* their ready cycles */
    uint32_t sp;        /* SIMT stack depth, top included */
    uint32_t n_pending; /* loads/atomics sent out and not completed */
    uint64_t ready_max; /* latest ready cycle of any register not pending */
    bool at_barrier;
    uint32_t exited;
    const uint64_t *imm;
    struct ptx_cta *c;
    /* current frame */
    uint32_t frame_base; /* local offset of the current frame */
    const struct ptx_module *m;
    unsigned warp_in_cta;
    /* storage */
    uint64_t *regs;
    uint32_t *preds;
    uint64_t *ready; /* rows then predicates */
    uint32_t n_rows, n_preds;
    uint8_t *local; /* 32 lanes x local_stride bytes */
    uint32_t local_stride;
    struct simt_entry *stk; /* entries below the top: [0, sp - 1) */
    uint32_t stk_cap;
    struct call_frame *frames;
    uint32_t nf, frames_cap;
    size_t cap_regs, cap_preds, cap_ready, cap_local, cap_stk, cap_frames; /* allocated */
    uint32_t tid[3][32];
    const struct px_inst *bar_red; /* bar.red waiting for its result */
    uint32_t bar_red_mask;
    /* transactions (only for modules that have them) */
    uint32_t tx_at;       /* 1 + SIMT stack index of the Transaction entry; 0: none */
    uint32_t tx_begin_pc; /* the gpucoh_tx_begin call being run */
    uint32_t tx_aborted;  /* lanes aborted in the running attempt (in the Retry entry) */
    uint64_t *tx_regs;    /* registers and predicates at the begin, restored for retries */
    uint32_t *tx_preds;
    struct ptx_tx_access *tx_log; /* the attempt's accesses in program order */
    uint32_t tx_n;
    size_t cap_tx_regs, cap_tx_preds, cap_tx_log;
};

static inline uint64_t trunc_to(uint64_t v, unsigned bytes)
{
    return bytes >= 8 ? v : v & ((1ull << (bytes * 8)) - 1);
}

static inline int64_t sext(uint64_t v, unsigned bytes)
{
    unsigned sh = 64 - bytes * 8;
    return (int64_t)(v << sh) >> sh;
}

/* A register's value for a sub-word or word type: signed types are kept
 * sign-extended to 64 bits, unsigned zero-extended. */
static inline uint64_t extend(uint64_t v, unsigned t)
{
    unsigned b = px_type_bytes(t);
    return px_type_signed(t) ? (uint64_t)sext(v, b) : trunc_to(v, b);
}

#define LANES(...)                                                                                 \
    do {                                                                                           \
        if (active == 0xffffffffu) {                                                               \
            for (unsigned l = 0; l < 32; l++) {                                                    \
                __VA_ARGS__;                                                                       \
            }                                                                                      \
        } else {                                                                                   \
            for (uint32_t m_ = active; m_; m_ &= m_ - 1) {                                         \
                unsigned l = (unsigned)__builtin_ctz(m_);                                          \
                __VA_ARGS__;                                                                       \
            }                                                                                      \
        }                                                                                          \
    } while (0)

static inline const uint64_t *row(const struct ptx_warp *w, const struct px_opnd *o)
{
    return (o->kind == OK_IMM ? w->imm : w->r) + (size_t)o->idx * 32;
}

static inline uint32_t pred_val(const struct ptx_warp *w, const struct px_opnd *o)
{
    uint32_t v = w->p[o->idx];
    return o->neg ? ~v : v;
}

/* exec_alu.c */
int exec_alu(struct ptx_warp *w, const struct px_inst *i, uint32_t active,
             const struct ptx_env *env, char *err, size_t errlen);
void exec_setp(struct ptx_warp *w, const struct px_inst *i, uint32_t active);
void exec_half(struct ptx_warp *w, const struct px_inst *i, uint32_t active);
void exec_hsetp(struct ptx_warp *w, const struct px_inst *i, uint32_t active);
void exec_set(struct ptx_warp *w, const struct px_inst *i, uint32_t active);

#endif /* PTX_EXEC_INT_H */
