/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The management entity (subnet_mgr.h; docs/fabric.md, "The management
 * entity"). */
#include "subnet_mgr.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicoll/nc_endian.h"
#include "nicoll/nc_mgmt.h"

#define PKT_MAX (TOPO_MAX_HOPS + 2 + NC_MGMT_LEN)

enum { G_FREE, G_LIVE, G_DRAINING };
enum { W_IDLE, W_QUEUED, W_INFLIGHT };

/* One switch's entry of one group, as the entity sees it. */
struct gsw {
    uint32_t want, have;       /* the ports it should hold; the ones it acknowledged */
    uint8_t state;             /* W_*: an SW_SET queued or on the wire */
};

struct group {
    uint8_t state;             /* G_* */
    unsigned nmembers;
    unsigned busy;             /* switches with an SW_SET queued or on the wire */
    unsigned set;              /* switches whose acknowledged entry is not empty */
    uint8_t *member;           /* per node */
    struct gsw *sw;            /* per switch */
};

struct msg {
    uint64_t t;
    size_t len;
    uint8_t data[PKT_MAX];
};

struct inflight {
    uint32_t tid;
    unsigned group, sw;
    uint32_t ports;
    uint64_t deadline;
};

struct sm {
    const struct topo *t;
    struct sm_params p;
    /* the one spanning tree every group's tree is part of (BFS from switch 0) */
    int *parent;
    uint8_t *up_port, *down_port;   /* at s towards its parent; at the parent towards s */
    unsigned *order, *depth, *sub;
    uint32_t *mask;
    struct group *g;
    unsigned *free_ids, free_head, nfree;   /* FIFO: the longest-free id goes first */
    struct msg *inbox;
    unsigned ninbox, capinbox;
    struct msg *outbox;
    unsigned nout, capout, outhead;
    unsigned *setq, sqhead, nsq, capsq;     /* (group << 16 | switch) pairs */
    struct inflight *fl;
    unsigned nfl, capfl;
    uint64_t busy, now;
    /* Requests (and acks) and switch writes take turns: after one taken
     * from the inbox, a queued write goes first if the wire has room. */
    bool write_turn;
    uint32_t next_tid;
    struct sm_counters c;
};

void sm_default_params(struct sm_params *p, unsigned node)
{
    p->node = node;
    p->groups = SM_GROUPS;
    p->max_outstanding = SM_MAX_OUTSTANDING;
    p->timeout_ps = SM_TIMEOUT_PS;
    p->request_ps = SM_REQUEST_PS;
    p->set_ps = SM_SET_PS;
    p->answer_ps = SM_ANSWER_PS;
}

static struct sm *fail(struct sm *sm, char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static struct sm *fail(struct sm *sm, char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    sm_free(sm);
    return NULL;
}

/* The tree path's ports from switch a to switch b: returns the count. */
static unsigned tree_path(const struct sm *sm, unsigned a, unsigned b, uint8_t *ports)
{
    uint8_t down[TOPO_MAX_SWITCHES < 256 ? TOPO_MAX_SWITCHES : 256];
    unsigned n = 0, nd = 0;

    while (sm->depth[a] > sm->depth[b]) {
        ports[n++] = sm->up_port[a];
        a = (unsigned)sm->parent[a];
    }
    while (sm->depth[b] > sm->depth[a]) {
        down[nd++] = sm->down_port[b];
        b = (unsigned)sm->parent[b];
    }
    while (a != b) {
        ports[n++] = sm->up_port[a];
        a = (unsigned)sm->parent[a];
        down[nd++] = sm->down_port[b];
        b = (unsigned)sm->parent[b];
    }
    while (nd)
        ports[n++] = down[--nd];
    return n;
}

struct sm *sm_new(const struct topo *t, const struct sm_params *p, char *err, size_t errlen)
{
    struct sm *sm = calloc(1, sizeof *sm);
    unsigned ns = t->nswitches, head = 0, tail = 0, maxd = 0;

    if (!sm)
        return fail(NULL, err, errlen, "out of memory");
    sm->t = t;
    sm->p = *p;
    if (p->node >= t->nnodes)
        return fail(sm, err, errlen, "management entity: node %u is not a node of this "
                    "network (0..%u)", p->node, t->nnodes - 1);
    if (!p->groups || p->groups >= NC_MG_GROUP_LIMIT)
        return fail(sm, err, errlen, "management entity: groups %u is not in 1..%u",
                    p->groups, NC_MG_GROUP_LIMIT - 1);
    if (!p->max_outstanding || !p->timeout_ps)
        return fail(sm, err, errlen, "management entity: max_outstanding and timeout must "
                    "not be 0");
    sm->parent = malloc(ns * sizeof *sm->parent);
    sm->up_port = calloc(ns, 1);
    sm->down_port = calloc(ns, 1);
    sm->order = malloc(ns * sizeof *sm->order);
    sm->depth = calloc(ns, sizeof *sm->depth);
    sm->sub = calloc(ns, sizeof *sm->sub);
    sm->mask = calloc(ns, sizeof *sm->mask);
    sm->g = calloc(p->groups, sizeof *sm->g);
    sm->free_ids = malloc(p->groups * sizeof *sm->free_ids);
    if (!sm->parent || !sm->up_port || !sm->down_port || !sm->order || !sm->depth ||
        !sm->sub || !sm->mask || !sm->g || !sm->free_ids)
        return fail(sm, err, errlen, "out of memory");
    for (unsigned s = 0; s < ns; s++)
        sm->parent[s] = -2;
    sm->parent[0] = -1;
    sm->order[tail++] = 0;
    while (head < tail) {
        unsigned s = sm->order[head++];
        for (unsigned q = 0; q < t->sw[s].nports; q++) {
            const struct topo_peer *pe = &t->sw[s].port[q];
            if (pe->kind != TOPO_SWITCH || sm->parent[pe->id] != -2)
                continue;
            sm->parent[pe->id] = (int)s;
            sm->up_port[pe->id] = pe->port;
            sm->down_port[pe->id] = (uint8_t)q;
            sm->depth[pe->id] = sm->depth[s] + 1;
            if (sm->depth[pe->id] > maxd)
                maxd = sm->depth[pe->id];
            sm->order[tail++] = pe->id;
        }
    }
    if (tail != ns)
        return fail(sm, err, errlen, "management entity: the switches are not connected");
    if (2 * maxd + 1 > NC_MG_ROUTE_MAX || 2 * maxd + 2 > TOPO_MAX_HOPS)
        return fail(sm, err, errlen, "management entity: the switches' tree is %u deep; a "
                    "route back holds at most %u bytes", maxd, NC_MG_ROUTE_MAX);
    for (unsigned i = 0; i < p->groups; i++)
        sm->free_ids[i] = i;
    sm->nfree = p->groups;
    sm->c.ids_free = p->groups;
    sm->next_tid = 1;
    return sm;
}

void sm_free(struct sm *sm)
{
    if (!sm)
        return;
    if (sm->g)
        for (unsigned i = 0; i < sm->p.groups; i++) {
            free(sm->g[i].member);
            free(sm->g[i].sw);
        }
    free(sm->parent);
    free(sm->up_port);
    free(sm->down_port);
    free(sm->order);
    free(sm->depth);
    free(sm->sub);
    free(sm->mask);
    free(sm->g);
    free(sm->free_ids);
    free(sm->inbox);
    free(sm->outbox);
    free(sm->setq);
    free(sm->fl);
    free(sm);
}

size_t sm_pack(uint8_t *out, const uint8_t *route, unsigned nroute, const struct nc_mgmt *m)
{
    uint8_t *b = out + nroute;

    memcpy(out, route, nroute);
    memset(b, 0, NC_MGMT_LEN);
    nc_put_be16(b + offsetof(struct nc_mgmt, type), m->type);
    nc_put_be16(b + offsetof(struct nc_mgmt, src), m->src);
    nc_put_be32(b + offsetof(struct nc_mgmt, tid), m->tid);
    nc_put_be16(b + offsetof(struct nc_mgmt, group), m->group);
    nc_put_be16(b + offsetof(struct nc_mgmt, status), m->status);
    nc_put_be16(b + offsetof(struct nc_mgmt, node), m->node);
    b[offsetof(struct nc_mgmt, nroute)] = m->nroute;
    nc_put_be32(b + offsetof(struct nc_mgmt, ports), m->ports);
    memcpy(b + offsetof(struct nc_mgmt, route), m->route, NC_MG_ROUTE_MAX);
    return nroute + NC_MGMT_LEN;
}

int sm_unpack(const uint8_t *b, size_t len, struct nc_mgmt *m)
{
    if (len < NC_MGMT_LEN)
        return -1;
    memset(m, 0, sizeof *m);
    m->type = nc_get_be16(b + offsetof(struct nc_mgmt, type));
    m->src = nc_get_be16(b + offsetof(struct nc_mgmt, src));
    m->tid = nc_get_be32(b + offsetof(struct nc_mgmt, tid));
    m->group = nc_get_be16(b + offsetof(struct nc_mgmt, group));
    m->status = nc_get_be16(b + offsetof(struct nc_mgmt, status));
    m->node = nc_get_be16(b + offsetof(struct nc_mgmt, node));
    m->nroute = b[offsetof(struct nc_mgmt, nroute)];
    m->ports = nc_get_be32(b + offsetof(struct nc_mgmt, ports));
    memcpy(m->route, b + offsetof(struct nc_mgmt, route), NC_MG_ROUTE_MAX);
    return 0;
}

/* ---- queues ---------------------------------------------------------------- */

static void *grow(void *a, unsigned *cap, size_t size)
{
    unsigned n = *cap ? *cap * 2 : 16;
    void *b = realloc(a, n * size);
    if (!b)
        abort();
    *cap = n;
    return b;
}

/* A packet to send at t (after the work that made it). */
static void out_push(struct sm *sm, uint64_t t, const uint8_t *pkt, size_t len)
{
    if (sm->outhead && sm->outhead == sm->nout)
        sm->outhead = sm->nout = 0;
    if (sm->nout == sm->capout)
        sm->outbox = grow(sm->outbox, &sm->capout, sizeof *sm->outbox);
    sm->outbox[sm->nout].t = t;
    sm->outbox[sm->nout].len = len;
    memcpy(sm->outbox[sm->nout].data, pkt, len);
    sm->nout++;
}

static void setq_push(struct sm *sm, unsigned group, unsigned sw, bool front)
{
    if (sm->nsq == sm->capsq) {
        unsigned old = sm->capsq;
        unsigned *q = malloc((old ? old * 2 : 16) * sizeof *q);
        if (!q)
            abort();
        for (unsigned i = 0; i < sm->nsq; i++)
            q[i] = sm->setq[(sm->sqhead + i) % old];
        free(sm->setq);
        sm->setq = q;
        sm->sqhead = 0;
        sm->capsq = old ? old * 2 : 16;
    }
    if (front) {
        sm->sqhead = (sm->sqhead + sm->capsq - 1) % sm->capsq;
        sm->setq[sm->sqhead] = group << 16 | sw;
    } else {
        sm->setq[(sm->sqhead + sm->nsq) % sm->capsq] = group << 16 | sw;
    }
    sm->nsq++;
}

void sm_receive(struct sm *sm, uint64_t t, const uint8_t *data, size_t len, bool crc_ok)
{
    unsigned i;

    if (!crc_ok || len > PKT_MAX || len < NC_MGMT_LEN) {
        sm->c.bad++;
        return;
    }
    if (sm->ninbox == sm->capinbox)
        sm->inbox = grow(sm->inbox, &sm->capinbox, sizeof *sm->inbox);
    /* in arrival order; equal times in the order the fabric gave them */
    for (i = sm->ninbox; i && sm->inbox[i - 1].t > t; i--)
        ;
    memmove(&sm->inbox[i + 1], &sm->inbox[i], (sm->ninbox - i) * sizeof *sm->inbox);
    sm->inbox[i].t = t;
    sm->inbox[i].len = len;
    memcpy(sm->inbox[i].data, data, len);
    sm->ninbox++;
}

/* ---- groups and trees ------------------------------------------------------ */

/* The group's tree: the smallest part of the spanning tree that joins its
 * members' switches; every switch of it forwards to its members' ports
 * and to its tree links. Switches whose wanted entry changed get an
 * SW_SET queued (one at a time per switch and group: a change made while
 * one is on the wire is sent when it is answered). */
static void recompute(struct sm *sm, unsigned gid)
{
    const struct topo *t = sm->t;
    struct group *g = &sm->g[gid];
    unsigned ns = t->nswitches;

    memset(sm->sub, 0, ns * sizeof *sm->sub);
    memset(sm->mask, 0, ns * sizeof *sm->mask);
    for (unsigned n = 0; n < t->nnodes; n++)
        if (g->member[n]) {
            sm->sub[t->node[n].sw]++;
            sm->mask[t->node[n].sw] |= 1u << t->node[n].port;
        }
    for (unsigned i = ns; i-- > 1;) {
        unsigned s = sm->order[i];
        sm->sub[sm->parent[s]] += sm->sub[s];
    }
    for (unsigned i = 1; i < ns; i++) {
        unsigned s = sm->order[i];
        if (sm->sub[s] && sm->sub[s] < g->nmembers) {
            sm->mask[s] |= 1u << sm->up_port[s];
            sm->mask[sm->parent[s]] |= 1u << sm->down_port[s];
        }
    }
    for (unsigned s = 0; s < ns; s++) {
        struct gsw *w = &g->sw[s];
        w->want = sm->mask[s];
        if (w->state == W_IDLE && w->want != w->have) {
            w->state = W_QUEUED;
            g->busy++;
            setq_push(sm, gid, s, false);
        }
    }
}

/* A group with no member whose every entry is cleared: its id is free. */
static void maybe_free(struct sm *sm, unsigned gid)
{
    struct group *g = &sm->g[gid];

    if (g->state != G_DRAINING || g->busy || g->set)
        return;
    g->state = G_FREE;
    free(g->member);
    free(g->sw);
    g->member = NULL;
    g->sw = NULL;
    sm->free_ids[(sm->free_head + sm->nfree) % sm->p.groups] = gid;
    sm->nfree++;
    sm->c.ids_draining--;
    sm->c.ids_free++;
}

/* The answer to a host: from the entity's node to 'node'. */
static void answer(struct sm *sm, uint64_t t, unsigned node, uint16_t type, uint32_t tid,
                   unsigned group, unsigned status)
{
    uint8_t ports[TOPO_MAX_HOPS], route[TOPO_MAX_HOPS], pkt[PKT_MAX];
    struct nc_mgmt m = { .type = type, .src = (uint16_t)sm->p.node, .tid = tid,
                         .group = (uint16_t)group, .status = (uint16_t)status,
                         .node = (uint16_t)node };
    int h = topo_route(sm->t, sm->p.node, node, ports);

    if (h <= 0)
        return;
    for (int i = 0; i < h; i++)
        route[i] = 0x80 | ports[i];
    out_push(sm, t, pkt, sm_pack(pkt, route, (unsigned)h, &m));
}

static void take_request(struct sm *sm, uint64_t t, const struct nc_mgmt *m)
{
    const struct topo *T = sm->t;
    unsigned gid = m->group, node = m->node, st = NC_MG_OK;
    struct group *g = gid < sm->p.groups ? &sm->g[gid] : NULL;

    sm->c.requests++;
    if (m->src >= T->nnodes) {
        sm->c.bad++;
        return;
    }
    switch (m->type) {
    case NC_PT_MG_CREATE:
        if (!sm->nfree) {
            sm->c.enospc++;
            answer(sm, t, m->src, NC_PT_MG_CREATED, m->tid, 0, NC_MG_ENOSPC);
            return;
        }
        gid = sm->free_ids[sm->free_head];
        sm->free_head = (sm->free_head + 1) % sm->p.groups;
        sm->nfree--;
        sm->c.ids_free--;
        sm->c.ids_live++;
        g = &sm->g[gid];
        g->member = calloc(T->nnodes, 1);
        g->sw = calloc(T->nswitches, sizeof *g->sw);
        if (!g->member || !g->sw)
            abort();
        g->state = G_LIVE;
        g->member[m->src] = 1;
        g->nmembers = 1;
        sm->c.created++;
        recompute(sm, gid);
        answer(sm, t, m->src, NC_PT_MG_CREATED, m->tid, gid, NC_MG_OK);
        return;
    case NC_PT_MG_JOIN:
    case NC_PT_MG_LEAVE: {
        bool join = m->type == NC_PT_MG_JOIN;
        if (!g || g->state != G_LIVE)
            st = NC_MG_ENOENT;
        else if (node >= T->nnodes)
            st = NC_MG_EINVAL;
        else if (join && g->member[node])
            st = NC_MG_EEXIST;
        else if (!join && !g->member[node])
            st = NC_MG_ENOENT;
        if (st) {
            sm->c.refused++;
        } else if (join) {
            g->member[node] = 1;
            g->nmembers++;
            sm->c.joined++;
            recompute(sm, gid);
        } else {
            g->member[node] = 0;
            g->nmembers--;
            sm->c.left++;
            if (!g->nmembers) {
                g->state = G_DRAINING;
                sm->c.ids_live--;
                sm->c.ids_draining++;
            }
            recompute(sm, gid);
            maybe_free(sm, gid);
        }
        answer(sm, t, m->src, join ? NC_PT_MG_JOINED : NC_PT_MG_LEFT, m->tid, gid, st);
        return;
    }
    default:
        sm->c.bad++;
    }
}

static void take_ack(struct sm *sm, const struct nc_mgmt *m)
{
    unsigned i;

    for (i = 0; i < sm->nfl && sm->fl[i].tid != m->tid; i++)
        ;
    if (i == sm->nfl) {
        sm->c.late_acks++;     /* answered after its time-out: sent again already */
        return;
    }
    struct inflight f = sm->fl[i];
    sm->fl[i] = sm->fl[--sm->nfl];
    struct group *g = &sm->g[f.group];
    struct gsw *w = &g->sw[f.sw];
    sm->c.acks++;
    w->state = W_IDLE;
    g->busy--;
    if (m->status == NC_MG_OK) {
        if (!w->have != !f.ports)
            g->set += f.ports ? 1 : -1u;
        w->have = f.ports;
        if (w->want != w->have) {
            w->state = W_QUEUED;
            g->busy++;
            setq_push(sm, f.group, f.sw, false);
        }
    } else {
        sm->c.full++;           /* the entry stays as it was */
    }
    maybe_free(sm, f.group);
}

/* Compose and send the next queued SW_SET (none if its entry is already
 * what the group wants). */
static void send_set(struct sm *sm, uint64_t t)
{
    unsigned e = sm->setq[sm->sqhead], gid = e >> 16, sw = e & 0xFFFF;
    const unsigned home = sm->t->node[sm->p.node].sw;
    struct gsw *w = &sm->g[gid].sw[sw];
    uint8_t ports[TOPO_MAX_HOPS], route[TOPO_MAX_HOPS + 1], pkt[PKT_MAX];
    struct nc_mgmt m = { .type = NC_PT_SW_SET, .src = (uint16_t)sm->p.node,
                         .group = (uint16_t)gid, .ports = w->want };
    unsigned n;

    sm->sqhead = (sm->sqhead + 1) % sm->capsq;
    sm->nsq--;
    if (w->want == w->have) {
        /* changed back while it waited: nothing to write */
        w->state = W_IDLE;
        sm->g[gid].busy--;
        maybe_free(sm, gid);
        return;
    }
    /* there: the entity's switch, the tree to sw, its management port */
    n = tree_path(sm, home, sw, ports);
    for (unsigned i = 0; i < n; i++)
        route[i] = 0x80 | ports[i];
    route[n] = NC_ROUTE_MGMT;
    /* back: the tree to the entity's switch, then its NIC's port */
    m.nroute = (uint8_t)tree_path(sm, sw, home, m.route);
    for (unsigned i = 0; i < m.nroute; i++)
        m.route[i] |= 0x80;
    m.route[m.nroute++] = 0x80 | sm->t->node[sm->p.node].port;
    m.tid = sm->next_tid++;
    w->state = W_INFLIGHT;
    sm->busy = t + sm->p.set_ps;
    if (sm->nfl == sm->capfl)
        sm->fl = grow(sm->fl, &sm->capfl, sizeof *sm->fl);
    sm->fl[sm->nfl++] = (struct inflight){ .tid = m.tid, .group = gid, .sw = sw,
                                           .ports = w->want,
                                           .deadline = sm->busy + sm->p.timeout_ps };
    sm->c.sets++;
    if (sm->nfl > sm->c.peak_outstanding)
        sm->c.peak_outstanding = sm->nfl;
    out_push(sm, sm->busy, pkt, sm_pack(pkt, route, n + 1, &m));
}

/* ---- running ----------------------------------------------------------------- */

static uint64_t at_least(uint64_t t, uint64_t min)
{
    return t > min ? t : min;
}

/* The inbox's next packet: a switch's answer first (it frees the next
 * write of its group and switch), else the oldest request. Under a storm
 * of requests the answers would otherwise wait behind all of them, and
 * every group's later writes with them. */
static unsigned next_in(const struct sm *sm, uint64_t t)
{
    for (unsigned i = 0; i < sm->ninbox && sm->inbox[i].t <= t; i++) {
        struct nc_mgmt m;

        sm_unpack(sm->inbox[i].data, sm->inbox[i].len, &m);
        if (m.type == NC_PT_SW_SET_ACK)
            return i;
    }
    return 0;
}

uint64_t sm_next_event(const struct sm *sm)
{
    uint64_t t = UINT64_MAX;

    if (sm->outhead < sm->nout)
        t = sm->outbox[sm->outhead].t;
    if (sm->ninbox)
        t = at_least(at_least(sm->inbox[0].t, sm->busy), sm->now) < t ?
            at_least(at_least(sm->inbox[0].t, sm->busy), sm->now) : t;
    if (sm->nsq && sm->nfl < sm->p.max_outstanding && at_least(sm->busy, sm->now) < t)
        t = at_least(sm->busy, sm->now);
    for (unsigned i = 0; i < sm->nfl; i++)
        if (at_least(sm->fl[i].deadline, sm->now) < t)
            t = at_least(sm->fl[i].deadline, sm->now);
    return t;
}

void sm_run_until(struct sm *sm, uint64_t until, sm_send_fn send, void *opaque)
{
    uint64_t t;
    bool can_set;

    while ((t = sm_next_event(sm)) <= until) {
        sm->now = t;
        while (sm->outhead < sm->nout && sm->outbox[sm->outhead].t <= t) {
            struct msg *o = &sm->outbox[sm->outhead++];
            send(opaque, o->t, o->data, o->len);
        }
        /* time-outs: the SW_SET goes again, first */
        for (unsigned i = 0; i < sm->nfl;) {
            if (sm->fl[i].deadline > t) {
                i++;
                continue;
            }
            struct inflight f = sm->fl[i];
            sm->fl[i] = sm->fl[--sm->nfl];
            sm->g[f.group].sw[f.sw].state = W_QUEUED;
            setq_push(sm, f.group, f.sw, true);
            sm->c.timeouts++;
        }
        if (sm->busy > t)
            continue;
        can_set = sm->nsq && sm->nfl < sm->p.max_outstanding;
        if (sm->ninbox && sm->inbox[0].t <= t && !(can_set && sm->write_turn)) {
            struct nc_mgmt m;
            unsigned i = next_in(sm, t);
            struct msg in = sm->inbox[i];
            memmove(&sm->inbox[i], &sm->inbox[i + 1], (sm->ninbox - i - 1) * sizeof *sm->inbox);
            sm->ninbox--;
            sm_unpack(in.data, in.len, &m);
            if (m.type == NC_PT_SW_SET_ACK) {
                sm->busy = t + sm->p.answer_ps;
                take_ack(sm, &m);
            } else {
                sm->busy = t + sm->p.request_ps;
                take_request(sm, sm->busy, &m);
            }
            sm->write_turn = true;
        } else if (can_set) {
            send_set(sm, t);
            sm->write_turn = false;
        }
    }
    if (until > sm->now)
        sm->now = until;
}

void sm_get_counters(const struct sm *sm, struct sm_counters *c)
{
    *c = sm->c;
}

unsigned sm_members(const struct sm *sm, unsigned group)
{
    return group < sm->p.groups && sm->g[group].state == G_LIVE ? sm->g[group].nmembers : 0;
}

uint32_t sm_wanted(const struct sm *sm, unsigned group, unsigned sw)
{
    return group < sm->p.groups && sm->g[group].sw && sw < sm->t->nswitches ?
           sm->g[group].sw[sw].want : 0;
}

uint32_t sm_acked(const struct sm *sm, unsigned group, unsigned sw)
{
    return group < sm->p.groups && sm->g[group].sw && sw < sm->t->nswitches ?
           sm->g[group].sw[sw].have : 0;
}
