/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/cmd-guest-check.c: `rtvirt guest check DOMAIN|FILE.xml|- ...
 * [--root DIR] [--uri URI] [--json]`: judge libvirt domains, running or
 * from their XML, with guest/check.h.
 *
 * Where the facts come from:
 *  - DOMAIN on the live host: libvirt (the connection rules of `guest
 *    run`: --uri, else $RTVIRT_LIBVIRT_URI, else qemu:///system) gives the
 *    live XML (virDomainGetXMLDesc()) and the vCPU thread ids (QMP
 *    query-cpus-fast); the other running domains are its neighbours;
 *  - DOMAIN on a capture (--root DIR of `rtvirt host capture`): the libvirt
 *    status file DIR/run/libvirt/qemu/DOMAIN.xml with the QEMU pid and the
 *    vCPU thread ids, the other status files there as neighbours;
 *  - FILE.xml or - (stdin): the XML; on a capture whose status files hold
 *    a running domain of that <name>, its threads are judged too.
 * Several arguments are judged together: each is the others' neighbour.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "guest/check.h"
#include "guest/libvirt.h"
#include "harness/cmd-common.h"
#include "harness/commands.h"
#include "harness/log.h"
#include "util/error.h"
#include "util/file.h"
#include "util/finding.h"
#include "util/json.h"

static char *arg_uri;

typedef struct {
    RvGuestDomain *dom;
    bool running;
    int qemu_pid;
    GArray *tids;           /* int per vCPU */
    RvGuestCheckReport *rep;
} Target;

static void
target_free(Target *t)
{
    if (!t)
        return;
    rv_guest_domain_free(t->dom);
    if (t->tids)
        g_array_unref(t->tids);
    rv_guest_check_report_free(t->rep);
    g_free(t);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Target, target_free)

typedef struct {
    RvRoot *root;
    bool live;
    virConnectPtr conn;     /* opened on the first DOMAIN of the live host */
    GPtrArray *targets;     /* Target* */
    GPtrArray *others;      /* RvGuestDomain*: running, not named on the command line */
} Ctx;

static bool
is_file_arg(const char *a)
{
    return strcmp(a, "-") == 0 || g_str_has_suffix(a, ".xml") || strchr(a, '/') ||
           g_file_test(a, G_FILE_TEST_IS_REGULAR);
}

/* vCPU thread ids from their names ("CPU 3/KVM", "CPU 3/TCG": QEMU's
 * debug-threads=on, which libvirt sets), for a status file without
 * <vcpus>. */
static GArray *
tids_by_comm(RvRoot *root, int pid, unsigned n_vcpus)
{
    g_autofree char *dir = g_strdup_printf("/proc/%d/task", pid);
    g_autoptr(GPtrArray) tasks = NULL;
    g_autoptr(GArray) tids = g_array_new(FALSE, TRUE, sizeof(int));

    g_array_set_size(tids, n_vcpus);
    if (rv_host_root_list(root, dir, &tasks, NULL) < 0)
        return NULL;
    for (guint i = 0; i < tasks->len; i++) {
        g_autofree char *path = g_strdup_printf("/proc/%d/task/%s/stat", pid, (char *) tasks->pdata[i]);
        g_autofree char *stat = NULL;
        const char *open;
        unsigned v;

        if (rv_host_root_read(root, path, &stat, NULL) < 0 || !(open = strchr(stat, '(')))
            continue;
        if (sscanf(open, "(CPU %u/", &v) == 1 && v < n_vcpus)
            g_array_index(tids, int, v) = atoi(tasks->pdata[i]);
    }
    for (guint i = 0; i < tids->len; i++)
        if (g_array_index(tids, int, i) <= 0)
            return NULL;
    return g_steal_pointer(&tids);
}

/* A domain in the capture's libvirt status files: 1 found, 0 not there. */
static int
load_status(Ctx *c, const char *name, Target *t, GError **error)
{
    g_autofree char *path = g_strdup_printf("/run/libvirt/qemu/%s.xml", name);
    g_autofree char *xml = NULL, *source = NULL, *pidtext = NULL, *pidpath = NULL;
    g_autoptr(RvGuestDomain) dom = NULL;
    guint64 pid = 0;
    int r;

    if (strchr(name, '/') || name[0] == '.' || !*name)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL, "invalid domain name '%s'", name);
    if (rv_host_root_read(c->root, path, &xml, NULL) < 0)
        return 0;
    source = g_strdup_printf("%s%s", rv_host_root_path(c->root), path);
    if ((r = rv_guest_domain_load(xml, source, &dom, error)) < 0)
        return r;
    pidpath = g_strdup_printf("/run/libvirt/qemu/%s.pid", name);
    if (dom->status_pid > 0)
        pid = (guint64) dom->status_pid;
    else if (rv_host_root_read(c->root, pidpath, &pidtext, NULL) >= 0)
        g_ascii_string_to_unsigned(g_strstrip(pidtext), 10, 1, G_MAXINT, &pid, NULL);
    if (pid > 0) {
        t->qemu_pid = (int) pid;
        t->tids = dom->status_tids ? g_array_ref(dom->status_tids)
                                   : tids_by_comm(c->root, t->qemu_pid, dom->placement->n_vcpus);
        t->running = t->tids != NULL;
        if (t->running && t->dom && t->tids->len != t->dom->placement->n_vcpus) {
            /* not the same domain: the file's own vCPUs decide */
            g_clear_pointer(&t->tids, g_array_unref);
            t->running = false;
        }
    }
    if (!t->dom)
        t->dom = g_steal_pointer(&dom);
    return 1;
}

/* A running domain through libvirt. */
static int
load_libvirt(Ctx *c, const char *name, Target *t, GError **error)
{
    g_autoptr(virDomain) dom = NULL;
    g_autofree char *xml = NULL, *source = NULL;
    int r;

    if (!c->conn && (r = rv_guest_libvirt_connect(arg_uri, &c->conn, error)) < 0)
        return r;
    dom = virDomainLookupByName(c->conn, name);
    if (!dom)
        return rv_guest_libvirt_error(error, ENOENT, "No domain '%s' on '%s'", name,
                                      rv_guest_libvirt_uri(arg_uri));
    if (virDomainIsActive(dom) != 1)
        return rv_error_set(error, RV_ERROR_INVALID, ESRCH,
                            "Domain '%s' is not running: give its XML file to judge it statically", name);
    xml = virDomainGetXMLDesc(dom, 0);
    if (!xml)
        return rv_guest_libvirt_error(error, EIO, "Failed to get the XML of domain '%s'", name);
    source = g_strdup_printf("domain %s", name);
    if ((r = rv_guest_domain_load(xml, source, &t->dom, error)) < 0)
        return r;
    if ((r = rv_guest_libvirt_vcpu_tids(dom, &t->tids, error)) < 0)
        return r;
    t->running = true;
    t->qemu_pid = 0;   /* from the vCPU threads' Tgid (guest/verify.h) */
    return 0;
}

static int
load_target(Ctx *c, const char *arg, GError **error)
{
    g_autoptr(Target) t = g_new0(Target, 1);
    int r;

    if (is_file_arg(arg)) {
        g_autofree char *xml = NULL;
        const char *name = strcmp(arg, "-") == 0 ? "<stdin>" : arg;
        gssize n = strcmp(arg, "-") == 0
                       ? rv_file_read_fd(STDIN_FILENO, name, RV_FILE_READ_MAX, &xml, error)
                       : rv_file_read(arg, RV_FILE_READ_MAX, &xml, error);

        if (n < 0)
            return (int) n;
        if ((r = rv_guest_domain_load(xml, name, &t->dom, error)) < 0)
            return r;
        /* a capture that shows this domain running: its threads too */
        if (!c->live && t->dom->name && !strchr(t->dom->name, '/') && t->dom->name[0] != '.' &&
            (r = load_status(c, t->dom->name, t, error)) < 0)
            return r;
    } else if (c->live) {
        if ((r = load_libvirt(c, arg, t, error)) < 0)
            return r;
    } else {
        if ((r = load_status(c, arg, t, error)) < 0)
            return r;
        if (r == 0)
            return rv_error_set(error, RV_ERROR_INVALID, ENOENT,
                                "No running domain '%s' in %s/run/libvirt/qemu (captured with `rtvirt host capture`?)",
                                arg, rv_host_root_path(c->root));
    }
    g_ptr_array_add(c->targets, g_steal_pointer(&t));
    return 0;
}

static bool
named(const Ctx *c, const char *name)
{
    for (guint i = 0; name && i < c->targets->len; i++) {
        const RvGuestDomain *d = ((Target *) c->targets->pdata[i])->dom;

        if (d->name && strcmp(d->name, name) == 0)
            return true;
    }
    return false;
}

/* The running domains not named: the neighbours of every target.  Best
 * effort: a domain that cannot be read is left out with a NOTE. */
static void
load_others(Ctx *c)
{
    if (c->live && c->conn) {
        virDomainPtr *doms = NULL;
        int n = virConnectListAllDomains(c->conn, &doms, VIR_CONNECT_LIST_DOMAINS_ACTIVE);

        for (int i = 0; i < n; i++) {
            g_autofree char *xml = NULL, *source = NULL;
            const char *name = virDomainGetName(doms[i]);
            RvGuestDomain *d = NULL;
            g_autoptr(GError) err = NULL;

            if (name && !named(c, name) && (xml = virDomainGetXMLDesc(doms[i], 0))) {
                source = g_strdup_printf("domain %s", name);
                if (rv_guest_domain_load(xml, source, &d, &err) == 0)
                    g_ptr_array_add(c->others, d);
                else
                    rv_log_info("NOTE neighbour %s left out: %s", source, err->message);
            }
            virDomainFree(doms[i]);
        }
        free(doms);
    } else if (!c->live) {
        g_autoptr(GPtrArray) names = NULL;

        if (rv_host_root_list(c->root, "/run/libvirt/qemu", &names, NULL) < 0)
            return;
        for (guint i = 0; i < names->len; i++) {
            const char *n = names->pdata[i];
            g_autofree char *base = NULL;
            g_autoptr(Target) t = NULL;
            g_autoptr(GError) err = NULL;

            if (!g_str_has_suffix(n, ".xml"))
                continue;
            base = g_strndup(n, strlen(n) - 4);
            if (named(c, base))
                continue;
            t = g_new0(Target, 1);
            if (load_status(c, base, t, &err) == 1 && t->dom)
                g_ptr_array_add(c->others, g_steal_pointer(&t->dom));
            else if (err)
                rv_log_info("NOTE neighbour %s left out: %s", base, err->message);
        }
    }
}

static int
judge_all(Ctx *c, const RvGuestHostCpus *host, GError **error)
{
    for (guint i = 0; i < c->targets->len; i++) {
        Target *t = c->targets->pdata[i];
        g_autoptr(GPtrArray) nb = g_ptr_array_new();
        RvGuestLive live = { .root = c->root, .qemu_pid = t->qemu_pid };
        int r;

        for (guint k = 0; k < c->targets->len; k++)
            if (k != i)
                g_ptr_array_add(nb, ((Target *) c->targets->pdata[k])->dom);
        for (guint k = 0; k < c->others->len; k++)
            g_ptr_array_add(nb, c->others->pdata[k]);
        if (t->running) {
            live.vcpu_tids = (const int *) t->tids->data;
            live.n_tids = t->tids->len;
            live.where = c->live ? "this host" : rv_host_root_path(c->root);
        }
        r = rv_guest_check_judge(t->dom, host, nb, t->running ? &live : NULL, &t->rep, error);
        if (r < 0)
            return r;
    }
    return 0;
}

static void
print_text(const Ctx *c)
{
    for (guint i = 0; i < c->targets->len; i++) {
        const Target *t = c->targets->pdata[i];
        g_autofree char *text = rv_guest_check_format(t->rep);
        g_autofree char *pid = t->rep->qemu_pid > 0 ? g_strdup_printf(", QEMU pid %d", t->rep->qemu_pid)
                                                    : g_strdup("");

        printf("%sGuest check: %s%s%s on %s%s: %s\n", i ? "\n" : "", t->dom->source,
               t->dom->name && !strstr(t->dom->source, t->dom->name) ? " domain " : "",
               t->dom->name && !strstr(t->dom->source, t->dom->name) ? t->dom->name : "",
               c->live ? "this host" : rv_host_root_path(c->root), pid,
               t->running ? "XML and live threads" : "XML only (not running there)");
        fputs(text, stdout);
    }
}

static int
print_json(const Ctx *c)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    g_autoptr(JsonNode) node = NULL;
    RvFindingLevel worst = RV_FINDING_PASS;

    rv_cmd_json_begin(b, RV_GUEST_CHECK_SCHEMA_VERSION);
    rv_json_add_string_or_null(b, "root", rv_host_root_path(c->root));
    rv_json_add_bool(b, "live", c->live);
    for (guint i = 0; i < c->targets->len; i++)
        worst = MAX(worst, rv_findings_worst(((Target *) c->targets->pdata[i])->rep->findings));
    rv_json_add_string_or_null(b, "verdict", rv_finding_level_name(worst));
    json_builder_set_member_name(b, "domains");
    json_builder_begin_array(b);
    for (guint i = 0; i < c->targets->len; i++) {
        const Target *t = c->targets->pdata[i];

        json_builder_begin_object(b);
        rv_json_add_string_or_null(b, "domain", t->dom->source);
        rv_json_add_string_or_null(b, "name", t->dom->name);
        rv_json_add_bool(b, "running", t->running);
        json_builder_set_member_name(b, "qemu_pid");
        if (t->rep->qemu_pid > 0)
            json_builder_add_int_value(b, t->rep->qemu_pid);
        else
            json_builder_add_null_value(b);
        rv_guest_check_findings_to_json(b, t->rep);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_end_object(b);
    node = json_builder_get_root(b);
    return rv_cmd_print_json(node) < 0 ? RV_EXIT_ERROR : RV_EXIT_OK;
}

static const RvCmdSpec guest_check_spec = {
    .params = "DOMAIN|FILE.xml|-... - judge libvirt domains: XML and live threads",
    .description =
        "DOMAIN is a running libvirt domain (on the live host through libvirt; with\n"
        "--root DIR from the status files `rtvirt host capture` keeps); FILE.xml or -\n"
        "(stdin) a domain XML.  Judged: <cputune> and <topology> as `guest xml --check`,\n"
        "the neighbour domains' vCPUs on the RT vCPUs' CPUs and SMT siblings, and for a\n"
        "running domain every 'CPU n/KVM' thread's policy, priority and affinity, the\n"
        "emulator and I/O threads, the kvm-pit/PID and vhost-PID threads, locked memory\n"
        "and hugepages.  Several arguments are judged together.\n"
        "--json prints {schema_version, root, live, verdict, domains: [{domain, name,\n"
        "running, qemu_pid, verdict, summary, failures, findings: [{level, id, message,\n"
        "fix, cpus, expected, actual}]}]}.",
    .exit_status = "0 no FAIL, 1 a FAIL, 2 bad input (no such domain, bad XML).",
    .common = RV_COMMON_JSON | RV_COMMON_ROOT,
    .root_help = "Judge against a captured host (`rtvirt host capture DIR`) instead of this one",
};

int
rv_cmd_guest_check(int argc, char **argv)
{
    const GOptionEntry entries[] = {
        { "uri", 0, 0, G_OPTION_ARG_STRING, &arg_uri,
          "libvirt URI (default $RTVIRT_LIBVIRT_URI, else qemu:///system)", "URI" },
        { NULL },
    };
    g_autoptr(GError) error = NULL;
    g_autoptr(RvRoot) root = NULL;
    g_autoptr(RvGuestHostCpus) host = NULL;
    g_autoptr(GPtrArray) targets = g_ptr_array_new_with_free_func((GDestroyNotify) target_free);
    g_autoptr(GPtrArray) others = g_ptr_array_new_with_free_func((GDestroyNotify) rv_guest_domain_free);
    g_autoptr(virConnect) conn = NULL;
    Ctx c = { .targets = targets, .others = others };
    int rc = RV_EXIT_OK;

    if (rv_cmd_parse(&guest_check_spec, entries, &argc, &argv) < 0)
        return RV_EXIT_ERROR;
    if (argc < 2) {
        rv_log_error("%s: expected a domain name or a domain XML file (- for stdin); see --help",
                     argv[0]);
        return RV_EXIT_ERROR;
    }
    if (rv_host_root_open(rv_cmd_common.root, &root, &error) < 0)
        return rv_log_gerror(error, "Failed to open the host root");
    c.root = root;
    c.live = rv_host_root_is_live(root);
    if (rv_guest_host_cpus_from_root(root, &host, &error) < 0)
        return rv_log_gerror(error, "Failed to read the host CPUs");
    rv_guest_host_memory_load(root, host);
    for (int i = 1; i < argc; i++) {
        int r = load_target(&c, argv[i], &error);

        conn = c.conn;   /* closed at the end, whoever opened it */
        if (r < 0)
            return rv_log_gerror(error, "Failed to read the domain");
    }
    load_others(&c);
    if (judge_all(&c, host, &error) < 0)
        return rv_log_gerror(error, "Failed to read the domain's threads (did it stop?)");
    if (rv_cmd_common.json) {
        if (print_json(&c) != RV_EXIT_OK)
            return RV_EXIT_ERROR;
    } else {
        print_text(&c);
    }
    if (fflush(stdout) != 0) {
        rv_log_error("Failed to write the report: %s", g_strerror(errno));
        return RV_EXIT_ERROR;
    }
    for (guint i = 0; i < targets->len; i++)
        if (((Target *) targets->pdata[i])->rep->findings->counts[RV_FINDING_FAIL])
            rc = RV_EXIT_CHECK;
    return rc;
}
