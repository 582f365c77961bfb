/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Environment: Init/Finalize, the clock, the library's name. Rank =
 * node id, size = node count: one rank per node of the emulated cluster.
 * Settings are environment variables read by MPI_Init (docs/mpi.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_table.h"
#include "mpi_impl.h"
#include "nicoll.h"
#include "nicoll/hostif.h"

struct mpi_state mpi_state = { .next_ctx = 4 };

/* MPI_Wtime's own cost: a program that loops on it until some time has
 * passed must see time pass (the host reads a clock: a few tens of ns). */
#define WTIME_COST_NS 25

/* MPI_NC_BCAST_TREE: postal:L, postal:0 (L per message-size class from the
 * profile's postal table), binomial, kbinomial:K or flat. The default
 * postal:4 is docs/mpi.md's measured choice. */
static void parse_tree(const char *s)
{
    nc_tree_spec t = { .kind = NC_TREE_POSTAL, .lambda = 4 };
    char *end;
    unsigned long v = 0;

    if (!s || !*s) {
        mpi_state.bcast_tree = t;
        return;
    }
    if (!strncmp(s, "postal:", 7) || !strncmp(s, "kbinomial:", 10)) {
        const char *num = strchr(s, ':') + 1;
        v = strtoul(num, &end, 10);
        if (!*num || *end || v < (s[0] == 'p' ? 0u : 1u) || v > 64)
            goto bad;
        t.kind = s[0] == 'p' ? NC_TREE_POSTAL : NC_TREE_KBINOMIAL;
        t.lambda = s[0] == 'p' ? (unsigned)v : 0;
        t.k = s[0] == 'k' ? (unsigned)v : 0;
        if (t.kind == NC_TREE_POSTAL && !v) {
            /* per message size: the profile's table must be there (a run
             * on real boards names it with NICOLL_PROFILE) */
            char why[256];
            unsigned l;

            if (nc_postal_lambda(0, &l, why, sizeof why) != NC_OK) {
                nc_host_printf("libmpi: MPI_NC_BCAST_TREE=postal:0: %s\n", why);
                nc_host_exit(2);
            }
        }
    } else if (!strcmp(s, "binomial")) {
        t.kind = NC_TREE_BINOMIAL;
    } else if (!strcmp(s, "flat")) {
        t.kind = NC_TREE_FLAT;
    } else {
        goto bad;
    }
    mpi_state.bcast_tree = t;
    return;
bad:
    nc_host_printf("libmpi: MPI_NC_BCAST_TREE='%s' is not postal:L (L in 0..64, 0: per "
                   "message size from the postal table), binomial, kbinomial:K (K in 1..64) "
                   "or flat\n", s);
    nc_host_exit(2);
}

/* MPI_NC_POOL: Pool's groups per owner (comm_swmc_pool.c). **Decision**:
 * 2 by default, so that a process can make two communicators in a row
 * before its first refill is tested; at most 64, and within the entity's
 * ids (SWMC_POOL_IDS for all the slices together). */
static void parse_pool(void)
{
    const char *s = getenv("MPI_NC_POOL");
    char *end;
    unsigned long v = 2;

    if (s && (!*s || (v = strtoul(s, &end, 10), *end) || v > 64 || s[0] == '-')) {
        nc_host_printf("libmpi: MPI_NC_POOL='%s' is not a number of groups per process in "
                       "0..64\n", s);
        nc_host_exit(2);
    }
    mpi_state.pool_size = (unsigned)v;
}

/* MPI_NC_COMM: how communicators get switch multicast (comm_swmc.c).
 * Every mode but p2p needs the fabric's management entity, on the last
 * node (MPI_NC_SM_NODE, which lanai-mpirun --comm sets): that node runs
 * no rank, so its process ends here. */
static void parse_comm_mode(void)
{
    const char *s = getenv("MPI_NC_COMM"), *sm = getenv("MPI_NC_SM_NODE");
    unsigned nodes = nc_host_nodes();
    char *end;

    if (!s || !strcmp(s, "p2p")) {
        mpi_state.comm_mode = COMM_P2P;
        return;
    }
    if (!strcmp(s, "basic")) {
        mpi_state.comm_mode = COMM_BASIC;
    } else if (!strcmp(s, "lazy")) {
        mpi_state.comm_mode = COMM_LAZY;
    } else if (!strcmp(s, "pool")) {
        mpi_state.comm_mode = COMM_POOL;
        parse_pool();
    } else {
        nc_host_printf("libmpi: MPI_NC_COMM='%s' is not 'p2p', 'basic', 'lazy' or 'pool'\n", s);
        nc_host_exit(2);
    }
    unsigned long v = sm && *sm ? strtoul(sm, &end, 10) : 0;
    if (!sm || !*sm || *end || v != nodes - 1 || nodes < 2) {
        nc_host_printf("libmpi: MPI_NC_COMM=%s needs MPI_NC_SM_NODE, the management entity's "
                       "node, the last of the %u (it is '%s'; lanai-mpirun --comm sets it)\n", s,
                       nodes, sm ? sm : "unset");
        nc_host_exit(2);
    }
    mpi_state.sm_node = (unsigned)v;
    if (nc_host_node() == mpi_state.sm_node)
        nc_host_exit(0);        /* the entity's node: no rank */
    mpi_state.world_size = (int)nodes - 1;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    const char *s;
    int rc;

    (void)argc;
    (void)argv;
    if (mpi_state.initialized)
        return mpi_error(NULL, MPI_ERR_OTHER, "MPI_Init", "called twice");
    mpi_state.world_rank = (int)nc_host_node();
    mpi_state.world_size = (int)nc_host_nodes();
    /* No threads in a host program: SINGLE and FUNNELED hold trivially,
     * SERIALIZED and MULTIPLE are not offered. */
    mpi_state.thread_level = required > MPI_THREAD_FUNNELED ? MPI_THREAD_FUNNELED : required;
    if (provided)
        *provided = mpi_state.thread_level;
    s = getenv("MPI_NC_BARRIER");
    if (!s || !strcmp(s, "host"))
        mpi_state.barrier_nic = 0;
    else if (!strcmp(s, "nic"))
        mpi_state.barrier_nic = 1;
    else {
        nc_host_printf("libmpi: MPI_NC_BARRIER='%s' is not 'host' or 'nic'\n", s);
        nc_host_exit(2);
    }
    s = getenv("MPI_NC_BCAST");
    if (!s || !strcmp(s, "host"))
        mpi_state.bcast_nic = 0;
    else if (!strcmp(s, "nic"))
        mpi_state.bcast_nic = 1;
    else {
        nc_host_printf("libmpi: MPI_NC_BCAST='%s' is not 'host' or 'nic'\n", s);
        nc_host_exit(2);
    }
    parse_tree(getenv("MPI_NC_BCAST_TREE"));
    s = getenv("MPI_NC_REDUCE");
    mpi_state.reduce_bypass = mpi_state.reduce_nic = 0;
    if (!s || !strcmp(s, "host"))
        ;
    else if (!strcmp(s, "bypass"))
        mpi_state.reduce_bypass = 1;
    else if (!strcmp(s, "nic"))
        mpi_state.reduce_nic = 1;
    else {
        nc_host_printf("libmpi: MPI_NC_REDUCE='%s' is not 'host', 'bypass' or 'nic'\n", s);
        nc_host_exit(2);
    }
    /* MPI_NC_REDUCE_FP: exact is the NIC's exact accumulation
     * (coll_reduce_nic.c), so it asks for the NIC's reduction: refused
     * without it rather than ignored, so that a measurement never reports
     * ordered numbers as the exact mode's */
    s = getenv("MPI_NC_REDUCE_FP");
    mpi_state.reduce_exact = s && !strcmp(s, "exact");
    if (s && strcmp(s, "ordered") && strcmp(s, "exact")) {
        nc_host_printf("libmpi: MPI_NC_REDUCE_FP='%s' is not 'ordered' or 'exact'\n", s);
        nc_host_exit(2);
    }
    if (mpi_state.reduce_exact && !mpi_state.reduce_nic) {
        nc_host_printf("libmpi: MPI_NC_REDUCE_FP='exact' is the NIC's exact sum: it needs "
                       "MPI_NC_REDUCE=nic\n");
        nc_host_exit(2);
    }
    mpi_state.debug = getenv("MPI_NC_DEBUG") && strcmp(getenv("MPI_NC_DEBUG"), "0");
    parse_comm_mode();
    mpi_comm_init_predefined(mpi_state.world_rank, mpi_state.world_size);
    if ((rc = mpi_net_init()))
        return mpi_error(NULL, MPI_ERR_OTHER, "MPI_Init", "cannot open the NIC's port 0: %s",
                         nc_strerror(rc));
    if (mpi_state.reduce_bypass && mpi_state.world_size > 1 && (rc = coll_reduce_bypass_init()))
        return mpi_error(NULL, MPI_ERR_OTHER, "MPI_Init", "cannot open the NIC's port 1 for "
                         "MPI_NC_REDUCE=bypass: %s", nc_strerror(rc));
    mpi_state.initialized = true;
    mpi_state.t0_ns = nc_host_now_ns();
    mpi_compute_init();
    /* MPI_Wtime's origin before it: the same moment on every rank as
     * without a group */
    mpi_swmc_setup(MPI_COMM_WORLD);
    return MPI_SUCCESS;
}

int MPI_Init(int *argc, char ***argv)
{
    return MPI_Init_thread(argc, argv, MPI_THREAD_SINGLE, NULL);
}

int MPI_Query_thread(int *provided)
{
    *provided = mpi_state.thread_level;
    return MPI_SUCCESS;
}

int MPI_Is_thread_main(int *flag)
{
    *flag = 1;
    return MPI_SUCCESS;
}

int MPI_Initialized(int *flag)
{
    *flag = mpi_state.initialized;
    return MPI_SUCCESS;
}

int MPI_Finalized(int *flag)
{
    *flag = mpi_state.finalized;
    return MPI_SUCCESS;
}

int MPI_Finalize(void)
{
    int rc;

    MPI_CHECK_INIT("MPI_Finalize");
    /* MPI_COMM_SELF's attributes are deleted first (MPI 3.1 8.7.1) */
    mpi_attr_delete_comm(MPI_COMM_SELF);
    /* Every rank's packets must have reached their peers before any port
     * closes: our multicasts acknowledged by every member (a member drops
     * its group entries when its port closes), our bypass reductions
     * done and their results acknowledged (their port closes then: every
     * child's contribution is in), a barrier, then our own sends
     * acknowledged. */
    mpi_net_mcast_drain();
    mpi_nicvm_drain();
    /* a bypass reduction that failed (a member dead: docs/reduction.md,
     * "A dead member") is this call's error; the barrier would wait for
     * the dead member for ever */
    if ((rc = coll_reduce_bypass_finalize()))
        return rc;
    coll_reduce_nic_report();
    MPI_Barrier(MPI_COMM_WORLD);
    mpi_swmc_finalize();
    mpi_net_finalize();
    mpi_state.finalized = true;
    mpi_stdio_flush();
    return MPI_SUCCESS;
}

int MPI_Abort(MPI_Comm comm, int errorcode)
{
    (void)comm;
    mpi_stdio_flush();
    nc_host_printf("libmpi: rank %d called MPI_Abort(%d): the run ends\n",
                   mpi_state.world_rank, errorcode);
    /* the real exit(): it ends the whole cluster, naming this node */
    extern void mpi_real_exit(int) __attribute__((noreturn));
    mpi_real_exit(errorcode & 0xff ? errorcode & 0xff : 1);
}

double MPI_Wtime(void)
{
    mpi_compute_charge();
    nc_host_compute_ns(WTIME_COST_NS);
    double t = (double)(nc_host_now_ns() - mpi_state.t0_ns) * 1e-9;
    mpi_compute_mark();
    return t;
}

double MPI_Wtick(void)
{
    return 1e-9;
}

int MPI_Get_processor_name(char *name, int *resultlen)
{
    *resultlen = snprintf(name, MPI_MAX_PROCESSOR_NAME, "myrinet-node%u", nc_host_node());
    return MPI_SUCCESS;
}

int MPI_Get_version(int *version, int *subversion)
{
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}

int MPI_Get_library_version(char *version, int *resultlen)
{
    *resultlen = snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING,
                          "nicoll libmpi (MPI %d.%d subset over libnicoll; docs/mpi.md)",
                          MPI_VERSION, MPI_SUBVERSION);
    return MPI_SUCCESS;
}
