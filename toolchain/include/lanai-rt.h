/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The runtime's functions (liblanai-rt.a, docs/runtime.md): the libcalls
 * clang emits for integer C on the LANai, and the mem* functions. Code
 * rarely calls the libcalls by name; tests of their edge cases do.
 */
#ifndef NICOLL_LANAI_RT_H
#define NICOLL_LANAI_RT_H

#include <stddef.h>
#include <stdint.h>

int32_t __mulsi3(int32_t a, int32_t b);
int64_t __muldi3(int64_t a, int64_t b);

uint32_t __udivsi3(uint32_t n, uint32_t d);
uint32_t __umodsi3(uint32_t n, uint32_t d);
int32_t __divsi3(int32_t n, int32_t d);
int32_t __modsi3(int32_t n, int32_t d);
uint64_t __udivdi3(uint64_t n, uint64_t d);
uint64_t __umoddi3(uint64_t n, uint64_t d);
int64_t __divdi3(int64_t n, int64_t d);
int64_t __moddi3(int64_t n, int64_t d);
uint64_t __udivmoddi4(uint64_t n, uint64_t d, uint64_t *rem);

int64_t __ashrdi3(int64_t a, int32_t b);
int64_t __ashldi3(int64_t a, int32_t b);
int64_t __lshrdi3(int64_t a, int32_t b);

void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
void *memmove(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);

#endif
