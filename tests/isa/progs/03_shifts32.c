/* 03_shifts32: 32-bit shifts by constants and by variables (LANai has one
 * signed-amount `sh`/`sha`; a variable right shift is a negate then shift,
 * lanai-isa.md §8), arithmetic vs logical, and shifts of narrow types after
 * promotion. */
#include "tests/isa/progs/prog.h"

static __attribute__((noinline)) uint32_t shl(uint32_t x, int n) { return x << n; }
static __attribute__((noinline)) uint32_t shr(uint32_t x, int n) { return x >> n; }
static __attribute__((noinline)) int32_t sar(int32_t x, int n) { return x >> n; }

int main(void)
{
    static const uint32_t xs[] = { 0, 1, 0x80000000u, 0xffffffffu, 0x12345678u,
                                   0x87654321u, 0x7fffffffu, 0x00010000u };
    uint32_t h = 0;
    for (int i = 0; i < COUNT_OF(xs); i++) {
        for (int n = 0; n < 32; n++) {
            uint32_t x = xs[i];
            uint32_t a = shl(x, n), b = shr(x, n);
            uint32_t c = (uint32_t)sar((int32_t)x, n);
            /* Inline variable shifts too, so both call and inline forms run. */
            int m = (int)opq32((uint32_t)n);
            uint32_t d = x << m, e = x >> m, f = (uint32_t)((int32_t)x >> m);
            if (a != d || b != e || c != f)
                put_str("inline/call mismatch\n");
            h = (h ^ a) * 31u + b;
            h = (h ^ c) * 37u;
        }
    }
    out32("variable shifts", h);

    uint32_t x = opq32(0xc0ffee11u);
    int32_t s = (int32_t)x;
    out32("x<<1", x << 1);
    out32("x<<4", x << 4);
    out32("x<<16", x << 16);
    out32("x<<31", x << 31);
    out32("x>>1", x >> 1);
    out32("x>>16", x >> 16);
    out32("x>>31", x >> 31);
    out32("s>>1", (uint32_t)(s >> 1));
    out32("s>>16", (uint32_t)(s >> 16));
    out32("s>>31", (uint32_t)(s >> 31));
    /* Narrow types promote to int before shifting. */
    unsigned char uc = (unsigned char)opq32(0x81);
    signed char sc = (signed char)opq32(0x81);
    unsigned short us = (unsigned short)opq32(0x8001);
    short ss = (short)opq32(0x8001);
    out32("uc<<4", (uint32_t)(uc << 4));
    out32("sc>>2", (uint32_t)(sc >> 2));
    out32("us<<8", (uint32_t)(us << 8));
    out32("ss>>4", (uint32_t)(ss >> 4));
    out32("(uint8)(uc<<1)", (uint8_t)(uc << 1));
    /* Shift-and-mask idioms used for field extraction and insertion. */
    uint32_t w = opq32(0xdeadbeefu);
    out32("field 13:7", (w >> 7) & 0x7fu);
    out32("insert", (w & ~(0xffu << 12)) | (0x5au << 12));
    out32("sext byte", (uint32_t)((int32_t)(w << 24) >> 24));
    out32("sext 12", (uint32_t)((int32_t)(w << 20) >> 20));
    return finish();
}
