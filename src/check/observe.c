/*
 * observe.c - golden memory and the data-value invariant (see observe.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "check/observe.h"

#include <string.h>

#include "base/log.h"

void obs_init(struct observer *o, uint32_t line_bytes)
{
    memset(o, 0, sizeof *o);
    backing_init(&o->golden);
    o->line_bytes = line_bytes;
}

void obs_destroy(struct observer *o)
{
    backing_destroy(&o->golden);
}

void obs_write(struct observer *o, addr_t line, const uint8_t *data, const struct bytemask *mask)
{
    backing_write_masked(&o->golden, line, data, mask->w, o->line_bytes);
    o->writes++;
}

void obs_check(struct observer *o, const char *who, addr_t line, const uint8_t *data,
               const struct bytemask *mask)
{
    uint8_t gold[LINE_MAX_BYTES];
    backing_read(&o->golden, line, gold, o->line_bytes);
    o->checks++;
    for (unsigned i = 0; i < o->line_bytes; i++) {
        if (mask && !bytemask_test(mask, i))
            continue;
        if (data[i] != gold[i])
            panic("invariant violated: %s handed out line %#llx with byte %u = %#x, but the "
                  "last write serialised there made it %#x (data-value invariant)",
                  who, (unsigned long long)line, i, data[i], gold[i]);
    }
}
