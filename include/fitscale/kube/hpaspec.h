/* fitscale — an HorizontalPodAutoscaler as fitscale reads it: the typed view of the generic
 * tree the snapshot keeps (autoscaling/v2, and v2beta2 read as v2; v2beta1's
 * targetAverageUtilization/targetAverageValue are read too, as Hvpa templates still use
 * them).  Defaults are the API server's (pkg/apis/autoscaling/v2/defaults.go): minReplicas 1,
 * a cpu 80 % metric when none is given, the default behavior.  Strings point into the
 * snapshot. */
#pragma once

#include <glib.h>

#include "fitscale/model/hpa.h"
#include "fitscale/model/objects.h"

G_BEGIN_DECLS

#define FS_HPA_MAX_METRICS 16

typedef enum {
  FS_HPA_METRIC_RESOURCE,
  FS_HPA_METRIC_CONTAINER_RESOURCE,
  FS_HPA_METRIC_PODS,
  FS_HPA_METRIC_OBJECT,
  FS_HPA_METRIC_EXTERNAL,
} FsHpaMetricType;

typedef enum {
  FS_HPA_TARGET_UTILIZATION,
  FS_HPA_TARGET_AVERAGE_VALUE,
  FS_HPA_TARGET_VALUE,
} FsHpaTargetType;

typedef struct {
  FsHpaMetricType type;
  const char *name;            /* the resource (cpu, memory) or the metric's name */
  const char *container;       /* ContainerResource */
  const char *object_kind;     /* Object: describedObject */
  const char *object_name;
  FsHpaTargetType target_type;
  int32_t target_utilization;  /* percent */
  int64_t target_milli;        /* AverageValue or Value, milli-units */
  /* what status.currentMetrics says of this metric, when it does */
  gboolean has_current;
  gboolean has_current_utilization;
  int32_t current_utilization;
  int64_t current_milli;       /* averageValue or value */
} FsHpaMetricSpec;

typedef struct {
  const char *namespace;
  const char *name;
  const char *target_kind;     /* scaleTargetRef */
  const char *target_name;
  int32_t min_replicas;
  int32_t max_replicas;
  guint n_metrics;
  FsHpaMetricSpec metrics[FS_HPA_MAX_METRICS];
  gboolean has_behavior;
  FsHpaBehavior behavior;      /* defaults filled in */
  double tolerance_up;         /* behavior.scaleUp.tolerance, else 0.1 */
  double tolerance_down;
  gboolean has_status;
  int32_t current_replicas;
  int32_t desired_replicas;
  int64_t last_scale_ms;       /* 0 when never scaled */
  const char *scaling_active_reason;   /* the ScalingActive condition, when False */
  const char *scaling_active_message;
  const char *scaling_limited_reason;  /* the ScalingLimited condition, when True */
} FsHpaSpec;

/* Reads OBJECT (an FS_KIND_HPA generic object).  Errors name the HPA and the field. */
gboolean fs_hpa_spec_read (const FsGenericObject *object, FsHpaSpec *spec, GError **error);

/* The HPA NAMESPACE/NAME in the snapshot, or NULL. */
const FsGenericObject *fs_snapshot_find_hpa (const FsSnapshot *snapshot, const char *namespace,
                                             const char *name);

G_END_DECLS
