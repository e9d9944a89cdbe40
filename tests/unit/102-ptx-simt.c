/*
 * 102-ptx-simt.c - SIMT details on hand-written PTX: per-lane results and
 * active masks through divergence and reconvergence, ret from a divergent
 * device function, the scoreboard (ALU latency, loads pending until
 * ptx_warp_complete), how memory operations are handed out (semantics and
 * scope mapping, fences, generic accesses split between shared and global
 * lanes) and run-time faults.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "../ptx/harness.h"

#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n"

static struct ptx_module *parse_ok(const char *text)
{
    char err[512];
    struct ptx_module *m = ptx_module_parse(text, "s.ptx", err, sizeof err);
    if (!m)
        fail_msg("%s", err);
    return m;
}

static const char *const DIVERGE = HDR ".visible .entry k(.param .u64 out)\n{\n"
                                       ".reg .pred %p<4>;\n.reg .b32 %r<10>;\n.reg .b64 %rd<4>;\n"
                                       "ld.param.u64 %rd1, [out];\n"
                                       "mov.u32 %r1, %laneid;\n"
                                       "and.b32 %r2, %r1, 1;\n"
                                       "setp.eq.u32 %p1, %r2, 0;\n"
                                       "@%p1 bra EVEN;\n"
                                       "mul.lo.u32 %r3, %r1, 3;\n"
                                       "and.b32 %r4, %r1, 2;\n"
                                       "setp.ne.u32 %p2, %r4, 0;\n"
                                       "@%p2 bra SKIP;\n"
                                       "add.u32 %r3, %r3, 100;\n"
                                       "activemask.b32 %r6;\n"
                                       "SKIP:\n"
                                       "bra.uni JOIN;\n"
                                       "EVEN:\n"
                                       "mul.lo.u32 %r3, %r1, 5;\n"
                                       "activemask.b32 %r6;\n"
                                       "JOIN:\n"
                                       "activemask.b32 %r5;\n"
                                       "mul.wide.u32 %rd2, %r1, 16;\n"
                                       "add.s64 %rd3, %rd1, %rd2;\n"
                                       "st.global.v2.u32 [%rd3], {%r3, %r5};\n"
                                       "st.global.u32 [%rd3+8], %r6;\n"
                                       "ret;\n}\n";

static void divergence_reconverges_with_per_lane_results(void **state)
{
    (void)state;
    struct ptx_module *m = parse_ok(DIVERGE);
    struct hx_gmem g = {calloc(1, 4096), 4096, 0};
    addr_t out = hx_alloc(&g, 16 * 32);
    const struct ptx_kernel *k = ptx_module_kernel(m, "k");
    struct hx_params p = {0};
    hx_param(&p, k, out);
    struct hx_stats st = {0};
    char err[512];
    if (hx_run(k, (struct ptx_dim3){1, 1, 1}, (struct ptx_dim3){32, 1, 1}, p.buf, 0, &g, &st, err,
               sizeof err))
        fail_msg("%s", err);
    const uint32_t *o = hx_ptr(&g, out);
    for (unsigned l = 0; l < 32; l++) {
        unsigned want = (l & 1) ? 3 * l + ((l & 2) ? 0 : 100) : 5 * l;
        assert_int_equal(o[l * 4], want);
        assert_int_equal(o[l * 4 + 1], 0xffffffffu); /* reconverged */
        unsigned inner = (l & 1) == 0 ? 0x55555555u : (l & 2) ? 0 : 0x22222222u;
        assert_int_equal(o[l * 4 + 2], inner); /* mask inside */
    }
    free(g.bytes);
    ptx_module_free(m);
}

/* Step one warp to the end against g, each instruction at its first issue
 * cycle; returns its warp instructions, and the cycle of the last in *end. */
static unsigned run_warp(struct ptx_warp *w, struct hx_gmem *g, uint64_t *end)
{
    static const uint32_t lat[PTX_LAT_N] = {1, 2, 3, 4, 5, 6, 7, 8};
    struct ptx_env env = {.lat = lat};
    struct ptx_step s;
    uint64_t res[32][2];
    char err[256];
    unsigned n = 0;
    for (uint64_t cycle = 1; !ptx_warp_done(w); cycle++) {
        uint64_t at = ptx_warp_issue_cycle(w);
        assert_true(at != UINT64_MAX);
        assert_true(ptx_warp_can_issue(w, at));
        assert_true(at == 0 || !ptx_warp_can_issue(w, at - 1));
        if (at > cycle)
            cycle = at;
        env.clock = cycle;
        if (ptx_warp_step(w, &env, &s, err, sizeof err))
            fail_msg("%s", err);
        *end = cycle;
        n++;
        if (s.kind == PTX_STEP_MEM) {
            if (hx_memop(g, &s.mem, res, err, sizeof err))
                fail_msg("%s", err);
            ptx_warp_complete(w, &s.mem, (const uint64_t(*)[2])res, cycle + 3);
        }
    }
    return n;
}

static const char *const EARLY_RET = HDR ".func (.param .b32 rv) f(.param .b32 a)\n{\n"
                                         ".reg .pred %p<2>;\n.reg .b32 %r<4>;\n"
                                         "ld.param.u32 %r1, [a];\n"
                                         "mov.u32 %r2, 7;\n"
                                         "st.param.b32 [rv], %r2;\n"
                                         "setp.lt.u32 %p1, %r1, 10;\n"
                                         "@%p1 ret;\n"
                                         "mul.lo.u32 %r3, %r1, %r1;\n"
                                         "st.param.b32 [rv], %r3;\n"
                                         "ret;\n}\n"
                                         ".visible .entry k(.param .u64 out)\n{\n"
                                         ".reg .pred %p<2>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"
                                         "ld.param.u64 %rd1, [out];\n"
                                         "mov.u32 %r1, %tid.x;\n"
                                         "setp.gt.u32 %p1, %r1, 27;\n"
                                         "@%p1 exit;\n"
                                         "{ .param .b32 p0; .param .b32 r0;\n"
                                         "st.param.b32 [p0], %r1;\n"
                                         "call.uni (r0), f, (p0);\n"
                                         "ld.param.b32 %r2, [r0]; }\n"
                                         "activemask.b32 %r3;\n"
                                         "mul.wide.u32 %rd2, %r1, 8;\n"
                                         "add.s64 %rd3, %rd1, %rd2;\n"
                                         "st.global.v2.u32 [%rd3], {%r2, %r3};\n"
                                         "ret;\n}\n";

static void renewed_warp_runs_like_a_new_one(void **state);
static void fma_f32_matches_fmaf_bit_for_bit(void **state);

static void divergent_return_and_exit(void **state)
{
    (void)state;
    struct ptx_module *m = parse_ok(EARLY_RET);
    struct hx_gmem g = {calloc(1, 4096), 4096, 0};
    addr_t out = hx_alloc(&g, 8 * 32);
    memset(hx_ptr(&g, out), 0xee, 8 * 32);
    const struct ptx_kernel *k = ptx_module_kernel(m, "k");
    struct hx_params p = {0};
    hx_param(&p, k, out);
    struct hx_stats st = {0};
    char err[512];
    if (hx_run(k, (struct ptx_dim3){1, 1, 1}, (struct ptx_dim3){32, 1, 1}, p.buf, 0, &g, &st, err,
               sizeof err))
        fail_msg("%s", err);
    const uint32_t *o = hx_ptr(&g, out);
    for (unsigned l = 0; l < 32; l++) {
        if (l > 27) {
            assert_int_equal(o[l * 2], 0xeeeeeeeeu);
            continue;
        }
        assert_int_equal(o[l * 2], l < 10 ? 7 : l * l);
        assert_int_equal(o[l * 2 + 1], 0x0fffffffu); /* all non-exited lanes back together */
    }
    free(g.bytes);
    ptx_module_free(m);
}

/* A warp renewed after running another kernel (calls, frames, dirty
 * registers and scoreboard) behaves exactly as a new warp: same stores, same
 * instruction count, and at every step its first issue cycle is the first
 * cycle ptx_warp_can_issue allows (checked inside run_warp). */
static void renewed_warp_runs_like_a_new_one(void **state)
{
    (void)state;
    struct ptx_module *m1 = parse_ok(EARLY_RET), *m2 = parse_ok(DIVERGE);
    const struct ptx_kernel *k1 = ptx_module_kernel(m1, "k"), *k2 = ptx_module_kernel(m2, "k");
    struct hx_gmem g1 = {calloc(1, 4096), 4096, 0}, g2 = {calloc(1, 4096), 4096, 0};
    addr_t out1 = hx_alloc(&g1, 16 * 32), out2 = hx_alloc(&g2, 16 * 32);
    struct hx_params p1 = {0}, p2 = {0};
    hx_param(&p1, k1, out1);
    hx_param(&p2, k2, out2);
    struct ptx_dim3 one = {1, 1, 1}, warp = {32, 1, 1}, zero = {0, 0, 0};

    /* the reference: a new warp runs DIVERGE */
    struct ptx_cta *c2 = ptx_cta_new(k2, zero, one, warp, p2.buf, 0);
    struct ptx_warp *fresh = ptx_warp_new(c2, 0);
    uint64_t end_fresh = 0, end;
    unsigned n_fresh = run_warp(fresh, &g2, &end_fresh);
    uint8_t want[16 * 32];
    memcpy(want, hx_ptr(&g2, out2), sizeof want);
    ptx_warp_free(fresh);
    ptx_cta_free(c2);

    /* a warp that ran EARLY_RET first, renewed for DIVERGE */
    struct ptx_cta *c1 = ptx_cta_new(k1, zero, one, warp, p1.buf, 0);
    struct ptx_warp *w = ptx_warp_new(c1, 0);
    run_warp(w, &g1, &end);
    assert_true(ptx_warp_done(w));
    memset(hx_ptr(&g2, out2), 0, sizeof want);
    c2 = ptx_cta_new(k2, zero, one, warp, p2.buf, 0);
    assert_true(ptx_warp_renew(w, c2, 0));
    assert_false(ptx_warp_done(w));
    assert_int_equal(run_warp(w, &g2, &end), n_fresh);
    assert_int_equal(end, end_fresh); /* the scoreboard started clean too */
    assert_memory_equal(hx_ptr(&g2, out2), want, sizeof want);

    ptx_warp_free(w);
    ptx_cta_free(c1);
    ptx_cta_free(c2);
    free(g1.bytes);
    free(g2.bytes);
    ptx_module_free(m1);
    ptx_module_free(m2);
}

/* fma.rn.f32 rounds once, bit for bit as fmaf, on every kind of operand
 * (NaNs, infinities, subnormals, cancellation), for full and partial warps
 * (whichever way the host computes it). */
static void fma_f32_matches_fmaf_bit_for_bit(void **state)
{
    (void)state;
    struct ptx_module *m = parse_ok(
        HDR ".visible .entry k(.param .u64 io, .param .u32 lanes)\n{\n"
            ".reg .pred %p<2>;\n.reg .b32 %r<4>;\n.reg .f32 %f<6>;\n.reg .b64 %rd<4>;\n"
            "ld.param.u64 %rd1, [io];\n"
            "ld.param.u32 %r2, [lanes];\n"
            "mov.u32 %r1, %laneid;\n"
            "mul.wide.u32 %rd2, %r1, 4;\n"
            "add.s64 %rd3, %rd1, %rd2;\n"
            "ld.global.f32 %f1, [%rd3];\n"
            "ld.global.f32 %f2, [%rd3+128];\n"
            "ld.global.f32 %f3, [%rd3+256];\n"
            "mov.f32 %f4, 0f7F812345;\n"
            "setp.lt.u32 %p1, %r1, %r2;\n"
            "@%p1 fma.rn.f32 %f4, %f1, %f2, %f3;\n"
            "fma.rn.f32 %f5, %f1, %f2, %f1;\n" /* the destination row is a source row's twin */
            "st.global.f32 [%rd3+384], %f4;\n"
            "st.global.f32 [%rd3+512], %f5;\n"
            "ret;\n}\n");
    const struct ptx_kernel *k = ptx_module_kernel(m, "k");
    static const uint32_t special[] = {0x7fc00000u, 0xffc00001u, 0x7f800000u, 0xff800000u,
                                       0x00000001u, 0x807fffffu, 0x00000000u, 0x80000000u,
                                       0x3f800000u, 0xbf800000u, 0x7f7fffffu, 0x33800000u};
    uint32_t rng = 12345;
    static const unsigned active[] = {32, 7}; /* a full warp, then lanes 0..6 */
    for (unsigned t = 0; t < ARRAY_LEN(active); t++) {
        unsigned lanes = active[t];
        struct hx_gmem g = {calloc(1, 4096), 4096, 0};
        addr_t io = hx_alloc(&g, 5 * 128);
        uint32_t *v = hx_ptr(&g, io);
        for (unsigned i = 0; i < 96; i++) {
            rng = rng * 1664525u + 1013904223u;
            v[i] = (rng >> 3) % 4 == 0 ? special[rng % ARRAY_LEN(special)] : rng;
        }
        v[5] = 0x3f800001u, v[32 + 5] = 0x3f7ffffeu, v[64 + 5] = 0xbf800000u; /* cancels */
        struct hx_params p = {0};
        hx_param(&p, k, io);
        hx_param(&p, k, lanes);
        struct hx_stats st = {0};
        char err[512];
        if (hx_run(k, (struct ptx_dim3){1, 1, 1}, (struct ptx_dim3){32, 1, 1}, p.buf, 0, &g, &st,
                   err, sizeof err))
            fail_msg("%s", err);
        for (unsigned l = 0; l < 32; l++) {
            float a, b, c, want, want2;
            memcpy(&a, &v[l], 4);
            memcpy(&b, &v[32 + l], 4);
            memcpy(&c, &v[64 + l], 4);
            want = fmaf(a, b, c);
            want2 = fmaf(a, b, a);
            uint32_t w1, w2;
            memcpy(&w1, &want, 4);
            memcpy(&w2, &want2, 4);
            assert_int_equal(v[96 + l], l < lanes ? w1 : 0x7f812345u);
            assert_int_equal(v[128 + l], w2);
        }
        free(g.bytes);
    }
    ptx_module_free(m);
}

static const uint32_t LAT[PTX_LAT_N] = {4, 6, 5, 8, 20, 30, 2, 10};

static void scoreboard_alu_and_loads(void **state)
{
    (void)state;
    struct ptx_module *m = parse_ok(HDR ".visible .entry k(.param .u64 a)\n{\n"
                                        ".reg .b32 %r<6>;\n.reg .b64 %rd<3>;\n"
                                        "ld.param.u64 %rd1, [a];\n"
                                        "add.u32 %r1, 5, 6;\n"
                                        "add.u32 %r2, %r1, 1;\n"
                                        "ld.global.u32 %r3, [%rd1];\n"
                                        "add.u32 %r4, 1, 2;\n"
                                        "add.u32 %r5, %r3, %r4;\n"
                                        "st.global.u32 [%rd1+4], %r5;\n"
                                        "ret;\n}\n");
    const struct ptx_kernel *k = ptx_module_kernel(m, "k");
    uint8_t params[8];
    uint64_t a = 0x10000000;
    memcpy(params, &a, 8);
    struct ptx_cta *c = ptx_cta_new(k, (struct ptx_dim3){0, 0, 0}, (struct ptx_dim3){1, 1, 1},
                                    (struct ptx_dim3){32, 1, 1}, params, 0);
    struct ptx_warp *w = ptx_warp_new(c, 0);
    struct ptx_env env = {.lat = LAT};
    struct ptx_step s;
    char err[256];
    env.clock = 100;
    assert_true(ptx_warp_can_issue(w, 100));
    assert_int_equal(ptx_warp_step(w, &env, &s, err, sizeof err), 0); /* ld.param */
    assert_int_equal(s.kind, PTX_STEP_ALU);
    assert_int_equal(s.lat_class, PTX_LAT_SHMEM);
    assert_int_equal(s.n_thread_insts, 32);
    env.clock = 101;
    assert_int_equal(ptx_warp_step(w, &env, &s, err, sizeof err), 0); /* add r1 at 101 */
    assert_int_equal(s.lat_class, PTX_LAT_INT);
    assert_false(ptx_warp_can_issue(w, 104)); /* r1 ready at 105 */
    assert_true(ptx_warp_can_issue(w, 105));
    assert_int_equal(ptx_warp_issue_cycle(w), 105);
    env.clock = 105;
    assert_int_equal(ptx_warp_step(w, &env, &s, err, sizeof err), 0); /* add r2 */
    assert_false(ptx_warp_can_issue(w, 129));                         /* rd1 from ld.param: 130 */
    assert_true(ptx_warp_can_issue(w, 130));
    assert_int_equal(ptx_warp_issue_cycle(w), 130);
    env.clock = 131;
    assert_int_equal(ptx_warp_step(w, &env, &s, err, sizeof err), 0); /* ld.global */
    assert_int_equal(s.kind, PTX_STEP_MEM);
    assert_int_equal(s.mem.op, MEM_LOAD);
    assert_int_equal(s.mem.mask, 0xffffffffu);
    assert_int_equal(s.mem.size, 4);
    assert_int_equal(s.mem.sem, SEM_WEAK);
    assert_true(s.mem.addr[7] == a);
    struct ptx_memop op = s.mem;
    env.clock = 132;
    assert_true(ptx_warp_can_issue(w, 132)); /* independent add */
    assert_int_equal(ptx_warp_step(w, &env, &s, err, sizeof err), 0);
    assert_false(ptx_warp_can_issue(w, 1000000)); /* waits for r3 */
    assert_true(ptx_warp_issue_cycle(w) == UINT64_MAX);
    uint64_t data[32][2];
    for (unsigned l = 0; l < 32; l++)
        data[l][0] = 1000 + l, data[l][1] = 0;
    ptx_warp_complete(w, &op, (const uint64_t(*)[2])data, 500);
    assert_false(ptx_warp_can_issue(w, 499));
    assert_true(ptx_warp_can_issue(w, 500));
    assert_int_equal(ptx_warp_issue_cycle(w), 500);
    env.clock = 500;
    assert_int_equal(ptx_warp_step(w, &env, &s, err, sizeof err), 0); /* add r5 */
    env.clock = 504;
    assert_int_equal(ptx_warp_step(w, &env, &s, err, sizeof err), 0); /* st */
    assert_int_equal(s.kind, PTX_STEP_MEM);
    assert_int_equal(s.mem.op, MEM_STORE);
    for (unsigned l = 0; l < 32; l++) {
        assert_true(s.mem.addr[l] == a + 4);
        assert_int_equal(s.mem.data[l][0], 1000 + l + 3);
    }
    assert_int_equal(ptx_warp_step(w, &env, &s, err, sizeof err), 0);
    assert_int_equal(s.kind, PTX_STEP_EXIT);
    assert_true(ptx_warp_done(w));
    ptx_warp_free(w);
    ptx_cta_free(c);
    ptx_module_free(m);
}

/* Step a one-warp kernel until its first PTX_STEP_MEM. */
static struct ptx_step first_mem(const char *body, uint32_t ntid)
{
    char text[4096];
    snprintf(text, sizeof text,
             "%s.visible .entry k(.param .u64 a)\n{\n"
             ".reg .pred %%p<4>;\n.reg .b32 %%r<10>;\n.reg .b64 %%rd<10>;\n"
             ".shared .align 8 .b8 sh[256];\n"
             "ld.param.u64 %%rd1, [a];\nmov.u32 %%r1, %%laneid;\n%s\nret;\n}\n",
             HDR, body);
    struct ptx_module *m = parse_ok(text);
    const struct ptx_kernel *k = ptx_module_kernel(m, "k");
    uint8_t params[8];
    uint64_t a = 0x10000000;
    memcpy(params, &a, 8);
    struct ptx_cta *c = ptx_cta_new(k, (struct ptx_dim3){0, 0, 0}, (struct ptx_dim3){1, 1, 1},
                                    (struct ptx_dim3){ntid, 1, 1}, params, 0);
    struct ptx_warp *w = ptx_warp_new(c, 0);
    struct ptx_env env = {.lat = LAT};
    struct ptx_step s;
    char err[256];
    memset(&s, 0, sizeof s);
    for (int n = 0; n < 100 && !ptx_warp_done(w); n++) {
        env.clock += 1000;
        if (ptx_warp_step(w, &env, &s, err, sizeof err))
            fail_msg("%s", err);
        if (s.kind == PTX_STEP_MEM)
            break;
    }
    ptx_warp_free(w);
    ptx_cta_free(c);
    ptx_module_free(m);
    return s;
}

static void memory_semantics_mapping(void **state)
{
    (void)state;
    struct ptx_step s = first_mem("ld.volatile.global.u32 %r2, [%rd1];", 32);
    assert_int_equal(s.mem.sem, SEM_VOLATILE);
    assert_int_equal(s.mem.scope, SCOPE_SYS);
    s = first_mem("ld.relaxed.gpu.global.u64 %rd2, [%rd1];", 32);
    assert_int_equal(s.mem.sem, SEM_RELAXED);
    assert_int_equal(s.mem.scope, SCOPE_GPU);
    assert_int_equal(s.mem.size, 8);
    s = first_mem("ld.acquire.sys.b32 %r2, [%rd1];", 32);
    assert_int_equal(s.mem.sem, SEM_ACQUIRE);
    assert_int_equal(s.mem.scope, SCOPE_SYS);
    s = first_mem("st.release.cta.global.u32 [%rd1], %r1;", 32);
    assert_int_equal(s.mem.op, MEM_STORE);
    assert_int_equal(s.mem.sem, SEM_RELEASE);
    assert_int_equal(s.mem.scope, SCOPE_CTA);
    s = first_mem("atom.global.add.u32 %r2, [%rd1], 1;", 32);
    assert_int_equal(s.mem.op, MEM_ATOMIC);
    assert_int_equal(s.mem.sem, SEM_RELAXED);
    assert_int_equal(s.mem.scope, SCOPE_GPU);
    assert_int_equal(s.mem.atom_kind, ATOM_ADD);
    assert_int_equal(s.mem.atom_type, ATYPE_U32);
    assert_false(s.mem.is_red);
    s = first_mem("atom.acq_rel.cta.global.cas.b64 %rd2, [%rd1], %rd1, 5;", 32);
    assert_int_equal(s.mem.sem, SEM_ACQ_REL);
    assert_int_equal(s.mem.scope, SCOPE_CTA);
    assert_int_equal(s.mem.atom_kind, ATOM_CAS);
    assert_int_equal(s.mem.atom_type, ATYPE_B64);
    assert_true(s.mem.data[3][0] == 0x10000000 && s.mem.data[3][1] == 5);
    s = first_mem("red.global.max.s32 [%rd1], %r1;", 32);
    assert_true(s.mem.is_red);
    assert_int_equal(s.mem.atom_type, ATYPE_S32);
    s = first_mem("membar.gl;", 32);
    assert_int_equal(s.mem.op, MEM_FENCE);
    assert_int_equal(s.mem.sem, SEM_SC);
    assert_int_equal(s.mem.scope, SCOPE_GPU);
    s = first_mem("membar.cta;", 32);
    assert_int_equal(s.mem.scope, SCOPE_CTA);
    s = first_mem("fence.acq_rel.sys;", 20);
    assert_int_equal(s.mem.op, MEM_FENCE);
    assert_int_equal(s.mem.sem, SEM_ACQ_REL);
    assert_int_equal(s.mem.scope, SCOPE_SYS);
    assert_int_equal(s.mem.mask, 0x000fffffu); /* only the CTA's 20 threads */
    s = first_mem("ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd1+16];", 32);
    assert_int_equal(s.mem.size, 16);
    assert_true(s.mem.addr[0] == 0x10000010);
}

static void generic_access_splits_shared_and_global_lanes(void **state)
{
    (void)state;
    /* odd lanes address shared memory through cvta, even lanes global */
    struct ptx_step s = first_mem("mov.u32 %r2, sh;\n"
                                  "shl.b32 %r3, %r1, 2;\n"
                                  "add.u32 %r4, %r2, %r3;\n"
                                  "st.shared.u32 [%r4], %r1;\n"
                                  "cvt.u64.u32 %rd2, %r4;\n"
                                  "cvta.shared.u64 %rd3, %rd2;\n"
                                  "mul.wide.u32 %rd4, %r1, 4;\n"
                                  "add.s64 %rd5, %rd1, %rd4;\n"
                                  "and.b32 %r5, %r1, 1;\n"
                                  "setp.eq.u32 %p1, %r5, 1;\n"
                                  "selp.b64 %rd6, %rd3, %rd5, %p1;\n"
                                  "ld.u32 %r6, [%rd6];\n",
                                  32);
    assert_int_equal(s.kind, PTX_STEP_MEM);
    assert_int_equal(s.mem.mask, 0x55555555u);
    assert_true(s.mem.addr[2] == 0x10000000 + 8);
}

static void runtime_faults_name_the_line(void **state)
{
    (void)state;
    struct ptx_module *m = parse_ok(HDR ".visible .entry k()\n{\n"
                                        ".reg .b32 %r<4>;\n.shared .align 4 .b8 sh[64];\n"
                                        "mov.u32 %r1, sh;\n"
                                        "st.shared.u32 [%r1+2], %r1;\n"
                                        "ret;\n}\n");
    const struct ptx_kernel *k = ptx_module_kernel(m, "k");
    struct ptx_cta *c = ptx_cta_new(k, (struct ptx_dim3){0, 0, 0}, (struct ptx_dim3){1, 1, 1},
                                    (struct ptx_dim3){32, 1, 1}, NULL, 0);
    struct ptx_warp *w = ptx_warp_new(c, 0);
    struct ptx_env env = {.lat = LAT};
    struct ptx_step s;
    char err[256];
    assert_int_equal(ptx_warp_step(w, &env, &s, err, sizeof err), 0);
    char where[64];
    assert_string_equal(ptx_warp_where(w, where, sizeof where), "s.ptx:9");
    assert_int_equal(ptx_warp_step(w, &env, &s, err, sizeof err), -1);
    assert_non_null(strstr(err, "s.ptx:9: misaligned access"));
    ptx_warp_free(w);
    ptx_cta_free(c);
    ptx_module_free(m);
}

static void barrier_step_reports_count(void **state)
{
    (void)state;
    struct ptx_module *m = parse_ok(HDR ".visible .entry k()\n{\n"
                                        ".reg .b32 %r<4>;\n"
                                        "bar.sync 1, 64;\n"
                                        "barrier.sync.aligned 0;\n"
                                        "bar.arrive 2, 96;\n"
                                        "ret;\n}\n");
    const struct ptx_kernel *k = ptx_module_kernel(m, "k");
    struct ptx_cta *c = ptx_cta_new(k, (struct ptx_dim3){0, 0, 0}, (struct ptx_dim3){1, 1, 1},
                                    (struct ptx_dim3){48, 1, 1}, NULL, 0);
    struct ptx_warp *w = ptx_warp_new(c, 1); /* second warp: 16 threads */
    struct ptx_env env = {.lat = LAT};
    struct ptx_step s;
    char err[256];
    assert_int_equal(ptx_warp_step(w, &env, &s, err, sizeof err), 0);
    assert_int_equal(s.kind, PTX_STEP_BARRIER);
    assert_int_equal(s.bar.id, 1);
    assert_int_equal(s.bar.count, 64);
    assert_int_equal(s.bar.n_threads, 16);
    assert_false(s.bar.arrive_only);
    assert_false(ptx_warp_can_issue(w, 1000));
    ptx_warp_barrier_release(w);
    assert_true(ptx_warp_can_issue(w, 1000));
    assert_int_equal(ptx_warp_step(w, &env, &s, err, sizeof err), 0);
    assert_int_equal(s.bar.id, 0);
    assert_int_equal(s.bar.count, 0);
    ptx_warp_barrier_release(w);
    assert_int_equal(ptx_warp_step(w, &env, &s, err, sizeof err), 0);
    assert_true(s.bar.arrive_only);
    assert_int_equal(s.bar.count, 96);
    assert_true(ptx_warp_can_issue(w, 1000)); /* arrive does not wait */
    ptx_warp_free(w);
    ptx_cta_free(c);
    ptx_module_free(m);
}

static void conversions_saturate_and_round(void **state)
{
    (void)state;
    struct ptx_module *m =
        parse_ok(HDR ".visible .entry k(.param .u64 out)\n{\n"
                     ".reg .b32 %r<12>;\n.reg .f32 %f<4>;\n.reg .b64 %rd<4>;\n.reg .b16 %rs<2>;\n"
                     "ld.param.u64 %rd1, [out];\n"
                     "cvt.rzi.s32.f32 %r1, 0f4F32D05E;\n" /* 3e9 -> INT_MAX */
                     "cvt.rzi.s32.f32 %r2, 0f7FC00000;\n" /* NaN -> 0 */
                     "cvt.rni.s32.f32 %r3, 0f40200000;\n" /* 2.5 -> 2 (to even) */
                     "cvt.rmi.s32.f32 %r4, 0fBFC00000;\n" /* -1.5 -> -2 */
                     "mov.u32 %r9, -300;\n"
                     "cvt.sat.u8.s32 %r5, %r9;\n"         /* -> 0 */
                     "cvt.s32.s8 %r6, %r9;\n"             /* low byte 0xd4 -> -44 */
                     "cvt.rzi.u32.f32 %r7, 0fC0000000;\n" /* -2 -> 0 */
                     "cvt.rn.f16.f32 %rs1, 0f3FC00000;\n" /* 1.5 -> 0x3e00 */
                     "cvt.u32.u16 %r8, %rs1;\n"
                     "cvt.f32.f16 %f1, %rs1;\n"
                     "mov.b32 %r10, %f1;\n"
                     "cvt.rz.f32.f64 %f2, 0d3FF0000000000001;\n" /* 1+ulp -> 1.0f */
                     "mov.b32 %r11, %f2;\n"
                     "st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};\n"
                     "st.global.v4.u32 [%rd1+16], {%r5, %r6, %r7, %r8};\n"
                     "st.global.v2.u32 [%rd1+32], {%r10, %r11};\n"
                     "ret;\n}\n");
    struct hx_gmem g = {calloc(1, 4096), 4096, 0};
    addr_t out = hx_alloc(&g, 64);
    const struct ptx_kernel *k = ptx_module_kernel(m, "k");
    struct hx_params p = {0};
    hx_param(&p, k, out);
    struct hx_stats st = {0};
    char err[512];
    if (hx_run(k, (struct ptx_dim3){1, 1, 1}, (struct ptx_dim3){1, 1, 1}, p.buf, 0, &g, &st, err,
               sizeof err))
        fail_msg("%s", err);
    const int32_t *o = hx_ptr(&g, out);
    assert_int_equal(o[0], 2147483647);
    assert_int_equal(o[1], 0);
    assert_int_equal(o[2], 2);
    assert_int_equal(o[3], -2);
    assert_int_equal(o[4], 0);
    assert_int_equal(o[5], -44);
    assert_int_equal(o[6], 0);
    assert_int_equal(o[7], 0x3e00);
    assert_int_equal((uint32_t)o[8], 0x3fc00000u);
    assert_int_equal((uint32_t)o[9], 0x3f800000u);
    free(g.bytes);
    ptx_module_free(m);
}

static void warp_reductions_match_and_bar_red(void **state)
{
    (void)state;
    struct ptx_module *m = parse_ok(HDR ".visible .entry k(.param .u64 out)\n{\n"
                                        ".reg .pred %p<4>;\n.reg .b32 %r<12>;\n.reg .b64 %rd<4>;\n"
                                        "ld.param.u64 %rd1, [out];\n"
                                        "mov.u32 %r1, %tid.x;\n"
                                        "and.b32 %r2, %r1, 3;\n"
                                        "redux.sync.add.u32 %r3, %r1, -1;\n"
                                        "redux.sync.max.s32 %r4, %r2, -1;\n"
                                        "match.any.sync.b32 %r5, %r2, -1;\n"
                                        "match.all.sync.b32 %r6|%p1, %r2, -1;\n"
                                        "setp.lt.u32 %p2, %r1, 40;\n"
                                        "bar.red.popc.u32 %r7, 0, %p2;\n"
                                        "bar.red.or.pred %p3, 1, %p1;\n"
                                        "selp.u32 %r8, 1, 0, %p3;\n"
                                        "mul.wide.u32 %rd2, %r1, 32;\n"
                                        "add.s64 %rd3, %rd1, %rd2;\n"
                                        "st.global.v4.u32 [%rd3], {%r3, %r4, %r5, %r6};\n"
                                        "st.global.v2.u32 [%rd3+16], {%r7, %r8};\n"
                                        "ret;\n}\n");
    struct hx_gmem g = {calloc(1, 8192), 8192, 0};
    addr_t out = hx_alloc(&g, 32 * 64);
    const struct ptx_kernel *k = ptx_module_kernel(m, "k");
    struct hx_params p = {0};
    hx_param(&p, k, out);
    struct hx_stats st = {0};
    char err[512];
    if (hx_run(k, (struct ptx_dim3){1, 1, 1}, (struct ptx_dim3){64, 1, 1}, p.buf, 0, &g, &st, err,
               sizeof err))
        fail_msg("%s", err);
    const uint32_t *o = hx_ptr(&g, out);
    for (unsigned t = 0; t < 64; t++) {
        unsigned base = t & ~31u;
        assert_int_equal(o[t * 8 + 0], 32 * base + 31 * 32 / 2);
        assert_int_equal(o[t * 8 + 1], 3);
        assert_int_equal(o[t * 8 + 2], 0x11111111u << (t & 3));
        assert_int_equal(o[t * 8 + 3], 0);  /* values differ: match.all gives 0 */
        assert_int_equal(o[t * 8 + 4], 40); /* threads of the CTA with tid < 40 */
        assert_int_equal(o[t * 8 + 5], 0);  /* no warp had match.all true */
    }
    free(g.bytes);
    ptx_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(divergence_reconverges_with_per_lane_results),
        cmocka_unit_test(divergent_return_and_exit),
        cmocka_unit_test(renewed_warp_runs_like_a_new_one),
        cmocka_unit_test(fma_f32_matches_fmaf_bit_for_bit),
        cmocka_unit_test(scoreboard_alu_and_loads),
        cmocka_unit_test(memory_semantics_mapping),
        cmocka_unit_test(generic_access_splits_shared_and_global_lanes),
        cmocka_unit_test(runtime_faults_name_the_line),
        cmocka_unit_test(barrier_step_reports_count),
        cmocka_unit_test(conversions_saturate_and_round),
        cmocka_unit_test(warp_reductions_match_and_bar_red),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
