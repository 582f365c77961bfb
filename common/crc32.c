/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CRC-32, eight bytes per step ("slicing by 8"): the firmware loader checks
 * every image it writes and reads back, 1024 boards in one emulator
 * process, and a bit at a time costs more than the load itself. */
#include "crc32.h"

static uint32_t tab[8][256];
static int tab_ready;

static void make_tab(void)
{
    for (uint32_t b = 0; b < 256; b++) {
        uint32_t c = b;
        for (int i = 0; i < 8; i++)
            c = (c >> 1) ^ (0xEDB88320u & -(c & 1));
        tab[0][b] = c;
    }
    for (uint32_t b = 0; b < 256; b++)
        for (int k = 1; k < 8; k++)
            tab[k][b] = (tab[k - 1][b] >> 8) ^ tab[0][tab[k - 1][b] & 0xFF];
    tab_ready = 1;
}

uint32_t crc32_update(uint32_t crc, const void *data, size_t len)
{
    const uint8_t *p = data;

    if (!tab_ready)
        make_tab();
    crc = ~crc;
    while (len >= 8) {
        uint32_t lo = crc ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 |
                             (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
        crc = tab[7][lo & 0xFF] ^ tab[6][(lo >> 8) & 0xFF] ^
              tab[5][(lo >> 16) & 0xFF] ^ tab[4][lo >> 24] ^
              tab[3][p[4]] ^ tab[2][p[5]] ^ tab[1][p[6]] ^ tab[0][p[7]];
        p += 8;
        len -= 8;
    }
    while (len--)
        crc = (crc >> 8) ^ tab[0][(crc ^ *p++) & 0xFF];
    return ~crc;
}
