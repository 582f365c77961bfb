/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * LANai CPU parameters. The LANai has no MMU: addresses are physical and
 * 32 bits wide. 4 KiB pages keep self-modifying-code tracking cheap for
 * programs that put data on pages of their own (docs/architecture.md).
 */
#ifndef LANAI_CPU_PARAM_H
#define LANAI_CPU_PARAM_H

#define TARGET_LONG_BITS 32
#define TARGET_PAGE_BITS 12
#define TARGET_PHYS_ADDR_SPACE_BITS 32
#define TARGET_VIRT_ADDR_SPACE_BITS 32
#define NB_MMU_MODES 1

#endif
