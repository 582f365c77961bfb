/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * LANai CPU QOM type.
 */
#ifndef LANAI_CPU_QOM_H
#define LANAI_CPU_QOM_H

#include "hw/core/cpu.h"
#include "qom/object.h"

#define TYPE_LANAI_CPU "lanai-cpu"

OBJECT_DECLARE_CPU_TYPE(LanaiCPU, LanaiCPUClass, LANAI_CPU)

struct LanaiCPUClass {
    /*< private >*/
    CPUClass parent_class;
    /*< public >*/
    DeviceRealize parent_realize;
    DeviceReset parent_reset;
};

#endif
