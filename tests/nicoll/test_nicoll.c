/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of libnicoll (host/lib/nicoll.c) over its pci backend and a
 * file-backed fake BAR: a thread plays the MCP's side of the command ring
 * (nc_abi.h) through a second mapping of the same file, and writes events
 * into the event ring as the real MCP's DMA would. cmocka, TAP output.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "board.h"
#include "nc_group.h"
#include "nicoll/lanai9_regs.h"
#include "nicoll/nc_abi.h"
#include "nicoll.h"
#include "nicoll/shared_block.h"

#define SRAM   0x200000u
#define SB     NC_SB_ADDR(SRAM)
#define ABI    0x10000u
#define BUS    0x100000000ull
#define EVRING (64u * 32u)      /* the event ring is the arena's first allocation */

static char path[64];
static struct nc_board mcp;     /* the fake MCP's view of the window */
static pthread_t thr;
static volatile int running;
static uint32_t cmds[64][NC_CMD_WORDS];
static volatile unsigned ncmds;

static uint32_t R(uint32_t off) { return nc_board_read32(&mcp, off); }
static void W(uint32_t off, uint32_t v) { nc_board_write32(&mcp, off, v); }

/* Execute every new command of port 0 the way the MCP would (state only). */
static void *fake_mcp(void *arg)
{
    uint32_t pb = ABI + NC_ABI_OFF_PORT(0), cons = R(pb + NC_ABI_PORT_CONS);

    (void)arg;
    while (running) {
        if (R(pb + NC_ABI_PORT_PROD) == cons) {
            usleep(100);
            continue;
        }
        uint32_t *c = cmds[ncmds % 64];
        for (unsigned i = 0; i < NC_CMD_WORDS; i++)
            c[i] = R(pb + NC_ABI_PORT_CMD(cons % NC_ABI_CMD_SLOTS) + 4 * i);
        if (c[0] == NC_CMD_OPEN)
            W(pb + NC_ABI_PORT_STATE, 1);
        if (c[0] == NC_CMD_CLOSE)
            W(pb + NC_ABI_PORT_STATE, 0);
        ncmds++;
        W(pb + NC_ABI_PORT_CONS, ++cons);
    }
    return NULL;
}

static int setup(void **state)
{
    char err[256];

    (void)state;
    strcpy(path, "/tmp/nicoll-bar-XXXXXX");
    close(mkstemp(path));
    if (nc_board_make_fake(path, SRAM, 133, 1, err, sizeof err) ||
        nc_board_open_mmap(&mcp, path, err, sizeof err))
        return -1;
    W(SB + NC_SB_OFF_READY, NC_SB_READY_MAGIC);
    W(SB + NC_SB_OFF_NODE_ID, 2);
    W(SB + NC_SB_OFF_NNODES, 4);
    W(SB + NC_SB_OFF_ABI, ABI);
    W(ABI, NC_ABI_MAGIC);
    W(ABI + 4, NC_ABI_VERSION);
    W(ABI + offsetof(struct nc_abi, max_nodes), NC_ABI_MAX_NODES);
    ncmds = 0;
    running = 1;
    return pthread_create(&thr, NULL, fake_mcp, NULL);
}

static int teardown(void **state)
{
    (void)state;
    running = 0;
    pthread_join(thr, NULL);
    nc_board_close(&mcp);
    unlink(path);
    return 0;
}

static void test_strerror(void **state)
{
    (void)state;
    for (int e = NC_OK; e >= NC_ENOREGION; e--) {
        assert_string_not_equal(nc_strerror(e), "unknown error");
        for (int f = e - 1; f >= NC_ENOREGION; f--)
            assert_string_not_equal(nc_strerror(e), nc_strerror(f));
    }
    assert_string_equal(nc_strerror(-99), "unknown error");
}

static void test_no_mcp(void **state)
{
    nc_port *p;

    (void)state;
    W(SB + NC_SB_OFF_READY, 0);
    assert_int_equal(nc_open_pci(&p, path, 0, 1 << 20, BUS), NC_ENODEV);
    assert_null(p);
    W(SB + NC_SB_OFF_READY, NC_SB_READY_MAGIC);
    assert_int_equal(nc_open_pci(&p, path, 8, 1 << 20, BUS), NC_EINVAL);
    assert_int_equal(nc_open_pci(&p, "/nonexistent/bar", 0, 1 << 20, BUS), NC_ENODEV);
    /* an MCP of another ABI layout is not this library's */
    W(ABI + 4, NC_ABI_VERSION - 1);
    assert_int_equal(nc_open_pci(&p, path, 0, 1 << 20, BUS), NC_ENODEV);
    W(ABI + 4, NC_ABI_VERSION);
}

static void test_open_routes_close(void **state)
{
    nc_port *p, *q;

    (void)state;
    assert_int_equal(nc_open_pci(&p, path, 0, 1 << 20, BUS), NC_OK);
    assert_int_equal(nc_node_id(p), 2);
    assert_int_equal(nc_node_count(p), 4);
    /* routes loaded by the host: crossbar, 0x80 | node */
    assert_int_equal(R(ABI + NC_ABI_OFF_ROUTES_VALID), 4);
    for (unsigned n = 0; n < 4; n++)
        assert_int_equal(R(ABI + NC_ABI_OFF_ROUTES + 8 * n) >> 16, 0x0100u | 0x80u | n);
    assert_int_equal(R(L9_BAR_SPECIAL + L9_EIMR), L9_ISR_HOST_SIG);
    assert_int_equal(ncmds, 1);
    assert_int_equal(cmds[0][0], NC_CMD_OPEN);
    assert_int_equal((uint64_t)cmds[0][1] << 32 | cmds[0][2], BUS);
    assert_int_equal(cmds[0][3], 64);
    /* a second process cannot open the same port */
    assert_int_equal(nc_open_pci(&q, path, 0, 1 << 20, BUS), NC_EBUSY);
    assert_int_equal(nc_close(p), NC_OK);
    assert_int_equal(cmds[1][0], NC_CMD_CLOSE);
    assert_int_equal(R(ABI + NC_ABI_OFF_PORT(0) + NC_ABI_PORT_STATE), 0);
}

static void put_event(uint8_t *ring, unsigned i, uint32_t type, uint32_t st, uint32_t cookie,
                      uint32_t len, uint32_t src, uint32_t sport)
{
    uint32_t w[8] = { i + 1, type, st, cookie, len, src, sport, 0 };
    for (unsigned k = 0; k < 8; k++)
        for (unsigned b = 0; b < 4; b++)
            ring[(i % 64) * 32 + 4 * k + b] = (uint8_t)(w[k] >> (24 - 8 * b));
}

static void test_commands_and_events(void **state)
{
    nc_port *p;
    nc_event ev;
    uint8_t *buf, *ring, local[16];
    int ctx;

    (void)state;
    assert_int_equal(nc_open_pci(&p, path, 0, 1 << 20, BUS), NC_OK);
    buf = nc_alloc(p, 8192);
    assert_non_null(buf);
    ring = buf - EVRING;
    assert_int_equal(nc_register(p, buf, 8192), NC_OK);
    while (ncmds < 2)
        usleep(100);
    assert_int_equal(cmds[1][0], NC_CMD_REG);
    assert_int_equal((uint64_t)cmds[1][2] << 32 | cmds[1][3], BUS + EVRING);
    assert_int_equal(cmds[1][4], 8192);
    /* memory that is not DMA-able, bad node and port: refused here */
    assert_int_equal(nc_send(p, 1, 0, local, sizeof local, NULL), NC_EFAULT);
    assert_int_equal(nc_register(p, local, sizeof local), NC_EFAULT);
    assert_int_equal(nc_send(p, 4, 0, buf, 16, NULL), NC_EINVAL);
    assert_int_equal(nc_send(p, 1, 8, buf, 16, NULL), NC_EINVAL);
    /* tokens: 16 sends, then NC_EAGAIN until an event returns one */
    for (int i = 0; i < 16; i++)
        assert_int_equal(nc_send(p, 1, 3, buf + i, 200, &ctx), NC_OK);
    assert_int_equal(nc_send_tokens(p), 0);
    assert_int_equal(nc_send(p, 1, 3, buf, 200, NULL), NC_EAGAIN);
    while (ncmds < 18)
        usleep(100);
    /* longer than the inline limit: the NIC fetches it by DMA */
    assert_int_equal(cmds[17][0], NC_CMD_SEND);
    assert_int_equal((uint64_t)cmds[17][1] << 32 | cmds[17][2], BUS + EVRING + 15);
    assert_int_equal(cmds[17][3], 200);
    assert_int_equal(cmds[17][4], 1);
    assert_int_equal(cmds[17][5], 3);
    assert_int_equal(nc_poll(p, &ev), 0);
    put_event(ring, 0, NC_EV_SENT, NC_ST_EPORTCLOSED, cmds[17][6], 200, 1, 3);
    assert_int_equal(nc_poll(p, &ev), 1);
    assert_int_equal(ev.type, NC_EVENT_SENT);
    assert_int_equal(ev.status, NC_EPORTCLOSED);
    assert_ptr_equal(ev.ctx, &ctx);
    assert_ptr_equal(ev.buf, buf + 15);
    assert_int_equal(nc_send_tokens(p), 1);
    /* a receive buffer and its event */
    assert_int_equal(nc_provide_recv(p, buf + 4096, 4096, &ctx), NC_OK);
    while (ncmds < 19)
        usleep(100);
    put_event(ring, 1, NC_EV_RECV, NC_ST_OK, cmds[18][4], 77, 3, 5);
    assert_int_equal(nc_wait(p, &ev, 1000000000), NC_OK);
    assert_int_equal(ev.type, NC_EVENT_RECV);
    assert_int_equal(ev.len, 77);
    assert_int_equal(ev.node, 3);
    assert_int_equal(ev.port, 5);
    assert_ptr_equal(ev.buf, buf + 4096);
    /* the send time-out: beyond the maximum refused here, else one
     * command; a send that timed out comes back NC_ETIMEDOUT */
    assert_int_equal(nc_set_send_timeout(p, NC_SEND_TIMEOUT_MAX_US + 1), NC_EINVAL);
    assert_int_equal(nc_set_send_timeout(p, 2500), NC_OK);
    assert_int_equal(nc_send(p, 1, 3, buf, 200, &ctx), NC_OK);
    while (ncmds < 21)
        usleep(100);
    assert_int_equal(cmds[19][0], NC_CMD_TIMEOUT);
    assert_int_equal(cmds[19][1], 2500);
    put_event(ring, 2, NC_EV_SENT, NC_ST_ETIMEDOUT, cmds[20][6], 200, 1, 3);
    assert_int_equal(nc_poll(p, &ev), 1);
    assert_int_equal(ev.type, NC_EVENT_SENT);
    assert_int_equal(ev.status, NC_ETIMEDOUT);
    assert_ptr_equal(ev.ctx, &ctx);
    /* nothing more: a bounded wait times out */
    assert_int_equal(nc_wait(p, &ev, 2000000), NC_ETIMEDOUT);
    assert_int_equal(nc_deregister(p, buf), NC_OK);
    assert_int_equal(nc_deregister(p, buf), NC_EINVAL);
    nc_close(p);
}

/* Wait until the fake MCP has taken n commands. */
static void commands(unsigned n)
{
    while (ncmds < n)
        usleep(100);
}

/* The step word of nc_abi.h, written out here from the ABI's definition
 * (op << 28 | phase << 24 | port << 16 | node), not with the library's
 * encoder, so that the list the NIC gets is checked against the ABI. */
static uint32_t abi_step(unsigned op, unsigned phase, nc_member m)
{
    return (uint32_t)op << 28 | (uint32_t)phase << 24 | (uint32_t)m.port << 16 | m.node;
}

/* The list the library handed the NIC with command c (its bus address in
 * the arena, whose first byte is ring[0]). */
static void assert_list(const uint8_t *ring, const uint32_t *c, const uint32_t *want, unsigned n)
{
    uint64_t bus = (uint64_t)c[1] << 32 | c[2];

    assert_int_equal(c[0], NC_CMD_BARRIER);
    assert_int_equal(c[3], 4 * n);
    for (unsigned i = 0; i < n; i++) {
        const uint8_t *w = ring + (bus - BUS) + 4 * i;
        assert_int_equal((uint32_t)w[0] << 24 | (uint32_t)w[1] << 16 | (uint32_t)w[2] << 8 | w[3],
                         want[i]);
    }
}

#define P 0xA5A5A5A5u   /* a word of the slot that the library does not write */

/* Fill the ring's next n slots with P, once the fake MCP took every command
 * so far: a word a command does not use shows as P. */
static void poison(unsigned n)
{
    uint32_t pb = ABI + NC_ABI_OFF_PORT(0);

    while (R(pb + NC_ABI_PORT_PROD) != R(pb + NC_ABI_PORT_CONS))
        usleep(100);
    for (unsigned s = 0; s < n; s++)
        for (unsigned i = 0; i < NC_CMD_WORDS; i++)
            W(pb + NC_ABI_PORT_CMD((R(pb + NC_ABI_PORT_PROD) + s) % NC_ABI_CMD_SLOTS) + 4 * i, P);
}

/* The fake MCP's command k (from 0) is want, word for word. */
static void assert_command(unsigned k, const uint32_t *want)
{
    commands(k + 1);
    for (unsigned i = 0; i < NC_CMD_WORDS; i++)
        if (cmds[k % 64][i] != want[i])
            fail_msg("command %u (opcode %u) word %u: 0x%08x, want 0x%08x", k, want[0], i,
                     cmds[k % 64][i], want[i]);
}

/* Every command and multicast operation as the NIC reads its slot: the
 * words of nc_abi.h's struct at their positions, and nothing written
 * beyond the words the command uses. */
static void test_command_words(void **state)
{
    nc_member m[4] = { { 3, 1 }, { 0, 2 }, { 2, 0 }, { 1, 5 } };
    nc_member root = { 2, 0 }, dests[3] = { { 1, 3 }, { 3, 1 }, { 0, 7 } }, parent = { 1, 3 };
    const uint32_t lo = (uint32_t)BUS, hi = (uint32_t)(BUS >> 32);
    uint32_t bar_hi, bar_lo;
    nc_barrier b;
    nc_port *p;
    uint8_t *buf;
    unsigned k = 0;
    int ctx;

    (void)state;
    poison(1);
    assert_int_equal(nc_open_pci(&p, path, 0, 1 << 20, BUS), NC_OK);
    assert_command(k++, (uint32_t[]){ NC_CMD_OPEN, hi, lo, 64, P, P, P, P });
    buf = nc_alloc(p, 8192);
    assert_ptr_not_equal(buf, NULL);
    poison(1);
    assert_int_equal(nc_register(p, buf, 8192), NC_OK);
    assert_command(k++, (uint32_t[]){ NC_CMD_REG, 0, hi, lo + EVRING, 8192, P, P, P });
    poison(1);
    assert_int_equal(nc_provide_recv(p, buf + 4096, 4096, &ctx), NC_OK);
    assert_command(k++, (uint32_t[]){ NC_CMD_RECV, hi, lo + EVRING + 4096, 4096, 0, P, P, P });
    poison(1);
    assert_int_equal(nc_send(p, 3, 2, buf, 200, &ctx), NC_OK);
    assert_command(k++, (uint32_t[]){ NC_CMD_SEND, hi, lo + EVRING, 200, 3, 2, 0, P });
    poison(1);
    assert_int_equal(nc_send(p, 1, 5, buf, 8, &ctx), NC_OK);
    assert_command(k++, (uint32_t[]){ NC_CMD_SENDI, 8, 1u << 8 | 5u, 1, P, P, P, P });
    poison(1);
    assert_int_equal(nc_set_send_timeout(p, 2500), NC_OK);
    assert_command(k++, (uint32_t[]){ NC_CMD_TIMEOUT, 2500, P, P, P, P, P, P });
    /* the first barrier registers the port's barrier buffer, then points at it */
    assert_int_equal(nc_barrier_pe(&b, m, 4, 2), NC_OK);
    poison(2);
    assert_int_equal(nc_barrier_start(p, &b, &ctx), NC_OK);
    commands(k + 1);
    bar_hi = cmds[k % 64][2];
    bar_lo = cmds[k % 64][3];
    assert_command(k++, (uint32_t[]){ NC_CMD_REG, 1, bar_hi, bar_lo, 4 * (1 + NC_BAR_MAX_STEPS),
                                      P, P, P });
    assert_command(k++, (uint32_t[]){ NC_CMD_BARRIER, bar_hi, bar_lo, 4 * 3, 0, P, P, P });
    /* multicast: the root's entry, two children a command; a member's and
     * a leaf's, one command; every SET and DEL the whole slot */
    poison(2);
    assert_int_equal(nc_group_multisend(p, 7, root, dests, 3), NC_OK);
    assert_command(k++, (uint32_t[]){ NC_CMD_MCAST, NC_MC_OP_SET, 7, NC_MC_ROOT, 3, 0,
                                      1u << 8 | 3u, 3u << 8 | 1u });
    assert_command(k++, (uint32_t[]){ NC_CMD_MCAST, NC_MC_OP_SET, 7, NC_MC_ROOT, 3, 2,
                                      0u << 8 | 7u, 0 });
    poison(1);
    assert_int_equal(nc_group_multisend(p, 8, parent, &root, 1), NC_OK);
    assert_command(k++, (uint32_t[]){ NC_CMD_MCAST, NC_MC_OP_SET, 8, 1u << 8 | 3u, 0, 0, 0, 0 });
    poison(1);
    assert_int_equal(nc_group_write(p, 9, &parent, NULL, 0, 0, false), NC_OK);
    assert_command(k++, (uint32_t[]){ NC_CMD_MCAST, NC_MC_OP_SET, 9, 1u << 8 | 3u, 0, 0, 0, 0 });
    poison(1);
    assert_int_equal(nc_mcast(p, 7, buf, 8, &ctx), NC_OK);
    assert_command(k++, (uint32_t[]){ NC_CMD_MCAST, NC_MC_OP_SENDI, 7, 8, 2, P, P, P });
    poison(1);
    assert_int_equal(nc_mcast(p, 7, buf + 16, 500, &ctx), NC_OK);
    assert_command(k++, (uint32_t[]){ NC_CMD_MCAST, NC_MC_OP_SEND, 7, hi, lo + EVRING + 16, 500,
                                      3, P });
    poison(1);
    assert_int_equal(nc_group_destroy(p, 7), NC_OK);
    assert_command(k++, (uint32_t[]){ NC_CMD_MCAST, NC_MC_OP_DEL, 7, 0, 0, 0, 0, 0 });
    /* a message of the signalling type, on the next send token (4); the
     * pci backend has no host signal to deliver, so no handler and no
     * signals on */
    poison(1);
    assert_int_equal(nc_signal_send(p, 3, 2, buf + 32, 100, &ctx), NC_OK);
    assert_command(k++, (uint32_t[]){ NC_CMD_SIGNAL, NC_SIG_OP_SEND, hi, lo + EVRING + 32, 100,
                                      3u << 8 | 2u, 4, P });
    assert_int_equal(nc_signal_send(p, 3, 2, buf, NC_SIGNAL_MAX + 1, &ctx), NC_EINVAL);
    assert_int_equal(nc_signal_enable(p), NC_ENOTSUP);
    assert_int_equal(nc_signal_handler(p, NULL, NULL), NC_ENOTSUP);
    poison(1);
    assert_int_equal(nc_deregister(p, buf), NC_OK);
    assert_command(k++, (uint32_t[]){ NC_CMD_DEREG, 0, P, P, P, P, P, P });
    poison(1);
    assert_int_equal(nc_close(p), NC_OK);
    assert_command(k++, (uint32_t[]){ NC_CMD_CLOSE, P, P, P, P, P, P, P });
}

/* Sends up to the inline limit go by PIO: the payload in the token's
 * inline area, a four-word SENDI; beyond it (or with the limit lowered),
 * a SEND for the NIC's DMA; the command words beyond a command's own are
 * never written (the slot keeps what an earlier command left). */
static void test_inline_sends(void **state)
{
    nc_port *p;
    nc_event ev;
    uint8_t *buf, *ring;
    uint32_t pb = ABI + NC_ABI_OFF_PORT(0);
    uint8_t area[NC_INLINE_MAX];
    int ctx;

    (void)state;
    assert_int_equal(nc_open_pci(&p, path, 0, 1 << 20, BUS), NC_OK);
    buf = nc_alloc(p, 4096);
    ring = buf - EVRING;
    assert_int_equal(nc_register(p, buf, 4096), NC_OK);
    for (unsigned i = 0; i < NC_INLINE_MAX + 1; i++)
        buf[i] = (uint8_t)(i * 7 + 1);
    assert_int_equal(nc_send(p, 3, 2, buf, 5, &ctx), NC_OK);
    commands(3);
    assert_int_equal(cmds[2][0], NC_CMD_SENDI);
    assert_int_equal(cmds[2][1], 5);
    assert_int_equal(cmds[2][2], 3u << 8 | 2u);
    assert_true(cmds[2][3] < NC_ABI_SEND_TOKENS);
    nc_board_read_words(&mcp, pb + NC_ABI_PORT_SDATA(cmds[2][3]), area, 5);
    assert_memory_equal(area, buf, 5);
    /* the largest inline send, whole, into another token's area */
    assert_int_equal(nc_send(p, 1, 0, buf, NC_INLINE_MAX, &ctx), NC_OK);
    commands(4);
    assert_int_equal(cmds[3][0], NC_CMD_SENDI);
    assert_int_equal(cmds[3][1], NC_INLINE_MAX);
    assert_int_not_equal(cmds[3][3], cmds[2][3]);
    nc_board_read_words(&mcp, pb + NC_ABI_PORT_SDATA(cmds[3][3]), area, NC_INLINE_MAX);
    assert_memory_equal(area, buf, NC_INLINE_MAX);
    /* one byte more: DMA */
    assert_int_equal(nc_send(p, 1, 0, buf, NC_INLINE_MAX + 1, &ctx), NC_OK);
    commands(5);
    assert_int_equal(cmds[4][0], NC_CMD_SEND);
    assert_int_equal(cmds[4][3], NC_INLINE_MAX + 1);
    /* the limit: 0 sends everything by DMA, beyond the ABI's is refused */
    assert_int_equal(nc_set_inline_max(p, NC_INLINE_MAX + 1), NC_EINVAL);
    assert_int_equal(nc_set_inline_max(p, 0), NC_OK);
    assert_int_equal(nc_send(p, 1, 0, buf, 1, &ctx), NC_OK);
    commands(6);
    assert_int_equal(cmds[5][0], NC_CMD_SEND);
    assert_int_equal(cmds[5][3], 1);
    /* an inline send completes like any other: its token comes back */
    put_event(ring, 0, NC_EV_SENT, NC_ST_OK, cmds[2][3], 5, 3, 2);
    assert_int_equal(nc_poll(p, &ev), 1);
    assert_int_equal(ev.type, NC_EVENT_SENT);
    assert_ptr_equal(ev.buf, buf);
    assert_int_equal(ev.len, 5);
    assert_int_equal(nc_close(p), NC_OK);
    /* NICOLL_INLINE_MAX at open: 0 sends by DMA; not a number in range is refused */
    setenv("NICOLL_INLINE_MAX", "129", 1);
    assert_int_equal(nc_open_pci(&p, path, 0, 1 << 20, BUS), NC_EINVAL);
    setenv("NICOLL_INLINE_MAX", "4x", 1);
    assert_int_equal(nc_open_pci(&p, path, 0, 1 << 20, BUS), NC_EINVAL);
    setenv("NICOLL_INLINE_MAX", "0", 1);
    assert_int_equal(nc_open_pci(&p, path, 0, 1 << 20, BUS), NC_OK);
    unsetenv("NICOLL_INLINE_MAX");
    buf = nc_alloc(p, 4096);
    assert_int_equal(nc_register(p, buf, 4096), NC_OK);
    while (R(pb + NC_ABI_PORT_PROD) != R(pb + NC_ABI_PORT_CONS))
        usleep(100);        /* the fake MCP took everything so far */
    unsigned before = ncmds;
    assert_int_equal(nc_send(p, 1, 0, buf, 4, &ctx), NC_OK);
    commands(before + 1);
    assert_int_equal(cmds[before % 64][0], NC_CMD_SEND);
    assert_int_equal(nc_close(p), NC_OK);
}

/* The NIC's step lists of a PE and a GB barrier (the ABI is frozen: the
 * same words as before nc_barrier_expand existed), and the list reused
 * (length 0) when it is the same as the previous one. */
static void test_barrier_lists(void **state)
{
    nc_member m[4] = { { 3, 1 }, { 0, 2 }, { 2, 0 }, { 1, 5 } };
    uint32_t want[1 + NC_BAR_MAX_STEPS];
    unsigned n = 0, evi = 0;
    nc_barrier b;
    nc_event ev;
    nc_port *p;
    uint8_t *ring;
    int ctx;

    (void)state;
    assert_int_equal(nc_open_pci(&p, path, 0, 1 << 20, BUS), NC_OK);
    ring = (uint8_t *)nc_alloc(p, 64) - EVRING;
    /* PE, member 2 of 4: an exchange per round, with members 3 and 0 */
    assert_int_equal(nc_barrier_pe(&b, m, 4, 2), NC_OK);
    assert_int_equal(b.nsteps, 2);
    want[n++] = NC_BAR_MAGIC << 16 | 2;
    for (unsigned i = 0; i < 2; i++) {
        assert_int_equal(b.step[i].op, NC_BAR_OP_EXCHANGE);
        want[n++] = abi_step(NC_BSTEP_SEND | NC_BSTEP_RECV, NC_BSTEP_PE, b.step[i].peer);
    }
    assert_int_equal(nc_barrier_start(p, &b, &ctx), NC_OK);
    assert_int_equal(nc_barrier_start(p, &b, &ctx), NC_EBUSY);
    commands(3);                            /* OPEN, REG of the barrier buffer, BARRIER */
    assert_int_equal(cmds[1][0], NC_CMD_REG);
    assert_list(ring, cmds[2], want, n);
    put_event(ring, evi++, NC_EV_BARRIER, NC_ST_OK, 0, 0, 0, 0);
    assert_int_equal(nc_poll(p, &ev), 1);
    assert_int_equal(ev.type, NC_EVENT_BARRIER);
    assert_ptr_equal(ev.ctx, &ctx);
    /* the same list again: the NIC holds it, no DMA */
    assert_int_equal(nc_barrier_start(p, &b, NULL), NC_OK);
    commands(4);
    assert_int_equal(cmds[3][0], NC_CMD_BARRIER);
    assert_int_equal(cmds[3][3], 0);
    put_event(ring, evi++, NC_EV_BARRIER, NC_ST_OK, 0, 0, 0, 0);
    assert_int_equal(nc_poll(p, &ev), 1);
    /* GB, dimension 1 (a chain), member 1: a parent and a child */
    assert_int_equal(nc_barrier_gb(&b, m, 4, 1, 1), NC_OK);
    assert_true(b.has_parent);
    assert_int_equal(b.nchildren, 1);
    n = 0;
    want[n++] = NC_BAR_MAGIC << 16 | 4;
    want[n++] = abi_step(NC_BSTEP_RECV, NC_BSTEP_GATHER, b.child[0]);
    want[n++] = abi_step(NC_BSTEP_SEND, NC_BSTEP_GATHER, b.parent);
    want[n++] = abi_step(NC_BSTEP_RECV, NC_BSTEP_BCAST, b.parent);
    want[n++] = abi_step(NC_BSTEP_SEND, NC_BSTEP_BCAST, b.child[0]);
    assert_int_equal(nc_barrier_start(p, &b, NULL), NC_OK);
    commands(5);
    assert_list(ring, cmds[4], want, n);
    put_event(ring, evi++, NC_EV_BARRIER, NC_ST_OK, 0, 0, 0, 0);
    assert_int_equal(nc_poll(p, &ev), 1);
    /* a member outside the cluster (4 nodes): refused by the library */
    m[3].node = 4;
    assert_int_equal(nc_barrier_gb(&b, m, 4, 0, 3), NC_OK);
    assert_int_equal(nc_barrier_start(p, &b, NULL), NC_EINVAL);
    nc_close(p);
}

/* The expansion both barriers follow: GB's order, PE's steps as they are,
 * bad descriptions refused. */
static void test_barrier_expand(void **state)
{
    nc_member m[8];
    nc_barrier_step s[NC_BARRIER_MAX_EXPANDED];
    nc_barrier b;

    (void)state;
    for (unsigned i = 0; i < 8; i++)
        m[i] = (nc_member){ (uint16_t)(10 + i), (uint8_t)(i % 3) };
    /* the root of a star: gather from 7, broadcast to 7 */
    assert_int_equal(nc_barrier_gb(&b, m, 8, 0, 7), NC_OK);
    assert_int_equal(nc_barrier_expand(&b, s), 14);
    for (unsigned i = 0; i < 7; i++) {
        assert_true(s[i].op == NC_BAR_OP_RECV && s[i].phase == NC_BAR_PHASE_GATHER);
        assert_true(s[7 + i].op == NC_BAR_OP_SEND && s[7 + i].phase == NC_BAR_PHASE_BCAST);
        assert_int_equal(s[i].peer.node, s[7 + i].peer.node);
    }
    /* a leaf: up, then down */
    assert_int_equal(nc_barrier_gb(&b, m, 8, 5, 7), NC_OK);
    assert_int_equal(nc_barrier_expand(&b, s), 2);
    assert_true(s[0].op == NC_BAR_OP_SEND && s[0].phase == NC_BAR_PHASE_GATHER);
    assert_true(s[1].op == NC_BAR_OP_RECV && s[1].phase == NC_BAR_PHASE_BCAST);
    assert_int_equal(s[0].peer.node, 10);
    /* PE over 5 (one folded in): member 4 sends, then receives */
    assert_int_equal(nc_barrier_pe(&b, m, 5, 4), NC_OK);
    assert_int_equal(nc_barrier_expand(&b, s), (int)b.nsteps);
    for (unsigned i = 0; i < b.nsteps; i++)
        assert_true(s[i].op == b.step[i].op && s[i].phase == NC_BAR_PHASE_PE &&
                    s[i].peer.node == b.step[i].peer.node);
    /* one member: nothing to do */
    assert_int_equal(nc_barrier_pe(&b, m, 1, 0), NC_OK);
    assert_int_equal(nc_barrier_expand(&b, s), 0);
    /* bad descriptions */
    b.nsteps = 1;
    b.step[0].op = 7;
    assert_int_equal(nc_barrier_expand(&b, s), NC_EINVAL);
    b.algo = 9;
    assert_int_equal(nc_barrier_expand(&b, s), NC_EINVAL);
    assert_int_equal(nc_barrier_gb(&b, m, 8, 0, 7), NC_OK);
    b.nchildren = NC_BARRIER_MAX_CHILDREN + 1;
    assert_int_equal(nc_barrier_expand(&b, s), NC_EINVAL);
    assert_int_equal(nc_barrier_expand(NULL, s), NC_EINVAL);
}

static nc_port *hook_port[8];
static uintptr_t hook_arg[8];
static unsigned nhook;

static void hook(nc_port *p, void *arg)
{
    hook_port[nhook] = p;
    hook_arg[nhook++] = (uintptr_t)arg;
}

/* nc_on_close: every hook once, after the port closed, the last first. */
static void test_close_hooks(void **state)
{
    nc_port *p;

    (void)state;
    nhook = 0;
    assert_int_equal(nc_open_pci(&p, path, 0, 1 << 20, BUS), NC_OK);
    for (uintptr_t i = 0; i < NC_CLOSE_HOOKS; i++)
        assert_int_equal(nc_on_close(p, hook, (void *)(i + 1)), NC_OK);
    assert_int_equal(nc_on_close(p, hook, NULL), NC_ENORES);
    assert_int_equal(nc_on_close(p, NULL, NULL), NC_EINVAL);
    assert_int_equal(nc_on_close(NULL, hook, NULL), NC_EINVAL);
    assert_int_equal(nhook, 0);
    assert_int_equal(nc_close(p), NC_OK);
    assert_int_equal(R(ABI + NC_ABI_OFF_PORT(0) + NC_ABI_PORT_STATE), 0);
    assert_int_equal(nhook, NC_CLOSE_HOOKS);
    for (unsigned i = 0; i < NC_CLOSE_HOOKS; i++) {
        assert_ptr_equal(hook_port[i], p);
        assert_int_equal(hook_arg[i], NC_CLOSE_HOOKS - i);
    }
}

static uint64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* nc_barrier_wait_for: a NIC that never completes the barrier (the fake
 * MCP takes the command and never answers) times out; events that arrive
 * meanwhile are kept for nc_poll and keep their tokens until then; the
 * barrier's late completion comes through nc_poll; a full stash stops the
 * wait with NC_EAGAIN instead of losing events. */
static void test_barrier_wait_for(void **state)
{
    nc_member m[2] = { { 2, 0 }, { 3, 0 } };
    nc_barrier b;
    nc_event ev;
    nc_port *p;
    uint8_t *buf, *ring;
    unsigned evi = 0;
    uint64_t t0;
    int ctx;

    (void)state;
    assert_int_equal(nc_open_pci(&p, path, 0, 1 << 20, BUS), NC_OK);
    buf = nc_alloc(p, 4096);
    ring = buf - EVRING;
    assert_int_equal(nc_register(p, buf, 4096), NC_OK);
    assert_int_equal(nc_barrier_pe(&b, m, 2, 0), NC_OK);
    /* two sends complete while the barrier waits */
    assert_int_equal(nc_send(p, 3, 0, buf, 8, &ctx), NC_OK);
    assert_int_equal(nc_send(p, 3, 0, buf + 8, 8, &ctx), NC_OK);
    commands(4);
    put_event(ring, evi++, NC_EV_SENT, NC_ST_OK, cmds[2][3], 8, 3, 0);   /* inline sends */
    put_event(ring, evi++, NC_EV_SENT, NC_ST_OK, cmds[3][3], 8, 3, 0);
    t0 = now_ns();
    assert_int_equal(nc_barrier_wait_for(p, &b, 5000000), NC_ETIMEDOUT);
    assert_true(now_ns() - t0 >= 5000000);
    assert_int_equal(nc_send_tokens(p), 14);         /* stashed, not handed out yet */
    assert_int_equal(nc_barrier_wait_for(p, &b, 1000000), NC_EBUSY);   /* still running */
    assert_int_equal(nc_poll(p, &ev), 1);
    assert_int_equal(ev.type, NC_EVENT_SENT);
    assert_ptr_equal(ev.buf, buf);
    assert_int_equal(nc_send_tokens(p), 15);
    assert_int_equal(nc_poll(p, &ev), 1);
    assert_ptr_equal(ev.buf, buf + 8);
    assert_int_equal(nc_send_tokens(p), 16);
    assert_int_equal(nc_poll(p, &ev), 0);
    /* the completion, late: through nc_poll */
    put_event(ring, evi++, NC_EV_BARRIER, NC_ST_OK, 0, 0, 0, 0);
    assert_int_equal(nc_poll(p, &ev), 1);
    assert_int_equal(ev.type, NC_EVENT_BARRIER);
    assert_null(ev.ctx);
    /* 64 ERROR events (refused commands hold no token) never polled: the
     * stash fills and the wait stops without losing any */
    for (unsigned i = 0; i < 64; i++)
        put_event(ring, evi++, NC_EV_ERROR, NC_ST_EINVAL, NC_CMD_REG, 0, 0, 0);
    assert_int_equal(nc_barrier_wait_for(p, &b, 0), NC_EAGAIN);
    for (unsigned i = 0; i < 64; i++) {
        assert_int_equal(nc_poll(p, &ev), 1);
        assert_int_equal(ev.type, NC_EVENT_ERROR);
    }
    put_event(ring, evi++, NC_EV_BARRIER, NC_ST_OK, 0, 0, 0, 0);
    assert_int_equal(nc_poll(p, &ev), 1);
    assert_int_equal(ev.type, NC_EVENT_BARRIER);
    assert_int_equal(nc_poll(p, &ev), 0);
    nc_close(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_strerror),
        cmocka_unit_test_setup_teardown(test_no_mcp, setup, teardown),
        cmocka_unit_test_setup_teardown(test_open_routes_close, setup, teardown),
        cmocka_unit_test_setup_teardown(test_commands_and_events, setup, teardown),
        cmocka_unit_test_setup_teardown(test_command_words, setup, teardown),
        cmocka_unit_test_setup_teardown(test_inline_sends, setup, teardown),
        cmocka_unit_test_setup_teardown(test_barrier_lists, setup, teardown),
        cmocka_unit_test(test_barrier_expand),
        cmocka_unit_test_setup_teardown(test_barrier_wait_for, setup, teardown),
        cmocka_unit_test_setup_teardown(test_close_hooks, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
