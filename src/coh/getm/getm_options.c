/*
 * getm_options.c - the option rows and cross-checks of section [getm] (GETM, the transactional
 * memory of protocol getm).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "coh/getm/getm_options.h"

#include <stdio.h>

#include "base/bits.h"
#include "coh/getm/getm_bank.h"
#include "coh/proto.h"
#include "coh/machine_view.h"

/* GETM (spec 004a §4, Table 4.2; docs/transactions.md). */
#define T struct getm_spec
static const struct cfg_opt getm_opts[] = {
    CFG_U32("tx_warps", T, tx_warps, "0", 0, 64, "warps",
            "getm: warps of one SM inside a transaction at once; a warp at gpucoh_tx_begin "
            "waits for room (0: no limit; the thesis sweeps 1, 2, 4, 8, 16)"),
    CFG_U32("backoff_cycles", T, backoff_cycles, "32", 0, 1u << 16, "core cycles",
            "getm: a warp whose attempt had aborts waits a random number of cycles below "
            "backoff_cycles x 2^k before it retries (k: such attempts in a row, at most 6; "
            "spec 004a §9 item 26: without it, read-modify-writes of one word livelock; 0: off)"),
    CFG_U32("precise_sets", T, precise_sets, "128", 1, 1u << 20, "",
            "getm: sets of each of the 4 cuckoo ways of a bank's precise metadata table (a "
            "power of two; 6 banks x 4 x 128 is about Table 4.2's 4K entries)"),
    CFG_U32("granule", T, granule, "32", 1, 4096, "bytes",
            "getm, warptm: bytes of one metadata granule, the unit conflicts are tracked in "
            "(Table 4.2: 32; Fig. 4.14 sweeps 16 to 128): a power of two dividing the L2 line, "
            "at most 4 granules a line (the 16-bit release counts of a commit message)"),
    CFG_U32("stash", T, stash, "4", 0, 1024, "", "getm: stash entries of a bank's precise table"),
    CFG_U32("bloom_sets", T, bloom_sets, "32", 1, 1u << 20, "",
            "getm: sets of each of the 4 ways of a bank's recency Bloom filter (a power of two)"),
    CFG_U32("stall_lines", T, stall_lines, "4", 1, 1024, "",
            "getm: stall buffer lines per bank (requests waiting for an owner's commit)"),
    CFG_U32("stall_entries", T, stall_entries, "4", 1, 1024, "",
            "getm: waiting requests per stall buffer line"),
    CFG_BOOL("unique_ts", T, unique_ts, "true",
             "getm: timestamps carry the warp id (spec 004a §9 item 17; false: the thesis's "
             "printed rules, under which write skew commits)"),
    CFG_BOOL("owner_seq", T, owner_seq, "true",
             "getm: owners are tagged with the warp's transaction sequence (item 19)"),
    CFG_BOOL("wake_all", T, wake_all, "true",
             "getm: a release re-enters every stall-buffer waiter, oldest first (item 23; "
             "false: only the oldest)"),
    CFG_BOOL("commit_waits", T, commit_waits, "true",
             "getm: a warp retrying aborted lanes first waits for the acknowledgements of the "
             "attempt's commit and cleanup messages (false: the thesis's warp sends its write "
             "log and moves on, the validation unit making the retry wait behind the release; "
             "slower here, repro/getm/README.md; instructions after the transaction always "
             "wait; owner_seq = false implies true)"),
    CFG_BOOL("evict_oldest", T, evict_oldest, "true",
             "getm: a granule entering a full precise table evicts, of the 4 slots it may "
             "take, the one with no reservation and the oldest timestamps to the Bloom filter "
             "(the thesis does not say which; false: the entry the cuckoo walk displaces "
             "first, which may be one a transaction in flight just read)"),
    CFG_U32("vu_mhz", T, vu_mhz, "1400", 1, 100000, "MHz",
            "getm, warptm: the validation unit's clock (Table 4.2: 1400 MHz); used with vu_port"),
    CFG_U32("vu_port", T, vu_port, "0", 0, 64, "granules/VU cycle",
            "getm, warptm: granules a bank's validation unit takes per VU cycle (Table 4.2: 1 "
            "request a cycle); a transactional request that finds the port busy waits at the "
            "bank's input, and requests behind it with it (0: every request is decided in the "
            "bank's cycle)"),
    CFG_U32("cu_mhz", T, cu_mhz, "700", 1, 100000, "MHz",
            "getm, warptm: the commit unit's clock (Table 4.2: 700 MHz)"),
    CFG_U32("cu_bytes", T, cu_bytes, "32", 0, 1024, "bytes/CU cycle",
            "getm, warptm: bytes a bank's commit unit writes per cycle of its clock (Table 4.2: "
            "32); a commit that writes r aligned regions of this width takes r cycles, a "
            "cleanup one, in arrival order (0: commits are written when the bank takes them; "
            "else a power of two from 4 to the line size)"),
    CFG_U32("cu_buffer", T, cu_buffer, "16384", 128, 1u << 24, "bytes",
            "getm, warptm: a bank's commit-unit buffer (Table 4.5: 16 KB); an entry holds its "
            "regions (a cleanup one) until written, and a commit that finds no room waits at "
            "the bank's input"),
    CFG_U32("ts_bits", T, ts_bits, "32", 4, 64, "bits",
            "getm: width of a logical timestamp, warp id included (spec 004a §9 item 30: 32); "
            "a warp whose next timestamp would not fit asks for a rollover: transactions stop "
            "beginning, those running finish, every validation unit clears its timestamps "
            "and every warp restarts from its first (docs/transactions.md)"),
    CFG_U32("progress_aborts", T, progress_aborts, "256", 1, 1u << 16, "attempts",
            "getm, warptm: forward progress: a warp whose attempts had no lane commit this "
            "many times in a row takes the GPU's serial token: no other attempt starts, and "
            "once those in flight are done it runs alone (a WarpTM validation alone takes "
            "no hold) until every lane has committed (docs/transactions.md)"),
    CFG_U32("trace_warp", T, trace_warp, "0", 0, 1u << 24, "",
            "getm, warptm: 1 + the warp slot, numbered GPU-wide (SM x sm.warps + slot), whose "
            "transactional events (begin, each request sent and its verdict, the attempt's end "
            "with its backoff, commit acks) are printed on stderr as 'tx-trace' lines with "
            "their core cycle (0: none; docs/transactions.md)"),
    CFG_END,
};
#undef T

static const char *getm_check(const struct machine_view *c, char *why, size_t len)
{
    const struct getm_spec *g = getm_spec_of(c);
    if (!is_pow2(g->precise_sets) || !is_pow2(g->bloom_sets)) {
        snprintf(why, len, "getm.precise_sets (%u) and getm.bloom_sets (%u) must be powers of two",
                 g->precise_sets, g->bloom_sets);
        return "getm.precise_sets getm.bloom_sets";
    }
    uint32_t line = c->l2.cache.line_bytes;
    const struct proto_desc *pd = proto_find(c->coherence.protocol);
    bool transactional = pd && pd->transactional; /* other protocols have no granules */
    if (transactional &&
        (!is_pow2(g->granule) || g->granule > line || line / g->granule > GETM_MAX_GRANULES)) {
        snprintf(why, len,
                 "getm.granule (%u) must be a power of two dividing the %u-byte line "
                 "into at most %u granules (%u to %u bytes)",
                 g->granule, line, GETM_MAX_GRANULES,
                 line / GETM_MAX_GRANULES > 0 ? line / GETM_MAX_GRANULES : 1, line);
        return "getm.granule l2.line";
    }
    if (g->cu_bytes &&
        (g->cu_bytes < 4 || !is_pow2(g->cu_bytes) || g->cu_bytes > line || g->cu_buffer < line)) {
        snprintf(why, len,
                 "getm.cu_bytes (%u) must be 0 or a power of two from 4 to the line "
                 "(%u bytes), and getm.cu_buffer (%u) must hold a line",
                 g->cu_bytes, line, g->cu_buffer);
        return "getm.cu_bytes getm.cu_buffer";
    }
    unsigned warp_bits = 1; /* as getm_params_of_config counts them */
    while ((1ull << warp_bits) < (uint64_t)c->gpu.sms * c->sm.warps)
        warp_bits++;
    if (g->ts_bits < warp_bits + 2) {
        snprintf(why, len,
                 "getm.ts_bits (%u) must exceed the warp id's %u bits by at least 2 "
                 "(%u SMs x %u warps)",
                 g->ts_bits, warp_bits, c->gpu.sms, c->sm.warps);
        return "getm.ts_bits gpu.sms sm.warps";
    }
    uint64_t all_warps = (uint64_t)c->topology.gpus * c->topology.gpms * c->gpu.sms * c->sm.warps;
    if (g->trace_warp > all_warps) {
        snprintf(why, len,
                 "getm.trace_warp (%u) names no warp slot: the machine has %llu (1 to "
                 "%llu, or 0: none)",
                 g->trace_warp, (unsigned long long)all_warps, (unsigned long long)all_warps);
        return "getm.trace_warp";
    }
    return NULL;
}

const struct coh_options getm_options = {"getm", getm_opts, getm_check, sizeof(struct getm_spec)};
