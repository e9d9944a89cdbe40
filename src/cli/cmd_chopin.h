/*
 * cmd_chopin.h - `gpucoh chopin repro` (chopin_repro.c), called by cmd_chopin.c.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef CLI_CMD_CHOPIN_H
#define CLI_CMD_CHOPIN_H

int chopin_repro(int argc, char **argv);

#endif
