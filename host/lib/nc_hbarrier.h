/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host-based PE and GB barriers: the baseline of seed 002 section 6, over
 * ordinary libnicoll messages (nc_send, nc_provide_recv, nc_poll), taking
 * the same nc_barrier description as the NIC-based barrier (nicoll.h:
 * nc_barrier_pe, nc_barrier_gb), so both run on the same trees.
 *
 * Every barrier message is empty (0 B). The host does what the NIC does in
 * nc_barrier_start, one message at a time through the NIC, in the order of
 * nc_barrier_expand (nicoll.h), the expansion the NIC's step list is made
 * of: a send step sends to its peer, a receive step waits for the peer's
 * message, an exchange does both, in that order. So:
 *   PE: for each step, send to the peer (EXCHANGE, SEND), then wait for
 *       the peer's message (EXCHANGE, RECV);
 *   GB: wait for a message from every child (gather), send to the parent,
 *       wait for the parent's message (broadcast), send to every child.
 * A message from a peer the host is not waiting for yet is counted per
 * (node, port), like the NIC's unexpected-message record (ref/proto), and
 * consumed when the host gets to that peer, so skewed and consecutive
 * barriers work: a peer may be a barrier ahead, never two (it cannot leave
 * barrier k+1 before this member entered it), so a count is at most 2.
 * Per-peer FIFO order of libnicoll is what keeps the phases apart.
 *
 * Waiting is by polling (nc_poll in a loop), as GM programs and the paper's
 * hosts do: no interrupts on the path. Receive buffers (0 B) stay posted:
 * each one consumed is given back the next time the barrier finds nothing
 * to take (an empty poll while it waits), never between a message taken
 * and the send it allows: seed 002's host-based step (its eq. 1) is
 * Send + SDMA + Network + Recv + RDMA + HRecv, one post and one event on
 * the critical path, and so is the P-GM1 calibration made from it
 * (docs/profiles.md, "R7 calibration"). Sends complete asynchronously;
 * their SENT events are reaped whenever the barrier polls, and a barrier
 * needs free send tokens only for the messages it is about to send.
 *
 * The port must carry only barrier traffic while it is used for host-based
 * barriers: any other event (a receive longer than 0 B, a foreign ctx, an
 * error) makes the barrier return NC_EINVAL (or the event's error status).
 */
#ifndef NC_HBARRIER_H
#define NC_HBARRIER_H

#include <stdint.h>

#include "nicoll.h"

/* Receive buffers a context keeps posted (of the port's 32 receive tokens). */
#define NC_HB_RECV_BUFS 24u

typedef struct nc_hbar {
    nc_port *p;
    unsigned nodes;         /* nc_node_count(p): the count table's size / 8 */
    uint8_t *count;         /* arrivals not yet consumed, [node * NC_PORTS + port] */
    unsigned sends;         /* our sends whose SENT event has not come back */
    unsigned owed;          /* receive buffers consumed, not yet given back */
    uint64_t timeout_ns;    /* per barrier, 0 = for ever */
} nc_hbar;

/* Set h up on an open port: posts NC_HB_RECV_BUFS empty receive buffers.
 * NC_OK, NC_EINVAL, NC_ENOMEM or an nc_provide_recv error. */
int nc_hbar_init(nc_hbar *h, nc_port *p);
/* Forget h (the receive buffers stay with the port until nc_close). */
void nc_hbar_fini(nc_hbar *h);

/* One host-based barrier as b describes it (b->algo PE or GB). Returns when
 * this member may leave: NC_OK, NC_ETIMEDOUT (h->timeout_ns passed), or an
 * error from libnicoll or an unexpected event. */
int nc_hbar_run(nc_hbar *h, const nc_barrier *b);

/* Convenience: a context per open port, made on the port's first barrier
 * (which posts the receive buffers) and released when the port closes
 * (nc_on_close: a port reopened later, even at the same address, gets a
 * new one). NC_EINVAL when NC_PORTS ports of this process have one. */
int nc_hbarrier(nc_port *p, const nc_barrier *b);

#endif
