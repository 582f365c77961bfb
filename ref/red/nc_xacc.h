/*
 * nc_xacc.h - the exact ("reproducible") reduction mode: a fixed-point
 * superaccumulator that holds any sum of binary64 (or binary32) values
 * exactly, so that the rounded result is the correctly rounded exact sum
 * whatever the tree, the arrival order or the number of ranks.
 *
 * An accumulator is a two's complement integer of n 32-bit words, w[0]
 * least significant, counting units of the format's smallest subnormal:
 *   binary64: unit 2^-1074; a value spans bits 0 .. 2097; NC_XACC64_WORDS =
 *             68 words = 2176 bits leave 78 bits of head room (sign included)
 *   binary32: unit 2^-149;  a value spans bits 0 .. 276;  NC_XACC32_WORDS =
 *             10 words = 320 bits leave 43 bits of head room
 * so 2^76 (2^42) contributions of the largest magnitude fit.  Adding an
 * element or merging two accumulators is integer addition, exact,
 * associative and commutative; the flags are ORed.  That is the whole
 * reproducibility argument.
 *
 * Flags (sticky):
 *   NC_XACC_NAN   a NaN was added          NC_XACC_PINF  +inf was added
 *   NC_XACC_NINF  -inf was added           NC_XACC_OVF   the integer left its
 *                                          range (more contributions than the
 *                                          head room: never for fewer than
 *                                          2^42 elements)
 *   NC_XACC_NZ    an element other than -0 was added (the sign of a zero sum)
 * Rounding once, to nearest even:
 *   NAN, OVF, or PINF with NINF -> the canonical quiet NaN (0x7FF8000000000000,
 *                                  0x7FC00000): no NaN payload survives, since
 *                                  which one would depend on the order
 *   PINF -> +inf, NINF -> -inf
 *   a zero sum -> -0 if NZ is clear (every element was -0, or none was added:
 *                 -0 is the additive identity), +0 otherwise
 *   otherwise the exact sum rounded to nearest even; past the largest finite
 *   value, to infinity.  (An exact sum of subnormals is exact: every sum is a
 *   multiple of the unit.)
 *
 * Wire encoding (what a NIC sends up the tree): only the window of words
 * that are not implied.  Word 0 is a header: bits 31..24 the flags, 15..8
 * the index lo of the window's first word, 7..0 its length L; then the L
 * words w[lo .. lo+L-1].  Words below lo are 0, words above are the sign
 * extension of the window's top bit; the zero accumulator has L = 0.  At
 * most 1 + NC_XACC64_WORDS = 69 words (276 bytes), 11 (44 bytes) for
 * binary32; a sum of values within a factor 2^11 of each other is 1 + 3 or
 * 1 + 4 words (docs/reduction.md).
 *
 * The words are the accumulator's native integers: the firmware puts them on
 * the wire in network order like every other word it sends.
 */
#ifndef NC_XACC_H
#define NC_XACC_H

#include <stdint.h>

#define NC_XACC64_WORDS 68u
#define NC_XACC32_WORDS 10u
#define NC_XACC_MAXW    NC_XACC64_WORDS
#define NC_XACC_WIRE_MAX (1u + NC_XACC_MAXW)

#define NC_XACC_NAN  0x01u
#define NC_XACC_PINF 0x02u
#define NC_XACC_NINF 0x04u
#define NC_XACC_OVF  0x08u
#define NC_XACC_NZ   0x10u
#define NC_XACC_FLAGS 0x1Fu

#define NC_XACC_F64_NAN 0x7FF8000000000000ull
#define NC_XACC_F32_NAN 0x7FC00000u

/* One accumulator; n is NC_XACC64_WORDS or NC_XACC32_WORDS (the words above
 * n are unused). */
struct nc_xacc {
    uint32_t flags;
    uint32_t n;
    uint32_t w[NC_XACC_MAXW];
};

/*@ predicate nc_xacc_ok(struct nc_xacc *a) =
      \valid(a) && (a->n == NC_XACC64_WORDS || a->n == NC_XACC32_WORDS);
*/

/* An empty accumulator for binary64 (n = 68) or binary32 (n = 10). */
/*@ requires \valid(a);
    requires n == NC_XACC64_WORDS || n == NC_XACC32_WORDS;
    assigns *a;
    ensures nc_xacc_ok(a) && a->n == n && a->flags == 0;
    ensures \forall integer i; 0 <= i < n ==> a->w[i] == 0;
*/
void nc_xacc_init(struct nc_xacc *a, uint32_t n);

/* Add one binary64 (a->n == 68) or binary32 (a->n == 10) element. */
/*@ requires nc_xacc_ok(a) && a->n == NC_XACC64_WORDS;
    assigns a->flags, a->w[0 .. NC_XACC64_WORDS - 1];
    ensures nc_xacc_ok(a) && a->n == \old(a->n);
*/
void nc_xacc_add_f64(struct nc_xacc *a, uint64_t x);

/*@ requires nc_xacc_ok(a) && a->n == NC_XACC32_WORDS;
    assigns a->flags, a->w[0 .. NC_XACC32_WORDS - 1];
    ensures nc_xacc_ok(a) && a->n == \old(a->n);
*/
void nc_xacc_add_f32(struct nc_xacc *a, uint32_t x);

/* a += b (same n).  The words are added with carry: an exact integer sum
 * modulo 2^(32 n), and OVF is set when the true sum left the range. */
/*@ requires nc_xacc_ok(a) && nc_xacc_ok(b) && a->n == b->n;
    requires \separated(a, b);
    assigns a->flags, a->w[0 .. a->n - 1];
    ensures nc_xacc_ok(a) && a->n == \old(a->n);
*/
void nc_xacc_merge(struct nc_xacc *a, const struct nc_xacc *b);

/* The wire encoding of a into out[0 .. cap-1]; returns its length in words
 * (1 .. a->n + 1), or 0 if cap is too small. */
/*@ requires nc_xacc_ok(a);
    requires \valid(out + (0 .. cap - 1));
    requires \separated(a, out + (0 .. cap - 1));
    assigns out[0 .. cap - 1];
    ensures 0 <= \result <= a->n + 1 && \result <= cap;
*/
uint32_t nc_xacc_encode(const struct nc_xacc *a, uint32_t *out, uint32_t cap);

/* a += the accumulator encoded in in[0 .. len-1] (a's n gives the format).
 * Returns the number of words used, or 0 (a unchanged) if the encoding is
 * malformed: shorter than its header says, unknown flags, or a window
 * beyond a->n words. */
/*@ requires nc_xacc_ok(a);
    requires \valid_read(in + (0 .. len - 1));
    requires \separated(a, in + (0 .. len - 1));
    assigns a->flags, a->w[0 .. a->n - 1];
    ensures nc_xacc_ok(a) && a->n == \old(a->n);
    ensures 0 <= \result <= len && \result <= a->n + 1;
*/
uint32_t nc_xacc_merge_wire(struct nc_xacc *a, const uint32_t *in, uint32_t len);

/* The accumulated sum rounded once to binary64 / binary32 (rules above). */
/*@ requires nc_xacc_ok(a) && a->n == NC_XACC64_WORDS;
    assigns \nothing;
*/
uint64_t nc_xacc_round_f64(const struct nc_xacc *a);

/*@ requires nc_xacc_ok(a) && a->n == NC_XACC32_WORDS;
    assigns \nothing;
*/
uint32_t nc_xacc_round_f32(const struct nc_xacc *a);

#endif
