/*
 * 621-gpuvini-directed.c - directed transition tests of `gpuvini` (spec 002
 * §3.5): L2 evictions keep the directory entry and do not recall; directory
 * evictions recall (class RCL); writes and atomics invalidate the sharers the
 * directory names whether or not the L2 holds the data. Every cell of its L1
 * and L2 tables fires.
 * The directory here has vi.dir_ratio=1, vi.dir_ways=2: 4 entries per bank
 * (4 SMs x 2 L1 lines / 2 banks), 2 sets of 2 ways indexed like the L2's sets,
 * so A, B, C, X share one directory set and one L2 set of bank 0.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "610-vi-rig.h"

static struct inject *vini_rig(void)
{
    return rig("coherence.protocol=gpuvini", "vi.dir_ratio=1", "vi.dir_ways=2");
}

/* Data leaves the L2 without a recall: the L1 copy stays valid and the
 * directory keeps naming it (D); a write to the D line fetches the data and
 * invalidates the copy (class INV). */
static void l2_eviction_keeps_copies(void **state)
{
    (void)state;
    struct inject *r = vini_rig();
    st(r, 2, A, 5);
    assert_int_equal(ld(r, 0, A), 5);
    st(r, 2, B, 1);
    st(r, 2, C, 1); /* A's data is the LRU line of its L2 set */
    assert_string_equal(inject_l2_state(r, A), "D");
    assert_string_equal(inject_l1_state(r, 0, A), "V");
    assert_int_equal(stat(r, "gpu.noc.down.msgs.RCL"), 0);
    assert_int_equal(ld(r, 0, A), 5); /* still a hit */
    st(r, 1, A, 6);
    assert_string_equal(inject_l1_state(r, 0, A), "I");
    assert_string_equal(inject_l2_state(r, A), "S");
    assert_msgs_down_and_up(r, "INV", 1);
    assert_int_equal(ld(r, 0, A), 6);
    inject_free(r);
}

/* A read that needs a directory entry in a full set evicts the oldest
 * entry: its copies are recalled (class RCL) and acknowledged. The read
 * retries meanwhile and, finding the recalled entry busy, takes the next
 * victim - here an entry whose vector a write emptied, freed without any
 * message. */
static void directory_eviction_recalls(void **state)
{
    (void)state;
    struct inject *r = vini_rig();
    st(r, 3, A, 4);
    ld(r, 0, A);
    ld(r, 1, A);
    ld(r, 0, B);
    st(r, 1, B, 1);
    assert_int_equal(stat(r, "gpu.noc.down.msgs.RCL"), 0);
    ld(r, 2, C); /* needs an entry: A's is the oldest */
    assert_string_equal(inject_l2_state(r, C), "S");
    assert_string_equal(inject_l1_state(r, 0, A), "I");
    assert_string_equal(inject_l1_state(r, 1, A), "I");
    assert_msgs_down_and_up(r, "RCL", 2);
    assert_int_equal(stat(r, "gpu.l2[0].dir_evictions"), 2);
    assert_int_equal(ld(r, 3, A), 4);
    inject_free(r);
}

/* Write atomicity as in gpuvi: once acknowledged, nobody reads the old value. */
static void write_invalidates_sharers(void **state)
{
    (void)state;
    struct inject *r = vini_rig();
    ld(r, 0, Z);
    ld(r, 1, Z);
    st(r, 2, Z, 9);
    assert_string_equal(inject_l1_state(r, 0, Z), "I");
    assert_string_equal(inject_l1_state(r, 1, Z), "I");
    assert_int_equal(stat(r, "gpu.noc.down.msgs.INV"), 2);
    assert_int_equal(ld(r, 0, Z), 9);
    assert_int_equal(ato(r, 1, Z, 1), 9);
    assert_string_equal(inject_l2_state(r, Z), "V"); /* the atomic freed the entry */
    inject_free(r);
}

/* Put `line` in D with `readers` (a bit mask of SMs) holding copies: they
 * read it, then two stores of SM 3 to lines of the same L2 set push its data
 * out (stores take no directory entry). `wr` (if not 4) writes it first,
 * which empties the vector but keeps the entry. */
static void make_d(struct inject *r, addr_t line, unsigned readers, unsigned wr, addr_t o1,
                   addr_t o2)
{
    for (unsigned s = 0; s < 4; s++)
        if (readers >> s & 1)
            ld(r, s, line);
    if (wr < 4)
        st(r, wr, line, 1);
    st(r, 3, o1, 1);
    st(r, 3, o2, 1);
    assert_string_equal(inject_l2_state(r, line), "D");
}

static void l2_every_transition(struct inject *r)
{
    l2_stable_walk(r);
    l2_ack_wait_walk(r);
    /* S+Replace -> D; D+GetS -> DV with every stall; DV+MemData */
    make_d(r, A, 1u << 0, 4, B, C);
    ld_at(r, 1, A, 0);
    st_at(r, 2, A, 1, 10);  /* WriteInv: SM 0 is named */
    ato_at(r, 0, A, 1, 11); /* Atomic: only SM 0, the requester, is named */
    ato_at(r, 3, A, 1, 12); /* AtomicInv */
    ld_at(r, 3, A, 13);     /* GetS */
    st_at(r, 0, A, 2, 14);  /* Write: only SM 0, the writer, is named */
    inject_run(r);
    /* D+Write, D+WriteInv, D+Atomic, D+AtomicInv */
    make_d(r, B, 1u << 0, 4, C, A);
    st(r, 0, B, 3);
    make_d(r, C, 1u << 0, 4, A, B);
    st(r, 1, C, 3);
    make_d(r, A, 1u << 0, 4, B, C);
    ato(r, 0, A, 1);
    make_d(r, B, 1u << 0, 4, C, A);
    ato(r, 1, B, 1);
}

/* Directory recalls that later requests meet (run on a fresh machine: the
 * victims follow from the order entries were taken). The read that needs an
 * entry evicts the oldest (recalled: S_R or D_R, three or two acks), then,
 * retrying, the next (empty vector: DirReplace), and proceeds; requests to
 * the recalled line then stall. */
static void recalls_meet_requests(struct inject *r)
{
    const addr_t A1 = 0x80, B1 = 0x280, C1 = 0x480; /* bank 1 set 0 */
    /* D_R: A's data pushed out by C first */
    ld(r, 0, A);
    ld(r, 1, A);
    ld(r, 0, B);
    st(r, 1, B, 1);
    st(r, 2, C, 1);
    assert_string_equal(inject_l2_state(r, A), "D");
    ld_at(r, 2, C, 0);
    ld_at(r, 3, A, 6);
    st_at(r, 3, A, 2, 7);
    ato_at(r, 3, A, 1, 8);
    inject_run(r);
    /* S_R: A1 keeps its data, B1's data goes, B1's entry stays (D) */
    ld(r, 0, A1);
    ld(r, 1, A1);
    ld(r, 0, B1);
    st(r, 1, B1, 1);
    ld(r, 2, A1);
    st(r, 3, C1, 1);
    assert_string_equal(inject_l2_state(r, B1), "D");
    ld_at(r, 2, C1, 0);
    ld_at(r, 3, A1, 6);
    st_at(r, 3, A1, 2, 7);
    ato_at(r, 3, A1, 1, 8);
    inject_run(r);
}

static void every_transition(void **state)
{
    (void)state;
    struct inject *r = vini_rig();
    recalls_meet_requests(r);
    l1_every_transition(r);
    l2_every_transition(r);
    assert_int_equal(check_coverage(r, NULL, 0), 0);
    inject_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(l2_eviction_keeps_copies),
        cmocka_unit_test(directory_eviction_recalls),
        cmocka_unit_test(write_invalidates_sharers),
        cmocka_unit_test(every_transition),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
