/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/facts/kvm.h: what kind of KVM this host offers guests.
 *
 * /dev/kvm opening is not enough: under PVM (the paravirtualized KVM of
 * nested cloud sandboxes, module kvm_pvm) an unmodified guest kernel has
 * every kernel-mode instruction emulated, at about 0.2-1 million
 * instructions per second measured on a build machine (a Debian 6.1 guest
 * does not reach userspace in 60 s).  Such a host must run guests under TCG.
 */
#pragma once

#include <glib.h>

#include "host/fsroot.h"

typedef enum {
    RV_HOST_KVM_NONE,      /* no /dev/kvm, or it cannot be opened */
    RV_HOST_KVM_HW,        /* hardware-assisted: kvm_intel / kvm_amd (or built in) */
    RV_HOST_KVM_PVM,       /* kvm_pvm without kvm_intel/kvm_amd: kernel mode emulated */
} RvHostKvm;

/**
 * rv_host_kvm_detect:
 * @root: host root; /sys/module/{kvm_intel,kvm_amd,kvm_pvm} are read
 *        through it; /dev/kvm is opened (O_RDWR, as QEMU's
 *        accel/kvm/kvm-all.c does) only on the live host, and assumed
 *        present on a fixture root that has /sys/module/kvm or
 *        /sys/module/kvm_pvm.  A fixture root with /sys/module but neither
 *        is NONE; one without /sys/module at all (older topology-only
 *        captures) is taken as the hardware-KVM host it describes (HW, and
 *        the reason says it was assumed)
 * @ret_reason: (out) (optional): one sentence for the user, e.g.
 *        "/dev/kvm is PVM (module kvm_pvm, no kvm_intel/kvm_amd): an
 *        unmodified guest kernel is instruction-emulated"
 *
 * Returns: the kind (never fails: what cannot be read counts as absent).
 */
RvHostKvm rv_host_kvm_detect(RvRoot *root, char **ret_reason);
