/* nc_seq.c - see nc_seq.h for the contracts. */
#include "nc_seq.h"
#include "nc_seqarith.h"

bool nc_seq_lt(uint32_t a, uint32_t b)
{
    /* b is 1 .. 2^31-1 steps ahead of a. */
    uint32_t d = nc_u32_dist(a, b);
    return d != 0u && d < 0x80000000u;
}

uint32_t nc_seq_distance(uint32_t a, uint32_t b)
{
    return nc_u32_dist(a, b);
}

void nc_rx_init(nc_rx_t *w, uint32_t first)
{
    w->expected = first;
}

nc_rx_verdict_t nc_rx_receive(nc_rx_t *w, uint32_t seq, uint32_t *reply)
{
    if (seq == w->expected) {
        w->expected = nc_u32_add(seq, 1u);
        *reply = seq;
        return NC_RX_ACCEPT;
    }
    if (nc_seq_lt(seq, w->expected)) {
        /* Already delivered: our ACK was probably lost; repeat it. */
        *reply = nc_u32_add(w->expected, 0xFFFFFFFFu);
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
    uint32_t seq = nc_u32_add(t->base, t->count);
    t->count++;
    return seq;
}

uint32_t nc_tx_ack(nc_tx_t *t, uint32_t ack)
{
    uint32_t d = nc_u32_dist(t->base, ack);
    if (d >= t->count)
        return 0u;              /* before base (stale) or never sent */
    t->base = nc_u32_add(ack, 1u);
    t->count -= d + 1u;
    return d + 1u;
}

uint32_t nc_tx_nack(nc_tx_t *t, uint32_t want, uint32_t *first)
{
    uint32_t d = nc_u32_dist(t->base, want);
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
