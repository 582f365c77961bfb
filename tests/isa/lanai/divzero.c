/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * LANai-only check of the runtime's documented division edge cases
 * (docs/runtime.md): division by zero and MIN / -1. In C these are undefined,
 * so the libcalls are called directly instead of through '/' and '%'.
 * Expected output: divzero.expected.
 */
#include <stdint.h>
#include <lanai-rt.h>
#include <lanai-testmachine.h>


static void hex(const char *label, uint64_t v, int digits)
{
    while (*label)
        lanai_tm_putc(*label++);
    lanai_tm_putc(' ');
    for (int i = digits - 1; i >= 0; i--)
        lanai_tm_putc("0123456789abcdef"[(v >> (4 * i)) & 15]);
    lanai_tm_putc('\n');
}

/* Opaque to the optimiser, so nothing is folded at compile time. */
static volatile uint32_t v_zero = 0, v_x = 1234567, v_min = 0x80000000u;
static volatile uint64_t v64_x = 0x123456789abcdefull;

int main(void)
{
    uint32_t z = v_zero, x = v_x;
    int32_t min = (int32_t)v_min;
    uint64_t z64 = v_zero, x64 = v64_x;
    int64_t min64 = (int64_t)((uint64_t)1 << 63);

    hex("udiv32 x/0", __udivsi3(x, z), 8);
    hex("umod32 x%0", __umodsi3(x, z), 8);
    hex("sdiv32 x/0", (uint32_t)__divsi3((int32_t)x, (int32_t)z), 8);
    hex("sdiv32 -x/0", (uint32_t)__divsi3(-(int32_t)x, (int32_t)z), 8);
    hex("smod32 -x%0", (uint32_t)__modsi3(-(int32_t)x, (int32_t)z), 8);
    hex("sdiv32 min/-1", (uint32_t)__divsi3(min, -1), 8);
    hex("smod32 min%-1", (uint32_t)__modsi3(min, -1), 8);
    hex("udiv64 x/0", __udivdi3(x64, z64), 16);
    hex("umod64 x%0", __umoddi3(x64, z64), 16);
    hex("sdiv64 x/0", (uint64_t)__divdi3((int64_t)x64, (int64_t)z64), 16);
    hex("smod64 -x%0", (uint64_t)__moddi3(-(int64_t)x64, (int64_t)z64), 16);
    hex("sdiv64 min/-1", (uint64_t)__divdi3(min64, -1), 16);
    hex("smod64 min%-1", (uint64_t)__moddi3(min64, -1), 16);
    return 0;
}
