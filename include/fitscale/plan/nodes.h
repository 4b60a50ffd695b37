/* fitscale — what each node offers: allocatable, what its pods request, what is free, and
 * the cluster totals beside the largest free piece (room in total is not room in one piece).
 * Pure functions of a snapshot; the caller owns the arrays it passes in. */
#pragma once

#include <glib.h>

#include "fitscale/model/objects.h"

G_BEGIN_DECLS

typedef struct {
  const FsNode *node;
  FsResources free;          /* allocatable - requested, per resource (may be negative) */
} FsNodeSummary;

typedef struct {
  guint n_nodes;
  guint n_ready;             /* Ready (cordoned or not, as kubectl's STATUS) */
  guint n_cordoned;          /* spec.unschedulable (kubectl's SchedulingDisabled) */
  FsResources allocatable;   /* sums over all nodes */
  FsResources requested;
  FsResources free;          /* summed room: an overcommitted node adds 0, not its deficit */
  FsResources largest_free;  /* per resource, the most any one node has free */
  /* the nodes a pod can use: schedulable (not cordoned), without a NoSchedule or NoExecute
   * taint, and not reported NotReady (a node with no Ready condition counts) */
  guint n_usable;
  FsResources usable_free;   /* summed room on those */
  FsResources usable_largest_free;
  int64_t pods_bound;        /* pods counting on nodes */
  int64_t pods_pending;      /* Pending pods without a node */
} FsClusterSummary;

/* Fills ROWS (room for snapshot->n_nodes entries; *N_ROWS used) and TOTAL with the nodes
 * SELECTOR picks (NULL: every node); pods_bound counts those on them, pods_pending every
 * Pending pod without a node.  FALSE only on too many extended resource names across the
 * nodes (FS_ERROR_LIMIT). */
gboolean fs_nodes_summarize (const FsSnapshot *snapshot, const FsLabelSelector *selector,
                             FsNodeSummary *rows, guint *n_rows, FsClusterSummary *total,
                             GError **error);

/* --sort: the order of the node rows (and of the groups of --group-by).  NAME is the
 * snapshot's order of the nodes (by name) and of the groups (by label value, nodes without
 * the label last); CPU, MEMORY and PODS put the highest share requested (requested /
 * allocatable, the table's percent) first, "where is the pressure"; FREE_CPU and
 * FREE_MEMORY put the most free (the CPU FREE and MEMORY FREE cells) first, "where is the
 * room".  Ties keep the NAME order. */
typedef enum {
  FS_NODES_SORT_NAME,
  FS_NODES_SORT_CPU,
  FS_NODES_SORT_MEMORY,
  FS_NODES_SORT_PODS,
  FS_NODES_SORT_FREE_CPU,
  FS_NODES_SORT_FREE_MEMORY,
  FS_NODES_SORT_N,
} FsNodesSort;

/* The keys --sort accepts, indexed by FsNodesSort: "name", "cpu", "memory", "pods",
 * "free-cpu", "free-memory". */
extern const char *const fs_nodes_sort_keys[FS_NODES_SORT_N];

/* TEXT (NULL: name) as a sort key; FALSE with FS_ERROR_USAGE naming TEXT and the keys. */
gboolean fs_nodes_sort_parse (const char *text, FsNodesSort *key, GError **error);

/* Orders ROWS (from fs_nodes_summarize) by KEY, ties by name. */
void fs_nodes_sort (FsNodeSummary *rows, guint n_rows, FsNodesSort key);

/* The nodes of one value of the --group-by label: the same sums as the total (pods_pending
 * 0), over the group's nodes; usable_largest_free is the largest free piece on a node of
 * the group a pod can use. */
typedef struct {
  const char *value;         /* the label's value, NULL for the nodes without the label */
  FsClusterSummary summary;
} FsNodeGroup;

/* Whether LABEL is a label key (a qualified name) --group-by can take; else FALSE with
 * FS_ERROR_USAGE naming it. */
gboolean fs_nodes_group_check (const char *label, GError **error);
/* Groups ROWS by their node's value of LABEL (checked by fs_nodes_group_check), ordered by KEY as fs_nodes_sort orders nodes (NAME: by value, the
 * nodes without the label last).  Returns the groups (*N_GROUPS of them; g_free it), or NULL
 * on error (also FS_ERROR_LIMIT as fs_nodes_summarize). */
FsNodeGroup *fs_nodes_group (const FsNodeSummary *rows, guint n_rows, const char *label,
                             FsNodesSort key, guint *n_groups, GError **error);

G_END_DECLS
