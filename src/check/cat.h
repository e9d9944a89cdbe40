/*
 * cat.h - an interpreter for the part of the cat language (herd7, Dat3M)
 * that gpucoh's memory models use, evaluated on one candidate execution.
 *
 * A model is a title line, then statements:
 *   let NAME = EXPR            let rec NAME = EXPR (least fixed point)
 *   acyclic EXPR as NAME       irreflexive EXPR as NAME       empty EXPR as NAME
 * Expressions, loosest first: a | b, a ; b, a \ b, a & b, the product of two
 * sets a * b, then the postfix r+ r* r? r^-1, and [set] (the identity on a
 * set), (e), domain(r), range(r), 0 (the empty relation), _ (every event) and
 * names. Comments are // to the end of the line and (* ... *).
 * Names are the lets above them or the base sets and relations of struct
 * cat_exec, which the caller computes from the candidate execution. A later
 * let may rebind a name (let co = co+).
 *
 * Relations are bit matrices over at most CAT_MAX_EVENTS events: row i holds
 * the successors of event i. Sets are one word.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef CHECK_CAT_H
#define CHECK_CAT_H

#include <stdio.h>

#include "base/types.h"

#define CAT_MAX_EVENTS 64

typedef uint64_t cat_rel[CAT_MAX_EVENTS];

/* Base sets a model can name (the oracle fills them, oracle.c): _ every
 * event; W writes (the initial ones too), R reads, M = R | W, F fences
 * (fence.sc, fence.acq_rel, fence.proxy.*), IW initial writes, BAR CTA barrier
 * events, RMW-INSTR the events of atom/red instructions (a failed CAS's read
 * too); RLX/ACQ/REL the strength of an access (an atom's read is ACQ or RLX,
 * its write REL or RLX; weak accesses have none), ACQ_REL every fence.sc and
 * fence.acq_rel, SC fence.sc; GEN/TEX/SUR/CON the proxy of an access (fences
 * and barriers are GEN, a proxy fence carries its proxy's tag, ALIAS for
 * fence.proxy.alias). */
enum cat_set {
    CS_ALL,
    CS_W,
    CS_R,
    CS_M,
    CS_F,
    CS_IW,
    CS_BAR,
    CS_RMW_INSTR,
    CS_RLX,
    CS_ACQ,
    CS_REL,
    CS_ACQ_REL,
    CS_SC,
    CS_GEN,
    CS_TEX,
    CS_SUR,
    CS_CON,
    CS_ALIAS,
    CS_N
};

/* Base relations a model can name: id; po program order; loc same physical
 * location and vloc same generic address (memory events only); po-loc =
 * po & loc; int/ext same/different thread; rf, co (as the candidate chose:
 * co may be partial, models close it); rmw an atom's read to its write; sr
 * each event's scope includes the other's thread (strong events only); scta
 * same CTA; syncbar barrier a -> barrier b when b waits for a; sync_fence the
 * chosen order of morally strong fence.sc pairs; addr (always empty), data,
 * ctrl the dependencies from reads. */
enum cat_base_rel {
    CR_ID,
    CR_PO,
    CR_PO_LOC,
    CR_LOC,
    CR_VLOC,
    CR_INT,
    CR_EXT,
    CR_RF,
    CR_CO,
    CR_RMW,
    CR_SR,
    CR_SCTA,
    CR_SYNCBAR,
    CR_SYNC_FENCE,
    CR_ADDR,
    CR_DATA,
    CR_CTRL,
    CR_N
};

extern const char *const cat_set_names[CS_N];
extern const char *const cat_rel_names[CR_N];

/* One candidate execution, as the model sees it. */
struct cat_exec {
    unsigned n; /* events 0 .. n-1 */
    uint64_t set[CS_N];
    cat_rel rel[CR_N];
};

struct cat_model;

/* Parse a model. `path` names it in messages. Returns NULL with
 * "path:line: what is wrong" in err. */
struct cat_model *cat_parse(const char *text, const char *path, char *err, size_t errlen);
void cat_free(struct cat_model *m);
/* The title line ("PTX", "SC", ...). */
const char *cat_title(const struct cat_model *m);

/* Why an execution is inconsistent. */
struct cat_fail {
    const char *axiom; /* the failed check's "as" name */
    const char *kind;  /* "acyclic", "irreflexive" or "empty" */
    char expr[256];    /* the checked expression, as written */
    /* the witness: a cycle (acyclic, irreflexive) or one pair (empty) */
    unsigned n_steps;
    uint8_t ev[CAT_MAX_EVENTS + 1]; /* ev[0] -> ev[1] -> ... -> ev[n_steps] */
    char step[CAT_MAX_EVENTS][96];  /* the named part of the expression each step is in */
};

/* Evaluate every check in order on x. Returns true when all hold; otherwise
 * false, and fills *fail (when not NULL) for the first failed check. */
bool cat_consistent(const struct cat_model *m, const struct cat_exec *x, struct cat_fail *fail);

/* The same on a partial execution, known only between two bounds: every
 * completion's chosen relations (rf, co, sync_fence, syncbar) contain lo's
 * (the choices made so far) and are contained in hi's (those and every
 * choice left); the other sets and relations are the same in both. Each
 * check is evaluated on a lower bound of its value over the completions:
 * every operator but difference only grows as its operands grow, so a
 * relation is taken from lo, and the right side of a difference from hi
 * (and that side's own differences from lo again). acyclic, irreflexive and
 * empty of a relation that only grows can only fail more, so false means no
 * completion is consistent: herd7's incremental pruning, for every check of
 * the model. True (nothing proven) where a let rec's own name is on the
 * right of a difference in its body, whose bounds this does not compute. */
bool cat_consistent_between(const struct cat_model *m, const struct cat_exec *lo,
                            const struct cat_exec *hi, struct cat_fail *fail);

#endif
