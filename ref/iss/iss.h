/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lanai-iss: a small, plain reference interpreter for the LANai v11 ISA
 * (docs/lanai-isa.md). It is written to be obviously correct, not
 * fast: one instruction per iss_step(), no caching, every rule spelled out.
 * The QEMU target is tested against it instruction by instruction.
 *
 * Memory: RAM is a byte array mapped at address 0. Every access outside RAM
 * goes to an optional MMIO callback (the CLI plugs in the test-machine
 * device, docs/test-machine.md); without one, such an access traps.
 */
#ifndef NICOLL_ISS_H
#define NICOLL_ISS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nicoll/nc_endian.h"

enum iss_status {
    ISS_RUNNING = 0,
    ISS_EXITED,  /* the program wrote the exit register (see iss_exit) */
    ISS_TRAPPED, /* reserved encoding, misaligned or unmapped access, ... */
    ISS_LIMIT,   /* the instruction limit was reached */
};

struct iss;

/*
 * Device access outside RAM. size is 1, 2 or 4 bytes; for writes *val holds
 * the value (zero-extended), for reads the callback stores it. Return true if
 * the access was handled; false makes the interpreter trap with
 * "unmapped address". The callback may call iss_exit() or iss_trap().
 */
typedef bool (*iss_mmio_fn)(struct iss *s, void *ctx, uint32_t addr,
                            unsigned size, bool write, uint32_t *val);

/* Called after every retired instruction when set (instruction trace). */
typedef void (*iss_trace_fn)(struct iss *s, void *ctx, uint32_t pc,
                             uint32_t insn);

struct iss {
    /* Architectural state. r[0], r[1], r[2] are kept at 0, ~0 and the pc of
     * the executing instruction; writes to them go through set_reg(). */
    uint32_t r[32];
    bool n, z, v, c;
    uint32_t pc;

    /* A pending write to pc: after 'pend_slots' more instructions retire,
     * control goes to 'pend_target'. One delay slot for ALU writes and
     * branches, two for loads (lanai-isa.md section 7). */
    unsigned pend_slots;
    uint32_t pend_target;

    /* Strict mode (lanai-iss --strict): a LANai 9.0/9.1 core without load
     * interlocks (docs/lanai-isa.md, "Timing and hazards"). hz_reg[k] is
     * the destination of the load retired k+1 instructions ago (0: none),
     * hz_pc[k] its address; an instruction that reads or writes one of
     * them traps. Kept across iss_reset. */
    bool strict;
    unsigned hz_reg[2];
    uint32_t hz_pc[2];

    /* Retired-instruction count (the test machine's cycle counter). */
    uint64_t icount;
    uint64_t limit; /* stop with ISS_LIMIT when icount reaches it; 0 = none */

    uint8_t *ram;
    uint32_t ram_size;

    iss_mmio_fn mmio;
    void *mmio_ctx;
    iss_trace_fn trace;
    void *trace_ctx;

    enum iss_status status;
    int exit_code;
    uint32_t trap_pc;
    uint32_t trap_insn;
    char trap_reason[160];
};

/* Reset the CPU: registers zero (r1 = ~0), flags clear, pc = entry. */
void iss_reset(struct iss *s, uint8_t *ram, uint32_t ram_size, uint32_t entry);

/* Execute one instruction. Returns the status after it. */
enum iss_status iss_step(struct iss *s);

/* Run until the status is no longer ISS_RUNNING. */
enum iss_status iss_run(struct iss *s);

/* Stop the run: used by devices (exit register) and the CLI. */
void iss_exit(struct iss *s, int code);
void iss_trap(struct iss *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Register file view that respects r0/r1/pc (for tests and traces). */
uint32_t iss_get_reg(const struct iss *s, unsigned r);

/* Disassemble one instruction word at address pc into buf (LLVM syntax,
 * destination last). Returns buf. Reserved encodings print as ".word". */
char *iss_disas(uint32_t insn, uint32_t pc, char *buf, size_t len);

#endif
