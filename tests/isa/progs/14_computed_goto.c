/* 14_computed_goto: GNU C labels as values (`&&label`, `goto *p`). clang puts
 * the label address table in .rodata (R_LANAI_32 to .Ltmp labels) and
 * dispatches with `ld` + `bt %r3` (lanai-isa.md §7.4, §10.4). A small
 * direct-threaded stack-machine interpreter runs three bytecode programs. */
#include "tests/isa/progs/prog.h"

enum { OP_PUSH, OP_LOAD, OP_STORE, OP_ADD, OP_SUB, OP_MUL, OP_MOD, OP_DUP, OP_DROP,
       OP_SWAP, OP_JZ, OP_JMP, OP_LT, OP_OUT, OP_HALT };

struct vm_result { int32_t top; uint32_t steps; uint32_t out_hash; };

static __attribute__((noinline)) struct vm_result run(const int32_t *code, int32_t *vars)
{
    static const void *const dispatch[] = {
        &&do_push, &&do_load, &&do_store, &&do_add, &&do_sub, &&do_mul, &&do_mod,
        &&do_dup, &&do_drop, &&do_swap, &&do_jz, &&do_jmp, &&do_lt, &&do_out, &&do_halt,
    };
    int32_t stack[32];
    int sp = 0;
    const int32_t *pc = code;
    struct vm_result r = { 0, 0, 2166136261u };

#define NEXT do { r.steps++; goto *dispatch[*pc++]; } while (0)
    NEXT;
do_push:  stack[sp++] = *pc++; NEXT;
do_load:  stack[sp++] = vars[*pc++]; NEXT;
do_store: vars[*pc++] = stack[--sp]; NEXT;
do_add:   sp--; stack[sp - 1] = (int32_t)((uint32_t)stack[sp - 1] + (uint32_t)stack[sp]); NEXT;
do_sub:   sp--; stack[sp - 1] = (int32_t)((uint32_t)stack[sp - 1] - (uint32_t)stack[sp]); NEXT;
do_mul:   sp--; stack[sp - 1] = (int32_t)((uint32_t)stack[sp - 1] * (uint32_t)stack[sp]); NEXT;
do_mod:   sp--; stack[sp - 1] = stack[sp] ? stack[sp - 1] % stack[sp] : 0; NEXT;
do_dup:   stack[sp] = stack[sp - 1]; sp++; NEXT;
do_drop:  sp--; NEXT;
do_swap:  { int32_t t = stack[sp - 1]; stack[sp - 1] = stack[sp - 2]; stack[sp - 2] = t; } NEXT;
do_jz:    { int32_t target = *pc++; if (stack[--sp] == 0) pc = code + target; } NEXT;
do_jmp:   pc = code + *pc; NEXT;
do_lt:    sp--; stack[sp - 1] = stack[sp - 1] < stack[sp]; NEXT;
do_out:   r.out_hash = (r.out_hash ^ (uint32_t)stack[--sp]) * 16777619u; NEXT;
do_halt:  r.top = sp ? stack[sp - 1] : -1;
#undef NEXT
    return r;
}

/* sum of i*i for i = 1..n-1, n in vars[0]; result left on the stack. */
static const int32_t prog_squares[] = {
    OP_PUSH, 0, OP_STORE, 1,            /* acc = 0 */
    OP_PUSH, 1, OP_STORE, 2,            /* i = 1 */
    /* 8: loop */
    OP_LOAD, 2, OP_LOAD, 0, OP_LT, OP_JZ, -1,         /* exit target patched in main */
    OP_LOAD, 2, OP_DUP, OP_MUL, OP_LOAD, 1, OP_ADD, OP_STORE, 1,
    OP_LOAD, 2, OP_PUSH, 1, OP_ADD, OP_STORE, 2, OP_JMP, 8,
    OP_HALT,
};

/* gcd(vars[0], vars[1]) by remainders, printing each remainder. */
static const int32_t prog_gcd[] = {
    /* 0: loop */
    OP_LOAD, 1, OP_JZ, -1,             /* exit target patched in main */
    OP_LOAD, 0, OP_LOAD, 1, OP_MOD,     /* a % b */
    OP_DUP, OP_OUT,
    OP_LOAD, 1, OP_STORE, 0, OP_STORE, 1,
};

int main(void)
{
    /* The squares program's forward branch target is the OP_HALT index;
     * compute it rather than trusting a hand count, and patch a copy. */
    int32_t sq[COUNT_OF(prog_squares)];
    memcpy(sq, prog_squares, sizeof sq);
    sq[14] = COUNT_OF(prog_squares) - 1;
    int32_t vars[4] = { 40, 0, 0, 0 };
    struct vm_result r = run(sq, vars);
    outd("squares top", r.top);
    outd("squares acc", vars[1]);
    outd("squares steps", (int32_t)r.steps);

    /* gcd: append "JMP 0" and the halt at index 17+2 = 19 (JZ target). */
    int32_t g[COUNT_OF(prog_gcd) + 3];
    memcpy(g, prog_gcd, sizeof prog_gcd);
    g[COUNT_OF(prog_gcd)] = OP_JMP;
    g[COUNT_OF(prog_gcd) + 1] = 0;
    g[COUNT_OF(prog_gcd) + 2] = OP_HALT;
    g[3] = COUNT_OF(prog_gcd) + 2;
    int32_t gv[4] = { 1071 * 97, 462 * 97, 0, 0 };
    r = run(g, gv);
    outd("gcd", gv[0]);
    outd("gcd steps", (int32_t)r.steps);
    out32("gcd remainders", r.out_hash);

    /* A local label table used as a tiny state machine: count runs in a
     * bit string. The indices go through opq32 on purpose: with a constant
     * index clang folds `states[1]` into the label address itself and
     * materialises it in code as `mov .Ltmp0+1` / `or .Ltmp0+1` (wrong
     * offset, R_LANAI_21 on an RI instruction) - a clang 14 LANai defect in
     * lowering blockaddress constants. Loading from the table is the form
     * this suite checks. */
    static const void *const states[] = { &&zero, &&one };
    uint32_t bits = opq32(0xf00f3c5au), runs = 0, len1 = 0;
    int i = 0;
    goto *states[bits >> 31];
zero:
    runs++;
    while (i < 32 && !((bits << i) >> 31)) i++;
    if (i == 32) goto done;
    goto *states[opq32(1)];
one:
    runs++;
    while (i < 32 && ((bits << i) >> 31)) { i++; len1++; }
    if (i == 32) goto done;
    goto *states[opq32(0)];
done:
    outd("runs", (int32_t)runs);
    outd("ones", (int32_t)len1);
    return finish();
}
