/*
 * sfr.h - a draw-level model of split-frame rendering on several GPUs.
 *
 * Thesis Chapter 6 (CHOPIN) as spec 004b §3-§5 proposes it: a discrete-event
 * model on gpucoh's engine, not a raster pipeline. GPUs, the draw-command
 * scheduler and the image-composition scheduler are components; they talk
 * only through messages on ports behind point-to-point links (noc/p2p.h).
 * Each GPU runs a command list the driver built for the design and charges
 * time per draw from the trace (geometry cycles per triangle, shaded pixels
 * over the fragment rate); composition charges the receiving GPU's ROPs.
 * Every design also renders the synthetic tile image (gfx/image.h), whose
 * values travel in the messages, so its final frame can be compared with the
 * sequential rendering. Model and parameters: docs/chopin.md.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef GFX_SFR_H
#define GFX_SFR_H

#include "gfx/image.h"
#include "gfx/trace.h"
#include "sim/cfg.h"

#define SFR_MAX_GPUS 16

enum sfr_design {
    SFR_DUP,          /* primitive duplication (the baseline) */
    SFR_GPUPD,        /* GPUpd: projection + sequential primitive-ID exchange */
    SFR_GPUPD_IDEAL,  /* ... with ideal links and unlimited runahead */
    SFR_CHOPIN,       /* CHOPIN, direct-send composition */
    SFR_CHOPIN_CS,    /* CHOPIN + the image-composition scheduler */
    SFR_CHOPIN_IDEAL, /* CHOPIN + CompSched with ideal links and buffers */
    SFR_N_DESIGNS
};
extern const char *const sfr_design_names[SFR_N_DESIGNS];
int sfr_design_find(const char *name);

/* How the GPUs are joined (link.topology). */
enum sfr_topology {
    SFR_LINK_PAIRS,  /* a link per ordered GPU pair (Table 6.2) */
    SFR_LINK_SWITCH, /* one port per GPU and direction into a switch (an ablation) */
};
extern const char *const sfr_topology_names[]; /* "pairs", "switch", NULL */

/* Table 6.2 and the parameters the thesis leaves open (spec 004b §8 item 17). */
struct sfr_config {
    uint32_t gpus;
    double mhz;                   /* GPU clock */
    double fragment_px_per_cycle; /* shaded pixels per cycle per GPU */
    double rop_px_per_cycle;      /* composition (blend / depth test at the receiver) */
    uint32_t draw_setup_cycles;   /* per draw per GPU that processes it */
    uint32_t step_tris;           /* triangles per pipeline step (composition interleaves) */
    uint32_t topology;            /* enum sfr_topology */
    uint32_t switch_mode;         /* enum p2p_path_mode: how a message crosses the switch */
    double link_gbps;             /* GB/s per direction per pair (per GPU port with a switch);
                                     0 = unlimited */
    uint32_t link_latency_cycles;
    uint32_t rx_buffer_tiles;      /* composition receive buffer per sender; 0 = unlimited */
    uint32_t color_bytes;          /* per pixel */
    uint32_t depth_bytes;          /* per pixel */
    uint32_t msg_header_bytes;     /* added to every message on a link */
    uint32_t threshold_tris;       /* composition-group threshold */
    uint32_t update_tris;          /* draw-scheduler progress update interval */
    uint32_t queue_draws;          /* draws a GPU may have outstanding from the scheduler */
    uint32_t sched_msg_bytes;      /* scheduler messages */
    uint32_t gpupd_batch_tris;     /* GPUpd batching */
    uint32_t gpupd_runahead;       /* batches projected ahead of rendering */
    double gpupd_project_fraction; /* projection cost / geometry cost per triangle */
    uint32_t gpupd_id_bytes;
    uint32_t ics_pairs; /* CompSched: senders a receiver takes at once (and receivers a sender) */
    bool ics_free_messages;   /* CompSched: READY/START/DONE cross no link (an ablation) */
    uint32_t trace_generator; /* a generated game's trace: enum gfx_generator (gfx/gen.h) */
    double trace_draw_sigma;  /* ... and its draws' triangle spread (GFX_GEN_DRAW_SIGMA) */
};
extern const struct cfg_opt sfr_opts[];

/* Defaults, then the INI file (may be NULL), then section.key=value sets.
 * Returns 0 or -1 with "file:line: ..." in err. */
int sfr_config_load(struct sfr_config *c, const char *file, const char *const *sets,
                    unsigned n_sets, char *err, size_t errlen);

/* Time of a GPU by activity, cycles (Fig. 6.13's breakdown and more). */
enum sfr_activity {
    SFR_RENDER,
    SFR_PROJECT,
    SFR_COMPOSE,
    SFR_WAIT_IDS,
    SFR_WAIT_COMPOSE,
    SFR_WAIT_SYNC,
    SFR_WAIT_DRAWS,
    SFR_N_ACT
};
extern const char *const sfr_activity_names[SFR_N_ACT];

/* Bytes on the links by kind. */
enum sfr_traffic { SFR_T_COMPOSE, SFR_T_SYNC, SFR_T_IDS, SFR_T_SCHED, SFR_N_TRAFFIC };
extern const char *const sfr_traffic_names[SFR_N_TRAFFIC];

struct sfr_result {
    uint64_t cycles;                   /* frame time */
    uint64_t gpu_cycles[SFR_MAX_GPUS]; /* when each GPU finished */
    double activity[SFR_N_ACT];        /* mean over GPUs, cycles */
    uint64_t traffic[SFR_N_TRAFFIC];   /* bytes (headers included) */
    uint64_t messages;
    uint64_t geometry_tris;   /* triangles through geometry, all GPUs */
    uint64_t shaded_px;       /* pixels shaded, all GPUs */
    uint32_t groups_composed; /* CHOPIN: groups composed in parallel */
    uint64_t tris_composed;   /* ... and their triangles */
    uint64_t events;
    uint32_t wrong_tiles; /* final frame vs the sequential rendering */
    /* CompSched's decisions: pairings started, those held back after both GPUs
     * were ready (a busy receiver or sender), and the cycles they were held,
     * summed over pairs and divided by the GPU count; composition tiles a full
     * receive port refused */
    uint64_t ics_pairs, ics_pairs_held, tiles_refused;
    double ics_hold_cycles;
};

/* A run's statistics by name, as a sweep's frame runs report them
 * (docs/chopin.md): link bytes per kind (bytes_compose ...), mean GPU cycles
 * per activity (gpu_render ...), then composition groups and triangles,
 * wrong tiles, link messages, geometry triangles and shaded pixels, then
 * CompSched's pairings, pairings held, cycles held (per GPU) and refused
 * composition tiles. */
#define SFR_N_STATS (SFR_N_TRAFFIC + SFR_N_ACT + 10)
extern const char *const sfr_stat_names[SFR_N_STATS];
void sfr_stats(const struct sfr_result *r, double out[SFR_N_STATS]);

/* Run one frame. Deterministic. `final` (may be NULL) receives the composed
 * frame (each tile from its owner), initialised by the call. */
void sfr_run(const struct gfx_trace *t, const struct sfr_config *c, enum sfr_design d,
             struct sfr_result *r, struct gfx_fb *final);

#endif
