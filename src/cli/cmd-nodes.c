/* fitscale nodes — per node: allocatable, what bound pods request, what is free; then the
 * cluster total beside the largest free piece, like kube-capacity but from a snapshot;
 * --sort orders the rows, --group-by sums them per value of a node label. */
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
      "free piece on any one node: room in total is not room in one piece.  --group-by\n"
      "LABEL gives a row per value of a node label (a zone, a node pool) instead of a\n"
      "row per node, with the largest free piece in each.",
  .epilogue =
      "Examples:\n"
      "  fitscale snapshot > cluster.json\n"
      "  fitscale nodes --snapshot cluster.json\n"
      "  fitscale nodes -S examples/rag-api -o wide\n"
      "  fitscale nodes -S nodes.json -S pods.json -o json\n"
      "  fitscale nodes -l node.kubernetes.io/instance-type=m5.xlarge\n"
      "  fitscale nodes -S cluster.json --sort memory\n"
      "  fitscale nodes -S cluster.json --group-by topology.kubernetes.io/zone\n",
  .run = fs_cmd_nodes,
};

#define NODES_RESOURCES (FS_KUBE_NODES | FS_KUBE_PODS)

typedef struct {
  FsCommonOptions common;
  const FsLabelSelector *selector;
  FsNodesSort sort;
  const char *group_by;
  FsOutputFormat format;
} NodesQuestion;

/* The table (or document) for one snapshot. */
static int
answer (const FsSnapshot *snapshot, gpointer data)
{
  NodesQuestion *question = data;
  g_autoptr (GError) error = NULL;
  g_autofree FsNodeSummary *rows = g_new0 (FsNodeSummary, MAX (snapshot->n_nodes, 1));
  FsClusterSummary total;
  guint n_rows = 0;
  g_autofree FsNodeGroup *groups = NULL;
  FsNodeGrouping grouping = { .label = question->group_by };
  if (!fs_nodes_summarize (snapshot, question->selector, rows, &n_rows, &total, &error))
    return fs_cli_fail (fs_cli_nodes.name, error);
  fs_nodes_sort (rows, n_rows, question->sort);
  if (question->group_by != NULL
      && (groups = fs_nodes_group (rows, n_rows, question->group_by, question->sort, &grouping.n_groups, &error)) == NULL)
    return fs_cli_fail (fs_cli_nodes.name, error);
  grouping.groups = groups;
  if (question->format == FS_OUTPUT_JSON || question->format == FS_OUTPUT_YAML)
    {
      g_autoptr (FsEmitter) emitter = fs_cli_emitter_new (&question->common, question->format);
      fs_render_nodes (emitter, rows, n_rows, &grouping, &total);
    }
  else
    fs_render_nodes_table (stdout, question->format == FS_OUTPUT_WIDE, rows, n_rows, &grouping, &total);
  return FS_EXIT_OK;
}

int
fs_cmd_nodes (int argc, char **argv)
{
  NodesQuestion question = { .sort = FS_NODES_SORT_NAME, .format = FS_OUTPUT_TABLE };
  FsCliWatch watch = { .timeout = 300, .metrics_interval = 15 };
  g_autofree char *selector_text = NULL, *sort_text = NULL, *group_by = NULL;
  g_autofree char *ignored_namespace = NULL; /* -n and -A: nodes are cluster-scoped (kubectl's) */
  gboolean ignored_all_namespaces = FALSE;
  GOptionEntry entries[] = {
    { "selector", 'l', 0, G_OPTION_ARG_STRING, &selector_text,
      "Only the nodes this label selector picks (key=value, key!=value, key in (a,b), !key, ...); "
      "the total row sums them", "SELECTOR" },
    { "sort", 0, 0, G_OPTION_ARG_STRING, &sort_text,
      "The order of the rows: name (the default); cpu, memory or pods: the highest share requested "
      "first (where the pressure is); free-cpu or free-memory: the most free first (where the room is). "
      "Ties by name; the total row stays first", "KEY" },
    { "group-by", 0, 0, G_OPTION_ARG_STRING, &group_by,
      "A row per value of this node label (topology.kubernetes.io/zone, a node pool's label) instead "
      "of a row per node, with the largest free piece on one usable node of each; <none>: the nodes "
      "without it", "LABEL" },
    FS_CLI_WATCH_ENTRIES (watch),
    { "namespace", 'n', 0, G_OPTION_ARG_STRING, &ignored_namespace,
      "Accepted and ignored, as kubectl get nodes does: nodes belong to no namespace", "NAMESPACE" },
    { "all-namespaces", 'A', 0, G_OPTION_ARG_NONE, &ignored_all_namespaces,
      "Accepted and ignored, as kubectl get nodes does", NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) context = fs_cli_context_new (&fs_cli_nodes, entries, &question.common, TRUE);
  g_autoptr (GError) error = NULL;
  g_autoptr (FsSnapshot) snapshot = NULL;
  g_autoptr (FsLabelSelector) selector = NULL;
  int status = FS_EXIT_OK;
  if (!fs_cli_parse (context, &argc, &argv, &error)
      || !fs_cli_output_parse (question.common.output, &question.format, &error))
    status = FS_EXIT_ERROR;
  else if (!fs_nodes_sort_parse (sort_text, &question.sort, &error))
    {
      fs_cli_suggest (error, sort_text, "", fs_nodes_sort_keys, FS_NODES_SORT_N);
      status = FS_EXIT_ERROR;
    }
  else if (group_by != NULL && !fs_nodes_group_check (group_by, &error))
    status = FS_EXIT_ERROR;
  else if (argc > 1)
    status = fs_cli_usage (&error, "unexpected argument \"%s\"", argv[1]);
  else if (!fs_cli_watch_check (&watch, &question.common, &error)
           || !fs_cli_parse_selector (selector_text, &selector, &error))
    status = FS_EXIT_ERROR;
  else
    {
      question.selector = selector;
      question.group_by = group_by;
      if (watch.watch)
        status = fs_cli_watch (&fs_cli_nodes, &question.common, &watch, NODES_RESOURCES, question.format, answer, &question);
      else if ((snapshot = fs_cli_load (fs_cli_nodes.name, &question.common, NODES_RESOURCES, &error)) == NULL)
        status = FS_EXIT_ERROR;
      else
        status = answer (snapshot, &question);
    }
  if (error != NULL)
    status = fs_cli_fail (fs_cli_nodes.name, error);
  fs_cli_common_clear (&question.common);
  return status;
}
