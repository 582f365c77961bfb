/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Between the NICs and the fabric in the myrinet machine. A packet a NIC
 * sends is kept until its window closes; then the packets of the window go
 * to the fabric (crossbars, routes, timing, faults, pcap) in (send time,
 * node) order, which does not depend on how QEMU interleaved the CPUs, and
 * each delivery becomes a packet event at its receiver. The lookahead
 * guarantees that no delivery lands inside the window it was sent in.
 * Link changes of 'down' fault rules reach the NICs as events too.
 */
#include "qemu/osdep.h"
#include "qemu/error-report.h"
#include "myrinet-node.h"

void mr_tx_init(MyrinetState *m)
{
    m->tx = g_array_new(false, false, sizeof(MrTx));
    m->rxdone = g_array_new(false, false, sizeof(MrRxDone));
    m->tx_out = g_new0(struct fabric_delivery, 1);
}

/* A delivery becomes a packet event at its receiver, at its head time. */
static void post_delivery(MyrinetState *m, unsigned src,
                          const struct fabric_delivery *d)
{
    MrEvent *e;
    uint64_t at = d->head_ps;

    if (mr_sm_takes(m, d)) {
        return;         /* the management entity's node: its process */
    }
    e = g_new0(MrEvent, 1);
    if (d->held && at < m->flush_upto) {
        /* A held packet that queued behind another one for its receiver's
         * link may have a head time from before the window that ran: it
         * waits in line at the NIC, which takes it at this window's end at
         * the earliest (nic_receive). */
        at = m->flush_upto;
    }
    if (at < m->flush_upto && !m->unsynced) {
        error_report("myrinet: packet %u -> %u arrives at %" PRIu64
                     " ps, inside the window it was sent in "
                     "(lookahead %" PRIu64 " ps too large)",
                     src, d->dst, d->head_ps, m->lookahead_ps);
        exit(1);
    }
    e->t_ps = at;
    e->kind = MR_EV_PACKET;
    e->pkt = g_malloc(sizeof *d);
    memcpy(e->pkt, d, offsetof(struct fabric_delivery, data) + d->len);
    m->node[d->dst].rx_inflight++;
    mr_post(&m->node[d->dst], e);
}

/*
 * Back-pressure (docs/fabric.md): the fabric asks whether a receiver has
 * room when a packet reaches its link (an armed buffer nothing else will
 * take: what its NIC says at the end of the window, less the packets
 * already on their way to it), and hands over every delivery, some of
 * them held in the network; the NIC reports when it takes or drops a held
 * one (mr_rx_done), and those reports reach the fabric at the end of the
 * window, in (time, node) order, before the window's new packets.
 */
static unsigned bp_room(void *o, unsigned dst)
{
    MyrinetState *m = o;
    MrNode *n = &m->node[dst];

    if (m->sm && dst == m->sm_at) {
        return 1;       /* the entity takes every packet as it comes */
    }
    return n->rx_inflight ? 0 : nic_rx_room(&n->nic);
}

static void bp_deliver(void *o, const struct fabric_delivery *d)
{
    post_delivery(o, 0xFFFF, d);
}

/* Flow control reaches the sender's NIC as an event at its time: the
 * fabric puts STOP and GO at least the lookahead after what decided them,
 * so they land after the window being closed. */
static void post_flow(MyrinetState *m, unsigned src, uint64_t t_ps, bool go)
{
    MrEvent *e = g_new0(MrEvent, 1);

    if (t_ps < m->flush_upto && !m->unsynced) {
        error_report("myrinet: flow control for node %u at %" PRIu64
                     " ps, inside the window that ran (lookahead %" PRIu64
                     " ps too large)", src, t_ps, m->lookahead_ps);
        exit(1);
    }
    e->t_ps = t_ps;
    e->kind = MR_EV_TX_FLOW;
    e->val = go;
    mr_post(&m->node[src], e);
}

static void bp_tx_stop(void *o, unsigned src, uint64_t t_ps)
{
    post_flow(o, src, t_ps, false);
}

static void bp_tx_go(void *o, unsigned src, uint64_t t_ps)
{
    post_flow(o, src, t_ps, true);
}

/* The deliver callback is set with back-pressure off too: switch-multicast
 * copies and the switches' management answers reach the NICs only through
 * it (one call per receiver), never through fabric_send's result. Without
 * back-pressure 'room' stays NULL, so every packet is taken on arrival. */
void mr_bp_init(MyrinetState *m)
{
    struct fabric_bp bp = { .opaque = m, .deliver = bp_deliver };

    if (m->bp) {
        bp.room = bp_room;
        bp.tx_stop = bp_tx_stop;
        bp.tx_go = bp_tx_go;
    }
    fabric_set_backpressure(m->fabric, &bp);
}

/*
 * The switches' management agents act at their own times (a table write
 * 10 us after its request arrived, its answer sent from the switch then).
 * A window never spans one: every action at or before the window's start
 * runs before the window opens (its answer, at least a cable later, lands
 * inside or after the window, never in one that ran), and the window ends
 * at the next action, which the next window's opening runs. An action that
 * a packet of the window causes lies an agent time (more than the
 * lookahead) after the window, so none is missed.
 */
uint64_t mr_agents_run(MyrinetState *m, uint64_t start)
{
    fabric_run_until(m->fabric, start);
    return fabric_next_event(m->fabric);
}

/* The NIC took (or dropped) a packet held in the network (nic_env.rx_done). */
void mr_rx_done(MrNode *n, uint64_t id, uint64_t t_ps, bool dropped)
{
    MyrinetState *m = n->m;
    MrRxDone r = {
        .at = { .t_ps = t_ps, .seq = ++m->seq, .node = n->id }, .id = id,
        .dropped = dropped,
    };

    g_array_append_val(m->rxdone, r);
    if (dropped) {
        mr_trace(n, t_ps, "packet dropped: blocked at the link (fabric packet %"
                 PRIu64 ")", id);
    } else {
        /* the packet's line, with the times of its pcap record: its head
         * at the link (so the line stands after lines of later times, as
         * a host's compute line may) and its tail, now known */
        mr_trace(n, n->nic.rx_link_ps, "packet %u bytes, tail at %" PRIu64
                 ", crc %s", n->nic.rx_len, n->nic.rx_tail_ps,
                 n->nic.rx_crc_ok ? "ok" : "bad");
    }
}

/* The NIC sent a packet (nic_env.transmit); its head leaves at t_ps. */
void mr_transmit(MrNode *n, uint64_t t_ps, const uint8_t *pkt, size_t len)
{
    MyrinetState *m = n->m;
    MrTx tx = {
        .at = { .t_ps = t_ps, .seq = ++m->seq, .node = n->id }, .len = len,
        .pkt = g_memdup2(pkt, len),
    };
    g_array_append_val(m->tx, tx);
    if (m->stall_packets) {
        mr_progress(m, t_ps);   /* the naive detector (negative test only) */
    }
}

/* Give the fabric every packet that left before 'upto', in (time, node)
 * order; their arrivals become events at the receivers. */
void mr_tx_flush(MyrinetState *m, uint64_t upto)
{
    guint i, done = 0;

    m->flush_upto = upto;
    if (m->bp) {
        /* released channels are not free before the window that ran */
        fabric_set_floor(m->fabric, m->unsynced || upto < m->lookahead_ps ? 0 :
                         upto - m->lookahead_ps);
    }
    if (m->rxdone->len) {
        g_array_sort(m->rxdone, mr_order_cmp);
        for (i = 0; i < m->rxdone->len; i++) {
            MrRxDone *r = &g_array_index(m->rxdone, MrRxDone, i);
            if (r->at.t_ps >= upto && !m->unsynced) {
                break;
            }
            fabric_rx_done(m->fabric, r->at.node, r->id, r->at.t_ps, r->dropped);
            done = i + 1;
        }
        g_array_remove_range(m->rxdone, 0, done);
        done = 0;
    }
    if (!m->tx->len) {
        return;
    }
    g_array_sort(m->tx, mr_order_cmp);
    for (i = 0; i < m->tx->len; i++) {
        MrTx *tx = &g_array_index(m->tx, MrTx, i);
        struct fabric_delivery *d = m->tx_out;

        if (tx->at.t_ps >= upto && !m->unsynced) {
            break;
        }
        if (tx->at.t_ps < m->tx_last_t) {
            tx->at.t_ps = m->tx_last_t; /* only without synchronisation */
        }
        m->tx_last_t = tx->at.t_ps;
        if (fabric_send(m->fabric, tx->at.node, tx->at.t_ps, tx->pkt, tx->len, d)) {
            error_report("myrinet: fabric: %s", d->why ? d->why : "error");
            exit(1);
        }
        /* a unicast delivery to a NIC; multicast copies, packets to a
         * switch's management port and its answers come through deliver */
        if (d->delivered && !m->bp && d->dst < m->nodes) {
            post_delivery(m, tx->at.node, d);
        }
        g_free(tx->pkt);
        done = i + 1;
    }
    g_array_remove_range(m->tx, 0, done);
}

/* A window opens: 'down' fault rules show the NIC its link state in
 * ISR.LINK_DOWN from the start of the first window at or after a change. */
void mr_link_changes(MyrinetState *m)
{
    /* a NIC's link changes only at a 'down' rule's ends: look at the
     * nodes only when one has passed */
    if (m->win_start < m->link_next) {
        return;
    }
    m->link_next = fabric_link_change_any_after(m->fabric, m->win_start);
    for (unsigned i = 0; i < m->nodes; i++) {
        MrNode *n = &m->node[i];
        bool down = !fabric_node_link_up(m->fabric, i, m->win_start);
        if (down != n->link_down) {
            MrEvent *e = g_new0(MrEvent, 1);
            n->link_down = down;
            e->t_ps = m->win_start;
            e->kind = MR_EV_LINK;
            e->val = !down;
            mr_post(n, e);
        }
    }
}
