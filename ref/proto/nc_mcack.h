/*
 * nc_mcack.h - per-child acknowledgement tracking for reliable, ordered
 * multicast (seed 000 section 5.3).
 *
 * A node that forwards a group's packets to its children sends each packet
 * once per child with one sequence number, and keeps an array of what each
 * child has acknowledged.  A packet can be released (its host buffer
 * deregistered, its receive token reused) only when every child holds it,
 * so the window's base is the minimum over children.  On timeout a packet
 * and all later ones are resent only to the children that did not ack it.
 *
 * Representation: packets in flight are base .. base+count-1 (mod 2^32);
 * child i holds base .. base+acked[i]-1.  After every call the tracker is
 * normalised: some child has acked[i] == 0, i.e. base really is the oldest
 * packet some child still owes.
 *
 * Incremental minimum: `lag` names one child with acked == 0.  While that
 * child holds nothing new the window cannot move, so an ACK from any other
 * child costs O(1); only when the lagging child acknowledges is another
 * child with acked == 0 looked for, starting after it (children acknowledge
 * about in the order they were sent to, so it is usually the next one), and
 * only when there is none does the window slide (O(children), once per
 * packet rather than once per ACK).
 */
#ifndef NC_MCACK_H
#define NC_MCACK_H

#include <stdint.h>
#include <stdbool.h>
#include "nc_config.h"
#include "nc_logic.h"
#include "nc_seq.h"

typedef struct {
    uint32_t base;       /* oldest packet not yet held by every child     */
    uint32_t count;      /* packets in flight                             */
    uint32_t window;     /* capacity, 1 .. NC_TX_WINDOW_MAX               */
    uint32_t nchildren;  /* 1 .. NC_MC_MAX_CHILDREN                       */
    uint32_t lag;        /* a child with acked[lag] == 0 (see above)      */
    uint32_t acked[NC_MC_MAX_CHILDREN]; /* per child, relative to base    */
} nc_mc_t;

/*@ predicate nc_mc_ok(nc_mc_t *t) =
      \valid(t) &&
      1 <= t->window <= NC_TX_WINDOW_MAX && t->count <= t->window &&
      1 <= t->nchildren <= NC_MC_MAX_CHILDREN &&
      (\forall integer i; 0 <= i < t->nchildren ==> t->acked[i] <= t->count) &&
      (\exists integer i; 0 <= i < t->nchildren && t->acked[i] == 0);

    // The incremental minimum's witness (kept apart from nc_mc_ok: the
    // queries below do not need it).
    predicate nc_mc_lag_ok(nc_mc_t *t) =
      t->lag < t->nchildren && t->acked[t->lag] == 0;

    // 1 if child c still owes an acknowledgement for packet seq, else 0.
    logic integer nc_mc_owe01(nc_mc_t *t, integer c, integer seq) =
      (nc_seq_dist(t->base, seq) < t->count &&
       t->acked[c] <= nc_seq_dist(t->base, seq)) ? 1 : 0;
    predicate nc_mc_owing(nc_mc_t *t, integer c, integer seq) =
      nc_mc_owe01(t, c, seq) == 1;

    // Bit mask (as a number) of the children among 0 .. n-1 owing seq.
    logic integer nc_mc_mask(nc_mc_t *t, integer seq, integer n) =
      n <= 0 ? 0 :
      nc_mc_mask(t, seq, n - 1) + nc_mc_owe01(t, n - 1, seq) * nc_pow2(n - 1);
*/

/*@ requires \valid(t);
    requires 1 <= nchildren <= NC_MC_MAX_CHILDREN;
    requires 1 <= window <= NC_TX_WINDOW_MAX;
    assigns *t;
    ensures nc_mc_ok(t) && nc_mc_lag_ok(t);
    ensures t->base == first && t->count == 0;
    ensures t->nchildren == nchildren && t->window == window;
*/
void nc_mc_init(nc_mc_t *t, uint32_t nchildren, uint32_t first, uint32_t window);

/* Number the next group packet (sent to every child).  Returns its seq. */
/*@ requires nc_mc_ok(t) && nc_mc_lag_ok(t) && t->count < t->window;
    assigns t->count;
    ensures nc_mc_ok(t) && nc_mc_lag_ok(t);
    ensures t->count == \old(t->count) + 1;
    ensures \result == nc_seq_add(t->base, \old(t->count));
*/
uint32_t nc_mc_push(nc_mc_t *t);

/* Child `child` acknowledges everything up to and including `ack`.
 * Returns how many packets are now held by every child and leave the
 * window (base advances by that much).  Stale, duplicate or bogus ACKs
 * change nothing but may still return 0. */
/*@ requires nc_mc_ok(t) && nc_mc_lag_ok(t) && child < t->nchildren;
    assigns t->base, t->count, t->lag, t->acked[0 .. NC_MC_MAX_CHILDREN - 1];
    ensures nc_mc_ok(t) && nc_mc_lag_ok(t);
    ensures t->count == \old(t->count) - \result;
    ensures t->base == nc_seq_add(\old(t->base), \result);
    ensures news: \forall integer i; 0 <= i < t->nchildren ==>
      t->acked[i] + \result ==
        (i == child && nc_seq_dist(\old(t->base), ack) < \old(t->count)
                    && nc_seq_dist(\old(t->base), ack) + 1 > \old(t->acked[i])
           ? nc_seq_dist(\old(t->base), ack) + 1
           : \old(t->acked[i]));
*/
uint32_t nc_mc_ack(nc_mc_t *t, uint32_t child, uint32_t ack);

/*@ requires nc_mc_ok(t) && child < t->nchildren;
    assigns \nothing;
    ensures \result <==> nc_mc_owing(t, child, seq);
*/
bool nc_mc_owes(const nc_mc_t *t, uint32_t child, uint32_t seq);

/* The set of children still owing an ack for seq: bit i set <=> child i
 * owes it.  0 for a packet not in flight. */
/*@ requires nc_mc_ok(t);
    assigns \nothing;
    ensures \result == nc_mc_mask(t, seq, t->nchildren);
*/
uint32_t nc_mc_owing_mask(const nc_mc_t *t, uint32_t seq);

/* Oldest packet some child still owes (the group minimum acknowledged + 1). */
/*@ requires nc_mc_ok(t);
    assigns \nothing;
    ensures \result == t->base;
*/
uint32_t nc_mc_min_unacked(const nc_mc_t *t);

/* Timeout for one child: what to resend to it (go-back-N, this child only).
 * Returns the number of packets, starting at *first. */
/*@ requires nc_mc_ok(t) && child < t->nchildren && \valid(first);
    requires \separated(t, first);
    assigns *first;
    ensures \result == t->count - t->acked[child];
    ensures *first == nc_seq_add(t->base, t->acked[child]);
*/
uint32_t nc_mc_resend(const nc_mc_t *t, uint32_t child, uint32_t *first);

#endif
