/* clang 14 defect reproducer: with a constant index, goto *states[1] is
 * folded into the label address and emitted as RI add/or with R_LANAI_21
 * (and a wrong +1 offset). lanai-ld must refuse it. */
unsigned f(unsigned bits){ static const void *const states[] = { &&zero, &&one }; unsigned runs=0; int i=0;
 goto *states[bits >> 31];
zero: runs++; while (i < 32 && !((bits << i) >> 31)) i++; if (i == 32) goto done; goto *states[1];
one: runs++; while (i < 32 && ((bits << i) >> 31)) i++; if (i == 32) goto done; goto *states[0];
done: return runs; }
