/* fitscale — the planner's rolling update: a candidate's rollout run on the snapshot's nodes
 * (see src/plan/planner.h).  The controllers' rule for each sync is model/rollout.c; here
 * the pods it creates are placed by the scheduler's filters and the ones it deletes leave
 * their nodes, sync after sync, until the update is over or stops. */
#include "config.h"

#include <string.h>

#include "planner.h"
#include "fitscale/model/names.h"

typedef struct {
  FsNodeLoad *loads;       /* now, less removed old pods, plus placed new ones */
  FsNodeLoad *added;       /* the new pods' load per node */
  int64_t *new_on_node;
  int64_t *old_on_node;
  gboolean *removed;       /* per snapshot pod */
  GArray *old_left;        /* OldPod still running */
  guint pending_left;
} RolloutRun;

static gboolean
removed_pod (const FsPod *pod, gpointer data)
{
  const RolloutRun *run = ((gpointer *) data)[0];
  const FsSnapshot *snapshot = ((gpointer *) data)[1];
  return run->removed[pod - snapshot->pods];
}

static void
remove_old (const Planner *planner, RolloutRun *run, gboolean want_ready)
{
  /* the ReplicaSet deletes unready pods first, then those on the nodes with the most of its
   * pods (controller.ActivePodsWithRanks) */
  guint best = G_MAXUINT;
  for (guint i = 0; i < run->old_left->len; i++)
    {
      const OldPod *old = &g_array_index (run->old_left, OldPod, i);
      if (old->ready != want_ready)
        continue;
      if (best == G_MAXUINT
          || run->old_on_node[old->node_index]
                 > run->old_on_node[g_array_index (run->old_left, OldPod, best).node_index])
        best = i;
    }
  if (best == G_MAXUINT)
    return;
  const OldPod *old = &g_array_index (run->old_left, OldPod, best);
  const FsPod *pod = &planner->snapshot->pods[old->pod_index];
  fs_resources_sub (&run->loads[old->node_index].requested, fs_pod_request (pod), NULL);
  run->loads[old->node_index].pod_count--;
  run->old_on_node[old->node_index]--;
  run->removed[old->pod_index] = TRUE;
  g_array_remove_index (run->old_left, best);
}

static void
apply_removals (const Planner *planner, RolloutRun *run, const FsRolloutStep *step)
{
  for (int32_t k = 0; k < step->removed_unhealthy; k++)
    {
      if (run->pending_left > 0)
        run->pending_left--;
      else
        remove_old (planner, run, FALSE);
    }
  for (int32_t k = 0; k < step->removed_available; k++)
    remove_old (planner, run, TRUE);
}

/* Places up to WANT new pods on the nodes as they are now; returns how many. */
static int64_t
place_new (Planner *planner, RolloutRun *run, int64_t want)
{
  const FsSnapshot *snapshot = planner->snapshot;
  const FsResources *request = &planner->spec.request;
  if (!planner->simple)
    {
      g_autofree FsNodeLoad *with_new = g_new (FsNodeLoad, snapshot->n_nodes + 1);
      for (guint i = 0; i < snapshot->n_nodes; i++)
        {
          with_new[i] = planner->loads_now[i];
          fs_resources_add (&with_new[i].requested, &run->added[i].requested, NULL);
          with_new[i].pod_count += run->added[i].pod_count;
        }
      gpointer data[2] = { run, (gpointer) snapshot };
      FsPackOptions options = { .loads = with_new, .exclude = removed_pod, .exclude_data = data, .replicas = -1 };
      FsPackResult result;
      fs_pack (snapshot, &planner->shape, &options, fs_planner_fits (planner), &result);
    }
  int64_t placed = 0;
  for (guint i = 0; i < snapshot->n_nodes && placed < want; i++)
    {
      int64_t room = planner->simple
          ? (planner->usable[i] ? fs_resources_capacity_profile (&snapshot->nodes[i].allocatable, &run->loads[i], request,
                                                                      planner->shape.profile) : 0)
          : planner->fits[i].capacity;
      /* the new replicas repel each other too, which fs_pack cannot see */
      if (planner->self_anti_key != NULL && strcmp (planner->self_anti_key, FS_LABEL_HOSTNAME) == 0)
        room = run->new_on_node[i] > 0 || run->old_on_node[i] > 0 ? 0 : MIN (room, 1);
      /* and hold their host ports (NodePorts): the old pods still there are in the loads */
      if (planner->spec.host_ports != NULL && run->new_on_node[i] > 0)
        room = 0;
      int64_t take = MIN (room, want - placed);
      for (int64_t k = 0; k < take; k++)
        {
          fs_resources_add (&run->loads[i].requested, request, NULL);
          fs_resources_add (&run->added[i].requested, request, NULL);
        }
      run->loads[i].pod_count += take;
      run->added[i].pod_count += take;
      run->new_on_node[i] += take;
      placed += take;
    }
  return placed;
}

static void
rollout_run_init (const Planner *planner, RolloutRun *run)
{
  guint n_nodes = planner->snapshot->n_nodes;
  run->loads = g_memdup2 (planner->loads_now, (n_nodes + 1) * sizeof (FsNodeLoad));
  run->added = g_new0 (FsNodeLoad, n_nodes + 1);
  run->new_on_node = g_new0 (int64_t, n_nodes + 1);
  run->old_on_node = g_new0 (int64_t, n_nodes + 1);
  run->removed = g_new0 (gboolean, planner->snapshot->n_pods + 1);
  run->old_left = g_array_copy ((GArray *) planner->old_pods);
  run->pending_left = planner->old_pending;
  for (guint i = 0; i < run->old_left->len; i++)
    run->old_on_node[g_array_index (run->old_left, OldPod, i).node_index]++;
}

static void
rollout_run_clear (RolloutRun *run)
{
  g_free (run->loads);
  g_free (run->added);
  g_free (run->new_on_node);
  g_free (run->old_on_node);
  g_free (run->removed);
  g_array_unref (run->old_left);
}

/* Runs the controller's syncs with the pods placed between them, until the update is over
 * or a sync changes nothing.  The planner's shape must be the candidate's. */
static gboolean
simulate_rollout (Planner *planner, int32_t replicas, FsRolloutLimits limits, FsRolloutState *end,
                  int32_t *syncs)
{
  RolloutRun run = { 0 };
  rollout_run_init (planner, &run);
  FsRolloutState state = { .desired = replicas, .limits = limits,
                           .old_replicas = (int32_t) (run.old_left->len + run.pending_left) };
  for (guint i = 0; i < run.old_left->len; i++)
    state.old_available += g_array_index (run.old_left, OldPod, i).ready;
  gboolean done = FALSE;
  int32_t count = 0;
  while (!(done = fs_rollout_done (&state)) && count < 4 * (replicas + state.old_replicas) + 8)
    {
      FsRolloutStep step = fs_rollout_sync (&state);
      apply_removals (planner, &run, &step);
      int64_t placed = place_new (planner, &run, state.new_replicas - state.new_available);
      state.new_available += (int32_t) placed;
      count++;
      if (step.created == 0 && step.removed_unhealthy == 0 && step.removed_available == 0 && placed == 0)
        break;
    }
  rollout_run_clear (&run);
  *end = state;
  *syncs = count;
  return done;
}

static const char *
strategy_of (const FsWorkload *workload)
{
  if (workload->strategy != NULL && (strcmp (workload->strategy, "Recreate") == 0
                                     || strcmp (workload->strategy, "OnDelete") == 0))
    return workload->strategy;
  return "RollingUpdate";
}

static FsRolloutLimits
limits_of (const FsWorkload *workload, int32_t replicas)
{
  if (workload->kind == FS_WORKLOAD_STATEFULSET)
    return fs_statefulset_fenceposts ();
  return fs_deployment_fenceposts (&workload->max_surge, &workload->max_unavailable, replicas);
}

/* The smallest maxUnavailable from LOW up that lets the update complete with SURGE, or -1. */
static int32_t
least_unavailable (Planner *planner, int32_t replicas, int32_t surge, int32_t low)
{
  FsRolloutState end;
  int32_t syncs, high = replicas;
  FsRolloutLimits probe = { surge, high };
  if (low > high || !simulate_rollout (planner, replicas, probe, &end, &syncs))
    return -1;
  while (low < high)
    {
      probe.unavailable = low + (high - low) / 2;
      if (simulate_rollout (planner, replicas, probe, &end, &syncs))
        high = probe.unavailable;
      else
        low = probe.unavailable + 1;
    }
  return high;
}

/* The limits that let a stuck update complete: the least maxUnavailable, at the same surge or
 * with none; at equal maxUnavailable no surge when the stuck update left new pods Pending
 * (surge pods that cannot be placed only hold back the old ones). */
static void
find_rollout_fix (Planner *planner, int32_t replicas, FsPlanRollout *rollout)
{
  int32_t surge = rollout->limits.surge;
  int32_t with_surge = least_unavailable (planner, replicas, surge, rollout->limits.unavailable + 1);
  int32_t without = surge > 0 ? least_unavailable (planner, replicas, 0, MAX (rollout->limits.unavailable, 1)) : -1;
  gboolean left_pending = rollout->stuck.new_replicas > rollout->stuck.new_available;
  if (without >= 0 && (with_surge < 0 || without < with_surge || (without == with_surge && left_pending)))
    rollout->fix = (FsRolloutLimits){ 0, without };
  else if (with_surge >= 0)
    rollout->fix = (FsRolloutLimits){ surge, with_surge };
  rollout->has_fix = without >= 0 || with_surge >= 0;
}

void
fs_planner_check_rollout (Planner *planner, FsPlanCandidate *candidate, FsPlanRollout *rollout, gboolean with_fix)
{
  memset (rollout, 0, sizeof *rollout);
  rollout->strategy = strategy_of (planner->workload);
  rollout->needed = !candidate->same_template;
  rollout->limits = limits_of (planner->workload, candidate->replicas);
  rollout->completes = candidate->schedulable;
  if (!rollout->needed || !candidate->schedulable || strcmp (rollout->strategy, "RollingUpdate") != 0)
    return;
  /* the run depends on the snapshot, the workload, the requests and the replicas only */
  FsPlanMemoKey key;
  if (planner->memo != NULL)
    {
      fs_planner_memo_key (planner, candidate, candidate->replicas, &key);
      key.flags = with_fix;
      if (fs_plan_memo_rollout (planner->memo, &key, rollout))
        return;
    }
  fs_planner_shape_candidate (planner, candidate);
  rollout->completes = simulate_rollout (planner, candidate->replicas, rollout->limits, &rollout->stuck,
                                         &rollout->syncs);
  if (!rollout->completes && with_fix)
    find_rollout_fix (planner, candidate->replicas, rollout);
  if (planner->memo != NULL)
    fs_plan_memo_store_rollout (planner->memo, &key, rollout);
}
