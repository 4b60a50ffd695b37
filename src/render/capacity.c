/* fitscale — the capacity document (see include/fitscale/render/capacity.h). */
#include "config.h"

#include <stdio.h>

#include "fitscale/render/capacity.h"

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

/* New nodes of each existing shape that would hold the rest (null: one cannot hold one). */
static void
emit_nodes_needed (FsEmitter *emitter, const GArray *estimates)
{
  fs_emit_list_open (emitter);
  for (guint i = 0; i < estimates->len; i++)
    {
      const FsNodeShapeEstimate *estimate = &g_array_index (estimates, FsNodeShapeEstimate, i);
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "shape");
      fs_emit_string (emitter, estimate->shape);
      fs_emit_key (emitter, "existing");
      fs_emit_int (emitter, estimate->existing);
      fs_emit_key (emitter, "perNode");
      fs_emit_int (emitter, estimate->per_node);
      fs_emit_key (emitter, "nodes");
      estimate->per_node > 0 ? fs_emit_int (emitter, estimate->nodes_needed) : fs_emit_null (emitter);
      fs_emit_map_close (emitter);
    }
  fs_emit_list_close (emitter);
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
  emit_nodes_needed (emitter, answer->estimates);
  fs_emit_map_close (emitter);
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
      const char *cells[] = { fs_format_amount (name, point->amount, text), count };
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
  return g_strdup (fs_resource_kind (name) == FS_RES_KIND_MEMORY ? fs_format_bytes_for_people (amount, text)
                                                                  : fs_format_amount (name, amount, text));
}

static void
print_fragmentation (FILE *out, const FsPodShape *pod, const FsCapacityAnswer *answer)
{
  const FsResources *request = &pod->spec->request;
  struct { const char *name; int64_t want, total, largest; } rows[] = {
    { "cpu", request->cpu_milli, answer->free_total.cpu_milli, answer->largest_free.cpu_milli },
    { "memory", request->memory_bytes, answer->free_total.memory_bytes,
      answer->largest_free.memory_bytes },
  };
  if (answer->eligible_nodes == 0)
    {
      /* no free room to weigh: a filter before or beside the resources keeps every node */
      fprintf (out, "\nNo node this shape may use: each rejects it by a filter other than "
               "NodeResourcesFit (the table above).\n");
      return;
    }
  fprintf (out, "\nFree on the %u node%s this shape may use:\n", answer->eligible_nodes,
           answer->eligible_nodes == 1 ? "" : "s");
  for (gsize i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      if (rows[i].want <= 0)
        continue;
      g_autofree char *total = human_amount (rows[i].name, rows[i].total);
      g_autofree char *largest = human_amount (rows[i].name, rows[i].largest);
      g_autofree char *want = human_amount (rows[i].name, rows[i].want);
      const char *verdict = rows[i].largest >= rows[i].want ? ""
                            : rows[i].total >= rows[i].want
                                ? "  <- room in total, not in one piece"
                                : "  <- not enough in total";
      fprintf (out, "  %-7s %s in total, %s at most on one node; one replica asks %s%s\n",
               rows[i].name, total, largest, want, verdict);
    }
}

/* "cpu=500m,memory=3Gi,nvidia.com/gpu=1" ("" for nothing). */
static char *
request_text (const FsPodShape *pod)
{
  GString *text = g_string_new (NULL);
  char amount[32];
  if (pod->spec->request.cpu_milli > 0)
    g_string_append_printf (text, "cpu=%s", fs_format_amount ("cpu", pod->spec->request.cpu_milli, amount));
  if (pod->spec->request.memory_bytes > 0)
    g_string_append_printf (text, "%smemory=%s", text->len ? "," : "",
                            fs_format_amount ("memory", pod->spec->request.memory_bytes, amount));
  for (guint i = 0; i < pod->spec->request.n_extended; i++)
    g_string_append_printf (text, "%s%s=%" G_GINT64_FORMAT, text->len ? "," : "",
                            pod->spec->request.extended[i].name, pod->spec->request.extended[i].value);
  return g_string_free (text, FALSE);
}

static void
print_shape (FILE *out, const FsSnapshot *snapshot, const FsShape *shape)
{
  const FsPodShape *pod = fs_shape_pod (shape);
  g_autofree char *request = request_text (pod);
  fprintf (out, "Shape: %s (namespace %s), effective request %s\n", fs_shape_describe (shape),
           pod->namespace, request[0] ? request : "nothing");
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
  for (guint i = 0; i < answer->n_nodes; i++)
    {
      const FsNodeFit *fit = &answer->nodes[i];
      g_autofree char *fits = g_strdup_printf ("%" G_GINT64_FORMAT, fit->capacity);
      g_autofree char *placed = g_strdup_printf ("%" G_GINT64_FORMAT, fit->placed);
      g_autofree char *why = fit->verdict.filter != FS_FILTER_PASS ? reasons_text (&fit->verdict)
                             : fit->capacity > 0 ? reasons_text (&fit->limit)
                                                 : g_strdup ("");
      if (!wide && fit->capacity == 0 && fit->verdict.filter != FS_FILTER_PASS
          && fit->verdict.filter != FS_FILTER_NODE_RESOURCES_FIT && answer->n_nodes > 20)
        continue; /* long lists: show the nodes that matter; -o wide shows all */
      const char *with_placed[] = { snapshot->nodes[i].name, fits, placed, why[0] ? why : "-" };
      const char *without[] = { snapshot->nodes[i].name, fits, why[0] ? why : "-" };
      fs_table_add_row (table, replicas >= 0 ? with_placed : without);
    }
  fs_table_print (table, out);
}

/* New nodes of each existing shape that would hold the replicas left Pending. */
static void
print_estimates (FILE *out, const FsCapacityAnswer *answer)
{
  fprintf (out, "New nodes that would hold them (cluster-autoscaler's estimate, per existing node shape):\n");
  for (guint i = 0; i < answer->estimates->len; i++)
    {
      const FsNodeShapeEstimate *estimate = &g_array_index (answer->estimates, FsNodeShapeEstimate, i);
      if (estimate->per_node > 0)
        fprintf (out, "  %" G_GINT64_FORMAT " x %s (%" G_GINT64_FORMAT " replica%s per node; %u such node%s now)\n",
                 estimate->nodes_needed, estimate->shape, estimate->per_node,
                 estimate->per_node == 1 ? "" : "s", estimate->existing, estimate->existing == 1 ? "" : "s");
      else
        {
          g_autofree char *why = reasons_text (&estimate->verdict);
          fprintf (out, "  %s: cannot hold one (%s)\n", estimate->shape, why[0] ? why : "no room");
        }
    }
}

void
fs_render_capacity_table (FILE *out, gboolean wide, const FsSnapshot *snapshot, const FsShape *shape,
                          const FsCapacityAnswer *answer, int64_t replicas)
{
  print_shape (out, snapshot, shape);
  print_nodes (out, wide, snapshot, answer, replicas);
  fprintf (out, "\n%" G_GINT64_FORMAT " replica%s fit%s in all (limited by %s).\n", answer->pack.capacity,
           answer->pack.capacity == 1 ? "" : "s", answer->pack.capacity == 1 ? "s" : "",
           fs_pack_limit_name (answer->pack.limited_by));
  print_fragmentation (out, fs_shape_pod (shape), answer);
  if (replicas < 0)
    return;
  fprintf (out, "\n--replicas %" G_GINT64_FORMAT ": %s; %" G_GINT64_FORMAT " placed, %" G_GINT64_FORMAT
           " would stay Pending.\n", replicas, answer->pack.pending == 0 ? "all fit" : "they do not all fit",
           answer->pack.placed, answer->pack.pending);
  if (answer->pack.pending == 0)
    return;
  print_estimates (out, answer);
}
