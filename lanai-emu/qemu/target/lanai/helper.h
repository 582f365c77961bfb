/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trap(code, cycles of this TB not yet added to env->cycles) */
DEF_HELPER_3(trap, noreturn, env, i32, i32)
