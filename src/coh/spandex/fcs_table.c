/*
 * fcs_table.c - the per-static-instruction request-type table of fine-grain
 * coherence specialization (fcs.h; spec 003 §2.9).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coh/spandex/fcs.h"
#include "ptx/ir.h"
#include "sim/req.h"

const char *const spx_req_kind_names[SPXK_N] = {
    [SPXK_NONE] = "-",
    [SPXK_V] = "ReqV",
    [SPXK_VO] = "ReqVo",
    [SPXK_O_DATA] = "ReqO+data",
    [SPXK_O] = "ReqO",
    [SPXK_WT] = "ReqWT",
    [SPXK_WTFWD] = "ReqWTfwd",
    [SPXK_WTO] = "ReqWTo",
    [SPXK_WT_DATA] = "ReqWT+data",
    [SPXK_WTFWD_DATA] = "ReqWTfwd+data",
    [SPXK_WTO_DATA] = "ReqWTo+data",
    [SPXK_S] = "ReqS",
};

const char *const spx_mask_shape_names[SPXM_N] = {
    [SPXM_DEFAULT] = "-", [SPXM_WORDS] = "words", [SPXM_REST] = "rest", [SPXM_LINE] = "line"};

bool spx_kind_has_shape(unsigned k)
{
    return k == SPXK_VO || k == SPXK_O || k == SPXK_O_DATA;
}

bool spx_req_kind_fits(unsigned k, unsigned op)
{
    switch (op) {
    case MEM_LOAD:
        return k == SPXK_V || k == SPXK_VO || k == SPXK_O_DATA || k == SPXK_S;
    case MEM_STORE:
        return k == SPXK_O || k == SPXK_O_DATA || k == SPXK_WT || k == SPXK_WTFWD || k == SPXK_WTO;
    case MEM_ATOMIC:
        return k == SPXK_O_DATA || k == SPXK_WT_DATA || k == SPXK_WTFWD_DATA || k == SPXK_WTO_DATA;
    default:
        return false;
    }
}

unsigned spx_req_kind_supported(unsigned k, bool fwd, bool pred)
{
    if (!pred) {
        if (k == SPXK_VO)
            k = SPXK_V;
        else if (k == SPXK_WTO)
            k = SPXK_WTFWD;
        else if (k == SPXK_WTO_DATA)
            k = SPXK_WTFWD_DATA;
    }
    if (!fwd) {
        if (k == SPXK_WTFWD || k == SPXK_WTO)
            k = SPXK_WT;
        else if (k == SPXK_WTFWD_DATA || k == SPXK_WTO_DATA)
            k = SPXK_WT_DATA;
    }
    return k;
}

/* The memory operation of a global (or generic) access instruction, or
 * MEM_NOPS when it is none. */
static unsigned global_op(const struct px_inst *i)
{
    if (i->space != SP_GLOBAL && i->space != SP_GENERIC)
        return MEM_NOPS;
    switch (i->op) {
    case PX_LD:
        return MEM_LOAD;
    case PX_ST:
        return MEM_STORE;
    case PX_ATOM:
    case PX_RED:
        return MEM_ATOMIC;
    default:
        return MEM_NOPS;
    }
}

/* The instruction label `name` stands before, or UINT32_MAX. */
static uint32_t label_pc(const struct ptx_module *m, const char *name)
{
    for (uint32_t k = 0; k < m->n_labels; k++)
        if (!strcmp(m->labels[k].name, name))
            return m->labels[k].pc;
    return UINT32_MAX;
}

static void *fail(char *err, size_t errlen, uint8_t *types, FILE *f, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void *fail(char *err, size_t errlen, uint8_t *types, FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    free(types);
    if (f)
        fclose(f);
    return NULL;
}

uint8_t *fcs_table_load(const char *path, const struct ptx_module *m, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return fail(err, errlen, NULL, NULL, "%s: cannot open: %s", path, strerror(errno));
    uint8_t *types = calloc(m->n_ins ? m->n_ins : 1, 1);
    if (!types)
        return fail(err, errlen, NULL, f, "%s: out of memory", path);
    char buf[1024];
    unsigned n = 0;
    while (fgets(buf, sizeof buf, f)) {
        n++;
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = 0;
        char where[512], type[64], shape_name[16], extra[8];
        int k = sscanf(buf, "%511s %63s %15s %7s", where, type, shape_name, extra);
        if (k <= 0)
            continue;
        if (k != 2 && k != 3)
            return fail(err, errlen, types, f,
                        "%s:%u: expected 'LINE TYPE [MASK]' or 'LABEL TYPE [MASK]' (a PTX line "
                        "number or label, a request type, and optionally words, rest or line)",
                        path, n);
        unsigned kind = SPXK_N;
        for (unsigned t = 1; t < SPXK_N; t++)
            if (!strcmp(type, spx_req_kind_names[t]))
                kind = t;
        if (kind == SPXK_N)
            return fail(err, errlen, types, f,
                        "%s:%u: unknown request type '%s' (ReqV, ReqVo, ReqS, ReqO, ReqO+data, "
                        "ReqWT, ReqWTfwd, ReqWTo, ReqWT+data, ReqWTfwd+data or ReqWTo+data)",
                        path, n, type);
        unsigned shape = SPXM_DEFAULT;
        if (k == 3) {
            for (unsigned h = SPXM_WORDS; h < SPXM_N; h++)
                if (!strcmp(shape_name, spx_mask_shape_names[h]))
                    shape = h;
            if (shape == SPXM_DEFAULT)
                return fail(err, errlen, types, f, "%s:%u: unknown mask '%s' (words, rest or line)",
                            path, n, shape_name);
            if (!spx_kind_has_shape(kind))
                return fail(err, errlen, types, f,
                            "%s:%u: %s takes no mask (only ReqVo, ReqO and ReqO+data do)", path, n,
                            type);
        }
        unsigned typed = spx_type(kind, shape);
        char *end;
        unsigned long line = strtoul(where, &end, 10);
        bool by_label = *end != 0 || !isdigit((unsigned char)where[0]);
        uint32_t from = 0;
        if (by_label) {
            from = label_pc(m, where);
            if (from == UINT32_MAX)
                return fail(err, errlen, types, f, "%s:%u: label '%s' is not in %s", path, n, where,
                            m->filename);
        }
        unsigned hits = 0;
        for (uint32_t i = from; i < m->n_ins && !(by_label && hits); i++) {
            const struct px_inst *in = &m->ins[i];
            unsigned op = global_op(in);
            if (op == MEM_NOPS || (!by_label && in->line != line))
                continue;
            if (!spx_req_kind_fits(kind, op))
                return fail(err, errlen, types, f, "%s:%u: %s does not apply to the %s at %s:%u",
                            path, n, type,
                            op == MEM_LOAD    ? "load"
                            : op == MEM_STORE ? "store"
                                              : "atomic",
                            m->filename, in->line);
            if (types[i] && types[i] != typed)
                return fail(err, errlen, types, f, "%s:%u: %s:%u is given two request types", path,
                            n, m->filename, in->line);
            types[i] = (uint8_t)typed;
            hits++;
        }
        if (!hits)
            return fail(err, errlen, types, f,
                        "%s:%u: %s %s of %s has no global load, store or atomic%s", path, n,
                        by_label ? "label" : "line", where, m->filename,
                        by_label ? " after it" : "");
    }
    fclose(f);
    return types;
}
