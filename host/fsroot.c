/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "host/fsroot.h"
#include "util/error.h"
#include "util/file.h"

struct RvRoot {
    char *path;
    int fd;
    bool live;
};

int
rv_host_root_open(const char *path, RvRoot **ret, GError **error)
{
    g_autofree char *real = NULL;
    int fd;

    if (!path || !*path)
        path = "/";
    fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        return rv_error_set(error, RV_ERROR_INVALID, e,
                            "Failed to open root directory '%s': %s", path, g_strerror(e));
    }
    real = realpath(path, NULL);

    RvRoot *root = g_new0(RvRoot, 1);
    root->path = g_strdup(path);
    root->fd = fd;
    root->live = real && strcmp(real, "/") == 0;
    *ret = root;
    return 0;
}

void
rv_host_root_free(RvRoot *root)
{
    if (!root)
        return;
    if (root->fd >= 0)
        close(root->fd);
    g_free(root->path);
    g_free(root);
}

const char *
rv_host_root_path(const RvRoot *root)
{
    return root->path;
}

bool
rv_host_root_is_live(const RvRoot *root)
{
    return root->live;
}

char *
rv_host_root_resolve(const RvRoot *root, const char *path)
{
    if (root->live)
        return g_strdup(path);
    while (*path == '/')
        path++;
    return g_build_filename(root->path, path, NULL);
}

int
rv_host_root_openat(RvRoot *root, const char *path, int flags, mode_t mode)
{
    struct open_how how = {
        .flags = (guint64) (flags | O_CLOEXEC),
        .mode = (flags & O_CREAT) ? mode : 0,
        .resolve = RESOLVE_IN_ROOT,
    };
    const char *rel = path;
    long fd;

    while (*rel == '/')
        rel++;
    if (!*rel)
        rel = ".";
    if (root->live) {
        fd = open(path, flags | O_CLOEXEC, mode);
        return fd < 0 ? -errno : (int) fd;
    }
    fd = syscall(SYS_openat2, root->fd, rel, &how, sizeof(how));
    if (fd < 0 && errno == ENOSYS)
        fd = openat(root->fd, rel, flags | O_CLOEXEC, mode);
    return fd < 0 ? -errno : (int) fd;
}

gssize
rv_host_root_read(RvRoot *root, const char *path, char **ret_contents, GError **error)
{
    g_autofree char *where = NULL;
    int fd = rv_host_root_openat(root, path, O_RDONLY, 0);
    gssize n;

    where = rv_host_root_resolve(root, path);
    if (fd < 0)
        return rv_error_set(error, RV_ERROR_FAILED, -fd, "Failed to read '%s': %s",
                            where, g_strerror(-fd));
    /* the one reader and errno policy, util/file.h */
    n = rv_file_read_fd(fd, where, RV_ROOT_READ_MAX, ret_contents, error);
    close(fd);
    return n;
}

int
rv_host_root_read_value(RvRoot *root, const char *path, char **ret_value, GError **error)
{
    char *s = NULL;
    gssize n = rv_host_root_read(root, path, &s, error);

    if (n < 0)
        return (int) n;
    *ret_value = g_strstrip(s);
    return 0;
}

int
rv_host_root_read_int(RvRoot *root, const char *path, gint64 *ret_value, GError **error)
{
    g_autofree char *s = NULL;
    gint64 v;
    char *end = NULL;
    int r = rv_host_root_read_value(root, path, &s, error);

    if (r < 0)
        return r;
    errno = 0;
    v = g_ascii_strtoll(s, &end, 10);
    if (errno || end == s || *end) {
        g_autofree char *where = rv_host_root_resolve(root, path);
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "Invalid value '%s' in '%s': expected an integer", s, where);
    }
    *ret_value = v;
    return 0;
}

int
rv_host_root_write(RvRoot *root, const char *path, const char *value, GError **error)
{
    size_t len = strlen(value);
    ssize_t n;
    int fd = rv_host_root_openat(root, path, O_WRONLY | O_TRUNC, 0);

    if (fd < 0) {
        g_autofree char *where = rv_host_root_resolve(root, path);
        return rv_error_set(error, RV_ERROR_FAILED, -fd, "Failed to write '%s': %s",
                            where, g_strerror(-fd));
    }
    do
        n = write(fd, value, len);
    while (n < 0 && errno == EINTR);
    if (n < 0 || (size_t) n != len) {
        int e = n < 0 ? errno : EIO;
        g_autofree char *where = rv_host_root_resolve(root, path);
        close(fd);
        return rv_error_set(error, RV_ERROR_FAILED, e, "Failed to write '%s': %s",
                            where, g_strerror(e));
    }
    if (close(fd) < 0) {
        int e = errno;
        g_autofree char *where = rv_host_root_resolve(root, path);
        return rv_error_set(error, RV_ERROR_FAILED, e, "Failed to write '%s': %s",
                            where, g_strerror(e));
    }
    return 0;
}

bool
rv_host_root_exists(RvRoot *root, const char *path)
{
    int fd = rv_host_root_openat(root, path, O_PATH, 0);

    if (fd < 0)
        return false;
    close(fd);
    return true;
}

static gint
cmp_names(gconstpointer a, gconstpointer b)
{
    const char *x = *(const char * const *) a, *y = *(const char * const *) b;
    char *ex, *ey;
    /* numeric order for numeric names (cpu2 < cpu10, IRQ 9 < 10) */
    unsigned long nx = strtoul(x + strcspn(x, "0123456789"), &ex, 10);
    unsigned long ny = strtoul(y + strcspn(y, "0123456789"), &ey, 10);
    size_t px = strcspn(x, "0123456789"), py = strcspn(y, "0123456789");

    if (px == py && strncmp(x, y, px) == 0 && x[px] && y[py] && nx != ny)
        return nx < ny ? -1 : 1;
    return strcmp(x, y);
}

int
rv_host_root_list(RvRoot *root, const char *path, GPtrArray **ret_names, GError **error)
{
    g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
    struct dirent *de;
    DIR *dir;
    int fd = rv_host_root_openat(root, path, O_RDONLY | O_DIRECTORY, 0);

    if (fd < 0) {
        g_autofree char *where = rv_host_root_resolve(root, path);
        return rv_error_set(error, RV_ERROR_FAILED, -fd, "Failed to list '%s': %s",
                            where, g_strerror(-fd));
    }
    dir = fdopendir(fd);
    if (!dir) {
        int e = errno;
        close(fd);
        return rv_error_set(error, RV_ERROR_FAILED, e, "Failed to list '%s': %s",
                            path, g_strerror(e));
    }
    while ((de = readdir(dir))) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        g_ptr_array_add(names, g_strdup(de->d_name));
    }
    closedir(dir);
    g_ptr_array_sort(names, cmp_names);
    *ret_names = g_steal_pointer(&names);
    return (int) (*ret_names)->len;
}
