/*
 * coh.h - the protocol-table engine: controllers as data.
 *
 * Every cache or directory controller of a protocol is a transition table
 * (state, event) -> (actions, next state), in the style of gem5's SLICC but
 * in plain C (designated initializers, one cell per line). The controller's
 * classifier - the only place with protocol `if`s - maps an incoming message
 * plus the line and TBE lookup to an event; coh_step() then looks the cell
 * up and:
 *   COH_UNDEF  a protocol hole: panic with the controller, time, address,
 *              state, event, message, line and TBE (exit 3);
 *   COH_STALL  the request cannot be taken in this state: counted, and the
 *              caller parks it until the line's state changes;
 *   COH_DO     runs the actions in order, then sets the next state (actions
 *              never change the state; only the table does), counts the hit.
 * Coverage counters live per machine (struct coh_cov) so that independent
 * runs in one process do not mix.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef COH_COH_H
#define COH_COH_H

#include <stdio.h>

#include "mem/cache.h"
#include "mem/tbe.h"
#include "sim/eng.h"
#include "sim/msg.h"

enum coh_kind { COH_UNDEF = 0, COH_DO, COH_STALL };

/* What a transition uses, for bank-conflict and energy accounting. */
enum { TAG_RD = 1, TAG_WR = 2, DATA_RD = 4, DATA_WR = 8 };

struct coh_ctx;
typedef void coh_act(struct coh_ctx *x);

struct coh_trans {
    uint8_t kind;         /* enum coh_kind */
    uint8_t next;         /* next state (COH_DO) */
    uint8_t uses;         /* TAG_RD | TAG_WR | DATA_RD | DATA_WR */
    coh_act *const *acts; /* NULL-terminated, in order */
};

#define DO(next_, uses_, ...)                                                                      \
    {                                                                                              \
        .kind = COH_DO, .next = (next_), .uses = (uses_), .acts = (coh_act *const[])               \
        {                                                                                          \
            __VA_ARGS__, NULL                                                                      \
        }                                                                                          \
    }
#define STALL                                                                                      \
    {                                                                                              \
        .kind = COH_STALL                                                                          \
    }

/* The name and description arrays of a controller's states and events,
 * declared once as X-macros of X(Name, "description") rows: defines the
 * file's state_names, state_descs, event_names and event_descs, which
 * COH_TABLE uses. */
#define COH_X_NAME_(n, d)         #n,
#define COH_X_DESC_(n, d)         d,
#define COH_NAMES(STATES, EVENTS) COH_NAMES_OF(, STATES, EVENTS)

/* A controller's table over its cells array [states][events] (the first
 * states and events of the file's COH_NAMES may be all it uses) and its
 * `actions` list. */
#define COH_TABLE(proto_, ctrl_, cells_, set_state_, dump_)                                        \
    COH_TABLE_OF(, proto_, ctrl_, cells_, set_state_, dump_)

/* The same for a file's second table, whose arrays carry a prefix:
 * COH_NAMES_OF(ring_, ...) defines ring_state_names and the others, and
 * COH_TABLE_OF(ring_, ...) uses them and ring_actions. */
#define COH_NAMES_OF(prefix_, STATES, EVENTS)                                                      \
    static const char *const prefix_##state_names[] = {STATES(COH_X_NAME_)};                       \
    static const char *const prefix_##state_descs[] = {STATES(COH_X_DESC_)};                       \
    static const char *const prefix_##event_names[] = {EVENTS(COH_X_NAME_)};                       \
    static const char *const prefix_##event_descs[] = {EVENTS(COH_X_DESC_)}
#define COH_TABLE_OF(prefix_, proto_, ctrl_, cells_, set_state_, dump_)                            \
    {                                                                                              \
        .proto = proto_, .ctrl = ctrl_, .n_states = sizeof cells_ / sizeof cells_[0],              \
        .n_events = sizeof cells_[0] / sizeof cells_[0][0], .state_names = prefix_##state_names,   \
        .state_descs = prefix_##state_descs, .event_names = prefix_##event_names,                  \
        .event_descs = prefix_##event_descs, .cells = &cells_[0][0], .actions = prefix_##actions,  \
        .set_state = set_state_, .dump = dump_,                                                    \
    }

struct coh_action_name {
    coh_act *fn;
    const char *name;
    const char *desc;
};

/* The context an action sees. Controllers embed it or fill it per event. */
struct coh_ctx {
    void *ctrl;            /* the controller instance */
    const char *ctrl_name; /* "gpu.sm[3].l1" */
    struct eng *eng;
    addr_t addr;             /* line address */
    struct msg *msg;         /* triggering message; NULL for internal events */
    struct cache_line *line; /* the present line, or NULL */
    struct tbe *tbe;         /* the line's TBE, or NULL */
    unsigned state, event;
};

struct coh_table {
    const char *proto; /* "rc" */
    const char *ctrl;  /* "L1" */
    unsigned n_states, n_events;
    const char *const *state_names, *const *state_descs;
    const char *const *event_names, *const *event_descs;
    const struct coh_trans *cells;         /* [n_states][n_events], row-major */
    const struct coh_action_name *actions; /* every action, NULL-terminated, for printing */
    void (*set_state)(struct coh_ctx *x, unsigned next);
    void (*dump)(struct coh_ctx *x, FILE *out); /* the line and TBE, for panics */
};

/* A ring of the most recent transitions of a machine, for reports that show
 * what happened to one line (the stress tester's wrong-value report). */
struct coh_hist_entry {
    tick_t t;
    addr_t addr;
    const char *ctrl; /* controller instance name */
    const struct coh_table *table;
    uint8_t event, from, to;
};

struct coh_history {
    struct coh_hist_entry *e;
    uint32_t cap; /* power of two */
    uint64_t n;   /* recorded so far */
};

struct coh_cov {
    const struct coh_table *t;
    uint64_t *hits;           /* [n_states * n_events] transitions fired */
    uint64_t *stalls;         /* [n_states * n_events] protocol stalls */
    struct coh_history *hist; /* NULL: not recorded */
    FILE *trace; /* each fired transition printed (gem5 ProtocolTrace shape); NULL: off */
};

/* Print the recorded transitions of `line`, oldest first. */
void coh_history_print(const struct coh_history *h, addr_t line, FILE *out);

void coh_cov_init(struct coh_cov *c, const struct coh_table *t);
void coh_cov_destroy(struct coh_cov *c);

enum coh_result { COH_FIRED, COH_STALLED };

/* Fire (state, event) of table t for context x (x->state, x->event set). */
enum coh_result coh_step(const struct coh_table *t, struct coh_cov *cov, struct coh_ctx *x);

static inline const struct coh_trans *coh_cell(const struct coh_table *t, unsigned s, unsigned e)
{
    return &t->cells[s * t->n_events + e];
}

/* Print a table as Markdown or Graphviz dot. */
void coh_table_print_md(const struct coh_table *t, FILE *out);
void coh_table_print_dot(const struct coh_table *t, FILE *out);

/* Coverage lines "coverage.<proto>.<ctrl>.<State>.<Event> <count>", cells
 * never fired first (marked "<--"). Returns the number never fired. */
unsigned coh_cov_print(const struct coh_cov *c, FILE *out);

#endif
