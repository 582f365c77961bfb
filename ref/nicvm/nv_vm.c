/* nv_vm.c - see nv_vm.h for the contract.
 *
 * Values are 32-bit two's complement numbers held in uint32_t: the
 * arithmetic below is written modulo 2^32 in 64 bits (no C overflow, the
 * same result on the LANai and the host), and signed comparisons flip the
 * sign bit.  Dispatch is one dense switch: a jump table for gcc on the
 * host, a tree of five compares for clang on the LANai (its Lanai backend
 * emits no jump tables); 22 cycles there (docs/nicvm.md).
 */
#include "nv_vm.h"

#define NV_2_32 4294967296ull

/*@ assigns \nothing; ensures \result == (a + b) % NV_2_32; */
static uint32_t add32(uint32_t a, uint32_t b) { return (uint32_t)(((uint64_t)a + b) % NV_2_32); }
/*@ assigns \nothing; ensures \result == (a + NV_2_32 - b) % NV_2_32; */
static uint32_t sub32(uint32_t a, uint32_t b) { return (uint32_t)(((uint64_t)a + NV_2_32 - b) % NV_2_32); }
/*@ assigns \nothing; ensures \result == (a * b) % NV_2_32; */
static uint32_t mul32(uint32_t a, uint32_t b) { return (uint32_t)(((uint64_t)a * b) % NV_2_32); }
/*@ assigns \nothing; ensures \result == (NV_2_32 - a) % NV_2_32; */
static uint32_t neg32(uint32_t a) { return (uint32_t)((NV_2_32 - a) % NV_2_32); }

/*@ assigns \nothing; */
static uint32_t slt(uint32_t a, uint32_t b) { return (a ^ 0x80000000u) < (b ^ 0x80000000u) ? 1u : 0u; }

/* Truncating signed division and remainder; b != 0. */
/*@ requires b != 0; assigns \nothing; */
static uint32_t sdiv(uint32_t a, uint32_t b, int rem)
{
    uint32_t na = a >= 0x80000000u, nb = b >= 0x80000000u;
    uint32_t ma = na ? neg32(a) : a, mb = nb ? neg32(b) : b, q;
    if (mb == 0u) return 0u;                    /* cannot happen: b != 0 */
    if (rem) {
        q = ma % mb;
        return na ? neg32(q) : q;
    }
    q = ma / mb;
    return na != nb ? neg32(q) : q;
}

/*@ requires \valid(out);
    requires stop < NV_STOP_COUNT;
    assigns *out;
    ensures out->stop == stop && out->result == result && out->steps == steps &&
            out->sends == sends && out->pc == pc && \result == stop;
*/
static uint32_t finish(struct nv_result *out, uint32_t stop, uint32_t result,
                       uint32_t steps, uint32_t sends, uint32_t pc)
{
    out->stop = stop;
    out->result = result;
    out->steps = steps;
    out->sends = sends;
    out->pc = pc;
    return stop;
}

uint32_t nv_run(const struct nv_prog *p, const struct nv_env *env, uint32_t budget,
                struct nv_result *out)
{
    uint32_t stk[NV_STACK_MAX], loc[NV_LOCALS_MAX];
    uint32_t pc = 0u, sp = 0u, steps = 0u, sends = 0u, i;
    /* The environment, read once: the loop writes only the arrays. */
    uint32_t *const hdr = env->hdr, *const pay = env->payload, *const st = env->state;
    const uint32_t size = env->size, words = env->payload_words, writable = env->hdr_writable;
    const uint32_t nlocals = p->nlocals;

    if (p->verified != NV_VERIFIED)
        return finish(out, NV_STOP_UNVERIFIED, 0u, 0u, 0u, 0u);
    /*@ loop invariant 0 <= i <= nlocals;
        loop assigns i, loc[0 .. NV_LOCALS_MAX - 1];
        loop variant nlocals - i;
    */
    for (i = 0u; i < nlocals; i++)
        loc[i] = 0u;

    /*@ loop invariant 0 <= pc < \at(p->len, Pre);
        loop invariant sp == p->depth[pc] && sp <= NV_STACK_MAX;
        loop invariant steps + p->cost[pc] <= p->cost[0] && steps <= budget;
        loop invariant sends + p->scost[pc] <= p->scost[0];
        loop invariant \forall integer q; 0 <= q < \at(p->len, Pre) ==> p->code[q] == \at(p->code[q], Pre);
        loop assigns pc, sp, steps, sends, stk[0 .. NV_STACK_MAX - 1], loc[0 .. NV_LOCALS_MAX - 1],
                     hdr[0 .. NV_HDR_WORDS - 1], pay[0 .. words - 1], st[0 .. \at(p->nstate, Pre) - 1];
        loop variant p->cost[pc];
    */
    for (;;) {
        uint32_t w = p->code[pc], op = w % 256u, arg = w / 256u, a, b;

        /*@ assert \let q = pc; \at(nv_shape_ok((struct nv_prog *)p, q) &&
                                     nv_cost_ok((struct nv_prog *)p, q), Pre); */
        if (steps >= budget)
            return finish(out, NV_STOP_BUDGET, 0u, steps, sends, pc);
        steps++;
        switch (op) {
        case NV_OP_RET:
            return finish(out, NV_STOP_RETURN, stk[sp - 1u], steps, sends, pc);
        case NV_OP_JMP:
            pc = arg;
            continue;
        case NV_OP_JZ:
            sp--;
            pc = stk[sp] == 0u ? arg : pc + 1u;
            continue;
        case NV_OP_LIT:
            stk[sp] = arg < 0x800000u ? arg : arg + 0xFF000000u;
            sp++;
            break;
        case NV_OP_CONST:
            stk[sp] = p->konst[arg];
            sp++;
            break;
        case NV_OP_LDL:
            stk[sp] = loc[arg];
            sp++;
            break;
        case NV_OP_LDS:
            stk[sp] = st[arg];
            sp++;
            break;
        case NV_OP_STL:
            sp--;
            loc[arg] = stk[sp];
            break;
        case NV_OP_STS:
            sp--;
            st[arg] = stk[sp];
            break;
        case NV_OP_DROP:
            sp--;
            break;
        case NV_OP_LDSX:
            a = stk[sp - 1u];
            if (a >= NV_SX_LEN(arg))
                return finish(out, NV_STOP_INDEX, 0u, steps, sends, pc);
            stk[sp - 1u] = st[NV_SX_BASE(arg) + a];
            break;
        case NV_OP_PKH:
            a = stk[sp - 1u];
            if (a >= NV_HDR_WORDS)
                return finish(out, NV_STOP_INDEX, 0u, steps, sends, pc);
            stk[sp - 1u] = hdr[a];
            break;
        case NV_OP_PKW:
            a = stk[sp - 1u];
            if (a >= words)
                return finish(out, NV_STOP_INDEX, 0u, steps, sends, pc);
            stk[sp - 1u] = pay[a];
            break;
        case NV_OP_NOT:
            stk[sp - 1u] = stk[sp - 1u] == 0u ? 1u : 0u;
            break;
        case NV_OP_NEG:
            stk[sp - 1u] = neg32(stk[sp - 1u]);
            break;
        case NV_OP_STSX:
            a = stk[sp - 2u];
            if (a >= NV_SX_LEN(arg))
                return finish(out, NV_STOP_INDEX, 0u, steps, sends, pc);
            st[NV_SX_BASE(arg) + a] = stk[sp - 1u];
            sp -= 2u;
            break;
        case NV_OP_PKHSET:
            a = stk[sp - 2u];
            if (a >= NV_HDR_WORDS)
                return finish(out, NV_STOP_INDEX, 0u, steps, sends, pc);
            if (((writable >> a) & 1u) == 0u)
                return finish(out, NV_STOP_READONLY, 0u, steps, sends, pc);
            hdr[a] = stk[sp - 1u];
            sp -= 2u;
            break;
        case NV_OP_PKWSET:
            a = stk[sp - 2u];
            if (a >= words)
                return finish(out, NV_STOP_INDEX, 0u, steps, sends, pc);
            pay[a] = stk[sp - 1u];
            sp -= 2u;
            break;
        case NV_OP_CALL:
            switch (arg) {
            case NV_BI_SIZE:    stk[sp] = size; sp++; break;
            case NV_BI_RANK:    stk[sp] = env->rank; sp++; break;
            case NV_BI_ROOT:    stk[sp] = env->root; sp++; break;
            case NV_BI_PKWORDS: stk[sp] = words; sp++; break;
            default:            /* NV_BI_SEND (type, rank) */
                a = stk[sp - 2u];
                b = stk[sp - 1u];
                if (b >= size)
                    return finish(out, NV_STOP_RANK, 0u, steps, sends, pc);
                if (!nv_env_send(env, a, b))
                    return finish(out, NV_STOP_SEND, 0u, steps, sends, pc);
                sends++;
                sp -= 2u;
                break;
            }
            break;
        default:                /* binary operators, NV_OP_ADD .. NV_OP_OR */
            a = stk[sp - 2u];
            b = stk[sp - 1u];
            switch (op) {
            case NV_OP_ADD: a = add32(a, b); break;
            case NV_OP_SUB: a = sub32(a, b); break;
            case NV_OP_MUL: a = mul32(a, b); break;
            case NV_OP_DIV:
            case NV_OP_MOD:
                if (b == 0u)
                    return finish(out, NV_STOP_DIV, 0u, steps, sends, pc);
                a = sdiv(a, b, op == NV_OP_MOD);
                break;
            case NV_OP_EQ:  a = a == b ? 1u : 0u; break;
            case NV_OP_NE:  a = a != b ? 1u : 0u; break;
            case NV_OP_LT:  a = slt(a, b); break;
            case NV_OP_LE:  a = slt(b, a) ^ 1u; break;
            case NV_OP_GT:  a = slt(b, a); break;
            case NV_OP_GE:  a = slt(a, b) ^ 1u; break;
            case NV_OP_AND: a = a != 0u && b != 0u ? 1u : 0u; break;
            default:        a = a != 0u || b != 0u ? 1u : 0u; break;   /* NV_OP_OR */
            }
            sp--;
            stk[sp - 1u] = a;
            break;
        }
        pc++;
    }
}
