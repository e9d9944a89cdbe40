/*
 * machine_run.c - runs kernels on the machine (see machine.h): the launcher
 * the host drives, one launch or several together up to quiescence, the
 * limits and starvation checks, the progress line and the Spandex request
 * type table (fcs.table) each launch's module is given.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "system/machine_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Core cycles the machine may take to settle after a kernel. */
#define QUIESCE_LIMIT_CYCLES 1000000u

/* Core cycles simulated between checks of the clock and the limits. */
#define RUN_CHUNK_CYCLES 20000

/* Added to a no-progress fault on a machine of several GPUs: there the spin
 * can be the program's, not the simulator's. A kernel's CTAs span every GPU,
 * and PTX's scoped model never obliges a .gpu-scoped load on one GPU to see a
 * .gpu-scoped store made on another; a protocol that keeps only scoped
 * coherence (sw-h) lets such a poll spin for ever, legally. */
#define SPIN_ACROSS_GPUS_HINT                                                                      \
    " (or the program's scope: on a machine of several GPUs a flag set at .gpu scope on one GPU "  \
    "need never be seen at .gpu scope on another; .sys scope makes it visible: docs/multi-gpu.md)"

/* CTAs of the running launch finished, and in all (GPU and CPU cores). */
static void launch_ctas(const struct machine *m, uint64_t *done, uint64_t *total)
{
    *done = *total = 0;
    if (m->gpu_running)
        for (unsigned g = 0; g < m->n_gpms; g++) {
            *done += m->runs[g].n_ctas_done;
            *total += m->runs[g].n_ctas;
        }
    if (m->cpu_running) {
        *done += m->cpu_run.n_ctas_done;
        *total += m->cpu_run.n_ctas;
    }
}

/* The progress line: on a terminal one line rewritten in place at most
 * twice a second, cleared when the launch ends; elsewhere (--progress into
 * a file) a line every 10 seconds and one at the end of each launch. */
static void show_progress(struct machine *m, const char *kernel, bool last)
{
    double now = wall_seconds_since(0);
    if (!last && now - m->progress_wall < (m->progress_tty ? 0.5 : 10))
        return;
    m->progress_wall = now;
    uint64_t cycles = m->eng.now / m->core_clk.period_ps, insts = 0, done, total;
    for (unsigned i = 0; i < m->n_cores; i++)
        insts += sm_stats(m->sms[i])->thread_insts;
    launch_ctas(m, &done, &total);
    double wall = now - m->run_wall_start;
    char pct[48] = "";
    if (total)
        snprintf(pct, sizeof pct, "%.0f%% of %llu CTAs, ", 100.0 * (double)done / (double)total,
                 (unsigned long long)total);
    fprintf(stderr,
            "%s[gpucoh] %s (kernel %u): %s%llu cycles, %.2f M thread insts, %.0f cycles/s%s",
            m->progress_tty ? "\r\033[K" : "", kernel, m->n_kernels + 1, pct,
            (unsigned long long)cycles, (double)insts / 1e6, wall > 0 ? cycles / wall : 0,
            m->progress_tty ? "" : "\n");
    if (last && m->progress_tty)
        fputs("\r\033[K", stderr);
    fflush(stderr);
}
/* ---- the launcher ---- */

/* A GPM's share of the kernel, or the CPU's kernel, finished: the launch
 * ends with the last. */
static void kernel_done(void *obj, struct kernel_run *run)
{
    struct machine *m = obj;
    if (run == &m->cpu_run)
        m->cpu_end = m->eng.now;
    else
        m->gpu_end = m->eng.now;
    if (!--m->runs_left)
        eng_stop(&m->eng);
}

static bool kernel_all_done(const struct machine *m)
{
    if (m->cpu_running && !kernel_run_done(&m->cpu_run))
        return false;
    if (m->gpu_running)
        for (unsigned g = 0; g < m->n_gpms; g++)
            if (!kernel_run_done(&m->runs[g]))
                return false;
    return true;
}

/* The watchdog catches a machine in which nothing completes; this catches
 * one memory instruction starved while the rest of the machine runs on (an
 * arbiter that never picks it, a transition that forgets a waiter). Checked
 * between run chunks, so it costs nothing per event. */
static void check_starvation(struct machine *m, const char *kname)
{
    if (!m->cfg.sim.starvation_cycles)
        return;
    tick_t limit_ps = m->cfg.sim.starvation_cycles * m->core_clk.period_ps;
    for (unsigned i = 0; i < m->n_cores; i++) {
        unsigned warp = 0;
        tick_t since = sm_oldest_request(m->sms[i], &warp);
        if (since != TICK_MAX && m->eng.now - since > limit_ps)
            panic("starvation: in kernel %s, warp slot %u of %s has waited %llu core cycles for a "
                  "memory response (sim.starvation_cycles = %llu) while %llu operations are "
                  "outstanding",
                  kname, warp, sm_comp(m->sms[i])->name,
                  (unsigned long long)((m->eng.now - since) / m->core_clk.period_ps),
                  (unsigned long long)m->cfg.sim.starvation_cycles,
                  (unsigned long long)m->eng.n_outstanding);
    }
}

/* Load responses so far (every core): warps spinning on loads keep adding
 * to it, warps spinning on registers do not. */
static uint64_t total_load_responses(const struct machine *m)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < m->n_cores; i++)
        n += sm_stats(m->sms[i])->latency[MEM_LOAD].n;
    return n;
}

/* Whether every memory instruction still waiting for a response sent its
 * first request after `since`: warps that spin keep getting answers within
 * a round trip; a request that has waited for a good part of the spin
 * window is a message stuck in the memory system (a protocol hole, a
 * deadlock), which stays a fault. */
static bool requests_answered_since(const struct machine *m, tick_t since)
{
    for (unsigned i = 0; i < m->n_cores; i++) {
        unsigned warp;
        tick_t oldest = sm_oldest_request(m->sms[i], &warp);
        if (oldest != TICK_MAX && oldest < since)
            return false;
    }
    return true;
}

/* The runaway limits of one launch (sim.max_cycles, sim.max_insts): as set,
 * or for "auto" scaled to the launch's warps. UINT64_MAX: none. */
static void launch_limits(const struct machine *m, const struct launch *l, uint64_t *cycles,
                          uint64_t *insts)
{
    uint64_t ctas = (uint64_t)l->grid.x * l->grid.y * l->grid.z;
    uint64_t threads = (uint64_t)l->block.x * l->block.y * l->block.z;
    uint64_t warps = mul_sat_u64(ctas, (threads + 31) / 32);
    uint64_t per_wave = (uint64_t)m->n_sms * m->cfg.sm.warps;
    uint64_t waves = warps / per_wave + (warps % per_wave != 0);
    const struct sim_spec *sim = &m->cfg.sim;
    *cycles = sim->max_cycles == CFG_AUTO ? mul_sat_u64(SIM_AUTO_CYCLES_PER_WAVE, MAX(waves, 1))
              : sim->max_cycles           ? sim->max_cycles
                                          : UINT64_MAX;
    *insts = sim->max_insts == CFG_AUTO ? mul_sat_u64(SIM_AUTO_INSTS_PER_WARP, MAX(warps, 1))
             : sim->max_insts           ? sim->max_insts
                                        : UINT64_MAX;
}

static uint64_t total_warp_insts(const struct machine *m)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < m->n_cores; i++)
        n += sm_warp_insts(m->sms[i]);
    return n;
}

static uint64_t total_advances(const struct machine *m)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < m->n_cores; i++)
        n += sm_advances(m->sms[i]);
    return n;
}

/* Logical-time protocols (RCC): a warp may reread a value for as long as its
 * L1's copy is leased, millions of cycles, while a newer value waits at the
 * L2, so rereading one value is not yet being stuck. The spin watchdog there
 * takes each L1's lease mark at every progress event (or kernel start: the
 * largest lease end the banks have granted it, those in flight included) and
 * starts counting only once every L1's clock has passed its mark: from then
 * on no copy granted before the event can hit, so every load reads the L2's
 * value or a copy granted since, and a warp that still sees nothing new for
 * sim.spin_cycles waits for a write nobody makes. Store and atomic
 * completions are progress events (sm_advances), so a write is at the L2
 * before the mark that must pass is taken. */
static void mark_leases(const struct machine *m, uint64_t *marks)
{
    for (unsigned i = 0; i < m->n_sms; i++) {
        marks[i] = 0;
        for (unsigned b = 0; b < m->n_banks; b++)
            marks[i] = MAX(marks[i], m->proto->lease_mark(m->l2s[b], i));
    }
}

static bool leases_passed(const struct machine *m, const uint64_t *marks)
{
    for (unsigned i = 0; i < m->n_sms; i++)
        if (!m->proto->lease_passed(m->l1s[i], marks[i]))
            return false;
    return true;
}

/* fcs.table's file for module `mod`: "%m" stands for the module's file name
 * without folder and extension (one setting serves several workloads); a
 * relative path missing from the current folder is tried from the project
 * root, as machine files are. */
static void fcs_table_path(const struct machine *m, const struct ptx_module *mod, char *out,
                           size_t n)
{
    const char *base = strrchr(mod->filename, '/');
    base = base ? base + 1 : mod->filename;
    size_t base_len = strcspn(base, ".");
    char rel[1024];
    size_t k = 0;
    for (const char *t = fcs_spec_of(&m->view)->table; *t && k + 1 < sizeof rel; t++) {
        if (t[0] == '%' && t[1] == 'm') {
            k += (size_t)snprintf(rel + k, sizeof rel - k, "%.*s", (int)base_len, base);
            k = k < sizeof rel ? k : sizeof rel - 1;
            t++;
        } else {
            rel[k++] = *t;
        }
    }
    rel[k] = 0;
    FILE *f = fopen(rel, "r");
    if (f || rel[0] == '/') {
        if (f)
            fclose(f);
        snprintf(out, n, "%s", rel);
        return;
    }
    const char *def = config_default_file(); /* ROOT/configs/tc-fermi.ini */
    const char *cut = strstr(def, "/configs/");
    snprintf(out, n, "%.*s/%s", cut ? (int)(cut - def) : 1, cut ? def : ".", rel);
    if (!(f = fopen(out, "r")))
        snprintf(out, n, "%s", rel); /* the error names the path as written */
    else
        fclose(f);
}

/* fcs.table: the request type of every instruction of the kernel's module
 * (loaded once per module); NULL without a table. A bad table is a user
 * error (exit 2). */
static const uint8_t *fcs_types(struct machine *m, const struct ptx_module *mod)
{
    if (!fcs_spec_of(&m->view)->table[0])
        return NULL;
    if (m->fcs_mod != mod) {
        char err[1024], path[2048];
        free(m->fcs_types);
        fcs_table_path(m, mod, path, sizeof path);
        m->fcs_types = fcs_table_load(path, mod, err, sizeof err);
        if (!m->fcs_types)
            fatal("%s", err);
        m->fcs_mod = mod;
    }
    return m->fcs_types;
}

/* The machine's own copy of a kernel's name, made the first time the name
 * is seen: the statistics outlive the PTX module (the litmus runner frees
 * it before they are written), and a launch repeated many times costs a
 * lookup, not an allocation. */
static const char *intern_kernel_name(struct machine *m, const char *name)
{
    for (unsigned i = 0; i < m->n_kernel_name_pool; i++)
        if (!strcmp(m->kernel_name_pool[i], name))
            return m->kernel_name_pool[i];
    char **pool = realloc(m->kernel_name_pool, (m->n_kernel_name_pool + 1) * sizeof *pool);
    char *copy = strdup(name);
    if (!pool || !copy)
        panic("out of memory");
    m->kernel_name_pool = pool;
    return m->kernel_name_pool[m->n_kernel_name_pool++] = copy;
}

/* Record a finished kernel's name and cycles. */
static void note_kernel(struct machine *m, const struct launch *l, tick_t cycles)
{
    if (m->n_kernels == m->cap_kernels) {
        m->cap_kernels = m->cap_kernels ? 2 * m->cap_kernels : 16;
        m->kernel_names = realloc(m->kernel_names, m->cap_kernels * sizeof *m->kernel_names);
        m->kernel_cycles = realloc(m->kernel_cycles, m->cap_kernels * sizeof *m->kernel_cycles);
        if (!m->kernel_names || !m->kernel_cycles)
            panic("out of memory");
    }
    m->kernel_names[m->n_kernels] = intern_kernel_name(m, ptx_kernel_info(l->kernel)->name);
    m->kernel_cycles[m->n_kernels++] = cycles;
}

/* Refuse a launch whose CTA does not fit in an SM (or a CPU core, whose
 * limits are fixed), naming where the GPU's limits were configured. */
static void check_fit(const struct machine *m, const struct launch *l, const struct sm *sm)
{
    char why[256], where[640];
    const char *keys = sm_cta_misfit(sm, l, why, sizeof why);
    if (!keys)
        return;
    const char *name = ptx_kernel_info(l->kernel)->name;
    if (l->on_cpu)
        fatal("kernel %s on the CPU cores: %s (a CPU core runs one CTA of at most 32 threads: "
              "docs/cpu.md)",
              name, why);
    fatal("%skernel %s: %s", config_where(&m->cfg, keys, where, sizeof where), name, why);
}

/* Run the machine until `until` (or the launch's end), stopping at every
 * sampling time on the way to call the sampler: eng_run handles every event
 * up to its horizon, so where it pauses does not change what is simulated. */
static void run_sampled(struct machine *m, tick_t until)
{
    while (m->sample_fn && m->next_sample <= until) {
        eng_run(&m->eng, m->next_sample);
        if (kernel_all_done(m))
            return;
        tick_t t = m->next_sample;
        m->sample_fn(m->sample_arg, m, t / m->core_clk.period_ps,
                     m->busy_cycles + (t - m->launch_start) / m->core_clk.period_ps);
        m->next_sample += m->sample_ps;
    }
    eng_run(&m->eng, until);
}

/* Run the launches (at most one on the GPU and one on the CPU cores) at the
 * same time until every one has finished. */
static void run_together(void *obj, const struct launch *ls, unsigned n)
{
    struct machine *m = obj;
    if (!m->runs)
        m->runs = xcalloc(m->n_gpms, sizeof *m->runs);
    m->runs_left = 0;
    m->gpu_running = m->cpu_running = false;
    const struct launch *l = NULL, *gpu = NULL, *cpu = NULL;
    uint64_t max_cycles = 0, max_insts = 0;
    for (unsigned i = 0; i < n; i++) {
        const char *name = ptx_kernel_info(ls[i].kernel)->name;
        if (ls[i].on_cpu) {
            if (!m->n_cpus)
                fatal("kernel %s is launched on the CPU, but the machine has no CPU cores "
                      "(cpu.cores = 0)",
                      name);
            if (cpu)
                fatal("kernels %s and %s are launched together on the CPU (one kernel per "
                      "device at a time)",
                      ptx_kernel_info(cpu->kernel)->name, name);
            cpu = &ls[i];
            check_fit(m, cpu, m->sms[m->n_sms]);
            kernel_run_init(&m->cpu_run, cpu, m->n_cpus);
            m->cpu_run.on_done = kernel_done;
            m->cpu_run.done_obj = m;
            m->cpu_run.req_types = fcs_types(m, cpu->kernel->m); /* FCS types CPU L1s too */
            m->runs_left++;
            m->cpu_running = true;
        } else {
            if (gpu)
                fatal("kernels %s and %s are launched together on the GPU (one kernel per "
                      "device at a time)",
                      ptx_kernel_info(gpu->kernel)->name, name);
            gpu = &ls[i];
            check_fit(m, gpu, m->sms[0]);
            for (unsigned g = 0; g < m->n_gpms; g++) { /* CTAs in contiguous shares */
                struct kernel_run *run = &m->runs[g];
                kernel_run_init(run, gpu, m->sms_per_gpm);
                kernel_run_share(run, g, m->n_gpms);
                run->on_done = kernel_done;
                run->done_obj = m;
                run->req_types = fcs_types(m, gpu->kernel->m);
            }
            m->runs_left += m->n_gpms;
            m->gpu_running = true;
        }
        uint64_t c, k;
        launch_limits(m, &ls[i], &c, &k);
        max_cycles = MAX(max_cycles, c);
        max_insts = k == UINT64_MAX || max_insts == UINT64_MAX ? UINT64_MAX : max_insts + k;
    }
    l = gpu ? gpu : cpu; /* named in messages */
    tick_t start = m->eng.now;
    tick_t limit = max_cycles < (TICK_MAX - start) / m->core_clk.period_ps
                       ? start + max_cycles * m->core_clk.period_ps
                       : TICK_MAX;
    m->spun = false;
    uint64_t insts_start = total_warp_insts(m);
    uint64_t advances = total_advances(m);
    tick_t advanced_at = start;
    /* logical-time protocols: the watchdog counts from when the leases pass
     * (mark_leases); one without lease hooks would be stopped in correct runs */
    uint64_t *marks = m->proto->lease_mark ? xcalloc(m->n_sms, sizeof *marks) : NULL;
    tick_t spin_ps =
        m->proto->logical_time && !marks ? 0 : m->cfg.sim.spin_cycles * m->core_clk.period_ps;
    tick_t quiet_from = start;                      /* the spin watchdog counts from here */
    uint64_t quiet_loads = total_load_responses(m); /* ... and the loads answered then */
    bool leases_pending = marks != NULL;
    if (marks)
        mark_leases(m, marks);
    const char *kname = ptx_kernel_info(l->kernel)->name;
    if (!m->run_wall_start)
        m->run_wall_start = wall_seconds_since(0);
    m->eng.last_progress = m->eng.now;
    if (m->kernel_stats)
        kernel_stats_begin(m->kernel_stats, m);
    if (gpu)
        for (unsigned i = 0; i < m->n_sms; i++)
            sm_start_kernel(m->sms[i], &m->runs[i / m->sms_per_gpm]);
    if (cpu)
        for (unsigned i = 0; i < m->n_cpus; i++)
            sm_start_kernel(m->sms[m->n_sms + i], &m->cpu_run);
    /* between chunks: progress, limits and the starvation check, which looks
     * at least twice within its limit */
    uint64_t chunk_cycles = RUN_CHUNK_CYCLES;
    if (m->cfg.sim.starvation_cycles)
        chunk_cycles = MIN(chunk_cycles, MAX(m->cfg.sim.starvation_cycles / 2, 1));
    if (m->cfg.sim.spin_cycles)
        chunk_cycles = MIN(chunk_cycles, MAX(m->cfg.sim.spin_cycles / 2, 1));
    tick_t chunk = chunk_cycles * m->core_clk.period_ps;
    tick_t horizon = start; /* advances by chunks even where no event falls in one */
    m->launch_start = start;
    if (m->sample_fn) /* the first multiple of the interval after the start */
        m->next_sample = (start / m->sample_ps + 1) * m->sample_ps;
    while (!kernel_all_done(m)) {
        horizon = MIN(limit, horizon + chunk);
        run_sampled(m, horizon);
        if (kernel_all_done(m))
            break;
        if (m->eng.now >= limit || (eng_pending(&m->eng) && eng_next_time(&m->eng) > limit))
            panic("runaway: kernel %s ran past sim.max_cycles (%llu core cycles%s; 0 = no "
                  "limit); the warps:",
                  kname, (unsigned long long)max_cycles,
                  m->cfg.sim.max_cycles == CFG_AUTO ? ", auto: 2^29 per wave" : "");
        uint64_t insts = total_warp_insts(m) - insts_start;
        if (insts > max_insts) /* max_insts is UINT64_MAX when there is no limit */
            panic("runaway: kernel %s issued %llu warp instructions, past sim.max_insts (%llu%s; "
                  "0 = no limit); the warps:",
                  kname, (unsigned long long)insts, (unsigned long long)max_insts,
                  m->cfg.sim.max_insts == CFG_AUTO ? ", auto: 2^24 per warp" : "");
        if (!eng_pending(&m->eng))
            panic("kernel %s stopped making progress: every component is asleep", kname);
        uint64_t now_advances = total_advances(m);
        if (now_advances != advances) {
            advances = now_advances;
            advanced_at = quiet_from = m->eng.now;
            quiet_loads = total_load_responses(m);
            if (marks) {
                mark_leases(m, marks);
                leases_pending = true;
            }
        } else if (leases_pending) {
            if (leases_passed(m, marks)) {
                leases_pending = false;
                quiet_from = m->eng.now;
                quiet_loads = total_load_responses(m);
            }
        } else if (spin_ps && m->eng.now - quiet_from > spin_ps && m->spin_stops && !m->spun &&
                   total_load_responses(m) > quiet_loads &&
                   requests_answered_since(m, m->eng.now - spin_ps / 2)) {
            /* a poll waiting for a value the model may let it never see
             * (a litmus test): its loads are still answered, so the warps
             * are let go (sm_abandon_kernel) and the launch ends as given
             * up; it must then drain like any kernel (a spin on registers,
             * with no loads, is a mistake in the test and stays a fault) */
            m->spun = true;
            for (unsigned i = 0; i < m->n_cores; i++)
                sm_abandon_kernel(m->sms[i]);
            quiet_from = m->eng.last_progress = m->eng.now;
        } else if (m->spun &&
                   m->eng.now - quiet_from > QUIESCE_LIMIT_CYCLES * m->core_clk.period_ps) {
            panic("kernel %s was given up because its warps spun, but did not drain within %u "
                  "core cycles: requests are stuck in the memory system; the warps:",
                  kname, QUIESCE_LIMIT_CYCLES);
        } else if (spin_ps && m->eng.now - quiet_from > spin_ps && !m->spun) {
            char leased[160] = "";
            if (marks)
                snprintf(leased, sizeof leased,
                         ", the last %llu of them after every L1's clock "
                         "had passed the leases it held at the last progress",
                         (unsigned long long)((m->eng.now - quiet_from) / m->core_clk.period_ps));
            panic("no progress: in kernel %s, for %llu core cycles no warp stored, did an "
                  "atomic, loaded a value it had not just loaded, or finished%s "
                  "(sim.spin_cycles = %llu): warps spin on a condition that cannot change%s%s; "
                  "the warps:",
                  kname, (unsigned long long)((m->eng.now - advanced_at) / m->core_clk.period_ps),
                  leased, (unsigned long long)m->cfg.sim.spin_cycles,
                  m->spin_stops ? ", and a memory request has waited for half of that or more "
                                  "(stuck)"
                                : "",
                  m->cfg.topology.gpus > 1 ? SPIN_ACROSS_GPUS_HINT : "");
        }
        check_starvation(m, kname);
        if (m->progress)
            show_progress(m, kname, false);
    }
    if (m->progress)
        show_progress(m, kname, true);
    free(marks);
    tick_t end = m->eng.now;
    /* Let the machine settle (write-backs still queued in DRAM, responses in
     * flight) so that the host's copies, which read the L2 banks and the
     * backing store directly, see every value the kernel wrote. */
    eng_run(&m->eng, end + QUIESCE_LIMIT_CYCLES * m->core_clk.period_ps);
    if (eng_pending(&m->eng))
        panic("the machine did not quiesce within %u core cycles after kernel %s ended",
              QUIESCE_LIMIT_CYCLES, kname);
    /* each kernel's cycles run from the common start to its own end, in
     * GPU core cycles for both devices */
    m->busy_cycles += (end - start) / m->core_clk.period_ps;
    if (gpu)
        note_kernel(m, gpu, ((cpu ? m->gpu_end : end) - start) / m->core_clk.period_ps);
    if (cpu)
        note_kernel(m, cpu, ((gpu ? m->cpu_end : end) - start) / m->core_clk.period_ps);
    if (m->kernel_stats)
        kernel_stats_end(m->kernel_stats, m, m->kernel_names + m->n_kernels - (gpu && cpu ? 2 : 1),
                         gpu && cpu ? 2 : 1, (end - start) / m->core_clk.period_ps);
}

static void run_kernel(void *obj, const struct launch *l)
{
    run_together(obj, l, 1);
}

/* Host copies line by line through the home bank's idle-time access. */
static void host_access(struct machine *m, addr_t a, uint8_t *buf, size_t n, bool write)
{
    uint8_t line[LINE_MAX_BYTES];
    while (n) {
        addr_t base = a & ~(addr_t)(m->line_bytes - 1);
        size_t off = a - base, k = MIN(n, m->line_bytes - off);
        unsigned bank = (unsigned)((base / m->line_bytes) % m->banks_per_gpm);
        if (write) {
            struct bytemask mask = {0};
            bytemask_set_range(&mask, (unsigned)off, (unsigned)k);
            memcpy(line + off, buf, k);
            /* every GPM's bank: each updates the copy it holds (the home also
             * its memory), so no GPM keeps a stale copy across the copy */
            for (unsigned g = 0; g < m->n_gpms; g++)
                m->proto->l2.dma(m->l2s[g * m->banks_per_gpm + bank], base, line, &mask);
        } else {
            unsigned g = m->sys ? pagemap_owner(&m->pages, base) : 0;
            g = g == PAGEMAP_NONE ? 0 : g; /* never touched: memory holds it */
            m->proto->l2.dma(m->l2s[g * m->banks_per_gpm + bank], base, line, NULL);
            memcpy(buf, line + off, k);
        }
        a += k, buf += k, n -= k;
    }
}

static void host_write(void *obj, addr_t dst, const void *src, size_t n)
{
    host_access(obj, dst, (uint8_t *)src, n, true);
}

static void host_read(void *obj, void *dst, addr_t src, size_t n)
{
    host_access(obj, src, dst, n, false);
}

static uint64_t cycles_of(const void *obj)
{
    const struct machine *m = obj;
    return m->eng.now / m->core_clk.period_ps;
}

void machine_set_spin_stops(struct machine *m, bool on)
{
    m->spin_stops = on;
}

static bool spin_stopped(const void *obj)
{
    return ((const struct machine *)obj)->spun;
}

static void set_spin_stops(void *obj, bool on)
{
    machine_set_spin_stops(obj, on);
}

static const struct launcher_ops machine_ops = {
    run_kernel, host_write, host_read, cycles_of, run_together, set_spin_stops, spin_stopped};

struct launcher machine_launcher(struct machine *m)
{
    return (struct launcher){&machine_ops, m, m->n_cpus};
}
