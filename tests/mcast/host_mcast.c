/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host program for tests/mcast/suite: NIC multisend (nc_group_multisend,
 * nc_mcast) on every node. Random choices come from the SEED argument
 * (printed); the choices every node must agree on (message sizes) use the
 * seed and the message's index only.
 *
 *   ms SEED NMSG MAXLEN OUTSTANDING
 *       node 0 port 0 is the root, port 0 of every other node a
 *       destination. The root multicasts NMSG messages of seeded sizes
 *       (0 .. MAXLEN, including the packet boundaries), up to OUTSTANDING
 *       at once, each from its own buffer, which it overwrites as soon as
 *       the send's completion comes (the host may reuse it then: a NIC
 *       that completes before every destination has the data, and later
 *       sends from the buffer again, delivers garbage). Every destination
 *       checks that it gets every message once, in order, intact, with
 *       the group's id, and that nothing more comes afterwards.
 *       Prints "ms root done sent=N failures=F" or
 *       "ms member done got=N failures=F", and for tests/mcast/check-trace
 *       every SENT ("ms sent k=K len=L st=STATUS") and every RECV ("ms recv
 *       g=GROUP id=I len=L", I the message the contents are).
 *   tree SEED KIND NMSG MAXLEN OUTSTANDING [dead]
 *       the same over a tree of every node's port 0 (root node 0) built by
 *       nc_group_create: KIND binomial, kbin:K, postal:LAMBDA, flat, or
 *       heap:D (an NC_TREE_LIST tree, parent (i-1)/D). Inner members forward
 *       at their NICs. With "dead", the highest-numbered leaf whose parent
 *       is not the root never opens its port (a member gone for good),
 *       every member's send time-out is DEAD_TIMEOUT_US, and the root must
 *       see every send complete with NC_ETIMEDOUT (that member never has
 *       it) while the others still get everything. Prints the tree first.
 *       With "lat" instead: every message is MAXLEN bytes, one at a time
 *       (OUTSTANDING ignored), and the root prints the mean time from
 *       nc_mcast to its SENT event (every member holds the message):
 *       "lat KIND size=S msgs=N mean_ns=T" (a quick comparison of firmware
 *       variants; the benchmarks are host/bench's).
 *   reopen SEED NMSG MAXLEN OUTSTANDING
 *       ms on 3+ nodes, where the last node's process closes its port after
 *       NMSG/2 messages while the root still sends and a new process opens
 *       it again without setting the group: it must get no RECV of the
 *       group ("ms recv2 ..." and a FAIL if it does) and no byte in its
 *       buffers, only the root's ordinary message sent after its last SENT.
 *       The root's send time-out is DEAD_TIMEOUT_US; its SENTs are NC_OK
 *       until the closed member is given up, NC_ETIMEDOUT from then on.
 *       Prints "reopen root: A NC_OK, B NC_ETIMEDOUT" and
 *       "reopen member done got=N stale=S failures=F".
 *   rejoin SEED NMSG MAXLEN OUTSTANDING
 *       the group set again (docs/multicast.md "Setting a group again"):
 *       first reopen's run without the ordinary message (the last node's
 *       process closes its port after NMSG/2 messages, opens it again and
 *       sets the group at once; the root's sends end NC_ETIMEDOUT once it
 *       is given up), then the root, as soon as its last SENT came, sets
 *       the group again (send time-out REJOIN_TIMEOUT_US) and multicasts
 *       REJOIN_MSGS messages of REJOIN_LEN bytes, every one of which must
 *       complete NC_OK and reach every member, the rejoined one included,
 *       once, in order, intact. The other members set the group again
 *       only after their first run's LINGER_NS check: for 2 ms the root's
 *       new packets meet their old entries, whose duplicate ACKs (of the
 *       first run's numbers) the root must not count. Prints "ms root
 *       done" and "ms member done" once per run and "rejoin done".
 *   conc SEED NROOTS KIND NMSG MAXLEN [cyclic|ordered]
 *       concurrent multicasts from different roots on the same NICs: node
 *       r < NROOTS is the root of group GROUP+r over every node's port 0
 *       (KIND as for tree), each node gives its port ONE receive buffer at
 *       a time (given again after each message), and every root sends NMSG
 *       messages one after another while it receives the others'. Every
 *       node checks every group's messages (once, in order, intact) and
 *       prints "conc done sent=N got=M failures=F". With "cyclic" (4 nodes,
 *       2 roots): groups whose trees cross (group 0: 1<-0, 2<-1, 3<-0;
 *       group 1: 2<-3, 1<-2, 0<-3: node 1 below node 2, against the ID
 *       order) and a send time-out of CYCLIC_TIMEOUT_US; the root's SENT
 *       status is accepted as it comes and printed, a member's missing
 *       message ends it ("conc stuck group G k K"). With "ordered": the
 *       same roots, send time-out and buffers, but group 1's tree keeps
 *       the ID order (0<-3, 1<-0, 2<-1): every SENT must be NC_OK.
 *   api SEED
 *       (node 0 only) nc_group_tree without a NIC: every kind over 2..200
 *       members in a seeded order keeps the ID-ordered rule, is a tree
 *       (every member reaches the root) and gives no member more than
 *       NC_GROUP_MAX_CHILDREN children; a list breaking the rule, a cycle,
 *       two roots, postal with lambda 65 and a flat tree over 40 members are
 *       refused with NC_EINVAL; the unordered list kind takes the list the
 *       ordered one refused, and the checker above finds its violation
 *       (the check shown failing). Prints "api done failures=F".
 *   postal SEED
 *       (node 0 only) postal trees with lambda 0: the lambda of each of a
 *       list of sizes from the profile's postal table ("postal size=S
 *       lambda=L"), the lambda-0 tree equal to postal:L's, nc_group_create
 *       taking it; with no valid table "postal table refused: WHY" and
 *       nc_group_create refusing lambda 0. Prints "postal done failures=F".
 *   perm SEED
 *       node 0's port 0 creates a group; port 1 of the same NIC tries to
 *       multicast on it, to set it and to destroy it: each refused with
 *       NC_EPERM. Port 0's multicast still reaches every destination.
 *       Prints "perm done failures=F".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicoll/hostif.h"
#include "nicoll.h"
#include "../lib/open_port.h"
#include "../nicoll/pattern.h"

#define GROUP 0x4D430001u           /* "MC", 1 */
#define DEADLINE_NS 500000000ull    /* 0.5 s of virtual time for one event */
#define LINGER_NS 2000000ull        /* after the last message: nothing more may come */
#define RECV_BUFS 8u
#define MAX_OUT 8u
#define DEAD_TIMEOUT_US 2000u       /* the send time-out of the dead-member runs */
#define CYCLIC_TIMEOUT_US 20000u    /* ... and of the cyclic-tree run */
#define REJOIN_TIMEOUT_US 100000u   /* rejoin's second run: longer than the members' lag */
#define REJOIN_MSGS 8u
#define REJOIN_LEN 16384            /* 4 packets: more than the first run's numbers */
#define MAX_ROOTS 8u

static unsigned me, nn;
static int failures;
static int dead = -1;
static long fixed_len = -1;         /* tree ... lat: every message this long */               /* tree ... dead: the member that never opens its port */
static uint64_t seed;
static int reopened = -1;           /* reopen: the member that closes and reopens its port */

#define FAIL(...) (nc_host_printf("FAIL " __VA_ARGS__), failures++)

/* splitmix64: one stream per (seed, a) */
static uint64_t rnd(uint64_t a)
{
    uint64_t z = seed * 0x9E3779B97F4A7C15ull + a * 0xBF58476D1CE4E5B9ull;

    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Message k's size: packet boundaries and small sizes often, else any. */
static size_t size_of(unsigned k, size_t maxlen)
{
    static const size_t edge[] = { 0, 1, 4, 12, 100, 1024, 4095, 4096, 4097, 8192, 16384,
                                   32768, 65535, 65536 };
    uint64_t r = rnd(k);
    size_t len;

    if (fixed_len >= 0)
        return (size_t)fixed_len;
    len = r & 1 ? edge[(r >> 1) % (sizeof edge / sizeof edge[0])] : (r >> 8) % (maxlen + 1);

    return len > maxlen ? maxlen : len;
}

static int wait_event(nc_port *p, nc_event *ev, uint64_t timeout_ns)
{
    return nc_wait(p, ev, timeout_ns);
}

static void create_group(nc_port *p, unsigned port)
{
    nc_member dests[NC_GROUP_MAX_DESTS], root = { 0, (uint8_t)port };
    int rc;

    for (unsigned i = 1; i < nn; i++)
        dests[i - 1] = (nc_member){ (uint16_t)i, (uint8_t)port };
    if ((rc = nc_group_multisend(p, GROUP, root, dests, nn - 1)) != NC_OK)
        FAIL("nc_group_multisend: %s\n", nc_strerror(rc));
}

static int root(nc_port *p, unsigned nmsg, size_t maxlen, unsigned out)
{
    uint8_t *buf[MAX_OUT];
    unsigned next = 0, done = 0, inflight = 0;
    uint64_t t0 = 0, total = 0;
    unsigned timedout = 0;
    int slot_of[MAX_OUT];
    nc_event ev;

    for (unsigned i = 0; i < out; i++) {
        buf[i] = region(p, maxlen ? maxlen : 1);
        slot_of[i] = -1;
    }
    while (done < nmsg && !failures) {
        while (next < nmsg && inflight < out) {
            unsigned s = 0;
            size_t len = size_of(next, maxlen);
            int rc;

            while (slot_of[s] >= 0)
                s++;
            pat_fill(buf[s], len, (uint32_t)seed, 0, next);
            if ((rc = nc_mcast(p, GROUP, buf[s], len, &slot_of[s])) != NC_OK) {
                FAIL("nc_mcast k=%u: %s\n", next, nc_strerror(rc));
                break;
            }
            slot_of[s] = (int)next++;
            inflight++;
            t0 = nc_host_now_ns();
        }
        if (wait_event(p, &ev, DEADLINE_NS) != NC_OK) {
            FAIL("root: no completion within %llu ns (%u of %u done)\n", DEADLINE_NS, done, nmsg);
            break;
        }
        /* reopen: NC_OK until the closed member is given up, then NC_ETIMEDOUT
         * for every later send (docs/multicast.md "A member that leaves") */
        int want = dead >= 0 || (reopened >= 0 && (timedout || ev.status == NC_ETIMEDOUT))
                       ? NC_ETIMEDOUT : NC_OK;

        if (ev.type != NC_EVENT_SENT || ev.group != GROUP || ev.status != want) {
            /* with a dead member, NC_OK would claim it has the message */
            FAIL("root: event type %d group %#x status %s (message %d)\n", ev.type, ev.group,
                 nc_strerror(ev.status), ev.type == NC_EVENT_SENT ? *(int *)ev.ctx : -1);
            if (ev.type != NC_EVENT_SENT)
                continue;
        }
        /* the buffer is the host's again: overwrite it */
        int *slot = ev.ctx;
        unsigned s = (unsigned)(slot - slot_of);

        total += nc_host_now_ns() - t0;
        nc_host_printf("ms sent k=%d len=%zu st=%d\n", *slot, ev.len, ev.status);
        timedout += ev.status == NC_ETIMEDOUT;
        memset(buf[s], 0xA5, maxlen ? maxlen : 1);
        *slot = -1;
        inflight--;
        done++;
    }
    if (fixed_len >= 0 && done)
        nc_host_printf("lat size=%ld msgs=%u mean_ns=%llu\n", fixed_len, done,
                       (unsigned long long)(total / done));
    if (reopened >= 0)
        nc_host_printf("reopen root: %u NC_OK, %u NC_ETIMEDOUT\n", done - timedout, timedout);
    nc_host_printf("ms root done sent=%u failures=%d\n", done, failures);
    return failures != 0;
}

/* Which of the root's messages 0..NMSG-1 the LEN bytes at BUF are (-1:
 * none), for tests/mcast/check-trace, which judges the order from these
 * ids and not from this program's own checks. The expected one, WANT, is
 * tried first only to save time: a non-empty message's contents name it
 * alone. An empty message has no contents: it is WANT if WANT is empty. */
static int message_of(const uint8_t *buf, size_t len, unsigned src, unsigned want, unsigned nmsg,
                      size_t maxlen)
{
    if (want < nmsg && size_of(want, maxlen) == len &&
        (len == 0 || !pat_check(buf, len, (uint32_t)seed, src, want)))
        return (int)want;
    for (unsigned k = 0; k < nmsg && len; k++)
        if (size_of(k, maxlen) == len && !pat_check(buf, len, (uint32_t)seed, src, k))
            return (int)k;
    return -1;
}

static int member(nc_port *p, unsigned nmsg, size_t maxlen)
{
    uint8_t *buf[RECV_BUFS];
    unsigned got = 0;
    nc_event ev;
    int rc;

    for (unsigned i = 0; i < RECV_BUFS; i++) {
        buf[i] = region(p, maxlen ? maxlen : 1);
        if ((rc = nc_provide_recv(p, buf[i], maxlen, buf[i])) != NC_OK)
            FAIL("nc_provide_recv: %s\n", nc_strerror(rc));
    }
    while (got < nmsg && !failures) {
        size_t want = size_of(got, maxlen);

        if (wait_event(p, &ev, DEADLINE_NS) != NC_OK) {
            FAIL("member: message %u of %u did not come\n", got, nmsg);
            break;
        }
        if (ev.type != NC_EVENT_RECV) {
            FAIL("member: event type %d status %s\n", ev.type, nc_strerror(ev.status));
            continue;
        }
        if (ev.status != NC_OK || ev.group != GROUP || ev.node != 0 || ev.port != 0 ||
            ev.len != want || pat_check(ev.buf, ev.len, (uint32_t)seed, 0, got))
            FAIL("member: message %u: status %s group %#x from %u:%u len %zu (want %zu)%s\n", got,
                 nc_strerror(ev.status), ev.group, ev.node, ev.port, ev.len, want,
                 pat_check(ev.buf, ev.len, (uint32_t)seed, 0, got) ? " contents wrong" : "");
        nc_host_printf("ms recv g=%#x id=%d len=%zu\n", ev.group,
                       message_of(ev.buf, ev.len, 0, got, nmsg, maxlen), ev.len);
        got++;
        memset(ev.buf, 0, maxlen);
        if ((rc = nc_provide_recv(p, ev.buf, maxlen, ev.buf)) != NC_OK)
            FAIL("nc_provide_recv: %s\n", nc_strerror(rc));
    }
    /* exactly once: nothing more comes */
    if (!failures && wait_event(p, &ev, LINGER_NS) == NC_OK)
        FAIL("member: an extra event type %d len %zu after all %u messages\n", ev.type, ev.len,
             nmsg);
    nc_host_printf("ms member done got=%u failures=%d\n", got, failures);
    return failures != 0;
}

/* KIND of the tree mode into spec (parent: room for nn entries). */
static bool tree_spec(const char *kind, nc_tree_spec *spec, int *parent)
{
    unsigned v = 0;
    const char *colon = strchr(kind, ':');

    if (colon)
        v = (unsigned)atoi(colon + 1);
    *spec = (nc_tree_spec){ NC_TREE_BINOMIAL, 0, 0, NULL, 0, NULL, 0, 0 };
    if (!strcmp(kind, "binomial"))
        return true;
    if (!strcmp(kind, "flat"))
        return spec->kind = NC_TREE_FLAT, true;
    if (!strncmp(kind, "kbin:", 5))
        return spec->kind = NC_TREE_KBINOMIAL, spec->k = v, true;
    if (!strncmp(kind, "postal:", 7))
        return spec->kind = NC_TREE_POSTAL, spec->lambda = v, true;
    if (!strncmp(kind, "heap:", 5) && v) {
        for (unsigned i = 0; i < nn; i++)
            parent[i] = i ? (int)((i - 1) / v) : -1;
        spec->kind = NC_TREE_LIST;
        spec->parent = parent;
        return true;
    }
    return false;
}

static int tree(int argc, char **argv)
{
    const char *kind = argc > 3 ? argv[3] : "binomial";
    unsigned nmsg = argc > 4 ? (unsigned)atoi(argv[4]) : 20;
    size_t maxlen = argc > 5 ? strtoul(argv[5], NULL, 0) : 65536;
    unsigned out = argc > 6 ? (unsigned)atoi(argv[6]) : 4;
    bool with_dead = argc > 7 && !strcmp(argv[7], "dead");

    if (argc > 7 && !strcmp(argv[7], "lat")) {
        fixed_len = (long)maxlen;
        out = 1;
    }
    static nc_member members[NC_GROUP_MAX_MEMBERS];
    static int list[NC_GROUP_MAX_MEMBERS], parent[NC_GROUP_MAX_MEMBERS];
    nc_tree_spec spec;
    nc_port *p;
    int rc;

    if (nn < 2 || nn > NC_GROUP_MAX_MEMBERS || maxlen > 65536 || !out || out > MAX_OUT ||
        !tree_spec(kind, &spec, list)) {
        nc_host_printf("FAIL tree: bad arguments (nodes %u, kind %s, maxlen %zu, outstanding %u)\n",
                       nn, kind, maxlen, out);
        return 2;
    }
    for (unsigned i = 0; i < nn; i++)
        members[i] = (nc_member){ (uint16_t)i, 0 };
    if ((rc = nc_group_tree(members, nn, 0, &spec, parent)) != NC_OK) {
        nc_host_printf("FAIL tree %s over %u nodes: %s\n", kind, nn, nc_strerror(rc));
        return 2;
    }
    if (me == 0) {
        char line[64];
        int at = 0;

        for (unsigned i = 1; i < nn; i++) {
            at += snprintf(line + at, sizeof line - (size_t)at, " %u<-%d", i, parent[i]);
            if (at > 48 || i == nn - 1) {
                nc_host_printf("tree %s:%s\n", kind, line);
                at = 0;
            }
        }
    }
    if (with_dead) {
        for (unsigned i = nn - 1; i > 0 && dead < 0; i--) {
            bool leaf = true;

            for (unsigned j = 1; j < nn; j++)
                leaf = leaf && parent[j] != (int)i;
            if (leaf && parent[i] != 0)
                dead = (int)i;
        }
        if (dead < 0) {
            nc_host_printf("FAIL tree %s: no leaf below an inner member to kill\n", kind);
            return 2;
        }
        if (me == 0)
            nc_host_printf("dead member: node %d (parent %d), send time-out %u us\n", dead,
                           parent[dead], DEAD_TIMEOUT_US);
        if ((int)me == dead) {
            nc_host_printf("ms member done got=dead failures=0\n");
            return 0;       /* never opens its port */
        }
    }
    p = open_port(0);
    if (with_dead && (rc = nc_set_send_timeout(p, DEAD_TIMEOUT_US)) != NC_OK)
        FAIL("nc_set_send_timeout: %s\n", nc_strerror(rc));
    if ((rc = nc_group_create(p, GROUP, members, nn, 0, &spec)) != NC_OK)
        FAIL("nc_group_create: %s\n", nc_strerror(rc));
    rc = me == 0 ? root(p, nmsg, maxlen, out) : member(p, nmsg, maxlen);
    nc_close(p);
    return rc;
}

static int ms(int argc, char **argv)
{
    unsigned nmsg = argc > 3 ? (unsigned)atoi(argv[3]) : 20;
    size_t maxlen = argc > 4 ? strtoul(argv[4], NULL, 0) : 65536;
    unsigned out = argc > 5 ? (unsigned)atoi(argv[5]) : 4;
    nc_port *p;
    int rc;

    if (nn < 2 || nn - 1 > NC_GROUP_MAX_DESTS || maxlen > 65536 || !out || out > MAX_OUT) {
        nc_host_printf("FAIL ms: bad arguments (nodes %u, maxlen %zu, outstanding %u)\n", nn,
                       maxlen, out);
        return 2;
    }
    p = open_port(0);
    create_group(p, 0);
    rc = me == 0 ? root(p, nmsg, maxlen, out) : member(p, nmsg, maxlen);
    nc_close(p);
    return rc;
}

/* The ordinary message the root sends the reopened port at the end. */
#define REOPEN_MSG_LEN 100u
#define REOPEN_MSG_IDX 1000000u
#define STALE_FILL 0x5A

/* The reopening member: takes the first nmsg/2 messages as member() does,
 * closes its port while the root still sends, opens it again (a new
 * process) with fresh buffers filled with STALE_FILL and does not set the
 * group again. The new port must get no RECV of the group and no byte in
 * its buffers, only the root's ordinary message at the end. */
static int reopen_member(nc_port *p, unsigned nmsg, size_t maxlen)
{
    unsigned keep = nmsg / 2, got = 0, stale = 0;
    uint8_t *buf[RECV_BUFS];
    bool came = false;
    nc_event ev;

    for (unsigned i = 0; i < RECV_BUFS; i++)
        nc_provide_recv(p, region(p, maxlen ? maxlen : 1), maxlen, NULL);
    while (got < keep && !failures) {
        if (wait_event(p, &ev, DEADLINE_NS) != NC_OK) {
            FAIL("reopen: message %u of %u did not come before the close\n", got, keep);
            break;
        }
        int id = ev.type == NC_EVENT_RECV ? message_of(ev.buf, ev.len, 0, got, nmsg, maxlen) : -1;

        if (ev.type != NC_EVENT_RECV || ev.status != NC_OK || ev.group != GROUP || id != (int)got)
            FAIL("reopen: event type %d status %s group %#x message %d, want message %u\n",
                 ev.type, nc_strerror(ev.status), ev.group, id, got);
        if (ev.type == NC_EVENT_RECV)
            nc_host_printf("ms recv g=%#x id=%d len=%zu\n", ev.group, id, ev.len);
        got++;
        nc_provide_recv(p, ev.buf, maxlen, NULL);
    }
    nc_close(p);
    nc_host_printf("reopen: node %u closed its port after %u messages\n", me, got);
    p = open_port(0);
    for (unsigned i = 0; i < RECV_BUFS; i++) {
        buf[i] = region(p, maxlen > REOPEN_MSG_LEN ? maxlen : REOPEN_MSG_LEN);
        memset(buf[i], STALE_FILL, maxlen > REOPEN_MSG_LEN ? maxlen : REOPEN_MSG_LEN);
        nc_provide_recv(p, buf[i], maxlen > REOPEN_MSG_LEN ? maxlen : REOPEN_MSG_LEN, buf[i]);
    }
    nc_host_printf("reopen: node %u opened its port again\n", me);
    /* until the root's ordinary message, then a while more: a RECV of the
     * group here is stale (the new process never set the group) */
    while (wait_event(p, &ev, came ? LINGER_NS : DEADLINE_NS) == NC_OK) {
        if (ev.type == NC_EVENT_RECV && ev.group == GROUP) {
            nc_host_printf("ms recv2 g=%#x id=%d len=%zu\n", ev.group,
                           message_of(ev.buf, ev.len, 0, 0, nmsg, maxlen), ev.len);
            FAIL("reopen: stale: the new port got a RECV of group %#x (%zu bytes)\n", ev.group,
                 ev.len);
            stale++;
        } else if (ev.type == NC_EVENT_RECV && !came && ev.status == NC_OK && ev.node == 0 &&
                   ev.len == REOPEN_MSG_LEN &&
                   !pat_check(ev.buf, ev.len, (uint32_t)seed, 0, REOPEN_MSG_IDX)) {
            nc_host_printf("reopen: the root's ordinary message came\n");
            came = true;
            memset(ev.buf, STALE_FILL, REOPEN_MSG_LEN);     /* the check below: all untouched */
        } else {
            FAIL("reopen: unexpected event type %d status %s group %#x len %zu\n", ev.type,
                 nc_strerror(ev.status), ev.group, ev.len);
        }
    }
    if (!came)
        FAIL("reopen: the root's ordinary message did not come\n");
    for (unsigned i = 0; i < RECV_BUFS; i++)
        for (size_t j = 0; j < (maxlen > REOPEN_MSG_LEN ? maxlen : REOPEN_MSG_LEN); j++)
            if (buf[i][j] != STALE_FILL) {
                FAIL("reopen: stale: buffer %u of the new port written at byte %zu\n", i, j);
                stale++;
                break;
            }
    nc_close(p);
    nc_host_printf("reopen member done got=%u stale=%u failures=%d\n", got, stale, failures);
    return failures != 0;
}

/* reopen SEED NMSG MAXLEN OUTSTANDING: ms with the last node's process
 * closing and reopening its port halfway (reopen_member). The root's
 * send time-out is DEAD_TIMEOUT_US; after its last SENT it sends the
 * reopened port an ordinary message. */
/* reopen's and rejoin's start: NMSG MAXLEN OUTSTANDING from argv (the
 * defaults given), the last node the one that reopens its port, every
 * port open with the group set, the root's send time-out DEAD_TIMEOUT_US.
 * NULL after a FAIL about bad arguments. */
static nc_port *reopen_start(const char *mode, int argc, char **argv, unsigned *nmsg,
                             size_t *maxlen, unsigned *out)
{
    nc_port *p;
    int rc;

    *nmsg = argc > 3 ? (unsigned)atoi(argv[3]) : *nmsg;
    *maxlen = argc > 4 ? strtoul(argv[4], NULL, 0) : *maxlen;
    *out = argc > 5 ? (unsigned)atoi(argv[5]) : *out;
    if (nn < 3 || nn - 1 > NC_GROUP_MAX_DESTS || *maxlen > 65536 || !*out || *out > MAX_OUT ||
        *nmsg < 2) {
        nc_host_printf("FAIL %s: bad arguments (nodes %u, messages %u, maxlen %zu, "
                       "outstanding %u)\n", mode, nn, *nmsg, *maxlen, *out);
        return NULL;
    }
    reopened = (int)nn - 1;
    if (me == 0)
        nc_host_printf("reopened member: node %d closes its port after %u of %u messages\n",
                       reopened, *nmsg / 2, *nmsg);
    p = open_port(0);
    if (me == 0 && (rc = nc_set_send_timeout(p, DEAD_TIMEOUT_US)) != NC_OK)
        FAIL("nc_set_send_timeout: %s\n", nc_strerror(rc));
    create_group(p, 0);
    return p;
}

static int reopen(int argc, char **argv)
{
    unsigned nmsg = 20, out = 4;
    size_t maxlen = 65536;
    nc_port *p = reopen_start("reopen", argc, argv, &nmsg, &maxlen, &out);
    int rc;

    if (!p)
        return 2;
    if ((int)me == reopened)
        return reopen_member(p, nmsg, maxlen);
    if (me != 0) {
        rc = member(p, nmsg, maxlen);
        nc_close(p);
        return rc;
    }
    rc = root(p, nmsg, maxlen, out);
    if (!rc) {
        uint8_t *b = region(p, REOPEN_MSG_LEN);
        nc_event ev;

        pat_fill(b, REOPEN_MSG_LEN, (uint32_t)seed, 0, REOPEN_MSG_IDX);
        if ((rc = nc_send(p, (unsigned)reopened, 0, b, REOPEN_MSG_LEN, NULL)) != NC_OK)
            FAIL("reopen: nc_send: %s\n", nc_strerror(rc));
        else if (wait_event(p, &ev, DEADLINE_NS) != NC_OK || ev.type != NC_EVENT_SENT ||
                 ev.status != NC_OK)
            FAIL("reopen: the ordinary message to node %d did not complete\n", reopened);
        rc = failures != 0;
    }
    nc_close(p);
    return rc;
}

/* rejoin's closing member: reopen_member's first half, then the group
 * set again on the new port at once, then the second run as a member. */
static int rejoin_member(nc_port *p, unsigned nmsg, size_t maxlen)
{
    unsigned keep = nmsg / 2, got = 0;
    nc_event ev;
    int rc;

    for (unsigned i = 0; i < RECV_BUFS; i++)
        nc_provide_recv(p, region(p, maxlen ? maxlen : 1), maxlen, NULL);
    while (got < keep && !failures) {
        if (wait_event(p, &ev, DEADLINE_NS) != NC_OK || ev.type != NC_EVENT_RECV ||
            ev.status != NC_OK || ev.group != GROUP) {
            FAIL("rejoin: message %u of %u did not come before the close\n", got, keep);
            break;
        }
        got++;
        nc_provide_recv(p, ev.buf, maxlen, NULL);
    }
    nc_close(p);
    p = open_port(0);
    create_group(p, 0);
    nc_host_printf("rejoin: node %u closed its port after %u messages, opened it and set the "
                   "group again\n", me, got);
    fixed_len = REJOIN_LEN;
    rc = member(p, REJOIN_MSGS, REJOIN_LEN);
    nc_close(p);
    return rc;
}

static int rejoin(int argc, char **argv)
{
    unsigned nmsg = 4, out = 1;
    size_t maxlen = 1000;
    nc_port *p = reopen_start("rejoin", argc, argv, &nmsg, &maxlen, &out);
    int rc;

    if (!p)
        return 2;
    if ((int)me == reopened)
        return rejoin_member(p, nmsg, maxlen);
    rc = me == 0 ? root(p, nmsg, maxlen, out) : member(p, nmsg, maxlen);
    if (!rc) {
        /* the second run: the group set again, every message NC_OK */
        reopened = -1;
        fixed_len = REJOIN_LEN;
        if (me == 0 && (rc = nc_set_send_timeout(p, REJOIN_TIMEOUT_US)) != NC_OK)
            FAIL("nc_set_send_timeout: %s\n", nc_strerror(rc));
        create_group(p, 0);
        rc = me == 0 ? root(p, REJOIN_MSGS, REJOIN_LEN, out) : member(p, REJOIN_MSGS, REJOIN_LEN);
    }
    if (me == 0)
        nc_host_printf("rejoin done failures=%d\n", failures);
    nc_close(p);
    return rc || failures;
}

static int conc(int argc, char **argv)
{
    unsigned nroots = argc > 3 ? (unsigned)atoi(argv[3]) : 2;
    const char *kind = argc > 4 ? argv[4] : "binomial";
    unsigned nmsg = argc > 5 ? (unsigned)atoi(argv[5]) : 20;
    size_t maxlen = argc > 6 ? strtoul(argv[6], NULL, 0) : 4096;
    /* the pair of roots 0 and 3 (4 nodes): trees crossing (cyclic) or the
     * same setting with ID-ordered trees (ordered) */
    bool cyclic = argc > 7 && !strcmp(argv[7], "cyclic");
    bool ordered = argc > 7 && !strcmp(argv[7], "ordered");
    bool pair = cyclic || ordered;
    static nc_member members[NC_GROUP_MAX_MEMBERS];
    static int list[MAX_ROOTS][NC_GROUP_MAX_MEMBERS];
    unsigned got[MAX_ROOTS] = { 0 }, sent = 0, want = 0, total = 0, timedout = 0;
    uint8_t *rbuf, *sbuf = NULL;
    nc_event ev;
    nc_port *p;
    int rc;

    if (nn < 2 || nroots < 1 || nroots > MAX_ROOTS || nroots > nn || maxlen > 65536 ||
        (argc > 7 && !pair) || (pair && (nn != 4 || nroots != 2))) {
        nc_host_printf("FAIL conc: bad arguments (nodes %u, roots %u, maxlen %zu%s)\n", nn,
                       nroots, maxlen,
                       argc > 7 && !pair ? ", the last one is cyclic or ordered"
                       : pair ? ", cyclic and ordered need 4 nodes and 2 roots" : "");
        return 2;
    }
    for (unsigned i = 0; i < nn; i++)
        members[i] = (nc_member){ (uint16_t)i, 0 };
    p = open_port(0);
    if (pair && (rc = nc_set_send_timeout(p, CYCLIC_TIMEOUT_US)) != NC_OK)
        FAIL("nc_set_send_timeout: %s\n", nc_strerror(rc));
    for (unsigned r = 0; r < nroots; r++) {
        nc_tree_spec spec;
        static const int cyc[2][4] = { { -1, 0, 1, 0 }, { 3, 2, 3, -1 } };
        /* group 1 without the crossing: 0<-3, 1<-0, 2<-1 */
        static const int ord[2][4] = { { -1, 0, 1, 0 }, { 3, 0, 1, -1 } };

        if (pair) {
            for (unsigned i = 0; i < 4; i++)
                list[r][i] = cyclic ? cyc[r][i] : ord[r][i];
            spec = (nc_tree_spec){ cyclic ? NC_TREE_LIST_UNORDERED : NC_TREE_LIST, 0, 0, list[r], 0, NULL, 0, 0 };
        } else if (!tree_spec(kind, &spec, list[r])) {
            FAIL("conc: bad kind %s\n", kind);
            return 2;
        }
        /* group r's root: node r (node 3 for the cyclic run's group 1) */
        if ((rc = nc_group_create(p, GROUP + r, members, nn, pair && r ? 3 : r, &spec)) != NC_OK)
            FAIL("nc_group_create %u: %s\n", r, nc_strerror(rc));
    }
    int myroot = -1;

    for (unsigned r = 0; r < nroots; r++)
        if ((pair && r ? 3u : r) == me)
            myroot = (int)r;
    for (unsigned r = 0; r < nroots; r++)
        if ((int)r != myroot)
            want += nmsg;
    rbuf = region(p, maxlen ? maxlen : 1);
    if (myroot >= 0)
        sbuf = region(p, maxlen ? maxlen : 1);
    if ((rc = nc_provide_recv(p, rbuf, maxlen, NULL)) != NC_OK)
        FAIL("nc_provide_recv: %s\n", nc_strerror(rc));
    if (myroot >= 0) {
        pat_fill(sbuf, size_of(0, maxlen), (uint32_t)seed, (uint32_t)myroot, 0);
        if ((rc = nc_mcast(p, GROUP + (uint32_t)myroot, sbuf, size_of(0, maxlen), NULL)) != NC_OK)
            FAIL("nc_mcast: %s\n", nc_strerror(rc));
    }
    while (!failures && (total < want || (myroot >= 0 && sent < nmsg))) {
        if (wait_event(p, &ev, DEADLINE_NS) != NC_OK) {
            for (unsigned r = 0; r < nroots; r++)
                if ((int)r != myroot && got[r] < nmsg)
                    nc_host_printf("conc stuck group %u k %u\n", r, got[r]);
            FAIL("conc: nothing came for %llu ns (sent %u, got %u of %u)\n", DEADLINE_NS, sent,
                 total, want);
            break;
        }
        if (ev.type == NC_EVENT_SENT && myroot >= 0 && ev.group == GROUP + (uint32_t)myroot) {
            nc_host_printf("ms sent g=%#x k=%u len=%zu st=%d\n", ev.group, sent, ev.len, ev.status);
            if (ev.status != NC_OK) {
                nc_host_printf("conc root %d: message %u status %s\n", myroot, sent,
                               nc_strerror(ev.status));
                timedout += ev.status == NC_ETIMEDOUT;
                if (!cyclic)
                    FAIL("conc: SENT status %s\n", nc_strerror(ev.status));
            }
            if (++sent < nmsg) {
                size_t len = size_of(sent, maxlen);

                pat_fill(sbuf, len, (uint32_t)seed, (uint32_t)myroot, sent);
                if ((rc = nc_mcast(p, GROUP + (uint32_t)myroot, sbuf, len, NULL)) != NC_OK)
                    FAIL("nc_mcast: %s\n", nc_strerror(rc));
            }
            continue;
        }
        unsigned r = ev.group - GROUP;

        if (ev.type == NC_EVENT_RECV)
            nc_host_printf("ms recv g=%#x id=%d len=%zu\n", ev.group,
                           r < nroots ? message_of(ev.buf, ev.len, r, got[r], nmsg, maxlen) : -1,
                           ev.len);
        if (ev.type != NC_EVENT_RECV || r >= nroots || (int)r == myroot || ev.status != NC_OK ||
            ev.len != size_of(got[r], maxlen) ||
            pat_check(ev.buf, ev.len, (uint32_t)seed, r, got[r])) {
            FAIL("conc: event type %d group %#x status %s len %zu (group %u message %u)\n",
                 ev.type, ev.group, nc_strerror(ev.status), ev.len, r, r < nroots ? got[r] : 0);
            continue;
        }
        got[r]++;
        total++;
        if ((rc = nc_provide_recv(p, rbuf, maxlen, NULL)) != NC_OK)
            FAIL("nc_provide_recv: %s\n", nc_strerror(rc));
    }
    nc_host_printf("conc done sent=%u got=%u timedout=%u failures=%d\n", sent, total, timedout,
                   failures);
    nc_close(p);
    return failures != 0;
}

/* The ID-ordered rule and tree shape of parent[] over members: 0 if kept,
 * else 1 (and why, when loud). */
static int tree_broken(const nc_member *m, unsigned n, unsigned root, const int *parent,
                       bool loud)
{
    static unsigned deg[NC_GROUP_MAX_MEMBERS];

    memset(deg, 0, sizeof deg);
    for (unsigned i = 0; i < n; i++) {
        unsigned steps = 0;
        int q = parent[i];

        if ((i == root) != (q == -1))
            return loud ? nc_host_printf("member %u: parent %d (root %u)\n", i, q, root), 1 : 1;
        if (q >= 0 && (unsigned)q != root &&
            (m[i].node << 8 | m[i].port) < (m[q].node << 8 | m[q].port))
            return loud ? nc_host_printf("member %u (node %u) below %d (node %u): not ID-ordered\n",
                                         i, m[i].node, q, m[q].node), 1 : 1;
        if (q >= 0 && ++deg[q] > NC_GROUP_MAX_CHILDREN)
            return loud ? nc_host_printf("member %d: too many children\n", q), 1 : 1;
        for (q = (int)i; q != -1; q = parent[q])
            if (++steps > n)
                return loud ? nc_host_printf("member %u: does not reach the root\n", i), 1 : 1;
    }
    return 0;
}

static int api(void)
{
    static nc_member m[NC_GROUP_MAX_MEMBERS];
    static int parent[NC_GROUP_MAX_MEMBERS], list[NC_GROUP_MAX_MEMBERS];
    const nc_tree_spec kinds[] = {
        { NC_TREE_BINOMIAL, 0, 0, NULL, 0, NULL, 0, 0 }, { NC_TREE_KBINOMIAL, 1, 0, NULL, 0, NULL, 0, 0 },
        { NC_TREE_KBINOMIAL, 2, 0, NULL, 0, NULL, 0, 0 }, { NC_TREE_KBINOMIAL, 3, 0, NULL, 0, NULL, 0, 0 },
        { NC_TREE_POSTAL, 0, 1, NULL, 0, NULL, 0, 0 }, { NC_TREE_POSTAL, 0, 2, NULL, 0, NULL, 0, 0 },
        { NC_TREE_POSTAL, 0, 5, NULL, 0, NULL, 0, 0 },
    };
    unsigned checked = 0;

    if (me != 0)
        return 0;
    for (unsigned n = 2; n <= 200; n += n < 20 ? 1 : 17) {
        /* a seeded member list: distinct nodes in a shuffled order, the
         * root anywhere */
        unsigned root = (unsigned)(rnd(n) % n);

        for (unsigned i = 0; i < n; i++)
            m[i] = (nc_member){ (uint16_t)(i * 3 + 1), (uint8_t)(i % 2) };
        for (unsigned i = n - 1; i > 0; i--) {
            unsigned j = (unsigned)(rnd(n * 1000 + i) % (i + 1));
            nc_member t = m[i];

            m[i] = m[j], m[j] = t;
        }
        for (unsigned k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
            int rc = nc_group_tree(m, n, root, &kinds[k], parent);

            if (rc != NC_OK) {
                FAIL("api: kind %d k %u lambda %u over %u members: %s\n", kinds[k].kind,
                     kinds[k].k, kinds[k].lambda, n, nc_strerror(rc));
                continue;
            }
            if (tree_broken(m, n, root, parent, true))
                FAIL("api: kind %d k %u lambda %u over %u members, root %u: broken tree\n",
                     kinds[k].kind, kinds[k].k, kinds[k].lambda, n, root);
            checked++;
        }
    }
    /* members 0..5 on nodes 0..5, root 0: a chain 0-1-2-3-4-5 is ordered;
     * 0-1-3-2 (2 below 3) is not */
    for (unsigned i = 0; i < 6; i++) {
        m[i] = (nc_member){ (uint16_t)i, 0 };
        list[i] = (int)i - 1;
    }
    nc_tree_spec l = { NC_TREE_LIST, 0, 0, list, 0, NULL, 0, 0 };
    if (nc_group_tree(m, 6, 0, &l, parent) != NC_OK || tree_broken(m, 6, 0, parent, true))
        FAIL("api: an ordered chain was refused or broken\n");
    list[2] = 3, list[3] = 1;
    if (nc_group_tree(m, 6, 0, &l, parent) != NC_EINVAL)
        FAIL("api: a list that breaks the ID order was not refused\n");
    l.kind = NC_TREE_LIST_UNORDERED;
    if (nc_group_tree(m, 6, 0, &l, parent) != NC_OK)
        FAIL("api: the unordered kind refused an unordered tree\n");
    else if (!tree_broken(m, 6, 0, parent, false))
        FAIL("api: the checker did not see the unordered tree's violation\n");
    else
        nc_host_printf("api: the checker finds the unordered tree's violation (negative control)\n");
    list[1] = 2, list[2] = 1;   /* 1 and 2 each other's parent */
    if (nc_group_tree(m, 6, 0, &l, parent) != NC_EINVAL)
        FAIL("api: a cycle was not refused\n");
    list[1] = 0, list[2] = -1;  /* two roots */
    if (nc_group_tree(m, 6, 0, &l, parent) != NC_EINVAL)
        FAIL("api: two roots were not refused\n");
    static unsigned twice[40], rev[40], ident[40];
    for (unsigned i = 0; i < 40; i++) {
        m[i] = (nc_member){ (uint16_t)i, 0 };
        ident[i] = i;
        rev[i] = i ? 40 - i : 0;        /* the root, then the others backwards */
        twice[i] = i == 39 ? 1 : i;     /* member 1 twice, 39 missing */
    }
    nc_tree_spec bad[] = { { NC_TREE_POSTAL, 0, 65, NULL, 0, NULL, 0, 0 },
                           { .kind = NC_TREE_KBINOMIAL, .pkt_size = 100 },
                           { NC_TREE_FLAT, 0, 0, NULL, 0, NULL, 0, 0 }, { NC_TREE_LIST, 0, 0, NULL, 0, NULL, 0, 0 },
                           { .kind = NC_TREE_BINOMIAL, .order = twice },
                           { .kind = NC_TREE_BINOMIAL, .order = rev + 1 } };
    for (unsigned k = 0; k < sizeof bad / sizeof bad[0]; k++)
        if (nc_group_tree(m, k == 5 ? 39 : 40, 0, &bad[k], parent) != NC_EINVAL)
            FAIL("api: bad spec %u (postal lambda 65, packets of 100 B, flat over 40, list without "
                 "parents, an order with a member twice, an order not starting at the root) "
                 "not refused\n", k);
    /* k 0: seed 001's optimal k for the message's packets; a named order:
     * the same tree on the positions, members relabelled */
    {
        int p_opt[40], p_k[40], p_id[40], p_rev[40];
        unsigned kopt = 0, pk = 0;
        nc_tree_spec opt = { .kind = NC_TREE_KBINOMIAL, .size = 4096, .pkt_size = 64 };
        nc_tree_spec fixed = { .kind = NC_TREE_KBINOMIAL };
        nc_tree_spec byid = { .kind = NC_TREE_BINOMIAL, .order = ident };
        nc_tree_spec byrev = { .kind = NC_TREE_BINOMIAL, .order = rev };

        if (nc_group_optimal_k(40, 4096, 64, &kopt, &pk) || pk != 64 || kopt < 1 || kopt > 6)
            FAIL("api: nc_group_optimal_k(40, 4096, 64): k %u, %u packets\n", kopt, pk);
        fixed.k = kopt;
        if (nc_group_tree(m, 40, 0, &opt, p_opt) || nc_group_tree(m, 40, 0, &fixed, p_k) ||
            memcmp(p_opt, p_k, sizeof p_opt))
            FAIL("api: k 0 is not the tree of the optimal k %u\n", kopt);
        if (nc_group_tree(m, 40, 0, &byid, p_id) || nc_group_tree(m, 40, 0, &kinds[0], p_k) ||
            memcmp(p_id, p_k, sizeof p_id))
            FAIL("api: the identity order is not the ID order\n");
        if (nc_group_tree(m, 40, 0, &byrev, p_rev))
            FAIL("api: the reversed order was refused\n");
        for (unsigned i = 1; i < 40; i++)
            if (p_rev[rev[i]] != (int)rev[p_id[i]])
                FAIL("api: on the reversed order member %u's parent is %d, want %u\n", rev[i],
                     p_rev[rev[i]], rev[p_id[i]]);
        checked += 4;
    }
    m[7] = m[3];
    if (nc_group_tree(m, 10, 0, &kinds[0], parent) != NC_EINVAL)
        FAIL("api: a member twice was not refused\n");
    nc_host_printf("api: %u trees checked\n", checked);
    nc_host_printf("api done failures=%d\n", failures);
    return failures != 0;
}

/* postal: lambda 0 takes the profile's postal table (host/lib/nc_postal.c).
 * Node 0 prints each size's lambda, checks that the lambda-0 tree for that
 * size is the tree of that lambda, and that nc_group_create takes it; with
 * no valid table it prints why and checks that nc_group_create refuses
 * lambda 0 (NC_EINVAL). */
static int postal(void)
{
    static const size_t sizes[] = { 0, 4, 100, 128, 256, 512, 1024, 2048, 3000, 4096, 8192,
                                    16384, 65536 };
    static nc_member m[16];
    static int pa[16], pb[16];
    char why[512];
    unsigned lambda;
    nc_port *p;
    int rc;

    if (me != 0)
        return 0;
    for (unsigned i = 0; i < 16; i++)
        m[i] = (nc_member){ (uint16_t)i, 0 };
    p = open_port(0);
    if (nc_postal_lambda(0, &lambda, why, sizeof why) != NC_OK) {
        nc_tree_spec s0 = { NC_TREE_POSTAL, 0, 0, NULL, 64, NULL, 0, 0 };

        nc_host_printf("postal table refused: %s\n", why);
        rc = nc_group_create(p, GROUP, m, nn, 0, &s0);
        nc_host_printf("postal: nc_group_create with lambda 0: %s\n", nc_strerror(rc));
        if (rc != NC_EINVAL)
            FAIL("postal: lambda 0 without a valid table was not refused\n");
        nc_close(p);
        nc_host_printf("postal done failures=%d\n", failures);
        return failures != 0;
    }
    for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        nc_tree_spec s0 = { NC_TREE_POSTAL, 0, 0, NULL, sizes[i], NULL, 0, 0 };
        nc_tree_spec sl = { NC_TREE_POSTAL, 0, 0, NULL, 0, NULL, 0, 0 };

        if ((rc = nc_postal_lambda(sizes[i], &lambda, why, sizeof why)) != NC_OK) {
            FAIL("postal: size %zu: %s\n", sizes[i], why);
            continue;
        }
        sl.lambda = lambda;
        nc_host_printf("postal size=%zu lambda=%u\n", sizes[i], lambda);
        if (nc_group_tree(m, 16, 0, &s0, pa) != NC_OK || nc_group_tree(m, 16, 0, &sl, pb) != NC_OK ||
            memcmp(pa, pb, sizeof pa))
            FAIL("postal: size %zu: the lambda-0 tree is not postal:%u's\n", sizes[i], lambda);
    }
    nc_tree_spec s0 = { NC_TREE_POSTAL, 0, 0, NULL, 4096, NULL, 0, 0 };
    if ((rc = nc_group_create(p, GROUP, m, nn, 0, &s0)) != NC_OK)
        FAIL("postal: nc_group_create with lambda 0: %s\n", nc_strerror(rc));
    nc_close(p);
    nc_host_printf("postal done failures=%d\n", failures);
    return failures != 0;
}

/* The next event of p that is an error or a send's completion. */
static int refusal(nc_port *p, const char *what)
{
    nc_event ev;

    if (wait_event(p, &ev, DEADLINE_NS) != NC_OK) {
        FAIL("perm: %s: no answer\n", what);
        return 0;
    }
    nc_host_printf("perm: %s: event type %d status %s\n", what, ev.type, nc_strerror(ev.status));
    return ev.status;
}

static int perm(void)
{
    nc_port *p = open_port(0);
    nc_event ev;

    create_group(p, 0);
    if (me == 0) {
        nc_port *q = open_port(1);
        nc_member dests[1] = { { (uint16_t)(nn - 1), 0 } }, r = { 0, 1 };
        uint8_t *b = region(q, 64), *a = region(p, 64);

        if (nc_mcast(q, GROUP, b, 64, NULL) != NC_OK || refusal(q, "multicast") != NC_EPERM)
            FAIL("perm: port 1's multicast on port 0's group was not refused with NC_EPERM\n");
        if (nc_group_multisend(q, GROUP, r, dests, 1) != NC_OK ||
            refusal(q, "set") != NC_EPERM)
            FAIL("perm: port 1 setting port 0's group was not refused with NC_EPERM\n");
        if (nc_group_destroy(q, GROUP) != NC_OK || refusal(q, "destroy") != NC_EPERM)
            FAIL("perm: port 1 destroying port 0's group was not refused with NC_EPERM\n");
        pat_fill(a, 64, (uint32_t)seed, 0, 0);
        if (nc_mcast(p, GROUP, a, 64, NULL) != NC_OK || wait_event(p, &ev, DEADLINE_NS) ||
            ev.type != NC_EVENT_SENT || ev.status != NC_OK)
            FAIL("perm: port 0's own multicast did not complete\n");
        nc_close(q);
    } else {
        uint8_t *b = region(p, 64);

        nc_provide_recv(p, b, 64, NULL);
        if (wait_event(p, &ev, DEADLINE_NS) || ev.type != NC_EVENT_RECV || ev.group != GROUP ||
            ev.len != 64 || pat_check(b, 64, (uint32_t)seed, 0, 0))
            FAIL("perm: member did not get port 0's multicast intact\n");
    }
    nc_host_printf("perm done failures=%d\n", failures);
    nc_close(p);
    return failures != 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "ms";

    me = nc_host_node();
    nn = nc_host_nodes();
    seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 1;
    if (me == 0)
        nc_host_printf("host_mcast %s seed=%llu nodes=%u\n", mode, (unsigned long long)seed, nn);
    if (!strcmp(mode, "ms"))
        return ms(argc, argv);
    if (!strcmp(mode, "perm"))
        return perm();
    if (!strcmp(mode, "tree"))
        return tree(argc, argv);
    if (!strcmp(mode, "api"))
        return api();
    if (!strcmp(mode, "conc"))
        return conc(argc, argv);
    if (!strcmp(mode, "reopen"))
        return reopen(argc, argv);
    if (!strcmp(mode, "postal"))
        return postal();
    if (!strcmp(mode, "rejoin"))
        return rejoin(argc, argv);
    nc_host_printf("FAIL unknown mode '%s'\n", mode);
    return 2;
}
