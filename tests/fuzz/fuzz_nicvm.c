/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: NICVM's compiler, verifier and VM (ref/nicvm).  The
 * first byte picks the input's meaning:
 *   even: module source.  nv_check must not misbehave; every error has a
 *         position inside the text and a message; an accepted module runs
 *         in the VM within its bound.
 *   odd:  raw bytecode (the tables' sizes, then code words).  Whatever
 *         nv_verify accepts runs in the VM within its bound and without an
 *         access outside the VM's arrays, the packet and the module's state
 *         (AddressSanitizer watches; the arrays are sized exactly). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nv_compile.h"
#include "nv_vm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int no_send(void *ctx, uint32_t type, uint32_t rank)
{
    (void)ctx; (void)type;
    return rank != 3u;                  /* refuse one rank, to reach that stop */
}

static void run(const struct nv_prog *p, uint32_t words)
{
    uint32_t *hdr = malloc(NV_HDR_WORDS * 4u), *pay = malloc(words * 4u + 1u),
             *state = malloc(p->nstate * 4u + 1u);
    struct nv_env env;
    struct nv_result res;
    memset(hdr, 0, NV_HDR_WORDS * 4u);
    memset(pay, 0, words * 4u);
    memset(state, 0, p->nstate * 4u);
    memset(&env, 0, sizeof env);
    env.size = 5; env.rank = 1; env.root = 0;
    env.hdr = hdr; env.hdr_writable = 0xE0u;
    env.payload = pay; env.payload_words = words;
    env.state = state;
    env.send = no_send;
    nv_run(p, &env, 65535u, &res);
    if (res.steps > p->cost[0] || res.sends > (unsigned)p->scost[0] || res.stop == NV_STOP_BUDGET ||
        res.stop >= NV_STOP_COUNT)
        abort();
    free(hdr); free(pay); free(state);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct nv_compiler c;
    struct nv_reject r;
    uint32_t k, n;
    if (size < 1) return 0;
    if (data[0] % 2u == 0u) {
        char *src = malloc(size);       /* exactly the text: reads past it are caught */
        uint32_t lines = 1;
        memcpy(src, data + 1, size - 1);
        for (k = 0; k + 1 < size; k++) lines += src[k] == '\n';
        n = nv_check(&c, src, (uint32_t)(size - 1), 1024u, &r);
        for (k = 0; k < n && k < NV_ERR_MAX; k++)
            if (c.err[k].line < 1 || c.err[k].line > lines || c.err[k].col < 1 || c.err[k].msg[0] == '\0')
                abort();
        if (n == 0) run(&c.prog, data[size - 1] % 8u);
        free(src);
        return 0;
    }
    /* raw bytecode: byte 1..3 the tables, then 4-byte words */
    memset(&c.prog, 0, sizeof c.prog);
    if (size < 4) return 0;
    c.prog.nconst = data[1] % 40u;
    c.prog.nlocals = data[2] % 40u;
    c.prog.nstate = data[3] % 70u;
    n = (uint32_t)((size - 4) / 4u);
    c.prog.len = n <= NV_CODE_MAX ? n : NV_CODE_MAX + (n % 2u);
    for (k = 0; k < n && k < NV_CODE_MAX; k++)
        c.prog.code[k] = (uint32_t)data[4 + 4 * k] | (uint32_t)data[5 + 4 * k] << 8 |
                         (uint32_t)data[6 + 4 * k] << 16 | (uint32_t)data[7 + 4 * k] << 24;
    for (k = 0; k < NV_CONST_MAX; k++) c.prog.konst[k] = k * 0x01010101u;
    if (nv_verify(&c.prog, 1024u, &r) == NV_OK) run(&c.prog, data[1] % 5u);
    else if (r.reason >= NV_E_COUNT || c.prog.verified == NV_VERIFIED) abort();
    return 0;
}
