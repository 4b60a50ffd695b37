/* fitscale hpa — what the HorizontalPodAutoscaler computes, metric by metric, and why it
 * stopped where it did. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "fitscale/model/error.h"
#include "fitscale/plan/completeness.h"
#include "fitscale/plan/hpaexplain.h"
#include "fitscale/model/timeutil.h"
#include "fitscale/render/hpa.h"
#include "fitscale/render/hpalist.h"

const FsCliCommand fs_cli_hpa = {
  .name = "hpa",
  .parameters = "[[NAMESPACE/]NAME]",
  .summary = "what a HorizontalPodAutoscaler computes, metric by metric, and why",
  .description =
      "Replays the HorizontalPodAutoscaler controller on the snapshot: the target's pods\n"
      "grouped as ready, unready (Pending, or not ready while cpu initializes), missing\n"
      "(no metrics) or ignored (deleted, Failed, Succeeded); for each metric its value,\n"
      "the ratio to the target against the tolerance band, and the proposed replicas, with\n"
      "unready and missing pods rebalanced as the controller does; the winning metric; and\n"
      "what minReplicas, maxReplicas and the behavior (or the legacy rules) make of it now\n"
      "and once the stabilization windows have passed.  Values come from PodMetrics in the\n"
      "snapshot (kubectl get --raw /apis/metrics.k8s.io/v1beta1/namespaces/NS/pods), else\n"
      "from the HPA's own status.",
  .epilogue =
      "Examples:\n"
      "  fitscale hpa -S examples/rag-api production/rag-api-hpa\n"
      "  fitscale hpa -A            # every HPA: current, desired, limits, what stopped it\n"
      "  fitscale hpa -S cluster/ -n shop web --now 2026-10-09T14:00:00Z -o json\n",
  .run = fs_cmd_hpa,
};

static int
compare_hpas (gconstpointer a, gconstpointer b)
{
  const FsGenericObject *x = *(const FsGenericObject *const *) a, *y = *(const FsGenericObject *const *) b;
  int c = g_strcmp0 (x->namespace, y->namespace);
  return c != 0 ? c : g_strcmp0 (x->name, y->name);
}

/* Without a name: every HPA of NAMESPACE (NULL: of every namespace, -A), one row each, as
 * kubectl get hpa lists them. */
static int
list_hpas (FsCommonOptions *options, const FsSnapshot *snapshot, const char *namespace, int64_t now_ms,
           gboolean symmetric, FsOutputFormat format)
{
  g_autoptr (GPtrArray) hpas = g_ptr_array_new ();
  for (guint i = 0; i < snapshot->n_generic; i++)
    {
      const FsGenericObject *object = &snapshot->generic[i];
      if (object->kind == FS_KIND_HPA && (namespace == NULL || g_strcmp0 (object->namespace, namespace) == 0))
        g_ptr_array_add (hpas, (gpointer) object);
    }
  g_ptr_array_sort (hpas, compare_hpas);
  g_autofree FsHpaListRow *rows = g_new0 (FsHpaListRow, MAX (hpas->len, 1));
  for (guint i = 0; i < hpas->len; i++)
    {
      const FsGenericObject *object = hpas->pdata[i];
      g_autoptr (GError) error = NULL;
      if (fs_hpa_explain (snapshot, object, now_ms, symmetric, &rows[i].answer, &error))
        fs_cli_warn (fs_cli_hpa.name, options, fs_hpa_answer_warnings (&rows[i].answer));
      else
        {
          memset (&rows[i].answer, 0, sizeof rows[i].answer);
          rows[i].answer.hpa.namespace = object->namespace;
          rows[i].answer.hpa.name = object->name;
          rows[i].answer.hpa.target_kind = object->target_kind;
          rows[i].answer.hpa.target_name = object->target_name;
          rows[i].error = g_strdup (error->message);
        }
    }
  if (format == FS_OUTPUT_JSON || format == FS_OUTPUT_YAML)
    {
      g_autoptr (FsEmitter) emitter = fs_cli_emitter_new (options, format);
      fs_render_hpa_list (emitter, rows, hpas->len);
    }
  else
    fs_render_hpa_list_table (stdout, rows, hpas->len, namespace == NULL, namespace);
  for (guint i = 0; i < hpas->len; i++)
    {
      if (rows[i].error == NULL)
        fs_hpa_answer_clear (&rows[i].answer);
      g_free (rows[i].error);
    }
  return FS_EXIT_OK;
}

int
fs_cmd_hpa (int argc, char **argv)
{
  FsCommonOptions options = { 0 };
  g_autofree char *namespace = NULL, *now_text = NULL, *kube_version = NULL;
  gboolean all_namespaces = FALSE;
  GOptionEntry entries[] = {
    { "namespace", 'n', 0, G_OPTION_ARG_STRING, &namespace,
      "The HPA's namespace (default: the context's, else default); without a NAME, list its HPAs", "NS" },
    { "all-namespaces", 'A', 0, G_OPTION_ARG_NONE, &all_namespaces,
      "List every HPA of every namespace: current and desired replicas, limits, what stopped it", NULL },
    { "now", 0, 0, G_OPTION_ARG_STRING, &now_text,
      "Evaluate at this instant (RFC 3339), e.g. the time the snapshot was taken", "TIME" },
    { "kube-version", 0, 0, G_OPTION_ARG_STRING, &kube_version,
      "The cluster's Kubernetes version (default 1.35): before 1.33 the tolerance test was "
      "abs(1 - ratio) <= 0.1, which scales at exactly 110 % of target where 1.33+ does not", "1.MINOR" },
    { NULL }
  };
  g_autoptr (GOptionContext) context = fs_cli_context_new (&fs_cli_hpa, entries, &options, TRUE);
  FsOutputFormat format = FS_OUTPUT_TABLE;
  g_autoptr (GError) error = NULL;
  g_autoptr (FsSnapshot) snapshot = NULL;
  int status = FS_EXIT_OK;
  int64_t now_seconds = 0;
  gboolean symmetric = FALSE;
  guint minor = FS_KUBE_DEFAULT_MINOR;
  if (!fs_cli_parse (context, &argc, &argv, &error)
      || !fs_kube_version_parse ("--kube-version", kube_version, &minor, &error))
    status = FS_EXIT_ERROR;
  else if (!fs_cli_output_parse (options.output, &format, &error))
    status = FS_EXIT_ERROR;
  else if (argc > 2 || (all_namespaces && (argc != 1 || namespace != NULL)))
    status = fs_cli_usage (&error, "give one HPA (NAMESPACE/NAME, or NAME with -n), none to list those of a "
                                   "namespace, or -A alone to list every HPA");
  else if (!fs_cli_parse_now (now_text, &now_seconds, &error)
           || (snapshot = fs_cli_load (fs_cli_hpa.name, &options, FS_KUBE_PODS | FS_KUBE_WORKLOADS | FS_KUBE_HPAS | FS_KUBE_POD_METRICS, &error)) == NULL)
    status = FS_EXIT_ERROR;
  if (status != FS_EXIT_OK)
    {
      fs_cli_common_clear (&options);
      return fs_cli_fail (fs_cli_hpa.name, error);
    }
  symmetric = fs_hpa_symmetric_tolerance (minor);
  if (argc == 1)
    {
      const char *list_namespace = all_namespaces ? NULL : fs_cli_namespace (&options, namespace);
      status = list_hpas (&options, snapshot, all_namespaces ? NULL : list_namespace != NULL ? list_namespace : "default",
                          now_seconds * 1000, symmetric, format);
      fs_cli_common_clear (&options);
      return status;
    }
  g_autofree char *ns = NULL;
  const char *name = fs_cli_split_name (argv[1], fs_cli_namespace (&options, namespace), &ns);
  const FsGenericObject *object = fs_snapshot_find_hpa (snapshot, ns, name);
  FsHpaAnswer answer;
  if (object == NULL)
    {
      g_set_error (&error, FS_ERROR, FS_ERROR_NOT_FOUND, "HorizontalPodAutoscaler \"%s\" not found "
                   "in namespace \"%s\" of the snapshot", name, ns);
      status = FS_EXIT_ERROR;
    }
  else if (!fs_hpa_explain (snapshot, object, now_seconds * 1000, symmetric, &answer, &error))
    status = FS_EXIT_ERROR;
  else
    {
      fs_cli_warn (fs_cli_hpa.name, &options, fs_hpa_answer_warnings (&answer));
      if (format == FS_OUTPUT_JSON || format == FS_OUTPUT_YAML)
        {
          g_autoptr (FsEmitter) emitter = fs_cli_emitter_new (&options, format);
          fs_render_hpa (emitter, &answer);
        }
      else
        fs_render_hpa_table (stdout, &answer);
    }
  if (object != NULL && status == FS_EXIT_OK)
    fs_hpa_answer_clear (&answer);
  if (error != NULL)
    status = fs_cli_fail (fs_cli_hpa.name, error);
  fs_cli_common_clear (&options);
  return status;
}
