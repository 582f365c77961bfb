! Branch and 21-bit references to symbols placed with --defsym.
    .text
    .globl _start
_start:
    bt      far_target
    nop
