/* fitscale — "why did the HPA stop where it did?" (fitscale hpa).
 *
 * For an HPA of the snapshot: the target's pods grouped as the controller groups them, each
 * metric's value and proposal (from PodMetrics when the snapshot has them, else from the
 * HPA's own status), the winning metric, and what the limits and behavior make of it now and
 * once the stabilization windows have passed.  The answer points into the snapshot. */
#pragma once

#include <glib.h>

#include "fitscale/model/hpa.h"
#include "fitscale/model/objects.h"

G_BEGIN_DECLS

typedef enum {
  FS_HPA_SOURCE_NONE,         /* no value anywhere: the metric is invalid */
  FS_HPA_SOURCE_POD_METRICS,  /* metrics.k8s.io PodMetrics of the pods */
  FS_HPA_SOURCE_STATUS,       /* the HPA's status.currentMetrics */
  FS_HPA_SOURCE_METRIC_VALUES,/* custom/external MetricValue items */
} FsHpaSource;

/* How the replica calculator counted one pod, and why. */
typedef struct {
  const char *name;
  FsHpaPodGroup group;
  const char *why;             /* "ready", "Pending", "no metrics", "deleted", ... */
} FsHpaPodReport;

typedef struct {
  const FsHpaMetricSpec *spec;
  FsHpaSource source;
  FsHpaProposal proposal;
  guint n_pods;
  FsHpaPodReport *pods;        /* per pod, for metrics read per pod (owned) */
} FsHpaMetricAnswer;

typedef struct {
  FsHpaSpec hpa;
  const FsWorkload *target;        /* NULL when the snapshot lacks it */
  int32_t current_replicas;
  guint n_pods;                    /* pods the target's selector picks */
  guint n_metrics;
  FsHpaMetricAnswer metrics[FS_HPA_MAX_METRICS];
  int winner;                      /* index of the winning metric, -1 when none is valid */
  int32_t proposal;                /* after combining the metrics */
  int held_by;                     /* the first invalid metric when the metrics hold the HPA
                                    * (fs_hpa_metrics_hold: no limit or window runs, NOW and
                                    * SETTLED keep the current replicas), else -1 */
  FsHpaDecision now;               /* limits and behavior with a new controller's history */
  FsHpaDecision settled;           /* the same once the stabilization windows have passed */
  int64_t now_ms;
} FsHpaAnswer;

/* Frees what fs_hpa_explain allocated in ANSWER. */
void fs_hpa_answer_clear (FsHpaAnswer *answer);

/* SYMMETRIC_TOLERANCE: evaluate as a kube-controller-manager before v1.33 would.  Clear the
 * answer with fs_hpa_answer_clear. */
gboolean fs_hpa_explain (const FsSnapshot *snapshot, const FsGenericObject *hpa, int64_t now_ms,
                         gboolean symmetric_tolerance, FsHpaAnswer *answer, GError **error);

G_END_DECLS
