/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Firmware loading through the board window (fwload.h has the steps). */
#include "fwload.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "crc32.h"
#include "nicoll/lanai9_regs.h"
#include "loadable.h"
#include "nicoll/shared_block.h"

static int fail(char *err, size_t errlen, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(char *err, size_t errlen, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return code;
}

const char *nc_fw_strerror(int code)
{
    switch (code) {
    case NC_LOAD_OK: return "success";
    case NC_LOAD_EIMAGE: return "invalid firmware image";
    case NC_LOAD_ETOOBIG: return "firmware does not fit in the board's SRAM";
    case NC_LOAD_EBOARD: return "board EEPROM is not plausible";
    case NC_LOAD_EVERIFY: return "SRAM read back differs from the image";
    case NC_LOAD_ETIMEOUT: return "firmware did not come up (handshake timeout)";
    case NC_LOAD_EFIRMWARE: return "firmware reported an error at start-up";
    default: return "unknown firmware-loading error";
    }
}

static bool valid_sram_size(uint32_t s)
{
    /* LANai boards shipped with 512 KB to 8 MB; a power of two */
    return s >= (512u << 10) && s <= (8u << 20) && !(s & (s - 1));
}

/* CRC-32 of SRAM [addr, addr + len) read through the window. */
static uint32_t sram_crc(struct nc_board *b, uint32_t addr, uint32_t len)
{
    uint8_t buf[4096];
    uint32_t crc = 0;

    while (len) {
        uint32_t n = len < sizeof buf ? len : (uint32_t)sizeof buf;
        b->ops->read(b, L9_BAR_SRAM + addr, buf, n);
        crc = crc32_update(crc, buf, n);
        addr += n;
        len -= n;
    }
    return crc;
}

int nc_fw_load(struct nc_board *b, const char *name, const uint8_t *image, size_t len,
               const struct nc_fw_options *opt, struct nc_fw_info *info,
               char *err, size_t errlen)
{
    struct nc_fw_options o = opt ? *opt : (struct nc_fw_options){ .nnodes = 1 };
    struct loadable l;
    char lerr[256];
    static const uint8_t zero[4096];
    uint32_t sb, ready = 0;

    memset(info, 0, sizeof *info);
    if (!o.tries)
        o.tries = 25;
    if (!o.delay_us)
        o.delay_us = 20;

    /* 1. quiet and held */
    nc_board_write32(b, L9_BAR_CONTROL, L9_CTL_INT_DISABLE);
    nc_board_write32(b, L9_BAR_CONTROL, L9_CTL_RESET_ON);

    /* 2. what is this board, and does the image fit? */
    info->sram_size = nc_board_read32(b, L9_BAR_EEPROM + L9_EE_SRAM_SIZE);
    info->clockval = nc_board_read32(b, L9_BAR_EEPROM + L9_EE_CLOCKVAL);
    if (!valid_sram_size(info->sram_size))
        return fail(err, errlen, NC_LOAD_EBOARD, "%s: EEPROM sram_size 0x%x is not a plausible "
                    "SRAM size (512 KB..8 MB, a power of two)", b->name, info->sram_size);
    sb = NC_SB_ADDR(info->sram_size);
    if (loadable_parse(name, image, len, info->sram_size, &l, lerr, sizeof lerr)) {
        /* distinguish "too big" from "malformed" for the caller */
        struct loadable any;
        char e2[256];
        if (loadable_parse(name, image, len, 0, &any, e2, sizeof e2) == 0)
            return fail(err, errlen, NC_LOAD_ETOOBIG, "%s (board %s has 0x%x bytes of SRAM)",
                        lerr, b->name, info->sram_size);
        return fail(err, errlen, NC_LOAD_EIMAGE, "%s", lerr);
    }
    for (uint32_t i = 0; i < l.nsegs; i++)
        if ((uint64_t)l.seg[i].addr + l.seg[i].mem_size > sb)
            return fail(err, errlen, NC_LOAD_ETOOBIG, "%s: segment %u [0x%08x, 0x%08x) overlaps "
                        "the host-shared block at 0x%08x (top 4 KiB of SRAM)", name, i,
                        l.seg[i].addr, l.seg[i].addr + l.seg[i].mem_size, sb);
    if (l.is_image && l.stack_top > sb)
        return fail(err, errlen, NC_LOAD_ETOOBIG, "%s: stack top 0x%08x is inside the host-shared "
                    "block at 0x%08x (link with --mem-size 0x%x)", name, l.stack_top, sb,
                    info->sram_size);
    info->entry = l.entry;
    memcpy(info->build_id, l.build_id, 8);

    /* the previous load's boot id, read before the slate is cleaned: this
     * load takes the next one unless the caller names one, so that the
     * peers of a board loaded again tell its MCP from the one before
     * (docs/firmware.md "Send time-outs"); a board whose SRAM holds no
     * shared block (powered up, or lost) starts at 0 */
    if (!o.boot_id && nc_board_read32(b, sb + NC_SB_OFF_MAGIC) == NC_SB_MAGIC) {
        o.boot_id = nc_board_read32(b, sb + NC_SB_OFF_BOOT_ID) + 1;
        if (!o.boot_id)
            o.boot_id = 1;
    }
    info->boot_id = o.boot_id;

    /* 3. clean slate */
    for (uint32_t a = 0; a < info->sram_size; a += sizeof zero)
        b->ops->write(b, L9_BAR_SRAM + a, zero, sizeof zero);
    nc_board_write32(b, L9_BAR_SPECIAL + L9_CLOCK, info->clockval);

    /* 4. the image */
    for (uint32_t i = 0; i < l.nsegs; i++)
        if (l.seg[i].file_size)
            b->ops->write(b, L9_BAR_SRAM + l.seg[i].addr, l.seg[i].data, l.seg[i].file_size);

    /* 5. the shared block */
    nc_board_write32(b, sb + NC_SB_OFF_MAGIC, NC_SB_MAGIC);
    nc_board_write32(b, sb + NC_SB_OFF_VERSION, NC_SB_VERSION);
    nc_board_write32(b, sb + NC_SB_OFF_READY, 0);
    nc_board_write32(b, sb + NC_SB_OFF_NODE_ID, o.node_id);
    nc_board_write32(b, sb + NC_SB_OFF_NNODES, o.nnodes);
    nc_board_write32(b, sb + NC_SB_OFF_CLOCKVAL, info->clockval);
    nc_board_write32(b, sb + NC_SB_OFF_BOOT_ID, o.boot_id);
    b->ops->write(b, sb + NC_SB_OFF_BUILD_ID, l.build_id, 8);

    /* 6. verify while the CPU cannot touch anything */
    for (uint32_t i = 0; i < l.nsegs; i++) {
        const struct loadable_seg *s = &l.seg[i];
        uint32_t want = crc32_update(0, s->data, s->file_size);
        uint32_t got = sram_crc(b, s->addr, s->file_size);
        if (got != want)
            return fail(err, errlen, NC_LOAD_EVERIFY, "%s: segment %u at 0x%08x (%u bytes): "
                        "CRC-32 read back 0x%08x, image 0x%08x", b->name, i, s->addr,
                        s->file_size, got, want);
        info->crc32 = crc32_update(info->crc32, s->data, s->file_size);
    }

    /* 7. go */
    nc_board_write32(b, L9_BAR_SPECIAL + L9_EIMR, 0);
    nc_board_write32(b, L9_BAR_CONTROL, L9_CTL_RESET_OFF);

    /* 8. handshake, bounded */
    for (info->polls = 1; info->polls <= o.tries; info->polls++) {
        b->ops->delay_us(b, o.delay_us);
        ready = nc_board_read32(b, sb + NC_SB_OFF_READY);
        if (ready == NC_SB_READY_MAGIC)
            break;
    }
    if (ready != NC_SB_READY_MAGIC)
        return fail(err, errlen, NC_LOAD_ETIMEOUT, "%s: firmware did not come up: ready word "
                    "0x%08x after %u polls %u us apart (expected 0x%08x)", b->name, ready,
                    o.tries, o.delay_us, NC_SB_READY_MAGIC);
    {
        uint32_t st = nc_board_read32(b, sb + NC_SB_OFF_FW_STATUS);
        if (st)
            return fail(err, errlen, NC_LOAD_EFIRMWARE, "%s: firmware reports start-up error %u",
                        b->name, st);
    }
    if (l.nsegs && sram_crc(b, l.seg[0].addr, l.seg[0].file_size) !=
                   crc32_update(0, l.seg[0].data, l.seg[0].file_size))
        return fail(err, errlen, NC_LOAD_EVERIFY, "%s: code segment changed after start-up",
                    b->name);
    nc_board_write32(b, L9_BAR_CONTROL, L9_CTL_INT_ENABLE);
    return NC_LOAD_OK;
}
