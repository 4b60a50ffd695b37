/* fitscale nodes — per node: allocatable, what bound pods request, what is free; then the
 * cluster total beside the largest free piece, like kube-capacity but from a snapshot. */
#include "config.h"

#include <stdio.h>

#include "commands.h"
#include "fitscale/plan/nodes.h"
#include "fitscale/model/selector.h"
#include "fitscale/render/nodes.h"

const FsCliCommand fs_cli_nodes = {
  .name = "nodes",
  .parameters = "",
  .summary = "per-node allocatable, requested and free resources",
  .description =
      "For every node of the snapshot: allocatable resources, what its bound pods\n"
      "request (pods in phase Succeeded or Failed do not count; terminating pods do,\n"
      "as in kube-scheduler), what is free, and the pod slots used.  The first row,\n"
      "\"*\", is the cluster total; the footer sets the total free beside the largest\n"
      "free piece on any one node: room in total is not room in one piece.",
  .epilogue =
      "Examples:\n"
      "  fitscale snapshot > cluster.json\n"
      "  fitscale nodes --snapshot cluster.json\n"
      "  fitscale nodes -S examples/rag-api -o wide\n"
      "  fitscale nodes -S nodes.json -S pods.json -o json\n"
      "  fitscale nodes -l node.kubernetes.io/instance-type=m5.xlarge\n",
  .run = fs_cmd_nodes,
};

int
fs_cmd_nodes (int argc, char **argv)
{
  FsCommonOptions options = { 0 };
  g_autofree char *selector_text = NULL;
  GOptionEntry entries[] = {
    { "selector", 'l', 0, G_OPTION_ARG_STRING, &selector_text,
      "Only the nodes this label selector picks (key=value, key!=value, key in (a,b), !key, ...); "
      "the total row sums them", "SELECTOR" },
    { NULL }
  };
  g_autoptr (GOptionContext) context = fs_cli_context_new (&fs_cli_nodes, entries, &options, TRUE);
  FsOutputFormat format = FS_OUTPUT_TABLE;
  g_autoptr (GError) error = NULL;
  g_autoptr (FsSnapshot) snapshot = NULL;
  g_autoptr (FsLabelSelector) selector = NULL;
  int status = FS_EXIT_OK;
  if (!fs_cli_parse (context, &argc, &argv, &error)
      || !fs_output_parse (options.output, &format, &error))
    status = FS_EXIT_ERROR;
  else if (argc > 1)
    status = fs_cli_usage (&error, "unexpected argument \"%s\"", argv[1]);
  else if (!fs_cli_parse_selector (selector_text, &selector, &error)
           || (snapshot = fs_cli_load (fs_cli_nodes.name, &options, FS_KUBE_NODES | FS_KUBE_PODS, &error)) == NULL)
    status = FS_EXIT_ERROR;
  if (status != FS_EXIT_OK)
    {
      fs_cli_common_clear (&options);
      return fs_cli_fail (fs_cli_nodes.name, error);
    }
  g_autofree FsNodeSummary *rows = g_new0 (FsNodeSummary, MAX (snapshot->n_nodes, 1));
  FsClusterSummary total;
  guint n_rows = 0;
  if (!fs_nodes_summarize (snapshot, selector, rows, &n_rows, &total, &error))
    status = fs_cli_fail (fs_cli_nodes.name, error);
  else if (format == FS_OUTPUT_JSON || format == FS_OUTPUT_YAML)
    {
      g_autoptr (FsEmitter) emitter = fs_cli_emitter_new (&options, format);
      fs_render_nodes (emitter, rows, n_rows, &total);
    }
  else
    fs_render_nodes_table (stdout, format == FS_OUTPUT_WIDE, rows, n_rows, &total);
  fs_cli_common_clear (&options);
  return status;
}
