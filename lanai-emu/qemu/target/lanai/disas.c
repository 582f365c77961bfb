/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * -d in_asm and the monitor's x/i: LANai assembly in LLVM syntax. The text
 * comes from the reference interpreter's disassembler (ref/iss/disas.c,
 * copied into nicoll/ by lanai-emu/build.sh), so QEMU logs and lanai-iss
 * --trace print instructions the same way.
 */
#include "qemu/osdep.h"
#include "cpu.h"
#include "disas/dis-asm.h"
#include "nicoll/iss.h"

int lanai_print_insn(bfd_vma addr, disassemble_info *info)
{
    bfd_byte b[4];
    char text[96];
    uint32_t insn;

    if (info->read_memory_func(addr, b, 4, info) != 0) {
        info->memory_error_func(-1, addr, info);
        return -1;
    }
    insn = nc_get_be32(b);
    iss_disas(insn, (uint32_t)addr, text, sizeof text);
    info->fprintf_func(info->stream, "%08x  %s", insn, text);
    return 4;
}
