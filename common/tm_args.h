/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The test machine's argument block (include/nicoll/lanai-testmachine.h),
 * laid out in one place for both runners, lanai-iss and QEMU's -M
 * lanai-test, so that a program sees the same argv on either.
 */
#ifndef NICOLL_TM_ARGS_H
#define NICOLL_TM_ARGS_H

#include <stdint.h>

enum tm_args_status {
    TM_ARGS_OK = 0,
    TM_ARGS_TOO_MANY,   /* more than LANAI_TM_ARGC_MAX arguments */
    TM_ARGS_TOO_BIG,    /* strings and pointers exceed LANAI_TM_ARGS_MAX bytes */
};

/* Write argv into ram (the LANai's RAM as bytes, big-endian words) below
 * address top (the RAM size), and return the pointer array's address in
 * *argv_addr. ram must hold at least top bytes. */
enum tm_args_status tm_args_place(uint8_t *ram, uint32_t top, unsigned argc,
                                  const char *const *argv, uint32_t *argv_addr);

#endif
