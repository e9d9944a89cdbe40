/*
 * proto.c - the protocol registry.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "coh/proto.h"

#include <stdio.h>
#include <string.h>

#include "coh/sharers.h"
#include "system/config.h"

extern const struct proto_desc proto_nol1, proto_rc, proto_rc_noinv;
extern const struct proto_desc proto_gpuvi, proto_gpuvini, proto_ideal;
extern const struct proto_desc proto_tcs, proto_tcw, proto_tcs_nowait, proto_tcw_nogwct;
extern const struct proto_desc proto_mesi, proto_mesi_noinv;
extern const struct proto_desc proto_rccsc, proto_rccwo, proto_rccsc_nolease;
extern const struct proto_desc proto_getm, proto_warptm;
extern const struct proto_desc proto_stc_nv, proto_stc_es, proto_stc_ab, proto_stc_mb,
    proto_stc_es_oneack;
extern const struct proto_desc proto_spandex_g, proto_spandex_d;
extern const struct proto_desc proto_nhcc, proto_hmg, proto_ideal_mg, proto_nocache_mg;
extern const struct proto_desc proto_sw_nh, proto_sw_h;

const char *const mem_model_names[MODEL_N] = {"ptx", "sc"};

const struct proto_desc *const proto_registry[] = {
    &proto_nol1,
    &proto_rc,
    &proto_rc_noinv, /* test only */
    &proto_gpuvi,
    &proto_gpuvini,
    &proto_ideal,
    &proto_tcs,
    &proto_tcw,
    &proto_tcs_nowait, /* test only */
    &proto_tcw_nogwct, /* test only */
    &proto_mesi,
    &proto_mesi_noinv, /* test only */
    &proto_stc_nv,
    &proto_stc_es,
    &proto_stc_ab,
    &proto_stc_mb,
    &proto_stc_es_oneack, /* test only */
    &proto_rccsc,
    &proto_rccwo,
    &proto_rccsc_nolease, /* test only */
    &proto_getm,
    &proto_warptm,
    &proto_spandex_g,
    &proto_spandex_d,
    &proto_nhcc,
    &proto_hmg,
    &proto_ideal_mg,
    &proto_sw_nh,
    &proto_sw_h,
    &proto_nocache_mg,
    NULL,
};

const struct proto_desc *proto_find(const char *name)
{
    for (const struct proto_desc *const *p = proto_registry; *p; p++)
        if (!strcmp((*p)->name, name))
            return *p;
    return NULL;
}

const char *coh_sharers_check(const struct config *c, char *why, size_t len)
{
    if (c->gpu.sms <= COH_MAX_SHARERS)
        return NULL;
    snprintf(why, len, "gpu.sms = %u, but a sharer vector names at most %u SMs", c->gpu.sms,
             COH_MAX_SHARERS);
    return "gpu.sms";
}
