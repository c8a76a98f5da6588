/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/tuned/tuned-expand.c: tuned's ${NAME} variables and ${f:FUNC:ARGS}
 * built-in functions, as tuned/profiles/variables.py and
 * functions/functions.py evaluate them (the parse of functions.py is
 * followed step by step: a stack of "${" positions, a function evaluated at
 * its closing '}', so inner calls first).  The functions read the host
 * through the root (tuned reads /sys/devices/system/cpu and /proc/cpuinfo);
 * the ones that run programs (exec, virt_check) are not run.
 */
#include <errno.h>
#include <string.h>

#include "host/tuned/tuned-priv.h"
#include "util/error.h"

void
rv_tuned_expand_init(RvTunedExpand *x, RvRoot *root, const RvTopology *topo,
                     RvHostProfile *profile)
{
    memset(x, 0, sizeof(*x));
    x->root = root;
    x->topo = topo;
    x->profile = profile;
    x->vars = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
}

void
rv_tuned_expand_clear(RvTunedExpand *x)
{
    g_clear_pointer(&x->vars, g_hash_table_unref);
    g_clear_pointer(&x->cpuinfo, g_free);
    g_clear_error(&x->error);
}

/* ---- cpulists as tuned writes them (tuned/utils/commands.py) ------------- */

void
rv_tuned_cpulist_unpack(const char *s, RvCpuSet *ret)
{
    g_autofree char *str = g_strdup(s ? s : "");
    g_auto(GStrv) items = NULL;
    RvCpuSet neg;
    GString *hex = NULL;

    rv_cpuset_zero(ret);
    rv_cpuset_zero(&neg);
    g_strstrip(str);
    g_strdelimit(str, "'\"", ' ');
    g_strstrip(str);
    items = g_strsplit(str, ",", -1);
    for (int i = 0; items[i]; i++) {
        char *v = g_strstrip(items[i]);
        bool negate = v[0] == '^' || v[0] == '!';
        gint64 a, b;
        char *dash;

        /* a hex mask goes on over commas until an empty item */
        if (hex) {
            if (!*v) {
                RvCpuSet m;

                if (rv_cpumask_parse(hex->str, &m, NULL) == 0)
                    rv_cpuset_or(ret, ret, &m);
                g_string_free(hex, TRUE);
                hex = NULL;
            } else {
                g_string_append_printf(hex, ",%s", v);
            }
            continue;
        }
        if (g_ascii_strncasecmp(v, "0x", 2) == 0) {
            hex = g_string_new(v + 2);
            continue;
        }
        if (!*v)
            continue;
        if (negate)
            v++;
        dash = strchr(v, '-');
        if (dash)
            *dash = '\0';
        if (!g_ascii_string_to_signed(v, 10, 0, RV_CPUSET_MAX - 1, &a, NULL) ||
            (dash && !g_ascii_string_to_signed(dash + 1, 10, 0, RV_CPUSET_MAX - 1, &b, NULL))) {
            rv_cpuset_zero(ret);   /* tuned: ValueError -> [] */
            if (hex)
                g_string_free(hex, TRUE);
            return;
        }
        if (!dash)
            b = a;
        if (a <= b)
            rv_cpuset_set_range(negate ? &neg : ret, (unsigned) a, (unsigned) b);
    }
    if (hex) {
        RvCpuSet m;

        if (rv_cpumask_parse(hex->str, &m, NULL) == 0)
            rv_cpuset_or(ret, ret, &m);
        g_string_free(hex, TRUE);
    }
    rv_cpuset_andnot(ret, ret, &neg);
}

/* "1,2,3": tuned joins unpacked lists with commas, no ranges */
static char *
join_cpus(const RvCpuSet *s)
{
    GString *out = g_string_new(NULL);

    rv_cpuset_foreach(cpu, s)
        g_string_append_printf(out, "%s%d", out->len ? "," : "", cpu);
    return g_string_free(out, FALSE);
}

/* cpulist2hex(): "%x" zero-filled to 8-digit words, comma-separated */
static char *
hex_cpus(const RvCpuSet *s)
{
    int last = rv_cpuset_last(s);

    return rv_cpumask_format(s, last < 0 ? 32 : (unsigned) last + 1);
}

static void
args_cpus(char **args, const char *sep, RvCpuSet *ret)
{
    g_autofree char *j = g_strjoinv(sep, args);

    rv_tuned_cpulist_unpack(j, ret);
}

/* ---- the functions -------------------------------------------------------- */

static void
note(RvTunedExpand *x, const char *fmt, const char *arg)
{
    if (x->profile)
        rv_host_profile_add_note(x->profile, "tuned.unmapped", x->file, x->line, fmt, arg);
}

static char *
fn_calc_isolated_cores(RvTunedExpand *x, char **args)
{
    gint64 reserve = 1;
    RvCpuSet iso;

    if (args[0] && !g_ascii_string_to_signed(args[0], 10, 0, G_MAXINT32, &reserve, NULL)) {
        note(x, "calc_isolated_cores: invalid argument '%s' (tuned: a non-negative integer); "
                "left unexpanded", args[0]);
        return NULL;
    }
    /* per physical_package_id, the online CPUs sorted, the first N kept */
    rv_cpuset_zero(&iso);
    for (guint i = 0; i < x->topo->packages->len; i++) {
        const RvCpuGroup *g = &g_array_index(x->topo->packages, RvCpuGroup, i);
        RvCpuSet on;
        gint64 n = 0;

        rv_cpuset_and(&on, &g->cpus, &x->topo->online);
        rv_cpuset_foreach(cpu, &on)
            if (n++ >= reserve)
                rv_cpuset_set(&iso, (unsigned) cpu);
    }
    return join_cpus(&iso);
}

static bool
fn_bad_args(RvTunedExpand *x, const char *name, guint n, guint min, guint max)
{
    if (n < min || (max && n > max)) {
        note(x, "%s: wrong number of arguments; left unexpanded as tuned does", name);
        return true;
    }
    return false;
}

static char *
fn_assert(RvTunedExpand *x, char **args, bool equal)
{
    if (fn_bad_args(x, equal ? "assertion" : "assertion_non_equal", g_strv_length(args), 3, 3))
        return NULL;
    if ((strcmp(args[1], args[2]) == 0) != equal && !x->error)
        rv_error_set(&x->error, RV_ERROR_INVALID, EINVAL,
                     "%s:%u: tuned assertion '%s' failed ('%s' %s '%s'): tuned would refuse "
                     "this profile%s", x->file, x->line, args[0], args[1], equal ? "!=" : "==",
                     args[2],
                     strstr(args[0], "isolated_cores") && !equal
                         ? " (set isolated_cores in the profile's *-variables.conf)" : "");
    return g_strdup("");
}

static char *
fn_regex_ternary(RvTunedExpand *x, char **args)
{
    g_autoptr(GRegex) re = NULL;
    g_autoptr(GError) err = NULL;

    if (fn_bad_args(x, "regex_search_ternary", g_strv_length(args), 4, 4))
        return NULL;
    re = g_regex_new(args[1], 0, 0, &err);
    if (!re) {
        note(x, "regex_search_ternary: the regex '%s' is not valid here; left unexpanded",
             args[1]);
        return NULL;
    }
    return g_strdup(g_regex_match(re, args[0], 0, NULL) ? args[2] : args[3]);
}

static char *
fn_cpuinfo_check(RvTunedExpand *x, char **args)
{
    guint n = g_strv_length(args);

    if (fn_bad_args(x, "cpuinfo_check", n, 2, 0))
        return NULL;
    if (!x->cpuinfo && rv_host_root_read_value(x->root, "/proc/cpuinfo", &x->cpuinfo, NULL) < 0)
        x->cpuinfo = g_strdup("");
    for (guint i = 0; i + 1 < n; i += 2) {
        g_autoptr(GRegex) re = g_regex_new(args[i], G_REGEX_MULTILINE, 0, NULL);

        if (re && g_regex_match(re, x->cpuinfo, 0, NULL))
            return g_strdup(args[i + 1]);
    }
    return g_strdup(n % 2 ? args[n - 1] : "");
}

/* One function call; NULL leaves its text as it is (tuned: s is None). */
static char *
call(RvTunedExpand *x, const char *name, char **args)
{
    RvCpuSet s, o;

    if (strcmp(name, "assertion") == 0 || strcmp(name, "assertion_non_equal") == 0)
        return fn_assert(x, args, strcmp(name, "assertion") == 0);
    if (strcmp(name, "calc_isolated_cores") == 0)
        return fn_calc_isolated_cores(x, args);
    if (strcmp(name, "regex_search_ternary") == 0)
        return fn_regex_ternary(x, args);
    if (strcmp(name, "cpuinfo_check") == 0)
        return fn_cpuinfo_check(x, args);
    if (strcmp(name, "strip") == 0) {
        g_autofree char *j = g_strjoinv("", args);

        return g_strdup(g_strstrip(j));
    }
    if (strcmp(name, "cpulist_unpack") == 0 || strcmp(name, "cpulist_pack") == 0 ||
        strcmp(name, "cpulist_invert") == 0 || strcmp(name, "cpulist2hex") == 0 ||
        strcmp(name, "cpulist2hex_invert") == 0) {
        args_cpus(args, ",,", &s);
        if (strstr(name, "invert"))
            rv_cpuset_andnot(&s, &x->topo->online, &s);
        if (strstr(name, "hex"))
            return hex_cpus(&s);
        return strcmp(name, "cpulist_pack") == 0 ? rv_cpulist_format(&s) : join_cpus(&s);
    }
    if (strcmp(name, "cpulist_online") == 0 || strcmp(name, "cpulist_present") == 0) {
        args_cpus(args, ",", &s);
        o = strcmp(name, "cpulist_online") == 0 ? x->topo->online : x->topo->present;
        rv_cpuset_and(&s, &s, &o);
        return join_cpus(&s);
    }
    if (strcmp(name, "hex2cpulist") == 0) {
        g_autofree char *j = g_strjoinv(",", args);
        const char *h = g_ascii_strncasecmp(j, "0x", 2) == 0 ? j + 2 : j;

        if (rv_cpumask_parse(h, &s, NULL) < 0)
            rv_cpuset_zero(&s);
        return join_cpus(&s);
    }
    if (strcmp(name, "exec") == 0 || strcmp(name, "virt_check") == 0) {
        note(x, "${f:%s:...} runs a program in tuned; rtvirt does not run it and leaves the "
                "text unexpanded", name);
        return NULL;
    }
    note(x, "the tuned function '%s' is not known to rtvirt; left unexpanded", name);
    return NULL;
}

/* functions.py _process_func(): the text between "${" and '}' */
static void
process_func(RvTunedExpand *x, GString *str, gsize from, gsize *cnt)
{
    g_autofree char *text = g_strndup(str->str + from, *cnt - from);
    g_auto(GStrv) sl = g_regex_split_simple("(?<!\\\\):", text, 0, 0);
    g_autofree char *res = NULL;
    guint n = g_strv_length(sl);

    if (n < 2 || strcmp(sl[0], "${f") != 0)
        return;
    for (guint i = 0; i < n; i++) {
        g_autoptr(GString) u = g_string_new(NULL);

        for (const char *c = sl[i]; *c; c++) {
            if (c[0] == '\\' && c[1] == ':')
                continue;
            g_string_append_c(u, *c);
        }
        g_free(sl[i]);
        sl[i] = g_string_free(g_steal_pointer(&u), FALSE);
    }
    if (!g_regex_match_simple("^\\w+$", sl[1], 0, 0))
        return;
    res = call(x, sl[1], sl + 2);
    if (!res)
        return;
    /* _sub(from, cnt, res): str[from..cnt] inclusive becomes res; the
     * scan goes on at from + len(res) - 1, clamped at 0 */
    g_string_erase(str, (gssize) from, (gssize) (*cnt - from + 1));
    g_string_insert(str, (gssize) from, res);
    *cnt = from + strlen(res) ? from + strlen(res) - 1 : 0;
}

static char *
expand_functions(RvTunedExpand *x, const char *value)
{
    GString *str = g_string_new(value);
    g_autoptr(GArray) stack = g_array_new(FALSE, FALSE, sizeof(gsize) * 2);
    g_autoptr(GRegex) unesc = g_regex_new("\\\\(\\$\\{f:.*\\})", 0, 0, NULL);
    g_autofree char *tmp = NULL;
    bool esc = false;

    for (gsize cnt = 0; cnt < str->len && !x->error; cnt++) {
        if (str->str[cnt] == '}') {
            gsize e[2];

            if (stack->len == 0)
                break;    /* tuned: "non pair '}'", keeps what it has */
            memcpy(e, &g_array_index(stack, gsize, (stack->len - 1) * 2), sizeof(e));
            g_array_set_size(stack, stack->len - 1);
            if (!e[0])
                process_func(x, str, e[1], &cnt);
        } else if (str->str[cnt] == '$' && str->str[cnt + 1] == '{') {
            gsize e[2] = { esc, cnt };

            g_array_append_vals(stack, e, 1);
        }
        esc = cnt < str->len && str->str[cnt] == '\\';
    }
    tmp = g_string_free(str, FALSE);
    return g_regex_replace(unesc, tmp, -1, 0, "\\1", 0, NULL);
}

/* variables.py expand_static(): every ${NAME} known (not after '\') in one
 * pass, then \${NAME} -> ${NAME} */
static char *
expand_static(RvTunedExpand *x, const char *value)
{
    g_autoptr(GString) s = g_string_new(NULL);
    g_autoptr(GRegex) unesc = g_regex_new("\\\\(\\$\\{\\w+\\})", 0, 0, NULL);

    for (const char *c = value; *c;) {
        if (c[0] == '$' && c[1] == '{' && (c == value || c[-1] != '\\')) {
            const char *e = c + 2;

            while (g_ascii_isalnum(*e) || *e == '_')
                e++;
            if (*e == '}' && e > c + 2) {
                g_autofree char *name = g_strndup(c + 2, (gsize) (e - c - 2));
                const char *v = g_hash_table_lookup(x->vars, name);

                if (v) {
                    g_string_append(s, v);
                    c = e + 1;
                    continue;
                }
            }
        }
        g_string_append_c(s, *c++);
    }
    return g_regex_replace(unesc, s->str, -1, 0, "\\1", 0, NULL);
}

char *
rv_tuned_expand(RvTunedExpand *x, const char *value)
{
    g_autofree char *st = NULL;
    char *out;

    if (!value)
        return NULL;
    st = expand_static(x, value);
    out = *st ? expand_functions(x, st) : g_strdup(st);
    if (x->error) {
        g_free(out);
        return NULL;
    }
    return out;
}

int
rv_tuned_add_variable(RvTunedExpand *x, const char *name, const char *value, const char *file,
                      unsigned line)
{
    char *v;

    if (!value)
        return 0;
    x->file = file;
    x->line = line;
    if (!g_regex_match_simple("^\\w+$", name, 0, 0)) {
        if (x->profile)
            rv_host_profile_add_note(x->profile, "tuned.unmapped", file, line,
                                     "variable name '%s' has characters other than letters, "
                                     "digits and '_': tuned skips it", name);
        return 0;
    }
    v = rv_tuned_expand(x, value);
    if (!v)
        return -EINVAL;
    g_hash_table_replace(x->vars, g_strdup(name), v);
    return 0;
}
