/* fitscale — snapshot building, node accounting, lookups (see include/fitscale/model/objects.h). */
#include "config.h"

#include <string.h>

#include "fitscale/model/error.h"
#include "fitscale/model/fit.h"
#include "fitscale/model/names.h"
#include "fitscale/model/objects.h"
#include "fitscale/model/runtimeclass.h"
#include "fitscale/model/schedconfig.h"

typedef struct {
  gsize offset_namespace; /* G_MAXSIZE when cluster-scoped */
  gsize offset_name;
  gsize offset_kind;      /* G_MAXSIZE when the array holds one kind */
} KeyLayout;

/* The arrays a builder made from a base tracks: nodes, pods, workloads, namespaces, pod
 * metrics, events, generic, claims, persistent volumes, storage classes, CSINodes, PDBs. */
enum { N_TRACKED = 12 };

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
  /* fs_snapshot_builder_new_from: the base's arrays, sorted and unique, are read where they
   * are (BASE_DATA[i], SORTED[i] elements, in the order of tracked_array; BASE keeps them),
   * and the builder's own arrays hold only what was added since; DEAD[i] marks the base's
   * elements a remove took out (NULL until one is).  Finish merges the two. */
  gboolean incremental;
  FsSnapshot *base;
  const char *base_data[N_TRACKED];
  guint sorted[N_TRACKED];
  guint8 *dead[N_TRACKED];
  /* finish (merge_tail): each merged array, a recycled buffer; for the pods, the base's that
   * went (removed or replaced) and where the added ones are in the merged array, for the
   * nodes' sums to follow the batch rather than sum every pod again */
  char *merged[N_TRACKED];
  guint merged_len[N_TRACKED];
  GArray *gone_pods, *added_pods; /* guint */
};

static GArray *
tracked_array (FsSnapshotBuilder *builder, guint which)
{
  GArray *arrays[N_TRACKED] = { builder->nodes, builder->pods, builder->workloads,
                                builder->namespaces, builder->pod_metrics, builder->events,
                                builder->generic, builder->claims, builder->persistent_volumes,
                                builder->storage_classes, builder->csi_nodes, builder->pdbs };
  return arrays[which];
}

#define LAYOUT(type, ns_field, kind_field)                                                   \
  ((KeyLayout){ .offset_namespace = ns_field, .offset_name = G_STRUCT_OFFSET (type, name),   \
                .offset_kind = kind_field })
#define NAMESPACED(type) G_STRUCT_OFFSET (type, namespace)

static const KeyLayout *
tracked_layout (guint which)
{
  static const KeyLayout layouts[N_TRACKED] = {
    LAYOUT (FsNode, G_MAXSIZE, G_MAXSIZE),
    LAYOUT (FsPod, NAMESPACED (FsPod), G_MAXSIZE),
    LAYOUT (FsWorkload, NAMESPACED (FsWorkload), G_STRUCT_OFFSET (FsWorkload, kind)),
    LAYOUT (FsNamespace, G_MAXSIZE, G_MAXSIZE),
    LAYOUT (FsPodMetrics, NAMESPACED (FsPodMetrics), G_MAXSIZE),
    LAYOUT (FsEvent, NAMESPACED (FsEvent), G_MAXSIZE),
    LAYOUT (FsGenericObject, NAMESPACED (FsGenericObject), G_STRUCT_OFFSET (FsGenericObject, kind)),
    LAYOUT (FsClaim, NAMESPACED (FsClaim), G_MAXSIZE),
    LAYOUT (FsPersistentVolume, G_MAXSIZE, G_MAXSIZE),
    LAYOUT (FsStorageClass, G_MAXSIZE, G_MAXSIZE),
    LAYOUT (FsCsiNode, G_MAXSIZE, G_MAXSIZE),
    LAYOUT (FsPodDisruptionBudget, NAMESPACED (FsPodDisruptionBudget), G_MAXSIZE),
  };
  return &layouts[which];
}

/* ---- recycled arrays ---------------------------------------------------------------- */

/* A watch batch writes every tracked array anew (merge_tail) and frees the last snapshot's:
 * for 150,000 pods, tens of MB a batch.  Fresh from the kernel each time (glibc maps blocks
 * that large, watch.c sets its threshold to 1 MiB) the copy took a page fault every 4 KiB and
 * ran at the speed of the faults; a freed array of that size is kept instead (a few, the
 * size of one snapshot's arrays: a batch frees the arrays the next one fills) and the next
 * batch writes into pages already there.  Each buffer starts with its capacity. */
#define RECYCLE_MIN_BYTES (256u << 10)
#define RECYCLE_KEEP 8

typedef struct {
  gsize capacity;
  gsize padding; /* 16 bytes: the elements after it stay 16-byte aligned */
} ArrayHeader;

static GMutex recycle_lock;
static ArrayHeader *recycled_arrays[RECYCLE_KEEP];

/* A buffer of at least BYTES, recycled when one of about that size was released. */
static char *
array_alloc (gsize bytes)
{
  ArrayHeader *header = NULL;
  if (bytes >= RECYCLE_MIN_BYTES)
    {
      g_mutex_lock (&recycle_lock);
      guint best = RECYCLE_KEEP;
      for (guint i = 0; i < RECYCLE_KEEP; i++)
        if (recycled_arrays[i] != NULL && recycled_arrays[i]->capacity >= bytes
            && recycled_arrays[i]->capacity / 2 <= bytes /* not a much larger one */
            && (best == RECYCLE_KEEP || recycled_arrays[i]->capacity < recycled_arrays[best]->capacity))
          best = i;
      if (best < RECYCLE_KEEP)
        header = g_steal_pointer (&recycled_arrays[best]);
      g_mutex_unlock (&recycle_lock);
    }
  if (header == NULL)
    {
      gsize capacity = bytes >= RECYCLE_MIN_BYTES ? bytes + bytes / 16 : bytes; /* room to grow */
      header = g_malloc (sizeof (ArrayHeader) + MAX (capacity, 1));
      header->capacity = capacity;
    }
  return (char *) (header + 1);
}

/* Gives back an array_alloc buffer: kept for the next batch when large, one of each size
 * (within a factor of two: the pods', the nodes', the workloads' ... arrays of one snapshot,
 * not those of every snapshot a reader let go late, which would keep several generations),
 * the larger kept; else freed. */
static void
array_release (gpointer data)
{
  if (data == NULL)
    return;
  ArrayHeader *header = (ArrayHeader *) data - 1;
  if (header->capacity >= RECYCLE_MIN_BYTES)
    {
      g_mutex_lock (&recycle_lock);
      guint place = RECYCLE_KEEP;
      for (guint i = 0; i < RECYCLE_KEEP && place == RECYCLE_KEEP; i++)
        if (recycled_arrays[i] != NULL && recycled_arrays[i]->capacity / 2 <= header->capacity
            && header->capacity / 2 <= recycled_arrays[i]->capacity)
          place = i; /* one of that size is kept already */
      for (guint i = 0; i < RECYCLE_KEEP && place == RECYCLE_KEEP; i++)
        if (recycled_arrays[i] == NULL)
          place = i;
      if (place < RECYCLE_KEEP
          && (recycled_arrays[place] == NULL || recycled_arrays[place]->capacity < header->capacity))
        {
          ArrayHeader *evicted = recycled_arrays[place];
          recycled_arrays[place] = g_steal_pointer (&header);
          header = evicted;
        }
      g_mutex_unlock (&recycle_lock);
    }
  g_free (header);
}

gsize
fs_snapshot_release_spare_arrays (void)
{
  ArrayHeader *spare[RECYCLE_KEEP];
  g_mutex_lock (&recycle_lock);
  for (guint i = 0; i < RECYCLE_KEEP; i++)
    spare[i] = g_steal_pointer (&recycled_arrays[i]);
  g_mutex_unlock (&recycle_lock);
  gsize bytes = 0;
  for (guint i = 0; i < RECYCLE_KEEP; i++)
    if (spare[i] != NULL)
      {
        bytes += spare[i]->capacity;
        g_free (spare[i]);
      }
  return bytes;
}

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
  builder->pool = fs_pool_ref (base->pool); /* shared: no chain of pools, no depth */
  builder->incremental = TRUE;
  builder->base = fs_snapshot_ref (base);
  builder->resource_version = base->resource_version;
  const void *data[N_TRACKED] = { base->nodes, base->pods, base->workloads, base->namespaces, base->pod_metrics,
                                  base->events, base->generic, base->claims, base->persistent_volumes,
                                  base->storage_classes, base->csi_nodes, base->pdbs };
  guint counts[N_TRACKED] = { base->n_nodes, base->n_pods, base->n_workloads, base->n_namespaces,
                              base->n_pod_metrics, base->n_events, base->n_generic, base->n_claims,
                              base->n_persistent_volumes, base->n_storage_classes, base->n_csi_nodes,
                              base->n_pdbs };
  for (guint i = 0; i < N_TRACKED; i++)
    {
      builder->base_data[i] = data[i];
      builder->sorted[i] = counts[i];
    }
  builder->storage_kinds = base->storage_kinds;
  g_array_append_vals (builder->namespaced_lists, base->namespaced_lists, base->n_namespaced_lists);
  builder->n_cluster_pod_lists = base->n_cluster_pod_lists;
  builder->n_skipped = base->n_skipped;
  return builder;
}

const char *
fs_snapshot_builder_resource_version (const FsSnapshotBuilder *builder)
{
  return builder->resource_version;
}

static gint compare_elements (gconstpointer a, gconstpointer b, gpointer user_data);

/* Which tracked array holds objects of KIND, and the kind's number in it (FsWorkloadKind,
 * FsGenericKind; 0 elsewhere); FALSE for a kind no array holds. */
static gboolean
array_of_kind (const char *kind, guint *which, int *number)
{
  static const char *const single[N_TRACKED] = {
    "Node", "Pod", NULL, "Namespace", "PodMetrics", "Event", NULL, "PersistentVolumeClaim",
    "PersistentVolume", "StorageClass", "CSINode", "PodDisruptionBudget",
  };
  static const char *const generic[] = { "HorizontalPodAutoscaler", "VerticalPodAutoscaler", "Hvpa" };
  *number = 0;
  for (guint i = 0; i < N_TRACKED; i++)
    if (single[i] != NULL && g_strcmp0 (single[i], kind) == 0)
      return (*which = i), TRUE;
  for (int k = FS_WORKLOAD_DEPLOYMENT; k <= FS_WORKLOAD_REPLICASET; k++)
    if (g_strcmp0 (fs_workload_kind_name ((FsWorkloadKind) k), kind) == 0)
      return (*which = 2), (*number = k), TRUE;
  for (guint k = 0; k < G_N_ELEMENTS (generic); k++)
    if (g_strcmp0 (generic[k], kind) == 0)
      return (*which = 6), (*number = (int) k), TRUE;
  return FALSE;
}

static void
mark_dead (FsSnapshotBuilder *builder, guint which, guint index)
{
  if (builder->dead[which] == NULL)
    builder->dead[which] = g_malloc0 (MAX (builder->sorted[which], 1));
  builder->dead[which][index] = 1;
}

/* Removes what matches PROBE (by key; with EVERY, what is of PROBE's kind): in the sorted
 * base of an incremental builder by binary search (marked, dropped at finish), elsewhere by a
 * scan of what was added. */
static guint
remove_matching (FsSnapshotBuilder *builder, guint which, const void *probe, gboolean every)
{
  GArray *array = tracked_array (builder, which);
  const KeyLayout *layout = tracked_layout (which);
  gsize size = g_array_get_element_size (array);
  const char *base = builder->incremental ? builder->base_data[which] : NULL;
  guint sorted = builder->incremental ? builder->sorted[which] : 0;
  guint removed = 0;
  if (every)
    {
      for (guint i = 0; i < sorted; i++)
        if ((builder->dead[which] == NULL || !builder->dead[which][i])
            && (layout->offset_kind == G_MAXSIZE
                || *(const int *) (base + (gsize) i * size + layout->offset_kind)
                       == *(const int *) ((const char *) probe + layout->offset_kind)))
          {
            mark_dead (builder, which, i);
            removed++;
          }
    }
  else if (sorted > 0)
    {
      guint low = 0, high = sorted;
      while (low < high)
        {
          guint middle = low + (high - low) / 2;
          if (compare_elements (base + (gsize) middle * size, probe, (gpointer) layout) < 0)
            low = middle + 1;
          else
            high = middle;
        }
      if (low < sorted && compare_elements (base + (gsize) low * size, probe, (gpointer) layout) == 0
          && (builder->dead[which] == NULL || !builder->dead[which][low]))
        {
          mark_dead (builder, which, low);
          removed++;
        }
    }
  for (guint i = array->len; i-- > 0;) /* what was added (all of a fresh builder's) */
    {
      const char *element = array->data + (gsize) i * size;
      gboolean same = every ? layout->offset_kind == G_MAXSIZE
                                  || *(const int *) (element + layout->offset_kind)
                                         == *(const int *) ((const char *) probe + layout->offset_kind)
                            : compare_elements (element, probe, (gpointer) layout) == 0;
      if (same)
        {
          g_array_remove_index (array, i);
          removed++;
        }
    }
  return removed;
}

static void
make_probe (guint which, int number, const char *namespace, const char *name, guint64 *probe)
{
  const KeyLayout *layout = tracked_layout (which);
  if (layout->offset_namespace != G_MAXSIZE)
    memcpy ((char *) probe + layout->offset_namespace, &namespace, sizeof namespace);
  memcpy ((char *) probe + layout->offset_name, &name, sizeof name);
  if (layout->offset_kind != G_MAXSIZE)
    memcpy ((char *) probe + layout->offset_kind, &number, sizeof number);
}

guint
fs_snapshot_builder_remove (FsSnapshotBuilder *builder, const char *kind, const char *namespace,
                            const char *name)
{
  guint which;
  int number;
  if (name == NULL || !array_of_kind (kind, &which, &number))
    return 0;
  g_autofree guint64 *probe = g_malloc0 (g_array_get_element_size (tracked_array (builder, which)));
  make_probe (which, number, namespace, name, probe);
  return remove_matching (builder, which, probe, FALSE);
}

guint
fs_snapshot_builder_remove_kind (FsSnapshotBuilder *builder, const char *kind)
{
  guint which;
  int number;
  if (!array_of_kind (kind, &which, &number))
    return 0;
  g_autofree guint64 *probe = g_malloc0 (g_array_get_element_size (tracked_array (builder, which)));
  make_probe (which, number, NULL, NULL, probe);
  return remove_matching (builder, which, probe, TRUE);
}

void
fs_snapshot_builder_free (FsSnapshotBuilder *builder)
{
  if (builder == NULL)
    return;
  for (guint i = 0; i < N_TRACKED; i++)
    {
      g_free (builder->dead[i]);
      array_release (builder->merged[i]);
    }
  if (builder->gone_pods != NULL)
    g_array_unref (builder->gone_pods);
  if (builder->added_pods != NULL)
    g_array_unref (builder->added_pods);
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

static void
sort_all (FsSnapshotBuilder *builder)
{
  for (guint i = 0; i < N_TRACKED; i++)
    sort_and_dedupe (tracked_array (builder, i), tracked_layout (i));
}

/* An incremental builder's array WHICH: its sorted base (less what was removed) merged with
 * what was added since, sorted; an added object replaces the base's of the same key.  O(n)
 * moves and O(k log k) compares for k additions: a watch batch costs no sort of the whole. */
static void
merge_tail (FsSnapshotBuilder *builder, guint which)
{
  GArray *tail = tracked_array (builder, which);
  const KeyLayout *layout = tracked_layout (which);
  const char *base = builder->base_data[which];
  guint sorted = builder->sorted[which];
  const guint8 *dead = builder->dead[which];
  gsize size = g_array_get_element_size (tail);
  sort_and_dedupe (tail, layout);
  char *merged = array_alloc ((gsize) (sorted + tail->len) * size);
  guint n = 0;
  gboolean pods = which == 1;
  if (pods)
    {
      builder->gone_pods = g_array_new (FALSE, FALSE, sizeof (guint));
      builder->added_pods = g_array_new (FALSE, FALSE, sizeof (guint));
    }
  guint i = 0, j = 0;
  while (i < sorted || j < tail->len)
    {
      /* the base up to the next removal or the place of the next addition, in one copy:
       * O(log n) compares an addition, whatever the size of the base */
      const char *added = j < tail->len ? tail->data + (gsize) j * size : NULL;
      guint stop = sorted;
      if (dead != NULL && i < sorted)
        {
          const guint8 *next = memchr (dead + i, 1, sorted - i);
          stop = next != NULL ? (guint) (next - dead) : sorted;
        }
      if (added != NULL)
        {
          guint low = i, high = stop;
          while (low < high)
            {
              guint middle = low + (high - low) / 2;
              if (compare_elements (base + (gsize) middle * size, added, (gpointer) layout) < 0)
                low = middle + 1;
              else
                high = middle;
            }
          stop = low;
        }
      if (stop > i)
        {
          memcpy (merged + (gsize) n * size, base + (gsize) i * size, (gsize) (stop - i) * size);
          n += stop - i;
          i = stop;
          continue;
        }
      if (i < sorted && dead != NULL && dead[i])
        {
          if (pods)
            g_array_append_val (builder->gone_pods, i);
          i++;
          continue;
        }
      memcpy (merged + (gsize) n * size, added, size);
      if (pods)
        g_array_append_val (builder->added_pods, n);
      n++;
      j++;
      if (i < sorted && compare_elements (base + (gsize) i * size, added, (gpointer) layout) == 0)
        {
          if (pods)
            g_array_append_val (builder->gone_pods, i);
          i++; /* the added copy replaces the base's */
        }
    }
  g_array_set_size (tail, 0);
  builder->merged[which] = merged;
  builder->merged_len[which] = n;
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

guint
fs_pod_group_key_hash (gconstpointer data)
{
  const FsPodGroupKey *key = data;
  return (g_direct_hash (key->namespace) * 31u + g_direct_hash (key->owner)) * 31u + g_direct_hash (key->spec);
}

gboolean
fs_pod_group_key_equal (gconstpointer a, gconstpointer b)
{
  const FsPodGroupKey *x = a, *y = b;
  return x->namespace == y->namespace && x->owner == y->owner && x->spec == y->spec;
}

/* Zeroed memory the snapshot owns and frees, for what is derived at build: not the pool,
 * which an incremental builder shares with the snapshots before (each batch of a watch would
 * otherwise leave its derived lists in it). */
static gpointer
snapshot_alloc (FsSnapshot *snapshot, gsize size)
{
  if (snapshot->derived == NULL)
    snapshot->derived = g_ptr_array_new_with_free_func (g_free);
  gpointer memory = g_malloc0 (size);
  g_ptr_array_add (snapshot->derived, memory);
  return memory;
}

/* Per node, five counts of the pods summed on it (FsSnapshot.node_bits): those whose request
 * gives cpu, memory, ephemeral storage, pods (as resources.c given_bits: present, or not 0),
 * and those with extended resources. */
enum { NODE_BITS = 5 };

static const FsResourceBit fixed_bits[4] = { FS_RES_CPU, FS_RES_MEMORY, FS_RES_EPHEMERAL, FS_RES_PODS };

static guint8
request_bits (const FsResources *request)
{
  guint8 bits = request->present & (FS_RES_CPU | FS_RES_MEMORY | FS_RES_EPHEMERAL | FS_RES_PODS);
  bits |= request->cpu_milli != 0 ? FS_RES_CPU : 0;
  bits |= request->memory_bytes != 0 ? FS_RES_MEMORY : 0;
  bits |= request->ephemeral_bytes != 0 ? FS_RES_EPHEMERAL : 0;
  bits |= request->pods != 0 ? FS_RES_PODS : 0;
  return bits;
}

static void
count_bits (guint32 *counts, const FsResources *request, int by)
{
  guint8 bits = request_bits (request);
  for (guint b = 0; b < 4; b++)
    if (bits & fixed_bits[b])
      counts[b] += (guint32) by;
  if (request->n_extended > 0)
    counts[4] += (guint32) by;
}

static gboolean
saturated (const FsResources *sum)
{
  const int64_t values[] = { sum->cpu_milli, sum->memory_bytes, sum->ephemeral_bytes, sum->pods };
  for (gsize i = 0; i < G_N_ELEMENTS (values); i++)
    if (values[i] == G_MAXINT64 || values[i] == G_MININT64)
      return TRUE;
  return FALSE;
}

/* An incremental build's node sums from its base's, less the pods that went and plus those
 * added (merge_tail lists both): O(k) for a batch of k pods instead of a pass over every pod,
 * and equal to what account_pods sums.  FALSE, for account_pods to sum every pod, when the
 * nodes are not the base's ones in the same places (a node added or removed: the pods'
 * node_index would move), when a sum reached a bound (saturated sums do not subtract), or
 * when a pod that went or came has extended resources (a sum's entry for one would stay at 0
 * where a fresh sum has none). */
static gboolean
follow_batch (FsSnapshot *snapshot, FsSnapshotBuilder *builder, gboolean *any_ports)
{
  const FsSnapshot *base = builder->base;
  if (!builder->incremental || base == NULL || base->node_bits == NULL || base->n_nodes != snapshot->n_nodes
      || builder->gone_pods == NULL)
    return FALSE;
  FsNode *nodes = (FsNode *) snapshot->nodes;
  for (guint n = 0; n < snapshot->n_nodes; n++)
    if (nodes[n].name != base->nodes[n].name || saturated (&base->nodes[n].requested))
      return FALSE;
  for (guint k = 0; k < builder->gone_pods->len; k++)
    {
      const FsPod *pod = &base->pods[g_array_index (builder->gone_pods, guint, k)];
      if (pod->node_index >= 0 && fs_pod_counts_on_node (pod) && fs_pod_request (pod)->n_extended > 0)
        return FALSE;
    }
  FsPod *pods = (FsPod *) snapshot->pods;
  for (guint k = 0; k < builder->added_pods->len; k++)
    {
      const FsPod *pod = &pods[g_array_index (builder->added_pods, guint, k)];
      if (pod->node_name != NULL && fs_pod_counts_on_node (pod) && fs_pod_request (pod)->n_extended > 0)
        return FALSE;
    }
  guint32 *bits = g_memdup2 (base->node_bits, sizeof (guint32) * NODE_BITS * MAX (snapshot->n_nodes, 1));
  for (guint n = 0; n < snapshot->n_nodes; n++)
    {
      nodes[n].requested = base->nodes[n].requested;
      nodes[n].pod_count = base->nodes[n].pod_count;
    }
  guint anti_affinity = base->n_pods_with_anti_affinity;
  for (guint k = 0; k < builder->gone_pods->len; k++)
    {
      const FsPod *pod = &base->pods[g_array_index (builder->gone_pods, guint, k)];
      if (pod->node_index < 0 || !fs_pod_counts_on_node (pod))
        continue;
      FsNode *node = &nodes[pod->node_index];
      guint32 *counts = &bits[(gsize) pod->node_index * NODE_BITS];
      node->pod_count--;
      anti_affinity -= pod->spec->placement->pod_anti_affinity != NULL;
      fs_resources_sub (&node->requested, fs_pod_request (pod), NULL); /* no extended: cannot fail */
      count_bits (counts, fs_pod_request (pod), -1);
      for (guint b = 0; b < 4; b++)
        if (counts[b] == 0)
          node->requested.present &= (guint8) ~fixed_bits[b];
    }
  for (guint k = 0; k < builder->added_pods->len; k++)
    {
      FsPod *pod = &pods[g_array_index (builder->added_pods, guint, k)];
      pod->node_index = -1;
      gpointer slot = pod->node_name != NULL ? g_hash_table_lookup (snapshot->node_index, pod->node_name) : NULL;
      if (slot == NULL)
        continue;
      pod->node_index = GPOINTER_TO_INT (slot) - 1;
      if (!fs_pod_counts_on_node (pod))
        continue;
      FsNode *node = &nodes[pod->node_index];
      node->pod_count++;
      anti_affinity += pod->spec->placement->pod_anti_affinity != NULL;
      fs_resources_add (&node->requested, fs_pod_request (pod), NULL); /* no extended: cannot fail */
      count_bits (&bits[(gsize) pod->node_index * NODE_BITS], fs_pod_request (pod), 1);
    }
  snapshot->n_pods_with_anti_affinity = anti_affinity;
  snapshot->node_bits = bits;
  /* host ports: the pods kept are the base's, whose ports its nodes list */
  for (guint n = 0; n < base->n_nodes && !*any_ports; n++)
    *any_ports = base->nodes[n].used_ports != NULL;
  for (guint k = 0; k < builder->added_pods->len && !*any_ports; k++)
    *any_ports = pods[g_array_index (builder->added_pods, guint, k)].spec->host_ports != NULL;
  return TRUE;
}

static gboolean
account_pods (FsSnapshot *snapshot, gboolean *any_ports, GError **error)
{
  FsNode *nodes = (FsNode *) snapshot->nodes;
  FsPod *pods = (FsPod *) snapshot->pods;
  /* a pod's node name is interned with the node's own: usually one pointer, found without
   * hashing the text (the table by text is for the rest) */
  g_autoptr (GHashTable) by_pointer = g_hash_table_new (NULL, NULL);
  for (guint n = 0; n < snapshot->n_nodes; n++)
    g_hash_table_insert (by_pointer, (gpointer) nodes[n].name, GINT_TO_POINTER (n + 1));
  g_free (snapshot->node_bits);
  snapshot->node_bits = g_new0 (guint32, (gsize) NODE_BITS * MAX (snapshot->n_nodes, 1));
  for (guint i = 0; i < snapshot->n_pods; i++)
    {
      FsPod *pod = &pods[i];
      pod->node_index = -1;
      if (pod->node_name == NULL)
        continue;
      gpointer slot = g_hash_table_lookup (by_pointer, pod->node_name);
      if (slot == NULL)
        slot = g_hash_table_lookup (snapshot->node_index, pod->node_name);
      if (slot == NULL)
        continue;
      pod->node_index = GPOINTER_TO_INT (slot) - 1;
      if (!fs_pod_counts_on_node (pod))
        continue;
      FsNode *node = &nodes[pod->node_index];
      node->pod_count++;
      count_bits (&snapshot->node_bits[(gsize) pod->node_index * NODE_BITS], fs_pod_request (pod), 1);
      *any_ports = *any_ports || pod->spec->host_ports != NULL;
      snapshot->n_pods_with_anti_affinity += pod->spec->placement->pod_anti_affinity != NULL;
      g_autoptr (GError) local_error = NULL;
      if (!fs_resources_add (&node->requested, fs_pod_request (pod), &local_error))
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
        FsUsedPortList *list = snapshot_alloc (snapshot, sizeof (FsUsedPortList)
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
      nodes[n].volume_pods = snapshot_alloc (snapshot, sizeof (FsPodRefList)
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

/* The snapshot's tracked array WHICH (tracked_array's order): where its data and count are. */
static void
snapshot_tracked (FsSnapshot *snapshot, guint which, gconstpointer **data, guint **count)
{
  gconstpointer *datas[N_TRACKED] = {
    (gconstpointer *) &snapshot->nodes, (gconstpointer *) &snapshot->pods, (gconstpointer *) &snapshot->workloads,
    (gconstpointer *) &snapshot->namespaces, (gconstpointer *) &snapshot->pod_metrics,
    (gconstpointer *) &snapshot->events, (gconstpointer *) &snapshot->generic, (gconstpointer *) &snapshot->claims,
    (gconstpointer *) &snapshot->persistent_volumes, (gconstpointer *) &snapshot->storage_classes,
    (gconstpointer *) &snapshot->csi_nodes, (gconstpointer *) &snapshot->pdbs,
  };
  guint *counts[N_TRACKED] = { &snapshot->n_nodes, &snapshot->n_pods, &snapshot->n_workloads, &snapshot->n_namespaces,
                               &snapshot->n_pod_metrics, &snapshot->n_events, &snapshot->n_generic, &snapshot->n_claims,
                               &snapshot->n_persistent_volumes, &snapshot->n_storage_classes, &snapshot->n_csi_nodes,
                               &snapshot->n_pdbs };
  *data = datas[which];
  *count = counts[which];
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
  if (builder->incremental)
    {
      for (guint i = 0; i < N_TRACKED; i++)
        merge_tail (builder, i); /* the base stays until the nodes' sums followed the batch */
    }
  else
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
  if (builder->incremental)
    for (guint i = 0; i < N_TRACKED; i++)
      {
        gconstpointer *data;
        guint *count;
        snapshot_tracked (snapshot, i, &data, &count);
        g_free ((gpointer) *data); /* the tail, now empty: merged */
        *data = g_steal_pointer (&builder->merged[i]);
        *count = builder->merged_len[i];
        snapshot->recycled |= 1u << i;
      }

  /* templates (and Pods written by hand) name RuntimeClasses whose overhead admission adds to
   * the pods made of them; an incremental build's base pods were counted as they are, and its
   * new ones come from the API server or a review, admitted already */
  if (!fs_snapshot_apply_runtime_classes (snapshot, !builder->incremental, error))
    {
      fs_snapshot_builder_free (builder);
      return NULL;
    }
  index_nodes (snapshot);
  gboolean any_ports = FALSE;
  if (!follow_batch (snapshot, builder, &any_ports))
    {
      any_ports = FALSE;
      snapshot->n_pods_with_anti_affinity = 0;
      if (!account_pods (snapshot, &any_ports, error))
        {
          fs_snapshot_builder_free (builder);
          return NULL;
        }
    }
  fs_snapshot_builder_free (builder);
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
  for (guint i = 0; i < N_TRACKED; i++)
    {
      gconstpointer *data;
      guint *count;
      snapshot_tracked (snapshot, i, &data, &count);
      if (snapshot->recycled & (1u << i))
        array_release ((gpointer) *data);
      else
        g_free ((gpointer) *data);
    }
  g_free (snapshot->node_bits);
  g_free ((gpointer) snapshot->namespaced_lists);
  if (snapshot->node_index != NULL)
    g_hash_table_unref (snapshot->node_index);
  if (snapshot->derived != NULL)
    g_ptr_array_unref (snapshot->derived);
  fs_pool_free (snapshot->pool);
  fs_scheduler_config_unref (snapshot->scheduler_config);
  g_free (snapshot);
}

const FsNode *
fs_snapshot_find_node (const FsSnapshot *snapshot, const char *name)
{
  gpointer slot = g_hash_table_lookup (snapshot->node_index, name);
  return slot == NULL ? NULL : &snapshot->nodes[GPOINTER_TO_INT (slot) - 1];
}

/* The first pod not below NAMESPACE/NAME (NAME NULL: the namespace alone; AFTER: the first
 * above it), by binary search: the pods are sorted by namespace and name (finish: sort_all
 * or merge_tail). */
static guint
pod_bound (const FsSnapshot *snapshot, const char *namespace, const char *name, gboolean after)
{
  guint low = 0, high = snapshot->n_pods;
  while (low < high)
    {
      guint middle = low + (high - low) / 2;
      const FsPod *pod = &snapshot->pods[middle];
      int order = name != NULL ? compare_names (pod->namespace, pod->name, namespace, name)
                               : compare_names (pod->namespace, NULL, namespace, NULL);
      if (order < 0 || (after && order == 0))
        low = middle + 1;
      else
        high = middle;
    }
  return low;
}

const FsPod *
fs_snapshot_find_pod (const FsSnapshot *snapshot, const char *namespace, const char *name)
{
  guint low = pod_bound (snapshot, namespace, name, FALSE);
  if (low < snapshot->n_pods && compare_names (snapshot->pods[low].namespace, snapshot->pods[low].name, namespace, name) == 0)
    return &snapshot->pods[low];
  return NULL;
}

void
fs_snapshot_namespace_pods (const FsSnapshot *snapshot, const char *namespace, guint *first, guint *end)
{
  *first = pod_bound (snapshot, namespace, NULL, FALSE);
  *end = pod_bound (snapshot, namespace, NULL, TRUE);
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

/* The Deployment of a ReplicaSet OWNER the snapshot lacks: the deployment controller names
 * the ReplicaSet of a pod template DEPLOYMENT-HASH and labels its pods pod-template-hash=HASH
 * (pkg/controller/deployment/sync.go getNewReplicaSet; apps/v1
 * DefaultDeploymentUniqueLabelKey), so the name less "-HASH" (the pod's label, else the last
 * dash-separated part) is the Deployment's, when it is there and its selector takes the pod. */
static const FsWorkload *
deployment_of_missing_replicaset (const FsSnapshot *snapshot, const FsPod *pod, const FsOwnerRef *owner)
{
  if (strcmp (owner->kind, "ReplicaSet") != 0)
    return NULL;
  const char *hash = fs_labels_get (pod->labels, "pod-template-hash");
  const char *dash = strrchr (owner->name, '-');
  gsize name_len = strlen (owner->name);
  if (hash != NULL && hash[0] != '\0')
    dash = name_len > strlen (hash) + 1 && strcmp (owner->name + name_len - strlen (hash), hash) == 0
               ? owner->name + name_len - strlen (hash) - 1 : NULL;
  if (dash == NULL || *dash != '-' || dash == owner->name)
    return NULL;
  g_autofree char *name = g_strndup (owner->name, (gsize) (dash - owner->name));
  const FsWorkload *deployment = fs_snapshot_find_workload (snapshot, pod->namespace, "Deployment", name);
  return deployment != NULL && fs_workload_owns_pod (pod, (gpointer) deployment) ? deployment : NULL;
}

const FsWorkload *
fs_snapshot_pod_workload (const FsSnapshot *snapshot, const FsPod *pod)
{
  const FsOwnerRef *owner = pod->owner;
  const FsWorkload *found = NULL;
  for (int depth = 0; owner != NULL && depth < 3; depth++)
    {
      const FsWorkload *next = fs_snapshot_find_workload (snapshot, pod->namespace, owner->kind, owner->name);
      if (next == NULL && found == NULL)
        next = deployment_of_missing_replicaset (snapshot, pod, owner);
      if (next == NULL)
        break;
      found = next;
      owner = next->owner;
    }
  return found;
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
