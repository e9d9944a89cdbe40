/*
 * cmd_verify.c - `gpucoh verify`: exhaustive exploration of protocols' real
 * controllers on a tiny machine, and the replay of its counterexamples
 * (src/verify, docs/verify.md).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "cli/cmds.h"
#include "cli/common.h"
#include "cli/opt.h"
#include "coh/getm/getm_bank.h"
#include "coh/machine_view.h"
#include "coh/proto.h"
#include "coh/spandex/fcs_options.h"
#include "verify/verify.h"

/* The configuration's [fcs] section. */
static const struct fcs_spec *fcs_of(const struct config *c)
{
    return config_section(c, &fcs_options);
}

/* The protocols the explorer can drive so far: an L1 per core and one L2
 * bank talking over vnets, or (multi-GPM) one L1 and one bank per GPM; STC's
 * central unit; TC's leases with time as an explorer event, RCC's logical
 * time with the livelock guard's tick as one. */
static const char *const explorable[] = {
    "nol1",
    "rc",
    "rc-noinv",
    "gpuvi",
    "gpuvini",
    "ideal",
    "mesi",
    "mesi-noinv",
    "tcs",
    "tcw",
    "tcs-nowait",
    "tcw-nogwct",
    "rccsc",
    "rccwo",
    "rccsc-nolease",
    "stc-nv",
    "stc-es",
    "stc-ab",
    "stc-mb",
    "stc-es-oneack",
    "spandex-g",
    "spandex-d",
    "spandex-d-noinv",
    "nhcc",
    "hmg",
    "hmg-noinv",
    "ideal-mg",
    "sw-nh",
    "sw-h",
    "nocache-mg",
    "gpuvi-noinv",
    "sw-nh-noinv",
    "nocache-mg-norel",
    "getm",
    "getm-nowts",
    "warptm",
    "warptm-noval",
    NULL,
};
/* `--protocol fast`: the ones the default test runs. */
static const char fast_set[] = "nol1,rc,gpuvi,gpuvini,ideal,mesi";

/* The rig's arrays: two lines land in different sets of both. */
static const char *const small_arrays[] = {"l1.size=1K", "l1.ways=2",  "l1.mshrs=8", "l2.size=2K",
                                           "l2.ways=2",  "l2.mshrs=8", NULL};

/* Transactions: the explorer's cores are one warp each that waits for its
 * commits' acknowledgements, with none of WarpTM's ideal variants (their
 * oracles and signature board are the SM's, which the rig does not build). */
static void check_tx_config(const struct config *cfg, const char *name,
                            const struct verify_opts *vo)
{
    const struct proto_desc *pd = proto_find(name);
    if (vo->plain && (!pd || !pd->transactional))
        fatal("--plain: protocol '%s' has no transactions (its cores issue plain accesses "
              "anyway)",
              name);
    if (vo->plain && vo->values > 3)
        fatal("--plain: --values at most 3 (plain writes store values V+1..2V, up to 7)");
    if (!pd || !pd->transactional)
        return;
    struct machine_view v;
    config_view(cfg, &v);
    struct getm_params p;
    getm_params_of_config(&v, cfg->gpu.sms, &p);
    if (!p.commit_waits || p.eager || p.eapg)
        fatal("protocol '%s': getm.commit_waits = false, warptm.eager and warptm.eapg are not "
              "explored (docs/verify.md, \"Transactions\")",
              name);
}

static void usage(FILE *out)
{
    fprintf(
        out,
        "usage: gpucoh verify --protocol NAME[,NAME...]|fast [--l1s N] [--lines K]\n"
        "                     [--values V] [--ops BOUND] [--no-atomics] [--inflight N]\n"
        "                     [--sync] [--lease N] [--devices LIST] [--gpus N]\n"
        "                     [--scopes LIST] [--conflict WHERE] [--merge-max N]\n"
        "                     [--max-states N]\n"
        "                     [--max-mem MB] [--cex FILE] [--coverage FILE]\n"
        "                     [--config F] [--set K=V]...\n"
        "       gpucoh verify --replay FILE\n"
        "\n"
        "Explores, breadth-first and exhaustively, every order of events on a tiny\n"
        "machine built from the protocol's real L1 and L2 controllers: each core may\n"
        "issue a load, a store or an atomic exchange of a value 1..V to any line, or an\n"
        "acq_rel fence, up to BOUND operations, N at a time; the network may deliver\n"
        "the oldest message of any (source, destination, vnet) channel (the crossbar's\n"
        "order); DRAM answers in order. Checked in every state: the protocol's own\n"
        "invariant observers, a table cell for every message (a protocol hole), every\n"
        "loaded value against the reference of the protocol's model (write-atomic: the\n"
        "line's value at issue or a later one in coherence order; otherwise a value no\n"
        "older than at the core's last fence), a quiescent L2 (or DRAM) holding each\n"
        "line's value unless an L1 holds it dirty (and under write-atomic protocols\n"
        "every valid L1 copy current), no deadlock, and that every state can quiesce.\n"
        "A violation prints its shortest event sequence (exit 1); --cex writes it for\n"
        "--replay, which re-runs it with a trace of every transition. Reaching a bound\n"
        "stops the search with nothing proven (exit 1). docs/verify.md.\n"
        "Under TC (tcs, tcw) time is an event too: a tick advances it by one tick\n"
        "while a lease or GWCT runs, so every order of deliveries, grants and\n"
        "expiries is explored; leases are whole ticks. TC-Strong is also checked\n"
        "to perform a write only when no L1 holds a lease on its line, TC-Weak that once a core's\n"
        "fence completes no load returns a value older than the core's earlier writes.\n"
        "Under RCC (rccsc, rccwo) a tick is the livelock guard's (every L1's logical\n"
        "clock + 1, at most --ticks a path), and loads, writes and copies are judged in\n"
        "logical time (a load returns the line's value at a time between its clock at\n"
        "issue and at the answer; a copy holds one value up to its lease end).\n"
        "Explorable so far: nol1, rc, gpuvi, gpuvini, ideal, mesi, tcs, tcw, rccsc,\n"
        "rccwo, and the deliberately broken rc-noinv, gpuvi-noinv, mesi-noinv,\n"
        "tcs-nowait, tcw-nogwct and rccsc-nolease; `fast` is nol1 to mesi (the\n"
        "protocols without time).\n"
        "Spandex (spandex-g, spandex-d, the broken spandex-d-noinv): its LLC with\n"
        "GPU-coherence, DeNovo and MESI L1s mixed by --devices; MESI L1s' loads are\n"
        "judged write-atomic, the others' by release consistency.\n"
        "The multi-GPM protocols (nhcc, hmg, ideal-mg, sw-nh, sw-h, nocache-mg and the\n"
        "broken hmg-noinv, sw-nh-noinv and nocache-mg-norel) run on --l1s GPMs of one SM\n"
        "and one L2 bank each, the links between banks explored like the network\n"
        "(ideal-mg's free invalidations and acknowledgements on channels of their own,\n"
        "past the links: `deliver ... free`), homes placed by first touch; loads are\n"
        "judged by PTX's scoped release/acquire (a load after an acquire sees the writes\n"
        "a morally strong release completed before it covered).\n"
        "STC (stc-nv, stc-es, stc-ab, stc-mb, the broken stc-es-oneack): its epoch\n"
        "management unit and the links to it explored like the network, its wake-up\n"
        "period one tick, two epochs; write-atomic.\n"
        "GETM (getm, the broken getm-nowts) and WarpTM (warptm, the broken\n"
        "warptm-noval): each core runs transactions of up to two transactional loads\n"
        "and stores (txload, txstore; the first begins an attempt) and a commit against\n"
        "the bank's validation unit, an abort cleaning up at once;\n"
        "--ops bounds the attempts per core. Every commit is judged serializable in\n"
        "timestamp order (each value read is the latest committed write with a smaller\n"
        "timestamp), memory takes only committed writes, in timestamp order, and the\n"
        "VU's reservations match the cores'. Under warptm stores stay in the core\n"
        "until the commit validates the values read (a read-only attempt the TCD clears\n"
        "commits silently) and transactions serialize in commit order (a silent one\n"
        "at some earlier point of it); the hold table must match the cores' holds.\n"
        "\n"
        "  --protocol LIST    protocols to explore, comma-separated, or fast (= all: every\n"
        "                     explorable one but the broken variants)\n"
        "  --l1s N            L1s, 1 to 4 (default 2)\n"
        "  --lines K          line addresses, 1 or 2 (default 1)\n"
        "  --values V         data values stores write, 1 to 7 (default 2)\n"
        "  --ops BOUND        operations per core, 1 to 255 (default 2)\n"
        "  --no-atomics       cores issue no atomics\n"
        "  --inflight N       operations in flight per core, 1 to 4 (default 1)\n"
        "  --sync             cores also issue ld.acquire.gpu and st.release.gpu\n"
        "  --plain            getm, warptm: cores also issue plain loads, stores of\n"
        "                     V+1..2V, atomics (unless --no-atomics) and fences\n"
        "                     outside their transactions (--values at most 3)\n"
        "  --lease N          TC: leases of N ticks (tcs), 1 to N ticks (tcw's\n"
        "                     predictor); 1 to 4 (default 2); RCC: its predictor's\n"
        "                     leases from 1 to N logical units (N = 1, 2 or 4)\n"
        "  --ticks N          RCC: ticks of the livelock guard (every L1's clock + 1)\n"
        "                     an event path may take, 0 to 16 (default 3)\n"
        "  --devices LIST     Spandex: each L1's device, comma-separated (gpu, denovo,\n"
        "                     mesi): the protocol's own first (spandex-g: gpu,\n"
        "                     spandex-d: denovo), then CPU-device L1s of one kind\n"
        "                     (cpu.device; default: every L1 the protocol's own);\n"
        "                     the list's length is the number of L1s\n"
        "  --gpus N           multi-GPM: the GPMs (--l1s) divided among N GPUs, 1 or 2\n"
        "                     (default 1)\n"
        "  --scopes LIST      cta,gpu,sys: fences, acquires and releases at each listed\n"
        "                     scope, relaxed loads and atomics at its .gpu and .sys\n"
        "                     (default: the fixed scopes, .gpu for synchronisation)\n"
        "  --conflict WHERE   caches of one line (one set of one way, from l1.size,\n"
        "                     l1.ways, l2.size, l2.ways) so that the lines evict each\n"
        "                     other: l1 (every L1), l2 (the L2 bank, every GPM's under\n"
        "                     the multi-GPM protocols) or both; this makes replacements\n"
        "                     and write-backs reachable (--lines 2). Default: arrays\n"
        "                     where two lines never conflict in a set\n"
        "  --merge-max N      l1.merge_max, 0 to 8: loads merged into one outstanding\n"
        "                     miss (0 with --inflight 2: a second load to a line\n"
        "                     whose fill is outstanding finds it full, MergeFull;\n"
        "                     default: the configuration's, 8)\n"
        "  --symmetry on|off  count states that differ only by a relabelling of the\n"
        "                     L1s as one (nol1, rc, gpuvi, gpuvini, mesi, tcs, tcw,\n"
        "                     rccsc, rccwo and their broken variants; gpuvi-noinv and\n"
        "                     mesi-noinv on 2 L1s only; other protocols are explored\n"
        "                     whole and say so). Default off: the state counts stay\n"
        "                     those of the whole space\n"
        "  --max-states N     stop past N states (default 2000000)\n"
        "  --max-mem MB       stop past MB MiB of search tables (default 2048)\n"
        "  --cex FILE         write a counterexample there (one protocol only)\n"
        "  --coverage FILE    write every table cell's count over the explored\n"
        "                     transitions, cells never reached first (\"<--\"; one protocol)\n"
        "  --replay FILE      replay a counterexample written by --cex\n"
        "  --config FILE, --set SECTION.KEY=V   machine configuration, as for gpucoh run\n");
}

static bool is_explorable(const char *name)
{
    for (const char *const *e = explorable; *e; e++)
        if (!strcmp(*e, name))
            return true;
    return false;
}

/* Spandex's device mix (--devices): the protocol's own L1s (spandex-g: gpu,
 * spandex-d: denovo) first, as the machine numbers them, then CPU-device L1s
 * of one kind (cpu.device). Into gpu.sms, cpu.cores and cpu.device sets. */
static unsigned device_sets(const char *proto, const struct verify_opts *vo, char (*out)[48])
{
    const char *own = !strcmp(proto, "spandex-g") ? "gpu" : "denovo";
    if (strncmp(proto, "spandex", 7))
        fatal("--devices: protocol '%s' has one kind of L1 (Spandex's device mix only)", proto);
    char list[sizeof vo->devices], cpu[16] = "";
    snprintf(list, sizeof list, "%s", vo->devices);
    unsigned n_own = 0, n_cpu = 0;
    for (char *save = NULL, *d = strtok_r(list, ",", &save); d; d = strtok_r(NULL, ",", &save)) {
        if (strcmp(d, "gpu") && strcmp(d, "denovo") && strcmp(d, "mesi"))
            fatal("--devices: unknown device '%s' (gpu, denovo or mesi)", d);
        if (!n_cpu && !strcmp(d, own)) {
            n_own++;
        } else if (!strcmp(d, own)) { /* after a CPU device */
            fatal("--devices: %s's own L1s (%s) come first, as the machine numbers them", proto,
                  own);
        } else if (!strcmp(d, "gpu")) {
            fatal("--devices: gpu is spandex-g's own L1 (GPU coherence), not a CPU device");
        } else if (cpu[0] && strcmp(cpu, d)) {
            fatal("--devices: the CPU-device L1s are of one kind (cpu.device): %s and %s", cpu, d);
        } else {
            snprintf(cpu, sizeof cpu, "%s", d);
            n_cpu++;
        }
    }
    if (!n_own)
        fatal("--devices: %s needs its own L1 (%s) first", proto, own);
    if (n_own + n_cpu != vo->l1s)
        fatal("--devices: %u devices for --l1s %u", n_own + n_cpu, vo->l1s);
    unsigned n = 0;
    snprintf(out[n++], 48, "gpu.sms=%u", n_own);
    snprintf(out[n++], 48, "cpu.cores=%u", n_cpu);
    if (n_cpu)
        snprintf(out[n++], 48, "cpu.device=%s", cpu);
    return n;
}

/* Load the rig's configuration: the protocol on N L1s and one L2 bank. */
static void load_config(struct config *cfg, const char *file, const char *proto,
                        const struct verify_opts *vo)
{
    const char *sets[SIM_MAX_SETS + 32]; /* the rig's own (at most 22) and the user's */
    unsigned n = 0;
    char set_proto[96], set_sms[32];
    snprintf(set_proto, sizeof set_proto, "coherence.protocol=%s", proto);
    snprintf(set_sms, sizeof set_sms, "gpu.sms=%u", vo->l1s);
    sets[n++] = set_proto;
    sets[n++] = set_sms;
    /* several GPMs (multi-GPM protocols): --l1s GPMs over --gpus GPUs, one SM and
     * one L2 bank each; a directory of a few entries (the rig's lines share one) */
    char topo[2][40];
    const struct proto_desc *pd = proto_find(proto);
    if (pd && pd->multi_gpm) {
        if (vo->l1s % vo->gpus)
            fatal("--l1s %u: the GPMs must divide evenly among --gpus %u", vo->l1s, vo->gpus);
        snprintf(topo[0], sizeof topo[0], "topology.gpus=%u", vo->gpus);
        snprintf(topo[1], sizeof topo[1], "topology.gpms=%u", vo->l1s / vo->gpus);
        sets[n - 1] = "gpu.sms=1";
        sets[n++] = topo[0];
        sets[n++] = topo[1];
        sets[n++] = "mg.dir_entries=8";
        sets[n++] = "mg.dir_ways=2";
    }
    sets[n++] = "l2.banks=1";
    sets[n++] = "l2.jitter_cycles=0";
    /* small arrays (the lines never conflict in a set): a fresh rig per path is cheap */
    for (const char *const *s = small_arrays; *s; s++)
        sets[n++] = *s;
    /* TC: leases of whole ticks on a rig whose time only the explorer moves
     * (a core cycle of 1 us holds any number of the controllers' reactions) */
    char lease[6][48];
    if (!strncmp(proto, "tc", 2)) {
        unsigned tick = VERIFY_TICK_CYCLES, most = vo->lease * VERIFY_TICK_CYCLES;
        sets[n++] = "gpu.core_mhz=1";
        if (!strncmp(proto, "tcs", 3)) {
            snprintf(lease[0], sizeof lease[0], "tc.lease=fixed:%u", most);
            sets[n++] = lease[0];
        } else { /* the predictor, between one tick and the longest, a tick a step */
            sets[n++] = "tc.lease=predict";
            snprintf(lease[0], sizeof lease[0], "tc.lease_init=%u", most);
            snprintf(lease[1], sizeof lease[1], "tc.lease_min=%u", tick);
            snprintf(lease[2], sizeof lease[2], "tc.lease_max=%u", most);
            snprintf(lease[3], sizeof lease[3], "tc.t_hit=%u", tick);
            snprintf(lease[4], sizeof lease[4], "tc.t_evict=%u", tick);
            snprintf(lease[5], sizeof lease[5], "tc.t_write=%u", tick);
            for (unsigned i = 0; i < 6; i++)
                sets[n++] = lease[i];
        }
    }
    /* RCC: logical leases of 1 to --lease units (the predictor's whole range),
     * the livelock guard's tick as the explorer's time event, no rollover */
    if (!strncmp(proto, "rcc", 3)) {
        if (vo->lease & (vo->lease - 1))
            fatal("--lease %u: RCC's leases are powers of two (1, 2 or 4)", vo->lease);
        sets[n++] = "gpu.core_mhz=1";
        sets[n++] = "rcc.lease=predict";
        sets[n++] = "rcc.lease_min=1";
        snprintf(lease[0], sizeof lease[0], "rcc.lease_max=%u", vo->lease);
        sets[n++] = lease[0];
        snprintf(lease[1], sizeof lease[1], "rcc.livelock_cycles=%u", VERIFY_TICK_CYCLES);
        sets[n++] = lease[1];
        sets[n++] = "rcc.ts_bits=64";
    }
    /* STC: two bands, the rig's lines both in band 1 (address bit 29; band 0 is
     * current at the start, so stores block and demand); the EMU wakes once a
     * tick, the explorer's time event */
    if (!strncmp(proto, "stc", 3)) {
        sets[n++] = "gpu.core_mhz=1";
        sets[n++] = "stc.epochs=2";
        sets[n++] = "stc.seb=29";
        sets[n++] = "stc.seb_min=12";
        sets[n++] = "stc.seb_max=30";
        snprintf(lease[2], sizeof lease[2], "stc.period_cycles=%u", VERIFY_TICK_CYCLES);
        sets[n++] = lease[2];
    }
    char dev[3][48];
    for (unsigned k = 0, nd = vo->devices[0] ? device_sets(proto, vo, dev) : 0; k < nd; k++)
        sets[n++] = dev[k];
    unsigned n_rig = n; /* the rig's own settings; the user's --set come after them */
    for (unsigned k = 0; k < vo->n_sets; k++)
        sets[n++] = vo->sets[k];
    char err[512];
    if (config_load(cfg, file ? file : config_default_file(), sets, n, err, sizeof err))
        fatal("%s", err);
    /* --conflict: the caches named hold one line (one set of one way, the line
     * size the configuration gives, so this takes a second load); --merge-max:
     * l1.merge_max. Both before the user's --set, which are checked after. */
    char geo[5][48];
    unsigned n_geo = 0;
    if (vo->conflict & VERIFY_CONFLICT_L1) {
        snprintf(geo[n_geo++], sizeof geo[0], "l1.size=%u", cfg->l1.cache.line_bytes);
        snprintf(geo[n_geo++], sizeof geo[0], "l1.ways=1");
    }
    if (vo->conflict & VERIFY_CONFLICT_L2) {
        snprintf(geo[n_geo++], sizeof geo[0], "l2.size=%u", cfg->l2.cache.line_bytes);
        snprintf(geo[n_geo++], sizeof geo[0], "l2.ways=1");
    }
    if (vo->merge_max != VERIFY_MERGE_CONFIG)
        snprintf(geo[n_geo++], sizeof geo[0], "l1.merge_max=%u", vo->merge_max);
    if (n_geo) {
        memmove(&sets[n_rig + n_geo], &sets[n_rig], (n - n_rig) * sizeof *sets);
        for (unsigned k = 0; k < n_geo; k++)
            sets[n_rig + k] = geo[k];
        n += n_geo;
        if (config_load(cfg, file ? file : config_default_file(), sets, n, err, sizeof err))
            fatal("%s", err);
    }
    static const char *const level[] = {"l1", "l2"};
    const struct cache_spec *spec[] = {&cfg->l1.cache, &cfg->l2.cache};
    for (unsigned i = 0; i < 2; i++)
        if ((vo->conflict >> i & 1) && spec[i]->size_bytes != spec[i]->line_bytes)
            fatal("--conflict: %s.size %u and %s.ways %u (--set) give the %s more than one line; "
                  "conflicting lines need one set of one way",
                  level[i], spec[i]->size_bytes, level[i], spec[i]->ways, level[i]);
    if (vo->merge_max != VERIFY_MERGE_CONFIG && cfg->l1.merge_max != vo->merge_max)
        fatal("--merge-max %u and --set l1.merge_max=%u disagree", vo->merge_max,
              cfg->l1.merge_max);
    /* a DeNovo L1's random draws are not in the explorer's digest */
    if (!strncmp(proto, "spandex", 7) && (fcs_of(cfg)->random || fcs_of(cfg)->mispredict))
        fatal("fcs.random and fcs.mispredict draw request types and owners at random: the "
              "explorer cannot enumerate them (docs/verify.md, \"Spandex\")");
}

int cmd_verify(int argc, char **argv)
{
    struct sim_opts o = {0};
    const char *protos = NULL, *replay = NULL, *devices = NULL;
    struct verify_opts vo = {.l1s = 2,
                             .lines = 1,
                             .values = 2,
                             .ops = 2,
                             .atomics = true,
                             .inflight = 1,
                             .lease = 2,
                             .ticks = 3,
                             .gpus = 1,
                             .merge_max = VERIFY_MERGE_CONFIG,
                             .max_states = 2000000,
                             .max_mem_mb = 2048};
    bool no_atomics = false;
    const char *scopes = NULL, *conflict = NULL, *symmetry = NULL;
    struct opt sim_rows[SIM_OPT_ROWS];
    sim_opts_rows(&o, SIM_OPT_MACHINE, sim_rows);
    const struct opt rows[] = {
        OPT_STR_ROW("--protocol", NULL, &protos),
        OPT_UINT_ROW("--l1s", NULL, &vo.l1s, 1, 4),
        OPT_UINT_ROW("--lines", NULL, &vo.lines, 1, 2),
        OPT_UINT_ROW("--values", NULL, &vo.values, 1, 7),
        OPT_UINT_ROW("--ops", NULL, &vo.ops, 1, 255),
        OPT_FLAG_ROW("--no-atomics", NULL, &no_atomics),
        OPT_UINT_ROW("--inflight", NULL, &vo.inflight, 1, 4),
        OPT_FLAG_ROW("--sync", NULL, &vo.sync),
        OPT_FLAG_ROW("--plain", NULL, &vo.plain),
        OPT_UINT_ROW("--lease", NULL, &vo.lease, 1, VERIFY_MAX_LEASE),
        OPT_UINT_ROW("--ticks", NULL, &vo.ticks, 0, VERIFY_MAX_TICKS),
        OPT_STR_ROW("--devices", NULL, &devices),
        OPT_UINT_ROW("--gpus", NULL, &vo.gpus, 1, 2),
        OPT_STR_ROW("--scopes", NULL, &scopes),
        OPT_STR_ROW("--conflict", NULL, &conflict),
        OPT_UINT_ROW("--merge-max", NULL, &vo.merge_max, 0, VERIFY_MAX_MERGE),
        OPT_STR_ROW("--symmetry", NULL, &symmetry),
        OPT_U64_ROW("--max-states", NULL, &vo.max_states, 1, 4e9),
        OPT_U64_ROW("--max-mem", NULL, &vo.max_mem_mb, 1, 1e6),
        OPT_OUT_ROW("--cex", NULL, &vo.cex_file),
        OPT_OUT_ROW("--coverage", NULL, &vo.coverage_file),
        OPT_IN_ROW("--replay", NULL, &replay),
        OPT_END,
    };
    int rc = opt_parse("verify", (const struct opt *const[]){rows, sim_rows, NULL}, argc, argv, 1,
                       NULL, usage);
    if (rc != OPT_CONTINUE)
        return rc;
    vo.atomics = !no_atomics;
    if (devices && strlen(devices) >= sizeof vo.devices)
        fatal("--devices: a list of at most %zu characters", sizeof vo.devices - 1);
    if (devices) { /* --l1s follows the list unless given */
        snprintf(vo.devices, sizeof vo.devices, "%s", devices);
        unsigned n = 1;
        for (const char *c = devices; *c; c++)
            n += *c == ',';
        if (n > 4)
            fatal("--devices: at most 4 L1s");
        vo.l1s = n;
    }
    if (scopes) { /* cta,gpu,sys: the scopes fences, acquires, releases and atomics take */
        static const char *const names[] = {"cta", "gpu", "sys"};
        char buf[64];
        snprintf(buf, sizeof buf, "%s", scopes);
        for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            unsigned i = 0;
            while (i < 3 && strcmp(t, names[i]))
                i++;
            if (i == 3) {
                fprintf(stderr, "gpucoh: error: --scopes: '%s' is not cta, gpu or sys\n", t);
                return EXIT_USAGE;
            }
            vo.scopes |= 1u << i;
        }
    }
    if (conflict) { /* which caches hold one line */
        if (!strcmp(conflict, "l1"))
            vo.conflict = VERIFY_CONFLICT_L1;
        else if (!strcmp(conflict, "l2"))
            vo.conflict = VERIFY_CONFLICT_L2;
        else if (!strcmp(conflict, "both"))
            vo.conflict = VERIFY_CONFLICT_L1 | VERIFY_CONFLICT_L2;
        else
            fatal("--conflict: '%s' is not l1, l2 or both", conflict);
        if (vo.lines < 2)
            fatal("--conflict needs --lines 2: one line has nothing to conflict with");
    }
    if (symmetry && strcmp(symmetry, "on") && strcmp(symmetry, "off")) {
        fprintf(stderr, "gpucoh: error: --symmetry: '%s' is not on or off\n", symmetry);
        return EXIT_USAGE;
    }
    vo.symmetry = symmetry && !strcmp(symmetry, "on");
    vo.sets = o.sets;
    vo.n_sets = o.n_sets;

    if (replay) {
        if (protos) {
            fprintf(stderr, "gpucoh: error: --replay takes its protocol from the file\n");
            return EXIT_USAGE;
        }
        static char buf[4096];
        static const char *sets[SIM_MAX_SETS];
        char proto[64];
        struct verify_opts ro = vo;
        verify_read_header(replay, proto, sizeof proto, &ro, sets, SIM_MAX_SETS, buf, sizeof buf);
        if (!is_explorable(proto))
            fatal("%s: protocol '%s' cannot be explored (gpucoh verify --help)", replay, proto);
        struct config cfg;
        load_config(&cfg, o.config_file, proto, &ro);
        check_tx_config(&cfg, proto, &ro);
        return verify_replay(&cfg, &ro, replay, stdout);
    }
    if (!protos) {
        fprintf(stderr, "gpucoh: error: verify needs --protocol (or --replay)\n");
        return EXIT_USAGE;
    }
    if (!strcmp(protos, "fast") || !strcmp(protos, "all"))
        protos = fast_set; /* every explorable protocol but the broken variants */
    char list[512];
    snprintf(list, sizeof list, "%s", protos);
    bool several = strchr(list, ',') != NULL;
    if (several && (vo.cex_file || vo.coverage_file)) {
        fprintf(stderr, "gpucoh: error: --cex and --coverage take one protocol\n");
        return EXIT_USAGE;
    }
    for (char *save = NULL, *name = strtok_r(list, ",", &save); name;
         name = strtok_r(NULL, ",", &save))
        if (!proto_find(name))
            fatal("unknown protocol '%s' (gpucoh list protocols)", name);
        else if (!is_explorable(name))
            fatal("protocol '%s' cannot be explored: its controllers are not exposed to the "
                  "explorer (docs/verify.md, \"What is not explored yet\")",
                  name);
    snprintf(list, sizeof list, "%s", protos);
    int worst = 0;
    for (char *save = NULL, *name = strtok_r(list, ",", &save); name;
         name = strtok_r(NULL, ",", &save)) {
        struct config cfg;
        load_config(&cfg, o.config_file, name, &vo);
        check_tx_config(&cfg, name, &vo);
        struct verify_result r;
        if (verify_run(&cfg, &vo, &r, stdout))
            worst = EXIT_CHECK_FAILED;
        fflush(stdout);
    }
    return worst;
}
