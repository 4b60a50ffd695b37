/* fitscale — the table of every HorizontalPodAutoscaler (fitscale/render/hpalist.h). */
#include "config.h"

#include "fitscale/render/hpa.h"
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
