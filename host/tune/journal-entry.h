/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/tune/journal-entry.h: the journal's entries and their one-line JSON
 * form, shared by host/tune/journal.c (open, record, revert) and
 * host/tune/journal-entry.c (the lines).  Internal to host/tune/journal*.c:
 * the format is documented in host/tune/journal.h.
 */
#pragma once

#include <stdbool.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <glib.h>
#include <json-glib/json-glib.h>

#include "host/tune/journal.h"

/* Format written (2: entries with "seq" and "sum", commit markers); 1 is
 * the released format, still read (see host/tune/journal.h). */
#define JOURNAL_VERSION 2
#define JOURNAL_VERSION_OLD 1
/* "sum": the first 16 hex digits (64 bits) of a SHA-256 */
#define SUM_HEX_LEN 16

typedef enum {
    ENTRY_VALUE,
    ENTRY_FILE,
    ENTRY_DIR,
    ENTRY_SCHED,
    ENTRY_CUSTOM,
    ENTRY_COMMIT,   /* not an entry: the end of a completed transaction */
} EntryKind;


typedef struct {
    EntryKind kind;
    char *path;          /* value, file, dir */
    char *old;           /* value: raw old contents; file: old bytes */
    gsize old_len;
    bool absent;         /* file: did not exist */
    guint mode;          /* file */
    gint64 uid, gid;     /* file, -1 when unknown */
    bool has_mtime;      /* file: mtime known (journals before it lack it) */
    struct timespec mtime;
    gint64 pid;          /* sched */
    guint64 starttime;
    int policy, prio;
    char *affinity;      /* cpulist */
    char *comm;
    char *type, *key, *data;  /* custom */
} Entry;

/* "value", "file", ... indexed by EntryKind */
extern const char *const rv_host_journal_entry_kind_names[];

void rv_host_journal_entry_free(Entry *e);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Entry, rv_host_journal_entry_free)

/* The header line (seq 0) of a format JOURNAL_VERSION journal of the host
 * under @root_path; sealed with its "sum", ends with a newline. */
char *rv_host_journal_header_line(const char *root_path, bool live);

/* A commit marker at @seq: the transaction of the @n_entries entries
 * before it completed. */
char *rv_host_journal_commit_line(guint64 seq, guint n_entries);

/* @e as one sealed line at @seq (ENTRY_COMMIT is not an entry). */
char *rv_host_journal_entry_line(const Entry *e, guint64 seq);

/* The entry a parsed line holds, or NULL when @o is no valid entry (a
 * commit marker is none either: journal_load() reads those). */
Entry *rv_host_journal_entry_parse(JsonObject *o);

/* Whether @line (without its newline), parsed as @o, carries a "sum" that
 * verifies. */
bool rv_host_journal_line_verifies(const char *line, JsonObject *o);

/* Members of a parsed line: a string (NULL when absent or not a string),
 * an integer (false when absent or not an integer). */
const char *rv_host_journal_obj_str(JsonObject *o, const char *name);
bool rv_host_journal_obj_int(JsonObject *o, const char *name, gint64 *ret);

/* The temporary files rv_host_journal_atomic_replace() makes beside FILE
 * are named FILE.rtvirt-XXXXXX (mkstemp(3)'s six characters); a kill
 * between their creation and the rename leaves one.  Revert removes those
 * beside every file it restores (rv_host_journal_sweep_temps()). */
#define TEMP_INFIX ".rtvirt-"

/* host/tune/journal-file.c: write @len bytes of @data to @fd (EINTR
 * retried); fsync the directory of @path.  Return 0 or -errno. */
int rv_host_journal_write_all(int fd, const char *data, gsize len);
int rv_host_journal_fsync_dir(const char *path);

/* Replaces @real atomically (FILE.rtvirt-XXXXXX beside it, fsync, rename)
 * with @len bytes of @data, @mode, owner @uid:@gid (-1: unchanged) and
 * @mtime (nullable: now).  Returns 0 or -errno with @error set. */
int rv_host_journal_atomic_replace(const char *real, const char *data, gsize len, guint mode,
                                   gint64 uid, gint64 gid, const struct timespec *mtime,
                                   GError **error);

/* The RV_TEST_KILL_AFTER / RV_TEST_KILL_AT test hook at a named point of
 * a write (host/tune/journal.c). */
void rv_host_journal_test_point(const char *point);

/* The journal itself and its helpers shared by host/tune/journal.c and
 * host/tune/journal-revert.c. */
typedef struct {
    RvJournalCustomRestore fn;
    gpointer user_data;
} Handler;

/* A line of a journal that could not be verified. */
typedef struct {
    guint line;             /* 1-based */
    char *what;
} Damage;

struct RvJournal {
    RvRoot *root;
    char *path;
    int lock_fd;
    int fd;                 /* O_APPEND, -1 until the first record */
    RvJournalOpenFlags flags;
    int version;            /* of the file read; 0: no file (yet) */
    guint64 next_seq;       /* of the next line appended */
    guint64 last_commit;    /* seq of the last commit marker, 0: none */
    guint64 last_seq;       /* seq of the last entry read or written */
    bool uncommitted;       /* this process appended since the last commit */
    GPtrArray *damage;      /* Damage *, in file order */
    guint bad_run;          /* damaged lines since the last good one (load) */
    RvJournalGuard guard;
    gpointer guard_data;
    GPtrArray *entries;     /* Entry *, oldest first */
    GHashTable *keys;       /* identity -> Entry * (borrowed) */
    GHashTable *handlers;   /* type -> Handler * */
};

/* A thread's policy, priority and affinity (sched_getscheduler(2),
 * sched_getaffinity(2)); 0 or -errno. */
int rv_host_journal_get_sched(pid_t pid, int *ret_policy, int *ret_prio, RvCpuSet *ret_affinity);
/* Adds @e (owned) to the entries and the "first original wins" index. */
void rv_host_journal_add_entry(RvJournal *j, Entry *e);
/* The whole journal text: header, @entries, one commit marker. */
GString *rv_host_journal_format_file(RvJournal *j, GPtrArray *entries);
/* Set a thread's affinity / policy and priority; 0 or -errno. */
int rv_host_journal_put_affinity(pid_t pid, const RvCpuSet *set);
int rv_host_journal_put_policy(pid_t pid, int policy, int prio);
/* A file under @root: its bytes and its lstat(2); 0, or -errno (-ENOENT
 * when absent). */
int rv_host_journal_read_file(RvRoot *root, const char *path, char **ret_data, gsize *ret_len,
                              struct stat *ret_st);
