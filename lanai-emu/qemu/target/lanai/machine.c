/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * LANai CPU migration state: the whole architectural state plus the
 * pending jump and the cycle counter (they are part of what runs next).
 */
#include "qemu/osdep.h"
#include "cpu.h"
#include "migration/cpu.h"

const VMStateDescription vms_lanai_cpu = {
    .name = "cpu",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_UINT32_ARRAY(env.r, LanaiCPU, 32),
        VMSTATE_UINT32(env.pc, LanaiCPU),
        VMSTATE_UINT32(env.NF, LanaiCPU),
        VMSTATE_UINT32(env.ZF, LanaiCPU),
        VMSTATE_UINT32(env.CF, LanaiCPU),
        VMSTATE_UINT32(env.VF, LanaiCPU),
        VMSTATE_UINT32(env.pend, LanaiCPU),
        VMSTATE_UINT32(env.pend_target, LanaiCPU),
        VMSTATE_UINT32(env.pend_taken, LanaiCPU),
        VMSTATE_UINT64(env.cycles, LanaiCPU),
        VMSTATE_END_OF_LIST()
    }
};
