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

const FsCliCommand fs_cli_hvpa = {
  .name = "hvpa",
  .parameters = "[NAMESPACE/]NAME",
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

int
fs_cmd_hvpa (int argc, char **argv)
{
  FsCommonOptions options = { 0 };
  g_autofree char *namespace = NULL, *now_text = NULL, *semantics_text = NULL;
  gboolean curve = FALSE;
  GOptionEntry entries[] = {
    { "namespace", 'n', 0, G_OPTION_ARG_STRING, &namespace, "The Hvpa's namespace (default: default)", "NS" },
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
      || !fs_output_parse (options.output, &format, &error))
    status = FS_EXIT_ERROR;
  else if (argc != 2)
    status = fs_cli_usage (&error, "give one Hvpa: NAMESPACE/NAME, or NAME with -n");
  else if (!fs_hvpa_semantics_parse (semantics_text, &semantics))
    status = fs_cli_usage (&error, "--semantics is design or hvpa");
  else if (!fs_cli_parse_now (now_text, &now_seconds, &error)
           || (snapshot = fs_cli_load (fs_cli_hvpa.name, &options, FS_KUBE_PODS | FS_KUBE_WORKLOADS | FS_KUBE_HPAS | FS_KUBE_VPAS | FS_KUBE_HVPAS, &error)) == NULL)
    status = FS_EXIT_ERROR;
  if (status != FS_EXIT_OK)
    {
      fs_cli_common_clear (&options);
      return fs_cli_fail (fs_cli_hvpa.name, error);
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
