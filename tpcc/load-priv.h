/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tpcc/load-priv.h: what tpcc/load.c takes from tpcc/schema.c. */
#pragma once

#include "tpcc/db.h"

/**
 * rv_tpcc_schema_create: create @database if missing and (re)create the
 * nine TPC-C tables and tpcc_meta in it, dropping old ones.  @m is left
 * using @database.
 */
int rv_tpcc_schema_create(MYSQL *m, const char *database, GError **error) G_GNUC_WARN_UNUSED_RESULT;
