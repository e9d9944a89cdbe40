/*
 * 720-spandex-directed.c - the Spandex LLC and its device L1s (spandex-d:
 * DeNovo; spandex-g: GPU coherence; cpu.device = mesi: the MESI L1s of two
 * CPU cores beside the SMs), scenario by scenario on the tiny
 * directed machine (4 SMs, 2 banks, 128-byte lines: 32 words, 2-line L1s,
 * 2-way banks), with the invariant observers on (single owner per word,
 * forwarded updates performed exactly once, no Nack loop); the request
 * types of spec 003 §2.6 (fcs.* settings): forwarded write-throughs and
 * atomics performed at the owner, owner-predicted reads, writes and atomics,
 * a misprediction's Nack and its retry at the LLC, owned loads; the DeNovo
 * L1's shared words (loads typed ReqS); and the LLC
 * hit latency of configs/spandex.ini against Table 2.
 * Each scenario checks the values the loads and atomics return, the line
 * states at the L1s and the LLC, and the table cells it is about.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "directed-rig.h"

#include <string.h>

#define SPXD "coherence.protocol=spandex-d"
#define SPXG "coherence.protocol=spandex-g"

static uint64_t dn(struct inject *r, const char *state, const char *event)
{
    return inject_coverage(r, "spandex.DeNovo-L1", state, event);
}

static uint64_t llc(struct inject *r, const char *state, const char *event)
{
    return inject_coverage(r, "spandex.LLC", state, event);
}

/* Two MESI CPU cores beside the 4 SMs: cores 4 and 5 (docs/cpu.md). */
#define CPU0      4
#define CPU1      5
#define MESI_CPUS "cpu.cores=2", "cpu.device=mesi"

static uint64_t me(struct inject *r, const char *state, const char *event)
{
    return inject_coverage(r, "spandex.MESI-L1", state, event);
}

static void fence(struct inject *r, unsigned sm)
{
    inject_order(r, sm, 0, MEM_FENCE, SEM_ACQ_REL, SCOPE_GPU, 0);
    inject_run(r);
}

/* A store takes ownership of its word (ReqO); the owner then hits on it. A
 * load from another L1 is answered with the owner's value through the LLC
 * (G: FwdReqV), and the owner keeps the word. */
static void store_owns_the_word_and_remote_reads_gather_it(void **state)
{
    (void)state;
    struct inject *r = rig(SPXD);
    st(r, 0, X, 0x11);
    assert_string_equal(inject_l1_state(r, 0, X), "O");
    assert_string_equal(inject_l2_state(r, X), "O");
    assert_true(dn(r, "I", "Store") == 1 && dn(r, "BO", "GrantDone") == 1);
    st(r, 0, X, 0x12); /* owned: no message */
    assert_int_equal(dn(r, "O", "StoreHit"), 1);
    assert_int_equal(ld(r, 0, X), 0x12);
    assert_int_equal(ld(r, 1, X), 0x12);
    assert_int_equal(llc(r, "O", "ReqVOwned"), 1);
    assert_int_equal(dn(r, "O", "FwdV"), 1);
    assert_int_equal(llc(r, "G", "FwdRspLastO"), 1);
    assert_string_equal(inject_l1_state(r, 0, X), "O"); /* kept */
    assert_string_equal(inject_l1_state(r, 1, X), "V");
    inject_free(r);
}

/* With paths between L1s (fcs.l1_to_l1), the same remote read goes on to
 * the word's one owner with the LLC's other words (FwdReqV, SPX_F_DIRECT),
 * and the owner answers the reader with the whole line from L1 to L1: no
 * gather, the LLC stays O, the owner keeps its word; the reader's other
 * words are the LLC's. A GPU-coherence L1 (spandex-g) reads a MESI CPU's
 * line the same way. */
static void remote_reads_are_answered_by_the_one_owner_with_l1_to_l1(void **state)
{
    (void)state;
    struct inject *r = rig(SPXD, "fcs.l1_to_l1=true");
    st(r, 2, X + 4, 0x21); /* another L1 writes a word of the line first, then gives it back */
    inject_order(r, 2, 0, MEM_KERNEL_END, SEM_RELEASE, SCOPE_GPU, 0);
    inject_run(r);
    st(r, 0, X, 0x11);
    assert_int_equal(ld(r, 1, X), 0x11);
    assert_int_equal(ld(r, 1, X + 4), 0x21);
    assert_int_equal(llc(r, "O", "ReqVOwnedOne"), 1);
    assert_int_equal(llc(r, "O", "ReqVOwned"), 0);
    assert_int_equal(dn(r, "O", "FwdV"), 1);
    assert_int_equal(stat(r, "gpu.l2[0].direct_reads"), 1);
    assert_int_equal(stat(r, "gpu.l2[0].gathers"), 0);
    assert_string_equal(inject_l2_state(r, X), "O");
    assert_string_equal(inject_l1_state(r, 0, X), "O"); /* kept */
    assert_string_equal(inject_l1_state(r, 1, X), "V");
    inject_free(r);

    r = rig(SPXG, MESI_CPUS, "fcs.l1_to_l1=true");
    st(r, CPU0, X, 0x44);
    assert_string_equal(inject_l1_state(r, CPU0, X), "M");
    assert_int_equal(ld(r, 0, X), 0x44);
    assert_int_equal(me(r, "M", "FwdV"), 1);
    assert_int_equal(llc(r, "O", "ReqVOwnedOne"), 1);
    assert_int_equal(stat(r, "gpu.l2[0].direct_reads"), 1);
    assert_string_equal(inject_l1_state(r, CPU0, X), "M");
    inject_free(r);
}

/* A second store moves the word: the LLC names the new owner at once and
 * the old owner's word is relayed (FwdReqO); the old owner keeps no valid
 * copy of it and reads the new value after an acquire. */
static void ownership_moves_between_l1s(void **state)
{
    (void)state;
    struct inject *r = rig(SPXD);
    st(r, 0, X, 0x11);
    st(r, 1, X, 0x22);
    assert_int_equal(dn(r, "O", "FwdOLast"), 1);
    assert_int_equal(llc(r, "O", "Relay"), 1);
    assert_int_equal(dn(r, "BO", "RelayDone") + dn(r, "BO", "GrantDone"), 2);
    assert_string_equal(inject_l1_state(r, 0, X), "V");
    assert_string_equal(inject_l1_state(r, 1, X), "O");
    fence(r, 0); /* acquire: V words go */
    assert_string_equal(inject_l1_state(r, 0, X), "I");
    assert_int_equal(ld(r, 0, X), 0x22);
    inject_free(r);
}

/* Atomics take ownership with data (ReqO+data) and are performed at the
 * owner; the next atomic elsewhere gets the word relayed with its value. */
static void atomics_are_performed_at_the_owner(void **state)
{
    (void)state;
    struct inject *r = rig(SPXD);
    assert_int_equal(ato(r, 2, X + 4, 5), 0);
    assert_int_equal(ato(r, 2, X + 4, 1), 5); /* a hit */
    assert_int_equal(dn(r, "O", "AtomicHit"), 1);
    assert_int_equal(ato(r, 3, X + 4, 7), 6);
    assert_int_equal(ato(r, 1, X + 4, 0), 13);
    fence(r, 2);
    assert_int_equal(ld(r, 2, X + 4), 13);
    /* words of one line owned by different L1s */
    st(r, 0, X, 0xa);
    assert_int_equal(ld(r, 3, X), 0xa);
    assert_int_equal(ld(r, 3, X + 4), 13);
    inject_free(r);
}

/* Kernel end writes owned words back (ReqWB; the line is kept until the
 * ack); the LLC then holds every word and no owner. */
static void kernel_end_writes_owned_words_back(void **state)
{
    (void)state;
    struct inject *r = rig(SPXD);
    st(r, 0, X, 0x31);
    st(r, 1, X + 8, 0x32);
    inject_order(r, 0, 0, MEM_KERNEL_END, SEM_RELEASE, SCOPE_GPU, 0);
    inject_order(r, 1, 0, MEM_KERNEL_END, SEM_RELEASE, SCOPE_GPU, 0);
    inject_run(r);
    assert_int_equal(dn(r, "O", "Flush"), 2);
    assert_int_equal(dn(r, "W", "WbAck"), 2);
    assert_true(llc(r, "O", "ReqWB") == 1 && llc(r, "O", "ReqWBLast") == 1);
    assert_string_equal(inject_l1_state(r, 0, X), "I");
    assert_string_equal(inject_l2_state(r, X), "V");
    assert_int_equal(ld(r, 2, X), 0x31);
    assert_int_equal(ld(r, 2, X + 8), 0x32);
    inject_free(r);
}

/* An L1 evicting a line with owned words writes them back; a forward that
 * meets the line on its way out is served from it, and the write-back of
 * words that moved on meanwhile is only acknowledged. */
static void evicted_owned_words_are_written_back(void **state)
{
    (void)state;
    struct inject *r = rig(SPXD);
    /* SM 0's L1 holds two lines (one set of 2 ways): X and Z fill it, Y evicts */
    st(r, 0, X, 1);
    st(r, 0, Z, 2);
    st(r, 0, Y, 3);
    assert_int_equal(dn(r, "O", "ReplaceOwned"), 1);
    assert_int_equal(dn(r, "W", "WbAck"), 1);
    /* a write-back racing a transfer: SM 0 owns Y (its older line) and P;
     * SM 1 asks for Y just before SM 0's miss to Q evicts it */
    addr_t P = X + 0x200, Q = X + 0x300;
    st(r, 0, P, 5);
    st_at(r, 1, Y, 4, 0);
    st_at(r, 0, Q, 6, 1);
    inject_run(r);
    assert_int_equal(dn(r, "W", "FwdO"), 1);        /* served on its way out */
    assert_int_equal(llc(r, "O", "ReqWBStale"), 1); /* ... so the write-back is only acked */
    fence(r, 2);
    assert_int_equal(ld(r, 2, Y), 4);
    assert_int_equal(ld(r, 2, X), 1);
    assert_int_equal(ld(r, 2, Z), 2);
    assert_int_equal(ld(r, 2, P), 5);
    assert_int_equal(ld(r, 2, Q), 6);
    inject_free(r);
}

/* An LLC eviction of a line with owned words revokes them (R: RvkO) and
 * writes the line back; the values survive in DRAM. */
static void llc_eviction_revokes_owned_words(void **state)
{
    (void)state;
    struct inject *r = rig(SPXD, "l2.size=256"); /* one set of 2 ways per bank */
    /* lines of bank 0: X, Z, X + 0x200, ... */
    st(r, 0, X, 7);
    st(r, 1, Z, 8);
    st(r, 2, X + 0x200, 9);
    assert_true(llc(r, "O", "Replace") >= 1);
    assert_true(dn(r, "O", "RvkOLast") + dn(r, "O", "RvkO") >= 1);
    assert_true(llc(r, "R", "FwdRspLastV") >= 1);
    fence(r, 3);
    assert_int_equal(ld(r, 3, X), 7);
    assert_int_equal(ld(r, 3, Z), 8);
    assert_int_equal(ld(r, 3, X + 0x200), 9);
    inject_free(r);
}

/* Two stores that each need a word the other holds: neither waits for the
 * other (no deadlock); a word taken while its store waited is asked for
 * again, and both values land. */
static void crossed_multiword_requests_finish(void **state)
{
    (void)state;
    struct inject *r = rig(SPXD);
    st(r, 0, X, 1);     /* SM 0 owns word 0 */
    st(r, 1, X + 4, 2); /* SM 1 owns word 1 */
    /* each now writes both words at once (an 8-byte store) */
    inject_store(r, 0, 0, X, 8, 0x0000000b0000000aull, SEM_WEAK, SCOPE_CTA, 0);
    inject_store(r, 1, 0, X, 8, 0x0000001500000014ull, SEM_WEAK, SCOPE_CTA, 0);
    inject_run(r);
    fence(r, 2);
    uint64_t w0 = ld(r, 2, X), w1 = ld(r, 2, X + 4);
    assert_true((w0 == 0xa && w1 == 0xb) || (w0 == 0x14 && w1 == 0x15) ||
                (w0 == 0xa && w1 == 0x15) || (w0 == 0x14 && w1 == 0xb));
    inject_free(r);
}

/* GPU coherence on the Spandex LLC: loads fill (ReqV), stores write
 * through (ReqWT), atomics are performed at the LLC (ReqWT+data); no word
 * is ever owned. */
/* MESI CPU L1s read lines Shared (ReqS: the LLC registers them); a GPU
 * write-through first invalidates every sharer (Inv, InvAck), after which
 * the CPUs read the new value; a kernel start drops Shared lines. */
static void mesi_shared_lines_are_invalidated_before_a_write(void **state)
{
    (void)state;
    struct inject *r = rig(SPXG, MESI_CPUS);
    assert_int_equal(ld(r, CPU0, X), 0);
    assert_int_equal(ld(r, CPU1, X + 4), 0);
    assert_string_equal(inject_l1_state(r, CPU0, X), "S");
    assert_string_equal(inject_l2_state(r, X), "S");
    assert_true(me(r, "I", "Load") == 2 && me(r, "IS", "Fill") == 2);
    assert_int_equal(ld(r, CPU0, X + 4), 0); /* a hit */
    assert_int_equal(me(r, "S", "Load"), 1);
    st(r, 0, X, 0x33);
    assert_int_equal(llc(r, "S", "ReqWT"), 1);
    assert_int_equal(me(r, "S", "Inv"), 2);
    assert_int_equal(llc(r, "SI", "InvAckLast"), 1);
    assert_string_equal(inject_l1_state(r, CPU0, X), "I");
    assert_int_equal(ld(r, CPU0, X), 0x33);
    assert_int_equal(ld(r, CPU1, X), 0x33);
    inject_order(r, CPU0, 0, MEM_KERNEL_BEGIN, SEM_ACQUIRE, SCOPE_GPU, 0);
    inject_run(r);
    assert_int_equal(me(r, "S", "KernelStart"), 1);
    assert_string_equal(inject_l1_state(r, CPU0, X), "I");
    inject_free(r);
}

/* A MESI store takes the whole line (ReqO+data) and hits from then on; a
 * remote read gathers it from the owner (FwdReqV); another CPU's atomic
 * moves it (FwdReqO of every word: the old owner leaves); a DeNovo GPU store
 * to one word takes that word, and the MESI owner writes the others back. */
static void mesi_stores_own_the_line(void **state)
{
    (void)state;
    struct inject *r = rig(SPXD, MESI_CPUS);
    st(r, CPU0, X, 0x44);
    assert_string_equal(inject_l1_state(r, CPU0, X), "M");
    assert_int_equal(me(r, "IM", "GrantDone"), 1);
    st(r, CPU0, X + 8, 0x45);
    assert_int_equal(me(r, "M", "Store"), 1);
    assert_int_equal(ld(r, 0, X), 0x44);
    assert_int_equal(me(r, "M", "FwdV"), 1);
    assert_int_equal(ato(r, CPU1, X + 4, 3), 0);
    assert_int_equal(me(r, "M", "FwdOLast"), 1);
    assert_string_equal(inject_l1_state(r, CPU0, X), "I");
    assert_int_equal(ld(r, CPU1, X), 0x44);
    assert_int_equal(ld(r, CPU1, X + 8), 0x45);
    st(r, 1, X + 4, 0x46); /* DeNovo: ReqO of one word */
    assert_int_equal(me(r, "M", "FwdO"), 1);
    assert_int_equal(me(r, "MI", "WbAck"), 1);
    assert_string_equal(inject_l1_state(r, CPU1, X), "I");
    assert_int_equal(ld(r, CPU0, X + 4), 0x46); /* ReqS revokes the GPU's word */
    assert_int_equal(llc(r, "O", "ReqSOwned"), 1);
    assert_int_equal(ld(r, CPU0, X + 8), 0x45);
    assert_string_equal(inject_l1_state(r, CPU0, X), "S");
    /* a Modified line is written back at kernel end */
    st(r, CPU1, Y, 0x47);
    inject_order(r, CPU1, 0, MEM_KERNEL_END, SEM_RELEASE, SCOPE_GPU, 0);
    inject_run(r);
    assert_int_equal(me(r, "M", "Flush"), 1);
    assert_string_equal(inject_l2_state(r, Y), "V");
    assert_int_equal(ld(r, 2, Y), 0x47);
    inject_free(r);
}

/* Requests parked on an LLC MSHR keep their arrival order: two MESI
 * sharers hold X, so the first GPU write-through to X invalidates them (SI)
 * and every later request to X parks behind it, while a second line of the
 * same bank fills from DRAM (IV) with its own requests parked. Each SM
 * writes X twice, back to back: when the MSHRs free, the parked requests
 * must replay before anything younger, so each SM's second value lands
 * after its first and the word ends with some SM's second value. */
static void llc_parked_requests_replay_in_arrival_order(void **state)
{
    (void)state;
    struct inject *r = rig(SPXG, MESI_CPUS);
    ld(r, CPU0, X);
    ld(r, CPU1, X);
    assert_string_equal(inject_l2_state(r, X), "S");
    for (unsigned sm = 0; sm < 4; sm++) {
        st_at(r, sm, X, 0x100 + sm, sm);
        st_at(r, sm, Z, 0x300 + sm, sm);
        st_at(r, sm, X, 0x200 + sm, sm);
        st_at(r, sm, Z, 0x400 + sm, sm);
    }
    inject_run(r);
    assert_int_equal(llc(r, "SI", "InvAckLast"), 1);
    assert_int_equal(llc(r, "IV", "MemData"), 2); /* X (for the CPUs' loads) and Z */
    assert_true(llc(r, "SI", "ReqWT") >= 3);      /* parked behind the invalidation */
    assert_true(llc(r, "IV", "ReqWT") >= 3);      /* parked behind the fill */
    fence(r, 0);
    uint64_t x = ld(r, 0, X), z = ld(r, 0, Z);
    print_message("X ends %#llx, Z %#llx\n", (unsigned long long)x, (unsigned long long)z);
    assert_in_range(x, 0x200, 0x203);
    assert_in_range(z, 0x400, 0x403);
    assert_int_equal(ld(r, CPU0, X), x);
    inject_free(r);
}

/* A MESI L1's forwards are served in the order the LLC sent them, and a
 * full set of TBEs never stops the ones that need none. CPU 0, waiting for
 * line X (IM), parks a forward of word 0 (for SM 1) and one of the other
 * words (for CPU 1). Once its grant is in, the first sends word 0 and writes
 * the rest back (MI: a TBE); meanwhile SM 2 takes a word of line Y, which
 * CPU 0 holds Modified, so Y is written back too and both TBEs are busy.
 * The second forward must then still be served from X's line in MI before
 * X's write-back ack drops it, and the acks must still come in. Swept over
 * when SM 2 asks, so that one request lands in the window. */
static void mesi_forwards_keep_their_order_behind_a_write_back(void **state)
{
    (void)state;
    unsigned both = 0;
    for (uint64_t d = 0; d <= 400; d += 10) {
        struct inject *r = rig(SPXD, MESI_CPUS, "l1.mshrs=2");
        st(r, CPU0, Y, 0x50);            /* CPU 0 holds Y Modified */
        st(r, 0, X, 0x51);               /* SM 0 owns word 0 of X */
        ato_at(r, CPU0, X + 4, 1, 0);    /* CPU 0 asks for all of X */
        st_at(r, 1, X, 0x52, 30);        /* SM 1 takes word 0 after it */
        st_at(r, CPU1, X + 8, 0x53, 60); /* CPU 1 takes X after that */
        st_at(r, 2, Y, 0x54, 60 + d);    /* SM 2 takes word 0 of Y */
        inject_run(r);
        both += me(r, "M", "FwdO") == 2 && me(r, "MI", "FwdOLast") == 1;
        fence(r, 3);
        assert_int_equal(ld(r, 3, X), 0x52);
        assert_int_equal(ld(r, 3, X + 4), 1);
        assert_int_equal(ld(r, 3, X + 8), 0x53);
        assert_int_equal(ld(r, 3, Y), 0x54);
        inject_free(r);
    }
    print_message("%u of 41 timings wrote X and Y back, X's second forward served in MI\n", both);
    assert_true(both > 0);
}

static void gpu_coherence_l1_writes_through(void **state)
{
    (void)state;
    struct inject *r = rig(SPXG);
    st(r, 0, X, 0x41);
    assert_int_equal(ld(r, 1, X), 0x41);
    assert_int_equal(ato(r, 2, X + 4, 3), 0);
    assert_int_equal(ato(r, 3, X + 4, 3), 3);
    assert_string_equal(inject_l2_state(r, X), "V");
    assert_int_equal(llc(r, "V", "ReqWT"), 1);
    assert_int_equal(llc(r, "V", "ReqWTdata"), 2);
    assert_int_equal(stat(r, "gpu.l2[0].ownership_grants"), 0);
    inject_free(r);
}

/* Producer-consumer forwarding: the consumer owns the word (a ReqO+data
 * load); the producer's ReqWTfwd and ReqWTfwd+data reach it through the LLC
 * and are performed there; neither the LLC nor the owner changes state, and
 * the consumer then hits on the new values. A word no L1 owns takes a
 * ReqWTfwd as a ReqWT, also beside owned words of the same request. */
static void forwarded_updates_are_performed_at_the_owner(void **state)
{
    (void)state;
    struct inject *r = rig(SPXD, "fcs.load=odata", "fcs.store=wtfwd", "fcs.rmw=wtfwd_data");
    assert_int_equal(ld(r, 0, X), 0);
    assert_int_equal(dn(r, "I", "LoadOwn"), 1);
    assert_string_equal(inject_l1_state(r, 0, X), "O");
    st(r, 1, X, 5);
    assert_int_equal(llc(r, "O", "ReqWTfwd"), 1);
    assert_int_equal(dn(r, "O", "FwdWT"), 1);
    assert_int_equal(dn(r, "BW", "WTDone"), 1);
    assert_string_equal(inject_l1_state(r, 0, X), "O"); /* kept */
    assert_string_equal(inject_l2_state(r, X), "O");
    assert_int_equal(ato(r, 2, X, 3), 5); /* forwarded atomic: old value from the owner */
    assert_int_equal(llc(r, "O", "ReqWTfwd"), 2);
    assert_int_equal(ld(r, 0, X), 8);
    assert_int_equal(dn(r, "O", "LoadHit"), 1);
    assert_int_equal(stat(r, "gpu.l2[0].wt_forwarded"), 2);
    assert_int_equal(stat_sum(r, "gpu.sm[%u].l1.forwarded_performed", 4), 2);
    /* not remotely owned: a plain write-through */
    st(r, 1, Y, 7);
    assert_int_equal(llc(r, "V", "ReqWT"), 1);
    assert_int_equal(ld(r, 2, Y), 7);
    /* words 0 and 1 at once, only word 0 owned (by SM 0): word 1 is written
     * at the LLC, word 0 forwarded (spec 003 §2.6.1 decides word by word) */
    inject_store(r, 1, 0, X, 8, 0x0000000b0000000aull, SEM_WEAK, SCOPE_CTA, 0);
    inject_run(r);
    assert_int_equal(llc(r, "O", "ReqWTfwd"), 3);
    assert_int_equal(stat(r, "gpu.l2[0].wt_split"), 1);
    assert_string_equal(inject_l1_state(r, 0, X), "O"); /* kept */
    assert_int_equal(ld(r, 0, X), 0xa);
    fence(r, 2);
    assert_int_equal(ld(r, 2, X + 4), 0xb);
    inject_free(r);
}

/* Owner prediction: the first ReqWTo has no prediction and goes to the LLC
 * as ReqWTfwd; the owner's answer names it, so the next is sent to it
 * (passed by the LLC without a lookup). When ownership has moved on, the
 * old owner Nacks and the requester retries at the LLC with a ReqWT, which
 * revokes the new owner's word: the value lands once. */
static void predicted_writes_nack_and_retry_on_a_misprediction(void **state)
{
    (void)state;
    struct inject *r = rig(SPXD, "fcs.load=odata", "fcs.store=wto", "fcs.rmw=odata");
    ld(r, 0, X); /* SM 0 owns X */
    st(r, 1, X, 1);
    assert_int_equal(llc(r, "O", "ReqWTfwd"), 1);
    st(r, 1, X, 2);
    assert_int_equal(llc(r, "O", "Predicted"), 1);
    assert_int_equal(llc(r, "O", "OwnerAnswer"), 2);
    assert_int_equal(dn(r, "O", "FwdWT"), 2);
    assert_int_equal(ld(r, 0, X), 2);
    ld(r, 2, X); /* ownership moves to SM 2 */
    assert_string_equal(inject_l1_state(r, 2, X), "O");
    st(r, 1, X, 3); /* predicted to SM 0: a misprediction */
    assert_int_equal(dn(r, "BW", "Nack"), 1);
    assert_int_equal(stat_sum(r, "gpu.sm[%u].l1.nacks_sent", 4), 1);
    assert_int_equal(llc(r, "O", "ReqWTOwned"), 1); /* the retry revokes */
    fence(r, 3);
    assert_int_equal(ld(r, 3, X), 3);
    assert_int_equal(ld(r, 2, X), 3);
    inject_free(r);
}

/* Predicted reads: a ReqV gathered from an owner names it, so the next
 * ReqVo goes straight to it, which answers from its owned word and keeps it.
 * An atomic typed ReqWTo+data is performed at the predicted owner. */
static void predicted_reads_and_atomics_go_to_the_owner(void **state)
{
    (void)state;
    struct inject *r = rig(SPXD, "fcs.load=vo", "fcs.store=o", "fcs.rmw=wto_data");
    st(r, 0, X, 0x21);                   /* SM 0 owns X (ReqO) */
    assert_int_equal(ld(r, 1, X), 0x21); /* no prediction yet: ReqV, gathered */
    assert_int_equal(llc(r, "O", "ReqVOwned"), 1);
    fence(r, 1); /* self-invalidates SM 1's copy */
    assert_int_equal(ld(r, 1, X), 0x21);
    assert_int_equal(dn(r, "O", "PredV"), 1);
    assert_int_equal(dn(r, "BW", "PredFill"), 1);
    assert_string_equal(inject_l1_state(r, 0, X), "O");
    /* atomics: the first finds the owner through the LLC, the second predicts */
    assert_int_equal(ato(r, 2, X, 1), 0x21);
    assert_int_equal(ato(r, 2, X, 1), 0x22);
    assert_int_equal(llc(r, "O", "Predicted"), 2);
    assert_int_equal(dn(r, "O", "FwdWT"), 2);
    assert_int_equal(ld(r, 0, X), 0x23);
    inject_free(r);
}

/* fcs.mispredict = 100: every prediction names a random other L1; wrong
 * ones are Nacked and retried at the LLC, at most once each, and every
 * value lands. */
static void forced_mispredictions_retry_once(void **state)
{
    (void)state;
    struct inject *r =
        rig(SPXD, "fcs.load=odata", "fcs.store=wto", "fcs.rmw=wto_data", "fcs.mispredict=100");
    ld(r, 0, X);
    for (unsigned i = 0; i < 6; i++)
        st(r, 1 + i % 3, X, 10 + i);
    for (unsigned i = 0; i < 6; i++)
        ato(r, 1 + i % 3, X + 4, 1);
    uint64_t nacks = stat_sum(r, "gpu.sm[%u].l1.nacks_received", 4);
    assert_true(nacks >= 1);
    assert_int_equal(nacks, stat_sum(r, "gpu.sm[%u].l1.nacks_sent", 4));
    assert_int_equal(ld(r, 0, X), 15);
    assert_int_equal(ld(r, 0, X + 4), 6);
    inject_free(r);
}

/* Two DeNovo CPU cores beside the 4 SMs, every load typed ReqS. */
#define DENOVO_CPUS_S "cpu.cores=2", "fcs.load=s"

/* Spec 003 litmus test 6 on the DeNovo L1 (ReqS, §2.4, I6, I7): a CPU
 * core's ReqS makes the line's words shared (S at the L1, a sharer at the
 * LLC); an acquire keeps them, so later loads hit, .sys ones too. A GPU
 * store typed ReqWTfwd to the line, which no L1 owns, is a ReqWT at the
 * LLC: it first invalidates the sharer (Inv, InvAck), so after its
 * acquire the CPU misses and reads the new value. A remote atomic (ReqO+data)
 * invalidates a sharer the same way, and so does the sharer's own atomic
 * (the LLC invalidates "the requester too"): the Inv reaches the line while
 * its ReqO+data waits (BO), before the grant. */
static void denovo_shared_words_survive_acquires_until_a_write(void **state)
{
    (void)state;
    struct inject *r = rig(SPXD, DENOVO_CPUS_S, "fcs.store=wtfwd");
    assert_int_equal(ld(r, CPU0, X), 0);
    assert_string_equal(inject_l1_state(r, CPU0, X), "S");
    assert_string_equal(inject_l2_state(r, X), "S");
    assert_true(dn(r, "I", "LoadShared") == 1 && dn(r, "BS", "FillShared") == 1);
    fence(r, CPU0); /* an acquire: shared words stay */
    assert_true(dn(r, "S", "SelfInv") >= 1);
    assert_string_equal(inject_l1_state(r, CPU0, X), "S");
    assert_int_equal(ld(r, CPU0, X + 4), 0);
    unsigned acq = inject_load(r, CPU0, 0, X + 8, 4, SEM_ACQUIRE, SCOPE_SYS, 0);
    inject_run(r);
    assert_int_equal(inject_value(r, acq), 0);
    assert_int_equal(dn(r, "S", "LoadHit"), 2); /* the .sys acquire load too */
    assert_int_equal(stat(r, "cpu[0].l1.load_misses"), 1);

    st(r, 0, X, 0x61); /* ReqWTfwd, no owner: a ReqWT */
    assert_int_equal(llc(r, "S", "ReqWT"), 1);
    assert_int_equal(dn(r, "S", "Inv"), 1);
    assert_int_equal(llc(r, "SI", "InvAckLast"), 1);
    assert_int_equal(stat(r, "cpu[0].l1.invalidations"), 1);
    assert_string_equal(inject_l1_state(r, CPU0, X), "I");
    fence(r, CPU0);
    assert_int_equal(ld(r, CPU0, X), 0x61); /* a miss: the new value */
    assert_int_equal(stat(r, "cpu[0].l1.load_misses"), 2);

    /* a remote atomic (ReqO+data) invalidates the sharer first */
    assert_int_equal(ld(r, CPU1, X + 4), 0);
    assert_string_equal(inject_l1_state(r, CPU1, X), "S");
    assert_int_equal(ato(r, 1, X + 4, 5), 0);
    assert_string_equal(inject_l1_state(r, CPU1, X), "I");
    assert_int_equal(ld(r, CPU1, X + 4), 5); /* ReqS revokes SM 1's word */
    assert_true(llc(r, "O", "ReqSOwned") >= 1);
    assert_int_equal(dn(r, "O", "RvkO") + dn(r, "O", "RvkOLast"), 1);
    assert_string_equal(inject_l1_state(r, CPU1, X), "S");

    /* the sharer's own atomic: Inv while its ReqO+data waits, then the grant */
    assert_int_equal(ato(r, CPU1, X + 4, 1), 5);
    assert_int_equal(dn(r, "S", "Atomic"), 1);
    assert_int_equal(dn(r, "BO", "Inv"), 1);
    assert_string_equal(inject_l1_state(r, CPU1, X), "O");
    assert_int_equal(ld(r, CPU0, X + 4), 6);
    assert_int_equal(ld(r, CPU1, X), 0x61); /* the word the Inv took: a miss again */
    inject_free(r);
}

/* A ReqS from an L1 that owns words of the line: the LLC revokes them first
 * (R: RvkO, the requester's own words too), which the L1 serves while its
 * ReqS waits (BS); the fill then finds no word owned here and the line is
 * S, with the value the L1 wrote. An eviction drops the S line silently,
 * and the Inv of a later write is just acknowledged. */
static void denovo_shared_read_revokes_its_own_words(void **state)
{
    (void)state;
    struct inject *r = rig(SPXD, "fcs.load=s");
    st(r, 0, X, 0x71); /* ReqO: SM 0 owns word 0 */
    assert_string_equal(inject_l1_state(r, 0, X), "O");
    assert_int_equal(ld(r, 0, X + 4), 0); /* not valid: ReqS */
    assert_int_equal(dn(r, "O", "LoadShared"), 1);
    assert_int_equal(llc(r, "O", "ReqSOwned"), 1);
    assert_int_equal(dn(r, "BS", "RvkO") + dn(r, "BS", "RvkOLast"), 1);
    assert_int_equal(dn(r, "BS", "FillShared"), 1);
    assert_string_equal(inject_l1_state(r, 0, X), "S");
    assert_string_equal(inject_l2_state(r, X), "S");
    assert_int_equal(ld(r, 0, X), 0x71);
    ld(r, 0, Y); /* the L1's one set of 2 ways: Y and Z evict X */
    ld(r, 0, Z);
    assert_int_equal(dn(r, "S", "Replace"), 1);
    st(r, 1, X, 0x72);
    assert_int_equal(dn(r, "I", "Inv"), 1); /* the LLC still counted SM 0 a sharer */
    assert_int_equal(ld(r, 0, X), 0x72);
    inject_free(r);
}

/* An Inv that overtakes the ReqS fill: the LLC answered the ReqS, then
 * invalidated the new sharer (here: it evicts the S line for a miss of
 * another line of its set) while the fill was on its way. The fill answers
 * its load, which the LLC ordered before the Inv, but installs no shared
 * word, so the next load misses. An L1 takes one response a cycle and
 * every forward-vnet message at once, so a fill that waits behind the fills
 * of other lines the CPU read just before lets the Inv pass it. Seven lines
 * of one LLC bank (2 lines a bank; 7 sets of a larger L1) are read at once,
 * some of them later, swept in time, until such races happen. */
static void denovo_inv_overtaking_the_shared_fill(void **state)
{
    (void)state;
    unsigned raced = 0;
    for (uint64_t d = 0; d <= 60 && raced < 3; d += 2) {
        struct inject *r = rig(SPXD, DENOVO_CPUS_S, "fcs.store=wt", "l1.size=4096", "l1.mshrs=16");
        unsigned id[7];
        for (unsigned k = 0; k < 7; k++)
            st(r, 2, X + 0x100 * k, 0x70 + k); /* written through, no owner */
        for (unsigned k = 0; k < 7; k++)
            id[k] = ld_at(r, CPU0, X + 0x100 * k, k < 4 ? 0 : d);
        inject_run(r);
        uint64_t late = dn(r, "BS", "FillSharedLate");
        for (unsigned k = 0; k < 7; k++)
            assert_int_equal(inject_value(r, id[k]), 0x70 + k); /* late fills answer too */
        if (!late) {
            inject_free(r);
            continue;
        }
        raced++;
        assert_true(llc(r, "S", "Replace") >= late);
        assert_int_equal(dn(r, "BS", "Inv"), late);
        assert_int_equal(stat(r, "cpu[0].l1.fills_dropped"), late);
        unsigned shared = 0;
        for (unsigned k = 0; k < 7; k++)
            shared += !strcmp(inject_l1_state(r, CPU0, X + 0x100 * k), "S");
        assert_true(shared <= 7 - late); /* a late fill installs nothing */
        uint64_t misses = stat(r, "cpu[0].l1.load_misses");
        for (unsigned k = 0; k < 7; k++)
            assert_int_equal(ld(r, CPU0, X + 0x100 * k), 0x70 + k);
        assert_true(stat(r, "cpu[0].l1.load_misses") >= misses + late);
        inject_free(r);
    }
    print_message("the Inv overtook a fill in %u timings\n", raced);
    assert_true(raced > 0);
}

/* configs/spandex.ini: an LLC hit costs 129 to 165 core cycles (Table 2:
 * 129-161; the spread is the mesh's hop count), a DRAM access 297 to 361. */
static void spandex_llc_hit_latency_matches_table_2(void **state)
{
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s", config_default_file());
    char *slash = strrchr(path, '/');
    assert_non_null(slash);
    snprintf(slash + 1, sizeof path - (size_t)(slash + 1 - path), "spandex.ini");
    struct config cfg;
    char err[256];
    if (config_load(&cfg, path, NULL, 0, err, sizeof err))
        fail_msg("%s", err);
    struct inject *r = inject_new(&cfg);
    /* line 0 is homed at bank 0 (node 0): SM 0 is 0 hops away, SM 15 six */
    unsigned miss = inject_load(r, 0, 0, 0x0, 4, SEM_WEAK, SCOPE_CTA, 0);
    inject_run(r);
    unsigned near = inject_load(r, 1, 0, 0x0, 4, SEM_WEAK, SCOPE_CTA, 0);
    inject_run(r);
    unsigned far = inject_load(r, 15, 0, 0x0, 4, SEM_WEAK, SCOPE_CTA, 0);
    inject_run(r);
    uint64_t m = inject_latency(r, miss), n = inject_latency(r, near), f = inject_latency(r, far);
    print_message("LLC hit %llu (1 hop) .. %llu (6 hops) core cycles, DRAM %llu (0 hops)\n",
                  (unsigned long long)n, (unsigned long long)f, (unsigned long long)m);
    assert_in_range(n, 129, 165);
    assert_in_range(f, 129, 165);
    assert_int_equal(f - n, 5 * 6); /* 5 more hops each way, 3 cycles a hop */
    assert_in_range(m, 297, 361);
    inject_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(store_owns_the_word_and_remote_reads_gather_it),
        cmocka_unit_test(remote_reads_are_answered_by_the_one_owner_with_l1_to_l1),
        cmocka_unit_test(ownership_moves_between_l1s),
        cmocka_unit_test(atomics_are_performed_at_the_owner),
        cmocka_unit_test(kernel_end_writes_owned_words_back),
        cmocka_unit_test(evicted_owned_words_are_written_back),
        cmocka_unit_test(llc_eviction_revokes_owned_words),
        cmocka_unit_test(crossed_multiword_requests_finish),
        cmocka_unit_test(gpu_coherence_l1_writes_through),
        cmocka_unit_test(forwarded_updates_are_performed_at_the_owner),
        cmocka_unit_test(predicted_writes_nack_and_retry_on_a_misprediction),
        cmocka_unit_test(predicted_reads_and_atomics_go_to_the_owner),
        cmocka_unit_test(forced_mispredictions_retry_once),
        cmocka_unit_test(mesi_shared_lines_are_invalidated_before_a_write),
        cmocka_unit_test(mesi_stores_own_the_line),
        cmocka_unit_test(llc_parked_requests_replay_in_arrival_order),
        cmocka_unit_test(mesi_forwards_keep_their_order_behind_a_write_back),
        cmocka_unit_test(denovo_shared_words_survive_acquires_until_a_write),
        cmocka_unit_test(denovo_shared_read_revokes_its_own_words),
        cmocka_unit_test(denovo_inv_overtaking_the_shared_fill),
        cmocka_unit_test(spandex_llc_hit_latency_matches_table_2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
