/* 24_prng: deterministic generators: an LCG (32-bit multiply), xorshift32,
 * xorshift64*, splitmix64 and PCG32 (64-bit multiply, 64-bit shifts and a
 * data-dependent rotate), plus a bounded-range reduction by division and by
 * the multiply-high method, and a histogram of a Fisher-Yates shuffle. */
#include "tests/isa/progs/prog.h"

static uint32_t lcg_state = 1;
static uint32_t lcg(void) { lcg_state = lcg_state * 1664525u + 1013904223u; return lcg_state; }

static uint32_t xs32_state = 2463534242u;
static uint32_t xorshift32(void) { uint32_t x = xs32_state; x ^= x << 13; x ^= x >> 17; x ^= x << 5; return xs32_state = x; }

static uint64_t xs64_state = 88172645463325252ULL;
static uint64_t xorshift64star(void)
{
    uint64_t x = xs64_state;
    x ^= x >> 12; x ^= x << 25; x ^= x >> 27;
    xs64_state = x;
    return x * 0x2545f4914f6cdd1dULL;
}

static uint64_t sm_state = 0x9e3779b97f4a7c15ULL;
static uint64_t splitmix64(void)
{
    uint64_t z = (sm_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

struct pcg { uint64_t state, inc; };
static uint32_t pcg32(struct pcg *r)
{
    uint64_t old = r->state;
    r->state = old * 6364136223846793005ULL + r->inc;
    uint32_t xorshifted = (uint32_t)(((old >> 18) ^ old) >> 27);
    uint32_t rot = (uint32_t)(old >> 59);
    return (xorshifted >> rot) | (xorshifted << ((0u - rot) & 31));
}
static void pcg_seed(struct pcg *r, uint64_t seed, uint64_t seq)
{
    r->state = 0;
    r->inc = seq << 1 | 1;
    pcg32(r);
    r->state += seed;
    pcg32(r);
}

int main(void)
{
    uint32_t h = 0;
    for (int i = 0; i < 200; i++) h = h * 31u + lcg();
    out32("lcg", h);
    out32("lcg last", lcg_state);
    h = 0;
    for (int i = 0; i < 200; i++) h ^= xorshift32() + (uint32_t)i;
    out32("xorshift32", h);
    uint64_t h64 = 0;
    for (int i = 0; i < 100; i++) h64 = h64 * 31u + xorshift64star();
    out64("xorshift64*", h64);
    h64 = 0;
    for (int i = 0; i < 100; i++) h64 ^= splitmix64() >> (i & 7);
    out64("splitmix64", h64);
    struct pcg r;
    pcg_seed(&r, 42u, 54u);
    /* Reference sequence of the PCG32 demo for seed 42, sequence 54. */
    for (int i = 0; i < 6; i++) out32("pcg32", pcg32(&r));
    h = 0;
    for (int i = 0; i < 200; i++) h = h * 33u + pcg32(&r);
    out32("pcg32 more", h);

    /* Range reduction: modulo (biased but deterministic) and multiply-high. */
    uint32_t hist_mod[6] = { 0 }, hist_mul[6] = { 0 };
    for (int i = 0; i < 300; i++) {
        uint32_t v = xorshift32();
        hist_mod[v % 6u]++;
        hist_mul[(uint32_t)(((uint64_t)v * 6u) >> 32)]++;
    }
    for (int k = 0; k < 6; k++) {
        put_dec((int32_t)hist_mod[k]); put_char('/'); put_dec((int32_t)hist_mul[k]); put_char(k == 5 ? '\n' : ' ');
        ck32(hist_mod[k] << 16 | hist_mul[k]);
    }
    /* Fisher-Yates shuffle of 0..31 driven by PCG. */
    uint8_t deck[32];
    for (int i = 0; i < 32; i++) deck[i] = (uint8_t)i;
    for (int i = 31; i > 0; i--) {
        int j = (int)(pcg32(&r) % (uint32_t)(i + 1));
        uint8_t t = deck[i]; deck[i] = deck[j]; deck[j] = t;
    }
    uint32_t seen = 0;
    for (int i = 0; i < 32; i++) { seen |= 1u << deck[i]; put_dec(deck[i]); put_char(i == 31 ? '\n' : ' '); ck32(deck[i]); }
    out32("permutation", seen);
    return finish();
}
