/*
 * tbe.h - transaction buffer entries (MSHRs): per-line transient bookkeeping.
 *
 * A controller allocates one entry per line with work in flight (a miss, a
 * write waiting for acks, ...). The entry keeps the protocol's counters, the
 * requests merged into it (answered when the fill arrives; up to a merge
 * limit) and the requests parked behind it (stalled until the line's state
 * changes, then replayed in order). Capacity is fixed: a full table is a
 * resource stall for the controller, never an error.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MEM_TBE_H
#define MEM_TBE_H

#include "sim/msg.h"

struct msg_list {
    struct msg *head, *tail;
    uint32_t n;
};

static inline void msg_list_push(struct msg_list *l, struct msg *m)
{
    m->next = NULL;
    if (l->tail)
        l->tail->next = m;
    else
        l->head = m;
    l->tail = m;
    l->n++;
}

static inline void msg_list_push_front(struct msg_list *l, struct msg *m)
{
    m->next = l->head;
    l->head = m;
    if (!l->tail)
        l->tail = m;
    l->n++;
}

static inline struct msg *msg_list_pop(struct msg_list *l)
{
    struct msg *m = l->head;
    if (m) {
        l->head = m->next;
        if (!l->head)
            l->tail = NULL;
        l->n--;
        m->next = NULL;
    }
    return m;
}

/* Append all of src to dst, leaving src empty. */
static inline void msg_list_splice(struct msg_list *dst, struct msg_list *src)
{
    if (!src->head)
        return;
    if (dst->tail)
        dst->tail->next = src->head;
    else
        dst->head = src->head;
    dst->tail = src->tail;
    dst->n += src->n;
    src->head = src->tail = NULL;
    src->n = 0;
}

struct tbe {
    addr_t addr; /* line address */
    bool used;
    uint8_t state;          /* transient state, when the protocol keeps it here */
    int32_t pending;        /* protocol: outstanding operations on the line */
    int32_t acks;           /* protocol: acknowledgements still expected */
    uint64_t meta[2];       /* protocol: requester, timestamps, ... */
    bool use_once;          /* fill must serve its requests but not be cached */
    struct msg_list merged; /* requests answered by the outstanding fill */
    struct msg_list parked; /* requests stalled until the state changes */
    int32_t next;           /* hash chain (index), -1 ends */
};

struct tbe_table {
    struct tbe *e;
    uint32_t cap, n_used;
    int32_t *bucket;    /* hash heads, -1 empty */
    uint32_t n_buckets; /* power of two */
    int32_t free_head;  /* free list through next */
    uint32_t line_shift;
    uint64_t n_full; /* allocations refused */
};

void tbe_table_init(struct tbe_table *t, uint32_t cap, uint32_t line_bytes);
void tbe_table_destroy(struct tbe_table *t);
struct tbe *tbe_find(struct tbe_table *t, addr_t line);
/* A fresh entry for `line` (which must have none), or NULL when full. */
struct tbe *tbe_alloc(struct tbe_table *t, addr_t line);
void tbe_free(struct tbe_table *t, struct tbe *e);
static inline bool tbe_full(const struct tbe_table *t)
{
    return t->n_used == t->cap;
}

#endif
