/* fitscale why — why a pod is Pending, and the smallest fixes. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "fitscale/model/error.h"
#include "fitscale/model/selector.h"
#include "fitscale/plan/why.h"

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

static const char *const fix_kinds[] = {
  [FS_FIX_LOWER_REQUEST] = "LowerRequest", [FS_FIX_ADD_NODES] = "AddNodes",
  [FS_FIX_LOWER_REPLICAS] = "LowerReplicas", [FS_FIX_TOLERATE_TAINT] = "TolerateTaint",
  [FS_FIX_RELAX_AFFINITY] = "RelaxNodeAffinity", [FS_FIX_PREEMPT] = "Preemption",
  [FS_FIX_UNCORDON] = "Uncordon",
};

static const char *
phase_name (FsPodPhase phase)
{
  static const char *const names[] = { "Unknown", "Pending", "Running", "Succeeded", "Failed" };
  return names[phase];
}

/* ---- JSON / YAML -------------------------------------------------------------------- */

static void
emit_fix (FsEmitter *emitter, const FsFix *fix)
{
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "type");
  fs_emit_string (emitter, fix_kinds[fix->kind]);
  fs_emit_key (emitter, "text");
  fs_emit_string (emitter, fix->text);
  if (fix->kind == FS_FIX_LOWER_REQUEST)
    {
      fs_emit_key (emitter, "request");
      fs_emit_resources (emitter, &fix->request, FALSE);
    }
  if (fix->node != NULL)
    {
      fs_emit_key (emitter, "node");
      fs_emit_string (emitter, fix->node);
    }
  if (fix->shape != NULL)
    {
      fs_emit_key (emitter, fix->kind == FS_FIX_ADD_NODES ? "nodeShape" : "taints");
      fs_emit_string (emitter, fix->shape);
    }
  if (fix->kind != FS_FIX_LOWER_REQUEST)
    {
      fs_emit_key (emitter, fix->kind == FS_FIX_LOWER_REPLICAS ? "replicas"
                            : fix->kind == FS_FIX_PREEMPT      ? "victimCount"
                                                               : "nodes");
      fs_emit_int (emitter, fix->count);
    }
  if (fix->victims != NULL)
    {
      fs_emit_key (emitter, "victims");
      fs_emit_list_open (emitter);
      for (guint i = 0; i < fix->victims->len; i++)
        fs_emit_string (emitter, fix->victims->pdata[i]);
      fs_emit_list_close (emitter);
    }
  fs_emit_map_close (emitter);
}

void
fs_cli_emit_diagnosis (FsEmitter *emitter, const FsSnapshot *snapshot, const FsDiagnosis *diagnosis,
                       guint similar)
{
  const FsPod *pod = diagnosis->pod;
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "pod");
  fs_emit_string (emitter, pod->name);
  fs_emit_key (emitter, "namespace");
  fs_emit_string (emitter, pod->namespace);
  fs_emit_key (emitter, "phase");
  fs_emit_string (emitter, phase_name (pod->phase));
  fs_emit_key (emitter, "nodeName");
  fs_emit_string (emitter, pod->node_name);
  if (pod->owner != NULL)
    {
      fs_emit_key (emitter, "owner");
      g_autofree char *owner = g_strdup_printf ("%s/%s", pod->owner->kind, pod->owner->name);
      fs_emit_string (emitter, owner);
    }
  if (similar > 0)
    {
      fs_emit_key (emitter, "samePendingPods");
      fs_emit_int (emitter, similar);
    }
  fs_emit_key (emitter, "fits");
  fs_emit_bool (emitter, diagnosis->fits);
  fs_emit_key (emitter, "message");
  fs_emit_string (emitter, diagnosis->message);
  fs_emit_key (emitter, "recordedMessage");
  fs_emit_string (emitter, diagnosis->recorded);
  fs_emit_key (emitter, "agrees");
  diagnosis->recorded != NULL && diagnosis->message != NULL ? fs_emit_bool (emitter, diagnosis->agrees)
                                                            : fs_emit_null (emitter);
  fs_emit_key (emitter, "effectiveRequest");
  fs_emit_resources (emitter, &pod->spec->request, FALSE);
  fs_emit_key (emitter, "nodes");
  fs_emit_list_open (emitter);
  for (guint i = 0; i < diagnosis->n_nodes; i++)
    {
      const FsNodeFit *fit = &diagnosis->nodes[i];
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "name");
      fs_emit_string (emitter, snapshot->nodes[i].name);
      fs_emit_key (emitter, "fits");
      fs_emit_bool (emitter, fit->verdict.filter == FS_FILTER_PASS);
      fs_emit_key (emitter, "reasons");
      fs_emit_list_open (emitter);
      g_autoptr (GPtrArray) reasons = g_ptr_array_new_with_free_func (g_free);
      fs_verdict_reasons (&fit->verdict, reasons);
      for (guint r = 0; r < reasons->len; r++)
        fs_emit_string (emitter, reasons->pdata[r]);
      fs_emit_list_close (emitter);
      fs_emit_key (emitter, "short");
      fs_emit_resources (emitter, &fit->verdict.short_by, FALSE);
      fs_emit_map_close (emitter);
    }
  fs_emit_list_close (emitter);
  fs_emit_key (emitter, "roomInTotal");
  fs_emit_bool (emitter, diagnosis->room_in_total);
  fs_emit_key (emitter, "freeTotal");
  fs_emit_resources (emitter, &diagnosis->free_total, TRUE);
  fs_emit_key (emitter, "largestFree");
  fs_emit_resources (emitter, &diagnosis->largest_free, TRUE);
  fs_emit_key (emitter, "fixes");
  fs_emit_list_open (emitter);
  for (guint i = 0; i < diagnosis->fixes->len; i++)
    emit_fix (emitter, &g_array_index (diagnosis->fixes, FsFix, i));
  fs_emit_list_close (emitter);
  fs_emit_map_close (emitter);
}

/* ---- tables ------------------------------------------------------------------------- */

static char *
amount_text (const char *name, int64_t amount)
{
  char text[32];
  if ((strcmp (name, "memory") == 0 || strcmp (name, "ephemeral-storage") == 0)
      && (amount >= (1 << 30) || amount <= -(1 << 30)))
    return g_strdup_printf ("%.1fGi", (double) amount / (1 << 30));
  if (strcmp (name, "memory") == 0 && (amount >= (1 << 20) || amount <= -(1 << 20)))
    return g_strdup_printf ("%.0fMi", (double) amount / (1 << 20));
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

static void
print_diagnosis (const FsSnapshot *snapshot, const FsDiagnosis *diagnosis, guint similar,
                 gboolean wide)
{
  const FsPod *pod = diagnosis->pod;
  const FsResources *request = &pod->spec->request;
  g_autofree char *cpu = amount_text ("cpu", request->cpu_milli);
  g_autofree char *memory = amount_text ("memory", request->memory_bytes);
  printf ("Pod %s/%s is %s%s%s; it requests cpu %s, memory %s", pod->namespace, pod->name,
          phase_name (pod->phase), pod->node_name ? " on " : "", pod->node_name ? pod->node_name : "",
          cpu, memory);
  for (guint i = 0; i < request->n_extended; i++)
    printf (", %s %" G_GINT64_FORMAT, request->extended[i].name, request->extended[i].value);
  printf (".\n");
  if (similar > 0 && pod->owner != NULL)
    printf ("%u more Pending pod%s of %s %s ask%s the same.\n", similar, similar == 1 ? "" : "s",
            pod->owner->kind, pod->owner->name, similar == 1 ? "s" : "");
  if (diagnosis->fits)
    {
      guint passing = 0;
      for (guint i = 0; i < diagnosis->n_nodes; i++)
        passing += diagnosis->nodes[i].verdict.filter == FS_FILTER_PASS;
      printf ("\nIt fits on %u node%s now: the scheduler will place it on its next attempt "
              "(or nominated pods of higher priority hold the room).\n", passing,
              passing == 1 ? "" : "s");
      return;
    }
  printf ("\nfitscale: %s\n", diagnosis->message);
  if (diagnosis->recorded != NULL)
    printf ("recorded: %s\n          %s\n", diagnosis->recorded,
            diagnosis->agrees ? "(the same as the scheduler's own message)"
                              : "(differs: the cluster changed since, or the scheduler weighed "
                                "something this snapshot does not hold)");
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

static gboolean
is_pending (const FsPod *pod)
{
  return fs_pod_is_pending (pod);
}

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
      if (!is_pending (pod) || (namespace != NULL && strcmp (pod->namespace, namespace) != 0)
          || (options->parsed_selector != NULL && !fs_selector_matches (options->parsed_selector, pod->labels)))
        continue;
      /* pods of one owner with one spec are one question */
      if (pod->owner != NULL && !g_hash_table_add (owners_seen, (gpointer) pod->owner))
        continue;
      guint similar = 0;
      for (guint j = i + 1; pod->owner != NULL && j < snapshot->n_pods; j++)
        similar += is_pending (&snapshot->pods[j]) && snapshot->pods[j].owner == pod->owner
                   && snapshot->pods[j].spec == pod->spec;
      g_autoptr (FsDiagnosis) diagnosis = fs_diagnose (snapshot, pod);
      if (emitter != NULL)
        fs_cli_emit_diagnosis (emitter, snapshot, diagnosis, similar);
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
    return fs_cli_fail ("why", error);
  g_autoptr (FsDiagnosis) diagnosis = fs_diagnose (snapshot, pod);
  if (format == FS_OUTPUT_JSON || format == FS_OUTPUT_YAML)
    {
      g_autoptr (FsEmitter) emitter = fs_emitter_new (format, stdout);
      fs_cli_emit_diagnosis (emitter, snapshot, diagnosis, 0);
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
  FsCliLive live;
  if (!fs_cli_live_open ("why", &options->common, WHY_RESOURCES, &live))
    return FS_EXIT_ERROR;
  guint timeout = options->watch_timeout > 0 ? (guint) options->watch_timeout : 30;
  int status = FS_EXIT_OK;
  gboolean changed = TRUE;
  for (gint round = 0; options->watch_rounds <= 0 || round <= options->watch_rounds; round++)
    {
      if (changed)
        {
          g_autoptr (FsSnapshot) snapshot = fs_kube_cache_snapshot (live.cache);
          g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
          g_autofree char *stamp = g_date_time_format_iso8601 (now);
          if (round > 0 && format != FS_OUTPUT_JSON && format != FS_OUTPUT_YAML)
            printf ("\n==== %s: the cluster changed\n\n", stamp);
          status = answer (snapshot, options, format, argument);
          fflush (stdout);
        }
      if (options->watch_rounds > 0 && round == options->watch_rounds)
        break;
      g_autoptr (GError) error = NULL;
      if (!fs_kube_cache_watch (live.cache, timeout, &changed, &error))
        {
          status = fs_cli_fail ("why", error);
          break;
        }
    }
  fs_cli_live_close (&live);
  return status;
}

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
  g_autoptr (GOptionContext) context = g_option_context_new ("[NAMESPACE/]POD - why a pod is Pending");
  g_option_context_set_summary (
      context,
      "Runs kube-scheduler's filters for the pod against every node of the snapshot and\n"
      "prints, per node, the first filter that rejects it and by how much it is short; the\n"
      "FailedScheduling message the scheduler would write (beside the one the cluster\n"
      "recorded, when the snapshot holds it); whether the cluster has room in total but not\n"
      "in one piece; and fixes, each checked against the snapshot: a lower request, new\n"
      "nodes of an existing shape, fewer replicas, a toleration, a relaxed node selector,\n"
      "or the lower-priority pods preemption could evict.");
  g_option_context_set_description (context,
                                    "Examples:\n"
                                    "  fitscale why -S cluster.json production/rag-api-7948f7fb7-dc5k8\n"
                                    "  fitscale why -S examples/rag-api --all -n production\n"
                                    "  fitscale why -S cluster.json --all -A -o json\n");
  g_option_context_add_main_entries (context, entries, NULL);
  fs_cli_add_common (context, &options.common, TRUE);
  FsOutputFormat format = FS_OUTPUT_TABLE;
  g_autoptr (GError) error = NULL;
  g_autoptr (FsSnapshot) snapshot = NULL;
  g_autoptr (FsLabelSelector) selector = NULL;
  int status = FS_EXIT_OK;
  if (!fs_cli_parse (context, "why", &argc, &argv))
    status = FS_EXIT_ERROR;
  else if (!fs_output_parse (options.common.output, &format, &error))
    status = fs_cli_fail ("why", error);
  else if (options.all ? argc != 1 : argc != 2)
    {
      fprintf (stderr, "fitscale why: give one pod (NAMESPACE/NAME, or NAME with -n), or --all\n");
      status = FS_EXIT_ERROR;
    }
  else if (options.selector != NULL
           && (options.parsed_selector = selector = fs_label_selector_parse (options.selector, &error)) == NULL)
    {
      g_prefix_error (&error, "-l: ");
      status = fs_cli_fail ("why", error);
    }
  else if (options.selector != NULL && !options.all)
    {
      fprintf (stderr, "fitscale why: -l selects among --all\n");
      status = FS_EXIT_ERROR;
    }
  else if (options.watch && options.common.snapshot_paths != NULL)
    {
      fprintf (stderr, "fitscale why: --watch reads a live cluster: drop --snapshot\n");
      status = FS_EXIT_ERROR;
    }
  else if (options.watch)
    status = run_watch (&options, format, options.all ? NULL : argv[1]);
  else if ((snapshot = fs_cli_load ("why", &options.common, WHY_RESOURCES)) == NULL)
    status = FS_EXIT_ERROR;
  else
    status = answer (snapshot, &options, format, options.all ? NULL : argv[1]);
  fs_cli_common_clear (&options.common);
  g_free (options.namespace);
  g_free (options.selector);
  return status;
}
