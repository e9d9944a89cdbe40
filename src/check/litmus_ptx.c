/*
 * litmus_ptx.c - translation of a litmus test to a PTX kernel (see
 * litmus_ptx.h for the placement and the randomisation it carries).
 *
 * Every instruction keeps its exact .sem and .scope: ld.weak -> ld.global,
 * ld.acquire.gpu -> ld.acquire.gpu.global, atom.acq_rel.sys.add ->
 * atom.acq_rel.sys.global.add, sub as add of the two's complement, red
 * likewise, fences as themselves. Operands that are integers go through a
 * mov into a scratch register so that every memory instruction has register
 * operands, as nvcc emits them.
 * NOT MODELED: proxies, aliases and several GPUs (refused), barrier ids
 * computed at run time and count barriers whose count differs from the number
 * of threads that arrive (a hardware barrier cannot let late arrivals pass).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "check/litmus_ptx.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"

struct sbuf {
    char *s;
    size_t n, cap;
    bool oom;
};

static void put(struct sbuf *b, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void put(struct sbuf *b, const char *fmt, ...)
{
    if (b->oom)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->s ? b->s + b->n : NULL, b->cap - b->n, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->oom = true;
            return;
        }
        if ((size_t)n < b->cap - b->n) {
            b->n += (size_t)n;
            return;
        }
        size_t nc = b->cap * 2 + (size_t)n + 256;
        char *ns = realloc(b->s, nc);
        if (!ns) {
            b->oom = true;
            return;
        }
        b->s = ns;
        b->cap = nc;
    }
}

static const char *sem_q(const struct litmus_instr *in)
{
    static const char *const sem[SEM_N] = {"",         "volatile.", "relaxed.", "acquire.",
                                           "release.", "acq_rel.",  "sc."};
    return sem[in->sem];
}

static const char *scope_q(const struct litmus_instr *in)
{
    static const char *const sc[SCOPE_N + 1] = {"cta.", "gpu.", "sys.", ""};
    return sc[in->scope];
}

/* An operand as PTX text: a litmus register or an integer. */
static void operand(char *buf, size_t n, const struct litmus_val *v)
{
    if (v->is_reg)
        snprintf(buf, n, "%%r%d", v->v);
    else
        snprintf(buf, n, "%u", (unsigned)v->v);
}

static void emit_delay(struct sbuf *b, const char *param, const char *label)
{
    put(b, "\tld.param.u32 %%t6, [%s];\n", param);
    put(b, "%s:\n", label);
    put(b, "\tsetp.eq.u32 %%p3, %%t6, 0;\n");
    put(b, "\t@%%p3 bra %s_out;\n", label);
    put(b, "\tsub.u32 %%t6, %%t6, 1;\n");
    put(b, "\tbra %s;\n", label);
    put(b, "%s_out:\n", label);
}

static int check_barriers(const struct litmus_test *t, char *why, size_t wl)
{
    if (t->n_groups > 16) {
        snprintf(why, wl, "more than 16 barrier groups");
        return -1;
    }
    for (unsigned g = 0; g < t->n_groups; g++) {
        const struct litmus_bar_group *bg = &t->groups[g];
        int members = __builtin_popcount(bg->members);
        if (bg->dynamic) {
            snprintf(why, wl,
                     "barrier %d takes its id from a loaded register: which threads "
                     "meet is decided at run time (no static hardware count)",
                     bg->inst);
            return -1;
        }
        if (bg->count && bg->count > members) {
            snprintf(why, wl, "barrier %d waits for %d threads but only %d can arrive (hangs)",
                     bg->inst, bg->count, members);
            return -1;
        }
        if (bg->count && bg->count < members) {
            snprintf(why, wl,
                     "barrier %d completes with %d of the %d threads that arrive; letting late "
                     "arrivals pass cannot be expressed with a hardware barrier",
                     bg->inst, bg->count, members);
            return -1;
        }
    }
    return 0;
}

/* A backward jump under a spin budget (opts.spin_budget): each one taken
 * spends one unit of the thread's %t9; at zero the thread gives up. */
static bool budgeted(const struct litmus_ptx_opts *o, const struct litmus_instr *in, unsigned i)
{
    return o->spin_budget && in->target <= (int)i;
}

static void jump_back(struct sbuf *b, unsigned th, const char *label)
{
    put(b, "\tsub.u32 %%t9, %%t9, 1;\n\tsetp.eq.u32 %%p3, %%t9, 0;\n");
    put(b, "\t@%%p3 bra P%u_SPUN;\n\tbra P%u_%s;\n", th, th, label);
}

static void emit_instr(struct sbuf *b, const struct litmus_test *t, const struct litmus_ptx_opts *o,
                       unsigned th, unsigned i)
{
    const struct litmus_instr *in = &t->th[th].ins[i];
    char a[32], bb[32];
    int loc = in->loc >= 0 ? t->locs[in->loc].root : -1;
    switch (in->op) {
    case LOP_LD:
        put(b, "\tld.%s%sglobal.u32 %%r%d, [%%a%d];\n", sem_q(in), scope_q(in), in->dst, loc);
        break;
    case LOP_ST:
        operand(a, sizeof a, &in->a);
        put(b, "\tmov.u32 %%t4, %s;\n", a);
        put(b, "\tst.%s%sglobal.u32 [%%a%d], %%t4;\n", sem_q(in), scope_q(in), loc);
        break;
    case LOP_ATOM:
    case LOP_RED: {
        const char *kind = in->atom == ATOM_CAS    ? "cas.b32"
                           : in->atom == ATOM_EXCH ? "exch.b32"
                                                   : "add.u32";
        uint32_t av = (uint32_t)in->a.v;
        if (in->atom == ATOM_SUB)
            av = 0u - av;
        put(b, "\tmov.u32 %%t4, %u;\n", av);
        if (in->atom == ATOM_CAS)
            put(b, "\tmov.u32 %%t5, %u;\n", (uint32_t)in->b.v);
        const char *pred = o->all_lanes ? "@%p0 " : "";
        if (in->op == LOP_RED)
            put(b, "\t%sred.%s%sglobal.%s [%%a%d], %%t4;\n", pred, sem_q(in), scope_q(in), kind,
                loc);
        else
            put(b, "\t%satom.%s%sglobal.%s %%r%d, [%%a%d], %%t4%s;\n", pred, sem_q(in), scope_q(in),
                kind, in->dst, loc, in->atom == ATOM_CAS ? ", %t5" : "");
        if (in->op == LOP_ATOM && o->all_lanes) { /* lane 0's old value to every lane */
            put(b, "\t@%%p0 st.shared.u32 [%%t7], %%r%d;\n", in->dst);
            put(b, "\tld.shared.u32 %%r%d, [%%t7];\n", in->dst);
        }
        break;
    }
    case LOP_FENCE:
        put(b, "\tfence.%s%.*s;\n", sem_q(in), 3, scope_q(in));
        break;
    case LOP_BAR_SYNC:
    case LOP_BAR_ARRIVE: {
        int g = t->bar_group[th][i];
        unsigned count = 32u * (unsigned)__builtin_popcount(t->groups[g].members);
        put(b, "\tbar.%s %d, %u;\n", in->op == LOP_BAR_SYNC ? "sync" : "arrive", g, count);
        break;
    }
    case LOP_ADD:
        if (!in->a.is_reg && !in->b.is_reg) {
            put(b, "\tmov.u32 %%r%d, %u;\n", in->dst, (uint32_t)in->a.v + (uint32_t)in->b.v);
        } else {
            const struct litmus_val *x = in->a.is_reg ? &in->a : &in->b;
            const struct litmus_val *y = in->a.is_reg ? &in->b : &in->a;
            operand(a, sizeof a, x);
            operand(bb, sizeof bb, y);
            put(b, "\tadd.u32 %%r%d, %s, %s;\n", in->dst, a, bb);
        }
        break;
    case LOP_BEQ:
    case LOP_BNE: {
        const char *label = NULL;
        for (unsigned k = 0; k < t->th[th].n_labels; k++)
            if (t->th[th].labels[k].at == in->target)
                label = t->th[th].labels[k].name;
        if (!in->a.is_reg && !in->b.is_reg) {
            if ((in->a.v == in->b.v) != (in->op == LOP_BEQ))
                break;
            if (budgeted(o, in, i))
                jump_back(b, th, label);
            else
                put(b, "\tbra P%u_%s;\n", th, label);
            break;
        }
        const struct litmus_val *x = in->a.is_reg ? &in->a : &in->b;
        const struct litmus_val *y = in->a.is_reg ? &in->b : &in->a;
        operand(a, sizeof a, x);
        operand(bb, sizeof bb, y);
        put(b, "\tsetp.%s.u32 %%p3, %s, %s;\n", in->op == LOP_BEQ ? "eq" : "ne", a, bb);
        if (budgeted(o, in, i)) {
            put(b, "\t@!%%p3 bra P%u_I%u_FALL;\n", th, i);
            jump_back(b, th, label);
            put(b, "P%u_I%u_FALL:\n", th, i);
        } else {
            put(b, "\t@%%p3 bra P%u_%s;\n", th, label);
        }
        break;
    }
    case LOP_GOTO:
        for (unsigned k = 0; k < t->th[th].n_labels; k++)
            if (t->th[th].labels[k].at == in->target) {
                if (budgeted(o, in, i))
                    jump_back(b, th, t->th[th].labels[k].name);
                else
                    put(b, "\tbra P%u_%s;\n", th, t->th[th].labels[k].name);
                break;
            }
        break;
    default:
        break;
    }
}

/* Whether any thread of t waits at a CTA barrier. */
static bool has_barrier(const struct litmus_test *t)
{
    for (unsigned th = 0; th < t->n_threads; th++)
        for (unsigned i = 0; i < t->th[th].n_instrs; i++)
            if (t->th[th].ins[i].op == LOP_BAR_SYNC || t->th[th].ins[i].op == LOP_BAR_ARRIVE)
                return true;
    return false;
}

/* Thread th's code: its entry label, registers and locations, the
 * pre-warming and skew delays, its instructions, its observed registers and,
 * when it loops under a spin budget (loops), the flag it leaves on giving up. */
static void emit_thread(struct sbuf *b, const struct litmus_test *t,
                        const struct litmus_ptx_opts *o, const struct litmus_ptx *p, unsigned th,
                        bool shared_warps, bool loops)
{
    const struct litmus_thread *tt = &t->th[th];
    if (tt->on_cpu)
        put(b, "\n// P%u@cpu %d\nP%u_START:\n", th, tt->cpu, th);
    else
        put(b, "\n// P%u@cta %d,gpu %d,gpm %d (warp %u, lane %u)\nP%u_START:\n", th, tt->cta,
            tt->gpu, tt->gpm, p->warp_of[th], p->lane_of[th], th);
    if (shared_warps) /* %p0: this thread's lane does the work */
        put(b, "\tsetp.eq.u32 %%p0, %%t3, %u;\n", p->lane_of[th]);
    for (int r = 0; r < LITMUS_MAX_REGS; r++)
        if (tt->regs_used & (1u << r))
            put(b, "\tmov.u32 %%r%d, %u;\n", r, (uint32_t)tt->reg_init[r]);
    uint32_t locs_used = 0;
    for (unsigned i = 0; i < tt->n_instrs; i++)
        if (tt->ins[i].loc >= 0)
            locs_used |= 1u << t->locs[tt->ins[i].loc].root;
    for (unsigned l = 0; l < t->n_locs; l++)
        if (locs_used & (1u << l))
            put(b, "\tadd.u64 %%a%u, %%rd0, %u;\n", l, p->loc_offset[l]);
    if (o->prewarm && locs_used) {
        /* pre-warm the subset of locations the launch's p_wmask names, so
         * that stale and fresh copies can meet in one iteration */
        put(b, "\tmov.u32 %%t5, 0;\n\tld.param.u32 %%t8, [p_wmask%u];\n", th);
        for (unsigned l = 0; l < t->n_locs; l++)
            if (locs_used & (1u << l)) {
                put(b, "\tand.b32 %%t6, %%t8, %u;\n", 1u << l);
                put(b, "\tsetp.ne.and.u32 %%p3, %%t6, 0, %%p0;\n");
                put(b, "\tmov.u32 %%t4, 0;\n");
                put(b, "\t@%%p3 ld.global.u32 %%t4, [%%a%u];\n", l);
                put(b, "\tadd.u32 %%t5, %%t5, %%t4;\n"); /* waits for the value */
            }
        char lab[32];
        snprintf(lab, sizeof lab, "P%u_WARM", th);
        emit_delay(b, "p_warm", lab);
    }
    char param[32], lab[32];
    snprintf(param, sizeof param, "p_skew%u", th);
    snprintf(lab, sizeof lab, "P%u_SKEW", th);
    emit_delay(b, param, lab);
    if (loops)
        put(b, "\tld.param.u32 %%t9, [p_spin];\n");
    for (unsigned i = 0; i <= tt->n_instrs; i++) {
        for (unsigned k = 0; k < tt->n_labels; k++)
            if (tt->labels[k].at == (int)i)
                put(b, "P%u_%s:\n", th, tt->labels[k].name);
        if (i < tt->n_instrs)
            emit_instr(b, t, o, th, i);
    }
    for (unsigned k = 0; k < t->n_obs; k++)
        if (t->obs[k].kind == LT_REG && t->obs[k].thread == (int)th)
            put(b, "\t@%%p0 st.global.u32 [%%rd1+%u], %%r%d;\n", 4 * k, t->obs[k].index);
    put(b, "\tbra DONE;\n");
    if (loops) { /* out of budget: flag it, leave the registers unwritten */
        put(b, "P%u_SPUN:\n\tmov.u32 %%t9, 1;\n", th);
        put(b, "\t@%%p0 st.global.u32 [%%rd1+%u], %%t9;\n\tbra DONE;\n", p->spin_offset + 4 * th);
    }
}

int litmus_ptx_build(const struct litmus_test *t, const struct litmus_ptx_opts *opts,
                     struct litmus_ptx *p, char *why, size_t whylen)
{
    memset(p, 0, sizeof *p);
    /* A thread that leaves its loop on the spin budget never reaches the
     * barriers after it, so its CTA's other threads would wait there forever:
     * a test with barriers runs without a budget, and a run that spins is
     * given up by the launcher instead (litmus_run) */
    struct litmus_ptx_opts budgeted_opts = *opts;
    if (has_barrier(t))
        budgeted_opts.spin_budget = 0;
    const struct litmus_ptx_opts *o = &budgeted_opts;
    unsigned gpus = MAX(o->gpus, 1u), gpms = MAX(o->gpms, 1u);
    const char *u = litmus_unsupported_on(t, gpus, gpms, o->cpus);
    if (u) {
        snprintf(why, whylen, "%s", u);
        return -1;
    }
    if (check_barriers(t, why, whylen))
        return -1;
    /* placement: (GPM, CTA id) pairs sorted, numbered within their GPM */
    long ctas[LITMUS_MAX_THREADS];
    unsigned n_ctas = 0, n_gpms = gpus * gpms;
    for (unsigned th = 0; th < t->n_threads; th++) {
        if (t->th[th].on_cpu) { /* CTA cpu of the CPU launch */
            p->cta_of[th] = (unsigned)t->th[th].cpu;
            p->n_cpu_ctas = MAX(p->n_cpu_ctas, p->cta_of[th] + 1);
            continue;
        }
        long key = (long)(t->th[th].gpu * gpms + t->th[th].gpm) << 32 | t->th[th].cta;
        unsigned k = 0;
        while (k < n_ctas && ctas[k] != key)
            k++;
        if (k == n_ctas)
            ctas[n_ctas++] = key;
    }
    for (unsigned x = 1; x < n_ctas; x++) /* sort by GPM, then CTA id */
        for (unsigned y = x; y > 0 && ctas[y - 1] > ctas[y]; y--) {
            long tmp = ctas[y];
            ctas[y] = ctas[y - 1];
            ctas[y - 1] = tmp;
        }
    unsigned slot[LITMUS_MAX_THREADS], per_gpm_max = 0;
    for (unsigned k = 0; k < n_ctas; k++) {
        slot[k] = k && ctas[k - 1] >> 32 == ctas[k] >> 32 ? slot[k - 1] + 1 : 0;
        per_gpm_max = MAX(per_gpm_max, slot[k] + 1);
    }
    unsigned per_cta[LITMUS_MAX_THREADS] = {0};
    bool shared_warps = false; /* some threads are lanes of one warp (",warp N") */
    for (unsigned th = 0; th < t->n_threads; th++) {
        if (t->th[th].on_cpu)
            continue;
        long key = (long)(t->th[th].gpu * gpms + t->th[th].gpm) << 32 | t->th[th].cta;
        unsigned k = 0;
        while (ctas[k] != key)
            k++;
        p->cta_of[th] = n_gpms == 1 ? k : (unsigned)(ctas[k] >> 32) * per_gpm_max + slot[k];
        p->lane_of[th] = (unsigned)t->th[th].lane;
        shared_warps |= t->th[th].lane > 0;
        int same = -1; /* an earlier thread of this CTA naming the same warp */
        for (unsigned o2 = 0; o2 < th && t->th[th].warp >= 0; o2++)
            if (!t->th[o2].on_cpu && p->cta_of[o2] == p->cta_of[th] &&
                t->th[o2].warp == t->th[th].warp)
                same = (int)o2;
        p->warp_of[th] = same >= 0 ? p->warp_of[same] : per_cta[k]++;
        p->warps_per_cta = MAX(p->warps_per_cta, per_cta[k]);
    }
    if (shared_warps && o->all_lanes) {
        snprintf(why, whylen, "threads placed in one warp (',warp N') cannot run with every lane");
        return -1;
    }
    p->n_ctas = n_gpms == 1 || !n_ctas ? n_ctas : n_gpms * per_gpm_max;
    /* memory layout */
    unsigned stride = o->pack ? 4 : 128, n_roots = 0;
    for (unsigned l = 0; l < t->n_locs; l++)
        if (t->locs[l].alias_of < 0)
            p->loc_offset[l] = stride * n_roots++;
    for (unsigned l = 0; l < t->n_locs; l++)
        p->loc_offset[l] = p->loc_offset[t->locs[l].root];
    p->mem_bytes = (n_roots * stride + 127) / 128 * 128;
    if (!p->mem_bytes)
        p->mem_bytes = 128;
    p->out_bytes = (t->n_obs ? t->n_obs : 1) * 4;
    p->kernel = "litmus_kernel";
    /* under a spin budget, a word per thread after the observables: 1 when
     * the thread gave up in a loop */
    bool loops[LITMUS_MAX_THREADS] = {0};
    for (unsigned th = 0; th < t->n_threads && o->spin_budget; th++)
        for (unsigned i = 0; i < t->th[th].n_instrs; i++) {
            const struct litmus_instr *in = &t->th[th].ins[i];
            if ((in->op == LOP_BEQ || in->op == LOP_BNE || in->op == LOP_GOTO) &&
                in->target <= (int)i) {
                loops[th] = true;
                p->spin_flags = true;
            }
        }
    if (p->spin_flags) {
        p->spin_offset = t->n_obs * 4;
        p->out_bytes = (t->n_obs + t->n_threads) * 4;
    }

    struct sbuf b = {0};
    put(&b, "// %s: generated from the litmus test %s\n", t->name, t->path);
    put(&b, ".version 7.5\n.target sm_70\n.address_size 64\n\n");
    put(&b, ".visible .entry litmus_kernel(\n\t.param .u64 p_mem,\n\t.param .u64 p_out");
    for (unsigned th = 0; th < t->n_threads; th++)
        put(&b, ",\n\t.param .u32 p_skew%u", th);
    put(&b, ",\n\t.param .u32 p_warm");
    for (unsigned th = 0; th < t->n_threads; th++)
        put(&b, ",\n\t.param .u32 p_wmask%u", th);
    bool cpu = p->n_cpu_ctas > 0; /* the kernel is also launched on the CPU cores */
    if (cpu)
        put(&b, ",\n\t.param .u32 p_cpu");
    if (p->spin_flags)
        put(&b, ",\n\t.param .u32 p_spin");
    put(&b, "\n)\n{\n");
    /* %t7 holds the broadcast slot with --all-lanes; %t8 the pre-warm mask;
     * %t9 the backward jumps a looping thread has left */
    put(&b, "\t.reg .pred %%p<4>;\n\t.reg .b32 %%r<%d>;\n\t.reg .b32 %%t<%d>;\n", LITMUS_MAX_REGS,
        p->spin_flags ? 10 : 9);
    put(&b, "\t.reg .b64 %%rd<4>;\n\t.reg .b64 %%a<%d>;\n", LITMUS_MAX_LOCS);
    if (o->all_lanes)
        put(&b, "\t.shared .align 4 .b32 bcast[%u];\n", p->warps_per_cta);
    put(&b, "\n\tmov.u32 %%t0, %%tid.x;\n\tmov.u32 %%t1, %%ctaid.x;\n");
    put(&b, "\tshr.u32 %%t2, %%t0, 5;\n\tand.b32 %%t3, %%t0, 31;\n");
    put(&b, "\tsetp.eq.u32 %%p0, %%t3, 0;\n");
    put(&b, "\tld.param.u64 %%rd0, [p_mem];\n\tld.param.u64 %%rd1, [p_out];\n");
    if (o->all_lanes) {
        put(&b, "\tmov.u32 %%t7, bcast;\n\tmad.lo.u32 %%t7, %%t2, 4, %%t7;\n");
    } else if (!shared_warps) {
        put(&b, "\t@!%%p0 bra DONE;\n");
    }
    /* %t6: 1 in the launch on the CPU cores, whose threads are told by CTA */
    if (cpu)
        put(&b, "\tld.param.u32 %%t6, [p_cpu];\n");
    for (unsigned th = 0; th < t->n_threads; th++) {
        put(&b, "\tsetp.eq.u32 %%p1, %%t1, %u;\n\tsetp.eq.u32 %%p2, %%t2, %u;\n", p->cta_of[th],
            p->warp_of[th]);
        put(&b, "\tand.pred %%p1, %%p1, %%p2;\n");
        if (shared_warps) { /* and the lane */
            put(&b, "\tsetp.eq.u32 %%p2, %%t3, %u;\n", p->lane_of[th]);
            put(&b, "\tand.pred %%p1, %%p1, %%p2;\n");
        }
        if (cpu) {
            put(&b, "\tsetp.%s.u32 %%p2, %%t6, 0;\n", t->th[th].on_cpu ? "ne" : "eq");
            put(&b, "\tand.pred %%p1, %%p1, %%p2;\n");
        }
        put(&b, "\t@%%p1 bra P%u_START;\n", th);
    }
    put(&b, "\tbra DONE;\n");
    for (unsigned th = 0; th < t->n_threads; th++)
        emit_thread(&b, t, o, p, th, shared_warps, loops[th]);
    put(&b, "\nDONE:\n\tret;\n}\n");
    if (b.oom) {
        free(b.s);
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    p->text = b.s;
    return 0;
}

void litmus_ptx_free(struct litmus_ptx *p)
{
    free(p->text);
    p->text = NULL;
}
