/* fitscale — an Hvpa's inputs and decision (see include/fitscale/plan/hvpaexplain.h). */
#include "config.h"

#include <string.h>

#include "fitscale/model/error.h"
#include "fitscale/model/fit.h"
#include "fitscale/kube/hpaspec.h"
#include "fitscale/plan/hvpaexplain.h"
#include "fitscale/kube/hvpaspec.h"

/* ---- the target, its HPA and VPA ------------------------------------------------------ */

/* An HPA or VPA of the Hvpa: one whose target is the Hvpa's target, or whose labels the
 * Hvpa's selector matches (the controller adopts by selector: hvpa_controller.go reconcileHpa
 * and reconcileVpa, metav1.LabelSelectorAsSelector; no selector matches nothing). */
static const FsGenericObject *
find_owned (const FsSnapshot *snapshot, const FsGenericObject *hvpa, FsGenericKind kind,
            const FsLabelSelector *selector, const char *target_name)
{
  for (guint i = 0; i < snapshot->n_generic; i++)
    {
      const FsGenericObject *object = &snapshot->generic[i];
      if (object->kind != kind || g_strcmp0 (object->namespace, hvpa->namespace) != 0)
        continue;
      if (fs_selector_matches (selector, object->labels) || g_strcmp0 (object->target_name, target_name) == 0)
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

static void
fill_container (const FsContainer *template, const FsVpaObject *vpa,
                const FsVpaContainerPolicy *policies, guint n_policies, FsHvpaContainer *out)
{
  memset (out, 0, sizeof *out);
  out->name = template->name;
  out->request[FS_HVPA_CPU] = template->requests.cpu_milli;
  out->request[FS_HVPA_MEMORY] = template->requests.memory_bytes;
  out->limit[FS_HVPA_CPU] = template->limits.cpu_milli;
  out->limit[FS_HVPA_MEMORY] = template->limits.memory_bytes;
  const FsVpaRecommendation *recommendation = fs_vpa_container_recommendation (vpa, template->name);
  const FsVpaContainerPolicy *policy = fs_vpa_container_policy (policies, n_policies, template->name);
  out->has_recommendation = recommendation != NULL;
  for (int r = 0; recommendation != NULL && r < FS_HVPA_N_RESOURCES; r++)
    {
      out->target[r] = recommendation->target[r];
      out->lower_bound[r] = recommendation->lower_bound[r];
      out->upper_bound[r] = recommendation->upper_bound[r];
    }
  if (policy == NULL)
    return;
  for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
    {
      out->has_min_allowed[r] = policy->has_min_allowed[r];
      out->min_allowed[r] = policy->min_allowed[r];
      out->has_max_allowed[r] = policy->has_max_allowed[r];
      out->max_allowed[r] = policy->max_allowed[r];
      out->controlled[r] = policy->controlled[r];
    }
  out->controlled_resources_set = policy->controlled_resources_set;
  out->requests_only = policy->requests_only;
}

/* The target's containers with VPA's recommendation (VPA: its decoded object, zeroed when
 * there is none), under POLICIES. */
static void
fill_containers (FsHvpaAnswer *answer, const FsVpaObject *vpa, const FsVpaContainerPolicy *policies,
                 guint n_policies)
{
  answer->input.has_vpa_recommendation = vpa->has_recommendation;
  const FsContainerSet *set = answer->target->template->containers;
  guint n = MIN (set->n_containers, FS_HVPA_MAX_CONTAINERS);
  for (guint i = 0; i < n; i++)
    fill_container (&set->containers[i], vpa, policies, n_policies, &answer->containers[i]);
  answer->input.containers = answer->containers;
  answer->input.n_containers = n;
  if (answer->vpa != NULL)
    {
      G_STATIC_ASSERT (G_N_ELEMENTS (answer->vpa_conditions) == FS_VPA_MAX_CONDITIONS);
      memcpy (answer->vpa_conditions, vpa->conditions, sizeof vpa->conditions);
      answer->input.vpa_conditions = answer->vpa_conditions;
      answer->input.n_vpa_conditions = vpa->n_conditions;
    }
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
  FsVpaObject vpa = { 0 };
  gboolean read = answer->vpa == NULL || fs_vpa_object_read (answer->vpa, &vpa, &local_error);
  if (read)
    fill_containers (answer, &vpa, vpa.policies, vpa.n_policies);
  fs_vpa_object_clear (&vpa);
  if (read)
    return TRUE;
  g_set_error (error, FS_ERROR, local_error->code, "%s %s/%s: %s", fs_workload_kind_name (target->kind),
               target->namespace, target->name, local_error->message);
  g_error_free (local_error);
  return FALSE;
}

/* The Hvpa's inputs from OBJECT, its decoded self. */
static gboolean
gather_hvpa (const FsSnapshot *snapshot, const FsGenericObject *hvpa, const FsHvpaObject *object,
             FsHvpaAnswer *answer, GError **error)
{
  answer->input.spec = object->spec;
  memcpy (answer->intervals, object->intervals, sizeof object->intervals);
  answer->input.spec.intervals = answer->intervals;
  answer->input.has_last_scale_time = object->has_last_scale_time;
  answer->input.last_scale_time_ms = object->last_scale_time_ms;
  answer->input.override_scale_up_stabilization = object->override_scale_up_stabilization;
  const char *kind = hvpa->target_kind, *name = hvpa->target_name;
  answer->target = fs_snapshot_find_workload (snapshot, hvpa->namespace, kind, name);
  if (answer->target == NULL)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_NOT_FOUND,
                   "its target %s/%s is not in the snapshot", kind != NULL ? kind : "?",
                   name != NULL ? name : "?");
      return FALSE;
    }
  answer->input.current_replicas = answer->target->replicas;
  answer->hpa = find_owned (snapshot, hvpa, FS_KIND_HPA, object->hpa_selector, name);
  answer->vpa = find_owned (snapshot, hvpa, FS_KIND_VPA, object->vpa_selector, name);
  read_hpa_status (answer->hpa, &answer->input);
  FsVpaObject vpa = { 0 };
  gboolean read = answer->vpa == NULL || fs_vpa_object_read (answer->vpa, &vpa, error);
  if (read && object->has_container_policies)
    fill_containers (answer, &vpa, object->container_policies, object->n_container_policies);
  else if (read)
    fill_containers (answer, &vpa, vpa.policies, vpa.n_policies);
  fs_vpa_object_clear (&vpa);
  return read;
}

gboolean
fs_hvpa_gather (const FsSnapshot *snapshot, const FsGenericObject *hvpa, int64_t now_ms,
                FsHvpaAnswer *answer, GError **error)
{
  memset (answer, 0, sizeof *answer);
  answer->hvpa = hvpa;
  answer->input.now_ms = now_ms;
  GError *local_error = NULL;
  FsHvpaObject object;
  gboolean gathered = fs_hvpa_object_read (hvpa, &object, &local_error)
                      && gather_hvpa (snapshot, hvpa, &object, answer, &local_error);
  fs_hvpa_object_clear (&object);
  if (gathered)
    return TRUE;
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
