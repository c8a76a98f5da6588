/* SPDX-License-Identifier: GPL-2.0-or-later */
/* harness/cmd-guest.c: TEMPORARY placeholder entry points, replaced by the real command. */
#include "harness/commands.h"
#include "harness/log.h"
#include "util/error.h"

int
rv_cmd_guest_build(int argc, char **argv)
{
    (void) argc;
    rv_log_error("%s: not implemented yet", argv[0]);
    return RV_EXIT_ERROR;
}

int
rv_cmd_guest_xml(int argc, char **argv)
{
    (void) argc;
    rv_log_error("%s: not implemented yet", argv[0]);
    return RV_EXIT_ERROR;
}

int
rv_cmd_guest_run(int argc, char **argv)
{
    (void) argc;
    rv_log_error("%s: not implemented yet", argv[0]);
    return RV_EXIT_ERROR;
}

int
rv_cmd_setup(int argc, char **argv)
{
    (void) argc;
    rv_log_error("%s: not implemented yet", argv[0]);
    return RV_EXIT_ERROR;
}

