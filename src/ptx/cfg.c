/*
 * cfg.c - reconvergence points: the immediate post-dominator of every branch.
 *
 * A warp that diverges at a branch reconverges where both paths must meet:
 * the first instruction of the branch block's immediate post-dominator (the
 * classic PDOM SIMT stack). This file builds the basic blocks of one function,
 * adds a virtual exit node that every ret/exit/trap block flows into, and
 * computes post-dominators with the Cooper-Harvey-Kennedy iteration on the
 * reversed graph. Blocks that cannot reach an exit (endless loops) get the
 * virtual exit as their post-dominator, which is conservative and correct:
 * their lanes only leave by exiting.
 * INVARIANT: ins->rpc of a branch is a pc of the same function or PX_RPC_EXIT.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "ptx/ir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool ends_flow(const struct px_inst *i)
{
    return i->op == PX_BRA || i->op == PX_RET || i->op == PX_EXIT || i->op == PX_TRAP;
}

static int intersect(const int *ipdom, const int *order, int a, int b)
{
    while (a != b) {
        while (order[a] < order[b])
            a = ipdom[a];
        while (order[b] < order[a])
            b = ipdom[b];
    }
    return a;
}

int px_cfg_reconvergence(struct ptx_module *m, struct px_func *f, char *err, size_t errlen)
{
    uint32_t n = f->end - f->first;
    struct px_inst *ins = m->ins + f->first;
    for (uint32_t k = 0; k < n; k++)
        if (ins[k].op == PX_BRA && (ins[k].target < f->first || ins[k].target >= f->end)) {
            snprintf(err, errlen, "branch at line %u leaves its function", ins[k].line);
            return -1;
        }
    int *block = calloc(n + 1, sizeof(int));
    uint32_t *start = calloc(n + 2, sizeof(uint32_t));
    bool *leader = calloc(n + 1, sizeof(bool));
    int rc = -1;
    int *succ = NULL, *pred = NULL, *npred = NULL, *ipdom = NULL, *order = NULL, *stack = NULL,
        *post = NULL;
    if (!block || !start || !leader)
        goto out;
    leader[0] = true;
    for (uint32_t k = 0; k < n; k++) {
        if (ins[k].op == PX_BRA)
            leader[ins[k].target - f->first] = true;
        if (ends_flow(&ins[k]) && k + 1 < n)
            leader[k + 1] = true;
    }
    int nb = 0;
    for (uint32_t k = 0; k < n; k++) {
        if (leader[k])
            start[nb++] = k;
        block[k] = nb - 1;
    }
    start[nb] = n;
    int X = nb; /* the virtual exit */
    int nn = nb + 1;
    succ = malloc(sizeof(int) * (size_t)nn * 3);
    npred = calloc((size_t)nn, sizeof(int));
    pred = malloc(sizeof(int) * (size_t)nn * 3);
    ipdom = malloc(sizeof(int) * (size_t)nn);
    order = malloc(sizeof(int) * (size_t)nn);
    stack = malloc(sizeof(int) * (size_t)nn * 2);
    post = malloc(sizeof(int) * (size_t)nn);
    if (!succ || !npred || !pred || !ipdom || !order || !stack || !post)
        goto out;
    /* successors: up to 3 per block (target, fall-through, exit) */
    int nsucc_total = 0;
    for (int b = 0; b < nn; b++)
        for (int s = 0; s < 3; s++)
            succ[b * 3 + s] = -1;
    for (int b = 0; b < nb; b++) {
        const struct px_inst *last = &ins[start[b + 1] - 1];
        bool guarded = last->guard >= 0;
        int s = 0;
        if (last->op == PX_BRA) {
            succ[b * 3 + s++] = block[last->target - f->first];
            if (guarded)
                succ[b * 3 + s++] = b + 1 < nb ? b + 1 : X;
        } else if (last->op == PX_RET || last->op == PX_EXIT || last->op == PX_TRAP) {
            succ[b * 3 + s++] = X;
            if (guarded)
                succ[b * 3 + s++] = b + 1 < nb ? b + 1 : X;
        } else {
            succ[b * 3 + s++] = b + 1 < nb ? b + 1 : X;
        }
        nsucc_total += s;
    }
    (void)nsucc_total;
    /* predecessor lists (reverse-graph successors), nn*3 upper bound */
    int *pstart = calloc((size_t)nn + 1, sizeof(int));
    if (!pstart)
        goto out;
    for (int b = 0; b < nb; b++)
        for (int s = 0; s < 3; s++)
            if (succ[b * 3 + s] >= 0)
                npred[succ[b * 3 + s]]++;
    for (int b = 0; b < nn; b++)
        pstart[b + 1] = pstart[b] + npred[b];
    memset(npred, 0, sizeof(int) * (size_t)nn);
    for (int b = 0; b < nb; b++)
        for (int s = 0; s < 3; s++) {
            int t = succ[b * 3 + s];
            if (t >= 0)
                pred[pstart[t] + npred[t]++] = b;
        }
    /* post-order of the reversed graph from X (iterative DFS) */
    for (int b = 0; b < nn; b++)
        order[b] = -1;
    int np = 0, sp = 0;
    stack[sp++] = X;
    stack[sp++] = 0;
    order[X] = -2; /* visiting */
    while (sp) {
        int b = stack[sp - 2], k = stack[sp - 1];
        if (k < npred[b]) {
            stack[sp - 1]++;
            int p = pred[pstart[b] + k];
            if (order[p] == -1) {
                order[p] = -2;
                stack[sp++] = p;
                stack[sp++] = 0;
            }
        } else {
            sp -= 2;
            order[b] = np;
            post[np++] = b;
        }
    }
    /* CHK: process in reverse post-order; "predecessors" in the reversed
     * graph are forward successors */
    for (int b = 0; b < nn; b++)
        ipdom[b] = -1;
    ipdom[X] = X;
    bool changed = true;
    while (changed) {
        changed = false;
        for (int k = np - 2; k >= 0; k--) {
            int b = post[k];
            int nd = -1;
            for (int s = 0; s < 3; s++) {
                int t = succ[b * 3 + s];
                if (t < 0 || ipdom[t] < 0)
                    continue;
                nd = nd < 0 ? t : intersect(ipdom, order, t, nd);
            }
            if (nd >= 0 && ipdom[b] != nd) {
                ipdom[b] = nd;
                changed = true;
            }
        }
    }
    for (int b = 0; b < nb; b++) {
        struct px_inst *last = &ins[start[b + 1] - 1];
        if (last->op != PX_BRA)
            continue;
        int pd = ipdom[b];
        last->rpc = (pd < 0 || pd == X) ? PX_RPC_EXIT : f->first + start[pd];
    }
    free(pstart);
    rc = 0;
out:
    if (rc)
        snprintf(err, errlen, "out of memory computing reconvergence points");
    free(block);
    free(start);
    free(leader);
    free(succ);
    free(pred);
    free(npred);
    free(ipdom);
    free(order);
    free(stack);
    free(post);
    return rc;
}
