/*
 * kernels.c - simulator speed on real kernels: a compute-bound and a
 * memory-bound kernel (bench/kernels/speed.cu), in timing mode on tc-fermi
 * under rc and in the functional mode. Prints thread instructions per second
 * and simulated core cycles per second for each.
 * Targets (issue): functional >= 200 M thread insts/s; timing >= 20 M thread
 * insts/s and >= 300 K core cycles/s.
 * Use: bench-kernels [functional|timing [compute|stream]] runs only the runs
 * named (for profiling one of them; a run alone starts from a fresh machine,
 * so its cycle count may differ from the one in the full sequence).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/log.h"
#include "gpu/functional.h"
#include "host/host.h"
#include "system/machine.h"

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fatal("%s: cannot open", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (!s || fread(s, 1, (size_t)n, f) != (size_t)n)
        fatal("%s: cannot read", path);
    s[n] = 0;
    fclose(f);
    return s;
}

static const char *want_mode, *want_kernel; /* NULL: every one */

static bool wanted(const char *mode, const char *kernel)
{
    return (!want_mode || !strncmp(mode, want_mode, strlen(want_mode))) &&
           (!kernel || !want_kernel || !strcmp(kernel, want_kernel));
}

static void run_one(const char *mode, const char *kernel, struct host *h, uint64_t (*insts)(void *),
                    void *obj)
{
    if (!wanted(mode, kernel))
        return;
    int n = 16 * 1536 * 2; /* two waves of full SMs */
    addr_t a = host_malloc(h, (size_t)n * 4), b = host_malloc(h, (size_t)n * 4),
           c = host_malloc(h, (size_t)n * 4);
    uint64_t i0 = insts(obj), c0 = host_cycles(h);
    double t0 = wall_seconds_since(0);
    if (!strcmp(kernel, "compute")) {
        struct karg args[] = {KARG_PTR(a), KARG_I32(200)};
        host_launch(h, "compute", DIM1((uint32_t)n / 256), DIM1(256), 0, args, 2);
    } else {
        struct karg args[] = {KARG_PTR(a), KARG_PTR(b), KARG_PTR(c), KARG_F32(3.0f), KARG_I32(n)};
        host_launch(h, "stream", DIM1(120), DIM1(256), 0, args, 5);
    }
    double dt = wall_seconds_since(t0);
    uint64_t ti = insts(obj) - i0, cy = host_cycles(h) - c0;
    printf("%-10s %-8s %12llu thread insts in %6.3f s = %8.2f M thread insts/s", mode, kernel,
           (unsigned long long)ti, dt, ti / dt / 1e6);
    if (cy)
        printf(", %10llu cycles = %8.1f K cycles/s", (unsigned long long)cy, cy / dt / 1e3);
    putchar('\n');
}

static uint64_t functional_insts(void *obj)
{
    return functional_stats(obj)->thread_insts;
}

static uint64_t timing_insts(void *obj)
{
    struct machine_summary s;
    machine_summary(obj, &s);
    return s.thread_insts;
}

int main(int argc, char **argv)
{
    want_mode = argc > 1 ? argv[1] : NULL;
    want_kernel = argc > 2 ? argv[2] : NULL;
    char path[4096];
    snprintf(path, sizeof path, "%s/bench/kernels/speed.ptx", GPUCOH_SOURCE_DIR);
    char *ptx = slurp(path);

    if (!wanted("functional", NULL))
        goto timing;
    struct backing store;
    backing_init(&store);
    struct functional *f = functional_new(&store, NULL);
    struct host *h = host_new(functional_launcher(f));
    host_load_ptx(h, ptx, path);
    run_one("functional", "compute", h, functional_insts, f);
    run_one("functional", "stream", h, functional_insts, f);
    host_delete(h);
    functional_delete(f);
    backing_destroy(&store);

timing:
    if (!wanted("timing", NULL)) {
        free(ptx);
        return 0;
    }
    struct config cfg;
    char err[512];
    const char *sets[] = {"coherence.protocol=rc"};
    if (config_load(&cfg, config_default_file(), sets, 1, err, sizeof err))
        fatal("%s", err);
    struct machine *m = machine_new(&cfg);
    h = host_new(machine_launcher(m));
    host_load_ptx(h, ptx, path);
    run_one("timing/rc", "compute", h, timing_insts, m);
    run_one("timing/rc", "stream", h, timing_insts, m);
    host_delete(h);
    machine_free(m);
    free(ptx);
    return 0;
}
