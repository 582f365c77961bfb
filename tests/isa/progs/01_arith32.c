/* 01_arith32: 32-bit + - * / % and unary ops, signed and unsigned.
 * Covers __mulsi3, __divsi3, __udivsi3, __modsi3, __umodsi3 (lanai-isa.md §11),
 * including division by constants (which LANai still turns into libcalls) and
 * multiplication by constants cheap and expensive enough to become __mulsi3. */
#include "tests/isa/progs/prog.h"

static const int32_t vals[] = {
    0, 1, -1, 2, -2, 3, -3, 7, -7, 10, -10, 100, -1000,
    65535, 65536, -65536, 1000003, 0x12345678, -0x12345678,
    INT32_MAX, INT32_MIN, INT32_MAX - 1, INT32_MIN + 1,
};

/* Signed results of + - * are computed in unsigned arithmetic so overflow
 * wraps instead of being undefined. */
static int32_t wrap_add(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }
static int32_t wrap_sub(int32_t a, int32_t b) { return (int32_t)((uint32_t)a - (uint32_t)b); }
static int32_t wrap_mul(int32_t a, int32_t b) { return (int32_t)((uint32_t)a * (uint32_t)b); }

static __attribute__((noinline)) int32_t sdiv(int32_t a, int32_t b) { return a / b; }
static __attribute__((noinline)) int32_t smod(int32_t a, int32_t b) { return a % b; }
static __attribute__((noinline)) uint32_t udiv(uint32_t a, uint32_t b) { return a / b; }
static __attribute__((noinline)) uint32_t umod(uint32_t a, uint32_t b) { return a % b; }

static uint32_t row_hash(uint32_t h, uint32_t v) { return (h ^ v) * 0x01000193u; }

int main(void)
{
    int n = COUNT_OF(vals);
    uint32_t hadd = 1, hsub = 2, hmul = 3, hdiv = 4, hmod = 5, hudiv = 6, humod = 7;
    int ndiv = 0;

    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            int32_t a = (int32_t)opq32((uint32_t)vals[i]);
            int32_t b = (int32_t)opq32((uint32_t)vals[j]);
            hadd = row_hash(hadd, (uint32_t)wrap_add(a, b));
            hsub = row_hash(hsub, (uint32_t)wrap_sub(a, b));
            hmul = row_hash(hmul, (uint32_t)wrap_mul(a, b));
            if (b != 0) {
                hudiv = row_hash(hudiv, udiv((uint32_t)a, (uint32_t)b));
                humod = row_hash(humod, umod((uint32_t)a, (uint32_t)b));
                /* INT_MIN / -1 overflows: undefined, skip it. */
                if (!(a == INT32_MIN && b == -1)) {
                    int32_t q = sdiv(a, b), r = smod(a, b);
                    /* C99 truncating division identity. */
                    if (wrap_add(wrap_mul(q, b), r) != a)
                        put_str("identity broken\n");
                    hdiv = row_hash(hdiv, (uint32_t)q);
                    hmod = row_hash(hmod, (uint32_t)r);
                    ndiv++;
                }
            }
        }
    }
    outd("pairs divided", ndiv);
    out32("add", hadd);
    out32("sub", hsub);
    out32("mul", hmul);
    out32("sdiv", hdiv);
    out32("smod", hmod);
    out32("udiv", hudiv);
    out32("umod", humod);

    /* Hand-picked edge cases, printed in decimal so a failure is readable. */
    int32_t m7 = (int32_t)opq32((uint32_t)-7), p7 = (int32_t)opq32(7);
    int32_t two = (int32_t)opq32(2), mtwo = (int32_t)opq32((uint32_t)-2);
    outd("-7/2", m7 / two);
    outd("-7%2", m7 % two);
    outd("7/-2", p7 / mtwo);
    outd("7%-2", p7 % mtwo);
    outd("-7/-2", m7 / mtwo);
    outd("-7%-2", m7 % mtwo);
    int32_t big = (int32_t)opq32(0x7fffffff), one = (int32_t)opq32(1), mone = (int32_t)opq32((uint32_t)-1);
    outd("max/1", big / one);
    outd("max/-1", big / mone);
    outd("min/1", INT32_MIN / one);
    outd("min/2", (int32_t)opq32(0x80000000u) / two);
    uint32_t umax = opq32(0xffffffffu);
    out32("umax/1", umax / opq32(1));
    out32("umax/umax", umax / umax);
    out32("umax/2", umax / opq32(2));
    out32("umax%10", umax % opq32(10));
    out32("1/umax", opq32(1) / umax);
    out32("umax/0x10000", umax / opq32(0x10000));
    out32("0x80000000/0x7fffffff", opq32(0x80000000u) / opq32(0x7fffffffu));

    /* Division and multiplication by constants: still libcalls on LANai for
     * division, shift/add sequences or __mulsi3 for multiplication. */
    uint32_t hc = 0;
    for (int i = 0; i < n; i++) {
        int32_t x = (int32_t)opq32((uint32_t)vals[i]);
        uint32_t u = (uint32_t)x;
        hc = row_hash(hc, (uint32_t)(x / 3));
        hc = row_hash(hc, (uint32_t)(x % 3));
        hc = row_hash(hc, (uint32_t)(x / 10));
        hc = row_hash(hc, (uint32_t)(x % 10));
        hc = row_hash(hc, (uint32_t)(x / -7));
        hc = row_hash(hc, (uint32_t)(x / 16));   /* power of two: shifts with rounding fix-up */
        hc = row_hash(hc, (uint32_t)(x % 16));
        hc = row_hash(hc, (uint32_t)(x / 1));
        if (x != INT32_MIN)
            hc = row_hash(hc, (uint32_t)(x / -1));
        hc = row_hash(hc, u / 3u);
        hc = row_hash(hc, u % 1000u);
        hc = row_hash(hc, u / 0x10001u);
        hc = row_hash(hc, u * 3u);
        hc = row_hash(hc, u * 10u);
        hc = row_hash(hc, u * 100u);
        hc = row_hash(hc, u * 12345u);
        hc = row_hash(hc, u * 0x7fffffffu);
        hc = row_hash(hc, u * 0xdeadbeefu);
        hc = row_hash(hc, (uint32_t)wrap_mul(x, -7));
        hc = row_hash(hc, 0u - u);
        hc = row_hash(hc, ~u);
        hc = row_hash(hc, (uint32_t)(x < 0 ? -(int64_t)x : x));   /* abs without overflow */
    }
    out32("constant ops", hc);

    /* Mixed-width promotion: unsigned short * unsigned short promotes to int;
     * keep it in range to stay defined. */
    unsigned short s1 = (unsigned short)opq32(40000), s2 = (unsigned short)opq32(50000);
    out32("ushort*ushort", (uint32_t)s1 * s2);
    signed char c1 = (signed char)opq32(0xff);
    outd("schar*100", c1 * 100);
    return finish();
}
