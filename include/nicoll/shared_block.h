/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The host-shared block: the top 4 KiB of SRAM, above the firmware's stack
 * (lanai-ld's default __stack_top is memory size - 4096). The loader fills
 * it while the LANai is held in reset; the firmware reads it at start-up
 * and writes NC_SB_READY_MAGIC into 'ready' when it is up (the handshake
 * the loader waits for). All fields are 32-bit big-endian words, offsets
 * from the block's start. The firmware issue extends it (event rings,
 * routes, ports) after the fields below; 'version' changes when it does.
 */
#ifndef NICOLL_SHARED_BLOCK_H
#define NICOLL_SHARED_BLOCK_H

#define NC_SB_SIZE          4096u
#define NC_SB_MAGIC         0x4E435342u /* "NCSB" */
#define NC_SB_VERSION       1u
#define NC_SB_READY_MAGIC   0x52454459u /* "REDY" */

#define NC_SB_OFF_MAGIC     0x00u  /* host: NC_SB_MAGIC */
#define NC_SB_OFF_VERSION   0x04u  /* host: NC_SB_VERSION */
#define NC_SB_OFF_READY     0x08u  /* host: 0; firmware: NC_SB_READY_MAGIC */
#define NC_SB_OFF_NODE_ID   0x0Cu  /* host: this NIC's node id */
#define NC_SB_OFF_NNODES    0x10u  /* host: nodes in the cluster */
#define NC_SB_OFF_CLOCKVAL  0x14u  /* host: the EEPROM clock value */
#define NC_SB_OFF_BUILD_ID  0x18u  /* host: the image's 8-byte build id */
#define NC_SB_OFF_FW_STATUS 0x20u  /* firmware: 0 ok, else an error code */
#define NC_SB_OFF_ABI       0x24u  /* MCP: SRAM address of its struct nc_abi (include/nicoll/nc_abi.h), 0 if none */
#define NC_SB_OFF_BOOT_ID   0x28u  /* host: this load's identity: the previous load's + 1
                                      (0: SRAM held no shared block); the MCP's connections
                                      start from it, so that its peers tell them from the
                                      ones of the MCP it replaced (docs/firmware.md
                                      "Send time-outs") */

/* Where the block lives for a given SRAM size. */
#define NC_SB_ADDR(sram_size) ((sram_size) - NC_SB_SIZE)

#endif
