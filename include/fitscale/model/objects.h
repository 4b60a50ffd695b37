/* fitscale — an immutable, reference-counted picture of a cluster.
 *
 * A snapshot holds what planning needs of each object and nothing more: a pod is a few dozen
 * bytes of its own plus pointers to interned parts (label set, effective request, scheduling
 * constraints) that all pods of one template share.  Every pointer inside a snapshot points
 * into its pool and lives exactly as long as the snapshot.  Build one with FsSnapshotBuilder
 * (kube/load.h reads files into a builder); once built it never changes, so any number of
 * threads may read it.  fs_snapshot_ref/unref are atomic: the server swaps in a new snapshot
 * while requests finish with the one they started with.
 *
 * Autoscaler objects (HPA, VPA, Hvpa, custom/external metric values) are kept as compact
 * FsTree values — the object minus managedFields and annotations — with their target
 * reference; kube/hpaspec.h and kube/hvpaspec.h decode them into the structs of model/hpa.h
 * and model/hvpa.h. */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "fitscale/model/pool.h"
#include "fitscale/model/resources.h"

G_BEGIN_DECLS

/* ---- interned parts ------------------------------------------------------------------ */

typedef struct {
  const char *key;
  const char *value;
} FsLabel;

/* Sorted by key; interned.  NULL means "no labels". */
typedef struct {
  guint n;
  FsLabel items[];
} FsLabelSet;

typedef enum {
  FS_OP_IN,
  FS_OP_NOT_IN,
  FS_OP_EXISTS,
  FS_OP_DOES_NOT_EXIST,
  FS_OP_GT,
  FS_OP_LT,
} FsSelectorOp;

typedef struct {
  const char *key;
  FsSelectorOp op;
  guint n_values;
  const char *const *values; /* interned array */
} FsRequirement;

typedef struct {
  guint n;
  FsRequirement items[];
} FsRequirementList;

/* metav1.LabelSelector: matchLabels ANDed with matchExpressions.  An interned struct; a
 * NULL selector pointer means "no selector given", which callers interpret per context. */
typedef struct {
  const FsLabelSet *match_labels;
  const FsRequirementList *match_expressions;
} FsLabelSelector;

/* v1.NodeSelectorTerm: expressions on labels and fields (metadata.name), ANDed. */
typedef struct {
  const FsRequirementList *match_expressions;
  const FsRequirementList *match_fields;
} FsNodeSelectorTerm;

/* requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms, ORed. */
typedef struct {
  guint n;
  FsNodeSelectorTerm terms[];
} FsNodeSelector;

typedef enum {
  FS_EFFECT_ALL = 0,  /* empty effect (tolerations only): matches every effect */
  FS_EFFECT_NO_SCHEDULE,
  FS_EFFECT_PREFER_NO_SCHEDULE,
  FS_EFFECT_NO_EXECUTE,
} FsTaintEffect;

typedef struct {
  const char *key;
  const char *value;
  FsTaintEffect effect;
} FsTaint;

typedef struct {
  guint n;
  FsTaint items[];
} FsTaintList;

typedef enum {
  FS_TOLERATION_EQUAL = 0, /* empty operator means Equal */
  FS_TOLERATION_EXISTS,
} FsTolerationOp;

typedef struct {
  const char *key;
  const char *value;
  FsTolerationOp op;
  FsTaintEffect effect;
  gboolean has_seconds;
  int64_t toleration_seconds;
} FsToleration;

typedef struct {
  guint n;
  FsToleration items[];
} FsTolerationList;

/* v1.PodAffinityTerm (required terms only: the filters never read preferred ones). */
typedef struct {
  const FsLabelSelector *label_selector;
  const FsLabelSelector *namespace_selector;
  const char *topology_key;
  guint n_namespaces;
  const char *const *namespaces;
} FsPodAffinityTerm;

typedef struct {
  guint n;
  FsPodAffinityTerm items[];
} FsPodAffinityTermList;

typedef enum {
  FS_SPREAD_DO_NOT_SCHEDULE = 0,
  FS_SPREAD_SCHEDULE_ANYWAY,
} FsSpreadWhen;

typedef enum {
  FS_POLICY_DEFAULT = 0, /* field absent: the plugin default applies */
  FS_POLICY_HONOR,
  FS_POLICY_IGNORE,
} FsInclusionPolicy;

typedef struct {
  int32_t max_skew;
  const char *topology_key;
  FsSpreadWhen when_unsatisfiable;
  const FsLabelSelector *label_selector;
  int32_t min_domains;   /* 0 = unset */
  FsInclusionPolicy node_affinity_policy;
  FsInclusionPolicy node_taints_policy;
  guint n_match_label_keys;
  const char *const *match_label_keys;
} FsSpreadConstraint;

typedef struct {
  guint n;
  FsSpreadConstraint items[];
} FsSpreadList;

/* The containers of a pod or template, as the request rules and the planner need them. */
typedef struct {
  guint n_containers;
  guint n_init;
  const FsContainer *containers;      /* pool array, names interned */
  const FsContainer *init_containers; /* pool array */
  const FsResources *pod_level;       /* spec.resources.requests, NULL when absent */
  const FsResources *overhead;        /* spec.overhead, NULL when absent */
} FsContainerSet;

/* What the scheduler's filters read of a pod spec, shared (interned) by identical pods. */
typedef struct {
  const FsLabelSet *node_selector;            /* spec.nodeSelector */
  const FsNodeSelector *required_affinity;    /* nodeAffinity required terms, NULL if none */
  const FsTolerationList *tolerations;
  const FsPodAffinityTermList *pod_affinity;      /* podAffinity required */
  const FsPodAffinityTermList *pod_anti_affinity; /* podAntiAffinity required */
  const FsSpreadList *spread;
  const char *scheduler_name;                 /* NULL = default-scheduler */
  const char *priority_class;
  gboolean preempt_never;                     /* preemptionPolicy: Never */
} FsPlacement;

/* A host port a pod holds on its node (v1.ContainerPort with hostPort > 0, of the containers
 * pkg/scheduler/util GetHostPorts lists): strings as written, NULL when absent (model/ports.h
 * reads them as 0.0.0.0 and TCP, as HostPortInfo.sanitize does). */
typedef struct {
  const char *host_ip;
  const char *protocol;
  int32_t port;
  int32_t unused;               /* zero: interned lists compare by their bytes */
} FsHostPort;

typedef struct {
  guint n;
  FsHostPort items[];
} FsHostPortList;

/* One entry of spec.volumes that the volume filters read (model/volumes.h); volumes of
 * other types (configMap, emptyDir, hostPath, ...) are not kept.  Strings as written, NULL
 * when absent; interned lists compare by their bytes, so the struct has no padding. */
typedef enum {
  FS_VOLUME_CLAIM = 1,    /* persistentVolumeClaim: ID is claimName */
  FS_VOLUME_EPHEMERAL,    /* ephemeral: its claim is <pod name>-<volume name> */
  FS_VOLUME_GCE_PD,       /* gcePersistentDisk: ID is pdName */
  FS_VOLUME_AWS_EBS,      /* awsElasticBlockStore: ID is volumeID */
  FS_VOLUME_RBD,          /* rbd: ID is image, POOL (default "rbd"), MONITORS */
  FS_VOLUME_ISCSI,        /* iscsi: ID is iqn */
} FsVolumeType;

typedef struct {
  FsVolumeType type;
  gboolean read_only;
  const char *name;
  const char *id;
  const char *pool;
  guint n_monitors;
  guint32 unused;               /* zero */
  const char *const *monitors;  /* interned array */
} FsVolume;

typedef struct {
  guint n;
  FsVolume items[];
} FsVolumeList;

/* A pod spec: the effective request, the containers, the placement rules, the host ports.
 * Interned. */
typedef struct {
  FsResources request;          /* effective request (resources.h fs_pod_effective_request) */
  const FsContainerSet *containers;
  const FsPlacement *placement;
  const FsHostPortList *host_ports; /* NodePorts: NULL when the pod asks for none */
  const FsVolumeList *volumes;  /* the volume filters' volumes: NULL when none */
  guint n_resource_claims;      /* DynamicResources: spec.resourceClaims entries (else the
                                 * containers' resources.claims), which fitscale does not model */
  guint n_scheduling_gates;     /* spec.schedulingGates: while any is there, the SchedulingGates
                                 * PreEnqueue keeps the pod out of the scheduling queue */
  const char *const *scheduling_gates; /* their names (interned array), NULL when none */
  const char *runtime_class;    /* spec.runtimeClassName, NULL when absent */
} FsPodSpec;

typedef struct {
  const char *kind;
  const char *name;
  const char *api_version;
  gboolean controller;
} FsOwnerRef;

/* ---- objects ------------------------------------------------------------------------- */

typedef enum {
  FS_NODE_READY = 1 << 0,        /* Ready condition True */
  FS_NODE_READY_KNOWN = 1 << 1,  /* a Ready condition was reported */
  FS_NODE_UNSCHEDULABLE = 1 << 2,
} FsNodeFlags;

/* The host ports in use on a node, each with the pod that holds it (defined below FsPod). */
typedef struct FsUsedPortList FsUsedPortList;
/* The pods counted on a node that have volumes (defined below FsPod). */
typedef struct FsPodRefList FsPodRefList;
typedef struct FsSnapshot FsSnapshot;

typedef struct {
  const char *name;
  const FsLabelSet *labels;
  const FsTaintList *taints;
  guint32 flags;                 /* FsNodeFlags */
  FsResources allocatable;
  FsResources capacity;
  /* Derived at build: what bound, non-terminal pods request, and how many there are
   * (pkg/scheduler/framework/types.go NodeInfo.Requested / len(Pods)), and the host ports
   * they hold (NodeInfo.UsedPorts; NULL when none). */
  FsResources requested;
  int64_t pod_count;
  const FsUsedPortList *used_ports;
  /* Derived at build, for the volume filters (model/volumes.h): the pods counted on the node
   * that have volumes (NULL when none), and the snapshot the node is in (its claims,
   * volumes, classes and CSINodes; NULL for a node made outside a snapshot). */
  const FsPodRefList *volume_pods;
  const FsSnapshot *storage;
} FsNode;

typedef enum {
  FS_PHASE_UNKNOWN = 0,
  FS_PHASE_PENDING,
  FS_PHASE_RUNNING,
  FS_PHASE_SUCCEEDED,
  FS_PHASE_FAILED,
} FsPodPhase;

typedef enum {
  FS_POD_READY = 1 << 0,           /* Ready condition True */
  FS_POD_READY_KNOWN = 1 << 1,
  FS_POD_TERMINATING = 1 << 2,     /* metadata.deletionTimestamp set */
  FS_POD_UNSCHEDULABLE = 1 << 3,   /* PodScheduled False, reason Unschedulable */
  FS_POD_SCHEDULED = 1 << 4,       /* PodScheduled True */
  FS_POD_PREEMPTED = 1 << 5,       /* DisruptionTarget True, reason PreemptionByScheduler */
} FsPodFlags;

/* A condition of a pod's status as the kubelet last wrote it. */
typedef enum {
  FS_CONDITION_ABSENT = 0,
  FS_CONDITION_FALSE,
  FS_CONDITION_TRUE,
} FsConditionState;

typedef enum {
  FS_CONTAINER_NONE = 0,          /* no status for it */
  FS_CONTAINER_WAITING,
  FS_CONTAINER_RUNNING,
  FS_CONTAINER_TERMINATED,
} FsContainerStateKind;

/* One entry of status.(init)containerStatuses: its name and state (interned). */
typedef struct {
  const char *name;               /* NULL when there is none to report */
  FsContainerStateKind state;
  int32_t exit_code;              /* state.terminated.exitCode */
  const char *reason;             /* state.waiting.reason or state.terminated.reason */
  const char *message;            /* state.waiting.message or state.terminated.message */
} FsContainerStatus;

/* What the kubelet reported of a bound pod that is neither Running nor Succeeded (model/
 * kubelet.h reads it); kept only for those pods, so a snapshot of running pods pays nothing. */
typedef struct {
  const char *reason;             /* status.reason: OutOfcpu, NodeAffinity, Evicted, ... */
  const char *message;            /* status.message */
  int64_t scheduled_time;         /* PodScheduled=True lastTransitionTime, 0 when unknown */
  FsContainerStatus init;         /* the init container it waits on: the first waiting or
                                   * failed one, else the first running one */
  FsContainerStatus container;    /* the first container that is waiting or terminated */
  guint8 ready_to_start;          /* FsConditionState of PodReadyToStartContainers */
  guint8 initialized;             /* ... of Initialized */
  guint8 containers_ready;        /* ... of ContainersReady */
  guint8 running;                 /* containers whose state is running (at most 255) */
} FsPodKubeletStatus;

/* In-place resize (KEP-1287): where a bound pod's resize stands, from its PodResizePending
 * (reason Deferred or Infeasible) and PodResizeInProgress conditions, or the older
 * status.resize field (Proposed, InProgress, Deferred, Infeasible). */
typedef enum {
  FS_RESIZE_NONE = 0,             /* desired and allocated requests agree, no condition */
  FS_RESIZE_PROPOSED,             /* they differ and the kubelet has not answered yet */
  FS_RESIZE_IN_PROGRESS,          /* allocated, being actuated */
  FS_RESIZE_DEFERRED,             /* does not fit beside the other pods now; retried */
  FS_RESIZE_INFEASIBLE,           /* can never fit on this node */
} FsResizeState;

/* One container's resources as the kubelet reported them: status.(init)containerStatuses[]
 * .allocatedResources and .resources.requests (names interned). */
typedef struct {
  const char *name;
  gboolean has_allocated, has_actuated;
  FsResources allocated;
  FsResources actuated;
} FsContainerAllocation;

/* What a bound pod's resize status says (model/resize.h reads it); kept only for pods that
 * report a resize, or whose allocated or actuated requests differ from the spec's. */
typedef struct {
  FsResizeState state;
  const char *message;            /* the PodResizePending (or InProgress) message, or NULL */
  int64_t pending_since;          /* PodResizePending lastTransitionTime, 0 when unknown */
  FsResources desired;            /* the spec's effective request (= pod->spec->request) */
  FsResources allocated;          /* what the kubelet admitted (allocatedResources, summed) */
  FsResources actuated;           /* what runs (status resources.requests, summed) */
  FsResources accounted;          /* what the scheduler counts on the node (model/resize.h) */
  guint n_containers;
  const FsContainerAllocation *containers; /* pool array, in status order */
} FsPodResize;

typedef struct {
  const char *namespace;
  const char *name;
  const char *node_name;          /* spec.nodeName, NULL when unbound */
  int32_t node_index;             /* index in the snapshot's nodes, -1 when not there */
  FsPodPhase phase;
  guint32 flags;                  /* FsPodFlags */
  int32_t priority;
  const FsOwnerRef *owner;        /* the controller reference, interned; NULL if none */
  const FsLabelSet *labels;
  const FsPodSpec *spec;
  int64_t creation_time;          /* unix seconds, 0 when absent */
  int64_t start_time;             /* status.startTime */
  int64_t ready_transition_time;  /* Ready condition lastTransitionTime */
  const char *scheduled_message;  /* PodScheduled=False message, NULL when none */
  const char *nominated_node;     /* status.nominatedNodeName */
  const FsPodKubeletStatus *kubelet; /* bound and not Running or Succeeded; else NULL */
  const FsPodResize *resize;      /* a resize reported or under way; NULL otherwise */
} FsPod;

/* What POD holds on its node: during a resize the larger of desired, allocated and actuated
 * requests (model/resize.h fs_pod_status_requests), else its spec's effective request. */
static inline const FsResources *
fs_pod_request (const FsPod *pod)
{
  return pod->resize != NULL ? &pod->resize->accounted : &pod->spec->request;
}

/* What the kubelet admitted POD with: its allocated requests during a resize, else the
 * spec's (pkg/kubelet/allocation/allocation_manager.go getAllocatedPods). */
static inline const FsResources *
fs_pod_allocated_request (const FsPod *pod)
{
  return pod->resize != NULL ? &pod->resize->allocated : &pod->spec->request;
}

/* A host port in use on a node and the pod that holds it. */
typedef struct {
  FsHostPort port;
  const FsPod *pod;
} FsUsedPort;

struct FsUsedPortList {
  guint n;
  FsUsedPort items[];
};

struct FsPodRefList {
  guint n;
  const FsPod *items[];
};

/* ---- storage: what the volume filters read (model/volumes.h) --------------------------- */

typedef enum {
  FS_ACCESS_RWO = 1 << 0,   /* ReadWriteOnce */
  FS_ACCESS_ROX = 1 << 1,   /* ReadOnlyMany */
  FS_ACCESS_RWX = 1 << 2,   /* ReadWriteMany */
  FS_ACCESS_RWOP = 1 << 3,  /* ReadWriteOncePod */
} FsAccessModes;

/* A PersistentVolumeClaim. */
typedef struct {
  const char *namespace;
  const char *name;
  const char *volume_name;      /* spec.volumeName, NULL when empty */
  const char *storage_class;    /* GetPersistentVolumeClaimClass: the beta annotation, else
                                 * spec.storageClassName; NULL for "" */
  const char *selected_node;    /* annotation volume.kubernetes.io/selected-node, or NULL */
  const FsLabelSelector *selector; /* spec.selector, NULL when absent */
  const FsOwnerRef *owner;
  int64_t request_bytes;        /* spec.resources.requests.storage */
  guint32 access_modes;         /* FsAccessModes */
  gboolean bind_completed;      /* annotation pv.kubernetes.io/bind-completed present */
  gboolean terminating;         /* metadata.deletionTimestamp set */
  gboolean lost;                /* status.phase Lost */
  gboolean block;               /* spec.volumeMode Block */
} FsClaim;

/* A PersistentVolume. */
typedef struct {
  const char *name;
  const FsLabelSet *labels;
  const char *storage_class;    /* GetPersistentVolumeClass; NULL for "" */
  const char *claim_namespace;  /* spec.claimRef, NULL when unset */
  const char *claim_name;
  const char *csi_driver;       /* spec.csi.driver and volumeHandle, NULL when not CSI */
  const char *csi_handle;
  const FsNodeSelector *node_affinity; /* spec.nodeAffinity.required, NULL when absent */
  int64_t capacity_bytes;       /* spec.capacity.storage */
  guint32 access_modes;
  gboolean available;           /* status.phase Available */
  gboolean terminating;
  gboolean block;
} FsPersistentVolume;

/* A StorageClass. */
typedef struct {
  const char *name;
  const char *provisioner;
  gboolean has_binding_mode;    /* volumeBindingMode given (the API defaults it) */
  gboolean wait_for_first_consumer;
  const FsNodeSelector *allowed_topologies; /* terms of In requirements; NULL when none */
} FsStorageClass;

/* One driver of a CSINode: spec.drivers[].name and allocatable.count. */
typedef struct {
  const char *name;
  gboolean has_count;
  int32_t count;
} FsCsiDriver;

typedef struct {
  const char *name;             /* the node's name */
  guint n_drivers;
  const FsCsiDriver *drivers;   /* pool array */
} FsCsiNode;

/* Which storage kinds a snapshot read, an object or an empty list of them: a filter that
 * needs a kind the snapshot lacks does not run (it cannot tell a missing claim from a claim
 * that was not fetched). */
typedef enum {
  FS_STORAGE_CLAIMS = 1 << 0,
  FS_STORAGE_VOLUMES = 1 << 1,
  FS_STORAGE_CLASSES = 1 << 2,
  FS_STORAGE_CSI_NODES = 1 << 3,
} FsStorageKinds;

typedef enum {
  FS_WORKLOAD_DEPLOYMENT,
  FS_WORKLOAD_STATEFULSET,
  FS_WORKLOAD_REPLICASET,
} FsWorkloadKind;

/* maxSurge / maxUnavailable: an int or a percentage string. */
typedef struct {
  gboolean set;
  gboolean percent;
  int32_t value;
} FsIntOrPercent;

typedef struct {
  FsWorkloadKind kind;
  const char *namespace;
  const char *name;
  const FsOwnerRef *owner;
  gboolean has_replicas;
  int32_t replicas;               /* spec.replicas (default 1 when absent) */
  const FsLabelSelector *selector;
  const FsLabelSet *template_labels;
  const FsPodSpec *template;      /* limits copied into absent requests, as admission would */
  const char *strategy;           /* RollingUpdate, Recreate, OnDelete, NULL */
  FsIntOrPercent max_surge;
  FsIntOrPercent max_unavailable;
  int32_t status_replicas;
  int32_t ready_replicas;
  const char *admission;          /* annotation fitscale.io/admission (plan/admit.h), or NULL */
} FsWorkload;

typedef struct {
  const char *name;
  const FsLabelSet *labels;
  const char *phase;
} FsNamespace;

typedef struct {
  const char *name;
  FsResources usage;
} FsContainerUsage;

typedef struct {
  const char *namespace;
  const char *name;               /* the pod's name */
  int64_t timestamp;
  int64_t window_seconds;
  guint n_containers;
  const FsContainerUsage *containers;
} FsPodMetrics;

typedef struct {
  const char *namespace;
  const char *name;
  const char *involved_kind;
  const char *involved_namespace;
  const char *involved_name;
  const char *reason;
  const char *message;
  const char *type;
  const char *source;
  int32_t count;
  int64_t last_time;              /* lastTimestamp, else eventTime, else firstTimestamp */
} FsEvent;

/* policy/v1 PodDisruptionBudget: what preemption reads of it (default_preemption.go
 * filterPodsWithPDBViolation). */
typedef struct {
  const char *namespace;
  const char *name;
  const FsLabelSelector *selector;    /* spec.selector; NULL when absent */
  int32_t disruptions_allowed;        /* status.disruptionsAllowed */
  guint n_disrupted_pods;
  const char *const *disrupted_pods;  /* the pod names status.disruptedPods holds */
} FsPodDisruptionBudget;

/* A compact generic value: what is kept of autoscaler objects. */
typedef enum {
  FS_TREE_NULL,
  FS_TREE_BOOL,
  FS_TREE_NUMBER,  /* text kept as written */
  FS_TREE_STRING,
  FS_TREE_MAP,
  FS_TREE_LIST,
} FsTreeType;

typedef struct FsTree FsTree;
struct FsTree {
  FsTreeType type;
  guint n;                        /* entries of a map or list */
  const char *text;               /* scalar text; "true"/"false" for bools */
  const char *const *keys;        /* map keys, in document order */
  const FsTree *const *values;    /* map values or list items */
};

typedef enum {
  FS_KIND_HPA,
  FS_KIND_VPA,
  FS_KIND_HVPA,
  FS_KIND_METRIC_VALUE,           /* custom.metrics.k8s.io MetricValue */
  FS_KIND_EXTERNAL_METRIC_VALUE,  /* external.metrics.k8s.io ExternalMetricValue */
  FS_KIND_SCHEDULER_CONFIGURATION, /* kubescheduler.config.k8s.io KubeSchedulerConfiguration */
  FS_KIND_RUNTIME_CLASS,          /* node.k8s.io RuntimeClass (model/runtimeclass.h) */
  FS_KIND_N_GENERIC,
} FsGenericKind;

typedef struct {
  FsGenericKind kind;
  const char *api_version;
  const char *namespace;
  const char *name;
  const FsLabelSet *labels;
  const FsTree *object;           /* the whole object minus managedFields and annotations */
  const FsLabelSet *annotations;  /* kept: these are small and HVPA reads one */
  const char *target_kind;        /* what it scales: spec.scaleTargetRef (HPA), spec.targetRef */
  const char *target_name;        /* (VPA, Hvpa); NULL when absent */
} FsGenericObject;

/* A List read from a file that holds the pods of one namespace only: the answer of a
 * one-namespace query (kubectl get pods -n NS, GET /api/v1/namespaces/NS/pods). */
typedef struct {
  const char *namespace;
  const char *source;             /* the file (or stream) it was read from */
  guint n_pods;
  gboolean by_self_link;          /* metadata.selfLink names the namespace (else: its items) */
} FsNamespacedList;

/* ---- the snapshot -------------------------------------------------------------------- */

struct FsSnapshot {
  /* Read-only after build. */
  const FsNode *nodes;
  guint n_nodes;
  const FsPod *pods;
  guint n_pods;
  const FsWorkload *workloads;
  guint n_workloads;
  const FsNamespace *namespaces;
  guint n_namespaces;
  const FsPodMetrics *pod_metrics;
  guint n_pod_metrics;
  const FsEvent *events;
  guint n_events;
  const FsGenericObject *generic;
  guint n_generic;
  guint n_skipped;                /* objects of kinds fitscale does not read */
  guint n_pods_with_anti_affinity; /* counted pods with required anti-affinity terms */
  const char *resource_version;   /* the newest list resourceVersion seen, or NULL */
  /* storage, sorted by namespace and name (model/volumes.h looks them up) */
  const FsClaim *claims;
  guint n_claims;
  const FsPersistentVolume *persistent_volumes;
  guint n_persistent_volumes;
  const FsStorageClass *storage_classes;
  guint n_storage_classes;
  const FsCsiNode *csi_nodes;
  guint n_csi_nodes;
  guint32 storage_kinds;          /* FsStorageKinds */
  const FsPodDisruptionBudget *pdbs;
  guint n_pdbs;
  const FsNamespacedList *namespaced_lists; /* Lists from one-namespace queries */
  guint n_namespaced_lists;
  guint n_cluster_pod_lists;      /* Lists holding the pods of more than one namespace */
  /* --scheduler-config (model/schedconfig.h), a reference; NULL: the default profile.  Set
   * with fs_snapshot_set_scheduler_config before the snapshot is shared. */
  struct FsSchedulerConfig *scheduler_config;
  /* private */
  FsPool *pool;                   /* shared with the snapshots built on this one */
  GPtrArray *derived;             /* what the build derived (used ports, volume pods) */
  GHashTable *node_index;         /* name -> index + 1 */
  guint32 recycled;               /* bit i: tracked array i (objects.c) is a recycled buffer */
  guint32 *node_bits;             /* per node, pods counted whose request gives cpu, memory,
                                   * ephemeral storage, pods, extended (5 counts): what an
                                   * incremental build needs to subtract exactly; NULL when
                                   * not kept */
  gint ref_count;
};

FsSnapshot *fs_snapshot_ref (FsSnapshot *snapshot);
/* Gives SNAPSHOT (not yet shared) a reference to CONFIG (NULL: none), replacing its own. */
void fs_snapshot_set_scheduler_config (FsSnapshot *snapshot, struct FsSchedulerConfig *config);
void fs_snapshot_unref (FsSnapshot *snapshot);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FsSnapshot, fs_snapshot_unref)

/* The node called NAME, or NULL. */
const FsNode *fs_snapshot_find_node (const FsSnapshot *snapshot, const char *name);
/* The pod NAMESPACE/NAME, or NULL (a binary search: the pods are sorted by namespace and name). */
const FsPod *fs_snapshot_find_pod (const FsSnapshot *snapshot, const char *namespace,
                                   const char *name);
/* The pods of NAMESPACE: indexes *FIRST up to *END (excluded) of snapshot->pods, by binary
 * search (the pods are sorted by namespace and name).  A workload's pods are all among them. */
void fs_snapshot_namespace_pods (const FsSnapshot *snapshot, const char *namespace, guint *first, guint *end);
/* The workload of KIND ("Deployment", "StatefulSet", "ReplicaSet", as an ownerReference or a
 * scaleTargetRef names it) NAMESPACE/NAME, or NULL. */
const FsWorkload *fs_snapshot_find_workload (const FsSnapshot *snapshot, const char *namespace,
                                             const char *kind, const char *name);
/* The workload at the top of POD's owner chain (Pod -> ReplicaSet -> Deployment, or its
 * StatefulSet), or NULL when the snapshot holds none.  A ReplicaSet the snapshot lacks still
 * leads to its Deployment when the pod's pod-template-hash names it (DEPLOYMENT-HASH) and the
 * Deployment's selector matches the pod, as the deployment controller names them. */
const FsWorkload *fs_snapshot_pod_workload (const FsSnapshot *snapshot, const FsPod *pod);
/* The HPA or the Hvpa NAMESPACE/NAME, or NULL. */
const FsGenericObject *fs_snapshot_find_hpa (const FsSnapshot *snapshot, const char *namespace,
                                             const char *name);
const FsGenericObject *fs_snapshot_find_hvpa (const FsSnapshot *snapshot, const char *namespace,
                                              const char *name);
/* The HPA, VPA or Hvpa (KIND) of TARGET, by its target reference, or NULL. */
const FsGenericObject *fs_snapshot_find_autoscaler (const FsSnapshot *snapshot, FsGenericKind kind,
                                                    const FsWorkload *target);
/* kubectl's names for a workload kind (deployment, deployments, deploy, statefulset, sts,
 * replicaset, rs, ..., any case): TRUE and *KIND when TEXT is one. */
gboolean fs_workload_kind_parse (const char *text, FsWorkloadKind *kind);
/* "Deployment", "StatefulSet", "ReplicaSet". */
const char *fs_workload_kind_name (FsWorkloadKind kind);

/* Bytes the snapshot holds (pool and arrays). */
gsize fs_snapshot_bytes (const FsSnapshot *snapshot);

/* Frees the array buffers kept for the next incremental build (objects.c array_release: one
 * snapshot's arrays, tens of MB at 150,000 pods) and returns their bytes: the watch cache
 * calls it once its batches stop, so that memory held for speed under churn goes back when
 * the churn ends. */
gsize fs_snapshot_release_spare_arrays (void);

/* Whether WORKLOAD (an FsWorkload *) owns POD: a pod of its namespace that its selector
 * matches (also an FsPackOptions exclude function). */
gboolean fs_workload_owns_pod (const FsPod *pod, gpointer workload);

/* status.phase (core/v1 PodPhase) as the API writes it, and back: TEXT that is no phase
 * reads as FS_PHASE_UNKNOWN. */
const char *fs_pod_phase_name (FsPodPhase phase);
FsPodPhase fs_pod_phase_parse (const char *text);

/* Whether POD waits for the scheduler: bound to no node and in phase Pending. */
gboolean fs_pod_is_pending (const FsPod *pod);

/* Pods of one controller, and of one spec: their namespace, owner reference and spec, each
 * interned in the snapshot, so compared by address (an owner reference is interned without
 * its namespace: ReplicaSets of one name in two namespaces share it).  SPEC NULL: any spec.
 * Hash and equality for GHashTable keys. */
typedef struct {
  const char *namespace;
  const FsOwnerRef *owner;
  const FsPodSpec *spec;
} FsPodGroupKey;
guint fs_pod_group_key_hash (gconstpointer key);
gboolean fs_pod_group_key_equal (gconstpointer a, gconstpointer b);

/* Whether a pod's request counts toward its node (NodeInfo.AddPod is fed by the scheduler's
 * informer, which drops Succeeded and Failed pods; terminating pods still count). */
gboolean fs_pod_counts_on_node (const FsPod *pod);

/* ---- building ------------------------------------------------------------------------ */

typedef struct FsSnapshotBuilder FsSnapshotBuilder;

FsSnapshotBuilder *fs_snapshot_builder_new (void);
void fs_snapshot_builder_free (FsSnapshotBuilder *builder);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FsSnapshotBuilder, fs_snapshot_builder_free)

/* The builder's pool: decoders intern into it directly. */
FsPool *fs_snapshot_builder_pool (FsSnapshotBuilder *builder);

/* Each add copies the struct; pointers inside must come from the builder's pool.  A later
 * object with the same kind, namespace and name replaces an earlier one (the same object
 * seen in two files, or a watch update). */
void fs_snapshot_builder_add_node (FsSnapshotBuilder *builder, const FsNode *node);
void fs_snapshot_builder_add_pod (FsSnapshotBuilder *builder, const FsPod *pod);
void fs_snapshot_builder_add_workload (FsSnapshotBuilder *builder, const FsWorkload *workload);
void fs_snapshot_builder_add_namespace (FsSnapshotBuilder *builder, const FsNamespace *ns);
void fs_snapshot_builder_add_pod_metrics (FsSnapshotBuilder *builder, const FsPodMetrics *pm);
void fs_snapshot_builder_add_event (FsSnapshotBuilder *builder, const FsEvent *event);
void fs_snapshot_builder_add_generic (FsSnapshotBuilder *builder, const FsGenericObject *obj);
void fs_snapshot_builder_add_pdb (FsSnapshotBuilder *builder, const FsPodDisruptionBudget *pdb);
void fs_snapshot_builder_count_skipped (FsSnapshotBuilder *builder, const char *kind);
void fs_snapshot_builder_add_claim (FsSnapshotBuilder *builder, const FsClaim *claim);
void fs_snapshot_builder_add_persistent_volume (FsSnapshotBuilder *builder,
                                                const FsPersistentVolume *volume);
void fs_snapshot_builder_add_storage_class (FsSnapshotBuilder *builder, const FsStorageClass *sc);
void fs_snapshot_builder_add_csi_node (FsSnapshotBuilder *builder, const FsCsiNode *csi_node);
/* The snapshot read KINDS (FsStorageKinds), if only as an empty list. */
void fs_snapshot_builder_saw_storage (FsSnapshotBuilder *builder, guint32 kinds);
void fs_snapshot_builder_set_resource_version (FsSnapshotBuilder *builder, const char *rv);
/* A List that ended: NAMESPACE (interned; NULL when its pods span namespaces or it holds
 * none) when it came from a one-namespace query, N_PODS its pods.  Lists of pods of several
 * namespaces are counted (n_cluster_pod_lists). */
void fs_snapshot_builder_note_list (FsSnapshotBuilder *builder, const FsNamespacedList *list);
/* Forgets the Lists noted so far (the live client's cluster-wide pages). */
void fs_snapshot_builder_forget_lists (FsSnapshotBuilder *builder);
/* A list's metadata.continue (an empty one clears it), and taking it (caller frees; NULL when
 * the last list was complete). */
void fs_snapshot_builder_set_continue (FsSnapshotBuilder *builder, const char *token, gsize len);
char *fs_snapshot_builder_take_continue (FsSnapshotBuilder *builder);

/* A builder that starts with every object of BASE (a watch cache's next snapshot): later
 * adds replace them by kind, namespace and name.  It interns into BASE's own pool, shared
 * (fs_pool_ref), so that equal parts stay one pointer and no chain of snapshots is kept
 * alive: BASE may go before the snapshot built on it.  One builder at a time may be made
 * from the snapshots that share a pool (the watch cache's one writer).  Removes find BASE's
 * objects by binary search and finish merges what was added into BASE's sorted arrays:
 * a batch of k changes costs O(k log k) compares and O(n) copying, never a sort of n. */
FsSnapshotBuilder *fs_snapshot_builder_new_from (FsSnapshot *base);
/* Removes the object of KIND ("Pod", "Node", "Deployment", "HorizontalPodAutoscaler", ...)
 * NAMESPACE/NAME; returns how many copies went. */
guint fs_snapshot_builder_remove (FsSnapshotBuilder *builder, const char *kind, const char *namespace,
                                  const char *name);
/* Removes every object of KIND (a resource listed again); returns how many went. */
guint fs_snapshot_builder_remove_kind (FsSnapshotBuilder *builder, const char *kind);
/* The newest list resourceVersion seen so far, or NULL. */
const char *fs_snapshot_builder_resource_version (const FsSnapshotBuilder *builder);

/* Finishes: resolves pods to nodes, sums what each node's pods request, and returns the
 * snapshot (the builder is consumed and freed).  FALSE only on an arithmetic limit. */
FsSnapshot *fs_snapshot_builder_finish (FsSnapshotBuilder *builder, GError **error);

G_END_DECLS
