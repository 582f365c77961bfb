/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Trap codes passed from translated code to helper_trap(). */
#ifndef LANAI_TRAP_H
#define LANAI_TRAP_H

enum lanai_trap {
    LANAI_TRAP_RESERVED,
    LANAI_TRAP_RRM_YL,
    LANAI_TRAP_STORE_E,
    LANAI_TRAP_RRM_OP,
    LANAI_TRAP_BRR,
    LANAI_TRAP_JUMP_PENDING,
    LANAI_TRAP_WB_PC,
    LANAI_TRAP_WB_BASE,
    LANAI_TRAP_PC_ALIGN,
    LANAI_TRAP_FETCH,
};

#endif
