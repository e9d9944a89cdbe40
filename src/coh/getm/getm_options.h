/*
 * getm_options.h - the options of GETM, the transactional memory of protocol getm: section
 * [getm] of the machine's configuration (its rows and checks in getm_options.c; coh/options.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef COH_GETM_GETM_OPTIONS_H
#define COH_GETM_GETM_OPTIONS_H

#include "coh/options.h"

/* GETM, the transactional memory of protocol getm (spec 004a §4;
 * docs/transactions.md): the validation unit's sizes per L2 bank, the spec's
 * fixes, and the SM's limit on transactional warps. */
struct getm_spec {
    uint32_t tx_warps;       /* warps of one SM inside a transaction at once; 0 = no limit */
    uint32_t backoff_cycles; /* a warp retrying after its k-th aborted attempt in a row waits
                                a random number of cycles below backoff_cycles << k */
    uint32_t precise_sets;   /* per bank: sets of each of the 4 cuckoo ways */
    uint32_t granule;        /* bytes of one metadata granule (conflicts are tracked per granule) */
    uint32_t stash;          /* per bank: stash entries */
    uint32_t bloom_sets;     /* per bank: sets of each of the 4 Bloom filter ways */
    uint32_t stall_lines;    /* per bank: stall buffer lines ... */
    uint32_t stall_entries;  /* ... of this many waiting requests */
    bool unique_ts;          /* spec §9 item 17 */
    bool owner_seq;          /* item 19 */
    bool wake_all;           /* item 23 */
    bool commit_waits;       /* a retry waits for the last attempt's acks */
    bool evict_oldest;       /* the precise table's victim: the oldest unreserved slot */
    uint32_t vu_mhz;         /* the validation unit's clock */
    uint32_t vu_port;        /* granules a bank's VU takes per VU cycle; 0 = no limit */
    uint32_t cu_mhz;         /* the commit unit's clock */
    uint32_t cu_bytes;       /* bytes the commit unit writes per cycle; 0 = no limit */
    uint32_t cu_buffer;      /* bytes of the commit unit's buffer */
    uint32_t ts_bits;        /* width of a logical timestamp (warp id included) */
    uint32_t progress_aborts; /* attempts in a row with no lane committed after which a warp
                                 takes the serial token (coh/getm/tx_serial.h) */
    uint32_t trace_warp;      /* 1 + the GPU-wide warp slot whose transactional events are
                                 printed on stderr (docs/transactions.md); 0: none */
};

extern const struct coh_options getm_options;

/* The [getm] section of the machine's configuration. */
static inline const struct getm_spec *getm_spec_of(const struct machine_view *m)
{
    return machine_section(m, &getm_options);
}

#endif
