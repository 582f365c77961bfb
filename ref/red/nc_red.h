/*
 * nc_red.h - the one element-combining interface of the NIC's reduction:
 * inout[i] = inout[i] (op) in[i] for count elements, in "ordered" mode
 * (each combine is one IEEE-754 operation, equal to the host's: nc_sfp.h).
 * The exact mode's accumulators are nc_xacc.h.
 *
 * Buffers are arrays of 32-bit words in the machine's order; a 64-bit
 * element is two words, its high word first on a big-endian machine (the
 * LANai) and second on a little-endian one, so that a uint64_t array seen as
 * words is the element array on either.  Putting host data in that order
 * (the host is little-endian, the LANai big-endian) is the firmware's job.
 *
 * Types and ops (MPI 3.1 section 5.9.2): sum, min, max on every type;
 * bitwise and, or, xor on the integer types only.  Sums wrap modulo 2^32
 * or 2^64 (signed and unsigned alike, as two's complement); min and max
 * compare signed or unsigned by type, IEEE-754 for floats.
 */
#ifndef NC_RED_H
#define NC_RED_H

#include <stdint.h>

enum nc_red_op { NC_RED_SUM, NC_RED_MIN, NC_RED_MAX, NC_RED_BAND, NC_RED_BOR, NC_RED_BXOR,
                 NC_RED_NOPS };
enum nc_red_type { NC_RED_I32, NC_RED_U32, NC_RED_I64, NC_RED_U64, NC_RED_F32, NC_RED_F64,
                   NC_RED_NTYPES };

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define NC_RED_HI 0u
#else
#define NC_RED_HI 1u
#endif
#define NC_RED_LO (1u - NC_RED_HI)

/*@ predicate nc_red_valid(integer op, integer type) =
      0 <= op < NC_RED_NOPS && 0 <= type < NC_RED_NTYPES &&
      !(op >= NC_RED_BAND && type >= NC_RED_F32);
    logic integer nc_red_words(integer type, integer count) =
      (type == NC_RED_I64 || type == NC_RED_U64 || type == NC_RED_F64) ? 2 * count : count;
*/

/* Words per element of type (1 or 2; 0 for an unknown type). */
/*@ assigns \nothing;
    ensures 0 <= type < NC_RED_NTYPES ==> \result == nc_red_words(type, 1);
    ensures !(0 <= type < NC_RED_NTYPES) ==> \result == 0;
*/
uint32_t nc_red_elem_words(uint32_t type);

/* Whether op applies to type. */
/*@ assigns \nothing;
    ensures \result == 1 <==> nc_red_valid(op, type);
    ensures \result == 0 || \result == 1;
*/
int nc_red_valid(uint32_t op, uint32_t type);

/* inout = inout (op) in, element by element: 0, or -1 (nothing written) if
 * op does not apply to type. */
/*@ requires count <= 0x7FFFFFFF;
    requires 0 <= type < NC_RED_NTYPES ==>
      \valid(inout + (0 .. nc_red_words(type, count) - 1)) &&
      \valid_read(in + (0 .. nc_red_words(type, count) - 1)) &&
      \separated(inout + (0 .. nc_red_words(type, count) - 1),
                 in + (0 .. nc_red_words(type, count) - 1));
    assigns inout[0 .. nc_red_words(type, count) - 1];
    ensures \result == 0 <==> nc_red_valid(op, type);
    ensures \result == 0 || \result == -1;
*/
int nc_red_combine(uint32_t op, uint32_t type, uint32_t *inout, const uint32_t *in, uint32_t count);

#endif
