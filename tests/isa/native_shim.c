/*
 * native_shim.c - host-side environment for the ISA conformance programs.
 *
 * The programs in tests/isa/progs/ are freestanding: they only call put_char
 * and the mem* functions.  On LANai the lead's runtime provides put_char (a
 * console MMIO store); natively this file provides it on top of stdio, and
 * libc supplies memcpy, memset, memmove, memcmp and abort.  main() is the
 * program's own; its return value is the process exit status on both sides.
 */
#include <stdio.h>

void put_char(int c)
{
    /* Same byte as the LANai console gets: the low 8 bits. */
    putchar((unsigned char)c);
}
