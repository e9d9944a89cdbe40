/*
 * tx_board.c - EAPG (ideal)'s broadcasts (see tx_board.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "coh/getm/tx_board.h"

#include <stdlib.h>

#include "base/log.h"

struct listener {
    tx_board_hear *hear;
    void *obj;
};

struct tx_board {
    unsigned n_sms, warps;
    uint64_t *sig; /* [n_sms * warps]: the warp's signature up, or 0 */
    uint64_t any;  /* OR of every signature up: a quick miss */
    unsigned n_up;
    struct listener *l; /* [n_sms] */
};

struct tx_board *tx_board_new(unsigned n_sms, unsigned warps)
{
    struct tx_board *b = calloc(1, sizeof *b);
    if (!b || !(b->sig = calloc((size_t)n_sms * warps, sizeof *b->sig)) ||
        !(b->l = calloc(n_sms, sizeof *b->l)))
        panic("out of memory");
    b->n_sms = n_sms;
    b->warps = warps;
    return b;
}

void tx_board_free(struct tx_board *b)
{
    if (!b)
        return;
    free(b->sig);
    free(b->l);
    free(b);
}

void tx_board_listen(struct tx_board *b, unsigned sm, tx_board_hear *hear, void *obj)
{
    b->l[sm] = (struct listener){hear, obj};
}

uint64_t tx_board_bit(addr_t granule)
{
    return 1ull << ((granule * 0x9e3779b97f4a7c15ull) >> 58);
}

static void tell(const struct tx_board *b, uint64_t sig)
{
    for (unsigned i = 0; i < b->n_sms; i++)
        if (b->l[i].hear)
            b->l[i].hear(b->l[i].obj, sig);
}

void tx_board_publish(struct tx_board *b, unsigned sm, unsigned slot, uint64_t sig)
{
    uint64_t *s = &b->sig[(size_t)sm * b->warps + slot];
    if (!sig)
        return;
    b->n_up += !*s;
    *s |= sig;
    b->any |= sig;
    tell(b, sig);
}

void tx_board_withdraw(struct tx_board *b, unsigned sm, unsigned slot)
{
    uint64_t *s = &b->sig[(size_t)sm * b->warps + slot];
    if (!*s)
        return;
    *s = 0;
    b->any = 0;
    if (--b->n_up)
        for (size_t k = 0; k < (size_t)b->n_sms * b->warps; k++)
            b->any |= b->sig[k];
    tell(b, 0);
}

bool tx_board_meets(const struct tx_board *b, unsigned sm, unsigned slot, uint64_t sig)
{
    if (!(b->any & sig))
        return false;
    for (size_t k = 0; k < (size_t)b->n_sms * b->warps; k++)
        if ((b->sig[k] & sig) && k != (size_t)sm * b->warps + slot)
            return true;
    return false;
}
