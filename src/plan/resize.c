/* fitscale — in-place updates of a workload's pods, and why one pod's resize waits (see
 * include/fitscale/plan/resize.h). */
#include "config.h"

#include <string.h>

#include "fitscale/model/pack.h"
#include "fitscale/kube/hvpaspec.h"
#include "fitscale/plan/plan.h"
#include "fitscale/plan/resize.h"

const char *
fs_update_mode_name (FsUpdateMode mode)
{
  return mode == FS_UPDATE_IN_PLACE ? "in-place" : mode == FS_UPDATE_RECREATE ? "recreate" : "default";
}

gboolean
fs_update_mode_parse (const char *text, FsUpdateMode *mode)
{
  if (g_strcmp0 (text, "in-place") == 0)
    *mode = FS_UPDATE_IN_PLACE;
  else if (g_strcmp0 (text, "recreate") == 0)
    *mode = FS_UPDATE_RECREATE;
  else
    return FALSE;
  return TRUE;
}

const char *
fs_resize_outcome_name (FsResizeOutcome outcome)
{
  static const char *const names[] = { "unchanged", "in-place", "deferred", "evicted" };
  return (guint) outcome < G_N_ELEMENTS (names) ? names[outcome] : "unchanged";
}

/* ---- one pod with the target applied ---------------------------------------------------- */

static int64_t *
slot (FsResources *resources, int r)
{
  return r == FS_HVPA_CPU ? &resources->cpu_milli : &resources->memory_bytes;
}

/* POD's app containers with TARGET's requests and limits (by name) into PLAN->containers,
 * and its effective request so into PLAN->to. */
static void
apply_target (const FsPod *pod, const FsResizeTarget *target, FsPodResizePlan *plan)
{
  const FsContainerSet *set = pod->spec->containers;
  plan->n_containers = MIN (set->n_containers, FS_RESIZE_MAX_CONTAINERS);
  for (guint i = 0; i < plan->n_containers; i++)
    {
      FsContainer *container = &plan->containers[i];
      *container = set->containers[i];
      for (guint t = 0; t < target->n; t++)
        if (g_strcmp0 (target->names[t], container->name) == 0)
          for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
            {
              guint8 bit = r == FS_HVPA_CPU ? FS_RES_CPU : FS_RES_MEMORY;
              if (target->request[t][r] > 0)
                {
                  *slot (&container->requests, r) = target->request[t][r];
                  container->requests.present |= bit;
                }
              if (target->limit[t][r] > 0 && (container->limits.present & bit))
                *slot (&container->limits, r) = target->limit[t][r];
            }
    }
  if (!fs_pod_effective_request (plan->containers, plan->n_containers, set->init_containers, set->n_init,
                                 set->pod_level, set->overhead, &plan->to, NULL))
    plan->to = pod->spec->request;
}

static gboolean
counts_here (const FsPod *pod)
{
  return pod->node_index >= 0 && fs_pod_counts_on_node (pod);
}

/* ---- the kubelet, node by node -------------------------------------------------------- */

typedef struct {
  FsResources *allocated;     /* per node: what every counted pod is allocated */
  int64_t *n_pods;
} NodeTotals;

static void
node_totals (const FsSnapshot *snapshot, NodeTotals *totals)
{
  totals->allocated = g_new0 (FsResources, MAX (snapshot->n_nodes, 1));
  totals->n_pods = g_new0 (int64_t, MAX (snapshot->n_nodes, 1));
  for (guint p = 0; p < snapshot->n_pods; p++)
    {
      const FsPod *pod = &snapshot->pods[p];
      if (!counts_here (pod))
        continue;
      fs_resources_add (&totals->allocated[pod->node_index], fs_pod_allocated_request (pod), NULL);
      totals->n_pods[pod->node_index]++;
    }
}

static void
node_totals_clear (NodeTotals *totals)
{
  g_free (totals->allocated);
  g_free (totals->n_pods);
}

/* Runs the resizes of PODS (the workload's, all counted on some node) through each node's
 * kubelet: outcome, verdict and restarts set; TRUE when every pod took it in place. */
static gboolean
simulate (const FsSnapshot *snapshot, const NodeTotals *base, GArray *pods, gboolean evict_deferred)
{
  g_autofree FsResources *allocated = g_memdup2 (base->allocated, MAX (snapshot->n_nodes, 1) * sizeof (FsResources));
  g_autofree FsPendingResize *pending = g_new0 (FsPendingResize, MAX (pods->len, 1));
  gboolean all = TRUE;
  /* each node's pods, as lists threaded through NEXT (a node without any is skipped) */
  g_autofree guint *first = g_new (guint, MAX (snapshot->n_nodes, 1));
  g_autofree guint *next = g_new (guint, MAX (pods->len, 1));
  for (guint n = 0; n < snapshot->n_nodes; n++)
    first[n] = G_MAXUINT;
  for (guint i = pods->len; i-- > 0;)
    {
      guint n = (guint) g_array_index (pods, FsPodResizePlan, i).pod->node_index;
      next[i] = first[n];
      first[n] = i;
    }
  for (guint n = 0; n < snapshot->n_nodes; n++)
    {
      guint count = 0;
      for (guint i = first[n]; i != G_MAXUINT; i = next[i])
        {
          FsPodResizePlan *plan = &g_array_index (pods, FsPodResizePlan, i);
          plan->outcome = FS_RESIZE_UNCHANGED;
          memset (&plan->verdict, 0, sizeof plan->verdict);
          if (fs_resources_equal (&plan->from, &plan->to))
            continue;
          FsContainerSet after = *plan->pod->spec->containers;
          after.containers = plan->containers;
          pending[count++] = (FsPendingResize){
            .increasing = fs_resize_increases (&plan->from, &plan->to),
            .priority = plan->pod->priority,
            .guaranteed = fs_containers_guaranteed (&after),
            .pending_since = plan->pod->resize != NULL ? plan->pod->resize->pending_since : 0,
            .data = plan,
          };
        }
      if (count == 0)
        continue;
      /* allocation_manager.go retryPendingResizes: each pass in sortPendingResizes' order;
       * a pass that admits a resize may make room for one deferred before it */
      fs_resize_sort_pending (pending, count);
      const FsNode *node = &snapshot->nodes[n];
      g_autofree gboolean *done = g_new0 (gboolean, count);
      for (gboolean progress = TRUE; progress;)
        {
          progress = FALSE;
          for (guint k = 0; k < count; k++)
            {
              if (done[k])
                continue;
              FsPodResizePlan *plan = (FsPodResizePlan *) pending[k].data;
              FsResources others = allocated[n];
              fs_resources_sub (&others, &plan->from, NULL);
              FsContainerSet after = *plan->pod->spec->containers;
              after.containers = plan->containers;
              fs_resize_admit (node, &plan->to, &others, base->n_pods[n] - 1, plan->pod->spec->containers,
                               &after, NULL, &plan->verdict);
              if (plan->verdict.state == FS_RESIZE_DEFERRED)
                {
                  plan->outcome = FS_RESIZE_LEFT_DEFERRED;
                  continue;
                }
              done[k] = TRUE;
              progress = TRUE;
              fs_resources_sub (&allocated[n], &plan->from, NULL);
              if (plan->verdict.state == FS_RESIZE_INFEASIBLE)
                plan->outcome = FS_RESIZE_EVICTED; /* its room is freed when it goes */
              else
                {
                  plan->outcome = FS_RESIZE_RESIZED;
                  fs_resources_add (&allocated[n], &plan->to, NULL);
                  plan->restarts = fs_resize_restarts (plan->pod->spec->containers->containers,
                                                       plan->containers, plan->n_containers);
                }
            }
        }
      for (guint k = 0; k < count; k++)
        {
          FsPodResizePlan *plan = (FsPodResizePlan *) pending[k].data;
          all = all && plan->outcome == FS_RESIZE_RESIZED;
          if (plan->outcome == FS_RESIZE_LEFT_DEFERRED && evict_deferred)
            plan->outcome = FS_RESIZE_EVICTED;
        }
    }
  return all;
}

static gboolean
is_evicted (const FsPod *pod, gpointer data)
{
  GArray *pods = data;
  for (guint i = 0; i < pods->len; i++)
    if (g_array_index (pods, FsPodResizePlan, i).pod == pod)
      return g_array_index (pods, FsPodResizePlan, i).outcome == FS_RESIZE_EVICTED;
  return FALSE;
}

/* Where the evicted pods' replacements go: the scheduler places them on the nodes as the
 * resizes leave them, a resized pod counted at its new request and a Deferred one at the
 * larger of both (model/resize.h). */
static void
place_evicted (const FsSnapshot *snapshot, const FsWorkload *workload, const FsResizeTarget *target,
               FsResizePlan *plan)
{
  guint evicted = plan->counts[FS_RESIZE_EVICTED];
  if (evicted == 0 || snapshot->n_nodes == 0)
    return;
  g_autofree FsNodeLoad *loads = g_new0 (FsNodeLoad, snapshot->n_nodes);
  for (guint n = 0; n < snapshot->n_nodes; n++)
    {
      loads[n] = fs_node_load (&snapshot->nodes[n]);
      loads[n].released = is_evicted;
      loads[n].released_data = plan->pods;
    }
  for (guint i = 0; i < plan->pods->len; i++)
    {
      const FsPodResizePlan *pod = &g_array_index (plan->pods, FsPodResizePlan, i);
      FsNodeLoad *load = &loads[pod->pod->node_index];
      fs_resources_sub (&load->requested, fs_pod_request (pod->pod), NULL);
      FsResources held = pod->to;
      switch (pod->outcome)
        {
        case FS_RESIZE_EVICTED:
          load->pod_count--;
          continue;
        case FS_RESIZE_LEFT_DEFERRED:
          fs_resources_max (&held, &pod->from, NULL);
          break;
        case FS_RESIZE_UNCHANGED:
          held = *fs_pod_request (pod->pod);
          break;
        case FS_RESIZE_RESIZED:
        case FS_RESIZE_N_OUTCOMES:
        default:
          break;
        }
      fs_resources_add (&load->requested, &held, NULL);
    }
  /* one replica of the template with the target applied */
  FsPod example;
  memset (&example, 0, sizeof example);
  example.spec = workload->template;
  FsPodResizePlan shaped;
  memset (&shaped, 0, sizeof shaped);
  apply_target (&example, target, &shaped);
  FsPodSpec spec = *workload->template;
  spec.request = shaped.to;
  FsPodShape shape = { .namespace = workload->namespace, .labels = workload->template_labels,
                       .spec = &spec, .priority = 0, .name = NULL };
  FsPackOptions options = { .loads = loads, .replicas = evicted };
  g_autofree FsNodeFit *fits = g_new0 (FsNodeFit, snapshot->n_nodes + 1);
  FsPackResult result;
  fs_pack (snapshot, &shape, &options, fits, &result);
  guint n = 0;
  for (guint i = 0; i < plan->pods->len; i++)
    {
      FsPodResizePlan *pod = &g_array_index (plan->pods, FsPodResizePlan, i);
      if (pod->outcome != FS_RESIZE_EVICTED)
        continue;
      while (n < snapshot->n_nodes && fits[n].placed == 0)
        n++;
      if (n < snapshot->n_nodes)
        {
          pod->placed_on = &snapshot->nodes[n];
          fits[n].placed--;
        }
      else
        plan->unplaced++;
    }
}

/* The order to patch in: resizes that free room (no increase) first, then the others in the
 * order their kubelets admit them; the evicted, Deferred and unchanged last. */
static int
compare_order (gconstpointer a, gconstpointer b)
{
  const FsPodResizePlan *x = a, *y = b;
  int rank_x = x->outcome == FS_RESIZE_RESIZED ? (fs_resize_increases (&x->from, &x->to) ? 1 : 0) : 2;
  int rank_y = y->outcome == FS_RESIZE_RESIZED ? (fs_resize_increases (&y->from, &y->to) ? 1 : 0) : 2;
  if (rank_x != rank_y)
    return rank_x - rank_y;
  return (int) x->order - (int) y->order;
}

static GArray *
workload_pods (const FsSnapshot *snapshot, const FsWorkload *workload, const FsResizeTarget *target)
{
  GArray *pods = g_array_new (FALSE, TRUE, sizeof (FsPodResizePlan));
  guint first, end;
  fs_snapshot_namespace_pods (snapshot, workload->namespace, &first, &end);
  for (guint p = first; p < end; p++)
    {
      const FsPod *pod = &snapshot->pods[p];
      if (!counts_here (pod) || (pod->flags & FS_POD_TERMINATING)
          || !fs_workload_owns_pod (pod, (gpointer) workload))
        continue;
      FsPodResizePlan plan;
      memset (&plan, 0, sizeof plan);
      plan.pod = pod;
      plan.node = &snapshot->nodes[pod->node_index];
      plan.from = *fs_pod_allocated_request (pod);
      apply_target (pod, target, &plan);
      plan.order = pods->len;
      g_array_append_val (pods, plan);
    }
  return pods;
}

/* CURRENT + W (TARGET - CURRENT), per container and resource, rounded down. */
static void
interpolate (const FsResizeTarget *current, const FsResizeTarget *target, double w, FsResizeTarget *out)
{
  *out = *target;
  for (guint i = 0; i < target->n; i++)
    for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
      {
        int64_t from = i < current->n ? current->request[i][r] : target->request[i][r];
        int64_t amount = from + (int64_t) ((double) (target->request[i][r] - from) * w);
        /* memory in whole Mi, as a person would write it (never above the exact amount) */
        if (r == FS_HVPA_MEMORY && amount > 1024 * 1024 && amount != target->request[i][r])
          amount -= amount % (1024 * 1024);
        out->request[i][r] = amount;
        out->limit[i][r] = 0;
      }
}

FsResizePlan *
fs_resize_plan (const FsSnapshot *snapshot, const FsWorkload *workload, const FsResizeTarget *current,
                const FsResizeTarget *target, gboolean evict_deferred)
{
  FsResizePlan *plan = g_new0 (FsResizePlan, 1);
  plan->in_place = TRUE;
  plan->evict_deferred = evict_deferred;
  NodeTotals totals;
  node_totals (snapshot, &totals);
  plan->pods = workload_pods (snapshot, workload, target);
  gboolean all = simulate (snapshot, &totals, plan->pods, evict_deferred);
  for (guint i = 0; i < plan->pods->len; i++)
    {
      const FsPodResizePlan *pod = &g_array_index (plan->pods, FsPodResizePlan, i);
      plan->counts[pod->outcome]++;
      plan->restarts += pod->restarts;
    }
  place_evicted (snapshot, workload, target, plan);
  g_array_sort (plan->pods, compare_order);
  for (guint i = 0; i < plan->pods->len; i++)
    g_array_index (plan->pods, FsPodResizePlan, i).order = i;

  /* the largest step toward TARGET that every pod takes in place: a bisection on the
   * fraction of the way (the kubelet's verdicts are monotone in the requests) */
  if (all)
    {
      plan->has_largest = TRUE;
      plan->largest_weight = 1;
      plan->largest = *target;
    }
  else if (current != NULL)
    {
      double lo = 0, hi = 1;
      for (int step = 0; step < 20; step++)
        {
          double mid = (lo + hi) / 2;
          FsResizeTarget trial;
          interpolate (current, target, mid, &trial);
          g_autoptr (GArray) pods = workload_pods (snapshot, workload, &trial);
          gboolean ok = simulate (snapshot, &totals, pods, FALSE);
          for (guint i = 0; ok && i < pods->len; i++)
            ok = g_array_index (pods, FsPodResizePlan, i).outcome == FS_RESIZE_RESIZED
                 || g_array_index (pods, FsPodResizePlan, i).outcome == FS_RESIZE_UNCHANGED;
          if (ok)
            lo = mid;
          else
            hi = mid;
        }
      plan->has_largest = lo > 0;
      plan->largest_weight = lo;
      interpolate (current, target, lo, &plan->largest);
    }
  node_totals_clear (&totals);
  return plan;
}

void
fs_resize_costs (const FsSnapshot *snapshot, const FsWorkload *workload, const FsResizeTarget *targets, guint n,
                 gboolean evict_deferred, guint *evictions, guint *restarts)
{
  NodeTotals totals; /* one pass over the snapshot's pods for all N */
  node_totals (snapshot, &totals);
  for (guint t = 0; t < n; t++)
    {
      g_autoptr (GArray) pods = workload_pods (snapshot, workload, &targets[t]);
      simulate (snapshot, &totals, pods, evict_deferred);
      evictions[t] = restarts[t] = 0;
      for (guint i = 0; i < pods->len; i++)
        {
          const FsPodResizePlan *pod = &g_array_index (pods, FsPodResizePlan, i);
          evictions[t] += pod->outcome == FS_RESIZE_EVICTED;
          restarts[t] += pod->restarts;
        }
    }
  node_totals_clear (&totals);
}

void
fs_resize_plan_free (FsResizePlan *plan)
{
  if (plan == NULL)
    return;
  if (plan->pods != NULL)
    g_array_unref (plan->pods);
  g_free (plan);
}

/* ---- the planner's answer, in place --------------------------------------------------- */

gboolean
fs_plan_in_place (const FsPlanAnswer *answer, gboolean *evict_deferred)
{
  FsUpdateMode mode = (FsUpdateMode) answer->request.update;
  const char *vpa_mode = fs_vpa_update_mode (answer->hvpa.vpa);
  /* vertical-pod-autoscaler pkg/apis/autoscaling.k8s.io/v1 types.go UpdateModeInPlaceOrRecreate
   * (resize in place, evict when that fails) and UpdateModeInPlace (resize in place only) */
  gboolean vpa_in_place = g_strcmp0 (vpa_mode, "InPlaceOrRecreate") == 0 || g_strcmp0 (vpa_mode, "InPlace") == 0;
  *evict_deferred = g_strcmp0 (vpa_mode, "InPlace") != 0;
  return answer->workload != NULL && mode != FS_UPDATE_RECREATE && (mode != FS_UPDATE_DEFAULT || vpa_in_place);
}

void
fs_plan_resize_target (const FsPlanAnswer *answer, const FsPlanCandidate *candidate, FsResizeTarget *target)
{
  const FsHvpaInput *in = &answer->hvpa.input;
  memset (target, 0, sizeof *target);
  target->n = MIN (in->n_containers, FS_RESIZE_MAX_CONTAINERS);
  for (guint i = 0; i < target->n; i++)
    {
      target->names[i] = in->containers[i].name;
      for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
        {
          target->request[i][r] = candidate != NULL ? candidate->request[i][r] : in->containers[i].request[r];
          target->limit[i][r] = candidate != NULL ? candidate->limit[i][r] : 0;
        }
    }
}

void
fs_plan_resize (const FsSnapshot *snapshot, FsPlanAnswer *answer)
{
  gboolean evict_deferred;
  if (!fs_plan_in_place (answer, &evict_deferred))
    return;
  FsResizeTarget current, target;
  fs_plan_resize_target (answer, NULL, &current);
  fs_plan_resize_target (answer, &answer->plan, &target);
  answer->resize = fs_resize_plan (snapshot, answer->workload, &current, &target, evict_deferred);
  answer->resize->mode = (FsUpdateMode) answer->request.update;
  answer->resize->vpa_update_mode = fs_vpa_update_mode (answer->hvpa.vpa);
}

/* ---- why ------------------------------------------------------------------------------ */

static int
compare_holders (gconstpointer a, gconstpointer b)
{
  const FsResizeHolder *x = a, *y = b;
  return x->amount < y->amount ? 1 : x->amount > y->amount ? -1 : strcmp (x->pod->name, y->pod->name);
}

static int64_t
amount_of (const FsResources *res, const char *name)
{
  return strcmp (name, "cpu") == 0 ? res->cpu_milli
         : strcmp (name, "memory") == 0 ? res->memory_bytes
         : strcmp (name, "ephemeral-storage") == 0 ? res->ephemeral_bytes
         : strcmp (name, "pods") == 0 ? 1
         : fs_resources_get (res, name);
}

/* A node other than AWAY whose filters pass POD with the room it has now. */
static const FsNode *
node_for (const FsSnapshot *snapshot, const FsPod *pod, const FsNode *away)
{
  FsPodShape shape = { .namespace = pod->namespace, .labels = pod->labels, .spec = pod->spec,
                       .priority = pod->priority, .name = pod->name };
  for (guint n = 0; n < snapshot->n_nodes; n++)
    {
      const FsNode *node = &snapshot->nodes[n];
      if (node == away)
        continue;
      FsNodeLoad load = fs_node_load (node);
      FsVerdict verdict;
      if (fs_fit_node (node, &load, &shape, &verdict))
        return node;
    }
  return NULL;
}

FsResizeDiagnosis *
fs_resize_diagnose (const FsSnapshot *snapshot, const FsPod *pod)
{
  if (pod->resize == NULL || pod->node_index < 0)
    return NULL;
  FsResizeDiagnosis *diagnosis = g_new0 (FsResizeDiagnosis, 1);
  diagnosis->pod = pod;
  diagnosis->node = &snapshot->nodes[pod->node_index];
  diagnosis->recorded = pod->resize->state;
  diagnosis->desired = pod->resize->desired;
  diagnosis->allocated = pod->resize->allocated;
  diagnosis->holders = g_array_new (FALSE, TRUE, sizeof (FsResizeHolder));
  diagnosis->nodes_that_fit = g_ptr_array_new ();
  for (guint p = 0; p < snapshot->n_pods; p++)
    {
      const FsPod *other = &snapshot->pods[p];
      if (other == pod || other->node_index != pod->node_index || !fs_pod_counts_on_node (other))
        continue;
      fs_resources_add (&diagnosis->others, fs_pod_allocated_request (other), NULL);
      diagnosis->n_others++;
    }
  fs_resize_admit (diagnosis->node, &diagnosis->desired, &diagnosis->others, diagnosis->n_others,
                   NULL, NULL, NULL, &diagnosis->verdict);
  /* the shortfall per resource: what the new request needs beyond what is free */
  FsResources free_now = diagnosis->node->allocatable;
  fs_resources_sub (&free_now, &diagnosis->others, NULL);
  diagnosis->shortfall = diagnosis->desired;
  fs_resources_sub (&diagnosis->shortfall, &free_now, NULL);
  fs_resources_floor_zero (&diagnosis->shortfall);
  diagnosis->shortfall.pods = 0;
  diagnosis->shortfall.present &= (guint8) ~FS_RES_PODS;
  const char *resource = diagnosis->verdict.resource;
  if (diagnosis->verdict.state == FS_RESIZE_DEFERRED && resource != NULL)
    {
      int64_t need = diagnosis->verdict.requested + diagnosis->verdict.used - diagnosis->verdict.capacity;
      /* a request between what it holds and what is free fits now */
      diagnosis->fit_request = diagnosis->verdict.capacity - diagnosis->verdict.used;
      diagnosis->has_fit_request = diagnosis->fit_request > amount_of (&diagnosis->allocated, resource);
      const FsPod *best = NULL;
      int64_t best_amount = 0;
      for (guint p = 0; p < snapshot->n_pods; p++)
        {
          const FsPod *other = &snapshot->pods[p];
          if (other == pod || other->node_index != pod->node_index || !fs_pod_counts_on_node (other))
            continue;
          int64_t amount = amount_of (fs_pod_allocated_request (other), resource);
          FsResizeHolder holder = { other, amount };
          if (amount > 0)
            g_array_append_val (diagnosis->holders, holder);
          if (amount >= need && (best == NULL || amount < best_amount))
            {
              FsResources without = diagnosis->others;
              fs_resources_sub (&without, fs_pod_allocated_request (other), NULL);
              FsResizeVerdict check;
              fs_resize_admit (diagnosis->node, &diagnosis->desired, &without, diagnosis->n_others - 1,
                               NULL, NULL, NULL, &check);
              if (check.state == FS_RESIZE_IN_PROGRESS)
                {
                  best = other;
                  best_amount = amount;
                }
            }
        }
      g_array_sort (diagnosis->holders, compare_holders);
      diagnosis->move = best;
      if (best != NULL)
        diagnosis->move_to = node_for (snapshot, best, diagnosis->node);
    }
  for (guint n = 0; n < snapshot->n_nodes; n++)
    {
      const FsNode *node = &snapshot->nodes[n];
      if (node != diagnosis->node && diagnosis->desired.cpu_milli <= node->allocatable.cpu_milli
          && diagnosis->desired.memory_bytes <= node->allocatable.memory_bytes)
        g_ptr_array_add (diagnosis->nodes_that_fit, (gpointer) node);
    }
  return diagnosis;
}

void
fs_resize_diagnosis_free (FsResizeDiagnosis *diagnosis)
{
  if (diagnosis == NULL)
    return;
  g_array_unref (diagnosis->holders);
  g_ptr_array_unref (diagnosis->nodes_that_fit);
  g_free (diagnosis);
}
