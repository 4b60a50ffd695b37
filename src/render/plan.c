/* fitscale — the plan's answer documents (see include/fitscale/render/plan.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fitscale/model/quantity.h"
#include "fitscale/render/nodes-needed.h"
#include "fitscale/render/capacity.h"
#include "fitscale/render/plan.h"
#include "fitscale/render/resize.h"

static const char *const resources[FS_HVPA_N_RESOURCES] = { "cpu", "memory" };

/* The patch's requests: exact, in the most readable unit (fs_format_exact). */
static void
emit_exact_amounts (FsEmitter *emitter, const int64_t amounts[FS_HVPA_N_RESOURCES])
{
  fs_emit_map_open (emitter);
  for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
    if (amounts[r] > 0)
      {
        char text[32];
        fs_emit_key (emitter, resources[r]);
        fs_emit_string (emitter, fs_format_exact (resources[r], amounts[r], text));
      }
  fs_emit_map_close (emitter);
}

/* Requests, or limits when WRITTEN holds the limits the user wrote: a limit scaled with its
 * request is printed in their units ("5223Mi", not "5476363000"), rounded up. */
static void
emit_amounts (FsEmitter *emitter, const int64_t amounts[FS_HVPA_N_RESOURCES], const int64_t *written,
              const int64_t *requests)
{
  fs_emit_map_open (emitter);
  for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
    if (amounts[r] > 0)
      {
        char text[32];
        fs_emit_key (emitter, resources[r]);
        fs_emit_string (emitter, written != NULL ? fs_format_like (resources[r], amounts[r], written[r], requests[r], text)
                                                 : fs_format_amount (resources[r], amounts[r], text));
      }
  fs_emit_map_close (emitter);
}

static void emit_commands (FsEmitter *emitter, const FsPlanAnswer *answer);

static void
emit_candidate (FsEmitter *emitter, const FsPlanAnswer *answer, const FsPlanCandidate *candidate)
{
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "replicas");
  fs_emit_int (emitter, candidate->replicas);
  fs_emit_key (emitter, "containers");
  fs_emit_list_open (emitter);
  for (guint i = 0; i < answer->hvpa.input.n_containers; i++)
    {
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "name");
      fs_emit_string (emitter, answer->hvpa.input.containers[i].name);
      fs_emit_key (emitter, "requests");
      emit_amounts (emitter, candidate->request[i], NULL, NULL);
      fs_emit_key (emitter, "limits");
      emit_amounts (emitter, candidate->limit[i], answer->hvpa.input.containers[i].limit, candidate->request[i]);
      fs_emit_map_close (emitter);
    }
  fs_emit_list_close (emitter);
  fs_emit_key (emitter, "podRequest");
  fs_emit_resources (emitter, &candidate->pod_request, FALSE);
  fs_emit_key (emitter, "requestWeight");
  fs_emit_decimal (emitter, candidate->weight, 4);
  fs_emit_key (emitter, "schedulable");
  fs_emit_bool (emitter, candidate->schedulable);
  fs_emit_key (emitter, "capacity");
  fs_emit_int (emitter, candidate->capacity);
  fs_emit_key (emitter, "pending");
  fs_emit_int (emitter, candidate->pending);
  fs_emit_key (emitter, "servedFraction");
  fs_emit_decimal (emitter, MIN (candidate->served, 1.0), 4);
  fs_emit_key (emitter, "hpaDistance");
  fs_emit_decimal (emitter, candidate->hpa_distance, 4);
  fs_emit_key (emitter, "vpaDistance");
  fs_emit_decimal (emitter, candidate->vpa_distance, 4);
  fs_emit_key (emitter, "distance");
  fs_emit_decimal (emitter, candidate->distance, 4);
  fs_emit_map_close (emitter);
}

static void
emit_limits (FsEmitter *emitter, const char *key, FsRolloutLimits limits)
{
  fs_emit_key (emitter, key);
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "maxSurge");
  fs_emit_int (emitter, limits.surge);
  fs_emit_key (emitter, "maxUnavailable");
  fs_emit_int (emitter, limits.unavailable);
  fs_emit_map_close (emitter);
}

static void
emit_rollout (FsEmitter *emitter, const FsPlanRollout *rollout)
{
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "needed");
  fs_emit_bool (emitter, rollout->needed);
  fs_emit_key (emitter, "strategy");
  fs_emit_string (emitter, rollout->strategy);
  emit_limits (emitter, "limits", rollout->limits);
  fs_emit_key (emitter, "completes");
  fs_emit_bool (emitter, rollout->completes);
  fs_emit_key (emitter, "syncs");
  fs_emit_int (emitter, rollout->syncs);
  if (rollout->needed && !rollout->completes)
    {
      fs_emit_key (emitter, "stopsAt");
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "oldAvailable");
      fs_emit_int (emitter, rollout->stuck.old_available);
      fs_emit_key (emitter, "newAvailable");
      fs_emit_int (emitter, rollout->stuck.new_available);
      fs_emit_key (emitter, "newPending");
      fs_emit_int (emitter, rollout->stuck.new_replicas - rollout->stuck.new_available);
      fs_emit_map_close (emitter);
    }
  if (rollout->has_fix)
    emit_limits (emitter, "fix", rollout->fix);
  fs_emit_map_close (emitter);
}

static void
emit_sources (FsEmitter *emitter, const FsPlanAnswer *answer)
{
  fs_emit_key (emitter, "workload");
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "kind");
  fs_emit_string (emitter, fs_workload_kind_name (answer->workload->kind));
  fs_emit_key (emitter, "namespace");
  fs_emit_string (emitter, answer->workload->namespace);
  fs_emit_key (emitter, "name");
  fs_emit_string (emitter, answer->workload->name);
  fs_emit_map_close (emitter);
  fs_emit_key (emitter, "sources");
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "hvpa");
  fs_emit_string (emitter, answer->from_hvpa ? answer->hvpa.hvpa->name : NULL);
  fs_emit_key (emitter, "hpa");
  fs_emit_string (emitter, answer->hvpa.hpa != NULL ? answer->hvpa.hpa->name : NULL);
  fs_emit_key (emitter, "vpa");
  fs_emit_string (emitter, answer->hvpa.vpa != NULL ? answer->hvpa.vpa->name : NULL);
  fs_emit_key (emitter, "hpaDesiredReplicas");
  fs_emit_int (emitter, answer->hpa_desired);
  fs_emit_key (emitter, "hpaDesiredFrom");
  fs_emit_string (emitter, answer->hpa_desired_from);
  fs_emit_key (emitter, "semantics");
  fs_emit_string (emitter, fs_hvpa_semantics_name (answer->request.semantics));
  fs_emit_key (emitter, "vpaWeight");
  fs_emit_decimal (emitter, answer->stage_weight, 4);
  fs_emit_map_close (emitter);
  fs_emit_key (emitter, "demand");
  fs_emit_map_open (emitter);
  int64_t amounts[FS_HVPA_N_RESOURCES];
  for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
    amounts[r] = answer->demand.resource[r] ? answer->demand.amount[r] : 0;
  fs_emit_key (emitter, "resources");
  emit_amounts (emitter, amounts, NULL, NULL);
  fs_emit_key (emitter, "replicas");
  answer->demand.replicas_metric ? fs_emit_int (emitter, answer->demand.replicas) : fs_emit_null (emitter);
  fs_emit_map_close (emitter);
}

void
fs_render_plan_fields (FsEmitter *emitter, const FsPlanAnswer *answer)
{
  emit_sources (emitter, answer);
  fs_emit_key (emitter, "current");
  emit_candidate (emitter, answer, &answer->current);
  fs_emit_key (emitter, "hvpa");
  emit_candidate (emitter, answer, &answer->target);
  fs_emit_key (emitter, "hvpaPendingMessage");
  fs_emit_string (emitter, answer->target_message);
  fs_emit_key (emitter, "plan");
  emit_candidate (emitter, answer, &answer->plan);
  fs_emit_key (emitter, "steadyAlternative");
  if (answer->has_steady)
    emit_candidate (emitter, answer, &answer->steady);
  else
    fs_emit_null (emitter);
  fs_emit_key (emitter, "outcome");
  fs_emit_string (emitter, fs_plan_outcome_name (answer->outcome));
  fs_emit_key (emitter, "rollout");
  emit_rollout (emitter, &answer->rollout);
  fs_emit_key (emitter, "alternatives");
  fs_emit_list_open (emitter);
  for (guint i = 0; i < answer->alternatives->len; i++)
    emit_candidate (emitter, answer, &g_array_index (answer->alternatives, FsPlanCandidate, i));
  fs_emit_list_close (emitter);
  fs_emit_key (emitter, "nodesNeeded");
  fs_emit_nodes_needed (emitter, answer->nodes_needed);
  fs_emit_key (emitter, "candidates");
  fs_emit_int (emitter, answer->n_candidates);
  fs_emit_key (emitter, "reason");
  fs_emit_string (emitter, answer->reason);
  fs_render_resize_fields (emitter, answer->resize); /* in-place updates (issue 21, render/resize.c) */
  fs_render_unmodelled_fields (emitter, answer->recorded_pod, answer->unmodelled);
  emit_commands (emitter, answer);
}

void
fs_render_plan (FsEmitter *emitter, const FsPlanAnswer *answer)
{
  fs_emit_map_open (emitter);
  fs_render_plan_fields (emitter, answer);
  fs_emit_map_close (emitter);
}

/* strategy.rollingUpdate: the limits that let the rollout complete. */
static void
emit_patch_strategy (FsEmitter *emitter, FsRolloutLimits fix)
{
  fs_emit_key (emitter, "strategy");
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "rollingUpdate");
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "maxSurge");
  fs_emit_int (emitter, fix.surge);
  fs_emit_key (emitter, "maxUnavailable");
  fs_emit_int (emitter, fix.unavailable);
  fs_emit_map_close (emitter);
  fs_emit_map_close (emitter);
}

/* template.spec.containers[]: each container's requests, and its limits when it has any. */
static void
emit_patch_template (FsEmitter *emitter, const FsPlanAnswer *answer)
{
  const FsPlanCandidate *plan = &answer->plan;
  fs_emit_key (emitter, "template");
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "spec");
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "containers");
  fs_emit_list_open (emitter);
  for (guint i = 0; i < answer->hvpa.input.n_containers; i++)
    {
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "name");
      fs_emit_string (emitter, answer->hvpa.input.containers[i].name);
      fs_emit_key (emitter, "resources");
      fs_emit_map_open (emitter);
      /* the requests rounded to the manifest's units when the rounded pair was checked to
       * schedule as the plan does, else exact (plan.c round_patch) */
      const int64_t *request = answer->patch_rounded ? answer->patch_request[i] : plan->request[i];
      fs_emit_key (emitter, "requests");
      emit_exact_amounts (emitter, request);
      gboolean any_limit = plan->limit[i][FS_HVPA_CPU] > 0 || plan->limit[i][FS_HVPA_MEMORY] > 0;
      if (any_limit)
        {
          fs_emit_key (emitter, "limits");
          emit_amounts (emitter, plan->limit[i], answer->hvpa.input.containers[i].limit, request);
        }
      fs_emit_map_close (emitter);
      fs_emit_map_close (emitter);
    }
  fs_emit_list_close (emitter);
  fs_emit_map_close (emitter);
  fs_emit_map_close (emitter);
}

void
fs_render_plan_patch (FsEmitter *emitter, const FsPlanAnswer *answer)
{
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "spec");
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "replicas");
  fs_emit_int (emitter, answer->plan.replicas);
  if (answer->rollout.has_fix && answer->workload->kind == FS_WORKLOAD_DEPLOYMENT)
    emit_patch_strategy (emitter, answer->rollout.fix);
  emit_patch_template (emitter, answer);
  fs_emit_map_close (emitter);
  fs_emit_map_close (emitter);
}

/* maxSurge / maxUnavailable as the workload wrote them, or null (the default, 25%) when
 * it did not: what restores the strategy after the rollout. */
static void
emit_written_limit (FsEmitter *emitter, const char *key, const FsIntOrPercent *limit)
{
  fs_emit_key (emitter, key);
  if (!limit->set)
    fs_emit_null (emitter);
  else if (limit->percent)
    {
      g_autofree char *text = g_strdup_printf ("%d%%", limit->value);
      fs_emit_string (emitter, text);
    }
  else
    fs_emit_int (emitter, limit->value);
}

/* The commands that apply the plan, each shell-quoted, or NULL. */
typedef struct {
  char *apply;   /* kubectl patch of the workload (the same as --apply-patch) */
  char *revert;  /* after the rollout: the strategy as it was, when the patch changes it */
  char *hpa;     /* the HPA's (or Hvpa's) bounds that hold the plan's replicas, when the HPA
                  * would set another count */
  int32_t hpa_sets; /* what the HPA or Hvpa sets at its next sync (answer->next_sync_replicas) */
} PlanCommands;

static void
plan_commands_clear (PlanCommands *commands)
{
  g_free (commands->apply);
  g_free (commands->revert);
  g_free (commands->hpa);
}

/* A merge patch that writes the JSON map BOUNDS at PATH ("spec.hpaTemplate":
 * {"spec":{"hpaTemplate":BOUNDS}}). */
static char *
merge_patch (const char *path, const char *bounds)
{
  g_auto (GStrv) keys = g_strsplit (path, ".", -1);
  GString *patch = g_string_new (NULL);
  for (char **key = keys; *key != NULL; key++)
    g_string_append_printf (patch, "{\"%s\":", *key);
  g_string_append (patch, bounds);
  for (char **key = keys; *key != NULL; key++)
    g_string_append_c (patch, '}');
  return g_string_free (patch, FALSE);
}

static void
plan_commands (const FsPlanAnswer *answer, PlanCommands *commands)
{
  memset (commands, 0, sizeof *commands);
  const FsWorkload *workload = answer->workload;
  FS_SCRATCH (safe);
  const char *kind = workload->kind == FS_WORKLOAD_STATEFULSET ? "statefulset" : "deployment";
  FsEmitter *emitter = fs_emitter_new_string ();
  fs_render_plan_patch (emitter, answer);
  g_autofree char *patch = fs_emitter_take_string (emitter);
  /* the patch is JSON (controls escaped) in single quotes: a quote in a name is '\'' */
  g_autofree char *quoted_patch = g_shell_quote (patch);
  commands->apply = g_strdup_printf ("kubectl patch %s %s -n %s --type strategic -p %s", kind,
                                     fs_shell_word (safe, workload->name), fs_shell_word (safe, workload->namespace),
                                     fs_safe (safe, quoted_patch));
  if (answer->rollout.has_fix && workload->kind == FS_WORKLOAD_DEPLOYMENT)
    {
      emitter = fs_emitter_new_string ();
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "spec");
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "strategy");
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "rollingUpdate");
      fs_emit_map_open (emitter);
      emit_written_limit (emitter, "maxSurge", &workload->max_surge);
      emit_written_limit (emitter, "maxUnavailable", &workload->max_unavailable);
      fs_emit_map_close (emitter);
      fs_emit_map_close (emitter);
      fs_emit_map_close (emitter);
      fs_emit_map_close (emitter);
      g_autofree char *revert = fs_emitter_take_string (emitter);
      g_autofree char *quoted = g_shell_quote (revert);
      commands->revert = g_strdup_printf ("kubectl patch %s %s -n %s --type strategic -p %s", kind,
                                          fs_shell_word (safe, workload->name),
                                          fs_shell_word (safe, workload->namespace), quoted);
    }
  if (answer->hvpa.hpa == NULL && !answer->from_hvpa)
    return;
  int32_t min = answer->hvpa.input.spec.min_replicas, max = answer->hvpa.input.spec.max_replicas;
  int32_t replicas = answer->plan.replicas;
  commands->hpa_sets = answer->next_sync_replicas;
  if (replicas == commands->hpa_sets || replicas <= 0)
    return;
  /* bounds that hold the plan's count: a lower maxReplicas (and minReplicas under it), or a
   * higher minReplicas (and maxReplicas over it) */
  int32_t new_min = replicas < commands->hpa_sets ? MIN (min, replicas) : replicas;
  int32_t new_max = replicas < commands->hpa_sets ? replicas : MAX (max, replicas);
  g_autoptr (GString) bounds = g_string_new ("{");
  if (new_min != min)
    g_string_append_printf (bounds, "\"minReplicas\":%d", new_min);
  if (new_max != max)
    g_string_append_printf (bounds, "%s\"maxReplicas\":%d", bounds->len > 1 ? "," : "", new_max);
  g_string_append (bounds, "}");
  g_autofree char *merge = merge_patch (answer->from_hvpa ? answer->hvpa.input.spec.replicas_path : "spec", bounds->str);
  const char *name = answer->from_hvpa ? answer->hvpa.hvpa->name : answer->hvpa.hpa->name;
  commands->hpa = g_strdup_printf ("kubectl patch %s %s -n %s --type merge -p %s", answer->from_hvpa ? "hvpa" : "hpa",
                                   fs_shell_word (safe, name), fs_shell_word (safe, workload->namespace),
                                   fs_shell_word (safe, merge));
}

static void
emit_commands (FsEmitter *emitter, const FsPlanAnswer *answer)
{
  PlanCommands commands;
  plan_commands (answer, &commands);
  fs_emit_key (emitter, "commands");
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "apply");
  fs_emit_string (emitter, commands.apply);
  fs_emit_key (emitter, "revertStrategy");
  fs_emit_string (emitter, commands.revert);
  fs_emit_key (emitter, "holdReplicas");
  fs_emit_string (emitter, commands.hpa);
  fs_emit_map_close (emitter);
  plan_commands_clear (&commands);
}

/* The comments and commands of --apply-patch, each line after PREFIX. */
static void
print_commands (FILE *out, const FsPlanAnswer *answer, const char *prefix)
{
  const FsPlanCandidate *plan = &answer->plan;
  PlanCommands commands;
  plan_commands (answer, &commands);
  FS_SCRATCH (safe);
  const char *owner = answer->from_hvpa ? "Hvpa" : "HPA";
  const char *owner_name = answer->from_hvpa ? answer->hvpa.hvpa->name
                           : answer->hvpa.hpa != NULL ? answer->hvpa.hpa->name : NULL;
  if (owner_name != NULL && commands.hpa == NULL)
    fprintf (out, "%s# the %s %s owns spec.replicas: it sets %d at its next sync, as the plan does.\n", prefix,
             owner, fs_safe (safe, owner_name), commands.hpa_sets);
  if (answer->outcome == FS_PLAN_INFEASIBLE && plan->schedulable)
    fprintf (out, "%s# infeasible: no pair that schedules serves the whole demand; this one serves the most, %.0f %%.\n",
             prefix, floor (MIN (plan->served, 1.0) * 100 + 1e-9));
  else if (answer->outcome == FS_PLAN_INFEASIBLE)
    fprintf (out, "%s# infeasible: no pair schedules every replica; this is the workload as it runs.\n", prefix);
  if (answer->patch_rounded)
    fprintf (out, "%s# memory requests rounded up to the units the manifest wrote: checked, as many replicas fit.\n",
             prefix);
  else if (answer->patch_exact)
    fprintf (out, "%s# memory requests exact, not rounded to the units the manifest wrote: rounded up, fewer "
                  "replicas would fit or the rollout would go otherwise.\n", prefix);
  fprintf (out, "%s%s\n", prefix, commands.apply);
  if (commands.revert != NULL)
    fprintf (out, "%s# once the rollout completes, the strategy as it was:\n%s%s\n", prefix, prefix, commands.revert);
  if (commands.hpa != NULL)
    fprintf (out, "%s# the %s %s sets %d replica%s at its next sync, not the plan's %d; to hold %d:\n%s%s\n", prefix,
             owner, fs_safe (safe, owner_name), commands.hpa_sets, commands.hpa_sets == 1 ? "" : "s", plan->replicas,
             plan->replicas, prefix, commands.hpa);
  plan_commands_clear (&commands);
}

void
fs_render_plan_patch_command (FILE *out, const FsPlanAnswer *answer)
{
  print_commands (out, answer, "");
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
      const char *sep = "";
      for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
        if (candidate->request[i][r] > 0) /* a resource it does not request is left out, as kubectl does */
          {
            char amount[32];
            g_string_append_printf (text, "%s%s=%s", sep, resources[r],
                                    fs_format_for_people (resources[r], candidate->request[i][r], amount));
            sep = ",";
          }
      if (sep[0] == '\0')
        g_string_append (text, "no requests");
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
  /* rounded down, so that less than all is never 100 %, and none is 0 %, not -0 % */
  g_autofree char *served = g_strdup_printf ("%.0f%%", floor (MIN (candidate->served, 1.0) * 100 + 1e-9));
  g_autofree char *distance = g_strdup_printf ("%.3f", candidate->distance);
  const char *cells[] = { label, replicas, requests, fits, pending, served, distance };
  fs_table_add_row (table, cells);
}

static void
print_vpa_targets (FILE *out, const FsHvpaInput *in)
{
  for (guint i = 0; i < in->n_containers; i++)
    if (in->containers[i].has_recommendation)
      {
        char cpu[32], memory[32], lower[32];
        g_autofree char *name = fs_terminal_safe (in->containers[i].name);
        fprintf (out, "VPA target for %s: cpu %s, memory %s", name,
                 fs_format_for_people ("cpu", in->containers[i].target[FS_HVPA_CPU], cpu),
                 fs_format_for_people ("memory", in->containers[i].target[FS_HVPA_MEMORY], memory));
        if (in->containers[i].lower_bound[FS_HVPA_MEMORY] > 0) /* none with --vpa-target */
          fprintf (out, " (lowerBound %s)",
                   fs_format_for_people ("memory", in->containers[i].lower_bound[FS_HVPA_MEMORY], lower));
        fprintf (out, ".\n");
      }
}

static void
print_header (FILE *out, const FsPlanAnswer *answer)
{
  const FsWorkload *workload = answer->workload;
  const FsHvpaInput *in = &answer->hvpa.input;
  FS_SCRATCH (safe);
  fprintf (out, "%s %s/%s: %d replica%s now, %u of them on nodes", fs_workload_kind_name (workload->kind),
           fs_safe (safe, workload->namespace), fs_safe (safe, workload->name), in->current_replicas,
           in->current_replicas == 1 ? "" : "s", answer->own_pods);
  if (answer->hvpa.hpa != NULL)
    fprintf (out, "; HPA %s wants %d (%s)", fs_safe (safe, answer->hvpa.hpa->name), answer->hpa_desired,
             fs_safe (safe, answer->hpa_desired_from));
  else
    fprintf (out, "; no HPA");
  if (answer->hvpa.vpa != NULL)
    fprintf (out, "; VPA %s", fs_safe (safe, answer->hvpa.vpa->name));
  fprintf (out, ".\n");
  if (answer->from_hvpa && answer->hvpa.output.stage >= 0)
    {
      /* numbered and bounded as hvpa's "Stage 2 of 3 (replicas 3..7)" and --curve's STAGE */
      guint stage = (guint) answer->hvpa.output.stage;
      int32_t first, last;
      fs_hvpa_interval_bounds (&in->spec, stage, &first, &last);
      fprintf (out, "Hvpa %s: stage %u of %u (replicas %d..%d), vpaWeight %.2f", fs_safe (safe, answer->hvpa.hvpa->name),
               stage + 1, in->spec.n_intervals, first, last, answer->stage_weight);
      double own = fs_hvpa_interval_weight (&in->spec, answer->request.semantics, stage);
      if (fabs (own - answer->stage_weight) > 0.005)
        fprintf (out, " (this stage's own is %.2f)", own);
      fprintf (out, ".\n");
    }
  else if (answer->from_hvpa)
    fprintf (out, "Hvpa %s: no stage covers %d replica%s, so vpaWeight %.2f.\n", fs_safe (safe, answer->hvpa.hvpa->name),
             in->current_replicas, in->current_replicas == 1 ? "" : "s", answer->stage_weight);
  else
    fprintf (out, "No Hvpa: one stage over replicas %d..%d, vpaWeight %.2f.\n", in->spec.min_replicas,
             in->spec.max_replicas, answer->stage_weight);
  print_vpa_targets (out, in);
}

static void
print_rollout (FILE *out, const FsPlanAnswer *answer)
{
  const FsPlanRollout *rollout = &answer->rollout;
  if (!rollout->needed)
    {
      if (answer->plan.replicas == answer->current.replicas)
        fprintf (out, "Rollout: none; nothing changes.\n");
      else
        fprintf (out, "Rollout: none; the requests stay, so no pod is replaced: %s.\n",
                 answer->plan.replicas > answer->current.replicas ? "pods are only added" : "pods are only removed");
      return;
    }
  if (strcmp (rollout->strategy, "RollingUpdate") != 0)
    {
      fprintf (out, "Rollout: %s: %s.\n", rollout->strategy,
               strcmp (rollout->strategy, "OnDelete") == 0 ? "the pods change only as they are deleted"
                                                            : "every old pod goes first, then the final state above");
      return;
    }
  gboolean stateful = answer->workload->kind == FS_WORKLOAD_STATEFULSET;
  if (stateful) /* no maxSurge: it deletes a pod, then creates its successor */
    fprintf (out, "Rollout: RollingUpdate, one pod at a time (maxUnavailable %d) ", rollout->limits.unavailable);
  else
    fprintf (out, "Rollout: RollingUpdate with maxSurge %d, maxUnavailable %d ", rollout->limits.surge,
             rollout->limits.unavailable);
  if (rollout->completes)
    fprintf (out, "completes in %d controller sync%s.\n", rollout->syncs, rollout->syncs == 1 ? "" : "s");
  else
    {
      fprintf (out, "stops after %d controller sync%s with %d old and %d new pods available, %d new Pending",
               rollout->syncs, rollout->syncs == 1 ? "" : "s", rollout->stuck.old_available, rollout->stuck.new_available,
               rollout->stuck.new_replicas - rollout->stuck.new_available);
      if (rollout->has_fix && stateful)
        fprintf (out, "; with maxUnavailable %d (spec.updateStrategy.rollingUpdate.maxUnavailable, feature gate "
                 "MaxUnavailableStatefulSet) it completes.\n", rollout->fix.unavailable);
      else if (rollout->has_fix)
        fprintf (out, "; with maxSurge %d and maxUnavailable %d it completes.\n", rollout->fix.surge,
                 rollout->fix.unavailable);
      else
        fprintf (out, ".\n");
    }
}

static const char *const row_headers[] = { "", "REPLICAS", "REQUESTS", "FIT", "PENDING", "SERVED", "DISTANCE" };

static void
print_candidates (FILE *out, const FsPlanAnswer *answer)
{
  g_autoptr (FsTable) table = fs_table_new (7, row_headers);
  add_row (table, "current", answer, &answer->current);
  g_autofree char *point = g_strdup_printf ("%s point", fs_plan_point_name (answer));
  add_row (table, point, answer, &answer->target);
  add_row (table, "plan", answer, &answer->plan);
  if (answer->has_steady)
    add_row (table, "as configured", answer, &answer->steady);
  fs_table_print (table, out);
}

/* The outcome, why the HVPA point leaves pods Pending, and the new nodes that would hold it. */
static void
print_outcome (FILE *out, const FsPlanAnswer *answer)
{
  fprintf (out, "\nOutcome: %s.\n", fs_plan_outcome_name (answer->outcome));
  if (answer->target_message != NULL)
    {
      g_autofree char *message = fs_terminal_safe (answer->target_message);
      fprintf (out, "The %s point leaves %" G_GINT64_FORMAT " replica%s Pending: %s\n",
               fs_plan_point_name (answer), answer->target.pending,
               answer->target.pending == 1 ? "" : "s", message);
    }
  const char *them = answer->target.pending == 1 ? "it" : "them";
  guint choices = fs_nodes_needed_complete (answer->nodes_needed);
  if (choices == 1)
    {
      g_autofree char *prefix = g_strdup_printf ("  New nodes that would hold %s: ", them);
      fs_print_nodes_needed (out, prefix, TRUE, answer->nodes_needed);
    }
  else if (choices > 1) /* one header, the shapes as alternatives */
    {
      fprintf (out, "  New nodes that would hold %s, one of these:\n", them);
      fs_print_nodes_needed (out, "    ", TRUE, answer->nodes_needed);
    }
}

static void
print_alternatives (FILE *out, const FsPlanAnswer *answer)
{
  if (answer->alternatives->len == 0)
    return;
  fprintf (out, "\nAlternatives (the best pair at other replica counts):\n");
  g_autoptr (FsTable) others = fs_table_new (7, row_headers);
  for (guint i = 0; i < answer->alternatives->len; i++)
    add_row (others, "", answer, &g_array_index (answer->alternatives, FsPlanCandidate, i));
  fs_table_print (others, out);
}

void
fs_render_plan_table (FILE *out, const FsPlanAnswer *answer)
{
  fs_render_unmodelled_note (out, answer->recorded_pod, answer->unmodelled);
  print_header (out, answer);
  fprintf (out, "\n");
  print_candidates (out, answer);
  print_outcome (out, answer);
  print_rollout (out, answer);
  print_alternatives (out, answer);
  fs_render_resize_table (out, answer); /* in-place updates (issue 21, render/resize.c) */
  g_autofree char *reason = fs_terminal_safe (answer->reason); /* one paragraph, names in it */
  fprintf (out, "\n%s\n", reason);
  /* the commands that do it (--apply-patch prints them alone); none when nothing changes */
  if (answer->resize == NULL
      && !(answer->plan.same_template && answer->plan.replicas == answer->current.replicas))
    {
      fprintf (out, "\nTo apply it:\n");
      print_commands (out, answer, "  ");
    }
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
print_chart (FILE *out, const FsPlanAnswer *answer, guint i, int r, const FsHvpaCurvePoint *points, guint n)
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
  g_autofree char *name = fs_terminal_safe (answer->hvpa.input.containers[i].name);
  fprintf (out, "\n%s %s, replicas across: * the HVPA curve inside the schedulable region (.), x outside it\n",
           name, resources[r]);
  for (int row = HEIGHT; row >= 0; row--)
    {
      int64_t level = high > low ? low + (high - low) * row / HEIGHT : low;
      fprintf (out, "%10s | ", row == HEIGHT ? fs_format_for_people (resources[r], high, top)
                               : row == 0 ? fs_format_for_people (resources[r], low, bottom) : "");
      for (guint p = 0; p < n; p++)
        {
          int64_t fits = largest_fitting (answer, i, r, points[p].replicas);
          int curve_row = high > low ? (int) ((points[p].request - low) * HEIGHT / (high - low)) : 0;
          char mark = curve_row == row ? (points[p].request <= fits ? '*' : 'x') : (level <= fits ? '.' : ' ');
          fputc (mark, out);
        }
      fputc ('\n', out);
    }
  fprintf (out, "%10s +-", "");
  for (guint p = 0; p < n; p++)
    fputc ('-', out);
  fprintf (out, "> replicas %d..%d\n", points[0].replicas, points[n - 1].replicas);
}

static void
print_curve_table (FILE *out, const FsPlanAnswer *answer, guint i, int r, const FsHvpaCurvePoint *points,
                   guint n)
{
  static const char *const headers[] = { "REPLICAS", "VPA WEIGHT", "HVPA REQUEST", "LARGEST THAT FITS", "FITS", "STAGE" };
  g_autoptr (FsTable) table = fs_table_new (6, headers);
  for (guint p = 0; p < n; p++)
    {
      int64_t fits = largest_fitting (answer, i, r, points[p].replicas);
      char request[32], largest[32];
      g_autofree char *replicas = g_strdup_printf ("%d", points[p].replicas);
      /* numbered from 1, as the header's "stage 2 of 3"; "-" where no stage covers the count */
      g_autofree char *stage = points[p].stage >= 0 ? g_strdup_printf ("%d", points[p].stage + 1) : g_strdup ("-");
      g_autofree char *weight = g_strdup_printf ("%.2f", points[p].weight);
      const char *cells[] = { replicas, weight, fs_format_for_people (resources[r], points[p].request, request),
                              fits >= 0 ? fs_format_for_people (resources[r], fits, largest) : "none",
                              points[p].request <= fits ? "yes" : "no", stage };
      fs_table_add_row (table, cells);
    }
  fs_table_print (table, out);
}

void
fs_render_plan_curve (FILE *out, const FsPlanAnswer *answer)
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
        g_autofree char *name = fs_terminal_safe (container->name);
        fprintf (out, "\n%s %s: the HVPA curve and the largest request that schedules, per replica count\n",
                 name, resources[r]);
        print_curve_table (out, answer, i, r, points, n);
        print_chart (out, answer, i, r, points, n);
      }
}
