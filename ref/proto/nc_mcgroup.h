/*
 * nc_mcgroup.h - the per-group decisions of NIC multicast (seed 000
 * sections 5.2-5.3), as firmware/coll/mcast.c takes them at one NIC.
 *
 * A NIC is in a group as its root (sends to its children), an inner member
 * (takes from its parent, forwards to its children) or a leaf (takes from
 * its parent).  The state here is the part of the firmware's group entry
 * the protocol's rules are about:
 *   - receive side: `expect`, the next group sequence number from the
 *     parent.  Only that one is taken; an older one is a duplicate (the
 *     member's ACK was lost: acknowledge again); anything else is dropped
 *     (the group's order is the root's, and the parent sends it again).
 *   - toward the children: the per-child ack tracker nc_mc_t (nc_mcack.h).
 *     An inner member numbers a packet it forwards with the parent's
 *     number, so its window always ends where its receive side is:
 *     base + count == expect (mod 2^32).
 *   - the cumulative ACK sent up: a leaf acknowledges what it took; an
 *     inner member only what every child acknowledged (its whole subtree
 *     holds it), `up`, which trails the window's base.
 *   - release: the host buffer of a message (the root's send buffer, an
 *     inner member's receive buffer, the copy retransmissions come from)
 *     is given back only once every child acknowledged the message's last
 *     packet.
 */
#ifndef NC_MCGROUP_H
#define NC_MCGROUP_H

#include <stdint.h>
#include <stdbool.h>
#include "nc_config.h"
#include "nc_logic.h"
#include "nc_seq.h"
#include "nc_mcack.h"

#define NC_MG_ROOT  0u
#define NC_MG_INNER 1u
#define NC_MG_LEAF  2u

typedef enum {
    NC_MG_TAKE = 0,     /* the next one from the parent: take it          */
    NC_MG_DUP = 1,      /* taken before: acknowledge again, drop          */
    NC_MG_DROP = 2      /* out of order (or no room): drop, say nothing   */
} nc_mg_verdict_t;

typedef struct {
    nc_mc_t mc;          /* toward the children (root, inner member)       */
    uint32_t role;       /* NC_MG_ROOT, NC_MG_INNER, NC_MG_LEAF            */
    uint32_t expect;     /* member: next group sequence number expected    */
    uint32_t up;         /* inner member: the cumulative ACK last sent up  */
} nc_mg_t;

/*@ predicate nc_mg_ok(nc_mg_t *g) =
      \valid(g) && nc_mc_ok(&g->mc) && nc_mc_lag_ok(&g->mc) &&
      g->role <= NC_MG_LEAF &&
      (g->role == NC_MG_INNER ==>
         nc_seq_dist(g->mc.base, g->expect) == g->mc.count);
*/

/* A group entry: role, its children (0 for a leaf), the first sequence
 * number the group uses, the window toward the children. */
/*@ requires \valid(g);
    requires role <= NC_MG_LEAF;
    requires role == NC_MG_LEAF ? nchildren == 0 : 1 <= nchildren <= NC_MC_MAX_CHILDREN;
    requires 1 <= window <= NC_TX_WINDOW_MAX;
    assigns *g;
    ensures nc_mg_ok(g);
    ensures g->role == role && g->expect == first && g->mc.count == 0;
    ensures g->mc.base == first && g->mc.window == window;
    ensures g->mc.nchildren == (role == NC_MG_LEAF ? 1 : nchildren);
    ensures nc_seq_add(g->up, 1) == first;
*/
void nc_mg_init(nc_mg_t *g, uint32_t role, uint32_t nchildren, uint32_t first, uint32_t window);

/* What a member does with packet seq from its parent.  An inner member
 * takes it only when its window toward the children has room (a parent
 * that keeps to its own window never sends beyond it). */
/*@ requires nc_mg_ok(g) && g->role != NC_MG_ROOT;
    assigns \nothing;
    behavior take:
      assumes seq == g->expect &&
              (g->role != NC_MG_INNER || g->mc.count < g->mc.window);
      ensures \result == NC_MG_TAKE;
    behavior full:
      assumes seq == g->expect &&
              g->role == NC_MG_INNER && g->mc.count >= g->mc.window;
      ensures \result == NC_MG_DROP;
    behavior dup:
      assumes seq != g->expect && nc_seq_before(seq, g->expect);
      ensures \result == NC_MG_DUP;
    behavior gap:
      assumes seq != g->expect && !nc_seq_before(seq, g->expect);
      ensures \result == NC_MG_DROP;
    complete behaviors;
    disjoint behaviors;
*/
nc_mg_verdict_t nc_mg_classify(const nc_mg_t *g, uint32_t seq);

/* Take packet seq (nc_mg_classify said NC_MG_TAKE); an inner member
 * numbers it toward its children with the same number. */
/*@ requires nc_mg_ok(g) && g->role != NC_MG_ROOT && seq == g->expect;
    requires g->role == NC_MG_INNER ==> g->mc.count < g->mc.window;
    assigns g->expect, g->mc.count;
    ensures nc_mg_ok(g);
    ensures g->expect == nc_seq_add(seq, 1);
    ensures g->mc.count == \old(g->mc.count) + (g->role == NC_MG_INNER ? 1 : 0);
*/
void nc_mg_take(nc_mg_t *g, uint32_t seq);

/* The root numbers its next packet (sent to every child).  Returns it. */
/*@ requires nc_mg_ok(g) && g->role == NC_MG_ROOT && g->mc.count < g->mc.window;
    assigns g->mc.count;
    ensures nc_mg_ok(g);
    ensures g->mc.count == \old(g->mc.count) + 1;
    ensures \result == nc_seq_add(g->mc.base, \old(g->mc.count));
*/
uint32_t nc_mg_push(nc_mg_t *g);

/* Child `child` holds every packet up to and including `ack` (nc_mc_ack).
 * Returns how many packets every child now holds and left the window. */
/*@ requires nc_mg_ok(g) && g->role != NC_MG_LEAF && child < g->mc.nchildren;
    assigns g->mc.base, g->mc.count, g->mc.lag, g->mc.acked[0 .. NC_MC_MAX_CHILDREN - 1];
    ensures nc_mg_ok(g);
    ensures g->mc.count == \old(g->mc.count) - \result;
    ensures g->mc.base == nc_seq_add(\old(g->mc.base), \result);
*/
uint32_t nc_mg_child_ack(nc_mg_t *g, uint32_t child, uint32_t ack);

/* The cumulative ACK for the parent: a leaf's is the last packet taken,
 * an inner member's the last one its whole subtree holds (as last sent:
 * see nc_mg_ack_due). */
/*@ requires nc_mg_ok(g) && g->role != NC_MG_ROOT;
    assigns \nothing;
    ensures g->role == NC_MG_INNER ==> \result == g->up;
    ensures g->role == NC_MG_LEAF ==> nc_seq_add(\result, 1) == g->expect;
*/
uint32_t nc_mg_up_ack(const nc_mg_t *g);

/* An inner member's subtree holds more than it last told its parent:
 * true, *ack = the new cumulative ACK (every packet before the window's
 * base: every child acknowledged it), remembered as sent. */
/*@ requires nc_mg_ok(g) && \valid(ack) && \separated(g, ack);
    assigns g->up, *ack;
    ensures nc_mg_ok(g);
    behavior due:
      assumes g->role == NC_MG_INNER && nc_seq_add(g->up, 1) != g->mc.base;
      ensures \result && nc_seq_add(*ack, 1) == g->mc.base && g->up == *ack;
    behavior not_due:
      assumes g->role != NC_MG_INNER || nc_seq_add(g->up, 1) == g->mc.base;
      ensures !\result && g->up == \old(g->up) && *ack == \old(*ack);
    complete behaviors;
    disjoint behaviors;
*/
bool nc_mg_ack_due(nc_mg_t *g, uint32_t *ack);

/* Release rule.  The message being sent (root) or held (inner member)
 * occupies packets first .. first+npk-1, of which `built` are numbered so
 * far, and the window holds no packet of an earlier message (a message
 * starts only on an empty window).  True when it may be released: every
 * packet numbered and every child acknowledged every one of them. */
/*@ requires nc_mg_ok(g) && g->role != NC_MG_LEAF;
    requires built <= npk && g->mc.count <= built;
    requires nc_seq_add(first, built) == nc_seq_add(g->mc.base, g->mc.count);
    assigns \nothing;
    ensures \result <==> (built == npk &&
      \forall integer p, c; 0 <= p < npk && 0 <= c < g->mc.nchildren ==>
        !nc_mc_owing(&g->mc, c, nc_seq_add(first, p)));
*/
bool nc_mg_msg_done(const nc_mg_t *g, uint32_t first, uint32_t built, uint32_t npk);

/* The children to send packet seq again on a time-out: bit i set <=>
 * child i has not acknowledged it (nc_mc_owing_mask). */
/*@ requires nc_mg_ok(g) && g->role != NC_MG_LEAF;
    assigns \nothing;
    ensures \result == nc_mc_mask(&g->mc, seq, g->mc.nchildren);
*/
uint32_t nc_mg_resend_mask(const nc_mg_t *g, uint32_t seq);

#endif
