/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * R2 (seed 000 section 7.1, Figure 5): GM-level broadcast among all nodes
 * (port 0 each, root node 0), NIC multicast against the host-based binomial
 * tree. Latency as the paper measures it: the root starts a broadcast and
 * waits for a reply from one leaf of the tree; the test is repeated with
 * each leaf replying, and the broadcast latency is the largest of those
 * averages ("root-to-leaf-ack", the maximum over leaves).
 *
 *   r2_bcast PATH WARM COUNT SIZE...
 *     PATH   host-binomial  nc_hbcast: MPICH's binomial tree; every inner
 *                           node's host receives the whole message and
 *                           sends it on to its children
 *            nic-TREE       nc_mcast on a group from nc_group_create with
 *                           the tree TREE: postal:L (lambda L, 1..64; 0:
 *                           the profile's postal table for the first
 *                           SIZE, named postal:L by the lambda it gives),
 *                           binomial, kbinomial:K (K >= 1) or flat (the
 *                           root's NIC sends to every other node); inner
 *                           members' NICs forward
 *     WARM   untimed iterations before a size's first leaf (the paper: 20);
 *            2 before each further leaf (the nodes are in step by then)
 *     COUNT  timed iterations per (size, leaf)
 *     SIZE   message sizes in bytes
 *
 * One iteration at the root: start the broadcast, wait for the leaf's
 * reply (an empty message), and have its own sends done (acknowledged)
 * before the next one, on both paths. A leaf replies as soon as its host
 * has the message. Node 0 prints, per size and leaf,
 *   r2 path=P tree=T nodes=N size=S leaf=L count=C avg_us=X half1_us=Y half2_us=Z
 * and per size the leaf with the largest average:
 *   r2max path=P tree=T nodes=N size=S leaf=L count=C avg_us=X half1_us=Y half2_us=Z
 * P is PATH without the tree's parameter (nic-postal, nic-kbinomial), T the
 * whole tree (postal:7; "binomial" on the host path), so one CSV column
 * names the series and another its parameter. The leaves timed are those
 * of the tree the NIC has (nc_group_tree: members without children).
 *
 * Large clusters (host/bench/r2scale): timing every leaf of a 256-node
 * tree costs hours, and the maximum comes from the few leaves the
 * broadcast reaches last. Two settings find and time only those:
 *   R2_PROBE=1   per size, after the warm-up, one broadcast nobody answers:
 *                the root prints "r2probe ... size=S start_ns=T" and every
 *                leaf "r2probe ... size=S leaf=L recv_ns=T" when its host
 *                has the message (the hosts' virtual clocks are one time
 *                base); nothing is timed
 *   R2_LEAVES=S:L,L,...;S:L,...   time only these leaves for size S (every
 *                size given needs its list; each L a leaf of the tree)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicoll/hostif.h"
#include "nicoll.h"

#define GROUP 0x52320001u           /* "R2", 1 */
#define RECV_BUFS 16u
#define MAX_SIZES 32
#define EVENT_NS 100000000ull       /* 100 ms: a lost message fails the run, never hangs it */

static nc_member members[NC_BARRIER_MAX_MEMBERS];
static unsigned me, nn;

enum path { HOST_BINOMIAL, NIC_TREE };
static nc_tree_spec tree;            /* NIC_TREE: the tree of the group */
static int parent[NC_BARRIER_MAX_MEMBERS];

static int fail(const char *what, int rc)
{
    nc_host_printf("FAIL r2 node %u: %s: %s\n", me, what, nc_strerror(rc));
    return 1;
}

/* "postal:L", "binomial", "kbinomial:K", "flat" into tree; 0 or -1 */
static int parse_tree(const char *arg)
{
    char *end;
    unsigned long v;

    if (!strcmp(arg, "binomial") || !strcmp(arg, "flat")) {
        tree.kind = arg[0] == 'b' ? NC_TREE_BINOMIAL : NC_TREE_FLAT;
        return 0;
    }
    if (!strncmp(arg, "postal:", 7) || !strncmp(arg, "kbinomial:", 10)) {
        const char *num = strchr(arg, ':') + 1;

        v = strtoul(num, &end, 10);
        if (*num == '\0' || *end || (v < 1 && arg[0] != 'p') || (arg[0] == 'p' && v > 64) ||
            v > 1024)
            return -1;
        tree.kind = arg[0] == 'p' ? NC_TREE_POSTAL : NC_TREE_KBINOMIAL;
        tree.lambda = arg[0] == 'p' ? (unsigned)v : 0;
        tree.k = arg[0] == 'p' ? 0 : (unsigned)v;
        return 0;
    }
    return -1;
}

/* The leaves of the path's tree (nodes without children), ascending. On
 * the NIC path the tree is nc_group_tree's, the one nc_group_create
 * writes into the NICs (members[i] is node i, the root index 0). */
static int tree_leaves(enum path path, unsigned *leaf, unsigned *nl)
{
    int haschild[NC_BARRIER_MAX_MEMBERS] = { 0 };
    int rc;

    *nl = 0;
    if (path == NIC_TREE) {
        if ((rc = nc_group_tree(members, nn, 0, &tree, parent)))
            return rc;
        for (unsigned i = 1; i < nn; i++)
            haschild[parent[i]] = 1;
    }
    for (unsigned i = 1; i < nn; i++) {
        unsigned child[NC_HBCAST_MAX_CHILDREN];
        int hp;

        if (path == NIC_TREE ? !haschild[i] : nc_hbcast_tree(nn, 0, i, &hp, child) == 0)
            leaf[(*nl)++] = i;
    }
    return NC_OK;
}

/* Node 0: one broadcast of len bytes, until leaf's reply is in and our
 * own sends are done. */
static int root_once(nc_hmc *h, enum path path, const void *buf, size_t len, unsigned leaf)
{
    nc_event ev;
    int rc;

    if (path == HOST_BINOMIAL)
        rc = nc_hbcast(h, members, nn, 0, 0, buf, len, NULL);
    else
        rc = nc_hmc_mcast(h, GROUP, buf, len);
    if (rc || (rc = nc_hmc_recv(h, members[leaf], &ev)) || (rc = nc_hmc_release(h, ev.buf)))
        return rc;
    return nc_hmc_flush(h);
}

/* Any other node: take the broadcast of len bytes into *ev (forwarding it
 * on the host path). */
static int member_take(nc_hmc *h, enum path path, size_t len, nc_event *ev)
{
    int rc;

    if (path == HOST_BINOMIAL)
        rc = nc_hbcast(h, members, nn, 0, me, NULL, 0, ev);
    else
        rc = nc_hmc_recv(h, members[0], ev);
    if (rc)
        return rc;
    if (ev->len != len) {
        nc_host_printf("FAIL r2 node %u: got %zu bytes, want %zu\n", me, ev->len, len);
        return NC_EINVAL;
    }
    return NC_OK;
}

/* Any other node: take the broadcast, reply if it is the leaf being
 * measured, give the buffer back. */
static int member_once(nc_hmc *h, enum path path, size_t len, unsigned leaf, const void *ack)
{
    nc_event ev;
    int rc;

    if ((rc = member_take(h, path, len, &ev)))
        return rc;
    if (me == leaf && (rc = nc_hmc_send(h, members[0], ack, 0)))
        return rc;
    return nc_hmc_release(h, ev.buf);
}

/* R2_PROBE: one broadcast of len bytes nobody answers; the root stamps its
 * start, every leaf the moment its host has the message. */
static int probe_once(nc_hmc *h, enum path path, const char *pname, const char *tname,
                      const void *buf, size_t len, const unsigned *leaf, unsigned nl)
{
    nc_event ev;
    uint64_t t;
    int rc;

    if (me == 0) {
        t = nc_host_now_ns();
        rc = path == HOST_BINOMIAL ? nc_hbcast(h, members, nn, 0, 0, buf, len, NULL)
                                   : nc_hmc_mcast(h, GROUP, buf, len);
        if (rc || (rc = nc_hmc_flush(h)))
            return rc;
        nc_host_printf("r2probe path=%s tree=%s nodes=%u size=%zu start_ns=%llu\n", pname, tname,
                       nn, len, (unsigned long long)t);
        return NC_OK;
    }
    if ((rc = member_take(h, path, len, &ev)))
        return rc;
    t = nc_host_now_ns();
    for (unsigned l = 0; l < nl; l++)
        if (leaf[l] == me)
            nc_host_printf("r2probe path=%s tree=%s nodes=%u size=%zu leaf=%u recv_ns=%llu\n",
                           pname, tname, nn, len, me, (unsigned long long)t);
    return nc_hmc_release(h, ev.buf);
}

/* R2_LEAVES: the leaves listed for size in spec ("S:L,L,...;S:L,..."),
 * each one of the tree's (all[0 .. nall-1]), into leaf; 0, or -1 with a
 * message. */
static int listed_leaves(const char *spec, size_t size, const unsigned *all, unsigned nall,
                         unsigned *leaf, unsigned *nl)
{
    for (const char *p = spec; *p; p += strcspn(p, ";"), p += *p == ';') {
        char *end;
        unsigned long s = strtoul(p, &end, 10);

        if (end == p || *end != ':') {
            nc_host_printf("FAIL r2: R2_LEAVES: '%.*s' is not SIZE:LEAF,LEAF,...\n",
                           (int)strcspn(p, ";"), p);
            return -1;
        }
        if (s != size)
            continue;
        *nl = 0;
        for (p = end; *p == ':' || *p == ','; p = end) {
            unsigned long l = strtoul(p + 1, &end, 10);
            unsigned i = 0;

            while (i < nall && all[i] != l)
                i++;
            if (end == p + 1 || i == nall || *nl == nall) {
                nc_host_printf("FAIL r2: R2_LEAVES: size %zu: '%.*s' is not a leaf of the tree\n",
                               size, (int)strcspn(p + 1, ",;"), p + 1);
                return -1;
            }
            leaf[(*nl)++] = (unsigned)l;
        }
        if (*p && *p != ';') {
            nc_host_printf("FAIL r2: R2_LEAVES: size %zu: junk '%s'\n", size, p);
            return -1;
        }
        return 0;
    }
    nc_host_printf("FAIL r2: R2_LEAVES: no list for size %zu\n", size);
    return -1;
}

int main(int argc, char **argv)
{
    unsigned nsizes = 0, leaf[NC_BARRIER_MAX_MEMBERS], nl, all[NC_BARRIER_MAX_MEMBERS], nall;
    const char *listed = getenv("R2_LEAVES"), *pv = getenv("R2_PROBE");
    size_t size[MAX_SIZES], maxlen = 0;
    enum path path;
    nc_port *p;
    nc_hmc h;
    int rc;

    me = nc_host_node();
    nn = nc_host_nodes();
    if (argc < 5 || (strcmp(argv[1], "host-binomial") && strncmp(argv[1], "nic-", 4))) {
        nc_host_printf("FAIL usage: r2_bcast host-binomial|nic-TREE WARM COUNT SIZE... "
                       "(TREE postal:L|binomial|kbinomial:K|flat)\n");
        return 2;
    }
    path = strcmp(argv[1], "host-binomial") ? NIC_TREE : HOST_BINOMIAL;
    const char *tname = path == NIC_TREE ? argv[1] + 4 : "binomial";
    if (path == NIC_TREE && parse_tree(tname)) {
        nc_host_printf("FAIL r2: PATH '%s': the tree must be postal:L (L 1..64; 0: the profile's), binomial, "
                       "kbinomial:K (K >= 1) or flat\n", argv[1]);
        return 2;
    }
    /* the series' name: PATH without the tree's parameter */
    char pname[32];
    snprintf(pname, sizeof pname, "%.*s", (int)strcspn(argv[1], ":"), argv[1]);
    unsigned warm = (unsigned)atoi(argv[2]), count = (unsigned)atoi(argv[3]);
    for (int i = 4; i < argc && nsizes < MAX_SIZES; i++) {
        char *end;
        unsigned long s = strtoul(argv[i], &end, 10);

        if (*end || s > 65536) {
            nc_host_printf("FAIL r2: SIZE '%s' is not a byte count of 0..65536\n", argv[i]);
            return 2;
        }
        size[nsizes++] = s;
        if (s > maxlen)
            maxlen = s;
    }
    if (count < 2 || nn < 2 || nn > NC_BARRIER_MAX_MEMBERS ||
        (path == NIC_TREE && tree.kind == NC_TREE_FLAT && nn - 1 > NC_GROUP_MAX_CHILDREN)) {
        nc_host_printf("FAIL r2: COUNT must be at least 2 (got %u), nodes 2..%u (got %u)\n", count,
                       path == NIC_TREE && tree.kind == NC_TREE_FLAT ? NC_GROUP_MAX_CHILDREN + 1
                                                                     : NC_BARRIER_MAX_MEMBERS, nn);
        return 2;
    }
    /* postal:0: lambda from the profile's postal table, for the first
     * size's class (nc_postal_lambda); the series is named by it */
    char tbuf[32];
    if (path == NIC_TREE && tree.kind == NC_TREE_POSTAL && tree.lambda == 0) {
        char why[512];
        unsigned l;

        tree.size = nsizes ? size[0] : 0;
        if (nc_postal_lambda(tree.size, &l, why, sizeof why)) {
            nc_host_printf("FAIL r2: postal:0: %s\n", why);
            return 2;
        }
        snprintf(tbuf, sizeof tbuf, "postal:%u", l);
        tname = tbuf;
    }
    for (unsigned i = 0; i < nn; i++)
        members[i] = (nc_member){ (uint16_t)i, 0 };
    if ((rc = tree_leaves(path, all, &nall)))
        return fail("nc_group_tree", rc);
    if (pv && strcmp(pv, "0") && strcmp(pv, "1")) {
        nc_host_printf("FAIL r2: R2_PROBE='%s' is not 0 or 1\n", pv);
        return 2;
    }
    bool probing = pv && !strcmp(pv, "1");
    if (listed && !*listed)
        listed = NULL;          /* set but empty: every leaf */
    for (unsigned s = 0; listed && s < nsizes; s++)
        if (listed_leaves(listed, size[s], all, nall, leaf, &nl))
            return 2;
    if ((rc = nc_open(&p, 0)))
        return fail("nc_open", rc);
    if ((rc = nc_hmc_init(&h, p, RECV_BUFS, maxlen)))
        return fail("nc_hmc_init", rc);
    h.timeout_ns = EVENT_NS;
    if (path == NIC_TREE && (rc = nc_group_create(p, GROUP, members, nn, 0, &tree)))
        return fail("nc_group_create", rc);

    /* the root's message, and an address for the replies (empty) */
    uint8_t *buf = nc_alloc(p, maxlen ? maxlen : 1);
    if (!buf)
        return fail("nc_alloc", NC_ENOMEM);
    if ((rc = nc_register(p, buf, maxlen ? maxlen : 1)))
        return fail("nc_register", rc);
    memset(buf, 0x5A, maxlen);

    for (unsigned s = 0; s < nsizes; s++) {
        double best = -1, bh1 = 0, bh2 = 0;
        unsigned bleaf = 0;

        if (listed) {
            listed_leaves(listed, size[s], all, nall, leaf, &nl);     /* checked above */
        } else {
            memcpy(leaf, all, sizeof all);
            nl = nall;
        }
        if (probing) {
            for (unsigned i = 0; i < warm; i++)
                if ((rc = me == 0 ? root_once(&h, path, buf, size[s], leaf[0])
                                  : member_once(&h, path, size[s], leaf[0], buf)))
                    return fail("warm-up", rc);
            if ((rc = probe_once(&h, path, pname, tname, buf, size[s], all, nall)))
                return fail("probe", rc);
            continue;
        }

        for (unsigned l = 0; l < nl; l++) {
            /* the full warm-up before a size's first leaf; the nodes are
             * in step after it, a new leaf needs only a couple */
            unsigned w = l == 0 || warm < 2 ? warm : 2;
            uint64_t t0 = 0, th = 0, t1;

            for (unsigned i = 0; i < w + count; i++) {
                if (me != 0) {
                    if ((rc = member_once(&h, path, size[s], leaf[l], buf)))
                        return fail("broadcast (member)", rc);
                    continue;
                }
                if (i == w)
                    t0 = nc_host_now_ns();
                if (i == w + count / 2)
                    th = nc_host_now_ns();
                if ((rc = root_once(&h, path, buf, size[s], leaf[l])))
                    return fail("broadcast (root)", rc);
            }
            if (me != 0)
                continue;
            t1 = nc_host_now_ns();
            double avg = (double)(t1 - t0) / count / 1000;
            double h1 = (double)(th - t0) / (count / 2) / 1000;
            double h2 = (double)(t1 - th) / (count - count / 2) / 1000;
            nc_host_printf("r2 path=%s tree=%s nodes=%u size=%zu leaf=%u count=%u avg_us=%.3f "
                           "half1_us=%.3f half2_us=%.3f\n", pname, tname, nn, size[s], leaf[l], count,
                           avg, h1, h2);
            if (avg > best)
                best = avg, bh1 = h1, bh2 = h2, bleaf = leaf[l];
        }
        if (me == 0)
            nc_host_printf("r2max path=%s tree=%s nodes=%u size=%zu leaf=%u count=%u avg_us=%.3f "
                           "half1_us=%.3f half2_us=%.3f\n", pname, tname, nn, size[s], bleaf, count,
                           best, bh1, bh2);
    }
    if ((rc = nc_hmc_flush(&h)))
        return fail("last sends", rc);
    nc_hmc_fini(&h);
    nc_close(p);
    return 0;
}
