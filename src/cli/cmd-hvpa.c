/* fitscale hvpa — what the HVPA controller would apply now, ignoring node capacity, and the
 * request-vs-replicas curve of its weights. */
#include "config.h"

#include <stdio.h>

#include "commands.h"
#include "fitscale/model/error.h"
#include "fitscale/plan/completeness.h"
#include "fitscale/plan/hvpaexplain.h"
#include "fitscale/model/timeutil.h"
#include "fitscale/render/hvpa.h"
#include "fitscale/render/hpalist.h"

const FsCliCommand fs_cli_hvpa = {
  .name = "hvpa",
  .parameters = "[[NAMESPACE/]NAME]",
  .summary = "what the HVPA would apply now (stage, weights, blocked rules)",
  .description =
      "Reads the Hvpa, its target, and the HPA and VPA it owns from the snapshot and applies\n"
      "the weight rules: the stage chosen by the current replica count and its vpaWeight,\n"
      "the weighted replicas, per container the weighted requests (and limits), and every\n"
      "rule that blocked a change (Weight, MinChange, StabilizationWindow, UpdatePolicy,\n"
      "MaintenanceWindow) — what HVPA would apply now, ignoring node capacity.  Two\n"
      "semantics: the design text's and the released controller's (docs/hvpa.md).",
  .run = fs_cmd_hvpa,
};

static int
compare_objects (gconstpointer a, gconstpointer b)
{
  const FsGenericObject *x = *(const FsGenericObject *const *) a, *y = *(const FsGenericObject *const *) b;
  int c = g_strcmp0 (x->namespace, y->namespace);
  return c != 0 ? c : g_strcmp0 (x->name, y->name);
}

/* Without a name: every Hvpa of NAMESPACE (NULL: of every namespace, -A), one row each. */
static int
list_hvpas (FsCommonOptions *options, const FsSnapshot *snapshot, const char *namespace, FsHvpaSemantics semantics,
            int64_t now_ms, FsOutputFormat format)
{
  g_autoptr (GPtrArray) hvpas = g_ptr_array_new ();
  for (guint i = 0; i < snapshot->n_generic; i++)
    {
      const FsGenericObject *object = &snapshot->generic[i];
      if (object->kind == FS_KIND_HVPA && (namespace == NULL || g_strcmp0 (object->namespace, namespace) == 0))
        g_ptr_array_add (hvpas, (gpointer) object);
    }
  g_ptr_array_sort (hvpas, compare_objects);
  g_autofree FsHvpaListRow *rows = g_new0 (FsHvpaListRow, MAX (hvpas->len, 1));
  for (guint i = 0; i < hvpas->len; i++)
    {
      g_autoptr (GError) error = NULL;
      rows[i].hvpa = hvpas->pdata[i];
      rows[i].answer = g_new0 (FsHvpaAnswer, 1);
      if (fs_hvpa_explain (snapshot, rows[i].hvpa, semantics, now_ms, rows[i].answer, &error))
        fs_cli_warn (fs_cli_hvpa.name, options, fs_hvpa_answer_warnings (rows[i].answer));
      else
        {
          g_clear_pointer (&rows[i].answer, g_free);
          rows[i].error = g_strdup (error->message);
        }
    }
  if (format == FS_OUTPUT_JSON || format == FS_OUTPUT_YAML)
    {
      g_autoptr (FsEmitter) emitter = fs_cli_emitter_new (options, format);
      fs_render_hvpa_list (emitter, rows, hvpas->len, semantics);
    }
  else
    fs_render_hvpa_list_table (stdout, rows, hvpas->len, namespace == NULL, namespace);
  for (guint i = 0; i < hvpas->len; i++)
    {
      g_free (rows[i].answer);
      g_free (rows[i].error);
    }
  return FS_EXIT_OK;
}

int
fs_cmd_hvpa (int argc, char **argv)
{
  FsCommonOptions options = { 0 };
  g_autofree char *namespace = NULL, *now_text = NULL, *semantics_text = NULL;
  gboolean curve = FALSE, all_namespaces = FALSE;
  GOptionEntry entries[] = {
    { "namespace", 'n', 0, G_OPTION_ARG_STRING, &namespace,
      "The Hvpa's namespace (default: the context's, else default); without a NAME, list its Hvpas", "NS" },
    { "all-namespaces", 'A', 0, G_OPTION_ARG_NONE, &all_namespaces,
      "List every Hvpa of every namespace: replicas now and applied, stage, weight, what blocked it", NULL },
    { "now", 0, 0, G_OPTION_ARG_STRING, &now_text, "Evaluate at this instant (RFC 3339)", "TIME" },
    { "semantics", 0, 0, G_OPTION_ARG_STRING, &semantics_text,
      "design (the weight-based scaling design text, default) or hvpa (the released controller)", "NAME" },
    { "curve", 0, 0, G_OPTION_ARG_NONE, &curve,
      "Print the request-vs-replicas curve of each container resource, as a table and a chart", NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) context = fs_cli_context_new (&fs_cli_hvpa, entries, &options, TRUE);
  FsOutputFormat format = FS_OUTPUT_TABLE;
  g_autoptr (GError) error = NULL;
  g_autoptr (FsSnapshot) snapshot = NULL;
  int status = FS_EXIT_OK;
  int64_t now_seconds = 0;
  FsHvpaSemantics semantics = FS_HVPA_SEMANTICS_DESIGN;
  if (!fs_cli_parse (context, &argc, &argv, &error)
      || !fs_cli_output_parse (options.output, &format, &error))
    status = FS_EXIT_ERROR;
  else if (argc > 2 || (all_namespaces && (argc != 1 || namespace != NULL)) || (argc == 1 && curve))
    status = fs_cli_usage (&error, "give one Hvpa (NAMESPACE/NAME, or NAME with -n), none to list those of a "
                                   "namespace, or -A alone to list every Hvpa (--curve needs one)");
  else if (!fs_hvpa_semantics_parse (semantics_text, &semantics))
    status = fs_cli_usage (&error, "--semantics %s: give design or hvpa", semantics_text);
  else if (!fs_cli_parse_now (now_text, &now_seconds, &error)
           || (snapshot = fs_cli_load (fs_cli_hvpa.name, &options, FS_KUBE_PODS | FS_KUBE_WORKLOADS | FS_KUBE_HPAS | FS_KUBE_VPAS | FS_KUBE_HVPAS, &error)) == NULL)
    status = FS_EXIT_ERROR;
  if (status != FS_EXIT_OK)
    {
      fs_cli_common_clear (&options);
      return fs_cli_fail (fs_cli_hvpa.name, error);
    }
  if (argc == 1)
    {
      const char *list_namespace = fs_cli_namespace (&options, namespace);
      status = list_hvpas (&options, snapshot, all_namespaces ? NULL : list_namespace != NULL ? list_namespace : "default",
                           semantics, now_seconds * 1000, format);
      fs_cli_common_clear (&options);
      return status;
    }
  g_autofree char *ns = NULL;
  const char *name = fs_cli_split_name (argv[1], fs_cli_namespace (&options, namespace), &ns);
  const FsGenericObject *hvpa = fs_snapshot_find_hvpa (snapshot, ns, name);
  g_autofree FsHvpaAnswer *answer = g_new0 (FsHvpaAnswer, 1);
  if (hvpa == NULL)
    {
      g_set_error (&error, FS_ERROR, FS_ERROR_NOT_FOUND,
                   "Hvpa \"%s\" not found in namespace \"%s\" of the snapshot", name, ns);
      status = FS_EXIT_ERROR;
    }
  else if (!fs_hvpa_explain (snapshot, hvpa, semantics, now_seconds * 1000, answer, &error))
    status = FS_EXIT_ERROR;
  else
    {
      fs_cli_warn (fs_cli_hvpa.name, &options, fs_hvpa_answer_warnings (answer));
      if (format == FS_OUTPUT_JSON || format == FS_OUTPUT_YAML)
        {
          g_autoptr (FsEmitter) emitter = fs_cli_emitter_new (&options, format);
          fs_render_hvpa (emitter, answer, semantics);
        }
      else
        {
          fs_render_hvpa_table (stdout, answer, semantics);
          if (curve)
            fs_render_hvpa_curve (stdout, answer, semantics);
        }
    }
  if (error != NULL)
    status = fs_cli_fail (fs_cli_hvpa.name, error);
  fs_cli_common_clear (&options);
  return status;
}
