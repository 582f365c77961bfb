/*
 * nc_tree.h - multicast / broadcast / barrier trees on an ordering of the
 * participating nodes.
 *
 * Trees are built on positions 0 .. n-1 of a caller-chosen ordering (seed
 * 001 section 4.3.2: a contention-free ordering, the source first).
 * Position 0 is the root.  For every position i the tree records
 *   parent[i]  the parent's position (NC_NONE for the root),
 *   rank[i]    which of its parent's sends reaches it (1 = first),
 *   time[i]    the step at which it receives a one-packet message,
 *   end[i]     its subtree is the contiguous range [i, end[i]) (range trees),
 *   deg[i]     its number of children.
 * A tree is *valid* for (k, lambda, T) when parent[i] < i for every i > 0 -
 * so following parents from any node strictly decreases and reaches the
 * root: a spanning tree of all n positions in which every non-root node has
 * exactly one parent - every node has at most k children, ranks are 1..k,
 * and time[i] = time[parent] + lambda + rank - 1 <= T (a child hears from
 * its parent lambda steps after the send starts, one send per step).
 *
 * Builders (host side; the NIC only receives its parent and children):
 *   nc_tree_build      the generic range builder of seed 001 Fig. 11
 *   nc_kbin_tree       optimal-depth k-binomial tree (binomial for k large)
 *   nc_postal_tree     latency-optimal tree for a send/deliver ratio
 *   nc_gb_tree         the fixed-dimension tree of the GB barrier
 * Every builder checks its result with nc_tree_check (proved) before it
 * reports success, so "success implies valid" is a proved contract.
 */
#ifndef NC_TREE_H
#define NC_TREE_H

#include <stdint.h>
#include <stdbool.h>
#include "nc_config.h"
#include "nc_logic.h"
#include "nc_kbin.h"

typedef struct {
    uint32_t n;
    uint16_t parent[NC_MAX_NODES];
    uint16_t rank[NC_MAX_NODES];
    uint16_t end[NC_MAX_NODES];
    uint32_t deg[NC_MAX_NODES];   /* uint32_t: keeps it apart from parent[] for WP's typed memory model */
    uint32_t time[NC_MAX_NODES];
} nc_tree_t;

/*@ // Children of position p among positions 1 .. i-1.
    logic integer nc_cnt{L}(nc_tree_t *t, integer p, integer i) =
      i <= 1 ? 0 : nc_cnt{L}(t, p, i - 1) + (\at(t->parent[i - 1], L) == p ? 1 : 0);

    predicate nc_tree_valid{L}(nc_tree_t *t, integer n, integer k,
                               integer lambda, integer T) =
      \valid(t) && 1 <= n <= NC_MAX_NODES && t->n == n &&
      t->parent[0] == NC_NONE && t->rank[0] == 0 && t->time[0] == 0 &&
      (\forall integer i; 0 < i < n ==> t->parent[i] < i) &&
      (\forall integer i; 0 < i < n ==> 1 <= t->rank[i] <= k) &&
      (\forall integer i; 0 < i < n ==>
         t->time[i] == t->time[t->parent[i]] + lambda + t->rank[i] - 1) &&
      (\forall integer i; 0 <= i < n ==> t->time[i] <= T) &&
      (\forall integer p; 0 <= p < n ==> t->deg[p] == nc_cnt{L}(t, p, n)) &&
      (\forall integer p; 0 <= p < n ==> nc_cnt{L}(t, p, n) <= k);

    // The positions are ordered by node id after the root (order[0]).
    predicate nc_sorted_after_root(uint16_t *order, integer n) =
      \forall integer a, b; 1 <= a < b < n ==> order[a] < order[b];

    // Seed 000 section 5.4: a child's id exceeds its parent's unless the
    // parent is the root.
    predicate nc_id_ordered(nc_tree_t *t, uint16_t *order, integer n) =
      \forall integer i; 0 < i < n ==>
        t->parent[i] == 0 || order[t->parent[i]] < order[i];

    lemma nc_valid_sorted_id_ordered{L}:
      \forall nc_tree_t *t, uint16_t *order, integer n, k, lambda, T;
        nc_tree_valid{L}(t, n, k, lambda, T) && nc_sorted_after_root(order, n) ==>
        nc_id_ordered(t, order, n);
*/

#define NC_TREE_OK   0
#define NC_TREE_ERR  1   /* parameters out of range or tree not buildable */

/* Check a tree; fills deg[].  Proved one way: true implies valid. */
/*@ requires \valid(t) && 1 <= n <= NC_MAX_NODES && 1 <= k <= NC_MAX_NODES;
    requires lambda <= NC_MAX_LAMBDA && T <= NC_MAX_STEPS;
    assigns t->deg[0 .. NC_MAX_NODES - 1], t->n;
    ensures \result ==> nc_tree_valid(t, n, k, lambda, T);
*/
bool nc_tree_check(nc_tree_t *t, uint32_t n, uint32_t k, uint32_t lambda, uint32_t T);

/* Generic range builder.  A node at position p that receives at time
 * time[p] and covers [p, end[p]) sends to children j = 1, 2, ... (at most
 * k): child j hears at time[p] + lambda + j - 1 and covers the
 * cover[T - time[child]] rightmost positions still uncovered (fewer if
 * fewer remain) - seed 001 Fig. 11 with cover = N(., k) and lambda = 1,
 * seed 000's postal tree with cover = P(., lambda) and k unbounded. */
/*@ requires \valid(t) && 1 <= n <= NC_MAX_NODES && 1 <= k <= NC_MAX_NODES;
    requires 1 <= lambda <= NC_MAX_LAMBDA && T <= NC_MAX_STEPS;
    requires \valid_read(cover + (0 .. T)) && \separated(t, cover + (0 .. T));
    assigns *t;
    ensures \result == NC_TREE_OK ==> nc_tree_valid(t, n, k, lambda, T);
*/
int nc_tree_build(nc_tree_t *t, uint32_t n, uint32_t k, uint32_t lambda,
                  uint32_t T, const uint32_t *cover);

/* k-binomial tree of least depth for n nodes (seed 001 section 4.3.2);
 * with k >= ceil(log2 n) it is the binomial tree.  *steps gets L1. */
/*@ requires \valid(t) && \valid(steps) && \separated(t, steps);
    requires 1 <= n <= NC_MAX_NODES && 1 <= k <= NC_MAX_K;
    assigns *t, *steps;
    ensures \result == NC_TREE_OK ==>
      nc_is_steps(n, k, *steps) && nc_tree_valid(t, n, k, 1, *steps);
*/
int nc_kbin_tree(nc_tree_t *t, uint32_t n, uint32_t k, uint32_t *steps);

/* Binomial tree: the k-binomial tree with k = ceil(log2 n). */
/*@ requires \valid(t) && \valid(steps) && \separated(t, steps);
    requires 1 <= n <= NC_MAX_NODES;
    assigns *t, *steps;
    ensures \result == NC_TREE_OK ==>
      nc_tree_valid(t, n, nc_clog2(n) < 1 ? 1 : nc_clog2(n), 1, *steps);
*/
int nc_binomial_tree(nc_tree_t *t, uint32_t n, uint32_t *steps);

/* Latency ratio of seed 000 section 5.5: how many destinations a node
 * can send to before its first receiver can send itself, the end-to-end
 * delivery time over the per-destination send time, rounded up. */
/*@ requires 1 <= send_time;
    assigns \nothing;
    ensures \result ==
      (deliver_time / send_time + (deliver_time % send_time != 0 ? 1 : 0) < 1 ? 1 :
       deliver_time / send_time + (deliver_time % send_time != 0 ? 1 : 0) > NC_MAX_LAMBDA
         ? NC_MAX_LAMBDA
         : deliver_time / send_time + (deliver_time % send_time != 0 ? 1 : 0));
*/
uint32_t nc_postal_ratio(uint32_t deliver_time, uint32_t send_time);

/* Postal (latency-optimal) tree for ratio lambda: every node keeps sending
 * while its first children are still in flight.  *steps gets the time by
 * which all n nodes hold the message, in send-time units. */
/*@ requires \valid(t) && \valid(steps) && \separated(t, steps);
    requires 1 <= n <= NC_MAX_NODES && 1 <= lambda <= NC_MAX_LAMBDA;
    assigns *t, *steps;
    ensures \result == NC_TREE_OK ==>
      *steps <= NC_MAX_STEPS && nc_P(*steps, lambda) >= n &&
      (\forall integer u; 0 <= u < *steps ==> nc_P(u, lambda) < n) &&
      nc_tree_valid(t, n, NC_MAX_NODES, lambda, *steps);
*/
int nc_postal_tree(nc_tree_t *t, uint32_t n, uint32_t lambda, uint32_t *steps);

/* GB barrier tree of dimension d (seed 002 section 5.1): the d-ary tree in
 * heap order, parent(i) = (i-1)/d; d = 1 is a chain, d = n-1 a star. */
/*@ requires \valid(t) && 1 <= n <= NC_MAX_NODES && 1 <= d <= NC_MAX_NODES;
    assigns *t;
    ensures \result == NC_TREE_OK ==> nc_tree_valid(t, n, d, 1, NC_MAX_STEPS);
    ensures \result == NC_TREE_OK ==>
      \forall integer i; 0 < i < n ==> t->parent[i] == (i - 1) / d;
*/
int nc_gb_tree(nc_tree_t *t, uint32_t n, uint32_t d);

/* The ID-ordered ordering of seed 000 section 5.4: the root first, then the
 * other members by increasing id.  ids[0 .. n-1] is the member set, sorted
 * and without repeats; root is one of them. */
/*@ requires 1 <= n <= NC_MAX_NODES;
    requires \valid_read(ids + (0 .. n - 1)) && \valid(order + (0 .. n - 1));
    requires \separated(ids + (0 .. n - 1), order + (0 .. n - 1));
    requires \forall integer a, b; 0 <= a < b < n ==> ids[a] < ids[b];
    requires \exists integer r; 0 <= r < n && ids[r] == root;
    assigns order[0 .. n - 1];
    ensures order[0] == root;
    ensures nc_sorted_after_root(order, n);
    ensures \forall integer i; 1 <= i < n ==> order[i] != root;
    ensures \forall integer r; 0 <= r < n && ids[r] == root ==>
      \forall integer a; 1 <= a < n ==> order[a] == (a <= r ? ids[a - 1] : ids[a]);
*/
void nc_id_order(const uint16_t *ids, uint32_t n, uint16_t root, uint16_t *order);

#endif
