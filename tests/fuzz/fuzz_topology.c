/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: the topology text parser, then routes between a few
 * node pairs of whatever it accepted. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "topology.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct topo *t;
    char err[300];
    uint8_t r[TOPO_MAX_HOPS];

    if (!t)
        t = topo_new();
    free(t->routes.next);
    free(t->routes.level);
    free(t->routes.dist);
    memset(t, 0, sizeof *t);
    if (topo_parse(t, "fuzz", (const char *)data, size, err, sizeof err) == 0)
        for (unsigned a = 0; a < t->nnodes && a < 8; a++)
            for (unsigned b = 0; b < t->nnodes && b < 8; b++)
                if (topo_route(t, a, b, r) < 1)
                    abort(); /* a finished topology routes every pair */
    return 0;
}
