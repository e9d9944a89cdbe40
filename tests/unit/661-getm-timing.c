/*
 * 661-getm-timing.c - GETM on the timing machine (protocol getm): the SMs
 * stamp transactional requests, the validation units at the L2 banks decide
 * through messages, the commit unit writes the log; values come from the
 * banks. Checked on tests/ptx/tx.ptx: a counter incremented in transactions
 * ends at n and the values read are 0..n-1 once each (a serial order);
 * transfers between accounts leave every balance exactly as the transfers
 * that report success say and the total unchanged; the same seed gives the
 * same statistics; the limit on transactional warps per SM holds warps at
 * their begin and changes no value; the thesis's printed timestamp rules
 * (getm.unique_ts = false) run the same kernels correctly too, and so does
 * the thesis's retry that goes on before its commit and cleanup are
 * acknowledged (getm.commit_waits = false); a commit waits for a plain store
 * issued before its begin, and is then woken; attempts and commit waits are
 * timed. The same kernels run under WarpTM (protocol warptm: lazy value-based
 * validation at the banks, the two-round-trip commit): the counter is
 * serial, the transfers exact, with and without the TCD's silent commits,
 * and an empty transaction commits silently; so are the ideal WarpTM-EL and
 * EAPG variants. Both protocols' validation units can be held to Table 4.2's
 * one granule per VU cycle (getm.vu_port).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "host/host.h"
#include "system/config.h"
#include "system/machine.h"

struct tally {
    uint64_t hash; /* every statistic, names and values */
    uint64_t lane_commits, vu_aborts, limit_waits, commit_msgs, bank_commits;
    uint64_t attempts, attempt_cycles, commit_wait_cycles;
    uint64_t validation_msgs, silent_commits, validations, mismatches, conflicts;
    uint64_t eager_aborts, eapg_aborts, eapg_pauses, port_busy;
    uint64_t lane_aborts, cause_aborts, intra_aborts; /* tx.abort.*: they sum to lane_aborts */
    uint64_t cu_entries, cu_regions, cu_busy_cycles, cu_wait_cycles;
    uint64_t rollovers, vu_rollovers;
};

static void pick(void *arg, const char *name, uint64_t v)
{
    struct tally *t = arg;
    for (const char *c = name; *c; c++)
        t->hash = (t->hash ^ (uint8_t)*c) * 0x100000001b3ull;
    t->hash = (t->hash ^ v) * 0x100000001b3ull;
    size_t n = strlen(name);
#define ENDS(s) (n >= sizeof(s) - 1 && !strcmp(name + n - (sizeof(s) - 1), s))
    if (strstr(name, ".tx.abort.")) {
        t->cause_aborts += v;
        if (ENDS(".intra"))
            t->intra_aborts += v;
    } else if (ENDS(".tx.lane_aborts"))
        t->lane_aborts += v;
    else if (ENDS(".tx.lane_commits"))
        t->lane_commits += v;
    else if (ENDS(".tx.vu_aborts"))
        t->vu_aborts += v;
    else if (ENDS(".tx.limit_waits"))
        t->limit_waits += v;
    else if (ENDS(".tx.commit_msgs"))
        t->commit_msgs += v;
    else if (ENDS(".getm.commits"))
        t->bank_commits += v;
    else if (ENDS(".tx.attempts"))
        t->attempts += v;
    else if (ENDS(".tx.attempt_cycles"))
        t->attempt_cycles += v;
    else if (ENDS(".tx.commit_wait_cycles"))
        t->commit_wait_cycles += v;
    else if (ENDS(".tx.validation_msgs"))
        t->validation_msgs += v;
    else if (ENDS(".tx.silent_commits"))
        t->silent_commits += v;
    else if (ENDS(".getm.vu_port_busy"))
        t->port_busy += v;
    else if (ENDS(".tx.eager_aborts"))
        t->eager_aborts += v;
    else if (ENDS(".tx.eapg_aborts"))
        t->eapg_aborts += v;
    else if (ENDS(".tx.eapg_pauses"))
        t->eapg_pauses += v;
    else if (ENDS(".warptm.validations"))
        t->validations += v;
    else if (ENDS(".warptm.mismatches"))
        t->mismatches += v;
    else if (ENDS(".warptm.conflicts"))
        t->conflicts += v;
    else if (ENDS(".tx.rollovers"))
        t->rollovers += v;
    else if (ENDS(".getm.vu_rollovers"))
        t->vu_rollovers += v;
    else if (ENDS(".getm.cu_entries"))
        t->cu_entries += v;
    else if (ENDS(".getm.cu_regions"))
        t->cu_regions += v;
    else if (ENDS(".getm.cu_busy_cycles"))
        t->cu_busy_cycles += v;
    else if (ENDS(".getm.cu_wait_cycles"))
        t->cu_wait_cycles += v;
#undef ENDS
}

struct rig {
    struct machine *m;
    struct host *h;
    char *text;
};

/* The protocol the tests run: getm, or warptm for the tests named so. */
static const char *protocol = "coherence.protocol=getm";

static void rig_up(struct rig *r, const char *const *extra, unsigned n_extra)
{
    const char *sets[8] = {protocol, "gpu.sms=4"};
    unsigned n = 2;
    for (unsigned k = 0; k < n_extra; k++)
        sets[n++] = extra[k];
    struct config cfg;
    char err[256];
    if (config_load(&cfg, NULL, sets, n, err, sizeof err))
        fail_msg("%s", err);
    r->m = machine_new(&cfg);
    r->h = host_new(machine_launcher(r->m));
    r->text = file_read_text(GPUCOH_SOURCE_DIR "/tests/ptx/tx.ptx", NULL);
    assert_non_null(r->text);
    host_load_ptx(r->h, r->text, "tests/ptx/tx.ptx");
}

static void rig_down(struct rig *r, struct tally *t)
{
    memset(t, 0, sizeof *t);
    machine_stats(r->m, pick, t);
    host_delete(r->h);
    machine_free(r->m);
    free(r->text);
}

/* n threads increment one counter; returns the tally. */
static void counter_run(const char *const *extra, unsigned n_extra, unsigned ctas, unsigned block,
                        struct tally *t)
{
    struct rig r;
    rig_up(&r, extra, n_extra);
    unsigned n = ctas * block;
    addr_t counter = host_malloc(r.h, 4), seen = host_malloc(r.h, n * 4);
    host_memset(r.h, counter, 0, 4);
    struct karg a[] = {KARG_PTR(counter), KARG_PTR(seen)};
    host_launch(r.h, "tx_counter", DIM1(ctas), DIM1(block), 0, a, 2);
    int32_t got, *vals = calloc(n, 4);
    char *hit = calloc(n, 1);
    assert_non_null(vals);
    assert_non_null(hit);
    host_memcpy_from_dev(r.h, &got, counter, 4);
    host_memcpy_from_dev(r.h, vals, seen, n * 4);
    assert_int_equal(got, (int32_t)n);
    for (unsigned k = 0; k < n; k++) {
        assert_true(vals[k] >= 0 && (unsigned)vals[k] < n);
        assert_false(hit[vals[k]]); /* each value read once: a serial order */
        hit[vals[k]] = 1;
    }
    free(vals);
    free(hit);
    rig_down(&r, t);
    assert_int_equal(t->lane_commits, n);
    assert_int_equal(t->cause_aborts, t->lane_aborts); /* every abort has one cause */
}

static void counter_is_serial(void **state)
{
    (void)state;
    struct tally t;
    counter_run(NULL, 0, 8, 64, &t);
    assert_true(t.vu_aborts > 0);    /* warps of different SMs met at the bank */
    assert_true(t.intra_aborts > 0); /* and the lanes of a warp at the one word */
    assert_int_equal(t.cause_aborts - t.intra_aborts, t.vu_aborts);
    assert_int_equal(t.commit_msgs, t.bank_commits);
    /* an attempt takes at least a round trip to a bank, and so does its commit */
    assert_true(t.attempts > 0 && t.attempt_cycles >= 100 * t.attempts);
    assert_true(t.commit_wait_cycles > 0);
}

/* Transfers; returns the tally. Every balance is checked. */
static void transfer_run(const char *const *extra, unsigned n_extra, struct tally *t)
{
    enum { CTAS = 8, N = 128, T = CTAS * N, ACCTS = 97, AMOUNT = 7, START = 20 };
    struct rig r;
    rig_up(&r, extra, n_extra);
    addr_t acct = host_malloc(r.h, ACCTS * 4), moved = host_malloc(r.h, T * 4);
    int init[ACCTS];
    for (int k = 0; k < ACCTS; k++)
        init[k] = START;
    host_memcpy_to_dev(r.h, acct, init, sizeof init);
    struct karg a[] = {KARG_PTR(acct), KARG_I32(ACCTS), KARG_I32(AMOUNT), KARG_PTR(moved)};
    host_launch(r.h, "tx_transfer", DIM1(CTAS), DIM1(N), 0, a, 4);
    int fin[ACCTS], ok[T], want[ACCTS], total = 0, n_moved = 0;
    host_memcpy_from_dev(r.h, fin, acct, sizeof fin);
    host_memcpy_from_dev(r.h, ok, moved, sizeof ok);
    memcpy(want, init, sizeof want);
    for (int k = 0; k < T; k++) {
        if (!ok[k])
            continue;
        n_moved++;
        want[(k * 7 + 3) % ACCTS] -= AMOUNT;
        want[(k * 5 + 1) % ACCTS] += AMOUNT;
    }
    for (int k = 0; k < ACCTS; k++) {
        assert_int_equal(fin[k], want[k]);
        assert_true(fin[k] >= 0);
        total += fin[k];
    }
    assert_int_equal(total, ACCTS * START);
    assert_true(n_moved > ACCTS); /* enough transfers for conflicts */
    rig_down(&r, t);
    assert_int_equal(t->lane_commits, T);
    assert_int_equal(t->cause_aborts, t->lane_aborts);
    assert_int_equal(t->commit_msgs, t->bank_commits); /* each written once */
}

static void transfers_keep_every_balance_exact(void **state)
{
    (void)state;
    struct tally t;
    transfer_run(NULL, 0, &t);
}

static void same_seed_same_statistics(void **state)
{
    (void)state;
    struct tally a, b, c;
    const char *seed[] = {"sim.seed=7"}, *other[] = {"sim.seed=8", "l2.jitter_cycles=3"};
    transfer_run(seed, 1, &a);
    transfer_run(seed, 1, &b);
    assert_true(a.hash == b.hash);
    transfer_run(other, 2, &c); /* still exact, by another interleaving */
    assert_true(a.hash != c.hash);
}

static void limit_holds_warps_at_begin(void **state)
{
    (void)state;
    struct tally t;
    const char *one[] = {"getm.tx_warps=1"};
    counter_run(one, 1, 8, 64, &t);
    assert_true(t.limit_waits > 0);
}

static void printed_timestamps_run_correctly(void **state)
{
    (void)state;
    struct tally t;
    const char *printed[] = {"getm.unique_ts=false"};
    transfer_run(printed, 1, &t);
}

static void retry_goes_on_before_acks(void **state)
{
    (void)state;
    struct tally waits, goes_on;
    const char *on[] = {"getm.commit_waits=false"};
    transfer_run(NULL, 0, &waits);
    transfer_run(on, 1, &goes_on);
    assert_true(goes_on.vu_aborts > 0);
    assert_true(waits.hash != goes_on.hash); /* the retries did not wait */
    counter_run(on, 1, 8, 64, &goes_on);
}

/* Table 4.2's validation bandwidth (getm.vu_port = 1 granule per VU cycle):
 * requests of several granules keep the port busy and later ones wait; the
 * values stay exact. Without the limit the port is never busy. */
static void vu_port_limits_validation(void **state)
{
    (void)state;
    struct tally free_port, one;
    const char *port[] = {"getm.vu_port=1"};
    transfer_run(NULL, 0, &free_port);
    transfer_run(port, 1, &one);
    assert_int_equal(free_port.port_busy, 0);
    assert_true(one.port_busy > 0);
    assert_true(free_port.hash != one.hash);
}

static void empty_transaction_after_a_store(void **state)
{
    (void)state;
    struct rig r;
    struct tally t;
    enum { T = 4 * 64 };
    rig_up(&r, NULL, 0);
    addr_t out = host_malloc(r.h, T * 4);
    struct karg a[] = {KARG_PTR(out)};
    host_launch(r.h, "tx_after_store", DIM1(4), DIM1(64), 0, a, 1);
    int32_t got[T];
    host_memcpy_from_dev(r.h, got, out, sizeof got);
    for (int k = 0; k < T; k++)
        assert_int_equal(got[k], k + 1);
    rig_down(&r, &t);
    assert_int_equal(t.lane_commits, T);
    assert_int_equal(t.commit_msgs, 0);
}

/* Timestamp rollover (getm.ts_bits; coh/getm/tx_epoch.h): 4 SMs of 48 warps need
 * 8 bits of warp id, so 10-bit timestamps give each warp logical times 0..2
 * and the counter's 512 increments roll over again and again (99 times).
 * Every SM and every bank takes part in each rollover, and the counter stays
 * serial. */
static void counter_rolls_over(void **state)
{
    (void)state;
    struct tally t;
    const char *narrow[] = {"getm.ts_bits=10"};
    counter_run(narrow, 1, 8, 64, &t);
    printf("%llu SM rollovers, %llu bank rollovers\n", (unsigned long long)t.rollovers,
           (unsigned long long)t.vu_rollovers);
    uint64_t n = t.rollovers / 4;
    assert_true(n >= 10);
    assert_int_equal(t.rollovers, 4 * n);    /* every SM each time */
    assert_int_equal(t.vu_rollovers, 8 * n); /* and each of the 8 banks */
}

/* One warp commits 32 whole lines (tx_fill_lines: 4 KB, 128 regions of 32
 * bytes) to one L2 bank; returns the tally. Every word is checked. */
static void fill_run(const char *cu_bytes, struct tally *t)
{
    enum { LANES = 32, WORDS = LANES * 32 };
    struct rig r;
    const char *extra[] = {"l2.banks=1", "noc.mhz=1400", "l2.mhz=1400", cu_bytes};
    rig_up(&r, extra, 4);
    addr_t out = host_malloc(r.h, WORDS * 4);
    struct karg a[] = {KARG_PTR(out)};
    host_launch(r.h, "tx_fill_lines", DIM1(1), DIM1(LANES), 0, a, 1);
    int32_t got[WORDS];
    host_memcpy_from_dev(r.h, got, out, sizeof got);
    for (int k = 0; k < WORDS; k++)
        assert_int_equal(got[k], k / 32 + k % 32);
    rig_down(&r, t);
    assert_int_equal(t->lane_commits, LANES);
    assert_int_equal(t->commit_msgs, LANES);
}

/* The commit unit (getm.cu_bytes per cycle of getm.cu_mhz = 700): the 32
 * lines of a 4 KB commit are written region by region, one region a unit
 * cycle. At 4 bytes a cycle a line takes 32 unit cycles, far longer than
 * the messages' spacing on the network, so the unit works without a break
 * from the first message's arrival: the last line is written 1024 unit
 * cycles after it; at 8 bytes, 512. Everything before the first arrival and
 * after the last write is the same in both runs, so the commit's last
 * acknowledgement comes 512 unit cycles later at 4 bytes: 512 x 1429 ps =
 * 1024.7 core cycles of 714 ps. At Table 4.2's 32 bytes the 128 regions take
 * 128 cycles; with no limit (0) the unit is not there. */
static void commit_unit_writes_at_its_bandwidth(void **state)
{
    (void)state;
    struct tally by4, by8, by32, none;
    fill_run("getm.cu_bytes=4", &by4);
    fill_run("getm.cu_bytes=8", &by8);
    fill_run("getm.cu_bytes=32", &by32);
    fill_run("getm.cu_bytes=0", &none);
    assert_int_equal(by4.cu_entries, 32);
    assert_int_equal(by4.cu_regions, 1024);
    assert_int_equal(by4.cu_busy_cycles, 1024);
    assert_int_equal(by8.cu_regions, 512);
    assert_int_equal(by8.cu_busy_cycles, 512);
    assert_true(by4.commit_wait_cycles >= by8.commit_wait_cycles + 1024 &&
                by4.commit_wait_cycles <= by8.commit_wait_cycles + 1026);
    assert_int_equal(by32.cu_regions, 128);
    assert_int_equal(by32.cu_busy_cycles, 128);
    assert_true(by32.cu_wait_cycles > 0); /* the messages came faster than it wrote */
    assert_true(by8.commit_wait_cycles > by32.commit_wait_cycles);
    assert_true(by32.commit_wait_cycles >= none.commit_wait_cycles);
    assert_int_equal(none.cu_entries, 0);
}

/* ---- WarpTM ---- */

static int use_warptm(void **state)
{
    (void)state;
    protocol = "coherence.protocol=warptm";
    return 0;
}

static void warptm_counter_is_serial(void **state)
{
    (void)state;
    struct tally t;
    counter_run(NULL, 0, 8, 64, &t);
    assert_true(t.vu_aborts > 0 && t.mismatches + t.conflicts > 0); /* validations failed */
    assert_int_equal(t.validation_msgs, t.validations);             /* each compared once */
    assert_int_equal(t.commit_msgs, t.bank_commits);
    assert_true(t.attempt_cycles >= 100 * t.attempts);
    assert_true(t.commit_wait_cycles > 0);
}

static void warptm_transfers_exact_and_deterministic(void **state)
{
    (void)state;
    struct tally a, b, c, quiet;
    const char *seed[] = {"sim.seed=7"}, *other[] = {"sim.seed=8", "l2.jitter_cycles=3"};
    const char *no_silent[] = {"warptm.silent=false"};
    transfer_run(seed, 1, &a);
    transfer_run(seed, 1, &b);
    assert_true(a.hash == b.hash);
    assert_true(a.vu_aborts > 0);
    transfer_run(other, 2, &c);
    assert_true(a.hash != c.hash);
    transfer_run(no_silent, 1, &quiet);
    assert_int_equal(quiet.silent_commits, 0);
}

/* The ideal variants: WarpTM-EL aborts lanes early at no cost, EAPG aborts
 * and pauses on commits' broadcasts; both stay exact and serial. */
static void warptm_ideal_variants_exact(void **state)
{
    (void)state;
    struct tally t;
    const char *el[] = {"warptm.eager=true"}, *eapg[] = {"warptm.eapg=true"};
    transfer_run(el, 1, &t);
    assert_true(t.eager_aborts > 0);
    counter_run(el, 1, 8, 64, &t);
    transfer_run(eapg, 1, &t);
    counter_run(eapg, 1, 8, 64, &t);
    assert_true(t.eapg_aborts > 0 && t.eapg_pauses > 0);
}

static void warptm_empty_transaction_commits_silently(void **state)
{
    empty_transaction_after_a_store(state);
    struct rig r;
    struct tally t;
    rig_up(&r, NULL, 0);
    addr_t out = host_malloc(r.h, 256 * 4);
    struct karg a[] = {KARG_PTR(out)};
    host_launch(r.h, "tx_after_store", DIM1(4), DIM1(64), 0, a, 1);
    rig_down(&r, &t);
    assert_int_equal(t.silent_commits, 8); /* one per warp, no validation */
    assert_int_equal(t.validation_msgs, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(counter_is_serial),
        cmocka_unit_test(transfers_keep_every_balance_exact),
        cmocka_unit_test(same_seed_same_statistics),
        cmocka_unit_test(limit_holds_warps_at_begin),
        cmocka_unit_test(printed_timestamps_run_correctly),
        cmocka_unit_test(retry_goes_on_before_acks),
        cmocka_unit_test(empty_transaction_after_a_store),
        cmocka_unit_test(vu_port_limits_validation),
        cmocka_unit_test(commit_unit_writes_at_its_bandwidth),
        cmocka_unit_test(counter_rolls_over),
        cmocka_unit_test_setup(warptm_counter_is_serial, use_warptm),
        cmocka_unit_test_setup(warptm_transfers_exact_and_deterministic, use_warptm),
        cmocka_unit_test_setup(warptm_empty_transaction_commits_silently, use_warptm),
        cmocka_unit_test_setup(warptm_ideal_variants_exact, use_warptm),
        cmocka_unit_test_setup(vu_port_limits_validation, use_warptm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
