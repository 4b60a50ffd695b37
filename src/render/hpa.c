/* fitscale — the answer of `fitscale hpa` (see include/fitscale/render/hpa.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fitscale/model/quantity.h"
#include "fitscale/render/hpa.h"

static const char *const metric_types[] = {
  [FS_HPA_METRIC_RESOURCE] = "Resource", [FS_HPA_METRIC_CONTAINER_RESOURCE] = "ContainerResource",
  [FS_HPA_METRIC_PODS] = "Pods", [FS_HPA_METRIC_OBJECT] = "Object",
  [FS_HPA_METRIC_EXTERNAL] = "External",
};

static const char *const sources[] = {
  [FS_HPA_SOURCE_NONE] = "none", [FS_HPA_SOURCE_POD_METRICS] = "PodMetrics",
  [FS_HPA_SOURCE_STATUS] = "HPA status", [FS_HPA_SOURCE_METRIC_VALUES] = "metric values",
};

static const char *const limits[] = {
  [FS_HPA_LIMIT_NONE] = "none", [FS_HPA_LIMIT_MIN] = "minReplicas",
  [FS_HPA_LIMIT_MAX] = "maxReplicas", [FS_HPA_LIMIT_SCALE_UP] = "scaleUp policy",
  [FS_HPA_LIMIT_SCALE_DOWN] = "scaleDown policy",
  [FS_HPA_LIMIT_STABILIZATION] = "stabilization window", [FS_HPA_LIMIT_DISABLED] = "selectPolicy Disabled",
};

/* A milli-unit amount as a quantity: 20000m is "20", 1500m stays "1500m". */
static char *
milli_text (int64_t milli)
{
  char text[FS_QUANTITY_INT_BUF];
  return g_strdup (fs_quantity_format_int (milli, -3, FS_QUANTITY_DECIMAL_SI, text));
}

/* A value of SPEC's metric for people: a resource metric's amount as every table prints that
 * resource (memory "83Mi", not "87381333333m" bytes in milli-units; cpu "250m"), any other
 * metric's as its quantity. */
static char *
people_text (const FsHpaMetricSpec *spec, int64_t milli)
{
  char text[32];
  if (spec->type != FS_HPA_METRIC_RESOURCE && spec->type != FS_HPA_METRIC_CONTAINER_RESOURCE)
    return milli_text (milli);
  if (strcmp (spec->name, "cpu") == 0)
    return g_strdup (fs_format_for_people ("cpu", milli, text));
  return g_strdup (fs_format_for_people (spec->name, milli / 1000, text));
}

static char *
current_text (const FsHpaMetricAnswer *metric)
{
  const FsHpaProposal *proposal = &metric->proposal;
  if (!proposal->valid)
    return g_strdup ("<unknown>");
  switch (metric->spec->target_type)
    {
    case FS_HPA_TARGET_UTILIZATION:
      return g_strdup_printf ("%d%%", proposal->utilization);
    case FS_HPA_TARGET_AVERAGE_VALUE:
      return people_text (metric->spec, proposal->average_milli);
    case FS_HPA_TARGET_VALUE:
    default:
      return people_text (metric->spec, proposal->value_milli);
    }
}

static char *
target_text (const FsHpaMetricSpec *spec)
{
  if (spec->target_type == FS_HPA_TARGET_UTILIZATION)
    return g_strdup_printf ("%d%%", spec->target_utilization);
  return people_text (spec, spec->target_milli);
}

static void
emit_decision (FsEmitter *emitter, const char *key, const FsHpaDecision *decision)
{
  fs_emit_key (emitter, key);
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "desiredReplicas");
  fs_emit_int (emitter, decision->desired);
  fs_emit_key (emitter, "stabilized");
  fs_emit_int (emitter, decision->stabilized);
  fs_emit_key (emitter, "limitedBy");
  fs_emit_string (emitter, limits[decision->limited_by]);
  fs_emit_key (emitter, "reason");
  fs_emit_string (emitter, decision->reason);
  fs_emit_key (emitter, "message");
  fs_emit_string (emitter, decision->message);
  fs_emit_map_close (emitter);
}

/* How the replica calculator counted each pod, and why. */
static void
emit_pods (FsEmitter *emitter, const FsHpaMetricAnswer *metric)
{
  fs_emit_list_open (emitter);
  for (guint p = 0; p < metric->n_pods; p++)
    {
      static const char *const groups[] = { "ready", "unready", "missing", "ignored" };
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "name");
      fs_emit_string (emitter, metric->pods[p].name);
      fs_emit_key (emitter, "counted");
      fs_emit_string (emitter, groups[metric->pods[p].group]);
      fs_emit_key (emitter, "why");
      fs_emit_string (emitter, metric->pods[p].why);
      fs_emit_map_close (emitter);
    }
  fs_emit_list_close (emitter);
}

/* The metric's current value, named by its target's type: a utilization percent, or a value
 * as the HPA's status writes it, a Quantity string ("20", "3k", "500m"), as the table does. */
static void
emit_current (FsEmitter *emitter, const FsHpaMetricAnswer *metric)
{
  const FsHpaProposal *proposal = &metric->proposal;
  if (metric->spec->target_type == FS_HPA_TARGET_UTILIZATION)
    {
      fs_emit_key (emitter, "currentUtilization");
      fs_emit_int (emitter, proposal->utilization);
      return;
    }
  gboolean average = metric->spec->target_type == FS_HPA_TARGET_AVERAGE_VALUE;
  g_autofree char *value = milli_text (average ? proposal->average_milli : proposal->value_milli);
  fs_emit_key (emitter, average ? "currentAverageValue" : "currentValue");
  fs_emit_string (emitter, value);
}

/* Go's text for a ratio that is not finite: +Inf (usage over a target times 0 status
 * replicas: upstream scales up to ceil(usage / target)), NaN (0 over 0), else NULL. */
static const char *
nonfinite_text (double ratio)
{
  if (isnan (ratio))
    return "NaN";
  if (isinf (ratio))
    return ratio > 0 ? "+Inf" : "-Inf";
  return NULL;
}

/* KEY as a number, or null plus KEYText ("+Inf", "NaN") when it is not finite: JSON has
 * neither. */
static void
emit_ratio (FsEmitter *emitter, const char *key, double ratio)
{
  fs_emit_key (emitter, key);
  fs_emit_decimal (emitter, ratio, 4);
  const char *text = nonfinite_text (ratio);
  if (text != NULL)
    {
      g_autofree char *text_key = g_strdup_printf ("%sText", key);
      fs_emit_key (emitter, text_key);
      fs_emit_string (emitter, text);
    }
}

static void
emit_metric (FsEmitter *emitter, const FsHpaMetricAnswer *metric)
{
  const FsHpaProposal *proposal = &metric->proposal;
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "type");
  fs_emit_string (emitter, metric_types[metric->spec->type]);
  fs_emit_key (emitter, "name");
  fs_emit_string (emitter, metric->spec->name);
  fs_emit_key (emitter, "source");
  fs_emit_string (emitter, sources[metric->source]);
  fs_emit_key (emitter, "valid");
  fs_emit_bool (emitter, proposal->valid);
  if (!proposal->valid)
    {
      fs_emit_key (emitter, "error");
      fs_emit_string (emitter, proposal->error);
    }
  else
    {
      emit_current (emitter, metric);
      emit_ratio (emitter, "ratio", proposal->usage_ratio);
      emit_ratio (emitter, "rebalancedRatio", proposal->rebalanced_ratio);
      fs_emit_key (emitter, "withinTolerance");
      fs_emit_bool (emitter, proposal->within_tolerance);
      fs_emit_key (emitter, "proposedReplicas");
      fs_emit_int (emitter, proposal->replicas);
    }
  fs_emit_key (emitter, "ready");
  fs_emit_int (emitter, proposal->ready);
  fs_emit_key (emitter, "unready");
  fs_emit_int (emitter, proposal->unready);
  fs_emit_key (emitter, "missing");
  fs_emit_int (emitter, proposal->missing);
  fs_emit_key (emitter, "ignored");
  fs_emit_int (emitter, proposal->ignored);
  fs_emit_key (emitter, "pods");
  emit_pods (emitter, metric);
  fs_emit_map_close (emitter);
}

void
fs_render_hpa (FsEmitter *emitter, const FsHpaAnswer *answer)
{
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "namespace");
  fs_emit_string (emitter, answer->hpa.namespace);
  fs_emit_key (emitter, "name");
  fs_emit_string (emitter, answer->hpa.name);
  fs_emit_key (emitter, "scaleTargetRef");
  g_autofree char *target = g_strdup_printf ("%s/%s", answer->hpa.target_kind, answer->hpa.target_name);
  fs_emit_string (emitter, target);
  fs_emit_key (emitter, "currentReplicas");
  fs_emit_int (emitter, answer->current_replicas);
  fs_emit_key (emitter, "minReplicas");
  fs_emit_int (emitter, answer->hpa.min_replicas);
  fs_emit_key (emitter, "maxReplicas");
  fs_emit_int (emitter, answer->hpa.max_replicas);
  fs_emit_key (emitter, "metrics");
  fs_emit_list_open (emitter);
  for (guint i = 0; i < answer->n_metrics; i++)
    emit_metric (emitter, &answer->metrics[i]);
  fs_emit_list_close (emitter);
  fs_emit_key (emitter, "winningMetric");
  answer->winner >= 0 ? fs_emit_string (emitter, answer->metrics[answer->winner].spec->name)
                      : fs_emit_null (emitter);
  fs_emit_key (emitter, "proposal");
  fs_emit_int (emitter, answer->proposal);
  fs_emit_key (emitter, "desiredReplicas");
  fs_emit_int (emitter, answer->now.desired);
  fs_emit_key (emitter, "limitedBy");
  fs_emit_string (emitter, limits[answer->now.limited_by]);
  emit_decision (emitter, "now", &answer->now);
  emit_decision (emitter, "onceWindowsPass", &answer->settled);
  /* the HPA's own condition ScalingActive=False: it does not scale while it holds */
  fs_emit_key (emitter, "scalingActive");
  if (answer->hpa.scaling_active_reason != NULL || answer->hpa.scaling_active_message != NULL)
    {
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "status");
      fs_emit_string (emitter, "False");
      fs_emit_key (emitter, "reason");
      fs_emit_string (emitter, answer->hpa.scaling_active_reason);
      fs_emit_key (emitter, "message");
      fs_emit_string (emitter, answer->hpa.scaling_active_message);
      fs_emit_map_close (emitter);
    }
  else
    fs_emit_null (emitter);
  fs_emit_map_close (emitter);
}

static char *
ratio_text (double ratio)
{
  const char *text = nonfinite_text (ratio);
  return text != NULL ? g_strdup (text) : g_strdup_printf ("%.3f", ratio);
}

static void
add_metric_row (FsTable *table, const FsHpaMetricAnswer *metric)
{
  const FsHpaProposal *proposal = &metric->proposal;
  g_autofree char *name = g_strdup_printf ("%s %s", metric_types[metric->spec->type], metric->spec->name);
  g_autofree char *ready = g_strdup_printf ("%u", proposal->ready);
  g_autofree char *unready = g_strdup_printf ("%u", proposal->unready);
  g_autofree char *missing = g_strdup_printf ("%u", proposal->missing);
  g_autofree char *ignored = g_strdup_printf ("%u", proposal->ignored);
  g_autofree char *current = current_text (metric);
  g_autofree char *target = target_text (metric->spec);
  g_autofree char *usage = ratio_text (proposal->usage_ratio);
  g_autofree char *rebalanced = ratio_text (proposal->rebalanced_ratio);
  g_autofree char *ratio = !proposal->valid ? g_strdup ("-")
                           : strcmp (usage, rebalanced) != 0
                               ? g_strdup_printf ("%s -> %s", usage, rebalanced)
                               : g_strdup_printf ("%s%s", usage,
                                                  proposal->within_tolerance ? " (within)" : "");
  g_autofree char *proposed = proposal->valid ? g_strdup_printf ("%d", proposal->replicas)
                                              : g_strdup ("invalid");
  const char *cells[] = { name, sources[metric->source], ready, unready, missing, ignored,
                          current, target, ratio, proposed };
  fs_table_add_row (table, cells);
}

static void
print_metrics (FILE *out, const FsHpaAnswer *answer)
{
  static const char *const headers[] = { "METRIC", "SOURCE", "READY", "UNREADY", "MISSING",
                                         "IGNORED", "CURRENT", "TARGET", "RATIO", "PROPOSED" };
  g_autoptr (FsTable) table = fs_table_new (10, headers);
  for (guint i = 0; i < answer->n_metrics; i++)
    add_metric_row (table, &answer->metrics[i]);
  fs_table_print (table, out);
  FS_SCRATCH (safe);
  for (guint i = 0; i < answer->n_metrics; i++)
    if (!answer->metrics[i].proposal.valid)
      fprintf (out, "  %s: %s\n", fs_safe (safe, answer->metrics[i].spec->name),
               fs_safe (safe, answer->metrics[i].proposal.error));
}

/* The pods that were not counted as ready, and why (the first per-pod metric says it). */
static void
print_not_ready (FILE *out, const FsHpaAnswer *answer)
{
  FS_SCRATCH (safe);
  for (guint i = 0; i < answer->n_metrics; i++)
    {
      const FsHpaMetricAnswer *metric = &answer->metrics[i];
      if (metric->n_pods == 0)
        continue;
      gboolean header = FALSE;
      for (guint p = 0; p < metric->n_pods; p++)
        if (metric->pods[p].group != FS_HPA_POD_READY)
          {
            if (!header)
              fprintf (out, "\nNot counted as ready for %s:\n", fs_safe (safe, metric->spec->name));
            header = TRUE;
            fprintf (out, "  %-40s %s\n", fs_safe (safe, metric->pods[p].name), fs_safe (safe, metric->pods[p].why));
          }
      break;
    }
}

/* The winning metric, the decision now and once the windows pass, and what to run next. */
static void
print_decision (FILE *out, const FsHpaAnswer *answer)
{
  const FsHpaSpec *hpa = &answer->hpa;
  FS_SCRATCH (safe);
  if (answer->winner >= 0)
    fprintf (out, "\nThe largest proposal wins: %s, %d replica%s.\n",
             fs_safe (safe, answer->metrics[answer->winner].spec->name), answer->proposal,
             answer->proposal == 1 ? "" : "s");
  else
    fprintf (out, "\nNo metric is valid: the HPA keeps %d replica%s.\n", answer->proposal,
             answer->proposal == 1 ? "" : "s");
  if (hpa->scaling_active_reason != NULL || hpa->scaling_active_message != NULL)
    /* the HPA says itself that it cannot scale: that, not the range its count is in */
    fprintf (out, "Now: %d replica%s, and the HPA does not scale: ScalingActive=False (%s%s%s).\n",
             answer->now.desired, answer->now.desired == 1 ? "" : "s",
             hpa->scaling_active_reason != NULL ? fs_safe (safe, hpa->scaling_active_reason) : "no reason",
             hpa->scaling_active_message != NULL ? ": " : "",
             hpa->scaling_active_message != NULL ? fs_safe (safe, hpa->scaling_active_message) : "");
  else
    fprintf (out, "Now: %d replica%s (%s%s%s).\n", answer->now.desired, answer->now.desired == 1 ? "" : "s",
             answer->now.reason != NULL ? answer->now.reason : "no limit",
             answer->now.message != NULL ? ": " : "",
             answer->now.message != NULL ? fs_safe (safe, answer->now.message) : "");
  if (answer->settled.desired != answer->now.desired)
    fprintf (out, "Once the stabilization windows pass: %d replica%s.\n", answer->settled.desired,
             answer->settled.desired == 1 ? "" : "s");
  if (answer->now.desired > answer->current_replicas)
    {
      g_autofree char *kind = g_ascii_strdown (hpa->target_kind, -1);
      fprintf (out, "\nMore replicas need room: fitscale capacity --from %s/%s -n %s --replicas %d\n",
               fs_safe (safe, kind), fs_safe (safe, hpa->target_name), fs_safe (safe, hpa->namespace),
               answer->now.desired);
    }
}

void
fs_render_hpa_table (FILE *out, const FsHpaAnswer *answer)
{
  const FsHpaSpec *hpa = &answer->hpa;
  FS_SCRATCH (safe);
  fprintf (out, "HPA %s/%s scales %s/%s: %d replica%s now, between %d and %d%s.\n", fs_safe (safe, hpa->namespace),
           fs_safe (safe, hpa->name), fs_safe (safe, hpa->target_kind), fs_safe (safe, hpa->target_name),
           answer->current_replicas,
           answer->current_replicas == 1 ? "" : "s",
           hpa->min_replicas, hpa->max_replicas,
           answer->target == NULL ? " (the target is not in the snapshot)" : "");
  fprintf (out, "%u pod%s selected; tolerance %.2f down, %.2f up.\n\n", answer->n_pods,
           answer->n_pods == 1 ? "" : "s", hpa->tolerance_down, hpa->tolerance_up);
  print_metrics (out, answer);
  print_not_ready (out, answer);
  print_decision (out, answer);
}
