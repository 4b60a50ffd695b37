/* fitscale capacity — how many replicas of a shape fit, where, and what is missing. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "fitscale/plan/capacity.h"
#include "fitscale/model/error.h"
#include "fitscale/model/quantity.h"
#include "fitscale/plan/shape.h"
#include "fitscale/render/capacity.h"

typedef struct {
  FsCommonOptions common;
  char *request, *from, *file, *namespace, *vary;
  char **node_selector, **tolerations;
  gint64 replicas;
  FsCliWatch watch;
} CapacityOptions;

#define CAPACITY_RESOURCES (FS_KUBE_NODES | FS_KUBE_PODS | FS_KUBE_NAMESPACES | FS_KUBE_WORKLOADS | FS_KUBE_STORAGE \
                            | FS_KUBE_RUNTIME_CLASSES)

static void
options_clear (CapacityOptions *options)
{
  fs_cli_common_clear (&options->common);
  g_free (options->request);
  g_free (options->from);
  g_free (options->file);
  g_free (options->namespace);
  g_free (options->vary);
  g_strfreev (options->node_selector);
  g_strfreev (options->tolerations);
}

static FsShape *
build_shape (const FsSnapshot *snapshot, const CapacityOptions *options, GError **error)
{
  FsShapeFlags flags = { .request = options->request, .node_selector = options->node_selector,
                         .tolerations = options->tolerations,
                         .namespace = fs_cli_namespace (&options->common, options->namespace) };
  guint given = (options->request != NULL) + (options->from != NULL) + (options->file != NULL);
  if (given != 1)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_USAGE,
                   "give the pod shape once: --request cpu=..,memory=.., --from KIND/NAME or -f FILE");
      return NULL;
    }
  if (options->request != NULL)
    return fs_shape_from_flags (&flags, error);
  if (options->from != NULL)
    return fs_shape_from_object (snapshot, options->from, &flags, error);
  g_autoptr (FsShape) shape = fs_shape_from_file (options->file, &flags, error);
  /* a file's template meets the cluster's RuntimeClass, as its pods would at admission */
  if (shape == NULL || !fs_shape_apply_runtime_class (shape, snapshot, error))
    return NULL;
  return g_steal_pointer (&shape);
}

/* ---- --vary ------------------------------------------------------------------------- */

static gboolean
parse_amount (const char *name, const char *text, int64_t *out, GError **error)
{
  return fs_resource_kind (name) == FS_RES_KIND_CPU
             ? fs_quantity_parse_milli (text, strlen (text), out, error)
             : fs_quantity_parse_value (text, strlen (text), out, error);
}

/* "memory=1Gi..8Gi" or "cpu=250m..2/250m": the step defaults to FROM. */
static gboolean
parse_vary (const char *text, char **name, int64_t *from, int64_t *to, int64_t *step,
            GError **error)
{
  g_autofree char *copy = g_strdup (text);
  char *equals = strchr (copy, '=');
  char *dots = equals != NULL ? strstr (equals, "..") : NULL;
  if (equals == NULL || dots == NULL)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_USAGE,
                   "--vary \"%s\": give RESOURCE=FROM..TO[/STEP], e.g. memory=1Gi..8Gi", text);
      return FALSE;
    }
  *equals = *dots = '\0';
  char *slash = strchr (dots + 2, '/');
  if (slash != NULL)
    *slash = '\0';
  if (!parse_amount (copy, equals + 1, from, error) || !parse_amount (copy, dots + 2, to, error)
      || (slash != NULL && !parse_amount (copy, slash + 1, step, error)))
    return FALSE;
  if (slash == NULL)
    *step = *from > 0 ? *from : MAX ((*to - *from) / 8, 1);
  *name = g_strdup (copy);
  return TRUE;
}

/* What the answer for the shape's pods cannot say (a filter fitscale does not model, their
 * gates, an unknown RuntimeClass), first. */
static void
warn_spec (CapacityOptions *options, const FsSnapshot *snapshot, const FsShape *shape)
{
  fs_cli_warn_template (fs_cli_capacity.name, &options->common, snapshot, fs_shape_pod (shape)->spec,
                        fs_shape_describe (shape));
}

static int
run_vary (const FsSnapshot *snapshot, const FsShape *shape, const CapacityOptions *options,
          FsOutputFormat format, GError **error)
{
  g_autofree char *name = NULL;
  int64_t from, to, step;
  g_autoptr (GArray) points = g_array_new (FALSE, FALSE, sizeof (FsFrontierPoint));
  if (!parse_vary (options->vary, &name, &from, &to, &step, error)
      || !fs_capacity_frontier (snapshot, fs_shape_pod (shape), fs_shape_workload (shape), name,
                                from, to, step, points, error))
    return FS_EXIT_ERROR;
  if (format == FS_OUTPUT_JSON || format == FS_OUTPUT_YAML)
    {
      g_autoptr (FsEmitter) emitter = fs_cli_emitter_new (&options->common, format);
      fs_render_capacity_frontier (emitter, shape, name, points);
    }
  else
    fs_render_capacity_frontier_table (stdout, name, points);
  return FS_EXIT_OK;
}

/* The answer on one snapshot: the shape (from it, with --from) placed, or its frontier. */
static int
answer (const FsSnapshot *snapshot, CapacityOptions *options, FsOutputFormat format)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FsShape) shape = build_shape (snapshot, options, &error);
  if (shape == NULL
      || !fs_shape_check_scheduler (snapshot, fs_shape_pod (shape)->spec, fs_shape_describe (shape), &error))
    return fs_cli_fail (fs_cli_capacity.name, error);
  warn_spec (options, snapshot, shape);
  if (options->vary != NULL)
    {
      int status = run_vary (snapshot, shape, options, format, &error);
      return error != NULL ? fs_cli_fail (fs_cli_capacity.name, error) : status;
    }
  g_autoptr (FsCapacityAnswer) capacity = fs_capacity_answer (snapshot, fs_shape_pod (shape), options->replicas,
                                                              fs_shape_workload (shape));
  if (format == FS_OUTPUT_JSON || format == FS_OUTPUT_YAML)
    {
      g_autoptr (FsEmitter) emitter = fs_cli_emitter_new (&options->common, format);
      fs_render_capacity (emitter, snapshot, shape, capacity, options->replicas);
    }
  else
    fs_render_capacity_table (stdout, format == FS_OUTPUT_WIDE, snapshot, shape, capacity, options->replicas);
  return options->replicas >= 0 && capacity->pack.pending > 0 ? FS_EXIT_VERDICT : FS_EXIT_OK;
}

typedef struct {
  CapacityOptions *options;
  FsOutputFormat format;
} WatchedQuestion;

static int
answer_watched (const FsSnapshot *snapshot, gpointer data)
{
  WatchedQuestion *question = data;
  return answer (snapshot, question->options, question->format);
}

const FsCliCommand fs_cli_capacity = {
  .name = "capacity",
  .parameters = "",
  .summary = "how many replicas of a pod shape fit, where, and what is missing",
  .description =
      "Places replicas of one pod shape on the snapshot with kube-scheduler's filters\n"
      "(NodeUnschedulable, NodeName, TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit,\n"
      "PodTopologySpread, InterPodAffinity), adding each placed replica's request to its node.\n"
      "Prints per node how many fit and why not more, the total, and the free room in total\n"
      "beside the largest free piece on one node.  With --replicas N it says whether all N fit\n"
      "and, if not, how many new nodes of each existing node shape would hold the rest.",
  .epilogue =
      "Examples:\n"
      "  fitscale capacity -S cluster.json --request cpu=500m,memory=3Gi\n"
      "  fitscale capacity -S examples/rag-api --from deployment/rag-api -n production --replicas 6\n"
      "  fitscale capacity -S cluster.json --request memory=1Gi --vary memory=1Gi..8Gi\n"
      "\nExit status: 0 answered, 1 --replicas N do not all fit, 2 bad input.\n",
  .run = fs_cmd_capacity,
};

/* --replicas: 0 to spec.replicas' int32 maximum; from here on -1 when not given. */
static gboolean
check_replicas (CapacityOptions *options, GError **error)
{
  if (options->replicas == G_MININT64)
    {
      options->replicas = -1;
      return TRUE;
    }
  return fs_cli_check_range ("--replicas", options->replicas, 0, G_MAXINT32, error);
}

int
fs_cmd_capacity (int argc, char **argv)
{
  CapacityOptions options = { .replicas = G_MININT64, .watch.timeout = 300, .watch.metrics_interval = 15 }; /* --replicas not given */
  GOptionEntry entries[] = {
    { "request", 'r', 0, G_OPTION_ARG_STRING, &options.request,
      "The pod's requests, e.g. cpu=500m,memory=3Gi,nvidia.com/gpu=1", "LIST" },
    { "from", 0, 0, G_OPTION_ARG_STRING, &options.from,
      "Take the shape (requests, tolerations, selectors, affinity, spread) from a workload or "
      "pod of the snapshot: deployment/NAME, statefulset/NAME, replicaset/NAME, pod/NAME", "KIND/NAME" },
    { "filename", 'f', 0, G_OPTION_ARG_FILENAME, &options.file,
      "Take the shape from the first Pod, Deployment, StatefulSet or ReplicaSet in FILE", "FILE" },
    { "namespace", 'n', 0, G_OPTION_ARG_STRING, &options.namespace,
      "Namespace of --from and of the replicas (default: default)", "NS" },
    { "replicas", 0, 0, G_OPTION_ARG_INT64, &options.replicas,
      "Ask whether N replicas fit: exit status 1 when they do not, with the new nodes "
      "that would hold the rest", "N" },
    { "node-selector", 0, 0, G_OPTION_ARG_STRING_ARRAY, &options.node_selector,
      "Add a nodeSelector entry KEY=VALUE (repeatable)", "KEY=VALUE" },
    { "toleration", 0, 0, G_OPTION_ARG_STRING_ARRAY, &options.tolerations,
      "Add a toleration: KEY=VALUE:EFFECT (Equal), KEY:EFFECT or KEY (Exists), * (all taints); "
      "repeatable", "TOLERATION" },
    { "vary", 0, 0, G_OPTION_ARG_STRING, &options.vary,
      "Print the frontier: replicas that fit for each request size, e.g. memory=1Gi..8Gi or "
      "cpu=250m..4/250m (the step defaults to the first size)", "RES=FROM..TO[/STEP]" },
    FS_CLI_WATCH_ENTRIES (options.watch),
    { NULL }
  };
  g_autoptr (GOptionContext) context = fs_cli_context_new (&fs_cli_capacity, entries, &options.common, TRUE);
  FsOutputFormat format = FS_OUTPUT_TABLE;
  g_autoptr (GError) error = NULL;
  g_autoptr (FsSnapshot) snapshot = NULL;
  int status = FS_EXIT_OK;
  if (!fs_cli_parse (context, &argc, &argv, &error)
      || !fs_cli_output_parse (options.common.output, &format, &error))
    status = FS_EXIT_ERROR;
  else if (argc > 1)
    status = fs_cli_usage (&error, "unexpected argument \"%s\"", argv[1]);
  else if (!check_replicas (&options, &error) || !fs_cli_watch_check (&options.watch, &options.common, &error))
    status = FS_EXIT_ERROR;
  else if (options.watch.watch)
    status = fs_cli_watch (&fs_cli_capacity, &options.common, &options.watch, CAPACITY_RESOURCES, format,
                           answer_watched, &(WatchedQuestion){ &options, format });
  else if ((snapshot = fs_cli_load (fs_cli_capacity.name, &options.common, CAPACITY_RESOURCES, &error)) == NULL)
    status = FS_EXIT_ERROR;
  else
    status = answer (snapshot, &options, format);
  if (error != NULL)
    status = fs_cli_fail (fs_cli_capacity.name, error);
  options_clear (&options);
  return status;
}
