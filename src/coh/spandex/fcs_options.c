/*
 * fcs_options.c - the option rows and cross-checks of section [fcs] (Spandex's request types:
 * spandex-d).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "coh/spandex/fcs_options.h"

#include <stdio.h>
#include <string.h>

#include "coh/machine_view.h"

/* Spandex request types (spec 003 §2.6; src/coh/spandex/denovo_l1.c). */
const char *const fcs_load_names[] = {"v", "vo", "odata", "s", NULL};
const char *const fcs_store_names[] = {"o", "wt", "wtfwd", "wto", NULL};
const char *const fcs_rmw_names[] = {"odata", "wtdata", "wtfwd_data", "wto_data", NULL};
#define T struct fcs_spec
static const struct cfg_opt fcs_opts[] = {
    CFG_ENUM("load", T, load, "v", fcs_load_names,
             "spandex-d: loads send ReqV (DeNovo), ReqVo (to the predicted owner), ReqO+data "
             "(own the words read) or ReqS (a registered sharer: writer-invalidated, kept at "
             "acquires)"),
    CFG_ENUM("store", T, store, "o", fcs_store_names,
             "spandex-d: stores to words not owned send ReqO (DeNovo), ReqWT, ReqWTfwd (the LLC "
             "forwards it to the owner) or ReqWTo (to the predicted owner)"),
    CFG_ENUM("rmw", T, rmw, "odata", fcs_rmw_names,
             "spandex-d: atomics on words not owned send ReqO+data (DeNovo), ReqWT+data, "
             "ReqWTfwd+data or ReqWTo+data"),
    CFG_BOOL("random", T, random, "false",
             "spandex-d: every access draws its request type from the full set (stress)"),
    CFG_U32("mispredict", T, mispredict, "0", 0, 100, "percent",
            "spandex-d: owner predictions sent to a wrong L1 on purpose (Nack and retry)"),
    CFG_STR("table", T, table, "",
            "spandex-d: file of request types per static PTX instruction (FCS; lines 'LINE TYPE' "
            "or 'LABEL TYPE', docs/protocols/spandex.md); instructions it names override "
            "load/store/rmw; %m in the path stands for the PTX file's name (prodcons)"),
    CFG_BOOL("fwd", T, fwd, "true",
             "spandex-d: the hardware forwards write-throughs; false: ReqWTfwd is sent as ReqWT, "
             "ReqWTfwd+data as ReqWT+data, ReqWTo as ReqWT (spec 003 §2.10)"),
    CFG_BOOL("pred", T, pred, "true",
             "spandex-d: the hardware predicts owners; false: ReqVo is sent as ReqV, ReqWTo(+data) "
             "as ReqWTfwd(+data) (spec 003 §2.10)"),
    CFG_BOOL("wb_clean", T, wb_clean, "true",
             "spandex-d and spandex-g: a DeNovo L1's write-back (eviction, kernel end) carries "
             "every owned word's data; false: only the words written here or handed over by "
             "another L1 (the others equal the LLC's copy), the rest release ownership with no "
             "data (docs/protocols/spandex.md)"),
    CFG_BOOL("strong_shared", T, strong_shared, "false",
             "spandex-d and spandex-g: a strong (.gpu/.sys, not weak) load typed ReqS that "
             "misses reads the line as a registered sharer (ReqS), so later polls hit until a "
             "write invalidates it; false: it reads the LLC with ReqV and installs nothing, "
             "whatever its type"),
    CFG_BOOL("l1_to_l1", T, l1_to_l1, "false",
             "spandex-d and spandex-g: owners answer requesters, and predicted requests reach "
             "their owners, over the network from L1 to L1 (the paper's 3-hop forwards, spec "
             "003 §2.5-2.6), and a line's one owner answers its readers (ReqV); false: through "
             "the home bank, which relays an old owner's words (after its access pipeline), "
             "passes predicted requests and owners' answers on and gathers owned words for a "
             "read (docs/protocols/spandex.md)"),
    CFG_END,
};
#undef T

/* Request types per access (spec 003 §2.6, §2.9): only the Spandex DeNovo L1
 * sends them; elsewhere they would be ignored without a word. */
static const char *fcs_check(const struct machine_view *c, char *why, size_t len)
{
    const struct fcs_spec *f = fcs_spec_of(c);
    const char *keys = f->table[0]     ? "fcs.table coherence.protocol"
                       : f->random     ? "fcs.random coherence.protocol"
                       : f->load       ? "fcs.load coherence.protocol"
                       : f->store      ? "fcs.store coherence.protocol"
                       : f->rmw        ? "fcs.rmw coherence.protocol"
                       : f->mispredict ? "fcs.mispredict coherence.protocol"
                                       : NULL;
    if (!keys || !strcmp(c->coherence.protocol, "spandex-d"))
        return NULL;
    snprintf(why, len,
             "%.*s: Spandex request types are sent by the DeNovo L1 of protocol "
             "spandex-d only, not by coherence.protocol = %s",
             (int)strcspn(keys, " "), keys, c->coherence.protocol);
    return keys;
}

const struct coh_options fcs_options = {"fcs", fcs_opts, fcs_check, sizeof(struct fcs_spec)};
