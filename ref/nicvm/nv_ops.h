/*
 * nv_ops.h - NICVM's opcodes and built-in numbers (nv_bytecode.h says how an
 * instruction is encoded and what a verified module is).
 */
#ifndef NV_OPS_H
#define NV_OPS_H

/* Opcodes, grouped by stack effect (pops -> pushes), nv_pops in nv_bytecode.h. */
#define NV_OP_RET     0u   /* 1 -> 0   return the value                    */
#define NV_OP_JMP     1u   /* 0 -> 0   jump to arg (> pc)                  */
#define NV_OP_JZ      2u   /* 1 -> 0   jump to arg (> pc) if the value is 0 */
#define NV_OP_LIT     3u   /* 0 -> 1   arg as a signed 24-bit number       */
#define NV_OP_CONST   4u   /* 0 -> 1   konst[arg]                          */
#define NV_OP_LDL     5u   /* 0 -> 1   local arg                           */
#define NV_OP_LDS     6u   /* 0 -> 1   state word arg                      */
#define NV_OP_STL     7u   /* 1 -> 0   local arg = value                   */
#define NV_OP_STS     8u   /* 1 -> 0   state word arg = value              */
#define NV_OP_DROP    9u   /* 1 -> 0                                       */
#define NV_OP_LDSX   10u   /* 1 -> 1   state[base + i], i < n (arg: base + 4096 n) */
#define NV_OP_PKH    11u   /* 1 -> 1   header word i, i < NV_HDR_WORDS     */
#define NV_OP_PKW    12u   /* 1 -> 1   payload word i, i < payload words   */
#define NV_OP_NOT    13u   /* 1 -> 1   logical not                         */
#define NV_OP_NEG    14u   /* 1 -> 1   minus                               */
#define NV_OP_STSX   15u   /* 2 -> 0   (i, v): state[base + i] = v          */
#define NV_OP_PKHSET 16u   /* 2 -> 0   (i, v): header word i = v (if writable) */
#define NV_OP_PKWSET 17u   /* 2 -> 0   (i, v): payload word i = v           */
#define NV_OP_ADD    18u   /* 2 -> 1   32-bit two's complement arithmetic  */
#define NV_OP_SUB    19u
#define NV_OP_MUL    20u
#define NV_OP_DIV    21u   /* truncating; by zero: NV_STOP_DIV              */
#define NV_OP_MOD    22u
#define NV_OP_EQ     23u   /* comparisons are signed, give 0 or 1          */
#define NV_OP_NE     24u
#define NV_OP_LT     25u
#define NV_OP_LE     26u
#define NV_OP_GT     27u
#define NV_OP_GE     28u
#define NV_OP_AND    29u   /* logical, both sides evaluated, 0 or 1        */
#define NV_OP_OR     30u
#define NV_OP_CALL   31u   /* built-in arg (NV_BI_*)                       */
#define NV_OP_COUNT  32u

/* Built-ins (NV_OP_CALL's operand), seed 004 Figure 4.3 plus the payload
 * length. */
#define NV_BI_SIZE    0u   /* 0 -> 1   mpi_get_size()                      */
#define NV_BI_RANK    1u   /* 0 -> 1   mpi_get_rank()                      */
#define NV_BI_ROOT    2u   /* 0 -> 1   mpi_get_root()                      */
#define NV_BI_PKWORDS 3u   /* 0 -> 1   pkt_words(): payload words          */
#define NV_BI_SEND    4u   /* 2 -> 0   mpi_send_message(type, rank)        */
#define NV_BI_COUNT   5u

/* The packet type a module sends with (GM_ST_RELIABLE_NICVM_NIC_DATA in the
 * language): a NICVM data packet, NIC to NIC, reliable.  The firmware maps
 * it to its wire type. */
#define NV_PT_NIC_DATA 1u

#endif
