/*
 * partition.c - which partition each component of a built machine belongs
 * to, and the check of condition C2 (one sender per port) on its wiring
 * (docs/parallel.md: the cuts of section 1, step 0 of section 5).
 *
 * Nothing here changes what is simulated. The partitioning is the finest
 * that the exact mode of the design allows: on one GPU, P_core (SMs, CPU
 * cores, their L1s, the down network, the central unit, type_down) and P_mem
 * (the up network, banks, DRAM channels, MACs, type_up); on several GPMs,
 * P_core and P_mem of each GPM, the sysnet's send and receive halves of a
 * GPM in its P_mem (the links' far FIFOs are the ports between GPMs). Machines joined by a
 * zero-latency shortcut (section 3) or by one component that cannot be cut (the mesh, section 1.6)
 * are one partition. It is a function of the configuration only (never of the host). Today the
 * engine only counts ticks per partition (eng.part_ticks, a host figure in the stats' "speed"
 * block). SPDX-License-Identifier: BSD-3-Clause
 */
#include "system/machine_int.h"

/* Why the whole machine is one partition, or NULL when it is cut. */
static const char *one_partition_why(const struct machine *m)
{
    if (m->proto->uncut)
        return m->proto->uncut;
    if (m->tx_epoch)
        return "GETM's rollover board flushes every bank from the SMs";
    if (m->proto->transactional) {
        struct getm_params gp;
        getm_params_of_config(&m->view, m->n_sms, &gp);
        if (gp.eager)
            return "WarpTM-EL's early checks read the banks at the SMs' time";
    }
    if (m->cfg.noc.topology == NOC_MESH)
        return "the mesh is one component (docs/parallel.md 1.6)";
    if (m->macs && m->n_gpms > 1)
        return "sc-typeaware's MAC crossbars join every GPM";
    if (m->unit && m->n_gpms > 1)
        return "the protocol's central unit joins every GPM";
    if (2 * m->n_gpms > ENG_PARTS_MAX)
        return "more GPMs than the engine counts partitions for";
    return NULL;
}

/* The partition of a component of GPM g on the core side (SMs, L1s, down
 * network, unit) or the memory side (up network, banks, DRAM, MACs). */
static uint32_t part_of(const struct machine *m, unsigned g, bool mem)
{
    return m->n_parts == 1 ? 0 : 2 * g + mem;
}

void machine_partition(struct machine *m)
{
    m->part_why = one_partition_why(m);
    m->n_parts = m->part_why ? 1 : 2 * m->n_gpms;
    struct eng *e = &m->eng;
    for (struct comp *c = e->comps; c; c = c->all_next)
        c->part = UINT32_MAX; /* every component must be placed below */
    for (unsigned i = 0; i < m->n_cores; i++) {
        unsigned g = i < m->n_sms ? i / m->sms_per_gpm : 0;
        sm_comp(m->sms[i])->part = m->l1s[i]->part = part_of(m, g, false);
    }
    for (unsigned g = 0; g < m->n_gpms; g++) {
        net_comp(m->down[g])->part = part_of(m, g, false);
        net_comp(m->up[g])->part = part_of(m, g, true);
    }
    for (unsigned b = 0; b < m->n_banks; b++) {
        unsigned g = b / m->banks_per_gpm;
        m->l2s[b]->part = dram_comp(m->drams[b])->part = part_of(m, g, true);
        if (m->macs)
            mac_comp(m->macs[b])->part = part_of(m, g, true);
    }
    if (m->macs) {
        xbar_comp(m->type_down)->part = part_of(m, 0, false);
        xbar_comp(m->type_up)->part = part_of(m, 0, true);
    }
    if (m->unit)
        m->unit->part = part_of(m, 0, false);
    for (unsigned g = 0; m->sys && g < m->n_gpms; g++)
        sysnet_sender(m->sys, g)->part = sysnet_receiver(m->sys, g)->part = part_of(m, g, true);
    for (const struct comp *c = e->comps; c; c = c->all_next)
        panic_if(c->part == UINT32_MAX, "%s: a component the partitioning does not know", c->name);
}

const char *machine_partition_name(const struct machine *m, unsigned p, char *buf, size_t size)
{
    if (m->n_parts == 1)
        snprintf(buf, size, "all");
    else if (m->n_gpms == 1)
        snprintf(buf, size, "%s", p ? "mem" : "core");
    else
        snprintf(buf, size, "gpu%u.gpm%u.%s", p / 2 / m->cfg.topology.gpms,
                 p / 2 % m->cfg.topology.gpms, p % 2 ? "mem" : "core");
    return buf;
}

unsigned machine_n_partitions(const struct machine *m, const char **why)
{
    if (why)
        *why = m->part_why;
    return m->n_parts;
}

uint64_t machine_partition_ticks(const struct machine *m, unsigned p)
{
    return p < m->n_parts ? m->eng.part_ticks[p] : 0;
}

/* Wire p to its sender c (C2) and remember it (machine_split finds the cut
 * ports among them). */
static void wire(struct machine *m, struct port *p, const struct comp *c)
{
    port_wire(p, c);
    if (m->n_wired == m->cap_wired) {
        m->cap_wired = m->cap_wired ? 2 * m->cap_wired : 256;
        m->wired = xrealloc(m->wired, m->cap_wired * sizeof *m->wired);
    }
    m->wired[m->n_wired++] = p;
}

/* C2 on every port the machine wires: each is handed to one sending
 * component, the one its `sender` names where it names one. Ports made and
 * used inside a protocol are not wired here: an L2 bank's `pipe` (the bank
 * into itself) and RCC's ring hops (bank i into bank i + 1, rcc_l2_create)
 * have one sender each. EXEMPT: the ideal reference's invalidation port of
 * each L1 ("ideal_inv", vi_bus.c) has every L2 bank as sender, and ideal-mg's
 * free messages go from a GPM's sysnet send half straight into another GPM's
 * bank FIFO (sysnet.h); protocols `ideal` and `ideal-mg` are one partition
 * (one_partition_why), so those ports are never cut. */
void machine_check_senders(struct machine *m)
{
    unsigned nv = m->proto->n_vnets;
    for (unsigned i = 0; i < m->n_cores; i++) {
        unsigned g = i < m->n_sms ? i / m->sms_per_gpm : 0,
                 local = i < m->n_sms ? i % m->sms_per_gpm : i;
        wire(m, m->l1_ops[i]->in_port(m->l1s[i]), sm_comp(m->sms[i]));
        wire(m, &m->from_l1[i], m->l1s[i]);
        for (unsigned v = 0; v < nv; v++) {
            wire(m, m->l1_links[i].net_out[v], m->l1s[i]);
            if (m->l1_links[i].peer_out[v])
                wire(m, m->l1_links[i].peer_out[v], m->l1s[i]);
            wire(m, net_out(m->down[g], local, v), net_comp(m->down[g]));
        }
        if (m->unit && i < m->n_sms) {
            wire(m, &m->to_unit[i], m->l1s[i]);
            wire(m, &m->from_unit[i], m->unit);
        }
        if (m->macs && i < m->n_sms) {
            wire(m, xbar_in(m->type_up, i, 0), sm_comp(m->sms[i]));
            wire(m, xbar_out(m->type_down, i, 0), xbar_comp(m->type_down));
        }
    }
    for (unsigned b = 0; b < m->n_banks; b++) {
        unsigned g = b / m->banks_per_gpm, local = b % m->banks_per_gpm;
        for (unsigned v = 0; v < nv; v++) {
            wire(m, net_in(m->down[g], local, v), m->l2s[b]);
            wire(m, net_out(m->up[g], local, v), net_comp(m->up[g]));
            if (m->sys) {
                wire(m, sysnet_in(m->sys, b, v), m->l2s[b]);
                wire(m, sysnet_out(m->sys, b, v), sysnet_receiver(m->sys, g));
            }
        }
        wire(m, dram_req_port(m->drams[b]), m->l2s[b]);
        wire(m, m->proto->l2.in_port(m->l2s[b]), dram_comp(m->drams[b]));
        if (m->macs) {
            wire(m, xbar_in(m->type_down, b, 0), mac_comp(m->macs[b]));
            wire(m, xbar_out(m->type_up, b, 0), xbar_comp(m->type_up));
        }
    }
    for (unsigned src = 0; m->sys && src < m->n_gpms; src++)
        for (unsigned dst = 0; dst < m->n_gpms; dst++)
            for (unsigned v = 0; dst != src && v < nv; v++)
                wire(m, sysnet_link(m->sys, src, dst, v), sysnet_sender(m->sys, src));
}

/* The window end: every partition's outbox is announced, in partition order
 * (the order of the wakes does not matter: a wake is a bit per component). */
static bool deliver_outboxes(void *obj)
{
    struct machine *m = obj;
    bool any = false;
    for (unsigned p = 0; p < m->n_parts; p++)
        any |= port_outbox_deliver(&m->parts[p].outbox);
    return any;
}

void machine_split(struct machine *m)
{
    if (m->cfg.sim.partitions != SIM_PARTITIONS_MAX || m->n_parts == 1)
        return;
    m->parts = xcalloc(m->n_parts, sizeof *m->parts);
    m->part_engs = xcalloc(m->n_parts, sizeof *m->part_engs);
    for (unsigned p = 0; p < m->n_parts; p++) {
        eng_init(&m->parts[p].eng);
        log_pop_dump(&m->parts[p].eng); /* the machine's engine dumps every component */
        m->part_engs[p] = &m->parts[p].eng;
    }
    eng_split(&m->eng, m->part_engs, m->n_parts);
    /* The lookahead: the smallest latency of a port between partitions. A
     * port with none is left direct: the merge executor needs no window for
     * it. The sysnet's links are such ports: their flight time is added per
     * message (p2p_send) on ports of latency 0, and ideal-mg's release
     * markers fly none, so their lookahead is for the threaded step to state
     * (docs/parallel.md, step 2). */
    tick_t window = TICK_MAX;
    for (unsigned i = 0; i < m->n_wired; i++) {
        const struct port *p = m->wired[i];
        if (p->wired_sender->part != p->receiver->part && p->latency_ps)
            window = MIN(window, p->latency_ps);
    }
    for (unsigned i = 0; i < m->n_wired; i++) {
        struct port *p = m->wired[i];
        if (p->wired_sender->part == p->receiver->part)
            continue;
        if (p->latency_ps && p->latency_ps >= window) {
            port_cut(p, &m->parts[p->wired_sender->part].outbox);
            m->n_cut++;
        } else
            m->n_cut_direct++;
    }
    m->window_ps = window == TICK_MAX ? 0 : window;
    eng_set_windows(&m->eng, m->window_ps, deliver_outboxes, m);
}

void machine_split_free(struct machine *m)
{
    for (unsigned p = 0; m->parts && p < m->n_parts; p++) {
        port_outbox_free(&m->parts[p].outbox);
        eng_destroy(&m->parts[p].eng);
    }
    free(m->parts);
    free(m->part_engs);
    free(m->wired);
}

void machine_split_info(const struct machine *m, struct machine_split_info *out)
{
    memset(out, 0, sizeof *out);
    out->apart = m->parts != NULL;
    out->cut_ports = m->n_cut;
    out->direct_ports = m->n_cut_direct;
    out->window_ps = m->window_ps;
    for (unsigned p = 0; m->parts && p < m->n_parts; p++)
        out->outbox_sends += m->parts[p].outbox.n_delivered;
}
