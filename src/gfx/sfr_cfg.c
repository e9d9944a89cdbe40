/*
 * sfr_cfg.c - the split-frame model's option table (configs/chopin-8gpu.ini).
 *
 * Table 6.2 gives GPU count, clock, ROPs, the group threshold and the links;
 * everything else is a stated assumption (spec 004b §8 item 17), explained in
 * docs/chopin.md. Loaded through the project's INI/--set parser (sim/cfg.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <string.h>

#include "gfx/gen.h"
#include "gfx/sfr.h"
#include "noc/p2p.h"

const char *const sfr_topology_names[] = {"pairs", "switch", NULL};

#define T struct sfr_config
const struct cfg_opt sfr_opts[] = {
    CFG_U32("machine.gpus", T, gpus, "8", 1, SFR_MAX_GPUS, "",
            "GPUs rendering the frame (Table 6.2: 8)"),
    CFG_F64("machine.mhz", T, mhz, "1000", 1, 1e5, "MHz", "GPU clock (Table 6.2: 1 GHz)"),
    CFG_F64("gpu.fragment_px_per_cycle", T, fragment_px_per_cycle, "1", 0.001, 1e4, "pixels",
            "shaded pixels per cycle of one GPU (assumption: 8 SMs x 32 lanes running ~256-cycle "
            "pixel shaders)"),
    CFG_F64("gpu.rop_px_per_cycle", T, rop_px_per_cycle, "8", 0.001, 1e4, "pixels",
            "pixels per cycle the ROPs compose at the receiver (Table 6.2: 8 ROPs, 1 each)"),
    CFG_U32("gpu.draw_setup_cycles", T, draw_setup_cycles, "20", 0, 1e6, "cycles",
            "state setup per draw on each GPU that processes it (assumption)"),
    CFG_U32("gpu.step_tris", T, step_tris, "16", 1, 1e6, "triangles",
            "triangles per pipeline step: composition work and scheduler updates interleave "
            "with rendering at this granularity"),
    CFG_ENUM("link.topology", T, topology, "pairs", sfr_topology_names,
             "pairs (Table 6.2: a link per GPU pair and direction, so a GPU can receive from "
             "all others at once) or switch (each GPU has one port per direction into a "
             "switch, which every message to or from it shares: an ablation of the links' "
             "parallelism)"),
    CFG_ENUM("link.switch", T, switch_mode, "buffered", p2p_path_mode_names,
             "with link.topology = switch, how a message crosses it: buffered (a packet "
             "switch: the receiver's port takes the message when free, the sender's port "
             "goes on meanwhile; the receiver's port serves messages in send order), arrival "
             "(buffered, the receiver's port serving messages in the order their heads reach "
             "it) or circuit (the message starts when both ports are free and holds both, so a "
             "sender's port idles while its receiver's is busy)"),
    CFG_F64("link.gbps", T, link_gbps, "64", 0, 1e6, "GB/s",
            "per direction per GPU pair (Table 6.2: 64), or per GPU port with "
            "link.topology = switch; 0 = unlimited"),
    CFG_U32("link.latency_cycles", T, link_latency_cycles, "200", 0, 1e7, "cycles",
            "inter-GPU latency (Table 6.2: 200)"),
    CFG_U32("link.rx_buffer_tiles", T, rx_buffer_tiles, "4", 0, 1e6, "tiles",
            "composition tiles a GPU buffers per sender before the link stalls; 0 = unlimited"),
    CFG_U32("link.header_bytes", T, msg_header_bytes, "16", 0, 4096, "bytes",
            "added to every message on a link"),
    CFG_U32("image.color_bytes", T, color_bytes, "4", 1, 64, "bytes",
            "colour bytes per pixel (RGBA8)"),
    CFG_U32("image.depth_bytes", T, depth_bytes, "4", 1, 64, "bytes",
            "depth bytes per pixel (D24S8)"),
    CFG_U32("chopin.threshold_tris", T, threshold_tris, "4096", 0, 1e9, "triangles",
            "groups with fewer triangles fall back to duplication (Table 6.2: 4096)"),
    CFG_U32("chopin.update_tris", T, update_tris, "1", 1, 1e9, "triangles",
            "a GPU reports progress to the draw scheduler every this many triangles (Fig. 6.15)"),
    CFG_U32("chopin.queue_draws", T, queue_draws, "4", 1, 1e6, "draws",
            "draws the scheduler may have outstanding on one GPU (assumption)"),
    CFG_U32("chopin.sched_msg_bytes", T, sched_msg_bytes, "4", 1, 4096, "bytes",
            "payload of a scheduler message (thesis: 4 B)"),
    CFG_U32("gpupd.batch_tris", T, gpupd_batch_tris, "4096", 1, 1e9, "triangles",
            "GPUpd batches consecutive draws up to this many triangles per ID exchange"),
    CFG_U32("gpupd.runahead", T, gpupd_runahead, "1", 0, 1e6, "batches",
            "GPUpd projects this many batches ahead of rendering"),
    CFG_F64("gpupd.project_fraction", T, gpupd_project_fraction, "0.5", 0, 10, "",
            "projection cost per triangle as a fraction of the geometry cost (position-only)"),
    CFG_U32("gpupd.id_bytes", T, gpupd_id_bytes, "4", 1, 64, "bytes",
            "bytes per exchanged primitive ID"),
    CFG_U32("ics.pairs", T, ics_pairs, "1", 1, SFR_MAX_GPUS, "pairings",
            "CompSched: senders a receiver composes from at once, and receivers a sender feeds "
            "(thesis §6.4.5: one; more is an ablation)"),
    CFG_BOOL("ics.free_messages", T, ics_free_messages, "0",
             "CompSched: READY/START/DONE reach the scheduler with no latency and no link "
             "bytes (an ablation of its handshake)"),
    CFG_ENUM("trace.generator", T, trace_generator, "budget", gfx_generator_names,
             "how a game's trace is generated when the run generates one (--game): budget "
             "(draw sizes scaled to 3 + 1 screens of pixels) or first (the first generator: "
             "per-draw screen fractions, 20-60 screens; docs/frame-trace.md)"),
    CFG_F64("trace.draw_sigma", T, trace_draw_sigma, "1.3", 0, 4, "",
            "spread (log-normal sigma) of triangles among the draws of a generated trace's "
            "object, shadow and transparent groups: 1.3 the generator's; 0 splits each such "
            "group evenly (an ablation of heavy-tailed draws; docs/frame-trace.md)"),
    CFG_END,
};
#undef T

int sfr_config_load(struct sfr_config *c, const char *file, const char *const *sets,
                    unsigned n_sets, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    cfg_defaults(sfr_opts, c);
    if (file && cfg_load_ini(sfr_opts, c, file, NULL, err, errlen))
        return -1;
    for (unsigned i = 0; i < n_sets; i++)
        if (cfg_set_assignment(sfr_opts, c, sets[i], err, errlen))
            return -1;
    return 0;
}
