/*
 * cmd_spandex.c - `gpucoh spandex select`: the offline request-type
 * selector of fine-grain coherence specialization (spec 003 §2.9;
 * src/coh/spandex/fcs_select.c). Runs a workload under sequential
 * consistency on the configured machine, records its global accesses, and
 * writes the request type of each static PTX instruction as a table that
 * fcs.table loads.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "cli/cmds.h"
#include "cli/common.h"
#include "coh/spandex/fcs_select.h"
#include "host/host.h"
#include "host/workload.h"
#include "ptx/ir.h"
#include "system/machine.h"

static const char *const hw_names[] = {"fcs", "fcs+fwd", "fcs+pred", NULL};

static void usage(FILE *out)
{
    fprintf(
        out,
        "usage: gpucoh spandex select --workload NAME [--size S] [--variant V]\n"
        "                             [--input-seed N] [--hw fcs|fcs+fwd|fcs+pred]\n"
        "                             [--cpu-shared] [--line-state] [--out FILE]\n"
        "                             [machine options]\n"
        "\n"
        "Fine-grain coherence specialization (spec 003 §2.9): derives a Spandex request\n"
        "type for every static global load, store and atomic of a workload, from a\n"
        "sequentially consistent trace of the workload itself, so that an FCS run is\n"
        "reproducible from the workload alone. The workload runs once on the machine\n"
        "with order.model = sc (each warp's access waits for its previous one; the\n"
        "protocol is nol1 for this run, as SC needs a write-atomic one; with CPU\n"
        "cores, see below) and its global accesses are recorded word by word, kernel\n"
        "boundaries, fences and atomics as acquires and releases. For every word\n"
        "access, Algorithms 5-7 score ownership (will this SM be the main user of the\n"
        "word before another SM takes it?) and owner prediction (did this SM's recent\n"
        "accesses of this kind find one remote owner?), and Algorithms 1-3 turn the\n"
        "scores into a type: loads ReqO+data, ReqVo or ReqV; stores ReqO, ReqWTo or\n"
        "ReqWTfwd; atomics ReqO+data, ReqWTo+data or ReqWTfwd+data. The accesses of an\n"
        "instruction vote (weighted by criticality) on its type. Algorithm 4 gives an\n"
        "ownership request its word mask, voted on as a shape: words (those accessed),\n"
        "rest (through the end of the line) or line. The output names each\n"
        "instruction by its PTX line:\n"
        "\n"
        "    66     ReqVo                # load: 4096 accesses, ReqV 12.0 ReqVo 8180.0\n"
        "    106    ReqO+data      rest  # load: 8192 accesses, ...; rest 36864.0\n"
        "\n"
        "Run it with --set fcs.table=FILE on protocol spandex-d (the DeNovo L1, which\n"
        "issues every type). --hw says what the hardware supports (spec 003 §2.10):\n"
        "  fcs        no forwarding, no owner prediction: ReqWTfwd becomes ReqWT, an\n"
        "             atomic between two owning accesses ReqO+data else ReqWT+data,\n"
        "             and loads weigh as much as stores\n"
        "  fcs+fwd    forwarded write-throughs, no prediction\n"
        "  fcs+pred   both (default)\n"
        "Run the table with the same --hw as fcs.fwd and fcs.pred settings (FCS:\n"
        "fcs.fwd=false fcs.pred=false; FCS+fwd: fcs.pred=false). On a machine with\n"
        "CPU cores (cpu.cores) the traced run keeps them and runs on spandex-d with\n"
        "DeNovo CPU L1s and the configured ordering instead (no protocol with CPU\n"
        "devices is write-atomic; for data-race-free workloads the trace is the same\n"
        "SC order), and the CPU cores' accesses are traced and typed too (core\n"
        "gpu.sms + i; a CPU core's loads weigh 6, a GPU CU's 2). Algorithm 6 (shared\n"
        "state: ReqS for a CPU load whose core reads the line again after a\n"
        "synchronisation before another core writes it) applies only with\n"
        "--cpu-shared, for hardware whose CPU L1s keep Shared lines: gpucoh's DeNovo\n"
        "L1 keeps the words of a ReqS Shared, and its MESI L1 sends ReqS for every\n"
        "load whatever the table says.\n"
        "\n"
        "  --workload NAME    the workload (gpucoh list workloads)\n"
        "  --size S           input size: " WL_SIZE_USAGE " (default tiny)\n"
        "  --variant V        a workload-defined variant\n"
        "  --input-seed N     seed of the generated input (default 1)\n"
        "  --hw H             hardware support, as above (default fcs+pred)\n"
        "  --cpu-shared       the CPU L1s keep Shared lines: Algorithm 6 applies (above)\n"
        "  --line-state       the L1s keep coherence state per line, not per word\n"
        "                     (spec 003 §2.10): ownership requests ask for the whole\n"
        "                     line, and ReqO becomes ReqO+data\n"
        "  --out FILE         write the table there (whole or not at all; default stdout)\n"
        "\n%s"
        "\nexit status: 0 table written, 1 the traced run's output was wrong, 2 usage or\n"
        "input error, 3 simulator fault\n"
        "\nexample: gpucoh spandex select --workload histogram --config configs/spandex.ini \\\n"
        "             --out h.fcs && gpucoh run --workload histogram \\\n"
        "             --config configs/spandex.ini --set fcs.table=h.fcs\n",
        SIM_HELP_MACHINE);
}

/* The launcher that marks kernel boundaries in the trace. */
struct tracer {
    struct launcher inner;
    struct fcs_trace *trace;
};

static void tr_run_kernel(void *obj, const struct launch *l)
{
    struct tracer *t = obj;
    fcs_trace_kernel(t->trace, l->kernel->m);
    t->inner.ops->run_kernel(t->inner.obj, l);
}

static void tr_write(void *obj, addr_t dst, const void *src, size_t n)
{
    struct tracer *t = obj;
    t->inner.ops->write(t->inner.obj, dst, src, n);
}

static void tr_read(void *obj, void *dst, addr_t src, size_t n)
{
    struct tracer *t = obj;
    t->inner.ops->read(t->inner.obj, dst, src, n);
}

static uint64_t tr_cycles(const void *obj)
{
    const struct tracer *t = obj;
    return t->inner.ops->cycles(t->inner.obj);
}

/* A CPU kernel and a GPU kernel together: one kernel boundary for both. */
static void tr_run_together(void *obj, const struct launch *l, unsigned n)
{
    struct tracer *t = obj;
    fcs_trace_kernel(t->trace, l[0].kernel->m);
    t->inner.ops->run_together(t->inner.obj, l, n);
}

static const struct launcher_ops tracer_ops = {tr_run_kernel, tr_write, tr_read, tr_cycles,
                                               tr_run_together};

static void on_issue(void *obj, unsigned sm, uint64_t cycle, unsigned slot,
                     const struct ptx_step *st)
{
    (void)cycle;
    (void)slot;
    if (st->kind == PTX_STEP_MEM && !st->mem.tx)
        fcs_trace_step(obj, sm, &st->mem);
}

static int select_cmd(int argc, char **argv)
{
    struct sim_opts o = {0};
    const char *name = NULL, *variant = NULL, *out = NULL;
    int size = WL_TINY, hw = 2;
    bool cpu_shared = false, line_state = false;
    uint64_t input_seed = 1;
    struct opt sim_rows[SIM_OPT_ROWS];
    sim_opts_rows(&o, SIM_OPT_MACHINE, sim_rows);
    const struct opt rows[] = {
        OPT_STR_ROW("--workload", NULL, &name),
        OPT_ENUM_ROW("--size", NULL, &size, wl_size_names),
        OPT_STR_ROW("--variant", NULL, &variant),
        OPT_U64_ROW("--input-seed", NULL, &input_seed, 0, 0x1p64),
        OPT_ENUM_ROW("--hw", NULL, &hw, hw_names),
        OPT_STR_ROW("--out", NULL, &out),
        OPT_FLAG_ROW("--cpu-shared", NULL, &cpu_shared),
        OPT_FLAG_ROW("--line-state", NULL, &line_state),
        OPT_END,
    };
    int rc = opt_parse("spandex select", (const struct opt *const[]){rows, sim_rows, NULL}, argc,
                       argv, 1, NULL, usage);
    if (rc != OPT_CONTINUE)
        return rc;
    if (!name) {
        fprintf(stderr, "gpucoh spandex select: --workload is required\n");
        usage(stderr);
        return EXIT_USAGE;
    }
    const struct workload *w = wl_find(name);
    if (!w)
        fatal("unknown workload '%s' (gpucoh list workloads)", name);
    if (variant && !wl_has_variant(w, variant))
        fatal("--variant: workload %s has no variant '%s'", w->name, variant);
    /* the SC trace: the SC issue rule on a write-atomic protocol (nol1: every
     * access at the L2), and no table of an earlier selection. nol1 has no
     * CPU devices and no protocol with CPU devices is write-atomic: on a
     * machine with CPU cores (whose kernels run beside the GPU's and wait for
     * them) the trace runs on spandex-d with DeNovo CPU L1s and the machine's
     * own ordering, which is SC for the data-race-free programs this is for
     * (conflicting accesses are issued in the order their synchronisation
     * sets, which is the order the trace keeps). */
    const char *sets[SIM_MAX_SETS + 3];
    for (unsigned k = 0; k < o.n_sets; k++)
        sets[k] = o.sets[k];
    sets[o.n_sets] = "fcs.table=";
    struct config cfg;
    char err[1024];
    const char *file = o.config_file ? o.config_file : config_default_file();
    if (config_load(&cfg, file, sets, o.n_sets + 1, err, sizeof err))
        fatal("%s", err);
    bool cpus = cfg.cpu.cores > 0;
    sets[o.n_sets + 1] = cpus ? "coherence.protocol=spandex-d" : "coherence.protocol=nol1";
    sets[o.n_sets + 2] = cpus ? "cpu.device=denovo" : "order.model=sc";
    if (config_load(&cfg, file, sets, o.n_sets + 3, err, sizeof err))
        fatal("%s", err);
    struct machine *m = machine_new(&cfg);
    struct fcs_trace *trace = fcs_trace_new();
    struct tracer tr = {machine_launcher(m), trace};
    machine_set_issue_hook(m, on_issue, trace);
    struct host *h = host_new((struct launcher){&tracer_ops, &tr, tr.inner.cpu_cores});
    struct wl_params p = {.size = (enum wl_size)size, .seed = input_seed, .variant = variant};
    char why[512] = "";
    int result = w->run(h, &p, why, sizeof why);
    if (result) {
        fprintf(stderr, "gpucoh spandex select: %s's output was wrong under SC: %s\n", w->name,
                why);
        host_delete(h);
        fcs_trace_free(trace);
        machine_free(m);
        return EXIT_CHECK_FAILED;
    }
    char title[160];
    snprintf(title, sizeof title, "%s (%s%s%s), %u SMs", w->name, wl_size_names[size],
             variant ? ", " : "", variant ? variant : "", cfg.gpu.sms);
    struct fcs_select_opts so = {.title = title,
                                 .fwd = hw >= 1,
                                 .pred = hw >= 2,
                                 .shared = cpu_shared,
                                 .line_state = line_state,
                                 .l1_bytes = cfg.l1.cache.size_bytes,
                                 .line_bytes = cfg.l1.cache.line_bytes,
                                 .cpu_from = cpus ? cfg.gpu.sms : 0};
    char *text = NULL;
    size_t len = 0;
    FILE *buf = open_memstream(&text, &len);
    if (!buf)
        panic("out of memory");
    rc = fcs_select(trace, &so, buf, err, sizeof err); /* while the host keeps the modules */
    fclose(buf);
    host_delete(h);
    fcs_trace_free(trace);
    machine_free(m);
    if (rc) {
        free(text);
        fatal("spandex select: %s: %s", w->name, err);
    }
    if (out) {
        if (write_file_atomic(out, text))
            fatal("%s: cannot write", out);
    } else {
        fputs(text, stdout);
    }
    free(text);
    return 0;
}

int cmd_spandex(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "select"))
        return select_cmd(argc - 1, argv + 1);
    FILE *o = argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) ? stdout : stderr;
    usage(o);
    return o == stdout ? 0 : EXIT_USAGE;
}
