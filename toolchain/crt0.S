/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * crt0: the first instructions of every LANai program linked by lanai-cc.
 * lanai-ld places it first in .text, so _start is at the base address (0),
 * where a LANai starts after reset.
 *
 * On entry the loader may pass argc in %r6 and argv in %r7 (lanai-iss and
 * the QEMU test machine do; see docs/test-machine.md). They are left alone
 * and reach __crt0_start as its first two arguments. The stack starts at
 * __stack_top (8-byte aligned, from lanai-ld); %fp starts equal to %sp.
 * __crt0_start (start.c) clears .bss, runs .init_array, calls main and
 * exit; it never returns, but if it did, the loop below holds the CPU.
 */
    .section .text.crt0,"ax",@progbits
    .globl  _start
    .type   _start,@function
_start:
    mov     hi(__stack_top), %sp
    or      %sp, lo(__stack_top), %sp
    add     %sp, 0x0, %fp
    add     %pc, 0x10, %rca        ! return address: the instruction after the slot
    st      %rca, [--%sp]
    bt      __crt0_start
    nop                             ! delay slot
.Lhalt:
    bt      .Lhalt
    nop
    .size   _start, .-_start
