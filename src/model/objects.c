/* fitscale — snapshot building, node accounting, lookups (see include/fitscale/model/objects.h). */
#include "config.h"

#include <string.h>

#include "fitscale/model/error.h"
#include "fitscale/model/fit.h"
#include "fitscale/model/objects.h"
#include "fitscale/model/schedconfig.h"

struct FsSnapshotBuilder {
  FsPool *pool;
  GArray *nodes, *pods, *workloads, *namespaces, *pod_metrics, *events, *generic;
  GArray *claims, *persistent_volumes, *storage_classes, *csi_nodes;
  guint32 storage_kinds;
  GArray *pdbs;
  GArray *namespaced_lists;       /* FsNamespacedList */
  guint n_cluster_pod_lists;
  guint n_skipped;
  const char *resource_version;
  char *continue_token;           /* the last list's metadata.continue (owned) */
  FsSnapshot *base;               /* fs_snapshot_builder_new_from: kept alive by the result */
};

FsSnapshotBuilder *
fs_snapshot_builder_new (void)
{
  FsSnapshotBuilder *builder = g_new0 (FsSnapshotBuilder, 1);
  builder->pool = fs_pool_new ();
  builder->nodes = g_array_new (FALSE, FALSE, sizeof (FsNode));
  builder->pods = g_array_new (FALSE, FALSE, sizeof (FsPod));
  builder->workloads = g_array_new (FALSE, FALSE, sizeof (FsWorkload));
  builder->namespaces = g_array_new (FALSE, FALSE, sizeof (FsNamespace));
  builder->pod_metrics = g_array_new (FALSE, FALSE, sizeof (FsPodMetrics));
  builder->events = g_array_new (FALSE, FALSE, sizeof (FsEvent));
  builder->generic = g_array_new (FALSE, FALSE, sizeof (FsGenericObject));
  builder->claims = g_array_new (FALSE, FALSE, sizeof (FsClaim));
  builder->persistent_volumes = g_array_new (FALSE, FALSE, sizeof (FsPersistentVolume));
  builder->storage_classes = g_array_new (FALSE, FALSE, sizeof (FsStorageClass));
  builder->csi_nodes = g_array_new (FALSE, FALSE, sizeof (FsCsiNode));
  builder->pdbs = g_array_new (FALSE, FALSE, sizeof (FsPodDisruptionBudget));
  builder->namespaced_lists = g_array_new (FALSE, FALSE, sizeof (FsNamespacedList));
  return builder;
}

static void
builder_free_arrays (FsSnapshotBuilder *builder)
{
  GArray **arrays[] = { &builder->nodes, &builder->pods, &builder->workloads,
                        &builder->namespaces, &builder->pod_metrics, &builder->events,
                        &builder->generic, &builder->claims, &builder->persistent_volumes,
                        &builder->storage_classes, &builder->csi_nodes, &builder->pdbs, &builder->namespaced_lists };
  for (gsize i = 0; i < G_N_ELEMENTS (arrays); i++)
    if (*arrays[i] != NULL)
      g_array_free (g_steal_pointer (arrays[i]), TRUE);
}

FsSnapshotBuilder *
fs_snapshot_builder_new_from (FsSnapshot *base)
{
  FsSnapshotBuilder *builder = fs_snapshot_builder_new ();
  fs_pool_free (builder->pool);
  builder->pool = fs_pool_new_child (base->pool);
  builder->base = fs_snapshot_ref (base);
  builder->resource_version = base->resource_version;
  g_array_append_vals (builder->nodes, base->nodes, base->n_nodes);
  for (guint i = 0; i < builder->nodes->len; i++)
    {
      FsNode *node = &g_array_index (builder->nodes, FsNode, i);
      memset (&node->requested, 0, sizeof node->requested); /* accounted again at finish */
      node->pod_count = 0;
    }
  g_array_append_vals (builder->pods, base->pods, base->n_pods);
  g_array_append_vals (builder->workloads, base->workloads, base->n_workloads);
  g_array_append_vals (builder->namespaces, base->namespaces, base->n_namespaces);
  g_array_append_vals (builder->pod_metrics, base->pod_metrics, base->n_pod_metrics);
  g_array_append_vals (builder->events, base->events, base->n_events);
  g_array_append_vals (builder->generic, base->generic, base->n_generic);
  g_array_append_vals (builder->claims, base->claims, base->n_claims);
  g_array_append_vals (builder->persistent_volumes, base->persistent_volumes,
                       base->n_persistent_volumes);
  g_array_append_vals (builder->storage_classes, base->storage_classes, base->n_storage_classes);
  g_array_append_vals (builder->csi_nodes, base->csi_nodes, base->n_csi_nodes);
  builder->storage_kinds = base->storage_kinds;
  g_array_append_vals (builder->pdbs, base->pdbs, base->n_pdbs);
  g_array_append_vals (builder->namespaced_lists, base->namespaced_lists, base->n_namespaced_lists);
  builder->n_cluster_pod_lists = base->n_cluster_pod_lists;
  return builder;
}

guint
fs_snapshot_depth (const FsSnapshot *snapshot)
{
  return fs_pool_depth (snapshot->pool);
}

const char *
fs_snapshot_builder_resource_version (const FsSnapshotBuilder *builder)
{
  return builder->resource_version;
}

/* Removes the elements of ARRAY whose namespace (at NS_OFFSET, G_MAXSIZE for none) and name
 * are NAMESPACE and NAME, and for which SAME_KIND (may be NULL) holds. */
static guint
remove_named (GArray *array, gsize ns_offset, gsize name_offset, const char *namespace, const char *name,
              gboolean (*same_kind) (gconstpointer element, gconstpointer kind), gconstpointer kind)
{
  gsize size = g_array_get_element_size (array);
  guint removed = 0;
  for (guint i = array->len; i-- > 0;)
    {
      const char *element = array->data + (gsize) i * size;
      const char *element_ns = ns_offset == G_MAXSIZE ? NULL : *(const char *const *) (element + ns_offset);
      const char *element_name = *(const char *const *) (element + name_offset);
      if ((ns_offset == G_MAXSIZE || g_strcmp0 (element_ns, namespace) == 0) && g_strcmp0 (element_name, name) == 0
          && (same_kind == NULL || same_kind (element, kind)))
        {
          g_array_remove_index (array, i);
          removed++;
        }
    }
  return removed;
}

static gboolean
same_workload_kind (gconstpointer element, gconstpointer kind)
{
  return g_strcmp0 (fs_workload_kind_name (((const FsWorkload *) element)->kind), kind) == 0;
}

static gboolean
same_generic_kind (gconstpointer element, gconstpointer kind)
{
  static const char *const names[] = { "HorizontalPodAutoscaler", "VerticalPodAutoscaler", "Hvpa" };
  FsGenericKind generic = ((const FsGenericObject *) element)->kind;
  return generic < G_N_ELEMENTS (names) && g_strcmp0 (names[generic], kind) == 0;
}

guint
fs_snapshot_builder_remove (FsSnapshotBuilder *builder, const char *kind, const char *namespace,
                            const char *name)
{
#define NAMED(type) G_STRUCT_OFFSET (type, namespace), G_STRUCT_OFFSET (type, name)
#define CLUSTER_SCOPED(type) G_MAXSIZE, G_STRUCT_OFFSET (type, name)
  if (g_strcmp0 (kind, "Node") == 0)
    return remove_named (builder->nodes, CLUSTER_SCOPED (FsNode), NULL, name, NULL, NULL);
  if (g_strcmp0 (kind, "Pod") == 0)
    return remove_named (builder->pods, NAMED (FsPod), namespace, name, NULL, NULL);
  if (g_strcmp0 (kind, "Namespace") == 0)
    return remove_named (builder->namespaces, CLUSTER_SCOPED (FsNamespace), NULL, name, NULL, NULL);
  if (g_strcmp0 (kind, "Event") == 0)
    return remove_named (builder->events, NAMED (FsEvent), namespace, name, NULL, NULL);
  if (g_strcmp0 (kind, "PodMetrics") == 0)
    return remove_named (builder->pod_metrics, NAMED (FsPodMetrics), namespace, name, NULL, NULL);
  if (g_strcmp0 (kind, "PersistentVolumeClaim") == 0)
    return remove_named (builder->claims, NAMED (FsClaim), namespace, name, NULL, NULL);
  if (g_strcmp0 (kind, "PersistentVolume") == 0)
    return remove_named (builder->persistent_volumes, CLUSTER_SCOPED (FsPersistentVolume), NULL,
                         name, NULL, NULL);
  if (g_strcmp0 (kind, "StorageClass") == 0)
    return remove_named (builder->storage_classes, CLUSTER_SCOPED (FsStorageClass), NULL, name,
                         NULL, NULL);
  if (g_strcmp0 (kind, "CSINode") == 0)
    return remove_named (builder->csi_nodes, CLUSTER_SCOPED (FsCsiNode), NULL, name, NULL, NULL);
  if (g_strcmp0 (kind, "PodDisruptionBudget") == 0)
    return remove_named (builder->pdbs, NAMED (FsPodDisruptionBudget), namespace, name, NULL, NULL);
  guint removed = remove_named (builder->workloads, NAMED (FsWorkload), namespace, name, same_workload_kind, kind);
  return removed + remove_named (builder->generic, NAMED (FsGenericObject), namespace, name, same_generic_kind, kind);
#undef NAMED
#undef CLUSTER_SCOPED
}

void
fs_snapshot_builder_free (FsSnapshotBuilder *builder)
{
  if (builder == NULL)
    return;
  fs_snapshot_unref (builder->base);
  builder_free_arrays (builder);
  fs_pool_free (builder->pool);
  g_free (builder->continue_token);
  g_free (builder);
}

FsPool *
fs_snapshot_builder_pool (FsSnapshotBuilder *builder)
{
  return builder->pool;
}

void
fs_snapshot_builder_add_node (FsSnapshotBuilder *builder, const FsNode *node)
{
  g_array_append_vals (builder->nodes, node, 1);
}

void
fs_snapshot_builder_add_pod (FsSnapshotBuilder *builder, const FsPod *pod)
{
  g_array_append_vals (builder->pods, pod, 1);
}

void
fs_snapshot_builder_add_workload (FsSnapshotBuilder *builder, const FsWorkload *workload)
{
  g_array_append_vals (builder->workloads, workload, 1);
}

void
fs_snapshot_builder_add_namespace (FsSnapshotBuilder *builder, const FsNamespace *ns)
{
  g_array_append_vals (builder->namespaces, ns, 1);
}

void
fs_snapshot_builder_add_pod_metrics (FsSnapshotBuilder *builder, const FsPodMetrics *pm)
{
  g_array_append_vals (builder->pod_metrics, pm, 1);
}

void
fs_snapshot_builder_add_event (FsSnapshotBuilder *builder, const FsEvent *event)
{
  g_array_append_vals (builder->events, event, 1);
}

void
fs_snapshot_builder_add_generic (FsSnapshotBuilder *builder, const FsGenericObject *obj)
{
  g_array_append_vals (builder->generic, obj, 1);
}

void
fs_snapshot_builder_add_claim (FsSnapshotBuilder *builder, const FsClaim *claim)
{
  g_array_append_vals (builder->claims, claim, 1);
  builder->storage_kinds |= FS_STORAGE_CLAIMS;
}

void
fs_snapshot_builder_add_persistent_volume (FsSnapshotBuilder *builder,
                                           const FsPersistentVolume *volume)
{
  g_array_append_vals (builder->persistent_volumes, volume, 1);
  builder->storage_kinds |= FS_STORAGE_VOLUMES;
}

void
fs_snapshot_builder_add_storage_class (FsSnapshotBuilder *builder, const FsStorageClass *sc)
{
  g_array_append_vals (builder->storage_classes, sc, 1);
  builder->storage_kinds |= FS_STORAGE_CLASSES;
}

void
fs_snapshot_builder_add_csi_node (FsSnapshotBuilder *builder, const FsCsiNode *csi_node)
{
  g_array_append_vals (builder->csi_nodes, csi_node, 1);
  builder->storage_kinds |= FS_STORAGE_CSI_NODES;
}

void
fs_snapshot_builder_saw_storage (FsSnapshotBuilder *builder, guint32 kinds)
{
  builder->storage_kinds |= kinds;
}

void
fs_snapshot_builder_add_pdb (FsSnapshotBuilder *builder, const FsPodDisruptionBudget *pdb)
{
  g_array_append_vals (builder->pdbs, pdb, 1);
}

void
fs_snapshot_builder_count_skipped (FsSnapshotBuilder *builder, const char *kind)
{
  builder->n_skipped++;
}

void
fs_snapshot_builder_note_list (FsSnapshotBuilder *builder, const FsNamespacedList *list)
{
  if (list->namespace != NULL)
    g_array_append_vals (builder->namespaced_lists, list, 1);
  else if (list->n_pods > 0)
    builder->n_cluster_pod_lists++;
}

void
fs_snapshot_builder_forget_lists (FsSnapshotBuilder *builder)
{
  g_array_set_size (builder->namespaced_lists, 0);
  builder->n_cluster_pod_lists = 0;
}

void
fs_snapshot_builder_set_resource_version (FsSnapshotBuilder *builder, const char *rv)
{
  builder->resource_version = fs_pool_intern (builder->pool, rv, strlen (rv));
}

void
fs_snapshot_builder_set_continue (FsSnapshotBuilder *builder, const char *token, gsize len)
{
  g_free (builder->continue_token);
  builder->continue_token = len > 0 ? g_strndup (token, len) : NULL;
}

char *
fs_snapshot_builder_take_continue (FsSnapshotBuilder *builder)
{
  return g_steal_pointer (&builder->continue_token);
}

/* ---- ordering and de-duplication --------------------------------------------------- */

/* Namespaced objects sort by namespace then name, as the API server lists them; equal keys
 * keep their input order (the sort is stable), and de-duplication keeps the last. */
static int
compare_names (const char *ns_a, const char *name_a, const char *ns_b, const char *name_b)
{
  int by_ns = ns_a == ns_b ? 0 : g_strcmp0 (ns_a, ns_b); /* interned: equal is one pointer */
  return by_ns != 0 ? by_ns : g_strcmp0 (name_a, name_b);
}

typedef struct {
  gsize offset_namespace; /* G_MAXSIZE when cluster-scoped */
  gsize offset_name;
  gsize offset_kind;      /* G_MAXSIZE when the array holds one kind */
} KeyLayout;

static const char *
field_string (gconstpointer element, gsize offset)
{
  if (offset == G_MAXSIZE)
    return NULL;
  return *(const char *const *) ((const char *) element + offset);
}

static int
field_int (gconstpointer element, gsize offset)
{
  if (offset == G_MAXSIZE)
    return 0;
  return *(const int *) ((const char *) element + offset);
}

static gint
compare_elements (gconstpointer a, gconstpointer b, gpointer user_data)
{
  const KeyLayout *layout = user_data;
  int by_kind = field_int (a, layout->offset_kind) - field_int (b, layout->offset_kind);
  if (by_kind != 0)
    return by_kind;
  return compare_names (field_string (a, layout->offset_namespace),
                        field_string (a, layout->offset_name),
                        field_string (b, layout->offset_namespace),
                        field_string (b, layout->offset_name));
}

/* Keeps the last of each run of adjacent equal keys (a later copy of the same object wins)
 * and says whether the elements were in order.  Dropping an earlier copy never changes
 * which copy is last, so a pass over unordered elements leaves them ready to sort. */
static gboolean
dedupe_adjacent (GArray *array, const KeyLayout *layout)
{
  gsize size = g_array_get_element_size (array);
  char *data = array->data;
  gboolean ordered = TRUE;
  guint kept = 0;
  for (guint i = 0; i < array->len; i++)
    {
      char *element = data + (gsize) i * size;
      int versus_next = i + 1 < array->len
                            ? compare_elements (element, element + size, (gpointer) layout) : -1;
      ordered = ordered && versus_next <= 0;
      if (versus_next == 0)
        continue;
      if (kept != i)
        memcpy (data + (gsize) kept * size, element, size);
      kept++;
    }
  g_array_set_size (array, kept);
  return ordered;
}

static void
sort_and_dedupe (GArray *array, const KeyLayout *layout)
{
  if (array->len < 2)
    return;
  /* A list from the API server is already in this order (etcd's key order), so usually
   * nothing moves.  g_array_sort_with_data is a stable merge sort since GLib 2.32
   * (g_qsort_with_data). */
  if (dedupe_adjacent (array, layout))
    return;
  g_array_sort_with_data (array, compare_elements, (gpointer) layout);
  dedupe_adjacent (array, layout);
}

#define LAYOUT(type, ns_field, kind_field)                                                   \
  ((KeyLayout){ .offset_namespace = ns_field, .offset_name = G_STRUCT_OFFSET (type, name),   \
                .offset_kind = kind_field })

static void
sort_all (FsSnapshotBuilder *builder)
{
  KeyLayout nodes = LAYOUT (FsNode, G_MAXSIZE, G_MAXSIZE);
  KeyLayout pods = LAYOUT (FsPod, G_STRUCT_OFFSET (FsPod, namespace), G_MAXSIZE);
  KeyLayout workloads = LAYOUT (FsWorkload, G_STRUCT_OFFSET (FsWorkload, namespace),
                                G_STRUCT_OFFSET (FsWorkload, kind));
  KeyLayout namespaces = LAYOUT (FsNamespace, G_MAXSIZE, G_MAXSIZE);
  KeyLayout metrics = LAYOUT (FsPodMetrics, G_STRUCT_OFFSET (FsPodMetrics, namespace), G_MAXSIZE);
  KeyLayout events = LAYOUT (FsEvent, G_STRUCT_OFFSET (FsEvent, namespace), G_MAXSIZE);
  KeyLayout generic = LAYOUT (FsGenericObject, G_STRUCT_OFFSET (FsGenericObject, namespace),
                              G_STRUCT_OFFSET (FsGenericObject, kind));
  sort_and_dedupe (builder->nodes, &nodes);
  sort_and_dedupe (builder->pods, &pods);
  sort_and_dedupe (builder->workloads, &workloads);
  sort_and_dedupe (builder->namespaces, &namespaces);
  sort_and_dedupe (builder->pod_metrics, &metrics);
  sort_and_dedupe (builder->events, &events);
  sort_and_dedupe (builder->generic, &generic);
  KeyLayout claims = LAYOUT (FsClaim, G_STRUCT_OFFSET (FsClaim, namespace), G_MAXSIZE);
  KeyLayout volumes = LAYOUT (FsPersistentVolume, G_MAXSIZE, G_MAXSIZE);
  KeyLayout classes = LAYOUT (FsStorageClass, G_MAXSIZE, G_MAXSIZE);
  KeyLayout csi_nodes = LAYOUT (FsCsiNode, G_MAXSIZE, G_MAXSIZE);
  sort_and_dedupe (builder->claims, &claims);
  sort_and_dedupe (builder->persistent_volumes, &volumes);
  sort_and_dedupe (builder->storage_classes, &classes);
  sort_and_dedupe (builder->csi_nodes, &csi_nodes);
  KeyLayout pdbs = LAYOUT (FsPodDisruptionBudget, G_STRUCT_OFFSET (FsPodDisruptionBudget, namespace), G_MAXSIZE);
  sort_and_dedupe (builder->pdbs, &pdbs);
}

/* ---- node accounting --------------------------------------------------------------- */

gboolean
fs_pod_counts_on_node (const FsPod *pod)
{
  /* The scheduler's pod informer lists with the field selector
   * status.phase!=Succeeded,status.phase!=Failed (pkg/scheduler/eventhandlers.go,
   * addAllEventHandlers) and NodeInfo.AddPod (pkg/scheduler/framework/types.go) sums every
   * pod it gets, terminating ones included. */
  return pod->node_name != NULL && pod->phase != FS_PHASE_SUCCEEDED
         && pod->phase != FS_PHASE_FAILED;
}

/* A workload's pods: those of its namespace its selector matches (the controllers adopt by
 * selector: pkg/controller/controller_ref_manager.go ClaimPods). */
gboolean
fs_workload_owns_pod (const FsPod *pod, gpointer data)
{
  const FsWorkload *workload = data;
  return g_strcmp0 (pod->namespace, workload->namespace) == 0
         && fs_selector_matches (workload->selector, pod->labels);
}

static const char *const pod_phase_names[] = {
  [FS_PHASE_UNKNOWN] = "Unknown", [FS_PHASE_PENDING] = "Pending", [FS_PHASE_RUNNING] = "Running",
  [FS_PHASE_SUCCEEDED] = "Succeeded", [FS_PHASE_FAILED] = "Failed",
};

/* core/v1 types.go PodPhase: the five values of status.phase. */
const char *
fs_pod_phase_name (FsPodPhase phase)
{
  return (gsize) phase < G_N_ELEMENTS (pod_phase_names) ? pod_phase_names[phase] : "Unknown";
}

FsPodPhase
fs_pod_phase_parse (const char *text)
{
  for (gsize i = 0; text != NULL && i < G_N_ELEMENTS (pod_phase_names); i++)
    if (strcmp (text, pod_phase_names[i]) == 0)
      return (FsPodPhase) i;
  return FS_PHASE_UNKNOWN;
}

/* kubectl's Pending pod that the scheduler has yet to place: no spec.nodeName (the scheduler's
 * pod informer takes unassigned pods, pkg/scheduler/eventhandlers.go assignedPod) and phase
 * Pending (core/v1 PodPending). */
gboolean
fs_pod_is_pending (const FsPod *pod)
{
  return pod->node_name == NULL && pod->phase == FS_PHASE_PENDING;
}

static gboolean
account_pods (FsSnapshot *snapshot, gboolean *any_ports, GError **error)
{
  FsNode *nodes = (FsNode *) snapshot->nodes;
  FsPod *pods = (FsPod *) snapshot->pods;
  for (guint i = 0; i < snapshot->n_pods; i++)
    {
      FsPod *pod = &pods[i];
      pod->node_index = -1;
      if (pod->node_name == NULL)
        continue;
      gpointer slot = g_hash_table_lookup (snapshot->node_index, pod->node_name);
      if (slot == NULL)
        continue;
      pod->node_index = GPOINTER_TO_INT (slot) - 1;
      if (!fs_pod_counts_on_node (pod))
        continue;
      FsNode *node = &nodes[pod->node_index];
      node->pod_count++;
      *any_ports = *any_ports || pod->spec->host_ports != NULL;
      snapshot->n_pods_with_anti_affinity += pod->spec->placement->pod_anti_affinity != NULL;
      g_autoptr (GError) local_error = NULL;
      if (!fs_resources_add (&node->requested, &pod->spec->request, &local_error))
        {
          g_set_error (error, FS_ERROR, FS_ERROR_LIMIT, "node %s: pod %s/%s: %s", node->name,
                       pod->namespace, pod->name, local_error->message);
          return FALSE;
        }
    }
  return TRUE;
}

/* Each node's host ports in use (pkg/scheduler/framework/types.go NodeInfo.AddPod ->
 * updateUsedPorts, with pkg/scheduler/util/utils.go GetHostPorts): the ports of every pod
 * counted on it, each entry with its pod.  Upstream keeps a set, so that removing one of two
 * pods holding the same port frees it; two bound pods never hold the same one, as the
 * filter keeps the second off. */
static void
account_ports (FsSnapshot *snapshot)
{
  FsNode *nodes = (FsNode *) snapshot->nodes;
  g_autofree guint *counts = NULL;
  for (guint i = 0; i < snapshot->n_pods; i++)
    {
      const FsPod *pod = &snapshot->pods[i];
      const FsHostPortList *ports = pod->spec->host_ports;
      if (ports == NULL || pod->node_index < 0 || !fs_pod_counts_on_node (pod))
        continue;
      if (counts == NULL)
        counts = g_new0 (guint, snapshot->n_nodes);
      counts[pod->node_index] += ports->n;
    }
  if (counts == NULL)
    return;
  for (guint n = 0; n < snapshot->n_nodes; n++)
    if (counts[n] > 0)
      {
        FsUsedPortList *list = fs_pool_alloc (snapshot->pool, sizeof (FsUsedPortList)
                                                                  + counts[n] * sizeof (FsUsedPort));
        nodes[n].used_ports = list;
      }
  for (guint i = 0; i < snapshot->n_pods; i++)
    {
      const FsPod *pod = &snapshot->pods[i];
      const FsHostPortList *ports = pod->spec->host_ports;
      if (ports == NULL || pod->node_index < 0 || !fs_pod_counts_on_node (pod))
        continue;
      FsUsedPortList *list = (FsUsedPortList *) nodes[pod->node_index].used_ports;
      for (guint k = 0; k < ports->n; k++)
        list->items[list->n++] = (FsUsedPort){ .port = ports->items[k], .pod = pod };
    }
}

/* Each node's pods with volumes (NodeInfo.Pods as the volume filters walk it: VolumeRestrictions
 * satisfyVolumeConflicts, CSILimits.Filter's attached volumes): the pods counted on it whose
 * spec keeps volumes. */
static void
account_volume_pods (FsSnapshot *snapshot)
{
  FsNode *nodes = (FsNode *) snapshot->nodes;
  g_autofree guint *counts = NULL;
  for (guint i = 0; i < snapshot->n_pods; i++)
    {
      const FsPod *pod = &snapshot->pods[i];
      if (pod->spec->volumes == NULL || pod->node_index < 0 || !fs_pod_counts_on_node (pod))
        continue;
      if (counts == NULL)
        counts = g_new0 (guint, snapshot->n_nodes);
      counts[pod->node_index]++;
    }
  if (counts == NULL)
    return;
  for (guint n = 0; n < snapshot->n_nodes; n++)
    if (counts[n] > 0)
      nodes[n].volume_pods = fs_pool_alloc (snapshot->pool, sizeof (FsPodRefList)
                                                                + counts[n] * sizeof (const FsPod *));
  for (guint i = 0; i < snapshot->n_pods; i++)
    {
      const FsPod *pod = &snapshot->pods[i];
      if (pod->spec->volumes == NULL || pod->node_index < 0 || !fs_pod_counts_on_node (pod))
        continue;
      FsPodRefList *list = (FsPodRefList *) nodes[pod->node_index].volume_pods;
      list->items[list->n++] = pod;
    }
}

/* Node names in pods are interned with the nodes' own: equal is usually one pointer. */
static gboolean
node_name_equal (gconstpointer a, gconstpointer b)
{
  return a == b || strcmp (a, b) == 0;
}

static void
index_nodes (FsSnapshot *snapshot)
{
  snapshot->node_index = g_hash_table_new (g_str_hash, node_name_equal);
  FsNode *nodes = (FsNode *) snapshot->nodes;
  for (guint i = 0; i < snapshot->n_nodes; i++)
    {
      memset (&nodes[i].requested, 0, sizeof nodes[i].requested);
      nodes[i].pod_count = 0;
      nodes[i].used_ports = NULL;
      nodes[i].volume_pods = NULL;
      nodes[i].storage = snapshot;
      g_hash_table_insert (snapshot->node_index, (gpointer) nodes[i].name,
                           GINT_TO_POINTER (i + 1));
    }
}

#define TAKE_ARRAY(snapshot, builder, field, type)                                            \
  do                                                                                         \
    {                                                                                        \
      (snapshot)->n_##field = (builder)->field->len;                                         \
      (snapshot)->field = (const type *) (gpointer) g_array_free (g_steal_pointer (&(builder)->field), FALSE); \
    }                                                                                        \
  while (0)

FsSnapshot *
fs_snapshot_builder_finish (FsSnapshotBuilder *builder, GError **error)
{
  sort_all (builder);
  g_autoptr (FsSnapshot) snapshot = g_new0 (FsSnapshot, 1);
  snapshot->ref_count = 1;
  TAKE_ARRAY (snapshot, builder, nodes, FsNode);
  TAKE_ARRAY (snapshot, builder, pods, FsPod);
  TAKE_ARRAY (snapshot, builder, workloads, FsWorkload);
  TAKE_ARRAY (snapshot, builder, namespaces, FsNamespace);
  TAKE_ARRAY (snapshot, builder, pod_metrics, FsPodMetrics);
  TAKE_ARRAY (snapshot, builder, events, FsEvent);
  TAKE_ARRAY (snapshot, builder, generic, FsGenericObject);
  TAKE_ARRAY (snapshot, builder, claims, FsClaim);
  TAKE_ARRAY (snapshot, builder, persistent_volumes, FsPersistentVolume);
  TAKE_ARRAY (snapshot, builder, storage_classes, FsStorageClass);
  TAKE_ARRAY (snapshot, builder, csi_nodes, FsCsiNode);
  snapshot->storage_kinds = builder->storage_kinds;
  TAKE_ARRAY (snapshot, builder, pdbs, FsPodDisruptionBudget);
  TAKE_ARRAY (snapshot, builder, namespaced_lists, FsNamespacedList);
  snapshot->n_cluster_pod_lists = builder->n_cluster_pod_lists;
  snapshot->n_skipped = builder->n_skipped;
  snapshot->resource_version = builder->resource_version;
  snapshot->pool = g_steal_pointer (&builder->pool);
  snapshot->parent = g_steal_pointer (&builder->base);
  fs_snapshot_builder_free (builder);

  index_nodes (snapshot);
  gboolean any_ports = FALSE;
  if (!account_pods (snapshot, &any_ports, error))
    return NULL;
  if (any_ports)
    account_ports (snapshot);
  account_volume_pods (snapshot);
  return g_steal_pointer (&snapshot);
}

/* ---- the snapshot ------------------------------------------------------------------ */

FsSnapshot *
fs_snapshot_ref (FsSnapshot *snapshot)
{
  g_atomic_int_inc (&snapshot->ref_count);
  return snapshot;
}

void
fs_snapshot_set_scheduler_config (FsSnapshot *snapshot, FsSchedulerConfig *config)
{
  FsSchedulerConfig *old = snapshot->scheduler_config;
  snapshot->scheduler_config = fs_scheduler_config_ref (config);
  fs_scheduler_config_unref (old);
}

void
fs_snapshot_unref (FsSnapshot *snapshot)
{
  if (snapshot == NULL || !g_atomic_int_dec_and_test (&snapshot->ref_count))
    return;
  g_free ((gpointer) snapshot->nodes);
  g_free ((gpointer) snapshot->pods);
  g_free ((gpointer) snapshot->workloads);
  g_free ((gpointer) snapshot->namespaces);
  g_free ((gpointer) snapshot->pod_metrics);
  g_free ((gpointer) snapshot->events);
  g_free ((gpointer) snapshot->generic);
  g_free ((gpointer) snapshot->claims);
  g_free ((gpointer) snapshot->persistent_volumes);
  g_free ((gpointer) snapshot->storage_classes);
  g_free ((gpointer) snapshot->csi_nodes);
  g_free ((gpointer) snapshot->pdbs);
  g_free ((gpointer) snapshot->namespaced_lists);
  if (snapshot->node_index != NULL)
    g_hash_table_unref (snapshot->node_index);
  fs_pool_free (snapshot->pool);
  fs_scheduler_config_unref (snapshot->scheduler_config);
  fs_snapshot_unref (snapshot->parent);
  g_free (snapshot);
}

const FsNode *
fs_snapshot_find_node (const FsSnapshot *snapshot, const char *name)
{
  gpointer slot = g_hash_table_lookup (snapshot->node_index, name);
  return slot == NULL ? NULL : &snapshot->nodes[GPOINTER_TO_INT (slot) - 1];
}

const FsPod *
fs_snapshot_find_pod (const FsSnapshot *snapshot, const char *namespace, const char *name)
{
  for (guint i = 0; i < snapshot->n_pods; i++)
    {
      const FsPod *pod = &snapshot->pods[i];
      if (g_strcmp0 (pod->namespace, namespace) == 0 && strcmp (pod->name, name) == 0)
        return pod;
    }
  return NULL;
}

const char *
fs_workload_kind_name (FsWorkloadKind kind)
{
  static const char *const names[] = { [FS_WORKLOAD_DEPLOYMENT] = "Deployment",
                                        [FS_WORKLOAD_STATEFULSET] = "StatefulSet",
                                        [FS_WORKLOAD_REPLICASET] = "ReplicaSet" };
  return names[kind];
}

gboolean
fs_workload_kind_parse (const char *text, FsWorkloadKind *kind)
{
  static const struct { const char *name; FsWorkloadKind kind; } names[] = {
    { "deployment", FS_WORKLOAD_DEPLOYMENT }, { "deployments", FS_WORKLOAD_DEPLOYMENT },
    { "deploy", FS_WORKLOAD_DEPLOYMENT }, { "statefulset", FS_WORKLOAD_STATEFULSET },
    { "statefulsets", FS_WORKLOAD_STATEFULSET }, { "sts", FS_WORKLOAD_STATEFULSET },
    { "replicaset", FS_WORKLOAD_REPLICASET }, { "replicasets", FS_WORKLOAD_REPLICASET },
    { "rs", FS_WORKLOAD_REPLICASET },
  };
  for (gsize i = 0; text != NULL && i < G_N_ELEMENTS (names); i++)
    if (g_ascii_strcasecmp (text, names[i].name) == 0)
      {
        *kind = names[i].kind;
        return TRUE;
      }
  return FALSE;
}

const FsWorkload *
fs_snapshot_find_workload (const FsSnapshot *snapshot, const char *namespace, const char *kind,
                           const char *name)
{
  for (guint i = 0; snapshot != NULL && kind != NULL && name != NULL && i < snapshot->n_workloads; i++)
    {
      const FsWorkload *workload = &snapshot->workloads[i];
      if (strcmp (fs_workload_kind_name (workload->kind), kind) == 0
          && strcmp (workload->name, name) == 0 && g_strcmp0 (workload->namespace, namespace) == 0)
        return workload;
    }
  return NULL;
}

static const FsGenericObject *
find_generic (const FsSnapshot *snapshot, FsGenericKind kind, const char *namespace, const char *name)
{
  for (guint i = 0; i < snapshot->n_generic; i++)
    {
      const FsGenericObject *object = &snapshot->generic[i];
      if (object->kind == kind && g_strcmp0 (object->namespace, namespace) == 0
          && g_strcmp0 (object->name, name) == 0)
        return object;
    }
  return NULL;
}

const FsGenericObject *
fs_snapshot_find_hpa (const FsSnapshot *snapshot, const char *namespace, const char *name)
{
  return find_generic (snapshot, FS_KIND_HPA, namespace, name);
}

const FsGenericObject *
fs_snapshot_find_hvpa (const FsSnapshot *snapshot, const char *namespace, const char *name)
{
  return find_generic (snapshot, FS_KIND_HVPA, namespace, name);
}

const FsGenericObject *
fs_snapshot_find_autoscaler (const FsSnapshot *snapshot, FsGenericKind kind,
                             const FsWorkload *target)
{
  for (guint i = 0; i < snapshot->n_generic; i++)
    {
      const FsGenericObject *object = &snapshot->generic[i];
      if (object->kind == kind && g_strcmp0 (object->namespace, target->namespace) == 0
          && g_strcmp0 (object->target_kind, fs_workload_kind_name (target->kind)) == 0
          && g_strcmp0 (object->target_name, target->name) == 0)
        return object;
    }
  return NULL;
}

gsize
fs_snapshot_bytes (const FsSnapshot *snapshot)
{
  return fs_pool_bytes (snapshot->pool) + snapshot->n_nodes * sizeof (FsNode)
         + snapshot->n_pods * sizeof (FsPod) + snapshot->n_workloads * sizeof (FsWorkload)
         + snapshot->n_events * sizeof (FsEvent) + snapshot->n_pod_metrics * sizeof (FsPodMetrics)
         + snapshot->n_generic * sizeof (FsGenericObject)
         + snapshot->n_namespaces * sizeof (FsNamespace) + snapshot->n_claims * sizeof (FsClaim)
         + snapshot->n_persistent_volumes * sizeof (FsPersistentVolume)
         + snapshot->n_storage_classes * sizeof (FsStorageClass)
         + snapshot->n_csi_nodes * sizeof (FsCsiNode)
         + snapshot->n_pdbs * sizeof (FsPodDisruptionBudget);
}
