/* fitscale — the HorizontalPodAutoscaler's arithmetic (see include/fitscale/model/hpa.h).
 *
 * A port of kubernetes/kubernetes pkg/controller/podautoscaler (replica_calculator.go,
 * metrics/utilization.go, horizontal.go) and pkg/apis/autoscaling/v2/defaults.go, following
 * upstream master where it differs from the releases (each such place says so).  Integers keep
 * upstream's widths (int64 milli-values, int32 replicas); ratios are doubles computed in the
 * same order as the Go code (the build uses -ffp-contract=off so nothing is fused). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fitscale/model/error.h"
#include "fitscale/model/hpa.h"
#include "fitscale/model/resources.h"

/* Go's int32(x) on a float64 is implementation-defined when out of range and C's conversion
 * is undefined; upstream saturates where it cares (MaxInt32 checks), so we saturate always. */
static int32_t
to_int32 (double value)
{
  if (isnan (value))
    return 0;
  if (value >= (double) INT32_MAX)
    return INT32_MAX;
  if (value <= (double) INT32_MIN)
    return INT32_MIN;
  return (int32_t) value;
}

static int32_t
ceil_to_int32 (double value)
{
  return to_int32 (ceil (value));
}

/* int32 sums and differences of replica counts, saturated instead of wrapping. */
static int32_t
clamp_int32 (int64_t value)
{
  if (value > INT32_MAX)
    return INT32_MAX;
  if (value < INT32_MIN)
    return INT32_MIN;
  return (int32_t) value;
}

static void
proposal_reset (FsHpaProposal *out)
{
  memset (out, 0, sizeof *out);
}

static void
proposal_fail (FsHpaProposal *out, const char *message)
{
  out->valid = FALSE;
  out->replicas = 0;
  g_strlcpy (out->error, message, sizeof out->error);
}

/* ---- one metric ------------------------------------------------------------------------ */

/* cmd/kube-controller-manager defaults (pkg/controller/podautoscaler/config/v1alpha1/
 * defaults.go RecommendedDefaultHPAControllerConfiguration): cpu initialization period 5 min,
 * initial readiness delay 30 s, tolerance 0.1 (both directions, replica_calculator.go
 * Tolerances). */
FsHpaSettings
fs_hpa_default_settings (int64_t now_ms)
{
  FsHpaSettings settings = {
    .cpu_initialization_period_ms = 5 * 60 * 1000,
    .initial_readiness_delay_ms = 30 * 1000,
    .tolerance_up = 0.1,
    .tolerance_down = 0.1,
    .now_ms = now_ms,
  };
  return settings;
}

/* replica_calculator.go groupPods.  Rule order: deleted/Failed/Succeeded -> ignored (Succeeded
 * only in master after PR 141302, see the notes §7); Pending -> unready; no sample -> missing;
 * for cpu the readiness rules; otherwise ready.  time.After/Before are strict. */
void
fs_hpa_group_pods (const FsHpaPod *pods, guint n, gboolean is_cpu,
                   const FsHpaSettings *settings, FsHpaPodGroup *groups)
{
  for (guint i = 0; i < n; i++)
    {
      const FsHpaPod *pod = &pods[i];
      if (pod->deleted || pod->failed || pod->succeeded)
        {
          groups[i] = FS_HPA_POD_IGNORED;
          continue;
        }
      if (pod->pending)
        {
          groups[i] = FS_HPA_POD_UNREADY;
          continue;
        }
      if (!pod->has_metric)
        {
          groups[i] = FS_HPA_POD_MISSING;
          continue;
        }
      if (is_cpu)
        {
          gboolean unready;
          if (!pod->has_ready || !pod->has_start)
            unready = TRUE;
          else if (pod->start_ms + settings->cpu_initialization_period_ms > settings->now_ms)
            /* Still within the initialization period: ignore the sample if the pod is unready
             * or one metric window was not collected since the last transition. */
            unready = !pod->ready
                      || pod->metric_timestamp_ms < pod->ready_transition_ms + pod->metric_window_ms;
          else
            /* Ignore it only if the pod is unready and has never been ready. */
            unready = !pod->ready
                      && pod->start_ms + settings->initial_readiness_delay_ms
                             > pod->ready_transition_ms;
          if (unready)
            {
              groups[i] = FS_HPA_POD_UNREADY;
              continue;
            }
        }
      groups[i] = FS_HPA_POD_READY;
    }
}

/* replica_calculator.go Tolerances.isWithin (v1.33+); before, GetResourceReplicas and
 * friends tested math.Abs(1.0-usageRatio) <= c.tolerance. */
gboolean
fs_hpa_within_tolerance (double ratio, const FsHpaSettings *settings)
{
  if (settings->symmetric_tolerance)
    return fabs (1.0 - ratio) <= settings->tolerance_up;
  return (1.0 - settings->tolerance_down) <= ratio && ratio <= (1.0 + settings->tolerance_up);
}

/* v1.33 turned the tolerance test into Tolerances.isWithin (replica_calculator.go, with the
 * configurable tolerance of KEP-4951); v1.32 and before compare abs(1 - ratio). */
gboolean
fs_hpa_symmetric_tolerance (guint minor)
{
  return minor < 33;
}

gboolean
fs_kube_version_parse (const char *flag, const char *text, guint *minor, GError **error)
{
  guint64 number = FS_KUBE_DEFAULT_MINOR;
  if (text != NULL
      && (!g_str_has_prefix (text, "1.")
          || !g_ascii_string_to_unsigned (text + 2, 10, 0, 1000, &number, NULL)))
    {
      g_set_error (error, FS_ERROR, FS_ERROR_USAGE, "%s \"%s\": give 1.MINOR, e.g. 1.32", flag, text);
      return FALSE;
    }
  *minor = (guint) number;
  return TRUE;
}

/* The sample map of one evaluation: which pods have an entry, and its value. */
typedef struct {
  gboolean *present;
  int64_t *value;
  guint size;
} SampleMap;

static void
sample_map_init (SampleMap *map, const FsHpaPod *pods, guint n)
{
  map->present = g_new0 (gboolean, n ? n : 1);
  map->value = g_new0 (int64_t, n ? n : 1);
  map->size = 0;
  for (guint i = 0; i < n; i++)
    if (pods[i].has_metric)
      {
        map->present[i] = TRUE;
        map->value[i] = pods[i].metric_milli;
        map->size++;
      }
}

static void
sample_map_set (SampleMap *map, guint i, int64_t value)
{
  if (!map->present[i])
    map->size++;
  map->present[i] = TRUE;
  map->value[i] = value;
}

static void
sample_map_delete (SampleMap *map, guint i)
{
  if (map->present[i])
    map->size--;
  map->present[i] = FALSE;
}

static void
sample_map_clear (SampleMap *map)
{
  g_free (map->present);
  g_free (map->value);
}

/* metrics/utilization.go GetResourceUtilizationRatio: sums first, percent truncated to int32,
 * the ratio from the truncated percent.  FALSE when the request total is zero. */
static gboolean
resource_utilization_ratio (const SampleMap *map, const FsHpaPod *pods, guint n,
                            int32_t target_utilization, double *ratio, int32_t *utilization,
                            int64_t *raw_average)
{
  int64_t metrics_total = 0, requests_total = 0, entries = 0;
  for (guint i = 0; i < n; i++)
    if (map->present[i])
      {
        metrics_total += map->value[i];
        requests_total += pods[i].request_milli;
        entries++;
      }
  if (requests_total == 0)
    return FALSE;
  int32_t current = (int32_t) ((metrics_total * 100) / requests_total);
  *utilization = current;
  *ratio = (double) current / (double) target_utilization;
  *raw_average = metrics_total / entries;
  return TRUE;
}

/* metrics/utilization.go GetMetricUsageRatio: integer average over the whole sample map, then
 * the ratio from it. */
static void
metric_usage_ratio (const SampleMap *map, guint n, int64_t target, double *ratio,
                    int64_t *average)
{
  int64_t total = 0;
  for (guint i = 0; i < n; i++)
    if (map->present[i])
      total += map->value[i];
  int64_t avg = total / (int64_t) map->size;
  *average = avg;
  *ratio = (double) avg / (double) target;
}

/* Shared head of GetResourceReplicas and calcPlainMetricReplicas: the pod list check, the
 * metrics API emptiness check, groupPods, removeMetricsForPods (ignored and unready) and the
 * "no sample left" check.  Returns FALSE (OUT failed) on error. */
static gboolean
prepare_samples (const FsHpaPod *pods, guint n, gboolean is_cpu, const FsHpaSettings *settings,
                 const char *api_error, SampleMap *map, FsHpaPodGroup *groups, FsHpaProposal *out)
{
  if (n == 0)
    {
      proposal_fail (out, "no pods returned by selector while calculating replica count");
      return FALSE;
    }
  sample_map_init (map, pods, n);
  if (map->size == 0)
    {
      proposal_fail (out, api_error);
      return FALSE;
    }
  fs_hpa_group_pods (pods, n, is_cpu, settings, groups);
  for (guint i = 0; i < n; i++)
    switch (groups[i])
      {
      case FS_HPA_POD_READY:
        out->ready++;
        break;
      case FS_HPA_POD_UNREADY:
        out->unready++;
        sample_map_delete (map, i);
        break;
      case FS_HPA_POD_MISSING:
        out->missing++;
        break;
      case FS_HPA_POD_IGNORED:
        out->ignored++;
        sample_map_delete (map, i);
        break;
      default:
        g_assert_not_reached ();
      }
  if (map->size == 0)
    {
      proposal_fail (out, "did not receive metrics for targeted pods (pods might be unready)");
      return FALSE;
    }
  return TRUE;
}

/* The first step of GetResourceReplicas and calcPlainMetricReplicas (replica_calculator.go):
 * with no missing pods, and no unready ones on a scale-up, the count is decided at once —
 * the current one within tolerance, else ceil(ratio x ready pods).  FALSE: rebalance. */
static gboolean
decided_without_rebalance (int32_t current_replicas, double usage_ratio,
                           const FsHpaSettings *settings, FsHpaProposal *out)
{
  gboolean scale_up_with_unready = out->unready > 0 && usage_ratio > 1.0;
  if (scale_up_with_unready || out->missing > 0)
    return FALSE;
  out->within_tolerance = fs_hpa_within_tolerance (usage_ratio, settings);
  out->replicas = out->within_tolerance ? current_replicas
                                        : ceil_to_int32 (usage_ratio * (double) out->ready);
  return TRUE;
}

/* The end of GetResourceReplicas and calcPlainMetricReplicas (replica_calculator.go), once
 * unready and missing pods have been given their values: keep the current count when the
 * rebalanced ratio is within tolerance or on the other side of 1 than the first ratio, or
 * when the new count would move against the direction; else ceil(ratio x SAMPLES). */
static void
rebalanced_replicas (int32_t current_replicas, double usage_ratio, double new_ratio,
                     guint samples, const FsHpaSettings *settings, FsHpaProposal *out)
{
  out->rebalanced_ratio = new_ratio;
  out->within_tolerance = fs_hpa_within_tolerance (new_ratio, settings);
  if (out->within_tolerance || (usage_ratio < 1.0 && new_ratio > 1.0)
      || (usage_ratio > 1.0 && new_ratio < 1.0))
    {
      out->replicas = current_replicas;
      return;
    }
  int32_t new_replicas = ceil_to_int32 (new_ratio * (double) samples);
  if ((new_ratio < 1.0 && new_replicas > current_replicas)
      || (new_ratio > 1.0 && new_replicas < current_replicas))
    out->replicas = current_replicas;
  else
    out->replicas = new_replicas;
}

/* replica_calculator.go GetResourceReplicas (with calculateRequests and
 * metrics/utilization.go GetResourceUtilizationRatio). */
void
fs_hpa_resource_replicas (int32_t current_replicas, int32_t target_utilization,
                          const FsHpaPod *pods, guint n, gboolean is_cpu,
                          const FsHpaSettings *settings, FsHpaProposal *out)
{
  proposal_reset (out);
  SampleMap map = { 0 };
  FsHpaPodGroup *groups = g_new0 (FsHpaPodGroup, n ? n : 1);
  char message[160];

  snprintf (message, sizeof message,
            "unable to get metrics for resource %s: no metrics returned from resource metrics API",
            is_cpu ? "cpu" : "resource");
  if (!prepare_samples (pods, n, is_cpu, settings, message, &map, groups, out))
    goto done;

  /* calculateRequests: every listed pod, ignored ones included. */
  for (guint i = 0; i < n; i++)
    if (!pods[i].has_request)
      {
        snprintf (message, sizeof message, "missing request for %s in Pod %s",
                  is_cpu ? "cpu" : "resource", pods[i].name ? pods[i].name : "");
        proposal_fail (out, message);
        goto done;
      }

  double usage_ratio;
  int32_t utilization;
  int64_t raw_average;
  if (!resource_utilization_ratio (&map, pods, n, target_utilization, &usage_ratio, &utilization,
                                   &raw_average))
    {
      proposal_fail (out, "no metrics returned matched known pods");
      goto done;
    }
  out->valid = TRUE;
  out->usage_ratio = usage_ratio;
  out->rebalanced_ratio = usage_ratio;
  out->utilization = utilization;
  out->average_milli = raw_average;

  if (decided_without_rebalance (current_replicas, usage_ratio, settings, out))
    goto done;

  if (out->missing > 0)
    {
      if (usage_ratio < 1.0)
        {
          /* On a scale-down, missing pods use 100 % of their request, or the target when it
           * is above 100 %. */
          int64_t fallback = MAX (100, target_utilization);
          for (guint i = 0; i < n; i++)
            if (groups[i] == FS_HPA_POD_MISSING)
              sample_map_set (&map, i, pods[i].request_milli * fallback / 100);
        }
      else if (usage_ratio > 1.0)
        {
          for (guint i = 0; i < n; i++)
            if (groups[i] == FS_HPA_POD_MISSING)
              sample_map_set (&map, i, 0);
        }
    }
  if (out->unready > 0 && usage_ratio > 1.0) /* scale-up with unready pods */
    for (guint i = 0; i < n; i++)
      if (groups[i] == FS_HPA_POD_UNREADY)
        sample_map_set (&map, i, 0);

  double new_ratio;
  int32_t unused_utilization;
  int64_t unused_average;
  if (!resource_utilization_ratio (&map, pods, n, target_utilization, &new_ratio,
                                   &unused_utilization, &unused_average))
    {
      proposal_fail (out, "no metrics returned matched known pods");
      goto done;
    }
  rebalanced_replicas (current_replicas, usage_ratio, new_ratio, map.size, settings, out);

done:
  sample_map_clear (&map);
  g_free (groups);
}

/* replica_calculator.go calcPlainMetricReplicas (reached from GetRawResourceReplicas and
 * GetMetricReplicas) with metrics/utilization.go GetMetricUsageRatio. */
void
fs_hpa_plain_replicas (int32_t current_replicas, int64_t target_milli, const FsHpaPod *pods,
                       guint n, gboolean is_cpu, const FsHpaSettings *settings,
                       FsHpaProposal *out)
{
  proposal_reset (out);
  SampleMap map = { 0 };
  FsHpaPodGroup *groups = g_new0 (FsHpaPodGroup, n ? n : 1);

  if (!prepare_samples (pods, n, is_cpu, settings, "unable to get metric: no metrics returned",
                        &map, groups, out))
    goto done;

  double usage_ratio;
  int64_t usage;
  metric_usage_ratio (&map, n, target_milli, &usage_ratio, &usage);
  out->valid = TRUE;
  out->usage_ratio = usage_ratio;
  out->rebalanced_ratio = usage_ratio;
  out->average_milli = usage;

  if (decided_without_rebalance (current_replicas, usage_ratio, settings, out))
    goto done;

  if (out->missing > 0)
    {
      /* Scale-down: a missing pod uses exactly the target; scale-up: nothing. */
      if (usage_ratio < 1.0)
        {
          for (guint i = 0; i < n; i++)
            if (groups[i] == FS_HPA_POD_MISSING)
              sample_map_set (&map, i, target_milli);
        }
      else if (usage_ratio > 1.0)
        {
          for (guint i = 0; i < n; i++)
            if (groups[i] == FS_HPA_POD_MISSING)
              sample_map_set (&map, i, 0);
        }
    }
  if (out->unready > 0 && usage_ratio > 1.0) /* scale-up with unready pods */
    for (guint i = 0; i < n; i++)
      if (groups[i] == FS_HPA_POD_UNREADY)
        sample_map_set (&map, i, 0);

  double new_ratio;
  int64_t unused_usage;
  metric_usage_ratio (&map, n, target_milli, &new_ratio, &unused_usage);
  rebalanced_replicas (current_replicas, usage_ratio, new_ratio, map.size, settings, out);

done:
  sample_map_clear (&map);
  g_free (groups);
}

/* replica_calculator.go GetObjectMetricReplicas / GetExternalMetricReplicas (the caller sums
 * the external series) and getUsageRatioReplicaCount.  READY_PODS < 0 stands for "the selector
 * listed no pods", getReadyPodsCount's error. */
void
fs_hpa_value_replicas (int32_t current_replicas, int64_t value_milli, int64_t target_milli,
                       int32_t ready_pods, const FsHpaSettings *settings, FsHpaProposal *out)
{
  proposal_reset (out);
  double usage_ratio = (double) value_milli / (double) target_milli;
  out->value_milli = value_milli;
  out->usage_ratio = usage_ratio;
  out->rebalanced_ratio = usage_ratio;
  if (current_replicas != 0)
    {
      out->within_tolerance = fs_hpa_within_tolerance (usage_ratio, settings);
      if (out->within_tolerance)
        {
          out->valid = TRUE;
          out->replicas = current_replicas;
          return;
        }
      if (ready_pods < 0)
        {
          proposal_fail (out, "unable to calculate ready pods: no pods returned by selector "
                              "while calculating replica count");
          return;
        }
      out->ready = (guint) ready_pods;
      double replica_count = usage_ratio * (double) ready_pods;
      out->valid = TRUE;
      if (replica_count > (double) INT32_MAX)
        out->replicas = INT32_MAX;
      else
        out->replicas = ceil_to_int32 (replica_count);
    }
  else
    {
      /* Scale to zero or to n pods depending on the ratio; no tolerance. */
      out->valid = TRUE;
      out->replicas = ceil_to_int32 (usage_ratio);
    }
}

/* replica_calculator.go GetObjectPerPodMetricReplicas / GetExternalPerPodMetricReplicas:
 * CURRENT_REPLICAS is the scale's status replicas. */
void
fs_hpa_average_value_replicas (int32_t current_replicas, int64_t value_milli,
                               int64_t target_milli, const FsHpaSettings *settings,
                               FsHpaProposal *out)
{
  proposal_reset (out);
  out->valid = TRUE;
  out->value_milli = value_milli;
  out->replicas = current_replicas;
  double usage_ratio = (double) value_milli / ((double) target_milli * (double) current_replicas);
  out->usage_ratio = usage_ratio;
  out->rebalanced_ratio = usage_ratio;
  out->within_tolerance = fs_hpa_within_tolerance (usage_ratio, settings);
  if (!out->within_tolerance)
    {
      double result = ceil ((double) value_milli / (double) target_milli);
      out->replicas = result > (double) INT32_MAX ? INT32_MAX : to_int32 (result);
    }
  if (current_replicas == 0)
    out->average_milli = 0;
  else if ((double) value_milli >= (double) INT64_MAX)
    out->average_milli = INT64_MAX;
  else
    out->average_milli = (int64_t) ceil ((double) value_milli / (double) current_replicas);
}

/* replica_calculator.go GetExternalMetricReplicas ("Cap at MaxInt64 for positive overflow":
 * val > 0 && usage > MaxInt64 - val) and GetExternalPerPodMetricReplicas (usage += val, then
 * "the only way we would ever get here is because of an Int64 overflow": usage < 0). */
int64_t
fs_hpa_external_usage (const int64_t *values, guint n, gboolean per_pod)
{
  int64_t usage = 0;
  for (guint i = 0; i < n; i++)
    {
      int64_t val = values[i];
      if (per_pod)
        {
          usage = (int64_t) ((uint64_t) usage + (uint64_t) val); /* Go's wrapping add */
          if (usage < 0)
            return INT64_MAX;
          continue;
        }
      if (val > 0 && usage > INT64_MAX - val)
        return INT64_MAX;
      usage = (int64_t) ((uint64_t) usage + (uint64_t) val);
    }
  return usage;
}

/* ---- several metrics -------------------------------------------------------------------- */

/* horizontal.go computeReplicasForMetrics: "take it if the running value is 0 or the proposal
 * is larger"; all invalid -> -1; some invalid and the winner below current -> current (upstream
 * fails the reconcile there, so no scale happens). */
int
fs_hpa_combine_proposals (int32_t current_replicas, const FsHpaProposal *proposals, guint n,
                          int32_t *replicas)
{
  int32_t best = 0;
  int index = -1;
  guint invalid = 0;
  for (guint i = 0; i < n; i++)
    {
      if (!proposals[i].valid)
        {
          invalid++;
          continue;
        }
      if (best == 0 || proposals[i].replicas > best)
        {
          best = proposals[i].replicas;
          index = (int) i;
        }
    }
  if (invalid >= n)
    {
      *replicas = current_replicas;
      return -1;
    }
  if (invalid > 0 && best < current_replicas)
    *replicas = current_replicas;
  else
    *replicas = best;
  return index;
}

/* ---- limits and behavior ---------------------------------------------------------------- */

/* pkg/apis/autoscaling/v2/defaults.go GenerateHPAScaleUpRules / GenerateHPAScaleDownRules, with
 * the scale-down window the controller fills from --horizontal-pod-autoscaler-downscale-
 * stabilization (horizontal.go maybeInitScaleDownStabilizationWindow). */
FsHpaBehavior
fs_hpa_default_behavior (void)
{
  FsHpaBehavior behavior = {
    .scale_up = {
      .stabilization_window_seconds = 0,
      .select = FS_HPA_SELECT_MAX,
      .n_policies = 2,
      .policies = { { FS_HPA_POLICY_PODS, 4, 15 }, { FS_HPA_POLICY_PERCENT, 100, 15 } },
    },
    .scale_down = {
      .stabilization_window_seconds = 300,
      .select = FS_HPA_SELECT_MAX,
      .n_policies = 1,
      .policies = { { FS_HPA_POLICY_PERCENT, 100, 15 } },
    },
  };
  return behavior;
}

/* pkg/apis/autoscaling/v2/defaults.go SetDefaults_HorizontalPodAutoscaler (MinReplicas,
 * then SetDefaults_HorizontalPodAutoscalerBehavior); the tolerance is the controller's
 * (fs_hpa_default_settings) until behavior.scaleUp/scaleDown.tolerance say otherwise. */
/* One container's request of RESOURCE in milli-units into *MILLI; FALSE when it has none. */
static gboolean
container_request (const FsContainer *container, const char *resource, int64_t *milli)
{
  if (strcmp (resource, "cpu") == 0)
    {
      *milli = container->requests.cpu_milli;
      return (container->requests.present & FS_RES_CPU) != 0;
    }
  int64_t amount = fs_resources_get (&container->requests, resource);
  *milli = fs_saturating_mul (amount, 1000);
  return strcmp (resource, "memory") == 0 ? (container->requests.present & FS_RES_MEMORY) != 0 : amount > 0;
}

gboolean
fs_hpa_pod_request (const FsContainerSet *set, const char *resource, const char *container, int64_t *milli,
                    const char **missing)
{
  *milli = 0;
  *missing = NULL;
  gboolean found = FALSE;
  guint n = set != NULL ? set->n_containers + set->n_init : 0;
  for (guint c = 0; c < n; c++)
    {
      const FsContainer *ctr = c < set->n_containers ? &set->containers[c] : &set->init_containers[c - set->n_containers];
      if ((c >= set->n_containers && !ctr->restartable) || (container != NULL && g_strcmp0 (ctr->name, container) != 0))
        continue;
      found = TRUE;
      int64_t amount;
      if (!container_request (ctr, resource, &amount))
        {
          *missing = ctr->name;
          return FALSE;
        }
      *milli = fs_saturating_add (*milli, amount);
    }
  return found;
}

void
fs_hpa_spec_init (FsHpaSpec *spec)
{
  memset (spec, 0, sizeof *spec);
  FsHpaSettings settings = fs_hpa_default_settings (0);
  spec->min_replicas = FS_HPA_DEFAULT_MIN_REPLICAS;
  spec->behavior = fs_hpa_default_behavior ();
  spec->tolerance_up = settings.tolerance_up;
  spec->tolerance_down = settings.tolerance_down;
}

/* SetDefaults_HorizontalPodAutoscaler: no metrics is one Resource metric, cpu at
 * autoscaling.DefaultCPUUtilization (80 %). */
void
fs_hpa_spec_default_metrics (FsHpaSpec *spec)
{
  if (spec->n_metrics > 0)
    return;
  spec->metrics[0] = (FsHpaMetricSpec){ .type = FS_HPA_METRIC_RESOURCE, .name = "cpu",
                                        .target_type = FS_HPA_TARGET_UTILIZATION,
                                        .target_utilization = 80 };
  spec->n_metrics = 1;
}

#define LEGACY_DOWNSCALE_WINDOW_MS (300 * 1000)

static const char within_range_message[] = "the desired count is within the acceptable range";

static void
decide (FsHpaDecision *out, int32_t desired, FsHpaLimit limit, const char *reason,
        const char *message)
{
  out->desired = desired;
  out->limited_by = limit;
  out->reason = reason;
  out->message = message;
}

/* horizontal.go calculateScaleUpLimit. */
static int32_t
legacy_scale_up_limit (int32_t current)
{
  return to_int32 (fmax (2.0 * (double) current, 4.0));
}

/* horizontal.go normalizeDesiredReplicas: stabilizeRecommendation (max over recommendations not
 * before now - 300 s) then convertDesiredReplicasWithRules.  The reported reason is the
 * ScalingLimited one when the rules changed the value, else the AbleToScale one
 * ("ScaleDownStabilized") when the window held it, else "DesiredWithinRange". */
void
fs_hpa_normalize_legacy (int32_t current, int32_t proposal, int32_t min_replicas,
                         int32_t max_replicas, int64_t now_ms,
                         const FsHpaRecommendation *recommendations, guint n,
                         FsHpaDecision *out)
{
  int32_t stabilized = proposal;
  int64_t cutoff = now_ms - LEGACY_DOWNSCALE_WINDOW_MS;
  for (guint i = 0; i < n; i++)
    if (!(recommendations[i].timestamp_ms < cutoff) && recommendations[i].recommendation > stabilized)
      stabilized = recommendations[i].recommendation;
  out->stabilized = stabilized;

  /* convertDesiredReplicasWithRules */
  int32_t scale_up_limit = legacy_scale_up_limit (current);
  int32_t maximum;
  FsHpaLimit max_limit;
  const char *max_reason, *max_message;
  if (max_replicas > scale_up_limit)
    {
      maximum = scale_up_limit;
      max_limit = FS_HPA_LIMIT_SCALE_UP;
      max_reason = "ScaleUpLimit";
      max_message = "the desired replica count is increasing faster than the maximum scale rate";
    }
  else
    {
      maximum = max_replicas;
      max_limit = FS_HPA_LIMIT_MAX;
      max_reason = "TooManyReplicas";
      max_message = "the desired replica count is more than the maximum replica count";
    }
  if (stabilized < min_replicas)
    decide (out, min_replicas, FS_HPA_LIMIT_MIN, "TooFewReplicas",
            "the desired replica count is less than the minimum replica count");
  else if (stabilized > maximum)
    decide (out, maximum, max_limit, max_reason, max_message);
  else if (stabilized != proposal)
    decide (out, stabilized, FS_HPA_LIMIT_STABILIZATION, "ScaleDownStabilized",
            "recent recommendations were higher than current one, applying the highest recent "
            "recommendation");
  else
    decide (out, stabilized, FS_HPA_LIMIT_NONE, "DesiredWithinRange", within_range_message);
}

/* horizontal.go getReplicasChangePerPeriod: events strictly after now - period.  (The outdated
 * flag is not consulted there: it only marks slots for reuse in storeScaleEvent.) */
int32_t
fs_hpa_change_in_period (int32_t period_seconds, int64_t now_ms, const FsHpaScaleEvent *events,
                         guint n)
{
  int64_t cutoff = now_ms - (int64_t) period_seconds * 1000;
  int64_t replicas = 0;
  for (guint i = 0; i < n; i++)
    if (events[i].timestamp_ms > cutoff)
      replicas += events[i].replica_change;
  return clamp_int32 (replicas);
}

/* horizontal.go calculateScaleUpLimitWithScalingRules (UP) and
 * calculateScaleDownLimitWithBehaviors (!UP). */
static int32_t
policy_limit (gboolean up, int32_t current, const FsHpaRules *rules, int64_t now_ms,
              const FsHpaScaleEvent *up_events, guint n_up, const FsHpaScaleEvent *down_events,
              guint n_down)
{
  if (rules->select == FS_HPA_SELECT_DISABLED)
    return current;
  /* Scale up: Max picks the largest proposal, Min the smallest.  Scale down: Max (the largest
   * change) picks the smallest proposal, Min the largest. */
  gboolean take_larger = (rules->select == FS_HPA_SELECT_MIN) != up;
  int32_t result = take_larger ? INT32_MIN : INT32_MAX;
  guint n_policies = MIN (rules->n_policies, G_N_ELEMENTS (rules->policies));
  for (guint i = 0; i < n_policies; i++)
    {
      const FsHpaPolicy *policy = &rules->policies[i];
      int32_t added = fs_hpa_change_in_period (policy->period_seconds, now_ms, up_events, n_up);
      int32_t deleted = fs_hpa_change_in_period (policy->period_seconds, now_ms, down_events,
                                                 n_down);
      int32_t start = clamp_int32 ((int64_t) current - added + deleted);
      int32_t proposed = 0;
      switch (policy->type)
        {
        case FS_HPA_POLICY_PODS:
          proposed = clamp_int32 (up ? (int64_t) start + policy->value
                                     : (int64_t) start - policy->value);
          break;
        case FS_HPA_POLICY_PERCENT:
          if (up)
            /* Rounded up so that a small percentage still adds a pod. */
            proposed = ceil_to_int32 ((double) start * (1 + (double) policy->value / 100));
          else
            proposed = to_int32 ((double) start * (1 - (double) policy->value / 100));
          break;
        default:
          break;
        }
      result = take_larger ? MAX (result, proposed) : MIN (result, proposed);
    }
  return result;
}

/* horizontal.go normalizeDesiredReplicasWithBehaviors: stabilizeRecommendationWithBehaviors
 * then convertDesiredReplicasWithBehaviorRate.  Reason priority as in fs_hpa_normalize_legacy:
 * the rate/min/max reason when it changed the value, else "ScaleUpStabilized" /
 * "ScaleDownStabilized" when the windows did, else "DesiredWithinRange". */
void
fs_hpa_normalize_behavior (int32_t current, int32_t proposal, int32_t min_replicas,
                           int32_t max_replicas, const FsHpaBehavior *behavior, int64_t now_ms,
                           const FsHpaRecommendation *recommendations, guint n_recommendations,
                           const FsHpaScaleEvent *up_events, guint n_up,
                           const FsHpaScaleEvent *down_events, guint n_down, FsHpaDecision *out)
{
  /* stabilizeRecommendationWithBehaviors */
  int32_t up_recommendation = proposal, down_recommendation = proposal;
  int64_t up_cutoff = now_ms - (int64_t) behavior->scale_up.stabilization_window_seconds * 1000;
  int64_t down_cutoff
      = now_ms - (int64_t) behavior->scale_down.stabilization_window_seconds * 1000;
  for (guint i = 0; i < n_recommendations; i++)
    {
      const FsHpaRecommendation *rec = &recommendations[i];
      if (rec->timestamp_ms > up_cutoff)
        up_recommendation = MIN (rec->recommendation, up_recommendation);
      if (rec->timestamp_ms > down_cutoff)
        down_recommendation = MAX (rec->recommendation, down_recommendation);
    }
  int32_t stabilized = current;
  if (stabilized < up_recommendation)
    stabilized = up_recommendation;
  if (stabilized > down_recommendation)
    stabilized = down_recommendation;
  out->stabilized = stabilized;

  /* convertDesiredReplicasWithBehaviorRate */
  if (stabilized > current)
    {
      int32_t limit = policy_limit (TRUE, current, &behavior->scale_up, now_ms, up_events, n_up,
                                    down_events, n_down);
      if (limit < current)
        limit = current;
      int32_t maximum = max_replicas;
      FsHpaLimit why = FS_HPA_LIMIT_MAX;
      const char *reason = "TooManyReplicas";
      const char *message = "the desired replica count is more than the maximum replica count";
      if (maximum > limit)
        {
          maximum = limit;
          why = behavior->scale_up.select == FS_HPA_SELECT_DISABLED ? FS_HPA_LIMIT_DISABLED
                                                                    : FS_HPA_LIMIT_SCALE_UP;
          reason = "ScaleUpLimit";
          message = "the desired replica count is increasing faster than the maximum scale rate";
        }
      if (stabilized > maximum)
        {
          decide (out, maximum, why, reason, message);
          return;
        }
    }
  else if (stabilized < current)
    {
      int32_t limit = policy_limit (FALSE, current, &behavior->scale_down, now_ms, up_events,
                                    n_up, down_events, n_down);
      if (limit > current)
        limit = current;
      int32_t minimum = min_replicas;
      FsHpaLimit why = FS_HPA_LIMIT_MIN;
      const char *reason = "TooFewReplicas";
      const char *message = "the desired replica count is less than the minimum replica count";
      if (minimum < limit)
        {
          minimum = limit;
          why = behavior->scale_down.select == FS_HPA_SELECT_DISABLED ? FS_HPA_LIMIT_DISABLED
                                                                      : FS_HPA_LIMIT_SCALE_DOWN;
          reason = "ScaleDownLimit";
          message = "the desired replica count is decreasing faster than the maximum scale rate";
        }
      if (stabilized < minimum)
        {
          decide (out, minimum, why, reason, message);
          return;
        }
    }

  if (stabilized != proposal)
    {
      if (proposal >= current)
        decide (out, stabilized, FS_HPA_LIMIT_STABILIZATION, "ScaleUpStabilized",
                "recent recommendations were lower than current one, applying the lowest recent "
                "recommendation");
      else
        decide (out, stabilized, FS_HPA_LIMIT_STABILIZATION, "ScaleDownStabilized",
                "recent recommendations were higher than current one, applying the highest "
                "recent recommendation");
      return;
    }
  decide (out, stabilized, FS_HPA_LIMIT_NONE, "DesiredWithinRange", within_range_message);
}

/* ---- history between syncs --------------------------------------------------------------- */

void
fs_hpa_history_seed (FsHpaHistory *history, int64_t now_ms, int32_t current)
{
  memset (history, 0, sizeof *history);
  history->recommendations[0] = (FsHpaRecommendation){ now_ms, current };
  history->n_recommendations = 1;
}

/* Stores REC in a slot whose recommendation is older than CUTOFF, else appends; a full history
 * drops its oldest entry (a window / sync ratio over FS_HPA_HISTORY_MAX). */
static void
store_recommendation (FsHpaHistory *history, int64_t cutoff, FsHpaRecommendation rec)
{
  int old = -1;
  guint oldest = 0;
  for (guint i = 0; i < history->n_recommendations; i++)
    {
      if (history->recommendations[i].timestamp_ms < cutoff)
        old = (int) i;
      if (history->recommendations[i].timestamp_ms < history->recommendations[oldest].timestamp_ms)
        oldest = i;
    }
  if (old < 0 && history->n_recommendations == FS_HPA_HISTORY_MAX)
    old = (int) oldest;
  if (old >= 0)
    history->recommendations[old] = rec;
  else
    history->recommendations[history->n_recommendations++] = rec;
}

/* horizontal.go storeScaleEvent and markScaleEventsOutdated. */
static void
store_event (FsHpaScaleEvent *events, guint *n, const FsHpaRules *rules, int64_t now_ms,
             int32_t change)
{
  int32_t longest = 0;
  for (guint i = 0; i < rules->n_policies; i++)
    longest = MAX (longest, rules->policies[i].period_seconds);
  int old = -1;
  for (guint i = 0; i < *n; i++)
    {
      if (events[i].timestamp_ms < now_ms - (int64_t) longest * 1000)
        events[i].outdated = TRUE;
      if (events[i].outdated)
        old = (int) i;
    }
  if (old < 0 && *n == FS_HPA_HISTORY_MAX)
    old = 0;
  FsHpaScaleEvent event = { now_ms, change, FALSE };
  if (old >= 0)
    events[old] = event;
  else
    events[(*n)++] = event;
}

int32_t
fs_hpa_sync (FsHpaHistory *history, const FsHpaBehavior *behavior, int64_t now_ms, int32_t current,
             int32_t proposal, int32_t min_replicas, int32_t max_replicas, FsHpaDecision *decision)
{
  FsHpaRecommendation rec = { now_ms, proposal };
  if (behavior == NULL)
    {
      /* stabilizeRecommendation stores first, then takes the highest of the window */
      store_recommendation (history, now_ms - LEGACY_DOWNSCALE_WINDOW_MS, rec);
      fs_hpa_normalize_legacy (current, proposal, min_replicas, max_replicas, now_ms,
                               history->recommendations, history->n_recommendations, decision);
      return decision->desired;
    }
  fs_hpa_normalize_behavior (current, proposal, min_replicas, max_replicas, behavior, now_ms,
                             history->recommendations, history->n_recommendations, history->up,
                             history->n_up, history->down, history->n_down, decision);
  int64_t longest_window = MAX (behavior->scale_up.stabilization_window_seconds,
                                behavior->scale_down.stabilization_window_seconds);
  store_recommendation (history, now_ms - longest_window * 1000, rec);
  if (decision->desired > current)
    store_event (history->up, &history->n_up, &behavior->scale_up, now_ms, decision->desired - current);
  else if (decision->desired < current)
    store_event (history->down, &history->n_down, &behavior->scale_down, now_ms,
                 current - decision->desired);
  return decision->desired;
}

gboolean
fs_hpa_replicas_valid (int32_t min_replicas, int32_t max_replicas, gboolean scale_to_zero,
                       const char *min_field, const char *max_field, GError **error)
{
  int32_t lowest = scale_to_zero ? 0 : 1;
  if (min_replicas < lowest)
    g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "field %s: Invalid value: %d: must be greater than or equal to %d",
                 min_field, min_replicas, lowest);
  else if (max_replicas < 1)
    g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "field %s: Invalid value: %d: must be greater than 0", max_field,
                 max_replicas);
  else if (max_replicas < min_replicas)
    g_set_error (error, FS_ERROR, FS_ERROR_INVALID,
                 "field %s: Invalid value: %d: must be greater than or equal to `minReplicas` (%d)", max_field,
                 max_replicas, min_replicas);
  else
    return TRUE;
  return FALSE;
}
