/* 06_subword: byte and half-word loads and stores, signed and unsigned (LANai
 * SPLS/RRM forms, lanai-isa.md §5.4/5.5): sign and zero extension, truncating
 * stores, register+register and displacement addressing, packed (unaligned,
 * so bytewise) structs, and plain char, which is signed on both targets. */
#include "tests/isa/progs/prog.h"

static signed char sbuf[64];
static unsigned char ubuf[64];
static short shbuf[32];
static unsigned short ushbuf[32];

struct mixed {
    signed char a;
    unsigned char b;
    short c;
    unsigned short d;
    int32_t e;
    signed char f[3];
    unsigned char g;
};

struct __attribute__((packed)) packed {
    unsigned char tag;
    uint32_t word;      /* at offset 1: unaligned, must be accessed bytewise */
    int16_t half;       /* at offset 5 */
    uint64_t dword;     /* at offset 7 */
};

static __attribute__((noinline)) int32_t load_sb(const signed char *p, int i) { return p[i]; }
static __attribute__((noinline)) int32_t load_ub(const unsigned char *p, int i) { return p[i]; }
static __attribute__((noinline)) int32_t load_sh(const short *p, int i) { return p[i]; }
static __attribute__((noinline)) int32_t load_uh(const unsigned short *p, int i) { return p[i]; }
static __attribute__((noinline)) void store_b(unsigned char *p, int i, uint32_t v) { p[i] = (unsigned char)v; }
static __attribute__((noinline)) void store_h(unsigned short *p, int i, uint32_t v) { p[i] = (unsigned short)v; }

int main(void)
{
    /* Fill with values that cover both signs and all high bits. */
    for (int i = 0; i < 64; i++) {
        uint32_t v = (uint32_t)i * 37u + 11u;
        sbuf[i] = (signed char)v;           /* modular conversion on both targets */
        store_b(ubuf, i, v ^ 0xa5u);
    }
    for (int i = 0; i < 32; i++) {
        uint32_t v = (uint32_t)i * 0x9e37u + 0x1234u;
        shbuf[i] = (short)v;
        store_h(ushbuf, i, ~v);
    }
    uint32_t h = 0;
    int32_t sum_s = 0, sum_u = 0;
    for (int i = 0; i < 64; i++) {
        int32_t s = load_sb(sbuf, i), u = load_ub(ubuf, i);
        sum_s += s;
        sum_u += u;
        h = h * 33u + (uint32_t)s;
        h = h * 33u + (uint32_t)u;
    }
    outd("sum signed bytes", sum_s);
    outd("sum unsigned bytes", sum_u);
    int32_t sum_sh = 0, sum_uh = 0;
    for (int i = 0; i < 32; i++) {
        int32_t s = load_sh(shbuf, i), u = load_uh(ushbuf, i);
        sum_sh += s;
        sum_uh += u;
        h = h * 33u + (uint32_t)s;
        h = h * 33u + (uint32_t)u;
    }
    outd("sum signed halves", sum_sh);
    outd("sum unsigned halves", sum_uh);
    out32("element hash", h);

    /* Extremes. */
    outd("sb[-128]", load_sb((const signed char *)"\x80", 0));
    outd("ub[0x80]", load_ub((const unsigned char *)"\x80", 0));
    volatile signed char vsc = (signed char)opq32(0x7f);
    vsc++;                              /* promoted to int 128, stored back modulo: -128 */
    outd("schar 127+1", vsc);
    volatile unsigned char vuc = (unsigned char)opq32(0xff);
    vuc++;
    outd("uchar 255+1", vuc);
    volatile short vs = (short)opq32(0x8000);
    outd("short 0x8000", vs);
    volatile unsigned short vus = (unsigned short)opq32(0xffffffffu);
    outd("ushort -1", vus);
    char pc = (char)opq32(0x80);
    outd("plain char 0x80 < 0", pc < 0);

    /* Struct members of every width, written and read back. */
    struct mixed m;
    memset(&m, 0, sizeof m);
    m.a = (signed char)opq32(0xf0);
    m.b = (unsigned char)opq32(0xf0);
    m.c = (short)opq32(0xfedc);
    m.d = (unsigned short)opq32(0xfedc);
    m.e = (int32_t)opq32(0x80000001u);
    m.f[0] = -1; m.f[1] = 2; m.f[2] = -3;
    m.g = 200;
    m.b += 0x20;                        /* wraps to 0x10 */
    m.c >>= 1;
    outd("m.a", m.a);
    outd("m.b", m.b);
    outd("m.c", m.c);
    outd("m.d", m.d);
    outd("m.e", m.e);
    outd("m.f sum", m.f[0] + m.f[1] + m.f[2]);
    outd("m.g", m.g);

    /* Packed struct: unaligned members. */
    static struct packed pk[3];
    for (int i = 0; i < 3; i++) {
        pk[i].tag = (unsigned char)(0xe0 + i);
        pk[i].word = 0x89abcdefu + (uint32_t)i;
        pk[i].half = (int16_t)(-300 * (i + 1));
        pk[i].dword = 0xfedcba9876543210ULL >> i;
    }
    uint32_t hp = 0;
    for (int i = 0; i < 3; i++) {
        struct packed *p = &pk[(int)opq32((uint32_t)i)];
        hp = hp * 65599u + p->tag;
        hp = hp * 65599u + p->word;
        hp = hp * 65599u + (uint32_t)p->half;
        hp = hp * 65599u + (uint32_t)(p->dword >> 3);
    }
    out32("packed", hp);
    outd("sizeof packed", (int32_t)sizeof(struct packed));

    /* Byte-wise assembly of a big-endian word: same on both targets because it
     * uses shifts, not memory layout. */
    static const unsigned char be[4] = { 0xca, 0xfe, 0xba, 0xbe };
    uint32_t w = (uint32_t)be[0] << 24 | (uint32_t)be[1] << 16 | (uint32_t)be[2] << 8 | be[3];
    out32("assembled", w);
    return finish();
}
