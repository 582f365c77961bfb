/*
 * nv_bytecode.h - NICVM's bytecode and a module as the NIC keeps it.
 *
 * An instruction is one 32-bit word: opcode in the low 8 bits, operand in
 * the high 24 (w % 256, w / 256).  The machine is a stack machine with
 * locals (zeroed at each activation), module state (kept between packets),
 * the current packet's header and payload words, and built-ins called by
 * number.  Jumps go forward only: the code is a DAG, so a module's worst
 * case is a longest path, computed by nv_verify (nv_verify.h) and enforced
 * by the VM (nv_vm.h).  docs/nicvm.md lists every opcode with an example.
 *
 * The ACSL below says what "verified" means; nv_verify proves it holds when
 * it accepts a module and nv_run assumes it.
 */
#ifndef NV_BYTECODE_H
#define NV_BYTECODE_H

#include <stdint.h>
#include "nv_config.h"
#include "nv_ops.h"
#include "nv_cost.h"

/* LDSX/STSX operand: a state array of n words at base. */
#define NV_SX_BASE(arg)  ((arg) % 4096u)
#define NV_SX_LEN(arg)   ((arg) / 4096u)

#define NV_VERIFIED   0x4E56564Bull /* "NVVK": nv_verify accepted the module */

/* The integer types of the arrays differ on purpose: WP's memory model
 * keeps one memory per integer type, so the verifier's writes of the costs
 * (uint16_t, int16_t, int32_t: one type each) and of the verdict
 * (uint64_t) visibly leave the code
 * and the depths (uint32_t, uint8_t) alone, and the VM's writes (uint32_t
 * values) leave the depths and costs alone. */
struct nv_prog {
    /* What the compiler (or a loader) fills in. */
    uint32_t len;                    /* instructions in code[]          */
    uint32_t nconst;                 /* entries of konst[]              */
    uint32_t nlocals;                /* locals the VM zeroes            */
    uint32_t nstate;                 /* persistent state words          */
    uint32_t code[NV_CODE_MAX];
    uint32_t konst[NV_CONST_MAX];
    /* What nv_verify computes (any input values are overwritten). */
    uint64_t verified;               /* NV_VERIFIED once accepted       */
    uint8_t depth[NV_CODE_MAX];      /* operand stack depth before pc   */
    uint16_t cost[NV_CODE_MAX];      /* worst VM instructions from pc to the end */
    int16_t scost[NV_CODE_MAX];      /* worst sends from pc to the end  */
    int32_t ccost[NV_CODE_MAX];      /* worst LANai cycles from pc to the end */
};

/*@
  logic integer nv_op(integer w)  = w % 256;
  logic integer nv_arg(integer w) = w / 256;

  // Stack effect of an instruction.
  logic integer nv_pops(integer op, integer arg) =
    op == NV_OP_RET ? 1 : op == NV_OP_JMP ? 0 : op == NV_OP_JZ ? 1 :
    op <= NV_OP_LDS ? 0 : op <= NV_OP_NEG ? 1 : op <= NV_OP_OR ? 2 :
    (arg == NV_BI_SEND ? 2 : 0);
  logic integer nv_pushes(integer op, integer arg) =
    op <= NV_OP_JZ ? 0 : op <= NV_OP_LDS ? 1 : op <= NV_OP_DROP ? 0 :
    op <= NV_OP_NEG ? 1 : op <= NV_OP_PKWSET ? 0 : op <= NV_OP_OR ? 1 :
    (arg == NV_BI_SEND ? 0 : 1);
  logic integer nv_sends(integer op, integer arg) =
    op == NV_OP_CALL && arg == NV_BI_SEND ? 1 : 0;

  // Does control fall through to pc + 1 / jump to arg?
  predicate nv_falls(integer op) = op != NV_OP_RET && op != NV_OP_JMP;
  predicate nv_jumps(integer op) = op == NV_OP_JMP || op == NV_OP_JZ;

  // The operand is one the VM can use without a check of its own.
  predicate nv_arg_ok(struct nv_prog *p, integer op, integer arg) =
    (op == NV_OP_CONST ==> arg < p->nconst) &&
    ((op == NV_OP_LDL || op == NV_OP_STL) ==> arg < p->nlocals) &&
    ((op == NV_OP_LDS || op == NV_OP_STS) ==> arg < p->nstate) &&
    ((op == NV_OP_LDSX || op == NV_OP_STSX) ==>
       1 <= arg / 4096 && arg % 4096 + arg / 4096 <= p->nstate) &&
    (op == NV_OP_CALL ==> arg < NV_BI_COUNT);
*/


/*@
  // Instruction pc is well formed, its stack effect fits, and its
  // successors are forward, inside the code, with the depth it leaves.
  predicate nv_shape_ok(struct nv_prog *p, integer pc) =
    \let w = p->code[pc]; \let op = nv_op(w); \let arg = nv_arg(w);
    \let d = p->depth[pc];
    op < NV_OP_COUNT && nv_arg_ok(p, op, arg) &&
    nv_pops(op, arg) <= d && d - nv_pops(op, arg) + nv_pushes(op, arg) <= NV_STACK_MAX &&
    (op == NV_OP_RET ==> d == 1) &&
    (nv_falls(op) ==> pc + 1 < p->len &&
       p->depth[pc + 1] == d - nv_pops(op, arg) + nv_pushes(op, arg)) &&
    (nv_jumps(op) ==> pc < arg < p->len &&
       p->depth[arg] == d - nv_pops(op, arg) + nv_pushes(op, arg));

  // The costs at pc cover the instruction and the worst successor: VM
  // instructions, LANai cycles, sends.  (pc < arg repeats nv_shape_ok's
  // fact, so that each predicate alone says which costs it reads.)
  predicate nv_icost_ok(struct nv_prog *p, integer pc) =
    \let op = nv_op(p->code[pc]); \let arg = nv_arg(p->code[pc]);
    p->cost[pc] >= 1 &&
    (nv_falls(op) ==> p->cost[pc] >= 1 + p->cost[pc + 1]) &&
    (nv_jumps(op) ==> pc < arg && p->cost[pc] >= 1 + p->cost[arg]);
  predicate nv_ccost_ok(struct nv_prog *p, integer pc) =
    \let op = nv_op(p->code[pc]); \let arg = nv_arg(p->code[pc]);
    p->ccost[pc] >= nv_cycles(op, arg) &&
    (nv_falls(op) ==> p->ccost[pc] >= nv_cycles(op, arg) + p->ccost[pc + 1]) &&
    (nv_jumps(op) ==> pc < arg && p->ccost[pc] >= nv_cycles(op, arg) + p->ccost[arg]);
  predicate nv_scost_ok(struct nv_prog *p, integer pc) =
    \let op = nv_op(p->code[pc]); \let arg = nv_arg(p->code[pc]);
    p->scost[pc] >= nv_sends(op, arg) &&
    (nv_falls(op) ==> p->scost[pc] >= nv_sends(op, arg) + p->scost[pc + 1]) &&
    (nv_jumps(op) ==> pc < arg && p->scost[pc] >= nv_sends(op, arg) + p->scost[arg]);
  predicate nv_cost_ok(struct nv_prog *p, integer pc) =
    nv_icost_ok(p, pc) && nv_ccost_ok(p, pc) && nv_scost_ok(p, pc);

  predicate nv_verified(struct nv_prog *p) =
    1 <= p->len <= NV_CODE_MAX && p->nconst <= NV_CONST_MAX &&
    p->nlocals <= NV_LOCALS_MAX && p->nstate <= NV_STATE_MAX &&
    p->depth[0] == 0 && p->verified == NV_VERIFIED &&
    \forall integer pc; 0 <= pc < p->len ==> nv_shape_ok(p, pc) && nv_cost_ok(p, pc);
*/

#endif
