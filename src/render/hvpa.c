/* fitscale — the answer of `fitscale hvpa` (see include/fitscale/render/hvpa.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "fitscale/render/hvpa.h"

static const char *const resources[FS_HVPA_N_RESOURCES] = { "cpu", "memory" };

static char *
amount_text (FsHvpaResource resource, int64_t amount)
{
  char text[32];
  return g_strdup (fs_format_amount (resources[resource], amount, text));
}

/* The same for people, in tables. */
static char *
human_text (FsHvpaResource resource, int64_t amount)
{
  char text[32];
  return g_strdup (fs_format_for_people (resources[resource], amount, text));
}

/* ---- JSON / YAML -------------------------------------------------------------------- */

static void
emit_container (FsEmitter *emitter, const char *name, const FsHvpaContainerResult *result)
{
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "name");
  fs_emit_string (emitter, name);
  const char *const groups[] = { "requests", "limits", "weightedRequests" };
  const int64_t *values[] = { result->request, result->limit, result->weighted_request };
  for (gsize g = 0; g < G_N_ELEMENTS (groups); g++)
    {
      fs_emit_key (emitter, groups[g]);
      fs_emit_map_open (emitter);
      for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
        {
          if (values[g][r] == 0)
            continue;
          g_autofree char *text = amount_text ((FsHvpaResource) r, values[g][r]);
          fs_emit_key (emitter, resources[r]);
          fs_emit_string (emitter, text);
        }
      fs_emit_map_close (emitter);
    }
  fs_emit_map_close (emitter);
}

static void
emit_blocked (FsEmitter *emitter, const FsHvpaOutput *out)
{
  fs_emit_list_open (emitter);
  for (guint i = 0; i < out->n_blocked; i++)
    {
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "reason");
      fs_emit_string (emitter, fs_hvpa_blocked_reason_name (out->blocked[i].reason));
      fs_emit_key (emitter, "horizontal");
      fs_emit_bool (emitter, out->blocked[i].horizontal);
      fs_emit_key (emitter, "vertical");
      fs_emit_bool (emitter, out->blocked[i].vertical);
      fs_emit_key (emitter, "message");
      fs_emit_string (emitter, out->blocked[i].message);
      fs_emit_map_close (emitter);
    }
  fs_emit_list_close (emitter);
}

void
fs_render_hvpa (FsEmitter *emitter, const FsHvpaAnswer *answer, FsHvpaSemantics semantics)
{
  const FsHvpaOutput *out = &answer->output;
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "namespace");
  fs_emit_string (emitter, answer->hvpa->namespace);
  fs_emit_key (emitter, "name");
  fs_emit_string (emitter, answer->hvpa->name);
  fs_emit_key (emitter, "semantics");
  fs_emit_string (emitter, fs_hvpa_semantics_name (semantics));
  fs_emit_key (emitter, "valid");
  fs_emit_bool (emitter, out->valid);
  if (!out->valid)
    {
      fs_emit_key (emitter, "error");
      fs_emit_string (emitter, out->error);
    }
  fs_emit_key (emitter, "currentReplicas");
  fs_emit_int (emitter, answer->input.current_replicas);
  fs_emit_key (emitter, "hpaDesiredReplicas");
  answer->input.has_hpa_status ? fs_emit_int (emitter, answer->input.desired_replicas)
                               : fs_emit_null (emitter);
  fs_emit_key (emitter, "stage");
  fs_emit_int (emitter, out->stage);
  fs_emit_key (emitter, "vpaWeight");
  fs_emit_decimal (emitter, out->stage_weight, 4);
  fs_emit_key (emitter, "verticalWeight");
  fs_emit_decimal (emitter, out->vertical_weight, 4);
  fs_emit_key (emitter, "weightedReplicas");
  fs_emit_int (emitter, out->weighted_replicas);
  fs_emit_key (emitter, "replicas");
  fs_emit_int (emitter, out->replicas);
  fs_emit_key (emitter, "containers");
  fs_emit_list_open (emitter);
  for (guint i = 0; i < answer->input.n_containers; i++)
    emit_container (emitter, answer->input.containers[i].name, &out->containers[i]);
  fs_emit_list_close (emitter);
  fs_emit_key (emitter, "blocked");
  emit_blocked (emitter, out);
  fs_emit_map_close (emitter);
}

/* ---- text ----------------------------------------------------------------------------- */

/* "Stage 2 of 3 (replicas 3..5), vpaWeight 0.40: replicas 4 (weighted 4)." */
static void
print_stage (FILE *file, const FsHvpaAnswer *answer, FsHvpaSemantics semantics)
{
  const FsHvpaOutput *out = &answer->output;
  const FsHvpaInput *in = &answer->input;
  if (out->stage >= 0)
    {
      int32_t first, last;
      fs_hvpa_interval_bounds (&in->spec, (guint) out->stage, &first, &last);
      fprintf (file, "Stage %d of %u (replicas %d..%d), vpaWeight %.2f", out->stage + 1,
               in->spec.n_intervals, first, last, out->stage_weight);
      /* hvpa getVpaWeightFromIntervals: a stage of weight 100 lends the weight of the next
       * stage below 100 when the HPA wants more, of the last one before it when fewer */
      double own = fs_hvpa_interval_weight (&in->spec, semantics, (guint) out->stage);
      if (fabs (own - out->stage_weight) > 0.005)
        fprintf (file, " (this stage's own is %.2f; the HPA wants %s, so that of the %s stage below 1.00)", own,
                 in->desired_replicas > in->current_replicas ? "more" : "fewer",
                 in->desired_replicas > in->current_replicas ? "next" : "last earlier");
    }
  else
    fprintf (file, "No stage covers %d replica%s, so vpaWeight 0", in->current_replicas, in->current_replicas == 1 ? "" : "s");
  if (out->vertical_weight != out->stage_weight)
    fprintf (file, " (requests weighted %.2f)", out->vertical_weight);
  fprintf (file, ": replicas %d (weighted %d).\n\n", out->replicas, out->weighted_replicas);
}

static void
add_resource_row (FsTable *table, const FsHvpaContainer *container, const FsHvpaContainerResult *result,
                  FsHvpaResource r)
{
  g_autofree char *current = human_text (r, container->request[r]);
  g_autofree char *target = container->has_recommendation ? human_text (r, container->target[r])
                                                          : g_strdup ("-");
  g_autofree char *weighted = human_text (r, result->weighted_request[r]);
  g_autofree char *applied = human_text (r, result->request[r]);
  g_autofree char *limit = result->limit[r] > 0 ? human_text (r, result->limit[r]) : g_strdup ("-");
  const char *cells[] = { container->name, resources[r], current, target, weighted, applied, limit };
  fs_table_add_row (table, cells);
}

void
fs_render_hvpa_table (FILE *file, const FsHvpaAnswer *answer, FsHvpaSemantics semantics)
{
  const FsHvpaOutput *out = &answer->output;
  const FsHvpaInput *in = &answer->input;
  FS_SCRATCH (safe);
  fprintf (file, "Hvpa %s/%s (%s semantics) scales %s: %d replica%s now", fs_safe (safe, answer->hvpa->namespace),
           fs_safe (safe, answer->hvpa->name), fs_hvpa_semantics_name (semantics),
           fs_safe (safe, answer->target->name), in->current_replicas, in->current_replicas == 1 ? "" : "s");
  if (in->has_hpa_status)
    fprintf (file, ", the HPA wants %d%s", in->desired_replicas, in->hpa_scaling_limited ? " (limited)" : "");
  fprintf (file, ".\n");
  if (!out->valid)
    {
      fprintf (file, "The Hvpa is invalid: %s\n", fs_safe (safe, out->error));
      return;
    }
  print_stage (file, answer, semantics);
  static const char *const headers[] = { "CONTAINER", "RESOURCE", "CURRENT", "VPA TARGET",
                                         "WEIGHTED", "APPLIED", "LIMIT" };
  g_autoptr (FsTable) table = fs_table_new (7, headers);
  for (guint i = 0; i < in->n_containers; i++)
    for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
      add_resource_row (table, &in->containers[i], &out->containers[i], (FsHvpaResource) r);
  fs_table_print (table, file);
  for (guint i = 0; i < out->n_blocked; i++)
    fprintf (file, "blocked: %s%s%s: %s\n", fs_hvpa_blocked_reason_name (out->blocked[i].reason),
             out->blocked[i].horizontal ? " (replicas)" : "",
             out->blocked[i].vertical ? " (requests)" : "", fs_safe (safe, out->blocked[i].message));
}

/* ---- --curve ---------------------------------------------------------------------------- */

static void
print_curve_table (FILE *file, FsHvpaResource r, const FsHvpaCurvePoint *points, guint n)
{
  static const char *const headers[] = { "REPLICAS", "STAGE", "VPA WEIGHT", "REQUEST" };
  g_autoptr (FsTable) table = fs_table_new (4, headers);
  for (guint p = 0; p < n; p++)
    {
      g_autofree char *replicas = g_strdup_printf ("%d", points[p].replicas);
      /* numbered from 1, as "Stage 2 of 3" above; "-" where no stage covers the count */
      g_autofree char *stage = points[p].stage >= 0 ? g_strdup_printf ("%d", points[p].stage + 1) : g_strdup ("-");
      g_autofree char *weight = g_strdup_printf ("%.2f", points[p].weight);
      g_autofree char *request = human_text (r, points[p].request);
      const char *cells[] = { replicas, stage, weight, request };
      fs_table_add_row (table, cells);
    }
  fs_table_print (table, file);
}

static void
print_curve_chart (FILE *file, const FsHvpaCurvePoint *points, guint n, int32_t from, int32_t to)
{
  int64_t low = G_MAXINT64, high = G_MININT64;
  for (guint p = 0; p < n; p++)
    {
      low = MIN (low, points[p].request);
      high = MAX (high, points[p].request);
    }
  enum { HEIGHT = 8 };
  for (int row = HEIGHT; row >= 0; row--)
    {
      fprintf (file, row == HEIGHT ? "request ^ " : "        | ");
      for (guint p = 0; p < n; p++)
        {
          int level = high > low ? (int) ((points[p].request - low) * HEIGHT / (high - low)) : 0;
          fprintf (file, "%s", level == row ? "__" : "  ");
        }
      fprintf (file, "\n");
    }
  fprintf (file, "        +-");
  for (guint p = 0; p < n; p++)
    fprintf (file, "--");
  fprintf (file, "> replicas %d..%d\n", from, to);
}

/* The seed's chart: request against replicas, MIN..MAX, as a table and in ASCII. */
void
fs_render_hvpa_curve (FILE *file, const FsHvpaAnswer *answer, FsHvpaSemantics semantics)
{
  const FsHvpaInput *in = &answer->input;
  int32_t from = in->spec.min_replicas, to = in->spec.max_replicas;
  if (to - from > 200)
    to = from + 200;
  for (guint i = 0; i < in->n_containers; i++)
    for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
      {
        const FsHvpaContainer *container = &in->containers[i];
        if (!container->has_recommendation)
          continue;
        g_autofree FsHvpaCurvePoint *points = g_new0 (FsHvpaCurvePoint, to - from + 1);
        guint n = fs_hvpa_curve (&in->spec, semantics, (FsHvpaResource) r, container->request[r],
                                 container->target[r], +1, from, to, points);
        g_autofree char *name = fs_terminal_safe (container->name);
        fprintf (file, "\n%s %s request against replicas (the HPA asking for more at each count):\n",
                 name, resources[r]);
        print_curve_table (file, (FsHvpaResource) r, points, n);
        print_curve_chart (file, points, n, from, to);
      }
}
