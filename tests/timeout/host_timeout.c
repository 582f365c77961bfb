/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host program of tests/timeout/suite: the send time-out (docs/firmware.md
 * "Send time-outs", docs/libnicoll.md). Node 0 sends numbered messages to
 * node 1 and prints, per message, how it completed (one letter each, in
 * the order posted: O delivered and acknowledged, T NC_ETIMEDOUT, E another
 * error, - no event before the deadline); node 1 prints the numbers it
 * received, per port, in the order it received them. The suite checks that
 * every message is either delivered exactly once, in order, with O, or not
 * delivered at all, with T: never both.
 *
 *   nobuf T NA NB   node 1's port 1 is open but gives no receive buffer;
 *                   node 0 (send time-out T us) posts NA messages to it,
 *                   then NB to node 1's port 0, which has buffers. Then
 *                   node 1 gives port 1 buffers and says so (a message to
 *                   node 0), and node 0 sends one more to port 1.
 *   race T AT GIVE  node 0 (time-out T us) posts 2 messages to node 1's
 *                   port 1 at AT (us since boot), then 2 to its port 0;
 *                   node 1 gives port 1 its buffers at AT + T + GIVE (GIVE
 *                   may be negative): around the time-out, so that the
 *                   last copy of a message may find a buffer just before
 *                   or after it (the SYNC handshake, docs/firmware.md).
 *   dead KIND T DOWN UP
 *                   node 0 sends 3 messages to node 1 before DOWN (us of
 *                   virtual time since boot), 3 between DOWN and UP, 3 after
 *                   UP. KIND 'down': node 1's link is down from DOWN to UP
 *                   (the suite's --fault); KIND 'reset': node 1's host holds
 *                   its NIC in reset at DOWN (dead, as after a LANai trap)
 *                   and never releases it: only the first 3 can arrive;
 *                   KIND 'reload IMAGE [cold]': node 1's NIC is held in
 *                   reset at DOWN and loaded again at UP (IMAGE; 'cold':
 *                   its SRAM cleared first, as after a power loss, so the
 *                   loader finds no boot id to follow); node 1 sends one
 *                   message to node 0 before DOWN and two once it is back,
 *                   and node 0 sends its last 3 only after the first of
 *                   those arrived (both directions start again).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "fwload.h"
#include "nicoll/hostif.h"
#include "nicoll/lanai9_regs.h"
#include "nicoll/nc_limits.h"
#include "nicoll/shared_block.h"
#include "nicoll.h"
#include "../nicoll/pattern.h"
#include "../lib/open_port.h"

#define LEN 4200                    /* two packets: a message can be cut */
#define MAXMSG 64
#define SEED 11

static unsigned me;

static void wait_until(uint64_t t_ns)
{
    for (uint64_t now; (now = nc_host_now_ns()) < t_ns;)
        nc_host_compute_ns(t_ns - now);
}

/* The sender's record: the letter of each message and when it completed. */
struct sent {
    char what[MAXMSG + 1];
    uint64_t posted[MAXMSG], done[MAXMSG];
    unsigned n, events;
};

/* Post message s->n (numbered per sender; its contents say sender and
 * number) to (node, port); tx has room for every message. */
static void post_to(nc_port *p, struct sent *s, uint8_t *tx, unsigned node, unsigned port)
{
    unsigned i = s->n++;
    uint8_t *b = tx + (size_t)i * LEN;
    int rc;

    pat_fill(b, LEN, SEED, me, i);
    s->what[i] = '-';
    s->posted[i] = nc_host_now_ns();
    if ((rc = nc_send(p, node, port, b, LEN, (void *)(uintptr_t)i)))
        nc_host_printf("FAIL nc_send %u: %s\n", i, nc_strerror(rc)), s->what[i] = 'E';
}

static void post(nc_port *p, struct sent *s, uint8_t *tx, unsigned port)
{
    post_to(p, s, tx, 1, port);
}

/* The receiver's record of one port: the numbers received, in order. */
struct got {
    unsigned n, bad, errors;
    unsigned id[MAXMSG];
};

static void received(nc_port *p, struct got *g, const nc_event *ev)
{
    uint32_t idx = pat_index(ev->buf, ev->len);

    if (ev->status) {
        /* a message the sender gave up on halfway: its buffer comes back */
        nc_host_printf("recv error %s len=%zu\n", nc_strerror(ev->status), ev->len);
        g->errors++;
    } else if (ev->len != LEN || idx >= MAXMSG || pat_check(ev->buf, LEN, SEED, ev->node, idx)) {
        g->bad++;
    } else if (g->n < MAXMSG) {
        g->id[g->n++] = idx;
    }
    nc_provide_recv(p, ev->buf, LEN, NULL);
}

/* Take one event into s: a SENT completes a message; a RECV of a short
 * message counts in *go (node 1's signal), one of a numbered message goes
 * to g. 0 if none came before the deadline. */
static int take(nc_port *p, struct sent *s, uint64_t deadline, unsigned *go, struct got *g)
{
    nc_event ev;

    while (!nc_poll(p, &ev))
        if (nc_host_now_ns() > deadline)
            return 0;
    if (ev.type == NC_EVENT_SENT) {
        unsigned i = (unsigned)(uintptr_t)ev.ctx;

        s->events++;
        s->what[i] = ev.status == NC_OK ? 'O' : ev.status == NC_ETIMEDOUT ? 'T' : 'E';
        s->done[i] = nc_host_now_ns();
        if (ev.status && ev.status != NC_ETIMEDOUT)
            nc_host_printf("FAIL message %u: %s\n", i, nc_strerror(ev.status));
    } else if (ev.type == NC_EVENT_RECV && ev.len < LEN && go) {
        (*go)++;
    } else if (ev.type == NC_EVENT_RECV && g) {
        received(p, g, &ev);
    }
    return 1;
}

static void print_got(const char *what, const struct got *g)
{
    char line[6 * MAXMSG + 1] = "";
    size_t at = 0;

    for (unsigned i = 0; i < g->n && at + 8 < sizeof line; i++)
        at += (size_t)snprintf(line + at, sizeof line - at, "%s%u", i ? "," : "", g->id[i]);
    nc_host_printf("%s ids=%s bad=%u errors=%u\n", what, g->n ? line : "none", g->bad, g->errors);
}

static void give(nc_port *p, uint8_t *buf, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        nc_provide_recv(p, buf + (size_t)i * LEN, LEN, NULL);
}

static int nobuf(int argc, char **argv)
{
    unsigned t_us = argc > 2 ? (unsigned)atoi(argv[2]) : 1000;
    unsigned na = argc > 3 ? (unsigned)atoi(argv[3]) : 2, nb = argc > 4 ? (unsigned)atoi(argv[4]) : 5;
    nc_port *p = open_port(0);
    uint64_t deadline = nc_host_now_ns() + 30000000ull + 4000ull * t_us;

    if (na + nb + 1 > NC_ABI_SEND_TOKENS)
        return nc_host_printf("FAIL nobuf: NA + NB is at most %u (the send tokens, less one)\n",
                              NC_ABI_SEND_TOKENS - 1), 2;
    if (me == 0) {
        uint8_t *tx = region(p, (size_t)(na + nb + 1) * LEN), *rx = region(p, LEN);
        struct sent s = { .n = 0 };
        unsigned go = 0, first = ~0u, last_b = 0;
        int rc;

        if ((rc = nc_set_send_timeout(p, t_us)))
            return nc_host_printf("FAIL nc_set_send_timeout: %s\n", nc_strerror(rc)), 1;
        give(p, rx, 1);
        wait_until(nc_host_now_ns() + 200000);     /* node 1 has opened both ports */
        for (unsigned i = 0; i < na; i++)
            post(p, &s, tx, 1);
        for (unsigned i = 0; i < nb; i++)
            post(p, &s, tx, 0);
        while ((s.events < na + nb || !go) && take(p, &s, deadline, &go, NULL))
            ;
        if (go) {
            post(p, &s, tx, 1);
            while (s.events < na + nb + 1 && take(p, &s, deadline, NULL, NULL))
                ;
        }
        for (unsigned i = 0; i < na; i++)
            if (s.what[i] == 'T' && (s.done[i] - s.posted[i]) / 1000 < first)
                first = (unsigned)((s.done[i] - s.posted[i]) / 1000);
        for (unsigned i = na; i < na + nb; i++)
            if (s.what[i] == 'O' && (s.done[i] - s.posted[0]) / 1000 > last_b)
                last_b = (unsigned)((s.done[i] - s.posted[0]) / 1000);
        s.what[s.n] = 0;
        nc_host_printf("nobuf sender timeout_us=%u outcome=%s go=%u first_timeout_us=%d "
                       "other_port_done_us=%u\n", t_us, s.what, go, first == ~0u ? -1 : (int)first,
                       last_b);
    } else if (me == 1) {
        nc_port *q = open_port(1);
        uint8_t *b0 = region(p, 16 * LEN), *b1 = region(q, 4 * LEN), *msg = region(p, 16);
        struct got g0 = { 0 }, g1 = { 0 };
        nc_event ev;

        give(p, b0, 16);
        /* port 0's messages; port 1 gives nothing yet */
        while (g0.n + g0.bad + g0.errors < nb && nc_host_now_ns() < deadline)
            if (nc_poll(p, &ev) && ev.type == NC_EVENT_RECV)
                received(p, &g0, &ev);
        give(q, b1, 4);
        nc_send(p, 0, 0, msg, 16, NULL);
        /* port 1: the message sent after this, and nothing of the ones
         * that timed out; wait a while for stale ones */
        uint64_t until = nc_host_now_ns() + 4000ull * t_us + 2000000;
        while (nc_host_now_ns() < until && nc_host_now_ns() < deadline) {
            if (nc_poll(q, &ev) && ev.type == NC_EVENT_RECV)
                received(q, &g1, &ev);
            if (nc_poll(p, &ev) && ev.type == NC_EVENT_RECV)
                received(p, &g0, &ev);
        }
        print_got("nobuf receiver port0", &g0);
        print_got("nobuf receiver port1", &g1);
        nc_close(q);
    }
    nc_close(p);
    return 0;
}

/* Load the MCP again into this host's NIC (common/fwload.c, as the
 * emulator's boot and lanai-flash do). */
static bool reload(const char *image, bool cold)
{
    static uint8_t img[1 << 20];
    struct nc_fw_options o = { .node_id = me, .nnodes = nc_host_nodes() };
    struct nc_fw_info info;
    struct nc_board b;
    char err[512];
    FILE *f = fopen(image, "rb");
    size_t len;
    int rc;

    if (!f)
        return nc_host_printf("FAIL reload: cannot open '%s'\n", image), false;
    len = fread(img, 1, sizeof img, f);
    fclose(f);
    nc_board_open_hostif(&b);
    if (cold) {
        /* the shared block gone with the rest of SRAM */
        uint32_t sram = nc_host_pio_read32(L9_BAR_EEPROM + L9_EE_SRAM_SIZE);

        nc_host_pio_write32(L9_BAR_SRAM + NC_SB_ADDR(sram) + NC_SB_OFF_MAGIC, 0);
    }
    if ((rc = nc_fw_load(&b, image, img, len, &o, &info, err, sizeof err)))
        return nc_host_printf("FAIL reload: %s\n", err), false;
    nc_host_printf("reload: boot id %u\n", (unsigned)info.boot_id);
    return true;
}

static int dead(int argc, char **argv)
{
    const char *kind = argc > 2 ? argv[2] : "down";
    unsigned t_us = argc > 3 ? (unsigned)atoi(argv[3]) : 1000;
    uint64_t down = (argc > 4 ? (uint64_t)atoll(argv[4]) : 5000) * 1000;
    uint64_t up = (argc > 5 ? (uint64_t)atoll(argv[5]) : 15000) * 1000;
    bool again = !strcmp(kind, "reload"), reset = again || !strcmp(kind, "reset");
    const char *image = argc > 6 ? argv[6] : NULL;
    bool cold = argc > 7 && !strcmp(argv[7], "cold");
    nc_port *p;

    if (!reset && strcmp(kind, "down"))
        return nc_host_printf("FAIL dead: kind '%s' is none of down, reset, reload\n", kind), 2;
    if (again && !image)
        return nc_host_printf("FAIL dead reload: the image to load again is missing\n"), 2;
    if (up <= down)
        return nc_host_printf("FAIL dead: UP (%llu us) must come after DOWN (%llu us)\n",
                              (unsigned long long)(up / 1000), (unsigned long long)(down / 1000)), 2;
    p = open_port(0);
    if (nc_host_now_ns() + 1000000 > down)
        return nc_host_printf("FAIL dead: DOWN must be at least 1 ms after the port opens "
                              "(it opened at %llu us)\n",
                              (unsigned long long)(nc_host_now_ns() / 1000)), 2;
    if (me == 0) {
        uint8_t *tx = region(p, 9 * LEN), *rb = region(p, 4 * LEN);
        struct sent s = { .n = 0 };
        uint64_t deadline = up + 4000ull * t_us + 100000000;
        struct got g = { 0 };

        nc_set_send_timeout(p, t_us);
        give(p, rb, 4);
        for (unsigned i = 0; i < 3; i++)
            post(p, &s, tx, 0);
        while (s.events < 3 && take(p, &s, down, NULL, &g))
            ;
        wait_until(down + 200000);
        for (unsigned i = 0; i < 3; i++)
            post(p, &s, tx, 0);
        while (s.events < 6 && take(p, &s, deadline, NULL, &g))
            ;
        if (again) {
            /* node 1's first message since it is back (its message before
             * DOWN came long before) */
            while (g.n + g.bad + g.errors < 2 && take(p, &s, deadline, NULL, &g))
                ;
        }
        if (!reset || again) {
            wait_until(up + 200000);
            for (unsigned i = 0; i < 3; i++)
                post(p, &s, tx, 0);
        }
        while (s.events < s.n && take(p, &s, deadline, NULL, &g))
            ;
        if (again) {
            uint64_t until = nc_host_now_ns() + 2000000;

            while (g.n + g.bad + g.errors < 3 && take(p, &s, until, NULL, &g))
                ;
        }
        s.what[s.n] = 0;
        nc_host_printf("dead %s sender outcome=%s timed_out_after_us=%d\n", kind, s.what,
                       s.what[3] == 'T' ? (int)((s.done[3] - s.posted[3]) / 1000) : -1);
        if (again)
            print_got("dead reload node 0 from node 1:", &g);
    } else if (me == 1) {
        uint8_t *b = region(p, 16 * LEN), *tx = region(p, 3 * LEN);
        struct got g = { 0 };
        struct sent s = { .n = 0 };
        uint64_t end = reset ? down : up + 4000ull * t_us + 10000000;

        give(p, b, 16);
        if (again) {
            /* one message to node 0 in this MCP's life: node 0's receive
             * side then holds this connection at its second number */
            post_to(p, &s, tx, 0, 0);
        }
        while (take(p, &s, end, NULL, &g))
            ;
        if (again) {
            nc_host_pio_write32(L9_BAR_CONTROL, L9_CTL_RESET_ON);
            print_got("dead reload receiver before", &g);
            wait_until(up);
            if (!reload(image, cold))
                return 1;
            /* a new MCP: a new port (the old one died with it) */
            p = open_port(0);
            b = region(p, 16 * LEN);
            tx = region(p, 3 * LEN);
            memset(&g, 0, sizeof g);
            give(p, b, 16);
            nc_set_send_timeout(p, t_us);
            post_to(p, &s, tx, 0, 0);
            post_to(p, &s, tx, 0, 0);
            end = nc_host_now_ns() + 4000ull * t_us + 10000000;
            while (take(p, &s, end, NULL, &g))
                ;
            s.what[s.n] = 0;
            print_got("dead reload receiver after", &g);
            nc_host_printf("dead reload node 1 to node 0: outcome=%s\n", s.what);
        } else if (reset) {
            /* the NIC stops dead; this host never restarts it */
            print_got("dead reset receiver", &g);
            nc_host_pio_write32(L9_BAR_CONTROL, L9_CTL_RESET_ON);
            return 0;
        } else {
            print_got("dead down receiver", &g);
        }
    }
    nc_close(p);
    return 0;
}

static int race(int argc, char **argv)
{
    unsigned t_us = argc > 2 ? (unsigned)atoi(argv[2]) : 1000;
    uint64_t at = (argc > 3 ? (uint64_t)atoll(argv[3]) : 60000) * 1000;
    int64_t late = (argc > 4 ? atoll(argv[4]) : 0) * 1000;
    nc_port *p = open_port(0);
    uint64_t deadline = at + 4000ull * t_us + 10000000;

    if (nc_host_now_ns() + 1000000 > at)
        return nc_host_printf("FAIL race: AT must be at least 1 ms after the port opens "
                              "(it opened at %llu us)\n",
                              (unsigned long long)(nc_host_now_ns() / 1000)), 2;
    if (me == 0) {
        uint8_t *tx = region(p, 4 * LEN);
        struct sent s = { .n = 0 };

        nc_set_send_timeout(p, t_us);
        wait_until(at);
        post(p, &s, tx, 1);
        post(p, &s, tx, 1);
        post(p, &s, tx, 0);
        post(p, &s, tx, 0);
        while (s.events < s.n && take(p, &s, deadline, NULL, NULL))
            ;
        s.what[s.n] = 0;
        nc_host_printf("race sender give=%lld outcome=%s\n", (long long)(late / 1000), s.what);
    } else if (me == 1) {
        nc_port *q = open_port(1);
        uint8_t *b0 = region(p, 4 * LEN), *b1 = region(q, 4 * LEN);
        struct got g0 = { 0 }, g1 = { 0 };
        struct sent s = { .n = 0 };

        give(p, b0, 4);
        wait_until((uint64_t)((int64_t)(at + 1000ull * t_us) + late));
        give(q, b1, 4);
        while (take(p, &s, deadline, NULL, &g0) || take(q, &s, deadline, NULL, &g1))
            ;
        print_got("race receiver port0", &g0);
        print_got("race receiver port1", &g1);
        nc_close(q);
    }
    nc_close(p);
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";

    me = nc_host_node();
    if (nc_host_nodes() < 2) {
        nc_host_printf("FAIL %s needs 2 nodes (lanai-run --nodes 2)\n", mode);
        return 2;
    }
    if (!strcmp(mode, "nobuf"))
        return nobuf(argc, argv);
    if (!strcmp(mode, "dead"))
        return dead(argc, argv);
    if (!strcmp(mode, "race"))
        return race(argc, argv);
    nc_host_printf("FAIL unknown mode '%s' (nobuf, dead, race)\n", mode);
    return 2;
}
