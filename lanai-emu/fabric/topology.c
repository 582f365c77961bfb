/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Topology construction, generators and up*-down* routing. */
#include "topology.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define NO_PORT 0xFF

static int fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;

    if (err && errlen) {
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

struct topo *topo_new(void)
{
    return calloc(1, sizeof(struct topo));
}

void topo_free(struct topo *t)
{
    if (!t)
        return;
    free(t->routes.next);
    free(t->routes.level);
    free(t->routes.dist);
    free(t);
}

int topo_add_switch(struct topo *t, const char *name, unsigned nports,
                    char *err, size_t errlen)
{
    struct topo_switch *s;

    if (t->nswitches >= TOPO_MAX_SWITCHES)
        return fail(err, errlen, "more than %d switches", TOPO_MAX_SWITCHES);
    if (nports != 8 && nports != 16 && nports != 32)
        return fail(err, errlen, "switch %s: %u ports (8, 16 or 32 expected)", name, nports);
    if (!name[0] || strlen(name) >= TOPO_NAME_LEN)
        return fail(err, errlen, "switch name '%s' is empty or longer than %d characters",
                    name, TOPO_NAME_LEN - 1);
    for (unsigned i = 0; i < t->nswitches; i++)
        if (!strcmp(t->sw[i].name, name))
            return fail(err, errlen, "switch %s is defined twice", name);
    s = &t->sw[t->nswitches++];
    memset(s, 0, sizeof *s);
    strcpy(s->name, name);
    s->nports = (uint8_t)nports;
    return 0;
}

static int check_port(const struct topo *t, unsigned sw, unsigned port,
                      char *err, size_t errlen)
{
    if (sw >= t->nswitches)
        return fail(err, errlen, "switch index %u does not exist", sw);
    if (port >= t->sw[sw].nports)
        return fail(err, errlen, "switch %s has no port %u (it has %u)", t->sw[sw].name,
                    port, t->sw[sw].nports);
    if (t->sw[sw].port[port].kind != TOPO_FREE)
        return fail(err, errlen, "switch %s port %u is already connected", t->sw[sw].name,
                    port);
    return 0;
}

int topo_link(struct topo *t, unsigned sa, unsigned pa, unsigned sb, unsigned pb,
              char *err, size_t errlen)
{
    if (check_port(t, sa, pa, err, errlen) || check_port(t, sb, pb, err, errlen))
        return -1;
    if (sa == sb)
        return fail(err, errlen, "switch %s: a link from the switch to itself",
                    t->sw[sa].name);
    t->sw[sa].port[pa] = (struct topo_peer){ TOPO_SWITCH, (uint8_t)pb, (uint16_t)sb };
    t->sw[sb].port[pb] = (struct topo_peer){ TOPO_SWITCH, (uint8_t)pa, (uint16_t)sa };
    return 0;
}

int topo_attach_node(struct topo *t, unsigned node, unsigned sw, unsigned port,
                     char *err, size_t errlen)
{
    if (node >= TOPO_MAX_NODES)
        return fail(err, errlen, "node %u: at most %d nodes", node, TOPO_MAX_NODES);
    if (node < t->nnodes && t->node[node].sw != 0xFFFF)
        return fail(err, errlen, "node %u is attached twice", node);
    if (check_port(t, sw, port, err, errlen))
        return -1;
    for (unsigned i = t->nnodes; i < node; i++)
        t->node[i].sw = 0xFFFF; /* not attached yet */
    if (node >= t->nnodes)
        t->nnodes = node + 1;
    t->node[node] = (struct topo_attach){ (uint16_t)sw, (uint8_t)port };
    t->sw[sw].port[port] = (struct topo_peer){ TOPO_NODE, 0, (uint16_t)node };
    return 0;
}

static unsigned ports_for(unsigned n)
{
    return n <= 8 ? 8 : n <= 16 ? 16 : 32;
}

int topo_gen_crossbar(struct topo *t, unsigned nnodes, char *err, size_t errlen)
{
    if (nnodes < 1 || nnodes > TOPO_MAX_PORTS)
        return fail(err, errlen, "crossbar: %u nodes (1..%d fit on one switch; use a fat "
                    "tree or a random network)", nnodes, TOPO_MAX_PORTS);
    if (topo_add_switch(t, "X0", ports_for(nnodes), err, errlen))
        return -1;
    for (unsigned i = 0; i < nnodes; i++)
        if (topo_attach_node(t, i, 0, i, err, errlen))
            return -1;
    return topo_finish(t, err, errlen);
}

/*
 * Fat tree (folded Clos, full bisection), levels counted from the leaves:
 * level 1 holds the NICs. With k = ports / 2 and L levels, a leaf has k NIC
 * ports and k up links, a middle switch k down and k up, a top switch all
 * its ports down, so L levels hold 2k * k^(L-1) NICs; L is the smallest
 * that fits. Below the top, the switches of level l form groups ("sub-pods")
 * of k^(l-1) switches above the same k^(l-1) leaves: switch <g, p> (group g,
 * position p) sends up port k + j to <g / k, p + j * k^(l-1)> of level l+1,
 * arriving on its down port g % k. Groups with no NIC below them are not
 * built. A switch of level L-1 has k up links; the top level needs only as
 * many ports per switch as there are level-(L-1) groups ("pods"), so each
 * top switch takes m of the up links of every pod switch it serves
 * (parallel cables, m = largest power of two with m * pods <= ports): up
 * port k + j of <g, p> goes to top switch p * (k/m) + j / m, port g * m + j % m.
 * Every level of links then carries as many cables as there are NICs below
 * it: full bisection, and up*-down* with the top as root uses only shortest
 * (leaf-up-to-common-ancestor-and-down) routes.
 */
int topo_gen_fattree(struct topo *t, unsigned nnodes, unsigned ports,
                     char *err, size_t errlen)
{
    unsigned k = ports / 2, L = 2, leaves, pods, m = 1, total, base[TOPO_MAX_HOPS + 1];
    uint64_t cap = 2ull * k * k, span[TOPO_MAX_HOPS + 1]; /* leaves below a level-l group */
    char name[TOPO_NAME_LEN];

    if (ports != 8 && ports != 16 && ports != 32)
        return fail(err, errlen, "fat tree: %u ports (8, 16 or 32 expected)", ports);
    if (nnodes < 1 || nnodes > TOPO_MAX_NODES)
        return fail(err, errlen, "fat tree: %u nodes (1..%d)", nnodes, TOPO_MAX_NODES);
    t->fixed_levels = true;
    if (nnodes <= ports) {  /* one level: a single switch, all ports for NICs */
        if (topo_add_switch(t, "L0S0", ports, err, errlen))
            return -1;
        for (unsigned i = 0; i < nnodes; i++)
            if (topo_attach_node(t, i, 0, i, err, errlen))
                return -1;
        return topo_finish(t, err, errlen);
    }
    while (cap < nnodes) {
        cap *= k;
        L++;
    }
    leaves = (nnodes + k - 1) / k;
    span[1] = 1;
    for (unsigned l = 2; l < L; l++)
        span[l] = span[l - 1] * k;
    pods = (unsigned)((leaves + span[L - 1] - 1) / span[L - 1]);
    while (m * 2 <= k && m * 2 * pods <= ports)
        m *= 2;
    /* base[l]: index of the first switch of level l; level l < L has
     * groups(l) * span[l] switches, the top span[L-1] * k / m */
    total = 0;
    for (unsigned l = 1; l < L; l++) {
        uint64_t groups = (leaves + span[l] - 1) / span[l], n = groups * span[l];
        base[l] = total;
        if (total + n > TOPO_MAX_SWITCHES)
            return fail(err, errlen, "fat tree: %u nodes need more than %d switches",
                        nnodes, TOPO_MAX_SWITCHES);
        total += (unsigned)n;
    }
    base[L] = total;
    if (total + span[L - 1] * k / m > TOPO_MAX_SWITCHES)
        return fail(err, errlen, "fat tree: %u nodes need more than %d switches", nnodes,
                    TOPO_MAX_SWITCHES);
    total += (unsigned)(span[L - 1] * k / m);
    for (unsigned i = 0; i < total; i++) {
        unsigned l = L;
        while (i < base[l])
            l--;
        snprintf(name, sizeof name, "L%uS%u", l - 1, i - base[l]);
        if (topo_add_switch(t, name, ports, err, errlen))
            return -1;
        t->sw[i].level = (uint8_t)(L - l); /* the top is the up*-down* root side */
    }
    for (unsigned l = 1; l < L; l++)
        for (unsigned i = base[l]; i < base[l + 1]; i++) {
            unsigned g = (unsigned)((i - base[l]) / span[l]), p = (unsigned)((i - base[l]) % span[l]);
            for (unsigned j = 0; j < k; j++) {
                unsigned to, port;
                if (l + 1 < L) {
                    to = base[l + 1] + (unsigned)((g / k) * span[l + 1] + p + j * span[l]);
                    port = g % k;
                } else {
                    to = base[L] + p * (k / m) + j / m;
                    port = g * m + j % m;
                }
                if (topo_link(t, i, k + j, to, port, err, errlen))
                    return -1;
            }
        }
    for (unsigned i = 0; i < nnodes; i++)
        if (topo_attach_node(t, i, i / k, i % k, err, errlen))
            return -1;
    return topo_finish(t, err, errlen);
}

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static unsigned pick(uint64_t *s, unsigned n)
{
    return (unsigned)(splitmix(s) % n);
}

static int free_port(const struct topo *t, unsigned sw)
{
    for (unsigned p = 0; p < t->sw[sw].nports; p++)
        if (t->sw[sw].port[p].kind == TOPO_FREE)
            return (int)p;
    return -1;
}

static bool linked(const struct topo *t, unsigned a, unsigned b)
{
    for (unsigned p = 0; p < t->sw[a].nports; p++)
        if (t->sw[a].port[p].kind == TOPO_SWITCH && t->sw[a].port[p].id == b)
            return true;
    return false;
}

int topo_gen_random(struct topo *t, unsigned nnodes, unsigned nswitches,
                    unsigned ports, unsigned links_per_switch, uint64_t seed,
                    char *err, size_t errlen)
{
    return topo_gen_random_spread(t, nnodes, nswitches, ports, links_per_switch, 0, seed,
                                  err, errlen);
}

int topo_gen_random_spread(struct topo *t, unsigned nnodes, unsigned nswitches,
                           unsigned ports, unsigned links_per_switch, unsigned per_switch,
                           uint64_t seed, char *err, size_t errlen)
{
    uint64_t s = seed;
    unsigned *nlinks, nfree = 0, *freelist, *held;
    char name[TOPO_NAME_LEN];

    if (nswitches < 1 || nswitches > TOPO_MAX_SWITCHES)
        return fail(err, errlen, "random: %u switches (1..%d)", nswitches, TOPO_MAX_SWITCHES);
    if (links_per_switch < (nswitches > 1 ? 2u : 0u) || links_per_switch >= ports)
        return fail(err, errlen, "random: %u inter-switch links per switch (2..%u)",
                    links_per_switch, ports - 1);
    if (nnodes < 1 || nnodes > TOPO_MAX_NODES ||
        nnodes > nswitches * (ports - links_per_switch))
        return fail(err, errlen, "random: %u nodes do not fit on %u switches with %u free "
                    "ports each", nnodes, nswitches, ports - links_per_switch);
    if (per_switch && (per_switch > ports - links_per_switch || nnodes > nswitches * per_switch))
        return fail(err, errlen, "random: --nodes-per-switch %u: %u nodes need %u..%u per "
                    "switch (%u switches, %u ports free of links)", per_switch, nnodes,
                    (nnodes + nswitches - 1) / nswitches, ports - links_per_switch, nswitches,
                    ports - links_per_switch);
    for (unsigned i = 0; i < nswitches; i++) {
        snprintf(name, sizeof name, "S%u", i);
        if (topo_add_switch(t, name, ports, err, errlen))
            return -1;
    }
    nlinks = calloc(nswitches, sizeof *nlinks);
    held = calloc(nswitches, sizeof *held);
    freelist = calloc((size_t)nswitches * ports, sizeof *freelist);
    if (!nlinks || !freelist || !held) {
        free(nlinks);
        free(held);
        free(freelist);
        return fail(err, errlen, "out of memory");
    }
    /* A random spanning tree keeps the network connected: switch i joins a
     * random earlier switch that still has a link slot (switch i-1 always
     * has one, since it has only its own tree link so far). */
    for (unsigned i = 1; i < nswitches; i++) {
        unsigned j;
        do
            j = pick(&s, i);
        while (nlinks[j] >= links_per_switch);
        topo_link(t, i, (unsigned)free_port(t, i), j, (unsigned)free_port(t, j), NULL, 0);
        nlinks[i]++;
        nlinks[j]++;
    }
    /* Extra links between random pairs with free slots (bounded tries). */
    for (unsigned tries = 0; tries < 64u * nswitches && nswitches > 2; tries++) {
        unsigned a = pick(&s, nswitches), b = pick(&s, nswitches);
        if (a == b || nlinks[a] >= links_per_switch || nlinks[b] >= links_per_switch ||
            linked(t, a, b))
            continue;
        topo_link(t, a, (unsigned)free_port(t, a), b, (unsigned)free_port(t, b), NULL, 0);
        nlinks[a]++;
        nlinks[b]++;
    }
    /* NICs on a random selection of the free ports. */
    for (unsigned i = 0; i < nswitches; i++)
        for (unsigned p = 0; p < ports; p++)
            if (t->sw[i].port[p].kind == TOPO_FREE && p < ports)
                freelist[nfree++] = i * ports + p;
    for (unsigned i = nfree; i > 1; i--) {
        unsigned j = pick(&s, i), tmp = freelist[i - 1];
        freelist[i - 1] = freelist[j];
        freelist[j] = tmp;
    }
    /* In the shuffled order; with per_switch, a port is skipped once its
     * switch holds that many (every switch has at least per_switch free
     * ports, since it has at most links_per_switch links, so all fit). */
    for (unsigned n = 0, f = 0; n < nnodes && f < nfree; f++) {
        unsigned sw = freelist[f] / ports;
        if (per_switch && held[sw] >= per_switch)
            continue;
        held[sw]++;
        topo_attach_node(t, n++, sw, freelist[f] % ports, NULL, 0);
    }
    free(nlinks);
    free(held);
    free(freelist);
    return topo_finish(t, err, errlen);
}

/*
 * up*-down* routing. Switch levels come from a BFS from switch 0, or from
 * the generator (fat trees: the top is level 0). A link u->v goes "up" when
 * v is nearer the root (lower level, or the same level and a lower index).
 * A legal route takes zero or more up links and then only down links, which
 * rules out cyclic channel dependencies: "up" is a strict order, so a
 * dependency chain rises, then falls, and never comes back.
 */
static bool is_up(const struct topo_routes *r, unsigned u, unsigned v)
{
    return r->level[v] < r->level[u] || (r->level[v] == r->level[u] && v < u);
}

static int compute_routes(struct topo *t, char *err, size_t errlen)
{
    struct topo_routes *r = &t->routes;
    unsigned S = t->nswitches;
    uint32_t *queue = malloc(sizeof *queue * 2 * S);
    uint8_t *seen = malloc(2 * S), *has_node = calloc(S, 1);

    free(r->next);
    free(r->level);
    free(r->dist);
    r->nswitches = S;
    r->next = malloc((size_t)2 * S * S);
    r->level = malloc(S);
    r->dist = t->fixed_levels ? malloc((size_t)2 * S * S) : NULL;
    if (!queue || !seen || !has_node || !r->next || !r->level || (t->fixed_levels && !r->dist)) {
        free(queue);
        free(seen);
        free(has_node);
        return fail(err, errlen, "out of memory computing routes for %u switches", S);
    }
    memset(r->next, NO_PORT, (size_t)2 * S * S);
    memset(r->level, 0xFF, S);
    if (r->dist)
        memset(r->dist, 0xFF, (size_t)2 * S * S);
    for (unsigned i = 0; i < t->nnodes; i++)
        has_node[t->node[i].sw] = 1;

    /* levels: BFS over switch links from switch 0 */
    {
        unsigned head = 0, tail = 0;
        r->level[0] = 0;
        queue[tail++] = 0;
        while (head < tail) {
            unsigned u = queue[head++];
            for (unsigned p = 0; p < t->sw[u].nports; p++) {
                const struct topo_peer *q = &t->sw[u].port[p];
                if (q->kind == TOPO_SWITCH && r->level[q->id] == 0xFF) {
                    r->level[q->id] = (uint8_t)(r->level[u] + 1 > 254 ? 254 : r->level[u] + 1);
                    queue[tail++] = q->id;
                }
            }
        }
        for (unsigned i = 0; i < S; i++)
            if (r->level[i] == 0xFF) {
                free(queue);
                free(seen);
                free(has_node);
                return fail(err, errlen, "switch %s is not connected to switch %s",
                            t->sw[i].name, t->sw[0].name);
            }
        if (t->fixed_levels)
            for (unsigned i = 0; i < S; i++)
                r->level[i] = t->sw[i].level;
    }

    /* For each destination d that holds a NIC (no route ends anywhere
     * else), a reverse BFS over states (switch, phase). */
    for (unsigned d = 0; d < S; d++) {
        unsigned head = 0, tail = 0;
        if (!has_node[d])
            continue;
        memset(seen, 0, 2 * S);
        seen[2 * d] = seen[2 * d + 1] = 1;
        queue[tail++] = 2 * d;
        queue[tail++] = 2 * d + 1;
        if (r->dist)
            r->dist[(size_t)(2 * d) * S + d] = r->dist[(size_t)(2 * d + 1) * S + d] = 0;
        while (head < tail) {
            unsigned st = queue[head++], v = st / 2, ph_v = st % 2;
            for (unsigned pv = 0; pv < t->sw[v].nports; pv++) {
                const struct topo_peer *q = &t->sw[v].port[pv];
                unsigned u, pu;
                if (q->kind != TOPO_SWITCH)
                    continue;
                u = q->id;
                pu = q->port; /* u leaves through pu to reach v */
                for (unsigned ph_u = 0; ph_u < 2; ph_u++) {
                    bool up = is_up(r, u, v);
                    unsigned su = 2 * u + ph_u;
                    /* up links keep phase 0; down links lead to phase 1 */
                    if (up ? (ph_u != 0 || ph_v != 0) : ph_v != 1)
                        continue;
                    if (seen[su])
                        continue;
                    seen[su] = 1;
                    r->next[(size_t)su * S + d] = (uint8_t)pu;
                    if (r->dist)
                        r->dist[(size_t)su * S + d] =
                            (uint8_t)(r->dist[(size_t)st * S + d] + 1);
                    queue[tail++] = su;
                }
            }
        }
    }
    free(queue);
    free(seen);
    free(has_node);
    return 0;
}

int topo_finish(struct topo *t, char *err, size_t errlen)
{
    if (t->nswitches == 0)
        return fail(err, errlen, "no switches");
    if (t->nnodes == 0)
        return fail(err, errlen, "no nodes");
    for (unsigned i = 0; i < t->nnodes; i++)
        if (t->node[i].sw == 0xFFFF)
            return fail(err, errlen, "node %u is not attached (node ids must be 0..%u)", i,
                        t->nnodes - 1);
    if (compute_routes(t, err, errlen))
        return -1;
    /* Every pair of NICs must have a route. With BFS levels a connected
     * graph guarantees it; levels given by a generator or a file may not. */
    for (unsigned a = 0; a < t->nnodes; a++)
        for (unsigned b = 0; b < t->nnodes; b++) {
            unsigned s = t->node[a].sw, d = t->node[b].sw;
            if (s != d && t->routes.next[(size_t)(2 * s) * t->nswitches + d] == NO_PORT)
                return fail(err, errlen, "no up*-down* route from switch %s to %s",
                            t->sw[s].name, t->sw[d].name);
        }
    return 0;
}

/*
 * With fixed levels (fat trees), a step may take any link that is as short
 * as the table's, in the same direction. Up: the choice is digit by digit
 * of the destination NIC id in the base of the number of choices, first
 * step first (d-mod-k); on a fat tree the k NICs of a leaf then arrive over
 * k different top switches, and shifted all-to-all patterns share no link.
 * Down, the choices are parallel cables to the same switch (a merged top
 * switch): take the one in the same position as the cable the packet came
 * in on, so a merged switch routes like the separate switches it replaces.
 */
static unsigned spread(const struct topo *t, unsigned s, unsigned ph, unsigned target,
                       unsigned p, unsigned in_port, uint64_t *key)
{
    const struct topo_routes *r = &t->routes;
    size_t S = r->nswitches;
    uint8_t cand[TOPO_MAX_PORTS], want = (uint8_t)(r->dist[(2 * s + ph) * S + target] - 1);
    bool up = is_up(r, s, t->sw[s].port[p].id);
    unsigned nc = 0;

    for (unsigned q = 0; q < t->sw[s].nports; q++) {
        const struct topo_peer *pq = &t->sw[s].port[q];
        if (pq->kind == TOPO_SWITCH && is_up(r, s, pq->id) == up &&
            r->dist[(2 * pq->id + !up) * S + target] == want)
            cand[nc++] = (uint8_t)q;
    }
    if (nc < 2)
        return p;
    if (!up)
        return cand[in_port % nc];
    p = cand[*key % nc];
    *key /= nc;
    return p;
}

int topo_route(const struct topo *t, unsigned src, unsigned dst, uint8_t *ports)
{
    const struct topo_routes *r = &t->routes;
    unsigned s, ph = 0, n = 0, target, in_port;
    uint64_t key = dst;

    if (src >= t->nnodes || dst >= t->nnodes || !r->next)
        return -1;
    s = t->node[src].sw;
    in_port = t->node[src].port;
    target = t->node[dst].sw;
    while (s != target) {
        unsigned p = r->next[(size_t)(2 * s + ph) * r->nswitches + target];
        const struct topo_peer *q;
        if (p == NO_PORT || n >= TOPO_MAX_HOPS - 1)
            return -1;
        if (r->dist)
            p = spread(t, s, ph, target, p, in_port, &key);
        ports[n++] = (uint8_t)p;
        q = &t->sw[s].port[p];
        if (!is_up(r, s, q->id))
            ph = 1;
        s = q->id;
        in_port = q->port;
    }
    ports[n++] = t->node[dst].port;
    return (int)n;
}

/* One byte of CRC-8 (polynomial 0x07), bit by bit. */
static uint8_t crc8_byte(uint8_t crc)
{
    for (int i = 0; i < 8; i++)
        crc = (uint8_t)((crc & 0x80) ? (crc << 1) ^ 0x07 : crc << 1);
    return crc;
}

/* Table-driven, eight bytes at a time: the fabric sums every byte of every
 * packet it forwards, and bit by bit this was a fifth of the emulator's
 * time. The CRC is linear, so eight bytes fold into one lookup each:
 * t[k][x] is the CRC register after byte x followed by k zero bytes. */
uint8_t crc8(uint8_t crc, const void *data, size_t len)
{
    static uint8_t t[8][256];
    static int ready;
    const uint8_t *p = data;

    if (!ready) {
        for (int i = 0; i < 256; i++) {
            t[0][i] = crc8_byte((uint8_t)i);
        }
        for (int k = 1; k < 8; k++) {
            for (int i = 0; i < 256; i++) {
                t[k][i] = t[0][t[k - 1][i]];
            }
        }
        ready = 1;
    }
    for (; len >= 8; len -= 8, p += 8) {
        crc = t[7][crc ^ p[0]] ^ t[6][p[1]] ^ t[5][p[2]] ^ t[4][p[3]] ^
              t[3][p[4]] ^ t[2][p[5]] ^ t[1][p[6]] ^ t[0][p[7]];
    }
    while (len--)
        crc = t[0][crc ^ *p++];
    return crc;
}
