/*
 * ini.c - fuzz harness of the machine configuration: INI text through
 * libinih, the option tables and the checks after parsing (config_parse);
 * an accepted configuration must print back as INI that loads to the same
 * configuration.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>

#include "fuzz.h"
#include "system/config.h"

static void parse(const char *text)
{
    char err[1024];
    struct config c, again;
    if (config_parse(&c, "fuzz.ini", text, err, sizeof err))
        return;
    char *printed = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&printed, &len);
    if (!f)
        abort();
    cfg_print(config_options(), &c, f, false);
    fclose(f);
    if (config_parse(&again, "printed.ini", printed, err, sizeof err))
        abort(); /* what config show prints must load */
    char a[128], b[128];
    for (const struct cfg_opt *o = config_options(); o->name; o++) {
        cfg_format(o, &c, a, sizeof a);
        cfg_format(o, &again, b, sizeof b);
        if (strcmp(a, b))
            abort(); /* and mean the same */
    }
    free(printed);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_one(data, size, parse);
    return 0;
}
