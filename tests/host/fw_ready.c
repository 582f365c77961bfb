/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A minimal "firmware" for the loader tests: it signals ready in the
 * host-shared block (top 4 KiB of SRAM) and idles. Linked for 2 MB of SRAM.
 */
#include <stdint.h>

#include "nicoll/shared_block.h"

extern char __mem_size[];

int main(void)
{
    volatile uint32_t *sb = (volatile uint32_t *)NC_SB_ADDR((uint32_t)(uintptr_t)__mem_size);

    if (sb[NC_SB_OFF_MAGIC / 4] != NC_SB_MAGIC)
        sb[NC_SB_OFF_FW_STATUS / 4] = 1;    /* the loader did not fill the block */
    sb[NC_SB_OFF_READY / 4] = NC_SB_READY_MAGIC;
    for (;;)
        ;
}
