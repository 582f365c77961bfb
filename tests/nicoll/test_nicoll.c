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
#include <unistd.h>

#include <cmocka.h>

#include "board.h"
#include "lanai9_regs.h"
#include "nc_abi.h"
#include "nicoll.h"
#include "shared_block.h"

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
            c[i] = R(pb + NC_ABI_PORT_CMD(cons % NC_FW_CMD_SLOTS) + 4 * i);
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
        assert_int_equal(nc_send(p, 1, 3, buf + i, 100, &ctx), NC_OK);
    assert_int_equal(nc_send_tokens(p), 0);
    assert_int_equal(nc_send(p, 1, 3, buf, 100, NULL), NC_EAGAIN);
    while (ncmds < 18)
        usleep(100);
    assert_int_equal(cmds[17][0], NC_CMD_SEND);
    assert_int_equal((uint64_t)cmds[17][1] << 32 | cmds[17][2], BUS + EVRING + 15);
    assert_int_equal(cmds[17][3], 100);
    assert_int_equal(cmds[17][4], 1);
    assert_int_equal(cmds[17][5], 3);
    assert_int_equal(nc_poll(p, &ev), 0);
    put_event(ring, 0, NC_EV_SENT, NC_ST_EPORTCLOSED, cmds[17][6], 100, 1, 3);
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
    /* nothing more: a bounded wait times out */
    assert_int_equal(nc_wait(p, &ev, 2000000), NC_ETIMEDOUT);
    assert_int_equal(nc_deregister(p, buf), NC_OK);
    assert_int_equal(nc_deregister(p, buf), NC_EINVAL);
    nc_close(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_strerror),
        cmocka_unit_test_setup_teardown(test_no_mcp, setup, teardown),
        cmocka_unit_test_setup_teardown(test_open_routes_close, setup, teardown),
        cmocka_unit_test_setup_teardown(test_commands_and_events, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
