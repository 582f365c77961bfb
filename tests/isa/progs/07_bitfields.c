/* 07_bitfields: signed and unsigned bit-fields of various widths, fields that
 * straddle bytes and half-words, 1-bit flags, read-modify-write of adjacent
 * fields, and wrap-around on assignment. Only field values are printed, never
 * the containing memory (bit-field layout differs between big- and
 * little-endian ABIs). */
#include "tests/isa/progs/prog.h"

struct regs {
    unsigned int en : 1;
    unsigned int mode : 3;
    signed int delta : 5;
    unsigned int count : 12;
    signed int big : 11;
    unsigned char tag : 7;
    unsigned char flag : 1;
    unsigned short hw : 10;
    signed short shw : 6;
};

struct wide {
    uint32_t lo : 20;
    uint32_t mid : 20;      /* does not fit after lo: starts a new unit */
    uint64_t top : 40;
    int64_t stop : 24;
};

static __attribute__((noinline)) uint32_t pack(const struct regs *r)
{
    /* Combine the values (not the storage) into one word. */
    return (uint32_t)r->en | (uint32_t)r->mode << 1 | ((uint32_t)r->delta & 31u) << 4 |
           (uint32_t)r->count << 9 | ((uint32_t)r->big & 0x7ffu) << 21;
}

static __attribute__((noinline)) void step(struct regs *r, int i)
{
    r->en = !r->en;
    r->mode = (unsigned)(r->mode + 3) & 7u;         /* explicit modular update */
    r->delta = (signed int)((r->delta + 20) % 32 - 16); /* stays within -16..15 */
    r->count += (unsigned)i * 97u;                   /* unsigned field wraps modulo 4096 */
    r->big = (signed int)(i * 37 % 2048 - 1024);
    r->tag = (unsigned char)(r->tag + 5);
    r->flag ^= 1;
    r->hw = (unsigned short)(r->hw * 3u + 1u);
    r->shw = (signed short)(i % 64 - 32);
}

int main(void)
{
    struct regs r;
    memset(&r, 0, sizeof r);
    uint32_t h = 0;
    for (int i = 0; i < 300; i++) {
        step(&r, i);
        h = h * 31u + pack(&r);
        h = h * 31u + r.tag + (uint32_t)r.flag * 128u + (uint32_t)r.hw * 256u + (uint32_t)r.shw * 0x40000u;
    }
    out32("regs hash", h);
    outd("en", r.en);
    outd("mode", r.mode);
    outd("delta", r.delta);
    outd("count", r.count);
    outd("big", r.big);
    outd("tag", r.tag);
    outd("flag", r.flag);
    outd("hw", r.hw);
    outd("shw", r.shw);

    /* Sign extension on read of a signed field. */
    struct regs s;
    memset(&s, 0, sizeof s);
    s.delta = -16;
    s.big = -1;
    s.shw = -32;
    outd("delta min", s.delta);
    outd("big -1", s.big);
    outd("shw min", s.shw);
    outd("neighbours untouched", s.en + s.mode + s.count);

    /* Wide fields, including 64-bit ones. */
    struct wide w;
    memset(&w, 0, sizeof w);
    w.lo = 0xfffffu;
    w.mid = 0x12345u;
    w.top = 0xabcdef0123ULL;
    w.stop = -0x123456;
    w.lo += 2;                      /* wraps to 1 */
    w.top <<= 4;                    /* truncates to 40 bits on store */
    out32("w.lo", w.lo);
    out32("w.mid", w.mid);
    out64("w.top", w.top);
    out64("w.stop", (uint64_t)(int64_t)w.stop);
    return finish();
}
