/* fitscale — kube-scheduler's filters, one node at a time, and the FailedScheduling message.
 *
 * Pure functions on snapshot structs (no allocation except where a function returns a
 * string the caller frees).  The node side is passed as FsNodeLoad so that packing can add
 * placed replicas to a copy of the node's load without touching the snapshot.  Each filter
 * follows the kube-scheduler plugin named beside it; fs_fit_node applies them in the default
 * profile's order and stops at the first that rejects, as the scheduler does; the pod's
 * profile (model/schedconfig.h) turns filters off and gives their arguments. */
#pragma once

#include <glib.h>

#include "fitscale/model/objects.h"
#include "fitscale/model/ports.h"

G_BEGIN_DECLS

/* A profile of the scheduler configuration (model/schedconfig.h). */
typedef struct FsSchedulerProfile FsSchedulerProfile;

/* The pod being placed: what the filters read of it. */
typedef struct {
  const char *namespace;
  const FsLabelSet *labels;
  const FsPodSpec *spec;      /* effective request and placement rules */
  const char *node_name;      /* spec.nodeName (NodeName filter), NULL when unset */
  int32_t priority;
  const char *name;           /* the pod's name (its ephemeral volumes' claims are named after
                               * it), NULL for a replica not created yet */
  const FsSchedulerProfile *profile; /* the profile that judges it (its schedulerName's in
                               * --scheduler-config), NULL: the default profile */
  const FsSpreadList *default_spread; /* PROFILE's List defaultConstraints for a pod without
                               * constraints of its own, with the selector of the workload
                               * that owns it (fs_scheduler_default_spread), else NULL */
} FsPodShape;

/* What is on a node right now (for packing: plus the replicas placed so far). */
typedef struct {
  FsResources requested;      /* sum of effective requests of the pods counted on it */
  int64_t pod_count;
  /* NodePorts: the host ports in use (a node's FsNode.used_ports, NULL for none), less
   * those of the pods RELEASED returns TRUE for (taken off the node: a workload's own pods
   * that its replicas replace, preemption's victims). */
  const FsUsedPortList *used_ports;
  FsPodReleased released;
  gpointer released_data;
} FsNodeLoad;

/* Filters in kube-scheduler's default order (pkg/scheduler/apis/config/v1/default_plugins.go). */
typedef enum {
  FS_FILTER_PASS = 0,
  FS_FILTER_NODE_UNSCHEDULABLE,
  FS_FILTER_NODE_NAME,
  FS_FILTER_TAINT_TOLERATION,
  FS_FILTER_NODE_AFFINITY,
  FS_FILTER_NODE_PORTS,
  FS_FILTER_NODE_RESOURCES_FIT,
  FS_FILTER_POD_TOPOLOGY_SPREAD,
  FS_FILTER_INTER_POD_AFFINITY,
  /* The volume filters run between NodeResourcesFit and PodTopologySpread in the default
   * profile; appended here, so compare filters by the order fs_fit_node applies them, not by
   * value (model/volumes.h). */
  FS_FILTER_VOLUME_RESTRICTIONS,
  FS_FILTER_NODE_VOLUME_LIMITS,
  FS_FILTER_VOLUME_BINDING,
  FS_FILTER_VOLUME_ZONE,
} FsFilter;

/* NodeResourcesFit failures, reported together in upstream's order. */
typedef enum {
  FS_SHORT_PODS = 1 << 0,       /* "Too many pods" */
  FS_SHORT_CPU = 1 << 1,        /* "Insufficient cpu" */
  FS_SHORT_MEMORY = 1 << 2,     /* "Insufficient memory" */
  FS_SHORT_EPHEMERAL = 1 << 3,  /* "Insufficient ephemeral-storage" */
  FS_SHORT_SCALAR = 1 << 4,     /* "Insufficient <name>" for names in short_by.extended */
} FsShortBits;

typedef enum {
  FS_DETAIL_NONE = 0,
  FS_DETAIL_ANTI_AFFINITY,           /* "node(s) didn't match pod anti-affinity rules" */
  FS_DETAIL_EXISTING_ANTI_AFFINITY,  /* "node(s) didn't satisfy existing pods anti-affinity rules" */
  FS_DETAIL_AFFINITY,                /* "node(s) didn't match pod affinity rules" */
  FS_DETAIL_SPREAD,                  /* "node(s) didn't match pod topology spread constraints" */
  FS_DETAIL_SPREAD_MISSING_LABEL,    /* "... constraints (missing required label)" */
  /* the volume filters (model/volumes.h writes them, fs_verdict_reasons words them) */
  FS_DETAIL_DISK_CONFLICT,           /* "node(s) had no available disk" */
  FS_DETAIL_RWOP_CONFLICT,           /* "node has pod using PersistentVolumeClaim with the same
                                      * name and ReadWriteOncePod access mode" */
  FS_DETAIL_MAX_VOLUME_COUNT,        /* "node(s) exceed max volume count" */
  FS_DETAIL_VOLUME_BINDING,          /* the reasons in volume_reasons (FsVolumeReasons) */
  FS_DETAIL_NOT_ELIGIBLE,            /* "node(s) didn't satisfy plugin(s) [VolumeBinding]" */
  FS_DETAIL_VOLUME_ZONE,             /* "node(s) had no available volume zone" */
  /* PreFilter rejections (VERDICT.prefilter): the message of the whole attempt */
  FS_DETAIL_CLAIM_NOT_FOUND,         /* persistentvolumeclaim "x" not found */
  FS_DETAIL_EPHEMERAL_WAITING,       /* waiting for ephemeral volume controller to create ... */
  FS_DETAIL_CLAIM_LOST,              /* persistentvolumeclaim "x" bound to non-existent ... */
  FS_DETAIL_CLAIM_DELETING,          /* persistentvolumeclaim "x" is being deleted */
  FS_DETAIL_EPHEMERAL_NOT_OWNED,     /* PVC ns/x was not created for pod ns/p (pod is not owner) */
  FS_DETAIL_UNBOUND_IMMEDIATE,       /* pod has unbound immediate PersistentVolumeClaims */
  FS_DETAIL_NO_ELIGIBLE_NODE,        /* node(s) didn't satisfy plugin VolumeBinding */
  FS_DETAIL_PV_NOT_FOUND,            /* persistentvolume "x" not found */
  FS_DETAIL_ENFORCED_AFFINITY,       /* NODE_AFFINITY: "node(s) didn't match scheduler-enforced
                                      * node affinity" (NodeAffinityArgs.addedAffinity) */
} FsVerdictDetail;

/* VolumeBinding's Filter reasons (volumebinding/binder.go FindPodVolumes), in its order. */
typedef enum {
  FS_VOLUME_NODE_CONFLICT = 1 << 0,  /* "node(s) had volume node affinity conflict" */
  FS_VOLUME_BIND_CONFLICT = 1 << 1,  /* "node(s) didn't find available persistent volumes to bind" */
  FS_VOLUME_PV_NOT_EXIST = 1 << 2,   /* "node(s) unavailable due to one or more pvc(s) bound to
                                      * non-existent pv(s)" */
} FsVolumeReasons;

typedef struct {
  FsFilter filter;            /* the first filter that rejected the node, or PASS */
  gboolean unresolvable;      /* UnschedulableAndUnresolvable: preemption cannot help */
  const FsTaint *taint;       /* TAINT_TOLERATION: the first untolerated taint */
  guint32 short_bits;         /* NODE_RESOURCES_FIT: FsShortBits */
  FsResources short_by;       /* NODE_RESOURCES_FIT: how much is missing, per failing
                               * resource (request - free > 0); pods = 1 when too many */
  FsVerdictDetail detail;     /* INTER_POD_AFFINITY and POD_TOPOLOGY_SPREAD: which rule */
  /* the volume filters */
  gboolean prefilter;         /* a PreFilter rejected the pod: the same on every node, and the
                               * message is its text alone (fs_reason_counts_add_verdict) */
  guint32 volume_reasons;     /* VOLUME_BINDING: FsVolumeReasons */
  const FsVolume *volume;     /* the pod's volume a PreFilter message names */
  const FsClaim *claim;       /* and its claim, when there is one */
  const char *pod_name;       /* the pod's name (ephemeral volumes) */
} FsVerdict;

/* ---- the rules ------------------------------------------------------------------------ */

/* k8s.io/apimachinery/pkg/labels selector.go Requirement.Matches (In, NotIn, Exists,
 * DoesNotExist; Gt and Lt on base-10 int64 values). */
gboolean fs_requirement_matches (const FsRequirement *requirement, const FsLabelSet *labels);
/* metav1.LabelSelectorAsSelector: matchLabels and matchExpressions ANDed.  A NULL selector
 * matches nothing (labels.Nothing()); an empty one matches everything. */
gboolean fs_selector_matches (const FsLabelSelector *selector, const FsLabelSet *labels);

/* component-helpers/scheduling/corev1 ToleratesTaint / v1helper TolerationsTolerateTaint. */
gboolean fs_toleration_tolerates (const FsToleration *toleration, const FsTaint *taint);
gboolean fs_tolerations_tolerate (const FsTolerationList *tolerations, const FsTaint *taint);
/* The first NoSchedule/NoExecute taint not tolerated (tainttoleration.Filter), or NULL. */
const FsTaint *fs_first_untolerated_taint (const FsTaintList *taints,
                                           const FsTolerationList *tolerations);

/* nodeaffinity: spec.nodeSelector and the required node affinity terms
 * (component-helpers/scheduling/corev1/nodeaffinity GetRequiredNodeAffinity.Match). */
gboolean fs_node_affinity_matches (const FsNode *node, const FsPlacement *placement);

/* NodeResourcesFit (noderesources/fit.go fitsRequest): fills VERDICT's short_bits and
 * short_by; TRUE when the pod fits. */
gboolean fs_resources_fit (const FsResources *allocatable, const FsNodeLoad *load,
                           const FsResources *pod_request, FsVerdict *verdict);
/* The same with PROFILE's NodeResourcesFitArgs: the extended resources it ignores
 * (ignoredResources, ignoredResourceGroups) are not checked.  PROFILE NULL: none. */
gboolean fs_resources_fit_profile (const FsResources *allocatable, const FsNodeLoad *load,
                                   const FsResources *pod_request, const FsSchedulerProfile *profile,
                                   FsVerdict *verdict);

/* The room NodeResourcesFit measures a pod against on a node with LOAD (noderesources/fit.go
 * fitsRequest): ALLOCATABLE less the requests of the pods NodeInfo sums, per resource, and for
 * "pods" allowedPodNumber less len(nodeInfo.Pods) (the pods fs_pod_counts_on_node counts:
 * Succeeded and Failed not, terminating ones yes).  Negative where the node is overcommitted.
 * Every command's "free" (nodes, capacity, why, plan, serve) is this.  ERROR (may be NULL) is
 * set when the two name more extended resources together than an FsResources holds; the room
 * then leaves those out. */
FsResources fs_node_room (const FsResources *allocatable, const FsNodeLoad *load, GError **error);
/* What LOAD takes of a node, as fs_node_room subtracts it: its pods' requests and, for "pods",
 * their count. */
FsResources fs_node_load_taken (const FsNodeLoad *load);
/* TRUE when ROOM (fs_node_room, or a sum of them) holds one more pod of REQUEST: every amount
 * it asks, and one pod slot (fitsRequest's len(nodeInfo.Pods)+1 > allowedPodNumber). */
gboolean fs_room_holds_pod (const FsResources *request, const FsResources *room);

/* The filters that depend on the node alone and the pod, in order: the volume plugins'
 * PreFilter checks (model/volumes.h), then NodeUnschedulable, NodeName, TaintToleration,
 * NodeAffinity, NodePorts (the host ports LOAD holds), NodeResourcesFit, VolumeRestrictions,
 * NodeVolumeLimits, VolumeBinding, VolumeZone.  (PodTopologySpread and InterPodAffinity
 * depend on other pods: see packing.)  TRUE when the pod fits. */
gboolean fs_fit_node (const FsNode *node, const FsNodeLoad *load, const FsPodShape *pod,
                      FsVerdict *verdict);

/* The reason strings of a verdict as kube-scheduler writes them ("Insufficient memory",
 * "node(s) had untolerated taint {key: value}", ...), appended to REASONS (const char*;
 * strings are static or owned by REASONS' free function, which must be g_free). */
void fs_verdict_reasons (const FsVerdict *verdict, GPtrArray *reasons);

/* ---- the message ---------------------------------------------------------------------- */

/* A histogram of reasons over nodes (framework.Diagnosis.NodeToStatus). */
typedef struct FsReasonCounts FsReasonCounts;

FsReasonCounts *fs_reason_counts_new (void);
void fs_reason_counts_free (FsReasonCounts *counts);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FsReasonCounts, fs_reason_counts_free)
/* Counts every reason of VERDICT once (one node can add several). */
void fs_reason_counts_add_verdict (FsReasonCounts *counts, const FsVerdict *verdict);
void fs_reason_counts_add (FsReasonCounts *counts, const char *reason, guint n);

/* FitError.Error (pkg/scheduler/framework/types.go): "0/N nodes are available: " then the
 * "count reason" entries sorted as byte strings and joined by ", ", then ".".  When
 * POSTFILTER is not NULL it follows after a space ("preemption: ...").  With no node
 * (N_NODES 0) it is schedule_one.go's ErrNoNodesAvailable, "no nodes available to schedule
 * pods", whatever the counts.  Caller frees. */
char *fs_fit_error_message (guint n_nodes, const FsReasonCounts *counts, const char *postfilter);

/* Whether REASON (one entry of a FailedScheduling message, its count removed, or a PreFilter's
 * message) is one that the filters fitscale models write, in any kube-scheduler version's
 * phrasing.  Any other reason (DynamicResources, storage capacity, a plugin of a custom
 * profile) comes from a filter fitscale does not model. */
gboolean fs_fit_reason_is_modelled (const char *reason);
/* Whether REASON is one of the volume plugins' (model/volumes.h): modelled, but only judged
 * when the snapshot holds the claims. */
gboolean fs_fit_reason_is_volume (const char *reason);

/* ---- well-known taints ------------------------------------------------------------------ */

/* The taint `kubectl cordon` leaves beside spec.unschedulable (the node lifecycle controller's
 * TaintNodeUnschedulable, node.kubernetes.io/unschedulable:NoSchedule). */
gboolean fs_taint_is_cordon (const FsTaint *taint);
/* A taint the node lifecycle controller or the cloud provider sets for the node's state
 * (not-ready, unreachable, pressure, network-unavailable, out-of-service, uninitialized): the
 * node is unhealthy or not ready, and tolerating it is no fix. */
gboolean fs_taint_is_node_state (const FsTaint *taint);
/* Whether NODE reports its Ready condition False or Unknown but lacks the NoSchedule or
 * NoExecute taint the node lifecycle controller gives such a node (node_lifecycle_controller.go
 * doNoScheduleTaintingPass: False -> node.kubernetes.io/not-ready, Unknown ->
 * node.kubernetes.io/unreachable): the taint has yet to come. */
gboolean fs_node_not_ready_untainted (const FsNode *node);

G_END_DECLS
