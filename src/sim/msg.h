/*
 * msg.h - the one message type every component exchanges.
 *
 * A message has a routing header (type, vnet, traffic class, endpoints,
 * size), the core request it serves (mem_req), the line address, byte mask
 * and line data, and a few protocol extras (timestamps, ack counts). The
 * `type` is interpreted by the protocol that owns the vnet; core<->L1 and
 * L2<->DRAM types are shared by all protocols and listed here. Messages come
 * from a pool: no allocation on the hot path.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef SIM_MSG_H
#define SIM_MSG_H

#include "base/bits.h"
#include "base/pool.h"
#include "sim/req.h"

/* Traffic classes of spec 002 §6 (plus WB for L2->DRAM accounting). */
#define TRAFFIC_CLASSES(X)                                                                         \
    X(LD, "data returned to loads")                                                                \
    X(ST, "data of stores (write-throughs, write-backs from L1)")                                  \
    X(ATO, "atomic requests and their results")                                                    \
    X(REQ, "control: read requests, acks, unblocks")                                               \
    X(INV, "invalidations and their acks")                                                         \
    X(RCL, "recalls (invalidations caused by L2/directory evictions) and their acks")

#define X(n, d) TRAFFIC_##n,
enum traffic_class { TRAFFIC_CLASSES(X) TRAFFIC_N };
#undef X
extern const char *const traffic_class_names[TRAFFIC_N];

/* Message types every protocol shares: the core seam and the DRAM seam.
 * Protocol message types number from MSG_PROTO_BASE. */
enum {
    MSG_CORE_REQ = 1, /* SM -> L1: a mem_req */
    MSG_CORE_RSP,     /* L1 -> SM: completion of a mem_req */
    MSG_DRAM_READ,    /* L2 -> DRAM: read a line */
    MSG_DRAM_WRITE,   /* L2 -> DRAM: write a line back */
    MSG_DRAM_DATA,    /* DRAM -> L2: read data */
    MSG_DRAM_WRACK,   /* DRAM -> L2: write done (ordering only) */
    MSG_PROTO_BASE = 16,
};

struct msg {
    struct msg *next;     /* intrusive link: waiter lists, TBE queues */
    uint16_t type;        /* MSG_* or the protocol's own types */
    uint8_t vnet;         /* virtual network it travels on */
    uint8_t cls;          /* enum traffic_class */
    uint16_t src, dst;    /* network endpoint ids */
    uint16_t size_bytes;  /* payload bytes (0 for control); the network adds its header */
    uint16_t flags;       /* protocol-defined bits */
    addr_t addr;          /* line-aligned address */
    tick_t born;          /* when it was created */
    struct mem_req req;   /* the core request it serves (copied along) */
    uint64_t ts;          /* protocol extra: timestamp / lease */
    uint64_t ts2;         /* protocol extra: GWCT, epoch, ... */
    int32_t acks;         /* protocol extra: acks expected */
    uint32_t sharer;      /* protocol extra: an L1 id */
    struct bytemask mask; /* bytes of the line that data holds / writes */
    uint8_t data[LINE_MAX_BYTES];
};

/* Fresh message with a zeroed header (the data bytes are left as they are:
 * `mask` says which are meaningful). */
static inline struct msg *msg_new(struct pool *p, uint16_t type, addr_t addr, tick_t now)
{
    struct msg *m = pool_alloc(p);
    m->type = type;
    m->addr = addr;
    m->born = now;
    return m;
}

static inline void msg_free(struct pool *p, struct msg *m)
{
    pool_free(p, m);
}

/* Pool of messages; pool_alloc zero-fills. */
void msg_pool_init(struct pool *p);

#endif
