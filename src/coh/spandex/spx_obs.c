/*
 * spx_obs.c - the single-owner invariant of Spandex (--check; spandex.h).
 *
 * Ownership moves between L1s without a blocking state: the LLC updates the
 * owner id at once, the old owner keeps the words until it serves the
 * forward, the new owner has them once the relay is in. So at any instant
 * at most one L1 may hold a word owned where it can write it (a line being
 * written back keeps its words only to serve forwards). Checked before every
 * write an L1 performs on owned words, by reading the other L1s' owned masks
 * (an observer's global view; it never changes behaviour). Keyed by the
 * machine's engine; the L1s register in a ctrl_bank_set.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "base/log.h"
#include "coh/spandex/spandex.h"

struct spx_l1_set {
    struct ctrl_bank_set set; /* first: the registry's own record */
    uint64_t (*owned)(struct comp *l1, addr_t line);
};

static struct ctrl_bank_set *all;

void spx_obs_l1(struct eng *e, unsigned index, unsigned n, struct comp *l1,
                uint64_t (*owned)(struct comp *, addr_t))
{
    struct spx_l1_set *s =
        (struct spx_l1_set *)ctrl_bank_set_add(&all, sizeof(struct spx_l1_set), e, index, n, l1);
    s->owned = owned;
}

void spx_obs_l1_gone(struct eng *e, unsigned index)
{
    struct ctrl_bank_set *s = ctrl_bank_set_remove(&all, e, index);
    if (s)
        ctrl_bank_set_free(s);
}

void spx_obs_write(struct eng *e, const char *who, unsigned index, addr_t line, uint64_t words,
                   uint32_t line_bytes)
{
    (void)line_bytes;
    struct spx_l1_set *s = (struct spx_l1_set *)ctrl_bank_set_find(all, e);
    if (!s)
        return;
    for (unsigned i = 0; i < s->set.n_banks; i++) {
        if (i == index || !s->set.banks[i])
            continue;
        uint64_t both = s->owned(s->set.banks[i], line) & words;
        if (both)
            panic("invariant violated: %s writes words %#llx of line %#llx, which %s also owns "
                  "(single owner per word)",
                  who, (unsigned long long)both, (unsigned long long)line, s->set.banks[i]->name);
    }
}
