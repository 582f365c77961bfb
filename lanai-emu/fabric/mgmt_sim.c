/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A fabric, its management entity and the hosts' side (mgmt_sim.h). */
#include "mgmt_sim.h"

#include <stdlib.h>
#include <string.h>

#include "nicoll/nc_mgmt.h"

/* a packet a host sends at t */
struct hsend {
    uint64_t t, seq;
    unsigned node;
    size_t len;
    uint8_t *pkt;
};

struct mgmt_sim {
    const struct topo *t;
    struct fabric *f;
    struct sm *sm;
    struct mgmt_hooks h;
    unsigned sm_node;
    struct hsend *heap;      /* by (t, seq) */
    unsigned nheap, capheap;
    uint64_t seq, now;
};

static unsigned room_always(void *o, unsigned dst)
{
    (void)o;
    (void)dst;
    return 1;
}

static void deliver(void *o, const struct fabric_delivery *d)
{
    struct mgmt_sim *s = o;

    if (!d->delivered)
        return;
    if (d->dst == s->sm_node && d->type >= NC_PT_MGMT_FIRST && d->type <= NC_PT_MGMT_LAST) {
        sm_receive(s->sm, d->tail_ps, d->data, d->len, d->crc_ok);
        return;
    }
    if (d->type == NC_PT_MG_CREATED || d->type == NC_PT_MG_JOINED ||
        d->type == NC_PT_MG_LEFT) {
        struct nc_mgmt m;
        if (d->crc_ok && !sm_unpack(d->data, d->len, &m) && s->h.answer) {
            struct mgmt_answer a = { .t = d->tail_ps, .node = d->dst, .type = m.type,
                                     .status = m.status, .group = m.group, .tid = m.tid };
            s->h.answer(s->h.opaque, &a);
        }
        return;
    }
    if (s->h.deliver)
        s->h.deliver(s->h.opaque, d);
}

struct mgmt_sim *mgmt_sim_new(const struct topo *t, const struct fabric_timing *tm,
                              const struct fabric_switch_mgmt *sw, const struct sm_params *p,
                              uint64_t seed, const struct mgmt_hooks *h,
                              char *err, size_t errlen)
{
    struct mgmt_sim *s = calloc(1, sizeof *s);
    struct fabric_bp bp = { 0 };

    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->t = t;
    s->h = *h;
    s->sm_node = p->node;
    if (!(s->sm = sm_new(t, p, err, errlen))) {
        free(s);
        return NULL;
    }
    if (!(s->f = fabric_new(t, tm, seed)) || (sw && fabric_set_switch_mgmt(s->f, sw))) {
        snprintf(err, errlen, "switch management: entries %u is not in 1..%u",
                 sw ? sw->entries : 0, NC_MG_GROUP_LIMIT - 1);
        mgmt_sim_free(s);
        return NULL;
    }
    if (p->groups > (sw ? sw->entries : FABRIC_MCAST_ENTRIES)) {
        snprintf(err, errlen, "management entity: %u group ids, but a switch's table holds "
                 "%u entries", p->groups, sw ? sw->entries : FABRIC_MCAST_ENTRIES);
        mgmt_sim_free(s);
        return NULL;
    }
    bp.opaque = s;
    bp.room = room_always;
    bp.deliver = deliver;
    fabric_set_backpressure(s->f, &bp);
    return s;
}

void mgmt_sim_free(struct mgmt_sim *s)
{
    if (!s)
        return;
    for (unsigned i = 0; i < s->nheap; i++)
        free(s->heap[i].pkt);
    free(s->heap);
    fabric_free(s->f);
    sm_free(s->sm);
    free(s);
}

struct fabric *mgmt_sim_fabric(struct mgmt_sim *s)
{
    return s->f;
}

struct sm *mgmt_sim_sm(struct mgmt_sim *s)
{
    return s->sm;
}

static bool before(const struct hsend *a, const struct hsend *b)
{
    return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

int mgmt_sim_send(struct mgmt_sim *s, uint64_t t, unsigned node, const uint8_t *pkt,
                  size_t len)
{
    struct hsend e = { .t = t, .seq = ++s->seq, .node = node, .len = len };
    unsigned i;

    if (t < s->now || node >= s->t->nnodes || len > FABRIC_MAX_PACKET)
        return -1;
    if (!(e.pkt = malloc(len ? len : 1)))
        abort();
    memcpy(e.pkt, pkt, len);
    if (s->nheap == s->capheap) {
        s->capheap = s->capheap ? 2 * s->capheap : 64;
        if (!(s->heap = realloc(s->heap, s->capheap * sizeof *s->heap)))
            abort();
    }
    for (i = s->nheap++; i && before(&e, &s->heap[(i - 1) / 2]); i = (i - 1) / 2)
        s->heap[i] = s->heap[(i - 1) / 2];
    s->heap[i] = e;
    return 0;
}

static struct hsend heap_pop(struct mgmt_sim *s)
{
    struct hsend top = s->heap[0], last = s->heap[--s->nheap];
    unsigned i = 0;

    for (;;) {
        unsigned c = 2 * i + 1;
        if (c >= s->nheap)
            break;
        if (c + 1 < s->nheap && before(&s->heap[c + 1], &s->heap[c]))
            c++;
        if (!before(&s->heap[c], &last))
            break;
        s->heap[i] = s->heap[c];
        i = c;
    }
    if (s->nheap)
        s->heap[i] = last;
    return top;
}

int mgmt_sim_request(struct mgmt_sim *s, uint64_t t, unsigned node, uint16_t type,
                     unsigned group, unsigned member, uint32_t tid)
{
    uint8_t ports[TOPO_MAX_HOPS], route[TOPO_MAX_HOPS], pkt[TOPO_MAX_HOPS + NC_MGMT_LEN];
    struct nc_mgmt m = { .type = type, .src = (uint16_t)node, .tid = tid,
                         .group = (uint16_t)group, .node = (uint16_t)member };
    int h;

    if (node >= s->t->nnodes)
        return -1;
    h = topo_route(s->t, node, s->sm_node, ports);
    if (h <= 0)
        return -1;
    for (int i = 0; i < h; i++)
        route[i] = 0x80 | ports[i];
    return mgmt_sim_send(s, t, node, pkt, sm_pack(pkt, route, (unsigned)h, &m));
}

static int sm_send(void *o, uint64_t t, const uint8_t *pkt, size_t len)
{
    struct mgmt_sim *s = o;
    struct fabric_delivery *d = malloc(sizeof *d);
    int rc;

    if (!d)
        abort();
    rc = fabric_send(s->f, s->sm_node, t, pkt, len, d);
    free(d);
    return rc;
}

uint64_t mgmt_sim_run(struct mgmt_sim *s, uint64_t until)
{
    for (;;) {
        uint64_t th = s->nheap ? s->heap[0].t : UINT64_MAX;
        uint64_t tf = fabric_next_event(s->f), ts = sm_next_event(s->sm);
        uint64_t t = th < tf ? th : tf;

        t = t < ts ? t : ts;
        if (t == UINT64_MAX || t > until)
            break;
        s->now = t;
        /* at equal times: the switches' agents, the entity, then the hosts */
        if (tf == t) {
            fabric_run_until(s->f, t);
        } else if (ts == t) {
            sm_run_until(s->sm, t, sm_send, s);
        } else {
            struct hsend e = heap_pop(s);
            struct fabric_delivery *d = malloc(sizeof *d);
            if (!d)
                abort();
            fabric_send(s->f, e.node, e.t, e.pkt, e.len, d);
            free(d);
            free(e.pkt);
        }
    }
    return s->now;
}

int mgmt_sim_idle(const struct mgmt_sim *s)
{
    return !s->nheap && fabric_next_event(s->f) == UINT64_MAX &&
           sm_next_event(s->sm) == UINT64_MAX;
}

const char *mgmt_status_str(unsigned status)
{
    switch (status) {
    case NC_MG_OK: return "ok";
    case NC_MG_ENOSPC: return "no free multicast group id (every id is in use or being cleared)";
    case NC_MG_ENOENT: return "no such multicast group, or the node is not a member";
    case NC_MG_EEXIST: return "the node is a member already";
    case NC_MG_EFULL: return "a switch's multicast table is full";
    case NC_MG_EINVAL: return "a field is out of range";
    default: return "unknown status";
    }
}

size_t mgmt_mcast_packet(unsigned group, uint16_t type, const uint8_t *payload, size_t n,
                         uint8_t *out)
{
    out[0] = (uint8_t)(NC_ROUTE_MCAST | (group >> 8 & 0x3F));
    out[1] = (uint8_t)group;
    out[2] = (uint8_t)(type >> 8);
    out[3] = (uint8_t)type;
    memcpy(out + 4, payload, n);
    return n + 4;
}
