/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading a linked LANai program for loading: an executable ELF (ET_EXEC,
 * ELFCLASS32, big-endian, EM_LANAI) or a nicoll flat image
 * (include/nicoll/lanai-image.h). Both become the same list of segments. Every
 * field is checked against the file size and the target memory; errors name
 * the file and the field. Used by lanai-iss now and by the firmware loader.
 */
#ifndef NICOLL_LOADABLE_H
#define NICOLL_LOADABLE_H

#include <stddef.h>
#include <stdint.h>

#define LOADABLE_MAX_SEGS 16

struct loadable_seg {
    uint32_t addr;      /* load address */
    uint32_t mem_size;  /* bytes in memory (zero-filled past file_size) */
    uint32_t file_size; /* bytes taken from the file */
    const uint8_t *data;
};

struct loadable {
    uint32_t entry;
    uint32_t nsegs;
    struct loadable_seg seg[LOADABLE_MAX_SEGS];
    int is_image;          /* 1 for a flat image, 0 for ELF */
    uint32_t stack_top;    /* image only (0 for ELF) */
    uint8_t build_id[8];   /* image only */
};

/*
 * Parse buf[0..len) (which must stay alive while 'out' is used). name is
 * used in messages. mem_size bounds every segment (0: no bound). Returns 0,
 * or -1 with a message in err.
 */
int loadable_parse(const char *name, const uint8_t *buf, size_t len,
                   uint32_t mem_size, struct loadable *out,
                   char *err, size_t errlen);

/* Copy the segments into mem (mem_size bytes at address 0); zero-fill. */
void loadable_copy(const struct loadable *l, uint8_t *mem);

#endif
