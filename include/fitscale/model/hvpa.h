/* fitscale — the HVPA controller's weight-based scaling rules, in two semantics:
 *   FS_HVPA_SEMANTICS_DESIGN: the design text (seed hvpa-weight-based-scaling.txt) with the
 *     gaps filled as fitscale decided;
 *   FS_HVPA_SEMANTICS_HVPA: the released controller, gardener/hvpa-controller v0.5.1 .. v0.17
 *     (controllers/hvpa_controller.go, utils/timewindow.go).
 * The differences are listed at the top of src/model/hvpa.c.
 *
 * Pure functions on plain structs: no I/O, no globals, no allocation.  The caller owns every
 * input (strings and arrays are only read during the call) and the output's CONTAINERS array
 * (one entry per input container).  Units: cpu int64 millicores, memory int64 bytes, times
 * int64 unix milliseconds, weights double in [0,1] once normalized.
 *
 * At the end, the Hvpa and VPA objects as kube/hvpaspec.h decodes them: their strings point
 * into the snapshot, their arrays are their own (fs_hvpa_object_clear, fs_vpa_object_clear). */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "fitscale/model/objects.h"

G_BEGIN_DECLS

typedef enum {
  FS_HVPA_SEMANTICS_DESIGN,
  FS_HVPA_SEMANTICS_HVPA,
} FsHvpaSemantics;

/* "design" or "hvpa" (NULL: design); FALSE for any other text. */
gboolean fs_hvpa_semantics_parse (const char *text, FsHvpaSemantics *semantics);
/* "design" or "hvpa". */
const char *fs_hvpa_semantics_name (FsHvpaSemantics semantics);

typedef enum {
  FS_HVPA_CPU,                /* millicores */
  FS_HVPA_MEMORY,             /* bytes */
  FS_HVPA_N_RESOURCES,
} FsHvpaResource;

/* updatePolicy.updateMode; nil or "" is Auto (hvpa semantics only; design ignores it) */
typedef enum {
  FS_HVPA_MODE_AUTO,
  FS_HVPA_MODE_OFF,
  FS_HVPA_MODE_MAINTENANCE_WINDOW,
} FsHvpaUpdateMode;

/* status.lastBlockedScaling[].reason (api/v1alpha1 BlockingReason) */
typedef enum {
  FS_HVPA_BLOCKED_NONE,
  FS_HVPA_BLOCKED_WEIGHT,
  FS_HVPA_BLOCKED_UPDATE_POLICY,
  FS_HVPA_BLOCKED_STABILIZATION_WINDOW,
  FS_HVPA_BLOCKED_MAINTENANCE_WINDOW,
  FS_HVPA_BLOCKED_MIN_CHANGE,
} FsHvpaBlockedReason;

/* "Weight", "UpdatePolicy", ... as upstream spells them ("" for NONE). */
const char *fs_hvpa_blocked_reason_name (FsHvpaBlockedReason reason);

/* spec.weightBasedScalingIntervals[]: VPA_WEIGHT as written in the manifest (0.6 or 60, see
 * fs_hvpa_stage_weight); a count of 0 means omitted (minReplicas / maxReplicas). */
typedef struct {
  double vpa_weight;
  int32_t start_replica_count;
  int32_t last_replica_count;
} FsHvpaInterval;

/* ChangeParams {value, percentage}: minChange, limitsRequestsGapScaleParams.  VALUE in the
 * resource's unit (millicores / bytes). */
typedef struct {
  gboolean has_value;
  int64_t value;
  gboolean has_percentage;
  int32_t percentage;
} FsHvpaChangeParams;

/* spec.{hpa,vpa}.{scaleUp,scaleDown} */
typedef struct {
  FsHvpaUpdateMode update_mode;
  int64_t stabilization_ms;                          /* stabilizationDuration, 0 = none */
  FsHvpaChangeParams min_change[FS_HVPA_N_RESOURCES]; /* read for vpa only */
} FsHvpaScaleType;

typedef struct {
  const FsHvpaInterval *intervals;    /* in list order */
  guint n_intervals;
  int32_t min_replicas;               /* spec.hpa.template.spec.minReplicas (>= 1) */
  int32_t max_replicas;
  /* where the object writes them: "spec.hpa.template.spec" (the released layout) or
   * "spec.hpaTemplate" (the design text's); NULL when no Hvpa does (a plain HPA) */
  const char *replicas_path;
  gboolean hpa_deploy;                /* spec.hpa.deploy (hvpa only; omitted = FALSE) */
  gboolean hpa_controller_annotation; /* annotation hpa-controller: hvpa (hvpa only) */
  /* Design: the seed's scaleUpStabilizationWindow / scaleDownStabilizationWindow go into both
   * the hpa and the vpa durations, minCpuChange / minMemChange into vpa min_change. */
  FsHvpaScaleType hpa_scale_up, hpa_scale_down, vpa_scale_up, vpa_scale_down;
  FsHvpaChangeParams limits_gap[FS_HVPA_N_RESOURCES]; /* vpa.limitsRequestsGapScaleParams */
  const char *maintenance_begin;      /* spec.maintenanceTimeWindow "HHMMSS+ZONE"; NULL = none */
  const char *maintenance_end;
} FsHvpaSpec;

/* One container of the target's pod template with its VPA recommendation and policy. */
typedef struct {
  const char *name;
  int64_t request[FS_HVPA_N_RESOURCES];   /* 0 = unset */
  int64_t limit[FS_HVPA_N_RESOURCES];     /* 0 = no limit */
  gboolean has_recommendation;            /* the VPA recommends for this container */
  int64_t target[FS_HVPA_N_RESOURCES];
  int64_t lower_bound[FS_HVPA_N_RESOURCES]; /* read by neither semantics (upstream ignores them) */
  int64_t upper_bound[FS_HVPA_N_RESOURCES];
  gboolean has_min_allowed[FS_HVPA_N_RESOURCES]; /* containerPolicy minAllowed/maxAllowed */
  int64_t min_allowed[FS_HVPA_N_RESOURCES];
  gboolean has_max_allowed[FS_HVPA_N_RESOURCES];
  int64_t max_allowed[FS_HVPA_N_RESOURCES];
  gboolean controlled_resources_set;      /* containerPolicy controlledResources (hvpa only) */
  gboolean controlled[FS_HVPA_N_RESOURCES];
  gboolean requests_only;                 /* controlledValues: RequestsOnly (hvpa only) */
} FsHvpaContainer;

typedef enum {
  FS_HVPA_VPA_RECOMMENDATION_PROVIDED,
  FS_HVPA_VPA_LOW_CONFIDENCE,
  FS_HVPA_VPA_CONFIG_UNSUPPORTED,
  FS_HVPA_VPA_CONFIG_DEPRECATED,
  FS_HVPA_VPA_OTHER,
} FsHvpaVpaConditionType;

typedef struct {
  FsHvpaVpaConditionType type;
  gboolean status;                        /* "True" */
} FsHvpaVpaCondition;

typedef struct {
  FsHvpaSpec spec;
  /* status */
  gboolean has_last_scale_time;           /* status.lastScaling.lastScaleTime; FALSE = never */
  int64_t last_scale_time_ms;
  gboolean override_scale_up_stabilization;
  /* the target and the HPA */
  int32_t current_replicas;               /* target spec.replicas */
  gboolean has_hpa_status;                /* FALSE: desired = current */
  int32_t desired_replicas;               /* HPA status.desiredReplicas */
  gboolean hpa_scaling_limited;           /* HPA condition ScalingLimited = True */
  /* the VPA */
  gboolean has_vpa_recommendation;        /* status.recommendation present */
  const FsHvpaVpaCondition *vpa_conditions; /* hvpa only */
  guint n_vpa_conditions;
  const FsHvpaContainer *containers;
  guint n_containers;
  int64_t now_ms;
} FsHvpaInput;

typedef struct {
  int64_t request[FS_HVPA_N_RESOURCES];   /* applied value (current when unchanged) */
  int64_t limit[FS_HVPA_N_RESOURCES];     /* applied value (current when unchanged), 0 = none */
  int64_t weighted_request[FS_HVPA_N_RESOURCES]; /* before the gates (hvpa: kB-rounded, capped) */
  int64_t change[FS_HVPA_N_RESOURCES];    /* weighted change compared with minChange */
  gboolean changed[FS_HVPA_N_RESOURCES];
  FsHvpaBlockedReason blocked[FS_HVPA_N_RESOURCES];
} FsHvpaContainerResult;

#define FS_HVPA_MAX_BLOCKED 6

typedef struct {
  FsHvpaBlockedReason reason;
  gboolean horizontal;                    /* the replica count was blocked (too) */
  gboolean vertical;                      /* some container resource was blocked */
  char message[256];
} FsHvpaBlocked;

typedef struct {
  gboolean valid;                         /* FALSE: the Hvpa is invalid, nothing changes */
  char error[256];
  int stage;                              /* index of the interval containing current, -1 */
  double stage_weight;                    /* the weight the rules chose, in [0,1] */
  double vertical_weight;                 /* weight applied to requests (overrides) */
  gboolean hpa_scale_out_limited;         /* hvpa: vertical scale-up allowed */
  int32_t weighted_replicas;              /* before the gates */
  int32_t replicas;                       /* applied */
  gboolean scaling_off;                   /* hvpa isScalingOff: nothing is written */
  gboolean changed;                       /* replicas or some resource changed */
  FsHvpaContainerResult *containers;      /* CALLER sets: n_containers entries (or NULL if 0) */
  FsHvpaBlocked blocked[FS_HVPA_MAX_BLOCKED];
  guint n_blocked;
} FsHvpaOutput;

/* One reconcile step's decision.  OUT->containers must point to INPUT->n_containers entries. */
void fs_hvpa_decide (const FsHvpaInput *input, FsHvpaSemantics semantics, FsHvpaOutput *out);

/* ---- the small rules ------------------------------------------------------------------- */

/* Checks weights (design: in [0,100], fractions unless one exceeds 1; hvpa: integer percent
 * 0..100), min >= 1, max >= min and the maintenance window.  FALSE with a message in ERROR. */
gboolean fs_hvpa_spec_valid (const FsHvpaSpec *spec, FsHvpaSemantics semantics, char *error,
                             gsize error_size);

/* The normalized weight of interval I (design: /100 when any weight of SPEC exceeds 1; hvpa:
 * always /100). */
double fs_hvpa_interval_weight (const FsHvpaSpec *spec, FsHvpaSemantics semantics, guint i);
/* Stage I's replicas, START..LAST: a start or last of 0 is minReplicas or maxReplicas (hvpa
 * getVpaWeightFromIntervals). */
void fs_hvpa_interval_bounds (const FsHvpaSpec *spec, guint i, int32_t *start, int32_t *last);

/* The stage for CURRENT replicas (DESIRED matters only to hvpa's weight-100 rule): returns
 * the normalized weight, *STAGE the index of the first interval containing CURRENT or -1
 * (weight 0).  STAGE may be NULL. */
double fs_hvpa_stage_weight (const FsHvpaSpec *spec, FsHvpaSemantics semantics, int32_t current,
                             int32_t desired, int *stage);

/* ceil (up) / floor (down) of current + (desired - current)(1 - vpa_weight). */
int32_t fs_hvpa_weighted_replicas (FsHvpaSemantics semantics, int32_t current, int32_t desired,
                                   double vpa_weight);

/* current + trunc((target - current) * vpa_weight); hvpa: memory then rounded up to kB. */
int64_t fs_hvpa_weighted_request (FsHvpaSemantics semantics, FsHvpaResource resource,
                                  int64_t current, int64_t target, double vpa_weight);

/* Whether a weighted CHANGE (either sign) of a request at CURRENT passes minChange PARAMS
 * (NULL = unset): |change| >= min(value, percentage % of current).  Unset: design passes,
 * hvpa uses 200m / 200M. */
gboolean fs_hvpa_min_change_passes (FsHvpaSemantics semantics, FsHvpaResource resource,
                                    const FsHvpaChangeParams *params, int64_t current,
                                    int64_t change);

/* hvpa getScaledResourceLimit (+ the kB rounding of getScaledLimits): the new limit for
 * NEW_REQUEST, FALSE when none is set (no original limit).  GAP may be NULL. */
gboolean fs_hvpa_scaled_limit (FsHvpaResource resource, int64_t original_limit,
                               int64_t original_request, int64_t new_request,
                               const FsHvpaChangeParams *gap, int64_t *limit);

/* utils/timewindow.go: parses BEGIN/END ("HHMMSS+ZONE"); FALSE if either does not parse.
 * *CONTAINS: whether NOW_MS's UTC time of day lies in the window (both ends inclusive,
 * wrapping past midnight when end < begin). */
gboolean fs_hvpa_maintenance_window_contains (const char *begin, const char *end, int64_t now_ms,
                                              gboolean *contains);

typedef struct {
  int32_t replicas;
  int stage;
  double weight;              /* weight applied to the request */
  int64_t request;
} FsHvpaCurvePoint;

/* For replica counts FROM..TO (inclusive; POINTS has TO - FROM + 1 entries): the weight and
 * the weighted request of one resource from CURRENT towards TARGET.  DIRECTION is what the
 * HPA wants at each count: +1 more, -1 fewer, 0 nothing (design: at maxReplicas with +1 and at
 * minReplicas with -1 the weight is 1; hvpa: the weight-100 look-ahead/look-back).  No gates.
 * Returns the number of points. */
guint fs_hvpa_curve (const FsHvpaSpec *spec, FsHvpaSemantics semantics, FsHvpaResource resource,
                     int64_t current, int64_t target, int direction, int32_t from, int32_t to,
                     FsHvpaCurvePoint *points);

/* ---- the Hvpa and VPA objects, as kube/hvpaspec.h decodes them ------------------------ */

#define FS_HVPA_MAX_INTERVALS 16
#define FS_VPA_MAX_CONDITIONS 8

/* status.recommendation.containerRecommendations[]: amounts in the resource's unit, 0 when
 * absent. */
typedef struct {
  const char *container_name;
  int64_t target[FS_HVPA_N_RESOURCES];
  int64_t lower_bound[FS_HVPA_N_RESOURCES];
  int64_t upper_bound[FS_HVPA_N_RESOURCES];
} FsVpaRecommendation;

/* resourcePolicy.containerPolicies[]: a VPA's own, or the one of an Hvpa's VPA template. */
typedef struct {
  const char *container_name;             /* "*": every container without its own entry */
  gboolean has_min_allowed[FS_HVPA_N_RESOURCES]; /* minAllowed (the design text: MinAllowed) */
  int64_t min_allowed[FS_HVPA_N_RESOURCES];
  gboolean has_max_allowed[FS_HVPA_N_RESOURCES];
  int64_t max_allowed[FS_HVPA_N_RESOURCES];
  gboolean controlled_resources_set;      /* controlledResources lists something */
  gboolean controlled[FS_HVPA_N_RESOURCES];
  gboolean requests_only;                 /* controlledValues: RequestsOnly */
} FsVpaContainerPolicy;

/* A VerticalPodAutoscaler. */
typedef struct {
  gboolean has_recommendation;            /* status.recommendation.containerRecommendations */
  guint n_recommendations;
  FsVpaRecommendation *recommendations;   /* owned */
  guint n_policies;
  FsVpaContainerPolicy *policies;         /* spec.resourcePolicy.containerPolicies, owned */
  guint n_conditions;
  FsHvpaVpaCondition conditions[FS_VPA_MAX_CONDITIONS]; /* status.conditions, the first ones */
} FsVpaObject;

/* An Hvpa, in the released layout (autoscaling.k8s.io/v1alpha1: spec.hpa, spec.vpa) or the
 * design text's (hpaTemplate, vpaTemplate, flat stabilization windows and minimum changes). */
typedef struct {
  FsHvpaSpec spec;                        /* spec.intervals points into INTERVALS */
  FsHvpaInterval intervals[FS_HVPA_MAX_INTERVALS];
  FsLabelSelector *hpa_selector;          /* spec.hpa.selector, owned; NULL when absent */
  FsLabelSelector *vpa_selector;          /* spec.vpa.selector */
  gboolean has_container_policies;        /* the VPA template gives resourcePolicy.containerPolicies */
  guint n_container_policies;
  FsVpaContainerPolicy *container_policies; /* owned */
  gboolean has_last_scale_time;           /* status.lastScaling.lastScaleTime */
  int64_t last_scale_time_ms;
  gboolean override_scale_up_stabilization; /* status.overrideScaleUpStabilization */
} FsHvpaObject;

void fs_vpa_object_clear (FsVpaObject *vpa);
void fs_hvpa_object_clear (FsHvpaObject *hvpa);

/* vertical-pod-autoscaler pkg/utils/vpa/api.go GetContainerResourcePolicy: the entry of
 * POLICIES named CONTAINER, else the last one named "*", else NULL. */
const FsVpaContainerPolicy *fs_vpa_container_policy (const FsVpaContainerPolicy *policies, guint n,
                                                     const char *container);
/* The recommendation for CONTAINER, found as fs_vpa_container_policy finds a policy (a "*"
 * entry stands for every container without its own). */
const FsVpaRecommendation *fs_vpa_container_recommendation (const FsVpaObject *vpa,
                                                            const char *container);

G_END_DECLS
