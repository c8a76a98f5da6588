/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/tuned/tuned-priv.h: the pieces of host/tuned/tuned.c that tests drive alone:
 * tuned's INI dialect and profile merge (host/tuned/tuned-ini.c) and its
 * variable and function expansion (host/tuned/tuned-expand.c), and how a tuned
 * seen on the system bus is described (host/tuned/tuned-state.c).
 */
#pragma once

#include <stdbool.h>
#include <glib.h>

#include "host/fsroot.h"
#include "host/profile/profile.h"
#include "host/facts/topology.h"

/* One "key = value" of a tuned file. */
typedef struct {
    char *key;
    char *value;     /* NULL for a key without '=' (variables files only) */
    char *file;
    unsigned line;
} RvTunedOpt;

/* One [section] (tuned calls it a unit; [main] is one too). */
typedef struct {
    char *name;
    char *file;      /* where the winning header is */
    unsigned line;
    GPtrArray *opts; /* RvTunedOpt *, in ConfigParser order: a key set again keeps
                      * its first position and takes the new value */
} RvTunedUnit;

/* A parsed file, or the merge of a profile and its includes. */
typedef struct {
    GPtrArray *units;  /* RvTunedUnit *, in order */
    GPtrArray *files;  /* char *: every file read, top profile first */
} RvTunedConf;

void rv_tuned_conf_free(RvTunedConf *conf);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvTunedConf, rv_tuned_conf_free)

/**
 * rv_tuned_parse:
 * @name: file name for messages and RvTunedOpt.file
 * @text: the file's text
 * @no_value: keys without '=' are allowed (tuned's variables files:
 *            allow_no_value=True); otherwise they are an error
 * @default_section: (nullable): the section of lines before any header
 *            (variables files get tuned's magic header); NULL: such a line
 *            is an error, as ConfigParser's MissingSectionHeaderError
 * @ret: (out): the parsed file
 * @error: (optional): RV_ERROR_INVALID "FILE:LINE: ..."
 *
 * Returns: 0 or -EINVAL.
 */
int rv_tuned_parse(const char *name, const char *text, bool no_value,
                   const char *default_section, RvTunedConf **ret,
                   GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* The unit @name or NULL; its option @key or NULL. */
RvTunedUnit *rv_tuned_unit(const RvTunedConf *conf, const char *name);
RvTunedOpt *rv_tuned_opt(const RvTunedUnit *unit, const char *key);

/**
 * rv_tuned_load_merged:
 * @path: a profile directory or its tuned.conf
 * @ret: (out): the profile merged with its includes (tuned's Merger), with
 *       ${i:PROFILE_DIR} replaced by each file's directory and [main]
 *       include removed
 * @error: (optional): RV_ERROR_INVALID naming FILE:LINE for a syntax error
 *         or an include that is in none of the profile directories
 *
 * Returns: 0 or -errno.
 */
int rv_tuned_load_merged(const char *path, RvTunedConf **ret,
                         GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* The expansion context: variables defined so far and the host the
 * functions read. */
typedef struct {
    RvRoot *root;
    const RvTopology *topo;
    GHashTable *vars;        /* name -> expanded value */
    RvHostProfile *profile;  /* notes go there (nullable) */
    const char *file;        /* the value being expanded, for notes and errors */
    unsigned line;
    char *cpuinfo;           /* /proc/cpuinfo of the root, read once */
    GError *error;           /* set by a failed assertion; expansion stops */
} RvTunedExpand;

void rv_tuned_expand_init(RvTunedExpand *x, RvRoot *root, const RvTopology *topo,
                          RvHostProfile *profile);
void rv_tuned_expand_clear(RvTunedExpand *x);

/**
 * rv_tuned_expand:
 * @x: the context (x->file/x->line name the value)
 * @value: a raw value
 *
 * tuned's Variables.expand(): ${NAME} of the variables defined so far in
 * one pass (not ${NAME} preceded by '\'), then \${NAME} unescaped, then the
 * functions, innermost first, then \${f:...} unescaped.
 *
 * Returns: (transfer full): the expanded value, or NULL with x->error set
 * (RV_ERROR_INVALID) when a tuned assertion failed.
 */
char *rv_tuned_expand(RvTunedExpand *x, const char *value);

/* tuned's variables: NAME must be \w+ (else a note, as tuned logs and skips);
 * @value is expanded first.  Returns 0 or -EINVAL with x->error set. */
int rv_tuned_add_variable(RvTunedExpand *x, const char *name, const char *value,
                          const char *file, unsigned line);

/* tuned's cpulist_unpack(): "1-3,5", "^2" (removed), "0x..." hex masks;
 * anything else makes the empty set, as tuned returns []. */
void rv_tuned_cpulist_unpack(const char *s, RvCpuSet *ret);

/* The knobs @p sets, keyed by what they write ("kernel.timer_migration",
 * "module kvm.nx_huge_pages", "kernel threads rcuc", "bootarg isolcpus"...),
 * value = the value as text (RvTunedKnob); @order gets the keys in order.
 * host/tuned/tuned-state.c compares two profiles with it. */
typedef struct {
    char *value;
    char *at;      /* "FILE:LINE" or NULL */
} RvTunedKnob;

GHashTable *rv_tuned_profile_knobs(const RvHostProfile *p, GPtrArray *order);

/**
 * rv_tuned_bus_owner_describe:
 * @root: the host (its /proc)
 * @bus_pid: the PID the system bus gives for com.redhat.tuned's owner
 *           (GetConnectionUnixProcessID), 0 when it gave none
 * @ret_pid: (out): @bus_pid when /proc/PID/comm is readable in @root, else 0
 *
 * The bus knows the PID that opened the connection: `tuned --daemon`
 * connects (its polkit client) before it forks twice, so on such a host the
 * bus names the launcher, long gone (t-tuned-live saw it).  Only a PID with
 * a live /proc entry is reported as tuned's.
 *
 * Returns: (transfer full): "D-Bus name com.redhat.tuned owned by PID N
 * (COMM)", or "... has an owner; the bus names PID N, which has exited
 * (...)", or "... has an owner".
 */
char *rv_tuned_bus_owner_describe(RvRoot *root, gint64 bus_pid, gint64 *ret_pid);
