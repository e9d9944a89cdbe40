/*
 * proto.c - the protocol registry.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "coh/proto.h"

#include <stdio.h>
#include <string.h>

#include "base/log.h"
#include "coh/machine_view.h"
#include "coh/sharers.h"

#define PROTOCOL(desc) extern const struct proto_desc desc;
#include "coh/registry.def"
#undef PROTOCOL

const char *const mem_model_names[MODEL_N] = {"ptx", "sc"};

const struct proto_desc *const proto_registry[] = {
#define PROTOCOL(desc) &desc,
#include "coh/registry.def"
#undef PROTOCOL
    NULL,
};

const struct proto_desc *proto_find(const char *name)
{
    for (const struct proto_desc *const *p = proto_registry; *p; p++)
        if (!strcmp((*p)->name, name))
            return *p;
    return NULL;
}

unsigned proto_sections(const struct coh_options **out)
{
    unsigned n = 0;
    for (const struct proto_desc *const *p = proto_registry; *p; p++) {
        const struct coh_options *o = (*p)->options;
        bool seen = !o;
        for (unsigned i = 0; i < n && !seen; i++)
            seen = out[i] == o;
        if (seen)
            continue;
        panic_if(n == COH_SECTIONS_MAX, "more than %d protocol sections", COH_SECTIONS_MAX);
        out[n++] = o;
    }
    return n;
}

const char *coh_sharers_check(const struct machine_view *c, char *why, size_t len)
{
    if (c->gpu.sms <= COH_MAX_SHARERS)
        return NULL;
    snprintf(why, len, "gpu.sms = %u, but a sharer vector names at most %u SMs", c->gpu.sms,
             COH_MAX_SHARERS);
    return "gpu.sms";
}
