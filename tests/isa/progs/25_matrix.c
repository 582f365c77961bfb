/* 25_matrix: two-dimensional arrays: fixed-size matrices as globals and
 * locals, passing int (*)[N] and VLA-typed parameters, row-major walks and
 * column walks (strided addressing), transpose in place, integer matrix
 * multiply, a 64-bit accumulating dot product, and Pascal's triangle in a
 * jagged layout. */
#include "tests/isa/progs/prog.h"

#define N 12

static int32_t A[N][N], B[N][N], C[N][N];

static void matmul(int32_t (*r)[N], int32_t (*a)[N], int32_t (*b)[N])
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            int32_t s = 0;
            for (int k = 0; k < N; k++) s += a[i][k] * b[k][j];
            r[i][j] = s;
        }
}

static void transpose(int n, int32_t m[n][n])
{
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) { int32_t t = m[i][j]; m[i][j] = m[j][i]; m[j][i] = t; }
}

static uint32_t hash_mat(int rows, int cols, int32_t m[rows][cols])
{
    uint32_t h = 0;
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) h = h * 31u + (uint32_t)m[i][j];
    return h;
}

static int64_t dot64(const int32_t *a, const int32_t *b, int n, int stride_b)
{
    int64_t s = 0;
    for (int i = 0; i < n; i++) s += (int64_t)a[i] * b[i * stride_b];
    return s;
}

int main(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            A[i][j] = (i * 7 + j * 3) % 11 - 5;
            B[i][j] = (i == j) * 2 + (i + j) % 4 - 1;
        }
    matmul(C, A, B);
    out32("A", hash_mat(N, N, A));
    out32("C=AB", hash_mat(N, N, C));
    outd("C[3][7]", C[3][7]);
    int32_t trace = 0;
    for (int i = 0; i < N; i++) trace += C[i][i];
    outd("trace", trace);
    /* (AB)^T == B^T A^T */
    transpose(N, C);
    transpose(N, A);
    transpose(N, B);
    static int32_t D[N][N];
    matmul(D, B, A);
    int same = 1;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) if (C[i][j] != D[i][j]) same = 0;
    outd("transpose identity", same);

    /* Column sums walk memory with stride N. */
    int32_t col[N];
    for (int j = 0; j < N; j++) {
        col[j] = 0;
        for (int i = 0; i < N; i++) col[j] += C[i][j];
    }
    out32("col sums", hash_mat(1, N, (int32_t (*)[N])col));

    /* 64-bit dot products of big values: row of A with a column of B. */
    static int32_t big[2][N];
    for (int i = 0; i < N; i++) { big[0][i] = 0x7fff0000 - i * 12345; big[1][i] = -0x4000000 + i * 999; }
    out64("dot64", (uint64_t)dot64(big[0], big[1], N, 1));
    out64("dot64 strided", (uint64_t)dot64(&A[0][0], &B[0][0], N, N));

    /* Pascal's triangle mod 1000003 in a flat array with computed row starts. */
    static uint32_t tri[40 * 41 / 2];
    int start = 0;
    for (int r = 0; r < 40; r++) {
        for (int k = 0; k <= r; k++)
            tri[start + k] = (k == 0 || k == r) ? 1u : (tri[start - r + k - 1] + tri[start - r + k]) % 1000003u;
        start += r + 1;
    }
    outd("C(39,19) mod p", (int32_t)tri[start - 40 + 19]);
    uint32_t th = 0;
    for (int i = 0; i < start; i++) th = th * 3u + tri[i];
    out32("triangle", th);

    /* Three-dimensional array. */
    static int16_t cube[4][5][6];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 5; j++)
            for (int k = 0; k < 6; k++) cube[i][j][k] = (int16_t)(i * 100 - j * 10 + k);
    int32_t cs = 0;
    for (int k = 5; k >= 0; k--)
        for (int j = 4; j >= 0; j--) cs = cs * 3 % 100003 + cube[3 - j % 4][j][k];
    outd("cube", cs);
    return finish();
}
