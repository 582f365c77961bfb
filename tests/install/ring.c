/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/install/suite's MPI program, built with the installed lanai-mpicc:
 * every rank passes its number around the ring, then all of them sum
 * the numbers; rank 0 prints one line.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, left, sum = 0, bad;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Sendrecv(&rank, 1, MPI_INT, (rank + 1) % size, 0,
                 &left, 1, MPI_INT, (rank + size - 1) % size, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    bad = left != (rank + size - 1) % size;
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    bad |= sum != size * (size - 1) / 2;
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    if (rank == 0)
        printf("ring of %d ranks: sum %d: %s\n", size, sum, bad ? "FAIL" : "ok");
    MPI_Finalize();
    return bad;
}
