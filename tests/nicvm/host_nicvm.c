/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host program of tests/nicvm/fw-suite, on every node of the emulated
 * cluster with the MCP's NICVM plug-in (firmware/coll/nicvm.c): modules
 * uploaded through libnicoll (host/lib/nc_nicvm.c), run by the NICs.
 *
 *   tree MODULE COUNT SIZE DEAD WATCH
 *     Every node but DEAD (-1: none) adds MODULE (a file) as "tree" on
 *     port 1, rank = node, and tells node 0 it is ready; node 0 delegates
 *     COUNT messages of SIZE bytes to its module (the root), which sends
 *     them down the tree from NIC to NIC. Every other node checks what its
 *     NIC delivered: each message once, in order, intact. Node WATCH also
 *     lists its module at each delivery: its sends must all be done by
 *     then (the host DMA after the sends). Each node prints
 *       nicvm node=N recv=R bad=B errors=E runs=U stops=S sends=K senderr=F deferred=D
 *     and node 0 one line per delegation's answer.
 *   sandbox DIR
 *     Two nodes: ownership, budgets, malformed images, a send outside the
 *     module's table (DIR: the module directory). Prints one
 *       check NAME PASS|FAIL detail
 *     line per case.
 *   pingpong KIND COUNT SIZE
 *     Two nodes: COUNT round trips of SIZE bytes (every send by DMA, as
 *     GM's): ordinary messages (KIND msg), NICVM packets through the no-op
 *     module of seed 004's echo test, each host answering (KIND noop), or
 *     the NIC's own echo (KIND echo: fwmod/echo.nvm at rank 1 sends the
 *     packet back from the NIC); node 0 prints the mean round trip.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicoll/hostif.h"
#include "nicoll.h"
#include "../nicoll/pattern.h"
#include "../lib/open_port.h"

#define MAXLEN 4096u
#define RBUFS 16u
#define VPORT 1u                    /* the modules' port */
#define QUIET_NS 3000000ull         /* 3 ms: nothing more may arrive */
#define DEADLINE_NS 200000000ull    /* 200 ms of virtual time without progress */
#define READY 0x52454459u
#define MODS 8u                    /* the NIC's module slots */

static char src[16384];

static size_t load(const char *path)
{
    FILE *f = fopen(path, "r");
    size_t n;

    if (!f) {
        nc_host_printf("FAIL cannot open %s\n", path);
        nc_host_exit(1);
    }
    n = fread(src, 1, sizeof src, f);
    fclose(f);
    return n;
}

static void add_or_die(nc_port *p, const char *name, const char *path, unsigned size, unsigned rank)
{
    nc_member ranks[64];
    nc_nicvm_verdict v;
    size_t n = load(path);
    int rc;

    for (unsigned i = 0; i < size; i++)
        ranks[i] = (nc_member){ .node = (uint16_t)i, .port = VPORT };
    if ((rc = nc_nicvm_add(p, name, src, n, ranks, size, rank, &v)) != NC_OK) {
        nc_host_printf("FAIL node %u: add %s: %s %s\n", nc_host_node(), path, nc_strerror(rc), v.error);
        nc_host_exit(1);
    }
}

/* The next event (interrupt-driven), or 0 after ns without one. */
static int next(nc_port *p, nc_event *ev, uint64_t ns)
{
    return nc_wait(p, ev, ns) == NC_OK;
}

static nc_nicvm_info mod_info(nc_port *p, const char *name, nc_nicvm_counters *ctr)
{
    nc_nicvm_info m[MODS], none;
    unsigned n = 0;

    memset(&none, 0, sizeof none);
    if (nc_nicvm_list(p, m, MODS, &n, ctr) != NC_OK)
        return none;
    for (unsigned i = 0; i < n; i++)
        if (!strcmp(m[i].name, name))
            return m[i];
    return none;
}

static int tree(int argc, char **argv)
{
    unsigned me = nc_host_node(), nn = nc_host_nodes();
    unsigned count, size, recv = 0, bad = 0, errors = 0, deferred_bad = 0;
    int dead, watch;
    nc_port *p;
    uint8_t *tx, *rx;
    nc_event ev;

    if (argc != 7) {
        nc_host_printf("FAIL usage: tree MODULE COUNT SIZE DEAD WATCH\n");
        return 2;
    }
    count = (unsigned)atoi(argv[3]);
    size = (unsigned)atoi(argv[4]);
    dead = atoi(argv[5]);
    watch = atoi(argv[6]);
    if ((int)me == dead) {
        nc_host_compute_ns(QUIET_NS);      /* its NIC is cut off: nothing to do */
        return 0;
    }
    p = open_port(VPORT);
    nc_set_send_timeout(p, 2000);
    tx = region(p, (size_t)MAXLEN * (count + 1));
    rx = region(p, (size_t)MAXLEN * RBUFS);
    for (unsigned i = 0; i < RBUFS; i++)
        nc_provide_recv(p, rx + (size_t)MAXLEN * i, MAXLEN, NULL);
    add_or_die(p, "tree", argv[2], nn, me);

    if (me != 0) {
        uint32_t r = READY;

        memcpy(tx, &r, 4);
        if (nc_send(p, 0, VPORT, tx, 4, NULL) || !next(p, &ev, DEADLINE_NS) ||
            ev.type != NC_EVENT_SENT || ev.status) {
            nc_host_printf("FAIL node %u: ready not sent\n", me);
            return 1;
        }
        while (recv < count && next(p, &ev, DEADLINE_NS)) {
            if (ev.type != NC_EVENT_RECV || ev.status) {
                nc_host_printf("FAIL node %u: event %d status %s\n", me, ev.type, nc_strerror(ev.status));
                errors++;
                continue;
            }
            if (ev.len != size || pat_check(ev.buf, size, size, 0, recv))
                bad++;
            recv++;
            if ((int)me == watch) {
                nc_nicvm_info m = mod_info(p, "tree", NULL);

                /* at this NIC's delivery, every send of the packets so far is done */
                if (m.sends + m.senderr < 2 * recv)
                    deferred_bad++;
            }
            nc_provide_recv(p, ev.buf, MAXLEN, NULL);
        }
        /* a copy more would come now */
        while (next(p, &ev, QUIET_NS))
            if (ev.type == NC_EVENT_RECV) {
                recv++;
                nc_provide_recv(p, ev.buf, MAXLEN, NULL);
            }
    } else {
        unsigned ready = 0, answered = 0;

        while (ready + 1 + (dead >= 0) < nn && next(p, &ev, DEADLINE_NS))
            if (ev.type == NC_EVENT_RECV && ev.len == 4) {
                ready++;
                nc_provide_recv(p, ev.buf, MAXLEN, NULL);
            }
        for (unsigned i = 0; i < count; i++) {
            uint8_t *b = tx + (size_t)MAXLEN * (i + 1);
            int rc;

            pat_fill(b, size, size, 0, i);
            if ((rc = nc_nicvm_delegate(p, "tree", b, size, (void *)(uintptr_t)(i + 1))) != NC_OK) {
                nc_host_printf("FAIL delegate %u: %s\n", i, nc_strerror(rc));
                errors++;
            }
        }
        while (answered < count && next(p, &ev, DEADLINE_NS)) {
            if (ev.type != NC_EVENT_NICVM) {
                errors++;
                continue;
            }
            nc_host_printf("delegated %u status=%s acked=%zu failed=%u result=%u\n",
                           (unsigned)(uintptr_t)ev.ctx, ev.status ? nc_strerror(ev.status) : "ok",
                           ev.len, ev.node, ev.port);
            if (ev.status)
                errors++;
            answered++;
        }
        if (answered < count)
            errors++;
        while (next(p, &ev, QUIET_NS))
            if (ev.type == NC_EVENT_RECV)
                recv++;     /* the root consumes its packets */
    }
    nc_nicvm_info m = mod_info(p, "tree", NULL);

    nc_host_printf("nicvm node=%u recv=%u bad=%u errors=%u runs=%u stops=%u sends=%u senderr=%u "
                   "deferred=%s\n", me, recv, bad, errors, m.runs, m.stops, m.sends, m.senderr,
                   deferred_bad ? "BAD" : "ok");
    nc_close(p);
    return 0;
}

static void check(const char *name, int pass, const char *fmt, int a, int b)
{
    nc_host_printf("check %s %s ", name, pass ? "PASS" : "FAIL");
    nc_host_printf(fmt, a, b);
    nc_host_printf("\n");
}

static int sandbox(int argc, char **argv)
{
    unsigned me = nc_host_node();
    char path[256];
    nc_event ev;
    int rc;

    if (argc != 3 || nc_host_nodes() != 2) {
        nc_host_printf("FAIL usage: sandbox DIR (on 2 nodes)\n");
        return 2;
    }
    if (me == 1) {
        nc_port *p = open_port(VPORT);
        uint8_t *b = region(p, 2 * MAXLEN);
        uint32_t r = READY;

        for (unsigned i = 0; i < 4; i++)
            nc_provide_recv(p, b + MAXLEN + 512 * i, 512, NULL);
        snprintf(path, sizeof path, "%s/../fwmod/forge.nvm", argv[2]);
        add_or_die(p, "forge", path, 2, 1);
        pat_fill(b, 64, 64, 0, 0);
        rc = nc_nicvm_delegate(p, "forge", b, 64, NULL);
        unsigned got_answer = 0, got_recv = 0;

        while ((!got_answer || !got_recv) && next(p, &ev, DEADLINE_NS)) {
            if (ev.type == NC_EVENT_NICVM)
                got_answer = ev.status == NC_EINVAL && ev.len == 0 ? 1 : 2;
            if (ev.type == NC_EVENT_RECV)
                got_recv = ev.status == NC_EINVAL && ev.len == 64 ? 1 : 2;
        }
        nc_nicvm_info m = mod_info(p, "forge", NULL);

        check("rank-outside-stopped", rc == NC_OK && got_answer == 1 && m.runs == 1 && m.stops == 1,
              "(the delegation fails, %d activation(s) stopped, no send)", (int)m.stops, 0);
        check("rank-outside-to-host", got_recv == 1,
              "(the packet reaches the local host with status EINVAL: %d)", (int)got_recv, 0);
        memcpy(b, &r, 4);
        if (nc_send(p, 0, VPORT, b, 4, NULL) || !next(p, &ev, DEADLINE_NS) || ev.type != NC_EVENT_SENT)
            nc_host_printf("FAIL node 1: done not sent\n");
        nc_close(p);
        return 0;
    }

    nc_port *p1 = open_port(VPORT), *p2 = open_port(2), *p0 = open_port(0);
    uint8_t *b = region(p1, MAXLEN);
    nc_nicvm_verdict v;
    nc_nicvm_counters ctr;
    nc_member ranks[2] = { { 0, VPORT }, { 1, VPORT } };
    size_t n;

    nc_provide_recv(p1, b, MAXLEN, NULL);
    snprintf(path, sizeof path, "%s/bcast.nvm", argv[2]);
    n = load(path);
    rc = nc_nicvm_add(p1, "bcast", src, n, ranks, 2, 0, &v);
    check("add", rc == NC_OK && v.instructions == 40 && v.sends == 2,
          "(bcast.nvm: worst case %d VM instructions, %d sends)", (int)v.instructions, (int)v.sends);
    rc = nc_nicvm_purge(p2, "bcast");
    check("purge-not-owner", rc == NC_EPERM, "(purge from another port: %d, NC_EPERM is %d)", rc, NC_EPERM);
    {
        nc_member r2[2] = { { 0, 2 }, { 1, VPORT } };

        rc = nc_nicvm_add(p2, "bcast", src, n, r2, 2, 0, &v);
        check("replace-not-owner", rc == NC_EPERM, "(replace from another port: %d, NC_EPERM is %d)",
              rc, NC_EPERM);
    }
    rc = nc_nicvm_add(p1, "wrongport", src, n, (nc_member[]){ { 0, 2 }, { 1, VPORT } }, 2, 0, &v);
    check("rank-port-is-uploader", rc == NC_EINVAL,
          "(a table whose own rank is another port's: %d, NC_EINVAL is %d)", rc, NC_EINVAL);

    snprintf(path, sizeof path, "%s/../bad/verify-budget.nvm", argv[2]);
    n = load(path);
    rc = nc_nicvm_add(p1, "big", src, n, ranks, 2, 0, &v);
    check("over-budget", rc == NC_EREJECTED && v.reason == 12 && v.value == 726,
          "(a bound of 726 > 256: refused by the NIC, reason %d, value %d)", (int)v.reason, (int)v.value);

    snprintf(path, sizeof path, "%s/bcast.nvm", argv[2]);
    n = load(path);
    rc = nc_nicvm_set_budget(p2, VPORT, 30);
    check("budget-not-privileged", rc == NC_EPERM, "(a budget set from port 2: %d)", rc, 0);
    rc = nc_nicvm_set_budget(p0, VPORT, 30);
    int rc2 = nc_nicvm_add(p1, "bc30", src, n, ranks, 2, 0, &v);
    check("port-budget", rc == NC_OK && rc2 == NC_EREJECTED && v.reason == 12 && v.value == 40,
          "(port 1's budget 30 from port 0: bcast.nvm's 40 refused, reason %d, value %d)",
          (int)v.reason, (int)v.value);
    nc_nicvm_set_budget(p0, VPORT, 256);

    {
        /* a header that promises more code than the image holds */
        uint32_t img[8 + 2 + 2] = { 0x4E564D31u, 0, 2, 5, 0, 0, 0, 0,
                                    (0u << 8) | VPORT, (1u << 8) | VPORT, 0x103u, 0 };
        nc_nicvm_counters c0;

        mod_info(p1, "", &c0);
        rc = nc_nicvm_add_image(p1, "junk", img, 12, &v);
        mod_info(p1, "", &ctr);
        check("malformed-image", rc == NC_EINVAL && ctr.badimage == c0.badimage + 1,
              "(a truncated image: %d, counted %d)", rc, (int)(ctr.badimage - c0.badimage));
    }
    {
        /* a module stays on the NIC when the port that added it closes */
        nc_port *p3 = open_port(3);
        nc_member r3[2] = { { 0, 3 }, { 1, VPORT } };

        rc = nc_nicvm_add(p3, "keep", src, n, r3, 2, 0, &v);
        nc_close(p3);
        nc_nicvm_info m = mod_info(p1, "keep", NULL);

        check("persists-after-close", rc == NC_OK && m.size == 2 && m.owner == 3,
              "(added from port 3, listed after it closed: size %d, owner %d)", (int)m.size,
              (int)m.owner);
    }
    rc = nc_nicvm_purge(p0, "bcast");
    check("purge-privileged", rc == NC_OK, "(port 0 purges port 1's module: %d)", rc, 0);
    rc = nc_nicvm_purge(p1, "bcast");
    check("purged", rc == NC_EINVAL, "(purged: gone, %d)", rc, 0);

    /* node 1's forged send must not have reached this NIC */
    while (next(p1, &ev, DEADLINE_NS))
        if (ev.type == NC_EVENT_RECV)
            break;
    mod_info(p1, "", &ctr);
    check("rank-outside-no-packet", ctr.nomodule == 0 && ctr.malformed == 0,
          "(NICVM packets refused here: %d no module, %d malformed)", (int)ctr.nomodule,
          (int)ctr.malformed);
    nc_close(p0);
    nc_close(p2);
    nc_close(p1);
    return 0;
}

static int pingpong(int argc, char **argv)
{
    unsigned me = nc_host_node(), count, size;
    bool echo, noop;
    nc_port *p;
    uint8_t *b;
    nc_event ev;
    uint64_t t0 = 0;

    if (argc != 5 || nc_host_nodes() != 2) {
        nc_host_printf("FAIL usage: pingpong msg|noop|echo COUNT SIZE (on 2 nodes)\n");
        return 2;
    }
    echo = !strcmp(argv[2], "echo");
    noop = !strcmp(argv[2], "noop");
    count = (unsigned)atoi(argv[3]);
    size = (unsigned)atoi(argv[4]);
    p = open_port(VPORT);
    nc_set_inline_max(p, 0);
    b = region(p, 2 * MAXLEN);
    for (unsigned i = 0; i < 8; i++)
        nc_provide_recv(p, b + MAXLEN, MAXLEN, NULL);
    if (echo)
        add_or_die(p, "echo", "tests/nicvm/fwmod/echo.nvm", 2, me);
    if (noop)
        add_or_die(p, "noop", "tests/nicvm/modules/noop.nvm", 2, me);
    /* both ready: one ordinary exchange */
    if (me == 1) {
        if (!next(p, &ev, DEADLINE_NS) || ev.type != NC_EVENT_RECV)
            return 1;
        nc_provide_recv(p, ev.buf, MAXLEN, NULL);
        nc_send(p, 0, VPORT, b, 4, NULL);     /* its SENT comes in the loop below */
        if (echo) {
            nc_host_compute_ns(QUIET_NS + (uint64_t)count * 100000u);
            nc_close(p);
            return 0;
        }
        for (unsigned i = 0; i <= count; i++) {     /* node 0's warm-up round too */
            while (next(p, &ev, DEADLINE_NS) && ev.type != NC_EVENT_RECV)
                ;
            nc_provide_recv(p, ev.buf, MAXLEN, NULL);
            if (noop)
                nc_nicvm_send(p, "noop", 0, b, size, NULL);
            else
                nc_send(p, 0, VPORT, b, size, NULL);
        }
        while (next(p, &ev, QUIET_NS))
            ;
        nc_close(p);
        return 0;
    }
    nc_send(p, 1, VPORT, b, 4, NULL);
    while (next(p, &ev, DEADLINE_NS) && ev.type != NC_EVENT_RECV)
        ;
    nc_provide_recv(p, ev.buf, MAXLEN, NULL);
    for (unsigned i = 0; i <= count; i++) {
        if (i == 1)
            t0 = nc_host_now_ns();      /* the first round trip warms up */
        if (echo || noop)
            nc_nicvm_send(p, echo ? "echo" : "noop", 1, b, size, NULL);
        else
            nc_send(p, 1, VPORT, b, size, NULL);
        while (next(p, &ev, DEADLINE_NS) && ev.type != NC_EVENT_RECV)
            ;
        nc_provide_recv(p, ev.buf, MAXLEN, NULL);
    }
    nc_host_printf("pingpong kind=%s size=%u count=%u rtt_ns=%llu\n", argv[2], size, count,
                   (unsigned long long)((nc_host_now_ns() - t0) / count));
    while (next(p, &ev, QUIET_NS))
        ;
    nc_close(p);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "tree"))
        return tree(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "sandbox"))
        return sandbox(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "pingpong"))
        return pingpong(argc, argv);
    nc_host_printf("FAIL usage: tree ... | sandbox DIR | pingpong KIND COUNT SIZE\n");
    return 2;
}
