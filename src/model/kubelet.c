/* fitscale — what a bound pod waits for (see include/fitscale/model/kubelet.h). */
#include "config.h"

#include <string.h>

#include "fitscale/model/kubelet.h"

/* pkg/kubelet/kubelet.go rejectPod: "Pod was rejected: " + the admit handler's message. */
#define REJECTED_PREFIX "Pod was rejected: "

gboolean
fs_kubelet_admission_reason (const char *reason)
{
  /* pkg/kubelet/lifecycle/predicate.go predicateAdmitHandler.Admit: InsufficientResourcePrefix
   * "OutOf" + the resource (OutOfcpu, OutOfmemory, OutOfpods, OutOfnvidia.com/gpu, ...), the
   * reason constants, and generalFilter's PredicateFailureError names (the scheduler plugins
   * it reruns: NodeAffinity, NodeName, NodePorts, TaintToleration). */
  static const char *const reasons[] = {
    "PodOSSelectorNodeLabelDoesNotMatch", "PodOSNotSupported", "InvalidNodeInfo",
    "InitContainerRestartPolicyForbidden", "SupplementalGroupsPolicyNotSupported",
    "UnexpectedAdmissionError", "UnknownReason", "UnexpectedPredicateFailureType",
    "NodeAffinity", "NodeName", "NodePorts", "TaintToleration",
  };
  if (reason == NULL)
    return FALSE;
  if (g_str_has_prefix (reason, "OutOf") && reason[5] != '\0')
    return TRUE;
  for (gsize i = 0; i < G_N_ELEMENTS (reasons); i++)
    if (strcmp (reason, reasons[i]) == 0)
      return TRUE;
  return FALSE;
}

/* A container's waiting reason as the kubelet writes it: pkg/kubelet/images/types.go
 * (ErrImagePullBackOff "ImagePullBackOff", ErrImagePull, ErrImageInspect, ErrImageNeverPull,
 * ErrInvalidImageName), pkg/kubelet/container/sync_result.go (ErrCrashLoopBackOff,
 * ErrCreateContainerConfig, ErrCreateContainer, ErrRunContainer, the hook errors) and
 * pkg/kubelet/kubelet_pods.go (ContainerCreating, PodInitializing). */
static FsKubeletWaitKind
waiting_kind (const char *reason)
{
  static const struct {
    const char *reason;
    FsKubeletWaitKind kind;
  } reasons[] = {
    { "ImagePullBackOff", FS_KUBELET_IMAGE_PULL },
    { "ErrImagePull", FS_KUBELET_IMAGE_PULL },
    { "ImageInspectError", FS_KUBELET_IMAGE_PULL },
    { "ErrImageNeverPull", FS_KUBELET_IMAGE_PULL },
    { "InvalidImageName", FS_KUBELET_IMAGE_PULL },
    { "RegistryUnavailable", FS_KUBELET_IMAGE_PULL },
    { "SignatureValidationFailed", FS_KUBELET_IMAGE_PULL },
    { "CrashLoopBackOff", FS_KUBELET_CRASH_LOOP },
    { "CreateContainerConfigError", FS_KUBELET_CONTAINER_CONFIG },
    { "CreateContainerError", FS_KUBELET_CONTAINER_ERROR },
    { "RunContainerError", FS_KUBELET_CONTAINER_ERROR },
    { "PreCreateHookError", FS_KUBELET_CONTAINER_ERROR },
    { "PreStartHookError", FS_KUBELET_CONTAINER_ERROR },
    { "PostStartHookError", FS_KUBELET_CONTAINER_ERROR },
    { "ContainerCreating", FS_KUBELET_CONTAINER_CREATING },
    { "PodInitializing", FS_KUBELET_CONTAINER_CREATING },
  };
  if (reason != NULL)
    for (gsize i = 0; i < G_N_ELEMENTS (reasons); i++)
      if (strcmp (reason, reasons[i].reason) == 0)
        return reasons[i].kind;
  return FS_KUBELET_STARTING;
}

/* The events that say why a pod's volumes or sandbox are not ready: pkg/kubelet/events/event.go
 * (FailedMountVolume "FailedMount", FailedMapVolume, FailedCreatePodSandBox) and the
 * attach/detach controller's "FailedAttachVolume" (pkg/controller/volume/attachdetach). */
static FsKubeletWaitKind
event_kind (const char *reason)
{
  if (g_strcmp0 (reason, "FailedMount") == 0 || g_strcmp0 (reason, "FailedAttachVolume") == 0
      || g_strcmp0 (reason, "FailedMapVolume") == 0)
    return FS_KUBELET_VOLUME;
  if (g_strcmp0 (reason, "FailedCreatePodSandBox") == 0)
    return FS_KUBELET_SANDBOX;
  return FS_KUBELET_UNREPORTED;
}

const FsEvent *
fs_kubelet_event (const FsSnapshot *snapshot, const FsPod *pod)
{
  const FsEvent *latest = NULL;
  for (guint i = 0; i < snapshot->n_events; i++)
    {
      const FsEvent *event = &snapshot->events[i];
      if (event_kind (event->reason) != FS_KUBELET_UNREPORTED
          && g_strcmp0 (event->involved_name, pod->name) == 0
          && g_strcmp0 (event->involved_namespace, pod->namespace) == 0
          && (event->involved_kind == NULL || strcmp (event->involved_kind, "Pod") == 0)
          && (latest == NULL || event->last_time >= latest->last_time))
        latest = event;
    }
  return latest;
}

static void
set_wait (FsKubeletWait *wait, FsKubeletWaitKind kind, const char *reason, const char *message)
{
  wait->kind = kind;
  wait->reason = reason;
  wait->message = message;
}

static void
set_container (FsKubeletWait *wait, FsKubeletWaitKind kind, const FsContainerStatus *status,
               gboolean init)
{
  set_wait (wait, kind, status->reason, status->message);
  wait->container = status->name;
  wait->init_container = init;
}

/* A failing container, the init container first (init containers run before the others):
 * TRUE when one says what the pod waits on. */
static gboolean
failing_container (const FsPodKubeletStatus *status, FsKubeletWait *wait)
{
  const FsContainerStatus *init = &status->init;
  if (init->name != NULL && init->state == FS_CONTAINER_TERMINATED && init->exit_code != 0)
    {
      set_container (wait, FS_KUBELET_CRASH_LOOP, init, TRUE);
      return TRUE;
    }
  const FsContainerStatus *candidates[] = { init, &status->container };
  for (gsize i = 0; i < G_N_ELEMENTS (candidates); i++)
    {
      const FsContainerStatus *container = candidates[i];
      if (container->name == NULL || container->state != FS_CONTAINER_WAITING)
        continue;
      FsKubeletWaitKind kind = waiting_kind (container->reason);
      if (kind != FS_KUBELET_CONTAINER_CREATING && kind != FS_KUBELET_STARTING)
        {
          set_container (wait, kind, container, container == init);
          return TRUE;
        }
    }
  return FALSE;
}

/* What the kubelet is at when nothing failed: init containers, then container creation. */
static void
progress (const FsPodKubeletStatus *status, FsKubeletWait *wait)
{
  if (status->init.name != NULL && status->initialized != FS_CONDITION_TRUE)
    {
      set_container (wait, FS_KUBELET_INIT_CONTAINER, &status->init, TRUE);
      return;
    }
  if (status->ready_to_start == FS_CONDITION_FALSE)
    {
      /* pkg/kubelet/status/generate.go GeneratePodReadyToStartContainersCondition: False
       * until the sandbox is created and its network configured */
      set_wait (wait, FS_KUBELET_SANDBOX, "PodReadyToStartContainers", NULL);
      return;
    }
  if (status->container.name != NULL && status->container.state == FS_CONTAINER_WAITING)
    {
      set_container (wait, waiting_kind (status->container.reason), &status->container, FALSE);
      return;
    }
  if (status->ready_to_start != FS_CONDITION_ABSENT || status->initialized != FS_CONDITION_ABSENT
      || status->containers_ready != FS_CONDITION_ABSENT || status->container.name != NULL
      || status->running > 0)
    set_wait (wait, FS_KUBELET_STARTING, NULL, NULL);
  else
    set_wait (wait, FS_KUBELET_UNREPORTED, NULL, NULL);
}

void
fs_kubelet_wait (const FsPod *pod, const FsNode *node, const FsEvent *event, FsKubeletWait *wait)
{
  memset (wait, 0, sizeof *wait);
  const FsPodKubeletStatus *status = pod->kubelet;
  if (pod->phase == FS_PHASE_RUNNING || pod->phase == FS_PHASE_SUCCEEDED)
    {
      set_wait (wait, FS_KUBELET_RUNNING, NULL, NULL);
      return;
    }
  static const FsPodKubeletStatus empty;
  if (status == NULL)
    status = &empty;
  /* pkg/kubelet/kubelet.go rejectPod: admission failures leave the pod Failed with the
   * admit handler's reason and "Pod was rejected: " + its message */
  if (pod->phase == FS_PHASE_FAILED)
    {
      gboolean rejected = fs_kubelet_admission_reason (status->reason)
                          || (status->message != NULL && g_str_has_prefix (status->message, REJECTED_PREFIX));
      set_wait (wait, rejected ? FS_KUBELET_REJECTED : FS_KUBELET_FAILED, status->reason, status->message);
      return;
    }
  if (failing_container (status, wait))
    return;
  if (event != NULL && status->containers_ready != FS_CONDITION_TRUE)
    {
      set_wait (wait, event_kind (event->reason), event->reason, event->message);
      wait->event = event;
      return;
    }
  if (node == NULL)
    {
      set_wait (wait, FS_KUBELET_NODE_MISSING, NULL, NULL);
      return;
    }
  if ((node->flags & FS_NODE_READY_KNOWN) && !(node->flags & FS_NODE_READY))
    {
      set_wait (wait, FS_KUBELET_NODE_NOT_READY, NULL, NULL);
      return;
    }
  progress (status, wait);
}

const char *
fs_kubelet_wait_name (FsKubeletWaitKind kind)
{
  static const char *const names[] = {
    [FS_KUBELET_REJECTED] = "AdmissionRejected",
    [FS_KUBELET_FAILED] = "Failed",
    [FS_KUBELET_IMAGE_PULL] = "ImagePull",
    [FS_KUBELET_CRASH_LOOP] = "CrashLoop",
    [FS_KUBELET_CONTAINER_CONFIG] = "ContainerConfig",
    [FS_KUBELET_CONTAINER_ERROR] = "ContainerError",
    [FS_KUBELET_VOLUME] = "Volume",
    [FS_KUBELET_SANDBOX] = "Sandbox",
    [FS_KUBELET_NODE_NOT_READY] = "NodeNotReady",
    [FS_KUBELET_NODE_MISSING] = "NodeNotInSnapshot",
    [FS_KUBELET_INIT_CONTAINER] = "InitContainer",
    [FS_KUBELET_CONTAINER_CREATING] = "ContainerCreating",
    [FS_KUBELET_STARTING] = "Starting",
    [FS_KUBELET_UNREPORTED] = "Unreported",
    [FS_KUBELET_RUNNING] = "Nothing",
  };
  return (gsize) kind < G_N_ELEMENTS (names) ? names[kind] : "Unknown";
}
