/* fitscale — per-node and cluster capacity summary (see include/fitscale/nodes.h). */
#include "config.h"

#include <string.h>

#include "fitscale/model/error.h"
#include "fitscale/model/fit.h"
#include "fitscale/model/names.h"
#include "fitscale/model/pack.h"
#include "fitscale/plan/nodes.h"

/* Its Ready condition is True, as kubectl's STATUS says Ready (a cordoned node is
 * "Ready,SchedulingDisabled": Ready still). */
static gboolean
node_is_ready (const FsNode *node)
{
  return (node->flags & FS_NODE_READY) != 0;
}

/* Schedulable, untainted for every pod (no NoSchedule or NoExecute taint), and not reported
 * NotReady (the node lifecycle controller taints those node.kubernetes.io/not-ready). */
static gboolean
node_is_usable (const FsNode *node)
{
  if ((node->flags & FS_NODE_UNSCHEDULABLE) || ((node->flags & FS_NODE_READY_KNOWN) && !(node->flags & FS_NODE_READY)))
    return FALSE;
  for (guint t = 0; node->taints != NULL && t < node->taints->n; t++)
    if (node->taints->items[t].effect == FS_EFFECT_NO_SCHEDULE || node->taints->items[t].effect == FS_EFFECT_NO_EXECUTE)
      return FALSE;
  return TRUE;
}

static void
count_pods (const FsSnapshot *snapshot, const gboolean *selected, FsClusterSummary *total)
{
  for (guint i = 0; i < snapshot->n_pods; i++)
    {
      const FsPod *pod = &snapshot->pods[i];
      if (pod->node_index >= 0 && fs_pod_counts_on_node (pod))
        total->pods_bound += selected[pod->node_index];
      else if (fs_pod_is_pending (pod))
        total->pods_pending++;
    }
}

/* What NODE's pods take of it, the pod count taking a slot of allocatable "pods". */
static FsResources
node_requested (const FsNode *node)
{
  FsNodeLoad load = fs_node_load (node);
  return fs_node_load_taken (&load);
}

/* Adds ROW's node to SUM: what fs_nodes_summarize sums for the total, and for a group of
 * fs_nodes_group. */
static gboolean
add_node (FsClusterSummary *sum, const FsNodeSummary *row, GError **error)
{
  const FsNode *node = row->node;
  FsResources requested = node_requested (node);
  FsResources room = row->free; /* an overcommitted node adds no negative room to the total */
  fs_resources_floor_zero (&room);
  if (!fs_resources_add (&sum->allocatable, &node->allocatable, error)
      || !fs_resources_add (&sum->requested, &requested, error)
      || !fs_resources_add (&sum->free, &room, error)
      || !fs_resources_max (&sum->largest_free, &row->free, error))
    return FALSE;
  sum->n_nodes++;
  sum->n_ready += node_is_ready (node);
  sum->n_cordoned += (node->flags & FS_NODE_UNSCHEDULABLE) != 0;
  if (node_is_usable (node))
    {
      if (!fs_resources_add (&sum->usable_free, &room, error)
          || !(sum->n_usable == 0 ? (sum->usable_largest_free = row->free, TRUE)
                                  : fs_resources_max (&sum->usable_largest_free, &row->free, error)))
        return FALSE;
      sum->n_usable++;
    }
  return TRUE;
}

gboolean
fs_nodes_summarize (const FsSnapshot *snapshot, const FsLabelSelector *selector, FsNodeSummary *rows,
                    guint *n_rows, FsClusterSummary *total, GError **error)
{
  memset (total, 0, sizeof *total);
  g_autofree gboolean *selected = g_new0 (gboolean, snapshot->n_nodes + 1);
  *n_rows = 0;
  for (guint i = 0; i < snapshot->n_nodes; i++)
    {
      const FsNode *node = &snapshot->nodes[i];
      if (selector != NULL && !fs_selector_matches (selector, node->labels))
        continue;
      selected[i] = TRUE;
      FsNodeSummary *row = &rows[(*n_rows)++];
      FsNodeLoad load = fs_node_load (node);
      GError *room_error = NULL;
      row->node = node;
      row->free = fs_node_room (&node->allocatable, &load, &room_error);
      if (room_error != NULL)
        {
          g_propagate_prefixed_error (error, room_error, "node %s: ", node->name);
          return FALSE;
        }
      if (!add_node (total, row, error))
        return FALSE;
    }
  count_pods (snapshot, selected, total);
  return TRUE;
}

/* ---- --sort and --group-by ------------------------------------------------------------ */

const char *const fs_nodes_sort_keys[FS_NODES_SORT_N] = {
  [FS_NODES_SORT_NAME] = "name",
  [FS_NODES_SORT_CPU] = "cpu",
  [FS_NODES_SORT_MEMORY] = "memory",
  [FS_NODES_SORT_PODS] = "pods",
  [FS_NODES_SORT_FREE_CPU] = "free-cpu",
  [FS_NODES_SORT_FREE_MEMORY] = "free-memory",
};

gboolean
fs_nodes_sort_parse (const char *text, FsNodesSort *key, GError **error)
{
  *key = FS_NODES_SORT_NAME;
  if (text == NULL)
    return TRUE;
  for (guint i = 0; i < FS_NODES_SORT_N; i++)
    if (strcmp (text, fs_nodes_sort_keys[i]) == 0)
      {
        *key = (FsNodesSort) i;
        return TRUE;
      }
  g_autoptr (GString) keys = g_string_new (NULL);
  for (guint i = 0; i < FS_NODES_SORT_N; i++)
    g_string_append_printf (keys, "%s%s", i == 0 ? "" : i + 1 < FS_NODES_SORT_N ? ", " : " or ", fs_nodes_sort_keys[i]);
  g_set_error (error, FS_ERROR, FS_ERROR_USAGE, "--sort %s: not a sort key; give %s", text, keys->str);
  return FALSE;
}

/* REQUESTED / ALLOCATABLE, the table's percent: a node with nothing allocatable and
 * something requested is the fullest of all. */
static double
share (int64_t requested, int64_t allocatable)
{
  if (allocatable <= 0)
    return requested > 0 ? G_MAXDOUBLE : 0.0;
  return (double) requested / (double) allocatable;
}

/* Compares A before B for KEY: < 0 when A comes first, 0 when the key ties (by sums, so
 * that nodes and groups sort alike). */
static int
compare_key (FsNodesSort key, const FsResources *a_allocatable, const FsResources *a_requested,
             const FsResources *a_free, const FsResources *b_allocatable,
             const FsResources *b_requested, const FsResources *b_free)
{
  double a = 0.0, b = 0.0;
  switch (key)
    {
    case FS_NODES_SORT_CPU:
      a = share (a_requested->cpu_milli, a_allocatable->cpu_milli);
      b = share (b_requested->cpu_milli, b_allocatable->cpu_milli);
      break;
    case FS_NODES_SORT_MEMORY:
      a = share (a_requested->memory_bytes, a_allocatable->memory_bytes);
      b = share (b_requested->memory_bytes, b_allocatable->memory_bytes);
      break;
    case FS_NODES_SORT_PODS:
      a = share (a_requested->pods, a_allocatable->pods);
      b = share (b_requested->pods, b_allocatable->pods);
      break;
    case FS_NODES_SORT_FREE_CPU:
      return (a_free->cpu_milli < b_free->cpu_milli) - (a_free->cpu_milli > b_free->cpu_milli);
    case FS_NODES_SORT_FREE_MEMORY:
      return (a_free->memory_bytes < b_free->memory_bytes) - (a_free->memory_bytes > b_free->memory_bytes);
    case FS_NODES_SORT_NAME:
    case FS_NODES_SORT_N:
    default:
      return 0;
    }
  return (a < b) - (a > b); /* the highest share first */
}

static int
compare_rows (gconstpointer pa, gconstpointer pb, gpointer user_data)
{
  const FsNodeSummary *a = pa, *b = pb;
  FsNodesSort key = (FsNodesSort) GPOINTER_TO_INT (user_data);
  FsResources a_requested = node_requested (a->node), b_requested = node_requested (b->node);
  int order = compare_key (key, &a->node->allocatable, &a_requested, &a->free,
                           &b->node->allocatable, &b_requested, &b->free);
  return order != 0 ? order : strcmp (a->node->name, b->node->name);
}

void
fs_nodes_sort (FsNodeSummary *rows, guint n_rows, FsNodesSort key)
{
  g_qsort_with_data (rows, (gint) n_rows, sizeof *rows, compare_rows, GINT_TO_POINTER (key));
}

static int
compare_groups (gconstpointer pa, gconstpointer pb, gpointer user_data)
{
  const FsNodeGroup *a = pa, *b = pb;
  FsNodesSort key = (FsNodesSort) GPOINTER_TO_INT (user_data);
  int order = compare_key (key, &a->summary.allocatable, &a->summary.requested, &a->summary.free,
                           &b->summary.allocatable, &b->summary.requested, &b->summary.free);
  if (order != 0)
    return order;
  if (a->value == NULL || b->value == NULL) /* the nodes without the label last */
    return (a->value == NULL) - (b->value == NULL);
  return strcmp (a->value, b->value);
}

gboolean
fs_nodes_group_check (const char *label, GError **error)
{
  if (label != NULL && fs_name_is_qualified (label))
    return TRUE;
  g_set_error (error, FS_ERROR, FS_ERROR_USAGE,
               "--group-by \"%s\": not a label key; give one as -l takes it (topology.kubernetes.io/zone, ...)",
               label != NULL ? label : "");
  return FALSE;
}

FsNodeGroup *
fs_nodes_group (const FsNodeSummary *rows, guint n_rows, const char *label, FsNodesSort key,
                guint *n_groups, GError **error)
{
  *n_groups = 0;
  if (!fs_nodes_group_check (label, error))
    return NULL;
  g_autofree FsNodeGroup *groups = g_new0 (FsNodeGroup, MAX (n_rows, 1));
  g_autoptr (GHashTable) index = g_hash_table_new (g_str_hash, g_str_equal); /* value -> 1 + group */
  gint none = -1;
  for (guint i = 0; i < n_rows; i++)
    {
      const char *value = fs_labels_get (rows[i].node->labels, label);
      guint at;
      if (value == NULL)
        {
          if (none < 0)
            none = (gint) (*n_groups)++;
          at = (guint) none;
        }
      else
        {
          at = GPOINTER_TO_UINT (g_hash_table_lookup (index, value));
          if (at == 0)
            {
              at = ++*n_groups;
              g_hash_table_insert (index, (gpointer) value, GUINT_TO_POINTER (at));
            }
          at--;
        }
      groups[at].value = value;
      if (!add_node (&groups[at].summary, &rows[i], error))
        return NULL;
      groups[at].summary.pods_bound = fs_saturating_add (groups[at].summary.pods_bound, rows[i].node->pod_count);
    }
  g_qsort_with_data (groups, (gint) *n_groups, sizeof *groups, compare_groups, GINT_TO_POINTER (key));
  return g_steal_pointer (&groups);
}
