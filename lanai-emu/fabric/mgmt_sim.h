/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A fabric with its management entity and the hosts' side of it, in
 * virtual time, for programs and tests that need switch multicast without
 * the emulated machine (docs/fabric.md, "The management entity"). The
 * hosts' side is the C API a host program uses: mgmt_sim_request sends a
 * create, join or leave from a node as the NIC would (a management packet
 * to the entity's node); the entity's answer comes back to 'answer'. A
 * multicast packet (mgmt_mcast_packet) goes out with mgmt_sim_send; its
 * copies come to 'deliver'.
 */
#ifndef NICOLL_MGMT_SIM_H
#define NICOLL_MGMT_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "fabric.h"
#include "subnet_mgr.h"

struct mgmt_answer {
    uint64_t t;          /* its tail reached the host's NIC */
    unsigned node;       /* the host it answers */
    uint16_t type;       /* NC_PT_MG_CREATED, _JOINED or _LEFT */
    uint16_t status;     /* NC_MG_* */
    unsigned group;
    uint32_t tid;
};

struct mgmt_hooks {
    void *opaque;
    void (*answer)(void *opaque, const struct mgmt_answer *a);
    /* every other packet a NIC gets (multicast copies included) */
    void (*deliver)(void *opaque, const struct fabric_delivery *d);
};

struct mgmt_sim;

/* NULL with a message. The topology must outlive it. */
struct mgmt_sim *mgmt_sim_new(const struct topo *t, const struct fabric_timing *tm,
                              const struct fabric_switch_mgmt *sw, const struct sm_params *p,
                              uint64_t seed, const struct mgmt_hooks *h,
                              char *err, size_t errlen);
void mgmt_sim_free(struct mgmt_sim *s);
struct fabric *mgmt_sim_fabric(struct mgmt_sim *s);
struct sm *mgmt_sim_sm(struct mgmt_sim *s);

/* At t (not before the simulation's present), host 'node' sends a
 * request of type NC_PT_MG_CREATE, _JOIN or _LEAVE for 'member' of
 * 'group' (both ignored by a create) with transaction id tid; or any
 * packet (route first). 0, or -1 if t is in the past or node is not one. */
int mgmt_sim_request(struct mgmt_sim *s, uint64_t t, unsigned node, uint16_t type,
                     unsigned group, unsigned member, uint32_t tid);
int mgmt_sim_send(struct mgmt_sim *s, uint64_t t, unsigned node, const uint8_t *pkt,
                  size_t len);

/* Run every event up to 'until'; returns the time of the last one, or
 * the present if none ran. */
uint64_t mgmt_sim_run(struct mgmt_sim *s, uint64_t until);
/* Nothing left to happen: no request, answer, SW_SET or packet pending. */
int mgmt_sim_idle(const struct mgmt_sim *s);

/* What an answer's status means, for a message. */
const char *mgmt_status_str(unsigned status);

/* A multicast packet to group: its destination bytes, type, payload. */
size_t mgmt_mcast_packet(unsigned group, uint16_t type, const uint8_t *payload, size_t n,
                         uint8_t *out);

#endif
