/*
 * tx_serial.c - the serialising fallback's token (see tx_serial.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "coh/getm/tx_serial.h"

#include <stdlib.h>

#include "base/log.h"

struct listener {
    tx_serial_changed *fn;
    void *obj;
};

struct tx_serial {
    unsigned n_sms, warps;
    struct listener *sms;
    uint32_t *queue;  /* askers, sm * warps + slot, oldest first (a ring) */
    unsigned head, n; /* the ring's first and its length; queue[head]: the holder */
    bool granted;     /* queue[head] holds the token */
    uint64_t live;    /* warps with an attempt running or a commit unacknowledged */
};

struct tx_serial *tx_serial_new(unsigned n_sms, unsigned warps_per_sm)
{
    struct tx_serial *s = calloc(1, sizeof *s);
    if (!s || !(s->sms = calloc(n_sms, sizeof *s->sms)) ||
        !(s->queue = calloc((size_t)n_sms * warps_per_sm, sizeof *s->queue)))
        panic("out of memory");
    s->n_sms = n_sms;
    s->warps = warps_per_sm;
    return s;
}

void tx_serial_free(struct tx_serial *s)
{
    if (!s)
        return;
    free(s->sms);
    free(s->queue);
    free(s);
}

void tx_serial_listen(struct tx_serial *s, unsigned sm, tx_serial_changed *fn, void *obj)
{
    s->sms[sm] = (struct listener){fn, obj};
}

static void tell_all(struct tx_serial *s)
{
    for (unsigned k = 0; k < s->n_sms; k++)
        if (s->sms[k].fn)
            s->sms[k].fn(s->sms[k].obj);
}

/* The oldest asker gets the token once nothing else is in flight. */
static void try_grant(struct tx_serial *s)
{
    if (s->granted || !s->n || s->live)
        return;
    s->granted = true;
    unsigned sm = s->queue[s->head] / s->warps;
    if (s->sms[sm].fn)
        s->sms[sm].fn(s->sms[sm].obj);
}

void tx_serial_live(struct tx_serial *s, int delta)
{
    if (delta < 0 && !s->live)
        panic("tx_serial: a warp's attempt ended, but none was counted running");
    s->live += (uint64_t)(int64_t)delta;
    try_grant(s);
}

void tx_serial_request(struct tx_serial *s, unsigned sm, unsigned slot)
{
    unsigned cap = s->n_sms * s->warps;
    if (s->n >= cap)
        panic("tx_serial: more askers than warps");
    s->queue[(s->head + s->n++) % cap] = sm * s->warps + slot;
    try_grant(s);
}

bool tx_serial_busy(const struct tx_serial *s)
{
    return s->n != 0;
}

bool tx_serial_holds(const struct tx_serial *s, unsigned sm, unsigned slot)
{
    return s->granted && s->queue[s->head] == sm * s->warps + slot;
}

void tx_serial_release(struct tx_serial *s, unsigned sm, unsigned slot)
{
    if (!tx_serial_holds(s, sm, slot))
        panic("tx_serial: warp %u of SM %u releases a token it does not hold", slot, sm);
    s->granted = false;
    s->head = (s->head + 1) % (s->n_sms * s->warps);
    s->n--;
    if (s->n)
        try_grant(s);
    else
        tell_all(s); /* free: every waiting warp goes on */
}
