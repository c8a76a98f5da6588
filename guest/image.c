/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guest/image.c: the embedded default guest (see guest/image.h).
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "guest/image.h"
#include "guest/image-priv.h"
#include "util/error.h"
#include "util/file.h"
#include "util/json.h"

/* ------------------------------------------------------------------ ELF */

static bool
range_ok(gsize len, guint64 off, guint64 size)
{
    return off <= len && size <= len - off;
}

int
rv_guest_elf_deps(const guint8 *data, gsize len, const char *name,
                  char **ret_interp, GPtrArray **ret_needed, GError **error)
{
    g_autoptr(GPtrArray) needed = g_ptr_array_new_with_free_func(g_free);
    g_autofree char *interp = NULL;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *) data;

    if (len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
        eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_ident[EI_DATA] != ELFDATA2LSB)
        return rv_error_set(error, RV_ERROR_FAILED, ENOEXEC,
                            "'%s' is not a 64-bit little-endian ELF file", name);
    if (eh->e_phentsize != sizeof(Elf64_Phdr) ||
        !range_ok(len, eh->e_phoff, (guint64) eh->e_phnum * sizeof(Elf64_Phdr)) ||
        (eh->e_shnum && (eh->e_shentsize != sizeof(Elf64_Shdr) ||
                         !range_ok(len, eh->e_shoff, (guint64) eh->e_shnum * sizeof(Elf64_Shdr)))))
        return rv_error_set(error, RV_ERROR_FAILED, ENOEXEC,
                            "ELF file '%s' is corrupt: header tables out of range", name);

    for (guint i = 0; i < eh->e_phnum; i++) {
        Elf64_Phdr ph;

        memcpy(&ph, data + eh->e_phoff + i * sizeof(ph), sizeof(ph));
        if (ph.p_type != PT_INTERP)
            continue;
        if (!range_ok(len, ph.p_offset, ph.p_filesz) || ph.p_filesz < 2 ||
            data[ph.p_offset + ph.p_filesz - 1] != '\0')
            return rv_error_set(error, RV_ERROR_FAILED, ENOEXEC,
                                "ELF file '%s' is corrupt: bad PT_INTERP", name);
        interp = g_strndup((const char *) data + ph.p_offset, ph.p_filesz - 1);
    }

    for (guint i = 0; i < eh->e_shnum; i++) {
        Elf64_Shdr sh, str;

        memcpy(&sh, data + eh->e_shoff + i * sizeof(sh), sizeof(sh));
        if (sh.sh_type != SHT_DYNAMIC)
            continue;
        if (sh.sh_link >= eh->e_shnum || !range_ok(len, sh.sh_offset, sh.sh_size))
            return rv_error_set(error, RV_ERROR_FAILED, ENOEXEC,
                                "ELF file '%s' is corrupt: bad SHT_DYNAMIC section", name);
        memcpy(&str, data + eh->e_shoff + sh.sh_link * sizeof(str), sizeof(str));
        if (!range_ok(len, str.sh_offset, str.sh_size))
            return rv_error_set(error, RV_ERROR_FAILED, ENOEXEC,
                                "ELF file '%s' is corrupt: bad dynamic string table", name);
        for (guint64 off = 0; off + sizeof(Elf64_Dyn) <= sh.sh_size; off += sizeof(Elf64_Dyn)) {
            Elf64_Dyn dyn;
            const char *s;

            memcpy(&dyn, data + sh.sh_offset + off, sizeof(dyn));
            if (dyn.d_tag == DT_NULL)
                break;
            if (dyn.d_tag != DT_NEEDED)
                continue;
            if (dyn.d_un.d_val >= str.sh_size)
                return rv_error_set(error, RV_ERROR_FAILED, ENOEXEC,
                                    "ELF file '%s' is corrupt: DT_NEEDED out of range", name);
            s = (const char *) data + str.sh_offset + dyn.d_un.d_val;
            if (!memchr(s, '\0', str.sh_size - dyn.d_un.d_val))
                return rv_error_set(error, RV_ERROR_FAILED, ENOEXEC,
                                    "ELF file '%s' is corrupt: unterminated DT_NEEDED", name);
            g_ptr_array_add(needed, g_strdup(s));
        }
    }

    if (ret_interp)
        *ret_interp = g_steal_pointer(&interp);
    *ret_needed = g_steal_pointer(&needed);
    return 0;
}

/* -------------------------------------------------------------- modules */

static char *
module_name_of(const char *path)
{
    const char *base = strrchr(path, '/');
    char *name = g_strdup(base ? base + 1 : path);
    char *dot = strstr(name, ".ko");

    if (dot)
        *dot = '\0';
    g_strdelimit(name, "-", '_');
    return name;
}

static int
modules_visit(GHashTable *deps, GHashTable *by_name, GHashTable *done,
              const char *path, GPtrArray *out, guint depth, GError **error)
{
    const char *line;

    if (g_hash_table_contains(done, path))
        return 0;
    if (depth > 64)
        return rv_error_set(error, RV_ERROR_FAILED, ELOOP,
                            "modules.dep: dependency loop at '%s'", path);
    line = g_hash_table_lookup(deps, path);
    if (line) {
        g_auto(GStrv) words = g_strsplit_set(line, " \t", -1);

        /* modprobe loads the listed dependencies last-first. */
        for (gint i = (gint) g_strv_length(words) - 1; i >= 0; i--) {
            int r;

            if (!*words[i])
                continue;
            r = modules_visit(deps, by_name, done, words[i], out, depth + 1, error);
            if (r < 0)
                return r;
        }
    }
    g_hash_table_add(done, g_strdup(path));
    g_ptr_array_add(out, g_strdup(path));
    return 0;
}

int
rv_guest_modules_order(const char *modules_dep, const char *modules_builtin,
                       const char * const *wanted, GPtrArray **ret_paths, GError **error)
{
    g_autoptr(GHashTable) deps = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    g_autoptr(GHashTable) by_name = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    g_autoptr(GHashTable) builtin = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    g_autoptr(GHashTable) done = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func(g_free);
    g_auto(GStrv) lines = g_strsplit(modules_dep, "\n", -1);

    for (guint i = 0; lines[i]; i++) {
        char *colon = strchr(lines[i], ':');

        if (!colon)
            continue;
        *colon = '\0';
        g_hash_table_replace(deps, g_strdup(lines[i]), g_strstrip(g_strdup(colon + 1)));
        g_hash_table_replace(by_name, module_name_of(lines[i]), g_strdup(lines[i]));
    }
    if (modules_builtin) {
        g_auto(GStrv) bl = g_strsplit(modules_builtin, "\n", -1);

        for (guint i = 0; bl[i]; i++)
            if (*bl[i])
                g_hash_table_add(builtin, module_name_of(bl[i]));
    }

    for (guint i = 0; wanted[i]; i++) {
        g_autofree char *name = g_strdelimit(g_strdup(wanted[i]), "-", '_');
        const char *path = g_hash_table_lookup(by_name, name);
        int r;

        if (g_hash_table_contains(builtin, name))
            continue;
        if (!path)
            return rv_error_set(error, RV_ERROR_UNSUPPORTED, ENOENT,
                                "Kernel module '%s' is neither in modules.dep nor built in",
                                wanted[i]);
        r = modules_visit(deps, by_name, done, path, out, 0, error);
        if (r < 0)
            return r;
    }
    *ret_paths = g_steal_pointer(&out);
    return 0;
}

/* ----------------------------------------------------------------- cpio */

struct RvCpio {
    GByteArray *buf;
    guint32 ino;
};

RvCpio *
rv_guest_cpio_new(void)
{
    RvCpio *c = g_new0(RvCpio, 1);

    c->buf = g_byte_array_new();
    c->ino = 1;
    return c;
}

void
rv_guest_cpio_free(RvCpio *cpio)
{
    if (!cpio)
        return;
    if (cpio->buf)
        g_byte_array_unref(cpio->buf);
    g_free(cpio);
}

static void
cpio_pad4(GByteArray *b)
{
    static const guint8 zero[4];

    if (b->len % 4)
        g_byte_array_append(b, zero, 4 - b->len % 4);
}

void
rv_guest_cpio_add(RvCpio *cpio, const char *path, guint32 mode,
                  guint32 rdev_major, guint32 rdev_minor, const void *data, gsize len)
{
    /* newc names carry no leading '/': the kernel unpacks relative to rootfs. */
    const char *name = path[0] == '/' && path[1] ? path + 1 : path;
    char hdr[111];

    g_snprintf(hdr, sizeof(hdr),
               "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
               cpio->ino++, mode, 0u, 0u, S_ISDIR(mode) ? 2u : 1u, 0u,
               (guint32) len, 0u, 0u, rdev_major, rdev_minor,
               (guint32) strlen(name) + 1, 0u);
    g_byte_array_append(cpio->buf, (const guint8 *) hdr, 110);
    g_byte_array_append(cpio->buf, (const guint8 *) name, strlen(name) + 1);
    cpio_pad4(cpio->buf);
    if (len) {
        g_byte_array_append(cpio->buf, data, len);
        cpio_pad4(cpio->buf);
    }
}

GBytes *
rv_guest_cpio_finish(RvCpio *cpio)
{
    rv_guest_cpio_add(cpio, "TRAILER!!!", 0, 0, 0, NULL, 0);
    return g_byte_array_free_to_bytes(g_steal_pointer(&cpio->buf));
}

/* ---------------------------------------------------------------- build */

typedef struct {
    guint32 mode;
    guint32 rdev_major, rdev_minor;
    GBytes *data;    /* content or link target; NULL for dirs/nodes */
} Member;

static void
member_free(Member *m)
{
    if (m->data)
        g_bytes_unref(m->data);
    g_free(m);
}

typedef struct {
    const char *sysroot;
    const char *tools_dir; /* rtvirt's guest tools (rv_guest_image_tools_dir()) */
    const char * const *needs; /* programs wanted beyond the base set */
    GTree *members;       /* archive path -> Member */
    GHashTable *elf_done; /* archive paths whose ELF deps were added */
} Builder;

static char *
in_sysroot(const Builder *b, const char *path)
{
    return g_build_filename(b->sysroot, path, NULL);
}

static void
add_member(Builder *b, const char *path, guint32 mode, guint32 maj, guint32 min, GBytes *data)
{
    Member *m = g_new0(Member, 1);
    g_autofree char *dir = g_path_get_dirname(path);

    if (strcmp(dir, "/") != 0 && strcmp(dir, ".") != 0 && !g_tree_lookup(b->members, dir))
        add_member(b, dir, S_IFDIR | 0755, 0, 0, NULL);
    m->mode = mode;
    m->rdev_major = maj;
    m->rdev_minor = min;
    m->data = data ? g_bytes_ref(data) : NULL;
    g_tree_replace(b->members, g_strdup(path), m);
}

/* Largest host file that goes into the image: a kernel is ~10 MiB, qemu-ga
 * and libc a few. */
#define IMAGE_FILE_MAX (256u << 20)

static int
read_host_file(Builder *b, const char *path, const char *package, GBytes **ret, GError **error)
{
    g_autofree char *real = in_sysroot(b, path);
    g_autoptr(GError) local = NULL;
    char *data = NULL;
    gssize n = rv_file_read(real, IMAGE_FILE_MAX, &data, &local);

    if (n == -ENOENT && package)
        /* a missing capability of this host, not an I/O error */
        return rv_error_set(error, RV_ERROR_UNSUPPORTED, ENOENT,
                            "Failed to read '%s': not found (install the Debian package %s)",
                            real, package);
    if (n < 0) {
        g_propagate_error(error, g_steal_pointer(&local));
        return (int) n;
    }
    *ret = g_bytes_new_take(data, (gsize) n);
    return 0;
}

/* ld.so's default directories on Debian amd64 (multiarch first). */
static const char * const lib_dirs[] = {
    "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64",
    "/lib", "/usr/lib", NULL,
};

static int add_elf(Builder *b, const char *path, const char *package, guint32 perm,
                   guint depth, GError **error);

/* @bytes, an ELF file, at @path in the image, with its interpreter and
 * libraries from the sysroot */
static int
add_elf_bytes(Builder *b, const char *path, GBytes *bytes, guint32 perm, guint depth,
              GError **error)
{
    g_autoptr(GPtrArray) needed = NULL;
    g_autofree char *interp = NULL;
    gsize len;
    const guint8 *data;
    int r;

    data = g_bytes_get_data(bytes, &len);
    r = rv_guest_elf_deps(data, len, path, &interp, &needed, error);
    if (r < 0)
        return r;
    g_hash_table_add(b->elf_done, g_strdup(path));
    add_member(b, path, S_IFREG | perm, 0, 0, bytes);

    if (interp) {
        r = add_elf(b, interp, "libc6", 0755, depth + 1, error);
        if (r < 0)
            return r;
    }
    for (guint i = 0; i < needed->len; i++) {
        const char *soname = needed->pdata[i];
        g_autofree char *found = NULL;

        if (strchr(soname, '/'))
            found = g_strdup(soname);
        for (guint d = 0; !found && lib_dirs[d]; d++) {
            g_autofree char *cand = g_build_filename(lib_dirs[d], soname, NULL);
            g_autofree char *real = in_sysroot(b, cand);

            if (g_file_test(real, G_FILE_TEST_IS_REGULAR))
                found = g_steal_pointer(&cand);
        }
        if (!found)
            return rv_error_set(error, RV_ERROR_FAILED, ENOENT,
                                "Shared library '%s' needed by '%s' not found in %s",
                                soname, path, "/lib/x86_64-linux-gnu, /usr/lib/x86_64-linux-gnu, /lib64, /lib, /usr/lib");
        r = add_elf(b, found, NULL, 0755, depth + 1, error);
        if (r < 0)
            return r;
    }
    return 0;
}

static int
add_elf(Builder *b, const char *path, const char *package, guint32 perm, guint depth,
        GError **error)
{
    g_autoptr(GBytes) bytes = NULL;
    int r;

    if (g_hash_table_contains(b->elf_done, path))
        return 0;
    if (depth > 32)
        return rv_error_set(error, RV_ERROR_FAILED, ELOOP, "Library chain too deep at '%s'", path);
    r = read_host_file(b, path, package, &bytes, error);
    if (r < 0)
        return r;
    return add_elf_bytes(b, path, bytes, perm, depth, error);
}

static char *
pick_kernel_release(const char *sysroot, GError **error)
{
    g_autofree char *boot = g_build_filename(sysroot, "boot", NULL);
    g_autoptr(GDir) dir = g_dir_open(boot, 0, NULL);
    g_autofree char *best = NULL;
    const char *n;

    while (dir && (n = g_dir_read_name(dir))) {
        g_autofree char *dep = NULL;

        if (!g_str_has_prefix(n, "vmlinuz-"))
            continue;
        dep = g_build_filename(sysroot, "lib/modules", n + 8, "modules.dep", NULL);
        if (!g_file_test(dep, G_FILE_TEST_IS_REGULAR))
            continue;
        if (!best || strverscmp(n + 8, best) > 0) {
            g_free(best);
            best = g_strdup(n + 8);
        }
    }
    if (!best)
        rv_error_set(error, RV_ERROR_UNSUPPORTED, ENOENT,
                     "No packaged kernel: no '%s/vmlinuz-VERSION' with modules in "
                     "/lib/modules/VERSION (install the Debian package linux-image-amd64)",
                     boot);
    return g_steal_pointer(&best);
}

static int
cmp_release(gconstpointer a, gconstpointer b)
{
    return strverscmp(*(const char * const *) a, *(const char * const *) b);
}

/* @release given by the user: its /boot/vmlinuz-@release must exist, else
 * bad input naming it and listing the releases /boot has. */
static int
check_kernel_release(const char *sysroot, const char *release, GError **error)
{
    g_autofree char *boot = g_build_filename(sysroot, "boot", NULL);
    g_autofree char *name = g_strdup_printf("vmlinuz-%s", release);
    g_autofree char *path = g_build_filename(boot, name, NULL);
    g_autoptr(GPtrArray) have = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GDir) dir = NULL;
    g_autofree char *list = NULL;
    const char *n;

    if (*release && !strchr(release, '/') && g_file_test(path, G_FILE_TEST_IS_REGULAR))
        return 0;
    dir = g_dir_open(boot, 0, NULL);
    while (dir && (n = g_dir_read_name(dir)))
        if (g_str_has_prefix(n, "vmlinuz-") && n[8])
            g_ptr_array_add(have, g_strdup(n + 8));
    g_ptr_array_sort(have, cmp_release);
    g_ptr_array_add(have, NULL);
    list = have->len > 1 ? g_strjoinv(", ", (char **) have->pdata) : g_strdup("no vmlinuz-* at all");
    return rv_error_set(error, RV_ERROR_INVALID, ENOENT,
                        "invalid --kernel '%s': no %s/vmlinuz-%s; %s has: %s", release, boot,
                        release, boot, list);
}

/* The guest's PID 1.  busybox sh; every tool comes from busybox --install. */
static const char init_script[] =
    "#!/bin/busybox sh\n"
    "# rtvirt embedded guest init (generated by rtvirt guest build)\n"
    "/bin/busybox --install -s /bin\n"
    "export PATH=/usr/sbin:/usr/bin:/sbin:/bin\n"
    "mount -t proc proc /proc\n"
    "mount -t sysfs sysfs /sys\n"
    "mount -t devtmpfs devtmpfs /dev\n"
    "mkdir -p /dev/pts /dev/shm /run /tmp\n"
    "mount -t tmpfs tmpfs /run\n"
    "mount -t tmpfs tmpfs /tmp\n"
    "ln -sf /run /var/run\n"
    "while read -r m; do insmod \"/lib/modules/$(uname -r)/$m\" || echo \"rtvirt: insmod $m failed\"; done < /etc/rtvirt/modules\n"
    "port=\n"
    "i=0\n"
    "while [ -z \"$port\" ] && [ $i -lt 200 ]; do\n"
    "  for p in /sys/class/virtio-ports/*; do\n"
    "    [ \"$(cat \"$p/name\" 2>/dev/null)\" = org.qemu.guest_agent.0 ] && port=/dev/${p##*/}\n"
    "  done\n"
    "  [ -n \"$port\" ] && [ -c \"$port\" ] || { port=; i=$((i+1)); usleep 20000; }\n"
    "done\n"
    "if [ -z \"$port\" ]; then\n"
    "  echo 'rtvirt: no virtio-serial port org.qemu.guest_agent.0'\n"
    "  poweroff -f\n"
    "fi\n"
    "echo '" RV_GUEST_IMAGE_READY_MARK "'\n"
    "while :; do\n"
    "  qemu-ga -m virtio-serial -p \"$port\" -t /run -f /run/qemu-ga.pid\n"
    "  echo \"rtvirt: qemu-ga exited with status $?\"\n"
    "  sleep 1\n"
    "done\n";

static const char * const wanted_modules[] = {
    "virtio_pci", "virtio_console", NULL,
};

static const RvGuestImageBinary binaries[] = {
    { "/usr/bin/cyclictest", "rt-tests", false, false },
    { "/usr/bin/oslat", "rt-tests", false, false },
    { "/usr/bin/hackbench", "rt-tests", false, false },
    { "/usr/sbin/qemu-ga", "qemu-guest-agent", false, false },
    { "/usr/bin/rtvirt-pipe", NULL, true, false },
    /* with their libraries tens of MiB (OpenBLAS alone 36 MiB): only in the
     * images of guests whose workload needs them */
    { "/usr/bin/sysbench", "sysbench", false, true },
    { "/usr/bin/rtvirt-linpack", NULL, true, true },
    { "/usr/bin/rtvirt-gemm", NULL, true, true },
};

static bool
wanted(const RvGuestImageBinary *bin, const char * const *needs)
{
    g_autofree char *base = NULL;

    if (!bin->extra)
        return true;
    base = g_path_get_basename(bin->path);
    return needs && g_strv_contains(needs, base);
}

const RvGuestImageBinary *
rv_guest_image_binaries(guint *ret_n)
{
    *ret_n = G_N_ELEMENTS(binaries);
    return binaries;
}

static bool
has_tools(const char *dir)
{
    for (guint i = 0; i < G_N_ELEMENTS(binaries); i++) {
        g_autofree char *base = g_path_get_basename(binaries[i].path);
        g_autofree char *p = g_build_filename(dir, base, NULL);

        if (binaries[i].tool && !binaries[i].extra && !g_file_test(p, G_FILE_TEST_IS_REGULAR))
            return false;
    }
    return true;
}

char *
rv_guest_image_tools_dir(void)
{
    const char *env = g_getenv("RTVIRT_GUEST_TOOLS_DIR");
    g_autofree char *self = NULL, *dir = NULL, *up = NULL;

    if (env && *env)
        return g_strdup(env);
    self = g_file_read_link("/proc/self/exe", NULL);
    if (!self)
        return NULL;
    dir = g_path_get_dirname(self);
    if (has_tools(dir))
        return g_steal_pointer(&dir);
    /* the unit tests run from $(O)/tests/, the tools are in $(O)/ */
    up = g_path_get_dirname(dir);
    return has_tools(up) ? g_steal_pointer(&up) : g_steal_pointer(&dir);
}

/* One of rtvirt's own guest tools, from the tools directory (a host path,
 * outside the sysroot), at its place in the image. */
static int
add_tool(Builder *b, const char *tools_dir, const RvGuestImageBinary *bin, GError **error)
{
    g_autofree char *base = g_path_get_basename(bin->path);
    g_autofree char *src = g_build_filename(tools_dir ? tools_dir : ".", base, NULL);
    g_autoptr(GError) local = NULL;
    char *data = NULL;
    gssize n = rv_file_read(src, IMAGE_FILE_MAX, &data, &local);
    g_autoptr(GBytes) bytes = NULL;

    if (n == -ENOENT)
        return rv_error_set(error, RV_ERROR_UNSUPPORTED, ENOENT,
                            "rtvirt's guest tool '%s' is missing (build it with make; "
                            "$RTVIRT_GUEST_TOOLS_DIR names another directory)", src);
    if (n < 0) {
        g_propagate_error(error, g_steal_pointer(&local));
        return (int) n;
    }
    bytes = g_bytes_new_take(data, (gsize) n);
    return add_elf_bytes(b, bin->path, bytes, 0755, 0, error);
}

static gboolean
hash_member(gpointer key, gpointer value, gpointer user_data)
{
    const char *path = key;
    const Member *m = value;
    GChecksum *ck = user_data;
    guint32 hdr[3] = { m->mode, m->rdev_major, m->rdev_minor };
    guint64 len = m->data ? g_bytes_get_size(m->data) : 0;

    g_checksum_update(ck, (const guchar *) path, strlen(path) + 1);
    g_checksum_update(ck, (const guchar *) hdr, sizeof(hdr));
    g_checksum_update(ck, (const guchar *) &len, sizeof(len));
    if (len)
        g_checksum_update(ck, g_bytes_get_data(m->data, NULL), len);
    return FALSE;
}

static gboolean
cpio_member(gpointer key, gpointer value, gpointer user_data)
{
    const Member *m = value;
    gsize len = 0;
    const void *data = m->data ? g_bytes_get_data(m->data, &len) : NULL;

    rv_guest_cpio_add(user_data, key, m->mode, m->rdev_major, m->rdev_minor, data, len);
    return FALSE;
}

static gint
path_cmp(gconstpointer a, gconstpointer b, gpointer user_data)
{
    (void) user_data;
    return strcmp(a, b);
}

static int
write_gzip(const char *path, GBytes *data, GError **error)
{
    g_autoptr(GFile) file = g_file_new_for_path(path);
    g_autoptr(GError) local = NULL;
    g_autoptr(GFileOutputStream) fos = NULL;
    g_autoptr(GZlibCompressor) zc = g_zlib_compressor_new(G_ZLIB_COMPRESSOR_FORMAT_GZIP, 6);
    g_autoptr(GOutputStream) out = NULL;
    gsize len;
    const void *p = g_bytes_get_data(data, &len);

    fos = g_file_replace(file, NULL, FALSE, G_FILE_CREATE_NONE, NULL, &local);
    if (!fos)
        return rv_error_set(error, RV_ERROR_FAILED, EIO, "Failed to write '%s': %s",
                            path, local->message);
    out = g_converter_output_stream_new(G_OUTPUT_STREAM(fos), G_CONVERTER(zc));
    if (!g_output_stream_write_all(out, p, len, NULL, NULL, &local) ||
        !g_output_stream_close(out, NULL, &local))
        return rv_error_set(error, RV_ERROR_FAILED, EIO, "Failed to write '%s': %s",
                            path, local->message);
    return 0;
}

static int
write_file(const char *path, const void *data, gsize len, GError **error)
{
    g_autoptr(GError) local = NULL;

    if (!g_file_set_contents(path, data, len, &local))
        return rv_error_set(error, RV_ERROR_FAILED, EIO, "Failed to write '%s': %s",
                            path, local->message);
    return 0;
}

static void
rm_rf(const char *dir)
{
    g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
    const char *n;

    while (d && (n = g_dir_read_name(d))) {
        g_autofree char *p = g_build_filename(dir, n, NULL);

        (void) g_unlink(p);
    }
    (void) g_rmdir(dir);
}

char *
rv_guest_image_default_cache_dir(void)
{
    const char *env = g_getenv("RTVIRT_CACHE_DIR");

    if (env && *env)
        return g_strdup(env);
    if (geteuid() == 0)
        return g_strdup("/var/cache/rtvirt");
    return g_build_filename(g_get_user_cache_dir(), "rtvirt", NULL);
}

void
rv_guest_image_free(RvGuestImage *image)
{
    if (!image)
        return;
    g_free(image->hash);
    g_free(image->dir);
    g_free(image->kernel);
    g_free(image->initrd);
    g_free(image->kernel_release);
    g_free(image);
}

static int
load_manifest(RvGuestImage *img, GError **error)
{
    g_autofree char *path = g_build_filename(img->dir, "manifest.json", NULL);
    g_autoptr(JsonParser) parser = json_parser_new();
    g_autofree char *text = NULL;
    const RvJsonAt at = { path, NULL };
    gint64 files = 0, bytes = 0;
    JsonNode *root = NULL;
    JsonObject *o;
    gssize n;
    int r;

    /* the cache directory may be shared: read it as untrusted */
    n = rv_file_read(path, 1u << 20, &text, error);
    if (n < 0)
        return (int) n;
    r = rv_json_parse_untrusted(parser, path, text, (gsize) n, RV_JSON_MAX_DEPTH, &root, error);
    if (r < 0)
        return r;
    if (!root || !JSON_NODE_HOLDS_OBJECT(root))
        return rv_error_set(error, RV_ERROR_FAILED, EINVAL, "'%s' is not a JSON object", path);
    o = json_node_get_object(root);
    if ((r = rv_json_get_int_opt(o, &at, "files", 0, G_MAXUINT, &files, error)) < 0 ||
        (r = rv_json_get_int_opt(o, &at, "initrd_bytes", 0, G_MAXINT64, &bytes, error)) < 0)
        return r;
    img->n_files = (guint) files;
    img->initrd_bytes = (guint64) bytes;
    return 0;
}

/* Phase 1: the kernel, the static busybox and the binaries with their
 * shared libraries. */
static int
collect_programs(Builder *b, const char *kpath, GBytes **ret_kernel, GError **error)
{
    g_autoptr(GBytes) kernel = NULL, busybox = NULL;
    int r;

    r = read_host_file(b, kpath, "linux-image-amd64", &kernel, error);
    if (r < 0)
        return r;
    /* busybox must be the static one: it runs before anything else. */
    r = read_host_file(b, "/bin/busybox", "busybox-static", &busybox, error);
    if (r < 0)
        return r;
    add_member(b, "/bin/busybox", S_IFREG | 0755, 0, 0, busybox);
    for (guint i = 0; i < G_N_ELEMENTS(binaries); i++) {
        if (!wanted(&binaries[i], b->needs))
            continue;
        r = binaries[i].tool ? add_tool(b, b->tools_dir, &binaries[i], error)
                             : add_elf(b, binaries[i].path, binaries[i].package, 0755, 0, error);
        if (r < 0)
            return r;
    }
    *ret_kernel = g_steal_pointer(&kernel);
    return 0;
}

/* Phase 2: the kernel modules the guest loads, in modules.dep order
 * (*ret_mods: their paths relative to @modpath), and their list for /init. */
static int
collect_modules(Builder *b, const char *modpath, GPtrArray **ret_mods, GString *modlist,
                GError **error)
{
    g_autoptr(GPtrArray) mods = NULL;
    g_autoptr(GBytes) dep = NULL, builtin = NULL;
    g_autofree char *p1 = g_strdup_printf("%s/modules.dep", modpath);
    g_autofree char *p2 = g_strdup_printf("%s/modules.builtin", modpath);
    g_autoptr(GError) ignored = NULL;
    g_autofree char *dep_s = NULL, *bi_s = NULL;
    int r;

    r = read_host_file(b, p1, "linux-image-amd64", &dep, error);
    if (r < 0)
        return r;
    if (read_host_file(b, p2, NULL, &builtin, &ignored) < 0)
        builtin = NULL;
    dep_s = g_strndup(g_bytes_get_data(dep, NULL), g_bytes_get_size(dep));
    bi_s = builtin ? g_strndup(g_bytes_get_data(builtin, NULL), g_bytes_get_size(builtin)) : NULL;
    r = rv_guest_modules_order(dep_s, bi_s, wanted_modules, &mods, error);
    if (r < 0)
        return r;
    for (guint i = 0; i < mods->len; i++) {
        g_autofree char *p = g_strdup_printf("%s/%s", modpath, (char *) mods->pdata[i]);
        g_autoptr(GBytes) ko = NULL;

        if (!g_str_has_suffix(p, ".ko"))
            return rv_error_set(error, RV_ERROR_UNSUPPORTED, ENOTSUP,
                                "Kernel module '%s' is compressed; busybox insmod needs plain .ko",
                                p);
        r = read_host_file(b, p, "linux-image-amd64", &ko, error);
        if (r < 0)
            return r;
        add_member(b, p, S_IFREG | 0644, 0, 0, ko);
        g_string_append_printf(modlist, "%s\n", (char *) mods->pdata[i]);
    }
    *ret_mods = g_steal_pointer(&mods);
    return 0;
}

/* Phase 3: /init, the module list, the mount points and device nodes. */
static void
add_fixed_members(Builder *b, const GString *modlist)
{
    g_autoptr(GBytes) ml = g_bytes_new(modlist->str, modlist->len);
    g_autoptr(GBytes) init = g_bytes_new_static(init_script, sizeof(init_script) - 1);

    add_member(b, "/etc/rtvirt/modules", S_IFREG | 0644, 0, 0, ml);
    add_member(b, "/init", S_IFREG | 0755, 0, 0, init);
    for (const char * const *d = (const char * const[]) { "/proc", "/sys", "/dev", "/run",
                                                          "/tmp", "/var", "/root", NULL };
         *d; d++)
        add_member(b, *d, S_IFDIR | 0755, 0, 0, NULL);
    /* The kernel opens /dev/console for /init before devtmpfs is mounted. */
    add_member(b, "/dev/console", S_IFCHR | 0600, 5, 1, NULL);
    add_member(b, "/dev/null", S_IFCHR | 0666, 1, 3, NULL);
}

/* manifest.json of @img: what went in, for `rtvirt guest build` and the cache. */
static char *
manifest_json(const RvGuestImage *img, const char *kpath, const GPtrArray *mods)
{
    g_autoptr(JsonBuilder) jb = json_builder_new();
    g_autoptr(JsonGenerator) gen = json_generator_new();
    g_autoptr(JsonNode) root = NULL;

    json_builder_begin_object(jb);
    json_builder_set_member_name(jb, "format");
    json_builder_add_string_value(jb, RV_GUEST_IMAGE_FORMAT);
    json_builder_set_member_name(jb, "hash");
    json_builder_add_string_value(jb, img->hash);
    json_builder_set_member_name(jb, "kernel_release");
    json_builder_add_string_value(jb, img->kernel_release);
    json_builder_set_member_name(jb, "kernel_source");
    json_builder_add_string_value(jb, kpath);
    json_builder_set_member_name(jb, "files");
    json_builder_add_int_value(jb, img->n_files);
    json_builder_set_member_name(jb, "initrd_bytes");
    json_builder_add_int_value(jb, (gint64) img->initrd_bytes);
    json_builder_set_member_name(jb, "modules");
    json_builder_begin_array(jb);
    for (guint i = 0; i < mods->len; i++)
        json_builder_add_string_value(jb, mods->pdata[i]);
    json_builder_end_array(jb);
    json_builder_end_object(jb);
    root = json_builder_get_root(jb);
    json_generator_set_root(gen, root);
    json_generator_set_pretty(gen, TRUE);
    return json_generator_to_data(gen, NULL);
}

/* Phase 5: the kernel, the gzipped cpio and the manifest into @tmp;
 * @tmp is removed on failure. */
static int
write_image(RvGuestImage *img, const char *tmp, GBytes *kernel, GTree *members,
            const char *kpath, const GPtrArray *mods, GError **error)
{
    g_autoptr(RvCpio) cpio = rv_guest_cpio_new();
    g_autoptr(GBytes) archive = NULL;
    g_autofree char *tk = g_build_filename(tmp, "vmlinuz", NULL);
    g_autofree char *ti = g_build_filename(tmp, "initramfs.img", NULL);
    g_autofree char *tm = g_build_filename(tmp, "manifest.json", NULL);
    g_autofree char *json = NULL;
    GStatBuf st;
    int r;

    g_tree_foreach(members, cpio_member, cpio);
    archive = rv_guest_cpio_finish(cpio);
    r = write_file(tk, g_bytes_get_data(kernel, NULL), g_bytes_get_size(kernel), error);
    if (r >= 0)
        r = write_gzip(ti, archive, error);
    if (r < 0) {
        rm_rf(tmp);
        return r;
    }
    if (g_stat(ti, &st) == 0)
        img->initrd_bytes = (guint64) st.st_size;
    (void) chmod(tk, 0644);
    (void) chmod(ti, 0644);

    json = manifest_json(img, kpath, mods);
    r = write_file(tm, json, strlen(json), error);
    if (r < 0) {
        rm_rf(tmp);
        return r;
    }
    (void) chmod(tm, 0644);
    return 0;
}

/* once_per_process: options key -> RvGuestImage (rv_guest_image_build()) */
static GMutex once_lock;
static GHashTable *once_images;

static char *
once_key(const RvGuestImageOptions *opts, const char *tools_dir)
{
    g_autofree char *needs = opts->needs ? g_strjoinv(",", (char **) opts->needs) : g_strdup("");
    g_autofree char *cache = opts->cache_dir ? g_strdup(opts->cache_dir)
                                             : rv_guest_image_default_cache_dir();

    return g_strdup_printf("%s\n%s\n%s\n%s\n%s", opts->sysroot ? opts->sysroot : "/", cache,
                           opts->kernel_release ? opts->kernel_release : "", tools_dir, needs);
}

static RvGuestImage *
image_copy(const RvGuestImage *img)
{
    RvGuestImage *c = g_new0(RvGuestImage, 1);

    *c = *img;
    c->hash = g_strdup(img->hash);
    c->dir = g_strdup(img->dir);
    c->kernel = g_strdup(img->kernel);
    c->initrd = g_strdup(img->initrd);
    c->kernel_release = g_strdup(img->kernel_release);
    return c;
}

/* The image an earlier call of this process gave for @key, still complete
 * in the cache, or NULL. */
static RvGuestImage *
once_lookup(const char *key)
{
    g_autoptr(GMutexLocker) locker = g_mutex_locker_new(&once_lock);
    const RvGuestImage *img = once_images ? g_hash_table_lookup(once_images, key) : NULL;
    g_autofree char *manifest = img ? g_build_filename(img->dir, "manifest.json", NULL) : NULL;
    RvGuestImage *c;

    if (!img || !g_file_test(manifest, G_FILE_TEST_IS_REGULAR) ||
        !g_file_test(img->kernel, G_FILE_TEST_IS_REGULAR) ||
        !g_file_test(img->initrd, G_FILE_TEST_IS_REGULAR))
        return NULL;
    c = image_copy(img);
    c->cached = true;
    return c;
}

static void
once_remember(const char *key, const RvGuestImage *img)
{
    g_autoptr(GMutexLocker) locker = g_mutex_locker_new(&once_lock);

    if (!once_images)
        once_images = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
                                            (GDestroyNotify) rv_guest_image_free);
    if (!g_hash_table_contains(once_images, key))
        g_hash_table_insert(once_images, g_strdup(key), image_copy(img));
}

static int image_build(const RvGuestImageOptions *opts, const char *tools_dir,
                       RvGuestImage **ret, GError **error);

int
rv_guest_image_build(const RvGuestImageOptions *opts, RvGuestImage **ret, GError **error)
{
    static const RvGuestImageOptions defaults = { 0 };
    g_autofree char *tools_dir = NULL, *key = NULL;
    RvGuestImage *img = NULL;
    int r;

    if (!opts)
        opts = &defaults;
    tools_dir = opts->tools_dir ? g_strdup(opts->tools_dir) : rv_guest_image_tools_dir();
    if (opts->once_per_process) {
        key = once_key(opts, tools_dir);
        if ((img = once_lookup(key))) {
            *ret = img;
            return 0;
        }
    }
    r = image_build(opts, tools_dir, &img, error);
    if (r < 0)
        return r;
    if (key)
        once_remember(key, img);
    *ret = img;
    return 0;
}

/* Phases 1-6 of rv_guest_image_build(). */
static int
image_build(const RvGuestImageOptions *opts, const char *tools_dir, RvGuestImage **ret,
            GError **error)
{
    g_autoptr(GTree) members = g_tree_new_full(path_cmp, NULL, g_free,
                                                (GDestroyNotify) member_free);
    g_autoptr(GHashTable) elf_done = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    g_autoptr(RvGuestImage) img = g_new0(RvGuestImage, 1);
    g_autoptr(GChecksum) ck = g_checksum_new(G_CHECKSUM_SHA256);
    g_autoptr(GBytes) kernel = NULL;
    g_autoptr(GPtrArray) mods = NULL;
    g_autoptr(GString) modlist = g_string_new(NULL);
    g_autofree char *cache = NULL, *images = NULL, *tmp = NULL, *kpath = NULL, *modpath = NULL;
    g_autofree char *manifest = NULL;
    Builder b;
    int r;

    b.sysroot = opts->sysroot ? opts->sysroot : "/";
    b.members = members;
    b.elf_done = elf_done;
    b.tools_dir = tools_dir;
    b.needs = opts->needs;

    if (opts->kernel_release) {
        r = check_kernel_release(b.sysroot, opts->kernel_release, error);
        if (r < 0)
            return r;
    }
    img->kernel_release = opts->kernel_release ? g_strdup(opts->kernel_release)
                                               : pick_kernel_release(b.sysroot, error);
    if (!img->kernel_release)
        return -ENOENT;
    kpath = g_strdup_printf("/boot/vmlinuz-%s", img->kernel_release);
    modpath = g_strdup_printf("/lib/modules/%s", img->kernel_release);
    if ((r = collect_programs(&b, kpath, &kernel, error)) < 0 ||
        (r = collect_modules(&b, modpath, &mods, modlist, error)) < 0)
        return r;
    add_fixed_members(&b, modlist);

    /* Phase 4: the image's hash names its cache directory; a complete
     * one is the same image, already built. */
    g_checksum_update(ck, (const guchar *) RV_GUEST_IMAGE_FORMAT, sizeof(RV_GUEST_IMAGE_FORMAT));
    g_checksum_update(ck, g_bytes_get_data(kernel, NULL), g_bytes_get_size(kernel));
    g_tree_foreach(members, hash_member, ck);
    img->hash = g_strdup(g_checksum_get_string(ck));
    img->n_files = (guint) g_tree_nnodes(members);

    cache = opts->cache_dir ? g_strdup(opts->cache_dir) : rv_guest_image_default_cache_dir();
    images = g_build_filename(cache, "images", NULL);
    img->dir = g_build_filename(images, img->hash, NULL);
    img->kernel = g_build_filename(img->dir, "vmlinuz", NULL);
    img->initrd = g_build_filename(img->dir, "initramfs.img", NULL);
    manifest = g_build_filename(img->dir, "manifest.json", NULL);
    if (g_file_test(manifest, G_FILE_TEST_IS_REGULAR) &&
        g_file_test(img->kernel, G_FILE_TEST_IS_REGULAR) &&
        g_file_test(img->initrd, G_FILE_TEST_IS_REGULAR)) {
        r = load_manifest(img, error);
        if (r < 0)
            return r;
        img->cached = true;
        *ret = g_steal_pointer(&img);
        return 0;
    }

    if (g_mkdir_with_parents(images, 0755) < 0)
        return rv_error_set(error, RV_ERROR_FAILED, errno, "Failed to create '%s': %s",
                            images, g_strerror(errno));
    (void) chmod(cache, 0755);
    (void) chmod(images, 0755);
    tmp = g_build_filename(images, ".tmp-XXXXXX", NULL);
    if (!g_mkdtemp_full(tmp, 0755))
        return rv_error_set(error, RV_ERROR_FAILED, errno, "Failed to create '%s': %s",
                            tmp, g_strerror(errno));
    r = write_image(img, tmp, kernel, members, kpath, mods, error);
    if (r < 0)
        return r;
    /* Phase 6: into place in one rename. */
    if (g_rename(tmp, img->dir) < 0) {
        int e = errno;

        rm_rf(tmp);
        if (e != EEXIST && e != ENOTEMPTY)
            return rv_error_set(error, RV_ERROR_FAILED, e, "Failed to rename '%s' to '%s': %s",
                                tmp, img->dir, g_strerror(e));
        /* A concurrent builder won: its image is the same bytes. */
    }
    *ret = g_steal_pointer(&img);
    return 0;
}

static int
copy_file(const char *from, const char *to, GError **error)
{
    g_autoptr(GFile) src = g_file_new_for_path(from);
    g_autoptr(GFile) dst = g_file_new_for_path(to);
    g_autoptr(GError) local = NULL;

    if (!g_file_copy(src, dst, G_FILE_COPY_OVERWRITE, NULL, NULL, NULL, &local))
        return rv_error_set(error, RV_ERROR_FAILED, EIO, "Failed to copy '%s' to '%s': %s",
                            from, to, local->message);
    return 0;
}

int
rv_guest_image_export(const RvGuestImage *image, const char *out_dir, GError **error)
{
    g_autofree char *k = g_build_filename(out_dir, "vmlinuz", NULL);
    g_autofree char *i = g_build_filename(out_dir, "initramfs.img", NULL);
    int r;

    if (g_mkdir_with_parents(out_dir, 0755) < 0)
        return rv_error_set(error, RV_ERROR_FAILED, errno, "Failed to create '%s': %s",
                            out_dir, g_strerror(errno));
    r = copy_file(image->kernel, k, error);
    if (r < 0)
        return r;
    return copy_file(image->initrd, i, error);
}
