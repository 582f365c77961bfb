/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target for the fabric's two parsers: fault-rule specifications
 * (as lanai-run --fault passes them) and packets on the wire (route bytes,
 * type, payload; multicast destinations and management ports too) sent
 * through a random 16-switch network. The first input
 * byte picks which; the rest is the spec or the packet.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fabric.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct topo *t;
    static struct fabric_delivery d;
    static uint64_t now;
    static struct fabric *f;
    static const struct fabric_timing tm = { 4000, 5000, 150000 };
    char err[300], spec[300];

    if (!t) {
        t = topo_new();
        if (topo_gen_random(t, 64, 16, 8, 4, 1, err, sizeof err))
            abort();
        f = fabric_new(t, &tm, 1);
    }
    if (size < 1)
        return 0;
    if (data[0] & 1) {
        struct fabric *g = fabric_new(t, &tm, 1);
        size_t n = size - 1 < sizeof spec - 1 ? size - 1 : sizeof spec - 1;
        memcpy(spec, data + 1, n);
        spec[n] = 0;
        fabric_add_fault(g, spec, err, sizeof err);
        fabric_free(g);
    } else {
        unsigned src = data[0] >> 2 & 63;
        now += 1000;
        if (fabric_send(f, src, now, data + 1, size - 1, &d) == 0 && d.delivered &&
            ((d.dst >= t->nnodes && d.dst < FABRIC_SWITCH_SRC) || d.tail_ps < d.head_ps ||
             d.head_ps < now))
            abort(); /* a delivery must make sense */
    }
    return 0;
}
