/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gdbstub register access: r0..r31 (r2 = pc), then pc again and the flags
 * (LANai3 layout: Z bit 0, N bit 1, V bit 2, C bit 3), 34 registers of 32
 * bits, as gdb-xml/lanai-cpu.xml describes them.
 */
#include "qemu/osdep.h"
#include "cpu.h"
#include "exec/gdbstub.h"

int lanai_cpu_gdb_read_register(CPUState *cs, GByteArray *mem_buf, int n)
{
    CPULanaiState *env = &LANAI_CPU(cs)->env;

    if (n < 32) {
        return gdb_get_reg32(mem_buf, lanai_get_reg(env, n));
    }
    if (n == 32) {
        return gdb_get_reg32(mem_buf, env->pc);
    }
    if (n == 33) {
        return gdb_get_reg32(mem_buf, lanai_get_flags(env));
    }
    return 0;
}

int lanai_cpu_gdb_write_register(CPUState *cs, uint8_t *mem_buf, int n)
{
    CPULanaiState *env = &LANAI_CPU(cs)->env;
    uint32_t v = ldl_p(mem_buf);

    if (n == 2 || n == 32) {
        /* A debugger's pc write is an immediate move, not a jump. */
        env->pc = v;
        env->pend = 0;
    } else if (n > 2 && n < 32) {
        env->r[n] = v;
    } else if (n == 33) {
        lanai_set_flags(env, v);
    } else if (n >= 34) {
        return 0;
    }
    return 4; /* r0 and r1 ignore writes, as on the CPU */
}
