/*
 * atm.c - host driver of the ATM workload (GETM set): parallel funds
 * transfers between bank accounts (spec 004a Fig. 4.1, Table 4.3).
 *
 * Every thread makes `per` transfers of 1..8 between two distinct random
 * accounts (atm.cu): by default under the two accounts' locks taken in
 * address order (Fig. 4.1's fine-grained-lock twin, FGLock: runs under any
 * protocol), with --variant tx in transactions (needs a transactional
 * protocol: --protocol getm). Transfers are unconditional, so every serial
 * order gives the same final balances: the check replays every thread's
 * stream on the host and compares every account, and the total never
 * changes. Sizes: tiny 16 CTAs x 64 threads x 4 transfers over 1000
 * accounts; quick and small 60 x 128 x 4 over 10000; paper 240 x 256 x 4
 * over 1 M (Table 4.3's 1M accounts).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_atm[];

#define ATM_START 1000 /* every account's opening balance */

struct atm_size {
    uint32_t ctas, threads, per, accounts;
};
static const struct atm_size atm_sizes[WL_NSIZES] = {
    [WL_TINY] = {16, 64, 4, 1000},
    [WL_QUICK] = {60, 128, 4, 10000},
    [WL_SMALL] = {60, 128, 4, 10000},
    [WL_PAPER] = {240, 256, 4, 1000000},
};

static int atm_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    bool lock = !p->variant;
    if (p->variant && strcmp(p->variant, "tx")) {
        snprintf(why, why_len, "unknown variant '%s' (tx)", p->variant);
        return 1;
    }
    const struct atm_size *z = &atm_sizes[p->size];
    struct rng r;
    rng_seed(&r, p->seed, 0x41544d); /* "ATM" */
    uint32_t seed = (uint32_t)rng_next(&r);
    size_t bytes = (size_t)z->accounts * 4;
    int32_t *want = malloc(bytes), *got = malloc(bytes);
    panic_if(!want || !got, "out of memory");
    for (uint32_t k = 0; k < z->accounts; k++)
        want[k] = ATM_START;

    host_load_ptx(h, wl_ptx_atm, "workloads/atm/atm.ptx");
    addr_t acct = host_malloc(h, bytes);
    host_memcpy_to_dev(h, acct, want, bytes);
    if (lock) {
        addr_t locks = host_malloc(h, bytes);
        host_memset(h, locks, 0, bytes);
        struct karg a[] = {KARG_PTR(acct), KARG_PTR(locks), KARG_I32(z->accounts), KARG_I32(z->per),
                           KARG_U32(seed)};
        host_launch(h, "atm_lock", DIM1(z->ctas), DIM1(z->threads), 0, a, ARRAY_LEN(a));
    } else {
        struct karg a[] = {KARG_PTR(acct), KARG_I32(z->accounts), KARG_I32(z->per), KARG_U32(seed)};
        host_launch(h, "atm_tx", DIM1(z->ctas), DIM1(z->threads), 0, a, ARRAY_LEN(a));
    }
    /* the same streams on the host */
    for (uint32_t t = 0; t < z->ctas * z->threads; t++) {
        uint32_t s = (seed ^ (t * 0x9e3779b9u)) | 1u;
        for (uint32_t k = 0; k < z->per; k++) {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            uint32_t src = s % z->accounts, dst = (s >> 11) % z->accounts;
            int32_t amount = 1 + (int32_t)((s >> 27) & 7u);
            if (src == dst)
                continue;
            want[src] -= amount;
            want[dst] += amount;
        }
    }
    host_memcpy_from_dev(h, got, acct, bytes);
    int64_t total = 0;
    int rc = 0;
    for (uint32_t k = 0; k < z->accounts; k++) {
        total += got[k];
        if (got[k] != want[k] && !rc) {
            snprintf(why, why_len, "account %u holds %d, the transfers give %d (a lost update)", k,
                     got[k], want[k]);
            rc = 1;
        }
    }
    if (!rc && total != (int64_t)ATM_START * z->accounts) {
        snprintf(why, why_len, "the accounts total %lld, not %lld", (long long)total,
                 (long long)ATM_START * z->accounts);
        rc = 1;
    }
    free(want);
    free(got);
    return rc;
}

const struct workload wl_atm = {
    .name = "atm",
    .set = "getm",
    .desc = "funds transfers between random accounts under two locks (tx: in transactions, "
            "--protocol getm); every balance and the total checked",
    .ptx = wl_ptx_atm,
    .ptx_file = "workloads/atm/atm.ptx",
    .run = atm_run,
    .variants = (const char *const[]){"tx", NULL},
};
