/*
 * mesi.h - messages of `mesi`, the write-back MESI protocol with an L2
 * directory (spec 002 §3.6, after gem5's MESI_Two_Level), and what its two
 * controllers share.
 *
 * Five virtual networks (spec 002 Table 4: MESI 5), one per message class:
 *   request   L1->L2  GETS, GETX, UPGRADE (control)
 *   forward   L2->L1  FWD_GETS, FWD_GETX, INV (cls INV for a write's
 *                     invalidations, RCL for an L2 eviction's recalls)
 *   response  both    L2->L1 DATA, DATA_E, DATA_X, ACK_X;
 *                     L1->L2 INV_ACK, OWNER_DATA (the owner's answer to a
 *                     forward or a recall, with the line if it was dirty)
 *   unblock   L1->L2  UNBLOCK (the new owner has its exclusive data)
 *   writeback both    L1->L2 PUTX (with the line if dirty); L2->L1 WB_ACK
 * DEVIATION: the spec's fifth class is L2<->memory; in gpucoh the DRAM
 *   channels have their own ports, so the fifth crossbar vnet carries the
 *   L1 write-backs, which gem5 sends on the request network.
 * Traffic classes (spec 002 §6, traffic by class: MESI's atomics count as ST): data for a
 * GETS is LD; data for a GETX or UPGRADE (stores and atomics alike) and dirty
 * write-backs are ST; requests, forwards, grants, unblocks and write-back
 * acks are REQ; invalidations and their acks are INV, recalls and their
 * answers RCL. The crossbar connects L1s to L2 banks only, so an owner's
 * data reaches a requester through the home bank (four hops, not gem5's
 * three).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef COH_MESI_MESI_H
#define COH_MESI_MESI_H

#include "coh/ctrl.h"
#include "coh/sharers.h"

enum {
    MSG_MESI_GETS = MSG_PROTO_BASE, /* read permission */
    MSG_MESI_GETX,                  /* write permission and the line */
    MSG_MESI_UPGRADE,               /* write permission for a line held in S */
    MSG_MESI_PUTX,                  /* give up an E/M line (data if dirty) */
    MSG_MESI_DATA,                  /* the line, shared (S) */
    MSG_MESI_DATA_E,                /* the line, exclusive clean (E) */
    MSG_MESI_DATA_X,                /* the line with write permission (M) */
    MSG_MESI_ACK_X,                 /* write permission without data (UPGRADE) */
    MSG_MESI_FWD_GETS,              /* to the owner: give a copy to the bank, keep S */
    MSG_MESI_FWD_GETX,              /* to the owner: give the line up to the bank */
    MSG_MESI_INV,                   /* invalidate (cls INV) or recall (cls RCL) */
    MSG_MESI_INV_ACK,               /* the copy is gone (cls of the INV) */
    MSG_MESI_OWNER_DATA,            /* the owner's answer (data if dirty) */
    MSG_MESI_UNBLOCK,               /* exclusive data received */
    MSG_MESI_WB_ACK,                /* the PUTX was taken */
};

enum { MESI_VNET_REQ, MESI_VNET_FWD, MESI_VNET_RSP, MESI_VNET_UNBLOCK, MESI_VNET_WB, MESI_NVNETS };

/* msg->flags */
#define MESI_F_DIRTY 0x1 /* PUTX, OWNER_DATA: the data differs from the bank's */

extern const char *const mesi_vnet_names[MESI_NVNETS];

/* Most SMs a sharer vector (two words of line metadata) can name. */
#define MESI_MAX_SHARERS COH_MAX_SHARERS

extern const struct coh_table mesi_l1_table, mesi_l2_table;

/* The L1 (mesi_l1.c). */
struct comp *mesi_l1_create(const struct ctrl_wiring *w);
void mesi_l1_destroy(struct comp *c);
/* The SWMR observer's per-machine context (--check; NULL without an observer). */
void *mesi_swmr_attach(const struct ctrl_wiring *w);
void mesi_swmr_detach(void *ctx);

/* The L2 bank (mesi_l2.c). */
struct comp *mesi_l2_create(const struct ctrl_wiring *w);
void mesi_l2_destroy(struct comp *c);
void mesi_l2_dma(struct comp *c, addr_t line, uint8_t *buf, const struct bytemask *wmask);

#endif
