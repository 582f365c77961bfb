/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Ending a program. exit() runs the destructors of .fini_array (in reverse
 * order, as C requires) and calls _exit(). The default _exit() writes the
 * status to the test machine's exit register and then spins: on a real NIC,
 * where that register does not exist, the spin is the halt. Firmware that
 * wants another behaviour defines its own _exit (this one is weak).
 * abort() (also what __builtin_trap() becomes) exits with status 134, the
 * status a host shell reports for SIGABRT.
 */
#include "nicoll/lanai-testmachine.h"

typedef void (*dtor_fn)(void);
extern dtor_fn __fini_array_start[], __fini_array_end[];

void _exit(int status) __attribute__((noreturn));
void exit(int status) __attribute__((noreturn));
void abort(void) __attribute__((noreturn));

__attribute__((weak)) void _exit(int status)
{
    lanai_tm_exit(status);
}

void exit(int status)
{
    for (dtor_fn *f = __fini_array_end; f > __fini_array_start;)
        (*--f)();
    _exit(status);
}

void abort(void)
{
    _exit(134);
}
