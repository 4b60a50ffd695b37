/* fitscale — a snapshot copied into a pool of its own (see include/fitscale/model/compact.h).
 *
 * Each part is copied bottom-up as the decoders made it: its bytes first (so that padding
 * and every scalar come along), then each pointer replaced by its part's copy, then the
 * whole interned by its bytes in the new pool.  A part is copied once: COPIED maps the old
 * pointer to the new, so the pod spec 3,000 pods share is one lookup for the other 2,999. */
#include "config.h"

#include <string.h>

#include "fitscale/model/compact.h"

typedef struct {
  FsPool *pool;
  GHashTable *copied; /* old part -> its copy */
} Copier;

static const char *
copy_string (Copier *copier, const char *text)
{
  return text != NULL ? fs_pool_intern (copier->pool, text, strlen (text)) : NULL;
}

/* An object's own name, unique anyway: copied, not interned (as the decoders keep it). */
static const char *
copy_name (Copier *copier, const char *text)
{
  return text != NULL ? fs_pool_strdup (copier->pool, text, strlen (text)) : NULL;
}

/* The copy of OLD already made, or NULL. */
static gconstpointer
copied (Copier *copier, gconstpointer old)
{
  return g_hash_table_lookup (copier->copied, old);
}

/* The first line of every copy_ function: NULL stays NULL, and a part already copied is
 * not copied again. */
#define RETURN_IF_COPIED(copier, old)                                                        \
  do                                                                                         \
    {                                                                                        \
      if ((old) == NULL)                                                                     \
        return NULL;                                                                         \
      gconstpointer done_ = copied ((copier), (old));                                        \
      if (done_ != NULL)                                                                     \
        return done_;                                                                        \
    }                                                                                        \
  while (0)

/* BLOB (SIZE bytes, pointers already replaced) interned in the new pool as OLD's copy; frees
 * BLOB. */
static gconstpointer
keep (Copier *copier, gconstpointer old, gpointer blob, gsize size)
{
  gconstpointer copy = fs_pool_intern_blob (copier->pool, blob, size);
  g_free (blob);
  g_hash_table_insert (copier->copied, (gpointer) old, (gpointer) copy);
  return copy;
}

static const char *const *
copy_strings (Copier *copier, const char *const *old, guint n)
{
  if (n == 0)
    return NULL;
  RETURN_IF_COPIED (copier, old);
  const char **copy = g_new (const char *, n);
  for (guint i = 0; i < n; i++)
    copy[i] = copy_string (copier, old[i]);
  return keep (copier, old, copy, n * sizeof *copy);
}

static void
copy_resources (Copier *copier, FsResources *resources)
{
  for (guint i = 0; i < resources->n_extended; i++)
    resources->extended[i].name = copy_string (copier, resources->extended[i].name);
}

static const FsResources *
copy_resources_part (Copier *copier, const FsResources *old)
{
  RETURN_IF_COPIED (copier, old);
  FsResources *copy = g_memdup2 (old, sizeof *old);
  copy_resources (copier, copy);
  return keep (copier, old, copy, sizeof *copy);
}

static const FsLabelSet *
copy_labels (Copier *copier, const FsLabelSet *old)
{
  RETURN_IF_COPIED (copier, old);
  gsize size = sizeof *old + old->n * sizeof old->items[0];
  FsLabelSet *copy = g_memdup2 (old, size);
  for (guint i = 0; i < copy->n; i++)
    {
      copy->items[i].key = copy_string (copier, copy->items[i].key);
      copy->items[i].value = copy_string (copier, copy->items[i].value);
    }
  return keep (copier, old, copy, size);
}

static const FsRequirementList *
copy_requirements (Copier *copier, const FsRequirementList *old)
{
  RETURN_IF_COPIED (copier, old);
  gsize size = sizeof *old + old->n * sizeof old->items[0];
  FsRequirementList *copy = g_memdup2 (old, size);
  for (guint i = 0; i < copy->n; i++)
    {
      copy->items[i].key = copy_string (copier, copy->items[i].key);
      copy->items[i].values = copy_strings (copier, copy->items[i].values, copy->items[i].n_values);
    }
  return keep (copier, old, copy, size);
}

static const FsLabelSelector *
copy_selector (Copier *copier, const FsLabelSelector *old)
{
  RETURN_IF_COPIED (copier, old);
  FsLabelSelector *copy = g_memdup2 (old, sizeof *old);
  copy->match_labels = copy_labels (copier, old->match_labels);
  copy->match_expressions = copy_requirements (copier, old->match_expressions);
  return keep (copier, old, copy, sizeof *copy);
}

static const FsNodeSelector *
copy_node_selector (Copier *copier, const FsNodeSelector *old)
{
  RETURN_IF_COPIED (copier, old);
  gsize size = sizeof *old + old->n * sizeof old->terms[0];
  FsNodeSelector *copy = g_memdup2 (old, size);
  for (guint i = 0; i < copy->n; i++)
    {
      copy->terms[i].match_expressions = copy_requirements (copier, copy->terms[i].match_expressions);
      copy->terms[i].match_fields = copy_requirements (copier, copy->terms[i].match_fields);
    }
  return keep (copier, old, copy, size);
}

static const FsTaintList *
copy_taints (Copier *copier, const FsTaintList *old)
{
  RETURN_IF_COPIED (copier, old);
  gsize size = sizeof *old + old->n * sizeof old->items[0];
  FsTaintList *copy = g_memdup2 (old, size);
  for (guint i = 0; i < copy->n; i++)
    {
      copy->items[i].key = copy_string (copier, copy->items[i].key);
      copy->items[i].value = copy_string (copier, copy->items[i].value);
    }
  return keep (copier, old, copy, size);
}

static const FsTolerationList *
copy_tolerations (Copier *copier, const FsTolerationList *old)
{
  RETURN_IF_COPIED (copier, old);
  gsize size = sizeof *old + old->n * sizeof old->items[0];
  FsTolerationList *copy = g_memdup2 (old, size);
  for (guint i = 0; i < copy->n; i++)
    {
      copy->items[i].key = copy_string (copier, copy->items[i].key);
      copy->items[i].value = copy_string (copier, copy->items[i].value);
    }
  return keep (copier, old, copy, size);
}

static const FsPodAffinityTermList *
copy_affinity_terms (Copier *copier, const FsPodAffinityTermList *old)
{
  RETURN_IF_COPIED (copier, old);
  gsize size = sizeof *old + old->n * sizeof old->items[0];
  FsPodAffinityTermList *copy = g_memdup2 (old, size);
  for (guint i = 0; i < copy->n; i++)
    {
      FsPodAffinityTerm *term = &copy->items[i];
      term->label_selector = copy_selector (copier, term->label_selector);
      term->namespace_selector = copy_selector (copier, term->namespace_selector);
      term->topology_key = copy_string (copier, term->topology_key);
      term->namespaces = copy_strings (copier, term->namespaces, term->n_namespaces);
    }
  return keep (copier, old, copy, size);
}

static const FsSpreadList *
copy_spread (Copier *copier, const FsSpreadList *old)
{
  RETURN_IF_COPIED (copier, old);
  gsize size = sizeof *old + old->n * sizeof old->items[0];
  FsSpreadList *copy = g_memdup2 (old, size);
  for (guint i = 0; i < copy->n; i++)
    {
      FsSpreadConstraint *constraint = &copy->items[i];
      constraint->topology_key = copy_string (copier, constraint->topology_key);
      constraint->label_selector = copy_selector (copier, constraint->label_selector);
      constraint->match_label_keys = copy_strings (copier, constraint->match_label_keys,
                                                   constraint->n_match_label_keys);
    }
  return keep (copier, old, copy, size);
}

static const FsContainer *
copy_containers (Copier *copier, const FsContainer *old, guint n)
{
  RETURN_IF_COPIED (copier, old);
  FsContainer *copy = g_memdup2 (old, MAX (n, 1) * sizeof *old);
  for (guint i = 0; i < n; i++)
    {
      copy[i].name = copy_string (copier, copy[i].name);
      copy_resources (copier, &copy[i].requests);
      copy_resources (copier, &copy[i].limits);
    }
  return keep (copier, old, copy, MAX (n, 1) * sizeof *old);
}

static const FsContainerSet *
copy_container_set (Copier *copier, const FsContainerSet *old)
{
  RETURN_IF_COPIED (copier, old);
  FsContainerSet *copy = g_memdup2 (old, sizeof *old);
  copy->containers = copy_containers (copier, old->containers, old->n_containers);
  copy->init_containers = copy_containers (copier, old->init_containers, old->n_init);
  copy->pod_level = copy_resources_part (copier, old->pod_level);
  copy->overhead = copy_resources_part (copier, old->overhead);
  return keep (copier, old, copy, sizeof *copy);
}

static const FsPlacement *
copy_placement (Copier *copier, const FsPlacement *old)
{
  RETURN_IF_COPIED (copier, old);
  FsPlacement *copy = g_memdup2 (old, sizeof *old);
  copy->node_selector = copy_labels (copier, old->node_selector);
  copy->required_affinity = copy_node_selector (copier, old->required_affinity);
  copy->tolerations = copy_tolerations (copier, old->tolerations);
  copy->pod_affinity = copy_affinity_terms (copier, old->pod_affinity);
  copy->pod_anti_affinity = copy_affinity_terms (copier, old->pod_anti_affinity);
  copy->spread = copy_spread (copier, old->spread);
  copy->scheduler_name = copy_string (copier, old->scheduler_name);
  copy->priority_class = copy_string (copier, old->priority_class);
  return keep (copier, old, copy, sizeof *copy);
}

static const FsHostPortList *
copy_host_ports (Copier *copier, const FsHostPortList *old)
{
  RETURN_IF_COPIED (copier, old);
  gsize size = sizeof *old + old->n * sizeof old->items[0];
  FsHostPortList *copy = g_memdup2 (old, size);
  for (guint i = 0; i < copy->n; i++)
    {
      copy->items[i].host_ip = copy_string (copier, copy->items[i].host_ip);
      copy->items[i].protocol = copy_string (copier, copy->items[i].protocol);
    }
  return keep (copier, old, copy, size);
}

static const FsVolumeList *
copy_volumes (Copier *copier, const FsVolumeList *old)
{
  RETURN_IF_COPIED (copier, old);
  gsize size = sizeof *old + old->n * sizeof old->items[0];
  FsVolumeList *copy = g_memdup2 (old, size);
  for (guint i = 0; i < copy->n; i++)
    {
      FsVolume *volume = &copy->items[i];
      volume->name = copy_string (copier, volume->name);
      volume->id = copy_string (copier, volume->id);
      volume->pool = copy_string (copier, volume->pool);
      volume->monitors = copy_strings (copier, volume->monitors, volume->n_monitors);
    }
  return keep (copier, old, copy, size);
}

static const FsPodSpec *
copy_pod_spec (Copier *copier, const FsPodSpec *old)
{
  RETURN_IF_COPIED (copier, old);
  FsPodSpec *copy = g_memdup2 (old, sizeof *old);
  copy_resources (copier, &copy->request);
  copy->containers = copy_container_set (copier, old->containers);
  copy->placement = copy_placement (copier, old->placement);
  copy->host_ports = copy_host_ports (copier, old->host_ports);
  copy->volumes = copy_volumes (copier, old->volumes);
  copy->scheduling_gates = copy_strings (copier, old->scheduling_gates, old->n_scheduling_gates);
  copy->runtime_class = copy_string (copier, old->runtime_class);
  return keep (copier, old, copy, sizeof *copy);
}

static const FsOwnerRef *
copy_owner (Copier *copier, const FsOwnerRef *old)
{
  RETURN_IF_COPIED (copier, old);
  FsOwnerRef *copy = g_memdup2 (old, sizeof *old);
  copy->kind = copy_string (copier, old->kind);
  copy->name = copy_string (copier, old->name);
  copy->api_version = copy_string (copier, old->api_version);
  return keep (copier, old, copy, sizeof *copy);
}

static void
copy_container_status (Copier *copier, FsContainerStatus *status)
{
  status->name = copy_string (copier, status->name);
  status->reason = copy_string (copier, status->reason);
  status->message = copy_string (copier, status->message);
}

static const FsPodKubeletStatus *
copy_kubelet_status (Copier *copier, const FsPodKubeletStatus *old)
{
  RETURN_IF_COPIED (copier, old);
  FsPodKubeletStatus *copy = g_memdup2 (old, sizeof *old);
  copy->reason = copy_string (copier, old->reason);
  copy->message = copy_string (copier, old->message);
  copy_container_status (copier, &copy->init);
  copy_container_status (copier, &copy->container);
  return keep (copier, old, copy, sizeof *copy);
}

static const FsPodResize *
copy_resize (Copier *copier, const FsPodResize *old)
{
  RETURN_IF_COPIED (copier, old);
  FsPodResize *copy = g_memdup2 (old, sizeof *old);
  copy->message = copy_string (copier, old->message);
  copy_resources (copier, &copy->desired);
  copy_resources (copier, &copy->allocated);
  copy_resources (copier, &copy->actuated);
  copy_resources (copier, &copy->accounted);
  if (old->containers != NULL)
    {
      gsize size = MAX (old->n_containers, 1) * sizeof old->containers[0];
      FsContainerAllocation *containers = g_memdup2 (old->containers, size);
      for (guint i = 0; i < old->n_containers; i++)
        {
          containers[i].name = copy_string (copier, containers[i].name);
          copy_resources (copier, &containers[i].allocated);
          copy_resources (copier, &containers[i].actuated);
        }
      copy->containers = keep (copier, old->containers, containers, size);
    }
  return keep (copier, old, copy, sizeof *copy);
}

static const FsTree *
copy_tree (Copier *copier, const FsTree *old)
{
  RETURN_IF_COPIED (copier, old);
  FsTree *copy = g_memdup2 (old, sizeof *old);
  copy->text = copy_string (copier, old->text);
  if (old->keys != NULL)
    copy->keys = copy_strings (copier, old->keys, old->n);
  if (old->values != NULL)
    {
      const FsTree **values = g_new (const FsTree *, MAX (old->n, 1));
      for (guint i = 0; i < old->n; i++)
        values[i] = copy_tree (copier, old->values[i]);
      copy->values = keep (copier, old->values, values, MAX (old->n, 1) * sizeof *values);
    }
  return keep (copier, old, copy, sizeof *copy);
}

/* ---- the objects ---------------------------------------------------------------------- */

static void
add_node (Copier *copier, FsSnapshotBuilder *builder, const FsNode *old)
{
  FsNode node = *old;
  node.name = copy_string (copier, old->name);
  node.labels = copy_labels (copier, old->labels);
  node.taints = copy_taints (copier, old->taints);
  copy_resources (copier, &node.allocatable);
  copy_resources (copier, &node.capacity);
  /* derived at finish, as for a node just decoded */
  memset (&node.requested, 0, sizeof node.requested);
  node.pod_count = 0;
  node.used_ports = NULL;
  node.volume_pods = NULL;
  node.storage = NULL;
  fs_snapshot_builder_add_node (builder, &node);
}

static void
add_pod (Copier *copier, FsSnapshotBuilder *builder, const FsPod *old)
{
  FsPod pod = *old;
  pod.namespace = copy_string (copier, old->namespace);
  pod.name = copy_name (copier, old->name);
  pod.node_name = copy_string (copier, old->node_name);
  pod.owner = copy_owner (copier, old->owner);
  pod.labels = copy_labels (copier, old->labels);
  pod.spec = copy_pod_spec (copier, old->spec);
  pod.scheduled_message = copy_string (copier, old->scheduled_message);
  pod.nominated_node = copy_string (copier, old->nominated_node);
  pod.kubelet = copy_kubelet_status (copier, old->kubelet);
  pod.resize = copy_resize (copier, old->resize);
  fs_snapshot_builder_add_pod (builder, &pod);
}

static void
add_workload (Copier *copier, FsSnapshotBuilder *builder, const FsWorkload *old)
{
  FsWorkload workload = *old;
  workload.namespace = copy_string (copier, old->namespace);
  workload.name = copy_string (copier, old->name);
  workload.owner = copy_owner (copier, old->owner);
  workload.selector = copy_selector (copier, old->selector);
  workload.template_labels = copy_labels (copier, old->template_labels);
  workload.template = copy_pod_spec (copier, old->template);
  workload.strategy = copy_string (copier, old->strategy);
  workload.admission = copy_string (copier, old->admission);
  fs_snapshot_builder_add_workload (builder, &workload);
}

static void
add_pod_metrics (Copier *copier, FsSnapshotBuilder *builder, const FsPodMetrics *old)
{
  FsPodMetrics metrics = *old;
  metrics.namespace = copy_string (copier, old->namespace);
  metrics.name = copy_string (copier, old->name);
  if (old->containers != NULL)
    {
      gsize size = MAX (old->n_containers, 1) * sizeof old->containers[0];
      FsContainerUsage *containers = g_memdup2 (old->containers, size);
      for (guint i = 0; i < old->n_containers; i++)
        {
          containers[i].name = copy_string (copier, containers[i].name);
          copy_resources (copier, &containers[i].usage);
        }
      metrics.containers = keep (copier, old->containers, containers, size);
    }
  fs_snapshot_builder_add_pod_metrics (builder, &metrics);
}

static void
add_event (Copier *copier, FsSnapshotBuilder *builder, const FsEvent *old)
{
  FsEvent event = *old;
  event.name = copy_name (copier, old->name);
  const char **strings[] = { &event.namespace, &event.involved_kind,
                             &event.involved_namespace, &event.involved_name, &event.reason,
                             &event.message, &event.type, &event.source };
  for (gsize i = 0; i < G_N_ELEMENTS (strings); i++)
    *strings[i] = copy_string (copier, *strings[i]);
  fs_snapshot_builder_add_event (builder, &event);
}

static void
add_generic (Copier *copier, FsSnapshotBuilder *builder, const FsGenericObject *old)
{
  FsGenericObject object = *old;
  object.api_version = copy_string (copier, old->api_version);
  object.namespace = copy_string (copier, old->namespace);
  object.name = copy_string (copier, old->name);
  object.labels = copy_labels (copier, old->labels);
  object.object = copy_tree (copier, old->object);
  object.annotations = copy_labels (copier, old->annotations);
  object.target_kind = copy_string (copier, old->target_kind);
  object.target_name = copy_string (copier, old->target_name);
  fs_snapshot_builder_add_generic (builder, &object);
}

static void
add_claim (Copier *copier, FsSnapshotBuilder *builder, const FsClaim *old)
{
  FsClaim claim = *old;
  claim.namespace = copy_string (copier, old->namespace);
  claim.name = copy_string (copier, old->name);
  claim.volume_name = copy_string (copier, old->volume_name);
  claim.storage_class = copy_string (copier, old->storage_class);
  claim.selected_node = copy_string (copier, old->selected_node);
  claim.selector = copy_selector (copier, old->selector);
  claim.owner = copy_owner (copier, old->owner);
  fs_snapshot_builder_add_claim (builder, &claim);
}

static void
add_persistent_volume (Copier *copier, FsSnapshotBuilder *builder, const FsPersistentVolume *old)
{
  FsPersistentVolume volume = *old;
  volume.name = copy_string (copier, old->name);
  volume.labels = copy_labels (copier, old->labels);
  volume.storage_class = copy_string (copier, old->storage_class);
  volume.claim_namespace = copy_string (copier, old->claim_namespace);
  volume.claim_name = copy_string (copier, old->claim_name);
  volume.csi_driver = copy_string (copier, old->csi_driver);
  volume.csi_handle = copy_string (copier, old->csi_handle);
  volume.node_affinity = copy_node_selector (copier, old->node_affinity);
  fs_snapshot_builder_add_persistent_volume (builder, &volume);
}

static void
add_storage_class (Copier *copier, FsSnapshotBuilder *builder, const FsStorageClass *old)
{
  FsStorageClass class = *old;
  class.name = copy_string (copier, old->name);
  class.provisioner = copy_string (copier, old->provisioner);
  class.allowed_topologies = copy_node_selector (copier, old->allowed_topologies);
  fs_snapshot_builder_add_storage_class (builder, &class);
}

static void
add_csi_node (Copier *copier, FsSnapshotBuilder *builder, const FsCsiNode *old)
{
  FsCsiNode node = *old;
  node.name = copy_string (copier, old->name);
  if (old->drivers != NULL)
    {
      gsize size = MAX (old->n_drivers, 1) * sizeof old->drivers[0];
      FsCsiDriver *drivers = g_memdup2 (old->drivers, size);
      for (guint i = 0; i < old->n_drivers; i++)
        drivers[i].name = copy_string (copier, drivers[i].name);
      node.drivers = keep (copier, old->drivers, drivers, size);
    }
  fs_snapshot_builder_add_csi_node (builder, &node);
}

static void
add_pdb (Copier *copier, FsSnapshotBuilder *builder, const FsPodDisruptionBudget *old)
{
  FsPodDisruptionBudget pdb = *old;
  pdb.namespace = copy_string (copier, old->namespace);
  pdb.name = copy_string (copier, old->name);
  pdb.selector = copy_selector (copier, old->selector);
  pdb.disrupted_pods = copy_strings (copier, old->disrupted_pods, old->n_disrupted_pods);
  fs_snapshot_builder_add_pdb (builder, &pdb);
}

/* What the snapshot records of its lists and of what it skipped. */
static void
add_bookkeeping (Copier *copier, FsSnapshotBuilder *builder, const FsSnapshot *snapshot)
{
  fs_snapshot_builder_saw_storage (builder, snapshot->storage_kinds);
  if (snapshot->resource_version != NULL)
    fs_snapshot_builder_set_resource_version (builder, snapshot->resource_version);
  for (guint i = 0; i < snapshot->n_namespaced_lists; i++)
    {
      FsNamespacedList list = snapshot->namespaced_lists[i];
      list.namespace = copy_string (copier, list.namespace);
      list.source = copy_string (copier, list.source);
      fs_snapshot_builder_note_list (builder, &list);
    }
  FsNamespacedList cluster_list = { .n_pods = 1 };
  for (guint i = 0; i < snapshot->n_cluster_pod_lists; i++)
    fs_snapshot_builder_note_list (builder, &cluster_list);
  for (guint i = 0; i < snapshot->n_skipped; i++)
    fs_snapshot_builder_count_skipped (builder, NULL);
}

FsSnapshot *
fs_snapshot_compact (const FsSnapshot *snapshot, GError **error)
{
  g_autoptr (FsSnapshotBuilder) builder = fs_snapshot_builder_new ();
  Copier copier = { fs_snapshot_builder_pool (builder), g_hash_table_new (NULL, NULL) };
  for (guint i = 0; i < snapshot->n_nodes; i++)
    add_node (&copier, builder, &snapshot->nodes[i]);
  for (guint i = 0; i < snapshot->n_pods; i++)
    add_pod (&copier, builder, &snapshot->pods[i]);
  for (guint i = 0; i < snapshot->n_workloads; i++)
    add_workload (&copier, builder, &snapshot->workloads[i]);
  for (guint i = 0; i < snapshot->n_namespaces; i++)
    {
      FsNamespace ns = snapshot->namespaces[i];
      ns.name = copy_string (&copier, ns.name);
      ns.labels = copy_labels (&copier, ns.labels);
      ns.phase = copy_string (&copier, ns.phase);
      fs_snapshot_builder_add_namespace (builder, &ns);
    }
  for (guint i = 0; i < snapshot->n_pod_metrics; i++)
    add_pod_metrics (&copier, builder, &snapshot->pod_metrics[i]);
  for (guint i = 0; i < snapshot->n_events; i++)
    add_event (&copier, builder, &snapshot->events[i]);
  for (guint i = 0; i < snapshot->n_generic; i++)
    add_generic (&copier, builder, &snapshot->generic[i]);
  for (guint i = 0; i < snapshot->n_claims; i++)
    add_claim (&copier, builder, &snapshot->claims[i]);
  for (guint i = 0; i < snapshot->n_persistent_volumes; i++)
    add_persistent_volume (&copier, builder, &snapshot->persistent_volumes[i]);
  for (guint i = 0; i < snapshot->n_storage_classes; i++)
    add_storage_class (&copier, builder, &snapshot->storage_classes[i]);
  for (guint i = 0; i < snapshot->n_csi_nodes; i++)
    add_csi_node (&copier, builder, &snapshot->csi_nodes[i]);
  for (guint i = 0; i < snapshot->n_pdbs; i++)
    add_pdb (&copier, builder, &snapshot->pdbs[i]);
  add_bookkeeping (&copier, builder, snapshot);
  g_hash_table_unref (copier.copied);
  FsSnapshot *copy = fs_snapshot_builder_finish (g_steal_pointer (&builder), error);
  if (copy != NULL && snapshot->scheduler_config != NULL)
    fs_snapshot_set_scheduler_config (copy, snapshot->scheduler_config);
  return copy;
}
