/* fitscale — the capacity answer: its document (docs/api.md, "POST /v1/capacity"), what
 * `fitscale capacity -o json|yaml` prints and what the service answers; its table, what
 * `fitscale capacity` prints; and the frontier of `capacity --vary` in both forms.  Writes
 * into an emitter or a FILE the caller owns; nothing is kept. */
#pragma once

#include <glib.h>
#include <stdint.h>
#include <stdio.h>

#include "fitscale/plan/capacity.h"
#include "fitscale/plan/shape.h"
#include "fitscale/render/output.h"

G_BEGIN_DECLS

/* One map: the shape, the replicas that fit and what limits them, per node, the
 * fragmentation and the new nodes needed; REPLICAS >= 0 adds whether that many fit. */
void fs_render_capacity (FsEmitter *emitter, const FsSnapshot *snapshot, const FsShape *shape,
                         const FsCapacityAnswer *answer, int64_t replicas);
/* The shape, a row per node (how many fit, [placed,] why not more; WIDE lists every node,
 * else long lists skip the nodes that cannot take one for other reasons than room), the
 * total, the free room in total and in one piece; REPLICAS >= 0 adds whether that many fit
 * and the new nodes that would hold the rest. */
void fs_render_capacity_table (FILE *out, gboolean wide, const FsSnapshot *snapshot,
                               const FsShape *shape, const FsCapacityAnswer *answer,
                               int64_t replicas);

/* First in the capacity and plan tables: the scheduler's recorded verdict for POD (may be
 * NULL: nothing printed) and the REASONS of it from filters fitscale does not model, which
 * the answer that follows does not count. */
void fs_render_unmodelled_note (FILE *out, const FsPod *pod, const GPtrArray *reasons);
/* "unmodelledReasons": REASONS, "recordedMessage": POD's message (null without POD). */
void fs_render_unmodelled_fields (FsEmitter *emitter, const FsPod *pod, const GPtrArray *reasons);

/* --vary: {"shape", "resource", "frontier": [{request, replicas}]} for POINTS
 * (FsFrontierPoint) of resource NAME. */
void fs_render_capacity_frontier (FsEmitter *emitter, const FsShape *shape, const char *name,
                                  const GArray *points);
/* --vary as a table: NAME (upper case), REPLICAS THAT FIT. */
void fs_render_capacity_frontier_table (FILE *out, const char *name, const GArray *points);

G_END_DECLS
