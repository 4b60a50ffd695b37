/* fitscale — in-place pod resize: accounting, the kubelet's admission, the retry order (see
 * include/fitscale/model/resize.h for the upstream sources). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fitscale/model/resize.h"

FsResizeState
fs_resize_state_parse (const char *text)
{
  /* core/v1 PodReasonDeferred, PodReasonInfeasible; the older PodResizeStatus values */
  static const struct { const char *text; FsResizeState state; } states[] = {
    { "Proposed", FS_RESIZE_PROPOSED },
    { "InProgress", FS_RESIZE_IN_PROGRESS },
    { "Deferred", FS_RESIZE_DEFERRED },
    { "Infeasible", FS_RESIZE_INFEASIBLE },
  };
  for (gsize i = 0; text != NULL && i < G_N_ELEMENTS (states); i++)
    if (strcmp (text, states[i].text) == 0)
      return states[i].state;
  return FS_RESIZE_NONE;
}

const char *
fs_resize_state_name (FsResizeState state)
{
  static const char *const names[] = {
    [FS_RESIZE_NONE] = "none", [FS_RESIZE_PROPOSED] = "proposed",
    [FS_RESIZE_IN_PROGRESS] = "in-progress", [FS_RESIZE_DEFERRED] = "deferred",
    [FS_RESIZE_INFEASIBLE] = "infeasible",
  };
  return (guint) state < G_N_ELEMENTS (names) ? names[state] : "none";
}

/* ---- accounting ------------------------------------------------------------------------ */

/* findContainerStatus: the status of the container called NAME, or NULL. */
static const FsContainerAllocation *
find_status (const FsContainerAllocation *statuses, guint n, const char *name)
{
  for (guint i = 0; name != NULL && i < n; i++)
    if (statuses[i].name != NULL && strcmp (statuses[i].name, name) == 0)
      return &statuses[i];
  return NULL;
}

typedef enum { SPEC, ALLOCATED, ACTUATED } Which;

/* containerSpecRequests, containerAllocatedRequests, containerActuatedRequests
 * (component-helpers/resource/helpers.go): what one container counts at; FALSE when it counts
 * at nothing (an Infeasible resize without a status to fall back on). */
static const FsResources *
container_requests (const FsContainer *container, const FsContainerAllocation *status,
                    gboolean infeasible, Which which)
{
  if (which == ACTUATED && status != NULL && status->has_actuated)
    return &status->actuated;
  if (which != SPEC && status != NULL && status->has_allocated)
    return &status->allocated;
  if (which != SPEC && infeasible)
    return NULL;
  return &container->requests;
}

/* aggregateContainerResourcesByFn with one of the three readers. */
static gboolean
aggregate (const FsContainerSet *set, const FsContainerAllocation *statuses, guint n_statuses,
           gboolean infeasible, Which which, FsResources *out, GError **error)
{
  guint n = set->n_containers + set->n_init;
  g_autofree FsContainer *copies = g_new0 (FsContainer, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      const FsContainer *container = i < set->n_containers ? &set->containers[i]
                                                           : &set->init_containers[i - set->n_containers];
      copies[i] = *container;
      const FsResources *requests
          = container_requests (container, find_status (statuses, n_statuses, container->name),
                                infeasible, which);
      if (requests != NULL)
        copies[i].requests = *requests;
      else
        memset (&copies[i].requests, 0, sizeof copies[i].requests);
    }
  return fs_pod_effective_request (copies, set->n_containers, copies + set->n_containers,
                                   set->n_init, NULL, NULL, out, error);
}

/* PodRequests' last steps on an aggregate: pod-level requests replace cpu, memory and
 * hugepages where given (InPlacePodLevelResourcesVerticalScaling, alpha and off, would read
 * the pod's status there: the spec's are used), then overhead is added. */
static gboolean
finish (const FsContainerSet *set, FsResources *total, GError **error)
{
  FsContainer one;
  memset (&one, 0, sizeof one);
  one.requests = *total;
  return fs_pod_effective_request (&one, 1, NULL, 0, set->pod_level, set->overhead, total, error);
}

gboolean
fs_pod_status_requests (const FsContainerSet *set, const FsContainerAllocation *statuses,
                        guint n_statuses, gboolean infeasible, FsPodResize *resize, GError **error)
{
  FsResources spec, allocated, actuated;
  if (!aggregate (set, statuses, n_statuses, infeasible, SPEC, &spec, error)
      || !aggregate (set, statuses, n_statuses, infeasible, ALLOCATED, &allocated, error)
      || !aggregate (set, statuses, n_statuses, infeasible, ACTUATED, &actuated, error))
    return FALSE;
  /* AggregateContainerRequests: max(actuated, allocated) when Infeasible, else
   * max(spec, actuated, allocated) */
  FsResources accounted = actuated;
  if (!fs_resources_max (&accounted, &allocated, error)
      || (!infeasible && !fs_resources_max (&accounted, &spec, error)))
    return FALSE;
  if (!finish (set, &allocated, error) || !finish (set, &actuated, error)
      || !finish (set, &accounted, error))
    return FALSE;
  resize->allocated = allocated;
  resize->actuated = actuated;
  resize->accounted = accounted;
  return TRUE;
}

static const FsContainer *find_container (const FsContainerSet *set, const char *name);

gboolean
fs_pod_status_agrees (const FsContainerSet *set, const FsContainerAllocation *statuses,
                      guint n_statuses)
{
  for (guint i = 0; i < n_statuses; i++)
    {
      const FsContainer *container = find_container (set, statuses[i].name);
      if (container == NULL)
        continue;
      if ((statuses[i].has_allocated && !fs_resources_equal (&statuses[i].allocated, &container->requests))
          || (statuses[i].has_actuated && !fs_resources_equal (&statuses[i].actuated, &container->requests)))
        return FALSE;
    }
  return TRUE;
}

/* ---- QoS ------------------------------------------------------------------------------- */

static gboolean
container_guaranteed (const FsContainer *container)
{
  const FsResources *limits = &container->limits, *requests = &container->requests;
  if (!(limits->present & FS_RES_CPU) || !(limits->present & FS_RES_MEMORY)
      || limits->cpu_milli == 0 || limits->memory_bytes == 0)
    return FALSE;
  /* a request absent is defaulted to the limit (SetDefaults_Pod) */
  return (!(requests->present & FS_RES_CPU) || requests->cpu_milli == limits->cpu_milli)
         && (!(requests->present & FS_RES_MEMORY) || requests->memory_bytes == limits->memory_bytes);
}

gboolean
fs_containers_guaranteed (const FsContainerSet *set)
{
  if (set == NULL || set->n_containers + set->n_init == 0)
    return FALSE;
  for (guint i = 0; i < set->n_containers; i++)
    if (!container_guaranteed (&set->containers[i]))
      return FALSE;
  for (guint i = 0; i < set->n_init; i++)
    if (!container_guaranteed (&set->init_containers[i]))
      return FALSE;
  return TRUE;
}

/* ---- admission ------------------------------------------------------------------------- */

static const FsContainer *
find_container (const FsContainerSet *set, const char *name)
{
  for (guint i = 0; name != NULL && i < set->n_containers; i++)
    if (set->containers[i].name != NULL && strcmp (set->containers[i].name, name) == 0)
      return &set->containers[i];
  for (guint i = 0; name != NULL && i < set->n_init; i++)
    if (set->init_containers[i].name != NULL && strcmp (set->init_containers[i].name, name) == 0)
      return &set->init_containers[i];
  return NULL;
}

/* Whether a container of NEW changes its request of RESOURCE (FS_RES_CPU or FS_RES_MEMORY)
 * from NOW (guaranteedPodResourceResizeRequired; with RESTART_EXEMPT, a container whose
 * resizePolicy for memory is RestartContainer does not count: disallowResizeForSwappable
 * Containers). */
static gboolean
request_changes (const FsContainerSet *now, const FsContainerSet *new_set, FsResourceBit resource,
                 gboolean restart_exempt)
{
  guint n = new_set->n_containers + new_set->n_init;
  for (guint i = 0; i < n; i++)
    {
      const FsContainer *after = i < new_set->n_containers ? &new_set->containers[i]
                                                          : &new_set->init_containers[i - new_set->n_containers];
      const FsContainer *before = find_container (now, after->name);
      if (before == NULL)
        continue;
      int64_t a = resource == FS_RES_CPU ? before->requests.cpu_milli : before->requests.memory_bytes;
      int64_t b = resource == FS_RES_CPU ? after->requests.cpu_milli : after->requests.memory_bytes;
      if (a != b && !(restart_exempt && (before->resize_restart & FS_RES_MEMORY)))
        return TRUE;
    }
  return FALSE;
}

static void
infeasible (FsResizeVerdict *verdict, const char *message)
{
  verdict->state = FS_RESIZE_INFEASIBLE;
  g_strlcpy (verdict->message, message, sizeof verdict->message);
}

/* lifecycle/predicate.go InsufficientResourceError for one resource, if short. */
static gboolean
short_of (FsResizeVerdict *verdict, const char *name, int64_t requested, int64_t used,
          int64_t capacity)
{
  if (requested <= 0 || fs_saturating_add (requested, used) <= capacity)
    return FALSE;
  verdict->state = FS_RESIZE_DEFERRED;
  verdict->resource = name;
  verdict->requested = requested;
  verdict->used = used;
  verdict->capacity = capacity;
  g_snprintf (verdict->message, sizeof verdict->message,
              "Node didn't have enough resource: %s, requested: %" G_GINT64_FORMAT
              ", used: %" G_GINT64_FORMAT ", capacity: %" G_GINT64_FORMAT,
              name, requested, used, capacity);
  return TRUE;
}

void
fs_resize_admit (const FsNode *node, const FsResources *desired, const FsResources *others,
                 int64_t n_other_pods, const FsContainerSet *containers_now,
                 const FsContainerSet *containers_new, const FsResizeNodeConfig *config,
                 FsResizeVerdict *verdict)
{
  static const FsResizeNodeConfig defaults;
  if (config == NULL)
    config = &defaults;
  memset (verdict, 0, sizeof *verdict);
  verdict->state = FS_RESIZE_IN_PROGRESS;
  /* handlers.go podResizesAdmitHandler.Admit, in its order */
  if (config->static_pod)
    return infeasible (verdict, "In-place resize of static-pods is not supported");
  if (config->swap && containers_now != NULL && containers_new != NULL
      && request_changes (containers_now, containers_new, FS_RES_MEMORY, TRUE))
    return infeasible (verdict, "In-place resize of containers with swap is not supported.");
  if (containers_now != NULL && containers_new != NULL && fs_containers_guaranteed (containers_new))
    {
      if (config->cpu_manager_static && request_changes (containers_now, containers_new, FS_RES_CPU, FALSE))
        return infeasible (verdict, "Resize is infeasible for Guaranteed Pods alongside CPU Manager "
                                    "policy \"static\"");
      if (config->memory_manager_static
          && request_changes (containers_now, containers_new, FS_RES_MEMORY, FALSE))
        return infeasible (verdict, "Resize is infeasible for Guaranteed Pods alongside Memory "
                                    "Manager policy \"Static\"");
    }
  /* canResizePod: cpu or memory above what the node can ever give */
  const FsResources *allocatable = &node->allocatable;
  if (desired->cpu_milli > allocatable->cpu_milli || desired->memory_bytes > allocatable->memory_bytes)
    {
      gboolean memory = desired->memory_bytes > allocatable->memory_bytes;
      verdict->state = FS_RESIZE_INFEASIBLE;
      verdict->resource = memory ? "memory" : "cpu";
      verdict->requested = memory ? desired->memory_bytes : desired->cpu_milli;
      verdict->capacity = memory ? allocatable->memory_bytes : allocatable->cpu_milli;
      g_snprintf (verdict->message, sizeof verdict->message,
                  "Node didn't have enough capacity: %s, requested: %" G_GINT64_FORMAT
                  ", capacity: %" G_GINT64_FORMAT, verdict->resource, verdict->requested,
                  verdict->capacity);
      return;
    }
  /* canAdmitPod with the other pods at their allocated requests: noderesources/fit.go
   * fitsRequest's order (pods, cpu, memory, ephemeral-storage, scalar resources); extended
   * resources the node does not have are dropped first (removeMissingExtendedResources) */
  if (allocatable->pods > 0 && short_of (verdict, "pods", 1, n_other_pods, allocatable->pods))
    return;
  if (short_of (verdict, "cpu", desired->cpu_milli, others->cpu_milli, allocatable->cpu_milli)
      || short_of (verdict, "memory", desired->memory_bytes, others->memory_bytes,
                   allocatable->memory_bytes)
      || short_of (verdict, "ephemeral-storage", desired->ephemeral_bytes, others->ephemeral_bytes,
                   allocatable->ephemeral_bytes))
    return;
  for (guint i = 0; i < desired->n_extended; i++)
    {
      const FsExtendedAmount *entry = &desired->extended[i];
      if (fs_resource_kind (entry->name) != FS_RES_KIND_SCALAR)
        continue;
      gboolean on_node = FALSE;
      for (guint j = 0; j < allocatable->n_extended; j++)
        on_node = on_node || strcmp (allocatable->extended[j].name, entry->name) == 0;
      if (on_node && short_of (verdict, entry->name, entry->value, fs_resources_get (others, entry->name),
                               fs_resources_get (allocatable, entry->name)))
        return;
    }
}

/* ---- the retry order ------------------------------------------------------------------- */

gboolean
fs_resize_increases (const FsResources *before, const FsResources *after)
{
  return after->memory_bytes > before->memory_bytes || after->cpu_milli > before->cpu_milli;
}

/* sortPendingResizes' comparison. */
static int
compare_pending (const void *a, const void *b)
{
  const FsPendingResize *first = a, *second = b;
  if (first->increasing != second->increasing)
    return first->increasing ? 1 : -1;
  if (first->priority != second->priority)
    return first->priority > second->priority ? -1 : 1;
  if (first->guaranteed != second->guaranteed)
    return first->guaranteed ? -1 : 1;
  if ((first->pending_since == 0) != (second->pending_since == 0))
    return first->pending_since == 0 ? 1 : -1;
  if (first->pending_since != second->pending_since)
    return first->pending_since < second->pending_since ? -1 : 1;
  return 0;
}

void
fs_resize_sort_pending (FsPendingResize *pending, guint n)
{
  /* insertion sort: stable, and the kubelet's queue is short */
  for (guint i = 1; i < n; i++)
    {
      FsPendingResize entry = pending[i];
      guint at = i;
      while (at > 0 && compare_pending (&pending[at - 1], &entry) > 0)
        {
          pending[at] = pending[at - 1];
          at--;
        }
      pending[at] = entry;
    }
}

guint
fs_resize_restarts (const FsContainer *before, const FsContainer *after, guint n)
{
  guint restarts = 0;
  for (guint i = 0; i < n; i++)
    {
      guint32 changed = 0;
      if (before[i].requests.cpu_milli != after[i].requests.cpu_milli
          || before[i].limits.cpu_milli != after[i].limits.cpu_milli)
        changed |= FS_RES_CPU;
      if (before[i].requests.memory_bytes != after[i].requests.memory_bytes
          || before[i].limits.memory_bytes != after[i].limits.memory_bytes)
        changed |= FS_RES_MEMORY;
      restarts += (changed & after[i].resize_restart) != 0;
    }
  return restarts;
}
