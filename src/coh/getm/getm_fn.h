/*
 * getm_fn.h - GETM's validation unit as the functional mode's conflict
 * detection (gpu/functional.h, functional_opts.tm): one VU sized for the
 * whole GPU, driven directly by the runner, with no timing and no rollover.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef COH_GETM_FN_H
#define COH_GETM_FN_H

#include "gpu/functional.h"

extern const struct functional_tm_ops getm_functional_tm;

#endif
