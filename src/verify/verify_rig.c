/*
 * verify_rig.c - the rig of `gpucoh verify` (verify_int.h, docs/verify.md):
 * a fresh set of the protocol's real controllers and any central unit, wired
 * to ports the explorer owns; the channels between them, DRAM, and the
 * memories a rig uses, kept across rigs.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "verify/verify_int.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "noc/sysnet.h"
#include "verify/verify_mg.h"
#include "verify/verify_spandex.h"

/* How the explorer writes each kind of meta word a protocol describes. */
static const uint8_t word_kind[] = {
    [PROTO_WORD_PLAIN] = TK_RAW,     [PROTO_WORD_UNREAD] = TK_SKIP,
    [PROTO_WORD_EXPIRY] = TK_CLAMP,  [PROTO_WORD_ORDERED] = TK_ORDER,
    [PROTO_WORD_LOGICAL] = TK_LTIME,
};

static void word_kinds(uint8_t *out, const uint8_t *in, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        panic_if(in[i] >= sizeof word_kind, "verify: meta word kind %u", in[i]);
        out[i] = word_kind[in[i]];
    }
}

struct profile vx_profile_of(const struct proto_desc *p)
{
    static const struct proto_verify plain = {0};
    const struct proto_verify *v = p->verify ? p->verify : &plain;
    struct profile f = {.timed = v->time != PROTO_TIME_NONE,
                        .logical = v->time == PROTO_TIME_LOGICAL,
                        .unit = v->time == PROTO_TIME_PERIOD,
                        .tx = p->transactional,
                        .lazy = p->lazy_tm,
                        .lease_exclusive = v->lease_exclusive,
                        .two_clocks = v->two_clocks,
                        .vi_bank = v->vi_bank,
                        .device_mix = v->device_mix,
                        .l1_unfilled = v->l1_unfilled,
                        .l2_unfilled = v->l2_unfilled,
                        .l1_leased = v->l1_leased,
                        .l2_leased = v->l2_leased};
    f.rule = p->transactional  ? RULE_TX
             : p->multi_gpm    ? RULE_SCOPED
             : p->logical_time ? RULE_LOGICAL
             : v->writer_fence ? RULE_WRITER_FENCE
             : p->write_atomic ? RULE_WRITE_ATOMIC
                               : RULE_READER_FENCE;
    word_kinds(f.l1_line, v->l1_line, 3);
    word_kinds(f.l2_line, v->l2_line, 3);
    word_kinds(f.l1_tbe, v->l1_tbe, 2);
    word_kinds(f.l2_tbe, v->l2_tbe, 2);
    return f;
}

/* The states of table t named in names (space-separated), as bits. */
static uint64_t state_bits(const struct coh_table *t, const char *names)
{
    uint64_t bits = 0;
    for (const char *n = names; n && *n;) {
        size_t len = strcspn(n, " ");
        unsigned st = 0;
        while (st < t->n_states &&
               (strlen(t->state_names[st]) != len || strncmp(t->state_names[st], n, len)))
            st++;
        panic_if(st == t->n_states || st >= 64, "verify: %s %s has no state %.*s", t->proto,
                 t->ctrl, (int)len, n);
        bits |= 1ull << st;
        n += len + strspn(n + len, " ");
    }
    return bits;
}

/* The channel's ends and vnet, for printing and for counterexample files. */
void vx_ch_describe(const struct rig *r, unsigned ch, char *src, char *dst, unsigned *vnet)
{
    if (is_ch_peer(r, ch)) {
        unsigned i = ch - ch_peer(r, 0, 0, 0);
        *vnet = i % r->n_vnets;
        sprintf(src, "l1[%u]", i / r->n_vnets / r->n_l1);
        sprintf(dst, "l1[%u]", i / r->n_vnets % r->n_l1);
        return;
    }
    if (r->mg) {
        if (ch >= ch_sys(r, 0, 0, 0)) { /* a link, or (ideal-mg) its free messages */
            unsigned i = (ch - ch_sys(r, 0, 0, 0)) % (r->n_l2 * r->n_l2 * r->n_vnets);
            *vnet = i % r->n_vnets;
            sprintf(src, "l2[%u]", i / r->n_vnets / r->n_l2);
            sprintf(dst, "l2[%u]", i / r->n_vnets % r->n_l2);
        } else if (ch >= ch_dram(r)) {
            sprintf(src, "dram[%u]", ch - ch_dram(r));
            sprintf(dst, "l2[%u]", ch - ch_dram(r));
            *vnet = 0;
        } else if (ch < r->n_l1 * r->n_vnets) {
            sprintf(src, "l1[%u]", ch / r->n_vnets);
            sprintf(dst, "l2[%u]", bank_of(r, ch / r->n_vnets));
            *vnet = ch % r->n_vnets;
        } else {
            sprintf(src, "l2[%u]", bank_of(r, ch / r->n_vnets - r->n_l1));
            sprintf(dst, "l1[%u]", ch / r->n_vnets - r->n_l1);
            *vnet = ch % r->n_vnets;
        }
        return;
    }
    if (ch > ch_dram(r)) {
        unsigned i = ch - ch_dram(r) - 1;
        bool up = i < r->n_l1;
        sprintf(up ? src : dst, "l1[%u]", up ? i : i - r->n_l1);
        strcpy(up ? dst : src, "emu");
        *vnet = 0;
    } else if (ch == ch_dram(r)) {
        strcpy(src, "dram");
        strcpy(dst, "l2");
        *vnet = 0;
    } else if (ch < r->n_l1 * r->n_vnets) {
        sprintf(src, "l1[%u]", ch / r->n_vnets);
        strcpy(dst, "l2");
        *vnet = ch % r->n_vnets;
    } else {
        strcpy(src, "l2");
        sprintf(dst, "l1[%u]", ch / r->n_vnets - r->n_l1);
        *vnet = ch % r->n_vnets;
    }
}

void vx_fail(struct rig *r, const char *fmt, ...)
{
    if (r->fault[0])
        return; /* the first violation of a step is the one reported */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->fault, sizeof r->fault, fmt, ap);
    va_end(ap);
}

/* DRAM answers at once; its answers reach the bank in order (channel dram). */
static void dram_serve(struct rig *r, unsigned b, struct msg *m)
{
    if (m->type == MSG_DRAM_READ) {
        backing_read(r->store, m->addr, m->data, r->line_bytes);
        memset(&m->mask, 0, sizeof m->mask);
        bytemask_set_range(&m->mask, 0, r->line_bytes);
        m->type = MSG_DRAM_DATA;
        m->size_bytes = (uint16_t)r->line_bytes;
    } else {
        backing_write_masked(r->store, m->addr, m->data, m->mask.w, r->line_bytes);
        m->type = MSG_DRAM_WRACK;
        m->size_bytes = 0;
    }
    msg_list_push(&r->ch[ch_dram_of(r, b)], m);
}

/* Everything the controllers sent moves into the explorer's channels. */
static bool rig_tick(struct comp *cp)
{
    struct rig *r = (struct rig *)cp;
    struct msg *m;
    for (unsigned i = 0; i < r->n_l1; i++)
        for (unsigned v = 0; v < r->n_vnets; v++) {
            while ((m = port_peek(&r->up[i][v]))) {
                port_pop(&r->up[i][v]);
                msg_list_push(&r->ch[ch_up(r, i, v)], m);
            }
            while (r->peers && (m = port_peek(&r->peer[i][v]))) {
                port_pop(&r->peer[i][v]);
                if (m->dst >= r->n_l1 || m->dst == i) {
                    vx_fail(r, "L1 %u sent message type %u to endpoint %u, not another L1", i,
                            m->type, m->dst);
                    msg_free(&r->msgs, m);
                    continue;
                }
                msg_list_push(&r->ch[ch_peer(r, i, m->dst, v)], m);
            }
        }
    unsigned per_bank = r->mg ? r->gpm_sms : r->n_l1; /* the L1s a bank's crossbar reaches */
    for (unsigned b = 0; b < r->n_l2; b++) {
        for (unsigned v = 0; v < r->n_vnets; v++) {
            while ((m = port_peek(&r->l2_out[b][v]))) {
                port_pop(&r->l2_out[b][v]);
                if (m->dst >= per_bank) {
                    vx_fail(r, "the L2 sent message type %u to endpoint %u, not an L1", m->type,
                            m->dst);
                    msg_free(&r->msgs, m);
                    continue;
                }
                msg_list_push(&r->ch[ch_down(r, b * (r->mg ? r->gpm_sms : 0) + m->dst, v)], m);
            }
            while (r->mg && (m = port_peek(&r->sys_out[b][v]))) {
                port_pop(&r->sys_out[b][v]);
                if (m->dst >= r->n_l2) {
                    vx_fail(r, "bank %u sent message type %u to endpoint %u, not a bank", b,
                            m->type, m->dst);
                    msg_free(&r->msgs, m);
                    continue;
                }
                bool past = (m->flags & SYSNET_F_FREE) && !(m->flags & SYSNET_F_AFTER);
                msg_list_push(&r->ch[past && r->free_links ? ch_free(r, b, m->dst, v)
                                                           : ch_sys(r, b, m->dst, v)],
                              m);
            }
        }
        while ((m = port_peek(&r->to_mem[b]))) {
            port_pop(&r->to_mem[b]);
            dram_serve(r, b, m);
        }
    }
    for (unsigned i = 0; r->unit && i < r->n_l1; i++) {
        while ((m = port_peek(&r->unit_up[i]))) {
            port_pop(&r->unit_up[i]);
            msg_list_push(&r->ch[ch_unit_up(r, i)], m);
        }
        while ((m = port_peek(&r->unit_out[i]))) {
            port_pop(&r->unit_out[i]);
            msg_list_push(&r->ch[ch_unit_down(r, i)], m);
        }
    }
    for (unsigned i = 0; i < r->n_l1; i++)
        while ((m = port_peek(&r->to_core[i]))) {
            port_pop(&r->to_core[i]);
            if (r->mg)
                m->req.sm = (uint16_t)i; /* the rig's core i, the L1's (the answer names it) */
            msg_list_push(&r->rsp, m);
        }
    return false;
}

void vx_memories_init(struct memories *mem, uint32_t line_bytes)
{
    backing_init(&mem->store);
    obs_init(&mem->obs, line_bytes);
    mem->scan = (struct ser){0};
}

void vx_memories_destroy(struct memories *mem)
{
    free(mem->scan.b);
    free(mem->scan.past);
    obs_destroy(&mem->obs);
    backing_destroy(&mem->store);
}

/* Every line the cores use back to zero in DRAM and the golden memory (only
 * those lines are ever written), the observer's counters cleared. */
static void memories_reset(struct memories *mem, const struct verify_opts *o, uint32_t line_bytes,
                           addr_t stride)
{
    static const uint8_t zeros[LINE_MAX_BYTES];
    for (unsigned k = 0; k < o->lines; k++) {
        addr_t a = LINE_BASE + (addr_t)k * stride;
        backing_write(&mem->store, a, zeros, line_bytes);
        backing_write(&mem->obs.golden, a, zeros, line_bytes);
    }
    mem->obs.writes = mem->obs.checks = 0;
}

void vx_send_core(struct rig *r, unsigned c, struct msg *m)
{
    if (!port_send(r->l1_ops[c]->in_port(r->l1[c]), m))
        panic("verify: an L1's core port is full");
}

struct rig *vx_rig_new(const struct config *cfg, const struct proto_desc *p,
                       const struct verify_opts *o, struct coh_cov *cov, struct memories *mem)
{
    struct rig *r = calloc(1, sizeof *r);
    if (!r)
        panic("out of memory");
    r->cfg = cfg;
    config_view(cfg, &r->view);
    r->p = p;
    r->o = o;
    r->n_l1 = o->l1s;
    r->n_vnets = p->n_vnets;
    r->line_bytes = cfg->l1.cache.line_bytes;
    r->line_stride = o->line_pages ? cfg->topology.page_bytes : r->line_bytes;
    r->cov = cov;
    r->prof = vx_profile_of(p);
    r->spandex = r->prof.device_mix;
    r->mg = p->multi_gpm;
    r->gpm_sms = r->mg && o->gpm_sms ? o->gpm_sms : 1;
    r->n_l2 = r->mg ? r->n_l1 / r->gpm_sms : 1;
    r->scan = &mem->scan;
    eng_init(&r->eng);
    r->eng.watchdog_ps = 0;
    r->core_ps = clock_period_ps(cfg->gpu.core_mhz);
    /* With leases, the controllers' reaction to an event takes no core time:
     * their clock runs at one cycle per ps, the core cycle (the leases' unit)
     * lasts VERIFY_TICK_CYCLES... far longer (gpu.core_mhz = 1 on the rig), and
     * only EV_TICK moves it (docs/verify.md, "Time"). */
    r->clk = (struct clock){"core", r->prof.timed ? 1 : r->core_ps};
    msg_pool_init(&r->msgs);
    memories_reset(mem, o, r->line_bytes, r->line_stride);
    r->store = &mem->store;
    r->obs = &mem->obs;
    r->obs->on_golden = vx_follow_gold;
    r->obs->on_golden_arg = r;
    for (unsigned c = 0; c < r->n_l1; c++) /* memory starts zeroed: value 0 everywhere */
        for (unsigned w = 0; w < V_MAX_WARPS; w++)
            for (unsigned k = 0; k < V_MAX_LINES; k++) {
                r->env.floor[c][w][k] = 1;
                if (r->prof.rule == RULE_SCOPED) /* nothing released yet: no constraint */
                    r->env.rel[c][w][0][k] = r->env.rel[c][w][1][k] = 0xff;
            }
    comp_init(&r->comp, &r->eng, "verify", &r->clk, rig_tick, NULL);
    struct ctrl_wiring w = {.eng = &r->eng,
                            .clk = &r->clk,
                            .msgs = &r->msgs,
                            .cfg = &r->view,
                            .n_sms = r->n_l1,
                            .n_banks = 1,
                            .store = r->store,
                            .obs = r->obs};
    if (r->mg) { /* gpm_sms SMs and one bank per GPM; the first toucher of the page is its home */
        pagemap_init(&r->pages, cfg->topology.page_bytes);
        w.pages = &r->pages;
        w.n_sms = r->gpm_sms;
    }
    if (p->attach) /* the protocol's per-rig context, before its controllers */
        r->proto_ctx = p->attach(&w);
    w.proto_ctx = r->proto_ctx;
    tick_t hop = r->clk.period_ps;
    for (unsigned i = 0; i < r->n_l1; i++) {
        snprintf(r->names[i], sizeof r->names[i], "l1[%u]", i);
        w.name = r->names[i];
        w.index = r->mg ? i % r->gpm_sms : i;
        w.gpm = r->mg ? i / r->gpm_sms : 0;
        r->l1_ops[i] = vspx_l1_ops(p, &r->view, i, &r->l1_table[i]);
        r->l1_write_atomic[i] = r->spandex ? vspx_write_atomic(p, r->l1_table[i]) : p->write_atomic;
        w.cov = cov + r->l1_table[i];
        r->l1[i] = r->l1_ops[i]->create(&w);
    }
    static const char *const bank_names[V_MAX_L1] = {"l2[0]", "l2[1]", "l2[2]", "l2[3]"};
    for (unsigned b = 0; b < r->n_l2; b++) {
        w.name = r->mg ? bank_names[b] : "l2";
        w.index = 0;
        w.gpm = b;
        w.cov = cov + p->n_l1_tables;
        r->l2s[b] = p->l2.create(&w);
    }
    r->l2 = r->l2s[0];
    r->free_links = r->mg && verify_mg_free(r->l2s[0]);
    r->mg_hier = r->mg && verify_mg_hier(r->l2s[0]);
    r->n_ch = r->free_links ? ch_free(r, r->n_l2 - 1, r->n_l2 - 1, r->n_vnets - 1) + 1
              : r->mg       ? ch_sys(r, r->n_l2 - 1, r->n_l2 - 1, r->n_vnets - 1) + 1
                            : ch_dram(r) + 1;
    r->peers = p->l1_peers && p->l1_peers(&r->view);
    panic_if(r->peers && (r->mg || p->unit.create),
             "verify: %s: L1-to-L1 channels on several GPMs or beside a central unit", p->name);
    if (r->peers)
        r->n_ch = ch_peer(r, r->n_l1 - 1, r->n_l1 - 1, r->n_vnets - 1) + 1;
    if (p->unit.create) { /* STC's EMU: its links to the L1s are explorer channels too */
        w.name = "emu";
        w.index = 0;
        w.cov = cov;
        r->unit = p->unit.create(&w);
        struct port *to[V_MAX_L1], *from[V_MAX_L1];
        for (unsigned i = 0; i < r->n_l1; i++) {
            port_init(&r->unit_up[i], "unit_up", PORT_CAP, hop, r->l1[i], &r->comp);
            port_init(&r->unit_in[i], "unit_in", PORT_CAP, hop, &r->comp, r->unit);
            port_init(&r->unit_out[i], "unit_out", PORT_CAP, hop, r->unit, &r->comp);
            port_init(&r->unit_down[i], "unit_down", PORT_CAP, hop, &r->comp, r->l1[i]);
            to[i] = &r->unit_out[i];
            from[i] = &r->unit_in[i];
        }
        p->unit.connect(r->unit, to, from);
        r->n_ch += 2 * r->n_l1;
    }
    for (unsigned i = 0; i < r->n_l1; i++) {
        struct ctrl_links l = {0};
        if (r->unit) {
            l.to_unit = &r->unit_up[i];
            l.from_unit = &r->unit_down[i];
        }
        port_init(&r->to_core[i], "to_core", PORT_CAP, hop, r->l1[i], &r->comp);
        l.to_core = &r->to_core[i];
        for (unsigned v = 0; v < r->n_vnets; v++) {
            port_init(&r->up[i][v], "up", PORT_CAP, hop, r->l1[i], &r->comp);
            port_init(&r->down[i][v], "down", PORT_CAP, hop, &r->comp, r->l1[i]);
            l.net_out[v] = &r->up[i][v];
            l.net_in[v] = &r->down[i][v];
            if (r->peers) {
                port_init(&r->peer[i][v], "peer", PORT_CAP, hop, r->l1[i], &r->comp);
                l.peer_out[v] = &r->peer[i][v];
            }
        }
        r->l1_ops[i]->connect(r->l1[i], &l);
        r->l1_ops[i]->in_port(r->l1[i])->sender = &r->comp;
    }
    for (unsigned b = 0; b < r->n_l2; b++) {
        struct ctrl_links l = {0};
        struct comp *bank = r->l2s[b];
        for (unsigned v = 0; v < r->n_vnets; v++) {
            port_init(&r->l2_out[b][v], "l2_out", PORT_CAP, hop, bank, &r->comp);
            port_init(&r->l2_in[b][v], "l2_in", PORT_CAP, hop, &r->comp, bank);
            l.net_out[v] = &r->l2_out[b][v];
            l.net_in[v] = &r->l2_in[b][v];
            if (r->mg) {
                port_init(&r->sys_out[b][v], "sys_out", PORT_CAP, hop, bank, &r->comp);
                port_init(&r->sys_in[b][v], "sys_in", PORT_CAP, hop, &r->comp, bank);
                l.sys_out[v] = &r->sys_out[b][v];
                l.sys_in[v] = &r->sys_in[b][v];
            }
        }
        port_init(&r->to_mem[b], "to_mem", PORT_CAP, hop, bank, &r->comp);
        l.to_mem = &r->to_mem[b];
        p->l2.connect(bank, &l);
        p->l2.in_port(bank)->sender = &r->comp;
    }
    if (r->prof.tx)
        vtx_init(r);
    panic_if(r->prof.l1_unfilled && p->n_l1_tables != 1,
             "verify: %s: unfilled L1 states of "
             "which of its %u L1 tables?",
             p->name, p->n_l1_tables);
    r->l1_unfilled = state_bits(p->tables[0], r->prof.l1_unfilled);
    r->l2_unfilled = state_bits(p->tables[p->n_l1_tables], r->prof.l2_unfilled);
    r->l1_leased = state_bits(p->tables[0], r->prof.l1_leased);
    r->l2_leased = state_bits(p->tables[p->n_l1_tables], r->prof.l2_leased);
    if (r->prof.logical) {
        for (unsigned k = 0; k < V_MAX_LINES; k++) { /* memory starts zeroed */
            r->lenv.n_hist[k] = 1;
            r->lenv.hist_init[k][0] = 1;
        }
    } else if (r->prof.unit) { /* every core runs a kernel (STC-NV's EMU cycles while one does) */
        for (unsigned c = 0; c < r->n_l1; c++) {
            struct msg *m = msg_new(&r->msgs, MSG_CORE_REQ, 0, r->eng.now);
            m->req = (struct mem_req){.sm = (uint16_t)c, .op = MEM_KERNEL_BEGIN};
            vx_send_core(r, c, m);
        }
        vx_settle(r);
    } else if (r->prof.timed) { /* time 0 precedes the start: every "none" timestamp has passed */
        vx_advance_to(r, VERIFY_TICK_CYCLES);
    }
    return r;
}

void vx_rig_free(struct rig *r)
{
    if (r->unit) {
        r->p->unit.destroy(r->unit);
        for (unsigned i = 0; i < r->n_l1; i++) {
            port_destroy(&r->unit_up[i]);
            port_destroy(&r->unit_in[i]);
            port_destroy(&r->unit_out[i]);
            port_destroy(&r->unit_down[i]);
        }
    }
    for (unsigned i = 0; i < r->n_l1; i++)
        r->l1_ops[i]->destroy(r->l1[i]);
    for (unsigned b = 0; b < r->n_l2; b++)
        r->p->l2.destroy(r->l2s[b]);
    if (r->p->detach) /* after every controller and the unit */
        r->p->detach(r->proto_ctx);
    for (unsigned i = 0; i < r->n_l1; i++) {
        port_destroy(&r->to_core[i]);
        for (unsigned v = 0; v < r->n_vnets; v++) {
            port_destroy(&r->up[i][v]);
            port_destroy(&r->down[i][v]);
            if (r->peers)
                port_destroy(&r->peer[i][v]);
        }
    }
    for (unsigned b = 0; b < r->n_l2; b++) {
        for (unsigned v = 0; v < r->n_vnets; v++) {
            port_destroy(&r->l2_out[b][v]);
            port_destroy(&r->l2_in[b][v]);
            if (r->mg) {
                port_destroy(&r->sys_out[b][v]);
                port_destroy(&r->sys_in[b][v]);
            }
        }
        port_destroy(&r->to_mem[b]);
    }
    if (r->mg)
        pagemap_destroy(&r->pages);
    /* messages still held by ports or controllers go with the pool */
    pool_destroy(&r->msgs);
    eng_destroy(&r->eng);
    free(r);
}
