/* fitscale plan — the (replicas, requests) pair the scheduler can place in full, closest to
 * what the HPA and the VPA want; the HVPA point and why it does or does not fit. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "fitscale/model/error.h"
#include "fitscale/plan/completeness.h"
#include "fitscale/plan/plan.h"
#include "fitscale/render/plan.h"
#include "fitscale/render/resize.h"

typedef struct {
  FsCommonOptions common;
  char *namespace, *now, *semantics, *hpa_from, *vpa_weight, *update;
  char **vpa_targets;
  gint hpa_desired;
  gint steps;
  gboolean curve, apply_patch;
} PlanOptions;

static void
options_clear (PlanOptions *options)
{
  fs_cli_common_clear (&options->common);
  g_free (options->namespace);
  g_free (options->now);
  g_free (options->semantics);
  g_free (options->hpa_from);
  g_free (options->update);
  g_free (options->vpa_weight);
  g_strfreev (options->vpa_targets);
}

/* Splits TEXT at its first SEPARATOR: *HEAD the interned part before, *REST the part after;
 * FALSE when either is empty. */
static gboolean
split_once (const char *text, char separator, const char **head, const char **rest)
{
  const char *at = strchr (text, separator);
  if (at == NULL || at == text || at[1] == '\0')
    return FALSE;
  g_autofree char *before = g_strndup (text, at - text);
  *head = g_intern_string (before);
  *rest = at + 1;
  return TRUE;
}

/* What the --vpa-target texts split into; the request's input points here. */
typedef struct {
  GStrv items[FS_PLAN_MAX_TARGETS];
  FsPlanAmountInput *amounts[FS_PLAN_MAX_TARGETS];
} TargetTexts;

static void
target_texts_clear (TargetTexts *texts)
{
  for (guint i = 0; i < FS_PLAN_MAX_TARGETS; i++)
    {
      g_strfreev (texts->items[i]);
      g_free (texts->amounts[i]);
    }
}

/* "CONTAINER:cpu=500m,memory=3Gi": the container, and the amounts in the order given. */
static gboolean
read_vpa_target (const char *text, FsPlanTargetInput *target, GStrv *items, FsPlanAmountInput **amounts,
                 GError **error)
{
  const char *rest;
  target->text = text;
  target->given = FS_PLAN_GIVEN;
  if (!split_once (text, ':', &target->container, &rest))
    {
      g_set_error (error, FS_ERROR, FS_ERROR_USAGE,
                   "--vpa-target \"%s\": give CONTAINER:cpu=..,memory=..", text);
      return FALSE;
    }
  *items = g_strsplit (rest, ",", -1);
  *amounts = g_new0 (FsPlanAmountInput, g_strv_length (*items));
  target->amounts = *amounts;
  for (char **item = *items; *item != NULL; item++)
    {
      const char *equals = strchr (*item, '=');
      int r = equals == NULL ? -1
              : strncmp (*item, "cpu", equals - *item) == 0 && equals - *item == 3 ? FS_HVPA_CPU
              : strncmp (*item, "memory", equals - *item) == 0 && equals - *item == 6 ? FS_HVPA_MEMORY : -1;
      if (r < 0)
        {
          g_set_error (error, FS_ERROR, FS_ERROR_USAGE,
                       "--vpa-target \"%s\": \"%s\" is not cpu=QUANTITY or memory=QUANTITY", text, *item);
          return FALSE;
        }
      (*amounts)[target->n_amounts++] = (FsPlanAmountInput){ (FsHvpaResource) r, FS_PLAN_GIVEN, equals + 1 };
    }
  return TRUE;
}

/* The flags as the request's input (plan/request.h); TEXTS holds what it points to. */
static gboolean
read_input (const PlanOptions *options, const char *reference, FsPlanRequestInput *input, TargetTexts *texts,
            GError **error)
{
  memset (input, 0, sizeof *input);
  input->form = FS_PLAN_FROM_FLAGS;
  if (!split_once (reference, '/', &input->kind, &input->name))
    {
      g_set_error (error, FS_ERROR, FS_ERROR_USAGE,
                   "\"%s\": give hvpa/NAME, deployment/NAME or statefulset/NAME", reference);
      return FALSE;
    }
  input->namespace = options->namespace;
  input->semantics = options->semantics;
  input->hpa_from = options->hpa_from;
  input->update = options->update;
  input->hpa_desired_given = options->hpa_desired != G_MININT ? FS_PLAN_GIVEN : FS_PLAN_ABSENT;
  input->hpa_desired = options->hpa_desired;
  input->steps_given = options->steps != G_MININT ? FS_PLAN_GIVEN : FS_PLAN_ABSENT;
  input->steps = options->steps;
  input->vpa_weight_given = options->vpa_weight != NULL ? FS_PLAN_GIVEN : FS_PLAN_ABSENT;
  input->vpa_weight = options->vpa_weight;
  input->n_vpa_targets = options->vpa_targets != NULL ? g_strv_length (options->vpa_targets) : 0;
  for (guint i = 0; i < MIN (input->n_vpa_targets, FS_PLAN_MAX_TARGETS); i++)
    if (!read_vpa_target (options->vpa_targets[i], &input->vpa_targets[i], &texts->items[i], &texts->amounts[i], error))
      return FALSE;
  return TRUE;
}

static gboolean
build_request (const PlanOptions *options, const char *reference, FsPlanRequest *request, GError **error)
{
  FsPlanRequestInput input;
  TargetTexts texts = { 0 };
  gboolean ok = read_input (options, reference, &input, &texts, error)
                && fs_plan_request_check (&input, request, error);
  target_texts_clear (&texts);
  return ok;
}

const FsCliCommand fs_cli_plan = {
  .name = "plan",
  .parameters = "hvpa/NAME | deployment/NAME | statefulset/NAME",
  .summary = "the replicas and requests that schedule, closest to the HPA and VPA",
  .description =
      "Takes the HVPA point P* (what the Hvpa's weight rules, or one stage of --vpa-weight,\n"
      "make of the HPA's desired replicas and the VPA's target) and checks that every replica\n"
      "schedules, in the final state and during the rolling update.  If so, P* is the plan.\n"
      "Otherwise it packs every pair of a replica count (minReplicas..maxReplicas) and\n"
      "requests between the current ones and the VPA target (never below its lowerBound for\n"
      "memory, within minAllowed/maxAllowed) against the cluster, and picks the pair that\n"
      "fits, serves the HPA's demand, and is closest to the HPA's and the VPA's targets,\n"
      "weighted by vpaWeight.  It says why P* leaves pods Pending, the new nodes that would\n"
      "hold it, whether the rollout can proceed and the maxSurge/maxUnavailable that would\n"
      "let it.  The rules, with worked examples: docs/algorithm.md.\n"
      "\n"
      "Exit status: 0 a plan that schedules and serves the demand, 1 infeasible (the best\n"
      "that schedules does not serve it all), 2 bad input.",
  .run = fs_cmd_plan,
};

int
fs_cmd_plan (int argc, char **argv)
{
  PlanOptions options = { .hpa_desired = G_MININT, .steps = G_MININT }; /* G_MININT: not given */
  GOptionEntry entries[] = {
    { "namespace", 'n', 0, G_OPTION_ARG_STRING, &options.namespace, "The workload's namespace (default: default)", "NS" },
    { "hpa-desired", 0, 0, G_OPTION_ARG_INT, &options.hpa_desired,
      "The HPA's desired replicas, instead of its status.desiredReplicas", "N" },
    { "hpa-from", 0, 0, G_OPTION_ARG_STRING, &options.hpa_from,
      "status (the HPA's status.desiredReplicas, default) or metrics (computed by fitscale from the "
      "snapshot's PodMetrics and metric values, as fitscale hpa does)", "SOURCE" },
    { "vpa-target", 0, 0, G_OPTION_ARG_STRING_ARRAY, &options.vpa_targets,
      "The VPA's target for a container, instead of its recommendation; repeat per container",
      "CONTAINER:cpu=Q,memory=Q" },
    { "vpa-weight", 0, 0, G_OPTION_ARG_STRING, &options.vpa_weight,
      "Without an Hvpa: the vpaWeight of its one stage, 0 (HPA only, the default) to 1 (VPA only); "
      "given with a workload that has an Hvpa, the Hvpa is ignored", "W" },
    { "semantics", 0, 0, G_OPTION_ARG_STRING, &options.semantics,
      "design (the weight-based scaling design text, default) or hvpa (the released controller)", "NAME" },
    { "steps", 0, 0, G_OPTION_ARG_INT, &options.steps,
      "Request steps from the current request to the VPA target (default 50)", "N" },
    { "now", 0, 0, G_OPTION_ARG_STRING, &options.now, "Evaluate at this instant (RFC 3339)", "TIME" },
    { "curve", 0, 0, G_OPTION_ARG_NONE, &options.curve,
      "Also print the request-vs-replicas curve with the schedulable region, as a table and a chart", NULL },
    { "update", 0, 0, G_OPTION_ARG_STRING, &options.update,
      "in-place: resize the running pods where they run (say which resize, wait Deferred, or are "
      "evicted); recreate: replace them; default: in place when the VPA's updateMode is "
      "InPlaceOrRecreate or InPlace", "MODE" },
    { "apply-patch", 0, 0, G_OPTION_ARG_NONE, &options.apply_patch,
      "Print only the kubectl patch (strategic merge) that applies the plan", NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) context = fs_cli_context_new (&fs_cli_plan, entries, &options.common, TRUE);
  FsOutputFormat format = FS_OUTPUT_TABLE;
  g_autoptr (GError) error = NULL;
  g_autoptr (FsSnapshot) snapshot = NULL;
  g_autoptr (FsPlanAnswer) answer = NULL;
  FsPlanRequest request;
  int64_t now_seconds = 0;
  int status = FS_EXIT_OK;
  if (!fs_cli_parse (context, &argc, &argv, &error)
      || !fs_cli_output_parse (options.common.output, &format, &error))
    status = FS_EXIT_ERROR;
  else if (argc != 2)
    status = fs_cli_usage (&error, "give one workload: hvpa/NAME, deployment/NAME or statefulset/NAME");
  else if (!build_request (&options, argv[1], &request, &error)
           || !fs_cli_parse_now (options.now, &now_seconds, &error)
           || (snapshot = fs_cli_load (fs_cli_plan.name, &options.common, FS_KUBE_NODES | FS_KUBE_PODS | FS_KUBE_NAMESPACES | FS_KUBE_WORKLOADS | FS_KUBE_HPAS | FS_KUBE_VPAS | FS_KUBE_HVPAS | FS_KUBE_POD_METRICS | FS_KUBE_STORAGE | FS_KUBE_RUNTIME_CLASSES, &error)) == NULL)
    status = FS_EXIT_ERROR;
  else
    {
      request.now_ms = now_seconds * 1000;
      if (options.namespace == NULL && options.common.context_namespace != NULL)
        request.namespace = options.common.context_namespace;
      answer = fs_plan (snapshot, &request, &error);
    }
  if (answer != NULL && answer->workload != NULL)
    {
      g_autofree char *name = g_strdup_printf ("%s %s/%s", fs_workload_kind_name (answer->workload->kind),
                                               answer->workload->namespace, answer->workload->name);
      fs_cli_warn_template (fs_cli_plan.name, &options.common, snapshot, answer->workload->template, name);
    }
  if (error != NULL)
    status = fs_cli_fail (fs_cli_plan.name, error);
  if (answer != NULL)
    {
      fs_cli_warn (fs_cli_plan.name, &options.common, fs_plan_answer_warnings (answer));
      if (options.apply_patch && answer->resize != NULL)
        fs_render_resize_patch_commands (stdout, answer);
      else if (options.apply_patch)
        fs_render_plan_patch_command (stdout, answer);
      else if (format == FS_OUTPUT_JSON || format == FS_OUTPUT_YAML)
        {
          g_autoptr (FsEmitter) emitter = fs_cli_emitter_new (&options.common, format);
          fs_render_plan (emitter, answer);
        }
      else
        {
          fs_render_plan_table (stdout, answer);
          if (options.curve)
            fs_render_plan_curve (stdout, answer);
        }
      status = answer->outcome == FS_PLAN_INFEASIBLE ? FS_EXIT_VERDICT : FS_EXIT_OK;
    }
  options_clear (&options);
  return status;
}
