/* fitscale — where a DaemonSet runs (see include/fitscale/model/daemon.h). */
#include "config.h"

#include "fitscale/model/daemon.h"
#include "fitscale/model/fit.h"

/* pkg/controller/daemon/daemon_controller.go NodeShouldRunDaemonPod and predicates:
 *
 *   pod := NewPod(ds, node.Name)            // the template plus the daemon tolerations
 *   template's spec.nodeName "" or node.Name, and fitsNodeName (the same test on the pod)
 *   fitsNodeAffinity = nodeaffinity.GetRequiredNodeAffinity(pod).Match(node)
 *   fitsTaints       = no NoSchedule/NoExecute taint of the node left untolerated
 *   shouldRun        = fitsNodeName && fitsNodeAffinity && fitsTaints
 *
 * A pod the controller made carries the template plus what the controller adds per node:
 * the tolerations of util.AddOrUpdateDaemonPodTolerations (the same on every node) and, by
 * pkg/controller/daemon/util/daemonset_util.go ReplaceDaemonSetPodNodeNameNodeAffinity, a
 * matchFields term metadata.name In [its node] in each required node selector term.  NewPod
 * for NODE differs from it only in that node name, so the pod's affinity is matched against
 * NODE's labels under the name the pod was pinned to.  The template's own spec.nodeName
 * cannot be told from the node the pod was bound to, so the node name tests are taken to
 * hold (a DaemonSet pinned by nodeName to one node is not read as such). */
/* The pin pkg/controller/daemon/util/daemonset_util.go ReplaceDaemonSetPodNodeNameNodeAffinity
 * writes into every required term: matchFields [{key: metadata.name, operator: In, values:
 * [NODE]}]. */
static const char *
pinned_node (const FsPlacement *placement)
{
  const FsNodeSelector *required = placement != NULL ? placement->required_affinity : NULL;
  for (guint t = 0; required != NULL && t < required->n; t++)
    {
      const FsRequirementList *fields = required->terms[t].match_fields;
      for (guint i = 0; fields != NULL && i < fields->n; i++)
        {
          const FsRequirement *field = &fields->items[i];
          if (g_strcmp0 (field->key, "metadata.name") == 0 && field->op == FS_OP_IN && field->n_values == 1)
            return field->values[0];
        }
    }
  return NULL;
}

const char *
fs_daemon_pod_node (const FsPod *daemon_pod)
{
  if (daemon_pod->node_name != NULL)
    return daemon_pod->node_name;
  return pinned_node (daemon_pod->spec != NULL ? daemon_pod->spec->placement : NULL);
}

gboolean
fs_daemon_should_run (const FsNode *node, const FsPod *daemon_pod)
{
  const FsPlacement *placement = daemon_pod->spec != NULL ? daemon_pod->spec->placement : NULL;
  FsNode pinned = *node;
  const char *pinned_to = pinned_node (placement);
  if (pinned_to != NULL)
    pinned.name = pinned_to;
  if (!fs_node_affinity_matches (&pinned, placement))
    return FALSE;
  return fs_first_untolerated_taint (node->taints, placement != NULL ? placement->tolerations : NULL) == NULL;
}
