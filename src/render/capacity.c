/* fitscale — the capacity document (see include/fitscale/render/capacity.h). */
#include "config.h"

#include <stdio.h>

#include "fitscale/render/capacity.h"
#include "fitscale/render/nodes-needed.h"

static void
emit_shape (FsEmitter *emitter, const FsShape *shape)
{
  const FsPodShape *pod = fs_shape_pod (shape);
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "from");
  fs_emit_string (emitter, fs_shape_describe (shape));
  fs_emit_key (emitter, "namespace");
  fs_emit_string (emitter, pod->namespace);
  fs_emit_key (emitter, "effectiveRequest");
  fs_emit_resources (emitter, &pod->spec->request, FALSE);
  fs_emit_map_close (emitter);
}

/* Per node: the replicas that fit and were placed, why not more, and by how much. */
static void
emit_nodes (FsEmitter *emitter, const FsSnapshot *snapshot, const FsCapacityAnswer *answer)
{
  fs_emit_list_open (emitter);
  for (guint i = 0; i < answer->n_nodes; i++)
    {
      const FsNodeFit *fit = &answer->nodes[i];
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "name");
      fs_emit_string (emitter, snapshot->nodes[i].name);
      fs_emit_key (emitter, "fits");
      fs_emit_int (emitter, fit->capacity);
      fs_emit_key (emitter, "placed");
      fs_emit_int (emitter, fit->placed);
      fs_emit_key (emitter, "reasons");
      fs_emit_reasons (emitter, &fit->verdict);
      if (fit->verdict.filter == FS_FILTER_NODE_RESOURCES_FIT)
        {
          fs_emit_key (emitter, "short");
          fs_emit_resources (emitter, &fit->verdict.short_by, FALSE);
        }
      fs_emit_map_close (emitter);
    }
  fs_emit_list_close (emitter);
}

static void
emit_fragmentation (FsEmitter *emitter, const FsCapacityAnswer *answer)
{
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "eligibleNodes");
  fs_emit_int (emitter, answer->eligible_nodes);
  fs_emit_key (emitter, "freeTotal");
  fs_emit_resources (emitter, &answer->free_total, TRUE);
  fs_emit_key (emitter, "largestFree");
  fs_emit_resources (emitter, &answer->largest_free, TRUE);
  fs_emit_map_close (emitter);
}

void
fs_render_capacity (FsEmitter *emitter, const FsSnapshot *snapshot, const FsShape *shape,
                    const FsCapacityAnswer *answer, int64_t replicas)
{
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "shape");
  emit_shape (emitter, shape);
  fs_emit_key (emitter, "capacity");
  fs_emit_int (emitter, answer->pack.capacity);
  fs_emit_key (emitter, "limitedBy");
  fs_emit_string (emitter, fs_pack_limit_name (answer->pack.limited_by));
  if (replicas >= 0)
    {
      fs_emit_key (emitter, "replicas");
      fs_emit_int (emitter, replicas);
      fs_emit_key (emitter, "fits");
      fs_emit_bool (emitter, answer->pack.pending == 0);
      fs_emit_key (emitter, "placed");
      fs_emit_int (emitter, answer->pack.placed);
      fs_emit_key (emitter, "pending");
      fs_emit_int (emitter, answer->pack.pending);
    }
  fs_emit_key (emitter, "nodes");
  emit_nodes (emitter, snapshot, answer);
  fs_emit_key (emitter, "fragmentation");
  emit_fragmentation (emitter, answer);
  fs_emit_key (emitter, "nodesNeeded");
  fs_emit_nodes_needed (emitter, answer->estimates);
  fs_render_unmodelled_fields (emitter, answer->recorded_pod, answer->unmodelled);
  fs_emit_map_close (emitter);
}

void
fs_render_unmodelled_fields (FsEmitter *emitter, const FsPod *pod, const GPtrArray *reasons)
{
  fs_emit_key (emitter, "unmodelledReasons"); /* docs/filters.md */
  fs_emit_list_open (emitter);
  for (guint i = 0; i < reasons->len; i++)
    fs_emit_string (emitter, reasons->pdata[i]);
  fs_emit_list_close (emitter);
  fs_emit_key (emitter, "recordedMessage");
  fs_emit_string (emitter, pod != NULL ? pod->scheduled_message : NULL);
}

void
fs_render_unmodelled_note (FILE *out, const FsPod *pod, const GPtrArray *reasons)
{
  if (pod == NULL)
    return;
  GString *quoted = g_string_new (NULL);
  for (guint i = 0; i < reasons->len; i++)
    g_string_append_printf (quoted, "%s\"%s\"", i == 0 ? "" : i + 1 == reasons->len ? " and " : ", ",
                            (const char *) reasons->pdata[i]);
  g_autofree char *recorded = fs_terminal_safe (pod->scheduled_message);
  FS_SCRATCH (safe_names);
  fprintf (out, "The scheduler recorded for pod %s/%s: %s\n", fs_safe (safe_names, pod->namespace),
           fs_safe (safe_names, pod->name), recorded);
  g_autofree char *safe = fs_terminal_safe (quoted->str);
  fprintf (out, "Its reasons include %s, which the answer below does not count (docs/filters.md, \"Not "
           "modelled\").\n\n", safe);
  g_string_free (quoted, TRUE);
}

/* ---- --vary --------------------------------------------------------------------------- */

void
fs_render_capacity_frontier (FsEmitter *emitter, const FsShape *shape, const char *name,
                             const GArray *points)
{
  char text[32];
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "shape");
  fs_emit_string (emitter, fs_shape_describe (shape));
  fs_emit_key (emitter, "resource");
  fs_emit_string (emitter, name);
  fs_emit_key (emitter, "frontier");
  fs_emit_list_open (emitter);
  for (guint i = 0; i < points->len; i++)
    {
      const FsFrontierPoint *point = &g_array_index (points, FsFrontierPoint, i);
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "request");
      fs_emit_string (emitter, fs_format_amount (name, point->amount, text));
      fs_emit_key (emitter, "replicas");
      fs_emit_int (emitter, point->capacity);
      fs_emit_map_close (emitter);
    }
  fs_emit_list_close (emitter);
  fs_emit_map_close (emitter);
}

void
fs_render_capacity_frontier_table (FILE *out, const char *name, const GArray *points)
{
  char text[32];
  g_autofree char *header = g_ascii_strup (name, -1);
  const char *headers[] = { header, "REPLICAS THAT FIT" };
  g_autoptr (FsTable) table = fs_table_new (2, headers);
  for (guint i = 0; i < points->len; i++)
    {
      const FsFrontierPoint *point = &g_array_index (points, FsFrontierPoint, i);
      g_autofree char *count = g_strdup_printf ("%" G_GINT64_FORMAT, point->capacity);
      const char *cells[] = { fs_format_for_people (name, point->amount, text), count };
      fs_table_add_row (table, cells);
    }
  fs_table_print (table, out);
}

/* ---- the table ------------------------------------------------------------------------ */

static char *
reasons_text (const FsVerdict *verdict)
{
  g_autoptr (GPtrArray) reasons = g_ptr_array_new_with_free_func (g_free);
  fs_verdict_reasons (verdict, reasons);
  g_ptr_array_add (reasons, NULL);
  return g_strjoinv (", ", (char **) reasons->pdata);
}

static char *
human_amount (const char *name, int64_t amount)
{
  char text[32];
  return g_strdup (fs_format_for_people (name, amount, text));
}

/* One free line: in total, on the largest piece, and what one replica asks. */
static void
print_free_line (FILE *out, const char *name, const FsResources *request, const FsCapacityAnswer *answer)
{
  int64_t want = fs_resources_get (request, name);
  int64_t total = fs_resources_get (&answer->free_total, name);
  int64_t largest = fs_resources_get (&answer->largest_free, name);
  if (want <= 0)
    return;
  g_autofree char *total_text = human_amount (name, total);
  g_autofree char *largest_text = human_amount (name, largest);
  g_autofree char *want_text = human_amount (name, want);
  const char *verdict = largest >= want ? ""
                        : total >= want ? "  <- room in total, not in one piece"
                                        : "  <- not enough in total";
  g_autofree char *safe_name = fs_terminal_safe (name);
  fprintf (out, "  %-7s %s in total, %s at most on one node; one replica asks %s%s\n", safe_name, total_text,
           largest_text, want_text, verdict);
}

/* Every resource one replica requests: cpu, memory, ephemeral-storage and each extended one. */
static void
print_fragmentation (FILE *out, const FsPodShape *pod, const FsCapacityAnswer *answer)
{
  const FsResources *request = &pod->spec->request;
  if (answer->n_nodes == 0)
    {
      fprintf (out, "\nThe snapshot holds no node.\n");
      return;
    }
  if (answer->eligible_nodes == 0)
    {
      /* no free room to weigh: a filter before or beside the resources keeps every node */
      fprintf (out, "\nNo node this shape may use: each rejects it by a filter other than "
               "NodeResourcesFit (the table above).\n");
      return;
    }
  fprintf (out, "\nFree on the %u node%s this shape may use:\n", answer->eligible_nodes,
           answer->eligible_nodes == 1 ? "" : "s");
  static const char *const fixed[] = { "cpu", "memory", "ephemeral-storage" };
  for (gsize i = 0; i < G_N_ELEMENTS (fixed); i++)
    print_free_line (out, fixed[i], request, answer);
  for (guint i = 0; i < request->n_extended; i++)
    print_free_line (out, request->extended[i].name, request, answer);
  /* pod slots, as nodes' PODS column counts them (fs_node_room), when they bound a node */
  gboolean slots_bound = FALSE;
  for (guint i = 0; i < answer->n_nodes; i++)
    slots_bound = slots_bound || ((answer->nodes[i].verdict.short_bits | answer->nodes[i].limit.short_bits) & FS_SHORT_PODS);
  if (slots_bound)
    fprintf (out, "  %-7s %" G_GINT64_FORMAT " in total, %" G_GINT64_FORMAT " at most on one node; one replica takes 1%s\n",
             "pods", answer->free_total.pods, answer->largest_free.pods,
             answer->largest_free.pods >= 1 ? "" : "  <- not enough in total");
}

/* "cpu=500m,memory=3Gi,nvidia.com/gpu=1" ("" for nothing). */
static char *
request_text (const FsPodShape *pod)
{
  GString *text = g_string_new (NULL);
  char amount[32];
  if (pod->spec->request.cpu_milli > 0)
    g_string_append_printf (text, "cpu=%s", fs_format_for_people ("cpu", pod->spec->request.cpu_milli, amount));
  if (pod->spec->request.memory_bytes > 0)
    g_string_append_printf (text, "%smemory=%s", text->len ? "," : "",
                            fs_format_for_people ("memory", pod->spec->request.memory_bytes, amount));
  if (pod->spec->request.ephemeral_bytes > 0)
    g_string_append_printf (text, "%sephemeral-storage=%s", text->len ? "," : "",
                            fs_format_for_people ("ephemeral-storage", pod->spec->request.ephemeral_bytes, amount));
  for (guint i = 0; i < pod->spec->request.n_extended; i++)
    g_string_append_printf (text, "%s%s=%s", text->len ? "," : "", pod->spec->request.extended[i].name,
                            fs_format_for_people (pod->spec->request.extended[i].name,
                                                  pod->spec->request.extended[i].value, amount));
  return g_string_free (text, FALSE);
}

static void
print_shape (FILE *out, const FsSnapshot *snapshot, const FsShape *shape)
{
  const FsPodShape *pod = fs_shape_pod (shape);
  g_autofree char *request = request_text (pod);
  FS_SCRATCH (safe);
  fprintf (out, "Shape: %s (namespace %s), effective request %s\n", fs_safe (safe, fs_shape_describe (shape)),
           fs_safe (safe, pod->namespace), request[0] ? fs_safe (safe, request) : "nothing");
  guint replaced = fs_capacity_replaced_pods (snapshot, fs_shape_workload (shape));
  if (replaced > 0)
    fprintf (out, "The workload's %u existing pod%s on nodes %s not counted: the replicas replace them.\n",
             replaced, replaced == 1 ? "" : "s", replaced == 1 ? "is" : "are");
  fprintf (out, "\n");
}

static void
print_nodes (FILE *out, gboolean wide, const FsSnapshot *snapshot, const FsCapacityAnswer *answer,
             int64_t replicas)
{
  static const char *const headers[] = { "NODE", "FITS", "PLACED", "WHY NOT MORE" };
  g_autoptr (FsTable) table = fs_table_new (replicas >= 0 ? 4 : 3, replicas >= 0 ? headers
                                            : (const char *const[]){ "NODE", "FITS", "WHY NOT MORE" });
  guint hidden = 0;
  for (guint i = 0; i < answer->n_nodes; i++)
    {
      const FsNodeFit *fit = &answer->nodes[i];
      g_autofree char *fits = g_strdup_printf ("%" G_GINT64_FORMAT, fit->capacity);
      g_autofree char *placed = g_strdup_printf ("%" G_GINT64_FORMAT, fit->placed);
      /* a node the skew rejects for the first replica may still take some later (topology
       * spread): what stops it then is its limit */
      g_autofree char *why = fit->capacity > 0 ? reasons_text (&fit->limit)
                             : fit->verdict.filter != FS_FILTER_PASS ? reasons_text (&fit->verdict)
                             : fit->limit.filter != FS_FILTER_PASS ? reasons_text (&fit->limit)
                                                                   : g_strdup ("");
      if (!wide && fit->capacity == 0 && fit->verdict.filter != FS_FILTER_PASS
          && fit->verdict.filter != FS_FILTER_NODE_RESOURCES_FIT && answer->n_nodes > 20)
        {
          hidden++; /* long lists: show the nodes that matter; -o wide shows all */
          continue;
        }
      const char *with_placed[] = { snapshot->nodes[i].name, fits, placed, why[0] ? why : "-" };
      const char *without[] = { snapshot->nodes[i].name, fits, why[0] ? why : "-" };
      fs_table_add_row (table, replicas >= 0 ? with_placed : without);
    }
  fs_table_print (table, out);
  if (hidden > 0)
    fprintf (out, "(and %u node%s that reject%s it for another reason than room; -o wide lists %s)\n", hidden,
             hidden == 1 ? "" : "s", hidden == 1 ? "s" : "", hidden == 1 ? "it" : "them");
}

/* New nodes of each existing shape that would hold the replicas left Pending. */
static void
print_estimates (FILE *out, const FsCapacityAnswer *answer)
{
  guint choices = fs_nodes_needed_complete (answer->estimates);
  fprintf (out, "New nodes for the %" G_GINT64_FORMAT " Pending replica%s (cluster-autoscaler's estimate, per "
           "existing node shape, packed with the pod's filters)%s:\n", answer->pack.pending,
           answer->pack.pending == 1 ? "" : "s", choices > 1 ? ", one of these" : "");
  if (answer->estimates->len == 0)
    fprintf (out, "  none: the snapshot holds no node to copy\n");
  fs_print_nodes_needed (out, "  ", FALSE, answer->estimates);
}

void
fs_render_capacity_table (FILE *out, gboolean wide, const FsSnapshot *snapshot, const FsShape *shape,
                          const FsCapacityAnswer *answer, int64_t replicas)
{
  fs_render_unmodelled_note (out, answer->recorded_pod, answer->unmodelled);
  print_shape (out, snapshot, shape);
  print_nodes (out, wide, snapshot, answer, replicas);
  fprintf (out, "\n%" G_GINT64_FORMAT " replica%s fit%s in all (limited by %s).\n", answer->pack.capacity,
           answer->pack.capacity == 1 ? "" : "s", answer->pack.capacity == 1 ? "s" : "",
           fs_pack_limit_name (answer->pack.limited_by));
  print_fragmentation (out, fs_shape_pod (shape), answer);
  if (replicas < 0)
    return;
  fprintf (out, "\n--replicas %" G_GINT64_FORMAT ": %s; %" G_GINT64_FORMAT " placed, %" G_GINT64_FORMAT
           " would stay Pending.\n", replicas,
           answer->pack.pending == 0 ? (replicas == 1 ? "it fits" : "all fit")
                                     : (replicas == 1 ? "it does not fit" : "they do not all fit"),
           answer->pack.placed, answer->pack.pending);
  if (answer->pack.pending == 0)
    return;
  print_estimates (out, answer);
}
