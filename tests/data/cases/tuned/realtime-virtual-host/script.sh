#!/bin/bash
# Stand-in for tuned's profiles/realtime-virtual-host/script.sh (v2.28):
# the calls its start() makes into /usr/lib/tuned/functions, written here
# (not copied) so that rtvirt's tuned reader sees what the profile does.
. /usr/lib/tuned/functions
start() { setup_kvm_mod_low_latency; return 0; }
stop() { [ "$1" = full_rollback ] && teardown_kvm_mod_low_latency; return 0; }
process "$@"
