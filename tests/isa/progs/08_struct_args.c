/* 08_struct_args: aggregates and scalars passed by value (lanai-isa.md §9.1):
 * small structs in r6/r7/r18/r19 as big-endian words (3-byte, 2-short, 8- and
 * 16-byte), structs that no longer fit in the remaining registers, large structs
 * passed by reference to a caller-made copy (inline copy or memcpy), a callee
 * that modifies its copy, 64-bit scalars split over registers and stack,
 * and functions with many stack arguments. */
#include "tests/isa/progs/prog.h"

struct c3 { signed char a, b, c; };
struct s2 { short x; unsigned short y; };
struct w2 { int32_t a; uint32_t b; };
struct w4 { int32_t a, b, c, d; };
struct w5 { uint32_t v[5]; };
struct big { uint32_t v[17]; unsigned char tail[3]; };     /* > 16 words: memcpy */
struct bytes17 { unsigned char b[17]; };
struct q { uint64_t x; int32_t y; };

#define NI __attribute__((noinline))

NI int32_t f_c3(struct c3 s) { return s.a * 10000 + s.b * 100 + s.c; }
NI int32_t f_s2(struct s2 s) { return s.x * 65536 + s.y; }
NI uint32_t f_w2(struct w2 s, int32_t k) { return (uint32_t)s.a * 3u + s.b + (uint32_t)k; }
NI uint32_t f_w4(struct w4 s) { return (uint32_t)(s.a - s.b) * 7u + (uint32_t)(s.c ^ s.d); }
/* One int first: the 16-byte struct no longer fits in three registers. */
NI uint32_t f_i_w4(int32_t k, struct w4 s, int32_t after)
{
    return (uint32_t)k * 1000u + (uint32_t)s.a + (uint32_t)s.d * 3u + (uint32_t)after * 17u;
}
NI uint32_t f_w5(struct w5 s)
{
    uint32_t h = 0;
    for (int i = 0; i < 5; i++) h = h * 31u + s.v[i];
    s.v[0] = 0xdeadu;           /* modifies the callee's copy only */
    return h + s.v[0];
}
NI uint32_t f_big(int32_t a, struct big s, int32_t b)
{
    uint32_t h = (uint32_t)a;
    for (int i = 0; i < 17; i++) h = h * 131u + s.v[i];
    for (int i = 0; i < 3; i++) h = h * 131u + s.tail[i];
    for (int i = 0; i < 17; i++) s.v[i] = 0;    /* caller's copy must survive */
    return h ^ (uint32_t)b;
}
NI uint32_t f_bytes17(struct bytes17 s, struct bytes17 t)
{
    uint32_t h = 0;
    for (int i = 0; i < 17; i++) h = h * 257u + (uint32_t)(s.b[i] ^ t.b[16 - i]);
    return h;
}
NI uint64_t f_q(struct q s, int32_t z) { return s.x + (uint64_t)(int64_t)s.y * 3u + (uint64_t)(int64_t)z; }

/* 64-bit scalars: three ints use r6, r7, r18; the 64-bit value does not fit in
 * r19 alone, so it and everything after it go on the stack. */
NI uint64_t f_iii_ll_i(int32_t a, int32_t b, int32_t c, uint64_t d, int32_t e)
{
    return d * 3u + (uint64_t)(uint32_t)a + ((uint64_t)(uint32_t)b << 8) + ((uint64_t)(uint32_t)c << 16) +
           ((uint64_t)(uint32_t)e << 40);
}
NI uint64_t f_ll_ll(uint64_t a, uint64_t b) { return (a ^ b) + (a >> 3); }
NI uint64_t f_i_ll_ll(int32_t k, uint64_t a, uint64_t b) { return a * (uint32_t)k - b; }

/* Many arguments: everything after the fourth word is on the stack. */
NI uint32_t f_many(int32_t a, int32_t b, int32_t c, int32_t d, int32_t e, int32_t f,
                          signed char g, unsigned short h, int32_t i, uint64_t j, int32_t k, struct c3 l)
{
    uint32_t r = (uint32_t)a;
    r = r * 3u + (uint32_t)b;
    r = r * 3u + (uint32_t)c;
    r = r * 3u + (uint32_t)d;
    r = r * 3u + (uint32_t)e;
    r = r * 3u + (uint32_t)f;
    r = r * 3u + (uint32_t)g;
    r = r * 3u + h;
    r = r * 3u + (uint32_t)i;
    r = r * 3u + (uint32_t)(j >> 32) + (uint32_t)j;
    r = r * 3u + (uint32_t)k;
    r = r * 3u + (uint32_t)(l.a + l.b + l.c);
    return r;
}

int main(void)
{
    struct c3 c = { -1, 2, -3 };
    struct s2 s = { -2, 0xfffe };
    struct w2 w = { -5, 0x80000000u };
    struct w4 x = { 1, -2, 0x7f00ff00, 0x0ff0f00f };
    struct w5 y = { { 1, 2, 3, 4, 5 } };
    struct big b;
    for (int i = 0; i < 17; i++) b.v[i] = (uint32_t)i * 0x01010101u;
    b.tail[0] = 0xfa; b.tail[1] = 0xfb; b.tail[2] = 0xfc;
    struct bytes17 p, q;
    for (int i = 0; i < 17; i++) { p.b[i] = (unsigned char)(i * 13); q.b[i] = (unsigned char)(255 - i * 7); }
    struct q qq = { 0x0123456789abcdefULL, -77 };

    outd("c3", f_c3(c));
    outd("s2", f_s2(s));
    out32("w2", f_w2(w, 9));
    out32("w4", f_w4(x));
    out32("i,w4,i", f_i_w4(3, x, -1));
    out32("w5", f_w5(y));
    outd("w5 caller copy", (int32_t)y.v[0]);
    out32("big", f_big(7, b, 0x5555));
    out32("big caller copy", b.v[16]);
    out32("bytes17", f_bytes17(p, q));
    out64("q", f_q(qq, -1));
    out64("iii,ll,i", f_iii_ll_i(1, 2, 3, 0x1000000000000001ULL, 0x44));
    out64("ll,ll", f_ll_ll(0xffffffff00000000ULL, 0x00000000ffffffffULL));
    out64("i,ll,ll", f_i_ll_ll(5, 0x100000000ULL, 1));
    out32("many", f_many(1, -2, 3, -4, 5, -6, -7, 65535, 9, 0xa0000000bULL, 12, c));

    /* Passing through a function pointer must give the same results. */
    uint32_t (*fp)(int32_t, struct w4, int32_t) = f_i_w4;
    fp = (uint32_t (*)(int32_t, struct w4, int32_t))opq64((uint64_t)(uintptr_t)fp);
    out32("via pointer", fp(4, x, 2));
    return finish();
}
