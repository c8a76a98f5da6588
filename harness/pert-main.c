/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/pert-main.c: `rtvirt-pert`, the probe alone, linked with GLib and
 * json-glib only, for guests: the embedded guest image carries it instead of
 * the whole rtvirt (which needs libvirt).  Same options as `rtvirt pert`.
 */
#include "harness/commands.h"

int
main(int argc, char **argv)
{
    return rv_cmd_pert(argc, argv);
}
