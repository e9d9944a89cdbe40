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
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef DRAM_DRAM_H
#define DRAM_DRAM_H

#include "mem/backing.h"
#include "sim/eng.h"
#include "sim/port.h"

enum dram_sched { DRAM_FCFS, DRAM_FRFCFS };

struct dram_spec {
    double mhz;                 /* command clock */
    uint32_t banks;             /* banks per channel */
    uint32_t row_bytes;         /* bytes per row per bank */
    uint32_t queue;             /* request queue entries (32) */
    uint32_t sched;             /* enum dram_sched */
    uint32_t bus_bytes_per_cycle; /* data bus width x transfers per cycle */
    uint32_t latency_cycles;    /* fixed controller + PHY latency added to every access */
    uint32_t tCL, tRP, tRC, tRAS, tCCD, tWL, tRCD, tRRD, tCDLR, tWR, tCCDL, tRTPL;
};

struct dram_stats {
    uint64_t reads, writes;
    uint64_t row_hits, row_misses, row_conflicts;
    uint64_t queue_full_cycles;   /* cycles a request could not enter the queue */
    uint64_t total_read_latency_cycles; /* arrival to data return, summed */
};

struct dram;

/* A channel. `channel` is its index among n_channels; line addresses are
 * interleaved over channels by the caller's address map, so the channel strips
 * that interleaving (addr / line_bytes / n_channels) to find bank and row. */
struct dram *dram_new(struct eng *e, const char *name, const struct clock *clk,
                      const struct dram_spec *spec, struct backing *store, unsigned line_bytes,
                      unsigned channel, unsigned n_channels);
void dram_free(struct dram *d);

/* Where the L2 sends requests (the port's sender should be set with
 * dram_connect). */
struct port *dram_req_port(struct dram *d);
/* Where responses go (a port owned by the L2 bank), and the L2's component. */
void dram_connect(struct dram *d, struct port *rsp, struct comp *l2);

const struct dram_stats *dram_stats(const struct dram *d);
struct comp *dram_comp(struct dram *d);

#endif
