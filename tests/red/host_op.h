/*
 * host_op.h - libmpi's reduction (host/mpi/mpi_op.c) for tests/red:
 * inout = inout (op) in, with ops and types numbered as ref/red/nc_red.h's.
 */
#ifndef RED_HOST_OP_H
#define RED_HOST_OP_H
#include <stddef.h>
enum { HOST_SUM, HOST_MIN, HOST_MAX, HOST_BAND, HOST_BOR, HOST_BXOR };
void host_reduce(int op, int type, void *inout, const void *in, size_t count);
#endif
