/*
 * sfr.c - the split-frame rendering model (see sfr.h, docs/chopin.md).
 *
 * Components: one per GPU, the draw-command scheduler (DCS, thesis §6.4.4)
 * and the image-composition scheduler (ICS, §6.4.5), both hosted on GPU 0.
 * Every message crosses a point-to-point link (noc/p2p.h) unless it stays on
 * its GPU. A GPU executes the command list the driver built for the design:
 *   DRAW     one draw, in duplication mode (all geometry, fragments of the
 *            GPU's own tiles), whole (CHOPIN) or owned (GPUpd after exchange);
 *   SYNC     render-target / depth-buffer switch: broadcast the GPU's dirty
 *            own tiles to every GPU, wait for everyone's;
 *   CGROUP   a CHOPIN composition group: render (draws from the DCS for
 *            opaque groups, a consecutive chunk for ordered ones), then
 *            compose sub-images (direct-send, or as the ICS pairs GPUs);
 *   PROJECT  GPUpd: project this GPU's 1/N of a batch's triangles;
 *   BATCH    GPUpd: wait for every GPU's primitive IDs of a batch, render the
 *            owned triangles.
 * Time: a GPU works in steps (a draw's setup, step_tris triangles, a
 * composed tile) and sleeps until the step ends; composition of an arrived
 * tile goes before the next rendering step, as the ROPs are shared.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "gfx/sfr.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "noc/p2p.h"
#include "sim/port.h"

const char *const sfr_design_names[SFR_N_DESIGNS] = {"dup",    "gpupd",     "gpupd-ideal",
                                                     "chopin", "chopin-cs", "chopin-ideal"};
const char *const sfr_activity_names[SFR_N_ACT] = {
    "render", "project", "compose", "wait_ids", "wait_compose", "wait_sync", "wait_draws"};
const char *const sfr_traffic_names[SFR_N_TRAFFIC] = {"compose", "sync", "ids", "sched"};
const char *const sfr_stat_names[SFR_N_STATS] = {
    "bytes_compose",  "bytes_sync",      "bytes_ids",     "bytes_sched",      "gpu_render",
    "gpu_project",    "gpu_compose",     "gpu_wait_ids",  "gpu_wait_compose", "gpu_wait_sync",
    "gpu_wait_draws", "groups_composed", "tris_composed", "wrong_tiles",      "link_messages",
    "geometry_tris",  "shaded_px",       "ics_pairs",     "ics_pairs_held",   "ics_hold_cycles",
    "tiles_refused"};

void sfr_stats(const struct sfr_result *r, double out[SFR_N_STATS])
{
    unsigned k = 0;
    for (unsigned t = 0; t < SFR_N_TRAFFIC; t++)
        out[k++] = (double)r->traffic[t];
    for (unsigned a = 0; a < SFR_N_ACT; a++)
        out[k++] = r->activity[a];
    out[k++] = r->groups_composed;
    out[k++] = (double)r->tris_composed;
    out[k++] = r->wrong_tiles;
    out[k++] = (double)r->messages;
    out[k++] = (double)r->geometry_tris;
    out[k++] = (double)r->shaded_px;
    out[k++] = (double)r->ics_pairs;
    out[k++] = (double)r->ics_pairs_held;
    out[k++] = r->ics_hold_cycles;
    out[k++] = (double)r->tiles_refused;
}

int sfr_design_find(const char *name)
{
    for (int i = 0; i < SFR_N_DESIGNS; i++)
        if (!strcmp(name, sfr_design_names[i]))
            return i;
    return -1;
}

enum op_kind { OP_DRAW, OP_SYNC, OP_CGROUP, OP_PROJECT, OP_BATCH };
enum draw_mode { M_DUP, M_FULL, M_OWNED };

struct op {
    uint8_t kind, mode, depth_only;
    uint32_t a;        /* draw, rt, group or batch */
    uint32_t first, n; /* CGROUP ordered: this GPU's chunk of draws */
    uint32_t seq;      /* SYNC: sequence number */
};

enum msg_type {
    MT_TILE = MSG_PROTO_BASE, /* a composition tile (addr = tile, ts = group) */
    MT_TILE_END,              /* end of a sender's tiles for a group */
    MT_SYNC_TILE,             /* a broadcast tile (ts = sync seq, flags = depth only) */
    MT_SYNC_END,
    MT_IDS,       /* GPUpd primitive IDs of a batch (ts) */
    MT_TOKEN,     /* GPUpd: the next GPU may send its IDs of batch ts */
    MT_DRAW,      /* DCS -> GPU: render draw ts */
    MT_GROUP_END, /* DCS -> GPU: no more draws of group ts */
    MT_PROGRESS,  /* GPU -> DCS: triangles processed so far (ts) */
    MT_DRAW_DONE, /* GPU -> DCS: a draw finished */
    MT_READY,     /* GPU -> ICS: sub-image of group ts ready */
    MT_START,     /* ICS -> GPU: send your tiles to GPU `sharer` */
    MT_DONE,      /* GPU -> ICS: composed everything GPU `sharer` sent */
};

struct batch {
    uint32_t first, n;
    uint64_t tris;
};

struct sfr;

struct gpu {
    struct comp c;
    struct sfr *m;
    unsigned id;
    char name[16];
    struct op *ops;
    uint32_t n_ops, cap_ops, pc;
    bool started;      /* the op at pc has begun */
    tick_t busy_until; /* end of the current step */
    tick_t mark;       /* time accounted up to */
    uint8_t wait_act;  /* what a wait is charged to */
    /* the draw in progress */
    int64_t draw; /* -1: none */
    uint8_t mode;
    bool from_dcs;
    uint32_t tris_left;
    double cpt;      /* cycles per triangle of this draw */
    uint32_t cursor; /* next draw of a chunk or batch */
    /* DCS draw queue: draw ids, or ~group for a group end */
    uint32_t *dq;
    uint32_t dq_head, dq_n, dq_cap;
    uint64_t processed; /* triangles processed in scheduled draws */
    /* composition of the current group */
    bool composing; /* own rendering done */
    bool ordered;
    uint32_t n_sent, n_recv, lo, hi;
    bool bg_done;
    uint32_t stream_pos[SFR_MAX_GPUS];
    bool streaming[SFR_MAX_GPUS];
    uint32_t *send_list[SFR_MAX_GPUS], send_n[SFR_MAX_GPUS];
    struct msg *stash[SFR_MAX_GPUS], *stash_tail[SFR_MAX_GPUS];
    unsigned rr;
    /* images */
    struct gfx_fb fb;
    uint8_t *dirty;      /* [rt][tile]: 1 colour or depth changed, 2 depth changed */
    struct gfx_px *sub;  /* opaque sub-image */
    struct gfx_map *map; /* ordered sub-image; for own tiles the composed interval */
    uint8_t *touched;
    uint32_t *touched_list, n_touched;
    /* syncs and GPUpd */
    uint32_t *sync_recv;
    uint32_t *ids_recv;
    uint8_t *proj_done, *token;
    uint32_t next_exchange;
    uint64_t act[SFR_N_ACT];
    bool finished;
};

struct dcs {
    struct comp c;
    struct sfr *m;
    uint32_t *groups, n_groups, gi, next; /* composed opaque groups in order, draw cursor */
    uint64_t sched[SFR_MAX_GPUS], done[SFR_MAX_GPUS];
    uint32_t outstanding[SFR_MAX_GPUS];
};

struct ics {
    struct comp c;
    struct sfr *m;
    bool ready[SFR_MAX_GPUS];
    uint32_t receiving[SFR_MAX_GPUS], sending[SFR_MAX_GPUS]; /* pairings in progress */
    /* when the pair (receiver, sender) was first found ready in the same
     * group (TICK_MAX: not yet; ICS_STARTED: started) */
    tick_t since[SFR_MAX_GPUS][SFR_MAX_GPUS];
    uint64_t pairs, held;
    tick_t held_ps;
    uint32_t cgid[SFR_MAX_GPUS], sent[SFR_MAX_GPUS], received[SFR_MAX_GPUS];
    uint32_t lo[SFR_MAX_GPUS], hi[SFR_MAX_GPUS];
};

/* A message inside the switch (link.switch = arrival), between its sender's
 * port and its receiver's: the receiver's port takes it when its head gets
 * there (an eng_at call then), in the order heads arrive. */
struct transit {
    struct port *p; /* where it goes (sent pending: its place there is kept) */
    struct msg *x;
    uint64_t bytes;
    tick_t out_end; /* when its tail has left the sender's port */
    unsigned to;    /* the receiving GPU */
    uint32_t next_free;
};

struct sfr {
    const struct gfx_trace *t;
    struct sfr_config cfg;
    enum sfr_design design;
    unsigned n;
    struct eng eng;
    struct clock clk;
    struct pool msgs;
    struct gpu gpu[SFR_MAX_GPUS];
    struct dcs dcs;
    struct ics ics;
    struct p2p_link link[SFR_MAX_GPUS][SFR_MAX_GPUS];              /* [from][to], topology pairs */
    struct p2p_link port_out[SFR_MAX_GPUS], port_in[SFR_MAX_GPUS]; /* topology switch */
    struct port tile[SFR_MAX_GPUS][SFR_MAX_GPUS]; /* [from][to] composition tiles */
    struct port ctrl[SFR_MAX_GPUS][SFR_MAX_GPUS]; /* [from][to] syncs, IDs, tokens */
    struct port to_dcs[SFR_MAX_GPUS], to_ics[SFR_MAX_GPUS];
    struct port from_dcs[SFR_MAX_GPUS], from_ics[SFR_MAX_GPUS];
    struct batch *batches;
    uint32_t n_batches;
    uint8_t *owner;   /* [tile] */
    double *own_frac; /* [draw][gpu]: share of the draw's pixels on the GPU's tiles */
    uint64_t traffic[SFR_N_TRAFFIC];
    uint64_t n_msgs, geometry_tris, shaded_px, tris_composed, tiles_refused;
    uint32_t groups_composed;
    struct transit *transit; /* messages in the switch; a free list through next_free */
    uint32_t n_transit, free_transit;
};

static tick_t cycles_ps(const struct sfr *m, double cycles)
{
    return (tick_t)llround(cycles * (double)m->clk.period_ps);
}

/* --- messages */

static struct msg *new_msg(struct sfr *m, uint16_t type, uint64_t ts)
{
    struct msg *x = msg_new(&m->msgs, type, 0, m->eng.now);
    x->ts = ts;
    return x;
}

#define NO_TRANSIT UINT32_MAX

/* The message's head reaches its receiver's port in the switch: it takes the
 * port once free (in the order heads arrive), and is ready a latency after
 * its tail has passed. */
static void switch_arrive(void *obj, uint64_t i)
{
    struct sfr *m = obj;
    struct transit *t = &m->transit[i];
    tick_t start, end = p2p_take(&m->port_in[t->to], t->bytes, m->eng.now, t->out_end, &start);
    port_ready_at(t->p, t->x, end + t->p->latency_ps);
    t->next_free = m->free_transit;
    m->free_transit = (uint32_t)i;
}

/* Into the switch in arrival order: the sender's port serialises the message
 * now (in send order); its receiver's port is taken when its head arrives. */
static bool switch_send_arrival(struct sfr *m, unsigned from, unsigned to, struct port *p,
                                struct msg *x, uint64_t bytes)
{
    if (!port_send_pending(p, x))
        return false;
    if (m->free_transit == NO_TRANSIT) { /* grows while more are in flight than ever before */
        uint32_t n = m->n_transit ? 2 * m->n_transit : 64;
        m->transit = realloc(m->transit, n * sizeof *m->transit);
        panic_if(!m->transit, "out of memory");
        for (uint32_t i = n; i-- > m->n_transit;) {
            m->transit[i].next_free = m->free_transit;
            m->free_transit = i;
        }
        m->n_transit = n;
    }
    uint32_t i = m->free_transit;
    m->free_transit = m->transit[i].next_free;
    tick_t head, out_end = p2p_take(&m->port_out[from], bytes, m->eng.now, 0, &head);
    m->transit[i] = (struct transit){p, x, bytes, out_end, to, NO_TRANSIT};
    eng_at(&m->eng, head, switch_arrive, m, i);
    return true;
}

/* Send from GPU `from` to GPU `to` (the far side of the port). A message that
 * stays on its GPU skips the link. False when the port is full. */
static bool send(struct sfr *m, unsigned from, unsigned to, struct port *p, struct msg *x,
                 uint64_t payload, enum sfr_traffic cls)
{
    if (from == to)
        return port_send(p, x);
    uint64_t bytes = payload + m->cfg.msg_header_bytes;
    bool sent;
    if (m->cfg.topology == SFR_LINK_SWITCH && m->cfg.switch_mode == P2P_PATH_ARRIVAL) {
        sent = switch_send_arrival(m, from, to, p, x, bytes);
    } else if (m->cfg.topology == SFR_LINK_SWITCH) {
        struct p2p_link *path[2] = {&m->port_out[from], &m->port_in[to]};
        sent = p2p_send_path(path, 2, m->cfg.switch_mode, p, x, bytes);
    } else {
        sent = p2p_send(&m->link[from][to], p, x, bytes);
    }
    if (!sent)
        return false;
    m->traffic[cls] += bytes;
    m->n_msgs++;
    return true;
}

static void send_must(struct sfr *m, unsigned from, unsigned to, struct port *p, struct msg *x,
                      uint64_t payload, enum sfr_traffic cls)
{
    panic_if(!send(m, from, to, p, x, payload, cls), "%s: unbounded port full", p->name);
}

/* A message between GPU g and the ICS (hosted on GPU 0): over the link g <-> 0,
 * or with ics.free_messages on no link at all (its port has no latency). */
static void send_ics(struct sfr *m, unsigned from, unsigned to, struct port *p, struct msg *x)
{
    if (m->cfg.ics_free_messages)
        panic_if(!port_send(p, x), "%s: unbounded port full", p->name);
    else
        send_must(m, from, to, p, x, m->cfg.sched_msg_bytes, SFR_T_SCHED);
}

/* --- GPU helpers */

static uint32_t tile_px(const struct sfr *m, uint32_t k)
{
    return gfx_tile_pixels(m->t, k % m->t->tiles_x, k / m->t->tiles_x);
}

static void account_wait(struct gpu *g)
{
    tick_t now = g->c.eng->now;
    if (now > g->mark) {
        g->act[g->wait_act] += now - g->mark;
        g->mark = now;
    }
}

static void busy(struct gpu *g, enum sfr_activity a, double cycles)
{
    account_wait(g);
    tick_t d = cycles_ps(g->m, cycles);
    g->act[a] += d;
    g->busy_until = g->c.eng->now + d;
    g->mark = g->busy_until;
}

static void touch(struct gpu *g, uint32_t k)
{
    if (!g->touched[k]) {
        g->touched[k] = 1;
        g->touched_list[g->n_touched++] = k;
    }
}

static void mark_dirty(struct gpu *g, uint32_t rt, uint32_t k, bool depth)
{
    g->dirty[rt * g->fb.n_tiles + k] |= (uint8_t)(1 | (depth ? 2 : 0));
}

/* The draw's image effect on this GPU, applied when the draw completes. */
static void draw_image(struct gpu *g, uint32_t d)
{
    struct sfr *m = g->m;
    const struct gfx_trace *t = m->t;
    const struct gfx_draw *dr = &t->draws[d];
    bool ordered = gfx_draw_ordered(dr);
    for (uint32_t y = dr->ty; y < dr->ty + dr->th; y++)
        for (uint32_t x = dr->tx; x < dr->tx + dr->tw; x++) {
            uint32_t k = y * t->tiles_x + x;
            bool own = m->owner[k] == g->id;
            if (g->mode != M_FULL) {
                if (own) {
                    gfx_apply(&g->fb, t, d, k);
                    mark_dirty(g, dr->rt, k, !ordered);
                }
            } else if (ordered) {
                if (gfx_frag_passes(dr->zfunc, d, k, *gfx_fb_at(&g->fb, dr->rt, k))) {
                    touch(g, k);
                    g->map[k] = gfx_map_then(g->map[k], gfx_frag_map(dr, d, k));
                }
            } else if (own) {
                gfx_apply(&g->fb, t, d, k);
                mark_dirty(g, dr->rt, k, true);
            } else {
                struct gfx_px p = gfx_frag(d, k);
                if (!g->touched[k] || gfx_frag_better(dr->zfunc, p, g->sub[k]))
                    g->sub[k] = p;
                touch(g, k);
            }
        }
}

static void start_draw(struct gpu *g, uint32_t d, uint8_t mode, bool from_dcs)
{
    struct sfr *m = g->m;
    const struct gfx_draw *dr = &m->t->draws[d];
    double frac = m->own_frac[(size_t)d * m->n + g->id];
    double px = dr->ppt * dr->tris * (mode == M_FULL ? 1.0 : frac);
    uint32_t tris = dr->tris;
    if (mode == M_OWNED) { /* triangles straddling tile edges go to several GPUs */
        double spread = pow(1 + sqrt(dr->ppt) / GFX_TILE_PX, 2);
        tris = frac > 0 ? (uint32_t)ceil(dr->tris * MIN(1.0, frac * spread)) : 0;
    }
    g->draw = d, g->mode = mode, g->from_dcs = from_dcs, g->tris_left = tris;
    g->cpt = tris ? MAX(dr->gcpt, px / tris / m->cfg.fragment_px_per_cycle) : 0;
    m->geometry_tris += tris;
    m->shaded_px += (uint64_t)llround(px);
    busy(g, SFR_RENDER, tris ? m->cfg.draw_setup_cycles : 0);
}

/* One rendering step of the draw in progress; true when the draw is done. */
static bool draw_step(struct gpu *g)
{
    struct sfr *m = g->m;
    if (g->tris_left) {
        uint32_t n = MIN(g->tris_left, m->cfg.step_tris);
        g->tris_left -= n;
        busy(g, SFR_RENDER, n * g->cpt);
        if (g->from_dcs) { /* progress updates every update_tris, bytes per update */
            uint64_t before = g->processed / m->cfg.update_tris;
            g->processed += n;
            uint64_t k = g->processed / m->cfg.update_tris - before;
            if (k)
                send_must(m, g->id, 0, &m->to_dcs[g->id], new_msg(m, MT_PROGRESS, g->processed),
                          k * m->cfg.sched_msg_bytes, SFR_T_SCHED);
        }
        return false;
    }
    draw_image(g, (uint32_t)g->draw);
    if (g->from_dcs)
        send_must(m, g->id, 0, &m->to_dcs[g->id], new_msg(m, MT_DRAW_DONE, (uint64_t)g->draw),
                  m->cfg.sched_msg_bytes, SFR_T_SCHED);
    g->draw = -1;
    return true;
}

/* --- composition */

static const struct op *cur_op(const struct gpu *g)
{
    return g->pc < g->n_ops ? &g->ops[g->pc] : NULL;
}

static bool in_group(const struct gpu *g, uint64_t group)
{
    const struct op *o = cur_op(g);
    return o && g->started && o->kind == OP_CGROUP && o->a == group;
}

static void send_ready(struct gpu *g)
{
    struct sfr *m = g->m;
    const struct op *o = cur_op(g);
    g->composing = true;
    for (unsigned r = 0; r < m->n; r++)
        g->send_n[r] = 0;
    for (uint32_t i = 0; i < g->n_touched; i++) {
        uint32_t k = g->touched_list[i];
        unsigned r = m->owner[k];
        if (r != g->id)
            g->send_list[r][g->send_n[r]++] = k;
    }
    if (m->design == SFR_CHOPIN) {
        for (unsigned r = 0; r < m->n; r++)
            g->streaming[r] = r != g->id;
    } else {
        send_ics(m, g->id, 0, &m->to_ics[g->id], new_msg(m, MT_READY, o->a));
    }
}

/* Push tiles of the active streams into the links until the ports are full. */
static void pump_streams(struct gpu *g)
{
    struct sfr *m = g->m;
    const struct op *o = cur_op(g);
    for (unsigned r = 0; r < m->n; r++) {
        while (g->streaming[r]) {
            struct port *p = &m->tile[g->id][r];
            uint32_t i = g->stream_pos[r];
            struct msg *x;
            uint64_t bytes;
            if (i < g->send_n[r]) {
                uint32_t k = g->send_list[r][i];
                x = new_msg(m, MT_TILE, o->a);
                x->addr = k;
                if (g->ordered) {
                    memcpy(x->data, &g->map[k], sizeof g->map[k]);
                    bytes = (uint64_t)tile_px(m, k) * m->cfg.color_bytes;
                } else {
                    memcpy(x->data, &g->sub[k], sizeof g->sub[k]);
                    bytes = (uint64_t)tile_px(m, k) * (m->cfg.color_bytes + m->cfg.depth_bytes);
                }
            } else {
                x = new_msg(m, MT_TILE_END, o->a);
                bytes = 0;
            }
            x->sharer = g->id;
            if (!send(m, g->id, r, p, x, bytes, SFR_T_COMPOSE)) {
                m->tiles_refused++;
                msg_free(&m->msgs, x);
                break;
            }
            if (++g->stream_pos[r] > g->send_n[r]) {
                g->streaming[r] = false;
                g->n_sent++;
            }
        }
    }
}

/* Compose one received tile (or stream end); false if nothing can be composed now. */
static bool compose_msg(struct gpu *g, struct msg *x)
{
    struct sfr *m = g->m;
    unsigned s = x->sharer;
    const struct op *o = cur_op(g);
    uint32_t rt = m->t->draws[m->t->groups[o->a].first].rt;
    uint8_t zf = m->t->draws[m->t->groups[o->a].first].zfunc;
    if (x->type == MT_TILE_END) {
        g->n_recv++;
        if (g->ordered) {
            if (s + 1 == g->lo)
                g->lo = s;
            else
                g->hi = s;
        }
        if (m->design != SFR_CHOPIN) {
            struct msg *d = new_msg(m, MT_DONE, o->a);
            d->sharer = s;
            d->src = (uint16_t)g->id;
            send_ics(m, g->id, 0, &m->to_ics[g->id], d);
        }
    } else {
        uint32_t k = (uint32_t)x->addr;
        if (g->ordered) {
            struct gfx_map in;
            memcpy(&in, x->data, sizeof in);
            g->map[k] = s + 1 == g->lo ? gfx_map_then(in, g->map[k]) : gfx_map_then(g->map[k], in);
            touch(g, k);
        } else {
            struct gfx_px in, *dst = gfx_fb_at(&g->fb, rt, k);
            memcpy(&in, x->data, sizeof in);
            if (gfx_frag_better(zf, in, *dst)) {
                *dst = in;
                mark_dirty(g, rt, k, true);
            }
        }
        busy(g, SFR_COMPOSE, tile_px(m, k) / m->cfg.rop_px_per_cycle);
    }
    msg_free(&m->msgs, x);
    return true;
}

static bool adjacent(const struct gpu *g, unsigned s)
{
    return s + 1 == g->lo || s == g->hi + 1;
}

static bool try_compose(struct gpu *g)
{
    struct sfr *m = g->m;
    const struct op *o = cur_op(g);
    if (!o || o->kind != OP_CGROUP || !g->started)
        return false;
    if (g->ordered) {
        if (!g->composing)
            return false;
        for (unsigned s = 0; s < m->n; s++) /* stashed sub-images that became adjacent */
            if (g->stash[s] && adjacent(g, s)) {
                struct msg *x = g->stash[s];
                g->stash[s] = x->next;
                return compose_msg(g, x);
            }
    }
    for (unsigned i = 0; i < m->n; i++) {
        unsigned s = (g->rr + i) % m->n;
        struct port *p = &m->tile[s][g->id];
        struct msg *x = port_peek(p);
        if (!x || x->ts != o->a)
            continue;
        port_pop(p);
        g->rr = (s + 1) % m->n;
        if (g->ordered && !adjacent(g, s)) { /* direct-send: keep it until its turn */
            x->next = NULL;
            if (g->stash[s])
                g->stash_tail[s]->next = x;
            else
                g->stash[s] = x;
            g->stash_tail[s] = x;
            return true;
        }
        return compose_msg(g, x);
    }
    return false;
}

/* --- control messages (no pipeline time) */

static void take_ctrl(struct gpu *g)
{
    struct sfr *m = g->m;
    for (unsigned s = 0; s < m->n; s++) {
        struct msg *x;
        while ((x = port_peek(&m->ctrl[s][g->id]))) {
            port_pop(&m->ctrl[s][g->id]);
            switch (x->type) {
            case MT_SYNC_TILE: {
                struct gfx_px in, *dst = gfx_fb_at(&g->fb, (uint32_t)x->ts2, (uint32_t)x->addr);
                memcpy(&in, x->data, sizeof in);
                if (x->flags)
                    dst->depth = in.depth, dst->id = in.id;
                else
                    *dst = in;
                break;
            }
            case MT_SYNC_END:
                g->sync_recv[x->ts]++;
                break;
            case MT_IDS:
                g->ids_recv[x->ts]++;
                break;
            case MT_TOKEN:
                g->token[x->ts] = 1;
                break;
            default:
                panic("%s: unexpected message %u on a control port", g->name, x->type);
            }
            msg_free(&m->msgs, x);
        }
    }
    struct msg *x;
    struct port *p = &m->from_dcs[g->id];
    while ((x = port_peek(p))) {
        port_pop(p);
        panic_if(g->dq_n == g->dq_cap, "%s: draw queue overflow", g->name);
        g->dq[(g->dq_head + g->dq_n++) % g->dq_cap] =
            x->type == MT_DRAW ? (uint32_t)x->ts : ~(uint32_t)x->ts;
        msg_free(&m->msgs, x);
    }
    p = &m->from_ics[g->id];
    while ((x = port_peek(p))) {
        port_pop(p);
        panic_if(!in_group(g, x->ts) || !g->composing, "%s: START outside composition", g->name);
        g->streaming[x->sharer] = true;
        msg_free(&m->msgs, x);
    }
}

/* GPUpd: send this GPU's IDs of the next batch once projected and its turn has come. */
static void gpupd_exchange(struct gpu *g)
{
    struct sfr *m = g->m;
    while (g->next_exchange < m->n_batches) {
        uint32_t b = g->next_exchange;
        bool turn = m->n == 1 || (g->id == 0 ? b == 0 || g->token[b] : g->token[b]);
        if (!g->proj_done[b] || !turn)
            return;
        const struct batch *bt = &m->batches[b];
        for (unsigned r = 0; r < m->n; r++) {
            if (r == g->id)
                continue;
            double ids = 0; /* this GPU's share of the batch that lands on r's tiles */
            for (uint32_t d = bt->first; d < bt->first + bt->n; d++) {
                const struct gfx_draw *dr = &m->t->draws[d];
                double spread = pow(1 + sqrt(dr->ppt) / GFX_TILE_PX, 2);
                ids +=
                    (double)dr->tris / m->n * MIN(1.0, m->own_frac[(size_t)d * m->n + r] * spread);
            }
            send_must(m, g->id, r, &m->ctrl[g->id][r], new_msg(m, MT_IDS, b),
                      (uint64_t)ceil(ids) * m->cfg.gpupd_id_bytes, SFR_T_IDS);
        }
        unsigned next = (g->id + 1) % m->n;
        uint32_t tb = g->id + 1 == m->n ? b + 1 : b;
        if (m->n > 1 && tb < m->n_batches)
            send_must(m, g->id, next, &m->ctrl[g->id][next], new_msg(m, MT_TOKEN, tb),
                      m->cfg.sched_msg_bytes, SFR_T_IDS);
        g->next_exchange++;
    }
}

/* --- the command list */

static void start_sync(struct gpu *g, const struct op *o)
{
    struct sfr *m = g->m;
    uint32_t nt = g->fb.n_tiles;
    uint8_t need = o->depth_only ? 2 : 3;
    for (uint32_t k = 0; k < nt; k++) {
        uint8_t *dty = &g->dirty[o->a * nt + k];
        if (m->owner[k] != g->id || !(*dty & need))
            continue;
        *dty = o->depth_only ? (uint8_t)(*dty & ~2) : 0;
        uint64_t bytes =
            (uint64_t)tile_px(m, k) *
            (o->depth_only ? m->cfg.depth_bytes : m->cfg.color_bytes + m->cfg.depth_bytes);
        for (unsigned r = 0; r < m->n; r++) {
            if (r == g->id)
                continue;
            struct msg *x = new_msg(m, MT_SYNC_TILE, o->seq);
            x->addr = k, x->ts2 = o->a, x->flags = o->depth_only;
            memcpy(x->data, gfx_fb_at(&g->fb, o->a, k), sizeof(struct gfx_px));
            send_must(m, g->id, r, &m->ctrl[g->id][r], x, bytes, SFR_T_SYNC);
        }
    }
    for (unsigned r = 0; r < m->n; r++)
        if (r != g->id)
            send_must(m, g->id, r, &m->ctrl[g->id][r], new_msg(m, MT_SYNC_END, o->seq), 0,
                      SFR_T_SYNC);
}

static void start_cgroup(struct gpu *g, const struct op *o)
{
    struct sfr *m = g->m;
    for (uint32_t i = 0; i < g->n_touched; i++) {
        uint32_t k = g->touched_list[i];
        g->touched[k] = 0;
        g->map[k] = (struct gfx_map){0, 1};
    }
    g->n_touched = 0;
    g->composing = false;
    g->ordered = gfx_draw_ordered(&m->t->draws[m->t->groups[o->a].first]);
    g->n_sent = g->n_recv = 0;
    g->lo = g->hi = g->id;
    g->bg_done = false;
    g->cursor = o->first;
    for (unsigned r = 0; r < m->n; r++)
        g->stream_pos[r] = 0, g->streaming[r] = false;
}

/* Advance the op at pc by one step; false when it must wait. */
static bool op_step(struct gpu *g)
{
    struct sfr *m = g->m;
    const struct op *o = cur_op(g);
    bool first = !g->started;
    g->started = true;
    bool done = false;
    switch (o->kind) {
    case OP_DRAW:
        if (first) {
            start_draw(g, o->a, o->mode, false);
            return true;
        }
        done = draw_step(g);
        break;
    case OP_SYNC:
        if (first)
            start_sync(g, o);
        g->wait_act = SFR_WAIT_SYNC;
        done = g->sync_recv[o->seq] == m->n - 1;
        if (!done)
            return false;
        break;
    case OP_PROJECT: {
        if (first) {
            const struct batch *b = &m->batches[o->a];
            double cyc = 0;
            for (uint32_t d = b->first; d < b->first + b->n; d++)
                cyc += m->t->draws[d].tris * m->t->draws[d].gcpt;
            busy(g, SFR_PROJECT, cyc / m->n * m->cfg.gpupd_project_fraction);
            return true;
        }
        g->proj_done[o->a] = 1;
        done = true;
        break;
    }
    case OP_BATCH: {
        const struct batch *b = &m->batches[o->a];
        if (first)
            g->cursor = b->first;
        if (g->draw >= 0) {
            draw_step(g);
            return true;
        }
        if (g->ids_recv[o->a] < m->n - 1) {
            g->wait_act = SFR_WAIT_IDS;
            return false;
        }
        if (g->cursor < b->first + b->n) {
            start_draw(g, g->cursor++, M_OWNED, false);
            return true;
        }
        done = true;
        break;
    }
    case OP_CGROUP:
        if (first)
            start_cgroup(g, o);
        if (g->draw >= 0) {
            draw_step(g);
            return true;
        }
        if (!g->composing) {
            if (!g->ordered) {
                if (!g->dq_n) {
                    g->wait_act = SFR_WAIT_DRAWS;
                    return false;
                }
                uint32_t e = g->dq[g->dq_head];
                g->dq_head = (g->dq_head + 1) % g->dq_cap, g->dq_n--;
                if (e < m->t->n_draws) {
                    start_draw(g, e, M_FULL, true);
                } else {
                    panic_if(e != ~o->a, "%s: end of group %u while in group %u", g->name, ~e,
                             o->a);
                    send_ready(g);
                }
                return true;
            }
            if (g->cursor < o->first + o->n) {
                start_draw(g, g->cursor++, M_FULL, false);
                return true;
            }
            send_ready(g);
            return true;
        }
        g->wait_act = SFR_WAIT_COMPOSE;
        if (g->n_sent < m->n - 1 || g->n_recv < m->n - 1)
            return false;
        if (g->ordered && !g->bg_done) { /* compose the interval with the background */
            g->bg_done = true;
            uint32_t rt = m->t->draws[m->t->groups[o->a].first].rt;
            double px = 0;
            for (uint32_t i = 0; i < g->n_touched; i++) {
                uint32_t k = g->touched_list[i];
                if (m->owner[k] != g->id)
                    continue;
                struct gfx_px *dst = gfx_fb_at(&g->fb, rt, k);
                dst->color = gfx_map_apply(g->map[k], dst->color);
                mark_dirty(g, rt, k, false);
                px += tile_px(m, k);
            }
            busy(g, SFR_COMPOSE, px / m->cfg.rop_px_per_cycle);
            return true;
        }
        done = true;
        break;
    }
    if (done) {
        g->pc++;
        g->started = false;
    }
    return true;
}

static bool gpu_tick(struct comp *c)
{
    struct gpu *g = container_of(c, struct gpu, c);
    struct sfr *m = g->m;
    if (g->finished)
        return false;
    take_ctrl(g);
    for (;;) {
        gpupd_exchange(g);
        pump_streams(g);
        if (c->eng->now < g->busy_until) {
            comp_wake_at(c, g->busy_until);
            return false;
        }
        if (try_compose(g))
            continue;
        if (g->pc == g->n_ops) {
            if (g->next_exchange < m->n_batches) { /* GPUpd: its IDs are still owed */
                g->wait_act = SFR_WAIT_IDS;
                return false;
            }
            account_wait(g);
            g->finished = true;
            c->eng->n_outstanding--;
            eng_progress(c->eng);
            return false;
        }
        if (!op_step(g))
            break;
        eng_progress(c->eng);
    }
    gpupd_exchange(g);
    pump_streams(g);
    return false;
}

/* --- the schedulers */

static bool dcs_tick(struct comp *c)
{
    struct dcs *s = container_of(c, struct dcs, c);
    struct sfr *m = s->m;
    for (unsigned g = 0; g < m->n; g++) {
        struct msg *x;
        while ((x = port_peek(&m->to_dcs[g]))) {
            port_pop(&m->to_dcs[g]);
            if (x->type == MT_PROGRESS)
                s->done[g] = x->ts;
            else
                s->outstanding[g]--;
            msg_free(&m->msgs, x);
        }
    }
    while (s->gi < s->n_groups) {
        const struct gfx_group *gr = &m->t->groups[s->groups[s->gi]];
        if (s->next == gr->first + gr->n) {
            for (unsigned g = 0; g < m->n; g++)
                send_must(m, 0, g, &m->from_dcs[g], new_msg(m, MT_GROUP_END, s->groups[s->gi]),
                          m->cfg.sched_msg_bytes, SFR_T_SCHED);
            s->gi++;
            if (s->gi < s->n_groups)
                s->next = m->t->groups[s->groups[s->gi]].first;
            continue;
        }
        int best = -1; /* fewest triangles left in geometry among GPUs with queue room */
        for (unsigned g = 0; g < m->n; g++)
            if (s->outstanding[g] < m->cfg.queue_draws &&
                (best < 0 || s->sched[g] - s->done[g] < s->sched[best] - s->done[best]))
                best = (int)g;
        if (best < 0)
            break;
        s->sched[best] += m->t->draws[s->next].tris;
        s->outstanding[best]++;
        send_must(m, 0, (unsigned)best, &m->from_dcs[best], new_msg(m, MT_DRAW, s->next),
                  m->cfg.sched_msg_bytes, SFR_T_SCHED);
        s->next++;
    }
    return false;
}

#define ICS_STARTED (TICK_MAX - 1) /* since[][]: the pair has been started */

/* Pair receivers with senders (Table 6.1's fields): both ready in the same
 * group, the receiver not yet composed from the sender, neither busy with
 * ics.pairs pairings already. A pair found ready but held back because one
 * side is busy is counted, with the time it is held (CompSched's decisions). */
static void ics_match(struct ics *s)
{
    struct sfr *m = s->m;
    uint32_t all = (1u << m->n) - 1;
    tick_t now = m->eng.now;
    for (unsigned r = 0; r < m->n; r++) {
        if (!s->ready[r] || (s->received[r] | 1u << r) == all)
            continue;
        unsigned cand[SFR_MAX_GPUS], n_cand = 0;
        if (gfx_draw_ordered(&m->t->draws[m->t->groups[s->cgid[r]].first])) {
            /* only the GPUs next to the composed interval [lo, hi] (spec 004b §3.6) */
            if (s->hi[r] + 1 < m->n)
                cand[n_cand++] = s->hi[r] + 1;
            if (s->lo[r] > 0)
                cand[n_cand++] = s->lo[r] - 1;
        } else {
            for (unsigned i = 1; i < m->n; i++)
                cand[n_cand++] = (r + i) % m->n;
        }
        for (unsigned i = 0; i < n_cand; i++) {
            unsigned c = cand[i];
            if (!s->ready[c] || s->cgid[c] != s->cgid[r] || (s->received[r] >> c & 1) ||
                s->since[r][c] == ICS_STARTED)
                continue;
            if (s->since[r][c] == TICK_MAX)
                s->since[r][c] = now;
            if (s->receiving[r] >= m->cfg.ics_pairs || s->sending[c] >= m->cfg.ics_pairs)
                continue;
            s->sending[c]++, s->receiving[r]++;
            s->pairs++;
            if (now > s->since[r][c])
                s->held++, s->held_ps += now - s->since[r][c];
            s->since[r][c] = ICS_STARTED;
            struct msg *x = new_msg(m, MT_START, s->cgid[r]);
            x->sharer = r;
            send_ics(m, 0, c, &m->from_ics[c], x);
        }
    }
}

static bool ics_tick(struct comp *c)
{
    struct ics *s = container_of(c, struct ics, c);
    struct sfr *m = s->m;
    for (unsigned g = 0; g < m->n; g++) {
        struct msg *x;
        while ((x = port_peek(&m->to_ics[g]))) {
            port_pop(&m->to_ics[g]);
            if (x->type == MT_READY) { /* a new CGID: the entry starts over */
                s->ready[g] = true, s->cgid[g] = (uint32_t)x->ts;
                s->lo[g] = s->hi[g] = g;
                s->received[g] = s->sent[g] = 0;
                for (unsigned q = 0; q < m->n; q++)
                    s->since[g][q] = s->since[q][g] = TICK_MAX;
            } else { /* MT_DONE: GPU g composed everything `sharer` sent */
                unsigned snd = x->sharer;
                s->receiving[g]--, s->sending[snd]--;
                s->received[g] |= 1u << snd;
                if (s->cgid[snd] == x->ts) /* the sender may have moved on to its next group */
                    s->sent[snd] |= 1u << g;
                if (snd + 1 == s->lo[g])
                    s->lo[g] = snd;
                else if (snd == s->hi[g] + 1)
                    s->hi[g] = snd;
            }
            msg_free(&m->msgs, x);
        }
    }
    ics_match(s);
    return false;
}

/* --- building the machine and the command lists */

static void push_op(struct gpu *g, struct op o)
{
    if (g->n_ops == g->cap_ops) {
        g->cap_ops = g->cap_ops ? 2 * g->cap_ops : 256;
        g->ops = realloc(g->ops, g->cap_ops * sizeof *g->ops);
        if (!g->ops)
            panic("out of memory");
    }
    g->ops[g->n_ops++] = o;
}

static void push_all(struct sfr *m, struct op o)
{
    for (unsigned g = 0; g < m->n; g++)
        push_op(&m->gpu[g], o);
}

static void *zalloc(size_t n)
{
    void *p = calloc(n ? n : 1, 1);
    if (!p)
        panic("out of memory");
    return p;
}

static void build_lists(struct sfr *m)
{
    const struct gfx_trace *t = m->t;
    bool chopin = m->design >= SFR_CHOPIN;
    bool gpupd = m->design == SFR_GPUPD || m->design == SFR_GPUPD_IDEAL;
    uint32_t seq = 0;
    m->batches = zalloc((t->n_draws + 1) * sizeof *m->batches);
    m->dcs.groups = zalloc(t->n_groups * sizeof *m->dcs.groups);
    /* GPUpd: the batches, and where render-target switches fall between them */
    uint8_t *sync_before = zalloc(t->n_draws + 1);
    for (uint32_t gi = 1; gi < t->n_groups; gi++)
        if (t->draws[t->groups[gi].first].rt != t->draws[t->groups[gi - 1].first].rt)
            sync_before[t->groups[gi].first] = 1;
    if (gpupd)
        for (uint32_t d = 0; d < t->n_draws; d++) {
            struct batch *b = &m->batches[m->n_batches ? m->n_batches - 1 : 0];
            if (!m->n_batches || sync_before[d] || b->tris >= m->cfg.gpupd_batch_tris) {
                b = &m->batches[m->n_batches++];
                b->first = d;
            }
            b->n++;
            b->tris += t->draws[d].tris;
        }
    uint32_t runahead = m->design == SFR_GPUPD_IDEAL ? m->n_batches : m->cfg.gpupd_runahead;
    uint32_t projected = 0, bi = 0;
    for (uint32_t gi = 0; gi < t->n_groups; gi++) {
        const struct gfx_group *gr = &t->groups[gi];
        const struct gfx_draw *d0 = &t->draws[gr->first];
        if (gi && sync_before[gr->first])
            push_all(m,
                     (struct op){.kind = OP_SYNC, .a = t->draws[gr->first - 1].rt, .seq = seq++});
        if (gpupd) {
            while (bi < m->n_batches && m->batches[bi].first < gr->first + gr->n) {
                while (projected < m->n_batches && projected <= bi + runahead)
                    push_all(m, (struct op){.kind = OP_PROJECT, .a = projected++});
                push_all(m, (struct op){.kind = OP_BATCH, .a = bi++});
            }
        } else if (!chopin || gr->tris < m->cfg.threshold_tris) {
            for (uint32_t d = gr->first; d < gr->first + gr->n; d++)
                push_all(m, (struct op){.kind = OP_DRAW, .mode = M_DUP, .a = d});
        } else {
            m->groups_composed++;
            m->tris_composed += gr->tris;
            if (gfx_draw_ordered(d0)) { /* consecutive chunks of equal triangle counts */
                push_all(m,
                         (struct op){.kind = OP_SYNC, .a = d0->rt, .depth_only = 1, .seq = seq++});
                uint64_t acc = 0;
                uint32_t first[SFR_MAX_GPUS + 1] = {0};
                unsigned g = 0;
                first[0] = gr->first;
                for (uint32_t d = gr->first; d < gr->first + gr->n; d++) {
                    uint64_t mid = acc + t->draws[d].tris / 2;
                    while (g + 1 < m->n && mid * m->n >= (uint64_t)(g + 1) * gr->tris)
                        first[++g] = d;
                    acc += t->draws[d].tris;
                }
                while (g + 1 < m->n)
                    first[++g] = gr->first + gr->n;
                first[m->n] = gr->first + gr->n;
                for (g = 0; g < m->n; g++)
                    push_op(&m->gpu[g], (struct op){.kind = OP_CGROUP,
                                                    .a = gi,
                                                    .first = first[g],
                                                    .n = first[g + 1] - first[g]});
            } else {
                push_all(m, (struct op){.kind = OP_CGROUP, .a = gi});
                m->dcs.groups[m->dcs.n_groups++] = gi;
            }
        }
    }
    free(sync_before);
    for (unsigned g = 0; g < m->n; g++) {
        m->gpu[g].sync_recv = zalloc((seq + 1) * sizeof(uint32_t));
        m->gpu[g].ids_recv = zalloc((m->n_batches + 1) * sizeof(uint32_t));
        m->gpu[g].proj_done = zalloc(m->n_batches + 1);
        m->gpu[g].token = zalloc(m->n_batches + 1);
        m->gpu[g].dq_cap = m->cfg.queue_draws + m->dcs.n_groups + 4;
        m->gpu[g].dq = zalloc(m->gpu[g].dq_cap * sizeof(uint32_t));
    }
    if (m->dcs.n_groups)
        m->dcs.next = t->groups[m->dcs.groups[0]].first;
}

static void gpu_dump(struct comp *c, FILE *out)
{
    struct gpu *g = container_of(c, struct gpu, c);
    const struct op *o = cur_op(g);
    fprintf(out,
            "  %s: op %u/%u kind %d arg %u started %d draw %lld composing %d sent %u recv %u "
            "lo %u hi %u queue %u\n",
            g->name, g->pc, g->n_ops, o ? o->kind : -1, o ? o->a : 0, g->started,
            (long long)g->draw, g->composing, g->n_sent, g->n_recv, g->lo, g->hi, g->dq_n);
}

void sfr_run(const struct gfx_trace *t, const struct sfr_config *cfg, enum sfr_design design,
             struct sfr_result *r, struct gfx_fb *final)
{
    struct sfr *m = zalloc(sizeof *m);
    m->t = t, m->cfg = *cfg, m->design = design, m->n = cfg->gpus;
    if (design == SFR_GPUPD_IDEAL || design == SFR_CHOPIN_IDEAL) {
        m->cfg.link_gbps = 0, m->cfg.link_latency_cycles = 0, m->cfg.rx_buffer_tiles = 0;
    }
    unsigned n = m->n;
    uint32_t nt = t->tiles_x * t->tiles_y;
    eng_init(&m->eng);
    m->clk = (struct clock){"gpu", clock_period_ps(m->cfg.mhz)};
    msg_pool_init(&m->msgs);
    m->owner = zalloc(nt);
    for (uint32_t k = 0; k < nt; k++)
        m->owner[k] = (uint8_t)((k % t->tiles_x + k / t->tiles_x) % n);
    m->own_frac = zalloc((size_t)t->n_draws * n * sizeof(double));
    for (uint32_t d = 0; d < t->n_draws; d++) {
        const struct gfx_draw *dr = &t->draws[d];
        double px[SFR_MAX_GPUS] = {0}, all = 0;
        for (uint32_t y = dr->ty; y < dr->ty + dr->th; y++)
            for (uint32_t x = dr->tx; x < dr->tx + dr->tw; x++) {
                double p = gfx_tile_pixels(t, x, y);
                px[m->owner[y * t->tiles_x + x]] += p;
                all += p;
            }
        for (unsigned g = 0; g < n; g++)
            m->own_frac[(size_t)d * n + g] = px[g] / all;
    }
    for (unsigned g = 0; g < n; g++) {
        struct gpu *G = &m->gpu[g];
        G->m = m, G->id = g, G->draw = -1;
        snprintf(G->name, sizeof G->name, "gpu%u", g);
        comp_init(&G->c, &m->eng, G->name, &m->clk, gpu_tick, gpu_dump);
        gfx_fb_init(&G->fb, nt);
        G->dirty = zalloc((size_t)GFX_MAX_RTS * nt);
        G->sub = zalloc(nt * sizeof *G->sub);
        G->map = zalloc(nt * sizeof *G->map);
        for (uint32_t k = 0; k < nt; k++)
            G->map[k] = (struct gfx_map){0, 1};
        G->touched = zalloc(nt);
        G->touched_list = zalloc(nt * sizeof(uint32_t));
        for (unsigned q = 0; q < n; q++)
            G->send_list[q] = zalloc(nt * sizeof(uint32_t));
    }
    m->free_transit = NO_TRANSIT;
    m->dcs.m = m, m->ics.m = m;
    comp_init(&m->dcs.c, &m->eng, "dcs", &m->clk, dcs_tick, NULL);
    comp_init(&m->ics.c, &m->eng, "ics", &m->clk, ics_tick, NULL);
    tick_t lat = cycles_ps(m, m->cfg.link_latency_cycles);
    uint32_t big = 1u << 30;
    uint32_t rx = m->cfg.rx_buffer_tiles ? m->cfg.rx_buffer_tiles + 1 : big;
    for (unsigned s = 0; s < n; s++) {
        tick_t l0 = s ? lat : 0, li = m->cfg.ics_free_messages ? 0 : l0;
        p2p_init(&m->port_out[s], m->cfg.link_gbps * 1e9);
        p2p_init(&m->port_in[s], m->cfg.link_gbps * 1e9);
        port_init(&m->to_dcs[s], "to_dcs", big, l0, &m->gpu[s].c, &m->dcs.c);
        port_init(&m->to_ics[s], "to_ics", big, li, &m->gpu[s].c, &m->ics.c);
        port_init(&m->from_dcs[s], "from_dcs", big, l0, &m->dcs.c, &m->gpu[s].c);
        port_init(&m->from_ics[s], "from_ics", big, li, &m->ics.c, &m->gpu[s].c);
        for (unsigned q = 0; q < n; q++) {
            p2p_init(&m->link[s][q], m->cfg.link_gbps * 1e9);
            port_init(&m->tile[s][q], "tile", rx, s == q ? 0 : lat, &m->gpu[s].c, &m->gpu[q].c);
            port_init(&m->ctrl[s][q], "ctrl", big, s == q ? 0 : lat, &m->gpu[s].c, &m->gpu[q].c);
        }
    }
    build_lists(m);
    m->eng.n_outstanding = n;
    for (unsigned g = 0; g < n; g++)
        comp_wake(&m->gpu[g].c);
    comp_wake(&m->dcs.c);
    eng_run(&m->eng, TICK_MAX);
    if (m->eng.n_outstanding) {
        eng_dump_all(&m->eng, stderr);
        panic("sfr: the frame did not finish (%llu GPUs still working): deadlock",
              (unsigned long long)m->eng.n_outstanding);
    }

    memset(r, 0, sizeof *r);
    tick_t end = 0;
    for (unsigned g = 0; g < n; g++) {
        end = MAX(end, m->gpu[g].mark);
        r->gpu_cycles[g] = m->gpu[g].mark / m->clk.period_ps;
        for (unsigned a = 0; a < SFR_N_ACT; a++)
            r->activity[a] += (double)m->gpu[g].act[a] / m->clk.period_ps / n;
    }
    r->cycles = end / m->clk.period_ps;
    memcpy(r->traffic, m->traffic, sizeof r->traffic);
    r->messages = m->n_msgs;
    r->geometry_tris = m->geometry_tris;
    r->shaded_px = m->shaded_px;
    r->groups_composed = m->groups_composed;
    r->tris_composed = m->tris_composed;
    r->events = m->eng.n_events;
    r->ics_pairs = m->ics.pairs;
    r->ics_pairs_held = m->ics.held;
    r->ics_hold_cycles = (double)m->ics.held_ps / m->clk.period_ps / n;
    r->tiles_refused = m->tiles_refused;
    struct gfx_fb ref;
    gfx_render_sequential(t, &ref);
    if (final)
        gfx_fb_init(final, nt);
    for (uint32_t rt = 0; rt < GFX_MAX_RTS; rt++)
        for (uint32_t k = 0; k < nt; k++) {
            struct gfx_px *p = gfx_fb_at(&m->gpu[m->owner[k]].fb, rt, k);
            struct gfx_px *q = gfx_fb_at(&ref, rt, k);
            if (p->color != q->color || p->depth != q->depth || p->id != q->id)
                r->wrong_tiles++;
            if (final)
                *gfx_fb_at(final, rt, k) = *p;
        }
    gfx_fb_free(&ref);

    for (unsigned s = 0; s < n; s++) {
        port_destroy(&m->to_dcs[s]), port_destroy(&m->to_ics[s]);
        port_destroy(&m->from_dcs[s]), port_destroy(&m->from_ics[s]);
        for (unsigned q = 0; q < n; q++)
            port_destroy(&m->tile[s][q]), port_destroy(&m->ctrl[s][q]);
    }
    for (unsigned g = 0; g < n; g++) {
        struct gpu *G = &m->gpu[g];
        for (unsigned s = 0; s < n; s++)
            for (struct msg *x = G->stash[s], *nx; x; x = nx)
                nx = x->next, msg_free(&m->msgs, x);
        gfx_fb_free(&G->fb);
        free(G->ops), free(G->dirty), free(G->sub), free(G->map), free(G->touched);
        free(G->touched_list), free(G->sync_recv), free(G->ids_recv), free(G->proj_done);
        free(G->token), free(G->dq);
        for (unsigned q = 0; q < n; q++)
            free(G->send_list[q]);
    }
    free(m->batches), free(m->dcs.groups), free(m->owner), free(m->own_frac), free(m->transit);
    pool_destroy(&m->msgs);
    eng_destroy(&m->eng);
    free(m);
}
