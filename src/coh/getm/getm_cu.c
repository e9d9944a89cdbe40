/*
 * getm_cu.c - the commit unit of one L2 partition (see getm_cu.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "coh/getm/getm_cu.h"

#include <stdlib.h>

#include "base/log.h"
#include "sim/eng.h"

struct cu_entry {
    struct msg *m;
    tick_t done;    /* its last region is written then */
    uint32_t bytes; /* of the buffer it holds */
};

struct getm_cu {
    struct clock clk;
    uint32_t bytes;        /* per unit cycle */
    uint32_t buffer, used; /* bytes of buffer, held */
    tick_t free_at;        /* the unit starts its next entry then at the earliest */
    struct cu_entry *ring; /* [cap]: entries in arrival order */
    uint32_t cap, head, n;
    struct getm_cu_stats st;
};

struct getm_cu *getm_cu_new(uint32_t mhz, uint32_t bytes, uint32_t buffer, const char *name)
{
    if (!mhz || !bytes || buffer < bytes)
        panic("%s: a commit unit needs a clock, a width and a buffer of at least one width "
              "(%u MHz, %u bytes a cycle, %u bytes)",
              name, mhz, bytes, buffer);
    struct getm_cu *cu = calloc(1, sizeof *cu);
    if (!cu)
        panic("out of memory");
    cu->clk = (struct clock){"cu", clock_period_ps(mhz)};
    cu->bytes = bytes;
    cu->buffer = buffer;
    cu->cap = buffer / bytes; /* every entry holds at least one width */
    if (!(cu->ring = calloc(cu->cap, sizeof *cu->ring)))
        panic("out of memory");
    return cu;
}

void getm_cu_free(struct getm_cu *cu)
{
    if (!cu)
        return;
    free(cu->ring);
    free(cu);
}

bool getm_cu_offer(struct getm_cu *cu, struct msg *m, unsigned regions, tick_t now)
{
    uint32_t cycles = regions ? regions : 1, bytes = cycles * cu->bytes;
    if (bytes > cu->buffer)
        panic("commit unit: an entry of %u bytes cannot fit a buffer of %u", bytes, cu->buffer);
    if (cu->used + bytes > cu->buffer) {
        cu->st.full++;
        return false;
    }
    tick_t edge = clock_edge_at_or_after(&cu->clk, now);
    tick_t start = MAX(edge, cu->free_at);
    cu->free_at = start + (tick_t)cycles * cu->clk.period_ps;
    cu->ring[(cu->head + cu->n++) % cu->cap] = (struct cu_entry){m, cu->free_at, bytes};
    cu->used += bytes;
    cu->st.entries++;
    cu->st.regions += regions;
    cu->st.busy_cycles += cycles;
    cu->st.wait_cycles += (start - edge) / cu->clk.period_ps;
    cu->st.peak_bytes = MAX(cu->st.peak_bytes, cu->used);
    return true;
}

struct msg *getm_cu_take_done(struct getm_cu *cu, tick_t now)
{
    if (!cu->n || cu->ring[cu->head].done > now)
        return NULL;
    struct cu_entry e = cu->ring[cu->head];
    cu->head = (cu->head + 1) % cu->cap;
    cu->n--;
    cu->used -= e.bytes;
    return e.m;
}

bool getm_cu_busy(const struct getm_cu *cu)
{
    return cu->n != 0;
}

void getm_cu_dump(const struct getm_cu *cu, FILE *out)
{
    fprintf(out, "  commit unit: %u entries, %u of %u bytes held, free at %llu ps\n", cu->n,
            cu->used, cu->buffer, (unsigned long long)cu->free_at);
    for (uint32_t i = 0; i < cu->n; i++) {
        const struct cu_entry *e = &cu->ring[(cu->head + i) % cu->cap];
        fprintf(out, "    %s %#llx from sm %u warp %u, %u bytes, written at %llu ps\n",
                e->m->req.tx == MEM_TX_COMMIT ? "commit" : "cleanup",
                (unsigned long long)e->m->addr, e->m->req.sm, e->m->req.warp, e->bytes,
                (unsigned long long)e->done);
    }
}

const struct getm_cu_stats *getm_cu_stats(const struct getm_cu *cu)
{
    return &cu->st;
}
