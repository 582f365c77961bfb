/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Point-to-point semantics of MPI 3.1 chapter 3, on any number of ranks:
 *   order      non-overtaking (3.5): messages of one sender on one
 *              communicator match in the order sent, eager and rendezvous
 *              sizes mixed, whether the receive is posted or not
 *   wildcard   MPI_ANY_SOURCE / MPI_ANY_TAG: every message once, the
 *              status names its source and tag, Get_count its length
 *   truncate   a message longer than the receive: MPI_ERR_TRUNCATE (3.2.5)
 *              with MPI_ERRORS_RETURN, the part that fits delivered
 *   zero       zero counts, MPI_PROC_NULL (3.11)
 *   probe      Probe/Iprobe report a pending message without taking it
 *   sizes      a ring exchange at every protocol boundary, payload intact
 *   ssend      an Ssend completes only after its receive has started (3.4)
 *   requests   Waitany/Waitsome/Testall, persistent requests, Request_free,
 *              Cancel of a receive (3.8.4), Request_get_status
 *   bsend      buffered sends and MPI_ERR_BUFFER (3.6)
 *   comms      context: the same (source, tag) on two communicators never
 *              mixes; split and create communicators carry their own traffic
 *   comms3     MPI 3.0's: MPI_Comm_create_group called by the group's
 *              members only (even and odd ranks at once, different tags,
 *              members whose lowest unused context ids differ);
 *              MPI_Comm_split_type (each rank shares memory with itself)
 *   halves     communicators made at once by disjoint halves: MPI_Comm_split
 *              into two, each half dups its half several times (their
 *              context ids alike in both halves), then broadcasts on every
 *              dup, each root's bytes its own: each member gets its root's
 *   idup       MPI 3.0's MPI_Comm_idup: two outstanding on one communicator
 *              with traffic on it before the wait, a third started while
 *              a member's Ssend waits for a receive posted after it;
 *              attributes copied; each dup its own context
 *   idupx      context agreements that collide: MPI_Comm_idups outstanding
 *              on two communicators, started in opposite orders on even
 *              and odd ranks, and a blocking MPI_Comm_dup made meanwhile;
 *              every member agrees on each new communicator's context,
 *              each its own
 *   mprobe     MPI 3.0's matched probe (3.8.2): eager and rendezvous
 *              messages taken out of the queue (no probe or wildcard
 *              receive finds them again), received out of order;
 *              MPI_PROC_NULL; a status's MPI_ERROR left as it was
 */
#include "mpitest.h"

static void order(void)
{
    /* each rank sends 40 messages to its right neighbour, sizes cycling
     * through eager and rendezvous; the receiver posts nothing until all
     * were sent (so they wait as unexpected messages), then receives them
     * naming the source or with the wildcard. (A ring, not all to one
     * rank: docs/mpi.md, "Known problems", on many senders to one NIC.) */
    enum { N = 40 };
    static const size_t size[] = { 4, 20000, 0, 100, 16288, 8, 40000, 16287 };
    int right = (me + 1) % np, left = (me + np - 1) % np;
    MPI_Request r[N];
    unsigned char *b[N];
    for (int i = 0; i < N; i++) {
        size_t n = size[i % 8];
        b[i] = malloc(n + 4);
        for (size_t k = 0; k < n; k++)
            b[i][k] = pat(me, i, k);
        /* the sequence number is the first byte when there is room */
        if (n)
            b[i][0] = (unsigned char)i;
        MPI_Isend(b[i], (int)n, MPI_BYTE, right, 7, MPI_COMM_WORLD, &r[i]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    unsigned char *buf = malloc(40000);
    for (int i = 0; i < N; i++) {
        MPI_Status st;
        int cnt;
        MPI_Recv(buf, 40000, MPI_BYTE, i % 2 ? MPI_ANY_SOURCE : left, i % 3 ? 7 : MPI_ANY_TAG,
                 MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_BYTE, &cnt);
        CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 7, "source %d tag %d", st.MPI_SOURCE,
              st.MPI_TAG);
        CHECK(cnt == (int)size[i % 8], "message %d: %d bytes, sent %zu", i, cnt, size[i % 8]);
        if (cnt > 0 && cnt == (int)size[i % 8]) {
            CHECK(buf[0] == (unsigned char)i, "message %d came as number %d", buf[0], i);
            for (int k = 1; k < cnt; k++)
                if (buf[k] != pat(left, buf[0], (size_t)k)) {
                    CHECK(0, "message %d: byte %d wrong", i, k);
                    break;
                }
        }
    }
    MPI_Waitall(N, r, MPI_STATUSES_IGNORE);
    for (int i = 0; i < N; i++)
        free(b[i]);
    free(buf);
}

static void wildcard(void)
{
    if (me != 0) {
        int v[3] = { me, me * me, -me };
        MPI_Send(v, 3, MPI_INT, 0, 100 + me, MPI_COMM_WORLD);
        return;
    }
    int *seen = calloc((size_t)np, sizeof *seen);
    for (int m = 1; m < np; m++) {
        int v[8];
        MPI_Status st;
        int cnt;
        MPI_Recv(v, 8, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_INT, &cnt);
        int s = st.MPI_SOURCE;
        CHECK(s > 0 && s < np, "source %d", s);
        if (s <= 0 || s >= np)
            continue;
        CHECK(st.MPI_TAG == 100 + s, "tag %d from rank %d", st.MPI_TAG, s);
        CHECK(cnt == 3, "count %d", cnt);
        CHECK(v[0] == s && v[1] == s * s && v[2] == -s, "payload from %d", s);
        seen[s]++;
    }
    for (int s = 1; s < np; s++)
        CHECK(seen[s] == 1, "rank %d's message seen %d times", s, seen[s]);
    free(seen);
}

static void truncate_(void)
{
    if (np < 2)
        return;
    int dst = 1 % np;
    if (me == 0) {
        int *v = malloc(sizeof(int) * 20000);
        for (int i = 0; i < 20000; i++)
            v[i] = i * 3;
        MPI_Send(v, 100, MPI_INT, dst, 1, MPI_COMM_WORLD);      /* eager */
        MPI_Send(v, 20000, MPI_INT, dst, 2, MPI_COMM_WORLD);    /* rendezvous */
        MPI_Send(v, 5, MPI_INT, dst, 3, MPI_COMM_WORLD);        /* still works after */
        free(v);
    } else if (me == dst) {
        int v[10] = { 0 }, rc, cls;
        MPI_Status st;
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        for (int tag = 1; tag <= 2; tag++) {
            memset(v, 0, sizeof v);
            rc = MPI_Recv(v, 10, MPI_INT, 0, tag, MPI_COMM_WORLD, &st);
            MPI_Error_class(rc, &cls);
            CHECK(cls == MPI_ERR_TRUNCATE, "tag %d: error class %d, not MPI_ERR_TRUNCATE", tag, cls);
            CHECK(v[0] == 0 && v[9] == 27, "tag %d: the part that fits", tag);
        }
        rc = MPI_Recv(v, 10, MPI_INT, 0, 3, MPI_COMM_WORLD, &st);
        int cnt;
        MPI_Get_count(&st, MPI_INT, &cnt);
        CHECK(rc == MPI_SUCCESS && cnt == 5 && v[4] == 12, "a fitting message after truncation");
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    }
}

static void zero(void)
{
    int right = (me + 1) % np, left = (me + np - 1) % np, cnt = -1;
    MPI_Status st;

    MPI_Sendrecv(NULL, 0, MPI_INT, right, 5, NULL, 0, MPI_INT, left, 5, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(cnt == 0 && st.MPI_SOURCE == left && st.MPI_TAG == 5, "empty message: count %d source %d",
          cnt, st.MPI_SOURCE);
    /* a zero-count receive takes a zero-count message but truncates a longer one */
    int x = 42;
    MPI_Send(&x, 0, MPI_INT, right, 6, MPI_COMM_WORLD);
    MPI_Recv(&x, 0, MPI_INT, left, 6, MPI_COMM_WORLD, &st);
    CHECK(x == 42, "a zero-count receive wrote its buffer");
    /* MPI_PROC_NULL: completes at once, source MPI_PROC_NULL, tag MPI_ANY_TAG, count 0 */
    MPI_Send(&x, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD);
    MPI_Recv(&x, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && cnt == 0 && x == 42,
          "receive from MPI_PROC_NULL: source %d tag %d count %d", st.MPI_SOURCE, st.MPI_TAG, cnt);
}

static void probe(void)
{
    int flag = 1, cnt;
    MPI_Status st;

    MPI_Iprobe(MPI_ANY_SOURCE, 77, MPI_COMM_WORLD, &flag, &st);
    CHECK(!flag, "Iprobe found a message nobody sent");
    MPI_Barrier(MPI_COMM_WORLD);
    int right = (me + 1) % np, left = (me + np - 1) % np;
    size_t n = 1000 + 5000 * (size_t)me;    /* eager and rendezvous sizes */
    double *v = malloc(n * sizeof *v);
    for (size_t i = 0; i < n; i++)
        v[i] = me + i * 0.5;
    MPI_Request r;
    MPI_Isend(v, (int)n, MPI_DOUBLE, right, 77, MPI_COMM_WORLD, &r);
    MPI_Probe(left, 77, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_DOUBLE, &cnt);
    CHECK(cnt == 1000 + 5000 * left && st.MPI_SOURCE == left && st.MPI_TAG == 77,
          "Probe: count %d source %d", cnt, st.MPI_SOURCE);
    MPI_Iprobe(left, 77, MPI_COMM_WORLD, &flag, &st);
    CHECK(flag, "the probed message is still there");
    double *w = malloc((size_t)cnt * sizeof *w);
    MPI_Recv(w, cnt, MPI_DOUBLE, left, 77, MPI_COMM_WORLD, &st);
    CHECK(w[cnt - 1] == left + (cnt - 1) * 0.5, "payload after probe");
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    free(v);
    free(w);
}

static void sizes(void)
{
    static const size_t sz[] = { 0, 1, 7, 1024, 16286, 16287, 16288, 32767, 32768, 32769,
                                 65536 + 3, 300000, 1 << 20 };
    int right = (me + 1) % np, left = (me + np - 1) % np;
    unsigned char *s = malloc(1 << 20), *r = malloc(1 << 20);

    for (unsigned k = 0; k < sizeof sz / sizeof sz[0]; k++) {
        MPI_Status st;
        int cnt;
        for (size_t i = 0; i < sz[k]; i++)
            s[i] = pat(me, (int)k, i);
        MPI_Sendrecv(s, (int)sz[k], MPI_BYTE, right, (int)k, r, 1 << 20, MPI_BYTE, left, (int)k,
                     MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_BYTE, &cnt);
        CHECK(cnt == (int)sz[k], "size %zu: got %d", sz[k], cnt);
        size_t bad = 0;
        for (size_t i = 0; i < sz[k]; i++)
            bad += r[i] != pat(left, (int)k, i);
        CHECK(bad == 0, "size %zu: %zu bytes wrong", sz[k], bad);
    }
    free(s);
    free(r);
}

static void ssend(void)
{
    if (np < 2)
        return;
    if (me == 0) {
        int v = 5, flag = 0, go = 1;
        MPI_Request r;
        MPI_Issend(&v, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &r);
        double t0 = MPI_Wtime();
        while (!flag && MPI_Wtime() - t0 < 1e-3)
            MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
        CHECK(!flag, "Issend completed before its receive was posted");
        MPI_Send(&go, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
        if (!flag)
            MPI_Wait(&r, MPI_STATUS_IGNORE);
    } else if (me == 1) {
        int v = 0, go = 0;
        MPI_Recv(&go, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(v == 5, "Ssend payload %d", v);
    }
}

static void requests(void)
{
    int right = (me + 1) % np, left = (me + np - 1) % np;
    int out[4], in[4] = { -1, -1, -1, -1 };
    MPI_Request r[8];
    MPI_Status st[8];

    /* Waitany/Waitsome: every request reported exactly once */
    for (int i = 0; i < 4; i++) {
        out[i] = me * 10 + i;
        MPI_Irecv(&in[i], 1, MPI_INT, left, i, MPI_COMM_WORLD, &r[i]);
    }
    for (int i = 3; i >= 0; i--)
        MPI_Isend(&out[i], 1, MPI_INT, right, i, MPI_COMM_WORLD, &r[4 + i]);
    int done[8] = { 0 }, ndone = 0;
    while (ndone < 8) {
        int idx[8], n;
        if (ndone % 2) {
            MPI_Waitany(8, r, &idx[0], &st[0]);
            n = 1;
        } else {
            MPI_Waitsome(8, r, &n, idx, st);
        }
        for (int k = 0; k < n; k++) {
            CHECK(idx[k] >= 0 && idx[k] < 8 && !done[idx[k]], "index %d reported twice", idx[k]);
            CHECK(r[idx[k]] == MPI_REQUEST_NULL, "a completed request was not freed");
            done[idx[k]] = 1;
            ndone++;
        }
    }
    int idx, flag;
    MPI_Waitany(8, r, &idx, &st[0]);
    CHECK(idx == MPI_UNDEFINED, "Waitany on null requests: index %d", idx);
    for (int i = 0; i < 4; i++)
        CHECK(in[i] == left * 10 + i, "Irecv %d got %d", i, in[i]);

    /* persistent: the same requests started five times */
    int ps = 0, pr = -1;
    MPI_Send_init(&ps, 1, MPI_INT, right, 9, MPI_COMM_WORLD, &r[0]);
    MPI_Recv_init(&pr, 1, MPI_INT, left, 9, MPI_COMM_WORLD, &r[1]);
    for (int round = 0; round < 5; round++) {
        ps = me * 100 + round;
        MPI_Startall(2, r);
        MPI_Waitall(2, r, st);
        CHECK(r[0] != MPI_REQUEST_NULL && r[1] != MPI_REQUEST_NULL,
              "a persistent request was freed by Waitall");
        CHECK(pr == left * 100 + round, "persistent round %d got %d", round, pr);
        CHECK(st[1].MPI_SOURCE == left && st[1].MPI_TAG == 9, "persistent status");
    }
    MPI_Request_free(&r[0]);
    MPI_Request_free(&r[1]);
    CHECK(r[0] == MPI_REQUEST_NULL, "Request_free did not null the handle");

    /* Cancel: a cancelled receive takes no message; the next one does */
    int c1 = -1, c2 = -1, val = me + 1000;
    MPI_Irecv(&c1, 1, MPI_INT, left, 11, MPI_COMM_WORLD, &r[0]);
    MPI_Cancel(&r[0]);
    MPI_Wait(&r[0], &st[0]);
    MPI_Test_cancelled(&st[0], &flag);
    CHECK(flag, "an unmatched receive was not cancelled");
    MPI_Send(&val, 1, MPI_INT, right, 11, MPI_COMM_WORLD);
    MPI_Recv(&c2, 1, MPI_INT, left, 11, MPI_COMM_WORLD, &st[1]);
    CHECK(c1 == -1 && c2 == left + 1000, "after a cancel: %d %d", c1, c2);
    MPI_Test_cancelled(&st[1], &flag);
    CHECK(!flag, "a received message reported cancelled");

    /* Request_free on an active send: the message still arrives */
    MPI_Isend(&val, 1, MPI_INT, right, 12, MPI_COMM_WORLD, &r[0]);
    MPI_Request_free(&r[0]);
    c2 = -1;
    MPI_Irecv(&c2, 1, MPI_INT, left, 12, MPI_COMM_WORLD, &r[1]);
    do
        MPI_Request_get_status(r[1], &flag, &st[1]);
    while (!flag);
    CHECK(r[1] != MPI_REQUEST_NULL, "Request_get_status freed the request");
    MPI_Wait(&r[1], MPI_STATUS_IGNORE);
    CHECK(c2 == left + 1000, "a freed send's message: %d", c2);
    MPI_Testall(2, r, &flag, MPI_STATUSES_IGNORE);
    CHECK(flag, "Testall of null requests");
}

static void bsend(void)
{
    int right = (me + 1) % np, left = (me + np - 1) % np;
    int size = 4 * (1000 * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
    void *buf = malloc((size_t)size), *got;
    int v[1000], w[1000], gsize, rc, cls;

    MPI_Buffer_attach(buf, size);
    for (int m = 0; m < 4; m++) {
        for (int i = 0; i < 1000; i++)
            v[i] = me * m + i;
        MPI_Bsend(v, 1000, MPI_INT, right, m, MPI_COMM_WORLD);
    }
    /* a message larger than the whole buffer: MPI_ERR_BUFFER */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int *big = calloc(5000, sizeof *big);
    rc = MPI_Bsend(big, 5000, MPI_INT, right, 9, MPI_COMM_WORLD);
    free(big);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_BUFFER, "Bsend beyond the buffer: class %d", cls);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    for (int i = 0; i < 1000; i++)
        v[i] = -1;      /* the buffered copies are what goes */
    for (int m = 3; m >= 0; m--) {
        MPI_Recv(w, 1000, MPI_INT, left, m, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(w[0] == left * m && w[999] == left * m + 999, "Bsend message %d", m);
    }
    MPI_Buffer_detach(&got, &gsize);
    CHECK(got == buf && gsize == size, "Buffer_detach returned %p %d", got, gsize);
    free(buf);
}

static void comms(void)
{
    MPI_Comm dup, half, sub;
    MPI_Group wg, g2;
    int right = (me + 1) % np, left = (me + np - 1) % np, a = -1, b = -1, res;

    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_compare(MPI_COMM_WORLD, dup, &res);
    CHECK(res == MPI_CONGRUENT, "compare(world, dup) = %d", res);
    /* the dup's message is sent first; a receive on world must skip it */
    int x = 1000 + me, y = 2000 + me;
    MPI_Request r[2];
    MPI_Isend(&x, 1, MPI_INT, right, 3, dup, &r[0]);
    MPI_Isend(&y, 1, MPI_INT, right, 3, MPI_COMM_WORLD, &r[1]);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Recv(&b, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&a, 1, MPI_INT, left, 3, dup, MPI_STATUS_IGNORE);
    CHECK(b == 2000 + left && a == 1000 + left, "world got %d, dup got %d", b, a);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);

    /* split by parity, ordered by descending rank */
    MPI_Comm_split(MPI_COMM_WORLD, me % 2, -me, &half);
    int hr, hs, expect_size = (np + 1 - me % 2) / 2;
    MPI_Comm_rank(half, &hr);
    MPI_Comm_size(half, &hs);
    CHECK(hs == expect_size, "split size %d, expected %d", hs, expect_size);
    CHECK(hr == (np - 1 - me) / 2, "split rank %d for world rank %d", hr, me);
    int sum = 0;
    MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, half);
    int want = 0;
    for (int i = me % 2; i < np; i += 2)
        want += i;
    CHECK(sum == want, "allreduce over the split: %d, expected %d", sum, want);

    /* create: every rank but the last */
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    int last = np - 1, tr;
    MPI_Group_excl(wg, 1, &last, &g2);
    MPI_Comm_create(MPI_COMM_WORLD, g2, &sub);
    if (me == last) {
        CHECK(sub == MPI_COMM_NULL, "the excluded rank got a communicator");
    } else {
        int sr, ss;
        MPI_Comm_rank(sub, &sr);
        MPI_Comm_size(sub, &ss);
        CHECK(sr == me && ss == np - 1, "create: rank %d size %d", sr, ss);
        int t = 0;
        MPI_Allreduce(&sr, &t, 1, MPI_INT, MPI_MAX, sub);
        CHECK(t == np - 2, "allreduce over the created communicator: %d", t);
        MPI_Comm_free(&sub);
        CHECK(sub == MPI_COMM_NULL, "Comm_free did not null the handle");
    }
    MPI_Group_translate_ranks(wg, 1, &me, g2, &tr);
    CHECK(tr == (me == last ? MPI_UNDEFINED : me), "translate_ranks: %d", tr);
    MPI_Group_free(&g2);
    MPI_Group_free(&wg);
    MPI_Comm_free(&half);
    MPI_Comm_free(&dup);
}

static void comms3(void)
{
    MPI_Group wg, mine;
    MPI_Comm c, t, extra;
    int n = 0, *ranks = malloc(sizeof(int) * (size_t)np), sum = 0, want = 0, sz, rk;

    /* rank 0 alone uses a context id more, so the even ranks' lowest
     * unused ids differ and must be agreed */
    if (me == 0)
        MPI_Comm_dup(MPI_COMM_SELF, &extra);
    for (int r = me % 2; r < np; r += 2) {
        ranks[n++] = r;
        want += r;
    }
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_incl(wg, n, ranks, &mine);
    MPI_Comm_create_group(MPI_COMM_WORLD, mine, 10 + me % 2, &c);
    CHECK(c != MPI_COMM_NULL, "no communicator for a member");
    MPI_Comm_size(c, &sz);
    MPI_Comm_rank(c, &rk);
    CHECK(sz == n && rk == me / 2, "size %d rank %d, want %d %d", sz, rk, n, me / 2);
    MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, c);
    CHECK(sum == want, "Allreduce over the %s ranks: %d, want %d", me % 2 ? "odd" : "even", sum,
          want);
    /* traffic on it and on MPI_COMM_WORLD with the same (source, tag) stays apart */
    int a = -1, right = (rk + 1) % sz, left = (rk + sz - 1) % sz;
    MPI_Sendrecv(&me, 1, MPI_INT, right, 0, &a, 1, MPI_INT, left, 0, c, MPI_STATUS_IGNORE);
    CHECK(a == ranks[left], "from the left member: %d, want %d", a, ranks[left]);
    MPI_Comm_free(&c);
    /* a rank outside the group gets MPI_COMM_NULL without waiting for
     * anyone; the group's one member gets a communicator of itself */
    {
        int zero = 0;
        MPI_Group g0;
        MPI_Group_incl(wg, 1, &zero, &g0);
        MPI_Comm_create_group(MPI_COMM_WORLD, g0, 3, &c);
        CHECK(me == 0 ? c != MPI_COMM_NULL : c == MPI_COMM_NULL,
              "a non-member got a communicator, or the member none");
        if (c != MPI_COMM_NULL)
            MPI_Comm_free(&c);
        MPI_Group_free(&g0);
    }
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL, &t);
    MPI_Comm_size(t, &sz);
    MPI_Comm_rank(t, &rk);
    CHECK(sz == 1 && rk == 0, "MPI_COMM_TYPE_SHARED: size %d rank %d, want 1 0", sz, rk);
    MPI_Comm_free(&t);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_UNDEFINED, 0, MPI_INFO_NULL, &t);
    CHECK(t == MPI_COMM_NULL, "MPI_UNDEFINED gave a communicator");
    if (me == 0)
        MPI_Comm_free(&extra);
    MPI_Group_free(&mine);
    MPI_Group_free(&wg);
    free(ranks);
}

/* ---- MPI_Comm_idup (MPI 3.0 section 6.4.2) ----------------------------------- */
static int idup_copy(MPI_Comm old, int key, void *extra, void *in, void *out, int *flag)
{
    (void)old, (void)key, (void)extra;
    *(void **)out = (char *)in + 1;
    *flag = 1;
    return MPI_SUCCESS;
}

static void idup(void)
{
    int right = (me + 1) % np, left = (me + np - 1) % np, key, flag, res, a = -1;
    void *v;
    MPI_Comm d1, d2, d3;
    MPI_Request r[3];

    MPI_Comm_create_keyval(idup_copy, MPI_COMM_NULL_DELETE_FN, &key, NULL);
    MPI_Comm_set_attr(MPI_COMM_WORLD, key, (void *)40);
    /* two idups outstanding on world, and traffic on world before the wait */
    MPI_Comm_idup(MPI_COMM_WORLD, &d1, &r[0]);
    MPI_Comm_idup(MPI_COMM_WORLD, &d2, &r[1]);
    int x = 100 + me;
    MPI_Sendrecv(&x, 1, MPI_INT, right, 5, &a, 1, MPI_INT, left, 5, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    CHECK(a == 100 + left, "world's message during the idups: %d, want %d", a, 100 + left);
    /* a third: the last rank sends synchronously on world before it starts
     * the idup, rank 0 receives that only after it has started its own */
    if (np > 1 && me == np - 1)
        MPI_Ssend(&x, 1, MPI_INT, 0, 6, MPI_COMM_WORLD);
    MPI_Comm_idup(MPI_COMM_WORLD, &d3, &r[2]);
    if (np > 1 && me == 0) {
        MPI_Recv(&a, 1, MPI_INT, np - 1, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(a == 100 + np - 1, "the Ssend after rank 0's idup: %d", a);
    }
    MPI_Waitall(3, r, MPI_STATUSES_IGNORE);
    MPI_Comm_compare(MPI_COMM_WORLD, d1, &res);
    CHECK(res == MPI_CONGRUENT, "compare(world, idup) = %d", res);
    MPI_Comm_get_attr(d1, key, &v, &flag);
    CHECK(flag && v == (void *)41, "the idup's attribute: flag %d value %p (want 41)", flag, v);
    MPI_Comm_get_attr(d2, key, &v, &flag);
    CHECK(flag && v == (void *)41, "the second idup's attribute: flag %d value %p", flag, v);
    /* the same (source, tag) on world, d1, d2 and d3, sent in that order and
     * received in the reverse one: each on its own communicator */
    int sent[4], got[4] = { -1, -1, -1, -1 };
    MPI_Comm on[4] = { MPI_COMM_WORLD, d1, d2, d3 };
    MPI_Request q[4];
    for (int i = 0; i < 4; i++) {
        sent[i] = 1000 * (i + 1) + me;
        MPI_Isend(&sent[i], 1, MPI_INT, right, 7, on[i], &q[i]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 3; i >= 0; i--) {
        MPI_Recv(&got[i], 1, MPI_INT, left, 7, on[i], MPI_STATUS_IGNORE);
        CHECK(got[i] == 1000 * (i + 1) + left, "communicator %d got %d, want %d", i, got[i],
              1000 * (i + 1) + left);
    }
    MPI_Waitall(4, q, MPI_STATUSES_IGNORE);
    int sum = -1;
    MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, d2);
    CHECK(sum == np * (np - 1) / 2, "Allreduce over an idup: %d", sum);
    MPI_Comm_free(&d1);
    MPI_Comm_free(&d2);
    MPI_Comm_free(&d3);
    MPI_Comm_delete_attr(MPI_COMM_WORLD, key);
    MPI_Comm_free_keyval(&key);
}

/* Whether a message from 'from' with 'tag' arrives on c within 50 ms. */
static int arrives(int from, int tag, MPI_Comm c)
{
    double t0 = MPI_Wtime();
    int flag = 0;

    while (!flag && MPI_Wtime() - t0 < 0.05)
        MPI_Iprobe(from, tag, c, &flag, MPI_STATUS_IGNORE);
    return flag;
}

/* Two idups started in opposite orders on even and odd ranks propose the
 * same free ids at once, so that a member finds the id agreed by one
 * taken by the other and all of that agreement's members try again; the
 * blocking dup agrees meanwhile. Then the same (source, tag) on all six
 * communicators, sent in one order and received in the reverse one: each
 * message on its own, and a communicator whose members hold different ids
 * gets none (the run ends). */
static void idupx(void)
{
    int right = (me + 1) % np, left = (me + np - 1) % np;
    MPI_Comm a, b;

    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MPI_Comm_dup(MPI_COMM_WORLD, &b);
    for (int it = 0; it < 4; it++) {
        MPI_Comm x, y, w;
        MPI_Request r[2], q[6];
        int sent[6], got;

        if (me % 2 == 0) {
            MPI_Comm_idup(a, &x, &r[0]);
            MPI_Comm_idup(b, &y, &r[1]);
        } else {
            MPI_Comm_idup(b, &y, &r[1]);
            MPI_Comm_idup(a, &x, &r[0]);
        }
        MPI_Comm_dup(MPI_COMM_WORLD, &w);
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
        MPI_Comm on[6] = { MPI_COMM_WORLD, a, b, x, y, w };
        for (int i = 0; i < 6; i++) {
            sent[i] = 1000 * (i + 1) + me;
            MPI_Isend(&sent[i], 1, MPI_INT, right, 8, on[i], &q[i]);
        }
        for (int i = 5; i >= 0; i--) {
            if (!arrives(left, 8, on[i])) {
                CHECK(0, "pass %d: no message on communicator %d: its members' ids differ", it, i);
                fflush(stdout);
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
            MPI_Recv(&got, 1, MPI_INT, left, 8, on[i], MPI_STATUS_IGNORE);
            CHECK(got == 1000 * (i + 1) + left, "pass %d: communicator %d got %d, want %d", it, i,
                  got, 1000 * (i + 1) + left);
        }
        MPI_Waitall(6, q, MPI_STATUSES_IGNORE);
        MPI_Comm_free(&x);
        MPI_Comm_free(&y);
        MPI_Comm_free(&w);
    }
    MPI_Comm_free(&a);
    MPI_Comm_free(&b);
}

/* ---- matched probe (MPI 3.0 section 3.8.2) ------------------------------------ */
static void mprobe(void)
{
    enum { SMALL = 100, BIG = 8192 };       /* ints: eager; doubles: 64 KB, rendezvous */
    int right = (me + 1) % np, left = (me + np - 1) % np, flag = 1, cnt;
    int s1[SMALL], s3[SMALL], r1[SMALL], r3[SMALL];
    double *s2 = malloc(BIG * sizeof *s2), *r2 = malloc(BIG * sizeof *r2);
    MPI_Message m1 = MPI_MESSAGE_NULL, m2 = MPI_MESSAGE_NULL;
    MPI_Status st, st2;
    MPI_Request q[3], rq;

    MPI_Improbe(MPI_ANY_SOURCE, 88, MPI_COMM_WORLD, &flag, &m1, &st);
    CHECK(!flag, "Improbe matched a message nobody sent");
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < SMALL; i++) {
        s1[i] = 10 * me + i;
        s3[i] = 30 * me + i;
    }
    for (int i = 0; i < BIG; i++)
        s2[i] = me + i * 0.25;
    MPI_Isend(s1, SMALL, MPI_INT, right, 88, MPI_COMM_WORLD, &q[0]);
    MPI_Isend(s2, BIG, MPI_DOUBLE, right, 89, MPI_COMM_WORLD, &q[1]);
    MPI_Isend(s3, SMALL, MPI_INT, right, 90, MPI_COMM_WORLD, &q[2]);
    do
        MPI_Improbe(left, 88, MPI_COMM_WORLD, &flag, &m1, &st);
    while (!flag);
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 88 && cnt == SMALL,
          "Improbe: source %d tag %d count %d", st.MPI_SOURCE, st.MPI_TAG, cnt);
    /* matched: no probe sees it any more */
    MPI_Iprobe(left, 88, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    CHECK(!flag, "Iprobe still sees the matched message");
    /* a call of one status leaves its MPI_ERROR as it was (MPI 3.1 3.2.5) */
    st2.MPI_ERROR = MPI_ERR_DIMS;
    MPI_Mprobe(left, 89, MPI_COMM_WORLD, &m2, &st2);
    MPI_Get_count(&st2, MPI_DOUBLE, &cnt);
    CHECK(st2.MPI_SOURCE == left && st2.MPI_TAG == 89 && cnt == BIG &&
          st2.MPI_ERROR == MPI_ERR_DIMS, "Mprobe: source %d tag %d count %d error %d",
          st2.MPI_SOURCE, st2.MPI_TAG, cnt, st2.MPI_ERROR);
    /* a receive from anyone takes the third message, not a matched one */
    MPI_Recv(r3, SMALL, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    CHECK(st.MPI_TAG == 90 && r3[SMALL - 1] == 30 * left + SMALL - 1,
          "MPI_Recv(MPI_ANY_SOURCE, MPI_ANY_TAG) got tag %d", st.MPI_TAG);
    fflush(stdout);     /* a library that gave a message twice may crash below */
    st.MPI_ERROR = MPI_ERR_TOPOLOGY;
    MPI_Mrecv(r2, BIG, MPI_DOUBLE, &m2, &st);
    MPI_Get_count(&st, MPI_DOUBLE, &cnt);
    CHECK(m2 == MPI_MESSAGE_NULL && st.MPI_TAG == 89 && cnt == BIG &&
          r2[0] == left && r2[BIG - 1] == left + (BIG - 1) * 0.25,
          "Mrecv of the rendezvous message: tag %d count %d", st.MPI_TAG, cnt);
    CHECK(st.MPI_ERROR == MPI_ERR_TOPOLOGY, "Mrecv wrote MPI_ERROR %d", st.MPI_ERROR);
    MPI_Imrecv(r1, SMALL, MPI_INT, &m1, &rq);
    CHECK(m1 == MPI_MESSAGE_NULL, "Imrecv did not null the message");
    MPI_Wait(&rq, &st);
    CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 88 && r1[0] == 10 * left &&
          r1[SMALL - 1] == 10 * left + SMALL - 1, "Imrecv of the eager message: tag %d",
          st.MPI_TAG);
    MPI_Waitall(3, q, MPI_STATUSES_IGNORE);
    /* MPI_PROC_NULL: MPI_MESSAGE_NO_PROC, received at once */
    MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &m1, &st);
    CHECK(m1 == MPI_MESSAGE_NO_PROC && st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG,
          "Mprobe(MPI_PROC_NULL): source %d tag %d", st.MPI_SOURCE, st.MPI_TAG);
    MPI_Mrecv(r1, SMALL, MPI_INT, &m1, &st);
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(m1 == MPI_MESSAGE_NULL && st.MPI_SOURCE == MPI_PROC_NULL && cnt == 0,
          "Mrecv(MPI_MESSAGE_NO_PROC): source %d count %d", st.MPI_SOURCE, cnt);
    MPI_Improbe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &flag, &m1, &st);
    CHECK(flag && m1 == MPI_MESSAGE_NO_PROC, "Improbe(MPI_PROC_NULL): flag %d", flag);
    MPI_Imrecv(r1, SMALL, MPI_INT, &m1, &rq);
    MPI_Wait(&rq, &st);
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL, "Imrecv(MPI_MESSAGE_NO_PROC): source %d",
          st.MPI_SOURCE);
    free(s2);
    free(r2);
}

#define HALF_DUPS 4
#define HALF_INTS 3000          /* 12 KB: a broadcast of several group packets */

static void halves(void)
{
    MPI_Comm half, d[HALF_DUPS];
    int side = me < np / 2, *v = malloc(sizeof(int) * HALF_INTS), hr, hs;

    MPI_Comm_split(MPI_COMM_WORLD, side, me, &half);
    MPI_Comm_rank(half, &hr);
    MPI_Comm_size(half, &hs);
    for (int k = 0; k < HALF_DUPS; k++)
        MPI_Comm_dup(half, &d[k]);
    for (int k = 0; k < HALF_DUPS; k++)
        for (int root = 0; root < hs; root++) {
            int bad = -1;

            for (int i = 0; i < HALF_INTS; i++)
                v[i] = hr == root ? side * 1000000 + k * 10000 + root * 100 + i % 97 : -1;
            MPI_Bcast(v, HALF_INTS, MPI_INT, root, d[k]);
            for (int i = 0; i < HALF_INTS && bad < 0; i++)
                if (v[i] != side * 1000000 + k * 10000 + root * 100 + i % 97)
                    bad = i;
            CHECK(bad < 0, "half %d, dup %d, root %d: int %d is %d, want %d", side, k, root, bad,
                  bad < 0 ? 0 : v[bad], side * 1000000 + k * 10000 + root * 100 + bad % 97);
        }
    for (int k = 0; k < HALF_DUPS; k++)
        MPI_Comm_free(&d[k]);
    MPI_Comm_free(&half);
    free(v);
}

static const struct scenario scenarios[] = {
    { "order", order }, { "wildcard", wildcard }, { "truncate", truncate_ },
    { "zero", zero }, { "probe", probe }, { "sizes", sizes }, { "ssend", ssend },
    { "requests", requests }, { "bsend", bsend }, { "comms", comms },
    { "comms3", comms3 }, { "halves", halves }, { "idup", idup }, { "idupx", idupx },
    { "mprobe", mprobe }, { NULL, NULL },
};

int main(int argc, char **argv)
{
    return run_scenarios(argc, argv, scenarios);
}
