! A small program for the linker tests: one call, one data reference.
    .text
    .globl _start
_start:
    mov     hi(value), %r3
    or      %r3, lo(value), %r3
    ld      0[%r3], %r6
    add     %pc, 0x10, %rca
    st      %rca, [--%sp]
    bt      helper
    nop
    .data
    .globl value
value:
    .long   42
