/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "loadable.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "crc32.h"
#include "nicoll/lanai-image.h"
#include "nicoll/nc_endian.h"

#define EM_LANAI 244
#define PT_LOAD 1

static int fail(char *err, size_t errlen, const char *name, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(err, errlen, "%s: ", name);

    if (n < 0 || (size_t)n >= errlen)
        return -1;
    va_start(ap, fmt);
    vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

/* Segment sanity shared by both formats: fits memory, no overlap. */
static int check_segs(const char *name, const struct loadable *l,
                      uint32_t mem_size, char *err, size_t errlen)
{
    for (uint32_t i = 0; i < l->nsegs; i++) {
        const struct loadable_seg *s = &l->seg[i];
        uint64_t end = (uint64_t)s->addr + s->mem_size;

        if (s->file_size > s->mem_size)
            return fail(err, errlen, name, "segment %u: file size 0x%x exceeds "
                        "memory size 0x%x", i, s->file_size, s->mem_size);
        if (mem_size && end > mem_size)
            return fail(err, errlen, name, "segment %u [0x%08x, 0x%08llx) does not "
                        "fit in 0x%x bytes of memory", i, s->addr,
                        (unsigned long long)end, mem_size);
        for (uint32_t j = 0; j < i; j++) {
            const struct loadable_seg *t = &l->seg[j];
            if (s->mem_size && t->mem_size && s->addr < (uint64_t)t->addr + t->mem_size
                && t->addr < end)
                return fail(err, errlen, name, "segments %u and %u overlap", j, i);
        }
    }
    if (mem_size && l->entry >= mem_size)
        return fail(err, errlen, name, "entry point 0x%08x outside memory", l->entry);
    if (l->entry & 3)
        return fail(err, errlen, name, "entry point 0x%08x not 4-byte aligned",
                    l->entry);
    return 0;
}

static int parse_elf(const char *name, const uint8_t *b, size_t len,
                     uint32_t mem_size, struct loadable *l, char *err, size_t errlen)
{
    uint32_t phoff, phentsize, phnum;

    if (len < 52)
        return fail(err, errlen, name, "truncated ELF header (%zu bytes)", len);
    if (b[4] != 1)
        return fail(err, errlen, name, "EI_CLASS %u is not ELFCLASS32", b[4]);
    if (b[5] != 2)
        return fail(err, errlen, name, "EI_DATA %u is not big-endian (ELFDATA2MSB)", b[5]);
    if (nc_get_be16(b + 18) != EM_LANAI)
        return fail(err, errlen, name, "e_machine %u is not EM_LANAI (244)", nc_get_be16(b + 18));
    if (nc_get_be16(b + 16) != 2)
        return fail(err, errlen, name, "e_type %u is not ET_EXEC (link it with lanai-ld)",
                    nc_get_be16(b + 16));
    l->entry = nc_get_be32(b + 24);
    phoff = nc_get_be32(b + 28);
    phentsize = nc_get_be16(b + 42);
    phnum = nc_get_be16(b + 44);
    if (phnum && phentsize < 32)
        return fail(err, errlen, name, "e_phentsize %u too small", phentsize);
    if ((uint64_t)phoff + (uint64_t)phnum * phentsize > len)
        return fail(err, errlen, name, "program headers (e_phoff 0x%x, %u entries) "
                    "run past the end of the file", phoff, phnum);
    for (uint32_t i = 0; i < phnum; i++) {
        const uint8_t *ph = b + phoff + (size_t)i * phentsize;
        uint32_t off = nc_get_be32(ph + 4), vaddr = nc_get_be32(ph + 8);
        uint32_t filesz = nc_get_be32(ph + 16), memsz = nc_get_be32(ph + 20);
        struct loadable_seg *s;

        if (nc_get_be32(ph) != PT_LOAD)
            continue;
        if (l->nsegs == LOADABLE_MAX_SEGS)
            return fail(err, errlen, name, "more than %u PT_LOAD segments",
                        LOADABLE_MAX_SEGS);
        if ((uint64_t)off + filesz > len)
            return fail(err, errlen, name, "program header %u: p_offset 0x%x + "
                        "p_filesz 0x%x runs past the end of the file", i, off, filesz);
        s = &l->seg[l->nsegs++];
        s->addr = vaddr;
        s->mem_size = memsz;
        s->file_size = filesz;
        s->data = b + off;
    }
    return check_segs(name, l, mem_size, err, errlen);
}

static int parse_image(const char *name, const uint8_t *b, size_t len,
                       uint32_t mem_size, struct loadable *l, char *err, size_t errlen)
{
    uint32_t total, nsegs, crc;

    if (len < LANAI_IMG_HDR_SIZE)
        return fail(err, errlen, name, "truncated image header (%zu bytes)", len);
    if (nc_get_be32(b + LANAI_IMG_OFF_VERSION) != LANAI_IMG_VERSION)
        return fail(err, errlen, name, "image version %u unsupported (expected %u)",
                    nc_get_be32(b + LANAI_IMG_OFF_VERSION), LANAI_IMG_VERSION);
    total = nc_get_be32(b + LANAI_IMG_OFF_TOTAL);
    if (total != len)
        return fail(err, errlen, name, "image total_size %u but the file has %zu bytes",
                    total, len);
    crc = crc32_update(0, b + LANAI_IMG_OFF_CRC32 + 4, len - LANAI_IMG_OFF_CRC32 - 4);
    if (crc != nc_get_be32(b + LANAI_IMG_OFF_CRC32))
        return fail(err, errlen, name, "image crc32 mismatch: header 0x%08x, "
                    "computed 0x%08x", nc_get_be32(b + LANAI_IMG_OFF_CRC32), crc);
    nsegs = nc_get_be32(b + LANAI_IMG_OFF_NSEGS);
    if (nsegs > LANAI_IMG_MAX_SEGS || nsegs > LOADABLE_MAX_SEGS)
        return fail(err, errlen, name, "image nsegs %u exceeds %u", nsegs,
                    LANAI_IMG_MAX_SEGS);
    if (LANAI_IMG_HDR_SIZE + (uint64_t)nsegs * LANAI_IMG_SEG_SIZE > len)
        return fail(err, errlen, name, "segment table runs past the end of the image");
    l->is_image = 1;
    l->entry = nc_get_be32(b + LANAI_IMG_OFF_ENTRY);
    l->stack_top = nc_get_be32(b + LANAI_IMG_OFF_STACK_TOP);
    memcpy(l->build_id, b + LANAI_IMG_OFF_BUILD_ID, 8);
    l->nsegs = nsegs;
    for (uint32_t i = 0; i < nsegs; i++) {
        const uint8_t *e = b + LANAI_IMG_HDR_SIZE + i * LANAI_IMG_SEG_SIZE;
        struct loadable_seg *s = &l->seg[i];
        uint32_t off = nc_get_be32(e + LANAI_IMG_SEG_FILE_OFF);

        s->addr = nc_get_be32(e + LANAI_IMG_SEG_ADDR);
        s->mem_size = nc_get_be32(e + LANAI_IMG_SEG_MEM_SIZE);
        s->file_size = nc_get_be32(e + LANAI_IMG_SEG_FILE_SIZE);
        if ((uint64_t)off + s->file_size > len)
            return fail(err, errlen, name, "segment %u: file_off 0x%x + file_size "
                        "0x%x runs past the end of the image", i, off, s->file_size);
        s->data = b + off;
    }
    return check_segs(name, l, mem_size, err, errlen);
}

int loadable_parse(const char *name, const uint8_t *buf, size_t len,
                   uint32_t mem_size, struct loadable *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (len >= 4 && memcmp(buf, "\177ELF", 4) == 0)
        return parse_elf(name, buf, len, mem_size, out, err, errlen);
    if (len >= 4 && nc_get_be32(buf) == LANAI_IMG_MAGIC)
        return parse_image(name, buf, len, mem_size, out, err, errlen);
    return fail(err, errlen, name, "neither an ELF file nor a nicoll image "
                "(bad magic)");
}

void loadable_copy(const struct loadable *l, uint8_t *mem)
{
    for (uint32_t i = 0; i < l->nsegs; i++) {
        const struct loadable_seg *s = &l->seg[i];
        memcpy(mem + s->addr, s->data, s->file_size);
        memset(mem + s->addr + s->file_size, 0, s->mem_size - s->file_size);
    }
}
