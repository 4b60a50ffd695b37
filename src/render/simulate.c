/* fitscale — the answer of `fitscale simulate` (see include/fitscale/render/simulate.h). */
#include "config.h"

#include <math.h>

#include <stdio.h>

#include "fitscale/render/simulate.h"

static void
emit_step (FsEmitter *emitter, const FsSimulateStep *step)
{
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "t");
  fs_emit_int (emitter, step->t_s);
  fs_emit_key (emitter, "value");
  fs_emit_decimal (emitter, step->value, 2);
  fs_emit_key (emitter, "replicas");
  fs_emit_int (emitter, step->replicas);
  fs_emit_key (emitter, "ready");
  fs_emit_int (emitter, step->ready);
  fs_emit_key (emitter, "starting");
  fs_emit_int (emitter, step->starting);
  fs_emit_key (emitter, "pending");
  fs_emit_int (emitter, step->pending);
  fs_emit_key (emitter, "utilization");
  step->utilization >= 0 ? fs_emit_int (emitter, step->utilization) : fs_emit_null (emitter);
  fs_emit_key (emitter, "recommendation");
  fs_emit_int (emitter, step->recommendation);
  fs_emit_key (emitter, "stabilized");
  fs_emit_int (emitter, step->stabilized);
  fs_emit_key (emitter, "limit");
  fs_emit_int (emitter, step->desired);
  fs_emit_key (emitter, "desired");
  fs_emit_int (emitter, step->desired);
  fs_emit_key (emitter, "reason");
  fs_emit_string (emitter, step->reason);
  fs_emit_map_close (emitter);
}

void
fs_render_simulate (FsEmitter *emitter, const GArray *timeline)
{
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "timeline");
  fs_emit_list_open (emitter);
  for (guint i = 0; i < timeline->len; i++)
    emit_step (emitter, &g_array_index (timeline, FsSimulateStep, i));
  fs_emit_list_close (emitter);
  fs_emit_map_close (emitter);
}

void
fs_render_simulate_csv (FILE *out, const GArray *timeline)
{
  fprintf (out, "t,value,replicas,ready,starting,pending,utilization,recommendation,stabilized,desired,reason\n");
  for (guint i = 0; i < timeline->len; i++)
    {
      const FsSimulateStep *s = &g_array_index (timeline, FsSimulateStep, i);
      fprintf (out, "%" G_GINT64_FORMAT ",%.2f,%d,%d,%d,%d,%d,%d,%d,%d,%s\n", s->t_s, s->value, s->replicas,
               s->ready, s->starting, s->pending, s->utilization, s->recommendation, s->stabilized,
               s->desired, s->reason != NULL ? s->reason : "");
    }
}

/* Replicas (#) and the ready pods' utilization (*) over time, one column per sync. */
static void
print_chart (FILE *out, const GArray *timeline)
{
  enum { HEIGHT = 10, WIDTH = 100 };
  guint columns = MIN (timeline->len, WIDTH);
  guint per_column = (timeline->len + columns - 1) / MAX (columns, 1);
  int32_t max_replicas = 1, max_utilization = 1;
  gboolean any_utilization = FALSE;
  for (guint i = 0; i < timeline->len; i++)
    {
      const FsSimulateStep *s = &g_array_index (timeline, FsSimulateStep, i);
      max_replicas = MAX (max_replicas, MAX (s->replicas, s->desired));
      max_utilization = MAX (max_utilization, s->utilization);
      any_utilization |= s->utilization >= 0;
    }
  if (any_utilization)
    fprintf (out, "\nreplicas (#, up to %d) and utilization (*, up to %d%%), one column per %u sync%s\n",
             max_replicas, max_utilization, per_column, per_column == 1 ? "" : "s");
  else
    fprintf (out, "\nreplicas (#, up to %d), one column per %u sync%s\n", max_replicas, per_column,
             per_column == 1 ? "" : "s");
  for (int row = HEIGHT; row >= 1; row--)
    {
      fputc ('|', out);
      for (guint c = 0; c < columns; c++)
        {
          const FsSimulateStep *s = &g_array_index (timeline, FsSimulateStep, MIN (c * per_column, timeline->len - 1));
          int bar = (int) ((s->desired * HEIGHT + max_replicas - 1) / max_replicas);
          int dot = s->utilization >= 0 ? (s->utilization * HEIGHT + max_utilization / 2) / max_utilization : -1;
          fputc (dot == row ? '*' : bar >= row ? '#' : ' ', out);
        }
      fputc ('\n', out);
    }
  fputc ('+', out);
  for (guint c = 0; c < columns; c++)
    fputc ('-', out);
  fprintf (out, "\n t = %" G_GINT64_FORMAT " s ... %" G_GINT64_FORMAT " s\n",
           g_array_index (timeline, FsSimulateStep, 0).t_s,
           g_array_index (timeline, FsSimulateStep, timeline->len - 1).t_s);
}

/* Rows where nothing changes are folded, as a person reads a timeline. */
static gboolean
folded (const GArray *timeline, guint i)
{
  const FsSimulateStep *s = &g_array_index (timeline, FsSimulateStep, i);
  const FsSimulateStep *prev = i > 0 ? &g_array_index (timeline, FsSimulateStep, i - 1) : NULL;
  return prev != NULL && i + 1 < timeline->len && prev->value == s->value
         && prev->replicas == s->replicas && prev->desired == s->desired && prev->ready == s->ready
         && prev->pending == s->pending && prev->recommendation == s->recommendation;
}

/* The trace's value at a step: a load of LOAD_RESOURCE as its tables print it, else a number. */
static char *
value_text (double value, const char *load_resource)
{
  char text[32];
  if (load_resource == NULL || !(value < 9.2e15))
    return g_strdup_printf ("%.1f", value);
  if (strcmp (load_resource, "cpu") == 0)
    return g_strdup (fs_format_for_people ("cpu", (int64_t) llround (value * 1000.0), text));
  return g_strdup (fs_format_for_people (load_resource, (int64_t) llround (value), text));
}

static void
add_step_row (FsTable *table, const FsSimulateStep *s, const char *load_resource)
{
  g_autofree char *t = g_strdup_printf ("%" G_GINT64_FORMAT, s->t_s);
  g_autofree char *value = value_text (s->value, load_resource);
  char *cells[8];
  int32_t numbers[] = { s->replicas, s->ready, s->starting, s->pending, s->utilization,
                        s->recommendation, s->stabilized, s->desired };
  for (guint k = 0; k < G_N_ELEMENTS (numbers); k++)
    cells[k] = numbers[k] < 0 ? g_strdup ("-") : g_strdup_printf ("%d", numbers[k]);
  const char *row[] = { t, value, cells[0], cells[1], cells[2], cells[3], cells[4], cells[5],
                        cells[6], cells[7], s->reason != NULL ? s->reason : "" };
  fs_table_add_row (table, row);
  for (guint k = 0; k < G_N_ELEMENTS (numbers); k++)
    g_free (cells[k]);
}

void
fs_render_simulate_table (FILE *out, const GArray *timeline, const char *load_resource)
{
  static const char *const headers[] = { "T", "VALUE", "REPLICAS", "READY", "STARTING", "PENDING",
                                         "UTIL", "RECOMMEND", "STABILIZED", "DESIRED", "REASON" };
  g_autoptr (FsTable) table = fs_table_new (11, headers);
  for (guint i = 0; i < timeline->len; i++)
    if (!folded (timeline, i))
      add_step_row (table, &g_array_index (timeline, FsSimulateStep, i), load_resource);
  fs_table_print (table, out);
  print_chart (out, timeline);
}
