/* fitscale tests — a snapshot compacted into a pool of its own (model/compact.h) holds the
 * same objects as the snapshot it was copied from: every fixture and example is loaded
 * twice, one copy compacted and its original freed at once (so that a pointer left into the
 * old pool is a use after free under AddressSanitizer), and compared part by part with the
 * other; a watch's batches go on from a compacted snapshot as from any other. */
#include "config.h"

#include "testutil.h"
#include "fitscale/model/compact.h"

/* ---- deep comparison: pointers by what they point to, the rest by bytes ------------------ */

static void
same_string (const char *a, const char *b, const char *what)
{
  if (g_strcmp0 (a, b) != 0)
    fail_msg ("%s: \"%s\" != \"%s\"", what, a != NULL ? a : "(null)", b != NULL ? b : "(null)");
}

/* The bytes of two structs of SIZE, with the pointer fields already compared and cleared. */
static void
same_bytes (const void *a, const void *b, gsize size, const char *what)
{
  if (memcmp (a, b, size) != 0)
    fail_msg ("%s: the scalars differ", what);
}

static void
same_strings (const char *const *a, const char *const *b, guint n, const char *what)
{
  assert_int_equal (a == NULL || n == 0, b == NULL || n == 0);
  for (guint i = 0; a != NULL && i < n; i++)
    same_string (a[i], b[i], what);
}

static void
same_resources (const FsResources *a, const FsResources *b, const char *what)
{
  if (a == NULL || b == NULL)
    {
      assert_ptr_equal (a == NULL, b == NULL);
      return;
    }
  FsResources x = *a, y = *b;
  for (guint i = 0; i < FS_RES_MAX_EXTENDED; i++)
    {
      if (i < x.n_extended)
        same_string (x.extended[i].name, y.extended[i].name, what);
      x.extended[i].name = y.extended[i].name = NULL;
    }
  same_bytes (&x, &y, sizeof x, what);
}

static void
same_labels (const FsLabelSet *a, const FsLabelSet *b, const char *what)
{
  assert_int_equal (a == NULL, b == NULL);
  if (a == NULL)
    return;
  assert_int_equal (a->n, b->n);
  for (guint i = 0; i < a->n; i++)
    {
      same_string (a->items[i].key, b->items[i].key, what);
      same_string (a->items[i].value, b->items[i].value, what);
    }
}

static void
same_requirements (const FsRequirementList *a, const FsRequirementList *b)
{
  assert_int_equal (a == NULL, b == NULL);
  for (guint i = 0; a != NULL && i < MAX (a->n, b->n); i++)
    {
      assert_int_equal (a->n, b->n);
      FsRequirement x = a->items[i], y = b->items[i];
      same_string (x.key, y.key, "requirement key");
      same_strings (x.values, y.values, x.n_values, "requirement values");
      x.key = y.key = NULL;
      x.values = y.values = NULL;
      same_bytes (&x, &y, sizeof x, "requirement");
    }
}

static void
same_selector (const FsLabelSelector *a, const FsLabelSelector *b)
{
  assert_int_equal (a == NULL, b == NULL);
  if (a == NULL)
    return;
  same_labels (a->match_labels, b->match_labels, "matchLabels");
  same_requirements (a->match_expressions, b->match_expressions);
}

static void
same_node_selector (const FsNodeSelector *a, const FsNodeSelector *b)
{
  assert_int_equal (a == NULL, b == NULL);
  if (a == NULL)
    return;
  assert_int_equal (a->n, b->n);
  for (guint i = 0; i < a->n; i++)
    {
      same_requirements (a->terms[i].match_expressions, b->terms[i].match_expressions);
      same_requirements (a->terms[i].match_fields, b->terms[i].match_fields);
    }
}

static void
same_placement (const FsPlacement *a, const FsPlacement *b)
{
  assert_int_equal (a == NULL, b == NULL);
  if (a == NULL)
    return;
  same_labels (a->node_selector, b->node_selector, "nodeSelector");
  same_node_selector (a->required_affinity, b->required_affinity);
  assert_int_equal (a->tolerations == NULL, b->tolerations == NULL);
  for (guint i = 0; a->tolerations != NULL && i < a->tolerations->n; i++)
    {
      assert_int_equal (a->tolerations->n, b->tolerations->n);
      FsToleration x = a->tolerations->items[i], y = b->tolerations->items[i];
      same_string (x.key, y.key, "toleration key");
      same_string (x.value, y.value, "toleration value");
      x.key = y.key = x.value = y.value = NULL;
      same_bytes (&x, &y, sizeof x, "toleration");
    }
  const FsPodAffinityTermList *lists[2][2] = { { a->pod_affinity, b->pod_affinity },
                                               { a->pod_anti_affinity, b->pod_anti_affinity } };
  for (int l = 0; l < 2; l++)
    {
      assert_int_equal (lists[l][0] == NULL, lists[l][1] == NULL);
      for (guint i = 0; lists[l][0] != NULL && i < lists[l][0]->n; i++)
        {
          assert_int_equal (lists[l][0]->n, lists[l][1]->n);
          const FsPodAffinityTerm *x = &lists[l][0]->items[i], *y = &lists[l][1]->items[i];
          same_selector (x->label_selector, y->label_selector);
          same_selector (x->namespace_selector, y->namespace_selector);
          same_string (x->topology_key, y->topology_key, "topologyKey");
          assert_int_equal (x->n_namespaces, y->n_namespaces);
          same_strings (x->namespaces, y->namespaces, x->n_namespaces, "namespaces");
        }
    }
  assert_int_equal (a->spread == NULL, b->spread == NULL);
  for (guint i = 0; a->spread != NULL && i < a->spread->n; i++)
    {
      assert_int_equal (a->spread->n, b->spread->n);
      FsSpreadConstraint x = a->spread->items[i], y = b->spread->items[i];
      same_string (x.topology_key, y.topology_key, "spread topologyKey");
      same_selector (x.label_selector, y.label_selector);
      same_strings (x.match_label_keys, y.match_label_keys, x.n_match_label_keys, "matchLabelKeys");
      x.topology_key = y.topology_key = NULL;
      x.label_selector = y.label_selector = NULL;
      x.match_label_keys = y.match_label_keys = NULL;
      same_bytes (&x, &y, sizeof x, "spread constraint");
    }
  same_string (a->scheduler_name, b->scheduler_name, "schedulerName");
  same_string (a->priority_class, b->priority_class, "priorityClassName");
  assert_int_equal (a->preempt_never, b->preempt_never);
}

static void
same_containers (const FsContainer *a, const FsContainer *b, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      same_string (a[i].name, b[i].name, "container name");
      same_resources (&a[i].requests, &b[i].requests, "container requests");
      same_resources (&a[i].limits, &b[i].limits, "container limits");
      assert_int_equal (a[i].restartable, b[i].restartable);
      assert_int_equal (a[i].resize_restart, b[i].resize_restart);
    }
}

static void
same_spec (const FsPodSpec *a, const FsPodSpec *b)
{
  assert_int_equal (a == NULL, b == NULL);
  if (a == NULL)
    return;
  same_resources (&a->request, &b->request, "effective request");
  assert_int_equal (a->containers == NULL, b->containers == NULL);
  if (a->containers != NULL)
    {
      assert_int_equal (a->containers->n_containers, b->containers->n_containers);
      assert_int_equal (a->containers->n_init, b->containers->n_init);
      same_containers (a->containers->containers, b->containers->containers, a->containers->n_containers);
      same_containers (a->containers->init_containers, b->containers->init_containers, a->containers->n_init);
      same_resources (a->containers->pod_level, b->containers->pod_level, "pod-level resources");
      same_resources (a->containers->overhead, b->containers->overhead, "overhead");
    }
  same_placement (a->placement, b->placement);
  assert_int_equal (a->host_ports == NULL, b->host_ports == NULL);
  for (guint i = 0; a->host_ports != NULL && i < a->host_ports->n; i++)
    {
      assert_int_equal (a->host_ports->n, b->host_ports->n);
      FsHostPort x = a->host_ports->items[i], y = b->host_ports->items[i];
      same_string (x.host_ip, y.host_ip, "hostIP");
      same_string (x.protocol, y.protocol, "protocol");
      assert_int_equal (x.port, y.port);
    }
  assert_int_equal (a->volumes == NULL, b->volumes == NULL);
  for (guint i = 0; a->volumes != NULL && i < a->volumes->n; i++)
    {
      assert_int_equal (a->volumes->n, b->volumes->n);
      FsVolume x = a->volumes->items[i], y = b->volumes->items[i];
      same_string (x.name, y.name, "volume name");
      same_string (x.id, y.id, "volume id");
      same_string (x.pool, y.pool, "volume pool");
      same_strings (x.monitors, y.monitors, x.n_monitors, "monitors");
      x.name = y.name = x.id = y.id = x.pool = y.pool = NULL;
      x.monitors = y.monitors = NULL;
      same_bytes (&x, &y, sizeof x, "volume");
    }
  assert_int_equal (a->n_resource_claims, b->n_resource_claims);
}

static void
same_owner (const FsOwnerRef *a, const FsOwnerRef *b)
{
  assert_int_equal (a == NULL, b == NULL);
  if (a == NULL)
    return;
  same_string (a->kind, b->kind, "owner kind");
  same_string (a->name, b->name, "owner name");
  same_string (a->api_version, b->api_version, "owner apiVersion");
  assert_int_equal (a->controller, b->controller);
}

static void
same_container_status (FsContainerStatus x, FsContainerStatus y)
{
  same_string (x.name, y.name, "container status name");
  same_string (x.reason, y.reason, "container status reason");
  same_string (x.message, y.message, "container status message");
  assert_int_equal (x.state, y.state);
  assert_int_equal (x.exit_code, y.exit_code);
}

static void
same_pod (const FsPod *a, const FsPod *b)
{
  FsPod x = *a, y = *b;
  same_string (x.namespace, y.namespace, "pod namespace");
  same_string (x.name, y.name, "pod name");
  same_string (x.node_name, y.node_name, "nodeName");
  same_owner (x.owner, y.owner);
  same_labels (x.labels, y.labels, "pod labels");
  same_spec (x.spec, y.spec);
  same_string (x.scheduled_message, y.scheduled_message, "PodScheduled message");
  same_string (x.nominated_node, y.nominated_node, "nominatedNodeName");
  assert_int_equal (x.kubelet == NULL, y.kubelet == NULL);
  if (x.kubelet != NULL)
    {
      FsPodKubeletStatus k = *x.kubelet, l = *y.kubelet;
      same_string (k.reason, l.reason, "status reason");
      same_string (k.message, l.message, "status message");
      same_container_status (k.init, l.init);
      same_container_status (k.container, l.container);
      assert_int_equal (k.scheduled_time, l.scheduled_time);
      assert_int_equal (k.running, l.running);
      assert_int_equal (k.ready_to_start, l.ready_to_start);
    }
  assert_int_equal (x.resize == NULL, y.resize == NULL);
  if (x.resize != NULL)
    {
      FsPodResize r = *x.resize, s = *y.resize;
      same_string (r.message, s.message, "resize message");
      same_resources (&r.desired, &s.desired, "desired");
      same_resources (&r.allocated, &s.allocated, "allocated");
      same_resources (&r.actuated, &s.actuated, "actuated");
      same_resources (&r.accounted, &s.accounted, "accounted");
      assert_int_equal (r.n_containers, s.n_containers);
      for (guint i = 0; i < r.n_containers; i++)
        {
          same_string (r.containers[i].name, s.containers[i].name, "allocation name");
          same_resources (&r.containers[i].allocated, &s.containers[i].allocated, "allocated");
          same_resources (&r.containers[i].actuated, &s.containers[i].actuated, "actuated");
        }
      assert_int_equal (r.state, s.state);
      assert_int_equal (r.pending_since, s.pending_since);
    }
  x.namespace = y.namespace = x.name = y.name = x.node_name = y.node_name = NULL;
  x.scheduled_message = y.scheduled_message = x.nominated_node = y.nominated_node = NULL;
  x.owner = y.owner = NULL;
  x.labels = y.labels = NULL;
  x.spec = y.spec = NULL;
  x.kubelet = y.kubelet = NULL;
  x.resize = y.resize = NULL;
  same_bytes (&x, &y, sizeof x, "pod");
}

static void
same_node (const FsNode *a, const FsNode *b)
{
  same_string (a->name, b->name, "node name");
  same_labels (a->labels, b->labels, "node labels");
  assert_int_equal (a->taints == NULL, b->taints == NULL);
  for (guint i = 0; a->taints != NULL && i < a->taints->n; i++)
    {
      assert_int_equal (a->taints->n, b->taints->n);
      same_string (a->taints->items[i].key, b->taints->items[i].key, "taint key");
      same_string (a->taints->items[i].value, b->taints->items[i].value, "taint value");
      assert_int_equal (a->taints->items[i].effect, b->taints->items[i].effect);
    }
  assert_int_equal (a->flags, b->flags);
  same_resources (&a->allocatable, &b->allocatable, "allocatable");
  same_resources (&a->capacity, &b->capacity, "capacity");
  same_resources (&a->requested, &b->requested, "requested");
  assert_int_equal (a->pod_count, b->pod_count);
  assert_int_equal (a->used_ports == NULL, b->used_ports == NULL);
  for (guint i = 0; a->used_ports != NULL && i < a->used_ports->n; i++)
    same_string (a->used_ports->items[i].pod->name, b->used_ports->items[i].pod->name, "port's pod");
  assert_int_equal (a->volume_pods == NULL, b->volume_pods == NULL);
  for (guint i = 0; a->volume_pods != NULL && i < a->volume_pods->n; i++)
    same_string (a->volume_pods->items[i]->name, b->volume_pods->items[i]->name, "volume pod");
}

static void
same_tree (const FsTree *a, const FsTree *b)
{
  assert_int_equal (a == NULL, b == NULL);
  if (a == NULL)
    return;
  assert_int_equal (a->type, b->type);
  assert_int_equal (a->n, b->n);
  same_string (a->text, b->text, "tree text");
  assert_int_equal (a->keys == NULL, b->keys == NULL);
  same_strings (a->keys, b->keys, a->keys != NULL ? a->n : 0, "tree keys");
  assert_int_equal (a->values == NULL, b->values == NULL);
  for (guint i = 0; a->values != NULL && i < a->n; i++)
    same_tree (a->values[i], b->values[i]);
}

static void
same_generic (const FsGenericObject *a, const FsGenericObject *b)
{
  assert_int_equal (a->kind, b->kind);
  same_string (a->api_version, b->api_version, "apiVersion");
  same_string (a->namespace, b->namespace, "namespace");
  same_string (a->name, b->name, "name");
  same_labels (a->labels, b->labels, "labels");
  same_tree (a->object, b->object);
  same_labels (a->annotations, b->annotations, "annotations");
  same_string (a->target_kind, b->target_kind, "target kind");
  same_string (a->target_name, b->target_name, "target name");
}

static void
same_workload (const FsWorkload *a, const FsWorkload *b)
{
  FsWorkload x = *a, y = *b;
  same_string (x.namespace, y.namespace, "workload namespace");
  same_string (x.name, y.name, "workload name");
  same_owner (x.owner, y.owner);
  same_selector (x.selector, y.selector);
  same_labels (x.template_labels, y.template_labels, "template labels");
  same_spec (x.template, y.template);
  same_string (x.strategy, y.strategy, "strategy");
  same_string (x.admission, y.admission, "admission");
  x.namespace = y.namespace = x.name = y.name = x.strategy = y.strategy = x.admission = y.admission = NULL;
  x.owner = y.owner = NULL;
  x.selector = y.selector = NULL;
  x.template_labels = y.template_labels = NULL;
  x.template = y.template = NULL;
  same_bytes (&x, &y, sizeof x, "workload");
}

static void
same_storage (const FsSnapshot *a, const FsSnapshot *b)
{
  assert_int_equal (a->storage_kinds, b->storage_kinds);
  assert_int_equal (a->n_claims, b->n_claims);
  for (guint i = 0; i < a->n_claims; i++)
    {
      FsClaim x = a->claims[i], y = b->claims[i];
      const char **strings[][2] = { { &x.namespace, &y.namespace }, { &x.name, &y.name }, { &x.volume_name, &y.volume_name },
                                    { &x.storage_class, &y.storage_class }, { &x.selected_node, &y.selected_node } };
      for (gsize s = 0; s < G_N_ELEMENTS (strings); s++)
        {
          same_string (*strings[s][0], *strings[s][1], "claim");
          *strings[s][0] = *strings[s][1] = NULL;
        }
      same_selector (x.selector, y.selector);
      same_owner (x.owner, y.owner);
      x.selector = y.selector = NULL;
      x.owner = y.owner = NULL;
      same_bytes (&x, &y, sizeof x, "claim");
    }
  assert_int_equal (a->n_persistent_volumes, b->n_persistent_volumes);
  for (guint i = 0; i < a->n_persistent_volumes; i++)
    {
      FsPersistentVolume x = a->persistent_volumes[i], y = b->persistent_volumes[i];
      const char **strings[][2] = { { &x.name, &y.name }, { &x.storage_class, &y.storage_class },
                                    { &x.claim_namespace, &y.claim_namespace }, { &x.claim_name, &y.claim_name },
                                    { &x.csi_driver, &y.csi_driver }, { &x.csi_handle, &y.csi_handle } };
      for (gsize s = 0; s < G_N_ELEMENTS (strings); s++)
        {
          same_string (*strings[s][0], *strings[s][1], "persistent volume");
          *strings[s][0] = *strings[s][1] = NULL;
        }
      same_labels (x.labels, y.labels, "volume labels");
      same_node_selector (x.node_affinity, y.node_affinity);
      x.labels = y.labels = NULL;
      x.node_affinity = y.node_affinity = NULL;
      same_bytes (&x, &y, sizeof x, "persistent volume");
    }
  assert_int_equal (a->n_storage_classes, b->n_storage_classes);
  for (guint i = 0; i < a->n_storage_classes; i++)
    {
      same_string (a->storage_classes[i].name, b->storage_classes[i].name, "class name");
      same_string (a->storage_classes[i].provisioner, b->storage_classes[i].provisioner, "provisioner");
      same_node_selector (a->storage_classes[i].allowed_topologies, b->storage_classes[i].allowed_topologies);
      assert_int_equal (a->storage_classes[i].wait_for_first_consumer, b->storage_classes[i].wait_for_first_consumer);
      assert_int_equal (a->storage_classes[i].has_binding_mode, b->storage_classes[i].has_binding_mode);
    }
  assert_int_equal (a->n_csi_nodes, b->n_csi_nodes);
  for (guint i = 0; i < a->n_csi_nodes; i++)
    {
      same_string (a->csi_nodes[i].name, b->csi_nodes[i].name, "CSINode");
      assert_int_equal (a->csi_nodes[i].n_drivers, b->csi_nodes[i].n_drivers);
      for (guint d = 0; d < a->csi_nodes[i].n_drivers; d++)
        {
          same_string (a->csi_nodes[i].drivers[d].name, b->csi_nodes[i].drivers[d].name, "driver");
          assert_int_equal (a->csi_nodes[i].drivers[d].count, b->csi_nodes[i].drivers[d].count);
          assert_int_equal (a->csi_nodes[i].drivers[d].has_count, b->csi_nodes[i].drivers[d].has_count);
        }
    }
}

static void
assert_same_snapshot (const FsSnapshot *a, const FsSnapshot *b)
{
  assert_int_equal (a->n_nodes, b->n_nodes);
  for (guint i = 0; i < a->n_nodes; i++)
    same_node (&a->nodes[i], &b->nodes[i]);
  assert_int_equal (a->n_pods, b->n_pods);
  for (guint i = 0; i < a->n_pods; i++)
    same_pod (&a->pods[i], &b->pods[i]);
  assert_int_equal (a->n_workloads, b->n_workloads);
  for (guint i = 0; i < a->n_workloads; i++)
    same_workload (&a->workloads[i], &b->workloads[i]);
  assert_int_equal (a->n_namespaces, b->n_namespaces);
  for (guint i = 0; i < a->n_namespaces; i++)
    {
      same_string (a->namespaces[i].name, b->namespaces[i].name, "namespace");
      same_labels (a->namespaces[i].labels, b->namespaces[i].labels, "namespace labels");
      same_string (a->namespaces[i].phase, b->namespaces[i].phase, "namespace phase");
    }
  assert_int_equal (a->n_pod_metrics, b->n_pod_metrics);
  for (guint i = 0; i < a->n_pod_metrics; i++)
    {
      const FsPodMetrics *x = &a->pod_metrics[i], *y = &b->pod_metrics[i];
      same_string (x->namespace, y->namespace, "metrics namespace");
      same_string (x->name, y->name, "metrics name");
      assert_int_equal (x->timestamp, y->timestamp);
      assert_int_equal (x->window_seconds, y->window_seconds);
      assert_int_equal (x->n_containers, y->n_containers);
      for (guint c = 0; c < x->n_containers; c++)
        {
          same_string (x->containers[c].name, y->containers[c].name, "usage container");
          same_resources (&x->containers[c].usage, &y->containers[c].usage, "usage");
        }
    }
  assert_int_equal (a->n_events, b->n_events);
  for (guint i = 0; i < a->n_events; i++)
    {
      FsEvent x = a->events[i], y = b->events[i];
      const char **strings[][2] = { { &x.namespace, &y.namespace }, { &x.name, &y.name }, { &x.involved_kind, &y.involved_kind },
                                    { &x.involved_namespace, &y.involved_namespace }, { &x.involved_name, &y.involved_name },
                                    { &x.reason, &y.reason }, { &x.message, &y.message }, { &x.type, &y.type },
                                    { &x.source, &y.source } };
      for (gsize s = 0; s < G_N_ELEMENTS (strings); s++)
        {
          same_string (*strings[s][0], *strings[s][1], "event");
          *strings[s][0] = *strings[s][1] = NULL;
        }
      same_bytes (&x, &y, sizeof x, "event");
    }
  assert_int_equal (a->n_generic, b->n_generic);
  for (guint i = 0; i < a->n_generic; i++)
    same_generic (&a->generic[i], &b->generic[i]);
  same_storage (a, b);
  assert_int_equal (a->n_pdbs, b->n_pdbs);
  for (guint i = 0; i < a->n_pdbs; i++)
    {
      const FsPodDisruptionBudget *x = &a->pdbs[i], *y = &b->pdbs[i];
      same_string (x->namespace, y->namespace, "PDB namespace");
      same_string (x->name, y->name, "PDB name");
      same_selector (x->selector, y->selector);
      assert_int_equal (x->disruptions_allowed, y->disruptions_allowed);
      assert_int_equal (x->n_disrupted_pods, y->n_disrupted_pods);
      same_strings (x->disrupted_pods, y->disrupted_pods, x->n_disrupted_pods, "disrupted pods");
    }
  assert_int_equal (a->n_namespaced_lists, b->n_namespaced_lists);
  for (guint i = 0; i < a->n_namespaced_lists; i++)
    {
      same_string (a->namespaced_lists[i].namespace, b->namespaced_lists[i].namespace, "list namespace");
      same_string (a->namespaced_lists[i].source, b->namespaced_lists[i].source, "list source");
      assert_int_equal (a->namespaced_lists[i].n_pods, b->namespaced_lists[i].n_pods);
      assert_int_equal (a->namespaced_lists[i].by_self_link, b->namespaced_lists[i].by_self_link);
    }
  assert_int_equal (a->n_cluster_pod_lists, b->n_cluster_pod_lists);
  assert_int_equal (a->n_skipped, b->n_skipped);
  assert_int_equal (a->n_pods_with_anti_affinity, b->n_pods_with_anti_affinity);
  same_string (a->resource_version, b->resource_version, "resourceVersion");
  assert_ptr_equal (a->scheduler_config, b->scheduler_config);
  assert_memory_equal (a->node_bits, b->node_bits, sizeof (guint32) * 5 * a->n_nodes);
}

/* ---- the tests -------------------------------------------------------------------------- */

/* Every .json and .yaml under DIR (recursively) that loads, into PATHS (relative). */
static void
collect_files (const char *dir, GPtrArray *paths)
{
  g_autofree char *full = test_path (dir);
  g_autoptr (GDir) handle = g_dir_open (full, 0, NULL);
  const char *name;
  while (handle != NULL && (name = g_dir_read_name (handle)) != NULL)
    {
      g_autofree char *relative = g_build_filename (dir, name, NULL);
      g_autofree char *path = test_path (relative);
      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        collect_files (relative, paths);
      else if (g_str_has_suffix (name, ".json") || g_str_has_suffix (name, ".yaml"))
        g_ptr_array_add (paths, g_steal_pointer (&path));
    }
}

static FsSnapshot *
load_or_null (const char *path)
{
  const char *paths[] = { path, NULL };
  g_autoptr (GError) error = NULL;
  return fs_load_snapshot (paths, &error);
}

static void
test_every_fixture_compacts_to_the_same (void **state)
{
  g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  const char *dirs[] = { "tests/fixtures", "tests/data", "examples" };
  for (gsize i = 0; i < G_N_ELEMENTS (dirs); i++)
    collect_files (dirs[i], paths);
  guint compared = 0;
  for (guint i = 0; i < paths->len; i++)
    {
      FsSnapshot *original = load_or_null (paths->pdata[i]);
      if (original == NULL)
        continue; /* the fixtures of errors */
      g_autoptr (FsSnapshot) again = load_or_null (paths->pdata[i]);
      g_autoptr (GError) error = NULL;
      g_autoptr (FsSnapshot) copy = fs_snapshot_compact (original, &error);
      assert_non_null (copy);
      assert_ptr_not_equal (copy->pool, original->pool);
      fs_snapshot_unref (original); /* its pool goes: the copy must not point into it */
      assert_same_snapshot (copy, again);
      compared++;
    }
  assert_true (compared >= 60);
}

/* The pool of a snapshot after many replacements holds what went; the compacted copy holds
 * only what is there now, and the next batches apply on it as on any snapshot. */
static void
test_compaction_drops_what_went (void **state)
{
  g_autoptr (GError) error = NULL;
  FsSnapshot *current = test_load_valid_text (
      "{\"kind\":\"Node\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"n\"},"
      "\"status\":{\"allocatable\":{\"cpu\":\"64\",\"memory\":\"256Gi\",\"pods\":\"500\"}}}");
  g_autofree char *padding = g_strnfill (200, 'x'); /* a label value, so what went adds up */
  for (int round = 0; round < 4000; round++)
    {
      FsSnapshotBuilder *builder = fs_snapshot_builder_new_from (current);
      char *json = g_strdup_printf ("{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"p-%d\",\"namespace\":\"ns\","
                                    "\"labels\":{\"generation\":\"%d%s\"}},\"spec\":{\"nodeName\":\"n\",\"containers\":[{\"name\":\"c\","
                                    "\"resources\":{\"requests\":{\"cpu\":\"%dm\"}}}]},\"status\":{\"phase\":\"Running\"}}",
                                    round % 3, round, padding, 10 + round);
      assert_true (fs_load_bytes (builder, "event", json, strlen (json), &error));
      g_free (json);
      FsSnapshot *next = fs_snapshot_builder_finish (builder, &error);
      assert_non_null (next);
      fs_snapshot_unref (current);
      current = next;
    }
  gsize grown = fs_pool_bytes (current->pool);
  FsSnapshot *compacted = fs_snapshot_compact (current, &error);
  assert_non_null (compacted);
  assert_true (fs_pool_bytes (compacted->pool) * 2 < grown);
  fs_snapshot_unref (current);
  current = compacted;
  assert_int_equal (current->n_pods, 3);
  assert_int_equal (current->nodes[0].pod_count, 3);
  /* rounds 3997, 3998, 3999 are there: 4007m + 4008m + 4009m */
  assert_int_equal (current->nodes[0].requested.cpu_milli, 4007 + 4008 + 4009);
  FsSnapshotBuilder *builder = fs_snapshot_builder_new_from (current);
  fs_snapshot_builder_remove (builder, "Pod", "ns", "p-0");
  FsSnapshot *next = fs_snapshot_builder_finish (builder, &error);
  assert_non_null (next);
  fs_snapshot_unref (current);
  assert_int_equal (next->n_pods, 2);
  assert_int_equal (next->nodes[0].pod_count, 2);
  assert_int_equal (next->nodes[0].requested.cpu_milli, 4007 + 4008); /* p-0 was round 3999's */
  fs_snapshot_unref (next);
}

/* ---- the watch's replay (kube/watch.c take_compaction_locked) ----------------------------- */

/* One watch event: an object added or modified (JSON), or one removed (KIND, NAMESPACE, NAME). */
typedef struct {
  char *json;
  const char *kind;
  char *namespace, *name;
} Event;

static void
event_clear (gpointer data)
{
  Event *event = data;
  g_free (event->json);
  g_free (event->namespace);
  g_free (event->name);
}

static void
apply (FsSnapshotBuilder *builder, const Event *event)
{
  g_autoptr (GError) error = NULL;
  if (event->json != NULL)
    assert_true (fs_load_bytes (builder, "event", event->json, strlen (event->json), &error));
  else
    fs_snapshot_builder_remove (builder, event->kind, event->namespace, event->name);
}

static Event
random_event (GRand *rand)
{
  Event event = { 0 };
  int roll = g_rand_int_range (rand, 0, 20), i = g_rand_int_range (rand, 0, 60), node = g_rand_int_range (rand, 0, 4);
  if (roll == 0)
    event.json = g_strdup_printf ("{\"kind\":\"Node\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"n%d\"},"
                                  "\"spec\":{\"unschedulable\":%s},\"status\":{\"allocatable\":{\"cpu\":\"64\",\"memory\":\"256Gi\","
                                  "\"pods\":\"500\"}}}", node, g_rand_boolean (rand) ? "true" : "false");
  else if (roll == 1)
    event = (Event){ NULL, "Node", NULL, g_strdup_printf ("n%d", node) };
  else if (roll < 6)
    event = (Event){ NULL, "Pod", g_strdup ("ns"), g_strdup_printf ("p-%d", i) };
  else
    {
      g_autofree char *bound = node < 3 ? g_strdup_printf ("\"nodeName\":\"n%d\",", node) : g_strdup ("");
      guint32 version = g_rand_int (rand);
      int cpu = g_rand_int_range (rand, 1, 4000);
      event.json = g_strdup_printf ("{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"p-%d\",\"namespace\":\"ns\","
                                    "\"labels\":{\"v\":\"%u\"}},\"spec\":{%s\"containers\":[{\"name\":\"c\",\"resources\":"
                                    "{\"requests\":{\"cpu\":\"%dm\"}}}]},\"status\":{\"phase\":\"%s\"}}",
                                    i, version, bound, cpu, node < 3 ? "Running" : "Pending");
    }
  return event;
}

/* While the copy is made the applier goes on, batch after batch; the events of those batches
 * are then applied again onto the copy in one batch.  The result is what the applier reached:
 * the same objects, the same node sums.  Seeded, so every run checks the same 40 rounds. */
static void
test_replay_onto_the_copy_equals_the_batches (void **state)
{
  GRand *rand = g_rand_new_with_seed (1818);
  g_autoptr (GError) error = NULL;
  FsSnapshot *current = test_load_valid_text (
      "{\"kind\":\"List\",\"apiVersion\":\"v1\",\"items\":["
      "{\"kind\":\"Node\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"n0\"},\"status\":{\"allocatable\":{\"cpu\":\"64\",\"pods\":\"500\"}}},"
      "{\"kind\":\"Node\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"n1\"},\"status\":{\"allocatable\":{\"cpu\":\"64\",\"pods\":\"500\"}}}]}");
  for (int round = 0; round < 40; round++)
    {
      g_autoptr (FsSnapshot) copy = fs_snapshot_compact (current, &error);
      assert_non_null (copy);
      g_autoptr (GArray) events = g_array_new (FALSE, TRUE, sizeof (Event));
      g_array_set_clear_func (events, event_clear);
      for (int batch = g_rand_int_range (rand, 1, 6); batch > 0; batch--)
        {
          FsSnapshotBuilder *builder = fs_snapshot_builder_new_from (current);
          for (int e = g_rand_int_range (rand, 1, 30); e > 0; e--)
            {
              Event event = random_event (rand);
              g_array_append_val (events, event);
              apply (builder, &event);
            }
          FsSnapshot *next = fs_snapshot_builder_finish (builder, &error);
          assert_non_null (next);
          fs_snapshot_unref (current);
          current = next;
        }
      FsSnapshotBuilder *replay = fs_snapshot_builder_new_from (copy);
      for (guint e = 0; e < events->len; e++)
        apply (replay, &g_array_index (events, Event, e));
      FsSnapshot *replayed = fs_snapshot_builder_finish (replay, &error);
      assert_non_null (replayed);
      assert_same_snapshot (replayed, current);
      fs_snapshot_unref (current);
      current = replayed; /* as the cache publishes it */
    }
  fs_snapshot_unref (current);
  g_rand_free (rand);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_every_fixture_compacts_to_the_same),
    cmocka_unit_test (test_compaction_drops_what_went),
    cmocka_unit_test (test_replay_onto_the_copy_equals_the_batches),
  };
  return cmocka_run_group_tests (tests, NULL, NULL);
}
