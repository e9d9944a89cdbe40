/*
 * 856-config-sections.c - the protocol families' configuration sections come
 * from the registry (proto_desc.options): each family once, every row of it
 * in the composed option table as "section.key" at its place in the
 * family's spec as the configuration stores it, the sections in their
 * `config show` order, and the view the protocols read (coh/machine_view.h)
 * finding the same spec and the machine-wide values of the configuration.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "coh/getm/getm_options.h"
#include "coh/proto.h"
#include "coh/tc/tc_options.h"
#include "system/config.h"

static struct config cfg;

static void load(const char *const *sets, unsigned n)
{
    char err[1024];
    if (config_load(&cfg, NULL, sets, n, err, sizeof err))
        fail_msg("%s", err);
}

static size_t index_of(const char *name)
{
    const struct cfg_opt *tab = config_options();
    const struct cfg_opt *o = cfg_find(tab, name);
    if (!o)
        fail_msg("no option %s", name);
    return (size_t)(o - tab);
}

static void every_family_is_composed_once(void **state)
{
    (void)state;
    load(NULL, 0);
    const struct coh_options *fam[COH_SECTIONS_MAX];
    unsigned n = proto_sections(fam);
    assert_int_equal(n, 8); /* vi tc rcc stc getm warptm mg fcs */
    for (unsigned f = 0; f < n; f++) {
        for (unsigned g = 0; g < f; g++)
            assert_ptr_not_equal(fam[f], fam[g]);
        size_t spec = (size_t)((const char *)config_section(&cfg, fam[f]) - (const char *)&cfg);
        assert_true(spec + fam[f]->size <= sizeof cfg);
        for (const struct cfg_opt *o = fam[f]->opts; o->name; o++) {
            char name[128];
            snprintf(name, sizeof name, "%s.%s", fam[f]->section, o->name);
            const struct cfg_opt *c = &config_options()[index_of(name)];
            assert_int_equal(c->off, spec + o->off);
        }
    }
}

static void sections_keep_their_order(void **state)
{
    (void)state;
    static const char *const order[] = {
        "coherence.protocol", "vi.dir_ratio", "tc.lease",      "rcc.lease",
        "stc.epochs",         "getm.ts_bits", "warptm.silent", "topology.gpus",
        "mg.dir_lines",       "fcs.load",     "cpu.cores",
    };
    for (size_t i = 1; i < sizeof order / sizeof order[0]; i++)
        if (index_of(order[i - 1]) >= index_of(order[i]))
            fail_msg("%s comes after %s", order[i - 1], order[i]);
}

static void a_set_reaches_the_family_spec_and_the_view(void **state)
{
    (void)state;
    static const char *const sets[] = {"tc.lease_max=123456", "getm.ts_bits=40", "gpu.sms=12",
                                       "l1.mshrs=77"};
    load(sets, 4);
    struct machine_view v;
    config_view(&cfg, &v);
    assert_ptr_equal(tc_spec_of(&v), config_section(&cfg, &tc_options));
    assert_int_equal(tc_spec_of(&v)->lease_max, 123456);
    assert_int_equal(getm_spec_of(&v)->ts_bits, 40);
    assert_int_equal(v.gpu.sms, 12);
    assert_int_equal(v.l1.mshrs, 77);
    assert_memory_equal(&v.l1, &cfg.l1, sizeof v.l1);
    assert_memory_equal(&v.l2, &cfg.l2, sizeof v.l2);
    assert_string_equal(v.coherence.protocol, cfg.coherence.protocol);
    assert_int_equal(v.sim.seed, cfg.sim.seed);
    assert_int_equal(v.sm.warps, cfg.sm.warps);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_family_is_composed_once),
        cmocka_unit_test(sections_keep_their_order),
        cmocka_unit_test(a_set_reaches_the_family_spec_and_the_view),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
