/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util/file.h: the one way rtvirt reads a whole file it did not write
 * itself (a profile, a run.json, cyclictest output, a probe's JSON from a
 * guest, a domain XML), with one errno policy:
 *
 *   - the size is bounded by the caller (untrusted input never makes
 *     rtvirt allocate without limit): past it, -EFBIG;
 *   - a missing file is -ENOENT, so a caller can tell "absent" from
 *     "unreadable" by the return value alone;
 *   - every other failure is the open(2)/read(2) errno, negated;
 *   - the message always names the path:
 *     "Failed to read '/etc/rtvirt/rt.ini': No such file or directory".
 *
 * host/fsroot.h reads /sys and /proc through a root with the same rules
 * (rv_file_read_fd()).
 */
#pragma once

#include <glib.h>

/* Default bound for rtvirt's own inputs: profiles, matrices, run.json,
 * cyclictest output and JSON are far smaller. */
#define RV_FILE_READ_MAX (16u << 20)

/**
 * rv_file_read_fd:
 * @fd: an open file descriptor, read from its current offset to EOF; not closed
 * @name: the path for messages
 * @max: the most bytes accepted
 * @ret_contents: (out): the contents with a NUL appended (they may hold NUL
 *                bytes themselves), written only on success
 * @error: RV_ERROR_FAILED "Failed to read 'NAME': <strerror>", or
 *         RV_ERROR_INVALID "Failed to read 'NAME': larger than MAX bytes"
 *
 * Reads to EOF (works for /proc and pipes, whose size stat(2) does not
 * tell), retrying EINTR.
 *
 * Returns: the length read, or -errno (-EFBIG past @max).
 */
gssize rv_file_read_fd(int fd, const char *name, gsize max, char **ret_contents,
                       GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_file_read:
 * @path: a file
 * @max: the most bytes accepted (RV_FILE_READ_MAX or smaller)
 * @ret_contents: (out): as rv_file_read_fd()
 * @error: as rv_file_read_fd(); a missing file is RV_ERROR_FAILED
 *         "Failed to read 'PATH': No such file or directory" with -ENOENT
 *
 * A FIFO is opened without blocking: one without a writer reads as empty
 * (a hostile store cannot hang rtvirt), a pipe with one (bash's <(...)) is
 * read to its EOF.
 *
 * Returns: the length read, or -errno: -ENOENT for a missing file (or a
 * missing directory on the way), -EISDIR for a directory, -EFBIG past @max.
 */
gssize rv_file_read(const char *path, gsize max, char **ret_contents,
                    GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_file_check_text:
 * @name: the file's name for messages
 * @data: the contents
 * @len: bytes of @data
 * @error: RV_ERROR_INVALID "NAME: not UTF-8 text (byte OFFSET)"
 *
 * For files read as text (profiles, matrices): no NUL byte, valid UTF-8.
 *
 * Returns: 0 or -EINVAL.
 */
int rv_file_check_text(const char *name, const char *data, gsize len,
                       GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_path_join_lexical:
 * @dir: (nullable): the directory a relative @path is relative to ("." or
 *       NULL: the current one)
 * @path: a path; an absolute one ignores @dir
 *
 * @dir and @path joined, then "." components, empty ones and each "NAME/.."
 * pair dropped by their text alone, as POSIX realpath() would without
 * following links, and as Python's os.path.normpath() does: the path is
 * shown the way a user reads it ("profiles/matrix/../host/x.ini" is
 * "profiles/host/x.ini").  No symbolic link is resolved and nothing is
 * read: where NAME is a link that leads elsewhere, the result names
 * another file than the kernel would open, so use it for what a profile
 * names relative to its own file (the project's layout, not a user's
 * links through it).  Leading ".." of a relative path stay; "/.." is "/".
 *
 * Returns: (transfer full): the path, "." for an empty result.
 */
char *rv_path_join_lexical(const char *dir, const char *path);

/**
 * rv_path_join_shown:
 * @dir: (nullable): as rv_path_join_lexical()
 * @path: as rv_path_join_lexical()
 *
 * The path to open and to show for @path named in a file in @dir:
 * rv_path_join_lexical()'s when it names the same file as the plain join
 * (same device and inode, or neither exists), else the plain join, so a
 * directory link on the way (DIR/link/../x) still leads where the kernel
 * takes it.  Reads nothing but stat(2) of the two.
 *
 * Returns: (transfer full): the path.
 */
char *rv_path_join_shown(const char *dir, const char *path);
