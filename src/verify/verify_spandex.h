/*
 * verify_spandex.h - what the explorer (verify_int.h) needs to know of Spandex
 * beyond struct ctrl: each L1's device (GPU coherence, DeNovo or MESI, by
 * gpu.sms, cpu.cores and cpu.device), the state its controllers keep
 * elsewhere (the LLC's owner ids, the L1s' held stores, DeNovo's owner
 * predictor), and quiescent agreement by word ownership (docs/verify.md,
 * "Spandex"). Internal to src/verify.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef VERIFY_VERIFY_SPANDEX_H
#define VERIFY_VERIFY_SPANDEX_H

#include <stdbool.h>
#include <stddef.h>

#include "coh/proto.h"

struct cache_line;

/* L1 i's controller ops and (*table) the index of its table in p->tables:
 * the protocol's own L1 for the first gpu.sms, the CPU device's after. */
const struct ctrl_ops *vspx_l1_ops(const struct proto_desc *p, const struct machine_view *cfg,
                                   unsigned i, unsigned *table);

/* Whether L1 i promises write atomicity to its core: a MESI device's copies
 * are writer-invalidated (Inv before any write is performed), so its loads
 * return the value at issue or a later one in coherence order; GPU-coherence
 * and DeNovo L1s promise data-race-free (release) consistency only. */
bool vspx_write_atomic(const struct proto_desc *p, unsigned table);

/* How the explorer writes the state out: bytes and whole messages; under
 * symmetry over the L1s (docs/verify.md, "Spandex under the reduction") L1 i
 * is written as perm[i], the L1s in slot order inv[] (NULL: as they are). */
struct vspx_out {
    void (*bytes)(void *s, const void *p, size_t n);
    void (*msg)(void *s, const struct msg *m);
    void *s;
    const uint8_t *perm, *inv;
};

/* Why the rig's L1s have no symmetry (no two L1s of one device: L1s of
 * different devices run different tables), or NULL. */
const char *vspx_asymmetric(const struct proto_desc *p, const unsigned *tables, unsigned n_l1);

/* Whether every L1 is of one device (then every relabelling is a symmetry). */
bool vspx_one_device(const struct proto_desc *p, const unsigned *tables, unsigned n_l1);

/* Whether relabelling L1 i as perm[i] keeps every L1's device: in a mix only
 * the relabellings that permute the L1s of each device among themselves are
 * symmetries (they form a group, so the smallest digest over them is
 * canonical). */
bool vspx_keeps_devices(const struct proto_desc *p, const unsigned *tables, const uint8_t *perm,
                        unsigned n_l1);

/* The state outside struct ctrl, in line order: for each owned word the
 * LLC's owner id, the messages it is passing on; per L1 (DeNovo, MESI) each
 * line's held store or atomic (a TBE's meta[1] points to it) and DeNovo's
 * owner predictor. */
void vspx_put(const struct vspx_out *o, const struct proto_desc *p, struct comp *const *l1,
              const unsigned *tables, unsigned n_l1, struct comp *llc, const addr_t *lines,
              unsigned n_lines);

/* Whether L1 line l of a device L1 with table `table` holds no data yet: a
 * way taken for a miss keeps the bytes of the line it held before, which
 * nobody reads, and the digest leaves them out (docs/verify.md, "Spandex"). A
 * MESI device's line in IS: taken in I for a ReqS, whose fill replaces the
 * whole line (an Inv that overtook it drops the line instead), and neither
 * read nor served before. Its IM and DeNovo's BV, BS and BO are not: words
 * may come in before the word state says so (a grant or relay merged before
 * the perform), or leave the old bytes in a line kept present (a fill that
 * an acquire or Inv overtook), so which bytes are old is not in the state. */
bool vspx_unfilled(const struct proto_desc *p, unsigned table, const struct cache_line *l);

/* Quiescent agreement by ownership: each location k, word `words[k]` of line
 * `lines[k]` (a word the cores use), has the value `gold[k]` where it is
 * current, at its owner if an L1 owns it (which must then say it does), else
 * at the LLC (or DRAM, absent there), and no other L1 owns it; `dram[k]` is
 * DRAM's word. A MESI L1 owns every word of a line in M (its meta[1] says so
 * too). Writes what is wrong into why (returns false) or returns true. */
bool vspx_quiescent(const struct proto_desc *p, struct comp *const *l1, const unsigned *tables,
                    unsigned n_l1, struct comp *llc, const addr_t *lines, const unsigned *words,
                    unsigned n_lines, const uint32_t *gold, const uint32_t *dram, char *why,
                    size_t len);

#endif
