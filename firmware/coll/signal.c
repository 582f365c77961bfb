/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host signals (signal.h). A packet of type NC_PT_SIG carries a whole
 * message (one packet, at most NC_ABI_SIG_MAX bytes). The receiving NIC
 * takes one of the port's receive buffers and delivers it there exactly as
 * a DATA message (mcp_recv_take, mcp_recv_deliver: the payload, then the
 * RECV event); then, and only then, it looks at whether the port has
 * signals on (spec/promela/abred_signals.pml: testing before posting loses
 * the wake-up of a host that turns them on in between), and if so raises
 * the host's signal.
 *
 * The signal is not HOST_SIG: the core raises HOST_SIG after every event
 * (a sleeping nc_wait's wake-up), so a host that wants only signals could
 * not tell them apart on one line. The signal is ISR.TIME2 instead: the
 * NIC starts interval timer 2 (which nothing else uses) at one tick, and
 * the host's EIMR routes TIME2 to the interrupt line while it has signals
 * on (host/lib/nc_signal.c). The timer starts only after the RECV event is
 * in host memory: the NIC first writes the port's signal word (seq, count;
 * nc_abi.h) by DMA on the same engine, behind the event, and starts the
 * timer when that write completes. One such write per port is in flight
 * at a time; signals meanwhile are folded into the next (the host's
 * handler takes every event there is, so one signal serves them all).
 *
 * NC_SIG_OP_SET writes the signal word too, with the command's seq: when
 * the host sees it, every event the NIC posted before it took the command
 * is in host memory, and every later signalling message will signal. The
 * library waits for it after turning signals on, then polls once more
 * (the model's second finding).
 *
 * NC_SIG_OP_SEND fetches the host's message into one of SIG_BUFS buffers
 * (or waits, in order, for one to be free) and sends it with
 * mcp_send_data; NC_EV_SENT with the host's cookie once it is
 * acknowledged.
 */
#include "mcp_plugin.h"
#include "mcp_port.h"
#include "signal.h"

#define SIG_TYPE (NC_PT_SIG & 0xFFu)
#define SIG_BUFS 2u             /* signalling sends being fetched or awaiting their ACK (8 KB:
                                   the 1 MiB the small code model reaches is nearly full) */
#define SIG_WAIT (NC_ABI_PORTS * NC_ABI_SEND_TOKENS)   /* sends waiting for a buffer: one per
                                                          host send token, never full */

_Static_assert(NC_ABI_SIG_MAX <= NC_FW_MTU, "a signalling message is one packet");

static struct {
    uint32_t on;                /* signals on for the port */
    uint32_t hi, lo;            /* its signal word in host memory (0:0: none yet) */
    uint32_t seq, count;        /* the last SET taken; signals raised */
    uint32_t word[2] __attribute__((aligned(8)));   /* the word being written */
    uint8_t busy;               /* a write of the word in flight */
    uint8_t again;              /* write it again once that one is done */
    uint8_t ring, ring_next;    /* start the timer after this write / the next */
} sig[NC_ABI_PORTS];

/* Sends waiting for a buffer, in order. */
static struct {
    uint32_t port, bus_hi, bus_lo, len, dst, cookie;
} sig_waitq[SIG_WAIT];
static uint32_t sig_wq_head, sig_wq_n;

static struct {
    uint8_t data[NC_ABI_SIG_MAX] __attribute__((aligned(8)));
    uint32_t used, port, gen, len, node, dport, cookie;
} sig_buf[SIG_BUFS];

/* The host's signal: ISR.TIME2 one timer tick from now. */
static inline void sig_raise(void) { hal_timer2(1u); }

static void sig_word_write(uint32_t pi);
static void sig_start_waiting(void);

static void sig_word_done(uint32_t pi, uint32_t gen, uint16_t arg, bool last, bool ok)
{
    (void)gen, (void)arg, (void)last;
    sig[pi].busy = 0;
    if (ok && sig[pi].ring)
        sig_raise();
    if (sig[pi].again)
        sig_word_write(pi);
}

/* Write pi's signal word behind everything queued for its host so far
 * (one DMA engine, in order); ring_next: start the timer once it is done. */
static void sig_word_write(uint32_t pi)
{
    if (sig[pi].busy) {
        sig[pi].again = 1;
        return;
    }
    sig[pi].again = 0;
    if (!(sig[pi].hi | sig[pi].lo) || !port_is_open(pi))
        return;
    sig[pi].busy = 1;
    sig[pi].ring = sig[pi].ring_next;
    sig[pi].ring_next = 0;
    sig[pi].word[0] = sig[pi].seq;
    sig[pi].word[1] = sig[pi].count;
    mcp_store_cb(sig_word_done, pi, port_gen(pi), 0, sig[pi].word, sig[pi].hi, sig[pi].lo,
                 NC_SIG_WORD_BYTES);
}

static void sig_sent(uint16_t tok, uint32_t status)
{
    uint32_t i = stok[tok].cookie;          /* the buffer: mcp_send_data's id1 */

    if (status != NC_ST_ECLOSED)
        port_event(sig_buf[i].port, sig_buf[i].gen, NC_EV_SENT, status, sig_buf[i].cookie,
                   sig_buf[i].len, sig_buf[i].node, sig_buf[i].dport);
    sig_buf[i].used = 0;
    mcp_release(tok);
    sig_start_waiting();
}

static void sig_send_failed(uint32_t i, uint32_t status)
{
    port_event(sig_buf[i].port, port_gen(sig_buf[i].port), NC_EV_SENT, status, sig_buf[i].cookie,
               sig_buf[i].len, sig_buf[i].node, sig_buf[i].dport);
    sig_buf[i].used = 0;
    sig_start_waiting();
}

static void sig_fetched(uint32_t port, uint32_t gen, uint16_t i, bool last, bool ok)
{
    (void)last;
    if (!ok || port_gen(port) != gen) {
        if (port_gen(port) == gen)
            sig_send_failed(i, NC_ST_EFAULT);
        else {
            sig_buf[i].used = 0;
            sig_start_waiting();
        }
        return;
    }
    if (mcp_send_data(port, sig_buf[i].node, sig_buf[i].dport, SIG_TYPE, 0, i, sig_buf[i].data,
                      sig_buf[i].len, sig_sent) < 0)
        sig_send_failed(i, NC_ST_ENORES);
}

/* Fetch a send's message into buffer i, then send it. */
static void sig_start(uint32_t i, uint32_t port, uint32_t hi, uint32_t lo, uint32_t len,
                      uint32_t dst, uint32_t cookie)
{
    /* field by field: a compound literal would zero the 4 KB data buffer
     * too (a memset of ~4,000 instructions, 30 us of a 133 MHz LANai, on
     * every signalling send) */
    sig_buf[i].used = 1;
    sig_buf[i].port = port;
    sig_buf[i].gen = port_gen(port);
    sig_buf[i].len = len;
    sig_buf[i].node = dst >> 8;
    sig_buf[i].dport = dst & 0xFFu;
    sig_buf[i].cookie = cookie;
    if (!mcp_fetch(sig_fetched, port, port_gen(port), (uint16_t)i, sig_buf[i].data, hi, lo, len))
        sig_send_failed(i, NC_ST_ENORES);
}

/* A buffer is free: the oldest waiting send takes it. */
static void sig_start_waiting(void)
{
    for (uint32_t i = 0; i < SIG_BUFS && sig_wq_n; i++)
        if (!sig_buf[i].used) {
            uint32_t k = sig_wq_head;

            sig_wq_head = (sig_wq_head + 1) % SIG_WAIT;
            sig_wq_n--;
            if (port_is_open(sig_waitq[k].port))
                sig_start(i, sig_waitq[k].port, sig_waitq[k].bus_hi, sig_waitq[k].bus_lo,
                          sig_waitq[k].len, sig_waitq[k].dst, sig_waitq[k].cookie);
        }
}

static void sig_send(uint32_t port, const struct nc_cmd_sig_send *s)
{
    uint32_t i = 0, node = s->dst >> 8, dport = s->dst & 0xFFu;

    if (!s->len || s->len > NC_ABI_SIG_MAX || node >= n_nodes || dport >= NC_ABI_PORTS ||
        !port_mem_ok(port, s->bus_hi, s->bus_lo, s->len)) {
        port_event(port, port_gen(port), NC_EV_SENT,
                   s->len && s->len <= NC_ABI_SIG_MAX && node < n_nodes && dport < NC_ABI_PORTS ?
                   NC_ST_EFAULT : NC_ST_EINVAL, s->cookie, s->len, node, dport);
        return;
    }
    while (i < SIG_BUFS && sig_buf[i].used)
        i++;
    if (i < SIG_BUFS && !sig_wq_n) {
        sig_start(i, port, s->bus_hi, s->bus_lo, s->len, s->dst, s->cookie);
        return;
    }
    if (sig_wq_n == SIG_WAIT) {     /* only a host that posts past its send tokens */
        port_event(port, port_gen(port), NC_EV_SENT, NC_ST_ENORES, s->cookie, s->len, node, dport);
        return;
    }
    sig_waitq[(sig_wq_head + sig_wq_n) % SIG_WAIT] = (__typeof__(sig_waitq[0])){
        .port = port, .bus_hi = s->bus_hi, .bus_lo = s->bus_lo, .len = s->len, .dst = s->dst,
        .cookie = s->cookie };
    sig_wq_n++;
}

static void sig_command(uint32_t port, const union nc_cmd *c)
{
    const struct nc_cmd_signal *g = (const struct nc_cmd_signal *)c;

    if (g->sig_op == NC_SIG_OP_SEND) {
        sig_send(port, (const struct nc_cmd_sig_send *)c);
    } else if (g->sig_op == NC_SIG_OP_SET) {
        const struct nc_cmd_sig_set *s = (const struct nc_cmd_sig_set *)c;

        if (!(s->bus_hi | s->bus_lo)) {
            port_event(port, port_gen(port), NC_EV_ERROR, NC_ST_EINVAL, NC_CMD_SIGNAL, 0, 0, 0);
            return;
        }
        sig[port].on = s->on != 0;
        sig[port].hi = s->bus_hi;
        sig[port].lo = s->bus_lo;
        sig[port].seq = s->seq;
        sig_word_write(port);
    } else {
        port_event(port, port_gen(port), NC_EV_ERROR, NC_ST_EINVAL, NC_CMD_SIGNAL, 0, 0, 0);
    }
}

/* A signalling message from node src: delivered as DATA's, then the
 * signal if the port has them on. */
static enum mcp_rx_verdict sig_data(uint32_t src, const struct nc_pkt *h, uint16_t b)
{
    uint32_t pi = h->dst_port;
    struct mcp_rbuf rb;

    if (h->offset || h->len != h->msg_len || pi >= NC_ABI_PORTS)
        return MCP_RX_DONE;                 /* not one whole message: malformed, dropped */
    if (!mcp_recv_take(pi, h->len, &rb))
        return MCP_RX_REFUSE;               /* no receive buffer yet: the sender tries again */
    mcp_recv_deliver(&rb, b, (const uint8_t *)h + NC_PKT_HDR, h->len, src, h->src_port);
    if (sig[pi].on) {
        sig[pi].count++;
        sig[pi].ring_next = 1;
        sig_word_write(pi);
    }
    return MCP_RX_KEEP;                     /* b is the delivery's until its DMA is done */
}

/* A new process on the port starts with signals off and no word. */
static void sig_port_open(uint32_t pi)
{
    sig[pi].on = 0;
    sig[pi].hi = sig[pi].lo = 0;
    sig[pi].count = sig[pi].seq = 0;
    sig[pi].again = sig[pi].ring_next = 0;
}

static void sig_port_closed(uint32_t pi)
{
    sig_port_open(pi);
}

const struct mcp_coll nc_signal = {
    .cmd = NC_CMD_SIGNAL,
    .type_first = SIG_TYPE, .type_last = SIG_TYPE,
    .command = sig_command,
    .port_open = sig_port_open,
    .port_closed = sig_port_closed,
    .data = sig_data,
};
