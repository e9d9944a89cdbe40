/*
 * main.c - the gpucoh command: dispatch to subcommands.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "cli/cli.h"

int main(int argc, char **argv)
{
    return cli_main(argc, argv);
}
