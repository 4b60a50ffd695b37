/* fitscale — how a workload controller replaces its pods, on counts alone.
 *
 * The Deployment controller's rolling update (pkg/controller/deployment/rolling.go and
 * util/deployment_util.go) and the StatefulSet's one-at-a-time update, as pure arithmetic
 * on replica counts: which pods a sync creates and which it deletes.  Where the pods land is
 * the planner's business (plan.h); nothing here allocates. */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "fitscale/model/objects.h"

G_BEGIN_DECLS

/* intstr.GetScaledValueFromIntOrPercent: an int as it is, a percentage of TOTAL rounded up
 * (ROUND_UP) or down.  An unset VALUE gives DEFAULT_PERCENT % of TOTAL. */
int32_t fs_scaled_int_or_percent (const FsIntOrPercent *value, int32_t total, gboolean round_up,
                                  int32_t default_percent);

typedef struct {
  int32_t surge;        /* pods above desired the update may create */
  int32_t unavailable;  /* pods below desired it may take away */
} FsRolloutLimits;

/* deployment_util.go ResolveFenceposts with the apps/v1 defaults (25 % each,
 * SetDefaults_Deployment): maxSurge rounds up, maxUnavailable down, and both 0 make
 * maxUnavailable 1; MaxUnavailable caps it at DESIRED. */
FsRolloutLimits fs_deployment_fenceposts (const FsIntOrPercent *max_surge,
                                          const FsIntOrPercent *max_unavailable, int32_t desired);

/* stateful_set_control.go: no surge; one pod at a time (maxUnavailable is read only behind
 * the MaxUnavailableStatefulSet feature gate, alpha and off by default). */
FsRolloutLimits fs_statefulset_fenceposts (void);

/* A rolling update between two syncs.  Old pods are those of the old template; a pod is
 * available when it runs and is ready (minReadySeconds 0). */
typedef struct {
  int32_t desired;          /* the new spec.replicas */
  FsRolloutLimits limits;
  int32_t old_replicas;     /* old ReplicaSets' replicas, summed */
  int32_t old_available;
  int32_t new_replicas;
  int32_t new_available;
} FsRolloutState;

typedef struct {
  int32_t created;            /* new pods asked for */
  int32_t removed_unhealthy;  /* old pods that were not available */
  int32_t removed_available;  /* old available pods */
} FsRolloutStep;

/* One sync of rolloutRolling: reconcileNewReplicaSet (scale the new ReplicaSet up to at
 * most desired, with all pods <= desired + surge), then reconcileOldReplicaSets
 * (maxScaledDown = all - minAvailable - new unavailable; cleanupUnhealthyReplicas within it,
 * then scaleDownOldReplicaSetsForRollingUpdate: available - minAvailable). */
FsRolloutStep fs_rollout_sync (FsRolloutState *state);

/* Whether the update is over: every new pod available, no old pod left. */
gboolean fs_rollout_done (const FsRolloutState *state);

G_END_DECLS
