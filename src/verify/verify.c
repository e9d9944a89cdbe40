/*
 * verify.c - the explorer of `gpucoh verify` (see verify.h, docs/verify.md).
 *
 * Three parts: the rig (a fresh set of the protocol's real controllers and
 * any central unit, wired to ports the explorer owns, and the events that
 * drive it: core operations, deliveries and, under TC's leases, RCC's
 * livelock guard and STC's EMU period, ticks of time), the
 * checker's reference state and properties, and the breadth-first search
 * with its visited set (times relative to now), counterexamples and replay.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "verify/verify.h"
#include "verify/verify_spandex.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/hash.h"
#include "base/log.h"
#include "coh/ctrl.h"
#include "coh/mg/mg.h"
#include "coh/proto.h"
#include "coh/rcc/rcc.h"
#include "coh/stc/stc.h"
#include "coh/tc/tc.h"
#include "coh/vi/vi_bank.h"
#include "mem/backing.h"
#include "mem/observe.h"
#include "mem/pagemap.h"
#include "verify/verify_mg.h"

#define V_MAX_L1    4
#define V_MAX_LINES 2
#define V_MAX_VALUE 7 /* values 0..7: a reference mask fits a byte */
#define V_MAX_SLOTS 4 /* operations in flight per core */
/* the L1s' links, DRAM, a central unit's links or, on several GPMs, the other
 * banks' DRAM and the links between banks */
#define V_MAX_CH                                                                                   \
    (2 * V_MAX_L1 * VNET_MAX + 1 + 2 * V_MAX_L1 + V_MAX_L1 + V_MAX_L1 * V_MAX_L1 * VNET_MAX)
#define LINE_BASE 0x20000000ull
#define PORT_CAP  (1u << 16) /* never full: the explorer decides the order, not room */

/* EV_TICK: time advances one tick (protocols with leases only) */
enum ev_kind { EV_OP, EV_DELIVER, EV_TICK };
/* ld.acquire.gpu and st.release.gpu come with --sync */
enum op_kind { OPK_LOAD, OPK_STORE, OPK_ATOMIC, OPK_FENCE, OPK_LOAD_ACQ, OPK_STORE_REL, OPK_N };
static const char *const op_names[OPK_N] = {"load",  "store",        "atomic",
                                            "fence", "load.acquire", "store.release"};

/* One nondeterministic step: a core operation or a channel's head delivered. */
struct vev {
    uint8_t kind;                  /* enum ev_kind */
    uint8_t core, op, line, value; /* EV_OP */
    uint16_t ch;                   /* EV_DELIVER */
    uint8_t scope;                 /* EV_OP under --scopes: enum mem_scope + 1 (0: the
                                      operation's default scope) */
};
static const char *const scope_names[] = {"", "cta", "gpu", "sys"};

/* ---- how the explorer reads a protocol beyond struct ctrl ---- */

/* What a stored word is, for the canonical digest. Times (core cycles) are
 * written relative to now: a time not yet passed as its offset from now, a
 * passed one either as "expired" (TK_CLAMP: the protocol only ever compares it
 * with now, or takes its maximum with a running one) or by its rank among the
 * passed times of the state (TK_ORDER, TK_STAMP: two passed times may still be
 * compared, e.g. a merged load's arrival with its fill's lease end). A TK_STAMP
 * is the moment something happened (never a deadline: it does not make time
 * worth advancing); TK_SKIP is a statistic or a word nobody reads; TK_BY_TYPE:
 * a message's time words, by what its type carries (tc_msg_times). docs/verify.md,
 * "Time". */
enum tkind {
    TK_RAW,
    TK_SKIP,
    TK_CLAMP,
    TK_ORDER,
    TK_STAMP,
    TK_BY_TYPE,
    /* RCC's logical time (docs/verify.md, "Logical time"): every logical time
     * of the state is written as its offset from the smallest one. An L1's
     * clock (TK_LCLOCK), a stored time (TK_LTIME; TK_LTIME0: 0 means "none"),
     * a time of the checker's reference (TK_LREF). */
    TK_LCLOCK,
    TK_LTIME,
    TK_LTIME0,
    TK_LREF,
};

/* Which values a load may return (docs/verify.md, "Properties"). */
enum value_rule {
    RULE_WRITE_ATOMIC, /* the line's value at issue or a later one in coherence order */
    RULE_READER_FENCE, /* any value since the core's last fence (rc: acquires invalidate) */
    RULE_WRITER_FENCE, /* tcw: once a core's fence completes, its earlier writes are the
                          oldest values any core's later load may return */
    RULE_LOGICAL,      /* rcc: a load returns the line's value at a logical time between
                          its core's clock at issue and at the answer */
    RULE_SCOPED,       /* multi-GPM: PTX's scoped release/acquire (docs/verify.md, "Several
                          GPMs") */
};

struct profile {
    bool timed;           /* leases: time advances only by EV_TICK */
    bool logical;         /* rcc: logical time; EV_TICK is the livelock guard's tick */
    bool unit;            /* stc: a central unit (the EMU); EV_TICK is its wake-up period */
    bool lease_exclusive; /* tcs: a write is performed only when no L1 holds a lease on its line */
    enum value_rule rule;
    uint8_t l1_line[3], l2_line[3]; /* enum tkind of each cache line meta word */
    uint8_t l1_tbe[2], l2_tbe[2];   /* ... and of each TBE meta word */
};

/* Temporal Coherence: L1 meta[0] the local timestamp, meta[1] the VM writer;
 * L2 meta[0] the global timestamp (a read takes its maximum with the requested
 * lease end, which may both have passed), meta[1] the owner bit, meta[2] the
 * latest write's GWCT; MSHR meta[0] the kept timestamp, meta[1] when an S_W
 * write began to wait (a statistic). */
static struct profile profile_of(const struct proto_desc *p)
{
    struct profile f = {.rule = p->write_atomic ? RULE_WRITE_ATOMIC : RULE_READER_FENCE};
    if (!strncmp(p->name, "tcs", 3) || !strncmp(p->name, "tcw", 3)) {
        f = (struct profile){.timed = true,
                             .lease_exclusive = p->name[2] == 's',
                             .rule = p->name[2] == 's' ? RULE_WRITE_ATOMIC : RULE_WRITER_FENCE,
                             .l1_line = {TK_CLAMP, TK_RAW, TK_RAW},
                             .l2_line = {TK_ORDER, TK_RAW, TK_CLAMP},
                             .l2_tbe = {TK_CLAMP, TK_SKIP}};
    }
    /* RCC: L1 meta[0] the copy's lease end; L2 meta[0] ver, meta[1] exp (in V) */
    if (!strncmp(p->name, "rcc", 3))
        f = (struct profile){.timed = true,
                             .logical = true,
                             .rule = RULE_LOGICAL,
                             .l1_line = {TK_LTIME, TK_RAW, TK_RAW},
                             .l2_line = {TK_LTIME, TK_LTIME, TK_RAW}};
    if (p->unit.create) /* STC: write-atomic; time moves only for the EMU's period */
        f = (struct profile){.timed = true, .unit = true, .rule = RULE_WRITE_ATOMIC};
    if (vspx_is(p)) /* Spandex: a device L1's TBE meta[1] points to its held store */
        f.l1_tbe[1] = TK_SKIP;
    if (p->multi_gpm)
        f.rule = RULE_SCOPED;
    return f;
}

/* A state serialised for its digest; with times, in two passes (see put_time). */
struct ser {
    uint8_t *b;
    size_t n, cap;
    uint64_t now;   /* core cycle the times are relative to */
    bool collect;   /* first pass: gather the passed times and the next deadline */
    uint64_t *past; /* the passed ranked times (sorted, distinct after the pass) */
    size_t n_past, cap_past;
    uint64_t next_deadline; /* the earliest time not yet passed (UINT64_MAX: none) */
    /* logical time (first pass): the smallest time, the largest stored time that
     * is not a clock, the smallest clock (UINT64_MAX / 0: none) */
    uint64_t base, max_other, min_clock;
    bool any_other;
};

/* ---- the checker's reference state (part of every state's digest) ---- */

struct env {
    uint8_t issued[V_MAX_L1]; /* operations each core has issued */
    /* the operations in flight, by slot (the request id; a new one takes the lowest free) */
    uint8_t busy[V_MAX_L1][V_MAX_SLOTS];    /* op + 1, 0 none */
    uint8_t line[V_MAX_L1][V_MAX_SLOTS];    /* ... its line */
    uint8_t allowed[V_MAX_L1][V_MAX_SLOTS]; /* ... the values a load or atomic may return */
    uint8_t floor[V_MAX_L1][V_MAX_LINES];   /* values a load may return since the core's last
                                               fence (protocols that are not write-atomic) */
    uint32_t gold[V_MAX_LINES];             /* the line's value in coherence order (word 0) */
    /* RULE_WRITER_FENCE */
    uint8_t val[V_MAX_L1][V_MAX_SLOTS]; /* a store in flight: its value's bit */
    uint8_t vis[V_MAX_L1][V_MAX_LINES]; /* values the line took since the core's last
                                           write to it was issued */
    uint8_t wrote[V_MAX_L1];            /* lines (bit k) whose last write by the core is done */
    uint8_t fence_lines[V_MAX_L1][V_MAX_SLOTS]; /* a fence in flight: the lines it publishes */
    /* RULE_SCOPED */
    uint8_t scope[V_MAX_L1][V_MAX_SLOTS];  /* the operation's enum mem_scope */
    uint8_t rel[V_MAX_L1][2][V_MAX_LINES]; /* values the line took since the core's last
                                              write to it that a release of scope .gpu
                                              ([0]) or .sys ([1]) has completed for */
};

/* RCC's reference (RULE_LOGICAL): each line's writes in coherence order
 * with the logical time (version) each was performed at, from the oldest one
 * a load may still read; each operation's clock at issue; each core's
 * largest completed write version (for its fences). Times as TK_LREF. */
#define V_MAX_HIST 32
struct lenv {
    uint8_t n_hist[V_MAX_LINES];
    uint8_t hist_init[V_MAX_LINES][V_MAX_HIST]; /* the initial value: before every time */
    uint8_t hist_val[V_MAX_LINES][V_MAX_HIST];
    uint64_t hist_ver[V_MAX_LINES][V_MAX_HIST];
    uint64_t t_issue[V_MAX_L1][V_MAX_SLOTS]; /* loads: the read view; writes: the write view */
    bool has_w[V_MAX_L1];
    uint64_t wmax[V_MAX_L1];                 /* the largest version of its completed writes */
    bool fence_has_w[V_MAX_L1][V_MAX_SLOTS]; /* a fence in flight: wmax at its issue */
    uint64_t fence_w[V_MAX_L1][V_MAX_SLOTS];
    uint8_t ticks; /* the livelock guard's ticks so far (at most --ticks) */
};

struct rig {
    struct comp comp; /* the network, DRAM and cores: receives every output */
    struct eng eng;
    struct clock clk;
    struct pool msgs;
    struct backing *store; /* DRAM (the search's, reset for each rig) */
    struct observer *obs;  /* golden memory: the coherence order of each line (ditto) */
    const struct config *cfg;
    const struct proto_desc *p;
    const struct verify_opts *o;
    struct profile prof;
    tick_t core_ps;   /* one core cycle: TC's unit of time */
    unsigned v_state; /* lease_exclusive: the L1 table's state of a valid leased copy */
    struct ser *scan; /* for finding the next deadline (the memories') */
    unsigned n_l1, n_vnets, line_bytes;
    struct comp *l1[V_MAX_L1], *l2; /* l2: bank 0 (l2s[0]) */
    /* each L1's controller and table (Spandex: the device mix, verify_spandex.h),
     * and whether its loads are judged write-atomic */
    const struct ctrl_ops *l1_ops[V_MAX_L1];
    unsigned l1_table[V_MAX_L1];
    bool l1_write_atomic[V_MAX_L1];
    bool spandex; /* the LLC and device L1s of verify_spandex.h */
    /* Several GPMs (multi-GPM protocols): one L1 and one bank per GPM, bank b
     * the home or a remote cache per line, its links to the other banks explorer
     * channels (docs/verify.md, "Several GPMs"); otherwise one bank */
    bool mg;
    unsigned n_l2;
    struct comp *l2s[V_MAX_L1];
    struct port sys_out[V_MAX_L1][VNET_MAX], sys_in[V_MAX_L1][VNET_MAX];
    struct pagemap pages;
    struct coh_cov *cov; /* one per table */
    unsigned n_tables;
    struct port to_core[V_MAX_L1];
    struct port up[V_MAX_L1][VNET_MAX];                                /* L1 -> network */
    struct port down[V_MAX_L1][VNET_MAX];                              /* network -> L1 */
    struct port l2_out[V_MAX_L1][VNET_MAX], l2_in[V_MAX_L1][VNET_MAX]; /* per bank */
    struct port to_mem[V_MAX_L1];
    struct comp *unit;                                   /* STC's EMU (NULL: no central unit) */
    struct port unit_up[V_MAX_L1], unit_in[V_MAX_L1];    /* L1 -> explorer -> unit */
    struct port unit_out[V_MAX_L1], unit_down[V_MAX_L1]; /* unit -> explorer -> L1 */
    unsigned n_ch;                                       /* channels in use */
    struct msg_list ch[V_MAX_CH]; /* in flight: a FIFO per source, destination, vnet */
    struct msg_list rsp;          /* core responses of the step */
    struct atom_ops atom[V_MAX_L1][V_MAX_SLOTS];
    struct env env;
    struct lenv lenv;
    unsigned l1_valid[2]; /* rcc: the L1 table's states of a readable copy (V, VI) */
    unsigned l2_valid;    /* rcc: the L2 table's state whose ver and exp are set (V) */
    char names[V_MAX_L1][32];
    char fault[512]; /* the violated property ("" none) */
};

static inline unsigned ch_up(const struct rig *r, unsigned l1, unsigned v)
{
    return l1 * r->n_vnets + v;
}
static inline unsigned ch_down(const struct rig *r, unsigned l1, unsigned v)
{
    return (r->n_l1 + l1) * r->n_vnets + v;
}
static inline unsigned ch_dram(const struct rig *r)
{
    return 2 * r->n_l1 * r->n_vnets;
}
static inline addr_t line_addr(const struct rig *r, unsigned line)
{
    return LINE_BASE + (addr_t)line * r->line_bytes;
}

/* Several GPMs: bank b's DRAM (bank 0's is ch_dram) and the link from bank s
 * to bank d on vnet v, after DRAM (the multi-GPM protocols have no unit). */
static inline unsigned ch_dram_of(const struct rig *r, unsigned b)
{
    return b ? ch_dram(r) + b : ch_dram(r);
}
static inline unsigned ch_sys(const struct rig *r, unsigned s, unsigned d, unsigned v)
{
    return ch_dram(r) + r->n_l2 + (s * r->n_l2 + d) * r->n_vnets + v;
}
/* The bank L1 i talks to: its GPM's. */
static inline unsigned bank_of(const struct rig *r, unsigned l1)
{
    return r->mg ? l1 : 0;
}

/* A central unit's links, each a FIFO: L1 i to the unit, the unit to L1 i. */
static inline unsigned ch_unit_up(const struct rig *r, unsigned l1)
{
    return ch_dram(r) + 1 + l1;
}
static inline unsigned ch_unit_down(const struct rig *r, unsigned l1)
{
    return ch_dram(r) + 1 + r->n_l1 + l1;
}

/* The channel's ends and vnet, for printing and for counterexample files. */
static void ch_describe(const struct rig *r, unsigned ch, char *src, char *dst, unsigned *vnet)
{
    if (r->mg) {
        if (ch >= ch_sys(r, 0, 0, 0)) {
            unsigned i = ch - ch_sys(r, 0, 0, 0);
            *vnet = i % r->n_vnets;
            sprintf(src, "l2[%u]", i / r->n_vnets / r->n_l2);
            sprintf(dst, "l2[%u]", i / r->n_vnets % r->n_l2);
        } else if (ch >= ch_dram(r)) {
            sprintf(src, "dram[%u]", ch - ch_dram(r));
            sprintf(dst, "l2[%u]", ch - ch_dram(r));
            *vnet = 0;
        } else if (ch < r->n_l1 * r->n_vnets) {
            sprintf(src, "l1[%u]", ch / r->n_vnets);
            sprintf(dst, "l2[%u]", bank_of(r, ch / r->n_vnets));
            *vnet = ch % r->n_vnets;
        } else {
            sprintf(src, "l2[%u]", bank_of(r, ch / r->n_vnets - r->n_l1));
            sprintf(dst, "l1[%u]", ch / r->n_vnets - r->n_l1);
            *vnet = ch % r->n_vnets;
        }
        return;
    }
    if (ch > ch_dram(r)) {
        unsigned i = ch - ch_dram(r) - 1;
        bool up = i < r->n_l1;
        sprintf(up ? src : dst, "l1[%u]", up ? i : i - r->n_l1);
        strcpy(up ? dst : src, "emu");
        *vnet = 0;
    } else if (ch == ch_dram(r)) {
        strcpy(src, "dram");
        strcpy(dst, "l2");
        *vnet = 0;
    } else if (ch < r->n_l1 * r->n_vnets) {
        sprintf(src, "l1[%u]", ch / r->n_vnets);
        strcpy(dst, "l2");
        *vnet = ch % r->n_vnets;
    } else {
        strcpy(src, "l2");
        sprintf(dst, "l1[%u]", ch / r->n_vnets - r->n_l1);
        *vnet = ch % r->n_vnets;
    }
}

static void fail(struct rig *r, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void fail(struct rig *r, const char *fmt, ...)
{
    if (r->fault[0])
        return; /* the first violation of a step is the one reported */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->fault, sizeof r->fault, fmt, ap);
    va_end(ap);
}

/* DRAM answers at once; its answers reach the bank in order (channel dram). */
static void dram_serve(struct rig *r, unsigned b, struct msg *m)
{
    if (m->type == MSG_DRAM_READ) {
        backing_read(r->store, m->addr, m->data, r->line_bytes);
        memset(&m->mask, 0, sizeof m->mask);
        bytemask_set_range(&m->mask, 0, r->line_bytes);
        m->type = MSG_DRAM_DATA;
        m->size_bytes = (uint16_t)r->line_bytes;
    } else {
        backing_write_masked(r->store, m->addr, m->data, m->mask.w, r->line_bytes);
        m->type = MSG_DRAM_WRACK;
        m->size_bytes = 0;
    }
    msg_list_push(&r->ch[ch_dram_of(r, b)], m);
}

/* Everything the controllers sent moves into the explorer's channels. */
static bool rig_tick(struct comp *cp)
{
    struct rig *r = (struct rig *)cp;
    struct msg *m;
    for (unsigned i = 0; i < r->n_l1; i++)
        for (unsigned v = 0; v < r->n_vnets; v++)
            while ((m = port_peek(&r->up[i][v]))) {
                port_pop(&r->up[i][v]);
                msg_list_push(&r->ch[ch_up(r, i, v)], m);
            }
    unsigned per_bank = r->mg ? 1 : r->n_l1; /* the L1s a bank's crossbar reaches */
    for (unsigned b = 0; b < r->n_l2; b++) {
        for (unsigned v = 0; v < r->n_vnets; v++) {
            while ((m = port_peek(&r->l2_out[b][v]))) {
                port_pop(&r->l2_out[b][v]);
                if (m->dst >= per_bank) {
                    fail(r, "the L2 sent message type %u to endpoint %u, not an L1", m->type,
                         m->dst);
                    msg_free(&r->msgs, m);
                    continue;
                }
                msg_list_push(&r->ch[ch_down(r, b * (r->mg ? 1 : 0) + m->dst, v)], m);
            }
            while (r->mg && (m = port_peek(&r->sys_out[b][v]))) {
                port_pop(&r->sys_out[b][v]);
                if (m->dst >= r->n_l2) {
                    fail(r, "bank %u sent message type %u to endpoint %u, not a bank", b, m->type,
                         m->dst);
                    msg_free(&r->msgs, m);
                    continue;
                }
                msg_list_push(&r->ch[ch_sys(r, b, m->dst, v)], m);
            }
        }
        while ((m = port_peek(&r->to_mem[b]))) {
            port_pop(&r->to_mem[b]);
            dram_serve(r, b, m);
        }
    }
    for (unsigned i = 0; r->unit && i < r->n_l1; i++) {
        while ((m = port_peek(&r->unit_up[i]))) {
            port_pop(&r->unit_up[i]);
            msg_list_push(&r->ch[ch_unit_up(r, i)], m);
        }
        while ((m = port_peek(&r->unit_out[i]))) {
            port_pop(&r->unit_out[i]);
            msg_list_push(&r->ch[ch_unit_down(r, i)], m);
        }
    }
    for (unsigned i = 0; i < r->n_l1; i++)
        while ((m = port_peek(&r->to_core[i]))) {
            port_pop(&r->to_core[i]);
            if (r->mg)
                m->req.sm = (uint16_t)i; /* each GPM's SM 0: the core is the L1's */
            msg_list_push(&r->rsp, m);
        }
    return false;
}

static void follow_gold(void *arg, addr_t line);
static void advance_to(struct rig *r, uint64_t cycle);
static void settle(struct rig *r);
static void check_no_lease(struct rig *r, unsigned k);
static void rcc_follow(struct rig *r, unsigned k);

/* The memories a rig uses, kept across rigs: a backing store's set-up costs
 * more than the controllers' (a 4096-slot table), so each rig resets them. */
struct memories {
    struct backing store;
    struct observer obs;
    struct ser scan;
};

static void memories_init(struct memories *mem, uint32_t line_bytes)
{
    backing_init(&mem->store);
    obs_init(&mem->obs, line_bytes);
    mem->scan = (struct ser){0};
}

static void memories_destroy(struct memories *mem)
{
    free(mem->scan.b);
    free(mem->scan.past);
    obs_destroy(&mem->obs);
    backing_destroy(&mem->store);
}

/* Every line the cores use back to zero in DRAM and the golden memory (only
 * those lines are ever written), the observer's counters cleared. */
static void memories_reset(struct memories *mem, const struct verify_opts *o, uint32_t line_bytes)
{
    static const uint8_t zeros[LINE_MAX_BYTES];
    for (unsigned k = 0; k < o->lines; k++) {
        addr_t a = LINE_BASE + (addr_t)k * line_bytes;
        backing_write(&mem->store, a, zeros, line_bytes);
        backing_write(&mem->obs.golden, a, zeros, line_bytes);
    }
    mem->obs.writes = mem->obs.checks = 0;
}

static struct rig *rig_new(const struct config *cfg, const struct proto_desc *p,
                           const struct verify_opts *o, struct coh_cov *cov, struct memories *mem)
{
    struct rig *r = calloc(1, sizeof *r);
    if (!r)
        panic("out of memory");
    r->cfg = cfg;
    r->p = p;
    r->o = o;
    r->n_l1 = o->l1s;
    r->n_vnets = p->n_vnets;
    r->line_bytes = cfg->l1.cache.line_bytes;
    r->cov = cov;
    r->prof = profile_of(p);
    r->spandex = vspx_is(p);
    r->mg = p->multi_gpm;
    r->n_l2 = r->mg ? r->n_l1 : 1;
    r->scan = &mem->scan;
    eng_init(&r->eng);
    r->eng.watchdog_ps = 0;
    r->core_ps = clock_period_ps(cfg->gpu.core_mhz);
    /* With leases, the controllers' reaction to an event takes no core time:
     * their clock runs at one cycle per ps, the core cycle (the leases' unit)
     * lasts VERIFY_TICK_CYCLES... far longer (gpu.core_mhz = 1 on the rig), and
     * only EV_TICK moves it (docs/verify.md, "Time"). */
    r->clk = (struct clock){"core", r->prof.timed ? 1 : r->core_ps};
    msg_pool_init(&r->msgs);
    memories_reset(mem, o, r->line_bytes);
    r->store = &mem->store;
    r->obs = &mem->obs;
    r->obs->on_golden = follow_gold;
    r->obs->on_golden_arg = r;
    for (unsigned c = 0; c < r->n_l1; c++) /* memory starts zeroed: value 0 everywhere */
        for (unsigned k = 0; k < V_MAX_LINES; k++) {
            r->env.floor[c][k] = 1;
            if (r->prof.rule == RULE_SCOPED) /* nothing released yet: no constraint */
                r->env.rel[c][0][k] = r->env.rel[c][1][k] = 0xff;
        }
    comp_init(&r->comp, &r->eng, "verify", &r->clk, rig_tick, NULL);
    struct ctrl_wiring w = {.eng = &r->eng,
                            .clk = &r->clk,
                            .msgs = &r->msgs,
                            .cfg = cfg,
                            .n_sms = r->n_l1,
                            .n_banks = 1,
                            .store = r->store,
                            .obs = r->obs};
    if (r->mg) { /* one SM and one bank per GPM; the first toucher of the page is its home */
        pagemap_init(&r->pages, cfg->topology.page_bytes);
        w.pages = &r->pages;
        w.n_sms = 1;
    }
    tick_t hop = r->clk.period_ps;
    for (unsigned i = 0; i < r->n_l1; i++) {
        snprintf(r->names[i], sizeof r->names[i], "l1[%u]", i);
        w.name = r->names[i];
        w.index = r->mg ? 0 : i;
        w.gpm = r->mg ? i : 0;
        r->l1_ops[i] = vspx_l1_ops(p, cfg, i, &r->l1_table[i]);
        r->l1_write_atomic[i] = r->spandex ? vspx_write_atomic(p, r->l1_table[i]) : p->write_atomic;
        w.cov = cov + r->l1_table[i];
        r->l1[i] = r->l1_ops[i]->create(&w);
    }
    static const char *const bank_names[V_MAX_L1] = {"l2[0]", "l2[1]", "l2[2]", "l2[3]"};
    for (unsigned b = 0; b < r->n_l2; b++) {
        w.name = r->mg ? bank_names[b] : "l2";
        w.index = 0;
        w.gpm = b;
        w.cov = cov + p->n_l1_tables;
        r->l2s[b] = p->l2.create(&w);
    }
    r->l2 = r->l2s[0];
    r->n_ch = r->mg ? ch_sys(r, r->n_l2 - 1, r->n_l2 - 1, r->n_vnets - 1) + 1 : ch_dram(r) + 1;
    if (p->unit.create) { /* STC's EMU: its links to the L1s are explorer channels too */
        w.name = "emu";
        w.index = 0;
        w.cov = cov;
        r->unit = p->unit.create(&w);
        struct port *to[V_MAX_L1], *from[V_MAX_L1];
        for (unsigned i = 0; i < r->n_l1; i++) {
            port_init(&r->unit_up[i], "unit_up", PORT_CAP, hop, r->l1[i], &r->comp);
            port_init(&r->unit_in[i], "unit_in", PORT_CAP, hop, &r->comp, r->unit);
            port_init(&r->unit_out[i], "unit_out", PORT_CAP, hop, r->unit, &r->comp);
            port_init(&r->unit_down[i], "unit_down", PORT_CAP, hop, &r->comp, r->l1[i]);
            to[i] = &r->unit_out[i];
            from[i] = &r->unit_in[i];
        }
        p->unit.connect(r->unit, to, from);
        r->n_ch += 2 * r->n_l1;
    }
    for (unsigned i = 0; i < r->n_l1; i++) {
        struct ctrl_links l = {0};
        if (r->unit) {
            l.to_unit = &r->unit_up[i];
            l.from_unit = &r->unit_down[i];
        }
        port_init(&r->to_core[i], "to_core", PORT_CAP, hop, r->l1[i], &r->comp);
        l.to_core = &r->to_core[i];
        for (unsigned v = 0; v < r->n_vnets; v++) {
            port_init(&r->up[i][v], "up", PORT_CAP, hop, r->l1[i], &r->comp);
            port_init(&r->down[i][v], "down", PORT_CAP, hop, &r->comp, r->l1[i]);
            l.net_out[v] = &r->up[i][v];
            l.net_in[v] = &r->down[i][v];
        }
        r->l1_ops[i]->connect(r->l1[i], &l);
        r->l1_ops[i]->in_port(r->l1[i])->sender = &r->comp;
    }
    for (unsigned b = 0; b < r->n_l2; b++) {
        struct ctrl_links l = {0};
        struct comp *bank = r->l2s[b];
        for (unsigned v = 0; v < r->n_vnets; v++) {
            port_init(&r->l2_out[b][v], "l2_out", PORT_CAP, hop, bank, &r->comp);
            port_init(&r->l2_in[b][v], "l2_in", PORT_CAP, hop, &r->comp, bank);
            l.net_out[v] = &r->l2_out[b][v];
            l.net_in[v] = &r->l2_in[b][v];
            if (r->mg) {
                port_init(&r->sys_out[b][v], "sys_out", PORT_CAP, hop, bank, &r->comp);
                port_init(&r->sys_in[b][v], "sys_in", PORT_CAP, hop, &r->comp, bank);
                l.sys_out[v] = &r->sys_out[b][v];
                l.sys_in[v] = &r->sys_in[b][v];
            }
        }
        port_init(&r->to_mem[b], "to_mem", PORT_CAP, hop, bank, &r->comp);
        l.to_mem = &r->to_mem[b];
        p->l2.connect(bank, &l);
        p->l2.in_port(bank)->sender = &r->comp;
    }
    if (r->prof.lease_exclusive)
        for (unsigned st = 0; st < p->tables[0]->n_states; st++)
            if (!strcmp(p->tables[0]->state_names[st], "V"))
                r->v_state = st;
    if (r->prof.logical) {
        for (unsigned st = 0; st < p->tables[0]->n_states; st++) {
            if (!strcmp(p->tables[0]->state_names[st], "V"))
                r->l1_valid[0] = st;
            if (!strcmp(p->tables[0]->state_names[st], "VI"))
                r->l1_valid[1] = st;
        }
        const struct coh_table *t2 = p->tables[p->n_l1_tables];
        for (unsigned st = 0; st < t2->n_states; st++)
            if (!strcmp(t2->state_names[st], "V"))
                r->l2_valid = st;
        for (unsigned k = 0; k < V_MAX_LINES; k++) { /* memory starts zeroed */
            r->lenv.n_hist[k] = 1;
            r->lenv.hist_init[k][0] = 1;
        }
    } else if (r->prof.unit) { /* every core runs a kernel (STC-NV's EMU cycles while one does) */
        for (unsigned c = 0; c < r->n_l1; c++) {
            struct msg *m = msg_new(&r->msgs, MSG_CORE_REQ, 0, r->eng.now);
            m->req = (struct mem_req){.sm = (uint16_t)c, .op = MEM_KERNEL_BEGIN};
            if (!port_send(r->l1_ops[c]->in_port(r->l1[c]), m))
                panic("verify: an L1's core port is full");
        }
        settle(r);
    } else if (r->prof.timed) { /* time 0 precedes the start: every "none" timestamp has passed */
        advance_to(r, VERIFY_TICK_CYCLES);
    }
    return r;
}

static void rig_free(struct rig *r)
{
    if (r->unit) {
        r->p->unit.destroy(r->unit);
        for (unsigned i = 0; i < r->n_l1; i++) {
            port_destroy(&r->unit_up[i]);
            port_destroy(&r->unit_in[i]);
            port_destroy(&r->unit_out[i]);
            port_destroy(&r->unit_down[i]);
        }
    }
    for (unsigned i = 0; i < r->n_l1; i++)
        r->l1_ops[i]->destroy(r->l1[i]);
    for (unsigned b = 0; b < r->n_l2; b++)
        r->p->l2.destroy(r->l2s[b]);
    for (unsigned i = 0; i < r->n_l1; i++) {
        port_destroy(&r->to_core[i]);
        for (unsigned v = 0; v < r->n_vnets; v++) {
            port_destroy(&r->up[i][v]);
            port_destroy(&r->down[i][v]);
        }
    }
    for (unsigned b = 0; b < r->n_l2; b++) {
        for (unsigned v = 0; v < r->n_vnets; v++) {
            port_destroy(&r->l2_out[b][v]);
            port_destroy(&r->l2_in[b][v]);
            if (r->mg) {
                port_destroy(&r->sys_out[b][v]);
                port_destroy(&r->sys_in[b][v]);
            }
        }
        port_destroy(&r->to_mem[b]);
    }
    if (r->mg)
        pagemap_destroy(&r->pages);
    /* messages still held by ports or controllers go with the pool */
    pool_destroy(&r->msgs);
    eng_destroy(&r->eng);
    free(r);
}

/* ---- the reference state and the properties ---- */

static uint32_t word_of(const uint8_t *line)
{
    uint32_t w;
    memcpy(&w, line, 4);
    return w;
}

static uint8_t value_bit(struct rig *r, uint32_t v, const char *what)
{
    if (v > V_MAX_VALUE) {
        fail(r, "%s holds %u, a value no core wrote", what, v);
        return 0;
    }
    return (uint8_t)(1u << v);
}

static void mask_text(uint8_t m, char *out)
{
    char *o = out;
    *o++ = '{';
    for (unsigned v = 0; v <= V_MAX_VALUE; v++)
        if (m >> v & 1)
            o += sprintf(o, "%s%u", o[-1] == '{' ? "" : ",", v);
    strcpy(o, "}");
}

/* A golden update (observer hook): the line's next value in coherence order
 * is one a load in flight on it, and a core's next load after its fence, may
 * return. Followed write by write, so two writes performed in one step both count. */
static void follow_gold(void *arg, addr_t line)
{
    struct rig *r = arg;
    struct env *e = &r->env;
    for (unsigned k = 0; k < r->o->lines; k++) {
        if (line_addr(r, k) != line)
            continue;
        const uint8_t *g = backing_peek(&r->obs->golden, line);
        e->gold[k] = g ? word_of(g) : 0;
        uint8_t bit = value_bit(r, e->gold[k], "the golden memory");
        for (unsigned c = 0; c < r->n_l1; c++) {
            if (!r->prof.logical) /* (rcc judges loads by logical time) */
                e->floor[c][k] |= bit;
            if (r->prof.rule == RULE_WRITER_FENCE || r->prof.rule == RULE_SCOPED)
                e->vis[c][k] |= bit;
            if (r->prof.rule == RULE_SCOPED)
                e->rel[c][0][k] |= bit, e->rel[c][1][k] |= bit;
            for (unsigned q = 0; q < V_MAX_SLOTS; q++)
                if (e->busy[c][q] && e->line[c][q] == k &&
                    (!r->prof.logical || e->busy[c][q] == OPK_ATOMIC + 1))
                    e->allowed[c][q] |= bit;
        }
        if (r->prof.lease_exclusive)
            check_no_lease(r, k);
        if (r->prof.logical)
            rcc_follow(r, k);
    }
}

/* TC-Strong: a write is performed (the golden memory moves) only once every
 * lease on its line has expired, so no L1 may hold a valid copy then; asked
 * of the L1 controller itself (its peek sees an expired lease as I). */
static void check_no_lease(struct rig *r, unsigned k)
{
    uint8_t buf[LINE_MAX_BYTES];
    for (unsigned c = 0; c < r->n_l1; c++) {
        bool has = false;
        if (r->l1_ops[c]->peek(r->l1[c], line_addr(r, k), buf, &has) == r->v_state)
            fail(r,
                 "lease: a write to line %u was performed at the L2 while l1[%u] holds a "
                 "valid copy (value %u): TC-Strong performs a write only after every lease "
                 "on its line has expired",
                 k, c, word_of(buf));
    }
}

/* ---- RCC: the reference in logical time (RULE_LOGICAL) ---- */

/* An L1's clock as its SM sees it (the livelock guard's ticks not yet
 * applied included); *wview the write view (rccwo; rccsc: the same clock). */
static uint64_t l1_clock(const struct rig *r, unsigned c, uint64_t *wview)
{
    return rcc_l1_now(r->l1[c], wview);
}

/* The value of line k at logical time t: the last write in coherence order
 * performed at a version <= t. */
static unsigned value_at(const struct rig *r, unsigned k, uint64_t t)
{
    const struct lenv *e = &r->lenv;
    unsigned v = 0;
    for (unsigned i = 0; i < e->n_hist[k]; i++)
        if (e->hist_init[k][i] || e->hist_ver[k][i] <= t)
            v = e->hist_val[k][i];
    return v;
}

/* The values line k holds at some logical time from lo to hi. */
static uint8_t values_between(const struct rig *r, unsigned k, uint64_t lo, uint64_t hi)
{
    const struct lenv *e = &r->lenv;
    uint8_t m = (uint8_t)(1u << value_at(r, k, lo));
    for (unsigned i = 0; i < e->n_hist[k]; i++)
        if (!e->hist_init[k][i] && e->hist_ver[k][i] > lo && e->hist_ver[k][i] <= hi)
            m |= (uint8_t)(1u << e->hist_val[k][i]);
    return m;
}

/* A write performed at the L2 (the golden memory moved): its version is the
 * L2 line's ver now (set before the bytes are written), and versions of a
 * line never decrease in coherence order. */
static void rcc_follow(struct rig *r, unsigned k)
{
    struct lenv *e = &r->lenv;
    struct cache_line *l = cache_find(&((struct ctrl *)r->l2)->cache, line_addr(r, k));
    if (!l) {
        fail(r, "a write to line %u was performed while the L2 holds no line for it", k);
        return;
    }
    unsigned n = e->n_hist[k];
    uint64_t ver = l->meta[0];
    if (!e->hist_init[k][n - 1] && ver < e->hist_ver[k][n - 1])
        fail(r,
             "logical time: a write to line %u was performed at version %llu, below the "
             "version %llu of the write before it in coherence order",
             k, (unsigned long long)ver, (unsigned long long)e->hist_ver[k][n - 1]);
    if (n == V_MAX_HIST)
        panic("verify: more than %u writes to a line a load may still read; lower --ops",
              V_MAX_HIST);
    if (r->env.gold[k] > V_MAX_VALUE)
        return; /* value_bit has reported it */
    e->hist_init[k][n] = 0;
    e->hist_val[k][n] = (uint8_t)r->env.gold[k];
    e->hist_ver[k][n] = ver;
    e->n_hist[k]++;
}

/* The reference keeps only what a load may still read: every load reads at or
 * after the smallest clock (or an in-flight operation's clock at issue), so a
 * write followed by one at or before that time is dropped, and the oldest
 * kept is "before every time"; a write version at or below its core's read
 * view no longer constrains a fence. (A canonical form: no path's history
 * beyond that splits states.) */
static void rcc_prune(struct rig *r)
{
    struct lenv *e = &r->lenv;
    uint64_t lo = UINT64_MAX;
    for (unsigned c = 0; c < r->n_l1; c++) {
        uint64_t now = l1_clock(r, c, NULL);
        lo = MIN(lo, now);
        for (unsigned q = 0; q < V_MAX_SLOTS; q++)
            if (r->env.busy[c][q])
                lo = MIN(lo, e->t_issue[c][q]);
        if (e->has_w[c] && e->wmax[c] <= now) {
            e->has_w[c] = false;
            e->wmax[c] = 0;
        }
    }
    for (unsigned k = 0; k < r->o->lines; k++) {
        while (e->n_hist[k] >= 2 && e->hist_ver[k][1] <= lo) {
            unsigned n = --e->n_hist[k];
            memmove(e->hist_init[k], e->hist_init[k] + 1, n);
            memmove(e->hist_val[k], e->hist_val[k] + 1, n);
            memmove(e->hist_ver[k], e->hist_ver[k] + 1, n * sizeof(uint64_t));
            e->hist_init[k][n] = e->hist_val[k][n] = 0;
            e->hist_ver[k][n] = 0;
        }
        if (!e->hist_init[k][0] && e->hist_ver[k][0] <= lo) {
            e->hist_init[k][0] = 1;
            e->hist_ver[k][0] = 0;
        }
    }
}

/* One value per logical time (RCC's single-writer/multiple-reader, in every
 * state): a copy an L1 may still read, from its clock to its lease end, holds
 * the line's value at every logical time in between. */
static void rcc_check_copies(struct rig *r)
{
    struct rcc_l2_view v;
    rcc_l2_view(r->l2, line_addr(r, 0), &v);
    if (v.rolling)
        fail(r, "logical time: a rollover started (the rig runs with rcc.ts_bits = 64)");
    for (unsigned c = 0; c < r->n_l1; c++)
        for (unsigned k = 0; k < r->o->lines; k++) {
            struct cache_line *l = cache_find(&((struct ctrl *)r->l1[c])->cache, line_addr(r, k));
            if (!l || (l->state != r->l1_valid[0] && l->state != r->l1_valid[1]))
                continue;
            uint64_t now = l1_clock(r, c, NULL), exp = l->meta[0];
            if (exp < now)
                continue; /* expired: the next access sees it as E */
            uint8_t have = value_bit(r, word_of(l->data), "an L1 copy");
            uint8_t want = values_between(r, k, now, exp);
            if (have != want) {
                char t[40];
                mask_text(want, t);
                fail(r,
                     "one value per logical time: l1[%u] holds line %u = %u, readable from its "
                     "clock %llu to the copy's lease end %llu, where the line takes the values %s",
                     c, k, word_of(l->data), (unsigned long long)now, (unsigned long long)exp, t);
            }
        }
}

/* A core response under RCC: a load's value is the line's value at some
 * logical time between its core's clock at issue and at the answer; a write
 * is performed at a version between its core's (write) clock at issue and at
 * the answer (program order); after a fence the read view has reached every
 * earlier write of the core. Atomics' values are judged in coherence order. */
static void rcc_take(struct rig *r, const struct msg *m, unsigned c, unsigned q, unsigned op)
{
    struct lenv *e = &r->lenv;
    uint64_t w, now = l1_clock(r, c, &w);
    unsigned k = r->env.line[c][q];
    bool two_views = !strcmp(r->p->name, "rccwo");
    if (op == OPK_LOAD || op == OPK_LOAD_ACQ) {
        uint32_t got = word_of(m->data);
        uint8_t ok = values_between(r, k, e->t_issue[c][q], now);
        if (!(value_bit(r, got, "a loaded word") & ok)) {
            char t[40];
            mask_text(ok, t);
            fail(r,
                 "data value: l1[%u]'s %s of line %u returned %u; from its clock at issue (%llu) "
                 "to its clock at the answer (%llu) the line holds only %s",
                 c, op_names[op], k, got, (unsigned long long)e->t_issue[c][q],
                 (unsigned long long)now, t);
        }
    } else if (op == OPK_STORE || op == OPK_STORE_REL || op == OPK_ATOMIC) {
        uint64_t ver = m->ts2, view = two_views && op != OPK_ATOMIC ? w : now;
        if (ver < e->t_issue[c][q] || ver > view)
            fail(r,
                 "program order: l1[%u]'s %s of line %u was performed at version %llu, outside "
                 "its clock from issue (%llu) to answer (%llu)",
                 c, op_names[op], k, (unsigned long long)ver, (unsigned long long)e->t_issue[c][q],
                 (unsigned long long)view);
        e->wmax[c] = e->has_w[c] ? MAX(e->wmax[c], ver) : ver;
        e->has_w[c] = true;
    } else if (op == OPK_FENCE && e->fence_has_w[c][q] && now < e->fence_w[c][q]) {
        fail(r,
             "fence: l1[%u]'s fence completed with its read view at %llu, before the version "
             "%llu of a write the core completed before it",
             c, (unsigned long long)now, (unsigned long long)e->fence_w[c][q]);
    }
    e->t_issue[c][q] = 0;
    e->fence_has_w[c][q] = false;
    e->fence_w[c][q] = 0;
}

static void take_response(struct rig *r, struct msg *m)
{
    struct env *e = &r->env;
    unsigned c = m->req.sm;
    unsigned q = m->req.id;
    if (m->req.op == MEM_KERNEL_BEGIN)
        return; /* the rig's launch (STC) */
    if (c >= r->n_l1 || q >= V_MAX_SLOTS || !e->busy[c][q]) {
        fail(r, "a core response (op %s) for core %u, which has nothing in flight",
             mem_op_names[m->req.op < MEM_NOPS ? m->req.op : 0], c);
        return;
    }
    unsigned op = e->busy[c][q] - 1u;
    uint32_t got = 0;
    bool check = true;
    if (r->prof.logical)
        rcc_take(r, m, c, q, op);
    if (r->prof.logical && op != OPK_ATOMIC)
        check = false;
    else if (op == OPK_LOAD || op == OPK_LOAD_ACQ)
        got = word_of(m->data);
    else if (op == OPK_ATOMIC)
        got = (uint32_t)r->atom[c][q].lane[0].result;
    else
        check = false;
    if (check) {
        uint8_t bit = value_bit(r, got, "a loaded word");
        if (!(bit & e->allowed[c][q])) {
            char want[40];
            mask_text(e->allowed[c][q], want);
            fail(r,
                 "data value: l1[%u]'s %s of line %u returned %u; the protocol's model allows "
                 "only %s",
                 c, op_names[op], e->line[c][q], got, want);
        }
    }
    if (r->prof.rule == RULE_WRITER_FENCE) {
        if (op == OPK_STORE || op == OPK_STORE_REL || op == OPK_ATOMIC)
            e->wrote[c] |= (uint8_t)(1u << e->line[c][q]);
        /* the fence has waited for the GWCTs of the core's writes done before
         * it: from now on no core may read a line older than them */
        for (unsigned k = 0; op == OPK_FENCE && k < r->o->lines; k++)
            if (e->fence_lines[c][q] >> k & 1)
                for (unsigned d = 0; d < r->n_l1; d++)
                    e->floor[d][k] &= e->vis[c][k];
    }
    if (r->prof.rule == RULE_SCOPED) {
        unsigned k0 = e->line[c][q];
        if (op == OPK_STORE || op == OPK_STORE_REL || op == OPK_ATOMIC) {
            /* the core's own write: its later loads return it or a later value */
            e->wrote[c] |= (uint8_t)(1u << k0);
            e->floor[c][k0] = (uint8_t)((e->floor[c][k0] & e->vis[c][k0]) | e->val[c][q]);
        }
        /* a release of .gpu or .sys completed: the core's writes done before it
         * (a release store's own line: its earlier write is not followed, the
         * store reset it) */
        if ((op == OPK_FENCE || op == OPK_STORE_REL) && e->scope[c][q] != SCOPE_CTA)
            for (unsigned k = 0; k < r->o->lines; k++)
                if (e->fence_lines[c][q] >> k & 1 && !(op == OPK_STORE_REL && k == k0))
                    for (unsigned l = 0; l <= (e->scope[c][q] == SCOPE_SYS ? 1u : 0u); l++)
                        e->rel[c][l][k] &= e->vis[c][k];
    }
    e->busy[c][q] = 0;
    e->scope[c][q] = 0;
    e->allowed[c][q] = 0;
    e->line[c][q] = 0;
    e->val[c][q] = 0;
    e->fence_lines[c][q] = 0;
}

static bool in_flight(const struct rig *r)
{
    for (unsigned ch = 0; ch < r->n_ch; ch++)
        if (r->ch[ch].n)
            return true;
    return false;
}

/* The lowest free slot of core c, or V_MAX_SLOTS when --inflight are in use
 * (a core with nothing in flight returns 0). */
static unsigned free_slot(const struct rig *r, unsigned c)
{
    for (unsigned q = 0; q < r->o->inflight; q++)
        if (!r->env.busy[c][q])
            return q;
    return V_MAX_SLOTS;
}

static bool busy_any(const struct rig *r, unsigned c)
{
    for (unsigned q = 0; q < V_MAX_SLOTS; q++)
        if (r->env.busy[c][q])
            return true;
    return false;
}

static bool quiescent(const struct rig *r)
{
    for (unsigned c = 0; c < r->n_l1; c++)
        if (busy_any(r, c))
            return false;
    return !in_flight(r);
}

/* A quiescent state: the L2 (or DRAM behind it) holds each line's current
 * value unless an L1 holds it dirty; under a write-atomic protocol every
 * valid L1 copy is current too. */
static void check_quiescent(struct rig *r)
{
    uint8_t buf[LINE_MAX_BYTES];
    for (unsigned k = 0; k < r->o->lines; k++) {
        addr_t a = line_addr(r, k);
        uint32_t gold = r->env.gold[k];
        bool dirty_above = false;
        for (unsigned c = 0; c < r->n_l1; c++) {
            struct ctrl *l1 = (struct ctrl *)r->l1[c];
            bool has = false;
            unsigned st = r->l1_ops[c]->peek(r->l1[c], a, buf, &has);
            struct cache_line *cl = l1->cache.sets ? cache_find(&l1->cache, a) : NULL;
            if (cl && cl->dirty)
                dirty_above = true;
            struct stc_l1_view sv;
            if (r->unit)
                stc_l1_view(r->l1[c], &sv);
            /* STC: a line of a current band is dead (scrubbed lazily, never read) */
            bool dead = r->unit && (sv.cer >> stc_band(a, sv.seb, r->cfg->stc.epochs) & 1);
            if (r->l1_write_atomic[c] && !r->prof.logical && !dead && st && has &&
                word_of(buf) != gold)
                fail(r, "quiescent: l1[%u] holds line %u = %u in state %s, but its value is %u", c,
                     k, word_of(buf), r->p->tables[r->l1_table[c]]->state_names[st], gold);
        }
        if (r->spandex)
            continue; /* by word ownership, below */
        bool has = false;
        struct comp *bank = r->l2; /* several GPMs: the line's home, once its page has one */
        if (r->mg) {
            unsigned home = pagemap_owner(&r->pages, a);
            bank = home == PAGEMAP_NONE ? NULL : r->l2s[home];
        }
        unsigned st = bank ? r->p->l2.peek(bank, a, buf, &has) : 0;
        if (!has)
            backing_read(r->store, a, buf, r->line_bytes);
        if (!dirty_above && word_of(buf) != gold)
            fail(r, "quiescent: the %s holds line %u = %u (L2 state %s), but its value is %u",
                 has ? "L2" : "DRAM", k, word_of(buf),
                 r->p->tables[r->p->n_l1_tables]->state_names[st], gold);
    }
    if (r->spandex) {
        addr_t lines[V_MAX_LINES];
        uint32_t dram[V_MAX_LINES];
        char why[256];
        for (unsigned k = 0; k < r->o->lines; k++) {
            lines[k] = line_addr(r, k);
            backing_read(r->store, lines[k], buf, r->line_bytes);
            dram[k] = word_of(buf);
        }
        if (!vspx_quiescent(r->p, r->l1, r->l1_table, r->n_l1, r->l2, lines, r->o->lines,
                            r->env.gold, dram, why, sizeof why))
            fail(r, "%s", why);
    }
}

/* ---- events ---- */

static uint64_t now_cycles(const struct rig *r)
{
    return r->eng.now / r->core_ps;
}

/* Run the controllers until they have nothing left to do. With leases, only
 * until the core cycle ends: what is left then waits for time (a GWCT wait, a
 * write waiting for leases to expire), which only EV_TICK advances. */
static void settle(struct rig *r)
{
    if (!r->prof.timed) {
        eng_run(&r->eng, TICK_MAX);
    } else {
        eng_run(&r->eng, (now_cycles(r) + 1) * r->core_ps - 1);
        tick_t next = eng_next_time(&r->eng);
        if (next != TICK_MAX && next % r->core_ps)
            panic("verify: the controllers' reaction to an event ran past its core cycle "
                  "(an event at %llu ps)",
                  (unsigned long long)next);
    }
    struct msg *m;
    while ((m = msg_list_pop(&r->rsp))) {
        take_response(r, m);
        msg_free(&r->msgs, m);
    }
}

/* The values a load of core c on line k may return, given at its issue (the
 * golden updates while it is in flight add theirs). */
static uint8_t load_allows(struct rig *r, unsigned c, unsigned k)
{
    struct env *e = &r->env;
    if (r->prof.rule == RULE_WRITE_ATOMIC || (r->spandex && r->l1_write_atomic[c]))
        return value_bit(r, e->gold[k], "the golden memory");
    if (r->prof.rule == RULE_LOGICAL)
        return 0; /* judged at the answer (rcc_take) */
    uint8_t m = e->floor[c][k];
    /* TC-Weak (RCpc): a core sees its own writes early, before they are performed */
    for (unsigned q = 0; r->prof.rule == RULE_WRITER_FENCE && q < V_MAX_SLOTS; q++)
        if (e->val[c][q] && e->line[c][q] == k)
            m |= e->val[c][q];
    return m;
}

/* A store or atomic of core c issued in slot q: what RULE_WRITER_FENCE follows. */
static void wrote(struct rig *r, unsigned c, unsigned q, const struct vev *ev)
{
    struct env *e = &r->env;
    if (r->prof.rule != RULE_WRITER_FENCE && r->prof.rule != RULE_SCOPED)
        return;
    e->vis[c][ev->line] = 0;
    e->wrote[c] &= (uint8_t) ~(1u << ev->line);
    e->val[c][q] = value_bit(r, ev->value, "a stored word");
}

/* RULE_SCOPED (docs/verify.md, "Several GPMs"). Whether cores c and d are in
 * one GPU (the rig's GPMs, o->gpus GPUs of equal size). */
static bool same_gpu(const struct rig *r, unsigned c, unsigned d)
{
    unsigned per = r->n_l1 / (r->o->gpus ? r->o->gpus : 1);
    return c / per == d / per;
}

/* An acquire of `scope` by core d: its later loads return, of each line, no
 * value older than the writes of another core that a release completed for,
 * where the two scopes include both cores (morally strong: .gpu within a GPU,
 * .sys across GPUs). */
static void scoped_acquire(struct rig *r, unsigned d, unsigned scope)
{
    struct env *e = &r->env;
    for (unsigned c = 0; c < r->n_l1; c++) {
        if (c == d || scope == SCOPE_CTA)
            continue;
        unsigned level = same_gpu(r, c, d) ? 0 : 1;
        if (level == 1 && scope != SCOPE_SYS)
            continue;
        for (unsigned k = 0; k < r->o->lines; k++)
            e->floor[d][k] &= e->rel[c][level][k];
    }
}

/* A scoped relaxed load reads at the point of coherence of its scope (the
 * home; hmg's .gpu: the GPU home, the system home on one GPU), so at or
 * after the line's value at issue. On several GPUs hmg's (and its variants')
 * .gpu load reads the GPU home, which other GPUs' writes reach only through
 * invalidations no .gpu operation waits for: judged as a weak load. */
static bool scoped_strong(const struct rig *r, unsigned scope)
{
    if (scope == SCOPE_SYS)
        return true;
    return scope == SCOPE_GPU && (r->o->gpus <= 1 || strncmp(r->p->name, "hmg", 3) != 0);
}

static void issue(struct rig *r, const struct vev *ev)
{
    struct env *e = &r->env;
    unsigned c = ev->core, q = free_slot(r, c);
    if (q == V_MAX_SLOTS)
        panic("verify: core %u issues with every slot in use", c);
    addr_t a = line_addr(r, ev->line);
    struct msg *m = msg_new(&r->msgs, MSG_CORE_REQ, a, r->eng.now);
    m->req = (struct mem_req){.sm = (uint16_t)c, .id = q, .scope = SCOPE_GPU, .sem = SEM_WEAK};
    if (r->mg)
        m->req.sm = 0; /* the one SM of its GPM */
    bool scoped = r->prof.rule == RULE_SCOPED;
    unsigned scope = ev->scope ? ev->scope - 1u : SCOPE_GPU;
    if (scoped && (ev->op == OPK_FENCE || ev->op == OPK_STORE_REL))
        e->fence_lines[c][q] = e->wrote[c]; /* the release covers the core's writes done */
    switch (ev->op) {
    case OPK_LOAD_ACQ:
        /* what it reads is judged as a plain load's; the loads after it, as after a fence */
        m->req.sem = SEM_ACQUIRE;
        m->req.scope = (uint8_t)scope;
        e->allowed[c][q] = load_allows(r, c, ev->line);
        if (scoped && scoped_strong(r, scope))
            e->allowed[c][q] &= value_bit(r, e->gold[ev->line], "the golden memory");
        if (scoped)
            scoped_acquire(r, c, scope);
        else if (r->prof.rule != RULE_WRITER_FENCE && r->prof.rule != RULE_LOGICAL)
            for (unsigned k = 0; k < r->o->lines; k++)
                e->floor[c][k] = value_bit(r, e->gold[k], "the golden memory");
        m->req.op = MEM_LOAD;
        bytemask_set_range(&m->mask, 0, 4);
        break;
    case OPK_LOAD:
        m->req.op = MEM_LOAD;
        m->req.scope = SCOPE_CTA;
        bytemask_set_range(&m->mask, 0, 4);
        e->allowed[c][q] = load_allows(r, c, ev->line);
        if (ev->scope) { /* ld.relaxed.SCOPE */
            m->req.scope = (uint8_t)scope;
            m->req.sem = SEM_RELAXED;
            if (scoped && scoped_strong(r, scope))
                e->allowed[c][q] &= value_bit(r, e->gold[ev->line], "the golden memory");
        }
        break;
    case OPK_STORE_REL:
    case OPK_STORE:
        m->req.op = MEM_STORE;
        if (ev->op == OPK_STORE_REL) {
            m->req.sem = SEM_RELEASE;
            m->req.scope = (uint8_t)scope;
        } else {
            m->req.scope = SCOPE_CTA;
        }
        memset(m->data, 0, r->line_bytes);
        memcpy(m->data, &(uint32_t){ev->value}, 4);
        bytemask_set_range(&m->mask, 0, 4);
        wrote(r, c, q, ev);
        break;
    case OPK_ATOMIC:
        m->req.op = MEM_ATOMIC;
        m->req.sem = SEM_RELAXED;
        m->req.scope = (uint8_t)scope;
        r->atom[c][q] = (struct atom_ops){.kind = ATOM_EXCH, .type = ATYPE_U32, .n = 1};
        r->atom[c][q].lane[0] = (struct atom_lane){.off = 0, .a = ev->value};
        m->req.atom = &r->atom[c][q];
        bytemask_set_range(&m->mask, 0, 4);
        /* an atomic reads its line's value in coherence order, whatever the model */
        e->allowed[c][q] = value_bit(r, e->gold[ev->line], "the golden memory");
        wrote(r, c, q, ev);
        break;
    case OPK_FENCE:
        m->req.op = MEM_FENCE;
        m->req.sem = SEM_ACQ_REL;
        m->req.scope = (uint8_t)scope;
        m->addr = 0;
        if (scoped) {
            scoped_acquire(r, c, scope);
        } else if (r->prof.rule == RULE_LOGICAL) {
            r->lenv.fence_has_w[c][q] = r->lenv.has_w[c];
            r->lenv.fence_w[c][q] = r->lenv.wmax[c];
        } else if (r->prof.rule != RULE_WRITER_FENCE)
            for (unsigned k = 0; k < r->o->lines; k++)
                e->floor[c][k] = value_bit(r, e->gold[k], "the golden memory");
        else
            e->fence_lines[c][q] = e->wrote[c];
        break;
    }
    if (r->prof.logical) { /* loads read at the read view, writes at the write view */
        uint64_t w, now = l1_clock(r, c, &w);
        bool writes = ev->op == OPK_STORE || ev->op == OPK_STORE_REL || ev->op == OPK_ATOMIC;
        r->lenv.t_issue[c][q] = writes ? w : now;
    }
    e->issued[c]++;
    e->scope[c][q] = (uint8_t)m->req.scope;
    e->busy[c][q] = (uint8_t)(ev->op + 1);
    e->line[c][q] = ev->line;
    if (!port_send(r->l1_ops[c]->in_port(r->l1[c]), m))
        panic("verify: an L1's core port is full");
}

static void deliver(struct rig *r, unsigned ch)
{
    struct msg *m = msg_list_pop(&r->ch[ch]);
    struct port *to;
    if (r->mg && ch >= ch_sys(r, 0, 0, 0)) {
        unsigned i = ch - ch_sys(r, 0, 0, 0);
        to = &r->sys_in[i / r->n_vnets % r->n_l2][i % r->n_vnets];
    } else if (r->mg && ch >= ch_dram(r))
        to = r->p->l2.in_port(r->l2s[ch - ch_dram(r)]);
    else if (ch > ch_dram(r))
        to = ch < ch_unit_down(r, 0) ? &r->unit_in[ch - ch_unit_up(r, 0)]
                                     : &r->unit_down[ch - ch_unit_down(r, 0)];
    else if (ch == ch_dram(r))
        to = r->p->l2.in_port(r->l2);
    else if (ch < r->n_l1 * r->n_vnets)
        to = &r->l2_in[bank_of(r, ch / r->n_vnets)][ch % r->n_vnets];
    else
        to = &r->down[ch / r->n_vnets - r->n_l1][ch % r->n_vnets];
    if (!port_send(to, m))
        panic("verify: a network port is full");
}

static void nothing(void *obj, uint64_t arg)
{
    (void)obj;
    (void)arg;
}

/* Time moves to the start of core cycle `cycle`: what waited for a time before
 * it (a lease, a GWCT) happens at that time, in the engine's order. */
static void advance_to(struct rig *r, uint64_t cycle)
{
    eng_at(&r->eng, cycle * r->core_ps, nothing, NULL, 0);
    eng_run(&r->eng, cycle * r->core_ps);
    settle(r);
}

static uint64_t next_deadline(const struct rig *r);
static bool time_can_advance(const struct rig *r);

/* EV_TICK: time advances one tick (enabled while a lease or wait runs).
 * Not straight to the next expiry: a lease granted a tick later than another
 * ends a tick later, an order a jump to the expiry would never produce. Every
 * time is a whole number of ticks plus fewer cycles than a tick, so what a
 * tick passes expires at once. */
static void tick(struct rig *r)
{
    if (!time_can_advance(r))
        panic("verify: time advanced with no lease or wait running");
    r->lenv.ticks++;
    advance_to(r, (now_cycles(r) / VERIFY_TICK_CYCLES + 1) * VERIFY_TICK_CYCLES);
}

static void apply(struct rig *r, const struct vev *ev)
{
    if (ev->kind == EV_OP) {
        issue(r, ev);
        settle(r);
    } else if (ev->kind == EV_DELIVER) {
        deliver(r, ev->ch);
        settle(r);
    } else {
        tick(r);
    }
    if (r->prof.logical) {
        rcc_prune(r);
        rcc_check_copies(r);
    }
}

/* Every event enabled in the rig's state, in a fixed order. */
/* --scopes: weak loads and stores, relaxed loads at .gpu/.sys, atomics at
 * .gpu/.sys, fences and (--sync) acquire loads and release stores at each
 * listed scope. */
static unsigned enabled_scoped(const struct rig *r, unsigned c, struct vev *out)
{
    unsigned n = 0, mask = r->o->scopes;
    for (unsigned k = 0; k < r->o->lines; k++) {
        out[n++] = (struct vev){EV_OP, (uint8_t)c, OPK_LOAD, (uint8_t)k, 0, 0, 0};
        for (unsigned sc = SCOPE_GPU; sc <= SCOPE_SYS; sc++)
            if (mask >> sc & 1)
                out[n++] =
                    (struct vev){EV_OP, (uint8_t)c, OPK_LOAD, (uint8_t)k, 0, 0, (uint8_t)(sc + 1)};
        for (unsigned v = 1; v <= r->o->values; v++) {
            out[n++] = (struct vev){EV_OP, (uint8_t)c, OPK_STORE, (uint8_t)k, (uint8_t)v, 0, 0};
            for (unsigned sc = SCOPE_GPU; r->o->atomics && sc <= SCOPE_SYS; sc++)
                if (mask >> sc & 1)
                    out[n++] = (struct vev){EV_OP,      (uint8_t)c, OPK_ATOMIC,       (uint8_t)k,
                                            (uint8_t)v, 0,          (uint8_t)(sc + 1)};
        }
    }
    for (unsigned sc = SCOPE_CTA; sc <= SCOPE_SYS; sc++) {
        if (!(mask >> sc & 1))
            continue;
        out[n++] = (struct vev){EV_OP, (uint8_t)c, OPK_FENCE, 0, 0, 0, (uint8_t)(sc + 1)};
        for (unsigned k = 0; r->o->sync && k < r->o->lines; k++) {
            out[n++] =
                (struct vev){EV_OP, (uint8_t)c, OPK_LOAD_ACQ, (uint8_t)k, 0, 0, (uint8_t)(sc + 1)};
            for (unsigned v = 1; v <= r->o->values; v++)
                out[n++] = (struct vev){EV_OP,      (uint8_t)c, OPK_STORE_REL,    (uint8_t)k,
                                        (uint8_t)v, 0,          (uint8_t)(sc + 1)};
        }
    }
    return n;
}

static unsigned enabled(const struct rig *r, struct vev *out)
{
    unsigned n = 0;
    for (unsigned c = 0; c < r->n_l1; c++) {
        if (free_slot(r, c) == V_MAX_SLOTS || r->env.issued[c] >= r->o->ops)
            continue;
        if (r->o->scopes) {
            n += enabled_scoped(r, c, out + n);
            continue;
        }
        for (unsigned k = 0; k < r->o->lines; k++) {
            out[n++] = (struct vev){EV_OP, (uint8_t)c, OPK_LOAD, (uint8_t)k, 0, 0};
            for (unsigned v = 1; v <= r->o->values; v++) {
                out[n++] = (struct vev){EV_OP, (uint8_t)c, OPK_STORE, (uint8_t)k, (uint8_t)v, 0};
                if (r->o->atomics)
                    out[n++] =
                        (struct vev){EV_OP, (uint8_t)c, OPK_ATOMIC, (uint8_t)k, (uint8_t)v, 0};
            }
        }
        out[n++] = (struct vev){EV_OP, (uint8_t)c, OPK_FENCE, 0, 0, 0};
        for (unsigned k = 0; r->o->sync && k < r->o->lines; k++) {
            out[n++] = (struct vev){EV_OP, (uint8_t)c, OPK_LOAD_ACQ, (uint8_t)k, 0, 0};
            for (unsigned v = 1; v <= r->o->values; v++)
                out[n++] =
                    (struct vev){EV_OP, (uint8_t)c, OPK_STORE_REL, (uint8_t)k, (uint8_t)v, 0};
        }
    }
    for (unsigned ch = 0; ch < r->n_ch; ch++)
        if (r->ch[ch].n)
            out[n++] = (struct vev){.kind = EV_DELIVER, .ch = (uint16_t)ch};
    if (r->prof.timed && time_can_advance(r))
        out[n++] = (struct vev){.kind = EV_TICK};
    return n;
}

#define MAX_ENABLED                                                                                \
    (V_MAX_L1 *                                                                                    \
         (V_MAX_LINES * (3 + 3 * V_MAX_VALUE) + 3 * (1 + V_MAX_LINES * (1 + V_MAX_VALUE))) +       \
     V_MAX_CH + 1)

static void ev_text(const struct rig *r, const struct vev *ev, char *out, size_t len)
{
    if (ev->kind == EV_OP) {
        snprintf(out, len, "op %u %s%s%s %u %u", ev->core, op_names[ev->op], ev->scope ? "." : "",
                 scope_names[ev->scope < 4 ? ev->scope : 0], ev->line, ev->value);
    } else if (ev->kind == EV_TICK) {
        snprintf(out, len, "tick");
    } else {
        char src[16], dst[16];
        unsigned vnet;
        ch_describe(r, ev->ch, src, dst, &vnet);
        snprintf(out, len, "deliver %s %s %u", src, dst, vnet);
    }
}

/* ---- the canonical digest of a state ---- */

struct digest {
    uint64_t h[2];
};

static void put(struct ser *s, const void *p, size_t n)
{
    if (s->collect)
        return;
    if (s->n + n > s->cap) {
        s->cap = (s->n + n) * 2;
        s->b = realloc(s->b, s->cap);
        if (!s->b)
            panic("out of memory");
    }
    memcpy(s->b + s->n, p, n);
    s->n += n;
}
#define PUT(s, v) put(s, &(v), sizeof(v))

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* A word of kind k (enum tkind). A time: 0 ("none": time 0 precedes the
 * rig's start) and UINT64_MAX ("never") as themselves; one not yet passed as
 * its offset from now (and, unless a stamp, a candidate for the next
 * deadline); a passed one as "expired" (TK_CLAMP) or by its rank among the
 * state's passed ranked times, which the first pass (collect) gathers. */
static void put_time(struct ser *s, uint64_t v, enum tkind k)
{
    if (k == TK_SKIP)
        return;
    if (k == TK_RAW) {
        PUT(s, v);
        return;
    }
    uint8_t tag;
    if (k >= TK_LCLOCK) { /* logical time: the offset from the state's smallest */
        if (k == TK_LTIME0 && v == 0) {
            tag = 0;
            PUT(s, tag);
            return;
        }
        if (s->collect) {
            s->base = MIN(s->base, v);
            if (k == TK_LCLOCK) {
                s->min_clock = MIN(s->min_clock, v);
            } else if (k != TK_LREF) {
                s->max_other = MAX(s->max_other, v);
                s->any_other = true;
            }
            return;
        }
        tag = 5;
        uint64_t x = v - s->base;
        PUT(s, tag);
        PUT(s, x);
        return;
    }
    uint64_t x = 0;
    if (v == 0) {
        tag = 0;
    } else if (v == UINT64_MAX) {
        tag = 1;
    } else if (v >= s->now) {
        tag = 2;
        x = v - s->now;
        if (k != TK_STAMP && v < s->next_deadline)
            s->next_deadline = v;
    } else if (k == TK_CLAMP) {
        tag = 3;
    } else if (s->collect) {
        if (s->n_past == s->cap_past) {
            s->cap_past = s->cap_past ? 2 * s->cap_past : 64;
            s->past = realloc(s->past, s->cap_past * sizeof *s->past);
            if (!s->past)
                panic("out of memory");
        }
        s->past[s->n_past++] = v;
        return;
    } else {
        tag = 4;
        const uint64_t *at = bsearch(&v, s->past, s->n_past, sizeof v, cmp_u64);
        x = (uint64_t)(at - s->past);
    }
    PUT(s, tag);
    PUT(s, x);
}

/* What a TC message's two time words are (tc.h): a word its type does not
 * carry is a leftover of the message it was made from, which no receiver
 * reads. A lease end may be compared with a merged load's arrival (ordered);
 * a local timestamp is only matched against a running global one and a GWCT
 * only compared with now (clamped). Core requests: a merged load's arrival
 * and a held request's wait are written where the L1 keeps them (put_ctrl,
 * put_private); in its other queues a core request's words are dead (a
 * replayed load is stamped again when it merges again). */
static void tc_msg_times(const struct msg *m, enum tkind *kts, enum tkind *kts2)
{
    bool gwct = m->flags & TC_F_GWCT;
    *kts = *kts2 = TK_SKIP;
    switch (m->type) {
    case MSG_TC_GETS:
        *kts = (m->flags & TC_F_LEASE) ? TK_ORDER : TK_SKIP;
        break;
    case MSG_TC_UPGR:
        *kts = TK_CLAMP;
        break;
    case MSG_TC_ATOMIC:
        *kts = (m->flags & TC_F_HAS_TS) ? TK_CLAMP : TK_SKIP;
        break;
    case MSG_TC_DATA:
        *kts = TK_ORDER;
        *kts2 = gwct ? TK_CLAMP : TK_SKIP;
        break;
    case MSG_TC_DATAG: /* ts2 becomes the copy's lease under the safe private rule */
        *kts = TK_ORDER;
        *kts2 = TK_CLAMP;
        break;
    case MSG_TC_ACK:
    case MSG_TC_ATOMRSP:
        *kts2 = gwct ? TK_CLAMP : TK_SKIP;
        break;
    }
}

/* What an RCC message's two time words are (rcc.h): a GETS's clock and the
 * expired copy's lease end (0: none); a WRITE's or ATOMIC's clock; DATA,
 * RENEW and atomic results' lease end and version; an ACK's version. The
 * rest are leftovers no receiver reads (a core request's words). */
static void rcc_msg_times(const struct msg *m, enum tkind *kts, enum tkind *kts2)
{
    *kts = *kts2 = TK_SKIP;
    switch (m->type) {
    case MSG_RCC_GETS:
        *kts = TK_LTIME;
        *kts2 = TK_LTIME0;
        break;
    case MSG_RCC_WRITE:
    case MSG_RCC_ATOMIC:
        *kts = TK_LTIME;
        break;
    case MSG_RCC_DATA:
    case MSG_RCC_RENEW:
    case MSG_RCC_ATOMRSP:
        *kts = *kts2 = TK_LTIME;
        break;
    case MSG_RCC_ACK:
        *kts2 = TK_LTIME;
        break;
    }
}

/* A message as the receiver can tell it apart: every field but its birth
 * time and pool link; data only where the mask says it is meaningful; its
 * two time words (TC: lease ends, local timestamps, GWCTs) as kinds kts, kts2. */
static void put_msg(struct ser *s, const struct rig *r, const struct msg *m, enum tkind kts,
                    enum tkind kts2)
{
    PUT(s, m->type);
    PUT(s, m->vnet);
    PUT(s, m->cls);
    PUT(s, m->src);
    PUT(s, m->dst);
    PUT(s, m->size_bytes);
    PUT(s, m->flags);
    PUT(s, m->addr);
    PUT(s, m->req.op);
    PUT(s, m->req.sem);
    PUT(s, m->req.scope);
    PUT(s, m->req.sm);
    PUT(s, m->req.warp);
    PUT(s, m->req.tx);
    PUT(s, m->req.req_type);
    PUT(s, m->req.id);
    if (m->req.atom) {
        PUT(s, m->req.atom->kind);
        PUT(s, m->req.atom->lane[0].a);
    }
    if (kts == TK_BY_TYPE && r->prof.logical)
        rcc_msg_times(m, &kts, &kts2);
    else if (kts == TK_BY_TYPE)
        tc_msg_times(m, &kts, &kts2);
    put_time(s, m->ts, kts);
    put_time(s, m->ts2, kts2);
    PUT(s, m->acks);
    PUT(s, m->sharer);
    PUT(s, m->mask);
    for (unsigned i = 0; i < r->line_bytes; i++) {
        uint8_t b = bytemask_test(&m->mask, i) ? m->data[i] : 0;
        PUT(s, b);
    }
}

/* The kind of a message's time words: under TC by its type, elsewhere plain words. */
static enum tkind msg_time(const struct rig *r)
{
    return r->prof.timed && !r->prof.unit ? TK_BY_TYPE : TK_RAW;
}

static void put_list_as(struct ser *s, const struct rig *r, const struct msg_list *l,
                        enum tkind kts, enum tkind kts2)
{
    PUT(s, l->n);
    for (const struct msg *m = l->head; m; m = m->next)
        put_msg(s, r, m, kts, kts2);
}

static void put_list(struct ser *s, const struct rig *r, const struct msg_list *l)
{
    put_list_as(s, r, l, msg_time(r), msg_time(r));
}

static void put_port(struct ser *s, const struct rig *r, const struct port *p)
{
    PUT(s, p->n);
    for (uint32_t i = 0; i < p->n; i++)
        put_msg(s, r, port_slot_at(p, i)->m, msg_time(r), msg_time(r));
}

/* A controller's lines, TBEs and queues, in line order (TBE slots and ways
 * are allocation history, not state); meta words by their kinds. An L1's
 * merged loads carry the time they merged (TC: answered only if the fill's
 * lease reached it) in ts2. */
static void put_ctrl(struct ser *s, const struct rig *r, struct comp *cp, bool is_l1)
{
    struct ctrl *c = (struct ctrl *)cp;
    const uint8_t *line_k = is_l1 ? r->prof.l1_line : r->prof.l2_line;
    const uint8_t *tbe_k = is_l1 ? r->prof.l1_tbe : r->prof.l2_tbe;
    for (unsigned k = 0; k < r->o->lines; k++) {
        addr_t a = line_addr(r, k);
        struct cache_line *l = c->cache.sets ? cache_find(&c->cache, a) : NULL;
        uint8_t present = l != NULL;
        PUT(s, present);
        if (l) {
            PUT(s, l->state);
            PUT(s, l->dirty);
            /* an RCC bank's line not yet filled has no ver or exp */
            bool meta = !r->prof.logical || is_l1 || l->state == r->l2_valid;
            for (unsigned i = 0; meta && i < 3; i++)
                put_time(s, l->meta[i], line_k[i]);
            put(s, l->data, r->line_bytes);
        }
        struct tbe *t = c->tbes.cap ? tbe_find(&c->tbes, a) : NULL;
        present = t != NULL;
        PUT(s, present);
        if (t) {
            PUT(s, t->state);
            PUT(s, t->pending);
            PUT(s, t->acks);
            for (unsigned i = 0; i < 2; i++)
                put_time(s, t->meta[i], tbe_k[i]);
            PUT(s, t->use_once);
            if (is_l1 && r->prof.logical) /* loads merged behind a fill: the clock then */
                put_list_as(s, r, &t->merged, TK_SKIP, TK_LTIME);
            else if (is_l1 && r->prof.timed && !r->prof.unit) /* merged behind a fill: when */
                put_list_as(s, r, &t->merged, TK_SKIP, TK_STAMP);
            else
                put_list(s, r, &t->merged);
            put_list(s, r, &t->parked);
        }
    }
    put_list(s, r, &c->replay);
    put_port(s, r, &c->in);
    put_port(s, r, &c->pipe);
}

/* verify_spandex.c writes through these: bytes and messages as put and put_msg do */
struct put_ctx {
    struct ser *s;
    const struct rig *r;
};
static void put_bytes_cb(void *arg, const void *p, size_t n)
{
    put(((struct put_ctx *)arg)->s, p, n);
}
static void put_msg_cb(void *arg, const struct msg *m)
{
    struct put_ctx *x = arg;
    put_msg(x->s, x->r, m, msg_time(x->r), msg_time(x->r));
}

/* State a protocol keeps outside struct ctrl: GPU-VI's banks (also ideal's; gpuvini's
 * sparse directory entries, invalidations waiting for room); TC's warp slots,
 * hints, lease and blocked bank (tc.h) and its observer's promised GWCTs. */
static void put_private(struct ser *s, const struct rig *r)
{
    if (r->spandex) { /* owner ids, held stores, DeNovo's predictor (verify_spandex.h) */
        struct put_ctx x = {s, r};
        struct vspx_out o = {put_bytes_cb, put_msg_cb, &x};
        addr_t lines[V_MAX_LINES];
        for (unsigned k = 0; k < r->o->lines; k++)
            lines[k] = line_addr(r, k);
        vspx_put(&o, r->p, r->l1, r->l1_table, r->n_l1, r->l2, lines, r->o->lines);
        return;
    }
    if (r->prof.logical) { /* RCC (rcc.h): the clocks, the bank's mnow and MSHRs, the predictor */
        for (unsigned i = 0; i < r->n_l1; i++) {
            uint64_t w, now = rcc_l1_now(r->l1[i], &w);
            put_time(s, now, TK_LCLOCK);
            if (!strcmp(r->p->name, "rccwo"))
                put_time(s, w, TK_LCLOCK);
        }
        struct rcc_l2_view v = {0};
        bool miss_ahead = false; /* a line not yet filled: its refill reads mnow */
        for (unsigned k = 0; k < r->o->lines; k++) {
            struct cache_line *l = cache_find(&((struct ctrl *)r->l2)->cache, line_addr(r, k));
            miss_ahead |= !l || l->state != r->l2_valid;
            rcc_l2_view(r->l2, line_addr(r, k), &v);
            PUT(s, v.level);
            PUT(s, v.mshr);
            if (!v.mshr)
                continue;
            PUT(s, v.hasread);
            PUT(s, v.haswrite);
            if (v.hasread)
                put_time(s, v.lastrd, TK_LTIME);
            if (v.haswrite) {
                put_time(s, v.lastwr, TK_LTIME);
                put_time(s, v.acked, TK_LTIME);
            }
            PUT(s, *v.wmask);
            for (unsigned i = 0; i < r->line_bytes; i++) {
                uint8_t b = bytemask_test(v.wmask, i) ? v.wdata[i] : 0;
                PUT(s, b);
            }
        }
        /* mnow is read only by a miss (its refill, an early write ACK); the rig's
         * lines never conflict in a set, so once all are in V none comes again */
        if (miss_ahead)
            put_time(s, v.mnow, TK_LTIME);
        return;
    }
    if (r->prof.unit) { /* STC (stc.h): the L1s' epoch state and BSQs, the EMU's */
        for (unsigned i = 0; i < r->n_l1; i++) {
            struct stc_l1_view v;
            stc_l1_view(r->l1[i], &v);
            PUT(s, v.cer);
            PUT(s, v.pw);
            PUT(s, v.bsq_n);
            PUT(s, v.bsq_bands);
            PUT(s, v.demand_sent);
            PUT(s, v.conflict_sent);
            PUT(s, v.seb);
            PUT(s, v.hs);
            PUT(s, v.in_kernel);
            PUT(s, v.active_sent);
            for (unsigned b = 0; b < r->cfg->stc.epochs; b++)
                put_list(s, r, &v.bsq[b]);
            put_list(s, r, v.to_emu);
            for (unsigned k = 0; k < r->o->lines; k++) {
                bool scrubbed = stc_l1_set_scrubbed(r->l1[i], line_addr(r, k));
                PUT(s, scrubbed);
            }
        }
        struct stc_emu_view e;
        stc_emu_view(r->unit, &e);
        PUT(s, e.phase);
        PUT(s, e.acks);
        PUT(s, e.ptr);
        PUT(s, e.seb);
        PUT(s, e.seb_next);
        PUT(s, e.busy);
        PUT(s, e.rr);
        PUT(s, e.check_seb);
        PUT(s, e.grant);
        PUT(s, e.erv);
        PUT(s, e.erv_known);
        PUT(s, e.check_grant);
        for (unsigned b = 0; b < 32; b++)
            if (e.erv_known >> b & 1)
                PUT(s, e.erv_addr[b]);
        /* only compared with the round: past it, all the same */
        uint64_t since = MIN(e.since_remap, e.round);
        PUT(s, since);
        put_list(s, r, e.out);
        PUT(s, e.writable);
        PUT(s, e.wake);
        PUT(s, e.wake_stale);
        for (unsigned i = 0; i < r->n_l1; i++) {
            put_port(s, r, &r->unit_in[i]);
            put_port(s, r, &r->unit_down[i]);
        }
        return;
    }
    if (r->prof.timed) {
        for (unsigned i = 0; i < r->n_l1; i++) {
            for (unsigned w = 0; w < tc_l1_slots(r->l1[i]); w++) {
                const struct msg_list *held;
                put_time(s, tc_l1_slot(r->l1[i], w, &held), TK_CLAMP);
                /* held: ts the core cycle its wait ends, ts2 when it began (a statistic) */
                put_list_as(s, r, held, TK_CLAMP, TK_SKIP);
            }
            uint8_t fenced = tc_l1_fenced(r->l1[i]), expired = UINT8_MAX;
            for (unsigned k = 0; k < r->o->lines; k++)
                if (tc_l1_expired_line(r->l1[i]) == line_addr(r, k))
                    expired = (uint8_t)k;
            PUT(s, fenced);
            PUT(s, expired);
        }
        struct tc_l2_view v;
        tc_l2_view(r->l2, &v);
        PUT(s, v.lease);
        put_time(s, v.next_due, TK_CLAMP);
        PUT(s, v.blocked);
        for (unsigned k = 0; k < r->o->lines; k++)
            put_time(s, tc_obs_promised((struct eng *)&r->eng, line_addr(r, k)), TK_CLAMP);
        return;
    }
    if (strcmp(r->p->name, "gpuvi") && strcmp(r->p->name, "gpuvini") && strcmp(r->p->name, "ideal"))
        return;
    struct vi_bank *b = (struct vi_bank *)r->l2;
    put_list(s, r, &b->inv_out);
    if (!b->has_dir)
        return;
    for (unsigned k = 0; k < r->o->lines; k++) {
        struct cache_line *l = cache_find(&b->dir, line_addr(r, k) >> b->dir_shift);
        uint8_t present = l != NULL;
        PUT(s, present);
        if (l) {
            PUT(s, l->state);
            PUT(s, l->meta);
        }
    }
}

/* RCC's reference: each line's kept writes, the in-flight operations'
 * clocks at issue, the fences' and cores' write versions (times relative). */
static void put_lenv(struct ser *s, const struct rig *r)
{
    const struct lenv *e = &r->lenv;
    PUT(s, e->ticks);
    for (unsigned k = 0; k < r->o->lines; k++) {
        PUT(s, e->n_hist[k]);
        for (unsigned i = 0; i < e->n_hist[k]; i++) {
            PUT(s, e->hist_init[k][i]);
            PUT(s, e->hist_val[k][i]);
            if (!e->hist_init[k][i])
                put_time(s, e->hist_ver[k][i], TK_LREF);
        }
    }
    for (unsigned c = 0; c < r->n_l1; c++) {
        for (unsigned q = 0; q < V_MAX_SLOTS; q++) {
            if (!r->env.busy[c][q])
                continue;
            put_time(s, e->t_issue[c][q], TK_LREF);
            PUT(s, e->fence_has_w[c][q]);
            if (e->fence_has_w[c][q])
                put_time(s, e->fence_w[c][q], TK_LREF);
        }
        PUT(s, e->has_w[c]);
        if (e->has_w[c])
            put_time(s, e->wmax[c], TK_LREF);
    }
}

/* A multi-GPM bank's state outside struct ctrl (verify_mg.c), and the line's
 * home (the pagemap: placed at the first touch). */
struct mg_put {
    struct ser *s;
    const struct rig *r;
};
static void mg_put_bytes(void *arg, const void *p, size_t n)
{
    put(((struct mg_put *)arg)->s, p, n);
}
static void mg_put_msg(void *arg, const struct msg *m)
{
    struct mg_put *a = arg;
    put_msg(a->s, a->r, m, TK_RAW, TK_RAW);
}
static void put_mg_bank(struct ser *s, const struct rig *r, unsigned b)
{
    addr_t lines[V_MAX_LINES];
    for (unsigned k = 0; k < r->o->lines; k++) {
        lines[k] = line_addr(r, k);
        if (!b) {
            uint16_t home = (uint16_t)pagemap_owner(&r->pages, lines[k]);
            PUT(s, home);
        }
    }
    struct mg_put a = {s, r};
    const struct verify_mg_sink sink = {mg_put_bytes, mg_put_msg, &a};
    verify_mg_bank(r->l2s[b], lines, r->o->lines, &sink);
}

static void put_state(struct ser *s, const struct rig *r)
{
    for (unsigned i = 0; i < r->n_l1; i++) {
        put_ctrl(s, r, r->l1[i], true);
        for (unsigned v = 0; v < r->n_vnets; v++)
            put_port(s, r, &r->down[i][v]);
    }
    for (unsigned b = 0; b < r->n_l2; b++) {
        put_ctrl(s, r, r->l2s[b], false);
        for (unsigned v = 0; v < r->n_vnets; v++) { /* a request a blocked bank has not taken */
            put_port(s, r, &r->l2_in[b][v]);
            if (r->mg)
                put_port(s, r, &r->sys_in[b][v]);
        }
        if (r->mg)
            put_mg_bank(s, r, b);
    }
    put_private(s, r);
    for (unsigned ch = 0; ch < r->n_ch; ch++)
        put_list(s, r, &r->ch[ch]);
    for (unsigned k = 0; k < r->o->lines; k++) {
        uint8_t buf[LINE_MAX_BYTES];
        backing_read(r->store, line_addr(r, k), buf, r->line_bytes);
        put(s, buf, r->line_bytes);
    }
    PUT(s, r->env);
    if (r->prof.logical)
        put_lenv(s, r);
    for (unsigned c = 0; c < r->n_l1; c++) /* an atomic's old value, once performed */
        for (unsigned q = 0; q < V_MAX_SLOTS; q++)
            if (r->env.busy[c][q] == OPK_ATOMIC + 1)
                PUT(s, r->atom[c][q].lane[0].result);
}

/* The first pass over a state with times: the passed ranked times (sorted,
 * distinct) and the next deadline; nothing is written. */
static void scan_times(struct ser *s, const struct rig *r)
{
    s->now = now_cycles(r);
    s->collect = true;
    s->n_past = 0;
    s->next_deadline = UINT64_MAX;
    s->base = s->min_clock = UINT64_MAX;
    s->max_other = 0;
    s->any_other = false;
    put_state(s, r);
    s->collect = false;
    if (s->n_past > 1) /* the array is NULL until a first time is kept */
        qsort(s->past, s->n_past, sizeof *s->past, cmp_u64);
    size_t n = 0;
    for (size_t i = 0; i < s->n_past; i++)
        if (!n || s->past[n - 1] != s->past[i])
            s->past[n++] = s->past[i];
    s->n_past = n;
}

/* The earliest time in the state not yet passed (UINT64_MAX: none, and time
 * would change nothing). */
static uint64_t next_deadline(const struct rig *r)
{
    scan_times(r->scan, r);
    return r->scan->next_deadline;
}

/* Whether a tick may change anything: with TC's leases, while a time in the
 * state has not passed; under RCC, while some L1's clock has not passed every
 * other logical time in the state (docs/verify.md, "Logical time"). */
static bool time_can_advance(const struct rig *r)
{
    if (r->prof.unit) /* the EMU's next wake-up is the only thing waiting for time */
        return eng_next_time(&r->eng) != TICK_MAX;
    if (!r->prof.logical)
        return next_deadline(r) != UINT64_MAX;
    if (r->lenv.ticks >= r->o->ticks)
        return false;
    scan_times(r->scan, r);
    return r->scan->any_other && r->scan->min_clock <= r->scan->max_other + r->o->lease + 1;
}

static struct digest state_digest(const struct rig *r, struct ser *s)
{
    if (r->prof.timed)
        scan_times(s, r);
    s->n = 0;
    put_state(s, r);
    struct digest d;
    d.h[0] = hash_fnv1a(0xcbf29ce484222325ull, s->b, s->n);
    uint64_t h = 0x9e3779b97f4a7c15ull ^ s->n;
    for (size_t i = 0; i < s->n; i++) { /* a second, independent mix */
        h = (h ^ s->b[i]) * 0xff51afd7ed558ccdull;
        h ^= h >> 29;
    }
    d.h[1] = h;
    return d;
}

/* ---- the search ---- */

struct node {
    uint32_t parent;
    uint16_t depth;
    uint8_t quiescent;
    struct vev ev; /* the event from the parent */
};

struct visited {
    struct digest *keys;
    uint32_t *node; /* UINT32_MAX: empty */
    size_t mask, n;
};

static void visited_init(struct visited *v, size_t cap)
{
    v->mask = cap - 1;
    v->n = 0;
    v->keys = malloc(cap * sizeof *v->keys);
    v->node = malloc(cap * sizeof *v->node);
    if (!v->keys || !v->node)
        panic("out of memory");
    memset(v->node, 0xff, cap * sizeof *v->node);
}

/* The node of digest d, or (inserting `fresh`) UINT32_MAX when it is new. */
static uint32_t visited_put(struct visited *v, struct digest d, uint32_t fresh)
{
    if (2 * (v->n + 1) > v->mask + 1) {
        struct visited g;
        visited_init(&g, 2 * (v->mask + 1));
        for (size_t i = 0; i <= v->mask; i++)
            if (v->node[i] != UINT32_MAX)
                visited_put(&g, v->keys[i], v->node[i]);
        free(v->keys);
        free(v->node);
        *v = g;
    }
    for (size_t i = d.h[0] & v->mask;; i = (i + 1) & v->mask) {
        if (v->node[i] == UINT32_MAX) {
            v->keys[i] = d;
            v->node[i] = fresh;
            v->n++;
            return UINT32_MAX;
        }
        if (v->keys[i].h[0] == d.h[0] && v->keys[i].h[1] == d.h[1])
            return v->node[i];
    }
}

struct search {
    const struct config *cfg;
    const struct proto_desc *p;
    const struct verify_opts *o;
    struct node *nodes;
    size_t n_nodes, cap_nodes;
    uint32_t *edge_from, *edge_to;
    size_t n_edges, cap_edges;
    struct visited seen;
    struct coh_cov *cov;     /* coverage summed over the explored transitions */
    struct coh_cov *scratch; /* a rig's own */
    unsigned n_tables;
    struct ser ser;
    struct vev *path;
    struct memories mem;
};

static jmp_buf fault_jump;
static bool fault_armed;
static struct rig *faulted_rig; /* the rig a caught fault interrupted */

static void fault_exit(int code)
{
    if (fault_armed)
        longjmp(fault_jump, code);
    exit(code);
}

/* Apply one event; a panic in the controllers (a protocol hole, an observer's
 * invariant) comes back as its exit code instead of ending the process. */
static int try_apply(struct rig *r, const struct vev *ev)
{
    fault_armed = true;
    int code = setjmp(fault_jump);
    if (!code)
        apply(r, ev);
    fault_armed = false;
    return code;
}

/* The events from the root to node n, into s->path; returns how many. */
static unsigned path_to(struct search *s, uint32_t n)
{
    unsigned d = s->nodes[n].depth;
    for (uint32_t k = n; k; k = s->nodes[k].parent)
        s->path[s->nodes[k].depth - 1] = s->nodes[k].ev;
    return d;
}

static void cov_reset(struct search *s)
{
    for (unsigned t = 0; t < s->n_tables; t++) {
        size_t cells = (size_t)s->p->tables[t]->n_states * s->p->tables[t]->n_events;
        memset(s->scratch[t].hits, 0, cells * sizeof(uint64_t));
        memset(s->scratch[t].stalls, 0, cells * sizeof(uint64_t));
    }
}

static void cov_add(struct search *s)
{
    for (unsigned t = 0; t < s->n_tables; t++) {
        size_t cells = (size_t)s->p->tables[t]->n_states * s->p->tables[t]->n_events;
        for (size_t k = 0; k < cells; k++) {
            s->cov[t].hits[k] += s->scratch[t].hits[k];
            s->cov[t].stalls[k] += s->scratch[t].stalls[k];
        }
    }
}

/* A rig in the state of node n's path (the path was checked when found). */
static struct rig *rig_at(struct search *s, unsigned depth)
{
    struct rig *r = rig_new(s->cfg, s->p, s->o, s->scratch, &s->mem);
    for (unsigned i = 0; i < depth; i++)
        apply(r, &s->path[i]);
    return r;
}

static void write_cex(const struct search *s, const struct rig *r, unsigned steps, const char *why,
                      FILE *out)
{
    const struct verify_opts *o = s->o;
    fprintf(out, "# gpucoh verify counterexample (%u steps): %s\n", steps, why);
    fprintf(out,
            "protocol %s\nl1s %u\nlines %u\nvalues %u\nops %u\natomics %u\ninflight %u\nsync %u\n",
            s->p->name, o->l1s, o->lines, o->values, o->ops, o->atomics ? 1u : 0u, o->inflight,
            o->sync ? 1u : 0u);
    if (r->prof.timed)
        fprintf(out, "lease %u\n", o->lease);
    if (r->prof.logical)
        fprintf(out, "ticks %u\n", o->ticks);
    if (o->devices[0])
        fprintf(out, "devices %s\n", o->devices);
    if (r->mg)
        fprintf(out, "gpus %u\n", o->gpus);
    if (o->scopes)
        fprintf(out, "scopes %u\n", o->scopes);
    for (unsigned i = 0; i < o->n_sets; i++)
        fprintf(out, "set %s\n", o->sets[i]);
    for (unsigned i = 0; i < steps; i++) {
        char t[64];
        ev_text(r, &s->path[i], t, sizeof t);
        fprintf(out, "%s\n", t);
    }
}

/* Results files are written whole or not at all: into a temporary file
 * beside `path`, renamed over it. Returns 0, or -1 (nothing written). */
static int write_whole(const char *path, const char *text, size_t len)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp.%d", path, (int)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f)
        return -1;
    bool ok = fwrite(text, 1, len, f) == len;
    ok = !fclose(f) && ok;
    if (!ok || rename(tmp, path)) {
        remove(tmp);
        return -1;
    }
    return 0;
}

static void report_cex(struct search *s, struct rig *r, unsigned steps, const char *why, FILE *out,
                       struct verify_result *res)
{
    res->violation = true;
    res->cex_steps = steps;
    fprintf(out, "verify %s: VIOLATION: %s\n  shortest event sequence (%u steps):\n", s->p->name,
            why, steps);
    for (unsigned i = 0; i < steps; i++) {
        char t[64];
        ev_text(r, &s->path[i], t, sizeof t);
        fprintf(out, "  %3u  %s\n", i + 1, t);
    }
    if (s->o->cex_file) {
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        if (!f)
            panic("out of memory");
        write_cex(s, r, steps, why, f);
        if (fclose(f) || write_whole(s->o->cex_file, text, len))
            fatal("%s: cannot write the counterexample", s->o->cex_file);
        free(text);
        fprintf(out, "  written to %s (replay: gpucoh verify --replay %s)\n", s->o->cex_file,
                s->o->cex_file);
    }
}

static uint64_t search_bytes(const struct search *s)
{
    return s->cap_nodes * sizeof *s->nodes + s->cap_edges * 2 * sizeof(uint32_t) +
           (s->seen.mask + 1) * (sizeof(struct digest) + sizeof(uint32_t));
}

static void add_node(struct search *s, uint32_t parent, const struct vev *ev, unsigned depth,
                     bool quiet)
{
    if (s->n_nodes == s->cap_nodes) {
        s->cap_nodes = s->cap_nodes ? 2 * s->cap_nodes : 1024;
        s->nodes = realloc(s->nodes, s->cap_nodes * sizeof *s->nodes);
        if (!s->nodes)
            panic("out of memory");
    }
    s->nodes[s->n_nodes++] =
        (struct node){.parent = parent, .depth = (uint16_t)depth, .quiescent = quiet, .ev = *ev};
}

static void add_edge(struct search *s, uint32_t from, uint32_t to)
{
    if (s->n_edges == s->cap_edges) {
        s->cap_edges = s->cap_edges ? 2 * s->cap_edges : 4096;
        s->edge_from = realloc(s->edge_from, s->cap_edges * sizeof *s->edge_from);
        s->edge_to = realloc(s->edge_to, s->cap_edges * sizeof *s->edge_to);
        if (!s->edge_from || !s->edge_to)
            panic("out of memory");
    }
    s->edge_from[s->n_edges] = from;
    s->edge_to[s->n_edges++] = to;
}

/* Deadlock freedom: every state reaches a quiescent one. Returns the first
 * (shallowest) state that cannot, or UINT32_MAX. */
static uint32_t cannot_quiesce(struct search *s)
{
    size_t n = s->n_nodes;
    uint8_t *can = calloc(n, 1);
    uint32_t *first = malloc(n * sizeof *first), *next = malloc(s->n_edges * sizeof *next);
    uint32_t *queue = malloc(n * sizeof *queue);
    if (!can || !first || !next || !queue)
        panic("out of memory");
    memset(first, 0xff, n * sizeof *first);
    for (size_t e = 0; e < s->n_edges; e++) { /* reverse adjacency */
        next[e] = first[s->edge_to[e]];
        first[s->edge_to[e]] = (uint32_t)e;
    }
    size_t head = 0, tail = 0;
    for (size_t i = 0; i < n; i++)
        if (s->nodes[i].quiescent) {
            can[i] = 1;
            queue[tail++] = (uint32_t)i;
        }
    while (head < tail)
        for (uint32_t e = first[queue[head++]]; e != UINT32_MAX; e = next[e])
            if (!can[s->edge_from[e]]) {
                can[s->edge_from[e]] = 1;
                queue[tail++] = s->edge_from[e];
            }
    uint32_t bad = UINT32_MAX;
    for (size_t i = 0; i < n && bad == UINT32_MAX; i++)
        if (!can[i])
            bad = (uint32_t)i;
    free(can);
    free(first);
    free(next);
    free(queue);
    return bad;
}

static void search_free(struct search *s)
{
    for (unsigned t = 0; t < s->n_tables; t++) {
        coh_cov_destroy(&s->cov[t]);
        coh_cov_destroy(&s->scratch[t]);
    }
    free(s->cov);
    free(s->scratch);
    free(s->nodes);
    free(s->edge_from);
    free(s->edge_to);
    free(s->seen.keys);
    free(s->seen.node);
    free(s->ser.b);
    free(s->ser.past);
    free(s->path);
    memories_destroy(&s->mem);
}

/* Coverage: cells reached over all tables, the list of cells never reached
 * (and the counts) into the coverage file. */
static void coverage(struct search *s, struct verify_result *res)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = s->o->coverage_file ? open_memstream(&text, &len) : NULL;
    if (s->o->coverage_file && !f)
        panic("out of memory");
    for (unsigned t = 0; t < s->n_tables; t++) {
        const struct coh_table *tb = s->p->tables[t];
        for (unsigned st = 0; st < tb->n_states; st++)
            for (unsigned ev = 0; ev < tb->n_events; ev++) {
                size_t k = (size_t)st * tb->n_events + ev;
                if (coh_cell(tb, st, ev)->kind == COH_UNDEF)
                    continue;
                res->cells_total++;
                if (s->cov[t].hits[k] || s->cov[t].stalls[k])
                    res->cells_reached++;
            }
        if (f)
            coh_cov_print(&s->cov[t], f);
    }
    if (f && (fclose(f) || write_whole(s->o->coverage_file, text, len)))
        fatal("%s: cannot write the coverage", s->o->coverage_file);
    free(text);
}

int verify_run(const struct config *cfg, const struct verify_opts *o, struct verify_result *res,
               FILE *out)
{
    memset(res, 0, sizeof *res);
    struct search s = {.cfg = cfg, .o = o, .p = proto_find(cfg->coherence.protocol)};
    for (const struct coh_table *const *t = s.p->tables; *t; t++)
        s.n_tables++;
    s.cov = calloc(s.n_tables, sizeof *s.cov);
    s.scratch = calloc(s.n_tables, sizeof *s.scratch);
    s.path = malloc((UINT16_MAX + 2) * sizeof *s.path);
    if (!s.cov || !s.scratch || !s.path)
        panic("out of memory");
    for (unsigned t = 0; t < s.n_tables; t++) {
        coh_cov_init(&s.cov[t], s.p->tables[t]);
        coh_cov_init(&s.scratch[t], s.p->tables[t]);
    }
    visited_init(&s.seen, 1u << 12);
    double t0 = wall_seconds_since(0);
    log_set_exit(fault_exit);

    memories_init(&s.mem, cfg->l1.cache.line_bytes);
    struct rig *r = rig_new(cfg, s.p, o, s.scratch, &s.mem);
    settle(r);
    add_node(&s, 0, &(struct vev){0}, 0, quiescent(r));
    visited_put(&s.seen, state_digest(r, &s.ser), 0);
    rig_free(r);

    struct vev evs[MAX_ENABLED];
    int rc = 0;
    for (size_t i = 0; i < s.n_nodes && !res->violation; i++) {
        if (s.n_nodes > o->max_states || search_bytes(&s) > o->max_mem_mb << 20) {
            res->incomplete = true;
            break;
        }
        unsigned depth = path_to(&s, (uint32_t)i);
        r = rig_at(&s, depth);
        unsigned n_ev = enabled(r, evs);
        bool quiet = quiescent(r);
        rig_free(r);
        if (!n_ev && !quiet) {
            r = rig_at(&s, depth);
            report_cex(&s, r, depth,
                       "deadlock: no event is possible, yet requests are unanswered or messages "
                       "undelivered",
                       out, res);
            rig_free(r);
            break;
        }
        for (unsigned k = 0; k < n_ev && !res->violation; k++) {
            r = rig_at(&s, depth);
            cov_reset(&s);
            s.path[depth] = evs[k];
            int code = try_apply(r, &evs[k]);
            if (code) {
                char why[160];
                snprintf(why, sizeof why,
                         "simulator fault (exit %d) in the controllers: its message is on stderr",
                         code);
                fflush(stderr);
                report_cex(&s, r, depth + 1, why, out, res);
                /* a fault stops the controllers mid-action: their structures
                 * may be inconsistent, so the rig is not torn down, only kept
                 * reachable until the process ends (no leak is reported) */
                faulted_rig = r;
                break;
            }
            cov_add(&s);
            bool q = quiescent(r);
            if (q)
                check_quiescent(r);
            if (r->fault[0]) {
                char why[sizeof r->fault];
                strcpy(why, r->fault);
                report_cex(&s, r, depth + 1, why, out, res);
                rig_free(r);
                break;
            }
            struct digest d = state_digest(r, &s.ser);
            uint32_t old = visited_put(&s.seen, d, (uint32_t)s.n_nodes);
            uint32_t to = old;
            if (old == UINT32_MAX) {
                to = (uint32_t)s.n_nodes;
                if (depth + 1 > UINT16_MAX)
                    panic("verify: a path longer than %u events", UINT16_MAX);
                add_node(&s, (uint32_t)i, &evs[k], depth + 1, q);
                if (depth + 1 > res->depth)
                    res->depth = depth + 1;
            }
            add_edge(&s, (uint32_t)i, to);
            rig_free(r);
        }
    }
    log_set_exit(NULL);
    if (!res->violation && !res->incomplete) {
        uint32_t bad = cannot_quiesce(&s);
        if (bad != UINT32_MAX) {
            unsigned depth = path_to(&s, bad);
            r = rig_at(&s, depth);
            report_cex(&s, r, depth,
                       "livelock: from this state no sequence of events answers every request "
                       "and delivers every message",
                       out, res);
            rig_free(r);
        }
    }
    res->states = s.n_nodes;
    res->transitions = s.n_edges;
    res->seconds = wall_seconds_since(t0);
    res->mem_bytes = search_bytes(&s);
    coverage(&s, res);
    char lease_text[128] = "";
    if (profile_of(s.p).logical)
        snprintf(lease_text, sizeof lease_text, ", logical leases 1..%u, %u guard ticks", o->lease,
                 o->ticks);
    else if (profile_of(s.p).unit)
        snprintf(lease_text, sizeof lease_text, ", the EMU waking once a tick");
    else if (profile_of(s.p).timed)
        snprintf(lease_text, sizeof lease_text, ", leases %s%u ticks",
                 profile_of(s.p).rule == RULE_WRITER_FENCE ? "1.." : "of ", o->lease);
    else if (s.p->multi_gpm)
        snprintf(lease_text, sizeof lease_text, ", %u GPU%s x %u GPMs", o->gpus,
                 o->gpus > 1 ? "s" : "", o->l1s / o->gpus);
    if (o->devices[0]) /* Spandex's device mix */
        snprintf(lease_text + strlen(lease_text), sizeof lease_text - strlen(lease_text),
                 ", devices %s", o->devices);
    if (o->scopes) {
        size_t len = strlen(lease_text);
        snprintf(lease_text + len, sizeof lease_text - len, ", scopes%s%s%s",
                 o->scopes & 1 ? " cta" : "", o->scopes & 2 ? " gpu" : "",
                 o->scopes & 4 ? " sys" : "");
    }
    if (res->incomplete)
        fprintf(out,
                "verify %s: STOPPED at the %s bound (%llu states, %.1f MiB): nothing is proven; "
                "raise --max-states / --max-mem or lower --ops\n",
                s.p->name, s.n_nodes > o->max_states ? "state" : "memory",
                (unsigned long long)s.n_nodes, (double)search_bytes(&s) / (1 << 20));
    fprintf(out,
            "verify %-9s %s: %u L1s x %u lines x %u values, %u ops per L1 (%u in flight)%s%s: "
            "%llu states, %llu transitions, depth %u, %.2f s, %.1f MiB, cells reached %u of %u\n",
            s.p->name,
            res->violation    ? "VIOLATION"
            : res->incomplete ? "incomplete"
                              : "verified",
            o->l1s, o->lines, o->values, o->ops, o->inflight,
            o->atomics ? (o->sync ? ", acquire/release" : "")
                       : (o->sync ? ", no atomics, acquire/release" : ", no atomics"),
            lease_text, (unsigned long long)res->states, (unsigned long long)res->transitions,
            res->depth, res->seconds, (double)res->mem_bytes / (1 << 20), res->cells_reached,
            res->cells_total);
    search_free(&s);
    rc = res->violation || res->incomplete;
    return rc;
}

/* ---- counterexample files ---- */

static _Noreturn void bad_line(const char *file, unsigned line, const char *what)
{
    fatal("%s:%u: %s", file, line, what);
}

void verify_read_header(const char *file, char *proto, size_t proto_len, struct verify_opts *o,
                        const char **sets, unsigned max_sets, char *buf, size_t buf_len)
{
    FILE *f = fopen(file, "r");
    if (!f)
        fatal("%s: cannot open the counterexample", file);
    char line[512];
    unsigned ln = 0, got = 0;
    size_t used = 0;
    proto[0] = 0;
    o->n_sets = 0;
    o->devices[0] = 0;
    while (fgets(line, sizeof line, f)) {
        ln++;
        char key[32], val[400];
        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (sscanf(line, "%31s", key) == 1 &&
            (!strcmp(key, "op") || !strcmp(key, "deliver") || !strcmp(key, "tick")))
            break;
        if (sscanf(line, "%31s %399s", key, val) != 2)
            bad_line(file, ln, "expected KEY VALUE");
        unsigned u = 0;
        if (!strcmp(key, "protocol")) {
            snprintf(proto, proto_len, "%s", val);
            got |= 1;
        } else if (!strcmp(key, "devices")) {
            size_t n = strlen(val) + 1;
            if (n > sizeof o->devices)
                bad_line(file, ln, "devices: a list of at most 39 characters");
            memcpy(o->devices, val, n); /* checked: snprintf here warns of truncation */
        } else if (!strcmp(key, "set")) {
            size_t n = strlen(val) + 1;
            if (o->n_sets == max_sets || used + n > buf_len)
                bad_line(file, ln, "too many set lines");
            memcpy(buf + used, val, n);
            sets[o->n_sets++] = buf + used;
            used += n;
        } else if (sscanf(val, "%u", &u) != 1) {
            bad_line(file, ln, "expected a number");
        } else if (!strcmp(key, "l1s") && u >= 1 && u <= V_MAX_L1) {
            o->l1s = u;
            got |= 2;
        } else if (!strcmp(key, "lines") && u >= 1 && u <= V_MAX_LINES) {
            o->lines = u;
            got |= 4;
        } else if (!strcmp(key, "values") && u >= 1 && u <= V_MAX_VALUE) {
            o->values = u;
            got |= 8;
        } else if (!strcmp(key, "ops") && u >= 1 && u <= 255) {
            o->ops = u;
            got |= 16;
        } else if (!strcmp(key, "atomics") && u <= 1) {
            o->atomics = u;
        } else if (!strcmp(key, "sync") && u <= 1) {
            o->sync = u;
        } else if (!strcmp(key, "inflight") && u >= 1 && u <= V_MAX_SLOTS) {
            o->inflight = u;
        } else if (!strcmp(key, "lease") && u >= 1 && u <= VERIFY_MAX_LEASE) {
            o->lease = u;
        } else if (!strcmp(key, "ticks") && u <= VERIFY_MAX_TICKS) {
            o->ticks = u;
        } else if (!strcmp(key, "gpus") && u >= 1 && u <= V_MAX_L1) {
            o->gpus = u;
        } else if (!strcmp(key, "scopes") && u < 8) {
            o->scopes = u;
        } else {
            bad_line(file, ln, "unknown key or value out of range");
        }
    }
    fclose(f);
    if (got != 31)
        fatal("%s:%u: the header needs protocol, l1s, lines, values and ops", file, ln);
    o->sets = sets;
}

static unsigned endpoint(const char *file, unsigned ln, const char *s, unsigned n_l1)
{
    unsigned i;
    if (!strcmp(s, "l2"))
        return 100;
    if (!strcmp(s, "dram"))
        return 101;
    if (!strcmp(s, "emu"))
        return 102;
    if (sscanf(s, "l2[%u]", &i) == 1 && i < n_l1) /* several GPMs: bank i */
        return 200 + i;
    if (sscanf(s, "dram[%u]", &i) == 1 && i < n_l1)
        return 300 + i;
    if (sscanf(s, "l1[%u]", &i) == 1 && i < n_l1)
        return i;
    bad_line(file, ln, "unknown endpoint (l1[N], l2, dram or emu)");
}

int verify_replay(const struct config *cfg, const struct verify_opts *o, const char *file,
                  FILE *out)
{
    const struct proto_desc *p = proto_find(cfg->coherence.protocol);
    unsigned n_tables = 0;
    for (const struct coh_table *const *t = p->tables; *t; t++)
        n_tables++;
    struct coh_cov *cov = calloc(n_tables, sizeof *cov);
    if (!cov)
        panic("out of memory");
    for (unsigned t = 0; t < n_tables; t++)
        coh_cov_init(&cov[t], p->tables[t]);
    FILE *f = fopen(file, "r");
    if (!f)
        fatal("%s: cannot open the counterexample", file);
    struct memories mem;
    memories_init(&mem, cfg->l1.cache.line_bytes);
    struct rig *r = rig_new(cfg, p, o, cov, &mem);
    settle(r);
    coh_trace_out = out;
    char line[256];
    unsigned ln = 0, step = 0;
    while (fgets(line, sizeof line, f) && !r->fault[0]) {
        ln++;
        char kind[16], a[24], b[16];
        unsigned c, k, v;
        struct vev ev = {0};
        if (sscanf(line, "%15s", kind) != 1 ||
            (strcmp(kind, "op") && strcmp(kind, "deliver") && strcmp(kind, "tick")))
            continue; /* the header */
        if (!strcmp(kind, "tick")) {
            if (!r->prof.timed)
                bad_line(file, ln, "tick: this protocol has no time");
            if (!time_can_advance(r))
                bad_line(file, ln,
                         r->prof.logical ? "tick: the --ticks bound is reached, or no L1's clock "
                                           "is within a lease of a time in the state"
                                         : "tick: no lease or wait is running");
            ev.kind = EV_TICK;
        } else if (!strcmp(kind, "op")) {
            if (sscanf(line, "op %u %23s %u %u", &c, a, &k, &v) != 4)
                bad_line(file, ln, "expected: op CORE load|store|atomic|fence LINE VALUE");
            unsigned op = OPK_N, scope = 0;
            char *dot = strrchr(a, '.');
            for (unsigned i = 1; dot && o->scopes && i < 4; i++)
                if (!strcmp(dot + 1, scope_names[i])) {
                    scope = i;
                    *dot = 0;
                }
            for (unsigned i = 0; i < OPK_N; i++)
                if (!strcmp(a, op_names[i]))
                    op = i;
            if (c >= o->l1s || op == OPK_N || k >= o->lines || v > o->values)
                bad_line(file, ln, "core, operation, line or value out of range");
            if (free_slot(r, c) == V_MAX_SLOTS)
                bad_line(file, ln, "the core has --inflight operations in flight");
            ev = (struct vev){EV_OP,      (uint8_t)c, (uint8_t)op,   (uint8_t)k,
                              (uint8_t)v, 0,          (uint8_t)scope};
        } else {
            if (sscanf(line, "deliver %15s %15s %u", a, b, &v) != 3)
                bad_line(file, ln, "expected: deliver SRC DST VNET");
            unsigned s = endpoint(file, ln, a, o->l1s), d = endpoint(file, ln, b, o->l1s);
            unsigned ch;
            if (r->mg && s >= 300 && d == s - 100 && v == 0)
                ch = ch_dram_of(r, s - 300);
            else if (r->mg && s >= 200 && s < 300 && d >= 200 && d < 300 && s != d &&
                     v < r->n_vnets)
                ch = ch_sys(r, s - 200, d - 200, v);
            else if (r->mg && s < 100 && d == 200 + bank_of(r, s) && v < r->n_vnets)
                ch = ch_up(r, s, v);
            else if (r->mg && d < 100 && s == 200 + bank_of(r, d) && v < r->n_vnets)
                ch = ch_down(r, d, v);
            else if (r->mg)
                bad_line(file, ln, "no such channel");
            else if (s == 101 && d == 100 && v == 0)
                ch = ch_dram(r);
            else if (r->unit && s < 100 && d == 102 && v == 0)
                ch = ch_unit_up(r, s);
            else if (r->unit && s == 102 && d < 100 && v == 0)
                ch = ch_unit_down(r, d);
            else if (s < 100 && d == 100 && v < r->n_vnets)
                ch = ch_up(r, s, v);
            else if (s == 100 && d < 100 && v < r->n_vnets)
                ch = ch_down(r, d, v);
            else
                bad_line(file, ln, "no such channel");
            if (!r->ch[ch].n)
                bad_line(file, ln, "nothing in flight on that channel");
            ev = (struct vev){.kind = EV_DELIVER, .ch = (uint16_t)ch};
        }
        char t[64];
        ev_text(r, &ev, t, sizeof t);
        fprintf(out, "step %u: %s\n", ++step, t);
        apply(r, &ev);
    }
    fclose(f);
    if (!r->fault[0] && quiescent(r))
        check_quiescent(r);
    if (!r->fault[0]) {
        struct vev evs[MAX_ENABLED];
        if (!enabled(r, evs) && !quiescent(r))
            fail(r, "deadlock: no event is possible, yet requests are unanswered or messages "
                    "undelivered");
    }
    coh_trace_out = NULL;
    int rc = r->fault[0] != 0;
    if (rc)
        fprintf(out, "replay %s: VIOLATION after %u steps: %s\n", p->name, step, r->fault);
    else
        fprintf(out, "replay %s: %u steps, no violation in the final state\n", p->name, step);
    rig_free(r);
    memories_destroy(&mem);
    for (unsigned t = 0; t < n_tables; t++)
        coh_cov_destroy(&cov[t]);
    free(cov);
    return rc;
}
