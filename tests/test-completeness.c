/* What a snapshot lacks (src/plan/completeness.c), on the real fixtures whose gaps made
 * fitscale confidently wrong: pods bound to nodes a pod list does not carry, nodes without
 * pods, the pods of one namespace. */
#include "config.h"

#include "testutil.h"
#include "fitscale/kube/client.h"
#include "fitscale/model/daemon.h"
#include "fitscale/plan/completeness.h"

#define ALL_NEEDS (FS_NEEDS_NODES | FS_NEEDS_NODE_USAGE)

static const FsWarning *
warning_at (GArray *warnings, guint i)
{
  return &g_array_index (warnings, FsWarning, i);
}

static void
test_pods_without_their_nodes (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_files ("tests/fixtures/real/eks-arm64-podlist.json", NULL);
  g_autoptr (GArray) warnings = fs_snapshot_warnings (snapshot, ALL_NEEDS);
  assert_int_equal (warnings->len, 2);
  assert_int_equal (warning_at (warnings, 0)->kind, FS_WARNING_NO_NODES);
  assert_string_equal (fs_warning_reason (warning_at (warnings, 0)->kind), "NoNodes");
  const FsWarning *missing = warning_at (warnings, 1);
  assert_int_equal (missing->kind, FS_WARNING_PODS_ON_MISSING_NODES);
  /* the node names the pods are bound to, as the list carries them */
  for (guint i = 0; i < snapshot->n_pods; i++)
    if (snapshot->pods[i].node_name != NULL)
      assert_non_null (strstr (missing->text, snapshot->pods[i].node_name));
  /* a question that reads no node (hpa, hvpa) is not warned */
  g_autoptr (GArray) none = fs_snapshot_warnings (snapshot, 0);
  assert_int_equal (none->len, 0);
}

static void
test_nodes_without_pods (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_files ("tests/fixtures/real/k3s-1node-nodes.json", NULL);
  g_autoptr (GArray) warnings = fs_snapshot_warnings (snapshot, ALL_NEEDS);
  assert_int_equal (warnings->len, 1);
  assert_int_equal (warning_at (warnings, 0)->kind, FS_WARNING_NO_PODS);
  /* placement alone (the nodes) is complete */
  g_autoptr (GArray) placement = fs_snapshot_warnings (snapshot, FS_NEEDS_NODES);
  assert_int_equal (placement->len, 0);
}

static void
test_one_namespace_of_pods (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_files (
      "tests/fixtures/real/k3s-1node-nodes.json", "tests/fixtures/real/k3s-1node-pods-default-pending.json", NULL);
  g_autoptr (GArray) warnings = fs_snapshot_warnings (snapshot, ALL_NEEDS);
  assert_int_equal (warnings->len, 1);
  const FsWarning *warning = warning_at (warnings, 0);
  assert_int_equal (warning->kind, FS_WARNING_NAMESPACES_MISSING);
  assert_non_null (strstr (warning->text, "1 namespace (default)"));
  assert_non_null (strstr (warning->text, "kubectl get pods -A"));
}

/* The k3s pods were listed namespace by namespace (SOURCES.md): two PodLists of one
 * namespace each, and no list of all: NamespacedList names both. */
static void
test_namespace_lists_are_named (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_files (
      "tests/fixtures/real/k3s-1node-nodes.json", "tests/fixtures/real/k3s-1node-pods-default-pending.json",
      "tests/fixtures/real/k3s-1node-pods-kube-system.json", NULL);
  g_autoptr (GArray) warnings = fs_snapshot_warnings (snapshot, ALL_NEEDS);
  assert_int_equal (warnings->len, 1);
  const FsWarning *warning = warning_at (warnings, 0);
  assert_int_equal (warning->kind, FS_WARNING_NAMESPACED_LIST);
  assert_string_equal (fs_warning_reason (warning->kind), "NamespacedList");
  assert_non_null (strstr (warning->text, "Lists of one namespace's pods each, default ("));
  assert_non_null (strstr (warning->text, "k3s-1node-pods-default-pending.json, by its items), kube-system ("));
}

/* A List whose selfLink names a namespace came from that namespace's query, even when it is
 * empty; a List of two namespaces' pods is of all of them, and silences the warning. */
static void
test_self_link_names_the_namespace (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (
      "{\"kind\":\"List\",\"items\":[{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\"},"
      "\"status\":{\"allocatable\":{\"cpu\":\"1\"}}},"
      "{\"kind\":\"PodList\",\"metadata\":{\"selfLink\":\"/api/v1/namespaces/shop/pods\"},\"items\":[]},"
      "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"kube-system\"},"
      "\"spec\":{\"nodeName\":\"n1\",\"containers\":[]},\"status\":{\"phase\":\"Running\"}}]}");
  g_autoptr (GArray) warnings = fs_snapshot_warnings (snapshot, ALL_NEEDS);
  assert_int_equal (warnings->len, 1);
  assert_int_equal (warning_at (warnings, 0)->kind, FS_WARNING_NAMESPACED_LIST);
  assert_non_null (strstr (warning_at (warnings, 0)->text, "shop (test-input, by its selfLink), kube-system (test-input, by its items)"));
  g_autoptr (FsSnapshot) whole = test_load_valid_text (
      "{\"kind\":\"List\",\"items\":["
      "{\"kind\":\"PodList\",\"metadata\":{\"selfLink\":\"/api/v1/namespaces/shop/pods\"},\"items\":[]},"
      "{\"kind\":\"PodList\",\"items\":[{\"metadata\":{\"name\":\"a\",\"namespace\":\"kube-system\"},"
      "\"spec\":{\"containers\":[]}},{\"metadata\":{\"name\":\"b\",\"namespace\":\"shop\"},"
      "\"spec\":{\"containers\":[]}}]}]}");
  g_autoptr (GArray) none = fs_snapshot_warnings (whole, FS_NEEDS_NODE_USAGE);
  assert_int_equal (none->len, 0);
}

/* A snapshot written as documents (no List), complete: nothing to warn of. */
static void
test_whole_cluster_is_not_warned (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_files ("tests/data/hostport.yaml", NULL);
  g_autoptr (GArray) warnings = fs_snapshot_warnings (snapshot, ALL_NEEDS);
  assert_int_equal (warnings->len, 0);
}

/* tests/data/completeness.yaml: node-agent should run on n1 and n3 (not n2, tainted for
 * another pool) and has a pod on n1 only; gpu-agent runs where it should. */
static void
test_daemon_pods_missing (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_files ("tests/data/completeness.yaml", NULL);
  g_autoptr (GArray) warnings = fs_snapshot_warnings (snapshot, ALL_NEEDS);
  assert_int_equal (warnings->len, 2);
  const FsWarning *warning = warning_at (warnings, 0);
  assert_int_equal (warning->kind, FS_WARNING_DAEMON_PODS_MISSING);
  assert_string_equal (fs_warning_reason (warning->kind), "DaemonPodsMissing");
  assert_string_equal (warning->text,
                       "DaemonSet kube-system/node-agent has no pod on 1 node where it should run (n3): what its "
                       "pods reserve there is not counted; give every node's pods (kubectl get pods -A -o json)");
  /* placement alone does not read what pods reserve */
  g_autoptr (GArray) placement = fs_snapshot_warnings (snapshot, FS_NEEDS_NODES);
  assert_int_equal (placement->len, 0);
}

/* The daemon controller's rule (daemon_controller.go NodeShouldRunDaemonPod), through a pod
 * it made, pinned to its node: node affinity and the nodeSelector as on the template, untolerated
 * NoSchedule and NoExecute taints.  Cases after TestNodeShouldRunDaemonPod
 * (pkg/controller/daemon/daemon_controller_test.go): "ShouldRunDaemonPod", the node selector
 * that does not match, the untolerated taint, and the tolerated one. */
static void
test_daemon_should_run (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_files ("tests/data/completeness.yaml", NULL);
  const FsPod *node_agent = fs_snapshot_find_pod (snapshot, "kube-system", "node-agent-x7k2p");
  const FsPod *gpu_agent = fs_snapshot_find_pod (snapshot, "kube-system", "gpu-agent-q9w4z");
  const FsNode *n1 = fs_snapshot_find_node (snapshot, "n1");
  const FsNode *n2 = fs_snapshot_find_node (snapshot, "n2");
  const FsNode *n3 = fs_snapshot_find_node (snapshot, "n3");
  assert_true (fs_daemon_should_run (n1, node_agent));   /* its own node: the pin matches */
  assert_true (fs_daemon_should_run (n3, node_agent));   /* another node: the pin moves with it */
  assert_false (fs_daemon_should_run (n2, node_agent));  /* dedicated=gpu:NoSchedule not tolerated */
  assert_true (fs_daemon_should_run (n2, gpu_agent));    /* tolerated, and its selector matches */
  assert_false (fs_daemon_should_run (n1, gpu_agent));   /* nodeSelector pool=gpu does not match */
  assert_false (fs_daemon_should_run (n3, gpu_agent));
}

/* A daemon pod not yet scheduled (Pending, no nodeName) is for the node its affinity pins it
 * to: n3 then has node-agent's pod, and nothing is missing there. */
static void
test_pending_daemon_pod_counts (void **state)
{
  g_autofree char *path = test_path ("tests/data/completeness.yaml");
  g_autofree char *text = NULL;
  assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_autofree char *with_pending = g_strconcat (
      text, "---\nkind: Pod\nmetadata: {name: node-agent-pending, namespace: kube-system, ownerReferences: "
      "[{kind: DaemonSet, name: node-agent, controller: true}]}\nspec: {affinity: {nodeAffinity: "
      "{requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchFields: [{key: metadata.name, "
      "operator: In, values: [n3]}]}]}}}, containers: []}\nstatus: {phase: Pending}\n", NULL);
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (with_pending);
  const FsPod *pending = fs_snapshot_find_pod (snapshot, "kube-system", "node-agent-pending");
  assert_string_equal (fs_daemon_pod_node (pending), "n3");
  g_autoptr (GArray) warnings = fs_snapshot_warnings (snapshot, ALL_NEEDS);
  assert_int_equal (warnings->len, 1);
  assert_int_equal (warning_at (warnings, 0)->kind, FS_WARNING_WORKLOAD_PODS_MISSING);
}

/* TestNodeShouldRunDaemonPod (pkg/controller/daemon/daemon_controller_test.go), shouldRun:
 * the node "test-node" labelled {name: simple-daemon, type: production} with 100M and 1 cpu;
 * each DaemonSet's pod as the controller made it for another node ("elsewhere": pinned there,
 * in each required term).  Resources and host ports do not decide (the scheduler does);
 * ErrPodNotMatchHostName (a template's spec.nodeName) is not ported: a pod's nodeName is its
 * node's. */
static const char daemon_cases[] =
    "kind: Node\nmetadata: {name: test-node, labels: {name: simple-daemon, type: production}}\n"
    "status: {allocatable: {cpu: '1', memory: 100M, pods: '100'}}\n"
    "---\nkind: Node\nmetadata: {name: cordoned, labels: {name: simple-daemon, type: production}}\n"
    "spec: {unschedulable: true}\nstatus: {allocatable: {cpu: '1', memory: 100M, pods: '100'}}\n"
#define PIN "{matchFields: [{key: metadata.name, operator: In, values: [elsewhere]}]}"
#define DAEMON_POD(NAME, SPEC)                                                                   \
    "---\nkind: Pod\nmetadata: {name: " NAME ", namespace: kube-system, ownerReferences: "       \
    "[{kind: DaemonSet, name: " NAME ", controller: true}]}\nspec: {nodeName: elsewhere, " SPEC "}\n"
    DAEMON_POD ("resources", "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
                "{nodeSelectorTerms: [" PIN "]}}}, containers: [{name: c, resources: {requests: {cpu: 500m, memory: 50M}}}]")
    DAEMON_POD ("insufficient", "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
                "{nodeSelectorTerms: [" PIN "]}}}, containers: [{name: c, resources: {requests: {cpu: 500m, memory: 200M}}}]")
    DAEMON_POD ("hostport", "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
                "{nodeSelectorTerms: [" PIN "]}}}, containers: [{name: c, ports: [{containerPort: 666, hostPort: 666}]}]")
    DAEMON_POD ("selector-test", "nodeSelector: {name: simple-daemon, type: test}, affinity: {nodeAffinity: "
                "{requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [" PIN "]}}}, containers: []")
    DAEMON_POD ("selector-production", "nodeSelector: {name: simple-daemon, type: production}, affinity: {nodeAffinity: "
                "{requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [" PIN "]}}}, containers: []")
    DAEMON_POD ("affinity-test", "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
                "{nodeSelectorTerms: [{matchExpressions: [{key: type, operator: In, values: [test]}], "
                "matchFields: [{key: metadata.name, operator: In, values: [elsewhere]}]}]}}}, containers: []")
    DAEMON_POD ("affinity-production", "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
                "{nodeSelectorTerms: [{matchExpressions: [{key: type, operator: In, values: [production]}], "
                "matchFields: [{key: metadata.name, operator: In, values: [elsewhere]}]}]}}}, containers: []");
#undef PIN
#undef DAEMON_POD

static void
test_node_should_run_daemon_pod (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (daemon_cases);
  const FsNode *node = fs_snapshot_find_node (snapshot, "test-node");
  const FsNode *cordoned = fs_snapshot_find_node (snapshot, "cordoned");
  static const struct { const char *pod; gboolean should_run; } cases[] = {
    { "resources", TRUE },            /* ShouldRunDaemonPod */
    { "insufficient", TRUE },         /* InsufficientResourceError: shouldRun all the same */
    { "hostport", TRUE },             /* ErrPodNotFitsHostPorts: shouldRun all the same */
    { "selector-test", FALSE },       /* ErrNodeSelectorNotMatch */
    { "selector-production", TRUE },  /* ShouldRunDaemonPod (nodeSelector) */
    { "affinity-test", FALSE },       /* ErrPodAffinityNotMatch */
    { "affinity-production", TRUE },  /* ShouldRunDaemonPod (node affinity) */
  };
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const FsPod *pod = fs_snapshot_find_pod (snapshot, "kube-system", cases[i].pod);
      assert_non_null (pod);
      if (fs_daemon_should_run (node, pod) != cases[i].should_run)
        fail_msg ("%s: shouldRun %d", cases[i].pod, !cases[i].should_run);
    }
  /* ShouldRunDaemonPodOnUnschedulableNode: spec.unschedulable alone is no predicate */
  assert_true (fs_daemon_should_run (cordoned, fs_snapshot_find_pod (snapshot, "kube-system", "resources")));
}

/* ReplicaSet web/web-5d4f counts 3 in status.replicas; the snapshot holds 1 of its pods. */
static void
test_workload_pods_missing (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_files ("tests/data/completeness.yaml", NULL);
  g_autoptr (GArray) warnings = fs_snapshot_warnings (snapshot, FS_NEEDS_NODE_USAGE);
  const FsWarning *warning = warning_at (warnings, 1);
  assert_int_equal (warning->kind, FS_WARNING_WORKLOAD_PODS_MISSING);
  assert_string_equal (fs_warning_reason (warning->kind), "WorkloadPodsMissing");
  assert_non_null (strstr (warning->text, "(ReplicaSet web/web-5d4f has 1 of 3): 2 pods are missing"));
}

static FsSnapshot *
load_hpa (const char *path, const char *namespace, const char *name, FsHpaAnswer *answer)
{
  FsSnapshot *snapshot = test_load_files (path, NULL);
  const FsGenericObject *hpa = fs_snapshot_find_hpa (snapshot, namespace, name);
  assert_non_null (hpa);
  g_autoptr (GError) error = NULL;
  if (!fs_hpa_explain (snapshot, hpa, 1764000000000, FALSE, answer, &error))
    fail_msg ("%s", error->message);
  return snapshot;
}

/* The real HPA whose metrics failed (kubectl-ai PR 584): no Deployment web-app, no value for
 * cpu anywhere. */
static void
test_hpa_target_and_metrics_missing (void **state)
{
  FsHpaAnswer answer;
  g_autoptr (FsSnapshot) snapshot = load_hpa ("tests/fixtures/real/hpa-v2-failed-metrics-kubectl-ai-pr584.yaml",
                                              "hpa-test", "web-app", &answer);
  g_autoptr (GArray) warnings = fs_hpa_answer_warnings (&answer);
  assert_int_equal (warnings->len, 2);
  assert_int_equal (warning_at (warnings, 0)->kind, FS_WARNING_TARGET_MISSING);
  assert_string_equal (fs_warning_reason (warning_at (warnings, 0)->kind), "TargetMissing");
  assert_non_null (strstr (warning_at (warnings, 0)->text,
                           "HorizontalPodAutoscaler hpa-test/web-app scales Deployment web-app, which the snapshot does not hold"));
  assert_int_equal (warning_at (warnings, 1)->kind, FS_WARNING_METRICS_MISSING);
  assert_string_equal (fs_warning_reason (warning_at (warnings, 1)->kind), "MetricsMissing");
  assert_non_null (strstr (warning_at (warnings, 1)->text, "metric cpu of HorizontalPodAutoscaler hpa-test/web-app has no value"));
  fs_hpa_answer_clear (&answer);
}

/* The v2beta2 HPA scales an Argo Rollout (a kind fitscale does not read); its cpu comes from
 * its status. */
static void
test_hpa_metric_from_status (void **state)
{
  FsHpaAnswer answer;
  g_autoptr (FsSnapshot) snapshot = load_hpa ("tests/fixtures/real/hpa-v2beta2-healthy-rollout-target.yaml",
                                              "default", "credential-hpa", &answer);
  g_autoptr (GArray) warnings = fs_hpa_answer_warnings (&answer);
  assert_int_equal (warnings->len, 2);
  assert_non_null (strstr (warning_at (warnings, 0)->text, "scales Rollout credential-rollout, a kind fitscale does not read"));
  assert_non_null (strstr (warning_at (warnings, 1)->text, "is read from the HPA's status (status.currentMetrics)"));
  fs_hpa_answer_clear (&answer);
  /* the simulator's check of the same target */
  g_autoptr (FsSnapshot) nodes = test_load_files ("tests/fixtures/real/k3s-1node-nodes.json", NULL);
  g_autoptr (GArray) target = fs_hpa_target_warnings (nodes, &answer.hpa);
  assert_int_equal (target->len, 1);
  assert_int_equal (warning_at (target, 0)->kind, FS_WARNING_TARGET_MISSING);
}

/* The design's Hvpa and its Deployment, without the HPA and the VPA it manages. */
static void
test_hvpa_autoscalers_missing (void **state)
{
  g_autofree char *hvpa_path = test_path ("tests/data/hvpa-design/hvpa.yaml");
  g_autofree char *cluster_path = test_path ("tests/data/hvpa-design/cluster.yaml");
  g_autofree char *hvpa_text = NULL, *cluster_text = NULL;
  assert_true (g_file_get_contents (hvpa_path, &hvpa_text, NULL, NULL));
  assert_true (g_file_get_contents (cluster_path, &cluster_text, NULL, NULL));
  char *second = strstr (cluster_text, "\n---");
  assert_non_null (second);
  *second = '\0'; /* the Deployment alone */
  g_autofree char *text = g_strconcat (hvpa_text, "\n---\n", cluster_text, "\n", NULL);
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (text);
  const FsGenericObject *hvpa = fs_snapshot_find_hvpa (snapshot, "default", "hvpa-sample");
  assert_non_null (hvpa);
  g_autofree FsHvpaAnswer *answer = g_new0 (FsHvpaAnswer, 1);
  g_autoptr (GError) error = NULL;
  if (!fs_hvpa_gather (snapshot, hvpa, 1764000000000, answer, &error))
    fail_msg ("%s", error->message);
  g_autoptr (GArray) warnings = fs_hvpa_answer_warnings (answer);
  assert_int_equal (warnings->len, 1);
  assert_int_equal (warning_at (warnings, 0)->kind, FS_WARNING_AUTOSCALER_MISSING);
  assert_string_equal (fs_warning_reason (warning_at (warnings, 0)->kind), "AutoscalerMissing");
  assert_non_null (strstr (warning_at (warnings, 0)->text,
                           "the snapshot holds neither the HorizontalPodAutoscaler nor the VerticalPodAutoscaler that "
                           "Hvpa default/hvpa-sample manages"));
}

/* Live: the listings skipped (404) or refused (403), and a watch that fails. */
static void
test_live_warnings (void **state)
{
  g_autoptr (GPtrArray) skipped = g_ptr_array_new ();
  g_ptr_array_add (skipped, (gpointer) "verticalpodautoscalers");
  g_ptr_array_add (skipped, (gpointer) FS_KUBE_FORBIDDEN_PREFIX "hvpas");
  g_autoptr (GArray) warnings = fs_listing_warnings (skipped);
  assert_int_equal (warnings->len, 2);
  assert_int_equal (warning_at (warnings, 0)->kind, FS_WARNING_LISTING_UNAVAILABLE);
  assert_string_equal (fs_warning_reason (warning_at (warnings, 0)->kind), "ListingUnavailable");
  assert_non_null (strstr (warning_at (warnings, 0)->text, "does not serve verticalpodautoscalers (404"));
  assert_int_equal (warning_at (warnings, 1)->kind, FS_WARNING_LISTING_FORBIDDEN);
  assert_string_equal (fs_warning_reason (warning_at (warnings, 1)->kind), "ListingForbidden");
  assert_non_null (strstr (warning_at (warnings, 1)->text, "may not list hvpas (403 Forbidden)"));
  g_autoptr (GArray) stale = fs_stale_warnings (95.4, "watch pods: HTTP 500");
  assert_int_equal (warning_at (stale, 0)->kind, FS_WARNING_SNAPSHOT_STALE);
  assert_string_equal (fs_warning_reason (warning_at (stale, 0)->kind), "SnapshotStale");
  assert_non_null (strstr (warning_at (stale, 0)->text, "last changed 95 s ago (watch pods: HTTP 500)"));
}

/* Taking warnings moves them (their texts too) and leaves MORE freed. */
static void
test_warnings_take (void **state)
{
  g_autoptr (GArray) warnings = fs_warnings_new ();
  fs_warnings_add (warnings, FS_WARNING_NO_NODES, g_strdup ("a"));
  GArray *more = fs_warnings_new ();
  fs_warnings_add (more, FS_WARNING_NO_PODS, g_strdup ("b"));
  fs_warnings_take (warnings, more);
  assert_int_equal (warnings->len, 2);
  assert_string_equal (warning_at (warnings, 1)->text, "b");
  assert_string_equal (fs_warning_reason ((FsWarningKind) 999), "Unknown");
}

static void
test_many_missing_nodes_are_counted (void **state)
{
  GString *text = g_string_new ("{\"kind\":\"List\",\"items\":[");
  for (guint i = 0; i < 5; i++)
    g_string_append_printf (text, "%s{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p%u\",\"namespace\":\"%s\"},"
                                  "\"spec\":{\"nodeName\":\"n%u\",\"containers\":[]},\"status\":{\"phase\":\"Running\"}}",
                            i == 0 ? "" : ",", i, i < 4 ? "kube-system" : "z-other", i);
  g_string_append (text, "]}");
  g_autofree char *json = g_string_free (text, FALSE);
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (json);
  g_autoptr (GArray) warnings = fs_snapshot_warnings (snapshot, FS_NEEDS_NODE_USAGE);
  assert_int_equal (warnings->len, 1);
  assert_string_equal (warning_at (warnings, 0)->text,
                       "5 pods are bound to 5 nodes the snapshot does not hold (n0, n1, n2 and 2 more): "
                       "those nodes are left out of every answer; add them (kubectl get nodes -o json)");
}

/* A Pending pod with a claim in a snapshot without claims: the volume filters cannot judge
 * it; with the claims read (tests/data/volumes.yaml) nothing is warned of them. */
static void
test_claims_missing (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_files ("tests/data/volumes-no-claims.yaml", NULL);
  g_autoptr (GArray) warnings = fs_snapshot_warnings (snapshot, ALL_NEEDS);
  assert_int_equal (warnings->len, 1);
  assert_int_equal (warning_at (warnings, 0)->kind, FS_WARNING_CLAIMS_MISSING);
  assert_string_equal (fs_warning_reason (FS_WARNING_CLAIMS_MISSING), "ClaimsMissing");
  assert_non_null (strstr (warning_at (warnings, 0)->text, "default/db"));
  g_autoptr (FsSnapshot) with_claims = test_load_files ("tests/data/volumes.yaml", NULL);
  g_autoptr (GArray) others = fs_snapshot_warnings (with_claims, ALL_NEEDS);
  for (guint i = 0; i < others->len; i++)
    assert_int_not_equal (warning_at (others, i)->kind, FS_WARNING_CLAIMS_MISSING);
}

/* A node whose Ready condition is False or Unknown without the taint the node lifecycle
 * controller gives it (not-ready, unreachable) is named: the scheduler still places pods there
 * (tests/fixtures/real/kind-3node-nodes.json holds one); with the taint, or Ready, nothing. */
static void
test_not_ready_nodes_without_their_taint (void **state)
{
  g_autoptr (FsSnapshot) kind = test_load_files ("tests/fixtures/real/kind-3node-nodes.json", NULL);
  g_autoptr (GArray) warnings = fs_snapshot_warnings (kind, FS_NEEDS_NODES);
  guint found = 0;
  for (guint i = 0; i < warnings->len; i++)
    if (warning_at (warnings, i)->kind == FS_WARNING_NOT_READY_UNTAINTED)
      {
        found++;
        assert_non_null (strstr (warning_at (warnings, i)->text, "(kind-worker)"));
        assert_string_equal (fs_warning_reason (warning_at (warnings, i)->kind), "NodesNotReadyUntainted");
      }
  assert_int_equal (found, 1);
  g_autoptr (FsSnapshot) tainted = test_load_valid_text (
      "kind: List\nitems:\n"
      "- kind: Node\n  metadata: {name: a}\n  spec: {taints: [{key: node.kubernetes.io/not-ready, effect: NoSchedule}]}\n"
      "  status: {conditions: [{type: Ready, status: 'False'}]}\n"
      "- kind: Node\n  metadata: {name: b}\n  spec: {taints: [{key: node.kubernetes.io/unreachable, effect: NoExecute}]}\n"
      "  status: {conditions: [{type: Ready, status: Unknown}]}\n"
      "- kind: Node\n  metadata: {name: c}\n  status: {conditions: [{type: Ready, status: 'True'}]}\n"
      "- kind: Node\n  metadata: {name: d}\n");
  g_autoptr (GArray) none = fs_snapshot_warnings (tainted, FS_NEEDS_NODES);
  for (guint i = 0; i < none->len; i++)
    assert_int_not_equal (warning_at (none, i)->kind, FS_WARNING_NOT_READY_UNTAINTED);
}

#define DEPLOYMENT(name, spec)                                                                 \
  "- kind: Deployment\n  metadata: {name: " name ", namespace: prod}\n"                        \
  "  spec: {selector: {matchLabels: {app: x}}, template: {metadata: {labels: {app: x}},"        \
  " spec: {" spec "containers: [{name: c, resources: {requests: {cpu: 100m}}}]}}}\n"

/* The template's warnings, by kind, for the Deployment NAME of SNAPSHOT. */
static GArray *
template_warnings (const FsSnapshot *snapshot, const char *name)
{
  GArray *warnings = fs_warnings_new ();
  const FsWorkload *workload = fs_snapshot_find_workload (snapshot, "prod", "Deployment", name);
  assert_non_null (workload);
  fs_template_warnings (snapshot, workload->template, name, warnings);
  return warnings;
}

/* New pods of a template: gated (SchedulingGated), with a RuntimeClass the snapshot lacks and
 * no overhead of their own (RuntimeClassMissing), refused by RuntimeClass admission for an
 * overhead that is not the class's (RuntimeClassRefused); none for a class applied. */
static void
test_template_warnings (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (
      "kind: List\nitems:\n"
      "- apiVersion: node.k8s.io/v1\n  kind: RuntimeClass\n  metadata: {name: kata}\n  handler: kata\n"
      "  overhead: {podFixed: {cpu: 250m}}\n"
      DEPLOYMENT ("gated", "schedulingGates: [{name: a.io/x}, {name: a.io/y}], ")
      DEPLOYMENT ("ghost", "runtimeClassName: gone, ")
      DEPLOYMENT ("own", "runtimeClassName: gone, overhead: {cpu: 10m}, ")
      DEPLOYMENT ("refused", "runtimeClassName: kata, overhead: {cpu: 10m}, ")
      DEPLOYMENT ("kata", "runtimeClassName: kata, "));
  g_autoptr (GArray) gated = template_warnings (snapshot, "gated");
  assert_int_equal (gated->len, 1);
  assert_int_equal (warning_at (gated, 0)->kind, FS_WARNING_SCHEDULING_GATED);
  assert_non_null (strstr (warning_at (gated, 0)->text, "2 scheduling gates (a.io/x, a.io/y)"));
  g_autoptr (GArray) ghost = template_warnings (snapshot, "ghost");
  assert_int_equal (ghost->len, 1);
  assert_int_equal (warning_at (ghost, 0)->kind, FS_WARNING_RUNTIME_CLASS_MISSING);
  g_autoptr (GArray) own = template_warnings (snapshot, "own");
  assert_int_equal (own->len, 0);  /* its overhead is known: its own */
  g_autoptr (GArray) refused = template_warnings (snapshot, "refused");
  assert_int_equal (refused->len, 1);
  assert_int_equal (warning_at (refused, 0)->kind, FS_WARNING_RUNTIME_CLASS_REFUSED);
  g_autoptr (GArray) kata = template_warnings (snapshot, "kata");
  assert_int_equal (kata->len, 0);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_not_ready_nodes_without_their_taint),
    cmocka_unit_test (test_pods_without_their_nodes),
    cmocka_unit_test (test_claims_missing),
    cmocka_unit_test (test_nodes_without_pods),
    cmocka_unit_test (test_one_namespace_of_pods),
    cmocka_unit_test (test_whole_cluster_is_not_warned),
    cmocka_unit_test (test_many_missing_nodes_are_counted),
    cmocka_unit_test (test_namespace_lists_are_named),
    cmocka_unit_test (test_self_link_names_the_namespace),
    cmocka_unit_test (test_daemon_pods_missing),
    cmocka_unit_test (test_daemon_should_run),
    cmocka_unit_test (test_node_should_run_daemon_pod),
    cmocka_unit_test (test_pending_daemon_pod_counts),
    cmocka_unit_test (test_workload_pods_missing),
    cmocka_unit_test (test_hpa_target_and_metrics_missing),
    cmocka_unit_test (test_hpa_metric_from_status),
    cmocka_unit_test (test_hvpa_autoscalers_missing),
    cmocka_unit_test (test_live_warnings),
    cmocka_unit_test (test_warnings_take),
    cmocka_unit_test (test_template_warnings),
  };
  return cmocka_run_group_tests (tests, NULL, NULL);
}
