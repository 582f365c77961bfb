/* 21_hash: CRC-32 (bitwise, and with a 256-entry table built at run time and
 * a const 16-entry nibble table), FNV-1a 32 and 64, Adler-32, a Murmur3-style
 * finaliser and Jenkins one-at-a-time, over fixed strings and generated data.
 * All byte-oriented, so identical on big- and little-endian targets. Known
 * values (CRC-32 of "123456789" is cbf43926) are checked. */
#include "tests/isa/progs/prog.h"

static uint32_t crc_table[256];

static void crc_init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
        crc_table[i] = c;
    }
}
static uint32_t crc32_table(const unsigned char *p, int n)
{
    uint32_t c = 0xffffffffu;
    for (int i = 0; i < n; i++) c = crc_table[(c ^ p[i]) & 0xff] ^ (c >> 8);
    return ~c;
}
static uint32_t crc32_bitwise(const unsigned char *p, int n)
{
    uint32_t c = 0xffffffffu;
    for (int i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1)));
    }
    return ~c;
}
static const uint32_t nibble_tab[16] = {
    0x00000000u, 0x1db71064u, 0x3b6e20c8u, 0x26d930acu, 0x76dc4190u, 0x6b6b51f4u, 0x4db26158u, 0x5005713cu,
    0xedb88320u, 0xf00f9344u, 0xd6d6a3e8u, 0xcb61b38cu, 0x9b64c2b0u, 0x86d3d2d4u, 0xa00ae278u, 0xbdbdf21cu,
};
static uint32_t crc32_nibble(const unsigned char *p, int n)
{
    uint32_t c = 0xffffffffu;
    for (int i = 0; i < n; i++) {
        c ^= p[i];
        c = nibble_tab[c & 15] ^ (c >> 4);
        c = nibble_tab[c & 15] ^ (c >> 4);
    }
    return ~c;
}
static uint32_t fnv1a32(const unsigned char *p, int n)
{
    uint32_t h = 2166136261u;
    for (int i = 0; i < n; i++) h = (h ^ p[i]) * 16777619u;
    return h;
}
static uint64_t fnv1a64(const unsigned char *p, int n)
{
    uint64_t h = 14695981039346656037ULL;
    for (int i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ULL;
    return h;
}
static uint32_t adler32(const unsigned char *p, int n)
{
    uint32_t a = 1, b = 0;
    for (int i = 0; i < n; i++) { a = (a + p[i]) % 65521u; b = (b + a) % 65521u; }
    return b << 16 | a;
}
static uint32_t fmix32(uint32_t h)
{
    h ^= h >> 16; h *= 0x85ebca6bu; h ^= h >> 13; h *= 0xc2b2ae35u; h ^= h >> 16;
    return h;
}
static uint32_t oaat(const unsigned char *p, int n)
{
    uint32_t h = 0;
    for (int i = 0; i < n; i++) { h += p[i]; h += h << 10; h ^= h >> 6; }
    h += h << 3; h ^= h >> 11; h += h << 15;
    return h;
}

int main(void)
{
    crc_init();
    const unsigned char *check = (const unsigned char *)"123456789";
    out32("crc32 table", crc32_table(check, 9));
    out32("crc32 bitwise", crc32_bitwise(check, 9));
    out32("crc32 nibble", crc32_nibble(check, 9));
    outd("crc32 known value ok", crc32_table(check, 9) == 0xcbf43926u);
    out32("fnv1a32", fnv1a32(check, 9));
    out64("fnv1a64", fnv1a64(check, 9));
    out32("adler32", adler32(check, 9));
    out32("oaat", oaat(check, 9));
    const unsigned char *fox = (const unsigned char *)"The quick brown fox jumps over the lazy dog";
    out32("crc32 fox", crc32_table(fox, 43));
    out32("adler32 fox", adler32(fox, 43));

    static unsigned char data[1024];
    uint32_t x = 12345;
    for (int i = 0; i < 1024; i++) { x = x * 1103515245u + 12345u; data[i] = (unsigned char)(x >> 16); }
    uint32_t t = crc32_table(data, 1024);
    out32("crc32 data", t);
    outd("bitwise agrees", crc32_bitwise(data, 256) == crc32_table(data, 256));
    outd("nibble agrees", crc32_nibble(data, 1024) == t);
    out32("fnv1a32 data", fnv1a32(data, 1024));
    out64("fnv1a64 data", fnv1a64(data, 512));
    out32("adler32 data", adler32(data, 512));
    uint32_t m = 0;
    for (uint32_t i = 0; i < 64; i++) m ^= fmix32(i * 0x9e3779b9u);
    out32("fmix32", m);
    return finish();
}
