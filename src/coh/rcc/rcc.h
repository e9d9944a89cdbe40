/*
 * rcc.h - messages of Relativistic Cache Coherence (RCC-SC `rccsc`, RCC-WO
 * `rccwo`) and what its controllers share.
 *
 * Spec 004a §3 (Ren's thesis, Chapter 3). Time is logical: every SM keeps a
 * clock `now` (held by its L1, through which all of the SM's global accesses
 * pass), every L1 line a lease end `exp`, every L2 line the version `ver` of
 * its last write and the largest lease it granted `exp`, every bank (memory
 * partition) `mnow`, the largest ver/exp it ever evicted. A read moves the
 * reader's clock to the version it reads; a write takes a version beyond
 * every lease granted on the line and moves its writer's clock there, so no
 * write waits for a lease to end. Two virtual networks (spec 004a §3.5):
 * requests L1->L2 (GETS, WRITE, ATOMIC) and responses L2->L1 (DATA, RENEW,
 * ACK, the atomic's result). The L2 never sends an unsolicited message and
 * needs no recall: L1 copies expire by themselves.
 * Timestamps are 64-bit in the simulator and travel in the messages:
 *   GETS    ts = the requester's now, ts2 = the lease end of the expired copy
 *           the L1 still holds (0: it holds no data, spec 004a §9 item 4);
 *   WRITE, ATOMIC  ts = the requester's now (rccwo: its write view);
 *   DATA    ts = exp, ts2 = ver;  RENEW  ts = exp;  ACK, ATOMRSP  ts2 = ver;
 *   FLUSH   ts = the base of the epoch a rollover moves everyone to.
 * rcc.ts_bits sets the stored width: a bank that must store a timestamp past
 * the current epoch (2^ts_bits values) rolls over and stops every bank and
 * L1 with the stall ring (see rcc_l2.c); FLUSH (response vnet) and FLUSHED
 * (request vnet) are its messages to and from the L1s; STALL and RESUME
 * travel on the ring's own links, from each bank to the next.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef COH_RCC_RCC_H
#define COH_RCC_RCC_H

#include "coh/ctrl.h"

enum {
    MSG_RCC_GETS = MSG_PROTO_BASE, /* read a line */
    MSG_RCC_WRITE,                 /* write-through of the masked bytes */
    MSG_RCC_ATOMIC,                /* atomic performed at the L2 */
    MSG_RCC_DATA,                  /* the line, its lease end and version */
    MSG_RCC_RENEW,                 /* a new lease for the copy the L1 holds, no data */
    MSG_RCC_ACK,                   /* write performed at version ts2 */
    MSG_RCC_ATOMRSP,               /* atomic results, performed at version ts2 */
    MSG_RCC_FLUSH,                 /* rollover: drop every copy, clock to the epoch's base ts */
    MSG_RCC_FLUSHED,               /* ... done (to the bank that started the rollover) */
    MSG_RCC_STALL,                 /* the stall ring's flit: stop (bank to next bank) */
    MSG_RCC_RESUME,                /* ... take requests again */
};

enum { RCC_VNET_REQ, RCC_VNET_RSP, RCC_NVNETS };

/* msg->flags */
#define RCC_F_MERGED 0x01 /* GETS: the fill answers the loads merged in the L1's TBE */

extern const char *const rcc_vnet_names[RCC_NVNETS];

/* The variant a controller runs. */
enum rcc_variant { RCC_SC, RCC_WO };

/* The epoch of logical time `t` under a stored width of `bits`. */
static inline uint64_t rcc_epoch(uint64_t t, unsigned bits)
{
    return bits >= 64 ? 0 : t >> bits;
}

/* ---- controllers (rcc_l1.c, rcc_l2.c) ---- */
extern const struct coh_table rccsc_l1_table, rccwo_l1_table, rcc_l2_table, rcc_ring_table;
struct comp *rccsc_l1_create(const struct ctrl_wiring *w);
struct comp *rccwo_l1_create(const struct ctrl_wiring *w);
void rcc_l1_destroy(struct comp *c);
unsigned rcc_l1_peek(struct comp *c, addr_t line, uint8_t *data, bool *has_data);
/* The SM's logical clock now (rccwo: the read view, *wview the write view),
 * the livelock guard's pending ticks included. */
uint64_t rcc_l1_now(struct comp *c, uint64_t *wview);
/* proto_desc.lease_passed: whether the L1's clock has passed `mark`. */
bool rcc_l1_lease_passed(struct comp *c, uint64_t mark);
/* The lease end of the L1's copy of `line`, false if it holds none. */
bool rcc_l1_exp(struct comp *c, addr_t line, uint64_t *exp);

struct comp *rcc_l2_create(const struct ctrl_wiring *w);
void rcc_l2_destroy(struct comp *c);
void rcc_l2_dma(struct comp *c, addr_t line, uint8_t *buf, const struct bytemask *wmask);
unsigned rcc_l2_peek(struct comp *c, addr_t line, uint8_t *data, bool *has_data);
/* The bank's ver and exp of `line` (false: not present in V), and its mnow. */
bool rcc_l2_stamps(struct comp *c, addr_t line, uint64_t *ver, uint64_t *exp);
uint64_t rcc_l2_mnow(struct comp *c);
/* proto_desc.lease_mark: the largest lease end the bank has granted SM `sm`'s
 * L1 (DATA or RENEW), those still in flight included. */
uint64_t rcc_l2_lease_mark(struct comp *c, unsigned sm);

/* ---- read-only views for gpucoh verify (src/verify) ----
 * The state a bank keeps outside struct ctrl, which the explorer's canonical
 * digest must cover: a line's predictor level (V only), its MSHR's clocks and
 * merged write bytes, the bank's mnow, and whether a rollover is under way
 * (the explorer runs with rcc.ts_bits = 64, where none ever starts). */
struct rcc_l2_view {
    uint8_t level;                  /* the line's predictor level (line in V) */
    bool mshr;                      /* an MSHR is open for the line: the rest is set */
    bool hasread, haswrite;         /* lastrd / lastwr and acked hold clocks */
    uint64_t lastrd, lastwr, acked; /* logical times */
    const struct bytemask *wmask;   /* merged write bytes, in arrival order */
    const uint8_t *wdata;
    uint64_t mnow;
    bool rolling; /* the stall ring is busy, or requests or FLUSHes wait for it */
};
void rcc_l2_view(struct comp *l2, addr_t line, struct rcc_l2_view *v);

/* ---- the invariant observer (rcc_obs.c; only with --check) ----
 * Spec 004a §8.1: R1 every SM's now never decreases; R2 an L1 copy's exp
 * never exceeds its L2 line's (or, the line evicted, the bank's mnow); R4
 * no two values of a line are readable at one logical time: a hit at a
 * logical time at or past the L2 line's version returns the line's current
 * (serialised) value. L1s report; the observer reads the banks of the
 * machine's RCC context (proto_desc.attach, ctrl_wiring.proto_ctx). */
struct observer;
/* The banks of an RCC context (NULL: none). */
const struct ctrl_bank_set *rcc_banks(const void *ctx);
/* An L1 installs (data NULL) or hits a copy valid until `exp` at logical
 * time `now`; `data`/`mask` are the bytes a hit hands out. */
void rcc_obs_l1(const void *ctx, struct observer *o, const char *who, addr_t line, uint64_t exp,
                uint64_t now, uint32_t line_bytes, const uint8_t *data,
                const struct bytemask *mask);
/* An SM's clock moved from `was` to `now` (R1). */
void rcc_obs_now(const char *who, uint64_t was, uint64_t now);

#endif
