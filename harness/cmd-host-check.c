/* SPDX-License-Identifier: GPL-2.0-or-later */
/* harness/cmd-host-check.c: TEMPORARY placeholder entry points, replaced by the real command. */
#include "harness/commands.h"
#include "harness/log.h"
#include "util/error.h"

int
rv_cmd_host_check(int argc, char **argv)
{
    (void) argc;
    rv_log_error("%s: not implemented yet", argv[0]);
    return RV_EXIT_ERROR;
}

