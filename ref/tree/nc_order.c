/* nc_order.c - see nc_order.h for the contracts. */
#include "nc_order.h"

bool nc_order_check(const uint16_t *order, uint32_t n, uint32_t src)
{
    uint32_t i, j;

    if (order[0] != src)
        return false;
    /*@ loop invariant 0 <= i <= n;
        loop invariant \forall integer a; 0 <= a < i ==> order[a] < n;
        loop invariant \forall integer a, b; 0 <= a < b < n && a < i ==> order[a] != order[b];
        loop assigns i, j;
        loop variant n - i;
    */
    for (i = 0u; i < n; i++) {
        if (order[i] >= n)
            return false;
        /*@ loop invariant i + 1 <= j <= n;
            loop invariant \forall integer b; i < b < j ==> order[i] != order[b];
            loop assigns j;
            loop variant n - j;
        */
        for (j = i + 1u; j < n; j++)
            if (order[i] == order[j])
                return false;
    }
    return true;
}

int nc_order_by_key(const uint32_t *key, uint32_t n, uint32_t src, uint16_t *tmp,
                    uint16_t *order)
{
    uint32_t i, j, p = 0u;
    uint16_t v;

    /* Insertion sort of 0 .. n-1 by (key, number): stable, so equal keys
     * keep increasing member numbers. */
    /*@ loop invariant 0 <= i <= n;
        loop invariant \forall integer a; 0 <= a < i ==> tmp[a] < n;
        loop assigns i, j, v, tmp[0 .. n - 1];
        loop variant n - i;
    */
    for (i = 0u; i < n; i++) {
        v = (uint16_t)i;
        j = i;
        /*@ loop invariant 0 <= j <= i;
            loop invariant \forall integer a; 0 <= a < i + 1 && a != j ==> tmp[a] < n;
            loop invariant \forall integer a; 0 <= a < i && a != j ==> tmp[a] < n;
            loop invariant v < n;
            loop assigns j, tmp[0 .. i];
            loop variant j;
        */
        while (j > 0u && key[tmp[j - 1u]] > key[v]) {
            tmp[j] = tmp[j - 1u];
            j--;
        }
        tmp[j] = v;
    }
    /*@ loop invariant 0 <= p <= n;
        loop assigns p;
        loop variant n - p;
    */
    while (p < n && tmp[p] != src)
        p++;
    if (p >= n)
        return NC_ORDER_ERR;
    /*@ loop invariant 0 <= i <= n;
        loop assigns i, order[0 .. n - 1];
        loop variant n - i;
    */
    for (i = 0u; i < n; i++)
        order[i] = tmp[(p + i) % n];
    return nc_order_check(order, n, src) ? NC_ORDER_OK : NC_ORDER_ERR;
}

bool nc_switch_preorder(const uint8_t *down, uint32_t nsw, uint16_t *rank, uint16_t *stack)
{
    uint32_t s, r = 0u, sp, u, v;

    /*@ loop invariant 0 <= s <= nsw;
        loop invariant \forall integer x; 0 <= x < s ==> rank[x] == NC_NONE;
        loop assigns s, rank[0 .. nsw - 1];
        loop variant nsw - s;
    */
    for (s = 0u; s < nsw; s++)
        rank[s] = NC_NONE;
    /*@ loop invariant 0 <= s <= nsw && 0 <= r <= nsw;
        loop invariant \forall integer x; 0 <= x < nsw ==> rank[x] == NC_NONE || rank[x] < r;
        loop invariant \forall integer x; 0 <= x < s ==> rank[x] != NC_NONE;
        loop assigns s, r, sp, u, v, rank[0 .. nsw - 1], stack[0 .. nsw - 1];
        loop variant nsw - s;
    */
    for (s = 0u; s < nsw; s++) {
        if (rank[s] != NC_NONE)
            continue;
        if (r >= nsw)
            return false;
        rank[s] = (uint16_t)r++;
        stack[0] = (uint16_t)s;
        sp = 1u;
        /* A switch stays on the stack while it has a down neighbour not yet
         * reached; the first such neighbour (by index) is visited next. */
        /*@ loop invariant 0 <= sp <= nsw && 0 <= r <= nsw;
            loop invariant \forall integer x; 0 <= x < sp ==> stack[x] < nsw;
            loop invariant \forall integer x; 0 <= x < nsw ==> rank[x] == NC_NONE || rank[x] < r;
            loop invariant rank[s] != NC_NONE;
            loop invariant \forall integer x; 0 <= x < s ==> rank[x] != NC_NONE;
            loop assigns sp, r, u, v, rank[0 .. nsw - 1], stack[0 .. nsw - 1];
        */
        while (sp > 0u) {
            u = stack[sp - 1u];
            /*@ loop invariant 0 <= v <= nsw;
                loop assigns v;
                loop variant nsw - v;
            */
            for (v = 0u; v < nsw; v++)
                if (down[u * NC_ORDER_MAX_SWITCHES + v] && rank[v] == NC_NONE)
                    break;
            if (v == nsw) {
                sp--;
                continue;
            }
            if (r >= nsw || sp >= nsw)
                return false;
            rank[v] = (uint16_t)r++;
            stack[sp++] = (uint16_t)v;
        }
    }
    return true;
}

int nc_order_cco(const uint16_t *msw, const uint16_t *rank, uint32_t n, uint32_t nsw,
                 uint32_t src, uint32_t *key, uint16_t *tmp, uint16_t *order)
{
    uint32_t i;

    (void)nsw; /* bounds rank[] in the contract */
    /*@ loop invariant 0 <= i <= n;
        loop assigns i, key[0 .. n - 1];
        loop variant n - i;
    */
    for (i = 0u; i < n; i++)
        key[i] = (uint32_t)rank[msw[i]] * NC_MAX_NODES + i;
    return nc_order_by_key(key, n, src, tmp, order);
}

/* The pairs of concurrent edges (nc_concurrent) that share a channel and
 * involve at least one marked edge (an edge is named by its child's
 * position), each pair counted once. */
/*@ requires nc_routes_ok(r, n) && 1 <= n <= NC_MAX_NODES && 1 <= dr && 1 <= m;
    requires \valid_read(t) && t->n == n;
    requires \forall integer i; 0 < i < n ==> t->parent[i] < i;
    requires \valid_read(order + (0 .. n - 1)) && \valid_read(mark + (0 .. n - 1));
    requires \forall integer i; 0 <= i < n ==> order[i] < n;
    assigns \nothing;
    ensures \result <= n * NC_MAX_NODES;
*/
static uint32_t marked_contention(const nc_tree_t *t, const uint16_t *order, uint32_t n,
                                  const nc_routes_t *r, uint32_t dr, uint32_t m,
                                  const uint8_t *mark)
{
    uint32_t c = 0u, e, f;

    /*@ loop invariant 1 <= e <= n;
        loop invariant c <= (e - 1) * NC_MAX_NODES;
        loop assigns e, f, c;
        loop variant n - e;
    */
    for (e = 1u; e < n; e++) {
        if (!mark[e])
            continue;
        /*@ loop invariant 1 <= f <= n;
            loop invariant c <= (e - 1) * NC_MAX_NODES + f;
            loop assigns f, c;
            loop variant n - f;
        */
        for (f = 1u; f < n; f++) {
            if (f == e || (mark[f] && f < e) || !nc_concurrent(t->time[e], t->time[f], dr, m))
                continue;
            if (nc_routes_share(r, nc_route_index(n, order[t->parent[e]], order[e]),
                                nc_route_index(n, order[t->parent[f]], order[f])))
                c++;
        }
    }
    return c;
}

int nc_order_route_aware(const nc_tree_t *t, const nc_routes_t *r, uint32_t n, uint32_t src,
                         uint32_t dr, uint32_t m, uint32_t passes, uint16_t *order,
                         uint8_t *mark)
{
    uint32_t pass, i, j, q, before, after;
    bool better;
    uint16_t x;

    /*@ loop invariant 0 <= pass <= passes;
        loop invariant \forall integer a; 0 <= a < n ==> order[a] < n;
        loop assigns pass, i, j, q, before, after, better, x,
                     order[0 .. n - 1], mark[0 .. n - 1];
        loop variant passes - pass;
    */
    for (pass = 0u; pass < passes; pass++) {
        better = false;
        /*@ loop invariant 1 <= i <= n;
            loop invariant \forall integer a; 0 <= a < n ==> order[a] < n;
            loop assigns i, j, q, before, after, better, x, order[0 .. n - 1], mark[0 .. n - 1];
            loop variant n - i;
        */
        for (i = 1u; i < n; i++) {
            /*@ loop invariant i + 1 <= j <= n;
                loop invariant \forall integer a; 0 <= a < n ==> order[a] < n;
                loop assigns j, q, before, after, better, x, order[0 .. n - 1],
                             mark[0 .. n - 1];
                loop variant n - j;
            */
            for (j = i + 1u; j < n; j++) {
                /* The edges a swap of i and j changes: into i and j, and
                 * from i and j to their children. */
                /*@ loop invariant 0 <= q <= n;
                    loop assigns q, mark[0 .. n - 1];
                    loop variant n - q;
                */
                for (q = 0u; q < n; q++)
                    mark[q] = (uint8_t)(q > 0u && (q == i || q == j || t->parent[q] == i ||
                                                   t->parent[q] == j));
                before = marked_contention(t, order, n, r, dr, m, mark);
                x = order[i];
                order[i] = order[j];
                order[j] = x;
                after = marked_contention(t, order, n, r, dr, m, mark);
                if (after < before) {
                    better = true;
                } else {
                    x = order[i];
                    order[i] = order[j];
                    order[j] = x;
                }
            }
        }
        if (!better)
            break;
    }
    return nc_order_check(order, n, src) ? NC_ORDER_OK : NC_ORDER_ERR;
}
