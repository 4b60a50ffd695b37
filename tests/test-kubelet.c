/* What a bound pod waits for (src/model/kubelet.c) and what the decoder keeps of its status
 * (src/kube): kubelet admission rejections as pkg/kubelet/lifecycle/predicate.go
 * (predicateAdmitHandler.Admit) and pkg/kubelet/kubelet.go (rejectPod) write them, container
 * waiting reasons, volume events, and the node; and the resource claims DynamicResources
 * reads, which fitscale counts and warns of (src/plan/completeness.c). */
#include "config.h"

#include "testutil.h"
#include "fitscale/model/kubelet.h"
#include "fitscale/plan/completeness.h"

static const FsPod *
pod_named (const FsSnapshot *snapshot, const char *name)
{
  const FsPod *pod = fs_snapshot_find_pod (snapshot, "default", name);
  assert_non_null (pod);
  return pod;
}

/* predicate.go: the reasons Admit returns (OutOfCPU "OutOfcpu", InsufficientResourcePrefix +
 * an extended resource, the reason constants, generalFilter's predicate names); anything a pod
 * fails with after admission (Evicted, DeadlineExceeded) is not one.  The failing cases of
 * pkg/kubelet/lifecycle/predicate_test.go TestGeneralPredicates, as Admit names their first
 * reason: "not enough cpu and memory resource" (InsufficientResourceError cpu: OutOfcpu),
 * "host not match" (nodename.Name), "hostport conflict" (nodeports.Name), "NoExecute
 * taint/toleration not match" (tainttoleration.Name), and the node affinity cases
 * (nodeaffinity.Name). */
static void
test_admission_reasons (void **state)
{
  const char *general_predicates[] = { "OutOfcpu", "NodeName", "NodePorts", "TaintToleration", "NodeAffinity" };
  for (gsize i = 0; i < G_N_ELEMENTS (general_predicates); i++)
    assert_true (fs_kubelet_admission_reason (general_predicates[i]));
  const char *rejections[] = { "OutOfcpu", "OutOfmemory", "OutOfpods", "OutOfephemeral-storage",
                               "OutOfnvidia.com/gpu", "NodeAffinity", "NodePorts", "TaintToleration",
                               "UnexpectedAdmissionError", "PodOSNotSupported", "InvalidNodeInfo" };
  for (gsize i = 0; i < G_N_ELEMENTS (rejections); i++)
    assert_true (fs_kubelet_admission_reason (rejections[i]));
  const char *others[] = { "Evicted", "DeadlineExceeded", "OutOf", "Terminated", "" };
  for (gsize i = 0; i < G_N_ELEMENTS (others); i++)
    assert_false (fs_kubelet_admission_reason (others[i]));
  assert_false (fs_kubelet_admission_reason (NULL));
}

static const char *const bound_pods =
    "{\"kind\":\"List\",\"items\":["
    "{\"kind\":\"Node\",\"metadata\":{\"name\":\"a\"},\"status\":{\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}},"
    /* ImagePullBackOff, its scheduling time from PodScheduled */
    "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"pull\"},\"spec\":{\"nodeName\":\"a\",\"containers\":[{\"name\":\"web\"},{\"name\":\"side\"}]},"
    " \"status\":{\"phase\":\"Pending\",\"conditions\":["
    "   {\"type\":\"PodScheduled\",\"status\":\"True\",\"lastTransitionTime\":\"2026-12-01T10:00:00Z\"},"
    "   {\"type\":\"PodReadyToStartContainers\",\"status\":\"True\"},{\"type\":\"ContainersReady\",\"status\":\"False\"}],"
    "  \"containerStatuses\":[{\"name\":\"side\",\"state\":{\"running\":{\"startedAt\":\"2026-12-01T10:00:02Z\"}}},"
    "   {\"name\":\"web\",\"state\":{\"waiting\":{\"reason\":\"ImagePullBackOff\",\"message\":\"Back-off pulling image\"}}}]}},"
    /* rejected: Failed, OutOfcpu */
    "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"big\"},\"spec\":{\"nodeName\":\"a\",\"containers\":[{\"name\":\"c\"}]},"
    " \"status\":{\"phase\":\"Failed\",\"reason\":\"OutOfcpu\",\"message\":\"Pod was rejected: Node didn't have enough resource: cpu\"}},"
    /* a sidecar running, then a failed init container, then one waiting */
    "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"init\"},\"spec\":{\"nodeName\":\"a\",\"containers\":[{\"name\":\"app\"}]},"
    " \"status\":{\"phase\":\"Pending\",\"initContainerStatuses\":["
    "   {\"name\":\"proxy\",\"state\":{\"running\":{\"startedAt\":\"2026-12-01T10:00:02Z\"}}},"
    "   {\"name\":\"migrate\",\"state\":{\"terminated\":{\"exitCode\":1,\"reason\":\"Error\"}}},"
    "   {\"name\":\"seed\",\"state\":{\"waiting\":{\"reason\":\"PodInitializing\"}}}]}},"
    /* Running: nothing kept */
    "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"up\"},\"spec\":{\"nodeName\":\"a\",\"containers\":[{\"name\":\"c\"}]},"
    " \"status\":{\"phase\":\"Running\",\"reason\":\"x\",\"containerStatuses\":[{\"name\":\"c\",\"state\":{\"waiting\":{\"reason\":\"CrashLoopBackOff\"}}}]}},"
    /* not bound: nothing kept */
    "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"free\"},\"spec\":{\"containers\":[{\"name\":\"c\"}]},\"status\":{\"phase\":\"Pending\"}}"
    "]}";

static void
test_decode_kubelet_status (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (bound_pods);
  const FsPodKubeletStatus *pull = pod_named (snapshot, "pull")->kubelet;
  assert_non_null (pull);
  assert_int_equal (pull->scheduled_time, 1796119200); /* 2026-12-01T10:00:00Z */
  assert_string_equal (pull->container.name, "web");
  assert_int_equal (pull->container.state, FS_CONTAINER_WAITING);
  assert_string_equal (pull->container.reason, "ImagePullBackOff");
  assert_string_equal (pull->container.message, "Back-off pulling image");
  assert_int_equal (pull->running, 1);
  assert_int_equal (pull->ready_to_start, FS_CONDITION_TRUE);
  assert_int_equal (pull->containers_ready, FS_CONDITION_FALSE);
  assert_int_equal (pull->initialized, FS_CONDITION_ABSENT);

  const FsPodKubeletStatus *big = pod_named (snapshot, "big")->kubelet;
  assert_string_equal (big->reason, "OutOfcpu");
  assert_string_equal (big->message, "Pod was rejected: Node didn't have enough resource: cpu");
  assert_null (big->container.name);

  /* the failed init container, not the running sidecar before it nor the one after it */
  const FsPodKubeletStatus *init = pod_named (snapshot, "init")->kubelet;
  assert_string_equal (init->init.name, "migrate");
  assert_int_equal (init->init.state, FS_CONTAINER_TERMINATED);
  assert_int_equal (init->init.exit_code, 1);
  assert_string_equal (init->init.reason, "Error");

  assert_null (pod_named (snapshot, "up")->kubelet);
  assert_null (pod_named (snapshot, "free")->kubelet);
}

static void
test_wait_from_status (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (bound_pods);
  const FsNode *a = fs_snapshot_find_node (snapshot, "a");
  FsKubeletWait wait;
  fs_kubelet_wait (pod_named (snapshot, "pull"), a, NULL, &wait);
  assert_int_equal (wait.kind, FS_KUBELET_IMAGE_PULL);
  assert_string_equal (wait.reason, "ImagePullBackOff");
  assert_string_equal (wait.container, "web");
  assert_string_equal (fs_kubelet_wait_name (wait.kind), "ImagePull");
  fs_kubelet_wait (pod_named (snapshot, "big"), a, NULL, &wait);
  assert_int_equal (wait.kind, FS_KUBELET_REJECTED);
  assert_string_equal (wait.reason, "OutOfcpu");
  assert_string_equal (fs_kubelet_wait_name (wait.kind), "AdmissionRejected");
  /* a failed pod is decided by its status even when its node is gone */
  fs_kubelet_wait (pod_named (snapshot, "big"), NULL, NULL, &wait);
  assert_int_equal (wait.kind, FS_KUBELET_REJECTED);
  fs_kubelet_wait (pod_named (snapshot, "init"), a, NULL, &wait);
  assert_int_equal (wait.kind, FS_KUBELET_CRASH_LOOP);
  assert_string_equal (wait.container, "migrate");
  assert_true (wait.init_container);
  fs_kubelet_wait (pod_named (snapshot, "up"), a, NULL, &wait);
  assert_int_equal (wait.kind, FS_KUBELET_RUNNING);
}

/* The order the rule reads a pod with hand-made parts: a failure a container reports, then a
 * volume or sandbox event, then the node, then how far the kubelet got. */
static void
test_wait_precedence (void **state)
{
  FsNode ready = { .name = "a", .flags = FS_NODE_READY | FS_NODE_READY_KNOWN };
  FsNode not_ready = { .name = "b", .flags = FS_NODE_READY_KNOWN };
  FsNode unknown = { .name = "c" };
  FsPodKubeletStatus status = { 0 };
  FsPod pod = { .namespace = "default", .name = "p", .node_name = "a", .phase = FS_PHASE_PENDING,
                .kubelet = &status };
  FsEvent mount = { .reason = "FailedMount", .message = "MountVolume.SetUp failed" };
  FsKubeletWait wait;

  /* nothing reported: the node decides, then "unreported" */
  fs_kubelet_wait (&pod, NULL, NULL, &wait);
  assert_int_equal (wait.kind, FS_KUBELET_NODE_MISSING);
  fs_kubelet_wait (&pod, &not_ready, NULL, &wait);
  assert_int_equal (wait.kind, FS_KUBELET_NODE_NOT_READY);
  fs_kubelet_wait (&pod, &unknown, NULL, &wait); /* no Ready condition: not taken as NotReady */
  assert_int_equal (wait.kind, FS_KUBELET_UNREPORTED);
  fs_kubelet_wait (&pod, &ready, NULL, &wait);
  assert_int_equal (wait.kind, FS_KUBELET_UNREPORTED);

  /* ContainerCreating with a FailedMount event: the volume */
  status.container = (FsContainerStatus){ .name = "db", .state = FS_CONTAINER_WAITING, .reason = "ContainerCreating" };
  fs_kubelet_wait (&pod, &ready, &mount, &wait);
  assert_int_equal (wait.kind, FS_KUBELET_VOLUME);
  assert_string_equal (wait.reason, "FailedMount");
  assert_ptr_equal (wait.event, &mount);
  fs_kubelet_wait (&pod, &ready, NULL, &wait);
  assert_int_equal (wait.kind, FS_KUBELET_CONTAINER_CREATING);
  /* the sandbox not ready yet (PodReadyToStartContainers False) comes before creation */
  status.ready_to_start = FS_CONDITION_FALSE;
  fs_kubelet_wait (&pod, &ready, NULL, &wait);
  assert_int_equal (wait.kind, FS_KUBELET_SANDBOX);
  status.ready_to_start = FS_CONDITION_TRUE;

  /* a failure the container reports wins over the event and over a NotReady node */
  const struct { const char *reason; FsKubeletWaitKind kind; } waiting[] = {
    { "ImagePullBackOff", FS_KUBELET_IMAGE_PULL }, { "ErrImagePull", FS_KUBELET_IMAGE_PULL },
    { "InvalidImageName", FS_KUBELET_IMAGE_PULL }, { "CrashLoopBackOff", FS_KUBELET_CRASH_LOOP },
    { "CreateContainerConfigError", FS_KUBELET_CONTAINER_CONFIG },
    { "CreateContainerError", FS_KUBELET_CONTAINER_ERROR }, { "RunContainerError", FS_KUBELET_CONTAINER_ERROR },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (waiting); i++)
    {
      status.container.reason = waiting[i].reason;
      fs_kubelet_wait (&pod, &not_ready, &mount, &wait);
      assert_int_equal (wait.kind, waiting[i].kind);
      assert_string_equal (wait.reason, waiting[i].reason);
      assert_false (wait.init_container);
    }

  /* an init container running: it waits for it */
  status.container = (FsContainerStatus){ .name = "app", .state = FS_CONTAINER_WAITING, .reason = "PodInitializing" };
  status.init = (FsContainerStatus){ .name = "migrate", .state = FS_CONTAINER_RUNNING };
  status.initialized = FS_CONDITION_FALSE;
  fs_kubelet_wait (&pod, &ready, NULL, &wait);
  assert_int_equal (wait.kind, FS_KUBELET_INIT_CONTAINER);
  assert_string_equal (wait.container, "migrate");

  /* Failed: admission (by reason, or by rejectPod's message prefix) or a later failure */
  pod.phase = FS_PHASE_FAILED;
  status.reason = "OutOfpods";
  fs_kubelet_wait (&pod, &ready, NULL, &wait);
  assert_int_equal (wait.kind, FS_KUBELET_REJECTED);
  status.reason = "SomethingNew";
  status.message = "Pod was rejected: a new admit handler";
  fs_kubelet_wait (&pod, &ready, NULL, &wait);
  assert_int_equal (wait.kind, FS_KUBELET_REJECTED);
  status.reason = "Evicted";
  status.message = "The node was low on resource: memory.";
  fs_kubelet_wait (&pod, &ready, NULL, &wait);
  assert_int_equal (wait.kind, FS_KUBELET_FAILED);
  assert_string_equal (wait.reason, "Evicted");
}

/* The latest volume or sandbox event naming the pod; FailedScheduling and other pods' are not. */
static void
test_kubelet_event (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (
      "{\"kind\":\"List\",\"items\":["
      "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"db\"},\"spec\":{\"nodeName\":\"a\",\"containers\":[{\"name\":\"c\"}]},\"status\":{\"phase\":\"Pending\"}},"
      "{\"kind\":\"Event\",\"metadata\":{\"name\":\"e1\"},\"involvedObject\":{\"kind\":\"Pod\",\"namespace\":\"default\",\"name\":\"db\"},"
      " \"reason\":\"FailedAttachVolume\",\"message\":\"attach\",\"lastTimestamp\":\"2026-12-01T10:00:00Z\"},"
      "{\"kind\":\"Event\",\"metadata\":{\"name\":\"e2\"},\"involvedObject\":{\"kind\":\"Pod\",\"namespace\":\"default\",\"name\":\"db\"},"
      " \"reason\":\"FailedMount\",\"message\":\"mount\",\"lastTimestamp\":\"2026-12-01T10:05:00Z\"},"
      "{\"kind\":\"Event\",\"metadata\":{\"name\":\"e3\"},\"involvedObject\":{\"kind\":\"Pod\",\"namespace\":\"default\",\"name\":\"db\"},"
      " \"reason\":\"FailedScheduling\",\"message\":\"0/1\",\"lastTimestamp\":\"2026-12-01T10:09:00Z\"},"
      "{\"kind\":\"Event\",\"metadata\":{\"name\":\"e4\"},\"involvedObject\":{\"kind\":\"Pod\",\"namespace\":\"default\",\"name\":\"other\"},"
      " \"reason\":\"FailedMount\",\"message\":\"other\",\"lastTimestamp\":\"2026-12-01T10:09:00Z\"}"
      "]}");
  const FsEvent *event = fs_kubelet_event (snapshot, pod_named (snapshot, "db"));
  assert_non_null (event);
  assert_string_equal (event->message, "mount");
}

/* spec.resourceClaims (or only the containers' resources.claims) is counted into the spec, and
 * two specs that differ only by it are two specs. */
static void
test_resource_claims (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (
      "{\"kind\":\"List\",\"items\":["
      "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"plain\"},\"spec\":{\"containers\":[{\"name\":\"c\"}]}},"
      "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"dra\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":{\"claims\":[{\"name\":\"gpu\"}]}}],"
      "  \"resourceClaims\":[{\"name\":\"gpu\",\"resourceClaimTemplateName\":\"gpu\"},{\"name\":\"nic\",\"resourceClaimName\":\"nic\"}]}},"
      "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"ctr\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":{\"claims\":[{\"name\":\"gpu\"}]}}]}}"
      "]}");
  const FsPod *plain = pod_named (snapshot, "plain"), *dra = pod_named (snapshot, "dra"), *ctr = pod_named (snapshot, "ctr");
  assert_int_equal (plain->spec->n_resource_claims, 0);
  assert_int_equal (dra->spec->n_resource_claims, 2);
  assert_int_equal (ctr->spec->n_resource_claims, 1);
  assert_ptr_not_equal (plain->spec, ctr->spec);

  g_autoptr (GArray) warnings = fs_snapshot_warnings (snapshot, 0);
  fs_pod_spec_warnings (plain->spec, "pod default/plain", warnings);
  assert_int_equal (warnings->len, 0);
  fs_pod_spec_warnings (dra->spec, "pod default/dra", warnings);
  assert_int_equal (warnings->len, 1);
  const FsWarning *warning = &g_array_index (warnings, FsWarning, 0);
  assert_int_equal (warning->kind, FS_WARNING_UNMODELLED_FILTER);
  assert_string_equal (fs_warning_reason (warning->kind), "UnmodelledFilter");
  assert_non_null (strstr (warning->text, "pod default/dra has 2 resource claims"));
  assert_non_null (strstr (warning->text, "DynamicResources"));
  g_autoptr (GPtrArray) filters = g_ptr_array_new ();
  fs_pod_spec_unmodelled_filters (dra->spec, filters);
  assert_int_equal (filters->len, 1);
  assert_string_equal (filters->pdata[0], "DynamicResources");
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_admission_reasons),
    cmocka_unit_test (test_decode_kubelet_status),
    cmocka_unit_test (test_wait_from_status),
    cmocka_unit_test (test_wait_precedence),
    cmocka_unit_test (test_kubelet_event),
    cmocka_unit_test (test_resource_claims),
  };
  return cmocka_run_group_tests (tests, NULL, NULL);
}
