/* 23_bignum: a tiny arbitrary-precision unsigned integer with 32-bit limbs.
 * Multiplication uses 32x32->64 products (__muldi3 on LANai), division by a
 * small number uses 64-bit by 32-bit division (__udivdi3/__umoddi3), addition
 * propagates carries. Computes 60!, 2^300 and Fibonacci(400), prints them in
 * decimal and hex, and checks (a*b)/b == a. */
#include "tests/isa/progs/prog.h"

#define LIMBS 20   /* 640 bits */

struct big { uint32_t d[LIMBS]; int n; };   /* little-endian limb order, n used limbs */

static void big_set(struct big *a, uint32_t v) { memset(a, 0, sizeof *a); a->d[0] = v; a->n = v != 0; }

static void big_mul_small(struct big *a, uint32_t m)
{
    uint64_t carry = 0;
    for (int i = 0; i < a->n; i++) {
        uint64_t p = (uint64_t)a->d[i] * m + carry;
        a->d[i] = (uint32_t)p;
        carry = p >> 32;
    }
    if (carry) a->d[a->n++] = (uint32_t)carry;
}

static uint32_t big_div_small(struct big *a, uint32_t dv)
{
    uint64_t rem = 0;
    for (int i = a->n - 1; i >= 0; i--) {
        uint64_t cur = rem << 32 | a->d[i];
        a->d[i] = (uint32_t)(cur / dv);
        rem = cur % dv;
    }
    while (a->n && !a->d[a->n - 1]) a->n--;
    return (uint32_t)rem;
}

static void big_add(struct big *r, const struct big *a, const struct big *b)
{
    int n = a->n > b->n ? a->n : b->n;
    uint32_t carry = 0;
    for (int i = 0; i < n; i++) {
        uint32_t x = i < a->n ? a->d[i] : 0, y = i < b->n ? b->d[i] : 0;
        uint32_t s = x + y;
        uint32_t c1 = s < x;
        uint32_t s2 = s + carry;
        uint32_t c2 = s2 < s;
        r->d[i] = s2;
        carry = c1 | c2;
    }
    r->n = n;
    if (carry) r->d[r->n++] = carry;
    for (int i = r->n; i < LIMBS; i++) r->d[i] = 0;
}

static void big_mul(struct big *r, const struct big *a, const struct big *b)
{
    uint32_t t[LIMBS * 2];
    memset(t, 0, sizeof t);
    for (int i = 0; i < a->n; i++) {
        uint64_t carry = 0;
        for (int j = 0; j < b->n; j++) {
            uint64_t p = (uint64_t)a->d[i] * b->d[j] + t[i + j] + carry;
            t[i + j] = (uint32_t)p;
            carry = p >> 32;
        }
        t[i + b->n] = (uint32_t)carry;
    }
    int n = a->n + b->n;
    while (n && !t[n - 1]) n--;
    memset(r, 0, sizeof *r);
    for (int i = 0; i < n && i < LIMBS; i++) r->d[i] = t[i];
    r->n = n < LIMBS ? n : LIMBS;
}

static int big_cmp(const struct big *a, const struct big *b)
{
    if (a->n != b->n) return a->n < b->n ? -1 : 1;
    for (int i = a->n - 1; i >= 0; i--)
        if (a->d[i] != b->d[i]) return a->d[i] < b->d[i] ? -1 : 1;
    return 0;
}

static void big_print(const char *label, const struct big *a)
{
    /* Decimal: peel off 9 digits at a time. */
    struct big t = *a;
    uint32_t chunks[80];
    int nc = 0;
    do chunks[nc++] = big_div_small(&t, 1000000000u); while (t.n);
    put_str(label);
    put_str(" = ");
    put_udec32(chunks[nc - 1]);
    ck32(chunks[nc - 1]);
    for (int i = nc - 2; i >= 0; i--) {
        char buf[9];
        uint32_t c = chunks[i];
        for (int k = 8; k >= 0; k--) { buf[k] = (char)('0' + c % 10); c /= 10; }
        for (int k = 0; k < 9; k++) put_char(buf[k]);
        ck32(chunks[i]);
    }
    put_nl();
}

static void big_print_hex(const char *label, const struct big *a)
{
    put_str(label);
    put_str(" = 0x");
    if (!a->n) put_char('0');
    for (int i = a->n - 1; i >= 0; i--) {
        if (i == a->n - 1) { uint32_t v = a->d[i]; int k = 7; while (k > 0 && !(v >> (4 * k))) k--; put_hexn(v, k + 1); }
        else put_hex32(a->d[i]);
        ck32(a->d[i]);
    }
    put_nl();
}

int main(void)
{
    struct big f;
    big_set(&f, 1);
    for (uint32_t i = 2; i <= 60; i++) big_mul_small(&f, opq32(i));
    big_print("60!", &f);
    big_print_hex("60!", &f);
    outd("60! limbs", f.n);

    struct big p;
    big_set(&p, 1);
    for (int i = 0; i < 300; i += 30) big_mul_small(&p, opq32(1u << 30));
    big_print("2^300", &p);

    struct big a, b, c;
    big_set(&a, 0);
    big_set(&b, 1);
    for (int i = 0; i < 400; i++) { big_add(&c, &a, &b); a = b; b = c; }
    big_print("fib(401)", &a);

    /* (f * fib) / small and compare. */
    struct big prod, x;
    big_set(&x, 0xfffffffbu);
    big_mul_small(&x, 0xfffffff1u);
    big_mul(&prod, &f, &x);
    big_print_hex("60!*q", &prod);
    uint32_t r1 = big_div_small(&prod, 0xfffffffbu);
    uint32_t r2 = big_div_small(&prod, 0xfffffff1u);
    outd("remainders", (int32_t)(r1 + r2));
    outd("division round trip", big_cmp(&prod, &f) == 0);
    return finish();
}
