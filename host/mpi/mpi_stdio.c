/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A rank's stdout, stderr and exit() inside the emulated cluster.
 *
 * Every rank runs in the emulator's one process, so the C library's
 * stdout, and exit(), are shared by all ranks: exit() would end the whole
 * cluster, and printf would not say which rank wrote nor when. libmpi is
 * linked into the program's shared object, and these definitions are
 * hidden: the program's own calls bind to them (a call inside the C
 * library does not). Output becomes console lines of the host
 * (nc_host_printf: ordered by virtual time, prefixed with the node);
 * stderr lines carry a leading "\x02" byte that lanai-mpirun turns back
 * into stderr. exit() ends this rank only (nc_host_exit).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dlfcn.h>

#include "mpi_impl.h"
#include "nicoll/hostif.h"

#define HIDDEN __attribute__((visibility("hidden")))
#define STDERR_MARK '\x02'

struct linebuf { char buf[4096]; size_t len; };
static struct linebuf out_line, err_line;

static struct linebuf *line_of(FILE *f)
{
    return f == stdout ? &out_line : f == stderr ? &err_line : NULL;
}

static void flush_line(struct linebuf *l)
{
    if (!l->len)
        return;
    mpi_compute_charge();       /* printing may let other ranks run: charge first */
    nc_host_printf("%s%.*s\n", l == &err_line ? "\x02" : "", (int)l->len, l->buf);
    l->len = 0;
    mpi_compute_mark();
}

static void put_bytes(struct linebuf *l, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\n' || l->len == sizeof l->buf)
            flush_line(l);
        if (s[i] != '\n')
            l->buf[l->len++] = s[i];
    }
}

void mpi_stdio_flush(void)
{
    flush_line(&out_line);
    flush_line(&err_line);
}

HIDDEN int vfprintf(FILE *f, const char *fmt, va_list ap)
{
    struct linebuf *l = line_of(f);
    char small[1024], *s = small;
    va_list aq;
    int n;

    if (!l) {
        int (*real)(FILE *, const char *, va_list) =
            (int (*)(FILE *, const char *, va_list))dlsym(RTLD_NEXT, "vfprintf");
        return real(f, fmt, ap);
    }
    va_copy(aq, ap);
    n = vsnprintf(small, sizeof small, fmt, ap);
    if (n >= (int)sizeof small) {
        s = malloc((size_t)n + 1);
        vsnprintf(s, (size_t)n + 1, fmt, aq);
    }
    va_end(aq);
    if (n > 0)
        put_bytes(l, s, (size_t)n);
    if (s != small)
        free(s);
    return n;
}

HIDDEN int fprintf(FILE *f, const char *fmt, ...)
{
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vfprintf(f, fmt, ap);
    va_end(ap);
    return n;
}

HIDDEN int vprintf(const char *fmt, va_list ap)
{
    return vfprintf(stdout, fmt, ap);
}

HIDDEN int printf(const char *fmt, ...)
{
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vfprintf(stdout, fmt, ap);
    va_end(ap);
    return n;
}

HIDDEN int puts(const char *s)
{
    put_bytes(&out_line, s, strlen(s));
    put_bytes(&out_line, "\n", 1);
    return 1;
}

HIDDEN int fputs(const char *s, FILE *f)
{
    struct linebuf *l = line_of(f);

    if (!l) {
        int (*real)(const char *, FILE *) =
            (int (*)(const char *, FILE *))dlsym(RTLD_NEXT, "fputs");
        return real(s, f);
    }
    put_bytes(l, s, strlen(s));
    return 1;
}

HIDDEN int fputc(int c, FILE *f)
{
    struct linebuf *l = line_of(f);
    char ch = (char)c;

    if (!l) {
        int (*real)(int, FILE *) = (int (*)(int, FILE *))dlsym(RTLD_NEXT, "fputc");
        return real(c, f);
    }
    put_bytes(l, &ch, 1);
    return (unsigned char)c;
}

HIDDEN int putc(int c, FILE *f)
{
    return fputc(c, f);
}

HIDDEN int putchar(int c)
{
    return fputc(c, stdout);
}

HIDDEN size_t fwrite(const void *p, size_t size, size_t n, FILE *f)
{
    struct linebuf *l = line_of(f);

    if (!l) {
        size_t (*real)(const void *, size_t, size_t, FILE *) =
            (size_t (*)(const void *, size_t, size_t, FILE *))dlsym(RTLD_NEXT, "fwrite");
        return real(p, size, n, f);
    }
    put_bytes(l, p, size * n);
    return n;
}

HIDDEN int fflush(FILE *f)
{
    int (*real)(FILE *) = (int (*)(FILE *))dlsym(RTLD_NEXT, "fflush");

    /* a partial line stays until its newline: a console line is a line */
    if (f && line_of(f))
        return 0;
    return real(f);
}

/* exit() of a rank: its output so far, then this rank ends as if main
 * had returned; the others run on. */
HIDDEN void exit(int status)
{
    mpi_stdio_flush();
    nc_host_exit(status);
}

/* The C library's exit: it ends the whole cluster, and the machine names
 * the node that called it (MPI_Abort, fatal errors). */
void mpi_real_exit(int status)
{
    void (*real)(int) = (void (*)(int))dlsym(RTLD_NEXT, "exit");

    mpi_stdio_flush();
    real(status);
    abort();
}
