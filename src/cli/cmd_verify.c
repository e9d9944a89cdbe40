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
#include "verify/verify.h"

/* The protocols the explorer drives: every one the registry holds but the
 * examples (coh/template), whose controllers were never joined to it. */
static bool is_explorable(const struct proto_desc *pd)
{
    return pd && !pd->example;
}

/* `--protocol fast`: the ones the default test runs, in registry order: the
 * protocols of one GPU without time, a central unit, transactions or a mix of
 * devices, broken variants left out (nol1, rc, gpuvi, gpuvini, ideal, mesi). */
static void fast_set(char *out, size_t len)
{
    size_t n = 0;
    out[0] = 0;
    for (const struct proto_desc *const *p = proto_registry; *p; p++) {
        const struct proto_desc *pd = *p;
        const struct proto_verify *v = pd->verify;
        if (!is_explorable(pd) || pd->test_only || pd->multi_gpm || pd->transactional ||
            pd->unit.create || (v && (v->time != PROTO_TIME_NONE || v->device_mix)))
            continue;
        n += snprintf(out + n, n < len ? len - n : 0, "%s%s", n ? "," : "", pd->name);
    }
    panic_if(n >= len, "verify: the fast set is longer than %zu characters", len);
}

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
    const char *opt = vo->plain == VERIFY_PLAIN_ONLY ? "--plain-only" : "--plain";
    if (vo->plain && (!pd || !pd->transactional))
        fatal("%s: protocol '%s' has no transactions (its cores issue plain accesses "
              "anyway)",
              opt, name);
    if (vo->plain && vo->values > 3)
        fatal("%s: --values at most 3 (plain writes store values V+1..2V, up to 7)", opt);
    if (vo->kinds[0] && pd && pd->transactional)
        fatal("--kinds: protocol '%s' runs transactions, which --kinds does not restrict", name);
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
        "                     [--values V] [--ops BOUND] [--ops-each LIST] [--kinds LIST]\n"
        "                     [--no-atomics] [--inflight N] [--warps N]\n"
        "                     [--sync] [--plain|--plain-only] [--lease N]\n"
        "                     [--devices LIST] [--words W] [--gpus N]\n"
        "                     [--gpm-sms N] [--line-pages]\n"
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
        "(--gpm-sms 2: two) and one L2 bank each, the links between banks explored like\n"
        "the network (ideal-mg's free invalidations and acknowledgements on channels\n"
        "of their own, past the links: `deliver ... free`), homes placed by first\n"
        "touch; loads are judged by PTX's scoped release/acquire (a load after an\n"
        "acquire sees the writes a morally strong release completed before it\n"
        "covered).\n"
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
        "  --lines K          line addresses, 1 to 3 (default 1)\n"
        "  --values V         data values stores write, 1 to 7 (default 2)\n"
        "  --ops BOUND        operations per core, 1 to 255 (default 2)\n"
        "  --ops-each LIST    each L1's own bound, comma-separated, one per L1 (e.g. 3,1\n"
        "                     lets core 0 run a longer sequence than core 1; not with\n"
        "                     --symmetry unless all equal; 0: the core issues nothing,\n"
        "                     e.g. a GPM that only serves as a home); --ops becomes\n"
        "                     the largest\n"
        "  --kinds LIST       the operations each L1's core issues, one group of the\n"
        "                     letters l (load), s (store), a (atomic), f (fence) per\n"
        "                     L1, comma-separated (e.g. l,lsf); not with --scopes,\n"
        "                     --sync, --plain, nor with --symmetry unless all equal\n"
        "  --no-atomics       cores issue no atomics\n"
        "  --inflight N       operations in flight per core, 1 to 4 (default 1)\n"
        "  --warps N          TC (tcs, tcw and their broken variants): each operation\n"
        "                     comes from one of N warps of its core's SM, 1 or 2\n"
        "                     (default 1), whose L1 keeps its GWCT and a VM line's\n"
        "                     writer per warp (TC-Weak's LoadOther: a load of another\n"
        "                     warp's write in flight); program order, and with it the\n"
        "                     reference's fence and own-write rules, is each warp's;\n"
        "                     --ops and --inflight count the core's warps together\n"
        "  --sync             cores also issue ld.acquire.gpu and st.release.gpu\n"
        "  --plain            getm, warptm: cores also issue plain loads, stores of\n"
        "                     V+1..2V, atomics (unless --no-atomics) and fences\n"
        "                     outside their transactions (--values at most 3), up\n"
        "                     to --inflight at a time\n"
        "  --plain-only       getm, warptm: as --plain, but the cores run no\n"
        "                     transactions: the L1 and the bank under plain traffic\n"
        "                     only, as the stress tester drives them (several in\n"
        "                     flight, --conflict, --merge-max stay small)\n"
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
        "  --words W          Spandex: the cores use words 0..W-1 of the line, 1 or 2\n"
        "                     (default 1: word 0; 2 needs --lines 1): part of a line\n"
        "                     owned, forwarded or revoked while other words stay\n"
        "  --gpus N           multi-GPM: the GPMs (--l1s) divided among N GPUs, 1 or 2\n"
        "                     (default 1)\n"
        "  --gpm-sms N        multi-GPM: SMs (L1s) per GPM sharing its bank, 1 or 2\n"
        "                     (default 1): --l1s / N GPMs, L1 i in GPM i / N\n"
        "  --line-pages       multi-GPM: each line on a page of its own, so the lines'\n"
        "                     homes are placed apart (by each one's first touch)\n"
        "  --scopes LIST      cta,gpu,sys: fences, acquires and releases at each listed\n"
        "                     scope, relaxed loads and atomics at its .gpu and .sys\n"
        "                     (default: the fixed scopes, .gpu for synchronisation)\n"
        "  --conflict WHERE   caches of one line (one set of one way, from l1.size,\n"
        "                     l1.ways, l2.size, l2.ways) so that the lines evict each\n"
        "                     other: l1 (every L1), l2 (the L2 bank, every GPM's under\n"
        "                     the multi-GPM protocols) or both; this makes replacements\n"
        "                     and write-backs reachable (--lines 2). Default: arrays\n"
        "                     where the lines never conflict in a set\n"
        "  --conflict-ways W  the --conflict caches one set of W ways, 1 or 2 (default\n"
        "                     1; 2 takes --lines 3): a line evicted while the set's\n"
        "                     other way stays in use (a request meeting a recall)\n"
        "  --merge-max N      l1.merge_max, 0 to 8: loads merged into one outstanding\n"
        "                     miss (0 with --inflight 2: a second load to a line\n"
        "                     whose fill is outstanding finds it full, MergeFull;\n"
        "                     default: the configuration's, 8)\n"
        "  --symmetry on|values|off  count states that differ only by a relabelling of\n"
        "                     the L1s as one (nol1, rc, gpuvi, gpuvini, ideal, mesi, tcs,\n"
        "                     tcw, rccsc, rccwo, stc-*, spandex-* (in a mix of devices\n"
        "                     each L1 among those of its device), warptm, and the\n"
        "                     multi-GPM protocols by whole GPMs (on several GPUs those\n"
        "                     relabellings that keep the GPUs), with their broken\n"
        "                     variants; gpuvi-noinv and mesi-noinv on 2 L1s only; getm\n"
        "                     and others are explored whole and say so); values: also\n"
        "                     those that differ only by a relabelling of the stores'\n"
        "                     values (the same protocols but warptm: none of their\n"
        "                     controllers reads a value; at most 3 values). Default\n"
        "                     off: the state counts stay those of the whole space\n"
        "  --max-states N     stop past N states (default 2000000)\n"
        "  --max-mem MB       stop past MB MiB of search tables (default 2048)\n"
        "  --cex FILE         write a counterexample there (one protocol only)\n"
        "  --coverage FILE    write every table cell's count over the explored\n"
        "                     transitions, cells never reached first (\"<--\"; one protocol)\n"
        "  --replay FILE      replay a counterexample written by --cex\n"
        "  --config FILE, --set SECTION.KEY=V   machine configuration, as for gpucoh run\n");
}

/* A device mix's names (--devices, struct proto_verify): whether `d` is one of
 * the space-separated `list`. */
static bool names_device(const char *list, const char *d)
{
    size_t len = strlen(d);
    for (const char *n = list; n && *n; n += strspn(n, " ")) {
        size_t l = strcspn(n, " ");
        if (l == len && !strncmp(n, d, len))
            return true;
        n += l;
    }
    return false;
}

/* The device mix (--devices) of a protocol that has one (proto_verify's
 * device_mix): its own L1s first, as the machine numbers them, then CPU-device
 * L1s of one kind (cpu.device). Into gpu.sms, cpu.cores and cpu.device sets. */
static unsigned device_sets(const char *proto, const struct verify_opts *vo, char (*out)[48])
{
    const struct proto_desc *pd = proto_find(proto);
    const struct proto_verify *v = pd ? pd->verify : NULL;
    if (!v || !v->device_mix)
        fatal("--devices: protocol '%s' has one kind of L1 (Spandex's device mix only)", proto);
    const char *own = v->own_device;
    char list[sizeof vo->devices], cpu[16] = "";
    snprintf(list, sizeof list, "%s", vo->devices);
    unsigned n_own = 0, n_cpu = 0;
    for (char *save = NULL, *d = strtok_r(list, ",", &save); d; d = strtok_r(NULL, ",", &save)) {
        if (strcmp(d, own) && !names_device(v->cpu_devices, d))
            fatal("--devices: unknown device '%s' for %s (its own L1s, %s, first, then CPU "
                  "devices of one kind, cpu.device: %s)",
                  d, proto, own, v->cpu_devices);
        if (!n_cpu && !strcmp(d, own)) {
            n_own++;
        } else if (!strcmp(d, own)) { /* after a CPU device */
            fatal("--devices: %s's own L1s (%s) come first, as the machine numbers them", proto,
                  own);
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

/* The most settings a protocol's descriptor gives the rig (proto_verify's rig_sets). */
#define VERIFY_RIG_SETS 8

/* One of the protocol's rig settings (proto_verify's rig_sets) with the
 * explorer's bounds in place of their names. */
static void rig_setting(char *out, size_t len, const char *set, const struct verify_opts *vo)
{
    static const char *const names[] = {"{tick}", "{lease}", "{lease_ticks}"};
    const unsigned values[] = {VERIFY_TICK_CYCLES, vo->lease, vo->lease * VERIFY_TICK_CYCLES};
    size_t n = 0;
    for (const char *c = set; *c && n < len;) {
        unsigned i = 0;
        while (i < 3 && (*c != '{' || strncmp(c, names[i], strlen(names[i]))))
            i++;
        panic_if(*c == '{' && i == 3, "verify: rig setting '%s' names no bound it knows", set);
        if (i < 3) {
            n += snprintf(out + n, len - n, "%u", values[i]);
            c += strlen(names[i]);
        } else {
            out[n++] = *c++;
        }
    }
    panic_if(n >= len, "verify: rig setting '%s' longer than %zu characters", set, len - 1);
    out[n] = 0;
}

/* Load the rig's configuration: the protocol on N L1s and one L2 bank. */
static void load_config(struct config *cfg, const char *file, const char *proto,
                        const struct verify_opts *vo)
{
    const char *sets[SIM_MAX_SETS + 32]; /* the rig's own (at most 31) and the user's */
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
    unsigned gpm_sms = vo->gpm_sms ? vo->gpm_sms : 1;
    if (gpm_sms > 1 && !(pd && pd->multi_gpm))
        fatal("--gpm-sms %u: protocol '%s' has no GPMs (the multi-GPM protocols only)", gpm_sms,
              proto);
    if (vo->line_pages && !(pd && pd->multi_gpm))
        fatal("--line-pages: protocol '%s' has no homes (the multi-GPM protocols only)", proto);
    if (pd && pd->multi_gpm) {
        if (vo->l1s % (vo->gpus * gpm_sms))
            fatal("--l1s %u: the GPMs of --gpm-sms %u L1s must divide evenly among --gpus %u",
                  vo->l1s, gpm_sms, vo->gpus);
        snprintf(topo[0], sizeof topo[0], "topology.gpus=%u", vo->gpus);
        snprintf(topo[1], sizeof topo[1], "topology.gpms=%u", vo->l1s / vo->gpus / gpm_sms);
        snprintf(set_sms, sizeof set_sms, "gpu.sms=%u", gpm_sms);
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
    /* the protocol's own settings: a timed one on a rig whose time only the
     * explorer moves (a core cycle of 1 us holds any number of the controllers'
     * reactions), its time made the explorer's input (struct proto_verify) */
    const struct proto_verify *pv = pd ? pd->verify : NULL;
    char rig[VERIFY_RIG_SETS][64];
    if (pv && pv->time != PROTO_TIME_NONE)
        sets[n++] = "gpu.core_mhz=1";
    if (pv && pv->lease_pow2 && (vo->lease & (vo->lease - 1)))
        fatal("--lease %u: %s's leases are powers of two (1, 2 or 4)", vo->lease, proto);
    for (unsigned k = 0; pv && pv->rig_sets && pv->rig_sets[k]; k++) {
        panic_if(k == VERIFY_RIG_SETS, "verify: %s has more than %u rig settings", proto,
                 VERIFY_RIG_SETS);
        rig_setting(rig[k], sizeof rig[k], pv->rig_sets[k], vo);
        sets[n++] = rig[k];
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
    unsigned ways = vo->conflict_ways ? vo->conflict_ways : 1;
    if (vo->conflict & VERIFY_CONFLICT_L1) {
        snprintf(geo[n_geo++], sizeof geo[0], "l1.size=%u", ways * cfg->l1.cache.line_bytes);
        snprintf(geo[n_geo++], sizeof geo[0], "l1.ways=%u", ways);
    }
    if (vo->conflict & VERIFY_CONFLICT_L2) {
        snprintf(geo[n_geo++], sizeof geo[0], "l2.size=%u", ways * cfg->l2.cache.line_bytes);
        snprintf(geo[n_geo++], sizeof geo[0], "l2.ways=%u", ways);
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
        if ((vo->conflict >> i & 1) &&
            (spec[i]->size_bytes != ways * spec[i]->line_bytes || spec[i]->ways != ways))
            fatal("--conflict: %s.size %u and %s.ways %u (--set) do not make the %s one set of "
                  "%u way%s, which conflicting lines need",
                  level[i], spec[i]->size_bytes, level[i], spec[i]->ways, level[i], ways,
                  ways > 1 ? "s" : "");
    if (vo->merge_max != VERIFY_MERGE_CONFIG && cfg->l1.merge_max != vo->merge_max)
        fatal("--merge-max %u and --set l1.merge_max=%u disagree", vo->merge_max,
              cfg->l1.merge_max);
    /* a configuration whose choices the explorer cannot enumerate */
    if (pv && pv->unexplorable) {
        struct machine_view view;
        config_view(cfg, &view);
        const char *why = pv->unexplorable(&view);
        if (why)
            fatal("%s", why);
    }
}

/* --warps 2: TC's L1s only (tcs, tcw and their broken variants, the protocols
 * with leases), the only explorable ones whose controllers read req.warp (the
 * warp's GWCT slot and held requests, a VM line's writer): under the others a
 * second warp would only repeat every path with another id in its requests,
 * and their references (RCC's clocks, the multi-GPM releases, transactions)
 * would first have to be made per warp. Exits 2. */
static void check_warps(const struct verify_opts *vo, const char *proto)
{
    const struct proto_desc *pd = proto_find(proto);
    if (vo->warps > 1 && !(pd && pd->verify && pd->verify->time == PROTO_TIME_LEASES))
        fatal("--warps %u: protocol '%s' is explored with one warp per core (two only under TC, "
              "tcs and tcw, whose L1 keeps state per warp: docs/verify.md, \"Two warps per "
              "core\")",
              vo->warps, proto);
}

/* --ops-each and --kinds, after --l1s, --devices and --symmetry are known: one
 * entry per L1, and the same for every L1 under --symmetry. Exits 2 on bad input. */
static void parse_restrictions(struct verify_opts *vo, const char *ops_each, const char *kinds)
{
    if (ops_each) {
        const char *why = verify_ops_each_parse(vo, ops_each);
        if (why)
            fatal("--ops-each %s: %s", ops_each, why);
    }
    if (kinds) { /* after --l1s and --devices: one group per L1 */
        const char *why = verify_kinds_parse(vo, kinds);
        if (why)
            fatal("--kinds %s: %s", kinds, why);
        for (unsigned c = 0; c < vo->l1s; c++)
            if (!vo->atomics && vo->kinds[c] == VERIFY_KIND_ATOMIC)
                fatal("--kinds %s: L1 %u issues only atomics, which --no-atomics removes", kinds,
                      c);
        if (vo->scopes || vo->sync || vo->plain)
            fatal("--kinds restricts the plain operations (load, store, atomic, fence); not with "
                  "--scopes, --sync or --plain");
    }
    for (unsigned c = 1; vo->symmetry && kinds && c < vo->l1s; c++)
        if (vo->kinds[c] != vo->kinds[0])
            fatal("--kinds %s with --symmetry: L1s that issue different kinds are not "
                  "interchangeable; leave --symmetry off",
                  kinds);
    for (unsigned c = 1; vo->symmetry && ops_each && c < vo->l1s; c++)
        if (vo->ops_each[c] != vo->ops_each[0])
            fatal("--ops-each %s with --symmetry: L1s with different bounds are not "
                  "interchangeable; leave --symmetry off",
                  ops_each);
}

int cmd_verify(int argc, char **argv)
{
    struct sim_opts o = {0};
    const char *protos = NULL, *replay = NULL, *devices = NULL, *ops_each = NULL, *kinds = NULL;
    struct verify_opts vo = {.l1s = 2,
                             .lines = 1,
                             .values = 2,
                             .ops = 2,
                             .atomics = true,
                             .inflight = 1,
                             .warps = 1,
                             .lease = 2,
                             .ticks = 3,
                             .gpus = 1,
                             .gpm_sms = 1,
                             .merge_max = VERIFY_MERGE_CONFIG,
                             .max_states = 2000000,
                             .max_mem_mb = 2048};
    bool no_atomics = false, plain = false, plain_only = false;
    unsigned words = 1;
    const char *scopes = NULL, *conflict = NULL, *symmetry = NULL;
    struct opt sim_rows[SIM_OPT_ROWS];
    sim_opts_rows(&o, SIM_OPT_MACHINE, sim_rows);
    const struct opt rows[] = {
        OPT_STR_ROW("--protocol", NULL, &protos),
        OPT_UINT_ROW("--l1s", NULL, &vo.l1s, 1, 4),
        OPT_UINT_ROW("--lines", NULL, &vo.lines, 1, VERIFY_MAX_LINES),
        OPT_UINT_ROW("--values", NULL, &vo.values, 1, 7),
        OPT_UINT_ROW("--ops", NULL, &vo.ops, 1, 255),
        OPT_STR_ROW("--ops-each", NULL, &ops_each),
        OPT_STR_ROW("--kinds", NULL, &kinds),
        OPT_FLAG_ROW("--no-atomics", NULL, &no_atomics),
        OPT_UINT_ROW("--inflight", NULL, &vo.inflight, 1, 4),
        OPT_UINT_ROW("--warps", NULL, &vo.warps, 1, VERIFY_MAX_WARPS),
        OPT_FLAG_ROW("--sync", NULL, &vo.sync),
        OPT_FLAG_ROW("--plain", NULL, &plain),
        OPT_FLAG_ROW("--plain-only", NULL, &plain_only),
        OPT_UINT_ROW("--lease", NULL, &vo.lease, 1, VERIFY_MAX_LEASE),
        OPT_UINT_ROW("--ticks", NULL, &vo.ticks, 0, VERIFY_MAX_TICKS),
        OPT_STR_ROW("--devices", NULL, &devices),
        OPT_UINT_ROW("--words", NULL, &words, 1, 2),
        OPT_UINT_ROW("--gpus", NULL, &vo.gpus, 1, 2),
        OPT_UINT_ROW("--gpm-sms", NULL, &vo.gpm_sms, 1, 2),
        OPT_FLAG_ROW("--line-pages", NULL, &vo.line_pages),
        OPT_STR_ROW("--scopes", NULL, &scopes),
        OPT_STR_ROW("--conflict", NULL, &conflict),
        OPT_UINT_ROW("--conflict-ways", NULL, &vo.conflict_ways, 1, 2),
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
    if (plain && plain_only)
        fatal("--plain and --plain-only: name one (--plain-only is --plain without transactions)");
    vo.plain = plain_only ? VERIFY_PLAIN_ONLY : plain ? 1u : 0u;
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
    if (words > 1) { /* the two locations: words 0 and 1 of one line */
        if (vo.lines != 1)
            fatal("--words 2: the cores use two words of one line (--lines 1), not of %u lines",
                  vo.lines);
        vo.lines = 2;
        vo.words = 2;
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
        if (vo.words > 1)
            fatal("--conflict: --words 2 puts both locations in one line, which has nothing to "
                  "conflict with");
        if (vo.lines < 2)
            fatal("--conflict needs --lines 2: one line has nothing to conflict with");
    }
    if (vo.conflict_ways > 1 && !(conflict && vo.lines > vo.conflict_ways))
        fatal("--conflict-ways %u needs --conflict and --lines %u: a set of %u ways holds %u "
              "lines",
              vo.conflict_ways, vo.conflict_ways + 1, vo.conflict_ways, vo.conflict_ways);
    if (symmetry && strcmp(symmetry, "on") && strcmp(symmetry, "off") &&
        strcmp(symmetry, "values")) {
        fprintf(stderr, "gpucoh: error: --symmetry: '%s' is not on, values or off\n", symmetry);
        return EXIT_USAGE;
    }
    vo.value_symmetry = symmetry && !strcmp(symmetry, "values");
    vo.symmetry = vo.value_symmetry || (symmetry && !strcmp(symmetry, "on"));
    parse_restrictions(&vo, ops_each, kinds);
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
        if (!is_explorable(proto_find(proto)))
            fatal("%s: protocol '%s' cannot be explored (gpucoh verify --help)", replay, proto);
        struct config cfg;
        check_warps(&ro, proto);
        load_config(&cfg, o.config_file, proto, &ro);
        check_tx_config(&cfg, proto, &ro);
        return verify_replay(&cfg, &ro, replay, stdout);
    }
    if (!protos) {
        fprintf(stderr, "gpucoh: error: verify needs --protocol (or --replay)\n");
        return EXIT_USAGE;
    }
    char fast[256];
    if (!strcmp(protos, "fast") || !strcmp(protos, "all")) {
        fast_set(fast, sizeof fast);
        protos = fast;
    }
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
        else if (!is_explorable(proto_find(name)))
            fatal("protocol '%s' cannot be explored: its controllers are not exposed to the "
                  "explorer (docs/verify.md, \"What is not explored yet\")",
                  name);
    snprintf(list, sizeof list, "%s", protos);
    int worst = 0;
    for (char *save = NULL, *name = strtok_r(list, ",", &save); name;
         name = strtok_r(NULL, ",", &save)) {
        struct config cfg;
        const struct proto_verify *pv = proto_find(name)->verify;
        if (vo.words > 1 && !(pv && pv->device_mix))
            fatal("--words 2: protocol '%s' keeps state per line (Spandex's word state only)",
                  name);
        check_warps(&vo, name);
        load_config(&cfg, o.config_file, name, &vo);
        check_tx_config(&cfg, name, &vo);
        if (vo.warps > cfg.sm.warps)
            fatal("--warps %u: sm.warps = %u gives the SM fewer warp slots", vo.warps,
                  cfg.sm.warps);
        struct verify_result r;
        if (verify_run(&cfg, &vo, &r, stdout))
            worst = EXIT_CHECK_FAILED;
        fflush(stdout);
    }
    return worst;
}
