/* 04_compare: every comparison, signed and unsigned, 32 and 64 bit, as a value
 * (SCC: `s<cc>` after `sub.f`), as a branch (b<cc>) and as a select (sel.<cc>).
 * The condition codes of lanai-isa.md §3 are all reached, including the
 * carry = NOT borrow convention for unsigned and the 64-bit compare sequences. */
#include "tests/isa/progs/prog.h"

static const int32_t v32[] = { 0, 1, -1, 2, -2, INT32_MAX, INT32_MIN, 0x10000, -0x10000, 0x7ffffffe };
static const int64_t v64[] = { 0, 1, -1, 0xffffffffLL, 0x100000000LL, -0x100000000LL,
                               INT64_MAX, INT64_MIN, 0x7fffffff80000000LL, -0xffffffffLL };

/* Six relations packed into bits, computed as values. */
static __attribute__((noinline)) uint32_t rel_s32(int32_t a, int32_t b)
{
    return (uint32_t)(a < b) | (a <= b) << 1 | (a > b) << 2 | (a >= b) << 3 |
           (a == b) << 4 | (a != b) << 5;
}
static __attribute__((noinline)) uint32_t rel_u32(uint32_t a, uint32_t b)
{
    return (uint32_t)(a < b) | (a <= b) << 1 | (a > b) << 2 | (a >= b) << 3 |
           (a == b) << 4 | (a != b) << 5;
}
static __attribute__((noinline)) uint32_t rel_s64(int64_t a, int64_t b)
{
    return (uint32_t)(a < b) | (a <= b) << 1 | (a > b) << 2 | (a >= b) << 3 |
           (a == b) << 4 | (a != b) << 5;
}
static __attribute__((noinline)) uint32_t rel_u64(uint64_t a, uint64_t b)
{
    return (uint32_t)(a < b) | (a <= b) << 1 | (a > b) << 2 | (a >= b) << 3 |
           (a == b) << 4 | (a != b) << 5;
}

/* The same relations as branches. */
static __attribute__((noinline)) uint32_t br_s32(int32_t a, int32_t b)
{
    uint32_t r = 0;
    if (a < b) r |= 1;
    if (a <= b) r |= 2;
    if (a > b) r |= 4;
    if (a >= b) r |= 8;
    if (a == b) r |= 16;
    if (a != b) r |= 32;
    return r;
}
static __attribute__((noinline)) uint32_t br_u64(uint64_t a, uint64_t b)
{
    uint32_t r = 0;
    if (a < b) r |= 1;
    if (a <= b) r |= 2;
    if (a > b) r |= 4;
    if (a >= b) r |= 8;
    if (a == b) r |= 16;
    if (a != b) r |= 32;
    return r;
}

/* Selects: min/max are the classic if-conversion candidates. */
static __attribute__((noinline)) uint32_t sel32(int32_t a, int32_t b)
{
    int32_t mn = a < b ? a : b, mx = a > b ? a : b;
    uint32_t umn = (uint32_t)a < (uint32_t)b ? (uint32_t)a : (uint32_t)b;
    return (uint32_t)mn * 3u + (uint32_t)mx * 5u + umn * 7u;
}
static __attribute__((noinline)) uint64_t sel64(int64_t a, int64_t b)
{
    int64_t mn = a < b ? a : b;
    uint64_t umx = (uint64_t)a > (uint64_t)b ? (uint64_t)a : (uint64_t)b;
    return (uint64_t)mn ^ (umx << 1);
}

/* Comparisons against constants use the immediate forms. */
static __attribute__((noinline)) uint32_t consts(int32_t a)
{
    uint32_t u = (uint32_t)a;
    return (uint32_t)(a < 0) | (a > 100) << 1 | (a <= -100) << 2 | (u > 0xfffeu) << 3 |
           (u < 0x10000u) << 4 | (a == 0x12345678) << 5 | (u >= 0x80000000u) << 6 |
           (a != -1) << 7 | (a > -1) << 8 | (u <= 65535u) << 9;
}

int main(void)
{
    uint32_t h32 = 0, hb = 0, hsel = 0;
    for (int i = 0; i < COUNT_OF(v32); i++)
        for (int j = 0; j < COUNT_OF(v32); j++) {
            int32_t a = v32[i], b = v32[j];
            uint32_t rs = rel_s32(a, b), ru = rel_u32((uint32_t)a, (uint32_t)b);
            if (rs != br_s32(a, b))
                put_str("branch/value mismatch s32\n");
            h32 = h32 * 64u + (rs ^ ru << 6);
            hsel = hsel * 31u + sel32(a, b);
        }
    uint64_t h64 = 0, hsel64 = 0;
    for (int i = 0; i < COUNT_OF(v64); i++)
        for (int j = 0; j < COUNT_OF(v64); j++) {
            int64_t a = v64[i], b = v64[j];
            uint32_t rs = rel_s64(a, b), ru = rel_u64((uint64_t)a, (uint64_t)b);
            if (ru != br_u64((uint64_t)a, (uint64_t)b))
                put_str("branch/value mismatch u64\n");
            h64 = h64 * 4096u + (rs ^ ru << 6);
            hb = hb * 7u + (uint32_t)i * 16u + rs;
            hsel64 = hsel64 * 33u + sel64(a, b);
        }
    out32("rel32", h32);
    out32("sel32", hsel);
    out64("rel64", h64);
    out32("rel64b", hb);
    out64("sel64", hsel64);
    uint32_t hc = 0;
    for (int i = 0; i < COUNT_OF(v32); i++)
        hc = hc * 1024u + consts(v32[i]);
    hc = hc * 1024u + consts(0x12345678) + consts(100) * 3u + consts(-100) * 5u;
    out32("const compares", hc);
    /* Two specific readable ones. */
    outd("-1 < 1 signed", (int32_t)opq32((uint32_t)-1) < (int32_t)opq32(1));
    outd("-1 < 1 unsigned", opq32((uint32_t)-1) < opq32(1));
    return finish();
}
