/*
 * exec.c - functional SIMT execution of decoded PTX, one warp instruction
 * per ptx_warp_step().
 *
 * A warp holds 32 lanes' registers struct-of-arrays (one row of 32 uint64_t
 * per register; predicates are 32-bit lane masks), a PDOM reconvergence
 * stack, a call-frame stack and a per-register scoreboard. An instruction is
 * a switch on the decoded op, then a loop over the active lanes; the common
 * integer and float ops are specialised by type before the loop.
 *
 * SIMT stack: entries (pc, rpc, mask). The top entry runs. A divergent branch
 * turns the top entry into the reconvergence entry (pc = rpc) and pushes one
 * entry per side, unless the top entry already waits for the same rpc, in
 * which case it is reused so that loops do not grow the stack. An entry
 * whose pc reaches its rpc, or whose mask empties, is popped. exit removes
 * lanes from every entry; ret removes them from the entries of the current
 * call. A call turns the caller's entry into a call marker (pc = return
 * address) and pushes the callee's entry; when the marker is on top again
 * the call has returned for every lane that made it.
 *
 * Global memory is never touched here: those lanes are returned as a
 * ptx_memop. Shared, local, param and const accesses are done inside.
 * Host speed: a warp's state is usually out of the host's caches when it is
 * stepped (callers interleave hundreds of warps), so the fields a step reads
 * first share the warp's first cache lines and the running SIMT entry is kept
 * in the warp itself; ptx_warp_prefetch lets a caller that knows which warp
 * comes next ask for its registers early; fma.f32 uses the host's FMA
 * instruction over a whole row when the host has one (same bits as fmaf).
 * Half-precision instructions are ops of their own (PX_H*, PX_CVT_PACK):
 * their element arithmetic is in half.c, so the f32 and integer cases are
 * untouched by them.
 * INVARIANT: ptx_warp_step does not allocate, except that a device printf's
 *   record may grow the launch's log (amortised, up to the printf FIFO);
 *   ptx_warp_renew allocates only when a kernel needs more storage than the
 *   warp had.
 * INVARIANT: a call or ret issues only when no load/atomic is outstanding
 *   (ptx_warp_can_issue), so completions always find the frame they came from.
 * NOT MODELED: .ftz on f32 inputs (outputs are flushed), denormal behaviour of
 *   .approx functions, exact bit results of hardware .approx functions.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "ptx/ir.h"

#include "base/bits.h"
#include "ptx/half.h"

#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define X(n, d) #n,
const char *const ptx_lat_names[PTX_LAT_N] = {PTX_LAT_CLASSES(X)};
#undef X

struct ptx_cta {
    const struct ptx_kernel *k;
    const struct ptx_module *m;
    const struct px_func *f;
    struct ptx_dim3 ctaid, nctaid, ntid;
    uint8_t *params;          /* copy of the launch's parameter buffer */
    uint32_t param_bytes;
    uint8_t *shmem;           /* static + dynamic shared memory */
    uint32_t shmem_bytes, dyn_bytes, dynshm_base;
    unsigned n_threads, n_warps;
    struct {
        uint32_t popc;        /* bar.red.popc: count of true predicates */
        bool all, any;        /* bar.red.and / .or */
        unsigned arrived, released;
    } red[16];
};

/* Entry kinds: the Transaction entry runs an attempt of a transaction; the
 * Retry entry under it collects the lanes that aborted (docs/transactions.md). */
enum { SE_PLAIN, SE_TX, SE_RETRY };

struct simt_entry {
    uint32_t pc, rpc, mask;
    uint32_t call;            /* 1 + frame index when this entry is a call marker */
    uint32_t kind;            /* SE_* */
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
    struct simt_entry top;    /* the running entry, stack depth sp - 1 (when sp > 0) */
    const struct px_inst *ins;
    uint64_t *r;              /* register rows of the current function */
    uint32_t *p;              /* predicates of the current function */
    uint64_t *rr, *rp;        /* their ready cycles */
    uint32_t sp;              /* SIMT stack depth, top included */
    uint32_t n_pending;       /* loads/atomics sent out and not completed */
    uint64_t ready_max;       /* latest ready cycle of any register not pending */
    bool at_barrier;
    uint32_t exited;
    const uint64_t *imm;
    struct ptx_cta *c;
    /* current frame */
    uint32_t frame_base;      /* local offset of the current frame */
    const struct ptx_module *m;
    unsigned warp_in_cta;
    /* storage */
    uint64_t *regs;
    uint32_t *preds;
    uint64_t *ready;          /* rows then predicates */
    uint32_t n_rows, n_preds;
    uint8_t *local;           /* 32 lanes x local_stride bytes */
    uint32_t local_stride;
    struct simt_entry *stk;   /* entries below the top: [0, sp - 1) */
    uint32_t stk_cap;
    struct call_frame *frames;
    uint32_t nf, frames_cap;
    size_t cap_regs, cap_preds, cap_ready, cap_local, cap_stk, cap_frames; /* allocated */
    uint32_t tid[3][32];
    const struct px_inst *bar_red;  /* bar.red waiting for its result */
    uint32_t bar_red_mask;
    /* transactions (only for modules that have them) */
    uint32_t tx_at;           /* 1 + SIMT stack index of the Transaction entry; 0: none */
    uint32_t tx_begin_pc;     /* the gpucoh_tx_begin call being run */
    uint32_t tx_aborted;      /* lanes aborted in the running attempt (in the Retry entry) */
    uint64_t *tx_regs;        /* registers and predicates at the begin, restored for retries */
    uint32_t *tx_preds;
    struct ptx_tx_access *tx_log; /* the attempt's accesses in program order */
    uint32_t tx_n;
    size_t cap_tx_regs, cap_tx_preds, cap_tx_log;
};

/* ------------------------------------------------------------------ CTAs and warps */

struct ptx_cta *ptx_cta_new(const struct ptx_kernel *k, struct ptx_dim3 ctaid,
                            struct ptx_dim3 nctaid, struct ptx_dim3 ntid,
                            const uint8_t *params, uint32_t dyn_shmem_bytes)
{
    struct ptx_cta *c = calloc(1, sizeof(*c));
    if (!c)
        return NULL;
    c->k = k;
    c->m = k->m;
    c->f = k->f;
    c->ctaid = ctaid;
    c->nctaid = nctaid;
    c->ntid = ntid;
    c->param_bytes = k->f->info.param_bytes;
    c->params = calloc(1, c->param_bytes + 8);
    if (params && c->param_bytes)
        memcpy(c->params, params, c->param_bytes);
    c->dynshm_base = k->f->dynshm_base;
    c->dyn_bytes = dyn_shmem_bytes;
    c->shmem_bytes = dyn_shmem_bytes ? c->dynshm_base + dyn_shmem_bytes
                                     : k->f->info.static_shmem_bytes;
    c->shmem = calloc(1, c->shmem_bytes + 16);
    c->n_threads = ntid.x * ntid.y * ntid.z;
    c->n_warps = (c->n_threads + 31) / 32;
    if (!c->params || !c->shmem) {
        ptx_cta_free(c);
        return NULL;
    }
    for (unsigned b = 0; b < 16; b++)
        c->red[b].all = true;
    return c;
}

void ptx_cta_free(struct ptx_cta *c)
{
    if (!c)
        return;
    free(c->params);
    free(c->shmem);
    free(c);
}

unsigned ptx_cta_n_warps(const struct ptx_cta *c)
{
    return c->n_warps;
}

/* A buffer of n zeroed elements of `size` bytes: buf itself when its
 * capacity *cap is enough, else a new one (buf is freed). NULL when out of
 * memory. */
static void *zeroed(void *buf, size_t *cap, size_t n, size_t size)
{
    if (n <= *cap) {
        memset(buf, 0, n * size);
        return buf;
    }
    free(buf);
    buf = calloc(n, size);
    *cap = buf ? n : 0;
    return buf;
}

/* (Re)initialise w as warp `warp_in_cta` of c: storage from an earlier warp
 * is reused when it is large enough, and everything starts zeroed exactly as
 * in a new warp. Returns false when out of memory. */
static bool warp_setup(struct ptx_warp *w, struct ptx_cta *c, unsigned warp_in_cta)
{
    const struct px_func *f = c->f;
    const struct ptx_module *m = c->m;
    w->c = c;
    w->m = m;
    w->ins = m->ins;
    w->imm = m->imm;
    w->warp_in_cta = warp_in_cta;
    w->at_barrier = false;
    w->n_pending = 0;
    w->ready_max = 0;
    w->frame_base = 0;
    w->bar_red = NULL;
    w->bar_red_mask = 0;
    w->n_rows = f->n_rows_chain;
    w->n_preds = f->n_preds_chain;
    w->local_stride = (f->max_stack + 15) & ~15u;
    /* depth bound: two entries per nested divergence plus one per call */
    uint32_t stk_cap = 64 + 2 * (m->n_ins < 4096 ? m->n_ins : 4096);
    uint32_t frames_cap = m->n_funcs + 1;
    w->regs = zeroed(w->regs, &w->cap_regs, (size_t)w->n_rows * 32 + 32, sizeof(uint64_t));
    w->preds = zeroed(w->preds, &w->cap_preds, (size_t)w->n_preds + 1, sizeof(uint32_t));
    w->ready = zeroed(w->ready, &w->cap_ready, (size_t)w->n_rows + w->n_preds + 2,
                      sizeof(uint64_t));
    w->local = zeroed(w->local, &w->cap_local, (size_t)w->local_stride * 32 + 16, 1);
    w->stk = zeroed(w->stk, &w->cap_stk, stk_cap, sizeof(*w->stk));
    w->frames = zeroed(w->frames, &w->cap_frames, frames_cap, sizeof(*w->frames));
    if (!w->regs || !w->preds || !w->ready || !w->local || !w->stk || !w->frames)
        return false;
    w->tx_at = w->tx_begin_pc = w->tx_aborted = w->tx_n = 0;
    if (m->has_tx) {
        w->tx_regs = zeroed(w->tx_regs, &w->cap_tx_regs, (size_t)w->n_rows * 32 + 32,
                            sizeof(uint64_t));
        w->tx_preds = zeroed(w->tx_preds, &w->cap_tx_preds, (size_t)w->n_preds + 1,
                             sizeof(uint32_t));
        w->tx_log = zeroed(w->tx_log, &w->cap_tx_log, PTX_TX_LOG_MAX, sizeof(*w->tx_log));
        if (!w->tx_regs || !w->tx_preds || !w->tx_log)
            return false;
    }
    w->stk_cap = stk_cap;
    w->frames_cap = frames_cap;
    w->r = w->regs;
    w->p = w->preds;
    w->rr = w->ready;
    w->rp = w->ready + w->n_rows;
    uint32_t mask = 0;
    for (unsigned l = 0; l < 32; l++) {
        unsigned lin = warp_in_cta * 32 + l;
        if (lin < c->n_threads)
            mask |= 1u << l;
        w->tid[0][l] = lin % c->ntid.x;
        w->tid[1][l] = (lin / c->ntid.x) % c->ntid.y;
        w->tid[2][l] = lin / (c->ntid.x * c->ntid.y);
    }
    w->frames[0] = (struct call_frame){f, NULL, 0, 0, 0, 0};
    w->nf = 1;
    w->sp = 0;
    if (mask) {
        w->top = (struct simt_entry){f->first, PX_RPC_EXIT, mask, 0};
        w->sp = 1;
    }
    w->exited = ~mask;
    return true;
}

struct ptx_warp *ptx_warp_new(struct ptx_cta *c, unsigned warp_in_cta)
{
    struct ptx_warp *w = aligned_alloc(64, (sizeof(*w) + 63) & ~(size_t)63);
    if (!w)
        return NULL;
    memset(w, 0, sizeof *w);
    if (!warp_setup(w, c, warp_in_cta)) {
        ptx_warp_free(w);
        return NULL;
    }
    return w;
}

bool ptx_warp_renew(struct ptx_warp *w, struct ptx_cta *c, unsigned warp_in_cta)
{
    return warp_setup(w, c, warp_in_cta);
}

void ptx_warp_free(struct ptx_warp *w)
{
    if (!w)
        return;
    free(w->regs);
    free(w->preds);
    free(w->ready);
    free(w->local);
    free(w->stk);
    free(w->frames);
    free(w->tx_regs);
    free(w->tx_preds);
    free(w->tx_log);
    free(w);
}

bool ptx_warp_done(const struct ptx_warp *w)
{
    return w->sp == 0;
}

void ptx_warp_abandon(struct ptx_warp *w)
{
    w->sp = 0;
    w->exited = ~0u;
    w->at_barrier = false;
    w->bar_red = NULL;
    w->tx_at = 0;
}

uint32_t ptx_warp_pc(const struct ptx_warp *w)
{
    return w->sp ? w->top.pc : UINT32_MAX;
}

const char *ptx_warp_where(const struct ptx_warp *w, char *buf, size_t len)
{
    if (!w->sp) {
        snprintf(buf, len, "%s: (exited)", w->m->filename);
        return buf;
    }
    uint32_t pc = w->top.pc;
    const struct px_loc *l = w->m->locs ? &w->m->locs[pc] : NULL;
    if (l && l->line && l->file < w->m->n_src_files && w->m->src_files[l->file])
        snprintf(buf, len, "%s:%u (%s:%u)", w->m->filename, w->ins[pc].line,
                 w->m->src_files[l->file], l->line); /* -lineinfo: the CUDA source line */
    else
        snprintf(buf, len, "%s:%u", w->m->filename, w->ins[pc].line);
    return buf;
}

/* With nothing in flight every register is ready once ready_max is, so the
 * instruction may issue at the earlier of ready_max and its own registers'
 * ready cycle. With loads or atomics in flight only its own registers count
 * (a pending one reads UINT64_MAX), and call/ret wait for all of them. */
uint64_t ptx_warp_issue_cycle(const struct ptx_warp *w)
{
    if (!w->sp || w->at_barrier)
        return UINT64_MAX;
    if (w->tx_at == w->sp && !w->top.mask) /* every lane aborted: the attempt ends */
        return w->n_pending ? UINT64_MAX : 0;
    const struct px_inst *i = &w->ins[w->top.pc];
    if (w->n_pending && (i->op == PX_CALL || i->op == PX_RET || i->op == PX_TXBEGIN ||
                         i->op == PX_TXCOMMIT))
        return UINT64_MAX;
    uint64_t at = 0;
    for (unsigned k = 0; k < i->n_sb; k++) {
        uint32_t s = i->sb[k];
        uint64_t rd = (s & 0x80000000u) ? w->rp[s & 0x7fffffffu] : w->rr[s];
        if (rd > at)
            at = rd;
    }
    if (!w->n_pending && w->ready_max < at)
        at = w->ready_max;
    return at;
}

void ptx_warp_prefetch(const struct ptx_warp *w)
{
    if (!w->sp)
        return;
    const struct px_inst *i = &w->ins[w->top.pc];
    for (unsigned k = 0; k < i->n_sb; k++) {
        uint32_t s = i->sb[k];
        if (s & 0x80000000u) {
            __builtin_prefetch(&w->p[s & 0x7fffffffu]);
            __builtin_prefetch(&w->rp[s & 0x7fffffffu]);
            continue;
        }
        const uint64_t *row = w->r + (size_t)s * 32; /* 256 bytes: four 64-byte lines */
        __builtin_prefetch(&w->rr[s]);
        __builtin_prefetch(row);
        __builtin_prefetch(row + 8);
        __builtin_prefetch(row + 16);
        __builtin_prefetch(row + 24);
    }
}

bool ptx_warp_next_orders_cta(const struct ptx_warp *w)
{
    if (!w->sp)
        return false;
    const struct px_inst *i = &w->ins[w->top.pc];
    switch (i->op) {
    case PX_BAR:
        return true;
    case PX_LD:
    case PX_ST:
    case PX_ATOM:
    case PX_RED:
        return i->space == SP_SHARED || i->space == SP_GENERIC;
    default:
        return false;
    }
}

bool ptx_warp_can_issue(const struct ptx_warp *w, uint64_t cycle)
{
    if (!w->sp || w->at_barrier)
        return false;
    if (!w->n_pending && w->ready_max <= cycle)
        return true; /* nothing in flight: every register is ready */
    return ptx_warp_issue_cycle(w) <= cycle;
}

/* ------------------------------------------------------------------ value helpers */

/* A register's float views (base/bits.h reinterprets). */
static inline float f32_of(uint64_t v)
{
    return f32_from_bits((uint32_t)v);
}

static inline uint64_t bits_f32(float f)
{
    return f32_bits(f);
}

static inline double f64_of(uint64_t v)
{
    return f64_from_bits(v);
}

static inline uint64_t bits_f64(double d)
{
    return f64_bits(d);
}

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

static int round_mode(unsigned r)
{
    switch (r) {
    case RND_RZ: return FE_TOWARDZERO;
    case RND_RM: return FE_DOWNWARD;
    case RND_RP: return FE_UPWARD;
    default: return FE_TONEAREST;
    }
}

static inline float ftz32(float f)
{
    return fpclassify(f) == FP_SUBNORMAL ? copysignf(0.0f, f) : f;
}

static inline float sat32(float f)
{
    return f > 0.0f ? (f < 1.0f ? f : 1.0f) : 0.0f; /* NaN -> 0 */
}

static inline double sat64(double d)
{
    return d > 0.0 ? (d < 1.0 ? d : 1.0) : 0.0;
}

/* float to integer with PTX saturation: NaN -> 0, clamp to the range */
static uint64_t float_to_int(double v, unsigned t)
{
    unsigned b = px_type_bytes(t);
    if (isnan(v))
        return 0;
    if (px_type_signed(t)) {
        double lo = -ldexp(1.0, (int)b * 8 - 1), hi = ldexp(1.0, (int)b * 8 - 1);
        if (v <= lo)
            return trunc_to((uint64_t)(int64_t)lo, b);
        if (v >= hi)
            return b == 8 ? (uint64_t)INT64_MAX : trunc_to((uint64_t)(int64_t)hi - 1, b);
        return trunc_to((uint64_t)(int64_t)v, b);
    }
    double hi = ldexp(1.0, (int)b * 8);
    if (v <= 0)
        return 0;
    if (v >= hi)
        return b == 8 ? UINT64_MAX : (1ull << (b * 8)) - 1;
    return (uint64_t)v;
}

static double round_integral(double v, unsigned r)
{
    switch (r) {
    case RND_RZ: return trunc(v);
    case RND_RM: return floor(v);
    case RND_RP: return ceil(v);
    default: return nearbyint(v);
    }
}

static float round_integral_f(float v, unsigned r)
{
    switch (r) {
    case RND_RZ: return truncf(v);
    case RND_RM: return floorf(v);
    case RND_RP: return ceilf(v);
    default: return nearbyintf(v);
    }
}

/* cvt: one value, given source bits, to destination bits */
static uint64_t cvt_one(const struct px_inst *i, uint64_t a)
{
    unsigned dt = i->type, st = i->type2;
    bool df = px_type_float(dt), sf = px_type_float(st);
    unsigned db = px_type_bytes(dt);
    bool sat = i->flags & PF_SAT;
    if (!df && !sf) {
        unsigned sb = px_type_bytes(st);
        bool ss = px_type_signed(st);
        if (sat) {
            int64_t sv = ss ? sext(a, sb) : 0;
            uint64_t uv = trunc_to(a, sb);
            if (px_type_signed(dt)) {
                int64_t lo = db == 8 ? INT64_MIN : -(1ll << (db * 8 - 1));
                int64_t hi = db == 8 ? INT64_MAX : (1ll << (db * 8 - 1)) - 1;
                if (ss)
                    sv = sv < lo ? lo : sv > hi ? hi : sv;
                else
                    sv = uv > (uint64_t)hi ? hi : (int64_t)uv;
                return (uint64_t)sv;
            }
            uint64_t hi = db == 8 ? UINT64_MAX : (1ull << (db * 8)) - 1;
            if (ss)
                return sv < 0 ? 0 : (uint64_t)sv > hi ? hi : (uint64_t)sv;
            return uv > hi ? hi : uv;
        }
        uint64_t v = ss ? (uint64_t)sext(a, sb) : trunc_to(a, sb);
        return extend(v, dt);
    }
    if (sf) {
        double v;
        float vf = 0;
        bool is32 = st != PT_F64;
        if (st == PT_F64)
            v = f64_of(a);
        else {
            vf = st == PT_F32 ? f32_of(a) : half_to_f32((uint16_t)a, st == PT_BF16);
            v = vf;
        }
        if (!df) {
            v = round_integral(v, i->mod);
            return extend(float_to_int(v, dt), dt);
        }
        bool dh = dt == PT_F16 || dt == PT_BF16;
        if (i->flags & PF_INTRND) {
            if (dt == PT_F32 && is32) {
                float r = round_integral_f(vf, i->mod);
                if (i->flags & PF_FTZ)
                    r = ftz32(r);
                return bits_f32(sat ? sat32(r) : r);
            }
            double r = round_integral(v, i->mod);
            if (sat)
                r = sat64(r);
            if (dh) /* an integral value of a half is a half: no rounding */
                return half_round(r, dt == PT_BF16, HALF_RN);
            return dt == PT_F32 ? bits_f32((float)r) : bits_f64(r);
        }
        if (dt == PT_F64)
            return bits_f64(sat ? sat64(v) : v);
        if (dh) /* one rounding from the exact source value, in the cvt's mode */
            return half_round(sat ? sat64(v) : v, dt == PT_BF16, px_half_rounding(i->mod));
        float r;
        if (st == PT_F64 && i->mod > RND_RN) {
            int old = fegetround();
            fesetround(round_mode(i->mod));
            volatile double vv = v;
            r = (float)vv;
            fesetround(old);
        } else {
            r = (float)v;
        }
        if (sat)
            r = sat32(r);
        if (i->flags & PF_FTZ)
            r = ftz32(r);
        return bits_f32(r);
    }
    /* integer to float */
    unsigned sb = px_type_bytes(st);
    int old = 0;
    bool dir = i->mod > RND_RN;
    if (dir) {
        old = fegetround();
        fesetround(round_mode(i->mod));
    }
    uint64_t out;
    if (dt == PT_F64) {
        volatile double d = px_type_signed(st) ? (double)sext(a, sb) : (double)trunc_to(a, sb);
        out = bits_f64(sat ? sat64(d) : d);
    } else if (dt == PT_F32) {
        volatile float f = px_type_signed(st) ? (float)sext(a, sb) : (float)trunc_to(a, sb);
        out = bits_f32(sat ? sat32(f) : f);
    } else {
        /* to double in the same mode, then to the half: rounding twice to
         * nearest is exact enough (53 >= 2 x 11 + 2 bits), twice in one
         * direction is one rounding in that direction */
        volatile double d = px_type_signed(st) ? (double)sext(a, sb) : (double)trunc_to(a, sb);
        out = half_round(sat ? sat64(d) : d, dt == PT_BF16, px_half_rounding(i->mod));
    }
    if (dir)
        fesetround(old);
    return out;
}

static bool cmp_int(unsigned cmp, uint64_t a, uint64_t b, unsigned t)
{
    unsigned by = px_type_bytes(t);
    int64_t sa = sext(a, by), sb = sext(b, by);
    uint64_t ua = trunc_to(a, by), ub = trunc_to(b, by);
    bool s = px_type_signed(t);
    switch (cmp) {
    case CMP_EQ: return ua == ub;
    case CMP_NE: return ua != ub;
    case CMP_LT: return s ? sa < sb : ua < ub;
    case CMP_LE: return s ? sa <= sb : ua <= ub;
    case CMP_GT: return s ? sa > sb : ua > ub;
    case CMP_GE: return s ? sa >= sb : ua >= ub;
    case CMP_LO: return ua < ub;
    case CMP_LS: return ua <= ub;
    case CMP_HI: return ua > ub;
    case CMP_HS: return ua >= ub;
    default: return false;
    }
}

static bool cmp_float(unsigned cmp, double a, double b)
{
    bool un = isnan(a) || isnan(b);
    switch (cmp) {
    case CMP_EQ: return !un && a == b;
    case CMP_NE: return !un && a != b;
    case CMP_LT: return !un && a < b;
    case CMP_LE: return !un && a <= b;
    case CMP_GT: return !un && a > b;
    case CMP_GE: return !un && a >= b;
    case CMP_EQU: return un || a == b;
    case CMP_NEU: return un || a != b;
    case CMP_LTU: return un || a < b;
    case CMP_LEU: return un || a <= b;
    case CMP_GTU: return un || a > b;
    case CMP_GEU: return un || a >= b;
    case CMP_NUM: return !un;
    case CMP_NAN: return un;
    default: return false;
    }
}

static inline uint32_t bool_combine(unsigned bop, uint32_t x, uint32_t c)
{
    switch (bop) {
    case BOP_AND: return x & c;
    case BOP_OR: return x | c;
    case BOP_XOR: return x ^ c;
    default: return x;
    }
}

static uint64_t bfe(uint64_t a, uint32_t pos, uint32_t len, unsigned t)
{
    unsigned msb = px_type_bytes(t) * 8 - 1;
    pos &= 0xff;
    len &= 0xff;
    bool sbit = false;
    if (px_type_signed(t) && len)
        sbit = (a >> (pos + len - 1 > msb ? msb : pos + len - 1)) & 1;
    uint64_t d = 0;
    for (unsigned k = 0; k <= msb; k++) {
        bool bit = (k < len && pos + k <= msb) ? (a >> (pos + k)) & 1 : sbit;
        d |= (uint64_t)bit << k;
    }
    return d;
}

static uint64_t bfi(uint64_t a, uint64_t b, uint32_t pos, uint32_t len, unsigned t)
{
    unsigned msb = px_type_bytes(t) * 8 - 1;
    pos &= 0xff;
    len &= 0xff;
    uint64_t d = b;
    for (unsigned k = 0; k < len && pos + k <= msb; k++) {
        uint64_t bit = (a >> k) & 1;
        d = (d & ~(1ull << (pos + k))) | (bit << (pos + k));
    }
    return trunc_to(d, msb / 8 + 1);
}

static uint32_t prmt(uint32_t a, uint32_t b, uint32_t c)
{
    uint64_t t = ((uint64_t)b << 32) | a;
    uint32_t d = 0;
    for (unsigned n = 0; n < 4; n++) {
        unsigned sel = (c >> (4 * n)) & 0xf;
        uint32_t byte = (uint32_t)(t >> (8 * (sel & 7))) & 0xff;
        if (sel & 8)
            byte = (byte & 0x80) ? 0xff : 0;
        d |= byte << (8 * n);
    }
    return d;
}

static uint32_t brev32(uint32_t x)
{
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
    return (x >> 16) | (x << 16);
}

/* ------------------------------------------------------------------ the step */

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

/* popcount without a library call (the build does not assume POPCNT) */
static inline uint32_t popc32(uint32_t x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (((x + (x >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

static inline const uint64_t *row(const struct ptx_warp *w, const struct px_opnd *o)
{
    return (o->kind == OK_IMM ? w->imm : w->r) + (size_t)o->idx * 32;
}

static inline uint32_t pred_val(const struct ptx_warp *w, const struct px_opnd *o)
{
    uint32_t v = w->p[o->idx];
    return o->neg ? ~v : v;
}

static int fault(const struct ptx_warp *w, const struct px_inst *i, char *err, size_t errlen,
                 const char *what, unsigned lane, uint64_t addr)
{
    snprintf(err, errlen, "%s:%u: %s (lane %u, address 0x%llx)", w->m->filename, i->line, what,
             lane, (unsigned long long)addr);
    return -1;
}

static void pop_entry(struct ptx_warp *w);

/* The SIMT stack: entry k (0 = bottom) is w->top for k = sp - 1, else stk[k]. */
static inline struct simt_entry *stk_at(struct ptx_warp *w, uint32_t k)
{
    return k + 1 == w->sp ? &w->top : &w->stk[k];
}

static inline void stk_push(struct ptx_warp *w, struct simt_entry e)
{
    if (w->sp)
        w->stk[w->sp - 1] = w->top;
    w->top = e;
    w->sp++;
}

static inline void stk_pop(struct ptx_warp *w)
{
    w->sp--;
    if (w->sp)
        w->top = w->stk[w->sp - 1];
}

/* After an instruction: pop finished entries, complete calls. */
static void settle(struct ptx_warp *w)
{
    while (w->sp) {
        struct simt_entry *t = &w->top;
        if (t->kind == SE_TX && t->mask == 0)
            break; /* the attempt ends at the warp's next step */
        if (t->mask == 0 || t->pc == t->rpc)
            pop_entry(w);
        else
            break;
    }
}

/* Return from the call whose marker is now on top: copy return values into
 * the caller's buffers for the lanes that made the call, restore the frame. */
static void finish_call(struct ptx_warp *w)
{
    struct simt_entry *t = &w->top;
    struct call_frame *cf = &w->frames[w->nf - 1];
    struct call_frame *caller = &w->frames[w->nf - 2];
    const struct px_call *cs = cf->cs;
    uint32_t mask = t->mask;
    for (unsigned k = 0; k < cs->n_rets; k++) {
        const struct px_param *pp = &cf->f->rets[k];
        uint32_t n = MIN(pp->size, cs->ret_size[k]);
        for (uint32_t m_ = mask; m_; m_ &= m_ - 1) {
            unsigned l = (unsigned)__builtin_ctz(m_);
            uint8_t *base = w->local + (size_t)l * w->local_stride;
            memmove(base + caller->local_base + cs->ret_off[k], base + cf->local_base + pp->off, n);
        }
    }
    w->nf--;
    w->r = w->regs + (size_t)caller->row_base * 32;
    w->p = w->preds + caller->pred_base;
    w->rr = w->ready + caller->row_base;
    w->rp = w->ready + w->n_rows + caller->pred_base;
    w->frame_base = caller->local_base;
    t->call = 0;
}

static void pop_entry(struct ptx_warp *w)
{
    struct simt_entry *t = &w->top;
    if (t->call && t->mask == 0) {
        /* every lane of the call exited inside it: drop the callee frame */
        struct call_frame *caller = &w->frames[w->nf - 2];
        w->nf--;
        w->r = w->regs + (size_t)caller->row_base * 32;
        w->p = w->preds + caller->pred_base;
        w->rr = w->ready + caller->row_base;
        w->rp = w->ready + w->n_rows + caller->pred_base;
        w->frame_base = caller->local_base;
    }
    stk_pop(w);
    if (w->sp && w->top.call && w->top.call == w->nf - 1 + 1 &&
        w->frames[w->nf - 1].marker == w->sp - 1)
        finish_call(w);
}

static void remove_lanes(struct ptx_warp *w, uint32_t lanes, uint32_t from)
{
    for (uint32_t k = from; k < w->sp; k++)
        stk_at(w, k)->mask &= ~lanes;
}

static int diverge(struct ptx_warp *w, uint32_t tpc, uint32_t fpc, uint32_t tmask, uint32_t fmask,
                   uint32_t rpc, char *err, size_t errlen, const struct px_inst *i)
{
    if (w->sp + 2 > w->stk_cap) {
        snprintf(err, errlen, "%s:%u: SIMT stack overflow (%u entries)", w->m->filename, i->line,
                 w->stk_cap);
        return -1;
    }
    struct simt_entry *t = &w->top;
    if (t->rpc == rpc && !t->call && t->kind == SE_PLAIN) {
        t->pc = tpc;
        t->mask = tmask;
    } else {
        t->pc = rpc;
        stk_push(w, (struct simt_entry){tpc, rpc, tmask, 0});
    }
    stk_push(w, (struct simt_entry){fpc, rpc, fmask, 0});
    return 0;
}

/* ---- transactions ----
 * At gpucoh_tx_begin the running entry E gets a Retry entry and a Transaction
 * entry above it (E, Retry, Tx; tx_at - 1 indexes Tx). Divergence inside the
 * transaction pushes plain entries above Tx; they reconverge into Tx before
 * the commit. An aborted lane leaves Tx and everything above it and joins
 * Retry. At the commit (or once Tx has no lane left) the attempt ends: E
 * continues after the commit with the committed lanes, and Retry's lanes, if
 * any, run the transaction again from the begin with their registers restored. */

static void tx_abort_lanes(struct ptx_warp *w, uint32_t lanes)
{
    uint32_t tx = w->tx_at - 1;
    lanes &= stk_at(w, tx)->mask;
    if (!lanes)
        return;
    remove_lanes(w, lanes, tx);
    stk_at(w, tx - 1)->mask |= lanes;
    w->tx_aborted |= lanes;
}

void ptx_warp_tx_abort(struct ptx_warp *w, uint32_t lanes)
{
    if (!w->tx_at)
        return;
    tx_abort_lanes(w, lanes);
    settle(w);
}

bool ptx_warp_in_tx(const struct ptx_warp *w)
{
    return w->tx_at != 0;
}

bool ptx_warp_at_tx_begin(const struct ptx_warp *w)
{
    return w->sp && w->ins[w->top.pc].op == PX_TXBEGIN;
}

const struct ptx_tx_access *ptx_warp_tx_log(const struct ptx_warp *w, uint32_t *n,
                                            uint32_t *live)
{
    *n = w->tx_at ? w->tx_n : 0;
    uint32_t k = w->tx_at - 1; /* the Transaction entry */
    *live = !w->tx_at ? 0 : k + 1 == w->sp ? w->top.mask : w->stk[k].mask;
    return w->tx_log;
}

bool ptx_warp_at_tx_end(const struct ptx_warp *w)
{
    return w->tx_at && w->sp &&
           ((w->tx_at == w->sp && !w->top.mask) || w->ins[w->top.pc].op == PX_TXCOMMIT);
}

/* Intra-warp conflict detection (spec 004a §9 item 22): lane l's access to
 * [a, a + size) conflicts with another live lane's earlier access to the same
 * 4-byte word when either of the two writes. Of two conflicting lanes the
 * higher-numbered (younger) one aborts, so an attempt always keeps its lowest
 * lane. Returns false when lane l itself aborts. */
static bool tx_intra_check(struct ptx_warp *w, unsigned l, uint64_t a, unsigned size, bool write)
{
    uint64_t lo = a & ~3ull, hi = (a + size + 3) & ~3ull;
    uint32_t with = 0;
    for (uint32_t k = 0; k < w->tx_n; k++) {
        const struct ptx_tx_access *e = &w->tx_log[k];
        if (e->lane == l || (w->tx_aborted >> e->lane & 1) || (!write && !e->write))
            continue;
        uint64_t elo = e->addr & ~3ull, ehi = (e->addr + e->size + 3) & ~3ull;
        if (elo < hi && lo < ehi)
            with |= 1u << e->lane;
    }
    if (with & ((1u << l) - 1)) {
        tx_abort_lanes(w, 1u << l);
        return false;
    }
    tx_abort_lanes(w, with);
    return true;
}

/* The attempt running in the Transaction entry (on top) ends: `committed`
 * lanes reached the commit at `commit_pc`. */
static void tx_end(struct ptx_warp *w, struct ptx_step *out, uint32_t committed,
                   uint32_t commit_pc)
{
    out->kind = PTX_STEP_TX_END;
    out->tx = (struct ptx_tx_end){committed, w->tx_aborted, w->tx_log, w->tx_n};
    if (committed)
        stk_at(w, w->tx_at - 3)->pc = commit_pc + 1;
    stk_pop(w);
    struct simt_entry *retry = &w->top;
    uint32_t again = retry->mask;
    w->tx_n = 0;
    w->tx_aborted = 0;
    if (!again) {
        stk_pop(w);
        w->tx_at = 0;
        return;
    }
    for (uint32_t r = 0; r < w->n_rows; r++) {
        uint64_t *R = w->regs + (size_t)r * 32;
        const uint64_t *C = w->tx_regs + (size_t)r * 32;
        for (uint32_t m_ = again; m_; m_ &= m_ - 1) {
            unsigned l = (unsigned)__builtin_ctz(m_);
            R[l] = C[l];
        }
    }
    for (uint32_t k = 0; k < w->n_preds; k++)
        w->preds[k] = (w->preds[k] & ~again) | (w->tx_preds[k] & again);
    retry->mask = 0;
    stk_push(w, (struct simt_entry){w->tx_begin_pc + 1, PX_RPC_EXIT, again, 0, SE_TX});
}

/* Per-lane address of a memory instruction, in its own space (before
 * generic resolution). */
static inline uint64_t lane_addr(const struct ptx_warp *w, const struct px_inst *i, unsigned l)
{
    uint64_t a = (uint64_t)i->off;
    if (i->addr.kind == OK_REG)
        a += w->r[(size_t)i->addr.idx * 32 + l];
    if (i->addr32) /* nvcc relies on [%r+imm] wrapping like 32-bit arithmetic */
        a = (uint32_t)a;
    if (i->addr_rel == AR_FRAME)
        a += w->frame_base;
    else if (i->addr_rel == AR_DYNSHM)
        a += w->c->dynshm_base;
    return a;
}

/* Pack a lane's store data (vector elements) into bytes. */
static void pack_store(const struct ptx_warp *w, const struct px_inst *i, unsigned l,
                       uint64_t out[2])
{
    unsigned eb = px_type_bytes(i->type);
    out[0] = out[1] = 0;
    uint8_t *dst = (uint8_t *)out;
    for (unsigned k = 0; k < i->vec; k++) {
        uint64_t v = row(w, &i->s[1 + k])[l];
        memcpy(dst + k * eb, &v, eb);
    }
}

/* Write a lane's loaded bytes into the destination registers. */
static void unpack_load(struct ptx_warp *w, const struct px_inst *i, unsigned l, const void *src)
{
    unsigned eb = px_type_bytes(i->type);
    const uint8_t *s = src;
    for (unsigned k = 0; k < i->vec; k++) {
        if (i->d[k].kind != OK_REG)
            continue;
        uint64_t v = 0;
        memcpy(&v, s + k * eb, eb);
        w->r[(size_t)i->d[k].idx * 32 + l] = extend(v, i->type);
    }
}

/* Shared-memory or generic-shared atomic of one lane, via the shared ALU. */
static uint64_t atom_local(const struct px_inst *i, uint8_t *where, uint64_t a, uint64_t b)
{
    struct atom_ops ops;
    ops.kind = i->mod;
    ops.type = (uint8_t)px_atom_type(i->type);
    ops.n = 1;
    ops.is_red = i->op == PX_RED;
    ops.lane[0] = (struct atom_lane){0, 0, a, b, 0};
    atom_apply(&ops, where);
    return ops.lane[0].result;
}

enum { WIN_GLOBAL, WIN_SHARED, WIN_LOCAL };

static inline int window_of(uint64_t a)
{
    if (a - PTX_SHARED_WINDOW < PTX_WINDOW_BYTES)
        return WIN_SHARED;
    if (a - PTX_LOCAL_WINDOW < PTX_WINDOW_BYTES)
        return WIN_LOCAL;
    return WIN_GLOBAL;
}

static int exec_mem(struct ptx_warp *w, const struct px_inst *i, uint32_t active,
                    const struct ptx_env *env, struct ptx_step *out, char *err, size_t errlen)
{
    struct ptx_cta *c = w->c;
    unsigned eb = px_type_bytes(i->type);
    unsigned size = eb * i->vec;
    bool is_ld = i->op == PX_LD, is_st = i->op == PX_ST;
    bool is_atom = i->op == PX_ATOM || i->op == PX_RED;
    uint32_t gmask = 0;
    struct ptx_memop *mo = &out->mem;
    for (uint32_t m_ = active; m_; m_ &= m_ - 1) {
        unsigned l = (unsigned)__builtin_ctz(m_);
        uint64_t a = lane_addr(w, i, l);
        int space = i->space;
        uint64_t la = a;
        if (space == SP_GENERIC) {
            int win = window_of(a);
            if (win == WIN_SHARED) {
                space = SP_SHARED;
                la = a - PTX_SHARED_WINDOW;
            } else if (win == WIN_LOCAL) {
                space = SP_LOCAL;
                la = a - PTX_LOCAL_WINDOW;
            } else {
                space = SP_GLOBAL;
            }
        }
        if (space != SP_GLOBAL && space != SP_PARAM && (la & (size - 1)))
            return fault(w, i, err, errlen, "misaligned access", l, a);
        uint8_t *p;
        switch (space) {
        case SP_GLOBAL:
            if (a & (size - 1))
                return fault(w, i, err, errlen, "misaligned global access", l, a);
            if (w->tx_at) {
                if (is_atom)
                    return fault(w, i, err, errlen,
                                 "atomic inside a transaction (not supported)", l, a);
                if ((w->tx_aborted >> l & 1) || !tx_intra_check(w, l, a, size, is_st))
                    continue;
                if (w->tx_n >= PTX_TX_LOG_MAX)
                    return fault(w, i, err, errlen, "transaction log overflow", l, a);
                struct ptx_tx_access *e = &w->tx_log[w->tx_n++];
                e->addr = a;
                e->lane = (uint8_t)l;
                e->size = (uint8_t)size;
                e->pc = (uint32_t)(i - w->ins);
                e->write = is_st;
                e->data[0] = e->data[1] = 0;
                e->done = false;
                if (is_st)
                    pack_store(w, i, l, e->data);
            }
            gmask |= 1u << l;
            mo->addr[l] = a;
            if (is_st)
                pack_store(w, i, l, mo->data[l]);
            else if (is_atom) {
                mo->data[l][0] = trunc_to(row(w, &i->s[0])[l], eb);
                mo->data[l][1] = i->mod == ATOM_CAS ? trunc_to(row(w, &i->s[1])[l], eb) : 0;
            }
            continue;
        case SP_SHARED:
            if (la + size > c->shmem_bytes)
                return fault(w, i, err, errlen, "shared access out of range", l, a);
            p = c->shmem + la;
            break;
        case SP_LOCAL:
            if (la + size > w->local_stride)
                return fault(w, i, err, errlen, "local access out of range", l, a);
            p = w->local + (size_t)l * w->local_stride + la;
            break;
        case SP_PARAM:
            if (la + size > c->param_bytes)
                return fault(w, i, err, errlen, "parameter access out of range", l, a);
            p = c->params + la;
            break;
        case SP_CONST:
            if (la + size > w->m->cbank_bytes)
                return fault(w, i, err, errlen, "constant access out of range", l, a);
            p = w->m->cbank + la;
            break;
        default:
            return fault(w, i, err, errlen, "bad state space", l, a);
        }
        if (is_ld) {
            unpack_load(w, i, l, p);
        } else if (is_st) {
            uint64_t d[2];
            pack_store(w, i, l, d);
            memcpy(p, d, size);
        } else {
            if (space != SP_SHARED)
                return fault(w, i, err, errlen, "atomic on local memory", l, a);
            uint64_t r = atom_local(i, p, row(w, &i->s[0])[l],
                                    i->mod == ATOM_CAS ? row(w, &i->s[1])[l] : 0);
            if (i->op == PX_ATOM)
                w->r[(size_t)i->d[0].idx * 32 + l] = extend(r, i->type);
        }
    }
    uint64_t now = env->clock;
    uint32_t lat = env->lat ? env->lat[PTX_LAT_SHMEM] : 1;
    bool has_dst = is_ld || i->op == PX_ATOM;
    if (!gmask) {
        if (has_dst)
            for (unsigned k = 0; k < i->n_dst; k++)
                if (i->d[k].kind == OK_REG)
                    w->rr[i->d[k].idx] = now + lat;
        if (now + lat > w->ready_max)
            w->ready_max = now + lat;
        out->lat_class = PTX_LAT_SHMEM;
        return 0;
    }
    out->kind = PTX_STEP_MEM;
    out->lat_class = PTX_LAT_GMEM;
    mo->op = is_ld ? MEM_LOAD : is_st ? MEM_STORE : MEM_ATOMIC;
    mo->sem = i->sem;
    mo->scope = i->scope;
    mo->size = (uint8_t)size;
    mo->mask = gmask;
    mo->is_red = i->op == PX_RED;
    mo->tag = (uint32_t)(i - w->ins);
    mo->tx = w->tx_at != 0;
    if (is_atom) {
        mo->atom_kind = i->mod;
        mo->atom_type = (uint8_t)px_atom_type(i->type);
    } else {
        mo->atom_kind = mo->atom_type = 0;
    }
    if (has_dst) {
        for (unsigned k = 0; k < i->n_dst; k++)
            if (i->d[k].kind == OK_REG)
                w->rr[i->d[k].idx] = UINT64_MAX;
        w->n_pending++;
    }
    return 0;
}

/* A transactional load sees the lane's own earlier writes of the attempt (the
 * redo log) over what memory returned. The load's own log entry is the lane's
 * last read from its instruction: one instruction cannot have two loads in
 * flight, since its destination is pending. That entry keeps what memory
 * returned (the read log a lazy TM validates). */
static void tx_read_own_writes(struct ptx_warp *w, const struct ptx_memop *op,
                               const uint64_t (*lane_data)[2], uint64_t (*own)[2])
{
    for (uint32_t m_ = op->mask; m_; m_ &= m_ - 1) {
        unsigned l = (unsigned)__builtin_ctz(m_);
        own[l][0] = lane_data[l][0];
        own[l][1] = lane_data[l][1];
        uint32_t upto = w->tx_n;
        while (upto && !(w->tx_log[upto - 1].lane == l && w->tx_log[upto - 1].pc == op->tag &&
                         !w->tx_log[upto - 1].write))
            upto--;
        if (upto) {
            w->tx_log[upto - 1].data[0] = lane_data[l][0];
            w->tx_log[upto - 1].data[1] = lane_data[l][1];
            w->tx_log[upto - 1].done = true;
        }
        uint64_t a = op->addr[l];
        uint8_t *dst = (uint8_t *)own[l];
        for (uint32_t k = 0; k + 1 < upto; k++) {
            const struct ptx_tx_access *e = &w->tx_log[k];
            if (e->lane != l || !e->write)
                continue;
            uint64_t lo = MAX(a, e->addr), hi = MIN(a + op->size, e->addr + e->size);
            if (lo < hi)
                memcpy(dst + (lo - a), (const uint8_t *)e->data + (lo - e->addr), hi - lo);
        }
    }
}

void ptx_warp_complete(struct ptx_warp *w, const struct ptx_memop *op,
                       const uint64_t (*lane_data)[2], uint64_t cycle)
{
    if (op->op != MEM_LOAD && op->op != MEM_ATOMIC)
        return;
    const struct px_inst *i = &w->ins[op->tag];
    uint64_t own[32][2];
    if (op->tx) {
        tx_read_own_writes(w, op, lane_data, own);
        lane_data = (const uint64_t(*)[2])own;
    }
    if (op->op == MEM_LOAD && i->vec == 1 && i->n_dst == 1 && i->d[0].kind == OK_REG) {
        /* a scalar load: the lane's bytes are the low bytes of lane_data[l][0] */
        uint64_t *D = w->r + (size_t)i->d[0].idx * 32;
        unsigned t = i->type;
        for (uint32_t m_ = op->mask; m_; m_ &= m_ - 1) {
            unsigned l = (unsigned)__builtin_ctz(m_);
            D[l] = extend(lane_data[l][0], t);
        }
        w->rr[i->d[0].idx] = cycle;
        if (cycle > w->ready_max)
            w->ready_max = cycle;
    } else if (op->op == MEM_LOAD || !op->is_red) {
        for (uint32_t m_ = op->mask; m_; m_ &= m_ - 1) {
            unsigned l = (unsigned)__builtin_ctz(m_);
            if (op->op == MEM_LOAD)
                unpack_load(w, i, l, lane_data[l]);
            else
                w->r[(size_t)i->d[0].idx * 32 + l] = extend(lane_data[l][0], i->type);
        }
        for (unsigned k = 0; k < i->n_dst; k++)
            if (i->d[k].kind == OK_REG)
                w->rr[i->d[k].idx] = cycle;
        if (cycle > w->ready_max)
            w->ready_max = cycle;
    }
    if (w->n_pending)
        w->n_pending--;
}

void ptx_warp_barrier_release(struct ptx_warp *w)
{
    w->at_barrier = false;
    if (w->bar_red) {
        const struct px_inst *i = w->bar_red;
        struct ptx_cta *c = w->c;
        uint32_t id = (uint32_t)row(w, &i->s[0])[__builtin_ctz(w->bar_red_mask)] & 15;
        if (i->mod == 2) {
            uint64_t *D = w->r + (size_t)i->d[0].idx * 32;
            for (uint32_t m_ = w->bar_red_mask; m_; m_ &= m_ - 1)
                D[__builtin_ctz(m_)] = c->red[id].popc;
        } else {
            bool v = i->mod == 3 ? c->red[id].all : c->red[id].any;
            uint32_t *P = &w->p[i->d[0].idx];
            *P = v ? (*P | w->bar_red_mask) : (*P & ~w->bar_red_mask);
        }
        if (++c->red[id].released >= c->red[id].arrived) {
            c->red[id].popc = 0;
            c->red[id].all = true;
            c->red[id].any = false;
            c->red[id].arrived = c->red[id].released = 0;
        }
        w->bar_red = NULL;
    }
}

static uint64_t sreg_value(const struct ptx_warp *w, unsigned sr, unsigned l,
                           const struct ptx_env *env)
{
    const struct ptx_cta *c = w->c;
    switch (sr) {
    case SR_TID_X: return w->tid[0][l];
    case SR_TID_Y: return w->tid[1][l];
    case SR_TID_Z: return w->tid[2][l];
    case SR_NTID_X: return c->ntid.x;
    case SR_NTID_Y: return c->ntid.y;
    case SR_NTID_Z: return c->ntid.z;
    case SR_CTAID_X: return c->ctaid.x;
    case SR_CTAID_Y: return c->ctaid.y;
    case SR_CTAID_Z: return c->ctaid.z;
    case SR_NCTAID_X: return c->nctaid.x;
    case SR_NCTAID_Y: return c->nctaid.y;
    case SR_NCTAID_Z: return c->nctaid.z;
    case SR_LANEID: return l;
    case SR_WARPID: return env->warpid;
    case SR_NWARPID: return 64;
    case SR_SMID: return env->smid;
    case SR_NSMID: return env->nsmid;
    case SR_CLOCK: return (uint32_t)env->clock;
    case SR_CLOCK_HI: return (uint32_t)(env->clock >> 32);
    case SR_CLOCK64: return env->clock;
    case SR_GLOBALTIMER: return env->globaltimer_ns;
    case SR_GLOBALTIMER_LO: return (uint32_t)env->globaltimer_ns;
    case SR_GLOBALTIMER_HI: return (uint32_t)(env->globaltimer_ns >> 32);
    case SR_LANEMASK_EQ: return 1u << l;
    case SR_LANEMASK_LT: return (1u << l) - 1;
    case SR_LANEMASK_LE: return (uint32_t)((2ull << l) - 1);
    case SR_LANEMASK_GT: return ~(uint32_t)((2ull << l) - 1);
    case SR_LANEMASK_GE: return ~((1u << l) - 1);
    case SR_DYN_SMEM: return c->dyn_bytes;
    case SR_TOTAL_SMEM: return c->shmem_bytes;
    case SR_GRIDID: return 0;
    default: return 0;
    }
}

/* Arithmetic on 32-lane rows, specialised by type. */
/* Full warps whose destination row is not a source row take a loop over
 * restrict-qualified rows, which the compiler may vectorise. Rows are either
 * the same row or disjoint, so the check makes restrict truthful. */
#define NOALIAS_FULL (active == 0xffffffffu && D != A && D != B)

#define INT_BIN(EXPR32, EXPR64, EXPR16)                                                            \
    do {                                                                                           \
        if (by == 4 && NOALIAS_FULL) {                                                             \
            uint64_t *restrict d_ = D;                                                             \
            const uint64_t *restrict a_ = A, *restrict b_ = B;                                     \
            for (unsigned l = 0; l < 32; l++) {                                                    \
                uint32_t a = (uint32_t)a_[l], b = (uint32_t)b_[l];                                 \
                d_[l] = (uint32_t)(EXPR32);                                                        \
            }                                                                                      \
        } else if (by == 4) {                                                                      \
            LANES(uint32_t a = (uint32_t)A[l]; uint32_t b = (uint32_t)B[l]; D[l] = (uint32_t)(EXPR32)); \
        } else if (by == 8 && NOALIAS_FULL) {                                                      \
            uint64_t *restrict d_ = D;                                                             \
            const uint64_t *restrict a_ = A, *restrict b_ = B;                                     \
            for (unsigned l = 0; l < 32; l++) {                                                    \
                uint64_t a = a_[l], b = b_[l];                                                     \
                d_[l] = (EXPR64);                                                                  \
            }                                                                                      \
        } else if (by == 8) {                                                                      \
            LANES(uint64_t a = A[l]; uint64_t b = B[l]; D[l] = (EXPR64));                          \
        } else {                                                                                   \
            LANES(uint16_t a = (uint16_t)A[l]; uint16_t b = (uint16_t)B[l];                        \
                  D[l] = (uint16_t)(EXPR16));                                                      \
        }                                                                                          \
    } while (0)

#define F_BIN(EXPR32, EXPR64)                                                                      \
    do {                                                                                           \
        if (t == PT_F32 && NOALIAS_FULL) {                                                         \
            uint64_t *restrict d_ = D;                                                             \
            const uint64_t *restrict a_ = A, *restrict b_ = B;                                     \
            for (unsigned l = 0; l < 32; l++) {                                                    \
                float a = f32_of(a_[l]), b = f32_of(b_[l]);                                        \
                d_[l] = bits_f32(EXPR32);                                                          \
            }                                                                                      \
        } else if (t == PT_F32) {                                                                  \
            LANES(float a = f32_of(A[l]); float b = f32_of(B[l]); D[l] = bits_f32(EXPR32));        \
        } else {                                                                                   \
            LANES(double a = f64_of(A[l]); double b = f64_of(B[l]); D[l] = bits_f64(EXPR64));      \
        }                                                                                          \
    } while (0)

/* fma.f32 over a row. Where the host has an FMA instruction a clone of the
 * loop built for it is picked at run time (the C library's fmaf uses the same
 * instruction there; both round once, so the bits are the same); elsewhere
 * fmaf lane by lane. All 32 lanes are computed into a local row (inactive
 * lanes' bits only set floating-point flags, which nothing reads), so the
 * loop vectorises whatever rows D aliases, then the active lanes are kept. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target("avx2,fma"))) static void fma_row_f32_hw(uint64_t *D, const uint64_t *A,
                                                               const uint64_t *B,
                                                               const uint64_t *C, uint32_t active)
{
    uint64_t t[32];
    for (unsigned l = 0; l < 32; l++)
        t[l] = bits_f32(__builtin_fmaf(f32_of(A[l]), f32_of(B[l]), f32_of(C[l])));
    if (active == 0xffffffffu)
        memcpy(D, t, sizeof t);
    else
        for (uint32_t m_ = active; m_; m_ &= m_ - 1)
            D[__builtin_ctz(m_)] = t[__builtin_ctz(m_)];
}
#define PX_HW_FMA() (__builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2"))
#else
#define fma_row_f32_hw(D, A, B, C, active) ((void)0)
#define PX_HW_FMA() 0
#endif

static void fma_row_f32(uint64_t *D, const uint64_t *A, const uint64_t *B, const uint64_t *C,
                        uint32_t active)
{
    if (PX_HW_FMA()) {
        fma_row_f32_hw(D, A, B, C, active);
        return;
    }
    LANES(D[l] = bits_f32(fmaf(f32_of(A[l]), f32_of(B[l]), f32_of(C[l]))));
}

static void float_post(uint64_t *D, uint32_t active, const struct px_inst *i)
{
    if (i->type == PT_F32) {
        if (i->flags & PF_FTZ)
            LANES(D[l] = bits_f32(ftz32(f32_of(D[l]))));
        if (i->flags & PF_SAT)
            LANES(D[l] = bits_f32(sat32(f32_of(D[l]))));
    } else if (i->flags & PF_SAT) {
        LANES(D[l] = bits_f64(sat64(f64_of(D[l]))));
    }
}

static int exec_alu(struct ptx_warp *w, const struct px_inst *i, uint32_t active,
                    const struct ptx_env *env, char *err, size_t errlen)
{
    unsigned t = i->type;
    unsigned by = px_type_bytes(t);
    bool sg = px_type_signed(t);
    uint64_t *D = w->r + (size_t)i->d[0].idx * 32;
    const uint64_t *A = row(w, &i->s[0]);
    const uint64_t *B = row(w, &i->s[1]);
    const uint64_t *C = row(w, &i->s[2]);
    bool fl = t == PT_F32 || t == PT_F64;
    int oldr = 0;
    bool dir = fl && i->mod > RND_RN && !(i->flags & PF_APPROX);
    if (dir) {
        oldr = fegetround();
        fesetround(round_mode(i->mod));
    }
    switch (i->op) {
    case PX_ADD:
        if (fl)
            F_BIN(a + b, a + b);
        else if ((i->flags & PF_SAT) && by == 4)
            LANES(int64_t s = (int64_t)(int32_t)A[l] + (int32_t)B[l];
                  D[l] = (uint32_t)(s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s));
        else
            INT_BIN(a + b, a + b, a + b);
        break;
    case PX_SUB:
        if (fl)
            F_BIN(a - b, a - b);
        else if ((i->flags & PF_SAT) && by == 4)
            LANES(int64_t s = (int64_t)(int32_t)A[l] - (int32_t)B[l];
                  D[l] = (uint32_t)(s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s));
        else
            INT_BIN(a - b, a - b, a - b);
        break;
    case PX_MUL:
        F_BIN(a * b, a * b);
        break;
    case PX_MUL_LO:
        INT_BIN(a * b, a * b, a * b);
        break;
    case PX_MUL_HI:
        if (by == 4 && sg)
            LANES(D[l] = (uint32_t)(((int64_t)(int32_t)A[l] * (int32_t)B[l]) >> 32));
        else if (by == 4)
            LANES(D[l] = (uint32_t)(((uint64_t)(uint32_t)A[l] * (uint32_t)B[l]) >> 32));
        else if (by == 8 && sg)
            LANES(D[l] = (uint64_t)(((__int128)(int64_t)A[l] * (int64_t)B[l]) >> 64));
        else if (by == 8)
            LANES(D[l] = (uint64_t)(((unsigned __int128)A[l] * B[l]) >> 64));
        else if (sg)
            LANES(D[l] = (uint16_t)(((int32_t)(int16_t)A[l] * (int16_t)B[l]) >> 16));
        else
            LANES(D[l] = (uint16_t)(((uint32_t)(uint16_t)A[l] * (uint16_t)B[l]) >> 16));
        break;
    case PX_MUL_WIDE:
        if (by == 4 && sg)
            LANES(D[l] = (uint64_t)((int64_t)(int32_t)A[l] * (int32_t)B[l]));
        else if (by == 4)
            LANES(D[l] = (uint64_t)(uint32_t)A[l] * (uint32_t)B[l]);
        else if (sg)
            LANES(D[l] = (uint32_t)((int32_t)(int16_t)A[l] * (int16_t)B[l]));
        else
            LANES(D[l] = (uint32_t)((uint32_t)(uint16_t)A[l] * (uint16_t)B[l]));
        break;
    case PX_MAD_LO:
        if (by == 4)
            LANES(D[l] = (uint32_t)((uint32_t)A[l] * (uint32_t)B[l] + (uint32_t)C[l]));
        else if (by == 8)
            LANES(D[l] = A[l] * B[l] + C[l]);
        else
            LANES(D[l] = (uint16_t)(A[l] * B[l] + C[l]));
        break;
    case PX_MAD_HI:
        if (by == 4 && sg)
            LANES(D[l] = (uint32_t)((uint32_t)(((int64_t)(int32_t)A[l] * (int32_t)B[l]) >> 32) +
                                    (uint32_t)C[l]));
        else if (by == 4)
            LANES(D[l] = (uint32_t)((uint32_t)(((uint64_t)(uint32_t)A[l] * (uint32_t)B[l]) >> 32) +
                                    (uint32_t)C[l]));
        else if (by == 8 && sg)
            LANES(D[l] = (uint64_t)(((__int128)(int64_t)A[l] * (int64_t)B[l]) >> 64) + C[l]);
        else if (by == 8)
            LANES(D[l] = (uint64_t)(((unsigned __int128)A[l] * B[l]) >> 64) + C[l]);
        else {
            snprintf(err, errlen, "%s:%u: mad.hi on 16-bit types is not supported",
                     w->m->filename, i->line);
            return -1;
        }
        break;
    case PX_MAD_WIDE:
        if (by == 4 && sg)
            LANES(D[l] = (uint64_t)((int64_t)(int32_t)A[l] * (int32_t)B[l]) + C[l]);
        else if (by == 4)
            LANES(D[l] = (uint64_t)(uint32_t)A[l] * (uint32_t)B[l] + C[l]);
        else if (sg)
            LANES(D[l] = (uint32_t)((int32_t)(int16_t)A[l] * (int16_t)B[l] + (uint32_t)C[l]));
        else
            LANES(D[l] = (uint32_t)((uint32_t)(uint16_t)A[l] * (uint16_t)B[l] + (uint32_t)C[l]));
        break;
    case PX_FMA:
        if (t == PT_F32)
            fma_row_f32(D, A, B, C, active);
        else
            LANES(D[l] = bits_f64(fma(f64_of(A[l]), f64_of(B[l]), f64_of(C[l]))));
        break;
    case PX_DIV:
        if (fl)
            F_BIN(a / b, a / b);
        else if (sg && by == 4)
            LANES(int32_t a = (int32_t)A[l]; int32_t b = (int32_t)B[l];
                  D[l] = (uint32_t)(b == 0 ? -1 : (a == INT32_MIN && b == -1) ? a : a / b));
        else if (sg && by == 8)
            LANES(int64_t a = (int64_t)A[l]; int64_t b = (int64_t)B[l];
                  D[l] = (uint64_t)(b == 0 ? -1 : (a == INT64_MIN && b == -1) ? a : a / b));
        else if (sg)
            LANES(int16_t a = (int16_t)A[l]; int16_t b = (int16_t)B[l];
                  D[l] = (uint16_t)(b == 0 ? -1 : a / b));
        else
            INT_BIN(b ? a / b : 0xffffffffu, b ? a / b : UINT64_MAX, b ? a / b : 0xffff);
        break;
    case PX_REM:
        if (sg && by == 4)
            LANES(int32_t a = (int32_t)A[l]; int32_t b = (int32_t)B[l];
                  D[l] = (uint32_t)(b == 0 ? a : (b == -1) ? 0 : a % b));
        else if (sg && by == 8)
            LANES(int64_t a = (int64_t)A[l]; int64_t b = (int64_t)B[l];
                  D[l] = (uint64_t)(b == 0 ? a : (b == -1) ? 0 : a % b));
        else if (sg)
            LANES(int16_t a = (int16_t)A[l]; int16_t b = (int16_t)B[l];
                  D[l] = (uint16_t)(b == 0 ? a : a % b));
        else
            INT_BIN(b ? a % b : a, b ? a % b : a, b ? a % b : a);
        break;
    case PX_MIN:
    case PX_MAX: {
        bool mx = i->op == PX_MAX;
        /* PTX orders +0.0 above -0.0, which fminf/fmaxf leave open: two
         * zeros give -0 for min when either is -0, +0 for max when either is */
        if (t == PT_F32)
            LANES(float a = f32_of(A[l]); float b = f32_of(B[l]);
                  D[l] = (a == 0.0f && b == 0.0f)
                             ? (uint32_t)(mx ? A[l] & B[l] : A[l] | B[l])
                             : bits_f32(mx ? fmaxf(a, b) : fminf(a, b)));
        else if (t == PT_F64)
            LANES(double a = f64_of(A[l]); double b = f64_of(B[l]);
                  D[l] = (a == 0.0 && b == 0.0) ? (mx ? A[l] & B[l] : A[l] | B[l])
                                                : bits_f64(mx ? fmax(a, b) : fmin(a, b)));
        else if (sg)
            LANES(int64_t a = sext(A[l], by); int64_t b = sext(B[l], by);
                  D[l] = trunc_to((uint64_t)(mx ? (a > b ? a : b) : (a < b ? a : b)), by));
        else
            LANES(uint64_t a = trunc_to(A[l], by); uint64_t b = trunc_to(B[l], by);
                  D[l] = mx ? (a > b ? a : b) : (a < b ? a : b));
        break;
    }
    case PX_ABS:
        if (t == PT_F32)
            LANES(D[l] = A[l] & 0x7fffffffu);
        else if (t == PT_F64)
            LANES(D[l] = A[l] & 0x7fffffffffffffffull);
        else
            LANES(int64_t a = sext(A[l], by); D[l] = trunc_to((uint64_t)(a < 0 ? -a : a), by));
        break;
    case PX_NEG:
        if (t == PT_F32)
            LANES(D[l] = (A[l] ^ 0x80000000u) & 0xffffffffu);
        else if (t == PT_F64)
            LANES(D[l] = A[l] ^ 0x8000000000000000ull);
        else
            LANES(D[l] = trunc_to(-A[l], by));
        break;
    case PX_AND: INT_BIN(a & b, a & b, a & b); break;
    case PX_OR: INT_BIN(a | b, a | b, a | b); break;
    case PX_XOR: INT_BIN(a ^ b, a ^ b, a ^ b); break;
    case PX_NOT: LANES(D[l] = trunc_to(~A[l], by)); break;
    case PX_CNOT: LANES(D[l] = trunc_to(A[l], by) == 0); break;
    case PX_SHL:
        LANES(uint32_t s = (uint32_t)B[l]; D[l] = s >= by * 8 ? 0 : trunc_to(A[l] << s, by));
        break;
    case PX_SHR:
        if (sg)
            LANES(uint32_t s = (uint32_t)B[l]; int64_t a = sext(A[l], by);
                  D[l] = trunc_to((uint64_t)(a >> (s >= by * 8 ? by * 8 - 1 : s)), by));
        else
            LANES(uint32_t s = (uint32_t)B[l];
                  D[l] = s >= by * 8 ? 0 : trunc_to(A[l], by) >> s);
        break;
    case PX_POPC: LANES(D[l] = (uint32_t)__builtin_popcountll(trunc_to(A[l], by))); break;
    case PX_CLZ:
        LANES(uint64_t a = trunc_to(A[l], by);
              D[l] = a ? (uint32_t)__builtin_clzll(a) - (64 - by * 8) : by * 8);
        break;
    case PX_BREV:
        if (by == 4)
            LANES(D[l] = brev32((uint32_t)A[l]));
        else
            LANES(D[l] = ((uint64_t)brev32((uint32_t)A[l]) << 32) | brev32((uint32_t)(A[l] >> 32)));
        break;
    case PX_BFE: LANES(D[l] = bfe(A[l], (uint32_t)B[l], (uint32_t)C[l], t)); break;
    case PX_BFI: {
        const uint64_t *E = row(w, &i->s[3]);
        LANES(D[l] = bfi(A[l], B[l], (uint32_t)C[l], (uint32_t)E[l], t));
        break;
    }
    case PX_PRMT: LANES(D[l] = prmt((uint32_t)A[l], (uint32_t)B[l], (uint32_t)C[l])); break;
    case PX_SHF_L:
    case PX_SHF_R: {
        bool clamp = i->flags & PF_SHIFT_CLAMP, left = i->op == PX_SHF_L;
        LANES(uint32_t n = (uint32_t)C[l]; n = clamp ? (n > 32 ? 32 : n) : (n & 31);
              uint64_t v = ((uint64_t)(uint32_t)B[l] << 32) | (uint32_t)A[l];
              D[l] = left ? (uint32_t)((v << n) >> 32) : (uint32_t)(v >> n));
        break;
    }
    case PX_COPYSIGN:
        if (t == PT_F32)
            LANES(D[l] = bits_f32(copysignf(f32_of(B[l]), f32_of(A[l]))));
        else
            LANES(D[l] = bits_f64(copysign(f64_of(B[l]), f64_of(A[l]))));
        break;
    case PX_SQRT:
        if (t == PT_F32) LANES(D[l] = bits_f32(sqrtf(f32_of(A[l]))));
        else LANES(D[l] = bits_f64(sqrt(f64_of(A[l]))));
        break;
    case PX_RCP:
        if (t == PT_F32) LANES(D[l] = bits_f32(1.0f / f32_of(A[l])));
        else LANES(D[l] = bits_f64(1.0 / f64_of(A[l])));
        break;
    case PX_RSQRT:
        if (t == PT_F32) LANES(D[l] = bits_f32(1.0f / sqrtf(f32_of(A[l]))));
        else LANES(D[l] = bits_f64(1.0 / sqrt(f64_of(A[l]))));
        break;
    case PX_EX2:
        if (t == PT_F32) LANES(D[l] = bits_f32(exp2f(f32_of(A[l]))));
        else LANES(D[l] = bits_f64(exp2(f64_of(A[l]))));
        break;
    case PX_LG2:
        if (t == PT_F32) LANES(D[l] = bits_f32(log2f(f32_of(A[l]))));
        else LANES(D[l] = bits_f64(log2(f64_of(A[l]))));
        break;
    case PX_SIN:
        if (t == PT_F32) LANES(D[l] = bits_f32(sinf(f32_of(A[l]))));
        else LANES(D[l] = bits_f64(sin(f64_of(A[l]))));
        break;
    case PX_COS:
        if (t == PT_F32) LANES(D[l] = bits_f32(cosf(f32_of(A[l]))));
        else LANES(D[l] = bits_f64(cos(f64_of(A[l]))));
        break;
    case PX_TANH:
        if (t == PT_F32) LANES(D[l] = bits_f32(tanhf(f32_of(A[l]))));
        else LANES(D[l] = bits_f64(tanh(f64_of(A[l]))));
        break;
    case PX_SELP: {
        uint32_t p = pred_val(w, &i->s[2]);
        LANES(D[l] = ((p >> l) & 1) ? A[l] : B[l]);
        break;
    }
    case PX_SLCT:
        if (i->type2 == PT_F32)
            LANES(D[l] = f32_of(C[l]) >= 0.0f ? A[l] : B[l]);
        else
            LANES(D[l] = (int32_t)C[l] >= 0 ? A[l] : B[l]);
        break;
    case PX_MOV: LANES(D[l] = A[l]); break;
    case PX_MOV_PACK: {
        unsigned n = i->n_src, eb = by / n;
        LANES(uint64_t v = 0;
              for (unsigned k = 0; k < n; k++) v |= trunc_to(row(w, &i->s[k])[l], eb) << (8 * eb * k);
              D[l] = v);
        break;
    }
    case PX_MOV_UNPACK: {
        unsigned n = i->n_dst, eb = by / n;
        for (unsigned k = 0; k < n; k++) {
            uint64_t *Dk = w->r + (size_t)i->d[k].idx * 32;
            if (i->d[k].kind != OK_REG || Dk == A)
                continue; /* a sink '_'; or the source, written last so it is read first */
            LANES(Dk[l] = trunc_to(A[l] >> (8 * eb * k), eb));
        }
        for (unsigned k = 0; k < n; k++) {
            uint64_t *Dk = w->r + (size_t)i->d[k].idx * 32;
            if (i->d[k].kind == OK_REG && Dk == A)
                LANES(Dk[l] = trunc_to(A[l] >> (8 * eb * k), eb));
        }
        break;
    }
    case PX_MOV_SREG: LANES(D[l] = sreg_value(w, i->mod, l, env)); break;
    case PX_MOV_FRAME: LANES(D[l] = w->frame_base + (uint64_t)i->off); break;
    case PX_MOV_DYNSHM: LANES(D[l] = w->c->dynshm_base + (uint64_t)i->off); break;
    case PX_CVT:
        switch (i->bop) {
        case CV_F32_S32: LANES(D[l] = bits_f32((float)(int32_t)A[l])); break;
        case CV_F32_U32: LANES(D[l] = bits_f32((float)(uint32_t)A[l])); break;
        case CV_S32_F32_RZ:
            LANES(float f = f32_of(A[l]);
                  D[l] = (f > -2147483648.0f && f < 2147483648.0f) ? (uint32_t)(int32_t)f
                                                                    : cvt_one(i, A[l]));
            break;
        case CV_S32_F32_RN:
            LANES(float f = f32_of(A[l]);
                  D[l] = (f > -2147483648.0f && f < 2147483648.0f)
                             ? (uint32_t)(int32_t)nearbyintf(f) : cvt_one(i, A[l]));
            break;
        case CV_ZEXT32: LANES(D[l] = (uint32_t)A[l]); break;
        case CV_SEXT32: LANES(D[l] = (uint64_t)(int64_t)(int32_t)A[l]); break;
        case CV_TRUNC32: LANES(D[l] = (uint32_t)A[l]); break;
        case CV_F64_F32: LANES(D[l] = bits_f64((double)f32_of(A[l]))); break;
        case CV_F32_F64_RN: LANES(D[l] = bits_f32((float)f64_of(A[l]))); break;
        case CV_F64_S32: LANES(D[l] = bits_f64((double)(int32_t)A[l])); break;
        case CV_F64_U32: LANES(D[l] = bits_f64((double)(uint32_t)A[l])); break;
        default: LANES(D[l] = cvt_one(i, A[l])); break;
        }
        break;
    case PX_CVTA_FROM: {
        uint64_t base = i->space == SP_SHARED ? PTX_SHARED_WINDOW
                        : i->space == SP_LOCAL ? PTX_LOCAL_WINDOW : 0;
        LANES(D[l] = trunc_to(A[l] + base, by));
        break;
    }
    case PX_CVTA_TO: {
        uint64_t base = i->space == SP_SHARED ? PTX_SHARED_WINDOW
                        : i->space == SP_LOCAL ? PTX_LOCAL_WINDOW : 0;
        LANES(D[l] = trunc_to(A[l] - base, by));
        break;
    }
    default:
        if (dir)
            fesetround(oldr);
        snprintf(err, errlen, "%s:%u: internal: op %u reached the ALU", w->m->filename, i->line,
                 i->op);
        return -1;
    }
    if (dir)
        fesetround(oldr);
    if (fl && (i->flags & (PF_FTZ | PF_SAT)) && i->op != PX_CVT && i->op != PX_MOV &&
        i->op != PX_SELP && i->op != PX_ABS && i->op != PX_NEG)
        float_post(D, active, i);
    return 0;
}

static void exec_setp(struct ptx_warp *w, const struct px_inst *i, uint32_t active)
{
    const uint64_t *A = row(w, &i->s[0]);
    const uint64_t *B = row(w, &i->s[1]);
    unsigned t = i->type, cmp = i->mod;
    uint32_t r = 0;
    if (t == PT_F32) {
        LANES(r |= (uint32_t)cmp_float(cmp, f32_of(A[l]), f32_of(B[l])) << l);
    } else if (t == PT_F64) {
        LANES(r |= (uint32_t)cmp_float(cmp, f64_of(A[l]), f64_of(B[l])) << l);
    } else if (t == PT_S32 && cmp <= CMP_GE) {
        /* the most common form, kept tight */
        LANES(int32_t a = (int32_t)A[l]; int32_t b = (int32_t)B[l];
              bool v = cmp == CMP_EQ ? a == b : cmp == CMP_NE ? a != b : cmp == CMP_LT ? a < b
                       : cmp == CMP_LE ? a <= b : cmp == CMP_GT ? a > b : a >= b;
              r |= (uint32_t)v << l);
    } else {
        LANES(r |= (uint32_t)cmp_int(cmp, A[l], B[l], t) << l);
    }
    uint32_t c = i->bop ? pred_val(w, &i->s[2]) : 0;
    uint32_t p = bool_combine(i->bop, r, c), q = bool_combine(i->bop, ~r, c);
    uint32_t *P = &w->p[i->d[0].idx];
    *P = (*P & ~active) | (p & active);
    if (i->n_dst > 1) {
        uint32_t *Q = &w->p[i->d[1].idx];
        *Q = (*Q & ~active) | (q & active);
    }
}

/* ---- half precision: .f16 .f16x2 .bf16 .bf16x2 (element semantics in half.c) ---- */

static inline bool type_bf(unsigned t)
{
    return t == PT_BF16 || t == PT_BF16X2;
}

static inline bool type_x2(unsigned t)
{
    return t == PT_F16X2 || t == PT_BF16X2;
}

static inline bool cmp_half(unsigned cmp, bool bf, bool ftz, uint16_t a, uint16_t b)
{
    if (ftz) {
        a = half_ftz(a, bf);
        b = half_ftz(b, bf);
    }
    return cmp_float(cmp, half_to_f32(a, bf), half_to_f32(b, bf));
}

/* cvt.frnd{.relu}{.satfinite}.{f16x2,bf16x2}.f32 of one element */
static uint16_t cvt_half_elem(float f, bool bf, unsigned rnd, unsigned hb)
{
    uint16_t r = half_round(f, bf, px_half_rounding(rnd)), inf = bf ? 0x7f80u : 0x7c00u;
    if ((hb & PH_SATFIN) && (r & 0x7fffu) == inf)
        r = (uint16_t)(r - 1); /* the largest finite value of the same sign */
    if ((hb & PH_RELU) && (r & 0x8000u) && !half_is_nan(r, bf))
        r = 0;
    return r;
}

/* add/sub/mul/fma/min/max/neg/abs/ex2/tanh on halves, and the x2 cvt pack.
 * Packed registers are two independent elements, the first in the low half. */
static void exec_half(struct ptx_warp *w, const struct px_inst *i, uint32_t active)
{
    unsigned t = i->type, op = i->op, fl = i->flags, hb = i->bop;
    bool bf = type_bf(t);
    uint64_t *D = w->r + (size_t)i->d[0].idx * 32;
    const uint64_t *A = row(w, &i->s[0]), *B = row(w, &i->s[1]), *C = row(w, &i->s[2]);
    if (op == PX_CVT_PACK) {
        LANES(uint64_t a = A[l], b = B[l];
              D[l] = (uint64_t)cvt_half_elem(f32_of(a), bf, i->mod, hb) << 16 |
                     cvt_half_elem(f32_of(b), bf, i->mod, hb));
    } else if (type_x2(t)) {
        LANES(uint64_t a = A[l], b = B[l], c = C[l];
              uint64_t lo = px_half_arith(op, bf, fl, hb, (uint16_t)a, (uint16_t)b, (uint16_t)c);
              uint64_t hi = px_half_arith(op, bf, fl, hb, (uint16_t)(a >> 16), (uint16_t)(b >> 16),
                                          (uint16_t)(c >> 16));
              D[l] = hi << 16 | lo);
    } else {
        LANES(D[l] = px_half_arith(op, bf, fl, hb, (uint16_t)A[l], (uint16_t)B[l], (uint16_t)C[l]));
    }
}

/* Per-lane compare masks of a setp/set on halves: lo = the (first) element,
 * hi = the second element of packed operands. */
static void half_cmp_masks(const struct ptx_warp *w, const struct px_inst *i, unsigned t,
                           uint32_t active, uint32_t *lo, uint32_t *hi)
{
    const uint64_t *A = row(w, &i->s[0]), *B = row(w, &i->s[1]);
    bool bf = type_bf(t), ftz = i->flags & PF_FTZ;
    unsigned cmp = i->mod;
    uint32_t rl = 0, rh = 0;
    if (type_x2(t))
        LANES(rl |= (uint32_t)cmp_half(cmp, bf, ftz, (uint16_t)A[l], (uint16_t)B[l]) << l;
              rh |= (uint32_t)cmp_half(cmp, bf, ftz, (uint16_t)(A[l] >> 16),
                                       (uint16_t)(B[l] >> 16)) << l);
    else
        LANES(rl |= (uint32_t)cmp_half(cmp, bf, ftz, (uint16_t)A[l], (uint16_t)B[l]) << l);
    *lo = rl;
    *hi = rh;
}

/* setp on halves. Scalar: p = the compare, q = its complement (as setp on
 * other types). Packed: p = the low elements' compare, q = the high ones'. */
static void exec_hsetp(struct ptx_warp *w, const struct px_inst *i, uint32_t active)
{
    uint32_t lo, hi;
    half_cmp_masks(w, i, i->type, active, &lo, &hi);
    uint32_t c = i->bop ? pred_val(w, &i->s[2]) : 0;
    uint32_t p = bool_combine(i->bop, lo, c);
    uint32_t q = bool_combine(i->bop, type_x2(i->type) ? hi : ~lo, c);
    uint32_t *P = &w->p[i->d[0].idx];
    *P = (*P & ~active) | (p & active);
    if (i->n_dst > 1) {
        uint32_t *Q = &w->p[i->d[1].idx];
        *Q = (*Q & ~active) | (q & active);
    }
}

/* ------------------------------------------------------------------ device printf */

/* vprintf(fmt, args) for the active lanes, in lane order: a record of the
 * launch's printf log each (printf.c), holding the format's address and the
 * lane's argument bytes, read here because the thread's local memory dies
 * with it. nvcc puts the argument buffer in the caller's frame, so the bytes
 * kept run from its start to the frame's end (at most PTX_PRINTF_ARGS_MAX).
 * The call returns 0: the arguments are counted only when the host formats
 * them (CUDA returns their number). */
static int exec_printf(struct ptx_warp *w, const struct px_inst *i, uint32_t active,
                       const struct ptx_env *env, char *err, size_t errlen)
{
    const struct px_call *cs = &w->m->calls[i->call];
    const struct px_func *f = w->frames[w->nf - 1].f;
    uint32_t frame_end = w->frame_base + f->frame_bytes;
    for (uint32_t m_ = active; m_; m_ &= m_ - 1) {
        unsigned l = (unsigned)__builtin_ctz(m_);
        uint8_t *local = w->local + (size_t)l * w->local_stride;
        uint64_t fmt, args;
        memcpy(&fmt, local + w->frame_base + cs->arg_off[0], 8);
        memcpy(&args, local + w->frame_base + cs->arg_off[1], 8);
        if (cs->n_rets)
            memset(local + w->frame_base + cs->ret_off[0], 0, 4);
        uint32_t n = 0;
        const uint8_t *bytes = NULL;
        if (args) {
            if (window_of(args) != WIN_LOCAL || args - PTX_LOCAL_WINDOW >= w->local_stride)
                return fault(w, i, err, errlen,
                             "printf's argument buffer is not in the thread's local memory", l,
                             args);
            uint32_t la = (uint32_t)(args - PTX_LOCAL_WINDOW);
            uint32_t end = la < frame_end ? frame_end : w->local_stride;
            n = MIN(end - la, PTX_PRINTF_ARGS_MAX);
            bytes = local + la;
        }
        if (env->printf_log)
            ptx_printf_log_add(env->printf_log, fmt, bytes, n);
    }
    return 0;
}

/* set.CmpOp{.BoolOp}.dtype.stype: each element of d is "true" (1.0 for a
 * float dtype, all ones for an integer one; per 16-bit half for packed
 * sources) or 0. */
static void exec_set(struct ptx_warp *w, const struct px_inst *i, uint32_t active)
{
    unsigned dt = i->type, st = i->type2, cmp = i->mod;
    const uint64_t *A = row(w, &i->s[0]), *B = row(w, &i->s[1]);
    uint64_t *D = w->r + (size_t)i->d[0].idx * 32;
    uint32_t lo = 0, hi = 0;
    if (st == PT_F16 || st == PT_BF16 || type_x2(st))
        half_cmp_masks(w, i, st, active, &lo, &hi);
    else if (st == PT_F32)
        LANES(lo |= (uint32_t)cmp_float(cmp, f32_of(A[l]), f32_of(B[l])) << l);
    else if (st == PT_F64)
        LANES(lo |= (uint32_t)cmp_float(cmp, f64_of(A[l]), f64_of(B[l])) << l);
    else
        LANES(lo |= (uint32_t)cmp_int(cmp, A[l], B[l], st) << l);
    uint32_t c = i->bop ? pred_val(w, &i->s[2]) : 0;
    lo = bool_combine(i->bop, lo, c);
    hi = bool_combine(i->bop, hi, c);
    uint64_t one = dt == PT_F32 ? 0x3f800000u
                   : dt == PT_F16 || dt == PT_F16X2 ? 0x3c00u
                   : dt == PT_BF16 || dt == PT_BF16X2 ? 0x3f80u
                   : type_x2(st) ? 0xffffu : trunc_to(~0ull, px_type_bytes(dt));
    if (type_x2(st))
        LANES(D[l] = (((lo >> l) & 1) ? one : 0) | (((hi >> l) & 1) ? one << 16 : 0));
    else
        LANES(D[l] = ((lo >> l) & 1) ? one : 0);
}

static int exec_warp_op(struct ptx_warp *w, const struct px_inst *i, uint32_t active)
{
    switch (i->op) {
    case PX_SHFL: {
        const uint64_t *A = row(w, &i->s[0]), *B = row(w, &i->s[1]), *C = row(w, &i->s[2]);
        uint32_t res[32], pv = 0;
        LANES(uint32_t b = (uint32_t)B[l] & 31; uint32_t cv = (uint32_t)C[l] & 31;
              uint32_t seg = ((uint32_t)C[l] >> 8) & 31;
              int32_t maxl = (int32_t)((l & seg) | (cv & ~seg)), minl = (int32_t)(l & seg);
              int32_t j; bool ok;
              switch (i->mod) {
              case 0: j = (int32_t)l - (int32_t)b; ok = j >= maxl; break;
              case 1: j = (int32_t)l + (int32_t)b; ok = j <= maxl; break;
              case 2: j = (int32_t)(l ^ b); ok = j <= maxl; break;
              default: j = minl | (int32_t)(b & ~seg); ok = j <= maxl; break;
              }
              if (!ok) j = (int32_t)l;
              res[l] = (uint32_t)A[j]; pv |= (uint32_t)ok << l);
        uint64_t *D = w->r + (size_t)i->d[0].idx * 32;
        LANES(D[l] = res[l]);
        if (i->n_dst > 1) {
            uint32_t *P = &w->p[i->d[1].idx];
            *P = (*P & ~active) | (pv & active);
        }
        return 0;
    }
    case PX_VOTE: {
        uint32_t p = pred_val(w, &i->s[0]) & active;
        if (i->mod == 3) {
            uint64_t *D = w->r + (size_t)i->d[0].idx * 32;
            LANES(D[l] = p);
            return 0;
        }
        bool v = i->mod == 0 ? p == active : i->mod == 1 ? p != 0 : (p == 0 || p == active);
        uint32_t *P = &w->p[i->d[0].idx];
        *P = v ? (*P | active) : (*P & ~active);
        return 0;
    }
    case PX_ACTIVEMASK: {
        uint64_t *D = w->r + (size_t)i->d[0].idx * 32;
        LANES(D[l] = active);
        return 0;
    }
    case PX_MATCH: {
        const uint64_t *A = row(w, &i->s[0]);
        unsigned by = px_type_bytes(i->type);
        uint64_t *D = w->r + (size_t)i->d[0].idx * 32;
        uint32_t res[32];
        bool all = true;
        LANES(uint32_t mm = 0; uint64_t v = trunc_to(A[l], by);
              for (uint32_t k_ = active; k_; k_ &= k_ - 1) {
                  unsigned o = (unsigned)__builtin_ctz(k_);
                  if (trunc_to(A[o], by) == v) mm |= 1u << o;
              }
              res[l] = mm; if (mm != active) all = false);
        if (i->mod == 0) {
            LANES(D[l] = res[l]);
        } else {
            LANES(D[l] = all ? active : 0);
            if (i->n_dst > 1) {
                uint32_t *P = &w->p[i->d[1].idx];
                *P = all ? (*P | active) : (*P & ~active);
            }
        }
        return 0;
    }
    case PX_REDUX: {
        const uint64_t *A = row(w, &i->s[0]);
        bool sg = i->type == PT_S32;
        uint32_t acc = 0;
        int32_t sacc = 0;
        bool first = true;
        LANES(uint32_t v = (uint32_t)A[l];
              if (first) { acc = v; sacc = (int32_t)v; first = false; }
              else switch (i->mod) {
              case 0: acc += v; break;
              case 1: if (sg) sacc = sacc < (int32_t)v ? sacc : (int32_t)v; else acc = acc < v ? acc : v; break;
              case 2: if (sg) sacc = sacc > (int32_t)v ? sacc : (int32_t)v; else acc = acc > v ? acc : v; break;
              case 3: acc &= v; break;
              case 4: acc |= v; break;
              default: acc ^= v; break;
              });
        if (sg && (i->mod == 1 || i->mod == 2))
            acc = (uint32_t)sacc;
        uint64_t *D = w->r + (size_t)i->d[0].idx * 32;
        LANES(D[l] = acc);
        return 0;
    }
    default:
        return 0;
    }
}

static inline int step(struct ptx_warp *w, const struct ptx_env *env, struct ptx_step *out,
                       char *err, size_t errlen)
{
    if (!w->sp) {
        snprintf(err, errlen, "%s: step of a warp that has exited", w->m->filename);
        return -1;
    }
    struct simt_entry *top = &w->top;
    uint32_t pc = top->pc, mask = top->mask;
    const struct px_inst *i = &w->ins[pc];
    if (w->tx_at == w->sp && !mask) {
        /* every lane of the attempt aborted: it ends here, without a commit */
        out->lat_class = PTX_LAT_BRANCH;
        out->active = 0;
        out->n_thread_insts = 0;
        tx_end(w, out, 0, 0);
        return 0;
    }
    uint32_t active = mask;
    if (i->guard >= 0) {
        uint32_t g = w->p[i->guard];
        active &= (i->flags & PF_GNEG) ? ~g : g;
    }
    out->kind = PTX_STEP_ALU;
    out->lat_class = i->lat;
    out->active = active;
    out->n_thread_insts = active == 0xffffffffu ? 32 : popc32(active);
    uint64_t now = env->clock;
    uint32_t lat = env->lat ? env->lat[i->lat] : 1;
    top->pc = pc + 1;
    bool set_ready = true;
    switch (i->op) {
    case PX_NOP:
    case PX_BAR_WARP:
        break;
    case PX_SETP:
        exec_setp(w, i, active);
        break;
    case PX_HSETP:
        exec_hsetp(w, i, active);
        break;
    case PX_SET:
        if (active)
            exec_set(w, i, active);
        break;
    case PX_HADD:
    case PX_HSUB:
    case PX_HMUL:
    case PX_HFMA:
    case PX_HMIN:
    case PX_HMAX:
    case PX_HNEG:
    case PX_HABS:
    case PX_HEX2:
    case PX_HTANH:
    case PX_CVT_PACK:
        if (active)
            exec_half(w, i, active);
        break;
    case PX_PAND:
    case PX_POR:
    case PX_PXOR:
    case PX_PNOT:
    case PX_PMOV: {
        uint32_t a = pred_val(w, &i->s[0]);
        uint32_t b = i->n_src > 1 ? pred_val(w, &i->s[1]) : 0;
        uint32_t r = i->op == PX_PAND ? a & b : i->op == PX_POR ? a | b
                     : i->op == PX_PXOR ? a ^ b : i->op == PX_PNOT ? ~a : a;
        uint32_t *P = &w->p[i->d[0].idx];
        *P = (*P & ~active) | (r & active);
        break;
    }
    case PX_MOV_PRED_FROM: {
        uint32_t *P = &w->p[i->d[0].idx];
        *P = i->mod ? (*P | active) : (*P & ~active);
        break;
    }
    case PX_LD:
    case PX_ST:
    case PX_ATOM:
    case PX_RED:
        if (!active)
            break;
        set_ready = false;
        if (exec_mem(w, i, active, env, out, err, errlen))
            return -1;
        break;
    case PX_FENCE:
        if (!active)
            break;
        out->kind = PTX_STEP_MEM;
        out->mem.op = MEM_FENCE;
        out->mem.sem = i->sem;
        out->mem.scope = i->scope;
        out->mem.size = 0;
        out->mem.mask = active;
        out->mem.is_red = false;
        out->mem.atom_kind = out->mem.atom_type = 0;
        out->mem.tag = pc;
        out->mem.tx = false;
        break;
    case PX_BAR: {
        if (!active)
            break;
        if (w->tx_at) {
            snprintf(err, errlen, "%s:%u: barrier inside a transaction is not supported",
                     w->m->filename, i->line);
            return -1;
        }
        unsigned l0 = (unsigned)__builtin_ctz(active);
        uint32_t id = (uint32_t)row(w, &i->s[0])[l0];
        if (id > 15) {
            snprintf(err, errlen, "%s:%u: barrier number %u out of range", w->m->filename,
                     i->line, id);
            return -1;
        }
        out->kind = PTX_STEP_BARRIER;
        out->bar.id = id;
        out->bar.count = i->s[1].kind != OK_NONE ? (uint32_t)row(w, &i->s[1])[l0] : 0;
        out->bar.arrive_only = i->mod == 1;
        out->bar.n_threads = (uint32_t)__builtin_popcount(active);
        if (i->mod >= 2) {
            struct ptx_cta *c = w->c;
            uint32_t p = pred_val(w, &i->s[2]) & active;
            c->red[id].popc += (uint32_t)__builtin_popcount(p);
            c->red[id].all &= p == active;
            c->red[id].any |= p != 0;
            c->red[id].arrived++;
            w->bar_red = i;
            w->bar_red_mask = active;
        }
        if (i->mod != 1)
            w->at_barrier = true;
        break;
    }
    case PX_BRA: {
        uint32_t nt = mask & ~active;
        if (!nt)
            top->pc = i->target;
        else if (active && diverge(w, i->target, pc + 1, active, nt, i->rpc, err, errlen, i))
            return -1;
        break;
    }
    case PX_TXBEGIN:
        if (active != mask) {
            snprintf(err, errlen, "%s:%u: predicated transaction begin with a partial mask is "
                     "not supported", w->m->filename, i->line);
            return -1;
        }
        if (!active)
            break;
        if (w->tx_at) {
            snprintf(err, errlen, "%s:%u: nested transactions are not supported",
                     w->m->filename, i->line);
            return -1;
        }
        if (w->n_pending || w->sp + 2 > w->stk_cap) {
            snprintf(err, errlen, "%s:%u: transaction begin with %s", w->m->filename, i->line,
                     w->n_pending ? "loads outstanding" : "a full SIMT stack");
            return -1;
        }
        memcpy(w->tx_regs, w->regs, (size_t)w->n_rows * 32 * sizeof(uint64_t));
        memcpy(w->tx_preds, w->preds, (size_t)w->n_preds * sizeof(uint32_t));
        w->tx_begin_pc = pc;
        w->tx_n = 0;
        w->tx_aborted = 0;
        stk_push(w, (struct simt_entry){pc + 1, PX_RPC_EXIT, 0, 0, SE_RETRY});
        stk_push(w, (struct simt_entry){pc + 1, PX_RPC_EXIT, active, 0, SE_TX});
        w->tx_at = w->sp;
        out->kind = PTX_STEP_TX_BEGIN;
        break;
    case PX_TXCOMMIT:
        if (!active && !w->tx_at)
            break;
        if (!w->tx_at || w->tx_at != w->sp || active != mask) {
            snprintf(err, errlen, "%s:%u: %s", w->m->filename, i->line,
                     !w->tx_at ? "transaction commit outside a transaction"
                     : active != mask ? "predicated transaction commit with a partial mask is "
                                        "not supported"
                                      : "transaction commit reached by part of a diverged warp "
                                        "(branches inside a transaction must reconverge before "
                                        "its commit)");
            return -1;
        }
        if (w->n_pending) {
            snprintf(err, errlen, "%s:%u: transaction commit with loads outstanding",
                     w->m->filename, i->line);
            return -1;
        }
        tx_end(w, out, active, pc);
        break;
    case PX_PRINTF:
        if (active && exec_printf(w, i, active, env, err, errlen))
            return -1;
        break;
    case PX_CALL: {
        if (w->tx_at && active) {
            snprintf(err, errlen, "%s:%u: call inside a transaction is not supported",
                     w->m->filename, i->line);
            return -1;
        }
        if (active != mask) {
            snprintf(err, errlen, "%s:%u: predicated call with a partial mask is not supported",
                     w->m->filename, i->line);
            return -1;
        }
        if (w->n_pending) {
            snprintf(err, errlen, "%s:%u: call issued with loads outstanding",
                     w->m->filename, i->line);
            return -1;
        }
        if (!active)
            break;
        const struct px_call *cs = &w->m->calls[i->call];
        const struct px_func *callee = &w->m->funcs[i->target];
        struct call_frame *cur = &w->frames[w->nf - 1];
        if (w->nf >= w->frames_cap || w->sp + 1 > w->stk_cap) {
            snprintf(err, errlen, "%s:%u: call stack overflow", w->m->filename, i->line);
            return -1;
        }
        struct call_frame *nf = &w->frames[w->nf];
        nf->f = callee;
        nf->cs = cs;
        nf->marker = w->sp - 1;
        nf->row_base = cur->row_base + cur->f->n_rows;
        nf->pred_base = cur->pred_base + cur->f->n_preds;
        nf->local_base = cur->local_base + cur->f->frame_bytes;
        if (nf->local_base + callee->frame_bytes > w->local_stride ||
            nf->row_base + callee->n_rows > w->n_rows ||
            nf->pred_base + callee->n_preds > w->n_preds) {
            snprintf(err, errlen, "%s:%u: call frame overflow", w->m->filename, i->line);
            return -1;
        }
        for (unsigned k = 0; k < cs->n_args; k++) {
            const struct px_param *pp = &callee->params[k];
            uint32_t n = MIN(pp->size, cs->arg_size[k]);
            LANES(uint8_t *base = w->local + (size_t)l * w->local_stride;
                  memmove(base + nf->local_base + pp->off, base + cur->local_base + cs->arg_off[k], n));
        }
        w->nf++;
        top->call = w->nf - 1 + 1;
        stk_push(w, (struct simt_entry){callee->first, PX_RPC_EXIT, active, 0});
        w->r = w->regs + (size_t)nf->row_base * 32;
        w->p = w->preds + nf->pred_base;
        w->rr = w->ready + nf->row_base;
        w->rp = w->ready + w->n_rows + nf->pred_base;
        w->frame_base = nf->local_base;
        break;
    }
    case PX_RET: {
        if (w->tx_at && active) {
            snprintf(err, errlen, "%s:%u: %s inside a transaction is not supported",
                     w->m->filename, i->line, w->nf <= 1 ? "exit" : "ret");
            return -1;
        }
        if (w->nf <= 1) {
            /* ret in a kernel is decoded as exit; this is a defensive path */
            w->exited |= active;
            remove_lanes(w, active, 0);
            break;
        }
        if (w->n_pending) {
            snprintf(err, errlen, "%s:%u: ret issued with loads outstanding", w->m->filename,
                     i->line);
            return -1;
        }
        remove_lanes(w, active, w->frames[w->nf - 1].marker + 1);
        break;
    }
    case PX_EXIT:
        if (w->tx_at && active) {
            snprintf(err, errlen, "%s:%u: exit inside a transaction is not supported",
                     w->m->filename, i->line);
            return -1;
        }
        w->exited |= active;
        remove_lanes(w, active, 0);
        break;
    case PX_TRAP:
        if (!active)
            break;
        snprintf(err, errlen, "%s:%u: trap", w->m->filename, i->line);
        return -1;
    case PX_SHFL:
    case PX_VOTE:
    case PX_ACTIVEMASK:
    case PX_MATCH:
    case PX_REDUX:
        if (exec_warp_op(w, i, active))
            return -1;
        break;
    default:
        if (active && exec_alu(w, i, active, env, err, errlen))
            return -1;
        break;
    }
    if (set_ready && i->n_dst) {
        for (unsigned k = 0; k < i->n_dst; k++) {
            const struct px_opnd *d = &i->d[k];
            if (d->kind == OK_REG)
                w->rr[d->idx] = now + lat;
            else if (d->kind == OK_PRED)
                w->rp[d->idx] = now + lat;
        }
        if (now + lat > w->ready_max)
            w->ready_max = now + lat;
    }
    settle(w);
    if (!w->sp)
        out->kind = out->kind == PTX_STEP_ALU ? PTX_STEP_EXIT : out->kind;
    return 0;
}

/* A run-time fault's message names the PTX line ("prog.ptx:120: ..."); with
 * -lineinfo the CUDA source line of that instruction follows it, as in
 * ptx_warp_where. */
int ptx_warp_step(struct ptx_warp *w, const struct ptx_env *env, struct ptx_step *out, char *err,
                  size_t errlen)
{
    uint32_t pc = w->sp ? w->top.pc : UINT32_MAX;
    if (__builtin_expect(!step(w, env, out, err, errlen), 1))
        return 0;
    const struct px_loc *l = w->m->locs && pc != UINT32_MAX ? &w->m->locs[pc] : NULL;
    if (l && l->line && l->file < w->m->n_src_files && w->m->src_files[l->file]) {
        size_t n = strlen(err);
        if (n < errlen)
            snprintf(err + n, errlen - n, " (at %s:%u)", w->m->src_files[l->file], l->line);
    }
    return -1;
}
