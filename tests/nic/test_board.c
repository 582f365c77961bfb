/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Tests of the board window (lanai-emu/nic/board_window.c): power-up hold, SRAM
 * through the window, the control register, the host interrupt, specials
 * and EEPROM from the host side; and a whole load through the window: the
 * host library's loader (common/fwload.c) writes tests/host/fw_ready.img
 * into SRAM and releases reset, and the reference interpreter (ref/iss),
 * standing in for the LANai CPU at 133 MHz, runs it until it answers the
 * handshake. usage: test_board fw_ready.img
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../lib/slurp.h"

#include "board_window.h"
#include "fwload.h"
#include "iss.h"
#include "nicoll/lanai9_regs.h"
#include "nic.h"
#include "nicoll/shared_block.h"

#define SRAM (2u << 20)
#define MHZ 133

struct machine {
    uint8_t sram[SRAM];
    uint64_t t_ps;
    bool held, host_irq;
    unsigned holds, releases;
    struct nic nic;
    struct board board;
    struct iss cpu;
    bool cpu_started;
};

static struct machine m;
static uint8_t *image;
static size_t image_len;

static uint64_t m_now(void *o) { (void)o; return m.t_ps; }
static void m_sram_read(void *o, uint32_t a, void *b, uint32_t l) { (void)o; memcpy(b, m.sram + a, l); }
static void m_sram_write(void *o, uint32_t a, const void *b, uint32_t l) { (void)o; memcpy(m.sram + a, b, l); }
static bool m_host_rw(void *o, uint64_t bus, void *b, uint32_t l) { (void)o; (void)bus; (void)b; (void)l; return false; }
static bool m_host_w(void *o, uint64_t bus, const void *b, uint32_t l) { (void)o; (void)bus; (void)b; (void)l; return false; }
static void m_transmit(void *o, uint64_t t, const uint8_t *p, size_t l) { (void)o; (void)t; (void)p; (void)l; }
static void m_nic_irq(void *o, bool level) { (void)o; board_nic_irq(&m.board, level); }
static void m_wake(void *o, uint64_t t) { (void)o; (void)t; }
static void m_hold(void *o, bool hold) { (void)o; m.held = hold; hold ? m.holds++ : m.releases++; }
static void m_host_irq(void *o, bool level) { (void)o; m.host_irq = level; }

/* The LANai's own accesses above SRAM go to the special registers. */
static bool cpu_mmio(struct iss *s, void *ctx, uint32_t addr, unsigned size, bool write,
                     uint32_t *val)
{
    (void)ctx;
    if (addr < L9_SPECIAL_BASE || size != 4)
        return false;
    m.t_ps = s->icount * 1000000ull / MHZ;
    if (write)
        nic_reg_write(&m.nic, addr - L9_SPECIAL_BASE, *val, false);
    else
        *val = nic_reg_read(&m.nic, addr - L9_SPECIAL_BASE, false);
    return true;
}

static void setup(void)
{
    struct nic_env env = { NULL, m_now, m_sram_read, m_sram_write, m_host_rw, m_host_w,
                           m_transmit, m_nic_irq, m_wake, NULL, NULL };
    struct nic_timing tm = { .byte_ps = 4000, .dma_fixed_ps = 650000, .dma_read_ps = 620000,
                             .dma_ps_per_byte = 2000, .dma_burst = 256 };
    struct board_env benv = { NULL, m_hold, m_host_irq };
    struct board_eeprom_info ee = { 0x50, SRAM, 77, MHZ, 0x0901,
                                    { 0, 0x60, 0xDD, 1, 2, 3 }, "test board" };
    memset(&m, 0, sizeof m);
    assert_int_equal(nic_init(&m.nic, &env, &tm, SRAM), 0);
    board_init(&m.board, &benv, &m.nic, &ee);
}

static void teardown(void)
{
    nic_destroy(&m.nic);
}

static void test_power_up(void **st)
{
    (void)st;
    setup();
    assert_true(m.held);
    assert_int_equal(m.holds, 1);
    assert_int_equal(board_read32(&m.board, L9_BAR_CONTROL), L9_CTL_RESET_ON | L9_CTL_INT_DISABLE);
    teardown();
}

static void test_sram_through_the_window(void **st)
{
    (void)st;
    setup();
    board_write32(&m.board, 0x1230, 0x11223344);
    assert_int_equal(m.sram[0x1230], 0x11);             /* big-endian, as the LANai sees it */
    assert_int_equal(m.sram[0x1233], 0x44);
    m.sram[0x2000] = 0xAB;
    assert_int_equal(board_read32(&m.board, 0x2000) >> 24, 0xAB);
    teardown();
}

static void test_control_register(void **st)
{
    (void)st;
    setup();
    nic_reg_write(&m.nic, L9_LED, 5, false);
    board_write32(&m.board, L9_BAR_CONTROL, L9_CTL_RESET_OFF);
    assert_false(m.held);
    assert_int_equal(nic_reg_read(&m.nic, L9_LED, false), 5);
    board_write32(&m.board, L9_BAR_CONTROL, L9_CTL_RESET_ON);
    assert_true(m.held);
    assert_int_equal(nic_reg_read(&m.nic, L9_LED, false), 0);   /* reset the NIC too */
    /* both halves of a pair: undefined, ignored */
    board_write32(&m.board, L9_BAR_CONTROL, L9_CTL_RESET_ON | L9_CTL_RESET_OFF);
    assert_true(m.held);
    assert_int_equal(m.board.ignored_writes, 1);
    teardown();
}

static void test_host_interrupt(void **st)
{
    (void)st;
    setup();
    nic_reg_write(&m.nic, L9_EIMR, L9_ISR_HOST_SIG, false);
    nic_reg_write(&m.nic, L9_ISR, L9_ISR_HOST_SIG, false);   /* firmware signals */
    assert_false(m.host_irq);                                /* disabled on the board */
    board_write32(&m.board, L9_BAR_CONTROL, L9_CTL_INT_ENABLE);
    assert_true(m.host_irq);
    board_write32(&m.board, L9_BAR_SPECIAL + L9_ISR, L9_ISR_HOST_SIG);   /* host acks */
    assert_false(m.host_irq);
    board_write32(&m.board, L9_BAR_SPECIAL + L9_ISR, L9_ISR_LANAI_SIG);  /* host signals */
    assert_true(nic_reg_read(&m.nic, L9_ISR, false) & L9_ISR_LANAI_SIG);
    teardown();
}

static void test_eeprom(void **st)
{
    (void)st;
    setup();
    assert_int_equal(board_read32(&m.board, L9_BAR_EEPROM + L9_EE_SRAM_SIZE), SRAM);
    assert_int_equal(board_read32(&m.board, L9_BAR_EEPROM + L9_EE_CLOCKVAL), 0x50);
    assert_int_equal(board_read32(&m.board, L9_BAR_EEPROM + L9_EE_SERIAL), 77);
    board_write32(&m.board, L9_BAR_EEPROM + L9_EE_SERIAL, 1);
    assert_int_equal(board_read32(&m.board, L9_BAR_EEPROM + L9_EE_SERIAL), 77);
    teardown();
}

/* The host library's board backend over this board window. The loader's
 * delays run the LANai (if released) for that long. */
static uint32_t b_read32(struct nc_board *b, uint32_t off) { (void)b; return board_read32(&m.board, off); }
static void b_write32(struct nc_board *b, uint32_t off, uint32_t v) { (void)b; board_write32(&m.board, off, v); }

static void b_delay(struct nc_board *b, unsigned us)
{
    (void)b;
    if (m.held)
        return;
    if (!m.cpu_started) {           /* released: the CPU starts at 0 */
        m.cpu.mmio = cpu_mmio;
        iss_reset(&m.cpu, m.sram, SRAM, 0);
        m.cpu_started = true;
    }
    m.cpu.limit = m.cpu.icount + (uint64_t)us * MHZ;
    iss_run(&m.cpu);
    assert_int_not_equal(m.cpu.status, ISS_TRAPPED);
    m.cpu.status = ISS_RUNNING;
}

static const struct nc_board_ops window_ops = {
    b_read32, b_write32, nc_board_read_words, nc_board_write_words, b_delay, NULL,
};

static void test_load_through_the_window_and_run(void **st)
{
    struct nc_board nb = { &window_ops, NULL, "emulated board" };
    struct nc_fw_options o = { .node_id = 2, .nnodes = 4 };
    struct nc_fw_info info;
    char err[300];
    (void)st;
    setup();
    memset(m.sram, 0x5A, SRAM);                              /* SRAM starts dirty */
    if (nc_fw_load(&nb, "fw_ready.img", image, image_len, &o, &info, err, sizeof err))
        fail_msg("%s", err);
    assert_true(m.cpu_started);
    assert_true(m.cpu.icount > 0);
    assert_int_equal(m.releases, 1);
    assert_int_equal(board_read32(&m.board, NC_SB_ADDR(SRAM) + NC_SB_OFF_READY), NC_SB_READY_MAGIC);
    assert_int_equal(board_read32(&m.board, NC_SB_ADDR(SRAM) + NC_SB_OFF_FW_STATUS), 0);
    assert_int_equal(nic_reg_read(&m.nic, L9_CLOCK, false), 0x50);
    teardown();
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_power_up),
        cmocka_unit_test(test_sram_through_the_window),
        cmocka_unit_test(test_control_register),
        cmocka_unit_test(test_host_interrupt),
        cmocka_unit_test(test_eeprom),
        cmocka_unit_test(test_load_through_the_window_and_run),
    };
    if (argc != 2 || !(image = slurp(argv[1], &image_len))) {
        fprintf(stderr, "usage: test_board fw_ready.img\n");
        return 2;
    }
    return cmocka_run_group_tests_name("board", tests, NULL, NULL);
}
