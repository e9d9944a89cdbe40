/*
 * inst_trace.h - the per-warp-instruction trace (--trace) and the
 * per-instruction statistics (--inst-stats) of a run (docs/trace.md).
 *
 * One instruction observer (gpu/inst_observer.h) that serves every SM of the
 * machine (and the functional runner): the SMs know the observer interface
 * only, and whoever builds the machine (the CLI) plugs a trace in. Files are
 * written through a temporary name and put in place by inst_trace_finish;
 * a run that stops before it (a fault: exit 2 or 3) keeps what was traced
 * when its owner calls inst_trace_keep_partial, from an exit handler.
 *
 * Use:
 *     struct inst_trace_opts o = {.trace_file = "t.csv", .stats_file = "i.json"};
 *     inst_trace_filter(&o, "warps", "0:0,1:4", err, sizeof err);  (exit 2 on -1)
 *     struct inst_trace *t = inst_trace_new(&o, err, sizeof err);
 *     struct inst_observer obs = inst_trace_observer(t);
 *     machine_set_inst_observer(m, &obs);  ... the run ...
 *     inst_trace_finish(t, err, sizeof err);  (files renamed into place)
 *     inst_trace_free(t);
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef GPU_INST_TRACE_H
#define GPU_INST_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/types.h"
#include "gpu/coalesce.h"
#include "gpu/inst_observer.h"
#include "ptx/ptx.h"

#define INST_TRACE_MAX_SEL 64 /* SM:slot pairs or CTAs a filter names at most */

struct inst_trace_opts {
    const char *trace_file; /* the trace (CSV), or NULL */
    const char *stats_file; /* per-instruction statistics (JSON), or NULL */
    bool functional;        /* the runner has no clock: counts only, no trace */
    /* trace filters (the statistics count every instruction) */
    const char *kernel;          /* only this kernel (its PTX name); NULL: all */
    uint64_t cycle_lo, cycle_hi; /* only instructions issued in [lo, hi] (set hi; 0: no window) */
    bool has_cycles;
    unsigned n_warps; /* only these SM:warp-slot pairs (0: all) */
    uint32_t warp_sm[INST_TRACE_MAX_SEL], warp_slot[INST_TRACE_MAX_SEL];
    unsigned n_ctas; /* only these CTAs (linear index in the grid; 0: all) */
    uint32_t cta[INST_TRACE_MAX_SEL];
};

/* Parse the text of one trace filter into o: what is "warps" (SM:SLOT,...),
 * "ctas" (N,...) or "cycles" (A:B, A: or :B, inclusive). -1 with the fault
 * in err (no "file:line": the caller names the option). */
int inst_trace_filter(struct inst_trace_opts *o, const char *what, const char *text, char *err,
                      size_t errlen);

struct inst_trace;

/* NULL with a message (a file that cannot be written) in err. */
struct inst_trace *inst_trace_new(const struct inst_trace_opts *o, char *err, size_t errlen);
/* A kernel starts (on one SM; every SM says so). */
void inst_trace_kernel(struct inst_trace *t, const struct ptx_kernel *k);
void inst_trace_event(struct inst_trace *t, const struct inst_event *e);
/* The observer that calls the two above on t, for the runners. */
struct inst_observer inst_trace_observer(struct inst_trace *t);
/* Write the statistics and put both files in place (whole or not at all).
 * 0, or -1 with the fault in err. */
int inst_trace_finish(struct inst_trace *t, char *err, size_t errlen);
/* For a run that stops before inst_trace_finish (a fault): the trace so far
 * is flushed and kept as FILE.partial, named on stderr; nothing if t was
 * finished or traces nothing. Safe in an exit handler; t is not freed. */
void inst_trace_keep_partial(struct inst_trace *t);
/* Frees; files not finished are removed. */
void inst_trace_free(struct inst_trace *t);

#endif
