    .text
    .globl _start
_start:
    mov     small_const, %r3
    nop
