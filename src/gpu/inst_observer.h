/*
 * inst_observer.h - what an SM (and the functional runner) tells an
 * observer of its warp instructions: one event per warp instruction, when it
 * is done, and the start of each kernel.
 *
 * The runners know this interface only; what observes is plugged in from
 * outside (the CLI plugs in the trace and per-instruction statistics of
 * gpu/inst_trace.h, docs/trace.md). An SM calls `done` once per warp
 * instruction it executes, when the instruction is done (an ALU instruction
 * at issue, its result ready `latency` cycles later; a memory instruction
 * when its last line is answered), and `kernel_start` when a kernel starts
 * on it. A runner without an observer pays one pointer test per instruction
 * (of `done`) and builds no event. Observing never changes what runs: no
 * statistic, no timing, no value.
 *
 * Use:
 *     struct inst_observer o = {.done = my_done, .kernel_start = my_start, .ctx = me};
 *     sm_set_inst_observer(sm, &o, index);    (or machine_ / functional_set_inst_observer)
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef GPU_INST_OBSERVER_H
#define GPU_INST_OBSERVER_H

#include <stdint.h>

#include "gpu/coalesce.h"

struct ptx_kernel;

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

/* The runners copy this struct: ctx must outlive them, the struct need not.
 * An observer with no `done` is none. */
struct inst_observer {
    void (*done)(void *ctx, const struct inst_event *e); /* one warp instruction, done */
    /* A kernel starts (on one SM: every SM of the machine says so); may be NULL. */
    void (*kernel_start)(void *ctx, const struct ptx_kernel *k);
    void *ctx;
};

#endif
