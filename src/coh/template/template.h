/*
 * template.h - messages of `template`, the smallest complete protocol: the
 * example docs/adding-a-protocol.md walks through. Copy this folder to start
 * a new protocol.
 *
 * Two virtual networks, as every write-through protocol: requests L1->L2
 * (GETS, WRITE = a write-through of the masked bytes, ATOMIC performed at the
 * L2) and responses L2->L1 (DATA, WRACK, ATOMRSP). The L2 never sends an
 * unsolicited message, so the two vnets cannot deadlock. A request message is
 * the core's own message, re-addressed; the L2 turns it into the response and
 * the L1 turns that back into the core's response.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef COH_TEMPLATE_TEMPLATE_H
#define COH_TEMPLATE_TEMPLATE_H

#include "coh/ctrl.h"

enum {
    MSG_TPL_GETS = MSG_PROTO_BASE, /* read a line */
    MSG_TPL_WRITE,                 /* write-through of the masked bytes */
    MSG_TPL_ATOMIC,                /* atomic performed at the L2 */
    MSG_TPL_DATA,                  /* line data for a GETS */
    MSG_TPL_WRACK,                 /* write performed at the L2 */
    MSG_TPL_ATOMRSP,               /* atomic results */
};

enum { TPL_VNET_REQ = CTRL_VNET_REQ, TPL_VNET_RSP = CTRL_VNET_RSP, TPL_NVNETS };

/* msg->flags: this GETS is the fill that answers the loads merged in the L1's TBE. */
#define TPL_F_MERGED 0x1

extern const struct coh_table tpl_l1_table, tpl_l2_table;
struct comp *tpl_l1_create(const struct ctrl_wiring *w);
struct comp *tpl_l2_create(const struct ctrl_wiring *w);
void tpl_l2_dma(struct comp *c, addr_t line, uint8_t *buf, const struct bytemask *wmask);

#endif
