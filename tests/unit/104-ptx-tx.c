/*
 * 104-ptx-tx.c - transactions in the interpreter (docs/transactions.md): the
 * markers of include/gpucoh_tx.cuh as nvcc leaves them (tests/ptx/tx.cu), the
 * Transaction and Retry entries of the SIMT stack, intra-warp conflict
 * detection, the redo log (a lane reads its own writes; memory sees them only
 * when the harness applies a commit), aborts from outside with registers
 * restored for the retry, and the constructs a transaction may not contain.
 * One warp only: the harness detects no conflicts between warps.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "../ptx/harness.h"

#define HDR                                                                                        \
    ".version 9.0\n.target sm_75\n.address_size 64\n"                                              \
    ".func gpucoh_tx_begin()\n{\nret;\n}\n.func gpucoh_tx_commit()\n{\nret;\n}\n"

static struct hx_rig *rig_new(const char *file, const char *text)
{
    struct hx_rig *r = hx_rig_new(file, text, 1 << 16);
    if (!r->m)
        fail_msg("%s", r->err);
    return r;
}

static const struct ptx_kernel *kern(struct hx_rig *r, const char *name)
{
    const struct ptx_kernel *k = ptx_module_kernel(r->m, name);
    assert_non_null(k);
    return k;
}

#define PTR(r, a, T) ((T *)hx_ptr(&(r)->g, (a)))

/* One warp stepped by hand against r->g: every attempt's end is recorded. */
struct drv {
    struct hx_rig *r;
    struct ptx_cta *c;
    struct ptx_warp *w;
    struct ptx_step s;
    uint64_t res[32][2];
    uint64_t cyc;
    uint32_t committed[64], aborted[64];
    uint32_t n_log[64];
    unsigned n_ends;
};

static void drv_start(struct drv *d, struct hx_rig *r, const struct ptx_kernel *k,
                      const struct hx_params *p)
{
    memset(d, 0, sizeof *d);
    d->r = r;
    d->c = ptx_cta_new(k, (struct ptx_dim3){0, 0, 0}, (struct ptx_dim3){1, 1, 1},
                       (struct ptx_dim3){32, 1, 1}, p->buf, 0);
    d->w = ptx_warp_new(d->c, 0);
    assert_non_null(d->w);
}

static void drv_end(struct drv *d)
{
    ptx_warp_free(d->w);
    ptx_cta_free(d->c);
}

/* Step once; returns the step's kind, or -1 with the error in r->err. */
static int drv_step(struct drv *d)
{
    struct ptx_env env = {0, 1, 0, d->cyc, 0, NULL};
    if (ptx_warp_step(d->w, &env, &d->s, d->r->err, sizeof d->r->err))
        return -1;
    if (d->s.kind == PTX_STEP_MEM) {
        if (hx_memop(&d->r->g, &d->s.mem, d->res, d->r->err, sizeof d->r->err))
            fail_msg("%s", d->r->err);
        ptx_warp_complete(d->w, &d->s.mem, (const uint64_t(*)[2])d->res, d->cyc);
    } else if (d->s.kind == PTX_STEP_TX_END) {
        assert_true(d->n_ends < 64);
        d->committed[d->n_ends] = d->s.tx.committed;
        d->aborted[d->n_ends] = d->s.tx.aborted;
        d->n_log[d->n_ends] = d->s.tx.n_log;
        d->n_ends++;
        hx_tx_end(&d->r->g, &d->s.tx);
    }
    d->cyc += 100;
    return (int)d->s.kind;
}

static void drv_run(struct drv *d)
{
    while (!ptx_warp_done(d->w))
        if (drv_step(d) < 0)
            fail_msg("%s", d->r->err);
}

/* 32 lanes increment one counter: every lane reads it, so every store but
 * lane 0's conflicts with an earlier read of another lane and aborts; each
 * attempt commits the lowest lane left. */
static void counter_serialises_through_intra_warp_aborts(void **state)
{
    (void)state;
    struct hx_rig *r = rig_new("tests/ptx/tx.ptx", NULL);
    const struct ptx_kernel *k = kern(r, "tx_counter");
    addr_t counter = hx_alloc(&r->g, 4), seen = hx_alloc(&r->g, 4 * 32);
    *PTR(r, counter, int32_t) = 0;
    struct hx_params p = {0};
    hx_param(&p, k, counter);
    hx_param(&p, k, seen);
    if (hx_run(k, (struct ptx_dim3){1, 1, 1}, (struct ptx_dim3){32, 1, 1}, p.buf, 0, &r->g, &r->st,
               r->err, sizeof r->err))
        fail_msg("%s", r->err);
    assert_int_equal(*PTR(r, counter, int32_t), 32);
    for (int l = 0; l < 32; l++)
        assert_int_equal(PTR(r, seen, int32_t)[l], l);
    assert_int_equal(r->st.tx_attempts, 32);
    assert_int_equal(r->st.tx_commits, 32);
    assert_int_equal(r->st.tx_aborts, 31 * 32 / 2);
    hx_rig_free(r);
}

/* Transfers between 8 accounts with a branch inside the transaction: the
 * final accounts and the per-thread outcomes equal a serial run of the
 * committed transactions in commit order, and the total is unchanged. */
static void transfer_equals_serial_replay_of_commit_order(void **state)
{
    (void)state;
    struct hx_rig *r = rig_new("tests/ptx/tx.ptx", NULL);
    const struct ptx_kernel *k = kern(r, "tx_transfer");
    enum { N = 8, AMOUNT = 30, START = 50 };
    addr_t acct = hx_alloc(&r->g, 4 * N), moved = hx_alloc(&r->g, 4 * 32);
    for (int a = 0; a < N; a++)
        PTR(r, acct, int32_t)[a] = START;
    struct hx_params p = {0};
    hx_param(&p, k, acct);
    hx_param(&p, k, (uint64_t)N);
    hx_param(&p, k, (uint64_t)AMOUNT);
    hx_param(&p, k, moved);
    struct drv d;
    drv_start(&d, r, k, &p);
    drv_run(&d);
    int32_t ref[N], ref_moved[32];
    for (int a = 0; a < N; a++)
        ref[a] = START;
    uint32_t done = 0;
    for (unsigned e = 0; e < d.n_ends; e++) {
        assert_int_equal(d.committed[e] & done, 0); /* a lane commits once */
        assert_int_equal(d.committed[e] & d.aborted[e], 0);
        done |= d.committed[e];
        for (uint32_t m = d.committed[e]; m; m &= m - 1) {
            int t = __builtin_ctz(m), from = (t * 7 + 3) % N, to = (t * 5 + 1) % N;
            ref_moved[t] = 0;
            if (ref[from] >= AMOUNT && from != to) {
                ref[from] -= AMOUNT;
                ref[to] += AMOUNT;
                ref_moved[t] = 1;
            }
        }
    }
    assert_int_equal(done, 0xffffffffu);
    assert_true(d.n_ends > 1); /* some lanes conflicted */
    int32_t total = 0;
    for (int a = 0; a < N; a++) {
        assert_int_equal(PTR(r, acct, int32_t)[a], ref[a]);
        total += ref[a];
    }
    assert_int_equal(total, N * START);
    for (int t = 0; t < 32; t++)
        assert_int_equal(PTR(r, moved, int32_t)[t], ref_moved[t]);
    drv_end(&d);
    hx_rig_free(r);
}

static const char *const ABORTED = HDR ".visible .entry k(.param .u64 p)\n{\n"
                                       ".reg .b32 %r<6>;\n.reg .b64 %rd<4>;\n"
                                       "ld.param.u64 %rd1, [p];\n"
                                       "mov.u32 %r1, %laneid;\n"
                                       "mul.wide.u32 %rd2, %r1, 4;\n"
                                       "add.s64 %rd3, %rd1, %rd2;\n"
                                       "mov.u32 %r2, 100;\n"
                                       "{\ncall.uni gpucoh_tx_begin, ();\n}\n"
                                       "add.u32 %r2, %r2, 1;\n"
                                       "ld.global.u32 %r3, [%rd3];\n"
                                       "add.u32 %r4, %r3, %r2;\n"
                                       "st.global.u32 [%rd3], %r4;\n"
                                       "ld.global.u32 %r5, [%rd3];\n"
                                       "st.global.u32 [%rd3+128], %r5;\n"
                                       "call.uni gpucoh_tx_commit, ();\n"
                                       "ret;\n}\n";

/* Lanes 0-15 are aborted from outside after their first store: the rest
 * commit; the aborted lanes retry with the registers of the begin (r2 = 100,
 * not 101), so every lane ends with slot = l + 101. A transactional store
 * leaves memory alone until the commit, and a later load of the lane sees it
 * through the redo log. */
static void abort_from_outside_restores_registers_and_retries(void **state)
{
    (void)state;
    struct hx_rig *r = rig_new("t.ptx", ABORTED);
    const struct ptx_kernel *k = kern(r, "k");
    addr_t slot = hx_alloc(&r->g, 4 * 64);
    for (int l = 0; l < 32; l++)
        PTR(r, slot, int32_t)[l] = l;
    struct hx_params p = {0};
    hx_param(&p, k, slot);
    struct drv d;
    drv_start(&d, r, k, &p);
    int kind, stores = 0;
    bool began = false;
    while ((kind = drv_step(&d)) != PTX_STEP_TX_END) {
        assert_int_not_equal(kind, -1);
        if (kind == PTX_STEP_TX_BEGIN) {
            began = true;
            assert_true(ptx_warp_in_tx(d.w));
        }
        if (kind == PTX_STEP_MEM && d.s.mem.op == MEM_STORE) {
            assert_true(d.s.mem.tx);
            for (int l = 0; l < 32; l++) /* not in memory before the commit */
                assert_int_equal(PTR(r, slot, int32_t)[l], l);
            if (stores++ == 0) {
                assert_int_equal(d.s.mem.mask, 0xffffffffu);
                ptx_warp_tx_abort(d.w, 0x0000ffffu);
            } else {
                assert_int_equal(d.s.mem.mask, 0xffff0000u);
                for (int l = 16; l < 32; l++) /* read its own write */
                    assert_int_equal(d.s.mem.data[l][0], (uint64_t)(l + 101));
            }
        }
    }
    assert_true(began);
    assert_int_equal(d.s.tx.committed, 0xffff0000u);
    assert_int_equal(d.s.tx.aborted, 0x0000ffffu);
    assert_int_equal(d.s.tx.n_log, 32 + 32 + 16 + 16);
    for (uint32_t e = 0; e < d.s.tx.n_log; e++) {
        const struct ptx_tx_access *a = &d.s.tx.log[e];
        if (a->write && a->lane < 16) /* an aborted lane's write, to clean up */
            assert_int_equal(a->data[0], (uint64_t)(a->lane + 101));
    }
    assert_true(ptx_warp_in_tx(d.w)); /* the retry */
    drv_run(&d);
    assert_false(ptx_warp_in_tx(d.w));
    assert_int_equal(d.n_ends, 2);
    assert_int_equal(d.committed[1], 0x0000ffffu);
    assert_int_equal(d.aborted[1], 0);
    for (int l = 0; l < 32; l++) {
        assert_int_equal(PTR(r, slot, int32_t)[l], l + 101);
        assert_int_equal(PTR(r, slot, int32_t)[32 + l], l + 101);
    }
    drv_end(&d);
    hx_rig_free(r);
}

/* Every lane aborted: the attempt ends without a commit and all retry. */
static void all_lanes_aborted_end_the_attempt(void **state)
{
    (void)state;
    struct hx_rig *r = rig_new("t.ptx", ABORTED);
    const struct ptx_kernel *k = kern(r, "k");
    addr_t slot = hx_alloc(&r->g, 4 * 64);
    struct hx_params p = {0};
    hx_param(&p, k, slot);
    struct drv d;
    drv_start(&d, r, k, &p);
    int kind;
    while ((kind = drv_step(&d)) != PTX_STEP_MEM || d.s.mem.op != MEM_STORE)
        assert_int_not_equal(kind, -1);
    ptx_warp_tx_abort(d.w, 0xffffffffu);
    assert_int_equal(ptx_warp_issue_cycle(d.w), 0);
    assert_int_equal(drv_step(&d), PTX_STEP_TX_END);
    assert_int_equal(d.s.tx.committed, 0);
    assert_int_equal(d.s.tx.aborted, 0xffffffffu);
    drv_run(&d);
    assert_int_equal(d.n_ends, 2);
    for (int l = 0; l < 32; l++)
        assert_int_equal(PTR(r, slot, int32_t)[l], 101);
    drv_end(&d);
    hx_rig_free(r);
}

/* What a transaction may not contain fails with the line and the reason. */
static void forbidden_constructs_are_errors(void **state)
{
    (void)state;
    static const struct {
        const char *body, *want;
    } cases[] = {
        {"call.uni gpucoh_tx_begin, ();\ncall.uni gpucoh_tx_begin, ();\n", "nested transactions"},
        {"call.uni gpucoh_tx_begin, ();\natom.global.add.u32 %r1, [%rd1], 1;\n",
         "atomic inside a transaction"},
        {"call.uni gpucoh_tx_begin, ();\nexit;\n", "exit inside a transaction"},
        {"call.uni gpucoh_tx_commit, ();\n", "commit outside a transaction"},
        {"call.uni gpucoh_tx_begin, ();\nmov.u32 %r1, %laneid;\nsetp.eq.u32 %p1, %r1, 0;\n"
         "@%p1 bra L;\ncall.uni gpucoh_tx_commit, ();\nL:\ncall.uni gpucoh_tx_commit, ();\n",
         "part of a diverged warp"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        char text[2048];
        snprintf(text, sizeof text,
                 HDR ".visible .entry k(.param .u64 p)\n{\n.reg .pred %%p<2>;\n"
                     ".reg .b32 %%r<4>;\n.reg .b64 %%rd<2>;\nld.param.u64 %%rd1, [p];\n%s"
                     "ret;\n}\n",
                 cases[c].body);
        struct hx_rig *r = rig_new("t.ptx", text);
        const struct ptx_kernel *k = kern(r, "k");
        addr_t slot = hx_alloc(&r->g, 64);
        struct hx_params p = {0};
        hx_param(&p, k, slot);
        int rc = hx_run(k, (struct ptx_dim3){1, 1, 1}, (struct ptx_dim3){32, 1, 1}, p.buf, 0, &r->g,
                        &r->st, r->err, sizeof r->err);
        assert_int_equal(rc, -1);
        if (!strstr(r->err, cases[c].want) || !strstr(r->err, "t.ptx:"))
            fail_msg("case %zu: '%s' does not say '%s'", c, r->err, cases[c].want);
        hx_rig_free(r);
    }
    char err[512];
    struct ptx_module *m = ptx_module_parse(
        HDR ".visible .entry k()\n{\n.param .b32 a;\ncall.uni gpucoh_tx_begin, (a);\nret;\n}\n",
        "t.ptx", err, sizeof err);
    assert_null(m);
    assert_non_null(strstr(err, "takes no arguments"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(counter_serialises_through_intra_warp_aborts),
        cmocka_unit_test(transfer_equals_serial_replay_of_commit_order),
        cmocka_unit_test(abort_from_outside_restores_registers_and_retries),
        cmocka_unit_test(all_lanes_aborted_end_the_attempt),
        cmocka_unit_test(forbidden_constructs_are_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
