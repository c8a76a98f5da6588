/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util/units.h: durations and sizes as users write them on the command line
 * and in profiles.
 */
#pragma once

#include <glib.h>

/**
 * rv_parse_duration_us:
 * @s: "250us", "500ms", "30s", "10m"/"10min", "1h", or a bare number of
 *     seconds ("2", "1.5")
 * @ret: (out): microseconds, written only on success
 *
 * Returns: 0, -EINVAL for anything else, -ERANGE beyond 2^64 us.
 */
int rv_parse_duration_us(const char *s, guint64 *ret) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_parse_size:
 * @s: "4096K", "512M"/"512MiB", "2G", "1T", or a bare number of bytes
 *     (binary units: K = 1024)
 * @ret: (out): bytes, written only on success
 *
 * Returns: 0, -EINVAL or -ERANGE.
 */
int rv_parse_size(const char *s, guint64 *ret) G_GNUC_WARN_UNUSED_RESULT;
