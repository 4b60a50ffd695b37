/* fitscale — the plan request's one check (see include/fitscale/plan/request.h). */
#include "config.h"

#include <stdarg.h>
#include <string.h>

#include "fitscale/model/error.h"
#include "fitscale/model/quantity.h"
#include "fitscale/plan/request.h"
#include "fitscale/plan/resize.h"

static const char *const resource_names[FS_HVPA_N_RESOURCES] = { "cpu", "memory" };

static gboolean
from_flags (const FsPlanRequestInput *input)
{
  return input->form == FS_PLAN_FROM_FLAGS;
}

/* Sets ERROR (usage for flags, invalid for JSON) and returns FALSE. */
static gboolean G_GNUC_PRINTF (3, 4)
fail (const FsPlanRequestInput *input, GError **error, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  g_autofree char *message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error_literal (error, FS_ERROR, from_flags (input) ? FS_ERROR_USAGE : FS_ERROR_INVALID, message);
  return FALSE;
}

static gboolean
check_enums (const FsPlanRequestInput *input, FsPlanRequest *request, GError **error)
{
  if (!fs_hvpa_semantics_parse (input->semantics, &request->semantics))
    return from_flags (input) ? fail (input, error, "--semantics is design or hvpa, not \"%s\"", input->semantics)
                              : fail (input, error, "field semantics: design or hvpa");
  request->hpa_source = g_strcmp0 (input->hpa_from, "metrics") == 0 ? FS_PLAN_HPA_METRICS : FS_PLAN_HPA_STATUS;
  if (input->hpa_from != NULL && strcmp (input->hpa_from, "status") != 0 && strcmp (input->hpa_from, "metrics") != 0)
    return from_flags (input) ? fail (input, error, "--hpa-from is status or metrics, not \"%s\"", input->hpa_from)
                              : fail (input, error, "field hpaFrom: status or metrics");
  if (input->update != NULL)
    {
      FsUpdateMode mode;
      if (!fs_update_mode_parse (input->update, &mode))
        return from_flags (input) ? fail (input, error, "--update is in-place or recreate, not \"%s\"", input->update)
                                  : fail (input, error, "field update: in-place or recreate");
      request->update = mode;
    }
  return TRUE;
}

static gboolean
check_numbers (const FsPlanRequestInput *input, FsPlanRequest *request, GError **error)
{
  if (input->hpa_desired_given != FS_PLAN_ABSENT
      && (input->hpa_desired_given == FS_PLAN_WRONG_TYPE || input->hpa_desired < 1 || input->hpa_desired > G_MAXINT32))
    return from_flags (input) ? fail (input, error, "--hpa-desired %" G_GINT64_FORMAT ": give a number from 1 to %d",
                                      input->hpa_desired, G_MAXINT32)
                              : fail (input, error, "field hpaDesiredReplicas: an integer from 1 to %d", G_MAXINT32);
  request->has_hpa_desired = input->hpa_desired_given == FS_PLAN_GIVEN;
  request->hpa_desired = request->has_hpa_desired ? (int32_t) input->hpa_desired : 0;
  if (input->steps_given != FS_PLAN_ABSENT
      && (input->steps_given == FS_PLAN_WRONG_TYPE || input->steps < FS_PLAN_MIN_STEPS || input->steps > FS_PLAN_MAX_STEPS))
    return from_flags (input) ? fail (input, error, "--steps %" G_GINT64_FORMAT ": give a number from %d to %d",
                                      input->steps, FS_PLAN_MIN_STEPS, FS_PLAN_MAX_STEPS)
                              : fail (input, error, "field steps: an integer from %d to %d", FS_PLAN_MIN_STEPS,
                                      FS_PLAN_MAX_STEPS);
  request->steps = input->steps_given == FS_PLAN_GIVEN ? (guint) input->steps : 0;
  return TRUE;
}

/* A fraction from 0 to 1, the whole text a number. */
static gboolean
check_weight (const FsPlanRequestInput *input, FsPlanRequest *request, GError **error)
{
  request->has_vpa_weight = input->vpa_weight_given != FS_PLAN_ABSENT;
  if (!request->has_vpa_weight)
    return TRUE;
  char *end = NULL;
  const char *text = input->vpa_weight_given == FS_PLAN_GIVEN ? input->vpa_weight : "";
  request->vpa_weight = g_ascii_strtod (text, &end);
  if (end != text && *end == '\0' && request->vpa_weight >= 0 && request->vpa_weight <= 1)
    return TRUE;
  return from_flags (input) ? fail (input, error, "--vpa-weight \"%s\": give a fraction from 0 to 1", text)
                            : fail (input, error, "field vpaWeight: a number from 0 to 1");
}

/* One amount of TARGET: a positive quantity (milli-units for cpu). */
static gboolean
check_amount (const FsPlanRequestInput *input, const FsPlanTargetInput *target, const FsPlanAmountInput *amount,
              FsPlanVpaTarget *out, GError **error)
{
  FsHvpaResource r = amount->resource;
  const char *name = resource_names[r];
  const char *text = amount->quantity;
  g_autoptr (GError) problem = NULL;
  gboolean parsed = amount->given == FS_PLAN_GIVEN
                    && (r == FS_HVPA_CPU ? fs_quantity_parse_milli (text, strlen (text), &out->amount[r], &problem)
                                         : fs_quantity_parse_value (text, strlen (text), &out->amount[r], &problem));
  if (parsed && out->amount[r] > 0)
    {
      out->has[r] = TRUE;
      return TRUE;
    }
  if (!from_flags (input))
    return fail (input, error, "field vpaTarget.%s.%s: %s", target->container, name,
                 problem != NULL ? problem->message : "a positive quantity as a string");
  if (problem == NULL)
    return fail (input, error, "--vpa-target \"%s\": %s must be positive", target->text, name);
  g_prefix_error (&problem, "--vpa-target \"%s\": ", target->text);
  g_propagate_error (error, g_steal_pointer (&problem));
  return FALSE;
}

static gboolean
check_targets (const FsPlanRequestInput *input, FsPlanRequest *request, GError **error)
{
  if (input->vpa_targets_given == FS_PLAN_WRONG_TYPE || input->n_vpa_targets > FS_PLAN_MAX_TARGETS)
    return from_flags (input) ? fail (input, error, "--vpa-target: at most %d", FS_PLAN_MAX_TARGETS)
                              : fail (input, error, "field vpaTarget: {CONTAINER: {cpu: Q, memory: Q}}, at most %d",
                                      FS_PLAN_MAX_TARGETS);
  for (guint i = 0; i < input->n_vpa_targets; i++)
    {
      const FsPlanTargetInput *target = &input->vpa_targets[i];
      FsPlanVpaTarget *out = &request->vpa_targets[i];
      out->container = target->container;
      if (target->given == FS_PLAN_WRONG_TYPE)
        return fail (input, error, "field vpaTarget.%s: {cpu: Q, memory: Q}", target->container);
      for (guint k = 0; k < target->n_amounts; k++)
        if (!check_amount (input, target, &target->amounts[k], out, error))
          return FALSE;
      request->n_vpa_targets = i + 1;
    }
  return TRUE;
}

gboolean
fs_plan_request_check (const FsPlanRequestInput *input, FsPlanRequest *request, GError **error)
{
  memset (request, 0, sizeof *request);
  request->namespace = input->namespace != NULL ? input->namespace : "default";
  request->kind = input->kind;
  request->name = input->name;
  return check_enums (input, request, error) && check_numbers (input, request, error)
         && check_weight (input, request, error) && check_targets (input, request, error);
}
