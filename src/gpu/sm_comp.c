/*
 * sm_comp.c - the SM as a component: its options and their defaults, the
 * state and stall names, construction, connection to the L1 and the MAC,
 * the transaction hooks it is given, the fault dump, occupancy and the
 * start of a kernel, and its statistics.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "gpu/sm_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const warp_state_names[W_NSTATES] = {
    "free",        "ready",     "timed(alu)",       "parked(mem)",       "barrier",
    "held(order)", "held(lsu)", "exited(draining)", "held(store buffer)"};
const char *const smi_kernel_state_names[] = {"idle", "begin-send", "begin-wait",
                                              "run",  "end-send",   "end-wait"};
const char *const sm_sched_names[] = {"lrr", "gto", NULL};
const char *const sm_stall_names[SM_STALL_N] = {"scoreboard", "order", "lsu_full",
                                                "barrier",    "idle",  "sb_full"};
const char *const sm_hold_names[SM_HOLD_N] = {"order", "cta", "sb_forward", "sb_full", "tq_full"};
const char *const sm_ta_wait_names[SM_TA_N] = {"type_wait", "unsafe_full", "sync_conflict"};

/* Defaults: the Fermi core of spec 002 §4 (48 warps, 1536 threads, 8 CTAs,
 * 32 K registers, 48 KB shared memory, 2 schedulers). Latencies are
 * Fermi-like pipeline depths in the range of GPGPU-Sim's GTX480 model:
 * 4-cycle integer and fp32 add/fma, 5 for integer multiply-add, 8 for fp64,
 * 39 for SFU and division, 30 for shared memory, 4 for branches and for
 * global address generation before the memory stage. */
const struct cfg_opt sm_opts[] = {
    CFG_U32("warps", struct sm_spec, warps, "48", 1, SM_MAX_WARPS, "", "warp slots per SM"),
    CFG_U32("warp_size", struct sm_spec, warp_size, "32", 32, 64, "lanes",
            "threads issued as one instruction: 32 (warps), or 64 (GCN wavefronts: two "
            "32-thread PTX warps in lockstep; warps then counts wavefront slots, at most 32)"),
    CFG_U32("threads", struct sm_spec, threads, "1536", 32, 2048, "", "resident threads per SM"),
    CFG_U32("ctas", struct sm_spec, ctas, "8", 1, 32, "", "resident CTAs per SM"),
    CFG_U32("regs", struct sm_spec, regs, "32768", 1, 1u << 20, "", "32-bit registers per SM"),
    CFG_U32("max_regs_per_thread", struct sm_spec, max_regs_per_thread, "63", 1, 255, "",
            "registers a thread is given at most (Fermi ISA: 63; beyond it the compiler spills)"),
    CFG_U32("shmem_bytes", struct sm_spec, shmem_bytes, "49152", 0, 1u << 20, "bytes",
            "shared memory per SM"),
    CFG_U32("schedulers", struct sm_spec, schedulers, "2", 1, SM_MAX_SCHED, "",
            "warp schedulers; warp slot s belongs to scheduler s % schedulers"),
    CFG_ENUM("sched", struct sm_spec, sched, "gto", sm_sched_names,
             "warp scheduling: lrr (loose round-robin) or gto (greedy-then-oldest)"),
    CFG_U32("lsu_queue", struct sm_spec, lsu_queue, "8", 1, 1024, "",
            "warp memory instructions waiting in the in-order memory stage"),
    CFG_U32("max_inflight", struct sm_spec, max_inflight, "256", 2, SM_MAX_INFLIGHT - 1, "",
            "warp memory instructions issued and not completed, per SM (a "
            "64-lane wavefront issues as two halves, and the second half takes a spare slot "
            "kept for it, so there up to max_inflight + 1)"),
    CFG_U32("lat_int", struct sm_spec, lat[PTX_LAT_INT], "4", 1, 1000, "cycles",
            "integer add/logic/compare/move"),
    CFG_U32("lat_imul", struct sm_spec, lat[PTX_LAT_IMUL], "5", 1, 1000, "cycles",
            "integer multiply, multiply-add"),
    CFG_U32("lat_fp32", struct sm_spec, lat[PTX_LAT_FP32], "4", 1, 1000, "cycles",
            "single-precision add/mul/fma"),
    CFG_U32("lat_fp64", struct sm_spec, lat[PTX_LAT_FP64], "8", 1, 1000, "cycles",
            "double precision"),
    CFG_U32("lat_sfu", struct sm_spec, lat[PTX_LAT_SFU], "39", 1, 1000, "cycles",
            "special functions, integer division"),
    CFG_U32("lat_shmem", struct sm_spec, lat[PTX_LAT_SHMEM], "30", 1, 1000, "cycles",
            "shared, local, param and const memory"),
    CFG_U32("lat_branch", struct sm_spec, lat[PTX_LAT_BRANCH], "4", 1, 1000, "cycles",
            "control flow, barriers, votes, shuffles"),
    CFG_U32("lat_gmem", struct sm_spec, lat[PTX_LAT_GMEM], "4", 1, 1000, "cycles",
            "global memory: issue to the first line leaving the memory stage"),
    CFG_ENUM("alu_latency", struct sm_spec, alu_latency, "classes", sm_alu_latency_names,
             "an ALU instruction's result latency: classes (lat_int, lat_imul, lat_fp32, "
             "lat_fp64, lat_sfu by its class) or opcodes (by opcode and type as GPGPU-Sim times "
             "them: opcode_latency_*, 1 cycle for every opcode those do not list, shfl included)"),
    CFG_STR("opcode_latency_int", struct sm_spec, opcode_latency_int, "4,13,4,5,145,32",
            "alu_latency = opcodes: cycles of add/sub, min/max, mul, mad/fma, div/rem, shfl on "
            "integer and half-precision types (GPGPU-Sim's -ptx_opcode_latency_int; the default "
            "is its SM2_GTX480 configuration's)"),
    CFG_STR("opcode_latency_fp", struct sm_spec, opcode_latency_fp, "4,13,4,5,39",
            "alu_latency = opcodes: add/sub, min/max, mul, mad/fma, div/rem on f32 "
            "(-ptx_opcode_latency_fp, SM2_GTX480)"),
    CFG_STR("opcode_latency_dp", struct sm_spec, opcode_latency_dp, "8,19,8,8,330",
            "alu_latency = opcodes: the same five on f64 (-ptx_opcode_latency_dp, SM2_GTX480)"),
    CFG_U32("opcode_latency_sfu", struct sm_spec, opcode_latency_sfu, "8", 1, 100000, "cycles",
            "alu_latency = opcodes: sqrt rcp rsqrt ex2 lg2 sin cos (-ptx_opcode_latency_sfu)"),
    CFG_U32("lat_pipeline", struct sm_spec, lat_pipeline, "0", 0, 1000, "cycles",
            "added to every ALU result: the pipeline around the unit (operand collection, "
            "dispatch, writeback), which lat_* and opcode_latency_* leave out; GPGPU-Sim's "
            "Fermi model takes 6 (validation/pipeline)"),
    CFG_BOOL("sleep", struct sm_spec, sleep, "true",
             "sleep through cycles in which nothing can issue or move (false: tick every cycle "
             "while a kernel runs; results are identical, only slower)"),
    CFG_END,
};

const char *const sm_alu_latency_names[] = {"classes", "opcodes", NULL};

/* One opcode_latency_* list: exactly n cycle counts, comma-separated, into
 * lat[0..n). */
static int parse_latency_list(const char *text, unsigned n, uint32_t *lat, char *why, size_t len)
{
    const char *p = text;
    for (unsigned k = 0; k < n; k++) {
        char *end;
        unsigned long v = strtoul(p, &end, 10);
        if (end == p || v < 1 || v > 100000 || (*end != ',' && *end) || (*end && k + 1 == n) ||
            (!*end && k + 1 < n)) {
            snprintf(why, len, "'%s' is not %u cycle counts from 1 to 100000, separated by commas",
                     text, n);
            return -1;
        }
        lat[k] = (uint32_t)v;
        p = end + 1;
    }
    return 0;
}

int sm_opcode_latencies(const struct sm_spec *s, uint32_t lat[PTX_OPLAT_N], const char **key,
                        char *why, size_t len)
{
    static const struct {
        const char *key;
        size_t off;
        unsigned first, n;
    } lists[] = {
        {"sm.opcode_latency_int", offsetof(struct sm_spec, opcode_latency_int), PTX_OPLAT_INT_ADD,
         6},
        {"sm.opcode_latency_fp", offsetof(struct sm_spec, opcode_latency_fp), PTX_OPLAT_FP_ADD, 5},
        {"sm.opcode_latency_dp", offsetof(struct sm_spec, opcode_latency_dp), PTX_OPLAT_DP_ADD, 5},
    };
    for (size_t k = 0; k < ARRAY_LEN(lists); k++)
        if (parse_latency_list((const char *)s + lists[k].off, lists[k].n, lat + lists[k].first,
                               why, len)) {
            *key = lists[k].key;
            return -1;
        }
    lat[PTX_OPLAT_SFU] = s->opcode_latency_sfu;
    lat[PTX_OPLAT_ONE] = 1;
    return 0;
}

static void dump_minst(const struct sm *sm, const struct sm_minst *mi, FILE *out)
{
    unsigned idx = (unsigned)(mi - sm->minst);
    fprintf(out, "      %s %s.%s: %u lines, %u sent, pending 0x%08x", mem_op_names[mi->mem.op],
            mem_sem_names[mi->mem.sem], mem_scope_names[mi->mem.scope], mi->n_lines, mi->next_line,
            mi->pending);
    if (mi->next_line)
        fprintf(
            out, ", first sent %llu core cycles ago",
            (unsigned long long)((sm->comp.eng->now - mi->first_sent) / sm->comp.clk->period_ps));
    fputc('\n', out);
    for (unsigned i = 0; i < mi->next_line; i++)
        if (mi->pending & (1u << i))
            fprintf(out, "        id 0x%08x line 0x%llx lanes 0x%08x\n", req_id(mi->gen, idx, i),
                    (unsigned long long)mi->line[i].line, mi->line[i].lanes);
}

static void sm_dump(struct comp *c, FILE *out)
{
    struct sm *sm = container_of(c, struct sm, comp);
    fprintf(out,
            "  %s: kernel %s state %s, %u CTAs resident, memory stage %u/%u queued, "
            "%u warps waiting for it, %u instructions in flight\n",
            c->name, smi_kernel_name(sm), smi_kernel_state_names[sm->kstate], sm->n_ctas_res,
            sm->lsu_n, sm->spec.lsu_queue, sm->lsu_wait_n, sm->n_minst - sm->n_minst_free);
    for (unsigned slot = 0; slot < sm->spec.warps; slot++) {
        const struct sm_warp *w = &sm->warps[slot];
        if (w->state == W_FREE)
            continue;
        char where[128];
        fprintf(out,
                "    warp %u (CTA %u warp %u): %s at %s, outstanding ld %u st %u atom %u "
                "fence %u, store buffer %u",
                slot, w->cta->index, w->warp_in_cta, warp_state_names[w->state],
                ptx_warp_where(w->pw, where, sizeof where), w->ord.n[ORDER_LD], w->ord.n[ORDER_ST],
                w->ord.n[ORDER_ATOM], w->ord.n[ORDER_FENCE], w->ord.n[ORDER_SB]);
        if (w->last_load) /* what a spinning warp waits on */
            fprintf(out, "; last load 0x%llx = %llu", (unsigned long long)w->last_addr,
                    (unsigned long long)w->last_value);
        fputc('\n', out);
        if (w->state == W_HELD_ORDER || w->state == W_HELD_SB)
            fprintf(out, "      held for the memory model (%s) since cycle %llu\n",
                    sm_hold_names[w->hold], (unsigned long long)w->held_since);
        for (unsigned i = 0; i < sm->n_minst; i++)
            if (sm->minst[i].in_use && sm->minst[i].warp == slot)
                dump_minst(sm, &sm->minst[i], out);
    }
    if (sm->ta) {
        const struct sm_ta *t = sm->ta;
        fprintf(out, "    type-aware: %u drains pending, %u messages to the MACs waiting\n",
                t->n_drains, t->outbox.n);
        for (unsigned slot = 0; slot < sm->spec.warps; slot++)
            if (t->w[slot].tq_n || t->w[slot].uq_n || t->w[slot].pend_unsafe) {
                fprintf(out,
                        "    warp %u: %u waiting for their type, %u in the unsafe queue, %u "
                        "unsafe pending",
                        slot, t->w[slot].tq_n, t->w[slot].uq_n, t->w[slot].pend_unsafe);
                if (t->w[slot].serial != SM_NONE) {
                    const struct sm_minst *mi = &sm->minst[t->w[slot].serial];
                    fprintf(out, " (sent line by line: %u of %u lines sent, known 0x%08x)",
                            mi->send_end, mi->n_lines, mi->ta_known);
                    for (unsigned i = mi->send_end; i < mi->n_lines; i++)
                        fprintf(out, " [line %u: sector %#llx%s]", i,
                                (unsigned long long)ta_sector(t, mi->line[i].line),
                                mi->ta_asked >> i & 1 ? ", asked" : "");
                }
                fputc('\n', out);
            }
        for (int i = 0; i < TA_PENDING; i++)
            if (t->pending[i].valid)
                fprintf(out, "    type of sector %#llx asked%s\n",
                        (unsigned long long)t->pending[i].sector,
                        t->pending[i].write ? " for writing" : "");
        for (unsigned i = 0; i < t->n_drains; i++)
            fprintf(out, "    draining sector %#llx for MAC %u since cycle %llu\n",
                    (unsigned long long)t->drains[i].sector, t->drains[i].mac,
                    (unsigned long long)t->drains[i].since);
    }
    if (sm->kstate == K_BEGIN_WAIT || sm->kstate == K_END_WAIT)
        fprintf(out, "    %s outstanding, id 0x%08x\n",
                sm->kstate == K_BEGIN_WAIT ? "KERNEL_BEGIN" : "KERNEL_END",
                req_id(sm->kgen, ID_KERNEL_SLOT, 0));
}

struct sm *sm_new(struct eng *e, const struct clock *clk, const char *name,
                  const struct sm_spec *spec, uint32_t gpu, uint32_t id, unsigned line_bytes,
                  struct pool *msgs)
{
    if (!is_pow2(line_bytes) || line_bytes < 16 || line_bytes > LINE_MAX_BYTES)
        panic("%s: line size %u is not a power of two in [16, %u]", name, line_bytes,
              LINE_MAX_BYTES);
    if (spec->warps < 1 || spec->warps > SM_MAX_WARPS || spec->schedulers < 1 ||
        spec->schedulers > SM_MAX_SCHED || spec->sched >= SM_SCHED_N || spec->lsu_queue < 1 ||
        spec->max_inflight < 2 || spec->max_inflight > SM_MAX_INFLIGHT - 1 || spec->ctas < 1 ||
        !order_policies[0])
        panic("%s: SM spec out of bounds", name);
    unsigned n_ord = 0;
    while (order_policies[n_ord])
        n_ord++;
    if (spec->order.model >= n_ord)
        panic("%s: ordering policy %u out of range", name, spec->order.model);

    struct sm *sm = calloc(1, sizeof *sm);
    if (!sm)
        panic("out of memory");
    sm->spec = *spec;
    sm->tx_trace_slot = -1;
    if (spec->warp_size != 32 && spec->warp_size != 64)
        panic("%s: warp size %u is neither 32 nor 64", name, spec->warp_size);
    sm->gang = spec->warp_size / 32;
    if (spec->warps * sm->gang > SM_MAX_WARPS)
        panic("%s: %u wavefront slots exceed %u", name, spec->warps, SM_MAX_WARPS / sm->gang);
    sm->spec.warps = spec->warps * sm->gang; /* from here on: slots of 32-thread halves */
    spec = &sm->spec;
    sm->ord = order_policies[spec->order.model];
    sm->cta_ordered = sm->ord->cta_ordered && spec->order.shared == ORDER_SHARED_ORDERED;
    if (sm->ord->store_buffer && spec->order.store_buffer) {
        sm->sb = calloc((size_t)spec->warps * spec->order.store_buffer, sizeof *sm->sb);
        if (!sm->sb)
            panic("out of memory");
    }
    if (sm->ord->typeaware) {
        const struct order_spec *o = &spec->order;
        if (!is_pow2(o->sector_bytes) || o->sector_bytes < line_bytes || !o->type_cache_ways ||
            o->type_cache_entries % o->type_cache_ways)
            panic("%s: type-aware SC sizes out of bounds", name);
        struct sm_ta *t = calloc(1, sizeof *t);
        if (!t)
            panic("out of memory");
        t->spec = *o;
        t->sector_shift = (unsigned)__builtin_ctz(o->sector_bytes);
        t->tc_sets = o->type_cache_entries / o->type_cache_ways;
        t->tc = calloc(o->type_cache_entries, sizeof *t->tc);
        t->tq = calloc((size_t)spec->warps * o->tq_entries, sizeof *t->tq);
        t->uq = calloc((size_t)spec->warps * o->uq_entries, sizeof *t->uq);
        t->sync = calloc(o->sync_entries, sizeof *t->sync);
        if (!t->tc || !t->tq || !t->uq || !t->sync)
            panic("out of memory");
        for (unsigned i = 0; i < SM_MAX_WARPS; i++) {
            t->w[i].why = SM_TA_N;
            t->w[i].serial = SM_NONE;
        }
        sm->ta = t;
    }
    sm->gpu = gpu;
    sm->id = id;
    sm->line_bytes = line_bytes;
    sm->msgs = msgs;
    pool_init(&sm->atoms, sizeof(struct atom_ops), 64);
    sm->env.smid = id;
    /* the interpreter's latency tables, the pipeline around an ALU unit
     * included, so that an instruction's latency is one lookup */
    for (unsigned c = 0; c < PTX_LAT_N; c++)
        sm->lat[c] = spec->lat[c] + (c <= PTX_LAT_SFU ? spec->lat_pipeline : 0);
    sm->env.lat = sm->lat;
    if (spec->alu_latency == SM_ALU_OPCODES) {
        const char *key;
        char why[256];
        if (sm_opcode_latencies(spec, sm->op_lat, &key, why, sizeof why))
            panic("%s: %s: %s", name, key, why); /* config_load checked them */
        for (unsigned k = 0; k < PTX_OPLAT_N; k++)
            sm->op_lat[k] += spec->lat_pipeline;
        sm->env.op_lat = sm->op_lat;
    }
    sm->ctas = calloc(spec->ctas, sizeof *sm->ctas);
    sm->minst_spare = sm->gang - 1;
    sm->n_minst = spec->max_inflight + sm->minst_spare;
    sm->minst = calloc(sm->n_minst, sizeof *sm->minst);
    sm->minst_free = calloc(sm->n_minst, sizeof *sm->minst_free);
    sm->lsu = calloc(spec->lsu_queue, sizeof *sm->lsu);
    if (!sm->ctas || !sm->minst || !sm->minst_free || !sm->lsu)
        panic("out of memory");
    for (unsigned i = 0; i < sm->n_minst; i++)
        sm->minst_free[i] = (uint16_t)(sm->n_minst - 1 - i); /* slot 0 first */
    sm->n_minst_free = sm->n_minst;
    sm->free_slots = spec->warps == 64 ? ~0ull : (1ull << spec->warps) - 1;
    for (unsigned slot = 0; slot < spec->warps; slot++) {
        unsigned s = slot / sm->gang % spec->schedulers;
        sm->sched_mask[s] |= 1ull << slot;
        sm->n_state[s][W_FREE]++;
        sm->state_bits[s] |= 1u << W_FREE;
        sm->warps[slot].sched = (uint8_t)s;
        sm->warps[slot].held = SM_NONE;
    }
    for (unsigned s = 0; s < SM_MAX_SCHED; s++)
        sm->last[s] = SM_NONE;
    for (unsigned b = 0; b < (1u << W_NSTATES); b++)
        sm->stall_of[b] = (uint8_t)smi_stall_of_states(b);
    sm->last_tick_ps = TICK_MAX;
    comp_init(&sm->comp, e, name, clk, smi_tick, sm_dump);
    return sm;
}

void sm_free(struct sm *sm)
{
    if (!sm)
        return;
    for (unsigned slot = 0; slot < SM_MAX_WARPS; slot++)
        if (sm->warps[slot].pw)
            ptx_warp_free(sm->warps[slot].pw);
    for (unsigned i = 0; i < sm->spec.ctas; i++)
        if (sm->ctas[i].pc)
            ptx_cta_free(sm->ctas[i].pc);
    pool_destroy(&sm->atoms);
    free(sm->ctas);
    free(sm->minst);
    free(sm->minst_free);
    free(sm->lsu);
    free(sm->sb);
    if (sm->ta) {
        struct msg *m;
        while ((m = msg_list_pop(&sm->ta->outbox)))
            msg_free(sm->msgs, m);
        free(sm->ta->tc);
        free(sm->ta->tq);
        free(sm->ta->uq);
        free(sm->ta->sync);
        free(sm->ta->drains);
        free(sm->ta);
    }
    free(sm);
}

struct comp *sm_comp(struct sm *sm)
{
    return &sm->comp;
}

void sm_connect(struct sm *sm, struct port *to_l1, struct port *from_l1)
{
    sm->to_l1 = to_l1;
    sm->from_l1 = from_l1;
}

void sm_connect_mac(struct sm *sm, struct port *to_mac, struct port *from_mac, unsigned n_macs)
{
    if (!sm->ta)
        panic("%s: MAC ports for an SM that is not type-aware", sm->comp.name);
    sm->ta->to_mac = to_mac;
    sm->ta->from_mac = from_mac;
    sm->ta->n_macs = n_macs;
}

void sm_set_ext(struct sm *sm, const struct sm_ext_ops *ops, void *ctx)
{
    sm->tx = ops;
    sm->tx_ctx = ctx;
}

void sm_ext_wiring(const struct sm *sm, struct sm_ext_wiring *w)
{
    *w = (struct sm_ext_wiring){
        .eng = sm->comp.eng,
        .msgs = sm->msgs,
        .hdr = {.gpu = (uint8_t)sm->gpu, .sm = (uint16_t)sm->id, .id = req_id(0, ID_TX_SLOT, 0)},
        .warps = sm->spec.warps,
        .line_bytes = sm->line_bytes};
}

void sm_trace_tx(struct sm *sm, int slot)
{
    sm->tx_trace_slot = slot;
}

void sm_abandon_kernel(struct sm *sm)
{
    if (sm->kstate == K_IDLE || sm->abandoning)
        return;
    sm->abandoning = true;
    for (unsigned i = 0; i < sm->spec.ctas; i++) {
        struct sm_cta *c = &sm->ctas[i];
        for (uint32_t m = c->pc ? c->bar_active : 0; m; m &= m - 1)
            smi_barrier_release(sm, c, (unsigned)__builtin_ctz(m));
    }
    comp_wake(&sm->comp);
}

bool sm_idle(const struct sm *sm)
{
    return sm->kstate == K_IDLE;
}

uint64_t sm_advances(const struct sm *sm)
{
    return sm->advances;
}

uint64_t sm_warp_insts(const struct sm *sm)
{
    return sm->st.warp_insts;
}

tick_t sm_oldest_request(const struct sm *sm, unsigned *warp)
{
    tick_t oldest = TICK_MAX;
    for (unsigned i = 0; i < sm->n_minst; i++) {
        const struct sm_minst *mi = &sm->minst[i];
        if (mi->in_use && mi->next_line && mi->pending && mi->first_sent < oldest) {
            oldest = mi->first_sent;
            *warp = mi->warp;
        }
    }
    return oldest;
}

/* What one CTA of launch `l` needs of an SM with `gang` PTX warps per slot. */
struct cta_needs {
    uint64_t threads, regs, shmem;
    uint32_t warps, regs_per_thread;
};

static struct cta_needs cta_needs(const struct sm_spec *sp, unsigned gang, const struct launch *l)
{
    const struct ptx_kernel_info *ki = ptx_kernel_info(l->kernel);
    struct cta_needs n;
    n.threads = (uint64_t)l->block.x * l->block.y * l->block.z;
    /* warps in slots: whole wavefronts (gang PTX warps each) */
    n.warps = (uint32_t)(((n.threads + 31) / 32 + gang - 1) / gang * gang);
    /* PTX declares virtual registers (one per SSA value nvcc emitted); the
     * real allocator reuses them and never gives a thread more than the ISA
     * allows, spilling the rest. So a thread gets min(PTX registers, limit). */
    n.regs_per_thread = MIN(ki->regs_per_thread, sp->max_regs_per_thread);
    n.regs = (uint64_t)n.regs_per_thread * 32 * n.warps;
    n.shmem = (uint64_t)ki->static_shmem_bytes + l->dyn_shmem_bytes;
    return n;
}

const char *sm_cta_misfit(const struct sm *sm, const struct launch *l, char *why, size_t len)
{
    const struct sm_spec *sp = &sm->spec;
    if ((uint64_t)l->block.x * l->block.y * l->block.z > 32 * SM_CTA_WARPS) {
        snprintf(why, len, "a block of %llu threads exceeds %u (CUDA's limit, not a setting)",
                 (unsigned long long)l->block.x * l->block.y * l->block.z, 32 * SM_CTA_WARPS);
        return "";
    }
    struct cta_needs n = cta_needs(sp, sm->gang, l);
    if (n.threads > sp->threads || n.warps > sp->warps) {
        snprintf(why, len,
                 "a CTA of %llu threads (%u warps) does not fit in an SM of %u "
                 "threads (sm.threads), %u warps (sm.warps)",
                 (unsigned long long)n.threads, n.warps, sp->threads, sp->warps);
        return n.threads > sp->threads ? "sm.threads sm.warps" : "sm.warps sm.threads";
    }
    if (n.regs > sp->regs) {
        snprintf(why, len,
                 "a CTA needs %llu registers (%u per thread, allocated per warp), the "
                 "SM has %u (sm.regs)",
                 (unsigned long long)n.regs, n.regs_per_thread, sp->regs);
        return "sm.regs sm.max_regs_per_thread";
    }
    if (n.shmem > sp->shmem_bytes) {
        snprintf(why, len,
                 "a CTA needs %llu bytes of shared memory, the SM has %u "
                 "(sm.shmem_bytes)",
                 (unsigned long long)n.shmem, sp->shmem_bytes);
        return "sm.shmem_bytes";
    }
    return NULL;
}

/* Resident CTAs of `run` per SM (the machine refused a launch whose CTA does
 * not fit: sm_cta_misfit). Also fixes the needs of one CTA. */
static uint32_t occupancy(struct sm *sm, const struct launch *l)
{
    char why[256];
    if (sm_cta_misfit(sm, l, why, sizeof why))
        panic("%s: kernel %s started on an SM it does not fit: %s", sm->comp.name,
              ptx_kernel_info(l->kernel)->name, why);
    const struct sm_spec *sp = &sm->spec;
    struct cta_needs n = cta_needs(sp, sm->gang, l);
    uint64_t threads = n.threads, regs = n.regs, shmem = n.shmem;
    uint32_t warps = n.warps;
    sm->cta_threads = (uint32_t)threads;
    sm->cta_warps = warps;
    sm->cta_regs = (uint32_t)regs;
    sm->cta_shmem = (uint32_t)shmem;
    uint32_t cap = sp->ctas;
    cap = MIN(cap, sp->threads / (uint32_t)threads);
    cap = MIN(cap, sp->warps / warps);
    if (regs)
        cap = MIN(cap, (uint32_t)(sp->regs / regs));
    if (shmem)
        cap = MIN(cap, (uint32_t)(sp->shmem_bytes / shmem));
    return cap;
}

void sm_start_kernel(struct sm *sm, struct kernel_run *run)
{
    if (sm->kstate != K_IDLE)
        panic("%s: kernel started while another runs", sm->comp.name);
    if (!sm->to_l1 || !sm->from_l1)
        panic("%s: kernel started before sm_connect", sm->comp.name);
    if (sm->id >= run->n_sms || run->n_sms_started >= run->n_sms)
        panic("%s: SM %u joins a kernel run of %u SMs (%u started)", sm->comp.name, sm->id,
              run->n_sms, run->n_sms_started);
    uint32_t cap = occupancy(sm, &run->launch);
    if (!run->per_sm_ctas) {
        run->per_sm_ctas = cap;
        uint64_t fill = (uint64_t)run->n_sms * cap;
        run->fill_ctas = (uint32_t)MIN(fill, (uint64_t)run->n_ctas);
        run->next_cta = run->fill_ctas;
    } else if (run->per_sm_ctas != cap) {
        panic("%s: SMs of one GPU differ in occupancy (%u vs %u CTAs)", sm->comp.name, cap,
              run->per_sm_ctas);
    }
    run->n_sms_started++;
    run->n_sms_busy++;
    sm->run = run;
    sm->kstate = K_BEGIN_SEND;
    sm->fill_next = sm->id;
    sm->env.nsmid = run->n_sms;
    sm->env.printf_log = run->launch.printf_log;
    sm->st.kernels++;
    sm->st.kernel_ctas = 0;
    if (sm->observer.kernel_start)
        sm->observer.kernel_start(sm->observer.ctx, run->launch.kernel);
    sm->has_last = false;
    sm->abandoning = false;
    comp_wake(&sm->comp);
}

const struct sm_stats *sm_stats(const struct sm *sm)
{
    return &sm->st;
}

void sm_set_inst_observer(struct sm *sm, const struct inst_observer *o, unsigned index)
{
    sm->observer = o && o->done ? *o : (struct inst_observer){0};
    sm->observed_index = index;
}

unsigned sm_warp_slots(const struct sm *sm)
{
    return sm->spec.warps;
}

void sm_set_issue_hook(struct sm *sm, sm_issue_fn *fn, void *obj)
{
    sm->hook = fn;
    sm->hook_obj = obj;
}

struct stat_row {
    const char *name;
    size_t off;
    unsigned n;               /* 1, or the length of an array */
    const char *const *names; /* element names of an array */
    const char *desc;
};

#define ROW(f, d)                                                                                  \
    {                                                                                              \
#f, offsetof(struct sm_stats, f), 1, NULL, d                                               \
    }
#define ARR(f, n, names, d)                                                                        \
    {                                                                                              \
#f, offsetof(struct sm_stats, f), n, names, d                                              \
    }

static const struct stat_row stat_rows[] = {
    ROW(cycles, "cycles with a kernel on the SM"),
    ROW(ticks, "cycles the SM ticked (the rest it slept)"),
    ROW(thread_insts, "thread instructions"),
    ROW(warp_insts, "warp instructions issued"),
    ARR(stall, SM_STALL_N, sm_stall_names, "scheduler-cycles without issue, by reason"),
    ARR(mem_insts, MEM_NOPS, mem_op_names, "warp memory instructions"),
    ARR(mem_lanes, MEM_NOPS, mem_op_names, "their active lanes to global memory"),
    ARR(mem_reqs, MEM_NOPS, mem_op_names, "requests sent to the L1"),
    ROW(port_full, "cycles a request found the L1 port full"),
    ROW(barriers, "barrier releases"),
    ROW(ctas, "CTAs run"),
    ROW(kernel_ctas, "CTAs run in the last kernel"),
    ROW(kernels, "kernels started"),
    ROW(max_ctas_resident, "most CTAs resident at once"),
    ROW(max_warps_resident, "most warps resident at once"),
    ARR(hold_cycles, SM_HOLD_N, sm_hold_names, "warp-cycles held for the memory model, by reason"),
    ARR(holds, SM_HOLD_N, sm_hold_names, "holds for the memory model, by reason"),
    ROW(order_holds_on_write, "order holds begun with a store or atomic of the warp outstanding"),
    ROW(order_hold_cycles_on_write, "warp-cycles of those holds"),
    ROW(order_held_lanes, "active lanes of the global accesses held by the order rule"),
    ROW(fences_elided, "fences not sent: the memory model already orders"),
    ROW(sb_stores, "stores that waited in the TSO store buffer"),
    ROW(sb_forwards, "loads served from the warp's buffered stores"),
    ROW(prefetches, "prefetches sent for accesses held for ordering"),
    ROW(prefetches_dropped, "prefetches not sent: the queue was full"),
    ARR(ta_wait_cycles, SM_TA_N, sm_ta_wait_names,
        "warp-cycles a type-wait queue head waited, by reason"),
    ROW(ta_safe_insts, "memory instructions sent as SM-safe"),
    ROW(ta_unsafe_insts, "memory instructions sent as unsafe"),
    ROW(ta_bypasses, "safe instructions that passed pending unsafe ones"),
    ROW(ta_same_line, "safe instructions kept behind a queued unsafe one that shares a line"),
    ROW(ta_serial_insts,
        "unsafe instructions sent line by line (their sectors kept being recalled)"),
    ROW(ta_type_hits, "type-cache lookups that found the type"),
    ROW(ta_type_requests, "type requests sent to a MAC"),
    ROW(ta_invalidations, "INVs received"),
    ROW(ta_recalls, "RECALLs received"),
    ROW(ta_drains, "drains done before an acknowledgement"),
    ROW(ta_drain_cycles, "cycles from an INV or RECALL to its acknowledgement"),
};

void sm_stats_print(const struct sm *sm, FILE *out)
{
    for (unsigned i = 0; i < ARRAY_LEN(stat_rows); i++) {
        const struct stat_row *r = &stat_rows[i];
        const uint64_t *v = (const uint64_t *)((const char *)&sm->st + r->off);
        if (r->n == 1) {
            fprintf(out, "%s.%s %llu # %s\n", sm->comp.name, r->name, (unsigned long long)v[0],
                    r->desc);
            continue;
        }
        for (unsigned k = 0; k < r->n; k++)
            fprintf(out, "%s.%s.%s %llu # %s\n", sm->comp.name, r->name, r->names[k],
                    (unsigned long long)v[k], r->desc);
    }
}
