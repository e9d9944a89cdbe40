/*
 * stc_options.c - the option rows and cross-checks of section [stc] (spatiotemporal coherence:
 * stc-nv, stc-es, stc-ab, stc-mb).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "coh/stc/stc_options.h"

#include <stdio.h>

#include "base/bits.h"
#include "coh/machine_view.h"

/* Spatiotemporal coherence (spec 000 §2-3, Table 3). */
static const char *const stc_forms[] = {"safe", "paper", NULL};
#define T struct stc_spec
static const struct cfg_opt stc_opts[] = {
    CFG_U32("epochs", T, epochs, "16", 2, 32, "",
            "stc: epochs = address bands (a power of two; Table 3: 16)"),
    CFG_U32("seb", T, seb, "12", 6, 40, "bit",
            "stc: start epoch bit: a line's band is address bits [seb, seb + log2(epochs))"),
    CFG_U32("seb_min", T, seb_min, "12", 6, 40, "bit", "stc-ab, stc-mb: lowest SEB"),
    CFG_U32("seb_max", T, seb_max, "32", 6, 40, "bit",
            "stc-ab, stc-mb: highest SEB (the safe rule also keeps seb + log2(epochs) <= "
            "addr_bits)"),
    CFG_U32("addr_bits", T, addr_bits, "32", 16, 48, "bits",
            "stc: physical address width the band field must stay inside (safe AB rule)"),
    CFG_U32("period_cycles", T, period_cycles, "100", 1, 1u << 20, "core cycles",
            "stc: EMU wake-up period (an epoch lasts at least this long)"),
    CFG_F64("emu_mhz", T, emu_mhz, "2000", 1, 100000, "MHz", "stc: EMU clock"),
    CFG_U32("emu_msg_cycles", T, emu_msg_cycles, "2", 1, 1000, "EMU cycles",
            "stc: the EMU takes one message in and sends one out every this many cycles (a "
            "transition's cost grows with the CU count)"),
    CFG_U32("link_cycles", T, link_cycles, "5", 0, 100000, "core cycles",
            "stc: latency of one message between the EMU and a CU"),
    CFG_U32("bsq_entries", T, bsq_entries, "256", 1, 65536, "",
            "stc: blocked store queue entries per CU (stores and atomics waiting for their "
            "band's epoch; full = the CU's memory pipeline stalls)"),
    CFG_U32("bsq_banks", T, bsq_banks, "16", 1, 1024, "", "stc: BSQ banks (line-interleaved)"),
    CFG_U32("bsq_drains", T, bsq_drains, "2", 1, 1024, "",
            "stc: entries each BSQ bank issues a cycle in their epoch"),
    CFG_U32("mb_width", T, mb_width, "4", 1, 32, "", "stc-mb: most bands granted at once"),
    CFG_ENUM("epoch_start", T, epoch_start, "safe", stc_forms,
             "stc: safe = stores to the new band wait for an EpochStart the EMU sends after "
             "every CU's DoneAck (spec 000 §7.2a); paper = they issue at ChangeEpoch"),
    CFG_ENUM("straddle", T, straddle, "safe", stc_forms,
             "stc: safe = ChangeEpoch turns outstanding fills of a newly current band into "
             "uncached loads (spec 000 §7.2b); paper = only the band at arrival decides"),
    CFG_ENUM("ab_rule", T, ab_rule, "safe", stc_forms,
             "stc-ab, stc-mb: safe = conflicts within one line are ignored, SEB moves by the "
             "highest differing bit and stays below addr_bits (spec 000 §7.2c); paper = the "
             "literal lower-bits rule"),
    CFG_END,
};
#undef T

static const char *stc_check(const struct machine_view *c, char *why, size_t len)
{
    const struct stc_spec *s = stc_spec_of(c);
    if (!is_pow2(s->epochs)) {
        snprintf(why, len, "stc.epochs (%u) must be a power of two", s->epochs);
        return "stc.epochs";
    }
    if (s->seb_min > s->seb || s->seb > s->seb_max) {
        snprintf(why, len, "stc.seb (%u) must lie in [stc.seb_min, stc.seb_max] = [%u, %u]", s->seb,
                 s->seb_min, s->seb_max);
        return "stc.seb stc.seb_min stc.seb_max";
    }
    if ((1ull << s->seb) < c->l1.cache.line_bytes) {
        snprintf(why, len, "stc.seb (%u) must not split a line (l1.line = %u)", s->seb,
                 c->l1.cache.line_bytes);
        return "stc.seb l1.line";
    }
    return NULL;
}

const struct coh_options stc_options = {"stc", stc_opts, stc_check, sizeof(struct stc_spec)};
