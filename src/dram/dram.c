/*
 * dram.c - a GDDR5 channel: request queue, FR-FCFS/FCFS scheduler, banks with
 * open rows, one command per cycle, a shared data bus (see dram.h).
 *
 * Each DRAM cycle the channel (1) sends responses whose time has come, (2)
 * moves the request latch into the queue, (3) issues at most one command.
 * FR-FCFS (Rixner et al.): the oldest request whose column command (a row
 * hit) can issue now wins; otherwise the oldest request whose ACT or PRE can
 * issue now, except that a row is not closed while a queued request still
 * hits it. FCFS (GPGPU-Sim's fifo): a request is served only when it is the
 * oldest queued request to its bank and no older request waits for a bank
 * that is taken (head-of-line blocking). A request leaves the queue when its
 * column command issues; a read copies the line from the backing store then,
 * a write applies its masked bytes then. Rows stay open (open-page policy).
 * INVARIANT: no request is served before an older one to the same line.
 * Timing (DRAM cycles): ACT->RD/WR tRCD, ACT->PRE tRAS, ACT->ACT same bank
 * tRC, any bank tRRD, PRE->ACT tRP, RD/WR->RD/WR tCCD (tCCDL same bank), read
 * data on the bus tCL after RD, write data tWL after WR, each B =
 * line_bytes/bus_bytes_per_cycle cycles and never overlapping; RD->PRE
 * tRTPL; end of write data ->PRE tWR, ->RD tCDLR.
 * DEVIATION: bank groups are not modelled (tCCDL applies within a bank);
 * tRCDWR = tRCD; read->write turnaround is only the bus occupancy.
 * NOT MODELED: refresh, tFAW, power-down, the command/address split.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "dram/dram.h"

#include <stdlib.h>
#include <string.h>

#include "base/bits.h"
#include "base/log.h"
#include "base/rng.h"

static const char *const sched_names[] = {"fcfs", "frfcfs", NULL};

/* Defaults: spec 002 Table 4. latency_cycles = 86: an L2 miss should cost
 * about 120 core cycles (84 ns) more than an L2 hit (460 vs 340 core cycles
 * at 1400 MHz). A read to a closed bank takes tRCD + tCL + B + latency =
 * 12 + 12 + 8 + 86 = 118 DRAM cycles = 84.3 ns at 1400 MHz; the L2's own
 * miss handling adds the last few cycles. bus_bytes_per_cycle = 16: 8
 * channels x 16 B x 1400 MHz = 179 GB/s, Table 4's 175 GB/s peak. */
/*        key       field    default  min  max  unit  help */
const struct cfg_opt dram_opts[] = {
    CFG_F64("mhz", struct dram_spec, mhz, "1400", 1, 100000, "MHz", "DRAM command clock"),
    CFG_U32("banks", struct dram_spec, banks, "16", 1, 1024, "", "banks per channel"),
    CFG_U32("row_bytes", struct dram_spec, row_bytes, "2048", 1, 1u << 24, "bytes",
            "row (page) size per bank; a multiple of the line size"),
    CFG_U32("queue", struct dram_spec, queue, "32", 1, 4096, "entries", "request queue entries"),
    CFG_ENUM("sched", struct dram_spec, sched, "frfcfs", sched_names,
             "scheduler: fcfs (in order per bank) or frfcfs (row hits first, then oldest)"),
    CFG_U32("bus_bytes_per_cycle", struct dram_spec, bus_bytes_per_cycle, "16", 1, 4096, "bytes",
            "data bus bytes per DRAM cycle (a 128 B line at 16 = 8 cycles)"),
    CFG_U32("latency_cycles", struct dram_spec, latency_cycles, "86", 0, 100000, "cycles",
            "fixed controller + PHY latency added to every access"),
    CFG_U32("tCL", struct dram_spec, tCL, "12", 0, 10000, "cycles", "RD to read data"),
    CFG_U32("tRP", struct dram_spec, tRP, "12", 0, 10000, "cycles", "PRE to ACT, same bank"),
    CFG_U32("tRC", struct dram_spec, tRC, "40", 0, 10000, "cycles", "ACT to ACT, same bank"),
    CFG_U32("tRAS", struct dram_spec, tRAS, "28", 0, 10000, "cycles", "ACT to PRE, same bank"),
    CFG_U32("tCCD", struct dram_spec, tCCD, "2", 0, 10000, "cycles",
            "column to column command, any bank"),
    CFG_U32("tWL", struct dram_spec, tWL, "4", 0, 10000, "cycles", "WR to write data"),
    CFG_U32("tRCD", struct dram_spec, tRCD, "12", 0, 10000, "cycles", "ACT to RD/WR, same bank"),
    CFG_U32("tRRD", struct dram_spec, tRRD, "6", 0, 10000, "cycles", "ACT to ACT, any bank"),
    CFG_U32("tCDLR", struct dram_spec, tCDLR, "5", 0, 10000, "cycles",
            "end of write data to RD (write-to-read turnaround)"),
    CFG_U32("tWR", struct dram_spec, tWR, "12", 0, 10000, "cycles",
            "end of write data to PRE (write recovery), same bank"),
    CFG_U32("tCCDL", struct dram_spec, tCCDL, "3", 0, 10000, "cycles",
            "column to column command, same bank (bank group)"),
    CFG_U32("tRTPL", struct dram_spec, tRTPL, "2", 0, 10000, "cycles", "RD to PRE, same bank"),
    CFG_U32("jitter_cycles", struct dram_spec, jitter_cycles, "0", 0, 100000, "cycles",
            "extra seeded random response delay, uniform in [0, jitter] (litmus runs)"),
    CFG_END};

struct dram_entry {
    struct msg *m;
    cycle_t arrival; /* cycle it entered the queue */
    uint64_t line;   /* channel-local line number: same line <=> same value */
    uint64_t row;
    uint32_t bank;
    bool did_act; /* an ACT was issued for it (row miss) */
    bool did_pre; /* a PRE was issued for it (row conflict) */
    bool behind;  /* an older queued request is to the same line */
    bool read;    /* MSG_DRAM_READ (kept here: the scheduler scans often) */
};

struct dram_rsp {
    struct msg *m;
    tick_t ready; /* when it may go to the response port */
};

struct dram_bank {
    bool open;
    uint64_t row;       /* open row */
    cycle_t next_act;   /* earliest ACT (tRC, tRP) */
    cycle_t next_col;   /* earliest RD/WR (tRCD, tCCDL) */
    cycle_t next_pre;   /* earliest PRE (tRAS, tRTPL, tWR) */
    uint32_t open_hits; /* queued requests to the open row (while open) */
};

struct dram {
    struct comp comp;
    struct dram_spec spec;
    struct backing *store;
    unsigned line_bytes, channel, n_channels;
    unsigned lines_per_row;
    unsigned burst;       /* B: data bus cycles per line */
    struct port req;      /* one-message latch in front of the queue */
    struct port *rsp;     /* the L2's port */
    struct dram_entry *q; /* [spec.queue], oldest first */
    unsigned n_q;
    struct dram_rsp *rq; /* ring of [rq_cap] responses in service order */
    unsigned rq_head, rq_n, rq_cap;
    struct dram_bank *banks;
    uint32_t *claim; /* [banks]: FCFS bank claims, by generation */
    uint32_t claim_gen;
    cycle_t next_act;            /* tRRD */
    cycle_t next_col;            /* tCCD */
    cycle_t next_rd;             /* tCDLR */
    cycle_t bus_free;            /* first cycle the data bus is free */
    cycle_t sched_at;            /* no command can issue before this cycle (0: look);
                                    plan() sets it to the first one that can */
    bool planned;                /* plan_i is what issues at sched_at if nothing arrives and
                                    no response slot frees (both reset sched_at: replan) */
    int plan_i;                  /* queue entry whose command issues at sched_at (-1: none) */
    cycle_t hit_at, row_at;      /* the plan's earliest column and row command cycles ... */
    int hit_i, row_i;            /* ... and the oldest entries ready then (-1: none) */
    tick_t sched_wake, rsp_wake; /* the tick times asked of the engine last for them */
    cycle_t full_since;          /* the cycle the channel went to sleep with its latch
                                    held by a full queue (0: not asleep so) */
    struct rng rng;              /* jitter stream */
    char req_name[96];
    struct dram_stats st;
};

static cycle_t max_c(cycle_t a, cycle_t b)
{
    return a > b ? a : b;
}

static bool is_read(const struct msg *m)
{
    return m->type == MSG_DRAM_READ;
}

/* Whether a queued request hits the open row of bank b (kept as a count). */
static bool hit_pending(const struct dram *d, uint32_t bank)
{
    return d->banks[bank].open_hits > 0;
}

static bool older_same_line(const struct dram *d, unsigned i)
{
    return d->q[i].behind;
}

static void push_rsp(struct dram *d, struct msg *m, cycle_t ready_c)
{
    tick_t ready = ready_c * d->comp.clk->period_ps;
    if (d->rq_n) { /* responses leave in service order */
        const struct dram_rsp *last = &d->rq[(d->rq_head + d->rq_n - 1) % d->rq_cap];
        ready = MAX(ready, last->ready);
    }
    d->rq[(d->rq_head + d->rq_n) % d->rq_cap] = (struct dram_rsp){m, ready};
    d->rq_n++;
}

/* Issue the RD or WR of queue entry i at cycle c and retire the entry. */
static void issue_col(struct dram *d, unsigned i, cycle_t c)
{
    const struct dram_spec *sp = &d->spec;
    struct dram_entry *e = &d->q[i];
    struct dram_bank *b = &d->banks[e->bank];
    struct msg *m = e->m;
    addr_t line_addr = m->addr - m->addr % d->line_bytes;
    cycle_t done;

    if (is_read(m)) {
        backing_read(d->store, line_addr, m->data, d->line_bytes);
        memset(&m->mask, 0, sizeof m->mask);
        bytemask_set_range(&m->mask, 0, d->line_bytes);
        m->type = MSG_DRAM_DATA;
        m->size_bytes = (uint16_t)d->line_bytes;
        d->bus_free = c + sp->tCL + d->burst;
        b->next_pre = max_c(b->next_pre, c + sp->tRTPL);
        done = c + sp->tCL + d->burst;
        d->st.reads++;
    } else {
        backing_write_masked(d->store, line_addr, m->data, m->mask.w, d->line_bytes);
        m->type = MSG_DRAM_WRACK;
        m->size_bytes = 0;
        done = c + sp->tWL + d->burst;
        d->bus_free = done;
        b->next_pre = max_c(b->next_pre, done + sp->tWR);
        d->next_rd = max_c(d->next_rd, done + sp->tCDLR);
        d->st.writes++;
    }
    b->next_col = c + sp->tCCDL;
    d->next_col = c + sp->tCCD;
    b->open_hits--; /* it was a row hit */
    if (e->did_pre)
        d->st.row_conflicts++;
    else if (e->did_act)
        d->st.row_misses++;
    else
        d->st.row_hits++;

    cycle_t ready = done + sp->latency_cycles;
    if (sp->jitter_cycles)
        ready += rng_below(&d->rng, (uint64_t)sp->jitter_cycles + 1);
    if (m->type == MSG_DRAM_DATA)
        d->st.total_read_latency_cycles += ready - e->arrival;
    push_rsp(d, m, ready);
    /* the oldest request to a line is the one served: the next one to the
     * line (if any) is now the oldest */
    for (unsigned j = i + 1; j < d->n_q; j++)
        if (d->q[j].line == e->line) {
            d->q[j].behind = false;
            break;
        }
    memmove(&d->q[i], &d->q[i + 1], (d->n_q - i - 1) * sizeof *d->q);
    d->n_q--;
}

static void issue_row(struct dram *d, struct dram_entry *e, cycle_t c)
{
    const struct dram_spec *sp = &d->spec;
    struct dram_bank *b = &d->banks[e->bank];
    if (b->open) { /* PRE */
        b->open = false;
        b->open_hits = 0;
        b->next_act = max_c(b->next_act, c + sp->tRP);
        e->did_pre = true;
        d->st.pres++;
    } else { /* ACT */
        b->open = true;
        b->row = e->row;
        b->open_hits = 0;
        for (unsigned i = 0; i < d->n_q; i++)
            b->open_hits += d->q[i].bank == e->bank && d->q[i].row == e->row;
        b->next_col = max_c(b->next_col, c + sp->tRCD);
        b->next_pre = max_c(b->next_pre, c + sp->tRAS);
        b->next_act = c + sp->tRC;
        d->next_act = c + sp->tRRD;
        e->did_act = true;
        d->st.acts++;
    }
}

/* Nothing is known about the next command any more (an arrival, a freed
 * response slot): the next tick looks at the queue. */
static void replan(struct dram *d)
{
    d->sched_at = 0;
    d->planned = false;
}

/* Find the first cycle T >= c at which a command could issue if nothing
 * arrives and no response slot frees, and which one schedule()'s rules pick
 * then; sets sched_at = T and the plan. FR-FCFS (Rixner et al.): at T the
 * oldest request whose column command (a row hit) can issue wins; otherwise
 * the oldest whose ACT or PRE can issue. Every entry's ready cycle depends only
 * on the banks and the bus, which change only when a command issues, so one
 * look at the queue after each command finds both when the next one issues
 * and which: the channel sleeps until then and issues it without looking
 * again. Without response room no column command is picked (T still counts
 * them, as a look every cycle would: the channel ticks while responses are
 * held). */
static void plan_pick(struct dram *d)
{
    d->sched_at = MIN(d->hit_at, d->row_at);
    if (d->hit_at == d->sched_at && d->rq_n < d->rq_cap)
        d->plan_i = d->hit_i;
    else if (d->row_at == d->sched_at)
        d->plan_i = d->row_i;
    else
        d->plan_i = -1;
    d->planned = d->plan_i >= 0;
}

/* The channel-wide limits on a column command, a read's and a write's: the
 * same for every entry. */
static void col_limits(const struct dram *d, cycle_t *rd, cycle_t *wr)
{
    const struct dram_spec *sp = &d->spec;
    *rd = max_c(max_c(d->next_col, d->next_rd), d->bus_free > sp->tCL ? d->bus_free - sp->tCL : 0);
    *wr = max_c(d->next_col, d->bus_free > sp->tWL ? d->bus_free - sp->tWL : 0);
}

/* Entry i's candidacy in the plan from cycle c: an entry's next command may
 * issue at: a row hit, its column command (the bank's column limit and the
 * channel's); a closed bank, the ACT; an open bank with another row, the PRE,
 * except that FR-FCFS does not close a row while a queued request still hits
 * it. The oldest entry wins a tie. */
static inline void plan_entry(struct dram *d, unsigned i, cycle_t c, cycle_t col_rd, cycle_t col_wr,
                              bool fcfs)
{
    const struct dram_entry *e = &d->q[i];
    const struct dram_bank *b = &d->banks[e->bank];
    cycle_t t;
    if (b->open && b->row == e->row) {
        t = max_c(max_c(b->next_col, e->read ? col_rd : col_wr), c);
        if (t < d->hit_at) {
            d->hit_at = t;
            d->hit_i = (int)i;
        }
        return;
    }
    if (!b->open)
        t = max_c(b->next_act, d->next_act);
    else if (fcfs || !hit_pending(d, e->bank))
        t = b->next_pre;
    else
        return; /* waits for the row hits ahead of it to the same bank */
    t = max_c(t, c);
    if (t < d->row_at) {
        d->row_at = t;
        d->row_i = (int)i;
    }
}

static void plan(struct dram *d, cycle_t c)
{
    bool fcfs = d->spec.sched == DRAM_FCFS;
    cycle_t col_rd, col_wr;
    col_limits(d, &col_rd, &col_wr);
    d->hit_at = d->row_at = UINT64_MAX;
    d->hit_i = d->row_i = -1;

    if (fcfs && ++d->claim_gen == 0) {
        memset(d->claim, 0, d->spec.banks * sizeof *d->claim);
        d->claim_gen = 1;
    }
    for (unsigned i = 0; i < d->n_q; i++) {
        const struct dram_entry *e = &d->q[i];
        if (fcfs) {
            if (d->claim[e->bank] == d->claim_gen)
                break; /* head-of-line: its bank serves an older request */
            d->claim[e->bank] = d->claim_gen;
        } else if (older_same_line(d, i)) {
            continue;
        }
        plan_entry(d, i, c, col_rd, col_wr, fcfs);
    }
    plan_pick(d);
}

/* Issue at most one command at cycle c (c >= sched_at). Returns true if one
 * issued; then plans the next from c + 1. If none could, sched_at is the
 * first cycle after c at which one could if nothing new arrives (commands
 * only become possible by time passing; an arrival or a freed response slot
 * resets sched_at). */
static bool schedule(struct dram *d, cycle_t c)
{
    if (!d->planned || d->sched_at != c) {
        plan(d, c);
        if (d->sched_at != c)
            return false;    /* the first command is due later */
        if (d->plan_i < 0) { /* a row hit is ready but the responses are full */
            d->sched_at = c + 1;
            return false;
        }
    }
    struct dram_entry *e = &d->q[d->plan_i];
    const struct dram_bank *b = &d->banks[e->bank];
    if (b->open && b->row == e->row)
        issue_col(d, (unsigned)d->plan_i, c);
    else
        issue_row(d, e, c);
    plan(d, c + 1);
    return true;
}

/* Send the responses whose time has come, in order. Returns true if any
 * went; sets *stuck when a ready one found the port full. */
static bool send_rsps(struct dram *d, bool *stuck)
{
    bool moved = false;
    tick_t now = d->comp.eng->now;
    *stuck = false;
    while (d->rq_n && d->rq[d->rq_head].ready <= now) {
        if (!d->rsp)
            panic("%s: a response is ready but dram_connect was never called", d->comp.name);
        if (!port_send(d->rsp, d->rq[d->rq_head].m)) {
            d->st.rsp_full_cycles++;
            *stuck = true;
            break;
        }
        if (d->rq_n == d->rq_cap) /* a column command may issue again */
            replan(d);
        d->rq_head = (d->rq_head + 1) % d->rq_cap;
        d->rq_n--;
        moved = true;
    }
    return moved;
}

/* Move the latched request into the queue if there is room. */
static bool accept(struct dram *d, cycle_t c)
{
    struct msg *m = port_peek(&d->req);
    if (!m)
        return false;
    if (d->n_q == d->spec.queue) {
        d->st.queue_full_cycles++;
        return false;
    }
    if (m->type != MSG_DRAM_READ && m->type != MSG_DRAM_WRITE)
        panic("%s: request of type %u at 0x%llx is neither MSG_DRAM_READ nor MSG_DRAM_WRITE",
              d->comp.name, m->type, (unsigned long long)m->addr);
    port_pop(&d->req);
    uint64_t local = m->addr / d->line_bytes / d->n_channels;
    uint64_t row_no = local / d->lines_per_row; /* all rows of all banks, in order */
    bool behind = false;
    for (unsigned j = 0; j < d->n_q && !behind; j++)
        behind = d->q[j].line == local;
    struct dram_bank *b = &d->banks[row_no % d->spec.banks];
    bool was_pending = b->open_hits > 0;
    b->open_hits += b->open && b->row == row_no / d->spec.banks;
    d->q[d->n_q++] = (struct dram_entry){
        .behind = behind,
        .read = is_read(m),
        .m = m,
        .arrival = c,
        .line = local,
        .row = row_no / d->spec.banks,
        .bank = (uint32_t)(row_no % d->spec.banks),
    };
    /* The youngest entry changes no other entry's ready cycle, unless it is
     * the first row hit of its bank (a PRE there must now wait) or FCFS's
     * head-of-line rule applies: a plan for now or later takes it in as one
     * more candidate, as plan() would have, last. */
    if (!d->planned || d->sched_at < c || d->spec.sched == DRAM_FCFS ||
        (!was_pending && b->open_hits > 0)) {
        replan(d);
    } else if (!behind) {
        cycle_t col_rd, col_wr;
        col_limits(d, &col_rd, &col_wr);
        plan_entry(d, d->n_q - 1, c, col_rd, col_wr, false);
        plan_pick(d);
    }
    return true;
}

/* comp_wake_at(cp, t), left out when t is what *asked held and still lies
 * ahead: that tick is pending (the engine drops none), and asking again would
 * change nothing but cost a search of the pending ticks. A sleeping channel
 * asks for the same first response time at every command. */
static void wake_once(struct comp *cp, tick_t t, tick_t *asked)
{
    if (t == *asked && t > cp->eng->now)
        return;
    *asked = t;
    comp_wake_at(cp, t);
}

/* One DRAM cycle. Ticks while the next command can issue in the next cycle
 * (or a request or response waits); otherwise sleeps until the planned
 * command's cycle or the first response is due. */
static bool dram_tick(struct comp *cp)
{
    struct dram *d = container_of(cp, struct dram, comp);
    cycle_t c = comp_cycle(cp);
    bool stuck;

    if (d->full_since) { /* the cycles slept through each found the queue full */
        if (c > d->full_since)
            d->st.queue_full_cycles += c - d->full_since - 1;
        else /* dram_stats already counted this cycle; accept() counts it below */
            d->st.queue_full_cycles--;
        d->full_since = 0;
    }
    send_rsps(d, &stuck);
    bool took = accept(d, c);
    bool issued = c >= d->sched_at && schedule(d, c);
    /* The latch waits for a full queue: until a command issues (at
     * next_issue) or a response is due, every cycle would only count
     * queue_full_cycles, so sleep and count them at the wake. Nothing else
     * can change that: the latch is taken, and a stuck response keeps the
     * channel ticking. */
    if (!issued && !took && !stuck && d->req.n && d->n_q == d->spec.queue && d->rq_n < d->rq_cap) {
        tick_t at = d->sched_at * cp->clk->period_ps;
        if (d->rq_n)
            at = MIN(at, d->rq[d->rq_head].ready);
        if (at > cp->eng->now + cp->clk->period_ps) {
            d->full_since = c;
            comp_wake_at(cp, at);
            return false;
        }
        return true;
    }
    /* tick on while the next command can issue next cycle, a request waits
     * in the latch (counted in queue_full_cycles) or responses are held;
     * otherwise sleep until the next command can issue (an arrival wakes the
     * channel sooner). A tick in between would find nothing: no response is
     * due and the plan says no command can issue. Taking a request is no
     * reason to tick again: the plan above has it, and the latch is empty (the
     * next request's send wakes the channel). */
    if ((issued && d->sched_at <= c + 1) || stuck || d->req.n || (d->n_q && d->rq_n == d->rq_cap))
        return true;
    if (d->n_q && d->sched_at != UINT64_MAX)
        wake_once(cp, d->sched_at * cp->clk->period_ps, &d->sched_wake);
    if (d->rq_n)
        wake_once(cp, d->rq[d->rq_head].ready, &d->rsp_wake);
    return false;
}

static const char *type_name(uint16_t t)
{
    switch (t) {
    case MSG_DRAM_READ:
        return "READ";
    case MSG_DRAM_WRITE:
        return "WRITE";
    case MSG_DRAM_DATA:
        return "DATA";
    case MSG_DRAM_WRACK:
        return "WRACK";
    default:
        return "?";
    }
}

static void dump_msg(FILE *out, const struct msg *m)
{
    fprintf(out, "%s(%u) addr 0x%llx src %u dst %u", type_name(m->type), m->type,
            (unsigned long long)m->addr, m->src, m->dst);
}

void dram_dump(struct dram *d, FILE *out)
{
    tick_t now = d->comp.eng->now, period = d->comp.clk->period_ps;
    cycle_t c = now / period;
    fprintf(out,
            "  %s: channel %u/%u, %u queued, %u responses pending, bus free at %llu (now %llu)\n",
            d->comp.name, d->channel, d->n_channels, d->n_q, d->rq_n,
            (unsigned long long)d->bus_free, (unsigned long long)c);
    for (unsigned b = 0; b < d->spec.banks; b++)
        if (d->banks[b].open)
            fprintf(out, "    bank %u: row %llu open\n", b, (unsigned long long)d->banks[b].row);
    for (uint32_t i = 0; i < d->req.n; i++) {
        fprintf(out, "    latch: ");
        dump_msg(out, port_slot_at(&d->req, i)->m);
        fprintf(out, "\n");
    }
    for (unsigned i = 0; i < d->n_q; i++) {
        const struct dram_entry *e = &d->q[i];
        fprintf(out, "    q[%u]: ", i);
        dump_msg(out, e->m);
        fprintf(out, " bank %u row %llu age %llu cycles%s%s\n", e->bank, (unsigned long long)e->row,
                (unsigned long long)(c - e->arrival), e->did_pre ? " pre'd" : "",
                e->did_act ? " act'd" : "");
    }
    for (unsigned i = 0; i < d->rq_n; i++) {
        const struct dram_rsp *r = &d->rq[(d->rq_head + i) % d->rq_cap];
        fprintf(out, "    rsp[%u] ready@%llu: ", i, (unsigned long long)r->ready);
        dump_msg(out, r->m);
        fprintf(out, " age %llu cycles\n",
                (unsigned long long)((now - MIN(now, r->m->born)) / period));
    }
}

static void dram_comp_dump(struct comp *c, FILE *out)
{
    dram_dump(container_of(c, struct dram, comp), out);
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        panic("out of memory");
    return p;
}

struct dram *dram_new(struct eng *e, const char *name, const struct clock *clk,
                      const struct dram_spec *spec, struct backing *store, unsigned line_bytes,
                      unsigned channel, unsigned n_channels)
{
    /* The option bounds and config_load's cross-checks (dram.row_bytes a multiple of
     * l2.line) keep a configured machine inside these: a violation is the machine
     * builder's fault, not the user's. */
    panic_if(!line_bytes || line_bytes > LINE_MAX_BYTES, "%s: line size %u is outside 1..%u bytes",
             name, line_bytes, LINE_MAX_BYTES);
    panic_if(spec->row_bytes < line_bytes || spec->row_bytes % line_bytes,
             "%s: dram.row_bytes (%u) must be a multiple of the line size (%u)", name,
             spec->row_bytes, line_bytes);
    panic_if(!n_channels || channel >= n_channels, "%s: channel %u of %u channels", name, channel,
             n_channels);
    panic_if(!spec->banks || !spec->queue || !spec->bus_bytes_per_cycle ||
                 spec->sched > DRAM_FRFCFS,
             "%s: dram.banks, dram.queue and dram.bus_bytes_per_cycle must be at least 1 and "
             "dram.sched fcfs or frfcfs",
             name);
    struct dram *d = xcalloc(1, sizeof *d);
    comp_init(&d->comp, e, name, clk, dram_tick, dram_comp_dump);
    d->spec = *spec;
    d->store = store;
    d->line_bytes = line_bytes;
    d->channel = channel;
    d->n_channels = n_channels;
    d->lines_per_row = spec->row_bytes / line_bytes;
    d->burst = (line_bytes + spec->bus_bytes_per_cycle - 1) / spec->bus_bytes_per_cycle;
    d->q = xcalloc(spec->queue, sizeof *d->q);
    /* Data bursts never overlap, so responses become due at least B cycles
     * apart: this many pending ones never throttle the channel; more only
     * pile up while the L2's port is full, and then backpressure is right. */
    d->rq_cap =
        spec->queue +
        (MAX(spec->tCL, spec->tWL) + d->burst + spec->latency_cycles + spec->jitter_cycles) /
            d->burst +
        1;
    d->rq = xcalloc(d->rq_cap, sizeof *d->rq);
    d->banks = xcalloc(spec->banks, sizeof *d->banks);
    d->claim = xcalloc(spec->banks, sizeof *d->claim);
    d->plan_i = -1;
    snprintf(d->req_name, sizeof d->req_name, "%s.req", name);
    port_init(&d->req, d->req_name, 1, 0, NULL, &d->comp);
    dram_set_seed(d, 0);
    return d;
}

void dram_free(struct dram *d)
{
    if (!d)
        return;
    port_destroy(&d->req);
    free(d->q);
    free(d->rq);
    free(d->banks);
    free(d->claim);
    free(d);
}

void dram_set_seed(struct dram *d, uint64_t seed)
{
    rng_seed(&d->rng, seed, 0x6472616d0000u /* "dram" */ + d->channel);
}

struct port *dram_req_port(struct dram *d)
{
    return &d->req;
}

void dram_connect(struct dram *d, struct port *rsp, struct comp *l2)
{
    d->rsp = rsp;
    d->req.sender = l2;
    if (!rsp->sender)
        rsp->sender = &d->comp;
}

const struct dram_stats *dram_stats(struct dram *d)
{
    if (d->full_since) { /* asleep on a full queue: count the cycles up to now */
        cycle_t c = comp_cycle(&d->comp);
        d->st.queue_full_cycles += c - d->full_since;
        d->full_since = c;
    }
    return &d->st;
}

struct comp *dram_comp(struct dram *d)
{
    return &d->comp;
}
