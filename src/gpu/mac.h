/*
 * mac.h - the memory access classifier of type-aware SC (spec 001 §2.5):
 * one per memory partition, classifying 16 KB sectors by SM-level sharing.
 *
 * A sector is SM-safe unless several SMs access it and one of them writes
 * (state S_RW). SMs ask for a sector's type on a type-cache miss (or, for a
 * store to a safe sector, for write eligibility) and the MAC answers; a
 * request that makes a safe sector unsafe invalidates the previous
 * accessor's type-cache entry (or broadcasts from S_RO), waits for every SM
 * to drain and acknowledge, and only then answers. A sector becomes safe
 * again only when its entry is evicted, which recalls it from the type
 * caches. The MAC talks to SMs through messages on a crossbar of its own.
 *
 * State machine (spec 001 §2.5.3):
 *   absent  read by s -> P_RO(s); write by s -> P_RW(s) (write eligible)
 *   P_RO(o) read by o: P_RO; write by o: P_RW; read by s != o: S_RO;
 *           write by s != o: INV to o, wait, S_RW (reply unsafe)
 *   P_RW(o) by o: P_RW; by s != o: INV to o, wait, S_RW
 *   S_RO    read: S_RO; write: INV to every SM but the writer, wait, S_RW
 *   S_RW    unsafe to everyone
 * Requests for a sector in transition wait in its entry. An eviction
 * recalls the victim: order.mac_recall = safe (default; spec 001 §7) sends
 * RECALL to the owner (P_*) or every SM (S_*) and reuses the entry only
 * after every SM drained and acknowledged; paper sends the recalls and
 * reuses it at once (the race spec 001 §7 describes: a stale type-cache
 * entry may still call the sector safe).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef GPU_MAC_H
#define GPU_MAC_H

#include "gpu/order.h"
#include "sim/eng.h"
#include "sim/msg.h"
#include "sim/port.h"

/* Messages between SMs and MACs (their own crossbar, one virtual network per
 * direction: a MAC's answers and invalidations to one SM stay in order). */
enum {
    MSG_MAC_TYPE_REQ = 240, /* SM -> MAC: the type of sector addr (flags: MAC_F_WRITE) */
    MSG_MAC_TYPE_RSP,       /* MAC -> SM: flags MAC_F_UNSAFE, MAC_F_WRITE (write eligible) */
    MSG_MAC_INV,            /* MAC -> SM: the sector became unsafe; drain, then ack */
    MSG_MAC_RECALL,         /* MAC -> SM: the entry is evicted; forget it (safe: drain, ack) */
    MSG_MAC_ACK,            /* SM -> MAC: drained (after an INV or a safe-form RECALL) */
};
#define MAC_F_WRITE  1u
#define MAC_F_UNSAFE 2u

/* Sector states (mac_state_names). */
enum mac_state { MAC_P_RO, MAC_P_RW, MAC_S_RO, MAC_S_RW, MAC_NSTATES };
extern const char *const mac_state_names[MAC_NSTATES];

struct mac_stats {
    uint64_t requests;              /* type requests received */
    uint64_t allocs[MAC_NSTATES];   /* sectors allocated, by first state */
    uint64_t to_state[MAC_NSTATES]; /* transitions into each state */
    uint64_t invalidations;         /* INVs sent */
    uint64_t evictions, recalls;    /* entries evicted; RECALLs sent */
    uint64_t held;                  /* requests held behind a transition or a full set */
    uint64_t transition_cycles;     /* MAC cycles sectors spent waiting for acks */
};

struct mac;

/* A MAC for partition `index` of n_macs, on clock clk, sizes from spec
 * (mac_entries, mac_ways, sector_bytes, mac_cycles, mac_recall). */
struct mac *mac_new(struct eng *e, const char *name, const struct clock *clk,
                    const struct order_spec *spec, unsigned index, unsigned n_macs, unsigned n_sms,
                    struct pool *msgs);
void mac_free(struct mac *m);
struct comp *mac_comp(struct mac *m);
/* in: where SMs' messages arrive; out: where it sends (m->dst = SM). */
void mac_connect(struct mac *m, struct port *in, struct port *out);
const struct mac_stats *mac_stats(const struct mac *m);

/* Which MAC classifies addr: sectors are spread over partitions by sector
 * number (a fine-grained L2 interleave cannot be used for 16 KB sectors). */
static inline unsigned mac_home(addr_t addr, unsigned sector_bytes, unsigned n_macs)
{
    return (unsigned)((addr / sector_bytes) % n_macs);
}

#endif
