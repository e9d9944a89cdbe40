/*
 * cmd_chopin.h - what `gpucoh chopin run` (cmd_chopin.c) and `gpucoh chopin repro`
 * (chopin_repro.c) share: the CSV columns of a run, and the repro entry point.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef CLI_CMD_CHOPIN_H
#define CLI_CMD_CHOPIN_H

#include <stdio.h>

#include "gfx/sfr.h"

int chopin_repro(int argc, char **argv);

/* The help of `gpucoh chopin` (every subcommand). */
void chopin_usage(FILE *out);

/* The CSV columns of a run after `lead` (the caller's key columns): cycles,
 * speedup, frame check, groups, bytes by traffic kind, GPU time by activity. */
void chopin_csv_header(FILE *f, const char *lead);
void chopin_csv_row(FILE *f, const struct sfr_result *r, double speedup);

#endif
