/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util/escape.h: values that came from the host or from a guest (a sysfs
 * file, /proc/PID/comm, a qemu-ga reply, a probe's JSON) may hold any
 * bytes; a corrupt or hostile one must not write raw control bytes to a
 * terminal or a log.  One rule, the one host/facts/state.c and host/facts/report.c
 * used before it moved here:
 *
 *   - a value quoted in a message (rv_escape_value(), rv_problem_new()):
 *     C escapes as g_strescape() writes them: \n \t \r \b \f \v \\ and
 *     "\ooo" for any other byte below 0x20 or from 0x7f up (so DEL, C1
 *     controls and bytes that are not UTF-8 too); '"' stays as it is
 *     (messages quote with '...');
 *   - a multi-line text (rv_escape_text(), reports): every control byte
 *     but newline and tab, DEL, the C1 controls (U+0080-U+009F) and every
 *     byte that is not part of valid UTF-8 becomes "\ooo"; other text,
 *     UTF-8 included ("µs"), stays.
 *
 * JSON output needs neither: json-glib's generator escapes control
 * characters itself (RFC 8259 section 7).
 */
#pragma once

#include <glib.h>

/**
 * rv_escape_value:
 * @s: (nullable): a value read from the host or a guest
 *
 * Returns: (transfer full): @s with the value rule above applied ("" for
 * NULL); plain ASCII text without '\\' comes back unchanged.
 */
char *rv_escape_value(const char *s);

/**
 * rv_escape_text:
 * @s: (transfer full): a text (a report) that quotes values
 *
 * Returns: (transfer full): the text with the text rule above applied,
 * @s itself when nothing needed escaping.
 */
char *rv_escape_text(char *s);

/**
 * rv_escape_line:
 * @s: (nullable): what a tool wrote (its stderr), any bytes
 * @max: the most bytes of the result, >= 8
 *
 * One line to quote in a reason or a log line: @s without the white space
 * around it, each run of line breaks ("\n", "\r\n", "\r") inside it as
 * "; ", every other byte by the value rule above (rv_escape_value()), so
 * the result is printable ASCII only.  When that is longer than @max
 * bytes it is cut where an escape starts, not inside one, and ends with
 * "..." (at most @max bytes in all).
 *
 * Returns: (transfer full): the line, "" for NULL or white space only.
 */
char *rv_escape_line(const char *s, gsize max);

/**
 * rv_problem_new:
 * @where: the file the value came from ("/sys/kernel/mm/ksm/run", a
 *         fixture path, "qemu-ga reply")
 * @value: (nullable): what it held
 * @why: why that is a problem (rtvirt's own words)
 *
 * One shape for "a value from the host is malformed", the message
 * host/facts/state.c writes into its problem list:
 *   "'WHERE' holds 'VALUE': WHY"
 * with @where, @value and @why escaped by the value rule.
 *
 * Returns: (transfer full): the message.
 */
char *rv_problem_new(const char *where, const char *value, const char *why);
