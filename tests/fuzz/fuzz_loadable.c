/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: the program loader shared by lanai-iss and the firmware
 * loader (executable ELF or flat image). Accepted inputs are also copied into
 * a memory of the checked size, so a size check that is too weak shows up as
 * an AddressSanitizer report.
 */
#include <stdint.h>
#include <stdlib.h>

#include "loadable.h"

#define MEM (1u << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint8_t *mem;
    struct loadable l;
    char err[256];

    if (!mem)
        mem = malloc(MEM);
    if (loadable_parse("fuzz", data, size, MEM, &l, err, sizeof err) == 0)
        loadable_copy(&l, mem);
    return 0;
}
