int counter;
int table[8];
void bump(void);
void bump(void) { counter++; table[7] = 0; }
