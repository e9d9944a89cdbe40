/*
 * machine.c - builds and runs the GPU (see machine.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "system/machine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "mem/observe.h"
#include "dram/dram.h"
#include "gpu/mac.h"
#include "gpu/sm.h"
#include "gpu/sm_tx.h"
#include "coh/getm/getm_bank.h"
#include "coh/nc/nc.h"
#include "gpu/tx_board.h"
#include "gpu/tx_epoch.h"
#include "gpu/tx_serial.h"
#include "coh/spandex/fcs.h"
#include "ptx/ir.h"
#include "noc/net.h"
#include "mem/pagemap.h"
#include "noc/sysnet.h"
#include "noc/xbar.h"
#include "base/clock.h"
#include "system/kernel_stats.h"

struct machine {
    struct config cfg;
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
    struct tx_board *tx_board;   /* EAPG (ideal): commits' broadcasts (warptm.eapg), or NULL */
    struct tx_epoch *tx_epoch;   /* GETM: the timestamp rollover board, or NULL */
    struct tx_serial *tx_serial; /* transactions: the forward-progress token, or NULL */
    struct clock unit_clk;
    struct port *to_unit, *from_unit; /* per SM: L1 -> unit, unit -> L1 */
    struct coh_cov *cov;              /* per table */
    struct coh_history hist;          /* recent transitions, when asked for */
    struct observer *obs;             /* --check */
    char **names;                     /* every component name, freed at the end */
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

void machine_set_progress(struct machine *m, bool on, bool tty)
{
    m->progress = on;
    m->progress_tty = tty;
}

void machine_set_kernel_stats(struct machine *m, bool on)
{
    if (on && !m->kernel_stats)
        m->kernel_stats = kernel_stats_new();
    if (!on) {
        kernel_stats_free(m->kernel_stats);
        m->kernel_stats = NULL;
    }
}

const struct kernel_stats *machine_kernel_stats(const struct machine *m)
{
    return m->kernel_stats;
}

void machine_set_sampler(struct machine *m, uint64_t every_cycles, machine_sample_fn *fn, void *arg)
{
    m->sample_fn = every_cycles ? fn : NULL;
    m->sample_arg = arg;
    m->sample_ps = every_cycles * m->core_clk.period_ps;
}

uint64_t machine_outstanding(const struct machine *m)
{
    return m->eng.n_outstanding;
}

unsigned machine_series_names(const struct machine *m, const char *const **names)
{
    *names = m->proto->series_names;
    return m->proto->series ? m->proto->n_series : 0;
}

void machine_series_values(struct machine *m, uint64_t *values)
{
    unsigned n = m->proto->series ? m->proto->n_series : 0;
    uint64_t bank[MACHINE_SERIES_MAX];
    if (n > MACHINE_SERIES_MAX)
        panic("protocol %s has %u series columns (at most %u)", m->proto->name, n,
              MACHINE_SERIES_MAX);
    memset(values, 0, n * sizeof *values);
    for (unsigned b = 0; n && b < m->n_banks; b++) {
        m->proto->series(m->l2s[b], bank);
        for (unsigned k = 0; k < n; k++)
            values[k] += bank[k];
    }
}

uint64_t machine_cycle(const struct machine *m)
{
    return m->eng.now / m->core_clk.period_ps;
}

/* Core cycles the machine may take to settle after a kernel. */
#define QUIESCE_LIMIT_CYCLES 1000000u

/* Core cycles simulated between checks of the clock and the limits. */
#define RUN_CHUNK_CYCLES 20000

/* CTAs of the running launch finished, and in all (GPU and CPU cores). */
static void launch_ctas(const struct machine *m, uint64_t *done, uint64_t *total)
{
    *done = *total = 0;
    if (m->gpu_running)
        for (unsigned g = 0; g < m->n_gpms; g++) {
            *done += m->runs[g].n_ctas_done;
            *total += m->runs[g].n_ctas;
        }
    if (m->cpu_running) {
        *done += m->cpu_run.n_ctas_done;
        *total += m->cpu_run.n_ctas;
    }
}

/* The progress line: on a terminal one line rewritten in place at most
 * twice a second, cleared when the launch ends; elsewhere (--progress into
 * a file) a line every 10 seconds and one at the end of each launch. */
static void show_progress(struct machine *m, const char *kernel, bool last)
{
    double now = wall_seconds_since(0);
    if (!last && now - m->progress_wall < (m->progress_tty ? 0.5 : 10))
        return;
    m->progress_wall = now;
    uint64_t cycles = m->eng.now / m->core_clk.period_ps, insts = 0, done, total;
    for (unsigned i = 0; i < m->n_cores; i++)
        insts += sm_stats(m->sms[i])->thread_insts;
    launch_ctas(m, &done, &total);
    double wall = now - m->run_wall_start;
    char pct[48] = "";
    if (total)
        snprintf(pct, sizeof pct, "%.0f%% of %llu CTAs, ", 100.0 * (double)done / (double)total,
                 (unsigned long long)total);
    fprintf(stderr,
            "%s[gpucoh] %s (kernel %u): %s%llu cycles, %.2f M thread insts, %.0f cycles/s%s",
            m->progress_tty ? "\r\033[K" : "", kernel, m->n_kernels + 1, pct,
            (unsigned long long)cycles, (double)insts / 1e6, wall > 0 ? cycles / wall : 0,
            m->progress_tty ? "" : "\n");
    if (last && m->progress_tty)
        fputs("\r\033[K", stderr);
    fflush(stderr);
}

static const char *name_of(struct machine *m, const char *fmt, unsigned i)
{
    char buf[64];
    snprintf(buf, sizeof buf, fmt, i);
    m->names = realloc(m->names, (m->n_names + 1) * sizeof *m->names);
    m->names[m->n_names] = strdup(buf);
    if (!m->names || !m->names[m->n_names])
        panic("out of memory");
    return m->names[m->n_names++];
}

/* The name of GPM g's component: "gpu.sm[3]" on one GPM (as before
 * topologies), "gpu1.gpm0.sm[3]" on several. */
static const char *gpm_name(struct machine *m, unsigned g, const char *what, unsigned i)
{
    char fmt[64];
    if (m->n_gpms == 1)
        snprintf(fmt, sizeof fmt, "gpu.%s", what);
    else
        snprintf(fmt, sizeof fmt, "gpu%u.gpm%u.%s", g / m->cfg.topology.gpms,
                 g % m->cfg.topology.gpms, what);
    return name_of(m, fmt, i);
}

static void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz);
    if (!p)
        panic("out of memory");
    return p;
}

struct machine *machine_new(const struct config *cfg)
{
    return machine_new_checked(cfg, false);
}

/* The tie order among simultaneous ticks (eng.h). The ports with no latency
 * go crossbar -> L2 bank and L1, L2 bank -> DRAM channel, L2 bank -> L1 (the
 * ideal reference's invalidations): each receiver ranks after its sender, so
 * a zero latency is zero. Then the L1s, then the SMs (a slot an L1 frees in
 * its request port is seen by the SM in the same cycle). Drivers that stand
 * in for the SMs register later and rank last. */
static void order_components(struct machine *m)
{
    /* the crossbars, the MACs' crossbars and the central unit; per bank L2, DRAM and MAC; per SM */
    size_t n = 0, cap = 6 + 2 * (size_t)m->n_gpms + 3 * (size_t)m->n_banks + 2 * (size_t)m->n_cores;
    struct comp **order = xcalloc(cap, sizeof *order);
    if (m->sys) /* its input ports have a latency of a cycle; its outputs none */
        order[n++] = sysnet_comp(m->sys);
    for (unsigned g = 0; g < m->n_gpms; g++) {
        order[n++] = net_comp(m->up[g]);
        order[n++] = net_comp(m->down[g]);
    }
    if (m->macs) {
        order[n++] = xbar_comp(m->type_up);
        order[n++] = xbar_comp(m->type_down);
        for (unsigned b = 0; b < m->n_banks; b++)
            order[n++] = mac_comp(m->macs[b]);
    }
    for (unsigned b = 0; b < m->n_banks; b++) {
        order[n++] = m->l2s[b];
        order[n++] = dram_comp(m->drams[b]);
    }
    if (m->unit) /* its links have a latency of at least one cycle either way */
        order[n++] = m->unit;
    for (unsigned i = 0; i < m->n_cores; i++)
        order[n++] = m->l1s[i];
    for (unsigned i = 0; i < m->n_cores; i++)
        order[n++] = sm_comp(m->sms[i]);
    eng_order(&m->eng, order, n);
    free(order);
}

/* Type-aware SC: a MAC beside each L2 bank (on the L2 clock) and a crossbar
 * pair of their own with the main one's parameters, one virtual network
 * each way. DEVIATION: the paper sends MAC traffic on the existing virtual
 * channels; here it does not compete with data traffic, and its bytes are
 * counted apart (gpu.noc.type_up/type_down), not in the traffic totals. */
static void build_macs(struct machine *m)
{
    const struct config *cfg = &m->cfg;
    m->macs = xcalloc(m->n_banks, sizeof *m->macs);
    struct comp **sms = xcalloc(m->n_sms, sizeof *sms), **macs = xcalloc(m->n_banks, sizeof *macs);
    for (unsigned b = 0; b < m->n_banks; b++) {
        m->macs[b] = mac_new(&m->eng, name_of(m, "gpu.mac[%u]", b), &m->l2_clk, &cfg->sm.order, b,
                             m->n_banks, m->n_sms, &m->msgs);
        macs[b] = mac_comp(m->macs[b]);
    }
    for (unsigned i = 0; i < m->n_sms; i++)
        sms[i] = sm_comp(m->sms[i]);
    m->type_up = xbar_new(&m->eng, "gpu.noc.type_up", &m->icnt_clk, &cfg->noc, m->n_sms, m->n_banks,
                          1, sms, macs);
    m->type_down = xbar_new(&m->eng, "gpu.noc.type_down", &m->icnt_clk, &cfg->noc, m->n_banks,
                            m->n_sms, 1, macs, sms);
    xbar_set_seed(m->type_up, cfg->sim.seed * 2 + 3);
    xbar_set_seed(m->type_down, cfg->sim.seed * 2 + 4);
    for (unsigned b = 0; b < m->n_banks; b++)
        mac_connect(m->macs[b], xbar_out(m->type_up, b, 0), xbar_in(m->type_down, b, 0));
    for (unsigned i = 0; i < m->n_sms; i++)
        sm_connect_mac(m->sms[i], xbar_in(m->type_up, i, 0), xbar_out(m->type_down, i, 0),
                       m->n_banks);
    free(sms);
    free(macs);
}

/* WarpTM-EL (ideal): the bytes a line's home bank holds now. An audited
 * exception to message passing, as the thesis's ideal variant is: the SMs'
 * zero-latency early checks read it, and only to abort (never for data). The
 * transactional protocols run on one GPM, whose L2 is the nc bank. */
static bool tx_value_now(void *arg, addr_t line, uint8_t *data)
{
    struct machine *m = arg;
    unsigned bank = (unsigned)((line / m->line_bytes) % m->banks_per_gpm);
    return nc_l2_value_now(m->l2s[bank], line, data);
}

/* GETM's timestamp rollover (gpu/tx_epoch.h): a bank's validation unit
 * flushes its tables, called from the board when nothing is in flight. */
static void tx_roll_bank(void *obj)
{
    nc_l2_tm_rollover(obj);
}

/* A CPU core (docs/cpu.md): an in-order core running one thread, built as an
 * SM of one warp slot whose warp has one live lane, at the CPU clock, with
 * TSO and a store buffer of cpu.store_buffer entries (x86 as the paper's
 * Simics CPUs: stores retire into a FIFO buffer, loads read the core's own
 * buffered stores, atomics and fences drain it; the stores that follow the
 * head in its line leave with it, as Table 2's write buffer combines them),
 * one instruction per cycle
 * and a 1-cycle L1 hit. Latencies in CPU cycles: simple integer operations,
 * branches, moves and the issue of a memory access 1; integer multiply 3,
 * floating point 4, division and special functions 20. */
static void cpu_spec_of(const struct config *cfg, struct sm_spec *s)
{
    *s = cfg->sm;
    s->warps = 1;
    s->warp_size = 32;
    s->threads = 32;
    s->ctas = 1;
    s->schedulers = 1;
    s->regs = 32 * 255;
    s->max_regs_per_thread = 255;
    const char *model = cfg->cpu.order == CPU_ORDER_RMO ? "rmo" : "tso";
    for (unsigned i = 0; order_policy_names[i]; i++)
        if (!strcmp(order_policy_names[i], model))
            s->order.model = i;
    s->order.store_buffer = cfg->cpu.store_buffer;
    s->order.prefetch = false;
    s->order.sb_combine = true;
    s->order.sb_parallel = cfg->cpu.store_drain == CPU_DRAIN_PARALLEL;
    static const uint32_t lat[PTX_LAT_N] = {
        [PTX_LAT_INT] = 1,  [PTX_LAT_IMUL] = 3,  [PTX_LAT_FP32] = 4,   [PTX_LAT_FP64] = 4,
        [PTX_LAT_SFU] = 20, [PTX_LAT_SHMEM] = 1, [PTX_LAT_BRANCH] = 1, [PTX_LAT_GMEM] = 1,
    };
    memcpy(s->lat, lat, sizeof lat);
}

/* Mesh nodes of the L1s: SM i and CPU core i share node i (of as many as
 * there are SMs, spread evenly over the mesh), as the paper puts one CPU
 * core and one GPU compute unit at every node. */
static uint16_t *l1_nodes(const struct machine *m)
{
    unsigned nodes = m->cfg.noc.mesh_cols * m->cfg.noc.mesh_rows;
    uint16_t *at = xcalloc(m->n_cores, sizeof *at);
    for (unsigned i = 0; i < m->n_sms; i++)
        at[i] = (uint16_t)((uint64_t)i * nodes / m->n_sms);
    for (unsigned i = 0; i < m->n_cpus; i++)
        at[m->n_sms + i] = (uint16_t)((uint64_t)i * nodes / m->n_cpus);
    return at;
}

struct machine *machine_new_checked(const struct config *cfg, bool check)
{
    struct machine *m = xcalloc(1, sizeof *m);
    if (check) {
        m->obs = xcalloc(1, sizeof *m->obs);
        obs_init(m->obs, cfg->l1.cache.line_bytes);
    }
    m->cfg = *cfg;
    cfg = &m->cfg;
    m->proto = proto_find(cfg->coherence.protocol);
    panic_if(!m->proto, "unknown protocol %s", cfg->coherence.protocol);
    eng_init(&m->eng);
    m->core_clk = (struct clock){"core", clock_period_ps(cfg->gpu.core_mhz)};
    m->icnt_clk = (struct clock){"icnt", clock_period_ps(cfg->noc.mhz)};
    m->l2_clk = (struct clock){"l2", clock_period_ps(cfg->l2.mhz)};
    m->dram_clk = (struct clock){"dram", clock_period_ps(cfg->dram.mhz)};
    m->eng.watchdog_ps = cfg->sim.watchdog_cycles * m->core_clk.period_ps;
    msg_pool_init(&m->msgs);
    backing_init(&m->store);
    m->n_gpms = cfg->topology.gpus * cfg->topology.gpms;
    m->sms_per_gpm = cfg->gpu.sms;
    m->banks_per_gpm = cfg->l2.banks;
    m->n_sms = m->n_gpms * m->sms_per_gpm;
    m->n_banks = m->n_gpms * m->banks_per_gpm;
    m->n_cpus = cfg->cpu.cores; /* config_load: only on one GPM, under a protocol with CPU L1s */
    m->n_cores = m->n_sms + m->n_cpus;
    m->cpu_clk = (struct clock){"cpu", clock_period_ps(cfg->cpu.mhz)};
    cpu_spec_of(cfg, &m->cpu_spec);
    if (m->n_gpms > 1)
        pagemap_init(&m->pages, cfg->topology.page_bytes);
    m->line_bytes = cfg->l1.cache.line_bytes;

    for (const struct coh_table *const *t = m->proto->tables; *t; t++)
        m->n_tables++;
    m->cov = xcalloc(m->n_tables, sizeof *m->cov);
    for (unsigned i = 0; i < m->n_tables; i++)
        coh_cov_init(&m->cov[i], m->proto->tables[i]);

    /* controllers first: ports and crossbars need their components */
    m->sms = xcalloc(m->n_cores, sizeof *m->sms);
    m->l1s = xcalloc(m->n_cores, sizeof *m->l1s);
    m->l1_ops = xcalloc(m->n_cores, sizeof *m->l1_ops);
    m->l2s = xcalloc(m->n_banks, sizeof *m->l2s);
    m->drams = xcalloc(m->n_banks, sizeof *m->drams);
    m->l1_links = xcalloc(m->n_cores, sizeof *m->l1_links);
    m->from_l1 = xcalloc(m->n_cores, sizeof *m->from_l1);
    /* every GPM alike: its controllers index SMs and banks within it */
    struct ctrl_wiring w = {.eng = &m->eng,
                            .msgs = &m->msgs,
                            .cfg = cfg,
                            .n_sms = m->sms_per_gpm,
                            .n_banks = m->banks_per_gpm,
                            .store = &m->store,
                            .obs = m->obs,
                            .pages = m->n_gpms > 1 ? &m->pages : NULL};
    for (unsigned i = 0; i < m->n_sms; i++) {
        unsigned g = i / m->sms_per_gpm, local = i % m->sms_per_gpm;
        m->sms[i] = sm_new(&m->eng, &m->core_clk, gpm_name(m, g, "sm[%u]", local), &cfg->sm,
                           g / cfg->topology.gpms, local, m->line_bytes, &m->msgs);
        if (m->proto->transactional) {
            struct getm_params gp;
            getm_params_of_config(cfg, m->n_sms, &gp);
            sm_enable_tx(m->sms[i], &gp, getm_warp_id(cfg, i, 0), cfg->getm.tx_warps,
                         cfg->getm.backoff_cycles, cfg->sim.seed ^ (0x5eed0000ull + i));
            if (cfg->getm.trace_warp && (cfg->getm.trace_warp - 1) / cfg->sm.warps == i)
                sm_trace_tx(m->sms[i], (int)((cfg->getm.trace_warp - 1) % cfg->sm.warps));
            if (gp.eager)
                sm_set_tx_oracle(m->sms[i], tx_value_now, m);
            if (!m->tx_serial)
                m->tx_serial = tx_serial_new(m->n_sms, cfg->sm.warps);
            sm_join_tx_serial(m->sms[i], m->tx_serial, i);
            if (gp.eapg) {
                if (!m->tx_board)
                    m->tx_board = tx_board_new(m->n_sms, cfg->sm.warps);
                sm_join_tx_board(m->sms[i], m->tx_board, i);
            }
            if (!gp.warptm) {
                if (!m->tx_epoch)
                    m->tx_epoch = tx_epoch_new(m->n_sms, m->n_banks);
                sm_join_tx_epoch(m->sms[i], m->tx_epoch, i);
            }
        }
        w.clk = &m->core_clk;
        w.name = gpm_name(m, g, "sm[%u].l1", local);
        w.index = local;
        w.gpm = g;
        w.cov = m->cov;
        if (m->n_cpus)
            w.n_sms = m->n_cores; /* L1 indices of the CPU cores follow the SMs' */
        m->l1_ops[i] = &m->proto->l1;
        m->l1s[i] = m->proto->l1.create(&w);
    }
    for (unsigned i = 0; i < m->n_cpus; i++) {
        unsigned k = m->n_sms + i, table = 0;
        m->sms[k] = sm_new(&m->eng, &m->cpu_clk, name_of(m, "cpu[%u]", i), &m->cpu_spec, 0, i,
                           m->line_bytes, &m->msgs);
        w.clk = &m->cpu_clk;
        w.name = name_of(m, "cpu[%u].l1", i);
        w.index = k;
        w.gpm = 0;
        m->l1_ops[k] = m->proto->cpu_l1(cfg, &table);
        w.cov = m->cov + table;
        m->l1s[k] = m->l1_ops[k]->create(&w);
    }
    w.n_sms = m->sms_per_gpm;
    for (unsigned b = 0; b < m->n_banks; b++) {
        unsigned g = b / m->banks_per_gpm, local = b % m->banks_per_gpm;
        w.clk = &m->l2_clk;
        w.name = gpm_name(m, g, "l2[%u]", local);
        w.index = local;
        w.gpm = g;
        w.cov = m->cov + m->proto->n_l1_tables;
        m->l2s[b] = m->proto->l2.create(&w);
        if (m->tx_epoch)
            tx_epoch_listen_bank(m->tx_epoch, b, tx_roll_bank, m->l2s[b]);
        m->drams[b] = dram_new(&m->eng, gpm_name(m, g, "dram[%u]", local), &m->dram_clk, &cfg->dram,
                               &m->store, m->line_bytes, local, m->banks_per_gpm);
    }
    if (m->proto->unit.create) {
        const struct unit_ops *u = &m->proto->unit;
        m->unit_clk = (struct clock){"unit", clock_period_ps(u->mhz(cfg))};
        w.clk = &m->unit_clk;
        w.name = "gpu.emu";
        w.index = 0;
        w.cov = m->cov;
        m->unit = u->create(&w);
        m->to_unit = xcalloc(m->n_sms, sizeof *m->to_unit);
        m->from_unit = xcalloc(m->n_sms, sizeof *m->from_unit);
        tick_t hop = MAX(u->link_cycles(cfg), 1u) * m->core_clk.period_ps;
        struct port **to = xcalloc(m->n_sms, sizeof *to), **from = xcalloc(m->n_sms, sizeof *from);
        for (unsigned i = 0; i < m->n_sms; i++) {
            port_init(&m->to_unit[i], name_of(m, "gpu.emu.from_l1[%u]", i), 1u << 16, hop,
                      m->l1s[i], m->unit);
            port_init(&m->from_unit[i], name_of(m, "gpu.emu.to_l1[%u]", i), 1u << 16, hop, m->unit,
                      m->l1s[i]);
            m->l1_links[i].to_unit = &m->to_unit[i];
            m->l1_links[i].from_unit = &m->from_unit[i];
            to[i] = &m->from_unit[i];
            from[i] = &m->to_unit[i];
        }
        u->connect(m->unit, to, from);
        free(to);
        free(from);
    }
    m->up = xcalloc(m->n_gpms, sizeof *m->up);
    m->down = xcalloc(m->n_gpms, sizeof *m->down);
    /* the CPU cores' L1s (one GPM only) are endpoints after the SMs' */
    uint16_t *at = m->n_cpus ? l1_nodes(m) : NULL;
    for (unsigned g = 0; g < m->n_gpms; g++) {
        struct comp **l1s = m->l1s + g * m->sms_per_gpm, **l2s = m->l2s + g * m->banks_per_gpm;
        unsigned n_l1 = m->sms_per_gpm + m->n_cpus;
        m->up[g] = net_new_placed(&m->eng, gpm_name(m, g, "noc.up", 0), &m->icnt_clk, &cfg->noc,
                                  n_l1, m->banks_per_gpm, m->proto->n_vnets, l1s, l2s, at, NULL);
        m->down[g] = net_new_placed(&m->eng, gpm_name(m, g, "noc.down", 0), &m->icnt_clk, &cfg->noc,
                                    m->banks_per_gpm, n_l1, m->proto->n_vnets, l2s, l1s, NULL, at);
        net_set_seed(m->up[g], cfg->sim.seed * 2 + 1 + 1000003ull * g);
        net_set_seed(m->down[g], cfg->sim.seed * 2 + 2 + 1000003ull * g);
    }
    free(at);
    for (unsigned b = 0; b < m->n_banks; b++)
        dram_set_seed(m->drams[b], cfg->sim.seed * 1000 + b);
    if (m->n_gpms > 1) {
        const struct topo_spec *t = &cfg->topology;
        struct sysnet_shape sh = {.gpus = t->gpus,
                                  .gpms = t->gpms,
                                  .banks = m->banks_per_gpm,
                                  .n_vnets = m->proto->n_vnets,
                                  .gpm_bytes_per_s = t->gpm_link_gbs * 1e9,
                                  .gpu_bytes_per_s = t->gpu_link_gbs * 1e9,
                                  .gpm_latency_ps = t->gpm_link_cycles * m->core_clk.period_ps,
                                  .gpu_latency_ps = t->gpu_link_cycles * m->core_clk.period_ps,
                                  .header_bytes = cfg->noc.header_bytes};
        m->sys = sysnet_new(&m->eng, "sys.net", &m->core_clk, &sh, m->l2s);
    }

    for (unsigned i = 0; i < m->n_cores; i++) {
        bool cpu = i >= m->n_sms;
        unsigned g = cpu ? 0 : i / m->sms_per_gpm, local = cpu ? i : i % m->sms_per_gpm;
        struct comp *smc = sm_comp(m->sms[i]);
        struct port *to_l1 = m->l1_ops[i]->in_port(m->l1s[i]);
        to_l1->sender = smc;
        port_init(&m->from_l1[i],
                  cpu ? name_of(m, "cpu[%u].from_l1", i - m->n_sms)
                      : gpm_name(m, g, "sm[%u].from_l1", local),
                  1u << 16, cpu ? m->cpu_clk.period_ps : m->core_clk.period_ps, m->l1s[i], smc);
        struct ctrl_links *l = &m->l1_links[i];
        l->to_core = &m->from_l1[i];
        for (unsigned v = 0; v < m->proto->n_vnets; v++) {
            l->net_out[v] = net_in(m->up[g], local, v);
            l->net_in[v] = net_out(m->down[g], local, v);
        }
        m->l1_ops[i]->connect(m->l1s[i], l);
        sm_connect(m->sms[i], to_l1, &m->from_l1[i]);
    }
    for (unsigned b = 0; b < m->n_banks; b++) {
        unsigned g = b / m->banks_per_gpm, local = b % m->banks_per_gpm;
        struct ctrl_links l = {0};
        for (unsigned v = 0; v < m->proto->n_vnets; v++) {
            l.net_out[v] = net_in(m->down[g], local, v);
            l.net_in[v] = net_out(m->up[g], local, v);
            if (m->sys) {
                l.sys_out[v] = sysnet_in(m->sys, b, v);
                l.sys_out[v]->latency_ps = m->core_clk.period_ps; /* the injection cycle */
                l.sys_in[v] = sysnet_out(m->sys, b, v);
            }
        }
        l.to_mem = dram_req_port(m->drams[b]);
        l.to_mem->sender = m->l2s[b];
        m->proto->l2.connect(m->l2s[b], &l);
        dram_connect(m->drams[b], m->proto->l2.in_port(m->l2s[b]), m->l2s[b]);
    }
    if (order_policies[cfg->sm.order.model]->typeaware)
        build_macs(m);
    order_components(m);
    return m;
}

/* A CPU core's issue, reported as core gpu.sms + i (its L1 index): a CPU
 * core's own id counts from 0 like the SMs'. */
static void cpu_issue(void *obj, unsigned id, uint64_t cycle, unsigned slot,
                      const struct ptx_step *st)
{
    struct machine *m = obj;
    m->issue_fn(m->issue_obj, m->n_sms + id, cycle, slot, st);
}

void machine_set_issue_hook(struct machine *m, sm_issue_fn *fn, void *obj)
{
    m->issue_fn = fn;
    m->issue_obj = obj;
    for (unsigned i = 0; i < m->n_sms; i++)
        sm_set_issue_hook(m->sms[i], fn, obj);
    for (unsigned i = m->n_sms; i < m->n_cores; i++)
        sm_set_issue_hook(m->sms[i], fn ? cpu_issue : NULL, m);
}

void machine_set_inst_trace(struct machine *m, struct inst_trace *t)
{
    for (unsigned i = 0; i < m->n_cores; i++)
        sm_set_inst_trace(m->sms[i], t, i);
}

unsigned machine_cores(const struct machine *m, unsigned *sms, unsigned *warps)
{
    *sms = m->n_sms;
    *warps = m->n_sms ? sm_warp_slots(m->sms[0]) : 0;
    return m->n_cores;
}

void machine_free(struct machine *m)
{
    if (!m)
        return;
    free(m->fcs_types);
    for (unsigned i = 0; i < m->n_cores; i++) {
        sm_free(m->sms[i]);
        m->l1_ops[i]->destroy(m->l1s[i]);
        port_destroy(&m->from_l1[i]);
    }
    tx_board_free(m->tx_board);
    tx_epoch_free(m->tx_epoch);
    tx_serial_free(m->tx_serial);
    for (unsigned b = 0; b < m->n_banks; b++) {
        m->proto->l2.destroy(m->l2s[b]);
        dram_free(m->drams[b]);
    }
    if (m->unit) {
        m->proto->unit.destroy(m->unit);
        for (unsigned i = 0; i < m->n_sms; i++) {
            port_destroy(&m->to_unit[i]);
            port_destroy(&m->from_unit[i]);
        }
        free(m->to_unit);
        free(m->from_unit);
    }
    for (unsigned g = 0; g < m->n_gpms; g++) {
        net_free(m->up[g]);
        net_free(m->down[g]);
    }
    free(m->up);
    free(m->down);
    if (m->sys) {
        sysnet_free(m->sys);
        pagemap_destroy(&m->pages);
    }
    free(m->runs);
    if (m->macs) {
        for (unsigned b = 0; b < m->n_banks; b++)
            mac_free(m->macs[b]);
        free(m->macs);
        xbar_free(m->type_up);
        xbar_free(m->type_down);
    }
    for (unsigned i = 0; i < m->n_tables; i++)
        coh_cov_destroy(&m->cov[i]);
    for (unsigned i = 0; i < m->n_names; i++)
        free(m->names[i]);
    free(m->names);
    free(m->cov);
    free(m->hist.e);
    free(m->sms);
    free(m->l1s);
    free(m->l1_ops);
    free(m->l2s);
    free(m->drams);
    free(m->l1_links);
    free(m->from_l1);
    for (unsigned i = 0; i < m->n_kernel_name_pool; i++)
        free(m->kernel_name_pool[i]);
    free(m->kernel_name_pool);
    free(m->kernel_names);
    free(m->kernel_cycles);
    kernel_stats_free(m->kernel_stats);
    backing_destroy(&m->store);
    if (m->obs) {
        obs_destroy(m->obs);
        free(m->obs);
    }
    pool_destroy(&m->msgs);
    eng_destroy(&m->eng);
    free(m);
}

/* ---- the launcher ---- */

/* A GPM's share of the kernel, or the CPU's kernel, finished: the launch
 * ends with the last. */
static void kernel_done(void *obj, struct kernel_run *run)
{
    struct machine *m = obj;
    if (run == &m->cpu_run)
        m->cpu_end = m->eng.now;
    else
        m->gpu_end = m->eng.now;
    if (!--m->runs_left)
        eng_stop(&m->eng);
}

static bool kernel_all_done(const struct machine *m)
{
    if (m->cpu_running && !kernel_run_done(&m->cpu_run))
        return false;
    if (m->gpu_running)
        for (unsigned g = 0; g < m->n_gpms; g++)
            if (!kernel_run_done(&m->runs[g]))
                return false;
    return true;
}

/* The watchdog catches a machine in which nothing completes; this catches
 * one memory instruction starved while the rest of the machine runs on (an
 * arbiter that never picks it, a transition that forgets a waiter). Checked
 * between run chunks, so it costs nothing per event. */
static void check_starvation(struct machine *m, const char *kname)
{
    if (!m->cfg.sim.starvation_cycles)
        return;
    tick_t limit_ps = m->cfg.sim.starvation_cycles * m->core_clk.period_ps;
    for (unsigned i = 0; i < m->n_cores; i++) {
        unsigned warp = 0;
        tick_t since = sm_oldest_request(m->sms[i], &warp);
        if (since != TICK_MAX && m->eng.now - since > limit_ps)
            panic("starvation: in kernel %s, warp slot %u of %s has waited %llu core cycles for a "
                  "memory response (sim.starvation_cycles = %llu) while %llu operations are "
                  "outstanding",
                  kname, warp, sm_comp(m->sms[i])->name,
                  (unsigned long long)((m->eng.now - since) / m->core_clk.period_ps),
                  (unsigned long long)m->cfg.sim.starvation_cycles,
                  (unsigned long long)m->eng.n_outstanding);
    }
}

/* Load responses so far (every core): warps spinning on loads keep adding
 * to it, warps spinning on registers do not. */
static uint64_t total_load_responses(const struct machine *m)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < m->n_cores; i++)
        n += sm_stats(m->sms[i])->latency[MEM_LOAD].n;
    return n;
}

/* Whether every memory instruction still waiting for a response sent its
 * first request after `since`: warps that spin keep getting answers within
 * a round trip; a request that has waited for a good part of the spin
 * window is a message stuck in the memory system (a protocol hole, a
 * deadlock), which stays a fault. */
static bool requests_answered_since(const struct machine *m, tick_t since)
{
    for (unsigned i = 0; i < m->n_cores; i++) {
        unsigned warp;
        tick_t oldest = sm_oldest_request(m->sms[i], &warp);
        if (oldest != TICK_MAX && oldest < since)
            return false;
    }
    return true;
}

/* The runaway limits of one launch (sim.max_cycles, sim.max_insts): as set,
 * or for "auto" scaled to the launch's warps. UINT64_MAX: none. */
static void launch_limits(const struct machine *m, const struct launch *l, uint64_t *cycles,
                          uint64_t *insts)
{
    uint64_t ctas = (uint64_t)l->grid.x * l->grid.y * l->grid.z;
    uint64_t threads = (uint64_t)l->block.x * l->block.y * l->block.z;
    uint64_t warps = mul_sat_u64(ctas, (threads + 31) / 32);
    uint64_t per_wave = (uint64_t)m->n_sms * m->cfg.sm.warps;
    uint64_t waves = warps / per_wave + (warps % per_wave != 0);
    const struct sim_spec *sim = &m->cfg.sim;
    *cycles = sim->max_cycles == CFG_AUTO ? mul_sat_u64(SIM_AUTO_CYCLES_PER_WAVE, MAX(waves, 1))
              : sim->max_cycles           ? sim->max_cycles
                                          : UINT64_MAX;
    *insts = sim->max_insts == CFG_AUTO ? mul_sat_u64(SIM_AUTO_INSTS_PER_WARP, MAX(warps, 1))
             : sim->max_insts           ? sim->max_insts
                                        : UINT64_MAX;
}

static uint64_t total_warp_insts(const struct machine *m)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < m->n_cores; i++)
        n += sm_warp_insts(m->sms[i]);
    return n;
}

static uint64_t total_advances(const struct machine *m)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < m->n_cores; i++)
        n += sm_advances(m->sms[i]);
    return n;
}

/* Logical-time protocols (RCC): a warp may reread a value for as long as its
 * L1's copy is leased, millions of cycles, while a newer value waits at the
 * L2, so rereading one value is not yet being stuck. The spin watchdog there
 * takes each L1's lease mark at every progress event (or kernel start: the
 * largest lease end the banks have granted it, those in flight included) and
 * starts counting only once every L1's clock has passed its mark: from then
 * on no copy granted before the event can hit, so every load reads the L2's
 * value or a copy granted since, and a warp that still sees nothing new for
 * sim.spin_cycles waits for a write nobody makes. Store and atomic
 * completions are progress events (sm_advances), so a write is at the L2
 * before the mark that must pass is taken. */
static void mark_leases(const struct machine *m, uint64_t *marks)
{
    for (unsigned i = 0; i < m->n_sms; i++) {
        marks[i] = 0;
        for (unsigned b = 0; b < m->n_banks; b++)
            marks[i] = MAX(marks[i], m->proto->lease_mark(m->l2s[b], i));
    }
}

static bool leases_passed(const struct machine *m, const uint64_t *marks)
{
    for (unsigned i = 0; i < m->n_sms; i++)
        if (!m->proto->lease_passed(m->l1s[i], marks[i]))
            return false;
    return true;
}

/* fcs.table's file for module `mod`: "%m" stands for the module's file name
 * without folder and extension (one setting serves several workloads); a
 * relative path missing from the current folder is tried from the project
 * root, as machine files are. */
static void fcs_table_path(const struct machine *m, const struct ptx_module *mod, char *out,
                           size_t n)
{
    const char *base = strrchr(mod->filename, '/');
    base = base ? base + 1 : mod->filename;
    size_t base_len = strcspn(base, ".");
    char rel[1024];
    size_t k = 0;
    for (const char *t = m->cfg.fcs.table; *t && k + 1 < sizeof rel; t++) {
        if (t[0] == '%' && t[1] == 'm') {
            k += (size_t)snprintf(rel + k, sizeof rel - k, "%.*s", (int)base_len, base);
            k = k < sizeof rel ? k : sizeof rel - 1;
            t++;
        } else {
            rel[k++] = *t;
        }
    }
    rel[k] = 0;
    FILE *f = fopen(rel, "r");
    if (f || rel[0] == '/') {
        if (f)
            fclose(f);
        snprintf(out, n, "%s", rel);
        return;
    }
    const char *def = config_default_file(); /* ROOT/configs/tc-fermi.ini */
    const char *cut = strstr(def, "/configs/");
    snprintf(out, n, "%.*s/%s", cut ? (int)(cut - def) : 1, cut ? def : ".", rel);
    if (!(f = fopen(out, "r")))
        snprintf(out, n, "%s", rel); /* the error names the path as written */
    else
        fclose(f);
}

/* fcs.table: the request type of every instruction of the kernel's module
 * (loaded once per module); NULL without a table. A bad table is a user
 * error (exit 2). */
static const uint8_t *fcs_types(struct machine *m, const struct ptx_module *mod)
{
    if (!m->cfg.fcs.table[0])
        return NULL;
    if (m->fcs_mod != mod) {
        char err[1024], path[2048];
        free(m->fcs_types);
        fcs_table_path(m, mod, path, sizeof path);
        m->fcs_types = fcs_table_load(path, mod, err, sizeof err);
        if (!m->fcs_types)
            fatal("%s", err);
        m->fcs_mod = mod;
    }
    return m->fcs_types;
}

/* The machine's own copy of a kernel's name, made the first time the name
 * is seen: the statistics outlive the PTX module (the litmus runner frees
 * it before they are written), and a launch repeated many times costs a
 * lookup, not an allocation. */
static const char *intern_kernel_name(struct machine *m, const char *name)
{
    for (unsigned i = 0; i < m->n_kernel_name_pool; i++)
        if (!strcmp(m->kernel_name_pool[i], name))
            return m->kernel_name_pool[i];
    char **pool = realloc(m->kernel_name_pool, (m->n_kernel_name_pool + 1) * sizeof *pool);
    char *copy = strdup(name);
    if (!pool || !copy)
        panic("out of memory");
    m->kernel_name_pool = pool;
    return m->kernel_name_pool[m->n_kernel_name_pool++] = copy;
}

/* Record a finished kernel's name and cycles. */
static void note_kernel(struct machine *m, const struct launch *l, tick_t cycles)
{
    if (m->n_kernels == m->cap_kernels) {
        m->cap_kernels = m->cap_kernels ? 2 * m->cap_kernels : 16;
        m->kernel_names = realloc(m->kernel_names, m->cap_kernels * sizeof *m->kernel_names);
        m->kernel_cycles = realloc(m->kernel_cycles, m->cap_kernels * sizeof *m->kernel_cycles);
        if (!m->kernel_names || !m->kernel_cycles)
            panic("out of memory");
    }
    m->kernel_names[m->n_kernels] = intern_kernel_name(m, ptx_kernel_info(l->kernel)->name);
    m->kernel_cycles[m->n_kernels++] = cycles;
}

/* Refuse a launch whose CTA does not fit in an SM (or a CPU core, whose
 * limits are fixed), naming where the GPU's limits were configured. */
static void check_fit(const struct machine *m, const struct launch *l, const struct sm *sm)
{
    char why[256], where[640];
    const char *keys = sm_cta_misfit(sm, l, why, sizeof why);
    if (!keys)
        return;
    const char *name = ptx_kernel_info(l->kernel)->name;
    if (l->on_cpu)
        fatal("kernel %s on the CPU cores: %s (a CPU core runs one CTA of at most 32 threads: "
              "docs/cpu.md)",
              name, why);
    fatal("%skernel %s: %s", config_where(&m->cfg, keys, where, sizeof where), name, why);
}

/* Run the machine until `until` (or the launch's end), stopping at every
 * sampling time on the way to call the sampler: eng_run handles every event
 * up to its horizon, so where it pauses does not change what is simulated. */
static void run_sampled(struct machine *m, tick_t until)
{
    while (m->sample_fn && m->next_sample <= until) {
        eng_run(&m->eng, m->next_sample);
        if (kernel_all_done(m))
            return;
        tick_t t = m->next_sample;
        m->sample_fn(m->sample_arg, m, t / m->core_clk.period_ps,
                     m->busy_cycles + (t - m->launch_start) / m->core_clk.period_ps);
        m->next_sample += m->sample_ps;
    }
    eng_run(&m->eng, until);
}

/* Run the launches (at most one on the GPU and one on the CPU cores) at the
 * same time until every one has finished. */
static void run_together(void *obj, const struct launch *ls, unsigned n)
{
    struct machine *m = obj;
    if (!m->runs)
        m->runs = xcalloc(m->n_gpms, sizeof *m->runs);
    m->runs_left = 0;
    m->gpu_running = m->cpu_running = false;
    const struct launch *l = NULL, *gpu = NULL, *cpu = NULL;
    uint64_t max_cycles = 0, max_insts = 0;
    for (unsigned i = 0; i < n; i++) {
        const char *name = ptx_kernel_info(ls[i].kernel)->name;
        if (ls[i].on_cpu) {
            if (!m->n_cpus)
                fatal("kernel %s is launched on the CPU, but the machine has no CPU cores "
                      "(cpu.cores = 0)",
                      name);
            if (cpu)
                fatal("kernels %s and %s are launched together on the CPU (one kernel per "
                      "device at a time)",
                      ptx_kernel_info(cpu->kernel)->name, name);
            cpu = &ls[i];
            check_fit(m, cpu, m->sms[m->n_sms]);
            kernel_run_init(&m->cpu_run, cpu, m->n_cpus);
            m->cpu_run.on_done = kernel_done;
            m->cpu_run.done_obj = m;
            m->cpu_run.req_types = fcs_types(m, cpu->kernel->m); /* FCS types CPU L1s too */
            m->runs_left++;
            m->cpu_running = true;
        } else {
            if (gpu)
                fatal("kernels %s and %s are launched together on the GPU (one kernel per "
                      "device at a time)",
                      ptx_kernel_info(gpu->kernel)->name, name);
            gpu = &ls[i];
            check_fit(m, gpu, m->sms[0]);
            for (unsigned g = 0; g < m->n_gpms; g++) { /* CTAs in contiguous shares */
                struct kernel_run *run = &m->runs[g];
                kernel_run_init(run, gpu, m->sms_per_gpm);
                kernel_run_share(run, g, m->n_gpms);
                run->on_done = kernel_done;
                run->done_obj = m;
                run->req_types = fcs_types(m, gpu->kernel->m);
            }
            m->runs_left += m->n_gpms;
            m->gpu_running = true;
        }
        uint64_t c, k;
        launch_limits(m, &ls[i], &c, &k);
        max_cycles = MAX(max_cycles, c);
        max_insts = k == UINT64_MAX || max_insts == UINT64_MAX ? UINT64_MAX : max_insts + k;
    }
    l = gpu ? gpu : cpu; /* named in messages */
    tick_t start = m->eng.now;
    tick_t limit = max_cycles < (TICK_MAX - start) / m->core_clk.period_ps
                       ? start + max_cycles * m->core_clk.period_ps
                       : TICK_MAX;
    m->spun = false;
    uint64_t insts_start = total_warp_insts(m);
    uint64_t advances = total_advances(m);
    tick_t advanced_at = start;
    /* logical-time protocols: the watchdog counts from when the leases pass
     * (mark_leases); one without lease hooks would be stopped in correct runs */
    uint64_t *marks = m->proto->lease_mark ? xcalloc(m->n_sms, sizeof *marks) : NULL;
    tick_t spin_ps =
        m->proto->logical_time && !marks ? 0 : m->cfg.sim.spin_cycles * m->core_clk.period_ps;
    tick_t quiet_from = start;                      /* the spin watchdog counts from here */
    uint64_t quiet_loads = total_load_responses(m); /* ... and the loads answered then */
    bool leases_pending = marks != NULL;
    if (marks)
        mark_leases(m, marks);
    const char *kname = ptx_kernel_info(l->kernel)->name;
    if (!m->run_wall_start)
        m->run_wall_start = wall_seconds_since(0);
    m->eng.last_progress = m->eng.now;
    if (m->kernel_stats)
        kernel_stats_begin(m->kernel_stats, m);
    if (gpu)
        for (unsigned i = 0; i < m->n_sms; i++)
            sm_start_kernel(m->sms[i], &m->runs[i / m->sms_per_gpm]);
    if (cpu)
        for (unsigned i = 0; i < m->n_cpus; i++)
            sm_start_kernel(m->sms[m->n_sms + i], &m->cpu_run);
    /* between chunks: progress, limits and the starvation check, which looks
     * at least twice within its limit */
    uint64_t chunk_cycles = RUN_CHUNK_CYCLES;
    if (m->cfg.sim.starvation_cycles)
        chunk_cycles = MIN(chunk_cycles, MAX(m->cfg.sim.starvation_cycles / 2, 1));
    if (m->cfg.sim.spin_cycles)
        chunk_cycles = MIN(chunk_cycles, MAX(m->cfg.sim.spin_cycles / 2, 1));
    tick_t chunk = chunk_cycles * m->core_clk.period_ps;
    tick_t horizon = start; /* advances by chunks even where no event falls in one */
    m->launch_start = start;
    if (m->sample_fn) /* the first multiple of the interval after the start */
        m->next_sample = (start / m->sample_ps + 1) * m->sample_ps;
    while (!kernel_all_done(m)) {
        horizon = MIN(limit, horizon + chunk);
        run_sampled(m, horizon);
        if (kernel_all_done(m))
            break;
        if (m->eng.now >= limit || (eng_pending(&m->eng) && eng_next_time(&m->eng) > limit))
            panic("runaway: kernel %s ran past sim.max_cycles (%llu core cycles%s; 0 = no "
                  "limit); the warps:",
                  kname, (unsigned long long)max_cycles,
                  m->cfg.sim.max_cycles == CFG_AUTO ? ", auto: 2^29 per wave" : "");
        uint64_t insts = total_warp_insts(m) - insts_start;
        if (insts > max_insts) /* max_insts is UINT64_MAX when there is no limit */
            panic("runaway: kernel %s issued %llu warp instructions, past sim.max_insts (%llu%s; "
                  "0 = no limit); the warps:",
                  kname, (unsigned long long)insts, (unsigned long long)max_insts,
                  m->cfg.sim.max_insts == CFG_AUTO ? ", auto: 2^24 per warp" : "");
        if (!eng_pending(&m->eng))
            panic("kernel %s stopped making progress: every component is asleep", kname);
        uint64_t now_advances = total_advances(m);
        if (now_advances != advances) {
            advances = now_advances;
            advanced_at = quiet_from = m->eng.now;
            quiet_loads = total_load_responses(m);
            if (marks) {
                mark_leases(m, marks);
                leases_pending = true;
            }
        } else if (leases_pending) {
            if (leases_passed(m, marks)) {
                leases_pending = false;
                quiet_from = m->eng.now;
                quiet_loads = total_load_responses(m);
            }
        } else if (spin_ps && m->eng.now - quiet_from > spin_ps && m->spin_stops && !m->spun &&
                   total_load_responses(m) > quiet_loads &&
                   requests_answered_since(m, m->eng.now - spin_ps / 2)) {
            /* a poll waiting for a value the model may let it never see
             * (a litmus test): its loads are still answered, so the warps
             * are let go (sm_abandon_kernel) and the launch ends as given
             * up; it must then drain like any kernel (a spin on registers,
             * with no loads, is a mistake in the test and stays a fault) */
            m->spun = true;
            for (unsigned i = 0; i < m->n_cores; i++)
                sm_abandon_kernel(m->sms[i]);
            quiet_from = m->eng.last_progress = m->eng.now;
        } else if (m->spun &&
                   m->eng.now - quiet_from > QUIESCE_LIMIT_CYCLES * m->core_clk.period_ps) {
            panic("kernel %s was given up because its warps spun, but did not drain within %u "
                  "core cycles: requests are stuck in the memory system; the warps:",
                  kname, QUIESCE_LIMIT_CYCLES);
        } else if (spin_ps && m->eng.now - quiet_from > spin_ps && !m->spun) {
            char leased[160] = "";
            if (marks)
                snprintf(leased, sizeof leased,
                         ", the last %llu of them after every L1's clock "
                         "had passed the leases it held at the last progress",
                         (unsigned long long)((m->eng.now - quiet_from) / m->core_clk.period_ps));
            panic("no progress: in kernel %s, for %llu core cycles no warp stored, did an "
                  "atomic, loaded a value it had not just loaded, or finished%s "
                  "(sim.spin_cycles = %llu): warps spin on a condition that cannot change%s; "
                  "the warps:",
                  kname, (unsigned long long)((m->eng.now - advanced_at) / m->core_clk.period_ps),
                  leased, (unsigned long long)m->cfg.sim.spin_cycles,
                  m->spin_stops ? ", and a memory request has waited for half of that or more "
                                  "(stuck)"
                                : "");
        }
        check_starvation(m, kname);
        if (m->progress)
            show_progress(m, kname, false);
    }
    if (m->progress)
        show_progress(m, kname, true);
    free(marks);
    tick_t end = m->eng.now;
    /* Let the machine settle (write-backs still queued in DRAM, responses in
     * flight) so that the host's copies, which read the L2 banks and the
     * backing store directly, see every value the kernel wrote. */
    eng_run(&m->eng, end + QUIESCE_LIMIT_CYCLES * m->core_clk.period_ps);
    if (eng_pending(&m->eng))
        panic("the machine did not quiesce within %u core cycles after kernel %s ended",
              QUIESCE_LIMIT_CYCLES, kname);
    /* each kernel's cycles run from the common start to its own end, in
     * GPU core cycles for both devices */
    m->busy_cycles += (end - start) / m->core_clk.period_ps;
    if (gpu)
        note_kernel(m, gpu, ((cpu ? m->gpu_end : end) - start) / m->core_clk.period_ps);
    if (cpu)
        note_kernel(m, cpu, ((gpu ? m->cpu_end : end) - start) / m->core_clk.period_ps);
    if (m->kernel_stats)
        kernel_stats_end(m->kernel_stats, m, m->kernel_names + m->n_kernels - (gpu && cpu ? 2 : 1),
                         gpu && cpu ? 2 : 1, (end - start) / m->core_clk.period_ps);
}

static void run_kernel(void *obj, const struct launch *l)
{
    run_together(obj, l, 1);
}

/* Host copies line by line through the home bank's idle-time access. */
static void host_access(struct machine *m, addr_t a, uint8_t *buf, size_t n, bool write)
{
    uint8_t line[LINE_MAX_BYTES];
    while (n) {
        addr_t base = a & ~(addr_t)(m->line_bytes - 1);
        size_t off = a - base, k = MIN(n, m->line_bytes - off);
        unsigned bank = (unsigned)((base / m->line_bytes) % m->banks_per_gpm);
        if (write) {
            struct bytemask mask = {0};
            bytemask_set_range(&mask, (unsigned)off, (unsigned)k);
            memcpy(line + off, buf, k);
            /* every GPM's bank: each updates the copy it holds (the home also
             * its memory), so no GPM keeps a stale copy across the copy */
            for (unsigned g = 0; g < m->n_gpms; g++)
                m->proto->l2.dma(m->l2s[g * m->banks_per_gpm + bank], base, line, &mask);
        } else {
            unsigned g = m->sys ? pagemap_owner(&m->pages, base) : 0;
            g = g == PAGEMAP_NONE ? 0 : g; /* never touched: memory holds it */
            m->proto->l2.dma(m->l2s[g * m->banks_per_gpm + bank], base, line, NULL);
            memcpy(buf, line + off, k);
        }
        a += k, buf += k, n -= k;
    }
}

static void host_write(void *obj, addr_t dst, const void *src, size_t n)
{
    host_access(obj, dst, (uint8_t *)src, n, true);
}

static void host_read(void *obj, void *dst, addr_t src, size_t n)
{
    host_access(obj, src, dst, n, false);
}

static uint64_t cycles_of(const void *obj)
{
    const struct machine *m = obj;
    return m->eng.now / m->core_clk.period_ps;
}

void machine_set_spin_stops(struct machine *m, bool on)
{
    m->spin_stops = on;
}

static bool spin_stopped(const void *obj)
{
    return ((const struct machine *)obj)->spun;
}

static void set_spin_stops(void *obj, bool on)
{
    machine_set_spin_stops(obj, on);
}

static const struct launcher_ops machine_ops = {
    run_kernel, host_write, host_read, cycles_of, run_together, set_spin_stops, spin_stopped};

struct launcher machine_launcher(struct machine *m)
{
    return (struct launcher){&machine_ops, m, m->n_cpus};
}

/* ---- statistics ---- */

struct prefixed {
    stat_emit_fn *emit;
    void *arg;
    const char *prefix;
};

static void emit_prefixed(void *arg, const char *name, uint64_t v)
{
    struct prefixed *p = arg;
    char buf[160];
    snprintf(buf, sizeof buf, "%s.%s", p->prefix, name);
    p->emit(p->arg, buf, v);
}

static void xbar_emit(const char *prefix, const struct xbar_stats *s, stat_emit_fn *emit, void *arg)
{
    char buf[160];
    for (unsigned c = 0; c < TRAFFIC_N; c++) {
        snprintf(buf, sizeof buf, "%s.bytes.%s", prefix, traffic_class_names[c]);
        emit(arg, buf, s->bytes[c]);
        snprintf(buf, sizeof buf, "%s.flits.%s", prefix, traffic_class_names[c]);
        emit(arg, buf, s->flits[c]);
        snprintf(buf, sizeof buf, "%s.msgs.%s", prefix, traffic_class_names[c]);
        emit(arg, buf, s->msgs[c]);
    }
    snprintf(buf, sizeof buf, "%s.hop_flits", prefix); /* flits x links crossed */
    emit(arg, buf, s->hop_flits);
}

void machine_stats(struct machine *m, stat_emit_fn *emit, void *arg)
{
    char buf[160];
    for (unsigned i = 0; i < m->n_cores; i++) {
        const struct sm_stats *s = sm_stats(m->sms[i]);
        const char *n = m->sms[i] ? sm_comp(m->sms[i])->name : "";
#define E(f)                                                                                       \
    snprintf(buf, sizeof buf, "%s." #f, n);                                                        \
    emit(arg, buf, s->f)
        E(cycles);
        E(thread_insts);
        E(warp_insts);
        E(barriers);
        E(ctas);
        E(port_full);
#undef E
        for (unsigned k = 0; k < SM_STALL_N; k++) {
            snprintf(buf, sizeof buf, "%s.stall.%s", n, sm_stall_names[k]);
            emit(arg, buf, s->stall[k]);
        }
        for (unsigned k = 0; k < SM_HOLD_N; k++) {
            snprintf(buf, sizeof buf, "%s.hold_cycles.%s", n, sm_hold_names[k]);
            emit(arg, buf, s->hold_cycles[k]);
            snprintf(buf, sizeof buf, "%s.holds.%s", n, sm_hold_names[k]);
            emit(arg, buf, s->holds[k]);
        }
        const struct sm_tx_stats *tx = m->sms[i] ? sm_tx_stats(m->sms[i]) : NULL;
        if (tx) {
#define T(f)                                                                                       \
    snprintf(buf, sizeof buf, "%s.tx." #f, n);                                                     \
    emit(arg, buf, tx->f)
            T(begins);
            T(attempts);
            T(lane_commits);
            T(lane_aborts);
            T(vu_aborts);
            T(commit_msgs);
            T(cleanup_msgs);
            T(commit_bytes);
            T(limit_waits);
            T(backoff_cycles);
            T(attempt_cycles);
            T(commit_wait_cycles);
            if (!m->proto->lazy_tm) {
                T(ts_max);
                T(rollover_requests);
                T(rollovers);
            }
            T(fruitless_max);
            T(serial_grants);
            T(serial_attempts);
            T(serial_stalls);
            if (m->proto->lazy_tm) {
                T(validation_msgs);
                T(silent_commits);
                T(tcd_validations);
                T(eager_aborts);
                T(eapg_aborts);
                T(eapg_pauses);
            }
#undef T
            /* the causes the design can give (GETM's four, or WarpTM's six), then intra-warp */
            for (unsigned k = 0; k < SM_TX_ABORT_N; k++)
                if (k == SM_TX_ABORT_intra ||
                    (m->proto->lazy_tm ? k >= SM_TX_ABORT_mismatch : k < SM_TX_ABORT_mismatch)) {
                    snprintf(buf, sizeof buf, "%s.tx.abort.%s", n, sm_tx_abort_names[k]);
                    emit(arg, buf, tx->aborts[k]);
                }
        }
#define E(f)                                                                                       \
    snprintf(buf, sizeof buf, "%s." #f, n);                                                        \
    emit(arg, buf, s->f)
        E(fences_elided);
        E(sb_stores);
        E(sb_forwards);
        E(prefetches);
        E(prefetches_dropped);
        if (m->macs && i < m->n_sms) {
            E(ta_safe_insts);
            E(ta_unsafe_insts);
            E(ta_bypasses);
            E(ta_same_line);
            E(ta_serial_insts);
            E(ta_type_hits);
            E(ta_type_requests);
            E(ta_invalidations);
            E(ta_recalls);
            E(ta_drains);
            E(ta_drain_cycles);
            for (unsigned k = 0; k < SM_TA_N; k++) {
                snprintf(buf, sizeof buf, "%s.ta_wait_cycles.%s", n, sm_ta_wait_names[k]);
                emit(arg, buf, s->ta_wait_cycles[k]);
            }
        }
#undef E
        for (unsigned k = 0; k < MEM_NOPS; k++) {
            snprintf(buf, sizeof buf, "%s.mem_reqs.%s", n, mem_op_names[k]);
            emit(arg, buf, s->mem_reqs[k]);
            snprintf(buf, sizeof buf, "%s.latency.%s", n, mem_op_names[k]);
            hist_emit(&s->latency[k], buf, emit, arg);
        }
        if (m->l1_ops[i]->stats) {
            struct prefixed p = {emit, arg, m->l1s[i]->name};
            m->l1_ops[i]->stats(m->l1s[i], emit_prefixed, &p);
        }
    }
    for (unsigned b = 0; b < m->n_banks; b++) {
        if (m->proto->l2.stats) {
            struct prefixed p = {emit, arg, m->l2s[b]->name};
            m->proto->l2.stats(m->l2s[b], emit_prefixed, &p);
        }
        const struct dram_stats *d = dram_stats(m->drams[b]);
        const char *n = dram_comp(m->drams[b])->name;
#define E(f)                                                                                       \
    snprintf(buf, sizeof buf, "%s." #f, n);                                                        \
    emit(arg, buf, d->f)
        E(reads);
        E(writes);
        E(row_hits);
        E(row_misses);
        E(row_conflicts);
#undef E
    }
    for (unsigned k = 0; k < MEM_NOPS; k++) { /* the GPU's, all SMs together */
        struct hist all = {0};
        for (unsigned i = 0; i < m->n_sms; i++)
            hist_merge(&all, &sm_stats(m->sms[i])->latency[k]);
        snprintf(buf, sizeof buf, "gpu.latency.%s", mem_op_names[k]);
        hist_emit(&all, buf, emit, arg);
    }
    if (m->unit && m->proto->unit.stats) {
        struct prefixed p = {emit, arg, m->unit->name};
        m->proto->unit.stats(m->unit, emit_prefixed, &p);
    }
    for (unsigned g = 0; g < m->n_gpms; g++) {
        xbar_emit(net_comp(m->up[g])->name, net_stats(m->up[g]), emit, arg);
        xbar_emit(net_comp(m->down[g])->name, net_stats(m->down[g]), emit, arg);
    }
    if (m->sys) {
        const struct sysnet_stats *s = sysnet_stats(m->sys);
        for (unsigned c = 0; c < TRAFFIC_N; c++) {
            snprintf(buf, sizeof buf, "sys.gpm_links.bytes.%s", traffic_class_names[c]);
            emit(arg, buf, s->gpm_bytes[c]);
            snprintf(buf, sizeof buf, "sys.gpm_links.msgs.%s", traffic_class_names[c]);
            emit(arg, buf, s->gpm_msgs[c]);
            snprintf(buf, sizeof buf, "sys.gpu_links.bytes.%s", traffic_class_names[c]);
            emit(arg, buf, s->gpu_bytes[c]);
            snprintf(buf, sizeof buf, "sys.gpu_links.msgs.%s", traffic_class_names[c]);
            emit(arg, buf, s->gpu_msgs[c]);
        }
        emit(arg, "sys.pages_placed", m->pages.placed);
    }
    if (m->macs) {
        xbar_emit("gpu.noc.type_up", xbar_stats(m->type_up), emit, arg);
        xbar_emit("gpu.noc.type_down", xbar_stats(m->type_down), emit, arg);
        for (unsigned b = 0; b < m->n_banks; b++) {
            const struct mac_stats *s = mac_stats(m->macs[b]);
            const char *n = mac_comp(m->macs[b])->name;
#define E(f)                                                                                       \
    snprintf(buf, sizeof buf, "%s." #f, n);                                                        \
    emit(arg, buf, s->f)
            E(requests);
            E(invalidations);
            E(evictions);
            E(recalls);
            E(held);
            E(transition_cycles);
#undef E
            for (unsigned k = 0; k < MAC_NSTATES; k++) {
                snprintf(buf, sizeof buf, "%s.allocs.%s", n, mac_state_names[k]);
                emit(arg, buf, s->allocs[k]);
                snprintf(buf, sizeof buf, "%s.to_state.%s", n, mac_state_names[k]);
                emit(arg, buf, s->to_state[k]);
            }
        }
    }
    emit(arg, "engine.events", m->eng.n_events);
    if (m->obs) {
        emit(arg, "check.golden_writes", m->obs->writes);
        emit(arg, "check.lines_checked", m->obs->checks);
    }
}

struct summary_acc {
    struct machine_summary *s;
};

static bool ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}

static void summary_emit(void *arg, const char *name, uint64_t v)
{
    struct machine_summary *s = arg;
    if (strstr(name, ".l1.")) {
        if (ends_with(name, ".load_hits")) {
            s->l1_hits += v;
            s->l1_accesses += v;
        } else if (ends_with(name, ".load_misses") || ends_with(name, ".load_merged")) {
            s->l1_accesses += v;
        } else if (ends_with(name, ".gwct_waits")) {
            s->gwct_waits += v;
        } else if (ends_with(name, ".fence_wait_cycles")) {
            s->gwct_wait_cycles += v;
        }
    } else if (strstr(name, ".l2[")) {
        if (ends_with(name, ".getm.vu_abort.bloom"))
            s->tx_abort_bloom += v;
        else if (ends_with(name, ".accesses"))
            s->l2_accesses += v;
        else if (ends_with(name, ".misses"))
            s->l2_hits -= v;
    }
}

void machine_summary(struct machine *m, struct machine_summary *s)
{
    memset(s, 0, sizeof *s);
    s->cycles = m->busy_cycles; /* kernel time, not the settling after */
    s->kernels = m->n_kernels;
    for (unsigned i = 0; i < m->n_cores; i++) {
        s->thread_insts += sm_stats(m->sms[i])->thread_insts;
        s->warp_insts += sm_stats(m->sms[i])->warp_insts;
        hist_merge(&s->load_latency, &sm_stats(m->sms[i])->latency[MEM_LOAD]);
        const struct sm_tx_stats *tx = m->sms[i] ? sm_tx_stats(m->sms[i]) : NULL;
        if (!tx)
            continue;
        s->tx_commits += tx->lane_commits;
        s->tx_aborts += tx->lane_aborts;
        for (unsigned k = 0; k < SM_TX_ABORT_N; k++)
            s->tx_abort[k] += tx->aborts[k];
    }
    machine_stats(m, summary_emit, s);
    s->l2_hits += s->l2_accesses;
    for (unsigned g = 0; g < m->n_gpms; g++)
        for (unsigned c = 0; c < TRAFFIC_N; c++) {
            const struct xbar_stats *u = net_stats(m->up[g]), *d = net_stats(m->down[g]);
            s->bytes[c] += u->bytes[c] + d->bytes[c];
            s->flits[c] += u->flits[c] + d->flits[c];
            s->msgs[c] += u->msgs[c] + d->msgs[c];
        }
    s->events = m->eng.n_events;
}

unsigned machine_kernel_cycles(struct machine *m, const char ***names, const uint64_t **cycles)
{
    *names = m->kernel_names;
    *cycles = m->kernel_cycles;
    return m->n_kernels;
}

const struct config *machine_config(const struct machine *m)
{
    return &m->cfg;
}

unsigned machine_n_sms(const struct machine *m)
{
    return m->n_sms;
}

unsigned machine_n_cpus(const struct machine *m)
{
    return m->n_cpus;
}

const struct ctrl_ops *machine_l1_ops(const struct machine *m, unsigned core)
{
    return m->l1_ops[core];
}

unsigned machine_n_banks(const struct machine *m)
{
    return m->n_banks;
}

const struct proto_desc *machine_proto(const struct machine *m)
{
    return m->proto;
}

void machine_coverage(struct machine *m, FILE *out)
{
    for (unsigned i = 0; i < m->n_tables; i++)
        coh_cov_print(&m->cov[i], out);
}

struct coh_history *machine_record_history(struct machine *m, uint32_t cap)
{
    free(m->hist.e);
    m->hist.e = xcalloc(cap, sizeof *m->hist.e);
    m->hist.cap = cap;
    m->hist.n = 0;
    for (unsigned i = 0; i < m->n_tables; i++)
        m->cov[i].hist = &m->hist;
    return &m->hist;
}

const struct coh_cov *machine_cov(struct machine *m, unsigned *n)
{
    *n = m->n_tables;
    return m->cov;
}

struct eng *machine_eng(struct machine *m)
{
    return &m->eng;
}

struct pool *machine_msgs(struct machine *m)
{
    return &m->msgs;
}

struct port *machine_l1_port(struct machine *m, unsigned sm)
{
    return m->l1_ops[sm]->in_port(m->l1s[sm]);
}

struct comp *machine_l1(struct machine *m, unsigned sm)
{
    return m->l1s[sm];
}

struct comp *machine_l2(struct machine *m, unsigned bank)
{
    return m->l2s[bank];
}

void machine_detach_sm(struct machine *m, unsigned sm, struct port *rsp, struct comp *receiver)
{
    struct ctrl_links *l = &m->l1_links[sm];
    l->to_core = rsp;
    rsp->sender = m->l1s[sm];
    (void)receiver;
    m->l1_ops[sm]->connect(m->l1s[sm], l);
    machine_l1_port(m, sm)->sender = NULL;
}
