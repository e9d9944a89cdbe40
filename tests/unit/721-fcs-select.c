/*
 * 721-fcs-select.c - the offline request-type selector of fine-grain
 * coherence specialization (spec 003 §2.9; src/coh/spandex/fcs_select.c) on
 * tiny hand-made SC traces: Algorithm 6 (SharedStateBeneficial) types a CPU
 * load ReqS when its core reads the line again after an acquire before any
 * other core writes it, and ReqV when a remote store comes first, for a GPU
 * load, or on hardware whose CPU L1s keep no Shared lines; CPU loads weigh 6
 * in the votes. Algorithm 4's masks: a core that scans a line it will own
 * asks for the rest of the line with its first owned load, a store to a line
 * the core stores all of again after a release asks for the whole line, and
 * words another core touches first stay out of the mask.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coh/spandex/fcs.h"
#include "coh/spandex/fcs_select.h"
#include "ptx/ir.h"
#include "ptx/ptx.h"
#include "sim/req.h"

/* Three loads (lines 9, 10, 11) and a store (line 12) of one kernel. */
static const char ptx[] = ".version 7.0\n"
                          ".target sm_75\n"
                          ".address_size 64\n"
                          ".visible .entry k(.param .u64 p)\n"
                          "{\n"
                          "    .reg .b32 %r<4>;\n"
                          "    .reg .b64 %rd<2>;\n"
                          "    ld.param.u64 %rd1, [p];\n"
                          "    ld.global.u32 %r1, [%rd1];\n"
                          "    ld.global.u32 %r2, [%rd1+4];\n"
                          "    ld.global.u32 %r3, [%rd1+8];\n"
                          "    st.global.u32 [%rd1], %r1;\n"
                          "    ret;\n"
                          "}\n";

enum { GPU0, GPU1, CPU0, CPU1 }; /* cores; the CPU cores from 2 on */

struct rig {
    struct ptx_module *m;
    struct fcs_trace *t;
    uint32_t pc[13]; /* instruction index of each PTX line */
};

static void rig_init(struct rig *r)
{
    char err[256];
    r->m = ptx_module_parse(ptx, "sel.ptx", err, sizeof err);
    if (!r->m)
        fail_msg("%s", err);
    for (uint32_t i = 0; i < r->m->n_ins; i++)
        if (r->m->ins[i].line < 13)
            r->pc[r->m->ins[i].line] = i;
    r->t = fcs_trace_new();
    fcs_trace_kernel(r->t, r->m);
}

/* One lane's 4-byte access at `addr` by instruction `line` (a fence: line 0). */
static void access(struct rig *r, unsigned core, unsigned op, unsigned sem, addr_t addr,
                   unsigned line)
{
    struct ptx_memop m = {.op = (uint8_t)op, .sem = (uint8_t)sem, .size = 4, .mask = 1};
    m.addr[0] = addr;
    m.tag = line ? r->pc[line] : 0;
    fcs_trace_step(r->t, core, &m);
}

/* The type the selector gives PTX line `line` (and its mask shape, if any). */
static void entry_of(struct rig *r, bool shared, unsigned line, char out[16], char mask[16])
{
    struct fcs_select_opts o = {.title = "t",
                                .fwd = true,
                                .pred = false,
                                .shared = shared,
                                .l1_bytes = 131072,
                                .line_bytes = 64,
                                .cpu_from = CPU0};
    char *text = NULL, err[256];
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    assert_int_equal(fcs_select(r->t, &o, f, err, sizeof err), 0);
    fclose(f);
    char key[16];
    snprintf(key, sizeof key, "\n%u ", line);
    const char *at = strstr(text, key);
    assert_non_null(at);
    char word[16] = "";
    if (sscanf(at + strlen(key), " %15s %15s", out, word) < 1)
        fail_msg("no type for line %u", line);
    if (mask)
        strcpy(mask, word[0] == '#' ? "" : word);
    free(text);
}

static void type_of(struct rig *r, bool shared, unsigned line, char out[16])
{
    entry_of(r, shared, line, out, NULL);
}

static void rig_free(struct rig *r)
{
    fcs_trace_free(r->t);
    ptx_module_free(r->m);
}

#define LINE_A 0x1000u /* one 64-byte line */
#define LINE_B 0x2000u
#define LINE_C 0x3000u

static void shared_state_for_sync_separated_cpu_reuse(void **state)
{
    (void)state;
    struct rig r;
    rig_init(&r);
    /* line 9: CPU 0 reads word 0 of A, acquires, reads word 1 of A: ReqS */
    access(&r, CPU0, MEM_LOAD, SEM_WEAK, LINE_A, 9);
    access(&r, CPU0, MEM_FENCE, SEM_ACQUIRE, 0, 0);
    access(&r, CPU0, MEM_LOAD, SEM_WEAK, LINE_A + 4, 11);
    /* line 10: CPU 1 reads B, then GPU 0 writes B (remote store first): ReqV */
    access(&r, CPU1, MEM_LOAD, SEM_WEAK, LINE_B + 4, 10);
    access(&r, GPU0, MEM_STORE, SEM_WEAK, LINE_B, 12);
    access(&r, CPU1, MEM_FENCE, SEM_ACQUIRE, 0, 0);
    access(&r, CPU1, MEM_LOAD, SEM_WEAK, LINE_B + 8, 11);
    /* GPU 1 reads C twice across an acquire (line 11 again) */
    access(&r, GPU1, MEM_LOAD, SEM_WEAK, LINE_C, 11);
    access(&r, GPU1, MEM_FENCE, SEM_ACQUIRE, 0, 0);
    access(&r, GPU1, MEM_LOAD, SEM_WEAK, LINE_C + 4, 11);
    char t[16];
    type_of(&r, true, 9, t);
    assert_string_equal(t, "ReqS");
    type_of(&r, true, 10, t);
    assert_string_equal(t, "ReqV");
    type_of(&r, true, 11, t);
    assert_string_equal(t, "ReqV"); /* no later access to its blocks: no reuse */
    /* hardware whose CPU L1s keep no Shared lines: Algorithm 6 does not apply */
    type_of(&r, false, 9, t);
    assert_string_equal(t, "ReqV");
    rig_free(&r);
}

/* The same pattern on a GPU core gives ReqV: Algorithm 6 is for CPU loads. */
static void gpu_loads_never_take_shared_state(void **state)
{
    (void)state;
    struct rig r;
    rig_init(&r);
    access(&r, GPU0, MEM_LOAD, SEM_WEAK, LINE_A, 9);
    access(&r, GPU0, MEM_FENCE, SEM_ACQUIRE, 0, 0);
    access(&r, GPU0, MEM_LOAD, SEM_WEAK, LINE_A + 4, 11);
    char t[16];
    type_of(&r, true, 9, t);
    assert_string_equal(t, "ReqV");
    rig_free(&r);
}

/* Without an acquire between them the second read is reuse the L1 gets
 * anyway (no phase change): not a reason for ReqS. */
static void unsynchronised_reuse_is_no_reason_for_shared_state(void **state)
{
    (void)state;
    struct rig r;
    rig_init(&r);
    access(&r, CPU0, MEM_LOAD, SEM_WEAK, LINE_A, 9);
    access(&r, CPU0, MEM_LOAD, SEM_WEAK, LINE_A + 4, 11);
    char t[16];
    type_of(&r, true, 9, t);
    assert_string_equal(t, "ReqV");
    rig_free(&r);
}

/* Prod-Cons in small: each round CPU 0 reads every word of A in order and
 * GPU 1 then writes them all, with a release and an acquire between. The
 * CPU's loads are owned, and each asks for the rest of the line: the words
 * after it are owned loads of its own to come, the words before it are
 * written by the GPU first. CPU 1 reads B's even words and GPU 0 its odd
 * ones, each round: their owned loads ask for their own words only. */
static void owned_scan_asks_for_the_rest_of_the_line(void **state)
{
    (void)state;
    struct rig r;
    rig_init(&r);
    for (int round = 0; round < 3; round++) {
        for (unsigned w = 0; w < 16; w++)
            access(&r, CPU0, MEM_LOAD, SEM_WEAK, LINE_A + 4 * w, 9);
        access(&r, GPU1, MEM_FENCE, SEM_ACQUIRE, 0, 0);
        for (unsigned w = 0; w < 16; w++)
            access(&r, GPU1, MEM_STORE, SEM_WEAK, LINE_A + 4 * w, 12);
        access(&r, GPU1, MEM_FENCE, SEM_RELEASE, 0, 0);
        for (unsigned w = 0; w < 16; w += 2) {
            access(&r, CPU1, MEM_LOAD, SEM_WEAK, LINE_B + 4 * w, 10);
            access(&r, GPU0, MEM_LOAD, SEM_WEAK, LINE_B + 4 * w + 4, 11);
        }
        access(&r, CPU0, MEM_FENCE, SEM_ACQUIRE, 0, 0);
        access(&r, CPU1, MEM_FENCE, SEM_ACQUIRE, 0, 0);
        access(&r, GPU0, MEM_FENCE, SEM_ACQUIRE, 0, 0);
    }
    char t[16], m[16];
    entry_of(&r, false, 9, t, m);
    assert_string_equal(t, "ReqO+data");
    assert_string_equal(m, "rest");
    entry_of(&r, false, 10, t, m);
    assert_string_equal(t, "ReqO+data");
    assert_string_equal(m, "words");
    entry_of(&r, false, 11, t, m);
    assert_string_equal(t, "ReqO+data");
    assert_string_equal(m, "words");
    rig_free(&r);
}

/* GPU 0 stores every word of C, releases, and stores them all again, three
 * times: its stores own the line, and each asks for all of it
 * (InterSynchStoreReuse), which makes the request ReqO with data. */
static void store_reused_after_release_asks_for_the_line(void **state)
{
    (void)state;
    struct rig r;
    rig_init(&r);
    for (int round = 0; round < 3; round++) {
        for (unsigned w = 0; w < 16; w++)
            access(&r, GPU0, MEM_STORE, SEM_WEAK, LINE_C + 4 * w, 12);
        access(&r, GPU0, MEM_FENCE, SEM_RELEASE, 0, 0);
    }
    char t[16], m[16];
    entry_of(&r, false, 12, t, m);
    assert_string_equal(t, "ReqO");
    assert_string_equal(m, "line");
    rig_free(&r);
}

/* The instruction's type is decided question by question (own? share?
 * predict?), so write-throughs with and without prediction do not split
 * their votes against ownership: EP's GPU store of the population. */
static void write_throughs_do_not_split_their_vote(void **state)
{
    (void)state;
    double v[SPXK_N] = {0};
    v[SPXK_O] = 15744;
    v[SPXK_WTFWD] = 12521;
    v[SPXK_WTO] = 13975;
    assert_int_equal(fcs_elect(v, SPXK_O), SPXK_WTO);
    v[SPXK_O] = 30000; /* ownership outvotes both together */
    assert_int_equal(fcs_elect(v, SPXK_O), SPXK_O);
    double l[SPXK_N] = {0};
    l[SPXK_V] = 3;
    l[SPXK_O_DATA] = 3; /* a tie goes the device's own type's way */
    assert_int_equal(fcs_elect(l, SPXK_V), SPXK_V);
    l[SPXK_VO] = 1; /* ReqV and ReqVo together outvote ReqO+data; then ReqV beats ReqVo */
    assert_int_equal(fcs_elect(l, SPXK_V), SPXK_V);
    l[SPXK_S] = 5; /* ReqS outvotes the self-invalidated reads */
    assert_int_equal(fcs_elect(l, SPXK_V), SPXK_S);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shared_state_for_sync_separated_cpu_reuse),
        cmocka_unit_test(gpu_loads_never_take_shared_state),
        cmocka_unit_test(unsynchronised_reuse_is_no_reason_for_shared_state),
        cmocka_unit_test(owned_scan_asks_for_the_rest_of_the_line),
        cmocka_unit_test(store_reused_after_release_asks_for_the_line),
        cmocka_unit_test(write_throughs_do_not_split_their_vote),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
