/* fitscale why — why a pod is Pending, and the smallest fixes. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "fitscale/plan/completeness.h"
#include "fitscale/model/error.h"
#include "fitscale/model/selector.h"
#include "fitscale/plan/why.h"
#include "fitscale/render/why.h"

typedef struct {
  FsCommonOptions common;
  char *namespace;
  gboolean all, all_namespaces;
  char *selector;           /* -l: with --all, only the pods it selects */
  const FsLabelSelector *parsed_selector;
  gboolean watch;
  gint watch_rounds;        /* 0: until interrupted */
  gint watch_timeout;
} WhyOptions;

/* ---- tables ------------------------------------------------------------------------- */

static char *
amount_text (const char *name, int64_t amount)
{
  char text[32];
  if (strcmp (name, "memory") == 0 || strcmp (name, "ephemeral-storage") == 0)
    return g_strdup (fs_format_bytes_for_people (amount, text));
  return g_strdup (fs_format_amount (name, amount, text));
}

/* "memory: needs 6.0Gi, 5.8Gi free" for each resource the node is short of. */
static char *
short_text (const FsSnapshot *snapshot, guint node_index, const FsResources *request,
            const FsVerdict *verdict)
{
  if (verdict->filter != FS_FILTER_NODE_RESOURCES_FIT)
    return g_strdup ("");
  const FsNode *node = &snapshot->nodes[node_index];
  GString *text = g_string_new (NULL);
  struct { const char *name; guint32 bit; int64_t want, free_amount; } rows[] = {
    { "cpu", FS_SHORT_CPU, request->cpu_milli, node->allocatable.cpu_milli - node->requested.cpu_milli },
    { "memory", FS_SHORT_MEMORY, request->memory_bytes,
      node->allocatable.memory_bytes - node->requested.memory_bytes },
    { "ephemeral-storage", FS_SHORT_EPHEMERAL, request->ephemeral_bytes,
      node->allocatable.ephemeral_bytes - node->requested.ephemeral_bytes },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (rows); i++)
    if (verdict->short_bits & rows[i].bit)
      {
        g_autofree char *want = amount_text (rows[i].name, rows[i].want);
        g_autofree char *free_text = amount_text (rows[i].name, rows[i].free_amount);
        g_string_append_printf (text, "%s%s: needs %s, %s free", text->len ? "; " : "",
                                rows[i].name, want, free_text);
      }
  for (guint i = 0; i < verdict->short_by.n_extended; i++)
    {
      const char *name = verdict->short_by.extended[i].name;
      int64_t want = fs_resources_get (request, name);
      int64_t free_amount = fs_resources_get (&node->allocatable, name)
                            - fs_resources_get (&node->requested, name);
      g_string_append_printf (text, "%s%s: needs %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT " free",
                              text->len ? "; " : "", name, want, free_amount);
    }
  if (verdict->short_bits & FS_SHORT_PODS)
    g_string_append_printf (text, "%spods: %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT " used",
                            text->len ? "; " : "", node->pod_count, node->allocatable.pods);
  return g_string_free (text, FALSE);
}

/* The scheduler's recorded verdict, first, when fitscale's differs, and why it may: a filter
 * fitscale does not model, a snapshot that lacks part of the cluster, or a cluster that
 * changed since the message was written. */
static void
print_disagreement (const FsSnapshot *snapshot, const FsDiagnosis *diagnosis)
{
  printf ("\nThe scheduler recorded: %s\n", diagnosis->recorded);
  printf ("fitscale's verdict differs");
  const char *sep = ": ";
  if (diagnosis->unmodelled->len > 0)
    {
      g_ptr_array_add (diagnosis->unmodelled, NULL);
      g_autofree char *reasons = g_strjoinv ("\", \"", (char **) diagnosis->unmodelled->pdata);
      g_ptr_array_remove_index (diagnosis->unmodelled, diagnosis->unmodelled->len - 1);
      printf ("%sthe scheduler's reasons include \"%s\", from %s fitscale does not model "
              "(docs/filters.md)", sep, reasons, diagnosis->unmodelled->len == 1 ? "a filter" : "filters");
      sep = "; ";
    }
  g_autoptr (GArray) warnings = fs_snapshot_warnings (snapshot, FS_NEEDS_NODES | FS_NEEDS_NODE_USAGE);
  if (warnings->len > 0)
    {
      printf ("%sthe snapshot lacks part of the cluster (the warnings above)", sep);
      sep = "; ";
    }
  printf ("%sor the cluster changed since the message was recorded.\n", sep);
}

static void
print_diagnosis (const FsSnapshot *snapshot, const FsDiagnosis *diagnosis, guint similar,
                 gboolean wide)
{
  const FsPod *pod = diagnosis->pod;
  const FsResources *request = &pod->spec->request;
  g_autofree char *cpu = amount_text ("cpu", request->cpu_milli);
  g_autofree char *memory = amount_text ("memory", request->memory_bytes);
  printf ("Pod %s/%s is %s%s%s; it requests cpu %s, memory %s", pod->namespace, pod->name,
          fs_pod_phase_name (pod->phase), pod->node_name ? " on " : "", pod->node_name ? pod->node_name : "",
          cpu, memory);
  for (guint i = 0; i < request->n_extended; i++)
    printf (", %s %" G_GINT64_FORMAT, request->extended[i].name, request->extended[i].value);
  printf (".\n");
  if (similar > 0 && pod->owner != NULL)
    printf ("%u more Pending pod%s of %s %s ask%s the same.\n", similar, similar == 1 ? "" : "s",
            pod->owner->kind, pod->owner->name, similar == 1 ? "s" : "");
  if (pod->node_name != NULL)
    {
      /* kubectl's Pending with spec.nodeName set: scheduled; its kubelet has yet to run it */
      printf ("\nIt is bound to node %s: the scheduler has placed it%s. It waits for that node's kubelet "
              "(admission, image pulls, volume mounts), not for the scheduler.\n",
              pod->node_name, pod->node_index < 0 ? " (a node this snapshot does not hold)" : "");
      return;
    }
  if (diagnosis->recorded != NULL && !diagnosis->agrees)
    print_disagreement (snapshot, diagnosis);
  if (diagnosis->fits)
    {
      guint passing = 0;
      for (guint i = 0; i < diagnosis->n_nodes; i++)
        passing += diagnosis->nodes[i].verdict.filter == FS_FILTER_PASS;
      if (diagnosis->recorded != NULL && !diagnosis->agrees)
        printf ("\nfitscale finds room on %u node%s, against the scheduler's verdict above: expect the pod "
                "to stay Pending until what it names is resolved.\n", passing, passing == 1 ? "" : "s");
      else
        printf ("\nIt fits on %u node%s now: the scheduler will place it on its next attempt "
                "(or nominated pods of higher priority hold the room).\n", passing,
                passing == 1 ? "" : "s");
      return;
    }
  printf ("\nfitscale: %s\n", diagnosis->message);
  if (diagnosis->recorded != NULL && diagnosis->agrees)
    printf ("recorded: %s\n          (the same as the scheduler's own message)\n", diagnosis->recorded);
  printf ("\n");
  static const char *const headers[] = { "NODE", "FIRST FAILING FILTER", "SHORT" };
  g_autoptr (FsTable) table = fs_table_new (3, headers);
  guint shown = 0;
  for (guint i = 0; i < diagnosis->n_nodes; i++)
    {
      const FsVerdict *verdict = &diagnosis->nodes[i].verdict;
      if (!wide && shown >= 30)
        break;
      g_autoptr (GPtrArray) reasons = g_ptr_array_new_with_free_func (g_free);
      fs_verdict_reasons (verdict, reasons);
      g_ptr_array_add (reasons, NULL);
      g_autofree char *why = g_strjoinv (", ", (char **) reasons->pdata);
      g_autofree char *short_by = short_text (snapshot, i, request, verdict);
      const char *cells[] = { snapshot->nodes[i].name, why[0] ? why : "fits",
                              short_by[0] ? short_by : "-" };
      fs_table_add_row (table, cells);
      shown++;
    }
  fs_table_print (table, stdout);
  if (shown < diagnosis->n_nodes)
    printf ("(%u more nodes: -o wide lists them all)\n", diagnosis->n_nodes - shown);
  if (diagnosis->room_in_total)
    {
      g_autofree char *total = amount_text ("memory", diagnosis->free_total.memory_bytes);
      g_autofree char *largest = amount_text ("memory", diagnosis->largest_free.memory_bytes);
      g_autofree char *total_cpu = amount_text ("cpu", diagnosis->free_total.cpu_milli);
      g_autofree char *largest_cpu = amount_text ("cpu", diagnosis->largest_free.cpu_milli);
      printf ("\nRoom in total, not in one piece: %s memory and %s cpu are free on the nodes it "
              "may use,\nbut at most %s memory and %s cpu on any one of them.\n",
              total, total_cpu, largest, largest_cpu);
    }
  if (diagnosis->fixes->len == 0)
    {
      printf ("\nNo fix found within this snapshot.\n");
      return;
    }
  printf ("\nFixes, each checked against the snapshot:\n");
  for (guint i = 0; i < diagnosis->fixes->len; i++)
    printf ("  - %s\n", g_array_index (diagnosis->fixes, FsFix, i).text);
}

/* ---- which pods --------------------------------------------------------------------- */

static const FsPod *
find_pod (const FsSnapshot *snapshot, const char *argument, const char *namespace, GError **error)
{
  /* "pod/NAME" is kubectl's KIND/NAME, not a namespace */
  if (g_str_has_prefix (argument, "pod/") || g_str_has_prefix (argument, "pods/"))
    argument = strchr (argument, '/') + 1;
  g_autofree char *ns = NULL;
  const char *name = fs_cli_split_name (argument, namespace, &ns);
  const FsPod *pod = fs_snapshot_find_pod (snapshot, ns, name);
  if (pod == NULL)
    g_set_error (error, FS_ERROR, FS_ERROR_NOT_FOUND,
                 "pod \"%s\" not found in namespace \"%s\" of the snapshot", name, ns);
  return pod;
}

static int
run_all (const FsSnapshot *snapshot, const WhyOptions *options, FsOutputFormat format)
{
  const char *namespace = options->all_namespaces ? NULL : fs_cli_namespace (&options->common, options->namespace);
  g_autoptr (FsEmitter) emitter = format == FS_OUTPUT_JSON || format == FS_OUTPUT_YAML
                                      ? fs_emitter_new (format, stdout) : NULL;
  if (emitter != NULL)
    fs_emit_list_open (emitter);
  g_autoptr (GHashTable) owners_seen = g_hash_table_new (NULL, NULL);
  guint diagnosed = 0;
  for (guint i = 0; i < snapshot->n_pods; i++)
    {
      const FsPod *pod = &snapshot->pods[i];
      if (!fs_pod_is_pending (pod) || (namespace != NULL && strcmp (pod->namespace, namespace) != 0)
          || (options->parsed_selector != NULL && !fs_selector_matches (options->parsed_selector, pod->labels)))
        continue;
      /* pods of one owner with one spec are one question */
      if (pod->owner != NULL && !g_hash_table_add (owners_seen, (gpointer) pod->owner))
        continue;
      guint similar = 0;
      for (guint j = i + 1; pod->owner != NULL && j < snapshot->n_pods; j++)
        similar += fs_pod_is_pending (&snapshot->pods[j]) && snapshot->pods[j].owner == pod->owner
                   && snapshot->pods[j].spec == pod->spec;
      g_autoptr (FsDiagnosis) diagnosis = fs_diagnose (snapshot, pod);
      if (emitter != NULL)
        fs_render_diagnosis (emitter, snapshot, diagnosis, similar);
      else
        {
          if (diagnosed > 0)
            printf ("\n%s\n\n", "----");
          print_diagnosis (snapshot, diagnosis, similar, format == FS_OUTPUT_WIDE);
        }
      diagnosed++;
    }
  if (emitter != NULL)
    fs_emit_list_close (emitter);
  else if (diagnosed == 0)
    printf ("No Pending pods without a node%s%s.\n", namespace ? " in namespace " : "",
            namespace ? namespace : "");
  return FS_EXIT_OK;
}

#define WHY_RESOURCES (FS_KUBE_NODES | FS_KUBE_PODS | FS_KUBE_NAMESPACES | FS_KUBE_WORKLOADS \
                       | FS_KUBE_POD_METRICS | FS_KUBE_EVENTS)

/* The answer for one snapshot: every Pending pod (ARGUMENT NULL) or one. */
static int
answer (const FsSnapshot *snapshot, const WhyOptions *options, FsOutputFormat format, const char *argument)
{
  if (argument == NULL)
    return run_all (snapshot, options, format);
  g_autoptr (GError) error = NULL;
  const FsPod *pod = find_pod (snapshot, argument, fs_cli_namespace (&options->common, options->namespace), &error);
  if (pod == NULL)
    return fs_cli_fail (fs_cli_why.name, error);
  g_autoptr (FsDiagnosis) diagnosis = fs_diagnose (snapshot, pod);
  if (format == FS_OUTPUT_JSON || format == FS_OUTPUT_YAML)
    {
      g_autoptr (FsEmitter) emitter = fs_emitter_new (format, stdout);
      fs_render_diagnosis (emitter, snapshot, diagnosis, 0);
    }
  else
    print_diagnosis (snapshot, diagnosis, 0, format == FS_OUTPUT_WIDE);
  return FS_EXIT_OK;
}

/* --watch: answer, then again after every round of watches that changed the cluster (a pod
 * that is not there yet is waited for). */
static int
run_watch (WhyOptions *options, FsOutputFormat format, const char *argument)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FsKubeLive) live = fs_kube_live_open (&options->common.connection, WHY_RESOURCES,
                                                   fs_cli_live_progress (&options->common), NULL, &error);
  if (live == NULL)
    return fs_cli_fail (fs_cli_why.name, error);
  fs_cli_live_opened (fs_cli_why.name, &options->common, live);
  guint timeout = options->watch_timeout > 0 ? (guint) options->watch_timeout : 30;
  int status = FS_EXIT_OK;
  gboolean changed = TRUE;
  for (gint round = 0; options->watch_rounds <= 0 || round <= options->watch_rounds; round++)
    {
      if (changed)
        {
          g_autoptr (FsSnapshot) snapshot = fs_kube_cache_snapshot (live->cache);
          g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
          g_autofree char *stamp = g_date_time_format_iso8601 (now);
          if (round > 0 && format != FS_OUTPUT_JSON && format != FS_OUTPUT_YAML)
            printf ("\n==== %s: the cluster changed\n\n", stamp);
          status = answer (snapshot, options, format, argument);
          fflush (stdout);
        }
      if (options->watch_rounds > 0 && round == options->watch_rounds)
        break;
      if (!fs_kube_cache_watch (live->cache, timeout, &changed, &error))
        {
          status = fs_cli_fail (fs_cli_why.name, error);
          break;
        }
    }
  return status;
}

const FsCliCommand fs_cli_why = {
  .name = "why",
  .parameters = "[NAMESPACE/]POD",
  .summary = "why a pod is Pending, and the smallest fixes",
  .description =
      "Runs kube-scheduler's filters for the pod against every node of the snapshot and\n"
      "prints, per node, the first filter that rejects it and by how much it is short; the\n"
      "FailedScheduling message the scheduler would write (beside the one the cluster\n"
      "recorded, when the snapshot holds it); whether the cluster has room in total but not\n"
      "in one piece; and fixes, each checked against the snapshot: a lower request, new\n"
      "nodes of an existing shape, fewer replicas, a toleration, a relaxed node selector,\n"
      "or the lower-priority pods preemption could evict.",
  .epilogue =
      "Examples:\n"
      "  fitscale why -S cluster.json production/rag-api-7948f7fb7-dc5k8\n"
      "  fitscale why -S examples/rag-api --all -n production\n"
      "  fitscale why -S cluster.json --all -A -o json\n",
  .run = fs_cmd_why,
};

int
fs_cmd_why (int argc, char **argv)
{
  WhyOptions options = { 0 };
  GOptionEntry entries[] = {
    { "namespace", 'n', 0, G_OPTION_ARG_STRING, &options.namespace,
      "The pod's namespace (default: default); with --all, only this namespace", "NS" },
    { "all", 0, 0, G_OPTION_ARG_NONE, &options.all,
      "Every Pending pod without a node (one answer per owner)", NULL },
    { "all-namespaces", 'A', 0, G_OPTION_ARG_NONE, &options.all_namespaces,
      "With --all: in every namespace", NULL },
    { "selector", 'l', 0, G_OPTION_ARG_STRING, &options.selector,
      "With --all: only the pods this label selector picks (key=value, key!=value, key in (a,b), !key, ...)", "SELECTOR" },
    { "watch", 'w', 0, G_OPTION_ARG_NONE, &options.watch,
      "Live only: answer, then watch the cluster and answer again whenever it changes", NULL },
    { "watch-timeout", 0, 0, G_OPTION_ARG_INT, &options.watch_timeout,
      "With --watch: seconds each watch request may stay open (default 30)", "SECONDS" },
    { "watch-rounds", 0, 0, G_OPTION_ARG_INT, &options.watch_rounds,
      "With --watch: stop after this many rounds of watches (default: never)", "N" },
    { NULL }
  };
  g_autoptr (GOptionContext) context = fs_cli_context_new (&fs_cli_why, entries, &options.common, TRUE);
  FsOutputFormat format = FS_OUTPUT_TABLE;
  g_autoptr (GError) error = NULL;
  g_autoptr (FsSnapshot) snapshot = NULL;
  g_autoptr (FsLabelSelector) selector = NULL;
  int status = FS_EXIT_OK;
  if (!g_option_context_parse (context, &argc, &argv, &error)
      || !fs_output_parse (options.common.output, &format, &error))
    status = FS_EXIT_ERROR;
  else if (options.all ? argc != 1 : argc != 2)
    status = fs_cli_usage (&error, "give one pod (NAMESPACE/NAME, or NAME with -n), or --all");
  else if (!fs_cli_parse_selector (options.selector, &selector, &error))
    status = FS_EXIT_ERROR;
  else if ((options.parsed_selector = selector) != NULL && !options.all)
    status = fs_cli_usage (&error, "-l selects among --all");
  else if (options.watch && options.common.snapshot_paths != NULL)
    status = fs_cli_usage (&error, "--watch reads a live cluster: drop --snapshot");
  else if (options.watch)
    status = run_watch (&options, format, options.all ? NULL : argv[1]);
  else if ((snapshot = fs_cli_load (fs_cli_why.name, &options.common, WHY_RESOURCES, &error)) == NULL)
    status = FS_EXIT_ERROR;
  else
    status = answer (snapshot, &options, format, options.all ? NULL : argv[1]);
  if (error != NULL)
    status = fs_cli_fail (fs_cli_why.name, error);
  fs_cli_common_clear (&options.common);
  g_free (options.namespace);
  g_free (options.selector);
  return status;
}
