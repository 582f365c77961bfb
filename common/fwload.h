/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Loading firmware onto a LANai board through its board window, the way a
 * driver does (docs/lanai9-nic.md, "Loading firmware"):
 *
 *   1. disable host interrupts, hold the LANai in reset
 *   2. read the EEPROM (SRAM size, clock value); check the image fits
 *   3. zero SRAM (the previous load's boot id read first), write CLOCK
 *   4. copy the image's segments (bss stays zero)
 *   5. fill the host-shared block (include/nicoll/shared_block.h)
 *   6. verify: read every segment back, CRC-32 against the image
 *   7. EIMR = 0, release reset
 *   8. handshake: poll the shared block's ready word, a bounded number of
 *      times; then check the code segment is still intact
 *
 * Used by lanai-flash (real boards, fake BARs) and by the emulated cluster.
 */
#ifndef NICOLL_FWLOAD_H
#define NICOLL_FWLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "board.h"

enum nc_fw_error {
    NC_LOAD_OK = 0,
    NC_LOAD_EIMAGE = -1,    /* not a valid image (header, CRC, segments) */
    NC_LOAD_ETOOBIG = -2,   /* image or its stack does not fit in SRAM */
    NC_LOAD_EBOARD = -3,    /* the board's EEPROM makes no sense */
    NC_LOAD_EVERIFY = -4,   /* SRAM read back differs from the image */
    NC_LOAD_ETIMEOUT = -5,  /* the firmware never signalled ready */
    NC_LOAD_EFIRMWARE = -6, /* the firmware came up but reported an error */
};

struct nc_fw_options {
    uint32_t node_id, nnodes;
    unsigned tries;       /* handshake polls (default 25, as Linux myri_sbus) */
    unsigned delay_us;    /* between polls (default 20 us) */
    uint32_t boot_id;     /* the shared block's NC_SB_OFF_BOOT_ID (0: the previous load's
                             + 1, read from the board's shared block before SRAM is
                             cleared; 0 when SRAM holds none: a board's first load) */
};

struct nc_fw_info {
    uint32_t sram_size, clockval, entry;
    uint32_t crc32;       /* of all loaded bytes */
    uint8_t build_id[8];
    unsigned polls;       /* handshake polls it took */
    uint32_t boot_id;     /* the boot id given to the firmware */
};

/* Load image bytes (ELF or flat image) named 'name'. Returns NC_LOAD_OK or a
 * negative enum nc_fw_error, with a message naming what failed in err. */
int nc_fw_load(struct nc_board *b, const char *name, const uint8_t *image, size_t len,
               const struct nc_fw_options *opt, struct nc_fw_info *info,
               char *err, size_t errlen);

const char *nc_fw_strerror(int code);

#endif
