/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * For the libnicoll host programs of the tests: open a port of this host's
 * NIC, or allocate and register a region of DMA-able memory, or end the
 * program with nc_host_exit(1) (a test that cannot has nothing to check;
 * the suite sees the FAIL line and the exit status; exit() would end the
 * whole cluster).
 */
#ifndef TESTS_OPEN_PORT_H
#define TESTS_OPEN_PORT_H

#include "nicoll/hostif.h"
#include "nicoll.h"

static inline nc_port *open_port(unsigned port)
{
    nc_port *p;
    int rc = nc_open(&p, port);

    if (rc) {
        nc_host_printf("FAIL nc_open(%u): %s%s\n", port, nc_strerror(rc),
                       rc == NC_ENOMEM ? " (lanai-run --host-mem)" : "");
        nc_host_exit(1);
    }
    return p;
}

static inline uint8_t *region(nc_port *p, size_t len)
{
    uint8_t *b = nc_alloc(p, len);
    int rc;

    if (!b) {
        nc_host_printf("FAIL region of %zu bytes: out of DMA-able memory "
                       "(lanai-run --host-mem)\n", len);
        nc_host_exit(1);
    }
    if ((rc = nc_register(p, b, len))) {
        nc_host_printf("FAIL region of %zu bytes: nc_register: %s\n", len,
                       nc_strerror(rc));
        nc_host_exit(1);
    }
    return b;
}

#endif
