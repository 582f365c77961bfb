/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * MPI_Bcast reliably over a communicator's switch group (MPI_NC_COMM=basic, lazy;
 * docs/mpi.md "Communicators on switch multicast"; the scheme is
 * spec/promela/swmc_bcast.pml's). Every member numbers the communicator's
 * broadcasts alike (MPI's rule: all call MPI_Bcast in the same order), so
 * a broadcast is (context, number), whichever rank is its root.
 *
 * The root sends the bytes as group packets of SWMC_FRAG bytes, each with
 * the number, offset and length, keeps a copy, and returns: a window of up
 * to SWMC_WINDOW of its broadcasts awaits acknowledgements, and a call
 * that finds it full first waits for its oldest. A broadcast larger than
 * SWMC_KEEP_BYTES is not copied: its call waits until it is acknowledged.
 * A member keeps each fragment once (duplicates dropped) and holds a
 * complete broadcast until its own MPI_Bcast takes it.
 *
 * Acknowledgements are cumulative and go by point-to-point (reliable):
 * DATA_ACK(n) says every broadcast numbered up to n is complete here. A
 * member sends one to a broadcast's root when a broadcast the root marked
 * SWMC_ACK_ME (every SWMC_WINDOW/2-th, and a large one) is complete, when
 * a resend arrives (even one it has), once one has been owed for
 * SWMC_ACK_DELAY_NS, and before it leaves the group; so a burst of
 * broadcasts costs a root one acknowledgement per member every
 * SWMC_WINDOW/2 broadcasts, not one per broadcast. A broadcast some member
 * has not acknowledged after the root's time-out is resent to that member
 * by point-to-point, which cannot be lost. The time-outs and the owed
 * acknowledgements are checked in every progress call (swmc_bcast_tick),
 * not only in MPI_Bcast: a member waiting for a lost broadcast is served
 * while its root waits in any other MPI call. MPI_Comm_free and
 * MPI_Finalize empty the window before the group is left.
 *
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

/* **Decisions**:
 * - SWMC_RTO_NS, the root's time-out before it resends: 1 ms plus 16 ns
 *   per byte, several times a broadcast's way to 32 members and back on
 *   P-GM2 (a 4 KB packet's serialisation is about 16 us per link) plus a
 *   member's SWMC_ACK_DELAY_NS, so that an acknowledgement in flight
 *   rarely makes a needless resend.
 * - SWMC_WINDOW, 32 broadcasts a root may have unacknowledged: with one
 *   acknowledgement per member every 16 broadcasts, a root of 31 members
 *   handles about 2 acknowledgements per broadcast instead of 31, and a
 *   member holds at most 32 broadcasts of one root ahead of its calls.
 * - SWMC_KEEP_BYTES, 256 KB the window's copies may hold: a broadcast
 *   larger than that waits in its call rather than being copied.
 * - SWMC_ACK_DELAY_NS, 100 us an acknowledgement may be owed: under the
 *   time-out, and under MPI_NC_SPIN_US's 200 us default, so that a member
 *   that is waiting still polls when it falls due. */
#define SWMC_RTO_NS(bytes) (1000000ull + 16ull * (bytes))
#define SWMC_WINDOW 32u
#define SWMC_KEEP_BYTES (256u * 1024)
#define SWMC_ACK_DELAY_NS 100000u

/* The bytes of the fragment at off of a broadcast of n bytes. */
static size_t frag_len(size_t n, size_t off)
{
    return n - off < SWMC_FRAG ? n - off : SWMC_FRAG;
}

static struct swmc_msg *find_msg(struct mpi_swmc *s, uint32_t seq)
{
    for (struct swmc_msg *m = s->msgs; m; m = m->next)
        if (m->seq == seq)
            return m;
    return NULL;
}

static struct swmc_msg *msg_of(struct mpi_swmc *s, uint32_t seq, size_t total)
{
    struct swmc_msg *m = find_msg(s, seq), **pp = &s->msgs;

    if (m)
        return m;
    while (*pp)
        pp = &(*pp)->next;
    m = calloc(1, sizeof *m);
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

void swmc_bcast_init(struct mpi_swmc *s)
{
    size_t n = (size_t)s->comm->size;

    s->cum = calloc(n, sizeof *s->cum);
    s->owed = calloc(n, sizeof *s->owed);
    s->told = calloc(n, sizeof *s->told);
}

static void out_free(struct swmc_out *o)
{
    mpi_req_release(o->sent);
    if (o->resend)
        mpi_req_release(o->resend);
    free(o->copy);
    free(o->resent_to);
    free(o);
}

void swmc_bcast_free(struct mpi_swmc *s)
{
    while (s->msgs)
        msg_free(s, s->msgs);
    while (s->out) {
        struct swmc_out *o = s->out;

        s->out = o->next;
        out_free(o);
    }
    free(s->cum);
    free(s->owed);
    free(s->told);
}

/* The highest number up to which every broadcast is complete here. */
static uint32_t complete_upto(struct mpi_swmc *s)
{
    uint32_t n = s->consumed;
    struct swmc_msg *m;

    while ((m = find_msg(s, n + 1)) && m->complete)
        n++;
    return n;
}

/* Broadcast seq from rank r is complete here: an acknowledgement is owed
 * to r until one covers it. The delay counts from the latest broadcast:
 * while broadcasts keep coming, the roots' SWMC_ACK_ME marks say when. */
static void owe(struct mpi_swmc *s, int r, uint32_t seq)
{
    if ((int32_t)(seq - s->owed[r]) > 0)
        s->owed[r] = seq;
    s->owed_ns = nc_host_now_ns();
}

/* DATA_ACK(complete_upto) to rank r (a root); what it covers is no longer
 * owed (a gap before a broadcast leaves it owed). */
static void ack_to(struct mpi_swmc *s, int r)
{
    uint32_t upto = complete_upto(s);
    struct mpi_hdr h = { .type = PKT_SWMC, .ctx = s->comm->ctx, .tag = SWMC_DATA_ACK,
                         .len = upto };

    mpi_net_send(s->comm->group->world[r], &h, NULL, 0, NULL);
    s->told[r] = upto;
    if ((int32_t)(s->owed[r] - upto) <= 0)
        s->owed[r] = 0;
}

/* The owed acknowledgements that say something new; the rest (a gap
 * before them) stay owed. */
static void ack_owed(struct mpi_swmc *s)
{
    uint32_t upto = complete_upto(s);
    bool left = false;

    for (int r = 0; r < s->comm->size; r++) {
        if (!s->owed[r])
            continue;
        if ((int32_t)(upto - s->told[r]) > 0)
            ack_to(s, r);
        left |= s->owed[r] != 0;
    }
    s->owed_ns = left ? nc_host_now_ns() : 0;
}

void swmc_bcast_fragment(struct mpi_swmc *s, int src_world, const struct swmc_wire *w,
                         const uint8_t *data, size_t len)
{
    struct swmc_msg *m;
    size_t k = w->off / SWMC_FRAG;
    int r = mpi_swmc_rank_of(s->comm, src_world);

    if (r < 0)
        return;
    /* one its MPI_Bcast took already, or complete: a copy late, or a
     * resend that crossed this member's acknowledgement */
    m = (int32_t)(w->seq - s->consumed) <= 0 ? NULL : msg_of(s, w->seq, w->total);
    if (!m || m->complete) {
        if (w->flags & SWMC_RESENT) {
            owe(s, r, w->seq);
            ack_to(s, r);
        }
        return;
    }
    if (m->total != w->total || w->off % SWMC_FRAG || w->off + len > m->total || m->have[k])
        return;
    m->have[k] = 1;
    memcpy(m->data + w->off, data, len);
    m->got += len;
    if (m->got < m->total)
        return;
    m->complete = true;
    owe(s, r, w->seq);
    if (w->flags & (SWMC_ACK_ME | SWMC_RESENT))
        ack_to(s, r);
}

void swmc_bcast_ack(struct mpi_swmc *s, int src_world, uint32_t upto)
{
    int r = mpi_swmc_rank_of(s->comm, src_world);

    if (r < 0 || (int32_t)(upto - s->cum[r]) <= 0)
        return;     /* older news */
    for (struct swmc_out *o = s->out; o; o = o->next)
        if ((int32_t)(o->seq - s->cum[r]) > 0 && (int32_t)(o->seq - upto) <= 0)
            o->acks++;
    s->cum[r] = upto;
    s->ack_ns = nc_host_now_ns();
}

/* The broadcast's bytes again, by point-to-point, to every member whose
 * acknowledgement does not cover it (once: that cannot be lost, and is
 * always answered). */
static void resend(struct mpi_swmc *s, struct swmc_out *o)
{
    MPI_Comm c = s->comm;

    o->resend = mpi_req_new(REQ_COLL);
    o->resend->frags_left = 1;
    for (int i = 0; i < c->size; i++) {
        if (i == c->rank || o->resent_to[i] || (int32_t)(s->cum[i] - o->seq) >= 0)
            continue;
        o->resent_to[i] = 1;
        for (size_t off = 0; off < o->n; off += SWMC_FRAG) {
            struct mpi_hdr h = { .type = PKT_SWMC, .ctx = c->ctx, .tag = SWMC_RESEND,
                                 .len = o->seq, .sreq = off, .rreq = o->n };

            o->resend->frags_left++;
            mpi_net_send(c->group->world[i], &h, o->bytes + off,
                         frag_len(o->n, off), o->resend);
        }
    }
    if (mpi_state.debug)
        nc_host_printf("libmpi: rank %d: broadcast %u on switch group %u: %u of %d "
                       "acknowledged after %llu us, the rest resent\n", mpi_state.world_rank,
                       o->seq, s->group, o->acks, c->size - 1,
                       (unsigned long long)(nc_host_now_ns() - o->sent_ns) / 1000);
    if (!--o->resend->frags_left)
        mpi_req_complete(o->resend);
}

/* Acknowledged by every member, and its packets handed to the NIC. */
static bool retirable(struct mpi_swmc *s, const struct swmc_out *o)
{
    return o->acks == (unsigned)s->comm->size - 1 && o->sent->complete &&
           (!o->resend || o->resend->complete);
}

void swmc_bcast_tick(struct mpi_swmc *s)
{
    uint64_t now = nc_host_now_ns();

    for (struct swmc_out **pp = &s->out, *o; (o = *pp);) {
        if (o->copy && retirable(s, o)) {
            *pp = o->next;
            s->n_out--;
            s->out_bytes -= o->n;
            out_free(o);
            continue;
        }
        /* the time-out counts from when the packets left the queue (a
         * window of large broadcasts waits there for the wire), and from
         * the latest acknowledgement that said something new (a root of
         * many members takes them slower than it sends) */
        if (!o->sent_ns && o->sent->complete)
            o->sent_ns = now;
        if (o->sent_ns && !o->resend && o->acks < (unsigned)s->comm->size - 1 &&
            now - o->sent_ns >= SWMC_RTO_NS(o->n) && now - s->ack_ns >= SWMC_RTO_NS(o->n))
            resend(s, o);
        pp = &o->next;
    }
    if (s->owed_ns && now - s->owed_ns >= SWMC_ACK_DELAY_NS)
        ack_owed(s);
}

void swmc_bcast_drain(struct mpi_swmc *s)
{
    uint64_t idle = nc_host_now_ns();

    ack_owed(s);
    while (s->out)
        mpi_progress_wait(&idle);
}

/* The root: its window's room, the group packets, and (a broadcast too
 * large to copy) every acknowledgement. */
static void root_send(struct mpi_swmc *s, uint32_t seq, const uint8_t *bytes, size_t n)
{
    MPI_Comm c = s->comm;
    bool keep = n <= SWMC_KEEP_BYTES;
    struct swmc_out *o = calloc(1, sizeof *o), **pp;
    struct swmc_wire w = { .kind = SWMC_DATA, .ctx = c->ctx, .seq = seq, .total = (uint32_t)n };
    uint64_t idle = nc_host_now_ns();

    while (s->n_out >= SWMC_WINDOW || (keep && s->out_bytes + n > SWMC_KEEP_BYTES))
        mpi_progress_wait(&idle);
    o->seq = seq;
    o->n = n;
    if (keep) {
        o->copy = malloc(n);
        nc_host_memcpy(o->copy, bytes, n);
    }
    o->bytes = keep ? o->copy : bytes;
    o->resent_to = calloc((size_t)c->size, 1);
    o->sent = mpi_req_new(REQ_COLL);
    o->sent->frags_left = (unsigned)((n + SWMC_FRAG - 1) / SWMC_FRAG);
    if (!keep || ++s->since_flag >= SWMC_WINDOW / 2) {
        w.flags = SWMC_ACK_ME;
        s->since_flag = 0;
    }
    for (size_t off = 0; off < n; off += SWMC_FRAG) {
        w.off = (uint32_t)off;
        mpi_net_gsend(s->group, &w, sizeof w, o->bytes + off,
                      frag_len(n, off), o->sent);
    }
    for (pp = &s->out; *pp; pp = &(*pp)->next)
        ;
    *pp = o;
    s->n_out++;
    s->out_bytes += keep ? n : 0;
    if (keep)
        return;
    while (!retirable(s, o))
        mpi_progress_wait(&idle);
    for (pp = &s->out; *pp != o; pp = &(*pp)->next)
        ;
    *pp = o->next;
    s->n_out--;
    out_free(o);
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
