/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Access to one LANai 9 board through its 16 MB board window (the PCI BAR
 * of docs/lanai9-nic.md; offsets in include/nicoll/lanai9_regs.h).
 * The window is a big-endian byte array, as the LANai sees its memory:
 * nc_board_read32/write32 convert. Backends: 'mmap' maps a file, which is
 * either a real board's sysfs resource file (/sys/bus/pci/devices/.../
 * resourceN) or a regular 16 MB file standing in for one (a fake BAR for
 * tests); the emulator provides another backend later.
 */
#ifndef NICOLL_BOARD_H
#define NICOLL_BOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct nc_board;

struct nc_board_ops {
    uint32_t (*read32)(struct nc_board *b, uint32_t off);
    void (*write32)(struct nc_board *b, uint32_t off, uint32_t val);
    void (*read)(struct nc_board *b, uint32_t off, void *buf, size_t len);
    void (*write)(struct nc_board *b, uint32_t off, const void *buf, size_t len);
    void (*delay_us)(struct nc_board *b, unsigned us);
    void (*close)(struct nc_board *b);
};

struct nc_board {
    const struct nc_board_ops *ops;
    void *ctx;
    char name[256];
};

/* Map PATH (a sysfs resource file or a fake-BAR file of at least 16 MB). */
int nc_board_open_mmap(struct nc_board *b, const char *path, char *err, size_t errlen);

/* A window already mapped by someone else (VFIO's BAR mapping): the same
 * accesses as nc_board_open_mmap; closing leaves the mapping alone. */
int nc_board_wrap(struct nc_board *b, volatile void *base, const char *name);

/* Block read and write made of 32-bit accesses through b->ops->read32 and
 * write32 (board_words.c), for backends without a faster way. */
void nc_board_read_words(struct nc_board *b, uint32_t off, void *buf, size_t len);
void nc_board_write_words(struct nc_board *b, uint32_t off, const void *buf, size_t len);

/* In an emulated host program: the board window through the host
 * interface's PIO (board_hostif.c). */
void nc_board_open_hostif(struct nc_board *b);

/* Create (or overwrite) a 16 MB fake-BAR file: zero SRAM, an EEPROM with
 * the given SRAM size and clock value, board id and serial. */
int nc_board_make_fake(const char *path, uint32_t sram_size, uint32_t clockval,
                       uint32_t serial, char *err, size_t errlen);

static inline uint32_t nc_board_read32(struct nc_board *b, uint32_t off)
{
    return b->ops->read32(b, off);
}

static inline void nc_board_write32(struct nc_board *b, uint32_t off, uint32_t v)
{
    b->ops->write32(b, off, v);
}

void nc_board_close(struct nc_board *b);

#endif
