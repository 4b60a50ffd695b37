/* fitscale — HPAs and metric values decoded (see include/fitscale/kube/hpaspec.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fitscale/model/error.h"
#include "fitscale/kube/hpaspec.h"
#include "fitscale/model/timeutil.h"
#include "fitscale/kube/tree.h"

static const struct { const char *name; FsHpaMetricType type; const char *key; } metric_types[] = {
  { "Resource", FS_HPA_METRIC_RESOURCE, "resource" },
  { "ContainerResource", FS_HPA_METRIC_CONTAINER_RESOURCE, "containerResource" },
  { "Pods", FS_HPA_METRIC_PODS, "pods" },
  { "Object", FS_HPA_METRIC_OBJECT, "object" },
  { "External", FS_HPA_METRIC_EXTERNAL, "external" },
};

/* A target: v2 {type, averageUtilization | averageValue | value}, or v2beta1's flat fields. */
static gboolean
read_target (const FsTree *source, const char *where, FsHpaMetricSpec *metric, GError **error)
{
  const char *type = fs_tree_text (source, "target.type");
  int64_t number;
  GError *local_error = NULL;
  if (type == NULL)
    {
      /* autoscaling/v2beta1 (Hvpa templates) */
      if (fs_tree_int (source, "targetAverageUtilization", 1, G_MAXINT32, &number, &local_error))
        {
          metric->target_type = FS_HPA_TARGET_UTILIZATION;
          metric->target_utilization = (int32_t) number;
          return TRUE;
        }
      if (local_error == NULL
          && fs_tree_milli (source, "targetAverageValue", &metric->target_milli, &local_error))
        {
          metric->target_type = FS_HPA_TARGET_AVERAGE_VALUE;
          return TRUE;
        }
      if (local_error == NULL
          && fs_tree_milli (source, "targetValue", &metric->target_milli, &local_error))
        {
          metric->target_type = FS_HPA_TARGET_VALUE;
          return TRUE;
        }
      if (local_error == NULL)
        g_set_error (&local_error, FS_ERROR, FS_ERROR_INVALID, "target: missing");
    }
  else if (strcmp (type, "Utilization") == 0)
    {
      metric->target_type = FS_HPA_TARGET_UTILIZATION;
      if (fs_tree_int (source, "target.averageUtilization", 1, G_MAXINT32, &number, &local_error))
        {
          metric->target_utilization = (int32_t) number;
          return TRUE;
        }
      if (local_error == NULL)
        g_set_error (&local_error, FS_ERROR, FS_ERROR_INVALID, "target.averageUtilization: missing");
    }
  else if (strcmp (type, "AverageValue") == 0 || strcmp (type, "Value") == 0)
    {
      gboolean average = strcmp (type, "AverageValue") == 0;
      metric->target_type = average ? FS_HPA_TARGET_AVERAGE_VALUE : FS_HPA_TARGET_VALUE;
      const char *field = average ? "target.averageValue" : "target.value";
      if (fs_tree_milli (source, field, &metric->target_milli, &local_error))
        return TRUE;
      if (local_error == NULL)
        g_set_error (&local_error, FS_ERROR, FS_ERROR_INVALID, "%s: missing", field);
    }
  else
    g_set_error (&local_error, FS_ERROR, FS_ERROR_INVALID,
                 "target.type \"%s\" is not Utilization, AverageValue or Value", type);
  g_propagate_prefixed_error (error, local_error, "%s.", where);
  return FALSE;
}

static gboolean
read_metric (const FsTree *entry, guint index, FsHpaMetricSpec *metric, GError **error)
{
  const char *type = fs_tree_text (entry, "type");
  for (gsize i = 0; type != NULL && i < G_N_ELEMENTS (metric_types); i++)
    if (strcmp (type, metric_types[i].name) == 0)
      {
        const FsTree *source = fs_tree_at (entry, metric_types[i].key);
        g_autofree char *where = g_strdup_printf ("spec.metrics[%u].%s", index, metric_types[i].key);
        metric->type = metric_types[i].type;
        if (source == NULL)
          {
            g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "%s: missing", where);
            return FALSE;
          }
        metric->name = fs_tree_text (source, "name");
        if (metric->name == NULL)
          metric->name = fs_tree_text (source, "metric.name");
        if (metric->name == NULL)
          metric->name = fs_tree_text (source, "metricName"); /* v2beta1 */
        metric->container = fs_tree_text (source, "container");
        metric->object_kind = fs_tree_text (source, "describedObject.kind");
        metric->object_name = fs_tree_text (source, "describedObject.name");
        if (metric->name == NULL)
          {
            g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "%s: no name", where);
            return FALSE;
          }
        return read_target (source, where, metric, error);
      }
  g_set_error (error, FS_ERROR, FS_ERROR_INVALID,
               "spec.metrics[%u].type \"%s\" is not Resource, ContainerResource, Pods, Object or "
               "External", index, type != NULL ? type : "");
  return FALSE;
}

/* status.currentMetrics: the entry of the same type and name, when there is one. */
static void
read_current (const FsTree *status, FsHpaMetricSpec *metric)
{
  guint n = fs_tree_length (status, "currentMetrics");
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *base = g_strdup_printf ("currentMetrics[%u]", i);
      const FsTree *entry = fs_tree_at (status, base);
      const char *type = fs_tree_text (entry, "type");
      for (gsize t = 0; type != NULL && t < G_N_ELEMENTS (metric_types); t++)
        {
          if (metric_types[t].type != metric->type || strcmp (type, metric_types[t].name) != 0)
            continue;
          const FsTree *source = fs_tree_at (entry, metric_types[t].key);
          const char *name = fs_tree_text (source, "name");
          if (name == NULL)
            name = fs_tree_text (source, "metric.name");
          if (g_strcmp0 (name, metric->name) != 0)
            continue;
          int64_t number;
          metric->has_current = TRUE;
          if (fs_tree_int (source, "current.averageUtilization", 0, G_MAXINT32, &number, NULL))
            {
              metric->has_current_utilization = TRUE;
              metric->current_utilization = (int32_t) number;
            }
          if (!fs_tree_milli (source, "current.averageValue", &metric->current_milli, NULL))
            fs_tree_milli (source, "current.value", &metric->current_milli, NULL);
        }
    }
}

static gboolean
read_rules (const FsTree *rules, const char *where, FsHpaRules *out, double *tolerance,
            GError **error)
{
  if (rules == NULL)
    return TRUE;
  int64_t number;
  GError *local_error = NULL;
  if (fs_tree_int (rules, "stabilizationWindowSeconds", 0, 3600, &number, &local_error))
    out->stabilization_window_seconds = (int32_t) number;
  const char *select = fs_tree_text (rules, "selectPolicy");
  if (select != NULL && strcmp (select, "Max") != 0 && strcmp (select, "Min") != 0 && strcmp (select, "Disabled") != 0)
    g_set_error (&local_error, FS_ERROR, FS_ERROR_INVALID,
                 "selectPolicy: Unsupported value: \"%.40s\": supported values: \"Disabled\", \"Max\", \"Min\"", select);
  else if (select != NULL)
    out->select = strcmp (select, "Min") == 0        ? FS_HPA_SELECT_MIN
                  : strcmp (select, "Disabled") == 0 ? FS_HPA_SELECT_DISABLED
                                                     : FS_HPA_SELECT_MAX;
  const char *tolerance_text = fs_tree_text (rules, "tolerance");
  if (tolerance_text != NULL)
    {
      int64_t milli;
      if (fs_tree_milli (rules, "tolerance", &milli, &local_error) && milli < 0)
        g_set_error (&local_error, FS_ERROR, FS_ERROR_INVALID,
                     "tolerance: Invalid value: \"%s\": must be greater than or equal to 0", tolerance_text);
      else if (local_error == NULL)
        *tolerance = (double) milli / 1000.0;
    }
  guint n = fs_tree_length (rules, "policies");
  if (n > 0)
    out->n_policies = 0;
  for (guint i = 0; i < n && local_error == NULL; i++)
    {
      if (out->n_policies == G_N_ELEMENTS (out->policies))
        {
          g_set_error (&local_error, FS_ERROR, FS_ERROR_LIMIT, "policies: more than %u",
                       (guint) G_N_ELEMENTS (out->policies));
          break;
        }
      g_autofree char *base = g_strdup_printf ("policies[%u]", i);
      const FsTree *policy = fs_tree_at (rules, base);
      FsHpaPolicy *slot = &out->policies[out->n_policies];
      const char *type = fs_tree_text (policy, "type");
      slot->type = g_strcmp0 (type, "Percent") == 0 ? FS_HPA_POLICY_PERCENT : FS_HPA_POLICY_PODS;
      int64_t value = 0, period = 0;
      if (!fs_tree_int (policy, "value", 1, G_MAXINT32, &value, &local_error)
          || !fs_tree_int (policy, "periodSeconds", 1, 1800, &period, &local_error))
        {
          if (local_error == NULL)
            g_set_error (&local_error, FS_ERROR, FS_ERROR_INVALID, "%s: value and periodSeconds are required", base);
          break;
        }
      slot->value = (int32_t) value;
      slot->period_seconds = (int32_t) period;
      out->n_policies++;
    }
  if (local_error != NULL)
    {
      g_propagate_prefixed_error (error, local_error, "%s.", where);
      return FALSE;
    }
  return TRUE;
}

gboolean
fs_hpa_replicas_read (const FsTree *tree, const char *min_path, const char *max_path,
                      const char *max_missing, int32_t *min_replicas, int32_t *max_replicas,
                      GError **error)
{
  int64_t number;
  *min_replicas = FS_HPA_DEFAULT_MIN_REPLICAS;
  if (fs_tree_int (tree, min_path, 0, G_MAXINT32, &number, error))
    *min_replicas = (int32_t) number;
  else if (error != NULL && *error != NULL)
    return FALSE;
  if (!fs_tree_int (tree, max_path, 1, G_MAXINT32, &number, error))
    {
      if (error != NULL && *error == NULL)
        g_set_error_literal (error, FS_ERROR, FS_ERROR_INVALID, max_missing);
      return FALSE;
    }
  *max_replicas = (int32_t) number;
  return TRUE;
}

static gboolean
read_spec (const FsTree *tree, FsHpaSpec *spec, GError **error)
{
  spec->target_kind = fs_tree_text (tree, "spec.scaleTargetRef.kind");
  spec->target_name = fs_tree_text (tree, "spec.scaleTargetRef.name");
  if (spec->target_kind == NULL || spec->target_name == NULL)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "field spec.scaleTargetRef: kind and name are required");
      return FALSE;
    }
  if (!fs_hpa_replicas_read (tree, "spec.minReplicas", "spec.maxReplicas", "field spec.maxReplicas: missing",
                             &spec->min_replicas, &spec->max_replicas, error))
    return FALSE;
  guint n = fs_tree_length (tree, "spec.metrics");
  if (n > FS_HPA_MAX_METRICS)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_LIMIT, "field spec.metrics: more than %d", FS_HPA_MAX_METRICS);
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *path = g_strdup_printf ("spec.metrics[%u]", i);
      if (!read_metric (fs_tree_at (tree, path), i, &spec->metrics[i], error))
        return FALSE;
    }
  spec->n_metrics = n;
  /* minReplicas 0 is valid only for the HPAScaleToZero gate's case: an Object or External metric */
  gboolean scale_to_zero = FALSE;
  for (guint i = 0; i < n; i++)
    scale_to_zero |= spec->metrics[i].type == FS_HPA_METRIC_OBJECT || spec->metrics[i].type == FS_HPA_METRIC_EXTERNAL;
  if (!fs_hpa_replicas_valid (spec->min_replicas, spec->max_replicas, scale_to_zero, "spec.minReplicas",
                              "spec.maxReplicas", error))
    return FALSE;
  fs_hpa_spec_default_metrics (spec);
  return TRUE;
}

void
fs_hpa_status_read (const FsGenericObject *object, FsHpaSpec *spec)
{
  const FsTree *status = fs_tree_at (object->object, "status");
  if (status == NULL)
    return;
  int64_t number;
  spec->has_status = TRUE;
  if (fs_tree_int (status, "currentReplicas", 0, G_MAXINT32, &number, NULL))
    spec->current_replicas = (int32_t) number;
  spec->has_desired_replicas = fs_tree_int (status, "desiredReplicas", 0, G_MAXINT32, &number, NULL);
  if (spec->has_desired_replicas)
    spec->desired_replicas = (int32_t) number;
  const char *last = fs_tree_text (status, "lastScaleTime");
  int64_t seconds;
  if (last != NULL && fs_time_parse (last, strlen (last), &seconds))
    spec->last_scale_ms = seconds * 1000;
  guint n = fs_tree_length (status, "conditions");
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *base = g_strdup_printf ("conditions[%u]", i);
      const FsTree *condition = fs_tree_at (status, base);
      const char *type = fs_tree_text (condition, "type");
      const char *value = fs_tree_text (condition, "status");
      if (g_strcmp0 (type, "ScalingActive") == 0 && g_strcmp0 (value, "False") == 0)
        {
          spec->scaling_active_reason = fs_tree_text (condition, "reason");
          spec->scaling_active_message = fs_tree_text (condition, "message");
        }
      if (g_strcmp0 (type, "ScalingLimited") == 0)
        spec->scaling_limited = g_strcmp0 (value, "True") == 0;
      if (g_strcmp0 (type, "ScalingLimited") == 0 && g_strcmp0 (value, "True") == 0)
        spec->scaling_limited_reason = fs_tree_text (condition, "reason");
    }
  for (guint i = 0; i < spec->n_metrics; i++)
    read_current (status, &spec->metrics[i]);
}

gboolean
fs_hpa_spec_read (const FsGenericObject *object, FsHpaSpec *spec, GError **error)
{
  fs_hpa_spec_init (spec);
  spec->namespace = object->namespace;
  spec->name = object->name;
  const FsTree *tree = object->object;
  GError *local_error = NULL;
  const FsTree *behavior = fs_tree_at (tree, "spec.behavior");
  spec->has_behavior = behavior != NULL;
  if (!read_spec (tree, spec, &local_error)
      || !read_rules (fs_tree_at (behavior, "scaleUp"), "spec.behavior.scaleUp",
                      &spec->behavior.scale_up, &spec->tolerance_up, &local_error)
      || !read_rules (fs_tree_at (behavior, "scaleDown"), "spec.behavior.scaleDown",
                      &spec->behavior.scale_down, &spec->tolerance_down, &local_error))
    {
      g_set_error (error, FS_ERROR, local_error->code, "HorizontalPodAutoscaler %s/%s: %s",
                   object->namespace, object->name, local_error->message);
      g_error_free (local_error);
      return FALSE;
    }
  fs_hpa_status_read (object, spec);
  return TRUE;
}

void
fs_metric_value_read (const FsGenericObject *item, FsMetricValue *value)
{
  const FsTree *tree = item->object;
  memset (value, 0, sizeof *value);
  value->metric_name = fs_tree_text (tree, "metric.name");      /* custom.metrics v1beta2 */
  if (value->metric_name == NULL)
    value->metric_name = fs_tree_text (tree, "metricName");     /* v1beta1, external */
  value->object_kind = fs_tree_text (tree, "describedObject.kind");
  value->object_namespace = fs_tree_text (tree, "describedObject.namespace");
  value->object_name = fs_tree_text (tree, "describedObject.name");
  value->has_value = fs_tree_milli (tree, "value", &value->value_milli, NULL);
}
