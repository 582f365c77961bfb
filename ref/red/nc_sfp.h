/*
 * nc_sfp.h - IEEE-754 binary32 and binary64 add, min and max in integer
 * arithmetic (the LANai has no FPU): the NIC's "ordered" reduction mode,
 * equal bit for bit to what the host MPI library computes.
 *
 * Values travel as their bit patterns (uint32_t, uint64_t).  Rounding is
 * round-to-nearest-even, subnormals are kept (no flush to zero), signed
 * zeros follow IEEE-754 (-0 + -0 = -0, x + -x = +0).
 *
 * NaNs follow x86-64 SSE (addss/addsd), because that is what the host's
 * libmpi runs: host/mpi/mpi_op.c computes inout[i] = in[i] + inout[i], and
 * gcc -O2 loads inout[i] into the destination register and adds in[i] to it,
 * so inout[i] is SSE's first operand.  The rule for add(x, y), x first:
 *   x NaN          -> x quieted (quiet bit set, sign and payload kept)
 *   else y NaN     -> y quieted
 *   inf + -inf     -> the default NaN, x86's "indefinite": sign set, quiet
 *                     bit set, payload 0 (0xFFC00000, 0xFFF8000000000000)
 * tests/red/suite checks this against host/mpi/mpi_op.c itself.
 *
 * min and max are host/mpi's C comparisons, max(acc, in) = in > acc ? in :
 * acc (min with <): a comparison with a NaN is false and +0 == -0, so a NaN
 * or an equal zero in `in` leaves acc, bits untouched (a signalling NaN is
 * not quieted: no arithmetic happens).
 */
#ifndef NC_SFP_H
#define NC_SFP_H

#include <stdint.h>

#define NC_F32_SIGN  0x80000000u
#define NC_F32_EXP   0x7F800000u
#define NC_F32_FRAC  0x007FFFFFu
#define NC_F32_QUIET 0x00400000u
#define NC_F32_DEFNAN 0xFFC00000u
#define NC_F64_SIGN  0x8000000000000000ull
#define NC_F64_EXP   0x7FF0000000000000ull
#define NC_F64_FRAC  0x000FFFFFFFFFFFFFull
#define NC_F64_QUIET 0x0008000000000000ull
#define NC_F64_DEFNAN 0xFFF8000000000000ull

/*@ predicate nc_f32_nan(integer x) = (x % 0x80000000) > 0x7F800000;
    predicate nc_f64_nan(integer x) =
      (x % 0x8000000000000000) > 0x7FF0000000000000;
*/

/* x + y, x being SSE's first operand. */
/*@ assigns \nothing;
    ensures nc_f32_nan(x) ==> \result == (x | NC_F32_QUIET);
    ensures !nc_f32_nan(x) && nc_f32_nan(y) ==> \result == (y | NC_F32_QUIET);
*/
uint32_t nc_f32_add(uint32_t x, uint32_t y);

/*@ assigns \nothing;
    ensures nc_f64_nan(x) ==> \result == (x | NC_F64_QUIET);
    ensures !nc_f64_nan(x) && nc_f64_nan(y) ==> \result == (y | NC_F64_QUIET);
*/
uint64_t nc_f64_add(uint64_t x, uint64_t y);

/* The IEEE-754 comparison a < b (false if either is a NaN, -0 == +0). */
/*@ assigns \nothing;
    ensures nc_f32_nan(a) || nc_f32_nan(b) ==> \result == 0;
*/
int nc_f32_lt(uint32_t a, uint32_t b);

/*@ assigns \nothing;
    ensures nc_f64_nan(a) || nc_f64_nan(b) ==> \result == 0;
*/
int nc_f64_lt(uint64_t a, uint64_t b);

/* max and min as host/mpi computes them: in > acc ? in : acc. */
/*@ assigns \nothing;
    ensures \result == acc || \result == in;
    ensures nc_f32_nan(in) ==> \result == acc;
*/
uint32_t nc_f32_max(uint32_t acc, uint32_t in);
/*@ assigns \nothing;
    ensures \result == acc || \result == in;
    ensures nc_f32_nan(in) ==> \result == acc;
*/
uint32_t nc_f32_min(uint32_t acc, uint32_t in);
/*@ assigns \nothing;
    ensures \result == acc || \result == in;
    ensures nc_f64_nan(in) ==> \result == acc;
*/
uint64_t nc_f64_max(uint64_t acc, uint64_t in);
/*@ assigns \nothing;
    ensures \result == acc || \result == in;
    ensures nc_f64_nan(in) ==> \result == acc;
*/
uint64_t nc_f64_min(uint64_t acc, uint64_t in);

#endif
