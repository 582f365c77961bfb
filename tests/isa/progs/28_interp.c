/* 28_interp: a small interpreter and state machines. A recursive-descent
 * parser evaluates integer expressions with precedence, unary minus,
 * parentheses, and variables; a switch-based register VM runs a bytecode
 * loop; a table-driven DFA classifies tokens; and a traffic-light style state
 * machine steps through timed transitions. Mixes recursion, switches, tables
 * and pointer walking over text. */
#include "tests/isa/progs/prog.h"

/* ---- expression evaluator ---- */
struct parser { const char *p; int32_t vars[26]; int err; };

static int32_t expr(struct parser *ps);

static void skip(struct parser *ps) { while (*ps->p == ' ') ps->p++; }

static int32_t primary(struct parser *ps)
{
    skip(ps);
    char c = *ps->p;
    if (c == '(') {
        ps->p++;
        int32_t v = expr(ps);
        skip(ps);
        if (*ps->p == ')') ps->p++; else ps->err = 1;
        return v;
    }
    if (c == '-') { ps->p++; return (int32_t)(0u - (uint32_t)primary(ps)); }
    if (c >= 'a' && c <= 'z') { ps->p++; return ps->vars[c - 'a']; }
    if (c >= '0' && c <= '9') {
        uint32_t v = 0;
        while (*ps->p >= '0' && *ps->p <= '9') v = v * 10u + (uint32_t)(*ps->p++ - '0');
        return (int32_t)v;
    }
    ps->err = 1;
    return 0;
}

static int32_t term(struct parser *ps)
{
    int32_t v = primary(ps);
    for (;;) {
        skip(ps);
        char op = *ps->p;
        if (op != '*' && op != '/' && op != '%') return v;
        ps->p++;
        int32_t r = primary(ps);
        if (op == '*') v = (int32_t)((uint32_t)v * (uint32_t)r);
        else if (r == 0 || (v == INT32_MIN && r == -1)) { ps->err = 2; v = 0; }
        else v = op == '/' ? v / r : v % r;
    }
}

static int32_t expr(struct parser *ps)
{
    int32_t v = term(ps);
    for (;;) {
        skip(ps);
        char op = *ps->p;
        if (op != '+' && op != '-') return v;
        ps->p++;
        int32_t r = term(ps);
        v = (int32_t)(op == '+' ? (uint32_t)v + (uint32_t)r : (uint32_t)v - (uint32_t)r);
    }
}

static int32_t eval(struct parser *ps, const char *text)
{
    ps->p = text;
    ps->err = 0;
    int32_t v = expr(ps);
    skip(ps);
    if (*ps->p) ps->err = 3;
    return v;
}

/* ---- register VM with a switch dispatch ---- */
enum { LI, ADD, SUB, MULI, SHRI, BNEZ, DEC, XOR, HALT };
struct insn { uint8_t op, a, b; int32_t imm; };

static uint32_t vm(const struct insn *code, uint32_t *reg, int *steps)
{
    int pc = 0;
    *steps = 0;
    for (;;) {
        const struct insn *in = &code[pc++];
        (*steps)++;
        switch (in->op) {
        case LI: reg[in->a] = (uint32_t)in->imm; break;
        case ADD: reg[in->a] += reg[in->b]; break;
        case SUB: reg[in->a] -= reg[in->b]; break;
        case MULI: reg[in->a] *= (uint32_t)in->imm; break;
        case SHRI: reg[in->a] >>= in->imm; break;
        case XOR: reg[in->a] ^= reg[in->b]; break;
        case DEC: reg[in->a]--; break;
        case BNEZ: if (reg[in->a]) pc = in->imm; break;
        case HALT: return reg[0];
        default: return 0xdeadu;
        }
    }
}

/* ---- DFA token classifier ---- */
enum { S_START, S_INT, S_HEX0, S_HEX, S_IDENT, S_ERR, NSTATES };
enum { C_DIGIT0, C_DIGIT, C_X, C_HEXLETTER, C_LETTER, C_OTHER, NCLASSES };
static const uint8_t dfa[NSTATES][NCLASSES] = {
    /* START */ { S_HEX0, S_INT, S_IDENT, S_IDENT, S_IDENT, S_ERR },
    /* INT   */ { S_INT, S_INT, S_ERR, S_ERR, S_ERR, S_ERR },
    /* HEX0  */ { S_INT, S_INT, S_HEX, S_ERR, S_ERR, S_ERR },
    /* HEX   */ { S_HEX, S_HEX, S_ERR, S_HEX, S_ERR, S_ERR },
    /* IDENT */ { S_IDENT, S_IDENT, S_IDENT, S_IDENT, S_IDENT, S_ERR },
    /* ERR   */ { S_ERR, S_ERR, S_ERR, S_ERR, S_ERR, S_ERR },
};
static int cclass(char c)
{
    if (c == '0') return C_DIGIT0;
    if (c >= '1' && c <= '9') return C_DIGIT;
    if (c == 'x') return C_X;
    if ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')) return C_HEXLETTER;
    if ((c >= 'g' && c <= 'z') || (c >= 'G' && c <= 'Z') || c == '_') return C_LETTER;
    return C_OTHER;
}
static int classify(const char *s)
{
    int st = S_START;
    for (; *s; s++) st = dfa[st][cclass(*s)];
    return st;
}

int main(void)
{
    struct parser ps;
    for (int i = 0; i < 26; i++) ps.vars[i] = i * 3 - 10;
    static const char *const exprs[] = {
        "1 + 2 * 3", "(1 + 2) * 3", "-7 / 2", "-7 % 2", "100 - 3 - 4", "2 * (3 + 4) * (5 - -6)",
        "a * b + c", "z * z * z - y / (x - w)", "((((9))))", "1 / 0", "1 +", "65536 * 65536 + 1",
        "2147483647 + 1", "q % 7 + -(-(p))",
    };
    for (int i = 0; i < COUNT_OF(exprs); i++) {
        int32_t v = eval(&ps, exprs[i]);
        put_str(exprs[i]);
        put_str(" => ");
        if (ps.err) { put_str("error "); put_dec(ps.err); }
        else put_dec(v);
        put_nl();
        ck32((uint32_t)v);
        ck32((uint32_t)ps.err);
    }

    /* r0 = sum over r1 = 50..1 of (r1 * 7) >> 1, xor-folded. */
    static const struct insn prog[] = {
        { LI, 0, 0, 0 }, { LI, 1, 0, 50 },
        /* 2: */ { LI, 2, 0, 0 }, { ADD, 2, 1, 0 }, { MULI, 2, 0, 7 }, { SHRI, 2, 0, 1 },
        { ADD, 0, 2, 0 }, { XOR, 0, 1, 0 }, { DEC, 1, 0, 0 }, { BNEZ, 1, 0, 2 },
        { HALT, 0, 0, 0 },
    };
    uint32_t reg[4] = { 0 };
    int steps;
    out32("vm result", vm(prog, reg, &steps));
    outd("vm steps", steps);

    static const char *const toks[] = { "0", "123", "0x1f", "0xg", "x1", "_tmp", "12ab", "0x", "Ab9", "a-b", "007" };
    static const char *const sname[] = { "start", "int", "hex0", "hex", "ident", "error" };
    for (int i = 0; i < COUNT_OF(toks); i++) {
        put_str(toks[i]);
        put_char(':');
        put_str(sname[classify(toks[i])]);
        put_char(i == COUNT_OF(toks) - 1 ? '\n' : ' ');
        ck32((uint32_t)classify(toks[i]));
    }

    /* Traffic light with a pedestrian button: states, timers, events. */
    enum { GREEN, YELLOW, RED, WALK } st = RED;
    int timer = 0, cycles = 0;
    uint32_t trace = 0;
    for (int tick = 0; tick < 200; tick++) {
        int button = (tick % 37) == 5;
        timer++;
        switch (st) {
        case GREEN: if (timer >= 10 || (button && timer >= 3)) { st = YELLOW; timer = 0; } break;
        case YELLOW: if (timer >= 2) { st = RED; timer = 0; } break;
        case RED: if (timer >= 5) { st = button ? WALK : GREEN; timer = 0; cycles++; } break;
        case WALK: if (timer >= 4) { st = GREEN; timer = 0; } break;
        }
        trace = trace * 5u + (uint32_t)st;
    }
    outd("light cycles", cycles);
    out32("light trace", trace);
    return finish();
}
