/*
 * nv_compile.h - the NICVM module compiler: module source (the language of
 * docs/nicvm.md, after seed 004 Figure 4.3) to a struct nv_prog, and
 * nv_check: compile, then verify exactly as the NIC does.
 *
 * One pass, no recursion (the LANai's stack is small): statements nest on
 * an explicit block stack, expressions are parsed by operator precedence
 * on an explicit operator stack, and a counted loop is unrolled into its
 * trip count of guarded copies, so that the bytecode jumps forward only.
 * Every error carries the line and column it was found at; the compiler
 * goes on after a semantic error (an unknown name, a wrong number of
 * arguments) and stops at a syntax error.  It need not be correct to be
 * safe: nv_verify checks whatever it emits.  It must not misbehave on any
 * input, which the fuzzer (tests/fuzz/fuzz_nicvm.c) checks.
 */
#ifndef NV_COMPILE_H
#define NV_COMPILE_H

#include <stdint.h>
#include "nv_bytecode.h"
#include "nv_verify.h"

struct nv_error {
    uint32_t line, col;               /* 1-based                              */
    char msg[NV_MSG_MAX];             /* NUL-terminated, no position          */
};

struct nv_sym {
    char name[NV_IDENT_MAX + 1u];
    uint8_t kind;                     /* NV_SYM_* (nv_compile.c)             */
    uint8_t len;                      /* words of a state array              */
    uint16_t slot;                    /* local or state word                 */
};

struct nv_block {                     /* an open if or for                   */
    uint8_t kind, had_else;
    uint16_t jz;                      /* pending JZ to patch, or 0xFFFF      */
    uint16_t fix_base;                /* its jumps to the end in fix[]       */
    uint16_t ivar, lim, trips, t0;    /* for: loop variable, limit, copies, start */
    uint32_t line, col;
};

struct nv_opent {                     /* a pending operator of an expression */
    uint8_t kind, op, prec, bi;
    uint16_t argc, sym;
    uint32_t line, col;
};

struct nv_compiler {
    /* The result. */
    struct nv_prog prog;
    uint16_t line[NV_CODE_MAX], col[NV_CODE_MAX];   /* where each instruction comes from */
    uint32_t func_line, func_col;     /* the function's 'func' keyword        */
    uint32_t nerr;                    /* errors found (err[] keeps NV_ERR_MAX) */
    struct nv_error err[NV_ERR_MAX];
    /* Working state. */
    const char *src;
    uint32_t srclen, pos, cur_line, cur_col, fatal, last_ret, stmt_mode, stmt_void;
    uint32_t tok, tval, tline, tcol, tlen;
    char ttext[NV_IDENT_MAX + 1u];
    uint32_t nsym;
    struct nv_sym sym[NV_LOCALS_MAX + NV_STATE_MAX];
    uint32_t nblk;
    struct nv_block blk[NV_NEST_MAX];
    uint32_t nfix;
    uint16_t fix[NV_FIXUP_MAX];
    uint32_t nops;
    struct nv_opent ops[NV_OPSTACK_MAX];
};

/* Compile src[0 .. len-1] into c->prog (not yet verified).  Returns the
 * number of errors (0: compiled); they are in c->err[0 .. min(nerr,
 * NV_ERR_MAX) - 1] in the order found. */
uint32_t nv_compile(struct nv_compiler *c, const char *src, uint32_t len);

/* nv_compile, then nv_verify against the budget (VM instructions): what the
 * NIC does with a module.  A rejection becomes one more error, at the
 * source position of the instruction at fault ("rejected: ...").  Returns
 * the number of errors (0: accepted, c->prog verified); *r says why the
 * verifier rejected (reason NV_OK if it was not reached or accepted). */
uint32_t nv_check(struct nv_compiler *c, const char *src, uint32_t len, uint32_t budget,
                  struct nv_reject *r);

/* The opcode's name ("ADD"), or "?" (disassembly, tests). */
const char *nv_op_name(uint32_t op);

#endif
