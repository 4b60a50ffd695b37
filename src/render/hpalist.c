/* fitscale — the tables of every HorizontalPodAutoscaler and Hvpa (fitscale/render/hpalist.h). */
#include "config.h"

#include "fitscale/render/hpa.h"
#include "fitscale/render/hvpa.h"
#include "fitscale/render/hpalist.h"

/* What stopped the HPA where it is: a ScalingActive=False condition first (the controller
 * computes nothing then), else the reason of fitscale's decision. */
static const char *
stopped_by (const FsHpaAnswer *answer, char **owned)
{
  if (answer->hpa.scaling_active_reason != NULL)
    return *owned = g_strdup_printf ("ScalingActive=False (%s)", answer->hpa.scaling_active_reason);
  return answer->now.reason != NULL ? answer->now.reason : "-";
}

void
fs_render_hpa_list_table (FILE *out, const FsHpaListRow *rows, guint n, gboolean with_namespace,
                          const char *namespace)
{
  if (n == 0)
    {
      FS_SCRATCH (safe);
      if (with_namespace)
        fprintf (out, "No HorizontalPodAutoscaler in the snapshot.\n");
      else
        fprintf (out, "No HorizontalPodAutoscaler in namespace %s.\n", fs_safe (safe, namespace));
      return;
    }
  static const char *const headers[] = { "NAMESPACE", "NAME", "REFERENCE", "CURRENT", "DESIRED", "MIN", "MAX", "REASON" };
  guint skip = with_namespace ? 0 : 1;
  g_autoptr (FsTable) table = fs_table_new (G_N_ELEMENTS (headers) - skip, headers + skip);
  for (guint i = 0; i < n; i++)
    {
      const FsHpaAnswer *answer = &rows[i].answer;
      const FsHpaSpec *hpa = &answer->hpa;
      g_autofree char *reference = hpa->target_kind != NULL
                                       ? g_strdup_printf ("%s/%s", hpa->target_kind, hpa->target_name) : g_strdup ("-");
      g_autofree char *reason_owned = NULL;
      g_autofree char *current = NULL, *desired = NULL, *min = NULL, *max = NULL;
      const char *reason;
      if (rows[i].error != NULL)
        {
          current = g_strdup ("-"), desired = g_strdup ("-"), min = g_strdup ("-"), max = g_strdup ("-");
          reason = rows[i].error;
        }
      else
        {
          current = g_strdup_printf ("%d", answer->current_replicas);
          desired = g_strdup_printf ("%d", answer->now.desired);
          min = g_strdup_printf ("%d", hpa->min_replicas);
          max = g_strdup_printf ("%d", hpa->max_replicas);
          reason = stopped_by (answer, &reason_owned);
        }
      const char *cells[] = { hpa->namespace, hpa->name, reference, current, desired, min, max, reason };
      fs_table_add_row (table, cells + skip);
    }
  fs_table_print (table, out);
}

void
fs_render_hpa_list (FsEmitter *emitter, const FsHpaListRow *rows, guint n)
{
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "hpas");
  fs_emit_list_open (emitter);
  for (guint i = 0; i < n; i++)
    {
      if (rows[i].error == NULL)
        {
          fs_render_hpa (emitter, &rows[i].answer);
          continue;
        }
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "namespace");
      fs_emit_string (emitter, rows[i].answer.hpa.namespace);
      fs_emit_key (emitter, "name");
      fs_emit_string (emitter, rows[i].answer.hpa.name);
      fs_emit_key (emitter, "error");
      fs_emit_string (emitter, rows[i].error);
      fs_emit_map_close (emitter);
    }
  fs_emit_list_close (emitter);
  fs_emit_map_close (emitter);
}

void
fs_render_hvpa_list_table (FILE *out, const FsHvpaListRow *rows, guint n, gboolean with_namespace,
                           const char *namespace)
{
  if (n == 0)
    {
      FS_SCRATCH (safe);
      if (with_namespace)
        fprintf (out, "No Hvpa in the snapshot.\n");
      else
        fprintf (out, "No Hvpa in namespace %s.\n", fs_safe (safe, namespace));
      return;
    }
  static const char *const headers[] = { "NAMESPACE", "NAME", "TARGET", "CURRENT", "REPLICAS", "STAGE", "VPA-WEIGHT", "BLOCKED" };
  guint skip = with_namespace ? 0 : 1;
  g_autoptr (FsTable) table = fs_table_new (G_N_ELEMENTS (headers) - skip, headers + skip);
  for (guint i = 0; i < n; i++)
    {
      const FsGenericObject *hvpa = rows[i].hvpa;
      const FsHvpaAnswer *answer = rows[i].answer;
      g_autofree char *target = hvpa->target_kind != NULL
                                    ? g_strdup_printf ("%s/%s", hvpa->target_kind, hvpa->target_name) : g_strdup ("-");
      g_autofree char *current = NULL, *replicas = NULL, *stage = NULL, *weight = NULL;
      const char *blocked = "-";
      if (answer == NULL)
        {
          current = g_strdup ("-"), replicas = g_strdup ("-"), stage = g_strdup ("-"), weight = g_strdup ("-");
          blocked = rows[i].error;
        }
      else if (!answer->output.valid)
        {
          current = g_strdup_printf ("%d", answer->input.current_replicas);
          replicas = g_strdup ("-"), stage = g_strdup ("-"), weight = g_strdup ("-");
          blocked = answer->output.error;
        }
      else
        {
          current = g_strdup_printf ("%d", answer->input.current_replicas);
          replicas = g_strdup_printf ("%d", answer->output.replicas);
          stage = answer->output.stage >= 0 ? g_strdup_printf ("%d", answer->output.stage + 1) : g_strdup ("-");
          weight = g_strdup_printf ("%.2f", answer->output.stage_weight);
          if (answer->output.n_blocked > 0)
            blocked = fs_hvpa_blocked_reason_name (answer->output.blocked[0].reason);
        }
      const char *cells[] = { hvpa->namespace, hvpa->name, target, current, replicas, stage, weight, blocked };
      fs_table_add_row (table, cells + skip);
    }
  fs_table_print (table, out);
}

void
fs_render_hvpa_list (FsEmitter *emitter, const FsHvpaListRow *rows, guint n, FsHvpaSemantics semantics)
{
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "hvpas");
  fs_emit_list_open (emitter);
  for (guint i = 0; i < n; i++)
    {
      if (rows[i].answer != NULL)
        {
          fs_render_hvpa (emitter, rows[i].answer, semantics);
          continue;
        }
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "namespace");
      fs_emit_string (emitter, rows[i].hvpa->namespace);
      fs_emit_key (emitter, "name");
      fs_emit_string (emitter, rows[i].hvpa->name);
      fs_emit_key (emitter, "error");
      fs_emit_string (emitter, rows[i].error);
      fs_emit_map_close (emitter);
    }
  fs_emit_list_close (emitter);
  fs_emit_map_close (emitter);
}
