/*
 * nc_barrec.h - the unexpected-barrier-message record of one local port,
 * with the closed-port rule (seed 002 sections 3.1, 3.2 and 4.3).
 *
 * A NIC may receive a barrier message before its own process has reached
 * that barrier, even before the process has opened its port.  Since a
 * process is in at most one barrier at a time, at most one such message can
 * be outstanding from each remote (node, port): one bit per connection and
 * remote port records it, one byte per connection because GM has 8 ports.
 * When the barrier gets to the point of waiting for (node, port) it
 * test-and-clears the bit.
 *
 * Closed-port rule (the variant seed 002 adopts): messages that arrive while
 * the port is closed are recorded in a second bit array; when the port is
 * opened they are rejected (the firmware sends a reject to each), so their
 * senders resend only if the barrier that sent them is still alive.  A new
 * process therefore never completes a barrier on a message meant for the
 * previous owner of its port.  Closing the port drops everything recorded
 * for the process that owned it.
 *
 * The firmware keeps one nc_barrec_t per local port (2 KB each with
 * NC_MAX_NODES = 1024).
 */
#ifndef NC_BARREC_H
#define NC_BARREC_H

#include <stdint.h>
#include <stdbool.h>
#include "nc_config.h"
#include "nc_logic.h"

typedef struct {
    uint8_t unexpected[NC_MAX_NODES]; /* bit q of [c]: from (node c, port q) */
    uint8_t held[NC_MAX_NODES];       /* same, arrived while port closed    */
    bool open;
} nc_barrec_t;

typedef enum {
    NC_BAR_RECORDED = 0,  /* port open: recorded as unexpected             */
    NC_BAR_DUP      = 1,  /* port open: bit already set (a duplicate)       */
    NC_BAR_HELD     = 2   /* port closed: held, to be rejected on open      */
} nc_bar_verdict_t;

/*@ predicate nc_bar_ok(nc_barrec_t *r) = \valid(r);

    predicate nc_bar_all_clear{L}(uint8_t *a) =
      \forall integer c; 0 <= c < NC_MAX_NODES ==> \at(a[c], L) == 0;

    // b is a with bit q of entry c set (when set is 1) or cleared (0).
    predicate nc_bar_set_bit{L1, L2}(uint8_t *a, integer c, integer q, integer on) =
      (\forall integer j; 0 <= j < NC_MAX_NODES && j != c ==> \at(a[j], L2) == \at(a[j], L1)) &&
      \at(a[c], L2) == \at(a[c], L1)
        + (on == 1 && nc_bit8(\at(a[c], L1), q) == 0 ?  nc_pow2_8(q) : 0)
        - (on == 0 && nc_bit8(\at(a[c], L1), q) == 1 ?  nc_pow2_8(q) : 0);
*/

/* A fresh record: port closed, nothing recorded. */
/*@ requires \valid(r);
    assigns *r;
    ensures !r->open;
    ensures nc_bar_all_clear{Here}(&r->unexpected[0]) && nc_bar_all_clear{Here}(&r->held[0]);
*/
void nc_bar_init(nc_barrec_t *r);

/* The port is opened.  Returns whether messages are held, which the
 * firmware must now reject (nc_bar_next_reject until it returns false);
 * unexpected bits start clear. */
/*@ requires \valid(r);
    assigns r->open, r->unexpected[0 .. NC_MAX_NODES - 1];
    ensures r->open;
    ensures nc_bar_all_clear{Here}(&r->unexpected[0]);
    ensures \result <==> \exists integer c; 0 <= c < NC_MAX_NODES && r->held[c] != 0;
*/
bool nc_bar_open(nc_barrec_t *r);

/* The port is closed: what was recorded for its process is stale. */
/*@ requires \valid(r);
    assigns r->open, r->unexpected[0 .. NC_MAX_NODES - 1];
    ensures !r->open;
    ensures nc_bar_all_clear{Here}(&r->unexpected[0]);
*/
void nc_bar_close(nc_barrec_t *r);

/* A barrier message from (node, port) arrived and nobody was waiting for it. */
/*@ requires \valid(r) && node < NC_MAX_NODES && port < NC_MAX_PORTS;
    assigns r->unexpected[node], r->held[node];
    behavior closed:
      assumes !r->open;
      ensures \result == NC_BAR_HELD;
      ensures nc_bar_set_bit{Pre, Post}(&r->held[0], node, port, 1);
      ensures r->unexpected[node] == \old(r->unexpected[node]);
      ensures nc_bit8(r->held[node], port) == 1;
    behavior open:
      assumes r->open;
      ensures \result == (nc_bit8(\old(r->unexpected[node]), port) == 1
                            ? NC_BAR_DUP : NC_BAR_RECORDED);
      ensures nc_bar_set_bit{Pre, Post}(&r->unexpected[0], node, port, 1);
      ensures r->held[node] == \old(r->held[node]);
      ensures nc_bit8(r->unexpected[node], port) == 1;
    complete behaviors;
    disjoint behaviors;
*/
nc_bar_verdict_t nc_bar_receive(nc_barrec_t *r, uint32_t node, uint32_t port);

/* Has the message from (node, port) already arrived?  Returns the previous
 * bit and leaves it clear, so the record can take the next barrier's
 * message from the same sender. */
/*@ requires \valid(r) && node < NC_MAX_NODES && port < NC_MAX_PORTS;
    assigns r->unexpected[node];
    ensures \result <==> nc_bit8(\old(r->unexpected[node]), port) == 1;
    ensures nc_bit8(r->unexpected[node], port) == 0;
    ensures nc_bar_set_bit{Pre, Post}(&r->unexpected[0], node, port, 0);
*/
bool nc_bar_test_and_clear(nc_barrec_t *r, uint32_t node, uint32_t port);

/* Take one held message to reject: the lowest (node, port) whose held bit
 * is set; clears it.  Returns false when none is left. */
/*@ requires \valid(r) && \valid(node) && \valid(port);
    requires \separated(r, node, port);
    assigns r->held[0 .. NC_MAX_NODES - 1], *node, *port;
    behavior found:
      assumes \exists integer c, q; 0 <= c < NC_MAX_NODES && 0 <= q < 8 &&
              nc_bit8(r->held[c], q) == 1;
      ensures \result;
      ensures *node < NC_MAX_NODES && *port < 8;
      ensures nc_bit8(\old(r->held)[*node], *port) == 1;
      ensures nc_bar_set_bit{Pre, Post}(&r->held[0], *node, *port, 0);
      ensures \forall integer c, q; 0 <= c < *node && 0 <= q < 8 ==>
                nc_bit8(r->held[c], q) == 0;
    behavior none:
      assumes \forall integer c, q; 0 <= c < NC_MAX_NODES && 0 <= q < 8 ==>
              nc_bit8(r->held[c], q) == 0;
      ensures !\result;
      ensures \forall integer c; 0 <= c < NC_MAX_NODES ==> r->held[c] == \old(r->held[c]);
    complete behaviors;
    disjoint behaviors;
*/
bool nc_bar_next_reject(nc_barrec_t *r, uint32_t *node, uint32_t *port);

#endif
