/* Every sentence true: the answers' texts and per-node reasons checked against scenarios
 * where they are printed (issue 16).  Each case names the sentence it once got wrong. */
#include "config.h"

#include "testutil.h"
#include "fitscale/plan/capacity.h"
#include "fitscale/plan/plan.h"
#include "fitscale/plan/shape.h"

#define KAFKA "tests/data/plan/kafka-anti-affinity.yaml"

/* capacity --from statefulset/kafka: a and b take one replica each because of the replicas'
 * own anti-affinity; it said "Insufficient cpu" for nodes with 8 cpu free. */
static void
test_anti_affinity_is_why_a_node_takes_no_more (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_files (KAFKA, NULL);
  const FsWorkload *kafka = fs_snapshot_find_workload (snapshot, "data", "StatefulSet", "kafka");
  assert_non_null (kafka);
  FsPodShape shape = { .namespace = kafka->namespace, .labels = kafka->template_labels,
                       .spec = kafka->template, .priority = 0 };
  g_autoptr (FsCapacityAnswer) answer = fs_capacity_answer (snapshot, &shape, -1, kafka);
  assert_int_equal (answer->pack.capacity, 2);
  for (guint i = 0; i < 2; i++)  /* a, b */
    {
      const FsNodeFit *fit = &answer->nodes[i];
      assert_int_equal (fit->capacity, 1);
      g_autoptr (GPtrArray) reasons = g_ptr_array_new_with_free_func (g_free);
      fs_verdict_reasons (&fit->limit, reasons);
      assert_int_equal (reasons->len, 1);
      assert_string_equal (reasons->pdata[0], "node(s) didn't match pod anti-affinity rules");
    }
}

/* plan statefulset/kafka: 2 of 3 replicas schedule; it ended "Not one replica of any
 * candidate schedules". */
static void
test_infeasible_plan_says_how_many_schedule (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_files (KAFKA, NULL);
  FsPlanRequest request = { .kind = "statefulset", .namespace = "data", .name = "kafka" };
  g_autoptr (GError) error = NULL;
  g_autoptr (FsPlanAnswer) answer = fs_plan (snapshot, &request, &error);
  assert_non_null (answer);
  assert_int_equal (answer->outcome, FS_PLAN_INFEASIBLE);
  assert_null (strstr (answer->reason, "Not one replica"));
  assert_non_null (strstr (answer->reason, "2 of its 3 replicas schedule"));
}

/* plan statefulset/kafka: the SERVED column said 100 % for the HVPA point and the workload
 * as it runs, with one of their three replicas Pending: a Pending replica serves nothing. */
static void
test_pending_replicas_serve_nothing (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_files (KAFKA, NULL);
  FsPlanRequest request = { .kind = "statefulset", .namespace = "data", .name = "kafka" };
  g_autoptr (GError) error = NULL;
  g_autoptr (FsPlanAnswer) answer = fs_plan (snapshot, &request, &error);
  assert_non_null (answer);
  assert_int_equal (answer->target.pending, 1);
  assert_true (answer->target.served > 0.666 && answer->target.served < 0.667);
  assert_true (answer->current.served > 0.666 && answer->current.served < 0.667);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_anti_affinity_is_why_a_node_takes_no_more),
    cmocka_unit_test (test_infeasible_plan_says_how_many_schedule),
    cmocka_unit_test (test_pending_replicas_serve_nothing),
  };
  return cmocka_run_group_tests (tests, NULL, NULL);
}
