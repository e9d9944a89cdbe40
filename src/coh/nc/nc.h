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

/* The L1-naming fields of nol1's, rc's and rc-noinv's state (nc_l2.c): only
 * the ends of their messages. */
extern const struct proto_symmetry nc_symmetry;

/* msg->flags of the messages between rc's L1 and a bank (nc's, or a bank of
 * a protocol built on them: coh/mg, coh/getm). A request carries its L1's
 * bits to the bank and its response brings them back, so the space is split
 * between the two ends: the bits in NC_F_L1 are the L1's (rc's own, and
 * NC_F_L1_EXT for its extension, struct rc_l1_ext); every other bit is the
 * bank's, for its own marks (nc's bank uses none; an extension of it,
 * struct nc_l2_ext, or another protocol's bank may), and no L1 reads it.
 * Each protocol asserts its flags inside its share. A bank's mark once
 * shared a bit with an L1's: the L1 absorbed acknowledgements marked
 * NC_F_L1WT, so every GETM commit the commit unit wrote went unanswered. */
#define NC_F_MERGED 0x1 /* this GETS answers the requests merged in the L1's TBE */
/* a .cta atomic's write-through from the L1 that performed it (rc_l1_ext.cta_atomics): the L1
 * absorbs its acknowledgement */
#define NC_F_L1WT    0x2
#define NC_F_L1FETCH 0x4    /* an L1's read of a line for a parked .cta atomic */
#define NC_F_L1_EXT  0x4100 /* the bits of rc's L1's extension (coh/mg: MG_F_RELEASED ...) */
#define NC_F_L1      (NC_F_MERGED | NC_F_L1WT | NC_F_L1FETCH | NC_F_L1_EXT)

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
/* The bytes the bank holds for the line now, if it holds them (V or M); for
 * WarpTM-EL's ideal early checks only (an observer: it changes nothing). */
bool nc_l2_value_now(struct comp *cp, addr_t line, uint8_t *data);

/* An extension of the bank: a unit in front of its table (coh/getm: GETM's
 * and WarpTM's validation units). Every hook gets the extension's state
 * (nc_l2_create_ext's `ext`) and the bank. */
enum nc_l2_take {
    NC_L2_TO_TABLE, /* not (or no longer) the extension's matter: on to the table */
    NC_L2_TAKEN,    /* the extension answered it, or holds it */
    NC_L2_BUSY,     /* the extension cannot take it now: it waits at the input */
};
struct nc_l2_ext {
    /* a request from the network or the replay list, before the table (the
     * bank has checked that its response pipeline has room) */
    enum nc_l2_take (*take)(void *ext, struct ctrl *b, struct msg *m);
    /* the table is about to answer m with the line's bytes: true if the
     * extension answered it instead */
    bool (*reading)(void *ext, struct ctrl *b, struct msg *m, const uint8_t *line);
    /* the table performed m's write; m is answered next */
    void (*written)(void *ext, struct ctrl *b, struct msg *m);
    /* each tick, after the response pipeline: true if it moved something */
    bool (*tick)(void *ext, struct ctrl *b);
    /* nothing moved: must the bank tick again (only time frees what waits;
     * `waiting`: a request waits at the input)? */
    bool (*must_tick)(const void *ext, const struct ctrl *b, bool waiting);
    /* whether it holds requests, and their dump for a simulator fault */
    bool (*holds)(const void *ext);
    void (*dump)(const void *ext, FILE *out);
};
struct comp *nc_l2_create_ext(const struct ctrl_wiring *w, const struct nc_l2_ext *ops, void *ext);
/* The extension's state of a bank nc_l2_create_ext made. */
void *nc_l2_ext_of(struct comp *c);

/* rc's L1, also Spandex's GPU-coherence device L1 (src/coh/spandex/) and
 * getm's and warptm's. */
struct comp *rc_l1_create(const struct ctrl_wiring *w);
extern const struct coh_table rc_l1_table;

/* An extension of rc's L1 (coh/mg: releases and acquires through the L2
 * banks). The L1 allocates state_bytes of zeroed state for it (rc_l1_ext_of);
 * every hook gets the L1's controller. */
enum rc_l1_take {
    RC_L1_TO_TABLE, /* not the extension's matter: on to rc's table */
    RC_L1_TAKEN,    /* the extension took the request */
    RC_L1_STALL,    /* a resource stall: the request stays where it was */
};
struct rc_l1_ext {
    size_t state_bytes;
    /* .cta atomics are performed in this L1 (event CtaAtomic; spec 004b
     * §2.2), counted in statistic cta_atomics */
    bool cta_atomics;
    /* a core request (new or replayed), before rc's table */
    enum rc_l1_take (*take_core)(struct ctrl *b, struct msg *m);
    /* a response from the network (or one the extension held, through
     * rc_l1_take_response), before rc's table: true if the extension took it */
    bool (*take_response)(struct ctrl *b, struct msg *m);
    /* each tick, before the L1 takes messages: true if it moved something */
    bool (*tick)(struct ctrl *b);
};
struct comp *rc_l1_create_ext(const struct ctrl_wiring *w, const struct rc_l1_ext *ext);
void *rc_l1_ext_of(struct ctrl *b);
/* A response goes through the L1 as if it had just arrived (the extension's
 * hook sees it again). */
void rc_l1_take_response(struct ctrl *b, struct msg *m);

#endif
