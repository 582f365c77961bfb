    .text
    .globl _start
_start:
    ld      [small_data], %r3
    nop
