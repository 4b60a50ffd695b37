/* fitscale — the answer of `fitscale nodes`: per node allocatable, requested and free, and
 * the cluster total beside the largest free piece, as a kubectl-style table with a footer
 * or as a JSON/YAML document.  Reads the summary plan/nodes.h computes; the caller owns it,
 * the emitter and the FILE. */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "fitscale/plan/nodes.h"
#include "fitscale/render/output.h"

G_BEGIN_DECLS

/* The groups of `nodes --group-by LABEL` (plan/nodes.h fs_nodes_group), or none. */
typedef struct {
  const char *label;          /* NULL: no grouping */
  const FsNodeGroup *groups;
  guint n_groups;
} FsNodeGrouping;

/* One map: "nodes" (name, status, instance type, zone, taints, resources, pods per node),
 * with GROUPING's label "groupBy" and "groups" (value, null for the nodes without the label,
 * and the total's sums over the group), and "total".  GROUPING may be NULL. */
void fs_render_nodes (FsEmitter *emitter, const FsNodeSummary *rows, guint n_rows,
                      const FsNodeGrouping *grouping, const FsClusterSummary *total);
/* The total row "*", a row per node (WIDE adds ephemeral storage, extended resources,
 * instance type, zone and taints), then the free room in total and in one piece.  With
 * GROUPING's label (GROUPING may be NULL), a row per value of the label instead of a row per
 * node ("<none>" for the nodes without it, as kubectl prints), the first column named as
 * kubectl -L names a label's, and the largest free piece on a usable node of each. */
void fs_render_nodes_table (FILE *out, gboolean wide, const FsNodeSummary *rows, guint n_rows,
                            const FsNodeGrouping *grouping, const FsClusterSummary *total);

G_END_DECLS
