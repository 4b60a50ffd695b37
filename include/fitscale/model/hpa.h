/* fitscale — the HorizontalPodAutoscaler's arithmetic, exactly as the controller does it
 * (kubernetes/kubernetes pkg/controller/podautoscaler: replica_calculator.go, horizontal.go).
 *
 * Pure functions on plain structs: the caller gathers the pods, their metrics and the
 * controller's history; nothing here allocates except the caller-owned arrays passed in.
 * Times are unix milliseconds.  Metric values are in milli-units (MilliValue), as upstream
 * keeps them (PodMetric.Value). */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "fitscale/model/objects.h"

G_BEGIN_DECLS

/* ---- one metric ------------------------------------------------------------------------ */

/* replica_calculator.go calculatePodRequests: a pod's requests of RESOURCE in milli-units,
 * summed over its regular containers and its restartable init containers (native sidecars),
 * or CONTAINER's alone when set.  FALSE when a container summed has no request of RESOURCE
 * (its name in *MISSING) or, with CONTAINER, when the pod has no container of that name. */
gboolean fs_hpa_pod_request (const FsContainerSet *set, const char *resource, const char *container,
                             int64_t *milli, const char **missing);

/* A pod as the replica calculator sees it (groupPods, calculatePodRequests). */
typedef struct {
  const char *name;
  gboolean deleted;           /* metadata.deletionTimestamp set */
  gboolean failed;            /* phase Failed */
  gboolean succeeded;         /* phase Succeeded */
  gboolean pending;           /* phase Pending */
  gboolean has_ready;         /* a Ready condition is present */
  gboolean ready;             /* ... and True */
  int64_t ready_transition_ms;/* its lastTransitionTime */
  gboolean has_start;         /* status.startTime present */
  int64_t start_ms;
  gboolean has_metric;        /* the metrics API returned a sample for it */
  int64_t metric_milli;       /* the sample: usage of the resource (or metric value), milli */
  int64_t metric_timestamp_ms;
  int64_t metric_window_ms;
  gboolean has_request;       /* the containers considered all request the resource */
  int64_t request_milli;      /* sum of their requests, milli (calculatePodRequests) */
} FsHpaPod;

typedef enum {
  FS_HPA_POD_READY,
  FS_HPA_POD_UNREADY,         /* Pending, or (cpu only) not ready in its initialization */
  FS_HPA_POD_MISSING,         /* no metric sample */
  FS_HPA_POD_IGNORED,         /* deleted, Failed or Succeeded */
} FsHpaPodGroup;

typedef struct {
  int64_t cpu_initialization_period_ms;   /* --horizontal-pod-autoscaler-cpu-initialization-period, 5 min */
  int64_t initial_readiness_delay_ms;     /* --horizontal-pod-autoscaler-initial-readiness-delay, 30 s */
  double tolerance_up;                    /* 0.1 unless behavior.scaleUp.tolerance is set */
  double tolerance_down;                  /* 0.1 unless behavior.scaleDown.tolerance is set */
  gboolean symmetric_tolerance;           /* before v1.33: abs(1 - ratio) <= tolerance_up */
  int64_t now_ms;
} FsHpaSettings;

/* The controller's defaults (5 min, 30 s, 0.1 both ways), at NOW_MS. */
FsHpaSettings fs_hpa_default_settings (int64_t now_ms);

/* replica_calculator.go groupPods: the group of each pod into GROUPS (n entries).
 * IS_CPU: the readiness rules apply to the cpu resource only. */
void fs_hpa_group_pods (const FsHpaPod *pods, guint n, gboolean is_cpu,
                        const FsHpaSettings *settings, FsHpaPodGroup *groups);

/* Tolerances.isWithin: (1 - down) <= ratio <= (1 + up); with symmetric_tolerance the rule of
 * v1.32 and before, abs(1 - ratio) <= tolerance, which differs at exactly 1 +/- 0.1 (110 %
 * of target: 1 - 1.1 is -0.10000000000000009 in doubles). */
gboolean fs_hpa_within_tolerance (double ratio, const FsHpaSettings *settings);

/* Whether kube-controller-manager 1.MINOR tests the tolerance symmetrically (before 1.33; the
 * FsHpaSettings.symmetric_tolerance to evaluate as that version). */
gboolean fs_hpa_symmetric_tolerance (guint minor);

#define FS_KUBE_DEFAULT_MINOR 35   /* the Kubernetes version assumed when none is given: 1.35 */

/* A Kubernetes version written "1.MINOR" (TEXT NULL: FS_KUBE_DEFAULT_MINOR) into *MINOR; else
 * FALSE with FS_ERROR_USAGE "FLAG "TEXT": give 1.MINOR, e.g. 1.32" (FLAG says where TEXT came
 * from) and *MINOR left as it was. */
gboolean fs_kube_version_parse (const char *flag, const char *text, guint *minor, GError **error);

typedef struct {
  gboolean valid;             /* FALSE: the metric could not be computed (see error) */
  char error[512];            /* upstream's message, e.g. "no pods returned by selector ..." */
  int32_t replicas;           /* the proposal */
  double usage_ratio;         /* the first ratio computed (before any rebalance) */
  double rebalanced_ratio;    /* after counting unready/missing pods (equal when none) */
  int32_t utilization;        /* percent (Utilization targets) */
  int64_t average_milli;      /* raw average per pod, milli (AverageValue and Pods metrics) */
  int64_t value_milli;        /* the value (Object/External Value targets) */
  guint ready, unready, missing, ignored;
  gboolean within_tolerance;
} FsHpaProposal;

/* GetResourceReplicas (Utilization target, percent): PODS with their requests. */
void fs_hpa_resource_replicas (int32_t current_replicas, int32_t target_utilization,
                               const FsHpaPod *pods, guint n, gboolean is_cpu,
                               const FsHpaSettings *settings, FsHpaProposal *out);
/* GetRawResourceReplicas (AverageValue target) and GetMetricReplicas (Pods metrics): the
 * plain-metric rule (calcPlainMetricReplicas) with TARGET_MILLI per pod. */
void fs_hpa_plain_replicas (int32_t current_replicas, int64_t target_milli, const FsHpaPod *pods,
                            guint n, gboolean is_cpu, const FsHpaSettings *settings,
                            FsHpaProposal *out);
/* GetObjectMetricReplicas / GetExternalMetricReplicas with a Value target: usage / target
 * scales the ready pods (READY_PODS, getReadyPodsCount). */
void fs_hpa_value_replicas (int32_t current_replicas, int64_t value_milli, int64_t target_milli,
                            int32_t ready_pods, const FsHpaSettings *settings, FsHpaProposal *out);
/* GetObjectPerPodMetricReplicas / GetExternalPerPodMetricReplicas (AverageValue target):
 * ceil(value / target), kept when within tolerance of current. */
void fs_hpa_average_value_replicas (int32_t current_replicas, int64_t value_milli,
                                    int64_t target_milli, const FsHpaSettings *settings,
                                    FsHpaProposal *out);
/* The usage of an External metric: its N series' VALUES (milli) summed as upstream sums them.
 * PER_POD FALSE (Value target, GetExternalMetricReplicas): a positive value that would carry
 * the sum past MaxInt64 stops it at MaxInt64.  PER_POD TRUE (AverageValue target,
 * GetExternalPerPodMetricReplicas): the sum wraps as Go's int64 does and a negative running
 * sum stops it at MaxInt64. */
int64_t fs_hpa_external_usage (const int64_t *values, guint n, gboolean per_pod);

/* ---- several metrics (horizontal.go computeReplicasForMetrics) --------------------------- */

/* The largest valid proposal wins; an invalid metric blocks a scale-down (the result is then
 * current replicas if the largest valid proposal is lower), never a scale-up.  Returns the
 * index of the winning proposal, -1 when none is valid (*REPLICAS is then current). */
int fs_hpa_combine_proposals (int32_t current_replicas, const FsHpaProposal *proposals, guint n,
                              int32_t *replicas);

/* ---- limits and behavior (horizontal.go) ------------------------------------------------ */

typedef enum { FS_HPA_POLICY_PODS, FS_HPA_POLICY_PERCENT } FsHpaPolicyType;
typedef enum { FS_HPA_SELECT_MAX, FS_HPA_SELECT_MIN, FS_HPA_SELECT_DISABLED } FsHpaSelect;

typedef struct {
  FsHpaPolicyType type;
  int32_t value;
  int32_t period_seconds;
} FsHpaPolicy;

typedef struct {
  int32_t stabilization_window_seconds;
  FsHpaSelect select;
  guint n_policies;
  FsHpaPolicy policies[8];
} FsHpaRules;

typedef struct {
  FsHpaRules scale_up;
  FsHpaRules scale_down;
} FsHpaBehavior;

/* The defaults the API server fills in (autoscaling/v2 SetDefaults_HorizontalPodAutoscaler
 * behavior): scale up 0 s window, max(100 %/15 s, 4 pods/15 s); scale down 300 s window,
 * 100 %/15 s.  Fields the HPA sets replace them. */
FsHpaBehavior fs_hpa_default_behavior (void);

typedef struct {
  int64_t timestamp_ms;
  int32_t recommendation;
} FsHpaRecommendation;

typedef struct {
  int64_t timestamp_ms;
  int32_t replica_change;     /* positive for scale-up events, for scale-down the pods removed */
  gboolean outdated;
} FsHpaScaleEvent;

typedef enum {
  FS_HPA_LIMIT_NONE,
  FS_HPA_LIMIT_MIN,           /* "TooFewReplicas": raised to minReplicas */
  FS_HPA_LIMIT_MAX,           /* "TooManyReplicas": cut to maxReplicas */
  FS_HPA_LIMIT_SCALE_UP,      /* "ScaleUpLimit": the legacy 2x/4 cap or a scale-up policy */
  FS_HPA_LIMIT_SCALE_DOWN,    /* "ScaleDownLimit": a scale-down policy */
  FS_HPA_LIMIT_STABILIZATION, /* a stabilization window held the recommendation */
  FS_HPA_LIMIT_DISABLED,      /* selectPolicy Disabled */
} FsHpaLimit;

typedef struct {
  int32_t desired;            /* what the controller writes */
  int32_t stabilized;         /* after the stabilization windows */
  FsHpaLimit limited_by;
  const char *reason;         /* upstream's condition reason, e.g. "ScaleDownStabilized" */
  const char *message;        /* upstream's condition message */
} FsHpaDecision;

/* normalizeDesiredReplicas (no behavior): the 300 s downscale stabilization over
 * RECOMMENDATIONS (the caller appends the new one), the scale-up cap max(2 x current, 4),
 * then min/max. */
void fs_hpa_normalize_legacy (int32_t current, int32_t proposal, int32_t min_replicas,
                              int32_t max_replicas, int64_t now_ms,
                              const FsHpaRecommendation *recommendations, guint n,
                              FsHpaDecision *out);

/* normalizeDesiredReplicasWithBehaviors: stabilizeRecommendationWithBehaviors over
 * RECOMMENDATIONS (the envelope of the up and down windows), then
 * convertDesiredReplicasWithBehaviorRate with the policies over EVENTS (both directions'
 * events within each period), selectPolicy Max/Min/Disabled, then min/max. */
void fs_hpa_normalize_behavior (int32_t current, int32_t proposal, int32_t min_replicas,
                                int32_t max_replicas, const FsHpaBehavior *behavior,
                                int64_t now_ms, const FsHpaRecommendation *recommendations,
                                guint n_recommendations, const FsHpaScaleEvent *up_events,
                                guint n_up, const FsHpaScaleEvent *down_events, guint n_down,
                                FsHpaDecision *out);

/* ---- the controller's memory between syncs (horizontal.go) ------------------------------ */

#define FS_HPA_HISTORY_MAX 256

/* What one HPA's controller keeps: its recent recommendations (stabilizeRecommendation /
 * stabilizeRecommendationWithBehaviors store the raw recommendation of every sync, reusing the
 * slot of one older than every window) and its scale events (storeScaleEvent, reusing the
 * slot of one outdated by the longest policy period).  A plain value: copy it freely. */
typedef struct {
  FsHpaRecommendation recommendations[FS_HPA_HISTORY_MAX];
  guint n_recommendations;
  FsHpaScaleEvent up[FS_HPA_HISTORY_MAX];
  guint n_up;
  FsHpaScaleEvent down[FS_HPA_HISTORY_MAX];
  guint n_down;
} FsHpaHistory;

/* A new HPA's history (reconcileAutoscaler): the current replicas as the one recommendation. */
void fs_hpa_history_seed (FsHpaHistory *history, int64_t now_ms, int32_t current);

/* One sync: normalizes PROPOSAL against HISTORY (with BEHAVIOR, or the legacy rules when it is
 * NULL), records the recommendation and the scale event, and returns the desired replicas. */
int32_t fs_hpa_sync (FsHpaHistory *history, const FsHpaBehavior *behavior, int64_t now_ms,
                     int32_t current, int32_t proposal, int32_t min_replicas, int32_t max_replicas,
                     FsHpaDecision *decision);

/* getReplicasChangePerPeriod: the replicas added (or removed) by EVENTS within PERIOD. */
int32_t fs_hpa_change_in_period (int32_t period_seconds, int64_t now_ms,
                                 const FsHpaScaleEvent *events, guint n);

/* ---- the HPA object, as kube/hpaspec.h decodes it ---------------------------------------- */

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

/* An HorizontalPodAutoscaler: spec (autoscaling/v2; v2beta2 read as v2, v2beta1's flat
 * targets too) with the API server's defaults filled in, and what its status says.  Strings
 * point into the snapshot the decoder read it from. */
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
  gboolean has_desired_replicas; /* status.desiredReplicas is given */
  int32_t desired_replicas;
  int64_t last_scale_ms;       /* 0 when never scaled */
  const char *scaling_active_reason;   /* the ScalingActive condition, when False */
  const char *scaling_active_message;
  const char *scaling_limited_reason;  /* the ScalingLimited condition, when True */
  gboolean scaling_limited;    /* the (last) ScalingLimited condition is True */
} FsHpaSpec;

#define FS_HPA_DEFAULT_MIN_REPLICAS 1

/* pkg/apis/autoscaling/v2/defaults.go SetDefaults_HorizontalPodAutoscaler: SPEC zeroed, then
 * what the API server fills in when the object leaves it out (minReplicas 1, the default
 * behavior) and the controller's tolerance (0.1 both ways unless the behavior sets one). */
void fs_hpa_spec_init (FsHpaSpec *spec);
/* SetDefaults_HorizontalPodAutoscaler, for an HPA that gives no metric: one, cpu at 80 %
 * utilization. */
void fs_hpa_spec_default_metrics (FsHpaSpec *spec);

/* A custom.metrics.k8s.io MetricValue or an external.metrics.k8s.io ExternalMetricValue
 * item, as the HPA controller's metrics client reads it.  Strings point into the snapshot. */
typedef struct {
  const char *metric_name;     /* metric.name (custom.metrics v1beta2), else metricName */
  const char *object_kind;     /* describedObject (MetricValue only) */
  const char *object_namespace;
  const char *object_name;
  gboolean has_value;          /* value is a quantity */
  int64_t value_milli;
} FsMetricValue;

/* The replica bounds the API server accepts (pkg/apis/autoscaling/validation/validation.go
 * validateHorizontalPodAutoscalerSpec): minReplicas >= 1 (>= 0 with SCALE_TO_ZERO, the
 * HPAScaleToZero gate's case of an Object or External metric), maxReplicas >= 1 and >=
 * minReplicas.  FALSE with FS_ERROR_INVALID naming MIN_FIELD or MAX_FIELD otherwise. */
gboolean fs_hpa_replicas_valid (int32_t min_replicas, int32_t max_replicas, gboolean scale_to_zero,
                                const char *min_field, const char *max_field, GError **error);

G_END_DECLS
