/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * LANai-side environment of the ISA conformance programs (the counterpart of
 * native_shim.c): put_char writes the test machine's console register. The
 * mem* functions and abort come from the runtime, liblanai-rt.a.
 */
#include <lanai-testmachine.h>

void put_char(int c);

void put_char(int c)
{
    lanai_tm_putc(c);
}
