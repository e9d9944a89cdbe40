/*
 * inject.h - the directed protocol test driver.
 *
 * Injects memory operations (SM, warp, time, op, address, data, semantics,
 * scope) straight into the L1s of a real machine, as if the SMs' LSUs had
 * sent them, and records each response: its value, its completion time. Tests
 * then check values, line states (through the protocol's peek observer) and
 * message counts (through the machine's statistics). Every protocol's
 * directed transition tests are written with it.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef CHECK_INJECT_H
#define CHECK_INJECT_H

#include "system/machine.h"

struct inject;

/* A machine for `cfg` whose SMs are replaced by the driver, with the
 * invariant observers on (directed tests). */
struct inject *inject_new(const struct config *cfg);
/* The same with the observers on or off (off: the memory system alone, as
 * bench-memsys measures it). */
struct inject *inject_new_checked(const struct config *cfg, bool check);
void inject_free(struct inject *r);
struct machine *inject_machine(struct inject *r);

/* Schedule operations `at` core cycles from the start of the next
 * inject_run (0 = at once). Each returns an id for the queries below.
 * Sizes are 1, 2, 4 or 8 bytes; addresses must not straddle a line. `sm`
 * names an SM, or gpu.sms + i for CPU core i's L1 (cpu.cores). */
unsigned inject_load(struct inject *r, unsigned sm, unsigned warp, addr_t a, unsigned size,
                     enum mem_sem sem, enum mem_scope scope, uint64_t at);
/* A prefetch as the SM sends one (order.prefetch): a weak one-byte load marked
 * req.prefetch, whose line the L1's prefetch statistics follow. */
unsigned inject_prefetch(struct inject *r, unsigned sm, unsigned warp, addr_t a, uint64_t at);
unsigned inject_store(struct inject *r, unsigned sm, unsigned warp, addr_t a, unsigned size,
                      uint64_t value, enum mem_sem sem, enum mem_scope scope, uint64_t at);
unsigned inject_atomic(struct inject *r, unsigned sm, unsigned warp, addr_t a, enum atom_kind kind,
                       enum atom_type type, uint64_t op_a, uint64_t op_b, enum mem_sem sem,
                       enum mem_scope scope, uint64_t at);
/* A fence (op MEM_FENCE) or kernel boundary (MEM_KERNEL_BEGIN/END). */
unsigned inject_order(struct inject *r, unsigned sm, unsigned warp, enum mem_op op,
                      enum mem_sem sem, enum mem_scope scope, uint64_t at);

/* Run until every scheduled operation has completed. */
void inject_run(struct inject *r);
/* Run until operation `id` has completed and stop at once: what else is
 * scheduled or in flight (messages, other operations) goes on at the next
 * run, as a core would see it had it acted on that answer right away. */
void inject_run_until(struct inject *r, unsigned id);

bool inject_done(const struct inject *r, unsigned id);
/* Loaded value, or an atomic's old value. */
uint64_t inject_value(const struct inject *r, unsigned id);
/* Core cycles from entering the L1 to the response reaching the SM side. */
uint64_t inject_latency(const struct inject *r, unsigned id);

/* Name of the state of `line` in SM `sm`'s L1 (sm = gpu.sms + i: CPU core
 * i's) / in its home L2 bank. */
const char *inject_l1_state(struct inject *r, unsigned sm, addr_t line);
const char *inject_l2_state(struct inject *r, addr_t line);
/* One statistic by its full name (e.g. "gpu.noc.up.msgs.REQ"); panics if unknown. */
uint64_t inject_stat(struct inject *r, const char *name);
/* Times table cell (state, event) of controller table `table` fired. */
uint64_t inject_coverage(struct inject *r, const char *table, const char *state, const char *event);

#endif
