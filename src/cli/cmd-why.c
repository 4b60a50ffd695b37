/* fitscale why — why a pod is Pending, and the smallest fixes. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "commands.h"
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
  FsCliWatch watch;
} WhyOptions;

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

/* What the answer for POD cannot say (a filter fitscale does not model), first. */
static void
warn_spec (WhyOptions *options, const FsPod *pod)
{
  g_autofree char *name = g_strdup_printf ("pod %s/%s", pod->namespace, pod->name);
  fs_cli_warn_spec (fs_cli_why.name, &options->common, pod->spec, name);
}

typedef struct {
  const FsPod *pod;
  guint similar;   /* more Pending pods of its owner with its spec */
} Question;

/* The Pending pods --all answers, one per owner and spec, in the snapshot's order; *BOUND
 * counts the Pending pods already bound (the first in *FIRST_BOUND). */
static GArray *
select_questions (const FsSnapshot *snapshot, const WhyOptions *options, const char *namespace, guint *bound,
                  const FsPod **first_bound)
{
  GArray *questions = g_array_new (FALSE, FALSE, sizeof (Question));
  /* key -> 1 + its question's index */
  g_autoptr (GHashTable) seen = g_hash_table_new_full (fs_pod_group_key_hash, fs_pod_group_key_equal, g_free, NULL);
  for (guint i = 0; i < snapshot->n_pods; i++)
    {
      const FsPod *pod = &snapshot->pods[i];
      if ((namespace != NULL && strcmp (pod->namespace, namespace) != 0)
          || (options->parsed_selector != NULL && !fs_selector_matches (options->parsed_selector, pod->labels)))
        continue;
      if (pod->phase == FS_PHASE_PENDING && pod->node_name != NULL && (*bound)++ == 0)
        *first_bound = pod;
      if (!fs_pod_is_pending (pod))
        continue;
      /* pods of one owner with one spec are one question */
      FsPodGroupKey key = { pod->namespace, pod->owner, pod->spec };
      guint asked = pod->owner != NULL ? GPOINTER_TO_UINT (g_hash_table_lookup (seen, &key)) : 0;
      if (asked > 0)
        {
          g_array_index (questions, Question, asked - 1).similar++;
          continue;
        }
      if (pod->owner != NULL)
        g_hash_table_insert (seen, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (questions->len + 1));
      Question question = { pod, 0 };
      g_array_append_val (questions, question);
    }
  return questions;
}

static int
run_all (const FsSnapshot *snapshot, WhyOptions *options, FsOutputFormat format)
{
  const char *namespace = options->all_namespaces ? NULL : fs_cli_namespace (&options->common, options->namespace);
  guint bound = 0;
  const FsPod *first_bound = NULL;
  g_autoptr (GArray) questions = select_questions (snapshot, options, namespace, &bound, &first_bound);
  /* what an answer cannot say goes first, and into the document's warnings */
  for (guint i = 0; i < questions->len; i++)
    warn_spec (options, g_array_index (questions, Question, i).pod);
  g_autoptr (FsEmitter) emitter = format == FS_OUTPUT_JSON || format == FS_OUTPUT_YAML
                                      ? fs_cli_emitter_new (&options->common, format) : NULL;
  if (emitter != NULL)
    fs_emit_list_open (emitter);
  g_autoptr (FsWhySummary) summary = fs_why_summary_new (); /* one line by cause, at the end */
  for (guint i = 0; i < questions->len; i++)
    {
      const Question *question = &g_array_index (questions, Question, i);
      g_autoptr (FsDiagnosis) diagnosis = fs_diagnose (snapshot, question->pod);
      if (emitter != NULL)
        fs_render_diagnosis (emitter, snapshot, diagnosis, question->similar);
      else
        {
          if (i > 0)
            fs_render_diagnosis_separator (stdout);
          fs_render_diagnosis_table (stdout, snapshot, diagnosis, question->similar, format == FS_OUTPUT_WIDE);
          fs_why_summary_add (summary, diagnosis, question->similar);
        }
    }
  if (emitter != NULL)
    fs_emit_list_close (emitter);
  else if (questions->len == 0)
    fs_render_no_pending (stdout, namespace);
  else
    fs_why_summary_print (stdout, summary);
  if (emitter == NULL && bound > 0)
    fs_render_bound_pending (stdout, bound, first_bound);
  return FS_EXIT_OK;
}

#define WHY_RESOURCES (FS_KUBE_NODES | FS_KUBE_PODS | FS_KUBE_NAMESPACES | FS_KUBE_WORKLOADS | FS_KUBE_HPAS \
                       | FS_KUBE_POD_METRICS | FS_KUBE_EVENTS | FS_KUBE_STORAGE | FS_KUBE_PDBS)

/* The answer for one snapshot: every Pending pod (ARGUMENT NULL) or one. */
static int
answer (const FsSnapshot *snapshot, WhyOptions *options, FsOutputFormat format, const char *argument)
{
  if (argument == NULL)
    return run_all (snapshot, options, format);
  g_autoptr (GError) error = NULL;
  const FsPod *pod = find_pod (snapshot, argument, fs_cli_namespace (&options->common, options->namespace), &error);
  if (pod == NULL)
    return fs_cli_fail (fs_cli_why.name, error);
  warn_spec (options, pod);
  g_autoptr (FsDiagnosis) diagnosis = fs_diagnose (snapshot, pod);
  if (format == FS_OUTPUT_JSON || format == FS_OUTPUT_YAML)
    {
      g_autoptr (FsEmitter) emitter = fs_cli_emitter_new (&options->common, format);
      fs_render_diagnosis (emitter, snapshot, diagnosis, 0);
    }
  else
    fs_render_diagnosis_table (stdout, snapshot, diagnosis, 0, format == FS_OUTPUT_WIDE);
  return FS_EXIT_OK;
}

typedef struct {
  WhyOptions *options;
  FsOutputFormat format;
  const char *argument;
} WatchedQuestion;

static int
answer_watched (const FsSnapshot *snapshot, gpointer data)
{
  WatchedQuestion *question = data;
  return answer (snapshot, question->options, question->format, question->argument);
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
      "in one piece; the pods the scheduler will preempt by itself (DefaultPreemption, with\n"
      "the PodDisruptionBudgets that costs); and fixes, each checked against the snapshot: a\n"
      "lower request, new nodes of an existing shape, fewer replicas, a toleration, a relaxed\n"
      "node selector.",
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
  WhyOptions options = { .watch.timeout = 300, .watch.metrics_interval = 15 };
  GOptionEntry entries[] = {
    { "namespace", 'n', 0, G_OPTION_ARG_STRING, &options.namespace,
      "The pod's namespace (default: default); with --all, only this namespace", "NS" },
    { "all", 0, 0, G_OPTION_ARG_NONE, &options.all,
      "Every Pending pod without a node (one answer per owner)", NULL },
    { "all-namespaces", 'A', 0, G_OPTION_ARG_NONE, &options.all_namespaces,
      "Every Pending pod of every namespace (implies --all)", NULL },
    { "selector", 'l', 0, G_OPTION_ARG_STRING, &options.selector,
      "With --all: only the pods this label selector picks (key=value, key!=value, key in (a,b), !key, ...)", "SELECTOR" },
    FS_CLI_WATCH_ENTRIES (options.watch),
    { NULL }
  };
  g_autoptr (GOptionContext) context = fs_cli_context_new (&fs_cli_why, entries, &options.common, TRUE);
  FsOutputFormat format = FS_OUTPUT_TABLE;
  g_autoptr (GError) error = NULL;
  g_autoptr (FsSnapshot) snapshot = NULL;
  g_autoptr (FsLabelSelector) selector = NULL;
  int status = FS_EXIT_OK;
  if (!fs_cli_parse (context, &argc, &argv, &error)
      || !fs_cli_output_parse (options.common.output, &format, &error))
    status = FS_EXIT_ERROR;
  else if (!fs_cli_watch_check (&options.watch, &options.common, &error))
    status = FS_EXIT_ERROR;
  else if ((options.all = options.all || options.all_namespaces) ? argc != 1 : argc != 2)
    status = fs_cli_usage (&error, "give one pod (NAMESPACE/NAME, or NAME with -n), or --all");
  else if (!fs_cli_parse_selector (options.selector, &selector, &error))
    status = FS_EXIT_ERROR;
  else if ((options.parsed_selector = selector) != NULL && !options.all)
    status = fs_cli_usage (&error, "-l selects among --all");
  else if (options.watch.watch)
    status = fs_cli_watch (&fs_cli_why, &options.common, &options.watch, WHY_RESOURCES, format, answer_watched,
                           &(WatchedQuestion){ &options, format, options.all ? NULL : argv[1] });
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
