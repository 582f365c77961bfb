/* nv_verify.c - see nv_verify.h for the contract. */
#include "nv_verify.h"

#define NV_UNSET 0xFFu     /* depth[] of an instruction no path has reached yet */

/*@ assigns \nothing;
    ensures \result == nv_pops(op, arg); */
static uint32_t pops(uint32_t op, uint32_t arg)
{
    if (op == NV_OP_RET) return 1u;
    if (op == NV_OP_JMP) return 0u;
    if (op == NV_OP_JZ) return 1u;
    if (op <= NV_OP_LDS) return 0u;
    if (op <= NV_OP_NEG) return 1u;
    if (op <= NV_OP_OR) return 2u;
    return arg == NV_BI_SEND ? 2u : 0u;
}

/*@ assigns \nothing;
    ensures \result == nv_pushes(op, arg); */
static uint32_t pushes(uint32_t op, uint32_t arg)
{
    if (op <= NV_OP_JZ) return 0u;
    if (op <= NV_OP_LDS) return 1u;
    if (op <= NV_OP_DROP) return 0u;
    if (op <= NV_OP_NEG) return 1u;
    if (op <= NV_OP_PKWSET) return 0u;
    if (op <= NV_OP_OR) return 1u;
    return arg == NV_BI_SEND ? 0u : 1u;
}

/* NV_OK if the operand is in range for its opcode; operands an opcode does
 * not use must be 0, so that every module has one encoding. */
/*@ requires \valid_read(p);
    assigns \nothing;
    ensures \result == NV_OK || \result == NV_E_OPCODE || \result == NV_E_OPERAND ||
            \result == NV_E_BUILTIN;
    ensures \result == NV_OK ==> op < NV_OP_COUNT && nv_arg_ok(p, op, arg);
*/
static uint32_t operand_check(const struct nv_prog *p, uint32_t op, uint32_t arg)
{
    uint32_t lim;

    if (op >= NV_OP_COUNT)
        return NV_E_OPCODE;
    if (op == NV_OP_JMP || op == NV_OP_JZ || op == NV_OP_LIT)
        return NV_OK;                       /* targets: checked by the caller */
    if (op == NV_OP_CALL) {
        if (arg < NV_BI_COUNT) return NV_OK;
        return NV_E_BUILTIN;
    }
    if (op == NV_OP_LDSX || op == NV_OP_STSX) {
        if (NV_SX_LEN(arg) >= 1u && NV_SX_BASE(arg) + NV_SX_LEN(arg) <= p->nstate) return NV_OK;
        return NV_E_OPERAND;
    }
    if (op == NV_OP_CONST) lim = p->nconst;
    else if (op == NV_OP_LDL || op == NV_OP_STL) lim = p->nlocals;
    else if (op == NV_OP_LDS || op == NV_OP_STS) lim = p->nstate;
    else lim = 1u;                          /* no operand: it must be 0 */
    if (arg < lim) return NV_OK;
    return NV_E_OPERAND;
}

/* A path reaches t with depth nd: the first one sets it, the others must
 * agree. */
/*@ requires \valid(p) && t < NV_CODE_MAX && nd <= NV_STACK_MAX;
    assigns p->depth[t];
    ensures \old(p->depth[t]) == NV_UNSET ==> p->depth[t] == nd && \result != 0;
    ensures \old(p->depth[t]) != NV_UNSET ==> p->depth[t] == \old(p->depth[t]) &&
              (\result != 0 <==> p->depth[t] == nd);
*/
static int join(struct nv_prog *p, uint32_t t, uint32_t nd)
{
    if (p->depth[t] == NV_UNSET) {
        p->depth[t] = (uint8_t)nd;
        return 1;
    }
    return p->depth[t] == nd;
}

/*@ requires \valid(r);
    assigns *r;
    ensures r->reason == e && r->pc == pc && r->value == v && \result == e;
*/
static uint32_t reject(struct nv_reject *r, uint32_t e, uint32_t pc, uint32_t v)
{
    r->reason = e;
    r->pc = pc;
    r->value = v;
    return e;
}

/* Check the instruction at pc, whose depth is set, and pass its depth on to
 * its successors.  Only depths not yet set change. */
/*@ requires \valid(p);
    requires 1 <= p->len <= NV_CODE_MAX && pc < p->len;
    requires p->depth[pc] <= NV_STACK_MAX;
    requires \forall integer q; pc < q < p->len ==>
               p->depth[q] == NV_UNSET || p->depth[q] <= NV_STACK_MAX;
    assigns p->depth[pc + 1 .. p->len - 1];
    ensures \result < NV_E_COUNT;
    ensures \forall integer q; pc < q < p->len ==>
              \old(p->depth[q]) != NV_UNSET ==> p->depth[q] == \old(p->depth[q]);
    ensures \forall integer q; pc < q < p->len ==>
              p->depth[q] == NV_UNSET || p->depth[q] <= NV_STACK_MAX;
    ensures \result == NV_OK ==> nv_shape_ok(p, pc);
*/
static uint32_t check_insn(struct nv_prog *p, uint32_t pc)
{
    uint32_t len = p->len, w = p->code[pc], op = w % 256u, arg = w / 256u;
    uint32_t d = p->depth[pc], po, pu, nd, e;

    e = operand_check(p, op, arg);
    if (e != NV_OK)
        return e;
    po = pops(op, arg);
    pu = pushes(op, arg);
    if (d < po) return NV_E_UNDERFLOW;
    nd = d - po + pu;
    if (nd > NV_STACK_MAX) return NV_E_OVERFLOW;
    if (op == NV_OP_RET && d != 1u) return NV_E_RETDEPTH;
    /*@ assert op < NV_OP_COUNT && nv_arg_ok(p, op, arg); */
    /*@ assert nv_pops(op, arg) <= d && nd == d - nv_pops(op, arg) + nv_pushes(op, arg); */
    if (op != NV_OP_RET && op != NV_OP_JMP) {
        if (pc + 1u >= len) return NV_E_FALLOFF;
        if (!join(p, pc + 1u, nd)) return NV_E_MISMATCH;
        /*@ assert p->depth[pc + 1] == nd; */
    }
    /*@ assert nv_falls(op) ==> pc + 1 < len && p->depth[pc + 1] == nd; */
    if (op == NV_OP_JMP || op == NV_OP_JZ) {
        if (arg <= pc || arg >= len) return NV_E_JUMP;
        if (!join(p, arg, nd)) return NV_E_MISMATCH;
        /*@ assert p->depth[arg] == nd; */
    }
    /*@ assert nv_falls(op) ==> p->depth[pc + 1] == nd; */
    /*@ assert nv_jumps(op) ==> pc < arg < len && p->depth[arg] == nd; */
    /*@ assert p->depth[pc] == d; */
    return NV_OK;
}

/* The number a rejection at pc names: the opcode, the operand or a depth. */
/*@ requires \valid_read(p) && pc < NV_CODE_MAX;
    assigns \nothing;
*/
static uint32_t reject_value(const struct nv_prog *p, uint32_t pc, uint32_t e)
{
    uint32_t w = p->code[pc], op = w % 256u, arg = w / 256u, d = p->depth[pc];
    uint32_t up;
    if (e == NV_E_OPCODE) return op;
    if (e == NV_E_OPERAND || e == NV_E_BUILTIN || e == NV_E_JUMP) return arg;
    if (e == NV_E_UNDERFLOW || e == NV_E_RETDEPTH) return d;
    up = d + pushes(op, arg);                /* OVERFLOW, MISMATCH: the new depth */
    return up >= pops(op, arg) ? up - pops(op, arg) : 0u;
}

/* Forward: every instruction's shape and the stack depth before it.  Jumps
 * go forward, so every path into pc has been seen before pc. */
/*@ requires \valid(p) && \valid(r) && \separated(p, r);
    requires 1 <= p->len <= NV_CODE_MAX;
    assigns p->depth[0 .. NV_CODE_MAX - 1], *r;
    ensures \result < NV_E_COUNT;
    ensures \result != NV_OK ==> r->reason == \result;
    ensures \result == NV_OK ==> r->reason == \old(r->reason);
    ensures \result == NV_OK ==> p->depth[0] == 0 &&
              \forall integer q; 0 <= q < p->len ==> nv_shape_ok(p, q);
*/
static uint32_t shape_pass(struct nv_prog *p, struct nv_reject *r)
{
    uint32_t len = p->len, pc, i, e;

    /*@ loop invariant 0 <= i <= len;
        loop invariant \forall integer q; 0 <= q < i ==> p->depth[q] == NV_UNSET;
        loop assigns i, p->depth[0 .. len - 1];
        loop variant len - i;
    */
    for (i = 0u; i < len; i++)
        p->depth[i] = NV_UNSET;
    p->depth[0] = 0u;

    /*@ loop invariant 0 <= pc <= len;
        loop invariant p->depth[0] == 0;
        loop invariant \forall integer q; 0 <= q < pc ==>
                         p->depth[q] <= NV_STACK_MAX && nv_shape_ok(p, q);
        loop invariant \forall integer q; pc <= q < len ==>
                         p->depth[q] == NV_UNSET || p->depth[q] <= NV_STACK_MAX;
        loop assigns pc, e, p->depth[0 .. len - 1];
        loop variant len - pc;
    */
    for (pc = 0u; pc < len; pc++) {
        if (p->depth[pc] == NV_UNSET)       /* unreachable: checked as if entered empty */
            p->depth[pc] = 0u;
        e = check_insn(p, pc);
        if (e != NV_OK) {
            (void)reject(r, e, pc, reject_value(p, pc, e));
            return e;
        }
    }
    return NV_OK;
}

/* Backward: the worst cost from pc to the end is the instruction's own plus
 * its worst successor's, which lies after it.  Costs cannot overflow: a
 * path visits each instruction at most once. */
/*@ requires \valid(p) && 1 <= p->len <= NV_CODE_MAX;
    requires \forall integer q; 0 <= q < p->len ==> nv_shape_ok(p, q);
    assigns p->cost[0 .. NV_CODE_MAX - 1], p->ccost[0 .. NV_CODE_MAX - 1],
            p->scost[0 .. NV_CODE_MAX - 1];
    ensures \forall integer q; 0 <= q < p->len ==> nv_cost_ok(p, q);
*/
static void cost_pass(struct nv_prog *p)
{
    uint32_t len = p->len, pc = len;

    /*@ loop invariant 0 <= pc <= len;
        loop invariant \forall integer q; pc <= q < len ==> nv_icost_ok(p, q);
        loop invariant \forall integer q; pc <= q < len ==> nv_ccost_ok(p, q);
        loop invariant \forall integer q; pc <= q < len ==> nv_scost_ok(p, q);
        loop invariant \forall integer q; pc <= q < len ==> p->cost[q] <= len - q;
        loop invariant \forall integer q; pc <= q < len ==> 0 <= p->scost[q] <= len - q;
        loop invariant \forall integer q; pc <= q < len ==>
                         0 <= p->ccost[q] <= NV_CYC_MAX * (len - q);
        loop assigns pc, p->cost[0 .. len - 1], p->ccost[0 .. len - 1], p->scost[0 .. len - 1];
        loop variant pc;
    */
    while (pc > 0u) {
        uint32_t w, op, arg, c = 0u, cc = 0u, sc = 0u, own;
        pc--;
        w = p->code[pc];
        op = w % 256u;
        arg = w / 256u;
        /*@ assert nv_shape_ok(p, pc); */
        if (op != NV_OP_RET && op != NV_OP_JMP) {
            c = p->cost[pc + 1u];
            cc = (uint32_t)p->ccost[pc + 1u];
            sc = (uint32_t)p->scost[pc + 1u];
        }
        if (op == NV_OP_JMP || op == NV_OP_JZ) {
            if (p->cost[arg] > c) c = p->cost[arg];
            if ((uint32_t)p->ccost[arg] > cc) cc = (uint32_t)p->ccost[arg];
            if ((uint32_t)p->scost[arg] > sc) sc = (uint32_t)p->scost[arg];
        }
        p->cost[pc] = (uint16_t)(1u + c);
        own = nv_op_cycles(op, arg);
        p->ccost[pc] = (int32_t)(own + cc);
        p->scost[pc] = (int16_t)((op == NV_OP_CALL && arg == NV_BI_SEND ? 1u : 0u) + sc);
        /*@ assert nv_icost_ok(p, pc) && nv_ccost_ok(p, pc) && nv_scost_ok(p, pc); */
    }
}

uint32_t nv_verify(struct nv_prog *p, uint32_t budget, struct nv_reject *r)
{
    uint32_t e;

    /* *r first: once the facts about p hold, only p->verified is written. */
    (void)reject(r, NV_OK, 0u, 0u);
    p->verified = 0u;
    if (p->len < 1u || p->len > NV_CODE_MAX)
        return reject(r, NV_E_LEN, 0u, p->len);
    if (p->nconst > NV_CONST_MAX || p->nlocals > NV_LOCALS_MAX || p->nstate > NV_STATE_MAX)
        return reject(r, NV_E_TABLES, 0u, 0u);
    e = shape_pass(p, r);
    if (e != NV_OK)
        return e;       /* *r says why */
    cost_pass(p);
    if (p->cost[0] > budget)
        return reject(r, NV_E_BUDGET, 0u, p->cost[0]);
    if (p->scost[0] > (int16_t)NV_SENDS_MAX)
        return reject(r, NV_E_SENDS, 0u, (uint32_t)p->scost[0]);
    p->verified = NV_VERIFIED;
    return NV_OK;
}

const char *nv_reject_text(uint32_t reason)
{
    switch (reason) {
    case NV_OK:          return "accepted";
    case NV_E_LEN:       return "no code, or more instructions than the limit";
    case NV_E_TABLES:    return "more constants, locals or state words than the limits";
    case NV_E_OPCODE:    return "unknown opcode";
    case NV_E_OPERAND:   return "operand out of range";
    case NV_E_BUILTIN:   return "unknown built-in";
    case NV_E_JUMP:      return "jump target not after the jump or outside the code";
    case NV_E_FALLOFF:   return "the code runs off its end";
    case NV_E_UNDERFLOW: return "operand stack underflow";
    case NV_E_OVERFLOW:  return "operand stack overflow";
    case NV_E_MISMATCH:  return "paths reach an instruction with different stack depths";
    case NV_E_RETDEPTH:  return "return leaves values on the stack";
    case NV_E_BUDGET:    return "worst case exceeds the budget";
    case NV_E_SENDS:     return "more sends than the limit";
    default:             return "unknown reason";
    }
}
