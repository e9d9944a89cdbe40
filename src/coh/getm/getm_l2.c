/*
 * getm_l2.c - the L2 bank of protocols getm and warptm: nc's bank (coh/nc)
 * with the validation unit of getm_bank.h in front of its table, through
 * the bank's extension (struct nc_l2_ext).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "coh/getm/getm_bank.h"
#include "coh/nc/nc.h"

/* A commit's or cleanup's flags are the rc L1's too: the bank's mark must
 * be outside the L1's bits (nc.h). */
_Static_assert(!(GETM_F_WRITTEN & NC_F_L1), "GETM_F_WRITTEN shares a bit with the L1's flags");
_Static_assert((int)GETM_TO_TABLE == NC_L2_TO_TABLE && (int)GETM_TAKEN == NC_L2_TAKEN &&
                   (int)GETM_BUSY == NC_L2_BUSY,
               "getm_bank_take answers as the bank's extension does");

static enum nc_l2_take take(void *ext, struct ctrl *b, struct msg *m)
{
    return (enum nc_l2_take)getm_bank_take(ext, b, m);
}

/* Only a transactional request's line is the VU's matter. */
static bool reading(void *ext, struct ctrl *b, struct msg *m, const uint8_t *line)
{
    return m->req.tx && getm_bank_reading(ext, b, m, line);
}

/* A commit's reservations go once it is written. */
static void written(void *ext, struct ctrl *b, struct msg *m)
{
    if (m->req.tx != MEM_TX_COMMIT)
        return;
    getm_bank_committed(ext, b, m);
    m->flags &= (uint16_t)~GETM_F_WRITTEN; /* the bank's mark stays in the bank */
}

static bool tick(void *ext, struct ctrl *b)
{
    return getm_bank_tick(ext, b);
}

/* A request waits for the VU's port, or the commit unit writes. */
static bool must_tick(const void *ext, const struct ctrl *b, bool waiting)
{
    return (waiting && getm_bank_busy(ext, b->comp.eng->now)) || getm_bank_writing(ext);
}

static bool holds(const void *ext)
{
    return getm_bank_holds(ext);
}

static void dump(const void *ext, FILE *out)
{
    getm_bank_dump(ext, out);
}

static const struct nc_l2_ext getm_l2_ext = {
    .take = take,
    .reading = reading,
    .written = written,
    .tick = tick,
    .must_tick = must_tick,
    .holds = holds,
    .dump = dump,
};

struct comp *getm_l2_create(const struct ctrl_wiring *w)
{
    return nc_l2_create_ext(w, &getm_l2_ext, getm_bank_new(w));
}

void getm_l2_destroy(struct comp *cp)
{
    getm_bank_free(nc_l2_ext_of(cp));
    ctrl_destroy(cp);
}

void getm_l2_stats(struct comp *cp, void (*emit)(void *, const char *, uint64_t), void *arg)
{
    ctrl_stats(cp, emit, arg);
    getm_bank_stats(nc_l2_ext_of(cp), emit, arg);
}

void getm_l2_series(struct comp *cp, uint64_t *values)
{
    getm_bank_series(nc_l2_ext_of(cp), values);
}

void getm_l2_rollover(struct comp *cp)
{
    getm_bank_rollover(nc_l2_ext_of(cp));
}

const struct getm_vu *getm_l2_vu(struct comp *cp)
{
    return getm_bank_vu(nc_l2_ext_of(cp));
}

const struct warptm_vu *getm_l2_wvu(struct comp *cp)
{
    return getm_bank_wvu(nc_l2_ext_of(cp));
}
