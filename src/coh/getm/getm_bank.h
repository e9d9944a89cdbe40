/*
 * getm_bank.h - GETM in the timing machine: the validation unit (VU) of one
 * L2 bank and what the bank does with transactional requests (spec 004a
 * §4.3-4.7; docs/transactions.md).
 *
 * Protocol `getm` is the non-coherent baseline (rc's L1, nc's L2 bank) with a
 * VU at every bank (getm_l2.c: the bank's extension, struct nc_l2_ext). The
 * SM stamps each transactional line request with its warp's timestamp
 * (msg->ts) and transaction sequence (msg->acks); the bank validates every
 * 32-byte granule the request's byte mask touches before the line's table
 * sees it:
 *   MEM_TX_LOAD   validated, then read through the table as a GetS (the
 *                 answer carries the line, so values come from the bank);
 *   MEM_TX_STORE  validated (the granules are reserved) and answered, no data;
 *   MEM_TX_COMMIT the committed writes, performed by the table as a Write;
 *                 once written, the line's reservations are released;
 *   MEM_TX_CLEANUP the reservations of an aborted attempt, released at once.
 * A granule that must wait for an owner's commit waits in the VU's stall
 * buffer, the request with it; a release re-enters it, and once all its
 * granules are decided it replays through the bank's replay list.
 * The answer says, in msg->sharer, which granules aborted (GETM_ABORTED) and
 * why (GETM_ABORT_KIND) and which stores were reserved (GETM_RESERVED), and
 * in msg->ts2 the largest timestamp the VU saw (the warp's next timestamp
 * must pass it).
 * A commit carries the count of reservations to release per granule in
 * msg->ts2 (16 bits per granule).
 * Protocol `warptm` is the same bank with WarpTM's validation unit
 * (warptm_vu.h): MEM_TX_LOAD is a read whose answer carries the TCD's
 * last-write time in msg->ts2 (and the read's time in msg->ts); stores stay in
 * the SM; MEM_TX_VALIDATE carries the values read (mask and data) and the
 * granules written (msg->ts2), is read through the table as a GetS, compared
 * with the line and answered without data; MEM_TX_COMMIT and MEM_TX_CLEANUP
 * release the holds msg->ts2 names.
 * The VU's port: with getm.vu_port = n a request of k granules is taken only
 * when the port is free and keeps it busy ceil(k / n) cycles of the VU's
 * clock (getm.vu_mhz); a request that finds it busy waits at the bank's input
 * (GETM_BUSY), with the requests behind it. Table 4.2's VU takes 1 request a
 * cycle at 1400 MHz; getm.vu_port = 0 (the default) decides every request in
 * the bank's cycle.
 * The commit unit (getm_cu.h; getm.cu_bytes per cycle of getm.cu_mhz, a
 * getm.cu_buffer-byte buffer): MEM_TX_COMMIT and MEM_TX_CLEANUP of both
 * protocols enter its buffer and are performed (written, released) once it
 * has written them; a message that finds the buffer full waits at the bank's
 * input (GETM_BUSY). getm.cu_bytes = 0 performs them when the bank takes them.
 * DEVIATION: the VU decides a request's granules when the port takes it (its
 *   answer is not delayed by the k cycles); a stall-buffer waiter re-enters
 *   without the port; a load whose granule aborted still reads the line (the
 *   SM drops the aborted lanes' values).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef COH_GETM_BANK_H
#define COH_GETM_BANK_H

#include "coh/ctrl.h"
#include "coh/getm/getm_vu.h"

/* msg->sharer of a transactional access: granule bits per field. */
#define GETM_PENDING(s)   ((s)&0xffu)
#define GETM_ABORTED(s)   (((s) >> 8) & 0xffu)
#define GETM_RESERVED(s)  (((s) >> 16) & 0xffu)
#define GETM_MAX_GRANULES 4 /* per line: 16-bit release counts in msg->ts2 */
/* GETM: why granule k aborted (enum getm_abort_kind), 2 bits a granule. */
#define GETM_ABORT_KIND(s, k) (((s) >> (24 + 2 * (k))) & 3u)
/* WarpTM: a validation's answer says in msg->ts why granule k failed (enum
 * warptm_fail), 8 bits a granule. */
#define WARPTM_FAIL_WHY(ts, k) ((unsigned)((ts) >> (8 * (k))) & 0xffu)
/* msg->flags of a commit or cleanup inside the bank: the commit unit has
 * written it. The message is the rc L1's, whose bits (NC_F_L1 in
 * coh/nc/nc.h) it must not share: the L1 absorbed acknowledgements marked
 * NC_F_L1WT (0x2, once this bit's value), so every commit the unit wrote
 * went unacknowledged and GETM deadlocked. getm_l2.c asserts the bits apart;
 * the bank clears this one before it answers. */
#define GETM_F_WRITTEN 0x20
/* WarpTM: a validation's answer holds, besides GETM_ABORTED (failed) and
 * GETM_RESERVED (held exclusively), the granules held shared; a validation
 * names in msg->ts2 the granules it writes, and a commit or cleanup the holds
 * it releases: */
#define WARPTM_READ_HELD(s)     (((s) >> 24) & 0xffu)
#define WARPTM_RELEASE_READ(t)  ((uint32_t)(t)&0xffu)
#define WARPTM_RELEASE_WRITE(t) ((uint32_t)((t) >> 8) & 0xffu)
#define WARPTM_RELEASES(rd, wr) ((uint64_t)(rd) | (uint64_t)(wr) << 8)
/* WarpTM: a validation's msg->ts2 bit: the warp holds the serial token
 * (coh/getm/tx_serial.h) and validates alone, so its granules are checked but not
 * held (the token keeps every other transaction out until it is done). */
#define WARPTM_ALONE (1ull << 63)

struct machine_view;
/* The VU parameters of a machine of n_sms SMs with cfg's [getm] and [sm]
 * sections: both the SMs (timestamps) and the banks use them. */
void getm_params_of_config(const struct machine_view *cfg, unsigned n_sms, struct getm_params *p);
/* The global warp id of an SM's warp slot, the id the VU and timestamps use. */
uint32_t getm_warp_id(const struct machine_view *cfg, unsigned sm, unsigned slot);

/* The granules (bit k: bytes [k * granule, (k + 1) * granule)) of a line of
 * n_gran granules whose bytes the mask touches. */
uint32_t getm_granules(const struct bytemask *mask, unsigned n_gran, unsigned granule);

struct getm_bank;
struct getm_bank *getm_bank_new(const struct ctrl_wiring *w);
void getm_bank_free(struct getm_bank *g);

/* What the bank does with a request after getm_bank_take. */
enum getm_take {
    GETM_TO_TABLE, /* not (or no longer) a VU matter: classify it and step the table */
    GETM_TAKEN,    /* answered, or waiting in the VU: the bank has taken it */
    GETM_BUSY,     /* the VU's port is busy (getm.vu_port), or the commit unit's buffer is
                      full: the request waits at the input */
};
/* A request from the network or the replay list (the bank has checked that
 * its response pipeline has room). */
enum getm_take getm_bank_take(struct getm_bank *g, struct ctrl *b, struct msg *m);
/* The table is about to answer request m with the line's bytes: WarpTM's TCD
 * times go with a transactional load's data, and a validation is compared
 * with the line and answered here (returns true: the bank has answered m). */
bool getm_bank_reading(struct getm_bank *g, struct ctrl *b, struct msg *m, const uint8_t *line);
/* The VU's port is busy now (the bank must tick again to retry a request
 * refused with GETM_BUSY: nothing else announces the port's freeing; a full
 * commit unit is getm_bank_writing). */
bool getm_bank_busy(const struct getm_bank *g, tick_t now);
/* The commit unit's entries written by now go to the bank's replay list, to
 * be performed (true: some did). */
bool getm_bank_tick(struct getm_bank *g, struct ctrl *b);
/* The commit unit holds entries (the bank must tick until they are written). */
bool getm_bank_writing(const struct getm_bank *g);
/* The table performed a MEM_TX_COMMIT's writes: release its reservations. */
void getm_bank_committed(struct getm_bank *g, struct ctrl *b, const struct msg *m);
/* Whether the commit unit or the VU's stall buffer holds requests (the
 * bank's dump prints them with getm_bank_dump). */
bool getm_bank_holds(const struct getm_bank *g);
/* The commit unit's entries and the stall buffer's waiters, for a simulator
 * fault's dump. */
void getm_bank_dump(const struct getm_bank *g, FILE *out);
/* The bank's GETM validation unit (NULL under warptm), read-only. */
const struct getm_vu *getm_bank_vu(const struct getm_bank *g);
const struct warptm_vu *getm_bank_wvu(const struct getm_bank *g);
/* Timestamp rollover (coh/getm/tx_epoch.h): GETM's VU flushes its tables. */
void getm_bank_rollover(struct getm_bank *g);
/* Statistics rows of the bank's VU. */
/* The time series' columns (proto_desc.series): GETM's stall buffer now. */
#define GETM_SERIES_N 2
extern const char *const getm_series_names[GETM_SERIES_N];
void getm_bank_series(const struct getm_bank *g, uint64_t *values);
void getm_bank_stats(const struct getm_bank *g, void (*emit)(void *, const char *, uint64_t),
                     void *arg);

/* The bank of protocols getm and warptm (getm_l2.c): nc's, with the VU in
 * front of its table; its component operations and the time series. */
struct comp *getm_l2_create(const struct ctrl_wiring *w);
void getm_l2_destroy(struct comp *c);
void getm_l2_stats(struct comp *c, void (*emit)(void *, const char *, uint64_t), void *arg);
void getm_l2_series(struct comp *c, uint64_t *values);
/* GETM's timestamp rollover (tx_epoch.h): the bank's VU flushes its
 * tables (nothing transactional is in flight). */
void getm_l2_rollover(struct comp *c);
/* The bank's validation unit (NULL under warptm), read-only, for the
 * explorer's digest and checks (src/verify). */
const struct getm_vu *getm_l2_vu(struct comp *c);
/* ... and WarpTM's (NULL under getm). */
struct warptm_vu;
const struct warptm_vu *getm_l2_wvu(struct comp *c);
/* The protocol's deliberately broken variant (test only): getm-nowts, whose
 * VU never compares a load's warpts with its granule's wts. */
extern const struct proto_desc proto_getm_nowts;
/* ... and WarpTM's: warptm-noval, whose validation never compares values. */
extern const struct proto_desc proto_warptm_noval;

#endif
