/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * LANai-only check of the test-machine start-up contract: argc/argv from the
 * loader reach main through crt0, .bss is zero, .data is initialised, and
 * the cycle counter advances. Run with the arguments in args.args.
 */
#include <stdint.h>
#include <lanai-testmachine.h>

static uint32_t zeroed[64];
static uint32_t initialised = 0x5eed;

static void puts_(const char *s)
{
    while (*s)
        lanai_tm_putc(*s++);
}

int main(int argc, char **argv)
{
    uint32_t t0 = lanai_tm_cycles(), t1, sum = 0;

    for (int i = 1; i < argc; i++) {  /* argv[0] is the host path: skip it */
        puts_(argv[i]);
        lanai_tm_putc('\n');
    }
    puts_(argv[argc] == 0 ? "argv ends with NULL\n" : "argv not terminated\n");
    for (int i = 0; i < 64; i++)
        sum |= zeroed[i];
    puts_(sum == 0 ? "bss zero\n" : "bss NOT zero\n");
    puts_(initialised == 0x5eed ? "data initialised\n" : "data wrong\n");
    t1 = lanai_tm_cycles();
    puts_(t1 > t0 ? "counter advances\n" : "counter stuck\n");
    return argc;
}
