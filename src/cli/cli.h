/*
 * cli.h - subcommands of the gpucoh command.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef CLI_CLI_H
#define CLI_CLI_H

int cli_main(int argc, char **argv);

#endif
