/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libmpi's NICVM calls (host/mpi/mpi_nicvm.c; docs/mpi.md "NICVM modules"),
 * an MPI program run by tests/nicvm/mpi/suite on 4 to 8 ranks:
 *   bcast   seed 004 Figure 4.3's module (tests/nicvm/modules/bcast.nvm) on
 *           every NIC; rank 0 delegates messages of 0 to 4,016 bytes with
 *           different tags, every other rank receives each with MPI_Recv:
 *           the bytes, the source, the tag and the count are the root's
 *   split   the same on the odd ranks' communicator (its rank 0 is world
 *           rank 1): the envelope names the communicator's ranks
 *   echo    the no-op module passes a message sent to rank 1's NIC to its
 *           host; seed 004's NIC echo (tests/nicvm/fwmod/echo.nvm) sends it
 *           back to rank 0 from rank 1's NIC, and rank 1's host sees nothing
 *   rearm   on 2 ranks: barrier, then rank 0 sends to rank 1's NIC echo and
 *           receives the echo, 20 times; the acknowledgement of the echo's
 *           send gives the kept buffer back (and re-arms the receive
 *           engine) while the MCP still handles a packet: each barrier
 *           packet and each echo must reach its host as sent
 *   purge   eight modules fill every NIC; a ninth is refused on every rank;
 *           after one purge the ninth fits
 *   errors  a compile error, a module over the NIC's budget, a name too
 *           long, a module not added, a message over one packet, a module
 *           refused at one rank only: each an MPI error on every rank
 *           concerned, and the communicator usable after
 */
#include "../../mpi/mpitest.h"

static char *load(const char *path)
{
    FILE *f = fopen(path, "r");
    static char buf[8][16384];
    static int next;
    char *b = buf[next++ % 8];
    size_t n;

    if (!f) {
        printf("FAIL rank %d: cannot read %s\n", me, path);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    n = fread(b, 1, sizeof buf[0] - 1, f);
    fclose(f);
    b[n] = 0;
    return b;
}

#define BCAST "tests/nicvm/modules/bcast.nvm"

/* Delegate from rank 0 of comm, receive everywhere else: sizes and tags. */
static void bcast_on(MPI_Comm comm, const char *name)
{
    static const int sizes[] = { 0, 1, 64, 1000, MPI_NC_MODULE_MSG_MAX };
    int r, n;
    unsigned char *b = malloc(MPI_NC_MODULE_MSG_MAX);

    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &n);
    CHECK(MPI_NC_Module_add(comm, name, load(BCAST)) == MPI_SUCCESS, "add %s", name);
    for (int k = 0; k < 5; k++) {
        int size = sizes[k], tag = 10 + k;
        if (r == 0) {
            for (int i = 0; i < size; i++)
                b[i] = pat(n, k, (size_t)i);
            CHECK(MPI_NC_Delegate(b, size, MPI_BYTE, tag, name, comm) == MPI_SUCCESS,
                  "delegate %d bytes", size);
        } else {
            MPI_Status st;
            int count = -1, bad = 0;

            memset(b, 0xEE, MPI_NC_MODULE_MSG_MAX);
            MPI_Recv(b, MPI_NC_MODULE_MSG_MAX, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &st);
            MPI_Get_count(&st, MPI_BYTE, &count);
            for (int i = 0; i < size; i++)
                bad += b[i] != pat(n, k, (size_t)i);
            CHECK(st.MPI_SOURCE == 0 && st.MPI_TAG == tag && count == size && bad == 0,
                  "message %d: source %d tag %d count %d (want 0, %d, %d), %d bytes wrong",
                  k, st.MPI_SOURCE, st.MPI_TAG, count, tag, size, bad);
        }
    }
    /* a typed message: 100 ints, received as ints */
    int ints[100];
    for (int i = 0; i < 100; i++)
        ints[i] = r == 0 ? i * 7919 : -1;
    if (r == 0) {
        CHECK(MPI_NC_Delegate(ints, 100, MPI_INT, 3, name, comm) == MPI_SUCCESS, "delegate ints");
    } else {
        MPI_Status st;
        int bad = 0;

        /* any source: a wrong envelope fails here rather than waiting */
        MPI_Recv(ints, 100, MPI_INT, MPI_ANY_SOURCE, 3, comm, &st);
        for (int i = 0; i < 100; i++)
            bad += ints[i] != i * 7919;
        CHECK(bad == 0 && st.MPI_SOURCE == 0, "%d ints wrong, source %d", bad, st.MPI_SOURCE);
    }
    MPI_Barrier(comm);
    CHECK(MPI_NC_Module_purge(comm, name) == MPI_SUCCESS, "purge %s", name);
    free(b);
}

static void bcast(void)
{
    bcast_on(MPI_COMM_WORLD, "bcast");
}

static void split(void)
{
    MPI_Comm odd;

    MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &odd);
    if (me % 2)
        bcast_on(odd, "bodd");
    MPI_Comm_free(&odd);
}

static void echo(void)
{
    int v[4] = { 1, 2, 3, 4 }, got[4] = { 0 }, flag = 1;
    MPI_Status st;

    CHECK(MPI_NC_Module_add(MPI_COMM_WORLD, "noop", load("tests/nicvm/modules/noop.nvm")) == 0, "add noop");
    CHECK(MPI_NC_Module_add(MPI_COMM_WORLD, "echo", load("tests/nicvm/fwmod/echo.nvm")) == 0, "add echo");
    if (me == 0) {
        CHECK(MPI_NC_Send_module(v, 4, MPI_INT, 1, 5, "noop", MPI_COMM_WORLD) == 0, "send noop");
        CHECK(MPI_NC_Send_module(v, 4, MPI_INT, 1, 6, "echo", MPI_COMM_WORLD) == 0, "send echo");
        MPI_Recv(got, 4, MPI_INT, 0, 6, MPI_COMM_WORLD, &st);
        CHECK(!memcmp(got, v, sizeof v) && st.MPI_SOURCE == 0, "the NIC echo's bytes or source");
    } else if (me == 1) {
        MPI_Recv(got, 4, MPI_INT, 0, 5, MPI_COMM_WORLD, &st);
        CHECK(!memcmp(got, v, sizeof v), "the no-op module's message");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    CHECK(!flag, "a message left over (the NIC echo reached a host it should not)");
    CHECK(MPI_NC_Module_purge(MPI_COMM_WORLD, "noop") == 0, "purge noop");
    CHECK(MPI_NC_Module_purge(MPI_COMM_WORLD, "echo") == 0, "purge echo");
}

static void rearm(void)
{
    int v[4], got[4];
    MPI_Status st;

    CHECK(MPI_NC_Module_add(MPI_COMM_WORLD, "echo", load("tests/nicvm/fwmod/echo.nvm")) == 0, "add echo");
    for (int i = 0; i < 20; i++) {
        MPI_Barrier(MPI_COMM_WORLD);
        if (me == 0) {
            for (int j = 0; j < 4; j++)
                v[j] = 100 * i + j;
            memset(got, 0, sizeof got);
            CHECK(MPI_NC_Send_module(v, 4, MPI_INT, 1, 7, "echo", MPI_COMM_WORLD) == 0, "send echo");
            MPI_Recv(got, 4, MPI_INT, 0, 7, MPI_COMM_WORLD, &st);
            CHECK(!memcmp(got, v, sizeof v), "the echo's bytes in round %d", i);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(MPI_NC_Module_purge(MPI_COMM_WORLD, "echo") == 0, "purge echo");
}

static void purge(void)
{
    const char *noop = load("tests/nicvm/modules/noop.nvm");
    char name[8][4];

    for (int i = 0; i < 8; i++) {
        snprintf(name[i], sizeof name[i], "m%d", i);
        CHECK(MPI_NC_Module_add(MPI_COMM_WORLD, name[i], noop) == 0, "add %s", name[i]);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK(MPI_NC_Module_add(MPI_COMM_WORLD, "m8", noop) == MPI_ERR_NO_MEM, "a ninth module fitted");
    CHECK(MPI_NC_Module_purge(MPI_COMM_WORLD, "m3") == 0, "purge m3");
    CHECK(MPI_NC_Module_add(MPI_COMM_WORLD, "m8", noop) == 0, "m8 after the purge");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    for (int i = 0; i < 8; i++)
        if (i != 3)
            CHECK(MPI_NC_Module_purge(MPI_COMM_WORLD, name[i]) == 0, "purge %s", name[i]);
    CHECK(MPI_NC_Module_purge(MPI_COMM_WORLD, "m8") == 0, "purge m8");
}

static void errors(void)
{
    const char *noop = load("tests/nicvm/modules/noop.nvm");
    char big[MPI_NC_MODULE_MSG_MAX + 1];
    int cls;

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Error_class(MPI_NC_Module_add(MPI_COMM_WORLD, "bad", "func main()\n  x = 1;\nend func;\n"), &cls);
    CHECK(cls == MPI_ERR_ARG, "a compile error gave class %d", cls);
    MPI_Error_class(MPI_NC_Module_add(MPI_COMM_WORLD, "budget", load("tests/nicvm/bad/verify-budget.nvm")), &cls);
    CHECK(cls == MPI_ERR_ARG, "a module over the budget gave class %d", cls);
    CHECK(MPI_NC_Module_add(MPI_COMM_WORLD, "ninebytes", noop) == MPI_ERR_ARG, "a 9-byte name");
    CHECK(MPI_NC_Delegate(big, 1, MPI_BYTE, 0, "nosuch", MPI_COMM_WORLD) == MPI_ERR_ARG, "no such module");
    /* refused at the last rank only: refused everywhere, kept nowhere */
    cls = MPI_NC_Module_add(MPI_COMM_WORLD, "half", me == np - 1 ? "func main()\n  x = 1;\nend func;\n" : noop);
    CHECK(cls != MPI_SUCCESS, "a module refused at rank %d was accepted here", np - 1);
    CHECK(MPI_NC_Delegate(big, 1, MPI_BYTE, 0, "half", MPI_COMM_WORLD) == MPI_ERR_ARG,
          "the module refused elsewhere was kept");
    CHECK(MPI_NC_Module_add(MPI_COMM_WORLD, "noop", noop) == 0, "add noop");
    CHECK(MPI_NC_Delegate(big, MPI_NC_MODULE_MSG_MAX + 1, MPI_BYTE, 0, "noop", MPI_COMM_WORLD) == MPI_ERR_COUNT,
          "a message over one packet");
    CHECK(MPI_NC_Send_module(big, 1, MPI_BYTE, np, 0, "noop", MPI_COMM_WORLD) == MPI_ERR_RANK, "rank np");
    CHECK(MPI_NC_Module_purge(MPI_COMM_WORLD, "nosuch") == MPI_ERR_ARG, "purge of no module");
    CHECK(MPI_NC_Module_purge(MPI_COMM_WORLD, "noop") == 0, "purge noop");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    static const struct scenario s[] = {
        { "bcast", bcast }, { "split", split }, { "echo", echo }, { "rearm", rearm },
        { "purge", purge },
        { "errors", errors }, { NULL, NULL },
    };
    return run_scenarios(argc, argv, s);
}
