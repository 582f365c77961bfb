/*
 * kopt: print seed 001's optimal k (Theorem 3) for n in {16, 32, 64} nodes
 * (source included) and m = 1 .. 16 packets, with L1 and the pipelined
 * latency L1 + (m-1)k in steps.  `make kopt-table`.
 */
#include <stdio.h>
#include "nc_kbin.h"

int main(void)
{
    static const unsigned ns[] = { 16, 32, 64 };
    printf("# optimal k of seed 001 Theorem 3: min over 1<=k<=ceil(log2 n) of L1 + (m-1)k\n");
    printf("# (ties to the larger k); entries are k (L1, latency in steps)\n");
    printf("%4s", "m");
    for (unsigned i = 0; i < 3; i++)
        printf("  %18s", ns[i] == 16 ? "n=16" : ns[i] == 32 ? "n=32" : "n=64");
    printf("\n");
    for (unsigned m = 1; m <= 16; m++) {
        printf("%4u", m);
        for (unsigned i = 0; i < 3; i++) {
            unsigned k = nc_kbin_optimal_k(ns[i], m);
            unsigned l1 = nc_kbin_steps(ns[i], k);
            char cell[32];
            snprintf(cell, sizeof cell, "%u (%u, %u)", k, l1, nc_pipelined_steps(l1, m, k));
            printf("  %18s", cell);
        }
        printf("\n");
    }
    return 0;
}
