/* 22_sort: insertion sort, recursive quicksort, heapsort and bottom-up merge
 * sort over the same pseudo-random data (signed, unsigned, 16-bit and 64-bit
 * keys), each result checked for order and against the others, plus a
 * stable sort of records by key. Array indexing, nested loops, swaps, and
 * recursion with pointer arguments. */
#include "tests/isa/progs/prog.h"

#define N 200

static uint32_t rng = 0x2545f491u;
static uint32_t next(void) { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }

static void insertion(int32_t *a, int n)
{
    for (int i = 1; i < n; i++) {
        int32_t v = a[i];
        int j = i - 1;
        while (j >= 0 && a[j] > v) { a[j + 1] = a[j]; j--; }
        a[j + 1] = v;
    }
}

static void quick(int32_t *a, int lo, int hi)
{
    while (lo < hi) {
        int32_t pivot = a[lo + (hi - lo) / 2];
        int i = lo, j = hi;
        while (i <= j) {
            while (a[i] < pivot) i++;
            while (a[j] > pivot) j--;
            if (i <= j) { int32_t t = a[i]; a[i] = a[j]; a[j] = t; i++; j--; }
        }
        /* Recurse into the smaller part, loop on the larger one. */
        if (j - lo < hi - i) { quick(a, lo, j); lo = i; }
        else { quick(a, i, hi); hi = j; }
    }
}

static void sift(uint32_t *a, int start, int end)
{
    int root = start;
    while (2 * root + 1 <= end) {
        int child = 2 * root + 1, sw = root;
        if (a[sw] < a[child]) sw = child;
        if (child + 1 <= end && a[sw] < a[child + 1]) sw = child + 1;
        if (sw == root) return;
        uint32_t t = a[root]; a[root] = a[sw]; a[sw] = t;
        root = sw;
    }
}
static void heapsort_u(uint32_t *a, int n)
{
    for (int s = (n - 2) / 2; s >= 0; s--) sift(a, s, n - 1);
    for (int end = n - 1; end > 0; end--) {
        uint32_t t = a[end]; a[end] = a[0]; a[0] = t;
        sift(a, 0, end - 1);
    }
}

static void merge_sort64(int64_t *a, int64_t *tmp, int n)
{
    for (int width = 1; width < n; width *= 2) {
        for (int lo = 0; lo < n; lo += 2 * width) {
            int mid = lo + width < n ? lo + width : n;
            int hi = lo + 2 * width < n ? lo + 2 * width : n;
            int i = lo, j = mid, k = lo;
            while (i < mid && j < hi) tmp[k++] = a[i] <= a[j] ? a[i++] : a[j++];
            while (i < mid) tmp[k++] = a[i++];
            while (j < hi) tmp[k++] = a[j++];
        }
        memcpy(a, tmp, (size_t)n * sizeof *a);
    }
}

struct rec { int16_t key; uint16_t seq; };
static void stable_insertion(struct rec *r, int n)
{
    for (int i = 1; i < n; i++) {
        struct rec v = r[i];
        int j = i - 1;
        while (j >= 0 && r[j].key > v.key) { r[j + 1] = r[j]; j--; }
        r[j + 1] = v;
    }
}

static int32_t a1[N], a2[N];
static uint32_t u[N];
static int64_t w[N], wtmp[N];
static struct rec recs[N];

int main(void)
{
    for (int i = 0; i < N; i++) {
        a1[i] = a2[i] = (int32_t)next();
        u[i] = next();
        w[i] = (int64_t)((uint64_t)next() << 32 | next());
        recs[i].key = (int16_t)(next() % 41 - 20);
        recs[i].seq = (uint16_t)i;
    }
    insertion(a1, N);
    quick(a2, 0, N - 1);
    heapsort_u(u, N);
    merge_sort64(w, wtmp, N);
    stable_insertion(recs, N);
    int ok = 1;
    for (int i = 0; i < N; i++) {
        if (a1[i] != a2[i]) ok = 0;
        if (i && (a1[i - 1] > a1[i] || u[i - 1] > u[i] || w[i - 1] > w[i])) ok = 0;
        if (i && recs[i - 1].key == recs[i].key && recs[i - 1].seq > recs[i].seq) ok = 0;
        if (i && recs[i - 1].key > recs[i].key) ok = 0;
    }
    outd("sorted and consistent", ok);
    outd("min s32", a1[0]);
    outd("max s32", a1[N - 1]);
    outd("median s32", a1[N / 2]);
    out32("min u32", u[0]);
    out32("max u32", u[N - 1]);
    out64("min s64", (uint64_t)w[0]);
    out64("max s64", (uint64_t)w[N - 1]);
    uint32_t h = 0;
    for (int i = 0; i < N; i++) {
        h = h * 31u + (uint32_t)a2[i];
        h = h * 31u + u[i];
        h = h * 31u + (uint32_t)(w[i] >> 17);
        h = h * 31u + (uint32_t)recs[i].seq;
    }
    out32("all", h);
    return finish();
}
