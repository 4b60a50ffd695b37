/* fitscale — in-place updates: what happens to a workload's running pods when new requests
 * are applied to them where they run (fitscale plan --update in-place, the VPA's
 * InPlaceOrRecreate and InPlace modes), and why one pod's resize is Deferred or Infeasible
 * (fitscale why).
 *
 * Per node, the kubelet takes the pending resizes in its retry order (model/resize.h
 * fs_resize_sort_pending), admits each that fits beside the other pods' allocated requests
 * (fs_resize_admit) and counts it at its new size for the next, and retries the Deferred ones
 * while an admitted resize frees room (a decrease).  A resize that stays Deferred, or is
 * Infeasible, is evicted by the VPA updater in InPlaceOrRecreate mode
 * (vertical-pod-autoscaler pkg/updater/logic/updater.go AttemptInPlaceScalingIfPossible:
 * Infeasible at once, Deferred after DeferredResizeUpdateTimeout); its replacement is placed
 * by the scheduler's filters (model/pack.h) on the nodes as the resizes leave them, every
 * resizing pod counted at the larger of its old and new requests (model/resize.h).  In the
 * InPlace mode nothing is evicted: those pods keep their requests. */
#pragma once

#include <glib.h>

#include "fitscale/model/resize.h"
#include "fitscale/model/hvpa.h"

G_BEGIN_DECLS

#define FS_RESIZE_MAX_CONTAINERS 16

typedef enum {
  FS_UPDATE_DEFAULT = 0,      /* by the VPA's updateMode (InPlaceOrRecreate, InPlace), else recreate */
  FS_UPDATE_RECREATE,         /* a new template: the pods are replaced */
  FS_UPDATE_IN_PLACE,         /* the pods are resized where they run */
} FsUpdateMode;

/* "default", "recreate", "in-place"; and back (FALSE for any other text). */
const char *fs_update_mode_name (FsUpdateMode mode);
gboolean fs_update_mode_parse (const char *text, FsUpdateMode *mode);

/* The requests (and limits, 0 = none) to apply, per app container by name. */
typedef struct {
  guint n;
  const char *names[FS_RESIZE_MAX_CONTAINERS];
  int64_t request[FS_RESIZE_MAX_CONTAINERS][FS_HVPA_N_RESOURCES];
  int64_t limit[FS_RESIZE_MAX_CONTAINERS][FS_HVPA_N_RESOURCES];
} FsResizeTarget;

typedef enum {
  FS_RESIZE_UNCHANGED = 0,    /* its requests are the target's already */
  FS_RESIZE_RESIZED,          /* resized in place */
  FS_RESIZE_LEFT_DEFERRED,    /* Deferred: does not fit beside the other pods */
  FS_RESIZE_EVICTED,          /* Infeasible (or Deferred, InPlaceOrRecreate): evicted and recreated */
  FS_RESIZE_N_OUTCOMES,
} FsResizeOutcome;

/* "unchanged", "in-place", "deferred", "evicted". */
const char *fs_resize_outcome_name (FsResizeOutcome outcome);

typedef struct {
  const FsPod *pod;
  const FsNode *node;
  FsResizeOutcome outcome;
  FsResizeVerdict verdict;    /* the kubelet's answer (the last one, for a Deferred resize) */
  FsResources from;           /* its allocated request now */
  FsResources to;             /* its request with the target applied */
  guint restarts;             /* containers its resizePolicy restarts (RestartContainer) */
  const FsNode *placed_on;    /* EVICTED: where its replacement schedules; NULL: nowhere */
  guint order;                /* the order to apply the patches in: room freed before taken */
  guint n_containers;
  FsContainer containers[FS_RESIZE_MAX_CONTAINERS]; /* its app containers with the target */
} FsPodResizePlan;

typedef struct {
  FsUpdateMode mode;          /* as asked */
  gboolean in_place;          /* the update is in place (asked, or the VPA's mode) */
  const char *vpa_update_mode;/* the VPA's spec.updatePolicy.updateMode, NULL when unknown */
  gboolean evict_deferred;    /* InPlaceOrRecreate: a resize left Deferred is evicted */
  GArray *pods;               /* FsPodResizePlan, in apply order */
  guint counts[FS_RESIZE_N_OUTCOMES];
  guint restarts;             /* containers restarted in all */
  guint unplaced;             /* evicted pods whose replacement fits nowhere */
  gboolean has_largest;       /* the largest requests every pod takes in place: */
  double largest_weight;      /* the fraction of the way from the current requests to the
                               * target's (1 = the target) ... */
  FsResizeTarget largest;     /* ... and those requests */
} FsResizePlan;

/* What applying TARGET in place does to WORKLOAD's pods on SNAPSHOT.  CURRENT (the template's
 * requests now, same container order as TARGET) bounds the search for the largest requests
 * every pod takes in place.  EVICT_DEFERRED: a resize left Deferred is evicted
 * (InPlaceOrRecreate); else it waits (InPlace). */
FsResizePlan *fs_resize_plan (const FsSnapshot *snapshot, const FsWorkload *workload,
                              const FsResizeTarget *current, const FsResizeTarget *target,
                              gboolean evict_deferred);
/* What applying each of the N TARGETS in place costs WORKLOAD's pods, without the plan:
 * EVICTIONS[t], the pods evicted (Infeasible, or Deferred when EVICT_DEFERRED), and
 * RESTARTS[t], the containers restarted. */
void fs_resize_costs (const FsSnapshot *snapshot, const FsWorkload *workload, const FsResizeTarget *targets,
                      guint n, gboolean evict_deferred, guint *evictions, guint *restarts);
void fs_resize_plan_free (FsResizePlan *plan);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FsResizePlan, fs_resize_plan_free)

/* ---- why: one pod's Deferred or Infeasible resize -------------------------------------- */

typedef struct {
  const FsPod *pod;
  int64_t amount;             /* what it holds of the short resource (allocated) */
} FsResizeHolder;

typedef struct {
  const FsPod *pod;
  const FsNode *node;         /* NULL when the snapshot does not hold it */
  FsResizeState recorded;     /* the pod's PodResizePending reason (or status.resize) */
  FsResizeVerdict verdict;    /* fitscale's own answer for the node as the snapshot has it */
  FsResources desired, allocated;
  FsResources others;         /* the other pods' allocated requests, summed */
  int64_t n_others;
  FsResources shortfall;      /* desired - (allocatable - others) where positive */
  GArray *holders;            /* FsResizeHolder: the other pods, most of the short resource first */
  gboolean has_fit_request;   /* Deferred: the largest request of the short resource that fits now */
  int64_t fit_request;
  const FsPod *move;          /* Deferred: the smallest pod whose moving frees enough ... */
  const FsNode *move_to;      /* ... and a node its filters pass with room (NULL: none) */
  GPtrArray *nodes_that_fit;  /* Infeasible: nodes whose allocatable holds the new request
                               * (const FsNode *), where a replacement could go */
} FsResizeDiagnosis;

/* POD's resize (NULL when the pod reports none, or is on no node the snapshot holds). */
FsResizeDiagnosis *fs_resize_diagnose (const FsSnapshot *snapshot, const FsPod *pod);
void fs_resize_diagnosis_free (FsResizeDiagnosis *diagnosis);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FsResizeDiagnosis, fs_resize_diagnosis_free)

G_END_DECLS
