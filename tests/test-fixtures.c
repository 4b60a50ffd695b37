/* Every real fixture (tests/fixtures/real, see its SOURCES.md) loads, and values read from
 * the files by hand come out exactly. */
#include "config.h"

#include "testutil.h"
#include "fitscale/plan/why.h"

static void
test_every_fixture_loads (void **state)
{
  g_autofree char *dir_path = test_path ("tests/fixtures/real");
  g_autoptr (GDir) dir = g_dir_open (dir_path, 0, NULL);
  assert_non_null (dir);
  const char *name;
  guint loaded = 0;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      if (!g_str_has_suffix (name, ".json") && !g_str_has_suffix (name, ".yaml"))
        continue;
      g_autofree char *relative = g_build_filename ("tests/fixtures/real", name, NULL);
      g_autoptr (FsSnapshot) snapshot = test_load_files (relative, NULL);
      guint objects = snapshot->n_nodes + snapshot->n_pods + snapshot->n_events
                      + snapshot->n_generic + snapshot->n_workloads;
      if (objects == 0)
        fail_msg ("%s: no objects read", name);
      loaded++;
    }
  assert_int_equal (loaded, 22);
}

static void
test_aks_list_of_nodes (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_files ("tests/fixtures/real/aks-3node-nodes.json", NULL);
  assert_int_equal (snapshot->n_nodes, 3);
  for (guint i = 0; i < 3; i++)
    {
      const FsNode *node = &snapshot->nodes[i];
      assert_int_equal (node->allocatable.cpu_milli, 1900);
      /* the third node reports 4Ki less than the other two */
      assert_int_equal (node->allocatable.memory_bytes, (i < 2 ? 5497568 : 5497564) * KiB);
      assert_int_equal (node->capacity.cpu_milli, 2000);
      assert_int_equal (node->capacity.memory_bytes, (i < 2 ? 8152800 : 8152796) * KiB);
      assert_int_equal (fs_resources_get (&node->allocatable, "attachable-volumes-azure-disk"), 4);
    }
}

static void
test_eks_items_without_kind (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_files (
      "tests/fixtures/real/eks-arm64-2node-tainted-nodes.json",
      "tests/fixtures/real/eks-arm64-podlist.json", NULL);
  assert_int_equal (snapshot->n_nodes, 2);
  assert_int_equal (snapshot->n_pods, 11);
  const FsNode *node = &snapshot->nodes[0];
  assert_int_equal (node->allocatable.pods, 58);
  assert_int_equal (node->allocatable.cpu_milli, 7910);
  assert_non_null (node->taints);
  assert_int_equal (node->taints->n, 1);
  assert_string_equal (node->taints->items[0].key, "type");
  assert_string_equal (node->taints->items[0].value, "hound");
  assert_int_equal (node->taints->items[0].effect, FS_EFFECT_NO_SCHEDULE);
  assert_true (fs_resources_get (&node->allocatable, "hugepages-32Mi") >= 0);
  /* all 11 pods run on duckboat-01 */
  const FsNode *busy = fs_snapshot_find_node (snapshot, snapshot->pods[0].node_name);
  assert_non_null (busy);
  assert_int_equal (busy->pod_count, 11);
}

static void
test_k3s_succeeded_pods_do_not_count (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_files (
      "tests/fixtures/real/k3s-1node-nodes.json",
      "tests/fixtures/real/k3s-1node-pods-kube-system.json",
      "tests/fixtures/real/k3s-1node-pods-default-pending.json",
      "tests/fixtures/real/k3s-1node-events-default-failedscheduling.json", NULL);
  assert_int_equal (snapshot->n_nodes, 1);
  assert_int_equal (snapshot->n_pods, 13);
  const FsNode *node = &snapshot->nodes[0];
  /* by hand: backend-api 100m + cpu-intensive 800m + memory-hungry 2x100m + coredns 100m +
   * metrics-server 100m; 128Mi + 100Mi + 2x64Mi + 70Mi + 70Mi; the two Succeeded
   * helm-install pods and the two Pending pods are not there */
  assert_int_equal (node->requested.cpu_milli, 1300);
  assert_int_equal (node->requested.memory_bytes, 496 * MiB);
  assert_int_equal (node->pod_count, 9);
  assert_int_equal (node->allocatable.memory_bytes, 8146056 * KiB);
  guint pending = 0, failed_scheduling = 0;
  for (guint i = 0; i < snapshot->n_pods; i++)
    if (snapshot->pods[i].flags & FS_POD_UNSCHEDULABLE)
      {
        pending++;
        assert_non_null (strstr (snapshot->pods[i].scheduled_message,
                                 "0/1 nodes are available: 1 Insufficient cpu."));
        assert_int_equal (snapshot->pods[i].spec->request.cpu_milli, 800);
      }
  for (guint i = 0; i < snapshot->n_events; i++)
    failed_scheduling += g_strcmp0 (snapshot->events[i].reason, "FailedScheduling") == 0;
  assert_int_equal (pending, 2);
  assert_int_equal (failed_scheduling, 2);
  assert_int_equal (snapshot->n_events, 56);
}

static void
test_native_sidecar_effective_request (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_files (
      "tests/fixtures/real/kind-pod-native-sidecar-init.json", NULL);
  assert_int_equal (snapshot->n_pods, 1);
  const FsPodSpec *spec = snapshot->pods[0].spec;
  /* init 333m/333Mi, then sidecar 20m/40Mi, app 30m/10Mi:
   * max(30 + 20, 333 + 0) = 333m and max(50Mi, 333Mi) = 333Mi */
  assert_int_equal (spec->request.cpu_milli, 333);
  assert_int_equal (spec->request.memory_bytes, 333 * MiB);
  assert_int_equal (spec->containers->n_init, 2);
  assert_true (spec->containers->init_containers[1].restartable);
  assert_false (spec->containers->init_containers[0].restartable);
}

static void
test_gpu_pending_pod (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_files (
      "tests/fixtures/real/pod-pending-insufficient-nvidia-gpu.json", NULL);
  assert_int_equal (snapshot->n_pods, 1);
  const FsPod *pod = &snapshot->pods[0];
  assert_int_equal (fs_resources_get (&pod->spec->request, "nvidia.com/gpu"), 5);
  assert_int_equal (pod->spec->request.cpu_milli, 3000);
  assert_int_equal (pod->spec->request.memory_bytes, 5 * GiB);
  assert_non_null (strstr (pod->scheduled_message, "Insufficient nvidia.com/gpu"));
}

/* The GPU pod on the mixed nodes: 24 cpu and 84Gi are free in total, but the cluster has one
 * nvidia.com/gpu where the pod asks for 5, so there is no room in total either: every
 * resource it requests counts (it used to count cpu and memory only). */
static void
test_gpu_pod_has_no_room_in_total (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_files (
      "tests/fixtures/real/mixed-doks-ec2gpu-7nodes.json",
      "tests/fixtures/real/pod-pending-insufficient-nvidia-gpu.json", NULL);
  g_autoptr (FsDiagnosis) diagnosis = fs_diagnose (snapshot, &snapshot->pods[0]);
  assert_false (diagnosis->fits);
  assert_int_equal (fs_resources_get (&diagnosis->free_total, "nvidia.com/gpu"), 1);
  assert_true (diagnosis->free_total.cpu_milli >= 3000);
  assert_false (diagnosis->room_in_total);
}

static void
test_node_affinity_pod (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_files (
      "tests/fixtures/real/pod-pending-node-affinity.json", NULL);
  assert_int_equal (snapshot->n_pods, 1);
  const FsPlacement *placement = snapshot->pods[0].spec->placement;
  assert_non_null (placement->required_affinity);
  assert_int_equal (placement->required_affinity->n, 1);
  const FsRequirementList *expressions = placement->required_affinity->terms[0].match_expressions;
  assert_non_null (expressions);
  assert_int_equal (expressions->n, 2);
  gboolean saw_not_in = FALSE;
  for (guint i = 0; i < expressions->n; i++)
    if (expressions->items[i].op == FS_OP_NOT_IN)
      {
        saw_not_in = TRUE;
        assert_string_equal (expressions->items[i].values[0], "arm64");
      }
  assert_true (saw_not_in);
}

static void
test_mixed_node_shapes (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_files (
      "tests/fixtures/real/mixed-doks-ec2gpu-7nodes.json", NULL);
  assert_int_equal (snapshot->n_nodes, 7);
  guint gpu_nodes = 0, mi_memory = 0;
  for (guint i = 0; i < snapshot->n_nodes; i++)
    {
      gpu_nodes += fs_resources_get (&snapshot->nodes[i].allocatable, "nvidia.com/gpu") == 1;
      mi_memory += snapshot->nodes[i].allocatable.memory_bytes == 3110 * MiB;
    }
  assert_int_equal (gpu_nodes, 1);
  assert_true (mi_memory >= 1);
}

static void
test_kind_tainted_control_plane (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_files (
      "tests/fixtures/real/kind-3node-nodes.json",
      "tests/fixtures/real/kind-pods-kube-system-pending-taint.json", NULL);
  assert_int_equal (snapshot->n_nodes, 3);
  guint tainted = 0, not_ready = 0;
  for (guint i = 0; i < snapshot->n_nodes; i++)
    {
      const FsNode *node = &snapshot->nodes[i];
      assert_int_equal (node->allocatable.cpu_milli, 8000);
      assert_int_equal (node->allocatable.memory_bytes, 30821896 * KiB);
      if (node->taints != NULL
          && strcmp (node->taints->items[0].key, "node-role.kubernetes.io/master") == 0)
        tainted++;
      if ((node->flags & FS_NODE_READY_KNOWN) && !(node->flags & FS_NODE_READY))
        not_ready++;
    }
  assert_int_equal (tainted, 1);
  assert_int_equal (not_ready, 1);
  assert_int_equal (snapshot->n_pods, 14);
}

static void
test_single_nodes_json_and_yaml (void **state)
{
  g_autoptr (FsSnapshot) gke = test_load_files ("tests/fixtures/real/gke-autopilot-node.yaml", NULL);
  assert_int_equal (gke->n_nodes, 1);
  assert_int_equal (gke->nodes[0].allocatable.cpu_milli, 1930);
  assert_int_equal (gke->nodes[0].allocatable.memory_bytes, 6186972 * KiB);
  assert_int_equal (gke->nodes[0].allocatable.pods, 32);
  g_autoptr (FsSnapshot) openshift = test_load_files (
      "tests/fixtures/real/openshift-gcp-master-node.json", NULL);
  assert_int_equal (openshift->nodes[0].allocatable.cpu_milli, 3500);
  assert_int_equal (openshift->nodes[0].allocatable.pods, 250);
  assert_int_equal (openshift->nodes[0].taints->items[0].effect, FS_EFFECT_NO_SCHEDULE);
  g_autoptr (FsSnapshot) minikube = test_load_files ("tests/fixtures/real/minikube-node.json", NULL);
  assert_int_equal (minikube->nodes[0].allocatable.cpu_milli, 4000);
  assert_true (minikube->nodes[0].allocatable.ephemeral_bytes > 10 * GiB);
}

static void
test_kurl_cluster (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_files (
      "tests/fixtures/real/kurl-3node-nodes.json", "tests/fixtures/real/kurl-pods-kube-system.json",
      "tests/fixtures/real/kurl-pods-longhorn-system.json", NULL);
  assert_int_equal (snapshot->n_nodes, 3);
  assert_int_equal (snapshot->n_pods, 15 + 28);
  int64_t pods_on_nodes = 0;
  for (guint i = 0; i < snapshot->n_nodes; i++)
    {
      assert_int_equal (snapshot->nodes[i].allocatable.cpu_milli, 4000);
      pods_on_nodes += snapshot->nodes[i].pod_count;
      /* each node runs two Longhorn instance managers of 480m */
      assert_true (snapshot->nodes[i].requested.cpu_milli >= 960);
    }
  assert_int_equal (pods_on_nodes, 43);
}

static void
test_autoscaler_objects (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_files (
      "tests/fixtures/real/hpa-v2-failed-metrics-kubectl-ai-pr584.yaml",
      "tests/fixtures/real/hpa-v2beta2-healthy-rollout-target.yaml",
      "tests/fixtures/real/hvpa-v1alpha1-sample.yaml", NULL);
  assert_int_equal (snapshot->n_generic, 3);
  guint hpas = 0;
  for (guint i = 0; i < snapshot->n_generic; i++)
    {
      const FsGenericObject *object = &snapshot->generic[i];
      assert_non_null (object->object);
      assert_int_equal (object->object->type, FS_TREE_MAP);
      if (object->kind == FS_KIND_HPA)
        hpas++;
      if (object->kind == FS_KIND_HVPA)
        {
          assert_string_equal (object->name, "hvpa-sample");
          assert_string_equal (test_label (object->annotations, "hpa-controller"), "hvpa");
        }
      /* the last-applied annotation and managedFields are never kept */
      assert_null (test_label (object->annotations,
                               "kubectl.kubernetes.io/last-applied-configuration"));
    }
  assert_int_equal (hpas, 2);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_every_fixture_loads),
    cmocka_unit_test (test_aks_list_of_nodes),
    cmocka_unit_test (test_eks_items_without_kind),
    cmocka_unit_test (test_k3s_succeeded_pods_do_not_count),
    cmocka_unit_test (test_native_sidecar_effective_request),
    cmocka_unit_test (test_gpu_pending_pod),
    cmocka_unit_test (test_gpu_pod_has_no_room_in_total),
    cmocka_unit_test (test_node_affinity_pod),
    cmocka_unit_test (test_mixed_node_shapes),
    cmocka_unit_test (test_kind_tainted_control_plane),
    cmocka_unit_test (test_single_nodes_json_and_yaml),
    cmocka_unit_test (test_kurl_cluster),
    cmocka_unit_test (test_autoscaler_objects),
  };
  return cmocka_run_group_tests_name ("fixtures", tests, NULL, NULL);
}
