/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The exact mode's oracle (tests/red/nic/suite): for each case of
 * exact_inputs.h, MPFR's correctly rounded sum of every element's values
 * (mpfr_sum, round to nearest even, a NaN as the accumulator's canonical
 * one), hashed as the MPI program hashes its results:
 *
 *   exact_ref SEED   ->   "X double 300 HASH" ... one line per case
 *
 * The rank count does not enter: the ranks that give no value give +0.
 */
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exact_inputs.h"

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;

    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001B3ull;
    return h;
}

/* The correctly rounded sum of element e of case c, as the format's bits. */
static uint64_t sum(uint64_t seed, unsigned c, unsigned e)
{
    unsigned f64 = XI_CASES[c].f64;
    mpfr_t x[XI_VALUES], s;
    mpfr_ptr p[XI_VALUES];
    uint64_t r;

    for (unsigned j = 0; j < XI_VALUES; j++) {
        uint64_t b = xi_value(seed, c, e, j);

        mpfr_init2(x[j], 64);
        if (f64) {
            double d;
            memcpy(&d, &b, 8);
            mpfr_set_d(x[j], d, MPFR_RNDN);
        } else {
            uint32_t w = (uint32_t)b;
            float f;
            memcpy(&f, &w, 4);
            mpfr_set_flt(x[j], f, MPFR_RNDN);
        }
        p[j] = x[j];
    }
    mpfr_init2(s, f64 ? 53 : 24);
    mpfr_sum(s, p, XI_VALUES, MPFR_RNDN);
    if (mpfr_nan_p(s)) {
        r = f64 ? 0x7FF8000000000000ull : 0x7FC00000u;
    } else if (f64) {
        double d = mpfr_get_d(s, MPFR_RNDN);
        memcpy(&r, &d, 8);
    } else {
        float f = mpfr_get_flt(s, MPFR_RNDN);
        uint32_t w;
        memcpy(&w, &f, 4);
        r = w;
    }
    mpfr_clear(s);
    for (unsigned j = 0; j < XI_VALUES; j++)
        mpfr_clear(x[j]);
    return r;
}

int main(int argc, char **argv)
{
    char *end;
    uint64_t seed;

    if (argc != 2 || !*argv[1] || (seed = strtoull(argv[1], &end, 10), *end)) {
        fprintf(stderr, "usage: exact_ref SEED (a decimal number)\n");
        return 2;
    }
    for (unsigned c = 0; c < XI_NCASES; c++) {
        uint64_t h = 0xCBF29CE484222325ull;

        for (unsigned e = 0; e < XI_CASES[c].count; e++) {
            uint64_t v = sum(seed, c, e);
            uint32_t w = (uint32_t)v;

            h = XI_CASES[c].f64 ? fnv(h, &v, 8) : fnv(h, &w, 4);
        }
        printf("X %s %u %016llx\n", XI_CASES[c].f64 ? "double" : "float", XI_CASES[c].count,
               (unsigned long long)h);
    }
    return 0;
}
