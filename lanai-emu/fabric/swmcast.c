/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The switches' multicast tables and their management agent's requests
 * (swmcast.h; docs/fabric.md, "Switch multicast"). */
#include "swmcast.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "nicoll/nc_endian.h"
#include "nicoll/nc_mgmt.h"

struct sw_table {
    uint16_t *slot_of;      /* group -> slot + 1 (0: no entry) */
    uint16_t *group_of;     /* slot -> group */
    uint32_t *ports;        /* slot -> output ports */
    unsigned used;
};

struct swmcast {
    unsigned nswitches, entries;
    struct sw_table *sw;
};

struct swmcast *swmcast_new(unsigned nswitches, unsigned entries)
{
    struct swmcast *m = calloc(1, sizeof *m);

    if (!m || !(m->sw = calloc(nswitches ? nswitches : 1, sizeof *m->sw))) {
        free(m);
        return NULL;
    }
    m->nswitches = nswitches;
    m->entries = entries > NC_MG_GROUP_LIMIT ? NC_MG_GROUP_LIMIT : entries;
    return m;
}

void swmcast_free(struct swmcast *m)
{
    if (!m)
        return;
    for (unsigned s = 0; s < m->nswitches; s++) {
        free(m->sw[s].slot_of);
        free(m->sw[s].group_of);
        free(m->sw[s].ports);
    }
    free(m->sw);
    free(m);
}

unsigned swmcast_capacity(const struct swmcast *m)
{
    return m->entries;
}

uint32_t swmcast_lookup(const struct swmcast *m, unsigned sw, unsigned group)
{
    const struct sw_table *t;

    if (sw >= m->nswitches || group >= NC_MG_GROUP_LIMIT)
        return 0;
    t = &m->sw[sw];
    return t->slot_of && t->slot_of[group] ? t->ports[t->slot_of[group] - 1] : 0;
}

unsigned swmcast_used(const struct swmcast *m, unsigned sw)
{
    return sw < m->nswitches ? m->sw[sw].used : 0;
}

int swmgmt_parse(const uint8_t *body, size_t len, unsigned nports, struct swmgmt_req *r,
                 unsigned *status)
{
    memset(r, 0, sizeof *r);
    if (len < NC_MGMT_LEN || nc_get_be16(body) != NC_PT_SW_SET)
        return -1;
    r->tid = nc_get_be32(body + offsetof(struct nc_mgmt, tid));
    r->group = nc_get_be16(body + offsetof(struct nc_mgmt, group));
    r->ports = nc_get_be32(body + offsetof(struct nc_mgmt, ports));
    r->nroute = body[offsetof(struct nc_mgmt, nroute)];
    if (!r->nroute || r->nroute > NC_MG_ROUTE_MAX)
        return -1;
    for (unsigned i = 0; i < r->nroute; i++) {
        uint8_t b = body[offsetof(struct nc_mgmt, route) + i];
        if ((b & 0xC0) != 0x80 || b == NC_ROUTE_MGMT)
            return -1;          /* only unicast port bytes lead back */
        r->route[i] = b;
    }
    *status = NC_MG_OK;
    if (r->group >= NC_MG_GROUP_LIMIT || (nports < 32 && (r->ports >> nports)))
        *status = NC_MG_EINVAL;
    return 0;
}

unsigned swmgmt_apply(struct swmcast *m, unsigned sw, const struct swmgmt_req *r)
{
    struct sw_table *t = &m->sw[sw];
    unsigned slot;

    if (!t->slot_of) {
        if (!r->ports)
            return NC_MG_OK;
        t->slot_of = calloc(NC_MG_GROUP_LIMIT, sizeof *t->slot_of);
        t->group_of = calloc(m->entries ? m->entries : 1, sizeof *t->group_of);
        t->ports = calloc(m->entries ? m->entries : 1, sizeof *t->ports);
        if (!t->slot_of || !t->group_of || !t->ports)
            abort();
    }
    slot = t->slot_of[r->group];
    if (slot) {
        if (r->ports) {
            t->ports[slot - 1] = r->ports;
            return NC_MG_OK;
        }
        /* clear: the last slot takes the freed one's place */
        unsigned last = t->used - 1;
        t->group_of[slot - 1] = t->group_of[last];
        t->ports[slot - 1] = t->ports[last];
        t->slot_of[t->group_of[slot - 1]] = (uint16_t)slot;
        t->slot_of[r->group] = 0;
        t->used--;
        return NC_MG_OK;
    }
    if (!r->ports)
        return NC_MG_OK;
    if (t->used == m->entries)
        return NC_MG_EFULL;
    t->group_of[t->used] = (uint16_t)r->group;
    t->ports[t->used] = r->ports;
    t->slot_of[r->group] = (uint16_t)++t->used;
    return NC_MG_OK;
}

size_t swmgmt_answer(const struct swmgmt_req *r, unsigned status, uint8_t *out)
{
    size_t n = r->nroute;
    uint8_t *b;

    memcpy(out, r->route, n);
    b = out + n;
    memset(b, 0, NC_MGMT_LEN);
    nc_put_be16(b + offsetof(struct nc_mgmt, type), NC_PT_SW_SET_ACK);
    nc_put_be16(b + offsetof(struct nc_mgmt, src), 0xFFFF);   /* a switch */
    nc_put_be32(b + offsetof(struct nc_mgmt, tid), r->tid);
    nc_put_be16(b + offsetof(struct nc_mgmt, group), (uint16_t)r->group);
    nc_put_be16(b + offsetof(struct nc_mgmt, status), (uint16_t)status);
    nc_put_be32(b + offsetof(struct nc_mgmt, ports), r->ports);
    return n + NC_MGMT_LEN;
}
