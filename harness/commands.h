/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/commands.h: one entry point per subcommand.  Each takes the argv
 * that follows the subcommand words (argv[0] is "rtvirt host show" etc.,
 * for GOptionContext), parses its own options, and returns the exit status
 * (util/error.h: 0 pass, 1 check failed, 2 error, 77 skipped).
 */
#pragma once

int rv_cmd_host_show(int argc, char **argv);
int rv_cmd_host_check(int argc, char **argv);
int rv_cmd_host_capture(int argc, char **argv);
int rv_cmd_host_apply(int argc, char **argv);
int rv_cmd_host_revert(int argc, char **argv);
int rv_cmd_host_export_tuned(int argc, char **argv);
int rv_cmd_host_bootargs(int argc, char **argv);
int rv_cmd_guest_build(int argc, char **argv);
int rv_cmd_guest_image(int argc, char **argv);
int rv_cmd_guest_xml(int argc, char **argv);
int rv_cmd_guest_run(int argc, char **argv);
int rv_cmd_guest_check(int argc, char **argv);
int rv_cmd_run(int argc, char **argv);
int rv_cmd_compare(int argc, char **argv);
int rv_cmd_report(int argc, char **argv);
int rv_cmd_result_check(int argc, char **argv);
int rv_cmd_pert(int argc, char **argv);
int rv_cmd_setup(int argc, char **argv);
int rv_cmd_status(int argc, char **argv);
int rv_cmd_profiles(int argc, char **argv);
int rv_cmd_rules(int argc, char **argv);
