/* fitscale — the answer of `fitscale nodes` (see include/fitscale/render/nodes.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "fitscale/model/names.h"
#include "fitscale/render/nodes.h"

static const char *
instance_type (const FsNode *node)
{
  const char *type = fs_labels_get (node->labels, "node.kubernetes.io/instance-type");
  return type != NULL ? type : fs_labels_get (node->labels, "beta.kubernetes.io/instance-type");
}

static const char *
zone (const FsNode *node)
{
  const char *name = fs_labels_get (node->labels, "topology.kubernetes.io/zone");
  return name != NULL ? name : fs_labels_get (node->labels, "failure-domain.beta.kubernetes.io/zone");
}

static const char *
effect_name (FsTaintEffect effect)
{
  switch (effect)
    {
    case FS_EFFECT_NO_SCHEDULE:
      return "NoSchedule";
    case FS_EFFECT_PREFER_NO_SCHEDULE:
      return "PreferNoSchedule";
    case FS_EFFECT_NO_EXECUTE:
      return "NoExecute";
    case FS_EFFECT_ALL:
    default:
      return "";
    }
}

static const char *
node_status (const FsNode *node)
{
  gboolean ready = node->flags & FS_NODE_READY;
  gboolean known = node->flags & FS_NODE_READY_KNOWN;
  const char *base = ready ? "Ready" : known ? "NotReady" : "Unknown";
  return node->flags & FS_NODE_UNSCHEDULABLE
             ? (ready ? "Ready,SchedulingDisabled" : "NotReady,SchedulingDisabled")
             : base;
}

/* ---- JSON / YAML -------------------------------------------------------------------- */

static void
emit_node (FsEmitter *emitter, const FsNodeSummary *row)
{
  const FsNode *node = row->node;
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "name");
  fs_emit_string (emitter, node->name);
  fs_emit_key (emitter, "status");
  fs_emit_string (emitter, node_status (node));
  fs_emit_key (emitter, "instanceType");
  fs_emit_string (emitter, instance_type (node));
  fs_emit_key (emitter, "zone");
  fs_emit_string (emitter, zone (node));
  fs_emit_key (emitter, "taints");
  fs_emit_list_open (emitter);
  for (guint i = 0; node->taints != NULL && i < node->taints->n; i++)
    {
      const FsTaint *taint = &node->taints->items[i];
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "key");
      fs_emit_string (emitter, taint->key);
      if (taint->value != NULL && taint->value[0] != '\0')
        {
          fs_emit_key (emitter, "value");
          fs_emit_string (emitter, taint->value);
        }
      fs_emit_key (emitter, "effect");
      fs_emit_string (emitter, effect_name (taint->effect));
      fs_emit_map_close (emitter);
    }
  fs_emit_list_close (emitter);
  fs_emit_key (emitter, "allocatable");
  fs_emit_resources (emitter, &node->allocatable, TRUE);
  fs_emit_key (emitter, "requested");
  fs_emit_resources (emitter, &node->requested, TRUE);
  fs_emit_key (emitter, "free");
  fs_emit_resources (emitter, &row->free, TRUE);
  fs_emit_key (emitter, "pods");
  fs_emit_int (emitter, node->pod_count);
  fs_emit_map_close (emitter);
}

/* The sums of the total and of a group, as the same keys. */
static void
emit_sums (FsEmitter *emitter, const FsClusterSummary *sum)
{
  fs_emit_key (emitter, "nodes");
  fs_emit_int (emitter, sum->n_nodes);
  fs_emit_key (emitter, "readyNodes");
  fs_emit_int (emitter, sum->n_ready);
  fs_emit_key (emitter, "cordonedNodes");
  fs_emit_int (emitter, sum->n_cordoned);
  fs_emit_key (emitter, "allocatable");
  fs_emit_resources (emitter, &sum->allocatable, TRUE);
  fs_emit_key (emitter, "requested");
  fs_emit_resources (emitter, &sum->requested, TRUE);
  fs_emit_key (emitter, "free");
  fs_emit_resources (emitter, &sum->free, TRUE);
  fs_emit_key (emitter, "largestFree");
  fs_emit_resources (emitter, &sum->largest_free, TRUE);
  fs_emit_key (emitter, "usableNodes");
  fs_emit_int (emitter, sum->n_usable);
  fs_emit_key (emitter, "usableFree");
  fs_emit_resources (emitter, &sum->usable_free, TRUE);
  fs_emit_key (emitter, "usableLargestFree");
  fs_emit_resources (emitter, &sum->usable_largest_free, TRUE);
  fs_emit_key (emitter, "podsBound");
  fs_emit_int (emitter, sum->pods_bound);
}

void
fs_render_nodes (FsEmitter *emitter, const FsNodeSummary *rows, guint n_rows,
                 const FsNodeGrouping *grouping, const FsClusterSummary *total)
{
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "nodes");
  fs_emit_list_open (emitter);
  for (guint i = 0; i < n_rows; i++)
    emit_node (emitter, &rows[i]);
  fs_emit_list_close (emitter);
  if (grouping != NULL && grouping->label != NULL)
    {
      fs_emit_key (emitter, "groupBy");
      fs_emit_string (emitter, grouping->label);
      fs_emit_key (emitter, "groups");
      fs_emit_list_open (emitter);
      for (guint i = 0; i < grouping->n_groups; i++)
        {
          fs_emit_map_open (emitter);
          fs_emit_key (emitter, "value");
          fs_emit_string (emitter, grouping->groups[i].value); /* null: without the label */
          emit_sums (emitter, &grouping->groups[i].summary);
          fs_emit_map_close (emitter);
        }
      fs_emit_list_close (emitter);
    }
  fs_emit_key (emitter, "total");
  fs_emit_map_open (emitter);
  emit_sums (emitter, total);
  fs_emit_key (emitter, "podsPending");
  fs_emit_int (emitter, total->pods_pending);
  fs_emit_map_close (emitter);
  fs_emit_map_close (emitter);
}

/* ---- tables ------------------------------------------------------------------------- */

static char *
human_bytes (int64_t bytes)
{
  char text[32];
  return g_strdup (fs_format_for_people ("memory", bytes, text));
}

static char *
human_cpu (int64_t milli)
{
  char text[32];
  return g_strdup (fs_format_for_people ("cpu", milli, text));
}

/* A free cell: the amount, or "0 (over 1)" where the node's pods request more than it has. */
static char *
free_cell (char *(*human) (int64_t), int64_t amount)
{
  if (amount >= 0)
    return human (amount);
  g_autofree char *over = human (fs_saturating_sub (0, amount));
  return g_strdup_printf ("0 (over %s)", over);
}

static char *
share (char *requested, char *allocatable, int64_t used, int64_t of)
{
  g_autofree char *owned_requested = requested, *owned_allocatable = allocatable;
  int percent = of > 0 ? (int) (used * 100 / of) : 0;
  return g_strdup_printf ("%s/%s (%d%%)", owned_requested, owned_allocatable, percent);
}

static char *
extended_cell (const FsResources *allocatable, const FsResources *requested)
{
  GString *cell = g_string_new (NULL);
  for (guint i = 0; i < allocatable->n_extended; i++)
    {
      const FsExtendedAmount *amount = &allocatable->extended[i];
      if (g_str_has_prefix (amount->name, "hugepages-")
          || g_str_has_prefix (amount->name, "attachable-volumes-") || amount->value == 0)
        continue;
      char used[32], of[32];
      g_string_append_printf (cell, "%s%s=%s/%s", cell->len > 0 ? "," : "", amount->name,
                              fs_format_for_people (amount->name, fs_resources_get (requested, amount->name), used),
                              fs_format_for_people (amount->name, amount->value, of));
    }
  return g_string_free (cell, FALSE);
}

static char *
taints_cell (const FsNode *node)
{
  GString *cell = g_string_new (NULL);
  for (guint i = 0; node->taints != NULL && i < node->taints->n; i++)
    {
      const FsTaint *taint = &node->taints->items[i];
      g_string_append_printf (cell, "%s%s%s%s:%s", cell->len > 0 ? "," : "", taint->key,
                              taint->value != NULL && taint->value[0] ? "=" : "",
                              taint->value != NULL ? taint->value : "", effect_name (taint->effect));
    }
  return g_string_free (cell, FALSE);
}

/* A row of the node table, or with LARGEST (not NULL) of the grouped table: the largest free
 * piece after the resource columns (the first 7, WIDE 9). */
static void
add_table_row (FsTable *table, gboolean wide, const char *name, const char *status,
               const FsResources *allocatable, const FsResources *requested,
               const FsResources *free_res, const char *type, const char *zone_name,
               const char *taints, const char *largest)
{
  g_autofree char *cpu = share (human_cpu (requested->cpu_milli), human_cpu (allocatable->cpu_milli),
                                requested->cpu_milli, allocatable->cpu_milli);
  g_autofree char *cpu_free = free_cell (human_cpu, free_res->cpu_milli);
  g_autofree char *memory = share (human_bytes (requested->memory_bytes),
                                   human_bytes (allocatable->memory_bytes),
                                   requested->memory_bytes, allocatable->memory_bytes);
  g_autofree char *memory_free = free_cell (human_bytes, free_res->memory_bytes);
  g_autofree char *pods = g_strdup_printf ("%" G_GINT64_FORMAT "/%" G_GINT64_FORMAT,
                                           requested->pods, allocatable->pods);
  g_autofree char *ephemeral = free_cell (human_bytes, free_res->ephemeral_bytes);
  g_autofree char *extended = extended_cell (allocatable, requested);
  const char *cells[] = { name, status, cpu, cpu_free, memory, memory_free, pods,
                          ephemeral, extended[0] ? extended : "-", type ? type : "-",
                          zone_name ? zone_name : "-", taints[0] ? taints : "-" };
  if (largest != NULL)
    cells[wide ? 9 : 7] = largest;
  fs_table_add_row (table, cells);
}

/* The largest free piece on one usable node of SUM, as kubectl writes a resource list
 * (cpu=1840m,memory=5966Mi,nvidia.com/gpu=1): "-" when no node of it is usable. */
static char *
largest_cell (const FsClusterSummary *sum)
{
  if (sum->n_usable == 0)
    return g_strdup ("-");
  const FsResources *largest = &sum->usable_largest_free;
  char cpu[32], memory[32];
  GString *cell = g_string_new (NULL);
  g_string_printf (cell, "cpu=%s,memory=%s", fs_format_for_people ("cpu", largest->cpu_milli, cpu),
                   fs_format_for_people ("memory", largest->memory_bytes, memory));
  for (guint i = 0; i < sum->allocatable.n_extended; i++)
    {
      const FsExtendedAmount *amount = &sum->allocatable.extended[i];
      if (g_str_has_prefix (amount->name, "hugepages-")
          || g_str_has_prefix (amount->name, "attachable-volumes-") || amount->value <= 0)
        continue;
      char text[32];
      g_string_append_printf (cell, ",%s=%s", amount->name,
                              fs_format_for_people (amount->name, fs_resources_get (largest, amount->name), text));
    }
  return g_string_free (cell, FALSE);
}

/* The header kubectl -L gives a label's column: the key's name part, upper case
 * (topology.kubernetes.io/zone: ZONE). */
static char *
label_header (const char *label)
{
  const char *slash = strrchr (label, '/');
  return g_ascii_strup (slash != NULL ? slash + 1 : label, -1);
}

/* "4/5 Ready" and, as kubectl's STATUS, ",1 SchedulingDisabled" when nodes are cordoned. */
static char *
status_cell (const FsClusterSummary *sum)
{
  if (sum->n_cordoned == 0)
    return g_strdup_printf ("%u/%u Ready", sum->n_ready, sum->n_nodes);
  return g_strdup_printf ("%u/%u Ready,%u SchedulingDisabled", sum->n_ready, sum->n_nodes, sum->n_cordoned);
}

/* A row of the grouped table: NAME, the Ready count, the sums of SUM, the largest piece. */
static void
add_group_row (FsTable *table, gboolean wide, const char *name, const FsClusterSummary *sum)
{
  g_autofree char *ready = status_cell (sum);
  g_autofree char *largest = largest_cell (sum);
  add_table_row (table, wide, name, ready, &sum->allocatable, &sum->requested, &sum->free, NULL, NULL, "",
                 largest);
}

static FsTable *
group_table (gboolean wide, const FsNodeGrouping *grouping, const FsClusterSummary *total)
{
  g_autofree char *first = label_header (grouping->label);
  const char *headers[] = { first, "STATUS", "CPU REQUESTS", "CPU FREE", "MEMORY REQUESTS", "MEMORY FREE",
                            "PODS", "EPHEMERAL FREE", "EXTENDED", "LARGEST FREE PIECE" };
  if (!wide)
    headers[7] = headers[9];
  FsTable *table = fs_table_new (wide ? 10 : 8, headers);
  add_group_row (table, wide, "*", total);
  for (guint i = 0; i < grouping->n_groups; i++)
    add_group_row (table, wide, grouping->groups[i].value != NULL ? grouping->groups[i].value : "<none>",
                   &grouping->groups[i].summary);
  return table;
}

void
fs_render_nodes_table (FILE *out, gboolean wide, const FsNodeSummary *rows, guint n_rows,
                       const FsNodeGrouping *grouping, const FsClusterSummary *total)
{
  static const char *const headers[] = {
    "NODE", "STATUS", "CPU REQUESTS", "CPU FREE", "MEMORY REQUESTS", "MEMORY FREE", "PODS",
    "EPHEMERAL FREE", "EXTENDED", "INSTANCE TYPE", "ZONE", "TAINTS" };
  g_autoptr (FsTable) table = NULL;
  if (grouping != NULL && grouping->label != NULL)
    table = group_table (wide, grouping, total);
  else
    {
      table = fs_table_new (wide ? 12 : 7, headers);
      g_autofree char *ready = status_cell (total);
      add_table_row (table, wide, "*", ready, &total->allocatable, &total->requested, &total->free,
                     NULL, NULL, "", NULL);
      for (guint i = 0; i < n_rows; i++)
        {
          const FsNode *node = rows[i].node;
          FsResources requested = node->requested;
          requested.pods = node->pod_count;
          g_autofree char *taints = taints_cell (node);
          add_table_row (table, wide, node->name, node_status (node), &node->allocatable, &requested,
                         &rows[i].free, instance_type (node), zone (node), taints, NULL);
        }
    }
  fs_table_print (table, out);
  /* the footer counts the nodes a pod can use, and says so */
  const FsResources *free_res = &total->usable_free, *largest = &total->usable_largest_free;
  g_autofree char *largest_cpu = human_cpu (largest->cpu_milli);
  g_autofree char *largest_memory = human_bytes (largest->memory_bytes);
  g_autofree char *free_cpu = human_cpu (free_res->cpu_milli);
  g_autofree char *free_memory = human_bytes (free_res->memory_bytes);
  g_autoptr (GString) free_text = g_string_new (NULL);
  g_autoptr (GString) largest_text = g_string_new (NULL);
  g_string_printf (free_text, "cpu %s, memory %s", free_cpu, free_memory);
  g_string_printf (largest_text, "cpu %s, memory %s", largest_cpu, largest_memory);
  /* extended resources the nodes offer (GPUs, hugepages) count too: all GPUs taken says so */
  for (guint i = 0; i < total->free.n_extended; i++)
    {
      const char *name = total->free.extended[i].name;
      if (fs_resources_get (&total->allocatable, name) <= 0)
        continue;
      char amount[32];
      g_string_append_printf (free_text, ", %s %s", name, fs_format_for_people (name, fs_resources_get (free_res, name), amount));
      g_string_append_printf (largest_text, ", %s %s", name,
                              fs_format_for_people (name, fs_resources_get (largest, name), amount));
    }
  /* an extended resource's name comes from the nodes */
  g_autofree char *free_safe = fs_terminal_safe (free_text->str);
  g_autofree char *largest_safe = fs_terminal_safe (largest_text->str);
  if (total->n_usable == 0)
    fprintf (out, "\nNo node a pod can use (schedulable, untainted, not NotReady): nothing is free for pods that "
                  "tolerate no taint.\n");
  else
    {
      g_autofree char *of = total->n_usable < total->n_nodes ? g_strdup_printf ("%u of ", total->n_usable) : g_strdup ("");
      fprintf (out, "\nFree in total on the %s%u node%s pods can use (schedulable, untainted, not NotReady): %s; "
                    "largest free piece on one node: %s.\n", of, total->n_nodes, total->n_nodes == 1 ? "" : "s",
               free_safe, largest_safe);
    }
  fprintf (out, "Pods: %" G_GINT64_FORMAT " on nodes, %" G_GINT64_FORMAT " Pending without a node.\n",
           total->pods_bound, total->pods_pending);
}
