/*
 * ir.h - the decoded form of a PTX module, private to src/ptx/.
 *
 * parse.c turns PTX text into this once; exec.c runs it. Everything the
 * interpreter needs per instruction is resolved here: register names become
 * row indices of a warp's register file (one 32-lane row of uint64_t per
 * register, struct-of-arrays), predicates become indices of 32-bit lane masks,
 * labels become instruction indices, immediates become read-only 32-lane rows
 * shared by every warp (so a source operand is always "a row"), types become
 * enums, and every branch carries its reconvergence point (immediate
 * post-dominator, computed per function by cfg.c).
 *
 * Memory layout decisions:
 *   shared: module-level and device-function .shared variables are laid out
 *     from offset 0; each kernel's own variables follow them (kernels never
 *     call each other, so their own variables may overlap). Dynamic (extern)
 *     shared memory starts after the kernel's static bytes, 16-aligned.
 *   local: each thread has one local memory holding a stack of call frames.
 *     A function's frame holds its .local variables, its own .param
 *     parameters and return value, and the call-site .param buffers it
 *     declares. Local addresses are offsets into the thread's local memory.
 * INVARIANT: an instruction index (pc) is global to the module.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef PTX_IR_H
#define PTX_IR_H

#include "ptx/ptx.h"

/* Scalar types of PTX. */
enum px_type {
    PT_NONE,
    PT_PRED,
    PT_B8,
    PT_B16,
    PT_B32,
    PT_B64,
    PT_U8,
    PT_U16,
    PT_U32,
    PT_U64,
    PT_S8,
    PT_S16,
    PT_S32,
    PT_S64,
    PT_F16,
    PT_F16X2,
    PT_BF16,
    PT_BF16X2,
    PT_F32,
    PT_F64,
    PT_N
};

/* Decoded operations. Comments name the PTX instructions mapped on them. */
enum px_op {
    PX_NOP,
    /* integer and float arithmetic (type in ins->type) */
    PX_ADD,
    PX_SUB,
    PX_MUL_LO,
    PX_MUL_HI,
    PX_MUL_WIDE,
    PX_MAD_LO,
    PX_MAD_HI,
    PX_MAD_WIDE,
    PX_MUL,
    PX_FMA,
    PX_DIV,
    PX_REM,
    PX_MIN,
    PX_MAX,
    PX_ABS,
    PX_NEG,
    PX_AND,
    PX_OR,
    PX_XOR,
    PX_NOT,
    PX_CNOT,
    PX_SHL,
    PX_SHR,
    PX_POPC,
    PX_CLZ,
    PX_BREV,
    PX_BFE,
    PX_BFI,
    PX_PRMT,
    PX_SHF_L,
    PX_SHF_R,
    PX_SAD,
    PX_COPYSIGN,
    PX_TESTP,
    /* predicate logic: and/or/xor/not on .pred */
    PX_PAND,
    PX_POR,
    PX_PXOR,
    PX_PNOT,
    PX_PMOV,
    /* math */
    PX_SQRT,
    PX_RCP,
    PX_RSQRT,
    PX_EX2,
    PX_LG2,
    PX_SIN,
    PX_COS,
    PX_TANH,
    /* compare and select (set: every type; setp on half types is PX_HSETP) */
    PX_SETP,
    PX_SELP,
    PX_SLCT,
    PX_SET,
    /* half precision on .f16 .f16x2 .bf16 .bf16x2 (type in ins->type; half.c) */
    PX_HADD,
    PX_HSUB,
    PX_HMUL,
    PX_HFMA,
    PX_HMIN,
    PX_HMAX,
    PX_HNEG,
    PX_HABS,
    PX_HEX2,
    PX_HTANH,
    PX_HSETP,
    PX_CVT_PACK, /* cvt.frnd.{f16x2,bf16x2}.f32 d, a, b: a to the high half, b to the low */
    /* moves and conversions */
    PX_MOV,
    PX_MOV_PACK,
    PX_MOV_UNPACK,
    PX_MOV_SREG,
    PX_MOV_FRAME,
    PX_MOV_DYNSHM,
    PX_MOV_PRED_FROM,
    PX_CVT,
    PX_CVTA_TO,
    PX_CVTA_FROM,
    /* memory */
    PX_LD,
    PX_ST,
    PX_ATOM,
    PX_RED,
    PX_FENCE,
    PX_PREFETCH,
    /* control */
    PX_BRA,
    PX_CALL,
    PX_RET,
    PX_EXIT,
    PX_BAR,
    PX_TRAP,
    /* transactions: calls of gpucoh_tx_begin() / gpucoh_tx_commit() (docs/transactions.md) */
    PX_TXBEGIN,
    PX_TXCOMMIT,
    /* device printf: a call of vprintf(fmt, args) (printf.c; call: the call site) */
    PX_PRINTF,
    /* warp-level */
    PX_SHFL,
    PX_VOTE,
    PX_ACTIVEMASK,
    PX_MATCH,
    PX_REDUX,
    PX_BAR_WARP,
    PX_NOPS
};

enum px_space { SP_NONE, SP_GENERIC, SP_GLOBAL, SP_SHARED, SP_LOCAL, SP_PARAM, SP_CONST };

/* Where a memory address is relative to (resolved at decode). */
enum px_addr_rel {
    AR_ABS,    /* base register (+off), or the constant off alone */
    AR_FRAME,  /* the thread's current call frame in local memory */
    AR_KPARAM, /* the kernel parameter buffer */
    AR_DYNSHM, /* the CTA's dynamic shared memory */
};

enum px_cmp {
    CMP_EQ,
    CMP_NE,
    CMP_LT,
    CMP_LE,
    CMP_GT,
    CMP_GE,
    CMP_LO,
    CMP_LS,
    CMP_HI,
    CMP_HS,
    CMP_EQU,
    CMP_NEU,
    CMP_LTU,
    CMP_LEU,
    CMP_GTU,
    CMP_GEU,
    CMP_NUM,
    CMP_NAN
};

enum px_boolop { BOP_NONE, BOP_AND, BOP_OR, BOP_XOR };

enum px_round { RND_NONE, RND_RN, RND_RZ, RND_RM, RND_RP, RND_RNA };

/* ins->flags */
#define PF_FTZ         0x01
#define PF_SAT         0x02
#define PF_APPROX      0x04
#define PF_INTRND      0x08 /* cvt .rni/.rzi/.rmi/.rpi: round float to integral value */
#define PF_UNI         0x10 /* bra.uni / call.uni */
#define PF_GNEG        0x20 /* guard predicate negated (@!p) */
#define PF_CC          0x40 /* carry in/out forms (not supported; rejected at decode) */
#define PF_SHIFT_CLAMP 0x80

/* ins->bop of half-precision arithmetic and of cvt into a half type */
#define PH_RELU    0x01 /* .relu: negative results become +0 */
#define PH_NAN     0x02 /* min/max .NaN: a NaN operand gives the canonical NaN */
#define PH_XORSIGN 0x04 /* min/max .xorsign.abs: compare magnitudes, sign = sign(a) ^ sign(b) */
#define PH_SATFIN  0x08 /* cvt .satfinite: infinities become the largest finite value */

/* cvt forms with a specialised loop (ins->bop of a cvt); CV_GENERIC: cvt_one() */
enum px_cvt_fast {
    CV_GENERIC,
    CV_F32_S32,
    CV_F32_U32,
    CV_S32_F32_RZ,
    CV_S32_F32_RN,
    CV_ZEXT32,
    CV_SEXT32,
    CV_TRUNC32,
    CV_F64_F32,
    CV_F32_F64_RN,
    CV_F64_S32,
    CV_F64_U32
};

/* special registers */
enum px_sreg {
    SR_TID_X,
    SR_TID_Y,
    SR_TID_Z,
    SR_NTID_X,
    SR_NTID_Y,
    SR_NTID_Z,
    SR_CTAID_X,
    SR_CTAID_Y,
    SR_CTAID_Z,
    SR_NCTAID_X,
    SR_NCTAID_Y,
    SR_NCTAID_Z,
    SR_LANEID,
    SR_WARPID,
    SR_NWARPID,
    SR_SMID,
    SR_NSMID,
    SR_CLOCK,
    SR_CLOCK_HI,
    SR_CLOCK64,
    SR_GLOBALTIMER,
    SR_GLOBALTIMER_LO,
    SR_GLOBALTIMER_HI,
    SR_LANEMASK_EQ,
    SR_LANEMASK_LT,
    SR_LANEMASK_LE,
    SR_LANEMASK_GT,
    SR_LANEMASK_GE,
    SR_DYN_SMEM,
    SR_TOTAL_SMEM,
    SR_GRIDID,
    SR_N
};

/* An operand: kind + index. A value operand is a row of 32 lanes. */
enum px_okind { OK_NONE, OK_REG, OK_IMM, OK_PRED };

struct px_opnd {
    uint8_t kind; /* enum px_okind */
    uint8_t neg;  /* !%p for predicate sources */
    uint32_t idx; /* register row, immediate row or predicate index */
};

#define PX_MAX_SB 12 /* registers an instruction reads or writes, for the scoreboard */

struct px_inst {
    uint16_t op;        /* enum px_op */
    uint8_t type;       /* enum px_type: the operation type (cvt: destination) */
    uint8_t type2;      /* cvt: source type; setp/set: compare type (set: dest in type) */
    uint8_t mod;        /* op modifier: px_cmp, px_round, shfl/vote/redux/atom kind, sreg */
    uint8_t bop;        /* setp/set combining op (px_boolop) */
    uint8_t flags;      /* PF_* */
    uint8_t space;      /* enum px_space (memory ops, cvta) */
    uint8_t sem, scope; /* enum mem_sem / mem_scope */
    uint8_t vec;        /* number of elements: 1, 2 or 4 */
    uint8_t lat;        /* enum ptx_lat_class */
    uint8_t op_lat;     /* enum ptx_oplat: its latency slot by opcode (sm.alu_latency) */
    uint8_t addr_rel;   /* enum px_addr_rel */
    uint8_t addr32;     /* the address register is 32-bit: register + offset wraps at 2^32 */
    uint8_t n_dst, n_src;
    uint8_t n_sb;           /* entries used in sb[] */
    int32_t guard;          /* predicate index, -1 = unguarded */
    struct px_opnd d[4];    /* destinations (vector loads: elements; setp: p, q) */
    struct px_opnd s[5];    /* sources (vector stores: elements; atom: a, b) */
    struct px_opnd addr;    /* memory: base register, or OK_NONE */
    int64_t off;            /* memory: byte offset (incl. symbol offset) */
    uint32_t target;        /* bra: target pc; call: callee function index; mov, ld, st,
                               atom, red naming a variable: 1 for kernel-own shared (rebased
                               when the module is complete), PX_GLOBAL_VAR for a .global one
                               (rebased when the host places the module's globals) */
    uint32_t rpc;           /* bra: reconvergence pc (PX_RPC_EXIT = function exit) */
    uint32_t call;          /* call: index into module call-site table */
    uint32_t line;          /* source line */
    uint32_t sb[PX_MAX_SB]; /* scoreboard slots: register rows, then preds at n_regs+i */
};

#define PX_RPC_EXIT 0xffffffffu

/* A call site: where the caller's argument and return .param buffers are in
 * its frame, and where the callee expects them in its own frame. */
struct px_call {
    uint32_t n_args, n_rets;
    uint32_t arg_off[16], arg_size[16]; /* in the caller's frame */
    uint32_t ret_off[4], ret_size[4];
};

struct px_param {
    char *name;
    uint32_t size, align;
    uint32_t off; /* kernel: in the param buffer; func: in its frame */
};

struct px_func {
    char *name;
    bool is_entry;
    bool defined;        /* has a body (not only a prototype) */
    uint32_t first, end; /* instruction range [first, end) */
    unsigned n_params, n_rets;
    struct px_param *params, *rets;
    uint32_t frame_bytes;     /* its frame in local memory */
    uint32_t own_shmem_end;   /* kernels: end of their own static shared bytes */
    uint32_t max_stack;       /* frame bytes of this function and its deepest callee chain */
    bool uses_dynshm;         /* it or a callee uses extern .shared */
    uint32_t n_rows, n_preds; /* its own registers and predicates */
    uint32_t n_rows_chain, n_preds_chain; /* incl. the deepest callee chain */
    uint32_t dynshm_base;                 /* kernels: offset of dynamic shared memory */
    struct ptx_kernel_info info;          /* kernels only */
    char *unsupported;                    /* why it cannot run ("file:line: ..."), NULL if it can */
    uint32_t *const_reads; /* the module .const variables (indices into consts) it names, and
                              once the module is complete those its callees name */
    unsigned n_const_reads;
    uint32_t *param_offset_arr, *param_size_arr;
};

#define PX_GLOBAL_VAR 2u

/* The most bytes a module's .global variables take in all: the parser holds
 * their initial contents, and the host copies them to device memory. */
#define PX_GLOBALS_MAX_BYTES (64u << 20)

/* The most bytes one variable or parameter of any state space may take, and
 * the most a kernel's shared, local or parameter space or a module's constant
 * bank may take in all: sizes are 32-bit offsets past parsing, and a
 * declaration's dimensions must not overflow them. */
#define PX_SPACE_MAX_BYTES (64u << 20)

/* A label: the instruction it stands before (pc == n_ins of its function's
 * end when none follows). */
struct px_label {
    char *name;
    uint32_t pc;
};

struct ptx_kernel {
    struct ptx_module *m;
    struct px_func *f;
};

/* Where a .loc line puts an instruction in the CUDA source. */
struct px_loc {
    uint32_t file, line;
};

struct ptx_module {
    char *filename;
    char *text;          /* the PTX parsed, whole (traces quote its lines) */
    struct px_inst *ins; /* all instructions of all functions */
    uint32_t n_ins;
    struct px_func *funcs;
    unsigned n_funcs;
    struct ptx_kernel *kernels;
    unsigned n_kernels;
    const char **kernel_names; /* NULL-terminated */
    uint64_t *imm;             /* immediate rows, 32 lanes each */
    uint32_t n_imm;
    uint32_t n_regs, n_preds; /* register rows and predicates (module-wide numbering) */
    bool has_tx;              /* some function begins a transaction */
    uint8_t *cbank;           /* .const space */
    uint32_t cbank_bytes;
    struct ptx_var *consts; /* the .const variables in it, in file order */
    unsigned n_consts;
    uint8_t *gblock; /* initial contents of the .global variables' block */
    uint32_t gblock_bytes;
    struct ptx_var *globals; /* the .global variables in it, in file order */
    unsigned n_globals;
    addr_t gblock_base; /* where the host placed the block; 0: not yet */
    struct px_call *calls;
    uint32_t n_calls;
    uint32_t shared_common;  /* bytes of module-level and device-function shared variables */
    struct px_label *labels; /* every label, in file order (request-type tables name them) */
    uint32_t n_labels;
    /* -lineinfo: each instruction's .loc (file 0: none), NULL if the PTX has
     * no .loc; the .file table by number (NULL entries: not declared) */
    struct px_loc *locs;
    char **src_files;
    uint32_t n_src_files;
};

static inline unsigned px_type_bytes(unsigned t)
{
    switch (t) {
    case PT_B8:
    case PT_U8:
    case PT_S8:
        return 1;
    case PT_B16:
    case PT_U16:
    case PT_S16:
    case PT_F16:
    case PT_BF16:
        return 2;
    case PT_B32:
    case PT_U32:
    case PT_S32:
    case PT_F32:
    case PT_F16X2:
    case PT_BF16X2:
        return 4;
    case PT_B64:
    case PT_U64:
    case PT_S64:
    case PT_F64:
        return 8;
    default:
        return 0;
    }
}

/* The atomic unit's type (enum atom_type) for a PTX atom/red type, -1 if it
 * has none. */
static inline int px_atom_type(unsigned t)
{
    switch (t) {
    case PT_U32:
        return ATYPE_U32;
    case PT_S32:
        return ATYPE_S32;
    case PT_U64:
        return ATYPE_U64;
    case PT_S64:
        return ATYPE_S64;
    case PT_F32:
        return ATYPE_F32;
    case PT_F64:
        return ATYPE_F64;
    case PT_B32:
        return ATYPE_B32;
    case PT_B64:
        return ATYPE_B64;
    case PT_B16:
        return ATYPE_B16;
    case PT_F16:
        return ATYPE_F16;
    case PT_BF16:
        return ATYPE_BF16;
    case PT_F16X2:
        return ATYPE_F16X2;
    case PT_BF16X2:
        return ATYPE_BF16X2;
    default:
        return -1;
    }
}

static inline bool px_type_signed(unsigned t)
{
    return t == PT_S8 || t == PT_S16 || t == PT_S32 || t == PT_S64;
}

static inline bool px_type_float(unsigned t)
{
    return t == PT_F16 || t == PT_F16X2 || t == PT_BF16 || t == PT_BF16X2 || t == PT_F32 ||
           t == PT_F64;
}

/* cfg.c: fill ins->rpc of every branch of f with its immediate post-dominator.
 * Returns 0, or -1 with a message. */
int px_cfg_reconvergence(struct ptx_module *m, struct px_func *f, char *err, size_t errlen);

#endif
