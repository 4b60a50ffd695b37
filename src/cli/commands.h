/* fitscale — the subcommands and what they share: the dispatcher in main.c calls
 * fs_cmd_<name>(argc, argv) with argv[0] the command name; each returns the process exit
 * status: 0 answered, 1 a "does not fit" verdict that was asked for, 2 bad input or usage. */
#pragma once

#include <glib.h>

#include "fitscale/kube/client.h"
#include "fitscale/kube/live.h"
#include "fitscale/kube/watch.h"
#include "fitscale/model/schedconfig.h"
#include "fitscale/model/objects.h"
#include "fitscale/render/output.h"

G_BEGIN_DECLS

enum { FS_EXIT_OK = 0, FS_EXIT_VERDICT = 1, FS_EXIT_ERROR = 2 };

/* Options every snapshot-reading command takes. */
typedef struct {
  char **snapshot_paths;  /* --snapshot, repeatable */
  char *output;           /* -o */
  gboolean quiet;         /* -q */
  FsConnectionFlags connection; /* --kubeconfig, --context, ... (kubectl's) */
  char *context_namespace; /* live: the namespace the kubeconfig context sets, NULL if none */
  GArray *warnings;       /* FsWarning (plan/completeness.h): what the snapshot lacks for the
                           * answer; printed on stderr once, and first in -o json|yaml */
  char *scheduler_config_path;         /* --scheduler-config */
  FsSchedulerConfig *scheduler_config; /* read from it by fs_cli_load / fs_cli_scheduler_config */
} FsCommonOptions;

/* A subcommand: what main lists and dispatches, and the text of its --help.  The summary is
 * the one line main lists (first letter capitalized), the usage line ends with and the man
 * page fitscale-NAME(1) names it by (tests/help.sh checks that they agree). */
typedef struct {
  const char *name;        /* "nodes": `fitscale nodes` */
  const char *parameters;  /* the arguments in the usage line, after [OPTION…]; "" for none */
  const char *summary;     /* one line, lower case: "per-node allocatable, ..." */
  const char *description; /* the paragraph under the usage line */
  const char *epilogue;    /* after the options: examples, exit status; NULL for none */
  int (*run) (int argc, char **argv);
} FsCliCommand;

extern const FsCliCommand fs_cli_capacity, fs_cli_hpa, fs_cli_hvpa, fs_cli_nodes, fs_cli_plan,
    fs_cli_quantity, fs_cli_serve, fs_cli_simulate, fs_cli_snapshot, fs_cli_why;

/* COMMAND's options: its usage line, description and epilogue; ENTRIES (NULL for none); then
 * --snapshot, -o, -q and kubectl's connection flags, writing into OPTIONS (WITH_SNAPSHOT
 * FALSE: -o and -q only; FS_CLI_LIVE_ONLY: all but --snapshot). */
#define FS_CLI_LIVE_ONLY 2u
GOptionContext *fs_cli_context_new (const FsCliCommand *command, const GOptionEntry *entries,
                                    FsCommonOptions *options, guint with_snapshot);
void fs_cli_common_clear (FsCommonOptions *options);
/* g_option_context_parse, and: an unknown long option's message suggests the closest the
 * command takes ("did you mean --replicas?"); a "--" that ends the options is no argument
 * (`fitscale quantity -- -1Gi`). */
gboolean fs_cli_parse (GOptionContext *context, int *argc, char ***argv, GError **error);
/* Of NAMES (N), the closest to TYPED as kubectl suggests (within 2 edits, or one TYPED
 * begins), or NULL. */
const char *fs_cli_closest (const char *typed, const char *const *names, guint n);
/* Appends " (did you mean PREFIX<name>?)" to ERROR's message (when ERROR is not NULL) with
 * the one of NAMES (N) closest to TYPED, when one is close (fs_cli_closest). */
void fs_cli_suggest (GError *error, const char *typed, const char *prefix, const char *const *names, guint n);
/* -o TEXT as fs_output_parse reads it; refused with the closest format suggested
 * ("-o jsn: ... (did you mean json?)"). */
gboolean fs_cli_output_parse (const char *text, FsOutputFormat *format, GError **error);
/* -o TEXT for a command that writes only the formats NAMES (N) names ("json", "yaml"; NULL
 * TEXT: *FORMAT is left as it is): any other is refused with exactly those listed and the
 * closest suggested. */
gboolean fs_cli_output_among (const char *text, const char *const *names, guint n, FsOutputFormat *format,
                              GError **error);
/* The snapshot the options name: --snapshot files, or else the cluster the connection flags
 * and kubeconfig point to, listing RESOURCES (FsKubeResources).  Notes (skipped kinds) go
 * to stderr for COMMAND unless -q. */
FsSnapshot *fs_cli_load (const char *command, FsCommonOptions *options, guint resources,
                         GError **error);
/* Reads --scheduler-config once (kube/schedconfig.h) into OPTIONS->scheduler_config (NULL
 * without the flag), noting on stderr the filter plugins it enables that fitscale does not
 * model; and gives it to LIVE's cache when LIVE is not NULL.  fs_cli_load calls it. */
gboolean fs_cli_scheduler_config (const char *command, FsCommonOptions *options, FsKubeLive *live,
                                  GError **error);
/* What an answer for pods of SPEC (NAME: "pod default/web-0", "deployment/web") cannot say,
 * with OPTIONS' other warnings, on stderr for COMMAND (even with -q): a filter fitscale does
 * not model that SPEC needs (plan/completeness.h fs_pod_spec_warnings). */
void fs_cli_warn_spec (const char *command, FsCommonOptions *options, const FsPodSpec *spec,
                       const char *name);
/* The same for SPEC as the template of new pods (capacity, plan): also what they cannot be
 * promised, gates and an unknown RuntimeClass (plan/completeness.h fs_template_warnings). */
void fs_cli_warn_template (const char *command, FsCommonOptions *options, const FsSnapshot *snapshot,
                           const FsPodSpec *spec, const char *name);
/* The emitter of the answer in FORMAT (json or yaml): its documents open with OPTIONS'
 * warnings (render/output.h fs_emitter_new_answer). */
FsEmitter *fs_cli_emitter_new (const FsCommonOptions *options, FsOutputFormat format);
/* Takes MORE (FsWarning, what the command's question lacks: an HPA's target, its metrics,
 * ...) into OPTIONS' warnings and prints each on stderr for COMMAND (even with -q). */
void fs_cli_warn (const char *command, FsCommonOptions *options, GArray *more);
/* For a new snapshot of a watched cluster (why --watch): its warnings replace the last
 * snapshot's in OPTIONS; those not printed before go to stderr. */
void fs_cli_snapshot_changed (const char *command, FsCommonOptions *options, const FsSnapshot *snapshot,
                              guint resources);
/* After fs_kube_live_open (kube/live.h) on OPTIONS' connection flags: takes the kubeconfig
 * context's namespace into OPTIONS and warns (ListingUnavailable) of the APIs the cluster
 * does not serve. */
void fs_cli_live_opened (const char *command, FsCommonOptions *options, const FsKubeLive *live);
/* The progress line fs_kube_live_open shows: on a terminal, unless -q (else NULL). */
FsKubeProgress fs_cli_live_progress (const FsCommonOptions *options);

/* ---- --watch (watch.c) ---- */

typedef struct {
  gboolean watch;
  gint rounds;    /* stop after this many changed answers; 0: until interrupted */
  gint timeout;   /* each watch stays open this many seconds to twice that (default 300) */
  gint metrics_interval; /* seconds between PodMetrics lists (default 15, as serve's) */
} FsCliWatch;

/* --watch, --watch-timeout and --watch-rounds, for a command's option entries. */
#define FS_CLI_WATCH_ENTRIES(w)                                                                \
  { "watch", 'w', 0, G_OPTION_ARG_NONE, &(w).watch,                                           \
    "Live only: answer, then watch the cluster and answer again whenever the answer changes", NULL }, \
  { "watch-timeout", 0, 0, G_OPTION_ARG_INT, &(w).timeout,                                    \
    "With --watch: each watch stays open SECONDS to twice that, then resumes (default 300)", "SECONDS" }, \
  { "watch-rounds", 0, 0, G_OPTION_ARG_INT, &(w).rounds,                                      \
    "With --watch: stop after this many changed answers (default: never)", "N" },             \
  { "metrics-interval", 0, 0, G_OPTION_ARG_INT, &(w).metrics_interval,                        \
    "With --watch: seconds between PodMetrics lists, which cannot be watched (default 15)", "S" }

/* The --watch flags in range, and no --snapshot with --watch (exit 2 otherwise). */
gboolean fs_cli_watch_check (const FsCliWatch *watch, const FsCommonOptions *options, GError **error);

/* One answer on SNAPSHOT, printed on stdout; returns the exit status. */
typedef int (*FsCliAnswer) (const FsSnapshot *snapshot, gpointer data);

/* Lists RESOURCES from the live cluster OPTIONS name, prints ANSWER, starts the watches, and
 * prints ANSWER again (text formats after a "cluster changed" line) within a second of each
 * change to the cluster that changes it, WATCH->rounds times or until interrupted; returns
 * the last answer's exit status. */
int fs_cli_watch (const FsCliCommand *command, FsCommonOptions *options, const FsCliWatch *watch,
                  guint resources, FsOutputFormat format, FsCliAnswer answer, gpointer data);

/* Whether the options name a cluster: --snapshot files or a connection flag. */
gboolean fs_cli_names_cluster (const FsCommonOptions *options);

/* FLAG (the command's -n), else the live context's namespace, else NULL. */
const char *fs_cli_namespace (const FsCommonOptions *options, const char *flag);
/* Splits "NAMESPACE/NAME" (or "NAME", in NAMESPACE or "default") into *NS (caller frees) and
 * the name (points into ARGUMENT). */
const char *fs_cli_split_name (const char *argument, const char *namespace, char **ns);
/* --now: TEXT (RFC 3339, or NULL for the present) as unix seconds. */
gboolean fs_cli_parse_now (const char *text, int64_t *seconds, GError **error);
/* -l: TEXT (NULL for none) as a label selector in *SELECTOR (NULL for none). */
gboolean fs_cli_parse_selector (const char *text, FsLabelSelector **selector, GError **error);
/* Refuses VALUE of FLAG ("--replicas") outside MIN..MAX with a usage error that gives the
 * range (MAX G_MAXINT64: "at least MIN"). */
gboolean fs_cli_check_range (const char *flag, gint64 value, gint64 min, gint64 max, GError **error);
/* FLAG's TEXT ("--sync", "15s"; NULL: not given, FALLBACK_S) as whole seconds in *SECONDS:
 * a Go duration (time.ParseDuration) of at least MIN_S seconds, else a usage error that gives
 * the range ("--duration 0s: give a duration of at least 1s, like 30s or 1m"). */
gboolean fs_cli_parse_duration (const char *flag, const char *text, int64_t min_s, int64_t fallback_s,
                                int64_t *seconds, GError **error);
/* Sets a usage error (FS_ERROR_USAGE) from FORMAT and returns FS_EXIT_ERROR. */
int fs_cli_usage (GError **error, const char *format, ...) G_GNUC_PRINTF (2, 3);
/* The one place a command's error is printed: "fitscale CMD: MESSAGE" on stderr, then, for
 * an option the parser rejected, the hint to run --help.  Returns FS_EXIT_ERROR. */
int fs_cli_fail (const char *command, const GError *error);

int fs_cmd_capacity (int argc, char **argv);
int fs_cmd_plan (int argc, char **argv);
int fs_cmd_quantity (int argc, char **argv);
int fs_cmd_serve (int argc, char **argv);
int fs_cmd_simulate (int argc, char **argv);
int fs_cmd_snapshot (int argc, char **argv);
int fs_cmd_hpa (int argc, char **argv);
int fs_cmd_hvpa (int argc, char **argv);
int fs_cmd_nodes (int argc, char **argv);
int fs_cmd_why (int argc, char **argv);

G_END_DECLS
