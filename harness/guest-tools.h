/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/guest-tools.h: rtvirt's guest-side programs as found beside the
 * running rtvirt binary, for the disk images (guest/disk-image.h).
 */
#pragma once

#include "guest/disk-image.h"

/**
 * rv_harness_disk_image_options:
 * @opts: (out): filled with the guest programs found in the directory of
 *        /proc/self/exe (make puts them beside rtvirt: rtvirt-tpcc, ...);
 *        the tool array is static and lives until exit
 *
 * A program not built is left out (an image without it, and a different
 * hash); the TPC-C load then fails naming rtvirt-tpcc.
 */
void rv_harness_disk_image_options(RvGuestDiskImageOptions *opts);
