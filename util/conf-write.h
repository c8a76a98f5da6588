/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util/conf-write.h: a line writer for the small line-oriented
 * configuration files rtvirt generates outside its own INI dialect
 * (util/ini.h writes that one): sysctl.d(5) "key = value" lines,
 * modprobe.d(5) "options MODULE PARAM=VALUE" lines, systemd.syntax(7)
 * "[Section]" and "Key=Value" lines, each with '#' comments.
 *
 * Every line is checked to read back as written: no newline or other
 * control character in a field, no surrounding whitespace on a key or a
 * value, no whitespace inside a word.  What a format needs beyond that
 * (quoting an ExecStart= word, say) is its caller's job; the refusal is
 * RV_ERROR_INVALID with the offending text in the message.
 */
#pragma once

#include <glib.h>

typedef struct RvConfWriter RvConfWriter;

RvConfWriter *rv_conf_writer_new(void);
/* Frees; accepts NULL. */
void rv_conf_writer_free(RvConfWriter *w);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvConfWriter, rv_conf_writer_free)

/* "# TEXT" lines ("#" alone for an empty line); @fmt may yield several
 * lines.  A control character other than newline is written as '?'. */
void rv_conf_writer_comment(RvConfWriter *w, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

/* An empty line. */
void rv_conf_writer_blank(RvConfWriter *w);

/**
 * rv_conf_writer_section:
 * @name: section name, e.g. "Unit" (no ']', no control character, not empty)
 *
 * Writes "[NAME]", after an empty line unless it is the first line.
 *
 * Returns: 0 or -EINVAL (RV_ERROR_INVALID).
 */
int rv_conf_writer_section(RvConfWriter *w, const char *name,
                           GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_conf_writer_assign:
 * @key: not empty; no control character, '=', leading '#' or ';', or
 *       surrounding whitespace
 * @sep: what goes between, "=" (systemd) or " = " (sysctl.d)
 * @value: may be empty; no control character or surrounding whitespace
 *
 * Writes "KEY<SEP>VALUE".
 *
 * Returns: 0 or -EINVAL (RV_ERROR_INVALID naming the key).
 */
int rv_conf_writer_assign(RvConfWriter *w, const char *key, const char *sep,
                          const char *value, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_conf_writer_words:
 * @words: NULL-terminated, at least one; each not empty, without
 *         whitespace or control characters
 *
 * Writes the words separated by one space ("options kvm nx_huge_pages=0").
 *
 * Returns: 0 or -EINVAL (RV_ERROR_INVALID naming the word).
 */
int rv_conf_writer_words(RvConfWriter *w, const char *const *words,
                         GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* The text so far (transfer full); every line ends in a newline. */
char *rv_conf_writer_to_data(const RvConfWriter *w);
