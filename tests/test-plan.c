/* The planner and the rollout arithmetic: the Deployment controller's cases from upstream's
 * rolling_test.go and deployment_util_test.go, then plans on small clusters written out by
 * hand (each test says what the numbers are and why), and the bundled rag-api example. */
#include "config.h"

#include "fitscale/plan/plan.h"
#include "fitscale/model/rollout.h"
#include "fitscale/plan/memo.h"
#include "fitscale/render/plan.h"
#include "testutil.h"

/* ---- rollout arithmetic ---------------------------------------------------------------- */

static FsIntOrPercent
count (int32_t value)
{
  return (FsIntOrPercent){ .set = TRUE, .value = value };
}

static FsIntOrPercent
percent (int32_t value)
{
  return (FsIntOrPercent){ .set = TRUE, .percent = TRUE, .value = value };
}

/* deployment_util_test.go TestResolveFenceposts, and the apps/v1 defaults (25 %, 25 %). */
static void
test_fenceposts (void **state)
{
  FsIntOrPercent zero = percent (0), p39 = percent (39), none = { 0 }, int0 = count (0);
  FsRolloutLimits limits = fs_deployment_fenceposts (&zero, &zero, 0);
  assert_int_equal (limits.surge, 0);
  assert_int_equal (limits.unavailable, 0); /* 1, then capped at desired 0 (MaxUnavailable) */
  limits = fs_deployment_fenceposts (&p39, &p39, 10);
  assert_int_equal (limits.surge, 4);       /* 3.9 rounds up */
  assert_int_equal (limits.unavailable, 3); /* 3.9 rounds down */
  limits = fs_deployment_fenceposts (&int0, &p39, 10);
  assert_int_equal (limits.surge, 0);
  assert_int_equal (limits.unavailable, 3);
  limits = fs_deployment_fenceposts (&p39, &int0, 10);
  assert_int_equal (limits.surge, 4);
  assert_int_equal (limits.unavailable, 0);
  limits = fs_deployment_fenceposts (&int0, &int0, 10);
  assert_int_equal (limits.unavailable, 1);
  /* unset: the API server's 25 % defaults; 6 replicas give 2 and 1 (the rag-api example) */
  limits = fs_deployment_fenceposts (&none, &none, 6);
  assert_int_equal (limits.surge, 2);
  assert_int_equal (limits.unavailable, 1);
  limits = fs_deployment_fenceposts (&none, &none, 3);
  assert_int_equal (limits.surge, 1);
  assert_int_equal (limits.unavailable, 0);
  limits = fs_statefulset_fenceposts ();
  assert_int_equal (limits.surge, 0);
  assert_int_equal (limits.unavailable, 1);
}

static FsRolloutStep
sync_once (int32_t desired, int32_t surge, int32_t unavailable, int32_t old_replicas,
           int32_t old_available, int32_t new_replicas, int32_t new_available, FsRolloutState *out)
{
  FsRolloutState state = { desired, { surge, unavailable }, old_replicas, old_available, new_replicas, new_available };
  FsRolloutStep step = fs_rollout_sync (&state);
  if (out != NULL)
    *out = state;
  return step;
}

/* rolling_test.go TestDeploymentController_reconcileNewReplicaSet (maxUnavailable 0). */
static void
test_rollout_scale_up (void **state)
{
  FsRolloutState after;
  assert_int_equal (sync_once (10, 0, 1, 10, 10, 0, 0, NULL).created, 0);
  assert_int_equal (sync_once (10, 2, 0, 10, 10, 0, 0, &after).created, 2);
  assert_int_equal (after.new_replicas, 2);
  sync_once (10, 2, 0, 5, 5, 0, 0, &after);
  assert_int_equal (after.new_replicas, 7);
  assert_int_equal (sync_once (10, 2, 0, 10, 10, 2, 0, NULL).created, 0);
}

/* rolling_test.go TestDeploymentController_reconcileOldReplicaSets (maxSurge 0). */
static void
test_rollout_scale_down (void **state)
{
  FsRolloutState after;
  /* maxUnavailable 0 and maxSurge 0 resolve to maxUnavailable 1 */
  FsIntOrPercent int0 = count (0);
  FsRolloutLimits limits = fs_deployment_fenceposts (&int0, &int0, 10);
  sync_once (10, limits.surge, limits.unavailable, 10, 10, 0, 0, &after);
  assert_int_equal (after.old_replicas, 9);
  sync_once (10, 0, 2, 10, 10, 0, 0, &after);
  assert_int_equal (after.old_replicas, 8);
  /* unhealthy old replicas are cleaned up first */
  FsRolloutStep step = sync_once (10, 0, 2, 10, 8, 0, 0, &after);
  assert_int_equal (step.removed_unhealthy, 2);
  assert_int_equal (after.old_replicas, 8);
  step = sync_once (10, 0, 2, 10, 9, 0, 0, &after);
  assert_int_equal (step.removed_unhealthy, 1);
  assert_int_equal (step.removed_available, 1);
  assert_int_equal (after.old_replicas, 8);
  /* the new ReplicaSet's unavailable pods keep the old ones */
  step = sync_once (10, 0, 2, 8, 8, 2, 0, &after);
  assert_int_equal (step.removed_unhealthy + step.removed_available, 0);
}

/* A whole update of 3 replicas with maxSurge 1, maxUnavailable 0, every new pod available at
 * once: 1 new, then one old out and one new in per sync. */
static void
test_rollout_whole (void **state)
{
  FsRolloutState rollout = { 3, { 1, 0 }, 3, 3, 0, 0 };
  int syncs = 0;
  while (!fs_rollout_done (&rollout) && syncs < 20)
    {
      fs_rollout_sync (&rollout);
      rollout.new_available = rollout.new_replicas;
      syncs++;
      assert_true (rollout.old_replicas + rollout.new_replicas <= 4);
      assert_true (rollout.old_available + rollout.new_available >= 3);
    }
  assert_true (fs_rollout_done (&rollout));
  assert_int_equal (syncs, 6); /* +1 new, -1 old, +1, -1, +1, -1 */
}

/* ---- plans ------------------------------------------------------------------------------ */

static FsPlanAnswer *
plan (const FsSnapshot *snapshot, const char *kind, const char *namespace, const char *name, guint steps)
{
  FsPlanRequest request = { .kind = kind, .namespace = namespace, .name = name, .steps = steps };
  g_autoptr (GError) error = NULL;
  FsPlanAnswer *answer = fs_plan (snapshot, &request, &error);
  if (answer == NULL)
    fail_msg ("%s", error->message);
  return answer;
}

#define NODE(name, cpu, memory, extra)                                                          \
  "{\"kind\":\"Node\",\"metadata\":{\"name\":\"" name "\",\"labels\":{"                          \
  "\"kubernetes.io/hostname\":\"" name "\",\"node.kubernetes.io/instance-type\":\"t-" cpu "-" memory "\"" \
  extra "}},\"status\":{\"allocatable\":{\"cpu\":\"" cpu "\",\"memory\":\"" memory "\","         \
  "\"pods\":\"110\"},\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}}\n"
#define TAINTED_NODE(name, cpu, memory, taint)                                                  \
  "{\"kind\":\"Node\",\"metadata\":{\"name\":\"" name "\",\"labels\":{"                          \
  "\"kubernetes.io/hostname\":\"" name "\"}},\"spec\":{\"taints\":[" taint "]},"                 \
  "\"status\":{\"allocatable\":{\"cpu\":\"" cpu "\",\"memory\":\"" memory "\",\"pods\":\"110\"}," \
  "\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}}\n"
/* A Running, Ready pod of APP on NODE. */
#define POD(name, node, app, cpu, memory, extra)                                                \
  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"" name "\",\"namespace\":\"default\","              \
  "\"labels\":{\"app\":\"" app "\"}},\"spec\":{\"nodeName\":\"" node "\",\"containers\":[{"     \
  "\"name\":\"main\",\"resources\":{\"requests\":{\"cpu\":\"" cpu "\",\"memory\":\"" memory "\"}}}]" \
  extra "},\"status\":{\"phase\":\"Running\",\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}}\n"
#define DEPLOYMENT(name, replicas, cpu, memory, spec_extra, strategy)                           \
  "{\"kind\":\"Deployment\",\"apiVersion\":\"apps/v1\",\"metadata\":{\"name\":\"" name "\","      \
  "\"namespace\":\"default\"},\"spec\":{\"replicas\":" replicas ",\"selector\":{\"matchLabels\":" \
  "{\"app\":\"" name "\"}}," strategy "\"template\":{\"metadata\":{\"labels\":{\"app\":\"" name "\"}}," \
  "\"spec\":{\"containers\":[{\"name\":\"main\",\"resources\":{\"requests\":{\"cpu\":\"" cpu "\","  \
  "\"memory\":\"" memory "\"}}}]" spec_extra "}}}}\n"
#define HPA(target, min, max, desired, metric)                                                  \
  "{\"kind\":\"HorizontalPodAutoscaler\",\"apiVersion\":\"autoscaling/v2\",\"metadata\":{"      \
  "\"name\":\"" target "\",\"namespace\":\"default\"},\"spec\":{\"scaleTargetRef\":{"           \
  "\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"name\":\"" target "\"},\"minReplicas\":" \
  min ",\"maxReplicas\":" max ",\"metrics\":[" metric "]},\"status\":{\"desiredReplicas\":"      \
  desired "}}\n"
#define CPU_METRIC                                                                              \
  "{\"type\":\"Resource\",\"resource\":{\"name\":\"cpu\",\"target\":{\"type\":\"Utilization\","   \
  "\"averageUtilization\":70}}}"
#define MEMORY_METRIC                                                                           \
  "{\"type\":\"Resource\",\"resource\":{\"name\":\"memory\",\"target\":{\"type\":\"Utilization\"," \
  "\"averageUtilization\":80}}}"
#define VPA(target, cpu, memory, lower_memory)                                                  \
  "{\"kind\":\"VerticalPodAutoscaler\",\"apiVersion\":\"autoscaling.k8s.io/v1\",\"metadata\":{" \
  "\"name\":\"" target "\",\"namespace\":\"default\"},\"spec\":{\"targetRef\":{\"apiVersion\":"  \
  "\"apps/v1\",\"kind\":\"Deployment\",\"name\":\"" target "\"}},\"status\":{\"recommendation\":" \
  "{\"containerRecommendations\":[{\"containerName\":\"main\",\"target\":{\"cpu\":\"" cpu "\","   \
  "\"memory\":\"" memory "\"},\"lowerBound\":{\"cpu\":\"1m\",\"memory\":\"" lower_memory "\"}}]}}}\n"

static int64_t
plan_request (const FsPlanAnswer *answer, const FsPlanCandidate *candidate, FsHvpaResource r)
{
  (void) answer;
  return candidate->request[0][r];
}

/* The seed's rag-api (examples/rag-api, README "What fits"): the HPA's 6 x 6Gi leave 4
 * Pending; with the whole workload replaced, node B bounds the memory at which six fit to
 * 11798Mi / 3 = 3932.67Mi.  With 1,000 steps from 6Gi down to the VPA target (2.66Mi each)
 * the plan lands within one step of that bound; all 6 run. */
static void
test_rag_api_trap (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_files ("examples/rag-api", NULL);
  g_autoptr (FsPlanAnswer) answer = plan (snapshot, "deployment", "production", "rag-api", 1000);
  assert_int_equal (answer->target.replicas, 6);
  assert_int_equal (plan_request (answer, &answer->target, FS_HVPA_MEMORY), 6 * GiB);
  assert_int_equal (answer->target.capacity, 2);
  assert_int_equal (answer->target.pending, 4);
  assert_string_equal (answer->target_message, "0/2 nodes are available: 2 Insufficient memory.");
  assert_int_equal (answer->outcome, FS_PLAN_ADJUSTED);
  assert_int_equal (answer->plan.replicas, 6);
  assert_true (answer->plan.schedulable);
  int64_t memory = plan_request (answer, &answer->plan, FS_HVPA_MEMORY);
  assert_true (memory <= 3932 * MiB);
  assert_true (memory > 3929 * MiB);
  assert_int_equal (plan_request (answer, &answer->plan, FS_HVPA_CPU), 500);
  /* never below the VPA's lowerBound; the demand: 6 x min(6Gi, target 3650722201) */
  assert_int_equal (answer->demand.amount[FS_HVPA_MEMORY], 6 * 3650722201LL);
  assert_true (answer->plan.served >= 1.0);
  /* 4 Pending 6Gi pods: 2 new m5.xlarge nodes of 2 each */
  assert_int_equal (answer->nodes_needed->len, 1);
  FsNodeShapeEstimate *estimate = &g_array_index (answer->nodes_needed, FsNodeShapeEstimate, 0);
  assert_string_equal (estimate->shape, "m5.xlarge");
  assert_int_equal (estimate->nodes_needed, 2);
  /* the update: 25 % of 6 gives maxSurge 2, maxUnavailable 1; only 2 of 6 run now, so the
   * controller may not take an old pod away (available 4 < minAvailable 5) and stops with one
   * new pod beside each old one.  maxUnavailable 3 lets it finish. */
  assert_true (answer->rollout.needed);
  assert_false (answer->rollout.completes);
  assert_int_equal (answer->rollout.limits.surge, 2);
  assert_int_equal (answer->rollout.limits.unavailable, 1);
  assert_int_equal (answer->rollout.stuck.old_available, 2);
  assert_int_equal (answer->rollout.stuck.new_available, 2);
  assert_true (answer->rollout.has_fix);
  assert_int_equal (answer->rollout.fix.unavailable, 3);
}

/* The same workload on nodes of 32Gi: no trap, so the plan is the HVPA point itself. */
static void
test_transparent (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (
      NODE ("a", "8", "32Gi", "") NODE ("b", "8", "32Gi", "")
      DEPLOYMENT ("api", "2", "500m", "6Gi", "", "")
      POD ("api-1", "a", "api", "500m", "6Gi", "") POD ("api-2", "b", "api", "500m", "6Gi", "")
      HPA ("api", "2", "6", "6", CPU_METRIC "," MEMORY_METRIC)
      VPA ("api", "500m", "3Gi", "2Gi"));
  g_autoptr (FsPlanAnswer) answer = plan (snapshot, "deployment", "default", "api", 0);
  assert_int_equal (answer->outcome, FS_PLAN_UNCHANGED);
  assert_int_equal (answer->plan.replicas, 6);
  assert_int_equal (plan_request (answer, &answer->plan, FS_HVPA_MEMORY), 6 * GiB);
  assert_true (answer->plan.schedulable);
  assert_false (answer->rollout.needed); /* the same requests: a scale, no rollout */
  assert_null (answer->target_message);
  assert_int_equal (answer->nodes_needed->len, 0);
}

/* The design text's Example 1 (tests/data/hvpa-design with tests/data/plan/tight-nodes.yaml): 4 replicas of 100m/1000Mi, HPA wants
 * 6, VPA 200m/2000Mi; stage 3..7 of weight 0.6 gives P* = 5 x (100m, 1600Mi).  On two nodes
 * of 4000Mi only 2 x 1600Mi fit each: 4 < 5.  The HPA scales on cpu (its default 80 %): the
 * demand is 5 x 100m.  3 replicas at the VPA's 200m/2000Mi hold 600m, fit 2 + 1, and are at
 * distance 0 from both wishes (3 x 200m is the HPA's 6 x 100m, the requests are the target). */
static void
test_hvpa_example1_tight (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_files ("tests/data/hvpa-design", "tests/data/plan/tight-nodes.yaml", NULL);
  g_autoptr (FsPlanAnswer) answer = plan (snapshot, "hvpa", "default", "hvpa-sample", 0);
  assert_true (answer->from_hvpa);
  assert_int_equal (answer->target.replicas, 5);
  assert_int_equal (plan_request (answer, &answer->target, FS_HVPA_MEMORY), 1600 * MiB);
  assert_int_equal (plan_request (answer, &answer->target, FS_HVPA_CPU), 100);
  assert_int_equal (answer->target.capacity, 4);
  assert_int_equal (answer->target.pending, 1);
  assert_true (answer->stage_weight > 0.59 && answer->stage_weight < 0.61);
  assert_true (answer->demand.resource[FS_HVPA_CPU]);
  assert_false (answer->demand.resource[FS_HVPA_MEMORY]);
  assert_int_equal (answer->demand.amount[FS_HVPA_CPU], 500);
  assert_int_equal (answer->outcome, FS_PLAN_ADJUSTED);
  assert_int_equal (answer->plan.replicas, 3);
  assert_int_equal (plan_request (answer, &answer->plan, FS_HVPA_CPU), 200);
  assert_int_equal (plan_request (answer, &answer->plan, FS_HVPA_MEMORY), 2000 * MiB);
  assert_true (answer->plan.distance < 1e-9);
  /* limits keep their ratio to the requests (200m/100m, 2000Mi/1000Mi) */
  assert_int_equal (answer->plan.limit[0][FS_HVPA_CPU], 400);
  assert_true (answer->rollout.completes);
}

/* Example 2 (vpaWeight 1 on [1,1]): at 1 replica the HVPA is purely vertical and asks for
 * the VPA's 6Gi, which no 4Gi node holds.  The HPA scales on memory: the demand is 1 x 6Gi.
 * With weight 1 only the VPA distance counts, so the plan keeps the request as high as fits
 * (the largest step below 4Gi: 1Gi + 5Gi x 29/49 = 4054.2Mi, rounded up to 4055Mi) and adds the
 * replicas the demand needs: 2 x 4054Mi >= 6Gi. */
static void
test_hvpa_example2_vertical (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (
      NODE ("a", "4", "4Gi", "") NODE ("b", "4", "4Gi", "")
      DEPLOYMENT ("db", "1", "100m", "1Gi", "", "")
      POD ("db-1", "a", "db", "100m", "1Gi", "")
      HPA ("db", "1", "10", "3", MEMORY_METRIC)
      VPA ("db", "100m", "6Gi", "1Gi")
      "{\"kind\":\"Hvpa\",\"apiVersion\":\"autoscaling.k8s.io/v1alpha1\",\"metadata\":{\"name\":\"db\","
      "\"namespace\":\"default\"},\"spec\":{\"targetRef\":{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\","
      "\"name\":\"db\"},\"hpaTemplate\":{\"minReplicas\":1,\"maxReplicas\":10},\"weightBasedScalingIntervals\":["
      "{\"vpaWeight\":1,\"startReplicaCount\":1,\"lastReplicaCount\":1},"
      "{\"vpaWeight\":0.6,\"startReplicaCount\":2,\"lastReplicaCount\":4},"
      "{\"vpaWeight\":0,\"startReplicaCount\":5,\"lastReplicaCount\":10}]}}\n");
  g_autoptr (FsPlanAnswer) answer = plan (snapshot, "deployment", "default", "db", 0);
  assert_true (answer->from_hvpa);
  assert_int_equal (answer->target.replicas, 1);
  assert_int_equal (plan_request (answer, &answer->target, FS_HVPA_MEMORY), 6 * GiB);
  assert_int_equal (answer->target.pending, 1);
  assert_int_equal (answer->outcome, FS_PLAN_ADJUSTED);
  assert_int_equal (answer->plan.replicas, 2);
  assert_int_equal (plan_request (answer, &answer->plan, FS_HVPA_MEMORY), 4055 * MiB);
  /* 2 replicas: maxSurge 1, maxUnavailable 0.  The old 1Gi pod on a leaves 3Gi there, so one
   * new pod waits for it while it waits for that pod: stuck.  maxUnavailable 1, no surge,
   * lets it go; as configured, only smaller pods would: the steady alternative. */
  assert_false (answer->rollout.completes);
  assert_int_equal (answer->rollout.fix.surge, 0);
  assert_int_equal (answer->rollout.fix.unavailable, 1);
  assert_true (answer->has_steady);
  assert_true (plan_request (answer, &answer->steady, FS_HVPA_MEMORY) <= 3 * GiB);
}

/* Example 3 ("after maxReplicas ... there is only vertical scaling because HPA is limited by
 * maxReplicas"): 10 replicas of 1000Mi at maxReplicas 10, the HPA wanting 12, the VPA 2000Mi.
 * At the maximum with the HPA asking for more, the weight is 1: P* = 10 x 2000Mi.  Four
 * nodes of 4000Mi take 2 each: 8, two Pending; one more node of that shape holds them.  The
 * HPA's memory demand, 10 x 2000Mi, exceeds the 16000Mi of the whole cluster, so nothing
 * that fits serves it: the plan serves the most, 8 x 2000Mi = 80 %. */
static void
test_hvpa_example3_at_max (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (
      NODE ("a", "4", "4000Mi", "") NODE ("b", "4", "4000Mi", "")
      NODE ("c", "4", "4000Mi", "") NODE ("d", "4", "4000Mi", "")
      DEPLOYMENT ("batch", "10", "100m", "1000Mi", "", "")
      HPA ("batch", "1", "10", "10", MEMORY_METRIC)
      VPA ("batch", "100m", "2000Mi", "1000Mi")
      "{\"kind\":\"Hvpa\",\"apiVersion\":\"autoscaling.k8s.io/v1alpha1\",\"metadata\":{\"name\":\"batch\","
      "\"namespace\":\"default\"},\"spec\":{\"targetRef\":{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\","
      "\"name\":\"batch\"},\"hpaTemplate\":{\"minReplicas\":1,\"maxReplicas\":10},\"weightBasedScalingIntervals\":["
      "{\"vpaWeight\":0,\"startReplicaCount\":1,\"lastReplicaCount\":3},"
      "{\"vpaWeight\":0.6,\"startReplicaCount\":4,\"lastReplicaCount\":10}]}}\n");
  FsPlanRequest request = { .kind = "hvpa", .namespace = "default", .name = "batch",
                            .has_hpa_desired = TRUE, .hpa_desired = 12 };
  g_autoptr (GError) error = NULL;
  g_autoptr (FsPlanAnswer) answer = fs_plan (snapshot, &request, &error);
  assert_non_null (answer);
  assert_true (answer->stage_weight > 0.999);
  assert_int_equal (answer->target.replicas, 10);
  assert_int_equal (plan_request (answer, &answer->target, FS_HVPA_MEMORY), 2000 * MiB);
  assert_int_equal (answer->target.capacity, 8);
  assert_int_equal (answer->target.pending, 2);
  assert_int_equal (answer->outcome, FS_PLAN_INFEASIBLE);
  assert_int_equal (answer->plan.replicas, 8);
  assert_int_equal (plan_request (answer, &answer->plan, FS_HVPA_MEMORY), 2000 * MiB);
  assert_true (answer->plan.served > 0.799 && answer->plan.served < 0.801);
  FsNodeShapeEstimate *estimate = &g_array_index (answer->nodes_needed, FsNodeShapeEstimate, 0);
  assert_int_equal (estimate->per_node, 2);
  assert_int_equal (estimate->nodes_needed, 1);
}

/* Three nodes, only one usable: b lacks the pool label, c has a taint api does not
 * tolerate.  a (4 cpu, 8Gi) holds the 2 api pods (1 cpu, 2Gi each) and a 3Gi cache: no room
 * for a third at 2Gi.  The HPA (cpu) wants 4: 4 x 1 cpu fill a's 4 cpu exactly, and memory
 * must come down to 5Gi / 4; the smallest step, the VPA's 1Gi, wins the tie on size. */
static void
test_taints_and_selectors (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (
      NODE ("a", "4", "8Gi", ",\"pool\":\"web\"") NODE ("b", "4", "8Gi", "")
      TAINTED_NODE ("c", "4", "8Gi", "{\"key\":\"dedicated\",\"value\":\"gpu\",\"effect\":\"NoSchedule\"}")
      DEPLOYMENT ("api", "2", "1", "2Gi", ",\"nodeSelector\":{\"pool\":\"web\"}", "")
      POD ("api-1", "a", "api", "1", "2Gi", ",\"nodeSelector\":{\"pool\":\"web\"}")
      POD ("api-2", "a", "api", "1", "2Gi", ",\"nodeSelector\":{\"pool\":\"web\"}")
      POD ("cache", "a", "cache", "0", "3Gi", "")
      HPA ("api", "1", "10", "4", CPU_METRIC) VPA ("api", "1", "1Gi", "512Mi"));
  g_autoptr (FsPlanAnswer) answer = plan (snapshot, "deployment", "default", "api", 0);
  assert_int_equal (answer->target.capacity, 2);
  assert_string_equal (answer->target_message,
                       "0/3 nodes are available: 1 Insufficient memory, 1 node(s) didn't match Pod's node "
                       "affinity/selector, 1 node(s) had untolerated taint {dedicated: gpu}.");
  assert_int_equal (answer->outcome, FS_PLAN_ADJUSTED);
  assert_int_equal (answer->plan.replicas, 4);
  assert_int_equal (plan_request (answer, &answer->plan, FS_HVPA_MEMORY), GiB);
}

/* tests/data/plan/web-anti-affinity.yaml: required anti-affinity on the hostname, one web
 * pod per node, three nodes.  The HPA wants
 * 5 x 1 cpu; 3 replicas must carry 5 cpu, so 1667m at least: the first step above, with 50
 * steps from 1 to 2 cpu, is 1000 + trunc(1000 x 33/49) = 1673m.  The update with the 25 %
 * defaults (maxSurge 1, maxUnavailable 0) cannot start: the surge pod repels, and is
 * repelled by, an old pod on every node.  With no surge and maxUnavailable 1 it completes. */
static void
test_anti_affinity_and_surge (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_files ("tests/data/plan/web-anti-affinity.yaml", NULL);
  g_autoptr (FsPlanAnswer) answer = plan (snapshot, "deployment", "default", "web", 0);
  assert_int_equal (answer->target.replicas, 5);
  assert_int_equal (answer->target.capacity, 3);
  assert_string_equal (answer->target_message,
                       "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules.");
  assert_int_equal (answer->plan.replicas, 3);
  assert_int_equal (plan_request (answer, &answer->plan, FS_HVPA_CPU), 1673);
  assert_true (answer->plan.served >= 1.0);
  assert_int_equal (answer->rollout.limits.surge, 1);
  assert_int_equal (answer->rollout.limits.unavailable, 0);
  assert_false (answer->rollout.completes);
  assert_true (answer->rollout.has_fix);
  assert_int_equal (answer->rollout.fix.surge, 0);
  assert_int_equal (answer->rollout.fix.unavailable, 1);
}

/* tests/data/plan/queue-infeasible.yaml: a Pods metric wants 8 queue workers of 2 cpu; two 4-cpu nodes hold 4 at any request down to
 * the VPA's 1500m (2 per node), so nothing serves the demand: the plan serves 4/8 = 50 %, with
 * the smaller request (no rollout needed at 2 cpu either, but 1500m is the smaller size).  P*
 * leaves 4 Pending: by hand, a new 4-cpu node takes 2, so 2 nodes. */
static void
test_infeasible_demand (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_files ("tests/data/plan/queue-infeasible.yaml", NULL);
  g_autoptr (FsPlanAnswer) answer = plan (snapshot, "deployment", "default", "queue", 0);
  assert_true (answer->demand.replicas_metric);
  assert_int_equal (answer->demand.replicas, 8);
  assert_int_equal (answer->target.pending, 4);
  assert_int_equal (answer->outcome, FS_PLAN_INFEASIBLE);
  assert_int_equal (answer->plan.replicas, 4);
  assert_true (answer->plan.schedulable);
  assert_true (answer->plan.served > 0.499 && answer->plan.served < 0.501);
  assert_int_equal (plan_request (answer, &answer->plan, FS_HVPA_CPU), 1500);
  assert_int_equal (answer->nodes_needed->len, 1);
  FsNodeShapeEstimate *estimate = &g_array_index (answer->nodes_needed, FsNodeShapeEstimate, 0);
  assert_int_equal (estimate->per_node, 2);
  assert_int_equal (estimate->nodes_needed, 2);
}

/* The same snapshot and request give the same plan, and a missing workload is an error that
 * names it. */
static void
test_deterministic_and_errors (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_files ("examples/rag-api", NULL);
  g_autoptr (FsPlanAnswer) first = plan (snapshot, "deployment", "production", "rag-api", 0);
  g_autoptr (FsPlanAnswer) second = plan (snapshot, "deploy", "production", "rag-api", 0);
  assert_int_equal (first->plan.replicas, second->plan.replicas);
  assert_memory_equal (first->plan.request, second->plan.request, sizeof first->plan.request);
  assert_true (first->plan.distance == second->plan.distance);
  assert_string_equal (first->reason, second->reason);
  FsPlanRequest request = { .kind = "deployment", .namespace = "production", .name = "nope" };
  g_autoptr (GError) error = NULL;
  assert_null (fs_plan (snapshot, &request, &error));
  assert_non_null (strstr (error->message, "Deployment \"nope\" not found in namespace \"production\""));
  g_clear_error (&error);
  request.kind = "daemonset";
  assert_null (fs_plan (snapshot, &request, &error));
  assert_non_null (strstr (error->message, "\"daemonset\""));
  g_clear_error (&error);
  request = (FsPlanRequest){ .kind = "deployment", .namespace = "production", .name = "rag-api",
                             .n_vpa_targets = 1, .vpa_targets = { { .container = "sidecar" } } };
  assert_null (fs_plan (snapshot, &request, &error));
  assert_non_null (strstr (error->message, "no container \"sidecar\""));
}

/* --hpa-desired and --vpa-target override the objects; weight 1 makes P* the VPA target. */
static void
test_overrides (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_files ("examples/rag-api", NULL);
  FsPlanRequest request = { .kind = "deployment", .namespace = "production", .name = "rag-api",
                            .has_hpa_desired = TRUE, .hpa_desired = 4, .has_vpa_weight = TRUE,
                            .vpa_weight = 1, .n_vpa_targets = 1 };
  request.vpa_targets[0] = (FsPlanVpaTarget){ .container = "rag-api", .has = { FALSE, TRUE },
                                              .amount = { 0, 3 * GiB } };
  g_autoptr (GError) error = NULL;
  g_autoptr (FsPlanAnswer) answer = fs_plan (snapshot, &request, &error);
  assert_non_null (answer);
  assert_string_equal (answer->hpa_desired_from, "--hpa-desired");
  assert_int_equal (answer->hpa_desired, 4);
  /* weight 1 everywhere: the replicas stay at the current 6, the requests go to the target */
  assert_int_equal (answer->target.replicas, 6);
  assert_int_equal (plan_request (answer, &answer->target, FS_HVPA_MEMORY), 3 * GiB);
  assert_true (answer->target.schedulable); /* 3 + 3 at 3Gi: README "What fits" */
}

/* The Hvpa adopts the HPA its selector matches, matchExpressions included
 * (hvpa_controller.go reconcileHpa: metav1.LabelSelectorAsSelector): "a-old" carries the
 * matchLabels but tier=old, which the expression excludes, so the Hvpa's HPA is "b-web",
 * found by its target reference. */
static void
test_hvpa_selector_expressions (void **state)
{
  static const char text[] =
    "apiVersion: apps/v1\n"
    "kind: Deployment\n"
    "metadata: {name: web, namespace: shop}\n"
    "spec:\n"
    "  replicas: 2\n"
    "  selector: {matchLabels: {app: web}}\n"
    "  template:\n"
    "    metadata: {labels: {app: web}}\n"
    "    spec: {containers: [{name: web, resources: {requests: {cpu: 100m, memory: 100Mi}}}]}\n"
    "---\n"
    "apiVersion: autoscaling.k8s.io/v1alpha1\n"
    "kind: Hvpa\n"
    "metadata: {name: web, namespace: shop}\n"
    "spec:\n"
    "  targetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n"
    "  hpa:\n"
    "    selector:\n"
    "      matchLabels: {app: web}\n"
    "      matchExpressions: [{key: tier, operator: NotIn, values: [old]}]\n"
    "    template: {spec: {minReplicas: 1, maxReplicas: 10}}\n"
    "  weightBasedScalingIntervals: [{vpaWeight: 0, startReplicaCount: 1, lastReplicaCount: 10}]\n"
    "---\n"
    "apiVersion: autoscaling/v2\n"
    "kind: HorizontalPodAutoscaler\n"
    "metadata: {name: a-old, namespace: shop, labels: {app: web, tier: old}}\n"
    "spec: {scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: legacy}, maxReplicas: 10}\n"
    "status: {currentReplicas: 2, desiredReplicas: 9}\n"
    "---\n"
    "apiVersion: autoscaling/v2\n"
    "kind: HorizontalPodAutoscaler\n"
    "metadata: {name: b-web, namespace: shop}\n"
    "spec: {scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}, maxReplicas: 10}\n"
    "status: {currentReplicas: 2, desiredReplicas: 4}\n";
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (text);
  const FsGenericObject *hvpa = fs_snapshot_find_hvpa (snapshot, "shop", "web");
  assert_non_null (hvpa);
  g_autofree FsHvpaAnswer *answer = g_new0 (FsHvpaAnswer, 1);
  g_autoptr (GError) error = NULL;
  assert_true (fs_hvpa_gather (snapshot, hvpa, 0, answer, &error));
  assert_non_null (answer->hpa);
  assert_string_equal (answer->hpa->name, "b-web");
  assert_int_equal (answer->input.desired_replicas, 4);
}

/* The ranking's tie on replicas (docs/algorithm.md: served, distance, size, then fewer
 * replicas): with the VPA target 250m/3Gi, 4 desired and two request steps (the current
 * 500m/6Gi and the target), 2 x 6Gi and 4 x 3Gi both serve the demand, lie ln 2 from the
 * targets and take the same room; the 2 replicas rank first. */
static void
test_rank_tie_fewer_replicas_first (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_files ("examples/rag-api", NULL);
  FsPlanRequest request = { .kind = "deployment", .namespace = "production", .name = "rag-api",
                            .steps = 2, .has_hpa_desired = TRUE, .hpa_desired = 4,
                            .n_vpa_targets = 1 };
  request.vpa_targets[0] = (FsPlanVpaTarget){ .container = "rag-api", .has = { TRUE, TRUE },
                                              .amount = { 250, 3 * GiB } };
  g_autoptr (GError) error = NULL;
  g_autoptr (FsPlanAnswer) answer = fs_plan (snapshot, &request, &error);
  assert_non_null (answer);
  assert_int_equal (answer->plan.replicas, 6);
  static const int32_t order[] = { 5, 2, 4, 3 };
  assert_int_equal (answer->alternatives->len, G_N_ELEMENTS (order));
  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    assert_int_equal (g_array_index (answer->alternatives, FsPlanCandidate, i).replicas, order[i]);
  const FsPlanCandidate *two = &g_array_index (answer->alternatives, FsPlanCandidate, 1);
  const FsPlanCandidate *four = &g_array_index (answer->alternatives, FsPlanCandidate, 2);
  assert_int_equal (plan_request (answer, two, FS_HVPA_MEMORY), 6 * GiB);
  assert_int_equal (plan_request (answer, four, FS_HVPA_MEMORY), 3 * GiB);
  assert_true (two->served == four->served && two->distance == four->distance
               && two->size == four->size);
}

/* P* against the best ranked pair: P* wins their tie.  With weight 1 to 3Gi and 4 desired
 * (test_overrides) P* is 6 x 3Gi: it fits but its update stops half way, and the best ranked
 * pair is P* itself (same replicas and requests, so equal in every key); the plan stays P*,
 * unchanged, with P*'s own rollout. */
static void
test_target_wins_rank_tie (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_files ("examples/rag-api", NULL);
  FsPlanRequest request = { .kind = "deployment", .namespace = "production", .name = "rag-api",
                            .has_hpa_desired = TRUE, .hpa_desired = 4, .has_vpa_weight = TRUE,
                            .vpa_weight = 1, .n_vpa_targets = 1 };
  request.vpa_targets[0] = (FsPlanVpaTarget){ .container = "rag-api", .has = { FALSE, TRUE },
                                              .amount = { 0, 3 * GiB } };
  g_autoptr (GError) error = NULL;
  g_autoptr (FsPlanAnswer) answer = fs_plan (snapshot, &request, &error);
  assert_non_null (answer);
  assert_true (answer->target.schedulable);
  assert_false (answer->target_rollout.completes);
  assert_int_equal (answer->outcome, FS_PLAN_UNCHANGED);
  assert_int_equal (answer->plan.replicas, answer->target.replicas);
  assert_int_equal (plan_request (answer, &answer->plan, FS_HVPA_MEMORY), 3 * GiB);
  assert_false (answer->rollout.completes);
  assert_non_null (strstr (answer->reason, "The HPA/VPA point is 6 x (cpu=500m,memory=3Gi): its "
                                           "final state fits, but its rolling update stops before it completes."));
}

/* ---- the per-snapshot memo (plan/memo.h) ----------------------------------------------- */

/* Three nodes; api (2 x 500m/3Gi, a VPA toward 250m/1Gi) and web (a hard spread over the
 * hosts, so its packing reads the pods: fs_pack, not the closed form).  Many HPA wishes
 * leave P* Pending, so the memo keeps messages and new nodes too.  EXTRA: more nodes. */
#define MEMO_CLUSTER(extra)                                                                      \
  NODE ("a", "4", "8Gi", "") NODE ("b", "4", "8Gi", "") NODE ("c", "4", "8Gi", "") extra            \
  DEPLOYMENT ("api", "2", "500m", "3Gi", "", "")                                                   \
  POD ("api-1", "a", "api", "500m", "3Gi", "") POD ("api-2", "b", "api", "500m", "3Gi", "")       \
  HPA ("api", "1", "30", "4", CPU_METRIC "," MEMORY_METRIC) VPA ("api", "250m", "1Gi", "512Mi")    \
  DEPLOYMENT ("web", "1", "1", "2Gi", SPREAD, "") POD ("web-1", "c", "web", "1", "2Gi", SPREAD)    \
  HPA ("web", "1", "30", "2", CPU_METRIC) VPA ("web", "500m", "1Gi", "512Mi")
#define SPREAD                                                                                   \
  ",\"topologySpreadConstraints\":[{\"maxSkew\":1,\"topologyKey\":\"kubernetes.io/hostname\","   \
  "\"whenUnsatisfiable\":\"DoNotSchedule\",\"labelSelector\":{\"matchLabels\":{\"app\":\"web\"}}}]"

/* The plan document for NAME with the HPA wishing DESIRED (and vpaWeight WEIGHT when >= 0),
 * planned with MEMO (NULL: alone). */
static char *
memo_plan_json (const FsSnapshot *snapshot, FsPlanMemo *memo, const char *name, int32_t desired, double weight)
{
  FsPlanRequest request = { .kind = "deployment", .namespace = "default", .name = name, .steps = 20,
                            .has_hpa_desired = TRUE, .hpa_desired = desired, .has_vpa_weight = weight >= 0,
                            .vpa_weight = weight >= 0 ? weight : 0 };
  g_autoptr (GError) error = NULL;
  g_autoptr (FsPlanAnswer) answer = memo != NULL ? fs_plan_shared (snapshot, memo, &request, &error)
                                                 : fs_plan (snapshot, &request, &error);
  if (answer == NULL)
    fail_msg ("%s", error->message);
  FsEmitter *emitter = fs_emitter_new_string ();
  fs_render_plan (emitter, answer);
  return fs_emitter_take_string (emitter);
}

/* Many hpaDesiredReplicas (and vpaWeights) on one snapshot, twice over, with one memo: every
 * document is the one planned alone, byte for byte, and the second round is answered from
 * what the first kept. */
static void
test_memo_same_bytes (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (MEMO_CLUSTER (""));
  g_autoptr (FsPlanMemo) memo = fs_plan_memo_new (snapshot);
  static const char *const names[] = { "api", "web" };
  static const double weights[] = { -1, 0, 0.5, 1 };
  guint pending = 0;
  for (int round = 0; round < 2; round++)
    {
      FsPlanMemoStats before = fs_plan_memo_stats (memo);
      for (guint n = 0; n < G_N_ELEMENTS (names); n++)
        for (guint w = 0; w < G_N_ELEMENTS (weights); w++)
          for (int32_t desired = 1; desired <= 30; desired++)
            {
              g_autofree char *alone = memo_plan_json (snapshot, NULL, names[n], desired, weights[w]);
              g_autofree char *shared = memo_plan_json (snapshot, memo, names[n], desired, weights[w]);
              assert_string_equal (shared, alone);
              pending += round == 0 && strstr (alone, "\"hvpaPendingMessage\":\"0/3") != NULL;
            }
      FsPlanMemoStats after = fs_plan_memo_stats (memo);
      if (round == 0)
        assert_true (after.misses > 0);
      else
        assert_true (after.misses == before.misses && after.hits > before.hits); /* all kept */
    }
  assert_true (pending > 20); /* the Pending path was compared, not only fitting ones */
}

/* A new snapshot gets a new memo; nothing planned on the old one is reused: a node added
 * changes the answer, and the memo of the old snapshot is not used for the new one. */
static void
test_memo_new_snapshot (void **state)
{
  g_autoptr (FsSnapshot) old_snapshot = test_load_valid_text (MEMO_CLUSTER (""));
  g_autoptr (FsSnapshot) new_snapshot = test_load_valid_text (MEMO_CLUSTER (NODE ("d", "16", "64Gi", "")));
  FsPlanMemo *slot = NULL;
  GMutex lock;
  g_mutex_init (&lock);
  g_autoptr (FsPlanMemo) old_memo = fs_plan_memo_for (&slot, &lock, old_snapshot);
  g_autofree char *old_answer = memo_plan_json (old_snapshot, old_memo, "api", 12, -1);
  g_autofree char *web_old = memo_plan_json (old_snapshot, old_memo, "web", 6, -1);
  g_autoptr (FsPlanMemo) same = fs_plan_memo_for (&slot, &lock, old_snapshot);
  assert_ptr_equal (same, old_memo);
  g_autoptr (FsPlanMemo) new_memo = fs_plan_memo_for (&slot, &lock, new_snapshot);
  assert_ptr_not_equal (new_memo, old_memo);
  assert_ptr_equal (fs_plan_memo_snapshot (new_memo), new_snapshot);
  g_autofree char *fresh = memo_plan_json (new_snapshot, NULL, "api", 12, -1);
  g_autofree char *shared = memo_plan_json (new_snapshot, new_memo, "api", 12, -1);
  g_autofree char *with_old = memo_plan_json (new_snapshot, old_memo, "api", 12, -1);
  assert_string_equal (shared, fresh);
  assert_string_equal (with_old, fresh);
  assert_string_not_equal (fresh, old_answer); /* node d holds what did not fit */
  g_autofree char *web_fresh = memo_plan_json (new_snapshot, NULL, "web", 6, -1);
  g_autofree char *web_shared = memo_plan_json (new_snapshot, new_memo, "web", 6, -1);
  assert_string_equal (web_shared, web_fresh);
  assert_string_not_equal (web_fresh, web_old);
  g_clear_pointer (&slot, fs_plan_memo_unref);
  g_mutex_clear (&lock);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_fenceposts),
    cmocka_unit_test (test_rollout_scale_up),
    cmocka_unit_test (test_rollout_scale_down),
    cmocka_unit_test (test_rollout_whole),
    cmocka_unit_test (test_rag_api_trap),
    cmocka_unit_test (test_transparent),
    cmocka_unit_test (test_hvpa_example1_tight),
    cmocka_unit_test (test_hvpa_example2_vertical),
    cmocka_unit_test (test_hvpa_example3_at_max),
    cmocka_unit_test (test_taints_and_selectors),
    cmocka_unit_test (test_anti_affinity_and_surge),
    cmocka_unit_test (test_infeasible_demand),
    cmocka_unit_test (test_deterministic_and_errors),
    cmocka_unit_test (test_overrides),
    cmocka_unit_test (test_hvpa_selector_expressions),
    cmocka_unit_test (test_rank_tie_fewer_replicas_first),
    cmocka_unit_test (test_target_wins_rank_tie),
    cmocka_unit_test (test_memo_same_bytes),
    cmocka_unit_test (test_memo_new_snapshot),
  };
  return cmocka_run_group_tests (tests, NULL, NULL);
}
