/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target for the management packets' parsers: the switches'
 * agents (an SW_SET at a management port), the management entity (any
 * request at its node) and multicast packets, all through a fabric with
 * the entity behind node 0 (lanai-emu/fabric/mgmt_sim.h). The first input
 * byte picks the sender, the rest is the packet as sent (route first).
 * After each input the entity's group ids must still add up.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mgmt_sim.h"
#include "nicoll/nc_mgmt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct topo *t;
    static struct mgmt_sim *s;
    static uint64_t now;
    static const struct fabric_timing tm = { 4000, 5000, 150000 };
    struct sm_counters c;
    char err[300];

    if (!t) {
        struct sm_params p;
        struct mgmt_hooks h = { 0 };
        t = topo_new();
        if (topo_gen_fattree(t, 16, 8, err, sizeof err) || topo_finish(t, err, sizeof err))
            abort();
        sm_default_params(&p, 0);
        p.groups = 64;
        if (!(s = mgmt_sim_new(t, &tm, NULL, &p, 1, &h, err, sizeof err)))
            abort();
        for (unsigned n = 1; n < 16; n++)
            mgmt_sim_request(s, n * 1000000ull, n, n == 1 ? NC_PT_MG_CREATE : NC_PT_MG_JOIN,
                             0, n, n);
    }
    if (size < 1)
        return 0;
    now += 1000000000ull;
    if (mgmt_sim_send(s, now, data[0] % 16, data + 1, size - 1) && size - 1 <= FABRIC_MAX_PACKET)
        abort();
    mgmt_sim_run(s, now + 500000000ull);
    sm_get_counters(mgmt_sim_sm(s), &c);
    if (c.ids_live + c.ids_draining + c.ids_free != 64)
        abort();    /* an id lost or made up */
    return 0;
}
