/* fitscale — the subcommands and what they share: the dispatcher in main.c calls
 * fs_cmd_<name>(argc, argv) with argv[0] the command name; each returns the process exit
 * status: 0 answered, 1 a "does not fit" verdict that was asked for, 2 bad input or usage. */
#pragma once

#include <glib.h>

#include "fitscale/kube/client.h"
#include "fitscale/plan/capacity.h"
#include "fitscale/plan/plan.h"
#include "fitscale/plan/shape.h"
#include "fitscale/plan/why.h"
#include "fitscale/kube/live.h"
#include "fitscale/kube/watch.h"
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
} FsCommonOptions;

/* Adds --snapshot, -o and -q, and kubectl's connection flags, to CONTEXT's main group,
 * writing into OPTIONS (WITH_SNAPSHOT FALSE: -o and -q only). */
void fs_cli_add_common (GOptionContext *context, FsCommonOptions *options, gboolean with_snapshot);
void fs_cli_common_clear (FsCommonOptions *options);
/* Parses argv; on failure prints "fitscale CMD: message" and the usage hint. */
gboolean fs_cli_parse (GOptionContext *context, const char *command, int *argc, char ***argv);
/* The snapshot the options name: --snapshot files, or else the cluster the connection flags
 * and kubeconfig point to, listing RESOURCES (FsKubeResources).  Prints the error and
 * returns NULL on failure. */
FsSnapshot *fs_cli_load (const char *command, FsCommonOptions *options, guint resources);
/* After fs_kube_live_open (kube/live.h) on OPTIONS' connection flags: takes the kubeconfig
 * context's namespace into OPTIONS and, unless -q, notes on stderr the APIs the cluster does
 * not serve. */
void fs_cli_live_opened (const char *command, FsCommonOptions *options, const FsKubeLive *live);
/* The progress line fs_kube_live_open shows: on a terminal, unless -q (else NULL). */
FsKubeProgress fs_cli_live_progress (const FsCommonOptions *options);

/* Whether the options name a cluster: --snapshot files or a connection flag. */
gboolean fs_cli_names_cluster (const FsCommonOptions *options);

/* FLAG (the command's -n), else the live context's namespace, else NULL. */
const char *fs_cli_namespace (const FsCommonOptions *options, const char *flag);
/* Splits "NAMESPACE/NAME" (or "NAME", in NAMESPACE or "default") into *NS (caller frees) and
 * the name (points into ARGUMENT). */
const char *fs_cli_split_name (const char *argument, const char *namespace, char **ns);
/* --now: TEXT (RFC 3339, or NULL for the present) as unix seconds; FALSE with a message
 * printed for COMMAND when it does not parse. */
gboolean fs_cli_parse_now (const char *command, const char *text, int64_t *seconds);
/* Prints "fitscale CMD: MESSAGE" to stderr and returns FS_EXIT_ERROR. */
int fs_cli_fail (const char *command, const GError *error);

int fs_cmd_capacity (int argc, char **argv);
int fs_cmd_plan (int argc, char **argv);
int fs_cmd_quantity (int argc, char **argv);
int fs_cmd_serve (int argc, char **argv);
int fs_cmd_simulate (int argc, char **argv);
int fs_cmd_hpa (int argc, char **argv);
int fs_cmd_hvpa (int argc, char **argv);
int fs_cmd_nodes (int argc, char **argv);
int fs_cmd_why (int argc, char **argv);

G_END_DECLS
