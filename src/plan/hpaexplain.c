/* fitscale — explaining an HPA's decision (see include/fitscale/plan/hpaexplain.h). */
#include "config.h"

#include <string.h>

#include "fitscale/model/error.h"
#include "fitscale/plan/hpaexplain.h"
#include "fitscale/kube/hpaspec.h"

static const FsPodMetrics *
find_metrics (GHashTable *by_name, const FsPod *pod)
{
  return g_hash_table_lookup (by_name, pod->name);
}

/* The usage of RESOURCE in milli-units (MilliValue: cpu millicores, memory bytes x 1000),
 * of CONTAINER only when it is set. */
static int64_t
usage_milli (const FsPodMetrics *metrics, const char *resource, const char *container)
{
  int64_t total = 0;
  for (guint c = 0; c < metrics->n_containers; c++)
    {
      if (container != NULL && g_strcmp0 (metrics->containers[c].name, container) != 0)
        continue;
      const FsResources *usage = &metrics->containers[c].usage;
      total = fs_saturating_add (total, strcmp (resource, "cpu") == 0
                                            ? usage->cpu_milli
                                            : fs_saturating_mul (fs_resources_get (usage, resource), 1000));
    }
  return total;
}


static guint
collect_pods (const FsSnapshot *snapshot, const FsWorkload *target, GPtrArray *pods)
{
  guint first = 0, end = 0;
  if (target != NULL)
    fs_snapshot_namespace_pods (snapshot, target->namespace, &first, &end);
  for (guint i = first; i < end; i++)
    if (fs_workload_owns_pod (&snapshot->pods[i], (gpointer) target))
      g_ptr_array_add (pods, (gpointer) &snapshot->pods[i]);
  return pods->len;
}

/* What groupPods reads of a pod: phase, deletion, readiness, start. */
static void
pod_state (const FsPod *pod, FsHpaPod *entry)
{
  entry->name = pod->name;
  entry->deleted = (pod->flags & FS_POD_TERMINATING) != 0;
  entry->failed = pod->phase == FS_PHASE_FAILED;
  entry->succeeded = pod->phase == FS_PHASE_SUCCEEDED;
  entry->pending = pod->phase == FS_PHASE_PENDING;
  entry->has_ready = (pod->flags & FS_POD_READY_KNOWN) != 0;
  entry->ready = (pod->flags & FS_POD_READY) != 0;
  entry->ready_transition_ms = pod->ready_transition_time * 1000;
  entry->has_start = pod->start_time != 0;
  entry->start_ms = pod->start_time * 1000;
}

/* The pods as groupPods reads them, with RESOURCE's usage and request. */
static gboolean
hpa_pods (GPtrArray *pods, GHashTable *metrics_by_name, const FsHpaMetricSpec *metric,
          FsHpaPod *out, char *error, gsize error_size)
{
  gboolean any_metric = FALSE;
  for (guint i = 0; i < pods->len; i++)
    {
      const FsPod *pod = pods->pdata[i];
      FsHpaPod *entry = &out[i];
      memset (entry, 0, sizeof *entry);
      pod_state (pod, entry);
      const FsPodMetrics *metrics = find_metrics (metrics_by_name, pod);
      if (metrics != NULL)
        {
          any_metric = TRUE;
          entry->has_metric = TRUE;
          entry->metric_milli = usage_milli (metrics, metric->name, metric->container);
          entry->metric_timestamp_ms = metrics->timestamp * 1000;
          entry->metric_window_ms = metrics->window_seconds * 1000;
        }
      const char *missing = NULL;
      entry->has_request = fs_hpa_pod_request (pod->spec->containers, metric->name, metric->container,
                                               &entry->request_milli, &missing);
      if (!entry->has_request && metric->target_type == FS_HPA_TARGET_UTILIZATION
          && !entry->deleted && !entry->failed && !entry->succeeded)
        {
          if (missing != NULL)
            g_snprintf (error, error_size, "missing request for %s in container %s of Pod %s", metric->name,
                        missing, pod->name);
          else if (metric->container != NULL)
            g_snprintf (error, error_size, "no container %s in Pod %s", metric->container, pod->name);
          else
            g_snprintf (error, error_size, "Pod %s has no containers", pod->name);
          return FALSE;
        }
    }
  return any_metric;
}

/* Why groupPods put POD in GROUP. */
static const char *
group_reason (const FsHpaPod *pod, FsHpaPodGroup group)
{
  switch (group)
    {
    case FS_HPA_POD_IGNORED:
      return pod->deleted ? "deleted" : pod->failed ? "Failed" : "Succeeded";
    case FS_HPA_POD_UNREADY:
      return pod->pending ? "Pending" : "not ready while cpu initializes";
    case FS_HPA_POD_MISSING:
      return "no metrics";
    case FS_HPA_POD_READY:
    default:
      return "ready";
    }
}

static void
report_pods (const FsHpaPod *entries, guint n, gboolean is_cpu, const FsHpaSettings *settings,
             FsHpaMetricAnswer *result)
{
  g_autofree FsHpaPodGroup *groups = g_new0 (FsHpaPodGroup, n + 1);
  fs_hpa_group_pods (entries, n, is_cpu, settings, groups);
  result->pods = g_new0 (FsHpaPodReport, n + 1);
  result->n_pods = n;
  for (guint i = 0; i < n; i++)
    result->pods[i] = (FsHpaPodReport){ entries[i].name, groups[i], group_reason (&entries[i], groups[i]) };
}

void
fs_hpa_answer_clear (FsHpaAnswer *answer)
{
  for (guint i = 0; i < answer->n_metrics; i++)
    g_clear_pointer (&answer->metrics[i].pods, g_free);
}

static void
invalid (FsHpaProposal *proposal, const char *message)
{
  memset (proposal, 0, sizeof *proposal);
  proposal->valid = FALSE;
  g_strlcpy (proposal->error, message, sizeof proposal->error);
}

/* A metric from the HPA's own status, as the controller computed it last (all its pods
 * counted as ready: status does not say otherwise). */
static void
from_status (const FsHpaAnswer *answer, const FsHpaMetricSpec *metric,
             const FsHpaSettings *settings, FsHpaProposal *proposal)
{
  int32_t current = answer->current_replicas;
  if (metric->target_type == FS_HPA_TARGET_UTILIZATION && metric->has_current_utilization)
    {
      fs_hpa_value_replicas (current, metric->current_utilization, metric->target_utilization,
                             current, settings, proposal);
      proposal->utilization = metric->current_utilization;
    }
  else if (metric->target_type == FS_HPA_TARGET_VALUE)
    fs_hpa_value_replicas (current, metric->current_milli, metric->target_milli, current,
                           settings, proposal);
  else
    fs_hpa_average_value_replicas (current, metric->current_milli * MAX (current, 1),
                                   metric->target_milli, settings, proposal);
  proposal->ready = (guint) current;
}

/* ---- custom and external metrics (MetricValue, ExternalMetricValue items) ------------ */

/* The snapshot's metric values, decoded once per answer. */
typedef struct {
  GArray *custom;          /* FsMetricValue: custom.metrics.k8s.io MetricValue items */
  GArray *external;        /* FsMetricValue: external.metrics.k8s.io ExternalMetricValue items */
} MetricValues;

static void
metric_values_init (MetricValues *values, const FsSnapshot *snapshot)
{
  values->custom = g_array_new (FALSE, FALSE, sizeof (FsMetricValue));
  values->external = g_array_new (FALSE, FALSE, sizeof (FsMetricValue));
  for (guint i = 0; i < snapshot->n_generic; i++)
    {
      const FsGenericObject *item = &snapshot->generic[i];
      if (item->kind != FS_KIND_METRIC_VALUE && item->kind != FS_KIND_EXTERNAL_METRIC_VALUE)
        continue;
      FsMetricValue value;
      fs_metric_value_read (item, &value);
      g_array_append_val (item->kind == FS_KIND_METRIC_VALUE ? values->custom : values->external, value);
    }
}

static void
metric_values_clear (MetricValues *values)
{
  g_array_unref (values->custom);
  g_array_unref (values->external);
}

/* The value of the custom metric NAME for the object KIND/OBJECT_NAME in NAMESPACE, milli. */
static gboolean
custom_value (const MetricValues *values, const char *namespace, const char *kind,
              const char *object_name, const char *name, int64_t *milli)
{
  for (guint i = 0; i < values->custom->len; i++)
    {
      const FsMetricValue *item = &g_array_index (values->custom, FsMetricValue, i);
      if (g_strcmp0 (item->metric_name, name) != 0)
        continue;
      if (g_strcmp0 (item->object_kind, kind) == 0 && g_strcmp0 (item->object_name, object_name) == 0
          && (item->object_namespace == NULL || g_strcmp0 (item->object_namespace, namespace) == 0)
          && item->has_value)
        {
          *milli = item->value_milli;
          return TRUE;
        }
    }
  return FALSE;
}

/* The usage of the external metric NAME: its series summed as upstream sums them
 * (fs_hpa_external_usage; PER_POD for an AverageValue target), milli. */
static gboolean
external_value (const MetricValues *values, const char *name, gboolean per_pod, int64_t *milli)
{
  g_autoptr (GArray) series = g_array_new (FALSE, FALSE, sizeof (int64_t));
  for (guint i = 0; i < values->external->len; i++)
    {
      const FsMetricValue *item = &g_array_index (values->external, FsMetricValue, i);
      if (g_strcmp0 (item->metric_name, name) == 0 && item->has_value)
        g_array_append_val (series, item->value_milli);
    }
  *milli = fs_hpa_external_usage ((const int64_t *) series->data, series->len, per_pod);
  return series->len > 0;
}

/* Pods metrics: each selected pod's MetricValue, through the plain-metric rule. */
static gboolean
explain_pods_metric (const MetricValues *values, FsHpaAnswer *answer, GPtrArray *pods,
                     const FsHpaSettings *settings, FsHpaMetricAnswer *result)
{
  const FsHpaMetricSpec *metric = result->spec;
  g_autofree FsHpaPod *entries = g_new0 (FsHpaPod, pods->len + 1);
  gboolean any = FALSE;
  for (guint i = 0; i < pods->len; i++)
    {
      const FsPod *pod = pods->pdata[i];
      FsHpaPod *entry = &entries[i];
      pod_state (pod, entry);
      entry->has_metric = custom_value (values, pod->namespace, "Pod", pod->name, metric->name,
                                        &entry->metric_milli);
      any |= entry->has_metric;
    }
  if (!any)
    return FALSE;
  result->source = FS_HPA_SOURCE_METRIC_VALUES;
  report_pods (entries, pods->len, FALSE, settings, result);
  fs_hpa_plain_replicas (answer->current_replicas, metric->target_milli, entries, pods->len,
                         FALSE, settings, &result->proposal);
  return TRUE;
}

/* Object and External metrics: one value, against a Value or an AverageValue target. */
static gboolean
explain_object_metric (const MetricValues *values, FsHpaAnswer *answer, GPtrArray *pods,
                       const FsHpaSettings *settings, FsHpaMetricAnswer *result)
{
  const FsHpaMetricSpec *metric = result->spec;
  int64_t value;
  gboolean found = metric->type == FS_HPA_METRIC_OBJECT
                       ? custom_value (values, answer->hpa.namespace, metric->object_kind,
                                       metric->object_name, metric->name, &value)
                       : external_value (values, metric->name,
                                         metric->target_type == FS_HPA_TARGET_AVERAGE_VALUE, &value);
  if (!found)
    return FALSE;
  result->source = FS_HPA_SOURCE_METRIC_VALUES;
  if (metric->target_type == FS_HPA_TARGET_VALUE)
    {
      /* getReadyPodsCount: Running pods with a Ready condition True */
      int32_t ready = 0;
      for (guint i = 0; i < pods->len; i++)
        {
          const FsPod *pod = pods->pdata[i];
          ready += pod->phase == FS_PHASE_RUNNING && (pod->flags & FS_POD_READY);
        }
      fs_hpa_value_replicas (answer->current_replicas, value, metric->target_milli,
                             pods->len > 0 ? ready : -1, settings, &result->proposal);
    }
  else
    fs_hpa_average_value_replicas (answer->current_replicas, value, metric->target_milli,
                                   settings, &result->proposal);
  return TRUE;
}

static void
explain_metric (const MetricValues *values, FsHpaAnswer *answer, GPtrArray *pods,
                GHashTable *metrics_by_name, const FsHpaSettings *settings, guint index)
{
  const FsHpaMetricSpec *metric = &answer->hpa.metrics[index];
  FsHpaMetricAnswer *result = &answer->metrics[index];
  result->spec = metric;
  gboolean per_pod = metric->type == FS_HPA_METRIC_RESOURCE
                     || metric->type == FS_HPA_METRIC_CONTAINER_RESOURCE;
  if (per_pod && pods->len > 0 && g_hash_table_size (metrics_by_name) > 0)
    {
      g_autofree FsHpaPod *entries = g_new0 (FsHpaPod, pods->len);
      char error[sizeof result->proposal.error] = "";
      if (!hpa_pods (pods, metrics_by_name, metric, entries, error, sizeof error))
        {
          if (error[0] != '\0')
            {
              invalid (&result->proposal, error);
              return;
            }
        }
      else
        {
          result->source = FS_HPA_SOURCE_POD_METRICS;
          gboolean is_cpu = strcmp (metric->name, "cpu") == 0;
          report_pods (entries, pods->len, is_cpu, settings, result);
          if (metric->target_type == FS_HPA_TARGET_UTILIZATION)
            fs_hpa_resource_replicas (answer->current_replicas, metric->target_utilization,
                                      entries, pods->len, is_cpu, settings, &result->proposal);
          else
            fs_hpa_plain_replicas (answer->current_replicas, metric->target_milli, entries,
                                   pods->len, is_cpu, settings, &result->proposal);
          return;
        }
    }
  if (metric->type == FS_HPA_METRIC_PODS
      && explain_pods_metric (values, answer, pods, settings, result))
    return;
  if ((metric->type == FS_HPA_METRIC_OBJECT || metric->type == FS_HPA_METRIC_EXTERNAL)
      && explain_object_metric (values, answer, pods, settings, result))
    return;
  if (metric->has_current)
    {
      result->source = FS_HPA_SOURCE_STATUS;
      from_status (answer, metric, settings, &result->proposal);
      return;
    }
  g_autofree char *message = answer->hpa.scaling_active_message != NULL
      ? g_strdup_printf ("no value: %s", answer->hpa.scaling_active_message)
      : g_strdup_printf ("no value for %s in the snapshot (no PodMetrics, no current value in the "
                         "HPA's status)", metric->name);
  invalid (&result->proposal, message);
}

gboolean
fs_hpa_explain (const FsSnapshot *snapshot, const FsGenericObject *hpa, int64_t now_ms,
                gboolean symmetric_tolerance, FsHpaAnswer *answer, GError **error)
{
  memset (answer, 0, sizeof *answer);
  if (!fs_hpa_spec_read (hpa, &answer->hpa, error))
    return FALSE;
  answer->now_ms = now_ms;
  answer->target = fs_snapshot_find_workload (snapshot, answer->hpa.namespace,
                                              answer->hpa.target_kind, answer->hpa.target_name);
  answer->current_replicas = answer->target != NULL ? answer->target->replicas
                                                    : answer->hpa.current_replicas;
  g_autoptr (GPtrArray) pods = g_ptr_array_new ();
  answer->n_pods = collect_pods (snapshot, answer->target, pods);
  g_autoptr (GHashTable) metrics_by_name = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < snapshot->n_pod_metrics; i++)
    if (g_strcmp0 (snapshot->pod_metrics[i].namespace, answer->hpa.namespace) == 0)
      g_hash_table_insert (metrics_by_name, (gpointer) snapshot->pod_metrics[i].name,
                           (gpointer) &snapshot->pod_metrics[i]);

  FsHpaSettings settings = fs_hpa_default_settings (now_ms);
  settings.tolerance_up = answer->hpa.tolerance_up;
  settings.tolerance_down = answer->hpa.tolerance_down;
  settings.symmetric_tolerance = symmetric_tolerance;
  answer->n_metrics = answer->hpa.n_metrics;
  FsHpaProposal proposals[FS_HPA_MAX_METRICS];
  MetricValues values;
  metric_values_init (&values, snapshot);
  for (guint i = 0; i < answer->n_metrics; i++)
    {
      explain_metric (&values, answer, pods, metrics_by_name, &settings, i);
      proposals[i] = answer->metrics[i].proposal;
    }
  metric_values_clear (&values);
  answer->winner = fs_hpa_combine_proposals (answer->current_replicas, proposals,
                                             answer->n_metrics, &answer->proposal);

  const FsHpaSpec *spec = &answer->hpa;
  int32_t current = answer->current_replicas;
  answer->held_by = -1;
  if (fs_hpa_metrics_hold (current, proposals, answer->n_metrics))
    {
      /* reconcileAutoscaler returns on computeReplicasForMetrics' error: nothing is written */
      for (guint i = 0; i < answer->n_metrics && answer->held_by < 0; i++)
        if (!proposals[i].valid)
          answer->held_by = (int) i;
      FsHpaDecision held = { .desired = current, .stabilized = current,
                             .reason = fs_hpa_failed_metric_reason (answer->metrics[answer->held_by].spec->type) };
      answer->now = answer->settled = held;
      return TRUE;
    }
  /* A new controller seeds its history with the current replicas (horizontal.go
   * reconcileAutoscaler); "settled" is the same once every window has passed. */
  FsHpaRecommendation seeded[2] = { { now_ms, current }, { now_ms, answer->proposal } };
  FsHpaRecommendation fresh[1] = { { now_ms, answer->proposal } };
  if (spec->has_behavior)
    {
      fs_hpa_normalize_behavior (current, answer->proposal, spec->min_replicas, spec->max_replicas,
                                 &spec->behavior, now_ms, seeded, 1, NULL, 0, NULL, 0, &answer->now);
      fs_hpa_normalize_behavior (current, answer->proposal, spec->min_replicas, spec->max_replicas,
                                 &spec->behavior, now_ms, NULL, 0, NULL, 0, NULL, 0,
                                 &answer->settled);
    }
  else
    {
      fs_hpa_normalize_legacy (current, answer->proposal, spec->min_replicas, spec->max_replicas,
                               now_ms, seeded, 2, &answer->now);
      fs_hpa_normalize_legacy (current, answer->proposal, spec->min_replicas, spec->max_replicas,
                               now_ms, fresh, 1, &answer->settled);
    }
  return TRUE;
}
