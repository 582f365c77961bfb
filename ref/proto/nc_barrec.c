/* nc_barrec.c - see nc_barrec.h for the contracts.
 *
 * Bits are read and written with division and addition by 2^port rather
 * than with & and |, so that the provers check the contracts without
 * bit-vector reasoning. The bit test divides by a constant in each case
 * of a switch on the port: a divisor the compiler knows is a power of two
 * becomes a shift (one divide by a run-time 2^port was a libcall of ~900
 * LANai instructions, __udivsi3, in the firmware's barrier path).
 */
#include "nc_barrec.h"

/*@ requires p < 8;
    assigns \nothing;
    ensures \result == nc_pow2_8(p);
*/
static uint32_t mask_of(uint32_t p)
{
    switch (p) {
    case 0u: return 1u;
    case 1u: return 2u;
    case 2u: return 4u;
    case 3u: return 8u;
    case 4u: return 16u;
    case 5u: return 32u;
    case 6u: return 64u;
    default: return 128u;
    }
}

/*@ requires p < 8;
    assigns \nothing;
    ensures \result <==> nc_bit8(x, p) == 1;
*/
static bool bit_is_set(uint8_t x, uint32_t p)
{
    uint32_t v = x;

    switch (p) {
    case 0u: return v % 2u != 0u;
    case 1u: return (v / 2u) % 2u != 0u;
    case 2u: return (v / 4u) % 2u != 0u;
    case 3u: return (v / 8u) % 2u != 0u;
    case 4u: return (v / 16u) % 2u != 0u;
    case 5u: return (v / 32u) % 2u != 0u;
    case 6u: return (v / 64u) % 2u != 0u;
    default: return (v / 128u) % 2u != 0u;
    }
}

/*@ requires \valid(a + (0 .. NC_MAX_NODES - 1));
    assigns a[0 .. NC_MAX_NODES - 1];
    ensures nc_bar_all_clear{Here}(a);
*/
static void clear_all(uint8_t *a)
{
    uint32_t c;
    /*@ loop invariant 0 <= c <= NC_MAX_NODES;
        loop invariant \forall integer j; 0 <= j < c ==> a[j] == 0;
        loop assigns c, a[0 .. NC_MAX_NODES - 1];
        loop variant NC_MAX_NODES - c;
    */
    for (c = 0u; c < NC_MAX_NODES; c++)
        a[c] = 0u;
}

void nc_bar_init(nc_barrec_t *r)
{
    r->open = false;
    clear_all(r->unexpected);
    clear_all(r->held);
}

bool nc_bar_open(nc_barrec_t *r)
{
    uint32_t c;
    r->open = true;
    clear_all(r->unexpected);
    /*@ loop invariant 0 <= c <= NC_MAX_NODES;
        loop invariant \forall integer j; 0 <= j < c ==> r->held[j] == 0;
        loop assigns c;
        loop variant NC_MAX_NODES - c;
    */
    for (c = 0u; c < NC_MAX_NODES; c++)
        if (r->held[c] != 0u)
            return true;
    return false;
}

void nc_bar_close(nc_barrec_t *r)
{
    r->open = false;
    clear_all(r->unexpected);
}

nc_bar_verdict_t nc_bar_receive(nc_barrec_t *r, uint32_t node, uint32_t port)
{
    uint32_t m = mask_of(port);
    if (!r->open) {
        if (!bit_is_set(r->held[node], port))
            r->held[node] = (uint8_t)(r->held[node] + m);
        return NC_BAR_HELD;
    }
    if (bit_is_set(r->unexpected[node], port))
        return NC_BAR_DUP;
    r->unexpected[node] = (uint8_t)(r->unexpected[node] + m);
    return NC_BAR_RECORDED;
}

bool nc_bar_test_and_clear(nc_barrec_t *r, uint32_t node, uint32_t port)
{
    if (!bit_is_set(r->unexpected[node], port))
        return false;
    r->unexpected[node] = (uint8_t)(r->unexpected[node] - mask_of(port));
    return true;
}

bool nc_bar_next_reject(nc_barrec_t *r, uint32_t *node, uint32_t *port)
{
    uint32_t c, q;
    /*@ loop invariant 0 <= c <= NC_MAX_NODES;
        loop invariant \forall integer j, b; 0 <= j < c && 0 <= b < 8 ==>
                         nc_bit8(r->held[j], b) == 0;
        loop assigns c, q;
        loop variant NC_MAX_NODES - c;
    */
    for (c = 0u; c < NC_MAX_NODES; c++) {
        if (r->held[c] == 0u)
            continue;
        /*@ loop invariant 0 <= q <= 8;
            loop invariant \forall integer b; 0 <= b < q ==> nc_bit8(r->held[c], b) == 0;
            loop assigns q;
            loop variant 8 - q;
        */
        for (q = 0u; q < 8u; q++) {
            if (bit_is_set(r->held[c], q)) {
                r->held[c] = (uint8_t)(r->held[c] - mask_of(q));
                *node = c;
                *port = q;
                return true;
            }
        }
    }
    return false;
}
