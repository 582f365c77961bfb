/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trap(code, cycles of this TB not yet added to env->cycles) */
DEF_HELPER_3(trap, noreturn, env, i32, i32)
/* store_watch(address, size): the board sees a store before it happens */
DEF_HELPER_FLAGS_3(store_watch, TCG_CALL_NO_RWG, void, env, i32, i32)
/* hazard(pc, registers touched, load destination, cycles of this TB not
 * yet added): strict mode's load-use check, before every instruction */
DEF_HELPER_5(hazard, void, env, i32, i32, i32, i32)
