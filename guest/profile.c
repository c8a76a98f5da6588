/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guest/profile.c: guest profiles (format in guest/profile.h).
 */
#include <errno.h>
#include <string.h>

#include "guest/image.h"
#include "guest/profile.h"
#include "util/error.h"

/* Guest vCPU ids are bounded by <vcpu> (libvirt accepts more, but a cpulist
 * of vCPUs beyond a few hundred is no RT guest). */
#define RV_GUEST_VCPUS_MAX 1024

void
rv_guest_profile_free(RvGuestProfile *profile)
{
    if (!profile)
        return;
    g_free(profile->name);
    g_free(profile->path);
    g_free(profile->description);
    g_free(profile->rt_vcpus_spec);
    g_free(profile->cpu_model);
    g_free(profile->cmdline);
    g_free(profile->disk_path);
    g_free(profile->disk_format);
    g_strfreev(profile->disk_allow);
    g_strfreev(profile->image_packages);
    g_free(profile->base_image);
    g_free(profile->tpcc_scale);
    g_strfreev(profile->ct_extra_args);
    g_free(profile);
}

int
rv_guest_profile_parse_rt_mask(const char *spec, unsigned vcpus, RvCpuSet *ret,
                               GError **error)
{
    g_autofree char *s = g_strstrip(g_strdup(spec));
    RvCpuSet set, list;
    bool exclude = false;
    const char *p = s;
    int r;

    rv_cpuset_zero(&set);
    if (strcmp(s, "none") == 0) {
        *ret = set;
        return 0;
    }
    if (strcmp(s, "all") == 0) {
        rv_cpuset_set_range(&set, 0, vcpus - 1);
        *ret = set;
        return 0;
    }
    if (*p == '^') {
        exclude = true;
        p++;
    }
    if (!*p)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "invalid RT vCPU mask '%s': empty list", spec);
    r = rv_cpulist_parse(p, vcpus, &list, NULL);
    if (r < 0)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "invalid RT vCPU mask '%s': %s", spec,
                            r == -ERANGE ? "names a vCPU beyond the guest's vcpus"
                                         : "expected '^LIST', a cpulist of vCPU ids, 'all' or 'none'");
    if (rv_cpuset_last(&list) >= (int) vcpus)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "invalid RT vCPU mask '%s': vCPU %d does not exist (vcpus = %u)",
                            spec, rv_cpuset_last(&list), vcpus);
    if (exclude) {
        RvCpuSet all;

        rv_cpuset_zero(&all);
        rv_cpuset_set_range(&all, 0, vcpus - 1);
        rv_cpuset_andnot(&set, &all, &list);
    } else {
        set = list;
    }
    *ret = set;
    return 0;
}

static char *
profile_base_name(const char *path)
{
    g_autofree char *base = g_path_get_basename(path);
    size_t n = strlen(base);

    if (n > 4 && g_str_has_suffix(base, ".ini"))
        base[n - 4] = '\0';
    return g_steal_pointer(&base);
}

bool
rv_guest_profile_name_valid(const char *name)
{
    if (!*name || strlen(name) > 64)
        return false;
    for (const char *p = name; *p; p++)
        if (!g_ascii_isalnum(*p) && !strchr("_.-", *p))
            return false;
    return true;
}

static const char * const emulator_words[] = { "housekeeping", "nonrt-vcpus", NULL };
static const char * const sibling_words[] = { "idle", "use", NULL };
static const char * const mode_words[] = { "host-passthrough", "host-model", "custom", NULL };
static const char * const image_words[] = { "embedded", "disk", NULL };
static const char * const format_words[] = { "qcow2", "raw", NULL };
static const char * const scale_words[] = { "small", "standard", NULL };

static int
load_cpu(RvIni *ini, RvGuestProfile *p, GError **error)
{
    const RvIniEntry *e;
    gint64 v;
    int r, idx;

    e = rv_ini_lookup(ini, "cpu", "vcpus");
    if (!e)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: missing key 'vcpus' in [cpu]", p->path);
    v = 0;
    r = rv_ini_get_int(ini, "cpu", "vcpus", 1, RV_GUEST_VCPUS_MAX, &v, error);
    if (r < 0)
        return r;
    p->vcpus = (unsigned) v;

    v = 1;
    r = rv_ini_get_int(ini, "cpu", "threads_per_core", 1, 8, &v, error);
    if (r < 0)
        return r;
    p->threads_per_core = (unsigned) v;
    if (p->vcpus % p->threads_per_core != 0) {
        e = rv_ini_lookup(ini, "cpu", "threads_per_core");
        return rv_ini_entry_error(e, error,
                                  "invalid threads_per_core '%s' in [cpu]: vcpus = %u is not a multiple of it",
                                  e->value, p->vcpus);
    }

    e = rv_ini_lookup(ini, "cpu", "rt_vcpus");
    p->rt_vcpus_spec = g_strdup(e ? e->value : "^0");
    if (e || p->vcpus > 1) {
        r = rv_guest_profile_parse_rt_mask(p->rt_vcpus_spec, p->vcpus, &p->rt_vcpus, error);
        if (r < 0) {
            if (e)
                g_prefix_error(error, "%s:%u: ", e->file, e->line);
            else
                g_prefix_error(error, "%s: ", p->path);
            return r;
        }
    } else {
        /* one vCPU and no mask: the default "^0" would leave no RT vCPU */
        g_free(p->rt_vcpus_spec);
        p->rt_vcpus_spec = g_strdup("none");
        rv_cpuset_zero(&p->rt_vcpus);
    }
    /* The guest kernel needs a housekeeping CPU of its own: nova refuses a
     * realtime mask without an ordinary vCPU for the same reason
     * (nova/virt/hardware.py, "RealtimeMaskNotFoundOrInvalid"). */
    if (rv_cpuset_count(&p->rt_vcpus) == p->vcpus) {
        if (e)
            return rv_ini_entry_error(e, error,
                                      "invalid rt_vcpus '%s' in [cpu]: every vCPU would be RT; the guest needs at least one non-RT (housekeeping) vCPU",
                                      e->value);
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: every vCPU would be RT; the guest needs at least one non-RT (housekeeping) vCPU",
                            p->path);
    }

    v = 1;
    r = rv_ini_get_int(ini, "cpu", "rt_priority", 1, 99, &v, error);
    if (r < 0)
        return r;
    p->rt_priority = (int) v;

    idx = RV_GUEST_SIBLING_IDLE;
    r = rv_ini_get_enum(ini, "cpu", "host_sibling", sibling_words, &idx, error);
    if (r < 0)
        return r;
    p->host_sibling = idx;

    e = rv_ini_lookup(ini, "cpu", "emulator");
    p->emulator = RV_GUEST_EMULATOR_HOUSEKEEPING;
    if (e) {
        const char *val = e->value;

        if (g_strv_contains(emulator_words, val)) {
            p->emulator = strcmp(val, "housekeeping") == 0 ? RV_GUEST_EMULATOR_HOUSEKEEPING
                                                            : RV_GUEST_EMULATOR_NONRT_VCPUS;
        } else {
            g_autoptr(GError) local = NULL;

            if (rv_cpulist_parse(val, 0, &p->emulator_cpus, &local) < 0 ||
                rv_cpuset_is_empty(&p->emulator_cpus))
                return rv_ini_entry_error(e, error,
                                          "invalid emulator '%s' in [cpu]: expected housekeeping, nonrt-vcpus or a non-empty host cpulist",
                                          val);
            p->emulator = RV_GUEST_EMULATOR_CPULIST;
        }
    }

    idx = RV_GUEST_CPU_HOST_PASSTHROUGH;
    r = rv_ini_get_enum(ini, "cpu", "mode", mode_words, &idx, error);
    if (r < 0)
        return r;
    p->cpu_mode = idx;
    e = rv_ini_lookup(ini, "cpu", "model");
    if (e) {
        if (p->cpu_mode != RV_GUEST_CPU_CUSTOM)
            return rv_ini_entry_error(e, error,
                                      "invalid model '%s' in [cpu]: a CPU model needs mode = custom",
                                      e->value);
        if (!*e->value || strspn(e->value, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-") != strlen(e->value))
            return rv_ini_entry_error(e, error,
                                      "invalid model '%s' in [cpu]: expected a libvirt CPU model name such as Skylake-Client (virsh cpu-models x86_64)",
                                      e->value);
        p->cpu_model = g_strdup(e->value);
    } else if (p->cpu_mode == RV_GUEST_CPU_CUSTOM) {
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: mode = custom needs a 'model' in [cpu]", p->path);
    }

    p->pmu = false;
    return rv_ini_get_bool(ini, "cpu", "pmu", &p->pmu, error);
}

static int
load_memory(RvIni *ini, RvGuestProfile *p, GError **error)
{
    const RvIniEntry *e;
    int r;

    e = rv_ini_lookup(ini, "memory", "size");
    if (!e)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s: missing key 'size' in [memory]", p->path);
    r = rv_ini_get_size(ini, "memory", "size", &p->memory_bytes, error);
    if (r < 0)
        return r;
    /* 16 MiB: below that no Linux guest boots; 16 TiB: libvirt's and
     * x86_64's practical bound.  Whole KiB because <memory unit='KiB'>. */
    if (p->memory_bytes < (16u << 20) || p->memory_bytes > (G_GUINT64_CONSTANT(16) << 40) ||
        p->memory_bytes % 1024 != 0)
        return rv_ini_entry_error(e, error,
                                  "invalid size '%s' in [memory]: expected whole KiB between 16M and 16T",
                                  e->value);

    p->hugepages = false;
    r = rv_ini_get_bool(ini, "memory", "hugepages", &p->hugepages, error);
    if (r < 0)
        return r;
    e = rv_ini_lookup(ini, "memory", "hugepage_size");
    p->hugepage_bytes = 0;
    if (e) {
        r = rv_ini_get_size(ini, "memory", "hugepage_size", &p->hugepage_bytes, error);
        if (r < 0)
            return r;
        if (p->hugepage_bytes != 0 &&
            (p->hugepage_bytes < 4096 || (p->hugepage_bytes & (p->hugepage_bytes - 1)) != 0))
            return rv_ini_entry_error(e, error,
                                      "invalid hugepage_size '%s' in [memory]: expected a power of two such as 2M or 1G",
                                      e->value);
        if (p->hugepage_bytes && !p->hugepages)
            return rv_ini_entry_error(e, error,
                                      "invalid hugepage_size '%s' in [memory]: hugepages = false",
                                      e->value);
        if (p->hugepage_bytes && p->memory_bytes % p->hugepage_bytes != 0)
            return rv_ini_entry_error(e, error,
                                      "invalid hugepage_size '%s' in [memory]: the memory size is not a multiple of it",
                                      e->value);
    }
    p->locked = true;
    r = rv_ini_get_bool(ini, "memory", "locked", &p->locked, error);
    if (r < 0)
        return r;
    p->nosharepages = true;
    return rv_ini_get_bool(ini, "memory", "nosharepages", &p->nosharepages, error);
}

/* True when @path is @dir or below it (both canonical). */
static bool
path_under(const char *path, const char *dir)
{
    gsize n = strlen(dir);

    while (n > 1 && dir[n - 1] == '/')
        n--;
    return strncmp(path, dir, n) == 0 && (path[n] == '/' || (n == 1 && dir[0] == '/'));
}

/* A disk is something the guest can read and (unless readonly) write:
 * it must live under the image cache or a directory the profile names
 * with allow_path, and is attached read-only unless readonly = false. */
static int
load_disk_rules(RvIni *ini, RvGuestProfile *p, GError **error)
{
    static const char *const system_dirs[] = { "/etc", "/usr", "/boot", "/proc", "/sys",
                                               "/dev", "/run", "/root", "/home" };
    const RvIniEntry *e = rv_ini_lookup(ini, "image", "allow_path");
    const RvIniEntry *pe = rv_ini_lookup(ini, "image", "path");
    g_autofree char *cache = rv_guest_image_default_cache_dir();
    g_autoptr(GPtrArray) dirs = g_ptr_array_new_with_free_func(g_free);
    g_autofree char *canon = NULL;
    bool allowed = false;
    int r;

    p->disk_readonly = true;
    r = rv_ini_get_bool(ini, "image", "readonly", &p->disk_readonly, error);
    if (r < 0)
        return r;
    if (e) {
        g_auto(GStrv) words = g_strsplit_set(e->value, ", ", -1);

        for (char **w = words; *w; w++) {
            g_autofree char *c = NULL;

            if (!**w)
                continue;
            c = g_canonicalize_filename(*w, "/");
            if (!g_path_is_absolute(*w) || strcmp(c, "/") == 0)
                return rv_ini_entry_error(e, error, "invalid allow_path '%s' in [image]: "
                                          "expected an absolute directory other than /", *w);
            for (size_t i = 0; i < G_N_ELEMENTS(system_dirs); i++)
                if (path_under(c, system_dirs[i]) || strcmp(c, system_dirs[i]) == 0)
                    return rv_ini_entry_error(e, error, "invalid allow_path '%s' in [image]: "
                                              "%s is a system directory, not a place for "
                                              "guest disks", *w, system_dirs[i]);
            g_ptr_array_add(dirs, g_steal_pointer(&c));
        }
    }
    if (p->disk_path) {
        canon = g_canonicalize_filename(p->disk_path, "/");
        if (strcmp(canon, p->disk_path) != 0)
            return rv_ini_entry_error(pe, error, "invalid path '%s' in [image]: expected a "
                                      "canonical path (no '.', '..' or '//')", p->disk_path);
        allowed = path_under(canon, cache);
        for (guint i = 0; !allowed && i < dirs->len; i++)
            allowed = path_under(canon, dirs->pdata[i]);
        if (!allowed)
            return rv_ini_entry_error(pe, error, "invalid path '%s' in [image]: a guest disk "
                                      "must be under the image cache %s or a directory named "
                                      "by allow_path in [image]", p->disk_path, cache);
    }
    g_ptr_array_add(dirs, NULL);
    p->disk_allow = (char **) g_ptr_array_free(g_steal_pointer(&dirs), FALSE);
    return 0;
}

/* Debian policy 5.6.1: package names are [a-z0-9][a-z0-9+.-]+; checked so
 * that no word reaches mmdebstrap as an option. */
static bool
package_name_valid(const char *w)
{
    if (strlen(w) < 2 || !g_ascii_isalnum(w[0]) || g_ascii_isupper(w[0]))
        return false;
    for (const char *c = w; *c; c++)
        if (!(g_ascii_islower(*c) || g_ascii_isdigit(*c) || strchr("+.-", *c)))
            return false;
    return true;
}

/* packages, base_image, size, tpcc_*: what rtvirt builds for type = disk. */
static int
load_image_build(RvIni *ini, RvGuestProfile *p, GError **error)
{
    const RvIniEntry *pk = rv_ini_lookup(ini, "image", "packages");
    const RvIniEntry *bi = rv_ini_lookup(ini, "image", "base_image");
    const RvIniEntry *built = pk ? pk : bi;
    gint64 w = 0;
    int idx = 0, r;

    r = rv_ini_get_strv(ini, "image", "packages", &p->image_packages, error);
    if (r < 0)
        return r;
    if (!p->image_packages)
        p->image_packages = g_new0(char *, 1);
    for (char **q = p->image_packages; *q; q++)
        if (!package_name_valid(*q))
            return rv_ini_entry_error(pk, error, "invalid packages '%s' in [image]: '%s' is no "
                                      "Debian package name", pk->value, *q);
    if (bi) {
        if (!g_path_is_absolute(bi->value))
            return rv_ini_entry_error(bi, error, "invalid base_image '%s' in [image]: expected "
                                      "an absolute path", bi->value);
        p->base_image = g_strdup(bi->value);
    }
    if (built && p->image != RV_GUEST_IMAGE_DISK)
        return rv_ini_entry_error(built, error, "invalid %s '%s' in [image]: only type = disk "
                                  "builds an image", built->key, built->value);
    if (built && p->disk_path)
        return rv_ini_entry_error(built, error, "invalid %s '%s' in [image]: path names a "
                                  "ready disk; a built image takes no path", built->key,
                                  built->value);
    r = rv_ini_get_size(ini, "image", "size", &p->image_size_bytes, error);
    if (r < 0)
        return r;
    r = rv_ini_get_int(ini, "image", "tpcc_warehouses", 0, 1000, &w, error);
    if (r < 0)
        return r;
    p->tpcc_warehouses = (unsigned) w;
    r = rv_ini_get_enum(ini, "image", "tpcc_scale", scale_words, &idx, error);
    if (r < 0)
        return r;
    p->tpcc_scale = g_strdup(scale_words[idx]);
    return 0;
}

bool
rv_guest_profile_builds_image(const RvGuestProfile *profile)
{
    return profile->image == RV_GUEST_IMAGE_DISK && !profile->disk_path;
}

bool
rv_guest_profile_disk_allowed(const RvGuestProfile *profile, const char *path)
{
    g_autofree char *cache = rv_guest_image_default_cache_dir();

    if (path_under(path, cache))
        return true;
    for (char **d = profile->disk_allow; d && *d; d++)
        if (path_under(path, *d))
            return true;
    return false;
}

static int
load_image(RvIni *ini, RvGuestProfile *p, GError **error)
{
    const RvIniEntry *e;
    int idx = RV_GUEST_IMAGE_EMBEDDED, r;

    r = rv_ini_get_enum(ini, "image", "type", image_words, &idx, error);
    if (r < 0)
        return r;
    p->image = idx;
    e = rv_ini_lookup(ini, "image", "path");
    if (e) {
        if (p->image != RV_GUEST_IMAGE_DISK)
            return rv_ini_entry_error(e, error,
                                      "invalid path '%s' in [image]: only type = disk takes a path",
                                      e->value);
        if (!g_path_is_absolute(e->value))
            return rv_ini_entry_error(e, error,
                                      "invalid path '%s' in [image]: expected an absolute path",
                                      e->value);
        p->disk_path = g_strdup(e->value);
    }
    r = load_disk_rules(ini, p, error);
    if (r < 0)
        return r;
    idx = 0;
    r = rv_ini_get_enum(ini, "image", "format", format_words, &idx, error);
    if (r < 0)
        return r;
    p->disk_format = g_strdup(format_words[idx]);
    return load_image_build(ini, p, error);
}

static int
load_cyclictest(RvIni *ini, RvGuestProfile *p, GError **error)
{
    const RvIniEntry *e;
    gint64 v;
    int r;

    p->ct_duration_us = 30 * G_USEC_PER_SEC;
    e = rv_ini_lookup(ini, "cyclictest", "duration");
    r = rv_ini_get_duration_us(ini, "cyclictest", "duration", &p->ct_duration_us, error);
    if (r < 0)
        return r;
    if (e && p->ct_duration_us < G_USEC_PER_SEC)
        return rv_ini_entry_error(e, error,
                                  "invalid duration '%s' in [cyclictest]: at least 1s",
                                  e->value);
    v = 95;
    r = rv_ini_get_int(ini, "cyclictest", "priority", 1, 99, &v, error);
    if (r < 0)
        return r;
    p->ct_priority = (int) v;
    p->ct_interval_us = 1000;
    e = rv_ini_lookup(ini, "cyclictest", "interval");
    r = rv_ini_get_duration_us(ini, "cyclictest", "interval", &p->ct_interval_us, error);
    if (r < 0)
        return r;
    if (e && (p->ct_interval_us < 50 || p->ct_interval_us > G_USEC_PER_SEC))
        return rv_ini_entry_error(e, error,
                                  "invalid interval '%s' in [cyclictest]: expected 50us to 1s",
                                  e->value);
    v = 1000;
    r = rv_ini_get_int(ini, "cyclictest", "histogram", 0, 1000000, &v, error);
    if (r < 0)
        return r;
    p->ct_histogram = (unsigned) v;
    r = rv_ini_get_strv(ini, "cyclictest", "extra_args", &p->ct_extra_args, error);
    if (r < 0)
        return r;
    if (!p->ct_extra_args)
        p->ct_extra_args = g_new0(char *, 1);
    return 0;
}

int
rv_guest_profile_from_ini(RvIni *ini, RvGuestProfile **ret, GError **error)
{
    static const char * const sections[] = {
        "main", "cpu", "memory", "placement", "kernel", "image", "cyclictest", NULL
    };
    g_autoptr(RvGuestProfile) p = g_new0(RvGuestProfile, 1);
    const RvIniEntry *e;
    int r;

    p->path = g_strdup(rv_ini_path(ini));
    e = rv_ini_lookup(ini, "main", "name");
    if (e) {
        if (!rv_guest_profile_name_valid(e->value))
            return rv_ini_entry_error(e, error,
                                      "invalid name '%s' in [main]: expected 1-64 characters of A-Z a-z 0-9 _ . -",
                                      e->value);
        p->name = g_strdup(e->value);
    } else {
        p->name = profile_base_name(p->path);
        if (!rv_guest_profile_name_valid(p->name))
            return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                "%s: the file name is no valid domain name; set 'name' in [main]",
                                p->path);
    }
    p->description = g_strdup(rv_ini_get(ini, "main", "description"));

    if ((r = load_cpu(ini, p, error)) < 0 ||
        (r = load_memory(ini, p, error)) < 0)
        return r;

    p->require_isolated = true;
    r = rv_ini_get_bool(ini, "placement", "require_isolated", &p->require_isolated, error);
    if (r < 0)
        return r;

    p->cmdline = g_strdup(rv_ini_get(ini, "kernel", "cmdline"));
    if (!p->cmdline)
        p->cmdline = g_strdup("");
    p->isolate_rt_vcpus = false;
    r = rv_ini_get_bool(ini, "kernel", "isolate_rt_vcpus", &p->isolate_rt_vcpus, error);
    if (r < 0)
        return r;

    if ((r = load_image(ini, p, error)) < 0 ||
        (r = load_cyclictest(ini, p, error)) < 0)
        return r;

    r = rv_ini_check_unused(ini, sections, error);
    if (r < 0)
        return r;
    *ret = g_steal_pointer(&p);
    return 0;
}

int
rv_guest_profile_load(const char *path, RvGuestProfile **ret, GError **error)
{
    g_autoptr(RvIni) ini = NULL;
    int r;

    r = rv_ini_load(path, &ini, error);
    if (r < 0)
        return r;
    return rv_guest_profile_from_ini(ini, ret, error);
}

/* True when @args (split on blanks) has an argument named @key ("isolcpus"). */
static bool
cmdline_has(char * const *args, const char *key)
{
    size_t n = strlen(key);

    for (int i = 0; args[i]; i++)
        if (strncmp(args[i], key, n) == 0 && (args[i][n] == '=' || args[i][n] == '\0'))
            return true;
    return false;
}

static void
nonrt_vcpus(const RvGuestProfile *profile, RvCpuSet *ret)
{
    RvCpuSet all;

    rv_cpuset_zero(&all);
    rv_cpuset_set_range(&all, 0, profile->vcpus - 1);
    rv_cpuset_andnot(ret, &all, &profile->rt_vcpus);
}

char *
rv_guest_profile_kernel_cmdline(const RvGuestProfile *profile)
{
    g_auto(GStrv) args = g_strsplit_set(profile->cmdline, " \t", -1);
    g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func(g_free);

    for (int i = 0; args[i]; i++)
        if (*args[i])
            g_ptr_array_add(out, g_strdup(args[i]));

    if (profile->isolate_rt_vcpus && !rv_cpuset_is_empty(&profile->rt_vcpus)) {
        g_autofree char *rt = rv_cpulist_format(&profile->rt_vcpus);
        RvCpuSet other;
        g_autofree char *hk = NULL;

        nonrt_vcpus(profile, &other);
        hk = rv_cpulist_format(&other);
        /* tuned realtime-virtual-guest's order and flags (cmdline_realtime
         * + cmdline_rvg; tests/data/cases/tuned/realtime-virtual-guest):
         * "isolcpus=managed_irq,domain,1-3 nohz=on nohz_full=1-3
         * rcu_nocbs=1-3 irqaffinity=0" for a 4-vCPU guest, flags per
         * Documentation/admin-guide/kernel-parameters.txt */
        if (!cmdline_has(args, "isolcpus"))
            g_ptr_array_add(out, g_strdup_printf("isolcpus=managed_irq,domain,%s", rt));
        if (!cmdline_has(args, "nohz"))
            g_ptr_array_add(out, g_strdup("nohz=on"));
        if (!cmdline_has(args, "nohz_full"))
            g_ptr_array_add(out, g_strdup_printf("nohz_full=%s", rt));
        if (!cmdline_has(args, "rcu_nocbs"))
            g_ptr_array_add(out, g_strdup_printf("rcu_nocbs=%s", rt));
        if (!cmdline_has(args, "irqaffinity"))
            g_ptr_array_add(out, g_strdup_printf("irqaffinity=%s", hk));
    }
    g_ptr_array_add(out, NULL);
    return g_strjoinv(" ", (char **) out->pdata);
}

char **
rv_guest_profile_cyclictest_argv(const RvGuestProfile *profile, guint64 duration_us)
{
    GPtrArray *argv = g_ptr_array_new();
    RvCpuSet measured, other;
    g_autofree char *measured_list = NULL;
    guint64 secs;

    if (duration_us == 0)
        duration_us = profile->ct_duration_us;
    secs = (duration_us + G_USEC_PER_SEC - 1) / G_USEC_PER_SEC;
    if (rv_cpuset_is_empty(&profile->rt_vcpus)) {
        rv_cpuset_zero(&measured);
        rv_cpuset_set_range(&measured, 0, profile->vcpus - 1);
    } else {
        measured = profile->rt_vcpus;
    }
    measured_list = rv_cpulist_format(&measured);
    nonrt_vcpus(profile, &other);

    g_ptr_array_add(argv, g_strdup("cyclictest"));
    g_ptr_array_add(argv, g_strdup("-m"));
    g_ptr_array_add(argv, g_strdup("-q"));
    g_ptr_array_add(argv, g_strdup_printf("-p%d", profile->ct_priority));
    g_ptr_array_add(argv, g_strdup_printf("-i%" G_GUINT64_FORMAT, profile->ct_interval_us));
    g_ptr_array_add(argv, g_strdup_printf("-D%" G_GUINT64_FORMAT, secs));
    if (profile->ct_histogram)
        g_ptr_array_add(argv, g_strdup_printf("-h%u", profile->ct_histogram));
    g_ptr_array_add(argv, g_strdup_printf("-a%s", measured_list));
    g_ptr_array_add(argv, g_strdup_printf("-t%u", rv_cpuset_count(&measured)));
    if (!rv_cpuset_is_empty(&profile->rt_vcpus) && !rv_cpuset_is_empty(&other)) {
        g_autofree char *hk = rv_cpulist_format(&other);

        g_ptr_array_add(argv, g_strdup_printf("--mainaffinity=%s", hk));
    }
    for (int i = 0; profile->ct_extra_args[i]; i++)
        g_ptr_array_add(argv, g_strdup(profile->ct_extra_args[i]));
    g_ptr_array_add(argv, NULL);
    return (char **) g_ptr_array_free(argv, FALSE);
}
