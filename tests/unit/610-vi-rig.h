/*
 * 610-vi-rig.h - what the directed tests of the vi family (gpuvi, gpuvini,
 * ideal; tests 610-639) share on top of directed-rig.h: the walk through
 * every cell of their common L1 table, the parts of the L2 walk their banks
 * have in common, and the tests that hold for more than one of them.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TESTS_VI_RIG_H
#define TESTS_VI_RIG_H

#include "directed-rig.h"

/* Drive every cell of the L1 table (shared by the three protocols): the
 * write-through cells, then the invalidations. Each step says which cells
 * it means to fire. */
static inline void l1_every_transition(struct inject *r)
{
    write_through_l1_walk(r);
    /* V+Inv, I+Inv (a stale sharer bit) and VM+Inv: SMs 0, 1 read X, SM 3
     * reads Y; SM 0 drops X silently (Y, Z); SM 1 writes X at once while SM 2
     * writes it: the bank invalidates SM 1's VM copy and SM 0's stale bit */
    ld(r, 0, X);
    ld(r, 1, X);
    ld(r, 0, Y);
    ld(r, 0, Z);
    st_at(r, 1, X, 8, 0);
    st_at(r, 2, X, 9, 0);
    inject_run(r);
    ld(r, 3, X);
    st(r, 2, X, 10); /* V+Inv at SM 3 */
    /* VM+Replace: SM 0 holds X and Z. Its loads of a line it is writing (Q:
     * II, so each is performed at the L2 and fills nothing) queue twelve data
     * responses from bank 0 ahead of the ack of its next write, to X;
     * meanwhile it touches Z and fills Y from bank 1, replacing the VM line */
    const addr_t Q = 0x500; /* bank 0 set 1 */
    st(r, 3, Q, 1);
    ld(r, 3, Y);
    ld(r, 0, X);
    ld(r, 0, Z);
    st_at(r, 0, Q, 2, 0);
    for (unsigned i = 1; i <= 12; i++)
        ld_at(r, 0, Q, i);
    st_at(r, 0, X, 11, 13);
    ld_at(r, 0, Z, 14);
    ld_at(r, 0, Y, 15);
    inject_run(r);
    /* IV+Inv (the fill is used once) and II+Inv: SM 0's read of X is served,
     * then SM 1's write invalidates SM 0 while the fill is on its way; SM 2
     * writes X (no copy: I->II) and SM 3's write then invalidates SM 2's stale
     * bit ... which II acks */
    ld(r, 3, X);
    ld_at(r, 0, X, 0);
    st_at(r, 1, X, 12, 30);
    inject_run(r);
    ld(r, 2, X);
    ld(r, 2, Y);
    ld(r, 2, Z);
    st_at(r, 2, X, 13, 0);
    st_at(r, 3, X, 14, 1);
    inject_run(r);
}

/* The L2 cells of the states every vi-family bank has (I, IV, V, S), up to
 * the first write to a line another L1 shares. */
static inline void l2_stable_walk(struct inject *r)
{
    const addr_t D = 0x180, E = 0x100, F = 0x300; /* bank 1 set 1; bank 0 set 1 */
    /* I+GetS, I+Write, I+Atomic; IV+GetS/Write/Atomic stall; IV+MemData;
     * V+GetS, V+Write, V+Atomic (the parked requests replayed) */
    ld_at(r, 0, D, 0);
    ld_at(r, 1, D, 10);
    st_at(r, 2, D, 1, 11);
    ato_at(r, 3, D, 1, 12);
    st_at(r, 0, E, 1, 13);
    ato_at(r, 0, F, 1, 14);
    inject_run(r);
    /* V+Replace: A, B, C written, never read */
    st(r, 0, A, 1);
    st(r, 0, B, 1);
    st(r, 0, C, 1);
    /* S+GetS, S+Write (the only sharer writes), S+Atomic (the only sharer) */
    ld(r, 0, X);
    ld(r, 0, X);
    st(r, 0, X, 2);
    ato(r, 0, X, 1);
}

/* The states of a bank that waits for invalidation acks (gpuvi, gpuvini;
 * ideal has none): S_W and S_A, with every request they stall. */
static inline void l2_ack_wait_walk(struct inject *r)
{
    /* S+WriteInv -> S_W; S_W stalls every request kind; S_W+InvAck (3
     * sharers), S_W+LastAck */
    ld(r, 0, X);
    ld(r, 1, X);
    ld(r, 2, X);
    st_at(r, 0, X, 3, 0);
    st_at(r, 1, X, 4, 5);  /* WriteInv: SM 0 keeps its copy */
    ato_at(r, 2, X, 1, 6); /* AtomicInv */
    ld_at(r, 3, X, 7);     /* GetS */
    inject_run(r);
    ld(r, 0, X);
    ld(r, 1, X);
    st_at(r, 1, X, 5, 0);
    ato_at(r, 1, X, 1, 5); /* Atomic: nobody but SM 1 is named */
    inject_run(r);
    ld(r, 0, X);
    ld(r, 1, X);
    st_at(r, 1, X, 5, 0);
    st_at(r, 1, X, 6, 5); /* Write: nobody but SM 1 is named */
    inject_run(r);
    /* S+AtomicInv -> S_A; S_A stalls GetS, Write, Atomic; InvAck, LastAck */
    ld(r, 0, Z);
    ld(r, 1, Z);
    ld(r, 2, Z);
    ato_at(r, 3, Z, 1, 0);
    ld_at(r, 3, Z, 5);
    st_at(r, 1, Z, 7, 6);
    ato_at(r, 2, Z, 1, 7);
    inject_run(r);
}

/* The INV/DATA race (a test of gpuvi and ideal; *state: the protocol
 * setting): SM 3's read puts X in the L2; SM 0's read is served, then SM 1's
 * write invalidates SM 0 while the fill is on its way. */
static inline void fill_raced_by_inv_is_used_once(void **state)
{
    struct inject *r = rig(*state);
    ld(r, 3, X);
    check_fill_raced_by_inv(r, 0, 1, 30, 0);
    inject_free(r);
}

#endif
