/* fitscale simulate — a load trace through the HPA loop, sync by sync. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "fitscale/kube/decode.h"
#include "fitscale/model/error.h"
#include "fitscale/kube/hpaspec.h"
#include "fitscale/plan/completeness.h"
#include "fitscale/plan/simulate.h"
#include "fitscale/model/timeutil.h"
#include "fitscale/render/simulate.h"

typedef struct {
  FsCommonOptions common;
  char *hpa_path, *trace_path, *startup, *sync, *duration, *kube_version;
  gint64 replicas;
  gboolean no_cluster; /* --no-cluster: the HPA alone, every new pod fits */
} SimulateOptions;

static void
options_clear (SimulateOptions *options)
{
  fs_cli_common_clear (&options->common);
  g_free (options->hpa_path);
  g_free (options->trace_path);
  g_free (options->startup);
  g_free (options->sync);
  g_free (options->duration);
  g_free (options->kube_version);
}

/* The HPA in FILE (the first one) and, from the snapshot, its target. */
static FsSnapshot *
load_hpa (const char *path, FsHpaSpec *spec, GError **error)
{
  const char *paths[] = { path, NULL };
  FsSnapshot *snapshot = fs_load_snapshot (paths, error);
  if (snapshot == NULL)
    return NULL;
  for (guint i = 0; i < snapshot->n_generic; i++)
    if (snapshot->generic[i].kind == FS_KIND_HPA)
      {
        if (fs_hpa_spec_read (&snapshot->generic[i], spec, error))
          return snapshot;
        fs_snapshot_unref (snapshot);
        return NULL;
      }
  g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "%s: holds no HorizontalPodAutoscaler", path);
  fs_snapshot_unref (snapshot);
  return NULL;
}

/* The cluster the new pods are placed in: --snapshot, else the one the connection flags and
 * kubeconfig name (as every command reads it; none there is an error, not an empty cluster);
 * none with --no-cluster, which no cluster option may come with. */
static gboolean
load_cluster (SimulateOptions *options, FsSnapshot **snapshot, GError **error)
{
  if (options->no_cluster && fs_cli_names_cluster (&options->common))
    {
      fs_cli_usage (error, "--no-cluster: give it without --snapshot and the connection flags");
      return FALSE;
    }
  if (options->no_cluster)
    return TRUE;
  *snapshot = fs_cli_load ("simulate", &options->common,
                           FS_KUBE_NODES | FS_KUBE_PODS | FS_KUBE_NAMESPACES | FS_KUBE_WORKLOADS | FS_KUBE_STORAGE
                             | FS_KUBE_RUNTIME_CLASSES,
                           error);
  if (*snapshot == NULL && g_str_has_prefix ((*error)->message, "no cluster to read"))
    {
      g_autofree char *message = (*error)->message;
      (*error)->message = g_strdup_printf ("%s; or --no-cluster to run the HPA alone, every new pod fitting", message);
    }
  return *snapshot != NULL;
}

const FsCliCommand fs_cli_simulate = {
  .name = "simulate",
  .parameters = "",
  .summary = "replay a load trace through the HPA loop, sync by sync",
  .description =
      "Runs the HPA's loop every sync period over the trace: the replica calculator on the\n"
      "ready pods (pods still starting, or Pending because they fit on no node, count as\n"
      "unready, as the controller counts them), then the limits and the behavior with the\n"
      "controller's own history, seeded as upstream seeds a new HPA.  New pods of the HPA's\n"
      "target are placed by the scheduler's filters on the cluster (--snapshot, else the one\n"
      "the kubeconfig names, as every command reads it): those that do not fit stay Pending,\n"
      "and the HPA stalls as it does in a real cluster.  --no-cluster runs the HPA alone,\n"
      "every new pod fitting.  -o csv writes the timeline as CSV; -o json has\n"
      "{\"timeline\": [{t, replicas, recommendation, stabilized, limit, reason, ...}]},\n"
      "one row per sync.",
  .epilogue =
      "Examples:\n"
      "  fitscale simulate --hpa hpa.yaml --trace load.csv --startup 30s --no-cluster\n"
      "  fitscale simulate --hpa examples/rag-api/hpa.json -S examples/rag-api \\\n"
      "      --trace spike.csv --replicas 2 -o csv\n",
  .run = fs_cmd_simulate,
};

/* -o: wide, json or yaml (csv is read before): a refusal names csv too, and the closest. */
static gboolean
parse_format (const char *text, FsOutputFormat *format, GError **error)
{
  static const char *const formats[] = { "wide", "json", "yaml", "csv" };
  return fs_cli_output_among (text != NULL && *text == '\0' ? NULL : text, formats, G_N_ELEMENTS (formats), format,
                              error);
}

int
fs_cmd_simulate (int argc, char **argv)
{
  SimulateOptions options = { .replicas = G_MININT64 }; /* not given: the HPA's */
  GOptionEntry entries[] = {
    { "hpa", 0, 0, G_OPTION_ARG_FILENAME, &options.hpa_path,
      "The HorizontalPodAutoscaler (a file from kubectl get hpa NAME -o yaml)", "FILE" },
    { "trace", 0, 0, G_OPTION_ARG_FILENAME, &options.trace_path,
      "The load: CSV \"t_seconds,value\" (per-pod utilization %) or \"t_seconds,load\" "
      "(a total the ready pods share, in the metric's units)", "FILE" },
    { "startup", 0, 0, G_OPTION_ARG_STRING, &options.startup,
      "How long a new pod takes to become ready, 0s or more (default 30s)", "DURATION" },
    { "sync", 0, 0, G_OPTION_ARG_STRING, &options.sync,
      "The controller's sync period, 1s or more (default 15s)", "DURATION" },
    { "duration", 0, 0, G_OPTION_ARG_STRING, &options.duration,
      "How long to run, 1s or more (default: the trace's last time + 10m)", "DURATION" },
    { "replicas", 0, 0, G_OPTION_ARG_INT64, &options.replicas,
      "Start from N replicas (default: the HPA's status.currentReplicas)", "N" },
    { "no-cluster", 0, 0, G_OPTION_ARG_NONE, &options.no_cluster,
      "Read no cluster (no --snapshot, no kubeconfig): the HPA alone, every new pod fits", NULL },
    { "kube-version", 0, 0, G_OPTION_ARG_STRING, &options.kube_version,
      "The cluster's Kubernetes version (default 1.35; before 1.33 the tolerance test differs at exactly 110 %)",
      "1.MINOR" },
    { NULL }
  };
  g_autoptr (GOptionContext) context = fs_cli_context_new (&fs_cli_simulate, entries, &options.common, TRUE);
  FsOutputFormat format = FS_OUTPUT_TABLE;
  g_autoptr (GError) error = NULL;
  gboolean csv = FALSE; /* -o csv, beside the common wide/json/yaml */
  int status = FS_EXIT_OK;
  if (!fs_cli_parse (context, &argc, &argv, &error))
    {
      options_clear (&options);
      return fs_cli_fail (fs_cli_simulate.name, error);
    }
  csv = g_strcmp0 (options.common.output, "csv") == 0;
  FsSimulateOptions sim = { .replicas = options.replicas == G_MININT64 ? -1 : (int32_t) CLAMP (options.replicas, 0, G_MAXINT32) };
  FsHpaSpec hpa;
  FsTrace trace = { 0 };
  guint minor = FS_KUBE_DEFAULT_MINOR;
  g_autoptr (FsSnapshot) hpa_snapshot = NULL;
  g_autoptr (FsSnapshot) snapshot = NULL;
  if ((!csv && !parse_format (options.common.output, &format, &error))
      || !fs_cli_parse_duration ("--startup", options.startup, 0, 30, &sim.startup_s, &error)
      || !fs_cli_parse_duration ("--sync", options.sync, 1, 15, &sim.sync_s, &error)
      || !fs_cli_parse_duration ("--duration", options.duration, 1, 0, &sim.duration_s, &error)
      || !fs_kube_version_parse ("--kube-version", options.kube_version, &minor, &error)
      || (options.replicas != G_MININT64 && !fs_cli_check_range ("--replicas", options.replicas, 1, G_MAXINT32, &error)))
    status = FS_EXIT_ERROR;
  else if (options.hpa_path == NULL || options.trace_path == NULL || argc > 1)
    status = fs_cli_usage (&error, "give --hpa FILE and --trace FILE");
  else if ((hpa_snapshot = load_hpa (options.hpa_path, &hpa, &error)) == NULL
           || !fs_trace_load (options.trace_path, &trace, &error)
           || !load_cluster (&options, &snapshot, &error))
    status = FS_EXIT_ERROR;
  if (status == FS_EXIT_OK)
    {
      sim.snapshot = snapshot;
      sim.workload = fs_snapshot_find_workload (snapshot, hpa.namespace, hpa.target_kind, hpa.target_name);
      if (snapshot != NULL)
        fs_cli_warn (fs_cli_simulate.name, &options.common, fs_hpa_target_warnings (snapshot, &hpa));
      const char *missing = NULL; /* a template without the request: the HPA's metric is invalid */
      if (sim.workload != NULL
          && !fs_hpa_pod_request (sim.workload->template->containers, hpa.metrics[0].name, hpa.metrics[0].container,
                                  &sim.request_milli, &missing))
        sim.request_milli = 0;
      sim.symmetric_tolerance = fs_hpa_symmetric_tolerance (minor);
      g_autoptr (GArray) timeline = g_array_new (FALSE, TRUE, sizeof (FsSimulateStep));
      if (!fs_simulate (&hpa, &trace, &sim, timeline, &error))
        status = FS_EXIT_ERROR;
      else if (csv)
        fs_render_simulate_csv (stdout, timeline);
      else if (format == FS_OUTPUT_JSON || format == FS_OUTPUT_YAML)
        {
          g_autoptr (FsEmitter) emitter = fs_cli_emitter_new (&options.common, format);
          fs_render_simulate (emitter, timeline);
        }
      else
        {
          const FsHpaMetricSpec *metric = &hpa.metrics[0];
          gboolean amount = trace.kind == FS_TRACE_LOAD && (metric->type == FS_HPA_METRIC_RESOURCE
                                                            || metric->type == FS_HPA_METRIC_CONTAINER_RESOURCE);
          fs_render_simulate_table (stdout, timeline, amount ? metric->name : NULL);
        }
    }
  if (error != NULL)
    status = fs_cli_fail (fs_cli_simulate.name, error);
  fs_trace_clear (&trace);
  options_clear (&options);
  return status;
}
