    .text
    .globl _start
_start:
    nop
    bt      missing_function
    nop
