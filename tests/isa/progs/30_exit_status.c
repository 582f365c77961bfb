/* 30_exit_status: the one program that deliberately returns a non-zero
 * status (3) from main, to check that main's return value reaches the
 * interpreter's exit status exactly as it reaches the host process's. It also
 * returns through a few levels of calls so that the value travels in rv
 * (r8) across several epilogues. Expected: exit status 3 on both sides. */
#include "tests/isa/progs/prog.h"

static __attribute__((noinline)) int inner(int v) { return v % 5; }
static __attribute__((noinline)) int middle(int v) { return inner(v * 7) + 1; }
static __attribute__((noinline)) int outer(int v) { return middle(v + 1) - 1; }

int main(void)
{
    int status = outer((int)opq32(3));      /* (3 + 1) * 7 = 28; 28 % 5 = 3; +1 -1 */
    outd("status", status);
    finish();
    return status;
}
