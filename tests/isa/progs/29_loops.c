/* 29_loops: loop shapes and array walks: sieve of Eratosthenes, count-down
 * and count-up loops with unsigned and signed induction variables, do-while,
 * break/continue, strided and reversed walks, loops that LLVM unrolls,
 * rotates or turns into memset/memcpy idioms at -O2/-O3, a loop whose
 * unsigned counter wraps, and nested loops over byte arrays. */
#include "tests/isa/progs/prog.h"

#define NP 2000
static uint8_t composite[NP + 1];
static uint32_t arr[256];
static uint8_t bytes[300];

int main(void)
{
    /* Sieve. */
    for (int i = 2; i * i <= NP; i++)
        if (!composite[i])
            for (int j = i * i; j <= NP; j += i) composite[j] = 1;
    int32_t count = 0, last = 0;
    uint32_t ph = 0;
    for (int i = 2; i <= NP; i++)
        if (!composite[i]) { count++; last = i; ph = ph * 31u + (uint32_t)i; }
    outd("primes <= 2000", count);
    outd("largest", last);
    out32("prime hash", ph);

    /* Idiom loops (may become memset/memcpy calls). */
    for (int i = 0; i < 256; i++) arr[i] = 0;
    for (int i = 0; i < 300; i++) bytes[i] = 0x5a;
    for (int i = 0; i < 128; i++) arr[i + 128] = arr[i] + (uint32_t)i;
    uint32_t s = 0;
    for (int i = 0; i < 256; i++) s += arr[i];
    for (int i = 0; i < 300; i++) s += bytes[i];
    outd("idioms", (int32_t)s);

    /* Count down with an unsigned counter (stops at 0, no wrap). */
    uint32_t down = 0;
    for (uint32_t u = 100; u-- > 0;) down = down * 3u + u;
    out32("countdown", down);
    /* Counter that wraps: from 0xfffffff0 for 32 steps. */
    uint32_t wrapsum = 0;
    uint32_t u = opq32(0xfffffff0u);
    for (int k = 0; k < 32; k++, u++) wrapsum ^= u * 2654435761u;
    out32("wrap", wrapsum);
    /* do-while runs at least once. */
    int32_t dw = 0, k = (int32_t)opq32(0);
    do { dw += 7; } while (k-- > 0);
    outd("do-while", dw);
    /* break / continue. */
    int32_t bc = 0;
    for (int i = 0; i < 1000; i++) {
        if (i % 3 == 0) continue;
        if (i * i > 5000) break;
        bc += i;
    }
    outd("break/continue", bc);
    /* Strided and reverse walks over a 2-D view of bytes. */
    for (int i = 0; i < 300; i++) bytes[i] = (uint8_t)(i * 13 + 1);
    uint32_t st = 0;
    for (int i = 299; i >= 0; i -= 7) st = st * 33u + bytes[i];
    for (int i = 0; i < 300; i += 25) st = st * 33u + bytes[i];
    out32("strided", st);
    /* Nested loops with a dependent bound (triangular). */
    uint32_t tri = 0;
    for (int i = 0; i < 40; i++)
        for (int j = 0; j <= i; j++) tri += (uint32_t)(i ^ j);
    outd("triangular", (int32_t)tri);
    /* Loop with two induction variables moving toward each other. */
    int32_t lo = 0, hi = 255, steps = 0;
    for (int i = 0; i < 256; i++) arr[i] = (uint32_t)i * 7u % 256u;
    while (lo < hi) {
        if (arr[lo] + arr[hi] > 255u) hi--; else lo++;
        steps++;
    }
    outd("two-pointer", lo * 1000 + steps);
    /* Collatz lengths: data-dependent trip counts. */
    uint32_t longest = 0, arg = 0;
    for (uint32_t n = 1; n < 300; n++) {
        uint32_t x = n, len = 1;
        while (x != 1) { x = x & 1 ? 3 * x + 1 : x >> 1; len++; }
        if (len > longest) { longest = len; arg = n; }
    }
    outd("collatz longest", (int32_t)longest);
    outd("collatz at", (int32_t)arg);
    return finish();
}
