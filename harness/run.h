/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness/run.h: one repetition of a matrix scenario on the live host:
 * boot the scenario's guests, verify them, run the workloads side by side,
 * bring the raw outputs into the store, tear down.  Used by `rtvirt run`
 * (harness/cmd-run.c), which owns the plan, the journal and the signals.
 */
#pragma once

#include <stdbool.h>
#include <gio/gio.h>

#include "guest/placement.h"
#include "harness/matrix.h"
#include "harness/progress.h"
#include "host/fsroot.h"
#include "host/tune/journal.h"
#include "results/store.h"

/* The run journal: scenario settings of `rtvirt run`, kept apart from the
 * `host apply` journal so that reverting a run never undoes a profile the
 * user applied.  A host path inside the root. */
#define RV_HARNESS_RUN_JOURNAL "/var/lib/rtvirt/run.journal"
/* The store of the run that has not completed (its absolute path and a
 * newline), for `rtvirt status`; a host path inside the root. */
#define RV_HARNESS_RUN_CURRENT "/var/lib/rtvirt/run.store"

/* The run journal's custom entry for a domain the run starts (host/tune/journal.h
 * rv_host_journal_record_custom()): key = domain name, data = its UUID;
 * recorded before the domain starts, so that a revert after a SIGKILL or a
 * lost libvirt connection destroys it. */
#define RV_HARNESS_RUN_JOURNAL_DOMAIN "domain"

/**
 * rv_harness_run_journal_register:
 * @journal: the run journal, or the one `host revert` opens
 *
 * Sets the restore handler of RV_HARNESS_RUN_JOURNAL_DOMAIN entries:
 * rv_guest_libvirt_destroy_by_uuid() of the domain that still runs with
 * that name and UUID (on $RTVIRT_LIBVIRT_URI or qemu:///system; nothing on
 * a fixture root), trying to reach libvirt for up to
 * RV_HARNESS_RUN_DOMAIN_REVERT_MS.  A domain
 * already gone counts as restored; one libvirt cannot be asked about
 * stays in the journal (the revert fails naming it).
 */
void rv_harness_run_journal_register(RvJournal *journal);
#define RV_HARNESS_RUN_DOMAIN_REVERT_MS 30000u

typedef struct RvRunEnv RvRunEnv;

/**
 * rv_harness_run_env_new:
 * @matrix: the matrix (its guests decide the image)
 * @root: the live host
 * @ret: (out): libvirt connection, guest image, virt type; written only on
 *       success
 * @error: (optional): RV_ERROR_FAILED when libvirt does not answer (try
 *         `rtvirt setup`), RV_ERROR_UNSUPPORTED when the embedded image
 *         cannot be built (a package is missing)
 *
 * Decides the virt type: "kvm" when libvirt offers KVM domains and a probe
 * guest boots under KVM and answers its agent, else "tcg" (type='qemu').
 *
 * Returns: 0 or -errno.
 */
int rv_harness_run_env_new(const RvMatrix *matrix, RvRoot *root, RvRunEnv **ret,
                           GError **error) G_GNUC_WARN_UNUSED_RESULT;
/* Destroys every domain still running, closes the connection.  NULL ok. */
void rv_harness_run_env_free(RvRunEnv *env);
/* "kvm" or "tcg". */
const char *rv_harness_run_env_virt(const RvRunEnv *env);
/* Guest starts of the run so far: @ret_failed refused by libvirt for a
 * known host limit (FIFO, memory lock) and retried without the element,
 * @ret_learned started without it right away because the limit was
 * learned for this libvirt daemon before (guest/limits.h).  NULL @env: 0. */
void rv_harness_run_env_starts(const RvRunEnv *env, guint *ret_failed, guint *ret_learned);
/* Expected wall time of one run in us: boot + warm-up + duration +
 * teardown (RV_HARNESS_RUN_TEARDOWN_ESTIMATE_US).  The boot is the last
 * repetition's boot time; before any (or with a NULL @env, `--plan`)
 * RV_HARNESS_RUN_BOOT_ESTIMATE_US. */
guint64 rv_harness_run_estimate_us(const RvRunEnv *env, const RvMatrix *matrix);
/* The boot of a repetition's guests under KVM, assumed (no host measures
 * it for us before the first boot): they boot side by side, each on CPUs
 * of its own. */
#define RV_HARNESS_RUN_BOOT_ESTIMATE_US (20 * G_USEC_PER_SEC)
/* One guest's boot under TCG (QEMU emulates every instruction): the
 * embedded guest (profiles/guests/rt-demo.ini, kernel + initramfs) booted
 * in 8.7 s and 8.1 s (run.json provision boot_ms 8696 and 8130) in `rtvirt
 * run --repetitions 1 profiles/matrix/ci.ini` on the 2-CPU build machine
 * (PVM, so TCG), 2026-12-04, under flock /tmp/rtvirt-live.lock beside a
 * TCG lab VM.  A lower bound where guests boot together: the three guests
 * of coresched-vs-nosmt-ci took 50-143 s there (boot_ms of
 * tests/data/compare/flagship-ci), more than 3 x 9 s. */
#define RV_HARNESS_RUN_BOOT_TCG_GUEST_US (9 * G_USEC_PER_SEC)

/**
 * rv_harness_run_boot_estimate_us:
 * @tcg: the guests run under TCG (else KVM)
 * @n_guests: the guests of one repetition
 *
 * Returns: the boot time `run --plan` assumes for one repetition, in us:
 * none without a guest; RV_HARNESS_RUN_BOOT_ESTIMATE_US under KVM; under
 * TCG RV_HARNESS_RUN_BOOT_TCG_GUEST_US per guest, one after another (each
 * emulated guest keeps a CPU busy while it boots, and the guests' boot
 * vCPUs share the housekeeping CPUs).  An estimate, not a promise.
 */
guint64 rv_harness_run_boot_estimate_us(bool tcg, unsigned n_guests);
#define RV_HARNESS_RUN_TEARDOWN_ESTIMATE_US (2 * G_USEC_PER_SEC)

/* The run journal's real path (RV_HARNESS_RUN_JOURNAL inside @root). */
char *rv_harness_run_journal_path(RvRoot *root);

/* Turns a placement into the unpinned one of the same guest: no vcpupin,
 * no emulatorpin, every vCPU SCHED_OTHER and free to run on @online (what
 * a default libvirt guest gets). */
void rv_harness_run_unpin(RvGuestPlacement *placement, const RvCpuSet *online);

/* Why scenario coresched = libvirt cannot run: libvirt's qemu.conf has no
 * sched_core (libvirt >= 8.9, qemu.conf(5)); NULL when it has one. */
char *rv_harness_run_libvirt_sched_core_missing(RvRoot *root);

/**
 * rv_harness_run_trust:
 * Marks @store untrusted when the host is not as the matrix's host_profile
 * (loaded with rv_host_profile_load_host() against @nr_cpu_ids, the host's
 * last possible CPU + 1) requires (host/check/check.h, every FAIL finding a reason), or when the matrix
 * names no host profile (then nothing says the host was tuned).
 *
 * Returns: 0 or -errno when the host profile cannot be loaded.
 */
int rv_harness_run_trust(RvRoot *root, const RvMatrix *matrix, unsigned nr_cpu_ids,
                         RvStore *store, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* One repetition: inputs filled by the caller, outputs by
 * rv_harness_run_repetition(). */
typedef struct {
    /* in */
    const RvMatrix *matrix;
    const RvMatrixScenario *scenario;
    const RvMatrixLoad *load;
    const char *cell;              /* "scenario" or "scenario@load": the store's scenario name */
    unsigned repetition;           /* 1-based */
    GPtrArray *profiles;           /* RvGuestProfile*, index = matrix guest index */
    GPtrArray *placements;         /* RvGuestPlacement*, index = scenario guest index */
    RvRoot *root;
    RvStore *store;
    RvJournal *journal;            /* the run journal: each domain is recorded
                                    * in it before it starts; NULL: not recorded */
    RvProgress *progress;
    GCancellable *cancellable;     /* signals */
    void (*kill_point)(const char *phase);   /* test hook, may be NULL */
    /* out */
    unsigned n_failed;             /* records that failed */
    char *first_failure;           /* reason of the first */
    char *summary;                 /* "rt0 max 57 us" */
    char *virt;                    /* "kvm" | "tcg" */
    char *store_error;             /* the first raw output the store could not
                                    * write (the disk is full?): the matrix stops */
    guint64 wall_us;               /* boot to teardown, wall clock (monotonic) */
    guint64 measure_us;            /* warm-up + measurement, until every workload
                                    * ended (planned: warmup + duration) */
    double cpu_pct;                /* host CPU busy % over the measured window
                                    * (host/facts/cpustat.h), when cpu_pct_known */
    bool cpu_pct_known;
    /* provisioning (run.json: the host-counters record's details
     * "provision", rv_harness_run_counters_record()) */
    unsigned provision_guests;     /* guests booted (not skipped) */
    unsigned provision_pool;       /* worker threads of the boot and teardown pool */
    bool provision_first_alone;    /* the first guest booted alone (the run did
                                    * not know the accelerator and limits yet) */
    guint64 boot_us;               /* wall clock of the boot phase */
    guint64 teardown_us;           /* wall clock of the teardown */
    /* rtvirt's own threads during the measurement (run.json: the
     * host-counters record's details "confinement", host/tune/confine.h):
     * {housekeeping, measured, threads, confined, gone, ok, stray} or
     * {skipped: reason}; NULL before the measurement */
    JsonObject *confinement;
    /* co-scheduling stats per VM (run.json: the host-counters record's
     * details "cosched", harness/cosched.h); NULL before the measurement */
    JsonNode *cosched;
    /* the RT priority view of each RT vCPU's host CPU after boot (run.json:
     * the host-counters record's details "rt_vcpus", host/facts/rtview.h) */
    JsonNode *rt_vcpus;
} RvRunRepetition;

void rv_harness_run_repetition_clear(RvRunRepetition *rep);

/**
 * rv_harness_run_repetition:
 * Boots every guest of the scenario, verifies placement (and core cookies
 * for coresched = vm | vcpu), starts the neighbour load, waits the warm-up,
 * runs cyclictest in each RT guest (and the [host] workload) for the
 * duration, adds one record per workload to the store (ok or failed with
 * the reason: a guest that does not boot, hangs past the timeout or sends
 * output the parser rejects fails its record; the others keep theirs), and
 * destroys the guests.
 *
 * Returns: 0 when the repetition ran (records say how), -ECANCELED when
 * @cancellable fired (guests destroyed).
 */
int rv_harness_run_repetition(RvRunEnv *env, RvRunRepetition *rep,
                              GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_harness_run_write_raw:
 * @rep: the repetition (its store, cell, progress)
 * @rec: the record the file belongs to
 * @name: the file's name under raw/ ('@' of a cell name becomes '-')
 * @data: its bytes; @len: their number
 *
 * Writes one raw output and lists it in @rec.  When the store cannot
 * write it (ENOSPC, EIO...), run.json still says so: a "raw output" FAIL
 * verification of the repetition names the missing file and the error, the
 * record keeps what was parsed, and @rep->store_error makes `rtvirt run`
 * stop the matrix after this repetition.
 *
 * Returns: 0 or -errno.
 */
int rv_harness_run_write_raw(RvRunRepetition *rep, RvStoreRecord *rec, const char *name,
                             const char *data, gsize len);

/* A file of RV_HARNESS_RUN_RESERVE_BYTES zero bytes in the store directory,
 * written when the store is created and removed when the run ends: when
 * the results disk fills up, removing it first leaves room for the last
 * run.json, so every repetition that ran keeps its record (1 MiB: run.json
 * of a 100-repetition matrix is ~300 KiB). */
#define RV_HARNESS_RUN_RESERVE_FILE ".rtvirt-reserve"
#define RV_HARNESS_RUN_RESERVE_BYTES (1u << 20)

/**
 * rv_harness_run_reserve:
 * @dir: the store directory
 * @error: (optional): RV_ERROR_FAILED "Results disk of DIR has no room for
 *         the store's reserve of 1 MiB: ..." (-ENOSPC, -EIO)
 *
 * Writes RV_HARNESS_RUN_RESERVE_FILE (fsync()ed, so the blocks are really
 * taken).  Fails fast, before the host changes, on a disk that is full
 * already.
 *
 * Returns: 0 or -errno.
 */
int rv_harness_run_reserve(const char *dir, GError **error) G_GNUC_WARN_UNUSED_RESULT;
/* Removes the reserve (idempotent). */
void rv_harness_run_reserve_release(const char *dir);

/* The slack a repetition's measured phase may exceed its plan by before the
 * host-counters window counts as stretched: the larger of 15 s and half
 * the plan (agent round trips under TCG take seconds).  A stop longer
 * than libvirtd's keepalive (30 s by default) loses the connection and
 * with it the guests (guest/session.h): that repetition fails anyway. */
#define RV_HARNESS_RUN_WINDOW_SLACK_US (15 * G_USEC_PER_SEC)

/**
 * rv_harness_run_counters_record:
 * @cell: the store's scenario name ("scenario" or "scenario@load")
 * @repetition: 1-based
 * @diff: (transfer none): rv_host_snapshot_diff() of the /proc counters
 *        taken before and after the repetition (host/facts/snapshot.h): an object
 *        {interrupts: {NAME: {total, per_cpu}}, softirqs: {...}}
 * @run_result: what rv_harness_run_repetition() returned (0 or -ECANCELED)
 * @rep: the repetition's outputs (n_failed, first_failure)
 * @started, @finished: (nullable): the counters' window
 *
 * The "host-counters" record (target "host") of one repetition: metrics
 * "interrupts" and "softirqs" (counts, summed over all CPUs), @diff as
 * details.  Its status is "ok" only when the repetition ran to its end
 * with every record ok: an interrupted repetition (-ECANCELED) or one
 * with a failed record (a guest that did not start, a hung or garbled
 * workload) gives status "failed" with the reason ("interrupted: ..." /
 * "repetition failed: ..."), because its window is shorter or its load
 * different, and statistics (results/compare.h) take ok records only.
 * Its details gain "window": {wall_s (the repetition, boot to teardown),
 * measure_s (warm-up + measurement until every workload ended),
 * planned_s (warmup + duration)}; a measure_s longer than planned_s plus
 * RV_HARNESS_RUN_WINDOW_SLACK_US (rtvirt stopped by SIGSTOP, a suspended
 * VM, a stalled host) fails the record: "window stretched: ...", since
 * its counters cover more than the measured time.
 *
 * Returns: (transfer full): the record.
 */
RvStoreRecord *rv_harness_run_counters_record(const char *cell, unsigned repetition,
                                              JsonNode *diff, int run_result,
                                              const RvRunRepetition *rep,
                                              GDateTime *started, GDateTime *finished);

/**
 * rv_harness_run_status_line:
 * @rep: a finished repetition
 * @virt: (nullable): "kvm" or "tcg", how its guests ran
 *
 * The result part of a progress line: "ok: rt max 57 us" or "FAILED:
 * REASON", with "virt=tcg" after the status word when the guests ran
 * under TCG ("ok (virt=tcg): rt max 39050 us"), so that no line shows an
 * emulated latency as if it were a real-time one.
 *
 * Returns: (transfer full): the text.
 */
char *rv_harness_run_status_line(const RvRunRepetition *rep, const char *virt);

/**
 * rv_harness_run_summary_runs:
 * @ok: repetitions that measured (every record ok)
 * @failed: repetitions with a failed record
 * @ok_with_fail: of @ok, those with a verification FAIL (placement, memory
 *                lock, FIFO...): measured, but the store is untrusted
 *
 * The "Runs:" line of the summary of `rtvirt run`, without the skipped
 * scenarios: "4 ok, 0 failed", or "4 ok (measured; 4 with verification
 * FAIL, results untrusted), 0 failed".  A repetition is ok when it
 * measured; trust is separate (exit status 0), unlike `rtvirt guest run`,
 * which exits 1 on a verification FAIL.
 *
 * Returns: (transfer full): the text.
 */
char *rv_harness_run_summary_runs(unsigned ok, unsigned failed, unsigned ok_with_fail);

/**
 * rv_harness_run_reasons_ordered:
 * @reasons: (transfer none): untrusted reasons (char*), as the store keeps
 *           them
 *
 * The reasons in the order a summary shows them: "virt=tcg: ..." first
 * (emulated guests make every latency meaningless), the others in their
 * order.
 *
 * Returns: (transfer container): a new array of the same strings.
 */
GPtrArray *rv_harness_run_reasons_ordered(GPtrArray *reasons);
