/*
 * config.c - composes the components' option tables into the machine's
 * (see config.h), loads files and overrides, and cross-checks the result.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "system/config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bits.h"
#include "base/log.h"
#include "coh/options.h"
#include "coh/proto.h"

const char *const sim_partitions_names[] = {"1", "max", NULL}; /* enum sim_partitions */

#define T struct sim_spec
static const struct cfg_opt sim_opts[] = {
    CFG_U64("seed", T, seed, "1", 0, 1.8e19, "", "seed of every random stream"),
    CFG_U64("watchdog_cycles", T, watchdog_cycles, "200000", 0, 1e15, "core cycles",
            "stop (exit 3) when no memory operation completes for this long; 0 = off"),
    CFG_U64("starvation_cycles", T, starvation_cycles, "1000000", 0, 1e15, "core cycles",
            "stop (exit 3) when one warp's memory instruction waits this long for its "
            "response, even while others complete; 0 = off"),
    CFG_LIMIT("max_cycles", T, max_cycles, "auto", 1e18, "core cycles",
              "stop a kernel that runs longer than this (exit 3); 0 = no limit; auto = "
              "2^29 per wave of the launch (a wave: the warps every SM holds at once)"),
    CFG_LIMIT("max_insts", T, max_insts, "auto", 1e18, "warp instructions",
              "stop a kernel that issues more warp instructions than this (exit 3); 0 = no "
              "limit; auto = 2^24 per warp of the launch"),
    CFG_U64("spin_cycles", T, spin_cycles, "2000000", 0, 1e15, "core cycles",
            "stop (exit 3) when for this long no warp stores, does an atomic, loads a value "
            "it had not loaded before, or finishes: warps spinning on a condition that "
            "cannot change (functional mode: rounds of one instruction per warp; RCC: counted "
            "from when every L1's clock has passed the leases it held at the last progress); "
            "0 = off"),
    CFG_ENUM("partitions", T, partitions, "1", sim_partitions_names,
             "1 = one event queue for the whole machine; max = a queue per partition of the "
             "finest exact cut (docs/parallel.md: core and memory side of each GPM, the sysnet "
             "apart; one partition where a zero-latency shortcut joins them), run in one thread "
             "by the merge executor in exactly the order of one queue, with cut ports "
             "announcing their sends at window ends: the same statistics; a check of "
             "the partitioned engine"),
    CFG_END,
};
#undef T

#define T struct gpu_spec
static const struct cfg_opt gpu_opts[] = {
    CFG_U32("sms", T, sms, "16", 1, 1024, "",
            "SMs (cores) per GPU module (topology.gpms; one GPM: per GPU)"),
    CFG_F64("core_mhz", T, core_mhz, "1400", 1, 10000, "MHz",
            "SM and L1 clock; leases and latencies in 'core cycles' use it"),
    CFG_END,
};
#undef T

const char *const l1_issue_names[] = {"in-order", "out-of-order", NULL};
const char *const l1_merge_full_names[] = {"park", "stall", NULL};
const char *const cache_index_names[] = {"linear", "fermi-hash", NULL}; /* enum cache_index */

#define T struct l1_spec
static const struct cfg_opt l1_opts[] = {
    CFG_U32("size", T, cache.size_bytes, "32K", 128, 1 << 30, "bytes", "capacity per SM"),
    CFG_U32("ways", T, cache.ways, "4", 1, 64, "", "associativity"),
    CFG_U32("line", T, cache.line_bytes, "128", 16, LINE_MAX_BYTES, "bytes", "line size"),
    CFG_U32("hit_cycles", T, cache.hit_cycles, "20", 0, 10000, "core cycles", "load hit latency"),
    CFG_ENUM("index", T, cache.index, "linear", cache_index_names,
             "how a line address picks its set: the line number's low bits (linear), or "
             "Fermi's hash (fermi-hash: bits 7-11 XOR bits 13, 14, 15, 17, 19, and bit 12 with "
             "64 sets; Nugteren et al., HPCA 2014, GPGPU-Sim's Fermi L1; 128-byte lines, 32 or "
             "64 sets)"),
    CFG_U32("mshrs", T, mshrs, "128", 1, 65536, "", "MSHR/TBE entries"),
    CFG_U32("merge_max", T, merge_max, "8", 0, 1024, "",
            "loads merged into one outstanding miss (beyond it they wait)"),
    CFG_ENUM("issue", T, issue, "in-order", l1_issue_names,
             "requests from the SM's memory stage: taken in the order sent, one the L1 cannot "
             "take for want of a resource (an MSHR, a free way, an outgoing port) holding up "
             "those behind it (in-order), or passed by later ready requests to other lines "
             "(out-of-order: a fence ends what may pass; docs/ordering.md)"),
    CFG_ENUM("merge_full", T, merge_full, "park", l1_merge_full_names,
             "mesi: a load to a line whose fill has merged merge_max loads waits on the line's "
             "MSHR while the L1 takes later requests (park), or stays at the head of the L1's "
             "input, holding up every request behind it until the fill (stall: spec 001 Fig. 7's "
             "memory-pipeline stall)"),
    CFG_END,
};
#undef T

const char *const l2_write_ack_names[] = {"performed", "arrival", NULL};

#define T struct l2_spec
static const struct cfg_opt l2_opts[] = {
    CFG_U32("banks", T, banks, "8", 1, 1024, "",
            "banks = memory partitions = DRAM channels, per GPU module"),
    CFG_U32("size", T, cache.size_bytes, "128K", 128, 1u << 31, "bytes", "capacity per bank"),
    CFG_U32("ways", T, cache.ways, "8", 1, 64, "", "associativity"),
    CFG_U32("line", T, cache.line_bytes, "128", 16, LINE_MAX_BYTES, "bytes",
            "line size (must equal l1.line)"),
    CFG_U32("mshrs", T, mshrs, "128", 1, 65536, "", "MSHRs per bank"),
    CFG_F64("mhz", T, mhz, "700", 1, 10000, "MHz", "L2 clock"),
    CFG_U32("latency_cycles", T, latency_cycles, "150", 0, 100000, "L2 cycles",
            "bank pipeline latency of a hit (tc-fermi: 340 core cycles round trip in all)"),
    CFG_U32("jitter_cycles", T, jitter_cycles, "0", 0, 100000, "L2 cycles",
            "extra random delay per response, [0, jitter] (litmus randomisation)"),
    CFG_ENUM("write_ack", T, write_ack, "performed", l2_write_ack_names,
             "rc, nol1, stc-*: a write is acknowledged through the bank's access pipeline once "
             "performed, after the fill on a miss (performed), or as soon as the bank takes it, "
             "a miss merged into the allocated line (arrival: spec 000's 'as soon as the store "
             "reaches the memory side cache')"),
    CFG_END,
};
#undef T

static const struct cfg_opt coherence_opts[] = {
    CFG_STR("protocol", struct coh_spec, protocol, "rc",
            "coherence protocol (gpucoh list protocols)"),
    CFG_BOOL("sleep", struct coh_spec, sleep, "true",
             "controllers sleep while only a resource stall on a full port or TBE table keeps "
             "them busy (false: tick every cycle; the statistics are the same)"),
    CFG_END,
};

/* The hierarchy of GPUs and GPMs (spec 004b §2.1, Table 5.2; latencies the
 * thesis omits are chosen in docs/multi-gpu.md). */
#define T struct topo_spec
static const struct cfg_opt topology_opts[] = {
    CFG_U32("gpus", T, gpus, "1", 1, 16, "", "GPUs, linked through a switch"),
    CFG_U32("gpms", T, gpms, "1", 1, 16, "",
            "GPU modules per GPU; each has gpu.sms SMs, a crossbar, l2.banks banks and DRAM"),
    CFG_F64("gpm_link_gbs", T, gpm_link_gbs, "83", 0, 1e6, "GB/s",
            "bandwidth per direction between two GPMs of one GPU (0: unlimited)"),
    CFG_U32("gpm_link_cycles", T, gpm_link_cycles, "32", 1, 100000, "core cycles",
            "latency from one GPM's L2 to another's in the same GPU"),
    CFG_F64("gpu_link_gbs", T, gpu_link_gbs, "100", 0, 1e6, "GB/s",
            "bandwidth per direction between two GPUs through the switch (0: unlimited)"),
    CFG_U32("gpu_link_cycles", T, gpu_link_cycles, "200", 1, 100000, "core cycles",
            "latency from one GPU's L2 to another GPU's"),
    CFG_U32("page_bytes", T, page_bytes, "2M", 128, 1u << 30, "bytes",
            "page size of first-touch placement (a power of two)"),
    CFG_END,
};
#undef T

const char *const cpu_device_names[] = {"denovo", "mesi", NULL};
const char *const cpu_order_names[] = {"tso", "rmo", NULL};
const char *const cpu_store_drain_names[] = {"serial", "parallel", NULL};

/* CPU cores (spec 003 Table 2; docs/cpu.md). */
#define T struct cpu_spec
static const struct cfg_opt cpu_opts[] = {
    CFG_U32("cores", T, cores, "0", 0, 64, "",
            "in-order CPU cores, one thread of a CPU launch each (0: none; needs a protocol "
            "with CPU devices: spandex-d, spandex-g)"),
    CFG_F64("mhz", T, mhz, "2000", 1, 10000, "MHz", "CPU core and CPU L1 clock"),
    CFG_U32("store_buffer", T, store_buffer, "128", 1, 1024, "",
            "TSO store-buffer entries (lines) per core: stores retire into it in order and "
            "loads read their own buffered stores"),
    CFG_ENUM("device", T, device, "denovo", cpu_device_names,
             "coherence of the CPU L1s on Spandex: denovo (ReqV, ReqO, ReqO+data by word) or "
             "mesi (ReqS, ReqO+data by line, writer-invalidated); with coherence.protocol "
             "spandex-g / spandex-d this gives the paper's SDG / SDD, or SMG / SMD"),
    CFG_ENUM("order", T, order, "tso", cpu_order_names,
             "the cores' memory ordering: tso (x86, as the paper's Simics cores: loads wait "
             "for loads, stores retire into the FIFO store buffer) or rmo (an ablation: loads "
             "and stores overlap until a fence, acquire or release, as on the GPU's SMs; "
             "enough for data-race-free programs)"),
    CFG_ENUM("store_drain", T, store_drain, "serial", cpu_store_drain_names,
             "tso: the store buffer sends its head once every earlier store is acked (serial) "
             "or while they are still outstanding (parallel: an ablation, stores complete out "
             "of order; enough for data-race-free programs)"),
    CFG_END,
};
#undef T

/* The sections in `config show` order, which is also the option table's
 * (run fingerprints hash the options in it): the machine's own, with their
 * rows, and, where a row has none, the place of the protocol family's section
 * of that name. A family's rows, checks and spec come from its folder through
 * the protocol registry (proto_desc.options); a family not placed here comes
 * after every section named here, in registry order. */
static const struct {
    const char *name;
    const struct cfg_opt *opts; /* NULL: a protocol family's section */
    size_t off;
} machine_sections[] = {
    {"sim", sim_opts, offsetof(struct config, sim)},
    {"gpu", gpu_opts, offsetof(struct config, gpu)},
    {"sm", sm_opts, offsetof(struct config, sm)},
    {"order", order_opts, offsetof(struct config, sm) + offsetof(struct sm_spec, order)},
    {"l1", l1_opts, offsetof(struct config, l1)},
    {"l2", l2_opts, offsetof(struct config, l2)},
    {"noc", noc_opts, offsetof(struct config, noc)},
    {"dram", dram_opts, offsetof(struct config, dram)},
    {"coherence", coherence_opts, offsetof(struct config, coherence)},
    {"vi", NULL, 0},
    {"tc", NULL, 0},
    {"rcc", NULL, 0},
    {"stc", NULL, 0},
    {"getm", NULL, 0},
    {"warptm", NULL, 0},
    {"topology", topology_opts, offsetof(struct config, topology)},
    {"mg", NULL, 0},
    {"fcs", NULL, 0},
    {"cpu", cpu_opts, offsetof(struct config, cpu)},
};

/* The composed sections, in order: a family's spec struct laid out in
 * struct config's coh_sections. */
struct section {
    const char *name;
    const struct cfg_opt *opts;
    size_t off;                       /* of its spec struct in struct config */
    const struct coh_options *family; /* a protocol family's section, else NULL */
};
static struct section sections[ARRAY_LEN(machine_sections) + COH_SECTIONS_MAX];
static size_t n_sections;

static void add_section(const char *name, const struct cfg_opt *opts, size_t off,
                        const struct coh_options *family)
{
    sections[n_sections++] = (struct section){name, opts, off, family};
}

static void add_family(const struct coh_options *f, size_t *used)
{
    size_t align = _Alignof(max_align_t);
    size_t at = (*used + align - 1) / align * align;
    panic_if(at + f->size > CONFIG_SECTIONS_BYTES,
             "the protocol sections take more than CONFIG_SECTIONS_BYTES (%d) bytes",
             CONFIG_SECTIONS_BYTES);
    add_section(f->section, f->opts, offsetof(struct config, coh_sections) + at, f);
    *used = at + f->size;
}

static void lay_out_sections(void)
{
    const struct coh_options *families[COH_SECTIONS_MAX];
    unsigned n_families = proto_sections(families);
    bool placed[COH_SECTIONS_MAX] = {0};
    size_t used = 0;
    for (size_t s = 0; s < ARRAY_LEN(machine_sections); s++) {
        if (machine_sections[s].opts) {
            add_section(machine_sections[s].name, machine_sections[s].opts, machine_sections[s].off,
                        NULL);
            continue;
        }
        for (unsigned f = 0; f < n_families; f++)
            if (!placed[f] && !strcmp(families[f]->section, machine_sections[s].name)) {
                add_family(families[f], &used);
                placed[f] = true;
            }
    }
    for (unsigned f = 0; f < n_families; f++)
        if (!placed[f])
            add_family(families[f], &used);
}

const struct cfg_opt *config_options(void)
{
    static struct cfg_opt *all;
    if (all)
        return all;
    lay_out_sections();
    size_t n = 0;
    for (size_t s = 0; s < n_sections; s++)
        for (const struct cfg_opt *o = sections[s].opts; o->name; o++)
            n++;
    all = calloc(n + 1, sizeof *all);
    if (!all)
        panic("out of memory");
    size_t k = 0;
    for (size_t s = 0; s < n_sections; s++)
        for (const struct cfg_opt *o = sections[s].opts; o->name; o++) {
            const char *section = sections[s].name;
            char *name = malloc(strlen(section) + strlen(o->name) + 2);
            if (!name)
                panic("out of memory");
            sprintf(name, "%s.%s", section, o->name);
            all[k] = *o;
            all[k].name = name;
            all[k].off += sections[s].off;
            k++;
        }
    return all;
}

const void *config_section(const struct config *c, const struct coh_options *family)
{
    config_options();
    for (size_t s = 0; s < n_sections; s++)
        if (sections[s].family == family)
            return (const char *)c + sections[s].off;
    panic("no protocol in the registry has the configuration section [%s]", family->section);
}

const char *config_default_file(void)
{
    static char path[4096];
    const char *root = getenv("GPUCOH_ROOT");
    snprintf(path, sizeof path, "%s/configs/tc-fermi.ini", root ? root : GPUCOH_SOURCE_DIR);
    return path;
}

const char *proto_promise(const struct proto_desc *p, unsigned model)
{
    if (p->needs_order && strcmp(p->needs_order, order_policy_names[model]))
        return NULL;
    return order_promise(order_policies[model], mem_model_names[p->model], p->write_atomic);
}

const char *config_promise(const struct config *c)
{
    const struct proto_desc *p = proto_find(c->coherence.protocol);
    if (!p)
        return NULL;
    return proto_promise(p, c->sm.order.model);
}

void config_write_atomic_list(char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = 0;
    for (const struct proto_desc *const *p = proto_registry; *p; p++)
        if ((*p)->write_atomic && n < len)
            n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? " " : "", (*p)->name);
}

#define BLAME_MAX_KEYS 8 /* keys one check names at most */

/* The option named `name`; a name no table has is a bug in a check. */
static size_t opt_index(const char *name)
{
    const struct cfg_opt *tab = config_options();
    const struct cfg_opt *o = cfg_find(tab, name);
    panic_if(!o, "a configuration check names an unknown key '%s'", name);
    return (size_t)(o - tab);
}

static bool from_set(const struct config *c, size_t i)
{
    return c->origin.line[i] == CONFIG_FROM_SET;
}

static bool from_file(const struct config *c, size_t i)
{
    return c->origin.line[i] && !from_set(c, i);
}

/* Whether the configuration file or a --set gave `key` a value (not its default). */
static bool was_set(const struct config *c, const char *key)
{
    return c->origin.line[opt_index(key)] != 0;
}

/* "FILE:LINE: " or "--set K=V: " for the first of keys[0..n) that was set
 * explicitly, preferring a --set (it came last). When every one has its
 * default (the check's other keys cannot have caused it), "default K=V: "
 * for the first: a check never reports without saying where a value came
 * from. */
static void blame_keys(const struct config *c, char *out, size_t len, const char *const *keys,
                       size_t n)
{
    const struct cfg_opt *tab = config_options();
    char value[CFG_STR_MAX + 32];
    const char *file_key = NULL;
    for (size_t k = 0; k < n; k++) {
        size_t i = opt_index(keys[k]);
        if (from_set(c, i)) {
            cfg_format(&tab[i], c, value, sizeof value);
            snprintf(out, len, "--set %s=%s: ", keys[k], value);
            return;
        }
        if (!file_key && from_file(c, i))
            file_key = keys[k];
    }
    if (file_key) {
        snprintf(out, len, "%s:%u: ", c->origin.file, c->origin.line[opt_index(file_key)]);
    } else if (n) {
        cfg_format(&tab[opt_index(keys[0])], c, value, sizeof value);
        snprintf(out, len, "default %s=%s: ", keys[0], value);
    } else {
        *out = 0;
    }
}

/* blame_keys over the NULL-terminated key names that follow `len`. */
static void blame(const struct config *c, char *out, size_t len, ...)
{
    const char *keys[BLAME_MAX_KEYS];
    size_t n = 0;
    const char *k;
    va_list ap;
    va_start(ap, len);
    while ((k = va_arg(ap, const char *)))
        if (n < BLAME_MAX_KEYS)
            keys[n++] = k;
    va_end(ap);
    blame_keys(c, out, len, keys, n);
}

/* blame_keys over a protocol check's answer (proto_desc.check: key names
 * separated by spaces), then coherence.protocol. */
static void blame_list(const struct config *c, char *out, size_t len, const char *list)
{
    char names[256];
    const char *keys[BLAME_MAX_KEYS];
    size_t n = 0;
    snprintf(names, sizeof names, "%s", list);
    for (char *save, *t = strtok_r(names, " ", &save); t && n + 1 < BLAME_MAX_KEYS;
         t = strtok_r(NULL, " ", &save))
        keys[n++] = t;
    keys[n++] = "coherence.protocol";
    blame_keys(c, out, len, keys, n);
}

static int cache_check(const struct config *c, const char *sec, const struct cache_spec *spec,
                       char *err, size_t errlen)
{
    char why[256], at[512], k_size[16], k_ways[16], k_line[16];
    if (!cache_spec_check(spec, why, sizeof why))
        return 0;
    snprintf(k_size, sizeof k_size, "%s.size", sec);
    snprintf(k_ways, sizeof k_ways, "%s.ways", sec);
    snprintf(k_line, sizeof k_line, "%s.line", sec);
    blame(c, at, sizeof at, k_size, k_ways, k_line, (char *)NULL);
    snprintf(err, errlen, "%s%s: %s", at, sec, why);
    return -1;
}

/* Core cycles one request may take on an idle machine, at the most: twice
 * through the L2's pipeline (a miss, then its fill), the network both ways
 * with its largest jitter and conflict delay and every mesh link, a DRAM
 * access opening a row, and the links between GPMs and GPUs both ways. */
static double slowest_request_cycles(const struct config *c)
{
    double core = c->gpu.core_mhz;
    const struct noc_spec *n = &c->noc;
    double noc = n->latency_cycles + n->jitter_cycles + n->conflict_cycles +
                 (double)n->link_cycles * (n->mesh_cols + n->mesh_rows);
    const struct dram_spec *d = &c->dram;
    double dram = (double)d->latency_cycles + d->jitter_cycles + d->tRP + d->tRCD + d->tCL;
    return core * (2.0 * (c->l2.latency_cycles + c->l2.jitter_cycles) / c->l2.mhz +
                   2.0 * noc / n->mhz + dram / d->mhz) +
           2.0 * (c->topology.gpm_link_cycles + c->topology.gpu_link_cycles);
}

/* The progress watchdogs stop a run as a deadlock (exit 3) when nothing
 * completes for sim.watchdog_cycles, or one warp waits sim.starvation_cycles;
 * a machine so slow that correct runs would look like that is refused here,
 * before it runs, saying which latency and which watchdog to change. A
 * watchdog given with --set is the user's to keep (tests set one tight on
 * purpose, to see the fault and its dump). The
 * margins: nothing completing for 8 unloaded round trips, and one request
 * waiting 32 of them behind others, are far beyond any correct run (the
 * default machine's round trip is about 750 core cycles). */
static int latency_check(const struct config *c, char *err, size_t errlen)
{
    static const char latency_keys[] =
        "l2.latency_cycles l2.jitter_cycles noc.jitter_cycles noc.latency_cycles "
        "dram.latency_cycles dram.jitter_cycles noc.conflict_cycles";
    double slowest = slowest_request_cycles(c);
    static const struct {
        const char *key;
        size_t off;
        unsigned margin;
        const char *what;
    } dogs[] = {
        {"sim.watchdog_cycles", offsetof(struct config, sim.watchdog_cycles), 8,
         "when no memory operation completes"},
        {"sim.starvation_cycles", offsetof(struct config, sim.starvation_cycles), 32,
         "when one warp waits"},
    };
    for (size_t i = 0; i < ARRAY_LEN(dogs); i++) {
        uint64_t limit = *(const uint64_t *)((const char *)c + dogs[i].off);
        if (!limit || limit >= dogs[i].margin * slowest || from_set(c, opt_index(dogs[i].key)))
            continue;
        char keys[256], at[640];
        snprintf(keys, sizeof keys, "%s %s", latency_keys, dogs[i].key);
        config_where(c, keys, at, sizeof at);
        snprintf(err, errlen,
                 "%sone memory request may take %.0f core cycles on this machine "
                 "(L2, network and DRAM latencies and jitter), and %s (%llu) stops a run as a "
                 "deadlock %s for that long; it must be at least %u such round trips (%.0f): "
                 "raise it (0 = off) or lower the latencies",
                 at, slowest, dogs[i].key, (unsigned long long)limit, dogs[i].what, dogs[i].margin,
                 dogs[i].margin * slowest);
        return -1;
    }
    return 0;
}

void config_view(const struct config *c, struct machine_view *v)
{
    memset(v, 0, sizeof *v);
    v->sim.seed = c->sim.seed;
    v->sim.starvation_cycles = c->sim.starvation_cycles;
    v->gpu.sms = c->gpu.sms;
    v->gpu.core_mhz = c->gpu.core_mhz;
    v->sm.warps = c->sm.warps;
    v->l1 = c->l1;
    v->l2 = c->l2;
    v->coherence.protocol = c->coherence.protocol;
    v->coherence.sleep = c->coherence.sleep;
    v->topology.gpus = c->topology.gpus;
    v->topology.gpms = c->topology.gpms;
    v->cpu.cores = c->cpu.cores;
    v->cpu.device = c->cpu.device;
    config_options();
    for (size_t s = 0; s < n_sections; s++)
        if (sections[s].family) {
            panic_if(v->n_sections == COH_SECTIONS_MAX, "more than %d protocol sections",
                     COH_SECTIONS_MAX);
            v->sections[v->n_sections++] =
                (struct coh_section){sections[s].family, (const char *)c + sections[s].off};
        }
}

/* Each protocol family's checks of its own section (coh/<p>/<p>_options.c), in
 * section order. */
static int family_checks(const struct config *c, const struct machine_view *v, char *err,
                         size_t errlen)
{
    for (size_t s = 0; s < n_sections; s++) {
        const struct coh_options *f = sections[s].family;
        char why[512], at[512];
        const char *keys = f && f->check ? f->check(v, why, sizeof why) : NULL;
        if (keys) {
            config_where(c, keys, at, sizeof at);
            snprintf(err, errlen, "%s%s", at, why);
            return -1;
        }
    }
    return 0;
}

static int cross_check(const struct config *c, char *err, size_t errlen)
{
    char at[512];
    if (latency_check(c, err, errlen))
        return -1;
    if (cache_check(c, "l1", &c->l1.cache, err, errlen) ||
        cache_check(c, "l2", &c->l2.cache, err, errlen))
        return -1;
    if (c->l1.cache.line_bytes != c->l2.cache.line_bytes) {
        blame(c, at, sizeof at, "l1.line", "l2.line", (char *)NULL);
        snprintf(err, errlen, "%sl1.line (%u) and l2.line (%u) must be equal", at,
                 c->l1.cache.line_bytes, c->l2.cache.line_bytes);
        return -1;
    }
    if (c->dram.row_bytes < c->l2.cache.line_bytes || c->dram.row_bytes % c->l2.cache.line_bytes) {
        blame(c, at, sizeof at, "dram.row_bytes", "l2.line", (char *)NULL);
        snprintf(err, errlen, "%sdram.row_bytes (%u) must be a multiple of the line size (%u)", at,
                 c->dram.row_bytes, c->l2.cache.line_bytes);
        return -1;
    }
    if (c->sm.threads % 32) {
        blame(c, at, sizeof at, "sm.threads", (char *)NULL);
        snprintf(err, errlen,
                 "%ssm.threads (%u) must be a multiple of 32 (resident threads come "
                 "in whole warps)",
                 at, c->sm.threads);
        return -1;
    }
    if (c->sm.warp_size != 32 && c->sm.warp_size != 64) {
        blame(c, at, sizeof at, "sm.warp_size", (char *)NULL);
        snprintf(err, errlen, "%ssm.warp_size (%u) must be 32 (warps) or 64 (wavefronts)", at,
                 c->sm.warp_size);
        return -1;
    }
    if (c->sm.warp_size == 64 && c->sm.warps > 32) {
        blame(c, at, sizeof at, "sm.warps", "sm.warp_size", (char *)NULL);
        snprintf(err, errlen,
                 "%ssm.warps (%u) must be at most 32 with sm.warp_size = 64 (each wavefront "
                 "slot holds two 32-thread PTX warps, 64 of those at most)",
                 at, c->sm.warps);
        return -1;
    }
    uint32_t op_lat[PTX_OPLAT_N];
    const char *op_key;
    char op_why[256];
    if (sm_opcode_latencies(&c->sm, op_lat, &op_key, op_why, sizeof op_why)) {
        blame(c, at, sizeof at, op_key, (char *)NULL);
        snprintf(err, errlen, "%s%s: %s", at, op_key, op_why);
        return -1;
    }
    if (!proto_find(c->coherence.protocol)) {
        blame(c, at, sizeof at, "coherence.protocol", (char *)NULL);
        size_t n = (size_t)snprintf(err, errlen,
                                    "%scoherence.protocol: unknown protocol '%s' "
                                    "(known:",
                                    at, c->coherence.protocol);
        for (const struct proto_desc *const *p = proto_registry; *p && n < errlen; p++)
            n += (size_t)snprintf(err + n, errlen - n, " %s", (*p)->name);
        if (n < errlen)
            snprintf(err + n, errlen - n, ")");
        return -1;
    }
    const struct topo_spec *tp = &c->topology;
    if (tp->gpus * tp->gpms == 1 && proto_find(c->coherence.protocol)->multi_gpm &&
        !was_set(c, "topology.gpus") && !was_set(c, "topology.gpms")) {
        /* on one GPM a multi-GPM protocol is rc with release rounds: it would run,
         * with nothing between GPMs to measure, on a machine nobody asked it for */
        blame(c, at, sizeof at, "coherence.protocol", (char *)NULL);
        snprintf(err, errlen,
                 "%scoherence.protocol = %s is a multi-GPM protocol, but the machine has one GPU "
                 "module: give it a [topology] of several GPUs or GPMs (configs/hmg-4x4.ini, "
                 "configs/hmg-scaled.ini), or set topology.gpus = 1 and topology.gpms = 1 "
                 "explicitly to run it on one GPM",
                 at, c->coherence.protocol);
        return -1;
    }
    if (tp->gpus * tp->gpms > 1 && !proto_find(c->coherence.protocol)->multi_gpm) {
        blame(c, at, sizeof at, "coherence.protocol", "topology.gpus", "topology.gpms",
              (char *)NULL);
        snprintf(
            err, errlen,
            "%scoherence.protocol = %s runs on one GPU of one GPM, not on topology.gpus = %u "
            "x topology.gpms = %u (multi-GPM protocols: nhcc hmg ideal-mg sw-nh sw-h nocache-mg)",
            at, c->coherence.protocol, tp->gpus, tp->gpms);
        return -1;
    }
    if (!is_pow2(tp->page_bytes) || tp->page_bytes < c->l2.cache.line_bytes) {
        blame(c, at, sizeof at, "topology.page_bytes", (char *)NULL);
        snprintf(err, errlen,
                 "%stopology.page_bytes (%u) must be a power of two of at least a line", at,
                 tp->page_bytes);
        return -1;
    }
    const struct order_spec *o = &c->sm.order;
    if (!is_pow2(o->sector_bytes) || o->sector_bytes < c->l1.cache.line_bytes) {
        blame(c, at, sizeof at, "order.sector_bytes", "l1.line", (char *)NULL);
        snprintf(err, errlen,
                 "%sorder.sector_bytes (%u) must be a power of two and at least l1.line (%u)", at,
                 o->sector_bytes, c->l1.cache.line_bytes);
        return -1;
    }
    if (o->mac_entries % o->mac_ways) {
        blame(c, at, sizeof at, "order.mac_ways", "order.mac_entries", (char *)NULL);
        snprintf(err, errlen, "%sorder.mac_ways (%u) must divide order.mac_entries (%u)", at,
                 o->mac_ways, o->mac_entries);
        return -1;
    }
    if (o->type_cache_entries % o->type_cache_ways) {
        blame(c, at, sizeof at, "order.type_cache_ways", "order.type_cache_entries", (char *)NULL);
        snprintf(err, errlen,
                 "%sorder.type_cache_ways (%u) must divide order.type_cache_entries (%u)", at,
                 o->type_cache_ways, o->type_cache_entries);
        return -1;
    }
    struct machine_view view;
    config_view(c, &view);
    if (family_checks(c, &view, err, errlen))
        return -1;
    const struct proto_desc *p = proto_find(c->coherence.protocol);
    char why[256];
    const char *keys = p->check ? p->check(&view, why, sizeof why) : NULL;
    if (keys) {
        blame_list(c, at, sizeof at, keys);
        snprintf(err, errlen, "%s%s: %s", at, p->name, why);
        return -1;
    }
    if (c->cpu.cores && !p->cpu_l1) {
        blame(c, at, sizeof at, "cpu.cores", "coherence.protocol", (char *)NULL);
        snprintf(err, errlen,
                 "%scpu.cores = %u needs a protocol with CPU devices (spandex-d, "
                 "spandex-g); coherence.protocol = %s has none",
                 at, c->cpu.cores, p->name);
        return -1;
    }
    if (c->cpu.cores && tp->gpus * tp->gpms > 1) {
        blame(c, at, sizeof at, "cpu.cores", "topology.gpus", "topology.gpms", (char *)NULL);
        snprintf(err, errlen,
                 "%sCPU cores sit beside one GPU of one GPM (cpu.cores = %u with "
                 "topology.gpus x topology.gpms = %u)",
                 at, c->cpu.cores, tp->gpus * tp->gpms);
        return -1;
    }
    if (p->transactional && c->sm.warp_size != 32) {
        blame(c, at, sizeof at, "sm.warp_size", "coherence.protocol", (char *)NULL);
        snprintf(err, errlen,
                 "%scoherence.protocol = %s runs transactions in 32-thread warps: "
                 "sm.warp_size must be 32",
                 at, p->name);
        return -1;
    }
    if (p->transactional && c->l2.write_ack != L2_ACK_PERFORMED) {
        blame(c, at, sizeof at, "l2.write_ack", "coherence.protocol", (char *)NULL);
        snprintf(err, errlen,
                 "%scoherence.protocol = %s releases a commit's reservations once "
                 "it is written: l2.write_ack must be performed",
                 at, p->name);
        return -1;
    }
    if (p->transactional && c->l2.cache.line_bytes > 4 * 32) {
        blame(c, at, sizeof at, "l2.line", "coherence.protocol", (char *)NULL);
        snprintf(err, errlen,
                 "%scoherence.protocol = %s validates 32-byte granules, at most 4 "
                 "per line: l2.line (%u) must be at most 128",
                 at, p->name, c->l2.cache.line_bytes);
        return -1;
    }
    if (p->needs_order && strcmp(p->needs_order, order_policy_names[c->sm.order.model])) {
        blame(c, at, sizeof at, "order.model", "coherence.protocol", (char *)NULL);
        snprintf(err, errlen,
                 "%scoherence.protocol = %s needs order.model = %s (its promise rests on that "
                 "issue rule), not %s",
                 at, p->name, p->needs_order, order_policy_names[c->sm.order.model]);
        return -1;
    }
    if (!config_promise(c)) {
        char list[256];
        config_write_atomic_list(list, sizeof list);
        blame(c, at, sizeof at, "order.model", "coherence.protocol", (char *)NULL);
        snprintf(err, errlen,
                 "%sorder.model = %s needs a write-atomic protocol and coherence.protocol = %s is "
                 "not one (one reader could see a performed write while another still reads the "
                 "old value, so %s could not be promised); write-atomic protocols: %s",
                 at, order_policy_names[c->sm.order.model], c->coherence.protocol,
                 order_policies[c->sm.order.model]->promise, list);
        return -1;
    }
    return 0;
}

/* Print a line about the configuration once per process (a sweep or compare
 * loads the same configuration many times). */
static void note_once(const char *line)
{
    static char last[256];
    if (!strcmp(last, line))
        return;
    snprintf(last, sizeof last, "%s", line);
    fprintf(stderr, "gpucoh: %s\n", line);
}

/* A protocol that keeps its promise under one memory model only (rccsc: sc;
 * rc, tcw, rccwo: rmo) takes that model when the user did not choose another
 * for it: when order.model is the default, or comes from the configuration
 * file while the protocol came from a later --set (--protocol). A model given
 * with the protocol (in the same file) or after it (a --set) stands, and
 * cross_check refuses the combination with its reason. */
static void take_required_model(struct config *c)
{
    const struct proto_desc *p = proto_find(c->coherence.protocol);
    size_t model_key = opt_index("order.model"), proto_key = opt_index("coherence.protocol");
    if (!p || proto_promise(p, c->sm.order.model) || from_set(c, model_key) ||
        (from_file(c, model_key) && !from_set(c, proto_key)))
        return;
    int required = -1;
    for (int m = 0; order_policy_names[m]; m++)
        if (proto_promise(p, (unsigned)m)) {
            if (required >= 0)
                return; /* several models: the user's choice among them is not ours */
            required = m;
        }
    if (required < 0)
        return;
    c->sm.order.model = (uint32_t)required;
    char line[160];
    snprintf(line, sizeof line, "%s: order.model = %s (the model it requires)", p->name,
             order_policy_names[required]);
    note_once(line);
}

/* Load from a file or from text (name = where the text came from). */
static int load(struct config *c, const char *file, const char *text, const char *const *sets,
                unsigned n_sets, char *err, size_t errlen)
{
    const struct cfg_opt *tab = config_options();
    size_t n_opts = 0;
    while (tab[n_opts].name)
        n_opts++;
    panic_if(n_opts > CONFIG_OPTS_MAX, "%zu options, CONFIG_OPTS_MAX is %d", n_opts,
             CONFIG_OPTS_MAX);
    memset(c, 0, sizeof *c);
    cfg_defaults(tab, c);
    snprintf(c->origin.file, sizeof c->origin.file, "%s", file ? file : "");
    int rc = 0;
    if (text)
        rc = cfg_parse_ini(tab, c, file, text, c->origin.line, err, errlen);
    else if (file)
        rc = cfg_load_ini(tab, c, file, c->origin.line, err, errlen);
    for (unsigned i = 0; i < n_sets && !rc; i++) {
        rc = cfg_set_assignment(tab, c, sets[i], err, errlen);
        size_t k = strcspn(sets[i], "=");
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(k < sizeof name ? k : sizeof name - 1), sets[i]);
        const struct cfg_opt *o = cfg_find(tab, name);
        if (o)
            c->origin.line[o - tab] = CONFIG_FROM_SET;
    }
    if (!rc)
        take_required_model(c);
    if (!rc)
        rc = cross_check(c, err, errlen);
    return rc;
}

int config_load(struct config *c, const char *file, const char *const *sets, unsigned n_sets,
                char *err, size_t errlen)
{
    return load(c, file, NULL, sets, n_sets, err, errlen);
}

int config_parse(struct config *c, const char *name, const char *text, char *err, size_t errlen)
{
    return load(c, name, text, NULL, 0, err, errlen);
}

const char *config_where(const struct config *c, const char *keys, char *out, size_t len)
{
    char names[256];
    const char *list[BLAME_MAX_KEYS];
    size_t n = 0;
    snprintf(names, sizeof names, "%s", keys);
    for (char *save, *t = strtok_r(names, " ", &save); t && n < BLAME_MAX_KEYS;
         t = strtok_r(NULL, " ", &save))
        list[n++] = t;
    blame_keys(c, out, len, list, n);
    return out;
}
