/*
 * tx_serial.h - the serialising fallback that guarantees every transactional
 * design forward progress (GETM, WarpTM, WarpTM-EL, EAPG;
 * docs/transactions.md "Forward progress").
 *
 * Neither design's paper guarantees progress: GETM's thesis (§4.5.1) has
 * aborted transactions "restart with a probabilistically increasing
 * backoff", which makes a livelock unlikely, not impossible; WarpTM's is
 * silent. WarpTM with a small hold table livelocked outright: every lane of
 * an attempt met a full table, every retry repeated the same validation and
 * nothing committed. So a warp whose attempts have had no lane commit
 * getm.progress_aborts times in a row asks for the GPU's one serial token.
 * From then on no other attempt starts (warps at their begin and retries
 * wait), while every attempt already running finishes (commits or aborts,
 * its commit and cleanup acknowledged). When no other warp of the GPU has an
 * attempt running or a commit unacknowledged, the token is granted and the
 * warp runs its transaction alone until every lane has committed and its
 * last acknowledgement is in; then the next asker (first come, first served)
 * gets the token, or, with none left, every waiting warp goes on.
 *
 * Alone, an attempt commits its lowest live lane: intra-warp conflicts keep
 * the lowest lane, no other transaction changes a value it read (WarpTM's
 * validation passes) or holds a granule it needs, and GETM's timestamps,
 * moved past everything the previous attempt saw, pass. A WarpTM validation
 * made alone takes no hold (the token is the isolation the holds would give),
 * so no hold table size can refuse it. A warp's transaction therefore ends
 * after at most 32 productive attempts, each preceded by fewer than
 * progress_aborts fruitless ones.
 * DEVIATION: the token is an agreement between the SMs that costs no time
 *   and no traffic (an audited exception to message passing, like the
 *   rollover's board, coh/getm/tx_epoch.h); the drain until nothing else is in
 *   flight is modelled.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef COH_GETM_TX_SERIAL_H
#define COH_GETM_TX_SERIAL_H

#include <stdbool.h>
#include <stdint.h>

/* Called on an SM whenever the token changes hands or comes free: it starts
 * the warp granted the token, or lets its waiting warps go on. */
typedef void tx_serial_changed(void *obj);

struct tx_serial;
struct tx_serial *tx_serial_new(unsigned n_sms, unsigned warps_per_sm);
void tx_serial_free(struct tx_serial *s);
void tx_serial_listen(struct tx_serial *s, unsigned sm, tx_serial_changed *fn, void *obj);

/* A warp's attempt began or ended, or its last commit or cleanup was
 * acknowledged (+1: it has one running or unacknowledged, -1: no longer).
 * May grant the token when the count reaches 0. */
void tx_serial_live(struct tx_serial *s, int delta);
/* Warp `slot` of SM `sm` (not live) asks for the token; granted once every
 * earlier asker has had it and nothing is live. */
void tx_serial_request(struct tx_serial *s, unsigned sm, unsigned slot);
/* The token is asked for or held: no attempt but the holder's may start. */
bool tx_serial_busy(const struct tx_serial *s);
/* Warp `slot` of SM `sm` holds the granted token. */
bool tx_serial_holds(const struct tx_serial *s, unsigned sm, unsigned slot);
/* The holder's transaction is done (every lane committed, every ack in). */
void tx_serial_release(struct tx_serial *s, unsigned sm, unsigned slot);

#endif
