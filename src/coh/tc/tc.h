/*
 * tc.h - messages of Temporal Coherence (TC-Strong `tcs`, TC-Weak `tcw`) and
 * what its controllers share.
 *
 * Spec 002 §3.7-3.11 (paper §6, Table 2). Two virtual networks (Table 4: TC
 * needs no more than the non-coherent baseline): requests L1->L2 (GETS, GETX
 * = a write-through from an L1 without a valid copy, UPGR = a write-through
 * to a line the L1 holds valid, carrying its local timestamp, ATOMIC) and
 * responses L2->L1 (DATA, ACK, ACK-G, DATA-G and the atomic's results; the
 * G forms carry the Global Write Completion Time). The L2 never sends an
 * unsolicited message, so two vnets cannot deadlock (spec 002 §7 item 6).
 * A request message is the core's own message, re-addressed; the L2 turns it
 * into the response; the L1 turns that back into the core response.
 * Time: one global counter in core cycles, eng->now / core period (spec 002
 * §8 item 2), read by every controller at no cost. Timestamps are 64-bit in
 * the simulator; tc.ts_bits only sets when the L1s flash-invalidate (§3.11).
 * msg->ts: the lease end (DATA, DATA-G, ATOMIC results), the requester's
 * local timestamp (UPGR, ATOMIC) or the requested lease end (tcs GETS);
 * msg->ts2: the GWCT (ACK-G, DATA-G, atomic results with TC_F_GWCT; tcw
 * DATA with TC_F_GWCT: the GWCT of the write whose data it carries).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef COH_TC_TC_H
#define COH_TC_TC_H

#include "coh/ctrl.h"

enum {
    MSG_TC_GETS = MSG_PROTO_BASE, /* read a line (control) */
    MSG_TC_GETX,                  /* write-through of the masked bytes, no valid copy */
    MSG_TC_UPGR,                  /* write-through to a valid copy; ts = its local timestamp */
    MSG_TC_ATOMIC,                /* atomic performed at the L2 */
    MSG_TC_DATA,                  /* line data; ts = lease end */
    MSG_TC_ACK,                   /* write performed; ACK-G when TC_F_GWCT */
    MSG_TC_DATAG,                 /* write performed, the line refreshed: ts = lease, ts2 = GWCT */
    MSG_TC_ATOMRSP,               /* atomic results; GWCT when TC_F_GWCT */
};

enum { TC_VNET_REQ, TC_VNET_RSP, TC_NVNETS };

/* msg->flags */
#define TC_F_MERGED  0x01 /* GETS: the fill answers the loads merged in the L1's TBE */
#define TC_F_EXPIRED 0x02 /* GETS: the L1 held the tag with an expired lease (predictor hint) */
#define TC_F_LEASE   0x04 /* GETS: ts is the requested lease end (tcs, fixed lease) */
#define TC_F_HAS_TS  0x08 /* ATOMIC: ts is the local timestamp of the copy it dropped */
#define TC_F_FENCES  0x10 /* write: the writer's SM fenced in this kernel (t_write hint) */
#define TC_F_GWCT    0x20 /* response: ts2 is a GWCT */
#define TC_F_PRIVATE 0x40 /* ACK: a private write (the L2 advanced its timestamp by one) */
#define TC_F_NOCOPY                                                                                \
    0x80 /* GETS: a strong load performed at the L2 (tc.strong_loads = l2):                        \
            the L1 keeps no copy, so no lease is granted */

extern const char *const tc_vnet_names[TC_NVNETS];

/* The variant a controller runs. */
enum tc_variant { TC_STRONG, TC_WEAK };

/* The lease policy of tc.lease for `v`: a fixed lease (returns true, *cycles
 * set) or the predictor (false). config_load has checked its form. */
bool tc_lease_fixed(const struct machine_view *cfg, enum tc_variant v, uint32_t *cycles);

/* ---- controllers (tc_l1.c, tc_l2.c) ---- */
extern const struct coh_table tcs_l1_table, tcw_l1_table, tcs_l2_table, tcw_l2_table;
struct comp *tcs_l1_create(const struct ctrl_wiring *w);
struct comp *tcw_l1_create(const struct ctrl_wiring *w);
struct comp *tcw_nogwct_l1_create(const struct ctrl_wiring *w); /* test only: tcw-nogwct */
void tc_l1_destroy(struct comp *c);
unsigned tc_l1_peek(struct comp *c, addr_t line, uint8_t *data, bool *has_data);

struct comp *tcs_l2_create(const struct ctrl_wiring *w);
struct comp *tcw_l2_create(const struct ctrl_wiring *w);
void tc_l2_destroy(struct comp *c);
void tc_l2_dma(struct comp *c, addr_t line, uint8_t *buf, const struct bytemask *wmask);
unsigned tc_l2_peek(struct comp *c, addr_t line, uint8_t *data, bool *has_data);

/* ---- the invariant observer (tc_obs.c; only with --check) ----
 * Lease inclusion (spec 002 §7 items 1-2): a valid L1 copy's local timestamp
 * never exceeds its L2 line's global timestamp (or the one an MSHR keeps for
 * an evicted line). Write visibility: a hit on a valid (not VM) L1 line
 * returns the serialised value, except - TC-Weak only - until the largest
 * GWCT promised to a writer of the line (§7 items 4-5). Its state is the
 * protocol's per-machine context (proto_desc.attach, ctrl_wiring.proto_ctx):
 * NULL without an observer, and every call below then does nothing. Banks
 * register; L1s and banks report. */
struct observer;
struct tc_obs;
void *tc_obs_attach(const struct ctrl_wiring *w);
void tc_obs_detach(void *ctx);
void tc_obs_bank(struct tc_obs *o, unsigned bank, struct comp *l2);
void tc_obs_bank_gone(struct tc_obs *o, unsigned bank);
/* The bank's global timestamp for `line` (line or MSHR), false if it keeps none. */
bool tc_l2_gts(struct comp *l2, addr_t line, uint64_t *gts);
/* A write performed at a bank was promised visibility by `gwct` (0: at once). */
void tc_obs_write(struct tc_obs *o, addr_t line, uint64_t gwct);
/* An L1 installs or hits a copy valid until `local_ts` at core cycle `now`;
 * `data`/`mask` the bytes handed out (NULL: an install, not a hit). */
void tc_obs_l1(struct tc_obs *o, struct observer *obs, const char *who, enum tc_variant v,
               addr_t line, uint64_t local_ts, uint64_t now, uint32_t line_bytes,
               const uint8_t *data, const struct bytemask *mask);
/* The largest GWCT promised to a writer of `line` (0: none, or no observer). */
uint64_t tc_obs_promised(struct tc_obs *o, addr_t line);

/* ---- read-only views for gpucoh verify (src/verify) ----
 * The state a TC controller keeps outside struct ctrl, which the explorer's
 * canonical digest must cover: an L1's warp slots (the largest GWCT each has
 * received, the requests held behind a GWCT wait), whether its SM fenced in
 * this kernel (the t_write hint of its writes), the line whose lease ended last
 * (the expired-copy hint of its next GETS); a bank's current lease, the next
 * time its sweep looks at its MSHRs, and whether a write blocks it. */
unsigned tc_l1_slots(struct comp *l1);
uint64_t tc_l1_slot(struct comp *l1, unsigned slot, const struct msg_list **held);
bool tc_l1_fenced(struct comp *l1);
addr_t tc_l1_expired_line(struct comp *l1);
struct tc_l2_view {
    int64_t lease;     /* core cycles */
    uint64_t next_due; /* core cycle; UINT64_MAX: none armed */
    bool blocked;      /* tcs, stall_scope = bank: the head write waits */
};
void tc_l2_view(struct comp *l2, struct tc_l2_view *v);

#endif
