/* 16_bigframe: frames too large for 16-bit displacements, alloca and VLAs.
 * A 48 KB and a 60 KB local array put locals beyond the signed 16-bit RM
 * displacement range, so LLVM materialises offsets in registers and uses
 * RR/RRM addressing (lanai-isa.md §9.4). Frames must stay below 64 KB:
 * clang 14's LANai prologue emits `sub %sp, <framesize>, %sp` as an RI
 * instruction and silently truncates the size to 16 bits, so an 80 KB frame
 * (0x14018) allocated only 0x4018 bytes and the callee's pushes landed
 * inside the array. alloca and VLAs move sp dynamically below the fixed
 * frame, with outgoing arguments kept below them. */
#include "tests/isa/progs/prog.h"

#define NI __attribute__((noinline))

NI uint32_t consume(const uint32_t *p, int n, uint32_t k)
{
    uint32_t h = k;
    for (int i = 0; i < n; i++) h = h * 31u + p[i];
    return h;
}

/* 48 KB array plus scalars on both sides of it in the frame. */
NI uint32_t big48(uint32_t seed)
{
    volatile uint32_t before = seed;
    uint32_t a[12288];
    volatile uint32_t after = ~seed;
    for (int i = 0; i < 12288; i++) a[i] = (uint32_t)i ^ seed;
    a[0] = before;
    a[12287] = after;
    /* Touch the far end through a pointer and via a call. */
    return consume(a, 8, 1) ^ consume(a + 12280, 8, 2) ^ a[6000] ^ before ^ after;
}

/* 60 KB frame (under the 64 KB limit above) with stack arguments in the call below it. */
NI uint32_t many(uint32_t a, uint32_t b, uint32_t c, uint32_t d, uint32_t e, uint32_t f)
{
    return a + b * 3u + c * 5u + d * 7u + e * 11u + f * 13u;
}
NI uint32_t big60(uint32_t seed)
{
    unsigned char b[61440];
    memset(b, (int)(seed & 0xff), sizeof b);
    for (int i = 0; i < 61440; i += 997) b[i] = (unsigned char)i;
    uint32_t s = 0;
    for (int i = 0; i < 61440; i += 64) s += b[i];
    return many(s, b[1], b[61439], b[40000], b[997 * 41], seed);
}

/* alloca in a loop: every block stays live until the function returns. */
NI uint32_t use_alloca(int n)
{
    uint32_t *blocks[8];
    uint32_t h = 0;
    for (int k = 0; k < n; k++) {
        int len = 16 + k * 40;
        uint32_t *p = __builtin_alloca((size_t)len * sizeof *p);
        for (int i = 0; i < len; i++) p[i] = (uint32_t)(k * 1000 + i);
        blocks[k] = p;
    }
    /* Everything allocated must still be intact. */
    for (int k = 0; k < n; k++) {
        int len = 16 + k * 40;
        h = consume(blocks[k], len, h);
        h += many(1, 2, 3, 4, 5, (uint32_t)k);   /* calls with stack args below the allocas */
    }
    return h;
}

/* VLA whose size changes on each loop iteration (freed at end of scope). */
NI uint32_t use_vla(int rounds)
{
    uint32_t h = 0;
    for (int r = 1; r <= rounds; r++) {
        int n = r * 37 % 500 + 1;
        unsigned char v[n];
        for (int i = 0; i < n; i++) v[i] = (unsigned char)(i * r);
        uint32_t s = 0;
        for (int i = 0; i < n; i++) s = s * 3u + v[i];
        h = h * 31u + s + (uint32_t)sizeof v;
    }
    return h;
}

/* 2D VLA. */
NI int32_t vla2d(int rows, int cols)
{
    int32_t m[rows][cols];
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) m[i][j] = i * cols - j;
    int32_t tr = 0;
    for (int i = 0; i < rows && i < cols; i++) tr += m[i][i];
    return tr + m[rows - 1][cols - 1];
}

int main(void)
{
    out32("big48", big48(opq32(0x1234u)));
    out32("big60", big60(opq32(0x5au)));
    out32("alloca", use_alloca((int)opq32(8)));
    out32("vla", use_vla((int)opq32(40)));
    outd("vla2d", vla2d((int)opq32(13), (int)opq32(17)));
    /* Again, to show the stack was restored correctly. */
    out32("big48 again", big48(opq32(0x1234u)));
    return finish();
}
