/*
 * warptm_vu.h - WarpTM's validation unit at one L2 partition (spec 004a §4.1,
 * thesis §4.1 and Fig. 4.2; Fung & Aamodt, MICRO 2013): lazy, value-based
 * validation with a temporal conflict detector (TCD).
 *
 * At the end of an attempt the SM sends each bank the values its committing
 * lanes read (the read log) and the granules they write. The bank compares
 * the read bytes with its line (values from the bank's own table) and, when
 * they match, holds the granules until the SM's second message (commit with
 * the writes, or cleanup) releases them: a granule read is held shared, one
 * written is held exclusively. A validation that finds a value changed, or a
 * granule another transaction holds against it, fails; the SM aborts the
 * lanes that touched it. The holds are the atomicity the thesis's two round
 * trips need ("while one transaction goes through the two-round-trip
 * validation/commit sequence, other transactions must wait").
 * The hold of a granule is the transition table warptm_vu_table (states
 * Free, Shared, Held; the classifier is the only place with protocol `if`s).
 *
 * The TCD keeps, per granule, the time of the last committed write (a
 * direct-mapped table of maxima: a collision only overestimates). A
 * transactional load's answer carries it (the largest time of the granules
 * it read, or "now" for a granule held for a commit not yet written); an
 * attempt with no writes whose every load saw only writes older than its
 * first load read a snapshot and commits silently (no validation).
 * DEVIATION (the spec's inference, docs/transactions.md): KiloTM/WarpTM order
 *   commits by a global commit id, each commit unit working through them in
 *   order with hazard detection; here each bank holds a validated
 *   transaction's granules until its second message and fails a validation
 *   that meets a conflicting hold (no wait, so no deadlock across banks).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef COH_GETM_WARPTM_VU_H
#define COH_GETM_WARPTM_VU_H

#include "coh/getm/getm_vu.h"

/* What one granule's validation asks for. */
struct warptm_check {
    addr_t addr; /* the granule */
    bool write;  /* the transaction writes it (an exclusive hold) */
    bool match;  /* every byte it read still has the value it read */
    bool alone;  /* the transaction holds the serial token (coh/getm/tx_serial.h): no
                    other validated transaction can hold the granule, and it
                    takes no hold */
};

/* WARPTM_PASSED: validated alone, not held. */
enum warptm_verdict { WARPTM_FAIL, WARPTM_READ_HELD, WARPTM_WRITE_HELD, WARPTM_PASSED };
/* Why a validation failed (the order of sm_tx.h's causes mismatch, held,
 * hold_full). */
enum warptm_fail { WARPTM_FAIL_MISMATCH, WARPTM_FAIL_HELD, WARPTM_FAIL_FULL };

struct warptm_vu_stats {
    uint64_t validations, mismatches, conflicts, full, releases;
};

struct warptm_vu;
struct warptm_vu *warptm_vu_new(const struct getm_params *p, struct eng *eng, const char *name,
                                struct coh_cov *cov);
void warptm_vu_free(struct warptm_vu *v);

/* Validate one granule of a transaction's log (see above). */
enum warptm_verdict warptm_vu_validate(struct warptm_vu *v, const struct warptm_check *c);
/* Why the last validation that failed did. */
enum warptm_fail warptm_vu_why(const struct warptm_vu *v);
/* The commit or cleanup of a validated transaction releases its hold. */
void warptm_vu_release(struct warptm_vu *v, addr_t addr, bool write);
/* TCD: the granule's last committed write (time in ps), or `now` while a
 * validated transaction holds it for a write not yet performed. */
uint64_t warptm_vu_last_write(const struct warptm_vu *v, addr_t addr, uint64_t now);
/* TCD: a commit wrote the granule at `now`. */
void warptm_vu_written(struct warptm_vu *v, addr_t addr, uint64_t now);
const struct warptm_vu_stats *warptm_vu_stats(const struct warptm_vu *v);
/* Read-only views for the explorer's digest and checks (src/verify): the
 * holds on addr's granule (returns the shared holds; *writer: an exclusive
 * one), and the TCD's time of its last committed write (its slot's maximum). */
unsigned warptm_vu_holds(const struct warptm_vu *v, addr_t addr, bool *writer);
uint64_t warptm_vu_tcd(const struct warptm_vu *v, addr_t addr);

extern const struct coh_table warptm_vu_table;

#endif
