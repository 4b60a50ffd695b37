/* fitscale — which node autoscaler a snapshot shows (admission, plan/admit.h): Pending
 * replicas are the signal a node autoscaler adds nodes on, so a write that leaves some
 * Pending is then only warned about. */
#pragma once

#include <glib.h>

#include "fitscale/model/objects.h"

G_BEGIN_DECLS

typedef enum {
  FS_NODE_AUTOSCALER_FOUND_NONE,
  FS_NODE_AUTOSCALER_FOUND_CLUSTER_AUTOSCALER,
  FS_NODE_AUTOSCALER_FOUND_KARPENTER,
} FsNodeAutoscalerFound;

/* Karpenter when a node carries the label of the NodePool that made it (karpenter
 * pkg/apis/v1/labels.go NodePoolLabelKey "karpenter.sh/nodepool"; before v1beta1,
 * pkg/apis/v1alpha5/labels.go ProvisionerNameLabelKey "karpenter.sh/provisioner-name");
 * else Cluster Autoscaler when a pod that counts carries its deployment's label (kubernetes/
 * autoscaler cluster-autoscaler/cloudprovider/aws/examples/cluster-autoscaler-autodiscover.yaml "app: cluster-autoscaler"; the
 * Helm chart's charts/cluster-autoscaler/templates/_helpers.tpl "cluster-autoscaler.name",
 * CLOUD-cluster-autoscaler, as app.kubernetes.io/name); else none. */
FsNodeAutoscalerFound fs_node_autoscaler_detect (const FsSnapshot *snapshot);

/* "cluster-autoscaler", "karpenter" or "none". */
const char *fs_node_autoscaler_name (FsNodeAutoscalerFound found);

G_END_DECLS
