/* fitscale — RuntimeClass admission for templates (see include/fitscale/model/runtimeclass.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fitscale/model/error.h"
#include "fitscale/model/names.h"
#include "fitscale/model/quantity.h"
#include "fitscale/model/runtimeclass.h"

const FsGenericObject *
fs_snapshot_find_runtime_class (const FsSnapshot *snapshot, const char *name)
{
  for (guint i = 0; snapshot != NULL && name != NULL && i < snapshot->n_generic; i++)
    if (snapshot->generic[i].kind == FS_KIND_RUNTIME_CLASS && g_strcmp0 (snapshot->generic[i].name, name) == 0)
      return &snapshot->generic[i];
  return NULL;
}

/* The value of KEY in the map TREE, or NULL. */
static const FsTree *
map_value (const FsTree *tree, const char *key)
{
  for (guint i = 0; tree != NULL && tree->type == FS_TREE_MAP && i < tree->n; i++)
    if (strcmp (tree->keys[i], key) == 0)
      return tree->values[i];
  return NULL;
}

/* The text of the scalar KEY of the map TREE, or NULL. */
static const char *
map_text (const FsTree *tree, const char *key)
{
  const FsTree *value = map_value (tree, key);
  return value != NULL && value->type != FS_TREE_MAP && value->type != FS_TREE_LIST ? value->text : NULL;
}

/* overhead.podFixed: a resource list, read as a pod's requests are. */
static gboolean
read_pod_fixed (const FsTree *pod_fixed, const char *class_name, FsPool *pool, FsResources *out,
                GError **error)
{
  for (guint i = 0; i < pod_fixed->n; i++)
    {
      const char *name = pod_fixed->keys[i];
      const FsTree *value = pod_fixed->values[i];
      FsResourceKind kind = fs_resource_kind (name);
      if (kind == FS_RES_KIND_IGNORED)
        continue;
      int64_t amount = 0;
      gboolean read = value->type == FS_TREE_STRING || value->type == FS_TREE_NUMBER;
      if (read)
        read = kind == FS_RES_KIND_CPU ? fs_quantity_parse_milli (value->text, strlen (value->text), &amount, NULL)
                                       : fs_quantity_parse_value (value->text, strlen (value->text), &amount, NULL);
      if (!read || amount < 0)
        {
          g_set_error (error, FS_ERROR, FS_ERROR_INVALID,
                       "RuntimeClass %s: overhead.podFixed.%s: Invalid value: not a quantity of 0 or more",
                       class_name, name);
          return FALSE;
        }
      if (!fs_resources_set (out, fs_pool_intern (pool, name, strlen (name)), amount, error))
        return FALSE;
    }
  return TRUE;
}

/* scheduling.nodeSelector: a map of strings. */
static void
read_node_selector (const FsTree *selector, FsPool *pool, FsRuntimeClass *out)
{
  if (selector == NULL || selector->type != FS_TREE_MAP || selector->n == 0)
    return;
  gsize size = sizeof (FsLabelSet) + selector->n * sizeof (FsLabel);
  FsLabelSet *set = g_malloc0 (size);
  for (guint i = 0; i < selector->n; i++)
    {
      const char *value = selector->values[i]->text != NULL ? selector->values[i]->text : "";
      set->items[set->n++] = (FsLabel){ fs_pool_intern (pool, selector->keys[i], strlen (selector->keys[i])),
                                        fs_pool_intern (pool, value, strlen (value)) };
    }
  qsort (set->items, set->n, sizeof (FsLabel), fs_label_compare);
  out->node_selector = fs_pool_intern_blob (pool, set, size);
  g_free (set);
}

static gboolean
read_effect (const char *text, FsTaintEffect *effect)
{
  static const char *const names[] = { [FS_EFFECT_ALL] = "", [FS_EFFECT_NO_SCHEDULE] = "NoSchedule",
                                       [FS_EFFECT_PREFER_NO_SCHEDULE] = "PreferNoSchedule",
                                       [FS_EFFECT_NO_EXECUTE] = "NoExecute" };
  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    if (strcmp (text != NULL ? text : "", names[i]) == 0)
      {
        *effect = (FsTaintEffect) i;
        return TRUE;
      }
  return FALSE;
}

/* scheduling.tolerations: v1.Toleration items. */
static gboolean
read_tolerations (const FsTree *list, const char *class_name, FsPool *pool, FsRuntimeClass *out,
                  GError **error)
{
  if (list == NULL || list->type != FS_TREE_LIST || list->n == 0)
    return TRUE;
  gsize size = sizeof (FsTolerationList) + list->n * sizeof (FsToleration);
  g_autofree FsTolerationList *tolerations = g_malloc0 (size);
  for (guint i = 0; i < list->n; i++)
    {
      FsToleration *toleration = &tolerations->items[tolerations->n++];
      const char *key = map_text (list->values[i], "key");
      const char *op = map_text (list->values[i], "operator");
      const char *value = map_text (list->values[i], "value");
      const char *seconds = map_text (list->values[i], "tolerationSeconds");
      toleration->key = key != NULL && key[0] != '\0' ? fs_pool_intern (pool, key, strlen (key)) : NULL;
      toleration->value = value != NULL && value[0] != '\0' ? fs_pool_intern (pool, value, strlen (value)) : NULL;
      toleration->op = op != NULL && strcmp (op, "Exists") == 0 ? FS_TOLERATION_EXISTS : FS_TOLERATION_EQUAL;
      char *end = NULL;
      if (seconds != NULL)
        toleration->toleration_seconds = g_ascii_strtoll (seconds, &end, 10);
      toleration->has_seconds = seconds != NULL;
      if ((op != NULL && op[0] != '\0' && strcmp (op, "Exists") != 0 && strcmp (op, "Equal") != 0)
          || !read_effect (map_text (list->values[i], "effect"), &toleration->effect)
          || (seconds != NULL && (end == seconds || *end != '\0')))
        {
          g_set_error (error, FS_ERROR, FS_ERROR_INVALID,
                       "RuntimeClass %s: scheduling.tolerations[%u]: Invalid value: not a toleration "
                       "(operator Equal or Exists, effect NoSchedule, PreferNoSchedule or NoExecute)",
                       class_name, i);
          return FALSE;
        }
    }
  out->tolerations = fs_pool_intern_blob (pool, tolerations, size);
  return TRUE;
}

gboolean
fs_runtime_class_read (const FsGenericObject *object, FsPool *pool, FsRuntimeClass *out, GError **error)
{
  memset (out, 0, sizeof *out);
  out->name = object->name;
  const FsTree *pod_fixed = map_value (map_value (object->object, "overhead"), "podFixed");
  if (pod_fixed != NULL && pod_fixed->type == FS_TREE_MAP)
    {
      out->has_overhead = TRUE;
      if (!read_pod_fixed (pod_fixed, object->name, pool, &out->overhead, error))
        return FALSE;
    }
  const FsTree *scheduling = map_value (object->object, "scheduling");
  read_node_selector (map_value (scheduling, "nodeSelector"), pool, out);
  return read_tolerations (map_value (scheduling, "tolerations"), object->name, pool, out, error);
}

char *
fs_runtime_class_refusal (const FsRuntimeClass *runtime_class, const FsPodSpec *spec)
{
  /* setOverhead and validateOverhead: an overhead of the pod's own must be the class's */
  const FsResources *own = spec->containers != NULL ? spec->containers->overhead : NULL;
  if (own != NULL && !runtime_class->has_overhead)
    return g_strdup ("it states spec.overhead and the RuntimeClass defines none");
  if (own != NULL && !fs_resources_equal (own, &runtime_class->overhead))
    return g_strdup ("its spec.overhead differs from the RuntimeClass's overhead.podFixed");
  /* setScheduling: the class's nodeSelector may add keys, never change one */
  const FsLabelSet *class_selector = runtime_class->node_selector;
  const FsLabelSet *pod_selector = spec->placement != NULL ? spec->placement->node_selector : NULL;
  for (guint i = 0; class_selector != NULL && i < class_selector->n; i++)
    for (guint j = 0; pod_selector != NULL && j < pod_selector->n; j++)
      if (strcmp (class_selector->items[i].key, pod_selector->items[j].key) == 0
          && strcmp (class_selector->items[i].value, pod_selector->items[j].value) != 0)
        return g_strdup_printf ("its nodeSelector gives %s another value than the RuntimeClass's "
                                "scheduling.nodeSelector (conflict)", class_selector->items[i].key);
  return NULL;
}

/* Whether the ITEMS (N of them) hold one like ITEM: a label of its key, an equal toleration. */
typedef gboolean (*HasItem) (const void *items, guint n, const void *item);

static gboolean
has_label_key (const void *items, guint n, const void *item)
{
  const FsLabel *labels = items;
  for (guint i = 0; i < n; i++)
    if (strcmp (labels[i].key, ((const FsLabel *) item)->key) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
has_toleration (const void *items, guint n, const void *item)
{
  const FsToleration *tolerations = items, *toleration = item;
  for (guint i = 0; i < n; i++)
    {
      const FsToleration *other = &tolerations[i];
      if (g_strcmp0 (other->key, toleration->key) == 0 && g_strcmp0 (other->value, toleration->value) == 0
          && other->op == toleration->op && other->effect == toleration->effect
          && other->has_seconds == toleration->has_seconds
          && other->toleration_seconds == toleration->toleration_seconds)
        return TRUE;
    }
  return FALSE;
}

/* Two {guint n; T items[]} lists (items at HEADER, each SIZE bytes) merged: POD's items, then
 * the CLASS items HAS does not find among them, sorted by ORDER unless NULL; POD itself when
 * none is added. */
static const void *
merged_list (FsPool *pool, const void *pod, const void *class_list, gsize header, gsize size, HasItem has,
             int (*order) (const void *, const void *))
{
  if (class_list == NULL)
    return pod;
  guint n_pod = pod != NULL ? *(const guint *) pod : 0, n_class = *(const guint *) class_list;
  const char *pod_items = (const char *) pod + header, *class_items = (const char *) class_list + header;
  g_autofree char *merged = g_malloc0 (header + (n_pod + n_class) * size);
  guint n = n_pod;
  if (n_pod > 0)
    memcpy (merged + header, pod_items, n_pod * size);
  for (guint i = 0; i < n_class; i++)
    if (!has (pod_items, n_pod, class_items + i * size))
      memcpy (merged + header + size * n++, class_items + i * size, size);
  if (n == n_pod)
    return pod;
  *(guint *) (gpointer) merged = n;
  if (order != NULL)
    qsort (merged + header, n, size, order);
  return fs_pool_intern_blob (pool, merged, header + n * size);
}

/* setScheduling: the class's nodeSelector and tolerations merged into the pod's
 * (pkg/util/tolerations MergeTolerations keeps each toleration once). */
static const FsPlacement *
merged_placement (FsPool *pool, const FsPlacement *placement, const FsRuntimeClass *runtime_class)
{
  FsPlacement merged;
  memset (&merged, 0, sizeof merged);
  if (placement != NULL)
    merged = *placement;
  merged.node_selector = merged_list (pool, merged.node_selector, runtime_class->node_selector,
                                      G_STRUCT_OFFSET (FsLabelSet, items), sizeof (FsLabel), has_label_key,
                                      fs_label_compare); /* a label set is sorted by key */
  merged.tolerations = merged_list (pool, merged.tolerations, runtime_class->tolerations,
                                    G_STRUCT_OFFSET (FsTolerationList, items), sizeof (FsToleration), has_toleration,
                                    NULL);
  if (placement != NULL && merged.node_selector == placement->node_selector
      && merged.tolerations == placement->tolerations)
    return placement;
  return fs_pool_intern_blob (pool, &merged, sizeof merged);
}

const FsPodSpec *
fs_pod_spec_with_runtime_class (const FsSnapshot *snapshot, FsPool *pool, const FsPodSpec *spec,
                                GError **error)
{
  if (spec->runtime_class == NULL || spec->containers == NULL)
    return spec;
  const FsGenericObject *object = fs_snapshot_find_runtime_class (snapshot, spec->runtime_class);
  FsRuntimeClass runtime_class;
  if (object == NULL)
    return spec;
  GError *unreadable = NULL;
  if (!fs_runtime_class_read (object, pool, &runtime_class, &unreadable))
    {
      /* what the API server can hold (more extended resources than a request does) changes
       * nothing and is warned (plan/completeness.c); what it cannot (not a quantity: a file
       * written by hand) is bad input, named */
      if (g_error_matches (unreadable, FS_ERROR, FS_ERROR_LIMIT))
        {
          g_error_free (unreadable);
          return spec;
        }
      g_propagate_error (error, unreadable);
      return NULL;
    }
  g_autofree char *refusal = fs_runtime_class_refusal (&runtime_class, spec);
  if (refusal != NULL)
    return spec; /* admission refuses such pods: the answers' warning says so (plan/completeness.c) */
  FsPodSpec copy = *spec;
  /* plugin/pkg/admission/runtimeclass/admission.go setOverhead: the class's overhead.podFixed
   * becomes spec.overhead, which noderesources computePodResourceRequest adds to the request;
   * a pod that states its own (equal) overhead keeps it */
  if (runtime_class.has_overhead && spec->containers->overhead == NULL)
    {
      FsContainerSet containers = *spec->containers;
      containers.overhead = fs_pool_intern_blob (pool, &runtime_class.overhead, sizeof runtime_class.overhead);
      if (!fs_pod_effective_request (containers.containers, containers.n_containers, containers.init_containers,
                                     containers.n_init, containers.pod_level, containers.overhead, &copy.request,
                                     NULL))
        return spec; /* more extended resources than a request holds: left as read, and warned */
      copy.containers = fs_pool_intern_blob (pool, &containers, sizeof containers);
    }
  /* setScheduling */
  copy.placement = merged_placement (pool, spec->placement, &runtime_class);
  if (copy.containers == spec->containers && copy.placement == spec->placement)
    return spec;
  return fs_pool_intern_blob (pool, &copy, sizeof copy);
}

/* Hand-written Pods (a Pod from the API server has been through admission: unchanged). */
static gboolean
apply_to_pods (FsSnapshot *snapshot, GError **error)
{
  FsPod *pods = (FsPod *) snapshot->pods; /* not shared yet, and not counted on nodes yet */
  for (guint i = 0; i < snapshot->n_pods; i++)
    {
      if (pods[i].spec->runtime_class == NULL || pods[i].resize != NULL)
        continue; /* a resize's requests were read beside the spec's: left as read */
      const FsPodSpec *spec = fs_pod_spec_with_runtime_class (snapshot, snapshot->pool, pods[i].spec, error);
      if (spec == NULL)
        {
          g_prefix_error (error, "Pod %s/%s: ", pods[i].namespace, pods[i].name);
          return FALSE;
        }
      pods[i].spec = spec;
    }
  return TRUE;
}

gboolean
fs_snapshot_apply_runtime_classes (FsSnapshot *snapshot, gboolean pods_too, GError **error)
{
  if (pods_too && !apply_to_pods (snapshot, error))
    return FALSE;
  FsWorkload *workloads = (FsWorkload *) snapshot->workloads; /* not shared yet */
  for (guint i = 0; i < snapshot->n_workloads; i++)
    {
      const FsPodSpec *spec = fs_pod_spec_with_runtime_class (snapshot, snapshot->pool,
                                                              workloads[i].template, error);
      if (spec == NULL)
        {
          g_prefix_error (error, "%s %s/%s: ", fs_workload_kind_name (workloads[i].kind),
                          workloads[i].namespace, workloads[i].name);
          return FALSE;
        }
      if (spec != workloads[i].template) /* an incremental build's unchanged ones: no write */
        workloads[i].template = spec;
    }
  return TRUE;
}
