/*
 * nc_contention.h - link contention of a multicast tree on a network's
 * routes (seed 001 section 4.3.2: a tree is depth contention-free when the
 * routes its edges take are edge-disjoint).
 *
 * The routes are an input: ref/ knows no topology.  A host program
 * (host/tools/lanai-order) computes them with the fabric model and passes,
 * for every ordered pair (a, b) of the n members, the directed channels a
 * message from member a to member b uses: the sending end of every cable on
 * the way, so the two directions of one cable are two channels (Myrinet
 * cables are full duplex, and messages that cross a cable in opposite
 * directions do not contend).
 *
 * The tree is an nc_tree_t on positions 0 .. n-1 of an ordering (order[p]
 * is the member at position p).  The edge into position i > 0 goes from
 * member order[parent[i]] to member order[i]; its step is time[i], the
 * step at which the send arrives (k-binomial trees use lambda = 1, so the
 * edges of one step are the sends that run at the same time).  The
 * contention count is the number of unordered pairs of edges of the same
 * step whose routes share at least one directed channel.
 *
 * A message of m packets is m one-packet multicasts, each dr steps behind
 * the one before (seed 001 Theorems 1 and 2: dr is the root's number of
 * children there, the most of any node; the caller passes the most
 * children of any node of its tree, since a NIC sends one packet per
 * step), so packet p on edge e and packet p + j on edge f run at the
 * same time when their steps differ by j * dr.  The pipelined count takes
 * the pairs whose steps differ by a multiple of dr below m * dr; m = 1 is
 * the same-step count.
 */
#ifndef NC_CONTENTION_H
#define NC_CONTENTION_H

#include <stdint.h>
#include <stdbool.h>
#include "nc_config.h"
#include "nc_tree.h"

#define NC_ROUTE_MAX 16u   /* channels per route: a NIC's cable + 15 switches */

/* Routes among n members: the route from a to b is number
 * a * NC_MAX_NODES + b, its channels ch[number * NC_ROUTE_MAX + h] for
 * h < len[number].  The fixed stride (not a * n + b) keeps every index
 * linear in the variables, which the provers need. */
typedef struct {
    uint32_t n;
    const uint32_t *ch;
    const uint8_t *len;
} nc_routes_t;

/*@ predicate nc_routes_ok(nc_routes_t *r, integer n) =
      \valid_read(r) && 1 <= n <= NC_MAX_NODES && r->n == n &&
      \valid_read(r->ch + (0 .. n * NC_MAX_NODES * NC_ROUTE_MAX - 1)) &&
      \valid_read(r->len + (0 .. n * NC_MAX_NODES - 1)) &&
      (\forall integer p; 0 <= p < n * NC_MAX_NODES ==> r->len[p] <= NC_ROUTE_MAX);

    // What the count needs of a tree and an ordering: parents before their
    // children, members in range, steps below nsteps.
    predicate nc_edges_ok(nc_tree_t *t, uint16_t *order, integer n, integer nsteps) =
      \valid_read(t) && t->n == n && \valid_read(order + (0 .. n - 1)) &&
      (\forall integer i; 0 <= i < n ==> order[i] < n) &&
      (\forall integer i; 0 < i < n ==> t->parent[i] < i) &&
      (\forall integer i; 0 < i < n ==> t->time[i] < nsteps);
*/

/* The number of the route from a to b among n members. */
/*@ requires 1 <= n <= NC_MAX_NODES && a < n && b < n;
    assigns \nothing;
    ensures \result == a * NC_MAX_NODES + b && \result < n * NC_MAX_NODES;
*/
uint32_t nc_route_index(uint32_t n, uint32_t a, uint32_t b);

/* Do routes number p and q (nc_route_index) share a directed channel? */
/*@ requires nc_routes_ok(r, r->n);
    requires p < r->n * NC_MAX_NODES && q < r->n * NC_MAX_NODES;
    assigns \nothing;
    ensures \result <==> \exists integer h1, h2;
      0 <= h1 < r->len[p] && 0 <= h2 < r->len[q] &&
      r->ch[p * NC_ROUTE_MAX + h1] == r->ch[q * NC_ROUTE_MAX + h2];
*/
bool nc_routes_share(const nc_routes_t *r, uint32_t p, uint32_t q);

/* Do edges stepping at ti and tj run at the same time for some packets of
 * an m-packet message whose packets are dr steps apart? */
/*@ requires 1 <= dr && 1 <= m;
    assigns \nothing;
    ensures \result <==>
      ((ti >= tj ? ti - tj : tj - ti) % dr == 0 && (ti >= tj ? ti - tj : tj - ti) / dr < m);
*/
bool nc_concurrent(uint32_t ti, uint32_t tj, uint32_t dr, uint32_t m);

/* The pipelined contention count of tree t on ordering order for m
 * packets dr steps apart: per_step[s] gets the count of the pairs whose
 * earlier edge steps at s (s < nsteps; per_step may be NULL), the result is
 * the total.  Each pair is counted once, so the total is below n - 1
 * pairs per edge (the contract states the linear bound (n-1) x
 * NC_MAX_NODES, which the provers handle), and no step's count exceeds
 * it. */
/*@ requires nc_routes_ok(r, n) && 1 <= n <= NC_MAX_NODES;
    requires 1 <= nsteps <= NC_MAX_STEPS + 1 && 1 <= dr && 1 <= m;
    requires nc_edges_ok(t, order, n, nsteps);
    requires per_step == \null ||
      (\valid(per_step + (0 .. nsteps - 1)) &&
       \separated(per_step + (0 .. nsteps - 1), t, order + (0 .. n - 1), r,
                  r->ch + (0 .. n * NC_MAX_NODES * NC_ROUTE_MAX - 1), r->len + (0 .. n * NC_MAX_NODES - 1)));
    assigns per_step[0 .. nsteps - 1];
    ensures \result <= (n - 1) * NC_MAX_NODES;
    ensures per_step != \null ==>
      \forall integer s; 0 <= s < nsteps ==> per_step[s] <= \result;
*/
uint32_t nc_contention(const nc_tree_t *t, const uint16_t *order, uint32_t n,
                       const nc_routes_t *r, uint32_t dr, uint32_t m,
                       uint32_t *per_step, uint32_t nsteps);

#endif
