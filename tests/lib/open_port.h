/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * For the libnicoll host programs of the tests: open a port of this host's
 * NIC or end the program (a test that cannot open its port has nothing to
 * check; the suite sees the FAIL line and the exit status).
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

#endif
