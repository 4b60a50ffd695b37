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

/* One map: "nodes" (name, status, instance type, zone, taints, resources, pods per node)
 * and "total". */
void fs_render_nodes (FsEmitter *emitter, const FsNodeSummary *rows, guint n_rows,
                      const FsClusterSummary *total);
/* The total row "*", a row per node (WIDE adds ephemeral storage, extended resources,
 * instance type, zone and taints), then the free room in total and in one piece. */
void fs_render_nodes_table (FILE *out, gboolean wide, const FsNodeSummary *rows, guint n_rows,
                            const FsClusterSummary *total);

G_END_DECLS
