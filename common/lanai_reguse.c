/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The registers a LANai instruction touches (lanai_reguse.h says why). */
#include "lanai_reguse.h"

struct lanai_reguse lanai_reguse(uint32_t w)
{
    unsigned rd = (w >> 23) & 31, rs1 = (w >> 18) & 31, rs2 = (w >> 11) & 31;
    struct lanai_reguse u = { .rd = rd };
    uint32_t m;

    switch (w >> 28) {
    case 0x8: case 0x9:                             /* RM */
        u.load = !((w >> 28) & 1);
        m = 1u << rs1 | 1u << rd;
        break;
    case 0xA: case 0xB:                             /* RRM */
        u.load = !((w >> 28) & 1);
        m = 1u << rs1 | 1u << rs2 | 1u << rd;
        break;
    case 0xC:                                       /* RR */
        u.alu_write = true;
        m = 1u << rs1 | 1u << rs2 | 1u << rd;
        break;
    case 0xD:                                       /* popc, leadz, trailz */
        u.alu_write = true;
        m = 1u << rs1 | 1u << rd;
        break;
    case 0xE:                                       /* BR (no register), BRR, SCC */
        m = ((w >> 1) & 1) ? 1u << rs1 : 0;
        break;
    case 0xF:
        switch ((w >> 16) & 3) {
        case 0: u.load = true; m = 1u << rd; break; /* SLS load */
        case 1: m = 1u << rd; break;                /* SLS store */
        case 2: m = 1u << rd; break;                /* SLI: a constant move */
        default:                                    /* SPLS */
            u.load = !((w >> 13) & 1);
            m = 1u << rs1 | 1u << rd;
            break;
        }
        break;
    default:                                        /* RI */
        u.alu_write = true;
        m = 1u << rs1 | 1u << rd;
        break;
    }
    u.touched = m & ~7u;
    u.load_rd = (u.load && rd > 2) ? rd : 0;
    return u;
}
