/* nc_kbin.c - see nc_kbin.h for the contracts. */
#include "nc_kbin.h"

void nc_kbin_table(uint32_t k, uint32_t smax, uint32_t *tab)
{
    uint32_t s, i, acc;

    tab[0] = 1u;
    /*@ loop invariant 1 <= s <= smax + 1;
        loop invariant \forall integer t; 0 <= t < s ==> tab[t] == nc_N(t, k);
        loop invariant \forall integer t; 0 <= t < s ==> 1 <= tab[t] <= NC_COVER_SAT;
        loop assigns s, i, acc, tab[1 .. smax];
        loop variant smax + 1 - s;
    */
    for (s = 1u; s <= smax; s++) {
        if (s <= k) {
            /* Binomial part: every node sends in every step, 2^s. */
            acc = 2u * tab[s - 1u];
            tab[s] = acc < NC_COVER_SAT ? acc : NC_COVER_SAT;
            /*@ assert nc_pow2(s) == 2 * nc_pow2(s - 1); */
            /*@ assert tab[s] == nc_sat(nc_pow2(s)); */
            continue;
        }
        /* Root plus its k subtrees, sent in steps 1 .. k (Lemma 1). */
        acc = 1u;
        /*@ loop invariant 1 <= i <= k + 1;
            loop invariant acc == 1 + nc_Nsum(s, k, i - 1);
            loop invariant 1 <= acc <= 1 + (i - 1) * NC_COVER_SAT;
            loop assigns i, acc;
            loop variant k + 1 - i;
        */
        for (i = 1u; i <= k; i++)
            acc += tab[s - i];
        /*@ assert acc == 1 + nc_Nsum(s, k, k); */
        tab[s] = acc < NC_COVER_SAT ? acc : NC_COVER_SAT;
        /*@ assert tab[s] == nc_N(s, k); */
    }
}

void nc_postal_table(uint32_t lambda, uint32_t tmax, uint32_t *tab)
{
    uint32_t t, acc;
    /*@ loop invariant 0 <= t <= tmax + 1;
        loop invariant \forall integer u; 0 <= u < t ==> tab[u] == nc_P(u, lambda);
        loop invariant \forall integer u; 0 <= u < t ==> 1 <= tab[u] <= NC_COVER_SAT;
        loop assigns t, acc, tab[0 .. tmax];
        loop variant tmax + 1 - t;
    */
    for (t = 0u; t <= tmax; t++) {
        if (t < lambda) {
            tab[t] = 1u;        /* the first message has not landed yet */
            continue;
        }
        /* Everyone informed by t-1 sends again; those informed by
         * t-lambda have just been heard from. */
        acc = tab[t - 1u] + tab[t - lambda];
        /*@ assert nc_P(t, lambda) == nc_sat(nc_P(t - 1, lambda) + nc_P(t - lambda, lambda)); */
        /*@ assert acc == nc_P(t - 1, lambda) + nc_P(t - lambda, lambda); */
        tab[t] = acc < NC_COVER_SAT ? acc : NC_COVER_SAT;
    }
}

uint32_t nc_kbin_N(uint32_t s, uint32_t k)
{
    uint32_t tab[NC_MAX_STEPS + 1u];
    nc_kbin_table(k, s, tab);
    return tab[s];
}

uint32_t nc_ceil_log2(uint32_t n)
{
    uint32_t r = 0u, x = n;
    /* ceil(log2 x) = 1 + ceil(log2 ceil(x/2)) for x > 1. */
    /*@ loop invariant 1 <= x <= n && 0 <= r <= 10;
        loop invariant r + nc_clog2(x) == nc_clog2(n);
        loop invariant x <= 1 ==> r == nc_clog2(n);
        loop assigns r, x;
        loop variant x;
    */
    while (x > 1u) {
        x = (x + 1u) / 2u;
        r++;
    }
    return r;
}

uint32_t nc_kbin_steps(uint32_t n, uint32_t k)
{
    uint32_t tab[NC_MAX_STEPS + 1u];
    uint32_t s;

    nc_kbin_table(k, NC_MAX_STEPS, tab);
    /*@ loop invariant 0 <= s <= NC_MAX_STEPS + 1;
        loop invariant \forall integer t; 0 <= t < s ==> nc_N(t, k) < n;
        loop assigns s;
        loop variant NC_MAX_STEPS + 1 - s;
    */
    for (s = 0u; s <= NC_MAX_STEPS; s++)
        if (tab[s] >= n)
            return s;
    return NC_STEPS_NONE;
}

uint32_t nc_pipelined_steps(uint32_t l1, uint32_t m, uint32_t dr)
{
    return l1 + (m - 1u) * dr;
}

uint32_t nc_kbin_optimal_k(uint32_t n, uint32_t m)
{
    uint32_t kmax = nc_ceil_log2(n);
    uint32_t k, s, cost, best = 0u, best_cost = 0u, best_s = 0u;
    uint32_t mk = 0u;       /* (m-1)*k, kept as a running sum */

    /*@ loop invariant 1 <= k <= kmax + 1;
        loop invariant mk == (m - 1) * (k - 1) && mk <= 65535 * (k - 1);
        loop invariant best == 0 ==> k == 1;
        loop invariant best != 0 ==> 1 <= best < k && nc_is_steps(n, best, best_s) &&
                         best_s <= NC_MAX_STEPS &&
                         best_cost == best_s + (m - 1) * best;
        loop invariant best != 0 ==> \forall integer k2, s2; 1 <= k2 < k &&
                         nc_is_steps(n, k2, s2) ==> best_cost <= s2 + (m - 1) * k2;
        loop assigns k, s, cost, best, best_cost, best_s, mk;
        loop variant kmax + 1 - k;
    */
    for (k = 1u; k <= kmax; k++) {
        mk += m - 1u;
        /*@ assert mk == (m - 1) * k; */
        s = nc_kbin_steps(n, k);
        if (s == NC_STEPS_NONE)
            return 0u;
        cost = s + mk;
        /*@ assert same: \forall integer s2; nc_is_steps(n, k, s2) ==> s2 == s; */
        /*@ assert cost: \forall integer s2; nc_is_steps(n, k, s2) ==>
                           s2 + (m - 1) * k == cost; */
        if (best == 0u || cost <= best_cost) {   /* <=: ties go to the larger k */
            /*@ assert keep: best != 0 ==> \forall integer k2, s2; 1 <= k2 < k &&
                  nc_is_steps(n, k2, s2) ==> cost <= s2 + (m - 1) * k2; */
            best = k;
            best_cost = cost;
            best_s = s;
        } else {
            /*@ assert worse: \forall integer s2; nc_is_steps(n, k, s2) ==>
                  best_cost <= s2 + (m - 1) * k; */
        }
    }
    /*@ assert best != 0 ==> nc_is_steps(n, best, best_s); */
    (void)best_s;   /* a witness for the proof only */
    return best;
}
