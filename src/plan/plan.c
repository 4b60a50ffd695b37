/* fitscale — the planner (see include/fitscale/plan/plan.h and docs/algorithm.md); the
 * rolling update of a candidate is plan-rollout.c. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fitscale/plan/capacity.h"
#include "fitscale/model/error.h"
#include "fitscale/plan/hpaexplain.h"
#include "fitscale/kube/hpaspec.h"
#include "fitscale/model/names.h"
#include "fitscale/plan/plan.h"
#include "fitscale/plan/shape.h"
#include "planner.h"

#define MiB (1024 * 1024)
#define ROLLOUT_TRIES 16    /* ranked candidates whose rollout is simulated before giving up */
#define N_ALTERNATIVES 5

static const char *const resource_names[FS_HVPA_N_RESOURCES] = { "cpu", "memory" };

/* ---- what depends on the workload alone (PlanBase) ------------------------------------ */

static void
find_old_pods (const FsSnapshot *snapshot, PlanBase *base)
{
  base->old_pods = g_array_new (FALSE, FALSE, sizeof (OldPod));
  guint first, end;
  fs_snapshot_namespace_pods (snapshot, base->workload->namespace, &first, &end);
  for (guint p = first; p < end; p++)
    {
      const FsPod *pod = &snapshot->pods[p];
      if (!fs_pod_counts_on_node (pod) || !fs_workload_owns_pod (pod, (gpointer) base->workload))
        continue;
      if (pod->node_index < 0)
        {
          base->old_pending++;
          continue;
        }
      OldPod old = { p, pod->node_index, (pod->flags & FS_POD_READY) != 0 };
      g_array_append_val (base->old_pods, old);
    }
}

static int32_t
template_priority (const FsSnapshot *snapshot, const PlanBase *base)
{
  for (guint i = 0; i < base->old_pods->len; i++)
    return snapshot->pods[g_array_index (base->old_pods, OldPod, i).pod_index].priority;
  return 0;
}

PlanBase *
fs_plan_base_new (const FsSnapshot *snapshot, const FsWorkload *workload, const FsNodeLoad *loads_now)
{
  PlanBase *base = g_atomic_rc_box_new0 (PlanBase);
  guint n_nodes = snapshot->n_nodes;
  base->workload = workload;
  find_old_pods (snapshot, base);
  base->priority = template_priority (snapshot, base);
  FsPodShape unjudged = { .namespace = workload->namespace, .labels = workload->template_labels,
                          .spec = workload->template, .priority = base->priority };
  FsPodShape shape = fs_shape_judged (snapshot, &unjudged, workload->selector, &base->default_spread);
  base->profile = shape.profile;
  base->simple = !fs_pack_needs_pods (snapshot, &shape);
  base->self_anti_key = fs_pack_self_anti_affinity_key (snapshot, &shape);
  base->usable = g_new0 (gboolean, n_nodes + 1);
  base->loads_without = g_new0 (FsNodeLoad, n_nodes + 1);
  if (loads_now == NULL)
    {
      base->loads_now_owned = g_new0 (FsNodeLoad, n_nodes + 1);
      for (guint i = 0; i < n_nodes; i++)
        base->loads_now_owned[i] = fs_node_load (&snapshot->nodes[i]);
      loads_now = base->loads_now_owned;
    }
  base->loads_now = loads_now;
  FsPackOptions options = { .exclude = fs_workload_owns_pod, .exclude_data = (gpointer) workload,
                            .exclude_namespace = workload->namespace };
  fs_pack_base_loads (snapshot, &options, base->loads_without);
  fs_pack_usable_nodes (snapshot, &shape, base->loads_without, base->usable);
  for (guint i = 0; i < n_nodes; i++)
    if (base->usable[i])
      {
        base->alloc_cpu += (double) snapshot->nodes[i].allocatable.cpu_milli;
        base->alloc_memory += (double) snapshot->nodes[i].allocatable.memory_bytes;
      }
  base->unmodelled = g_ptr_array_new_with_free_func (g_free);
  base->recorded_pod = fs_workload_unmodelled (snapshot, workload, base->unmodelled);
  return base;
}

PlanBase *
fs_plan_base_ref (PlanBase *base)
{
  return g_atomic_rc_box_acquire (base);
}

static void
plan_base_clear (gpointer data)
{
  PlanBase *base = data;
  g_free (base->usable);
  g_free (base->loads_now_owned);
  g_free (base->loads_without);
  g_array_unref (base->old_pods);
  g_ptr_array_unref (base->unmodelled);
  g_free (base->default_spread);
}

void
fs_plan_base_unref (PlanBase *base)
{
  if (base != NULL)
    g_atomic_rc_box_release_full (base, plan_base_clear);
}

static void
planner_init (Planner *planner, const FsSnapshot *snapshot, FsPlanAnswer *answer, FsPlanMemo *memo)
{
  memset (planner, 0, sizeof *planner);
  const FsWorkload *workload = answer->workload;
  planner->snapshot = snapshot;
  planner->answer = answer;
  planner->workload = workload;
  planner->memo = memo;
  planner->base = memo != NULL ? fs_plan_memo_base (memo, workload) : fs_plan_base_new (snapshot, workload, NULL);
  const PlanBase *base = planner->base;
  planner->simple = base->simple;
  planner->usable = base->usable;
  planner->loads_now = base->loads_now;
  planner->loads_without = base->loads_without;
  planner->old_pods = base->old_pods;
  planner->old_pending = base->old_pending;
  planner->self_anti_key = base->self_anti_key;
  planner->alloc_cpu = base->alloc_cpu;
  planner->alloc_memory = base->alloc_memory;
  answer->own_pods = base->old_pods->len;
  const FsContainerSet *set = workload->template->containers;
  planner->containers = g_new0 (FsContainer, set->n_containers + 1);
  if (set->n_containers > 0)
    memcpy (planner->containers, set->containers, set->n_containers * sizeof (FsContainer));
  planner->container_set = *set;
  planner->container_set.containers = planner->containers;
  planner->spec = *workload->template;
  planner->spec.containers = &planner->container_set;
  planner->shape = (FsPodShape){ .namespace = workload->namespace, .labels = workload->template_labels,
                                 .spec = &planner->spec, .priority = base->priority,
                                 .profile = base->profile, .default_spread = base->default_spread };
}

FsNodeFit *
fs_planner_fits (Planner *planner)
{
  if (planner->fits == NULL)
    planner->fits = g_new0 (FsNodeFit, planner->snapshot->n_nodes + 1);
  return planner->fits;
}

static void
planner_clear (Planner *planner)
{
  g_free (planner->fits);
  g_free (planner->containers);
  fs_plan_base_unref (planner->base);
}

/* ---- one candidate's shape and capacity -------------------------------------------- */

static int64_t *
resource_slot (FsResources *resources, FsHvpaResource r)
{
  return r == FS_HVPA_CPU ? &resources->cpu_milli : &resources->memory_bytes;
}

/* Points the planner's shape at CANDIDATE's requests and computes its effective request. */
void
fs_planner_shape_candidate (Planner *planner, FsPlanCandidate *candidate)
{
  const FsHvpaInput *in = &planner->answer->hvpa.input;
  const FsContainerSet *set = planner->workload->template->containers;
  candidate->same_template = TRUE;
  for (guint i = 0; i < in->n_containers; i++)
    {
      FsContainer *container = &planner->containers[i];
      container->requests = set->containers[i].requests;
      for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
        {
          int64_t amount = candidate->request[i][r];
          candidate->same_template &= amount == in->containers[i].request[r];
          if (amount == in->containers[i].request[r])
            continue;
          *resource_slot (&container->requests, (FsHvpaResource) r) = amount;
          container->requests.present |= r == FS_HVPA_CPU ? FS_RES_CPU : FS_RES_MEMORY;
        }
    }
  fs_pod_effective_request (planner->containers, set->n_containers, set->init_containers, set->n_init,
                            set->pod_level, set->overhead, &planner->spec.request, NULL);
  candidate->pod_request = planner->spec.request;
}

/* Replicas of the current shape the final state holds: a scale keeps the pods where they
 * are and adds the rest beside them; a new template replaces every pod. */
static int64_t
shape_capacity (Planner *planner, gboolean same_template)
{
  const FsSnapshot *snapshot = planner->snapshot;
  const FsNodeLoad *loads = same_template ? planner->loads_now : planner->loads_without;
  int64_t kept = same_template ? (int64_t) planner->old_pods->len : 0;
  if (planner->simple)
    {
      int64_t total = kept;
      for (guint i = 0; i < snapshot->n_nodes; i++)
        if (planner->usable[i])
          total += fs_resources_capacity_profile (&snapshot->nodes[i].allocatable, &loads[i],
                                                  &planner->spec.request, planner->shape.profile);
      return total;
    }
  FsPackOptions options = { .replicas = -1 };
  if (!same_template)
    {
      options.exclude = fs_workload_owns_pod;
      options.exclude_data = (gpointer) planner->workload;
      options.exclude_namespace = planner->workload->namespace;
    }
  FsPackResult result;
  fs_pack (snapshot, &planner->shape, &options, fs_planner_fits (planner), &result);
  return kept + result.capacity;
}

/* ---- what the autoscalers want -------------------------------------------------------- */

static int64_t
pod_amount (const FsPlanCandidate *candidate, guint n_containers, FsHvpaResource r)
{
  int64_t sum = 0;
  for (guint i = 0; i < n_containers; i++)
    sum += candidate->request[i][r];
  return sum;
}

/* The demand (docs/algorithm.md): for each resource the HPA scales on, P*'s replicas times
 * its per-pod request, where the VPA's target stands for a request above it; for Pods,
 * Object and External metrics (or no HPA), P*'s replicas. */
static void
measure_demand (FsPlanAnswer *answer)
{
  const FsHvpaInput *in = &answer->hvpa.input;
  FsPlanDemand *demand = &answer->demand;
  for (guint m = 0; answer->has_hpa && m < answer->hpa.n_metrics; m++)
    {
      const FsHpaMetricSpec *metric = &answer->hpa.metrics[m];
      gboolean per_resource = metric->type == FS_HPA_METRIC_RESOURCE
                              || metric->type == FS_HPA_METRIC_CONTAINER_RESOURCE;
      for (int r = 0; per_resource && r < FS_HVPA_N_RESOURCES; r++)
        demand->resource[r] |= g_strcmp0 (metric->name, resource_names[r]) == 0;
      demand->replicas_metric |= !per_resource;
    }
  if (!answer->has_hpa || answer->hpa.n_metrics == 0)
    demand->replicas_metric = TRUE;
  demand->replicas = answer->target.replicas;
  for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
    {
      int64_t per_pod = 0;
      for (guint i = 0; i < in->n_containers; i++)
        {
          int64_t request = answer->target.request[i][r];
          const FsHvpaContainer *container = &in->containers[i];
          if (container->has_recommendation && container->target[r] > 0)
            request = MIN (request, container->target[r]);
          per_pod += request;
        }
      demand->amount[r] = per_pod * answer->target.replicas;
    }
}

/* Only the replicas that schedule serve: a Pending replica serves nothing. */
static double
served_fraction (const FsPlanAnswer *answer, const FsPlanCandidate *candidate)
{
  const FsPlanDemand *demand = &answer->demand;
  int64_t running = MIN ((int64_t) candidate->replicas, MAX (candidate->capacity, 0));
  double served = 1.0;
  if (demand->replicas_metric && demand->replicas > 0)
    served = MIN (served, (double) running / demand->replicas);
  for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
    if (demand->resource[r] && demand->amount[r] > 0)
      {
        double provided = (double) running
                          * (double) pod_amount (candidate, answer->hvpa.input.n_containers, r);
        served = MIN (served, provided / (double) demand->amount[r]);
      }
  /* a pair that leaves replicas Pending never serves fully: its larger running replicas may
   * carry the demand's amount, but its Pending ones carry nothing of theirs (the HPA counts
   * them unready and wants more), so it serves at most the share of its replicas that run */
  if (candidate->replicas > running)
    served = MIN (served, (double) running / candidate->replicas);
  return served;
}

/* What one replica of CANDIDATE holds in replicas of the current size, by the HPA's
 * resources (capacity_equivalent without the replicas: the same for every replica count). */
static double
equivalent_ratio (const FsPlanAnswer *answer, const FsPlanCandidate *candidate)
{
  double ratio = G_MAXDOUBLE;
  for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
    {
      int64_t current = pod_amount (&answer->current, answer->hvpa.input.n_containers, r);
      if (answer->demand.resource[r] && current > 0)
        ratio = MIN (ratio, (double) pod_amount (candidate, answer->hvpa.input.n_containers, r) / current);
    }
  if (answer->demand.replicas_metric || ratio == G_MAXDOUBLE)
    ratio = MIN (ratio, 1.0);
  return ratio;
}

/* Replicas of the current size that hold what CANDIDATE holds, by the HPA's resources. */
static double
capacity_equivalent (const FsPlanAnswer *answer, const FsPlanCandidate *candidate)
{
  return candidate->replicas * equivalent_ratio (answer, candidate);
}

static double
vpa_distance (const FsPlanAnswer *answer, const FsPlanCandidate *candidate)
{
  const FsHvpaInput *in = &answer->hvpa.input;
  double sum = 0;
  guint n = 0;
  for (guint i = 0; i < in->n_containers; i++)
    for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
      if (in->containers[i].has_recommendation && in->containers[i].target[r] > 0
          && candidate->request[i][r] > 0)
        {
          sum += fabs (log ((double) candidate->request[i][r] / (double) in->containers[i].target[r]));
          n++;
        }
  return n > 0 ? sum / n : 0;
}

/* One replica's requests as a share of the eligible allocatable. */
static double
size_unit (const Planner *planner, const FsPlanCandidate *candidate)
{
  double size = 0;
  if (planner->alloc_cpu > 0)
    size += (double) candidate->pod_request.cpu_milli / planner->alloc_cpu;
  if (planner->alloc_memory > 0)
    size += (double) candidate->pod_request.memory_bytes / planner->alloc_memory;
  return size;
}

static void
score (const Planner *planner, FsPlanCandidate *candidate)
{
  const FsPlanAnswer *answer = planner->answer;
  double w = answer->stage_weight;
  candidate->served = served_fraction (answer, candidate);
  double equivalent = capacity_equivalent (answer, candidate);
  double desired = MAX (answer->hpa_desired, 1);
  candidate->hpa_distance = equivalent > 0 ? fabs (log (equivalent / desired)) : G_MAXDOUBLE;
  candidate->vpa_distance = vpa_distance (answer, candidate);
  candidate->distance = (1 - w) * candidate->hpa_distance + w * candidate->vpa_distance;
  candidate->size = size_unit (planner, candidate) * candidate->replicas;
  candidate->pending = MAX (0, candidate->replicas - candidate->capacity);
  candidate->schedulable = candidate->pending == 0;
}

/* What the ranking reads of a pair. */
typedef struct {
  double served;     /* at most 1 */
  double distance;
  double size;
  int32_t replicas;
  double weight;
} Rank;

static Rank
rank_of (const FsPlanCandidate *candidate)
{
  return (Rank){ MIN (candidate->served, 1.0), candidate->distance, candidate->size, candidate->replicas,
                 candidate->weight };
}

/* The ranking of docs/algorithm.md: serving the demand, distance, size, replicas, weight. */
static int
compare_ranks (const Rank *a, const Rank *b)
{
  if (a->served != b->served)
    return a->served > b->served ? -1 : 1;
  if (a->distance != b->distance)
    return a->distance < b->distance ? -1 : 1;
  if (a->size != b->size)
    return a->size < b->size ? -1 : 1;
  if (a->replicas != b->replicas)
    return a->replicas < b->replicas ? -1 : 1;
  return a->weight < b->weight ? -1 : a->weight > b->weight;
}

/* ---- the candidates' requests ----------------------------------------------------------- */

/* The request of container I, resource R at effective weight E: from current toward the
 * VPA target as the weight rule moves it, memory rounded up to a MiB without passing the
 * end, within minAllowed/maxAllowed and, for memory, never below the lowerBound. */
static int64_t
step_request (const FsPlanAnswer *answer, guint i, FsHvpaResource r, double e)
{
  const FsHvpaContainer *container = &answer->hvpa.input.containers[i];
  int64_t current = container->request[r];
  if (!container->has_recommendation || container->target[r] <= 0)
    return current;
  int64_t target = container->target[r];
  int64_t amount = fs_hvpa_weighted_request (answer->request.semantics, r, current, target, e);
  if (r == FS_HVPA_MEMORY && amount % MiB != 0)
    amount = MIN (fs_round_up (amount, MiB), MAX (current, target));
  if (container->has_min_allowed[r])
    amount = MAX (amount, container->min_allowed[r]);
  if (container->has_max_allowed[r])
    amount = MIN (amount, container->max_allowed[r]);
  if (r == FS_HVPA_MEMORY && container->lower_bound[r] > 0)
    amount = MAX (amount, container->lower_bound[r]);
  return amount;
}

/* Limits kept in proportion to the requests (hvpa getScaledResourceLimit). */
static void
scale_limits (const FsPlanAnswer *answer, FsPlanCandidate *candidate)
{
  const FsHvpaInput *in = &answer->hvpa.input;
  for (guint i = 0; i < in->n_containers; i++)
    for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
      {
        const FsHvpaContainer *container = &in->containers[i];
        candidate->limit[i][r] = container->limit[r];
        if (container->limit[r] > 0 && candidate->request[i][r] != container->request[r])
          fs_hvpa_scaled_limit ((FsHvpaResource) r, container->limit[r], container->request[r],
                                candidate->request[i][r], &in->spec.limits_gap[r], &candidate->limit[i][r]);
      }
}

void
fs_planner_memo_key (const Planner *planner, const FsPlanCandidate *candidate, int64_t replicas, FsPlanMemoKey *key)
{
  memset (key, 0, sizeof *key);
  key->workload = planner->workload;
  key->replicas = replicas;
  key->n_containers = planner->answer->hvpa.input.n_containers;
  memcpy (key->request, candidate->request, key->n_containers * sizeof key->request[0]);
}

static void
measure (Planner *planner, FsPlanCandidate *candidate)
{
  fs_planner_shape_candidate (planner, candidate);
  scale_limits (planner->answer, candidate);
  FsPlanMemoKey key;
  if (planner->memo != NULL)
    fs_planner_memo_key (planner, candidate, -1, &key);
  if (planner->memo == NULL || !fs_plan_memo_capacity (planner->memo, &key, &candidate->capacity))
    {
      candidate->capacity = shape_capacity (planner, candidate->same_template);
      if (planner->memo != NULL)
        fs_plan_memo_store_capacity (planner->memo, &key, candidate->capacity);
    }
  score (planner, candidate);
}

static void
build_steps (Planner *planner)
{
  FsPlanAnswer *answer = planner->answer;
  guint n = answer->request.steps > 1 ? answer->request.steps : FS_PLAN_DEFAULT_STEPS;
  gboolean any_target = FALSE;
  for (guint i = 0; i < answer->hvpa.input.n_containers; i++)
    any_target |= answer->hvpa.input.containers[i].has_recommendation;
  if (!any_target)
    n = 1; /* nothing to move the requests toward: the current ones only */
  answer->n_steps = n;
  answer->steps = g_new0 (FsPlanCandidate, n);
  for (guint k = 0; k < n; k++)
    {
      FsPlanCandidate *step = &answer->steps[k];
      step->weight = n > 1 ? (double) k / (n - 1) : 0;
      for (guint i = 0; i < answer->hvpa.input.n_containers; i++)
        for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
          step->request[i][r] = step_request (answer, i, (FsHvpaResource) r, step->weight);
      step->replicas = 1;
      measure (planner, step);
    }
}

/* ---- the message for replicas left Pending ------------------------------------------ */

/* The packing of CANDIDATE's replicas: those it adds beside the old pods when it keeps their
 * template, else all of them in place of the old pods. */
static FsPackOptions
candidate_pack_options (const Planner *planner, const FsPlanCandidate *candidate)
{
  FsPackOptions options = { .replicas = candidate->replicas };
  if (candidate->same_template)
    options.replicas = MAX (0, candidate->replicas - (int64_t) planner->old_pods->len);
  else
    {
      options.exclude = fs_workload_owns_pod;
      options.exclude_data = (gpointer) planner->workload;
      options.exclude_namespace = planner->workload->namespace;
    }
  return options;
}

static char *
pending_message (Planner *planner, FsPlanCandidate *candidate)
{
  const FsSnapshot *snapshot = planner->snapshot;
  fs_planner_shape_candidate (planner, candidate);
  FsPackOptions options = candidate_pack_options (planner, candidate);
  FsPackResult result;
  FsNodeFit *fits = fs_planner_fits (planner);
  fs_pack (snapshot, &planner->shape, &options, fits, &result);
  g_autoptr (FsReasonCounts) counts = fs_reason_counts_new ();
  for (guint i = 0; i < snapshot->n_nodes; i++)
    {
      const FsNodeFit *fit = &fits[i];
      FsVerdict verdict = fit->capacity > 0 ? fit->limit : fit->verdict;
      if (verdict.filter == FS_FILTER_PASS)
        {
          /* full by a pod rule, not by resources */
          verdict.filter = result.limited_by == FS_PACK_LIMIT_TOPOLOGY_SPREAD ? FS_FILTER_POD_TOPOLOGY_SPREAD
                                                                             : FS_FILTER_INTER_POD_AFFINITY;
          verdict.detail = result.limited_by == FS_PACK_LIMIT_TOPOLOGY_SPREAD ? FS_DETAIL_SPREAD
                           : result.limited_by == FS_PACK_LIMIT_AFFINITY ? FS_DETAIL_AFFINITY
                                                                          : FS_DETAIL_ANTI_AFFINITY;
        }
      fs_reason_counts_add_verdict (counts, &verdict);
    }
  return fs_fit_error_message (snapshot->n_nodes, counts, NULL);
}

/* For P* when replicas of it stay Pending: the message of the first, and the new nodes that
 * would hold them (from the memo when a request before asked the same). */
static void
target_pending (Planner *planner)
{
  FsPlanAnswer *answer = planner->answer;
  FsPlanMemoKey key;
  if (planner->memo != NULL)
    {
      fs_planner_memo_key (planner, &answer->target, answer->target.replicas, &key);
      if (fs_plan_memo_pending (planner->memo, &key, &answer->target_message, answer->nodes_needed))
        return;
    }
  answer->target_message = pending_message (planner, &answer->target);
  fs_planner_shape_candidate (planner, &answer->target);
  FsPackOptions options = candidate_pack_options (planner, &answer->target);
  fs_estimate_new_nodes_grouped (planner->snapshot, planner->memo != NULL ? fs_plan_memo_node_groups (planner->memo) : NULL,
                                 &planner->shape, &options, answer->nodes_needed);
  if (planner->memo != NULL)
    fs_plan_memo_store_pending (planner->memo, &key, answer->target_message, answer->nodes_needed);
}

/* The proposed write (admission): the current pair with the replicas and the requests it gives,
 * measured and scored as every candidate is, and why its first Pending replica would wait. */
static void
measure_proposal (Planner *planner)
{
  FsPlanAnswer *answer = planner->answer;
  const FsPlanRequest *request = &answer->request;
  const FsHvpaInput *in = &answer->hvpa.input;
  FsPlanCandidate *proposal = &answer->proposal;
  *proposal = answer->current;
  proposal->replicas = request->proposal_replicas;
  for (guint t = 0; t < request->n_proposal_requests; t++)
    for (guint i = 0; i < in->n_containers; i++)
      if (g_strcmp0 (in->containers[i].name, request->proposal_requests[t].container) == 0)
        for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
          if (request->proposal_requests[t].has[r])
            proposal->request[i][r] = request->proposal_requests[t].amount[r];
  measure (planner, proposal);
  if (!proposal->schedulable)
    answer->proposal_message = pending_message (planner, proposal);
}

/* ---- gathering ------------------------------------------------------------------------ */

static gboolean
gather_inputs (const FsSnapshot *snapshot, FsPlanAnswer *answer, GError **error)
{
  const FsPlanRequest *request = &answer->request;
  const FsGenericObject *hvpa = NULL;
  FsWorkloadKind workload_kind;
  if (g_ascii_strcasecmp (request->kind, "hvpa") == 0 || g_ascii_strcasecmp (request->kind, "hvpas") == 0)
    {
      hvpa = fs_snapshot_find_hvpa (snapshot, request->namespace, request->name);
      if (hvpa == NULL)
        {
          g_set_error (error, FS_ERROR, FS_ERROR_NOT_FOUND, "Hvpa \"%s\" not found in namespace \"%s\" of the snapshot",
                       request->name, request->namespace);
          return FALSE;
        }
    }
  else
    {
      gboolean plannable = fs_workload_kind_parse (request->kind, &workload_kind)
                           && workload_kind != FS_WORKLOAD_REPLICASET; /* its Deployment owns it */
      const char *kind = plannable ? fs_workload_kind_name (workload_kind) : NULL;
      if (kind == NULL)
        {
          g_set_error (error, FS_ERROR, FS_ERROR_USAGE,
                       "\"%s\": plan a hvpa/NAME, deployment/NAME or statefulset/NAME", request->kind);
          return FALSE;
        }
      answer->workload = request->workload != NULL ? request->workload
                                                   : fs_snapshot_find_workload (snapshot, request->namespace, kind,
                                                                                request->name);
      if (answer->workload == NULL)
        {
          g_set_error (error, FS_ERROR, FS_ERROR_NOT_FOUND, "%s \"%s\" not found in namespace \"%s\" of the snapshot",
                       kind, request->name, request->namespace);
          return FALSE;
        }
      if (!request->has_vpa_weight)
        hvpa = fs_snapshot_find_autoscaler (snapshot, FS_KIND_HVPA, answer->workload);
    }
  answer->from_hvpa = hvpa != NULL;
  if (hvpa != NULL)
    {
      if (!fs_hvpa_gather (snapshot, hvpa, request->now_ms, &answer->hvpa, error))
        return FALSE;
      answer->workload = answer->hvpa.target;
    }
  else if (!fs_hvpa_gather_workload (snapshot, answer->workload, request->has_vpa_weight ? request->vpa_weight : 0,
                                     request->now_ms, &answer->hvpa, error))
    return FALSE;
  if (answer->hvpa.hpa != NULL)
    {
      if (!fs_hpa_spec_read (answer->hvpa.hpa, &answer->hpa, error))
        return FALSE;
      answer->has_hpa = TRUE;
    }
  return TRUE;
}

static gboolean
apply_overrides (const FsSnapshot *snapshot, FsPlanAnswer *answer, GError **error)
{
  const FsPlanRequest *request = &answer->request;
  FsHvpaInput *in = &answer->hvpa.input;
  for (guint t = 0; t < request->n_vpa_targets; t++)
    {
      const FsPlanVpaTarget *target = &request->vpa_targets[t];
      guint i = 0;
      while (i < in->n_containers && g_strcmp0 (in->containers[i].name, target->container) != 0)
        i++;
      if (i == in->n_containers)
        {
          g_set_error (error, FS_ERROR, FS_ERROR_USAGE, "--vpa-target: %s has no container \"%s\"",
                       answer->workload->name, target->container);
          return FALSE;
        }
      FsHvpaContainer *container = &answer->hvpa.containers[i];
      container->has_recommendation = TRUE;
      in->has_vpa_recommendation = TRUE;
      for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
        {
          if (!container->target[r] || target->has[r])
            container->target[r] = target->has[r] ? target->amount[r] : container->request[r];
          if (target->has[r])
            container->lower_bound[r] = 0; /* the flag gives a target, no bounds */
        }
    }
  if (request->has_proposal)
    {
      /* a write of replicas (admission) is planned over a range that holds them: a workload
       * without an HPA has only its current count */
      in->spec.min_replicas = MIN (in->spec.min_replicas, MAX (request->proposal_replicas, 1));
      in->spec.max_replicas = MAX (in->spec.max_replicas, request->proposal_replicas);
    }
  answer->hpa_desired_from = "status.desiredReplicas";
  if (request->has_hpa_desired)
    {
      in->has_hpa_status = TRUE;
      in->desired_replicas = request->hpa_desired;
      answer->hpa_desired_from = "--hpa-desired";
    }
  else if (request->hpa_source == FS_PLAN_HPA_METRICS && answer->hvpa.hpa != NULL)
    {
      FsHpaAnswer hpa_answer;
      if (!fs_hpa_explain (snapshot, answer->hvpa.hpa, request->now_ms, FALSE, &hpa_answer, error))
        return FALSE;
      in->has_hpa_status = TRUE;
      in->desired_replicas = hpa_answer.now.desired;
      fs_hpa_answer_clear (&hpa_answer);
      answer->hpa_desired_from = "metrics";
    }
  else if (!in->has_hpa_status)
    answer->hpa_desired_from = answer->hvpa.hpa != NULL ? "the HPA has no status: current replicas"
                                                        : "no HPA: current replicas";
  answer->hpa_desired = in->has_hpa_status ? in->desired_replicas : in->current_replicas;
  return TRUE;
}

/* ---- choosing ---------------------------------------------------------------------- */

static void
set_from_output (FsPlanAnswer *answer, FsPlanCandidate *candidate, gboolean applied)
{
  const FsHvpaInput *in = &answer->hvpa.input;
  candidate->replicas = applied ? answer->hvpa.output.replicas : in->current_replicas;
  candidate->weight = applied ? answer->hvpa.output.vertical_weight : 0;
  for (guint i = 0; i < in->n_containers; i++)
    for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
      candidate->request[i][r] = applied ? answer->hvpa.output.containers[i].request[r]
                                         : in->containers[i].request[r];
}

/* What the autoscaler that owns spec.replicas sets at its next sync, once fs_hvpa_decide has
 * run: the Hvpa writes what its weight rules decide (P*'s replicas), not its HPA's wish;
 * an HPA alone writes its wish within minReplicas..maxReplicas (upstream horizontal.go
 * normalizeDesiredReplicas); 0 when neither scales the workload. */
static int32_t
next_sync_replicas (const FsPlanAnswer *answer)
{
  if (answer->from_hvpa)
    return answer->hvpa.output.replicas;
  if (answer->hvpa.hpa == NULL)
    return 0;
  const FsHvpaSpec *spec = &answer->hvpa.input.spec;
  return CLAMP (answer->hpa_desired, spec->min_replicas, spec->max_replicas > 0 ? spec->max_replicas : G_MAXINT32);
}

typedef struct {
  Rank rank;         /* weight holds the step index: the same order */
  guint step;
} Ranked;

static FsPlanCandidate
materialize (Planner *planner, const Ranked *ranked)
{
  FsPlanCandidate candidate = planner->answer->steps[ranked->step];
  candidate.replicas = ranked->rank.replicas;
  score (planner, &candidate);
  return candidate;
}

/* What score computes of a step that does not depend on the replica count, so that each
 * (replicas, step) pair costs one logarithm; the arithmetic is score's, operation for
 * operation, so the ranks are the same doubles. */
typedef struct {
  int64_t capacity;
  int64_t amount[FS_HVPA_N_RESOURCES]; /* the pod's request per resource */
  double ratio;                        /* equivalent_ratio */
  double vpa_distance;
  double size_unit;
} StepScore;

static Rank
rank_pair (const FsPlanAnswer *answer, const StepScore *step, int32_t n, guint k)
{
  const FsPlanDemand *demand = &answer->demand;
  int64_t running = MIN ((int64_t) n, MAX (step->capacity, 0));
  double served = 1.0;
  if (demand->replicas_metric && demand->replicas > 0)
    served = MIN (served, (double) running / demand->replicas);
  for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
    if (demand->resource[r] && demand->amount[r] > 0)
      {
        double provided = (double) running * (double) step->amount[r];
        served = MIN (served, provided / (double) demand->amount[r]);
      }
  double w = answer->stage_weight;
  double equivalent = n * step->ratio;
  double desired = MAX (answer->hpa_desired, 1);
  double hpa_distance = equivalent > 0 ? fabs (log (equivalent / desired)) : G_MAXDOUBLE;
  double distance = (1 - w) * hpa_distance + w * step->vpa_distance;
  return (Rank){ MIN (served, 1.0), distance, step->size_unit * n, n, k };
}

/* The ranked pairs, best first.  The first RANKING_TOP come from one pass that keeps the best
 * of them (a bounded heap: most pairs cost one comparison); only a reader that goes further
 * than that has every pair generated again and heap-sorted as far as it reads.  compare_ranks
 * is a total order over the pairs, so either gives the full sort's order. */
#define RANKING_TOP 64

typedef struct {
  Ranked top[RANKING_TOP];  /* sorted */
  guint n_top;
  guint len;                /* pairs in all */
  const FsPlanAnswer *answer;
  StepScore *steps;         /* per request step, to generate the pairs again */
  int32_t from, to;
  GArray *heap;             /* Ranked: the pairs not yet sorted, when a reader went past TOP */
  GArray *sorted;           /* Ranked: then the first ones, in order */
} Ranking;

static void
ranking_free (Ranking *ranking)
{
  if (ranking->heap != NULL)
    g_array_unref (ranking->heap);
  if (ranking->sorted != NULL)
    g_array_unref (ranking->sorted);
  g_free (ranking->steps);
  g_free (ranking);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Ranking, ranking_free)

/* Sifts entry I of HEAP down; BEFORE (SIGN 1) or after (SIGN -1) first at the root. */
static void
sift_down (Ranked *heap, guint len, guint i, int sign)
{
  for (;;)
    {
      guint best = i, left = 2 * i + 1, right = left + 1;
      if (left < len && sign * compare_ranks (&heap[left].rank, &heap[best].rank) < 0)
        best = left;
      if (right < len && sign * compare_ranks (&heap[right].rank, &heap[best].rank) < 0)
        best = right;
      if (best == i)
        return;
      Ranked swap = heap[i];
      heap[i] = heap[best];
      heap[best] = swap;
      i = best;
    }
}

static void
sift_up (Ranked *heap, guint i, int sign)
{
  while (i > 0 && sign * compare_ranks (&heap[i].rank, &heap[(i - 1) / 2].rank) < 0)
    {
      Ranked swap = heap[i];
      heap[i] = heap[(i - 1) / 2];
      heap[(i - 1) / 2] = swap;
      i = (i - 1) / 2;
    }
}

/* Every pair again, as a heap (best at the root): for a reader past the first RANKING_TOP. */
static void
ranking_expand (Ranking *ranking)
{
  const FsPlanAnswer *answer = ranking->answer;
  ranking->heap = g_array_sized_new (FALSE, FALSE, sizeof (Ranked), ranking->len);
  ranking->sorted = g_array_new (FALSE, FALSE, sizeof (Ranked));
  for (guint k = 0; k < answer->n_steps; k++)
    for (int32_t n = ranking->from; n <= ranking->to && n <= ranking->steps[k].capacity; n++)
      {
        Ranked entry = { rank_pair (answer, &ranking->steps[k], n, k), k };
        g_array_append_val (ranking->heap, entry);
      }
  for (guint i = ranking->heap->len / 2; i-- > 0;)
    sift_down ((Ranked *) ranking->heap->data, ranking->heap->len, i, 1);
}

/* The I-th best pair (I < ranking->len). */
static const Ranked *
ranking_at (Ranking *ranking, guint i)
{
  if (i < ranking->n_top)
    return &ranking->top[i];
  if (ranking->heap == NULL)
    ranking_expand (ranking);
  while (ranking->sorted->len <= i)
    {
      Ranked *heap = (Ranked *) ranking->heap->data;
      guint len = ranking->heap->len;
      g_array_append_val (ranking->sorted, heap[0]);
      heap[0] = heap[len - 1];
      g_array_set_size (ranking->heap, len - 1);
      sift_down (heap, len - 1, 0, 1);
    }
  return &g_array_index (ranking->sorted, Ranked, i);
}

static int
compare_ranked (gconstpointer a, gconstpointer b)
{
  return compare_ranks (&((const Ranked *) a)->rank, &((const Ranked *) b)->rank);
}

/* Every (replicas, step) pair that fits, ranked. */
static Ranking *
rank_grid (Planner *planner)
{
  FsPlanAnswer *answer = planner->answer;
  const FsHvpaSpec *spec = &answer->hvpa.input.spec;
  int32_t from = spec->min_replicas, to = spec->max_replicas;
  if (to - from + 1 > FS_PLAN_MAX_REPLICA_COUNTS)
    {
      from = MAX (from, answer->target.replicas - FS_PLAN_MAX_REPLICA_COUNTS / 2);
      to = MIN (to, from + FS_PLAN_MAX_REPLICA_COUNTS - 1);
      from = MAX (spec->min_replicas, to - FS_PLAN_MAX_REPLICA_COUNTS + 1);
    }
  Ranking *ranking = g_new0 (Ranking, 1);
  ranking->answer = answer;
  ranking->from = from;
  ranking->to = to;
  ranking->steps = g_new0 (StepScore, answer->n_steps + 1);
  guint n_containers = answer->hvpa.input.n_containers;
  Ranked *top = ranking->top; /* while filling: the worst kept at the root */
  for (guint k = 0; k < answer->n_steps; k++)
    {
      const FsPlanCandidate *candidate = &answer->steps[k];
      StepScore *step = &ranking->steps[k];
      *step = (StepScore){ .capacity = candidate->capacity, .ratio = equivalent_ratio (answer, candidate),
                           .vpa_distance = vpa_distance (answer, candidate), .size_unit = size_unit (planner, candidate) };
      for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
        step->amount[r] = pod_amount (candidate, n_containers, r);
      for (int32_t n = from; n <= to && n <= candidate->capacity; n++)
        {
          Ranked entry = { rank_pair (answer, step, n, k), k };
          answer->n_serving += entry.rank.served >= 1.0;
          ranking->len++;
          if (ranking->n_top < RANKING_TOP)
            {
              top[ranking->n_top] = entry;
              sift_up (top, ranking->n_top++, -1);
            }
          else if (compare_ranks (&entry.rank, &top[0].rank) < 0)
            {
              top[0] = entry;
              sift_down (top, RANKING_TOP, 0, -1);
            }
        }
      answer->n_candidates += (guint) MAX (0, to - from + 1);
    }
  qsort (top, ranking->n_top, sizeof (Ranked), compare_ranked);
  return ranking;
}

static void
pick_alternatives (Planner *planner, Ranking *ranking)
{
  FsPlanAnswer *answer = planner->answer;
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);
  g_hash_table_add (seen, GINT_TO_POINTER (answer->plan.replicas));
  for (guint i = 0; i < ranking->len && answer->alternatives->len < N_ALTERNATIVES; i++)
    {
      const Ranked *entry = ranking_at (ranking, i);
      if (!g_hash_table_add (seen, GINT_TO_POINTER (entry->rank.replicas)))
        continue;
      FsPlanCandidate candidate = materialize (planner, entry);
      g_array_append_val (answer->alternatives, candidate);
    }
}

/* The plan: P* when it schedules and its update completes; else the best of P* and the
 * ranked pairs, its update checked, and when that stops half way, the best of the first
 * ranked pairs whose update completes as the workload is configured. */
/* An in-place update (issue 21): among the pairs that serve as much as BEST and are as close
 * to the targets (within IN_PLACE_TIE of its distance, 1 % of the capacity-equivalent, of the
 * first IN_PLACE_TRIES ranked), the one whose resizes evict the fewest pods, then restart the
 * fewest containers; the ranking decides between equals. */
#define IN_PLACE_TIE 0.01
#define IN_PLACE_TRIES 16

static void
prefer_fewer_evictions (Planner *planner, Ranking *ranked, FsPlanCandidate *best)
{
  FsPlanAnswer *answer = planner->answer;
  gboolean evict_deferred;
  if (!best->schedulable || !fs_plan_in_place (answer, &evict_deferred))
    return;
  /* the ties, in rank order (the first is BEST) */
  FsPlanCandidate ties[IN_PLACE_TRIES];
  FsResizeTarget targets[IN_PLACE_TRIES];
  guint n = 0;
  for (guint i = 0; i < ranked->len && i < IN_PLACE_TRIES; i++)
    {
      FsPlanCandidate candidate = materialize (planner, ranking_at (ranked, i));
      if (MIN (candidate.served, 1.0) < MIN (best->served, 1.0) || candidate.distance > best->distance + IN_PLACE_TIE)
        break;
      if (!candidate.schedulable)
        continue;
      ties[n] = candidate;
      fs_plan_resize_target (answer, &candidate, &targets[n++]);
    }
  if (n < 2)
    return;
  guint evictions[IN_PLACE_TRIES], restarts[IN_PLACE_TRIES], chosen = 0;
  fs_resize_costs (planner->snapshot, answer->workload, targets, n, evict_deferred, evictions, restarts);
  for (guint t = 1; t < n; t++)
    if (evictions[t] < evictions[chosen] || (evictions[t] == evictions[chosen] && restarts[t] < restarts[chosen]))
      chosen = t;
  if (chosen == 0)
    return;
  answer->in_place_preferred = TRUE;
  answer->ranked_first = *best;
  answer->ranked_first_evictions = evictions[0];
  answer->ranked_first_restarts = restarts[0];
  answer->plan_evictions = evictions[chosen];
  answer->plan_restarts = restarts[chosen];
  *best = ties[chosen];
}

static void
choose (Planner *planner)
{
  FsPlanAnswer *answer = planner->answer;
  fs_planner_check_rollout (planner, &answer->target, &answer->target_rollout, TRUE);
  g_autoptr (Ranking) ranked = rank_grid (planner);
  gboolean target_fits = answer->target.schedulable;
  if (target_fits && answer->target_rollout.completes)
    {
      answer->plan = answer->target;
      answer->rollout = answer->target_rollout;
      answer->outcome = FS_PLAN_UNCHANGED;
      pick_alternatives (planner, ranked);
      return;
    }
  FsPlanCandidate best = answer->current;
  if (ranked->len > 0)
    best = materialize (planner, ranking_at (ranked, 0));
  if (ranked->len > 1)
    prefer_fewer_evictions (planner, ranked, &best);
  Rank target_rank = rank_of (&answer->target), best_rank = rank_of (&best);
  gboolean is_target = target_fits && (ranked->len == 0 || compare_ranks (&target_rank, &best_rank) <= 0);
  answer->plan = is_target ? answer->target : best;
  if (is_target)
    answer->rollout = answer->target_rollout;
  else
    fs_planner_check_rollout (planner, &answer->plan, &answer->rollout, TRUE);
  answer->outcome = !answer->plan.schedulable || answer->plan.served < 1.0 ? FS_PLAN_INFEASIBLE
                    : is_target ? FS_PLAN_UNCHANGED : FS_PLAN_ADJUSTED;
  for (guint i = 0; i < ranked->len && i < ROLLOUT_TRIES && !answer->rollout.completes && !answer->has_steady; i++)
    {
      FsPlanCandidate candidate = materialize (planner, ranking_at (ranked, i));
      FsPlanRollout rollout;
      fs_planner_check_rollout (planner, &candidate, &rollout, FALSE);
      if (rollout.completes)
        {
          answer->steady = candidate;
          answer->has_steady = TRUE;
        }
    }
  pick_alternatives (planner, ranked);
}

/* The patch's requests (FsPlanAnswer.patch_request): rounded up to the manifest's units only
 * when the rounded pair is checked to schedule as the plan does. */
static void
round_patch (Planner *planner)
{
  FsPlanAnswer *answer = planner->answer;
  const FsHvpaInput *in = &answer->hvpa.input;
  FsPlanCandidate rounded = answer->plan;
  gboolean changed = FALSE;
  memcpy (answer->patch_request, answer->plan.request, sizeof answer->patch_request);
  for (guint i = 0; i < in->n_containers; i++)
    {
      int64_t amount = answer->plan.request[i][FS_HVPA_MEMORY];
      if (amount == in->containers[i].request[FS_HVPA_MEMORY])
        continue;
      rounded.request[i][FS_HVPA_MEMORY] = fs_round_up_like ("memory", amount, in->containers[i].request[FS_HVPA_MEMORY]);
      changed |= rounded.request[i][FS_HVPA_MEMORY] != amount;
    }
  if (!changed)
    return;
  measure (planner, &rounded);
  gboolean same = rounded.pending <= answer->plan.pending;
  if (same && answer->rollout.needed)
    {
      FsPlanRollout rollout;
      fs_planner_check_rollout (planner, &rounded, &rollout, TRUE);
      same = rollout.completes == answer->rollout.completes && rollout.has_fix == answer->rollout.has_fix
             && (!rollout.has_fix || (rollout.fix.surge == answer->rollout.fix.surge
                                      && rollout.fix.unavailable == answer->rollout.fix.unavailable));
    }
  if (!same)
    {
      answer->patch_exact = TRUE;
      return;
    }
  memcpy (answer->patch_request, rounded.request, sizeof answer->patch_request);
  answer->patch_rounded = TRUE;
}

/* ---- the reason ---------------------------------------------------------------------- */

static void
append_requests (GString *text, const FsPlanAnswer *answer, const FsPlanCandidate *candidate)
{
  const FsHvpaInput *in = &answer->hvpa.input;
  gboolean first = TRUE;
  for (guint i = 0; i < in->n_containers; i++)
    for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
      {
        if (candidate->request[i][r] == 0)
          continue;
        char amount[32];
        g_string_append_printf (text, "%s%s%s%s=%s", first ? "" : ",", in->n_containers > 1 ? in->containers[i].name : "",
                                in->n_containers > 1 ? ":" : "", resource_names[r],
                                fs_format_for_people (resource_names[r], candidate->request[i][r], amount));
        first = FALSE;
      }
}

static gboolean
has_hpa (const FsPlanAnswer *answer)
{
  return answer->hvpa.hpa != NULL || answer->request.has_hpa_desired;
}

static gboolean
has_vpa (const FsPlanAnswer *answer)
{
  return answer->hvpa.vpa != NULL || answer->request.n_vpa_targets > 0;
}

const char *
fs_plan_point_name (const FsPlanAnswer *answer)
{
  if (answer->from_hvpa)
    return "HVPA";
  if (has_hpa (answer))
    return has_vpa (answer) ? "HPA/VPA" : "HPA";
  return has_vpa (answer) ? "VPA" : "target";
}

static void
explain (FsPlanAnswer *answer)
{
  GString *text = g_string_new (NULL);
  const FsPlanCandidate *target = &answer->target, *plan = &answer->plan;
  g_string_append_printf (text, "The %s point is %d x (", fs_plan_point_name (answer), target->replicas);
  append_requests (text, answer, target);
  g_string_append (text, ")");
  if (target->schedulable && answer->target_rollout.completes)
    g_string_append (text, ": every replica schedules, so the plan is that point, unchanged.");
  else if (target->schedulable)
    g_string_append (text, ": its final state fits, but its rolling update stops before it completes.");
  else
    g_string_append_printf (text, ": %" G_GINT64_FORMAT " of its %d replica%s would stay Pending.",
                            target->pending, target->replicas, target->replicas == 1 ? "" : "s");
  if (answer->outcome == FS_PLAN_ADJUSTED)
    {
      g_string_append_printf (text, " The plan, %d x (", plan->replicas);
      append_requests (text, answer, plan);
      /* measured from what exists: the HPA's wish or the replicas now, the VPA's target or the
       * requests now */
      g_string_append_printf (text, "), schedules every replica and serves the whole demand; of the %u pair%s "
                              "evaluated, %u do%s, and it is %s %s %d replica%s and %s "
                              "(vpaWeight %.2f: distance %.3f).",
                              answer->n_candidates, answer->n_candidates == 1 ? "" : "s", answer->n_serving,
                              answer->n_serving == 1 ? "es" : "",
                              answer->in_place_preferred ? "among the closest to" : "the closest to",
                              has_hpa (answer) ? "the HPA's" : "its", answer->hpa_desired,
                              answer->hpa_desired == 1 ? "" : "s",
                              has_vpa (answer) ? "the VPA's target" : "the requests it has now",
                              answer->stage_weight, plan->distance);
    }
  if (answer->outcome == FS_PLAN_ADJUSTED && answer->in_place_preferred)
    {
      const FsPlanCandidate *first = &answer->ranked_first;
      g_string_append_printf (text, " In place it is preferred to %d x (", first->replicas);
      append_requests (text, answer, first);
      g_string_append_printf (text, "), as close (distance %.3f, within 0.01), which would evict %u pod%s and restart %u "
                              "container%s where this evicts %u and restarts %u.", first->distance,
                              answer->ranked_first_evictions, answer->ranked_first_evictions == 1 ? "" : "s",
                              answer->ranked_first_restarts, answer->ranked_first_restarts == 1 ? "" : "s",
                              answer->plan_evictions, answer->plan_restarts);
    }
  if (answer->outcome == FS_PLAN_INFEASIBLE && plan->schedulable)
    {
      g_string_append_printf (text, " No pair that schedules serves the whole demand; the plan, %d x (", plan->replicas);
      append_requests (text, answer, plan);
      g_string_append_printf (text, "), serves the most: %.0f %%.", floor (plan->served * 100));
    }
  else if (answer->outcome == FS_PLAN_INFEASIBLE)
    {
      /* no pair schedules every replica: the plan is the workload as it runs */
      int64_t scheduled = MIN (MAX (plan->capacity, 0), (int64_t) plan->replicas);
      if (answer->n_candidates == 1)
        g_string_append (text, " The one pair evaluated does not schedule every replica");
      else
        g_string_append_printf (text, " None of the %u pairs evaluated schedules every replica", answer->n_candidates);
      if (scheduled > 0)
        g_string_append_printf (text, ": the workload stays as it is, and %" G_GINT64_FORMAT " of its %d replica%s "
                                "schedule%s.", scheduled, plan->replicas, plan->replicas == 1 ? "" : "s",
                                scheduled == 1 ? "s" : "");
      else
        g_string_append_printf (text, ": the workload stays as it is, and not one of its %d replica%s schedules.",
                                plan->replicas, plan->replicas == 1 ? "" : "s");
    }
  if (answer->rollout.needed && !answer->rollout.completes && plan->schedulable)
    {
      gboolean stateful = answer->workload->kind == FS_WORKLOAD_STATEFULSET; /* it has no maxSurge */
      if (stateful)
        g_string_append_printf (text, " Its rolling update (one pod at a time, maxUnavailable %d)",
                                answer->rollout.limits.unavailable);
      else
        g_string_append_printf (text, " Its rolling update (maxSurge %d, maxUnavailable %d)", answer->rollout.limits.surge,
                                answer->rollout.limits.unavailable);
      g_string_append_printf (text, " stops with %d old and %d new pods available", answer->rollout.stuck.old_available,
                              answer->rollout.stuck.new_available);
      if (answer->rollout.has_fix && stateful)
        g_string_append_printf (text, "; with maxUnavailable %d it completes.", answer->rollout.fix.unavailable);
      else if (answer->rollout.has_fix)
        g_string_append_printf (text, "; with maxSurge %d and maxUnavailable %d it completes.", answer->rollout.fix.surge,
                                answer->rollout.fix.unavailable);
      else
        g_string_append (text, "; no surge or unavailability lets it complete.");
      if (answer->has_steady)
        {
          g_string_append_printf (text, " Without changing the strategy, %d x (", answer->steady.replicas);
          append_requests (text, answer, &answer->steady);
          g_string_append (text, ") is the best pair whose update completes.");
        }
    }
  if (answer->recorded_pod != NULL)
    g_string_append_printf (text, " The scheduler recorded for %s a reason this plan does not count "
                            "(\"%s\"): replicas counted here as scheduled may stay Pending.",
                            answer->recorded_pod->name, (const char *) answer->unmodelled->pdata[0]);
  answer->reason = g_string_free (text, FALSE);
}

/* ---- the entry point ------------------------------------------------------------------- */

const char *
fs_plan_outcome_name (FsPlanOutcome outcome)
{
  static const char *const names[] = { "unchanged", "adjusted", "infeasible" };
  return names[outcome];
}

void
fs_plan_answer_free (FsPlanAnswer *answer)
{
  if (answer == NULL)
    return;
  g_free (answer->target_message);
  g_free (answer->proposal_message);
  g_free (answer->reason);
  g_free (answer->steps);
  if (answer->alternatives != NULL)
    g_array_unref (answer->alternatives);
  if (answer->nodes_needed != NULL)
    g_array_unref (answer->nodes_needed);
  if (answer->unmodelled != NULL)
    g_ptr_array_unref (answer->unmodelled);
  fs_resize_plan_free (answer->resize); /* in-place updates (issue 21, plan/resize.c) */
  g_free (answer);
}

/* The plan, sharing with MEMO (NULL: nothing) what depends on the snapshot and the workload. */
static FsPlanAnswer *
plan (const FsSnapshot *snapshot, FsPlanMemo *memo, const FsPlanRequest *request, GError **error)
{
  g_autoptr (FsPlanAnswer) answer = g_new0 (FsPlanAnswer, 1);
  answer->request = *request;
  answer->alternatives = g_array_new (FALSE, TRUE, sizeof (FsPlanCandidate));
  answer->nodes_needed = fs_node_shape_estimates_new ();
  answer->unmodelled = g_ptr_array_new_with_free_func (g_free);
  if (!gather_inputs (snapshot, answer, error) || !apply_overrides (snapshot, answer, error))
    return NULL;
  g_autofree char *what = g_strdup_printf ("%s/%s", fs_workload_kind_name (answer->workload->kind),
                                           answer->workload->name);
  if (!fs_shape_check_scheduler (snapshot, answer->workload->template, what, error))
    return NULL;
  FsHvpaOutput *out = &answer->hvpa.output;
  out->containers = answer->hvpa.results;
  fs_hvpa_decide (&answer->hvpa.input, request->semantics, out);
  if (!out->valid)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "the weight rules reject it: %s", out->error);
      return NULL;
    }
  answer->stage_weight = out->vertical_weight; /* 1 at maxReplicas when the HPA wants more */
  answer->next_sync_replicas = next_sync_replicas (answer);
  Planner planner;
  planner_init (&planner, snapshot, answer, memo);
  answer->recorded_pod = planner.base->recorded_pod;
  for (guint i = 0; i < planner.base->unmodelled->len; i++)
    g_ptr_array_add (answer->unmodelled, g_strdup (planner.base->unmodelled->pdata[i]));
  set_from_output (answer, &answer->current, FALSE);
  measure (&planner, &answer->current);
  if (request->has_proposal)
    {
      measure_proposal (&planner);
      if (request->proposal_first && answer->proposal.schedulable)
        {
          answer->partial = TRUE;
          planner_clear (&planner);
          return g_steal_pointer (&answer);
        }
    }
  set_from_output (answer, &answer->target, TRUE);
  measure (&planner, &answer->target);
  measure_demand (answer);
  score (&planner, &answer->current);
  score (&planner, &answer->target);
  build_steps (&planner);
  choose (&planner);
  round_patch (&planner);
  if (!answer->target.schedulable)
    target_pending (&planner);
  if (request->has_proposal)
    score (&planner, &answer->proposal);
  explain (answer);
  planner_clear (&planner);
  fs_plan_resize (snapshot, answer); /* in-place updates (issue 21, plan/resize.c) */
  return g_steal_pointer (&answer);
}

FsPlanAnswer *
fs_plan (const FsSnapshot *snapshot, const FsPlanRequest *request, GError **error)
{
  return plan (snapshot, NULL, request, error);
}

FsPlanAnswer *
fs_plan_shared (const FsSnapshot *snapshot, FsPlanMemo *memo, const FsPlanRequest *request, GError **error)
{
  /* a memo answers for its own snapshot only: another one's packings are stale here */
  if (memo != NULL && fs_plan_memo_snapshot (memo) != snapshot)
    memo = NULL;
  return plan (snapshot, memo, request, error);
}
