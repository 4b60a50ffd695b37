/* fitscale — what a snapshot lacks for an answer (see include/fitscale/plan/completeness.h). */
#include "config.h"

#include <string.h>

#include "fitscale/kube/client.h"
#include "fitscale/model/daemon.h"
#include "fitscale/model/runtimeclass.h"
#include "fitscale/plan/completeness.h"
#include "fitscale/model/volumes.h"

/* Node agents (kube-proxy, the CNI, static control-plane pods) run in kube-system on every
 * distribution fitscale has seen: a snapshot of pods with none there was listed namespace by
 * namespace (kubectl get pods -n NS) and lacks what the other namespaces reserve. */
#define SYSTEM_NAMESPACE "kube-system"
#define NAMED_AT_MOST 3

static void
warning_free (gpointer data)
{
  g_free (((FsWarning *) data)->text);
}

static void
add (GArray *warnings, FsWarningKind kind, char *text)
{
  FsWarning warning = { kind, text };
  g_array_append_val (warnings, warning);
}

GArray *
fs_warnings_new (void)
{
  GArray *warnings = g_array_new (FALSE, TRUE, sizeof (FsWarning));
  g_array_set_clear_func (warnings, warning_free);
  return warnings;
}

void
fs_warnings_add (GArray *warnings, FsWarningKind kind, char *text)
{
  add (warnings, kind, text);
}

void
fs_warnings_take (GArray *warnings, GArray *more)
{
  for (guint i = 0; i < more->len; i++)
    g_array_append_val (warnings, g_array_index (more, FsWarning, i));
  g_array_set_clear_func (more, NULL);
  g_array_unref (more);
}

/* "a, b, c and 2 more" of the first NAMED_AT_MOST names. */
static char *
some_names (GPtrArray *names)
{
  g_autoptr (GString) text = g_string_new (NULL);
  for (guint i = 0; i < names->len && i < NAMED_AT_MOST; i++)
    g_string_append_printf (text, "%s%s", i == 0 ? "" : ", ", (const char *) names->pdata[i]);
  if (names->len > NAMED_AT_MOST)
    g_string_append_printf (text, " and %u more", names->len - NAMED_AT_MOST);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
check_missing_nodes (const FsSnapshot *snapshot, GArray *warnings)
{
  g_autoptr (GPtrArray) nodes = g_ptr_array_new ();
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  guint pods = 0;
  for (guint i = 0; i < snapshot->n_pods; i++)
    {
      const FsPod *pod = &snapshot->pods[i];
      if (pod->node_name == NULL || pod->node_index >= 0)
        continue;
      pods++;
      if (g_hash_table_add (seen, (gpointer) pod->node_name))
        g_ptr_array_add (nodes, (gpointer) pod->node_name);
    }
  if (pods == 0)
    return;
  g_autofree char *names = some_names (nodes);
  add (warnings, FS_WARNING_PODS_ON_MISSING_NODES,
       g_strdup_printf ("%u pod%s bound to %u node%s the snapshot does not hold (%s): those nodes are "
                        "left out of every answer; add them (kubectl get nodes -o json)",
                        pods, pods == 1 ? " is" : "s are", nodes->len, nodes->len == 1 ? "" : "s", names));
}

/* Nodes not Ready without the taint that keeps pods off them (fs_node_not_ready_untainted):
 * the scheduler reads taints, not conditions, so it places pods there until the taint comes;
 * the answers count them as it does, and say so. */
static void
check_not_ready_untainted (const FsSnapshot *snapshot, GArray *warnings)
{
  g_autoptr (GPtrArray) nodes = g_ptr_array_new ();
  for (guint i = 0; i < snapshot->n_nodes; i++)
    {
      const FsNode *node = &snapshot->nodes[i];
      if (fs_node_not_ready_untainted (node))
        g_ptr_array_add (nodes, (gpointer) node->name);
    }
  if (nodes->len == 0)
    return;
  g_autofree char *names = some_names (nodes);
  add (warnings, FS_WARNING_NOT_READY_UNTAINTED,
       g_strdup_printf ("%u node%s not Ready but without the node.kubernetes.io/not-ready or unreachable taint "
                        "(%s): the scheduler still places pods there, and so do capacity, plan and why, until the node "
                        "lifecycle controller taints %s, normally within seconds; if the taint never comes, check "
                        "kube-controller-manager", nodes->len, nodes->len == 1 ? " is" : "s are", names,
                        nodes->len == 1 ? "it" : "them"));
}

/* Pending pods whose volumes use PersistentVolumeClaims in a snapshot that read none (not
 * even an empty list): the volume filters (model/volumes.h) cannot judge them. */
static void
check_claims (const FsSnapshot *snapshot, GArray *warnings)
{
  if ((snapshot->storage_kinds & FS_STORAGE_CLAIMS) != 0)
    return;
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < snapshot->n_pods; i++)
    {
      const FsPod *pod = &snapshot->pods[i];
      if (fs_pod_is_pending (pod) && fs_pod_spec_uses_claims (pod->spec))
        g_ptr_array_add (names, g_strdup_printf ("%s/%s", pod->namespace, pod->name));
    }
  if (names->len == 0)
    return;
  g_autofree char *some = some_names (names);
  add (warnings, FS_WARNING_CLAIMS_MISSING,
       g_strdup_printf ("%u Pending pod%s PersistentVolumeClaims (%s) and the snapshot holds none: "
                        "VolumeBinding, VolumeRestrictions, NodeVolumeLimits and VolumeZone are not "
                        "checked for %s; add them (kubectl get pvc,pv,storageclass,csinode -A -o json)",
                        names->len, names->len == 1 ? " uses" : "s use", some,
                        names->len == 1 ? "it" : "them"));
}

/* TRUE when it warned. */
static gboolean
check_namespaces (const FsSnapshot *snapshot, GArray *warnings)
{
  if (snapshot->n_nodes == 0)
    return FALSE;
  if (snapshot->n_pods == 0)
    {
      add (warnings, FS_WARNING_NO_PODS,
           g_strdup ("the snapshot holds nodes but no pods: what running pods reserve is not counted, "
                     "so every node looks empty; add them (kubectl get pods -A -o json)"));
      return TRUE;
    }
  g_autoptr (GPtrArray) namespaces = g_ptr_array_new ();
  for (guint i = 0; i < snapshot->n_pods; i++)
    {
      const char *ns = snapshot->pods[i].namespace;
      if (g_strcmp0 (ns, SYSTEM_NAMESPACE) == 0)
        return FALSE;
      /* pods are sorted by namespace: a new one differs from the last seen */
      if (namespaces->len == 0 || g_strcmp0 (namespaces->pdata[namespaces->len - 1], ns) != 0)
        g_ptr_array_add (namespaces, (gpointer) ns);
    }
  g_autofree char *names = some_names (namespaces);
  add (warnings, FS_WARNING_NAMESPACES_MISSING,
       g_strdup_printf ("the snapshot holds the pods of %u namespace%s (%s) and none of " SYSTEM_NAMESPACE
                        ": pods of the namespaces it lacks still reserve room on the nodes; "
                        "give all of them (kubectl get pods -A -o json)",
                        namespaces->len, namespaces->len == 1 ? "" : "s", names));
  return TRUE;
}

/* ---- DaemonSets without a pod on a node they should run on ---------------------------- */

typedef struct {
  const FsPod *pod;          /* one of its pods, bound to a node of the snapshot if any is */
  GHashTable *nodes;         /* node names it has a pod on */
} DaemonPods;

static void
daemon_pods_free (gpointer data)
{
  DaemonPods *daemon = data;
  g_hash_table_unref (daemon->nodes);
  g_free (daemon);
}

/* A pod of a DaemonSet that is, or will be, on a node: bound, or Pending and pinned to one. */
static gboolean
is_daemon_pod (const FsPod *pod)
{
  return pod->owner != NULL && g_strcmp0 (pod->owner->kind, "DaemonSet") == 0
         && pod->phase != FS_PHASE_SUCCEEDED && pod->phase != FS_PHASE_FAILED && fs_daemon_pod_node (pod) != NULL;
}

/* The DaemonSets the pods name as their controller, "NAMESPACE/NAME" -> DaemonPods, in the
 * order first seen (ORDER). */
static GHashTable *
daemon_sets (const FsSnapshot *snapshot, GPtrArray *order)
{
  GHashTable *sets = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, daemon_pods_free);
  for (guint i = 0; i < snapshot->n_pods; i++)
    {
      const FsPod *pod = &snapshot->pods[i];
      if (!is_daemon_pod (pod))
        continue;
      char *key = g_strdup_printf ("%s/%s", pod->namespace, pod->owner->name);
      DaemonPods *daemon = g_hash_table_lookup (sets, key);
      if (daemon == NULL)
        {
          daemon = g_new0 (DaemonPods, 1);
          daemon->nodes = g_hash_table_new (g_str_hash, g_str_equal);
          g_hash_table_insert (sets, key, daemon);
          g_ptr_array_add (order, key);
        }
      else
        g_free (key);
      if (daemon->pod == NULL || (daemon->pod->node_index < 0 && pod->node_index >= 0))
        daemon->pod = pod;
      g_hash_table_add (daemon->nodes, (gpointer) fs_daemon_pod_node (pod));
    }
  return sets;
}

/* For each DaemonSet that has pods in the snapshot: the nodes of the snapshot where it should
 * run (model/daemon.h) and has none.  Its pods there may exist and be missing from the
 * snapshot (pods listed per node or per namespace), or be about to start. */
static void
check_daemon_pods (const FsSnapshot *snapshot, GArray *warnings)
{
  g_autoptr (GPtrArray) order = g_ptr_array_new ();
  g_autoptr (GHashTable) sets = daemon_sets (snapshot, order);
  for (guint d = 0; d < order->len; d++)
    {
      const DaemonPods *daemon = g_hash_table_lookup (sets, order->pdata[d]);
      g_autoptr (GPtrArray) missing = g_ptr_array_new ();
      for (guint n = 0; n < snapshot->n_nodes; n++)
        {
          const FsNode *node = &snapshot->nodes[n];
          if (!g_hash_table_contains (daemon->nodes, node->name) && fs_daemon_should_run (node, daemon->pod))
            g_ptr_array_add (missing, (gpointer) node->name);
        }
      if (missing->len == 0)
        continue;
      g_autofree char *names = some_names (missing);
      add (warnings, FS_WARNING_DAEMON_PODS_MISSING,
           g_strdup_printf ("DaemonSet %s has no pod on %u node%s where it should run (%s): what its pods "
                            "reserve there is not counted; give every node's pods (kubectl get pods -A -o json)",
                            (const char *) order->pdata[d], missing->len, missing->len == 1 ? "" : "s", names));
    }
}

/* ---- Lists from one-namespace queries -------------------------------------------------- */

/* Pods read from Lists of one namespace each, and no List of all namespaces: the pods of
 * the namespaces no List covered are missing (kubectl get pods -n NS gives one namespace). */
static void
check_namespaced_lists (const FsSnapshot *snapshot, GArray *warnings)
{
  if (snapshot->n_namespaced_lists == 0 || snapshot->n_cluster_pod_lists > 0)
    return;
  g_autoptr (GPtrArray) lists = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < snapshot->n_namespaced_lists; i++)
    {
      const FsNamespacedList *list = &snapshot->namespaced_lists[i];
      if (g_hash_table_add (seen, (gpointer) list->namespace))
        g_ptr_array_add (lists, g_strdup_printf ("%s (%s, by its %s)", list->namespace, list->source,
                                                 list->by_self_link ? "selfLink" : "items"));
    }
  gboolean by_items = FALSE;
  for (guint i = 0; i < snapshot->n_namespaced_lists; i++)
    by_items = by_items || !snapshot->namespaced_lists[i].by_self_link;
  g_autofree char *names = some_names (lists);
  gboolean one = lists->len == 1;
  add (warnings, FS_WARNING_NAMESPACED_LIST,
       g_strdup_printf ("the snapshot's pods come from %s of one namespace's pods%s, %s: %s "
                        "(kubectl get pods -n NS)%s; the pods of other namespaces still reserve room on the nodes; "
                        "give all of them (kubectl get pods -A -o json)",
                        one ? "a List" : "Lists", one ? "" : " each", names,
                        one ? "the answer to a one-namespace query" : "answers to one-namespace queries",
                        by_items ? ", unless no other namespace runs pods" : ""));
}

/* ---- workloads with fewer pods than their status counts -------------------------------- */

static char *
owner_key (const char *namespace, const char *kind, const char *name)
{
  return g_strdup_printf ("%s/%s/%s", namespace, kind, name);
}

/* Whether POD is one its controller counts in status.replicas: not Succeeded or Failed
 * (bound or not). */
static gboolean
is_active (const FsPod *pod)
{
  return pod->phase != FS_PHASE_SUCCEEDED && pod->phase != FS_PHASE_FAILED;
}

/* "NAMESPACE/KIND/NAME" of a controller -> how many of its pods are active (counted by
 * pointer first: one string per controller, not per pod). */
static GHashTable *
pods_per_owner (const FsSnapshot *snapshot)
{
  g_autoptr (GHashTable) by_pointer = g_hash_table_new_full (fs_pod_group_key_hash, fs_pod_group_key_equal, g_free, g_free);
  for (guint i = 0; i < snapshot->n_pods; i++)
    {
      const FsPod *pod = &snapshot->pods[i];
      if (pod->owner == NULL || !is_active (pod))
        continue;
      FsPodGroupKey key = { pod->namespace, pod->owner, NULL };
      guint *count = g_hash_table_lookup (by_pointer, &key);
      if (count == NULL)
        {
          count = g_new0 (guint, 1);
          g_hash_table_insert (by_pointer, g_memdup2 (&key, sizeof key), count);
        }
      (*count)++;
    }
  GHashTable *counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GHashTableIter iter;
  gpointer data, count;
  g_hash_table_iter_init (&iter, by_pointer);
  while (g_hash_table_iter_next (&iter, &data, &count))
    {
      const FsPodGroupKey *key = data;
      char *name = owner_key (key->namespace, key->owner->kind, key->owner->name);
      guint before = GPOINTER_TO_UINT (g_hash_table_lookup (counts, name));
      g_hash_table_replace (counts, name, GUINT_TO_POINTER (before + *(guint *) count));
    }
  return counts;
}

/* The pods in the snapshot of WORKLOAD: those it controls (ReplicaSet, StatefulSet); for a
 * Deployment, those its selector picks in its namespace. */
static guint
workload_pods (const FsSnapshot *snapshot, const FsWorkload *workload, GHashTable *per_owner)
{
  if (workload->kind != FS_WORKLOAD_DEPLOYMENT)
    {
      g_autofree char *key = owner_key (workload->namespace, fs_workload_kind_name (workload->kind), workload->name);
      return GPOINTER_TO_UINT (g_hash_table_lookup (per_owner, key));
    }
  guint count = 0, first, end;
  fs_snapshot_namespace_pods (snapshot, workload->namespace, &first, &end);
  for (guint i = first; i < end; i++)
    count += is_active (&snapshot->pods[i]) && fs_workload_owns_pod (&snapshot->pods[i], (gpointer) workload);
  return count;
}

/* Whether a ReplicaSet of the snapshot belongs to DEPLOYMENT (then the ReplicaSets are checked,
 * not the Deployment). */
static gboolean
has_replica_sets (const FsSnapshot *snapshot, const FsWorkload *deployment)
{
  for (guint i = 0; i < snapshot->n_workloads; i++)
    {
      const FsWorkload *workload = &snapshot->workloads[i];
      if (workload->kind == FS_WORKLOAD_REPLICASET && workload->owner != NULL
          && g_strcmp0 (workload->owner->kind, "Deployment") == 0
          && g_strcmp0 (workload->owner->name, deployment->name) == 0
          && g_strcmp0 (workload->namespace, deployment->namespace) == 0)
        return TRUE;
    }
  return FALSE;
}

static void
check_workload_pods (const FsSnapshot *snapshot, GArray *warnings)
{
  if (snapshot->n_workloads == 0)
    return;
  g_autoptr (GHashTable) per_owner = pods_per_owner (snapshot);
  g_autoptr (GPtrArray) short_of = g_ptr_array_new_with_free_func (g_free);
  guint missing_pods = 0;
  for (guint i = 0; i < snapshot->n_workloads; i++)
    {
      const FsWorkload *workload = &snapshot->workloads[i];
      if (workload->status_replicas <= 0
          || (workload->kind == FS_WORKLOAD_DEPLOYMENT && has_replica_sets (snapshot, workload)))
        continue;
      guint have = workload_pods (snapshot, workload, per_owner);
      if (have >= (guint) workload->status_replicas)
        continue;
      missing_pods += (guint) workload->status_replicas - have;
      g_ptr_array_add (short_of, g_strdup_printf ("%s %s/%s has %u of %d", fs_workload_kind_name (workload->kind),
                                                  workload->namespace, workload->name, have,
                                                  workload->status_replicas));
    }
  if (short_of->len == 0)
    return;
  g_autofree char *names = some_names (short_of);
  add (warnings, FS_WARNING_WORKLOAD_PODS_MISSING,
       g_strdup_printf ("%u workload%s count%s more pods in status.replicas than the snapshot holds (%s): "
                        "%u pod%s missing, and what %s reserve%s is not counted; give all pods "
                        "(kubectl get pods -A -o json)",
                        short_of->len, short_of->len == 1 ? "" : "s", short_of->len == 1 ? "s" : "", names,
                        missing_pods, missing_pods == 1 ? " is" : "s are", missing_pods == 1 ? "it" : "they",
                        missing_pods == 1 ? "s" : ""));
}

GArray *
fs_snapshot_warnings (const FsSnapshot *snapshot, guint needs)
{
  GArray *warnings = fs_warnings_new ();
  if ((needs & FS_NEEDS_NODES) && snapshot->n_nodes == 0)
    add (warnings, FS_WARNING_NO_NODES,
         g_strdup ("the snapshot holds no nodes: nothing can be placed; add them (kubectl get nodes -o json)"));
  if (needs & (FS_NEEDS_NODES | FS_NEEDS_NODE_USAGE))
    check_missing_nodes (snapshot, warnings);
  if (needs & FS_NEEDS_NODES)
    check_not_ready_untainted (snapshot, warnings);
  if (needs & FS_NEEDS_NODE_USAGE)
    {
      /* a List of one namespace is named unless the namespaces missing already are */
      if (!check_namespaces (snapshot, warnings))
        check_namespaced_lists (snapshot, warnings);
      check_daemon_pods (snapshot, warnings);
      check_workload_pods (snapshot, warnings);
    }
  if (needs & FS_NEEDS_NODES)
    check_claims (snapshot, warnings);
  return warnings;
}

/* ---- what a command's question needs -------------------------------------------------- */

static void
add_target_missing (GArray *warnings, const FsHpaSpec *hpa)
{
  FsWorkloadKind kind;
  if (hpa->target_kind != NULL && !fs_workload_kind_parse (hpa->target_kind, &kind))
    {
      add (warnings, FS_WARNING_TARGET_MISSING,
           g_strdup_printf ("HorizontalPodAutoscaler %s/%s scales %s %s, a kind fitscale does not read "
                            "(it reads Deployments, StatefulSets and ReplicaSets): its pods, their requests and its "
                            "replicas are not known", hpa->namespace, hpa->name, hpa->target_kind,
                            hpa->target_name != NULL ? hpa->target_name : "(none)"));
      return;
    }
  add (warnings, FS_WARNING_TARGET_MISSING,
       g_strdup_printf ("HorizontalPodAutoscaler %s/%s scales %s %s, which the snapshot does not hold: its pods, "
                        "their requests and its replicas are not known; add it (kubectl get %s -n %s -o json)",
                        hpa->namespace, hpa->name, hpa->target_kind != NULL ? hpa->target_kind : "(none)",
                        hpa->target_name != NULL ? hpa->target_name : "(none)",
                        hpa->target_kind != NULL ? hpa->target_kind : "all", hpa->namespace));
}

/* "cpu", "container app cpu", "pods metric requests_per_second", ... */
static char *
metric_name (const FsHpaMetricSpec *metric)
{
  switch (metric->type)
    {
    case FS_HPA_METRIC_CONTAINER_RESOURCE:
      return g_strdup_printf ("%s of container %s", metric->name, metric->container);
    case FS_HPA_METRIC_PODS:
      return g_strdup_printf ("Pods metric %s", metric->name);
    case FS_HPA_METRIC_OBJECT:
      return g_strdup_printf ("Object metric %s of %s %s", metric->name, metric->object_kind, metric->object_name);
    case FS_HPA_METRIC_EXTERNAL:
      return g_strdup_printf ("External metric %s", metric->name);
    case FS_HPA_METRIC_RESOURCE:
    default:
      return g_strdup_printf ("%s", metric->name);
    }
}

/* Where a metric's values come from, for the hint. */
static const char *
metric_source_hint (const FsHpaMetricSpec *metric)
{
  switch (metric->type)
    {
    case FS_HPA_METRIC_RESOURCE:
    case FS_HPA_METRIC_CONTAINER_RESOURCE:
      return "PodMetrics of its pods (kubectl get --raw /apis/metrics.k8s.io/v1beta1/pods)";
    case FS_HPA_METRIC_EXTERNAL:
      return "its ExternalMetricValueList (kubectl get --raw /apis/external.metrics.k8s.io/v1beta1/...)";
    default:
      return "its MetricValueList (kubectl get --raw /apis/custom.metrics.k8s.io/v1beta2/...)";
    }
}

GArray *
fs_hpa_answer_warnings (const FsHpaAnswer *answer)
{
  GArray *warnings = fs_warnings_new ();
  const FsHpaSpec *hpa = &answer->hpa;
  if (answer->target == NULL)
    add_target_missing (warnings, hpa);
  for (guint i = 0; i < answer->n_metrics; i++)
    {
      const FsHpaMetricAnswer *metric = &answer->metrics[i];
      if (metric->source != FS_HPA_SOURCE_NONE && metric->source != FS_HPA_SOURCE_STATUS)
        continue;
      g_autofree char *name = metric_name (metric->spec);
      if (metric->source == FS_HPA_SOURCE_NONE)
        add (warnings, FS_WARNING_METRICS_MISSING,
             g_strdup_printf ("metric %s of HorizontalPodAutoscaler %s/%s has no value, neither in the snapshot "
                              "nor in the HPA's status: it proposes nothing; add %s",
                              name, hpa->namespace, hpa->name, metric_source_hint (metric->spec)));
      else
        add (warnings, FS_WARNING_METRICS_MISSING,
             g_strdup_printf ("metric %s of HorizontalPodAutoscaler %s/%s is read from the HPA's status "
                              "(status.currentMetrics), as recorded at its last sync, for want of %s",
                              name, hpa->namespace, hpa->name, metric_source_hint (metric->spec)));
    }
  return warnings;
}

GArray *
fs_hpa_target_warnings (const FsSnapshot *snapshot, const FsHpaSpec *hpa)
{
  GArray *warnings = fs_warnings_new ();
  if (fs_snapshot_find_workload (snapshot, hpa->namespace, hpa->target_kind, hpa->target_name) == NULL)
    add_target_missing (warnings, hpa);
  return warnings;
}

GArray *
fs_hvpa_answer_warnings (const FsHvpaAnswer *answer)
{
  GArray *warnings = fs_warnings_new ();
  const FsGenericObject *hvpa = answer->hvpa;
  const char *missing = answer->hpa == NULL && answer->vpa == NULL ? "neither the HorizontalPodAutoscaler nor the "
                                                                     "VerticalPodAutoscaler"
                        : answer->hpa == NULL ? "not the HorizontalPodAutoscaler"
                        : answer->vpa == NULL ? "not the VerticalPodAutoscaler"
                                              : NULL;
  if (hvpa != NULL && missing != NULL)
    add (warnings, FS_WARNING_AUTOSCALER_MISSING,
         g_strdup_printf ("the snapshot holds %s that Hvpa %s/%s manages: what it recommends and its replicas "
                          "are not known, and the answer starts from none; add them (kubectl get hpa,vpa -n %s -o json)",
                          missing, hvpa->namespace, hvpa->name, hvpa->namespace));
  return warnings;
}

GArray *
fs_plan_answer_warnings (const FsPlanAnswer *answer)
{
  return answer->from_hvpa ? fs_hvpa_answer_warnings (&answer->hvpa) : fs_warnings_new ();
}

#define FORBIDDEN_PREFIX FS_KUBE_FORBIDDEN_PREFIX

GArray *
fs_listing_warnings (const GPtrArray *skipped)
{
  GArray *warnings = fs_warnings_new ();
  for (guint i = 0; skipped != NULL && i < skipped->len; i++)
    {
      const char *name = skipped->pdata[i];
      if (g_str_has_prefix (name, FORBIDDEN_PREFIX))
        add (warnings, FS_WARNING_LISTING_FORBIDDEN,
             g_strdup_printf ("the credentials may not list %s (403 Forbidden): the answer is made without them; "
                              "grant list and watch on them (deploy/ has the ClusterRole)",
                              name + strlen (FORBIDDEN_PREFIX)));
      else
        add (warnings, FS_WARNING_LISTING_UNAVAILABLE,
             g_strdup_printf ("the cluster does not serve %s (404: not installed?): the answer is made "
                              "without them", name));
    }
  return warnings;
}

GArray *
fs_stale_warnings (double seconds, const char *message)
{
  GArray *warnings = fs_warnings_new ();
  add (warnings, FS_WARNING_SNAPSHOT_STALE,
       g_strdup_printf ("the watch of the cluster has failed since the snapshot last changed %.0f s ago (%s): "
                        "the answer may miss what changed since", seconds, message));
  return warnings;
}

/* pkg/scheduler/framework/plugins/dynamicresources (names.DynamicResources): PreFilter and
 * Filter allocate the pod's ResourceClaims from ResourceSlices; fitscale reads neither. */
#define DYNAMIC_RESOURCES "DynamicResources"

void
fs_pod_spec_unmodelled_filters (const FsPodSpec *spec, GPtrArray *out)
{
  if (spec != NULL && spec->n_resource_claims > 0)
    g_ptr_array_add (out, (gpointer) DYNAMIC_RESOURCES);
}

void
fs_pod_spec_warnings (const FsPodSpec *spec, const char *name, GArray *warnings)
{
  if (spec == NULL || spec->n_resource_claims == 0)
    return;
  guint claims = spec->n_resource_claims;
  add (warnings, FS_WARNING_UNMODELLED_FILTER,
       g_strdup_printf ("%s has %u resource claim%s (dynamic resource allocation) in its pod spec: "
                        "fitscale does not model the " DYNAMIC_RESOURCES " filter, so this answer leaves "
                        "out whether %s be allocated on a node (docs/filters.md)",
                        name, claims, claims == 1 ? "" : "s", claims == 1 ? "it can" : "they can"));
}

/* pkg/scheduler/framework/plugins/schedulinggates/scheduling_gates.go PreEnqueue: pods made
 * with gates wait outside the scheduling queue until every gate is removed. */
static void
check_gates (const FsPodSpec *spec, const char *name, GArray *warnings)
{
  if (spec->n_scheduling_gates == 0)
    return;
  g_autoptr (GString) gates = g_string_new (NULL);
  for (guint i = 0; i < spec->n_scheduling_gates; i++)
    g_string_append_printf (gates, "%s%s", i > 0 ? ", " : "", spec->scheduling_gates[i]);
  add (warnings, FS_WARNING_SCHEDULING_GATED,
       g_strdup_printf ("%s's pod spec has %u scheduling gate%s (%s): new pods made of it are gated, and the "
                        "scheduler does not try to place them until whoever added the gates removes them; "
                        "this answer places them as if they were ungated",
                        name, spec->n_scheduling_gates, spec->n_scheduling_gates == 1 ? "" : "s", gates->str));
}

/* plugin/pkg/admission/runtimeclass/admission.go: setOverhead and setScheduling need the
 * RuntimeClass; a nodeSelector conflict with it makes admission refuse the pod. */
static void
check_runtime_class (const FsSnapshot *snapshot, const FsPodSpec *spec, const char *name, GArray *warnings)
{
  if (spec->runtime_class == NULL)
    return;
  const FsGenericObject *object = fs_snapshot_find_runtime_class (snapshot, spec->runtime_class);
  if (object == NULL && spec->containers != NULL && spec->containers->overhead == NULL)
    {
      add (warnings, FS_WARNING_RUNTIME_CLASS_MISSING,
           g_strdup_printf ("%s's pods run in RuntimeClass %s, which the snapshot does not hold: its overhead "
                            "(overhead.podFixed), which admission adds to each new pod's request, is unknown "
                            "and not counted, nor its nodeSelector and tolerations (and should the cluster "
                            "lack it too, admission refuses the pods); add it (kubectl get runtimeclasses "
                            "-o json)", name, spec->runtime_class));
      return;
    }
  if (object == NULL)
    return; /* its overhead is known: the template's own, or its file's RuntimeClass's */
  g_autoptr (FsPool) pool = fs_pool_new ();
  FsRuntimeClass runtime_class;
  g_autoptr (GError) unreadable = NULL;
  if (!fs_runtime_class_read (object, pool, &runtime_class, &unreadable))
    {
      add (warnings, FS_WARNING_RUNTIME_CLASS_MISSING,
           g_strdup_printf ("%s's pods run in RuntimeClass %s, which cannot be read (%s): its overhead is not "
                            "counted, nor its nodeSelector and tolerations", name, spec->runtime_class, unreadable->message));
      return;
    }
  g_autofree char *refusal = fs_runtime_class_refusal (&runtime_class, spec);
  if (refusal != NULL)
    add (warnings, FS_WARNING_RUNTIME_CLASS_REFUSED,
         g_strdup_printf ("%s runs in RuntimeClass %s and %s: RuntimeClass admission refuses its new pods, "
                          "so none of them is created; this answer places them as the template states them",
                          name, spec->runtime_class, refusal));
}

void
fs_template_warnings (const FsSnapshot *snapshot, const FsPodSpec *spec, const char *name, GArray *warnings)
{
  if (spec == NULL)
    return;
  check_gates (spec, name, warnings);
  check_runtime_class (snapshot, spec, name, warnings);
}

const char *
fs_warning_reason (FsWarningKind kind)
{
  static const char *const reasons[] = {
    [FS_WARNING_NO_NODES] = "NoNodes",
    [FS_WARNING_PODS_ON_MISSING_NODES] = "PodsOnMissingNodes",
    [FS_WARNING_NO_PODS] = "NoPods",
    [FS_WARNING_NAMESPACES_MISSING] = "NamespacesMissing",
    [FS_WARNING_UNMODELLED_FILTER] = "UnmodelledFilter",
    [FS_WARNING_DAEMON_PODS_MISSING] = "DaemonPodsMissing",
    [FS_WARNING_WORKLOAD_PODS_MISSING] = "WorkloadPodsMissing",
    [FS_WARNING_TARGET_MISSING] = "TargetMissing",
    [FS_WARNING_METRICS_MISSING] = "MetricsMissing",
    [FS_WARNING_AUTOSCALER_MISSING] = "AutoscalerMissing",
    [FS_WARNING_LISTING_UNAVAILABLE] = "ListingUnavailable",
    [FS_WARNING_LISTING_FORBIDDEN] = "ListingForbidden",
    [FS_WARNING_SNAPSHOT_STALE] = "SnapshotStale",
    [FS_WARNING_NAMESPACED_LIST] = "NamespacedList",
    [FS_WARNING_CLAIMS_MISSING] = "ClaimsMissing",
    [FS_WARNING_NOT_READY_UNTAINTED] = "NodesNotReadyUntainted",
    [FS_WARNING_SCHEDULING_GATED] = "SchedulingGated",
    [FS_WARNING_RUNTIME_CLASS_MISSING] = "RuntimeClassMissing",
    [FS_WARNING_RUNTIME_CLASS_REFUSED] = "RuntimeClassRefused",
  };
  return (gsize) kind < G_N_ELEMENTS (reasons) ? reasons[kind] : "Unknown";
}
