/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/tune/journal.c: on-disk journal of host changes (see host/tune/journal.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "host/tune/journal.h"
#include "host/tune/journal-entry.h"
#include "host/tune/journal-priv.h"
#include "util/error.h"


/* The identity that "first original wins" is keyed on. */
static char *
entry_identity(const Entry *e)
{
    switch (e->kind) {
    case ENTRY_VALUE:
    case ENTRY_FILE:
    case ENTRY_DIR:
        return g_strdup_printf("path:%s", e->path);
    case ENTRY_SCHED:
        return g_strdup_printf("sched:%" G_GINT64_FORMAT ":%" G_GUINT64_FORMAT,
                               e->pid, e->starttime);
    case ENTRY_CUSTOM:
        return g_strdup_printf("custom:%s:%s", e->type, e->key);
    case ENTRY_COMMIT:
        break;
    }
    g_assert_not_reached();
}

/* ---- the RV_TEST_KILL_AFTER test hook ---------------------------------- */

static void
journal_note_change(void)
{
    static gint64 kill_after = -1, stop_after = -1;
    static gint64 changes;
    static gsize once;

    if (g_once_init_enter(&once)) {
        const char *s = g_getenv("RV_TEST_KILL_AFTER");
        if (s && *s)
            kill_after = g_ascii_strtoll(s, NULL, 10);
        s = g_getenv("RV_TEST_STOP_AFTER");
        if (s && *s)
            stop_after = g_ascii_strtoll(s, NULL, 10);
        g_once_init_leave(&once, 1);
    }
    changes++;
    if (kill_after > 0 && changes == kill_after)
        raise(SIGKILL);
    if (stop_after > 0 && changes == stop_after)
        raise(SIGSTOP);
}

/* RV_TEST_KILL_AT=POINT:N: raise(SIGKILL) the N-th time the named point
 * is reached (points: "temp-written", after a temporary file is written
 * and fsync()ed, before its rename; "temp-created", right after mkstemp),
 * so tests can crash where rtvirt's temporary files exist. */
void
rv_host_journal_test_point(const char *point)
{
    static char *want;
    static gint64 at = -1, hits;
    static gsize once;

    if (g_once_init_enter(&once)) {
        const char *s = g_getenv("RV_TEST_KILL_AT");
        const char *colon = s ? strchr(s, ':') : NULL;
        if (colon) {
            want = g_strndup(s, colon - s);
            at = g_ascii_strtoll(colon + 1, NULL, 10);
        }
        g_once_init_leave(&once, 1);
    }
    if (want && g_str_equal(want, point) && ++hits == at)
        raise(SIGKILL);
}

/* ---- helpers ----------------------------------------------------------- */

char *
rv_host_journal_normalize_value(const char *raw)
{
    g_autofree char *s = g_strstrip(g_strdup(raw));
    const char *open = strchr(s, '[');
    const char *close = open ? strchr(open, ']') : NULL;

    if (open && close && strchr(s, ' '))
        return g_strndup(open + 1, close - open - 1);
    return g_steal_pointer(&s);
}

/* "always [madvise] never" + "never" -> "always madvise [never]\n"; NULL
 * when @raw is no choice list holding @value. */
static char *
choice_shown(const char *raw, const char *value)
{
    g_autofree char *norm = rv_host_journal_normalize_value(raw);
    g_autofree char *stripped = g_strstrip(g_strdup(raw));
    g_auto(GStrv) words = NULL;
    GString *out;
    bool found = false;

    if (strcmp(norm, stripped) == 0)
        return NULL;   /* no [selection]: not a choice list */
    words = g_strsplit(stripped, " ", -1);
    out = g_string_new(NULL);
    for (char **w = words; *w; w++) {
        g_autofree char *bare = g_strdup(*w);

        if (bare[0] == '[' && bare[strlen(bare) - 1] == ']') {
            memmove(bare, bare + 1, strlen(bare));
            bare[strlen(bare) - 1] = '\0';
        }
        if (out->len)
            g_string_append_c(out, ' ');
        if (strcmp(bare, value) == 0) {
            found = true;
            g_string_append_printf(out, "[%s]", bare);
        } else {
            g_string_append(out, bare);
        }
    }
    g_string_append_c(out, '\n');
    if (!found) {
        g_string_free(out, TRUE);
        return NULL;
    }
    return g_string_free(out, FALSE);
}

int
rv_host_journal_pid_starttime(RvRoot *root, pid_t pid, guint64 *ret_starttime)
{
    g_autofree char *path = g_strdup_printf("/proc/%d/stat", (int) pid);
    g_autofree char *stat = NULL;
    g_auto(GStrv) fields = NULL;
    const char *p;
    gssize n = rv_host_root_read(root, path, &stat, NULL);

    if (n < 0)
        return n == -ENOENT ? -ESRCH : (int) n;
    /* "pid (comm) state ppid ...": comm may hold spaces and ')' */
    p = strrchr(stat, ')');
    if (!p)
        return -EINVAL;
    fields = g_strsplit_set(p + 1, " \n", -1);
    /* fields[0] is "" (the space after ')'), fields[1] is field 3 (state),
     * so field 22 (starttime) is fields[20]. */
    if (g_strv_length(fields) < 21)
        return -EINVAL;
    *ret_starttime = g_ascii_strtoull(fields[20], NULL, 10);
    return 0;
}

void
rv_host_journal_add_entry(RvJournal *j, Entry *e)
{
    g_ptr_array_add(j->entries, e);
    g_hash_table_insert(j->keys, entry_identity(e), e);
}

static void
damage_free(Damage *d)
{
    g_free(d->what);
    g_free(d);
}

static void G_GNUC_PRINTF(3, 4)
damage_add(RvJournal *j, guint line, const char *fmt, ...)
{
    Damage *d = g_new0(Damage, 1);
    va_list ap;

    va_start(ap, fmt);
    d->line = line;
    d->what = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_ptr_array_add(j->damage, d);
    j->bad_run++;
}

/* The whole journal as the current format: header, @entries renumbered
 * from 1, a commit marker after them. */
GString *
rv_host_journal_format_file(RvJournal *j, GPtrArray *entries)
{
    GString *s = g_string_new(NULL);
    g_autofree char *header = rv_host_journal_header_line(rv_host_root_path(j->root), rv_host_root_is_live(j->root));
    g_autofree char *commit = NULL;

    g_string_append(s, header);
    for (guint i = 0; i < entries->len; i++) {
        g_autofree char *line = rv_host_journal_entry_line(entries->pdata[i], i + 1);
        g_string_append(s, line);
    }
    if (entries->len) {
        commit = rv_host_journal_commit_line(entries->len + 1, entries->len);
        g_string_append(s, commit);
    }
    return s;
}

/* Opens the journal file for appending; a new journal (or one in the old
 * format) is first written whole, atomically, so that the file never
 * exists without its header. */
static int
journal_open_append(RvJournal *j, GError **error)
{
    int fd;

    if (j->damage->len)
        return rv_error_set(error, RV_ERROR_INVALID, EBADMSG,
                            "Journal '%s' is damaged: nothing is added to it; "
                            "`rtvirt host revert` first", j->path);
    if (j->version != JOURNAL_VERSION) {
        g_autoptr(GString) all = rv_host_journal_format_file(j, j->entries);
        int r = rv_host_journal_atomic_replace(j->path, all->str, all->len, 0600, -1, -1, NULL, error);

        if (r < 0)
            return r;
        j->version = JOURNAL_VERSION;
        j->next_seq = j->entries->len + (j->entries->len ? 2 : 1);
    }
    fd = open(j->path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        int e = errno;
        return rv_error_set(error, RV_ERROR_FAILED, e, "Failed to open journal '%s': %s",
                            j->path, g_strerror(e));
    }
    j->fd = fd;
    return 0;
}

/* Appends one sealed line durably (write + fsync). */
static int
journal_write_line(RvJournal *j, const char *line, GError **error)
{
    int r;

    if (j->fd < 0 && (r = journal_open_append(j, error)) < 0)
        return r;
    r = rv_host_journal_write_all(j->fd, line, strlen(line));
    if (r == 0 && fsync(j->fd) < 0)
        r = -errno;
    if (r < 0)
        return rv_error_set(error, RV_ERROR_FAILED, -r, "Failed to write journal '%s': %s",
                            j->path, g_strerror(-r));
    return 0;
}

/* Append @e durably (write + fsync) and take it over. */
static int
journal_append(RvJournal *j, Entry *e, GError **error)
{
    g_autofree char *line = NULL;
    int r;

    if (j->fd < 0 && (r = journal_open_append(j, error)) < 0) {
        rv_host_journal_entry_free(e);
        return r;
    }
    line = rv_host_journal_entry_line(e, j->next_seq);
    r = journal_write_line(j, line, error);
    if (r < 0) {
        rv_host_journal_entry_free(e);
        return r;
    }
    j->last_seq = j->next_seq++;
    j->uncommitted = true;
    rv_host_journal_add_entry(j, e);
    return 0;
}

int
rv_host_journal_commit(RvJournal *j, GError **error)
{
    g_autofree char *line = NULL;
    int r;

    if (!j->uncommitted)
        return 0;
    line = rv_host_journal_commit_line(j->next_seq, j->entries->len);
    r = journal_write_line(j, line, error);
    if (r < 0)
        return r;
    j->last_commit = j->next_seq++;
    j->uncommitted = false;
    return 1;
}

/* ---- open / close ------------------------------------------------------ */

/* Parses line 1 of @contents as a journal header.  Returns the format
 * version, or 0 when the line is no header (the file is no journal). */
static int
parse_header(RvJournal *j, const char *line, GError **error)
{
    g_autoptr(JsonParser) parser = json_parser_new();
    JsonNode *node, *live;
    JsonObject *o;
    gint64 version;

    if (!json_parser_load_from_data(parser, line, -1, NULL) ||
        !(node = json_parser_get_root(parser)) || !JSON_NODE_HOLDS_OBJECT(node))
        return 0;
    o = json_node_get_object(node);
    if (!rv_host_journal_obj_int(o, "rtvirt-journal", &version))
        return 0;
    if (version != JOURNAL_VERSION && version != JOURNAL_VERSION_OLD)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s:1: journal version %" G_GINT64_FORMAT
                            " is not supported (expected %d or %d)",
                            j->path, version, JOURNAL_VERSION_OLD, JOURNAL_VERSION);
    if (version == JOURNAL_VERSION && !rv_host_journal_line_verifies(line, o))
        damage_add(j, 1, "header checksum mismatch");
    live = json_object_get_member(o, "live");
    if (live && JSON_NODE_HOLDS_VALUE(live) &&
        json_node_get_boolean(live) != rv_host_root_is_live(j->root))
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s:1: journal was written for root '%s', not '%s'",
                            j->path, rv_host_journal_obj_str(o, "root") ? rv_host_journal_obj_str(o, "root") : "?",
                            rv_host_root_path(j->root));
    return (int) version;
}

/* One line after the header: an entry, a commit marker or damage. */
static void
load_line(RvJournal *j, guint lineno, const char *line)
{
    g_autoptr(JsonParser) parser = json_parser_new();
    JsonNode *node;
    JsonObject *o;
    const char *kind;
    gint64 seq = 0;
    Entry *e;

    if (!json_parser_load_from_data(parser, line, -1, NULL) ||
        !(node = json_parser_get_root(parser)) || !JSON_NODE_HOLDS_OBJECT(node)) {
        damage_add(j, lineno, "not a JSON object");
        return;
    }
    o = json_node_get_object(node);
    if (j->version == JOURNAL_VERSION) {
        if (!rv_host_journal_obj_int(o, "seq", &seq) || seq < 1 || !rv_host_journal_line_verifies(line, o)) {
            damage_add(j, lineno, "checksum mismatch");
            return;
        }
        if ((guint64) seq < j->next_seq) {
            damage_add(j, lineno, "entry %" G_GINT64_FORMAT " out of order (after %"
                       G_GUINT64_FORMAT ")", seq, j->next_seq - 1);
            return;
        }
        /* a gap the damaged lines before this one account for is theirs */
        if ((guint64) seq - j->next_seq > j->bad_run) {
            if ((guint64) seq - j->next_seq == 1)
                damage_add(j, lineno, "entry %" G_GUINT64_FORMAT " missing before it",
                           j->next_seq);
            else
                damage_add(j, lineno, "entries %" G_GUINT64_FORMAT "-%" G_GINT64_FORMAT
                           " missing before it", j->next_seq, seq - 1);
        }
        j->next_seq = (guint64) seq + 1;
        j->bad_run = 0;
        kind = rv_host_journal_obj_str(o, "kind");
        if (g_strcmp0(kind, rv_host_journal_entry_kind_names[ENTRY_COMMIT]) == 0) {
            j->last_commit = (guint64) seq;
            return;
        }
        j->last_seq = (guint64) seq;
    }
    e = rv_host_journal_entry_parse(o);
    if (!e) {
        kind = rv_host_journal_obj_str(o, "kind");
        damage_add(j, lineno, "not a journal entry (kind '%s')", kind ? kind : "?");
        return;
    }
    rv_host_journal_add_entry(j, e);
}

/* Reads the journal file: entries that verify are loaded, every other line
 * is listed in j->damage.  Nothing is written.  Errors: the file is no
 * journal (line 1 no header), another root's, unreadable. */
static int
journal_load(RvJournal *j, GError **error)
{
    g_autofree char *contents = NULL;
    g_autoptr(GError) local = NULL;
    gsize len = 0, pos = 0;
    guint lineno = 0;

    if (!g_file_get_contents(j->path, &contents, &len, &local)) {
        if (g_error_matches(local, G_FILE_ERROR, G_FILE_ERROR_NOENT))
            return 0;
        return rv_error_set(error, RV_ERROR_FAILED, EIO, "Failed to read journal '%s': %s",
                            j->path, local->message);
    }
    if (len == 0) {
        damage_add(j, 1, "the file is empty: no journal header; the entries it held, "
                   "if any, are lost");
        return 0;
    }
    j->next_seq = 1;
    while (pos < len) {
        const char *nl = memchr(contents + pos, '\n', len - pos);
        gsize start = pos, end = nl ? (gsize) (nl - contents) : len;
        g_autofree char *line = g_strndup(contents + start, end - start);

        lineno++;
        pos = end + 1;
        if (lineno == 1) {
            int v = parse_header(j, line, error);

            if (v < 0)
                return v;
            if (v == 0)
                return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                                    "'%s' is not an rtvirt journal (line 1 is no journal "
                                    "header): left untouched", j->path);
            j->version = v;
            if (!nl)
                damage_add(j, 1, "cut mid-line: no newline after the header");
            continue;
        }
        if (!nl) {
            /* the write of this line was interrupted, or the file was cut
             * here: what followed, if anything, is gone */
            damage_add(j, lineno, "cut mid-line (%zu bytes after the last newline)",
                       end - start);
            continue;
        }
        if (!*line) {
            if (j->version == JOURNAL_VERSION)
                damage_add(j, lineno, "empty line");
            continue;
        }
        load_line(j, lineno, line);
    }
    return 0;
}

/* Refuses a @path that exists and is no journal before anything is
 * created beside it (a lock file) or written to it. */
static int
check_is_journal(RvJournal *j, GError **error)
{
    g_autofree char *head = NULL;
    struct stat st;
    char buf[4096];
    ssize_t n;
    int fd = open(j->path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    int v;

    if (fd < 0) {
        int e = errno;

        if (e == ENOENT)
            return 0;
        return rv_error_set(error, RV_ERROR_FAILED, e, "Failed to open journal '%s': %s",
                            j->path, g_strerror(e));
    }
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "'%s' is not an rtvirt journal (not a regular file): left untouched",
                            j->path);
    }
    n = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (n <= 0)
        return 0;   /* empty: damage, found by journal_load() */
    buf[n] = '\0';
    head = g_strndup(buf, strcspn(buf, "\n"));
    v = parse_header(j, head, error);
    g_ptr_array_set_size(j->damage, 0);   /* journal_load() reads it again */
    if (v < 0)
        return v;
    if (v == 0)
        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "'%s' is not an rtvirt journal (line 1 is no journal header): "
                            "left untouched", j->path);
    return 0;
}

int
rv_host_journal_open_flags(RvRoot *root, const char *path, RvJournalOpenFlags flags,
                           RvJournal **ret, GError **error)
{
    g_autoptr(RvJournal) j = g_new0(RvJournal, 1);
    g_autofree char *dir = NULL;
    g_autofree char *lock_path = NULL;
    int r;

    j->root = root;
    j->lock_fd = -1;
    j->fd = -1;
    j->flags = flags;
    j->next_seq = 1;
    j->entries = g_ptr_array_new_with_free_func((GDestroyNotify) rv_host_journal_entry_free);
    j->keys = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    j->handlers = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    j->damage = g_ptr_array_new_with_free_func((GDestroyNotify) damage_free);
    j->path = path ? g_strdup(path) : rv_host_root_resolve(root, RV_HOST_JOURNAL_DEFAULT_PATH);

    r = check_is_journal(j, error);
    if (r < 0)
        return r;
    dir = g_path_get_dirname(j->path);
    if (g_mkdir_with_parents(dir, 0755) < 0) {
        int e = errno;
        return rv_error_set(error, RV_ERROR_FAILED, e,
                            "Failed to create journal directory '%s': %s", dir, g_strerror(e));
    }
    /* A lock file beside the journal: the journal itself is replaced by
     * rename() on a partial revert, and a lock on a replaced inode guards
     * nothing. */
    lock_path = g_strconcat(j->path, ".lock", NULL);
    j->lock_fd = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (j->lock_fd < 0) {
        int e = errno;
        return rv_error_set(error, RV_ERROR_FAILED, e, "Failed to open '%s': %s",
                            lock_path, g_strerror(e));
    }
    if (flock(j->lock_fd, LOCK_EX | LOCK_NB) < 0) {
        int e = errno;
        if (e == EWOULDBLOCK)
            return rv_error_set(error, RV_ERROR_FAILED, EBUSY,
                                "Journal '%s' is in use by another rtvirt process", j->path);
        return rv_error_set(error, RV_ERROR_FAILED, e, "Failed to lock '%s': %s",
                            lock_path, g_strerror(e));
    }
    r = journal_load(j, error);
    if (r < 0)
        return r;
    if (j->damage->len && !(flags & RV_JOURNAL_OPEN_DAMAGED)) {
        const Damage *d = j->damage->pdata[0];

        return rv_error_set(error, RV_ERROR_INVALID, EINVAL,
                            "%s:%u: %s (journal damaged, %u line%s not verified: "
                            "`rtvirt host revert` restores what verifies, see rtvirt(1))",
                            j->path, d->line, d->what, j->damage->len,
                            j->damage->len == 1 ? "" : "s");
    }
    *ret = g_steal_pointer(&j);
    return 0;
}

int
rv_host_journal_peek(RvRoot *root, const char *path, RvJournalSummary *ret, GError **error)
{
    g_autoptr(RvJournal) j = g_new0(RvJournal, 1);
    int r;

    j->root = root;
    j->lock_fd = -1;
    j->fd = -1;
    j->next_seq = 1;
    j->entries = g_ptr_array_new_with_free_func((GDestroyNotify) rv_host_journal_entry_free);
    j->keys = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    j->handlers = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    j->damage = g_ptr_array_new_with_free_func((GDestroyNotify) damage_free);
    j->path = path ? g_strdup(path) : rv_host_root_resolve(root, RV_HOST_JOURNAL_DEFAULT_PATH);
    if ((r = check_is_journal(j, error)) < 0 || (r = journal_load(j, error)) < 0)
        return r;
    ret->exists = g_file_test(j->path, G_FILE_TEST_EXISTS);
    ret->version = j->version;
    ret->n_entries = j->entries->len;
    ret->n_damaged = j->damage->len;
    ret->interrupted = rv_host_journal_interrupted(j);
    return 0;
}

int
rv_host_journal_open(RvRoot *root, const char *path, RvJournal **ret, GError **error)
{
    return rv_host_journal_open_flags(root, path, RV_JOURNAL_OPEN_DEFAULT, ret, error);
}

void
rv_host_journal_close(RvJournal *j)
{
    if (!j)
        return;
    if (j->fd >= 0)
        close(j->fd);
    if (j->lock_fd >= 0)
        close(j->lock_fd);   /* releases the flock */
    g_clear_pointer(&j->entries, g_ptr_array_unref);
    g_clear_pointer(&j->keys, g_hash_table_unref);
    g_clear_pointer(&j->handlers, g_hash_table_unref);
    g_clear_pointer(&j->damage, g_ptr_array_unref);
    g_free(j->path);
    g_free(j);
}

const char *
rv_host_journal_path(const RvJournal *j)
{
    return j->path;
}

void
rv_host_journal_set_guard(RvJournal *j, RvJournalGuard fn, gpointer user_data)
{
    j->guard = fn;
    j->guard_data = user_data;
}

static int
journal_guard(RvJournal *j, GError **error)
{
    return j->guard ? j->guard(j->guard_data, error) : 0;
}

int
rv_host_journal_format_version(const RvJournal *j)
{
    return j->version;
}

bool
rv_host_journal_interrupted(const RvJournal *j)
{
    return j->version == JOURNAL_VERSION && j->last_seq > j->last_commit;
}

GPtrArray *
rv_host_journal_damage(const RvJournal *j)
{
    GPtrArray *out = g_ptr_array_new_with_free_func(g_free);

    for (guint i = 0; i < j->damage->len; i++) {
        const Damage *d = j->damage->pdata[i];

        g_ptr_array_add(out, g_strdup_printf("line %u: %s", d->line, d->what));
    }
    return out;
}

guint
rv_host_journal_n_entries(const RvJournal *j)
{
    return j->entries->len;
}

bool
rv_host_journal_has_path(const RvJournal *j, const char *path)
{
    g_autofree char *key = g_strdup_printf("path:%s", path);

    return g_hash_table_contains(j->keys, key);
}

/* ---- changes ----------------------------------------------------------- */

int
rv_host_journal_set_value(RvJournal *j, const char *path, const char *value, GError **error)
{
    g_autofree char *raw = NULL;
    g_autofree char *current = NULL;
    g_autofree char *shown = NULL;
    gssize n;
    int r;

    n = rv_host_root_read(j->root, path, &raw, error);
    if (n < 0)
        return (int) n;
    current = rv_host_journal_normalize_value(raw);
    if (strcmp(current, value) == 0)
        return 0;
    /* a fixture file standing for a choice attribute is written the way
     * the kernel shows it afterwards: "always madvise [never]" */
    if (!rv_host_root_is_live(j->root))
        shown = choice_shown(raw, value);
    if ((r = journal_guard(j, error)) < 0)
        return r;
    if (!rv_host_journal_has_path(j, path)) {
        Entry *e = g_new0(Entry, 1);

        e->kind = ENTRY_VALUE;
        e->path = g_strdup(path);
        e->old = g_steal_pointer(&raw);
        e->old_len = (gsize) n;
        r = journal_append(j, e, error);
        if (r < 0)
            return r;
    }
    r = rv_host_root_write(j->root, path, shown ? shown : value, error);
    if (r < 0)
        return r;
    journal_note_change();
    return 1;
}

/* Reads a regular file through the root: contents, mode, owner.
 * Returns 0, or -ENOENT when it does not exist, or -errno. */
int
rv_host_journal_read_file(RvRoot *root, const char *path, char **ret_data, gsize *ret_len, struct stat *ret_st)
{
    g_autofree char *data = NULL;
    struct stat st;
    gsize len = 0;
    int fd = rv_host_root_openat(root, path, O_RDONLY, 0);
    int r = 0;

    if (fd < 0)
        return fd;
    if (fstat(fd, &st) < 0) {
        r = -errno;
    } else if (!S_ISREG(st.st_mode)) {
        r = -EISDIR;
    } else {
        while (r == 0) {
            ssize_t n;

            data = g_realloc(data, len + 4096 + 1);
            n = read(fd, data + len, 4096);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0)
                r = -errno;
            else if (n == 0)
                break;
            else
                len += n;
        }
    }
    close(fd);
    if (r < 0)
        return r;
    data[len] = '\0';
    *ret_data = g_steal_pointer(&data);
    *ret_len = len;
    *ret_st = st;
    return 0;
}

int
rv_host_journal_set_file(RvJournal *j, const char *path, const char *contents, gssize len,
                         mode_t mode, GError **error)
{
    g_autofree char *old = NULL;
    g_autofree char *real = rv_host_root_resolve(j->root, path);
    gsize old_len = 0;
    struct stat st;
    gint64 uid = -1, gid = -1;
    guint use_mode = mode;
    int r;

    if (contents && len < 0)
        len = (gssize) strlen(contents);
    r = rv_host_journal_read_file(j->root, path, &old, &old_len, &st);
    if (r < 0 && r != -ENOENT)
        return rv_error_set(error, RV_ERROR_FAILED, -r, "Failed to read '%s': %s", real,
                            g_strerror(-r));
    if (r == 0) {
        if (contents && old_len == (gsize) len && memcmp(old, contents, len) == 0)
            return 0;
        use_mode = st.st_mode & 07777;
        uid = st.st_uid;
        gid = st.st_gid;
    } else if (!contents) {
        return 0;
    }
    if ((r = journal_guard(j, error)) < 0)
        return r;

    if (contents) {
        g_autofree char *parent = g_path_get_dirname(path);

        if (!rv_host_root_exists(j->root, parent)) {
            r = rv_host_journal_mkdir(j, parent, 0755, error);
            if (r < 0)
                return r;
        }
    }
    if (!rv_host_journal_has_path(j, path)) {
        Entry *e = g_new0(Entry, 1);

        e->kind = ENTRY_FILE;
        e->path = g_strdup(path);
        e->uid = uid;
        e->gid = gid;
        if (old) {
            e->old = g_steal_pointer(&old);
            e->old_len = old_len;
            e->mode = st.st_mode & 07777;
            e->has_mtime = true;
            e->mtime = st.st_mtim;
        } else {
            e->absent = true;
        }
        r = journal_append(j, e, error);
        if (r < 0)
            return r;
    }
    if (contents) {
        r = rv_host_journal_atomic_replace(real, contents, (gsize) len, use_mode, uid, gid, NULL, error);
        if (r < 0)
            return r;
    } else {
        if (unlink(real) < 0 && errno != ENOENT) {
            int e = errno;
            return rv_error_set(error, RV_ERROR_FAILED, e, "Failed to remove '%s': %s", real,
                                g_strerror(e));
        }
        (void) rv_host_journal_fsync_dir(real);
    }
    journal_note_change();
    return 1;
}

int
rv_host_journal_set_symlink(RvJournal *j, const char *path, const char *target,
                            GError **error)
{
    g_autofree char *real = rv_host_root_resolve(j->root, path);
    g_autofree char *parent = g_path_get_dirname(path);
    g_autofree char *cur = NULL;
    g_autoptr(GError) lerr = NULL;
    struct stat st;
    Entry *e;
    int r;

    cur = g_file_read_link(real, &lerr);
    if (cur && strcmp(cur, target) == 0)
        return 0;
    if (cur || lstat(real, &st) == 0)
        return rv_error_set(error, RV_ERROR_FAILED, EEXIST,
                            "Cannot create the link '%s' -> '%s': it exists (%s%s%s), not made "
                            "by rtvirt: left alone", real, target,
                            cur ? "a link to '" : "not a link", cur ? cur : "", cur ? "'" : "");
    if (errno != ENOENT) {
        int e2 = errno;
        return rv_error_set(error, RV_ERROR_FAILED, e2, "Failed to read '%s': %s", real,
                            g_strerror(e2));
    }
    if ((r = journal_guard(j, error)) < 0)
        return r;
    if (!rv_host_root_exists(j->root, parent)) {
        r = rv_host_journal_mkdir(j, parent, 0755, error);
        if (r < 0)
            return r;
    }
    if (!rv_host_journal_has_path(j, path)) {
        e = g_new0(Entry, 1);
        e->kind = ENTRY_FILE;
        e->path = g_strdup(path);
        e->uid = -1;
        e->gid = -1;
        e->absent = true;
        r = journal_append(j, e, error);
        if (r < 0)
            return r;
    }
    if (symlink(target, real) < 0) {
        int e2 = errno;
        return rv_error_set(error, RV_ERROR_FAILED, e2, "Failed to create the link '%s' -> '%s': %s",
                            real, target, g_strerror(e2));
    }
    (void) rv_host_journal_fsync_dir(real);
    journal_note_change();
    return 1;
}

int
rv_host_journal_mkdir(RvJournal *j, const char *path, mode_t mode, GError **error)
{
    g_autofree char *real = rv_host_root_resolve(j->root, path);
    g_autofree char *parent = g_path_get_dirname(path);
    Entry *e;
    int r;

    if (rv_host_root_exists(j->root, path))
        return 0;
    if ((r = journal_guard(j, error)) < 0)
        return r;
    if (strcmp(parent, path) != 0 && !rv_host_root_exists(j->root, parent)) {
        r = rv_host_journal_mkdir(j, parent, 0755, error);
        if (r < 0)
            return r;
    }
    if (!rv_host_journal_has_path(j, path)) {
        e = g_new0(Entry, 1);
        e->kind = ENTRY_DIR;
        e->path = g_strdup(path);
        r = journal_append(j, e, error);
        if (r < 0)
            return r;
    }
    if (mkdir(real, mode) < 0 && errno != EEXIST) {
        int e2 = errno;
        return rv_error_set(error, RV_ERROR_FAILED, e2, "Failed to create directory '%s': %s",
                            real, g_strerror(e2));
    }
    (void) rv_host_journal_fsync_dir(real);
    journal_note_change();
    return 1;
}

/* Current scheduling of @pid: policy (without SCHED_RESET_ON_FORK),
 * priority and affinity. */
int
rv_host_journal_get_sched(pid_t pid, int *ret_policy, int *ret_prio, RvCpuSet *ret_affinity)
{
    struct sched_param sp;
    size_t size = CPU_ALLOC_SIZE(RV_CPUSET_MAX);
    cpu_set_t *mask;
    int policy;

    policy = sched_getscheduler(pid);
    if (policy < 0)
        return -errno;
    if (sched_getparam(pid, &sp) < 0)
        return -errno;
    mask = CPU_ALLOC(RV_CPUSET_MAX);
    if (sched_getaffinity(pid, size, mask) < 0) {
        int e = errno;
        CPU_FREE(mask);
        return -e;
    }
    rv_cpuset_zero(ret_affinity);
    for (unsigned c = 0; c < RV_CPUSET_MAX; c++)
        if (CPU_ISSET_S(c, size, mask))
            rv_cpuset_set(ret_affinity, c);
    CPU_FREE(mask);
    *ret_policy = policy & ~SCHED_RESET_ON_FORK;
    *ret_prio = sp.sched_priority;
    return 0;
}

int
rv_host_journal_put_affinity(pid_t pid, const RvCpuSet *set)
{
    size_t size = CPU_ALLOC_SIZE(RV_CPUSET_MAX);
    cpu_set_t *mask = CPU_ALLOC(RV_CPUSET_MAX);
    int r = 0;

    CPU_ZERO_S(size, mask);
    rv_cpuset_foreach(c, set)
        CPU_SET_S(c, size, mask);
    if (sched_setaffinity(pid, size, mask) < 0)
        r = -errno;
    CPU_FREE(mask);
    return r;
}

int
rv_host_journal_put_policy(pid_t pid, int policy, int prio)
{
    struct sched_param sp = { .sched_priority = prio };

    return sched_setscheduler(pid, policy, &sp) < 0 ? -errno : 0;
}

static char *
read_comm(RvRoot *root, pid_t pid)
{
    g_autofree char *path = g_strdup_printf("/proc/%d/comm", (int) pid);
    char *comm = NULL;

    if (rv_host_root_read_value(root, path, &comm, NULL) < 0)
        return g_strdup("?");
    return comm;
}

int
rv_host_journal_set_sched(RvJournal *j, pid_t pid, int policy, int prio,
                          const RvCpuSet *affinity, GError **error)
{
    g_autofree char *comm = NULL;
    g_autofree char *id = NULL;
    RvCpuSet cur_aff;
    guint64 starttime;
    int cur_policy, cur_prio, r;
    bool change_policy, change_aff;

    if (!rv_host_root_is_live(j->root))
        return rv_error_set(error, RV_ERROR_UNSUPPORTED, EOPNOTSUPP,
                            "Cannot change the scheduling of pid %d on root '%s': not the live host",
                            (int) pid, rv_host_root_path(j->root));
    r = rv_host_journal_pid_starttime(j->root, pid, &starttime);
    if (r == 0)
        r = rv_host_journal_get_sched(pid, &cur_policy, &cur_prio, &cur_aff);
    if (r < 0)
        return rv_error_set(error, RV_ERROR_FAILED, -r,
                            "Failed to read the scheduling of pid %d: %s", (int) pid,
                            g_strerror(-r));
    comm = read_comm(j->root, pid);
    if (policy < 0) {
        policy = cur_policy;
        prio = cur_prio;
    }
    change_policy = policy != cur_policy || prio != cur_prio;
    change_aff = affinity && !rv_cpuset_equal(affinity, &cur_aff);
    if (!change_policy && !change_aff)
        return 0;
    if ((r = journal_guard(j, error)) < 0)
        return r;

    id = g_strdup_printf("sched:%d:%" G_GUINT64_FORMAT, (int) pid, starttime);
    if (!g_hash_table_contains(j->keys, id)) {
        Entry *e = g_new0(Entry, 1);

        e->kind = ENTRY_SCHED;
        e->pid = pid;
        e->starttime = starttime;
        e->comm = g_strdup(comm);
        e->policy = cur_policy;
        e->prio = cur_prio;
        e->affinity = rv_cpulist_format(&cur_aff);
        r = journal_append(j, e, error);
        if (r < 0)
            return r;
    }
    if (change_policy) {
        r = rv_host_journal_put_policy(pid, policy, prio);
        if (r < 0)
            return rv_error_set(error, RV_ERROR_FAILED, -r,
                                "Failed to set scheduling policy %d priority %d of pid %d (%s): %s",
                                policy, prio, (int) pid, comm, g_strerror(-r));
        journal_note_change();
    }
    if (change_aff) {
        r = rv_host_journal_put_affinity(pid, affinity);
        if (r < 0) {
            g_autofree char *list = rv_cpulist_format(affinity);
            return rv_error_set(error, RV_ERROR_FAILED, -r,
                                "Failed to set the CPU affinity of pid %d (%s) to '%s': %s",
                                (int) pid, comm, list, g_strerror(-r));
        }
        journal_note_change();
    }
    return 1;
}

int
rv_host_journal_record_custom(RvJournal *j, const char *type, const char *key,
                              const char *data, GError **error)
{
    g_autofree char *id = g_strdup_printf("custom:%s:%s", type, key);
    Entry *e;
    int r;

    if (g_hash_table_contains(j->keys, id))
        return 0;
    if ((r = journal_guard(j, error)) < 0)
        return r;
    e = g_new0(Entry, 1);
    e->kind = ENTRY_CUSTOM;
    e->type = g_strdup(type);
    e->key = g_strdup(key);
    e->data = g_strdup(data ? data : "");
    r = journal_append(j, e, error);
    if (r < 0)
        return r;
    journal_note_change();
    return 1;
}

void
rv_host_journal_set_custom_handler(RvJournal *j, const char *type, RvJournalCustomRestore fn,
                                   gpointer user_data)
{
    Handler *h = g_new0(Handler, 1);

    h->fn = fn;
    h->user_data = user_data;
    g_hash_table_replace(j->handlers, g_strdup(type), h);
}

