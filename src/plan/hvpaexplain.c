/* fitscale — an Hvpa's inputs and decision (see include/fitscale/plan/hvpaexplain.h). */
#include "config.h"

#include <string.h>

#include "fitscale/model/error.h"
#include "fitscale/model/fit.h"
#include "fitscale/plan/hvpaexplain.h"
#include "fitscale/model/names.h"
#include "fitscale/model/quantity.h"
#include "fitscale/model/timeutil.h"
#include "fitscale/kube/hpaspec.h"
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
  *out = resource == FS_HVPA_CPU ? milli : (milli + 999) / 1000; /* Value() rounds up */
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

static FsHvpaUpdateMode
read_mode (const FsTree *scale)
{
  const char *mode = fs_tree_text (scale, "updatePolicy.updateMode");
  if (g_strcmp0 (mode, "Off") == 0)
    return FS_HVPA_MODE_OFF;
  if (g_strcmp0 (mode, "MaintenanceWindow") == 0)
    return FS_HVPA_MODE_MAINTENANCE_WINDOW;
  return FS_HVPA_MODE_AUTO;
}

static int64_t
read_duration_ms (const FsTree *tree, const char *path)
{
  const char *text = fs_tree_text (tree, path);
  int64_t ms = 0;
  if (text != NULL && !fs_duration_parse (text, strlen (text), &ms))
    ms = 0;
  return ms;
}

/* spec.{hpa,vpa}.{scaleUp,scaleDown} (released layout), or the design text's flat fields. */
static gboolean
read_scale_type (const FsTree *spec, const char *owner, const char *direction,
                 FsHvpaScaleType *out, GError **error)
{
  g_autofree char *base = g_strdup_printf ("%s.%s", owner, direction);
  const FsTree *scale = fs_tree_at (spec, base);
  out->update_mode = read_mode (scale);
  out->stabilization_ms = read_duration_ms (scale, "stabilizationDuration");
  if (scale == NULL)
    {
      /* design: scaleUpStabilizationWindow / scaleDownStabilizationWindow, minCpuChange /
       * minMemChange */
      gboolean up = strcmp (direction, "scaleUp") == 0;
      out->stabilization_ms = read_duration_ms (spec, up ? "scaleUpStabilizationWindow"
                                                         : "scaleDownStabilizationWindow");
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
read_intervals (const FsTree *spec, FsHvpaAnswer *answer, GError **error)
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
      answer->intervals[i] = (FsHvpaInterval){ value, (int32_t) start, (int32_t) last };
    }
  answer->input.spec.intervals = answer->intervals;
  answer->input.spec.n_intervals = n;
  return TRUE;
}

static gboolean
read_hvpa_spec (const FsGenericObject *hvpa, FsHvpaAnswer *answer, GError **error)
{
  const FsTree *spec = fs_tree_at (hvpa->object, "spec");
  FsHvpaSpec *out = &answer->input.spec;
  static const char *const hpa_spec[] = { "hpa.template.spec", "hpaTemplate", NULL };
  const FsTree *hpa_template = first_of (spec, hpa_spec);
  int64_t number = 0;
  out->min_replicas = 1;
  if (fs_tree_int (hpa_template, "minReplicas", 0, G_MAXINT32, &number, error))
    out->min_replicas = (int32_t) number;
  else if (error != NULL && *error != NULL)
    return FALSE;
  if (!fs_tree_int (hpa_template, "maxReplicas", 1, G_MAXINT32, &number, error))
    {
      if (error != NULL && *error == NULL)
        g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "spec.hpa.template.spec.maxReplicas: missing");
      return FALSE;
    }
  out->max_replicas = (int32_t) number;
  out->hpa_deploy = g_strcmp0 (fs_tree_text (spec, "hpa.deploy"), "true") == 0;
  out->hpa_controller_annotation = g_strcmp0 (fs_labels_get (hvpa->annotations, "hpa-controller"),
                                              "hvpa") == 0;
  out->maintenance_begin = fs_tree_text (spec, "maintenanceTimeWindow.begin");
  out->maintenance_end = fs_tree_text (spec, "maintenanceTimeWindow.end");
  if (!read_intervals (spec, answer, error)
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
  const char *last = fs_tree_text (hvpa->object, "status.lastScaling.lastScaleTime");
  int64_t seconds;
  if (last != NULL && fs_time_parse (last, strlen (last), &seconds))
    {
      answer->input.has_last_scale_time = TRUE;
      answer->input.last_scale_time_ms = seconds * 1000;
    }
  answer->input.override_scale_up_stabilization
      = g_strcmp0 (fs_tree_text (hvpa->object, "status.overrideScaleUpStabilization"), "true") == 0;
  return TRUE;
}

/* ---- the target, its HPA and VPA ------------------------------------------------------ */

/* An HPA or VPA of the Hvpa: one whose target is the Hvpa's target, or whose labels the
 * Hvpa's selector matches (controllers adopt by selector: hvpa_controller.go). */
static const FsGenericObject *
find_owned (const FsSnapshot *snapshot, const FsGenericObject *hvpa, FsGenericKind kind,
            const char *selector_path, const char *target_name)
{
  const FsTree *selector = fs_tree_at (hvpa->object, selector_path);
  const FsTree *labels = fs_tree_at (selector, "matchLabels");
  for (guint i = 0; i < snapshot->n_generic; i++)
    {
      const FsGenericObject *object = &snapshot->generic[i];
      if (object->kind != kind || g_strcmp0 (object->namespace, hvpa->namespace) != 0)
        continue;
      const char *ref = fs_tree_text (object->object, kind == FS_KIND_HPA ? "spec.scaleTargetRef.name"
                                                                          : "spec.targetRef.name");
      gboolean by_labels = labels != NULL && labels->type == FS_TREE_MAP && labels->n > 0;
      for (guint l = 0; by_labels && l < labels->n; l++)
        by_labels = g_strcmp0 (fs_labels_get (object->labels, labels->keys[l]), labels->values[l]->text) == 0;
      if (by_labels || g_strcmp0 (ref, target_name) == 0)
        return object;
    }
  return NULL;
}

static void
read_hpa_status (const FsGenericObject *hpa, FsHvpaInput *input)
{
  if (hpa == NULL)
    return;
  FsHpaSpec status = { 0 };
  fs_hpa_status_read (hpa, &status);
  input->has_hpa_status = status.has_desired_replicas;
  if (status.has_desired_replicas)
    input->desired_replicas = status.desired_replicas;
  input->hpa_scaling_limited = status.scaling_limited;
}

/* The entry of LIST (containerRecommendations or containerPolicies) for CONTAINER, or "*". */
static const FsTree *
entry_for (const FsTree *list, const char *container)
{
  const FsTree *wildcard = NULL;
  for (guint i = 0; list != NULL && list->type == FS_TREE_LIST && i < list->n; i++)
    {
      const char *name = fs_tree_text (list->values[i], "containerName");
      if (g_strcmp0 (name, container) == 0)
        return list->values[i];
      if (g_strcmp0 (name, "*") == 0)
        wildcard = list->values[i];
    }
  return wildcard;
}

static gboolean
read_container (const FsContainer *template, const FsTree *recommendations, const FsTree *policies,
                FsHvpaContainer *out, GError **error)
{
  memset (out, 0, sizeof *out);
  out->name = template->name;
  out->request[FS_HVPA_CPU] = template->requests.cpu_milli;
  out->request[FS_HVPA_MEMORY] = template->requests.memory_bytes;
  out->limit[FS_HVPA_CPU] = template->limits.cpu_milli;
  out->limit[FS_HVPA_MEMORY] = template->limits.memory_bytes;
  const FsTree *recommendation = entry_for (recommendations, template->name);
  const FsTree *policy = entry_for (policies, template->name);
  for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
    {
      const char *resource = resource_names[r];
      g_autofree char *target = g_strdup_printf ("target.%s", resource);
      g_autofree char *lower = g_strdup_printf ("lowerBound.%s", resource);
      g_autofree char *upper = g_strdup_printf ("upperBound.%s", resource);
      g_autofree char *min = g_strdup_printf ("minAllowed.%s", resource);
      g_autofree char *min_design = g_strdup_printf ("MinAllowed.%s", resource);
      g_autofree char *max = g_strdup_printf ("maxAllowed.%s", resource);
      if (recommendation != NULL)
        {
          out->has_recommendation = TRUE;
          if ((!read_amount (recommendation, target, r, &out->target[r], error) && error != NULL && *error != NULL)
              || (!read_amount (recommendation, lower, r, &out->lower_bound[r], error) && error != NULL && *error != NULL)
              || (!read_amount (recommendation, upper, r, &out->upper_bound[r], error) && error != NULL && *error != NULL))
            return FALSE;
        }
      out->has_min_allowed[r] = read_amount (policy, min, r, &out->min_allowed[r], error);
      if (error != NULL && *error != NULL)
        return FALSE;
      if (!out->has_min_allowed[r]) /* the design text writes MinAllowed */
        out->has_min_allowed[r] = read_amount (policy, min_design, r, &out->min_allowed[r], error);
      if (error != NULL && *error != NULL)
        return FALSE;
      out->has_max_allowed[r] = read_amount (policy, max, r, &out->max_allowed[r], error);
      if (error != NULL && *error != NULL)
        return FALSE;
    }
  guint n_controlled = fs_tree_length (policy, "controlledResources");
  out->controlled_resources_set = n_controlled > 0;
  for (guint i = 0; i < n_controlled; i++)
    {
      g_autofree char *path = g_strdup_printf ("controlledResources[%u]", i);
      const char *name = fs_tree_text (policy, path);
      for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
        out->controlled[r] |= g_strcmp0 (name, resource_names[r]) == 0;
    }
  out->requests_only = g_strcmp0 (fs_tree_text (policy, "controlledValues"), "RequestsOnly") == 0;
  return TRUE;
}

static void
read_vpa_conditions (const FsGenericObject *vpa, FsHvpaAnswer *answer)
{
  static const struct { const char *name; FsHvpaVpaConditionType type; } types[] = {
    { "RecommendationProvided", FS_HVPA_VPA_RECOMMENDATION_PROVIDED },
    { "LowConfidence", FS_HVPA_VPA_LOW_CONFIDENCE },
    { "ConfigUnsupported", FS_HVPA_VPA_CONFIG_UNSUPPORTED },
    { "ConfigDeprecated", FS_HVPA_VPA_CONFIG_DEPRECATED },
  };
  guint n = MIN (fs_tree_length (vpa->object, "status.conditions"), G_N_ELEMENTS (answer->vpa_conditions));
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *base = g_strdup_printf ("status.conditions[%u]", i);
      const FsTree *condition = fs_tree_at (vpa->object, base);
      FsHvpaVpaCondition *out = &answer->vpa_conditions[i];
      out->type = FS_HVPA_VPA_OTHER;
      for (gsize t = 0; t < G_N_ELEMENTS (types); t++)
        if (g_strcmp0 (fs_tree_text (condition, "type"), types[t].name) == 0)
          out->type = types[t].type;
      out->status = g_strcmp0 (fs_tree_text (condition, "status"), "True") == 0;
    }
  answer->input.vpa_conditions = answer->vpa_conditions;
  answer->input.n_vpa_conditions = n;
}

/* The target's containers with the VPA's recommendation, under POLICIES (the Hvpa's
 * containerPolicies; NULL: the VPA's own). */
static gboolean
read_containers (FsHvpaAnswer *answer, const FsTree *policies, GError **error)
{
  const FsTree *recommendations = answer->vpa != NULL
      ? fs_tree_at (answer->vpa->object, "status.recommendation.containerRecommendations") : NULL;
  answer->input.has_vpa_recommendation = recommendations != NULL;
  if (policies == NULL && answer->vpa != NULL)
    policies = fs_tree_at (answer->vpa->object, "spec.resourcePolicy.containerPolicies");
  const FsContainerSet *set = answer->target->template->containers;
  guint n = MIN (set->n_containers, FS_HVPA_MAX_CONTAINERS);
  for (guint i = 0; i < n; i++)
    if (!read_container (&set->containers[i], recommendations, policies, &answer->containers[i],
                         error))
      return FALSE;
  answer->input.containers = answer->containers;
  answer->input.n_containers = n;
  if (answer->vpa != NULL)
    read_vpa_conditions (answer->vpa, answer);
  return TRUE;
}

gboolean
fs_hvpa_gather_workload (const FsSnapshot *snapshot, const FsWorkload *target, double vpa_weight,
                         int64_t now_ms, FsHvpaAnswer *answer, GError **error)
{
  memset (answer, 0, sizeof *answer);
  answer->target = target;
  answer->input.now_ms = now_ms;
  answer->input.current_replicas = target->replicas;
  answer->hpa = fs_snapshot_find_autoscaler (snapshot, FS_KIND_HPA, target);
  answer->vpa = fs_snapshot_find_autoscaler (snapshot, FS_KIND_VPA, target);
  read_hpa_status (answer->hpa, &answer->input);
  FsHvpaSpec *spec = &answer->input.spec;
  spec->min_replicas = spec->max_replicas = MAX (target->replicas, 1);
  /* the HPA's range, from 1 (the weight rules do not scale to zero); an HPA that does not
   * decode fails fs_plan's own read of it, after the containers' errors */
  FsHpaSpec hpa;
  if (answer->hpa != NULL && fs_hpa_spec_read (answer->hpa, &hpa, NULL))
    {
      spec->min_replicas = MAX (hpa.min_replicas, FS_HPA_DEFAULT_MIN_REPLICAS);
      spec->max_replicas = hpa.max_replicas;
    }
  /* one stage over every replica count; the controller's gates stay open */
  answer->intervals[0] = (FsHvpaInterval){ vpa_weight, 0, 0 };
  spec->intervals = answer->intervals;
  spec->n_intervals = 1;
  spec->hpa_deploy = TRUE;
  GError *local_error = NULL;
  if (read_containers (answer, NULL, &local_error))
    return TRUE;
  g_set_error (error, FS_ERROR, local_error->code, "%s %s/%s: %s", fs_workload_kind_name (target->kind),
               target->namespace, target->name, local_error->message);
  g_error_free (local_error);
  return FALSE;
}

gboolean
fs_hvpa_gather (const FsSnapshot *snapshot, const FsGenericObject *hvpa, int64_t now_ms,
                FsHvpaAnswer *answer, GError **error)
{
  memset (answer, 0, sizeof *answer);
  answer->hvpa = hvpa;
  answer->input.now_ms = now_ms;
  GError *local_error = NULL;
  if (!read_hvpa_spec (hvpa, answer, &local_error))
    goto fail;
  const char *kind = fs_tree_text (hvpa->object, "spec.targetRef.kind");
  const char *name = fs_tree_text (hvpa->object, "spec.targetRef.name");
  answer->target = fs_snapshot_find_workload (snapshot, hvpa->namespace, kind, name);
  if (answer->target == NULL)
    {
      g_set_error (&local_error, FS_ERROR, FS_ERROR_NOT_FOUND,
                   "its target %s/%s is not in the snapshot", kind != NULL ? kind : "?",
                   name != NULL ? name : "?");
      goto fail;
    }
  answer->input.current_replicas = answer->target->replicas;
  answer->hpa = find_owned (snapshot, hvpa, FS_KIND_HPA, "spec.hpa.selector", name);
  answer->vpa = find_owned (snapshot, hvpa, FS_KIND_VPA, "spec.vpa.selector", name);
  read_hpa_status (answer->hpa, &answer->input);
  static const char *const policy_paths[] = { "spec.vpa.template.spec.resourcePolicy.containerPolicies",
                                              "spec.vpaTemplate.resourcePolicy.containerPolicies",
                                              NULL };
  if (!read_containers (answer, first_of (hvpa->object, policy_paths), &local_error))
    goto fail;
  return TRUE;

fail:
  g_set_error (error, FS_ERROR, local_error->code, "Hvpa %s/%s: %s", hvpa->namespace, hvpa->name,
               local_error->message);
  g_error_free (local_error);
  return FALSE;
}

gboolean
fs_hvpa_explain (const FsSnapshot *snapshot, const FsGenericObject *hvpa,
                 FsHvpaSemantics semantics, int64_t now_ms, FsHvpaAnswer *answer, GError **error)
{
  if (!fs_hvpa_gather (snapshot, hvpa, now_ms, answer, error))
    return FALSE;
  answer->output.containers = answer->results;
  fs_hvpa_decide (&answer->input, semantics, &answer->output);
  return TRUE;
}
