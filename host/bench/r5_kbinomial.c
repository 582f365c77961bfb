/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Experiment R5 (seed 001 sections 4-5): the analytic pipelined multicast
 * model. For n nodes (source included) and m packets, a k-binomial tree
 * finishes in L1 + (m-1)k steps (Theorem 2), with L1 the least s such that
 * N(s,k) >= n (Lemma 1); the optimal k (Theorem 3) minimises it. Computed
 * with ref/tree (the proved code), written as CSV, and the paper's worked
 * examples printed beside ours. The same comparisons go to
 * OUTDIR/r5_compare.tsv, one a line in host/bench/reprow's LIST format,
 * for the table of every reproduction (docs/bench.md).
 *
 * usage: r5_kbinomial OUTDIR
 */
#include <stdio.h>
#include <stdlib.h>

#include "nc_kbin.h"

static uint32_t steps(uint32_t n, uint32_t k, uint32_t m)
{
    return nc_pipelined_steps(nc_kbin_steps(n, k), m, k);
}

int main(int argc, char **argv)
{
    static const uint32_t ns[] = { 16, 32, 64 };
    char path[512];
    FILE *f, *cmp;
    int bad = 0, grows = 0;

    if (argc != 2) {
        fprintf(stderr, "usage: r5_kbinomial OUTDIR\n");
        return 2;
    }
    snprintf(path, sizeof path, "%s/r5_steps.csv", argv[1]);
    if (!(f = fopen(path, "w"))) {
        perror(path);
        return 1;
    }
    fprintf(f, "n,m,k_opt,steps_opt,steps_binomial,steps_linear\n");
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
        for (uint32_t m = 1; m <= 16; m++) {
            uint32_t n = ns[i], k = nc_kbin_optimal_k(n, m), kb = nc_ceil_log2(n);
            fprintf(f, "%u,%u,%u,%u,%u,%u\n", n, m, k, steps(n, k, m), steps(n, kb, m),
                    steps(n, 1, m));
        }
    fclose(f);

    snprintf(path, sizeof path, "%s/r5_compare.tsv", argv[1]);
    if (!(cmp = fopen(path, "w"))) {
        perror(path);
        return 1;
    }
    /* The paper's worked examples, ours beside them. */
    /* what: the printed line; point: the same without commas (a CSV field) */
    struct { const char *what, *point; uint32_t paper, ours; } ex[] = {
        { "3 packets to 3 destinations, binomial tree", "steps: 3 packets to 3 destinations binomial tree",
          6, steps(4, 2, 3) },
        { "3 packets to 3 destinations, linear chain", "steps: 3 packets to 3 destinations linear chain",
          5, steps(4, 1, 3) },
        { "3 packets to 7 destinations, binomial tree", "steps: 3 packets to 7 destinations binomial tree",
          9, steps(8, 3, 3) },
        { "optimal k for n=64, m=1 (= ceil(log2 n))", "optimal k for n=64 m=1 (= ceil(log2 n))",
          6, nc_kbin_optimal_k(64, 1) },
        { "optimal k for n=16, m=1 (= ceil(log2 n))", "optimal k for n=16 m=1 (= ceil(log2 n))",
          4, nc_kbin_optimal_k(16, 1) },
    };
    printf("R5 (seed 001, analytic model)        paper  ours\n");
    for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++) {
        printf("  %-44s %4u %5u%s\n", ex[i].what, ex[i].paper, ex[i].ours,
               ex[i].paper == ex[i].ours ? "" : "   <- differs");
        bad |= ex[i].paper != ex[i].ours;
        fprintf(cmp, "num\t%s\t%u\t%u\n", ex[i].point, ex[i].paper, ex[i].ours);
    }
    /* The shape: k falls towards 1 as m grows. */
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        uint32_t prev = 99;
        int up = 0;
        printf("  optimal k for n=%u, m=1..16:", ns[i]);
        fprintf(cmp, "shape\toptimal k never grows with m (n=%u m=1..16)\tk", ns[i]);
        for (uint32_t m = 1; m <= 16; m++) {
            uint32_t k = nc_kbin_optimal_k(ns[i], m);
            printf(" %u", k);
            fprintf(cmp, " %u", k);
            up |= k > prev;
            prev = k;
        }
        printf("\n");
        fprintf(cmp, "\t%s\n", up ? "no" : "yes");
        grows |= up;
    }
    /* (The shape is only the k series: a differing example is marked above.) */
    printf("  shape (k never grows with m): %s\n", grows ? "NO" : "holds");
    if (fclose(cmp) != 0) {
        perror(path);
        return 1;
    }
    return bad | grows;
}
