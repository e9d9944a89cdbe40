/*
 * memsys.c - speed of the memory system alone under `rc`: requests per
 * second through L1 -> crossbar -> L2 -> DRAM and back, with the SMs
 * replaced by the directed-test driver and the invariant observers off (as
 * in a plain `gpucoh run`).
 *
 * Every SM issues a stream of loads (3 in 4) and stores over a working set
 * several times the L2 (so DRAM is busy) with some reuse (so L1 and L2 hits
 * happen too). Prints requests/s, events/s and simulated cycles/s.
 * Usage: bench-memsys [N [KEY=V...]]. Target (issue): >= 5 M memory
 * requests/s on one core.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>

#include "base/clock.h"
#include "base/rng.h"
#include "check/inject.h"

int main(int argc, char **argv)
{
    unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 400000;
    /* further arguments are settings (KEY=V), e.g. coherence.sleep=false */
    const char *sets[16] = {"coherence.protocol=rc"};
    unsigned n_sets = 1;
    for (int i = 2; i < argc && n_sets < 16; i++)
        sets[n_sets++] = argv[i];
    struct config cfg;
    char err[256];
    if (config_load(&cfg, config_default_file(), sets, n_sets, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    struct inject *r = inject_new_checked(&cfg, false); /* the memory system, no observers */
    struct rng g;
    rng_seed(&g, 1, 0);
    addr_t ws = 16u << 20; /* 16 MB: 16x the L2 */
    for (unsigned i = 0; i < n; i++) {
        unsigned sm = i % cfg.gpu.sms;
        addr_t a = rng_chance(&g, 1, 2) ? (rng_below(&g, ws) & ~3ull)
                                        : ((addr_t)sm << 16) + (rng_below(&g, 8192) & ~3ull);
        uint64_t at = i / cfg.gpu.sms;
        if (rng_chance(&g, 3, 4))
            inject_load(r, sm, i % 48, 0x10000000 + a, 4, SEM_WEAK, SCOPE_CTA, at);
        else
            inject_store(r, sm, i % 48, 0x10000000 + a, 4, i, SEM_WEAK, SCOPE_CTA, at);
    }
    struct eng *e = machine_eng(inject_machine(r));
    uint64_t ev0 = e->n_events;
    double t0 = wall_seconds_since(0);
    inject_run(r);
    double dt = wall_seconds_since(t0);
    struct machine_summary s;
    machine_summary(inject_machine(r), &s);
    s.cycles = e->now / clock_period_ps(cfg.gpu.core_mhz); /* no kernels: the driver's run */
    printf("memsys (rc, tc-fermi): %u requests in %.3f s = %.2f M requests/s; "
           "%.2f M events/s; %llu core cycles simulated = %.2f M cycles/s; "
           "L1 load hits %.1f%%, L2 hits %.1f%%\n",
           n, dt, n / dt / 1e6, (e->n_events - ev0) / dt / 1e6, (unsigned long long)s.cycles,
           s.cycles / dt / 1e6, s.l1_accesses ? 100.0 * s.l1_hits / s.l1_accesses : 0,
           s.l2_accesses ? 100.0 * s.l2_hits / s.l2_accesses : 0);
    inject_free(r);
    return 0;
}
