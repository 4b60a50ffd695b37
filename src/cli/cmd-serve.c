/* fitscale serve — the planner, why and capacity as an HTTP JSON service (docs/api.md), on
 * snapshot files or on a live cluster kept current by the watch cache: the options, the
 * source, and the service of server/service.h. */
#include "config.h"

#include <stdio.h>

#include "commands.h"
#include "fitscale/server/service.h"

#define SERVE_RESOURCES (FS_KUBE_NODES | FS_KUBE_PODS | FS_KUBE_NAMESPACES | FS_KUBE_WORKLOADS | FS_KUBE_HPAS \
                         | FS_KUBE_VPAS | FS_KUBE_HVPAS | FS_KUBE_POD_METRICS | FS_KUBE_EVENTS \
                         | FS_KUBE_STORAGE | FS_KUBE_PDBS | FS_KUBE_RUNTIME_CLASSES)

/* The service on the --snapshot files, or else on the live cluster; NULL with ERROR when the
 * source cannot be read. */
static FsService *
open_service (FsCommonOptions *common, const FsKubeCacheOptions *watch, double max_staleness, GError **error)
{
  if (common->snapshot_paths != NULL)
    {
      FsSnapshot *snapshot = fs_cli_load (fs_cli_serve.name, common, SERVE_RESOURCES, error);
      return snapshot != NULL ? fs_service_new_offline (snapshot) : NULL;
    }
  FsKubeLive *live = fs_kube_live_open (&common->connection, SERVE_RESOURCES, fs_cli_live_progress (common), NULL,
                                        error);
  if (live == NULL)
    return NULL;
  if (!fs_cli_scheduler_config (fs_cli_serve.name, common, live, error))
    {
      fs_kube_live_free (live);
      return NULL;
    }
  fs_cli_live_opened (fs_cli_serve.name, common, live);
  return fs_service_new_live (live, watch, max_staleness);
}

/* Listens, prints the port, and serves until SIGTERM or SIGINT. */
static gboolean
run (FsService *service, const FsServerOptions *options, GError **error)
{
  if (!fs_service_start (service, options, error))
    return FALSE;
  printf ("%u\n", fs_service_port (service));
  fflush (stdout);
  fs_service_run (service);
  return TRUE;
}

const FsCliCommand fs_cli_serve = {
  .name = "serve",
  .parameters = "",
  .summary = "the planner, why and capacity as an HTTP JSON service",
  .description =
      "Answers POST /v1/plan (the fitscale plan -o json document, with the snapshot's\n"
      "resourceVersion and age), POST /v1/admit (a mutating admission webhook that warns\n"
      "about, adjusts or denies writes of replicas and requests that would leave pods\n"
      "Pending: docs/admission.md), POST /v1/capacity, GET /v1/why/NAMESPACE/POD, /healthz,\n"
      "/livez, /readyz and /metrics (Prometheus), on --snapshot files or on the live cluster,\n"
      "which a watch cache keeps current (each request keeps the snapshot it started with).\n"
      "Errors are Kubernetes Status objects.  SIGTERM finishes the requests in flight and\n"
      "exits 0.  The API: docs/api.md and docs/openapi.yaml.  Prints the port once listening.",
  .run = fs_cmd_serve,
};

int
fs_cmd_serve (int argc, char **argv)
{
  FsCommonOptions common = { 0 };
  g_autofree char *listen = NULL, *tls_cert = NULL, *tls_key = NULL;
  gint verbosity = 1, max_in_flight = 64, max_body_kib = 1024, threads = 0, watch_timeout = 300, client_timeout = 10;
  gint metrics_interval = 15, coalesce_ms = 30, compact_after_kib = 8192;
  double max_staleness = 120, admission_max_age = 120;
  g_autofree char *admission_mode = NULL, *node_autoscaler = NULL;
  g_auto (GStrv) exempt_users = NULL;
  gboolean autoscaled_only = FALSE;
  GOptionEntry entries[] = {
    { "listen", 0, 0, G_OPTION_ARG_STRING, &listen, "Address to listen on: HOST:PORT, :PORT (default :8443), [IPV6]:PORT; port 0 picks one", "ADDR" },
    { "tls-cert", 0, 0, G_OPTION_ARG_FILENAME, &tls_cert, "Serve HTTPS with this certificate (PEM)", "FILE" },
    { "tls-key", 0, 0, G_OPTION_ARG_FILENAME, &tls_key, "... and this key (PEM)", "FILE" },
    { "threads", 0, 0, G_OPTION_ARG_INT, &threads, "Worker threads (default: one per processor)", "N" },
    { "max-in-flight", 0, 0, G_OPTION_ARG_INT, &max_in_flight, "Requests answered at once; more get 503 (default 64)", "N" },
    { "max-body", 0, 0, G_OPTION_ARG_INT, &max_body_kib, "Largest request body in KiB; more get 413 (default 1024)", "KIB" },
    { "client-timeout", 0, 0, G_OPTION_ARG_INT, &client_timeout, "Seconds a client has to send a whole request (and to stay idle); later it is cut off (default 10)", "S" },
    { "watch-timeout", 0, 0, G_OPTION_ARG_INT, &watch_timeout, "Live: each watch stays open S to 2xS seconds, then resumes (default 300)", "S" },
    { "metrics-interval", 0, 0, G_OPTION_ARG_INT, &metrics_interval, "Live: seconds between PodMetrics lists (default 15)", "S" },
    { "compact-after", 0, 0, G_OPTION_ARG_INT, &compact_after_kib, "Live: copy the snapshots' shared pool into a fresh one, leaving what went behind, once it grew by an eighth and by at least KIB KiB since the last list or copy (default 8192)", "KIB" },
    { "coalesce", 0, 0, G_OPTION_ARG_INT, &coalesce_ms, "Live: milliseconds a batch of watch events waits for more before it is applied (default 30)", "MS" },
    { "max-staleness", 0, 0, G_OPTION_ARG_DOUBLE, &max_staleness, "Live: /readyz fails, and answers warn, when a resource has not been confirmed current (event, bookmark, list) for S seconds (default 120)", "S" },
    { "admission-mode", 0, 0, G_OPTION_ARG_STRING, &admission_mode, "POST /v1/admit: what a write that leaves replicas Pending gets, unless its workload's annotation or its namespace's label fitscale.io/admission says otherwise: warn (default), adjust or deny", "MODE" },
    { "admission-exempt-user", 0, 0, G_OPTION_ARG_STRING_ARRAY, &exempt_users, "POST /v1/admit: writes by this user are never judged (repeatable)", "USER" },
    { "admission-max-age", 0, 0, G_OPTION_ARG_DOUBLE, &admission_max_age, "POST /v1/admit: writes are allowed unjudged (with a warning) while the snapshot is older than S seconds (default 120)", "S" },
    { "admission-autoscaled-only", 0, 0, G_OPTION_ARG_NONE, &autoscaled_only, "POST /v1/admit: judge only workloads an HPA, a VPA or an Hvpa scales", NULL },
    { "node-autoscaler", 0, 0, G_OPTION_ARG_STRING, &node_autoscaler, "POST /v1/admit: cluster-autoscaler, karpenter, none, or detect (default; from the nodes' and pods' labels): with one, Pending replicas are its signal, so writes are only warned about", "NAME" },
    { "verbosity", 'v', 0, G_OPTION_ARG_INT, &verbosity, "Log level: 0 errors, 1 start and stop (default), 2 every request", "N" },
    { NULL }
  };
  g_autoptr (GOptionContext) context = fs_cli_context_new (&fs_cli_serve, entries, &common, TRUE);
  g_autoptr (FsService) service = NULL;
  g_autoptr (GError) error = NULL;
  int status = FS_EXIT_OK;
  FsAdmitOptions admission = { .mode = FS_ADMIT_WARN, .node_autoscaler = FS_NODE_AUTOSCALER_DETECT };
  if (!fs_cli_parse (context, &argc, &argv, &error))
    status = fs_cli_fail (fs_cli_serve.name, error);
  else if ((admission_mode != NULL && !fs_admit_mode_parse (admission_mode, &admission.mode))
           || (node_autoscaler != NULL && !fs_node_autoscaler_parse (node_autoscaler, &admission.node_autoscaler))
           || !(admission_max_age > 0))
    {
      fs_cli_usage (&error, "--admission-mode is warn, adjust or deny; --node-autoscaler cluster-autoscaler, karpenter, "
                            "none or detect; --admission-max-age positive");
      status = fs_cli_fail (fs_cli_serve.name, error);
    }
  else if (common.output != NULL)
    {
      fs_cli_usage (&error, "-o does not apply: the service answers JSON (docs/api.md) and logs JSON lines");
      status = fs_cli_fail (fs_cli_serve.name, error);
    }
  else if (argc > 1)
    {
      fs_cli_usage (&error, "takes no arguments (\"%s\")", argv[1]);
      status = fs_cli_fail (fs_cli_serve.name, error);
    }
  else if (!(max_staleness > 0))
    {
      fs_cli_usage (&error, "--max-staleness %g: give a number of seconds over 0", max_staleness);
      status = fs_cli_fail (fs_cli_serve.name, error);
    }
  else if (!fs_cli_check_range ("--max-in-flight", max_in_flight, 1, G_MAXINT32, &error)
           || !fs_cli_check_range ("--max-body", max_body_kib, 1, G_MAXINT32, &error)
           || !fs_cli_check_range ("--threads", threads, 0, G_MAXINT32, &error)
           || !fs_cli_check_range ("--client-timeout", client_timeout, 1, G_MAXINT32, &error)
           || !fs_cli_check_range ("--watch-timeout", watch_timeout, 1, G_MAXINT32, &error)
           || !fs_cli_check_range ("--metrics-interval", metrics_interval, 1, G_MAXINT32, &error)
           || !fs_cli_check_range ("--coalesce", coalesce_ms, 1, 1000, &error)
           || !fs_cli_check_range ("--compact-after", compact_after_kib, 1, 1 << 22, &error)
           || !fs_cli_check_range ("--verbosity", verbosity, 0, 2, &error))
    status = fs_cli_fail (fs_cli_serve.name, error);
  else if ((service = open_service (&common,
                                    &(FsKubeCacheOptions){ (guint) watch_timeout, (guint) coalesce_ms,
                                                           (guint) metrics_interval, (guint) compact_after_kib },
                                    max_staleness, &error)) == NULL)
    status = fs_cli_fail (fs_cli_serve.name, error);
  else
    {
      admission.exempt_users = (const char *const *) exempt_users;
      admission.max_age = admission_max_age;
      admission.autoscaled_only = autoscaled_only;
      fs_service_set_admission (service, &admission);
      const char *delay = g_getenv ("FS_SERVE_TEST_DELAY_MS"); /* tests: requests that stay in flight */
      FsServerOptions options = { listen, tls_cert, tls_key, (guint) threads, (guint) max_in_flight,
                                  (gsize) max_body_kib << 10, (guint) client_timeout, verbosity,
                                  delay != NULL ? (guint) g_ascii_strtoull (delay, NULL, 10) : 0 };
      if (!run (service, &options, &error))
        status = fs_cli_fail (fs_cli_serve.name, error);
    }
  fs_cli_common_clear (&common);
  return status;
}
