/* 18_ctors: __attribute__((constructor)) functions, which clang registers in
 * .init_array (one R_LANAI_32 each, lanai-isa.md §10.2/§10.4) and crt0 must
 * call before main (§9.5). Checks that every constructor ran exactly once,
 * that .bss was already zero and .data already initialised when they ran, and
 * that main sees what they built. The order among constructors without a
 * priority is not specified by C or by either toolchain, so their effects are
 * made order-independent; priorities (.init_array.NNN sections) and
 * destructors are not used. */
#include "tests/isa/progs/prog.h"

static uint32_t ran_mask;           /* .bss */
static uint32_t run_count;          /* .bss */
static uint32_t data_seen = 0x600dda7au;   /* .data */
static uint32_t bss_ok = 1, data_ok = 1;
static uint32_t squares[64];
static uint32_t sum_from_ctor;
static const char *greeting;

static void note(uint32_t bit)
{
    if (ran_mask & bit) put_str("constructor ran twice\n");
    ran_mask |= bit;
    run_count++;
}

__attribute__((constructor)) static void init_a(void)
{
    note(1);
    /* .data must already hold its initial value. */
    if (data_seen != 0x600dda7au) data_ok = 0;
    for (int i = 0; i < 64; i++) {
        if (squares[i] != 0) bss_ok = 0;     /* .bss zeroed before constructors */
    }
    for (int i = 0; i < 64; i++) squares[i] += (uint32_t)(i * i);
}

__attribute__((constructor)) static void init_b(void)
{
    note(2);
    greeting = "hello from a constructor";
    sum_from_ctor += 1000;                  /* commutative with init_c */
}

__attribute__((constructor)) static void init_c(void)
{
    note(4);
    sum_from_ctor += 234;
}

/* A constructor that calls ordinary functions and uses the stack. */
static uint32_t fib(uint32_t n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static uint32_t fib_result;
__attribute__((constructor)) void init_public(void)
{
    note(8);
    fib_result = fib(15);
}

int main(void)
{
    outd("constructors run", (int32_t)run_count);
    out32("mask", ran_mask);
    outd("bss zero before ctors", (int32_t)bss_ok);
    outd("data set before ctors", (int32_t)data_ok);
    uint32_t s = 0;
    for (int i = 0; i < 64; i++) s += squares[i];
    outd("sum of squares", (int32_t)s);
    outd("sum from ctors", (int32_t)sum_from_ctor);
    outd("fib(15)", (int32_t)fib_result);
    outs("greeting", greeting ? greeting : "(none)");
    return finish();
}
