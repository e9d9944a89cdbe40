/*
 * spx_protos.c - the Spandex protocols (spec 003; docs/spandex.md): the LLC
 * (spx_llc.c) with GPU-coherence L1s (spandex-g: rc's L1) or DeNovo L1s
 * (spandex-d, denovo_l1.c), either with MESI or DeNovo CPU L1s
 * (cpu.device), their tables and the configuration they refuse.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <string.h>

#include "coh/spandex/spandex.h"
#include "coh/machine_view.h"
#include "coh/spandex/fcs_options.h"

static const struct coh_table *const spx_g_tables[] = {&rc_l1_table, &dn_l1_table,
                                                       &spx_mesi_l1_table, &spx_llc_table, NULL};
static const struct coh_table *const spx_d_tables[] = {&dn_l1_table, &spx_mesi_l1_table,
                                                       &spx_llc_table, NULL};

static const struct ctrl_ops dn_ops = {spx_dn_create, ctrl_connect, ctrl_in_port, spx_dn_destroy,
                                       NULL,          ctrl_peek,    ctrl_stats};

/* The CPU cores' L1s (cpu.device): DeNovo (the GPU's own table in
 * spandex-d, the one after it in spandex-g) or MESI (mesi_l1.c). */
static const struct ctrl_ops *spx_g_cpu_l1(const struct machine_view *cfg, unsigned *table)
{
    bool mesi = cfg->cpu.device == CPU_DEVICE_MESI;
    *table = mesi ? 2 : 1;
    return mesi ? &spx_mesi_l1_ops : &dn_ops;
}

static const struct ctrl_ops *spx_d_cpu_l1(const struct machine_view *cfg, unsigned *table)
{
    bool mesi = cfg->cpu.device == CPU_DEVICE_MESI;
    *table = mesi ? 1 : 0;
    return mesi ? &spx_mesi_l1_ops : &dn_ops;
}

/* The LLC keeps ReqS sharers as one bit per L1 of a line's meta word: MESI
 * CPU L1s send ReqS, and so do DeNovo L1s whose loads may be typed ReqS
 * (fcs.load = s, fcs.random, or an fcs.table, which may name ReqS). */
static const char *spx_check(const struct machine_view *c, char *why, size_t len)
{
    unsigned l1s = c->gpu.sms + c->cpu.cores;
    if (c->cpu.cores && c->cpu.device == CPU_DEVICE_MESI && l1s > 64) {
        snprintf(why, len,
                 "MESI CPU L1s are tracked as sharers of at most 64 L1s: gpu.sms + "
                 "cpu.cores = %u",
                 l1s);
        return "cpu.cores gpu.sms cpu.device";
    }
    if (!strcmp(c->coherence.protocol, "spandex-d") && l1s > 64) {
        const struct fcs_spec *f = fcs_spec_of(c);
        const char *key = f->load == FCS_LD_S ? "fcs.load gpu.sms cpu.cores"
                          : f->random         ? "fcs.random gpu.sms cpu.cores"
                          : f->table[0]       ? "fcs.table gpu.sms cpu.cores"
                                              : NULL;
        if (key)
            snprintf(why, len,
                     "DeNovo L1s that send ReqS are tracked as sharers of at most 64 "
                     "L1s: gpu.sms + cpu.cores = %u",
                     l1s);
        return key;
    }
    return NULL;
}

/* fcs.l1_to_l1: the device L1s answer requesters and send predicted
 * requests over the network from L1 to L1 (ctrl_links.peer_out), not
 * through the home bank (spx_dev.c, denovo_l1.c's send_wt). */
static bool spx_l1_peers(const struct machine_view *c)
{
    return fcs_spec_of(c)->l1_to_l1;
}

/* What `gpucoh verify` reads (struct proto_verify; docs/verify.md, "Spandex"):
 * device L1s mixed by --devices, the LLC's and devices' word state read by
 * verify/verify_spandex.c; a device L1's TBE meta[1] points to its held store
 * (covered there), not a value. The protocol's own L1s come first in the mix
 * (spandex-g's GPU-coherence L1, spandex-d's DeNovo one), then CPU-device L1s
 * of one kind. fcs.random and fcs.mispredict draw request types and owners at
 * random, which the explorer cannot enumerate (a DeNovo L1's draws are not in
 * its digest). */
static const char *spx_unexplorable(const struct machine_view *c)
{
    const struct fcs_spec *f = fcs_spec_of(c);
    return f->random || f->mispredict
               ? "fcs.random and fcs.mispredict draw request types and owners at random: the "
                 "explorer cannot enumerate them (docs/verify.md, \"Spandex\")"
               : NULL;
}
#define SPX_VERIFY(own_)                                                                           \
    .l1_tbe = {PROTO_WORD_PLAIN, PROTO_WORD_UNREAD}, .device_mix = true, .own_device = own_,       \
    .cpu_devices = "denovo mesi", .unexplorable = spx_unexplorable
static const struct proto_verify spx_g_verify = {SPX_VERIFY("gpu")};
static const struct proto_verify spx_d_verify = {SPX_VERIFY("denovo")};

/* What names an L1 in Spandex's state (struct proto_symmetry; docs/verify.md,
 * "Spandex under the reduction"), for `gpucoh verify --symmetry on` when every
 * L1 is of one device (verify_spandex.c refuses a mix). Messages: requests,
 * write-backs, an owner's forward responses and InvAcks go up, src the L1;
 * responses, forwards, relays, write-back acks and Invs go down, dst the L1.
 * The predicted requests (ReqVo, ReqWTo(+data)) go up to the LLC on the
 * request vnet and on to the predicted owner on the forward vnet: their
 * direction is their vnet's. `sharer` holds an L1's index in a predicted
 * request (the owner, then the requester: pass_predicted), FwdReqO and the
 * relay (the new owner), FwdWT (the requester) and an owner's forward
 * response when it is relayed or passed (SPX_F_RELAY, SPX_F_PASS: the new
 * owner, the requester; a FwdReqV's or RvkO's is 0); an index + 1, 0 the LLC,
 * in RspV and RspOwner (who answered, for DeNovo's owner predictor). A request
 * forwarded to an owner keeps its requester's SM (sm_sharer). The LLC's ReqS
 * sharers are meta[1]; its owner ids and DeNovo's predictor are relabelled by
 * verify_spandex.c. Every L1 of one device runs one table, and nothing in the
 * LLC orders L1s by number: it picks owners word by word (forward_to_owners,
 * sole_owner, reply_held), sends Invs to every sharer at once, and counts
 * requests by side (gpu_l1s) in statistics only.
 * Data-blind: the LLC and the device L1s copy lines and words, merge bytes
 * under byte and word masks (spx_words_of, bytes_merge), apply atomics
 * (atom_apply) and compare data only in the observer's equality checks against
 * the golden memory; every branch is on word masks, owner ids, sharers, flags
 * and states, so relabelling the stores' values is a symmetry too. */
#define SPX_BITS2(a, b) (PROTO_MSG_BIT(a) | PROTO_MSG_BIT(b))
static const struct proto_symmetry spx_symmetry = {
    .up = SPX_BITS2(SPX_REQ_V, SPX_REQ_WT) | SPX_BITS2(SPX_REQ_WT_DATA, SPX_REQ_O) |
          SPX_BITS2(SPX_REQ_O_DATA, SPX_REQ_WB) | SPX_BITS2(SPX_REQ_S, SPX_REQ_WTFWD) |
          SPX_BITS2(SPX_REQ_WTFWD_DATA, SPX_FWD_RSP) | PROTO_MSG_BIT(SPX_INV_ACK),
    .down = SPX_BITS2(SPX_RSP_V, SPX_RSP_WT) | SPX_BITS2(SPX_RSP_WT_DATA, SPX_RSP_O) |
            SPX_BITS2(SPX_RSP_WB, SPX_FWD_V) | SPX_BITS2(SPX_FWD_O, SPX_RVK_O) |
            SPX_BITS2(SPX_RELAY, SPX_FWD_WT) | SPX_BITS2(SPX_RSP_OWNER, SPX_INV),
    .passed = SPX_BITS2(SPX_REQ_VO, SPX_REQ_WTO) | PROTO_MSG_BIT(SPX_REQ_WTO_DATA),
    .down_vnets = 1u << SPX_VNET_RSP | 1u << SPX_VNET_FWD,
    .sharer_l1 = SPX_BITS2(SPX_REQ_VO, SPX_REQ_WTO) | SPX_BITS2(SPX_REQ_WTO_DATA, SPX_FWD_O) |
                 SPX_BITS2(SPX_RELAY, SPX_FWD_WT) | PROTO_MSG_BIT(SPX_FWD_RSP),
    .sharer_when = PROTO_MSG_BIT(SPX_FWD_RSP),
    .sharer_flags = SPX_F_RELAY | SPX_F_PASS,
    .sharer_l1p1 = SPX_BITS2(SPX_RSP_V, SPX_RSP_OWNER),
    .sm_sharer = SPX_BITS2(SPX_REQ_VO, SPX_REQ_WTO) | SPX_BITS2(SPX_REQ_WTO_DATA, SPX_FWD_WT) |
                 PROTO_MSG_BIT(SPX_FWD_RSP),
    .l2_sharers1 = true,
    .data_blind = true,
};

/* GPU coherence on Spandex: rc's L1 (ReqV, ReqWT, ReqWT+data). */
const struct proto_desc proto_spandex_g = {
    .options = &fcs_options,
    .name = "spandex-g",
    .title = "Spandex LLC (word state, owner ids) with GPU-coherence L1s (ReqV/ReqWT, "
             "self-invalidation)",
    .model = MODEL_PTX,
    .n_vnets = SPX_NVNETS,
    .vnet_names = spx_vnet_names,
    .tables = spx_g_tables,
    .n_l1_tables = 3,
    .l1 = {rc_l1_create, ctrl_connect, ctrl_in_port, ctrl_destroy, NULL, ctrl_peek, ctrl_stats},
    .l2 = SPX_LLC_OPS,
    .check = spx_check,
    .attach = spx_obs_attach,
    .detach = spx_obs_detach,
    .cpu_l1 = spx_g_cpu_l1,
    .l1_peers = spx_l1_peers,
    .symmetry = &spx_symmetry,
    .verify = &spx_g_verify,
};

const struct proto_desc proto_spandex_d = {
    .options = &fcs_options,
    .name = "spandex-d",
    .title = "Spandex LLC (word state, owner ids) with DeNovo L1s (ReqV, ReqO, ReqO+data; "
             "ownership, self-invalidation)",
    .model = MODEL_PTX,
    .n_vnets = SPX_NVNETS,
    .vnet_names = spx_vnet_names,
    .tables = spx_d_tables,
    .n_l1_tables = 2,
    .l1 = {spx_dn_create, ctrl_connect, ctrl_in_port, spx_dn_destroy, NULL, ctrl_peek, ctrl_stats},
    .l2 = SPX_LLC_OPS,
    .check = spx_check,
    .attach = spx_obs_attach,
    .detach = spx_obs_detach,
    .cpu_l1 = spx_d_cpu_l1,
    .l1_peers = spx_l1_peers,
    .symmetry = &spx_symmetry,
    .verify = &spx_d_verify,
};

const struct proto_desc proto_spandex_d_noinv = {
    .options = &fcs_options,
    .name = "spandex-d-noinv",
    .title = "spandex-d with a deliberate bug for testing the checkers: the DeNovo L1s' "
             "acquires do not self-invalidate valid words (kernel launches neither)",
    .test_only = true,
    .model = MODEL_PTX,
    .n_vnets = SPX_NVNETS,
    .vnet_names = spx_vnet_names,
    .tables = spx_d_tables,
    .n_l1_tables = 2,
    .l1 = {spx_dn_noinv_create, ctrl_connect, ctrl_in_port, spx_dn_destroy, NULL, ctrl_peek,
           ctrl_stats},
    .l2 = SPX_LLC_OPS,
    .check = spx_check,
    .attach = spx_obs_attach,
    .detach = spx_obs_detach,
    .cpu_l1 = spx_d_cpu_l1,
    .l1_peers = spx_l1_peers,
    .symmetry = &spx_symmetry,
    .verify = &spx_d_verify,
};
