/*
 * machine.c - builds the GPU (see machine.h): its components, their wiring
 * and tie order, and what the rest of gpucoh may ask of a built machine.
 * Running kernels is machine_run.c's, statistics machine_stats.c's.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "system/machine.h"
#include "system/machine_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "system/machine.h"

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
    size_t n = 0, cap = 6 + 4 * (size_t)m->n_gpms + 3 * (size_t)m->n_banks + 2 * (size_t)m->n_cores;
    struct comp **order = xcalloc(cap, sizeof *order);
    /* the sysnet: its input ports have a latency of a cycle, its outputs
     * none; every send half before every receive half (sysnet.h) */
    for (unsigned g = 0; m->sys && g < m->n_gpms; g++)
        order[n++] = sysnet_sender(m->sys, g);
    for (unsigned g = 0; m->sys && g < m->n_gpms; g++)
        order[n++] = sysnet_receiver(m->sys, g);
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

/* GETM's timestamp rollover (coh/getm/tx_epoch.h): a bank's validation unit
 * flushes its tables, called from the board when nothing is in flight. */
static void tx_roll_bank(void *obj)
{
    getm_l2_rollover(obj);
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

/* Whether the protocol's L1s message each other under this configuration
 * (proto_desc.l1_peers). */
static bool l1_peers(const struct machine *m)
{
    return m->proto->l1_peers && m->proto->l1_peers(&m->view);
}

/* The sources of a GPM's L2 -> L1 network when its L1s message each other:
 * the banks, then the L1s, each at its mesh node (where the endpoints of a
 * network without a placement sit: source k of n at node k * nodes / n). */
struct down_sources {
    struct comp **senders;
    uint16_t *nodes;
};

static struct down_sources down_sources(const struct machine *m, struct comp **l2s,
                                        struct comp **l1s, unsigned n_l1, const uint16_t *at)
{
    unsigned nb = m->banks_per_gpm, nodes = m->cfg.noc.mesh_cols * m->cfg.noc.mesh_rows;
    struct down_sources d = {xcalloc(nb + n_l1, sizeof *d.senders),
                             xcalloc(nb + n_l1, sizeof *d.nodes)};
    for (unsigned k = 0; k < nb + n_l1; k++) {
        bool bank = k < nb;
        unsigned i = bank ? k : k - nb, n = bank ? nb : n_l1;
        d.senders[k] = bank ? l2s[i] : l1s[i];
        d.nodes[k] = !bank && at ? at[i] : (uint16_t)((uint64_t)i * nodes / n);
    }
    return d;
}

/* The SM -> L2 and L2 -> SM networks of each GPM (the CPU cores' L1s are
 * endpoints after the SMs'), DRAM's seeds and, on several GPMs, the
 * network between the GPMs' banks. */
static void build_networks(struct machine *m, const struct config *cfg)
{
    m->up = xcalloc(m->n_gpms, sizeof *m->up);
    m->down = xcalloc(m->n_gpms, sizeof *m->down);
    /* the CPU cores' L1s (one GPM only) are endpoints after the SMs' */
    uint16_t *at = m->n_cpus ? l1_nodes(m) : NULL;
    bool peers = l1_peers(m);
    for (unsigned g = 0; g < m->n_gpms; g++) {
        struct comp **l1s = m->l1s + g * m->sms_per_gpm, **l2s = m->l2s + g * m->banks_per_gpm;
        unsigned n_l1 = m->sms_per_gpm + m->n_cpus;
        m->up[g] = net_new_placed(&m->eng, gpm_name(m, g, "noc.up", 0), &m->icnt_clk, &cfg->noc,
                                  n_l1, m->banks_per_gpm, m->proto->n_vnets, l1s, l2s, at, NULL);
        if (peers) {
            /* L1s message each other (proto_desc.l1_peers): they are sources of
             * the L2 -> L1 network after the banks, at their own nodes */
            struct down_sources d = down_sources(m, l2s, l1s, n_l1, at);
            m->down[g] = net_new_placed(&m->eng, gpm_name(m, g, "noc.down", 0), &m->icnt_clk,
                                        &cfg->noc, m->banks_per_gpm + n_l1, n_l1, m->proto->n_vnets,
                                        d.senders, l1s, d.nodes, at);
            free(d.senders);
            free(d.nodes);
        } else {
            m->down[g] =
                net_new_placed(&m->eng, gpm_name(m, g, "noc.down", 0), &m->icnt_clk, &cfg->noc,
                               m->banks_per_gpm, n_l1, m->proto->n_vnets, l2s, l1s, NULL, at);
        }
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
}

/* Each core to its L1 and its L1 to the networks; each bank to the networks,
 * the links between GPMs and its DRAM. */
static void connect_cores_and_banks(struct machine *m)
{
    bool peers = l1_peers(m);
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
            if (peers)
                l->peer_out[v] = net_in(m->down[g], m->banks_per_gpm + local, v);
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
    config_view(cfg, &m->view);
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
                            .cfg = &m->view,
                            .n_sms = m->sms_per_gpm,
                            .n_banks = m->banks_per_gpm,
                            .store = &m->store,
                            .obs = m->obs,
                            .pages = m->n_gpms > 1 ? &m->pages : NULL};
    if (m->proto->attach) /* the protocol's per-machine context, before its controllers */
        m->proto_ctx = m->proto->attach(&w);
    w.proto_ctx = m->proto_ctx;
    for (unsigned i = 0; i < m->n_sms; i++) {
        unsigned g = i / m->sms_per_gpm, local = i % m->sms_per_gpm;
        m->sms[i] = sm_new(&m->eng, &m->core_clk, gpm_name(m, g, "sm[%u]", local), &cfg->sm,
                           g / cfg->topology.gpms, local, m->line_bytes, &m->msgs);
        if (m->proto->transactional) {
            struct getm_params gp;
            getm_params_of_config(&m->view, m->n_sms, &gp);
            const struct getm_spec *tm = getm_spec_of(&m->view);
            if (!m->sm_txs)
                m->sm_txs = xcalloc(m->n_cores, sizeof *m->sm_txs);
            struct sm_tx *tx = m->sm_txs[i] =
                sm_tx_new(m->sms[i], &gp, getm_warp_id(&m->view, i, 0), tm->tx_warps,
                          tm->backoff_cycles, cfg->sim.seed ^ (0x5eed0000ull + i));
            sm_tx_cover(tx, m->cov, m->n_tables);
            if (tm->trace_warp && (tm->trace_warp - 1) / cfg->sm.warps == i)
                sm_trace_tx(m->sms[i], (int)((tm->trace_warp - 1) % cfg->sm.warps));
            if (gp.eager)
                sm_tx_set_oracle(tx, tx_value_now, m);
            if (!m->tx_serial)
                m->tx_serial = tx_serial_new(m->n_sms, cfg->sm.warps);
            sm_tx_join_serial(tx, m->tx_serial, i);
            if (gp.eapg) {
                if (!m->tx_board)
                    m->tx_board = tx_board_new(m->n_sms, cfg->sm.warps);
                sm_tx_join_board(tx, m->tx_board, i);
            }
            if (!gp.warptm) {
                if (!m->tx_epoch)
                    m->tx_epoch = tx_epoch_new(m->n_sms, m->n_banks);
                sm_tx_join_epoch(tx, m->tx_epoch, i);
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
        m->l1_ops[k] = m->proto->cpu_l1(&m->view, &table);
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
        m->unit_clk = (struct clock){"unit", clock_period_ps(u->mhz(&m->view))};
        w.clk = &m->unit_clk;
        w.name = "gpu.emu";
        w.index = 0;
        w.cov = m->cov;
        m->unit = u->create(&w);
        m->to_unit = xcalloc(m->n_sms, sizeof *m->to_unit);
        m->from_unit = xcalloc(m->n_sms, sizeof *m->from_unit);
        tick_t hop = MAX(u->link_cycles(&m->view), 1u) * m->core_clk.period_ps;
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
    build_networks(m, cfg);
    connect_cores_and_banks(m);
    if (order_policies[cfg->sm.order.model]->typeaware)
        build_macs(m);
    order_components(m);
    machine_partition(m);
    machine_check_senders(m);
    machine_split(m);
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

void machine_set_inst_observer(struct machine *m, const struct inst_observer *o)
{
    for (unsigned i = 0; i < m->n_cores; i++)
        sm_set_inst_observer(m->sms[i], o, i);
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
        if (m->sm_txs)
            sm_tx_free(m->sm_txs[i]);
    }
    free(m->sm_txs);
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
    if (m->proto->detach) /* after every controller and the unit */
        m->proto->detach(m->proto_ctx);
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
    machine_split_free(m);
    free(m);
}

const struct machine_view *machine_coh_view(const struct machine *m)
{
    return &m->view;
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
    port_wire(rsp, m->l1s[sm]);
    (void)receiver;
    m->l1_ops[sm]->connect(m->l1s[sm], l);
    struct port *req = machine_l1_port(m, sm);
    req->sender = NULL;
    req->wired_sender = NULL; /* no longer the SM's: the driver that stands in sends into it */
}
