/*
 * sweep_exec.c - runs a sweep's runs as child processes, at most -j at once,
 * skipping finished ones, and reports progress.
 *
 * Each child is `gpucoh run ... --stats DIR/runs/<id>.json --quiet` (a frames
 * run: `gpucoh chopin run --game G --seed S --design D ...`) with its
 * stdout and stderr in DIR/runs/<id>.out.<pid> while it runs. A run that exits
 * 0 leaves only its JSON. One that exits otherwise leaves DIR/runs/<id>.err:
 * its exit status on the first line ("exit N", "timeout S", "signal N"), the
 * command, and the tail of its output; its JSON, if it wrote one (a wrong
 * check still writes its statistics), stays.
 *
 * Finished runs are not redone: a JSON, or an .err with an exit or timeout
 * status, whose identity (DIR/runs/<id>.ident, written after the child
 * exits: the build, the resolved configuration, the workload; see
 * sweep_ident.c) is still the run's. A stale one is rerun, its old files
 * removed first, and the log says how many were and why. A run killed by a
 * signal it did not ask for (the sweep was interrupted, the machine ran out
 * of memory) is not a result and is run again next time. --retry-failed
 * redoes every .err run.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

#include "base/build.h"
#include "base/clock.h"
#include "base/file.h"
#include "base/log.h"
#include "sweep/sweep.h"

#define TAIL_BYTES 3000

struct slot {
    pid_t pid;    /* 0: free */
    unsigned run; /* index into the spec's runs */
    double start;
    bool timed_out;
    char out[4200]; /* the child's output while it runs */
};

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    interrupted = sig;
}

int sweep_mkdir_p(const char *path)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        if (mkdir(buf, 0777) && errno != EEXIST)
            return -1;
        *p = '/';
    }
    if (mkdir(buf, 0777) && errno != EEXIST)
        return -1;
    struct stat st;
    return !stat(buf, &st) && S_ISDIR(st.st_mode) ? 0 : -1;
}

static void run_path(char *buf, size_t n, const char *dir, const char *id, const char *ext)
{
    snprintf(buf, n, "%s/runs/%s.%s", dir, id, ext);
}

static bool exists(const char *path)
{
    return !access(path, F_OK);
}

/* The first line of an .err file: exit status and whether it is a result. */
static bool err_status(const char *path, int *status, bool *is_result)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    char kind[32] = "";
    int v = 0;
    bool ok = fscanf(f, "%31s %d", kind, &v) == 2;
    fclose(f);
    if (!ok)
        return false;
    *is_result = strcmp(kind, "signal") != 0;
    *status = !strcmp(kind, "exit") ? v : 128 + (!strcmp(kind, "timeout") ? SIGKILL : v);
    return true;
}

static void fmt_eta(char *buf, size_t n, double s)
{
    if (s < 0)
        snprintf(buf, n, "?");
    else if (s < 60)
        snprintf(buf, n, "%.0fs", s);
    else if (s < 3600)
        snprintf(buf, n, "%dm%02ds", (int)s / 60, (int)s % 60);
    else
        snprintf(buf, n, "%dh%02dm", (int)s / 3600, (int)s % 3600 / 60);
}

double sweep_eta(double mean_s, unsigned waiting, const double *running_elapsed, unsigned n_running,
                 unsigned jobs)
{
    if (mean_s < 0)
        return -1;
    double work = mean_s * waiting;
    for (unsigned i = 0; i < n_running; i++)
        work += running_elapsed[i] < mean_s ? mean_s - running_elapsed[i] : 0;
    unsigned left = waiting + n_running;
    unsigned at_once = jobs < left ? jobs : left;
    return at_once ? work / at_once : 0;
}

/* Build the child's argv in `args` (pointers into the run and `buf`). */
static void child_argv(const struct sweep_run *r, const char *json, const char **argv)
{
    unsigned n = 0;
    argv[n++] = "gpucoh";
    if (r->model == SWEEP_FRAMES) {
        argv[n++] = "chopin";
        argv[n++] = "run";
        argv[n++] = "--game";
        argv[n++] = r->workload;
        argv[n++] = "--seed";
        argv[n++] = r->seed;
        argv[n++] = "--design";
    } else if (r->spec_file) { /* one's own kernels: gpucoh exec runs the launch spec */
        argv[n++] = "exec";
        argv[n++] = r->spec_file;
        argv[n++] = "--protocol";
    } else {
        argv[n++] = "run";
        argv[n++] = "--workload";
        argv[n++] = r->wl;
        if (r->variant) {
            argv[n++] = "--variant";
            argv[n++] = r->variant;
        }
        argv[n++] = "--size";
        argv[n++] = r->size;
        if (*r->seed) {
            argv[n++] = "--input-seed";
            argv[n++] = r->seed;
        }
        argv[n++] = "--protocol";
    }
    argv[n++] = r->protocol;
    if (r->config_file) {
        argv[n++] = "--config";
        argv[n++] = r->config_file;
    }
    for (unsigned i = 0; i < r->n_settings; i++) {
        argv[n++] = "--set";
        argv[n++] = r->settings[i];
    }
    argv[n++] = "--stats";
    argv[n++] = json;
    argv[n++] = "--quiet";
    argv[n] = NULL;
}

static pid_t start(const char *exe, const char *dir, const struct sweep_run *r, struct slot *sl)
{
    char json[4200], err[4200], ident[4200];
    run_path(json, sizeof json, dir, r->id, "json");
    run_path(err, sizeof err, dir, r->id, "err");
    run_path(ident, sizeof ident, dir, r->id, "ident");
    /* a stale result goes before its rerun starts: a rerun that fails without
     * statistics must not leave the old ones to be read as its own */
    remove(ident);
    remove(json);
    remove(err);
    snprintf(sl->out, sizeof sl->out, "%s/runs/%s.out.%d", dir, r->id, (int)getpid());
    const char *argv[18 + 2 * SWEEP_MAX_SETTINGS];
    child_argv(r, json, argv);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (!pid) {
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        int fd = open(sl->out, O_WRONLY | O_CREAT | O_TRUNC, 0666);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0)
            dup2(devnull, 0);
        execv(exe, (char *const *)argv);
        fprintf(stderr, "gpucoh sweep: cannot run %s: %s\n", exe, strerror(errno));
        _exit(127);
    }
    return pid;
}

/* The last `n` bytes of a file, from a line start. */
static void tail(const char *path, char *buf, size_t n)
{
    buf[0] = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    long from = size > (long)n - 1 ? size - (long)n + 1 : 0;
    fseek(f, from, SEEK_SET);
    size_t got = fread(buf, 1, n - 1, f);
    buf[got] = 0;
    fclose(f);
    if (from > 0) {
        char *nl = strchr(buf, '\n');
        if (nl)
            memmove(buf, nl + 1, strlen(nl + 1) + 1);
    }
}

/* Record a finished child and the identity its result has. Returns true if
 * it failed. */
static bool finish(const char *dir, const struct sweep_run *r, const struct sweep_ident *id,
                   struct slot *sl, int wst, double timeout_s, char *why, size_t why_len)
{
    char json[4200], err[4200], ident[4200];
    run_path(json, sizeof json, dir, r->id, "json");
    run_path(err, sizeof err, dir, r->id, "err");
    run_path(ident, sizeof ident, dir, r->id, "ident");
    char head[128];
    bool failed = true;
    if (sl->timed_out)
        snprintf(head, sizeof head, "timeout %.0f", timeout_s);
    else if (WIFSIGNALED(wst))
        snprintf(head, sizeof head, "signal %d", WTERMSIG(wst));
    else if (WEXITSTATUS(wst))
        snprintf(head, sizeof head, "exit %d", WEXITSTATUS(wst));
    else if (!exists(json))
        snprintf(head, sizeof head, "exit %d", EXIT_USAGE); /* exited 0 without statistics */
    else
        failed = false;
    why[0] = 0;
    if (failed) {
        char t[TAIL_BYTES];
        tail(sl->out, t, sizeof t);
        const char *argv[18 + 2 * SWEEP_MAX_SETTINGS];
        child_argv(r, json, argv);
        char *text = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&text, &len);
        fprintf(m, "%s\ncommand:", head);
        for (unsigned i = 0; argv[i]; i++)
            fprintf(m, " %s", argv[i]);
        fprintf(m, "\n--- last output ---\n%s", t);
        fclose(m);
        write_file_atomic(err, text);
        free(text);
        /* the reason: the last non-empty line of the output */
        size_t k = strlen(t);
        while (k && (t[k - 1] == '\n' || t[k - 1] == ' '))
            t[--k] = 0;
        char *last = strrchr(t, '\n');
        snprintf(why, why_len, "%s%s%s", head, *t ? ": " : "", last ? last + 1 : t);
    }
    remove(sl->out);
    /* after the result: a sweep stopped in between leaves a result without
     * an identity, which the next one reruns */
    sweep_ident_write(ident, id);
    return failed;
}

void sweep_rerun_text(const struct sweep_counts *c, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = 0;
    for (unsigned w = 0; w <= SWEEP_IDENT_N; w++)
        if (c->rerun_why[w])
            len += (size_t)snprintf(buf + len, len < n ? n - len : 0, "%s%s (%u)", len ? ", " : "",
                                    sweep_ident_reasons[w], c->rerun_why[w]);
}

bool sweep_run_is_first(const struct sweep_spec *s, unsigned i)
{
    for (unsigned k = 0; k < i; k++)
        if (!strcmp(s->runs[k].id, s->runs[i].id))
            return false;
    return true;
}

unsigned sweep_distinct_runs(const struct sweep_spec *s)
{
    unsigned n = 0;
    for (unsigned i = 0; i < s->n_runs; i++)
        n += sweep_run_is_first(s, i);
    return n;
}

int sweep_execute(const struct sweep_spec *s, const struct sweep_exec_opts *o,
                  struct sweep_counts *c)
{
    memset(c, 0, sizeof *c);
    char runs_dir[4200];
    snprintf(runs_dir, sizeof runs_dir, "%s/runs", o->out_dir);
    if (sweep_mkdir_p(runs_dir)) {
        fprintf(stderr, "gpucoh sweep: cannot make %s: %s\n", runs_dir, strerror(errno));
        return -1;
    }
    /* /proc/self/exe is this very binary even if the file is rebuilt while
     * the sweep runs: every run of one sweep uses the same simulator, this
     * build */
    const char *exe = "/proc/self/exe";
    uint64_t build = build_fingerprint_value();
    /* distinct runs, and which of them still need running */
    unsigned *todo = malloc((s->n_runs + 1) * sizeof *todo);
    struct sweep_ident *idents = malloc((s->n_runs + 1) * sizeof *idents);
    if (!todo || !idents)
        abort();
    unsigned n_todo = 0, distinct = 0;
    for (unsigned i = 0; i < s->n_runs; i++) {
        if (!sweep_run_is_first(s, i))
            continue;
        if (o->one_run && distinct++ != o->run_index)
            continue;
        c->total++;
        char path[4200];
        run_path(path, sizeof path, o->out_dir, s->runs[i].id, "json");
        bool done = exists(path);
        run_path(path, sizeof path, o->out_dir, s->runs[i].id, "err");
        int status;
        bool is_result;
        bool has_err = err_status(path, &status, &is_result);
        if (has_err && !is_result)
            done = false; /* killed from outside: not a result */
        else if (has_err && o->retry_failed)
            done = false;
        else if (has_err)
            done = true;
        sweep_ident_of(&s->runs[i], build, &idents[i]);
        if (done) { /* a result: still this run's? */
            run_path(path, sizeof path, o->out_dir, s->runs[i].id, "ident");
            int stale = sweep_ident_compare(path, &idents[i]);
            if (stale >= 0) {
                c->rerun++;
                c->rerun_why[stale]++;
                done = false;
            }
        }
        if (done) {
            c->skipped++;
            c->failed += has_err;
        } else {
            todo[n_todo++] = i;
        }
    }
    bool tty = o->log && isatty(fileno(o->log));
    unsigned jobs = o->jobs ? o->jobs : 1;
    if (o->log) {
        fprintf(o->log, "sweep: %u runs, %u finished before, %u to run with -j %u into %s\n",
                c->total, c->skipped, n_todo, jobs, o->out_dir);
        if (c->rerun) {
            char why[256];
            sweep_rerun_text(c, why, sizeof why);
            fprintf(o->log, "sweep: %u rerun, their stored results stale: %s\n", c->rerun, why);
        }
    }

    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    interrupted = 0;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);

    struct slot *slots = calloc(jobs, sizeof *slots);
    double t0 = wall_seconds(), busy = 0, last_draw = 0;
    unsigned next = 0, running = 0, done_now = 0;
    int rc = 0;
    bool out_of_time = false;
    while ((next < n_todo || running) && !interrupted && !out_of_time) {
        out_of_time = o->time_limit_s > 0 && wall_seconds() - t0 >= o->time_limit_s;
        bool reaped = false;
        for (unsigned j = 0; j < jobs; j++) {
            if (!slots[j].pid)
                continue;
            int wst;
            pid_t got = waitpid(slots[j].pid, &wst, WNOHANG);
            double now = wall_seconds();
            if (got == 0) {
                if (o->timeout_s > 0 && now - slots[j].start > o->timeout_s &&
                    !slots[j].timed_out) {
                    slots[j].timed_out = true;
                    kill(slots[j].pid, SIGKILL);
                }
                continue;
            }
            if (got < 0 && errno == EINTR)
                continue;
            const struct sweep_run *r = &s->runs[slots[j].run];
            char why[512];
            bool failed = finish(o->out_dir, r, &idents[slots[j].run], &slots[j], got < 0 ? 0 : wst,
                                 o->timeout_s, why, sizeof why);
            double dt = now - slots[j].start;
            busy += dt;
            slots[j].pid = 0;
            running--;
            done_now++;
            c->ran++;
            c->failed += failed;
            reaped = true;
            if (o->log) {
                if (tty)
                    fputs("\r\033[K", o->log);
                if (failed || !tty) {
                    fprintf(o->log, "[%*u/%u] %-6s %s (%s) %.1f s%s%s\n",
                            (int)snprintf(NULL, 0, "%u", c->total), c->skipped + done_now, c->total,
                            failed ? "FAILED" : "ok", r->id, r->config, dt, failed ? ": " : "",
                            failed ? why : "");
                }
            }
        }
        /* after reaping, so that the status counts the runs started in
         * the freed slots as running */
        for (unsigned j = 0; j < jobs && next < n_todo && !interrupted && !out_of_time; j++) {
            if (slots[j].pid)
                continue;
            const struct sweep_run *r = &s->runs[todo[next]];
            memset(&slots[j], 0, sizeof slots[j]);
            pid_t pid = start(exe, o->out_dir, r, &slots[j]);
            if (pid < 0) {
                fprintf(stderr, "gpucoh sweep: fork: %s\n", strerror(errno));
                interrupted = SIGTERM;
                break;
            }
            slots[j].pid = pid;
            slots[j].run = todo[next++];
            slots[j].start = wall_seconds();
            running++;
        }
        bool status = o->log && (tty || o->progress);
        if (status && (reaped || (tty && wall_seconds() - last_draw >= 1))) {
            last_draw = wall_seconds();
            double elapsed[256];
            unsigned n_el = 0;
            for (unsigned j = 0; j < jobs; j++)
                if (slots[j].pid && n_el < 256)
                    elapsed[n_el++] = last_draw - slots[j].start;
            char eta[32], took[32];
            fmt_eta(eta, sizeof eta,
                    sweep_eta(done_now ? busy / done_now : -1, n_todo - next, elapsed, n_el, jobs));
            fmt_eta(took, sizeof took, last_draw - t0);
            fprintf(o->log, "%ssweep: %u/%u done, %u running, %u failed, %s elapsed, ETA %s%s",
                    tty ? "\r\033[K" : "", c->skipped + done_now, c->total, running, c->failed,
                    took, eta, tty ? "" : "\n");
            fflush(o->log);
        }
        if (!reaped)
            nanosleep(&(struct timespec){0, 50 * 1000 * 1000}, NULL);
    }
    if (interrupted || out_of_time) {
        for (unsigned j = 0; j < jobs; j++)
            if (slots[j].pid)
                kill(slots[j].pid, SIGTERM);
        for (unsigned j = 0; j < jobs; j++)
            if (slots[j].pid) {
                waitpid(slots[j].pid, NULL, 0);
                remove(slots[j].out);
            }
        if (o->log)
            fprintf(o->log, "%ssweep: %s; %u runs left for next time\n", tty ? "\n" : "",
                    interrupted ? "interrupted" : "stopped at its time limit",
                    c->total - c->skipped - done_now);
        rc = interrupted ? -1 : SWEEP_STOPPED;
    } else if (tty && o->log) {
        fputc('\n', o->log);
    }
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    c->wall_seconds = wall_seconds() - t0;
    free(slots);
    free(todo);
    free(idents);
    return rc;
}
