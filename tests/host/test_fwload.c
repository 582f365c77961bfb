/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Tests of the firmware loader (common/fwload.c) against an in-memory
 * board whose "firmware" is scripted: it comes up after a few polls, never,
 * with an error, or rewrites its code; the board can lose SRAM writes.
 * usage: test_fwload fw_ready.img fw_ready.elf
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

#include "board.h"
#include "fwload.h"
#include "nicoll/lanai9_regs.h"
#include "nicoll/shared_block.h"
#include "nicoll/nc_endian.h"

enum fw_mode { FW_OK, FW_NEVER, FW_ERROR, FW_SELF_MODIFY };

struct memboard {
    uint8_t win[L9_BAR_SIZE];
    uint32_t control_writes[16];
    unsigned ncontrol;
    bool held, released;
    enum fw_mode mode;
    unsigned ready_after, polls;
    int64_t lose_write_at;       /* SRAM address whose writes are lost, or -1 */
    unsigned delays;
};

static struct memboard mb;
static uint8_t *img, *elf;
static size_t img_len, elf_len;


static uint32_t sb_addr(void)
{
    return NC_SB_ADDR(nc_get_be32(mb.win + L9_BAR_EEPROM + L9_EE_SRAM_SIZE));
}

static void mb_write(struct nc_board *b, uint32_t off, const void *buf, size_t len)
{
    (void)b;
    memcpy(mb.win + off, buf, len);
    if (mb.lose_write_at >= 0 && (int64_t)off <= mb.lose_write_at &&
        mb.lose_write_at < (int64_t)(off + len))
        mb.win[mb.lose_write_at] ^= 0xFF;   /* this byte never sticks */
}

static void mb_read(struct nc_board *b, uint32_t off, void *buf, size_t len)
{
    (void)b;
    memcpy(buf, mb.win + off, len);
}

static uint32_t mb_read32(struct nc_board *b, uint32_t off)
{
    (void)b;
    /* the scripted firmware runs when the host polls its ready word */
    if (mb.released && off == sb_addr() + NC_SB_OFF_READY && ++mb.polls >= mb.ready_after) {
        if (mb.mode != FW_NEVER)
            nc_put_be32(mb.win + off, NC_SB_READY_MAGIC);
        if (mb.mode == FW_ERROR)
            nc_put_be32(mb.win + sb_addr() + NC_SB_OFF_FW_STATUS, 7);
        if (mb.mode == FW_SELF_MODIFY)
            mb.win[0x10] ^= 1;
    }
    return nc_get_be32(mb.win + off);
}

static void mb_write32(struct nc_board *b, uint32_t off, uint32_t v)
{
    uint8_t w[4];
    nc_put_be32(w, v);
    if (off == L9_BAR_CONTROL) {
        if (mb.ncontrol < 16)
            mb.control_writes[mb.ncontrol++] = v;
        if (v & L9_CTL_RESET_ON) mb.held = true;
        if (v & L9_CTL_RESET_OFF) { mb.held = false; mb.released = true; }
        return;
    }
    if (off < L9_BAR_CONFIG && mb.released)
        fail_msg("SRAM write at 0x%x after reset was released", off);
    mb_write(b, off, w, 4);
}

static void mb_delay(struct nc_board *b, unsigned us)
{
    (void)b;
    (void)us;
    mb.delays++;
}

static const struct nc_board_ops mb_ops = { mb_read32, mb_write32, mb_read, mb_write, mb_delay, NULL };

static struct nc_board board(uint32_t sram, enum fw_mode mode, unsigned ready_after)
{
    struct nc_board b = { &mb_ops, NULL, "memboard" };
    memset(&mb, 0, sizeof mb);
    memset(mb.win, 0xA5, L9_BAR_SRAM + (8u << 20));    /* SRAM starts dirty */
    nc_put_be32(mb.win + L9_BAR_EEPROM + L9_EE_SRAM_SIZE, sram);
    nc_put_be32(mb.win + L9_BAR_EEPROM + L9_EE_CLOCKVAL, 0x50);
    mb.mode = mode;
    mb.ready_after = ready_after;
    mb.lose_write_at = -1;
    return b;
}

static int load(struct nc_board *b, const uint8_t *image, size_t len, char *err)
{
    struct nc_fw_options o = { .node_id = 5, .nnodes = 16 };
    struct nc_fw_info info;
    return nc_fw_load(b, "fw.img", image, len, &o, &info, err, 300);
}

static void test_load_success(void **st)
{
    struct nc_board b = board(2u << 20, FW_OK, 3);
    struct nc_fw_options o = { .node_id = 5, .nnodes = 16 };
    struct nc_fw_info info;
    char err[300];
    uint32_t sb = NC_SB_ADDR(2u << 20), nsegs = nc_get_be32(img + 20);
    (void)st;
    assert_int_equal(nc_fw_load(&b, "fw.img", img, img_len, &o, &info, err, sizeof err), NC_LOAD_OK);
    assert_int_equal(info.polls, 3);
    assert_int_equal(mb.delays, 3);
    /* interrupts off and reset on first, reset released, interrupts on last */
    assert_int_equal(mb.control_writes[0], L9_CTL_INT_DISABLE);
    assert_int_equal(mb.control_writes[1], L9_CTL_RESET_ON);
    assert_int_equal(mb.control_writes[2], L9_CTL_RESET_OFF);
    assert_int_equal(mb.control_writes[3], L9_CTL_INT_ENABLE);
    assert_int_equal(nc_get_be32(mb.win + L9_BAR_SPECIAL + L9_CLOCK), 0x50);
    assert_int_equal(nc_get_be32(mb.win + L9_BAR_SPECIAL + L9_EIMR), 0);
    /* every segment is in SRAM; everything else was zeroed */
    for (uint32_t i = 0; i < nsegs; i++) {
        const uint8_t *e = img + 48 + 16 * i;
        uint32_t addr = nc_get_be32(e), mem = nc_get_be32(e + 4), file = nc_get_be32(e + 8), off = nc_get_be32(e + 12);
        assert_memory_equal(mb.win + addr, img + off, file);
        for (uint32_t k = file; k < mem; k++)
            assert_int_equal(mb.win[addr + k], 0);
    }
    assert_int_equal(mb.win[sb - 1], 0);
    /* the shared block */
    assert_int_equal(nc_get_be32(mb.win + sb + NC_SB_OFF_MAGIC), NC_SB_MAGIC);
    assert_int_equal(nc_get_be32(mb.win + sb + NC_SB_OFF_VERSION), NC_SB_VERSION);
    assert_int_equal(nc_get_be32(mb.win + sb + NC_SB_OFF_NODE_ID), 5);
    assert_int_equal(nc_get_be32(mb.win + sb + NC_SB_OFF_NNODES), 16);
    assert_memory_equal(mb.win + sb + NC_SB_OFF_BUILD_ID, img + 40, 8);
    assert_memory_equal(info.build_id, img + 40, 8);
}

static void test_load_elf(void **st)
{
    struct nc_board b = board(2u << 20, FW_OK, 1);
    char err[300];
    (void)st;
    assert_int_equal(load(&b, elf, elf_len, err), NC_LOAD_OK);
}

static void test_handshake_timeout(void **st)
{
    struct nc_board b = board(2u << 20, FW_NEVER, 1);
    char err[300];
    (void)st;
    assert_int_equal(load(&b, img, img_len, err), NC_LOAD_ETIMEOUT);
    assert_non_null(strstr(err, "firmware did not come up: ready word 0x00000000 after 25 polls 20 us apart"));
    assert_int_equal(mb.delays, 25);   /* bounded: exactly the configured polls */
}

static void test_firmware_error(void **st)
{
    struct nc_board b = board(2u << 20, FW_ERROR, 2);
    char err[300];
    (void)st;
    assert_int_equal(load(&b, img, img_len, err), NC_LOAD_EFIRMWARE);
    assert_non_null(strstr(err, "firmware reports start-up error 7"));
}

static void test_code_modified(void **st)
{
    struct nc_board b = board(2u << 20, FW_SELF_MODIFY, 1);
    char err[300];
    (void)st;
    assert_int_equal(load(&b, img, img_len, err), NC_LOAD_EVERIFY);
    assert_non_null(strstr(err, "code segment changed after start-up"));
}

static void test_lost_write_fails_verify(void **st)
{
    struct nc_board b = board(2u << 20, FW_OK, 1);
    char err[300];
    (void)st;
    mb.lose_write_at = 0x40;
    assert_int_equal(load(&b, img, img_len, err), NC_LOAD_EVERIFY);
    assert_non_null(strstr(err, "segment 0 at 0x00000000"));
    assert_false(mb.released);          /* never started a bad image */
}

static void test_image_too_big(void **st)
{
    struct nc_board b = board(512u << 10, FW_OK, 1);
    char err[300];
    (void)st;
    /* linked for 2 MB: its stack would sit in a 512 KB board's shared block */
    assert_int_equal(load(&b, img, img_len, err), NC_LOAD_ETOOBIG);
    assert_non_null(strstr(err, "stack top 0x001ff000 is inside the host-shared block at 0x0007f000"));
    assert_false(mb.released);
}

static void test_bad_eeprom(void **st)
{
    struct nc_board b = board(3u << 20, FW_OK, 1);
    char err[300];
    (void)st;
    assert_int_equal(load(&b, img, img_len, err), NC_LOAD_EBOARD);
    assert_non_null(strstr(err, "EEPROM sram_size 0x300000 is not a plausible SRAM size"));
}

static void test_corrupt_image(void **st)
{
    struct nc_board b = board(2u << 20, FW_OK, 1);
    uint8_t *bad = malloc(img_len);
    char err[300];
    (void)st;
    memcpy(bad, img, img_len);
    bad[img_len - 1] ^= 0x40;
    assert_int_equal(load(&b, bad, img_len, err), NC_LOAD_EIMAGE);
    assert_non_null(strstr(err, "image crc32 mismatch"));
    assert_int_equal(load(&b, bad, 20, err), NC_LOAD_EIMAGE);
    assert_non_null(strstr(err, "truncated image header"));
    free(bad);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_load_success),
        cmocka_unit_test(test_load_elf),
        cmocka_unit_test(test_handshake_timeout),
        cmocka_unit_test(test_firmware_error),
        cmocka_unit_test(test_code_modified),
        cmocka_unit_test(test_lost_write_fails_verify),
        cmocka_unit_test(test_image_too_big),
        cmocka_unit_test(test_bad_eeprom),
        cmocka_unit_test(test_corrupt_image),
    };
    if (argc != 3 || !(img = slurp(argv[1], &img_len)) || !(elf = slurp(argv[2], &elf_len))) {
        fprintf(stderr, "usage: test_fwload fw_ready.img fw_ready.elf\n");
        return 2;
    }
    return cmocka_run_group_tests_name("fwload", tests, NULL, NULL);
}
