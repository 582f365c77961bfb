/*
 * nc_order.h - orderings of a multicast's members for the tree builders of
 * nc_tree.h (seed 001 section 4.3.2: a k-binomial tree is built on an
 * ordering of the members, the source first).
 *
 * The members are numbered 0 .. n-1 by the caller (host/tools/lanai-order
 * numbers them in increasing node id); an ordering is an array order[0 ..
 * n-1] holding each member number exactly once, the source first.  ref/
 * knows no topology: what an ordering needs of the network comes in as
 * arrays (the switch of each member, the down links between switches, the
 * routes of nc_contention.h), computed by the host with the fabric model.
 *
 *   nc_order_by_key     the members by increasing key, rotated so that the
 *                       source comes first (the id ordering: key = number)
 *   nc_switch_preorder  the switches in depth-first preorder over the down
 *                       links of up*-down* routing: the chains of the chain
 *                       concatenated ordering (docs/irregular.md)
 *   nc_order_cco        the chain concatenated ordering: members grouped by
 *                       switch, switches in that preorder, rotated
 *   nc_order_route_aware an ordering improved by swaps, each kept only if
 *                       it lowers the tree's contention on the real routes
 * Each builder checks its result with nc_order_check (proved) before it
 * reports success, so "success implies an ordering" is a proved contract.
 */
#ifndef NC_ORDER_H
#define NC_ORDER_H

#include <stdint.h>
#include <stdbool.h>
#include "nc_config.h"
#include "nc_tree.h"
#include "nc_contention.h"

#define NC_ORDER_OK  0
#define NC_ORDER_ERR 1
#define NC_ORDER_MAX_SWITCHES 256u   /* down-link matrix of 64 KB at most */

/*@ // order is a permutation of 0 .. n-1 with src first: n values in
    // range and pairwise distinct (by pigeonhole, each value exactly once).
    predicate nc_is_ordering{L}(uint16_t *order, integer n, integer src) =
      1 <= n <= NC_MAX_NODES && \valid_read(order + (0 .. n - 1)) &&
      order[0] == src &&
      (\forall integer i; 0 <= i < n ==> order[i] < n) &&
      (\forall integer i, j; 0 <= i < j < n ==> order[i] != order[j]);
*/

/* Is order an ordering of n members with src first?  Exactly the predicate. */
/*@ requires 1 <= n <= NC_MAX_NODES && \valid_read(order + (0 .. n - 1));
    assigns \nothing;
    ensures \result <==> nc_is_ordering(order, n, src);
*/
bool nc_order_check(const uint16_t *order, uint32_t n, uint32_t src);

/* The members sorted by key (ties by member number), then rotated so that
 * src is first and the members after it in the sorted list follow it. */
/*@ requires 1 <= n <= NC_MAX_NODES && src < n;
    requires \valid_read(key + (0 .. n - 1));
    requires \valid(tmp + (0 .. n - 1)) && \valid(order + (0 .. n - 1));
    requires \separated(key + (0 .. n - 1), tmp + (0 .. n - 1), order + (0 .. n - 1));
    assigns tmp[0 .. n - 1], order[0 .. n - 1];
    ensures \result == NC_ORDER_OK ==> nc_is_ordering(order, n, src);
*/
int nc_order_by_key(const uint32_t *key, uint32_t n, uint32_t src, uint16_t *tmp,
                    uint16_t *order);

/* Depth-first preorder of nsw switches over the down links
 * (down[a * NC_ORDER_MAX_SWITCHES + b] != 0: the cable from a to b goes
 * down; the fixed stride keeps the index linear for the provers), from switch 0
 * and then from each switch not yet reached, in index order; a switch's
 * down neighbours are taken in index order.  rank[s] gets s's place in the
 * preorder.  false only if the walk went out of bounds (it cannot: each
 * switch is pushed once). */
/*@ requires 1 <= nsw <= NC_ORDER_MAX_SWITCHES;
    requires \valid_read(down + (0 .. nsw * NC_ORDER_MAX_SWITCHES - 1));
    requires \valid(rank + (0 .. nsw - 1)) && \valid(stack + (0 .. nsw - 1));
    requires \separated(down + (0 .. nsw * NC_ORDER_MAX_SWITCHES - 1), rank + (0 .. nsw - 1),
                        stack + (0 .. nsw - 1));
    assigns rank[0 .. nsw - 1], stack[0 .. nsw - 1];
    ensures \result ==> \forall integer s; 0 <= s < nsw ==> rank[s] < nsw;
*/
bool nc_switch_preorder(const uint8_t *down, uint32_t nsw, uint16_t *rank, uint16_t *stack);

/* The chain concatenated ordering: member i sits on switch msw[i], whose
 * preorder rank is rank[msw[i]]; the members by (rank, member number),
 * rotated to put src first. */
/*@ requires 1 <= n <= NC_MAX_NODES && src < n && 1 <= nsw <= NC_ORDER_MAX_SWITCHES;
    requires \valid_read(msw + (0 .. n - 1)) && \valid_read(rank + (0 .. nsw - 1));
    requires \forall integer i; 0 <= i < n ==> msw[i] < nsw;
    requires \forall integer s; 0 <= s < nsw ==> rank[s] < nsw;
    requires \valid(key + (0 .. n - 1)) && \valid(tmp + (0 .. n - 1)) &&
             \valid(order + (0 .. n - 1));
    requires \separated(key + (0 .. n - 1), tmp + (0 .. n - 1), order + (0 .. n - 1),
                        msw + (0 .. n - 1), rank + (0 .. nsw - 1));
    assigns key[0 .. n - 1], tmp[0 .. n - 1], order[0 .. n - 1];
    ensures \result == NC_ORDER_OK ==> nc_is_ordering(order, n, src);
*/
int nc_order_cco(const uint16_t *msw, const uint16_t *rank, uint32_t n, uint32_t nsw,
                 uint32_t src, uint32_t *key, uint16_t *tmp, uint16_t *order);

/* Improve an ordering for tree t on routes r: for up to `passes` passes,
 * try swapping every pair of positions 1 <= i < j < n and keep a swap only
 * if it strictly lowers the contention count (nc_contention.h, for m
 * packets dr steps apart) of the edges it changes; stop after a pass with
 * no improvement.  The count
 * never rises, so the result is never worse than the ordering given.
 * mark[0 .. n-1] is scratch. */
/*@ requires nc_routes_ok(r, n) && 1 <= n <= NC_MAX_NODES && src < n;
    requires 1 <= dr && 1 <= m;
    requires \valid_read(t) && t->n == n;
    requires \forall integer i; 0 < i < n ==> t->parent[i] < i;
    requires \valid(order + (0 .. n - 1)) && \valid(mark + (0 .. n - 1));
    requires \forall integer i; 0 <= i < n ==> order[i] < n;
    requires \separated(order + (0 .. n - 1), mark + (0 .. n - 1), t, r,
                        r->ch + (0 .. n * NC_MAX_NODES * NC_ROUTE_MAX - 1), r->len + (0 .. n * NC_MAX_NODES - 1));
    requires \separated(mark + (0 .. n - 1), t, r,
                        r->ch + (0 .. n * NC_MAX_NODES * NC_ROUTE_MAX - 1), r->len + (0 .. n * NC_MAX_NODES - 1));
    assigns order[0 .. n - 1], mark[0 .. n - 1];
    ensures \result == NC_ORDER_OK ==> nc_is_ordering(order, n, src);
*/
int nc_order_route_aware(const nc_tree_t *t, const nc_routes_t *r, uint32_t n, uint32_t src,
                         uint32_t dr, uint32_t m, uint32_t passes, uint16_t *order,
                         uint8_t *mark);

#endif
