/*
 * machine_int.h - what the parts of the machine share (machine.h is its
 * interface): struct machine itself and the functions one part offers the
 * others. Private to src/system: machine.c builds and frees the machine and
 * answers questions about it, machine_run.c launches and runs kernels,
 * machine_stats.c gathers its statistics.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef SYSTEM_MACHINE_INT_H
#define SYSTEM_MACHINE_INT_H

#include "system/machine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/log.h"
#include "mem/observe.h"
#include "dram/dram.h"
#include "gpu/mac.h"
#include "gpu/sm.h"
#include "coh/getm/getm_bank.h"
#include "coh/getm/getm_options.h"
#include "coh/getm/sm_tx.h"
#include "coh/getm/tx_board.h"
#include "coh/getm/tx_epoch.h"
#include "coh/getm/tx_serial.h"
#include "coh/nc/nc.h"
#include "coh/spandex/fcs.h"
#include "coh/spandex/fcs_options.h"
#include "ptx/ir.h"
#include "noc/net.h"
#include "mem/pagemap.h"
#include "noc/sysnet.h"
#include "noc/xbar.h"
#include "base/clock.h"
#include "system/kernel_stats.h"

/* A partition with a queue of its own (sim.partitions = max; docs/parallel.md
 * step 1): its engine queues its components' ticks, and its outbox holds what
 * they sent into cut ports in the current window. */
struct part {
    struct eng eng;
    struct port_outbox outbox;
};

struct machine {
    struct config cfg;
    struct machine_view view; /* what the protocols read of cfg (config_view) */
    const struct proto_desc *proto;
    struct eng eng;
    struct clock core_clk, icnt_clk, l2_clk, dram_clk, cpu_clk;
    struct pool msgs;
    struct backing store;
    unsigned n_sms, n_banks, n_tables; /* SMs and banks of every GPM together */
    unsigned n_cpus, n_cores;          /* CPU cores (cpu.cores); SMs and CPU cores together */
    struct sm_spec cpu_spec;           /* a CPU core: an in-order one-thread SM (cpu_spec_of) */
    sm_issue_fn *issue_fn;             /* machine_set_issue_hook's, for the CPU cores' shim */
    void *issue_obj;
    unsigned n_gpms, sms_per_gpm, banks_per_gpm; /* GPMs of every GPU together */
    uint32_t line_bytes;
    struct sm **sms;                /* per core: the SMs, then the CPU cores */
    struct comp **l1s, **l2s;       /* per core; per bank */
    const struct ctrl_ops **l1_ops; /* per core: its L1's operations */
    struct ctrl_links *l1_links;
    const struct ptx_module *fcs_mod; /* the module fcs_types was loaded for */
    uint8_t *fcs_types;               /* fcs.table's request type per instruction */
    struct port *from_l1;             /* per core: L1 -> SM or CPU core responses */
    struct net **up, **down; /* per GPM: SM -> L2, L2 -> SM: crossbars or meshes ([noc] topology) */
    struct sysnet *sys;      /* between GPMs' banks (several GPMs only) */
    struct pagemap pages;    /* first-touch page placement (several GPMs only) */
    struct kernel_run *runs; /* per GPM: its share of the running kernel */
    struct kernel_run cpu_run; /* the CPU cores' kernel */
    unsigned runs_left;        /* GPMs and CPU kernels whose share has not finished */
    bool gpu_running, cpu_running;
    tick_t gpu_end, cpu_end; /* when each device's kernel finished */
    struct mac **macs;       /* sc-typeaware: a classifier per memory partition, else NULL */
    struct xbar *type_up, *type_down; /* ... and their crossbars (SM -> MAC, MAC -> SM) */
    struct dram **drams;
    struct comp *unit;           /* the protocol's central unit, or NULL */
    void *proto_ctx;             /* the protocol's per-machine context (proto_desc.attach) */
    struct sm_tx **sm_txs;       /* per core: its transaction extension, or NULL */
    struct tx_board *tx_board;   /* EAPG (ideal): commits' broadcasts (warptm.eapg), or NULL */
    struct tx_epoch *tx_epoch;   /* GETM: the timestamp rollover board, or NULL */
    struct tx_serial *tx_serial; /* transactions: the forward-progress token, or NULL */
    struct clock unit_clk;
    struct port *to_unit, *from_unit; /* per SM: L1 -> unit, unit -> L1 */
    struct coh_cov *cov;              /* per table */
    struct coh_history hist;          /* recent transitions, when asked for */
    struct observer *obs;             /* --check */
    unsigned n_parts;                 /* partitions (partition.c), at least 1 */
    const char *part_why;             /* why the machine is one partition, or NULL */
    struct port **wired;              /* every port machine_check_senders wired */
    unsigned n_wired, cap_wired;
    struct part *parts;     /* [n_parts] when they run apart (sim.partitions = max), else NULL */
    struct eng **part_engs; /* [n_parts]: their engines, for eng_split */
    unsigned n_cut, n_cut_direct; /* cut ports through outboxes; cut with no latency (direct) */
    tick_t window_ps;             /* the lookahead: the smallest latency of a cut port */
    char **names;                 /* every component name, freed at the end */
    unsigned n_names;
    /* kernels run so far */
    const char **kernel_names; /* each points into kernel_name_pool */
    char **kernel_name_pool;   /* every distinct kernel name, owned (modules may go first) */
    unsigned n_kernel_name_pool;
    uint64_t *kernel_cycles;
    uint64_t busy_cycles; /* core cycles with a kernel running (kernels run together once) */
    unsigned n_kernels, cap_kernels;
    bool spin_stops;      /* a launch whose warps spin is given up, not a fault */
    bool spun;            /* ... and the last launch was given up */
    bool progress;        /* print a progress line on stderr */
    bool progress_tty;    /* ... rewritten in place (stderr is a terminal) */
    double progress_wall; /* when it was last printed */
    double run_wall_start;
    struct kernel_stats *kernel_stats; /* every statistic per launch, when asked for */
    /* statistics sampled every sample_ps while kernels run (machine_set_sampler) */
    machine_sample_fn *sample_fn;
    void *sample_arg;
    tick_t sample_ps, next_sample;
    tick_t launch_start; /* when the running launch started */
};

/* partition.c: place every component in its partition (comp.part), and
 * check C2 (one sender per port) on the machine's wiring; both after the
 * machine is built. */
void machine_partition(struct machine *m);
void machine_check_senders(struct machine *m);
/* sim.partitions = max on a machine of several partitions: give each its
 * queue (eng_split) and the cut ports their outboxes; after the above. */
void machine_split(struct machine *m);
void machine_split_free(struct machine *m);

#endif
