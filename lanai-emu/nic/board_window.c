/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The board window of one LANai 9 board (board.h, docs/nic.md). */
#include "board_window.h"

#include <string.h>

#include "nicoll/lanai9_regs.h"
#include "nicoll/nc_endian.h"

static void update_irq(struct board *b)
{
    bool level = b->int_enabled && b->nic_irq;

    if (level != b->host_irq) {
        b->host_irq = level;
        b->env.host_irq(b->env.opaque, level);
    }
}

void board_init(struct board *b, const struct board_env *env, struct nic *nic,
                const struct board_eeprom_info *ee)
{
    memset(b, 0, sizeof *b);
    b->env = *env;
    b->nic = nic;
    nc_put_be32(b->eeprom + L9_EE_CLOCKVAL, ee->clockval);
    b->eeprom[L9_EE_CPU_VERSION] = (uint8_t)(ee->cpu_version >> 8);
    b->eeprom[L9_EE_CPU_VERSION + 1] = (uint8_t)ee->cpu_version;
    memcpy(b->eeprom + L9_EE_BOARD_ID, ee->board_id, 6);
    nc_put_be32(b->eeprom + L9_EE_SRAM_SIZE, ee->sram_size);
    nc_put_be32(b->eeprom + L9_EE_SERIAL, ee->serial);
    memcpy(b->eeprom + L9_EE_BOARD_LABEL, ee->label, sizeof ee->label);
    nc_put_be32(b->eeprom + L9_EE_MAX_LANAI_SPEED, ee->max_speed_mhz);
    b->held = true;                 /* nodes power up with the LANai in reset */
    b->env.cpu_hold(b->env.opaque, true);
}

void board_nic_irq(struct board *b, bool level)
{
    b->nic_irq = level;
    update_irq(b);
}

/* A set/reset pair: 1 set, 0 reset, -1 neither, -2 both (undefined: ignored). */
static int pair(uint32_t v, uint32_t set, uint32_t reset)
{
    bool s = v & set, r = v & reset;
    return s && r ? -2 : s ? 1 : r ? 0 : -1;
}

uint32_t board_read32(struct board *b, uint32_t off)
{
    uint8_t w[4];

    if (off < b->nic->sram_size) {
        b->nic->env.sram_read(b->nic->env.opaque, off & ~3u, w, 4);
        return nc_get_be32(w);
    }
    if (off == L9_BAR_CONTROL)
        return (b->held ? L9_CTL_RESET_ON : L9_CTL_RESET_OFF) |
               (b->int_enabled ? L9_CTL_INT_ENABLE : L9_CTL_INT_DISABLE) | b->other_resets;
    if (off >= L9_BAR_SPECIAL && off < L9_BAR_SPECIAL + 0x200)
        return nic_reg_read(b->nic, off - L9_BAR_SPECIAL, true);
    if (off >= L9_BAR_EEPROM && off - L9_BAR_EEPROM + 4 <= BOARD_EEPROM_SIZE)
        return nc_get_be32(b->eeprom + (off - L9_BAR_EEPROM));
    return 0;   /* config space, doorbells, holes */
}

void board_write32(struct board *b, uint32_t off, uint32_t v)
{
    uint8_t w[4];

    if (off < b->nic->sram_size) {
        nc_put_be32(w, v);
        b->nic->env.sram_write(b->nic->env.opaque, off & ~3u, w, 4);
        return;
    }
    if (off == L9_BAR_CONTROL) {
        int reset = pair(v, L9_CTL_RESET_ON, L9_CTL_RESET_OFF);
        int irq = pair(v, L9_CTL_INT_ENABLE, L9_CTL_INT_DISABLE);
        int e = pair(v, L9_CTL_ERESET_ON, L9_CTL_ERESET_OFF);
        int br = pair(v, L9_CTL_BRESET_ON, L9_CTL_BRESET_OFF);

        if (reset == -2 || irq == -2 || e == -2 || br == -2) {
            b->ignored_writes++;    /* both halves of a pair: undefined */
            return;
        }
        if (reset == 1 && !b->held) {
            b->held = true;
            nic_reset(b->nic);
            b->env.cpu_hold(b->env.opaque, true);
        } else if (reset == 0 && b->held) {
            b->held = false;
            b->env.cpu_hold(b->env.opaque, false);
        }
        if (irq >= 0)
            b->int_enabled = irq == 1;
        if (e >= 0)
            b->other_resets = (b->other_resets & ~(L9_CTL_ERESET_ON | L9_CTL_ERESET_OFF)) |
                              (e ? L9_CTL_ERESET_ON : L9_CTL_ERESET_OFF);
        if (br >= 0)
            b->other_resets = (b->other_resets & ~(L9_CTL_BRESET_ON | L9_CTL_BRESET_OFF)) |
                              (br ? L9_CTL_BRESET_ON : L9_CTL_BRESET_OFF);
        update_irq(b);
        return;
    }
    if (off >= L9_BAR_SPECIAL && off < L9_BAR_SPECIAL + 0x200) {
        nic_reg_write(b->nic, off - L9_BAR_SPECIAL, v, true);
        return;
    }
    b->ignored_writes++;            /* EEPROM is read-only; config, doorbells, holes */
}
