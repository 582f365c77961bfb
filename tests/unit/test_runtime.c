/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the LANai runtime's libcalls, compiled for the host (names
 * renamed by rt_rename.h) and compared with the host's own arithmetic:
 * edge values exhaustively (every pair), then seeded random operands.
 * Division by zero and MIN/-1 are checked against the documented table
 * (docs/runtime.md), since C leaves them undefined.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rt_rename.h"

#include "lanai-rt.h"

static uint64_t seed = 20261121;

static uint64_t rnd(void) /* splitmix64 */
{
    uint64_t z = (seed += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static const uint32_t edge32[] = {
    0, 1, 2, 3, 7, 10, 0x7F, 0x80, 0xFF, 0x100, 0xFFFF, 0x10000, 0x12345678,
    0x7FFFFFFE, 0x7FFFFFFF, 0x80000000u, 0x80000001u, 0xFFFFFFFEu, 0xFFFFFFFFu,
    0xDEADBEEFu, 1000000007u,
};
static const uint64_t edge64[] = {
    0, 1, 2, 3, 10, 0xFFFFFFFFull, 0x100000000ull, 0x100000001ull,
    0x123456789ABCDEFull, 0x7FFFFFFFFFFFFFFFull, 0x8000000000000000ull,
    0x8000000000000001ull, 0xFFFFFFFFFFFFFFFEull, 0xFFFFFFFFFFFFFFFFull,
    0xFFFFFFFF00000000ull, 1000000000000000003ull,
};
#define N(a) (sizeof a / sizeof a[0])

static void check32(uint32_t a, uint32_t b)
{
    int32_t sa = (int32_t)a, sb = (int32_t)b;

    assert_int_equal((uint32_t)__mulsi3(sa, sb), a * b);
    if (b == 0)
        return;
    assert_int_equal(__udivsi3(a, b), a / b);
    assert_int_equal(__umodsi3(a, b), a % b);
    if (sa == INT32_MIN && sb == -1)
        return;
    assert_int_equal(__divsi3(sa, sb), sa / sb);
    assert_int_equal(__modsi3(sa, sb), sa % sb);
}

static void check64(uint64_t a, uint64_t b)
{
    int64_t sa = (int64_t)a, sb = (int64_t)b;

    assert_true((uint64_t)__muldi3(sa, sb) == a * b);
    if (b == 0)
        return;
    assert_true(__udivdi3(a, b) == a / b);
    assert_true(__umoddi3(a, b) == a % b);
    if (sa == INT64_MIN && sb == -1)
        return;
    assert_true(__divdi3(sa, sb) == sa / sb);
    assert_true(__moddi3(sa, sb) == sa % sb);
}

static void test_arith32_edges(void **st)
{
    (void)st;
    for (size_t i = 0; i < N(edge32); i++)
        for (size_t j = 0; j < N(edge32); j++) {
            check32(edge32[i], edge32[j]);
            check32(-edge32[i], edge32[j]);
        }
}

static void test_arith32_random(void **st)
{
    (void)st;
    for (int i = 0; i < 200000; i++) {
        uint32_t a = (uint32_t)rnd(), b = (uint32_t)rnd() >> (rnd() % 32);
        check32(a, b);
    }
}

static void test_arith64_edges(void **st)
{
    (void)st;
    for (size_t i = 0; i < N(edge64); i++)
        for (size_t j = 0; j < N(edge64); j++)
            check64(edge64[i], edge64[j]);
}

static void test_arith64_random(void **st)
{
    (void)st;
    for (int i = 0; i < 100000; i++) {
        uint64_t a = rnd() >> (rnd() % 64), b = rnd() >> (rnd() % 64);
        check64(a, b);
    }
}

static void test_division_edge_cases(void **st)
{
    (void)st;
    assert_int_equal(__udivsi3(1234, 0), 0xFFFFFFFFu);
    assert_int_equal(__umodsi3(1234, 0), 1234);
    assert_int_equal(__divsi3(-1234, 0), -1);
    assert_int_equal(__modsi3(-1234, 0), -1234);
    assert_int_equal(__divsi3(INT32_MIN, -1), INT32_MIN);
    assert_int_equal(__modsi3(INT32_MIN, -1), 0);
    assert_true(__udivdi3(99, 0) == UINT64_MAX);
    assert_true(__umoddi3(99, 0) == 99);
    assert_true(__divdi3(-99, 0) == -1);
    assert_true(__moddi3(-99, 0) == -99);
    assert_true(__divdi3(INT64_MIN, -1) == INT64_MIN);
    assert_true(__moddi3(INT64_MIN, -1) == 0);
}

static void test_shifts64(void **st)
{
    (void)st;
    for (int i = 0; i < 20000; i++) {
        uint64_t a = rnd();
        int32_t n = (int32_t)(rnd() % 64);
        assert_true((uint64_t)__ashrdi3((int64_t)a, n) == (uint64_t)((int64_t)a >> n));
        assert_true((uint64_t)__ashldi3((int64_t)a, n) == a << n);
        assert_true((uint64_t)__lshrdi3((int64_t)a, n) == a >> n);
    }
}

static void test_mem_functions(void **st)
{
    uint8_t a[96], b[96], ref[96];

    (void)st;
    for (int iter = 0; iter < 20000; iter++) {
        size_t n = rnd() % 40, da = rnd() % 40, sa = rnd() % 40;
        int c = (int)(rnd() & 0xFF);

        for (size_t i = 0; i < sizeof a; i++)
            a[i] = b[i] = ref[i] = (uint8_t)rnd();
        switch (iter % 4) {
        case 0: /* memcpy between distinct buffers, any alignment */
            memcpy(a + da, b + sa, n);
            for (size_t i = 0; i < n; i++)
                ref[da + i] = b[sa + i];
            break;
        case 1: /* memmove inside one buffer, overlapping either way */
            memmove(a + da, a + sa, n);
            {
                uint8_t tmp[40];
                for (size_t i = 0; i < n; i++) tmp[i] = ref[sa + i];
                for (size_t i = 0; i < n; i++) ref[da + i] = tmp[i];
            }
            break;
        case 2:
            memset(a + da, c, n);
            for (size_t i = 0; i < n; i++)
                ref[da + i] = (uint8_t)c;
            break;
        default: {
            int r = memcmp(a + da, b + sa, n), want = 0;
            for (size_t i = 0; i < n && !want; i++)
                if (a[da + i] != b[sa + i])
                    want = a[da + i] < b[sa + i] ? -1 : 1;
            assert_int_equal(r, want);
            break;
        }
        }
        assert_memory_equal(a, ref, sizeof a);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arith32_edges),
        cmocka_unit_test(test_arith32_random),
        cmocka_unit_test(test_arith64_edges),
        cmocka_unit_test(test_arith64_random),
        cmocka_unit_test(test_division_edge_cases),
        cmocka_unit_test(test_shifts64),
        cmocka_unit_test(test_mem_functions),
    };
    printf("# seed %llu\n", (unsigned long long)seed);
    return cmocka_run_group_tests_name("runtime", tests, NULL, NULL);
}
