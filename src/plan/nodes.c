/* fitscale — per-node and cluster capacity summary (see include/fitscale/nodes.h). */
#include "config.h"

#include <string.h>

#include "fitscale/model/fit.h"
#include "fitscale/plan/nodes.h"

static gboolean
node_is_ready (const FsNode *node)
{
  return (node->flags & FS_NODE_READY) && !(node->flags & FS_NODE_UNSCHEDULABLE);
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
      total->n_nodes++;
      FsNodeSummary *row = &rows[(*n_rows)++];
      /* the pod count takes a slot of allocatable "pods" (NodeResourcesFit's pod check) */
      FsResources requested = node->requested;
      requested.pods = node->pod_count;
      requested.present |= FS_RES_PODS;
      row->node = node;
      row->free = node->allocatable;
      if (!fs_resources_sub (&row->free, &requested, error))
        return FALSE;
      FsResources room = row->free; /* an overcommitted node adds no negative room to the total */
      fs_resources_floor_zero (&room);
      if (!fs_resources_add (&total->allocatable, &node->allocatable, error)
          || !fs_resources_add (&total->requested, &requested, error)
          || !fs_resources_add (&total->free, &room, error)
          || !fs_resources_max (&total->largest_free, &row->free, error))
        return FALSE;
      total->n_ready += node_is_ready (node);
      if (node_is_usable (node))
        {
          if (!fs_resources_add (&total->usable_free, &room, error)
              || !(total->n_usable == 0 ? (total->usable_largest_free = row->free, TRUE)
                                        : fs_resources_max (&total->usable_largest_free, &row->free, error)))
            return FALSE;
          total->n_usable++;
        }
    }
  count_pods (snapshot, selected, total);
  return TRUE;
}
