/*
 * lanai_cost.c - one reduction kernel of ref/red on N elements, for the
 * LANai (tests/red/cost runs it in lanai-iss and takes the difference of
 * the instruction counts of N = 0 and N = 256, so set-up cancels).
 *
 *   lanai_cost KERNEL N
 *
 * The data are the same for every N: 256 elements from a fixed linear
 * congruential sequence, finite normal values within 2^-30 .. 2^30 of 1
 * with both signs (floats), full-range words (integers).
 */
#include <stdint.h>

#include "nc_red.h"
#include "nc_sfp.h"
#include "nc_xacc.h"

#define NMAX 256u

static uint32_t a[2 * NMAX], b[2 * NMAX], wire[NMAX][NC_XACC_WIRE_MAX];
static struct nc_xacc acc[NMAX], acc2[NMAX];
static uint32_t seed = 12345u;
static volatile uint32_t sink;

static uint32_t lcg(void)
{
    seed = seed * 1103515245u + 12345u;
    return seed;
}

static uint32_t num(const char *s)
{
    uint32_t v = 0;
    while (*s >= '0' && *s <= '9')
        v = v * 10u + (uint32_t)(*s++ - '0');
    return v;
}

static int eq(const char *s, const char *t)
{
    while (*s && *s == *t)
        s++, t++;
    return *s == *t;
}

/* a finite binary64 (two words, nc_red.h's order) within 2^+-30 of 1 */
static void f64_at(uint32_t *w)
{
    uint32_t hi = (lcg() & 0x800FFFFFu) | ((1023u - 30u + lcg() % 61u) << 20);
    w[NC_RED_HI] = hi;
    w[NC_RED_LO] = lcg();
}

static uint32_t f32_val(void)
{
    return (lcg() & 0x807FFFFFu) | ((127u - 30u + lcg() % 61u) << 23);
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    const char *k = argv[1];
    uint32_t n = num(argv[2]);
    if (n > NMAX)
        return 2;
    int f64 = k[0] == 'd' || (k[0] == 'x' && k[1] == 'd');
    int f32 = k[0] == 'f' || (k[0] == 'x' && k[1] == 'f');
    for (uint32_t i = 0; i < NMAX; i++) {
        if (f64) {
            f64_at(a + 2 * i);
            f64_at(b + 2 * i);
        } else if (f32) {
            a[i] = f32_val();
            b[i] = f32_val();
        } else {
            a[2 * i] = lcg(); a[2 * i + 1] = lcg();
            b[2 * i] = lcg(); b[2 * i + 1] = lcg();
        }
    }
    /* exact-mode kernels start from accumulators holding 4 elements each,
     * like a partial sum arriving from a child */
    if (k[0] == 'x') {
        int d = k[1] == 'd';
        for (uint32_t i = 0; i < NMAX; i++) {
            nc_xacc_init(&acc[i], d ? NC_XACC64_WORDS : NC_XACC32_WORDS);
            nc_xacc_init(&acc2[i], d ? NC_XACC64_WORDS : NC_XACC32_WORDS);
            for (uint32_t j = 0; j < 4; j++) {
                uint32_t w[2];
                if (d) {
                    f64_at(w);
                    nc_xacc_add_f64(&acc[i], ((uint64_t)w[NC_RED_HI] << 32) | w[NC_RED_LO]);
                    f64_at(w);
                    nc_xacc_add_f64(&acc2[i], ((uint64_t)w[NC_RED_HI] << 32) | w[NC_RED_LO]);
                } else {
                    nc_xacc_add_f32(&acc[i], f32_val());
                    nc_xacc_add_f32(&acc2[i], f32_val());
                }
            }
            nc_xacc_encode(&acc2[i], wire[i], NC_XACC_WIRE_MAX);
        }
    }
    /* ordered mode and integers: d|f|i32|u32|i64|u64 -sum|-min|-max|-band */
    static const char *types[] = { "i32", "u32", "i64", "u64", "f", "d" };
    static const char *ops[] = { "sum", "min", "max", "band", "bor", "bxor" };
    for (uint32_t t = 0; t < NC_RED_NTYPES; t++)
        for (uint32_t o = 0; o < NC_RED_NOPS; o++) {
            char name[16];
            uint32_t p = 0;
            for (const char *s = types[t]; *s; s++) name[p++] = *s;
            name[p++] = '-';
            for (const char *s = ops[o]; *s; s++) name[p++] = *s;
            name[p] = 0;
            if (eq(k, name))
                return nc_red_combine(o, t, a, b, n) ? 3 : 0;
        }
    uint32_t s = 0;
    if (eq(k, "xd-add") || eq(k, "xf-add")) {
        for (uint32_t i = 0; i < n; i++) {
            if (k[1] == 'd')
                nc_xacc_add_f64(&acc[i], ((uint64_t)b[2 * i + NC_RED_HI] << 32) | b[2 * i + NC_RED_LO]);
            else
                nc_xacc_add_f32(&acc[i], b[i]);
        }
    } else if (eq(k, "xd-merge") || eq(k, "xf-merge")) {
        for (uint32_t i = 0; i < n; i++)
            nc_xacc_merge(&acc[i], &acc2[i]);
    } else if (eq(k, "xd-encode") || eq(k, "xf-encode")) {
        for (uint32_t i = 0; i < n; i++)
            s += nc_xacc_encode(&acc[i], wire[i], NC_XACC_WIRE_MAX);
    } else if (eq(k, "xd-mwire") || eq(k, "xf-mwire")) {
        for (uint32_t i = 0; i < n; i++)
            s += nc_xacc_merge_wire(&acc[i], wire[i], NC_XACC_WIRE_MAX);
    } else if (eq(k, "xd-round")) {
        for (uint32_t i = 0; i < n; i++)
            s += (uint32_t)nc_xacc_round_f64(&acc[i]);
    } else if (eq(k, "xf-round")) {
        for (uint32_t i = 0; i < n; i++)
            s += nc_xacc_round_f32(&acc[i]);
    } else {
        return 2;
    }
    sink = s;
    return 0;
}
