/*
 * verify_digest.c - the canonical digest of an explorer state
 * (verify_int.h, docs/verify.md, "Time"): every controller, channel and the
 * reference state serialised with times relative to now, hashed for the
 * visited set; also where the next deadline lies.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "verify/verify_int.h"

#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "coh/getm/getm_bank.h"
#include "coh/getm/warptm_vu.h"
#include "coh/mg/mg.h"
#include "coh/rcc/rcc.h"
#include "coh/stc/stc.h"
#include "coh/tc/tc.h"
#include "coh/vi/vi.h"
#include "coh/vi/vi_bank.h"
#include "verify/verify_mg.h"
#include "verify/verify_spandex.h"

/* ---- the canonical digest of a state ---- */

static void put(struct ser *s, const void *p, size_t n)
{
    if (s->collect)
        return;
    if (s->n + n > s->cap) {
        s->cap = (s->n + n) * 2;
        s->b = realloc(s->b, s->cap);
        if (!s->b)
            panic("out of memory");
    }
    memcpy(s->b + s->n, p, n);
    s->n += n;
}
#define PUT(s, v) put(s, &(v), sizeof(v))

/* Symmetry over values: a data value relabelled (struct ser's vmap). */
static uint64_t vrel(const struct ser *s, uint64_t v)
{
    return s->values && v <= V_MAX_VALUE ? s->vmap[v] : v;
}

/* A set of values (bit v: value v), each at its relabelled bit. */
static uint8_t vrel_bits(const struct ser *s, uint8_t bits)
{
    if (!s->values)
        return bits;
    uint8_t out = 0;
    for (unsigned v = 0; v <= V_MAX_VALUE; v++)
        if (bits >> v & 1)
            out |= (uint8_t)(1u << s->vmap[v]);
    return out;
}

/* A line's data bytes: each is 0 or the low byte of a stored value (stores
 * write a word of a value 1..V into lines that start at 0, so every other
 * byte stays 0), relabelled byte by byte. */
static void put_data(struct ser *s, const uint8_t *p, size_t n)
{
    if (!s->values) {
        put(s, p, n);
        return;
    }
    uint8_t buf[LINE_MAX_BYTES];
    panic_if(n > sizeof buf, "verify: a line of %zu bytes", n);
    for (size_t i = 0; i < n; i++)
        buf[i] = (uint8_t)vrel(s, p[i]);
    put(s, buf, n);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* First pass: a ranked time (sorted and made distinct after the pass). */
static void keep_past(struct ser *s, uint64_t v)
{
    if (s->n_past == s->cap_past) {
        s->cap_past = s->cap_past ? 2 * s->cap_past : 64;
        s->past = realloc(s->past, s->cap_past * sizeof *s->past);
        if (!s->past)
            panic("out of memory");
    }
    s->past[s->n_past++] = v;
}

/* A word of kind k (enum tkind). A time: 0 ("none": time 0 precedes the
 * rig's start) and UINT64_MAX ("never") as themselves; one not yet passed as
 * its offset from now (and, unless a stamp, a candidate for the next
 * deadline); a passed one as "expired" (TK_CLAMP) or by its rank among the
 * state's passed ranked times, which the first pass (collect) gathers. */
static void put_time(struct ser *s, uint64_t v, enum tkind k)
{
    if (k == TK_SKIP)
        return;
    if (k == TK_RAW) {
        PUT(s, v);
        return;
    }
    uint8_t tag;
    if (k == TK_RANK && v) { /* WarpTM's TCD: the rank among the state's times */
        if (s->collect) {
            keep_past(s, v);
            return;
        }
        tag = 7;
        const uint64_t *at = bsearch(&v, s->past, s->n_past, sizeof v, cmp_u64);
        uint64_t x = (uint64_t)(at - s->past);
        PUT(s, tag);
        PUT(s, x);
        return;
    }
    if (k == TK_RANK) {
        tag = 0;
        PUT(s, tag);
        return;
    }
    if (k == TK_GTS || k == TK_GTS0) { /* GETM: from the smallest, whole warp-id periods */
        if (k == TK_GTS0 && v == 0) {
            tag = 0;
            PUT(s, tag);
            return;
        }
        if (s->collect) {
            s->gts_base = MIN(s->gts_base, v);
            return;
        }
        tag = 6;
        uint64_t x = v - (s->gts_base & ~s->gts_align);
        PUT(s, tag);
        PUT(s, x);
        return;
    }
    if (k >= TK_LCLOCK) { /* logical time: the offset from the state's smallest */
        if (k == TK_LTIME0 && v == 0) {
            tag = 0;
            PUT(s, tag);
            return;
        }
        if (s->collect) {
            s->base = MIN(s->base, v);
            if (k == TK_LCLOCK) {
                s->min_clock = MIN(s->min_clock, v);
            } else if (k != TK_LREF) {
                s->max_other = MAX(s->max_other, v);
                s->any_other = true;
            }
            return;
        }
        tag = 5;
        uint64_t x = v - s->base;
        PUT(s, tag);
        PUT(s, x);
        return;
    }
    uint64_t x = 0;
    if (v == 0) {
        tag = 0;
    } else if (v == UINT64_MAX) {
        tag = 1;
    } else if (v >= s->now) {
        tag = 2;
        x = v - s->now;
        if (k != TK_STAMP && v < s->next_deadline)
            s->next_deadline = v;
    } else if (k == TK_CLAMP) {
        tag = 3;
    } else if (s->collect) {
        keep_past(s, v);
        return;
    } else {
        tag = 4;
        const uint64_t *at = bsearch(&v, s->past, s->n_past, sizeof v, cmp_u64);
        x = (uint64_t)(at - s->past);
    }
    PUT(s, tag);
    PUT(s, x);
}

/* What a TC message's two time words are (tc.h): a word its type does not
 * carry is a leftover of the message it was made from, which no receiver
 * reads. A lease end may be compared with a merged load's arrival (ordered);
 * a local timestamp is only matched against a running global one and a GWCT
 * only compared with now (clamped). Core requests: a merged load's arrival
 * and a held request's wait are written where the L1 keeps them (put_ctrl,
 * put_private); in its other queues a core request's words are dead (a
 * replayed load is stamped again when it merges again). */
static void tc_msg_times(const struct msg *m, enum tkind *kts, enum tkind *kts2)
{
    bool gwct = m->flags & TC_F_GWCT;
    *kts = *kts2 = TK_SKIP;
    switch (m->type) {
    case MSG_TC_GETS:
        *kts = (m->flags & TC_F_LEASE) ? TK_ORDER : TK_SKIP;
        break;
    case MSG_TC_UPGR:
        *kts = TK_CLAMP;
        break;
    case MSG_TC_ATOMIC:
        *kts = (m->flags & TC_F_HAS_TS) ? TK_CLAMP : TK_SKIP;
        break;
    case MSG_TC_DATA:
        *kts = TK_ORDER;
        *kts2 = gwct ? TK_CLAMP : TK_SKIP;
        break;
    case MSG_TC_DATAG: /* ts2 becomes the copy's lease under the safe private rule */
        *kts = TK_ORDER;
        *kts2 = TK_CLAMP;
        break;
    case MSG_TC_ACK:
    case MSG_TC_ATOMRSP:
        *kts2 = gwct ? TK_CLAMP : TK_SKIP;
        break;
    }
}

/* What an RCC message's two time words are (rcc.h): a GETS's clock and the
 * expired copy's lease end (0: none); a WRITE's or ATOMIC's clock; DATA,
 * RENEW and atomic results' lease end and version; an ACK's version. The
 * rest are leftovers no receiver reads (a core request's words). */
static void rcc_msg_times(const struct msg *m, enum tkind *kts, enum tkind *kts2)
{
    *kts = *kts2 = TK_SKIP;
    switch (m->type) {
    case MSG_RCC_GETS:
        *kts = TK_LTIME;
        *kts2 = TK_LTIME0;
        break;
    case MSG_RCC_WRITE:
    case MSG_RCC_ATOMIC:
        *kts = TK_LTIME;
        break;
    case MSG_RCC_DATA:
    case MSG_RCC_RENEW:
    case MSG_RCC_ATOMRSP:
        *kts = *kts2 = TK_LTIME;
        break;
    case MSG_RCC_ACK:
        *kts2 = TK_LTIME;
        break;
    }
}

/* What a GETM message's two words are (getm_bank.h): a transactional
 * request's ts is its warpts; a load's or store's ts2 the largest timestamp
 * the VU saw (0 before it decided), a commit's or cleanup's the release
 * counts; other messages' are raw. */
static void getm_msg_times(const struct rig *r, const struct msg *m, enum tkind *kts,
                           enum tkind *kts2)
{
    if (r->prof.lazy) { /* WarpTM: a load's answer carries TCD times; its bank reads no ts */
        bool load = m->req.tx == MEM_TX_LOAD || m->req.tx == MEM_TX_LOAD_OK;
        *kts = *kts2 = load ? TK_RANK : TK_RAW;
        return;
    }
    *kts = m->req.tx != MEM_TX_NONE ? TK_GTS : TK_RAW;
    *kts2 = m->req.tx == MEM_TX_LOAD || m->req.tx == MEM_TX_STORE || m->req.tx == MEM_TX_LOAD_OK ||
                    m->req.tx == MEM_TX_STORE_OK
                ? TK_GTS0
                : TK_RAW;
}

/* ---- symmetry over the L1s ---- */

/* p's symmetry over the L1s (its descriptor's; docs/verify.md, "Search,
 * bounds and symmetry") on n_l1 L1s, or NULL and why not. */
const struct proto_symmetry *vx_sym_of(const struct proto_desc *p, unsigned n_l1, const char **why)
{
    const struct proto_symmetry *sym = p->symmetry;
    if (!sym) {
        *why = "the fields that name an L1 in its state are not described to the relabeller";
        return NULL;
    }
    if (sym->only_l1s && sym->only_l1s != n_l1) {
        *why = sym->only_why;
        return NULL;
    }
    return sym;
}

const char *vx_sym_subgroup(const struct rig *r)
{
    if (r->spandex && !vspx_one_device(r->p, r->l1_table, r->n_l1))
        return " (each among those of its device)";
    if (r->mg && r->o->gpus > 1)
        return r->gpm_sms > 1 ? " (by GPM with its SMs, keeping the GPUs)"
                              : " (by GPM, keeping the GPUs)";
    if (r->mg && r->gpm_sms > 1)
        return " (by GPM with its SMs)";
    return "";
}

const struct proto_symmetry *vx_sym_of_rig(const struct rig *r, const char **why)
{
    const struct proto_symmetry *sym = vx_sym_of(r->p, r->n_l1, why);
    if (sym && r->spandex && (*why = vspx_asymmetric(r->p, r->l1_table, r->n_l1)))
        return NULL;
    if (sym && r->peers) {
        *why = "the L1s message each other (fcs.l1_to_l1): relabelling messages with an L1 at "
               "both ends is not built (docs/verify.md)";
        return NULL;
    }
    if (sym && sym->gpms && r->n_l2 < 2) {
        *why = "one GPM: no relabelling of GPMs to make (docs/verify.md)";
        return NULL;
    }
    return sym;
}

static uint16_t relabel(const struct ser *s, const struct rig *r, unsigned l1)
{
    return l1 < r->n_l1 ? s->perm[l1] : (uint16_t)l1;
}

static uint16_t relabel_gpm(const struct ser *s, const struct rig *r, unsigned gpm)
{
    return gpm < r->n_l2 ? s->gperm[gpm] : (uint16_t)gpm;
}

/* A message's ends and its request's SM, relabelled: the L1 end of a
 * protocol message by its type's sender; a core request's or response's SM
 * (the core is its L1's). A request's SM travels inside the protocol
 * messages made from it (and back into the core's response), always its L1
 * end's own: there it says nothing the end does not, and is not written. A
 * message made fresh (an invalidation, a forward, its ack) carries 0 there,
 * which nobody reads; any other SM breaks what the relabelling relies on and
 * stops the search. DRAM's messages name no L1. */
static void put_ends_relabelled(struct ser *s, const struct rig *r, const struct msg *m)
{
    uint16_t src = m->src, dst = m->dst, sm = m->req.sm, end = UINT16_MAX;
    if (m->type == MSG_CORE_REQ || m->type == MSG_CORE_RSP) {
        sm = relabel(s, r, sm);
    } else if (m->type >= MSG_PROTO_BASE && m->type - MSG_PROTO_BASE < 64 &&
               s->sym->up_sharer & PROTO_MSG_BIT(m->type)) {
        /* the sender in `sharer` (put_msg relabels it); a request's SM is never in one */
        if (sm != 0)
            panic("verify --symmetry: %s's message type %u from L1 %u carries SM %u's request",
                  r->p->name, m->type, m->sharer, sm);
    } else if (m->type >= MSG_PROTO_BASE && m->type - MSG_PROTO_BASE < 64 &&
               (s->sym->up | s->sym->down | s->sym->passed) & PROTO_MSG_BIT(m->type)) {
        uint64_t bit = PROTO_MSG_BIT(m->type);
        /* a type passed from L1 to L1 goes the way its vnet goes (Spandex) */
        bool up = s->sym->passed & bit ? !(s->sym->down_vnets >> m->vnet & 1) : s->sym->up & bit;
        end = up ? src : dst;
        if (up)
            src = relabel(s, r, src);
        else
            dst = relabel(s, r, dst);
        /* a request forwarded to an owner carries its requester's SM, the L1 its
         * sharer names (sm_sharer): implied by that word, relabelled in put_msg */
        bool requester = s->sym->sm_sharer & bit && sm == m->sharer;
        if (sm != end && sm != 0 && !requester)
            panic("verify --symmetry: %s's message type %u between L1 %u and the bank carries "
                  "SM %u's request",
                  r->p->name, m->type, end, sm);
        sm = UINT16_MAX;
    } else if (m->type != MSG_DRAM_READ && m->type != MSG_DRAM_WRITE && m->type != MSG_DRAM_DATA &&
               m->type != MSG_DRAM_WRACK) {
        panic("verify --symmetry: %s's message type %u is not described (its "
              "proto_desc.symmetry)",
              r->p->name, m->type);
    }
    PUT(s, src);
    PUT(s, dst);
    PUT(s, sm);
}

/* Symmetry over the GPMs (proto_symmetry's gpms): where the messages being
 * written lie. Between banks (a link, a bank's sys_in, or held by a bank:
 * flagged MG_F_SYS, from another GPM, or MG_F_TO_SYS, an answer to one, or an
 * invalidation) src and dst are GPMs; between an L1 and its bank (and DRAM's)
 * they and req.sm are indices within the GPM, which the relabellings keep
 * (gpm_relabellings). */
enum { MW_L1, MW_SYS, MW_BANK };

static void put_ends_gpms(struct ser *s, const struct rig *r, const struct msg *m)
{
    /* an invalidation only ever comes from another GPM's bank; a GPU home
     * holds one in a release slot, unflagged, while it passes it on (mg_dir_take_inv) */
    bool held_sys = m->flags & (MG_F_SYS | MG_F_TO_SYS) || m->type == MSG_MG_INV;
    bool sys = s->where == MW_SYS || (s->where == MW_BANK && held_sys);
    uint16_t src = sys ? relabel_gpm(s, r, m->src) : m->src;
    uint16_t dst = sys ? relabel_gpm(s, r, m->dst) : m->dst;
    PUT(s, src);
    PUT(s, dst);
    PUT(s, m->req.sm);
}

/* A sharer vector's bit of L1 i at bit perm[i] (of GPM i at gperm[i]: gpms). */
static uint64_t relabel_sharers(const struct ser *s, const struct rig *r, uint64_t v, bool gpms)
{
    unsigned n = gpms ? r->n_l2 : r->n_l1;
    uint64_t out = v & ~((1ull << n) - 1);
    for (unsigned i = 0; i < n; i++)
        if (v >> i & 1)
            out |= 1ull << (gpms ? s->gperm : s->perm)[i];
    return out;
}

/* A message's `sharer` word by what its type says it names (proto_symmetry's
 * sharer_l1, sharer_l1p1, sharer_when: Spandex's owners, requesters and
 * predicted owners); a word its type does not describe must be 0. */
static uint16_t sharer_relabelled(const struct ser *s, const struct rig *r, const struct msg *m)
{
    const struct proto_symmetry *y = s->sym;
    bool proto = m->type >= MSG_PROTO_BASE && m->type - MSG_PROTO_BASE < 64;
    uint64_t bit = proto ? PROTO_MSG_BIT(m->type) : 0;
    if (y->sharer_l1 & bit && (!(y->sharer_when & bit) || m->flags & y->sharer_flags))
        return relabel(s, r, m->sharer);
    if (y->sharer_l1p1 & bit)
        return m->sharer ? (uint16_t)(relabel(s, r, m->sharer - 1u) + 1u) : 0;
    if (proto && m->sharer != 0)
        panic("verify --symmetry: %s's message type %u (flags %#x) carries sharer %u, which its "
              "proto_desc.symmetry does not describe",
              r->p->name, m->type, m->flags, m->sharer);
    return m->sharer;
}

/* A message as the receiver can tell it apart: every field but its birth
 * time and pool link; data only where the mask says it is meaningful; its
 * two time words (TC: lease ends, local timestamps, GWCTs) as kinds kts, kts2. */
static void put_msg(struct ser *s, const struct rig *r, const struct msg *m, enum tkind kts,
                    enum tkind kts2)
{
    PUT(s, m->type);
    PUT(s, m->vnet);
    PUT(s, m->cls);
    if (s->sym && s->sym->gpms) {
        put_ends_gpms(s, r, m);
    } else if (s->sym) {
        put_ends_relabelled(s, r, m);
    } else {
        PUT(s, m->src);
        PUT(s, m->dst);
    }
    PUT(s, m->size_bytes);
    PUT(s, m->flags);
    PUT(s, m->addr);
    PUT(s, m->req.op);
    PUT(s, m->req.sem);
    PUT(s, m->req.scope);
    if (!s->sym)
        PUT(s, m->req.sm);
    PUT(s, m->req.warp);
    PUT(s, m->req.tx);
    PUT(s, m->req.req_type);
    PUT(s, m->req.id);
    if (m->req.atom) {
        uint64_t a = vrel(s, m->req.atom->lane[0].a); /* an exchange's value */
        PUT(s, m->req.atom->kind);
        PUT(s, a);
    }
    if (kts == TK_BY_TYPE && r->prof.tx)
        getm_msg_times(r, m, &kts, &kts2);
    else if (kts == TK_BY_TYPE && r->prof.logical)
        rcc_msg_times(m, &kts, &kts2);
    else if (kts == TK_BY_TYPE)
        tc_msg_times(m, &kts, &kts2);
    put_time(s, m->ts, kts);
    if (s->sym && s->sym->gpms) /* 0 or a GPM + 1 (mg_l2.c's forward, mg_ack_slot) */
        put_time(s, m->ts2 ? relabel_gpm(s, r, (unsigned)(m->ts2 - 1)) + 1u : 0, kts2);
    else
        put_time(s, m->ts2, kts2);
    PUT(s, m->acks);
    uint16_t sharer = m->sharer;
    if (s->sym && m->type >= MSG_PROTO_BASE && m->type - MSG_PROTO_BASE < 64 &&
        s->sym->up_sharer & PROTO_MSG_BIT(m->type))
        sharer = relabel(s, r, sharer);
    else if (s->sym && (s->sym->sharer_l1 | s->sym->sharer_l1p1))
        sharer = sharer_relabelled(s, r, m);
    PUT(s, sharer);
    PUT(s, m->mask);
    for (unsigned i = 0; i < r->line_bytes; i++) {
        uint8_t b = bytemask_test(&m->mask, i) ? (uint8_t)vrel(s, m->data[i]) : 0;
        PUT(s, b);
    }
}

/* The kind of a message's time words: under TC by its type, elsewhere plain words. */
static enum tkind msg_time(const struct rig *r)
{
    return (r->prof.timed && !r->prof.unit) || r->prof.tx ? TK_BY_TYPE : TK_RAW;
}

static void put_list_as(struct ser *s, const struct rig *r, const struct msg_list *l,
                        enum tkind kts, enum tkind kts2)
{
    PUT(s, l->n);
    for (const struct msg *m = l->head; m; m = m->next)
        put_msg(s, r, m, kts, kts2);
}

static void put_list(struct ser *s, const struct rig *r, const struct msg_list *l)
{
    put_list_as(s, r, l, msg_time(r), msg_time(r));
}

static void put_port(struct ser *s, const struct rig *r, const struct port *p)
{
    PUT(s, p->n);
    for (uint32_t i = 0; i < p->n; i++)
        put_msg(s, r, port_slot_at(p, i)->m, msg_time(r), msg_time(r));
}

/* How many lines of l's set were used before l: the replacement order, which
 * chooses the next victim once a set holds two of the rig's lines
 * (--conflict-ways 2), so it is state; 0 whenever the rig's lines lie in sets
 * of their own or of one way, which keeps those digests' classes as they were. */
static uint8_t older_in_set(const struct cache *ca, const struct cache_line *l)
{
    size_t i = (size_t)(l - ca->lines), base = i - i % ca->spec.ways;
    uint8_t older = 0;
    for (size_t j = base; j < base + ca->spec.ways; j++)
        older += ca->tags[j] != CACHE_NO_TAG && ca->lru[j] < ca->lru[i];
    return older;
}

/* A controller's lines, TBEs and queues, in line order (TBE slots and ways
 * are allocation history, not state, but the order of use within a set is);
 * meta words by their kinds. An L1's
 * merged loads carry the time they merged (TC: answered only if the fill's
 * lease reached it) in ts2. l1: an L1's index (Spandex: its device's table). */
static void put_ctrl(struct ser *s, const struct rig *r, struct comp *cp, bool is_l1, unsigned l1)
{
    struct ctrl *c = (struct ctrl *)cp;
    const uint8_t *line_k = is_l1 ? r->prof.l1_line : r->prof.l2_line;
    const uint8_t *tbe_k = is_l1 ? r->prof.l1_tbe : r->prof.l2_tbe;
    for (unsigned k = 0; k < r->o->lines; k++) {
        addr_t a = line_addr(r, k);
        struct cache_line *l = c->cache.sets ? cache_find(&c->cache, a) : NULL;
        uint8_t present = l != NULL;
        PUT(s, present);
        if (l) {
            PUT(s, l->state);
            PUT(s, l->dirty);
            uint8_t older = older_in_set(&c->cache, l);
            PUT(s, older);
            /* an RCC bank's line not yet filled has no ver or exp */
            bool meta = !r->prof.logical || is_l1 || in_states(r->l2_leased, l->state);
            for (unsigned i = 0; meta && i < 3; i++)
                if (s->sym && s->sym->l2_sharers1 && !is_l1 && i == 1) /* Spandex's ReqS */
                    put_time(s, relabel_sharers(s, r, l->meta[1], false), line_k[1]);
                else if (s->sym && s->sym->l2_sharers && !is_l1 && i < 2)
                    put_time(s, i ? l->meta[1] : relabel_sharers(s, r, l->meta[0], false), TK_RAW);
                else
                    put_time(s, l->meta[i], line_k[i]);
            bool unfilled = (is_l1 ? r->l1_unfilled : r->l2_unfilled) >> l->state & 1;
            if (is_l1 && r->spandex) /* a device L1's, by its word state (verify_spandex.h) */
                unfilled = vspx_unfilled(r->p, r->l1_table[l1], l);
            if (!unfilled)
                put_data(s, l->data, r->line_bytes); /* (not a way's old bytes before its fill) */
        }
        struct tbe *t = c->tbes.cap ? tbe_find(&c->tbes, a) : NULL;
        present = t != NULL;
        PUT(s, present);
        if (t) {
            PUT(s, t->state);
            PUT(s, t->pending);
            PUT(s, t->acks);
            for (unsigned i = 0; i < 2; i++)
                put_time(s, t->meta[i], tbe_k[i]);
            PUT(s, t->use_once);
            if (is_l1 && r->prof.logical) /* loads merged behind a fill: the clock then */
                put_list_as(s, r, &t->merged, TK_SKIP, TK_LTIME);
            else if (is_l1 && r->prof.timed && !r->prof.unit) /* merged behind a fill: when */
                put_list_as(s, r, &t->merged, TK_SKIP, TK_STAMP);
            else
                put_list(s, r, &t->merged);
            put_list(s, r, &t->parked);
        }
    }
    put_list(s, r, &c->replay);
    put_port(s, r, &c->in);
    put_port(s, r, &c->pipe);
}

/* verify_spandex.c writes through these: bytes and messages as put and put_msg do */
struct put_ctx {
    struct ser *s;
    const struct rig *r;
};
static void put_bytes_cb(void *arg, const void *p, size_t n)
{
    put(((struct put_ctx *)arg)->s, p, n);
}
static void put_msg_cb(void *arg, const struct msg *m)
{
    struct put_ctx *x = arg;
    put_msg(x->s, x->r, m, msg_time(x->r), msg_time(x->r));
}

/* State a protocol keeps outside struct ctrl: GPU-VI's banks (also ideal's; gpuvini's
 * sparse directory entries, invalidations waiting for room); TC's warp slots,
 * hints, lease and blocked bank (tc.h) and its observer's promised GWCTs. */
static void put_msg(struct ser *s, const struct rig *r, const struct msg *m, enum tkind kts,
                    enum tkind kts2);

/* GETM: the VU's granules of each line (precise table: rts, wts, #writes and,
 * while reserved, the owner; getm_vu_peek) and its stall buffer's waiters
 * with their messages (a waiter's cookie is its message); the cores'
 * attempts and the committed history (verify_tx.c), timestamps relative. */
static void put_tx(struct ser *s, const struct rig *r)
{
    const struct getm_vu *vu = getm_l2_vu(r->l2);
    unsigned n_gran = r->line_bytes / r->gp.granule;
    for (unsigned k = 0; vu && k < r->o->lines; k++)
        for (unsigned g = 0; g < n_gran; g++) {
            addr_t a = line_addr(r, k) + (addr_t)g * r->gp.granule;
            struct getm_meta m;
            uint8_t precise = getm_vu_peek(vu, a, &m);
            PUT(s, precise);
            put_time(s, m.rts, TK_GTS0);
            put_time(s, m.wts, TK_GTS0);
            PUT(s, m.nwrites);
            PUT(s, m.approx);
            if (m.nwrites) {
                PUT(s, m.owner);
                PUT(s, m.owner_seq);
            }
            const struct getm_req *w;
            unsigned n = getm_vu_stalled(vu, a, &w);
            PUT(s, n);
            for (unsigned i = 0; i < n; i++) {
                PUT(s, w[i].store);
                PUT(s, w[i].wid);
                PUT(s, w[i].seq);
                put_time(s, w[i].warpts, TK_GTS);
                uint8_t gran = (uint8_t)(w[i].cookie & 7);
                PUT(s, gran);
                put_msg(s, r, (const struct msg *)(uintptr_t)(w[i].cookie & ~(uint64_t)7),
                        TK_BY_TYPE, TK_BY_TYPE);
            }
        }
    const struct warptm_vu *wvu = getm_l2_wvu(r->l2);
    for (unsigned k = 0; wvu && k < r->o->lines; k++)
        for (unsigned g = 0; g < n_gran; g++) {
            addr_t a = line_addr(r, k) + (addr_t)g * r->gp.granule;
            bool writer;
            unsigned readers = warptm_vu_holds(wvu, a, &writer);
            PUT(s, readers);
            PUT(s, writer);
            put_time(s, warptm_vu_tcd(wvu, a), TK_RANK);
        }
    /* under symmetry (WarpTM only: GETM's VU names warps by SM, above, and
     * its timestamps tie-break by it) each core in its relabelled place */
    panic_if(s->sym && !r->prof.lazy, "verify --symmetry: %s's VU names warps", r->p->name);
    const struct txenv *e = &r->tx;
    for (unsigned slot = 0; slot < r->n_l1; slot++) {
        const struct txcore *t = &e->c[s->sym ? s->inv[slot] : slot];
        if (r->prof.lazy) {
            PUT(s, t->n_val);
            PUT(s, t->failed);
            put(s, t->held_rd, sizeof t->held_rd);
            put(s, t->held_wr, sizeof t->held_wr);
            put_time(s, t->first_read, TK_RANK);
            put_time(s, t->last_write, TK_RANK);
        }
        PUT(s, t->attempts);
        PUT(s, t->in_tx);
        PUT(s, t->n_acc);
        PUT(s, t->acks);
        PUT(s, t->pend);
        PUT(s, t->pend_line);
        for (unsigned k = 0; k < r->o->lines; k++) {
            PUT(s, t->resv[k]);
            PUT(s, t->wrote[k]);
            PUT(s, t->wval[k]);
            PUT(s, t->read[k]);
            PUT(s, t->rval[k]);
            if (r->o->plain) /* (without it, read and rval say the same) */
                PUT(s, t->rseen[k]);
        }
        PUT(s, t->seq);
        put_time(s, t->ts, TK_GTS);
        put_time(s, t->horizon, TK_GTS0);
    }
    PUT(s, e->n_commits);
    for (unsigned i = 0; i < e->n_commits; i++) {
        const struct txcommit *h = &e->commits[i];
        uint8_t core = s->sym ? (uint8_t)relabel(s, r, h->core) : h->core;
        PUT(s, core);
        PUT(s, h->reads);
        PUT(s, h->writes);
        for (unsigned k = 0; k < r->o->lines; k++) {
            PUT(s, h->rval[k]);
            PUT(s, h->wval[k]);
            if (r->o->plain)
                PUT(s, h->rseen[k]);
        }
        put_time(s, h->ts, TK_GTS);
    }
    for (unsigned k = 0; k < r->o->lines; k++) {
        PUT(s, e->n_unperf[k]);
        for (unsigned i = 0; i < e->n_unperf[k]; i++) {
            PUT(s, e->unperf_val[k][i]);
            put_time(s, e->unperf_ts[k][i], TK_GTS);
        }
        PUT(s, e->has_last[k]);
        if (e->has_last[k])
            put_time(s, e->last_ts[k], TK_GTS);
        if (r->o->plain)
            PUT(s, e->plain[k]);
    }
}

static void put_private(struct ser *s, const struct rig *r)
{
    if (r->prof.tx) {
        put_tx(s, r);
        return;
    }
    if (r->spandex) { /* owner ids, held stores, DeNovo's predictor (verify_spandex.h) */
        struct put_ctx x = {s, r};
        struct vspx_out o = {put_bytes_cb, put_msg_cb, &x, s->sym ? s->perm : NULL,
                             s->sym ? s->inv : NULL};
        addr_t lines[V_MAX_LINES];
        for (unsigned k = 0; k < r->o->lines; k++)
            lines[k] = line_addr(r, k);
        vspx_put(&o, r->p, r->l1, r->l1_table, r->n_l1, r->l2, lines, r->o->lines);
        return;
    }
    if (r->prof.logical) { /* RCC (rcc.h): the clocks, the bank's mnow and MSHRs, the predictor */
        for (unsigned slot = 0; slot < r->n_l1; slot++) { /* (under symmetry relabelled) */
            unsigned i = s->sym ? s->inv[slot] : slot;
            uint64_t w, now = rcc_l1_now(r->l1[i], &w);
            put_time(s, now, TK_LCLOCK);
            if (r->prof.two_clocks)
                put_time(s, w, TK_LCLOCK);
        }
        struct rcc_l2_view v = {0};
        bool miss_ahead = false; /* a line not yet filled: its refill reads mnow */
        for (unsigned k = 0; k < r->o->lines; k++) {
            struct cache_line *l = cache_find(&((struct ctrl *)r->l2)->cache, line_addr(r, k));
            miss_ahead |= !l || !in_states(r->l2_leased, l->state);
            rcc_l2_view(r->l2, line_addr(r, k), &v);
            PUT(s, v.level);
            PUT(s, v.mshr);
            if (!v.mshr)
                continue;
            PUT(s, v.hasread);
            PUT(s, v.haswrite);
            if (v.hasread)
                put_time(s, v.lastrd, TK_LTIME);
            if (v.haswrite) {
                put_time(s, v.lastwr, TK_LTIME);
                put_time(s, v.acked, TK_LTIME);
            }
            PUT(s, *v.wmask);
            for (unsigned i = 0; i < r->line_bytes; i++) {
                uint8_t b = bytemask_test(v.wmask, i) ? (uint8_t)vrel(s, v.wdata[i]) : 0;
                PUT(s, b);
            }
        }
        /* mnow is read only by a miss (its refill, an early write ACK); unless the
         * bank's lines conflict (--conflict l2), once all are in V none comes again */
        if (miss_ahead || (r->o->conflict & VERIFY_CONFLICT_L2))
            put_time(s, v.mnow, TK_LTIME);
        return;
    }
    if (r->prof.unit) { /* STC (stc.h): the L1s' epoch state and BSQs, the EMU's */
        for (unsigned slot = 0; slot < r->n_l1; slot++) { /* (under symmetry relabelled) */
            unsigned i = s->sym ? s->inv[slot] : slot;
            struct stc_l1_view v;
            stc_l1_view(r->l1[i], &v);
            PUT(s, v.cer);
            PUT(s, v.pw);
            PUT(s, v.bsq_n);
            PUT(s, v.bsq_bands);
            PUT(s, v.demand_sent);
            PUT(s, v.conflict_sent);
            PUT(s, v.seb);
            PUT(s, v.hs);
            PUT(s, v.in_kernel);
            PUT(s, v.active_sent);
            for (unsigned b = 0; b < stc_spec_of(&r->view)->epochs; b++)
                put_list(s, r, &v.bsq[b]);
            put_list(s, r, v.to_emu);
            for (unsigned k = 0; k < r->o->lines; k++) {
                bool scrubbed = stc_l1_set_scrubbed(r->l1[i], line_addr(r, k));
                PUT(s, scrubbed);
            }
        }
        struct stc_emu_view e;
        stc_emu_view(r->unit, &e);
        PUT(s, e.phase);
        PUT(s, e.acks);
        PUT(s, e.ptr);
        PUT(s, e.seb);
        PUT(s, e.seb_next);
        PUT(s, e.busy);
        /* The input pointer chooses among CUs whose messages wait at once; every
         * step delivers one message to the EMU and runs it to the end of its
         * handling, so here at most one ever waits and the pointer (the last
         * sender's successor) is history, not state: written only when it could
         * choose (docs/verify.md, "A central unit"). */
        unsigned waiting = 0;
        for (unsigned i = 0; i < r->n_l1; i++)
            waiting += r->unit_in[i].n != 0;
        if (waiting > 1) {
            uint16_t rr = relabel(s, r, e.rr);
            PUT(s, rr);
        }
        PUT(s, e.check_seb);
        PUT(s, e.grant);
        PUT(s, e.erv);
        PUT(s, e.erv_known);
        PUT(s, e.check_grant);
        for (unsigned b = 0; b < 32; b++)
            if (e.erv_known >> b & 1)
                PUT(s, e.erv_addr[b]);
        /* only compared with the round: past it, all the same */
        uint64_t since = MIN(e.since_remap, e.round);
        PUT(s, since);
        /* (its queue out is in CU order, a broadcast's; each step sends all of it) */
        if (s->sym && e.out->n)
            panic("verify --symmetry: %s's EMU ended a step with %u messages to send", r->p->name,
                  e.out->n);
        put_list(s, r, e.out);
        PUT(s, e.writable);
        PUT(s, e.wake);
        PUT(s, e.wake_stale);
        for (unsigned slot = 0; slot < r->n_l1; slot++) {
            unsigned i = s->sym ? s->inv[slot] : slot;
            put_port(s, r, &r->unit_in[i]);
            put_port(s, r, &r->unit_down[i]);
        }
        return;
    }
    if (r->prof.timed) { /* (under symmetry each L1 in its relabelled place) */
        for (unsigned slot = 0; slot < r->n_l1; slot++) {
            unsigned i = s->sym ? s->inv[slot] : slot;
            for (unsigned w = 0; w < tc_l1_slots(r->l1[i]); w++) {
                const struct msg_list *held;
                put_time(s, tc_l1_slot(r->l1[i], w, &held), TK_CLAMP);
                /* held: ts the core cycle its wait ends, ts2 when it began (a statistic) */
                put_list_as(s, r, held, TK_CLAMP, TK_SKIP);
            }
            uint8_t fenced = tc_l1_fenced(r->l1[i]), expired = UINT8_MAX;
            for (unsigned k = 0; k < r->o->lines; k++)
                if (tc_l1_expired_line(r->l1[i]) == line_addr(r, k))
                    expired = (uint8_t)k;
            PUT(s, fenced);
            PUT(s, expired);
        }
        struct tc_l2_view v;
        tc_l2_view(r->l2, &v);
        PUT(s, v.lease);
        put_time(s, v.next_due, TK_CLAMP);
        PUT(s, v.blocked);
        for (unsigned k = 0; k < r->o->lines; k++)
            put_time(s, tc_obs_promised(r->proto_ctx, line_addr(r, k)), TK_CLAMP);
        return;
    }
    if (!r->prof.vi_bank) /* gpuvi, gpuvini, gpuvi-noinv, ideal */
        return;
    struct vi_bank *b = (struct vi_bank *)r->l2;
    put_list(s, r, &b->inv_out);
    if (!b->has_dir)
        return;
    for (unsigned k = 0; k < r->o->lines; k++) {
        struct cache_line *l = cache_find(&b->dir, line_addr(r, k) >> b->dir_shift);
        uint8_t present = l != NULL;
        PUT(s, present);
        if (l && s->sym && s->sym->dir_sharers) { /* the entry's sharer vector, relabelled */
            PUT(s, l->state);
            uint64_t meta[3] = {relabel_sharers(s, r, l->meta[0], false), l->meta[1], l->meta[2]};
            PUT(s, meta);
        } else if (l) {
            PUT(s, l->state);
            PUT(s, l->meta);
        }
    }
}

/* RCC's reference: each line's kept writes, the in-flight operations'
 * clocks at issue, the fences' and cores' write versions (times relative). */
static void put_lenv(struct ser *s, const struct rig *r)
{
    const struct lenv *e = &r->lenv;
    PUT(s, e->ticks);
    for (unsigned k = 0; k < r->o->lines; k++) {
        PUT(s, e->n_hist[k]);
        for (unsigned i = 0; i < e->n_hist[k]; i++) {
            uint8_t val = (uint8_t)vrel(s, e->hist_val[k][i]);
            PUT(s, e->hist_init[k][i]);
            PUT(s, val);
            if (!e->hist_init[k][i])
                put_time(s, e->hist_ver[k][i], TK_LREF);
        }
    }
    for (unsigned slot = 0; slot < r->n_l1; slot++) { /* (under symmetry relabelled) */
        unsigned c = s->sym ? s->inv[slot] : slot;
        for (unsigned q = 0; q < V_MAX_SLOTS; q++) {
            if (!r->env.busy[c][q])
                continue;
            put_time(s, e->t_issue[c][q], TK_LREF);
            PUT(s, e->fence_has_w[c][q]);
            if (e->fence_has_w[c][q])
                put_time(s, e->fence_w[c][q], TK_LREF);
        }
        PUT(s, e->has_w[c]);
        if (e->has_w[c])
            put_time(s, e->wmax[c], TK_LREF);
    }
}

/* A multi-GPM bank's state outside struct ctrl (verify_mg.c), and the line's
 * home (the pagemap: placed at the first touch). */
struct mg_put {
    struct ser *s;
    const struct rig *r;
};
static void mg_put_bytes(void *arg, const void *p, size_t n)
{
    put(((struct mg_put *)arg)->s, p, n);
}
static void mg_put_msg(void *arg, const struct msg *m)
{
    struct mg_put *a = arg;
    put_msg(a->s, a->r, m, TK_RAW, TK_RAW);
}
static uint64_t mg_put_gpms(void *arg, uint64_t sharers)
{
    struct mg_put *a = arg;
    return relabel_sharers(a->s, a->r, sharers, true);
}
/* first: the bank written first, with the homes (under symmetry over the GPMs
 * relabelled, as the directory's sharer vectors) */
static void put_mg_bank(struct ser *s, const struct rig *r, unsigned b, bool first)
{
    bool gpms = s->sym && s->sym->gpms;
    addr_t lines[V_MAX_LINES];
    for (unsigned k = 0; k < r->o->lines; k++) {
        lines[k] = line_addr(r, k);
        if (first) {
            uint16_t home = (uint16_t)pagemap_owner(&r->pages, lines[k]);
            if (gpms)
                home = relabel_gpm(s, r, home);
            PUT(s, home);
        }
    }
    struct mg_put a = {s, r};
    const struct verify_mg_sink sink = {
        .put = mg_put_bytes, .put_msg = mg_put_msg, .gpms = gpms ? mg_put_gpms : NULL, .arg = &a};
    verify_mg_bank(r->l2s[b], lines, r->o->lines, &sink);
}

/* Symmetry: the checker's per-core reference with core i's entries at perm[i]. */
static void put_env_relabelled(struct ser *s, const struct rig *r)
{
    const struct env *e = &r->env;
    struct env p = *e;
    for (unsigned i = 0; i < r->n_l1; i++) {
        unsigned j = s->perm[i];
        p.issued[j] = e->issued[i];
        memcpy(p.busy[j], e->busy[i], sizeof p.busy[j]);
        memcpy(p.line[j], e->line[i], sizeof p.line[j]);
        memcpy(p.warp[j], e->warp[i], sizeof p.warp[j]); /* (warps go with their core) */
        memcpy(p.allowed[j], e->allowed[i], sizeof p.allowed[j]);
        memcpy(p.floor[j], e->floor[i], sizeof p.floor[j]);
        memcpy(p.val[j], e->val[i], sizeof p.val[j]);
        memcpy(p.vis[j], e->vis[i], sizeof p.vis[j]);
        memcpy(p.wrote[j], e->wrote[i], sizeof p.wrote[j]);
        memcpy(p.fence_lines[j], e->fence_lines[i], sizeof p.fence_lines[j]);
        memcpy(p.scope[j], e->scope[i], sizeof p.scope[j]);
        memcpy(p.rel[j], e->rel[i], sizeof p.rel[j]);
    }
    if (s->values) { /* every value in it relabelled: the line's and the cores' value sets */
        for (unsigned k = 0; k < V_MAX_LINES; k++)
            p.gold[k] = (uint32_t)vrel(s, p.gold[k]);
        for (unsigned c = 0; c < V_MAX_L1; c++) {
            for (unsigned q = 0; q < V_MAX_SLOTS; q++) {
                p.allowed[c][q] = vrel_bits(s, p.allowed[c][q]);
                p.val[c][q] = vrel_bits(s, p.val[c][q]);
            }
            for (unsigned w = 0; w < V_MAX_WARPS; w++)
                for (unsigned k = 0; k < V_MAX_LINES; k++) {
                    p.floor[c][w][k] = vrel_bits(s, p.floor[c][w][k]);
                    p.vis[c][w][k] = vrel_bits(s, p.vis[c][w][k]);
                    p.rel[c][w][0][k] = vrel_bits(s, p.rel[c][w][0][k]);
                    p.rel[c][w][1][k] = vrel_bits(s, p.rel[c][w][1][k]);
                }
        }
    }
    PUT(s, p);
}

/* The channel written in place ch: under symmetry, the L1 links of the L1
 * relabelled into that place. */
static unsigned ch_in_place(const struct ser *s, const struct rig *r, unsigned ch)
{
    if (s->sym && r->unit && ch > ch_dram(r)) { /* a central unit's links, L1 by L1 */
        unsigned slot = ch - ch_unit_up(r, 0);
        return slot < r->n_l1 ? ch_unit_up(r, s->inv[slot])
                              : ch_unit_down(r, s->inv[slot - r->n_l1]);
    }
    if (s->sym && s->sym->gpms && ch >= ch_dram(r)) { /* a bank's DRAM channel, a link's */
        if (ch < ch_sys(r, 0, 0, 0))
            return ch_dram_of(r, s->ginv[ch - ch_dram(r)]);
        bool fr = is_ch_free(r, ch);
        unsigned i = ch - (fr ? ch_free(r, 0, 0, 0) : ch_sys(r, 0, 0, 0)), v = i % r->n_vnets;
        unsigned src = s->ginv[i / r->n_vnets / r->n_l2], dst = s->ginv[i / r->n_vnets % r->n_l2];
        return fr ? ch_free(r, src, dst, v) : ch_sys(r, src, dst, v);
    }
    if (!s->sym || ch >= ch_dram(r))
        return ch;
    unsigned v = ch % r->n_vnets, slot = ch / r->n_vnets;
    return slot < r->n_l1 ? ch_up(r, s->inv[slot], v) : ch_down(r, s->inv[slot - r->n_l1], v);
}

static void put_state(struct ser *s, const struct rig *r)
{
    bool gpms = s->sym && s->sym->gpms; /* (the L1s' messages name no GPM) */
    s->where = MW_L1;
    for (unsigned slot = 0; slot < r->n_l1; slot++) {
        unsigned i = s->sym ? s->inv[slot] : slot;
        put_ctrl(s, r, r->l1[i], true, i);
        if (r->mg) { /* its release or acquire round (verify_mg.c) */
            struct mg_put a = {s, r};
            const struct verify_mg_sink sink = {
                .put = mg_put_bytes, .put_msg = mg_put_msg, .arg = &a};
            verify_mg_l1(r->l1[i], &sink);
        }
        for (unsigned v = 0; v < r->n_vnets; v++)
            put_port(s, r, &r->down[i][v]);
    }
    for (unsigned slot = 0; slot < r->n_l2; slot++) { /* (over GPMs relabelled) */
        unsigned b = gpms ? s->ginv[slot] : slot;
        s->where = MW_BANK;
        put_ctrl(s, r, r->l2s[b], false, 0);
        for (unsigned v = 0; v < r->n_vnets; v++) { /* a request a blocked bank has not taken */
            s->where = MW_L1;
            put_port(s, r, &r->l2_in[b][v]);
            s->where = MW_SYS;
            if (r->mg)
                put_port(s, r, &r->sys_in[b][v]);
        }
        s->where = MW_BANK;
        if (r->mg)
            put_mg_bank(s, r, b, slot == 0);
    }
    s->where = MW_L1;
    put_private(s, r);
    for (unsigned ch = 0; ch < r->n_ch; ch++) {
        s->where = r->mg && ch >= ch_sys(r, 0, 0, 0) ? MW_SYS : MW_L1;
        put_list(s, r, &r->ch[ch_in_place(s, r, ch)]);
    }
    s->where = MW_L1;
    for (unsigned k = 0; k < r->o->lines; k++) {
        uint8_t buf[LINE_MAX_BYTES];
        backing_read(r->store, line_addr(r, k), buf, r->line_bytes);
        put_data(s, buf, r->line_bytes);
    }
    if (s->sym)
        put_env_relabelled(s, r);
    else
        PUT(s, r->env);
    if (r->prof.logical)
        put_lenv(s, r);
    for (unsigned slot = 0; slot < r->n_l1; slot++) /* an atomic's old value, once performed */
        for (unsigned q = 0, c = s->sym ? s->inv[slot] : slot; q < V_MAX_SLOTS; q++)
            if (r->env.busy[c][q] == OPK_ATOMIC + 1) {
                uint64_t old = vrel(s, r->atom[c][q].lane[0].result);
                PUT(s, old);
            }
}

/* The first pass over a state with times: the passed ranked times (sorted,
 * distinct) and the next deadline; nothing is written. */
static void scan_times(struct ser *s, const struct rig *r)
{
    s->now = vx_now_cycles(r);
    s->collect = true;
    s->n_past = 0;
    s->next_deadline = UINT64_MAX;
    s->base = s->min_clock = UINT64_MAX;
    s->max_other = 0;
    s->any_other = false;
    s->gts_base = UINT64_MAX;
    s->gts_align = r->gp.unique_ts ? (1ull << r->gp.warp_bits) - 1 : 0;
    put_state(s, r);
    s->collect = false;
    if (s->n_past > 1) /* the array is NULL until a first time is kept */
        qsort(s->past, s->n_past, sizeof *s->past, cmp_u64);
    size_t n = 0;
    for (size_t i = 0; i < s->n_past; i++)
        if (!n || s->past[n - 1] != s->past[i])
            s->past[n++] = s->past[i];
    s->n_past = n;
}

/* The earliest time in the state not yet passed (UINT64_MAX: none, and time
 * would change nothing). */
uint64_t vx_next_deadline(const struct rig *r)
{
    scan_times(r->scan, r);
    return r->scan->next_deadline;
}

/* Whether a tick may change anything: with TC's leases, while a time in the
 * state has not passed; under RCC, while some L1's clock has not passed every
 * other logical time in the state (docs/verify.md, "Logical time"). */
bool vx_time_can_advance(const struct rig *r)
{
    if (r->prof.unit) /* the EMU's next wake-up is the only thing waiting for time */
        return eng_next_time(&r->eng) != TICK_MAX;
    if (!r->prof.logical)
        return vx_next_deadline(r) != UINT64_MAX;
    if (r->lenv.ticks >= r->o->ticks)
        return false;
    scan_times(r->scan, r);
    return r->scan->any_other && r->scan->min_clock <= r->scan->max_other + r->o->lease + 1;
}

static struct digest digest_of(const struct ser *s);

/* Every permutation of n L1s (n <= V_MAX_L1), as perm[] rows. */
static unsigned permutations(unsigned n, uint8_t out[][V_MAX_L1])
{
    unsigned count = 0;
    uint8_t p[V_MAX_L1];
    for (unsigned code = 0; code < 256; code++) { /* 4 digits of base 4 */
        bool used[V_MAX_L1] = {false}, ok = true;
        for (unsigned i = 0; i < n && ok; i++) {
            p[i] = (uint8_t)(code >> (2 * i) & 3);
            ok = p[i] < n && !used[p[i]];
            if (ok)
                used[p[i]] = true;
        }
        bool first = true; /* each permutation once: the digits above n are 0 */
        for (unsigned i = n; i < V_MAX_L1; i++)
            first &= (code >> (2 * i) & 3) == 0;
        if (ok && first)
            memcpy(out[count++], p, V_MAX_L1);
    }
    return count;
}

/* The relabellings of the GPMs that keep the machine (symmetry over GPMs):
 * GPU homes and release neighbours are arithmetic on GPM numbers (mg_gpu_home:
 * the GPM of a GPU with the system home's index in its GPU; mg_release.c's
 * neighbour: the same GPU, or for .sys the same index in another), which
 * exactly the permutations that move whole GPUs and the GPM indices within a
 * GPU alike keep: those that keep both "same GPU" and "same index". Each L1
 * goes with its GPM and keeps its SM index in it (swapping two SMs of one GPM
 * would need every word naming an SM within a GPM relabelled by the GPM it
 * lies in, which is not done). Rows of gperms (GPMs) and perms (L1s). */
static unsigned gpm_relabellings(const struct rig *r, uint8_t gperms[][V_MAX_L1],
                                 uint8_t perms[][V_MAX_L1])
{
    uint8_t all[24][V_MAX_L1];
    unsigned n_all = permutations(r->n_l2, all), n = 0;
    unsigned per_gpu = r->n_l2 / (r->o->gpus ? r->o->gpus : 1);
    for (unsigned k = 0; k < n_all; k++) {
        const uint8_t *g = all[k];
        bool keeps = true;
        for (unsigned x = 0; x < r->n_l2; x++)
            for (unsigned y = 0; y < r->n_l2; y++)
                keeps &= (x / per_gpu == y / per_gpu) == (g[x] / per_gpu == g[y] / per_gpu) &&
                         (x % per_gpu == y % per_gpu) == (g[x] % per_gpu == g[y] % per_gpu);
        if (!keeps)
            continue;
        memcpy(gperms[n], g, V_MAX_L1);
        for (unsigned i = 0; i < r->n_l1; i++)
            perms[n][i] = (uint8_t)(g[i / r->gpm_sms] * r->gpm_sms + i % r->gpm_sms);
        n++;
    }
    return n;
}

struct digest vx_canonical_digest(const struct rig *r, struct ser *s, unsigned *orbit)
{
    uint8_t perms[24][V_MAX_L1], gperms[24][V_MAX_L1], vperms[24][V_MAX_L1];
    bool gpms = s->sym && s->sym->gpms;
    unsigned n_perms = gpms ? gpm_relabellings(r, gperms, perms) : permutations(r->n_l1, perms);
    /* symmetry over values: every permutation of the stores' values 1..V
     * (verify_run allows V up to V_MAX_SYM_VALUES), 0 and the rest fixed */
    unsigned n_vperms = s->values ? permutations(r->o->values, vperms) : 1;
    struct digest all[24 * 6], best = {{UINT64_MAX, UINT64_MAX}};
    panic_if(n_perms * n_vperms > sizeof all / sizeof *all, "verify: %u relabellings",
             n_perms * n_vperms);
    for (unsigned v = 0; v <= V_MAX_VALUE; v++)
        s->vmap[v] = (uint8_t)v;
    if (r->prof.timed || r->prof.tx) { /* the state's passed times: the same in every order */
        for (unsigned i = 0; i < r->n_l1; i++)
            s->perm[i] = s->inv[i] = s->gperm[i] = s->ginv[i] = (uint8_t)i;
        scan_times(s, r);
    }
    unsigned n_all = 0;
    for (unsigned k = 0; k < n_perms; k++) {
        if (r->spandex && !vspx_keeps_devices(r->p, r->l1_table, perms[k], r->n_l1))
            continue; /* a mix of devices: each L1 only with those of its device */
        for (unsigned i = 0; i < r->n_l1; i++) {
            s->perm[i] = perms[k][i];
            s->inv[perms[k][i]] = (uint8_t)i;
        }
        for (unsigned g = 0; gpms && g < r->n_l2; g++) {
            s->gperm[g] = gperms[k][g];
            s->ginv[gperms[k][g]] = (uint8_t)g;
        }
        for (unsigned j = 0; j < n_vperms; j++) {
            for (unsigned v = 0; s->values && v < r->o->values; v++)
                s->vmap[1 + v] = (uint8_t)(1 + vperms[j][v]);
            s->n = 0;
            put_state(s, r);
            struct digest d = all[n_all++] = digest_of(s);
            if (d.h[0] < best.h[0] || (d.h[0] == best.h[0] && d.h[1] < best.h[1]))
                best = d;
        }
    }
    n_perms = n_all;
    *orbit = 0;
    for (unsigned k = 0; k < n_perms; k++) {
        bool again = false;
        for (unsigned j = 0; j < k && !again; j++)
            again = all[j].h[0] == all[k].h[0] && all[j].h[1] == all[k].h[1];
        *orbit += !again;
    }
    return best;
}

struct digest vx_state_digest(const struct rig *r, struct ser *s)
{
    if (r->prof.timed || r->prof.tx)
        scan_times(s, r);
    s->n = 0;
    put_state(s, r);
    return digest_of(s);
}

static struct digest digest_of(const struct ser *s)
{
    struct digest d;
    d.h[0] = hash_fnv1a(0xcbf29ce484222325ull, s->b, s->n);
    uint64_t h = 0x9e3779b97f4a7c15ull ^ s->n;
    for (size_t i = 0; i < s->n; i++) { /* a second, independent mix */
        h = (h ^ s->b[i]) * 0xff51afd7ed558ccdull;
        h ^= h >> 29;
    }
    d.h[1] = h;
    return d;
}
