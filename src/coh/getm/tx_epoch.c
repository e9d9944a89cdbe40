/*
 * tx_epoch.c - GETM's timestamp rollover (see tx_epoch.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "coh/getm/tx_epoch.h"

#include <stdlib.h>

#include "base/log.h"

struct listener {
    tx_epoch_roll *fn;
    void *obj;
};

struct tx_epoch {
    unsigned n_sms, n_banks;
    struct listener *sms, *banks;
    uint64_t live; /* warps with an attempt running or a commit unacknowledged */
    bool stalling;
    uint64_t rollovers;
};

struct tx_epoch *tx_epoch_new(unsigned n_sms, unsigned n_banks)
{
    struct tx_epoch *e = calloc(1, sizeof *e);
    if (!e || !(e->sms = calloc(n_sms, sizeof *e->sms)) ||
        !(e->banks = calloc(n_banks, sizeof *e->banks)))
        panic("out of memory");
    e->n_sms = n_sms;
    e->n_banks = n_banks;
    return e;
}

void tx_epoch_free(struct tx_epoch *e)
{
    if (!e)
        return;
    free(e->sms);
    free(e->banks);
    free(e);
}

void tx_epoch_listen_sm(struct tx_epoch *e, unsigned sm, tx_epoch_roll *fn, void *obj)
{
    e->sms[sm] = (struct listener){fn, obj};
}

void tx_epoch_listen_bank(struct tx_epoch *e, unsigned bank, tx_epoch_roll *fn, void *obj)
{
    e->banks[bank] = (struct listener){fn, obj};
}

/* Nothing is in flight: the banks first (their tables must be clear before
 * any warp's request can reach them), then the SMs, which restart warps. */
static void roll(struct tx_epoch *e)
{
    e->stalling = false;
    e->rollovers++;
    for (unsigned b = 0; b < e->n_banks; b++)
        if (e->banks[b].fn)
            e->banks[b].fn(e->banks[b].obj);
    for (unsigned s = 0; s < e->n_sms; s++)
        if (e->sms[s].fn)
            e->sms[s].fn(e->sms[s].obj);
}

void tx_epoch_live(struct tx_epoch *e, int delta)
{
    if (delta < 0 && !e->live)
        panic("tx_epoch: a warp's attempt ended, but none was counted running");
    e->live += (uint64_t)(int64_t)delta;
    if (e->stalling && !e->live)
        roll(e);
}

void tx_epoch_request(struct tx_epoch *e)
{
    if (e->stalling)
        return;
    e->stalling = true;
    if (!e->live)
        roll(e);
}

bool tx_epoch_stalling(const struct tx_epoch *e)
{
    return e->stalling;
}

uint64_t tx_epoch_rollovers(const struct tx_epoch *e)
{
    return e->rollovers;
}
