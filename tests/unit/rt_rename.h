/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Force-included when the LANai runtime is compiled for the host, so its
 * functions do not collide with libgcc's and libc's of the same names. */
#define __mulsi3 rt_mulsi3
#define __muldi3 rt_muldi3
#define __udivsi3 rt_udivsi3
#define __umodsi3 rt_umodsi3
#define __divsi3 rt_divsi3
#define __modsi3 rt_modsi3
#define __udivdi3 rt_udivdi3
#define __umoddi3 rt_umoddi3
#define __divdi3 rt_divdi3
#define __moddi3 rt_moddi3
#define __udivmoddi4 rt_udivmoddi4
#define __ashrdi3 rt_ashrdi3
#define __ashldi3 rt_ashldi3
#define __lshrdi3 rt_lshrdi3
#define memcpy rt_memcpy
#define memset rt_memset
#define memmove rt_memmove
#define memcmp rt_memcmp
