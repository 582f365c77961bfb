! lanai-ld hazard pass (-mcpu=lanai9.0): each rule once, checked by tests/ld/suite;
! exits with a checksum of what it loaded (39) through the test machine
    .section .text,"ax",@progbits
    .globl _start
_start:
    mov hi(data), %r9
    or %r9, lo(data), %r9
    mov 0, %r20
    ! rule 1: use right after a load (2 nops)
    ld 0[%r9], %r3
    add %r3, 1, %r4
    add %r20, %r4, %r20
    ! rule 2: use 2 after a load (1 nop)
    ld 4[%r9], %r5
    add %r0, 0, %r0
    add %r20, %r5, %r20
    ! rule 3: write of the loaded register (2 nops)
    ld 8[%r9], %r6
    or %r0, 3, %r6
    add %r20, %r6, %r20
    ! rule 4: a delay slot that uses the register: nops go before the branch
    ld 12[%r9], %r7
    bt .Lt1
    add %r7, 0, %r8
    add %r0, 100, %r20     ! skipped
.Lt1:
    add %r20, %r8, %r20
    ! rule 5: a load in a delay slot, used at the target (nops at the target)
    bt .Lt2
    ld 16[%r9], %r10
    add %r0, 100, %r20     ! skipped
.Lt2:
    add %r20, %r10, %r20
    ! rule 6: a jump table (R_LANAI_32 on .rodata's section symbol + addend)
    mov hi(table), %r11
    or %r11, lo(table), %r11
    ld 4[%r11], %r12
    bt %r12
    nop
.Lc0:
    add %r0, 100, %r20
.Lc1:
    add %r20, 1000, %r20
    ! rule 7: add %pc, K across inserted nops; return to the right place
    add %pc, 0x10, %rca
    ld 20[%r9], %r13
    bt fn
    or %r13, 0, %r14       ! slot: 2 after the load -> 1 nop before bt
    add %r20, %r14, %r20   ! the return point
    ! exit with r20
    mov 0xffff0000, %r15
    st %r20, 4[%r15]
.Lhalt:
    bt .Lhalt
    nop
    .type fn,@function
fn:
    add %rca, 0, %pc
    nop
    .size fn, .-fn
    .section .rodata,"a",@progbits
    .p2align 2
table:
    .long .Lc0
    .long .Lc1
    .section .data,"aw",@progbits
    .p2align 2
data:
    .long 1, 2, 4, 8, 16, 32
