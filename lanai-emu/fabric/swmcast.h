/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The switches' multicast forwarding tables and the request format of
 * their management agent (docs/fabric.md, "Switch multicast"). Each switch
 * has a table of a bounded number of entries, group -> set of output
 * ports; the fabric reads it to replicate a packet, and only the switch's
 * management agent writes it, on an NC_PT_SW_SET packet
 * (include/nicoll/nc_mgmt.h) that reached its management port.
 */
#ifndef NICOLL_SWMCAST_H
#define NICOLL_SWMCAST_H

#include <stddef.h>
#include <stdint.h>

struct swmcast;

/* Tables for nswitches switches of 'entries' entries each (slots are
 * allocated when a switch gets its first entry). NULL: out of memory. */
struct swmcast *swmcast_new(unsigned nswitches, unsigned entries);
void swmcast_free(struct swmcast *m);
unsigned swmcast_capacity(const struct swmcast *m);

/* The output ports of 'group' at switch sw (bit p: port p); 0: no entry. */
uint32_t swmcast_lookup(const struct swmcast *m, unsigned sw, unsigned group);
/* Entries switch sw holds. */
unsigned swmcast_used(const struct swmcast *m, unsigned sw);

/* A parsed NC_PT_SW_SET. */
struct swmgmt_req {
    uint32_t tid;
    unsigned group;
    uint32_t ports;
    unsigned nroute;
    uint8_t route[20];
};

/* Parse the bytes after the route (struct nc_mgmt, type first) of a
 * packet at the management port of a switch with nports ports. Returns 0
 * when it can be answered (*status NC_MG_OK, or NC_MG_EINVAL for a bad
 * field), -1 when it cannot (too short, not an SW_SET, no valid route
 * back): the agent drops it. */
int swmgmt_parse(const uint8_t *body, size_t len, unsigned nports, struct swmgmt_req *r,
                 unsigned *status);
/* Carry out a parsed request on switch sw's table: NC_MG_OK, or
 * NC_MG_EFULL when a new entry finds the table full. Ports 0 clears. */
unsigned swmgmt_apply(struct swmcast *m, unsigned sw, const struct swmgmt_req *r);
/* The answer (route back, NC_PT_SW_SET_ACK, body) into out (at least
 * 64 bytes); returns its length. */
size_t swmgmt_answer(const struct swmgmt_req *r, unsigned status, uint8_t *out);

#endif
