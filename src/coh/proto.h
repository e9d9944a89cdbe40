/*
 * proto.h - the protocol descriptor: what the machine builder, the CLI and
 * the validation tools know about a protocol.
 *
 * A protocol names the memory model it promises (the litmus oracle it is
 * judged by), its virtual networks, its controller tables (for printing and
 * coverage), and constructors for its L1 and L2 controllers. Controllers are
 * components; they reach the rest of the machine only through the ports they
 * are connected to. Ordering hooks (acquire, release, fence, kernel begin and
 * end) arrive at the L1 as requests on the core port (mem_req op
 * MEM_FENCE/MEM_KERNEL_*, or a load/store with acquire/release semantics),
 * so that each protocol decides what they cost and answers when done.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef COH_PROTO_H
#define COH_PROTO_H

#include "coh/coh.h"
#include "mem/backing.h"
#include "sim/port.h"

struct coh_options;
struct machine_view;
struct observer;
struct pagemap;

#define VNET_MAX 6

/* What every controller is built from. */
struct ctrl_wiring {
    struct eng *eng;
    const struct clock *clk; /* its clock domain */
    struct pool *msgs;       /* the machine's message pool */
    const struct machine_view *cfg;
    const char *name; /* "gpu.sm[3].l1", "l2[5]" */
    unsigned index;   /* SM or bank index */
    unsigned n_sms, n_banks;
    struct coh_cov *cov;   /* coverage, one per table of the protocol, in table order */
    struct backing *store; /* only for the idle-time host access (dma) */
    struct observer *obs;  /* invariant observer (--check), or NULL */
    /* --- several GPMs (proto_desc.multi_gpm; zero on one GPM) --- */
    unsigned gpm;          /* this controller's GPM: gpu * topology.gpms + module */
    struct pagemap *pages; /* first-touch placement of pages on GPMs */
    void *proto_ctx;       /* the machine's protocol context (proto_desc.attach), or NULL */
};

/* Where a controller's messages go and come from. */
struct ctrl_links {
    struct port *to_core;            /* L1: responses to the SM */
    struct port *net_out[VNET_MAX];  /* into the crossbar, per vnet */
    struct port *net_in[VNET_MAX];   /* out of the crossbar, per vnet */
    struct port *to_mem;             /* L2: requests to DRAM */
    struct port *to_unit;            /* L1: to the protocol's central unit (NULL: none) */
    struct port *from_unit;          /* L1: from it */
    struct port *sys_out[VNET_MAX];  /* L2 of a multi-GPM protocol: into the network between
                                        GPMs' banks (noc/sysnet), per vnet */
    struct port *sys_in[VNET_MAX];   /* ... and out of it */
    struct port *peer_out[VNET_MAX]; /* L1 of a protocol whose L1s message each other
                                        (proto_desc.l1_peers): into its GPM's L2 -> L1
                                        network, to another L1, per vnet; NULL: none */
};

struct ctrl_ops {
    struct comp *(*create)(const struct ctrl_wiring *w);
    void (*connect)(struct comp *c, const struct ctrl_links *l);
    struct port *(*in_port)(struct comp *c); /* L1: from the SM; L2: from DRAM */
    void (*destroy)(struct comp *c);
    /* L2 only: host access while the machine is idle (between kernels): read
     * (wmask NULL) or write the masked bytes of one line, wherever the
     * protocol keeps its current value (its L2 line, else the backing
     * store). An audited exception to message passing, like the backing
     * store: the host's copies are not what the protocols are compared on. */
    void (*dma)(struct comp *c, addr_t line, uint8_t *buf, const struct bytemask *wmask);
    /* Observer (tests, invariant checks; never used by the model): the line's
     * state as an index into the controller's table; when `data` is not
     * NULL, the line's bytes if the controller holds them, and whether it
     * did in *has_data (a state such as a miss in flight may hold none). */
    unsigned (*peek)(struct comp *c, addr_t line, uint8_t *data, bool *has_data);
    /* Optional statistics: name/value pairs through a callback. */
    void (*stats)(struct comp *c, void (*emit)(void *arg, const char *name, uint64_t v), void *arg);
};

/* A protocol's central unit, one per GPU beside the L1s and banks (STC's
 * epoch management unit): a component linked to every L1 by one port each
 * way, on its own clock. */
struct unit_ops {
    struct comp *(*create)(const struct ctrl_wiring *w);
    /* to_l1[i] carries its messages to L1 i, from_l1[i] L1 i's to it. */
    void (*connect)(struct comp *c, struct port *const *to_l1, struct port *const *from_l1);
    void (*destroy)(struct comp *c);
    void (*stats)(struct comp *c, void (*emit)(void *arg, const char *name, uint64_t v), void *arg);
    /* Its clock (MHz) and the latency of one hop to or from an L1 (core cycles). */
    double (*mhz)(const struct machine_view *cfg);
    uint32_t (*link_cycles)(const struct machine_view *cfg);
};

/* Symmetry over the L1s (`gpucoh verify --symmetry on`, docs/verify.md "Search,
 * bounds and symmetry"): what names an L1 in the protocol's state beyond the
 * explorer's own per-L1 arrays, so that a relabelling of the L1s can relabel
 * it. Every message type of the protocol is listed as sent by an L1 (src the
 * L1's index, dst the bank) or by the bank (dst the L1's index); the explorer
 * stops with a fault on a type in neither, never leaving one unrelabelled.
 * Describing a protocol asserts that its controllers treat every L1 alike:
 * nothing but these fields and each L1's own index (which only stamps src)
 * tells them apart. Read only by the explorer; the simulation ignores it. */
#define PROTO_MSG_BIT(type) (1ull << ((type)-MSG_PROTO_BASE))
struct proto_symmetry {
    uint64_t up, down;  /* PROTO_MSG_BIT(type): the type's sender is an L1 / the bank */
    uint64_t up_sharer; /* ... the type's sender is the L1 its `sharer` names (src and dst
                           unused: STC's messages to its central unit) */
    bool l2_sharers;    /* the bank's lines keep a sharer vector in meta[0], meta[1] */
    bool dir_sharers;   /* ... its directory's entries do (gpuvini's vi_bank.dir) */
    /* What Spandex adds (docs/verify.md, "Spandex under the reduction"); zero elsewhere.
     * Types the bank passes on from one L1 to another (a predicted request) travel
     * both ways: their direction is their vnet's, bank to L1 on the vnets of
     * down_vnets (bit v: vnet v), L1 to bank on the others. */
    uint64_t passed;
    uint32_t down_vnets;
    /* What a type's `sharer` names: an L1's index (sharer_l1), or index + 1 with 0
     * the bank (sharer_l1p1); a type also in sharer_when names one only when its
     * flags hold a bit of sharer_flags (else the word is 0, unread). With either
     * set, any other type's nonzero sharer stops the search with a fault. */
    uint64_t sharer_l1, sharer_l1p1, sharer_when;
    uint16_t sharer_flags;
    /* Types whose request may be that of the L1 their sharer names (a request
     * forwarded to an owner keeps its requester's SM; put_ends_relabelled) */
    uint64_t sm_sharer;
    bool l2_sharers1;     /* the bank's lines keep a sharer vector in meta[1] (not meta[0]) */
    unsigned only_l1s;    /* 0: any number of L1s; else only this many are symmetric */
    const char *only_why; /* why not on another number */
    /* Its controllers never read a data value: they copy data, merge it under byte
     * masks and apply atomics whose outcome does not depend on the values (the
     * explorer's exchange), so relabelling the stores' values, everywhere at once,
     * is a symmetry too (`--symmetry values`, docs/verify.md). */
    bool data_blind;
    /* Multi-GPM: what is relabelled is a GPM, its L1 and its bank together, and a
     * message by where it is (between banks: src and dst name GPMs; between an L1
     * and its bank: indices within the GPM), not by type (up, down unused); on
     * several GPUs only the relabellings that keep the GPU structure, each L1
     * with its GPM (docs/verify.md, "The multi-GPM protocols under the reduction"). */
    bool gpms;
};

/* How `gpucoh verify` reads and judges the protocol beyond what every protocol
 * shares (docs/verify.md): the time it exposes to the explorer as a bounded
 * nondeterministic input, what its lines' and TBEs' meta words hold, which of
 * its states hold a way whose bytes are not yet data, and the few checks
 * particular to it. A protocol joins the explorer by describing itself here
 * (and, for symmetry, in proto_symmetry); the explorer knows no protocol by
 * name. Read only by the explorer; the simulation ignores it. */
enum proto_time {
    PROTO_TIME_NONE,    /* it decides nothing by time */
    PROTO_TIME_LEASES,  /* leases in core cycles (TC): the explorer's tick moves time a tick */
    PROTO_TIME_LOGICAL, /* logical clocks moved by its messages, and a livelock guard that
                           moves every L1's clock by one a period (RCC): the tick is the
                           guard's */
    PROTO_TIME_PERIOD,  /* a central unit that wakes once a period (STC's EMU): the tick is
                           its period */
};
/* What a meta word (struct cache_line, struct tbe) holds. */
enum proto_word {
    PROTO_WORD_PLAIN,   /* a value (a bit, a sharer vector, a writer): written as is */
    PROTO_WORD_UNREAD,  /* read by nobody (a statistic): left out */
    PROTO_WORD_EXPIRY,  /* a time in core cycles compared only with now, or maxed with a time
                           still running: once passed, only "expired" */
    PROTO_WORD_ORDERED, /* a time in core cycles that, once passed, may still be compared with
                           another passed time: written by its rank among them */
    PROTO_WORD_LOGICAL, /* a logical time (PROTO_TIME_LOGICAL): only compared, maxed and
                           offset, so written relative to the state's smallest */
};
struct proto_verify {
    enum proto_time time;
    /* Meta words 0..2 of an L1's and a bank's lines, 0..1 of their TBEs (zero: plain). */
    uint8_t l1_line[3], l2_line[3]; /* enum proto_word */
    uint8_t l1_tbe[2], l2_tbe[2];
    /* The L1's and the bank's states (names, space-separated) of a way taken
     * for a miss whose fill will overwrite the whole line: until then its
     * bytes are whatever the way held before (cache_install keeps them), which
     * nobody reads, so the digest leaves them out (docs/verify.md, "How a
     * state is captured"). NULL: every present line's bytes are its data. */
    const char *l1_unfilled, *l2_unfilled;
    /* Leases: the L1's states (names) of a copy that holds one (PROTO_TIME_LEASES:
     * checked by lease_exclusive; PROTO_TIME_LOGICAL: judged up to its lease end),
     * and the bank's states whose meta words are set (PROTO_TIME_LOGICAL: the
     * others' are left out). */
    const char *l1_leased, *l2_leased;
    bool lease_exclusive; /* a write is performed only when no L1 holds a lease on its line
                             (TC-Strong): checked at every write */
    bool writer_fence;    /* not write-atomic: once a core's fence completes, its earlier
                             writes are the oldest values any core's later load may return
                             (TC-Weak's GWCT), rather than a reader's fence bounding what it
                             reads */
    bool two_clocks;      /* PROTO_TIME_LOGICAL: each L1 keeps a read and a write clock
                             (RCC-WO), both in its state */
    bool vi_bank;         /* its banks are struct vi_bank (coh/vi/vi_bank.h), whose invalidation
                             queue and sparse directory are state outside struct ctrl */
    bool device_mix;      /* Spandex: an LLC with device L1s mixed by --devices, read through
                             verify/verify_spandex.h */
    /* device_mix: the device (--devices) of the protocol's own L1s, which come first,
     * and the CPU devices (cpu.device, space-separated) that may follow them */
    const char *own_device, *cpu_devices;
    /* The rig's settings of the protocol's own keys (docs/verify.md, "The rig"):
     * `key=value`, NULL-terminated, applied after the rig's generic ones (a timed
     * protocol's gpu.core_mhz = 1 among them) and before the user's --set. A value
     * may name the explorer's bounds, which the rig puts in their place: {tick}, one
     * tick of its time in core cycles; {lease}, --lease; {lease_ticks}, --lease
     * ticks in core cycles. NULL: none. */
    const char *const *rig_sets;
    bool lease_pow2; /* --lease must be a power of two (RCC's predictor doubles its leases) */
    /* NULL when the explorer can drive the protocol on this configuration, else why
     * not (a choice it cannot enumerate, say). NULL hook: every configuration. */
    const char *(*unexplorable)(const struct machine_view *c);
};

enum mem_model { MODEL_PTX, MODEL_SC, MODEL_N };
extern const char *const mem_model_names[MODEL_N];

struct proto_desc {
    const char *name;        /* command-line name: "rc" */
    const char *title;       /* one line */
    bool test_only;          /* a deliberately broken variant for testing the checkers:
                                never in "all", marked in listings */
    enum mem_model model;    /* what litmus outcomes are judged against (under order.model
                                = rmo; stronger SM models promise more, config_promise) */
    bool write_atomic;       /* a performed write is visible to every reader at once (no
                                reader sees it while another can still read the old value):
                                what TSO and SC in the SM need to keep their promise */
    const char *needs_order; /* NULL, or the one order.model the protocol runs under (rccsc:
                                sc; its promise rests on the SM's issue rule) */
    bool logical_time;       /* a performed write is visible only to readers that synchronised
                                with its writer through memory (RCC), not to every reader
                                after it in physical time */
    /* logical_time protocols, for the spin watchdog (an observer, docs/design.md): the
     * largest lease end an L2 bank has granted SM `sm`'s L1 so far (those in flight
     * included), and whether that L1's clock has passed a mark (so that no copy granted
     * by then can hit any more). NULL: the watchdog is off for the protocol. */
    uint64_t (*lease_mark)(struct comp *l2, unsigned sm);
    bool (*lease_passed)(struct comp *l1, uint64_t mark);
    /* The protocol's own limits on a configuration (config_load calls it after
     * the generic checks): NULL when it can build this machine, else the keys
     * at fault separated by spaces, the one to change first ("gpu.sms", "tc.lease
     * sim.starvation_cycles"; the error names where the first set of them was
     * set, coherence.protocol after them), with what is wrong in `why`. NULL
     * hook: no limits. */
    const char *(*check)(const struct machine_view *c, char *why, size_t len);
    /* Its family's section of the configuration (coh/options.h: [tc] for tcs, tcw
     * and their test variants): the machine's configuration takes its rows and
     * checks from the registry's descriptors. NULL: the protocol has no options. */
    const struct coh_options *options;
    bool transactional; /* runs hardware transactions (gpucoh_tx_begin/commit): the SMs
                           stamp transactional requests (docs/transactions.md) */
    bool lazy_tm;       /* transactions are validated lazily, by value, at commit
                           (WarpTM), not eagerly by timestamps (GETM) */
    bool not_in_all;    /* outside transactions it is another protocol of "all" (warptm
                           is getm's rc): "all" skips it */
    bool example;       /* a minimal protocol showing how one is built (coh/template,
                           docs/adding-a-protocol.md): "all" skips it, listings mark it */
    const char *uncut;  /* why its machine is one partition (a zero-latency shortcut
                           between the parts docs/parallel.md would cut), or NULL */
    bool multi_gpm;     /* runs on a machine of several GPMs or GPUs (topology.*): its
                           L2 banks also talk to other GPMs' banks (struct ctrl_links's
                           sys_out/sys_in) */
    unsigned n_vnets;
    const char *const *vnet_names;
    const struct coh_table *const *tables; /* NULL-terminated; L1 tables first */
    unsigned n_l1_tables;                  /* how many of `tables` belong to the L1 */
    struct ctrl_ops l1, l2;
    struct unit_ops unit; /* .create NULL: no central unit */
    /* The CPU cores' L1 (cpu.cores > 0, docs/cpu.md) under this configuration
     * (cpu.device), and in *table the index in `tables` of its table. NULL:
     * the protocol has no CPU device. */
    const struct ctrl_ops *(*cpu_l1)(const struct machine_view *cfg, unsigned *table);
    /* Whether its L1s send each other messages directly under this configuration
     * (Spandex's owners answering requesters, fcs.l1_to_l1): every L1 is then a
     * source of its GPM's L2 -> L1 network too, reached through ctrl_links's
     * peer_out (gpucoh verify: a channel per pair of L1s). NULL: never. */
    bool (*l1_peers)(const struct machine_view *cfg);
    /* The protocol's own columns of the time series (--stats-series,
     * docs/stats.md), after the machine-wide ones: n_series names, and an L2
     * bank's values at this moment (levels, not counts; the series sums them
     * over the banks). An observer: it changes nothing. 0/NULL: none. */
    unsigned n_series;
    const char *const *series_names;
    void (*series)(struct comp *l2, uint64_t *values);
    /* The protocol's per-machine context (its invariant observer's state, say):
     * the builder of a machine (or of gpucoh verify's rig) calls attach once,
     * before its controllers, with the wiring they will get (eng, cfg, n_sms,
     * n_banks, obs set), hands the result to every controller and unit in
     * ctrl_wiring.proto_ctx, and calls detach with it after destroying them.
     * State found by this pointer, not by a registry keyed on the engine. NULL
     * attach: no context (proto_ctx NULL); attach may return NULL too. */
    void *(*attach)(const struct ctrl_wiring *w);
    void (*detach)(void *ctx);
    /* What names an L1 in its state, for the explorer's symmetry reduction.
     * NULL: not described, and `gpucoh verify --symmetry on` explores it whole. */
    const struct proto_symmetry *symmetry;
    /* How the explorer reads and judges it (struct proto_verify). NULL: no time,
     * plain meta words, nothing particular. */
    const struct proto_verify *verify;
};

/* Every protocol gpucoh implements, NULL-terminated: one line each in
 * coh/registry.def. */
extern const struct proto_desc *const proto_registry[];
const struct proto_desc *proto_find(const char *name);
/* The protocol families' configuration sections (proto_desc.options), each
 * once, in registry order, into out[COH_SECTIONS_MAX]; returns how many. */
unsigned proto_sections(const struct coh_options **out);

#endif
