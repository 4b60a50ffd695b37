/* fitscale — the new nodes that would hold replicas left Pending (model/pack.h
 * FsNodeShapeEstimate), in the one form every answer gives them: `nodesNeeded` of capacity
 * and plan, the additions of why's AddNodes fix, and their lines for people.  Writes into an
 * emitter or a FILE the caller owns; nothing is kept. */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "fitscale/model/pack.h"
#include "fitscale/render/output.h"

G_BEGIN_DECLS

/* A list of FsNodeAddition: [{shape, zone, pool, poolLabel, count, replicasPerNode,
 * replicas}]; zone and pool null when the copied node has none. */
void fs_emit_node_additions (FsEmitter *emitter, const char *shape, const GArray *additions);

/* A list, one map per existing node shape (ESTIMATES holds FsNodeShapeEstimate):
 * {shape, existing, replicasPerNode (what one new node takes by its own filters), nodes (the
 * new nodes that place every replica, null when no number of them does), additions, uneven,
 * unplaced}. */
void fs_emit_nodes_needed (FsEmitter *emitter, const GArray *estimates);

/* One line per shape, each starting with PREFIX: "PREFIX2 nodes of shape m5.large: 1 in
 * zone a ...", or, unless COMPLETE_ONLY, "PREFIXshape: a new node cannot hold one (reasons)"
 * and the like when no number of new nodes of it places them all.  The shapes that place them
 * all are alternatives, not a sum: each after the first says so ("PREFIXor 1 node of shape
 * ..."). */
void fs_print_nodes_needed (FILE *out, const char *prefix, gboolean complete_only, const GArray *estimates);
/* How many of ESTIMATES place every replica (complete): the alternatives printed above. */
guint fs_nodes_needed_complete (const GArray *estimates);

G_END_DECLS
