/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Datatypes, errors, the environment and the launcher's behaviours:
 *   types      extents and sizes as MPI 3.1 section 4.1 defines them;
 *              derived types on both sides of a message (vector to
 *              contiguous and back, struct with holes, indexed, resized);
 *              Pack/Unpack round trip
 *   errors     MPI_ERRORS_RETURN per communicator: a bad rank, tag, count,
 *              an MPI_Mrecv of MPI_MESSAGE_NULL come back as their
 *              classes; Error_string; an out-of-scope
 *              call returns MPI_ERR_UNSUPPORTED_OPERATION
 *   env        each rank has its own globals; Wtime is monotonic and a
 *              busy loop on it ends; Initialized/Finalized, versions,
 *              processor name, thread level
 *   abort      rank np-1 calls MPI_Abort(MPI_COMM_WORLD, 7) (suite: status 7, rank named)
 *   exit       every rank finalizes, rank 1 calls exit(3) (suite: the run ends
 *              cleanly, status 3, every other rank's output there)
 *   fatal      rank 0 sends to rank np under MPI_ERRORS_ARE_FATAL (suite:
 *              non-zero status, the error and the rank named)
 */
#include <stddef.h>

#include "mpitest.h"

static int my_global = 1000;    /* each rank must have its own */

static void types(void)
{
    MPI_Aint lb, ext;
    int size;
    MPI_Datatype vec, str, idx, rsz, dup, cont;

    /* a vector of 3 blocks of 2 doubles, stride 4: extent (2*4+2) doubles */
    MPI_Type_vector(3, 2, 4, MPI_DOUBLE, &vec);
    MPI_Type_commit(&vec);
    MPI_Type_size(vec, &size);
    MPI_Type_get_extent(vec, &lb, &ext);
    CHECK(size == 48 && lb == 0 && ext == 80, "vector: size %d lb %ld extent %ld", size, (long)lb,
          (long)ext);
    /* struct { char c; double d; int i; } as C lays it out */
    struct s { char c; double d; int i; };
    int bl[3] = { 1, 1, 1 };
    MPI_Aint dis[3] = { offsetof(struct s, c), offsetof(struct s, d), offsetof(struct s, i) };
    MPI_Datatype tys[3] = { MPI_CHAR, MPI_DOUBLE, MPI_INT };
    MPI_Type_create_struct(3, bl, dis, tys, &str);
    MPI_Type_create_resized(str, 0, sizeof(struct s), &rsz);
    MPI_Type_commit(&rsz);
    MPI_Type_size(rsz, &size);
    MPI_Type_get_extent(rsz, &lb, &ext);
    CHECK(size == 13 && ext == (MPI_Aint)sizeof(struct s), "struct: size %d extent %ld", size,
          (long)ext);
    MPI_Type_get_true_extent(rsz, &lb, &ext);
    CHECK(lb == 0 && ext == (MPI_Aint)(offsetof(struct s, i) + sizeof(int)),
          "struct true extent %ld", (long)ext);
    int ib[2] = { 2, 1 }, id[2] = { 5, 0 };
    MPI_Type_indexed(2, ib, id, MPI_INT, &idx);
    MPI_Type_commit(&idx);
    MPI_Type_get_extent(idx, &lb, &ext);
    CHECK(lb == 0 && ext == 7 * (MPI_Aint)sizeof(int), "indexed extent %ld", (long)ext);
    MPI_Type_dup(vec, &dup);
    MPI_Type_contiguous(4, MPI_SHORT, &cont);
    MPI_Type_commit(&cont);
    MPI_Type_size(cont, &size);
    CHECK(size == 8, "contiguous size %d", size);

    int right = (me + 1) % np, left = (me + np - 1) % np;
    /* vector out, contiguous in, and back */
    double m[12], c[6], back[12];
    for (int i = 0; i < 12; i++)
        m[i] = me * 100 + i;
    MPI_Sendrecv(m, 1, vec, right, 1, c, 6, MPI_DOUBLE, left, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    static const int pick[6] = { 0, 1, 4, 5, 8, 9 };
    int bad = 0;
    for (int k = 0; k < 6; k++)
        bad += c[k] != left * 100 + pick[k];
    CHECK(!bad, "vector to contiguous: %d wrong", bad);
    for (int i = 0; i < 12; i++)
        back[i] = -1;
    MPI_Sendrecv(c, 6, MPI_DOUBLE, left, 2, back, 1, dup, right, 2, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    for (int i = 0; i < 12; i++)
        bad += back[i] != (i % 4 < 2 ? me * 100 + i : -1);
    CHECK(!bad, "contiguous to vector (a dup): %d wrong", bad);
    /* two structs through the resized type, as bytes in between */
    struct s out[2] = { { 'a', 1.5, me }, { 'b', -2.5, -me } }, in[2];
    memset(in, 0, sizeof in);
    MPI_Sendrecv(out, 2, rsz, right, 3, in, 2, rsz, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(in[0].c == 'a' && in[0].d == 1.5 && in[0].i == left && in[1].c == 'b' &&
          in[1].d == -2.5 && in[1].i == -left, "struct array through a resized type");
    int count;
    MPI_Status st;
    MPI_Sendrecv(out, 2, rsz, right, 4, in, 2, rsz, left, 4, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, rsz, &count);
    CHECK(count == 2, "Get_count of the struct type: %d", count);
    MPI_Get_count(&st, MPI_BYTE, &count);
    CHECK(count == 26, "the same message in bytes: %d", count);
    /* indexed: ints 5, 6 and 0 of the sender */
    int iv[8], ir[3];
    for (int i = 0; i < 8; i++)
        iv[i] = me * 10 + i;
    MPI_Sendrecv(iv, 1, idx, right, 5, ir, 3, MPI_INT, left, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(ir[0] == left * 10 + 5 && ir[1] == left * 10 + 6 && ir[2] == left * 10,
          "indexed: %d %d %d", ir[0], ir[1], ir[2]);
    /* Pack / Unpack */
    char pk[256];
    int pos = 0, psize;
    MPI_Pack_size(1, vec, MPI_COMM_WORLD, &psize);
    CHECK(psize >= 48, "Pack_size %d", psize);
    MPI_Pack(m, 1, vec, pk, sizeof pk, &pos, MPI_COMM_WORLD);
    MPI_Pack(&me, 1, MPI_INT, pk, sizeof pk, &pos, MPI_COMM_WORLD);
    double um[12] = { 0 };
    int ume = -1, upos = 0;
    MPI_Unpack(pk, pos, &upos, um, 1, vec, MPI_COMM_WORLD);
    MPI_Unpack(pk, pos, &upos, &ume, 1, MPI_INT, MPI_COMM_WORLD);
    CHECK(um[5] == m[5] && um[8] == m[8] && um[2] == 0 && ume == me && upos == pos,
          "Pack/Unpack round trip");
    MPI_Type_free(&vec);
    MPI_Type_free(&str);
    MPI_Type_free(&rsz);
    MPI_Type_free(&idx);
    MPI_Type_free(&dup);
    MPI_Type_free(&cont);
    CHECK(vec == MPI_DATATYPE_NULL, "Type_free did not null the handle");
}

static void errors(void)
{
    int rc, cls, len, x = 0;
    char msg[MPI_MAX_ERROR_STRING];
    MPI_Errhandler eh;

    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh);
    CHECK(eh == MPI_ERRORS_ARE_FATAL, "the default handler is not MPI_ERRORS_ARE_FATAL");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    rc = MPI_Send(&x, 1, MPI_INT, np, 0, MPI_COMM_WORLD);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_RANK, "send to rank %d: class %d", np, cls);
    rc = MPI_Send(&x, 1, MPI_INT, 0, -5, MPI_COMM_WORLD);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_TAG, "tag -5: class %d", cls);
    rc = MPI_Send(&x, -1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_COUNT, "count -1: class %d", cls);
    rc = MPI_Bcast(&x, 1, MPI_INT, np + 3, MPI_COMM_WORLD);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_ROOT, "root %d: class %d", np + 3, cls);
    MPI_Error_string(MPI_ERR_TRUNCATE, msg, &len);
    CHECK(len > 0 && (int)strlen(msg) == len, "Error_string");
    MPI_Message m = MPI_MESSAGE_NULL;
    rc = MPI_Mrecv(&x, 1, MPI_INT, &m, MPI_STATUS_IGNORE);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_ARG, "Mrecv of MPI_MESSAGE_NULL: class %d", cls);
    int flag;
    rc = MPI_Improbe(np, 0, MPI_COMM_WORLD, &flag, &m, MPI_STATUS_IGNORE);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_RANK, "Improbe of rank %d: class %d", np, cls);
    rc = MPI_Win_create(NULL, 0, 1, MPI_INFO_NULL, MPI_COMM_WORLD, NULL);
    CHECK(rc == MPI_ERR_UNSUPPORTED_OPERATION, "MPI_Win_create returned %d", rc);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    /* the handler is per communicator: a dup inherits, then differs */
    MPI_Comm d;
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    MPI_Comm_set_errhandler(d, MPI_ERRORS_RETURN);
    rc = MPI_Send(&x, 1, MPI_INT, np, 0, d);
    CHECK(rc == MPI_ERR_RANK, "a bad rank on the dup: %d", rc);
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh);
    CHECK(eh == MPI_ERRORS_ARE_FATAL, "setting the dup's handler changed the world's");
    MPI_Comm_free(&d);
}

static void env(void)
{
    int flag, v, sv, len, prov;
    char name[MPI_MAX_PROCESSOR_NAME];

    my_global += me;
    int all[64] = { 0 };
    MPI_Gather(&my_global, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (me == 0)
        for (int i = 0; i < np; i++)
            CHECK(all[i] == 1000 + i, "rank %d's global is %d", i, all[i]);
    MPI_Initialized(&flag);
    CHECK(flag, "Initialized");
    MPI_Finalized(&flag);
    CHECK(!flag, "Finalized before Finalize");
    MPI_Get_version(&v, &sv);
    CHECK(v == 3 && sv == 1, "version %d.%d", v, sv);
    MPI_Get_processor_name(name, &len);
    CHECK(len > 0, "processor name");
    MPI_Query_thread(&prov);
    CHECK(prov == MPI_THREAD_SINGLE, "thread level %d", prov);
    double t0 = MPI_Wtime(), t1 = t0;
    long spins = 0;
    while (t1 - t0 < 50e-6) {   /* must end */
        t1 = MPI_Wtime();
        spins++;
    }
    CHECK(t1 >= t0 && spins > 1, "Wtime");
    CHECK(MPI_Wtick() > 0 && MPI_Wtick() <= 1e-6, "Wtick %g", MPI_Wtick());
}

static void abort_(void)
{
    if (me == np - 1) {
        printf("rank %d calls MPI_Abort\n", me);
        MPI_Abort(MPI_COMM_WORLD, 7);
    }
    /* the others wait for a message that never comes */
    int x;
    MPI_Recv(&x, 1, MPI_INT, np - 1, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void exit_(void)
{
    printf("rank %d before Finalize\n", me);
    MPI_Finalize();
    if (me == 1 % np)
        exit(3);
    printf("rank %d after Finalize\n", me);
    exit(0);
}

static void fatal(void)
{
    int x = 0;
    if (me == 0)
        MPI_Send(&x, 1, MPI_INT, np, 0, MPI_COMM_WORLD);
    MPI_Recv(&x, 1, MPI_INT, 0, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* A fixed amount of work (about 10^7 additions). */
static double work(long n)
{
    volatile double x = 0;
    for (long i = 0; i < n; i++)
        x += (double)i * 0.5;
    return x;
}

static void compute(void)
{
    /* with MPI_NC_COMPUTE=measured the work shows in MPI_Wtime; with
     * off it does not (the suite checks the printed time in both) */
    double t0 = MPI_Wtime();
    work(10000000);
    double dt = MPI_Wtime() - t0;
    printf("compute rank %d elapsed_us=%.3f\n", me, dt * 1e6);
    /* an OSU-style calibration: more work until 200 us have passed; it
     * must end in both modes (each Wtime costs time) */
    long n = 0;
    t0 = MPI_Wtime();
    while (MPI_Wtime() - t0 < 200e-6) {
        work(1000);
        n++;
    }
    CHECK(n > 0, "calibration loop");
}

/* Each process of a cluster has its own C library: after the same seed
 * every rank draws the same numbers and strtok keeps each rank's place,
 * however the ranks' calls interleave (a barrier between draws makes
 * them interleave). */
static void libc(void)
{
    int mine[6], *all = malloc(sizeof mine * (size_t)np);
    char text[64], *t;

    srand(7);
    srand48(11);
    snprintf(text, sizeof text, "r%d a b c", me);
    t = strtok(text, " ");
    CHECK(t && t[0] == 'r' && atoi(t + 1) == me, "strtok's first token '%s'", t ? t : "(null)");
    for (int i = 0; i < 3; i++) {
        MPI_Barrier(MPI_COMM_WORLD);
        mine[2 * i] = rand();
        mine[2 * i + 1] = (int)lrand48();
        t = strtok(NULL, " ");
        CHECK(t && t[0] == 'a' + i && !t[1], "strtok's token %d is '%s', want '%c'", i + 1,
              t ? t : "(null)", 'a' + i);
    }
    CHECK(!strtok(NULL, " "), "strtok went past the end of this rank's string");
    MPI_Allgather(mine, 6, MPI_INT, all, 6, MPI_INT, MPI_COMM_WORLD);
    for (int r = 0; r < np; r++)
        CHECK(!memcmp(all + 6 * r, mine, sizeof mine),
              "rank %d drew %d %d %d after srand(7), this rank %d %d %d", r, all[6 * r],
              all[6 * r + 2], all[6 * r + 4], mine[0], mine[2], mine[4]);
    CHECK(mine[0] != mine[2] && mine[2] != mine[4], "rand() repeats: %d %d %d", mine[0],
          mine[2], mine[4]);
    free(all);
}

static const struct scenario scenarios[] = {
    { "libc", libc }, { "compute", compute }, { "types", types }, { "errors", errors }, { "env", env }, { "abort", abort_ },
    { "exit", exit_ }, { "fatal", fatal }, { NULL, NULL },
};

int main(int argc, char **argv)
{
    return run_scenarios(argc, argv, scenarios);
}
