/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host program of the emulated peers in tests/board/suite: every node but
 * the outside host's sends back each message that reaches its port 0, to
 * the sender, until it has echoed COUNT (argument 1) messages. A node
 * named by argument 2 flips one bit of every echo it sends (a negative
 * control: the outside program must see the damage).
 * The outside host (tests/board/pci_client.c) comes when it comes: waits
 * here have no deadline of their own (the suite bounds the run).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicoll/hostif.h"
#include "nicoll.h"
#include "../lib/open_port.h"

#define MAXLEN 65536u

int main(int argc, char **argv)
{
    unsigned count = argc > 1 ? (unsigned)atoi(argv[1]) : 1, echoed = 0, pending = 0;
    int corrupter = argc > 2 ? atoi(argv[2]) : -1;
    nc_port *p = open_port(0);
    uint8_t *rx[2] = { region(p, MAXLEN), region(p, MAXLEN) }, *tx = region(p, MAXLEN);
    nc_event ev, early = { 0 };
    int rc;

    nc_provide_recv(p, rx[0], MAXLEN, rx[0]);
    nc_provide_recv(p, rx[1], MAXLEN, rx[1]);
    nc_host_printf("echo: node %u ready for %u messages%s\n", nc_node_id(p), count,
                   (int)nc_node_id(p) == corrupter ? ", damaging each echo" : "");
    while (echoed < count || pending) {
        while (!nc_poll(p, &ev))
            ;
        if (ev.status) {
            nc_host_printf("FAIL echo: event %d: %s\n", ev.type, nc_strerror(ev.status));
            return 1;
        }
        if (ev.type == NC_EVENT_SENT) {
            pending = 0;
            if (!early.buf)
                continue;
            ev = early;              /* the next message came before this SENT */
            early.buf = NULL;
        } else if (ev.type != NC_EVENT_RECV) {
            continue;
        } else if (pending) {
            /* the sender's ACK of our echo may ride on its next message, so
             * that message's RECV comes before our SENT: echo it then */
            if (early.buf) {
                nc_host_printf("FAIL echo: two messages before one echo completed\n");
                return 1;
            }
            early = ev;
            continue;
        }
        memcpy(tx, ev.buf, ev.len);      /* tx is free: one echo in flight */
        if ((int)nc_node_id(p) == corrupter && ev.len)
            tx[ev.len - 1] ^= 0x10;
        nc_provide_recv(p, ev.buf, MAXLEN, ev.buf);
        if ((rc = nc_send(p, ev.node, ev.port, tx, ev.len, NULL))) {
            nc_host_printf("FAIL echo: nc_send: %s\n", nc_strerror(rc));
            return 1;
        }
        pending = 1;
        echoed++;
    }
    nc_host_printf("echo: node %u echoed %u messages\n", nc_node_id(p), echoed);
    nc_close(p);
    return 0;
}
