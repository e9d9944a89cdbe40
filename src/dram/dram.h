/*
 * dram.h - one GDDR5-style DRAM channel (memory partition) with FR-FCFS.
 *
 * Spec 002 §4: GDDR5 at 1400 MHz, 32-entry out-of-order (FR-FCFS) queue,
 * timings tCL=12 tRP=12 tRC=40 tRAS=28 tCCD=2 tWL=4 tRCD=12 tRRD=6 tCDLR=5
 * tWR=12 tCCDL=3 tRTPL=2 (DRAM cycles). The channel holds the line data: it
 * reads and writes the backing store when a request is served, so values
 * always come from the simulated memory. Requests arrive as MSG_DRAM_READ /
 * MSG_DRAM_WRITE on the request port; reads answer MSG_DRAM_DATA (with the
 * line), writes MSG_DRAM_WRACK, in the order the scheduler serves them. The
 * channel turns the request message itself into the response (no allocation).
 * INVARIANT: requests to the same line are served in arrival order.
 * Mapping: local line L = addr / line_bytes / n_channels; column = L % (row_bytes
 * / line_bytes), bank = L / (row_bytes / line_bytes) % banks, row = the rest.
 * Latency from the cycle a request enters the queue of an idle channel to its
 * response being ready (B = line_bytes / bus_bytes_per_cycle, lat =
 * latency_cycles): read row hit tCL+B+lat, closed bank tRCD+tCL+B+lat, row
 * conflict tRP+tRCD+tCL+B+lat; writes the same with tWL for tCL.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef DRAM_DRAM_H
#define DRAM_DRAM_H

#include "mem/backing.h"
#include "sim/cfg.h"
#include "sim/eng.h"
#include "sim/port.h"

enum dram_sched { DRAM_FCFS, DRAM_FRFCFS };

struct dram_spec {
    double mhz;                   /* command clock */
    uint32_t banks;               /* banks per channel */
    uint32_t row_bytes;           /* bytes per row per bank */
    uint32_t queue;               /* request queue entries (32) */
    uint32_t sched;               /* enum dram_sched */
    uint32_t bus_bytes_per_cycle; /* data bus width x transfers per cycle */
    uint32_t latency_cycles;      /* fixed controller + PHY latency added to every access */
    uint32_t tCL, tRP, tRC, tRAS, tCCD, tWL, tRCD, tRRD, tCDLR, tWR, tCCDL, tRTPL;
    uint32_t jitter_cycles; /* extra random response delay, [0, jitter] (0 = none) */
};

/* Options relative to struct dram_spec (keys without a section: "mhz", ...). */
extern const struct cfg_opt dram_opts[];

struct dram_stats {
    uint64_t reads, writes;
    uint64_t row_hits, row_misses, row_conflicts;
    uint64_t queue_full_cycles;         /* cycles a request could not enter the queue */
    uint64_t total_read_latency_cycles; /* arrival to data return, summed */
    uint64_t acts, pres;                /* row commands issued */
    uint64_t rsp_full_cycles;           /* cycles a ready response found the response port full */
};

struct dram;

/* A channel. `channel` is its index among n_channels; line addresses are
 * interleaved over channels by the caller's address map, so the channel strips
 * that interleaving (addr / line_bytes / n_channels) to find bank and row. */
struct dram *dram_new(struct eng *e, const char *name, const struct clock *clk,
                      const struct dram_spec *spec, struct backing *store, unsigned line_bytes,
                      unsigned channel, unsigned n_channels);
void dram_free(struct dram *d);
/* Seed the jitter stream (default seed 0); call before traffic flows. */
void dram_set_seed(struct dram *d, uint64_t seed);

/* Where the L2 sends requests (the port's sender should be set with
 * dram_connect). The port is a one-message latch in front of the queue: the
 * channel moves it into the queue on its next cycle, so a send is refused
 * (retry) while the queue is full and the latch is taken. */
struct port *dram_req_port(struct dram *d);
/* Where responses go (a port owned by the L2 bank), and the L2's component
 * (woken when the request latch frees). Sets rsp->sender to the channel if
 * the L2 left it NULL. */
void dram_connect(struct dram *d, struct port *rsp, struct comp *l2);

/* (Brings queue_full_cycles up to now while the channel sleeps on a full
 * queue.) */
const struct dram_stats *dram_stats(struct dram *d);
struct comp *dram_comp(struct dram *d);
/* Print the queue, banks and pending responses (type, address, src/dst, age). */
void dram_dump(struct dram *d, FILE *out);

#endif
