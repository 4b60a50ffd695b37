/* fitscale — `fitscale hpa -A` and `fitscale hvpa -A` (or without a name): one row per
 * HorizontalPodAutoscaler (Hvpa), as kubectl get hpa lists them, with what fitscale computes
 * of each: the replicas now, the desired replicas, the limits and what stopped it there. */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "fitscale/plan/hpaexplain.h"
#include "fitscale/plan/hvpaexplain.h"
#include "fitscale/render/output.h"

G_BEGIN_DECLS

/* One HPA of the list: its answer, or why there is none (ERROR, ANSWER then unset but
 * ANSWER->hpa's namespace and name). */
typedef struct {
  FsHpaAnswer answer;
  char *error;                 /* NULL when answered */
} FsHpaListRow;

/* A table: NAMESPACE (WITH_NAMESPACE), NAME, REFERENCE, CURRENT, DESIRED, MIN, MAX and
 * REASON (ScalingActive=False with its reason when the status says so, else the reason of
 * the decision: DesiredWithinRange, TooManyReplicas, ScaleDownStabilized, ...).  No rows:
 * a sentence, as kubectl's "No resources found". */
void fs_render_hpa_list_table (FILE *out, const FsHpaListRow *rows, guint n, gboolean with_namespace,
                               const char *namespace);
/* {"hpas": [fs_render_hpa's map, or {"namespace", "name", "error"}]} */
void fs_render_hpa_list (FsEmitter *emitter, const FsHpaListRow *rows, guint n);

/* `fitscale hvpa -A` (or without a name): one Hvpa a row. */
typedef struct {
  const FsGenericObject *hvpa;
  FsHvpaAnswer *answer;        /* NULL when ERROR says why there is none */
  char *error;
} FsHvpaListRow;

/* NAMESPACE (WITH_NAMESPACE), NAME, TARGET, CURRENT (the target's replicas), REPLICAS (what
 * the Hvpa would apply now), STAGE (1-based, "-" outside every stage), VPA-WEIGHT and
 * BLOCKED (the first rule that blocked a change, "-" for none). */
void fs_render_hvpa_list_table (FILE *out, const FsHvpaListRow *rows, guint n, gboolean with_namespace,
                                const char *namespace);
/* {"hvpas": [fs_render_hvpa's map, or {"namespace", "name", "error"}]} */
void fs_render_hvpa_list (FsEmitter *emitter, const FsHvpaListRow *rows, guint n, FsHvpaSemantics semantics);

G_END_DECLS
