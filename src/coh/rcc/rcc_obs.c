/*
 * rcc_obs.c - the invariant observer of Relativistic Cache Coherence
 * (--check; see rcc.h).
 *
 * Spec 004a §8.1, checked where the L1s install and hand out data:
 *   R1 monotone clocks - an SM's clock never moves back (rollover included:
 *     it jumps forward to the next epoch's base);
 *   R2 lease bound - a copy an L1 installs or hits, valid until exp, has exp
 *     <= the exp of its L2 line (the line in V), or <= the bank's mnow (the
 *     line evicted, or being refetched);
 *   R4 one value per logical time - a hit at logical time now >= the L2
 *     line's ver returns the line's current value (the golden memory at the
 *     serialisation point): an older copy still readable there would give
 *     two values of the line at one logical time. A hit before ver reads an
 *     older version legitimately and is not compared.
 * The observer reads the banks' timestamps directly (an observer's global
 * view; it never changes behaviour), those of the machine's RCC context.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "base/log.h"
#include "coh/rcc/rcc.h"
#include "mem/observe.h"

void rcc_obs_now(const char *who, uint64_t was, uint64_t now)
{
    if (now < was)
        panic("invariant violated: %s's logical clock moved back from %llu to %llu (R1)", who,
              (unsigned long long)was, (unsigned long long)now);
}

void rcc_obs_l1(const void *ctx, struct observer *obs, const char *who, addr_t line, uint64_t exp,
                uint64_t now, uint32_t line_bytes, const uint8_t *data, const struct bytemask *mask)
{
    const struct ctrl_bank_set *o = rcc_banks(ctx);
    if (!o)
        return;
    struct comp *bank = ctrl_bank_set_home(o, line, line_bytes);
    if (!bank)
        return;
    uint64_t ver, l2exp;
    bool present = rcc_l2_stamps(bank, line, &ver, &l2exp);
    uint64_t bound = present ? l2exp : rcc_l2_mnow(bank);
    if (exp > bound)
        panic("invariant violated: %s holds line %#llx valid until %llu (its clock at %llu), "
              "beyond its L2 bank's %s %llu (R2, lease bound)",
              who, (unsigned long long)line, (unsigned long long)exp, (unsigned long long)now,
              present ? "exp" : "mnow", (unsigned long long)bound);
    if (data && present && now >= ver)
        obs_check(obs, who, line, data, mask);
}
