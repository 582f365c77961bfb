/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Process topologies (MPI 3.1 chapter 7): Cartesian and graph
 * communicators and MPI_Dims_create. Every rank is a node of its own and
 * the network is one crossbar or a fat tree, so no placement is better
 * than another: reorder is ignored, rank i of the old communicator is
 * rank i of the new one (the ranks beyond the topology's size get
 * MPI_COMM_NULL). The topology is kept with the communicator (dup copies
 * it); distributed graphs and neighbourhood collectives do not exist.
 */
#include <stdlib.h>
#include <string.h>

#include "mpi_impl.h"

struct mpi_topo {
    int kind;                   /* MPI_CART or MPI_GRAPH */
    int ndims, *dims, *periods; /* Cartesian */
    int nnodes, nedges, *index, *edges;     /* graph */
};

static int *copy_ints(const int *v, int n)
{
    int *c = malloc(sizeof(int) * (size_t)(n ? n : 1));

    if (n)
        memcpy(c, v, sizeof(int) * (size_t)n);
    return c;
}

void mpi_topo_copy(MPI_Comm old, MPI_Comm c)
{
    struct mpi_topo *t = old->topo, *n;

    if (!t)
        return;
    n = malloc(sizeof *n);
    *n = *t;
    n->dims = copy_ints(t->dims, t->ndims);
    n->periods = copy_ints(t->periods, t->ndims);
    n->index = copy_ints(t->index, t->nnodes);
    n->edges = copy_ints(t->edges, t->nedges);
    c->topo = n;
}

void mpi_topo_free(MPI_Comm c)
{
    struct mpi_topo *t = c->topo;

    if (!t)
        return;
    free(t->dims);
    free(t->periods);
    free(t->index);
    free(t->edges);
    free(t);
    c->topo = NULL;
}

/* The first n ranks of comm, in order; MPI_COMM_NULL for the others. */
static int first_ranks(MPI_Comm comm, int n, MPI_Comm *out)
{
    return MPI_Comm_split(comm, comm->rank < n ? 0 : MPI_UNDEFINED, comm->rank, out);
}

int MPI_Topo_test(MPI_Comm comm, int *status)
{
    if (!comm)
        return mpi_error(NULL, MPI_ERR_COMM, "MPI_Topo_test", "MPI_COMM_NULL");
    *status = comm->topo ? comm->topo->kind : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

/* ---- Cartesian ----------------------------------------------------------------- */
static int cart_size(int ndims, const int dims[], const char *fn, int *size)
{
    long n = 1;

    if (ndims < 0)
        return mpi_error(NULL, MPI_ERR_DIMS, fn, "ndims %d < 0", ndims);
    for (int i = 0; i < ndims; i++) {
        if (dims[i] <= 0)
            return mpi_error(NULL, MPI_ERR_DIMS, fn, "dims[%d] = %d, not > 0", i, dims[i]);
        n *= dims[i];
        if (n > 1 << 30)
            return mpi_error(NULL, MPI_ERR_DIMS, fn, "the grid has more than 2^30 points");
    }
    *size = (int)n;
    return MPI_SUCCESS;
}

static struct mpi_topo *cart_of(MPI_Comm comm, const char *fn, int *rc)
{
    *rc = MPI_SUCCESS;
    if (!comm) {
        *rc = mpi_error(NULL, MPI_ERR_COMM, fn, "MPI_COMM_NULL");
        return NULL;
    }
    if (!comm->topo || comm->topo->kind != MPI_CART) {
        *rc = mpi_error(comm, MPI_ERR_TOPOLOGY, fn, "not a Cartesian communicator");
        return NULL;
    }
    return comm->topo;
}

static void cart_attach(MPI_Comm c, int ndims, const int dims[], const int periods[])
{
    struct mpi_topo *t = calloc(1, sizeof *t);

    t->kind = MPI_CART;
    t->ndims = ndims;
    t->dims = copy_ints(dims, ndims);
    t->periods = malloc(sizeof(int) * (size_t)(ndims ? ndims : 1));
    for (int i = 0; i < ndims; i++)
        t->periods[i] = periods[i] != 0;
    c->topo = t;
}

int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[], int reorder,
                    MPI_Comm *comm_cart)
{
    int size, rc;

    (void)reorder;
    MPI_CHECK_INIT("MPI_Cart_create");
    if (!comm)
        return mpi_error(NULL, MPI_ERR_COMM, "MPI_Cart_create", "MPI_COMM_NULL");
    if ((rc = cart_size(ndims, dims, "MPI_Cart_create", &size)))
        return rc;
    if (size > comm->size)
        return mpi_error(comm, MPI_ERR_DIMS, "MPI_Cart_create",
                         "a grid of %d points on a communicator of %d ranks", size, comm->size);
    if ((rc = first_ranks(comm, size, comm_cart)))
        return rc;
    if (*comm_cart)
        cart_attach(*comm_cart, ndims, dims, periods);
    return MPI_SUCCESS;
}

int MPI_Cartdim_get(MPI_Comm comm, int *ndims)
{
    int rc;
    struct mpi_topo *t = cart_of(comm, "MPI_Cartdim_get", &rc);

    if (t)
        *ndims = t->ndims;
    return rc;
}

int MPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank)
{
    int rc, r = 0;
    struct mpi_topo *t = cart_of(comm, "MPI_Cart_rank", &rc);

    if (!t)
        return rc;
    for (int i = 0; i < t->ndims; i++) {      /* row-major: the last dimension fastest */
        int c = coords[i];
        if (t->periods[i])
            c = ((c % t->dims[i]) + t->dims[i]) % t->dims[i];
        else if (c < 0 || c >= t->dims[i])
            return mpi_error(comm, MPI_ERR_ARG, "MPI_Cart_rank",
                             "coordinate %d = %d outside a non-periodic dimension of %d", i,
                             coords[i], t->dims[i]);
        r = r * t->dims[i] + c;
    }
    *rank = r;
    return MPI_SUCCESS;
}

int MPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[])
{
    int rc;
    struct mpi_topo *t = cart_of(comm, "MPI_Cart_coords", &rc);

    if (!t)
        return rc;
    if (rank < 0 || rank >= comm->size || maxdims < t->ndims)
        return mpi_error(comm, MPI_ERR_ARG, "MPI_Cart_coords", "rank %d, maxdims %d (ndims %d)",
                         rank, maxdims, t->ndims);
    for (int i = t->ndims - 1; i >= 0; i--) {
        coords[i] = rank % t->dims[i];
        rank /= t->dims[i];
    }
    return MPI_SUCCESS;
}

int MPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[])
{
    int rc;
    struct mpi_topo *t = cart_of(comm, "MPI_Cart_get", &rc);

    if (!t)
        return rc;
    for (int i = 0; i < t->ndims && i < maxdims; i++) {
        dims[i] = t->dims[i];
        periods[i] = t->periods[i];
    }
    return MPI_Cart_coords(comm, comm->rank, maxdims, coords);
}

int MPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest)
{
    int rc, c[64];
    struct mpi_topo *t = cart_of(comm, "MPI_Cart_shift", &rc);

    if (!t)
        return rc;
    if (direction < 0 || direction >= t->ndims || t->ndims > 64)
        return mpi_error(comm, MPI_ERR_DIMS, "MPI_Cart_shift", "direction %d of %d dimensions",
                         direction, t->ndims);
    MPI_Cart_coords(comm, comm->rank, 64, c);
    int me = c[direction], n = t->dims[direction];
    for (int s = -1; s <= 1; s += 2) {
        int k = me + s * disp, *out = s < 0 ? rank_source : rank_dest;
        if (t->periods[direction])
            k = ((k % n) + n) % n;
        if (k < 0 || k >= n) {
            *out = MPI_PROC_NULL;
            continue;
        }
        c[direction] = k;
        MPI_Cart_rank(comm, c, out);
        c[direction] = me;
    }
    return MPI_SUCCESS;
}

int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
    int rc, c[64], color = 0, key = 0, nd = 0, dims[64], periods[64];
    struct mpi_topo *t = cart_of(comm, "MPI_Cart_sub", &rc);

    if (!t)
        return rc;
    if (t->ndims > 64)
        return mpi_error(comm, MPI_ERR_DIMS, "MPI_Cart_sub", "%d dimensions", t->ndims);
    MPI_Cart_coords(comm, comm->rank, 64, c);
    for (int i = 0; i < t->ndims; i++) {
        if (remain_dims[i]) {
            key = key * t->dims[i] + c[i];
            dims[nd] = t->dims[i];
            periods[nd++] = t->periods[i];
        } else {
            color = color * t->dims[i] + c[i];
        }
    }
    /* no dimension kept: a zero-dimensional grid, which (as MPI_Cart_create
     * with ndims 0) has one point, the first rank; the others get
     * MPI_COMM_NULL (7.5.7; MPICH's topo/cartsuball checks it) */
    rc = nd ? MPI_Comm_split(comm, color, key, newcomm) : first_ranks(comm, 1, newcomm);
    if (rc)
        return rc;
    if (*newcomm)
        cart_attach(*newcomm, nd, dims, periods);
    return MPI_SUCCESS;
}

int MPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank)
{
    int size, rc;

    (void)periods;
    if (!comm)
        return mpi_error(NULL, MPI_ERR_COMM, "MPI_Cart_map", "MPI_COMM_NULL");
    if ((rc = cart_size(ndims, dims, "MPI_Cart_map", &size)))
        return rc;
    *newrank = comm->rank < size ? comm->rank : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

/* The most balanced grid (7.5.2): of the non-increasing factorisations
 * of what the fixed entries leave over the free ones (0), the one with the
 * smallest spread (largest - smallest); on a tie the one whose entries,
 * compared from the smallest up, are larger (MPICH's choice, which its
 * topo/dims5 holds to). A depth-first search over the divisors of the
 * count, largest entry first: an entry is at least the k-th root of what
 * is left for k entries and at most the one before it, and a branch whose
 * spread is already worse than the best found stops. */
struct split { const int *div; int ndiv, k, *cur, *best; bool found; };

static bool better(const struct split *sp)
{
    int k = sp->k;
    long a = (long)sp->cur[0] - sp->cur[k - 1], b = (long)sp->best[0] - sp->best[k - 1];

    if (!sp->found || a != b)
        return !sp->found || a < b;
    for (int i = k - 1; i >= 0; i--)
        if (sp->cur[i] != sp->best[i])
            return sp->cur[i] > sp->best[i];
    return false;
}

static int iroot_ceil(int n, int k)      /* the least r with r^k >= n */
{
    int r = 1;

    for (;;) {
        long p = 1;
        for (int i = 0; i < k && p < n; i++)
            p *= r;
        if (p >= n)
            return r;
        r++;
    }
}

static void best_split(struct split *sp, int left, int depth, int maxv)
{
    int k = sp->k - depth;

    if (k == 1) {
        if (left > maxv)
            return;
        sp->cur[depth] = left;
        if (better(sp)) {
            sp->found = true;
            memcpy(sp->best, sp->cur, sizeof(int) * (size_t)sp->k);
        }
        return;
    }
    int lo = iroot_ceil(left, k);
    for (int i = sp->ndiv - 1; i >= 0; i--) {
        int d = sp->div[i];
        if (d > maxv || d > left || left % d)
            continue;
        if (d < lo)
            break;
        /* the last entry is at most d: the spread is at least first - d */
        long first = depth ? sp->cur[0] : d;
        if (sp->found && first - d > (long)sp->best[0] - sp->best[sp->k - 1])
            break;
        sp->cur[depth] = d;
        best_split(sp, left / d, depth + 1, d);
    }
}

int MPI_Dims_create(int nnodes, int ndims, int dims[])
{
    int left = nnodes, nfree = 0;

    if (nnodes < 1 || ndims < 0)
        return mpi_error(NULL, MPI_ERR_DIMS, "MPI_Dims_create", "nnodes %d, ndims %d", nnodes,
                         ndims);
    for (int i = 0; i < ndims; i++) {
        if (dims[i] < 0)
            return mpi_error(NULL, MPI_ERR_DIMS, "MPI_Dims_create", "dims[%d] = %d < 0", i,
                             dims[i]);
        if (dims[i] == 0)
            nfree++;
        else if (left % dims[i])
            return mpi_error(NULL, MPI_ERR_DIMS, "MPI_Dims_create",
                             "%d nodes cannot be divided by the fixed dims[%d] = %d", nnodes, i,
                             dims[i]);
        else
            left /= dims[i];
    }
    if (!nfree) {
        if (left != 1)
            return mpi_error(NULL, MPI_ERR_DIMS, "MPI_Dims_create",
                             "the fixed dims do not multiply to %d", nnodes);
        return MPI_SUCCESS;
    }
    int *div = malloc(sizeof(int) * 2048), ndiv = 0;
    for (long d = 1; d * d <= left && ndiv < 2046; d++)    /* the divisors, ascending */
        if (left % d == 0)
            div[ndiv++] = (int)d;
    for (int i = ndiv - 1; i >= 0; i--)
        if ((long)div[i] * div[i] != left)
            div[ndiv++] = left / div[i];
    struct split sp = { div, ndiv, nfree, malloc(sizeof(int) * (size_t)nfree),
                        malloc(sizeof(int) * (size_t)nfree), false };
    best_split(&sp, left, 0, left);
    for (int i = 0, k = 0; i < ndims; i++)
        if (dims[i] == 0)
            dims[i] = sp.best[k++];
    free(sp.cur);
    free(sp.best);
    free(div);
    return MPI_SUCCESS;
}

/* ---- graphs ---------------------------------------------------------------------- */
static struct mpi_topo *graph_of(MPI_Comm comm, const char *fn, int *rc)
{
    *rc = MPI_SUCCESS;
    if (!comm) {
        *rc = mpi_error(NULL, MPI_ERR_COMM, fn, "MPI_COMM_NULL");
        return NULL;
    }
    if (!comm->topo || comm->topo->kind != MPI_GRAPH) {
        *rc = mpi_error(comm, MPI_ERR_TOPOLOGY, fn, "not a graph communicator");
        return NULL;
    }
    return comm->topo;
}

int MPI_Graph_create(MPI_Comm comm, int nnodes, const int index[], const int edges[],
                     int reorder, MPI_Comm *comm_graph)
{
    int rc;

    (void)reorder;
    MPI_CHECK_INIT("MPI_Graph_create");
    if (!comm)
        return mpi_error(NULL, MPI_ERR_COMM, "MPI_Graph_create", "MPI_COMM_NULL");
    if (nnodes < 0 || nnodes > comm->size)
        return mpi_error(comm, MPI_ERR_ARG, "MPI_Graph_create",
                         "%d nodes on a communicator of %d ranks", nnodes, comm->size);
    int nedges = nnodes ? index[nnodes - 1] : 0;
    for (int i = 0; i < nedges; i++)
        if (edges[i] < 0 || edges[i] >= nnodes)
            return mpi_error(comm, MPI_ERR_ARG, "MPI_Graph_create",
                             "edge %d goes to %d, not a node of 0..%d", i, edges[i], nnodes - 1);
    if ((rc = first_ranks(comm, nnodes, comm_graph)))
        return rc;
    if (*comm_graph) {
        struct mpi_topo *t = calloc(1, sizeof *t);
        t->kind = MPI_GRAPH;
        t->nnodes = nnodes;
        t->nedges = nedges;
        t->index = copy_ints(index, nnodes);
        t->edges = copy_ints(edges, nedges);
        (*comm_graph)->topo = t;
    }
    return MPI_SUCCESS;
}

int MPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges)
{
    int rc;
    struct mpi_topo *t = graph_of(comm, "MPI_Graphdims_get", &rc);

    if (t) {
        *nnodes = t->nnodes;
        *nedges = t->nedges;
    }
    return rc;
}

int MPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[])
{
    int rc;
    struct mpi_topo *t = graph_of(comm, "MPI_Graph_get", &rc);

    if (!t)
        return rc;
    for (int i = 0; i < t->nnodes && i < maxindex; i++)
        index[i] = t->index[i];
    for (int i = 0; i < t->nedges && i < maxedges; i++)
        edges[i] = t->edges[i];
    return MPI_SUCCESS;
}

int MPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors)
{
    int rc;
    struct mpi_topo *t = graph_of(comm, "MPI_Graph_neighbors_count", &rc);

    if (!t)
        return rc;
    if (rank < 0 || rank >= t->nnodes)
        return mpi_error(comm, MPI_ERR_RANK, "MPI_Graph_neighbors_count", "rank %d", rank);
    *nneighbors = t->index[rank] - (rank ? t->index[rank - 1] : 0);
    return MPI_SUCCESS;
}

int MPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[])
{
    int rc, n;

    if ((rc = MPI_Graph_neighbors_count(comm, rank, &n)))
        return rc;
    int first = rank ? comm->topo->index[rank - 1] : 0;
    for (int i = 0; i < n && i < maxneighbors; i++)
        neighbors[i] = comm->topo->edges[first + i];
    return MPI_SUCCESS;
}

int MPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[], int *newrank)
{
    (void)index; (void)edges;
    if (!comm)
        return mpi_error(NULL, MPI_ERR_COMM, "MPI_Graph_map", "MPI_COMM_NULL");
    *newrank = comm->rank < nnodes ? comm->rank : MPI_UNDEFINED;
    return MPI_SUCCESS;
}
