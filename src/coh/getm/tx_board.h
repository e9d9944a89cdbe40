/*
 * tx_board.h - EAPG (ideal)'s broadcasts (spec 004a §4.9; Chen & Peng, HPCA
 * 2016): the write signatures of the transactions committing now, as every
 * SM sees them at once.
 *
 * EarlyAbort/Pause-n-Go adds to WarpTM the broadcast of a committing
 * transaction's conflict set to every core. The thesis idealises it (a 64-bit
 * signature per commit, reference counts updated in a cycle, an instant
 * check); here the board is that ideal: a warp whose validation passed
 * publishes the 64-bit signature of the granules it writes (one bit per
 * granule hash) and every SM hears it at once; the signature is withdrawn
 * when the commit's acknowledgements are in. An SM aborts at once the lanes
 * of running attempts that read a granule the signature names (EarlyAbort),
 * and holds an attempt that would validate a granule named by a signature
 * still up until it is withdrawn (Pause-n-Go).
 * DEVIATION: the broadcasts cost no time and no traffic (the thesis's travel
 *   on the interconnect and, for CC and AP, clog it); an audited exception to
 *   message passing, like WarpTM-EL's ideal checks.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef COH_GETM_TX_BOARD_H
#define COH_GETM_TX_BOARD_H

#include <stdbool.h>
#include <stdint.h>

#include "base/types.h"

/* What an SM does when a signature goes up (sig != 0) or comes down (0). */
typedef void tx_board_hear(void *sm, uint64_t sig);

struct tx_board;
struct tx_board *tx_board_new(unsigned n_sms, unsigned warps);
void tx_board_free(struct tx_board *b);
/* SM `sm` hears the board through `hear`. */
void tx_board_listen(struct tx_board *b, unsigned sm, tx_board_hear *hear, void *obj);

/* The 64-bit signature bit of a granule. */
uint64_t tx_board_bit(addr_t granule);
/* Warp `slot` of SM `sm` commits writes to the granules of `sig`: every other
 * SM hears it now. */
void tx_board_publish(struct tx_board *b, unsigned sm, unsigned slot, uint64_t sig);
/* Its commit is done: the signature comes down (every SM hears that). */
void tx_board_withdraw(struct tx_board *b, unsigned sm, unsigned slot);
/* Whether `sig` meets a signature up on the board other than (sm, slot)'s. */
bool tx_board_meets(const struct tx_board *b, unsigned sm, unsigned slot, uint64_t sig);

#endif
