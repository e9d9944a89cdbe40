/*
 * mg.h - the multi-GPM protocols (spec 004b §2.3-2.8): messages, flags and
 * the L2 bank they share.
 *
 * The L1 is rc's write-through L1 (coh/nc) with an extension (mg_l1.c)
 * whose releases wider than .cta go through the L2 banks (mg_l1_create).
 * Between an L1 and the banks of its GPM travel rc's requests and responses
 * plus MSG_MG_REL/RELACK; between the banks of different GPMs (noc/sysnet)
 * two vnets: requests, invalidations and release markers on one (FIFO per
 * GPM pair: a marker arrives after everything sent before it), responses and
 * acknowledgements on the other.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef COH_MG_MG_H
#define COH_MG_MG_H

#include "coh/ctrl.h"
#include "coh/nc/nc.h"
#include "noc/sysnet.h"

enum {
    MSG_MG_REL = MSG_NC_ATOMRSP + 1, /* release: L1 -> its banks, bank -> other GPMs' banks */
    MSG_MG_RELACK,                   /* ... done */
    MSG_MG_INV,                      /* home -> sharer: drop the region's lines (no ack) */
    MSG_MG_MARK,                     /* release marker: every earlier message has arrived? */
    MSG_MG_MARKACK,                  /* ... yes */
    MSG_MG_ACQ,                      /* software coherence: drop copies of remote lines (L1 ->
                                        its banks, sw-h: bank -> its GPU's banks); answered by
                                        MSG_MG_RELACK (to an L1) or MSG_MG_MARKACK */
    MSG_MG_INVACK,                   /* mg.release = counted: an invalidation (and what a GPU
                                        home passed on of it) has arrived, or a write a GPU
                                        home forwarded is at the system home and its
                                        invalidations have arrived */
};

/* msg->flags: the L1's, in the share nc.h gives rc's L1's extension
 * (NC_F_L1_EXT) ... */
#define MG_F_RELEASED 0x100  /* L1: this request's release is done */
#define MG_F_ACQUIRED 0x4000 /* L1: this request's acquire at the banks is done */
/* ... and the banks', outside the L1's bits (NC_F_L1) */
#define MG_F_SYS    0x200  /* arrived from another GPM: answer through the sysnet */
#define MG_F_FILL   0x400  /* a forwarded load whose answer may fill this bank */
#define MG_F_DIR    0x800  /* the home's directory has seen this request */
#define MG_F_TO_SYS 0x1000 /* in a bank's pipeline: leaves through the sysnet */
#define MG_F_FILL2  0x2000 /* hmg: ... may fill the GPU home that passed it on */
#define MG_F_FETCH  0x80   /* hmg: a GPU home's read of a line for a .gpu atomic */
#define MG_F_EVICT  0x8    /* MSG_MG_INV: caused by a directory eviction (Fig. 5.11) */
#define MG_F_ACKME                                                                                 \
    0x40 /* counted: a write or atomic a GPU home forwarded (its                                   \
            generation in msg->acks): acknowledge with MSG_MG_INVACK */
#define MG_F_BANK                                                                                  \
    (MG_F_SYS | MG_F_FILL | MG_F_DIR | MG_F_TO_SYS | MG_F_FILL2 | MG_F_FETCH | MG_F_EVICT |        \
     MG_F_ACKME)
_Static_assert(!(MG_F_BANK & NC_F_L1), "a multi-GPM bank's flag shares a bit with the L1's");
_Static_assert(!((MG_F_BANK | NC_F_L1) & (SYSNET_F_FREE | SYSNET_F_AFTER)),
               "a multi-GPM flag shares a bit with the system network's");

extern const struct coh_table rc_l1_table, mg_l2_table, mg_dir_table, mg_round_table, mg_slot_table;
extern const struct proto_desc proto_nhcc, proto_hmg, proto_ideal_mg, proto_nocache_mg;
extern const struct proto_desc proto_sw_nh, proto_sw_h;
extern const struct proto_desc proto_hmg_noinv, proto_sw_nh_noinv,
    proto_nocache_mg_norel; /* test only */

/* The L1 (mg_l1.c). */
struct comp *mg_l1_create(const struct ctrl_wiring *w);
struct comp *mg_sw_l1_create(const struct ctrl_wiring *w);

/* The L1's release and acquire rounds, read-only, for gpucoh verify's
 * digest (src/verify/verify_mg.c): the request held for its release or
 * acquire at the banks and that round's type and counts; software
 * coherence's acquiring responses waiting for a round and in one, and that
 * round's counts. */
struct mg_l1_view {
    const struct msg *rel_held;
    uint16_t rel_type;
    unsigned rel_sent, rel_acks;
    const struct msg_list *acq_next, *acq_round;
    unsigned acq_sent, acq_acks;
};
void mg_l1_view(struct comp *l1, struct mg_l1_view *v);

#endif
