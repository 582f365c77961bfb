/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Matching: posted receives and unexpected messages, both in order.
 * A message (EAGER or RTS packet) is matched against the posted receives
 * in the order they were posted; one that matches none waits in the
 * unexpected queue, in arrival order, for the next receive or probe.
 * Since packets are handled in arrival order and the NIC keeps each
 * peer's order, two messages of one sender on one communicator match in
 * the order they were sent (MPI 3.1 section 3.5, non-overtaking).
 */
#include <stdlib.h>
#include <string.h>

#include "mpi_impl.h"
#include "nicoll/hostif.h"

struct unexp {
    int src, tag, src_world;
    uint32_t ctx;
    bool rts;
    size_t len;
    uint8_t *data;              /* eager: a copy of the payload */
    uint64_t sreq;
    struct unexp *next;
};

static MPI_Request posted_head, posted_tail;
static struct unexp *unexp_head, *unexp_tail;

static bool matches(int want_src, int want_tag, uint32_t want_ctx, int src, int tag, uint32_t ctx)
{
    if (want_ctx != ctx)
        return false;
    return (want_src == MPI_ANY_SOURCE || want_src == src) &&
           (want_tag == MPI_ANY_TAG || want_tag == tag);
}

static void finish_recv(MPI_Request r)
{
    size_t n = r->msg_len < r->bytes ? r->msg_len : r->bytes;

    r->status.nc_bytes = n;
    if (r->msg_len > r->bytes)
        r->status.MPI_ERROR = MPI_ERR_TRUNCATE;
    if (r->tmp) {
        mpi_unpack_bytes(r->tmp, n, r->buf, (size_t)r->count, r->type);
        free(r->tmp);
        r->tmp = NULL;
    }
    mpi_req_complete(r);
}

static void send_cts(MPI_Request r, int src_world, uint64_t sreq)
{
    struct mpi_hdr h = { .type = PKT_CTS, .ctx = r->ctx, .sreq = sreq,
                         .rreq = (uint64_t)(uintptr_t)r };

    if (r->msg_len == 0) {      /* nothing will follow */
        finish_recv(r);
        h.rreq = 0;
    }
    mpi_net_send(src_world, &h, NULL, 0, NULL);
}

/* A message meets its receive: copy an eager payload, or answer an RTS. */
static void deliver(MPI_Request r, int src, int tag, int src_world, bool rts, size_t len,
                    const uint8_t *data, uint64_t sreq)
{
    r->status.MPI_SOURCE = src;
    r->status.MPI_TAG = tag;
    r->status.MPI_ERROR = MPI_SUCCESS;
    r->msg_len = len;
    if (rts) {
        r->received = 0;
        send_cts(r, src_world, sreq);
        return;
    }
    if (len && r->bytes)
        nc_host_memcpy(r->data, data, len < r->bytes ? len : r->bytes);
    finish_recv(r);
}

static void unlink_posted(MPI_Request r, MPI_Request prev)
{
    if (prev)
        prev->next = r->next;
    else
        posted_head = r->next;
    if (posted_tail == r)
        posted_tail = prev;
    r->next = NULL;
}

static void unlink_unexp(struct unexp *u, struct unexp *prev)
{
    if (prev)
        prev->next = u->next;
    else
        unexp_head = u->next;
    if (unexp_tail == u)
        unexp_tail = prev;
    u->next = NULL;
}

static void data_packet(const struct mpi_hdr *h, const uint8_t *payload, size_t len)
{
    MPI_Request r = (MPI_Request)(uintptr_t)h->rreq;
    size_t off = (size_t)h->len;

    if (off < r->bytes) {
        size_t n = r->bytes - off < len ? r->bytes - off : len;
        nc_host_memcpy(r->data + off, payload, n);
    }
    r->received += len;
    if (r->received >= r->msg_len)
        finish_recv(r);
}

void mpi_match_packet(int src_world, const struct mpi_hdr *h, const uint8_t *payload, size_t len)
{
    switch (h->type) {
    case PKT_CTS: {
        MPI_Request s = (MPI_Request)(uintptr_t)h->sreq;
        s->cts = true;
        s->peer_req = h->rreq;
        mpi_send_rndv_data(s);
        return;
    }
    case PKT_DATA:
        data_packet(h, payload, len);
        return;
    case PKT_SWMC:
        mpi_swmc_control(src_world, h, payload, len);
        return;
    case PKT_EAGER:
    case PKT_RTS:
        break;
    default:
        mpi_error(NULL, MPI_ERR_INTERN, "progress", "unknown packet type %u from node %d",
                  h->type, src_world);
        return;
    }
    bool rts = h->type == PKT_RTS;
    size_t msg_len = rts ? (size_t)h->len : len;
    MPI_Request prev = NULL;
    for (MPI_Request r = posted_head; r; prev = r, r = r->next) {
        if (matches(r->peer, r->tag, r->ctx, h->src, h->tag, h->ctx)) {
            unlink_posted(r, prev);
            deliver(r, h->src, h->tag, src_world, rts, msg_len, payload, h->sreq);
            return;
        }
    }
    struct unexp *u = calloc(1, sizeof *u);
    u->src = h->src;
    u->tag = h->tag;
    u->ctx = h->ctx;
    u->src_world = src_world;
    u->rts = rts;
    u->len = msg_len;
    u->sreq = h->sreq;
    if (!rts && len) {
        u->data = malloc(len);
        nc_host_memcpy(u->data, payload, len);
    }
    if (unexp_tail)
        unexp_tail->next = u;
    else
        unexp_head = u;
    unexp_tail = u;
}

int mpi_start_recv(MPI_Request r)
{
    struct unexp *u, *prev = NULL;

    r->complete = false;
    r->cancelled = false;
    r->status.nc_cancelled = 0;
    for (u = unexp_head; u; prev = u, u = u->next) {
        if (matches(r->peer, r->tag, r->ctx, u->src, u->tag, u->ctx)) {
            unlink_unexp(u, prev);
            deliver(r, u->src, u->tag, u->src_world, u->rts, u->len, u->data, u->sreq);
            free(u->data);
            free(u);
            return MPI_SUCCESS;
        }
    }
    r->next = NULL;
    if (posted_tail)
        posted_tail->next = r;
    else
        posted_head = r;
    posted_tail = r;
    return MPI_SUCCESS;
}

/* The first unexpected message matching (src, tag, ctx), its status in
 * st; *prev is the one before it. */
static struct unexp *find_unexp(int src, int tag, uint32_t ctx, MPI_Status *st,
                                struct unexp **prev)
{
    *prev = NULL;
    for (struct unexp *u = unexp_head; u; *prev = u, u = u->next) {
        if (matches(src, tag, ctx, u->src, u->tag, u->ctx)) {
            if (st) {
                st->MPI_SOURCE = u->src;
                st->MPI_TAG = u->tag;
                st->MPI_ERROR = MPI_SUCCESS;
                st->nc_bytes = u->len;
                st->nc_cancelled = 0;
            }
            return u;
        }
    }
    return NULL;
}

bool mpi_match_probe(int src, int tag, uint32_t ctx, MPI_Status *st)
{
    struct unexp *prev;

    return find_unexp(src, tag, ctx, st, &prev) != NULL;
}

/* A matched probe (MPI 3.0 section 3.8.2): the message leaves the queue,
 * so no other receive or probe can match it; MPI_Mrecv takes it. */
struct unexp *mpi_match_take(int src, int tag, uint32_t ctx, MPI_Status *st)
{
    struct unexp *prev, *u = find_unexp(src, tag, ctx, st, &prev);

    if (u)
        unlink_unexp(u, prev);
    return u;
}

/* r receives the matched message u (an eager payload copied, or the
 * rendezvous answered with CTS, the data following as for any receive). */
void mpi_match_deliver(MPI_Request r, struct unexp *u)
{
    r->complete = false;
    r->cancelled = false;
    r->status.nc_cancelled = 0;
    deliver(r, u->src, u->tag, u->src_world, u->rts, u->len, u->data, u->sreq);
    free(u->data);
    free(u);
}

bool mpi_match_cancel(MPI_Request r)
{
    MPI_Request prev = NULL;

    for (MPI_Request q = posted_head; q; prev = q, q = q->next) {
        if (q == r) {
            unlink_posted(r, prev);
            return true;
        }
    }
    return false;
}

void mpi_match_dump(void)
{
    for (MPI_Request r = posted_head; r; r = r->next)
        nc_host_printf("libmpi: rank %d:   posted receive: source %d tag %d ctx %u\n",
                       mpi_state.world_rank, r->peer, r->tag, r->ctx);
    for (struct unexp *u = unexp_head; u; u = u->next)
        nc_host_printf("libmpi: rank %d:   unexpected %s: source %d tag %d ctx %u, %zu bytes\n",
                       mpi_state.world_rank, u->rts ? "RTS" : "message", u->src, u->tag, u->ctx,
                       u->len);
}
