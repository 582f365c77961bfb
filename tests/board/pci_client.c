/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An ordinary Linux program on libnicoll's pci backend, as it would run on
 * a host with a real LANai 9 board: it maps the board window (a sysfs
 * resource0 file, here an emulated board's, lanai-run --board-dir) and its
 * DMA memory (NICOLL_PCI_DMA, here the board's dma file), opens port 0 and
 * sends messages to node PEER, port 0, which sends each back
 * (tests/board/host_echo.c); the echo's payload is checked.
 *
 *   pci_client RESOURCE0 BUS_ADDR PEER COUNT SIZE...
 *
 * Prints one line per size and "pci_client: ok N messages" at the end;
 * exit 0 if every echo came back intact, 1 otherwise, 2 on bad usage.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nicoll.h"
#include "nc_backend.h"
#include "../nicoll/pattern.h"

#define MAXLEN 65536u
#define EVENT_TIMEOUT_S 30       /* real seconds: the emulated NICs are slow */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int next_event(nc_port *p, nc_event *ev)
{
    double end = now_s() + EVENT_TIMEOUT_S;
    struct timespec pause = { 0, 20000 };

    while (!nc_poll(p, ev)) {
        if (now_s() > end)
            return NC_ETIMEDOUT;
        nanosleep(&pause, NULL);
    }
    return NC_OK;
}

int main(int argc, char **argv)
{
    char err[256], *end;
    struct nc_backend *be;
    nc_port *p;
    uint8_t *tx, *rx;
    unsigned long long bus;
    unsigned peer, count, total = 0;
    int rc, failures = 0;

    if (argc < 6) {
        fprintf(stderr, "usage: pci_client RESOURCE0 BUS_ADDR PEER COUNT SIZE...\n");
        return 2;
    }
    bus = strtoull(argv[2], &end, 0);
    if (*end && *end != '\n') {
        fprintf(stderr, "pci_client: BUS_ADDR '%s' is not a number\n", argv[2]);
        return 2;
    }
    peer = (unsigned)atoi(argv[3]);
    count = (unsigned)atoi(argv[4]);
    be = nc_backend_pci(argv[1], 4u << 20, bus, err, sizeof err);
    if (!be) {
        fprintf(stderr, "pci_client: %s\n", err);
        return 1;
    }
    if ((rc = nc_open_backend(&p, be, 0))) {
        fprintf(stderr, "pci_client: nc_open: %s (is the firmware loaded? lanai-flash)\n",
                nc_strerror(rc));
        return 1;
    }
    printf("pci_client: port 0 open on node %u of %u\n", nc_node_id(p), nc_node_count(p));
    tx = nc_alloc(p, MAXLEN);
    rx = nc_alloc(p, MAXLEN);
    if (!tx || !rx || nc_register(p, tx, MAXLEN) || nc_register(p, rx, MAXLEN)) {
        fprintf(stderr, "pci_client: cannot allocate and register 2 x %u bytes\n", MAXLEN);
        return 1;
    }
    for (int a = 5; a < argc; a++) {
        size_t len = strtoul(argv[a], NULL, 0);
        unsigned bad = 0;
        double t0 = now_s();

        if (len > MAXLEN) {
            fprintf(stderr, "pci_client: size %zu: at most %u\n", len, MAXLEN);
            return 2;
        }
        for (unsigned i = 0; i < count; i++, total++) {
            nc_event ev;
            int got_sent = 0, got_recv = 0;

            memset(rx, 0xEE, len);
            nc_provide_recv(p, rx, MAXLEN, NULL);
            pat_fill(tx, len, (uint32_t)len, nc_node_id(p), total);
            if ((rc = nc_send(p, peer, 0, tx, len, NULL))) {
                fprintf(stderr, "pci_client: nc_send: %s\n", nc_strerror(rc));
                return 1;
            }
            while (!got_sent || !got_recv) {
                if (next_event(p, &ev)) {
                    printf("FAIL size %zu message %u: no %s within %d s\n", len, i,
                           got_sent ? "echo" : "send completion", EVENT_TIMEOUT_S);
                    return 1;
                }
                if (ev.status) {
                    printf("FAIL size %zu message %u: event %d: %s\n", len, i, ev.type,
                           nc_strerror(ev.status));
                    failures++;
                }
                if (ev.type == NC_EVENT_SENT)
                    got_sent = 1;
                else if (ev.type == NC_EVENT_RECV) {
                    got_recv = 1;
                    bad += ev.len != len || ev.node != peer ||
                           pat_check(rx, len, (uint32_t)len, nc_node_id(p), total);
                }
            }
        }
        printf("pci_client: size %zu: %u echoed, %u bad, %.3f ms per round trip (real time)\n",
               len, count, bad, (now_s() - t0) * 1e3 / count);
        failures += bad;
    }
    nc_close(p);
    if (failures) {
        printf("pci_client: FAIL %d bad of %u messages\n", failures, total);
        return 1;
    }
    printf("pci_client: ok %u messages\n", total);
    return 0;
}
