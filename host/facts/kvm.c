/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <fcntl.h>
#include <unistd.h>

#include "host/facts/kvm.h"

static void
set_reason(char **ret, char *reason)
{
    if (ret)
        *ret = reason;
    else
        g_free(reason);
}

RvHostKvm
rv_host_kvm_detect(RvRoot *root, char **ret_reason)
{
    bool hw = rv_host_root_exists(root, "/sys/module/kvm_intel") ||
              rv_host_root_exists(root, "/sys/module/kvm_amd");
    bool pvm = rv_host_root_exists(root, "/sys/module/kvm_pvm");

    if (rv_host_root_is_live(root)) {
        int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);

        if (fd < 0) {
            set_reason(ret_reason, g_strdup("/dev/kvm cannot be opened: no KVM"));
            return RV_HOST_KVM_NONE;
        }
        close(fd);
    } else if (!rv_host_root_exists(root, "/sys/module")) {
        /* older captures (topology only) have no /sys/module: the host they
         * describe is taken as the ordinary hardware-KVM host */
        set_reason(ret_reason,
                   g_strdup("no /sys/module in this root (a capture without modules): "
                            "hardware-assisted KVM assumed"));
        return RV_HOST_KVM_HW;
    } else if (!pvm && !rv_host_root_exists(root, "/sys/module/kvm")) {
        set_reason(ret_reason, g_strdup("no /sys/module/kvm in this root: no KVM"));
        return RV_HOST_KVM_NONE;
    }
    if (pvm && !hw) {
        set_reason(ret_reason,
                   g_strdup("/dev/kvm is PVM (module kvm_pvm, no kvm_intel/kvm_amd): an "
                            "unmodified guest kernel runs instruction-emulated at about "
                            "0.2-1 M instructions/s and does not boot in useful time"));
        return RV_HOST_KVM_PVM;
    }
    set_reason(ret_reason, g_strdup("/dev/kvm opens (hardware-assisted KVM)"));
    return RV_HOST_KVM_HW;
}
