/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The nicoll flat firmware image: what lanai-ld --image writes and what the
 * loaders (lanai-iss, lanai-flash, the emulated cluster) read. Every field is
 * a 32-bit big-endian word, like everything the LANai sees. Layout:
 *
 *   header      LANAI_IMG_HDR_SIZE bytes (fields below)
 *   segments    nsegs entries of LANAI_IMG_SEG_SIZE bytes
 *   data        each segment's file bytes, at its file_off, 4-byte aligned
 *
 * The CRC-32 (IEEE 802.3, the zlib polynomial) covers every byte after the
 * crc32 field, up to total_size. The build id is the FNV-1a-64 hash of the
 * entry point, the segment table and the segment data; two links of the same
 * inputs give the same id. docs/image-format.md has the prose version.
 */
#ifndef NICOLL_LANAI_IMAGE_H
#define NICOLL_LANAI_IMAGE_H

#define LANAI_IMG_MAGIC     0x4C4E494Du /* "LNIM" */
#define LANAI_IMG_VERSION   1u
#define LANAI_IMG_HDR_SIZE  48u
#define LANAI_IMG_SEG_SIZE  16u
#define LANAI_IMG_MAX_SEGS  16u

/* Header field offsets. */
#define LANAI_IMG_OFF_MAGIC      0u
#define LANAI_IMG_OFF_VERSION    4u
#define LANAI_IMG_OFF_TOTAL      8u  /* whole image in bytes */
#define LANAI_IMG_OFF_CRC32     12u  /* over bytes [16, total) */
#define LANAI_IMG_OFF_ENTRY     16u
#define LANAI_IMG_OFF_NSEGS     20u
#define LANAI_IMG_OFF_BSS_START 24u
#define LANAI_IMG_OFF_BSS_SIZE  28u
#define LANAI_IMG_OFF_STACK_TOP 32u
#define LANAI_IMG_OFF_MEM_SIZE  36u  /* memory the image was linked for */
#define LANAI_IMG_OFF_BUILD_ID  40u  /* 8 bytes */

/* Segment entry field offsets. A segment with file_size < mem_size is
 * zero-filled up to mem_size (this is how bss is carried). */
#define LANAI_IMG_SEG_ADDR      0u
#define LANAI_IMG_SEG_MEM_SIZE  4u
#define LANAI_IMG_SEG_FILE_SIZE 8u
#define LANAI_IMG_SEG_FILE_OFF 12u

#endif
