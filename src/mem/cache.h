/*
 * cache.h - a set-associative cache array that holds data.
 *
 * Tags, per-line protocol state and metadata, LRU replacement, and the line
 * bytes themselves: a hit returns what the line holds, stale or not. The
 * array knows nothing of protocols: a controller looks lines up, asks for a
 * victim, installs and removes lines, and keeps the state byte (which only its
 * transition table changes). `meta` is protocol-owned (sharer vectors,
 * timestamps, ...).
 * INVARIANT: a line address is present in at most one way of its set.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MEM_CACHE_H
#define MEM_CACHE_H

#include "base/types.h"

/* How a line address picks its set. */
enum cache_index {
    CACHE_INDEX_LINEAR,     /* the line number's low bits */
    CACHE_INDEX_FERMI_HASH, /* Fermi's L1 (Nugteren et al., HPCA 2014): address bits 7-11
                               XOR bits 13, 14, 15, 17 and 19; bit 12 above them when
                               there are 64 sets. 128-byte lines, 32 or 64 sets only. */
};

struct cache_spec {
    uint32_t size_bytes; /* capacity */
    uint32_t ways;       /* associativity */
    uint32_t line_bytes; /* line size (power of two, <= LINE_MAX_BYTES) */
    uint32_t hit_cycles; /* tag + data access latency */
    uint32_t index;      /* enum cache_index */
};

struct cache_line {
    addr_t addr;      /* line address (valid when present) */
    bool present;     /* the way holds this line */
    bool dirty;       /* data differs from the next level */
    uint8_t state;    /* protocol state, set only by the controller's table */
    bool prefetched;  /* filled for prefetches alone and not yet accessed by a demand
                         request (the L1's prefetch statistics; ctrl_l1_note_fill) */
    uint64_t meta[3]; /* protocol metadata (sharers, timestamps, ...) */
    uint8_t *data;    /* line_bytes of data */
};

#define CACHE_NO_TAG (~(addr_t)0) /* no line address is all ones (lines are aligned) */

struct cache_stats {
    uint64_t lookups, hits, fills, evictions;
    uint64_t prefetched_unused; /* lines removed (evicted, invalidated) while `prefetched` */
};

struct cache {
    struct cache_spec spec;
    uint32_t sets;
    unsigned line_shift;
    struct cache_line *lines; /* sets * ways */
    addr_t *tags;             /* sets * ways: a present line's address, else CACHE_NO_TAG
                                 (a set's tags are adjacent: a lookup reads one or two
                                 host cache lines, not every way's metadata) */
    uint64_t *lru;            /* sets * ways: last-use stamps, adjacent per set too */
    uint8_t *bytes;           /* backing storage for every line's data */
    uint64_t lru_clock;
    uint32_t index_div; /* lines interleaved over this many banks: strip that
                           factor before indexing sets (1 = none) */
    uint32_t set_mask;  /* sets - 1 when sets is a power of two, else 0 */
    struct cache_stats st;
};

/* Returns 0, or -1 with a message when the geometry is impossible. */
int cache_init(struct cache *c, const struct cache_spec *spec, char *err, size_t errlen);

/* The geometry checks of cache_init alone (for configuration checks). */
int cache_spec_check(const struct cache_spec *spec, char *err, size_t errlen);
void cache_destroy(struct cache *c);

static inline addr_t cache_line_addr(const struct cache *c, addr_t a)
{
    return a & ~(addr_t)(c->spec.line_bytes - 1);
}

static inline uint32_t cache_set_of(const struct cache *c, addr_t line)
{
    if (c->spec.index == CACHE_INDEX_FERMI_HASH) {
        uint32_t low = (uint32_t)(line >> 7) & 0x1f;
        uint32_t high = (uint32_t)((line >> 13) & 0x7) | (uint32_t)((line >> 14) & 0x8) |
                        (uint32_t)((line >> 15) & 0x10);
        return (low ^ high) | (c->sets == 64 ? (uint32_t)(line >> 7) & 0x20 : 0);
    }
    uint64_t n = line >> c->line_shift;
    uint32_t d = c->index_div;
    n = (d & (d - 1)) == 0 ? n >> __builtin_ctz(d) : n / d; /* no divide for powers of two */
    return (uint32_t)(c->set_mask ? n & c->set_mask : n % c->sets);
}

/* The present line for `line`, or NULL. Does not touch LRU. */
struct cache_line *cache_find(struct cache *c, addr_t line);

/* Mark a line most recently used. */
static inline void cache_touch(struct cache *c, struct cache_line *l)
{
    c->lru[l - c->lines] = ++c->lru_clock;
}

/* A way for `line`: an empty way of its set if any, else the least recently
 * used line for which `evictable(l, arg)` is true (the caller must evict it
 * first), else NULL (every way busy). */
struct cache_line *cache_victim(struct cache *c, addr_t line,
                                bool (*evictable)(const struct cache_line *, void *), void *arg);

/* Take an empty way for `line` (data left as it was: the caller fills it). */
void cache_install(struct cache *c, struct cache_line *way, addr_t line);
/* Free a way. */
void cache_remove(struct cache *c, struct cache_line *l);

/* Call fn on every present line (flash operations, dumps). */
void cache_for_each(struct cache *c, void (*fn)(struct cache_line *, void *), void *arg);

#endif
