/*
 * sm_cta.c - CTAs and warps in the SM: dispatching a CTA into free warp
 * slots, barriers (arrival, release), a warp's exit and the freeing of its
 * slot and CTA, and the kernel controller (KERNEL_BEGIN/END, one CTA
 * dispatched per cycle while one fits).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "gpu/sm_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *smi_kernel_name(const struct sm *sm)
{
    return sm->run ? ptx_kernel_info(sm->run->launch.kernel)->name : "?";
}

/* ---- CTAs and warps ---- */

static void cta_finish(struct sm *sm, struct sm_cta *c)
{
    ptx_cta_free(c->pc);
    c->pc = NULL;
    sm->used_threads -= sm->cta_threads;
    sm->used_warps -= sm->cta_warps;
    sm->used_regs -= sm->cta_regs;
    sm->used_shmem -= sm->cta_shmem;
    sm->n_ctas_res--;
    sm->run->n_ctas_done++;
    sm->st.ctas++;
    sm->st.kernel_ctas++;
}

void smi_warp_free(struct sm *sm, struct sm_warp *w)
{
    unsigned slot = (unsigned)(w - sm->warps);
    unsigned s = w->sched;
    /* w->pw stays: the slot's next warp reuses its storage (ptx_warp_renew) */
    set_state(sm, w, W_FREE);
    /* close the gap in age[]: the younger warps move down one place */
    unsigned pos = sm->age_pos[slot];
    for (unsigned i = pos + 1; i < sm->n_age[s]; i++) {
        sm->age[s][i - 1] = sm->age[s][i];
        sm->age_pos[sm->age[s][i - 1]] = (uint8_t)(i - 1);
    }
    uint64_t below = (1ull << pos) - 1;
    sm->ready_age[s] = (sm->ready_age[s] & below) | ((sm->ready_age[s] >> 1) & ~below);
    sm->n_age[s]--;
    if (sm->last[s] == slot)
        sm->last[s] = SM_NONE;
    sm->free_slots |= 1ull << slot;
    struct sm_cta *c = w->cta;
    w->cta = NULL;
    if (--c->n_alive == 0)
        cta_finish(sm, c);
}

void smi_barrier_release(struct sm *sm, struct sm_cta *c, unsigned id)
{
    struct sm_barrier *b = &c->bar[id];
    for (uint32_t m = b->waiting; m; m &= m - 1) {
        struct sm_warp *w = &sm->warps[c->slot[__builtin_ctz(m)]];
        ptx_warp_barrier_release(w->pw);
        w->issue_at = ptx_warp_issue_cycle(w->pw);
        set_state(sm, w, W_READY);
    }
    *b = (struct sm_barrier){0};
    c->bar_active &= (uint16_t) ~(1u << id);
    sm->st.barriers++;
}

static void barrier_check(struct sm *sm, struct sm_cta *c, unsigned id)
{
    struct sm_barrier *b = &c->bar[id];
    uint32_t expect = b->count ? b->count : c->live_threads;
    if (b->arrived >= expect)
        smi_barrier_release(sm, c, id);
}

void smi_barrier_arrive(struct sm *sm, struct sm_warp *w, const struct ptx_barrier *bar)
{
    struct sm_cta *c = w->cta;
    if (bar->id >= SM_N_BARRIERS)
        fatal("kernel %s: barrier id %u is out of range 0..%u", smi_kernel_name(sm), bar->id,
              SM_N_BARRIERS - 1);
    struct sm_barrier *b = &c->bar[bar->id];
    if (!b->arrived)
        b->count = bar->count;
    b->arrived += w->n_threads;
    if (!bar->arrive_only) {
        b->waiting |= 1u << w->warp_in_cta;
        set_state(sm, w, W_BARRIER);
    }
    c->bar_active |= (uint16_t)(1u << bar->id);
    barrier_check(sm, c, bar->id);
}

void smi_warp_exit(struct sm *sm, struct sm_warp *w)
{
    struct sm_cta *c = w->cta;
    sm->advances++;
    set_state(sm, w, W_EXITED);
    c->live_threads -= w->n_threads;
    /* barriers counting the CTA's live threads may now be complete */
    for (uint32_t m = c->bar_active; m; m &= m - 1)
        barrier_check(sm, c, (unsigned)__builtin_ctz(m));
    if (w->n_out == 0)
        smi_warp_free(sm, w);
}

static void cta_dispatch(struct sm *sm, uint32_t index)
{
    const struct launch *l = &sm->run->launch;
    struct sm_cta *c = NULL;
    for (uint32_t i = 0; i < sm->spec.ctas; i++)
        if (!sm->ctas[i].pc) {
            c = &sm->ctas[i];
            break;
        }
    if (!c)
        panic("%s: no free CTA entry although the limit allowed one", sm->comp.name);
    memset(c, 0, sizeof *c);
    index += sm->run->cta_base; /* this GPM's share starts there */
    struct ptx_dim3 id = {index % l->grid.x, (index / l->grid.x) % l->grid.y,
                          index / (l->grid.x * l->grid.y)};
    c->pc = ptx_cta_new(l->kernel, id, l->grid, l->block, l->params, l->dyn_shmem_bytes);
    c->index = index;
    c->n_warps = (uint16_t)ptx_cta_n_warps(c->pc);
    if ((c->n_warps + sm->gang - 1) / sm->gang * sm->gang != sm->cta_warps)
        panic("%s: CTA has %u warps, expected %u", sm->comp.name, c->n_warps, sm->cta_warps);
    c->n_alive = c->n_warps;
    c->live_threads = sm->cta_threads;
    cycle_t now = comp_cycle(&sm->comp);
    for (unsigned i = 0; i < c->n_warps; i++) {
        /* a wavefront takes a whole pair of slots (an odd CTA leaves the
         * second one empty, and pairs are only ever taken whole) */
        unsigned slot;
        if (sm->gang == 1)
            slot = (unsigned)__builtin_ctzll(sm->free_slots);
        else if (i % 2)
            slot = c->slot[i - 1] + 1u;
        else
            slot = (unsigned)__builtin_ctzll(sm->free_slots & sm->free_slots >> 1 &
                                             0x5555555555555555ull);
        sm->free_slots &= ~(1ull << slot);
        struct sm_warp *w = &sm->warps[slot];
        struct ptx_warp *pw = w->pw;
        memset(w, 0, sizeof *w);
        w->sched = (uint8_t)(slot / sm->gang % sm->spec.schedulers);
        w->state = W_FREE; /* counted as free since sm_new or warp_free */
        if (pw && !ptx_warp_renew(pw, c->pc, i)) {
            ptx_warp_free(pw);
            pw = NULL;
        }
        w->pw = pw ? pw : ptx_warp_new(c->pc, i);
        if (!w->pw)
            panic("out of memory");
        w->issue_at = ptx_warp_issue_cycle(w->pw);
        w->cta = c;
        w->warp_in_cta = (uint8_t)i;
        uint32_t left = sm->cta_threads - 32 * i;
        w->n_threads = (uint8_t)(left < 32 ? left : 32);
        w->held = SM_NONE;
        w->alu_ready = now;
        c->slot[i] = (uint8_t)slot;
        sm->age_pos[slot] = sm->n_age[w->sched];
        sm->age[w->sched][sm->n_age[w->sched]++] = (uint8_t)slot;
        set_state(sm, w, W_READY);
    }
    sm->used_threads += sm->cta_threads;
    sm->used_warps += sm->cta_warps;
    sm->used_regs += sm->cta_regs;
    sm->used_shmem += sm->cta_shmem;
    sm->n_ctas_res++;
    if (sm->n_ctas_res > sm->st.max_ctas_resident)
        sm->st.max_ctas_resident = sm->n_ctas_res;
    if (sm->used_warps > sm->st.max_warps_resident)
        sm->st.max_warps_resident = sm->used_warps;
}

/* ---- kernel controller ---- */

static bool send_kernel_op(struct sm *sm, enum mem_op op)
{
    if (!port_has_room(sm->to_l1, 1)) {
        sm->st.port_full++;
        return false;
    }
    struct msg *m = msg_new(sm->msgs, MSG_CORE_REQ, 0, sm->comp.eng->now);
    m->cls = TRAFFIC_REQ;
    sm->kgen++;
    m->req = (struct mem_req){.op = (uint8_t)op,
                              .sem = op == MEM_KERNEL_BEGIN ? SEM_ACQUIRE : SEM_RELEASE,
                              .scope = SCOPE_SYS,
                              .gpu = (uint8_t)sm->gpu,
                              .sm = (uint16_t)sm->id,
                              .warp = SM_NONE,
                              .id = req_id(sm->kgen, ID_KERNEL_SLOT, 0)};
    if (!port_send(sm->to_l1, m))
        panic("%s: send on a port that had room", sm->comp.name);
    eng_work_issued(sm->comp.eng);
    sm->st.mem_reqs[op]++;
    return true;
}

/* Every CTA is done; prefetches still queued are dropped (nobody will use
 * them) and the kernel end waits for those in flight. */
static bool kernel_may_end(struct sm *sm)
{
    if (sm->n_ctas_res)
        return false;
    sm->pf_n = 0;
    return sm->pf_out == 0;
}

bool smi_kernel_step(struct sm *sm)
{
    switch (sm->kstate) {
    case K_BEGIN_SEND:
        if (send_kernel_op(sm, MEM_KERNEL_BEGIN)) {
            sm->kstate = K_BEGIN_WAIT;
            return true;
        }
        return false;
    case K_RUN:
        if (!ctas_left(sm)) {
            if (kernel_may_end(sm))
                sm->kstate = K_END_SEND;
            return false;
        }
        if (!cta_fits(sm))
            return false;
        if (sm->fill_next < sm->run->fill_ctas) {
            cta_dispatch(sm, sm->fill_next);
            sm->fill_next += sm->run->n_sms;
        } else {
            cta_dispatch(sm, sm->run->next_cta++);
        }
        return true;
    case K_END_SEND:
        if (send_kernel_op(sm, MEM_KERNEL_END)) {
            sm->kstate = K_END_WAIT;
            return true;
        }
        return false;
    default:
        return false;
    }
}
