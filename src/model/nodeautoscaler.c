/* fitscale — which node autoscaler a snapshot shows (see include/fitscale/model/nodeautoscaler.h). */
#include "config.h"

#include <string.h>

#include "fitscale/model/names.h"
#include "fitscale/model/nodeautoscaler.h"

static gboolean
is_cluster_autoscaler (const FsPod *pod)
{
  const char *app = fs_labels_get (pod->labels, "app");
  const char *name = fs_labels_get (pod->labels, "app.kubernetes.io/name");
  return g_strcmp0 (app, "cluster-autoscaler") == 0 || (name != NULL && g_str_has_suffix (name, "cluster-autoscaler"));
}

FsNodeAutoscalerFound
fs_node_autoscaler_detect (const FsSnapshot *snapshot)
{
  for (guint i = 0; i < snapshot->n_nodes; i++)
    if (fs_labels_get (snapshot->nodes[i].labels, "karpenter.sh/nodepool") != NULL
        || fs_labels_get (snapshot->nodes[i].labels, "karpenter.sh/provisioner-name") != NULL)
      return FS_NODE_AUTOSCALER_FOUND_KARPENTER;
  for (guint i = 0; i < snapshot->n_pods; i++)
    if (fs_pod_counts_on_node (&snapshot->pods[i]) && is_cluster_autoscaler (&snapshot->pods[i]))
      return FS_NODE_AUTOSCALER_FOUND_CLUSTER_AUTOSCALER;
  return FS_NODE_AUTOSCALER_FOUND_NONE;
}

const char *
fs_node_autoscaler_name (FsNodeAutoscalerFound found)
{
  static const char *const names[] = { "none", "cluster-autoscaler", "karpenter" };
  return names[found];
}
