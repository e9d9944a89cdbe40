/*
 * cuda_host.c - gpucoh's host API (src/host/host.h) on the CUDA runtime, and
 * the main of every validation host program.
 *
 * With it a gpucoh workload driver runs unchanged as an ordinary CUDA
 * program: on a GPU, or on GPGPU-Sim (which replaces libcudart.so), with the
 * inputs, launches and result check gpucoh runs. Device addresses are the
 * runtime's pointers; a launch looks its kernel up by name in the program's
 * vh_kernels table and waits for it (gpucoh runs one kernel at a time).
 * Usage: PROGRAM [--size tiny|quick|small|paper] [--seed N]; exit 0 when the
 * result matches the CPU reference, 1 when not, 2 on a usage or CUDA error.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "cuda_host.h"
#include "host/workload.h"

struct host {
    int unused;
};

addr_t host_malloc(struct host *h, size_t bytes)
{
    (void)h;
    return vh_malloc(bytes);
}

void host_free(struct host *h, addr_t a)
{
    (void)h;
    vh_free(a);
}

void host_memcpy_to_dev(struct host *h, addr_t dst, const void *src, size_t n)
{
    (void)h;
    vh_copy_to_dev(dst, src, n);
}

void host_memcpy_from_dev(struct host *h, void *dst, addr_t src, size_t n)
{
    (void)h;
    vh_copy_from_dev(dst, src, n);
}

void host_memset(struct host *h, addr_t dst, uint8_t value, size_t n)
{
    (void)h;
    vh_memset(dst, value, n);
}

/* The runtime registered the binary's PTX at start-up. */
void host_load_ptx(struct host *h, const char *text, const char *filename)
{
    (void)h, (void)text, (void)filename;
}

void host_memcpy_to_symbol(struct host *h, const char *symbol, size_t offset, const void *src,
                           size_t n)
{
    (void)h, (void)offset, (void)src, (void)n;
    fatal("cuda_host: host_memcpy_to_symbol(%s) is not implemented for validation hosts", symbol);
}

void host_launch(struct host *h, const char *kernel, struct dim3 grid, struct dim3 block,
                 uint32_t dyn_shmem_bytes, const struct karg *args, unsigned n_args)
{
    host_launch_on(h, HOST_GPU, false, kernel, grid, block, dyn_shmem_bytes, args, n_args);
}

void host_launch_on(struct host *h, enum host_device dev, bool together, const char *kernel,
                    struct dim3 grid, struct dim3 block, uint32_t dyn_shmem_bytes,
                    const struct karg *args, unsigned n_args)
{
    (void)h;
    if (dev != HOST_GPU || together)
        fatal("cuda_host: %s: launches on CPU cores or in groups need gpucoh", kernel);
    const struct vh_kernel *k = vh_kernels;
    while (k->name && strcmp(k->name, kernel) != 0)
        k++;
    if (!k->name)
        fatal("cuda_host: kernel %s is not in this program's vh_kernels", kernel);
    void *argv[64];
    if (n_args > ARRAY_LEN(argv))
        fatal("cuda_host: %s: %u arguments (at most %zu)", kernel, n_args, ARRAY_LEN(argv));
    for (unsigned i = 0; i < n_args; i++)
        argv[i] = (void *)&args[i].v; /* every member starts at the union's address */
    unsigned g[3] = {grid.x, grid.y, grid.z}, b[3] = {block.x, block.y, block.z};
    vh_launch(kernel, k->func, g, b, dyn_shmem_bytes, argv);
}

unsigned host_cpu_cores(const struct host *h)
{
    (void)h;
    return 0;
}

/* Not measured here: the GPU (or GPGPU-Sim) reports its own cycles. */
uint64_t host_cycles(const struct host *h)
{
    (void)h;
    return 0;
}

int main(int argc, char **argv)
{
    struct wl_params p = {.size = WL_TINY, .seed = 1}; /* gpucoh run's defaults */
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--size") && i + 1 < argc) {
            int s = wl_size_find(argv[++i]);
            if (s < 0) {
                fprintf(stderr, "%s: --size takes " WL_SIZE_CHOICES "\n", argv[0]);
                return 2;
            }
            p.size = (enum wl_size)s;
        } else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
            p.seed = strtoull(argv[++i], NULL, 0);
        } else {
            fprintf(stderr, "usage: %s [--size " WL_SIZE_USAGE "] [--seed N]\n", argv[0]);
            return 2;
        }
    }
    const struct workload *w = wl_registry[0];
    struct host h = {0};
    char why[512] = "";
    int rc = w->run(&h, &p, why, sizeof why);
    printf("%s: %s (size %s, seed %llu)%s%s\n", w->name, rc ? "WRONG" : "ok", wl_size_names[p.size],
           (unsigned long long)p.seed, rc ? ": " : "", why);
    return rc ? 1 : 0;
}
