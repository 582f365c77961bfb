/*
 * nc_logic.h - ACSL logic shared by the ref/ contracts.
 *
 * Only annotations live here; the C compilers see an empty header.  The
 * definitions are written as plain arithmetic (no bitwise operators) because
 * the SMT provers behind WP reason about +, -, * and / by constants far more
 * reliably than about &, | and shifts.
 */
#ifndef NC_LOGIC_H
#define NC_LOGIC_H

/*@
  // 2^p for any natural p, by recursion (linear steps only).
  logic integer nc_pow2(integer p) = p <= 0 ? 1 : 2 * nc_pow2(p - 1);

  // The powers the trees use (n <= 1024), spelled out, and their order.
  // Proved by unfolding; SMT solvers cannot do induction, so results
  // about nc_pow2 that need monotonicity are stated for exponents <= 11.
  lemma nc_pow2_small: \forall integer a; 0 <= a <= 11 ==> nc_pow2(a) ==
    (a == 0 ? 1 : a == 1 ? 2 : a == 2 ? 4 : a == 3 ? 8 : a == 4 ? 16 :
     a == 5 ? 32 : a == 6 ? 64 : a == 7 ? 128 : a == 8 ? 256 :
     a == 9 ? 512 : a == 10 ? 1024 : 2048);
  lemma nc_pow2_mono: \forall integer a, b; 0 <= a < b <= 11 ==>
    nc_pow2(a) < nc_pow2(b);

  // Bit p of a natural number x, defined arithmetically.
  logic integer nc_bit(integer x, integer p) = (x / nc_pow2(p)) % 2;

  // The same for the 8 bit positions of a byte, as a table the provers can
  // case-split on (every entry visibly non-zero).
  logic integer nc_pow2_8(integer p) =
    p == 0 ? 1 : p == 1 ? 2 : p == 2 ? 4 : p == 3 ? 8 :
    p == 4 ? 16 : p == 5 ? 32 : p == 6 ? 64 : 128;
  logic integer nc_bit8(integer x, integer p) = (x / nc_pow2_8(p)) % 2;

  // Distance from a to b going forward in 32-bit sequence space:
  // (b - a) mod 2^32, for a, b in [0, 2^32).
  logic integer nc_seq_dist(integer a, integer b) =
    b - a >= 0 ? b - a : b - a + 4294967296;

  // Sequence number that follows a by d (mod 2^32).
  logic integer nc_seq_add(integer a, integer d) = (a + d) % 4294967296;
*/

#endif
