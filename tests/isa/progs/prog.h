/*
 * prog.h - the only header the ISA conformance programs include.
 *
 * Every program in tests/isa/progs/ is built twice: for LANai (freestanding,
 * no libc, run on lanai-iss) and natively for the x86-64 host (linked with
 * tests/isa/native_shim.c).  Its console output and exit status must match.
 *
 * The environment provides exactly:
 *   put_char  - write one byte to the console (MMIO on LANai, putchar natively)
 *   memcpy, memset, memmove, memcmp, abort
 * Everything else here is built on put_char, so that the two builds print
 * byte-identical text.  Only freestanding headers are used.
 *
 * Rules the programs follow (see README.md): no `long`, no size_t or pointer
 * values in output (they are 32-bit on LANai, 64-bit on x86-64); no undefined
 * behaviour; nothing printed depends on byte order; no float (LANai would need
 * soft-float libcalls that the runtime does not promise); no 64-bit varargs.
 */
#ifndef NICOLL_ISA_PROG_H
#define NICOLL_ISA_PROG_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdarg.h>
#include <limits.h>

void put_char(int c);
void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
void *memmove(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);
void abort(void) __attribute__((noreturn));

/* Keep the helpers out of the way of the code under test: they are called a
 * lot, and at -O0 we do not want them to dominate the instruction count more
 * than necessary, but they must not be inlined into interesting places in a
 * way that changes what a test exercises either.  Plain static inline is the
 * compromise; unused ones cost nothing. */

static inline void put_str(const char *s)
{
    while (*s)
        put_char((unsigned char)*s++);
}

static inline void put_hexn(uint32_t v, int digits)
{
    /* digits <= 8; shift stays below 32. */
    for (int i = digits - 1; i >= 0; i--)
        put_char("0123456789abcdef"[(v >> (4 * i)) & 15u]);
}

static inline void put_hex32(uint32_t v) { put_hexn(v, 8); }

static inline void put_hex64(uint64_t v)
{
    put_hex32((uint32_t)(v >> 32));
    put_hex32((uint32_t)v);
}

static inline void put_udec32(uint32_t v)
{
    char buf[12];
    int n = 0;
    do {
        buf[n++] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v);
    while (n)
        put_char(buf[--n]);
}

static inline void put_dec(int32_t v)
{
    /* Negate in unsigned arithmetic so INT32_MIN is fine. */
    uint32_t u = (uint32_t)v;
    if (v < 0) {
        put_char('-');
        u = 0u - u;
    }
    put_udec32(u);
}

static inline void put_udec64(uint64_t v)
{
    char buf[24];
    int n = 0;
    do {
        buf[n++] = (char)('0' + (int)(v % 10u));
        v /= 10u;
    } while (v);
    while (n)
        put_char(buf[--n]);
}

static inline void put_dec64(int64_t v)
{
    uint64_t u = (uint64_t)v;
    if (v < 0) {
        put_char('-');
        u = 0u - u;
    }
    put_udec64(u);
}

static inline void put_nl(void) { put_char('\n'); }

/* ---- checksum: FNV-1a over the value's bytes, most significant first, so it
 * is computed from values, never from memory layout. ---- */

static uint32_t prog_ck = 2166136261u;

static inline void ck_byte(uint32_t b)
{
    prog_ck = (prog_ck ^ (b & 0xffu)) * 16777619u;
}

static inline void ck32(uint32_t v)
{
    ck_byte(v >> 24);
    ck_byte(v >> 16);
    ck_byte(v >> 8);
    ck_byte(v);
}

static inline void ck64(uint64_t v)
{
    ck32((uint32_t)(v >> 32));
    ck32((uint32_t)v);
}

static inline void ck_str(const char *s)
{
    while (*s)
        ck_byte((unsigned char)*s++);
    ck_byte(0);
}

/* "label value\n" in hex, and fold the value into the checksum. */
static inline void out32(const char *label, uint32_t v)
{
    put_str(label);
    put_char(' ');
    put_hex32(v);
    put_nl();
    ck32(v);
}

static inline void out64(const char *label, uint64_t v)
{
    put_str(label);
    put_char(' ');
    put_hex64(v);
    put_nl();
    ck64(v);
}

/* Decimal variant: exercises the division libcalls in the printer too. */
static inline void outd(const char *label, int32_t v)
{
    put_str(label);
    put_char(' ');
    put_dec(v);
    put_nl();
    ck32((uint32_t)v);
}

static inline void outs(const char *label, const char *s)
{
    put_str(label);
    put_char(' ');
    put_str(s);
    put_nl();
    ck_str(s);
}

/* Last line of every program. */
static inline int finish(void)
{
    put_str("checksum ");
    put_hex32(prog_ck);
    put_nl();
    return 0;
}

/* Opaque identity: stops the compiler from constant-folding test inputs, so
 * the operations are really executed on the target (with the libcalls that
 * implies) instead of being computed at compile time by the host compiler. */
static inline uint32_t opq32(uint32_t v)
{
    __asm__ volatile("" : "+r"(v));
    return v;
}

static inline uint64_t opq64(uint64_t v)
{
    volatile uint64_t t = v;
    return t;
}

#define COUNT_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))

#endif
