/*
 * 640-mg-rig.h - what the directed tests of the multi-GPM bank (tests
 * 640-649) share: their machine (mg_rig; mg_machine for another) and a load
 * that waits for its value.
 *
 * Machine: 2 GPUs x 2 GPMs, 2 SMs and one L2 bank per GPM (SM 2g and 2g+1
 * on GPM g; GPM 0, 1 on GPU 0, GPM 2, 3 on GPU 1), 4 KB pages placed by
 * first touch.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TESTS_MG_RIG_H
#define TESTS_MG_RIG_H

#include <stdio.h>

#include "check/inject.h"

/* A multi-GPM machine of the settings (K=V) `sets`. */
static inline struct inject *mg_machine(const char *const *sets, unsigned n_sets)
{
    struct config cfg;
    char err[256];
    if (config_load(&cfg, NULL, sets, n_sets, err, sizeof err))
        fail_msg("%s", err);
    return inject_new(&cfg);
}

/* The machine above under `protocol` with mg.release = `release`; `extra` is
 * one more setting (K=V) or NULL. */
static inline struct inject *mg_rig(const char *protocol, const char *release, const char *extra)
{
    char proto[64], rel[64];
    snprintf(proto, sizeof proto, "coherence.protocol=%s", protocol);
    snprintf(rel, sizeof rel, "mg.release=%s", release);
    const char *sets[] = {proto,       rel,          "topology.gpus=2",        "topology.gpms=2",
                          "gpu.sms=2", "l2.banks=1", "topology.page_bytes=4K", extra};
    return mg_machine(sets, ARRAY_LEN(sets) - (extra == NULL));
}

/* The value SM `sm`'s load of `a` returns, once it has. */
static inline uint64_t load(struct inject *r, unsigned sm, addr_t a, enum mem_sem sem,
                            enum mem_scope scope)
{
    unsigned id = inject_load(r, sm, 0, a, 4, sem, scope, 0);
    inject_run_until(r, id);
    return inject_value(r, id);
}

#endif
