/*
 * parse_int.h - what the files of the PTX parser share (parse.c,
 * parse_lex.c, parse_operand.c, parse_decl.c, parse_decode.c,
 * parse_decode_alu.c): the token, symbol table and parser state, the raw
 * operand and modifier forms an instruction is decoded from, and the
 * functions one file calls in another. Private to ptx/.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef PTX_PARSE_INT_H
#define PTX_PARSE_INT_H

#include "ptx/ir.h"

#include "base/bits.h"
#include "base/log.h"

#include <setjmp.h>
#include <stdarg.h>
#include <string.h>

/* ------------------------------------------------------------------ lexer */

enum tok_kind { TK_EOF, TK_WORD, TK_NUM, TK_STR, TK_PUNCT };

struct tok {
    enum tok_kind kind;
    const char *s; /* start in the text */
    unsigned len;
    unsigned line;
};

/* ------------------------------------------------------------------ symbols */

enum sym_kind { SY_REG, SY_PRED, SY_VAR, SY_FUNC };

struct sym {
    char *name;
    uint8_t kind;  /* enum sym_kind */
    uint8_t type;  /* registers: px_type; variables: element type */
    uint8_t space; /* variables: px_space */
    uint8_t rel;   /* variables: px_addr_rel */
    uint32_t idx;  /* register row / predicate / function index */
    uint64_t off;  /* variables: byte offset in their space */
    uint64_t size;
    int shadow; /* previous symbol of the same name, -1 none */
};

/* name -> newest symbol index; open addressing, keys never removed */
struct symtab {
    char **keys;
    int *val;
    size_t cap, n;
};

struct labfix {
    uint32_t pc; /* the branch */
    char *name;
    unsigned line;
};

struct parser {
    unsigned block_depth; /* nesting of { } blocks in the function being parsed */
    const char *text, *p, *file;
    unsigned line;
    struct tok look;
    bool has_look;
    char *err;
    size_t errlen;
    jmp_buf jb;
    struct ptx_module *m;
    size_t cap_ins, cap_funcs, cap_imm, cap_calls;
    struct sym *syms;
    size_t n_syms, cap_syms;
    struct symtab tab;
    /* the function being parsed */
    struct px_func *fn;
    uint32_t n_regs, n_preds;
    uint32_t frame_cur, frame_max;
    uint32_t shared_own;  /* kernel: own shared bytes so far */
    struct symtab labels; /* label -> pc */
    struct labfix *fix;
    size_t n_fix, cap_fix;
    uint8_t *reg_type; /* per register row of fn: px_type */
    size_t cap_reg_type;
    /* call graph, for frame and register-file sizes */
    uint32_t *edges;            /* triples (caller, callee, line of the call) */
    uint8_t *tmp_init;          /* initialiser being parsed (freed on error) */
    struct px_param *pend_p[2]; /* return and parameter lists being parsed */
    unsigned pend_n[2];
    size_t n_edges, cap_edges;
    struct px_loc loc; /* the last .loc: the source of the instructions below */
    size_t cap_locs;
};

#define GROW(P, arr, n, cap)                                                                       \
    do {                                                                                           \
        if ((n) >= (cap)) {                                                                        \
            (cap) = (cap) ? (cap)*2 : 16;                                                          \
            (arr) = pp_xrealloc((P), (arr), (cap) * sizeof(*(arr)));                               \
        }                                                                                          \
    } while (0)

/* A numeric token as integer or float. is_float: 1 = f32 bits, 2 = f64 bits. */
struct num {
    uint64_t bits;
    int is_float;
};

/* ------------------------------------------------------------------ operands */

enum rop_kind { RO_NAME, RO_NUM, RO_VEC, RO_ADDR, RO_LIST, RO_SINK };

struct rop {
    uint8_t kind;
    bool neg;       /* !name */
    bool minus;     /* -number */
    char name[128]; /* RO_NAME; RO_ADDR base (may be empty) */
    struct num num;
    int64_t off;    /* RO_ADDR */
    char pipe[128]; /* name after '|' (setp, shfl) */
    unsigned n;     /* RO_VEC / RO_LIST elements */
    char elem[16][128];
    unsigned line;
};

/* ------------------------------------------------------------------ modifiers */

#define MAX_MODS 12

struct mods {
    int types[3];
    int nt;
    int space; /* px_space, SP_NONE if absent */
    int sem;   /* -1 absent */
    int scope; /* -1 absent */
    int vec;
    int rnd;
    bool intrnd, ftz, sat, approx, full, uni, sync, aligned, nan;
    const char *extra[MAX_MODS]; /* op-specific words, consumed by decode */
    int n_extra;
};

/* ------------------------------------------------------------------ instruction decode */

struct ctx {
    struct parser *P;
    const char *opname; /* the full opcode text, for messages */
    unsigned line;
    struct rop *o;
    int n;            /* operands */
    const char *base; /* the opcode's base name ("ld" of "ld.global.u32") */
    struct mods *md;  /* its modifiers (decoders consume the op-specific ones) */
};

/* parse_lex.c */
void pp_set_err(struct parser *P, unsigned line, const char *fmt, va_list ap);
_Noreturn PRINTF_LIKE(3, 4) void pp_perr(struct parser *P, unsigned line, const char *fmt, ...);
_Noreturn PRINTF_LIKE(3, 4) void pp_punsup(struct parser *P, unsigned line, const char *fmt, ...);
void *pp_xrealloc(struct parser *P, void *p, size_t n);
PRINTF_LIKE(2, 3) char *pp_xprintf(struct parser *P, const char *fmt, ...);
char *pp_xstrndup(struct parser *P, const char *s, size_t n);
int *pp_symtab_slot(struct parser *P, struct symtab *t, const char *name, bool insert);
void pp_symtab_free(struct symtab *t);
struct sym *pp_sym_find(struct parser *P, const char *name);
struct sym *pp_sym_add(struct parser *P, const char *name, unsigned line);
void pp_sym_pop_to(struct parser *P, size_t mark);
struct tok pp_peek(struct parser *P);
struct tok pp_next(struct parser *P);
bool pp_accept(struct parser *P, const char *s);
const char *pp_tok_text(struct tok t, char *buf, size_t n);
void pp_expect(struct parser *P, const char *s);
char *pp_word(struct parser *P, struct tok *out, const char *what);
bool pp_parse_int_text(const char *s, unsigned len, uint64_t *v);
bool pp_parse_num_text(const char *s, unsigned len, struct num *n);
extern const char *const pp_type_names[PT_N];
int pp_type_of(const char *s);

/* parse_decl.c */
uint32_t pp_imm_row(struct parser *P, uint64_t v);
uint64_t pp_parse_dims(struct parser *P, unsigned line, const char *name, unsigned elem_bytes,
                       bool *unsized);
uint32_t pp_place(struct parser *P, unsigned line, const char *name, uint32_t *cursor,
                  uint32_t align, uint64_t size, const char *space);
void pp_parse_loc(struct parser *P, unsigned line);
void pp_parse_file(struct parser *P, unsigned line);
struct px_inst *pp_new_inst(struct parser *P, unsigned line);
void pp_parse_reg_decl(struct parser *P, unsigned line, const char *tw);
void pp_parse_var_decl(struct parser *P, int space, bool is_extern, unsigned line);
void pp_add_const_read(struct parser *P, struct px_func *fn, uint32_t k);
void pp_note_const_read(struct parser *P, const struct sym *s);

/* parse_operand.c */
void pp_parse_name_into(struct parser *P, char *dst, const char *what);
void pp_parse_operand(struct parser *P, struct rop *o);
int pp_tx_marker(const char *name);
struct sym *pp_need_sym(struct parser *P, const char *name, unsigned line);
struct px_opnd pp_reg_opnd(struct parser *P, const char *name, unsigned line);
struct px_opnd pp_pred_opnd(struct parser *P, const char *name, bool neg, unsigned line);
uint64_t pp_literal_bits(struct parser *P, const struct rop *o, int type);
struct px_opnd pp_vec_src(struct parser *P, const char *e, int type, unsigned line);
struct px_opnd pp_val_opnd(struct parser *P, const struct rop *o, int type);
const char *pp_take(struct mods *md, const char *w);
int pp_take_one(struct mods *md, const char *const *names);
void pp_no_extras(struct parser *P, struct mods *md, const char *opname, unsigned line);
void pp_split_mods(struct parser *P, char *parts[], int n, struct mods *md, const char *opname,
                   unsigned line);

/* parse_decode.c */
_Noreturn PRINTF_LIKE(2, 3) void pp_ierr(struct ctx *c, const char *fmt, ...);
_Noreturn PRINTF_LIKE(2, 3) void pp_iunsup(struct ctx *c, const char *fmt, ...);
void pp_inst_no_extras(struct ctx *c);
void pp_nops(struct ctx *c, int want);
int pp_one_type(struct ctx *c, struct mods *md);
void pp_set_dst(struct ctx *c, struct px_inst *i, int k, const struct rop *o, int type);
void pp_set_src(struct ctx *c, struct px_inst *i, int k, const struct rop *o, int type);
extern const char *const pp_cmp_names[];
int pp_sreg_of(const char *name);
void pp_decode_half(struct ctx *c, struct px_inst *i, int op, int nsrc, struct mods *md, int t);
void pp_decode_inst(struct parser *P, struct px_inst *i, char *base, char *parts[], int np,
                    struct rop *o, int n, const char *opname, unsigned line);
void pp_fill_sb(struct parser *P, struct px_inst *i);
uint8_t pp_oplat_slot(const struct px_inst *i);

/* parse_decode_alu.c */
void pp_decode_mul_mad(struct ctx *c, struct px_inst *i);
void pp_decode_shift(struct ctx *c, struct px_inst *i);
void pp_decode_shf(struct ctx *c, struct px_inst *i);
void pp_decode_prmt(struct ctx *c, struct px_inst *i);
void pp_decode_setp(struct ctx *c, struct px_inst *i);
void pp_decode_set(struct ctx *c, struct px_inst *i);
void pp_decode_selp(struct ctx *c, struct px_inst *i);
void pp_decode_slct(struct ctx *c, struct px_inst *i);
void pp_decode_mov(struct ctx *c, struct px_inst *i);
void pp_decode_cvt(struct ctx *c, struct px_inst *i);
void pp_decode_cvta(struct ctx *c, struct px_inst *i);

static inline bool tok_is(struct tok t, const char *s)
{
    return t.len == strlen(s) && !memcmp(t.s, s, t.len);
}

static inline uint32_t align_up32(uint32_t x, uint32_t a)
{
    return a ? (x + a - 1) / a * a : x;
}

static inline bool type_half(int t)
{
    return t == PT_F16 || t == PT_F16X2 || t == PT_BF16 || t == PT_BF16X2;
}

#endif /* PTX_PARSE_INT_H */
