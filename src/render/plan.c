/* fitscale — the plan's answer documents (see include/fitscale/render/plan.h). */
#include "config.h"

#include "fitscale/model/quantity.h"
#include "fitscale/render/plan.h"

static const char *const resources[FS_HVPA_N_RESOURCES] = { "cpu", "memory" };

static void
emit_amounts (FsEmitter *emitter, const int64_t amounts[FS_HVPA_N_RESOURCES])
{
  fs_emit_map_open (emitter);
  for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
    if (amounts[r] > 0)
      {
        char text[32];
        fs_emit_key (emitter, resources[r]);
        fs_emit_string (emitter, fs_format_amount (resources[r], amounts[r], text));
      }
  fs_emit_map_close (emitter);
}

static void
emit_candidate (FsEmitter *emitter, const FsPlanAnswer *answer, const FsPlanCandidate *candidate)
{
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "replicas");
  fs_emit_int (emitter, candidate->replicas);
  fs_emit_key (emitter, "containers");
  fs_emit_list_open (emitter);
  for (guint i = 0; i < answer->hvpa.input.n_containers; i++)
    {
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "name");
      fs_emit_string (emitter, answer->hvpa.input.containers[i].name);
      fs_emit_key (emitter, "requests");
      emit_amounts (emitter, candidate->request[i]);
      fs_emit_key (emitter, "limits");
      emit_amounts (emitter, candidate->limit[i]);
      fs_emit_map_close (emitter);
    }
  fs_emit_list_close (emitter);
  fs_emit_key (emitter, "podRequest");
  fs_emit_resources (emitter, &candidate->pod_request, FALSE);
  fs_emit_key (emitter, "requestWeight");
  fs_emit_decimal (emitter, candidate->weight, 4);
  fs_emit_key (emitter, "schedulable");
  fs_emit_bool (emitter, candidate->schedulable);
  fs_emit_key (emitter, "capacity");
  fs_emit_int (emitter, candidate->capacity);
  fs_emit_key (emitter, "pending");
  fs_emit_int (emitter, candidate->pending);
  fs_emit_key (emitter, "servedFraction");
  fs_emit_decimal (emitter, MIN (candidate->served, 1.0), 4);
  fs_emit_key (emitter, "hpaDistance");
  fs_emit_decimal (emitter, candidate->hpa_distance, 4);
  fs_emit_key (emitter, "vpaDistance");
  fs_emit_decimal (emitter, candidate->vpa_distance, 4);
  fs_emit_key (emitter, "distance");
  fs_emit_decimal (emitter, candidate->distance, 4);
  fs_emit_map_close (emitter);
}

static void
emit_limits (FsEmitter *emitter, const char *key, FsRolloutLimits limits)
{
  fs_emit_key (emitter, key);
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "maxSurge");
  fs_emit_int (emitter, limits.surge);
  fs_emit_key (emitter, "maxUnavailable");
  fs_emit_int (emitter, limits.unavailable);
  fs_emit_map_close (emitter);
}

static void
emit_rollout (FsEmitter *emitter, const FsPlanRollout *rollout)
{
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "needed");
  fs_emit_bool (emitter, rollout->needed);
  fs_emit_key (emitter, "strategy");
  fs_emit_string (emitter, rollout->strategy);
  emit_limits (emitter, "limits", rollout->limits);
  fs_emit_key (emitter, "completes");
  fs_emit_bool (emitter, rollout->completes);
  fs_emit_key (emitter, "syncs");
  fs_emit_int (emitter, rollout->syncs);
  if (rollout->needed && !rollout->completes)
    {
      fs_emit_key (emitter, "stopsAt");
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "oldAvailable");
      fs_emit_int (emitter, rollout->stuck.old_available);
      fs_emit_key (emitter, "newAvailable");
      fs_emit_int (emitter, rollout->stuck.new_available);
      fs_emit_key (emitter, "newPending");
      fs_emit_int (emitter, rollout->stuck.new_replicas - rollout->stuck.new_available);
      fs_emit_map_close (emitter);
    }
  if (rollout->has_fix)
    emit_limits (emitter, "fix", rollout->fix);
  fs_emit_map_close (emitter);
}

static void
emit_sources (FsEmitter *emitter, const FsPlanAnswer *answer)
{
  fs_emit_key (emitter, "workload");
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "kind");
  fs_emit_string (emitter, fs_workload_kind_name (answer->workload->kind));
  fs_emit_key (emitter, "namespace");
  fs_emit_string (emitter, answer->workload->namespace);
  fs_emit_key (emitter, "name");
  fs_emit_string (emitter, answer->workload->name);
  fs_emit_map_close (emitter);
  fs_emit_key (emitter, "sources");
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "hvpa");
  fs_emit_string (emitter, answer->from_hvpa ? answer->hvpa.hvpa->name : NULL);
  fs_emit_key (emitter, "hpa");
  fs_emit_string (emitter, answer->hvpa.hpa != NULL ? answer->hvpa.hpa->name : NULL);
  fs_emit_key (emitter, "vpa");
  fs_emit_string (emitter, answer->hvpa.vpa != NULL ? answer->hvpa.vpa->name : NULL);
  fs_emit_key (emitter, "hpaDesiredReplicas");
  fs_emit_int (emitter, answer->hpa_desired);
  fs_emit_key (emitter, "hpaDesiredFrom");
  fs_emit_string (emitter, answer->hpa_desired_from);
  fs_emit_key (emitter, "semantics");
  fs_emit_string (emitter, fs_hvpa_semantics_name (answer->request.semantics));
  fs_emit_key (emitter, "vpaWeight");
  fs_emit_decimal (emitter, answer->stage_weight, 4);
  fs_emit_map_close (emitter);
  fs_emit_key (emitter, "demand");
  fs_emit_map_open (emitter);
  int64_t amounts[FS_HVPA_N_RESOURCES];
  for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
    amounts[r] = answer->demand.resource[r] ? answer->demand.amount[r] : 0;
  fs_emit_key (emitter, "resources");
  emit_amounts (emitter, amounts);
  fs_emit_key (emitter, "replicas");
  answer->demand.replicas_metric ? fs_emit_int (emitter, answer->demand.replicas) : fs_emit_null (emitter);
  fs_emit_map_close (emitter);
}

/* New nodes of each existing shape that would hold the HVPA point. */
static void
emit_nodes_needed (FsEmitter *emitter, const GArray *estimates)
{
  fs_emit_list_open (emitter);
  for (guint i = 0; i < estimates->len; i++)
    {
      const FsNodeShapeEstimate *estimate = &g_array_index (estimates, FsNodeShapeEstimate, i);
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "shape");
      fs_emit_string (emitter, estimate->shape);
      fs_emit_key (emitter, "existing");
      fs_emit_int (emitter, estimate->existing);
      fs_emit_key (emitter, "replicasPerNode");
      fs_emit_int (emitter, estimate->per_node);
      fs_emit_key (emitter, "nodes");
      fs_emit_int (emitter, estimate->nodes_needed);
      fs_emit_map_close (emitter);
    }
  fs_emit_list_close (emitter);
}

void
fs_render_plan_fields (FsEmitter *emitter, const FsPlanAnswer *answer)
{
  emit_sources (emitter, answer);
  fs_emit_key (emitter, "current");
  emit_candidate (emitter, answer, &answer->current);
  fs_emit_key (emitter, "hvpa");
  emit_candidate (emitter, answer, &answer->target);
  fs_emit_key (emitter, "hvpaPendingMessage");
  fs_emit_string (emitter, answer->target_message);
  fs_emit_key (emitter, "plan");
  emit_candidate (emitter, answer, &answer->plan);
  fs_emit_key (emitter, "steadyAlternative");
  if (answer->has_steady)
    emit_candidate (emitter, answer, &answer->steady);
  else
    fs_emit_null (emitter);
  fs_emit_key (emitter, "outcome");
  fs_emit_string (emitter, fs_plan_outcome_name (answer->outcome));
  fs_emit_key (emitter, "rollout");
  emit_rollout (emitter, &answer->rollout);
  fs_emit_key (emitter, "alternatives");
  fs_emit_list_open (emitter);
  for (guint i = 0; i < answer->alternatives->len; i++)
    emit_candidate (emitter, answer, &g_array_index (answer->alternatives, FsPlanCandidate, i));
  fs_emit_list_close (emitter);
  fs_emit_key (emitter, "nodesNeeded");
  emit_nodes_needed (emitter, answer->nodes_needed);
  fs_emit_key (emitter, "candidates");
  fs_emit_int (emitter, answer->n_candidates);
  fs_emit_key (emitter, "reason");
  fs_emit_string (emitter, answer->reason);
}

void
fs_render_plan (FsEmitter *emitter, const FsPlanAnswer *answer)
{
  fs_emit_map_open (emitter);
  fs_render_plan_fields (emitter, answer);
  fs_emit_map_close (emitter);
}

/* strategy.rollingUpdate: the limits that let the rollout complete. */
static void
emit_patch_strategy (FsEmitter *emitter, FsRolloutLimits fix)
{
  fs_emit_key (emitter, "strategy");
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "rollingUpdate");
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "maxSurge");
  fs_emit_int (emitter, fix.surge);
  fs_emit_key (emitter, "maxUnavailable");
  fs_emit_int (emitter, fix.unavailable);
  fs_emit_map_close (emitter);
  fs_emit_map_close (emitter);
}

/* template.spec.containers[]: each container's requests, and its limits when it has any. */
static void
emit_patch_template (FsEmitter *emitter, const FsPlanAnswer *answer)
{
  const FsPlanCandidate *plan = &answer->plan;
  fs_emit_key (emitter, "template");
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "spec");
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "containers");
  fs_emit_list_open (emitter);
  for (guint i = 0; i < answer->hvpa.input.n_containers; i++)
    {
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "name");
      fs_emit_string (emitter, answer->hvpa.input.containers[i].name);
      fs_emit_key (emitter, "resources");
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "requests");
      emit_amounts (emitter, plan->request[i]);
      gboolean any_limit = plan->limit[i][FS_HVPA_CPU] > 0 || plan->limit[i][FS_HVPA_MEMORY] > 0;
      if (any_limit)
        {
          fs_emit_key (emitter, "limits");
          emit_amounts (emitter, plan->limit[i]);
        }
      fs_emit_map_close (emitter);
      fs_emit_map_close (emitter);
    }
  fs_emit_list_close (emitter);
  fs_emit_map_close (emitter);
  fs_emit_map_close (emitter);
}

void
fs_render_plan_patch (FsEmitter *emitter, const FsPlanAnswer *answer)
{
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "spec");
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "replicas");
  fs_emit_int (emitter, answer->plan.replicas);
  if (answer->rollout.has_fix && answer->workload->kind == FS_WORKLOAD_DEPLOYMENT)
    emit_patch_strategy (emitter, answer->rollout.fix);
  emit_patch_template (emitter, answer);
  fs_emit_map_close (emitter);
  fs_emit_map_close (emitter);
}
