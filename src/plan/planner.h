/* fitscale — the planner's private parts, shared by plan.c (gathering, measuring, ranking)
 * and plan-rollout.c (the rolling update of a candidate).  Not a public header: nothing
 * outside src/plan/plan*.c includes it.  The planner points into the snapshot and the answer
 * it works for and owns its scratch arrays (plan.c planner_init / planner_clear). */
#pragma once

#include <glib.h>

#include "fitscale/plan/plan.h"

G_BEGIN_DECLS

/* ---- the workload's pods ----------------------------------------------------------- */

typedef struct {
  guint pod_index;
  int32_t node_index;
  gboolean ready;
} OldPod;

/* What the planner computes once and reads for every candidate. */
typedef struct {
  const FsSnapshot *snapshot;
  FsPlanAnswer *answer;
  const FsWorkload *workload;
  gboolean simple;            /* no pod rules anywhere: capacity in closed form */
  gboolean *usable;           /* per node: the node-only filters pass (request aside) */
  FsNodeLoad *loads_now;      /* per node, as the snapshot has it */
  FsNodeLoad *loads_without;  /* per node, without the workload's pods */
  FsNodeFit *fits;            /* scratch for fs_pack */
  GArray *old_pods;           /* OldPod: the workload's pods bound to nodes */
  guint old_pending;          /* its pods not bound to any node */
  const char *self_anti_key;  /* topology key of an anti-affinity term the replicas match */
  /* the shape being measured */
  FsContainer *containers;
  FsContainerSet container_set;
  FsPodSpec spec;
  FsPodShape shape;
  FsSpreadList *default_spread; /* the shape's profile's List default constraints, owned */
  double alloc_cpu, alloc_memory; /* eligible allocatable, for sizes */
} Planner;

/* Points the planner's shape at CANDIDATE's requests and computes its effective request. */
void fs_planner_shape_candidate (Planner *planner, FsPlanCandidate *candidate);

/* Whether CANDIDATE's update completes as the workload is configured (a scale needs none):
 * the controller's syncs run with the new pods placed between them; when it stops half way
 * and WITH_FIX, the maxSurge / maxUnavailable that let it complete. */
void fs_planner_check_rollout (Planner *planner, FsPlanCandidate *candidate, FsPlanRollout *rollout,
                               gboolean with_fix);

G_END_DECLS
