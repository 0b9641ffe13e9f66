/* hlo_attr: the attribute values the HLO reader reads closely (DESIGN §10):
 * a while's trip count, output_to_operand_aliasing, a custom-call's
 * library target. */
#include "model/hlo_int.h"

#include <string.h>

#include "util/checked.h"
#include "util/vec.h"

/* Where byte pos stands, counted on from a location before it. */
loc_t hlo_loc_at(const hp_t *p, loc_t from, size_t pos)
{
    for (size_t i = from.pos; i < pos && i < p->len; i++)
        if (lex_line_ends(p->s, p->len, i)) {
            from.line++;
            from.line_start = i + 1;
        }
    from.pos = pos;
    return from;
}

/* The value of "known_trip_count":{"n":"N"} in a while's backend_config:
 * *n (1 when absent); a value that is not a whole number is an error. */
int hlo_trip_count(hp_t *p, slice_t v, loc_t kat, int64_t *n)
{
    static const char KEY[] = "known_trip_count";
    const char *s = p->s, *e = p->s + v.off + v.len;
    const char *k = NULL;
    *n = 1;
    for (const char *q = s + v.off; q + sizeof KEY - 1 <= e; q++)
        if (memcmp(q, KEY, sizeof KEY - 1) == 0) {
            k = q + sizeof KEY - 1;
            break;
        }
    if (!k)
        return RS_OK;
    /* XLA writes {"n":"4"}; an older form is a bare number */
    /* (a backend_config printed as a quoted string escapes its quotes) */
    const char *q = k;
    while (q < e && (*q == '"' || *q == '\\' || *q == ':' || *q == ' ' || *q == '{'))
        q++;
    if (q + 1 < e && q[0] == 'n' && (q[1] == '"' || q[1] == '\\'))
        for (q++; q < e && (*q == '"' || *q == '\\' || *q == ':' || *q == ' '); q++)
            ;
    if (q < e && *q == '-')
        return hlo_fail_at(p, hlo_loc_at(p, kat, (size_t)(q - s)), "known_trip_count cannot be negative");
    const char *d = q;
    int64_t x = 0;
    bool ok = true;
    for (; q < e && *q >= '0' && *q <= '9'; q++)
        ok = ok && checked_mul(x, 10, &x) && checked_add(x, *q - '0', &x);
    bool ends = q < e && (*q == '"' || *q == '\\' || *q == '}' || *q == ',' || *q == ' ');
    if (q == d || !ends)
        return hlo_fail_at(p, hlo_loc_at(p, kat, (size_t)(d - s)), "known_trip_count is not a whole number of trips");
    if (!ok)
        return hlo_fail_at(p, hlo_loc_at(p, kat, (size_t)(d - s)), "known_trip_count out of range (more than 63 bits)");
    *n = x;
    return RS_OK;
}

/* output_to_operand_aliasing={{OUT}: (OPERAND, {INDEX}), ...}: each pair
 * whose output index has at most one element, into p->oto. */
int hlo_parse_oto(hp_t *p, ins_t *in, slice_t v)
{
    in->oto_off = p->n_oto;
    size_t i = v.off, e = v.off + v.len;
    while (i < e) {
        /* {OUT}: the output's index */
        while (i < e && p->s[i] != '{')
            i++;
        if (i >= e)
            break;
        i++;
        if (i < e && p->s[i] == '{')
            i++; /* the list's own brace */
        int64_t idx[2];
        int n = 0;
        while (i < e && p->s[i] != '}') {
            if (p->s[i] >= '0' && p->s[i] <= '9') {
                int64_t x = 0;
                while (i < e && p->s[i] >= '0' && p->s[i] <= '9' && x < 1000000000)
                    x = x * 10 + (p->s[i++] - '0');
                if (n < 2)
                    idx[n] = x;
                n++;
            } else
                i++;
        }
        /* (OPERAND, {...}) */
        while (i < e && p->s[i] != '(')
            i++;
        i++;
        while (i < e && p->s[i] == ' ')
            i++;
        int64_t opd = -1;
        while (i < e && p->s[i] >= '0' && p->s[i] <= '9' && opd < 1000000000)
            opd = (opd < 0 ? 0 : opd * 10) + (p->s[i++] - '0');
        while (i < e && p->s[i] != ')')
            i++;
        if (opd < 0 || n > 1)
            continue;
        if (vec_reserve((void **)&p->oto, &p->cap_oto, (int64_t)p->n_oto + 1, sizeof *p->oto))
            return hlo_oom(p);
        p->oto[p->n_oto++] = (oto_pair_t){ n ? (int32_t)idx[0] : -1, (int32_t)opd };
        in->n_oto++;
    }
    return RS_OK;
}

/* custom_call_target="...": the library calls that are pure (§10). */
uint8_t hlo_library_of(const hp_t *p, slice_t v)
{
    if (v.len < 2 || p->s[v.off] != '"')
        return LIB_NONE;
    const char *t = p->s + v.off + 1;
    size_t n = v.len - 2;
    static const char *GEMM[] = { "__cublas$gemm", "__cublas$lt$matmul", "__cublas$lt$matmul$f8" };
    for (size_t k = 0; k < 3; k++)
        if (strlen(GEMM[k]) == n && memcmp(GEMM[k], t, n) == 0)
            return LIB_GEMM;
    static const char CONV[] = "__cudnn$conv";
    if (n < sizeof CONV - 1 || memcmp(t, CONV, sizeof CONV - 1) != 0)
        return LIB_NONE;
    slice_t rest = { v.off + 1 + sizeof CONV - 1, n - (sizeof CONV - 1) };
    if (hlo_slice_is(p, rest, "BackwardInput"))
        return LIB_CONV_BWD_INPUT;
    if (hlo_slice_is(p, rest, "BackwardFilter"))
        return LIB_CONV_BWD_FILTER;
    return LIB_CONV_FWD;
}

