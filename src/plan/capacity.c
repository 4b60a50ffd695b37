/* fitscale — capacity answers (see include/fitscale/capacity.h). */
#include "config.h"

#include <string.h>

#include "fitscale/plan/capacity.h"
#include "fitscale/model/error.h"
#include "fitscale/plan/why.h"
#include "fitscale/plan/shape.h"

void
fs_capacity_answer_free (FsCapacityAnswer *answer)
{
  if (answer == NULL)
    return;
  g_free (answer->nodes);
  g_array_unref (answer->estimates);
  g_ptr_array_unref (answer->unmodelled);
  g_free (answer);
}

/* A node the shape may use: it passed every filter, or failed on resources alone, or takes
 * replicas once others landed (topology spread's skew rejects only the first). */
static gboolean
eligible (const FsNodeFit *fit)
{
  return fit->verdict.filter == FS_FILTER_PASS
         || fit->verdict.filter == FS_FILTER_NODE_RESOURCES_FIT || fit->capacity > 0;
}

static void
measure_fragmentation (const FsSnapshot *snapshot, const FsNodeLoad *loads,
                       FsCapacityAnswer *answer)
{
  gboolean first = TRUE;
  for (guint i = 0; i < snapshot->n_nodes; i++)
    {
      if (!eligible (&answer->nodes[i]))
        continue;
      const FsNode *node = &snapshot->nodes[i];
      FsResources free_res = fs_node_room (&node->allocatable, &loads[i], NULL);
      /* an overcommitted node has nothing free; it does not lessen the others' room */
      fs_resources_floor_zero (&free_res);
      answer->eligible_nodes++;
      fs_resources_add (&answer->free_total, &free_res, NULL);
      if (first)
        answer->largest_free = free_res;
      else
        fs_resources_max (&answer->largest_free, &free_res, NULL);
      first = FALSE;
    }
}

static FsPackOptions
pack_options (const FsWorkload *replacing, int64_t replicas)
{
  FsPackOptions options = { .replicas = replicas };
  if (replacing != NULL && replacing->selector != NULL)
    {
      options.exclude = fs_workload_owns_pod;
      options.exclude_data = (gpointer) replacing;
      options.exclude_namespace = replacing->namespace;
    }
  return options;
}

/* The volume plugins' reasons of a recorded message ("0/3 nodes are available: 1 node(s) had
 * volume node affinity conflict, ...").  A StatefulSet's replicas get their claims from its
 * volumeClaimTemplates, which fitscale does not read (docs/filters.md), so its template
 * answers cannot reproduce them. */
static void
volume_reasons (const char *message, GPtrArray *out)
{
  const char *body = strstr (message, "are available: ");
  if (body == NULL)
    return;
  body += strlen ("are available: ");
  const char *preemption = strstr (body, " preemption: ");
  g_autofree char *reasons = preemption != NULL ? g_strndup (body, preemption - body) : g_strdup (body);
  gsize len = strlen (g_strchomp (reasons));
  if (len > 0 && reasons[len - 1] == '.')
    reasons[len - 1] = '\0';
  g_auto (GStrv) items = g_strsplit (reasons, ", ", -1);
  for (guint i = 0; items[i] != NULL; i++)
    {
      const char *reason = items[i];
      while (g_ascii_isdigit (*reason) || *reason == ' ')
        reason++;
      if (fs_fit_reason_is_volume (reason))
        g_ptr_array_add (out, g_strdup (reason));
    }
}

const FsPod *
fs_workload_unmodelled (const FsSnapshot *snapshot, const FsWorkload *workload, GPtrArray *reasons)
{
  if (workload == NULL || workload->selector == NULL)
    return NULL;
  guint first, end;
  fs_snapshot_namespace_pods (snapshot, workload->namespace, &first, &end);
  for (guint i = first; i < end; i++)
    {
      const FsPod *pod = &snapshot->pods[i];
      if (pod->node_index >= 0 || pod->scheduled_message == NULL
          || !fs_workload_owns_pod (pod, (gpointer) workload))
        continue;
      guint before = reasons->len;
      fs_message_unmodelled_reasons (pod->scheduled_message, reasons);
      if (workload->kind == FS_WORKLOAD_STATEFULSET)
        volume_reasons (pod->scheduled_message, reasons);
      if (reasons->len > before)
        return pod;
    }
  return NULL;
}

guint
fs_capacity_replaced_pods (const FsSnapshot *snapshot, const FsWorkload *replacing)
{
  guint count = 0, first = 0, end = 0;
  if (replacing != NULL && replacing->selector != NULL)
    fs_snapshot_namespace_pods (snapshot, replacing->namespace, &first, &end);
  for (guint i = first; i < end; i++)
    count += snapshot->pods[i].node_index >= 0 && fs_pod_counts_on_node (&snapshot->pods[i])
             && fs_workload_owns_pod (&snapshot->pods[i], (gpointer) replacing);
  return count;
}

FsCapacityAnswer *
fs_capacity_answer (const FsSnapshot *snapshot, const FsPodShape *pod, int64_t replicas,
                    const FsWorkload *replacing)
{
  g_autofree FsSpreadList *default_spread = NULL;
  FsPodShape judged = fs_shape_judged (snapshot, pod, replacing != NULL ? replacing->selector : NULL,
                                       &default_spread);
  pod = &judged;
  FsCapacityAnswer *answer = g_new0 (FsCapacityAnswer, 1);
  answer->n_nodes = snapshot->n_nodes;
  answer->nodes = g_new0 (FsNodeFit, snapshot->n_nodes + 1);
  answer->estimates = fs_node_shape_estimates_new ();
  answer->unmodelled = g_ptr_array_new_with_free_func (g_free);
  answer->recorded_pod = fs_workload_unmodelled (snapshot, replacing, answer->unmodelled);
  FsPackOptions options = pack_options (replacing, replicas);
  fs_pack (snapshot, pod, &options, answer->nodes, &answer->pack);
  g_autofree FsNodeLoad *loads = g_new (FsNodeLoad, snapshot->n_nodes + 1);
  fs_pack_base_loads (snapshot, &options, loads);
  measure_fragmentation (snapshot, loads, answer);
  if (answer->pack.pending > 0)
    fs_estimate_new_nodes (snapshot, pod, &options, answer->estimates);
  return answer;
}

gboolean
fs_capacity_frontier (const FsSnapshot *snapshot, const FsPodShape *pod,
                      const FsWorkload *replacing, const char *name, int64_t from, int64_t to,
                      int64_t step, GArray *out, GError **error)
{
  if (step <= 0 || from < 0 || to < from || (to - from) / step > 100000)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_USAGE,
                   "a range FROM..TO/STEP needs 0 <= FROM <= TO, STEP > 0 and at most 100000 steps");
      return FALSE;
    }
  g_autofree FsSpreadList *default_spread = NULL;
  FsPodShape judged = fs_shape_judged (snapshot, pod, replacing != NULL ? replacing->selector : NULL,
                                       &default_spread);
  pod = &judged;
  FsPodSpec spec = *pod->spec;
  FsPodShape varied = *pod;
  varied.spec = &spec;
  g_autofree FsNodeFit *fits = g_new0 (FsNodeFit, snapshot->n_nodes + 1);
  g_autofree gboolean *usable = g_new0 (gboolean, snapshot->n_nodes + 1);
  gboolean simple = !fs_pack_needs_pods (snapshot, pod);
  FsPackOptions options = pack_options (replacing, -1);
  g_autofree FsNodeLoad *loads = g_new (FsNodeLoad, snapshot->n_nodes + 1);
  fs_pack_base_loads (snapshot, &options, loads);
  if (simple)
    fs_pack_usable_nodes (snapshot, pod, loads, usable);
  for (int64_t amount = from; amount <= to; amount += step)
    {
      if (!fs_resources_set (&spec.request, name, amount, error))
        return FALSE;
      FsFrontierPoint point = { .amount = amount };
      if (simple)
        for (guint i = 0; i < snapshot->n_nodes; i++)
          {
            if (!usable[i])
              continue;
            point.capacity += fs_resources_capacity_profile (&snapshot->nodes[i].allocatable, &loads[i],
                                                             &spec.request, pod->profile);
          }
      else
        {
          FsPackResult result;
          fs_pack (snapshot, &varied, &options, fits, &result);
          point.capacity = result.capacity;
        }
      g_array_append_val (out, point);
      if (amount > G_MAXINT64 - step)
        break;
    }
  return TRUE;
}

static const FsNodeAddition *
addition_at (const FsNodeShapeEstimate *estimate, guint i)
{
  return &g_array_index (estimate->additions, FsNodeAddition, i);
}

/* "up to 3 replicas per node" */
static void
append_replicas (GString *text, const FsNodeAddition *addition)
{
  gboolean varies = addition->count > 1 && addition->replicas != addition->replicas_per_node * addition->count;
  g_string_append_printf (text, "%s%" G_GINT64_FORMAT " replica%s per node", varies ? "up to " : "",
                          addition->replicas_per_node, addition->replicas_per_node == 1 ? "" : "s");
}

char *
fs_node_additions_text (const FsNodeShapeEstimate *estimate, const char *purpose)
{
  GString *text = g_string_new (NULL);
  guint n = estimate->additions->len;
  int64_t total = 0;
  gboolean same_pool = TRUE, same_replicas = TRUE;
  for (guint i = 0; i < n; i++)
    {
      total += addition_at (estimate, i)->count;
      same_pool = same_pool && g_strcmp0 (addition_at (estimate, i)->pool, addition_at (estimate, 0)->pool) == 0;
      same_replicas = same_replicas && addition_at (estimate, i)->replicas_per_node == addition_at (estimate, 0)->replicas_per_node
                      && addition_at (estimate, i)->replicas == addition_at (estimate, i)->replicas_per_node * addition_at (estimate, i)->count;
    }
  g_string_append_printf (text, "%" G_GINT64_FORMAT " node%s of shape %s", total, total == 1 ? "" : "s",
                          estimate->shape);
  /* one group: "... in zone a (pool p) PURPOSE, ..."; several: "... PURPOSE: 1 in zone a, ..." */
  if (n > 1 && purpose != NULL)
    g_string_append_printf (text, " %s", purpose);
  for (guint i = 0; i < n; i++)
    {
      const FsNodeAddition *addition = addition_at (estimate, i);
      if (n > 1)
        g_string_append_printf (text, "%s%" G_GINT64_FORMAT, i == 0 ? ": " : ", ", addition->count);
      if (addition->zone != NULL)
        g_string_append_printf (text, " in zone %s", addition->zone);
      if (addition->pool != NULL && (!same_pool || i == n - 1))
        g_string_append_printf (text, " (pool %s)", addition->pool);
      if (!same_replicas)
        {
          g_string_append (text, n > 1 ? " with " : ", ");
          append_replicas (text, addition);
        }
    }
  if (n <= 1 && purpose != NULL)
    g_string_append_printf (text, " %s", purpose);
  if (same_replicas && n > 0)
    {
      g_string_append (text, ", ");
      append_replicas (text, addition_at (estimate, 0));
    }
  if (estimate->uneven)
    g_string_append (text, "; uneven across zones: a new node in another zone lets fewer replicas land");
  /* Karpenter has NodePools, not node groups to resize: it adds nodes for Pending pods itself */
  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (addition_at (estimate, i)->pool_key, "karpenter.sh/nodepool") == 0)
      {
        g_string_append_printf (text, "; Karpenter's NodePool %s launches them itself for Pending pods: if it "
                                "has not, its spec.limits or requirements (instance types, zones) keep it from "
                                "them", addition_at (estimate, i)->pool);
        break;
      }
  /* GKE node auto-provisioning, which Autopilot runs for every cluster, names the node pools
   * it creates nap-...: it makes nodes and pools for Pending pods, there is none to resize */
  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (addition_at (estimate, i)->pool_key, "cloud.google.com/gke-nodepool") == 0
        && g_str_has_prefix (addition_at (estimate, i)->pool, "nap-"))
      {
        g_string_append_printf (text, "; node pool %s was made by GKE node auto-provisioning (as on Autopilot), "
                                "which creates nodes and node pools for Pending pods itself: if it has not, its "
                                "resource limits or the pod's requests (on Autopilot, its per-pod maximums) keep it "
                                "from them", addition_at (estimate, i)->pool);
        break;
      }
  return g_string_free (text, FALSE);
}
