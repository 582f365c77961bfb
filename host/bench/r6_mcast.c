/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * R6 (seed 001 section 5.2, Figure 14): packetised NIC multicasts on an
 * irregular network, one after another on a fixed schedule, each on a tree
 * built on a given member ordering. One emulator run takes a whole list
 * of cases (host/bench/r6 writes it):
 *
 *   r6_mcast CASES START_US SLOT_US
 *     CASES     a file, one case a line (blank lines and '#' lines skipped):
 *                 ID SIZE PKT TREE NODE...
 *               ID a number (the group is 0x52360000 + ID), SIZE the message
 *               bytes, PKT the group's packet size (nc_tree_spec.pkt_size),
 *               TREE kopt (k-binomial, seed 001's optimal k for the
 *               members and SIZE/PKT packets), binomial, k:K, or flat (the
 *               root sends to every member, in ID order), and the
 *               members in the ordering the tree is built on, the root
 *               first (2 .. 64 nodes, distinct, each below the cluster's)
 *     START_US  virtual time of case 0's start (after every NIC is loaded)
 *     SLOT_US   time between the starts of two cases
 *
 * Case i starts at START_US + i x SLOT_US: its root posts the multicast
 * then (t_s, the host's post, included) and waits for its SENT; every other
 * member has set the group and provided a receive buffer by then (it does
 * so from SLOT_US/2 before the start; the case before is over by that
 * time, else the run fails naming it) and takes the RECV (t_r included).
 * Until SLOT_US/2 after the start nothing more may come (a second RECV or
 * SENT fails the run: each message once; the one receive buffer is given
 * again after the check), and then every member drops the group.
 * The hosts' virtual clocks are one time base, so the root prints
 *   r6 case=ID start_ns=T k=K packets=M members=N depth_steps=S fanout=D
 * (K, M from nc_group_optimal_k or the tree named, S = nc_kbin_steps, D
 * the most children of any member: the pipelined model's inputs) and each
 * member
 *   r6 case=ID node=X leaf=L recv_ns=T
 * (L 1 for a leaf of the tree). The latency of a case is the latest
 * recv_ns of a leaf minus start_ns: the last packet reaches an inner
 * member before its children, so the latest leaf is the latest NIC to
 * have the message, as in seed 001's model; an inner member's own RECV
 * waits for its subtree's ACKs (docs/multicast.md), which the model does
 * not have, and its recv_ns is printed for the all-members figure. The
 * payload is a pattern of the case id; a member checks every byte (a
 * wrong one fails the run). Non-members sleep through a case.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicoll/hostif.h"
#include "nicoll.h"
#include "nc_kbin.h"

#define GROUP_BASE 0x52360000u     /* "R6" */
#define MAX_CASES 4096u
#define MAX_MEMBERS 64u
#define MAX_SIZE 65536u

struct r6case {
    unsigned id, n, pkt;
    size_t size;
    nc_tree_spec tree;
    unsigned node[MAX_MEMBERS];
};

static struct r6case *cases;
static unsigned ncases, me;

static int fail(const char *what, int rc)
{
    nc_host_printf("FAIL r6 node %u: %s: %s\n", me, what, nc_strerror(rc));
    return 1;
}

/* One line of CASES into c; 0, or -1 with a message naming file and line. */
static int parse_case(const char *file, unsigned line, char *s, struct r6case *c, unsigned nodes)
{
    char *tok, *end, *save = NULL;
    unsigned long v[3];
    const char *tree;

    for (int i = 0; i < 3; i++) {
        tok = strtok_r(i ? NULL : s, " \t\n", &save);
        v[i] = tok ? strtoul(tok, &end, 10) : 0;
        if (!tok || *end) {
            nc_host_printf("FAIL r6: %s:%u: field %d: '%s' is not a number\n", file, line, i + 1,
                           tok ? tok : "");
            return -1;
        }
    }
    tree = strtok_r(NULL, " \t\n", &save);
    memset(c, 0, sizeof *c);
    c->id = (unsigned)v[0];
    c->size = v[1];
    c->pkt = (unsigned)v[2];
    if (c->id > 0xFFFF || c->size > MAX_SIZE) {
        nc_host_printf("FAIL r6: %s:%u: id %lu (0..65535) or size %lu (0..%u) out of range\n",
                       file, line, v[0], v[1], MAX_SIZE);
        return -1;
    }
    c->tree.pkt_size = c->pkt;
    c->tree.size = c->size;
    if (tree && !strcmp(tree, "kopt")) {
        c->tree.kind = NC_TREE_KBINOMIAL;
    } else if (tree && !strcmp(tree, "binomial")) {
        c->tree.kind = NC_TREE_BINOMIAL;
    } else if (tree && !strcmp(tree, "flat")) {
        c->tree.kind = NC_TREE_FLAT;    /* the root sends to each in ID order (calibration) */
    } else if (tree && !strncmp(tree, "k:", 2) && (v[0] = strtoul(tree + 2, &end, 10)) >= 1 &&
               !*end && v[0] <= 64) {
        c->tree.kind = NC_TREE_KBINOMIAL;
        c->tree.k = (unsigned)v[0];
    } else {
        nc_host_printf("FAIL r6: %s:%u: tree '%s' is not kopt, binomial or k:K (1..64)\n", file,
                       line, tree ? tree : "");
        return -1;
    }
    while ((tok = strtok_r(NULL, " \t\n", &save))) {
        unsigned long x = strtoul(tok, &end, 10);

        if (*end || x >= nodes || c->n == MAX_MEMBERS) {
            nc_host_printf("FAIL r6: %s:%u: member '%s' is not a node below %u (at most %u)\n",
                           file, line, tok, nodes, MAX_MEMBERS);
            return -1;
        }
        for (unsigned i = 0; i < c->n; i++)
            if (c->node[i] == x) {
                nc_host_printf("FAIL r6: %s:%u: member %lu twice\n", file, line, x);
                return -1;
            }
        c->node[c->n++] = (unsigned)x;
    }
    if (c->n < 2) {
        nc_host_printf("FAIL r6: %s:%u: a case needs a root and a destination\n", file, line);
        return -1;
    }
    return 0;
}

static int read_cases(const char *file, unsigned nodes)
{
    char line[2048];
    unsigned ln = 0;
    FILE *f = fopen(file, "r");

    if (!f) {
        nc_host_printf("FAIL r6: %s: cannot open\n", file);
        return -1;
    }
    cases = calloc(MAX_CASES, sizeof *cases);
    while (cases && fgets(line, sizeof line, f)) {
        char *s = line + strspn(line, " \t");

        ln++;
        if (*s == '#' || *s == '\n' || !*s)
            continue;
        if (ncases == MAX_CASES) {
            nc_host_printf("FAIL r6: %s:%u: more than %u cases\n", file, ln, MAX_CASES);
            fclose(f);
            return -1;
        }
        if (parse_case(file, ln, s, &cases[ncases], nodes)) {
            fclose(f);
            return -1;
        }
        ncases++;
    }
    fclose(f);
    if (!cases || !ncases) {
        nc_host_printf("FAIL r6: %s: no cases\n", file);
        return -1;
    }
    return 0;
}

static uint8_t pattern(unsigned id, size_t i) { return (uint8_t)(id * 31u + i * 7u + (i >> 8)); }

static void sleep_until(uint64_t t)
{
    uint64_t now = nc_host_now_ns();

    if (now < t)
        nc_host_compute_ns(t - now);
}

/* The root's line: the tree's k, packets, steps and largest fan-out. */
static int describe(const struct r6case *c, const nc_member *mem, const unsigned *order,
                    uint64_t start)
{
    int parent[MAX_MEMBERS];
    unsigned k = c->tree.k, m, deg[MAX_MEMBERS] = { 0 }, fan = 0;
    int rc;

    if ((rc = nc_group_optimal_k(c->n, c->size, c->pkt, &k, &m)))
        return rc;
    if (c->tree.kind == NC_TREE_BINOMIAL)
        k = nc_ceil_log2(c->n);
    else if (c->tree.kind == NC_TREE_FLAT)
        k = c->n - 1;
    else if (c->tree.k)
        k = c->tree.k;
    nc_tree_spec spec = c->tree;

    if (spec.kind != NC_TREE_FLAT)
        spec.order = order;
    if ((rc = nc_group_tree(mem, c->n, 0, &spec, parent)))
        return rc;
    for (unsigned i = 1; i < c->n; i++)
        if (++deg[parent[i]] > fan)
            fan = deg[parent[i]];
    nc_host_printf("r6 case=%u start_ns=%llu k=%u packets=%u members=%u depth_steps=%u fanout=%u\n",
                   c->id, (unsigned long long)start, k, m, c->n, nc_kbin_steps(c->n, k), fan);
    return NC_OK;
}

/* Case c at time start: this node's part (me is member index mi). */
static int run_case(nc_port *p, const struct r6case *c, unsigned mi, uint8_t *buf,
                    uint64_t start, uint64_t end)
{
    nc_member mem[MAX_MEMBERS];
    unsigned order[MAX_MEMBERS];
    nc_tree_spec spec = c->tree;
    uint32_t group = GROUP_BASE + c->id;
    nc_event ev;
    int rc;

    for (unsigned i = 0; i < c->n; i++) {
        mem[i] = (nc_member){ c->node[i], 0 };
        order[i] = i;   /* the members are listed in the ordering */
    }
    spec.order = spec.kind == NC_TREE_FLAT ? NULL : order;
    spec.fpfs = 1;      /* seed 001's NIC: packet by packet (FPFS) */
    if ((rc = nc_group_create(p, group, mem, c->n, 0, &spec)))
        return fail("nc_group_create", rc);
    if (mi == 0)
        for (size_t i = 0; i < c->size; i++)
            buf[i] = pattern(c->id, i);
    if (nc_host_now_ns() > start) {
        nc_host_printf("FAIL r6 node %u: case %u set up at %llu ns, after its start %llu ns "
                       "(SLOT_US too short)\n", me, c->id,
                       (unsigned long long)nc_host_now_ns(), (unsigned long long)start);
        return 1;
    }
    sleep_until(start);
    if (mi == 0 && (rc = nc_mcast(p, group, buf, c->size, NULL)))
        return fail("nc_mcast", rc);
    for (;;) {
        if (nc_host_now_ns() > end) {
            nc_host_printf("FAIL r6 node %u: case %u: no %s by %llu ns\n", me, c->id,
                           mi ? "RECV" : "SENT", (unsigned long long)end);
            return 1;
        }
        if ((rc = nc_poll(p, &ev)) == 0)
            continue;
        if (rc < 0)
            return fail("nc_poll", rc);
        if (ev.status != NC_OK || ev.group != group ||
            ev.type != (mi ? NC_EVENT_RECV : NC_EVENT_SENT)) {
            nc_host_printf("FAIL r6 node %u: case %u: event type %d status %d group %#x\n", me,
                           c->id, (int)ev.type, ev.status, (unsigned)ev.group);
            return 1;
        }
        break;
    }
    if (mi == 0) {
        if ((rc = describe(c, mem, order, start)))
            return fail("tree", rc);
    } else {
        uint64_t t = nc_host_now_ns();

        if (ev.len != c->size) {
            nc_host_printf("FAIL r6 node %u: case %u: %zu bytes, want %zu\n", me, c->id, ev.len,
                           c->size);
            return 1;
        }
        for (size_t i = 0; i < c->size; i++)
            if (buf[i] != pattern(c->id, i)) {
                nc_host_printf("FAIL r6 node %u: case %u: byte %zu is %u, want %u\n", me, c->id,
                               i, buf[i], pattern(c->id, i));
                return 1;
            }
        int parent[MAX_MEMBERS], leaf = 1;

        if ((rc = nc_group_tree(mem, c->n, 0, &spec, parent)))
            return fail("nc_group_tree", rc);
        for (unsigned i = 1; i < c->n; i++)
            leaf &= parent[i] != (int)mi;
        nc_host_printf("r6 case=%u node=%u leaf=%d recv_ns=%llu\n", c->id, me, leaf,
                       (unsigned long long)t);
        /* the buffer again: a second delivery of the message would land */
        if ((rc = nc_provide_recv(p, buf, MAX_SIZE, NULL)))
            return fail("nc_provide_recv", rc);
    }
    /* nothing more until the case's end: each message once */
    for (uint64_t now; (now = nc_host_now_ns()) < end;) {
        if ((rc = nc_wait(p, &ev, end - now)) == NC_ETIMEDOUT)
            break;
        if (rc)
            return fail("nc_wait", rc);
        nc_host_printf("FAIL r6 node %u: case %u: a second event, type %d status %d group %#x\n",
                       me, c->id, (int)ev.type, ev.status, (unsigned)ev.group);
        return 1;
    }
    return NC_OK;
}

int main(int argc, char **argv)
{
    unsigned long start_us, slot_us;
    char *end1, *end2;
    uint8_t *buf;
    nc_port *p;
    int rc;

    me = nc_host_node();
    if (argc != 4 || !(start_us = strtoul(argv[2], &end1, 10)) || *end1 ||
        !(slot_us = strtoul(argv[3], &end2, 10)) || *end2) {
        nc_host_printf("FAIL usage: r6_mcast CASES START_US SLOT_US (both > 0)\n");
        return 2;
    }
    if (read_cases(argv[1], nc_host_nodes()))
        return 2;
    if ((rc = nc_open(&p, 0)))
        return fail("nc_open", rc);
    buf = nc_alloc(p, MAX_SIZE);
    if (!buf)
        return fail("nc_alloc", NC_ENOMEM);
    if ((rc = nc_register(p, buf, MAX_SIZE)))
        return fail("nc_register", rc);
    /* one receive buffer, given again after each message is checked */
    if ((rc = nc_provide_recv(p, buf, MAX_SIZE, NULL)))
        return fail("nc_provide_recv", rc);
    for (unsigned i = 0; i < ncases; i++) {
        const struct r6case *c = &cases[i];
        uint64_t start = (start_us + (uint64_t)i * slot_us) * 1000u;
        unsigned mi = c->n;

        for (unsigned j = 0; j < c->n; j++)
            if (c->node[j] == me)
                mi = j;
        if (mi == c->n)
            continue;
        sleep_until(start - slot_us * 500u);
        if ((rc = run_case(p, c, mi, buf, start, start + slot_us * 500u)))
            return rc;
        if ((rc = nc_group_destroy(p, GROUP_BASE + c->id)))
            return fail("nc_group_destroy", rc);
    }
    nc_close(p);
    return 0;
}
