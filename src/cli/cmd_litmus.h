/*
 * cmd_litmus.h - `gpucoh litmus`: run PTX litmus tests on protocols and judge
 * the outcomes against the model each protocol promises.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef CLI_CMD_LITMUS_H
#define CLI_CMD_LITMUS_H

int cmd_litmus(int argc, char **argv);

#endif
