/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/facts/qemu-conf.h: the one reader of libvirt's qemu.conf
 * (/etc/libvirt/qemu.conf through a host root), used by `host check`,
 * `host apply` (host/tune/tune.c) and `rtvirt run` (harness/run.c).
 *
 * Semantics are libvirt's own config parser, src/util/virconf.c
 * (virConfParse(), virConfGetValue()), so that rtvirt sees what the QEMU
 * driver sees:
 *  - statements "name = value", separated by an end of line or ';';
 *    a name starts with a letter, then letters, digits and '_';
 *  - a value is a number ([+-]digits), a string in "double", 'single' or
 *    """triple""" quotes (only the triple-quoted one may span lines; no
 *    escapes), or a [ list ] of values separated by ',' (a trailing ','
 *    allowed) that may span lines;
 *  - '#' starts a comment: on a line of its own, or after a statement's
 *    value.  A '#' inside a list is a syntax error, as in libvirt;
 *  - a key given twice: virConfParse() keeps every statement in file order
 *    and virConfGetValue() returns the FIRST one, so the first wins;
 *  - any syntax error fails the whole file (libvirt's QEMU driver then
 *    refuses to load it): the error names file, line and the problem in
 *    virconf's words ("expecting a value", "unterminated string", ...).
 */
#pragma once

#include <stdbool.h>
#include <glib.h>

#include "host/fsroot.h"

#define RV_QEMU_CONF_PATH "/etc/libvirt/qemu.conf"

typedef enum {
    RV_QEMU_CONF_NUMBER,
    RV_QEMU_CONF_STRING,
    RV_QEMU_CONF_LIST,
} RvQemuConfType;

typedef struct {
    char *key;
    RvQemuConfType type;
    char *text;          /* NUMBER: as written ("-1"); STRING: between the quotes;
                          * LIST: the items' texts joined by ',' ("cpu,memory") */
    char **items;        /* LIST: each item's text (a nested list as its joined
                          * text); NULL for the other types */
    unsigned line;       /* 1-based line of the key */
    gsize start;         /* byte offset of the key in the text */
    gsize end;           /* byte offset just past the value */
} RvQemuConfEntry;

typedef struct {
    char *path;          /* for messages */
    GPtrArray *entries;  /* RvQemuConfEntry *, in file order, repeated keys kept */
} RvQemuConf;

void rv_host_qemu_conf_free(RvQemuConf *conf);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvQemuConf, rv_host_qemu_conf_free)

/**
 * rv_host_qemu_conf_parse:
 * @text: the file's contents (NUL-terminated)
 * @path: the file's name, for messages
 * @ret: (out): the statements, written only on success
 * @error: (optional): RV_ERROR_INVALID "@path:LINE: <virconf message>"
 *
 * Returns: 0 or -EINVAL on a syntax error.
 */
int rv_host_qemu_conf_parse(const char *text, const char *path, RvQemuConf **ret,
                            GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_qemu_conf_load:
 * @root: live host or fixture tree
 * @path: host path (NULL: RV_QEMU_CONF_PATH)
 * @ret: (out): the statements, written only on success
 * @ret_text: (out) (optional): the raw contents, for rewriting
 * @error: (optional): RV_ERROR_FAILED from rv_host_root_read(), or the
 *         syntax error of rv_host_qemu_conf_parse()
 *
 * Returns: 0 or -errno (-ENOENT when the file is missing, -EINVAL on a
 * syntax error).
 */
int rv_host_qemu_conf_load(RvRoot *root, const char *path, RvQemuConf **ret, char **ret_text,
                           GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* The statement libvirt uses for @key (the first one), or NULL. */
const RvQemuConfEntry *rv_host_qemu_conf_get(const RvQemuConf *conf, const char *key);

/* ->text of rv_host_qemu_conf_get(), or NULL when @key is not set. */
const char *rv_host_qemu_conf_get_text(const RvQemuConf *conf, const char *key);

/**
 * rv_host_qemu_conf_set:
 * @text: qemu.conf contents
 * @key: a setting, e.g. "sched_core"
 * @value: its value in qemu.conf syntax, e.g. "\"vcpus\"" or
 *         "[ \"cpuset\", \"memory\" ]"
 * @error: (optional): the syntax error when @text does not parse
 *
 * Returns: (transfer full): @text with the statement libvirt uses for @key
 * (the first one; a list may span lines) replaced by "@key = @value", or
 * "# Set by rtvirt host apply\n@key = @value\n" appended when @key is not
 * set.  Everything else, comments after the old value included, is kept
 * byte for byte.  NULL on a syntax error.
 */
char *rv_host_qemu_conf_set(const char *text, const char *key, const char *value,
                            GError **error);

/* True when @e is a string equal to @s. */
bool rv_host_qemu_conf_is_string(const RvQemuConfEntry *e, const char *s);

/* True when @e is a list of as many items as @words, each one of @words:
 * the order does not matter (libvirt's qemu_conf.c turns
 * cgroup_controllers into a bit mask). */
bool rv_host_qemu_conf_is_words(const RvQemuConfEntry *e, const char *const *words);
