/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The host's view of one LANai 9 board: the 16 MB board window (PCI BAR)
 * with SRAM, the control register (reset hold and release, interrupt
 * enable), the special registers (through the NIC logic), and the EEPROM.
 * Plain C, like nic.h; the machine provides the CPU hold and the interrupt
 * line to the host. docs/nic.md ("Board window") has the semantics.
 */
#ifndef NICOLL_BOARD_WINDOW_H
#define NICOLL_BOARD_WINDOW_H

#include <stdbool.h>
#include <stdint.h>

#include "nic.h"

#define BOARD_EEPROM_SIZE 256u

struct board_env {
    void *opaque;
    void (*cpu_hold)(void *opaque, bool hold);   /* LANai held in reset or not */
    void (*host_irq)(void *opaque, bool level);  /* the PCI interrupt to the host */
};

struct board_eeprom_info {
    uint32_t clockval, sram_size, serial, max_speed_mhz;
    uint16_t cpu_version;
    uint8_t board_id[6];
    char label[32];
};

struct board {
    struct board_env env;
    struct nic *nic;
    bool held, int_enabled, nic_irq, host_irq;
    uint32_t other_resets;          /* ERESET/BRESET state bits, stored */
    uint8_t eeprom[BOARD_EEPROM_SIZE];
    uint64_t ignored_writes;
};

/* Power-on: the LANai is held in reset, interrupts are disabled. */
void board_init(struct board *b, const struct board_env *env, struct nic *nic,
                const struct board_eeprom_info *ee);

/* 32-bit accesses at a window offset (lanai9_regs.h L9_BAR_*). SRAM is
 * reached through the NIC environment's sram_read/sram_write, big-endian. */
uint32_t board_read32(struct board *b, uint32_t off);
void board_write32(struct board *b, uint32_t off, uint32_t val);

/* The NIC's interrupt line changed (wire nic_env.irq here). */
void board_nic_irq(struct board *b, bool level);

#endif
