/* fitscale — kube-scheduler's filters, one node at a time, and the FailedScheduling message.
 *
 * Pure functions on snapshot structs (no allocation except where a function returns a
 * string the caller frees).  The node side is passed as FsNodeLoad so that packing can add
 * placed replicas to a copy of the node's load without touching the snapshot.  Each filter
 * follows the kube-scheduler plugin named beside it; fs_fit_node applies them in the default
 * profile's order and stops at the first that rejects, as the scheduler does. */
#pragma once

#include <glib.h>

#include "fitscale/model/objects.h"
#include "fitscale/model/ports.h"

G_BEGIN_DECLS

/* The pod being placed: what the filters read of it. */
typedef struct {
  const char *namespace;
  const FsLabelSet *labels;
  const FsPodSpec *spec;      /* effective request and placement rules */
  const char *node_name;      /* spec.nodeName (NodeName filter), NULL when unset */
  int32_t priority;
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
} FsVerdictDetail;

typedef struct {
  FsFilter filter;            /* the first filter that rejected the node, or PASS */
  gboolean unresolvable;      /* UnschedulableAndUnresolvable: preemption cannot help */
  const FsTaint *taint;       /* TAINT_TOLERATION: the first untolerated taint */
  guint32 short_bits;         /* NODE_RESOURCES_FIT: FsShortBits */
  FsResources short_by;       /* NODE_RESOURCES_FIT: how much is missing, per failing
                               * resource (request - free > 0); pods = 1 when too many */
  FsVerdictDetail detail;     /* INTER_POD_AFFINITY and POD_TOPOLOGY_SPREAD: which rule */
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

/* The filters that depend on the node alone and the pod, in order: NodeUnschedulable,
 * NodeName, TaintToleration, NodeAffinity, NodePorts (the host ports LOAD holds),
 * NodeResourcesFit.  (PodTopologySpread and InterPodAffinity depend on other pods: see
 * packing.)  TRUE when the pod fits. */
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

/* Whether REASON (one entry of a FailedScheduling message, its count removed) is one that the
 * filters fitscale models write, in any kube-scheduler version's phrasing.  Any other reason
 * (unbound PersistentVolumeClaims, volume node affinity, a plugin of a custom profile) comes
 * from a filter fitscale does not model. */
gboolean fs_fit_reason_is_modelled (const char *reason);

/* ---- well-known taints ------------------------------------------------------------------ */

/* The taint `kubectl cordon` leaves beside spec.unschedulable (the node lifecycle controller's
 * TaintNodeUnschedulable, node.kubernetes.io/unschedulable:NoSchedule). */
gboolean fs_taint_is_cordon (const FsTaint *taint);
/* A taint the node lifecycle controller or the cloud provider sets for the node's state
 * (not-ready, unreachable, pressure, network-unavailable, out-of-service, uninitialized): the
 * node is unhealthy or not ready, and tolerating it is no fix. */
gboolean fs_taint_is_node_state (const FsTaint *taint);

G_END_DECLS
