/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host/facts/cmdline.h: the kernel command line, parsed as the kernel would.
 *
 * Tokenising follows lib/cmdline.c next_arg(): blanks separate parameters
 * (runs of blanks collapse), double quotes protect blanks, "--" ends the
 * kernel's part (the rest goes to init).  Parameter semantics come from
 * Documentation/admin-guide/kernel-parameters.txt and the code that
 * consumes each one (named beside each field).  Each cpulist is resolved
 * against nr_cpu_ids (the number of possible CPUs), the way the kernel does
 * at boot: what the kernel would ignore is recorded as ignored, with the
 * reason, not guessed.
 */
#pragma once

#include <stdbool.h>
#include <glib.h>

#include "util/cpulist.h"
#include "host/fsroot.h"

/* isolcpus= flags (kernel/sched/isolation.c housekeeping_isolcpus_setup()) */
typedef enum {
    RV_ISOL_DOMAIN      = 1 << 0,  /* "domain" (also the default without flags) */
    RV_ISOL_NOHZ        = 1 << 1,  /* "nohz": same as nohz_full= */
    RV_ISOL_MANAGED_IRQ = 1 << 2,  /* "managed_irq" */
} RvIsolFlags;

/* One parameter as written, in command-line order. */
typedef struct {
    char *name;        /* "isolcpus", "intel_idle.max_cstate", "quiet" */
    char *value;       /* text after the first '=', NULL without '=' */
    bool known;        /* in rtvirt's table of kernel parameters */
    char *suggestion;  /* for an unknown name close to a known one ("pcie_aspm"), else NULL */
} RvCmdlineParam;

/* A cpulist-valued parameter (isolcpus, nohz_full, rcu_nocbs, irqaffinity,
 * kthread_cpus): what was written, what the kernel makes of it. */
typedef struct {
    bool present;          /* the parameter is on the command line */
    char *value;           /* raw value (isolcpus: including flags) */
    int parse_error;       /* 0, or -EINVAL/-ERANGE from the cpulist */
    RvCpuSet requested;    /* the cpulist as written (valid when parse_error == 0) */
    bool ignored;          /* the kernel drops the parameter entirely */
    RvCpuSet effective;    /* what the kernel uses (empty when ignored) */
    char *note;            /* why ignored / how effective differs (kernel's words), or NULL */
} RvCmdlineCpus;

/* One hugepagesz=/hugepages= pair (mm/hugetlb.c: each hugepages= applies
 * to the most recent hugepagesz=, or to the default size before any). */
typedef struct {
    char *size;            /* "1G", "2M"; NULL = default size */
    guint64 size_bytes;    /* 0 when unknown */
    gint64 count;          /* -1: hugepagesz= without hugepages= */
} RvCmdlineHugepages;

typedef struct {
    char *raw;                 /* the command line as given */
    unsigned nr_cpu_ids;       /* CPUs the lists were resolved against (0 = unknown) */
    unsigned boot_cpu;         /* the CPU the kernel falls back to (0 unless told) */
    GArray *params;            /* RvCmdlineParam, in order, kernel part only */
    char **init_args;          /* words after "--" (NULL-terminated, maybe empty) */

    RvCmdlineCpus isolcpus;    /* kernel/sched/isolation.c */
    unsigned isolcpus_flags;   /* RvIsolFlags in effect (DOMAIN when none given) */
    char **isolcpus_unknown_flags; /* flags the kernel skipped ("Skipped unknown flag") */
    RvCmdlineCpus nohz_full;   /* kernel/sched/isolation.c; effective includes isolcpus=nohz */
    RvCmdlineCpus rcu_nocbs;   /* kernel/rcu/tree_nocb.h; effective includes nohz_full */
    RvCmdlineCpus irqaffinity; /* kernel/irq/irqdesc.c irq_affinity_setup(): boot CPU always added */
    RvCmdlineCpus kthread_cpus;/* kernel/kthread.c (RHEL/OpenShift kernels) */
    RvCpuSet housekeeping;     /* possible CPUs minus effective isolcpus/nohz_full */

    bool rcu_nocb_poll;
    int nosmt;                 /* 0 no, 1 "nosmt", 2 "nosmt=force" */
    int skew_tick;             /* -1 absent, else the value */
    char *idle;                /* idle= ("poll", "halt", "nomwait"), NULL absent */
    char *intel_pstate;        /* NULL absent */
    char *amd_pstate;
    int processor_max_cstate;  /* -1 absent */
    int intel_idle_max_cstate; /* -1 absent; 0 disables intel_idle */
    char *tsc;                 /* tsc= value ("reliable", "nowatchdog") */
    char *mitigations;         /* "off", "auto", "auto,nosmt" */
    char *nohz;                /* nohz= ("on"/"off") */
    char *transparent_hugepage;
    char *numa_balancing;
    char *nmi_watchdog;
    bool nosoftlockup;
    bool threadirqs;
    char *preempt;             /* preempt= (none/voluntary/full/lazy) */
    char *default_hugepagesz;
    GArray *hugepages;         /* RvCmdlineHugepages, in order */

    GPtrArray *problems;       /* char *: one sentence per oddity (typo, bad
                                * cpulist, hugepagesz= without hugepages=,
                                * unknown isolcpus flag), in order */
} RvCmdline;

void rv_host_cmdline_free(RvCmdline *cmd);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RvCmdline, rv_host_cmdline_free)

/**
 * rv_host_cmdline_parse:
 * @text: a kernel command line (/proc/cmdline); a trailing newline is ignored
 * @nr_cpu_ids: possible CPUs of the machine the line boots ("N"/"all" and
 *       range checks); 0 = unknown: lists naming "N"/"all" are then
 *       reported unresolved rather than guessed
 * @ret: (out): the parsed line, written only on success
 * @error: (optional): RV_ERROR_INVALID only for text that is no command
 *       line at all (an unterminated quote); bad values are NOT errors:
 *       they land in ->problems and in the per-parameter notes, because
 *       the kernel boots with them too
 *
 * Returns: 0 or -errno.
 */
int rv_host_cmdline_parse(const char *text, unsigned nr_cpu_ids, RvCmdline **ret,
                          GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* As rv_host_cmdline_parse() with an explicit boot CPU (default 0). */
int rv_host_cmdline_parse_full(const char *text, unsigned nr_cpu_ids, unsigned boot_cpu,
                               RvCmdline **ret, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * rv_host_cmdline_load:
 * @root: live host or fixture tree
 * @nr_cpu_ids: as for rv_host_cmdline_parse() (RvTopology.nr_cpu_ids)
 *
 * Reads /proc/cmdline through @root and parses it.
 *
 * Returns: 0 or -errno (-ENOENT when the fixture has no /proc/cmdline).
 */
int rv_host_cmdline_load(RvRoot *root, unsigned nr_cpu_ids, RvCmdline **ret,
                         GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* The last value of parameter @name, "" for a bare flag, NULL when absent. */
const char *rv_host_cmdline_get(const RvCmdline *cmd, const char *name);
bool rv_host_cmdline_has(const RvCmdline *cmd, const char *name);

/**
 * rv_host_cmdline_format:
 *
 * Returns: (transfer full): canonical multi-line text of everything parsed
 * (one "key: value" per line, problems last); the tests' expected format.
 */
char *rv_host_cmdline_format(const RvCmdline *cmd);
