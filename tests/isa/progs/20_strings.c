/* 20_strings: string literals (.rodata.str1.4, lanai-isa.md §10.2), tables
 * of string pointers in const data, char arrays initialised from literals,
 * escape sequences including high bytes, and hand-written string routines
 * (strlen, strcmp, strcpy, reverse, integer to text and back, a tokenizer)
 * since there is no libc on LANai. */
#include "tests/isa/progs/prog.h"

#define NI __attribute__((noinline))

static const char *const names[] = {
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
};
static const char digits_text[] = "3141592653589793238462643383279";
static char buffer[64] = "initial";      /* writable, literal-initialised */
static const char escapes[] = "tab\there\nquote\"back\\slash\x7f\x80\xff";

NI int32_t my_strlen(const char *s) { const char *p = s; while (*p) p++; return (int32_t)(p - s); }
NI int my_strcmp(const char *a, const char *b)
{
    while (*a && *a == *b) { a++; b++; }
    return (unsigned char)*a - (unsigned char)*b;
}
NI char *my_strcpy(char *d, const char *s) { char *r = d; while ((*d++ = *s++)) {} return r; }
NI void reverse(char *s) { int32_t n = my_strlen(s); for (int32_t i = 0; i < n / 2; i++) { char t = s[i]; s[i] = s[n - 1 - i]; s[n - 1 - i] = t; } }
NI void itoa_base(int32_t v, char *out, uint32_t base)
{
    uint32_t u = v < 0 ? 0u - (uint32_t)v : (uint32_t)v;
    char *p = out;
    do { *p++ = "0123456789abcdefghijklmnopqrstuvwxyz"[u % base]; u /= base; } while (u);
    if (v < 0) *p++ = '-';
    *p = 0;
    reverse(out);
}
NI int32_t atoi_simple(const char *s)
{
    int neg = 0;
    uint32_t v = 0;
    while (*s == ' ') s++;
    if (*s == '-' || *s == '+') neg = *s++ == '-';
    while (*s >= '0' && *s <= '9') v = v * 10u + (uint32_t)(*s++ - '0');
    return (int32_t)(neg ? 0u - v : v);
}
static int sign(int v) { return (v > 0) - (v < 0); }

int main(void)
{
    /* Spell out a number using the name table. */
    uint32_t h = 0;
    for (int i = 0; i < 12; i++) {
        const char *w = names[digits_text[i] - '0'];
        put_str(w);
        put_char(i == 11 ? '\n' : '-');
        ck_str(w);
        h += (uint32_t)my_strlen(w);
    }
    outd("letters", (int32_t)h);
    outd("strlen pi", my_strlen(digits_text));
    outd("sizeof escapes", (int32_t)sizeof escapes);
    uint32_t eh = 0;
    for (int i = 0; escapes[i]; i++) eh = eh * 31u + (unsigned char)escapes[i];
    out32("escapes", eh);
    outd("last escape signed", escapes[sizeof escapes - 2]);     /* '\xff' as plain (signed) char */

    outs("buffer", buffer);
    my_strcpy(buffer + 7, " and appended");
    outs("buffer", buffer);
    reverse(buffer);
    outs("reversed", buffer);
    int32_t cmp = 0;
    static const char *const pairs[][2] = {
        { "abc", "abd" }, { "abc", "abc" }, { "abcd", "abc" }, { "", "a" }, { "\x80", "\x7f" }, { "Z", "a" },
    };
    for (int i = 0; i < COUNT_OF(pairs); i++) cmp = cmp * 3 + sign(my_strcmp(pairs[i][0], pairs[i][1])) + 1;
    outd("strcmp signs", cmp);

    char num[40];
    static const int32_t vals[] = { 0, 7, -7, 255, 65535, INT32_MAX, INT32_MIN, -1000000 };
    static const uint32_t bases[] = { 2, 8, 10, 16, 36 };
    for (int i = 0; i < COUNT_OF(vals); i++) {
        for (int b = 0; b < COUNT_OF(bases); b++) {
            itoa_base(vals[i], num, bases[b]);
            ck_str(num);
            if (bases[b] == 10 && atoi_simple(num) != vals[i]) put_str("round trip failed\n");
        }
        itoa_base(vals[i], num, 16);
        outs("hex", num);
    }
    outd("atoi", atoi_simple("   -2147483648"));
    outd("atoi", atoi_simple("+00123xyz"));

    /* Tokenize in place: split on spaces and commas, count and hash words. */
    char text[] = "the quick, brown fox,, jumps over the  lazy dog";
    int words = 0;
    char *p = text;
    while (*p) {
        while (*p == ' ' || *p == ',') p++;
        if (!*p) break;
        char *start = p;
        while (*p && *p != ' ' && *p != ',') p++;
        if (*p) *p++ = 0;
        words++;
        ck_str(start);
        if (words == 3 || words == 8) outs("word", start);
    }
    outd("words", words);
    /* Literal merging must not break distinct contents. */
    const char *a = "shared", *b = "shared", *c = "shared!";
    outd("same text", my_strcmp(a, b) == 0 && my_strcmp(a, c) != 0);
    return finish();
}
