/* fitscale — in-place pod resize (KEP-1287, GA in Kubernetes 1.35): what a resizing pod holds
 * on its node, whether the kubelet admits a resize, and the order it retries pending ones.
 *
 * Three rules, each from its upstream source:
 *
 * - accounting: kube-scheduler counts a bound pod by pkg/scheduler/framework/types.go
 *   PodInfo.calculateResource, which calls k8s.io/component-helpers/resource/helpers.go
 *   PodRequests with UseStatusResources (InPlacePodVerticalScaling, on by default):
 *   AggregateContainerRequests takes, per resource, the largest of the spec's requests, the
 *   allocated ones (containerStatuses[].allocatedResources) and the actuated ones
 *   (containerStatuses[].resources.requests), each summed by the sidecar rule; when the resize
 *   is Infeasible (IsPodResizeInfeasible) the spec's are left out.  Pod-level requests and
 *   overhead apply after, as for any pod.
 * - admission: the kubelet (pkg/kubelet/allocation/allocation_manager.go handlePodResourcesResize
 *   -> canResizePod in v1.33, split into the podResizesAdmitHandler of
 *   pkg/kubelet/allocation/handlers.go and the predicate handler since) answers a resize
 *   Infeasible when it can never fit the node (cpu or memory requests above allocatable; a
 *   static pod; a Guaranteed pod's cpu (memory) change under the static CPU (Memory) Manager
 *   policy; a memory change of a container with swap), Deferred when it does not fit beside
 *   the other pods' allocated requests now (lifecycle/predicate.go generalFilter, the
 *   NodeResourcesFit rule), and allocates it otherwise.
 * - retry order: allocation_manager.go sortPendingResizes. */
#pragma once

#include <glib.h>

#include "fitscale/model/objects.h"

G_BEGIN_DECLS

/* The resize state a PodResizePending reason or an older status.resize value names:
 * "Deferred", "Infeasible", "InProgress", "Proposed"; FS_RESIZE_NONE for anything else. */
FsResizeState fs_resize_state_parse (const char *text);
/* "none", "proposed", "in-progress", "deferred", "infeasible". */
const char *fs_resize_state_name (FsResizeState state);

/* The requests of a pod whose containers SET reports STATUSES (N of them, matched to the
 * spec's containers by name as findContainerStatus does; a container without one counts at
 * its spec): RESIZE->allocated, ->actuated and ->accounted (the scheduler's count), each with
 * the pod's pod-level requests and overhead, as PodRequests with UseStatusResources computes
 * them.  INFEASIBLE: the pod's resize is Infeasible.  FALSE only on too many extended names. */
gboolean fs_pod_status_requests (const FsContainerSet *set, const FsContainerAllocation *statuses,
                                 guint n_statuses, gboolean infeasible, FsPodResize *resize,
                                 GError **error);

/* Whether every status in STATUSES that names a container of SET reports that container's
 * spec requests as both allocated and actuated: then the three sums of fs_pod_status_requests
 * are the spec's, and a pod without a resize condition needs none of it (the common case on a
 * v1.33+ cluster, where every container status carries both). */
gboolean fs_pod_status_agrees (const FsContainerSet *set, const FsContainerAllocation *statuses,
                               guint n_statuses);

/* v1qos.GetPodQOS == Guaranteed (pkg/apis/core/v1/helper/qos/qos.go): every container (init
 * containers included) has cpu and memory limits, and its requests equal them. */
gboolean fs_containers_guaranteed (const FsContainerSet *set);

/* What the node says of a resize, beyond its resources: the kubelet's settings and the pod's
 * kind that a snapshot of the API does not show (the caller states what it assumes). */
typedef struct {
  gboolean cpu_manager_static;    /* cpuManagerPolicy: static (and the
                                   * InPlacePodVerticalScalingExclusiveCPUs gate off) */
  gboolean memory_manager_static; /* memoryManagerPolicy: Static (ExclusiveMemory gate off) */
  gboolean swap;                  /* the containers may swap (NodeSwap, LimitedSwap) */
  gboolean static_pod;            /* the pod comes from a file on the node (a mirror pod) */
} FsResizeNodeConfig;

typedef struct {
  FsResizeState state;            /* IN_PROGRESS (allocated), DEFERRED or INFEASIBLE */
  const char *resource;           /* the resource that does not fit ("cpu", "memory", ...) */
  int64_t requested;              /* the pod's new request of it */
  int64_t used;                   /* what the other pods' allocations hold of it (Deferred) */
  int64_t capacity;               /* the node's allocatable of it */
  char message[160];              /* the kubelet's condition message */
} FsResizeVerdict;

/* Whether the kubelet on NODE admits a resize of a pod to DESIRED (its new effective request)
 * from ALLOCATED, while the node's other pods hold OTHERS (their allocated requests, summed)
 * and count N_OTHER_PODS.  CONTAINERS_NOW and CONTAINERS_NEW: the pod's containers at their
 * allocated and their desired requests (for the static-policy and swap rules; either may be
 * NULL to skip those rules).  CONFIG may be NULL (the defaults: none of them). */
void fs_resize_admit (const FsNode *node, const FsResources *desired, const FsResources *others,
                      int64_t n_other_pods, const FsContainerSet *containers_now,
                      const FsContainerSet *containers_new, const FsResizeNodeConfig *config,
                      FsResizeVerdict *verdict);

/* A pending resize, as sortPendingResizes reads it. */
typedef struct {
  gboolean increasing;            /* cpu or memory requests go up (isResizeIncreasingRequests) */
  int32_t priority;               /* spec.priority */
  gboolean guaranteed;            /* QoS class Guaranteed */
  int64_t pending_since;          /* PodResizePending lastTransitionTime, 0 when unknown */
  gconstpointer data;             /* the caller's */
} FsPendingResize;

/* Sorts PENDING (N) in the order the kubelet retries them: resizes that do not increase
 * requests first, then higher priority, then Guaranteed before the others, then the longest
 * pending (an unknown time last).  Stable for equal entries. */
void fs_resize_sort_pending (FsPendingResize *pending, guint n);

/* Whether the cpu or memory of AFTER is above BEFORE's (isResizeIncreasingRequests). */
gboolean fs_resize_increases (const FsResources *before, const FsResources *after);

/* The FsResourceBit set of cpu and memory requests that differ between the containers of
 * BEFORE and AFTER (by name), and how many containers restart for it: those whose
 * resizePolicy for a changed resource is RestartContainer (their restart_mask bits). */
guint fs_resize_restarts (const FsContainer *before, const FsContainer *after, guint n);

G_END_DECLS
