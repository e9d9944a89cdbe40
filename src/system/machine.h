/*
 * machine.h - builds a GPU from a configuration and runs kernels on it.
 *
 * The machine owns every component (SMs, the protocol's L1s and L2 banks, a
 * crossbar per direction, DRAM channels), the message pool, the backing
 * store and the clock domains, and wires them with ports: SM <-> L1 <->
 * crossbar (one vnet per protocol message class) <-> L2 bank <-> DRAM
 * channel. It offers itself to the host API as a launcher (kernels run to
 * completion; copies go through the L2 banks' idle-time access), and
 * enumerates every statistic under hierarchical names.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef SYSTEM_MACHINE_H
#define SYSTEM_MACHINE_H

#include "coh/proto.h"
#include "gpu/sm.h"
#include "coh/getm/sm_tx.h"
#include "host/launcher.h"
#include "sim/hist.h"
#include "system/config.h"

struct machine;

/* Build the machine (the config must have passed config_load). With `check`
 * the invariant observers run (golden memory, data-value invariant). */
struct machine *machine_new_checked(const struct config *cfg, bool check);
struct machine *machine_new(const struct config *cfg);
void machine_free(struct machine *m);
/* Print a progress line on stderr while kernels run: the launch's kernel,
 * CTAs finished of its total, cycles, thread instructions, simulated cycles
 * per second; rewritten in place on a terminal (`tty`), else a line every
 * 10 s and at each launch's end. It reads the machine, never changes it. */
void machine_set_progress(struct machine *m, bool on, bool tty);
struct launcher machine_launcher(struct machine *m);
/* Whether a launch whose warps spin on loads with the memory system still
 * answering (sim.spin_cycles) is given up and reported (launcher_ops) rather
 * than a fault; off by default. The litmus runner turns it on. */
void machine_set_spin_stops(struct machine *m, bool on);
/* Observe every warp instruction every SM issues (gpu/sm.h), and every CPU
 * core's, which reports as core gpu.sms + i. */
void machine_set_issue_hook(struct machine *m, sm_issue_fn *fn, void *obj);
/* Tell o of every warp instruction of every SM and CPU core
 * (gpu/inst_observer.h; o is copied; the CLI's --trace and --inst-stats plug
 * in gpu/inst_trace.h), each naming itself by its index in the machine (SMs
 * of every GPM and GPU in order, then the CPU cores); NULL: none. */
struct inst_observer;
void machine_set_inst_observer(struct machine *m, const struct inst_observer *o);
/* SMs and CPU cores together; the SMs alone in *sms, an SM's warp slots in *warps. */
unsigned machine_cores(const struct machine *m, unsigned *sms, unsigned *warps);

typedef void stat_emit_fn(void *arg, const char *name, uint64_t value);

/* Every statistic, hierarchically named ("gpu.sm[3].thread_insts"). */
void machine_stats(struct machine *m, stat_emit_fn *emit, void *arg);

/* The headline figures of a run. */
struct machine_summary {
    uint64_t cycles; /* core cycles with a kernel running (kernels run together count once) */
    uint64_t kernels;
    uint64_t thread_insts, warp_insts;
    uint64_t l1_hits, l1_accesses; /* global loads at the L1 (protocols with an L1) */
    uint64_t l2_hits, l2_accesses;
    uint64_t bytes[TRAFFIC_N], flits[TRAFFIC_N], msgs[TRAFFIC_N]; /* both directions */
    uint64_t events;                                              /* engine events */
    uint64_t gwct_waits;       /* TC-Weak: fences/releases that waited for a GWCT */
    uint64_t gwct_wait_cycles; /* ... and the warp-cycles they waited */
    struct hist load_latency;  /* core cycles per global load request, all SMs */
    /* transactional protocols: thread transactions committed and aborted, the
     * aborts by cause, and the validation units' granule aborts refused only
     * by Bloom-filter timestamps (statistics tx.*, getm.vu_abort.bloom) */
    uint64_t tx_commits, tx_aborts, tx_abort[SM_TX_ABORT_N], tx_abort_bloom;
};
void machine_summary(struct machine *m, struct machine_summary *s);

/* Keep every statistic of each launch (system/kernel_stats.h) from now on;
 * off by default, as each launch then costs two walks over the statistics. */
void machine_set_kernel_stats(struct machine *m, bool on);
/* ... the launches so far, or NULL when not kept. */
struct kernel_stats;
const struct kernel_stats *machine_kernel_stats(const struct machine *m);

/* Call fn every `every_cycles` core cycles (at multiples of it) while
 * kernels run, with the machine's core cycle and the core cycles with a kernel
 * running so far (the summary's `cycles` once the launch has ended); 0 turns
 * it off. Sampling does not change what is simulated. */
typedef void machine_sample_fn(void *arg, struct machine *m, uint64_t cycle,
                               uint64_t kernel_cycles);
void machine_set_sampler(struct machine *m, uint64_t every_cycles, machine_sample_fn *fn,
                         void *arg);
/* Memory operations issued and not completed (the engine's count). */
uint64_t machine_outstanding(const struct machine *m);
/* The protocol's own time-series columns (proto_desc.series): their names
 * (returns how many, at most MACHINE_SERIES_MAX), and their values now,
 * summed over every L2 bank of the machine. */
#define MACHINE_SERIES_MAX 8
unsigned machine_series_names(const struct machine *m, const char *const **names);
void machine_series_values(struct machine *m, uint64_t *values);
/* The machine's clock, in core cycles. */
uint64_t machine_cycle(const struct machine *m);

/* Partitions of the machine (docs/parallel.md; partition.c): how many, and
 * why it is only one (NULL when cut); each one's name ("core", "mem",
 * "gpu0.gpm1.core", "sys.net", "all") and the ticks its components ran, a
 * host figure like engine.events (the stats' "speed" block). */
unsigned machine_n_partitions(const struct machine *m, const char **why);
const char *machine_partition_name(const struct machine *m, unsigned p, char *buf, size_t size);
uint64_t machine_partition_ticks(const struct machine *m, unsigned p);

/* How the partitions run (sim.partitions; host figures): with a queue each
 * or not, the cut ports whose sends wait in outboxes and those left direct
 * (no latency), the window (ps; 0: none) and the sends announced at window
 * ends so far. */
struct machine_split_info {
    bool apart;
    unsigned cut_ports, direct_ports;
    uint64_t window_ps, outbox_sends;
};
void machine_split_info(const struct machine *m, struct machine_split_info *out);

/* Cycles of each kernel launched so far, in order. */
unsigned machine_kernel_cycles(struct machine *m, const char ***names, const uint64_t **cycles);

const struct config *machine_config(const struct machine *m);
/* The view of it the protocols read (coh/machine_view.h). */
const struct machine_view *machine_coh_view(const struct machine *m);
/* SMs and L2 banks of every GPM together (gpu.sms and l2.banks per GPM times
 * the GPMs of topology.*); SM i and bank b belong to GPM i / gpu.sms and
 * b / l2.banks. */
unsigned machine_n_sms(const struct machine *m);
unsigned machine_n_banks(const struct machine *m);
/* CPU cores (cpu.cores); their L1s follow the SMs': core n_sms + i is CPU i. */
unsigned machine_n_cpus(const struct machine *m);
/* The operations of core k's L1 (an SM's: the protocol's l1; a CPU core's:
 * its cpu_l1). */
const struct ctrl_ops *machine_l1_ops(const struct machine *m, unsigned core);
const struct proto_desc *machine_proto(const struct machine *m);

/* Coverage of every controller table, with "<--" on cells never fired. */
void machine_coverage(struct machine *m, FILE *out);
/* Record the last `cap` transitions (a power of two) for reports. */
struct coh_history *machine_record_history(struct machine *m, uint32_t cap);
/* Per-table coverage arrays (for tools): n tables, in the protocol's order. */
const struct coh_cov *machine_cov(struct machine *m, unsigned *n);

/* Inject a request straight into core `sm`'s L1 (SMs, then CPU cores) as if its LSU sent it (the
 * directed-test driver); the response comes back to `on_rsp`. */
struct eng *machine_eng(struct machine *m);
struct pool *machine_msgs(struct machine *m);
struct port *machine_l1_port(struct machine *m, unsigned sm);
struct comp *machine_l1(struct machine *m, unsigned sm);
struct comp *machine_l2(struct machine *m, unsigned bank);
/* Replace the SM's side of the L1 link: responses go to `rsp` (for tests). */
void machine_detach_sm(struct machine *m, unsigned sm, struct port *rsp, struct comp *receiver);

#endif
