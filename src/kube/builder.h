/* fitscale — the object builder's state, private to the files that fill it.
 *
 * objects.c (the builder's life, records), fields.c (what each scalar sets), kinds.c (what
 * each object becomes when it ends) and intern.c (its parts interned into the pool) share one
 * FsObjectBuilder.  The helpers the per-scalar paths call are static inline here, so that
 * splitting the builder over these files costs no call on those paths. */
#pragma once

#include <string.h>

#include "fields.h"
#include "fitscale/model/ports.h"

/* A growable byte string written field by field: appends of a few bytes are inline moves,
 * not library calls (a pod's spec key takes dozens of them). */
typedef struct {
  char *data;
  gsize len, size;
} Bytes;

static inline void
bytes_grow (Bytes *bytes, gsize more)
{
  bytes->size = MAX (64, MAX (bytes->size * 2, bytes->len + more));
  bytes->data = g_realloc (bytes->data, bytes->size);
}

static inline void
bytes_put (Bytes *bytes, const void *data, gsize size)
{
  if (G_UNLIKELY (bytes->size - bytes->len < size))
    bytes_grow (bytes, size);
  if (size > 0)
    memcpy (bytes->data + bytes->len, data, size);
  bytes->len += size;
}

static inline gboolean
bytes_equal (const Bytes *a, const Bytes *b)
{
  return a->len == b->len && (a->len == 0 || memcmp (a->data, b->data, a->len) == 0);
}

static inline void
bytes_copy (Bytes *to, const Bytes *from)
{
  to->len = 0;
  bytes_put (to, from->data, from->len);
}

/* Plain per-object values; zeroed when an object begins. */
typedef struct {
  char kind[96];
  char inherited_kind[96];
  char api_version[96];
  const char *name;
  const char *namespace;
  char resource_version[64];     /* kept for lists only (an item's is never read) */
  const char *self_link_namespace; /* lists: the namespace metadata.selfLink names, or the
                                    * FS_SNAPSHOT_SCOPE_ANNOTATION of a fitscale snapshot */
  gboolean all_namespaces;       /* lists: a fitscale snapshot of every namespace */
  int64_t creation_time;
  gboolean terminating;
  FsOwnerRef owner, current_owner;
  gboolean has_owner, owner_is_controller;
  /* the condition being read, and what the conditions said */
  char cond_type[32];
  char cond_status[16];
  char cond_reason[64];   /* reason, message and time are kept only for the conditions */
  char cond_time[40];     /* fitscale reads; the message waits in builder->cond_message */
  gboolean ready_known, ready, scheduled_true, unschedulable_cond;
  int64_t ready_time;
  const char *scheduled_message;
  /* Node */
  gboolean node_unschedulable;
  FsTaint current_taint;
  FsResources allocatable, capacity;
  /* pod spec */
  const char *node_name, *priority_class, *scheduler_name;
  const char *runtime_class;     /* spec.runtimeClassName, NULL when absent or empty */
  int32_t priority;
  gboolean preempt_never;
  FsToleration current_toleration;
  FsContainer current_container;
  gsize container_first_port;    /* where the current container's ports start in builder->ports */
  FsContainerPort current_port;
  gboolean host_network, any_host_port;
  FsResources pod_level, overhead;
  gboolean has_pod_level, has_overhead, has_required_affinity;
  FsRequirement current_requirement;
  FsPodAffinityTerm current_term;
  FsSpreadConstraint current_spread;
  const FsLabelSelector *workload_selector;
  /* Pod status */
  const char *phase;
  int64_t start_time;
  const char *nominated_node;
  /* workloads */
  gboolean has_replicas;
  int32_t replicas;
  const char *strategy;
  FsIntOrPercent max_surge, max_unavailable;
  int32_t status_replicas, ready_replicas;
  const char *admission;      /* annotation fitscale.io/admission */
  /* PodMetrics */
  int64_t timestamp, window_ms;
  FsContainerUsage current_usage;
  /* Event */
  const char *ev_kind, *ev_namespace, *ev_name, *ev_reason, *ev_message, *ev_type, *ev_source;
  int32_t ev_count;
  int64_t ev_last, ev_event_time, ev_first;
  /* pod spec volumes */
  FsVolume current_volume;
  /* PersistentVolumeClaim, PersistentVolume, StorageClass, CSINode */
  const char *volume_name, *storage_class, *claim_namespace, *claim_name;
  const char *csi_driver, *csi_handle, *provisioner;
  const char *ann_selected_node, *ann_beta_class;  /* the annotations the binder reads */
  gboolean ann_bind_completed, has_storage_class;
  gboolean block, has_binding_mode, wait_for_first_consumer;
  guint32 access_modes;
  int64_t storage_bytes;
  FsCsiDriver current_csi_driver;
  /* Pod: a DisruptionTarget condition True with reason PreemptionByScheduler */
  gboolean preempted;
  /* PodDisruptionBudget */
  int32_t disruptions_allowed;
  /* Pod status the kubelet writes; the messages wait in builder->status_message */
  const char *pod_reason;
  int64_t scheduled_time;
  FsContainerStatus current_status, init_status, container_status;
  guint8 ready_to_start, initialized, containers_ready, running;
  /* DynamicResources */
  guint n_resource_claims, n_container_claims;
  /* in-place resize: the resizePolicy entry and the container status being read, and the
   * pod's resize conditions (PodResizePending, PodResizeInProgress) or status.resize */
  guint32 current_policy_resource;
  gboolean current_policy_restart;
  gboolean allocation_read;      /* builder->allocation holds a status's resources */
  FsResizeState resize_state, resize_field_state;
  const char *resize_message;
  int64_t resize_pending_since;
} ObjectState;

/* The messages of a pod's status, kept as scratch until the pod turns out to need them. */
typedef enum {
  STATUS_MESSAGE_POD,        /* status.message */
  STATUS_MESSAGE_CURRENT,    /* of the container status being read */
  STATUS_MESSAGE_INIT,       /* of st.init_status */
  STATUS_MESSAGE_CONTAINER,  /* of st.container_status */
  STATUS_N_MESSAGES
} StatusMessage;

struct FsObjectBuilder {
  FsSnapshotBuilder *snapshot_builder;
  FsPool *pool;
  ObjectState st;
  GArray *labels, *annotations, *template_labels, *node_selector; /* FsLabel */
  GArray *taints;                 /* FsTaint */
  GArray *tolerations;            /* FsToleration */
  GArray *containers, *init_containers; /* FsContainer */
  GArray *node_terms;             /* FsNodeSelectorTerm */
  GArray *term_expressions, *term_fields, *selector_expressions; /* FsRequirement */
  GPtrArray *requirement_values;  /* const char* of the requirement being read */
  GArray *selector_labels;        /* FsLabel of the selector being read */
  GArray *affinity_terms, *anti_affinity_terms; /* FsPodAffinityTerm */
  GPtrArray *term_namespaces;
  GArray *spreads;                /* FsSpreadConstraint */
  GPtrArray *spread_label_keys;
  GArray *usages;                 /* FsContainerUsage */
  GArray *volumes;                /* FsVolume */
  GPtrArray *volume_monitors;     /* const char* of the rbd volume being read */
  GArray *csi_drivers;            /* FsCsiDriver */
  GArray *allocations;            /* FsContainerAllocation: the statuses that report resources */
  FsContainerAllocation allocation; /* of the container status being read (outside st: it is
                                     * large, and zeroed only when a status has resources) */
  GPtrArray *disrupted_pods;      /* a PodDisruptionBudget's status.disruptedPods keys */
  GPtrArray *scheduling_gates;    /* a pod spec's schedulingGates[].name, interned */
  GString *cond_message;          /* the condition being read */
  GString *status_message[STATUS_N_MESSAGES];
  guint n_nameless;               /* metric values numbered so far */
  Bytes raw_labels;               /* metadata.labels as read: "key\0value\0" pairs */
  /* the last string interned for each field: consecutive objects (the pods of one
   * ReplicaSet, listed together) mostly repeat them, and a compare beats a table lookup */
  const char *last_value[F_N_FIELDS][2];  /* two ways: a pod's two tolerations, two containers */
  gsize last_len[F_N_FIELDS][2];
  guint8 last_next[F_N_FIELDS];
  GHashTable *label_sets;         /* raw labels (GBytes, the builder's copy) -> their FsLabelSet */
  /* The previous object's raw labels and spec key with what they gave: the pods of one
   * ReplicaSet come one after another, and a compare beats hashing a few hundred bytes. */
  Bytes previous_labels, previous_spec_key;
  const FsLabelSet *previous_label_set;
  const FsPodSpec *previous_spec;
  Bytes spec_key;                 /* the pod spec being read, compactly (see spec_key_*) */
  Bytes scratch;                  /* a list being assembled for interning (scratch_zeroed) */
  Bytes ports;                    /* the FsContainerPort of every container of the object */
  Bytes host_ports;               /* the FsHostPort fs_pod_host_ports made of them ... */
  guint n_host_ports;             /* ... and how many */
  GHashTable *pod_specs;          /* compact spec (GBytes, the builder's copy) -> its FsPodSpec */
  char description[256];
};

/* fs_object_kind and fs_kind_is_generic (kinds.c), inline for the per-annotation check. */
static inline const char *
object_kind (const FsObjectBuilder *builder)
{
  if (builder->st.kind[0] != '\0')
    return builder->st.kind;
  return builder->st.inherited_kind[0] != '\0' ? builder->st.inherited_kind : NULL;
}

static inline gboolean
kind_is_generic (const char *kind)
{
  return strcmp (kind, "HorizontalPodAutoscaler") == 0
         || strcmp (kind, "VerticalPodAutoscaler") == 0 || strcmp (kind, "Hvpa") == 0
         || strcmp (kind, "MetricValue") == 0 || strcmp (kind, "ExternalMetricValue") == 0
         || strcmp (kind, "KubeSchedulerConfiguration") == 0
         || strcmp (kind, "RuntimeClass") == 0;
}

/* Strings: a YAML plain scalar such as `version: 1` arrives as a number and is taken as
 * its text, as kubectl's YAML-to-JSON conversion would leave it for a string field. */
static inline const char *
intern_text (FsObjectBuilder *builder, FsField field, const char *text, gsize len)
{
  for (guint way = 0; way < 2; way++)
    {
      const char *last = builder->last_value[field][way];
      if (last != NULL && builder->last_len[field][way] == len && memcmp (last, text, len) == 0)
        return last;
    }
  const char *interned = fs_pool_intern (builder->pool, text, len);
  guint way = builder->last_next[field];
  builder->last_value[field][way] = interned;
  builder->last_len[field][way] = len;
  builder->last_next[field] = (guint8) (way ^ 1);
  return interned;
}

static inline const char *
scalar_intern (FsObjectBuilder *builder, FsField field, const FsScalar *scalar)
{
  return intern_text (builder, field, scalar->text, scalar->len);
}

/* ---- interning (intern.c) ----------------------------------------------------------- */

/* Labels sorted by key, a key given twice keeping its last value; NULL when LABELS is empty. */
const FsLabelSet *fs_intern_labels (FsObjectBuilder *builder, GArray *labels);
/* The object's metadata.labels (builder->raw_labels), or NULL when it has none. */
const FsLabelSet *fs_intern_object_labels (FsObjectBuilder *builder);
/* An interned {guint n; T items[]} list from a GArray of T, or NULL when it is empty. */
const void *fs_intern_list (FsObjectBuilder *builder, GArray *array, gsize header_size);
#define INTERN_LIST(builder, array, type)                                                    \
  ((const type *) fs_intern_list ((builder), (array), G_STRUCT_OFFSET (type, items)))
/* STRINGS as an interned array (its length in COUNT); STRINGS is emptied. */
const char *const *fs_intern_strings (FsObjectBuilder *builder, GPtrArray *strings, guint *count);
/* The label selector read into selector_labels and selector_expressions, which are emptied. */
const FsLabelSelector *fs_intern_selector (FsObjectBuilder *builder);
/* The node selector terms read into node_terms (a required node affinity, a PersistentVolume's
 * nodeAffinity.required, a StorageClass's allowedTopologies); never NULL. */
const FsNodeSelector *fs_intern_node_terms (FsObjectBuilder *builder);
/* The pod spec of a Pod (TEMPLATE false) or of a workload's template (true). */
const FsPodSpec *fs_intern_pod_spec (FsObjectBuilder *builder, gboolean template,
                                     GError **error);

static inline const void *
intern_array (FsObjectBuilder *builder, const void *data, guint count, gsize element_size)
{
  return fs_pool_intern_blob (builder->pool, data, count * element_size);
}
