/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lanai-order: orderings and k-binomial trees of a multicast on a real
 * network, and their link contention (docs/irregular.md is the manual).
 *
 *   lanai-topo ... --quiet --channels > net.ch
 *   lanai-order net.ch [--dests D] [--seed X] [--order id|cco|route]
 *               [--k K|opt] [--packets M] [--passes P] [--sets N]
 *
 * The channel file (docs/topology.md, "Channels") gives the switch levels,
 * the down links, where each NIC sits and every route as directed channels;
 * lanai-topo writes it with the fabric model, so this tool (host/, which
 * uses ref/ but not the emulator) needs no topology code of its own.  The
 * seed picks the source and the destination set; ref/tree builds the
 * orderings (nc_order.h), the tree (nc_tree.h) and counts the contention
 * (nc_contention.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nc_contention.h"
#include "nc_kbin.h"
#include "nc_order.h"
#include "nc_tree.h"
#include "nc_version.h"

#define MAXN NC_MAX_NODES

struct net {
    unsigned nsw, nn;
    uint8_t *down;          /* [a * NC_ORDER_MAX_SWITCHES + b]: a -> b goes down */
    uint16_t *sw;           /* switch of each NIC */
    uint32_t *ch;           /* [(a * nn + b) * NC_ROUTE_MAX + h] */
    uint8_t *len;           /* [a * nn + b] */
};

enum kind { ORD_ID, ORD_CCO, ORD_ROUTE };
static const char *const kind_name[] = { "id", "cco", "route" };

static void usage(FILE *f)
{
    fputs(
"usage: lanai-order CHANNELS [--dests D] [--seed X] [--order id|cco|route]\n"
"                   [--k K|opt] [--packets M] [--passes P] [--sets N]\n"
"       lanai-order --help | --version\n"
"CHANNELS is a file written by 'lanai-topo ... --quiet --channels' (or - for\n"
"stdin). The seed picks a source and D destinations among the other nodes\n"
"(default: all of them). Prints the ordering (node ids, the source first), the\n"
"k-binomial tree on it (one line per edge: step, parent, child) and the\n"
"contention count per step and in total: the pairs of edges whose routes share\n"
"a directed channel and that run at the same time, for one packet those of one\n"
"step (a step's count is that of the pairs whose first edge runs at it).\n"
"  --order KIND  id (the source, then by node id), cco (chain concatenated\n"
"                ordering), route (cco improved on the routes); default cco\n"
"  --k K|opt     the tree's out-degree, 1..32, or opt (default): seed 001's\n"
"                optimal k for the members and --packets\n"
"  --packets M   packets of the message, 1..65536 (default 1): packet p + j\n"
"                runs j x D steps behind packet p, D the most children of a\n"
"                node (seed 001 Theorem 1), so edges whose steps differ by\n"
"                that contend too\n"
"  --passes P    swap passes of the route ordering, 1..100 (default 8)\n"
"  --sets N      N destination sets, seeds X .. X+N-1, 1..10000: one line per\n"
"                set with the total contention of every ordering, then the\n"
"                mean and maximum of each\n"
"Exit status: 0 ok, 1 a channel file with an error (file:line), 2 bad usage.\n",
          f);
}

static int num(const char *opt, const char *s, unsigned long long lo, unsigned long long hi,
               unsigned long long *out)
{
    char *end;
    errno = 0;
    *out = strtoull(s, &end, 0);
    if (end == s || *end || errno || s[0] == '-' || *out < lo || *out > hi) {
        fprintf(stderr, "lanai-order: %s: '%s' is not a number in %llu..%llu\n", opt, s, lo, hi);
        return -1;
    }
    return 0;
}

static int bad(const char *path, unsigned line, const char *what)
{
    fprintf(stderr, "lanai-order: %s:%u: %s\n", path, line, what);
    return -1;
}

/* Read a channel file (docs/topology.md). */
static int load(struct net *g, const char *path)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
    char buf[4096];
    unsigned line = 0, nroutes = 0;

    if (!f) {
        fprintf(stderr, "lanai-order: %s: %s\n", path, strerror(errno));
        return -2;
    }
    memset(g, 0, sizeof *g);
    while (fgets(buf, sizeof buf, f)) {
        unsigned a, b, c;
        int off;
        line++;
        if (line == 1) {
            if (sscanf(buf, "channels %u %u", &g->nsw, &g->nn) != 2)
                return bad(path, line, "not a channel file (no 'channels S N' line; "
                           "lanai-topo --channels writes one)");
            if (g->nsw < 1 || g->nsw > NC_ORDER_MAX_SWITCHES)
                return bad(path, line, "switches out of range (1..256)");
            if (g->nn < 2 || g->nn > MAXN)
                return bad(path, line, "nodes out of range (2..1024)");
            g->down = calloc((size_t)g->nsw * NC_ORDER_MAX_SWITCHES, 1);
            g->sw = calloc(g->nn, sizeof *g->sw);
            g->ch = calloc((size_t)g->nn * g->nn * NC_ROUTE_MAX, sizeof *g->ch);
            g->len = calloc((size_t)g->nn * g->nn, 1);
            if (!g->down || !g->sw || !g->ch || !g->len)
                return bad(path, line, "out of memory");
            for (unsigned i = 0; i < g->nn; i++)
                g->sw[i] = 0xFFFF;
            continue;
        }
        if (!strncmp(buf, "level ", 6))
            continue;
        if (sscanf(buf, "down %u %u %u", &a, &c, &b) == 3) {
            if (a >= g->nsw || b >= g->nsw)
                return bad(path, line, "down link names a switch out of range");
            g->down[a * NC_ORDER_MAX_SWITCHES + b] = 1;
        } else if (sscanf(buf, "attach %u %u", &a, &b) == 2) {
            if (a >= g->nn || b >= g->nsw)
                return bad(path, line, "attach names a node or switch out of range");
            g->sw[a] = (uint16_t)b;
        } else if (sscanf(buf, "route %u %u%n", &a, &b, &off) == 2) {
            char *p = buf + off, *end;
            unsigned h = 0;
            if (a >= g->nn || b >= g->nn)
                return bad(path, line, "route names a node out of range");
            for (;;) {
                unsigned long v = strtoul(p, &end, 10);
                if (end == p)
                    break;
                if (h >= NC_ROUTE_MAX)
                    return bad(path, line, "route longer than 16 channels");
                g->ch[((size_t)a * g->nn + b) * NC_ROUTE_MAX + h++] = (uint32_t)v;
                p = end;
            }
            if (h == 0)
                return bad(path, line, "route with no channel");
            g->len[(size_t)a * g->nn + b] = (uint8_t)h;
            nroutes++;
        } else {
            return bad(path, line, "unknown statement (level, down, attach or route)");
        }
    }
    if (f != stdin)
        fclose(f);
    if (line == 0)
        return bad(path, 1, "empty file");
    for (unsigned i = 0; i < g->nn; i++)
        if (g->sw[i] == 0xFFFF)
            return bad(path, line, "a node has no attach line");
    if (nroutes != g->nn * g->nn)
        return bad(path, line, "not every pair of nodes has a route");
    return 0;
}

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* One multicast: its members (node ids, increasing), the source's member
 * number, the routes among the members. */
struct mc {
    unsigned n, src;
    uint16_t id[MAXN];
    uint16_t msw[MAXN];
    uint32_t *ch;
    uint8_t *len;
    nc_routes_t r;
};

/* The seed picks the source among all nodes, then dests of the others. */
static void pick(const struct net *g, uint64_t seed, unsigned dests, struct mc *m)
{
    uint64_t s = seed;
    uint16_t pool[MAXN];
    bool in[MAXN] = { false };
    unsigned src = (unsigned)(splitmix(&s) % g->nn), np = 0;

    for (unsigned i = 0; i < g->nn; i++)
        if (i != src)
            pool[np++] = (uint16_t)i;
    for (unsigned i = 0; i < dests; i++) {
        unsigned j = i + (unsigned)(splitmix(&s) % (np - i));
        uint16_t x = pool[i];
        pool[i] = pool[j];
        pool[j] = x;
        in[pool[i]] = true;
    }
    in[src] = true;
    m->n = 0;
    for (unsigned i = 0; i < g->nn; i++)
        if (in[i]) {
            if (i == src)
                m->src = m->n;
            m->msw[m->n] = g->sw[i];
            m->id[m->n++] = (uint16_t)i;
        }
    for (unsigned a = 0; a < m->n; a++)
        for (unsigned b = 0; b < m->n; b++) {
            size_t from = (size_t)m->id[a] * g->nn + m->id[b], to = (size_t)a * MAXN + b;
            memcpy(m->ch + to * NC_ROUTE_MAX, g->ch + from * NC_ROUTE_MAX,
                   NC_ROUTE_MAX * sizeof *m->ch);
            m->len[to] = g->len[from];
        }
    m->r.n = m->n;
    m->r.ch = m->ch;
    m->r.len = m->len;
}

/* How many steps apart the packets of a message run: each NIC sends one
 * packet per step, so a node with d children takes d steps per packet and
 * the pipeline's lag is the largest number of children (seed 001 Theorem
 * 1's dr, the root's, when the root has the most, as its trees do;
 * nc_kbin_tree's root can have fewer than an inner node). */
static uint32_t lag(const nc_tree_t *t)
{
    uint32_t d = 1;
    for (uint32_t i = 0; i < t->n; i++)
        if (t->deg[i] > d)
            d = t->deg[i];
    return d;
}

/* The ordering of the given kind for tree t (only route uses the tree). */
static int order_of(const struct net *g, const struct mc *m, enum kind kind,
                    const nc_tree_t *t, unsigned packets, unsigned passes, uint16_t *order)
{
    static uint16_t rank[NC_ORDER_MAX_SWITCHES], stack[NC_ORDER_MAX_SWITCHES], tmp[MAXN];
    static uint16_t nums[MAXN];
    static uint32_t key[MAXN];
    static uint8_t mark[MAXN];

    if (kind == ORD_ID) {
        for (unsigned i = 0; i < m->n; i++)
            nums[i] = (uint16_t)i;
        nc_id_order(nums, m->n, (uint16_t)m->src, order);
        return nc_order_check(order, m->n, m->src) ? 0 : -1;
    }
    if (!nc_switch_preorder(g->down, g->nsw, rank, stack))
        return -1;
    if (nc_order_cco(m->msw, rank, m->n, g->nsw, m->src, key, tmp, order) != NC_ORDER_OK)
        return -1;
    if (kind == ORD_ROUTE &&
        nc_order_route_aware(t, &m->r, m->n, m->src, lag(t), packets,
                             passes, order, mark) != NC_ORDER_OK)
        return -1;
    return 0;
}

static unsigned choose_k(const struct mc *m, unsigned k, unsigned packets)
{
    return k ? k : nc_kbin_optimal_k(m->n, packets);
}

int main(int argc, char **argv)
{
    unsigned long long dests = 0, seed = 1, k = 0, packets = 1, passes = 8, sets = 0, v;
    enum kind kind = ORD_CCO;
    bool dests_given = false;
    const char *path = NULL;
    static struct net g;
    static struct mc m;
    static nc_tree_t t;
    static uint16_t order[MAXN];
    static uint32_t per[NC_MAX_STEPS + 1];
    uint32_t steps;
    int rc;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        }
        if (!strcmp(a, "--version")) {
            printf("lanai-order (nicoll) %s\n", NC_VERSION);
            return 0;
        }
        if (a[0] != '-' || !strcmp(a, "-")) {
            if (path) {
                fprintf(stderr, "lanai-order: one CHANNELS file only ('%s' and '%s')\n", path, a);
                return 2;
            }
            path = a;
            continue;
        }
        if (strcmp(a, "--dests") && strcmp(a, "--seed") && strcmp(a, "--order") &&
            strcmp(a, "--k") && strcmp(a, "--packets") && strcmp(a, "--passes") &&
            strcmp(a, "--sets")) {
            fprintf(stderr, "lanai-order: unknown option '%s' (see --help)\n", a);
            return 2;
        }
        if (!val) {
            fprintf(stderr, "lanai-order: option %s needs a value\n", a);
            return 2;
        }
        i++;
        if (!strcmp(a, "--dests")) {
            if (num(a, val, 1, MAXN - 1, &dests)) return 2;
            dests_given = true;
        } else if (!strcmp(a, "--seed")) {
            if (num(a, val, 0, UINT64_MAX, &seed)) return 2;
        } else if (!strcmp(a, "--order")) {
            if (!strcmp(val, "id")) kind = ORD_ID;
            else if (!strcmp(val, "cco")) kind = ORD_CCO;
            else if (!strcmp(val, "route")) kind = ORD_ROUTE;
            else {
                fprintf(stderr, "lanai-order: --order: '%s' is not id, cco or route\n", val);
                return 2;
            }
        } else if (!strcmp(a, "--k")) {
            if (strcmp(val, "opt")) {
                if (num(a, val, 1, NC_MAX_K, &k)) return 2;
            } else {
                k = 0;
            }
        } else if (!strcmp(a, "--packets")) {
            if (num(a, val, 1, 65536, &packets)) return 2;
        } else if (!strcmp(a, "--passes")) {
            if (num(a, val, 1, 100, &passes)) return 2;
        } else {
            if (num(a, val, 1, 10000, &v)) return 2;
            sets = v;
        }
    }
    if (!path) {
        fprintf(stderr, "lanai-order: no CHANNELS file (see --help)\n");
        return 2;
    }
    rc = load(&g, path);
    if (rc)
        return rc == -2 ? 2 : 1;
    if (!dests_given)
        dests = g.nn - 1;
    if (dests > g.nn - 1) {
        fprintf(stderr, "lanai-order: --dests: %llu destinations, but %s has only %u other "
                "nodes\n", dests, path, g.nn - 1);
        return 2;
    }
    /* nc_routes_t's fixed stride: MAXN routes per source member */
    m.ch = calloc((size_t)(dests + 1) * MAXN * NC_ROUTE_MAX, sizeof *m.ch);
    m.len = calloc((size_t)(dests + 1) * MAXN, 1);
    if (!m.ch || !m.len) {
        fprintf(stderr, "lanai-order: out of memory\n");
        return 1;
    }
    fprintf(stderr, "lanai-order: seed %llu\n", seed);

    if (sets) {
        unsigned long long sum[3] = { 0, 0, 0 }, max[3] = { 0, 0, 0 };
        for (unsigned long long s = 0; s < sets; s++) {
            unsigned kk;
            pick(&g, seed + s, (unsigned)dests, &m);
            kk = choose_k(&m, (unsigned)k, (unsigned)packets);
            if (nc_kbin_tree(&t, m.n, kk, &steps) != NC_TREE_OK) {
                fprintf(stderr, "lanai-order: no %u-binomial tree for %u members\n", kk, m.n);
                return 1;
            }
            printf("set %llu: members %u k %u steps %u", seed + s, m.n, kk, steps);
            for (int o = 0; o < 3; o++) {
                uint32_t c;
                if (order_of(&g, &m, (enum kind)o, &t, (unsigned)packets, (unsigned)passes, order)) {
                    fprintf(stderr, "lanai-order: the %s ordering failed\n", kind_name[o]);
                    return 1;
                }
                c = nc_contention(&t, order, m.n, &m.r, lag(&t),
                                  (uint32_t)packets, NULL, steps + 1);
                sum[o] += c;
                if (c > max[o])
                    max[o] = c;
                printf(" %s %u", kind_name[o], c);
            }
            printf("\n");
        }
        for (int o = 0; o < 3; o++)
            printf("%s: mean %.2f max %llu over %llu sets\n", kind_name[o],
                   (double)sum[o] / (double)sets, max[o], sets);
        return 0;
    }

    pick(&g, seed, (unsigned)dests, &m);
    {
        unsigned kk = choose_k(&m, (unsigned)k, (unsigned)packets);
        uint32_t total;
        if (nc_kbin_tree(&t, m.n, kk, &steps) != NC_TREE_OK) {
            fprintf(stderr, "lanai-order: no %u-binomial tree for %u members\n", kk, m.n);
            return 1;
        }
        if (order_of(&g, &m, kind, &t, (unsigned)packets, (unsigned)passes, order)) {
            fprintf(stderr, "lanai-order: the %s ordering failed\n", kind_name[kind]);
            return 1;
        }
        printf("network %s: %u switches, %u nodes\n", path, g.nsw, g.nn);
        printf("source %u, destinations %llu\n", m.id[m.src], dests);
        printf("ordering %s, k %u%s, steps %u\n", kind_name[kind], kk, k ? "" : " (optimal)",
               steps);
        printf("packets %llu, %u steps apart\n", packets, lag(&t));
        printf("order:");
        for (unsigned i = 0; i < m.n; i++)
            printf(" %u", m.id[order[i]]);
        printf("\n");
        for (unsigned s = 1; s <= steps; s++)
            for (unsigned i = 1; i < m.n; i++)
                if (t.time[i] == s)
                    printf("edge %u %u %u\n", s, m.id[order[t.parent[i]]], m.id[order[i]]);
        total = nc_contention(&t, order, m.n, &m.r, lag(&t),
                              (uint32_t)packets, per, steps + 1);
        for (unsigned s = 1; s <= steps; s++)
            printf("step %u: contention %u\n", s, per[s]);
        printf("total contention %u\n", total);
    }
    return 0;
}
