/*
 * nv_verify.h - the NICVM verifier: what the NIC runs on every module before
 * it accepts it (and nicvm-check on the host, the same C).
 *
 * It checks every instruction (opcode, operand, forward jumps inside the
 * code, stack depth the same on every path, never below the operands or
 * above NV_STACK_MAX), then computes by a backward pass the worst cost from
 * each instruction to the end: VM instructions, LANai cycles (nv_cost.h) and
 * sends.  A module is accepted only if its worst case fits the budget and
 * NV_SENDS_MAX.  Accepting proves nv_verified (nv_bytecode.h), which is all
 * the VM assumes.
 */
#ifndef NV_VERIFY_H
#define NV_VERIFY_H

#include <stdint.h>
#include "nv_bytecode.h"

/* Why a module is rejected (nv_reject_text gives the message). */
#define NV_OK             0u
#define NV_E_LEN          1u   /* no code, or more than NV_CODE_MAX          */
#define NV_E_TABLES       2u   /* more constants/locals/state than the limits */
#define NV_E_OPCODE       3u   /* unknown opcode                              */
#define NV_E_OPERAND      4u   /* operand out of range (local, state, const)  */
#define NV_E_BUILTIN      5u   /* unknown built-in                            */
#define NV_E_JUMP         6u   /* jump not forward, or outside the code       */
#define NV_E_FALLOFF      7u   /* the last instruction falls off the end      */
#define NV_E_UNDERFLOW    8u   /* fewer values on the stack than it pops      */
#define NV_E_OVERFLOW     9u   /* more than NV_STACK_MAX values               */
#define NV_E_MISMATCH    10u   /* two paths reach pc with different depths    */
#define NV_E_RETDEPTH    11u   /* return with other values left on the stack  */
#define NV_E_BUDGET      12u   /* worst case longer than the budget           */
#define NV_E_SENDS       13u   /* more sends than NV_SENDS_MAX                */
#define NV_E_COUNT       14u

struct nv_reject {
    uint32_t reason;   /* NV_OK or NV_E_*                                   */
    uint32_t pc;       /* the instruction at fault (0 for whole-module ones) */
    uint32_t value;    /* the offending number (operand, depth, cost)       */
};

/* Verify p against a budget of VM instructions per activation.  Returns
 * NV_OK and sets p->verified, depth[], cost[], ccost[], scost[] (worst case:
 * cost[0] instructions, ccost[0] cycles, scost[0] sends), or a reason in
 * *r and p->verified != NV_VERIFIED.  p's code and tables are not changed. */
/*@ requires \valid(p) && \valid(r) && \separated(p, r);
    assigns p->verified, p->depth[0 .. NV_CODE_MAX - 1], p->cost[0 .. NV_CODE_MAX - 1],
            p->ccost[0 .. NV_CODE_MAX - 1], p->scost[0 .. NV_CODE_MAX - 1], *r;
    ensures \result == r->reason && \result < NV_E_COUNT;
    ensures \result == NV_OK ==> nv_verified(p) && p->cost[0] <= budget &&
                                 p->scost[0] <= NV_SENDS_MAX;
    ensures \result != NV_OK ==> p->verified != NV_VERIFIED;
*/
uint32_t nv_verify(struct nv_prog *p, uint32_t budget, struct nv_reject *r);

/* The message for a reason, e.g. "jump target 7 is not after the jump". */
/*@ assigns \nothing; */
const char *nv_reject_text(uint32_t reason);

#endif
