/*
 * machine_stats.c - the machine's statistics (see machine.h): every
 * component's counters under its name, and the summary the CLI prints.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "system/machine_int.h"

#include <string.h>

/* ---- statistics ---- */

struct prefixed {
    stat_emit_fn *emit;
    void *arg;
    const char *prefix;
};

/* Core i's transaction statistics, NULL without transactions. */
static const struct sm_tx_stats *tx_stats(const struct machine *m, unsigned i)
{
    return m->sm_txs && m->sm_txs[i] ? sm_tx_stats_of(m->sm_txs[i]) : NULL;
}

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
        const struct sm_tx_stats *tx = tx_stats(m, i);
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
        E(order_holds_on_write);
        E(order_hold_cycles_on_write);
        E(order_held_lanes);
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
            snprintf(buf, sizeof buf, "%s.mem_insts.%s", n, mem_op_names[k]);
            emit(arg, buf, s->mem_insts[k]);
            snprintf(buf, sizeof buf, "%s.mem_lanes.%s", n, mem_op_names[k]);
            emit(arg, buf, s->mem_lanes[k]);
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
        const struct sm_tx_stats *tx = tx_stats(m, i);
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
