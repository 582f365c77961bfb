/* 15_recursion: deep and branching recursion. Each call pushes rca and fp
 * (lanai-isa.md §7.2/§9.4) and, with no callee-saved registers (§9.3), spills
 * every live value, so deep recursion exercises the stack heavily: a 2000-deep
 * linear recursion, a 600-deep one with a 256-byte array in every frame,
 * mutual recursion, tree recursion (fib, Hanoi, Ackermann), and recursion
 * with many live values across the call. */
#include "tests/isa/progs/prog.h"

#define NI __attribute__((noinline))

/* Not a tail call, and deliberately not an associative accumulation either
 * (a rotate), so LLVM cannot turn it into a loop or a closed form: at -O2 a
 * plain `n + f(n - 1)` became a loop using __muldi3. */
NI uint32_t depth_sum(uint32_t n)
{
    if (n == 0) return 0;
    uint32_t r = depth_sum(n - 1);
    return (r << 1 | r >> 31) ^ (n * 3u);
}

NI uint32_t framed(int n, uint32_t seed)
{
    uint32_t local[64];
    for (int i = 0; i < 64; i++) local[i] = seed ^ ((uint32_t)i << 16 | (uint32_t)n);   /* no multiply: __mulsi3 at -O0 */
    if (n == 0) return local[63];
    uint32_t below = framed(n - 1, seed * 1103515245u + 12345u);
    /* The callee must not have disturbed this frame's array. */
    uint32_t h = below;
    for (int i = 0; i < 64; i += 7) h = h * 31u + local[i];
    return h;
}

NI int is_odd(uint32_t n);
NI int is_even(uint32_t n) { return n == 0 ? 1 : is_odd(n - 1); }
NI int is_odd(uint32_t n) { return n == 0 ? 0 : is_even(n - 1); }

NI uint32_t fib(uint32_t n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static uint32_t hanoi_hash, hanoi_moves;
NI void hanoi(int n, int from, int to, int via)
{
    if (n == 0) return;
    hanoi(n - 1, from, via, to);
    hanoi_moves++;
    hanoi_hash = (hanoi_hash ^ (uint32_t)(n * 16 + from * 4 + to)) * 16777619u;
    hanoi(n - 1, via, to, from);
}

NI uint32_t ack(uint32_t m, uint32_t n)
{
    if (m == 0) return n + 1;
    if (n == 0) return ack(m - 1, 1);
    return ack(m - 1, ack(m, n - 1));
}

/* Many values live across the recursive call. */
NI uint32_t live(uint32_t n, uint32_t a, uint32_t b, uint32_t c, uint32_t d, uint32_t e)
{
    if (n == 0) return a ^ b ^ c ^ d ^ e;
    uint32_t x = a + 1, y = b * 3u, z = c ^ 0x5a5a5a5au, w = d - e, v = e + n;
    uint32_t r = live(n - 1, y, z, w, v, x);
    return r + x * 2u + y + z * 5u + w + v * 7u;
}

/* Recursion over an implicit binary tree stored in an array. */
static int32_t tree[255];
NI int32_t tree_sum(int i, int depth, int32_t *maxdepth)
{
    if (i >= 255) return 0;
    if (depth > *maxdepth) *maxdepth = depth;
    return tree[i] + tree_sum(2 * i + 1, depth + 1, maxdepth) - tree_sum(2 * i + 2, depth + 1, maxdepth);
}

int main(void)
{
    out32("depth 2000", depth_sum(opq32(2000)));
    out32("framed 600", framed((int)opq32(600), 7));
    outd("even 1501", is_even(opq32(1501)));
    outd("odd 1501", is_odd(opq32(1501)));
    outd("fib 18", (int32_t)fib(opq32(18)));
    hanoi((int)opq32(10), 0, 2, 1);
    outd("hanoi moves", (int32_t)hanoi_moves);
    out32("hanoi hash", hanoi_hash);
    outd("ack(2,5)", (int32_t)ack(2, opq32(5)));
    outd("ack(3,3)", (int32_t)ack(3, opq32(3)));
    out32("live 300", live(opq32(300), 1, 2, 3, 4, 5));
    for (int i = 0; i < 255; i++) tree[i] = i * 7 - 100;
    int32_t md = 0;
    outd("tree", tree_sum(0, 0, &md));
    outd("tree depth", md);
    return finish();
}
