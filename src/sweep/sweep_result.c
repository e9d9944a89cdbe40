/*
 * sweep_result.c - what a sweep's runs measured, read back from their files
 * (the JSON each child wrote, the .err of a failed one), and the combined
 * results.csv.
 *
 * The numbers come only from the statistics files (docs/stats.md; a frames
 * run's: docs/chopin.md); a run
 * without one has an exit status and a reason but no numbers, and its CSV
 * row leaves them empty rather than writing zeros.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "sweep/sweep_result.h"

const char *const sweep_check_names[3] = {"-", "ok", "wrong"};

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

static bool ends_with(const char *s, size_t len, const char *tail)
{
    size_t n = strlen(tail);
    return len > n && !strcmp(s + len - n, tail);
}

/* A run's .err file, where there is one (the run failed): how it ended and
 * why, the last line of its output. Returns whether there was one. */
static bool read_err(const char *out_dir, const struct sweep_run *r, struct sweep_result *res)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/runs/%s.err", out_dir, r->id);
    char *err = file_read_text(path, NULL);
    bool has_err = err != NULL;
    if (err) {
        char kind[32];
        int v;
        if (sscanf(err, "%31s %d", kind, &v) == 2) {
            res->finished = strcmp(kind, "signal") != 0;
            res->exit_status = !strcmp(kind, "exit") ? v : 128 + (!strcmp(kind, "timeout") ? 9 : v);
            /* the reason: the last non-empty line of the output tail */
            char *t = strstr(err, "--- last output ---\n");
            t = t ? t + 20 : err;
            size_t k = strlen(t);
            while (k && (t[k - 1] == '\n' || t[k - 1] == ' '))
                t[--k] = 0;
            char *last = strrchr(t, '\n');
            char head[64];
            snprintf(head, sizeof head, "%s %d", kind, v);
            snprintf(res->why, sizeof res->why, "%s%s%s", head, *t ? ": " : "",
                     last ? last + 1 : t);
        }
        free(err);
    }
    return has_err;
}

/* The SMs' memory-model holds and accesses, summed over SMs. */
struct order_sums {
    double holds, order_holds; /* holds begun: order + cta; order alone */
    double lat[4];             /* load latency sum, count; store sum, count (requests) */
    double atomics;            /* atomic requests */
    double global_insts;       /* warp loads, stores and atomics of global memory */
    bool has_insts;            /* the run's statistics count them (builds before 0641f038 do not) */
    double held_lanes;         /* active lanes of the global accesses held by the order rule */
    double global_lanes;       /* active lanes of warp loads, stores and atomics of global memory */
    bool has_lanes;            /* the run's statistics count them (builds before 2026-12-08 do
                                  not) */
    double order_cycles;       /* warp-cycles of order holds */
    double on_write_cycles;    /* of which begun with a store or atomic outstanding */
    bool has_on_write;         /* the run's statistics count those (builds before 2026-12-08 do
                                  not) */
};

/* Add one gpu.sm[i] statistic k (of length len) to the sums; false if it is
 * none of theirs. */
static bool add_order_stat(struct order_sums *o, struct sweep_result *res, const char *k,
                           size_t len, double v)
{
    if (ends_with(k, len, ".hold_cycles.order")) {
        res->sc_hold_cycles += v;
        o->order_cycles += v;
    } else if (ends_with(k, len, ".hold_cycles.cta"))
        res->sc_hold_cycles += v;
    else if (ends_with(k, len, ".order_hold_cycles_on_write")) {
        o->on_write_cycles += v;
        o->has_on_write = true;
    } else if (ends_with(k, len, ".holds.order")) {
        o->holds += v;
        o->order_holds += v;
    } else if (ends_with(k, len, ".holds.cta"))
        o->holds += v;
    else if (ends_with(k, len, ".mem_insts.LOAD") || ends_with(k, len, ".mem_insts.STORE") ||
             ends_with(k, len, ".mem_insts.ATOMIC")) {
        o->global_insts += v;
        o->has_insts = true;
    } else if (ends_with(k, len, ".mem_lanes.LOAD") || ends_with(k, len, ".mem_lanes.STORE") ||
               ends_with(k, len, ".mem_lanes.ATOMIC")) {
        o->global_lanes += v;
        o->has_lanes = true;
    } else if (ends_with(k, len, ".order_held_lanes"))
        o->held_lanes += v;
    else if (ends_with(k, len, ".latency.LOAD.sum"))
        o->lat[0] += v;
    else if (ends_with(k, len, ".latency.LOAD.count"))
        o->lat[1] += v;
    else if (ends_with(k, len, ".latency.STORE.sum"))
        o->lat[2] += v;
    else if (ends_with(k, len, ".latency.STORE.count"))
        o->lat[3] += v;
    else if (ends_with(k, len, ".latency.ATOMIC.count"))
        o->atomics += v;
    else
        return false;
    return true;
}

static void derive_order(const struct order_sums *o, struct sweep_result *res)
{
    if (o->holds > 0)
        res->sc_hold_mean = res->sc_hold_cycles / o->holds;
    if (o->lat[1] + o->lat[3] + o->atomics > 0)
        res->sc_held_frac = o->holds / (o->lat[1] + o->lat[3] + o->atomics);
    if (o->global_insts > 0)
        res->sc_held_insts = o->order_holds / o->global_insts;
    else if (!o->has_insts)
        res->sc_held_insts = NAN; /* not counted: no value, rather than a 0 a claim could pass on */
    if (o->global_lanes > 0)
        res->sc_held_lanes = o->held_lanes / o->global_lanes;
    else if (!o->has_lanes)
        res->sc_held_lanes = NAN;
    if (!o->has_on_write)
        res->sc_hold_on_write = NAN;
    else if (o->order_cycles > 0)
        res->sc_hold_on_write = o->on_write_cycles / o->order_cycles;
    if (o->lat[1] > 0)
        res->load_latency = o->lat[0] / o->lat[1];
    if (o->lat[3] > 0)
        res->store_latency = o->lat[2] / o->lat[3];
}

void sweep_result_load(const char *out_dir, const struct sweep_run *r, struct sweep_result *res)
{
    memset(res, 0, sizeof *res);
    res->lease_avg = -1;
    bool has_err = read_err(out_dir, r, res);
    char path[4200];
    snprintf(path, sizeof path, "%s/runs/%s.json", out_dir, r->id);
    char *text = file_read_text(path, NULL);
    if (!text)
        return;
    cJSON *root = cJSON_Parse(text);
    free(text);
    if (!root)
        return;
    res->finished = true;
    res->has_stats = true;
    const cJSON *cp = cJSON_GetObjectItemCaseSensitive(root, "check_passed");
    res->check = cJSON_IsBool(cp) ? (cJSON_IsTrue(cp) ? SWEEP_CHECK_OK : SWEEP_CHECK_WRONG)
                                  : SWEEP_CHECK_NONE;
    if (!has_err)
        res->exit_status = res->check == SWEEP_CHECK_WRONG ? 1 : 0;
    res->cycles = num(root, "cycles");
    res->thread_insts = num(root, "thread_insts");
    res->warp_insts = num(root, "warp_insts");
    res->l1_hit_rate = num(root, "l1_hit_rate");
    res->l2_hit_rate = num(root, "l2_hit_rate");
    res->kernels = num(root, "kernels");
    res->wall_seconds = num(cJSON_GetObjectItemCaseSensitive(root, "speed"), "wall_seconds");
    const cJSON *tr = cJSON_GetObjectItemCaseSensitive(root, "traffic");
    for (unsigned c = 0; c < TRAFFIC_N; c++) {
        const cJSON *cls = cJSON_GetObjectItemCaseSensitive(tr, traffic_class_names[c]);
        res->bytes[c] = num(cls, "bytes");
        res->bytes_total += res->bytes[c];
        res->flits_total += num(cls, "flits");
    }
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(root, "stats");
    if (r->model == SWEEP_FRAMES) { /* gpucoh chopin run --stats: the model's statistics */
        for (unsigned k = 0; k < SFR_N_STATS; k++)
            res->frame[k] = num(st, sfr_stat_names[k]);
        for (unsigned k = 0; k < SFR_N_TRAFFIC; k++)
            res->bytes_total += res->frame[k];
    }
    double lsum = 0, bsq_sum = 0, tx_begins = 0;
    double bsq_blocked = 0, stc_holds = 0, emu_tcycles = 0;
    double vu[4] = {0}; /* table cycles, VU accesses, stall line peaks, stall line uses */
    struct order_sums order = {0};
    unsigned ln = 0, n_l1 = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, st)
    {
        const char *k = item->string;
        size_t len = strlen(k);
        if (!cJSON_IsNumber(item))
            continue;
        if (!strncmp(k, "gpu.l2[", 7) && ends_with(k, len, ".lease_avg")) {
            lsum += item->valuedouble;
            ln++;
        }
        if (!strncmp(k, "gpu.sm[", 7) && ends_with(k, len, ".l1.fence_wait_cycles"))
            res->fence_wait += item->valuedouble;
        if (!strncmp(k, "gpu.sm[", 7) && ends_with(k, len, ".l1.bsq_occupancy")) {
            bsq_sum += item->valuedouble;
            n_l1++;
        }
        if (!strncmp(k, "gpu.sm[", 7) && ends_with(k, len, ".l1.stores_blocked"))
            bsq_blocked += item->valuedouble;
        if (!strncmp(k, "gpu.sm[", 7) && ends_with(k, len, ".l1.hold_cycles"))
            stc_holds += item->valuedouble;
        if (!strcmp(k, "gpu.emu.transition_cycles"))
            emu_tcycles = item->valuedouble;
        if (!strncmp(k, "gpu.sm[", 7) && ends_with(k, len, ".l1.bsq_max"))
            res->bsq_max = MAX(res->bsq_max, item->valuedouble);
        if (!strncmp(k, "gpu.sm[", 7) && !add_order_stat(&order, res, k, len, item->valuedouble)) {
            if (ends_with(k, len, ".l1.renewals_asked"))
                res->expired_loads += item->valuedouble;
            else if (ends_with(k, len, ".tx.lane_commits"))
                res->tx_commits += item->valuedouble;
            else if (ends_with(k, len, ".tx.lane_aborts"))
                res->tx_aborts += item->valuedouble;
            else if (strstr(k, ".tx.abort.")) {
                const char *c = strstr(k, ".tx.abort.") + 10;
                for (unsigned a = 0; a < SM_TX_ABORT_N; a++)
                    if (!strcmp(c, sm_tx_abort_names[a]))
                        res->tx_abort[a] += item->valuedouble;
            } else if (ends_with(k, len, ".tx.begins"))
                tx_begins += item->valuedouble;
            else if (ends_with(k, len, ".tx.attempt_cycles"))
                res->tx_exec_cycles += item->valuedouble;
            else if (ends_with(k, len, ".tx.commit_wait_cycles") ||
                     ends_with(k, len, ".tx.backoff_cycles"))
                res->tx_wait_cycles += item->valuedouble;
        }
        if (!strncmp(k, "sys.gpu_links.bytes.", 20) || !strncmp(k, "sys.gpm_links.bytes.", 20)) {
            bool between_gpus = !strncmp(k, "sys.gpu_", 8);
            *(between_gpus ? &res->gpu_link_bytes : &res->gpm_link_bytes) += item->valuedouble;
            if (ends_with(k, len, ".INV"))
                res->link_inv_bytes += item->valuedouble;
        }
        if (strstr(k, ".l2[") && ends_with(k, len, ".lines_invalidated"))
            res->lines_invalidated += item->valuedouble;
        if (strstr(k, ".l2[") && ends_with(k, len, ".getm.vu_abort.bloom"))
            res->tx_abort_bloom += item->valuedouble;
        if (strstr(k, ".l2[")) {
            if (ends_with(k, len, ".getm.vu_table_cycles"))
                vu[0] += item->valuedouble;
            else if (ends_with(k, len, ".getm.vu_accesses"))
                vu[1] += item->valuedouble;
            else if (ends_with(k, len, ".getm.vu_stall_line_peaks"))
                vu[2] += item->valuedouble;
            else if (ends_with(k, len, ".getm.vu_stall_line_uses"))
                vu[3] += item->valuedouble;
            else if (ends_with(k, len, ".getm.vu_stall_max"))
                res->vu_stall_max += item->valuedouble;
        }
        if (strstr(k, ".l2[") && ends_with(k, len, ".dir_evictions"))
            res->dir_evictions += item->valuedouble;
        if (strstr(k, ".l2[") && ends_with(k, len, ".evict_lines_invalidated"))
            res->evict_lines_invalidated += item->valuedouble;
        if (strstr(k, ".sm[") &&
            (ends_with(k, len, ".l1.stores") || ends_with(k, len, ".l1.atomics") ||
             ends_with(k, len, ".l1.cta_atomics")))
            res->l1_writes += item->valuedouble;
        if (!strcmp(k, "gpu.emu.transitions"))
            res->epoch_changes = item->valuedouble;
        if (!strcmp(k, "gpu.emu.bytes"))
            res->emu_bytes = item->valuedouble;
        if (!strncmp(k, "gpu.l2[", 7)) {
            if (ends_with(k, len, ".reads_expired_copy") ||
                ends_with(k, len, ".reads_expired_line"))
                res->lease_ups += item->valuedouble;
            else if (ends_with(k, len, ".writes_unexpired"))
                res->lease_down_writes += item->valuedouble;
            else if (ends_with(k, len, ".mi_entries"))
                res->lease_down_evicts += item->valuedouble;
        }
    }
    if (ln)
        res->lease_avg = lsum / ln;
    if (n_l1 && res->cycles > 0)
        res->bsq_mean = bsq_sum / n_l1 / res->cycles;
    if (bsq_blocked > 0)
        res->bsq_wait = bsq_sum / bsq_blocked;
    if (res->l1_writes > 0)
        res->blocked_frac = bsq_blocked / res->l1_writes;
    if (n_l1 && res->cycles > 0)
        res->hold_frac = stc_holds / n_l1 / res->cycles;
    if (res->epoch_changes > 0)
        res->transition_mean = emu_tcycles / res->epoch_changes;
    derive_order(&order, res);
    if (res->l1_writes > 0)
        res->invs_per_store = res->lines_invalidated / res->l1_writes;
    res->tx_cycles = res->tx_exec_cycles + res->tx_wait_cycles;
    if (res->dir_evictions > 0)
        res->invs_per_dir_evict = res->evict_lines_invalidated / res->dir_evictions;
    if (res->tx_commits > 0)
        res->tx_aborts_per_1k = 1000 * res->tx_aborts / res->tx_commits;
    if (tx_begins > 0)
        res->tx_cycles_per_tx = res->tx_cycles / tx_begins;
    if (vu[1] > 0)
        res->vu_cycles_per_access = vu[0] / vu[1];
    if (vu[3] > 0)
        res->vu_stall_per_line = vu[2] / vu[3];
    if (res->load_latency > 0)
        res->store_load_ratio = res->store_latency / res->load_latency;
    cJSON_Delete(root);
}

/* The seed a run's input came from: its block's, else the default 1; a
 * launch spec's inputs are its own ("") */
static const char *input_seed(const struct sweep_run *r)
{
    return *r->seed ? r->seed : r->spec_file ? "" : "1";
}

int sweep_write_csv(const char *out_dir, const struct sweep_spec *s)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    fputs("id,workload,set,size,config,protocol,settings,exit,check,cycles,thread_insts,"
          "l1_hit_rate,bytes",
          f);
    for (unsigned c = 0; c < TRAFFIC_N; c++)
        fprintf(f, ",bytes_%s", traffic_class_names[c]);
    fputs(",seed,wall_seconds,variant\n", f);
    for (unsigned i = 0; i < s->n_runs; i++) {
        const struct sweep_run *r = &s->runs[i];
        bool dup = false;
        for (unsigned k = 0; k < i && !dup; k++)
            dup = !strcmp(s->runs[k].id, r->id);
        if (dup)
            continue;
        struct sweep_result res;
        sweep_result_load(out_dir, r, &res);
        const char *fields[] = {r->id,     r->workload, r->set,          r->size,
                                r->config, r->protocol, r->settings_text};
        for (unsigned k = 0; k < sizeof fields / sizeof fields[0]; k++) {
            csv_field(f, fields[k]);
            fputc(',', f);
        }
        if (res.finished)
            fprintf(f, "%d", res.exit_status);
        fprintf(f, ",%s", sweep_check_names[res.check]);
        if (res.has_stats) {
            fprintf(f, ",%.0f,%.0f,%.6f,%.0f", res.cycles, res.thread_insts, res.l1_hit_rate,
                    res.bytes_total);
            for (unsigned c = 0; c < TRAFFIC_N; c++)
                fprintf(f, ",%.0f", res.bytes[c]);
            fprintf(f, ",%s,%.3f,", input_seed(r), res.wall_seconds);
        } else {
            fputs(",,,,", f);
            for (unsigned c = 0; c < TRAFFIC_N; c++)
                fputc(',', f);
            fprintf(f, ",%s,,", input_seed(r));
        }
        csv_field(f, r->variant ? r->variant : "");
        fputc('\n', f);
    }
    fclose(f);
    char path[4200];
    snprintf(path, sizeof path, "%s/results.csv", out_dir);
    int rc = write_file_atomic(path, text) ? -1 : 0;
    free(text);
    return rc;
}
