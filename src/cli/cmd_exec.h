/*
 * cmd_exec.h - `gpucoh exec SPEC`: run a launch-spec file (PTX, buffers,
 * launches, checks) in timing or functional mode.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef CLI_CMD_EXEC_H
#define CLI_CMD_EXEC_H

/* argv[0] is "exec". Returns the exit code: 0 ok, 1 a check failed, 2 usage
 * or input error (3, a simulator fault, exits from inside). */
int cmd_exec(int argc, char **argv);

#endif
