/*
 * stc.h - spatiotemporal coherence (spec 000): what the STC L1s and the epoch
 * management unit (EMU) share.
 *
 * The address space is split into bands (address bits [seb, seb + N)), time
 * into epochs; in epoch e only band e may be written, and no L1 caches the
 * band of the current epoch. The EMU keeps every CU in the same epoch with a
 * handshake over its own links (one port each way per L1, on its own clock):
 *   EMU -> all  PrepareEpochChange   stop issuing stores
 *   CU  -> EMU  ReadyAck             no store or atomic outstanding (PW = 0)
 *   EMU -> all  ChangeEpoch(set,SEB) switch the current band set (and SEB)
 *   CU  -> EMU  DoneAck(set,SEB)     switched (its CER and SEB, which the EMU checks)
 *   EMU -> all  EpochStart           (safe form, spec 000 §7.2a) stores may issue
 * plus EpochDemand / EpochDemandAck (ES and later) and EpochConflict (AB, MB).
 * The L2 is the baselines' bank, unchanged (spec 000 §2.3): STC needs no
 * directory, no sharers, no per-line metadata.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef COH_STC_STC_H
#define COH_STC_STC_H

#include "coh/nc/nc.h"
#include "coh/stc/stc_options.h"

enum stc_variant { STC_NV, STC_ES, STC_AB, STC_MB };

/* Messages on the EMU links (never on the crossbar). */
enum {
    MSG_STC_PREPARE = MSG_PROTO_BASE + 32, /* EMU -> CU: PrepareEpochChange */
    MSG_STC_READY,                         /* CU -> EMU: ReadyAck */
    MSG_STC_CHANGE,                        /* EMU -> CU: ChangeEpoch; ts = band set, ts2 = SEB */
    MSG_STC_DONE,                          /* CU -> EMU: DoneAck; ts, ts2 = its CER and SEB */
    MSG_STC_START,                         /* EMU -> CU: EpochStart (safe form) */
    MSG_STC_DEMAND,                        /* CU -> EMU: EpochDemand; ts = band, addr = write */
    MSG_STC_DEMAND_ACK,                    /* EMU -> CU: EpochDemandAck */
    MSG_STC_CONFLICT,                      /* CU -> EMU: EpochConflict; ts = band, addr = read */
    MSG_STC_ACTIVE,                        /* CU -> EMU (NV): ts = 1 busy, 0 idle */
};

/* Bytes an EMU message counts as on its link: the paper's payloads (an
 * epoch set or a 32-bit address) in one 8-byte message. */
#define STC_MSG_BYTES 8

/* A line's band under start epoch bit `seb` with `epochs` bands. */
static inline unsigned stc_band(addr_t a, unsigned seb, unsigned epochs)
{
    return (unsigned)((a >> seb) & (epochs - 1));
}

extern const struct coh_table stc_l1_table;
/* The EMU's phases (stc_emu.c): the protocol's tables are the L1's, the L2
 * bank's and this one, at index STC_EMU_TABLE (coverage: the unit's w->cov +
 * STC_EMU_TABLE). */
extern const struct coh_table stc_emu_table;
enum { STC_EMU_TABLE = 2 };

/* The EMU (stc_emu.c). */
struct comp *stc_emu_create(const struct ctrl_wiring *w);
struct comp *stc_es_oneack_emu_create(const struct ctrl_wiring *w); /* test only */
void stc_emu_connect(struct comp *c, struct port *const *to_l1, struct port *const *from_l1);
void stc_emu_destroy(struct comp *c);
void stc_emu_stats(struct comp *c, void (*emit)(void *, const char *, uint64_t), void *arg);
double stc_emu_mhz(const struct machine_view *cfg);
uint32_t stc_link_cycles(const struct machine_view *cfg);
/* The variant a protocol name gives ("stc-mb" -> STC_MB). */
enum stc_variant stc_variant_of(const char *proto);
/* The EMU's view for the observer (--check): the granted set and SEB while no
 * transition is under way; false while one is (no write may reach an L2). */
bool stc_emu_writable(const struct comp *emu, uint32_t *set, unsigned *seb);

#define STC_MAX_EPOCHS 32

/* ---- read-only views for gpucoh verify (src/verify) ----
 * The state an STC L1 and the EMU keep outside struct ctrl, which the
 * explorer's canonical digest must cover. Times are left out: the EMU's
 * wake-up is reported as none, due or at its next period, and whether it was
 * armed before the last transition ended (then stale). */
struct stc_l1_view {
    uint32_t cer, pw, bsq_n, bsq_bands, demand_sent, conflict_sent;
    unsigned seb, hs;
    const struct msg_list *bsq; /* [STC_MAX_EPOCHS], by band */
    const struct msg_list *to_emu;
    bool in_kernel, active_sent;
};
void stc_l1_view(struct comp *l1, struct stc_l1_view *v);
/* Whether the set of `line` has been scrubbed in the current epoch. */
bool stc_l1_set_scrubbed(struct comp *l1, addr_t line);
struct stc_emu_view {
    unsigned phase, acks, ptr, seb, seb_next, busy, rr, check_seb;
    uint32_t grant, erv, erv_known, check_grant;
    const addr_t *erv_addr; /* [32], by band (those in erv_known) */
    uint64_t since_remap, round;
    const struct msg_list *out;
    bool writable;
    uint8_t wake;    /* 0 none armed, 1 due now, 2 armed for a later time */
    bool wake_stale; /* armed before the last transition ended */
};
void stc_emu_view(struct comp *emu, struct stc_emu_view *v);

#endif
