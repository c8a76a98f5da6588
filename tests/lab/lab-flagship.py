#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# lab-flagship.py: the lab host's read-back of the lab-sized flagship run
# (profiles/matrix/coresched-vs-nosmt-lab.ini), used by lab-host-tests.sh.
#
#   lab-flagship.py sample OUT PREFIX
#       Until killed (at most 3 h, OUT at most 32 MiB): every 2 s one JSON
#       line in OUT: {t, smt (smt/control), online, vms: [{pid, name,
#       threads: [{tid, comm, cpus (Cpus_allowed_list), cookie, cgroup}]}],
#       daemon: [cookies of libvirtd's threads]} for every QEMU process
#       whose -name is guest=PREFIX*.  The cookie is read with
#       prctl(PR_SCHED_CORE, PR_SCHED_CORE_GET) (the 6.1 kernel's
#       /proc/PID/sched does not print it), -errno where that fails:
#       -ESRCH (-3) a thread that went away, -ENODEV (-19) with SMT off
#       (kernel/sched/core_sched.c refuses without sched_smt_present).
#   lab-flagship.py check STORE SAMPLES ISOLATED SIBLINGS [SCENARIOS]
#       Prints one line per fact, "ok TEXT" or "FAIL TEXT", from the
#       store's run.json and the samples; ISOLATED is the host's isolated
#       cpulist, SIBLINGS "CPU:SIBLING,..." as /sys showed them before the
#       run, SCENARIOS the comma-separated scenarios the matrix holds
#       (default all four; the short check, lab-host-check.sh --short,
#       runs "coresched,nosmt").  The number of lines depends on SCENARIOS
#       only, not on the data.  Only the samples inside each scenario's
#       window count: its cyclictest record's start less the 2-s warm-up
#       to its end plus 3 s (the teardown).
# Untrusted input (the store, the samples): read bounded, every key looked
# up with a default, so a malformed file makes FAIL lines, not a crash.
import ctypes
import datetime
import json
import os
import re
import sys
import time

PR_SCHED_CORE = 62
PR_SCHED_CORE_GET = 0
SCENARIOS = ("baseline", "coresched", "siblings-idle", "nosmt")
ESRCH, ENODEV = 3, 19


def read(path, limit=1 << 20):
    try:
        with open(path, "rb") as f:
            return f.read(limit).decode("utf-8", "replace")
    except OSError:
        return ""


def cookie_of(libc, tid):
    c = ctypes.c_ulonglong(0)
    r = libc.prctl(PR_SCHED_CORE, ctypes.c_ulong(PR_SCHED_CORE_GET), ctypes.c_ulong(tid),
                   ctypes.c_ulong(0), ctypes.byref(c))
    return -ctypes.get_errno() if r != 0 else c.value


def threads_of(libc, pid):
    out = []
    try:
        tids = sorted(int(t) for t in os.listdir("/proc/%d/task" % pid))
    except OSError:
        return out
    for tid in tids:
        base = "/proc/%d/task/%d/" % (pid, tid)
        m = re.search(r"^Cpus_allowed_list:\s*(\S+)", read(base + "status"), re.M)
        out.append({"tid": tid, "comm": read(base + "comm").strip(),
                    "cpus": m.group(1) if m else "",
                    "cookie": cookie_of(libc, tid),
                    "cgroup": read(base + "cgroup").strip()})
    return out


def sample(out, prefix):
    libc = ctypes.CDLL(None, use_errno=True)
    pat = re.compile(rb"^guest=(" + re.escape(prefix.encode()) + rb"[^,]*)")
    end = time.time() + 3 * 3600
    with open(out, "a") as f:
        while time.time() < end and f.tell() < (32 << 20):
            vms, daemon = [], []
            for p in os.listdir("/proc"):
                if not p.isdigit():
                    continue
                try:
                    with open("/proc/%s/cmdline" % p, "rb") as c:
                        args = c.read(65536).split(b"\0")
                except OSError:
                    continue
                if args and args[0].endswith(b"/libvirtd"):
                    daemon = [t["cookie"] for t in threads_of(libc, int(p))]
                for a in args:
                    m = pat.match(a)
                    if m:
                        vms.append({"pid": int(p), "name": m.group(1).decode(),
                                    "threads": threads_of(libc, int(p))})
            f.write(json.dumps({"t": time.time(),
                                "smt": read("/sys/devices/system/cpu/smt/control").strip(),
                                "online": read("/sys/devices/system/cpu/online").strip(),
                                "vms": vms, "daemon": daemon}) + "\n")
            f.flush()
            time.sleep(2)


def cpus(s):
    out = set()
    for part in (s or "").split(","):
        if "-" in part:
            a, b = part.split("-", 1)
            if a.isdigit() and b.isdigit():
                out |= set(range(int(a), int(b) + 1))
        elif part.isdigit():
            out.add(int(part))
    return out


def say(ok, text):
    print(("ok " if ok else "FAIL ") + text.replace("\n", " "))


def check(store, samples_path, isolated, siblings, scenarios=",".join(SCENARIOS)):
    scens = tuple(x for x in scenarios.split(",") if x in SCENARIOS)
    if "coresched" not in scens or "nosmt" not in scens:
        sys.stderr.write("lab-flagship.py: SCENARIOS must hold coresched and nosmt: '%s'\n" % scenarios)
        sys.exit(2)
    try:
        with open(os.path.join(store, "run.json")) as f:
            d = json.loads(f.read(64 << 20))
    except (OSError, ValueError) as e:
        d = {"error": str(e)}
    iso = cpus(isolated)
    sib = {}
    for pair in siblings.split(","):
        a, _, b = pair.partition(":")
        if a.isdigit() and b.isdigit():
            sib[int(a)] = int(b)
    samples = []
    try:
        with open(samples_path) as f:
            for line in f:
                try:
                    samples.append(json.loads(line))
                except ValueError:
                    pass
    except OSError:
        pass

    # ---- every scenario ran
    st = {s.get("name"): s for s in d.get("scenarios") or [] if isinstance(s, dict)}
    say(all(st.get(s, {}).get("status") == "ran" for s in scens) and d.get("complete") is True,
        "every scenario RAN, none SKIPPED, the store complete (%s; complete %s)" %
        (", ".join("%s %s%s" % (s, st.get(s, {}).get("status"),
                                 " (%s)" % st[s].get("reason") if st.get(s, {}).get("reason") else "")
                   for s in scens), d.get("complete")))
    recs = [r for r in d.get("records") or [] if isinstance(r, dict)]

    def rec(scen, workload, any_status=False):
        for r in recs:
            if str(r.get("scenario", "")).split("@")[0] == scen and r.get("workload") == workload \
                    and (any_status or r.get("status") == "ok"):
                return r
        return None

    def metric(r, name):
        v = ((r or {}).get("metrics") or {}).get(name) or {}
        return v.get("value") if isinstance(v, dict) else None

    cyc = {s: metric(rec(s, "cyclictest"), "cycles") for s in scens}
    gf = {s: metric(rec(s, "gemm"), "gflops") for s in scens}
    mx = {s: metric(rec(s, "cyclictest"), "max_us") for s in scens}
    say(all(isinstance(cyc[s], (int, float)) and cyc[s] > 0 for s in scens),
        "cyclictest measured in the RT guest in every scenario (cycles %s; max us %s)" % (cyc, mx))
    say(all(isinstance(gf[s], (int, float)) and gf[s] > 0 for s in scens),
        "the gemm neighbour's work measured in every scenario (GFLOPS %s)" % gf)

    # ---- pinning as rtvirt verified it (the store's verifications)
    pin = {}   # (scenario, guest, vcpu) -> set of CPUs found
    tid_scen = {}
    vre = re.compile(r"^guest (\S+) vCPU (\d+) \(tid (\d+)\) affinity$")
    for v in d.get("verifications") or []:
        if not isinstance(v, dict):
            continue
        m = vre.match(str(v.get("what", "")))
        if not m:
            continue
        scen = str(v.get("scenario", "")).split("@")[0]
        found = re.search(r"found (\S+)", str(v.get("detail", "")))
        pin[(scen, m.group(1), int(m.group(2)))] = cpus(found.group(1) if found else "")
        tid_scen[int(m.group(3))] = scen

    def rt_cpu(s):
        c = pin.get((s, "rt", 1), set())
        return next(iter(c)) if len(c) == 1 else None

    say(all(rt_cpu(s) is not None and rt_cpu(s) in iso for s in scens),
        "the RT vCPU (rt vCPU1) pinned to one isolated CPU in every scenario (%s; isolated %s)" %
        ({s: sorted(pin.get((s, "rt", 1), ())) for s in scens}, isolated))
    shared = [s for s in ("baseline", "coresched") if s in scens]
    sh = {s: rt_cpu(s) is not None and pin.get((s, "gm", 0)) == {sib.get(rt_cpu(s))} for s in shared}
    idle = "siblings-idle" in scens
    on_sib = [g for (sc, g, v), c in pin.items()
              if idle and sc == "siblings-idle" and sib.get(rt_cpu(sc)) in c]
    say(all(sh.values()) and (not idle or (rt_cpu("siblings-idle") is not None and not on_sib)),
        "the store: the neighbour's vCPU on the RT vCPU's SMT sibling in %s%s (gm vCPU0 %s; "
        "RT CPU %s; siblings %s)" %
        (" and ".join(shared), ", no vCPU there in siblings-idle" if idle else "",
         {s: sorted(pin.get((s, "gm", 0), ())) for s in scens if s != "nosmt"},
         {s: rt_cpu(s) for s in scens}, siblings))

    # ---- the samples: each VM process mapped to its scenario by its vCPU
    # tids; only the samples inside the scenario's measured window (the
    # cyclictest record's started..finished, 1 s resolution, also where
    # the record failed) count: before
    # it libvirt is still pinning the threads and rtvirt tagging them
    win = {}
    for s in scens:
        r = rec(s, "cyclictest", True) or {}
        try:
            a = datetime.datetime.strptime(str(r.get("started")), "%Y-%m-%dT%H:%M:%SZ")
            b = datetime.datetime.strptime(str(r.get("finished")), "%Y-%m-%dT%H:%M:%SZ")
            # from the warm-up (the cookies are set before it, 2 s) to
            # the teardown (the guests live on after the record ends)
            win[s] = (a.replace(tzinfo=datetime.timezone.utc).timestamp() - 2,
                      b.replace(tzinfo=datetime.timezone.utc).timestamp() + 3)
        except ValueError:
            win[s] = (0, -1)
    vm_scen = {}
    for smp in samples:
        for vm in smp.get("vms") or []:
            for t in vm.get("threads") or []:
                if t.get("tid") in tid_scen:
                    vm_scen[vm.get("pid")] = tid_scen[t["tid"]]
    seen = {s: 0 for s in scens}
    kpin_bad, smt_bad, ck_bad, cg_bad = [], [], [], []
    ck = {s: {} for s in scens}    # scenario -> vm name -> set of cookies
    nthreads = 0
    for smp in samples:
        ts = smp.get("t") if isinstance(smp.get("t"), (int, float)) else -1

        def inside(s):
            return s is not None and win[s][0] <= ts <= win[s][1]
        alive = {s for s in (vm_scen.get(vm.get("pid")) for vm in smp.get("vms") or []) if inside(s)}
        for s in alive:
            seen[s] += 1
            want = ("off", "0,2") if s == "nosmt" else ("on", "0-3")
            if (smp.get("smt"), smp.get("online")) != want:
                smt_bad.append("%s: %s/%s" % (s, smp.get("smt"), smp.get("online")))
        for vm in smp.get("vms") or []:
            s = vm_scen.get(vm.get("pid"))
            if not inside(s):
                continue
            name = str(vm.get("name", "")).rsplit("-", 1)[-1]
            for t in vm.get("threads") or []:
                m = re.match(r"^CPU (\d+)/TCG$", str(t.get("comm", "")))
                c = t.get("cookie")
                if c != -ESRCH:
                    ck[s].setdefault(name, set()).add(c)
                    nthreads += 1
                if "0::/machine.slice/" not in str(t.get("cgroup", "")):
                    cg_bad.append("%s %s %s" % (s, t.get("tid"), t.get("cgroup")))
                if not m:
                    continue
                want = pin.get((s, name, int(m.group(1))))
                if want is not None and cpus(t.get("cpus")) != want:
                    kpin_bad.append("%s %s vCPU%s %s != %s" % (s, name, m.group(1), t.get("cpus"),
                                                              sorted(want)))
    say(all(seen[s] > 0 for s in scens) and not kpin_bad,
        "read back from the kernel in each measured window (Cpus_allowed_list of each 'CPU N/TCG' "
        "thread): the pinning the store verified (samples per scenario %s; differences: %s)" %
        (seen, kpin_bad[:3] or "none"))
    say(seen["nosmt"] > 0 and all(seen[s] > 0 for s in scens) and not smt_bad,
        "smt/control off and CPUs 0,2 online while the nosmt guests ran, on and 0-3 in the "
        "others (mismatches: %s)" % (smt_bad[:3] or "none"))
    cs = ck["coresched"]
    per_vm = {n: sorted(v) for n, v in cs.items()}
    say(len(cs) == 2 and all(len(v) == 1 and min(v) > 0 for v in cs.values())
        and len(set().union(*cs.values())) == 2,
        "during coresched every thread of each VM carries one core cookie, one per VM "
        "(prctl PR_SCHED_CORE_GET: %s)" % {n: [hex(c) for c in v] for n, v in per_vm.items()})
    others = {s: {n: sorted(v) for n, v in ck[s].items()} for s in scens if s != "coresched"}
    # (-ESRCH: a thread that ended between the listing and the prctl;
    # with SMT off the kernel answers -ENODEV: no core scheduling at all)
    daemon = {c for smp in samples for c in (smp.get("daemon") or [])} - {-ESRCH}
    none = {s: [0, -ENODEV] if s == "nosmt" else [0] for s in others}
    say(all(ck[s] and all(set(v) <= set(none[s]) for v in others[s].values()) for s in others)
        and daemon and daemon <= {0, -ENODEV},
        "no cookie in the other scenarios (%s ran after coresched; with SMT "
        "off the kernel answers ENODEV, %d) nor on libvirtd's threads (%s; libvirtd %s)" %
        (" and ".join(scens[scens.index("coresched") + 1:]) or "none", -ENODEV, others, sorted(daemon)))
    cv = [v for v in d.get("verifications") or [] if isinstance(v, dict)
          and v.get("what") == "core cookies" and str(v.get("scenario", "")).startswith("coresched")]
    say(len(cv) >= 1 and all(v.get("status") == "PASS" for v in cv),
        "rtvirt's own read-back: the 'core cookies' verification of coresched PASS (%s)" %
        "; ".join(str(v.get("detail")) for v in cv))
    say(nthreads > 0 and not cg_bad,
        "every thread of each VM in libvirt's machine.slice on cgroup v2 (%d thread samples; "
        "outside: %s)" % (nthreads, cg_bad[:2] or "none"))

    # ---- the co-scheduling stats: the foreign share with and without cookies
    fp = {}
    for s in scens:
        # the host-counters record keeps them also where it failed (a
        # window stretched under nested TCG, the RT guest's cyclictest)
        r = rec(s, "host-counters", True)
        co = ((r or {}).get("details") or {}).get("cosched") or {}
        for vm in co.get("vms") or []:
            if isinstance(vm, dict) and str(vm.get("name", "")).endswith("-rt"):
                fp[s] = vm.get("foreign_pct")
        if s not in fp:
            fp[s] = co.get("skipped") or "none"
    b, c = fp.get("baseline"), fp.get("coresched")
    if "baseline" in scens:
        say(isinstance(b, (int, float)) and isinstance(c, (int, float)) and c < b,
            "co-scheduling stats: the RT VM's foreign share falls with coresched (foreign %% by "
            "scenario: %s)" % fp)
    else:   # nothing to fall from: with SMT off there is no sibling to share
        say(isinstance(c, (int, float)) and 0 <= c <= 100,
            "co-scheduling stats: the RT VM's foreign share measured in coresched (no baseline in "
            "this matrix to compare; foreign %% by scenario: %s)" % fp)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "sample":
        sample(sys.argv[2], sys.argv[3])
    elif len(sys.argv) in (6, 7) and sys.argv[1] == "check":
        check(*sys.argv[2:])
    else:
        sys.stderr.write("usage: lab-flagship.py sample OUT PREFIX | check STORE SAMPLES ISOLATED SIBLINGS [SCENARIOS]\n")
        sys.exit(2)
