/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util/profile-path.h: find a profile by name.
 *
 * A profile argument that contains a '/' or names an existing file is used
 * as it is.  Otherwise it is a name, looked up as KIND/NAME.ini (then
 * KIND/NAME) in these directories, first match wins:
 *   1. ./profiles                  a source tree (the current directory's)
 *   2. $XDG_CONFIG_HOME/rtvirt     (default ~/.config/rtvirt)
 *   3. /etc/rtvirt
 *   4. EXEDIR/../share/rtvirt/profiles, EXEDIR the directory of
 *      /proc/self/exe: the installed profiles of $(PREFIX), found relative
 *      to the binary so that a staged (DESTDIR) or moved install works.
 * KIND is "host", "guests" or "matrix", as in the source tree.  The same
 * order is documented in rtvirt(1) FILES and doc/cli.md.
 */
#pragma once

#include <glib.h>

typedef enum {
    RV_PROFILE_HOST,
    RV_PROFILE_GUEST,
    RV_PROFILE_MATRIX,
} RvProfileKind;

#define RV_PROFILE_N_KINDS 3

/* One directory searched: @dir the profiles root (without KIND), @source
 * what it is ("source tree", "user", "system", "installed"). */
typedef struct {
    char *dir;
    const char *source;
} RvProfileDir;

/* One profile found by rv_profile_list(). */
typedef struct {
    RvProfileKind kind;
    char *name;        /* file name without .ini */
    char *path;
    const char *source;
    gboolean shadowed; /* an earlier directory has the same KIND/NAME */
} RvProfileEntry;

/* "host", "guests", "matrix": the directory of @kind under a profiles root. */
const char *rv_profile_kind_dir(RvProfileKind kind);

/* "host", "guest", "matrix": @kind in messages and JSON. */
const char *rv_profile_kind_name(RvProfileKind kind);

/**
 * rv_profile_dirs:
 *
 * Returns: (transfer full): the directories searched, in order, as
 * RvProfileDir* (whether they exist or not); free with g_ptr_array_unref().
 */
GPtrArray *rv_profile_dirs(void);

/**
 * rv_profile_find:
 * @kind: which kind of profile @name is
 * @name: a path (has a '/' or exists) or a profile name
 * @ret_path: (out): the file to load, a copy of @name for a path
 * @error: RV_ERROR_INVALID (ENOENT) naming every directory searched when
 *         no profile has that name
 *
 * Returns: 0 or -ENOENT.
 */
int rv_profile_find(RvProfileKind kind, const char *name, char **ret_path, GError **error)
    G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_profile_list:
 *
 * Returns: (transfer full): every *.ini under KIND/ of every directory of
 * rv_profile_dirs(), in search order and by name, as RvProfileEntry*; an
 * entry that an earlier directory hides has @shadowed set.  Unreadable or
 * missing directories are skipped.
 */
GPtrArray *rv_profile_list(void);
