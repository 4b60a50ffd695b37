/* fitscale plan — the (replicas, requests) pair the scheduler can place in full, closest to
 * what the HPA and the VPA want; the HVPA point and why it does or does not fit. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "fitscale/model/error.h"
#include "fitscale/plan/plan.h"
#include "fitscale/model/quantity.h"
#include "fitscale/render/plan.h"

static const char *const resources[FS_HVPA_N_RESOURCES] = { "cpu", "memory" };

typedef struct {
  FsCommonOptions common;
  char *namespace, *now, *semantics, *hpa_from, *vpa_weight;
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
  input->hpa_desired_given = options->hpa_desired != -1 ? FS_PLAN_GIVEN : FS_PLAN_ABSENT;
  input->hpa_desired = options->hpa_desired;
  input->steps_given = options->steps != 0 ? FS_PLAN_GIVEN : FS_PLAN_ABSENT;
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

/* ---- text ------------------------------------------------------------------------------ */

static char *
requests_text (const FsPlanAnswer *answer, const FsPlanCandidate *candidate)
{
  GString *text = g_string_new (NULL);
  const FsHvpaInput *in = &answer->hvpa.input;
  for (guint i = 0; i < in->n_containers; i++)
    {
      g_string_append_printf (text, "%s%s:", i > 0 ? " " : "", in->containers[i].name);
      for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
        {
          char amount[32];
          g_string_append_printf (text, "%s%s=%s", r > 0 ? "," : "", resources[r],
                                  candidate->request[i][r] > 0 ? fs_format_amount (resources[r], candidate->request[i][r], amount)
                                                               : "-");
        }
    }
  return g_string_free (text, FALSE);
}

static void
add_row (FsTable *table, const char *label, const FsPlanAnswer *answer, const FsPlanCandidate *candidate)
{
  g_autofree char *replicas = g_strdup_printf ("%d", candidate->replicas);
  g_autofree char *requests = requests_text (answer, candidate);
  g_autofree char *fits = g_strdup_printf ("%" G_GINT64_FORMAT, MIN (candidate->capacity, candidate->replicas));
  g_autofree char *pending = g_strdup_printf ("%" G_GINT64_FORMAT, candidate->pending);
  g_autofree char *served = g_strdup_printf ("%.0f%%", candidate->served * 100 - 0.4999);
  g_autofree char *distance = g_strdup_printf ("%.3f", candidate->distance);
  const char *cells[] = { label, replicas, requests, fits, pending, served, distance };
  fs_table_add_row (table, cells);
}

static void
print_header (const FsPlanAnswer *answer)
{
  const FsWorkload *workload = answer->workload;
  const FsHvpaInput *in = &answer->hvpa.input;
  printf ("%s %s/%s: %d replica%s now, %u of them on nodes", fs_workload_kind_name (workload->kind),
          workload->namespace, workload->name, in->current_replicas, in->current_replicas == 1 ? "" : "s",
          answer->own_pods);
  if (answer->hvpa.hpa != NULL)
    printf ("; HPA %s wants %d (%s)", answer->hvpa.hpa->name, answer->hpa_desired, answer->hpa_desired_from);
  else
    printf ("; no HPA");
  if (answer->hvpa.vpa != NULL)
    printf ("; VPA %s", answer->hvpa.vpa->name);
  printf (".\n");
  if (answer->from_hvpa)
    printf ("Hvpa %s: stage %d, vpaWeight %.2f.\n", answer->hvpa.hvpa->name, answer->hvpa.output.stage + 1,
            answer->stage_weight);
  else
    printf ("No Hvpa: one stage over replicas %d..%d, vpaWeight %.2f.\n", in->spec.min_replicas,
            in->spec.max_replicas, answer->stage_weight);
  for (guint i = 0; i < in->n_containers; i++)
    if (in->containers[i].has_recommendation)
      {
        char cpu[32], memory[32], lower[32];
        printf ("VPA target for %s: cpu %s, memory %s (lowerBound %s).\n", in->containers[i].name,
                fs_format_amount ("cpu", in->containers[i].target[FS_HVPA_CPU], cpu),
                fs_format_amount ("memory", in->containers[i].target[FS_HVPA_MEMORY], memory),
                in->containers[i].lower_bound[FS_HVPA_MEMORY] > 0
                    ? fs_format_amount ("memory", in->containers[i].lower_bound[FS_HVPA_MEMORY], lower) : "-");
      }
}

static void
print_rollout (const FsPlanAnswer *answer)
{
  const FsPlanRollout *rollout = &answer->rollout;
  if (!rollout->needed)
    {
      printf ("Rollout: none; the requests stay, the replicas change in place.\n");
      return;
    }
  if (strcmp (rollout->strategy, "RollingUpdate") != 0)
    {
      printf ("Rollout: %s: %s.\n", rollout->strategy,
              strcmp (rollout->strategy, "OnDelete") == 0 ? "the pods change only as they are deleted"
                                                           : "every old pod goes first, then the final state above");
      return;
    }
  printf ("Rollout: RollingUpdate with maxSurge %d, maxUnavailable %d ", rollout->limits.surge,
          rollout->limits.unavailable);
  if (rollout->completes)
    printf ("completes in %d controller sync%s.\n", rollout->syncs, rollout->syncs == 1 ? "" : "s");
  else
    {
      printf ("stops after %d syncs with %d old and %d new pods available, %d new Pending",
              rollout->syncs, rollout->stuck.old_available, rollout->stuck.new_available,
              rollout->stuck.new_replicas - rollout->stuck.new_available);
      if (rollout->has_fix)
        printf ("; with maxSurge %d and maxUnavailable %d it completes.\n", rollout->fix.surge, rollout->fix.unavailable);
      else
        printf (".\n");
    }
}

static void
print_answer (const FsPlanAnswer *answer)
{
  print_header (answer);
  printf ("\n");
  static const char *const headers[] = { "", "REPLICAS", "REQUESTS", "FIT", "PENDING", "SERVED", "DISTANCE" };
  g_autoptr (FsTable) table = fs_table_new (7, headers);
  add_row (table, "current", answer, &answer->current);
  add_row (table, "HVPA point", answer, &answer->target);
  add_row (table, "plan", answer, &answer->plan);
  if (answer->has_steady)
    add_row (table, "as configured", answer, &answer->steady);
  fs_table_print (table, stdout);
  printf ("\nOutcome: %s.\n", fs_plan_outcome_name (answer->outcome));
  if (answer->target_message != NULL)
    printf ("The HVPA point leaves %" G_GINT64_FORMAT " replica%s Pending: %s\n", answer->target.pending,
            answer->target.pending == 1 ? "" : "s", answer->target_message);
  for (guint i = 0; i < answer->nodes_needed->len; i++)
    {
      const FsNodeShapeEstimate *estimate = &g_array_index (answer->nodes_needed, FsNodeShapeEstimate, i);
      if (estimate->nodes_needed > 0)
        printf ("  or add %" G_GINT64_FORMAT " node%s of shape %s (%" G_GINT64_FORMAT " replica%s each).\n",
                estimate->nodes_needed, estimate->nodes_needed == 1 ? "" : "s", estimate->shape,
                estimate->per_node, estimate->per_node == 1 ? "" : "s");
    }
  print_rollout (answer);
  if (answer->alternatives->len > 0)
    {
      printf ("\nAlternatives (the best pair at other replica counts):\n");
      g_autoptr (FsTable) others = fs_table_new (7, headers);
      for (guint i = 0; i < answer->alternatives->len; i++)
        add_row (others, "", answer, &g_array_index (answer->alternatives, FsPlanCandidate, i));
      fs_table_print (others, stdout);
    }
  printf ("\n%s\n", answer->reason);
}

/* ---- --curve ----------------------------------------------------------------------------- */

/* The largest request of (container I, resource R) among the steps that hold N replicas. */
static int64_t
largest_fitting (const FsPlanAnswer *answer, guint i, int r, int32_t n)
{
  int64_t best = -1;
  for (guint k = 0; k < answer->n_steps; k++)
    if (answer->steps[k].capacity >= n)
      best = MAX (best, answer->steps[k].request[i][r]);
  return best;
}

static void
print_chart (const FsPlanAnswer *answer, guint i, int r, const FsHvpaCurvePoint *points, guint n)
{
  enum { HEIGHT = 10 };
  int64_t low = G_MAXINT64, high = 0;
  for (guint k = 0; k < answer->n_steps; k++)
    {
      low = MIN (low, answer->steps[k].request[i][r]);
      high = MAX (high, answer->steps[k].request[i][r]);
    }
  for (guint p = 0; p < n; p++)
    low = MIN (low, points[p].request), high = MAX (high, points[p].request);
  char top[32], bottom[32];
  printf ("\n%s %s, replicas across: * the HVPA curve inside the schedulable region (.), x outside it\n",
          answer->hvpa.input.containers[i].name, resources[r]);
  for (int row = HEIGHT; row >= 0; row--)
    {
      int64_t level = high > low ? low + (high - low) * row / HEIGHT : low;
      printf ("%10s | ", row == HEIGHT ? fs_format_amount (resources[r], high, top)
                         : row == 0 ? fs_format_amount (resources[r], low, bottom) : "");
      for (guint p = 0; p < n; p++)
        {
          int64_t fits = largest_fitting (answer, i, r, points[p].replicas);
          int curve_row = high > low ? (int) ((points[p].request - low) * HEIGHT / (high - low)) : 0;
          char mark = curve_row == row ? (points[p].request <= fits ? '*' : 'x') : (level <= fits ? '.' : ' ');
          putchar (mark);
        }
      putchar ('\n');
    }
  printf ("%10s +-", "");
  for (guint p = 0; p < n; p++)
    putchar ('-');
  printf ("> replicas %d..%d\n", points[0].replicas, points[n - 1].replicas);
}

static void
print_curve (const FsPlanAnswer *answer)
{
  const FsHvpaInput *in = &answer->hvpa.input;
  int32_t from = in->spec.min_replicas, to = MIN (in->spec.max_replicas, from + 199);
  int direction = answer->hpa_desired > in->current_replicas ? 1 : answer->hpa_desired < in->current_replicas ? -1 : 0;
  for (guint i = 0; i < in->n_containers; i++)
    for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
      {
        const FsHvpaContainer *container = &in->containers[i];
        if (!container->has_recommendation || container->target[r] == container->request[r])
          continue;
        g_autofree FsHvpaCurvePoint *points = g_new0 (FsHvpaCurvePoint, to - from + 1);
        guint n = fs_hvpa_curve (&in->spec, answer->request.semantics, (FsHvpaResource) r, container->request[r],
                                 container->target[r], direction, from, to, points);
        printf ("\n%s %s: the HVPA curve and the largest request that schedules, per replica count\n",
                container->name, resources[r]);
        static const char *const headers[] = { "REPLICAS", "VPA WEIGHT", "HVPA REQUEST", "LARGEST THAT FITS", "FITS" };
        g_autoptr (FsTable) table = fs_table_new (5, headers);
        for (guint p = 0; p < n; p++)
          {
            int64_t fits = largest_fitting (answer, i, r, points[p].replicas);
            char request[32], largest[32];
            g_autofree char *replicas = g_strdup_printf ("%d", points[p].replicas);
            g_autofree char *weight = g_strdup_printf ("%.2f", points[p].weight);
            const char *cells[] = { replicas, weight, fs_format_amount (resources[r], points[p].request, request),
                                    fits >= 0 ? fs_format_amount (resources[r], fits, largest) : "none",
                                    points[p].request <= fits ? "yes" : "no" };
            fs_table_add_row (table, cells);
          }
        fs_table_print (table, stdout);
        print_chart (answer, i, r, points, n);
      }
}

/* ---- --apply-patch ----------------------------------------------------------------------- */

static void
print_patch (const FsPlanAnswer *answer)
{
  const FsPlanCandidate *plan = &answer->plan;
  FsEmitter *emitter = fs_emitter_new_string ();
  fs_render_plan_patch (emitter, answer);
  g_autofree char *patch = fs_emitter_take_string (emitter);
  if (answer->hvpa.hpa != NULL)
    printf ("# HPA %s owns spec.replicas (it wants %d): this sets %d until its next sync.\n",
            answer->hvpa.hpa->name, answer->hpa_desired, plan->replicas);
  if (answer->outcome == FS_PLAN_INFEASIBLE)
    printf ("# the plan does not serve the whole demand (%s)\n", answer->reason);
  printf ("kubectl patch %s %s -n %s --type strategic -p '%s'\n",
          answer->workload->kind == FS_WORKLOAD_STATEFULSET ? "statefulset" : "deployment", answer->workload->name,
          answer->workload->namespace, patch);
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
  PlanOptions options = { .hpa_desired = -1 };
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
  if (!g_option_context_parse (context, &argc, &argv, &error)
      || !fs_output_parse (options.common.output, &format, &error))
    status = FS_EXIT_ERROR;
  else if (argc != 2)
    status = fs_cli_usage (&error, "give one workload: hvpa/NAME, deployment/NAME or statefulset/NAME");
  else if (!build_request (&options, argv[1], &request, &error)
           || !fs_cli_parse_now (options.now, &now_seconds, &error)
           || (snapshot = fs_cli_load (fs_cli_plan.name, &options.common, FS_KUBE_NODES | FS_KUBE_PODS | FS_KUBE_NAMESPACES | FS_KUBE_WORKLOADS | FS_KUBE_HPAS | FS_KUBE_VPAS | FS_KUBE_HVPAS | FS_KUBE_POD_METRICS, &error)) == NULL)
    status = FS_EXIT_ERROR;
  else
    {
      request.now_ms = now_seconds * 1000;
      if (options.namespace == NULL && options.common.context_namespace != NULL)
        request.namespace = options.common.context_namespace;
      answer = fs_plan (snapshot, &request, &error);
    }
  if (error != NULL)
    status = fs_cli_fail (fs_cli_plan.name, error);
  if (answer != NULL)
    {
      if (options.apply_patch)
        print_patch (answer);
      else if (format == FS_OUTPUT_JSON || format == FS_OUTPUT_YAML)
        {
          g_autoptr (FsEmitter) emitter = fs_emitter_new (format, stdout);
          fs_render_plan (emitter, answer);
        }
      else
        {
          print_answer (answer);
          if (options.curve)
            print_curve (answer);
        }
      status = answer->outcome == FS_PLAN_INFEASIBLE ? FS_EXIT_VERDICT : FS_EXIT_OK;
    }
  options_clear (&options);
  return status;
}
