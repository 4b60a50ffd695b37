/* fitscale — diagnosing a Pending pod (see include/fitscale/why.h). */
#include "config.h"

#include <string.h>

#include "fitscale/model/fit.h"
#include "fitscale/plan/capacity.h"
#include "fitscale/plan/completeness.h"
#include "fitscale/model/volumes.h"
#include "fitscale/plan/why.h"
#include "fitscale/plan/shape.h"
#include "fitscale/model/schedconfig.h"
#include "fitscale/model/names.h"
#include "fitscale/model/nodeautoscaler.h"
#include "fitscale/kube/hpaspec.h"

static void
clear_fix (gpointer data)
{
  FsFix *fix = data;
  g_free (fix->text);
  g_free (fix->shape);
  if (fix->additions != NULL)
    g_array_unref (fix->additions);
  g_clear_pointer (&fix->uncordon, g_ptr_array_unref);
  g_clear_pointer (&fix->untaint, g_ptr_array_unref);
  g_clear_pointer (&fix->taints, g_ptr_array_unref);
  g_clear_pointer (&fix->label_nodes, g_ptr_array_unref);
  g_clear_pointer (&fix->containers, g_array_unref);
}

void
fs_diagnosis_free (FsDiagnosis *diagnosis)
{
  if (diagnosis == NULL)
    return;
  g_free (diagnosis->nodes);
  g_free (diagnosis->message);
  fs_preemption_clear (&diagnosis->preemption);
  g_array_unref (diagnosis->fixes);
  g_ptr_array_unref (diagnosis->unmodelled);
  g_ptr_array_unref (diagnosis->unmodelled_filters);
  fs_resize_diagnosis_free (diagnosis->resize);
  g_free (diagnosis->default_spread);
  g_free (diagnosis);
}

/* ---- messages ----------------------------------------------------------------------- */

/* Rewrites the phrasings older and newer kube-schedulers used into the current one. */
static char *
normalize_message (const char *message)
{
  g_autoptr (GString) text = g_string_new (message);
  /* 1.18-1.24: "node(s) had taint {k: v}, that the pod didn't tolerate" */
  g_autoptr (GRegex) old_taint = g_regex_new ("had taint (\\{[^}]*\\}), that the pod didn't tolerate",
                                              0, 0, NULL);
  g_autofree char *step1 = g_regex_replace (old_taint, text->str, -1, 0,
                                            "had untolerated taint \\1", 0, NULL);
  /* 1.35+: "node(s) had untolerated taint(s)" hides key and value: drop them everywhere */
  g_autoptr (GRegex) keyed = g_regex_new ("had untolerated taint \\{[^}]*\\}", 0, 0, NULL);
  g_autofree char *step2 = g_regex_replace (keyed, step1, -1, 0, "had untolerated taint(s)", 0, NULL);
  g_string_assign (text, step2);
  /* 1.24-1.29 appended the preemption part with an extra "." */
  while (text->len > 0 && (text->str[text->len - 1] == '.' || text->str[text->len - 1] == ' '))
    g_string_truncate (text, text->len - 1);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

gboolean
fs_messages_agree (const char *a, const char *b)
{
  if (a == NULL || b == NULL)
    return FALSE;
  g_autofree char *left = normalize_message (a);
  g_autofree char *right = normalize_message (b);
  return strcmp (left, right) == 0;
}

static void message_reasons (const char *message, gboolean volumes_known, GPtrArray *out);

void
fs_message_unmodelled_reasons (const char *message, GPtrArray *out)
{
  message_reasons (message, TRUE, out);
}

/* The reasons of MESSAGE that fitscale does not model, and when VOLUMES_KNOWN is FALSE (the
 * snapshot holds no PersistentVolumeClaims) those of the volume plugins too: it cannot judge
 * them. */
static void
message_reasons (const char *message, gboolean volumes_known, GPtrArray *out)
{
  if (message == NULL)
    return;
  g_autofree char *normal = normalize_message (message); /* one phrasing, no ", " in a taint */
  const char *body = strstr (normal, "are available: ");
  if (body == NULL)
    return;
  body += strlen ("are available: ");
  const char *preemption = strstr (body, " preemption: ");
  g_autofree char *reasons = preemption != NULL ? g_strndup (body, preemption - body) : g_strdup (body);
  g_strchomp (reasons);
  gsize len = strlen (reasons);
  if (len > 0 && reasons[len - 1] == '.')
    reasons[len - 1] = '\0';
  g_auto (GStrv) items = g_strsplit (reasons, ", ", -1);
  for (guint i = 0; items[i] != NULL; i++)
    {
      const char *reason = items[i];
      while (g_ascii_isdigit (*reason))  /* "3 Insufficient cpu"; PreFilter reasons have no count */
        reason++;
      while (*reason == ' ')
        reason++;
      if (*reason != '\0'
          && (!fs_fit_reason_is_modelled (reason) || (!volumes_known && fs_fit_reason_is_volume (reason))))
        g_ptr_array_add (out, g_strdup (reason));
    }
}

/* ---- facts about the pod ------------------------------------------------------------ */

static const char *
recorded_message (const FsSnapshot *snapshot, const FsPod *pod)
{
  if (pod->scheduled_message != NULL)
    return pod->scheduled_message;
  const FsEvent *latest = NULL;
  for (guint i = 0; i < snapshot->n_events; i++)
    {
      const FsEvent *event = &snapshot->events[i];
      if (g_strcmp0 (event->reason, "FailedScheduling") == 0
          && g_strcmp0 (event->involved_name, pod->name) == 0
          && g_strcmp0 (event->involved_namespace, pod->namespace) == 0
          && (latest == NULL || event->last_time >= latest->last_time))
        latest = event;
    }
  return latest != NULL ? latest->message : NULL;
}

static const FsPodMetrics *
find_metrics (const FsSnapshot *snapshot, const FsPod *pod)
{
  for (guint i = 0; i < snapshot->n_pod_metrics; i++)
    if (strcmp (snapshot->pod_metrics[i].name, pod->name) == 0
        && g_strcmp0 (snapshot->pod_metrics[i].namespace, pod->namespace) == 0)
      return &snapshot->pod_metrics[i];
  return NULL;
}

/* The average use of the pods with the same owner that report metrics. */
static void
sibling_usage (const FsSnapshot *snapshot, FsDiagnosis *diagnosis)
{
  const FsPod *pod = diagnosis->pod;
  int64_t memory = 0, cpu = 0, reporting = 0;
  diagnosis->sibling_usage_memory = diagnosis->sibling_usage_cpu = -1;
  if (pod->owner == NULL || snapshot->n_pod_metrics == 0)
    return;
  /* metrics by pod name in the pod's namespace */
  g_autoptr (GHashTable) by_name = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < snapshot->n_pod_metrics; i++)
    if (g_strcmp0 (snapshot->pod_metrics[i].namespace, pod->namespace) == 0)
      g_hash_table_insert (by_name, (gpointer) snapshot->pod_metrics[i].name,
                           (gpointer) &snapshot->pod_metrics[i]);
  for (guint i = 0; i < snapshot->n_pods; i++)
    {
      const FsPod *sibling = &snapshot->pods[i];
      if (sibling->owner != pod->owner || g_strcmp0 (sibling->namespace, pod->namespace) != 0)
        continue;
      const FsPodMetrics *metrics = g_hash_table_lookup (by_name, sibling->name);
      if (metrics == NULL)
        continue;
      reporting++;
      for (guint c = 0; c < metrics->n_containers; c++)
        {
          memory += metrics->containers[c].usage.memory_bytes;
          cpu += metrics->containers[c].usage.cpu_milli;
        }
    }
  if (reporting > 0)
    {
      diagnosis->sibling_usage_memory = memory / reporting;
      diagnosis->sibling_usage_cpu = cpu / reporting;
    }
}

/* ---- fixes -------------------------------------------------------------------------- */

/* A workload's kind as kubectl's resource names write it: deployment/NAME */
static const char *const workload_kinds[] = { "deployment", "statefulset", "replicaset" };

static FsFix *
add_fix (FsDiagnosis *diagnosis, FsFixKind kind, char *text)
{
  FsFix fix = { .kind = kind, .text = text };
  g_array_append_val (diagnosis->fixes, fix);
  return &g_array_index (diagnosis->fixes, FsFix, diagnosis->fixes->len - 1);
}

/* Where RES holds resource R (0 cpu, 1 memory), and what it holds. */
static int64_t *
amount_of (FsResources *res, int r)
{
  return r == 0 ? &res->cpu_milli : &res->memory_bytes;
}

static int64_t
amount_in (const FsResources *res, int r)
{
  return r == 0 ? res->cpu_milli : res->memory_bytes;
}

/* The amount of resource R (0 cpu, 1 memory) ENTRY sets. */
static int64_t *
amount_of_entry (FsFixContainer *entry, int r)
{
  return r == 0 ? &entry->cpu_milli : &entry->memory_bytes;
}

/* ENTRY for container NAME in OUT (added with nothing changed when new). */
static FsFixContainer *
fix_entry (GArray *out, const char *name, gboolean init)
{
  for (guint k = 0; k < out->len; k++)
    if (g_array_index (out, FsFixContainer, k).name == name)
      return &g_array_index (out, FsFixContainer, k);
  FsFixContainer fresh = { name, -1, -1, init };
  g_array_append_val (out, fresh);
  return &g_array_index (out, FsFixContainer, out->len - 1);
}

/* The containers' new requests that take the pod's effective request from NOW to at most
 * LOWERED (component-helpers/resource/helpers.go PodRequests: the app containers and the
 * sidecars summed, each init container's peak beside the sidecars started before it, the
 * larger of the two, plus the overhead): for each resource lowered, the app container asking
 * the most gives up what the sum is over, and each init container whose peak is over comes
 * down to it.  The result is checked with fs_pod_effective_request.  NULL when pod-level
 * requests set the resource or a container would have to go to 0. */
static GArray *
container_requests (const FsContainerSet *set, const FsResources *now, const FsResources *lowered)
{
  if (set == NULL || set->n_containers == 0)
    return NULL;
  g_autoptr (GArray) out = g_array_new (FALSE, TRUE, sizeof (FsFixContainer));
  g_autofree FsContainer *apps = g_memdup2 (set->containers, sizeof *apps * set->n_containers);
  g_autofree FsContainer *inits = g_memdup2 (set->init_containers, sizeof *inits * set->n_init);
  for (int r = 0; r < 2; r++)
    {
      int64_t target = amount_in (lowered, r);
      if (target == amount_in (now, r))
        continue;
      if (set->pod_level != NULL && (set->pod_level->present & (r == 0 ? FS_RES_CPU : FS_RES_MEMORY)))
        return NULL;
      if (set->overhead != NULL)
        target = fs_saturating_sub (target, amount_in (set->overhead, r));
      /* the app containers and the sidecars, summed: the largest app container gives up the rest */
      int64_t sum = 0;
      guint largest = 0;
      for (guint c = 0; c < set->n_containers; c++)
        {
          sum = fs_saturating_add (sum, *amount_of (&apps[c].requests, r));
          if (*amount_of (&apps[c].requests, r) > *amount_of (&apps[largest].requests, r))
            largest = c;
        }
      for (guint c = 0; c < set->n_init; c++)
        if (inits[c].restartable)
          sum = fs_saturating_add (sum, *amount_of (&inits[c].requests, r));
      if (sum > target)
        {
          int64_t *own = amount_of (&apps[largest].requests, r);
          if (*own - (sum - target) <= 0)
            return NULL;
          *own -= sum - target;
          *amount_of_entry (fix_entry (out, apps[largest].name, FALSE), r) = *own;
        }
      /* each init container's peak: its request beside the sidecars started before it */
      int64_t sidecars = 0;
      for (guint c = 0; c < set->n_init; c++)
        {
          int64_t *own = amount_of (&inits[c].requests, r);
          if (inits[c].restartable)
            sidecars = fs_saturating_add (sidecars, *own);
          else if (fs_saturating_add (*own, sidecars) > target)
            {
              if (target - sidecars <= 0)
                return NULL;
              *own = target - sidecars;
              *amount_of_entry (fix_entry (out, inits[c].name, TRUE), r) = *own;
            }
        }
    }
  FsResources after;
  if (out->len == 0
      || !fs_pod_effective_request (apps, set->n_containers, inits, set->n_init, set->pod_level, set->overhead,
                                    &after, NULL)
      || after.cpu_milli > lowered->cpu_milli || after.memory_bytes > lowered->memory_bytes)
    return NULL;
  return g_steal_pointer (&out);
}

/* The request lowered to what the roomiest node short only on cpu/memory has free. */
/* Memory rounded down to a whole Mi where LOWERED changed it from REQUEST, so that the
 * quantity a person reads and pastes is short and still fits ("5222Mi", not "5476363000";
 * "5.1Gi" would round up past it). */
static void
round_down_memory (FsResources *lowered, const FsResources *request)
{
  if (lowered->memory_bytes != request->memory_bytes && lowered->memory_bytes >= (1 << 20))
    lowered->memory_bytes -= lowered->memory_bytes % (1 << 20);
}

/* " cpu 500m, memory 3917Mi": the amounts LOWERED changed from REQUEST. */
static void
append_lowered (GString *text, const FsResources *lowered, const FsResources *request)
{
  char amount[32];
  const char *sep = " ";
  if (lowered->cpu_milli != request->cpu_milli)
    {
      g_string_append_printf (text, " cpu %s", fs_format_amount ("cpu", lowered->cpu_milli, amount));
      sep = ", ";
    }
  if (lowered->memory_bytes != request->memory_bytes)
    g_string_append_printf (text, "%smemory %s", sep, fs_format_amount ("memory", lowered->memory_bytes, amount));
}

/* How many of WORKLOAD's replicas fit with REQUEST in place of the pod's, the workload's pods
 * replaced (its template changes every one of them). */
static int64_t
replicas_at (const FsSnapshot *snapshot, const FsDiagnosis *diagnosis, const FsWorkload *workload,
             const FsResources *request)
{
  FsPodSpec spec = *diagnosis->shape.spec;
  spec.request = *request;
  FsPodShape shape = diagnosis->shape;
  shape.spec = &spec;
  FsPackOptions options = { .replicas = workload->replicas, .totals_only = TRUE };
  if (workload->selector != NULL)
    {
      options.exclude = fs_workload_owns_pod;
      options.exclude_data = (gpointer) workload;
      options.exclude_namespace = workload->namespace;
    }
  g_autofree FsNodeFit *fits = g_new0 (FsNodeFit, snapshot->n_nodes + 1);
  FsPackResult result;
  fs_pack (snapshot, &shape, &options, fits, &result);
  return result.placed;
}

/* AMOUNT scaled by PART / 2^20 (PART < 2^20), rounded down, at least 1. */
static int64_t
scaled (int64_t amount, int64_t part)
{
  return MAX (1, (int64_t) ((double) amount * (double) part / 1048576.0));
}

/* The largest request, below *FOR_ALL in the resources it lowers from REQUEST and by one
 * proportion, at which every replica of WORKLOAD fits (a binary search on that proportion in
 * 2^-20ths, 20 packings: fewer replicas fit as a request grows); FALSE when none does. */
static gboolean
request_for_all (const FsSnapshot *snapshot, const FsDiagnosis *diagnosis, const FsWorkload *workload,
                 const FsResources *request, FsResources *for_all)
{
  const FsResources top = *for_all;
  int64_t low = 0, high = 1 << 20; /* low holds them all (or is 0), high does not */
  while (high - low > 1)
    {
      int64_t mid = (low + high) / 2;
      FsResources trial = top;
      if (top.cpu_milli != request->cpu_milli)
        trial.cpu_milli = scaled (top.cpu_milli, mid);
      if (top.memory_bytes != request->memory_bytes)
        trial.memory_bytes = scaled (top.memory_bytes, mid);
      round_down_memory (&trial, request);
      if (replicas_at (snapshot, diagnosis, workload, &trial) >= workload->replicas)
        low = mid, *for_all = trial;
      else
        high = mid;
    }
  return low > 0;
}

static void
fix_lower_request (const FsSnapshot *snapshot, FsDiagnosis *diagnosis)
{
  const FsResources *request = &diagnosis->shape.spec->request;
  double best_ratio = -1;
  guint best = 0;
  FsResources best_request = *request;
  for (guint i = 0; i < snapshot->n_nodes; i++)
    {
      const FsVerdict *verdict = &diagnosis->nodes[i].verdict;
      if (verdict->filter != FS_FILTER_NODE_RESOURCES_FIT
          || (verdict->short_bits & ~(guint32) (FS_SHORT_CPU | FS_SHORT_MEMORY)))
        continue;
      FsResources lowered = *request;
      lowered.cpu_milli -= verdict->short_by.cpu_milli;
      lowered.memory_bytes -= verdict->short_by.memory_bytes;
      if (lowered.cpu_milli <= 0 && request->cpu_milli > 0)
        continue;
      if (lowered.memory_bytes <= 0 && request->memory_bytes > 0)
        continue;
      double ratio = MIN (request->cpu_milli > 0 ? (double) lowered.cpu_milli / request->cpu_milli : 1,
                          request->memory_bytes > 0
                              ? (double) lowered.memory_bytes / request->memory_bytes : 1);
      if (ratio > best_ratio)
        best_ratio = ratio, best = i, best_request = lowered;
    }
  if (best_ratio < 0)
    return;
  round_down_memory (&best_request, request);
  /* the owner's template changes every replica: the request must hold them all */
  const FsWorkload *workload = fs_snapshot_pod_workload (snapshot, diagnosis->pod);
  int64_t fit_one = workload != NULL ? replicas_at (snapshot, diagnosis, workload, &best_request) : 1;
  FsResources for_all = best_request;
  gboolean all = workload == NULL || fit_one >= workload->replicas
                 || request_for_all (snapshot, diagnosis, workload, request, &for_all);
  GString *text = g_string_new ("lower the request to");
  append_lowered (text, all ? &for_all : &best_request, request);
  if (workload == NULL || fit_one >= workload->replicas)
    g_string_append_printf (text, " or less: it fits on %s", snapshot->nodes[best].name);
  else if (all)
    {
      g_string_append_printf (text, " or less: all %d replicas of %s/%s fit then; at", workload->replicas,
                              workload_kinds[workload->kind], workload->name);
      append_lowered (text, &best_request, request);
      g_string_append_printf (text, " it fits on %s, but only %" G_GINT64_FORMAT " of the %d do",
                              snapshot->nodes[best].name, fit_one, workload->replicas);
      best_request = for_all;
    }
  else
    g_string_append_printf (text, " or less: it fits on %s, but only %" G_GINT64_FORMAT " of the %d replicas of "
                            "%s/%s fit at that request, and no lower request holds them all",
                            snapshot->nodes[best].name, fit_one, workload->replicas,
                            workload_kinds[workload->kind], workload->name);
  if (diagnosis->sibling_usage_memory >= 0)
    {
      char used[32], cpu[32];
      g_string_append_printf (text, " (its running siblings use %s memory and %s cpu on average)",
                              fs_format_for_people ("memory", diagnosis->sibling_usage_memory, used),
                              fs_format_for_people ("cpu", diagnosis->sibling_usage_cpu, cpu));
    }
  FsFix *fix = add_fix (diagnosis, FS_FIX_LOWER_REQUEST, g_string_free (text, FALSE));
  fix->request = best_request;
  fix->node = snapshot->nodes[best].name;
  fix->workload = workload;
  fix->bare = diagnosis->pod->owner == NULL;
  const FsContainerSet *containers = diagnosis->shape.spec->containers;
  if (containers != NULL && containers->n_containers == 1 && containers->n_init == 0)
    fix->container = containers->containers[0].name;
  fix->containers = container_requests (containers, request, &best_request);
  /* which containers change, when there are several; how a bare pod changes at all */
  GString *more = g_string_new (fix->text);
  char amount[32];
  gboolean name_them = fix->containers != NULL
                       && (containers->n_containers + containers->n_init > 1 || fix->containers->len > 1);
  for (guint i = 0; name_them && i < fix->containers->len; i++)
    {
      const FsFixContainer *entry = &g_array_index (fix->containers, FsFixContainer, i);
      g_string_append_printf (more, "%s %scontainer %s:", i == 0 ? "; by" : ", and", entry->init ? "init " : "",
                              entry->name);
      if (entry->cpu_milli >= 0)
        g_string_append_printf (more, " cpu %s", fs_format_exact ("cpu", entry->cpu_milli, amount));
      if (entry->memory_bytes >= 0)
        g_string_append_printf (more, " memory %s", fs_format_exact ("memory", entry->memory_bytes, amount));
    }
  if (fix->containers == NULL)
    g_string_append (more, containers != NULL && containers->pod_level != NULL
                               ? "; its pod-level requests (spec.resources) set that request: lower them in its manifest"
                               : "; no container can give that up without going to 0: lower the requests in its manifest");
  if (fix->bare)
    g_string_append (more, "; the pod has no owner, so its requests change only in a new pod: recreate it from its "
                           "manifest with them (kubectl replace --force deletes it and creates it again), and change "
                           "the manifest you apply too");
  g_free (fix->text);
  fix->text = g_string_free (more, FALSE);
}

static int64_t
pending_siblings (const FsSnapshot *snapshot, const FsPod *pod)
{
  int64_t pending = 0;
  for (guint i = 0; i < snapshot->n_pods; i++)
    {
      const FsPod *sibling = &snapshot->pods[i];
      if (sibling == pod || (pod->owner != NULL && sibling->owner == pod->owner
                             && g_strcmp0 (sibling->namespace, pod->namespace) == 0))
        pending += fs_pod_is_pending (sibling);
    }
  return MAX (pending, 1);
}

/* The owner's Pending pods that the room now leaves Pending. */
static int64_t
unplaced (const FsDiagnosis *diagnosis)
{
  return diagnosis->pending - MIN (diagnosis->room_for, diagnosis->pending);
}

/* Who adds nodes where ESTIMATE puts them: Karpenter's NodePool or GKE node
 * auto-provisioning (their pool labels), else Cluster Autoscaler when it runs
 * (fs_node_autoscaler_detect), else the provider's node group the copied node is in, or none. */
static const char *
add_nodes_provider (const FsSnapshot *snapshot, const FsNodeShapeEstimate *estimate)
{
  const FsNodeAddition *first = estimate->additions->len > 0 ? &g_array_index (estimate->additions, FsNodeAddition, 0) : NULL;
  const char *key = first != NULL ? first->pool_key : NULL;
  if (g_strcmp0 (key, "karpenter.sh/nodepool") == 0)
    return "karpenter";
  if (g_strcmp0 (key, "cloud.google.com/gke-nodepool") == 0 && g_str_has_prefix (first->pool, "nap-"))
    return "gke-auto-provisioning";
  if (fs_node_autoscaler_detect (snapshot) == FS_NODE_AUTOSCALER_FOUND_CLUSTER_AUTOSCALER)
    return "cluster-autoscaler";
  if (g_strcmp0 (key, "eks.amazonaws.com/nodegroup") == 0 || g_strcmp0 (key, "alpha.eksctl.io/nodegroup-name") == 0)
    return "eks-nodegroup";
  if (g_strcmp0 (key, "cloud.google.com/gke-nodepool") == 0)
    return "gke-nodepool";
  if (g_strcmp0 (key, "kubernetes.azure.com/agentpool") == 0 || g_strcmp0 (key, "agentpool") == 0)
    return "aks-nodepool";
  return "none";
}

/* What to change so that the nodes come, by who adds them (Karpenter's and GKE node
 * auto-provisioning's are said by fs_node_additions_text): no one command is right for every
 * provider, so the command is given only where the snapshot names all it needs. */
static const char *
add_nodes_advice (const char *provider)
{
  if (strcmp (provider, "cluster-autoscaler") == 0)
    return "; Cluster Autoscaler runs here and adds them itself for Pending pods, unless the node group is at "
           "its maximum size: if it has not, raise that maximum (the node group's max size, or the group's "
           "--nodes=MIN:MAX:NAME flag)";
  if (strcmp (provider, "eks-nodegroup") == 0)
    return "; no node autoscaler found: raise the EKS node group's desired size (eksctl scale nodegroup, or "
           "aws eks update-nodegroup-config --scaling-config)";
  if (strcmp (provider, "gke-nodepool") == 0)
    return "; no node autoscaler found: resize the GKE node pool (gcloud container clusters resize CLUSTER "
           "--node-pool POOL --num-nodes N, N per zone) or enable its autoscaling";
  if (strcmp (provider, "aks-nodepool") == 0)
    return "; no node autoscaler found: scale the AKS node pool (az aks nodepool scale --node-count N) or "
           "enable its cluster autoscaler";
  if (strcmp (provider, "none") == 0)
    return "; no node autoscaler or node group found in the snapshot: make them the way this cluster's nodes "
           "are made, with the labels and taints of the node copied";
  return "";
}

/* New nodes that let the owner's Pending pods land, of the shape that needs the fewest:
 * in the zones and pools where topology spread, affinity and taints let them land. */
static void
fix_add_nodes (const FsSnapshot *snapshot, FsDiagnosis *diagnosis)
{
  int64_t pending = diagnosis->pending;
  g_autoptr (GArray) estimates = fs_node_shape_estimates_new ();
  FsPackOptions options = { .replicas = pending };
  fs_estimate_new_nodes (snapshot, &diagnosis->shape, &options, estimates);
  const FsNodeShapeEstimate *best = NULL;
  for (guint i = 0; i < estimates->len; i++)
    {
      const FsNodeShapeEstimate *estimate = &g_array_index (estimates, FsNodeShapeEstimate, i);
      if (estimate->complete && estimate->nodes_needed > 0
          && (best == NULL || estimate->nodes_needed < best->nodes_needed))
        best = estimate;
    }
  if (best == NULL)
    return;
  g_autofree char *purpose = diagnosis->pod->owner == NULL
      ? g_strdup ("for this pod")
      : g_strdup_printf ("for the %" G_GINT64_FORMAT " Pending pod%s of this owner", pending, pending == 1 ? "" : "s");
  g_autofree char *nodes = fs_node_additions_text (best, purpose);
  const char *provider = add_nodes_provider (snapshot, best);
  FsFix *fix = add_fix (diagnosis, FS_FIX_ADD_NODES, g_strconcat ("add ", nodes, add_nodes_advice (provider), NULL));
  fix->count = best->nodes_needed;
  fix->shape = g_strdup (best->shape);
  fix->additions = g_array_ref (best->additions);
  fix->provider = provider;
  /* one eksctl node group: eksctl scale nodegroup is the command (its nodes name the cluster) */
  const FsNodeAddition *first = best->additions->len > 0 ? &g_array_index (best->additions, FsNodeAddition, 0) : NULL;
  const char *cluster = first != NULL && first->example != NULL
                        ? fs_labels_get (first->example->labels, "alpha.eksctl.io/cluster-name") : NULL;
  gboolean one_pool = first != NULL && first->pool != NULL && cluster != NULL;
  for (guint i = 1; one_pool && i < best->additions->len; i++)
    one_pool = g_strcmp0 (g_array_index (best->additions, FsNodeAddition, i).pool, first->pool) == 0;
  if (one_pool && g_strcmp0 (fix->provider, "eks-nodegroup") == 0)
    {
      fix->eksctl_cluster = cluster;
      fix->pool = first->pool;
      fix->pool_nodes = best->nodes_needed;
      for (guint i = 0; i < snapshot->n_nodes; i++)
        fix->pool_nodes += g_strcmp0 (fs_labels_get (snapshot->nodes[i].labels, first->pool_key), first->pool) == 0;
    }
}


/* "the 4 Pending ones do not fit", "2 of the 3 Pending ones do not fit" */
static char *
pending_clause (int64_t unfit, int64_t pending)
{
  if (unfit < pending)
    return g_strdup_printf ("%" G_GINT64_FORMAT " of the %" G_GINT64_FORMAT " Pending ones do%s not fit", unfit,
                            pending, unfit == 1 ? "es" : "");
  return g_strdup_printf ("the %" G_GINT64_FORMAT " Pending one%s not fit", pending,
                          pending == 1 ? " does" : "s do");
}

/* Fewer replicas, by the knob that holds: with an HPA scaling the workload its own replica
 * count is rewritten within the HPA's bounds, so the bound to lower is maxReplicas (and
 * minReplicas too when the target is below it); without one, the workload's replicas. */
static void
fix_lower_replicas (const FsSnapshot *snapshot, FsDiagnosis *diagnosis)
{
  const FsWorkload *workload = fs_snapshot_pod_workload (snapshot, diagnosis->pod);
  if (workload == NULL)
    return;
  int64_t unfit = unplaced (diagnosis);
  int64_t target = workload->replicas - unfit;
  if (target < 0 || target >= workload->replicas)
    return;
  g_autofree char *why = pending_clause (unfit, diagnosis->pending);
  const FsGenericObject *hpa = fs_snapshot_find_autoscaler (snapshot, FS_KIND_HPA, workload);
  int32_t min_replicas = 0, max_replicas = 0;
  char *text;
  if (hpa != NULL && fs_hpa_replicas_read (hpa->object, "spec.minReplicas", "spec.maxReplicas", "", &min_replicas,
                                           &max_replicas, NULL))
    {
      g_autofree char *bounds = target < min_replicas
          ? g_strdup_printf ("minReplicas from %d and maxReplicas from %d to %" G_GINT64_FORMAT, min_replicas,
                             max_replicas, target)
          : g_strdup_printf ("maxReplicas from %d to %" G_GINT64_FORMAT, max_replicas, target);
      text = g_strdup_printf ("lower HPA %s's %s (it scales %s/%s, now at %d replica%s): %s", hpa->name, bounds,
                              workload_kinds[workload->kind], workload->name, workload->replicas,
                              workload->replicas == 1 ? "" : "s", why);
    }
  else
    text = g_strdup_printf ("scale %s/%s from %d to %" G_GINT64_FORMAT " replica%s: %s", workload_kinds[workload->kind],
                            workload->name, workload->replicas, target, target == 1 ? "" : "s", why);
  FsFix *fix = add_fix (diagnosis, FS_FIX_LOWER_REPLICAS, text);
  fix->count = target;
  fix->workload = workload;
  if (hpa != NULL && max_replicas > 0)
    {
      fix->hpa = hpa->name;
      fix->lower_min = target < min_replicas;
    }
}

/* Nodes that only FILTER keeps the pod off, and that would take it without that filter. */
/* ---- fixes that open nodes a filter keeps the pod off -------------------------------- */

/* Whether the pod plausibly belongs on nodes tainted TAINT: it requests the resource the
 * taint is named for (nvidia.com/gpu), it aims at nodes by label (a node selector or
 * required node affinity, which the opened node must still pass), or it already tolerates
 * the key with another value or effect.  A Kafka pod is not offered the GPU pool. */
static gboolean
pod_may_belong (const FsPodSpec *spec, const FsTaint *taint)
{
  const FsPlacement *placement = spec->placement;
  if (fs_resources_get (&spec->request, taint->key) > 0)
    return TRUE;
  if (placement == NULL)
    return FALSE;
  if (placement->node_selector != NULL || placement->required_affinity != NULL)
    return TRUE;
  for (guint i = 0; placement->tolerations != NULL && i < placement->tolerations->n; i++)
    if (g_strcmp0 (placement->tolerations->items[i].key, taint->key) == 0)
      return TRUE;
  return FALSE;
}

typedef enum { DROP_CORDON, DROP_POOL_TAINTS } TaintDrop;

/* NODE's taints less those DROP removes among the ones the pod does not tolerate: the
 * cordon taint, or the taints of a pool the pod may belong to (never a taint of the node's
 * state).  The names of the removed ones go to REMOVED.  Caller frees. */
static FsTaintList *
taints_without (const FsNode *node, const FsPodSpec *spec, TaintDrop drop, GPtrArray *removed,
                GPtrArray *removed_taints)
{
  const FsTaintList *taints = node->taints;
  guint n = taints != NULL ? taints->n : 0;
  FsTaintList *kept = g_malloc0 (sizeof (FsTaintList) + n * sizeof (FsTaint));
  const FsTolerationList *tolerations = spec->placement != NULL ? spec->placement->tolerations : NULL;
  for (guint i = 0; i < n; i++)
    {
      const FsTaint *taint = &taints->items[i];
      gboolean rejects = (taint->effect == FS_EFFECT_NO_SCHEDULE || taint->effect == FS_EFFECT_NO_EXECUTE)
                         && !fs_tolerations_tolerate (tolerations, taint);
      gboolean dropped = rejects
                         && (drop == DROP_CORDON ? fs_taint_is_cordon (taint)
                                                 : !fs_taint_is_cordon (taint) && !fs_taint_is_node_state (taint)
                                                       && pod_may_belong (spec, taint));
      if (!dropped)
        kept->items[kept->n++] = *taint;
      else if (removed_taints != NULL)
        g_ptr_array_add (removed_taints, (gpointer) taint);
      if (dropped && removed != NULL)
        g_ptr_array_add (removed, g_strdup_printf ("%s%s%s:%s", taint->key, taint->value && *taint->value ? "=" : "",
                                                   taint->value ? taint->value : "",
                                                   taint->effect == FS_EFFECT_NO_EXECUTE ? "NoExecute" : "NoSchedule"));
    }
  return kept;
}

/* Whether the pod fits node I once RELAXED replaces it (and PLACEMENT the pod's own, when
 * not NULL). */
static gboolean
fits_relaxed (const FsSnapshot *snapshot, const FsDiagnosis *diagnosis, guint i, const FsNode *relaxed,
              const FsPlacement *placement)
{
  FsPodSpec spec = *diagnosis->shape.spec;
  if (placement != NULL)
    spec.placement = placement;
  FsPodShape shape = diagnosis->shape;
  shape.spec = &spec;
  FsNodeLoad load = fs_node_load (&snapshot->nodes[i]);
  FsVerdict verdict;
  return fs_fit_node (relaxed, &load, &shape, &verdict);
}

/* "a, b, c and 2 more" */
static void
append_names (GString *text, GPtrArray *names)
{
  for (guint i = 0; i < names->len && i < 5; i++)
    g_string_append_printf (text, "%s%s", i == 0 ? "" : ", ", (const char *) names->pdata[i]);
  if (names->len > 5)
    g_string_append_printf (text, " and %u more", names->len - 5);
}

/* Cordoned nodes (spec.unschedulable, the cordon taint, or both) with room: named, with how
 * each is cordoned, since `kubectl uncordon` clears the field and the node lifecycle
 * controller then removes the taint, while a taint set by hand stays until removed. */
static void
fix_uncordon (const FsSnapshot *snapshot, FsDiagnosis *diagnosis)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) uncordon = g_ptr_array_new ();
  g_autoptr (GPtrArray) untaint = g_ptr_array_new ();
  const char *first = NULL;
  for (guint i = 0; i < snapshot->n_nodes; i++)
    {
      FsFilter filter = diagnosis->nodes[i].verdict.filter;
      const FsNode *node = &snapshot->nodes[i];
      if (filter != FS_FILTER_NODE_UNSCHEDULABLE
          && !(filter == FS_FILTER_TAINT_TOLERATION && fs_taint_is_cordon (diagnosis->nodes[i].verdict.taint)))
        continue;
      g_autofree FsTaintList *taints = taints_without (node, diagnosis->shape.spec, DROP_CORDON, NULL, NULL);
      FsNode relaxed = *node;
      relaxed.taints = taints;
      relaxed.flags &= ~(guint32) FS_NODE_UNSCHEDULABLE;
      if (!fits_relaxed (snapshot, diagnosis, i, &relaxed, NULL))
        continue;
      gboolean field = (node->flags & FS_NODE_UNSCHEDULABLE) != 0, taint = FALSE;
      for (guint t = 0; node->taints != NULL && t < node->taints->n; t++)
        taint |= fs_taint_is_cordon (&node->taints->items[t]);
      g_ptr_array_add (names, g_strdup_printf ("%s (%s)", node->name,
                                               field && taint ? "spec.unschedulable and its taint"
                                               : field        ? "spec.unschedulable"
                                                              : "the node.kubernetes.io/unschedulable taint only: "
                                                                "remove it, kubectl uncordon does not"));
      g_ptr_array_add (field ? uncordon : untaint, (gpointer) node->name);
      first = first != NULL ? first : node->name;
    }
  if (names->len == 0)
    return;
  g_autoptr (GString) text = g_string_new ("uncordon ");
  append_names (text, names);
  g_string_append_printf (text, ": %u cordoned node%s would take the pod", names->len, names->len == 1 ? "" : "s");
  FsFix *fix = add_fix (diagnosis, FS_FIX_UNCORDON, g_string_free (g_steal_pointer (&text), FALSE));
  fix->node = first;
  fix->count = names->len;
  fix->uncordon = g_steal_pointer (&uncordon);
  fix->untaint = g_steal_pointer (&untaint);
}

/* Taints of a pool the pod may belong to, on nodes with room once they are tolerated. */
static void
fix_tolerate_taints (const FsSnapshot *snapshot, FsDiagnosis *diagnosis)
{
  g_autoptr (GHashTable) taints = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GPtrArray) tolerate = g_ptr_array_new ();
  int64_t opened = 0;
  for (guint i = 0; i < snapshot->n_nodes; i++)
    {
      if (diagnosis->nodes[i].verdict.filter != FS_FILTER_TAINT_TOLERATION)
        continue;
      g_autoptr (GPtrArray) removed = g_ptr_array_new_with_free_func (g_free);
      g_autoptr (GPtrArray) removed_taints = g_ptr_array_new ();
      g_autofree FsTaintList *kept = taints_without (&snapshot->nodes[i], diagnosis->shape.spec, DROP_POOL_TAINTS,
                                                     removed, removed_taints);
      FsNode relaxed = snapshot->nodes[i];
      relaxed.taints = kept;
      if (removed->len == 0 || !fits_relaxed (snapshot, diagnosis, i, &relaxed, NULL))
        continue;
      opened++;
      for (guint t = 0; t < removed->len; t++)
        if (g_hash_table_add (taints, g_strdup (removed->pdata[t])))
          g_ptr_array_add (tolerate, removed_taints->pdata[t]);
    }
  if (opened == 0)
    return;
  g_autofree char **keys = (char **) g_hash_table_get_keys_as_array (taints, NULL);
  g_autofree char *joined = g_strjoinv (", ", keys);
  FsFix *fix = add_fix (diagnosis, FS_FIX_TOLERATE_TAINT,
                        g_strdup_printf ("tolerate the taint%s %s: %" G_GINT64_FORMAT " tainted node%s would take the pod",
                                         g_hash_table_size (taints) == 1 ? "" : "s", joined, opened,
                                         opened == 1 ? "" : "s"));
  fix->shape = g_strdup (joined);
  fix->count = opened;
  fix->workload = fs_snapshot_pod_workload (snapshot, diagnosis->pod);
  fix->taints = g_steal_pointer (&tolerate);
}

/* Nodes with room that the node selector or required node affinity leaves out. */
static void
fix_relax_affinity (const FsSnapshot *snapshot, FsDiagnosis *diagnosis)
{
  int64_t opened = 0;
  g_autoptr (GPtrArray) label_nodes = g_ptr_array_new ();
  for (guint i = 0; i < snapshot->n_nodes; i++)
    {
      if (diagnosis->nodes[i].verdict.filter != FS_FILTER_NODE_AFFINITY)
        continue;
      FsPlacement placement = *diagnosis->shape.spec->placement;
      placement.node_selector = NULL, placement.required_affinity = NULL;
      if (fits_relaxed (snapshot, diagnosis, i, &snapshot->nodes[i], &placement))
        {
          opened++;
          g_ptr_array_add (label_nodes, (gpointer) snapshot->nodes[i].name);
        }
    }
  if (opened == 0)
    return;
  FsFix *fix = add_fix (diagnosis, FS_FIX_RELAX_AFFINITY,
                        g_strdup_printf ("relax the node selector or required node affinity: %" G_GINT64_FORMAT
                                         " node%s with room do%s not match it", opened, opened == 1 ? "" : "s",
                                         opened == 1 ? "es" : ""));
  fix->count = opened;
  /* a nodeSelector alone is met by labelling the nodes; required affinity terms are not, nor
   * labels the kubelet owns (a node relabelled with another's hostname breaks every spread
   * and anti-affinity over hostnames, and its kubelet sets it back) */
  const FsPlacement *own = diagnosis->shape.spec->placement;
  gboolean labellable = own->required_affinity == NULL && own->node_selector != NULL && own->node_selector->n > 0;
  for (guint i = 0; labellable && i < own->node_selector->n; i++)
    labellable = !fs_label_is_kubelet_owned (own->node_selector->items[i].key);
  if (labellable)
    fix->label_nodes = g_steal_pointer (&label_nodes);
  else if (own->required_affinity == NULL && own->node_selector != NULL)
    {
      g_autofree char *text = fix->text;
      fix->text = g_strconcat (text, "; its selector names a label the kubelet sets on each node itself, so change "
                               "the pod's selector, not the nodes' labels", NULL);
    }
}

/* ---- the diagnosis ------------------------------------------------------------------ */

static gboolean
is_the_pod (const FsPod *pod, gpointer data)
{
  return pod == data;
}

static void
measure_room (const FsSnapshot *snapshot, FsDiagnosis *diagnosis)
{
  const FsResources *request = &diagnosis->shape.spec->request;
  gboolean any = FALSE;
  for (guint i = 0; i < snapshot->n_nodes; i++)
    {
      FsFilter filter = diagnosis->nodes[i].verdict.filter;
      if (filter != FS_FILTER_PASS && filter != FS_FILTER_NODE_RESOURCES_FIT)
        continue;
      const FsNode *node = &snapshot->nodes[i];
      FsNodeLoad load = fs_node_load (node);
      FsResources free_res = fs_node_room (&node->allocatable, &load, NULL);
      fs_resources_floor_zero (&free_res); /* an overcommitted node lessens no other's room */
      fs_resources_add (&diagnosis->free_total, &free_res, NULL);
      if (!any)
        diagnosis->largest_free = free_res;
      else
        fs_resources_max (&diagnosis->largest_free, &free_res, NULL);
      any = TRUE;
    }
  /* every resource the pod requests counts (GPUs that exist nowhere are no room in total), and
   * a pod slot: nodes full of pods are no room in total whatever cpu they have free */
  diagnosis->room_in_total = any && !diagnosis->fits && fs_room_holds_pod (request, &diagnosis->free_total);
}

/* What stops the nodes from taking more than DIAGNOSIS->room_for replicas of its shape: the
 * pack's limit, or, when that is what the nodes have free, the resource the most nodes with
 * room run out of (ties: cpu, memory, ephemeral-storage, pods, then an extended resource). */
static const char *
room_limit (const FsDiagnosis *diagnosis, const FsPackResult *result)
{
  if (result->capacity <= 0)
    return NULL; /* the message says why none fits */
  if (result->limited_by != FS_PACK_LIMIT_RESOURCES)
    return fs_pack_limit_name (result->limited_by);
  static const struct { guint32 bit; const char *name; } order[] = {
    { FS_SHORT_CPU, "cpu" }, { FS_SHORT_MEMORY, "memory" },
    { FS_SHORT_EPHEMERAL, "ephemeral-storage" }, { FS_SHORT_PODS, "pods" },
  };
  guint counts[G_N_ELEMENTS (order) + 1] = { 0 };
  const char *extended = NULL;
  for (guint i = 0; i < diagnosis->n_nodes; i++)
    {
      const FsVerdict *limit = &diagnosis->nodes[i].limit;
      if (diagnosis->nodes[i].capacity <= 0 || limit->filter != FS_FILTER_NODE_RESOURCES_FIT)
        continue;
      for (gsize r = 0; r < G_N_ELEMENTS (order); r++)
        counts[r] += (limit->short_bits & order[r].bit) != 0;
      if (limit->short_by.n_extended > 0)
        {
          counts[G_N_ELEMENTS (order)]++;
          extended = extended != NULL ? extended : limit->short_by.extended[0].name;
        }
    }
  const char *name = "resources";
  guint best = 0;
  for (gsize r = 0; r <= G_N_ELEMENTS (order); r++)
    if (counts[r] > best)
      {
        best = counts[r];
        name = r < G_N_ELEMENTS (order) ? order[r].name : extended;
      }
  return name;
}

FsDiagnosis *
fs_diagnose (const FsSnapshot *snapshot, const FsPod *pod)
{
  FsDiagnosis *diagnosis = g_new0 (FsDiagnosis, 1);
  diagnosis->pod = pod;
  FsPodShape unjudged = { .namespace = pod->namespace, .labels = pod->labels, .spec = pod->spec,
                          .priority = pod->priority, .name = pod->name };
  const FsLabelSelector *owner_selector = NULL;
  for (guint i = 0; i < snapshot->n_workloads && owner_selector == NULL; i++)
    if (fs_workload_owns_pod (pod, (gpointer) &snapshot->workloads[i]))
      owner_selector = snapshot->workloads[i].selector;
  diagnosis->shape = fs_shape_judged (snapshot, &unjudged, owner_selector, &diagnosis->default_spread);
  diagnosis->n_nodes = snapshot->n_nodes;
  diagnosis->nodes = g_new0 (FsNodeFit, snapshot->n_nodes + 1);
  diagnosis->fixes = g_array_new (FALSE, TRUE, sizeof (FsFix));
  g_array_set_clear_func (diagnosis->fixes, clear_fix);
  diagnosis->unmodelled = g_ptr_array_new_with_free_func (g_free);
  diagnosis->unmodelled_filters = g_ptr_array_new ();
  fs_pod_spec_unmodelled_filters (pod->spec, diagnosis->unmodelled_filters);
  if (pod->node_name != NULL)
    {
      /* placed: what follows is its kubelet's, not the scheduler's */
      diagnosis->bound = TRUE;
      diagnosis->node = fs_snapshot_find_node (snapshot, pod->node_name);
      fs_kubelet_wait (pod, diagnosis->node, fs_kubelet_event (snapshot, pod), &diagnosis->kubelet);
      diagnosis->resize = fs_resize_diagnose (snapshot, pod);
      return diagnosis;
    }
  /* pkg/scheduler/framework/plugins/schedulinggates/scheduling_gates.go PreEnqueue: a pod
   * with a scheduling gate never enters the active queue, so no filter runs and no
   * FailedScheduling is written; whoever added a gate removes it */
  diagnosis->gated = pod->spec->n_scheduling_gates > 0;
  if (!fs_snapshot_knows_scheduler (snapshot, pod->spec))
    {
      const char *name = pod->spec->placement->scheduler_name;
      diagnosis->unknown_scheduler = name != NULL && name[0] != '\0' ? name : FS_DEFAULT_SCHEDULER_NAME;
      diagnosis->recorded = recorded_message (snapshot, pod);
      return diagnosis;
    }

  FsPackOptions options = { .replicas = 1, .exclude = is_the_pod, .exclude_data = (gpointer) pod,
                            .exclude_namespace = pod->namespace };
  FsPackResult result;
  fs_pack (snapshot, &diagnosis->shape, &options, diagnosis->nodes, &result);
  diagnosis->fits = result.capacity > 0;
  diagnosis->room_for = result.capacity;
  diagnosis->room_limit = room_limit (diagnosis, &result);
  diagnosis->pending = pending_siblings (snapshot, pod);
  diagnosis->volumes_unjudged = (snapshot->storage_kinds & FS_STORAGE_CLAIMS) == 0
                                && fs_pod_spec_uses_claims (pod->spec);
  diagnosis->recorded = recorded_message (snapshot, pod);
  message_reasons (diagnosis->recorded, (snapshot->storage_kinds & FS_STORAGE_CLAIMS) != 0,
                   diagnosis->unmodelled);
  diagnosis->usage = find_metrics (snapshot, pod);
  sibling_usage (snapshot, diagnosis);
  measure_room (snapshot, diagnosis);
  if (diagnosis->gated)
    {
      /* what room it would find once ungated is said (without preemption); nothing to fix */
      if (!diagnosis->fits)
        {
          g_autoptr (FsReasonCounts) counts = fs_reason_counts_new ();
          for (guint i = 0; i < snapshot->n_nodes; i++)
            fs_reason_counts_add_verdict (counts, &diagnosis->nodes[i].verdict);
          diagnosis->message = fs_fit_error_message (snapshot->n_nodes, counts, NULL);
        }
      return diagnosis;
    }

  if (!diagnosis->fits)
    {
      g_autoptr (FsReasonCounts) counts = fs_reason_counts_new ();
      for (guint i = 0; i < snapshot->n_nodes; i++)
        fs_reason_counts_add_verdict (counts, &diagnosis->nodes[i].verdict);
      /* the PostFilter: a preemption that succeeds nominates a node and adds no message */
      fs_preempt (snapshot, &diagnosis->shape, &options, pod->nominated_node, diagnosis->nodes,
                  &diagnosis->preemption);
      diagnosis->message = fs_fit_error_message (snapshot->n_nodes, counts, diagnosis->preemption.message);
      diagnosis->agrees = fs_messages_agree (diagnosis->message, diagnosis->recorded);
      fix_lower_request (snapshot, diagnosis);
      fix_add_nodes (snapshot, diagnosis);
      fix_lower_replicas (snapshot, diagnosis);
      fix_uncordon (snapshot, diagnosis);
      fix_tolerate_taints (snapshot, diagnosis);
      fix_relax_affinity (snapshot, diagnosis);
    }
  else if (unplaced (diagnosis) > 0)
    {
      /* it fits, but not every Pending pod of its owner does: fixes for the rest */
      fix_add_nodes (snapshot, diagnosis);
      fix_lower_replicas (snapshot, diagnosis);
    }
  return diagnosis;
}
