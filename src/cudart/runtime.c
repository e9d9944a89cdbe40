/*
 * runtime.c - the libcudart stand-in (docs/cuda.md): the CUDA runtime API of
 * an unmodified program built with `nvcc -cudart shared`, run on gpucoh's
 * simulated machine.
 *
 * The machine is the one `gpucoh run` builds (sim_open of cli/common.h),
 * configured from the environment: GPUCOH_CONFIG, GPUCOH_PROTOCOL,
 * GPUCOH_SET ("k=v;k=v"), GPUCOH_SEED, GPUCOH_STATS, and GPUCOH_TRACE,
 * GPUCOH_INST_STATS with the GPUCOH_TRACE_* filters (docs/trace.md). It opens when the
 * program registers its first fat binary (a constructor nvcc emits), whose
 * PTX is decoded (fatbin.h) and loaded; kernels and __device__/__constant__
 * variables are found by the names nvcc registers. Device pointers are the
 * simulator's addresses. There is one stream: every call completes before it
 * returns (streams and async calls are sequential, which CUDA allows), and
 * events read the simulated cycle count. Calls of the real library that are
 * not here fail with cudaErrorNotSupported and a line naming them
 * (unsupported.def). Input errors the simulator finds (bad PTX, a kernel it
 * cannot run) end the program with gpucoh's message and exit status 2, a
 * simulator fault with 3.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <cjson/cJSON.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/log.h"
#include "cli/common.h"
#include "cudart/fatbin.h"
#include "host/host.h"
#include "system/machine.h"

#define EXPORT __attribute__((visibility("default")))

/* cudaError_t values (CUDA 13.0's driver_types.h) */
enum {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidSymbol = 13,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorInvalidDeviceFunction = 98,
    cudaErrorInvalidDevice = 101,
    cudaErrorNoKernelImageForDevice = 209,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorNotSupported = 801,
};
typedef int cudaError_t;

enum { MEMCPY_H2H, MEMCPY_H2D, MEMCPY_D2H, MEMCPY_D2D, MEMCPY_DEFAULT };

struct cudart_dim3 {
    unsigned x, y, z;
};

/* A stream or an event: the runtime hands out pointers to these. */
/* Streams and events are the runtime's until destroyed (or the program
 * exits, which need not destroy them): each is on its list of live handles,
 * so that none is a leak. */
struct cudart_stream {
    unsigned magic;
    struct cudart_stream *prev, *next;
};
struct cudart_event {
    unsigned magic;
    bool recorded;
    uint64_t cycles;
    struct cudart_event *prev, *next;
};
static struct cudart_stream *live_streams;
static struct cudart_event *live_events;
#define HANDLE_LINK(head, h)                                                                       \
    ((h)->prev = NULL, (h)->next = (head), (head) ? (void)((head)->prev = (h)) : (void)0,          \
     (head) = (h))
#define HANDLE_UNLINK(head, h)                                                                     \
    ((h)->prev ? (void)((h)->prev->next = (h)->next) : (void)((head) = (h)->next),                 \
     (h)->next ? (void)((h)->next->prev = (h)->prev) : (void)0)
#define STREAM_MAGIC 0x5743u
#define EVENT_MAGIC  0x45e7u

struct cudart_function {
    const void *host_fun;
    char *name;
    bool has_ptx; /* its fat binary carried PTX */
};

struct cudart_var {
    const void *host_var;
    char *name;
};

struct cudart_alloc {
    addr_t base; /* what the program sees */
    size_t bytes;
    addr_t heap_base; /* what host_malloc returned (differs for managed memory) */
    size_t mapped;    /* managed memory: bytes of host mapping at base, else 0 */
};

/* What one kernel launch did: the machine's summary before and after. */
struct cudart_kernel_stats {
    char *name;
    uint64_t cycles, thread_insts, warp_insts, l1_hits, l1_accesses, l2_hits, l2_accesses;
};

static struct {
    bool open;
    struct sim_session s;
    char *sets_text; /* GPUCOH_SET, split in place */
    char protocol_set[128], seed_set[64];
    struct cudart_function *funs;
    size_t n_funs;
    struct cudart_var *vars;
    size_t n_vars;
    struct cudart_alloc *allocs;
    size_t n_allocs;
    struct cudart_alloc *mvars; /* __managed__ variables (base, bytes), mapped in place */
    size_t n_mvars;
    uintptr_t *mvar_pages; /* the pages mapped for them */
    size_t n_mvar_pages;
    struct cudart_kernel_stats *kstats;
    size_t n_kstats;
    cudaError_t last_error;
    struct {
        struct cudart_dim3 grid, block;
        size_t shmem;
        void *stream;
    } config[16]; /* __cudaPushCallConfiguration's stack */
    unsigned n_config;
    bool registering_ptx; /* the fat binary registered last carries PTX */
} rt;

#define GROW(arr, n)                                                                               \
    ((arr) = realloc((arr), ((n) + 1) * sizeof *(arr)), (arr) ? (void)0 : panic("out of memory"))

static cudaError_t fail(cudaError_t e, const char *fmt, ...) PRINTF_LIKE(2, 3);
static cudaError_t fail(cudaError_t e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("gpucoh-cudart: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    rt.last_error = e;
    return e;
}

/* ---- the machine ---- */

static void write_stats_at_exit(void);
static void managed_to_device(void);
static void managed_to_host(void);

/* Open the simulated machine once, configured from the environment. */
static struct host *host(void)
{
    if (rt.open)
        return rt.s.host;
    struct sim_opts o = {.quiet = true};
    o.config_file = getenv("GPUCOH_CONFIG");
    const char *proto = getenv("GPUCOH_PROTOCOL");
    if (proto && *proto) {
        snprintf(rt.protocol_set, sizeof rt.protocol_set, "coherence.protocol=%s", proto);
        o.sets[o.n_sets++] = rt.protocol_set;
    }
    const char *seed = getenv("GPUCOH_SEED");
    if (seed && *seed) {
        snprintf(rt.seed_set, sizeof rt.seed_set, "sim.seed=%s", seed);
        o.sets[o.n_sets++] = rt.seed_set;
    }
    const char *sets = getenv("GPUCOH_SET");
    if (sets && *sets) { /* after the shorthands: an explicit k=v wins, as on the command line */
        rt.sets_text = xstrdup(sets);
        for (char *save, *kv = strtok_r(rt.sets_text, ";", &save); kv;
             kv = strtok_r(NULL, ";", &save)) {
            if (!*kv)
                continue;
            if (o.n_sets == SIM_MAX_SETS)
                fatal("GPUCOH_SET: more than %d settings", SIM_MAX_SETS);
            o.sets[o.n_sets++] = kv;
        }
    }
    o.check = getenv("GPUCOH_CHECK") && *getenv("GPUCOH_CHECK") == '1';
    const char *stats = getenv("GPUCOH_STATS");
    o.stats_file = stats && *stats ? stats : NULL;
    const char **const trace_opt[] = {&o.trace_file,  &o.inst_stats_file, &o.trace_kernel,
                                      &o.trace_warps, &o.trace_ctas,      &o.trace_cycles};
    const char *const trace_env[] = {"GPUCOH_TRACE",        "GPUCOH_INST_STATS",
                                     "GPUCOH_TRACE_KERNEL", "GPUCOH_TRACE_WARPS",
                                     "GPUCOH_TRACE_CTAS",   "GPUCOH_TRACE_CYCLES"};
    for (unsigned k = 0; k < sizeof trace_env / sizeof trace_env[0]; k++) {
        const char *v = getenv(trace_env[k]);
        *trace_opt[k] = v && *v ? v : NULL;
    }
    sim_open(&rt.s, &o);
    rt.open = true;
    atexit(write_stats_at_exit);
    return rt.s.host;
}

static const struct config *cfg(void)
{
    host();
    return &rt.s.cfg;
}

/* Every kernel's statistics and the whole run's, in GPUCOH_STATS, at exit:
 * whole or not at all (sim_report writes through a temporary file). */
static void write_stats_at_exit(void)
{
    if (!rt.open || (!rt.s.opts.stats_file && !rt.s.itrace))
        return;
    cJSON *extra = cJSON_CreateObject();
    cJSON *ks = cJSON_AddArrayToObject(extra, "cuda_kernels");
    for (size_t i = 0; i < rt.n_kstats; i++) {
        const struct cudart_kernel_stats *k = &rt.kstats[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "kernel", k->name);
        cJSON_AddNumberToObject(o, "cycles", (double)k->cycles);
        cJSON_AddNumberToObject(o, "thread_insts", (double)k->thread_insts);
        cJSON_AddNumberToObject(o, "warp_insts", (double)k->warp_insts);
        cJSON_AddNumberToObject(o, "l1_hits", (double)k->l1_hits);
        cJSON_AddNumberToObject(o, "l1_accesses", (double)k->l1_accesses);
        cJSON_AddNumberToObject(o, "l2_hits", (double)k->l2_hits);
        cJSON_AddNumberToObject(o, "l2_accesses", (double)k->l2_accesses);
        cJSON_AddItemToArray(ks, o);
    }
    FILE *devnull = fopen("/dev/null", "w");
    if (sim_report(&rt.s, devnull ? devnull : stderr, "cuda", extra))
        fprintf(stderr, "gpucoh-cudart: statistics not written to %s\n", rt.s.opts.stats_file);
    if (devnull)
        fclose(devnull);
    cJSON_Delete(extra);
}

/* ---- registration (the code nvcc generates calls these before main) ---- */

struct segment_search {
    const uint8_t *p;
    size_t avail;
};

static int find_segment(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    struct segment_search *s = arg;
    for (unsigned i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
        if ((uintptr_t)s->p >= lo && (uintptr_t)s->p < hi) {
            s->avail = hi - (uintptr_t)s->p;
            return 1;
        }
    }
    return 0;
}

/* The bytes readable from p on: to the end of the loaded segment holding it,
 * so that a corrupt size in a fat binary cannot send the decoder past it. */
static size_t readable_from(const void *p)
{
    struct segment_search s = {p, 0};
    dl_iterate_phdr(find_segment, &s);
    return s.avail;
}

static const char *program_name(void)
{
    extern char *program_invocation_name;
    return program_invocation_name ? program_invocation_name : "program";
}

EXPORT void **__cudaRegisterFatBinary(void *wrapper)
{
    char err[512];
    const uint8_t *data = fatbin_wrapper_data(wrapper, err, sizeof err);
    if (!data)
        fatal("%s: %s", program_name(), err);
    size_t avail = readable_from(data);
    if (!avail)
        fatal("%s: fat binary at %p lies outside the program's loaded segments", program_name(),
              (const void *)data);
    unsigned arch = 0;
    char *ptx = fatbin_ptx(data, avail, &arch, err, sizeof err);
    if (!ptx && err[0])
        fatal("%s: corrupt fat binary: %s", program_name(), err);
    rt.registering_ptx = ptx != NULL; /* its kernels are registered next */
    if (ptx) {
        char name[4200];
        snprintf(name, sizeof name, "%s[compute_%u PTX]", program_name(), arch);
        host_load_ptx(host(), ptx, name);
        free(ptx);
    }
    /* the handle: the wrapper, which the program passes back */
    return (void **)wrapper;
}

EXPORT void __cudaRegisterFatBinaryEnd(void **handle)
{
    (void)handle;
}

EXPORT void __cudaUnregisterFatBinary(void **handle)
{
    (void)handle; /* modules live until exit: the statistics are written then */
}

EXPORT char __cudaInitModule(void **handle)
{
    (void)handle;
    return 1;
}

EXPORT void __cudaRegisterFunction(void **handle, const char *host_fun, char *device_fun,
                                   const char *device_name, int thread_limit, void *tid, void *bid,
                                   void *bdim, void *gdim, int *wsize)
{
    (void)handle, (void)device_fun, (void)thread_limit, (void)tid, (void)bid, (void)bdim;
    (void)gdim, (void)wsize;
    GROW(rt.funs, rt.n_funs);
    rt.funs[rt.n_funs++] =
        (struct cudart_function){host_fun, xstrdup(device_name), rt.registering_ptx};
}

EXPORT void __cudaRegisterVar(void **handle, char *host_var, char *device_address,
                              const char *device_name, int ext, size_t size, int constant,
                              int global)
{
    (void)handle, (void)device_address, (void)ext, (void)size, (void)constant, (void)global;
    GROW(rt.vars, rt.n_vars);
    rt.vars[rt.n_vars++] = (struct cudart_var){host_var, xstrdup(device_name)};
}

/* A __managed__ variable: the PTX declares it .global .attribute(.managed), so
 * it lies in the module's block of __device__ variables; the pages holding it
 * are mapped into the program at the same address (as cudaMallocManaged's),
 * filled with its initial value, and the program's pointer to it (through
 * which nvcc's host code reaches the variable) set to that address. Between
 * runtime calls the host's copy is the current one, exactly as for
 * cudaMallocManaged (managed_to_device, managed_to_host), for its own bytes
 * only: the __device__ variables beside it on the page keep theirs. */
EXPORT void __cudaRegisterManagedVar(void **handle, void **host_var_ptr, char *device_address,
                                     const char *device_name, int ext, size_t size, int constant,
                                     int global)
{
    (void)handle, (void)device_address, (void)ext, (void)constant, (void)global;
    addr_t a;
    size_t bytes;
    if (!rt.registering_ptx || !host_global_symbol(host(), device_name, &a, &bytes))
        fatal("%s: __managed__ variable %s: the program carries no PTX declaring it (build "
              "with -arch=sm_75, which keeps the PTX)",
              program_name(), device_name);
    if (bytes != size)
        fatal("%s: __managed__ variable %s: %zu bytes in the PTX, %zu in the program",
              program_name(), device_name, bytes, size);
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    for (uintptr_t p = a / page * page; p < a + (bytes ? bytes : 1); p += page) {
        size_t k = 0;
        while (k < rt.n_mvar_pages && rt.mvar_pages[k] != p)
            k++;
        if (k < rt.n_mvar_pages)
            continue; /* another managed variable's page */
        void *m = mmap((void *)p, page, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
        if (m != (void *)p) {
            if (m != MAP_FAILED)
                munmap(m, page);
            fatal("%s: __managed__ variable %s: the program's address space is in use at %p, "
                  "where the simulated variable lies",
                  program_name(), device_name, (void *)p);
        }
        GROW(rt.mvar_pages, rt.n_mvar_pages);
        rt.mvar_pages[rt.n_mvar_pages++] = p;
    }
    host_memcpy_from_dev(host(), (void *)(uintptr_t)a, a, bytes); /* its initialiser */
    GROW(rt.mvars, rt.n_mvars);
    rt.mvars[rt.n_mvars++] = (struct cudart_alloc){a, bytes, a, bytes};
    *host_var_ptr = (void *)(uintptr_t)a;
}

static const struct cudart_function *function_of(const void *host_fun)
{
    for (size_t i = 0; i < rt.n_funs; i++)
        if (rt.funs[i].host_fun == host_fun)
            return &rt.funs[i];
    return NULL;
}

static const char *symbol_name(const void *host_var)
{
    for (size_t i = 0; i < rt.n_vars; i++)
        if (rt.vars[i].host_var == host_var)
            return rt.vars[i].name;
    return NULL;
}

/* ---- launches ---- */

EXPORT unsigned __cudaPushCallConfiguration(struct cudart_dim3 grid, struct cudart_dim3 block,
                                            size_t shmem, void *stream)
{
    if (rt.n_config == sizeof rt.config / sizeof rt.config[0])
        return fail(cudaErrorInvalidConfiguration, "kernel launches nested too deeply");
    rt.config[rt.n_config].grid = grid;
    rt.config[rt.n_config].block = block;
    rt.config[rt.n_config].shmem = shmem;
    rt.config[rt.n_config].stream = stream;
    rt.n_config++;
    return 0;
}

EXPORT cudaError_t __cudaPopCallConfiguration(struct cudart_dim3 *grid, struct cudart_dim3 *block,
                                              size_t *shmem, void *stream)
{
    if (!rt.n_config)
        return fail(cudaErrorInvalidConfiguration, "a launch without <<<...>>> configuration");
    rt.n_config--;
    *grid = rt.config[rt.n_config].grid;
    *block = rt.config[rt.n_config].block;
    *shmem = rt.config[rt.n_config].shmem;
    if (stream)
        *(void **)stream = rt.config[rt.n_config].stream;
    return cudaSuccess;
}

static double ratio(uint64_t a, uint64_t b)
{
    return b ? (double)a / (double)b : 0.0;
}

EXPORT cudaError_t cudaLaunchKernel(const void *func, struct cudart_dim3 grid,
                                    struct cudart_dim3 block, void **args, size_t shmem,
                                    void *stream)
{
    (void)stream; /* one stream: every launch runs to completion here */
    const struct cudart_function *f = function_of(func);
    if (!f)
        return fail(cudaErrorInvalidDeviceFunction,
                    "cudaLaunchKernel: %p is not a registered kernel", func);
    if (!f->has_ptx)
        return fail(cudaErrorNoKernelImageForDevice,
                    "kernel %s: the program carries no PTX for it (build with -arch=sm_75, "
                    "which keeps the PTX)",
                    f->name);
    if (shmem > UINT32_MAX)
        return fail(cudaErrorInvalidValue, "kernel %s: %zu bytes of dynamic shared memory", f->name,
                    shmem);
    struct host *h = host();
    struct machine_summary before, after;
    machine_summary(rt.s.machine, &before);
    managed_to_device();
    host_launch_args(h, f->name, (struct dim3){grid.x, grid.y, grid.z},
                     (struct dim3){block.x, block.y, block.z}, (uint32_t)shmem, args);
    managed_to_host();
    machine_summary(rt.s.machine, &after);
    GROW(rt.kstats, rt.n_kstats);
    struct cudart_kernel_stats *k = &rt.kstats[rt.n_kstats++];
    *k = (struct cudart_kernel_stats){
        .name = f->name,
        .cycles = after.cycles - before.cycles,
        .thread_insts = after.thread_insts - before.thread_insts,
        .warp_insts = after.warp_insts - before.warp_insts,
        .l1_hits = after.l1_hits - before.l1_hits,
        .l1_accesses = after.l1_accesses - before.l1_accesses,
        .l2_hits = after.l2_hits - before.l2_hits,
        .l2_accesses = after.l2_accesses - before.l2_accesses,
    };
    fprintf(stderr,
            "gpucoh: kernel %s on %s: %llu cycles, %llu thread instructions, L1 hits %.1f%% of "
            "%llu, L2 hits %.1f%% of %llu\n",
            f->name, rt.s.cfg.coherence.protocol, (unsigned long long)k->cycles,
            (unsigned long long)k->thread_insts, 100 * ratio(k->l1_hits, k->l1_accesses),
            (unsigned long long)k->l1_accesses, 100 * ratio(k->l2_hits, k->l2_accesses),
            (unsigned long long)k->l2_accesses);
    return cudaSuccess;
}

EXPORT cudaError_t cudaLaunchKernel_ptsz(const void *func, struct cudart_dim3 grid,
                                         struct cudart_dim3 block, void **args, size_t shmem,
                                         void *stream)
{
    return cudaLaunchKernel(func, grid, block, args, shmem, stream);
}

/* nvcc 13's launch path: a kernel handle from the host function, then a launch
 * by handle. The handle is the host function itself. */
EXPORT cudaError_t __cudaGetKernel(void **kernel, const void *func)
{
    *kernel = (void *)func;
    return function_of(func) ? cudaSuccess
                             : fail(cudaErrorInvalidDeviceFunction,
                                    "__cudaGetKernel: %p is not a registered kernel", func);
}

EXPORT cudaError_t __cudaLaunchKernel(void *kernel, struct cudart_dim3 grid,
                                      struct cudart_dim3 block, void **args, size_t shmem,
                                      void *stream)
{
    return cudaLaunchKernel(kernel, grid, block, args, shmem, stream);
}

EXPORT cudaError_t __cudaLaunchKernel_ptsz(void *kernel, struct cudart_dim3 grid,
                                           struct cudart_dim3 block, void **args, size_t shmem,
                                           void *stream)
{
    return cudaLaunchKernel(kernel, grid, block, args, shmem, stream);
}

EXPORT cudaError_t cudaFuncSetAttribute(const void *func, int attr, int value)
{
    (void)attr, (void)value; /* limits the simulator does not enforce */
    return function_of(func) ? cudaSuccess
                             : fail(cudaErrorInvalidDeviceFunction,
                                    "cudaFuncSetAttribute: %p is not a registered kernel", func);
}

EXPORT cudaError_t cudaFuncSetCacheConfig(const void *func, int config)
{
    (void)config; /* the L1/shared split is the configuration's ([l1]) */
    return function_of(func) ? cudaSuccess
                             : fail(cudaErrorInvalidDeviceFunction,
                                    "cudaFuncSetCacheConfig: %p is not a registered kernel", func);
}

EXPORT cudaError_t cudaDeviceSetCacheConfig(int config)
{
    (void)config;
    return cudaSuccess;
}

/* cudaLimit values (CUDA 13.0's driver_types.h) */
enum { cudaLimitStackSize = 0, cudaLimitPrintfFifoSize = 1 };
enum { cudaErrorUnsupportedLimit = 215 };

/* Only the printf FIFO is a limit gpucoh has (device printf: docs/cuda.md);
 * the others fail with cudaErrorUnsupportedLimit and a line naming them. */
EXPORT cudaError_t cudaDeviceSetLimit(int limit, size_t value)
{
    if (limit != cudaLimitPrintfFifoSize)
        return fail(cudaErrorUnsupportedLimit,
                    "cudaDeviceSetLimit: limit %d is not supported by gpucoh's CUDA runtime "
                    "(only cudaLimitPrintfFifoSize is)",
                    limit);
    host_set_printf_fifo(host(), value);
    return cudaSuccess;
}

EXPORT cudaError_t cudaDeviceGetLimit(size_t *value, int limit)
{
    if (!value)
        return fail(cudaErrorInvalidValue, "cudaDeviceGetLimit: no place for the value");
    if (limit != cudaLimitPrintfFifoSize)
        return fail(cudaErrorUnsupportedLimit,
                    "cudaDeviceGetLimit: limit %d is not supported by gpucoh's CUDA runtime "
                    "(only cudaLimitPrintfFifoSize is)",
                    limit);
    *value = (size_t)host_printf_fifo(host());
    return cudaSuccess;
}

/* ---- memory ---- */

/* The allocation holding [a, a+n), NULL if none does. */
static const struct cudart_alloc *alloc_of(uintptr_t a, size_t n)
{
    for (size_t i = 0; i < rt.n_allocs; i++) {
        const struct cudart_alloc *x = &rt.allocs[i];
        if (a >= x->base && a - x->base <= x->bytes && n <= x->bytes - (a - x->base))
            return x;
    }
    return NULL;
}

EXPORT cudaError_t cudaMalloc(void **ptr, size_t bytes)
{
    if (!ptr)
        return fail(cudaErrorInvalidValue, "cudaMalloc: a NULL result pointer");
    addr_t a = host_malloc(host(), bytes);
    GROW(rt.allocs, rt.n_allocs);
    rt.allocs[rt.n_allocs++] = (struct cudart_alloc){a, bytes, a, 0};
    *ptr = (void *)(uintptr_t)a;
    return cudaSuccess;
}

/* Managed memory: the device allocation is also mapped into the program at
 * the same address (pages of its own: the allocation is padded to whole
 * pages and the pointer is its first page boundary). Between runtime calls
 * the host's copy is the current one; there is one queue, so a device
 * operation (launch, copy or memset touching device memory) first sends every
 * managed byte to the device (managed_to_device) and, if it may have written
 * device memory, brings them back (managed_to_host), through the memory
 * system's host-copy rules as cudaMemcpy's. Correct for any access pattern,
 * at the price of copying all managed memory around every such call. */
EXPORT cudaError_t cudaMallocManaged(void **ptr, size_t bytes, unsigned flags)
{
    (void)flags;
    if (!ptr)
        return fail(cudaErrorInvalidValue, "cudaMallocManaged: a NULL result pointer");
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t mapped = ((bytes ? bytes : 1) + page - 1) / page * page;
    addr_t heap = host_malloc(host(), mapped + page);
    addr_t a = (heap + page - 1) / page * page;
    void *m = mmap((void *)(uintptr_t)a, mapped, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (m != (void *)(uintptr_t)a) {
        if (m != MAP_FAILED)
            munmap(m, mapped);
        host_free(host(), heap);
        return fail(cudaErrorMemoryAllocation,
                    "cudaMallocManaged: the program's address space is in use at %p, where the "
                    "simulated allocation lies",
                    (void *)(uintptr_t)a);
    }
    host_memset(host(), a, 0, mapped); /* both copies start as zeros */
    GROW(rt.allocs, rt.n_allocs);
    rt.allocs[rt.n_allocs++] = (struct cudart_alloc){a, bytes, heap, mapped};
    *ptr = (void *)(uintptr_t)a;
    return cudaSuccess;
}

static void managed_to_device(void)
{
    for (size_t i = 0; i < rt.n_allocs; i++)
        if (rt.allocs[i].mapped)
            host_memcpy_to_dev(rt.s.host, rt.allocs[i].base,
                               (const void *)(uintptr_t)rt.allocs[i].base, rt.allocs[i].mapped);
    for (size_t i = 0; i < rt.n_mvars; i++)
        host_memcpy_to_dev(rt.s.host, rt.mvars[i].base, (const void *)(uintptr_t)rt.mvars[i].base,
                           rt.mvars[i].bytes);
}

static void managed_to_host(void)
{
    for (size_t i = 0; i < rt.n_allocs; i++)
        if (rt.allocs[i].mapped)
            host_memcpy_from_dev(rt.s.host, (void *)(uintptr_t)rt.allocs[i].base, rt.allocs[i].base,
                                 rt.allocs[i].mapped);
    for (size_t i = 0; i < rt.n_mvars; i++)
        host_memcpy_from_dev(rt.s.host, (void *)(uintptr_t)rt.mvars[i].base, rt.mvars[i].base,
                             rt.mvars[i].bytes);
}

EXPORT cudaError_t cudaFree(void *ptr)
{
    if (!ptr)
        return cudaSuccess;
    for (size_t i = 0; i < rt.n_allocs; i++)
        if (rt.allocs[i].base == (uintptr_t)ptr) {
            if (rt.allocs[i].mapped)
                munmap(ptr, rt.allocs[i].mapped);
            host_free(host(), rt.allocs[i].heap_base);
            rt.allocs[i] = rt.allocs[--rt.n_allocs];
            return cudaSuccess;
        }
    return fail(cudaErrorInvalidValue, "cudaFree: %p is not a device allocation", ptr);
}

EXPORT cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, int kind)
{
    if (!n)
        return cudaSuccess;
    if (kind == MEMCPY_DEFAULT) /* unified addressing: the pointers say which side */
        kind = alloc_of((uintptr_t)src, n)
                   ? (alloc_of((uintptr_t)dst, n) ? MEMCPY_D2D : MEMCPY_D2H)
                   : (alloc_of((uintptr_t)dst, n) ? MEMCPY_H2D : MEMCPY_H2H);
    bool dev_src = kind == MEMCPY_D2H || kind == MEMCPY_D2D;
    bool dev_dst = kind == MEMCPY_H2D || kind == MEMCPY_D2D;
    if (kind < MEMCPY_H2H || kind > MEMCPY_D2D)
        return fail(cudaErrorInvalidMemcpyDirection, "cudaMemcpy: direction %d", kind);
    if (dev_src && !alloc_of((uintptr_t)src, n))
        return fail(cudaErrorInvalidValue,
                    "cudaMemcpy: source [%p, +%zu) is not inside one device allocation", src, n);
    if (dev_dst && !alloc_of((uintptr_t)dst, n))
        return fail(cudaErrorInvalidValue,
                    "cudaMemcpy: destination [%p, +%zu) is not inside one device allocation", dst,
                    n);
    if (kind == MEMCPY_H2H) { /* managed memory too: its host copy is current between calls */
        memmove(dst, src, n);
        return cudaSuccess;
    }
    struct host *h = host();
    managed_to_device(); /* device reads see the host's bytes of managed memory */
    if (kind == MEMCPY_H2D) {
        host_memcpy_to_dev(h, (uintptr_t)dst, src, n);
    } else if (kind == MEMCPY_D2H) {
        host_memcpy_from_dev(h, dst, (uintptr_t)src, n);
    } else {
        void *tmp = xmalloc(n);
        host_memcpy_from_dev(h, tmp, (uintptr_t)src, n);
        host_memcpy_to_dev(h, (uintptr_t)dst, tmp, n);
        free(tmp);
    }
    if (dev_dst) /* the device copy was written: managed memory's host copy follows */
        managed_to_host();
    return cudaSuccess;
}

EXPORT cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, int kind, void *stream)
{
    (void)stream;
    return cudaMemcpy(dst, src, n, kind);
}

EXPORT cudaError_t cudaMemset(void *dst, int value, size_t n)
{
    if (!n)
        return cudaSuccess;
    if (!alloc_of((uintptr_t)dst, n))
        return fail(cudaErrorInvalidValue,
                    "cudaMemset: [%p, +%zu) is not inside one device allocation", dst, n);
    managed_to_device();
    host_memset(host(), (uintptr_t)dst, (uint8_t)value, n);
    managed_to_host();
    return cudaSuccess;
}

EXPORT cudaError_t cudaMemsetAsync(void *dst, int value, size_t n, void *stream)
{
    (void)stream;
    return cudaMemset(dst, value, n);
}

EXPORT cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t n, int kind)
{
    return cudaMemcpy(dst, src, n, kind);
}

EXPORT cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t n, int kind,
                                        void *stream)
{
    return cudaMemcpyAsync(dst, src, n, kind, stream);
}

EXPORT cudaError_t cudaMemset_ptds(void *dst, int value, size_t n)
{
    return cudaMemset(dst, value, n);
}

EXPORT cudaError_t cudaMemsetAsync_ptsz(void *dst, int value, size_t n, void *stream)
{
    return cudaMemsetAsync(dst, value, n, stream);
}

/* Pinned host memory is ordinary host memory here. */
EXPORT cudaError_t cudaMallocHost(void **ptr, size_t bytes)
{
    if (!ptr)
        return fail(cudaErrorInvalidValue, "cudaMallocHost: a NULL result pointer");
    *ptr = malloc(bytes ? bytes : 1);
    return *ptr ? cudaSuccess : fail(cudaErrorMemoryAllocation, "cudaMallocHost: out of memory");
}

EXPORT cudaError_t cudaHostAlloc(void **ptr, size_t bytes, unsigned flags)
{
    (void)flags;
    return cudaMallocHost(ptr, bytes);
}

EXPORT cudaError_t cudaFreeHost(void *ptr)
{
    free(ptr);
    return cudaSuccess;
}

EXPORT cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total)
{
    /* the simulated heap is sparse and far larger than any run touches */
    *free_bytes = *total = (size_t)4 << 30;
    return cudaSuccess;
}

/* ---- symbols ---- */

static cudaError_t symbol_copy(const char *call, const void *symbol, void *host_buf, size_t n,
                               size_t offset, int kind, bool to_symbol)
{
    const char *name = symbol_name(symbol);
    if (!name)
        return fail(cudaErrorInvalidSymbol,
                    "%s: %p is not a registered __device__ or "
                    "__constant__ variable",
                    call, symbol);
    struct host *h = host();
    if (kind != MEMCPY_DEFAULT && kind != MEMCPY_D2D &&
        kind != (to_symbol ? MEMCPY_H2D : MEMCPY_D2H))
        return fail(cudaErrorInvalidMemcpyDirection, "%s: direction %d", call, kind);
    /* is the other side device memory? (cudaMemcpyDefault: the allocations say) */
    bool device_side =
        kind == MEMCPY_DEFAULT ? alloc_of((uintptr_t)host_buf, n) != NULL : kind == MEMCPY_D2D;
    void *buf = host_buf;
    managed_to_device();
    if (device_side) { /* the other side is device memory: through a host buffer */
        if (!alloc_of((uintptr_t)host_buf, n))
            return fail(cudaErrorInvalidValue,
                        "%s: [%p, +%zu) is not inside one device "
                        "allocation",
                        call, host_buf, n);
        buf = xmalloc(n);
        if (to_symbol)
            host_memcpy_from_dev(h, buf, (uintptr_t)host_buf, n);
    }
    if (to_symbol)
        host_memcpy_to_symbol(h, name, offset, buf, n);
    else
        host_memcpy_from_symbol(h, name, offset, buf, n);
    if (device_side) {
        if (!to_symbol)
            host_memcpy_to_dev(h, (uintptr_t)host_buf, buf, n);
        free(buf);
    }
    if (device_side && !to_symbol) /* device memory written: managed memory follows */
        managed_to_host();
    return cudaSuccess;
}

EXPORT cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t n, size_t offset,
                                      int kind)
{
    return symbol_copy("cudaMemcpyToSymbol", symbol, (void *)src, n, offset, kind, true);
}

EXPORT cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t n, size_t offset,
                                        int kind)
{
    return symbol_copy("cudaMemcpyFromSymbol", symbol, dst, n, offset, kind, false);
}

EXPORT cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t n,
                                           size_t offset, int kind, void *stream)
{
    (void)stream;
    return cudaMemcpyToSymbol(symbol, src, n, offset, kind);
}

EXPORT cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t n, size_t offset,
                                             int kind, void *stream)
{
    (void)stream;
    return cudaMemcpyFromSymbol(dst, symbol, n, offset, kind);
}

EXPORT cudaError_t cudaMemcpyToSymbol_ptds(const void *symbol, const void *src, size_t n,
                                           size_t offset, int kind)
{
    return cudaMemcpyToSymbol(symbol, src, n, offset, kind);
}

EXPORT cudaError_t cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol, size_t n, size_t offset,
                                             int kind)
{
    return cudaMemcpyFromSymbol(dst, symbol, n, offset, kind);
}

EXPORT cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void *symbol, const void *src, size_t n,
                                                size_t offset, int kind, void *stream)
{
    return cudaMemcpyToSymbolAsync(symbol, src, n, offset, kind, stream);
}

EXPORT cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *symbol, size_t n,
                                                  size_t offset, int kind, void *stream)
{
    return cudaMemcpyFromSymbolAsync(dst, symbol, n, offset, kind, stream);
}

EXPORT cudaError_t cudaGetSymbolAddress(void **ptr, const void *symbol)
{
    const char *name = symbol_name(symbol);
    addr_t a;
    size_t bytes;
    if (!name || !host_global_symbol(host(), name, &a, &bytes))
        return fail(cudaErrorInvalidSymbol,
                    "cudaGetSymbolAddress: %p is not a registered __device__ variable", symbol);
    if (!alloc_of(a, bytes)) { /* let copies and kernels use it as any allocation */
        GROW(rt.allocs, rt.n_allocs);
        rt.allocs[rt.n_allocs++] = (struct cudart_alloc){a, bytes, a, 0};
    }
    *ptr = (void *)(uintptr_t)a;
    return cudaSuccess;
}

EXPORT cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol)
{
    const char *name = symbol_name(symbol);
    addr_t a;
    if (!name || !host_global_symbol(host(), name, &a, size))
        return fail(cudaErrorInvalidSymbol,
                    "cudaGetSymbolSize: %p is not a registered __device__ variable", symbol);
    return cudaSuccess;
}

/* ---- synchronisation, streams and events (everything is already done) ---- */

EXPORT cudaError_t cudaDeviceSynchronize(void)
{
    return cudaSuccess;
}

EXPORT cudaError_t cudaThreadSynchronize(void)
{
    return cudaSuccess;
}

EXPORT cudaError_t cudaDeviceReset(void)
{
    return cudaSuccess; /* the machine and its statistics live until exit */
}

static struct cudart_stream *new_stream(void)
{
    struct cudart_stream *s = xmalloc(sizeof *s);
    s->magic = STREAM_MAGIC;
    HANDLE_LINK(live_streams, s);
    return s;
}

EXPORT cudaError_t cudaStreamCreate(void **stream)
{
    *stream = new_stream();
    return cudaSuccess;
}

EXPORT cudaError_t cudaStreamCreateWithFlags(void **stream, unsigned flags)
{
    (void)flags;
    return cudaStreamCreate(stream);
}

EXPORT cudaError_t cudaStreamCreateWithPriority(void **stream, unsigned flags, int priority)
{
    (void)flags, (void)priority;
    return cudaStreamCreate(stream);
}

static bool stream_ok(const void *stream)
{
    /* 0, cudaStreamLegacy (1) and cudaStreamPerThread (2) are the default stream */
    return (uintptr_t)stream <= 2 || ((const struct cudart_stream *)stream)->magic == STREAM_MAGIC;
}

EXPORT cudaError_t cudaStreamDestroy(void *stream)
{
    if ((uintptr_t)stream <= 2 || !stream_ok(stream))
        return fail(cudaErrorInvalidResourceHandle, "cudaStreamDestroy: %p is not a stream",
                    stream);
    struct cudart_stream *s = stream;
    s->magic = 0;
    HANDLE_UNLINK(live_streams, s);
    free(s);
    return cudaSuccess;
}

EXPORT cudaError_t cudaStreamSynchronize(void *stream)
{
    return stream_ok(stream) ? cudaSuccess
                             : fail(cudaErrorInvalidResourceHandle,
                                    "cudaStreamSynchronize: %p is not a stream", stream);
}

EXPORT cudaError_t cudaStreamSynchronize_ptsz(void *stream)
{
    return cudaStreamSynchronize(stream);
}

EXPORT cudaError_t cudaStreamQuery(void *stream)
{
    return cudaStreamSynchronize(stream);
}

EXPORT cudaError_t cudaStreamQuery_ptsz(void *stream)
{
    return cudaStreamSynchronize(stream);
}

EXPORT cudaError_t cudaStreamWaitEvent(void *stream, void *event, unsigned flags)
{
    (void)event, (void)flags;
    return cudaStreamSynchronize(stream);
}

EXPORT cudaError_t cudaStreamWaitEvent_ptsz(void *stream, void *event, unsigned flags)
{
    return cudaStreamWaitEvent(stream, event, flags);
}

EXPORT cudaError_t cudaEventCreate(void **event)
{
    struct cudart_event *e = xmalloc(sizeof *e);
    *e = (struct cudart_event){EVENT_MAGIC, false, 0, NULL, NULL};
    HANDLE_LINK(live_events, e);
    *event = e;
    return cudaSuccess;
}

EXPORT cudaError_t cudaEventCreateWithFlags(void **event, unsigned flags)
{
    (void)flags;
    return cudaEventCreate(event);
}

static struct cudart_event *event_of(void *event)
{
    struct cudart_event *e = event;
    return e && e->magic == EVENT_MAGIC ? e : NULL;
}

EXPORT cudaError_t cudaEventDestroy(void *event)
{
    struct cudart_event *e = event_of(event);
    if (!e)
        return fail(cudaErrorInvalidResourceHandle, "cudaEventDestroy: %p is not an event", event);
    e->magic = 0;
    HANDLE_UNLINK(live_events, e);
    free(e);
    return cudaSuccess;
}

/* An event's time: the simulated core cycles of every kernel so far. */
EXPORT cudaError_t cudaEventRecord(void *event, void *stream)
{
    struct cudart_event *e = event_of(event);
    if (!e || !stream_ok(stream))
        return fail(cudaErrorInvalidResourceHandle, "cudaEventRecord: bad event or stream");
    e->recorded = true;
    e->cycles = host_cycles(host());
    return cudaSuccess;
}

EXPORT cudaError_t cudaEventRecord_ptsz(void *event, void *stream)
{
    return cudaEventRecord(event, stream);
}

EXPORT cudaError_t cudaEventRecordWithFlags(void *event, void *stream, unsigned flags)
{
    (void)flags;
    return cudaEventRecord(event, stream);
}

EXPORT cudaError_t cudaEventRecordWithFlags_ptsz(void *event, void *stream, unsigned flags)
{
    return cudaEventRecordWithFlags(event, stream, flags);
}

EXPORT cudaError_t cudaEventSynchronize(void *event)
{
    return event_of(event) ? cudaSuccess
                           : fail(cudaErrorInvalidResourceHandle,
                                  "cudaEventSynchronize: %p is not an event", event);
}

EXPORT cudaError_t cudaEventQuery(void *event)
{
    return cudaEventSynchronize(event);
}

/* Milliseconds between two recorded events at the simulated core clock. */
EXPORT cudaError_t cudaEventElapsedTime(float *ms, void *start, void *end)
{
    struct cudart_event *a = event_of(start), *b = event_of(end);
    if (!ms || !a || !b || !a->recorded || !b->recorded)
        return fail(cudaErrorInvalidResourceHandle,
                    "cudaEventElapsedTime: both events must exist and be recorded");
    double cycles = (double)b->cycles - (double)a->cycles;
    *ms = (float)(cycles / (cfg()->gpu.core_mhz * 1e3));
    return cudaSuccess;
}

/* ---- errors ---- */

EXPORT cudaError_t cudaGetLastError(void)
{
    cudaError_t e = rt.last_error;
    rt.last_error = cudaSuccess;
    return e;
}

EXPORT cudaError_t cudaPeekAtLastError(void)
{
    return rt.last_error;
}

static const struct {
    cudaError_t code;
    const char *name, *text;
} error_names[] = {
    {cudaSuccess, "cudaSuccess", "no error"},
    {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration",
     "invalid configuration argument"},
    {cudaErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol"},
    {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection",
     "invalid copy direction for memcpy"},
    {cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {cudaErrorNoKernelImageForDevice, "cudaErrorNoKernelImageForDevice",
     "no kernel image is available for execution on the device"},
    {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported"},
};

EXPORT const char *cudaGetErrorName(cudaError_t e)
{
    for (size_t i = 0; i < sizeof error_names / sizeof error_names[0]; i++)
        if (error_names[i].code == e)
            return error_names[i].name;
    return "cudaErrorUnknown";
}

EXPORT const char *cudaGetErrorString(cudaError_t e)
{
    for (size_t i = 0; i < sizeof error_names / sizeof error_names[0]; i++)
        if (error_names[i].code == e)
            return error_names[i].text;
    return "unknown error";
}

/* ---- the device ---- */

EXPORT cudaError_t cudaGetDeviceCount(int *n)
{
    *n = 1;
    return cudaSuccess;
}

EXPORT cudaError_t cudaSetDevice(int dev)
{
    return dev == 0
               ? cudaSuccess
               : fail(cudaErrorInvalidDevice, "cudaSetDevice(%d): the simulator is device 0", dev);
}

EXPORT cudaError_t cudaInitDevice(int dev, unsigned flags, unsigned device_flags)
{
    (void)flags, (void)device_flags;
    return cudaSetDevice(dev);
}

EXPORT cudaError_t cudaGetDevice(int *dev)
{
    *dev = 0;
    return cudaSuccess;
}

EXPORT cudaError_t cudaSetDeviceFlags(unsigned flags)
{
    (void)flags;
    return cudaSuccess;
}

EXPORT cudaError_t cudaGetDeviceFlags(unsigned *flags)
{
    *flags = 0;
    return cudaSuccess;
}

EXPORT cudaError_t cudaDriverGetVersion(int *v)
{
    *v = 13000;
    return cudaSuccess;
}

EXPORT cudaError_t cudaRuntimeGetVersion(int *v)
{
    *v = GPUCOH_CUDART_MAJOR * 1000;
    return cudaSuccess;
}

/* Byte offsets in struct cudaDeviceProp of the fields the simulated machine
 * gives; the rest read as zero (features it does not have). CUDA 13.0's
 * (1008 bytes) were measured with offsetof against its driver_types.h. CUDA
 * 12's has five more fields before the ones set here (clockRate,
 * deviceOverlap, kernelExecTimeoutEnabled, computeMode, maxTexture1DLinear;
 * memoryClockRate and two more later), which CUDA 13 removed: its offsets
 * are computed from CUDA 12's field order (docs/cuda.md), and `named_bytes`
 * ends at its last named field, unifiedFunctionPointers, so that a program's
 * reserved tail is never written. */
struct prop_layout {
    unsigned named_bytes, name, total_global_mem, shared_mem_per_block, regs_per_block, warp_size,
        max_threads_per_block, max_threads_dim, max_grid_size, clock_rate, total_const_mem, major,
        minor, multiprocessor_count, l2_cache_size, max_threads_per_sm, shared_mem_per_sm,
        regs_per_sm;
};
#if GPUCOH_CUDART_MAJOR == 12
static const struct prop_layout prop = {.named_bytes = 780,
                                        .name = 0,
                                        .total_global_mem = 288,
                                        .shared_mem_per_block = 296,
                                        .regs_per_block = 304,
                                        .warp_size = 308,
                                        .max_threads_per_block = 320,
                                        .max_threads_dim = 324,
                                        .max_grid_size = 336,
                                        .clock_rate = 348,
                                        .total_const_mem = 352,
                                        .major = 360,
                                        .minor = 364,
                                        .multiprocessor_count = 388,
                                        .l2_cache_size = 616,
                                        .max_threads_per_sm = 624,
                                        .shared_mem_per_sm = 640,
                                        .regs_per_sm = 648};
#else
static const struct prop_layout prop = {.named_bytes = 1008,
                                        .name = 0,
                                        .total_global_mem = 288,
                                        .shared_mem_per_block = 296,
                                        .regs_per_block = 304,
                                        .warp_size = 308,
                                        .max_threads_per_block = 320,
                                        .max_threads_dim = 324,
                                        .max_grid_size = 336,
                                        .clock_rate = 0 /* removed */,
                                        .total_const_mem = 352,
                                        .major = 360,
                                        .minor = 364,
                                        .multiprocessor_count = 384,
                                        .l2_cache_size = 596,
                                        .max_threads_per_sm = 604,
                                        .shared_mem_per_sm = 624,
                                        .regs_per_sm = 632};
#endif

struct device_limits {
    int sms, warp, l2_bytes;
};

static struct device_limits limits(void)
{
    const struct config *c = cfg();
    return (struct device_limits){
        .sms = (int)machine_n_sms(rt.s.machine),
        .warp = 32,
        .l2_bytes = (int)MIN((uint64_t)c->l2.cache.size_bytes * machine_n_banks(rt.s.machine),
                             (uint64_t)INT32_MAX),
    };
}

static void put_int(uint8_t *p, unsigned off, int v)
{
    memcpy(p + off, &v, sizeof v);
}

static void put_size(uint8_t *p, unsigned off, size_t v)
{
    memcpy(p + off, &v, sizeof v);
}

EXPORT cudaError_t cudaGetDeviceProperties(void *out, int dev)
{
    if (dev != 0)
        return fail(cudaErrorInvalidDevice,
                    "cudaGetDeviceProperties(%d): the simulator is device "
                    "0",
                    dev);
    struct device_limits d = limits();
    uint8_t *p = out;
    memset(p, 0, prop.named_bytes);
    snprintf((char *)p + prop.name, 256, "gpucoh %.64s (simulated, %d SMs)",
             rt.s.cfg.coherence.protocol, d.sms);
    put_size(p, prop.total_global_mem, (size_t)4 << 30);
    put_size(p, prop.shared_mem_per_block, 48 << 10);
    put_int(p, prop.regs_per_block, 65536);
    put_int(p, prop.warp_size, d.warp);
    put_int(p, prop.max_threads_per_block, 1024);
    put_int(p, prop.max_threads_dim + 0, 1024);
    put_int(p, prop.max_threads_dim + 4, 1024);
    put_int(p, prop.max_threads_dim + 8, 64);
    put_int(p, prop.max_grid_size + 0, INT32_MAX);
    put_int(p, prop.max_grid_size + 4, 65535);
    put_int(p, prop.max_grid_size + 8, 65535);
    if (prop.clock_rate)
        put_int(p, prop.clock_rate, (int)(cfg()->gpu.core_mhz * 1000)); /* kHz */
    put_size(p, prop.total_const_mem, 64 << 10);
    put_int(p, prop.major, 7); /* the PTX it runs is compute_75's */
    put_int(p, prop.minor, 5);
    put_int(p, prop.multiprocessor_count, d.sms);
    put_int(p, prop.l2_cache_size, d.l2_bytes);
    put_int(p, prop.max_threads_per_sm, 2048);
    put_size(p, prop.shared_mem_per_sm, 96 << 10);
    put_int(p, prop.regs_per_sm, 65536);
    return cudaSuccess;
}

#if GPUCOH_CUDART_MAJOR == 12
/* CUDA 12's cuda_runtime_api.h renames the call (a program built with it
 * references cudaGetDeviceProperties_v2); the struct is the same. */
EXPORT cudaError_t cudaGetDeviceProperties_v2(void *out, int dev)
{
    return cudaGetDeviceProperties(out, dev);
}
#endif

/* cudaDeviceAttr values (CUDA 13.0) and the simulated machine's answer. */
EXPORT cudaError_t cudaDeviceGetAttribute(int *value, int attr, int dev)
{
    if (dev != 0)
        return fail(cudaErrorInvalidDevice, "cudaDeviceGetAttribute: device %d", dev);
    struct device_limits d = limits();
    switch (attr) {
    case 1:
        *value = 1024;
        break; /* MaxThreadsPerBlock */
    case 2:
    case 3:
        *value = 1024;
        break; /* MaxBlockDimX, Y */
    case 4:
        *value = 64;
        break; /* MaxBlockDimZ */
    case 5:
        *value = INT32_MAX;
        break; /* MaxGridDimX */
    case 6:
    case 7:
        *value = 65535;
        break; /* MaxGridDimY, Z */
    case 8:
        *value = 48 << 10;
        break; /* MaxSharedMemoryPerBlock */
    case 10:
        *value = d.warp;
        break; /* WarpSize */
    case 13:
        *value = (int)(cfg()->gpu.core_mhz * 1000);
        break; /* ClockRate, kHz */
    case 16:
        *value = d.sms;
        break; /* MultiProcessorCount */
    case 38:
        *value = d.l2_bytes;
        break; /* L2CacheSize */
    case 39:
        *value = 2048;
        break; /* MaxThreadsPerMultiProcessor */
    case 75:
        *value = 7;
        break; /* ComputeCapabilityMajor */
    case 76:
        *value = 5;
        break; /* ComputeCapabilityMinor */
    default:
        return fail(cudaErrorNotSupported,
                    "cudaDeviceGetAttribute: attribute %d is not supported by gpucoh", attr);
    }
    return cudaSuccess;
}

EXPORT cudaError_t cudaFuncGetAttributes(void *attr, const void *func)
{
    (void)attr;
    return fail(cudaErrorNotSupported, "cudaFuncGetAttributes(%p) is not supported by gpucoh",
                func);
}

/* ---- everything else the real library exports ---- */

#define UNSUPPORTED(name)                                                                          \
    EXPORT cudaError_t name(void)                                                                  \
    {                                                                                              \
        return fail(cudaErrorNotSupported,                                                         \
                    #name " is not supported by gpucoh's CUDA runtime (docs/cuda.md)");            \
    }
#include "cudart/unsupported.def"
#undef UNSUPPORTED
