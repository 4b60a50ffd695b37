/* fitscale — what a bound pod waits for: the kubelet's side of a pod the scheduler placed.
 *
 * kube-scheduler's part ends when it binds a pod to a node (spec.nodeName).  What follows is
 * the kubelet's: admission (pkg/kubelet/lifecycle/predicate.go, Kubelet.canAdmitPod), volumes,
 * the pod sandbox, image pulls, init containers, then the containers.  These functions read
 * what the kubelet reported (FsPod.kubelet), the pod's node and the latest event that names a
 * kubelet or volume failure, and say which of those the pod waits on.  Pure functions; the
 * wait points into the objects it was given. */
#pragma once

#include <glib.h>

#include "fitscale/model/objects.h"

G_BEGIN_DECLS

typedef enum {
  FS_KUBELET_REJECTED,          /* admission refused it: Failed for good (OutOfcpu, NodeAffinity) */
  FS_KUBELET_FAILED,            /* Failed on the node after admission (Evicted, ...) */
  FS_KUBELET_IMAGE_PULL,        /* ImagePullBackOff, ErrImagePull, InvalidImageName, ... */
  FS_KUBELET_CRASH_LOOP,        /* CrashLoopBackOff, or an init container that exited non-zero */
  FS_KUBELET_CONTAINER_CONFIG,  /* CreateContainerConfigError: a ConfigMap or Secret it names */
  FS_KUBELET_CONTAINER_ERROR,   /* CreateContainerError, RunContainerError, hook errors */
  FS_KUBELET_VOLUME,            /* FailedMount, FailedAttachVolume, FailedMapVolume */
  FS_KUBELET_SANDBOX,           /* FailedCreatePodSandBox, PodReadyToStartContainers False */
  FS_KUBELET_NODE_NOT_READY,    /* its node's Ready condition is not True */
  FS_KUBELET_NODE_MISSING,      /* its node is not in the snapshot */
  FS_KUBELET_INIT_CONTAINER,    /* an init container has yet to finish */
  FS_KUBELET_CONTAINER_CREATING, /* ContainerCreating, PodInitializing */
  FS_KUBELET_STARTING,          /* containers reported, the pod not yet Running */
  FS_KUBELET_UNREPORTED,        /* the kubelet has reported nothing on it */
  FS_KUBELET_RUNNING,           /* Running or Succeeded: it waits for nothing */
} FsKubeletWaitKind;

typedef struct {
  FsKubeletWaitKind kind;
  const char *reason;           /* status.reason, the container's state reason or the event's */
  const char *message;          /* the matching message, or NULL */
  const char *container;        /* the container it waits on, or NULL */
  gboolean init_container;      /* CONTAINER is an init container */
  const FsEvent *event;         /* the event that decided it (VOLUME, SANDBOX), or NULL */
} FsKubeletWait;

/* What POD, bound to NODE (NULL: not in the snapshot), waits for.  EVENT is the latest event
 * of the pod fs_kubelet_event picked, or NULL. */
void fs_kubelet_wait (const FsPod *pod, const FsNode *node, const FsEvent *event, FsKubeletWait *wait);

/* The latest event naming POD whose reason is a kubelet or volume failure (FailedMount,
 * FailedAttachVolume, FailedMapVolume, FailedCreatePodSandBox), or NULL. */
const FsEvent *fs_kubelet_event (const FsSnapshot *snapshot, const FsPod *pod);

/* Whether REASON (a Failed pod's status.reason) is a kubelet admission rejection
 * (pkg/kubelet/lifecycle/predicate.go: OutOf<resource>, the predicate names, ...). */
gboolean fs_kubelet_admission_reason (const char *reason);

/* The machine-readable name of KIND: "AdmissionRejected", "ImagePull", ... */
const char *fs_kubelet_wait_name (FsKubeletWaitKind kind);

G_END_DECLS
