/* Linked with common_b.c under -fcommon: 'counter' and 'table' are COMMON
 * in both objects and must become one object each, sized by the larger. */
#include <lanai-testmachine.h>
int counter;
int table[4];
void bump(void);
int main(void)
{
    bump();
    bump();
    table[3] = counter * 10;
    lanai_tm_putc('0' + counter);
    lanai_tm_putc('0' + table[3] / 10);
    lanai_tm_putc('\n');
    return table[7] == 0 ? 0 : 1; /* table is int[8] in common_b.c */
}
