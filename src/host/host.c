/*
 * host.c - the host API (host.h) over a launcher (launcher.h): device memory
 * allocation in the simulated address space, copies, PTX modules, kernel
 * parameter packing and launches.
 *
 * The allocator hands out 256-byte aligned blocks from HOST_HEAP_BASE upwards,
 * first fit over an address-sorted list of free extents (adjacent extents are
 * merged on free), so freed memory is reused and the same sequence of calls
 * always yields the same addresses.
 * INVARIANT: every block lies in [HOST_HEAP_BASE, HOST_HEAP_END), below the
 * generic shared/local windows of ptx.h, so a device pointer is never mistaken
 * for a shared or local address; 0 is never returned.
 * Copies and memsets must lie inside one live allocation: anything else is a
 * bug of the host program and a fatal error, not silent corruption.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "host/host.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/log.h"
#include "host/launcher.h"
#include "ptx/ptx.h"

#define HOST_ALIGN     256u
#define HOST_HEAP_BASE 0x10000000ull
#define HOST_HEAP_END  PTX_LOCAL_WINDOW /* the lower of the two generic windows */

struct host_extent {
    addr_t base;
    uint64_t bytes;
};

/* A growable array of extents, kept sorted by base. */
struct host_extents {
    struct host_extent *v;
    size_t n, cap;
};

struct host_module {
    struct ptx_module *mod;
    char *filename;
};

struct host {
    struct launcher l;
    struct host_extents live; /* allocations, sorted by base */
    struct host_extents free; /* free extents below `top`, sorted, never adjacent */
    addr_t top;               /* first never-allocated address */
    struct host_module *mods;
    size_t n_mods;
    struct launch waiting[2]; /* launches that start with the next one (host_launch_on) */
    unsigned n_waiting;
    struct ptx_printf_log *printf_log; /* device printf of the running launch(es) */
};

struct host *host_new(struct launcher l)
{
    struct host *h = calloc(1, sizeof *h);
    if (!h)
        panic("out of memory");
    h->l = l;
    h->top = HOST_HEAP_BASE;
    h->printf_log = ptx_printf_log_new();
    return h;
}

void host_delete(struct host *h)
{
    if (!h)
        return;
    for (size_t i = 0; i < h->n_mods; i++) {
        ptx_module_free(h->mods[i].mod);
        free(h->mods[i].filename);
    }
    free(h->mods);
    for (unsigned i = 0; i < h->n_waiting; i++)
        free((void *)h->waiting[i].params);
    free(h->live.v);
    free(h->free.v);
    ptx_printf_log_free(h->printf_log);
    free(h);
}

/* ---- device memory ---- */

/* Index of the first extent whose base is >= a. */
static size_t ext_lower_bound(const struct host_extents *e, addr_t a)
{
    size_t lo = 0, hi = e->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (e->v[mid].base < a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void ext_insert(struct host_extents *e, size_t at, struct host_extent x)
{
    if (e->n == e->cap) {
        e->cap = e->cap ? 2 * e->cap : 16;
        e->v = xrealloc(e->v, e->cap * sizeof *e->v);
    }
    memmove(&e->v[at + 1], &e->v[at], (e->n - at) * sizeof *e->v);
    e->v[at] = x;
    e->n++;
}

static void ext_remove(struct host_extents *e, size_t at)
{
    memmove(&e->v[at], &e->v[at + 1], (e->n - at - 1) * sizeof *e->v);
    e->n--;
}

/* Allocate `bytes` (rounded up to HOST_ALIGN; 0 gets one granule so that
 * every allocation has a distinct address). Fatal when the simulated heap is
 * exhausted. */
addr_t host_malloc(struct host *h, size_t bytes)
{
    uint64_t need =
        bytes ? ((uint64_t)bytes + HOST_ALIGN - 1) & ~(uint64_t)(HOST_ALIGN - 1) : HOST_ALIGN;
    if (need < bytes)
        fatal("host_malloc: %zu bytes is too large", bytes);
    addr_t a = 0;
    for (size_t i = 0; i < h->free.n; i++) {
        struct host_extent *f = &h->free.v[i];
        if (f->bytes >= need) {
            a = f->base;
            f->base += need;
            f->bytes -= need;
            if (!f->bytes)
                ext_remove(&h->free, i);
            break;
        }
    }
    if (!a) {
        if (need > HOST_HEAP_END - h->top)
            fatal("host_malloc: out of simulated device memory (%zu bytes requested, "
                  "%llu in use)",
                  bytes, (unsigned long long)(h->top - HOST_HEAP_BASE));
        a = h->top;
        h->top += need;
    }
    ext_insert(&h->live, ext_lower_bound(&h->live, a), (struct host_extent){a, need});
    return a;
}

/* Free an allocation; freeing 0 does nothing (as cudaFree). Freeing anything
 * that is not the start of a live allocation is a fatal host-program error. */
void host_free(struct host *h, addr_t a)
{
    if (!a)
        return;
    size_t i = ext_lower_bound(&h->live, a);
    if (i == h->live.n || h->live.v[i].base != a)
        fatal("host_free: 0x%llx is not the start of a live allocation", (unsigned long long)a);
    struct host_extent x = h->live.v[i];
    ext_remove(&h->live, i);

    if (x.base + x.bytes == h->top) {
        /* the top block: give it back to the never-allocated region, and the
         * free extent just below it too */
        h->top = x.base;
        if (h->free.n && h->free.v[h->free.n - 1].base + h->free.v[h->free.n - 1].bytes == h->top) {
            h->top = h->free.v[h->free.n - 1].base;
            h->free.n--;
        }
        return;
    }
    size_t j = ext_lower_bound(&h->free, x.base);
    bool merge_prev = j > 0 && h->free.v[j - 1].base + h->free.v[j - 1].bytes == x.base;
    bool merge_next = j < h->free.n && x.base + x.bytes == h->free.v[j].base;
    if (merge_prev && merge_next) {
        h->free.v[j - 1].bytes += x.bytes + h->free.v[j].bytes;
        ext_remove(&h->free, j);
    } else if (merge_prev) {
        h->free.v[j - 1].bytes += x.bytes;
    } else if (merge_next) {
        h->free.v[j].base = x.base;
        h->free.v[j].bytes += x.bytes;
    } else {
        ext_insert(&h->free, j, x);
    }
}

/* Fatal unless [a, a+n) lies inside one live allocation. */
static void check_range(const struct host *h, const char *what, addr_t a, size_t n)
{
    size_t i = ext_lower_bound(&h->live, a + 1);
    if (i > 0) {
        const struct host_extent *x = &h->live.v[i - 1];
        if (a >= x->base && n <= x->bytes && a - x->base <= x->bytes - n)
            return;
    }
    fatal("%s: [0x%llx, 0x%llx) is not inside one device allocation", what, (unsigned long long)a,
          (unsigned long long)(a + n));
}

void host_memcpy_to_dev(struct host *h, addr_t dst, const void *src, size_t n)
{
    if (!n)
        return;
    check_range(h, "host_memcpy_to_dev", dst, n);
    h->l.ops->write(h->l.obj, dst, src, n);
}

void host_memcpy_from_dev(struct host *h, void *dst, addr_t src, size_t n)
{
    if (!n)
        return;
    check_range(h, "host_memcpy_from_dev", src, n);
    h->l.ops->read(h->l.obj, dst, src, n);
}

void host_memset(struct host *h, addr_t dst, uint8_t value, size_t n)
{
    uint8_t chunk[4096];
    if (!n)
        return;
    check_range(h, "host_memset", dst, n);
    memset(chunk, value, sizeof chunk);
    for (size_t done = 0; done < n;) {
        size_t k = MIN(n - done, sizeof chunk);
        h->l.ops->write(h->l.obj, dst + done, chunk, k);
        done += k;
    }
}

/* ---- modules and launches ---- */

static const struct ptx_kernel *find_kernel(const struct host *h, const char *name,
                                            const char **file)
{
    for (size_t i = 0; i < h->n_mods; i++) {
        const struct ptx_kernel *k = ptx_module_kernel(h->mods[i].mod, name);
        if (k) {
            if (file)
                *file = h->mods[i].filename;
            return k;
        }
    }
    return NULL;
}

/* Parse a module and add its kernels. A kernel name that an earlier module
 * already defines is fatal: launches name kernels, so names must be unique. */
void host_load_ptx(struct host *h, const char *text, const char *filename)
{
    char err[512];
    struct ptx_module *m = ptx_module_parse(text, filename, err, sizeof err);
    if (!m)
        fatal("%s", err);
    for (const char *const *n = ptx_module_kernel_names(m); *n; n++) {
        const char *other;
        if (find_kernel(h, *n, &other)) {
            char name[256];
            snprintf(name, sizeof name, "%s", *n); /* *n dies with the module */
            ptx_module_free(m);
            fatal("%s: kernel '%s' is already defined by %s", filename, name, other);
        }
    }
    /* the module's __device__ variables: device memory of their own, with
     * their initialisers (zeros elsewhere, as C's statics) */
    uint32_t gbytes;
    const uint8_t *image = ptx_module_globals(m, &gbytes);
    if (gbytes) {
        addr_t base = host_malloc(h, gbytes);
        host_memcpy_to_dev(h, base, image, gbytes);
        ptx_module_place_globals(m, base);
    }
    h->mods = xrealloc(h->mods, (h->n_mods + 1) * sizeof *h->mods);
    h->mods[h->n_mods].mod = m;
    h->mods[h->n_mods].filename = strdup(filename ? filename : "(ptx)");
    if (!h->mods[h->n_mods].filename)
        panic("out of memory");
    h->n_mods++;
}

/* The variable `symbol` of the loaded modules (fatal if none or two declare
 * it), its module in *in and whether it is __constant__ in *is_const. */
static const struct ptx_var *find_symbol(const struct host *h, const char *symbol,
                                         struct ptx_module **in, bool *is_const)
{
    const struct ptx_var *v = NULL;
    for (size_t i = 0; i < h->n_mods; i++) {
        const struct ptx_var *c = ptx_module_const(h->mods[i].mod, symbol);
        const struct ptx_var *g = ptx_module_global(h->mods[i].mod, symbol);
        if ((c || g) && v)
            fatal("symbol '%s': two loaded modules declare a variable of that name", symbol);
        if (c || g) {
            v = c ? c : g;
            *is_const = c != NULL;
            *in = h->mods[i].mod;
        }
    }
    if (!v)
        fatal("symbol '%s': no __constant__ (.const) or __device__ (.global) variable of that "
              "name in the loaded PTX",
              symbol);
    return v;
}

static void check_symbol_range(const char *symbol, const struct ptx_var *v, size_t offset, size_t n)
{
    if (offset > v->bytes || n > v->bytes - offset)
        fatal("symbol '%s': %zu bytes at offset %zu do not fit in its %u bytes", symbol, n, offset,
              v->bytes);
}

void host_memcpy_to_symbol(struct host *h, const char *symbol, size_t offset, const void *src,
                           size_t n)
{
    struct ptx_module *in = NULL;
    bool is_const = false;
    const struct ptx_var *v = find_symbol(h, symbol, &in, &is_const);
    check_symbol_range(symbol, v, offset, n);
    if (is_const)
        ptx_module_const_write(in, v, (uint32_t)offset, src, (uint32_t)n);
    else /* device memory, through the memory system as every host copy */
        host_memcpy_to_dev(h, ptx_module_globals_base(in) + v->offset + offset, src, n);
}

void host_memcpy_from_symbol(struct host *h, const char *symbol, size_t offset, void *dst, size_t n)
{
    struct ptx_module *in = NULL;
    bool is_const = false;
    const struct ptx_var *v = find_symbol(h, symbol, &in, &is_const);
    check_symbol_range(symbol, v, offset, n);
    if (is_const) /* kernels cannot write the const bank: what the host gave */
        ptx_module_const_read(in, v, (uint32_t)offset, dst, (uint32_t)n);
    else
        host_memcpy_from_dev(h, dst, ptx_module_globals_base(in) + v->offset + offset, n);
}

bool host_global_symbol(struct host *h, const char *symbol, addr_t *addr, size_t *bytes)
{
    for (size_t i = 0; i < h->n_mods; i++) {
        const struct ptx_var *g = ptx_module_global(h->mods[i].mod, symbol);
        if (g) {
            *addr = ptx_module_globals_base(h->mods[i].mod) + g->offset;
            *bytes = g->bytes;
            return true;
        }
    }
    return false;
}

static unsigned karg_bytes(enum karg_kind k)
{
    return k == KARG_U32 || k == KARG_F32 ? 4 : 8;
}

static const char *const karg_names[] = {"u32", "u64", "f32", "f64"};

/* CUDA's limits: grid x < 2^31, y and z <= 65535; block x, y <= 1024, z <= 64. */
static void check_dim(const char *kernel, const char *what, struct dim3 d, uint32_t max_x,
                      uint32_t max_y, uint32_t max_z)
{
    if (!d.x || !d.y || !d.z)
        fatal("kernel %s: %s (%u,%u,%u) has a zero dimension", kernel, what, d.x, d.y, d.z);
    if (d.x > max_x || d.y > max_y || d.z > max_z)
        fatal("kernel %s: %s (%u,%u,%u) is past CUDA's limits (%u,%u,%u)", kernel, what, d.x, d.y,
              d.z, max_x, max_y, max_z);
}

/* Pack `args` into a parameter buffer laid out by the kernel's info and run
 * the kernel. Fatal for an unknown kernel, a wrong argument count or an
 * argument whose size differs from its parameter's. */
void host_launch(struct host *h, const char *kernel, struct dim3 grid, struct dim3 block,
                 uint32_t dyn_shmem_bytes, const struct karg *args, unsigned n_args)
{
    host_launch_on(h, HOST_GPU, false, kernel, grid, block, dyn_shmem_bytes, args, n_args);
}

/* The loaded kernel `kernel`, checked to be launchable with n_args
 * arguments, this grid and block, on `dev` (fatal otherwise). */
static const struct ptx_kernel *checked_kernel(struct host *h, enum host_device dev, bool together,
                                               const char *kernel, struct dim3 grid,
                                               struct dim3 block, unsigned n_args)
{
    const struct ptx_kernel *k = find_kernel(h, kernel, NULL);
    if (!k) {
        char names[512] = "";
        size_t len = 0;
        for (size_t i = 0; i < h->n_mods; i++)
            for (const char *const *n = ptx_module_kernel_names(h->mods[i].mod); *n; n++)
                if (len + strlen(*n) + 3 < sizeof names)
                    len += (size_t)snprintf(names + len, sizeof names - len, "%s%s",
                                            len ? ", " : "", *n);
        fatal("launch: no kernel named '%s' in the loaded PTX (kernels: %s)", kernel,
              len ? names : "none loaded");
    }
    if (ptx_kernel_unsupported(k))
        fatal("kernel %s cannot run: %s", kernel, ptx_kernel_unsupported(k));
    const struct ptx_var *unset = ptx_kernel_unset_const(k);
    if (unset) {
        const char *file = NULL;
        find_kernel(h, kernel, &file);
        fatal("kernel %s reads __constant__ '%s' (%s:%u), which the PTX does not initialise and "
              "the host never set (cudaMemcpyToSymbol: host_memcpy_to_symbol)",
              kernel, unset->name, file, unset->line);
    }
    const struct ptx_kernel_info *ki = ptx_kernel_info(k);
    if (n_args != ki->n_params)
        fatal("kernel %s takes %u parameter%s, %u argument%s given", kernel, ki->n_params,
              ki->n_params == 1 ? "" : "s", n_args, n_args == 1 ? "" : "s");
    check_dim(kernel, "grid", grid, INT32_MAX, 65535, 65535);
    if ((uint64_t)block.x * block.y * block.z > 1024)
        fatal("kernel %s: block (%u,%u,%u) has more than 1024 threads", kernel, block.x, block.y,
              block.z);
    check_dim(kernel, "block", block, 1024, 1024, 64);

    if (dev == HOST_CPU && (uint64_t)block.x * block.y * block.z != 1)
        fatal("kernel %s launched on the CPU: a CPU core runs one thread, so the block must be 1 "
              "thread (got (%u,%u,%u)); the grid counts the threads",
              kernel, block.x, block.y, block.z);
    for (unsigned i = 0; i < h->n_waiting; i++)
        if (h->waiting[i].on_cpu == (dev == HOST_CPU))
            fatal("kernel %s: %s already runs %s in this group of launches (one kernel per "
                  "device at a time)",
                  kernel, dev == HOST_CPU ? "the CPU" : "the GPU",
                  ptx_kernel_info(h->waiting[i].kernel)->name);
    if ((together || h->n_waiting) && !h->l.ops->run_together)
        fatal("kernel %s: launches that run together need the timing machine (the functional "
              "mode runs one kernel at a time)",
              kernel);
    return k;
}

/* Run (or, with `together`, queue) kernel k over its packed parameters;
 * `params` is the caller's until the call returns unless `owned` (a malloc'd
 * buffer that a queued launch keeps and this function frees). */
static void run_launch(struct host *h, enum host_device dev, bool together,
                       const struct ptx_kernel *k, struct dim3 grid, struct dim3 block,
                       uint32_t dyn_shmem_bytes, uint8_t *params, bool owned)
{
    struct launch l = {
        .kernel = k,
        .grid = {grid.x, grid.y, grid.z},
        .block = {block.x, block.y, block.z},
        .dyn_shmem_bytes = dyn_shmem_bytes,
        .params = params,
        .on_cpu = dev == HOST_CPU,
        .printf_log = h->printf_log,
    };
    if (together) {
        h->waiting[h->n_waiting++] = l; /* at most one per device: checked above */
        return;
    }
    if (h->n_waiting) {
        h->waiting[h->n_waiting] = l;
        h->l.ops->run_together(h->l.obj, h->waiting, h->n_waiting + 1);
        for (unsigned i = 0; i < h->n_waiting; i++)
            free((void *)h->waiting[i].params);
        h->n_waiting = 0;
    } else {
        h->l.ops->run_kernel(h->l.obj, &l);
    }
    /* device printf: the calls of the launch(es) just run, formatted from
     * device memory as it stands now, as CUDA prints at synchronisation */
    ptx_printf_log_flush(h->printf_log, h->l.ops->read, h->l.obj, stdout, ptx_kernel_info(k)->name);
    if (owned)
        free(params);
}

void host_set_printf_fifo(struct host *h, uint64_t bytes)
{
    ptx_printf_log_set_limit(h->printf_log, bytes);
}

uint64_t host_printf_fifo(const struct host *h)
{
    return ptx_printf_log_limit(h->printf_log);
}

void host_launch_on(struct host *h, enum host_device dev, bool together, const char *kernel,
                    struct dim3 grid, struct dim3 block, uint32_t dyn_shmem_bytes,
                    const struct karg *args, unsigned n_args)
{
    const struct ptx_kernel *k = checked_kernel(h, dev, together, kernel, grid, block, n_args);
    const struct ptx_kernel_info *ki = ptx_kernel_info(k);
    uint8_t stackbuf[256];
    uint8_t *params = ki->param_bytes <= sizeof stackbuf && !together
                          ? stackbuf
                          : xrealloc(NULL, ki->param_bytes ? ki->param_bytes : 1);
    memset(params, 0, ki->param_bytes ? ki->param_bytes : 1);
    for (unsigned i = 0; i < n_args; i++) {
        unsigned sz = karg_bytes(args[i].kind);
        if (ki->param_size[i] != sz)
            fatal("kernel %s: argument %u is %u bytes (%s) but parameter %u is %u bytes", kernel,
                  i + 1, sz, karg_names[args[i].kind], i + 1, ki->param_size[i]);
        if ((uint64_t)ki->param_offset[i] + sz > ki->param_bytes)
            panic("kernel %s: parameter %u lies outside the %u-byte parameter buffer", kernel,
                  i + 1, ki->param_bytes);
        memcpy(params + ki->param_offset[i], &args[i].v, sz); /* little-endian host */
    }
    run_launch(h, dev, together, k, grid, block, dyn_shmem_bytes, params, params != stackbuf);
}

void host_launch_args(struct host *h, const char *kernel, struct dim3 grid, struct dim3 block,
                      uint32_t dyn_shmem_bytes, void *const *args)
{
    const struct ptx_kernel *k = find_kernel(h, kernel, NULL);
    unsigned n_params = k ? ptx_kernel_info(k)->n_params : 0;
    k = checked_kernel(h, HOST_GPU, false, kernel, grid, block, n_params);
    const struct ptx_kernel_info *ki = ptx_kernel_info(k);
    uint8_t stackbuf[256];
    uint8_t *params =
        ki->param_bytes <= sizeof stackbuf ? stackbuf : xrealloc(NULL, ki->param_bytes);
    memset(params, 0, ki->param_bytes < sizeof stackbuf ? sizeof stackbuf : ki->param_bytes);
    for (unsigned i = 0; i < ki->n_params; i++) {
        if ((uint64_t)ki->param_offset[i] + ki->param_size[i] > ki->param_bytes)
            panic("kernel %s: parameter %u lies outside the %u-byte parameter buffer", kernel,
                  i + 1, ki->param_bytes);
        if (!args || !args[i])
            fatal("kernel %s: no argument %u (of %u)", kernel, i + 1, ki->n_params);
        memcpy(params + ki->param_offset[i], args[i], ki->param_size[i]);
    }
    run_launch(h, HOST_GPU, false, k, grid, block, dyn_shmem_bytes, params, params != stackbuf);
}

unsigned host_cpu_cores(const struct host *h)
{
    return h->l.cpu_cores;
}

uint64_t host_cycles(const struct host *h)
{
    return h->l.ops->cycles(h->l.obj);
}
