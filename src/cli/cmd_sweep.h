/*
 * cmd_sweep.h - the experiment commands: `gpucoh sweep` (any spec file) and
 * `gpucoh repro` (a paper's figures, built on the same runner).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef CLI_CMD_SWEEP_H
#define CLI_CMD_SWEEP_H

int cmd_sweep(int argc, char **argv);
int cmd_repro(int argc, char **argv);

#endif
