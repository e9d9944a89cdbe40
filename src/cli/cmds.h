/*
 * cmds.h - the subcommands of gpucoh (one file each).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef CLI_CMDS_H
#define CLI_CMDS_H

int cmd_run(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_protocol(int argc, char **argv);
int cmd_spandex(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_stress(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_chopin(int argc, char **argv);
int cmd_cuda(int argc, char **argv);
int cmd_stats(int argc, char **argv);

/* The machine files shipped in configs/, one a line: the path and the file's
 * own description (its first comment line after "NAME - "). `gpucoh list
 * configs` and `gpucoh config list`. */
void list_configs(void);

#endif
