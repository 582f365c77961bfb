/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The mmap board backend: a real board's sysfs resource file or a fake
 * BAR file. 32-bit registers are accessed with single volatile 32-bit
 * loads and stores, as MMIO requires. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "board.h"
#include "nicoll/lanai9_regs.h"
#include "nicoll/nc_endian.h"

struct mmap_ctx {
    volatile uint8_t *base;
    size_t size;
};

/* A word as it sits in the (big-endian) window, in host order: swapping is
 * symmetric, so the same function converts back. */
static uint32_t from_be(uint32_t raw)
{
    return nc_get_be32((const uint8_t *)&raw);
}

static uint32_t m_read32(struct nc_board *b, uint32_t off)
{
    struct mmap_ctx *c = b->ctx;
    return from_be(*(volatile uint32_t *)(c->base + off));
}

static void m_write32(struct nc_board *b, uint32_t off, uint32_t v)
{
    struct mmap_ctx *c = b->ctx;
    *(volatile uint32_t *)(c->base + off) = from_be(v); /* swapping is symmetric */
}

static void m_read(struct nc_board *b, uint32_t off, void *buf, size_t len)
{
    struct mmap_ctx *c = b->ctx;
    uint8_t *d = buf;
    for (size_t i = 0; i < len; i++)
        d[i] = c->base[off + i];
}

static void m_write(struct nc_board *b, uint32_t off, const void *buf, size_t len)
{
    struct mmap_ctx *c = b->ctx;
    const uint8_t *s = buf;
    for (size_t i = 0; i < len; i++)
        c->base[off + i] = s[i];
}

static void m_delay(struct nc_board *b, unsigned us)
{
    (void)b;
    usleep(us);
}

static void m_close(struct nc_board *b)
{
    struct mmap_ctx *c = b->ctx;
    munmap((void *)c->base, c->size);
    free(c);
}

static const struct nc_board_ops mmap_ops = {
    m_read32, m_write32, m_read, m_write, m_delay, m_close,
};

static void w_close(struct nc_board *b)
{
    free(b->ctx);                   /* the mapping is its owner's */
}

static const struct nc_board_ops wrap_ops = {
    m_read32, m_write32, m_read, m_write, m_delay, w_close,
};

int nc_board_wrap(struct nc_board *b, volatile void *base, const char *name)
{
    struct mmap_ctx *c = malloc(sizeof *c);

    if (!c)
        return -1;
    c->base = base;
    c->size = L9_BAR_SIZE;
    b->ops = &wrap_ops;
    b->ctx = c;
    snprintf(b->name, sizeof b->name, "%s", name);
    return 0;
}

int nc_board_open_mmap(struct nc_board *b, const char *path, char *err, size_t errlen)
{
    struct stat st;
    struct mmap_ctx *c;
    int fd = open(path, O_RDWR | O_SYNC);
    void *p;

    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    if (fstat(fd, &st) || (size_t)st.st_size < L9_BAR_SIZE) {
        snprintf(err, errlen, "%s: %lld bytes, but a LANai 9 board window is %u bytes "
                 "(wrong resource file?)", path, (long long)st.st_size, L9_BAR_SIZE);
        close(fd);
        return -1;
    }
    p = mmap(NULL, L9_BAR_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED) {
        snprintf(err, errlen, "%s: mmap: %s", path, strerror(errno));
        return -1;
    }
    c = malloc(sizeof *c);
    if (!c) {
        munmap(p, L9_BAR_SIZE);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    c->base = p;
    c->size = L9_BAR_SIZE;
    b->ops = &mmap_ops;
    b->ctx = c;
    snprintf(b->name, sizeof b->name, "%s", path);
    return 0;
}

int nc_board_make_fake(const char *path, uint32_t sram_size, uint32_t clockval,
                       uint32_t serial, char *err, size_t errlen)
{
    struct nc_board b;
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    static const uint8_t board_id[6] = { 0x00, 0x60, 0xDD, 0x4E, 0x43, 0x01 };

    if (fd < 0 || ftruncate(fd, L9_BAR_SIZE)) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    close(fd);
    if (nc_board_open_mmap(&b, path, err, errlen))
        return -1;
    nc_board_write32(&b, L9_BAR_EEPROM + L9_EE_CLOCKVAL, clockval);
    nc_board_write32(&b, L9_BAR_EEPROM + L9_EE_SRAM_SIZE, sram_size);
    nc_board_write32(&b, L9_BAR_EEPROM + L9_EE_SERIAL, serial);
    nc_board_write32(&b, L9_BAR_EEPROM + L9_EE_MAX_LANAI_SPEED, 133);
    b.ops->write(&b, L9_BAR_EEPROM + L9_EE_BOARD_ID, board_id, sizeof board_id);
    b.ops->write(&b, L9_BAR_EEPROM + L9_EE_BOARD_LABEL, "nicoll fake LANai 9 board", 26);
    nc_board_close(&b);
    return 0;
}

void nc_board_close(struct nc_board *b)
{
    if (b->ops && b->ops->close)
        b->ops->close(b);
    b->ops = NULL;
}
