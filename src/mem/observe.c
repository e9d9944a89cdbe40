/*
 * observe.c - golden memory and the data-value invariant (see observe.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "mem/observe.h"

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
    if (o->on_golden)
        o->on_golden(o->on_golden_arg, line);
}

void obs_check(struct observer *o, const char *who, addr_t line, const uint8_t *data,
               const struct bytemask *mask)
{
    static const uint8_t zeros[LINE_MAX_BYTES];
    uint8_t copy[LINE_MAX_BYTES];
    const uint8_t *gold;
    if (line % BACKING_PAGE_BYTES + o->line_bytes <= BACKING_PAGE_BYTES) { /* in place */
        gold = backing_peek(&o->golden, line);
        if (!gold)
            gold = zeros;
    } else {
        backing_read(&o->golden, line, copy, o->line_bytes);
        gold = copy;
    }
    o->checks++;
    if (!mask && !memcmp(data, gold, o->line_bytes))
        return;
    for (unsigned i = 0; i < o->line_bytes; i++) {
        if (mask && !bytemask_test(mask, i))
            continue;
        if (data[i] != gold[i])
            panic("invariant violated: %s handed out line %#llx with byte %u = %#x, but the "
                  "last write serialised there made it %#x (data-value invariant)",
                  who, (unsigned long long)line, i, data[i], gold[i]);
    }
}

void obs_golden(struct observer *o, addr_t line, uint8_t *out, const struct bytemask *mask)
{
    uint8_t gold[LINE_MAX_BYTES];
    backing_read(&o->golden, line, gold, o->line_bytes);
    bytes_merge(out, gold, mask, o->line_bytes);
}

void obs_check_since(struct observer *o, const char *who, addr_t line, const uint8_t *data,
                     const uint8_t *then, const struct bytemask *mask)
{
    for (unsigned i = 0; i < o->line_bytes; i++)
        if (bytemask_test(mask, i) && data[i] != then[i]) {
            obs_check(o, who, line, data, mask);
            return;
        }
    o->checks++;
}
