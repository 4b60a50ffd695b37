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
  guint n_ready;             /* Ready and not cordoned */
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

G_END_DECLS
