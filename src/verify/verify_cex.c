/*
 * verify_cex.c - the counterexample files of `gpucoh verify`
 * (docs/verify.md): reading a file's header and replaying its steps on a
 * fresh rig.
 * SPDX-License-Identifier: BSD-3-Clause
 */

#include "verify/verify_int.h"

#include <stdlib.h>
#include <string.h>

/* ---- counterexample files ---- */

static _Noreturn void bad_line(const char *file, unsigned line, const char *what)
{
    fatal("%s:%u: %s", file, line, what);
}

void verify_read_header(const char *file, char *proto, size_t proto_len, struct verify_opts *o,
                        const char **sets, unsigned max_sets, char *buf, size_t buf_len)
{
    FILE *f = fopen(file, "r");
    if (!f)
        fatal("%s: cannot open the counterexample", file);
    char line[512];
    unsigned ln = 0, got = 0;
    size_t used = 0;
    proto[0] = 0;
    o->n_sets = 0;
    o->devices[0] = 0;
    o->conflict = 0;
    o->merge_max = VERIFY_MERGE_CONFIG;
    o->gpm_sms = 1;
    o->line_pages = false;
    o->warps = 1;
    while (fgets(line, sizeof line, f)) {
        ln++;
        char key[32], val[400];
        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (sscanf(line, "%31s", key) == 1 &&
            (!strcmp(key, "op") || !strcmp(key, "deliver") || !strcmp(key, "tick")))
            break;
        if (sscanf(line, "%31s %399s", key, val) != 2)
            bad_line(file, ln, "expected KEY VALUE");
        unsigned u = 0;
        if (!strcmp(key, "protocol")) {
            snprintf(proto, proto_len, "%s", val);
            got |= 1;
        } else if (!strcmp(key, "devices")) {
            size_t n = strlen(val) + 1;
            if (n > sizeof o->devices)
                bad_line(file, ln, "devices: a list of at most 39 characters");
            memcpy(o->devices, val, n);        /* checked: snprintf here warns of truncation */
        } else if (!strcmp(key, "ops_each")) { /* after l1s, as write_cex puts it */
            const char *why = verify_ops_each_parse(o, val);
            if (why)
                bad_line(file, ln, why);
            got |= 16;
        } else if (!strcmp(key, "kinds")) { /* after l1s, as write_cex puts it */
            const char *why = verify_kinds_parse(o, val);
            if (why)
                bad_line(file, ln, why);
        } else if (!strcmp(key, "set")) {
            size_t n = strlen(val) + 1;
            if (o->n_sets == max_sets || used + n > buf_len)
                bad_line(file, ln, "too many set lines");
            memcpy(buf + used, val, n);
            sets[o->n_sets++] = buf + used;
            used += n;
        } else if (sscanf(val, "%u", &u) != 1) {
            bad_line(file, ln, "expected a number");
        } else if (!strcmp(key, "l1s") && u >= 1 && u <= V_MAX_L1) {
            o->l1s = u;
            got |= 2;
        } else if (!strcmp(key, "lines") && u >= 1 && u <= V_MAX_LINES) {
            o->lines = u;
            got |= 4;
        } else if (!strcmp(key, "values") && u >= 1 && u <= V_MAX_VALUE) {
            o->values = u;
            got |= 8;
        } else if (!strcmp(key, "ops") && u >= 1 && u <= 255) {
            o->ops = u;
            got |= 16;
        } else if (!strcmp(key, "atomics") && u <= 1) {
            o->atomics = u;
        } else if (!strcmp(key, "sync") && u <= 1) {
            o->sync = u;
        } else if (!strcmp(key, "plain") && u <= VERIFY_PLAIN_ONLY) {
            o->plain = u;
        } else if (!strcmp(key, "words") && u >= 1 && u <= 2) {
            o->words = u;
        } else if (!strcmp(key, "warps") && u >= 1 && u <= V_MAX_WARPS) {
            o->warps = u;
        } else if (!strcmp(key, "inflight") && u >= 1 && u <= V_MAX_SLOTS) {
            o->inflight = u;
        } else if (!strcmp(key, "lease") && u >= 1 && u <= VERIFY_MAX_LEASE) {
            o->lease = u;
        } else if (!strcmp(key, "ticks") && u <= VERIFY_MAX_TICKS) {
            o->ticks = u;
        } else if (!strcmp(key, "gpus") && u >= 1 && u <= V_MAX_L1) {
            o->gpus = u;
        } else if (!strcmp(key, "gpm_sms") && u >= 1 && u <= 2) {
            o->gpm_sms = u;
        } else if (!strcmp(key, "line_pages") && u <= 1) {
            o->line_pages = u;
        } else if (!strcmp(key, "scopes") && u < 8) {
            o->scopes = u;
        } else if (!strcmp(key, "conflict") && u >= 1 && u <= 3) {
            o->conflict = u;
        } else if (!strcmp(key, "conflict_ways") && u >= 1 && u <= 2) {
            o->conflict_ways = u;
        } else if (!strcmp(key, "merge_max") && u <= VERIFY_MAX_MERGE) {
            o->merge_max = u;
        } else {
            bad_line(file, ln, "unknown key or value out of range");
        }
    }
    fclose(f);
    if (got != 31)
        fatal("%s:%u: the header needs protocol, l1s, lines, values and ops", file, ln);
    o->sets = sets;
}

static unsigned endpoint(const char *file, unsigned ln, const char *s, unsigned n_l1)
{
    unsigned i;
    if (!strcmp(s, "l2"))
        return 100;
    if (!strcmp(s, "dram"))
        return 101;
    if (!strcmp(s, "emu"))
        return 102;
    if (sscanf(s, "l2[%u]", &i) == 1 && i < n_l1) /* several GPMs: bank i */
        return 200 + i;
    if (sscanf(s, "dram[%u]", &i) == 1 && i < n_l1)
        return 300 + i;
    if (sscanf(s, "l1[%u]", &i) == 1 && i < n_l1)
        return i;
    bad_line(file, ln, "unknown endpoint (l1[N], l2, dram or emu)");
}

int verify_replay(const struct config *cfg, const struct verify_opts *o, const char *file,
                  FILE *out)
{
    const struct proto_desc *p = proto_find(cfg->coherence.protocol);
    unsigned n_tables = 0;
    for (const struct coh_table *const *t = p->tables; *t; t++)
        n_tables++;
    struct coh_cov *cov = calloc(n_tables, sizeof *cov);
    if (!cov)
        panic("out of memory");
    for (unsigned t = 0; t < n_tables; t++)
        coh_cov_init(&cov[t], p->tables[t]);
    FILE *f = fopen(file, "r");
    if (!f)
        fatal("%s: cannot open the counterexample", file);
    struct memories mem;
    vx_memories_init(&mem, cfg->l1.cache.line_bytes);
    struct rig *r = vx_rig_new(cfg, p, o, cov, &mem);
    vx_settle(r);
    for (unsigned t = 0; t < n_tables; t++)
        cov[t].trace = out; /* the replay's steps only, not the rig's settling */
    char line[256];
    unsigned ln = 0, step = 0;
    while (fgets(line, sizeof line, f) && !r->fault[0]) {
        ln++;
        char kind[16], a[24], b[16];
        unsigned c, k, v;
        struct vev ev = {0};
        if (sscanf(line, "%15s", kind) != 1 ||
            (strcmp(kind, "op") && strcmp(kind, "deliver") && strcmp(kind, "tick")))
            continue; /* the header */
        if (!strcmp(kind, "tick")) {
            if (!r->prof.timed)
                bad_line(file, ln, "tick: this protocol has no time");
            if (!vx_time_can_advance(r))
                bad_line(file, ln,
                         r->prof.logical ? "tick: the --ticks bound is reached, or no L1's clock "
                                           "is within a lease of a time in the state"
                                         : "tick: no lease or wait is running");
            ev.kind = EV_TICK;
        } else if (!strcmp(kind, "op")) {
            unsigned w = 0; /* --warps 2: "warp W" follows */
            if (sscanf(line, "op %u %23s %u %u", &c, a, &k, &v) != 4 ||
                (vx_warps(o) > 1 && sscanf(line, "op %*u %*s %*u %*u warp %u", &w) != 1))
                bad_line(file, ln,
                         vx_warps(o) > 1 ? "expected: op CORE load|store|atomic|fence LINE VALUE "
                                           "warp W"
                                         : "expected: op CORE "
                                           "load|store|atomic|fence|txload|txstore|commit LINE "
                                           "VALUE");
            if (w >= vx_warps(o))
                bad_line(file, ln, "warp out of range (the header's warps)");
            unsigned op = OPK_N, scope = 0;
            char *dot = strrchr(a, '.');
            for (unsigned i = 1; dot && o->scopes && i < 4; i++)
                if (!strcmp(dot + 1, scope_names[i])) {
                    scope = i;
                    *dot = 0;
                }
            for (unsigned i = 0; i < OPK_N; i++)
                if (!strcmp(a, op_names[i]))
                    op = i;
            /* (--plain: plain writes store values above --values) */
            if (c >= o->l1s || op == OPK_N || k >= o->lines || v > o->values * (o->plain ? 2 : 1))
                bad_line(file, ln, "core, operation, line or value out of range");
            if (vx_free_slot(r, c) == V_MAX_SLOTS)
                bad_line(file, ln, "the core has --inflight operations in flight");
            if (!r->prof.tx && op >= OPK_TX_LOAD)
                bad_line(file, ln, "a transactional operation under a protocol without them");
            if (r->prof.tx) { /* transactions: only what the core may do now */
                struct vev en[MAX_ENABLED];
                unsigned n_en = vtx_enabled(r, c, en), i = 0;
                while (i < n_en && !(en[i].op == op && en[i].line == k && en[i].value == v))
                    i++;
                if (i == n_en)
                    bad_line(file, ln,
                             "the core cannot take this transactional operation now (no "
                             "attempt to commit, --ops attempts begun, an answer or "
                             "acknowledgement awaited, or an operation of another kind)");
            }
            ev = (struct vev){EV_OP,      (uint8_t)c, (uint8_t)op,    (uint8_t)k,
                              (uint8_t)v, 0,          (uint8_t)scope, (uint8_t)w};
        } else {
            char how[16] = "";
            int got = sscanf(line, "deliver %15s %15s %u %15s", a, b, &v, how);
            if (got < 3 || (got == 4 && strcmp(how, "free")))
                bad_line(file, ln, "expected: deliver SRC DST VNET [free]");
            bool free_msg = got == 4; /* ideal-mg: a message the sysnet carries free */
            unsigned s = endpoint(file, ln, a, o->l1s), d = endpoint(file, ln, b, o->l1s);
            unsigned ch;
            if (free_msg && !(r->free_links && s >= 200 && s < 300 && d >= 200 && d < 300 &&
                              s != d && v < r->n_vnets))
                bad_line(file, ln, "no such channel (free: a link between two banks, ideal-mg)");
            else if (free_msg)
                ch = ch_free(r, s - 200, d - 200, v);
            else if (r->mg && s >= 300 && d == s - 100 && v == 0)
                ch = ch_dram_of(r, s - 300);
            else if (r->mg && s >= 200 && s < 300 && d >= 200 && d < 300 && s != d &&
                     v < r->n_vnets)
                ch = ch_sys(r, s - 200, d - 200, v);
            else if (r->mg && s < 100 && d == 200 + bank_of(r, s) && v < r->n_vnets)
                ch = ch_up(r, s, v);
            else if (r->mg && d < 100 && s == 200 + bank_of(r, d) && v < r->n_vnets)
                ch = ch_down(r, d, v);
            else if (r->mg)
                bad_line(file, ln, "no such channel");
            else if (r->peers && s < 100 && d < 100 && s != d && v < r->n_vnets)
                ch = ch_peer(r, s, d, v);
            else if (s == 101 && d == 100 && v == 0)
                ch = ch_dram(r);
            else if (r->unit && s < 100 && d == 102 && v == 0)
                ch = ch_unit_up(r, s);
            else if (r->unit && s == 102 && d < 100 && v == 0)
                ch = ch_unit_down(r, d);
            else if (s < 100 && d == 100 && v < r->n_vnets)
                ch = ch_up(r, s, v);
            else if (s == 100 && d < 100 && v < r->n_vnets)
                ch = ch_down(r, d, v);
            else
                bad_line(file, ln, "no such channel");
            if (!r->ch[ch].n)
                bad_line(file, ln, "nothing in flight on that channel");
            ev = (struct vev){.kind = EV_DELIVER, .ch = (uint16_t)ch};
        }
        char t[64];
        vx_ev_text(r, &ev, t, sizeof t);
        fprintf(out, "step %u: %s\n", ++step, t);
        vx_apply(r, &ev);
    }
    fclose(f);
    if (!r->fault[0] && vx_quiescent(r))
        vx_check_quiescent(r);
    if (!r->fault[0]) {
        struct vev evs[MAX_ENABLED];
        if (!vx_enabled(r, evs) && !vx_quiescent(r))
            vx_fail(r, "deadlock: no event is possible, yet requests are unanswered or messages "
                       "undelivered");
    }
    int rc = r->fault[0] != 0;
    if (rc)
        fprintf(out, "replay %s: VIOLATION after %u steps: %s\n", p->name, step, r->fault);
    else
        fprintf(out, "replay %s: %u steps, no violation in the final state\n", p->name, step);
    vx_rig_free(r);
    vx_memories_destroy(&mem);
    for (unsigned t = 0; t < n_tables; t++)
        coh_cov_destroy(&cov[t]);
    free(cov);
    return rc;
}
