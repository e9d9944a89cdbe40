/*
 * nc.h - messages of the non-coherent baselines (nol1 and rc) and their
 * shared L2 controller.
 *
 * Two virtual networks (spec 002 Table 4: non-coherent 2): requests L1->L2
 * and responses L2->L1. A request message is the core's own request message,
 * re-addressed; the L2 turns it into the response; the L1 turns that back
 * into the core response. No message is allocated on the way.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef COH_NC_NC_H
#define COH_NC_NC_H

#include "coh/ctrl.h"

enum {
    MSG_NC_GETS = MSG_PROTO_BASE, /* read a line (control) */
    MSG_NC_WRITE,                 /* write-through of the masked bytes */
    MSG_NC_ATOMIC,                /* atomic performed at the L2 */
    MSG_NC_DATA,                  /* line data for a GETS */
    MSG_NC_WRACK,                 /* write performed at the L2 */
    MSG_NC_ATOMRSP,               /* atomic results */
};

enum { NC_VNET_REQ, NC_VNET_RSP, NC_NVNETS };

/* msg->flags: this GETS answers the requests merged in the L1's TBE. */
#define NC_F_MERGED 0x1

extern const char *const nc_vnet_names[NC_NVNETS];
/* The L2 bank both baselines share (write-back, write-allocate, atomics at
 * the L2; spec 002 §2). */
struct comp *nc_l2_create(const struct ctrl_wiring *w);
void nc_l2_dma(struct comp *c, addr_t line, uint8_t *buf, const struct bytemask *wmask);
#define NC_L2_OPS                                                                                  \
    {                                                                                              \
        nc_l2_create, ctrl_l2_connect, ctrl_in_port, ctrl_destroy, nc_l2_dma, ctrl_peek,           \
            ctrl_stats                                                                             \
    }
extern const struct coh_table nc_l2_table;
/* Its actions that the Spandex LLC shares (same message numbers and vnets):
 * reply with the line (DATA), write and ack (WRACK), perform the atomic
 * (ATOMRSP). */
coh_act nc_l2_reply_data, nc_l2_write_line, nc_l2_do_atomic;
/* rc's L1, also Spandex's GPU-coherence device L1 (src/coh/spandex/). */
struct comp *rc_l1_create(const struct ctrl_wiring *w);
extern const struct coh_table rc_l1_table;

/* Protocol getm (coh/getm/getm_bank.h): rc's L1, and the nc bank with a GETM
 * validation unit in front of its table. */
extern const struct coh_table rc_l1_table;
struct comp *rc_l1_create(const struct ctrl_wiring *w);
struct comp *nc_l2_create_getm(const struct ctrl_wiring *w);
/* The bytes the bank holds for the line now, if it holds them (V or M); for
 * WarpTM-EL's ideal early checks only (an observer: it changes nothing). */
bool nc_l2_value_now(struct comp *cp, addr_t line, uint8_t *data);
/* GETM's timestamp rollover: the bank's validation unit flushes its tables
 * (gpu/tx_epoch.h; nothing transactional is in flight). */
void nc_l2_tm_rollover(struct comp *cp);
void nc_l2_destroy(struct comp *c);
void nc_l2_stats(struct comp *c, void (*emit)(void *, const char *, uint64_t), void *arg);
/* GETM's columns of the time series (proto_desc.series; getm_bank_series). */
void nc_l2_series(struct comp *c, uint64_t *values);

#endif
