/* 05_bitops: count-leading/trailing-zeros, popcount (LANai leadz/trailz/popc,
 * lanai-isa.md §5.12), byte swaps, rotates and classic bit tricks, on 32- and
 * 64-bit values. __builtin_clz/ctz are undefined for 0, so 0 is guarded. */
#include "tests/isa/progs/prog.h"

static uint32_t rotl32(uint32_t x, unsigned n) { n &= 31; return n ? (x << n) | (x >> (32 - n)) : x; }
static uint32_t rotr32(uint32_t x, unsigned n) { return (x >> (n & 31)) | (x << ((32 - n) & 31)); }
static uint64_t rotl64(uint64_t x, unsigned n) { n &= 63; return n ? (x << n) | (x >> (64 - n)) : x; }

static uint32_t slow_popc(uint32_t x) { uint32_t c = 0; while (x) { c += x & 1; x >>= 1; } return c; }

static uint32_t rev_bits(uint32_t x)
{
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    return __builtin_bswap32(x);
}

int main(void)
{
    uint32_t h = 0;
    uint64_t h64 = 0;
    uint32_t x = 1;
    for (int i = 0; i < 200; i++) {
        /* Vary the number of set bits widely. */
        x = x * 1664525u + 1013904223u;
        uint32_t v = (i & 3) == 0 ? x : (i & 3) == 1 ? x >> (i % 31) : (i & 3) == 2 ? x & (x << 7) : (x << (i % 32));
        uint32_t clz = v ? (uint32_t)__builtin_clz(v) : 32u;
        uint32_t ctz = v ? (uint32_t)__builtin_ctz(v) : 32u;
        uint32_t pc = (uint32_t)__builtin_popcount(v);
        if (pc != slow_popc(v))
            put_str("popcount mismatch\n");
        h = h * 131u + (clz | ctz << 8 | pc << 16);
        h ^= __builtin_bswap32(v) + rotl32(v, (unsigned)i) + rotr32(v, (unsigned)i * 7u);
        h += (uint32_t)__builtin_ffs((int)v) + (uint32_t)__builtin_parity(v) * 0x100u;
        h += (uint32_t)__builtin_clrsb((int)v) << 20;
        uint64_t w = (uint64_t)v << (i % 33) ^ (uint64_t)x * 0x9e3779b97f4a7c15ULL;
        uint32_t clz64 = w ? (uint32_t)__builtin_clzll(w) : 64u;
        uint32_t ctz64 = w ? (uint32_t)__builtin_ctzll(w) : 64u;
        h64 = h64 * 0x100000001b3ULL + (clz64 | ctz64 << 8 | (uint32_t)__builtin_popcountll(w) << 16);
        h64 ^= __builtin_bswap64(w) + rotl64(w, (unsigned)i);
    }
    out32("mix32", h);
    out64("mix64", h64);
    uint32_t k = opq32(0x00f0a500u);
    outd("clz", __builtin_clz(k));
    outd("ctz", __builtin_ctz(k));
    outd("popcount", __builtin_popcount(k));
    outd("clz(1)", __builtin_clz(opq32(1)));
    outd("ctz(0x80000000)", __builtin_ctz(opq32(0x80000000u)));
    outd("clzll(1)", __builtin_clzll(opq64(1)));
    outd("ctzll(2^40)", __builtin_ctzll(opq64(1ULL << 40)));
    out32("bswap16", __builtin_bswap16((uint16_t)opq32(0xabcd)));
    out32("bswap32", __builtin_bswap32(opq32(0x11223344u)));
    out64("bswap64", __builtin_bswap64(opq64(0x0102030405060708ULL)));
    out32("rotl 8", rotl32(k, 8));
    out32("rotr 12", rotr32(k, 12));
    out32("revbits", rev_bits(opq32(0x00000001u)));
    out32("revbits2", rev_bits(opq32(0x12345678u)));
    /* Bit tricks. */
    uint32_t t = opq32(0x0000b600u);
    out32("lowest set", t & (0u - t));
    out32("clear lowest", t & (t - 1));
    out32("next pow2", 1u << (32 - __builtin_clz(t - 1)));
    out32("is pow2 4096", (opq32(4096) & (opq32(4096) - 1)) == 0);
    int32_t neg = (int32_t)opq32((uint32_t)-12345);
    int32_t mask = neg >> 31;
    outd("branchless abs", (int32_t)(((uint32_t)neg ^ (uint32_t)mask) - (uint32_t)mask));
    outd("sign", (neg > 0) - (neg < 0));
    return finish();
}
