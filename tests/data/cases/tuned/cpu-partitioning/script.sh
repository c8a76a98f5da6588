#!/bin/bash
# Stand-in for tuned's profiles/cpu-partitioning/script.sh (v2.28): the
# calls its start() makes into /usr/lib/tuned/functions (besides copying
# the systemd CPUAffinity drop-in and the dracut pre-udev hook into the
# initrd), written here (not copied) for rtvirt's tuned reader.
. /usr/lib/tuned/functions
start() { setup_kvm_mod_low_latency; disable_ksm; return 0; }
stop() { [ "$1" = full_rollback ] && { teardown_kvm_mod_low_latency; enable_ksm; }; return 0; }
process "$@"
