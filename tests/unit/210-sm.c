/*
 * 210-sm.c - the SM timing model running real PTX (tests/ptx-sm/sm.ptx)
 * against a fake L1 that serves requests from a backing store with a fixed
 * latency: results, coalescing, release/acquire ordering at exact cycles, CTA
 * placement, occupancy, GTO vs LRR issue order, barriers, atomics,
 * backpressure, kernel begin/end; 64-thread wavefronts (sm.warp_size = 64):
 * lockstep issue of the two PTX warps, warp collectives within each, odd CTAs.
 *
 * Timing of the rig: a request sent by the SM at cycle c is seen by the fake
 * L1 at c + 1 (port latency one cycle); it is performed there and its
 * response reaches the SM at c + 1 + L1_LAT.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/sm.h"
#include "mem/backing.h"
#include "sim/msg.h"
#include "sim/port.h"

#define MAX_SMS 4
#define L1_LAT  20 /* cycles from a request reaching the fake L1 to its response at the SM */
#define MAX_LOG 8192

/* ---- the fake L1: performs each request on arrival, answers L1_LAT later ---- */

struct log_ent {
    uint64_t cycle; /* when the request reached the L1 */
    uint8_t op, sem;
    uint16_t warp;
    addr_t addr;
    uint32_t id;
};

struct fake_l1 {
    struct comp c;
    struct port in;   /* SM -> L1 */
    struct port *out; /* L1 -> SM */
    struct backing *mem;
    unsigned line_bytes;
    struct log_ent *log;
    unsigned n_log;
};

static bool fake_l1_tick(struct comp *c)
{
    struct fake_l1 *f = (struct fake_l1 *)c;
    struct msg *m;
    while ((m = port_peek(&f->in))) {
        port_pop(&f->in);
        assert_int_equal(m->type, MSG_CORE_REQ);
        if (f->n_log < MAX_LOG)
            f->log[f->n_log++] = (struct log_ent){comp_cycle(c), m->req.op, m->req.sem,
                                                  m->req.warp,   m->addr,   m->req.id};
        uint8_t line[LINE_MAX_BYTES];
        switch (m->req.op) {
        case MEM_LOAD:
            backing_read(f->mem, m->addr, m->data, f->line_bytes);
            break;
        case MEM_STORE:
            backing_write_masked(f->mem, m->addr, m->data, m->mask.w, f->line_bytes);
            break;
        case MEM_ATOMIC:
            backing_read(f->mem, m->addr, line, f->line_bytes);
            atom_apply(m->req.atom, line);
            backing_write(f->mem, m->addr, line, f->line_bytes);
            break;
        default: /* fences, kernel begin/end: nothing to do here */
            break;
        }
        m->type = MSG_CORE_RSP;
        assert_true(port_send_delayed(f->out, m, L1_LAT * c->clk->period_ps));
    }
    return false;
}

/* ---- the rig: n SMs, each with its fake L1 ---- */

struct rig {
    struct eng e;
    struct clock clk;
    struct pool msgs;
    struct backing mem;
    struct ptx_module *mod;
    struct sm_spec spec;
    unsigned n_sms;
    struct sm *sm[MAX_SMS];
    struct fake_l1 l1[MAX_SMS];
    struct port from_l1[MAX_SMS];
    struct kernel_run run;
    uint8_t params[256];
};

static char *read_text(const char *path)
{
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    assert_non_null(s);
    assert_int_equal(fread(s, 1, (size_t)n, fp), (size_t)n);
    s[n] = 0;
    fclose(fp);
    return s;
}

static struct ptx_module *load_module(const char *rel)
{
    char path[512], err[512] = "";
    snprintf(path, sizeof path, "%s/%s", GPUCOH_SOURCE_DIR, rel);
    char *text = read_text(path);
    struct ptx_module *mod = ptx_module_parse(text, rel, err, sizeof err);
    if (!mod)
        fail_msg("%s", err);
    free(text);
    return mod;
}

static struct ptx_module *sm_module(void)
{
    static struct ptx_module *mod;
    if (!mod)
        mod = load_module("tests/ptx-sm/sm.ptx");
    return mod;
}

static void spec_defaults(struct sm_spec *s)
{
    memset(s, 0, sizeof *s);
    cfg_defaults(sm_opts, s);
    cfg_defaults(order_opts, &s->order);
}

/* 64-thread wavefronts: 24 wavefront slots, 48 slots of 32-thread PTX warps */
static void spec_wavefronts(struct sm_spec *s)
{
    spec_defaults(s);
    s->warp_size = 64;
    s->warps = 24;
}

/* Build the machine with `spec`; l1_in_cap is the SM->L1 port capacity. */
static void rig_init(struct rig *r, unsigned n_sms, const struct sm_spec *spec, uint32_t l1_in_cap)
{
    static const char *const sm_names[MAX_SMS] = {"sm[0]", "sm[1]", "sm[2]", "sm[3]"};
    memset(r, 0, sizeof *r);
    eng_init(&r->e);
    r->clk = (struct clock){"core", 1000};
    msg_pool_init(&r->msgs);
    backing_init(&r->mem);
    r->mod = sm_module();
    r->spec = *spec;
    r->n_sms = n_sms;
    for (unsigned i = 0; i < n_sms; i++) {
        struct fake_l1 *f = &r->l1[i];
        r->sm[i] = sm_new(&r->e, &r->clk, sm_names[i], spec, 0, i, 128, &r->msgs);
        comp_init(&f->c, &r->e, "l1", &r->clk, fake_l1_tick, NULL);
        port_init(&f->in, "to_l1", l1_in_cap, r->clk.period_ps, sm_comp(r->sm[i]), &f->c);
        port_init(&r->from_l1[i], "from_l1", 1u << 16, 0, &f->c, sm_comp(r->sm[i]));
        f->out = &r->from_l1[i];
        f->mem = &r->mem;
        f->line_bytes = 128;
        f->log = calloc(MAX_LOG, sizeof *f->log);
        sm_connect(r->sm[i], &f->in, &r->from_l1[i]);
    }
}

static void rig_free(struct rig *r)
{
    for (unsigned i = 0; i < r->n_sms; i++) {
        sm_free(r->sm[i]);
        port_destroy(&r->l1[i].in);
        port_destroy(&r->from_l1[i]);
        free(r->l1[i].log);
    }
    backing_destroy(&r->mem);
    pool_destroy(&r->msgs);
    eng_destroy(&r->e);
}

static void on_done(void *obj, struct kernel_run *run)
{
    (void)run;
    eng_stop(obj);
}

/* Run kernel `name` to completion; args are 64-bit values placed at the
 * parameters' offsets with their sizes. Returns the cycles it took. */
static uint64_t rig_launch(struct rig *r, const char *name, unsigned grid, unsigned block,
                           const uint64_t *args, unsigned n_args)
{
    const struct ptx_kernel *k = ptx_module_kernel(r->mod, name);
    assert_non_null(k);
    const struct ptx_kernel_info *ki = ptx_kernel_info(k);
    assert_int_equal(ki->n_params, n_args);
    memset(r->params, 0, sizeof r->params);
    for (unsigned i = 0; i < n_args; i++)
        memcpy(r->params + ki->param_offset[i], &args[i], ki->param_size[i]);
    struct launch l = {k, {grid, 1, 1}, {block, 1, 1}, 0, r->params};
    kernel_run_init(&r->run, &l, r->n_sms);
    r->run.on_done = on_done;
    r->run.done_obj = &r->e;
    uint64_t start = r->e.now / r->clk.period_ps;
    for (unsigned i = 0; i < r->n_sms; i++)
        sm_start_kernel(r->sm[i], &r->run);
    r->e.last_progress = r->e.now;
    eng_run(&r->e, TICK_MAX);
    assert_true(kernel_run_done(&r->run));
    assert_int_equal(r->e.n_outstanding, 0);
    assert_int_equal(r->msgs.n_live, 0); /* every response freed */
    for (unsigned i = 0; i < r->n_sms; i++)
        assert_true(sm_idle(r->sm[i]));
    return r->e.now / r->clk.period_ps - start;
}

static void put32(struct rig *r, addr_t a, const int32_t *v, unsigned n)
{
    backing_write(&r->mem, a, v, 4 * (size_t)n);
}

static int32_t get32(struct rig *r, addr_t a)
{
    int32_t v;
    backing_read(&r->mem, a, &v, 4);
    return v;
}

/* Requests of `op` the fake L1 of SM i saw, in arrival order. */
static unsigned find_reqs(const struct rig *r, unsigned i, unsigned op, const struct log_ent **out,
                          unsigned max)
{
    unsigned n = 0;
    for (unsigned k = 0; k < r->l1[i].n_log && n < max; k++)
        if (r->l1[i].log[k].op == op)
            out[n++] = &r->l1[i].log[k];
    return n;
}

static uint64_t total(const struct rig *r, size_t off)
{
    uint64_t t = 0;
    for (unsigned i = 0; i < r->n_sms; i++)
        t += *(const uint64_t *)((const char *)sm_stats(r->sm[i]) + off);
    return t;
}

#define IN  0x100000ull
#define OUT 0x200000ull
#define AUX 0x300000ull

/* ---- tests ---- */

/* At warp_size 64 each 32-thread half of a wavefront coalesces its own lanes
 * and both halves issue as one instruction. */
static void add1_is_correct_with_one_request_per_warp(void **state)
{
    (void)state;
    for (unsigned ws = 32; ws <= 64; ws += 32) {
        struct sm_spec sp;
        if (ws == 64)
            spec_wavefronts(&sp);
        else
            spec_defaults(&sp);
        struct rig r;
        rig_init(&r, 2, &sp, 64);
        int32_t in[256];
        for (int i = 0; i < 256; i++)
            in[i] = i * 7 - 100;
        put32(&r, IN, in, 256);
        uint64_t args[] = {IN, OUT};
        rig_launch(&r, "add1", 4, 64, args, 2);
        for (int i = 0; i < 256; i++)
            assert_int_equal(get32(&r, OUT + 4 * (addr_t)i), in[i] + 1);
        /* 8 warps, 32 consecutive words each: one line per load and per store */
        assert_int_equal(total(&r, offsetof(struct sm_stats, mem_reqs[MEM_LOAD])), 8);
        assert_int_equal(total(&r, offsetof(struct sm_stats, mem_reqs[MEM_STORE])), 8);
        /* no divergence: one warp instruction per ws threads */
        assert_int_equal(total(&r, offsetof(struct sm_stats, warp_insts)),
                         total(&r, offsetof(struct sm_stats, thread_insts)) / ws);
        assert_int_equal(total(&r, offsetof(struct sm_stats, ctas)), 4);
        /* each SM: KERNEL_BEGIN first, KERNEL_END last */
        for (unsigned i = 0; i < 2; i++) {
            assert_int_equal(r.l1[i].log[0].op, MEM_KERNEL_BEGIN);
            assert_int_equal(r.l1[i].log[r.l1[i].n_log - 1].op, MEM_KERNEL_END);
        }
        rig_free(&r);
    }
}

/* One warp: ld; add.s32 (waits for the load); add.s64; st (waits for both). */
static void add1_store_leaves_at_the_exact_cycle(void **state)
{
    (void)state;
    struct sm_spec sp;
    spec_defaults(&sp);
    struct rig r;
    rig_init(&r, 1, &sp, 64);
    uint64_t args[] = {IN, OUT};
    rig_launch(&r, "add1", 1, 32, args, 2);
    const struct log_ent *ld[4], *st[4];
    assert_int_equal(find_reqs(&r, 0, MEM_LOAD, ld, 4), 1);
    assert_int_equal(find_reqs(&r, 0, MEM_STORE, st, 4), 1);
    uint64_t data_back = ld[0]->cycle + L1_LAT;              /* add.s32 issues */
    uint64_t st_issue = data_back + 1 + sp.lat[PTX_LAT_INT]; /* after add.s64's result */
    assert_int_equal(st[0]->cycle, st_issue + sp.lat[PTX_LAT_GMEM] + 1);
    rig_free(&r);
}

static void stride_makes_one_request_per_lane_one_per_cycle(void **state)
{
    (void)state;
    struct sm_spec sp;
    spec_defaults(&sp);
    struct rig r;
    rig_init(&r, 1, &sp, 64);
    int32_t in[32 * 32];
    for (int i = 0; i < 32 * 32; i++)
        in[i] = i;
    put32(&r, IN, in, 32 * 32);
    uint64_t args[] = {IN, OUT};
    rig_launch(&r, "stride32", 1, 32, args, 2);
    for (int i = 0; i < 32; i++)
        assert_int_equal(get32(&r, OUT + 4 * (addr_t)i), 32 * i);
    const struct log_ent *ld[64];
    assert_int_equal(find_reqs(&r, 0, MEM_LOAD, ld, 64), 32);
    for (unsigned i = 0; i < 32; i++) {
        assert_int_equal(ld[i]->addr, IN + 128 * i);
        assert_int_equal(ld[i]->cycle, ld[0]->cycle + i); /* the memory stage: one per cycle */
    }
    assert_int_equal(sm_stats(r.sm[0])->mem_reqs[MEM_STORE], 1);
    rig_free(&r);
}

static void backpressure_is_retried_and_counted(void **state)
{
    (void)state;
    struct sm_spec sp;
    spec_defaults(&sp);
    struct rig r;
    rig_init(&r, 1, &sp, 1); /* the L1 takes one request at a time */
    int32_t in[32 * 64];
    for (int i = 0; i < 32 * 64; i++)
        in[i] = 3 * i;
    put32(&r, IN, in, 32 * 64);
    uint64_t args[] = {IN, OUT};
    rig_launch(&r, "stride32", 2, 32, args, 2);
    for (int i = 0; i < 64; i++)
        assert_int_equal(get32(&r, OUT + 4 * (addr_t)i), 3 * 32 * i);
    /* a request sent at c is taken at c + 1: the port is full every other cycle */
    assert_true(sm_stats(r.sm[0])->port_full > 0);
    rig_free(&r);
}

/* st.release waits until the four weak stores before it are acknowledged. */
static void release_waits_for_earlier_stores(void **state)
{
    (void)state;
    struct sm_spec sp;
    spec_defaults(&sp);
    struct rig r;
    rig_init(&r, 1, &sp, 64);
    uint64_t args[] = {IN, AUX};
    rig_launch(&r, "release_store", 1, 32, args, 2);
    const struct log_ent *st[8];
    assert_int_equal(find_reqs(&r, 0, MEM_STORE, st, 8), 5);
    for (unsigned i = 0; i < 4; i++) {
        assert_int_equal(st[i]->sem, SEM_WEAK);
        assert_int_equal(st[i]->addr, IN + 128 * i);
    }
    assert_int_equal(st[4]->sem, SEM_RELEASE);
    assert_int_equal(st[4]->addr, AUX);
    /* the weak stores go out without waiting for each other */
    assert_true(st[3]->cycle - st[0]->cycle < L1_LAT);
    /* the release leaves lat_gmem after the last ack reaches the SM */
    assert_int_equal(st[4]->cycle, st[3]->cycle + L1_LAT + sp.lat[PTX_LAT_GMEM] + 1);
    assert_int_equal(get32(&r, AUX), 1);
    assert_int_equal(get32(&r, IN + 384), 4);
    assert_true(sm_stats(r.sm[0])->stall[SM_STALL_ORDER] > 0);
    rig_free(&r);

    /* under SC each store waits for the one before */
    sp.order.model = 2;
    assert_string_equal(order_policy_names[2], "sc");
    rig_init(&r, 1, &sp, 64);
    rig_launch(&r, "release_store", 1, 32, args, 2);
    assert_int_equal(find_reqs(&r, 0, MEM_STORE, st, 8), 5);
    for (unsigned i = 1; i < 5; i++)
        assert_int_equal(st[i]->cycle, st[i - 1]->cycle + L1_LAT + sp.lat[PTX_LAT_GMEM] + 1);
    rig_free(&r);
}

/* The weak load after ld.acquire leaves only once the acquire completed. */
static void later_loads_wait_for_an_acquire(void **state)
{
    (void)state;
    struct sm_spec sp;
    spec_defaults(&sp);
    struct rig r;
    rig_init(&r, 1, &sp, 64);
    int32_t flag = 5, data = 37;
    put32(&r, AUX, &flag, 1);
    put32(&r, IN, &data, 1);
    uint64_t args[] = {AUX, IN, OUT};
    rig_launch(&r, "acquire_load", 1, 32, args, 3);
    assert_int_equal(get32(&r, OUT), 42);
    const struct log_ent *ld[4];
    assert_int_equal(find_reqs(&r, 0, MEM_LOAD, ld, 4), 2);
    assert_int_equal(ld[0]->sem, SEM_ACQUIRE);
    assert_int_equal(ld[0]->addr, AUX);
    assert_int_equal(ld[1]->sem, SEM_WEAK);
    assert_int_equal(ld[1]->cycle, ld[0]->cycle + L1_LAT + sp.lat[PTX_LAT_GMEM] + 1);
    rig_free(&r);
}

static void cta_i_runs_on_sm_i(void **state)
{
    (void)state;
    struct sm_spec sp;
    spec_defaults(&sp);
    struct rig r;
    for (unsigned grid = 3; grid <= 4; grid++) {
        rig_init(&r, 4, &sp, 64);
        uint64_t args[] = {OUT};
        rig_launch(&r, "where", grid, 64, args, 1);
        for (unsigned i = 0; i < grid; i++) {
            assert_int_equal(get32(&r, OUT + 4 * i), i);
            assert_int_equal(sm_stats(r.sm[i])->kernel_ctas, 1);
        }
        if (grid == 3)
            assert_int_equal(sm_stats(r.sm[3])->kernel_ctas, 0);
        rig_free(&r);
    }
    /* more CTAs than SMs: dealt round-robin while they fit */
    rig_init(&r, 4, &sp, 64);
    uint64_t args[] = {OUT};
    rig_launch(&r, "where", 10, 64, args, 1);
    for (unsigned i = 0; i < 10; i++)
        assert_int_equal(get32(&r, OUT + 4 * i), i % 4);
    rig_free(&r);
}

static void occupancy_limits_resident_ctas(void **state)
{
    (void)state;
    struct sm_spec sp;
    spec_defaults(&sp);
    struct rig r;
    uint64_t args[] = {OUT};

    /* 20 KB of shared memory per CTA: two fit in 48 KB */
    rig_init(&r, 1, &sp, 64);
    rig_launch(&r, "bigshmem", 6, 64, args, 1);
    for (unsigned c = 0; c < 6; c++)
        for (unsigned t = 0; t < 64; t++)
            assert_int_equal(get32(&r, OUT + 4 * (c * 64 + t)), (int)((t + 1) % 64 + c));
    assert_int_equal(sm_stats(r.sm[0])->max_ctas_resident, 2);
    assert_int_equal(sm_stats(r.sm[0])->kernel_ctas, 6);
    rig_free(&r);

    /* the CTA limit */
    sp.ctas = 3;
    rig_init(&r, 1, &sp, 64);
    rig_launch(&r, "where", 12, 32, args, 1);
    assert_int_equal(sm_stats(r.sm[0])->max_ctas_resident, 3);
    rig_free(&r);

    /* warps: 4 warps per CTA, 10 slots -> 2 CTAs */
    spec_defaults(&sp);
    sp.warps = 10;
    rig_init(&r, 1, &sp, 64);
    rig_launch(&r, "where", 5, 128, args, 1);
    assert_int_equal(sm_stats(r.sm[0])->max_ctas_resident, 2);
    assert_int_equal(sm_stats(r.sm[0])->max_warps_resident, 8);
    rig_free(&r);

    /* registers, allocated per warp: room for exactly three CTAs */
    const struct ptx_kernel_info *ki = ptx_kernel_info(ptx_module_kernel(sm_module(), "where"));
    assert_true(ki->regs_per_thread > 0);
    spec_defaults(&sp);
    sp.regs = ki->regs_per_thread * 32 * 2 * 3 + 1;
    rig_init(&r, 1, &sp, 64);
    rig_launch(&r, "where", 7, 64, args, 1);
    assert_int_equal(sm_stats(r.sm[0])->max_ctas_resident, 3);
    rig_free(&r);
}

struct trace {
    unsigned n;
    unsigned slot[4096];
    uint64_t cycle[4096];
    uint8_t kind[4096];
};

static void record_issue(void *obj, unsigned sm_id, uint64_t cycle, unsigned slot,
                         const struct ptx_step *step)
{
    (void)sm_id;
    struct trace *t = obj;
    if (t->n < ARRAY_LEN(t->slot)) {
        t->slot[t->n] = slot;
        t->cycle[t->n] = cycle;
        t->kind[t->n++] = (uint8_t)step->kind;
    }
}

static void gto_is_greedy_lrr_rotates(void **state)
{
    (void)state;
    struct sm_spec sp;
    spec_defaults(&sp);
    sp.schedulers = 1;
    static struct trace t;
    struct rig r;
    uint64_t args[] = {OUT, 20};

    sp.sched = SM_SCHED_LRR;
    rig_init(&r, 1, &sp, 64);
    memset(&t, 0, sizeof t);
    sm_set_issue_hook(r.sm[0], record_issue, &t);
    rig_launch(&r, "alu", 1, 128, args, 2);
    assert_true(t.n > 8);
    for (unsigned i = 0; i < 8; i++) /* the first instructions are independent */
        assert_int_equal(t.slot[i], i % 4);
    for (unsigned i = 1; i < t.n; i++) /* one issue per cycle per scheduler */
        assert_true(t.cycle[i] > t.cycle[i - 1]);
    uint64_t lrr_insts = sm_stats(r.sm[0])->warp_insts;
    rig_free(&r);

    sp.sched = SM_SCHED_GTO;
    rig_init(&r, 1, &sp, 64);
    memset(&t, 0, sizeof t);
    sm_set_issue_hook(r.sm[0], record_issue, &t);
    rig_launch(&r, "alu", 1, 128, args, 2);
    /* warp 0 runs until it stalls, then the oldest ready warp (1) takes over */
    unsigned k = 0;
    while (k < t.n && t.slot[k] == 0)
        k++;
    assert_true(k >= 3);
    assert_int_equal(t.slot[k], 1);
    assert_int_equal(sm_stats(r.sm[0])->warp_insts, lrr_insts); /* same work */
    for (int i = 0; i < 128; i++) {
        uint32_t a = (uint32_t)i, b = 1;
        for (int j = 0; j < 20; j++) {
            a = a * 3u + b;
            b ^= a;
        }
        assert_int_equal((uint32_t)get32(&r, OUT + 4 * (addr_t)i), a + b);
    }
    rig_free(&r);
}

/* The `barrier` kernel's output for 2 CTAs of 128 threads and 50 rounds. */
static void barrier_results_are_right(struct rig *r)
{
    for (unsigned c = 0; c < 2; c++)
        for (int i = 0; i < 128; i++) {
            int a = i % 32;
            for (int k = 0; k < 50; k++)
                a = (int)((unsigned)a * 5u + 1u);
            assert_int_equal(get32(r, OUT + 4 * (c * 128 + (addr_t)i)), a);
        }
    assert_int_equal(sm_stats(r->sm[0])->barriers, 2);
}

static void barrier_holds_warps_until_all_arrive(void **state)
{
    (void)state;
    struct sm_spec sp;
    spec_defaults(&sp);
    static struct trace t;
    struct rig r;
    rig_init(&r, 1, &sp, 64);
    memset(&t, 0, sizeof t);
    sm_set_issue_hook(r.sm[0], record_issue, &t);
    uint64_t args[] = {OUT, 50};
    rig_launch(&r, "barrier", 2, 128, args, 2);
    barrier_results_are_right(&r);
    /* per CTA (warps in slots 0-3 and 4-7): no warp issues after its barrier
     * before the last warp of its CTA arrived (a released warp may issue in
     * the cycle of the last arrival, on the other scheduler) */
    for (unsigned c = 0; c < 2; c++) {
        uint64_t last_arrival = 0;
        for (unsigned i = 0; i < t.n; i++)
            if (t.slot[i] / 4 == c && t.kind[i] == PTX_STEP_BARRIER && t.cycle[i] > last_arrival)
                last_arrival = t.cycle[i];
        for (unsigned s = 4 * c; s < 4 * c + 4; s++) {
            bool after = false;
            for (unsigned i = 0; i < t.n; i++) {
                if (t.slot[i] != s)
                    continue;
                if (after)
                    assert_true(t.cycle[i] >= last_arrival);
                if (t.kind[i] == PTX_STEP_BARRIER)
                    after = true;
            }
            assert_true(after);
        }
    }
    assert_true(sm_stats(r.sm[0])->stall[SM_STALL_BARRIER] > 0);
    rig_free(&r);
}

static void atomics_return_unique_old_values(void **state)
{
    (void)state;
    struct sm_spec sp;
    spec_defaults(&sp);
    struct rig r;
    rig_init(&r, 2, &sp, 64);
    uint64_t args[] = {AUX, OUT};
    rig_launch(&r, "count", 4, 64, args, 2);
    assert_int_equal(get32(&r, AUX), 256);
    bool seen[256] = {0};
    for (int i = 0; i < 256; i++) {
        int32_t v = get32(&r, OUT + 4 * (addr_t)i);
        assert_true(v >= 0 && v < 256);
        assert_false(seen[v]);
        seen[v] = true;
    }
    /* one request per warp (all lanes hit one word of one line) */
    assert_int_equal(total(&r, offsetof(struct sm_stats, mem_reqs[MEM_ATOMIC])), 8);
    rig_free(&r);
}

static void many_ctas_and_two_kernels(void **state)
{
    (void)state;
    struct sm_spec sp;
    spec_defaults(&sp);
    sp.ctas = 2;
    struct rig r;
    rig_init(&r, 2, &sp, 64);
    int32_t in[40 * 64];
    for (int i = 0; i < 40 * 64; i++)
        in[i] = i ^ 0x55;
    put32(&r, IN, in, 40 * 64);
    uint64_t a1[] = {IN, OUT};
    rig_launch(&r, "add1", 40, 64, a1, 2);
    uint64_t a2[] = {OUT, AUX};
    rig_launch(&r, "add1", 40, 64, a2, 2);
    for (int i = 0; i < 40 * 64; i++)
        assert_int_equal(get32(&r, AUX + 4 * (addr_t)i), in[i] + 2);
    assert_int_equal(sm_stats(r.sm[0])->kernel_ctas + sm_stats(r.sm[1])->kernel_ctas, 40);
    assert_int_equal(total(&r, offsetof(struct sm_stats, ctas)), 80);
    assert_int_equal(total(&r, offsetof(struct sm_stats, kernels)), 4);
    assert_int_equal(total(&r, offsetof(struct sm_stats, mem_reqs[MEM_KERNEL_BEGIN])), 4);
    assert_int_equal(total(&r, offsetof(struct sm_stats, mem_reqs[MEM_KERNEL_END])), 4);
    rig_free(&r);
}

/* TSO with a store buffer: the second and third stores wait in the buffer
 * (the first is outstanding), the load of the second is served from it and
 * never reaches the L1, the load of a word with one buffered byte waits for
 * the buffer to drain and reads the merged word from memory. Under rmo both
 * loads go to the L1. */
static void tso_store_buffer_forwards_and_drains(void **state)
{
    (void)state;
    struct sm_spec sp;
    spec_defaults(&sp);
    sp.order.model = 1;
    sp.order.store_buffer = 8;
    assert_string_equal(order_policy_names[1], "tso");
    struct rig r;
    int32_t word = 0x11223300;
    uint64_t args[] = {IN, OUT};
    const struct log_ent *ld[4], *st[8];
    rig_init(&r, 1, &sp, 64);
    put32(&r, IN + 256, &word, 1);
    rig_launch(&r, "store_forward", 1, 32, args, 2);
    assert_int_equal(get32(&r, OUT), 8);
    assert_int_equal(get32(&r, OUT + 4), 0x11223305);
    assert_int_equal(get32(&r, IN + 128), 8);
    const struct sm_stats *s = sm_stats(r.sm[0]);
    assert_int_equal(s->sb_forwards, 1);
    assert_true(s->sb_stores >= 2);
    assert_int_equal(s->holds[SM_HOLD_FORWARD], 1);
    assert_int_equal(find_reqs(&r, 0, MEM_LOAD, ld, 4), 1);
    assert_int_equal(ld[0]->addr, IN + 256);
    /* stores reach the L1 in program order, one at a time, and the load
     * after them */
    assert_true(find_reqs(&r, 0, MEM_STORE, st, 8) >= 3);
    assert_int_equal(st[0]->addr, IN);
    assert_int_equal(st[1]->addr, IN + 128);
    assert_int_equal(st[2]->addr, IN + 256);
    assert_true(st[1]->cycle >= st[0]->cycle + L1_LAT);
    assert_true(st[2]->cycle >= st[1]->cycle + L1_LAT);
    assert_true(ld[0]->cycle > st[2]->cycle);
    rig_free(&r);

    sp.order.model = 0; /* rmo: both loads go to the L1, nothing is buffered */
    rig_init(&r, 1, &sp, 64);
    put32(&r, IN + 256, &word, 1);
    rig_launch(&r, "store_forward", 1, 32, args, 2);
    assert_int_equal(get32(&r, OUT), 8);
    assert_int_equal(get32(&r, OUT + 4), 0x11223305);
    assert_int_equal(find_reqs(&r, 0, MEM_LOAD, ld, 4), 2);
    assert_int_equal(sm_stats(r.sm[0])->sb_stores, 0);
    assert_int_equal(sm_stats(r.sm[0])->sb_forwards, 0);
    rig_free(&r);

    /* naive TSO (no buffer): the second store holds the warp until the
     * first completes, and nothing is forwarded */
    sp.order.model = 1;
    sp.order.store_buffer = 0;
    rig_init(&r, 1, &sp, 64);
    put32(&r, IN + 256, &word, 1);
    rig_launch(&r, "store_forward", 1, 32, args, 2);
    assert_int_equal(get32(&r, OUT), 8);
    assert_int_equal(get32(&r, OUT + 4), 0x11223305);
    assert_int_equal(find_reqs(&r, 0, MEM_LOAD, ld, 4), 2);
    assert_int_equal(sm_stats(r.sm[0])->sb_stores, 0);
    assert_true(sm_stats(r.sm[0])->holds[SM_HOLD_ORDER] >= 2);
    rig_free(&r);
}

/* Under sc and tso a shared-memory store and a barrier wait until the warp's
 * global stores completed (they take effect at issue); under sc the fence
 * between them is not sent. Under rmo nothing waits and the fence is sent. */
static void shared_accesses_wait_under_strong_models(void **state)
{
    (void)state;
    static const struct {
        unsigned model;
        bool waits, fence_sent;
    } cases[] = {{0, false, true}, {1, true, true}, {2, true, false}};
    for (unsigned c = 0; c < 6; c++) { /* each case with warps, then with wavefronts */
        struct sm_spec sp;
        if (c < 3)
            spec_defaults(&sp);
        else
            spec_wavefronts(&sp);
        sp.order.model = cases[c % 3].model;
        sp.order.store_buffer = 8;
        struct rig r;
        rig_init(&r, 1, &sp, 64);
        uint64_t args[] = {IN, OUT};
        rig_launch(&r, "shared_after_global", 1, 32, args, 2);
        for (int i = 0; i < 32; i++) {
            assert_int_equal(get32(&r, OUT + 4 * (addr_t)i), 32 - i);
            assert_int_equal(get32(&r, IN + 128 * (addr_t)i), i);
        }
        const struct sm_stats *s = sm_stats(r.sm[0]);
        const struct log_ent *f[2];
        if (cases[c % 3].waits) {
            assert_true(s->holds[SM_HOLD_CTA] >= 1);
            assert_true(s->hold_cycles[SM_HOLD_CTA] >= L1_LAT);
        } else {
            assert_int_equal(s->holds[SM_HOLD_CTA], 0);
        }
        assert_int_equal(find_reqs(&r, 0, MEM_FENCE, f, 2), cases[c % 3].fence_sent ? 1 : 0);
        assert_int_equal(s->fences_elided, cases[c % 3].fence_sent ? 0 : 1);
        rig_free(&r);
    }
}

/* ---- wavefronts (sm.warp_size = 64) ---- */

/* tests/ptx/diverge.ptx `votes`: ballot, all, any, activemask under a branch
 * that splits each PTX warp, and a butterfly shuffle. With 64-thread
 * wavefronts these still act within each 32-thread PTX warp (what the PTX
 * means); 96-thread CTAs leave the second wavefront half empty. */
static void wavefront_collectives_act_per_ptx_warp(void **state)
{
    (void)state;
    static struct ptx_module *mod;
    if (!mod)
        mod = load_module("tests/ptx/diverge.ptx");
    uint64_t insts[2], threads[2];
    for (unsigned wide = 0; wide < 2; wide++) {
        struct sm_spec sp;
        if (wide)
            spec_wavefronts(&sp);
        else
            spec_defaults(&sp);
        struct rig r;
        rig_init(&r, 1, &sp, 64);
        r.mod = mod;
        uint64_t args[] = {OUT};
        rig_launch(&r, "votes", 3, 96, args, 1);
        for (unsigned c = 0; c < 3; c++)
            for (unsigned t = 0; t < 96; t++) {
                unsigned lane = t & 31, base = t - lane;
                unsigned b = 0xaaaaaaaau, all = 1, any = base == 0;
                unsigned am = (t & 4) ? 0xf0f0f0f0u : 0, sh = (base + (lane ^ 5)) * 3;
                assert_int_equal((uint32_t)get32(&r, OUT + 4 * (addr_t)t),
                                 b ^ (all << 1) ^ (any << 2) ^ am ^ sh);
            }
        const struct sm_stats *s = sm_stats(r.sm[0]);
        assert_int_equal(s->ctas, 3);
        insts[wide] = s->warp_insts;
        threads[wide] = s->thread_insts;
        rig_free(&r);
    }
    assert_int_equal(threads[1], threads[0]);
    /* 9 PTX warps as 6 wavefronts, 3 of them half empty: the full ones issue
     * once for both halves, the branch paths of each half one at a time */
    assert_true(insts[1] < insts[0]);
    assert_true(insts[1] * 3 >= insts[0] * 2);
}

/* 2 CTAs of two wavefronts meet at bar.sync 50 times. */
static void wavefronts_meet_at_barriers(void **state)
{
    (void)state;
    struct sm_spec sp;
    spec_wavefronts(&sp);
    struct rig r;
    rig_init(&r, 1, &sp, 64);
    uint64_t args[] = {OUT, 50};
    rig_launch(&r, "barrier", 2, 128, args, 2);
    barrier_results_are_right(&r);
    rig_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(add1_is_correct_with_one_request_per_warp),
        cmocka_unit_test(add1_store_leaves_at_the_exact_cycle),
        cmocka_unit_test(stride_makes_one_request_per_lane_one_per_cycle),
        cmocka_unit_test(backpressure_is_retried_and_counted),
        cmocka_unit_test(release_waits_for_earlier_stores),
        cmocka_unit_test(later_loads_wait_for_an_acquire),
        cmocka_unit_test(cta_i_runs_on_sm_i),
        cmocka_unit_test(occupancy_limits_resident_ctas),
        cmocka_unit_test(gto_is_greedy_lrr_rotates),
        cmocka_unit_test(barrier_holds_warps_until_all_arrive),
        cmocka_unit_test(atomics_return_unique_old_values),
        cmocka_unit_test(many_ctas_and_two_kernels),
        cmocka_unit_test(tso_store_buffer_forwards_and_drains),
        cmocka_unit_test(shared_accesses_wait_under_strong_models),
        cmocka_unit_test(wavefront_collectives_act_per_ptx_warp),
        cmocka_unit_test(wavefronts_meet_at_barriers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
