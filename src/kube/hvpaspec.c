/* fitscale — VPAs and Hvpas decoded (see include/fitscale/kube/hvpaspec.h). */
#include "config.h"

#include <string.h>

#include "fitscale/model/error.h"
#include "fitscale/kube/hpaspec.h"
#include "fitscale/kube/hvpaspec.h"
#include "fitscale/model/names.h"
#include "fitscale/model/selector.h"
#include "fitscale/model/timeutil.h"
#include "fitscale/kube/tree.h"

static const char *const resource_names[FS_HVPA_N_RESOURCES] = { "cpu", "memory" };

/* The first of PATHS that is present. */
static const FsTree *
first_of (const FsTree *tree, const char *const *paths)
{
  for (; *paths != NULL; paths++)
    {
      const FsTree *found = fs_tree_at (tree, *paths);
      if (found != NULL)
        return found;
    }
  return NULL;
}

/* An amount of RESOURCE at PATH below TREE: millicores for cpu, bytes for memory. */
static gboolean
read_amount (const FsTree *tree, const char *path, FsHvpaResource resource, int64_t *out,
             GError **error)
{
  int64_t milli;
  if (!fs_tree_milli (tree, path, &milli, error))
    return FALSE;
  *out = resource == FS_HVPA_CPU ? milli : fs_div_ceil (milli, 1000); /* Value() rounds up */
  return TRUE;
}

static gboolean
read_change_params (const FsTree *params, FsHvpaResource resource, FsHvpaChangeParams *out,
                    GError **error)
{
  memset (out, 0, sizeof *out);
  if (params == NULL)
    return TRUE;
  GError *local_error = NULL;
  out->has_value = read_amount (params, "value", resource, &out->value, &local_error);
  int64_t percentage;
  if (local_error == NULL)
    out->has_percentage = fs_tree_int (params, "percentage", 0, G_MAXINT32, &percentage, &local_error);
  out->percentage = (int32_t) (out->has_percentage ? percentage : 0);
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return FALSE;
    }
  return TRUE;
}

/* updatePolicy.updateMode: Auto, Off or MaintenanceWindow (internal/api/validation/hvpa.go
 * validateScaleType refuses anything else: field.NotSupported); absent or "" is Auto
 * (isScalingOffByMode). */
static gboolean
read_mode (const FsTree *scale, FsHvpaUpdateMode *mode, GError **error)
{
  const char *text = fs_tree_text (scale, "updatePolicy.updateMode");
  *mode = FS_HVPA_MODE_AUTO;
  if (text == NULL || text[0] == '\0' || strcmp (text, "Auto") == 0)
    return TRUE;
  if (strcmp (text, "Off") == 0)
    *mode = FS_HVPA_MODE_OFF;
  else if (strcmp (text, "MaintenanceWindow") == 0)
    *mode = FS_HVPA_MODE_MAINTENANCE_WINDOW;
  else
    {
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID,
                   "updatePolicy.updateMode: \"%s\" is not supported (Auto, Off, MaintenanceWindow)",
                   text);
      return FALSE;
    }
  return TRUE;
}

/* A Go duration at PATH, 0 when absent; validateScaleType refuses one time.ParseDuration does
 * not read ("invalid stabilization duration"). */
static gboolean
read_duration_ms (const FsTree *tree, const char *path, int64_t *ms, GError **error)
{
  const char *text = fs_tree_text (tree, path);
  *ms = 0;
  if (text != NULL && !fs_duration_parse (text, strlen (text), ms))
    {
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID,
                   "%s: \"%s\" is not a duration (30s, 5m, 1h30m)", path, text);
      return FALSE;
    }
  return TRUE;
}

/* spec.{hpa,vpa}.{scaleUp,scaleDown} (released layout), or the design text's flat fields. */
static gboolean
read_scale_type (const FsTree *spec, const char *owner, const char *direction,
                 FsHvpaScaleType *out, GError **error)
{
  g_autofree char *base = g_strdup_printf ("%s.%s", owner, direction);
  const FsTree *scale = fs_tree_at (spec, base);
  if (!read_mode (scale, &out->update_mode, error)
      || !read_duration_ms (scale, "stabilizationDuration", &out->stabilization_ms, error))
    {
      g_prefix_error (error, "spec.%s.", base);
      return FALSE;
    }
  if (scale == NULL)
    {
      /* design: scaleUpStabilizationWindow / scaleDownStabilizationWindow, minCpuChange /
       * minMemChange */
      gboolean up = strcmp (direction, "scaleUp") == 0;
      if (!read_duration_ms (spec, up ? "scaleUpStabilizationWindow" : "scaleDownStabilizationWindow",
                             &out->stabilization_ms, error))
        {
          g_prefix_error (error, "spec.");
          return FALSE;
        }
      if (strcmp (owner, "vpa") == 0)
        return read_change_params (fs_tree_at (spec, "minCpuChange"), FS_HVPA_CPU,
                                   &out->min_change[FS_HVPA_CPU], error)
               && read_change_params (fs_tree_at (spec, "minMemChange"), FS_HVPA_MEMORY,
                                      &out->min_change[FS_HVPA_MEMORY], error);
      return TRUE;
    }
  for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
    {
      g_autofree char *path = g_strdup_printf ("minChange.%s", resource_names[r]);
      if (!read_change_params (fs_tree_at (scale, path), (FsHvpaResource) r, &out->min_change[r],
                               error))
        {
          g_prefix_error (error, "%s.%s: ", base, path);
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
read_intervals (const FsTree *spec, FsHvpaObject *out, GError **error)
{
  guint n = fs_tree_length (spec, "weightBasedScalingIntervals");
  if (n > FS_HVPA_MAX_INTERVALS)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_LIMIT, "spec.weightBasedScalingIntervals: more than %d",
                   FS_HVPA_MAX_INTERVALS);
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *base = g_strdup_printf ("weightBasedScalingIntervals[%u]", i);
      const FsTree *entry = fs_tree_at (spec, base);
      const char *weight = fs_tree_text (entry, "vpaWeight");
      int64_t start = 0, last = 0;
      GError *local_error = NULL;
      fs_tree_int (entry, "startReplicaCount", 0, G_MAXINT32, &start, &local_error);
      if (local_error == NULL)
        fs_tree_int (entry, "lastReplicaCount", 0, G_MAXINT32, &last, &local_error);
      char *end = NULL;
      double value = weight != NULL ? g_ascii_strtod (weight, &end) : 0;
      if (local_error == NULL && (weight == NULL || end == weight || *end != '\0'))
        g_set_error (&local_error, FS_ERROR, FS_ERROR_INVALID, "vpaWeight: \"%s\" is not a number",
                     weight != NULL ? weight : "");
      if (local_error != NULL)
        {
          g_propagate_prefixed_error (error, local_error, "spec.%s.", base);
          return FALSE;
        }
      out->intervals[i] = (FsHvpaInterval){ value, (int32_t) start, (int32_t) last };
    }
  out->spec.intervals = out->intervals;
  out->spec.n_intervals = n;
  return TRUE;
}

/* A LabelSelectorRequirement: key, operator (In, NotIn, Exists, DoesNotExist) and values. */
static gboolean
read_requirement (const FsTree *entry, FsRequirement *out, GPtrArray *values, GError **error)
{
  static const struct { const char *name; FsSelectorOp op; } ops[] = {
    { "In", FS_OP_IN }, { "NotIn", FS_OP_NOT_IN },
    { "Exists", FS_OP_EXISTS }, { "DoesNotExist", FS_OP_DOES_NOT_EXIST },
  };
  const char *op = fs_tree_text (entry, "operator");
  gsize i = 0;
  while (i < G_N_ELEMENTS (ops) && g_strcmp0 (op, ops[i].name) != 0)
    i++;
  if (i == G_N_ELEMENTS (ops))
    {
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID,
                   "operator: \"%.40s\" is not a valid operator (In, NotIn, Exists, DoesNotExist)",
                   op != NULL ? op : "");
      return FALSE;
    }
  const FsTree *list = fs_tree_at (entry, "values");
  guint n = list != NULL && list->type == FS_TREE_LIST ? list->n : 0;
  const char **texts = g_new0 (const char *, n + 1);
  g_ptr_array_add (values, texts);
  for (guint v = 0; v < n; v++)
    texts[v] = list->values[v]->text;
  *out = (FsRequirement){ fs_tree_text (entry, "key"), ops[i].op, n, texts };
  return TRUE;
}

/* spec.{hpa,vpa}.selector, matchLabels and matchExpressions (*OUT NULL when there is no
 * selector). */
static gboolean
read_selector (const FsTree *spec, const char *path, FsLabelSelector **out, GError **error)
{
  const FsTree *selector = fs_tree_at (spec, path);
  if (selector == NULL)
    return TRUE;
  const FsTree *labels = fs_tree_at (selector, "matchLabels");
  guint n_labels = labels != NULL && labels->type == FS_TREE_MAP ? labels->n : 0;
  g_autofree FsLabel *items = g_new0 (FsLabel, n_labels + 1);
  for (guint i = 0; i < n_labels; i++)
    items[i] = (FsLabel){ labels->keys[i], labels->values[i]->text };
  const FsTree *expressions = fs_tree_at (selector, "matchExpressions");
  guint n = expressions != NULL && expressions->type == FS_TREE_LIST ? expressions->n : 0;
  g_autofree FsRequirement *requirements = g_new0 (FsRequirement, n + 1);
  g_autoptr (GPtrArray) values = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < n; i++)
    if (!read_requirement (expressions->values[i], &requirements[i], values, error))
      {
        g_prefix_error (error, "field spec.%s.matchExpressions[%u].", path, i);
        return FALSE;
      }
  *out = fs_label_selector_new (items, n_labels, requirements, n);
  return TRUE;
}

static gboolean
read_spec (const FsGenericObject *hvpa, FsHvpaObject *object, GError **error)
{
  const FsTree *spec = fs_tree_at (hvpa->object, "spec");
  FsHvpaSpec *out = &object->spec;
  /* the released layout's spec.hpa.template.spec, else the design text's spec.hpaTemplate */
  out->replicas_path = fs_tree_at (spec, "hpa.template.spec") == NULL && fs_tree_at (spec, "hpaTemplate") != NULL
                           ? "spec.hpaTemplate"
                           : "spec.hpa.template.spec";
  g_autofree char *min_field = g_strdup_printf ("%s.minReplicas", out->replicas_path);
  g_autofree char *max_field = g_strdup_printf ("%s.maxReplicas", out->replicas_path);
  g_autofree char *missing = g_strdup_printf ("field %s: missing", max_field);
  if (!fs_hpa_replicas_read (hvpa->object, min_field, max_field, missing, &out->min_replicas, &out->max_replicas,
                             error)
      || !fs_hpa_replicas_valid (out->min_replicas, out->max_replicas, TRUE, min_field, max_field, error))
    return FALSE;
  out->hpa_deploy = g_strcmp0 (fs_tree_text (spec, "hpa.deploy"), "true") == 0;
  out->hpa_controller_annotation = g_strcmp0 (fs_labels_get (hvpa->annotations, "hpa-controller"),
                                              "hvpa") == 0;
  out->maintenance_begin = fs_tree_text (spec, "maintenanceTimeWindow.begin");
  out->maintenance_end = fs_tree_text (spec, "maintenanceTimeWindow.end");
  if (!read_intervals (spec, object, error)
      || !read_scale_type (spec, "hpa", "scaleUp", &out->hpa_scale_up, error)
      || !read_scale_type (spec, "hpa", "scaleDown", &out->hpa_scale_down, error)
      || !read_scale_type (spec, "vpa", "scaleUp", &out->vpa_scale_up, error)
      || !read_scale_type (spec, "vpa", "scaleDown", &out->vpa_scale_down, error))
    return FALSE;
  for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
    {
      g_autofree char *path = g_strdup_printf ("vpa.limitsRequestsGapScaleParams.%s", resource_names[r]);
      if (!read_change_params (fs_tree_at (spec, path), (FsHvpaResource) r, &out->limits_gap[r], error))
        {
          g_prefix_error (error, "spec.%s: ", path);
          return FALSE;
        }
    }
  return read_selector (spec, "hpa.selector", &object->hpa_selector, error)
         && read_selector (spec, "vpa.selector", &object->vpa_selector, error);
}

static void
read_status (const FsTree *tree, FsHvpaObject *object)
{
  const char *last = fs_tree_text (tree, "status.lastScaling.lastScaleTime");
  int64_t seconds;
  if (last != NULL && fs_time_parse (last, strlen (last), &seconds))
    {
      object->has_last_scale_time = TRUE;
      object->last_scale_time_ms = seconds * 1000;
    }
  object->override_scale_up_stabilization
      = g_strcmp0 (fs_tree_text (tree, "status.overrideScaleUpStabilization"), "true") == 0;
}

/* ---- containerPolicies and containerRecommendations ------------------------------------ */

static gboolean
read_policy (const FsTree *entry, FsVpaContainerPolicy *out, GError **error)
{
  out->container_name = fs_tree_text (entry, "containerName");
  for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
    {
      const char *resource = resource_names[r];
      g_autofree char *min = g_strdup_printf ("minAllowed.%s", resource);
      g_autofree char *min_design = g_strdup_printf ("MinAllowed.%s", resource);
      g_autofree char *max = g_strdup_printf ("maxAllowed.%s", resource);
      out->has_min_allowed[r] = read_amount (entry, min, r, &out->min_allowed[r], error);
      if (error != NULL && *error != NULL)
        return FALSE;
      if (!out->has_min_allowed[r]) /* the design text writes MinAllowed */
        out->has_min_allowed[r] = read_amount (entry, min_design, r, &out->min_allowed[r], error);
      if (error != NULL && *error != NULL)
        return FALSE;
      out->has_max_allowed[r] = read_amount (entry, max, r, &out->max_allowed[r], error);
      if (error != NULL && *error != NULL)
        return FALSE;
    }
  guint n_controlled = fs_tree_length (entry, "controlledResources");
  out->controlled_resources_set = n_controlled > 0;
  for (guint i = 0; i < n_controlled; i++)
    {
      g_autofree char *path = g_strdup_printf ("controlledResources[%u]", i);
      const char *name = fs_tree_text (entry, path);
      for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
        out->controlled[r] |= g_strcmp0 (name, resource_names[r]) == 0;
    }
  out->requests_only = g_strcmp0 (fs_tree_text (entry, "controlledValues"), "RequestsOnly") == 0;
  return TRUE;
}

/* The items of LIST (containerPolicies), each read by read_policy. */
static gboolean
read_policies (const FsTree *list, FsVpaContainerPolicy **out, guint *n_out, GError **error)
{
  guint n = list != NULL && list->type == FS_TREE_LIST ? list->n : 0;
  *out = g_new0 (FsVpaContainerPolicy, n + 1);
  *n_out = n;
  for (guint i = 0; i < n; i++)
    if (!read_policy (list->values[i], &(*out)[i], error))
      return FALSE;
  return TRUE;
}

static gboolean
read_recommendation (const FsTree *entry, FsVpaRecommendation *out, GError **error)
{
  out->container_name = fs_tree_text (entry, "containerName");
  for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
    {
      const char *resource = resource_names[r];
      g_autofree char *target = g_strdup_printf ("target.%s", resource);
      g_autofree char *lower = g_strdup_printf ("lowerBound.%s", resource);
      g_autofree char *upper = g_strdup_printf ("upperBound.%s", resource);
      if ((!read_amount (entry, target, r, &out->target[r], error) && error != NULL && *error != NULL)
          || (!read_amount (entry, lower, r, &out->lower_bound[r], error) && error != NULL && *error != NULL)
          || (!read_amount (entry, upper, r, &out->upper_bound[r], error) && error != NULL && *error != NULL))
        return FALSE;
    }
  return TRUE;
}

static void
read_conditions (const FsTree *tree, FsVpaObject *out)
{
  static const struct { const char *name; FsHvpaVpaConditionType type; } types[] = {
    { "RecommendationProvided", FS_HVPA_VPA_RECOMMENDATION_PROVIDED },
    { "LowConfidence", FS_HVPA_VPA_LOW_CONFIDENCE },
    { "ConfigUnsupported", FS_HVPA_VPA_CONFIG_UNSUPPORTED },
    { "ConfigDeprecated", FS_HVPA_VPA_CONFIG_DEPRECATED },
  };
  guint n = MIN (fs_tree_length (tree, "status.conditions"), FS_VPA_MAX_CONDITIONS);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *base = g_strdup_printf ("status.conditions[%u]", i);
      const FsTree *condition = fs_tree_at (tree, base);
      FsHvpaVpaCondition *entry = &out->conditions[i];
      entry->type = FS_HVPA_VPA_OTHER;
      for (gsize t = 0; t < G_N_ELEMENTS (types); t++)
        if (g_strcmp0 (fs_tree_text (condition, "type"), types[t].name) == 0)
          entry->type = types[t].type;
      entry->status = g_strcmp0 (fs_tree_text (condition, "status"), "True") == 0;
    }
  out->n_conditions = n;
}

/* ---- the objects -------------------------------------------------------------------------- */

gboolean
fs_vpa_object_read (const FsGenericObject *vpa, FsVpaObject *out, GError **error)
{
  memset (out, 0, sizeof *out);
  const FsTree *recommendations = fs_tree_at (vpa->object, "status.recommendation.containerRecommendations");
  out->has_recommendation = recommendations != NULL;
  guint n = recommendations != NULL && recommendations->type == FS_TREE_LIST ? recommendations->n : 0;
  out->recommendations = g_new0 (FsVpaRecommendation, n + 1);
  out->n_recommendations = n;
  for (guint i = 0; i < n; i++)
    if (!read_recommendation (recommendations->values[i], &out->recommendations[i], error))
      return FALSE;
  if (!read_policies (fs_tree_at (vpa->object, "spec.resourcePolicy.containerPolicies"), &out->policies,
                      &out->n_policies, error))
    return FALSE;
  read_conditions (vpa->object, out);
  return TRUE;
}

gboolean
fs_hvpa_object_read (const FsGenericObject *hvpa, FsHvpaObject *out, GError **error)
{
  memset (out, 0, sizeof *out);
  static const char *const policy_paths[] = { "spec.vpa.template.spec.resourcePolicy.containerPolicies",
                                              "spec.vpaTemplate.resourcePolicy.containerPolicies",
                                              NULL };
  const FsTree *policies = first_of (hvpa->object, policy_paths);
  out->has_container_policies = policies != NULL;
  if (!read_spec (hvpa, out, error)
      || !read_policies (policies, &out->container_policies, &out->n_container_policies, error))
    return FALSE;
  read_status (hvpa->object, out);
  return TRUE;
}

void
fs_autoscaler_target_read (FsGenericObject *object)
{
  const char *ref = object->kind == FS_KIND_HPA ? "spec.scaleTargetRef"
                    : object->kind == FS_KIND_VPA || object->kind == FS_KIND_HVPA ? "spec.targetRef"
                                                                                  : NULL;
  const FsTree *tree = ref != NULL ? fs_tree_at (object->object, ref) : NULL;
  object->target_kind = fs_tree_text (tree, "kind");
  object->target_name = fs_tree_text (tree, "name");
}

const char *
fs_vpa_update_mode (const FsGenericObject *vpa)
{
  return vpa != NULL ? fs_tree_text (vpa->object, "spec.updatePolicy.updateMode") : NULL;
}
