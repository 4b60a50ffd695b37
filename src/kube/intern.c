/* fitscale — interning an object's parts into the snapshot's pool when it ends: label sets,
 * lists, selectors, the placement and the whole pod spec, each by content and bottom-up, so
 * that equal parts are one pointer (docs/design.md, "The snapshot").  The pods of one
 * ReplicaSet come together: their label set and pod spec are found by comparing with the
 * previous object's before any hashing. */
#include "config.h"

#include <string.h>

#include "builder.h"
#include "fitscale/model/error.h"
#include "fitscale/model/names.h"

/* SIZE zeroed bytes to assemble one list in before it is interned, reused from list to list:
 * a list is as long as the input makes it, too long for the stack. */
static void *
scratch_zeroed (FsObjectBuilder *builder, gsize size)
{
  Bytes *scratch = &builder->scratch;
  scratch->len = 0;
  if (scratch->size < size)
    bytes_grow (scratch, size);
  memset (scratch->data, 0, size);
  return scratch->data;
}

/* Labels sorted by key; a key given twice keeps its last value (as a JSON decoder would). */
const FsLabelSet *
fs_intern_labels (FsObjectBuilder *builder, GArray *labels)
{
  if (labels->len == 0)
    return NULL;
  g_array_sort (labels, fs_label_compare); /* stable merge sort */
  gsize size = sizeof (FsLabelSet) + labels->len * sizeof (FsLabel);
  FsLabelSet *set = scratch_zeroed (builder, size);
  const FsLabel *items = (const FsLabel *) (gpointer) labels->data;
  for (guint i = 0; i < labels->len; i++)
    {
      if (set->n > 0 && strcmp (set->items[set->n - 1].key, items[i].key) == 0)
        set->n--;
      set->items[set->n++] = items[i];
    }
  return fs_pool_intern_blob (builder->pool, set, sizeof (FsLabelSet) + set->n * sizeof (FsLabel));
}

static const FsLabelSet *find_labels (FsObjectBuilder *builder, const Bytes *raw);

/* The object's metadata.labels: looked up by their raw bytes first, so that only a label set
 * not seen before costs its strings' interning and a sort. */
const FsLabelSet *
fs_intern_object_labels (FsObjectBuilder *builder)
{
  const Bytes *raw = &builder->raw_labels;
  if (raw->len == 0)
    return NULL;
  if (builder->previous_label_set != NULL && bytes_equal (raw, &builder->previous_labels))
    return builder->previous_label_set;
  const FsLabelSet *set = find_labels (builder, raw);
  bytes_copy (&builder->previous_labels, raw);
  builder->previous_label_set = set;
  return set;
}

/* The label set of RAW ("key\0value\0" pairs), interned. */
static const FsLabelSet *
find_labels (FsObjectBuilder *builder, const Bytes *raw)
{
  /* looked up by the raw bytes in the builder's own table: the key is no part of the
   * snapshot, so it stays out of its pool (where it outlived the build as garbage) */
  g_autoptr (GBytes) probe = g_bytes_new_static (raw->data, raw->len);
  const FsLabelSet *known = g_hash_table_lookup (builder->label_sets, probe);
  if (known != NULL)
    return known;
  g_array_set_size (builder->labels, 0);
  for (gsize at = 0; at < raw->len;)
    {
      const char *label_key = raw->data + at;
      const char *value = label_key + strlen (label_key) + 1;
      g_assert (value < raw->data + raw->len); /* every key is followed by its value */
      gsize value_len = strlen (value);
      FsLabel label = { fs_pool_intern (builder->pool, label_key, strlen (label_key)),
                        fs_pool_intern (builder->pool, value, value_len) };
      g_array_append_val (builder->labels, label);
      at = (gsize) (value - raw->data) + value_len + 1;
    }
  const FsLabelSet *set = fs_intern_labels (builder, builder->labels);
  g_hash_table_insert (builder->label_sets, g_bytes_new (raw->data, raw->len), (gpointer) set);
  return set;
}

/* An interned {guint n; T items[]} list from a GArray of T. */
const void *
fs_intern_list (FsObjectBuilder *builder, GArray *array, gsize header_size)
{
  if (array->len == 0)
    return NULL;
  gsize element_size = g_array_get_element_size (array);
  gsize size = header_size + array->len * element_size;
  char *list = scratch_zeroed (builder, size);
  *(guint *) list = array->len;
  memcpy (list + header_size, array->data, array->len * element_size);
  return fs_pool_intern_blob (builder->pool, list, size);
}

const char *const *
fs_intern_strings (FsObjectBuilder *builder, GPtrArray *strings, guint *count)
{
  *count = strings->len;
  const char *const *interned = intern_array (builder, strings->pdata, strings->len,
                                              sizeof (gpointer));
  g_ptr_array_set_size (strings, 0);
  return interned;
}

const FsLabelSelector *
fs_intern_selector (FsObjectBuilder *builder)
{
  FsLabelSelector selector;
  memset (&selector, 0, sizeof selector);
  selector.match_labels = fs_intern_labels (builder, builder->selector_labels);
  selector.match_expressions = INTERN_LIST (builder, builder->selector_expressions,
                                            FsRequirementList);
  g_array_set_size (builder->selector_labels, 0);
  g_array_set_size (builder->selector_expressions, 0);
  return fs_pool_intern_blob (builder->pool, &selector, sizeof selector);
}

static const FsResources *
intern_resources (FsObjectBuilder *builder, gboolean present, const FsResources *resources)
{
  return present ? fs_pool_intern_blob (builder->pool, resources, sizeof *resources) : NULL;
}

const FsNodeSelector *
fs_intern_node_terms (FsObjectBuilder *builder)
{
  /* present with no terms matches no node: keep it as an empty, non-NULL list */
  gsize size = sizeof (FsNodeSelector) + builder->node_terms->len * sizeof (FsNodeSelectorTerm);
  FsNodeSelector *selector = scratch_zeroed (builder, size);
  selector->n = builder->node_terms->len;
  if (selector->n > 0) /* an empty GArray may have no data at all */
    memcpy (selector->terms, builder->node_terms->data,
            builder->node_terms->len * sizeof (FsNodeSelectorTerm));
  return fs_pool_intern_blob (builder->pool, selector, size);
}

static const FsPlacement *
intern_placement (FsObjectBuilder *builder)
{
  ObjectState *st = &builder->st;
  FsPlacement placement;
  memset (&placement, 0, sizeof placement);
  placement.node_selector = fs_intern_labels (builder, builder->node_selector);
  if (st->has_required_affinity)
    placement.required_affinity = fs_intern_node_terms (builder);
  placement.tolerations = INTERN_LIST (builder, builder->tolerations, FsTolerationList);
  placement.pod_affinity = INTERN_LIST (builder, builder->affinity_terms, FsPodAffinityTermList);
  placement.pod_anti_affinity = INTERN_LIST (builder, builder->anti_affinity_terms,
                                             FsPodAffinityTermList);
  placement.spread = INTERN_LIST (builder, builder->spreads, FsSpreadList);
  placement.scheduler_name = st->scheduler_name;
  placement.priority_class = st->priority_class;
  placement.preempt_never = st->preempt_never;
  return fs_pool_intern_blob (builder->pool, &placement, sizeof placement);
}

/* ---- the pod spec, found by a compact key ------------------------------------------- */

/* A pod spec is interned by what it holds, but a resource vector is 296 bytes, mostly empty
 * extended slots: the pods of one ReplicaSet are matched by a compact key of the same
 * content first, and only a spec not seen before is built, defaulted and summed. */
static void
spec_key_resources (Bytes *key, const FsResources *resources)
{
  int64_t basic[4] = { resources->cpu_milli, resources->memory_bytes, resources->ephemeral_bytes,
                       resources->pods };
  bytes_put (key, basic, sizeof basic);
  guint8 header[2] = { resources->present, resources->n_extended };
  bytes_put (key, header, sizeof header);
  for (guint i = 0; i < resources->n_extended; i++)
    {
      bytes_put (key, &resources->extended[i].name, sizeof (const char *));
      bytes_put (key, &resources->extended[i].value, sizeof (int64_t));
    }
}

static void
spec_key_containers (Bytes *key, GArray *containers)
{
  guint32 count = containers->len;
  bytes_put (key, &count, sizeof count);
  for (guint i = 0; i < containers->len; i++)
    {
      const FsContainer *container = &g_array_index (containers, FsContainer, i);
      guint8 flags[2] = { (guint8) container->restartable, (guint8) container->resize_restart };
      bytes_put (key, &container->name, sizeof container->name);
      bytes_put (key, flags, sizeof flags);
      spec_key_resources (key, &container->requests);
      spec_key_resources (key, &container->limits);
    }
}

static void
spec_key_array (Bytes *key, GArray *array)
{
  guint32 count = array->len;
  bytes_put (key, &count, sizeof count);
  bytes_put (key, array->data, array->len * g_array_get_element_size (array));
}

/* The compact key, into builder->spec_key: the containers, pod-level resources and
 * overhead, the placement as read (its parts hold interned pointers, so equal placements
 * have equal bytes), and the host ports (made here, into builder->host_ports). */
static void
spec_key_build (FsObjectBuilder *builder)
{
  ObjectState *st = &builder->st;
  Bytes *key = &builder->spec_key;
  key->len = 0;
  guint8 flags[5] = { 0, (guint8) st->has_pod_level,
                      (guint8) st->has_overhead, (guint8) st->has_required_affinity,
                      (guint8) st->preempt_never };
  bytes_put (key, flags, sizeof flags);
  guint claims[2] = { st->n_resource_claims, st->n_container_claims };
  bytes_put (key, claims, sizeof claims);
  const char *names[3] = { st->scheduler_name, st->priority_class, st->runtime_class };
  bytes_put (key, names, sizeof names);
  guint32 n_gates = builder->scheduling_gates->len;
  bytes_put (key, &n_gates, sizeof n_gates);
  bytes_put (key, builder->scheduling_gates->pdata, n_gates * sizeof (gpointer));
  spec_key_containers (key, builder->containers);
  spec_key_containers (key, builder->init_containers);
  if (st->has_pod_level)
    spec_key_resources (key, &st->pod_level);
  if (st->has_overhead)
    spec_key_resources (key, &st->overhead);
  GArray *placement[] = { builder->node_selector, builder->tolerations, builder->node_terms,
                          builder->affinity_terms, builder->anti_affinity_terms, builder->spreads,
                          builder->volumes };
  for (gsize i = 0; i < G_N_ELEMENTS (placement); i++)
    spec_key_array (key, placement[i]);
  /* without a hostPort and without hostNetwork, fs_pod_host_ports finds none */
  builder->n_host_ports = 0;
  if (st->any_host_port || (st->host_network && builder->ports.len > 0))
    {
      guint n_ports = (guint) (builder->ports.len / sizeof (FsContainerPort));
      Bytes *host_ports = &builder->host_ports;
      if (host_ports->size < n_ports * sizeof (FsHostPort))
        bytes_grow (host_ports, n_ports * sizeof (FsHostPort));
      builder->n_host_ports = fs_pod_host_ports ((const FsContainerPort *) (gpointer) builder->ports.data,
                                                 n_ports, st->host_network,
                                                 (FsHostPort *) (gpointer) host_ports->data);
    }
  bytes_put (key, &builder->n_host_ports, sizeof builder->n_host_ports);
  bytes_put (key, builder->host_ports.data, builder->n_host_ports * sizeof (FsHostPort));
}

static const FsPodSpec *find_pod_spec (FsObjectBuilder *builder, GError **error);

/* The pod spec of a Pod (TEMPLATE false) or of a workload's template (true).  Either way a
 * container's limits stand in for the requests it lacks, as the API server's defaulting does
 * when it stores a pod (pkg/apis/core/v1/defaults.go SetDefaults_Pod): a template has not
 * been through it, nor has a Pod written by hand; a Pod read live has, and is unchanged. */
const FsPodSpec *
fs_intern_pod_spec (FsObjectBuilder *builder, gboolean template, GError **error)
{
  /* pkg/apis/core/validation/validation.go ValidatePodSpec: containers is required, so no plan
   * is made for a workload template the API server would refuse (a pod read without them
   * reserves nothing, and is kept: kubectl's own lists never hold one) */
  if (template && builder->containers->len == 0)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID,
                   "template.spec.containers: Required value: a pod has at least one container");
      return NULL;
    }
  spec_key_build (builder);
  if (builder->previous_spec != NULL && bytes_equal (&builder->spec_key, &builder->previous_spec_key))
    return builder->previous_spec;
  const FsPodSpec *spec = find_pod_spec (builder, error);
  if (spec != NULL)
    {
      bytes_copy (&builder->previous_spec_key, &builder->spec_key);
      builder->previous_spec = spec;
    }
  return spec;
}

/* The pod spec whose key spec_key_build has just written: found, or built and interned. */
static const FsPodSpec *
find_pod_spec (FsObjectBuilder *builder, GError **error)
{
  g_autoptr (GBytes) probe = g_bytes_new_static (builder->spec_key.data, builder->spec_key.len);
  const FsPodSpec *known = g_hash_table_lookup (builder->pod_specs, probe);
  if (known != NULL)
    return known;
  g_autoptr (GBytes) key = g_bytes_new (builder->spec_key.data, builder->spec_key.len); /* the builder's own */
  const FsPlacement *placement = intern_placement (builder);
  ObjectState *st = &builder->st;
  FsContainer *containers = (FsContainer *) (gpointer) builder->containers->data;
  FsContainer *init = (FsContainer *) (gpointer) builder->init_containers->data;
  for (guint i = 0; i < builder->containers->len; i++)
    if (!fs_container_default_requests (&containers[i], error))
      return NULL;
  for (guint i = 0; i < builder->init_containers->len; i++)
    if (!fs_container_default_requests (&init[i], error))
      return NULL;

  FsContainerSet set;
  memset (&set, 0, sizeof set);
  set.n_containers = builder->containers->len;
  set.n_init = builder->init_containers->len;
  set.containers = intern_array (builder, containers, set.n_containers, sizeof (FsContainer));
  set.init_containers = intern_array (builder, init, set.n_init, sizeof (FsContainer));
  set.pod_level = intern_resources (builder, st->has_pod_level, &st->pod_level);
  set.overhead = intern_resources (builder, st->has_overhead, &st->overhead);

  FsPodSpec spec;
  memset (&spec, 0, sizeof spec);
  if (!fs_pod_effective_request (containers, set.n_containers, init, set.n_init, set.pod_level,
                                 set.overhead, &spec.request, error))
    return NULL;
  spec.containers = fs_pool_intern_blob (builder->pool, &set, sizeof set);
  spec.placement = placement;
  /* containers name the pod's claims; a claim only a container names is still one */
  spec.n_resource_claims = st->n_resource_claims > 0 ? st->n_resource_claims : st->n_container_claims;
  spec.scheduling_gates = fs_intern_strings (builder, builder->scheduling_gates, &spec.n_scheduling_gates);
  spec.runtime_class = st->runtime_class;
  if (builder->n_host_ports > 0)
    {
      gsize size = sizeof (FsHostPortList) + builder->n_host_ports * sizeof (FsHostPort);
      FsHostPortList *list = scratch_zeroed (builder, size);
      list->n = builder->n_host_ports;
      memcpy (list->items, builder->host_ports.data, builder->n_host_ports * sizeof (FsHostPort));
      spec.host_ports = fs_pool_intern_blob (builder->pool, list, size);
    }
  spec.volumes = INTERN_LIST (builder, builder->volumes, FsVolumeList);
  const FsPodSpec *interned = fs_pool_intern_blob (builder->pool, &spec, sizeof spec);
  g_hash_table_insert (builder->pod_specs, g_steal_pointer (&key), (gpointer) interned);
  return interned;
}
