/*
 * sm_ext.h - the SM's transaction extension: what a transactional protocol
 * plugs into the SM (docs/transactions.md).
 *
 * The SM runs the interpreter's transactions (ptx_step kinds TX_BEGIN and
 * TX_END, transactional loads and stores) but decides nothing about them:
 * timestamps, verdicts, validation, the commit unit and the limits belong to
 * the protocol (GETM and WarpTM's core side: coh/getm/sm_tx.h). The machine
 * that builds the SMs hands each one the protocol's hooks and their per-SM
 * context (sm_set_ext); an SM without them stops at a transaction with an
 * error. Non-transactional protocols cost the SM one NULL check at each place
 * below, never an indirect call.
 *
 * The extension's own messages (validations, commits, cleanups) carry the
 * header sm_ext_header gives, with the warp filled in; their answers come
 * back through `answer`. Between the hooks the extension reaches the SM only
 * through the three sm_ext_* calls below (for events that arrive from other
 * SMs: a rollover, the serial token, a commit's broadcast).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef GPU_SM_EXT_H
#define GPU_SM_EXT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/types.h"
#include "ptx/ptx.h"
#include "sim/msg.h"

struct sm;

/* Every hook takes the context given to sm_set_ext and a warp slot of the SM.
 * Lanes returned are lanes of the warp's running attempt to abort. */
struct sm_ext_ops {
    /* Warp `slot` begins a transaction at core cycle `cyc`. */
    void (*begin)(void *ctx, unsigned slot, cycle_t cyc);
    /* Before warp `slot` issues (n_out: its memory instructions outstanding):
     * starts whatever the end of an attempt needs first (WarpTM's validation,
     * aborting lanes of pw itself); true when the warp may not issue now (it
     * is parked until sm_ext_resume or an answer wakes it). */
    bool (*holds)(void *ctx, unsigned slot, struct ptx_warp *pw, unsigned n_out);
    /* A transactional store of warp `slot` issues: true when it stays in the
     * warp (a redo log) and sends nothing; *abort: lanes to abort now. */
    bool (*keeps_store)(void *ctx, unsigned slot, const struct ptx_warp *pw, uint32_t *abort);
    /* A transactional line request leaves: stamp it. */
    void (*stamp)(void *ctx, unsigned slot, struct msg *m, bool store);
    /* Its answer (`lanes`: the request's lanes still live in the attempt):
     * *abort the lanes to abort; true when it was the warp's last awaited. */
    bool (*verdict)(void *ctx, unsigned slot, const struct msg *m, const struct ptx_memop *op,
                    uint32_t lanes, uint32_t *abort);
    /* A transactional load has completed (its data is in pw): lanes to abort. */
    uint32_t (*loaded)(void *ctx, unsigned slot, const struct ptx_warp *pw);
    /* The answer to one of the extension's own messages at core cycle `cyc`:
     * *abort as above; true when it was the last the warp waited for. */
    bool (*answer)(void *ctx, unsigned slot, const struct msg *m, const struct ptx_warp *pw,
                   cycle_t cyc, uint32_t *abort);
    /* The end of an attempt (ptx_step.tx) at core cycle `cyc`; `left`: the
     * warp left its transaction. Returns the cycles the warp backs off before
     * its retry (0: none); *wake: parked warps that may go on now. */
    unsigned (*end)(void *ctx, unsigned slot, const struct ptx_tx_end *e, bool left, cycle_t cyc,
                    uint64_t *wake);
    /* The extension's next message to send (NULL: none), and taking it. */
    struct msg *(*peek_out)(void *ctx);
    void (*pop_out)(void *ctx);
};

/* The SM runs transactions through ops with context ctx (owned by the
 * caller, which keeps it until the SM is freed). Before the first kernel. */
void sm_set_ext(struct sm *sm, const struct sm_ext_ops *ops, void *ctx);

/* What the extension may use of the SM. */
struct sm_ext_wiring {
    struct eng *eng;     /* for the time its messages are born */
    struct pool *msgs;   /* the machine's message pool */
    struct mem_req hdr;  /* the request header of its messages (warp 0); the lowest bit
                          * of its id is clear and the extension's own, and comes back
                          * in the answer */
    unsigned warps;      /* warp slots */
    unsigned line_bytes; /* the L1's line */
};
void sm_ext_wiring(const struct sm *sm, struct sm_ext_wiring *w);
/* Warp `slot`'s interpreter state while it runs (NULL: free or exited). */
struct ptx_warp *sm_ext_warp(struct sm *sm, unsigned slot);
/* Abort `lanes` of warp `slot`'s attempt now. */
void sm_ext_abort(struct sm *sm, unsigned slot, uint32_t lanes);
/* Parked warps `slots` may go on: poll them (and the SM) again. */
void sm_ext_resume(struct sm *sm, uint64_t slots);

#endif
