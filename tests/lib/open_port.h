/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * For the libnicoll host programs of the tests: open a port of this host's
 * NIC, or allocate and register a region of DMA-able memory, or end the
 * program (a test that cannot has nothing to check; the suite sees the
 * FAIL line and the exit status).
 */
#ifndef TESTS_OPEN_PORT_H
#define TESTS_OPEN_PORT_H

#include <stdlib.h>

#include "hostif.h"
#include "nicoll.h"

static inline nc_port *open_port(unsigned port)
{
    nc_port *p;
    int rc = nc_open(&p, port);

    if (rc) {
        nc_host_printf("FAIL nc_open(%u): %s\n", port, nc_strerror(rc));
        exit(1);
    }
    return p;
}

static inline uint8_t *region(nc_port *p, size_t len)
{
    uint8_t *b = nc_alloc(p, len);

    if (!b || nc_register(p, b, len)) {
        nc_host_printf("FAIL region of %zu bytes\n", len);
        exit(1);
    }
    return b;
}

#endif
