/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * MPI_Bcast reliably over a communicator's switch group (MPI_NC_COMM=basic, lazy;
 * docs/mpi.md "Communicators on switch multicast"; the scheme is
 * spec/promela/group_setup.pml's). Every member numbers the communicator's
 * broadcasts alike (MPI's rule: all call MPI_Bcast in the same order), so
 * a broadcast is (context, number). The root sends its bytes as group
 * packets of SWMC_FRAG bytes, each with its number, offset and length;
 * a member keeps each fragment once (duplicates dropped), and when it has
 * them all, whether or not its MPI_Bcast has been called, acknowledges
 * the broadcast to the root by point-to-point (reliable). The root's
 * MPI_Bcast returns once every member has acknowledged; a member that has
 * not after the root's time-out gets the whole broadcast again by
 * point-to-point, which cannot be lost. A root waits for every
 * acknowledgement before its call returns, so a member holds at most the
 * broadcasts of the roots that have finished theirs, and never one that
 * its own calls have passed (those are dropped as duplicates).
 * A communicator without a tested group, and MPI_Ibcast, take the host's
 * binomial tree; a Lazy one's broadcasts whose root does not know yet that
 * the group is tested take a tree with numbered tags, and its members take
 * each by either path.
 */
#include <stdlib.h>
#include <string.h>

#include "coll_table.h"
#include "mpi_swmc.h"
#include "nicoll/hostif.h"

/* **Decision**: the root's time-out before it resends, 500 us plus 16 ns
 * per byte: several times a broadcast's way to 32 members and back on
 * P-GM2 (a 4 KB packet's serialisation is about 16 us per link), so that
 * a member's acknowledgement in flight rarely makes a needless resend. */
#define SWMC_RTO_NS(bytes) (500000ull + 16ull * (bytes))

static struct swmc_msg *msg_of(struct mpi_swmc *s, uint32_t seq, size_t total)
{
    struct swmc_msg **pp = &s->msgs;

    for (; *pp; pp = &(*pp)->next)
        if ((*pp)->seq == seq)
            return *pp;
    struct swmc_msg *m = calloc(1, sizeof *m);
    m->seq = seq;
    m->total = total;
    m->data = malloc(total ? total : 1);
    m->have = calloc(total / SWMC_FRAG + 1, 1);
    *pp = m;
    return m;
}

static void msg_free(struct mpi_swmc *s, struct swmc_msg *m)
{
    for (struct swmc_msg **pp = &s->msgs; *pp; pp = &(*pp)->next)
        if (*pp == m) {
            *pp = m->next;
            break;
        }
    free(m->data);
    free(m->have);
    free(m);
}

void swmc_bcast_free(struct mpi_swmc *s)
{
    while (s->msgs)
        msg_free(s, s->msgs);
}

void swmc_bcast_fragment(struct mpi_swmc *s, int src_world, const struct swmc_wire *w,
                         const uint8_t *data, size_t len)
{
    struct swmc_msg *m;
    size_t k = w->off / SWMC_FRAG;

    /* one its MPI_Bcast took already, or before this member's first: a
     * resend that crossed its acknowledgement */
    if ((int32_t)(w->seq - s->consumed) <= 0)
        return;
    m = msg_of(s, w->seq, w->total);
    if (m->complete || m->total != w->total || w->off % SWMC_FRAG || w->off + len > m->total ||
        m->have[k])
        return;
    m->have[k] = 1;
    memcpy(m->data + w->off, data, len);
    m->got += len;
    if (m->got < m->total)
        return;
    m->complete = true;
    struct mpi_hdr h = { .type = PKT_SWMC, .ctx = w->ctx, .tag = SWMC_DATA_ACK, .len = w->seq };
    mpi_net_send(src_world, &h, NULL, 0, NULL);
}

void swmc_bcast_ack(struct mpi_swmc *s, int src_world, uint32_t seq)
{
    int r = mpi_swmc_rank_of(s->comm, src_world);

    if (seq != s->root_seq || r < 0 || s->acked[r])
        return;     /* a duplicate */
    s->acked[r] = 1;
    s->acks++;
}

static void wait_req(MPI_Request r)
{
    uint64_t idle = nc_host_now_ns();

    while (!r->complete)
        mpi_progress_wait(&idle);
    mpi_req_release(r);
}

/* The root: the group packets, then every acknowledgement, resending by
 * point-to-point to whoever has not acknowledged in time. */
static void root_send(struct mpi_swmc *s, uint32_t seq, const uint8_t *bytes, size_t n)
{
    MPI_Comm c = s->comm;
    MPI_Request r = mpi_req_new(REQ_COLL);
    struct swmc_wire w = { .kind = SWMC_DATA, .ctx = c->ctx, .seq = seq, .total = (uint32_t)n };
    uint64_t t0, idle;
    bool resent = false;

    s->root_seq = seq;
    s->acks = 0;
    memset(s->acked, 0, (size_t)c->size);
    r->frags_left = (unsigned)((n + SWMC_FRAG - 1) / SWMC_FRAG);
    for (size_t off = 0; off < n; off += SWMC_FRAG) {
        w.off = (uint32_t)off;
        mpi_net_gsend(s->group, &w, sizeof w, bytes + off,
                      n - off < SWMC_FRAG ? n - off : SWMC_FRAG, r);
    }
    wait_req(r);
    t0 = idle = nc_host_now_ns();
    while (s->acks < (unsigned)c->size - 1) {
        mpi_progress_wait(&idle);
        if (resent || nc_host_now_ns() - t0 < SWMC_RTO_NS(n))
            continue;
        resent = true;
        MPI_Request rr = mpi_req_new(REQ_COLL);
        rr->frags_left = 1;
        for (int i = 0; i < c->size; i++) {
            if (i == c->rank || s->acked[i])
                continue;
            for (size_t off = 0; off < n; off += SWMC_FRAG) {
                struct mpi_hdr h = { .type = PKT_SWMC, .ctx = c->ctx, .tag = SWMC_RESEND,
                                     .len = seq, .sreq = off, .rreq = n };

                rr->frags_left++;
                mpi_net_send(c->group->world[i], &h, bytes + off,
                             n - off < SWMC_FRAG ? n - off : SWMC_FRAG, rr);
            }
        }
        if (mpi_state.debug)
            nc_host_printf("libmpi: rank %d: broadcast %u on switch group %u: %u of %d "
                           "acknowledged after %llu us, the rest resent\n", mpi_state.world_rank,
                           seq, s->group, s->acks, c->size - 1,
                           (unsigned long long)(nc_host_now_ns() - t0) / 1000);
        rr->frags_left--;
        if (!rr->frags_left)
            mpi_req_complete(rr);
        wait_req(rr);       /* the bytes are copied out: the buffer may go */
    }
}

/* A member: until the broadcast's bytes are all here, then into out. */
static void member_recv(struct mpi_swmc *s, uint32_t seq, uint8_t *out, size_t n)
{
    struct swmc_msg *m = msg_of(s, seq, n);
    uint64_t idle = nc_host_now_ns();

    if (m->total != n)
        mpi_error(s->comm, MPI_ERR_TRUNCATE, "MPI_Bcast",
                  "the root sent %zu bytes, this rank's count and type hold %zu", m->total, n);
    while (!m->complete)
        mpi_progress_wait(&idle);
    nc_host_memcpy(out, m->data, n < m->total ? n : m->total);
    s->consumed = seq;
    msg_free(s, m);
}

/* Lazy, before the root knows its group is ready: a binomial tree whose
 * messages carry the broadcast's number in their tag. The root's and an
 * inner member's sends to the children below vr's lowest set bit (mask),
 * the largest subtree first, each complete before the next. */
static void tree_children(MPI_Comm c, int root, int vr, int mask, uint32_t seq,
                          const uint8_t *bytes, size_t n)
{
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (vr + mask < c->size) {
            MPI_Request r = mpi_isend_ctx(bytes, n, MPI_BYTE, (vr + mask + root) % c->size,
                                          SWMC_TREE_TAG(seq), c, c->ctx + 1);
            mpi_wait_one(&r, MPI_STATUS_IGNORE);
        }
}

/* A Lazy member: the broadcast by whichever path its root chose, the
 * group's (then nothing to forward) or the tree's (then on to the
 * children). */
static void member_either(struct mpi_swmc *s, uint32_t seq, int root, uint8_t *out, size_t n)
{
    MPI_Comm c = s->comm;
    int vr = (c->rank - root + c->size) % c->size, mask;
    struct swmc_msg *m = msg_of(s, seq, n);
    uint64_t idle = nc_host_now_ns();

    for (mask = 1; mask < c->size; mask <<= 1)
        if (vr & mask)
            break;
    MPI_Request r = mpi_irecv_ctx(out, n, MPI_BYTE, (vr - mask + root) % c->size,
                                  SWMC_TREE_TAG(seq), c, c->ctx + 1);
    while (!r->complete && !m->complete)
        mpi_progress_wait(&idle);
    s->consumed = seq;
    if (!r->complete && mpi_match_cancel(r)) {
        /* on the group: no tree message is coming */
        mpi_req_complete(r);
        mpi_req_release(r);
        nc_host_memcpy(out, m->data, n);
        msg_free(s, m);
        return;
    }
    mpi_wait_one(&r, MPI_STATUS_IGNORE);
    msg_free(s, m);
    tree_children(c, root, vr, mask, seq, out, n);
}

int coll_bcast_swmc(void *buf, int count, MPI_Datatype t, int root, MPI_Comm c)
{
    struct mpi_swmc *s = c->swmc;
    size_t n = (size_t)count * t->size;

    if (!s || (!s->lazy && !s->ready))
        return coll_bcast_binomial(buf, count, t, root, c);
    uint32_t seq = ++s->seq;
    if (!n)
        return MPI_SUCCESS;
    uint8_t *packed = t->contig ? (uint8_t *)buf + t->true_lb : malloc(n);
    if (c->rank == root) {
        if (!t->contig)
            mpi_pack_bytes(buf, (size_t)count, t, packed);
        if (s->ready)
            root_send(s, seq, packed, n);
        else
            tree_children(c, root, 0, 1 << 30, seq, packed, n);
        s->consumed = seq;
    } else {
        if (s->lazy)
            member_either(s, seq, root, packed, n);
        else
            member_recv(s, seq, packed, n);
        if (!t->contig)
            mpi_unpack_bytes(packed, n, buf, (size_t)count, t);
    }
    if (!t->contig)
        free(packed);
    return MPI_SUCCESS;
}
