/*
 * mg_dir.c - the directory of the multi-GPM L2 bank (nhcc, hmg, ideal-mg;
 * spec 004b §2.3-2.4, thesis Table 5.1) and the invalidations it sends and
 * takes.
 *
 * Every home bank keeps V/I per region of dir_lines lines with a sharer
 * vector of GPMs, no transient states: a read from another GPM records it, a
 * write or atomic invalidates every other sharer, a write of the home's own
 * GPM every sharer, an eviction every sharer (MG_F_EVICT, Fig. 5.11). In hmg
 * the GPU home keeps one for its GPMs too, and passes an invalidation from
 * the system home on to them. Invalidations go only on read-write sharing
 * and directory evictions and are acknowledged only for the counted release
 * completion (mg_release.c); at a sharer they drop the region's copies and
 * have its reads out now (IR) not install their answers (IRX, mg_l2.c).
 * DEVIATION: the directory covers dir_lines consecutive lines of one bank's
 * interleave (a bank's lines are every banks-th line), not 4 adjacent lines
 * of the address space, which would fall in 4 banks.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "coh/mg/mg_l2_int.h"

/* ---- the directory (nhcc, hmg) ---- */

static addr_t dir_key(const struct mg_l2 *c, addr_t line)
{
    uint64_t li = line / c->base.line_bytes / c->banks;
    return (li / c->dir_lines) * 16; /* the directory array's 16-byte "lines" */
}

/* Every line of a directory entry's region. */
static addr_t region_line(const struct mg_l2 *c, addr_t key, unsigned k)
{
    uint64_t li = (key / 16) * c->dir_lines + k;
    return (li * c->banks + c->base.w.index) * c->base.line_bytes;
}

/* `evict`: the invalidations a directory eviction causes (MG_F_EVICT). */
static void send_inv(struct mg_l2 *c, addr_t key, uint64_t sharers, bool evict)
{
    if (c->f.bug_forgets_inv && !evict)
        return;
    for (unsigned g = 0; g < c->n_gpms; g++)
        if (sharers >> g & 1) {
            struct msg *m =
                msg_new(c->base.w.msgs, MSG_MG_INV, region_line(c, key, 0), c->base.comp.eng->now);
            c->st.invs_sent++;
            if (evict) {
                m->flags |= MG_F_EVICT;
                c->st.evict_invs++;
            }
            if (c->counted) { /* acknowledged: to this generation and the slot at work */
                m->ts = mg_gen_count(c);
                m->sharer = (uint32_t)(c->inv_slot + 1);
                if (c->inv_slot >= 0)
                    mg_slot_count(c, &c->rel[c->inv_slot]);
            }
            mg_sys_send(c, m, g, NC_VNET_REQ, MSG_MG_INV, TRAFFIC_INV, 0);
        }
}

#define MG_DIR_STATES(X)                                                                           \
    X(I, "no entry: no other GPM is known to cache the region")                                    \
    X(V, "an entry with the GPMs that may cache lines of the region")

#define MG_DIR_EVENTS(X)                                                                           \
    X(LocalSt, "a write or atomic from this GPM's L1s")                                            \
    X(RemoteLd, "a read from another GPM")                                                         \
    X(RemoteSt, "a write or atomic from another GPM")                                              \
    X(Replace, "the entry's way is needed for another region")                                     \
    X(Inv, "hmg, at a GPU home: an invalidation from the system home")

#define X(n, d) MD_##n,
enum md_state { MG_DIR_STATES(X) MD_NSTATES };
enum md_event { MG_DIR_EVENTS(X) MD_NEVENTS };
#undef X

COH_NAMES(MG_DIR_STATES, MG_DIR_EVENTS);

/* x->line is the entry (taken for I); x->msg the request (NULL for Replace). */
static void dir_take(struct coh_ctx *x)
{
    struct mg_l2 *c = mg_of(x->ctrl);
    struct cache_line *way = cache_victim(&c->dir, x->addr, NULL, NULL);
    cache_install(&c->dir, way, x->addr);
    way->meta[0] = 0;
    x->line = way;
}

static void dir_add_sender(struct coh_ctx *x)
{
    struct mg_l2 *c = mg_of(x->ctrl);
    x->line->meta[0] |= 1ull << (x->msg->src / c->banks);
    cache_touch(&c->dir, x->line);
}

static void dir_inv_all(struct coh_ctx *x)
{
    bool evict = x->event == MD_Replace ||
                 (x->event == MD_Inv && (x->msg->flags & MG_F_EVICT)); /* passed on */
    send_inv(mg_of(x->ctrl), x->addr, x->line->meta[0], evict);
}

static void dir_inv_others(struct coh_ctx *x)
{
    struct mg_l2 *c = mg_of(x->ctrl);
    send_inv(c, x->addr, x->line->meta[0] & ~(1ull << (x->msg->src / c->banks)), false);
}

static void dir_free(struct coh_ctx *x)
{
    struct mg_l2 *c = mg_of(x->ctrl);
    if (x->event == MD_Replace)
        c->st.dir_evictions++;
    cache_remove(&c->dir, x->line);
    x->line = NULL;
}

static void dir_set_state(struct coh_ctx *x, unsigned next)
{
    if (x->line)
        x->line->state = (uint8_t)next;
}

static void dir_dump(struct coh_ctx *x, FILE *out)
{
    if (x->line)
        fprintf(out, "  directory entry %#llx: sharers %#llx\n", (unsigned long long)x->addr,
                (unsigned long long)x->line->meta[0]);
}

static const struct coh_action_name actions[] = {
    {dir_take, "take_entry", "allocate an entry (a full set replaces its LRU entry first)"},
    {dir_add_sender, "add_sharer", "record the requesting GPM"},
    {dir_inv_all, "inv_all", "invalidate every sharer (unacknowledged)"},
    {dir_inv_others, "inv_others", "invalidate every sharer but the writer (unacknowledged)"},
    {dir_free, "free_entry", "free the entry"},
    {ctrl_nothing, "nothing", "no action: the home holds no entry for the line"},
    {0},
};

/*  state      event            next   uses     actions                                      */
static const struct coh_trans mg_dir_cells[MD_NSTATES][MD_NEVENTS] = {
    [MD_I][MD_LocalSt] = DO(MD_I, TAG_RD, ctrl_nothing),
    [MD_I][MD_RemoteLd] = DO(MD_V, TAG_RD | TAG_WR, dir_take, dir_add_sender),
    [MD_I][MD_RemoteSt] = DO(MD_V, TAG_RD | TAG_WR, dir_take, dir_add_sender),
    [MD_V][MD_LocalSt] = DO(MD_I, TAG_RD | TAG_WR, dir_inv_all, dir_free),
    [MD_V][MD_RemoteLd] = DO(MD_V, TAG_RD | TAG_WR, dir_add_sender),
    [MD_V][MD_RemoteSt] = DO(MD_V, TAG_RD | TAG_WR, dir_add_sender, dir_inv_others),
    [MD_V][MD_Replace] = DO(MD_I, TAG_WR, dir_inv_all, dir_free),
    [MD_I][MD_Inv] = DO(MD_I, TAG_RD, ctrl_nothing),
    [MD_V][MD_Inv] = DO(MD_I, TAG_RD | TAG_WR, dir_inv_all, dir_free),
};

const struct coh_table mg_dir_table =
    COH_TABLE("nhcc/hmg", "Dir", mg_dir_cells, dir_set_state, dir_dump);

/* Run the directory for request m at its home (once per request). */
void mg_dir_step(struct mg_l2 *c, struct msg *m, bool write)
{
    if (!c->f.directory || (m->flags & MG_F_DIR))
        return;
    m->flags |= MG_F_DIR;
    bool remote = m->flags & MG_F_SYS;
    if (!remote && !write)
        return; /* Table 5.1: a local read changes nothing */
    struct coh_ctx x = {.ctrl = c,
                        .ctrl_name = c->base.w.name,
                        .eng = c->base.comp.eng,
                        .addr = dir_key(c, m->addr),
                        .msg = m};
    x.line = cache_find(&c->dir, x.addr);
    if (!x.line && remote) { /* a full set gives up its LRU entry first */
        struct cache_line *way = cache_victim(&c->dir, x.addr, NULL, NULL);
        if (way->present) {
            struct coh_ctx v = {.ctrl = c,
                                .ctrl_name = c->base.w.name,
                                .eng = x.eng,
                                .addr = way->addr,
                                .line = way,
                                .state = MD_V,
                                .event = MD_Replace};
            coh_step(&mg_dir_table, &c->base.w.cov[MG_COV_DIR], &v);
        }
    }
    x.state = x.line ? MD_V : MD_I;
    x.event = !remote ? MD_LocalSt : write ? MD_RemoteSt : MD_RemoteLd;
    coh_step(&mg_dir_table, &c->base.w.cov[MG_COV_DIR], &x);
}

/* At a sharer: drop the region's copies (and have its reads out now not
 * install their answers); at a GPU home (hmg) also pass it on to its GPMs. */
void mg_dir_take_inv(struct mg_l2 *c, struct msg *m)
{
    struct ctrl *b = &c->base;
    c->st.invs_received++;
    for (unsigned k = 0; k < c->dir_lines; k++) { /* copies, and reads out now (IR) */
        addr_t line = region_line(c, dir_key(c, m->addr), k);
        struct coh_ctx x;
        ctrl_lookup(b, &x, line);
        if ((x.state == ML2_V && mg_sys_home(c, line, false) != c->gpm) || x.state == ML2_IR) {
            c->st.evict_lines_invalidated += x.state == ML2_V && (m->flags & MG_F_EVICT) != 0;
            ctrl_fire(b, line, NULL, ML2_Inv);
        } else if (x.line)
            mg_stale_fetch(c, x.line);
    }
    struct mg_rel *r = NULL;
    if (c->f.hier && mg_gpu_home(c, mg_sys_home(c, m->addr, false)) == c->gpm) {
        /* Table 5.1's HMG-only cell: a GPU home passes it on to its GPMs
         * (counted: and acknowledges once they have it) */
        if (c->counted) {
            r = mg_slot_take(c, MG_SLOT_INV, m);
            c->inv_slot = (int)(r - c->rel);
        }
        struct coh_ctx x = {.ctrl = c,
                            .ctrl_name = b->w.name,
                            .eng = b->comp.eng,
                            .addr = dir_key(c, m->addr),
                            .msg = m,
                            .event = MD_Inv};
        x.line = cache_find(&c->dir, x.addr);
        x.state = x.line ? MD_V : MD_I;
        coh_step(&mg_dir_table, &b->w.cov[MG_COV_DIR], &x);
        c->inv_slot = -1;
    }
    if (r)
        mg_slot_check(c, r);
    else if (c->counted)
        mg_sys_send(c, m, m->src / c->banks, NC_VNET_RSP, MSG_MG_INVACK, TRAFFIC_INV, 0);
    else
        msg_free(b->w.msgs, m);
}
