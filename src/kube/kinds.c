/* fitscale — the kinds: the object's kind as read so far, which kinds are kept as generic
 * trees, and what each kind becomes when its object ends: a Node, a Pod, a workload
 * (Deployment, StatefulSet, ReplicaSet), a Namespace, PodMetrics, an Event, a
 * PodDisruptionBudget, or a generic
 * object (HPA, VPA, Hvpa, metric values) with its tree; a list gives its resourceVersion,
 * and any other kind is counted as skipped. */
#include "config.h"

#include <string.h>

#include "builder.h"
#include "fitscale/kube/hvpaspec.h"
#include "fitscale/model/error.h"
#include "fitscale/model/resize.h"

const char *
fs_object_kind (const FsObjectBuilder *builder)
{
  return object_kind (builder);
}

const char *
fs_object_api_version (const FsObjectBuilder *builder)
{
  return builder->st.api_version[0] != '\0' ? builder->st.api_version : NULL;
}

const char *
fs_object_namespace (const FsObjectBuilder *builder)
{
  return builder->st.namespace;
}

const char *
fs_object_self_link_namespace (const FsObjectBuilder *builder)
{
  return builder->st.self_link_namespace;
}

gboolean
fs_object_all_namespaces (const FsObjectBuilder *builder)
{
  return builder->st.all_namespaces;
}

gboolean
fs_kind_is_generic (const char *kind)
{
  return kind_is_generic (kind);
}

/* The object's owner (the controller among its ownerReferences, else the first), or NULL. */
static const FsOwnerRef *
intern_owner (FsObjectBuilder *builder)
{
  if (!builder->st.has_owner)
    return NULL;
  FsOwnerRef owner;
  memset (&owner, 0, sizeof owner);
  owner.kind = builder->st.owner.kind;
  owner.name = builder->st.owner.name;
  owner.api_version = builder->st.owner.api_version;
  owner.controller = builder->st.owner.controller;
  return fs_pool_intern_blob (builder->pool, &owner, sizeof owner);
}

static gboolean
require_name (FsObjectBuilder *builder, GError **error)
{
  if (builder->st.name != NULL && builder->st.name[0] != '\0')
    return TRUE;
  g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "field metadata.name: missing");
  return FALSE;
}

/* Namespaced objects without a namespace are in "default", as `kubectl apply -f` puts them. */
static const char *
namespace_or_default (FsObjectBuilder *builder)
{
  return builder->st.namespace != NULL ? builder->st.namespace
                                       : fs_pool_intern (builder->pool, "default", 7);
}

static gboolean
end_node (FsObjectBuilder *builder, GError **error)
{
  ObjectState *st = &builder->st;
  FsNode node;
  memset (&node, 0, sizeof node);
  node.name = fs_pool_intern (builder->pool, st->name, strlen (st->name));
  node.labels = fs_intern_object_labels (builder);
  node.taints = INTERN_LIST (builder, builder->taints, FsTaintList);
  node.flags = (st->ready ? FS_NODE_READY : 0) | (st->ready_known ? FS_NODE_READY_KNOWN : 0)
               | (st->node_unschedulable ? FS_NODE_UNSCHEDULABLE : 0);
  node.allocatable = st->allocatable;
  node.capacity = st->capacity;
  fs_snapshot_builder_add_node (builder->snapshot_builder, &node);
  return TRUE;
}

static const char *
intern_message (FsObjectBuilder *builder, StatusMessage which)
{
  GString *message = builder->status_message[which];
  return message->len > 0 ? fs_pool_intern (builder->pool, message->str, message->len) : NULL;
}

/* What the kubelet reported, for a bound pod that is neither Running nor Succeeded: what
 * `why` says it waits for (model/kubelet.h).  Other pods keep nothing of it. */
static const FsPodKubeletStatus *
intern_kubelet_status (FsObjectBuilder *builder, const FsPod *pod)
{
  if (pod->node_name == NULL || pod->phase == FS_PHASE_RUNNING || pod->phase == FS_PHASE_SUCCEEDED)
    return NULL;
  ObjectState *st = &builder->st;
  FsPodKubeletStatus status;
  memset (&status, 0, sizeof status);
  status.reason = st->pod_reason;
  status.message = intern_message (builder, STATUS_MESSAGE_POD);
  status.scheduled_time = st->scheduled_time;
  status.init = st->init_status;
  status.init.message = intern_message (builder, STATUS_MESSAGE_INIT);
  status.container = st->container_status;
  status.container.message = intern_message (builder, STATUS_MESSAGE_CONTAINER);
  status.ready_to_start = st->ready_to_start;
  status.initialized = st->initialized;
  status.containers_ready = st->containers_ready;
  status.running = st->running;
  return fs_pool_intern_blob (builder->pool, &status, sizeof status);
}

/* The pod's resize, when it reports one or its containers' allocated or actuated requests
 * are not its spec's (model/resize.h); NULL otherwise, and always for a pod on no node. */
static gboolean
intern_resize (FsObjectBuilder *builder, const FsPod *pod, const FsPodResize **out, GError **error)
{
  ObjectState *st = &builder->st;
  *out = NULL;
  FsResizeState state = st->resize_state != FS_RESIZE_NONE ? st->resize_state : st->resize_field_state;
  if (pod->node_name == NULL || (state == FS_RESIZE_NONE && builder->allocations->len == 0))
    return TRUE;
  const FsContainerAllocation *statuses = (const FsContainerAllocation *) (gpointer) builder->allocations->data;
  if (state == FS_RESIZE_NONE && fs_pod_status_agrees (pod->spec->containers, statuses, builder->allocations->len))
    return TRUE;
  FsPodResize resize;
  memset (&resize, 0, sizeof resize);
  resize.desired = pod->spec->request;
  if (!fs_pod_status_requests (pod->spec->containers, statuses, builder->allocations->len,
                               state == FS_RESIZE_INFEASIBLE, &resize, error))
    return FALSE;
  gboolean differs = !fs_resources_equal (&resize.allocated, &resize.desired)
                     || !fs_resources_equal (&resize.actuated, &resize.desired);
  if (state == FS_RESIZE_NONE && !differs)
    return TRUE;
  /* desired and allocated apart, and no answer from the kubelet yet */
  resize.state = state == FS_RESIZE_NONE ? FS_RESIZE_PROPOSED : state;
  resize.message = st->resize_message;
  resize.pending_since = st->resize_pending_since;
  resize.n_containers = builder->allocations->len;
  resize.containers = intern_array (builder, builder->allocations->data, builder->allocations->len,
                                    sizeof (FsContainerAllocation));
  *out = fs_pool_intern_blob (builder->pool, &resize, sizeof resize);
  return TRUE;
}

static gboolean
end_pod (FsObjectBuilder *builder, GError **error)
{
  ObjectState *st = &builder->st;
  FsPod pod;
  memset (&pod, 0, sizeof pod);
  pod.spec = fs_intern_pod_spec (builder, FALSE, error);
  if (pod.spec == NULL)
    return FALSE;
  pod.namespace = namespace_or_default (builder);
  pod.name = st->name;
  pod.node_name = st->node_name;
  pod.node_index = -1;
  pod.phase = st->phase != NULL ? fs_pod_phase_parse (st->phase) : FS_PHASE_PENDING;
  pod.flags = (st->ready ? FS_POD_READY : 0) | (st->ready_known ? FS_POD_READY_KNOWN : 0)
              | (st->terminating ? FS_POD_TERMINATING : 0)
              | (st->unschedulable_cond ? FS_POD_UNSCHEDULABLE : 0)
              | (st->scheduled_true ? FS_POD_SCHEDULED : 0)
              | (st->preempted ? FS_POD_PREEMPTED : 0);
  pod.priority = st->priority;
  pod.owner = intern_owner (builder);
  pod.labels = fs_intern_object_labels (builder);
  pod.creation_time = st->creation_time;
  pod.start_time = st->start_time;
  pod.ready_transition_time = st->ready_time;
  pod.scheduled_message = st->scheduled_message;
  pod.nominated_node = st->nominated_node;
  pod.kubelet = intern_kubelet_status (builder, &pod);
  if ((st->resize_state != FS_RESIZE_NONE || st->resize_field_state != FS_RESIZE_NONE
       || builder->allocations->len > 0)
      && !intern_resize (builder, &pod, &pod.resize, error))
    return FALSE;
  fs_snapshot_builder_add_pod (builder->snapshot_builder, &pod);
  return TRUE;
}

static gboolean
end_workload (FsObjectBuilder *builder, FsWorkloadKind kind, GError **error)
{
  ObjectState *st = &builder->st;
  FsWorkload workload;
  memset (&workload, 0, sizeof workload);
  workload.template = fs_intern_pod_spec (builder, TRUE, error);
  if (workload.template == NULL)
    return FALSE;
  workload.kind = kind;
  workload.namespace = namespace_or_default (builder);
  workload.name = st->name;
  workload.owner = intern_owner (builder);
  workload.has_replicas = st->has_replicas;
  workload.replicas = st->has_replicas ? st->replicas : 1; /* apps/v1 defaults to 1 */
  workload.selector = st->workload_selector;
  workload.template_labels = fs_intern_labels (builder, builder->template_labels);
  workload.strategy = st->strategy;
  workload.max_surge = st->max_surge;
  workload.max_unavailable = st->max_unavailable;
  workload.status_replicas = st->status_replicas;
  workload.ready_replicas = st->ready_replicas;
  workload.admission = st->admission;
  fs_snapshot_builder_add_workload (builder->snapshot_builder, &workload);
  return TRUE;
}

static gboolean
end_pod_metrics (FsObjectBuilder *builder)
{
  ObjectState *st = &builder->st;
  FsPodMetrics metrics;
  memset (&metrics, 0, sizeof metrics);
  metrics.namespace = namespace_or_default (builder);
  metrics.name = st->name;
  metrics.timestamp = st->timestamp;
  metrics.window_seconds = st->window_ms / 1000;
  metrics.n_containers = builder->usages->len;
  metrics.containers = intern_array (builder, builder->usages->data, builder->usages->len,
                                     sizeof (FsContainerUsage));
  fs_snapshot_builder_add_pod_metrics (builder->snapshot_builder, &metrics);
  return TRUE;
}

static gboolean
end_event (FsObjectBuilder *builder)
{
  ObjectState *st = &builder->st;
  FsEvent event;
  memset (&event, 0, sizeof event);
  event.namespace = namespace_or_default (builder);
  event.name = st->name;
  event.involved_kind = st->ev_kind;
  event.involved_namespace = st->ev_namespace;
  event.involved_name = st->ev_name;
  event.reason = st->ev_reason;
  event.message = st->ev_message;
  event.type = st->ev_type;
  event.source = st->ev_source;
  event.count = st->ev_count;
  event.last_time = st->ev_last != 0 ? st->ev_last
                    : st->ev_event_time != 0 ? st->ev_event_time : st->ev_first;
  fs_snapshot_builder_add_event (builder->snapshot_builder, &event);
  return TRUE;
}

static gboolean
end_pdb (FsObjectBuilder *builder)
{
  ObjectState *st = &builder->st;
  FsPodDisruptionBudget pdb;
  memset (&pdb, 0, sizeof pdb);
  pdb.namespace = namespace_or_default (builder);
  pdb.name = st->name;
  pdb.selector = st->workload_selector;
  pdb.disruptions_allowed = st->disruptions_allowed;
  pdb.disrupted_pods = fs_intern_strings (builder, builder->disrupted_pods, &pdb.n_disrupted_pods);
  fs_snapshot_builder_add_pdb (builder->snapshot_builder, &pdb);
  return TRUE;
}

static gboolean
end_generic (FsObjectBuilder *builder, const char *kind, const FsTree *tree)
{
  static const char *const kinds[] = {
    [FS_KIND_HPA] = "HorizontalPodAutoscaler", [FS_KIND_VPA] = "VerticalPodAutoscaler",
    [FS_KIND_HVPA] = "Hvpa", [FS_KIND_METRIC_VALUE] = "MetricValue",
    [FS_KIND_EXTERNAL_METRIC_VALUE] = "ExternalMetricValue",
    [FS_KIND_SCHEDULER_CONFIGURATION] = "KubeSchedulerConfiguration",
    [FS_KIND_RUNTIME_CLASS] = "RuntimeClass",
  };
  ObjectState *st = &builder->st;
  FsGenericObject object;
  memset (&object, 0, sizeof object);
  for (gsize i = 0; i < G_N_ELEMENTS (kinds); i++)
    if (strcmp (kind, kinds[i]) == 0)
      object.kind = (FsGenericKind) i;
  object.api_version = st->api_version[0] != '\0'
                           ? fs_pool_intern (builder->pool, st->api_version,
                                             strlen (st->api_version)) : NULL;
  object.namespace = namespace_or_default (builder);
  object.name = st->name;
  object.labels = fs_intern_object_labels (builder);
  object.annotations = fs_intern_labels (builder, builder->annotations);
  object.object = tree;
  fs_autoscaler_target_read (&object);
  fs_snapshot_builder_add_generic (builder->snapshot_builder, &object);
  return TRUE;
}

/* GetPersistentVolumeClaimClass / GetPersistentVolumeClass (component-helpers/storage/volume
 * helpers.go) read the beta annotation first, then spec.storageClassName; "" is no class. */
static const char *
storage_class_of (const ObjectState *st)
{
  const char *name = st->ann_beta_class != NULL ? st->ann_beta_class : st->storage_class;
  return name != NULL && name[0] != '\0' ? name : NULL;
}

static gboolean
end_claim (FsObjectBuilder *builder)
{
  ObjectState *st = &builder->st;
  FsClaim claim;
  memset (&claim, 0, sizeof claim);
  claim.namespace = namespace_or_default (builder);
  claim.name = st->name;
  claim.volume_name = st->volume_name;
  claim.storage_class = storage_class_of (st);
  claim.selected_node = st->ann_selected_node;
  claim.selector = st->workload_selector;
  claim.owner = intern_owner (builder);
  claim.request_bytes = st->storage_bytes;
  claim.access_modes = st->access_modes;
  claim.bind_completed = st->ann_bind_completed;
  claim.terminating = st->terminating;
  claim.lost = st->phase != NULL && strcmp (st->phase, "Lost") == 0;
  claim.block = st->block;
  fs_snapshot_builder_add_claim (builder->snapshot_builder, &claim);
  return TRUE;
}

static gboolean
end_persistent_volume (FsObjectBuilder *builder)
{
  ObjectState *st = &builder->st;
  FsPersistentVolume volume;
  memset (&volume, 0, sizeof volume);
  volume.name = fs_pool_intern (builder->pool, st->name, strlen (st->name));
  volume.labels = fs_intern_object_labels (builder);
  volume.storage_class = storage_class_of (st);
  volume.claim_namespace = st->claim_namespace;
  volume.claim_name = st->claim_name;
  volume.csi_driver = st->csi_driver;
  volume.csi_handle = st->csi_handle;
  volume.node_affinity = st->has_required_affinity ? fs_intern_node_terms (builder) : NULL;
  volume.capacity_bytes = st->storage_bytes;
  volume.access_modes = st->access_modes;
  volume.available = st->phase != NULL && strcmp (st->phase, "Available") == 0;
  volume.terminating = st->terminating;
  volume.block = st->block;
  fs_snapshot_builder_add_persistent_volume (builder->snapshot_builder, &volume);
  return TRUE;
}

static gboolean
end_storage_class (FsObjectBuilder *builder)
{
  ObjectState *st = &builder->st;
  FsStorageClass class;
  memset (&class, 0, sizeof class);
  class.name = fs_pool_intern (builder->pool, st->name, strlen (st->name));
  class.provisioner = st->provisioner;
  class.has_binding_mode = st->has_binding_mode;
  class.wait_for_first_consumer = st->wait_for_first_consumer;
  class.allowed_topologies = builder->node_terms->len > 0 ? fs_intern_node_terms (builder) : NULL;
  fs_snapshot_builder_add_storage_class (builder->snapshot_builder, &class);
  return TRUE;
}

static gboolean
end_csi_node (FsObjectBuilder *builder)
{
  FsCsiNode csi_node;
  memset (&csi_node, 0, sizeof csi_node);
  csi_node.name = fs_pool_intern (builder->pool, builder->st.name, strlen (builder->st.name));
  csi_node.n_drivers = builder->csi_drivers->len;
  csi_node.drivers = intern_array (builder, builder->csi_drivers->data, builder->csi_drivers->len,
                                   sizeof (FsCsiDriver));
  fs_snapshot_builder_add_csi_node (builder->snapshot_builder, &csi_node);
  return TRUE;
}

static const struct { const char *kind; guint32 storage; } storage_kinds[] = {
  { "PersistentVolumeClaim", FS_STORAGE_CLAIMS },
  { "PersistentVolume", FS_STORAGE_VOLUMES },
  { "StorageClass", FS_STORAGE_CLASSES },
  { "CSINode", FS_STORAGE_CSI_NODES },
};

/* A typed list of a storage kind says the snapshot has that kind, even with no item. */
static void
list_of_storage (FsObjectBuilder *builder, const char *kind)
{
  gsize len = strlen (kind) - 4; /* without "List" */
  for (gsize i = 0; i < G_N_ELEMENTS (storage_kinds); i++)
    if (strlen (storage_kinds[i].kind) == len && strncmp (kind, storage_kinds[i].kind, len) == 0)
      fs_snapshot_builder_saw_storage (builder->snapshot_builder, storage_kinds[i].storage);
}

gboolean
fs_object_end (FsObjectBuilder *builder, const FsTree *tree, GError **error)
{
  const char *kind = fs_object_kind (builder);
  if (kind == NULL)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID,
                   "field kind: missing (and no typed list around the object gives it)");
      return FALSE;
    }
  if (g_str_has_suffix (kind, "List"))
    {
      list_of_storage (builder, kind);
      if (builder->st.resource_version[0] != '\0')
        fs_snapshot_builder_set_resource_version (builder->snapshot_builder,
                                                  builder->st.resource_version);
      return TRUE;
    }
  static const struct { const char *kind; FsWorkloadKind workload; } workloads[] = {
    { "Deployment", FS_WORKLOAD_DEPLOYMENT },
    { "StatefulSet", FS_WORKLOAD_STATEFULSET },
    { "ReplicaSet", FS_WORKLOAD_REPLICASET },
  };
  gboolean known = strcmp (kind, "Node") == 0 || strcmp (kind, "Pod") == 0
                   || strcmp (kind, "Namespace") == 0 || strcmp (kind, "PodMetrics") == 0
                   || strcmp (kind, "Event") == 0 || strcmp (kind, "PodDisruptionBudget") == 0
                   || fs_kind_is_generic (kind);
  for (gsize i = 0; i < G_N_ELEMENTS (workloads); i++)
    known = known || strcmp (kind, workloads[i].kind) == 0;
  for (gsize i = 0; i < G_N_ELEMENTS (storage_kinds); i++)
    known = known || strcmp (kind, storage_kinds[i].kind) == 0;
  if (!known)
    {
      fs_snapshot_builder_count_skipped (builder->snapshot_builder, kind);
      return TRUE;
    }
  gboolean nameless = strcmp (kind, "MetricValue") == 0 || strcmp (kind, "ExternalMetricValue") == 0
                      || strcmp (kind, "KubeSchedulerConfiguration") == 0; /* a config file's */
  if (nameless && builder->st.name == NULL)
    {
      /* metric values have no name of their own: number them, so that none replaces another */
      g_autofree char *name = g_strdup_printf ("%s-%u", kind, ++builder->n_nameless);
      builder->st.name = fs_pool_strdup (builder->pool, name, strlen (name));
    }
  if (!require_name (builder, error))
    return FALSE;
  if (strcmp (kind, "Node") == 0)
    return end_node (builder, error);
  if (strcmp (kind, "Pod") == 0)
    return end_pod (builder, error);
  for (gsize i = 0; i < G_N_ELEMENTS (workloads); i++)
    if (strcmp (kind, workloads[i].kind) == 0)
      return end_workload (builder, workloads[i].workload, error);
  if (strcmp (kind, "Namespace") == 0)
    {
      FsNamespace ns = { builder->st.name, fs_intern_object_labels (builder),
                         builder->st.phase };
      fs_snapshot_builder_add_namespace (builder->snapshot_builder, &ns);
      return TRUE;
    }
  if (strcmp (kind, "PodMetrics") == 0)
    return end_pod_metrics (builder);
  if (strcmp (kind, "Event") == 0)
    return end_event (builder);
  if (strcmp (kind, "PersistentVolumeClaim") == 0)
    return end_claim (builder);
  if (strcmp (kind, "PersistentVolume") == 0)
    return end_persistent_volume (builder);
  if (strcmp (kind, "StorageClass") == 0)
    return end_storage_class (builder);
  if (strcmp (kind, "CSINode") == 0)
    return end_csi_node (builder);
  if (strcmp (kind, "PodDisruptionBudget") == 0)
    return end_pdb (builder);
  return end_generic (builder, kind, tree);
}
