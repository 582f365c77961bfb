/*
 * nc_seq.h - sequence numbers, the receive window and the go-back-N send
 * window of a reliable, ordered connection (GM style, seed 000 section 5.3).
 *
 * Sequence numbers are 32-bit and wrap.  The receiver accepts exactly the
 * next number; everything else is either an old duplicate (answered with a
 * cumulative ACK so a sender whose ACK was lost moves on) or a packet beyond
 * a gap (answered with a NACK naming the number the receiver wants, so the
 * sender goes back to it).  The sender keeps at most `window` packets in
 * flight and, on timeout or NACK, resends every packet from the oldest one
 * the receiver still wants: go-back-N.
 *
 * All functions are pure state transitions on caller-owned structs; none
 * blocks, allocates or touches anything else.  Contracts are ACSL; the proof
 * report is ref/proto/PROOF-REPORT.md.
 */
#ifndef NC_SEQ_H
#define NC_SEQ_H

#include <stdint.h>
#include <stdbool.h>
#include "nc_config.h"
#include "nc_logic.h"

/* ---------------------------------------------------------------------- */
/* Comparison (serial-number arithmetic, RFC 1982 with SERIAL_BITS = 32).  */
/* a precedes b when b lies 1 .. 2^31-1 steps ahead of a.  Two numbers      */
/* exactly 2^31 apart are unordered (neither precedes the other); windows   */
/* are at most NC_TX_WINDOW_MAX wide, so that never arises in use.          */
/* ---------------------------------------------------------------------- */

/*@ predicate nc_seq_before(integer a, integer b) =
      (a < b && b - a < 2147483648) || (a > b && a - b > 2147483648);
*/

/*@ assigns \nothing;
    ensures \result <==> nc_seq_before(a, b);
*/
bool nc_seq_lt(uint32_t a, uint32_t b);

/*@ assigns \nothing;
    ensures \result == nc_seq_dist(a, b);
*/
uint32_t nc_seq_distance(uint32_t a, uint32_t b);

/* ---------------------------------------------------------------------- */
/* Receive window: accepts exactly the next sequence number.               */
/* ---------------------------------------------------------------------- */

typedef struct {
    uint32_t expected;          /* the only number that will be accepted  */
} nc_rx_t;

typedef enum {
    NC_RX_ACCEPT = 0,   /* in order: deliver; reply ACK(reply)            */
    NC_RX_DUP    = 1,   /* already delivered: drop; reply ACK(reply)      */
    NC_RX_GAP    = 2    /* ahead of a gap: drop; reply NACK(reply)        */
} nc_rx_verdict_t;

/*@ requires \valid(w);
    assigns w->expected;
    ensures w->expected == first;
*/
void nc_rx_init(nc_rx_t *w, uint32_t first);

/* Classify an arriving data packet with sequence number seq.
 * *reply receives the number to put in the answer:
 *   ACCEPT: reply = seq, a cumulative ACK ("everything up to seq arrived");
 *   DUP:    reply = expected - 1, the same cumulative ACK again;
 *   GAP:    reply = expected, a NACK ("resend from this one").
 * Only ACCEPT advances the window. */
/*@ requires \valid(w) && \valid(reply) && \separated(w, reply);
    assigns w->expected, *reply;
    behavior accept:
      assumes seq == w->expected;
      ensures \result == NC_RX_ACCEPT;
      ensures w->expected == nc_seq_add(\old(w->expected), 1);
      ensures *reply == seq;
    behavior duplicate:
      assumes seq != w->expected && nc_seq_before(seq, w->expected);
      ensures \result == NC_RX_DUP;
      ensures w->expected == \old(w->expected);
      ensures *reply == nc_seq_add(\old(w->expected), 4294967295);
    behavior gap:
      assumes seq != w->expected && !nc_seq_before(seq, w->expected);
      ensures \result == NC_RX_GAP;
      ensures w->expected == \old(w->expected);
      ensures *reply == \old(w->expected);
    complete behaviors;
    disjoint behaviors;
*/
nc_rx_verdict_t nc_rx_receive(nc_rx_t *w, uint32_t seq, uint32_t *reply);

/* ---------------------------------------------------------------------- */
/* Go-back-N send window.                                                   */
/* In flight: the `count` numbers base, base+1, ..., base+count-1 (mod 2^32) */
/* ---------------------------------------------------------------------- */

typedef struct {
    uint32_t base;     /* oldest unacknowledged sequence number           */
    uint32_t count;    /* packets in flight, 0 .. window                  */
    uint32_t window;   /* capacity, 1 .. NC_TX_WINDOW_MAX                 */
} nc_tx_t;

/*@ predicate nc_tx_ok(nc_tx_t *t) =
      \valid(t) && 1 <= t->window <= NC_TX_WINDOW_MAX && t->count <= t->window;
*/

/*@ requires \valid(t) && 1 <= window <= NC_TX_WINDOW_MAX;
    assigns *t;
    ensures nc_tx_ok(t);
    ensures t->base == first && t->count == 0 && t->window == window;
*/
void nc_tx_init(nc_tx_t *t, uint32_t first, uint32_t window);

/*@ requires nc_tx_ok(t);
    assigns \nothing;
    ensures \result <==> t->count < t->window;
*/
bool nc_tx_can_send(const nc_tx_t *t);

/* Number the next packet.  Returns its sequence number. */
/*@ requires nc_tx_ok(t) && t->count < t->window;
    assigns t->count;
    ensures nc_tx_ok(t);
    ensures t->count == \old(t->count) + 1;
    ensures \result == nc_seq_add(t->base, \old(t->count));
*/
uint32_t nc_tx_push(nc_tx_t *t);

/* Cumulative ACK(ack): the receiver holds everything up to and including
 * ack.  Returns how many packets left the window (0 for a stale or bogus
 * ACK, which changes nothing).  Freed packets are base .. base+result-1. */
/*@ requires nc_tx_ok(t);
    assigns t->base, t->count;
    ensures nc_tx_ok(t);
    behavior in_flight:
      assumes nc_seq_dist(t->base, ack) < t->count;
      ensures \result == nc_seq_dist(\old(t->base), ack) + 1;
      ensures t->base == nc_seq_add(ack, 1);
      ensures t->count == \old(t->count) - \result;
    behavior stale:
      assumes nc_seq_dist(t->base, ack) >= t->count;
      ensures \result == 0;
      ensures t->base == \old(t->base) && t->count == \old(t->count);
    complete behaviors;
    disjoint behaviors;
*/
uint32_t nc_tx_ack(nc_tx_t *t, uint32_t ack);

/* NACK(want): the receiver holds everything before `want` and wants `want`
 * next.  Slides the window up to want and returns how many packets must be
 * resent, starting at *first (= want): all of them, go-back-N.  A NACK
 * outside [base, base+count] changes nothing and returns 0. */
/*@ requires nc_tx_ok(t) && \valid(first) && \separated(t, first);
    assigns t->base, t->count, *first;
    ensures nc_tx_ok(t);
    behavior valid:
      assumes nc_seq_dist(t->base, want) <= t->count;
      ensures t->base == want;
      ensures t->count == \old(t->count) - nc_seq_dist(\old(t->base), want);
      ensures *first == want && \result == t->count;
    behavior bogus:
      assumes nc_seq_dist(t->base, want) > t->count;
      ensures \result == 0;
      ensures t->base == \old(t->base) && t->count == \old(t->count);
      ensures *first == \old(t->base);
    complete behaviors;
    disjoint behaviors;
*/
uint32_t nc_tx_nack(nc_tx_t *t, uint32_t want, uint32_t *first);

/* Retransmission timer expired: resend everything in flight, from base. */
/*@ requires nc_tx_ok(t) && \valid(first) && \separated(t, first);
    assigns *first;
    ensures *first == t->base && \result == t->count;
*/
uint32_t nc_tx_timeout(const nc_tx_t *t, uint32_t *first);

/* Slot of a sequence number in a ring of NC_TX_WINDOW_MAX descriptors:
 * distinct for any NC_TX_WINDOW_MAX consecutive numbers. */
/*@ assigns \nothing;
    ensures \result == seq % NC_TX_WINDOW_MAX;
    ensures \result < NC_TX_WINDOW_MAX;
*/
uint32_t nc_tx_slot(uint32_t seq);

#endif
