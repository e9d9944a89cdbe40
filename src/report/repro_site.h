/*
 * repro_site.h - the report over every reproduction (`gpucoh repro all`):
 * DIR/index.html and DIR/README.md, and the distance to every paper's
 * headline numbers printed to `out`.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef REPORT_REPRO_SITE_H
#define REPORT_REPRO_SITE_H

#include "report/repro.h"

struct repro_entry {
    struct repro *r; /* loaded; run and rendered when ran */
    bool ran;
    char why[256]; /* not ran: why ("needs protocol stc") */
};

/* Returns 0, or 2 if a file could not be written (message printed). */
int repro_site(const char *out_dir, const char *headlines_path, struct repro_entry *e, unsigned n,
               const char *size, FILE *out);

#endif
