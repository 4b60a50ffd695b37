/* fitscale — the schema's paths, and the trie built from them (see schema.h). */
#include "config.h"

#include <string.h>

#include "schema.h"

typedef struct {
  const char *path;
  FsField field;
  FsRecord record;
} PathSpec;

/* Object-level paths, relative to an object's root. */
static const PathSpec object_paths[] = {
  { "kind", F_KIND, 0 },
  { "apiVersion", F_API_VERSION, 0 },
  { "metadata.name", F_NAME, 0 },
  { "metadata.namespace", F_NAMESPACE, 0 },
  { "metadata.resourceVersion", F_RESOURCE_VERSION, 0 },
  { "metadata.continue", F_CONTINUE, 0 },
  { "metadata.selfLink", F_SELF_LINK, 0 },
  { "metadata.creationTimestamp", F_CREATION_TIME, 0 },
  { "metadata.deletionTimestamp", F_DELETION_TIME, 0 },
  { "metadata.labels.*", F_LABEL, 0 },
  { "metadata.annotations.*", F_ANNOTATION, 0 },
  { "metadata.ownerReferences[]", 0, R_OWNER },
  { "metadata.ownerReferences[].kind", F_OWNER_KIND, 0 },
  { "metadata.ownerReferences[].name", F_OWNER_NAME, 0 },
  { "metadata.ownerReferences[].apiVersion", F_OWNER_API_VERSION, 0 },
  { "metadata.ownerReferences[].controller", F_OWNER_CONTROLLER, 0 },
  { "status.conditions[]", 0, R_CONDITION },
  { "status.conditions[].type", F_COND_TYPE, 0 },
  { "status.conditions[].status", F_COND_STATUS, 0 },
  { "status.conditions[].reason", F_COND_REASON, 0 },
  { "status.conditions[].message", F_COND_MESSAGE, 0 },
  { "status.conditions[].lastTransitionTime", F_COND_TIME, 0 },
  /* Node */
  { "spec.unschedulable", F_UNSCHEDULABLE, 0 },
  { "spec.taints[]", 0, R_TAINT },
  { "spec.taints[].key", F_TAINT_KEY, 0 },
  { "spec.taints[].value", F_TAINT_VALUE, 0 },
  { "spec.taints[].effect", F_TAINT_EFFECT, 0 },
  { "status.allocatable.*", F_ALLOCATABLE, 0 },
  { "status.capacity.*", F_CAPACITY, 0 },
  /* Pod status, Namespace status */
  { "status.phase", F_PHASE, 0 },
  { "status.startTime", F_START_TIME, 0 },
  { "status.nominatedNodeName", F_NOMINATED_NODE, 0 },
  /* Deployment, StatefulSet, ReplicaSet */
  { "spec.replicas", F_REPLICAS, 0 },
  { "spec.strategy.type", F_STRATEGY_TYPE, 0 },
  { "spec.strategy.rollingUpdate.maxSurge", F_MAX_SURGE, 0 },
  { "spec.strategy.rollingUpdate.maxUnavailable", F_MAX_UNAVAILABLE, 0 },
  { "spec.updateStrategy.type", F_STRATEGY_TYPE, 0 },
  { "spec.updateStrategy.rollingUpdate.maxUnavailable", F_MAX_UNAVAILABLE, 0 },
  { "spec.template.metadata.labels.*", F_TEMPLATE_LABEL, 0 },
  { "status.replicas", F_STATUS_REPLICAS, 0 },
  { "status.readyReplicas", F_STATUS_READY, 0 },
  /* PodMetrics (metrics.k8s.io/v1beta1) */
  { "timestamp", F_TIMESTAMP, 0 },
  { "window", F_WINDOW, 0 },
  { "containers[]", 0, R_USAGE_CONTAINER },
  { "containers[].name", F_USAGE_NAME, 0 },
  { "containers[].usage.*", F_USAGE, 0 },
  /* Event (core/v1) */
  { "involvedObject.kind", F_EV_KIND, 0 },
  { "involvedObject.namespace", F_EV_NAMESPACE, 0 },
  { "involvedObject.name", F_EV_NAME, 0 },
  { "reason", F_EV_REASON, 0 },
  { "message", F_EV_MESSAGE, 0 },
  { "type", F_EV_TYPE, 0 },
  { "count", F_EV_COUNT, 0 },
  { "lastTimestamp", F_EV_LAST_TIME, 0 },
  { "eventTime", F_EV_EVENT_TIME, 0 },
  { "firstTimestamp", F_EV_FIRST_TIME, 0 },
  { "source.component", F_EV_SOURCE, 0 },
  { "reportingComponent", F_EV_REPORTER, 0 },
  /* Event (events.k8s.io/v1) */
  { "regarding.kind", F_EV_KIND, 0 },
  { "regarding.namespace", F_EV_NAMESPACE, 0 },
  { "regarding.name", F_EV_NAME, 0 },
  { "note", F_EV_MESSAGE, 0 },
  { "deprecatedCount", F_EV_COUNT, 0 },
  { "deprecatedLastTimestamp", F_EV_LAST_TIME, 0 },
  { "deprecatedSource.component", F_EV_SOURCE, 0 },
  { "reportingController", F_EV_REPORTER, 0 },
  /* PersistentVolumeClaim and PersistentVolume (core/v1); spec.selector is the workload's */
  { "spec.volumeName", F_ST_VOLUME_NAME, 0 },
  { "spec.storageClassName", F_ST_CLASS, 0 },
  { "spec.accessModes[]", F_ST_ACCESS_MODE, 0 },
  { "spec.volumeMode", F_ST_VOLUME_MODE, 0 },
  { "spec.resources.requests.storage", F_ST_STORAGE, 0 },
  { "spec.capacity.storage", F_ST_STORAGE, 0 },
  { "spec.claimRef.namespace", F_ST_CLAIM_NAMESPACE, 0 },
  { "spec.claimRef.name", F_ST_CLAIM_NAME, 0 },
  { "spec.csi.driver", F_ST_CSI_DRIVER, 0 },
  { "spec.csi.volumeHandle", F_ST_CSI_HANDLE, 0 },
  { "spec.nodeAffinity.required", 0, R_REQUIRED_AFFINITY },
  { "spec.nodeAffinity.required.nodeSelectorTerms[]", 0, R_NODE_TERM },
  /* StorageClass (storage.k8s.io/v1): allowedTopologies as node selector terms of In */
  { "provisioner", F_SC_PROVISIONER, 0 },
  { "volumeBindingMode", F_SC_BINDING_MODE, 0 },
  { "allowedTopologies[]", 0, R_NODE_TERM },
  /* CSINode (storage.k8s.io/v1) */
  { "spec.drivers[]", 0, R_CSI_DRIVER },
  { "spec.drivers[].name", F_CSI_DRIVER_NAME, 0 },
  { "spec.drivers[].allocatable.count", F_CSI_COUNT, 0 },
  /* PodDisruptionBudget (policy/v1) */
  { "status.disruptionsAllowed", F_PDB_DISRUPTIONS_ALLOWED, 0 },
  { "status.disruptedPods.*", F_PDB_DISRUPTED_POD, 0 },
  /* Pod status the kubelet writes (pkg/kubelet/kubelet_pods.go generateAPIPodStatus) */
  { "status.reason", F_POD_REASON, 0 },
  { "status.message", F_POD_MESSAGE, 0 },
  { "status.containerStatuses[]", 0, R_CTR_STATUS },
  { "status.initContainerStatuses[]", 0, R_INIT_CTR_STATUS },
  { "status.resize", F_POD_RESIZE, 0 },       /* before v1.33: the resize's state */
};

/* Where requirement lists sit relative to an object: a PersistentVolume's node affinity and
 * a StorageClass's allowedTopologies (matchLabelExpressions: key and values, operator In). */
static const PathSpec object_requirement_lists[] = {
  { "spec.nodeAffinity.required.nodeSelectorTerms[].matchExpressions[]", 0, R_REQ_NODE_EXPR },
  { "spec.nodeAffinity.required.nodeSelectorTerms[].matchFields[]", 0, R_REQ_NODE_FIELD },
  { "allowedTopologies[].matchLabelExpressions[]", 0, R_REQ_NODE_EXPR },
};

/* A container status's fields, under status.containerStatuses[] and initContainerStatuses[]. */
static const PathSpec container_status_paths[] = {
  { ".name", F_CS_NAME, 0 },
  { ".state.waiting.reason", F_CS_WAITING_REASON, 0 },
  { ".state.waiting.message", F_CS_WAITING_MESSAGE, 0 },
  { ".state.running.startedAt", F_CS_RUNNING, 0 },
  { ".state.terminated.exitCode", F_CS_EXIT_CODE, 0 },
  { ".state.terminated.reason", F_CS_TERMINATED_REASON, 0 },
  { ".state.terminated.message", F_CS_TERMINATED_MESSAGE, 0 },
  /* in-place resize: what the kubelet allocated and what runs (model/resize.h) */
  { ".allocatedResources", 0, R_CS_ALLOCATED },
  { ".allocatedResources.*", F_CS_ALLOCATED, 0 },
  { ".resources.requests", 0, R_CS_ACTUATED },
  { ".resources.requests.*", F_CS_ACTUATED, 0 },
};

/* Pod-spec paths: under "spec." for a Pod and "spec.template.spec." for a workload. */
static const PathSpec pod_spec_paths[] = {
  { "nodeName", F_NODE_NAME, 0 },
  { "priority", F_PRIORITY, 0 },
  { "priorityClassName", F_PRIORITY_CLASS, 0 },
  { "schedulerName", F_SCHEDULER_NAME, 0 },
  { "preemptionPolicy", F_PREEMPTION_POLICY, 0 },
  { "runtimeClassName", F_RUNTIME_CLASS, 0 },
  { "schedulingGates[].name", F_SCHEDULING_GATE, 0 },
  { "hostNetwork", F_HOST_NETWORK, 0 },
  { "nodeSelector.*", F_NODE_SELECTOR, 0 },
  { "tolerations[]", 0, R_TOLERATION },
  { "tolerations[].key", F_TOL_KEY, 0 },
  { "tolerations[].operator", F_TOL_OP, 0 },
  { "tolerations[].value", F_TOL_VALUE, 0 },
  { "tolerations[].effect", F_TOL_EFFECT, 0 },
  { "tolerations[].tolerationSeconds", F_TOL_SECONDS, 0 },
  { "containers[]", 0, R_CONTAINER },
  { "containers[].name", F_CTR_NAME, 0 },
  { "containers[].resources.requests.*", F_CTR_REQUEST, 0 },
  { "containers[].resources.limits.*", F_CTR_LIMIT, 0 },
  { "containers[].resizePolicy[]", 0, R_RESIZE_POLICY },
  { "containers[].resizePolicy[].resourceName", F_RP_RESOURCE, 0 },
  { "containers[].resizePolicy[].restartPolicy", F_RP_RESTART, 0 },
  { "containers[].ports[]", 0, R_PORT },
  { "containers[].ports[].hostPort", F_PORT_HOST_PORT, 0 },
  { "containers[].ports[].protocol", F_PORT_PROTOCOL, 0 },
  { "containers[].ports[].hostIP", F_PORT_HOST_IP, 0 },
  { "initContainers[]", 0, R_INIT_CONTAINER },
  { "initContainers[].name", F_CTR_NAME, 0 },
  { "initContainers[].restartPolicy", F_CTR_RESTART_POLICY, 0 },
  { "initContainers[].resources.requests.*", F_CTR_REQUEST, 0 },
  { "initContainers[].resources.limits.*", F_CTR_LIMIT, 0 },
  { "initContainers[].resizePolicy[]", 0, R_RESIZE_POLICY },
  { "initContainers[].resizePolicy[].resourceName", F_RP_RESOURCE, 0 },
  { "initContainers[].resizePolicy[].restartPolicy", F_RP_RESTART, 0 },
  { "initContainers[].ports[]", 0, R_INIT_PORT },
  { "initContainers[].ports[].hostPort", F_PORT_HOST_PORT, 0 },
  { "initContainers[].ports[].protocol", F_PORT_PROTOCOL, 0 },
  { "initContainers[].ports[].hostIP", F_PORT_HOST_IP, 0 },
  { "resources.requests.*", F_POD_REQUEST, 0 },
  { "overhead.*", F_OVERHEAD, 0 },
  { "affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution", 0,
    R_REQUIRED_AFFINITY },
  { "affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[]",
    0, R_NODE_TERM },
  { "topologySpreadConstraints[]", 0, R_SPREAD },
  { "topologySpreadConstraints[].maxSkew", F_SPREAD_MAX_SKEW, 0 },
  { "topologySpreadConstraints[].topologyKey", F_SPREAD_TOPOLOGY_KEY, 0 },
  { "topologySpreadConstraints[].whenUnsatisfiable", F_SPREAD_WHEN, 0 },
  { "topologySpreadConstraints[].minDomains", F_SPREAD_MIN_DOMAINS, 0 },
  { "topologySpreadConstraints[].nodeAffinityPolicy", F_SPREAD_AFFINITY_POLICY, 0 },
  { "topologySpreadConstraints[].nodeTaintsPolicy", F_SPREAD_TAINTS_POLICY, 0 },
  { "topologySpreadConstraints[].matchLabelKeys[]", F_SPREAD_LABEL_KEY, 0 },
  /* the volumes the volume filters read (model/volumes.h) */
  { "volumes[]", 0, R_VOLUME },
  { "volumes[].name", F_VOL_NAME, 0 },
  { "volumes[].persistentVolumeClaim", 0, R_VOL_CLAIM },
  { "volumes[].persistentVolumeClaim.claimName", F_VOL_ID, 0 },
  { "volumes[].persistentVolumeClaim.readOnly", F_VOL_READ_ONLY, 0 },
  { "volumes[].ephemeral", 0, R_VOL_EPHEMERAL },
  { "volumes[].ephemeral.readOnly", F_VOL_READ_ONLY, 0 },
  { "volumes[].gcePersistentDisk", 0, R_VOL_GCE },
  { "volumes[].gcePersistentDisk.pdName", F_VOL_ID, 0 },
  { "volumes[].gcePersistentDisk.readOnly", F_VOL_READ_ONLY, 0 },
  { "volumes[].awsElasticBlockStore", 0, R_VOL_EBS },
  { "volumes[].awsElasticBlockStore.volumeID", F_VOL_ID, 0 },
  { "volumes[].awsElasticBlockStore.readOnly", F_VOL_READ_ONLY, 0 },
  { "volumes[].rbd", 0, R_VOL_RBD },
  { "volumes[].rbd.image", F_VOL_ID, 0 },
  { "volumes[].rbd.pool", F_VOL_POOL, 0 },
  { "volumes[].rbd.monitors[]", F_VOL_MONITOR, 0 },
  { "volumes[].rbd.readOnly", F_VOL_READ_ONLY, 0 },
  { "volumes[].iscsi", 0, R_VOL_ISCSI },
  { "volumes[].iscsi.iqn", F_VOL_ID, 0 },
  { "volumes[].iscsi.readOnly", F_VOL_READ_ONLY, 0 },
  /* DynamicResources: counted, not modelled */
  { "resourceClaims[]", 0, R_RESOURCE_CLAIM },
  { "resourceClaims[].name", F_CLAIM_NAME, 0 },
  { "containers[].resources.claims[]", 0, R_CTR_CLAIM },
  { "containers[].resources.claims[].name", F_CLAIM_NAME, 0 },
  { "initContainers[].resources.claims[]", 0, R_CTR_CLAIM },
  { "initContainers[].resources.claims[].name", F_CLAIM_NAME, 0 },
  { "resources.claims[]", 0, R_CTR_CLAIM },
  { "resources.claims[].name", F_CLAIM_NAME, 0 },
};

/* Template-only paths: a Pod from the API server has had defaultHostNetworkPorts applied
 * (every port of a hostNetwork pod has its hostPort), a pod template has not since v1.28, so
 * only templates need containerPort (model/ports.h fs_pod_host_ports); Pods skip it, which
 * keeps the ports of 150,000 pods cheap to read. */
static const PathSpec template_spec_paths[] = {
  { "containers[].ports[].containerPort", F_PORT_CONTAINER_PORT, 0 },
  { "initContainers[].ports[].containerPort", F_PORT_CONTAINER_PORT, 0 },
};

#define NODE_TERMS \
  "affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[]"
#define POD_AFFINITY "affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[]"
#define POD_ANTI "affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[]"

/* Where a requirement list ({key, operator, values[]}) sits, relative to a pod spec. */
static const PathSpec pod_requirement_lists[] = {
  { NODE_TERMS ".matchExpressions[]", 0, R_REQ_NODE_EXPR },
  { NODE_TERMS ".matchFields[]", 0, R_REQ_NODE_FIELD },
};

/* Where pod-affinity terms sit, relative to a pod spec. */
static const PathSpec pod_affinity_terms[] = {
  { POD_AFFINITY, 0, R_AFFINITY_TERM },
  { POD_ANTI, 0, R_ANTI_AFFINITY_TERM },
};

static SchemaNode *
schema_child (SchemaNode *parent, const char *key, gsize len)
{
  if (len == 1 && key[0] == '*')
    return parent->any != NULL ? parent->any : (parent->any = g_new0 (SchemaNode, 1));
  if (len == 2 && key[0] == '[' && key[1] == ']')
    return parent->elem != NULL ? parent->elem : (parent->elem = g_new0 (SchemaNode, 1));
  for (SchemaNode *child = parent->first_child; child != NULL; child = child->next_sibling)
    if (child->key_len == len && memcmp (child->key, key, len) == 0)
      return child;
  SchemaNode *child = g_new0 (SchemaNode, 1);
  child->key = g_strndup (key, len);
  child->key_len = len;
  child->next_sibling = parent->first_child;
  parent->first_child = child;
  return child;
}

/* Walks PREFIX then PATH ("a.b[].c.*") from ROOT, creating nodes; returns the last one. */
static SchemaNode *
schema_walk (SchemaNode *root, const char *prefix, const char *path)
{
  g_autofree char *full = g_strconcat (prefix, path, NULL);
  SchemaNode *node = root;
  const char *segment = full;
  while (*segment != '\0')
    {
      gsize len = strcspn (segment, ".[");
      if (len > 0)
        node = schema_child (node, segment, len);
      segment += len;
      if (g_str_has_prefix (segment, "[]"))
        {
          node = schema_child (node, "[]", 2);
          segment += 2;
        }
      if (*segment == '.')
        segment++;
    }
  return node;
}

static void
schema_add (SchemaNode *root, const char *prefix, const PathSpec *spec)
{
  SchemaNode *node = schema_walk (root, prefix, spec->path);
  if (spec->field != F_NONE)
    node->field = spec->field;
  if (spec->record != R_NONE)
    node->record = spec->record;
}

static void
schema_add_requirements (SchemaNode *root, const char *prefix, const PathSpec *list)
{
  g_autofree char *base = g_strconcat (prefix, list->path, NULL);
  schema_add (root, "", &(PathSpec){ base, 0, list->record });
  schema_add (root, base, &(PathSpec){ ".key", F_REQ_KEY, 0 });
  schema_add (root, base, &(PathSpec){ ".operator", F_REQ_OP, 0 });
  schema_add (root, base, &(PathSpec){ ".values[]", F_REQ_VALUE, 0 });
}

static void
schema_add_selector (SchemaNode *root, const char *path, FsRecord record)
{
  schema_add (root, "", &(PathSpec){ path, 0, record });
  schema_add (root, path, &(PathSpec){ ".matchLabels.*", F_SEL_LABEL, 0 });
  schema_add_requirements (root, path, &(PathSpec){ ".matchExpressions[]", 0, R_REQ_SEL });
}

static void
schema_add_pod_spec (SchemaNode *root, const char *prefix)
{
  for (gsize i = 0; i < G_N_ELEMENTS (pod_spec_paths); i++)
    schema_add (root, prefix, &pod_spec_paths[i]);
  for (gsize i = 0; i < G_N_ELEMENTS (pod_requirement_lists); i++)
    schema_add_requirements (root, prefix, &pod_requirement_lists[i]);
  for (gsize i = 0; i < G_N_ELEMENTS (pod_affinity_terms); i++)
    {
      const PathSpec *term = &pod_affinity_terms[i];
      schema_add (root, prefix, term);
      g_autofree char *base = g_strconcat (prefix, term->path, NULL);
      schema_add (root, base, &(PathSpec){ ".topologyKey", F_TERM_TOPOLOGY_KEY, 0 });
      schema_add (root, base, &(PathSpec){ ".namespaces[]", F_TERM_NAMESPACE, 0 });
      g_autofree char *selector = g_strconcat (base, ".labelSelector", NULL);
      g_autofree char *ns_selector = g_strconcat (base, ".namespaceSelector", NULL);
      schema_add_selector (root, selector, R_SEL_TERM);
      schema_add_selector (root, ns_selector, R_SEL_TERM_NS);
    }
  g_autofree char *spread = g_strconcat (prefix, "topologySpreadConstraints[].labelSelector", NULL);
  schema_add_selector (root, spread, R_SEL_SPREAD);
}

/* Hashes every node's named children into its buckets, once the trie is complete. */
static void
schema_index (SchemaNode *node, GHashTable *seen)
{
  if (node == NULL || !g_hash_table_add (seen, node))
    return;
  for (SchemaNode *child = node->first_child; child != NULL; child = child->next_sibling)
    {
      guint bucket = key_bucket (child->key, child->key_len);
      child->next_in_bucket = node->buckets[bucket];
      node->buckets[bucket] = child;
      schema_index (child, seen);
    }
  schema_index (node->any, seen);
  schema_index (node->elem, seen);
}

const SchemaNode *
fs_schema_root (void)
{
  static SchemaNode *root;
  if (g_once_init_enter (&root))
    {
      SchemaNode *built = g_new0 (SchemaNode, 1);
      built->record = R_OBJECT;
      for (gsize i = 0; i < G_N_ELEMENTS (object_paths); i++)
        schema_add (built, "", &object_paths[i]);
      for (gsize i = 0; i < G_N_ELEMENTS (object_requirement_lists); i++)
        schema_add_requirements (built, "", &object_requirement_lists[i]);
      schema_add_pod_spec (built, "spec.");
      schema_add_pod_spec (built, "spec.template.spec.");
      for (gsize i = 0; i < G_N_ELEMENTS (template_spec_paths); i++)
        schema_add (built, "spec.template.spec.", &template_spec_paths[i]);
      schema_add_selector (built, "spec.selector", R_SEL_WORKLOAD);
      for (gsize i = 0; i < G_N_ELEMENTS (container_status_paths); i++)
        {
          schema_add (built, "status.containerStatuses[]", &container_status_paths[i]);
          schema_add (built, "status.initContainerStatuses[]", &container_status_paths[i]);
        }
      /* A list's items are objects: "items[]" leads back to the root. */
      schema_child (built, "items", 5)->elem = built;
      g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);
      schema_index (built, seen);
      g_once_init_leave (&root, built);
    }
  return root;
}
