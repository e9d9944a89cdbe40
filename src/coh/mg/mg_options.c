/*
 * mg_options.c - the option rows and cross-checks of section [mg] (the multi-GPM coherence
 * directories: nhcc, hmg).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "coh/mg/mg_options.h"

#include <stdio.h>

#include "base/bits.h"
#include "coh/machine_view.h"

static const char *const mg_releases[] = {"levels", "thesis", "counted", NULL};
static const char *const mg_gpu_atomics[] = {"system", "gpu-home", NULL};
#define T struct mg_spec
static const struct cfg_opt mg_opts[] = {
    CFG_U32("dir_entries", T, dir_entries, "12K", 1, 1u << 24, "",
            "nhcc/hmg: directory entries per GPM (spread over its banks)"),
    CFG_U32("dir_ways", T, dir_ways, "8", 1, 1024, "", "nhcc/hmg: directory associativity"),
    CFG_U32("dir_lines", T, dir_lines, "4", 1, 64, "",
            "nhcc/hmg: consecutive lines one entry tracks (a power of two)"),
    CFG_ENUM("release", T, release, "counted", mg_releases,
             "multi-GPM release completion (docs/multi-gpu.md): counted = one round to every "
             "L2 in scope, each answering once the invalidations (and, at a GPU home, the "
             "forwarded writes) it sent before are acknowledged (spec §2.7 option 3, safe); "
             "levels = markers in as many levels as a write and its invalidation take hops "
             "(option 1, safe, slower); thesis = one round answered at once (§5.5's text; "
             "unsafe: an invalidation may arrive after it)"),
    CFG_ENUM("gpu_atomics", T, gpu_atomics, "system", mg_gpu_atomics,
             "hmg, sw-h: where .gpu atomics (and the .cta ones an L1 sends on) are performed "
             "(docs/multi-gpu.md): system = at "
             "the system home, like .sys ones (atomic across GPUs, as a kernel written for one "
             "GPU and spanning several needs); gpu-home = at the GPU home (spec 004b §2.4; "
             ".gpu atomics of different GPUs are then not atomic with each other)"),
    CFG_END,
};
#undef T

static const char *mg_check(const struct machine_view *c, char *why, size_t len)
{
    const struct mg_spec *m = mg_spec_of(c);
    if (!is_pow2(m->dir_lines) || m->dir_entries % (m->dir_ways * c->l2.banks)) {
        snprintf(why, len,
                 "mg.dir_lines (%u) must be a power of two and mg.dir_entries (%u) a "
                 "multiple of mg.dir_ways x l2.banks (%u x %u)",
                 m->dir_lines, m->dir_entries, m->dir_ways, c->l2.banks);
        return "mg.dir_lines mg.dir_entries mg.dir_ways l2.banks";
    }
    return NULL;
}

const struct coh_options mg_options = {"mg", mg_opts, mg_check, sizeof(struct mg_spec)};
