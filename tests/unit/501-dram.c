/*
 * 501-dram.c - the GDDR5 channel: exact row-hit / closed-bank / row-conflict
 * latencies from the timing parameters, tRRD and data-bus spacing, FR-FCFS
 * vs FCFS order, same-line order, data through the backing store, queue-full
 * refusal, response-port backpressure, address mapping, seeded jitter.
 *
 * A scripted sender component plays the L2: it pushes requests into the
 * request latch at given DRAM cycles (retrying when refused); a sink
 * component owns the response port and records what arrives when. The DRAM
 * clock is 1000 ps so that cycle c is time c*1000. With the default timings
 * (B = 128/16 = 8 bus cycles, latency 86) a read is ready tCL+B+86 = 106
 * cycles after its RD command, a write tWL+B+86 = 98 after its WR.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "dram/dram.h"
#include "sim/cfg.h"

#include "net-rig.h"

#define P    1000 /* ps per DRAM cycle in these tests */
#define LINE 128

struct rig {
    struct eng e;
    struct clock clk;
    struct dram_spec spec;
    struct backing store;
    struct sender snd;
    struct sink sink; /* pops the response port */
    struct port rsp;
    struct dram *d;
    struct msg m[64];
};

static void rig_init_spec(struct rig *r, const char *const *sets, unsigned rsp_cap,
                          unsigned n_channels)
{
    memset(r, 0, sizeof *r);
    eng_init(&r->e);
    r->clk = (struct clock){"dram", P};
    cfg_defaults(dram_opts, &r->spec);
    char err[128];
    for (; sets && *sets; sets += 2)
        assert_int_equal(cfg_set(dram_opts, &r->spec, sets[0], sets[1], err, sizeof err), 0);
    backing_init(&r->store);
    comp_init(&r->snd.c, &r->e, "l2", &r->clk, sender_tick, NULL);
    r->d = dram_new(&r->e, "dram[0]", &r->clk, &r->spec, &r->store, LINE, 0, n_channels);
    /* after the channel: its zero-latency response port then delivers in the
     * cycle the channel sends (a receiver ranked before the sender would see
     * the message one cycle later) */
    comp_init(&r->sink.c, &r->e, "l2.rsp", &r->clk, sink_tick, NULL);
    r->sink.pop = true;
    port_init(&r->rsp, "l2.from_dram", rsp_cap, 0, NULL, &r->sink.c);
    r->sink.ports[0] = &r->rsp;
    r->sink.n_ports = 1;
    dram_connect(r->d, &r->rsp, &r->snd.c);
}

static void rig_init(struct rig *r)
{
    rig_init_spec(r, NULL, 64, 1);
}

static void rig_destroy(struct rig *r)
{
    dram_free(r->d);
    port_destroy(&r->rsp);
    backing_destroy(&r->store);
    eng_destroy(&r->e);
}

/* Address of a column of a row of a bank (one channel, 16 lines per row). */
static addr_t at_brc(unsigned bank, unsigned row, unsigned col)
{
    return (((addr_t)row * 16 + bank) * 16 + col) * LINE;
}

static struct msg *req(struct rig *r, unsigned i, uint16_t type, addr_t a)
{
    struct msg *m = &r->m[i];
    memset(m, 0, sizeof *m);
    m->type = type;
    m->addr = a;
    m->src = (uint16_t)i;
    return m;
}

static void send_at(struct rig *r, cycle_t at, struct msg *m)
{
    sender_add(&r->snd, at, dram_req_port(r->d), m);
}

/* Run to just before `cyc` and check that n responses arrived, then to `cyc`
 * and check that one more (the expected message) arrived exactly then. */
static void expect_rsp_at(struct rig *r, cycle_t cyc, const struct msg *m)
{
    unsigned n = r->sink.n;
    eng_run(&r->e, cyc * P - 1);
    assert_int_equal(r->sink.n, n);
    eng_run(&r->e, cyc * P);
    assert_int_equal(r->sink.n, n + 1);
    assert_ptr_equal(r->sink.got[n], m);
    assert_int_equal(r->sink.at[n], cyc * P);
}

static void options_have_the_table4_defaults(void **state)
{
    (void)state;
    struct dram_spec s;
    cfg_defaults(dram_opts, &s);
    assert_true(s.mhz == 1400.0);
    assert_int_equal(s.banks, 16);
    assert_int_equal(s.row_bytes, 2048);
    assert_int_equal(s.queue, 32);
    assert_int_equal(s.sched, DRAM_FRFCFS);
    assert_int_equal(s.bus_bytes_per_cycle, 16);
    assert_int_equal(s.latency_cycles, 86);
    assert_int_equal(s.tCL, 12);
    assert_int_equal(s.tRP, 12);
    assert_int_equal(s.tRC, 40);
    assert_int_equal(s.tRAS, 28);
    assert_int_equal(s.tCCD, 2);
    assert_int_equal(s.tWL, 4);
    assert_int_equal(s.tRCD, 12);
    assert_int_equal(s.tRRD, 6);
    assert_int_equal(s.tCDLR, 5);
    assert_int_equal(s.tWR, 12);
    assert_int_equal(s.tCCDL, 3);
    assert_int_equal(s.tRTPL, 2);
    assert_int_equal(s.jitter_cycles, 0);
    char err[128];
    assert_int_equal(cfg_set(dram_opts, &s, "sched", "fcfs", err, sizeof err), 0);
    assert_int_equal(s.sched, DRAM_FCFS);
    assert_int_equal(cfg_set(dram_opts, &s, "sched", "lifo", err, sizeof err), -1);
}

/* closed bank: tRCD+tCL+B+lat = 118; row hit: tCL+B+lat = 106; row
 * conflict: tRP+tRCD+tCL+B+lat = 130; write to a closed bank:
 * tRCD+tWL+B+lat = 110. */
static void hit_miss_and_conflict_latencies_match_the_timings(void **state)
{
    (void)state;
    struct rig r;
    rig_init(&r);
    send_at(&r, 0, req(&r, 0, MSG_DRAM_READ, at_brc(0, 0, 0)));
    send_at(&r, 200, req(&r, 1, MSG_DRAM_READ, at_brc(0, 0, 5)));
    send_at(&r, 400, req(&r, 2, MSG_DRAM_READ, at_brc(0, 7, 5)));
    send_at(&r, 600, req(&r, 3, MSG_DRAM_WRITE, at_brc(1, 3, 0)));
    expect_rsp_at(&r, 118, &r.m[0]);
    expect_rsp_at(&r, 200 + 106, &r.m[1]);
    expect_rsp_at(&r, 400 + 130, &r.m[2]);
    expect_rsp_at(&r, 600 + 110, &r.m[3]);
    assert_int_equal(r.m[0].type, MSG_DRAM_DATA);
    assert_int_equal(r.m[3].type, MSG_DRAM_WRACK);
    const struct dram_stats *st = dram_stats(r.d);
    assert_int_equal(st->reads, 3);
    assert_int_equal(st->writes, 1);
    assert_int_equal(st->row_misses, 2);
    assert_int_equal(st->row_hits, 1);
    assert_int_equal(st->row_conflicts, 1);
    assert_int_equal(st->acts, 3);
    assert_int_equal(st->pres, 1);
    assert_int_equal(st->total_read_latency_cycles, 118 + 106 + 130);
    rig_destroy(&r);
}

/* Two reads to different rows of one bank, back to back: the second's PRE
 * waits for tRAS (and the first's RD, which FR-FCFS serves first), its ACT
 * for max(PRE + tRP, first ACT + tRC). */
static void back_to_back_conflict_obeys_tras_trp_and_trc(void **state)
{
    (void)state;
    static const struct {
        const char *tras, *trc;
        cycle_t ready;
    } cases[] = {
        {"28", "40", 40 + 12 + 106}, /* PRE 28 (tRAS), ACT 40 (tRP and tRC), RD 52 */
        {"10", "40", 40 + 12 + 106}, /* PRE 14 (RD + tRTPL), ACT 40 (tRC binds) */
        {"10", "20", 26 + 12 + 106}, /* PRE 14, ACT 26 (tRP binds) */
    };
    for (unsigned i = 0; i < ARRAY_LEN(cases); i++) {
        struct rig r;
        const char *sets[] = {"tRAS", cases[i].tras, "tRC", cases[i].trc, NULL};
        rig_init_spec(&r, sets, 64, 1);
        send_at(&r, 0, req(&r, 0, MSG_DRAM_READ, at_brc(2, 0, 0)));
        send_at(&r, 1, req(&r, 1, MSG_DRAM_READ, at_brc(2, 1, 0)));
        expect_rsp_at(&r, 118, &r.m[0]);
        expect_rsp_at(&r, cases[i].ready, &r.m[1]);
        rig_destroy(&r);
    }
}

/* Two reads to closed banks: the second ACT waits tRRD after the first, and
 * its RD waits until its data can follow the first's on the bus. */
static void second_bank_waits_trrd_and_the_data_bus(void **state)
{
    (void)state;
    struct rig r;
    rig_init(&r);
    send_at(&r, 0, req(&r, 0, MSG_DRAM_READ, at_brc(0, 0, 0)));
    send_at(&r, 1, req(&r, 1, MSG_DRAM_READ, at_brc(1, 0, 0)));
    expect_rsp_at(&r, 118, &r.m[0]);
    /* ACT 6 (tRRD), RD no earlier than 18 (tRCD), data at RD + 12 >= 32 */
    expect_rsp_at(&r, 20 + 106, &r.m[1]);
    rig_destroy(&r);
}

/* Row 0 of bank 0 is being opened; an older request for row 1 and a younger
 * one for row 0 wait. FR-FCFS serves the younger row hit first; FCFS serves
 * the older request first and the younger becomes a row conflict. */
static void frfcfs_serves_a_row_hit_before_an_older_miss(void **state)
{
    (void)state;
    for (int fcfs = 0; fcfs < 2; fcfs++) {
        struct rig r;
        const char *sets[] = {"sched", fcfs ? "fcfs" : "frfcfs", NULL};
        rig_init_spec(&r, sets, 64, 1);
        send_at(&r, 0, req(&r, 0, MSG_DRAM_READ, at_brc(0, 0, 0)));
        send_at(&r, 1, req(&r, 1, MSG_DRAM_READ, at_brc(0, 1, 0))); /* older, other row */
        send_at(&r, 2, req(&r, 2, MSG_DRAM_READ, at_brc(0, 0, 1))); /* younger, open row */
        expect_rsp_at(&r, 118, &r.m[0]);
        if (!fcfs) {
            /* hit: RD at 20 (bus); miss: PRE 28 (tRAS), ACT 40, RD 52 */
            expect_rsp_at(&r, 20 + 106, &r.m[2]);
            expect_rsp_at(&r, 52 + 106, &r.m[1]);
            assert_int_equal(dram_stats(r.d)->row_hits, 1);
        } else {
            /* older: PRE 28, ACT 40, RD 52; younger: PRE 68 (tRAS), ACT 80
             * (tRC), RD 92 */
            expect_rsp_at(&r, 52 + 106, &r.m[1]);
            expect_rsp_at(&r, 92 + 106, &r.m[2]);
            assert_int_equal(dram_stats(r.d)->row_conflicts, 2);
        }
        rig_destroy(&r);
    }
}

/* A write and then a read of the same line: the read could issue earlier
 * (tCL > tWL leaves it room on the bus), but must wait for the write and
 * returns the written bytes merged with the old ones. A read of another line
 * of the same row is allowed to pass the write. */
static void same_line_keeps_order_and_reads_the_written_data(void **state)
{
    (void)state;
    struct rig r;
    rig_init(&r);
    uint8_t old[LINE];
    memset(old, 0x11, sizeof old);
    backing_write(&r.store, at_brc(0, 0, 1), old, LINE);
    backing_write(&r.store, at_brc(0, 0, 2), old, LINE);

    send_at(&r, 0, req(&r, 0, MSG_DRAM_READ, at_brc(0, 0, 0)));
    struct msg *w = req(&r, 1, MSG_DRAM_WRITE, at_brc(0, 0, 1));
    memset(w->data, 0xab, LINE);
    bytemask_set_range(&w->mask, 0, 64); /* only the first half */
    send_at(&r, 1, w);
    send_at(&r, 2, req(&r, 2, MSG_DRAM_READ, at_brc(0, 0, 1)));
    send_at(&r, 3, req(&r, 3, MSG_DRAM_READ, at_brc(0, 0, 2))); /* other line */

    expect_rsp_at(&r, 118, &r.m[0]);
    /* other line: RD at 20 (bus free at 32), passes the write */
    expect_rsp_at(&r, 20 + 106, &r.m[3]);
    /* write: WR once its data (WR + tWL) can follow that read's (bus free at 40): 36 */
    expect_rsp_at(&r, 36 + 98, &r.m[1]);
    /* read: RD >= end of write data 48 + tCDLR 5 = 53 */
    expect_rsp_at(&r, 53 + 106, &r.m[2]);

    struct msg *rd = &r.m[2];
    assert_int_equal(rd->type, MSG_DRAM_DATA);
    assert_int_equal(bytemask_count(&rd->mask), LINE);
    for (unsigned i = 0; i < LINE; i++)
        assert_int_equal(rd->data[i], i < 64 ? 0xab : 0x11);
    for (unsigned i = 0; i < LINE; i++)
        assert_int_equal(r.m[3].data[i], 0x11);
    uint8_t now[LINE];
    backing_read(&r.store, at_brc(0, 0, 1), now, LINE);
    assert_memory_equal(now, rd->data, LINE);
    rig_destroy(&r);
}

/* A 4-entry queue behind a slow bank (tRCD = 1000): 4 requests enter the
 * queue, a fifth waits in the request latch, the sixth is refused until the
 * queue drains; in the end all ten are served, in order (one row). */
static void full_queue_refuses_requests(void **state)
{
    (void)state;
    struct rig r;
    const char *sets[] = {"queue", "4", "tRCD", "1000", NULL};
    rig_init_spec(&r, sets, 64, 1);
    for (unsigned i = 0; i < 10; i++)
        send_at(&r, i, req(&r, i, MSG_DRAM_READ, at_brc(0, 0, i)));
    eng_run(&r.e, 20 * P);
    assert_int_equal(r.snd.next, 5);
    assert_int_equal(dram_req_port(r.d)->n, 1);
    assert_int_equal(dram_req_port(r.d)->n_full, 20 - 5 + 1); /* cycles 5..20 */
    assert_int_equal(dram_stats(r.d)->queue_full_cycles, 20 - 4 + 1);
    eng_run(&r.e, TICK_MAX);
    assert_int_equal(r.sink.n, 10);
    for (unsigned i = 0; i < 10; i++)
        assert_ptr_equal(r.sink.got[i], &r.m[i]);
    /* the first RD at 1000; then one every B = 8 cycles */
    assert_int_equal(r.sink.at[0], (1000 + 106) * P);
    assert_int_equal(r.sink.at[9], (1000 + 9 * 8 + 106) * P);
    rig_destroy(&r);
}

/* A response that finds the L2's port full is held and retried each cycle. */
static void full_response_port_holds_responses(void **state)
{
    (void)state;
    struct rig r;
    rig_init_spec(&r, NULL, 1, 1);
    r.sink.pop = false;
    send_at(&r, 0, req(&r, 0, MSG_DRAM_READ, at_brc(0, 0, 0)));
    send_at(&r, 1, req(&r, 1, MSG_DRAM_READ, at_brc(0, 0, 1)));
    eng_run(&r.e, 200 * P);
    assert_int_equal(r.rsp.n, 1);
    assert_true(dram_stats(r.d)->rsp_full_cycles > 0);
    assert_ptr_equal(port_pop(&r.rsp), &r.m[0]); /* at 200: the channel ticked */
    eng_run(&r.e, 201 * P - 1);
    assert_int_equal(r.rsp.n, 0);
    eng_run(&r.e, 201 * P);
    assert_ptr_equal(port_peek(&r.rsp), &r.m[1]);
    eng_run(&r.e, TICK_MAX); /* nothing left: the channel sleeps */
    rig_destroy(&r);
}

/* With 2 channels, channel 0 sees lines 0, 2, 4, ...: local line = line / 2,
 * so lines 0 and 30 (local 0 and 15) share a row, line 32 (local 16) is in
 * bank 1. */
static void mapping_strips_the_channel_interleave(void **state)
{
    (void)state;
    struct rig r;
    rig_init_spec(&r, NULL, 64, 2);
    send_at(&r, 0, req(&r, 0, MSG_DRAM_READ, 0 * LINE));
    send_at(&r, 200, req(&r, 1, MSG_DRAM_READ, 30 * LINE));
    send_at(&r, 400, req(&r, 2, MSG_DRAM_READ, 32 * LINE));
    send_at(&r, 600, req(&r, 3, MSG_DRAM_READ, 32 * 16 * LINE)); /* local 256: bank 0 row 1 */
    expect_rsp_at(&r, 118, &r.m[0]);
    expect_rsp_at(&r, 200 + 106, &r.m[1]);
    expect_rsp_at(&r, 400 + 118, &r.m[2]);
    expect_rsp_at(&r, 600 + 130, &r.m[3]);
    rig_destroy(&r);
}

/* Jitter delays responses by a seeded amount, never reorders them. */
static void jitter_run(uint64_t seed, tick_t *at)
{
    struct rig r;
    const char *sets[] = {"jitter_cycles", "20", NULL};
    rig_init_spec(&r, sets, 64, 1);
    dram_set_seed(r.d, seed);
    for (unsigned i = 0; i < 8; i++)
        send_at(&r, i, req(&r, i, MSG_DRAM_READ, at_brc(0, 0, i)));
    eng_run(&r.e, TICK_MAX);
    assert_int_equal(r.sink.n, 8);
    for (unsigned i = 0; i < 8; i++) {
        assert_ptr_equal(r.sink.got[i], &r.m[i]);
        at[i] = r.sink.at[i];
        /* RD at 12 + 8i without jitter */
        assert_true(at[i] >= (12 + 8 * i + 106) * P);
        assert_true(i == 0 || at[i] >= at[i - 1]);
    }
    rig_destroy(&r);
}

static void jitter_is_seeded_and_keeps_order(void **state)
{
    (void)state;
    tick_t a[8], b[8], c[8];
    jitter_run(5, a);
    jitter_run(5, b);
    jitter_run(6, c);
    assert_memory_equal(a, b, sizeof a);
    assert_true(memcmp(a, c, sizeof a) != 0);
}

static void nothing(void *obj, uint64_t arg)
{
    (void)obj, (void)arg;
}

/* The watchdog dump lists queued requests with type, address, ids and age,
 * the open rows and the responses in flight. */
static void dump_lists_what_the_channel_holds(void **state)
{
    (void)state;
    struct rig r;
    rig_init(&r);
    send_at(&r, 0, req(&r, 0, MSG_DRAM_READ, at_brc(0, 0, 0)));
    send_at(&r, 1, req(&r, 7, MSG_DRAM_WRITE, at_brc(3, 2, 1)));
    eng_at(&r.e, 5 * P, nothing, NULL, 0); /* the channel may sleep: take the clock to 5 */
    eng_run(&r.e, 5 * P);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    dram_dump(r.d, f);
    fclose(f);
    assert_non_null(strstr(buf, "dram[0]: channel 0/1, 2 queued"));
    assert_non_null(strstr(buf, "q[0]: READ(3) addr 0x0 src 0 dst 0 bank 0 row 0 age 5 cycles"));
    char want[96];
    snprintf(want, sizeof want, "q[1]: WRITE(4) addr 0x%llx src 7",
             (unsigned long long)at_brc(3, 2, 1));
    assert_non_null(strstr(buf, want));
    assert_non_null(strstr(buf, "bank 0: row 0 open"));
    free(buf);
    eng_run(&r.e, TICK_MAX);
    assert_int_equal(r.sink.n, 2);
    rig_destroy(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(options_have_the_table4_defaults),
        cmocka_unit_test(hit_miss_and_conflict_latencies_match_the_timings),
        cmocka_unit_test(back_to_back_conflict_obeys_tras_trp_and_trc),
        cmocka_unit_test(second_bank_waits_trrd_and_the_data_bus),
        cmocka_unit_test(frfcfs_serves_a_row_hit_before_an_older_miss),
        cmocka_unit_test(same_line_keeps_order_and_reads_the_written_data),
        cmocka_unit_test(full_queue_refuses_requests),
        cmocka_unit_test(full_response_port_holds_responses),
        cmocka_unit_test(mapping_strips_the_channel_interleave),
        cmocka_unit_test(jitter_is_seeded_and_keeps_order),
        cmocka_unit_test(dump_lists_what_the_channel_holds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
