/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/placeholder.c: TEMPORARY entry points for commands still being
 * written.  Each helper that implements a command moves its function out of
 * this file into its own harness/cmd-*.c.  This file must be gone before a
 * submission.
 */
#include "harness/commands.h"
#include "harness/log.h"
#include "util/error.h"

#define RV_PLACEHOLDER(fn, what)                                   \
    int fn(int argc, char **argv)                                  \
    {                                                              \
        (void) argc; (void) argv;                                  \
        rv_log_error("'%s' is not implemented yet", what);         \
        return RV_EXIT_ERROR;                                      \
    }

RV_PLACEHOLDER(rv_cmd_host_show, "host show")
RV_PLACEHOLDER(rv_cmd_host_check, "host check")
RV_PLACEHOLDER(rv_cmd_host_capture, "host capture")
RV_PLACEHOLDER(rv_cmd_host_apply, "host apply")
RV_PLACEHOLDER(rv_cmd_host_revert, "host revert")
RV_PLACEHOLDER(rv_cmd_host_bootargs, "host bootargs")
RV_PLACEHOLDER(rv_cmd_guest_build, "guest build")
RV_PLACEHOLDER(rv_cmd_guest_xml, "guest xml")
RV_PLACEHOLDER(rv_cmd_guest_run, "guest run")
RV_PLACEHOLDER(rv_cmd_run, "run")
RV_PLACEHOLDER(rv_cmd_compare, "compare")
RV_PLACEHOLDER(rv_cmd_pert, "pert")
RV_PLACEHOLDER(rv_cmd_setup, "setup")
