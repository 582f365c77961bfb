/*
 * nv_config.h - every limit of NICVM (ref/nicvm), in one place.
 *
 * The compiler, the verifier and the VM allocate nothing: a module is one
 * struct nv_prog of fixed size, the compiler's working state one struct
 * nv_compiler, so the firmware can place both in SRAM statically and the
 * proofs can bound every index.  Why these numbers:
 *  - NV_CODE_MAX 1024 instructions (4 KB of code): a module runs on every
 *    NICVM packet before the host DMA (seed 004 section 4.2.1), so it must
 *    stay short; counted loops are unrolled (docs/nicvm.md), and 1024 leaves
 *    room for a 16-trip loop of a 60-instruction body.  The bytecode has
 *    forward jumps only, so the worst case of a module is at most its length,
 *    and every cost fits in 16 bits (cycles in 32).
 *  - NV_CONST_MAX 32: literals beyond 24 bits are rare (masks, magic words).
 *  - NV_LOCALS_MAX 32: variables of the function, loop variables and the
 *    hidden loop limits included; the VM keeps them on its C stack (128 B).
 *  - NV_STATE_MAX 64 words: the state a module keeps between packets, in
 *    SRAM beside its code (the thesis's modules keep none).
 *  - NV_STACK_MAX 16: the operand stack, also on the VM's C stack (64 B);
 *    an expression needing more is rejected by the verifier.
 *  - NV_HDR_WORDS 8: header words the firmware shows a module (type, source,
 *    destination, tag, length and three user words; docs/nicvm.md).
 *  - NV_SENDS_MAX 16: sends one activation may request; the firmware queues
 *    one NICVM send descriptor per send (seed 004 Figure 4.7).  A binary
 *    tree needs 2, a k-ary tree k.
 * *  - NV_CYC_MAX 1023: no VM instruction costs more LANai cycles than this
 *    (division, done by the runtime bit by bit, is the dearest at 530; the
 *    measured table is in nv_cost.c), so cycle bounds fit in 32 bits.
 *  - NV_LOOP_TRIPS_MAX 256: the largest constant trip count of a loop.
 *  - NV_SRC_MAX 16 KB of source; NV_IDENT_MAX 31 characters of a name;
 *    NV_NEST_MAX 16 nested if/for blocks; NV_OPSTACK_MAX 48 pending
 *    operators and parentheses in one expression; NV_FIXUP_MAX 64 pending
 *    jumps to the ends of if statements; NV_ERR_MAX 16 errors reported
 *    per module (the compiler goes on after a semantic error, stops at a
 *    syntax error).
 *  - NV_BUDGET_DEFAULT 256 VM instructions: the budget nicvm-check checks
 *    against unless told otherwise; the thesis's broadcast module needs 52.
 */
#ifndef NV_CONFIG_H
#define NV_CONFIG_H

#define NV_CODE_MAX        1024u
#define NV_CONST_MAX       32u
#define NV_LOCALS_MAX      32u
#define NV_STATE_MAX       64u
#define NV_STACK_MAX       16u
#define NV_HDR_WORDS       8u
#define NV_SENDS_MAX       16u
#define NV_CYC_MAX         1023u
#define NV_LOOP_TRIPS_MAX  256u
#define NV_BUDGET_DEFAULT  256u

#define NV_SRC_MAX         16384u
#define NV_IDENT_MAX       31u
#define NV_NEST_MAX        16u
#define NV_OPSTACK_MAX     48u
#define NV_FIXUP_MAX       64u
#define NV_ERR_MAX         16u
#define NV_MSG_MAX         96u

#endif
