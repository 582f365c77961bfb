/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The fabric's management entity, after InfiniBand's subnet manager
 * (OpenSM): a process behind one NIC of the cluster that takes create,
 * join and leave requests as management packets (include/nicoll/nc_mgmt.h),
 * keeps each multicast group's members, computes the group's tree over the
 * switches and writes the switches' multicast tables with NC_PT_SW_SET
 * packets to their management ports, at most max_outstanding at a time,
 * each retried after the transaction time-out until its switch answers.
 * docs/fabric.md, "The management entity", says why it lives on a node and
 * how group ids are accounted.
 *
 * Plain C, driven in virtual time: sm_receive gives it what the fabric
 * delivered to its node, sm_run_until lets it work and send. mgmt_sim.h
 * runs it with a fabric and the hosts' side.
 */
#ifndef NICOLL_SUBNET_MGR_H
#define NICOLL_SUBNET_MGR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "topology.h"

struct sm_params {
    unsigned node;             /* the NIC the entity runs behind */
    unsigned groups;           /* group ids it hands out, 0..groups-1 */
    unsigned max_outstanding;  /* SW_SETs on the wire at once (OpenSM's maxMADs) */
    uint64_t timeout_ps;       /* transaction time-out: an SW_SET unanswered this long
                                  is sent again */
    uint64_t request_ps;       /* work per create, join or leave */
    uint64_t set_ps;           /* work per SW_SET composed and sent */
    uint64_t answer_ps;        /* work per SW_SET_ACK taken */
};

/* Defaults (docs/fabric.md, "The management entity": sources and decisions). */
#define SM_GROUPS          1024u
#define SM_MAX_OUTSTANDING 4u
#define SM_TIMEOUT_PS      (10ull * 1000 * 1000 * 1000)
#define SM_REQUEST_PS      (20ull * 1000 * 1000)
#define SM_SET_PS          (5ull * 1000 * 1000)
#define SM_ANSWER_PS       (2ull * 1000 * 1000)
void sm_default_params(struct sm_params *p, unsigned node);

struct sm_counters {
    uint64_t requests, created, joined, left;
    uint64_t enospc;           /* creates refused: no free group id */
    uint64_t refused;          /* joins and leaves refused (no group, not a member, ...) */
    uint64_t bad;              /* packets it could not read */
    uint64_t sets, acks, timeouts, late_acks, full;
    unsigned peak_outstanding;  /* most SW_SETs on the wire at once */
    unsigned ids_live, ids_draining, ids_free;
};

struct sm;

/* NULL with a message when the parameters do not fit the topology. The
 * topology must outlive it. */
struct sm *sm_new(const struct topo *t, const struct sm_params *p, char *err, size_t errlen);
void sm_free(struct sm *sm);

/* The fabric delivered data (the bytes after the route) to the entity's
 * node, its tail at t. */
void sm_receive(struct sm *sm, uint64_t t, const uint8_t *data, size_t len, bool crc_ok);

/* When it next has something to do (UINT64_MAX: nothing); work up to t,
 * each packet it sends (route first) going to send at its time. */
uint64_t sm_next_event(const struct sm *sm);
typedef int (*sm_send_fn)(void *opaque, uint64_t t, const uint8_t *pkt, size_t len);
void sm_run_until(struct sm *sm, uint64_t t, sm_send_fn send, void *opaque);

void sm_get_counters(const struct sm *sm, struct sm_counters *c);
/* Observation for tests: members of a group (0: not live), and the ports
 * it wants at switch sw and the ones that switch has acknowledged. */
unsigned sm_members(const struct sm *sm, unsigned group);
uint32_t sm_wanted(const struct sm *sm, unsigned group, unsigned sw);
uint32_t sm_acked(const struct sm *sm, unsigned group, unsigned sw);

/* A management packet: the route bytes, then struct nc_mgmt big-endian.
 * Returns its length (route + 40). */
struct nc_mgmt;
size_t sm_pack(uint8_t *out, const uint8_t *route, unsigned nroute, const struct nc_mgmt *m);
/* Reads struct nc_mgmt from the bytes after the route: 0, or -1 if short. */
int sm_unpack(const uint8_t *data, size_t len, struct nc_mgmt *m);

#endif
