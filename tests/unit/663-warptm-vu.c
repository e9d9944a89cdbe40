/*
 * 663-warptm-vu.c - WarpTM's validation unit (spec 004a §4.1;
 * coh/getm/warptm_vu.h): directed steps through every cell of its table.
 * Readers share a granule and a writer is refused while they hold it; a
 * writer holds it alone; a changed value fails whatever the holds; a full
 * hold table fails a validation that needs a new entry; the last release
 * frees the entry (a later writer gets it); a validation alone (the serial
 * token's holder) is checked but takes no hold, so it passes whatever the
 * table's size; deletions from the hold table
 * keep every other hold. The temporal conflict detector answers "now" for a
 * granule held for a write and otherwise its latest write, which a later
 * report of an earlier time never lowers.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "coh/getm/warptm_vu.h"

struct rig {
    struct eng eng;
    struct coh_cov cov;
    struct warptm_vu *v;
};

static void rig_init(struct rig *r, uint32_t holds, uint32_t tcd)
{
    struct getm_params p;
    getm_params_default(&p);
    p.warptm = true;
    p.hold_entries = holds;
    p.tcd_entries = tcd;
    memset(r, 0, sizeof *r);
    eng_init(&r->eng);
    coh_cov_init(&r->cov, &warptm_vu_table);
    r->v = warptm_vu_new(&p, &r->eng, "vu0", &r->cov);
}

static void rig_destroy(struct rig *r)
{
    warptm_vu_free(r->v);
    coh_cov_destroy(&r->cov);
    eng_destroy(&r->eng);
}

static enum warptm_verdict val(struct rig *r, addr_t a, bool write, bool match)
{
    struct warptm_check c = {a, write, match, false};
    return warptm_vu_validate(r->v, &c);
}

/* A validation by the serial token's holder (coh/getm/tx_serial.h). */
static enum warptm_verdict val_alone(struct rig *r, addr_t a, bool write, bool match)
{
    struct warptm_check c = {a, write, match, true};
    return warptm_vu_validate(r->v, &c);
}

static void every_cell(void **state)
{
    (void)state;
    struct rig r;
    rig_init(&r, 8, 4);
    const addr_t A = 0x1000, B = 0x1020, C = 0x1040;
    /* Free */
    assert_int_equal(val(&r, A, false, true), WARPTM_READ_HELD); /* ValRead -> Shared */
    assert_int_equal(val(&r, B, true, true), WARPTM_WRITE_HELD); /* ValWrite -> Held */
    assert_int_equal(val(&r, C, false, false), WARPTM_FAIL);     /* ValMismatch */
    /* alone: checked, not held (a later writer still finds C free) */
    assert_int_equal(val_alone(&r, C, true, true), WARPTM_PASSED); /* ValAlone */
    assert_int_equal(val_alone(&r, C, false, false), WARPTM_FAIL); /* a changed value */
    /* Shared */
    assert_int_equal(val(&r, A, false, true), WARPTM_READ_HELD); /* a second reader */
    assert_int_equal(val(&r, A, true, true), WARPTM_FAIL);       /* ValConflict */
    assert_int_equal(val(&r, A, false, false), WARPTM_FAIL);     /* ValMismatch */
    /* Held */
    assert_int_equal(val(&r, B, false, true), WARPTM_FAIL);  /* a reader: ValConflict */
    assert_int_equal(val(&r, B, true, true), WARPTM_FAIL);   /* a writer: ValConflict */
    assert_int_equal(val(&r, B, false, false), WARPTM_FAIL); /* ValMismatch */
    /* the TCD: a held granule is being written now; others their last write */
    assert_int_equal(warptm_vu_last_write(r.v, B, 500), 500);
    assert_int_equal(warptm_vu_last_write(r.v, A, 500), 0);
    warptm_vu_written(r.v, B, 300);
    warptm_vu_release(r.v, B, true); /* ReleaseWrite -> Free */
    assert_int_equal(warptm_vu_last_write(r.v, B, 900), 300);
    warptm_vu_written(r.v, B, 200); /* never lowered */
    assert_int_equal(warptm_vu_last_write(r.v, B, 900), 300);
    warptm_vu_release(r.v, A, false); /* Release: one left */
    assert_int_equal(val(&r, A, true, true), WARPTM_FAIL);
    warptm_vu_release(r.v, A, false);                            /* ReleaseLast -> Free */
    assert_int_equal(val(&r, A, true, true), WARPTM_WRITE_HELD); /* free again */
    warptm_vu_release(r.v, A, true);
    /* 8 entries: three quarters (6) may be held; the 7th granule fails */
    for (unsigned k = 0; k < 6; k++)
        assert_int_equal(val(&r, 0x8000 + 32 * k, false, true), WARPTM_READ_HELD);
    assert_int_equal(val(&r, 0x9000, false, true), WARPTM_FAIL); /* ValFull */
    assert_int_equal(warptm_vu_stats(r.v)->full, 1);
    assert_int_equal(val(&r, 0x8000, false, true), WARPTM_READ_HELD); /* held ones still share */
    for (unsigned k = 0; k < 6; k++)
        warptm_vu_release(r.v, 0x8000 + 32 * k, false);
    warptm_vu_release(r.v, 0x8000, false);
    assert_int_equal(val(&r, 0x9000, true, true), WARPTM_WRITE_HELD); /* room again */
    warptm_vu_release(r.v, 0x9000, true);
    /* the serial token's holder validates alone: a line's four granules pass
     * at 4 entries (3 may be held, and are), and no hold is taken */
    struct rig small;
    rig_init(&small, 4, 4);
    for (unsigned k = 0; k < 3; k++)
        assert_int_equal(val(&small, 0xa000 + 32 * k, true, true), WARPTM_WRITE_HELD);
    assert_int_equal(val(&small, 0xa060, true, true), WARPTM_FAIL); /* the fourth: full */
    for (unsigned k = 0; k < 3; k++)
        warptm_vu_release(small.v, 0xa000 + 32 * k, true);
    for (unsigned k = 0; k < 4; k++)
        assert_int_equal(val_alone(&small, 0xa000 + 32 * k, true, true), WARPTM_PASSED);
    for (unsigned k = 0; k < 3; k++) /* nothing was held: room for three holds again */
        assert_int_equal(val(&small, 0xb000 + 32 * k, true, true), WARPTM_WRITE_HELD);
    rig_destroy(&small);
    const struct coh_table *t = &warptm_vu_table;
    for (unsigned k = 0; k < t->n_states * t->n_events; k++)
        if (t->cells[k].kind == COH_DO && !r.cov.hits[k])
            fail_msg("cell %s:%s never fired", t->state_names[k / t->n_events],
                     t->event_names[k % t->n_events]);
    rig_destroy(&r);
}

/* Deleting from the open-addressed hold table keeps every other hold found:
 * many granules held and released in a scrambled order. */
static void holds_survive_deletions(void **state)
{
    (void)state;
    struct rig r;
    rig_init(&r, 64, 4);
    for (unsigned k = 0; k < 48; k++)
        assert_int_equal(val(&r, 32ull * (k * 37 % 101), true, true), WARPTM_WRITE_HELD);
    for (unsigned k = 0; k < 48; k += 2)
        warptm_vu_release(r.v, 32ull * (k * 37 % 101), true);
    for (unsigned k = 1; k < 48; k += 2) /* still held: a second writer fails */
        assert_int_equal(val(&r, 32ull * (k * 37 % 101), true, true), WARPTM_FAIL);
    for (unsigned k = 0; k < 48; k += 2) /* released: free */
        assert_int_equal(val(&r, 32ull * (k * 37 % 101), false, true), WARPTM_READ_HELD);
    rig_destroy(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_cell),
        cmocka_unit_test(holds_survive_deletions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
