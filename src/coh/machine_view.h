/*
 * machine_view.h - the machine's configuration as the protocols see it.
 *
 * The machine keeps the whole configuration (struct config); the protocols read
 * only what this view holds: the machine-wide values their controllers and
 * checks use (l1.*, l2.*, gpu.sms, ...), copied under the configuration's
 * section and key names, and each protocol family's own section (the spec
 * struct its coh_options rows fill, found with machine_section). The machine
 * builds the view from its configuration (config_view), so nothing in coh/
 * depends on the machine's folder, and a protocol family adds its section
 * without touching this file.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef COH_MACHINE_VIEW_H
#define COH_MACHINE_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "mem/cache.h"

struct coh_options;

/* [l1]: the L1 of every SM (its option rows are the machine's, config.c). */
struct l1_spec {
    struct cache_spec cache;
    uint32_t mshrs;      /* TBE/MSHR entries */
    uint32_t merge_max;  /* loads merged into one outstanding miss */
    uint32_t issue;      /* enum l1_issue: may a request pass one stalled on a resource */
    uint32_t merge_full; /* enum l1_merge_full: a load past merge_max parks or stalls (mesi) */
};

/* [l2]: the L2 banks. */
struct l2_spec {
    struct cache_spec cache; /* per bank */
    uint32_t banks;          /* one per memory partition */
    uint32_t mshrs;          /* per bank */
    double mhz;              /* L2 clock */
    uint32_t latency_cycles; /* pipeline latency of a hit, L2 cycles */
    uint32_t jitter_cycles;  /* extra random delay per response (litmus), L2 cycles */
    uint32_t write_ack;      /* enum l2_write_ack (the nc bank: rc, nol1, stc-*) */
};

/* When the nc bank acknowledges a write: once performed, through the access
 * pipeline (a miss: after the fill), or as soon as the bank takes it. */
enum l2_write_ack { L2_ACK_PERFORMED, L2_ACK_ARRIVAL };
enum l1_issue { L1_ISSUE_IN_ORDER, L1_ISSUE_OUT_OF_ORDER };
enum l1_merge_full { L1_MERGE_FULL_PARK, L1_MERGE_FULL_STALL };

/* Which L1 the CPU cores have on a protocol with CPU devices (Spandex). */
enum cpu_device { CPU_DEVICE_DENOVO, CPU_DEVICE_MESI, CPU_DEVICE_N };

/* One protocol family's section: the spec struct its rows fill. */
struct coh_section {
    const struct coh_options *family;
    const void *spec;
};

#define COH_SECTIONS_MAX 16 /* protocol families' sections a view holds at most */

struct machine_view {
    struct {
        uint64_t seed;              /* every random stream derives from it */
        uint64_t starvation_cycles; /* core cycles one memory instruction may wait */
    } sim;
    struct {
        uint32_t sms;    /* SMs per GPU module */
        double core_mhz; /* SM and L1 clock */
    } gpu;
    struct {
        uint32_t warps; /* warp slots per SM */
    } sm;
    struct l1_spec l1;
    struct l2_spec l2;
    struct {
        const char *protocol; /* registry name */
        bool sleep;           /* controllers sleep while stalled on a full port */
    } coherence;
    struct {
        uint32_t gpus, gpms; /* GPUs, GPMs per GPU */
    } topology;
    struct {
        uint32_t cores;  /* CPU cores (0: none) */
        uint32_t device; /* enum cpu_device */
    } cpu;
    /* the families' sections; they point into the configuration the view
     * was built from, which must outlive it */
    struct coh_section sections[COH_SECTIONS_MAX];
    unsigned n_sections;
};

/* The spec struct of `family`'s section (a family's own header wraps it:
 * tc_spec_of). A family the view lacks is a bug in the machine. */
const void *machine_section(const struct machine_view *m, const struct coh_options *family);

#endif
