/* 02_arith64: 64-bit + - * / % and shifts, signed and unsigned.
 * Covers __muldi3, __divdi3, __udivdi3, __moddi3, __umoddi3, __ashrdi3 and the
 * inline add/sub with carry (lanai-isa.md §11), including divisors above 2^32,
 * negative operands and the extremes. */
#include "tests/isa/progs/prog.h"

/* 12 values: 144 pairs x 4 software divisions (~2000 LANai instructions
 * each) keeps the run near 1.5 M instructions. */
static const int64_t vals[] = {
    0, 1, -1, -7, 0x80000000LL, 0xffffffffLL, 0x100000000LL, 0x100000001LL,
    -0x100000000LL, 0x123456789abcdef0LL, INT64_MAX, INT64_MIN,
};

static int64_t wadd(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static int64_t wmul(int64_t a, int64_t b) { return (int64_t)((uint64_t)a * (uint64_t)b); }

static __attribute__((noinline)) int64_t sdiv(int64_t a, int64_t b) { return a / b; }
static __attribute__((noinline)) int64_t smod(int64_t a, int64_t b) { return a % b; }
static __attribute__((noinline)) uint64_t udiv(uint64_t a, uint64_t b) { return a / b; }
static __attribute__((noinline)) uint64_t umod(uint64_t a, uint64_t b) { return a % b; }

/* Multiply-free on purpose: a 64-bit multiply here would be a __muldi3 call
 * per value and dominate the run time. */
static uint64_t mix(uint64_t h, uint64_t v)
{
    h = (h << 7 | h >> 57) ^ v;
    return h + (h << 3) + (h >> 29);
}

int main(void)
{
    int n = COUNT_OF(vals);
    uint64_t hadd = 1, hsub = 2, hmul = 3, hdiv = 4, hmod = 5, hudiv = 6, humod = 7;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            int64_t a = (int64_t)opq64((uint64_t)vals[i]);
            int64_t b = (int64_t)opq64((uint64_t)vals[j]);
            hadd = mix(hadd, (uint64_t)a + (uint64_t)b);
            hsub = mix(hsub, (uint64_t)a - (uint64_t)b);
            hmul = mix(hmul, (uint64_t)a * (uint64_t)b);
            if (b == 0)
                continue;
            hudiv = mix(hudiv, udiv((uint64_t)a, (uint64_t)b));
            humod = mix(humod, umod((uint64_t)a, (uint64_t)b));
            if (a == INT64_MIN && b == -1)
                continue;   /* overflow: undefined */
            int64_t q = sdiv(a, b), r = smod(a, b);
            if (wadd(wmul(q, b), r) != a)
                put_str("identity broken\n");
            hdiv = mix(hdiv, (uint64_t)q);
            hmod = mix(hmod, (uint64_t)r);
        }
    }
    out64("add", hadd);
    out64("sub", hsub);
    out64("mul", hmul);
    out64("sdiv", hdiv);
    out64("smod", hmod);
    out64("udiv", hudiv);
    out64("umod", humod);

    /* Readable edge cases. */
    int64_t big = (int64_t)opq64(0x123456789abcdef0ULL);
    put_str("big/-1000 "); put_dec64(big / (int64_t)opq64((uint64_t)-1000)); put_nl();
    put_str("-big%1000 "); put_dec64(-big % (int64_t)opq64(1000)); put_nl();
    put_str("max/1 "); put_dec64(INT64_MAX / (int64_t)opq64(1)); put_nl();
    put_str("max/-1 "); put_dec64(INT64_MAX / (int64_t)opq64((uint64_t)-1)); put_nl();
    put_str("min/3 "); put_dec64(INT64_MIN / (int64_t)opq64(3)); put_nl();
    put_str("umax "); put_udec64(opq64(~0ULL)); put_nl();
    out64("umax/0x100000000", opq64(~0ULL) / opq64(0x100000000ULL));
    out64("umax/0x1fffffffff", opq64(~0ULL) / opq64(0x1fffffffffULL));
    out64("umax%0xfffffffb", opq64(~0ULL) % opq64(0xfffffffbULL));
    out64("umax/umax-1", opq64(~0ULL) / opq64(~0ULL - 1));
    out64("2^63/(2^32+1)", opq64(1ULL << 63) / opq64(0x100000001ULL));
    /* Constant divisors and multipliers. */
    uint64_t u = opq64(0xfedcba9876543210ULL);
    out64("u/10", u / 10);
    out64("u%10", u % 10);
    out64("u/1e9", u / 1000000000u);
    out64("u*1e9", u * 1000000000u);
    out64("s/7", (uint64_t)((int64_t)u / 7));
    out64("s%7", (uint64_t)((int64_t)u % 7));
    out64("s/-0x10000000000", (uint64_t)((int64_t)u / -0x10000000000LL));
    out64("s/8", (uint64_t)((int64_t)u / 8));

    /* Shifts by every legal amount, variable (libcall or inline sequence)
     * and the sign-extending right shift (__ashrdi3). */
    uint64_t hs = 0;
    for (int s = 0; s < 64; s++) {
        int sh = (int)opq32((uint32_t)s);
        uint64_t x = opq64(0x8123456789abcdefULL);
        int64_t y = (int64_t)x;
        hs = mix(hs, x << sh);
        hs = mix(hs, x >> sh);
        hs = mix(hs, (uint64_t)(y >> sh));          /* arithmetic on gcc/clang */
        hs = mix(hs, (uint64_t)((int64_t)0x7edcba9876543210LL >> sh));
    }
    out64("shifts", hs);
    /* Constant shift amounts around the word boundary. */
    uint64_t c = opq64(0x8000000180000001ULL);
    int64_t sc = (int64_t)c;
    out64("<<1", c << 1);
    out64("<<31", c << 31);
    out64("<<32", c << 32);
    out64("<<33", c << 33);
    out64(">>31", c >> 31);
    out64(">>32", c >> 32);
    out64(">>33", c >> 33);
    out64("s>>1", (uint64_t)(sc >> 1));
    out64("s>>32", (uint64_t)(sc >> 32));
    out64("s>>63", (uint64_t)(sc >> 63));

    /* Widening and narrowing conversions. */
    int32_t m = (int32_t)opq32(0x80000000u);
    out64("sext", (uint64_t)(int64_t)m);
    out64("zext", (uint64_t)(uint32_t)m);
    out64("mul32x32", (uint64_t)((int64_t)m * (int64_t)(int32_t)opq32(0x7fffffff)));
    out64("umul32x32", (uint64_t)opq32(0xffffffffu) * opq32(0xfffffffeu));
    out32("trunc", (uint32_t)opq64(0x1122334455667788ULL));
    out64("neg", 0 - opq64(1));
    return finish();
}
