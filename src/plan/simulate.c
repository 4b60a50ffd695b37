/* fitscale — the HPA loop over a load trace (see include/fitscale/simulate.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fitscale/model/error.h"
#include "fitscale/model/fit.h"
#include "fitscale/model/hpa.h"
#include "fitscale/plan/shape.h"
#include "fitscale/model/pack.h"
#include "fitscale/model/quantity.h"
#include "fitscale/plan/simulate.h"

void
fs_trace_clear (FsTrace *trace)
{
  if (trace->times_s != NULL)
    g_array_unref (trace->times_s);
  if (trace->values != NULL)
    g_array_unref (trace->values);
  memset (trace, 0, sizeof *trace);
}

gboolean
fs_trace_load (const char *path, FsTrace *trace, GError **error)
{
  memset (trace, 0, sizeof *trace);
  g_autofree char *text = NULL;
  gsize len;
  g_autoptr (GError) local_error = NULL;
  if (!g_file_get_contents (path, &text, &len, &local_error))
    {
      g_set_error (error, FS_ERROR, FS_ERROR_IO, "%s", local_error->message);
      return FALSE;
    }
  trace->times_s = g_array_new (FALSE, FALSE, sizeof (int64_t));
  trace->values = g_array_new (FALSE, FALSE, sizeof (double));
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  gboolean header_seen = FALSE;
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *line = g_strstrip (lines[i]);
      if (line[0] == '\0' || line[0] == '#')
        continue;
      char *comma = strchr (line, ',');
      if (!header_seen && comma != NULL && !g_ascii_isdigit (line[0]))
        {
          const char *column = g_strstrip (comma + 1);
          trace->kind = g_ascii_strcasecmp (column, "load") == 0 ? FS_TRACE_LOAD : FS_TRACE_UTILIZATION;
          if (g_ascii_strcasecmp (column, "load") != 0 && g_ascii_strcasecmp (column, "value") != 0)
            {
              g_set_error (error, FS_ERROR, FS_ERROR_INVALID,
                           "%s:%u: the header's second column must be \"value\" or \"load\"", path, i + 1);
              return FALSE;
            }
          header_seen = TRUE;
          continue;
        }
      header_seen = TRUE;
      char *end_time, *end_value = NULL;
      int64_t t = comma != NULL ? g_ascii_strtoll (line, &end_time, 10) : 0;
      double value = comma != NULL ? g_ascii_strtod (comma + 1, &end_value) : 0;
      int64_t milli;
      if (comma != NULL && trace->kind == FS_TRACE_LOAD && *g_strstrip (end_value) != '\0'
          && fs_quantity_parse_milli (g_strstrip (comma + 1), strlen (g_strstrip (comma + 1)), &milli, NULL))
        {
          /* a load in the metric's units, written as a quantity: "400Mi", "1500m" */
          value = (double) milli / 1000.0;
          end_value = comma + 1 + strlen (comma + 1);
        }
      gboolean ok = comma != NULL && end_time == comma && *g_strstrip (end_value) == '\0'
                    && t >= 0 && isfinite (value) && value >= 0
                    && (trace->times_s->len == 0
                        || t > g_array_index (trace->times_s, int64_t, trace->times_s->len - 1));
      if (!ok)
        {
          g_set_error (error, FS_ERROR, FS_ERROR_INVALID,
                       "%s:%u: \"%.60s\" is not \"seconds,%s\" with seconds increasing (%s)", path,
                       i + 1, line, trace->kind == FS_TRACE_LOAD ? "load" : "value",
                       trace->kind == FS_TRACE_LOAD ? "a load is a number or a quantity in the metric's units: "
                                                      "2.5, 1500m, 400Mi"
                                                    : "a value is a utilization percentage: 85");
          return FALSE;
        }
      g_array_append_val (trace->times_s, t);
      g_array_append_val (trace->values, value);
    }
  if (trace->times_s->len == 0)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "%s: no rows", path);
      return FALSE;
    }
  return TRUE;
}

/* The trace's value at T: the last row at or before T (a step function). */
static double
trace_at (const FsTrace *trace, int64_t t)
{
  double value = g_array_index (trace->values, double, 0);
  for (guint i = 0; i < trace->times_s->len && g_array_index (trace->times_s, int64_t, i) <= t; i++)
    value = g_array_index (trace->values, double, i);
  return value;
}

typedef struct {
  int64_t created_s;
  gboolean placed;           /* FALSE: Pending, it fits on no node */
} SimPod;

/* The workload's pods running on nodes in the snapshot (its controller's selector). */
static int64_t
running_pods (const FsSimulateOptions *options)
{
  const FsWorkload *workload = options->workload;
  int64_t running = 0;
  for (guint i = 0; options->snapshot != NULL && workload != NULL && workload->selector != NULL
                    && i < options->snapshot->n_pods; i++)
    {
      const FsPod *pod = &options->snapshot->pods[i];
      running += pod->node_index >= 0 && fs_pod_counts_on_node (pod)
                 && fs_workload_owns_pod (pod, (gpointer) workload);
    }
  return running;
}

/* How many more replicas of the workload fit beside the snapshot's pods (its own counted). */
static int64_t
room_for_more (const FsSimulateOptions *options)
{
  if (options->snapshot == NULL || options->workload == NULL)
    return G_MAXINT64;
  const FsWorkload *workload = options->workload;
  FsPodShape unjudged = { .namespace = workload->namespace, .labels = workload->template_labels,
                          .spec = workload->template };
  g_autofree FsSpreadList *default_spread = NULL;
  FsPodShape shape = fs_shape_judged (options->snapshot, &unjudged, workload->selector, &default_spread);
  g_autofree FsNodeFit *fits = g_new0 (FsNodeFit, options->snapshot->n_nodes + 1);
  FsPackOptions pack = { .replicas = -1 };
  FsPackResult result;
  fs_pack (options->snapshot, &shape, &pack, fits, &result);
  return result.capacity;
}

/* The pods as the replica calculator sees them at NOW_S. */
static guint
calculator_pods (GArray *pods, const FsTrace *trace, const FsSimulateOptions *options,
                 int64_t now_s, double value, FsHpaPod *out, int32_t *ready, int32_t *starting,
                 int32_t *pending)
{
  *ready = *starting = *pending = 0;
  for (guint i = 0; i < pods->len; i++)
    {
      const SimPod *pod = &g_array_index (pods, SimPod, i);
      gboolean is_ready = pod->placed && now_s - pod->created_s >= options->startup_s;
      *ready += is_ready;
      *starting += pod->placed && !is_ready;
      *pending += !pod->placed;
    }
  int64_t request = options->request_milli > 0 ? options->request_milli : 1000;
  for (guint i = 0; i < pods->len; i++)
    {
      const SimPod *pod = &g_array_index (pods, SimPod, i);
      FsHpaPod *entry = &out[i];
      memset (entry, 0, sizeof *entry);
      entry->name = "pod";
      entry->pending = !pod->placed;
      entry->has_request = TRUE;
      entry->request_milli = request;
      if (!pod->placed)
        continue;
      entry->has_start = TRUE;
      entry->start_ms = pod->created_s * 1000;
      entry->has_ready = TRUE;
      entry->ready = now_s - pod->created_s >= options->startup_s;
      entry->ready_transition_ms = (pod->created_s + (entry->ready ? options->startup_s : 0)) * 1000;
      if (!entry->ready)
        continue; /* a pod that is not ready yet reports no metric */
      double per_pod = trace->kind == FS_TRACE_UTILIZATION
                           ? value * (double) request / 100.0
                           : value * 1000.0 / MAX (*ready, 1);
      entry->has_metric = TRUE;
      entry->metric_milli = (int64_t) llround (per_pod);
      entry->metric_timestamp_ms = now_s * 1000;
      entry->metric_window_ms = 30 * 1000;
    }
  return pods->len;
}

static void
scale_to (GArray *pods, int32_t desired, int64_t now_s, int64_t *room)
{
  while ((int32_t) pods->len < desired)
    {
      SimPod pod = { .created_s = now_s, .placed = *room > 0 };
      if (*room > 0 && *room != G_MAXINT64)
        (*room)--;
      g_array_append_val (pods, pod);
    }
  /* scale-down removes Pending pods first, then the youngest (ReplicaSet's getPodsToDelete) */
  while ((int32_t) pods->len > desired)
    {
      guint victim = pods->len - 1;
      for (guint i = 0; i < pods->len; i++)
        if (!g_array_index (pods, SimPod, i).placed)
          victim = i;
      if (g_array_index (pods, SimPod, victim).placed && *room != G_MAXINT64)
        (*room)++;
      g_array_remove_index (pods, victim);
    }
}

gboolean
fs_simulate (const FsHpaSpec *hpa, const FsTrace *trace, const FsSimulateOptions *options,
             GArray *timeline, GError **error)
{
  const FsHpaMetricSpec *metric = &hpa->metrics[0];
  if (trace->kind == FS_TRACE_UTILIZATION && metric->target_type != FS_HPA_TARGET_UTILIZATION)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_USAGE,
                   "a \"value\" trace is a utilization percentage, but the HPA's first metric (%s) "
                   "has an %s target: give a \"load\" trace", metric->name,
                   metric->target_type == FS_HPA_TARGET_VALUE ? "Value" : "AverageValue");
      return FALSE;
    }
  int32_t replicas = options->replicas >= 0 ? options->replicas
                     : hpa->current_replicas > 0 ? hpa->current_replicas : hpa->min_replicas;
  int64_t last_t = g_array_index (trace->times_s, int64_t, trace->times_s->len - 1);
  int64_t duration = options->duration_s > 0 ? options->duration_s : last_t + 600;
  int64_t start_t = g_array_index (trace->times_s, int64_t, 0);
  if ((duration - start_t) / options->sync_s > 100000)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_LIMIT,
                   "%" G_GINT64_FORMAT " syncs: a run is limited to 100000 (raise --sync or lower --duration)",
                   (duration - start_t) / options->sync_s);
      return FALSE;
    }
  int64_t room = room_for_more (options);
  g_autoptr (GArray) pods = g_array_new (FALSE, TRUE, sizeof (SimPod));
  int64_t start_s = start_t;
  /* the pods there at the start have run for a while (past cpu initialization); those the
   * snapshot shows running keep their place, the others need room like new ones */
  int64_t placed_already = options->snapshot != NULL ? running_pods (options) : 0;
  int64_t free_start = MIN ((int64_t) replicas, placed_already);
  if (room != G_MAXINT64)
    room += free_start;
  scale_to (pods, replicas, start_s - 3600, &room);

  FsHpaSettings settings = fs_hpa_default_settings (0);
  settings.tolerance_up = hpa->tolerance_up;
  settings.tolerance_down = hpa->tolerance_down;
  settings.symmetric_tolerance = options->symmetric_tolerance;
  g_autofree FsHpaHistory *history = g_new0 (FsHpaHistory, 1);
  fs_hpa_history_seed (history, start_s * 1000, replicas);
  for (int64_t t = start_s; t <= duration; t += options->sync_s)
    {
      settings.now_ms = t * 1000;
      double value = trace_at (trace, t);
      g_autofree FsHpaPod *entries = g_new0 (FsHpaPod, pods->len + 1);
      FsSimulateStep step = { .t_s = t, .value = value, .replicas = (int32_t) pods->len };
      guint n = calculator_pods (pods, trace, options, t, value, entries, &step.ready,
                                 &step.starting, &step.pending);
      FsHpaProposal proposal;
      if (trace->kind == FS_TRACE_UTILIZATION || metric->target_type == FS_HPA_TARGET_UTILIZATION)
        fs_hpa_resource_replicas (step.replicas, metric->target_utilization, entries, n,
                                  g_strcmp0 (metric->name, "cpu") == 0, &settings, &proposal);
      else
        fs_hpa_plain_replicas (step.replicas, metric->target_milli, entries, n,
                               g_strcmp0 (metric->name, "cpu") == 0, &settings, &proposal);
      /* a utilization only where the target is one: an AverageValue's would read 0% */
      step.utilization = proposal.valid && (trace->kind == FS_TRACE_UTILIZATION
                                            || metric->target_type == FS_HPA_TARGET_UTILIZATION)
                             ? proposal.utilization : -1;
      step.recommendation = proposal.valid ? proposal.replicas : step.replicas;
      FsHpaDecision decision;
      step.desired = fs_hpa_sync (history, hpa->has_behavior ? &hpa->behavior : NULL, t * 1000,
                                  step.replicas, step.recommendation, hpa->min_replicas,
                                  hpa->max_replicas, &decision);
      step.stabilized = decision.stabilized;
      step.reason = decision.reason;
      g_array_append_val (timeline, step);
      scale_to (pods, step.desired, t, &room);
    }
  return TRUE;
}
