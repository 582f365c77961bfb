/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * R1 (seed 000 section 7.1, Figure 4): the NIC multisend against host-based
 * multiple unicasts. Node 0 port 0 sends one message to every other node
 * (port 0) and waits until the last destination has acknowledged it; none
 * of them forwards it. The paper's test: "transmit a message to multiple
 * destinations, and wait for an acknowledgment from the last destination".
 *
 *   r1_multisend PATH WARM COUNT SIZE...
 *     PATH   nic   nc_mcast on a one-level group (nc_group_multisend): the
 *                  root's NIC fetches each packet once and sends it to
 *                  every destination; done = the multicast's SENT event,
 *                  which the NIC posts when every destination acknowledged
 *            host  nc_hmultisend: one nc_send per destination, each with
 *                  its own fetch of the data; done = the last of their
 *                  SENT events (every destination's NIC acknowledged)
 *     WARM   untimed iterations per size first (the paper: 20)
 *     COUNT  timed iterations per size, back to back
 *     SIZE   message sizes in bytes, one run each
 *
 * Node 0 prints per size
 *   r1 path=P dests=D size=S count=C avg_us=X half1_us=Y half2_us=Z oneway_us=W
 * the average latency over all COUNT iterations and over each half (the
 * average is stable when the halves agree), and the one-way time: from
 * the root's post until the first destination's host has the message
 * (its RECV event), averaged over the same iterations (the emulator's
 * hosts share one virtual clock; the first destination sends its sum of
 * receive times to the root after each size). Destinations take each
 * message from a receive buffer and give the buffer straight back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicoll/hostif.h"
#include "nicoll.h"

#define GROUP 0x52310001u           /* "R1", 1 */
#define RECV_BUFS 16u
#define MAX_SIZES 32
#define EVENT_NS 100000000ull       /* 100 ms: a lost message fails the run, never hangs it */

static int fail(const char *what, int rc)
{
    nc_host_printf("FAIL r1 node %u: %s: %s\n", nc_host_node(), what, nc_strerror(rc));
    return 1;
}

/* One multisend of len bytes from buf, until the last destination acked. */
static int once(nc_hmc *h, bool nic, const nc_member *dests, unsigned n, const void *buf,
                size_t len)
{
    int rc;

    if (!nic)
        return nc_hmultisend(h, dests, n, buf, len);
    if ((rc = nc_hmc_mcast(h, GROUP, buf, len)))
        return rc;
    return nc_hmc_flush(h);
}

int main(int argc, char **argv)
{
    unsigned me = nc_host_node(), nn = nc_host_nodes(), nsizes = 0;
    size_t size[MAX_SIZES], maxlen = 0;
    nc_member dests[NC_GROUP_MAX_DESTS], root = { 0, 0 };
    bool nic;
    nc_port *p;
    nc_hmc h;
    int rc;

    if (argc < 5 || (strcmp(argv[1], "nic") && strcmp(argv[1], "host"))) {
        nc_host_printf("FAIL usage: r1_multisend nic|host WARM COUNT SIZE...\n");
        return 2;
    }
    nic = !strcmp(argv[1], "nic");
    unsigned warm = (unsigned)atoi(argv[2]), count = (unsigned)atoi(argv[3]);
    for (int i = 4; i < argc && nsizes < MAX_SIZES; i++) {
        char *end;
        unsigned long s = strtoul(argv[i], &end, 10);

        if (*end || s > 65536) {
            nc_host_printf("FAIL r1: SIZE '%s' is not a byte count of 0..65536\n", argv[i]);
            return 2;
        }
        size[nsizes++] = s;
        if (s > maxlen)
            maxlen = s;
    }
    if (count < 2 || nn < 2 || nn - 1 > NC_GROUP_MAX_DESTS) {
        nc_host_printf("FAIL r1: COUNT must be at least 2 (got %u), nodes 2..%u (got %u)\n", count,
                       NC_GROUP_MAX_DESTS + 1, nn);
        return 2;
    }
    for (unsigned i = 1; i < nn; i++)
        dests[i - 1] = (nc_member){ (uint16_t)i, 0 };
    if ((rc = nc_open(&p, 0)))
        return fail("nc_open", rc);
    /* the receive buffers also take node 1's 8-byte sum of receive times */
    if ((rc = nc_hmc_init(&h, p, RECV_BUFS, maxlen > sizeof(uint64_t) ? maxlen : sizeof(uint64_t))))
        return fail("nc_hmc_init", rc);
    h.timeout_ns = EVENT_NS;
    if (nic && (rc = nc_group_multisend(p, GROUP, root, dests, nn - 1)))
        return fail("nc_group_multisend", rc);

    uint8_t *buf = NULL;
    uint64_t *sum = NULL;       /* node 1: its receive times' sum, sent to the root */
    if (me == 1) {
        if (!(sum = nc_alloc(p, sizeof *sum)))
            return fail("nc_alloc", NC_ENOMEM);
        if ((rc = nc_register(p, sum, sizeof *sum)))
            return fail("nc_register", rc);
    }
    if (me == 0) {
        buf = nc_alloc(p, maxlen ? maxlen : 1);
        if (!buf)
            return fail("nc_alloc", NC_ENOMEM);
        if ((rc = nc_register(p, buf, maxlen ? maxlen : 1)))
            return fail("nc_register", rc);
        memset(buf, 0x5A, maxlen);
    }
    for (unsigned s = 0; s < nsizes; s++) {
        uint64_t t0 = 0, th = 0, t1, posted = 0, received = 0;
        const nc_member first = { 1, 0 };

        for (unsigned i = 0; i < warm + count; i++) {
            if (me != 0) {
                nc_event ev;

                if ((rc = nc_hmc_recv(&h, root, &ev)) || (rc = nc_hmc_release(&h, ev.buf)))
                    return fail("receive", rc);
                if (ev.len != size[s]) {
                    nc_host_printf("FAIL r1 node %u: got %zu bytes, want %zu\n", me, ev.len,
                                   size[s]);
                    return 1;
                }
                if (i >= warm)
                    received += nc_host_now_ns();
                continue;
            }
            if (i == warm)
                t0 = nc_host_now_ns();
            if (i == warm + count / 2)
                th = nc_host_now_ns();
            if (i >= warm)
                posted += nc_host_now_ns();
            if ((rc = once(&h, nic, dests, nn - 1, buf, size[s])))
                return fail(nic ? "multisend (NIC)" : "multiple unicasts (host)", rc);
        }
        if (me == 1) {
            /* the first destination's receive times to the root (not timed) */
            *sum = received;
            if ((rc = nc_hmultisend(&h, &root, 1, sum, sizeof *sum)))
                return fail("sending the receive times", rc);
        }
        if (me == 0) {
            unsigned c1 = count / 2, c2 = count - count / 2;
            nc_event ev;

            t1 = nc_host_now_ns();
            if ((rc = nc_hmc_recv(&h, first, &ev)))
                return fail("receiving the first destination's times", rc);
            if (ev.len != sizeof received)
                return fail("the first destination's times", NC_EINVAL);
            memcpy(&received, ev.buf, sizeof received);
            if ((rc = nc_hmc_release(&h, ev.buf)))
                return fail("receive", rc);
            nc_host_printf("r1 path=%s dests=%u size=%zu count=%u avg_us=%.3f half1_us=%.3f "
                           "half2_us=%.3f oneway_us=%.3f\n", argv[1], nn - 1, size[s], count,
                           (double)(t1 - t0) / count / 1000, (double)(th - t0) / c1 / 1000,
                           (double)(t1 - th) / c2 / 1000,
                           (double)(int64_t)(received - posted) / count / 1000);
        }
    }
    nc_hmc_fini(&h);
    nc_close(p);
    return 0;
}
