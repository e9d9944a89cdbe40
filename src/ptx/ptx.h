/*
 * ptx.h - the PTX front-end as the rest of gpucoh sees it: parse a module
 * once, then execute it warp instruction by warp instruction.
 *
 * The interpreter owns everything private to a thread or a CTA (registers,
 * predicates, the SIMT reconvergence stack, shared, local, param and const
 * spaces) and performs those accesses itself. Global memory it never touches:
 * a global (or generic-resolving-to-global) access is handed to the caller as
 * a ptx_memop, and the values of loads and atomics come back through
 * ptx_warp_complete(). That is what keeps "values come from the memory
 * system" true in both the timing model and the functional mode.
 *
 * Scoreboard: each register of a warp has a ready cycle. An instruction may
 * issue when all the registers it reads or writes are ready; ALU results are
 * ready `lat[class]` cycles after issue; load and atomic destinations are
 * pending until ptx_warp_complete().
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef PTX_PTX_H
#define PTX_PTX_H

#include "base/types.h"
#include "sim/req.h"

#include <stdio.h>

struct ptx_module;
struct ptx_kernel;

/* Generic address windows (cvta): a generic address in [base, base+size) is
 * shared or local memory of the executing CTA/thread; anything else is
 * global. The host allocator hands out global addresses below these. */
#define PTX_SHARED_WINDOW 0x00007f0000000000ull
#define PTX_LOCAL_WINDOW  0x00007e0000000000ull
#define PTX_WINDOW_BYTES  0x0000010000000000ull

/* Instruction classes, for issue latencies (config [sm] lat_*). */
#define PTX_LAT_CLASSES(X)                                                                         \
    X(INT, "integer add/logic/compare/move")                                                       \
    X(IMUL, "integer multiply, multiply-add")                                                      \
    X(FP32, "single-precision add/mul/fma")                                                        \
    X(FP64, "double precision")                                                                    \
    X(SFU, "special functions: rcp sqrt sin ex2 ..., integer div/rem")                             \
    X(SHMEM, "shared, local, param and const memory")                                              \
    X(BRANCH, "control flow, barriers, warp votes/shuffles")                                       \
    X(GMEM, "global memory (address generation; data returns via the LSU)")

#define X(n, d) PTX_LAT_##n,
enum ptx_lat_class { PTX_LAT_CLASSES(X) PTX_LAT_N };
#undef X
extern const char *const ptx_lat_names[PTX_LAT_N];

/* Latency slots of an ALU instruction by its opcode and type, as GPGPU-Sim
 * times them (sm.alu_latency = opcodes; its -ptx_opcode_latency_{int,fp,dp,
 * sfu} lists, cuda-sim.cc's set_opcode_and_latency): add/sub, min/max, mul,
 * mad/fma, div/rem and shfl on integers (any type but f32/f64), the first five
 * on f32 and on f64, the special functions, and ONE for every other ALU
 * opcode (logic, moves, compares, conversions: one cycle). NONE: not timed by
 * the table (memory, branches, barriers). */
#define PTX_OPLAT_SLOTS(X)                                                                         \
    X(INT_ADD, "integer add, sub")                                                                 \
    X(INT_MAX, "integer min, max")                                                                 \
    X(INT_MUL, "integer mul")                                                                      \
    X(INT_MAD, "integer mad")                                                                      \
    X(INT_DIV, "integer div, rem")                                                                 \
    X(INT_SHFL, "shfl")                                                                            \
    X(FP_ADD, "f32 add, sub")                                                                      \
    X(FP_MAX, "f32 min, max")                                                                      \
    X(FP_MUL, "f32 mul")                                                                           \
    X(FP_MAD, "f32 fma, mad")                                                                      \
    X(FP_DIV, "f32 div")                                                                           \
    X(DP_ADD, "f64 add, sub")                                                                      \
    X(DP_MAX, "f64 min, max")                                                                      \
    X(DP_MUL, "f64 mul")                                                                           \
    X(DP_MAD, "f64 fma, mad")                                                                      \
    X(DP_DIV, "f64 div")                                                                           \
    X(SFU, "sqrt rcp rsqrt ex2 lg2 sin cos")                                                       \
    X(ONE, "every other ALU opcode: 1 cycle")
#define X(n, d) PTX_OPLAT_##n,
enum ptx_oplat { PTX_OPLAT_SLOTS(X) PTX_OPLAT_N, PTX_OPLAT_NONE = PTX_OPLAT_N };
#undef X

/* ---- modules ---- */

/* Parse and decode. Returns NULL with "file:line: what is wrong" in err for
 * malformed or unsupported PTX (the construct is named). */
struct ptx_module *ptx_module_parse(const char *text, const char *filename, char *err,
                                    size_t errlen);
void ptx_module_free(struct ptx_module *m);
const struct ptx_kernel *ptx_module_kernel(const struct ptx_module *m, const char *name);
/* Names of the module's .entry kernels, NULL-terminated. */
const char *const *ptx_module_kernel_names(const struct ptx_module *m);

/* Where the instructions of a module come from, for traces and
 * per-instruction statistics (gpu/inst_trace.h). An instruction is an index
 * pc < ptx_module_n_insts, as ptx_warp_pc returns. */
const struct ptx_module *ptx_kernel_module(const struct ptx_kernel *k);
const char *ptx_module_filename(const struct ptx_module *m);
uint32_t ptx_module_n_insts(const struct ptx_module *m);
/* The PTX text the module was parsed from (kept whole). */
const char *ptx_module_text(const struct ptx_module *m);
/* Line of instruction pc in that text (1-based). */
uint32_t ptx_module_inst_line(const struct ptx_module *m, uint32_t pc);
/* -lineinfo: the CUDA source file of instruction pc, its line in *line; NULL
 * (and 0) when the PTX carries no .loc for it. */
const char *ptx_module_inst_source(const struct ptx_module *m, uint32_t pc, uint32_t *line);

struct ptx_kernel_info {
    const char *name;
    unsigned n_params;
    const uint32_t *param_offset; /* byte offset of each parameter in the param buffer */
    const uint32_t *param_size;   /* its size in bytes (4 or 8 for scalars/pointers) */
    uint32_t param_bytes;         /* size of the whole param buffer */
    uint32_t static_shmem_bytes;  /* .shared declarations of the kernel and its callees */
    uint32_t local_bytes;         /* .local bytes per thread (incl. call frames) */
    uint32_t regs_per_thread;     /* registers, for occupancy */
    bool cta_independent;         /* nothing in its module lets one CTA's run depend on when
                                     another's steps run: no global or generic atomic or
                                     reduction, fence, non-weak global or generic access,
                                     transaction or %clock/%globaltimer read (so CTAs of
                                     one launch can only communicate by a data race) */
};
const struct ptx_kernel_info *ptx_kernel_info(const struct ptx_kernel *k);

/* NULL if the kernel can run; otherwise why not ("file:line: unsupported
 * instruction 'tex.2d...'", or a call of a function without a body). A module
 * holding such a kernel still loads: only launching the kernel is an error. */
const char *ptx_kernel_unsupported(const struct ptx_kernel *k);

/* A module-level variable: .const (CUDA __constant__), in the module's const
 * bank, or .global (__device__), in the module's block of device memory,
 * which the host allocates and places (ptx_module_place_globals). Its
 * contents come from the PTX (`= {...}`) or from the host before a launch
 * (cudaMemcpyToSymbol: ptx_module_const_write, or a copy to the global's
 * device address). A kernel that reads a .const variable that has neither is
 * refused at launch, as the zeros it would read are nobody's data; a .global
 * one starts as zeros, as C's statics do. */
struct ptx_var {
    char *name;
    uint32_t offset; /* in the const bank, or in the module's global block */
    uint32_t bytes;
    unsigned line;    /* of its declaration */
    bool initialised; /* the PTX gives its contents */
    bool set;         /* the host has written some of it */
};

/* The module's .const variable `name`, NULL if it declares none. */
const struct ptx_var *ptx_module_const(const struct ptx_module *m, const char *name);

/* The module's .global variable `name`, NULL if it declares none. */
const struct ptx_var *ptx_module_global(const struct ptx_module *m, const char *name);

/* The module's .global variables lie in one block of `*bytes` bytes whose
 * initial contents (initialisers, zeros elsewhere) are returned. The host
 * allocates it in device memory, copies the contents there, and gives its
 * address to ptx_module_place_globals, once, before any launch (host_load_ptx
 * does). */
const uint8_t *ptx_module_globals(const struct ptx_module *m, uint32_t *bytes);
void ptx_module_place_globals(struct ptx_module *m, addr_t base);
addr_t ptx_module_globals_base(const struct ptx_module *m);

/* Write `n` bytes from `src` at byte `offset` of .const variable `c` of `m`
 * (the caller has checked that they lie inside it), and mark it set. */
void ptx_module_const_write(struct ptx_module *m, const struct ptx_var *c, uint32_t offset,
                            const void *src, uint32_t n);

/* Read `n` bytes at byte `offset` of .const variable `c` of `m` (checked by
 * the caller to lie inside it): its initialiser or what the host wrote. */
void ptx_module_const_read(const struct ptx_module *m, const struct ptx_var *c, uint32_t offset,
                           void *dst, uint32_t n);

/* The .const variables kernel `k` or a function it calls names (reads, or
 * takes the address of): ptx_kernel_n_consts of them, the i-th by
 * ptx_kernel_const. */
unsigned ptx_kernel_n_consts(const struct ptx_kernel *k);
const struct ptx_var *ptx_kernel_const(const struct ptx_kernel *k, unsigned i);

/* The first .const variable kernel `k` (or a callee) names that has no
 * contents (neither an initialiser nor a host write), NULL if none. */
const struct ptx_var *ptx_kernel_unset_const(const struct ptx_kernel *k);

/* ---- execution ---- */

struct ptx_dim3 {
    uint32_t x, y, z;
};

/* A CTA: shared memory, barriers, the launch's parameter buffer. */
struct ptx_cta;
struct ptx_cta *ptx_cta_new(const struct ptx_kernel *k, struct ptx_dim3 ctaid,
                            struct ptx_dim3 nctaid, struct ptx_dim3 ntid, const uint8_t *params,
                            uint32_t dyn_shmem_bytes);
void ptx_cta_free(struct ptx_cta *c);
unsigned ptx_cta_n_warps(const struct ptx_cta *c);

/* A warp: 32 lanes' registers, the SIMT stack, the scoreboard. */
struct ptx_warp;
struct ptx_warp *ptx_warp_new(struct ptx_cta *c, unsigned warp_in_cta);
/* Turn a warp that is no longer needed into warp `warp_in_cta` of c, as
 * ptx_warp_new would make it, reusing its storage (it grows only when c's
 * kernel needs more). False when out of memory (w is then only fit to free). */
bool ptx_warp_renew(struct ptx_warp *w, struct ptx_cta *c, unsigned warp_in_cta);
void ptx_warp_free(struct ptx_warp *w);

/* ---- device printf (vprintf; printf.c) ----
 * A launch's printf calls are records of a log, in execution order; the
 * host formats and prints them when the launch has completed. */
struct ptx_printf_log;
/* CUDA's default printf FIFO (cudaLimitPrintfFifoSize): 1 MiB. */
#define PTX_PRINTF_FIFO_DEFAULT (1u << 20)
/* The most argument bytes a record keeps: CUDA's 32 arguments of 8 bytes. */
#define PTX_PRINTF_ARGS_MAX 256u
struct ptx_printf_log *ptx_printf_log_new(void);
void ptx_printf_log_free(struct ptx_printf_log *log);
/* The FIFO's size in bytes: each record takes 16 bytes plus its argument
 * bytes; records past it are dropped (and counted). */
void ptx_printf_log_set_limit(struct ptx_printf_log *log, uint64_t bytes);
uint64_t ptx_printf_log_limit(const struct ptx_printf_log *log);
/* One printf call of one thread: the format's (global) address and its
 * argument bytes (n_args <= PTX_PRINTF_ARGS_MAX). */
void ptx_printf_log_add(struct ptx_printf_log *log, addr_t fmt, const uint8_t *args,
                        uint32_t n_args);
/* Reads n bytes of device memory at src, as the host's copies do. */
typedef void ptx_printf_read_fn(void *obj, void *dst, addr_t src, size_t n);
/* Format every record in order (format strings and %s strings read through
 * `read`), write the text to `out` and empty the log. Records dropped past
 * the FIFO are reported on stderr naming `kernel`; returns their count. */
uint64_t ptx_printf_log_flush(struct ptx_printf_log *log, ptx_printf_read_fn *read, void *obj,
                              FILE *out, const char *kernel);

/* What the caller supplies for special registers and latencies. */
struct ptx_env {
    uint32_t smid, nsmid;              /* %smid %nsmid */
    uint32_t warpid;                   /* %warpid: the warp's slot in its SM */
    uint64_t clock;                    /* %clock/%clock64: the SM's cycle counter */
    uint64_t globaltimer_ns;           /* %globaltimer */
    const uint32_t *lat;               /* [PTX_LAT_N] issue-to-result cycles by class */
    const uint32_t *op_lat;            /* [PTX_OPLAT_N] of ALU work by opcode, or NULL */
    struct ptx_printf_log *printf_log; /* where printf calls go; NULL: nowhere */
};

enum ptx_step_kind {
    PTX_STEP_ALU,      /* executed entirely inside the interpreter */
    PTX_STEP_MEM,      /* a global memory operation for the caller (ptx_step.mem) */
    PTX_STEP_BARRIER,  /* bar.sync/barrier.sync/bar.red/bar.arrive reached (ptx_step.bar) */
    PTX_STEP_EXIT,     /* every lane of the warp has exited */
    PTX_STEP_TX_BEGIN, /* the warp began a transaction (gpucoh_tx_begin) */
    PTX_STEP_TX_END,   /* an attempt of the warp's transaction ended (ptx_step.tx) */
};

/* A global memory operation of one warp instruction. Only lanes in `mask`
 * take part (lanes whose generic address was shared/local were done inside).
 * For vector accesses each lane accesses `size` contiguous bytes. */
struct ptx_memop {
    uint8_t op;           /* MEM_LOAD, MEM_STORE, MEM_ATOMIC or MEM_FENCE */
    uint8_t sem;          /* enum mem_sem (ld.acquire -> SEM_ACQUIRE, membar.gl -> SC...) */
    uint8_t scope;        /* enum mem_scope */
    uint8_t size;         /* bytes per lane: 1, 2, 4, 8 or 16 */
    uint8_t atom_kind;    /* enum atom_kind (MEM_ATOMIC) */
    uint8_t atom_type;    /* enum atom_type (MEM_ATOMIC) */
    bool is_red;          /* red.*: no result register */
    uint32_t mask;        /* participating lanes */
    addr_t addr[32];      /* per-lane byte address (global) */
    uint64_t data[32][2]; /* per-lane store bytes (little-endian, `size` of them), or
                             atomic operands (data[l][0] = a, data[l][1] = b for CAS) */
    uint32_t tag;         /* identifies the destination for ptx_warp_complete */
    bool tx;              /* a transactional load or store (inside gpucoh_tx_begin/commit):
                             a store's data goes to the warp's redo log, not to memory; a
                             load's returned bytes are overlaid with the lane's own logged
                             writes by ptx_warp_complete */
};

/* One transactional global access of one lane, in the warp's transaction log
 * (program order). */
struct ptx_tx_access {
    addr_t addr;
    uint8_t lane;
    uint8_t size; /* bytes: 1, 2, 4, 8 or 16 */
    uint32_t pc;  /* the instruction (index in the module) */
    bool write;
    bool done;        /* a read: memory's bytes are in data */
    uint64_t data[2]; /* a write's bytes, or the bytes memory returned to a read,
                         little-endian */
};

/* The end of one attempt of a warp's transaction: at gpucoh_tx_commit, or
 * when every lane of the attempt has aborted. The lanes in `committed` commit
 * their writes (the caller applies the write log); the lanes in `aborted`
 * restart at the instruction after gpucoh_tx_begin with the registers they had
 * there, and their writes (in the log too) are to be cleaned up. `log` is the
 * whole attempt's log, valid until the warp's next step. */
struct ptx_tx_end {
    uint32_t committed, aborted;
    const struct ptx_tx_access *log;
    uint32_t n_log;
};

struct ptx_barrier {
    uint32_t id;        /* barrier number 0..15 */
    uint32_t count;     /* threads expected; 0 = all threads of the CTA */
    bool arrive_only;   /* bar.arrive: count in, do not wait */
    uint32_t n_threads; /* active threads of this warp arriving */
};

struct ptx_step {
    enum ptx_step_kind kind;
    uint8_t lat_class;       /* enum ptx_lat_class of the instruction */
    uint32_t lat;            /* its issue-to-result cycles (global memory: to the memory stage) */
    uint32_t active;         /* lanes that executed it */
    uint32_t n_thread_insts; /* active lanes counted as thread instructions */
    struct ptx_memop mem;    /* PTX_STEP_MEM */
    struct ptx_barrier bar;  /* PTX_STEP_BARRIER */
    struct ptx_tx_end tx;    /* PTX_STEP_TX_END */
};

/* True when the next instruction's registers are ready at `cycle`. */
bool ptx_warp_can_issue(const struct ptx_warp *w, uint64_t cycle);
/* The first cycle at which ptx_warp_can_issue becomes true if nothing else
 * happens to the warp meanwhile (readiness only moves earlier with time):
 * ptx_warp_can_issue(w, t) == (t >= ptx_warp_issue_cycle(w)). UINT64_MAX when
 * it waits for memory (a pending load or atomic), a barrier, or has exited. */
uint64_t ptx_warp_issue_cycle(const struct ptx_warp *w);
/* True when the warp's next instruction makes its effect visible to the other
 * warps of its CTA at issue: a shared-memory (or generic, which may be
 * shared) load, store or atomic, or a barrier. A memory model stronger than
 * RMO holds such an instruction until the warp's global accesses complete
 * (spec 001 §2.3). */
bool ptx_warp_next_orders_cta(const struct ptx_warp *w);
/* A hint with no effect on results: start bringing what the warp's next
 * instruction reads and writes (registers, predicates, their ready cycles)
 * into the host's caches. Callers that interleave many warps call it for a
 * warp they will step soon. */
void ptx_warp_prefetch(const struct ptx_warp *w);

/* Execute the warp's next instruction. Returns 0, or -1 with a message for a
 * run-time fault of the kernel (misaligned or out-of-range shared/local
 * access, trap): the caller reports it as a fatal kernel error. */
int ptx_warp_step(struct ptx_warp *w, const struct ptx_env *env, struct ptx_step *out, char *err,
                  size_t errlen);

/* Deliver the result of a PTX_STEP_MEM load or atomic: lane_data[l] holds
 * the `size` bytes lane l read (loads) or the old value (atomics), for the
 * lanes in op->mask. Clears the destination registers' pending state, ready
 * at `cycle`. Stores and reds need no completion call. */
void ptx_warp_complete(struct ptx_warp *w, const struct ptx_memop *op,
                       const uint64_t (*lane_data)[2], uint64_t cycle);

/* A warp waiting at a barrier is released by the caller with this. */
void ptx_warp_barrier_release(struct ptx_warp *w);

/* ---- transactions (docs/transactions.md) ----
 * The SIMT stack holds a Retry entry under the Transaction entry (KiloTM's
 * extension): lanes that abort leave every entry above the Retry entry and
 * join it; when the attempt ends, they run the transaction again. Intra-warp
 * conflicts (a lane touching a word another lane of the attempt wrote, or
 * writing one another lane read) abort the later lane inside the interpreter. */

/* Abort `lanes` of the warp's running transaction attempt (the memory system
 * found a conflict). Lanes not in the attempt are ignored. */
void ptx_warp_tx_abort(struct ptx_warp *w, uint32_t lanes);
/* True while the warp is inside a transaction (between begin and the end of
 * its last attempt). */
bool ptx_warp_in_tx(const struct ptx_warp *w);
/* True when the warp's next instruction begins a transaction (for a limit on
 * transactional warps per SM). */
bool ptx_warp_at_tx_begin(const struct ptx_warp *w);
/* True when the warp's next step ends an attempt of its transaction (the
 * commit, or no lane of the attempt is left): the memory system's verdicts
 * on every access of the attempt must be in before it issues. */
bool ptx_warp_at_tx_end(const struct ptx_warp *w);
/* The running attempt's log so far (n entries, program order; a load's entry
 * holds the bytes memory returned to it once it has completed) and its live
 * lanes (not aborted). */
const struct ptx_tx_access *ptx_warp_tx_log(const struct ptx_warp *w, uint32_t *n, uint32_t *live);
/* Most log entries one attempt of a warp's transaction may make. */
#define PTX_TX_LOG_MAX 1024

bool ptx_warp_done(const struct ptx_warp *w);
/* Make every lane of the warp exit where it stands (a launch given up because
 * its warps spin forever). Results of memory operations still in flight may
 * complete into its registers; nothing else of it runs. */
void ptx_warp_abandon(struct ptx_warp *w);
/* The next instruction (an index in the module; equal for two warps of one
 * kernel exactly when they are about to run the same instruction), or
 * UINT32_MAX once the warp has exited. */
uint32_t ptx_warp_pc(const struct ptx_warp *w);
/* Source line of the next instruction ("file:line"), for diagnostics. */
const char *ptx_warp_where(const struct ptx_warp *w, char *buf, size_t len);

#endif
