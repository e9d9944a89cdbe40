/*
 * inst_trace.h - the per-warp-instruction trace (--trace) and the
 * per-instruction statistics (--inst-stats) of a run (docs/trace.md).
 *
 * One observer serves every SM of the machine (and the functional runner):
 * each SM holding one calls inst_trace_event once per warp instruction it
 * executes, when the instruction is done (an ALU instruction at issue, its
 * result ready `latency` cycles later; a memory instruction when its last
 * line is answered), and inst_trace_kernel when a kernel starts on it. An SM
 * without an observer pays one pointer test per instruction. Observing never
 * changes what runs: no statistic, no timing, no value.
 *
 * Use:
 *     struct inst_trace_opts o = {.trace_file = "t.csv", .stats_file = "i.json"};
 *     inst_trace_filter(&o, "warps", "0:0,1:4", err, sizeof err);  (exit 2 on -1)
 *     struct inst_trace *t = inst_trace_new(&o, err, sizeof err);
 *     machine_set_inst_trace(m, t);  ... the run ...
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

/* One warp instruction, done. */
struct inst_event {
    const struct ptx_kernel *kernel;
    uint64_t issued;        /* core cycle it issued */
    uint64_t done;          /* core cycle its result was ready (ALU), its last line answered
                               (memory), or it completed otherwise (a store buffered, a
                               fence the model needs not send); 0 in the functional mode */
    uint32_t pc;            /* instruction (index in the module) */
    uint32_t cta;           /* CTA, linear index in the grid */
    uint16_t gpu, sm, slot; /* SM and its warp slot */
    uint16_t warp;          /* warp in its CTA */
    uint32_t active;        /* lanes that executed it */
    uint32_t threads;       /* of which counted as thread instructions */
    uint8_t op;             /* enum mem_op of a global memory instruction, else MEM_NOPS */
    uint8_t n_lines;        /* lines it sent (loads, stores, atomics) */
    uint16_t l1_hits;       /* of which a load the L1 answered from its cache */
    const struct coal_line *lines;
    uint64_t line_cycles; /* sum over its lines of request-to-response core cycles */
};

struct inst_trace;

/* NULL with a message (a file that cannot be written) in err. */
struct inst_trace *inst_trace_new(const struct inst_trace_opts *o, char *err, size_t errlen);
/* A kernel starts (on one SM; every SM says so). */
void inst_trace_kernel(struct inst_trace *t, const struct ptx_kernel *k);
void inst_trace_event(struct inst_trace *t, const struct inst_event *e);
/* Write the statistics and put both files in place (whole or not at all).
 * 0, or -1 with the fault in err. */
int inst_trace_finish(struct inst_trace *t, char *err, size_t errlen);
/* Frees; files not finished are removed. */
void inst_trace_free(struct inst_trace *t);

#endif
