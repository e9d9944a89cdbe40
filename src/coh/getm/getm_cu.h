/*
 * getm_cu.h - the commit unit of one L2 partition (spec 004a §4.8, thesis
 * §4.5.3 and Table 4.2): the write logs the SMs send at the end of their
 * transactions wait in the unit's buffer and are written into the LLC at
 * `bytes` per cycle of the unit's own clock (Table 4.2: 32 B a cycle at
 * 700 MHz; Table 4.5: a 16 KB buffer per partition).
 *
 * An entry is one message of an SM's commit unit: a line's committed writes
 * (GETM's MEM_TX_COMMIT; WarpTM's too, the thesis's CUs "write the write-log
 * values and ack") or a line's cleanup (no data). The unit coalesces a line's
 * writes into `bytes`-wide aligned regions (the SM has already merged the
 * lanes' writes per line), so an entry that writes r regions takes r cycles
 * and a cleanup, which only counts #writes down, one. Entries are served in
 * arrival order; each holds max(r, 1) x `bytes` of the buffer from its
 * arrival until its last region is written, and a message that finds no room
 * is refused (it waits at the bank's input). The bank then performs the
 * entry: the write through its table, the release of its reservations.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef COH_GETM_CU_H
#define COH_GETM_CU_H

#include <stdbool.h>
#include <stdio.h>

#include "base/types.h"
#include "sim/msg.h"

struct getm_cu_stats {
    uint64_t entries;     /* commit and cleanup messages the unit took */
    uint64_t regions;     /* `bytes`-wide regions written */
    uint64_t busy_cycles; /* unit cycles spent writing (a cleanup: one) */
    uint64_t wait_cycles; /* unit cycles entries waited in the buffer behind earlier ones */
    uint64_t full;        /* messages refused for want of buffer room (retried) */
    uint64_t peak_bytes;  /* the fullest the buffer was */
};

struct getm_cu;
/* A unit of `mhz` writing `bytes` per cycle with a buffer of `buffer` bytes
 * (at least `bytes`). */
struct getm_cu *getm_cu_new(uint32_t mhz, uint32_t bytes, uint32_t buffer, const char *name);
void getm_cu_free(struct getm_cu *cu);

/* Message m arrives at `now` writing `regions` regions (0: a cleanup). False:
 * the buffer has no room (m stays with the caller). */
bool getm_cu_offer(struct getm_cu *cu, struct msg *m, unsigned regions, tick_t now);
/* The oldest entry whose writing is done by `now`, taken out of the buffer;
 * NULL when there is none. */
struct msg *getm_cu_take_done(struct getm_cu *cu, tick_t now);
/* Whether the buffer holds entries (done or not). */
bool getm_cu_busy(const struct getm_cu *cu);
const struct getm_cu_stats *getm_cu_stats(const struct getm_cu *cu);
/* The buffer's entries, oldest first, for a simulator fault's dump. */
void getm_cu_dump(const struct getm_cu *cu, FILE *out);

#endif
