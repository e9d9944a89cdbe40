/*
 * config.h - the machine configuration: one section per component.
 *
 * Each component declares its own spec struct and option table (rows relative
 * to that struct); this file composes them into one struct and one flat
 * option table with "section.key" names (a protocol family's section comes
 * from the protocol registry, proto_desc.options, and is stored in
 * coh_sections), which INI files and --set fill and
 * `gpucoh config show` prints. Defaults are the GPU of specs 001/002/004a
 * (configs/tc-fermi.ini restates them explicitly).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef SYSTEM_CONFIG_H
#define SYSTEM_CONFIG_H

#include <limits.h>
#include <stddef.h>

#include "dram/dram.h"
#include "gpu/sm.h"
#include "mem/cache.h"
#include "noc/xbar.h"
#include "coh/machine_view.h"
#include "coh/options.h"
#include "sim/cfg.h"

struct sim_spec {
    uint64_t seed;              /* every random stream derives from it */
    uint64_t watchdog_cycles;   /* core cycles without a completion before exit 3; 0 = off */
    uint64_t starvation_cycles; /* core cycles one memory instruction may wait; 0 = off */
    uint64_t max_cycles;        /* stop a kernel after this many core cycles; 0 = no limit;
                                   CFG_AUTO = SIM_AUTO_CYCLES_PER_WAVE per wave */
    uint64_t max_insts;         /* stop a kernel after this many warp instructions; 0 = no
                                   limit; CFG_AUTO = SIM_AUTO_INSTS_PER_WARP per warp */
    uint64_t spin_cycles;       /* core cycles without a store, atomic, new loaded value or
                                   finished warp before exit 3; 0 = off */
    uint32_t partitions;        /* enum sim_partitions */
};

/* sim.partitions: one engine, or a queue per partition run by the merge
 * executor (docs/parallel.md, step 1) */
enum sim_partitions { SIM_PARTITIONS_ONE, SIM_PARTITIONS_MAX };
extern const char *const sim_partitions_names[]; /* NULL-terminated */

/* The automatic runaway limits: generous for any kernel that ends, and
 * scaled to the launch so that a small launch that cannot end stops soon.
 * The longest one-wave run measured, stn at size small under rccsc, takes
 * 211 M core cycles (2^27 stopped it); the spin watchdog, not these, is what
 * stops the usual runaway (a spin that cannot end). */
#define SIM_AUTO_CYCLES_PER_WAVE (1ull << 29)
#define SIM_AUTO_INSTS_PER_WARP  (1ull << 24)

struct gpu_spec {
    uint32_t sms;    /* SMs per GPU */
    double core_mhz; /* SM and L1 clock */
};

/* struct l1_spec, struct l2_spec and their enums: coh/machine_view.h (the
 * controllers read them); their option rows are here. */
extern const char *const cache_index_names[];   /* NULL-terminated */
extern const char *const l1_issue_names[];      /* NULL-terminated */
extern const char *const l1_merge_full_names[]; /* NULL-terminated */
extern const char *const l2_write_ack_names[];  /* NULL-terminated */

struct coh_spec {
    char protocol[CFG_STR_MAX]; /* registry name */
    bool sleep;                 /* controllers sleep while stalled on a full port (false:
                                   they tick every cycle; same statistics) */
};

/* The machine's hierarchy (spec 004b §2.1; docs/multi-gpu.md): GPUs of GPU
 * modules (GPMs), each GPM with gpu.sms SMs, its crossbar (noc.*), l2.banks
 * L2 banks and as many DRAM channels. One GPU of one GPM is the flat GPU of
 * every other protocol. Link bandwidths are per direction. */
struct topo_spec {
    uint32_t gpus;            /* GPUs, linked through a switch */
    uint32_t gpms;            /* GPMs per GPU, linked pairwise */
    double gpm_link_gbs;      /* GB/s per direction between two GPMs of a GPU */
    uint32_t gpm_link_cycles; /* core cycles from one GPM's L2 to another's */
    double gpu_link_gbs;      /* GB/s per direction between two GPUs (through the switch) */
    uint32_t gpu_link_cycles; /* core cycles from one GPU's L2 to another's */
    uint32_t page_bytes;      /* placement granule: a page lives at its first toucher's GPM */
};

/* CPU cores beside the GPU (spec 003 §3, Table 2; docs/cpu.md): in-order
 * cores, each running one thread of a PTX kernel launched on the CPU, on
 * their own clock, each with an L1 of the [l1] geometry (Table 2 gives CPU
 * and GPU L1s the same size) on the GPU's network, one per mesh node beside
 * the SM of the same index. */
struct cpu_spec {
    uint32_t cores;        /* 0: no CPU */
    double mhz;            /* CPU core and L1 clock */
    uint32_t store_buffer; /* TSO store-buffer entries (lines) per core */
    uint32_t device;       /* enum cpu_device: the coherence of the CPU L1s */
    uint32_t order;        /* enum cpu_order: the cores' memory ordering */
    uint32_t store_drain;  /* enum cpu_store_drain: stores in flight from the buffer */
};
enum cpu_order { CPU_ORDER_TSO, CPU_ORDER_RMO };
enum cpu_store_drain { CPU_DRAIN_SERIAL, CPU_DRAIN_PARALLEL };
extern const char *const cpu_order_names[], *const cpu_store_drain_names[];

/* enum cpu_device (which L1 the CPU cores have on Spandex): coh/machine_view.h. */
extern const char *const cpu_device_names[]; /* NULL-terminated: "denovo", "mesi" */

/* Where each option got its value, kept with the values so that a check made
 * after loading (a kernel launched on an SM it does not fit) names the key's
 * file:line or --set, as the checks made while loading do. */
#define CONFIG_OPTS_MAX       256      /* options of all sections (config_options panics past it) */
#define CONFIG_FROM_SET       UINT_MAX /* line[] of an option a --set assigned last */
#define CONFIG_SECTIONS_BYTES 4096     /* the protocol families' spec structs, all together */
struct config_origin {
    char file[512];                 /* the configuration file ("" none) */
    unsigned line[CONFIG_OPTS_MAX]; /* per option (config_options' order): its line in file,
                                       CONFIG_FROM_SET, or 0 = its default */
};

struct config {
    struct sim_spec sim;
    struct gpu_spec gpu;
    struct sm_spec sm;
    struct l1_spec l1;
    struct l2_spec l2;
    struct noc_spec noc;
    struct dram_spec dram;
    struct coh_spec coherence;
    struct topo_spec topology;
    struct cpu_spec cpu;
    /* the protocol families' sections ([tc], [stc], ...): each family's spec
     * struct, laid out when the option table is composed (config_section) */
    _Alignas(max_align_t) unsigned char coh_sections[CONFIG_SECTIONS_BYTES];
    struct config_origin origin; /* not a setting: where the ones above came from */
};

/* The composed option table (built once, never freed). */
const struct cfg_opt *config_options(void);

/* Defaults, then the file (if any), then the assignments, in order. Then
 * cross-checks (cache geometry, line sizes agree, protocol exists, ...), each
 * naming the file:line (or --set) of the key at fault. Returns 0 or -1 with
 * "file:line: ..." or "--set ...: ..." in err. */
int config_load(struct config *c, const char *file, const char *const *sets, unsigned n_sets,
                char *err, size_t errlen);

/* The same for INI text in memory (`name` is used in messages). */
int config_parse(struct config *c, const char *name, const char *text, char *err, size_t errlen);

/* "FILE:LINE: ", "--set K=V: " or "default K=V: " (with a trailing space) for
 * the first of `keys` (option names separated by spaces, the one to change
 * first) that the file or a --set gave a value, a --set first; the first key's
 * default when none was set. For errors found after loading. */
const char *config_where(const struct config *c, const char *keys, char *out, size_t len);
/* The memory model the machine promises programs ("ptx", "tso", "sc"): the
 * SM's order.model combined with the protocol (order_promise). NULL when
 * the combination cannot keep a promise (config_load refuses it). */
const char *config_promise(const struct config *c);
/* What protocol p promises under order model `model` (an index of
 * order_policies): order_promise, and NULL when p needs another model. */
struct proto_desc;
const char *proto_promise(const struct proto_desc *p, unsigned model);
/* The write-atomic protocols' names, space-separated, into buf. */
void config_write_atomic_list(char *buf, size_t len);

/* c's section of a protocol family (its spec struct: a struct tc_spec for
 * &tc_options). A family the registry does not name is a bug. */
const void *config_section(const struct config *c, const struct coh_options *family);

/* The view of c the protocols read (coh/machine_view.h): its machine-wide
 * values and every protocol family's section, pointing into c. */
void config_view(const struct config *c, struct machine_view *v);

/* The default configuration file (configs/tc-fermi.ini in the source tree). */
const char *config_default_file(void);

#endif
