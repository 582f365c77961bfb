/* 13_switch_small: switches below the 100-case jump-table threshold, which
 * LLVM lowers to compare-and-branch trees or to value lookup tables in
 * .rodata (lanai-isa.md §7.4): dense small switches, sparse widely spread
 * case values (binary search), switches on signed char and on 64-bit values,
 * fall-through chains, nested switches, and a switch inside a loop with
 * continue/break. */
#include "tests/isa/progs/prog.h"

#define NI __attribute__((noinline))

NI int32_t days(int32_t month)
{
    switch (month) {
    case 2: return 28;
    case 4: case 6: case 9: case 11: return 30;
    case 1: case 3: case 5: case 7: case 8: case 10: case 12: return 31;
    default: return -1;
    }
}

NI uint32_t sparse(uint32_t v)
{
    switch (v) {
    case 0: return 1;
    case 7: return 2;
    case 100: return 3;
    case 1000: return 4;
    case 65535: return 5;
    case 65536: return 6;
    case 0x7fffffffu: return 7;
    case 0x80000000u: return 8;
    case 0xfffffffeu: return 9;
    case 0xffffffffu: return 10;
    default: return 0;
    }
}

NI int32_t on_schar(signed char c)
{
    switch (c) {
    case -128: return 1;
    case -1: return 2;
    case 0: return 3;
    case 1: return 4;
    case 127: return 5;
    case 'x': return 6;
    default: return 0;
    }
}

NI int32_t on_u64(uint64_t v)
{
    switch (v) {
    case 0: return 10;
    case 0xffffffffULL: return 11;
    case 0x100000000ULL: return 12;
    case 0xffffffff00000000ULL: return 13;
    case ~0ULL: return 14;
    case 5: return 15;
    default: return (int32_t)(v & 7);
    }
}

/* Duff's device style fall-through: copies n words. */
NI void duff(uint32_t *to, const uint32_t *from, int n)
{
    int rounds = (n + 3) / 4;
    if (n <= 0) return;
    switch (n % 4) {
    case 0: do { *to++ = *from++; /* fall through */
    case 3:      *to++ = *from++; /* fall through */
    case 2:      *to++ = *from++; /* fall through */
    case 1:      *to++ = *from++;
            } while (--rounds > 0);
    }
}

NI uint32_t nested(int a, int b)
{
    switch (a) {
    case 0:
        switch (b) { case 0: return 1; case 1: return 2; default: return 3; }
    case 1:
        switch (b) { case 0: return 4; case 2: return 5; default: break; }
        return 6;
    case 2: return 7;
    default: return 8;
    }
}

/* A tokenizer loop: switch with continue and break inside a for. */
NI uint32_t scan(const char *s, int32_t *nums, int32_t *words)
{
    uint32_t h = 0;
    *nums = *words = 0;
    for (;; s++) {
        switch (*s) {
        case '\0': return h;
        case ' ': case ',': continue;
        case '0': case '1': case '2': case '3': case '4':
        case '5': case '6': case '7': case '8': case '9': {
            int32_t v = 0;
            while (*s >= '0' && *s <= '9') v = v * 10 + (*s++ - '0');
            s--;
            (*nums)++;
            h = h * 31u + (uint32_t)v;
            break;
        }
        default:
            (*words)++;
            while (s[1] && s[1] != ' ' && s[1] != ',') { h = h * 7u + (unsigned char)*s; s++; }
            break;
        }
        h ^= 0x55u;
    }
}

int main(void)
{
    int32_t total = 0;
    for (int32_t m = -1; m <= 13; m++) total = total * 3 + days((int32_t)opq32((uint32_t)m));
    outd("days", total);
    static const uint32_t probes[] = { 0, 1, 7, 8, 100, 999, 1000, 65535, 65536, 65537,
                                       0x7fffffffu, 0x80000000u, 0x80000001u, 0xfffffffeu, 0xffffffffu };
    uint32_t h = 0;
    for (int i = 0; i < COUNT_OF(probes); i++) h = h * 11u + sparse(opq32(probes[i]));
    out32("sparse", h);
    int32_t cs = 0;
    for (int c = -128; c < 128; c++) cs = cs * 7 % 100003 + on_schar((signed char)c);
    outd("schar", cs);
    static const uint64_t p64[] = { 0, 5, 6, 0xffffffffULL, 0x100000000ULL, 0x1ffffffffULL,
                                    0xffffffff00000000ULL, ~0ULL, 0x8000000000000005ULL };
    uint32_t s64 = 0;
    for (int i = 0; i < COUNT_OF(p64); i++) s64 = s64 * 17u + (uint32_t)on_u64(opq64(p64[i]));
    out32("u64", s64);
    uint32_t src[11], dst[11];
    uint32_t dh = 0;
    for (int n = 0; n <= 11; n++) {
        for (int i = 0; i < 11; i++) { src[i] = (uint32_t)(i * 1000 + n); dst[i] = 0xeeeeeeeeu; }
        duff(dst, src, n);
        for (int i = 0; i < 11; i++) dh = dh * 31u + dst[i];
    }
    out32("duff", dh);
    uint32_t nh = 0;
    for (int a = -1; a < 4; a++) for (int b = -1; b < 4; b++) nh = nh * 9u + nested(a, b);
    out32("nested", nh);
    int32_t nums, words;
    out32("scan", scan("12 apples, 7 pears,and 1000 plums 0", &nums, &words));
    outd("numbers", nums);
    outd("words", words);
    return finish();
}
