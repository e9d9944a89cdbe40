/*
 * vi.h - messages of the directory protocols GPU-VI and GPU-VIni and of the
 * ideal-coherence reference, and what their controllers share.
 *
 * Spec 002 §3.4 (Table 4: GPU-VI and GPU-VIni use 4 virtual networks):
 * requests L1->L2 (GETS, write-through, atomic), responses L2->L1 (DATA,
 * WRACK, ATOMRSP), invalidations L2->L1 (INV: cls INV for those a write or
 * atomic causes, RCL for those an L2 or directory eviction causes) and their
 * acks L1->L2 (INVACK, counted in the class of the INV it answers).
 * A request message is the core's own message, re-addressed; the L2 turns it
 * into the response; the L1 turns that back into the core response. An INV
 * is allocated by the L2 bank; the L1 turns it into its INVACK.
 * The ideal reference (spec 002 §3.3) uses the first two vnets only: its
 * invalidations travel on a free channel outside the crossbar (vi_bus below).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef COH_VI_VI_H
#define COH_VI_VI_H

#include "coh/ctrl.h"
#include "coh/sharers.h"

enum {
    MSG_VI_GETS = MSG_PROTO_BASE, /* read a line (control) */
    MSG_VI_WRITE,                 /* write-through of the masked bytes (GETX with data) */
    MSG_VI_ATOMIC,                /* atomic performed at the L2 */
    MSG_VI_DATA,                  /* line data for a GETS */
    MSG_VI_WRACK,                 /* write performed at the L2 */
    MSG_VI_ATOMRSP,               /* atomic results */
    MSG_VI_INV,                   /* invalidate the line (cls INV or RCL) */
    MSG_VI_INVACK,                /* the line is gone from this L1 (same cls as the INV) */
};

enum { VI_VNET_REQ, VI_VNET_RSP, VI_VNET_INV, VI_VNET_ACK, VI_NVNETS };

/* msg->flags: this GETS answers the loads merged in the L1's TBE. */
#define VI_F_MERGED 0x1

extern const char *const vi_vnet_names[VI_NVNETS];

/* Most SMs a sharer vector (two words of line metadata) can name. */
#define VI_MAX_SHARERS COH_MAX_SHARERS

/* ---- the L1 (vi_l1.c), shared by the three protocols ---- */
extern const struct coh_table vi_l1_table, vini_l1_table, ideal_l1_table;
struct comp *vi_l1_create(const struct ctrl_wiring *w);
struct comp *vini_l1_create(const struct ctrl_wiring *w);
struct comp *ideal_l1_create(const struct ctrl_wiring *w);
void vi_l1_connect(struct comp *c, const struct ctrl_links *l);
void vi_l1_destroy(struct comp *c);
#define VI_L1_OPS(create_)                                                                         \
    {                                                                                              \
        create_, vi_l1_connect, ctrl_in_port, vi_l1_destroy, NULL, ctrl_peek, ctrl_stats           \
    }

/* ---- the L2 banks (vi_l2.c: GPU-VI and ideal; vini_l2.c: GPU-VIni) ---- */
extern const struct coh_table vi_l2_table, ideal_l2_table, vini_l2_table;

/* Symmetry over the L1s (struct proto_symmetry): the message types an L1
 * sends and those a bank sends (ideal's too: its free invalidation channel,
 * below, is one port per L1, empty between the explorer's events). */
#define VI_SYMMETRY_UP                                                                             \
    (PROTO_MSG_BIT(MSG_VI_GETS) | PROTO_MSG_BIT(MSG_VI_WRITE) | PROTO_MSG_BIT(MSG_VI_ATOMIC) |     \
     PROTO_MSG_BIT(MSG_VI_INVACK))
#define VI_SYMMETRY_DOWN                                                                           \
    (PROTO_MSG_BIT(MSG_VI_DATA) | PROTO_MSG_BIT(MSG_VI_WRACK) | PROTO_MSG_BIT(MSG_VI_ATOMRSP) |    \
     PROTO_MSG_BIT(MSG_VI_INV))

/* ---- the ideal reference's free invalidation channel (vi_bus.c) ----
 * One zero-latency port into every L1 of a machine, outside the crossbar
 * (so never counted as traffic). An ideal L1 attaches its port when it is
 * created; an ideal L2 bank looks the ports up when it is connected (every
 * L1 is created before any bank is connected). The channel is the protocol's
 * per-machine context (proto_desc.attach, ctrl_wiring.proto_ctx). */
struct vi_bus;
void *vi_bus_new(const struct ctrl_wiring *w);
void vi_bus_free(void *ctx);
void vi_bus_attach(struct vi_bus *b, unsigned sm, unsigned n_sms, struct port *p);
void vi_bus_detach(struct vi_bus *b, unsigned sm);
struct port *vi_bus_port(struct vi_bus *b, unsigned sm);

#endif
