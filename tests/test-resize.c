/* In-place pod resize (src/model/resize.c and what the decoder keeps of it): the scheduler's
 * accounting during a resize, the kubelet's admission of one, its retry order. */
#include "config.h"

#include "testutil.h"
#include "fitscale/model/resize.h"
#include "fitscale/plan/resize.h"

static const FsPod *
pod_named (const FsSnapshot *snapshot, const char *name)
{
  const FsPod *pod = fs_snapshot_find_pod (snapshot, "default", name);
  assert_non_null (pod);
  return pod;
}

/* ---- accounting ------------------------------------------------------------------------ */

/* component-helpers/resource/helpers_test.go TestPodResourceRequests, the UseStatusResources
 * cases: "resized, infeasible" (spec 4, actuated 2, PodResizePending Infeasible: 2),
 * "resized, no resize status" (4), "resized: per-resource 3-way maximum" (30m, 30M, 30G),
 * "resized, restartable init container, infeasible" (2), "resized, restartable init
 * container, no resize status" (4), "aggregate request resolves max of sums instead of sum
 * of maxes" (3). */
static const char *const accounting =
    "kind: List\n"
    "items:\n"
    "- {kind: Node, metadata: {name: node-a}, status: {allocatable: {cpu: '100', memory: 100Gi, ephemeral-storage: 100G, pods: '110'}}}\n"
    "- kind: Pod\n"
    "  metadata: {name: infeasible}\n"
    "  spec: {nodeName: node-a, containers: [{name: container-1, resources: {requests: {cpu: '4'}}}]}\n"
    "  status:\n"
    "    phase: Running\n"
    "    conditions: [{type: PodResizePending, status: 'True', reason: Infeasible,\n"
    "                  message: \"Node didn't have enough capacity: cpu, requested: 4000, capacity: 3000\",\n"
    "                  lastTransitionTime: '2026-12-01T10:00:00Z'}]\n"
    "    containerStatuses: [{name: container-1, resources: {requests: {cpu: '2'}}}]\n"
    "- kind: Pod\n"
    "  metadata: {name: no-status}\n"
    "  spec: {nodeName: node-a, containers: [{name: container-1, resources: {requests: {cpu: '4'}}}]}\n"
    "  status: {phase: Running, containerStatuses: [{name: container-1, resources: {requests: {cpu: '2'}}}]}\n"
    "- kind: Pod\n"
    "  metadata: {name: three-way}\n"
    "  spec: {nodeName: node-a, containers: [{name: container-1, resources: {requests: {cpu: 30m, memory: 20M, ephemeral-storage: 10G}}}]}\n"
    "  status:\n"
    "    phase: Running\n"
    "    containerStatuses:\n"
    "    - name: container-1\n"
    "      allocatedResources: {cpu: 20m, memory: 10M, ephemeral-storage: 30G}\n"
    "      resources: {requests: {cpu: 10m, memory: 30M, ephemeral-storage: 20G}}\n"
    "- kind: Pod\n"
    "  metadata: {name: sidecar-infeasible}\n"
    "  spec: {nodeName: node-a, containers: [], initContainers: [{name: restartable-init-1, restartPolicy: Always, resources: {requests: {cpu: '4'}}}]}\n"
    "  status:\n"
    "    phase: Running\n"
    "    conditions: [{type: PodResizePending, status: 'True', reason: Infeasible}]\n"
    "    initContainerStatuses: [{name: restartable-init-1, resources: {requests: {cpu: '2'}}}]\n"
    "- kind: Pod\n"
    "  metadata: {name: sidecar}\n"
    "  spec: {nodeName: node-a, containers: [], initContainers: [{name: restartable-init-1, restartPolicy: Always, resources: {requests: {cpu: '4'}}}]}\n"
    "  status: {phase: Running, initContainerStatuses: [{name: restartable-init-1, resources: {requests: {cpu: '2'}}}]}\n"
    "- kind: Pod\n"
    "  metadata: {name: max-of-sums}\n"
    "  spec: {nodeName: node-a, containers: [{name: c1, resources: {requests: {cpu: '1'}}}, {name: c2, resources: {requests: {cpu: '2'}}}]}\n"
    "  status: {phase: Running, containerStatuses: [{name: c1, allocatedResources: {cpu: '2'}}, {name: c2, allocatedResources: {cpu: '1'}}]}\n"
    "- kind: Pod\n"
    "  metadata: {name: steady}\n"
    "  spec: {nodeName: node-a, containers: [{name: c, resources: {requests: {cpu: '1', memory: 1Gi}}}]}\n"
    "  status: {phase: Running, containerStatuses: [{name: c, allocatedResources: {cpu: '1', memory: 1Gi},\n"
    "           resources: {requests: {cpu: '1', memory: 1Gi}}}]}\n";

static void
test_scheduler_accounting (void **state)
{
  (void) state;
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (accounting);
  const FsPod *pod = pod_named (snapshot, "infeasible");
  assert_non_null (pod->resize);
  assert_int_equal (pod->resize->state, FS_RESIZE_INFEASIBLE);
  assert_int_equal (pod->resize->desired.cpu_milli, 4000);
  assert_int_equal (pod->resize->accounted.cpu_milli, 2000);
  assert_int_equal (fs_pod_request (pod)->cpu_milli, 2000);
  assert_string_equal (pod->resize->message,
                       "Node didn't have enough capacity: cpu, requested: 4000, capacity: 3000");
  assert_true (pod->resize->pending_since > 0);

  pod = pod_named (snapshot, "no-status");
  assert_non_null (pod->resize);
  assert_int_equal (pod->resize->state, FS_RESIZE_PROPOSED);
  assert_int_equal (fs_pod_request (pod)->cpu_milli, 4000);
  assert_int_equal (pod->resize->actuated.cpu_milli, 2000);

  pod = pod_named (snapshot, "three-way");
  assert_int_equal (fs_pod_request (pod)->cpu_milli, 30);
  assert_int_equal (fs_pod_request (pod)->memory_bytes, 30000000);
  assert_int_equal (fs_pod_request (pod)->ephemeral_bytes, 30000000000LL);

  assert_int_equal (fs_pod_request (pod_named (snapshot, "sidecar-infeasible"))->cpu_milli, 2000);
  assert_int_equal (fs_pod_request (pod_named (snapshot, "sidecar"))->cpu_milli, 4000);
  assert_int_equal (fs_pod_request (pod_named (snapshot, "max-of-sums"))->cpu_milli, 3000);

  /* a pod whose status agrees with its spec keeps nothing */
  pod = pod_named (snapshot, "steady");
  assert_null (pod->resize);
  assert_int_equal (fs_pod_request (pod)->cpu_milli, 1000);

  /* NodeInfo.Requested sums what the scheduler counts */
  const FsNode *node = fs_snapshot_find_node (snapshot, "node-a");
  assert_int_equal (node->requested.cpu_milli, 2000 + 4000 + 30 + 2000 + 4000 + 3000 + 1000);
}

/* A resize in progress: allocated at the new size, the old one still running; the scheduler
 * counts the larger of each (an upsize counts new, a downsize old), and the older
 * status.resize field is read where no condition is. */
static void
test_in_progress_counts_larger (void **state)
{
  (void) state;
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (
      "kind: List\n"
      "items:\n"
      "- {kind: Node, metadata: {name: node-a}, status: {allocatable: {cpu: '8', memory: 32Gi, pods: '110'}}}\n"
      "- kind: Pod\n"
      "  metadata: {name: up}\n"
      "  spec: {nodeName: node-a, containers: [{name: c, resources: {requests: {cpu: '3', memory: 2Gi}}}]}\n"
      "  status: {phase: Running, conditions: [{type: PodResizeInProgress, status: 'True'}],\n"
      "           containerStatuses: [{name: c, allocatedResources: {cpu: '3', memory: 2Gi},\n"
      "                                resources: {requests: {cpu: '1', memory: 4Gi}}}]}\n"
      "- kind: Pod\n"
      "  metadata: {name: old-field}\n"
      "  spec: {nodeName: node-a, containers: [{name: c, resources: {requests: {cpu: '1'}}}]}\n"
      "  status: {phase: Running, resize: Deferred,\n"
      "           containerStatuses: [{name: c, allocatedResources: {cpu: 500m}, resources: {requests: {cpu: 500m}}}]}\n");
  const FsPod *up = pod_named (snapshot, "up");
  assert_int_equal (up->resize->state, FS_RESIZE_IN_PROGRESS);
  assert_int_equal (fs_pod_request (up)->cpu_milli, 3000);
  assert_int_equal (fs_pod_request (up)->memory_bytes, 4 * GiB);
  assert_int_equal (fs_pod_allocated_request (up)->memory_bytes, 2 * GiB);
  const FsPod *old = pod_named (snapshot, "old-field");
  assert_int_equal (old->resize->state, FS_RESIZE_DEFERRED);
  assert_int_equal (fs_pod_request (old)->cpu_milli, 1000);
  assert_int_equal (fs_pod_allocated_request (old)->cpu_milli, 500);
  const FsNode *node = fs_snapshot_find_node (snapshot, "node-a");
  assert_int_equal (node->requested.cpu_milli, 4000);
  assert_int_equal (node->requested.memory_bytes, 4 * GiB);
}

/* spec.containers[].resizePolicy: RestartContainer per resource, in pods and templates. */
static void
test_resize_policy (void **state)
{
  (void) state;
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (
      "kind: List\n"
      "items:\n"
      "- kind: Pod\n"
      "  metadata: {name: p}\n"
      "  spec:\n"
      "    containers:\n"
      "    - {name: a, resizePolicy: [{resourceName: cpu, restartPolicy: NotRequired},\n"
      "                               {resourceName: memory, restartPolicy: RestartContainer}]}\n"
      "    - {name: b}\n"
      "- kind: Deployment\n"
      "  metadata: {name: d}\n"
      "  spec:\n"
      "    selector: {matchLabels: {app: d}}\n"
      "    template:\n"
      "      metadata: {labels: {app: d}}\n"
      "      spec: {containers: [{name: a, resizePolicy: [{resourceName: cpu, restartPolicy: RestartContainer}]}]}\n"
      "- kind: Pod\n"
      "  metadata: {name: q}\n"
      "  spec: {containers: [{name: a}, {name: b}]}\n");
  const FsPod *pod = pod_named (snapshot, "p");
  assert_int_equal (pod->spec->containers->containers[0].resize_restart, FS_RES_MEMORY);
  assert_int_equal (pod->spec->containers->containers[1].resize_restart, 0);
  /* a pod that differs only by its resize policy has a spec of its own */
  assert_ptr_not_equal (pod->spec, pod_named (snapshot, "q")->spec);
  assert_int_equal (snapshot->workloads[0].template->containers->containers[0].resize_restart, FS_RES_CPU);
}

/* ---- admission ------------------------------------------------------------------------- */

static FsNode
node_of (int64_t cpu_milli, int64_t memory_bytes)
{
  FsNode node;
  memset (&node, 0, sizeof node);
  node.name = "node";
  node.allocatable.cpu_milli = cpu_milli;
  node.allocatable.memory_bytes = memory_bytes;
  node.allocatable.pods = 110;
  node.allocatable.present = FS_RES_CPU | FS_RES_MEMORY | FS_RES_PODS;
  return node;
}

static FsResources
request_of (int64_t cpu_milli, int64_t memory_bytes)
{
  FsResources res;
  memset (&res, 0, sizeof res);
  res.cpu_milli = cpu_milli;
  res.memory_bytes = memory_bytes;
  res.present = FS_RES_CPU | FS_RES_MEMORY;
  return res;
}

/* pkg/kubelet/allocation/allocation_manager_test.go TestHandlePodResourcesResize: a node of
 * 4 cpu and 4Gi, three pods of 1 cpu and 1Gi, the first one resized. */
static void
test_handle_pod_resources_resize (void **state)
{
  (void) state;
  FsNode node = node_of (4000, 4 * GiB);
  FsResources others = request_of (2000, 2 * GiB);
  static const struct {
    const char *name;
    int64_t cpu, memory;
    FsResizeState expected;
    const char *message;
  } cases[] = {
    { "Request CPU and memory decrease - expect InProgress", 500, 500 * MiB, FS_RESIZE_IN_PROGRESS, "" },
    { "Request CPU increase, memory decrease - expect InProgress", 1500, 500 * MiB, FS_RESIZE_IN_PROGRESS, "" },
    { "Request CPU decrease, memory increase - expect InProgress", 500, 1500 * MiB, FS_RESIZE_IN_PROGRESS, "" },
    { "Request CPU and memory increase beyond current capacity - expect Deferred", 2500, 2500 * MiB,
      FS_RESIZE_DEFERRED, "" },
    { "Request CPU decrease and memory increase beyond current capacity - expect Deferred", 500, 2500 * MiB,
      FS_RESIZE_DEFERRED, "Node didn't have enough resource: memory" },
    { "Request memory increase beyond node capacity - expect Infeasible", 1000, 4500 * MiB, FS_RESIZE_INFEASIBLE,
      "Node didn't have enough capacity: memory, requested: 4718592000, capacity: 4294967296" },
    { "Request CPU increase beyond node capacity - expect Infeasible", 5000, 1000 * MiB, FS_RESIZE_INFEASIBLE,
      "Node didn't have enough capacity: cpu, requested: 5000, capacity: 4000" },
    { "Increase CPU from min shares", 1000, 0, FS_RESIZE_IN_PROGRESS, "" },
    { "Decrease CPU to min shares", 2, 0, FS_RESIZE_IN_PROGRESS, "" },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      FsResources desired = request_of (cases[i].cpu, cases[i].memory);
      FsResizeVerdict verdict;
      fs_resize_admit (&node, &desired, &others, 2, NULL, NULL, NULL, &verdict);
      if (verdict.state != cases[i].expected || strstr (verdict.message, cases[i].message) == NULL)
        fail_msg ("%s: got %s \"%s\"", cases[i].name, fs_resize_state_name (verdict.state), verdict.message);
    }
  /* the Deferred verdict names its resource and amounts, as InsufficientResourceError does */
  FsResources desired = request_of (500, 2500 * MiB);
  FsResizeVerdict verdict;
  fs_resize_admit (&node, &desired, &others, 2, NULL, NULL, NULL, &verdict);
  assert_string_equal (verdict.resource, "memory");
  assert_int_equal (verdict.used, 2 * GiB);
  assert_int_equal (verdict.capacity, 4 * GiB);
  /* "static pod, expect Infeasible" */
  FsResizeNodeConfig config = { .static_pod = TRUE };
  desired = request_of (500, 500 * MiB);
  fs_resize_admit (&node, &desired, &others, 2, NULL, NULL, &config, &verdict);
  assert_int_equal (verdict.state, FS_RESIZE_INFEASIBLE);
  assert_string_equal (verdict.message, "In-place resize of static-pods is not supported");
}

static FsContainer
container_of (const char *name, int64_t cpu, int64_t memory, gboolean limits, guint32 restart)
{
  FsContainer container;
  memset (&container, 0, sizeof container);
  container.name = name;
  container.requests = request_of (cpu, memory);
  if (limits)
    container.limits = container.requests;
  container.resize_restart = restart;
  return container;
}

/* allocation_manager_test.go TestHandlePodResourcesResizeWithSwap (handlers.go
 * disallowResizeForSwappableContainers): a memory change of a container that may swap is
 * Infeasible unless its memory resizePolicy is RestartContainer; without swap it goes ahead. */
static void
test_resize_with_swap (void **state)
{
  (void) state;
  FsNode node = node_of (4000, 4 * GiB);
  FsResources others = request_of (0, 0);
  FsContainer now = container_of ("c1", 1000, 1 * GiB, FALSE, 0);
  FsContainer smaller = container_of ("c1", 500, 500 * MiB, FALSE, 0);
  FsContainer smaller_restart = container_of ("c1", 500, 500 * MiB, FALSE, FS_RES_MEMORY);
  FsContainer now_restart = container_of ("c1", 1000, 1 * GiB, FALSE, FS_RES_MEMORY);
  FsContainerSet before = { 1, 0, &now, NULL, NULL, NULL };
  FsContainerSet before_restart = { 1, 0, &now_restart, NULL, NULL, NULL };
  FsContainerSet after = { 1, 0, &smaller, NULL, NULL, NULL };
  FsContainerSet after_restart = { 1, 0, &smaller_restart, NULL, NULL, NULL };
  FsResources desired = request_of (500, 500 * MiB);
  FsResizeVerdict verdict;
  FsResizeNodeConfig no_swap = { 0 }, swap = { .swap = TRUE };
  /* "NoSwap Request Memory decrease ResizePolicy RestartContainer - expect InProgress" */
  fs_resize_admit (&node, &desired, &others, 0, &before_restart, &after_restart, &no_swap, &verdict);
  assert_int_equal (verdict.state, FS_RESIZE_IN_PROGRESS);
  /* "LimitedSwap Request Memory decrease ResizePolicy RestartContainer - expect InProgress" */
  fs_resize_admit (&node, &desired, &others, 0, &before_restart, &after_restart, &swap, &verdict);
  assert_int_equal (verdict.state, FS_RESIZE_IN_PROGRESS);
  /* "LimitedSwap Request Memory decrease ResizePolicy NotRequired - expect Infeasible" */
  fs_resize_admit (&node, &desired, &others, 0, &before, &after, &swap, &verdict);
  assert_int_equal (verdict.state, FS_RESIZE_INFEASIBLE);
  assert_string_equal (verdict.message, "In-place resize of containers with swap is not supported.");
  /* the same without swap */
  fs_resize_admit (&node, &desired, &others, 0, &before, &after, &no_swap, &verdict);
  assert_int_equal (verdict.state, FS_RESIZE_IN_PROGRESS);
}

/* handlers.go podResizesAdmitHandler.Admit: a Guaranteed pod's cpu change under the static
 * CPU Manager policy (memory under the static Memory Manager policy) is Infeasible; a
 * Burstable pod's is not, nor a Guaranteed pod's change of the other resource. */
static void
test_static_manager_policies (void **state)
{
  (void) state;
  FsNode node = node_of (4000, 4 * GiB);
  FsResources others = request_of (0, 0);
  FsContainer now = container_of ("c", 1000, 1 * GiB, TRUE, 0);
  FsContainer more_cpu = container_of ("c", 2000, 1 * GiB, TRUE, 0);
  FsContainer burstable = container_of ("c", 2000, 1 * GiB, FALSE, 0);
  FsContainerSet before = { 1, 0, &now, NULL, NULL, NULL };
  FsContainerSet after = { 1, 0, &more_cpu, NULL, NULL, NULL };
  FsContainerSet after_burstable = { 1, 0, &burstable, NULL, NULL, NULL };
  assert_true (fs_containers_guaranteed (&after));
  assert_false (fs_containers_guaranteed (&after_burstable));
  FsResources desired = request_of (2000, 1 * GiB);
  FsResizeVerdict verdict;
  FsResizeNodeConfig cpu_static = { .cpu_manager_static = TRUE };
  FsResizeNodeConfig memory_static = { .memory_manager_static = TRUE };
  fs_resize_admit (&node, &desired, &others, 0, &before, &after, &cpu_static, &verdict);
  assert_int_equal (verdict.state, FS_RESIZE_INFEASIBLE);
  assert_string_equal (verdict.message, "Resize is infeasible for Guaranteed Pods alongside CPU Manager policy \"static\"");
  fs_resize_admit (&node, &desired, &others, 0, &before, &after_burstable, &cpu_static, &verdict);
  assert_int_equal (verdict.state, FS_RESIZE_IN_PROGRESS);
  fs_resize_admit (&node, &desired, &others, 0, &before, &after, &memory_static, &verdict);
  assert_int_equal (verdict.state, FS_RESIZE_IN_PROGRESS);
}

/* ---- the retry order ------------------------------------------------------------------- */

/* allocation_manager.go sortPendingResizes: decreases first, then priority, then Guaranteed,
 * then the longest pending, an unknown time last. */
static void
test_sort_pending_resizes (void **state)
{
  (void) state;
  FsPendingResize pending[] = {
    { .increasing = TRUE, .priority = 0, .pending_since = 100, .data = "late" },
    { .increasing = TRUE, .priority = 0, .pending_since = 0, .data = "unknown" },
    { .increasing = TRUE, .priority = 0, .pending_since = 50, .data = "early" },
    { .increasing = TRUE, .priority = 0, .guaranteed = TRUE, .pending_since = 200, .data = "guaranteed" },
    { .increasing = TRUE, .priority = 1000, .pending_since = 300, .data = "high" },
    { .increasing = FALSE, .priority = -5, .pending_since = 400, .data = "shrink" },
  };
  fs_resize_sort_pending (pending, G_N_ELEMENTS (pending));
  const char *expected[] = { "shrink", "high", "guaranteed", "early", "late", "unknown" };
  for (gsize i = 0; i < G_N_ELEMENTS (expected); i++)
    assert_string_equal (pending[i].data, expected[i]);
  FsResources small = request_of (1000, 1 * GiB), more_cpu = request_of (1500, 512 * MiB);
  assert_true (fs_resize_increases (&small, &more_cpu));
  assert_false (fs_resize_increases (&more_cpu, &more_cpu));
}

/* Containers restart for a resize only where their resizePolicy for a changed resource is
 * RestartContainer. */
static void
test_restarts (void **state)
{
  (void) state;
  FsContainer before[2] = { container_of ("a", 1000, 1 * GiB, FALSE, FS_RES_MEMORY),
                            container_of ("b", 1000, 1 * GiB, FALSE, FS_RES_CPU) };
  FsContainer after[2] = { container_of ("a", 2000, 1 * GiB, FALSE, FS_RES_MEMORY),
                           container_of ("b", 2000, 1 * GiB, FALSE, FS_RES_CPU) };
  assert_int_equal (fs_resize_restarts (before, after, 2), 1);
  after[0].requests.memory_bytes = 2 * GiB;
  assert_int_equal (fs_resize_restarts (before, after, 2), 2);
  assert_int_equal (fs_resize_restarts (before, before, 2), 0);
}

/* ---- plan: in place ------------------------------------------------------------------- */

static FsResizeTarget
target_of (const char *name, int64_t cpu, int64_t memory)
{
  FsResizeTarget target;
  memset (&target, 0, sizeof target);
  target.n = 1;
  target.names[0] = name;
  target.request[0][FS_HVPA_CPU] = cpu;
  target.request[0][FS_HVPA_MEMORY] = memory;
  return target;
}

static const FsPodResizePlan *
planned (const FsResizePlan *plan, const char *name)
{
  for (guint i = 0; i < plan->pods->len; i++)
    if (strcmp (g_array_index (plan->pods, FsPodResizePlan, i).pod->name, name) == 0)
      return &g_array_index (plan->pods, FsPodResizePlan, i);
  fail_msg ("no pod %s in the plan", name);
  return NULL;
}

/* tests/data/resize/vpa-in-place.yaml (worked out at its top): InPlaceOrRecreate evicts the
 * Deferred web-c and recreates it on node-a; InPlace leaves it Deferred. */
static void
test_plan_in_place (void **state)
{
  (void) state;
  g_autoptr (FsSnapshot) snapshot = test_load_files ("tests/data/resize/vpa-in-place.yaml", NULL);
  const FsWorkload *web = fs_snapshot_find_workload (snapshot, "shop", "Deployment", "web");
  assert_non_null (web);
  FsResizeTarget current = target_of ("app", 500, 1 * GiB), target = target_of ("app", 1500, 2 * GiB);
  g_autoptr (FsResizePlan) plan = fs_resize_plan (snapshot, web, &current, &target, TRUE);
  assert_int_equal (plan->counts[FS_RESIZE_RESIZED], 2);
  assert_int_equal (plan->counts[FS_RESIZE_EVICTED], 1);
  assert_int_equal (plan->restarts, 2);
  const FsPodResizePlan *c = planned (plan, "web-c");
  assert_int_equal (c->verdict.state, FS_RESIZE_DEFERRED);
  assert_string_equal (c->verdict.message, "Node didn't have enough resource: cpu, requested: 1500, used: 3000, capacity: 4000");
  assert_non_null (c->placed_on);
  assert_string_equal (c->placed_on->name, "node-a");
  /* the largest step every pod takes: cpu up to 1000m on node-c */
  assert_true (plan->has_largest);
  assert_int_equal (plan->largest.request[0][FS_HVPA_CPU], 1000);

  g_autoptr (FsResizePlan) waits = fs_resize_plan (snapshot, web, &current, &target, FALSE);
  assert_int_equal (waits->counts[FS_RESIZE_LEFT_DEFERRED], 1);
  assert_int_equal (waits->counts[FS_RESIZE_EVICTED], 0);
  assert_null (planned (waits, "web-c")->placed_on);

  /* a target above every node's allocatable: Infeasible everywhere, recreated nowhere */
  FsResizeTarget huge = target_of ("app", 5000, 1 * GiB);
  g_autoptr (FsResizePlan) never = fs_resize_plan (snapshot, web, &current, &huge, TRUE);
  assert_int_equal (never->counts[FS_RESIZE_EVICTED], 3);
  assert_int_equal (never->unplaced, 3);
  assert_int_equal (planned (never, "web-a")->verdict.state, FS_RESIZE_INFEASIBLE);
}

/* The kubelet's retry order on one node: a shrink is admitted first and makes room for a
 * growth that would be Deferred before it (retryPendingResizes, sortPendingResizes); the
 * patches are ordered so, the shrink first. */
static void
test_plan_frees_room_first (void **state)
{
  (void) state;
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (
      "kind: List\n"
      "items:\n"
      "- {kind: Node, metadata: {name: node-a}, status: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}}}\n"
      "- kind: Deployment\n"
      "  metadata: {name: web}\n"
      "  spec: {replicas: 2, selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}},\n"
      "         spec: {containers: [{name: app, resources: {requests: {cpu: '1'}}}]}}}\n"
      "- {kind: Pod, metadata: {name: web-small, labels: {app: web}}, status: {phase: Running},\n"
      "   spec: {nodeName: node-a, containers: [{name: app, resources: {requests: {cpu: 500m}}}]}}\n"
      "- {kind: Pod, metadata: {name: web-big, labels: {app: web}}, status: {phase: Running},\n"
      "   spec: {nodeName: node-a, containers: [{name: app, resources: {requests: {cpu: '3'}}}]}}\n");
  const FsWorkload *web = fs_snapshot_find_workload (snapshot, "default", "Deployment", "web");
  FsResizeTarget current = target_of ("app", 1000, 0), target = target_of ("app", 2000, 0);
  g_autoptr (FsResizePlan) plan = fs_resize_plan (snapshot, web, &current, &target, TRUE);
  assert_int_equal (plan->counts[FS_RESIZE_RESIZED], 2);
  assert_string_equal (g_array_index (plan->pods, FsPodResizePlan, 0).pod->name, "web-big");
  assert_string_equal (g_array_index (plan->pods, FsPodResizePlan, 1).pod->name, "web-small");
}

/* why: tests/data/resize/why-resize.yaml. */
static void
test_resize_diagnosis (void **state)
{
  (void) state;
  g_autoptr (FsSnapshot) snapshot = test_load_files ("tests/data/resize/why-resize.yaml", NULL);
  g_autoptr (FsResizeDiagnosis) deferred
      = fs_resize_diagnose (snapshot, fs_snapshot_find_pod (snapshot, "app", "api-0"));
  assert_non_null (deferred);
  assert_int_equal (deferred->verdict.state, FS_RESIZE_DEFERRED);
  assert_int_equal (deferred->shortfall.cpu_milli, 2000);
  assert_string_equal (deferred->move->name, "cache-0");
  assert_string_equal (deferred->move_to->name, "node-f");
  assert_false (deferred->has_fit_request);
  g_autoptr (FsResizeDiagnosis) infeasible
      = fs_resize_diagnose (snapshot, fs_snapshot_find_pod (snapshot, "app", "big-0"));
  assert_int_equal (infeasible->verdict.state, FS_RESIZE_INFEASIBLE);
  assert_int_equal (infeasible->nodes_that_fit->len, 2);
  assert_null (fs_resize_diagnose (snapshot, fs_snapshot_find_pod (snapshot, "app", "cache-0")));
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_scheduler_accounting),
    cmocka_unit_test (test_in_progress_counts_larger),
    cmocka_unit_test (test_resize_policy),
    cmocka_unit_test (test_handle_pod_resources_resize),
    cmocka_unit_test (test_resize_with_swap),
    cmocka_unit_test (test_static_manager_policies),
    cmocka_unit_test (test_sort_pending_resizes),
    cmocka_unit_test (test_restarts),
    cmocka_unit_test (test_plan_in_place),
    cmocka_unit_test (test_plan_frees_room_first),
    cmocka_unit_test (test_resize_diagnosis),
  };
  return cmocka_run_group_tests (tests, NULL, NULL);
}
