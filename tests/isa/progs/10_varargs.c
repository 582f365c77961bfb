/* 10_varargs: <stdarg.h> with int, unsigned, pointer and promoted char/short
 * arguments only. On LANai every argument of a variadic call, fixed ones
 * included, is on the stack and va_list is a plain pointer (lanai-isa.md
 * §9.1). 64-bit varargs are deliberately absent: clang/LANai misaligns them
 * after an odd number of stack words (known defect, §9.1). Covers va_copy,
 * passing a va_list down, many and zero variadic arguments, and a small
 * printf-like formatter built on put_char. */
#include "tests/isa/progs/prog.h"

#define NI __attribute__((noinline))

NI int32_t sum_ints(int n, ...)
{
    va_list ap;
    va_start(ap, n);
    int32_t s = 0;
    for (int i = 0; i < n; i++)
        s += va_arg(ap, int);
    va_end(ap);
    return s;
}

/* Two fixed arguments before the variadic ones. */
NI uint32_t weighted(uint32_t w0, int n, ...)
{
    va_list ap, again;
    va_start(ap, n);
    va_copy(again, ap);
    uint32_t h = w0;
    for (int i = 0; i < n; i++)
        h = h * 31u + va_arg(ap, unsigned);
    /* Walk the copy a second time: must see the same values. */
    for (int i = 0; i < n; i++)
        h ^= va_arg(again, unsigned) << (i & 15);
    va_end(again);
    va_end(ap);
    return h;
}

/* Minimal formatter: %d %u %x %s %c %%. Returns the number of characters. */
static uint32_t fmt_ck;
static int emit(int c) { put_char(c); fmt_ck = (fmt_ck ^ (uint32_t)(unsigned char)c) * 16777619u; return 1; }

static int emit_u(uint32_t v, uint32_t base)
{
    char buf[12];
    int n = 0, out = 0;
    do { buf[n++] = "0123456789abcdef"[v % base]; v /= base; } while (v);
    while (n) out += emit(buf[--n]);
    return out;
}

NI int vfmt(const char *f, va_list ap)
{
    int out = 0;
    for (; *f; f++) {
        if (*f != '%') { out += emit(*f); continue; }
        switch (*++f) {
        case 'd': {
            int v = va_arg(ap, int);
            uint32_t u = (uint32_t)v;
            if (v < 0) { out += emit('-'); u = 0u - u; }
            out += emit_u(u, 10);
            break;
        }
        case 'u': out += emit_u(va_arg(ap, unsigned), 10); break;
        case 'x': out += emit_u(va_arg(ap, unsigned), 16); break;
        case 'c': out += emit(va_arg(ap, int)); break;
        case 's': { const char *s = va_arg(ap, const char *); while (*s) out += emit(*s++); break; }
        case '%': out += emit('%'); break;
        default: out += emit('?'); break;
        }
    }
    return out;
}

NI int fmt(const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    int n = vfmt(f, ap);
    va_end(ap);
    return n;
}

/* Pointers to objects through varargs: the callee writes through them. */
NI void fill(int n, ...)
{
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++) {
        int32_t *p = va_arg(ap, int32_t *);
        *p = i * i - 3;
    }
    va_end(ap);
}

/* Forwarding a va_list through two levels. */
NI int32_t vmax(int n, va_list ap)
{
    int32_t m = INT32_MIN;
    for (int i = 0; i < n; i++) { int32_t v = va_arg(ap, int32_t); if (v > m) m = v; }
    return m;
}
NI int32_t max_of(int n, ...)
{
    va_list ap;
    va_start(ap, n);
    int32_t m = vmax(n, ap);
    va_end(ap);
    return m;
}

int main(void)
{
    outd("sum none", sum_ints(0));
    outd("sum 1", sum_ints(1, 42));
    outd("sum 5", sum_ints(5, 1, -2, 3, -4, 5));
    outd("sum 12", sum_ints(12, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, -100));
    signed char sc = -5;
    short sh = -300;
    unsigned char uc = 250;
    outd("sum promoted", sum_ints(3, sc, sh, uc));
    out32("weighted", weighted(7, 6, 1u, 0xffffffffu, 3u, 0x80000000u, 5u, 6u));
    out32("weighted 0", weighted(9, 0));
    int n = fmt("fmt: %d %u %x %c%c %s|%%|%d %q\n", -12345, 4000000000u, 0xbeefu, 'o', 'k', "str", INT32_MIN);
    outd("fmt chars", n);
    n = fmt("%s=%d, %s=%x\n", "alpha", 1, "beta", 0xffffffffu);
    outd("fmt chars", n);
    out32("fmt hash", fmt_ck);
    int32_t a = 0, b = 0, c = 0, d = 0, e = 0;
    fill(5, &a, &b, &c, &d, &e);
    outd("filled", a * 10000 + b * 1000 + c * 100 + d * 10 + e);
    outd("max", max_of(7, -5, 3, 99, -1000, 98, INT32_MIN, 0));
    return finish();
}
