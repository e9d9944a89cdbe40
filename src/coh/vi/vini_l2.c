/*
 * vini_l2.c - the L2 bank of GPU-VIni: GPU-VI with a non-inclusive L2 and a
 * separate sparse directory managed by the same controller.
 *
 * Spec 002 §3.5 (paper §4.3, §8.5): the sharer vectors live in a directory
 * decoupled from the data array - set-associative (vi.dir_ways, 8 by
 * default) with vi.dir_ratio (R = 2 by default, Martin et al.) entries per
 * L1 line of the machine, banked with the L2. Evicting L2 data does not
 * recall: the entry keeps tracking the copies while the data lives in DRAM
 * (state D). Evicting a directory entry does: every copy is invalidated
 * (class RCL) and acknowledged first. Writes and atomics invalidate the
 * sharers the directory names whether or not the L2 holds the data; the
 * bank is write-allocate, so a request to a D line first fetches the data
 * (DV) and then proceeds as for S. An entry is allocated when a read records
 * its first sharer and freed when the vector is known empty (an atomic, a
 * recall); writes keep it (the writer's copy stays valid, Opt 1).
 * States: V = data, no entry (no L1 holds a copy); S = data and entry;
 * D = entry only; the transients as in vi_l2.c, plus DV (fetch with an
 * entry) and D_R (recall of an entry whose data is not in the L2).
 * INVARIANT: an L1 copy exists only for lines with a directory entry, and
 *   only in L1s its vector names or that are being invalidated.
 * DEVIATION: the spec's IS/IM are one state IV (see vi_l2.c); a directory
 *   victim is chosen only when a read needs an entry, and the request that
 *   needed it retries while the victim is recalled.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>

#include "base/bits.h"
#include "base/log.h"
#include "coh/vi/vi_bank.h"
#include "coh/machine_view.h"
#include "coh/vi/vi_options.h"

#define VINI_STATES(X)                                                                             \
    X(I, "not present, no directory entry")                                                        \
    X(V, "data valid, no directory entry: no L1 holds a copy")                                     \
    X(S, "data valid; the entry's vector names every L1 that may hold a copy")                     \
    X(D, "directory entry only: L1s may hold copies, the data is in DRAM")                         \
    X(IV, "way taken, fill from DRAM outstanding, no entry; requests parked")                      \
    X(DV, "way taken, fill from DRAM outstanding, entry kept; requests parked")                    \
    X(S_W, "write waiting for invalidation acks; the new value held in the TBE")                   \
    X(S_A, "atomic waiting for invalidation acks")                                                 \
    X(S_R, "directory eviction recalling the copies of an L2-resident line")                       \
    X(D_R, "directory eviction recalling the copies of a line not in the L2")

#define VINI_EVENTS(X)                                                                             \
    X(GetS, "read request from an L1")                                                             \
    X(Write, "write-through; no L1 but the writer's may hold a copy")                              \
    X(WriteInv, "write-through; other L1s may hold copies")                                        \
    X(Atomic, "atomic; no L1 but the requester's may hold a copy")                                 \
    X(AtomicInv, "atomic; other L1s may hold copies")                                              \
    X(Replace, "a miss needs this line's data way (never recalls)")                                \
    X(DirReplace, "a read needs this line's directory entry; its vector is empty")                 \
    X(DirRecall, "a read needs this line's directory entry; L1s may hold copies")                  \
    X(MemData, "fill from DRAM")                                                                   \
    X(InvAck, "invalidation ack, more expected")                                                   \
    X(LastAck, "the last invalidation ack")

#define X(n, d) VN_##n,
enum vini_state { VINI_STATES(X) VN_NSTATES };
enum vini_event { VINI_EVENTS(X) VN_NEVENTS };
#undef X
COH_NAMES(VINI_STATES, VINI_EVENTS);

/* ---- actions (beyond vi_bank.h's) ---- */

static addr_t dir_key(const struct vi_bank *b, addr_t line)
{
    return line >> b->dir_shift;
}

/* Take the free directory way the resource check found for the line. */
static void alloc_entry(struct coh_ctx *x)
{
    struct vi_bank *b = vi_bank_of(x);
    addr_t key = dir_key(b, x->addr);
    struct cache_line *way = cache_victim(&b->dir, key, NULL, NULL);
    panic_if(!way || way->present, "%s: directory allocation without a free way", b->base.w.name);
    cache_install(&b->dir, way, key);
    vi_ctx_of(x)->dir = way;
}

static void free_entry(struct coh_ctx *x)
{
    struct vi_ctx *v = vi_ctx_of(x);
    cache_remove(&vi_bank_of(x)->dir, v->dir);
    v->dir = NULL;
}

static const struct coh_action_name actions[] = {
    VI_BANK_ACTION_NAMES,
    {alloc_entry, "alloc_entry", "take a free directory entry for the line"},
    {free_entry, "free_entry", "free the line's directory entry (no L1 holds a copy)"},
    {0},
};

/* ---- the table ---- */

#define FETCH ctrl_take_way, ctrl_alloc_tbe, ctrl_l2_send_fetch, ctrl_park

/*  state      event             next     uses                 actions                          */
static const struct coh_trans vini_cells[VN_NSTATES][VN_NEVENTS] = {
    [VN_I][VN_GetS] = DO(VN_IV, TAG_RD | TAG_WR, FETCH),
    [VN_I][VN_Write] = DO(VN_IV, TAG_RD | TAG_WR, FETCH),
    [VN_I][VN_Atomic] = DO(VN_IV, TAG_RD | TAG_WR, FETCH),
    [VN_IV][VN_GetS] = STALL,
    [VN_IV][VN_Write] = STALL,
    [VN_IV][VN_Atomic] = STALL,
    [VN_IV][VN_MemData] = DO(VN_V, TAG_WR | DATA_WR, ctrl_l2_fill_line, ctrl_wake_parked),
    [VN_V][VN_GetS] = DO(VN_S, TAG_RD | TAG_WR | DATA_RD, alloc_entry, vi_reply_data),
    [VN_V][VN_Write] = DO(VN_V, TAG_RD | DATA_WR, vi_write_line),
    [VN_V][VN_Atomic] = DO(VN_V, TAG_RD | DATA_RD | DATA_WR, vi_do_atomic),
    [VN_V][VN_Replace] = DO(VN_I, TAG_WR | DATA_RD, ctrl_l2_write_back, vi_drop_line),
    [VN_S][VN_GetS] = DO(VN_S, TAG_RD | TAG_WR | DATA_RD, vi_reply_data),
    [VN_S][VN_Write] = DO(VN_S, TAG_RD | DATA_WR, vi_write_line),
    [VN_S][VN_WriteInv] = DO(VN_S_W, TAG_RD | TAG_WR, ctrl_alloc_tbe, vi_send_invs, ctrl_hold),
    [VN_S][VN_Atomic] = DO(VN_V, TAG_RD | TAG_WR | DATA_RD | DATA_WR, free_entry, vi_do_atomic),
    [VN_S][VN_AtomicInv] =
        DO(VN_S_A, TAG_RD | TAG_WR, ctrl_alloc_tbe, vi_send_invs, vi_clear_sharers, ctrl_hold),
    [VN_S][VN_Replace] = DO(VN_D, TAG_WR | DATA_RD, ctrl_l2_write_back, vi_drop_line),
    [VN_S][VN_DirReplace] = DO(VN_V, TAG_WR, free_entry),
    [VN_S][VN_DirRecall] = DO(VN_S_R, TAG_RD | TAG_WR, ctrl_alloc_tbe, vi_send_recalls),
    [VN_D][VN_GetS] = DO(VN_DV, TAG_RD | TAG_WR, FETCH),
    [VN_D][VN_Write] = DO(VN_DV, TAG_RD | TAG_WR, FETCH),
    [VN_D][VN_WriteInv] = DO(VN_DV, TAG_RD | TAG_WR, FETCH),
    [VN_D][VN_Atomic] = DO(VN_DV, TAG_RD | TAG_WR, FETCH),
    [VN_D][VN_AtomicInv] = DO(VN_DV, TAG_RD | TAG_WR, FETCH),
    [VN_D][VN_DirReplace] = DO(VN_I, TAG_WR, free_entry),
    [VN_D][VN_DirRecall] = DO(VN_D_R, TAG_RD | TAG_WR, ctrl_alloc_tbe, vi_send_recalls),
    [VN_DV][VN_GetS] = STALL,
    [VN_DV][VN_Write] = STALL,
    [VN_DV][VN_WriteInv] = STALL,
    [VN_DV][VN_Atomic] = STALL,
    [VN_DV][VN_AtomicInv] = STALL,
    [VN_DV][VN_MemData] = DO(VN_S, TAG_WR | DATA_WR, ctrl_l2_fill_line, ctrl_wake_parked),
    [VN_S_W][VN_GetS] = STALL,
    [VN_S_W][VN_Write] = STALL,
    [VN_S_W][VN_WriteInv] = STALL,
    [VN_S_W][VN_Atomic] = STALL,
    [VN_S_W][VN_AtomicInv] = STALL,
    [VN_S_W][VN_InvAck] = DO(VN_S_W, 0, ctrl_count_ack),
    [VN_S_W][VN_LastAck] =
        DO(VN_S, TAG_WR | DATA_WR, ctrl_count_ack, vi_perform_held, ctrl_wake_parked),
    [VN_S_A][VN_GetS] = STALL,
    [VN_S_A][VN_Write] = STALL,
    [VN_S_A][VN_Atomic] = STALL,
    [VN_S_A][VN_InvAck] = DO(VN_S_A, 0, ctrl_count_ack),
    [VN_S_A][VN_LastAck] = DO(VN_V, TAG_WR | DATA_RD | DATA_WR, ctrl_count_ack, free_entry,
                              vi_perform_held, ctrl_wake_parked),
    [VN_S_R][VN_GetS] = STALL,
    [VN_S_R][VN_Write] = STALL,
    [VN_S_R][VN_Atomic] = STALL,
    [VN_S_R][VN_InvAck] = DO(VN_S_R, 0, ctrl_count_ack),
    [VN_S_R][VN_LastAck] = DO(VN_V, TAG_WR, ctrl_count_ack, free_entry, ctrl_wake_parked),
    [VN_D_R][VN_GetS] = STALL,
    [VN_D_R][VN_Write] = STALL,
    [VN_D_R][VN_Atomic] = STALL,
    [VN_D_R][VN_InvAck] = DO(VN_D_R, 0, ctrl_count_ack),
    [VN_D_R][VN_LastAck] = DO(VN_I, TAG_WR, ctrl_count_ack, free_entry, ctrl_wake_parked),
};

/* The state is kept in the data line, the entry and the TBE alike. */
static void set_state(struct coh_ctx *x, unsigned next)
{
    struct cache_line *d = vi_ctx_of(x)->dir;
    if (x->line)
        x->line->state = (uint8_t)next;
    if (d)
        d->state = (uint8_t)next;
    if (x->tbe)
        x->tbe->state = (uint8_t)next;
}

static void dump_ctx(struct coh_ctx *x, FILE *out)
{
    struct cache_line *d = vi_ctx_of(x)->dir;
    if (x->line)
        fprintf(out, "  line %#llx: %s%s\n", (unsigned long long)x->line->addr,
                state_names[x->line->state], x->line->dirty ? " dirty" : "");
    if (d)
        fprintf(out, "  directory entry: %s sharers %#llx:%#llx\n", state_names[d->state],
                (unsigned long long)d->meta[1], (unsigned long long)d->meta[0]);
    if (x->tbe)
        fprintf(out, "  tbe %#llx: %s acks %d held %u parked %u\n",
                (unsigned long long)x->tbe->addr, state_names[x->tbe->state], x->tbe->acks,
                x->tbe->merged.n, x->tbe->parked.n);
}

const struct coh_table vini_l2_table = COH_TABLE("gpuvini", "L2", vini_cells, set_state, dump_ctx);

/* ---- the classifier ---- */

static void lookup(struct vi_bank *b, struct vi_ctx *v, addr_t line)
{
    vi_bank_ctx(b, v, line);
    v->dir = cache_find(&b->dir, dir_key(b, line));
    v->x.state = v->x.tbe    ? v->x.tbe->state
                 : v->x.line ? v->x.line->state
                 : v->dir    ? v->dir->state
                             : VN_I;
}

static bool busy(unsigned s)
{
    return s == VN_IV || s == VN_DV || s >= VN_S_W;
}

static bool data_evictable(unsigned s)
{
    return s == VN_V || s == VN_S;
}

static bool dir_evictable(unsigned s)
{
    return s == VN_S || s == VN_D;
}

static unsigned classify(const struct vi_ctx *v, const struct msg *m)
{
    bool others = coh_sharers_other(v->dir, m->src);
    switch (m->type) {
    case MSG_VI_GETS:
        return VN_GetS;
    case MSG_VI_WRITE:
        return others ? VN_WriteInv : VN_Write;
    case MSG_VI_ATOMIC:
        return others ? VN_AtomicInv : VN_Atomic;
    default:
        panic("gpuvini L2: unexpected request type %u", m->type);
    }
}

/* One request. A request that needs a data way (the line has no data) or a
 * directory entry (a read of a V line) first frees one: a full set gives up
 * its LRU stable line or entry, and the request retries next cycle. Returns
 * false on a resource stall. */
static bool take_request(struct vi_bank *b, struct msg *m)
{
    struct vi_ctx v;
    bool full;
    if (!vi_bank_room(b, true))
        return false;
    lookup(b, &v, m->addr);
    if (v.x.state == VN_I || v.x.state == VN_D) {
        struct cache_line *victim =
            vi_bank_victim(b, &b->base.cache, m->addr, data_evictable, &full);
        if (full)
            return false;
        if (victim) {
            struct vi_ctx e;
            lookup(b, &e, victim->addr);
            vi_bank_step(b, &e, VN_Replace);
            b->base.st.resource_stalls++;
            return false;
        }
    } else if (v.x.state == VN_V && m->type == MSG_VI_GETS) {
        struct cache_line *victim =
            vi_bank_victim(b, &b->dir, dir_key(b, m->addr), dir_evictable, &full);
        if (full)
            return false;
        if (victim) {
            struct vi_ctx e;
            lookup(b, &e, victim->addr << b->dir_shift);
            vi_bank_step(b, &e, coh_sharers_none(e.dir) ? VN_DirReplace : VN_DirRecall);
            b->st.dir_evictions++;
            b->base.st.resource_stalls++;
            return false;
        }
    }
    vi_bank_step_or_park(b, &v, m, classify(&v, m));
    return true;
}

static const struct vi_bank_proto vini_proto = {&vini_l2_table, lookup,    take_request, busy,
                                                VN_MemData,     VN_InvAck, VN_LastAck};

/* The directory of one bank: dir_ratio entries per L1 line of the machine,
 * spread over the banks, dir_ways-way (fewer if the bank has fewer entries).
 * Entries are 4-byte lines of a cache array indexed by line number. Returns
 * 0, or -1 with what is wrong in `why`. */
static int dir_spec(const struct machine_view *cfg, struct cache_spec *spec, char *why, size_t len)
{
    const struct vi_spec *vi = vi_spec_of(cfg);
    uint64_t l1_lines =
        (uint64_t)cfg->gpu.sms * (cfg->l1.cache.size_bytes / cfg->l1.cache.line_bytes);
    uint64_t entries = (vi->dir_ratio * l1_lines + cfg->l2.banks - 1) / cfg->l2.banks;
    uint32_t ways = (uint32_t)MIN((uint64_t)vi->dir_ways, entries);
    uint64_t sets = (entries + ways - 1) / ways;
    if (sets * ways * 4 > UINT32_MAX) {
        snprintf(why, len,
                 "vi.dir_ratio = %u entries for each of the %llu L1 lines (gpu.sms x "
                 "l1.size / l1.line) over l2.banks = %u gives a directory of %llu entries per "
                 "bank, more than a bank can index",
                 vi->dir_ratio, (unsigned long long)l1_lines, cfg->l2.banks,
                 (unsigned long long)(sets * ways));
        return -1;
    }
    *spec = (struct cache_spec){(uint32_t)(sets * ways * 4), ways, 4, 0};
    char err[200];
    if (cache_spec_check(spec, err, sizeof err)) {
        snprintf(why, len, "the directory of vi.dir_ratio = %u, vi.dir_ways = %u: %s",
                 vi->dir_ratio, vi->dir_ways, err);
        return -1;
    }
    return 0;
}

static const char *vini_check(const struct machine_view *c, char *why, size_t len)
{
    struct cache_spec spec;
    const char *key = coh_sharers_check(c, why, len);
    if (!key && dir_spec(c, &spec, why, len))
        key = "vi.dir_ratio vi.dir_ways gpu.sms l1.size l1.line l2.banks";
    return key;
}

static struct comp *vini_l2_create(const struct ctrl_wiring *w)
{
    struct vi_bank *b = vi_bank_create(w, &vini_proto);
    struct cache_spec spec;
    char err[256];
    if (dir_spec(w->cfg, &spec, err, sizeof err) || cache_init(&b->dir, &spec, err, sizeof err))
        panic("gpuvini: %s (passed vini_check)", err);
    b->dir.index_div = w->n_banks;
    b->has_dir = true;
    b->dir_shift = log2_u64(w->cfg->l2.cache.line_bytes) - 2;
    return &b->base.comp;
}

static const struct coh_table *const vini_tables[] = {&vini_l1_table, &vini_l2_table, NULL};

/* Symmetry: the sparse directory's entries keep the sharer vectors. */
static const struct proto_symmetry vini_symmetry = {
    .up = VI_SYMMETRY_UP, .down = VI_SYMMETRY_DOWN, .dir_sharers = true, .data_blind = true};

/* What `gpucoh verify` reads (struct proto_verify): besides the bank's waiting
 * invalidations, its sparse directory (struct vi_bank). */
static const struct proto_verify vini_verify = {.vi_bank = true};

const struct proto_desc proto_gpuvini = {
    .options = &vi_options,
    .name = "gpuvini",
    .title = "GPU-VIni: GPU-VI with a non-inclusive L2 and a sparse directory (directory "
             "evictions recall, L2 evictions do not; write-atomic)",
    .model = MODEL_PTX,
    .write_atomic = true,
    .check = vini_check,
    .n_vnets = VI_NVNETS,
    .vnet_names = vi_vnet_names,
    .tables = vini_tables,
    .n_l1_tables = 1,
    .l1 = VI_L1_OPS(vini_l1_create),
    .l2 = VI_BANK_OPS(vini_l2_create),
    .symmetry = &vini_symmetry,
    .verify = &vini_verify,
};
