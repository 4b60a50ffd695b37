/* fitscale — the planner (fitscale plan): the (replicas, requests) pair that the scheduler
 * can place in full and that is closest to what the HPA and the VPA want.
 *
 * The HVPA point P* (the weight rules of hvpa.h, ignoring capacity) is the plan when every
 * replica of it schedules, in the final state and during its rollout.  Otherwise the
 * planner walks a grid of replica counts x requests between the current ones and the VPA
 * target, packs each against the snapshot (pack.h), and ranks the ones that fit: serving the
 * demand first, then the vpaWeight-weighted log distance to the HPA's and the VPA's targets,
 * then fewer requested resources, then fewer replicas.  docs/algorithm.md states the rules
 * with worked examples.  The answer owns its arrays and points into the snapshot. */
#pragma once

#include <glib.h>

#include "fitscale/model/hpa.h"
#include "fitscale/plan/hvpaexplain.h"
#include "fitscale/plan/memo.h"
#include "fitscale/plan/request.h"
#include "fitscale/plan/resize.h"
#include "fitscale/model/pack.h"
#include "fitscale/model/rollout.h"

G_BEGIN_DECLS

#define FS_PLAN_MAX_REPLICA_COUNTS 1000

/* One (replicas, requests) pair and what the snapshot says of it. */
typedef struct {
  int32_t replicas;
  double weight;                /* how far the requests went: 0 current, 1 the VPA target */
  int64_t request[FS_HVPA_MAX_CONTAINERS][FS_HVPA_N_RESOURCES];
  int64_t limit[FS_HVPA_MAX_CONTAINERS][FS_HVPA_N_RESOURCES]; /* 0 = none */
  FsResources pod_request;      /* one replica's effective request */
  gboolean same_template;       /* requests as they are: a scale, no rollout */
  int64_t capacity;             /* replicas of this shape the final state holds */
  int64_t pending;              /* replicas - capacity, when positive */
  gboolean schedulable;
  double served;                /* fraction of the demand served, in [0, 1] */
  double hpa_distance;          /* |ln(capacity-equivalent replicas / HPA desired)| */
  double vpa_distance;          /* mean |ln(request / VPA target)| */
  double distance;              /* (1 - w) hpa_distance + w vpa_distance */
  double size;                  /* replicas x request, as a share of eligible allocatable */
} FsPlanCandidate;

typedef struct {
  gboolean needed;              /* the requests change, so the pods are replaced */
  const char *strategy;         /* "RollingUpdate", "Recreate", "OnDelete" */
  FsRolloutLimits limits;
  gboolean completes;
  int32_t syncs;                /* controller syncs it took, or until it stopped */
  FsRolloutState stuck;         /* where it stopped, when it does not complete */
  gboolean has_fix;             /* limits that let it complete */
  FsRolloutLimits fix;
} FsPlanRollout;

typedef enum {
  FS_PLAN_UNCHANGED,            /* P* schedules: the plan is P* */
  FS_PLAN_ADJUSTED,             /* another pair schedules and serves the demand */
  FS_PLAN_INFEASIBLE,           /* nothing that schedules serves the whole demand */
} FsPlanOutcome;

/* What the HPA's metrics ask of the plan (docs/algorithm.md, "demand"). */
typedef struct {
  gboolean resource[FS_HVPA_N_RESOURCES]; /* the HPA scales on cpu / memory */
  int64_t amount[FS_HVPA_N_RESOURCES];    /* replicas x request the demand needs */
  gboolean replicas_metric;               /* Pods, Object or External metrics (or no HPA) */
  int32_t replicas;                       /* the replicas those need */
} FsPlanDemand;

typedef struct {
  FsPlanRequest request;
  const FsWorkload *workload;
  FsHvpaAnswer hvpa;            /* inputs and P*: the Hvpa's, or one synthesized stage */
  gboolean from_hvpa;
  gboolean has_hpa;
  FsHpaSpec hpa;
  int32_t hpa_desired;          /* the HPA's wish the distance is measured against */
  const char *hpa_desired_from; /* "status.desiredReplicas", "metrics", "--hpa-desired", ... */
  FsPlanDemand demand;
  double stage_weight;          /* the vpaWeight P*'s requests moved by (the stage's, or 1 at
                                 * maxReplicas when the HPA wants more): weighs the distances */
  guint own_pods;               /* the workload's pods counted on nodes now */
  FsPlanCandidate current;      /* as it runs now */
  FsPlanCandidate target;       /* P* */
  int32_t next_sync_replicas;   /* what the workload's autoscaler sets spec.replicas to at its
                                 * next sync: an Hvpa P*'s replicas (its weight rules,
                                 * model/hvpa.h), an HPA its wish within its bounds; 0 with
                                 * neither */
  FsPlanRollout target_rollout;
  char *target_message;         /* the FailedScheduling message of P*'s first Pending replica */
  FsPlanCandidate plan;
  FsPlanRollout rollout;
  gboolean has_steady;          /* the plan's update stops half way, and this one's does not */
  FsPlanCandidate steady;       /* the best ranked pair whose update completes as configured */
  FsPlanOutcome outcome;
  char *reason;                 /* one paragraph for people */
  GArray *alternatives;         /* FsPlanCandidate: the best other replica counts */
  GArray *nodes_needed;         /* FsNodeShapeEstimate: new nodes that would hold P* */
  guint n_steps;
  FsPlanCandidate *steps;       /* per request step (replicas unset): the --curve grid */
  guint n_candidates;           /* pairs evaluated */
  const FsPod *recorded_pod;     /* a Pending pod of the workload whose recorded verdict has */
  GPtrArray *unmodelled;        /* these reasons the plan cannot reproduce (fs_workload_unmodelled) */
  guint n_serving;              /* of those, the pairs that schedule every replica and serve
                                 * the whole demand */
  gboolean in_place_preferred;  /* in place, the plan was preferred to RANKED_FIRST, as close to
                                 * the targets, for its fewer evictions and restarts: */
  FsPlanCandidate ranked_first;
  guint ranked_first_evictions, ranked_first_restarts, plan_evictions, plan_restarts;
  FsResizePlan *resize;         /* the plan's requests applied in place (plan/resize.h); NULL
                                 * when the update recreates the pods */
  /* The requests the patch writes: the plan's, with each memory request the plan changes
   * rounded up to the unit the workload's manifest wrote it in (fs_round_up_like) when the
   * rounded pair schedules as the plan does (as many replicas fit, and its rollout ends as the
   * plan's does with the same limits); else the plan's exact amounts (patch_rounded FALSE). */
  int64_t patch_request[FS_HVPA_MAX_CONTAINERS][FS_HVPA_N_RESOURCES];
  gboolean patch_rounded;       /* some request was rounded, and the rounded pair checked */
  gboolean patch_exact;         /* rounding would change what fits: the exact amounts kept */
  FsPlanCandidate proposal;     /* request.has_proposal: the write, measured as a candidate */
  char *proposal_message;       /* the FailedScheduling message of its first Pending replica */
  gboolean partial;             /* request.proposal_first and the proposal schedules: only
                                 * current and proposal are measured, nothing is planned */
} FsPlanAnswer;

/* Plans REQUEST on SNAPSHOT.  NULL with an error naming the object or field when the
 * workload or its autoscalers cannot be read. */
FsPlanAnswer *fs_plan (const FsSnapshot *snapshot, const FsPlanRequest *request, GError **error);
/* The same answer, byte for byte, sharing with MEMO (plan/memo.h) what depends on the
 * snapshot and the workload only; a memo of another snapshot (or NULL) is not used. */
FsPlanAnswer *fs_plan_shared (const FsSnapshot *snapshot, FsPlanMemo *memo, const FsPlanRequest *request,
                              GError **error);
void fs_plan_answer_free (FsPlanAnswer *answer);
/* What ANSWER's P* is named after, naming only what exists: "HVPA" (an Hvpa makes it), else
 * "HPA/VPA", "HPA" or "VPA" (the autoscalers found, or --hpa-desired / --vpa-target), else
 * "target" (neither: the workload as it is written). */
const char *fs_plan_point_name (const FsPlanAnswer *answer);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FsPlanAnswer, fs_plan_answer_free)

/* The in-place part of ANSWER (answer->resize), when its request or the VPA's updateMode
 * (InPlaceOrRecreate, InPlace) asks for an in-place update (src/plan/resize.c). */
void fs_plan_resize (const FsSnapshot *snapshot, FsPlanAnswer *answer);
/* TRUE when ANSWER's update is in place; EVICT_DEFERRED then tells whether a resize left
 * Deferred is evicted (InPlaceOrRecreate) or waits (InPlace). */
gboolean fs_plan_in_place (const FsPlanAnswer *answer, gboolean *evict_deferred);
/* CANDIDATE's requests and limits per container as a resize target (NULL: the current
 * requests, no limits). */
void fs_plan_resize_target (const FsPlanAnswer *answer, const FsPlanCandidate *candidate, FsResizeTarget *target);

/* "unchanged", "adjusted", "infeasible" */
const char *fs_plan_outcome_name (FsPlanOutcome outcome);

G_END_DECLS
