/*
 * cfg.c - option tables, libinih loading, overrides (see cfg.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "sim/cfg.h"

#include <errno.h>
#include <ini.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "base/file.h"
#include "base/hash.h"

const struct cfg_opt *cfg_find(const struct cfg_opt *tab, const char *name)
{
    for (const struct cfg_opt *o = tab; o->name; o++)
        if (!strcmp(o->name, name))
            return o;
    return NULL;
}

static int parse_number(const struct cfg_opt *o, const char *v, double *out, char *err,
                        size_t errlen)
{
    char *end;
    errno = 0;
    double d;
    if (o->kind == CFG_KIND_F64) {
        d = strtod(v, &end);
    } else {
        /* integers: decimal, hex, and K/M/G suffixes for sizes */
        if (*v == '-') {
            snprintf(err, errlen, "%s: '%s' is not a non-negative integer", o->name, v);
            return -1;
        }
        unsigned long long u = strtoull(v, &end, 0);
        d = (double)u;
        if (end != v && (*end == 'K' || *end == 'k'))
            d *= 1024, end++;
        else if (end != v && (*end == 'M' || *end == 'm'))
            d *= 1024 * 1024, end++;
        else if (end != v && (*end == 'G' || *end == 'g'))
            d *= 1024.0 * 1024 * 1024, end++;
    }
    while (*end == ' ' || *end == '\t')
        end++;
    if (end == v || *end || errno || isnan(d)) {
        snprintf(err, errlen, "%s: '%s' is not a valid %s", o->name, v,
                 o->kind == CFG_KIND_F64 ? "number" : "integer");
        return -1;
    }
    if (d < o->min || d > o->max) {
        snprintf(err, errlen, "%s: %s is out of range [%g, %g]%s%s", o->name, v, o->min, o->max,
                 *o->unit ? " " : "", o->unit);
        return -1;
    }
    *out = d;
    return 0;
}

static int set_opt(const struct cfg_opt *o, void *base, const char *v, char *err, size_t errlen)
{
    char *field = (char *)base + o->off;
    double d;
    switch (o->kind) {
    case CFG_KIND_U32:
        if (parse_number(o, v, &d, err, errlen))
            return -1;
        *(uint32_t *)field = (uint32_t)d;
        return 0;
    case CFG_KIND_U64:
        if (parse_number(o, v, &d, err, errlen))
            return -1;
        *(uint64_t *)field = (uint64_t)d;
        return 0;
    case CFG_KIND_LIMIT:
        if (!strcmp(v, "auto")) {
            *(uint64_t *)field = CFG_AUTO;
            return 0;
        }
        if (parse_number(o, v, &d, err, errlen))
            return -1;
        *(uint64_t *)field = (uint64_t)d;
        return 0;
    case CFG_KIND_F64:
        if (parse_number(o, v, &d, err, errlen))
            return -1;
        *(double *)field = d;
        return 0;
    case CFG_KIND_BOOL:
        if (!strcasecmp(v, "true") || !strcasecmp(v, "yes") || !strcmp(v, "1") ||
            !strcasecmp(v, "on"))
            *(bool *)field = true;
        else if (!strcasecmp(v, "false") || !strcasecmp(v, "no") || !strcmp(v, "0") ||
                 !strcasecmp(v, "off"))
            *(bool *)field = false;
        else {
            snprintf(err, errlen, "%s: '%s' is not a boolean (true/false)", o->name, v);
            return -1;
        }
        return 0;
    case CFG_KIND_ENUM:
        for (uint32_t i = 0; o->choices[i]; i++) {
            if (!strcmp(o->choices[i], v)) {
                *(uint32_t *)field = i;
                return 0;
            }
        }
        {
            size_t n = (size_t)snprintf(err, errlen, "%s: '%s' is not one of", o->name, v);
            for (uint32_t i = 0; o->choices[i] && n < errlen; i++)
                n += (size_t)snprintf(err + n, errlen - n, " %s", o->choices[i]);
        }
        return -1;
    case CFG_KIND_STR:
        if (strlen(v) >= CFG_STR_MAX) {
            snprintf(err, errlen, "%s: value longer than %d characters", o->name, CFG_STR_MAX - 1);
            return -1;
        }
        if (v[0] == ';') {
            /* `config show` prints "key = VALUE", and INI reads " ;" as the
             * start of a comment: such a value could not be loaded back. */
            snprintf(err, errlen, "%s: a value cannot start with ';' (it begins a comment)",
                     o->name);
            return -1;
        }
        strcpy(field, v);
        return 0;
    }
    return -1;
}

void cfg_defaults(const struct cfg_opt *tab, void *base)
{
    char err[256];
    for (const struct cfg_opt *o = tab; o->name; o++)
        if (set_opt(o, base, o->def, err, sizeof err))
            fprintf(stderr, "gpucoh: bad default: %s\n", err); /* a bug in a table */
}

int cfg_set(const struct cfg_opt *tab, void *base, const char *name, const char *value, char *err,
            size_t errlen)
{
    const struct cfg_opt *o = cfg_find(tab, name);
    if (!o) {
        snprintf(err, errlen, "unknown option '%s' (gpucoh config show lists every option)", name);
        return -1;
    }
    return set_opt(o, base, value, err, errlen);
}

int cfg_set_assignment(const struct cfg_opt *tab, void *base, const char *assign, char *err,
                       size_t errlen)
{
    const char *eq = strchr(assign, '=');
    if (!eq || eq == assign) {
        snprintf(err, errlen, "--set %s: expected section.key=value", assign);
        return -1;
    }
    char name[128];
    size_t n = (size_t)(eq - assign);
    if (n >= sizeof name) {
        snprintf(err, errlen, "--set %s: option name too long", assign);
        return -1;
    }
    memcpy(name, assign, n);
    name[n] = 0;
    char msg[256];
    if (cfg_set(tab, base, name, eq + 1, msg, sizeof msg)) {
        snprintf(err, errlen, "--set: %s", msg);
        return -1;
    }
    return 0;
}

/* libinih reads through read_ini_line below, which counts lines itself, so a
 * callback error carries the line it belongs to (the library only reports the
 * first line with any error, which may be an earlier syntax error). */
struct ini_ctx {
    const struct cfg_opt *tab;
    void *base;
    unsigned *lines;   /* per option: the line that set it, 0 = not set here */
    const char *p;     /* rest of the text */
    unsigned line;     /* line number of the last line read */
    unsigned err_line; /* first line with an error found here (0: none) */
    char msg[512];
};

static void ini_error(struct ini_ctx *c, unsigned line, const char *msg)
{
    if (c->err_line && c->err_line <= line)
        return;
    c->err_line = line;
    snprintf(c->msg, sizeof c->msg, "%s", msg);
}

static char *read_ini_line(char *str, int num, void *stream)
{
    struct ini_ctx *c = stream;
    if (!*c->p)
        return NULL;
    const char *nl = strchr(c->p, '\n');
    size_t len = nl ? (size_t)(nl - c->p) + 1 : strlen(c->p);
    c->line++;
    if (len + 1 > (size_t)num) {
        char m[96];
        snprintf(m, sizeof m, "line longer than %d characters", num - 2);
        ini_error(c, c->line, m);
        len = 0; /* the library sees an empty line: its numbering stays ours */
    }
    memcpy(str, c->p, len);
    str[len] = 0;
    c->p += nl ? (size_t)(nl - c->p) + 1 : strlen(c->p);
    return str;
}

static int on_ini_entry(void *user, const char *section, const char *key, const char *value)
{
    struct ini_ctx *c = user;
    char name[160], msg[512];
    if (!*section) {
        snprintf(msg, sizeof msg, "'%s' is outside any [section]", key);
        ini_error(c, c->line, msg);
        return 0;
    }
    snprintf(name, sizeof name, "%s.%s", section, key);
    const struct cfg_opt *o = cfg_find(c->tab, name);
    if (o && c->lines) {
        unsigned *at = &c->lines[o - c->tab];
        if (*at) {
            snprintf(msg, sizeof msg, "%s is set twice (first at line %u)", name, *at);
            ini_error(c, c->line, msg);
            return 0;
        }
        *at = c->line;
    }
    if (cfg_set(c->tab, c->base, name, value, msg, sizeof msg)) {
        ini_error(c, c->line, msg);
        return 0;
    }
    return 1;
}

/* The text of line `n` of `text`, for a syntax error's message. */
static void line_text(const char *text, unsigned n, char *out, size_t len)
{
    for (unsigned l = 1; l < n && text; l++) {
        text = strchr(text, '\n');
        text = text ? text + 1 : NULL;
    }
    if (!text)
        text = "";
    size_t k = strcspn(text, "\r\n");
    snprintf(out, len, "%.*s", (int)(k < len ? k : len - 1), text);
}

int cfg_parse_ini(const struct cfg_opt *tab, void *base, const char *name, const char *text,
                  unsigned *lines, char *err, size_t errlen)
{
    unsigned *own = NULL;
    if (!lines) { /* still needed to find keys set twice */
        size_t n = 0;
        while (tab[n].name)
            n++;
        lines = own = calloc(n + 1, sizeof *own);
        if (!own) {
            snprintf(err, errlen, "%s: out of memory while reading", name);
            return -1;
        }
    }
    struct ini_ctx c = {.tab = tab, .base = base, .lines = lines, .p = text};
    int line = ini_parse_stream(read_ini_line, &c, on_ini_entry, &c);
    free(own);
    if (line == 0 && !c.err_line)
        return 0;
    if (line < 0) {
        snprintf(err, errlen, "%s: out of memory while reading", name);
        return -1;
    }
    if (c.err_line && (line == 0 || c.err_line <= (unsigned)line)) {
        snprintf(err, errlen, "%s:%u: %s", name, c.err_line, c.msg);
        return -1;
    }
    char t[80];
    line_text(text, (unsigned)line, t, sizeof t);
    const char *s = t + strspn(t, " \t");
    if (*s == '[')
        snprintf(err, errlen, "%s:%d: section header '%s' lacks its closing ']'", name, line, s);
    else
        snprintf(err, errlen, "%s:%d: expected [section] or key = value, found '%s'", name, line,
                 s);
    return -1;
}

int cfg_load_ini(const struct cfg_opt *tab, void *base, const char *path, unsigned *lines,
                 char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    struct stat st;
    if (!f || fstat(fileno(f), &st)) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        if (f)
            fclose(f);
        return -1;
    }
    if (!S_ISREG(st.st_mode) || st.st_size > CFG_FILE_MAX) {
        snprintf(err, errlen, "%s: %s", path,
                 S_ISREG(st.st_mode) ? "larger than 1 MiB; not a configuration"
                                     : "not a regular file");
        fclose(f);
        return -1;
    }
    char *text = malloc((size_t)st.st_size + 1);
    size_t n = text ? fread(text, 1, (size_t)st.st_size, f) : 0;
    bool bad = !text || ferror(f);
    fclose(f);
    if (bad) {
        snprintf(err, errlen, "%s: cannot read", path);
        free(text);
        return -1;
    }
    text[n] = 0;
    if (file_check_text(path, text, n, err, errlen)) {
        free(text);
        return -1;
    }
    int rc = cfg_parse_ini(tab, base, path, text, lines, err, errlen);
    free(text);
    return rc;
}

void cfg_format(const struct cfg_opt *o, const void *base, char *buf, size_t len)
{
    const char *field = (const char *)base + o->off;
    switch (o->kind) {
    case CFG_KIND_U32:
        snprintf(buf, len, "%u", *(const uint32_t *)field);
        break;
    case CFG_KIND_U64:
        snprintf(buf, len, "%llu", (unsigned long long)*(const uint64_t *)field);
        break;
    case CFG_KIND_LIMIT:
        if (*(const uint64_t *)field == CFG_AUTO)
            snprintf(buf, len, "auto");
        else
            snprintf(buf, len, "%llu", (unsigned long long)*(const uint64_t *)field);
        break;
    case CFG_KIND_F64:
        snprintf(buf, len, "%g", *(const double *)field);
        break;
    case CFG_KIND_BOOL:
        snprintf(buf, len, "%s", *(const bool *)field ? "true" : "false");
        break;
    case CFG_KIND_ENUM:
        snprintf(buf, len, "%s", o->choices[*(const uint32_t *)field]);
        break;
    case CFG_KIND_STR:
        snprintf(buf, len, "%s", field);
        break;
    }
}

uint64_t cfg_fingerprint(const struct cfg_opt *tab, const void *base)
{
    uint64_t h = HASH_FNV_INIT;
    char buf[CFG_STR_MAX + 64];
    for (const struct cfg_opt *o = tab; o->name; o++) {
        if (o->kind == CFG_KIND_F64) /* "%g" would round: the hex form is exact */
            snprintf(buf, sizeof buf, "%a", *(const double *)((const char *)base + o->off));
        else
            cfg_format(o, base, buf, sizeof buf);
        h = hash_fnv1a(h, o->name, strlen(o->name) + 1);
        h = hash_fnv1a(h, buf, strlen(buf) + 1);
    }
    return h;
}

void cfg_print(const struct cfg_opt *tab, const void *base, FILE *out, bool verbose)
{
    char section[64] = "";
    char buf[128];
    for (const struct cfg_opt *o = tab; o->name; o++) {
        const char *dot = strchr(o->name, '.');
        size_t n = (size_t)(dot - o->name);
        if (strlen(section) != n || strncmp(section, o->name, n)) {
            memcpy(section, o->name, n);
            section[n] = 0;
            fprintf(out, "%s[%s]\n", o == tab ? "" : "\n", section);
        }
        cfg_format(o, base, buf, sizeof buf);
        if (verbose) {
            fprintf(out, "%-24s = %-12s ; %s", dot + 1, buf, o->help);
            if (*o->unit)
                fprintf(out, " (%s)", o->unit);
            if (o->kind == CFG_KIND_ENUM) {
                fputs(" {", out);
                for (int i = 0; o->choices[i]; i++)
                    fprintf(out, "%s%s", i ? "|" : "", o->choices[i]);
                fputs("}", out);
            }
            fputc('\n', out);
        } else {
            fprintf(out, "%s = %s\n", dot + 1, buf);
        }
    }
}
