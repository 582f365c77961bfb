/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The registers one LANai instruction touches, as the load-use hazard rule
 * of the LANai 9.0/9.1 (no load interlock, docs/lanai-isa.md "Timing and
 * hazards") sees them. One table for the three places that apply the rule:
 * lanai-iss's and the QEMU target's strict mode trap on a hazard, and
 * lanai-ld's hazard pass inserts the nops that avoid it.
 *
 * Operands count as read whatever a predicate says (they are read before
 * the condition is known); the write-back of a base register is an ALU
 * write, not delayed; SLI is a constant move, not a load (lanai-gcc's view
 * too).
 */
#ifndef NICOLL_LANAI_REGUSE_H
#define NICOLL_LANAI_REGUSE_H

#include <stdbool.h>
#include <stdint.h>

struct lanai_reguse {
    uint32_t touched;   /* bit r: register r read or written (r0, r1, pc never) */
    unsigned load_rd;   /* the destination of a data load, if above r2; else 0 */
    unsigned rd;        /* the rd field */
    bool load;          /* a data load (into any register, the pc too) */
    bool alu_write;     /* rd written by the ALU (RI, RR, popc/leadz/trailz) */
};

struct lanai_reguse lanai_reguse(uint32_t w);

#endif
