    .text
    .globl helper
helper:
    ld      -4[%fp], %pc
    nop
    nop
