/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The test machine's argument block: common/tm_args.h. */
#include <string.h>

#include "tm_args.h"
#include "nicoll/lanai-testmachine.h"
#include "nicoll/nc_endian.h"

enum tm_args_status tm_args_place(uint8_t *ram, uint32_t top, unsigned argc,
                                  const char *const *argv, uint32_t *argv_addr)
{
    uint32_t p = top, ptrs, addrs[LANAI_TM_ARGC_MAX];
    const uint32_t floor = top - LANAI_TM_ARGS_MAX;

    if (argc > LANAI_TM_ARGC_MAX)
        return TM_ARGS_TOO_MANY;
    for (unsigned i = argc; i-- > 0;) {
        size_t n = strlen(argv[i]) + 1;

        if (n > LANAI_TM_ARGS_MAX || p - floor < n)
            return TM_ARGS_TOO_BIG;
        p -= (uint32_t)n;
        memcpy(ram + p, argv[i], n);
        addrs[i] = p;
    }
    p &= ~3u;
    if (p - floor < 4u * (argc + 1))
        return TM_ARGS_TOO_BIG;
    ptrs = p - 4u * (argc + 1);
    for (unsigned i = 0; i < argc; i++)
        nc_put_be32(ram + ptrs + 4u * i, addrs[i]);
    nc_put_be32(ram + ptrs + 4u * argc, 0);
    *argv_addr = ptrs;
    return TM_ARGS_OK;
}
