/* 12_switch_big: switches with more than 100 cases, which LLVM lowers to a
 * jump table in .rodata (absolute addresses, one R_LANAI_32 each) and an
 * indirect `bt %r3` dispatch (lanai-isa.md §7.4). Each case does different
 * work so the switch cannot be folded into a value lookup table. Includes
 * fall-through cases, the default path (out of range above and below), a
 * sparse signed switch with holes and negative case values, and a switch on
 * an unsigned char that covers all 256 values. */
#include "tests/isa/progs/prog.h"

static __attribute__((noinline)) uint32_t helper(uint32_t x, uint32_t c) { return (x << 3) - x + c; }

static __attribute__((noinline)) uint32_t big_switch(uint32_t op, uint32_t x)
{
    switch (op) {
    case 0: x = (x >> 4) | (x << 28); break;
    case 1: x = x ^ 0x17346b45u; break;
    case 2: x = x * 52890u; break;
    case 3: x = (x >> 3) | (x << 29); break;
    case 4: x = x - (x >> 12); break;
    case 5: x = ~x + 15522u; /* fall through */
    case 6: x = x & 0x040e1e30u ? x : x + 51696u; break;
    case 7: x = helper(x, 42491); break;
    case 8: x = x + 40361u; break;
    case 9: x = x ^ 0x2edf0743u; break;
    case 10: x = x * 7501u; break;
    case 11: x = x * 32973u; break;
    case 12: x = x - (x >> 22); break;
    case 13: x = ~x + 35463u; break;
    case 14: x = x & 0x99f9823cu ? x : x + 4496u; break;
    case 15: x = helper(x, 5831); break;
    case 16: x = x + 3015u; break;
    case 17: x = x ^ 0x1025dbe5u; break;
    case 18: x = x * 19822u; break;
    case 19: x = (x >> 8) | (x << 24); break;
    case 20: x = x - (x >> 7); break;
    case 21: x = ~x + 29716u; break;
    case 22: x = x ^ 0x04f0d0f2u; /* fall through */
    case 23: x = helper(x, 4629); break;
    case 24: x = x + 9425u; break;
    case 25: x = x ^ 0x6099d795u; break;
    case 26: x = x * 3553u; break;
    case 27: x = (x >> 3) | (x << 29); break;
    case 28: x = x - (x >> 5); break;
    case 29: x = ~x + 1780u; break;
    case 30: x = x & 0x1c63373au ? x : x + 50529u; break;
    case 31: x = helper(x, 9258); break;
    case 32: x = x + 29765u; break;
    case 33: x = x + 18142u; break;
    case 34: x = x * 2637u; break;
    case 35: x = (x >> 28) | (x << 4); break;
    case 36: x = x - (x >> 27); break;
    case 37: x = ~x + 30444u; break;
    case 38: x = x & 0xc3a671c4u ? x : x + 25311u; break;
    case 39: x = helper(x, 32499); /* fall through */
    case 40: x = x + 53510u; break;
    case 41: x = x ^ 0xc86b7f7fu; break;
    case 42: x = x * 30859u; break;
    case 43: x = (x >> 6) | (x << 26); break;
    case 44: x = helper(x, 28812); break;
    case 45: x = ~x + 34030u; break;
    case 46: x = x & 0x4669165fu ? x : x + 19380u; break;
    case 47: x = helper(x, 50968); break;
    case 48: x = x + 28580u; break;
    case 49: x = x ^ 0x1a644d92u; break;
    case 50: x = x * 55090u; break;
    case 51: x = (x >> 22) | (x << 10); break;
    case 52: x = x - (x >> 7); break;
    case 53: x = ~x + 22635u; break;
    case 54: x = x & 0xcf58440cu ? x : x + 45886u; break;
    case 55: x = x & 0xe87212b0u ? x : x + 38041u; break;
    case 56: x = x + 10151u; /* fall through */
    case 57: x = x ^ 0x52d037e4u; break;
    case 58: x = x * 51579u; break;
    case 59: x = (x >> 13) | (x << 19); break;
    case 60: x = x - (x >> 29); break;
    case 61: x = ~x + 18755u; break;
    case 62: x = x & 0x81b81040u ? x : x + 14381u; break;
    case 63: x = helper(x, 5748); break;
    case 64: x = x + 45838u; break;
    case 65: x = x ^ 0xf1eeddeeu; break;
    case 66: x = ~x + 4343u; break;
    case 67: x = (x >> 23) | (x << 9); break;
    case 68: x = x - (x >> 7); break;
    case 69: x = ~x + 6641u; break;
    case 70: x = x & 0xe2ee229au ? x : x + 46196u; break;
    case 71: x = helper(x, 30121); break;
    case 72: x = x + 53646u; break;
    case 73: x = x ^ 0x3480251au; /* fall through */
    case 74: x = x * 58308u; break;
    case 75: x = (x >> 19) | (x << 13); break;
    case 76: x = x - (x >> 2); break;
    case 77: x = x - (x >> 18); break;
    case 78: x = x & 0x7fe4f416u ? x : x + 10033u; break;
    case 79: x = helper(x, 50683); break;
    case 80: x = x + 30964u; break;
    case 81: x = x ^ 0x0c4e7af8u; break;
    case 82: x = x * 10821u; break;
    case 83: x = (x >> 3) | (x << 29); break;
    case 84: x = x - (x >> 6); break;
    case 85: x = ~x + 114u; break;
    case 86: x = x & 0xa3665363u ? x : x + 3989u; break;
    case 87: x = helper(x, 49673); break;
    case 88: x = (x >> 14) | (x << 18); break;
    case 89: x = x ^ 0xbc9a0005u; break;
    case 90: x = x * 13576u; /* fall through */
    case 91: x = (x >> 30) | (x << 2); break;
    case 92: x = x - (x >> 9); break;
    case 93: x = ~x + 35227u; break;
    case 94: x = x & 0x6c0a9bbau ? x : x + 19960u; break;
    case 95: x = helper(x, 44912); break;
    case 96: x = x + 9926u; break;
    case 97: x = x ^ 0xc3ac088du; break;
    case 98: x = x * 18223u; break;
    case 99: x = x * 56221u; break;
    case 100: x = x - (x >> 23); break;
    case 101: x = ~x + 24601u; break;
    case 102: x = x & 0xb75b48a1u ? x : x + 19496u; break;
    case 103: x = helper(x, 38506); break;
    case 104: x = x + 22909u; break;
    case 105: x = x ^ 0x3b84edf7u; break;
    case 106: x = x * 32148u; break;
    case 107: x = (x >> 3) | (x << 29); /* fall through */
    case 108: x = x - (x >> 10); break;
    case 109: x = ~x + 28112u; break;
    case 110: x = x ^ 0x7ac6450du; break;
    case 111: x = helper(x, 26250); break;
    case 112: x = x + 10304u; break;
    case 113: x = x ^ 0xa7bcee9fu; break;
    case 114: x = x * 22710u; break;
    case 115: x = (x >> 30) | (x << 2); break;
    case 116: x = x - (x >> 26); break;
    case 117: x = ~x + 43801u; break;
    case 118: x = x & 0xcd24f4ecu ? x : x + 1857u; break;
    case 119: x = helper(x, 47552); break;
    case 120: x = x + 52389u; break;
    case 121: x = x + 24030u; break;
    case 122: x = x * 31186u; break;
    case 123: x = (x >> 29) | (x << 3); break;
    case 124: x = x - (x >> 11); /* fall through */
    case 125: x = ~x + 22867u; break;
    case 126: x = x & 0x4c7253d9u ? x : x + 18985u; break;
    case 127: x = helper(x, 44964); break;
    default: x = x * 0x9e3779b9u + op; break;
    }
    return x;
}

static __attribute__((noinline)) int32_t sparse_switch(int32_t v)
{
    int32_t r = 0;
    switch (v) {
    case -60: r = v * 38 - 969; break;
    case -58: r = v * 20 - 577; break;
    case -56: r = v * 14 - 522; break;
    case -54: r = v * 49 - 286; break;
    case -50: r = v * 6 - 547; break;
    case -48: r = v * 46 - 617; break;
    case -46: r = v * 15 - 348; break;
    case -44: r = v * 34 - 343; break;
    case -42: r = v * 22 - 470; break;
    case -40: r = v * 19 - 87; break;
    case -38: r = v * 35 - 604; break;
    case -36: r = v * 39 - 562; break;
    case -34: r = v * 9 - 844; break;
    case -32: r = v * 17 - 264; break;
    case -30: r = v * 25 - 141; break;
    case -28: r = v * 3 - 405; break;
    case -24: r = v * 4 - 681; break;
    case -22: r = v * 4 - 998; break;
    case -20: r = v * 15 - 683; break;
    case -18: r = v * 11 - 321; break;
    case -16: r = v * 35 - 364; break;
    case -14: r = v * 29 - 931; break;
    case -12: r = v * 34 - 930; break;
    case -10: r = v * 6 - 865; break;
    case -8: r = v * 21 - 268; break;
    case -6: r = v * 46 - 498; break;
    case -4: r = v * 39 - 225; break;
    case -2: r = v * 24 - 517; break;
    case 2: r = v * 7 - 669; break;
    case 4: r = v * 3 - 700; break;
    case 6: r = v * 39 - 340; break;
    case 8: r = v * 38 - 236; break;
    case 10: r = v * 12 - 490; break;
    case 12: r = v * 33 - 702; break;
    case 14: r = v * 45 - 973; break;
    case 16: r = v * 10 - 899; break;
    case 18: r = v * 36 - 638; break;
    case 20: r = v * 41 - 70; break;
    case 22: r = v * 11 - 545; break;
    case 24: r = v * 17 - 706; break;
    case 28: r = v * 12 - 936; break;
    case 30: r = v * 34 - 773; break;
    case 32: r = v * 34 - 708; break;
    case 34: r = v * 27 - 874; break;
    case 36: r = v * 22 - 133; break;
    case 38: r = v * 47 - 576; break;
    case 40: r = v * 38 - 548; break;
    case 42: r = v * 41 - 614; break;
    case 44: r = v * 30 - 42; break;
    case 46: r = v * 25 - 71; break;
    case 48: r = v * 25 - 782; break;
    case 50: r = v * 45 - 419; break;
    case 54: r = v * 4 - 619; break;
    case 56: r = v * 41 - 73; break;
    case 58: r = v * 22 - 234; break;
    case 60: r = v * 41 - 823; break;
    case 62: r = v * 14 - 355; break;
    case 64: r = v * 35 - 706; break;
    case 66: r = v * 26 - 604; break;
    case 68: r = v * 33 - 54; break;
    case 70: r = v * 3 - 459; break;
    case 72: r = v * 7 - 849; break;
    case 74: r = v * 20 - 437; break;
    case 76: r = v * 23 - 152; break;
    case 80: r = v * 33 - 694; break;
    case 82: r = v * 43 - 248; break;
    case 84: r = v * 46 - 814; break;
    case 86: r = v * 3 - 885; break;
    case 88: r = v * 49 - 366; break;
    case 90: r = v * 39 - 381; break;
    case 92: r = v * 28 - 179; break;
    case 94: r = v * 6 - 655; break;
    case 96: r = v * 3 - 218; break;
    case 98: r = v * 14 - 855; break;
    case 100: r = v * 40 - 636; break;
    case 102: r = v * 37 - 749; break;
    case 106: r = v * 11 - 514; break;
    case 108: r = v * 10 - 691; break;
    case 110: r = v * 18 - 667; break;
    case 112: r = v * 49 - 51; break;
    case 114: r = v * 40 - 480; break;
    case 116: r = v * 25 - 613; break;
    case 118: r = v * 48 - 381; break;
    case 120: r = v * 20 - 407; break;
    case 122: r = v * 28 - 798; break;
    case 124: r = v * 25 - 240; break;
    case 126: r = v * 20 - 9; break;
    case 128: r = v * 22 - 598; break;
    case 132: r = v * 19 - 124; break;
    case 134: r = v * 36 - 615; break;
    case 136: r = v * 4 - 886; break;
    case 138: r = v * 15 - 547; break;
    case 140: r = v * 38 - 608; break;
    case 142: r = v * 25 - 551; break;
    case 144: r = v * 13 - 330; break;
    case 146: r = v * 20 - 372; break;
    case 148: r = v * 19 - 730; break;
    case 150: r = v * 46 - 659; break;
    case 152: r = v * 13 - 468; break;
    case 154: r = v * 12 - 898; break;
    case 158: r = v * 2 - 991; break;
    case 160: r = v * 36 - 713; break;
    case 162: r = v * 28 - 245; break;
    case 164: r = v * 14 - 455; break;
    case 166: r = v * 19 - 854; break;
    case 168: r = v * 48 - 179; break;
    case 170: r = v * 24 - 969; break;
    case 172: r = v * 49 - 601; break;
    case 174: r = v * 28 - 543; break;
    case 176: r = v * 33 - 773; break;
    case 178: r = v * 40 - 602; break;
    case 180: r = v * 32 - 848; break;
    case 184: r = v * 32 - 527; break;
    case 186: r = v * 30 - 742; break;
    case 188: r = v * 48 - 823; break;
    case 190: r = v * 49 - 382; break;
    case 192: r = v * 41 - 106; break;
    case 194: r = v * 47 - 692; break;
    case 196: r = v * 35 - 871; break;
    case 198: r = v * 27 - 855; break;
    default: r = -v; break;
    }
    return r;
}

/* Every byte value: a table of 256 targets with a few shared bodies. */
static __attribute__((noinline)) uint32_t classify(unsigned char c)
{
    switch (c) {
    case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9': return 1;
    case 'a': case 'e': case 'i': case 'o': case 'u': return 2;
    case 'A': case 'E': case 'I': case 'O': case 'U': return 3;
    case ' ': case '\t': case '\n': case '\r': return 4;
    case '+': case '-': case '*': case '/': return 5;
    case 0: return 6;
    case 255: return 7;
    case 128: return 8;
    case 127: return 9;
    default:
        if (c >= 'a' && c <= 'z') return 10;
        if (c >= 'A' && c <= 'Z') return 11;
        return c < 128 ? 12 : 13;
    }
}

int main(void)
{
    uint32_t x = 1, h = 0;
    /* Walk every case (and some defaults) several times in a scrambled order. */
    for (uint32_t i = 0; i < 600; i++) {
        uint32_t op = (i * 37u + (x & 7u)) % 140u;
        x = big_switch(opq32(op), x);
        h = h * 31u + x;
    }
    out32("big switch", h);
    out32("big final x", x);
    out32("default high", big_switch(opq32(1000), 5));
    out32("default huge", big_switch(opq32(0xffffffffu), 5));
    out32("case 0", big_switch(opq32(0), 5));
    out32("case 127", big_switch(opq32(127), 5));
    int32_t s = 0;
    for (int32_t v = -70; v < 210; v++)
        s = (int32_t)((uint32_t)s * 3u + (uint32_t)sparse_switch((int32_t)opq32((uint32_t)v)));
    outd("sparse", s);
    uint32_t counts[14] = { 0 };
    for (int c = 0; c < 256; c++)
        counts[classify((unsigned char)opq32((uint32_t)c))]++;
    for (int k = 1; k < 14; k++) {
        put_dec(k); put_char(':'); put_dec((int32_t)counts[k]); put_char(k == 13 ? '\n' : ' ');
        ck32(counts[k]);
    }
    return finish();
}
