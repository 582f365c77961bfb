/* nc_seq.c - see nc_seq.h for the contracts. */
#include "nc_seq.h"

/* Modular helpers written without wrapping arithmetic: the proofs run with
 * -warn-unsigned-overflow, so every + and - in ref/ is shown to stay in
 * range, and the one place where sequence numbers wrap is spelled out. */

/*@ assigns \nothing;
    ensures \result == nc_seq_dist(a, b);
*/
static uint32_t dist(uint32_t a, uint32_t b)
{
    if (b >= a)
        return b - a;
    return (0xFFFFFFFFu - a) + b + 1u;
}

/*@ assigns \nothing;
    ensures \result == nc_seq_add(a, d);
*/
static uint32_t add(uint32_t a, uint32_t d)
{
    if (d <= 0xFFFFFFFFu - a)
        return a + d;
    return d - (0xFFFFFFFFu - a) - 1u;
}

bool nc_seq_lt(uint32_t a, uint32_t b)
{
    /* b is 1 .. 2^31-1 steps ahead of a. */
    uint32_t d = dist(a, b);
    return d != 0u && d < 0x80000000u;
}

uint32_t nc_seq_distance(uint32_t a, uint32_t b)
{
    return dist(a, b);
}

void nc_rx_init(nc_rx_t *w, uint32_t first)
{
    w->expected = first;
}

nc_rx_verdict_t nc_rx_receive(nc_rx_t *w, uint32_t seq, uint32_t *reply)
{
    if (seq == w->expected) {
        w->expected = add(seq, 1u);
        *reply = seq;
        return NC_RX_ACCEPT;
    }
    if (nc_seq_lt(seq, w->expected)) {
        /* Already delivered: our ACK was probably lost; repeat it. */
        *reply = add(w->expected, 0xFFFFFFFFu);
        return NC_RX_DUP;
    }
    /* Something in between was lost: ask for it. */
    *reply = w->expected;
    return NC_RX_GAP;
}

void nc_tx_init(nc_tx_t *t, uint32_t first, uint32_t window)
{
    t->base = first;
    t->count = 0u;
    t->window = window;
}

bool nc_tx_can_send(const nc_tx_t *t)
{
    return t->count < t->window;
}

uint32_t nc_tx_push(nc_tx_t *t)
{
    uint32_t seq = add(t->base, t->count);
    t->count++;
    return seq;
}

uint32_t nc_tx_ack(nc_tx_t *t, uint32_t ack)
{
    uint32_t d = dist(t->base, ack);
    if (d >= t->count)
        return 0u;              /* before base (stale) or never sent */
    t->base = add(ack, 1u);
    t->count -= d + 1u;
    return d + 1u;
}

uint32_t nc_tx_nack(nc_tx_t *t, uint32_t want, uint32_t *first)
{
    uint32_t d = dist(t->base, want);
    if (d > t->count) {
        *first = t->base;
        return 0u;
    }
    t->base = want;
    t->count -= d;
    *first = want;
    return t->count;
}

uint32_t nc_tx_timeout(const nc_tx_t *t, uint32_t *first)
{
    *first = t->base;
    return t->count;
}

uint32_t nc_tx_slot(uint32_t seq)
{
    return seq % NC_TX_WINDOW_MAX;
}
