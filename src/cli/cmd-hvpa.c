/* fitscale hvpa — what the HVPA controller would apply now, ignoring node capacity, and the
 * request-vs-replicas curve of its weights. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "fitscale/model/error.h"
#include "fitscale/plan/hvpaexplain.h"
#include "fitscale/model/timeutil.h"

static const char *const resources[FS_HVPA_N_RESOURCES] = { "cpu", "memory" };

static char *
amount_text (FsHvpaResource resource, int64_t amount)
{
  char text[32];
  return g_strdup (fs_format_amount (resources[resource], amount, text));
}

static void
emit_answer (FsOutputFormat format, const FsHvpaAnswer *answer, FsHvpaSemantics semantics)
{
  const FsHvpaOutput *out = &answer->output;
  g_autoptr (FsEmitter) emitter = fs_emitter_new (format, stdout);
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "namespace");
  fs_emit_string (emitter, answer->hvpa->namespace);
  fs_emit_key (emitter, "name");
  fs_emit_string (emitter, answer->hvpa->name);
  fs_emit_key (emitter, "semantics");
  fs_emit_string (emitter, fs_hvpa_semantics_name (semantics));
  fs_emit_key (emitter, "valid");
  fs_emit_bool (emitter, out->valid);
  if (!out->valid)
    {
      fs_emit_key (emitter, "error");
      fs_emit_string (emitter, out->error);
    }
  fs_emit_key (emitter, "currentReplicas");
  fs_emit_int (emitter, answer->input.current_replicas);
  fs_emit_key (emitter, "hpaDesiredReplicas");
  answer->input.has_hpa_status ? fs_emit_int (emitter, answer->input.desired_replicas)
                               : fs_emit_null (emitter);
  fs_emit_key (emitter, "stage");
  fs_emit_int (emitter, out->stage);
  fs_emit_key (emitter, "vpaWeight");
  fs_emit_decimal (emitter, out->stage_weight, 4);
  fs_emit_key (emitter, "verticalWeight");
  fs_emit_decimal (emitter, out->vertical_weight, 4);
  fs_emit_key (emitter, "weightedReplicas");
  fs_emit_int (emitter, out->weighted_replicas);
  fs_emit_key (emitter, "replicas");
  fs_emit_int (emitter, out->replicas);
  fs_emit_key (emitter, "containers");
  fs_emit_list_open (emitter);
  for (guint i = 0; i < answer->input.n_containers; i++)
    {
      const FsHvpaContainerResult *result = &out->containers[i];
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "name");
      fs_emit_string (emitter, answer->input.containers[i].name);
      const char *const groups[] = { "requests", "limits", "weightedRequests" };
      const int64_t *values[] = { result->request, result->limit, result->weighted_request };
      for (gsize g = 0; g < G_N_ELEMENTS (groups); g++)
        {
          fs_emit_key (emitter, groups[g]);
          fs_emit_map_open (emitter);
          for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
            {
              if (values[g][r] == 0)
                continue;
              g_autofree char *text = amount_text ((FsHvpaResource) r, values[g][r]);
              fs_emit_key (emitter, resources[r]);
              fs_emit_string (emitter, text);
            }
          fs_emit_map_close (emitter);
        }
      fs_emit_map_close (emitter);
    }
  fs_emit_list_close (emitter);
  fs_emit_key (emitter, "blocked");
  fs_emit_list_open (emitter);
  for (guint i = 0; i < out->n_blocked; i++)
    {
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "reason");
      fs_emit_string (emitter, fs_hvpa_blocked_reason_name (out->blocked[i].reason));
      fs_emit_key (emitter, "horizontal");
      fs_emit_bool (emitter, out->blocked[i].horizontal);
      fs_emit_key (emitter, "vertical");
      fs_emit_bool (emitter, out->blocked[i].vertical);
      fs_emit_key (emitter, "message");
      fs_emit_string (emitter, out->blocked[i].message);
      fs_emit_map_close (emitter);
    }
  fs_emit_list_close (emitter);
  fs_emit_map_close (emitter);
}

static void
print_answer (const FsHvpaAnswer *answer, FsHvpaSemantics semantics)
{
  const FsHvpaOutput *out = &answer->output;
  const FsHvpaInput *in = &answer->input;
  printf ("Hvpa %s/%s (%s semantics) scales %s: %d replicas now", answer->hvpa->namespace,
          answer->hvpa->name, fs_hvpa_semantics_name (semantics),
          answer->target->name, in->current_replicas);
  if (in->has_hpa_status)
    printf (", the HPA wants %d%s", in->desired_replicas, in->hpa_scaling_limited ? " (limited)" : "");
  printf (".\n");
  if (!out->valid)
    {
      printf ("The Hvpa is invalid: %s\n", out->error);
      return;
    }
  if (out->stage >= 0)
    {
      const FsHvpaInterval *interval = &in->spec.intervals[out->stage];
      int32_t first = interval->start_replica_count > 0 ? interval->start_replica_count : in->spec.min_replicas;
      int32_t last = interval->last_replica_count > 0 ? interval->last_replica_count : in->spec.max_replicas;
      printf ("Stage %d of %u (replicas %d..%d), vpaWeight %.2f", out->stage + 1,
              in->spec.n_intervals, first, last, out->stage_weight);
    }
  else
    printf ("No stage covers %d replicas: vpaWeight 0", in->current_replicas);
  if (out->vertical_weight != out->stage_weight)
    printf (" (requests weighted %.2f)", out->vertical_weight);
  printf (": replicas %d (weighted %d).\n\n", out->replicas, out->weighted_replicas);
  static const char *const headers[] = { "CONTAINER", "RESOURCE", "CURRENT", "VPA TARGET",
                                         "WEIGHTED", "APPLIED", "LIMIT" };
  g_autoptr (FsTable) table = fs_table_new (7, headers);
  for (guint i = 0; i < in->n_containers; i++)
    for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
      {
        const FsHvpaContainer *container = &in->containers[i];
        const FsHvpaContainerResult *result = &out->containers[i];
        g_autofree char *current = amount_text ((FsHvpaResource) r, container->request[r]);
        g_autofree char *target = container->has_recommendation ? amount_text ((FsHvpaResource) r, container->target[r])
                                                                : g_strdup ("-");
        g_autofree char *weighted = amount_text ((FsHvpaResource) r, result->weighted_request[r]);
        g_autofree char *applied = amount_text ((FsHvpaResource) r, result->request[r]);
        g_autofree char *limit = result->limit[r] > 0 ? amount_text ((FsHvpaResource) r, result->limit[r])
                                                      : g_strdup ("-");
        const char *cells[] = { container->name, resources[r], current, target, weighted, applied, limit };
        fs_table_add_row (table, cells);
      }
  fs_table_print (table, stdout);
  for (guint i = 0; i < out->n_blocked; i++)
    printf ("blocked: %s%s%s: %s\n", fs_hvpa_blocked_reason_name (out->blocked[i].reason),
            out->blocked[i].horizontal ? " (replicas)" : "",
            out->blocked[i].vertical ? " (requests)" : "", out->blocked[i].message);
}

/* The seed's chart: request against replicas, MIN..MAX, as a table and in ASCII. */
static void
print_curve (const FsHvpaAnswer *answer, FsHvpaSemantics semantics)
{
  const FsHvpaInput *in = &answer->input;
  int32_t from = in->spec.min_replicas, to = in->spec.max_replicas;
  if (to - from > 200)
    to = from + 200;
  for (guint i = 0; i < in->n_containers; i++)
    for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
      {
        const FsHvpaContainer *container = &in->containers[i];
        if (!container->has_recommendation)
          continue;
        g_autofree FsHvpaCurvePoint *points = g_new0 (FsHvpaCurvePoint, to - from + 1);
        guint n = fs_hvpa_curve (&in->spec, semantics, (FsHvpaResource) r, container->request[r],
                                 container->target[r], +1, from, to, points);
        printf ("\n%s %s request against replicas (the HPA asking for more at each count):\n",
                container->name, resources[r]);
        static const char *const headers[] = { "REPLICAS", "STAGE", "VPA WEIGHT", "REQUEST" };
        g_autoptr (FsTable) table = fs_table_new (4, headers);
        int64_t low = G_MAXINT64, high = G_MININT64;
        for (guint p = 0; p < n; p++)
          {
            g_autofree char *replicas = g_strdup_printf ("%d", points[p].replicas);
            g_autofree char *stage = g_strdup_printf ("%d", points[p].stage);
            g_autofree char *weight = g_strdup_printf ("%.2f", points[p].weight);
            g_autofree char *request = amount_text ((FsHvpaResource) r, points[p].request);
            const char *cells[] = { replicas, stage, weight, request };
            fs_table_add_row (table, cells);
            low = MIN (low, points[p].request);
            high = MAX (high, points[p].request);
          }
        fs_table_print (table, stdout);
        enum { HEIGHT = 8 };
        for (int row = HEIGHT; row >= 0; row--)
          {
            printf (row == HEIGHT ? "request ^ " : "        | ");
            for (guint p = 0; p < n; p++)
              {
                int level = high > low ? (int) ((points[p].request - low) * HEIGHT / (high - low)) : 0;
                printf ("%s", level == row ? "__" : "  ");
              }
            printf ("\n");
          }
        printf ("        +-");
        for (guint p = 0; p < n; p++)
          printf ("--");
        printf ("> replicas %d..%d\n", from, to);
      }
}

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
  if (!g_option_context_parse (context, &argc, &argv, &error)
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
  else if (format == FS_OUTPUT_JSON || format == FS_OUTPUT_YAML)
    emit_answer (format, answer, semantics);
  else
    {
      print_answer (answer, semantics);
      if (curve)
        print_curve (answer, semantics);
    }
  if (error != NULL)
    status = fs_cli_fail (fs_cli_hvpa.name, error);
  fs_cli_common_clear (&options);
  return status;
}
