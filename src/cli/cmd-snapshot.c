/* fitscale snapshot — the live cluster, as every command reads it, written as one `List`
 * that --snapshot reads back: kube/dump.h lists it (the listings of fs_kube_listings, the
 * same paths and field selectors the live commands list; no managedFields, never a
 * Secret) and this writes its items.  The List's
 * annotations record the API server's version, the time and the namespace it was taken of
 * (kube/decode.h FS_SNAPSHOT_*_ANNOTATION). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "fitscale/kube/client.h"
#include "fitscale/kube/decode.h"
#include "fitscale/kube/dump.h"
#include "fitscale/model/error.h"
#include "fitscale/model/timeutil.h"
#include "fitscale/plan/completeness.h"

const FsCliCommand fs_cli_snapshot = {
  .name = "snapshot",
  .parameters = "",
  .summary = "write the live cluster, all that every command reads, as one List",
  .description =
      "Lists from the live cluster (kubeconfig and connection flags as kubectl's)\n"
      "everything the other commands read: nodes, namespaces, pods (without Succeeded\n"
      "and Failed ones), Deployments, StatefulSets, ReplicaSets, HPAs, VPAs, Hvpas,\n"
      "PodMetrics, FailedScheduling events, PersistentVolumeClaims, PersistentVolumes,\n"
      "StorageClasses, CSINodes and PodDisruptionBudgets; and writes them as one List\n"
      "on standard output, with the API server's version and the time in its\n"
      "annotations, without metadata.managedFields, never a Secret.  --snapshot reads it\n"
      "back: every command answers from it as it does live.  APIs the cluster does not\n"
      "serve (VPA, Hvpa, metrics-server, PDBs) are left out with a warning.",
  .epilogue =
      "Examples:\n"
      "  fitscale snapshot > cluster.json\n"
      "  fitscale snapshot --context prod -o yaml > cluster.yaml\n"
      "  fitscale plan -S cluster.json deployment/web -n production\n"
      "The same with kubectl (leave out vpa, hvpas and pods.metrics.k8s.io where the\n"
      "cluster does not serve them):\n"
      "  kubectl get nodes,namespaces,pods,deployments,statefulsets,replicasets,hpa,vpa,hvpas,\\\n"
      "    pods.metrics.k8s.io,events,pvc,pv,storageclasses,csinodes,pdb,runtimeclasses -A -o json > cluster.json\n"
      "-n NS lists the namespaced kinds of NS only (readers then warn that the pods of other\n"
      "namespaces are missing); -A, all namespaces, is the default: the live commands list\n"
      "them all.\n"
      "Exit status: 0 written, 2 bad usage or a listing failed.",
  .run = fs_cmd_snapshot,
};

/* The dump's items, written by the answer's emitter (kube/dump.h FsDumpSink). */
static void sink_map_open (gpointer data) { fs_emit_map_open (data); }
static void sink_map_close (gpointer data) { fs_emit_map_close (data); }
static void sink_list_open (gpointer data) { fs_emit_list_open (data); }
static void sink_list_close (gpointer data) { fs_emit_list_close (data); }
static void sink_key (gpointer data, const char *key) { fs_emit_key (data, key); }
static void sink_string (gpointer data, const char *value) { fs_emit_string (data, value); }
static void sink_number (gpointer data, const char *text) { fs_emit_number (data, text); }
static void sink_boolean (gpointer data, gboolean value) { fs_emit_bool (data, value); }
static void sink_null (gpointer data) { fs_emit_null (data); }

static const FsDumpSink emitter_sink = {
  sink_map_open, sink_map_close, sink_list_open, sink_list_close, sink_key,
  sink_string, sink_number, sink_boolean, sink_null,
};

int
fs_cmd_snapshot (int argc, char **argv)
{
  FsCommonOptions options = { 0 };
  g_autofree char *namespace = NULL;
  gboolean all_namespaces = FALSE;
  GOptionEntry entries[] = {
    { "namespace", 'n', 0, G_OPTION_ARG_STRING, &namespace,
      "Only this namespace's namespaced objects (pods, workloads, autoscalers, ...); cluster-scoped "
      "ones (nodes, PersistentVolumes, ...) whole", "NS" },
    { "all-namespaces", 'A', 0, G_OPTION_ARG_NONE, &all_namespaces, "Every namespace (the default)", NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) context = fs_cli_context_new (&fs_cli_snapshot, entries, &options, FS_CLI_LIVE_ONLY);
  g_autoptr (GError) error = NULL;
  int status = FS_EXIT_ERROR;
  FsOutputFormat format = FS_OUTPUT_JSON;
  if (!fs_cli_parse (context, &argc, &argv, &error))
    goto out;
  if (argc > 1)
    {
      fs_cli_usage (&error, "snapshot takes no arguments (\"%s\")", argv[1]);
      goto out;
    }
  if (namespace != NULL && all_namespaces)
    {
      fs_cli_usage (&error, "-n and -A: give one of them");
      goto out;
    }
  if (namespace != NULL && *namespace == '\0')
    {
      fs_cli_usage (&error, "-n: the namespace is empty");
      goto out;
    }
  static const char *const formats[] = { "json", "yaml" }; /* a snapshot is read back: no table */
  if (!fs_cli_output_among (options.output, formats, G_N_ELEMENTS (formats), &format, &error))
    goto out;
  {
    FsRestConfig *config = fs_rest_config_load (&options.connection, &error);
    if (config == NULL)
      goto out;
    g_autoptr (FsKubeClient) client = fs_kube_client_new (config, &error);
    if (client == NULL)
      goto out;
    g_autoptr (GPtrArray) skipped = g_ptr_array_new ();
    g_autoptr (FsDump) dump = fs_kube_dump (client, namespace, skipped, &error);
    if (dump == NULL)
      goto out;
    fs_cli_warn ("snapshot", &options, fs_listing_warnings (skipped));
    char now[32];
    fs_time_format (g_get_real_time () / G_USEC_PER_SEC, now);
    {
      g_autoptr (FsEmitter) out = fs_emitter_new (format, stdout);
      fs_emit_map_open (out);
      fs_emit_key (out, "apiVersion");
      fs_emit_string (out, "v1");
      fs_emit_key (out, "kind");
      fs_emit_string (out, "List");
      fs_emit_key (out, "metadata");
      fs_emit_map_open (out);
      fs_emit_key (out, "annotations");
      fs_emit_map_open (out);
      fs_emit_key (out, FS_SNAPSHOT_SCOPE_ANNOTATION);
      fs_emit_string (out, namespace != NULL ? namespace : "");
      fs_emit_key (out, FS_SNAPSHOT_VERSION_ANNOTATION);
      fs_emit_string (out, fs_dump_server_version (dump));
      fs_emit_key (out, FS_SNAPSHOT_TIME_ANNOTATION);
      fs_emit_string (out, now);
      fs_emit_map_close (out);
      fs_emit_map_close (out);
      fs_emit_key (out, "items");
      fs_emit_list_open (out);
      fs_dump_write_items (dump, &emitter_sink, out);
      fs_emit_list_close (out);
      fs_emit_map_close (out);
    }
    status = fflush (stdout) == 0 && !ferror (stdout) ? FS_EXIT_OK : FS_EXIT_ERROR;
    if (status != FS_EXIT_OK)
      g_set_error (&error, FS_ERROR, FS_ERROR_IO, "cannot write the snapshot to standard output");
  }
out:
  if (status != FS_EXIT_OK && error != NULL)
    fs_cli_fail ("snapshot", error);
  fs_cli_common_clear (&options);
  return status;
}
