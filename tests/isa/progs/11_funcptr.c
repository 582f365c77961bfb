/* 11_funcptr: indirect calls (lanai-isa.md §7.3/§10.4): function pointers
 * taken in code (hi/lo pairs) and stored in initialised const and writable
 * tables (R_LANAI_32), a dispatch table of operations, a callback-driven
 * generic sort with a comparator, pointers returned from functions, and a
 * struct of methods. */
#include "tests/isa/progs/prog.h"

typedef uint32_t (*binop)(uint32_t, uint32_t);

static uint32_t op_add(uint32_t a, uint32_t b) { return a + b; }
static uint32_t op_sub(uint32_t a, uint32_t b) { return a - b; }
static uint32_t op_mul(uint32_t a, uint32_t b) { return a * b; }
static uint32_t op_div(uint32_t a, uint32_t b) { return b ? a / b : 0; }
static uint32_t op_xor(uint32_t a, uint32_t b) { return a ^ b; }
static uint32_t op_rol(uint32_t a, uint32_t b) { b &= 31; return b ? a << b | a >> (32 - b) : a; }

static const binop optab[] = { op_add, op_sub, op_mul, op_div, op_xor, op_rol };
static const char *const opname[] = { "add", "sub", "mul", "div", "xor", "rol" };

/* Writable table, modified at run time. */
static binop slots[4] = { op_add, op_add, op_xor, 0 };

struct ops {
    const char *name;
    binop combine;
    uint32_t (*unary)(uint32_t);
};
static uint32_t inc(uint32_t x) { return x + 1; }
static uint32_t neg(uint32_t x) { return 0u - x; }
static const struct ops methods[] = { { "inc-add", op_add, inc }, { "neg-mul", op_mul, neg } };

static binop choose(int i) { return optab[i % COUNT_OF(optab)]; }

/* Generic insertion sort with a comparator callback. */
static void gsort(void *base, int n, int size, int (*cmp)(const void *, const void *))
{
    unsigned char *b = base;
    unsigned char tmp[16];
    for (int i = 1; i < n; i++) {
        memcpy(tmp, b + i * size, (size_t)size);
        int j = i - 1;
        while (j >= 0 && cmp(b + j * size, tmp) > 0) {
            memcpy(b + (j + 1) * size, b + j * size, (size_t)size);
            j--;
        }
        memcpy(b + (j + 1) * size, tmp, (size_t)size);
    }
}
static int cmp_u32(const void *a, const void *b)
{
    uint32_t x, y;
    memcpy(&x, a, 4);
    memcpy(&y, b, 4);
    return (x > y) - (x < y);
}
static int cmp_s16_desc(const void *a, const void *b)
{
    int16_t x, y;
    memcpy(&x, a, 2);
    memcpy(&y, b, 2);
    return (y > x) - (y < x);
}

/* A function that returns a function pointer. */
static uint32_t (*pick_unary(int neg_it))(uint32_t) { return neg_it ? neg : inc; }

int main(void)
{
    uint32_t acc = 0x12345678u;
    for (int i = 0; i < 60; i++) {
        binop f = optab[(int)opq32((uint32_t)i) % COUNT_OF(optab)];
        acc = f(acc, (uint32_t)i * 0x01000193u + 7u);
    }
    out32("table dispatch", acc);
    for (int i = 0; i < COUNT_OF(optab); i++)
        out32(opname[i], optab[i](opq32(1000), opq32(7)));
    slots[3] = choose((int)opq32(2));
    slots[1] = op_sub;
    uint32_t s = 1;
    for (int r = 0; r < 10; r++)
        for (int i = 0; i < 4; i++)
            s = slots[i](s, (uint32_t)(r * 4 + i + 1));
    out32("slots", s);
    for (int i = 0; i < COUNT_OF(methods); i++) {
        const struct ops *m = &methods[i];
        outs("method", m->name);
        out32("result", m->combine(m->unary(opq32(41)), opq32(3)));
    }
    out32("returned fptr", pick_unary((int)opq32(1))(5) + pick_unary(0)(5));

    uint32_t arr[12];
    uint32_t x = 99;
    for (int i = 0; i < 12; i++) { x = x * 69069u + 1u; arr[i] = x; }
    gsort(arr, 12, 4, cmp_u32);
    uint32_t h = 0;
    for (int i = 0; i < 12; i++) h = h * 31u + arr[i];
    out32("sorted u32", h);
    out32("min", arr[0]);
    int16_t sh[9] = { 5, -3, 32767, -32768, 0, 7, -3, 100, 1 };
    gsort(sh, 9, 2, cmp_s16_desc);
    for (int i = 0; i < 9; i++) { put_dec(sh[i]); put_char(i == 8 ? '\n' : ' '); ck32((uint32_t)sh[i]); }
    /* Comparing function pointers. */
    outd("same fn", optab[0] == op_add && slots[3] == op_mul && methods[1].unary != inc);
    return finish();
}
