/* fitscale — rolling-update arithmetic (see include/fitscale/rollout.h). */
#include "config.h"

#include "fitscale/model/rollout.h"

int32_t
fs_scaled_int_or_percent (const FsIntOrPercent *value, int32_t total, gboolean round_up,
                          int32_t default_percent)
{
  if (value != NULL && value->set && !value->percent)
    return value->value;
  int64_t percent = value != NULL && value->set ? value->value : default_percent;
  int64_t scaled = percent * total;
  /* math.Ceil / math.Floor of float64(percent) * float64(total) / 100: exact on integers */
  int64_t result = round_up ? (scaled + 99) / 100 : scaled / 100;
  return (int32_t) CLAMP (result, G_MININT32, G_MAXINT32);
}

FsRolloutLimits
fs_deployment_fenceposts (const FsIntOrPercent *max_surge, const FsIntOrPercent *max_unavailable,
                          int32_t desired)
{
  FsRolloutLimits limits = {
    .surge = fs_scaled_int_or_percent (max_surge, desired, TRUE, 25),
    .unavailable = fs_scaled_int_or_percent (max_unavailable, desired, FALSE, 25),
  };
  if (limits.surge == 0 && limits.unavailable == 0)
    limits.unavailable = 1; /* "Validation should never allow the user to explicitly use zero
                             * values for both maxSurge maxUnavailable" */
  limits.unavailable = MIN (limits.unavailable, desired);
  return limits;
}

FsRolloutLimits
fs_statefulset_fenceposts (void)
{
  return (FsRolloutLimits){ .surge = 0, .unavailable = 1 };
}

FsRolloutStep
fs_rollout_sync (FsRolloutState *state)
{
  FsRolloutStep step = { 0 };
  /* reconcileNewReplicaSet / NewRSNewReplicas */
  int32_t max_total = state->desired + state->limits.surge;
  int32_t all = state->old_replicas + state->new_replicas;
  if (state->new_replicas < state->desired && all < max_total)
    {
      step.created = MIN (max_total - all, state->desired - state->new_replicas);
      state->new_replicas += step.created;
    }
  /* reconcileOldReplicaSets */
  if (state->old_replicas == 0)
    return step;
  int32_t min_available = state->desired - state->limits.unavailable;
  int32_t new_unavailable = state->new_replicas - state->new_available;
  int32_t max_scaled_down = state->old_replicas + state->new_replicas - min_available - new_unavailable;
  if (max_scaled_down <= 0)
    return step;
  /* cleanupUnhealthyReplicas */
  step.removed_unhealthy = MIN (max_scaled_down, state->old_replicas - state->old_available);
  state->old_replicas -= step.removed_unhealthy;
  /* scaleDownOldReplicaSetsForRollingUpdate */
  int32_t available = state->old_available + state->new_available;
  if (available > min_available)
    {
      step.removed_available = MIN (available - min_available, state->old_available);
      state->old_replicas -= step.removed_available;
      state->old_available -= step.removed_available;
    }
  return step;
}

gboolean
fs_rollout_done (const FsRolloutState *state)
{
  return state->old_replicas == 0 && state->new_available == state->desired;
}
