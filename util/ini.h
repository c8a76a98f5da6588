/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util/ini.h: rtvirt's profile files (profiles/host, profiles/guests,
 * profiles/matrix).
 *
 * Format: tuned-style INI (tuned.conf(5)): "[section]" headers,
 * "key = value" lines, '#' or ';' comment lines, no continuation lines.
 * A "include = NAME" key in [main] loads NAME first (NAME.ini or NAME,
 * relative to the including file's directory, or an absolute path); keys of
 * the including file override included ones.  Several includes may be
 * comma-separated; include cycles are an error.
 *
 * A section header or a key written twice in one file is an error (it would
 * silently merge two sections, e.g. two [scenario:x]); overriding a key is
 * done across files, with include=.
 *
 * Every value remembers its file and line so that an error can name them:
 * "profiles/guests/rt-demo.ini:12: invalid vcpus '0': expected 1-1024".
 * Keys nobody read are reported by rv_ini_check_unused() (unknown keys are
 * errors, not silently ignored).
 */
#pragma once

#include <stdbool.h>
#include <glib.h>

#include "util/cpulist.h"

typedef struct RvIni RvIni;

typedef struct {
    char *section;
    char *key;
    char *value;
    char *file;      /* path as opened */
    unsigned line;   /* 1-based */
    bool used;
} RvIniEntry;

/**
 * rv_ini_load:
 * @path: the profile file
 * @ret: (out): the parsed profile, written only on success
 * @error: (optional): RV_ERROR_INVALID "FILE:LINE: ..." for syntax errors,
 *         RV_ERROR_FAILED for unreadable files
 *
 * Returns: 0 or -errno.
 */
int rv_ini_load(const char *path, RvIni **ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* Parses @text as if read from @name (for tests and embedded profiles). */
int rv_ini_load_data(const char *name, const char *text, RvIni **ret,
                     GError **error) G_GNUC_WARN_UNUSED_RESULT;

void rv_ini_free(RvIni *ini);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvIni, rv_ini_free)

/* The file given to rv_ini_load(). */
const char *rv_ini_path(const RvIni *ini);

/* Every file read, the top one first then includes in load order (for the
 * results store: copies and hashes of the profiles).  Transfer none. */
GPtrArray *rv_ini_files(const RvIni *ini);

/* Section names in file order, each once.  Transfer container. */
GPtrArray *rv_ini_sections(const RvIni *ini);

/* Keys of @section in file order (effective entries only).  Transfer container
 * of RvIniEntry pointers owned by @ini. */
GPtrArray *rv_ini_entries(const RvIni *ini, const char *section);

/* The effective entry or NULL; marks it used. */
const RvIniEntry *rv_ini_lookup(RvIni *ini, const char *section, const char *key);

/* The effective value or NULL when absent; marks it used. */
const char *rv_ini_get(RvIni *ini, const char *section, const char *key);

/*
 * Typed getters.  Each returns 0 and writes *ret when the key is present
 * and valid, 0 and leaves *ret unchanged when absent (so callers preset the
 * default), and -EINVAL with RV_ERROR_INVALID "FILE:LINE: invalid KEY
 * 'VALUE' in [SECTION]: WHY" when present but invalid.
 */
int rv_ini_get_bool(RvIni *ini, const char *section, const char *key, bool *ret,
                    GError **error) G_GNUC_WARN_UNUSED_RESULT;
int rv_ini_get_int(RvIni *ini, const char *section, const char *key, gint64 min,
                   gint64 max, gint64 *ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;
/* "30s", "500ms", "10m", "1h", "250us"; a bare number is seconds.  In us. */
int rv_ini_get_duration_us(RvIni *ini, const char *section, const char *key,
                           guint64 *ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;
/* "512M", "2G", "4096K", bare number = bytes (binary units).  In bytes. */
int rv_ini_get_size(RvIni *ini, const char *section, const char *key,
                    guint64 *ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;
/* A kernel cpulist (util/cpulist.h); @nr_cpu_ids as there. */
int rv_ini_get_cpulist(RvIni *ini, const char *section, const char *key,
                       unsigned nr_cpu_ids, RvCpuSet *ret,
                       GError **error) G_GNUC_WARN_UNUSED_RESULT;
/* One of @choices (NULL-terminated); *ret is its index. */
int rv_ini_get_enum(RvIni *ini, const char *section, const char *key,
                    const char * const *choices, int *ret,
                    GError **error) G_GNUC_WARN_UNUSED_RESULT;
/* Comma/space separated words.  *ret transfer full (NULL-terminated); a
 * previous *ret is NOT freed (preset NULL or a default you free yourself). */
int rv_ini_get_strv(RvIni *ini, const char *section, const char *key, char ***ret,
                    GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* Sets an RV_ERROR_INVALID error "FILE:LINE: MESSAGE" for @entry; returns -EINVAL. */
int rv_ini_entry_error(const RvIniEntry *entry, GError **error, const char *fmt, ...)
    G_GNUC_PRINTF(3, 4);

/**
 * rv_ini_entry_prefix_error:
 * @entry: the entry whose value caused *@error
 * @error: (nullable): an error set by a callee (nothing happens when NULL)
 * @fmt: printf-like context, ending in its separator ("host_profile 'x': ")
 *
 * Prefixes *@error with "FILE:LINE: " and @fmt (g_prefix_error()), so that
 * the callee's domain and code, and with them the exit status, survive
 * where rv_ini_entry_error() would make every cause RV_ERROR_INVALID.
 */
void rv_ini_entry_prefix_error(const RvIniEntry *entry, GError **error, const char *fmt, ...)
    G_GNUC_PRINTF(3, 4);

/**
 * rv_ini_check_unused:
 * @sections: (nullable): NULL-terminated list of section names or prefixes
 *            ending in '*' (e.g. "scenario:*") that the caller handles; an
 *            entry in another section is reported too. NULL = all sections.
 *
 * Returns: 0, or -EINVAL with "FILE:LINE: unknown key 'K' in [S]" for the
 * first effective entry never read (include= is always considered read).
 */
int rv_ini_check_unused(RvIni *ini, const char * const *sections,
                        GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* "main" section's include= handling is done by the loader. */

/*
 * Writing (util/ini-write.c): a file in the same dialect, for profiles that
 * rtvirt generates (`host export-tuned` writes tuned.conf).  Sections keep
 * the order of their first key, keys their order; a value is written as
 * "key = value" on one line.
 */
typedef struct RvIniWriter RvIniWriter;

RvIniWriter *rv_ini_writer_new(void);
void rv_ini_writer_free(RvIniWriter *w);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvIniWriter, rv_ini_writer_free)

/* "# TEXT" lines: before the first section when no section has been
 * written, else before the next key of @section.  @text may hold several
 * lines. */
void rv_ini_writer_comment(RvIniWriter *w, const char *section, const char *text);

/**
 * rv_ini_writer_set:
 * @section: section name (no ']' or newline)
 * @key: key (not empty; no '=', newline, leading '[', '#' or ';')
 * @value: value (no newline or other control character: it must read back
 *         as one line; surrounding whitespace would be stripped on reading)
 * @error: (optional): RV_ERROR_INVALID naming what was refused
 *
 * Sets @key in @section; a key set twice keeps its place, takes the value.
 *
 * Returns: 0 or -EINVAL.
 */
int rv_ini_writer_set(RvIniWriter *w, const char *section, const char *key, const char *value,
                      GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* The text (transfer full). */
char *rv_ini_writer_to_data(const RvIniWriter *w);
