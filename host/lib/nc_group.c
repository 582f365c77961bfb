/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Multicast trees built on the host (seed 000 sections 5.4, 5.5;
 * docs/multicast.md): nc_group_tree computes the tree of a group from its
 * members and a tree kind, nc_group_create writes the caller's part of it
 * (its parent and its children) into its NIC.
 *
 * Every kind but NC_TREE_LIST_UNORDERED is built on the ID order
 * (ref/tree nc_id_order) unless the caller names an order: the root first,
 * then the other members by increasing network id (node, then port). The
 * ref/tree builders give every position a parent at a smaller position,
 * so a child's id is greater than its parent's unless the parent is the
 * root: no cycle of members each holding its last receive token while
 * waiting for another can form across concurrent multicasts (section
 * 5.4). A user's list is checked against that rule and refused when it
 * breaks it, unless the caller asks for the unordered kind on purpose
 * (the deadlock test). A named order (seed 001's orderings of an
 * irregular network) gives up the rule: such a group's multicasts must not
 * overlap those of other groups on its NICs (docs/multicast.md "Trees").
 */
#include <stdlib.h>

#include "nicoll/nc_abi.h"
#include "nicoll.h"
#include "nc_group.h"
#include "nc_kbin.h"
#include "nc_tree.h"

/* The order of members by network id: node, then port. */
static unsigned key_of(nc_member m) { return (unsigned)m.node << 8 | m.port; }

static int cmp_key(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

    return x < y ? -1 : x > y;
}

/* A list tree: one root (the given one), every member's parent a member,
 * no cycle, and (unless unordered) the ID-ordered rule. */
static int check_list(const nc_member *members, unsigned n, unsigned root, const int *parent,
                      bool ordered, int *out)
{
    for (unsigned i = 0; i < n; i++) {
        int q = parent[i];

        if (i == root ? q != -1 : (q < 0 || (unsigned)q >= n || (unsigned)q == i))
            return NC_EINVAL;
        if (ordered && i != root && (unsigned)q != root &&
            key_of(members[i]) < key_of(members[q]))
            return NC_EINVAL;
        out[i] = q;
    }
    /* every member reaches the root within n steps: no cycle */
    for (unsigned i = 0; i < n; i++) {
        unsigned steps = 0;

        for (int q = (int)i; q != -1; q = parent[q])
            if (++steps > n)
                return NC_EINVAL;
    }
    return NC_OK;
}

/* pkt_size as the shift of nc_abi.h's NC_MC_SET_SHAPE (0: the MTU), or -1. */
static int pkt_shift_of(unsigned pkt_size)
{
    if (pkt_size == 0)
        return 0;
    for (unsigned s = NC_MC_PKT_SHIFT_MIN; s <= NC_MC_PKT_SHIFT_MAX; s++)
        if (pkt_size == 1u << s)
            return (int)s;
    return -1;
}

int nc_group_optimal_k(unsigned n, size_t size, unsigned pkt_size, unsigned *k,
                       unsigned *packets)
{
    int shift = pkt_shift_of(pkt_size);
    size_t pkt = (size_t)1 << (shift > 0 ? shift : (int)NC_MC_PKT_SHIFT_MAX);
    size_t m = size ? (size + pkt - 1) / pkt : 1;
    uint32_t best;

    if (shift < 0 || n < 2 || n > NC_GROUP_MAX_MEMBERS || !k || m > 65536)
        return NC_EINVAL;
    best = nc_kbin_optimal_k(n, (uint32_t)m);
    if (best == 0)
        return NC_EINVAL;
    *k = best;
    if (packets)
        *packets = (unsigned)m;
    return NC_OK;
}

/* order[0 .. n-1] is a permutation of 0 .. n-1 starting with root. */
static bool order_ok(const unsigned *order, unsigned n, unsigned root)
{
    unsigned char *seen = calloc(n, 1);
    bool ok = seen && order[0] == root;

    for (unsigned i = 0; ok && i < n; i++) {
        ok = order[i] < n && !seen[order[i]];
        if (ok)
            seen[order[i]] = 1;
    }
    free(seen);
    return ok;
}

/* The tree, and each member's rank: the order in which its parent sends
 * to it (1 first; ref/tree's ranks, the ID order for flat and list trees). */
static int build(const nc_member *members, unsigned n, unsigned root, const nc_tree_spec *tree,
                 int *parent, unsigned *rank)
{
    uint32_t *keys, steps;
    uint16_t *ids, *order;
    nc_tree_t *t;
    unsigned *deg;
    int rc = NC_EINVAL;

    if (!members || !tree || !parent || n < 2 || n > NC_GROUP_MAX_MEMBERS || root >= n ||
        pkt_shift_of(tree->pkt_size) < 0)
        return NC_EINVAL;
    /* a named order: for the ref/tree kinds only, a permutation, root first */
    if (tree->order && ((tree->kind != NC_TREE_BINOMIAL && tree->kind != NC_TREE_KBINOMIAL &&
                         tree->kind != NC_TREE_POSTAL) || !order_ok(tree->order, n, root)))
        return NC_EINVAL;
    keys = calloc(n, sizeof *keys);
    ids = calloc(n, sizeof *ids);
    order = calloc(n, sizeof *order);
    deg = calloc(n, sizeof *deg);
    t = calloc(1, sizeof *t);
    if (!keys || !ids || !order || !deg || !t) {
        rc = NC_ENOMEM;
        goto out;
    }
    /* distinct members; ref/tree orders 16-bit ids: the member's index in
     * the key order stands for it */
    for (unsigned i = 0; i < n; i++)
        keys[i] = (uint32_t)key_of(members[i]) << 11 | i;     /* n <= 1024 < 2^11 */
    qsort(keys, n, sizeof *keys, cmp_key);
    for (unsigned i = 1; i < n; i++)
        if (keys[i] >> 11 == keys[i - 1] >> 11)
            goto out;
    switch (tree->kind) {
    case NC_TREE_LIST:
    case NC_TREE_LIST_UNORDERED:
        if (!tree->parent)
            goto out;
        rc = check_list(members, n, root, tree->parent, tree->kind == NC_TREE_LIST, parent);
        for (unsigned i = 0; i < n; i++)
            rank[keys[i] & 0x7FF] = i;
        goto degrees;
    case NC_TREE_FLAT:
        for (unsigned i = 0; i < n; i++) {
            parent[i] = i == root ? -1 : (int)root;
            rank[keys[i] & 0x7FF] = i;
        }
        rc = NC_OK;
        goto degrees;
    case NC_TREE_BINOMIAL:
        rc = nc_binomial_tree(t, n, &steps) == NC_TREE_OK ? NC_OK : NC_EINVAL;
        break;
    case NC_TREE_KBINOMIAL: {
        unsigned k = tree->k;

        /* k 0: seed 001's optimal k for the message's packets */
        if (k == 0 && nc_group_optimal_k(n, tree->size, tree->pkt_size, &k, NULL) != NC_OK)
            k = 0;
        rc = k >= 1 && nc_kbin_tree(t, n, k, &steps) == NC_TREE_OK ? NC_OK : NC_EINVAL;
        break;
    }
    case NC_TREE_POSTAL: {
        /* lambda 0: the platform's, for this message size (nc_postal.c) */
        unsigned lambda = tree->lambda;

        if (lambda == 0 && nc_postal_lambda(tree->size, &lambda, NULL, 0) != NC_OK)
            lambda = 0;
        rc = lambda >= 1 && lambda <= NC_MAX_LAMBDA &&
             nc_postal_tree(t, n, lambda, &steps) == NC_TREE_OK ? NC_OK : NC_EINVAL;
        break;
    }
    default:
        rc = NC_EINVAL;
    }
    if (rc != NC_OK)
        goto out;
    /* positions of the named order -> member indices */
    if (tree->order) {
        for (unsigned pos = 0; pos < n; pos++) {
            unsigned m = tree->order[pos];

            parent[m] = pos == 0 ? -1 : (int)tree->order[t->parent[pos]];
            rank[m] = t->rank[pos];
        }
    } else {
        /* positions of the ID order -> member indices */
        unsigned rootpos = 0;

        for (unsigned i = 0; i < n; i++) {
            ids[i] = (uint16_t)i;
            if ((keys[i] & 0x7FF) == root)
                rootpos = i;
        }
        nc_id_order(ids, n, (uint16_t)rootpos, order);
        for (unsigned pos = 0; pos < n; pos++) {
            unsigned m = keys[order[pos]] & 0x7FF;

            parent[m] = pos == 0 ? -1 : (int)(keys[order[t->parent[pos]]] & 0x7FF);
            rank[m] = t->rank[pos];
        }
    }
degrees:
    if (rc != NC_OK)
        goto out;
    for (unsigned i = 0; i < n; i++)
        if (parent[i] >= 0 && ++deg[parent[i]] > NC_GROUP_MAX_CHILDREN)
            rc = NC_EINVAL;     /* more children than a NIC entry holds */
out:
    free(keys);
    free(ids);
    free(order);
    free(deg);
    free(t);
    return rc;
}

int nc_group_tree(const nc_member *members, unsigned n, unsigned root,
                  const nc_tree_spec *tree, int *parent)
{
    unsigned *rank = calloc(n ? n : 1, sizeof *rank);
    int rc = rank ? build(members, n, root, tree, parent, rank) : NC_ENOMEM;

    free(rank);
    return rc;
}

int nc_group_create(nc_port *p, uint32_t group, const nc_member *members, unsigned n,
                    unsigned root, const nc_tree_spec *tree)
{
    nc_member children[NC_GROUP_MAX_CHILDREN];
    unsigned nch = 0, me = n, *rank;
    int *parent, rc;

    if (!p || !group || !members || n < 2 || n > NC_GROUP_MAX_MEMBERS)
        return NC_EINVAL;
    for (unsigned i = 0; i < n; i++) {
        if (members[i].node >= nc_node_count(p) || members[i].port >= NC_PORTS)
            return NC_EINVAL;
        if (members[i].node == nc_node_id(p) && members[i].port == nc_port_id(p))
            me = i;
    }
    if (me == n)
        return NC_EINVAL;   /* not a member */
    parent = calloc(n, sizeof *parent);
    rank = calloc(n, sizeof *rank);
    if (!parent || !rank) {
        rc = NC_ENOMEM;
    } else if ((rc = build(members, n, root, tree, parent, rank)) == NC_OK) {
        /* the children in the order the NIC sends to them: by rank (the
         * first-sent child of a ref/tree tree heads the biggest subtree) */
        for (unsigned r = 0; r <= n && nch < NC_GROUP_MAX_CHILDREN; r++)
            for (unsigned i = 0; i < n; i++)
                if (parent[i] == (int)me && rank[i] == r)
                    children[nch++] = members[i];
        rc = nc_group_write(p, group, me == root ? NULL : &members[parent[me]], children, nch,
                            (unsigned)pkt_shift_of(tree->pkt_size), tree->fpfs != 0);
    }
    free(parent);
    free(rank);
    return rc;
}
