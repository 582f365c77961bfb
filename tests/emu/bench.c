/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A compute-heavy program for make bench-emu, in the spirit of a small
 * CoreMark: a linked-list walk, insertion and merge sorting, a CRC-32 and
 * an FNV-1a hash over a buffer, a 64-bit xorshift generator with 64-bit
 * multiply-free mixing, a state machine over text, and a small matrix
 * product. It prints a checksum (so the work cannot be optimised away and
 * QEMU and lanai-iss can be compared) and runs ROUNDS rounds (argv[1]).
 */
#include <lanai-testmachine.h>
#include <stdint.h>

static void put_hex(uint32_t v)
{
    for (int i = 28; i >= 0; i -= 4)
        lanai_tm_putc("0123456789abcdef"[(v >> i) & 15]);
}

static uint64_t rng = 0x243F6A8885A308D3ull;

static uint64_t next64(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

#define N 256
static uint32_t a[N], tmp[N];
static uint8_t buf[1024];
static int16_t ma[8][8], mb[8][8];
static int32_t mc[8][8];
struct node { struct node *next; uint32_t v; };
static struct node nodes[128];

static uint32_t crc32(const uint8_t *p, unsigned n)
{
    uint32_t c = 0xFFFFFFFFu;
    while (n--) {
        c ^= *p++;
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0xEDB88320u & -(c & 1));
    }
    return ~c;
}

static uint32_t fnv(const uint8_t *p, unsigned n)
{
    uint32_t h = 2166136261u;
    while (n--)
        h = (h ^ *p++) * 16777619u;
    return h;
}

static void msort(uint32_t *x, unsigned n)
{
    if (n < 8) {
        for (unsigned i = 1; i < n; i++) {
            uint32_t v = x[i];
            unsigned j = i;
            while (j > 0 && x[j - 1] > v) {
                x[j] = x[j - 1];
                j--;
            }
            x[j] = v;
        }
        return;
    }
    unsigned h = n / 2, i = 0, j = h, k = 0;
    msort(x, h);
    msort(x + h, n - h);
    while (i < h && j < n)
        tmp[k++] = x[i] <= x[j] ? x[i++] : x[j++];
    while (i < h)
        tmp[k++] = x[i++];
    while (j < n)
        tmp[k++] = x[j++];
    for (i = 0; i < n; i++)
        x[i] = tmp[i];
}

static uint32_t state_machine(const uint8_t *p, unsigned n)
{
    unsigned st = 0, counts[4] = { 0, 0, 0, 0 };
    for (unsigned i = 0; i < n; i++) {
        uint8_t c = p[i] & 0x7F;
        switch (st) {
        case 0: st = (c >= '0' && c <= '9') ? 1 : (c == '-' ? 2 : 0); break;
        case 1: st = (c >= '0' && c <= '9') ? 1 : (c == '.' ? 3 : 0); break;
        case 2: st = (c >= '0' && c <= '9') ? 1 : 0; break;
        default: st = (c >= '0' && c <= '9') ? 3 : 0; break;
        }
        counts[st]++;
    }
    return counts[0] ^ counts[1] << 8 ^ counts[2] << 16 ^ counts[3] << 24;
}

int main(int argc, char **argv)
{
    unsigned rounds = 20;
    uint32_t sum = 0;

    if (argc > 1) {
        rounds = 0;
        for (const char *s = argv[1]; *s >= '0' && *s <= '9'; s++)
            rounds = rounds * 10 + (unsigned)(*s - '0');
    }
    for (unsigned r = 0; r < rounds; r++) {
        uint64_t acc = 0;
        for (unsigned i = 0; i < N; i++)
            a[i] = (uint32_t)next64();
        msort(a, N);
        for (unsigned i = 1; i < N; i++)
            if (a[i - 1] > a[i])
                sum += 0x1000;
        for (unsigned i = 0; i < sizeof buf; i++)
            buf[i] = (uint8_t)(next64() >> 24);
        sum += crc32(buf, sizeof buf) ^ fnv(buf, sizeof buf);
        sum += state_machine(buf, sizeof buf);
        for (unsigned i = 0; i < 128; i++) {
            nodes[i].v = (uint32_t)next64();
            nodes[i].next = &nodes[(i * 37 + 11) % 128];
        }
        struct node *p = &nodes[0];
        for (unsigned i = 0; i < 1024; i++) {
            acc += (uint64_t)p->v << (i & 31);
            acc ^= acc >> 29;
            p = p->next;
        }
        sum += (uint32_t)acc ^ (uint32_t)(acc >> 32);
        for (int i = 0; i < 8; i++)
            for (int j = 0; j < 8; j++) {
                ma[i][j] = (int16_t)next64();
                mb[i][j] = (int16_t)(next64() >> 17);
            }
        for (int i = 0; i < 8; i++)
            for (int j = 0; j < 8; j++) {
                int32_t s = 0;
                for (int k = 0; k < 8; k++)
                    s += (int32_t)((ma[i][k] & 0xFF) * (mb[k][j] & 0x7F));
                mc[i][j] = s;
                sum += (uint32_t)s;
            }
    }
    put_hex(sum);
    lanai_tm_putc('\n');
    return 0;
}
