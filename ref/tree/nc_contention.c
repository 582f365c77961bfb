/* nc_contention.c - see nc_contention.h for the contracts. */
#include "nc_contention.h"

/* Do cp[0 .. lp-1] and cq[0 .. lq-1] hold a common value? */
/*@ requires lp <= NC_ROUTE_MAX && lq <= NC_ROUTE_MAX;
    requires \valid_read(cp + (0 .. lp - 1)) && \valid_read(cq + (0 .. lq - 1));
    assigns \nothing;
    ensures \result <==> \exists integer x, y; 0 <= x < lp && 0 <= y < lq && cp[x] == cq[y];
*/
static bool common(const uint32_t *cp, uint32_t lp, const uint32_t *cq, uint32_t lq)
{
    uint32_t h1, h2;

    /*@ loop invariant 0 <= h1 <= lp;
        loop invariant \forall integer x, y; 0 <= x < h1 && 0 <= y < lq ==> cp[x] != cq[y];
        loop assigns h1, h2;
        loop variant lp - h1;
    */
    for (h1 = 0u; h1 < lp; h1++) {
        /*@ loop invariant 0 <= h2 <= lq;
            loop invariant \forall integer y; 0 <= y < h2 ==> cp[h1] != cq[y];
            loop assigns h2;
            loop variant lq - h2;
        */
        for (h2 = 0u; h2 < lq; h2++)
            if (cp[h1] == cq[h2])
                return true;
    }
    return false;
}

uint32_t nc_route_index(uint32_t n, uint32_t a, uint32_t b)
{
    (void)n; /* bounds a and b in the contract */
    return a * NC_MAX_NODES + b;
}

bool nc_routes_share(const nc_routes_t *r, uint32_t p, uint32_t q)
{
    uint32_t pa, qa;

    pa = p * NC_ROUTE_MAX;
    qa = q * NC_ROUTE_MAX;
    /*@ assert pa == p * NC_ROUTE_MAX && qa == q * NC_ROUTE_MAX; */
    return common(r->ch + pa, r->len[p], r->ch + qa, r->len[q]);
}

bool nc_concurrent(uint32_t ti, uint32_t tj, uint32_t dr, uint32_t m)
{
    uint32_t d = ti >= tj ? ti - tj : tj - ti;

    return d % dr == 0u && d / dr < m;
}

uint32_t nc_contention(const nc_tree_t *t, const uint16_t *order, uint32_t n,
                       const nc_routes_t *r, uint32_t dr, uint32_t m,
                       uint32_t *per_step, uint32_t nsteps)
{
    uint32_t total = 0u, i, j, s;

    if (per_step) {
        /*@ loop invariant 0 <= s <= nsteps;
            loop invariant \forall integer x; 0 <= x < s ==> per_step[x] == 0;
            loop assigns s, per_step[0 .. nsteps - 1];
            loop variant nsteps - s;
        */
        for (s = 0u; s < nsteps; s++)
            per_step[s] = 0u;
    }
    /* Every unordered pair {i, j} of edges once, i < j. */
    /*@ loop invariant 1 <= i <= n;
        loop invariant total <= (i - 1) * NC_MAX_NODES;
        loop invariant per_step != \null ==>
          \forall integer x; 0 <= x < nsteps ==> per_step[x] <= total;
        loop assigns i, j, total, per_step[0 .. nsteps - 1];
        loop variant n - i;
    */
    for (i = 1u; i < n; i++) {
        /*@ loop invariant i + 1 <= j <= n;
            loop invariant total <= (i - 1) * NC_MAX_NODES + (j - i - 1);
            loop invariant per_step != \null ==>
              \forall integer x; 0 <= x < nsteps ==> per_step[x] <= total;
            loop assigns j, total, per_step[0 .. nsteps - 1];
            loop variant n - j;
        */
        for (j = i + 1u; j < n; j++) {
            if (!nc_concurrent(t->time[i], t->time[j], dr, m))
                continue;
            if (nc_routes_share(r, nc_route_index(n, order[t->parent[i]], order[i]),
                                nc_route_index(n, order[t->parent[j]], order[j]))) {
                total++;
                if (per_step)
                    per_step[t->time[i] < t->time[j] ? t->time[i] : t->time[j]]++;
            }
        }
    }
    return total;
}
