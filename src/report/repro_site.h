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
    bool unfinished; /* not ran: started, stopped at --time-limit with runs left */
    char why[256];   /* not ran: why ("needs protocol stc") */
};

/* Where the page's numbers come from, for its provenance line, and the
 * files it reads beside the reproductions. */
struct repro_site_info {
    const char *headlines; /* repro/headlines.csv */
    const char *papers;    /* docs/papers.md: the bibliography "spec 00x" links to */
    const char *size;      /* --size */
    const char *command;   /* the command line that made the page */
    const char *commit;    /* the source tree's (repro_source_commit) */
};

/* Returns 0, or 2 if a file could not be written (message printed). */
int repro_site(const char *out_dir, const struct repro_site_info *info, struct repro_entry *e,
               unsigned n, FILE *out);

#endif
