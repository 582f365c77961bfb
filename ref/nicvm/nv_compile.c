/* nv_compile.c - see nv_compile.h; the language is in docs/nicvm.md. */
#include "nv_compile.h"
#include "nv_vm.h"

/* Tokens. */
enum {
    T_EOF, T_IDENT, T_NUM, T_LP, T_RP, T_LB, T_RB, T_COMMA, T_SEMI, T_ASSIGN,
    T_EQ, T_NE, T_LT, T_LE, T_GT, T_GE, T_PLUS, T_MINUS, T_STAR, T_SLASH, T_PCT,
    T_NOT, T_ANDAND, T_OROR,
    K_FUNC, K_END, K_VAR, K_STATE, K_IF, K_THEN, K_ELSIF, K_ELSE, K_FOR, K_TO,
    K_MAX, K_DO, K_RETURN, T_COUNT
};

static const char *const tok_text[T_COUNT] = {
    "the end of the file", "a name", "a number", "'('", "')'", "'['", "']'", "','", "';'",
    "'='", "'=='", "'!='", "'<'", "'<='", "'>'", "'>='", "'+'", "'-'", "'*'", "'/'", "'%'",
    "'!'", "'&&'", "'||'",
    "'func'", "'end'", "'var'", "'state'", "'if'", "'then'", "'elsif'", "'else'", "'for'",
    "'to'", "'max'", "'do'", "'return'"
};

#define NV_SYM_LOCAL   1u
#define NV_SYM_STATE   2u
#define NV_SYM_ARRAY   3u
#define NV_SYM_HIDDEN  4u      /* a loop's limit: a local without a name */

#define BLK_IF   1u
#define BLK_FOR  2u
#define NO_JZ    0xFFFFu

#define E_BINOP  1u
#define E_UNOP   2u
#define E_PAREN  3u
#define E_CALL   4u
#define E_INDEX  5u
#define BI_NONE  0xFFu

/* Names the language predefines: constants and built-ins. */
struct nv_const { const char *name; uint32_t value; };
static const struct nv_const consts[] = {
    { "NICVM_RESULT_SUCCESS", NV_RESULT_SUCCESS },
    { "NICVM_RESULT_PACKET_CONSUMED", NV_RESULT_PACKET_CONSUMED },
    { "NICVM_RESULT_FAILURE", NV_RESULT_FAILURE },
    { "GM_ST_RELIABLE_NICVM_NIC_DATA", NV_PT_NIC_DATA },
    { "PKT_TYPE", 0u }, { "PKT_SRC", 1u }, { "PKT_DST", 2u }, { "PKT_TAG", 3u },
    { "PKT_LENGTH", 4u }, { "PKT_USER0", 5u }, { "PKT_USER1", 6u }, { "PKT_USER2", 7u },
};
#define NCONSTS (sizeof consts / sizeof consts[0])

struct nv_builtin { const char *name; uint8_t nargs, value, op, bi; };
static const struct nv_builtin builtins[] = {
    { "mpi_get_size", 0, 1, NV_OP_CALL, NV_BI_SIZE },
    { "mpi_get_rank", 0, 1, NV_OP_CALL, NV_BI_RANK },
    { "mpi_get_root", 0, 1, NV_OP_CALL, NV_BI_ROOT },
    { "mpi_send_message", 2, 0, NV_OP_CALL, NV_BI_SEND },
    { "pkt_words", 0, 1, NV_OP_CALL, NV_BI_PKWORDS },
    { "pkt_header", 1, 1, NV_OP_PKH, 0 },
    { "pkt_word", 1, 1, NV_OP_PKW, 0 },
    { "pkt_set_header", 2, 0, NV_OP_PKHSET, 0 },
    { "pkt_set_word", 2, 0, NV_OP_PKWSET, 0 },
};
#define NBUILTINS (sizeof builtins / sizeof builtins[0])

static const char *const op_names[NV_OP_COUNT] = {
    "RET", "JMP", "JZ", "LIT", "CONST", "LDL", "LDS", "STL", "STS", "DROP", "LDSX", "PKH",
    "PKW", "NOT", "NEG", "STSX", "PKHSET", "PKWSET", "ADD", "SUB", "MUL", "DIV", "MOD",
    "EQ", "NE", "LT", "LE", "GT", "GE", "AND", "OR", "CALL"
};

const char *nv_op_name(uint32_t op)
{
    return op < NV_OP_COUNT ? op_names[op] : "?";
}

/* ---- small freestanding helpers ---------------------------------------- */

static int str_eq(const char *a, const char *b)
{
    while (*a != '\0' && *a == *b) { a++; b++; }
    return *a == *b;
}

/* An error message under construction: text appended with bounds. */
struct msgbuf { char *s; uint32_t n; };

static void put_s(struct msgbuf *m, const char *t)
{
    while (*t != '\0' && m->n + 1u < NV_MSG_MAX) m->s[m->n++] = *t++;
    m->s[m->n] = '\0';
}

static void put_u(struct msgbuf *m, uint32_t v)
{
    char d[11];
    uint32_t k = 0;
    do { d[k++] = (char)('0' + v % 10u); v /= 10u; } while (v != 0u && k < 10u);
    while (k > 0u && m->n + 1u < NV_MSG_MAX) m->s[m->n++] = d[--k];
    m->s[m->n] = '\0';
}

/* Start an error at line:col (the caller appends the text). */
static struct msgbuf err_at(struct nv_compiler *c, uint32_t line, uint32_t col)
{
    static char sink[NV_MSG_MAX];      /* errors past NV_ERR_MAX are counted, not kept */
    struct msgbuf m;
    if (c->nerr < NV_ERR_MAX) {
        c->err[c->nerr].line = line;
        c->err[c->nerr].col = col;
        m.s = c->err[c->nerr].msg;
    } else {
        m.s = sink;
    }
    m.n = 0;
    m.s[0] = '\0';
    c->nerr++;
    return m;
}

/* "found X" for the current token. */
static void put_tok(struct nv_compiler *c, struct msgbuf *m)
{
    if (c->tok == T_IDENT) { put_s(m, "'"); put_s(m, c->ttext); put_s(m, "'"); }
    else if (c->tok == T_NUM) { put_s(m, "'"); put_u(m, c->tval); put_s(m, "'"); }
    else put_s(m, tok_text[c->tok]);
}

/* A syntax error at the current token: "expected WHAT, found X"; stops. */
static void syntax(struct nv_compiler *c, const char *what)
{
    struct msgbuf m;
    if (c->fatal) return;
    m = err_at(c, c->tline, c->tcol);
    put_s(&m, "expected ");
    put_s(&m, what);
    put_s(&m, ", found ");
    put_tok(c, &m);
    c->fatal = 1;
}

/* A fatal error with a fixed text at a position. */
static void fatal_at(struct nv_compiler *c, uint32_t line, uint32_t col, const char *t1,
                     uint32_t num, const char *t2)
{
    struct msgbuf m;
    if (c->fatal) return;
    m = err_at(c, line, col);
    put_s(&m, t1);
    if (t2 != 0) { put_u(&m, num); put_s(&m, t2); }
    c->fatal = 1;
}

/* A semantic error about a name: T1 'name' T2; compilation goes on. */
static void name_err(struct nv_compiler *c, uint32_t line, uint32_t col, const char *t1,
                     const char *name, const char *t2)
{
    struct msgbuf m = err_at(c, line, col);
    put_s(&m, t1);
    put_s(&m, "'");
    put_s(&m, name);
    put_s(&m, "'");
    put_s(&m, t2);
}

/* ---- lexer -------------------------------------------------------------- */

static int is_alpha(int ch) { return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_'; }
static int is_digit(int ch) { return ch >= '0' && ch <= '9'; }

static int peekc(struct nv_compiler *c, uint32_t k)
{
    return c->pos + k < c->srclen ? (unsigned char)c->src[c->pos + k] : -1;
}

static void advc(struct nv_compiler *c)
{
    if (c->pos < c->srclen) {
        if (c->src[c->pos] == '\n') { c->cur_line++; c->cur_col = 1; }
        else c->cur_col++;
        c->pos++;
    }
}

static const char *const keywords[] = {
    "func", "end", "var", "state", "if", "then", "elsif", "else", "for", "to", "max", "do", "return"
};

static void next(struct nv_compiler *c)
{
    int ch;
    if (c->fatal) { c->tok = T_EOF; return; }
    for (;;) {                                   /* blanks and // comments */
        ch = peekc(c, 0);
        if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n') { advc(c); continue; }
        if (ch == '/' && peekc(c, 1) == '/') {
            while (peekc(c, 0) != -1 && peekc(c, 0) != '\n') advc(c);
            continue;
        }
        break;
    }
    c->tline = c->cur_line;
    c->tcol = c->cur_col;
    c->ttext[0] = '\0';
    if (ch == -1) { c->tok = T_EOF; return; }
    if (is_alpha(ch)) {
        uint32_t n = 0, k;
        while (is_alpha(peekc(c, 0)) || is_digit(peekc(c, 0))) {
            if (n < NV_IDENT_MAX) c->ttext[n] = (char)peekc(c, 0);
            n++;
            advc(c);
        }
        c->ttext[n < NV_IDENT_MAX ? n : NV_IDENT_MAX] = '\0';
        if (n > NV_IDENT_MAX) {
            c->tok = T_IDENT;
            fatal_at(c, c->tline, c->tcol, "name longer than ", NV_IDENT_MAX, " characters");
            return;
        }
        c->tok = T_IDENT;
        for (k = 0; k < sizeof keywords / sizeof keywords[0]; k++)
            if (str_eq(c->ttext, keywords[k])) c->tok = K_FUNC + k;
        return;
    }
    if (is_digit(ch)) {
        uint64_t v = 0;
        int hex = ch == '0' && (peekc(c, 1) == 'x' || peekc(c, 1) == 'X');
        int big = 0, any = 0;
        if (hex) { advc(c); advc(c); }
        for (;;) {
            int d = peekc(c, 0), dv;
            if (is_digit(d)) dv = d - '0';
            else if (hex && d >= 'a' && d <= 'f') dv = d - 'a' + 10;
            else if (hex && d >= 'A' && d <= 'F') dv = d - 'A' + 10;
            else break;
            v = v * (hex ? 16u : 10u) + (uint64_t)dv;
            if (v > 0xFFFFFFFFull) { big = 1; v = 0; }
            any = 1;
            advc(c);
        }
        c->tok = T_NUM;
        c->tval = (uint32_t)v;
        if (is_alpha(peekc(c, 0)) || !any) {
            fatal_at(c, c->tline, c->tcol, "malformed number", 0, 0);
            return;
        }
        if (big || v > (hex ? 0xFFFFFFFFull : 0x7FFFFFFFull)) {
            fatal_at(c, c->tline, c->tcol, "number too large (more than 32 bits, or above 2147483647 in decimal)", 0, 0);
            return;
        }
        return;
    }
    advc(c);
    switch (ch) {
    case '(': c->tok = T_LP; return;
    case ')': c->tok = T_RP; return;
    case '[': c->tok = T_LB; return;
    case ']': c->tok = T_RB; return;
    case ',': c->tok = T_COMMA; return;
    case ';': c->tok = T_SEMI; return;
    case '+': c->tok = T_PLUS; return;
    case '-': c->tok = T_MINUS; return;
    case '*': c->tok = T_STAR; return;
    case '/': c->tok = T_SLASH; return;
    case '%': c->tok = T_PCT; return;
    case '=': if (peekc(c, 0) == '=') { advc(c); c->tok = T_EQ; } else c->tok = T_ASSIGN; return;
    case '!': if (peekc(c, 0) == '=') { advc(c); c->tok = T_NE; } else c->tok = T_NOT; return;
    case '<': if (peekc(c, 0) == '=') { advc(c); c->tok = T_LE; } else c->tok = T_LT; return;
    case '>': if (peekc(c, 0) == '=') { advc(c); c->tok = T_GE; } else c->tok = T_GT; return;
    case '&': if (peekc(c, 0) == '&') { advc(c); c->tok = T_ANDAND; return; } break;
    case '|': if (peekc(c, 0) == '|') { advc(c); c->tok = T_OROR; return; } break;
    default: break;
    }
    {
        struct msgbuf m = err_at(c, c->tline, c->tcol);
        char t[2];
        c->tok = T_EOF;
        if (ch > ' ' && ch < 127) {
            t[0] = (char)ch; t[1] = '\0';
            put_s(&m, "unexpected character '"); put_s(&m, t); put_s(&m, "'");
        } else {
            put_s(&m, "unexpected byte "); put_u(&m, (uint32_t)ch);
        }
        c->fatal = 1;
    }
}

/* Consume the token kind k or report "expected K". */
static int expect(struct nv_compiler *c, uint32_t k)
{
    if (c->fatal) return 0;
    if (c->tok != k) { syntax(c, tok_text[k]); return 0; }
    next(c);
    return 1;
}

/* ---- code emission ------------------------------------------------------ */

static void emit(struct nv_compiler *c, uint32_t op, uint32_t arg, uint32_t line, uint32_t col)
{
    struct nv_prog *p = &c->prog;
    if (c->fatal) return;
    if (p->len >= NV_CODE_MAX) {
        fatal_at(c, line, col, "module longer than ", NV_CODE_MAX, " instructions");
        return;
    }
    c->line[p->len] = (uint16_t)(line < 0xFFFFu ? line : 0xFFFFu);
    c->col[p->len] = (uint16_t)(col < 0xFFFFu ? col : 0xFFFFu);
    p->code[p->len++] = op | (arg % 0x1000000u) * 256u;
}

static void emit_value(struct nv_compiler *c, uint32_t v, uint32_t line, uint32_t col)
{
    struct nv_prog *p = &c->prog;
    uint32_t k;
    if (v < 0x800000u || v >= 0xFF800000u) {
        emit(c, NV_OP_LIT, v % 0x1000000u, line, col);
        return;
    }
    for (k = 0; k < p->nconst; k++)
        if (p->konst[k] == v) break;
    if (k == p->nconst) {
        if (p->nconst >= NV_CONST_MAX) {
            fatal_at(c, line, col, "more than ", NV_CONST_MAX, " constants too large for 24 bits");
            return;
        }
        p->konst[p->nconst++] = v;
    }
    emit(c, NV_OP_CONST, k, line, col);
}

static void patch(struct nv_compiler *c, uint32_t at, uint32_t target)
{
    if (c->fatal || at >= c->prog.len) return;
    c->prog.code[at] = c->prog.code[at] % 256u + target * 256u;
}

/* ---- names -------------------------------------------------------------- */

static int find_const(const char *s)
{
    uint32_t k;
    for (k = 0; k < NCONSTS; k++) if (str_eq(s, consts[k].name)) return (int)k;
    return -1;
}

static int find_builtin(const char *s)
{
    uint32_t k;
    for (k = 0; k < NBUILTINS; k++) if (str_eq(s, builtins[k].name)) return (int)k;
    return -1;
}

static int find_sym(struct nv_compiler *c, const char *s)
{
    uint32_t k;
    for (k = 0; k < c->nsym; k++)
        if (c->sym[k].kind != NV_SYM_HIDDEN && str_eq(s, c->sym[k].name)) return (int)k;
    return -1;
}

/* Declare the current token's name (kind, n words of state); fatal when a
 * table is full. Returns the symbol or -1. */
static int declare(struct nv_compiler *c, uint32_t kind, uint32_t n, uint32_t line, uint32_t col,
                   const char *name)
{
    struct nv_prog *p = &c->prog;
    struct nv_sym *s;
    uint32_t k;
    if (kind != NV_SYM_HIDDEN) {
        if (find_sym(c, name) >= 0) { name_err(c, line, col, "", name, " is declared twice"); return -1; }
        if (find_const(name) >= 0 || find_builtin(name) >= 0) {
            name_err(c, line, col, "", name, " is a name of the language");
            return -1;
        }
    }
    if (c->nsym >= NV_LOCALS_MAX + NV_STATE_MAX) {
        fatal_at(c, line, col, "too many names", 0, 0);
        return -1;
    }
    if (kind == NV_SYM_STATE || kind == NV_SYM_ARRAY) {
        if (p->nstate + n > NV_STATE_MAX) {
            fatal_at(c, line, col, "more than ", NV_STATE_MAX, " words of state");
            return -1;
        }
    } else if (p->nlocals >= NV_LOCALS_MAX) {
        fatal_at(c, line, col, "more than ", NV_LOCALS_MAX, " variables (loops use one more each)");
        return -1;
    }
    s = &c->sym[c->nsym];
    for (k = 0; name[k] != '\0' && k < NV_IDENT_MAX; k++) s->name[k] = name[k];
    s->name[k] = '\0';
    s->kind = (uint8_t)kind;
    s->len = (uint8_t)n;
    if (kind == NV_SYM_STATE || kind == NV_SYM_ARRAY) { s->slot = (uint16_t)p->nstate; p->nstate += n; }
    else s->slot = (uint16_t)p->nlocals++;
    return (int)c->nsym++;
}

/* ---- expressions (operator precedence, explicit stack) ------------------ */

static uint32_t binop_of(uint32_t tok, uint32_t *prec)
{
    switch (tok) {
    case T_OROR:  *prec = 1; return NV_OP_OR;
    case T_ANDAND:*prec = 2; return NV_OP_AND;
    case T_EQ:    *prec = 3; return NV_OP_EQ;
    case T_NE:    *prec = 3; return NV_OP_NE;
    case T_LT:    *prec = 4; return NV_OP_LT;
    case T_LE:    *prec = 4; return NV_OP_LE;
    case T_GT:    *prec = 4; return NV_OP_GT;
    case T_GE:    *prec = 4; return NV_OP_GE;
    case T_PLUS:  *prec = 5; return NV_OP_ADD;
    case T_MINUS: *prec = 5; return NV_OP_SUB;
    case T_STAR:  *prec = 6; return NV_OP_MUL;
    case T_SLASH: *prec = 6; return NV_OP_DIV;
    case T_PCT:   *prec = 6; return NV_OP_MOD;
    default:      *prec = 0; return NV_OP_COUNT;
    }
}

static struct nv_opent *push_op(struct nv_compiler *c, uint32_t kind)
{
    struct nv_opent *e;
    if (c->nops >= NV_OPSTACK_MAX) {
        fatal_at(c, c->tline, c->tcol, "expression nested too deeply", 0, 0);
        return 0;
    }
    e = &c->ops[c->nops++];
    e->kind = (uint8_t)kind;
    e->op = 0; e->prec = 0; e->bi = BI_NONE; e->argc = 0; e->sym = 0;
    e->line = c->tline;
    e->col = c->tcol;
    return e;
}

/* Emit a finished call (nargs values are on the stack). */
static void close_call(struct nv_compiler *c, const struct nv_opent *e, int want_value)
{
    uint32_t k;
    if (e->bi == BI_NONE) {                      /* unknown built-in, reported */
        for (k = 0; k < e->argc; k++) emit(c, NV_OP_DROP, 0, e->line, e->col);
        if (want_value) emit(c, NV_OP_LIT, 0, e->line, e->col);
        c->stmt_void = !want_value;
        return;
    }
    {
        const struct nv_builtin *b = &builtins[e->bi];
        if (e->argc != b->nargs) {
            struct msgbuf m = err_at(c, e->line, e->col);
            put_s(&m, "'"); put_s(&m, b->name); put_s(&m, "' takes ");
            put_u(&m, b->nargs); put_s(&m, b->nargs == 1 ? " argument, not " : " arguments, not ");
            put_u(&m, e->argc);
            for (k = 0; k < e->argc; k++) emit(c, NV_OP_DROP, 0, e->line, e->col);
            if (want_value) emit(c, NV_OP_LIT, 0, e->line, e->col);
            c->stmt_void = !want_value;
            return;
        }
        emit(c, b->op, b->op == NV_OP_CALL ? b->bi : 0u, e->line, e->col);
        if (!b->value && want_value) {
            name_err(c, e->line, e->col, "", b->name, " gives no value");
            emit(c, NV_OP_LIT, 0, e->line, e->col);
        }
        c->stmt_void = !b->value;
    }
}

/* Pop and emit operators down to (not including) an entry of kind stop
 * (E_PAREN, E_CALL, E_INDEX) or the bottom. Returns the index of that entry
 * or -1 (none on the stack). */
static int unwind(struct nv_compiler *c, uint32_t min_prec)
{
    while (c->nops > 0u) {
        struct nv_opent *e = &c->ops[c->nops - 1u];
        if (e->kind == E_BINOP || e->kind == E_UNOP) {
            if (e->kind == E_BINOP && e->prec < min_prec) return -1;
            emit(c, e->op, 0, e->line, e->col);
            c->nops--;
            continue;
        }
        return (int)(c->nops - 1u);
    }
    return -1;
}

/* Parse one expression; its value is left on the stack.  In statement
 * mode (c->stmt_mode) the expression is a call of a built-in, which may
 * give no value (c->stmt_void says whether it did not). */
static void parse_expr(struct nv_compiler *c)
{
    int operand = 1;
    uint32_t stmt = c->stmt_mode;
    c->stmt_mode = 0;
    c->nops = 0;
    c->stmt_void = 0;
    while (!c->fatal) {
        uint32_t t = c->tok, prec, op;
        if (operand) {
            if (t == T_NUM) {
                emit_value(c, c->tval, c->tline, c->tcol);
                next(c);
                operand = 0;
            } else if (t == T_IDENT) {
                uint32_t line = c->tline, col = c->tcol;
                char name[NV_IDENT_MAX + 1u];
                int k, s, b;
                for (k = 0; c->ttext[k] != '\0'; k++) name[k] = c->ttext[k];
                name[k] = '\0';
                next(c);
                b = find_builtin(name);
                s = find_sym(c, name);
                if (b >= 0 || (s < 0 && find_const(name) < 0 && c->tok == T_LP)) {
                    struct nv_opent *e;
                    if (b < 0) name_err(c, line, col, "unknown built-in ", name, "");
                    if (!expect(c, T_LP)) break;
                    e = push_op(c, E_CALL);
                    if (e == 0) break;
                    e->bi = (uint8_t)(b >= 0 ? (uint32_t)b : BI_NONE);
                    e->line = line; e->col = col;
                    if (c->tok == T_RP) {       /* no arguments */
                        next(c);
                        c->nops--;
                        close_call(c, &c->ops[c->nops], !(stmt && c->nops == 0u));
                        if (stmt && c->nops == 0u) return;
                        operand = 0;
                    }
                } else if (s >= 0 && c->sym[s].kind == NV_SYM_ARRAY) {
                    struct nv_opent *e;
                    if (!expect(c, T_LB)) break;
                    e = push_op(c, E_INDEX);
                    if (e == 0) break;
                    e->sym = (uint16_t)s;
                    e->line = line; e->col = col;
                } else if (s >= 0) {
                    emit(c, c->sym[s].kind == NV_SYM_STATE ? NV_OP_LDS : NV_OP_LDL,
                         c->sym[s].slot, line, col);
                    operand = 0;
                } else if ((k = find_const(name)) >= 0) {
                    emit_value(c, consts[k].value, line, col);
                    operand = 0;
                } else {
                    name_err(c, line, col, "unknown name ", name, "");
                    emit(c, NV_OP_LIT, 0, line, col);
                    operand = 0;
                }
            } else if (t == T_LP) {
                if (push_op(c, E_PAREN) == 0) break;
                next(c);
            } else if (t == T_MINUS || t == T_NOT) {
                struct nv_opent *e = push_op(c, E_UNOP);
                if (e == 0) break;
                e->op = (uint8_t)(t == T_MINUS ? NV_OP_NEG : NV_OP_NOT);
                e->prec = 7;
                next(c);
            } else {
                syntax(c, "an expression");
                break;
            }
            continue;
        }
        op = binop_of(t, &prec);
        if (op != NV_OP_COUNT) {
            struct nv_opent *e;
            (void)unwind(c, prec);
            e = push_op(c, E_BINOP);
            if (e == 0) break;
            e->op = (uint8_t)op;
            e->prec = (uint8_t)prec;
            next(c);
            operand = 1;
            continue;
        }
        if (t == T_RP || t == T_RB || t == T_COMMA) {
            int top = unwind(c, 0);
            struct nv_opent *e;
            if (top < 0) break;                  /* belongs to the caller */
            e = &c->ops[top];
            if (t == T_RP && e->kind == E_PAREN) { c->nops--; next(c); continue; }
            if (t == T_RP && e->kind == E_CALL) {
                struct nv_opent done = *e;
                done.argc++;
                c->nops--;
                next(c);
                close_call(c, &done, !(stmt && c->nops == 0u));
                if (stmt && c->nops == 0u) return;
                continue;
            }
            if (t == T_COMMA && e->kind == E_CALL) { e->argc++; next(c); operand = 1; continue; }
            if (t == T_RB && e->kind == E_INDEX) {
                const struct nv_sym *s = &c->sym[e->sym];
                emit(c, NV_OP_LDSX, s->slot + 4096u * s->len, e->line, e->col);
                c->nops--;
                next(c);
                continue;
            }
            syntax(c, e->kind == E_INDEX ? "']'" : "')'");
            break;
        }
        break;                                   /* end of the expression */
    }
    if (c->fatal) return;
    if (unwind(c, 0) >= 0) {
        syntax(c, c->ops[c->nops - 1u].kind == E_INDEX ? "']'" : "')'");
        return;
    }
    if (stmt) syntax(c, "'(' after the built-in");
}

/* ---- statements --------------------------------------------------------- */

static struct nv_block *push_block(struct nv_compiler *c, uint32_t kind, uint32_t line, uint32_t col)
{
    struct nv_block *b;
    if (c->nblk >= NV_NEST_MAX) {
        fatal_at(c, line, col, "more than ", NV_NEST_MAX, " nested if and for statements");
        return 0;
    }
    b = &c->blk[c->nblk++];
    b->kind = (uint8_t)kind;
    b->had_else = 0;
    b->jz = NO_JZ;
    b->fix_base = (uint16_t)c->nfix;
    b->ivar = b->lim = b->trips = b->t0 = 0;
    b->line = line;
    b->col = col;
    return b;
}

/* A jump to the end of the innermost if, patched when it closes. */
static void jump_to_end(struct nv_compiler *c, uint32_t line, uint32_t col)
{
    if (c->nfix >= NV_FIXUP_MAX) {
        fatal_at(c, line, col, "more than ", NV_FIXUP_MAX, " branches in open if statements");
        return;
    }
    c->fix[c->nfix++] = (uint16_t)c->prog.len;
    emit(c, NV_OP_JMP, 0, line, col);
}

/* Close a for loop: its body [t0, t1) becomes `trips` guarded copies. */
static void close_for(struct nv_compiler *c, const struct nv_block *b, uint32_t line, uint32_t col)
{
    struct nv_prog *p = &c->prog;
    uint32_t t0 = b->t0, t1, L, exit, k, j;
    emit(c, NV_OP_LDL, c->sym[b->ivar].slot, line, col);
    emit(c, NV_OP_LIT, 1, line, col);
    emit(c, NV_OP_ADD, 0, line, col);
    emit(c, NV_OP_STL, c->sym[b->ivar].slot, line, col);
    if (c->fatal) return;
    t1 = p->len;
    L = t1 - t0;
    if ((uint64_t)L * b->trips + t0 > NV_CODE_MAX) {
        struct msgbuf m = err_at(c, b->line, b->col);
        put_s(&m, "the loop unrolls to "); put_u(&m, L * b->trips);
        put_s(&m, " instructions, the module may have "); put_u(&m, NV_CODE_MAX);
        c->fatal = 1;
        return;
    }
    exit = t0 + L * b->trips;
    patch(c, t0 + 3u, exit);                     /* the guard's JZ */
    for (k = 1; k < b->trips; k++) {
        for (j = 0; j < L; j++) {
            uint32_t w = p->code[t0 + j], op = w % 256u, tgt = w / 256u;
            if (op == NV_OP_JMP || op == NV_OP_JZ) {
                if (j == 3u) tgt = exit;
                else if (tgt >= t0 && tgt < t1) tgt += k * L;
                w = op + tgt * 256u;
            }
            p->code[t0 + k * L + j] = w;
            c->line[t0 + k * L + j] = c->line[t0 + j];
            c->col[t0 + k * L + j] = c->col[t0 + j];
        }
    }
    p->len = exit;
}

/* `end if;`, `end for;` or `end func;` (the 'end' is consumed). */
static int parse_end(struct nv_compiler *c, uint32_t line, uint32_t col)
{
    struct nv_block *b = c->nblk > 0u ? &c->blk[c->nblk - 1u] : 0;
    uint32_t want = b == 0 ? K_FUNC : b->kind == BLK_IF ? K_IF : K_FOR;
    uint32_t k;
    if (c->tok != want) {
        struct msgbuf m;
        if (c->fatal) return 1;
        m = err_at(c, c->tline, c->tcol);
        put_s(&m, want == K_FUNC ? "expected 'end func'" : want == K_IF ? "expected 'end if'" : "expected 'end for'");
        if (b != 0) {
            put_s(&m, b->kind == BLK_IF ? " (the if at line " : " (the for at line ");
            put_u(&m, b->line);
            put_s(&m, " is open)");
        }
        if (c->tok == K_FUNC || c->tok == K_IF || c->tok == K_FOR)
            put_s(&m, c->tok == K_FUNC ? ", found 'end func'" : c->tok == K_IF ? ", found 'end if'" : ", found 'end for'");
        else { put_s(&m, ", found 'end' and then "); put_tok(c, &m); }
        c->fatal = 1;
        return 1;
    }
    next(c);
    if (!expect(c, T_SEMI)) return 1;
    if (b == 0) {                                /* end func; */
        if (!c->last_ret) {
            emit(c, NV_OP_LIT, NV_RESULT_SUCCESS, line, col);
            emit(c, NV_OP_RET, 0, line, col);
        }
        if (c->tok != T_EOF) syntax(c, "the end of the file after 'end func;'");
        return 1;
    }
    if (b->kind == BLK_IF) {
        if (b->jz != NO_JZ) patch(c, b->jz, c->prog.len);
        for (k = b->fix_base; k < c->nfix; k++) patch(c, c->fix[k], c->prog.len);
        c->nfix = b->fix_base;
    } else {
        close_for(c, b, line, col);
    }
    c->nblk--;
    c->last_ret = 0;
    return 0;
}

/* One statement (or the end of a block); returns 1 at the end of the
 * function or a fatal error. */
static int parse_stmt(struct nv_compiler *c)
{
    uint32_t line = c->tline, col = c->tcol, t = c->tok;
    struct nv_block *b;
    if (c->fatal) return 1;
    if (t == K_END) { next(c); return parse_end(c, line, col); }
    if (t == K_ELSIF || t == K_ELSE) {
        b = c->nblk > 0u ? &c->blk[c->nblk - 1u] : 0;
        if (b == 0 || b->kind != BLK_IF || b->had_else) {
            fatal_at(c, line, col, t == K_ELSE ? "'else' without an open 'if'" :
                     "'elsif' without an open 'if' (or after its 'else')", 0, 0);
            return 1;
        }
        jump_to_end(c, line, col);
        patch(c, b->jz, c->prog.len);
        b->jz = NO_JZ;
        next(c);
        if (t == K_ELSE) { b->had_else = 1; c->last_ret = 0; return c->fatal; }
        parse_expr(c);
        if (!expect(c, K_THEN)) return 1;
        b->jz = (uint16_t)c->prog.len;
        emit(c, NV_OP_JZ, 0, line, col);
        c->last_ret = 0;
        return c->fatal;
    }
    c->last_ret = 0;
    if (t == K_IF) {
        next(c);
        parse_expr(c);
        if (!expect(c, K_THEN)) return 1;
        b = push_block(c, BLK_IF, line, col);
        if (b == 0) return 1;
        b->jz = (uint16_t)c->prog.len;
        emit(c, NV_OP_JZ, 0, line, col);
        return c->fatal;
    }
    if (t == K_FOR) {
        int s;
        uint32_t vl, vc, trips, lim;
        next(c);
        if (c->tok != T_IDENT) { syntax(c, "the loop variable"); return 1; }
        vl = c->tline; vc = c->tcol;
        s = find_sym(c, c->ttext);
        if (s < 0 || c->sym[s].kind != NV_SYM_LOCAL) {
            name_err(c, vl, vc, "the loop variable ", c->ttext, " is not a variable of the function");
            s = -1;
        }
        next(c);
        if (!expect(c, T_ASSIGN)) return 1;
        parse_expr(c);
        if (s >= 0) emit(c, NV_OP_STL, c->sym[s].slot, vl, vc);
        else emit(c, NV_OP_DROP, 0, vl, vc);
        if (!expect(c, K_TO)) return 1;
        parse_expr(c);
        {
            int h = declare(c, NV_SYM_HIDDEN, 1, line, col, "");
            if (h < 0) return 1;
            lim = (uint32_t)h;
        }
        emit(c, NV_OP_STL, c->sym[lim].slot, line, col);
        if (!expect(c, K_MAX)) return 1;
        if (c->tok != T_NUM) { syntax(c, "the loop's maximum trip count (a number)"); return 1; }
        trips = c->tval;
        if (trips < 1u || trips > NV_LOOP_TRIPS_MAX) {
            fatal_at(c, c->tline, c->tcol, "a loop's maximum trip count must be 1 to ", NV_LOOP_TRIPS_MAX, "");
            return 1;
        }
        next(c);
        if (!expect(c, K_DO)) return 1;
        if (s < 0) {                             /* reported: loop over a scratch local */
            s = declare(c, NV_SYM_HIDDEN, 1, line, col, "");
            if (s < 0) return 1;
        }
        b = push_block(c, BLK_FOR, line, col);
        if (b == 0) return 1;
        b->ivar = (uint16_t)s;
        b->lim = (uint16_t)lim;
        b->trips = (uint16_t)trips;
        b->t0 = (uint16_t)c->prog.len;
        emit(c, NV_OP_LDL, c->sym[s].slot, line, col);
        emit(c, NV_OP_LDL, c->sym[lim].slot, line, col);
        emit(c, NV_OP_LE, 0, line, col);
        emit(c, NV_OP_JZ, 0, line, col);
        return c->fatal;
    }
    if (t == K_RETURN) {
        next(c);
        parse_expr(c);
        emit(c, NV_OP_RET, 0, line, col);
        if (!expect(c, T_SEMI)) return 1;
        c->last_ret = c->nblk == 0u;
        return c->fatal;
    }
    if (t == T_IDENT) {
        char name[NV_IDENT_MAX + 1u];
        int k, s;
        if (find_builtin(c->ttext) >= 0) {
            c->stmt_mode = 1;
            parse_expr(c);
            if (!c->stmt_void) emit(c, NV_OP_DROP, 0, line, col);
            expect(c, T_SEMI);
            return c->fatal;
        }
        for (k = 0; c->ttext[k] != '\0'; k++) name[k] = c->ttext[k];
        name[k] = '\0';
        s = find_sym(c, name);
        next(c);
        if (c->tok == T_LB) {
            next(c);
            if (s < 0 || c->sym[s].kind != NV_SYM_ARRAY)
                name_err(c, line, col, "", name, s < 0 ? " is not declared" : " is not a state array");
            parse_expr(c);
            if (!expect(c, T_RB) || !expect(c, T_ASSIGN)) return 1;
            parse_expr(c);
            if (s >= 0 && c->sym[s].kind == NV_SYM_ARRAY)
                emit(c, NV_OP_STSX, c->sym[s].slot + 4096u * c->sym[s].len, line, col);
            else { emit(c, NV_OP_DROP, 0, line, col); emit(c, NV_OP_DROP, 0, line, col); }
            expect(c, T_SEMI);
            return c->fatal;
        }
        if (c->tok == T_LP && s < 0) {
            name_err(c, line, col, "unknown built-in ", name, "");
            c->fatal = 1;
            return 1;
        }
        if (c->tok != T_ASSIGN) {
            syntax(c, "'=' after the name");
            return 1;
        }
        next(c);
        if (s < 0) {
            name_err(c, line, col, "", name, find_const(name) >= 0 ? " is a constant" : " is not declared");
        } else if (c->sym[s].kind == NV_SYM_ARRAY) {
            name_err(c, line, col, "", name, " is a state array: assign one element, name[i] = ...");
            s = -1;
        }
        parse_expr(c);
        if (s >= 0)
            emit(c, c->sym[s].kind == NV_SYM_STATE ? NV_OP_STS : NV_OP_STL, c->sym[s].slot, line, col);
        else
            emit(c, NV_OP_DROP, 0, line, col);
        expect(c, T_SEMI);
        return c->fatal;
    }
    if (t == K_VAR) {
        fatal_at(c, line, col, "'var' declarations come before the first statement", 0, 0);
        return 1;
    }
    if (t == T_EOF) { syntax(c, "'end func;'"); return 1; }
    syntax(c, "a statement");
    return 1;
}

/* `var a, b;` or `state s, h[8];` (the keyword is consumed). */
static void parse_decl(struct nv_compiler *c, uint32_t kind)
{
    for (;;) {
        uint32_t line = c->tline, col = c->tcol, n = 1, sk = kind;
        char name[NV_IDENT_MAX + 1u];
        int k;
        if (c->tok != T_IDENT) { syntax(c, "a name to declare"); return; }
        for (k = 0; c->ttext[k] != '\0'; k++) name[k] = c->ttext[k];
        name[k] = '\0';
        next(c);
        if (kind == NV_SYM_STATE && c->tok == T_LB) {
            next(c);
            if (c->tok != T_NUM) { syntax(c, "the array's length (a number)"); return; }
            n = c->tval;
            if (n < 1u || n > NV_STATE_MAX) {
                fatal_at(c, c->tline, c->tcol, "a state array has 1 to ", NV_STATE_MAX, " words");
                return;
            }
            next(c);
            if (!expect(c, T_RB)) return;
            sk = NV_SYM_ARRAY;
        }
        (void)declare(c, sk, n, line, col, name);
        if (c->fatal) return;
        if (c->tok == T_COMMA) { next(c); continue; }
        expect(c, T_SEMI);
        return;
    }
}

uint32_t nv_compile(struct nv_compiler *c, const char *src, uint32_t len)
{
    struct nv_prog *p = &c->prog;
    p->len = p->nconst = p->nlocals = p->nstate = 0;
    p->verified = 0;
    c->func_line = c->func_col = 1;
    c->nerr = 0;
    c->src = src;
    c->srclen = len;
    c->pos = 0;
    c->cur_line = c->cur_col = 1;
    c->fatal = c->last_ret = c->stmt_mode = c->stmt_void = 0;
    c->nsym = c->nblk = c->nfix = c->nops = 0;
    if (len > NV_SRC_MAX) {
        fatal_at(c, 1, 1, "module source longer than ", NV_SRC_MAX, " bytes");
        return c->nerr;
    }
    next(c);
    while (c->tok == K_STATE && !c->fatal) { next(c); parse_decl(c, NV_SYM_STATE); }
    c->func_line = c->tline;
    c->func_col = c->tcol;
    if (!expect(c, K_FUNC)) return c->nerr;
    if (c->tok != T_IDENT) { syntax(c, "the function's name"); return c->nerr; }
    next(c);
    if (!expect(c, T_LP) || !expect(c, T_RP)) return c->nerr;
    while (c->tok == K_VAR && !c->fatal) { next(c); parse_decl(c, NV_SYM_LOCAL); }
    while (!parse_stmt(c)) { }
    return c->nerr;
}

uint32_t nv_check(struct nv_compiler *c, const char *src, uint32_t len, uint32_t budget,
                  struct nv_reject *r)
{
    struct msgbuf m;
    uint32_t e, line, col;
    r->reason = NV_OK; r->pc = 0; r->value = 0;
    if (nv_compile(c, src, len) != 0u) return c->nerr;
    e = nv_verify(&c->prog, budget, r);
    if (e == NV_OK) return 0;
    if (e == NV_E_BUDGET || e == NV_E_SENDS || e == NV_E_LEN || e == NV_E_TABLES || r->pc >= c->prog.len) {
        line = c->func_line; col = c->func_col;
    } else {
        line = c->line[r->pc]; col = c->col[r->pc];
    }
    m = err_at(c, line, col);
    put_s(&m, "rejected: ");
    switch (e) {
    case NV_E_BUDGET:
        put_s(&m, "worst case "); put_u(&m, r->value);
        put_s(&m, " VM instructions exceeds the budget of "); put_u(&m, budget);
        break;
    case NV_E_SENDS:
        put_s(&m, "up to "); put_u(&m, r->value); put_s(&m, " sends, more than the limit of ");
        put_u(&m, NV_SENDS_MAX);
        break;
    case NV_E_OVERFLOW:
        put_s(&m, "the expression needs "); put_u(&m, r->value);
        put_s(&m, " stack slots, more than "); put_u(&m, NV_STACK_MAX);
        break;
    default:
        put_s(&m, nv_reject_text(e));
        put_s(&m, " (pc "); put_u(&m, r->pc); put_s(&m, ")");
        break;
    }
    return c->nerr;
}
