/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Collectives of MPI 3.1 chapter 5, results checked against what the
 * standard defines (computed locally from every rank's known input):
 *   barrier    no rank leaves before the last one entered (virtual clocks
 *              are one time base: entry and exit times are comparable)
 *   bcast      every root, eager and rendezvous sizes, a derived type
 *   bcastrun   every root in turn sends 40 broadcasts back to back, into 40
 *              buffers checked only after the run (a root runs ahead of its
 *              members: on a switch group, a window of broadcasts awaits
 *              acknowledgement)
 *   reduce     every root; SUM, MAX, MINLOC, a user op that is not
 *              commutative (rank order must be kept), MPI_IN_PLACE
 *   allreduce  SUM, PROD, BXOR, the non-commutative op, MPI_IN_PLACE
 *   gather     Gather(v), Scatter(v), Allgather(v), Alltoall(v/w)
 *   scan       Scan, Exscan, Reduce_scatter(_block), Reduce_local
 *   biggather  Gather and Alltoall of 16 KB blocks: long messages from
 *              many ranks to one at once (an incast)
 *   iallgatherv  Iallgatherv of unequal, empty and rendezvous-sized parts
 *              at scattered places, across two datatypes, and in place
 *   ibcast     Ibcast from every root, all outstanding at once and the
 *              program computing meanwhile, of 0 .. 70,000 ints (beyond one
 *              NIC multicast) and a vector type; then each again alone
 *   subcycle   the same with communicators of every rank but the last
 *              (MPI_Comm_split): the last rank is in none of them
 *   commtime   a communicator's creation time in virtual time (printed by
 *              rank 0) and a broadcast on it
 *   commcycle  1,100 communicators made and freed in turn (more than the
 *              fabric's switch groups), a broadcast on each
 *   opfree, typefree, commfree, reqfree  an object freed while a pending
 *              operation uses it (legal: MPI 3.1 2.5.1) leaves that
 *              operation's result as it would be: a user op freed between
 *              MPI_Ireduce and MPI_Wait; a derived type between MPI_Irecv
 *              or MPI_Iallreduce and the wait; a communicator between
 *              MPI_Iallreduce and the wait; an active (rendezvous) send request freed
 */
#include "mpitest.h"

/* (first, last) of a sequence: a op b = (a.first, b.last). Associative,
 * not commutative: the reduction over ranks 0..n-1 is (0's, n-1's). */
static void firstlast(void *in, void *inout, int *len, MPI_Datatype *t)
{
    int *a = in, *b = inout;
    (void)t;
    for (int i = 0; i < *len; i++)
        b[2 * i] = a[2 * i];    /* inout = in op inout: first from in, last stays */
}

static void barrier(void)
{
    double in, out, *all = malloc(2 * sizeof(double) * (size_t)np);

    for (int round = 0; round < 3; round++) {
        spin_us(37.0 * ((me * 7 + round * 3) % np));   /* arrive at different times */
        in = MPI_Wtime();
        MPI_Barrier(MPI_COMM_WORLD);
        out = MPI_Wtime();
        double pair[2] = { in, out };
        MPI_Allgather(pair, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, MPI_COMM_WORLD);
        double last_in = 0, first_out = 1e30;
        for (int i = 0; i < np; i++) {
            if (all[2 * i] > last_in)
                last_in = all[2 * i];
            if (all[2 * i + 1] < first_out)
                first_out = all[2 * i + 1];
        }
        CHECK(first_out >= last_in, "round %d: a rank left at %.3f us, the last came at %.3f us",
              round, first_out * 1e6, last_in * 1e6);
    }
    free(all);
}

static void bcast(void)
{
    static const int counts[] = { 0, 1, 1000, 5000, 70000 };
    int *v = malloc(sizeof(int) * 70000);

    for (int root = 0; root < np; root++)
        for (unsigned k = 0; k < sizeof counts / sizeof counts[0]; k++) {
            int n = counts[k];
            for (int i = 0; i < n; i++)
                v[i] = me == root ? root * 1000003 + i * 7 + (int)k : -1;
            MPI_Bcast(v, n, MPI_INT, root, MPI_COMM_WORLD);
            int bad = 0;
            for (int i = 0; i < n; i++)
                bad += v[i] != root * 1000003 + i * 7 + (int)k;
            CHECK(!bad, "Bcast root %d count %d: %d wrong", root, n, bad);
        }
    /* a vector type: every other int of 20 */
    MPI_Datatype every2;
    MPI_Type_vector(10, 1, 2, MPI_INT, &every2);
    MPI_Type_commit(&every2);
    int w[20];
    for (int i = 0; i < 20; i++)
        w[i] = me == 0 ? i : -1;
    MPI_Bcast(w, 1, every2, 0, MPI_COMM_WORLD);
    int bad = 0;
    for (int i = 0; i < 20; i++)
        bad += w[i] != (i % 2 == 0 || me == 0 ? i : -1);
    CHECK(!bad, "Bcast of a vector type: %d wrong", bad);
    MPI_Type_free(&every2);
    free(v);
}

static void bcastrun(void)
{
    enum { RUN = 40 };
    static const int counts[] = { 256, 5000 };
    int *v = malloc(sizeof(int) * 5000 * RUN);

    for (int root = 0; root < np; root++)
        for (unsigned k = 0; k < sizeof counts / sizeof counts[0]; k++) {
            int n = counts[k], bad = 0;
            for (int b = 0; b < RUN; b++)
                for (int i = 0; i < n; i++)
                    v[b * n + i] = me == root ? root * 1000003 + i * 7 + b : -1;
            for (int b = 0; b < RUN; b++)
                MPI_Bcast(v + b * n, n, MPI_INT, root, MPI_COMM_WORLD);
            for (int b = 0; b < RUN; b++)
                for (int i = 0; i < n; i++)
                    bad += v[b * n + i] != root * 1000003 + i * 7 + b;
            CHECK(!bad, "%d Bcasts from root %d of %d ints: %d wrong", RUN, root, n, bad);
        }
    free(v);
}

static void reduce(void)
{
    MPI_Op fl;
    MPI_Op_create(firstlast, 0, &fl);
    for (int root = 0; root < np; root++) {
        int v[3] = { me + 1, me * 3 - 7, me }, s[3] = { 0, 0, 0 };
        MPI_Reduce(v, s, 2, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
        if (me == root)
            CHECK(s[0] == np * (np + 1) / 2 && s[1] == 3 * np * (np - 1) / 2 - 7 * np && s[2] == 0,
                  "Reduce SUM root %d: %d %d", root, s[0], s[1]);
        double d = (me * 37) % np + 0.25, m = 0;
        MPI_Reduce(&d, &m, 1, MPI_DOUBLE, MPI_MAX, root, MPI_COMM_WORLD);
        double want = 0;
        for (int i = 0; i < np; i++)
            if ((i * 37) % np + 0.25 > want)
                want = (i * 37) % np + 0.25;
        if (me == root)
            CHECK(m == want, "Reduce MAX root %d: %g, want %g", root, m, want);
        struct { double v; int i; } in = { (double)((me * 5) % 3), me }, out = { -1, -1 };
        MPI_Reduce(&in, &out, 1, MPI_DOUBLE_INT, MPI_MINLOC, root, MPI_COMM_WORLD);
        if (me == root)
            CHECK(out.v == 0 && out.i == 0, "MINLOC: (%g, %d)", out.v, out.i);
        int p[2] = { me, me }, q[2] = { -1, -1 };
        MPI_Reduce(p, q, 1, MPI_2INT, fl, root, MPI_COMM_WORLD);
        if (me == root)
            CHECK(q[0] == 0 && q[1] == np - 1, "non-commutative op, root %d: (%d, %d)", root,
                  q[0], q[1]);
        int ip = me;
        MPI_Reduce(me == root ? MPI_IN_PLACE : &ip, &ip, 1, MPI_INT, MPI_SUM, root,
                   MPI_COMM_WORLD);
        if (me == root)
            CHECK(ip == np * (np - 1) / 2, "Reduce MPI_IN_PLACE: %d", ip);
    }
    MPI_Op_free(&fl);
}

static void allreduce(void)
{
    MPI_Op fl;
    MPI_Op_create(firstlast, 0, &fl);
    long v[1000], s[1000];
    for (int i = 0; i < 1000; i++)
        v[i] = me * i + 1;
    MPI_Allreduce(v, s, 1000, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    int bad = 0;
    for (int i = 0; i < 1000; i++)
        bad += s[i] != (long)i * np * (np - 1) / 2 + np;
    CHECK(!bad, "Allreduce SUM: %d wrong", bad);
    double d = 1.0 + me % 3, p;
    MPI_Allreduce(&d, &p, 1, MPI_DOUBLE, MPI_PROD, MPI_COMM_WORLD);
    double want = 1;
    for (int i = 0; i < np; i++)
        want *= 1.0 + i % 3;
    CHECK(p == want, "Allreduce PROD: %g, want %g", p, want);
    unsigned x = 1u << (me % 32), y;
    MPI_Allreduce(&x, &y, 1, MPI_UNSIGNED, MPI_BXOR, MPI_COMM_WORLD);
    unsigned wx = 0;
    for (int i = 0; i < np; i++)
        wx ^= 1u << (i % 32);
    CHECK(y == wx, "Allreduce BXOR: %#x, want %#x", y, wx);
    int q[2] = { me, me };
    MPI_Allreduce(MPI_IN_PLACE, q, 1, MPI_2INT, fl, MPI_COMM_WORLD);
    CHECK(q[0] == 0 && q[1] == np - 1, "Allreduce non-commutative IN_PLACE: (%d, %d)", q[0], q[1]);
    MPI_Op_free(&fl);
}

static void gather(void)
{
    int *all = malloc(sizeof(int) * 4 * (size_t)np), mine[4], bad = 0;
    int *counts = malloc(sizeof(int) * (size_t)np), *displs = malloc(sizeof(int) * (size_t)np);
    int total = 0;
    for (int i = 0; i < np; i++) {
        counts[i] = i % 4;           /* ranks send 0..3 ints */
        displs[i] = total;
        total += counts[i];
    }
    for (int k = 0; k < 4; k++)
        mine[k] = me * 10 + k;
    for (int root = 0; root < np; root += np > 3 ? np / 3 : 1) {
        memset(all, 0xff, sizeof(int) * 4 * (size_t)np);
        MPI_Gather(mine, 4, MPI_INT, all, 4, MPI_INT, root, MPI_COMM_WORLD);
        if (me == root)
            for (int i = 0; i < 4 * np; i++)
                bad += all[i] != (i / 4) * 10 + i % 4;
        CHECK(!bad, "Gather root %d", root);
        memset(all, 0xff, sizeof(int) * 4 * (size_t)np);
        MPI_Gatherv(mine, me % 4, MPI_INT, all, counts, displs, MPI_INT, root, MPI_COMM_WORLD);
        if (me == root)
            for (int i = 0; i < np; i++)
                for (int k = 0; k < counts[i]; k++)
                    bad += all[displs[i] + k] != i * 10 + k;
        CHECK(!bad, "Gatherv root %d", root);
        int got[4] = { -1, -1, -1, -1 };
        if (me == root)
            for (int i = 0; i < 4 * np; i++)
                all[i] = (i / 4) * 100 + i % 4;
        MPI_Scatter(all, 4, MPI_INT, got, 4, MPI_INT, root, MPI_COMM_WORLD);
        CHECK(got[0] == me * 100 && got[3] == me * 100 + 3, "Scatter root %d", root);
        got[0] = got[1] = got[2] = got[3] = -1;
        MPI_Scatterv(all, counts, displs, MPI_INT, got, me % 4, MPI_INT, root, MPI_COMM_WORLD);
        for (int k = 0; k < me % 4; k++) {
            int at = displs[me] + k;
            bad += got[k] != (at / 4) * 100 + at % 4;
        }
        if (me % 4 < 4)
            bad += got[me % 4] != -1;   /* nothing beyond its count */
        CHECK(!bad, "Scatterv root %d", root);
    }
    memset(all, 0xff, sizeof(int) * 4 * (size_t)np);
    MPI_Allgather(mine, 4, MPI_INT, all, 4, MPI_INT, MPI_COMM_WORLD);
    for (int i = 0; i < 4 * np; i++)
        bad += all[i] != (i / 4) * 10 + i % 4;
    CHECK(!bad, "Allgather: %d wrong", bad);
    for (int i = 0; i < 4 * np; i++)
        all[i] = i / 4 == me ? me * 10 + i % 4 : -1;
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 4, MPI_INT, MPI_COMM_WORLD);
    for (int i = 0; i < 4 * np; i++)
        bad += all[i] != (i / 4) * 10 + i % 4;
    CHECK(!bad, "Allgather MPI_IN_PLACE: %d wrong", bad);
    memset(all, 0xff, sizeof(int) * 4 * (size_t)np);
    MPI_Allgatherv(mine, me % 4, MPI_INT, all, counts, displs, MPI_INT, MPI_COMM_WORLD);
    for (int i = 0; i < np; i++)
        for (int k = 0; k < counts[i]; k++)
            bad += all[displs[i] + k] != i * 10 + k;
    CHECK(!bad, "Allgatherv: %d wrong", bad);

    /* Alltoall: element j of rank i's send buffer goes to rank j */
    int *s = malloc(sizeof(int) * 2 * (size_t)np), *r = malloc(sizeof(int) * 2 * (size_t)np);
    for (int j = 0; j < np; j++) {
        s[2 * j] = me * 1000 + j;
        s[2 * j + 1] = -(me * 1000 + j);
    }
    MPI_Alltoall(s, 2, MPI_INT, r, 2, MPI_INT, MPI_COMM_WORLD);
    for (int i = 0; i < np; i++)
        bad += r[2 * i] != i * 1000 + me || r[2 * i + 1] != -(i * 1000 + me);
    CHECK(!bad, "Alltoall: %d wrong", bad);
    memcpy(r, s, sizeof(int) * 2 * (size_t)np);
    MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, r, 2, MPI_INT, MPI_COMM_WORLD);
    for (int i = 0; i < np; i++)
        bad += r[2 * i] != i * 1000 + me;
    CHECK(!bad, "Alltoall MPI_IN_PLACE: %d wrong", bad);
    /* Alltoallv: rank i sends (i + j) % 3 ints to rank j */
    int *sc = malloc(sizeof(int) * (size_t)np), *sd = malloc(sizeof(int) * (size_t)np);
    int *rc = malloc(sizeof(int) * (size_t)np), *rd = malloc(sizeof(int) * (size_t)np);
    int *sv = malloc(sizeof(int) * 3 * (size_t)np), *rv = malloc(sizeof(int) * 3 * (size_t)np);
    for (int j = 0; j < np; j++) {
        sc[j] = (me + j) % 3;
        sd[j] = 3 * j;
        rc[j] = (j + me) % 3;
        rd[j] = 3 * (np - 1 - j);
        for (int k = 0; k < 3; k++)
            sv[3 * j + k] = me * 100 + j * 10 + k;
    }
    MPI_Alltoallv(sv, sc, sd, MPI_INT, rv, rc, rd, MPI_INT, MPI_COMM_WORLD);
    for (int i = 0; i < np; i++)
        for (int k = 0; k < rc[i]; k++)
            bad += rv[rd[i] + k] != i * 100 + me * 10 + k;
    CHECK(!bad, "Alltoallv: %d wrong", bad);
    /* Alltoallw: the same with byte displacements and per-peer types */
    MPI_Datatype *ty = malloc(sizeof *ty * (size_t)np);
    for (int j = 0; j < np; j++) {
        ty[j] = MPI_INT;
        sd[j] *= (int)sizeof(int);
        rd[j] *= (int)sizeof(int);
    }
    memset(rv, 0, sizeof(int) * 3 * (size_t)np);
    MPI_Alltoallw(sv, sc, sd, ty, rv, rc, rd, ty, MPI_COMM_WORLD);
    for (int i = 0; i < np; i++)
        for (int k = 0; k < rc[i]; k++)
            bad += rv[rd[i] / (int)sizeof(int) + k] != i * 100 + me * 10 + k;
    CHECK(!bad, "Alltoallw: %d wrong", bad);
    free(ty); free(sc); free(sd); free(rc); free(rd); free(sv); free(rv);
    free(s); free(r); free(all); free(counts); free(displs);
}

static void scan(void)
{
    int v = me + 1, s = -1, e = -1;
    MPI_Scan(&v, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(s == (me + 1) * (me + 2) / 2, "Scan: %d", s);
    MPI_Exscan(&v, &e, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me > 0)     /* rank 0's result is undefined */
        CHECK(e == me * (me + 1) / 2, "Exscan: %d", e);
    MPI_Op fl;
    MPI_Op_create(firstlast, 0, &fl);
    int p[2] = { me, me };
    MPI_Scan(MPI_IN_PLACE, p, 1, MPI_2INT, fl, MPI_COMM_WORLD);
    CHECK(p[0] == 0 && p[1] == me, "Scan non-commutative: (%d, %d)", p[0], p[1]);
    MPI_Op_free(&fl);
    /* Reduce_scatter: rank i gets i + 1 elements of the sum */
    int total = np * (np + 1) / 2, *counts = malloc(sizeof(int) * (size_t)np);
    int *in = malloc(sizeof(int) * (size_t)total), out[64];
    for (int i = 0; i < np; i++)
        counts[i] = i + 1;
    for (int k = 0; k < total; k++)
        in[k] = k * (me + 1);
    MPI_Reduce_scatter(in, out, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    int first = me * (me + 1) / 2, bad = 0;
    for (int k = 0; k <= me; k++)
        bad += out[k] != (first + k) * np * (np + 1) / 2;
    CHECK(!bad, "Reduce_scatter: %d wrong", bad);
    int blk[2 * 64], ob[2];
    for (int k = 0; k < 2 * np; k++)
        blk[k] = k + me;
    MPI_Reduce_scatter_block(blk, ob, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    CHECK(ob[0] == 2 * me + np - 1 && ob[1] == 2 * me + np, "Reduce_scatter_block: %d %d", ob[0],
          ob[1]);
    int a[3] = { 1, 2, 3 }, b[3] = { 10, 20, 30 };
    MPI_Reduce_local(a, b, 3, MPI_INT, MPI_SUM);
    CHECK(b[0] == 11 && b[2] == 33, "Reduce_local");
    free(counts);
    free(in);
}

/* Non-blocking collectives: several outstanding at once, completed in
 * any order by Test and Waitall, results as the blocking ones'; an
 * Ibarrier keeps the barrier property. */
static void nonblocking(void)
{
    MPI_Request r[5];
    int b1[100], b2[100], g[4 * 64], a2a_s[64], a2a_r[64], ag[64];
    double in, out, *all = malloc(2 * sizeof(double) * (size_t)np);

    for (int i = 0; i < 100; i++) {
        b1[i] = me == 0 ? i : -1;
        b2[i] = me == np - 1 ? 7 * i : -1;
    }
    for (int j = 0; j < np; j++)
        a2a_s[j] = me * 100 + j;
    int mine = me * 3 + 1;
    MPI_Ibcast(b1, 100, MPI_INT, 0, MPI_COMM_WORLD, &r[0]);
    MPI_Ibcast(b2, 100, MPI_INT, np - 1, MPI_COMM_WORLD, &r[1]);
    MPI_Iallgather(&mine, 1, MPI_INT, ag, 1, MPI_INT, MPI_COMM_WORLD, &r[2]);
    MPI_Ialltoall(a2a_s, 1, MPI_INT, a2a_r, 1, MPI_INT, MPI_COMM_WORLD, &r[3]);
    int quad[4] = { me, me + 1, me + 2, me + 3 };
    MPI_Igather(quad, 4, MPI_INT, g, 4, MPI_INT, np / 2, MPI_COMM_WORLD, &r[4]);
    int flag = 0;
    long tests = 0;
    while (!flag) {     /* compute while they run, testing as OSU does */
        spin_us(2);
        MPI_Testall(5, r, &flag, MPI_STATUSES_IGNORE);
        tests++;
    }
    int bad = 0;
    for (int i = 0; i < 100; i++)
        bad += b1[i] != i || b2[i] != 7 * i;
    CHECK(!bad, "two Ibcasts at once: %d wrong", bad);
    for (int i = 0; i < np; i++)
        bad += ag[i] != i * 3 + 1 || a2a_r[i] != i * 100 + me;
    CHECK(!bad, "Iallgather / Ialltoall: %d wrong", bad);
    /* in place: each rank's a2a_r is what it sends and what it receives */
    for (int j = 0; j < np; j++)
        a2a_r[j] = me * 100 + j;
    MPI_Ialltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, a2a_r, 1, MPI_INT, MPI_COMM_WORLD, &r[0]);
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    for (int i = 0; i < np; i++)
        bad += a2a_r[i] != i * 100 + me;
    CHECK(!bad, "Ialltoall MPI_IN_PLACE: %d wrong", bad);
    if (me == np / 2)
        for (int i = 0; i < 4 * np; i++)
            bad += g[i] != i / 4 + i % 4;
    CHECK(!bad, "Igather: %d wrong", bad);
    int sc[4] = { -1, -1, -1, -1 };
    MPI_Iscatter(g, 4, MPI_INT, sc, 4, MPI_INT, np / 2, MPI_COMM_WORLD, &r[0]);
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    CHECK(sc[0] == me && sc[3] == me + 3, "Iscatter: %d %d", sc[0], sc[3]);
    /* reductions: several at once, a non-commutative one to the last rank */
    MPI_Op fl;
    MPI_Op_create(firstlast, 0, &fl);
    long v[50], sum[50];
    int p[2] = { me, me }, q[2] = { -1, -1 }, sc1 = -1, ex = -1, one = me + 1;
    for (int i = 0; i < 50; i++)
        v[i] = me * i + 1;
    MPI_Iallreduce(v, sum, 50, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &r[0]);
    MPI_Ireduce(p, q, 1, MPI_2INT, fl, np - 1, MPI_COMM_WORLD, &r[1]);
    MPI_Iscan(&one, &sc1, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[2]);
    MPI_Iexscan(&one, &ex, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[3]);
    MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
    bad = 0;
    for (int i = 0; i < 50; i++)
        bad += sum[i] != (long)i * np * (np - 1) / 2 + np;
    CHECK(!bad, "Iallreduce: %d wrong", bad);
    if (me == np - 1)
        CHECK(q[0] == 0 && q[1] == np - 1, "Ireduce non-commutative: (%d, %d)", q[0], q[1]);
    CHECK(sc1 == (me + 1) * (me + 2) / 2, "Iscan: %d", sc1);
    if (me > 0)
        CHECK(ex == me * (me + 1) / 2, "Iexscan: %d", ex);
    MPI_Op_free(&fl);
    /* Ireduce_scatter_block: rank i gets elements 2i, 2i+1 of the max */
    int blk[2 * 64], ob[2] = { -1, -1 };
    for (int k = 0; k < 2 * np; k++)
        blk[k] = k + me;
    MPI_Ireduce_scatter_block(blk, ob, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &r[0]);
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    CHECK(ob[0] == 2 * me + np - 1 && ob[1] == 2 * me + np, "Ireduce_scatter_block: %d %d",
          ob[0], ob[1]);
    for (int round = 0; round < 2; round++) {
        spin_us(29.0 * ((me * 5 + round) % np));
        in = MPI_Wtime();
        MPI_Ibarrier(MPI_COMM_WORLD, &r[0]);
        MPI_Wait(&r[0], MPI_STATUS_IGNORE);
        out = MPI_Wtime();
        double pair[2] = { in, out };
        MPI_Allgather(pair, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, MPI_COMM_WORLD);
        double last_in = 0, first_out = 1e30;
        for (int i = 0; i < np; i++) {
            if (all[2 * i] > last_in)
                last_in = all[2 * i];
            if (all[2 * i + 1] < first_out)
                first_out = all[2 * i + 1];
        }
        CHECK(first_out >= last_in, "Ibarrier round %d: left at %.3f, last came at %.3f", round,
              first_out * 1e6, last_in * 1e6);
    }
    free(all);
}

/* Many ranks send long messages to one at once (an incast): every rank
 * sends 64 KB to the root, which has a receive posted for each; then
 * MPI_Gather and MPI_Alltoall of 16 KB blocks. Before back-pressure was
 * the network's default, the root's NIC overflowed and stalled on the
 * first part (docs/mpi.md, "Known problems"). */
static void biggather(void)
{
    const int n = 4096;     /* ints: 16 KB per rank */
    int *mine = malloc(sizeof(int) * (size_t)n), bad = 0;
    int *all = malloc(sizeof(int) * (size_t)n * (size_t)np);
    for (int k = 0; k < n; k++)
        mine[k] = me * 100000 + k;
    {
        const int m = 4 * n;    /* 64 KB */
        int *blk = malloc(sizeof(int) * (size_t)m * (size_t)np);
        MPI_Request *rq = malloc(sizeof(MPI_Request) * (size_t)np);
        if (me == 0) {
            memset(blk, 0xff, sizeof(int) * (size_t)m * (size_t)np);
            for (int i = 1; i < np; i++)
                MPI_Irecv(blk + (size_t)i * m, m, MPI_INT, i, 7, MPI_COMM_WORLD, &rq[i - 1]);
            MPI_Waitall(np - 1, rq, MPI_STATUSES_IGNORE);
            for (int i = 1; i < np; i++)
                for (int k = 0; k < m; k++)
                    bad += blk[(size_t)i * m + k] != i * 100000 + k;
            CHECK(!bad, "%d ranks' 64 KB to rank 0 at once: %d wrong", np - 1, bad);
        } else {
            for (int k = 0; k < m; k++)
                blk[k] = me * 100000 + k;
            MPI_Send(blk, m, MPI_INT, 0, 7, MPI_COMM_WORLD);
        }
        free(rq);
        free(blk);
    }
    for (int root = 0; root < np; root += np > 2 ? np / 2 : 1) {
        memset(all, 0xff, sizeof(int) * (size_t)n * (size_t)np);
        MPI_Gather(mine, n, MPI_INT, all, n, MPI_INT, root, MPI_COMM_WORLD);
        if (me == root)
            for (int i = 0; i < n * np; i++)
                bad += all[i] != (i / n) * 100000 + i % n;
        CHECK(!bad, "Gather of 16 KB blocks to root %d: %d wrong", root, bad);
    }
    int *out = malloc(sizeof(int) * (size_t)n * (size_t)np);
    for (int i = 0; i < n * np; i++)
        out[i] = me * 1000000 + i;      /* block j goes to rank j */
    memset(all, 0xff, sizeof(int) * (size_t)n * (size_t)np);
    MPI_Alltoall(out, n, MPI_INT, all, n, MPI_INT, MPI_COMM_WORLD);
    for (int j = 0; j < np; j++)
        for (int k = 0; k < n; k++)
            bad += all[j * n + k] != j * 1000000 + me * n + k;
    CHECK(!bad, "Alltoall of 16 KB blocks: %d wrong", bad);
    free(out);
    free(all);
    free(mine);
}

/* The value element i of root's k-th Ibcast must have. */
static int ib_value(int root, int k, int i) { return root * 1000003 + i * 7 + k * 11; }

static void ibcast(void)
{
    static const int counts[] = { 1, 1000, 70000, 0 };
    enum { NC = sizeof counts / sizeof counts[0] };
    int **v = malloc(sizeof *v * (size_t)np * NC), w[20];
    MPI_Request *r = malloc(sizeof *r * ((size_t)np * NC + 1));
    MPI_Datatype every2;

    for (int pass = 0; pass < 2; pass++) {
        /* pass 0: every root's broadcasts outstanding at once (in the
         * same order on every rank, as MPI requires), and a vector type's;
         * pass 1: one at a time */
        int nr = 0, flag = 0, bad = 0;

        MPI_Type_vector(10, 1, 2, MPI_INT, &every2);
        MPI_Type_commit(&every2);
        for (int i = 0; i < 20; i++)
            w[i] = me == np - 1 ? i : -1;
        for (int root = 0; root < np; root++)
            for (int k = 0; k < NC; k++) {
                int n = counts[k], *b = v[root * NC + k] = malloc(sizeof(int) * (size_t)(n + 1));

                for (int i = 0; i < n; i++)
                    b[i] = me == root ? ib_value(root, k, i) : -1;
                MPI_Ibcast(b, n, MPI_INT, root, MPI_COMM_WORLD, &r[nr++]);
                if (pass == 1) {
                    MPI_Wait(&r[--nr], MPI_STATUS_IGNORE);
                }
            }
        MPI_Ibcast(w, 1, every2, np - 1, MPI_COMM_WORLD, &r[nr++]);
        while (!flag) {         /* compute while they run, testing as OSU does */
            spin_us(3);
            MPI_Testall(nr, r, &flag, MPI_STATUSES_IGNORE);
        }
        for (int root = 0; root < np; root++)
            for (int k = 0; k < NC; k++) {
                for (int i = 0; i < counts[k]; i++)
                    bad += v[root * NC + k][i] != ib_value(root, k, i);
                free(v[root * NC + k]);
            }
        CHECK(!bad, "Ibcast pass %d (%s): %d wrong", pass, pass ? "one at a time" : "all at once",
              bad);
        bad = 0;
        for (int i = 0; i < 20; i++)
            bad += w[i] != (i % 2 == 0 || me == np - 1 ? i : -1);
        CHECK(!bad, "Ibcast of a vector type, pass %d: %d wrong", pass, bad);
        MPI_Type_free(&every2);
    }
    free(r);
    free(v);
}

/* Iallgatherv as the standard defines it: part i (rcounts[i] elements
 * at displs[i]) is rank i's send buffer, on every rank. Parts of
 * unequal length, some empty, one beyond the eager limit (rendezvous
 * among eager parts from the same peer), placed in reverse rank order
 * with gaps that must stay untouched; received as pairs of ints while
 * sent as ints (the own part crosses the two types); then in place. */
static void iallgatherv(void)
{
    MPI_Datatype pair;
    int *rcounts = malloc(sizeof(int) * (size_t)np), *displs = malloc(sizeof(int) * (size_t)np);
    int total = 0, bad = 0;

    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    for (int i = np - 1; i >= 0; i--) {
        rcounts[i] = i == 1 ? 3000 : (i * 7) % 5;       /* pairs; 24 KB from rank 1 */
        displs[i] = total + 1;                          /* a gap of one pair before */
        total += rcounts[i] + 1;
    }
    int *all = malloc(sizeof(int) * 2 * (size_t)total), *mine = malloc(sizeof(int) * 6000);
    for (int k = 0; k < 2 * rcounts[me]; k++)
        mine[k] = me * 100000 + k;
    for (int pass = 0; pass < 2; pass++) {
        for (int k = 0; k < 2 * total; k++)
            all[k] = -7;
        if (pass == 1)          /* in place: my part already where it belongs */
            for (int k = 0; k < 2 * rcounts[me]; k++)
                all[2 * displs[me] + k] = mine[k];
        MPI_Request r;
        MPI_Iallgatherv(pass ? MPI_IN_PLACE : mine, 2 * rcounts[me], MPI_INT, all, rcounts,
                        displs, pair, MPI_COMM_WORLD, &r);
        int flag = 0;
        while (!flag) {
            spin_us(3);
            MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
        }
        bad = 0;
        for (int i = 0; i < np; i++) {
            bad += all[2 * (displs[i] - 1)] != -7 || all[2 * (displs[i] - 1) + 1] != -7;
            for (int k = 0; k < 2 * rcounts[i]; k++)
                bad += all[2 * displs[i] + k] != i * 100000 + k;
        }
        CHECK(!bad, "Iallgatherv%s: %d wrong", pass ? " MPI_IN_PLACE" : "", bad);
    }
    MPI_Type_free(&pair);
    free(all);
    free(mine);
    free(rcounts);
    free(displs);
}

static void isum(void *in, void *inout, int *len, MPI_Datatype *t)
{
    int *a = in, *b = inout;
    (void)t;
    for (int i = 0; i < *len; i++)
        b[i] += a[i];
}

/* Some other rank's computation allocates and frees memory of the sizes
 * the freed objects had, so that an object freed at once is reused. */
static void churn(void)
{
    void *p[64];
    for (int i = 0; i < 64; i++) {
        p[i] = malloc(16 + (size_t)(i % 8) * 16);
        memset(p[i], 0xA5, 16 + (size_t)(i % 8) * 16);
    }
    for (int i = 0; i < 64; i += 2)
        free(p[i]);
    for (int i = 1; i < 64; i += 2)
        free(p[i]);
    for (int i = 0; i < 64; i++) {
        p[i] = malloc(16 + (size_t)(i % 8) * 16);
        memset(p[i], 0x5A, 16 + (size_t)(i % 8) * 16);
    }
    for (int i = 0; i < 64; i++)
        free(p[i]);
}

static void opfree(void)
{
    int in[8], out[8] = { 0 };
    MPI_Op op;
    MPI_Request r;

    for (int i = 0; i < 8; i++)
        in[i] = me + i;
    MPI_Op_create(isum, 1, &op);
    MPI_Ireduce(in, out, 8, MPI_INT, op, 0, MPI_COMM_WORLD, &r);
    MPI_Op_free(&op);
    CHECK(op == MPI_OP_NULL, "MPI_Op_free left the handle");
    churn();
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    for (int i = 0; me == 0 && i < 8; i++)
        CHECK(out[i] == np * i + np * (np - 1) / 2, "recvbuf[%d] expect %d, got %d", i,
              np * i + np * (np - 1) / 2, out[i]);
}

static void typefree(void)
{
    /* every other int of 2 x 16: a type of 16 blocks */
    int src[32], dst[32], in[32], out[32];
    MPI_Datatype v, w;
    MPI_Request r[3];
    int to = (me + 1) % np, from = (me + np - 1) % np;

    for (int i = 0; i < 32; i++) {
        src[i] = me * 1000 + i;
        dst[i] = -1;
        in[i] = me + i;
        out[i] = -1;
    }
    MPI_Type_vector(16, 1, 2, MPI_INT, &v);
    MPI_Type_commit(&v);
    MPI_Type_dup(v, &w);
    MPI_Irecv(dst, 1, v, from, 5, MPI_COMM_WORLD, &r[0]);
    MPI_Isend(src, 1, w, to, 5, MPI_COMM_WORLD, &r[1]);
    MPI_Iallreduce(in, out, 1, v, MPI_SUM, MPI_COMM_WORLD, &r[2]);
    MPI_Type_free(&v);
    MPI_Type_free(&w);
    CHECK(v == MPI_DATATYPE_NULL && w == MPI_DATATYPE_NULL, "MPI_Type_free left the handle");
    churn();
    MPI_Waitall(3, r, MPI_STATUSES_IGNORE);
    for (int i = 0; i < 32; i++) {
        CHECK(dst[i] == (i % 2 ? -1 : from * 1000 + i), "Irecv: dst[%d] = %d", i, dst[i]);
        CHECK(out[i] == (i % 2 ? -1 : np * i + np * (np - 1) / 2), "Iallreduce: out[%d] = %d",
              i, out[i]);
    }
}

static void commfree(void)
{
    MPI_Comm d;
    MPI_Request r[2];
    int in = me + 1, sum = 0, b = me == 0 ? 42 : 0;

    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    MPI_Iallreduce(&in, &sum, 1, MPI_INT, MPI_SUM, d, &r[0]);
    MPI_Ibcast(&b, 1, MPI_INT, 0, d, &r[1]);
    MPI_Comm_free(&d);
    CHECK(d == MPI_COMM_NULL, "MPI_Comm_free left the handle");
    churn();
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    CHECK(sum == np * (np + 1) / 2, "Iallreduce on a freed communicator: %d, want %d", sum,
          np * (np + 1) / 2);
    CHECK(b == 42, "Ibcast on a freed communicator: %d", b);
}

static void reqfree(void)
{
    /* 32 KB: a rendezvous send, whose request the CTS answers later */
    enum { N = 8192 };
    int *out = malloc(N * sizeof(int)), *got = malloc(N * sizeof(int));
    MPI_Request r;
    int to = (me + 1) % np, from = (me + np - 1) % np, bad = 0;

    for (int i = 0; i < N; i++)
        out[i] = me * N + i;
    MPI_Isend(out, N, MPI_INT, to, 6, MPI_COMM_WORLD, &r);
    MPI_Request_free(&r);
    CHECK(r == MPI_REQUEST_NULL, "MPI_Request_free left the handle");
    churn();
    MPI_Recv(got, N, MPI_INT, from, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++)
        bad += got[i] != from * N + i;
    CHECK(!bad, "%d of %d ints wrong", bad, N);
    /* the send buffer stays until every rank has received */
    MPI_Barrier(MPI_COMM_WORLD);
    free(out);
    free(got);
}

/* More communicators made and freed than the fabric has group ids (1,024):
 * each freed one gives its id back (with MPI_NC_COMM=basic each is on a
 * group; MPI_NC_DEBUG=1 says so), and a broadcast on each is right. */
static void commcycle(void)
{
    for (int k = 0; k < 1100; k++) {
        MPI_Comm d;
        int v = me == k % np ? k * 3 + 1 : -1;

        MPI_Comm_dup(MPI_COMM_WORLD, &d);
        MPI_Bcast(&v, 1, MPI_INT, k % np, d);
        MPI_Comm_free(&d);
        CHECK(v == k * 3 + 1, "communicator %d: broadcast gave %d, want %d", k, v, k * 3 + 1);
    }
}

static void subcycle(void)
{
    for (int k = 0; k < 1100; k++) {
        MPI_Comm d;
        int v = me == k % (np - 1) ? k * 3 + 1 : -1;

        MPI_Comm_split(MPI_COMM_WORLD, me == np - 1 ? MPI_UNDEFINED : 0, me, &d);
        if (d == MPI_COMM_NULL)
            continue;
        MPI_Bcast(&v, 1, MPI_INT, k % (np - 1), d);
        MPI_Comm_free(&d);
        CHECK(v == k * 3 + 1, "communicator %d: broadcast gave %d, want %d", k, v, k * 3 + 1);
    }
}

/* How long a communicator's creation takes in virtual time (rank 0 says
 * it: "commtime: dup N us"), and a broadcast right after it is right. */
static void commtime(void)
{
    MPI_Comm d;
    int v = me == 0 ? 77 : -1;
    double t0 = MPI_Wtime();

    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    double t = MPI_Wtime() - t0;
    MPI_Bcast(&v, 1, MPI_INT, 0, d);
    CHECK(v == 77, "broadcast on the new communicator gave %d", v);
    if (me == 0)
        printf("commtime: dup %.0f us\n", t * 1e6);
    MPI_Comm_free(&d);
}

static const struct scenario scenarios[] = {
    { "nonblocking", nonblocking }, { "barrier", barrier }, { "bcast", bcast }, { "bcastrun", bcastrun },
    { "reduce", reduce },
    { "allreduce", allreduce }, { "gather", gather }, { "scan", scan },
    { "biggather", biggather }, { "ibcast", ibcast }, { "iallgatherv", iallgatherv },
    { "opfree", opfree }, { "typefree", typefree }, { "commfree", commfree },
    { "reqfree", reqfree }, { "commcycle", commcycle }, { "subcycle", subcycle },
    { "commtime", commtime }, { NULL, NULL },
};

int main(int argc, char **argv)
{
    return run_scenarios(argc, argv, scenarios);
}
