/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The C half of program start-up (crt0.S calls it with the stack ready):
 * clear .bss, run the constructors in .init_array in order, call main, and
 * pass its result to exit(). The bounds come from lanai-ld's linker-defined
 * symbols. .bss starts on a 4 KB page and lanai-ld rounds its size to a word,
 * so a word loop clears it exactly.
 */
#include <stdint.h>

typedef void (*ctor_fn)(void);

extern uint32_t __bss_start[], __bss_end[];
extern ctor_fn __init_array_start[], __init_array_end[];

int main(int argc, char **argv);
void exit(int status) __attribute__((noreturn));
void __crt0_start(int argc, char **argv) __attribute__((noreturn));

void __crt0_start(int argc, char **argv)
{
    for (volatile uint32_t *p = __bss_start; p < __bss_end; p++)
        *p = 0;
    for (ctor_fn *f = __init_array_start; f < __init_array_end; f++)
        (*f)();
    exit(main(argc, argv));
}
