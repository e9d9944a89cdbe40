/*
 * cache.c - set-associative data-holding cache array (see cache.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "mem/cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bits.h"
#include "base/log.h"

int cache_spec_check(const struct cache_spec *spec, char *err, size_t errlen)
{
    if (!is_pow2(spec->line_bytes) || spec->line_bytes > LINE_MAX_BYTES || spec->line_bytes < 4) {
        snprintf(err, errlen, "line size %u is not a power of two in [4, %u]", spec->line_bytes,
                 LINE_MAX_BYTES);
        return -1;
    }
    if (!spec->ways || spec->size_bytes % ((uint64_t)spec->ways * spec->line_bytes)) {
        snprintf(err, errlen, "size %u is not a multiple of ways (%u) x line size (%u)",
                 spec->size_bytes, spec->ways, spec->line_bytes);
        return -1;
    }
    uint64_t sets = spec->size_bytes / ((uint64_t)spec->ways * spec->line_bytes);
    if (!sets) {
        snprintf(err, errlen, "cache of %u bytes has no sets", spec->size_bytes);
        return -1;
    }
    if (spec->index == CACHE_INDEX_FERMI_HASH &&
        (spec->line_bytes != 128 || (sets != 32 && sets != 64))) {
        snprintf(err, errlen,
                 "index fermi-hash needs 128-byte lines and 32 or 64 sets (here %u-byte lines, "
                 "%llu sets)",
                 spec->line_bytes, (unsigned long long)sets);
        return -1;
    }
    return 0;
}

int cache_init(struct cache *c, const struct cache_spec *spec, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    c->spec = *spec;
    if (cache_spec_check(spec, err, errlen))
        return -1;
    c->sets = spec->size_bytes / (spec->ways * spec->line_bytes);
    c->line_shift = log2_u64(spec->line_bytes);
    c->set_mask = is_pow2(c->sets) ? c->sets - 1 : 0;
    c->index_div = 1;
    size_t n = (size_t)c->sets * spec->ways;
    c->lines = calloc(n, sizeof *c->lines);
    c->bytes = calloc(n, spec->line_bytes);
    c->tags = malloc(n * sizeof *c->tags);
    c->lru = calloc(n, sizeof *c->lru);
    if (!c->lines || !c->bytes || !c->tags || !c->lru)
        panic("out of memory for a cache of %u bytes", spec->size_bytes);
    for (size_t i = 0; i < n; i++) {
        c->lines[i].data = c->bytes + i * spec->line_bytes;
        c->tags[i] = CACHE_NO_TAG;
    }
    return 0;
}

void cache_destroy(struct cache *c)
{
    free(c->lines);
    free(c->bytes);
    free(c->tags);
    free(c->lru);
    memset(c, 0, sizeof *c);
}

struct cache_line *cache_find(struct cache *c, addr_t line)
{
    size_t base = (size_t)cache_set_of(c, line) * c->spec.ways;
    const addr_t *tags = &c->tags[base];
    c->st.lookups++;
    for (uint32_t w = 0; w < c->spec.ways; w++)
        if (tags[w] == line)
            return &c->lines[base + w];
    return NULL;
}

struct cache_line *cache_victim(struct cache *c, addr_t line,
                                bool (*evictable)(const struct cache_line *, void *), void *arg)
{
    size_t base = (size_t)cache_set_of(c, line) * c->spec.ways;
    const addr_t *tags = &c->tags[base];
    const uint64_t *lru = &c->lru[base];
    int best = -1;
    for (uint32_t w = 0; w < c->spec.ways; w++) {
        if (tags[w] == CACHE_NO_TAG)
            return &c->lines[base + w];
        if ((best < 0 || lru[w] < lru[best]) && (!evictable || evictable(&c->lines[base + w], arg)))
            best = (int)w;
    }
    return best < 0 ? NULL : &c->lines[base + (unsigned)best];
}

void cache_install(struct cache *c, struct cache_line *way, addr_t line)
{
    panic_if(way->present, "cache_install over a present line %#llx",
             (unsigned long long)way->addr);
    way->addr = line;
    way->present = true;
    c->tags[way - c->lines] = line;
    way->dirty = false;
    way->state = 0;
    way->prefetched = false;
    memset(way->meta, 0, sizeof way->meta);
    cache_touch(c, way);
    c->st.fills++;
}

void cache_remove(struct cache *c, struct cache_line *l)
{
    l->present = false;
    c->tags[l - c->lines] = CACHE_NO_TAG;
    l->dirty = false;
    l->state = 0;
    c->st.evictions++;
    if (l->prefetched) {
        l->prefetched = false;
        c->st.prefetched_unused++;
    }
}

void cache_for_each(struct cache *c, void (*fn)(struct cache_line *, void *), void *arg)
{
    size_t n = (size_t)c->sets * c->spec.ways;
    for (size_t i = 0; i < n; i++)
        if (c->lines[i].present)
            fn(&c->lines[i], arg);
}
