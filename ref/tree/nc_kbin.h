/*
 * nc_kbin.h - how many nodes a tree can reach in a given time: N(s,k) of
 * the k-binomial tree (seed 001, Lemma 1), the postal-model count for the
 * latency-optimal tree (seed 000 section 5.5), the number of steps L1 a
 * tree needs for n nodes, and the optimal k of seed 001 Theorem 3.
 *
 * Counts saturate at NC_COVER_SAT (2^20 > NC_MAX_NODES): the exact value
 * only matters while it is below n <= NC_MAX_NODES, and saturation keeps
 * every sum in 32 bits.  The ACSL definitions below are the papers'
 * recurrences with the same saturation, so "the table satisfies the
 * recurrence" is exactly what the contracts prove.
 */
#ifndef NC_KBIN_H
#define NC_KBIN_H

#include <stdint.h>
#include <stdbool.h>
#include "nc_config.h"
#include "nc_logic.h"

/*@ logic integer nc_sat(integer x) = x < NC_COVER_SAT ? x : NC_COVER_SAT;

  axiomatic NcKbin {
    // N(s,k): nodes covered in s steps by a k-binomial tree (saturated).
    logic integer nc_N(integer s, integer k);
    // sum_{i=1..j} N(s-i, k)
    logic integer nc_Nsum(integer s, integer k, integer j);

    axiom nc_N_small: \forall integer s, k; 0 <= s <= k ==>
      nc_N(s, k) == nc_sat(nc_pow2(s));
    axiom nc_N_rec: \forall integer s, k; 0 <= k < s ==>
      nc_N(s, k) == nc_sat(1 + nc_Nsum(s, k, k));
    axiom nc_Nsum_0: \forall integer s, k; nc_Nsum(s, k, 0) == 0;
    axiom nc_Nsum_j: \forall integer s, k, j; j > 0 ==>
      nc_Nsum(s, k, j) == nc_Nsum(s, k, j - 1) + nc_N(s - j, k);
  }

  // Postal model with latency lambda (seed 000 section 5.5, after Bar-Noy
  // and Kipnis): P(t) = 1 for t < lambda, P(t) = P(t-1) + P(t-lambda).
  logic integer nc_P(integer t, integer lambda) =
    t < lambda ? 1 : nc_sat(nc_P(t - 1, lambda) + nc_P(t - lambda, lambda));

  // ceil(log2 n), by halving: ceil(log2 n) = 1 + ceil(log2 ceil(n/2)).
  logic integer nc_clog2(integer n) = n <= 1 ? 0 : 1 + nc_clog2((n + 1) / 2);

  // s is L1: the fewest steps in which a k-binomial tree reaches n nodes.
  predicate nc_is_steps(integer n, integer k, integer s) =
    0 <= s && nc_N(s, k) >= n &&
    \forall integer t; 0 <= t < s ==> nc_N(t, k) < n;

  lemma nc_steps_unique: \forall integer n, k, s1, s2;
    nc_is_steps(n, k, s1) && nc_is_steps(n, k, s2) ==> s1 == s2;
*/

/* Fill tab[0 .. smax] with N(s,k). */
/*@ requires 1 <= k <= NC_MAX_K && smax <= NC_MAX_STEPS;
    requires \valid(tab + (0 .. smax));
    assigns tab[0 .. smax];
    ensures \forall integer s; 0 <= s <= smax ==> tab[s] == nc_N(s, k);
    ensures \forall integer s; 0 <= s <= smax ==> 1 <= tab[s] <= NC_COVER_SAT;
*/
void nc_kbin_table(uint32_t k, uint32_t smax, uint32_t *tab);

/* Fill tab[0 .. tmax] with P(t) for latency ratio lambda. */
/*@ requires 1 <= lambda <= NC_MAX_LAMBDA && tmax <= NC_MAX_STEPS;
    requires \valid(tab + (0 .. tmax));
    assigns tab[0 .. tmax];
    ensures \forall integer t; 0 <= t <= tmax ==> tab[t] == nc_P(t, lambda);
    ensures \forall integer t; 0 <= t <= tmax ==> 1 <= tab[t] <= NC_COVER_SAT;
*/
void nc_postal_table(uint32_t lambda, uint32_t tmax, uint32_t *tab);

/* N(s,k) itself. */
/*@ requires 1 <= k <= NC_MAX_K && s <= NC_MAX_STEPS;
    assigns \nothing;
    ensures \result == nc_N(s, k);
*/
uint32_t nc_kbin_N(uint32_t s, uint32_t k);

/* ceil(log2 n): the binomial tree's step count and the largest useful k. */
/*@ requires 1 <= n <= NC_MAX_NODES;
    assigns \nothing;
    ensures \result == nc_clog2(n);
    ensures \result <= 10;
*/
uint32_t nc_ceil_log2(uint32_t n);

#define NC_STEPS_NONE 0xFFFFFFFFu

/* L1 for n nodes and out-degree k: least s with N(s,k) >= n.
 * NC_STEPS_NONE if that exceeds NC_MAX_STEPS (cannot happen for
 * n <= NC_MAX_NODES, since N(s,k) >= s+1; the unit tests check every case). */
/*@ requires 1 <= n <= NC_MAX_NODES && 1 <= k <= NC_MAX_K;
    assigns \nothing;
    ensures \result == NC_STEPS_NONE || (\result <= NC_MAX_STEPS && nc_is_steps(n, k, \result));
*/
uint32_t nc_kbin_steps(uint32_t n, uint32_t k);

/* Seed 001 Theorem 2: m pipelined packets over a tree whose first packet
 * completes after l1 steps and whose root has dr children take
 * L1 + (m-1)*dr steps. */
/*@ requires l1 <= NC_MAX_STEPS && 1 <= m <= 65536 && dr <= NC_MAX_NODES;
    assigns \nothing;
    ensures \result == l1 + (m - 1) * dr;
*/
uint32_t nc_pipelined_steps(uint32_t l1, uint32_t m, uint32_t dr);

/* Seed 001 Theorem 3: the k in [1, ceil(log2 n)] minimising L1 + (m-1)k
 * for n nodes (source included) and m packets.  Ties go to the larger k
 * (lower first-packet latency), so m = 1 gives ceil(log2 n).  Returns 0
 * only if some L1 were out of range (never, see nc_kbin_steps). */
/*@ requires 2 <= n <= NC_MAX_NODES && 1 <= m <= 65536;
    assigns \nothing;
    ensures \result == 0 || (
      1 <= \result <= nc_clog2(n) &&
      \exists integer s; nc_is_steps(n, \result, s) &&
        \forall integer k2, s2; 1 <= k2 <= nc_clog2(n) &&
          nc_is_steps(n, k2, s2) ==> s + (m - 1) * \result <= s2 + (m - 1) * k2);
*/
uint32_t nc_kbin_optimal_k(uint32_t n, uint32_t m);

#endif
