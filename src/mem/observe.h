/*
 * observe.h - invariant observers (--check).
 *
 * A golden memory, updated by each protocol at the point where it serialises
 * writes (the L2 bank for every protocol so far) and by host copies, and the
 * data-value invariant checked where the protocol promises it: every line an
 * L2 bank hands out must equal the golden memory. Protocols with stronger
 * promises (an L1 hit returns the current value, single writer / multiple
 * readers, lease inclusion) check those through the same observer. Observers
 * never change behaviour; when --check is off the controllers hold a NULL
 * observer and pay one pointer test.
 * A violation is a simulator fault: the message, then the usual dump, exit 3.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MEM_OBSERVE_H
#define MEM_OBSERVE_H

#include "base/bits.h"
#include "mem/backing.h"

struct observer {
    struct backing golden; /* what memory holds, as serialised */
    uint32_t line_bytes;
    uint64_t writes; /* golden updates */
    uint64_t checks; /* lines or bytes compared */
    /* A protocol's own check of every write at the serialisation point (STC:
     * the write's band is granted), or NULL. */
    void (*on_write)(void *arg, addr_t line);
    void *on_write_arg;
    /* Told of every golden update, after it (gpucoh verify follows each line's
     * coherence order through it), or NULL. */
    void (*on_golden)(void *arg, addr_t line);
    void *on_golden_arg;
};

void obs_init(struct observer *o, uint32_t line_bytes);
void obs_destroy(struct observer *o);

/* A write performed at the serialisation point: the masked bytes of `data`. */
void obs_write(struct observer *o, addr_t line, const uint8_t *data, const struct bytemask *mask);

/* A write or atomic a core issued was performed at the serialisation point
 * (not a host copy): the protocol's own check, if it has one. */
static inline void obs_performed(struct observer *o, addr_t line)
{
    if (o->on_write)
        o->on_write(o->on_write_arg, line);
}

/* `data` (a whole line) handed out by `who` must equal the golden line on the
 * bytes in `mask` (NULL: every byte). Panics (exit 3) on a difference. */
void obs_check(struct observer *o, const char *who, addr_t line, const uint8_t *data,
               const struct bytemask *mask);

/* The golden line's bytes in `mask` into `out` (the other bytes of `out`
 * untouched): what a read ordered now must return there, for a check made
 * later by obs_check_since. */
void obs_golden(struct observer *o, addr_t line, uint8_t *out, const struct bytemask *mask);

/* obs_check for data a protocol may hand out after its read was ordered (a
 * forwarded read answered by the owner, which may have given the words back
 * since): the bytes in `mask` must equal either `then` (obs_golden's bytes at
 * the read's ordering point) or the golden line now. */
void obs_check_since(struct observer *o, const char *who, addr_t line, const uint8_t *data,
                     const uint8_t *then, const struct bytemask *mask);

#endif
