/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/install/suite's host program, built against the installed
 * libnicoll through pkg-config only (so it includes nothing of the source
 * tree): nodes 0 and 1 play ping-pong, ROUNDS round trips of LEN bytes,
 * every payload checked on both sides; node 0 prints one line.
 *   pingpong [ROUNDS [LEN]]
 */
#include <stdlib.h>
#include <string.h>

#include <nicoll.h>
#include <nicoll/hostif.h>

#define BUF 4096
#define TIMEOUT_NS 100000000ull     /* 100 ms of virtual time per event */

static int failures;
#define FAIL(...) (nc_host_printf("FAIL " __VA_ARGS__), failures++)

static void fill(uint8_t *b, size_t len, unsigned round)
{
    for (size_t i = 0; i < len; i++)
        b[i] = (uint8_t)(round * 31u + i);
}

static int same(const uint8_t *b, size_t len, unsigned round)
{
    for (size_t i = 0; i < len; i++)
        if (b[i] != (uint8_t)(round * 31u + i))
            return 0;
    return 1;
}

static int next(nc_port *p, nc_event *ev)
{
    int rc = nc_wait(p, ev, TIMEOUT_NS);

    if (rc)
        return FAIL("node %u: nc_wait: %s\n", nc_host_node(), nc_strerror(rc)), rc;
    if (ev->status)
        FAIL("node %u: event %d: %s\n", nc_host_node(), ev->type, nc_strerror(ev->status));
    return 0;
}

int main(int argc, char **argv)
{
    unsigned rounds = argc > 1 ? (unsigned)atoi(argv[1]) : 10;
    size_t len = argc > 2 ? (size_t)atol(argv[2]) : 256;
    unsigned me = nc_host_node(), sent = 0, got = 0;
    uint8_t *mem, *tx[2], *rx[2];
    nc_port *p;
    nc_event ev;
    int rc;

    if (me > 1)
        return 0;
    if (len > BUF)
        return FAIL("LEN %zu: at most %d\n", len, BUF), 2;
    if ((rc = nc_open(&p, 0)))
        return FAIL("node %u: nc_open: %s\n", me, nc_strerror(rc)), 1;
    mem = nc_alloc(p, 4 * BUF);
    if (!mem || nc_register(p, mem, 4 * BUF))
        return FAIL("node %u: no registered memory\n", me), 1;
    for (int i = 0; i < 2; i++) {
        tx[i] = mem + i * BUF;
        rx[i] = mem + (2 + i) * BUF;
        nc_provide_recv(p, rx[i], BUF, NULL);
    }
    if (me == 0) {
        for (unsigned r = 0; r < rounds; r++) {
            int need = 2;       /* the ping's SENT and the echo's RECV, in any order */
            fill(tx[0], len, r);
            if ((rc = nc_send(p, 1, 0, tx[0], len, NULL)))
                return FAIL("nc_send: %s\n", nc_strerror(rc)), 1;
            while (need > 0) {
                if (next(p, &ev))
                    return 1;
                if (ev.type == NC_EVENT_RECV) {
                    if (ev.len != len || !same(ev.buf, len, r))
                        FAIL("round %u: the echo differs from the ping\n", r);
                    nc_provide_recv(p, ev.buf, BUF, NULL);
                }
                need--;
            }
        }
        if (!failures)
            nc_host_printf("pingpong %u rounds of %zu bytes: ok\n", rounds, len);
    } else {
        while (got < rounds || sent < rounds) {
            if (next(p, &ev))
                return 1;
            if (ev.type == NC_EVENT_SENT) {
                sent++;
                continue;
            }
            if (ev.len != len || !same(ev.buf, len, got))
                FAIL("round %u: the ping differs\n", got);
            memcpy(tx[got % 2], ev.buf, len);
            nc_provide_recv(p, ev.buf, BUF, NULL);
            if ((rc = nc_send(p, 0, 0, tx[got % 2], len, NULL)))
                return FAIL("echo: nc_send: %s\n", nc_strerror(rc)), 1;
            got++;
        }
    }
    nc_close(p);
    return failures != 0;
}
