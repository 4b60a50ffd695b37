/* fitscale — the planner's private parts, shared by plan.c (gathering, measuring, ranking)
 * and plan-rollout.c (the rolling update of a candidate).  Not a public header: nothing
 * outside src/plan/plan*.c includes it.  The planner points into the snapshot and the answer
 * it works for and owns its scratch arrays (plan.c planner_init / planner_clear). */
#pragma once

#include <glib.h>

#include "fitscale/plan/memo.h"
#include "fitscale/plan/plan.h"

G_BEGIN_DECLS

/* ---- the workload's pods ----------------------------------------------------------- */

typedef struct {
  guint pod_index;
  int32_t node_index;
  gboolean ready;
} OldPod;

/* What depends only on the snapshot and the workload (not on the request): computed once
 * per plan, or once per snapshot and workload when a memo (plan/memo.h) keeps it.  Immutable
 * once built and reference-counted (fs_plan_base_ref/unref), so requests on other threads
 * may go on reading one the memo has dropped. */
typedef struct {
  const FsWorkload *workload;
  gboolean simple;            /* no pod rules anywhere: capacity in closed form */
  gboolean *usable;           /* per node: the node-only filters pass (request aside) */
  const FsNodeLoad *loads_now; /* per node, as the snapshot has it (LOADS_NOW_OWNED or the memo's) */
  FsNodeLoad *loads_now_owned;
  FsNodeLoad *loads_without;  /* per node, without the workload's pods */
  GArray *old_pods;           /* OldPod: the workload's pods bound to nodes */
  guint old_pending;          /* its pods not bound to any node */
  int32_t priority;           /* the template's priority (its pods') */
  const char *self_anti_key;  /* topology key of an anti-affinity term the replicas match */
  double alloc_cpu, alloc_memory; /* eligible allocatable, for sizes */
  const FsPod *recorded_pod;  /* fs_workload_unmodelled's pod and reasons */
  GPtrArray *unmodelled;
  const FsSchedulerProfile *profile; /* the template's pods' profile (--scheduler-config) */
  FsSpreadList *default_spread; /* that profile's List default constraints, owned */
} PlanBase;

/* The base of WORKLOAD on SNAPSHOT; LOADS_NOW, when not NULL, is every node's fs_node_load
 * (kept by the caller for as long as the base lives), else the base computes its own. */
PlanBase *fs_plan_base_new (const FsSnapshot *snapshot, const FsWorkload *workload, const FsNodeLoad *loads_now);
PlanBase *fs_plan_base_ref (PlanBase *base);
void fs_plan_base_unref (PlanBase *base);

/* The memo's side (memo.c), for plan.c: what a request shares with the others on the same
 * snapshot.  Each returns a reference or a copy; nothing returned is changed later. */
typedef struct {
  const FsWorkload *workload;
  int64_t replicas;           /* -1 for a capacity */
  guint flags;                /* a rollout's: whether the fix was asked for */
  guint n_containers;
  int64_t request[FS_HVPA_MAX_CONTAINERS][FS_HVPA_N_RESOURCES];
} FsPlanMemoKey;

PlanBase *fs_plan_memo_base (FsPlanMemo *memo, const FsWorkload *workload);
gboolean fs_plan_memo_capacity (FsPlanMemo *memo, const FsPlanMemoKey *key, int64_t *capacity);
void fs_plan_memo_store_capacity (FsPlanMemo *memo, const FsPlanMemoKey *key, int64_t capacity);
/* P*'s FailedScheduling message and new nodes (a copy into NODES_NEEDED), when kept. */
gboolean fs_plan_memo_pending (FsPlanMemo *memo, const FsPlanMemoKey *key, char **message, GArray *nodes_needed);
void fs_plan_memo_store_pending (FsPlanMemo *memo, const FsPlanMemoKey *key, const char *message,
                                 const GArray *nodes_needed);

/* The snapshot's node groups for the new-node estimates (made once, kept by the memo). */
const FsNodeGroups *fs_plan_memo_node_groups (FsPlanMemo *memo);

/* A candidate's rollout (fs_planner_check_rollout), when kept. */
gboolean fs_plan_memo_rollout (FsPlanMemo *memo, const FsPlanMemoKey *key, FsPlanRollout *rollout);
void fs_plan_memo_store_rollout (FsPlanMemo *memo, const FsPlanMemoKey *key, const FsPlanRollout *rollout);

/* What the planner computes once and reads for every candidate. */
typedef struct {
  const FsSnapshot *snapshot;
  FsPlanAnswer *answer;
  const FsWorkload *workload;
  FsPlanMemo *memo;           /* NULL: nothing shared */
  PlanBase *base;             /* a reference */
  gboolean simple;            /* the base's, copied for the hot loops */
  const gboolean *usable;
  const FsNodeLoad *loads_now;
  const FsNodeLoad *loads_without;
  FsNodeFit *fits;            /* scratch for fs_pack (planner_fits allocates it) */
  const GArray *old_pods;
  guint old_pending;
  const char *self_anti_key;
  /* the shape being measured */
  FsContainer *containers;
  FsContainerSet container_set;
  FsPodSpec spec;
  FsPodShape shape;
  double alloc_cpu, alloc_memory; /* eligible allocatable, for sizes */
} Planner;

/* The memo's key of CANDIDATE's packing: the workload and the containers' requests (the shape,
 * and whether it is the template as it runs, follow from them), and REPLICAS. */
void fs_planner_memo_key (const Planner *planner, const FsPlanCandidate *candidate, int64_t replicas,
                          FsPlanMemoKey *key);

/* Points the planner's shape at CANDIDATE's requests and computes its effective request. */
void fs_planner_shape_candidate (Planner *planner, FsPlanCandidate *candidate);

/* The fs_pack scratch, allocated on first use. */
FsNodeFit *fs_planner_fits (Planner *planner);

/* Whether CANDIDATE's update completes as the workload is configured (a scale needs none):
 * the controller's syncs run with the new pods placed between them; when it stops half way
 * and WITH_FIX, the maxSurge / maxUnavailable that let it complete. */
void fs_planner_check_rollout (Planner *planner, FsPlanCandidate *candidate, FsPlanRollout *rollout,
                               gboolean with_fix);

G_END_DECLS
