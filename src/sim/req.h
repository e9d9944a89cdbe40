/*
 * req.h - the memory-request seam between an SM's LSU and its L1 controller.
 *
 * The LSU coalesces a warp's memory instruction into one request per unique
 * line and hands each to the protocol's L1 controller with its semantics and
 * scope (PTX memory model: weak/relaxed/acquire/release/acq_rel/sc and
 * .cta/.gpu/.sys). Ordering operations that touch no line (fences, the
 * implicit acquire at kernel start and release at kernel end) travel the same
 * way, with op MEM_FENCE/MEM_KERNEL_*, so that each protocol decides what they
 * cost. The response returns the line bytes for loads and one old value per
 * lane for atomics.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef SIM_REQ_H
#define SIM_REQ_H

#include "base/bits.h"
#include "base/types.h"

#define MEM_OPS(X)                                                                                 \
    X(LOAD, "load")                                                                                \
    X(STORE, "store")                                                                              \
    X(ATOMIC, "atomic read-modify-write (result returned)")                                        \
    X(FENCE, "memory fence (sem says acq_rel or sc)")                                              \
    X(KERNEL_BEGIN, "implicit acquire at kernel launch")                                           \
    X(KERNEL_END, "implicit release at kernel end")

#define X(n, d) MEM_##n,
enum mem_op { MEM_OPS(X) MEM_NOPS };
#undef X

enum mem_sem {
    SEM_WEAK,     /* plain ld/st (PTX .weak, the default) */
    SEM_VOLATILE, /* ld.volatile / st.volatile: relaxed.sys per the PTX ISA */
    SEM_RELAXED,
    SEM_ACQUIRE,
    SEM_RELEASE,
    SEM_ACQ_REL,
    SEM_SC,
    SEM_N
};

enum mem_scope { SCOPE_CTA, SCOPE_GPU, SCOPE_SYS, SCOPE_N };

/* Atomic operations, PTX atom/red kinds. */
#define ATOM_OPS(X) X(ADD) X(SUB) X(MIN) X(MAX) X(INC) X(DEC) X(AND) X(OR) X(XOR) X(EXCH) X(CAS)

#define X(n) ATOM_##n,
enum atom_kind { ATOM_OPS(X) ATOM_NKINDS };
#undef X

enum atom_type {
    ATYPE_U32,
    ATYPE_S32,
    ATYPE_U64,
    ATYPE_S64,
    ATYPE_F32,
    ATYPE_F64,
    ATYPE_B32,
    ATYPE_B64,
    ATYPE_B16,
    ATYPE_F16,
    ATYPE_BF16,
    ATYPE_F16X2,
    ATYPE_BF16X2
};

/* One lane's share of a warp atomic on one line. Lanes that hit the same word
 * are performed one after another in lane order, each seeing the previous. */
struct atom_lane {
    uint8_t lane;    /* 0..31 */
    uint8_t off;     /* byte offset of the word in the line */
    uint64_t a, b;   /* operands (b: CAS new value) */
    uint64_t result; /* old value, filled where the atomic is performed */
};

struct atom_ops {
    uint8_t kind; /* enum atom_kind */
    uint8_t type; /* enum atom_type: width and arithmetic */
    uint8_t n;    /* lanes */
    bool is_red;  /* red.*: no result wanted */
    struct atom_lane lane[32];
};

static inline unsigned atom_type_bytes(enum atom_type t)
{
    if (t == ATYPE_B16 || t == ATYPE_F16 || t == ATYPE_BF16)
        return 2;
    return (t == ATYPE_U64 || t == ATYPE_S64 || t == ATYPE_F64 || t == ATYPE_B64) ? 8 : 4;
}

/* Bytes of operands an atomic request carries (and of results it returns):
 * one word per lane, two for CAS. 0 without ops. */
static inline unsigned atom_operand_bytes(const struct atom_ops *a)
{
    return a ? a->n * atom_type_bytes((enum atom_type)a->type) * (a->kind == ATOM_CAS ? 2u : 1u)
             : 0;
}

/* Perform every lane of `ops` on `line` (the line's bytes), filling results. */
void atom_apply(struct atom_ops *ops, uint8_t *line);

/* A request's part in a hardware transaction (GETM, WarpTM; docs/transactions.md).
 * Only a transactional protocol (proto_desc.transactional) sees anything but
 * MEM_TX_NONE. The L1 forwards these to the home bank as its plain ops: an
 * access as a load performed at the L2 (transactional loads bypass the L1,
 * spec 004a §9 item 20), a commit or cleanup as a write-through. */
enum mem_tx {
    MEM_TX_NONE,
    MEM_TX_LOAD,     /* validate a transactional load, then read the line */
    MEM_TX_STORE,    /* validate a transactional store (reserve the granules; no data) */
    MEM_TX_COMMIT,   /* the committed writes to the line, then release its reservations */
    MEM_TX_CLEANUP,  /* release the line's reservations of an aborted attempt (no data) */
    MEM_TX_LOAD_OK,  /* at the bank: a load whose validation is done (read the line) */
    MEM_TX_STORE_OK, /* at the bank: a store whose validation is done (answer it) */
    MEM_TX_VALIDATE, /* WarpTM: the values read from the line, to compare and hold (the L1
                        forwards it as a write-through of those bytes) */
};

/* What a request is, beyond its line address, mask and data (which travel in
 * the message that carries it). */
struct mem_req {
    uint8_t op;            /* enum mem_op */
    uint8_t sem;           /* enum mem_sem */
    uint8_t scope;         /* enum mem_scope */
    uint8_t gpu;           /* which GPU issued it */
    uint16_t sm;           /* which SM */
    uint16_t warp;         /* warp slot in the SM */
    uint8_t tx;            /* enum mem_tx */
    uint8_t req_type;      /* Spandex FCS: the instruction's request type (enum spx_req_kind,
                              src/coh/spandex/fcs.h); 0: the L1's own choice */
    uint8_t l1_hit;        /* in a response: a load the L1 answered from its cache (what its
                              load_hits counts), for per-instruction statistics */
    uint8_t prefetch;      /* a prefetch of a line for an access held for ordering
                              (order.prefetch): a load whose data the SM drops */
    uint32_t id;           /* the LSU's id for matching the response */
    struct atom_ops *atom; /* MEM_ATOMIC only; owned by the LSU */
};

/* Strong at gpu scope or wider (PTX: not weak, .gpu or .sys): an access
 * every SM must see coherently, such as a spin loop's flag load. */
static inline bool mem_req_strong_gpu(const struct mem_req *r)
{
    return r->scope >= SCOPE_GPU && r->sem != SEM_WEAK;
}

extern const char *const mem_op_names[MEM_NOPS];
extern const char *const mem_sem_names[SEM_N];
extern const char *const mem_scope_names[SCOPE_N];
extern const char *const atom_kind_names[ATOM_NKINDS];

#endif
