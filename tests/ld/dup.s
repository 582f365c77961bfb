    .text
    .globl helper
helper:
    nop
