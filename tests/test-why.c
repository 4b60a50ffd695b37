/* The fixes `fitscale why` offers for nodes a filter keeps the pod off (src/plan/why.c):
 * uncordon names each cordoned node and how it is cordoned (spec.unschedulable, the
 * node.kubernetes.io/unschedulable taint that `kubectl cordon` adds beside it, or a taint
 * set by hand), and comes before tolerating a taint; a taint is offered only to a pod that
 * may belong to its pool, never a taint of the node's state (not-ready, pressure ...). */
#include "config.h"

#include "testutil.h"
#include "fitscale/model/names.h"
#include "fitscale/plan/why.h"

/* Three 4-cpu nodes with room and one full one; PODS and the nodes' taints vary. */
#define NODE(name, extra)                                                                      \
  "- kind: Node\n  metadata: {name: " name ", labels: {pool: " name "}}\n  spec: {" extra "}\n" \
  "  status: {allocatable: {cpu: '4', memory: 8Gi, pods: '110', nvidia.com/gpu: '2'}}\n"
#define CORDON_TAINT "{key: node.kubernetes.io/unschedulable, effect: NoSchedule}"
#define GPU_TAINT "{key: nvidia.com/gpu, value: present, effect: NoSchedule}"
#define FULL_NODE                                                                              \
  NODE ("full", "") "- kind: Pod\n  metadata: {name: hog, namespace: kube-system}\n"           \
                    "  spec: {nodeName: full, containers: [{name: c, resources: {requests: {cpu: '4'}}}]}\n" \
                    "  status: {phase: Running}\n"
#define PENDING(requests, spec)                                                                \
  "- kind: Pod\n  metadata: {name: p, namespace: kafka}\n"                                     \
  "  spec: {" spec "containers: [{name: c, resources: {requests: " requests "}}]}\n"           \
  "  status: {phase: Pending}\n"

static FsDiagnosis *
diagnose (const char *yaml, FsSnapshot **snapshot)
{
  g_autofree char *text = g_strconcat ("kind: List\nitems:\n", yaml, NULL);
  *snapshot = test_load_valid_text (text);
  const FsPod *pod = fs_snapshot_find_pod (*snapshot, "kafka", "p");
  assert_non_null (pod);
  return fs_diagnose (*snapshot, pod);
}

/* The first fix of KIND, and its position among the fixes. */
static const FsFix *
find_fix (const FsDiagnosis *diagnosis, FsFixKind kind, guint *position)
{
  for (guint i = 0; i < diagnosis->fixes->len; i++)
    if (g_array_index (diagnosis->fixes, FsFix, i).kind == kind)
      {
        if (position != NULL)
          *position = i;
        return &g_array_index (diagnosis->fixes, FsFix, i);
      }
  return NULL;
}

static void
test_cordoned_the_real_way_is_uncordoned_not_tolerated (void **state)
{
  g_autoptr (FsSnapshot) snapshot = NULL;
  g_autoptr (FsDiagnosis) diagnosis = diagnose (
      NODE ("a", "unschedulable: true, taints: [" CORDON_TAINT "]") NODE ("gpu", "taints: [" GPU_TAINT "]")
      FULL_NODE PENDING ("{cpu: '2'}", ""), &snapshot);
  assert_false (diagnosis->fits);
  guint at = 0;
  const FsFix *uncordon = find_fix (diagnosis, FS_FIX_UNCORDON, &at);
  assert_non_null (uncordon);
  assert_string_equal (uncordon->text, "uncordon a (spec.unschedulable and its taint): 1 cordoned node would take the pod");
  assert_string_equal (uncordon->node, "a");
  assert_int_equal (uncordon->count, 1);
  /* a Kafka pod is not offered the GPU pool */
  assert_null (find_fix (diagnosis, FS_FIX_TOLERATE_TAINT, NULL));
}

static void
test_cordon_taint_set_by_hand (void **state)
{
  g_autoptr (FsSnapshot) snapshot = NULL;
  g_autoptr (FsDiagnosis) diagnosis = diagnose (
      NODE ("a", "taints: [" CORDON_TAINT "]") NODE ("b", "unschedulable: true") FULL_NODE PENDING ("{cpu: '2'}", ""),
      &snapshot);
  const FsFix *uncordon = find_fix (diagnosis, FS_FIX_UNCORDON, NULL);
  assert_non_null (uncordon);
  assert_string_equal (uncordon->text,
                       "uncordon a (the node.kubernetes.io/unschedulable taint only: remove it, kubectl uncordon "
                       "does not), b (spec.unschedulable): 2 cordoned nodes would take the pod");
  assert_null (find_fix (diagnosis, FS_FIX_TOLERATE_TAINT, NULL));
}

static void
test_gpu_pod_is_offered_the_gpu_pool_after_uncordon (void **state)
{
  g_autoptr (FsSnapshot) snapshot = NULL;
  g_autoptr (FsDiagnosis) diagnosis = diagnose (
      NODE ("a", "unschedulable: true, taints: [" CORDON_TAINT "]") NODE ("gpu", "taints: [" GPU_TAINT "]")
      FULL_NODE PENDING ("{cpu: '2', nvidia.com/gpu: '1'}", ""), &snapshot);
  guint uncordon_at = 0, tolerate_at = 0;
  assert_non_null (find_fix (diagnosis, FS_FIX_UNCORDON, &uncordon_at));
  const FsFix *tolerate = find_fix (diagnosis, FS_FIX_TOLERATE_TAINT, &tolerate_at);
  assert_non_null (tolerate);
  assert_string_equal (tolerate->text, "tolerate the taint nvidia.com/gpu=present:NoSchedule: 1 tainted node would take the pod");
  assert_true (uncordon_at < tolerate_at);
}

static void
test_pod_aimed_at_the_pool_is_offered_its_taint (void **state)
{
  g_autoptr (FsSnapshot) snapshot = NULL;
  g_autoptr (FsDiagnosis) diagnosis = diagnose (
      NODE ("gpu", "taints: [" GPU_TAINT "]") FULL_NODE PENDING ("{cpu: '2'}", "nodeSelector: {pool: gpu}, "),
      &snapshot);
  assert_non_null (find_fix (diagnosis, FS_FIX_TOLERATE_TAINT, NULL));
}

static void
test_node_state_taints_are_no_fix (void **state)
{
  g_autoptr (FsSnapshot) snapshot = NULL;
  g_autoptr (FsDiagnosis) diagnosis = diagnose (
      NODE ("sick", "taints: [{key: node.kubernetes.io/not-ready, effect: NoSchedule}]")
      FULL_NODE PENDING ("{cpu: '2'}", "nodeSelector: {pool: sick}, "), &snapshot);
  assert_false (diagnosis->fits);
  assert_null (find_fix (diagnosis, FS_FIX_TOLERATE_TAINT, NULL));
  assert_null (find_fix (diagnosis, FS_FIX_UNCORDON, NULL));
}

static void
test_cordoned_node_of_another_pool_stays_shut (void **state)
{
  /* uncordoning alone does not open a node whose pool taint the pod does not tolerate */
  g_autoptr (FsSnapshot) snapshot = NULL;
  g_autoptr (FsDiagnosis) diagnosis = diagnose (
      NODE ("gpu", "unschedulable: true, taints: [" CORDON_TAINT ", " GPU_TAINT "]") FULL_NODE
      PENDING ("{cpu: '2'}", ""), &snapshot);
  assert_null (find_fix (diagnosis, FS_FIX_UNCORDON, NULL));
  assert_null (find_fix (diagnosis, FS_FIX_TOLERATE_TAINT, NULL));
}

/* The reasons of recorded messages that no modelled filter writes: PreFilter reasons without
 * a count, volume filters, a custom plugin; the modelled ones in every version's phrasing. */
static void
test_unmodelled_reasons_of_recorded_messages (void **state)
{
  g_autoptr (GPtrArray) out = g_ptr_array_new_with_free_func (g_free);
  fs_message_unmodelled_reasons ("0/3 nodes are available: 3 node(s) did not have "
                                 "enough free storage. preemption: 0/3 nodes are available: 3 Preemption is "
                                 "not helpful for scheduling.", out);
  assert_int_equal (out->len, 1);
  assert_string_equal (out->pdata[0], "node(s) did not have enough free storage");
  g_ptr_array_set_size (out, 0);
  /* the volume plugins are modelled (model/volumes.c) */
  fs_message_unmodelled_reasons ("0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. "
                                 "preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
                                 out);
  assert_int_equal (out->len, 0);
  fs_message_unmodelled_reasons ("0/5 nodes are available: 1 Insufficient cpu, 1 node(s) had taint "
                                 "{dedicated: db}, that the pod didn't tolerate, 1 node(s) had untolerated "
                                 "taint(s), 2 node(s) had volume node affinity conflict, 1 node(s) did not "
                                 "have enough free storage.", out);
  assert_int_equal (out->len, 1);
  assert_string_equal (out->pdata[0], "node(s) did not have enough free storage");
  g_ptr_array_set_size (out, 0);
  fs_message_unmodelled_reasons ("0/2 nodes are available: 2 Insufficient memory.", out);
  fs_message_unmodelled_reasons (NULL, out);
  fs_message_unmodelled_reasons ("running", out);
  assert_int_equal (out->len, 0);
}

static void
test_diagnosis_names_what_it_does_not_model (void **state)
{
  g_autoptr (FsSnapshot) snapshot = NULL;
  g_autoptr (FsDiagnosis) diagnosis = diagnose (
      NODE ("a", "") "- kind: Pod\n  metadata: {name: p, namespace: kafka}\n"
      "  spec: {containers: [{name: c, resources: {requests: {cpu: '1'}}}]}\n"
      "  status: {phase: Pending, conditions: [{type: PodScheduled, status: 'False', reason: Unschedulable,"
      " message: '0/1 nodes are available: pod has unbound immediate PersistentVolumeClaims.'}]}\n",
      &snapshot);
  /* fitscale sees room: the recorded verdict says why not, and with no PersistentVolumeClaim
   * in the snapshot fitscale cannot judge the volume plugins' reasons */
  assert_true (diagnosis->fits);
  assert_int_equal (diagnosis->unmodelled->len, 1);
  assert_string_equal (diagnosis->unmodelled->pdata[0], "pod has unbound immediate PersistentVolumeClaims");
}

/* NodePorts is modelled (model/ports.c): its reason in a recorded message is not one of the
 * unmodelled ones, and a pod whose hostPort is taken everywhere gets the recorded verdict
 * from fitscale too. */
static void
test_node_ports_reason_is_modelled (void **state)
{
  g_autoptr (GPtrArray) out = g_ptr_array_new_with_free_func (g_free);
  fs_message_unmodelled_reasons ("0/3 nodes are available: 3 node(s) didn't have free ports for the "
                                 "requested pod ports. preemption: 0/3 nodes are available: 3 No "
                                 "preemption victims found for incoming pod.", out);
  assert_int_equal (out->len, 0);
  g_autoptr (FsSnapshot) snapshot = test_load_files ("tests/data/hostport.yaml", NULL);
  const FsPod *pod = fs_snapshot_find_pod (snapshot, "web", "edge-6d5f7c9b8-d4");
  g_autoptr (FsDiagnosis) diagnosis = fs_diagnose (snapshot, pod);
  assert_false (diagnosis->fits);
  assert_true (diagnosis->agrees);
  assert_int_equal (diagnosis->unmodelled->len, 0);
}

/* A pod that fits one at a time: ROOM_FOR is what the nodes take together (tests/data/
 * pod-slots.yaml: 1 pod slot free on each of two nodes, 3 Pending web pods), ROOM_LIMIT what
 * stops the third, and the fixes are for the one left Pending, not all three. */
static void
test_room_for_the_owners_pending_pods (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_files ("tests/data/pod-slots.yaml", NULL);
  const FsPod *pod = fs_snapshot_find_pod (snapshot, "shop", "web-7c9-c");
  g_autoptr (FsDiagnosis) diagnosis = fs_diagnose (snapshot, pod);
  assert_true (diagnosis->fits);
  assert_int_equal (diagnosis->room_for, 2);
  assert_int_equal (diagnosis->pending, 3);
  assert_string_equal (diagnosis->room_limit, "pods");
  const FsFix *lower = find_fix (diagnosis, FS_FIX_LOWER_REPLICAS, NULL);
  assert_non_null (lower);
  assert_int_equal (lower->count, 4);
  assert_string_equal (lower->text, "scale deployment/web from 5 to 4 replicas: 1 of the 3 Pending ones does not fit");
  assert_non_null (find_fix (diagnosis, FS_FIX_ADD_NODES, NULL));
}

/* Memory runs out first on both nodes with room: the limit is memory; a bare pod that fits
 * is the only one, no fix; a pod that fits nowhere has no room limit (its message says why). */
static void
test_room_limit_names_the_resource_that_runs_out (void **state)
{
  g_autoptr (FsSnapshot) snapshot = NULL;
  g_autoptr (FsDiagnosis) bare = diagnose (NODE ("a", "") NODE ("b", "") PENDING ("{cpu: '1', memory: 3Gi}", ""),
                                           &snapshot);
  assert_true (bare->fits);
  assert_int_equal (bare->room_for, 4); /* 8Gi holds two 3Gi pods per node */
  assert_string_equal (bare->room_limit, "memory");
  assert_int_equal (bare->pending, 1);
  assert_int_equal (bare->fixes->len, 0);
  g_autoptr (FsSnapshot) full = NULL;
  g_autoptr (FsDiagnosis) none = diagnose (FULL_NODE PENDING ("{cpu: '1'}", ""), &full);
  assert_false (none->fits);
  assert_int_equal (none->room_for, 0);
  assert_null (none->room_limit);
}

/* The owner's template changes every replica, so the lowered request is the largest at which
 * all of them fit, the workload's pods replaced (examples/rag-api: 5966Mi fits this pod on
 * one node but only 3 of the 6 replicas; 3932Mi holds all 6, as capacity --vary finds). */
static void
test_lowered_request_holds_every_replica (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_files ("examples/rag-api", NULL);
  const FsPod *pod = fs_snapshot_find_pod (snapshot, "production", "rag-api-7948f7fb7-dc5k8");
  g_autoptr (FsDiagnosis) diagnosis = fs_diagnose (snapshot, pod);
  const FsFix *lower = find_fix (diagnosis, FS_FIX_LOWER_REQUEST, NULL);
  assert_non_null (lower);
  assert_int_equal (lower->request.memory_bytes, (int64_t) 3932 << 20);
  assert_int_equal (lower->request.cpu_milli, 500);
  assert_non_null (strstr (lower->text, "all 6 replicas of deployment/rag-api fit then"));
}

/* A ReplicaSet the snapshot lacks leads to its Deployment by the deployment controller's
 * naming (DEPLOYMENT-HASH, pods labelled pod-template-hash=HASH), only when the Deployment's
 * selector takes the pod (sync.go getNewReplicaSet). */
static void
test_pod_workload_through_a_missing_replicaset (void **state)
{
#define OWNED_POD(name, rs, labels)                                                                         \
  "- kind: Pod\n  metadata: {name: " name ", namespace: shop, labels: {" labels "},\n"                        \
  "    ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: " rs ", controller: true}]}\n"      \
  "  spec: {containers: [{name: c}]}\n  status: {phase: Pending}\n"
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (
      "kind: List\nitems:\n"
      "- apiVersion: apps/v1\n  kind: Deployment\n  metadata: {name: web, namespace: shop}\n"
      "  spec: {replicas: 2, selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}},"
      " spec: {containers: [{name: c}]}}}\n"
      OWNED_POD ("a", "web-6d4b9c7f8", "app: web, pod-template-hash: 6d4b9c7f8")
      OWNED_POD ("b", "web-6d4b9c7f8", "app: web")                       /* no hash label: the last part */
      OWNED_POD ("c", "web-6d4b9c7f8", "app: web, pod-template-hash: other") /* the label names another */
      OWNED_POD ("d", "web-6d4b9c7f8", "app: api, pod-template-hash: 6d4b9c7f8") /* not selected */
      OWNED_POD ("e", "webfront", "app: web"));                          /* no dash */
#undef OWNED_POD
  const char *expect[][2] = { { "a", "web" }, { "b", "web" }, { "c", NULL }, { "d", NULL }, { "e", NULL } };
  for (gsize i = 0; i < G_N_ELEMENTS (expect); i++)
    {
      const FsWorkload *workload = fs_snapshot_pod_workload (snapshot, fs_snapshot_find_pod (snapshot, "shop", expect[i][0]));
      if (expect[i][1] == NULL)
        assert_null (workload);
      else
        {
          assert_non_null (workload);
          assert_string_equal (workload->name, expect[i][1]);
        }
    }
}

/* A gated pod (schedulinggates/scheduling_gates.go PreEnqueue) is answered by its gates: it
 * says whether it would fit once ungated, and offers no message-driven fix, with room or not. */
static void
test_gated_pod_waits_for_its_gates_not_for_room (void **state)
{
  g_autoptr (FsSnapshot) roomy = NULL;
  g_autoptr (FsDiagnosis) fits = diagnose (
      NODE ("a", "") FULL_NODE PENDING ("{cpu: '2'}", "schedulingGates: [{name: example.com/wait}], "), &roomy);
  assert_true (fits->gated);
  assert_true (fits->fits);
  assert_null (fits->message);
  assert_int_equal (fits->fixes->len, 0);
  g_autoptr (FsSnapshot) full = NULL;
  g_autoptr (FsDiagnosis) short_of_room = diagnose (
      FULL_NODE PENDING ("{cpu: '2'}", "schedulingGates: [{name: example.com/wait}], "), &full);
  assert_true (short_of_room->gated);
  assert_false (short_of_room->fits);
  assert_int_equal (short_of_room->fixes->len, 0);  /* no node to add, no request to lower */
  assert_false (short_of_room->preemption.found);
  assert_non_null (strstr (short_of_room->message, "Insufficient cpu"));
  g_autoptr (FsSnapshot) ungated = NULL;
  g_autoptr (FsDiagnosis) plain = diagnose (FULL_NODE PENDING ("{cpu: '2'}", ""), &ungated);
  assert_false (plain->gated);
  assert_true (plain->fixes->len > 0);
}

/* The labels kubelet_node_status.go updateDefaultLabels keeps current are never offered as a
 * node label fix; the pool labels people set are. */
static void
test_kubelet_owned_labels (void **state)
{
  assert_true (fs_label_is_kubelet_owned ("kubernetes.io/hostname"));
  assert_true (fs_label_is_kubelet_owned ("topology.kubernetes.io/zone"));
  assert_true (fs_label_is_kubelet_owned ("beta.kubernetes.io/arch"));
  assert_false (fs_label_is_kubelet_owned ("pool"));
  assert_false (fs_label_is_kubelet_owned ("karpenter.sh/nodepool"));
  assert_false (fs_label_is_kubelet_owned (NULL));
}

/* PodRequests (component-helpers resource/helpers.go) takes the larger of the app
 * containers' sum and each init container's peak: to bring 3 cpu (init) over 2500m (app +
 * side) down to 2, the app container gives up 500m and the init container comes down to 2
 * (tests/data/why-fixes-init.yaml). */
static void
test_lowered_request_through_init_containers (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_files ("tests/data/why-fixes-init.yaml", NULL);
  g_autoptr (FsDiagnosis) diagnosis = fs_diagnose (snapshot, fs_snapshot_find_pod (snapshot, "default", "web-1-a"));
  const FsFix *lower = find_fix (diagnosis, FS_FIX_LOWER_REQUEST, NULL);
  assert_non_null (lower);
  assert_int_equal (lower->request.cpu_milli, 2000);
  assert_non_null (lower->containers);
  assert_int_equal (lower->containers->len, 2);
  const FsFixContainer *app = &g_array_index (lower->containers, FsFixContainer, 0);
  const FsFixContainer *init = &g_array_index (lower->containers, FsFixContainer, 1);
  assert_string_equal (app->name, "app");
  assert_false (app->init);
  assert_int_equal (app->cpu_milli, 1000);
  assert_int_equal (app->memory_bytes, -1);
  assert_string_equal (init->name, "init");
  assert_true (init->init);
  assert_int_equal (init->cpu_milli, 2000);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_cordoned_the_real_way_is_uncordoned_not_tolerated),
    cmocka_unit_test (test_cordon_taint_set_by_hand),
    cmocka_unit_test (test_gpu_pod_is_offered_the_gpu_pool_after_uncordon),
    cmocka_unit_test (test_pod_aimed_at_the_pool_is_offered_its_taint),
    cmocka_unit_test (test_node_state_taints_are_no_fix),
    cmocka_unit_test (test_cordoned_node_of_another_pool_stays_shut),
    cmocka_unit_test (test_unmodelled_reasons_of_recorded_messages),
    cmocka_unit_test (test_diagnosis_names_what_it_does_not_model),
    cmocka_unit_test (test_node_ports_reason_is_modelled),
    cmocka_unit_test (test_room_for_the_owners_pending_pods),
    cmocka_unit_test (test_room_limit_names_the_resource_that_runs_out),
    cmocka_unit_test (test_lowered_request_holds_every_replica),
    cmocka_unit_test (test_pod_workload_through_a_missing_replicaset),
    cmocka_unit_test (test_gated_pod_waits_for_its_gates_not_for_room),
    cmocka_unit_test (test_kubelet_owned_labels),
    cmocka_unit_test (test_lowered_request_through_init_containers),
  };
  return cmocka_run_group_tests (tests, NULL, NULL);
}
