/* 31_abi64: 64-bit values and mixed arguments at the edges of the LANai
 * calling convention (lanai-isa.md §9.1/§9.2): a 64-bit argument as the
 * first, second or third register pair, one that would straddle r19 and the
 * stack (so it and all later arguments go on the stack), several 64-bit stack
 * arguments, structs containing 64-bit members, 64-bit results in rv:r9 from
 * functions with stack arguments, and calls through function pointers with
 * the same signatures. */
#include "tests/isa/progs/prog.h"

#define NI __attribute__((noinline))

NI uint64_t a_l(uint64_t a) { return a ^ (a >> 7); }
NI uint64_t a_il(int32_t x, uint64_t a) { return a + (uint64_t)(int64_t)x; }
NI uint64_t a_iil(int32_t x, int32_t y, uint64_t a) { return (a << 1) + (uint64_t)(int64_t)(x - y); }
NI uint64_t a_iiil(int32_t x, int32_t y, int32_t z, uint64_t a) { return a * 5u + (uint64_t)(uint32_t)(x ^ y ^ z); }
NI uint64_t a_iiili(int32_t x, int32_t y, int32_t z, uint64_t a, int32_t w)
{
    return (a - (uint64_t)(int64_t)w) ^ ((uint64_t)(uint32_t)x << 32 | (uint32_t)(y + z));
}
NI uint64_t a_llll(uint64_t a, uint64_t b, uint64_t c, uint64_t d) { return a + b * 3u + c * 5u + d * 7u; }
NI int64_t a_mixed(int8_t a, uint64_t b, int16_t c, int64_t d, uint8_t e, int32_t f, int64_t g)
{
    return (int64_t)((uint64_t)a + b + (uint64_t)c * 3u + (uint64_t)d * 5u + (uint64_t)e * 7u +
                     (uint64_t)f * 11u + (uint64_t)g * 13u);
}
struct s64 { uint64_t v; uint32_t tag; };          /* 16 bytes with padding */
struct s2x64 { int64_t a, b; };
NI uint64_t a_s64(struct s64 s) { return s.v + s.tag; }
NI uint64_t a_i_s64(int32_t k, struct s64 s) { return s.v * (uint32_t)k + s.tag; }   /* does not fit: by reference */
NI struct s2x64 r_s2x64(int64_t a, int64_t b) { struct s2x64 r = { a + b, a - b }; return r; }
NI int64_t neg64(int64_t a) { return -a; }
NI uint64_t ret_from_stack(int32_t a, int32_t b, int32_t c, int32_t d, int32_t e, uint64_t f)
{
    return f + (uint64_t)(uint32_t)(a + b + c + d + e);
}

int main(void)
{
    uint64_t big = opq64(0xf0e1d2c3b4a59687ULL);
    out64("l", a_l(big));
    out64("i,l", a_il(-1, big));
    out64("i,i,l", a_iil(5, 7, big));
    out64("i,i,i,l", a_iiil(1, 2, 4, big));
    out64("i,i,i,l,i", a_iiili(0x11, 0x22, 0x33, big, -2));
    out64("l,l,l,l", a_llll(big, ~big, big >> 1, 1));
    out64("mixed", (uint64_t)a_mixed(-1, big, -300, -5, 200, -7, INT64_MIN + 1));
    struct s64 s = { 0x1000000000000000ULL, 77 };
    out64("s64", a_s64(s));
    out64("i,s64", a_i_s64(3, s));
    struct s2x64 r = r_s2x64((int64_t)big, 12345);
    out64("ret.a", (uint64_t)r.a);
    out64("ret.b", (uint64_t)r.b);
    out64("neg", (uint64_t)neg64((int64_t)opq64(1)));
    out64("stack args", ret_from_stack(1, 2, 3, 4, 5, big));
    /* The same calls through pointers. */
    uint64_t (*f4)(int32_t, int32_t, int32_t, uint64_t, int32_t) = a_iiili;
    uint64_t (*fl)(uint64_t, uint64_t, uint64_t, uint64_t) = a_llll;
    out64("ptr i,i,i,l,i", f4(0x11, 0x22, 0x33, big, -2));
    out64("ptr l,l,l,l", fl(1, 2, 3, 4));
    /* Chained: results of one call feed the next's 64-bit arguments. */
    uint64_t c = 1;
    for (int i = 0; i < 20; i++) c = a_iiil(i, -i, i * i, a_il(i, c));
    out64("chain", c);
    return finish();
}
