/*
 * tx_epoch.h - GETM's timestamp rollover (spec 004a §4.7, thesis §4.5.2):
 * when a warp's next logical timestamp would not fit getm.ts_bits, every
 * validation unit and every SIMT core rolls over together.
 *
 * The thesis: the VU that detects the rollover stalls every VU over a ring
 * (stall and forward, then roll over and continue), the cores roll over on
 * the VUs' request and ack it, and once nothing is in flight each VU flushes
 * its stall buffer and metadata tables and resumes. Here the board is that
 * agreement: an SM whose warp would need a timestamp beyond the width asks
 * for a rollover; from then on no transaction begins and no attempt retries
 * (the warps wait), while every attempt already running finishes (commits or
 * aborts, its commit and cleanup acknowledged). When no warp of the GPU has
 * an attempt running or a commit unacknowledged, nothing transactional is in
 * flight and no granule is reserved: every bank's validation unit clears its
 * metadata (rts, wts, the Bloom filter) and every warp restarts from its
 * first timestamp, so every later transaction is logically after every
 * earlier one, as it is in real time. Then the waiting warps go on.
 * DEVIATION: the ring's messages and the cores' requests and acks cost no
 *   time and no traffic (an audited exception to message passing, like
 *   EAPG's board); the stall until nothing is in flight is modelled. The
 *   core, not the VU, sees the timestamp that would not fit (the VU's answer
 *   carries it), at the same moment.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef COH_GETM_TX_EPOCH_H
#define COH_GETM_TX_EPOCH_H

#include <stdbool.h>
#include <stdint.h>

/* What a listener does at a rollover: a bank clears its validation unit, an
 * SM restarts its warps' timestamps and wakes the warps that waited. */
typedef void tx_epoch_roll(void *obj);

struct tx_epoch;
struct tx_epoch *tx_epoch_new(unsigned n_sms, unsigned n_banks);
void tx_epoch_free(struct tx_epoch *e);
void tx_epoch_listen_sm(struct tx_epoch *e, unsigned sm, tx_epoch_roll *fn, void *obj);
void tx_epoch_listen_bank(struct tx_epoch *e, unsigned bank, tx_epoch_roll *fn, void *obj);

/* A warp's attempt began or ended, or its last commit or cleanup was
 * acknowledged (+1: it has one running or unacknowledged, -1: no longer).
 * May roll over (calling the listeners) when the count reaches 0. */
void tx_epoch_live(struct tx_epoch *e, int delta);
/* A warp's next timestamp would not fit: stall, and roll over once nothing
 * is live (at once when nothing is). */
void tx_epoch_request(struct tx_epoch *e);
/* A rollover has been asked for and not yet done: no attempt may start. */
bool tx_epoch_stalling(const struct tx_epoch *e);
uint64_t tx_epoch_rollovers(const struct tx_epoch *e);

#endif
