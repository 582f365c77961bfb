/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: lanai-ld on one mutated input (an object or an archive),
 * linked alone and, to reach symbol resolution and relocation, together with
 * a fixed well-formed object when the fuzzer provides one in FUZZ_LD_PEER.
 * Any crash, sanitizer report or leak is a bug; link errors are expected.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "ld.h"

static FILE *devnull;
static uint8_t *peer;
static size_t peer_size;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    const char *p = getenv("FUZZ_LD_PEER");

    (void)argc;
    (void)argv;
    devnull = fopen("/dev/null", "w");
    if (p) {
        FILE *f = fopen(p, "rb");
        if (f && !fseek(f, 0, SEEK_END)) {
            long n = ftell(f);
            rewind(f);
            peer = malloc((size_t)n);
            if (peer && fread(peer, 1, (size_t)n, f) == (size_t)n)
                peer_size = (size_t)n;
        }
        if (f)
            fclose(f);
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct ld_input in[2] = {
        { "fuzz.o", data, size },
        { "peer.o", peer, peer_size },
    };
    struct ld_options opt = {0};
    struct ld_result res;

    opt.inputs = in;
    opt.ninputs = peer_size ? 2 : 1;
    opt.entry = "_start";
    opt.mem_size = 16u << 20;
    opt.want_image = true;
    opt.want_map = true;
    opt.diag = devnull;
    ld_link(&opt, &res);
    ld_free();
    return 0;
}
