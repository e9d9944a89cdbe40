/*
 * msg.c - message pool and traffic class names.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "sim/msg.h"

#define X(n, d) #n,
const char *const traffic_class_names[TRAFFIC_N] = {TRAFFIC_CLASSES(X)};
#undef X

void msg_pool_init(struct pool *p)
{
    pool_init(p, sizeof(struct msg), 1024);
}
