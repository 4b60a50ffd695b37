/* The HPA arithmetic (src/model/hpa.c) against cases transcribed from kubernetes/kubernetes
 * pkg/controller/podautoscaler/replica_calculator_test.go and horizontal_test.go (each case
 * names its upstream test), plus the worked numbers of the project's seed documents (the pending-pods worked
 * example and the Elasticsearch behavior reference, docs/hpa.md). */
#include "config.h"

#include <math.h>

#include "testutil.h"
#include "fitscale/model/hpa.h"

#define NOW_MS INT64_C (1800000000000)
/* Go's zero time.Time (0001-01-01T00:00:00Z) in unix milliseconds: upstream's test pods
 * carry it as start time, transition time and sample timestamp when a case sets none. */
#define GO_ZERO_MS INT64_C (-62135596800000)
#define SEC INT64_C (1000)
#define MINUTE (60 * SEC)

/* replica_calculator.go defaultTestingCPUInitializationPeriod / ...DelayOfInitialReadinessStatus
 * / defaultTestingTolerance: 2 min, 10 s, 0.1. */
static FsHpaSettings
upstream_test_settings (void)
{
  FsHpaSettings settings = fs_hpa_default_settings (NOW_MS);
  settings.cpu_initialization_period_ms = 2 * MINUTE;
  settings.initial_readiness_delay_ms = 10 * SEC;
  return settings;
}

/* ---- replica_calculator_test.go: GetResourceReplicas cases ------------------------------- */

/* One replicaCalcTestCase with a cpu resource.  Pods: max(current, strlen(phases)).  Each pod
 * has CONTAINERS containers each requesting REQUESTS[i] and using LEVELS[i]
 * (makePodMetricLevels); CONTAINERS 1 stands for the ContainerResource cases (only that
 * container counted).  REQUESTS and LEVELS end at the first 0: later pods have no request / no
 * sample.  READINESS 'T'/'F' (default T), STARTS 'h' hotCPUCreationTime (now) / 'c'
 * coolCPUCreationTime (now - 3 min) (default Go zero time), PHASES 'R' Running, 'P' Pending,
 * 'F' Failed, DELETED 'D'. */
typedef struct {
  const char *name;
  int32_t current, expected;
  int32_t target;
  int containers;
  int64_t requests[10];
  int64_t levels[10];
  const char *readiness, *starts, *phases, *deleted;
  int32_t utilization;
  int64_t value;
  const char *error;
} ResourceCase;

static guint
count_until_zero (const int64_t *values, guint max)
{
  guint n = 0;
  while (n < max && values[n] != 0)
    n++;
  return n;
}

static guint
build_pods (const ResourceCase *tc, FsHpaPod *pods, char names[][16])
{
  guint n = (guint) tc->current;
  if (tc->phases && strlen (tc->phases) > n)
    n = (guint) strlen (tc->phases);
  guint n_requests = count_until_zero (tc->requests, G_N_ELEMENTS (tc->requests));
  guint n_levels = count_until_zero (tc->levels, G_N_ELEMENTS (tc->levels));
  for (guint i = 0; i < n; i++)
    {
      FsHpaPod *pod = &pods[i];
      memset (pod, 0, sizeof *pod);
      g_snprintf (names[i], 16, "test-pod-%u", i);
      pod->name = names[i];
      char phase = tc->phases ? tc->phases[i] : 'R';
      pod->pending = phase == 'P';
      pod->failed = phase == 'F';
      pod->deleted = tc->deleted && tc->deleted[i] == 'D';
      pod->has_ready = TRUE;
      pod->ready = !(tc->readiness && i < strlen (tc->readiness) && tc->readiness[i] == 'F');
      pod->ready_transition_ms = GO_ZERO_MS;
      pod->has_start = TRUE;
      char start = tc->starts ? tc->starts[i] : '0';
      pod->start_ms = start == 'h' ? NOW_MS : start == 'c' ? NOW_MS - 3 * MINUTE : GO_ZERO_MS;
      pod->has_metric = i < n_levels;
      pod->metric_milli = pod->has_metric ? tc->levels[i] * tc->containers : 0;
      pod->metric_timestamp_ms = GO_ZERO_MS;
      pod->metric_window_ms = MINUTE;
      pod->has_request = i < n_requests;
      pod->request_milli = pod->has_request ? tc->requests[i] * tc->containers : 0;
    }
  return n;
}

static const ResourceCase resource_cases[] = {
  { "TestReplicaCalcScaleUp", 3, 5, 30, 2, { 1000, 1000, 1000 }, { 300, 500, 700 },
    NULL, NULL, NULL, NULL, 50, 2 * 500, NULL },
  { "TestReplicaCalcContainerScaleUp", 3, 5, 30, 1, { 1000, 1000, 1000 }, { 300, 500, 700 },
    NULL, NULL, NULL, NULL, 50, 500, NULL },
  { "TestReplicaCalcScaleUpUnreadyLessScale", 3, 4, 30, 2, { 1000, 1000, 1000 },
    { 300, 500, 700 }, "FTT", NULL, NULL, NULL, 60, 2 * 600, NULL },
  { "TestReplicaCalcScaleUpContainerHotCpuLessScale", 3, 4, 30, 1, { 1000, 1000, 1000 },
    { 300, 500, 700 }, NULL, "hcc", NULL, NULL, 60, 600, NULL },
  { "TestReplicaCalcScaleUpHotCpuLessScale", 3, 4, 30, 2, { 1000, 1000, 1000 },
    { 300, 500, 700 }, NULL, "hcc", NULL, NULL, 60, 2 * 600, NULL },
  { "TestReplicaCalcScaleUpUnreadyNoScale", 3, 3, 30, 2, { 1000, 1000, 1000 },
    { 400, 500, 700 }, "TFF", NULL, NULL, NULL, 40, 2 * 400, NULL },
  { "TestReplicaCalcScaleHotCpuNoScale", 3, 3, 30, 2, { 1000, 1000, 1000 }, { 400, 500, 700 },
    "TFF", "chh", NULL, NULL, 40, 2 * 400, NULL },
  { "TestReplicaCalcScaleUpIgnoresFailedPods", 2, 4, 30, 2, { 1000, 1000, 1000, 1000 },
    { 500, 700 }, "TTFF", NULL, "RRFF", NULL, 60, 2 * 600, NULL },
  { "TestReplicaCalcMissingContainerMetricScaleUpIgnoresFailedPods", 2, 4, 30, 1,
    { 1000, 1000, 1000, 1000 }, { 500, 700 }, "TTFF", NULL, "RRFF", NULL, 60, 600, NULL },
  { "TestReplicaCalcScaleUpContainerIgnoresFailedPods", 2, 4, 30, 1, { 1000, 1000, 1000, 1000 },
    { 500, 700 }, "TTFF", NULL, "RRFF", NULL, 60, 600, NULL },
  { "TestReplicaCalcScaleUpIgnoresDeletionPods", 2, 4, 30, 2, { 1000, 1000, 1000, 1000 },
    { 500, 700 }, "TTFF", NULL, "RRRR", "..DD", 60, 2 * 600, NULL },
  { "TestReplicaCalcScaleDown", 5, 3, 50, 2, { 1000, 1000, 1000, 1000, 1000 },
    { 100, 300, 500, 250, 250 }, NULL, NULL, NULL, NULL, 28, 2 * 280, NULL },
  { "TestReplicaCalcContainerScaleDown", 5, 3, 50, 1, { 1000, 1000, 1000, 1000, 1000 },
    { 100, 300, 500, 250, 250 }, NULL, NULL, NULL, NULL, 28, 280, NULL },
  { "TestReplicaCalcScaleDownExcludeUnreadyPods", 5, 2, 50, 2, { 1000, 1000, 1000, 1000, 1000 },
    { 100, 300, 500, 250, 250 }, "TTTFF", NULL, NULL, NULL, 30, 2 * 300, NULL },
  { "TestReplicaCalcScaleDownContainerExcludeUnreadyPods", 5, 2, 50, 1,
    { 1000, 1000, 1000, 1000, 1000 }, { 100, 300, 500, 250, 250 }, "TTTFF", NULL, NULL, NULL,
    30, 300, NULL },
  { "TestReplicaCalcScaleDownExcludeUnscheduledPods", 5, 1, 50, 2,
    { 1000, 1000, 1000, 1000, 1000 }, { 100 }, "TFFFF", NULL, "RPPPP", NULL, 10, 2 * 100, NULL },
  { "TestReplicaCalcScaleDownContainerExcludeUnscheduledPods", 5, 1, 50, 1,
    { 1000, 1000, 1000, 1000, 1000 }, { 100, 300, 500, 250, 250 }, "TFFFF", NULL, "RPPPP", NULL,
    10, 100, NULL },
  { "TestReplicaCalcScaleDownIgnoreHotCpuPods", 5, 2, 50, 2, { 1000, 1000, 1000, 1000, 1000 },
    { 100, 300, 500, 250, 250 }, NULL, "ccchh", NULL, NULL, 30, 2 * 300, NULL },
  { "TestReplicaCalcScaleDownContainerIgnoreHotCpuPods", 5, 2, 50, 1,
    { 1000, 1000, 1000, 1000, 1000 }, { 100, 300, 500, 1000, 1000 }, NULL, "ccchh", NULL, NULL,
    30, 300, NULL },
  { "TestReplicaCalcScaleDownIgnoresFailedPods", 5, 3, 50, 2,
    { 1000, 1000, 1000, 1000, 1000, 1000, 1000 }, { 100, 300, 500, 250, 250 }, "TTTTTFF", NULL,
    "RRRRRFF", NULL, 28, 2 * 280, NULL },
  { "TestReplicaCalcScaleDownContainerIgnoresFailedPods", 5, 3, 50, 1,
    { 1000, 1000, 1000, 1000, 1000, 1000, 1000 }, { 100, 300, 500, 250, 250 }, "TTTTTFF", NULL,
    "RRRRRFF", NULL, 28, 280, NULL },
  { "TestReplicaCalcScaleDownIgnoresDeletionPods", 5, 3, 50, 2,
    { 1000, 1000, 1000, 1000, 1000, 1000, 1000 }, { 100, 300, 500, 250, 250 }, "TTTTTFF", NULL,
    "RRRRRRR", ".....DD", 28, 2 * 280, NULL },
  { "TestReplicaCalcScaleDownIgnoresDeletionPods_StillRunning", 5, 3, 50, 1,
    { 1000, 1000, 1000, 1000, 1000, 1000, 1000 }, { 100, 300, 500, 250, 250 }, "TTTTTFF", NULL,
    "RRRRRRR", ".....DD", 28, 280, NULL },
  { "TestReplicaCalcTolerance", 3, 3, 100, 2, { 900, 1000, 1100 }, { 1010, 1030, 1020 }, NULL,
    NULL, NULL, NULL, 102, 2 * 1020, NULL },
  { "TestReplicaCalcMissingMetrics", 4, 3, 100, 2, { 1000, 1000, 1000, 1000 }, { 400, 95 }, NULL,
    NULL, NULL, NULL, 24, 495, NULL },
  { "TestReplicaCalcEmptyMetrics", 4, 0, 100, 2, { 1000, 1000, 1000 }, { 0 }, NULL, NULL, NULL,
    NULL, 0, 0,
    "unable to get metrics for resource cpu: no metrics returned from resource metrics API" },
  { "TestReplicaCalcEmptyCPURequest", 1, 0, 100, 2, { 0 }, { 200 }, NULL, NULL, NULL, NULL, 0, 0,
    "missing request for" },
  { "TestReplicaCalcMissingMetricsNoChangeEq", 2, 2, 100, 2, { 1000, 1000 }, { 1000 }, NULL,
    NULL, NULL, NULL, 100, 2 * 1000, NULL },
  { "TestReplicaCalcMissingMetricsNoChangeGt", 2, 2, 100, 2, { 1000, 1000 }, { 1900 }, NULL,
    NULL, NULL, NULL, 190, 2 * 1900, NULL },
  { "TestReplicaCalcMissingMetricsNoChangeLt", 2, 2, 100, 2, { 1000, 1000 }, { 600 }, NULL,
    NULL, NULL, NULL, 60, 2 * 600, NULL },
  { "TestReplicaCalcMissingMetricsUnreadyChange", 3, 3, 50, 2, { 1000, 1000, 1000 },
    { 100, 450 }, "FTT", NULL, NULL, NULL, 45, 2 * 450, NULL },
  { "TestReplicaCalcMissingMetricsHotCpuNoChange", 3, 3, 50, 2, { 1000, 1000, 1000 },
    { 100, 450 }, NULL, "hcc", NULL, NULL, 45, 2 * 450, NULL },
  { "TestReplicaCalcMissingMetricsUnreadyScaleUp", 3, 4, 50, 2, { 1000, 1000, 1000 },
    { 100, 2000 }, "FTT", NULL, NULL, NULL, 200, 2 * 2000, NULL },
  { "TestReplicaCalcMissingMetricsHotCpuScaleUp", 3, 4, 50, 2, { 1000, 1000, 1000 },
    { 100, 2000 }, "FTT", "hcc", NULL, NULL, 200, 2 * 2000, NULL },
  { "TestReplicaCalcMissingMetricsUnreadyScaleDown", 4, 3, 50, 2, { 1000, 1000, 1000, 1000 },
    { 100, 100, 100 }, "FTTT", NULL, NULL, NULL, 10, 2 * 100, NULL },
  { "TestReplicaCalcMissingMetricsScaleDownTargetOver100", 4, 2, 300, 2,
    { 1000, 1000, 2000, 2000 }, { 200, 100, 100 }, "FTTT", NULL, NULL, NULL, 6, 2 * 100, NULL },
  { "TestReplicaCalcDuringRollingUpdateWithMaxSurge", 2, 2, 50, 2, { 1000, 1000, 1000 },
    { 100, 100 }, NULL, NULL, "RRR", NULL, 10, 2 * 100, NULL },
};

static void
test_resource_replicas_upstream (void **state)
{
  FsHpaSettings settings = upstream_test_settings ();
  for (gsize c = 0; c < G_N_ELEMENTS (resource_cases); c++)
    {
      const ResourceCase *tc = &resource_cases[c];
      FsHpaPod pods[10];
      char names[10][16];
      guint n = build_pods (tc, pods, names);
      FsHpaProposal out;
      fs_hpa_resource_replicas (tc->current, tc->target, pods, n, TRUE, &settings, &out);
      if (tc->error)
        {
          if (out.valid || strstr (out.error, tc->error) == NULL)
            fail_msg ("%s: expected error \"%s\", got valid=%d \"%s\"", tc->name, tc->error,
                      out.valid, out.error);
          continue;
        }
      if (!out.valid)
        fail_msg ("%s: unexpected error \"%s\"", tc->name, out.error);
      if (out.replicas != tc->expected || out.utilization != tc->utilization
          || out.average_milli != tc->value)
        fail_msg ("%s: replicas %d utilization %d value %" G_GINT64_FORMAT
                  ", expected %d %d %" G_GINT64_FORMAT,
                  tc->name, out.replicas, out.utilization, out.average_milli, tc->expected,
                  tc->utilization, tc->value);
    }
}

/* TestReplicaCalcComputedToleranceAlgImplementation: 10 pods using 150m (x2 containers) with
 * requests jittered around 300m; a target just beyond the tolerance scales, one just inside
 * does not. */
static void
test_resource_computed_tolerance (void **state)
{
  FsHpaSettings settings = upstream_test_settings ();
  const int32_t start_pods = 10;
  const int64_t total_used = start_pods * 150;
  const int32_t total_requested = (int32_t) (2 * total_used);
  const double requested_to_used = (double) (total_requested / (int32_t) total_used);
  const int32_t per_pod_requested = total_requested / start_pods;
  const int32_t jitter[10] = { 100, -100, 10, -10, 2, -2, 1, -1, 0, 0 };
  FsHpaPod pods[10];
  memset (pods, 0, sizeof pods);
  for (int i = 0; i < start_pods; i++)
    {
      pods[i].name = "pod";
      pods[i].has_ready = pods[i].ready = TRUE;
      pods[i].has_start = TRUE;
      pods[i].start_ms = GO_ZERO_MS;
      pods[i].ready_transition_ms = GO_ZERO_MS;
      pods[i].has_metric = TRUE;
      pods[i].metric_milli = 2 * (total_used / 10);
      pods[i].metric_timestamp_ms = GO_ZERO_MS;
      pods[i].metric_window_ms = MINUTE;
      pods[i].has_request = TRUE;
      pods[i].request_milli = 2 * (per_pod_requested + jitter[i]);
    }
  double target = fabs (1 / (requested_to_used * (1 - 0.1))) + .01;
  int32_t final_target = (int32_t) (target * 100);
  double used_ratio = (double) total_used / ((double) total_requested * target);
  int32_t final_pods = (int32_t) ceil (used_ratio * (double) start_pods);
  assert_int_equal (final_pods, 9);
  FsHpaProposal out;
  fs_hpa_resource_replicas (start_pods, final_target, pods, 10, TRUE, &settings, &out);
  assert_true (out.valid);
  assert_int_equal (out.replicas, final_pods);
  assert_int_equal (out.utilization, (int32_t) (total_used * 100) / total_requested);
  assert_int_equal (out.average_milli, 2 * total_used / 10);

  target = fabs (1 / (requested_to_used * (1 - 0.1))) + .004;
  final_target = (int32_t) (target * 100);
  fs_hpa_resource_replicas (start_pods, final_target, pods, 10, TRUE, &settings, &out);
  assert_true (out.valid);
  assert_int_equal (out.replicas, start_pods);
  assert_true (out.within_tolerance);
}

/* Beyond the upstream tables: Succeeded pods are ignored (master after PR 141302), errors. */
static void
test_resource_extra (void **state)
{
  FsHpaSettings settings = upstream_test_settings ();
  ResourceCase tc = { "succeeded", 2, 4, 30, 2, { 1000, 1000, 1000 }, { 500, 700, 100 },
                      NULL, NULL, NULL, NULL, 60, 2 * 600, NULL };
  FsHpaPod pods[10];
  char names[10][16];
  guint n = build_pods (&tc, pods, names);
  assert_int_equal (n, 2);
  pods[2] = pods[1];
  pods[2].name = "done";
  pods[2].succeeded = TRUE;
  pods[2].metric_milli = 200;
  FsHpaProposal out;
  fs_hpa_resource_replicas (2, 30, pods, 3, TRUE, &settings, &out);
  assert_true (out.valid);
  assert_int_equal (out.replicas, 4);
  assert_int_equal (out.utilization, 60);
  assert_int_equal (out.ignored, 1);
  assert_int_equal (out.ready, 2);

  fs_hpa_resource_replicas (2, 30, pods, 0, TRUE, &settings, &out);
  assert_false (out.valid);
  assert_string_equal (out.error, "no pods returned by selector while calculating replica count");

  /* Every sampled pod unready. */
  pods[0].pending = TRUE;
  pods[1].deleted = TRUE;
  fs_hpa_resource_replicas (2, 30, pods, 3, TRUE, &settings, &out);
  assert_false (out.valid);
  assert_string_equal (out.error,
                       "did not receive metrics for targeted pods (pods might be unready)");

  /* Requests of zero: "no metrics returned matched known pods". */
  build_pods (&tc, pods, names);
  pods[0].request_milli = pods[1].request_milli = 0;
  fs_hpa_resource_replicas (2, 30, pods, 2, TRUE, &settings, &out);
  assert_false (out.valid);
  assert_string_equal (out.error, "no metrics returned matched known pods");
}

/* ---- replica_calculator_test.go: plain (Pods) metrics, calcPlainMetricReplicas ----------- */

typedef struct {
  const char *name;
  int32_t current, expected;
  int64_t target;
  int64_t levels[6];
  int64_t usage;
} PlainCase;

static const PlainCase plain_cases[] = {
  { "TestReplicaCalcScaleUpCM", 3, 4, 15000, { 20000, 10000, 30000 }, 20000 },
  /* readiness/start times of the upstream case do not matter for Pods metrics */
  { "TestReplicaCalcScaleUpCMUnreadyHotCpuNoLessScale", 3, 6, 15000, { 50000, 10000, 30000 },
    30000 },
  { "TestReplicaCalcScaleUpCMUnreadyHotCpuScaleWouldScaleDown", 3, 7, 15000,
    { 50000, 15000, 30000 }, 31666 },
  { "TestReplicaCalcScaleUpCMExternal", 1, 2, 4400, { 8600 }, 8600 },
  { "TestReplicaCalcScaleUpCMExternalNoLabels", 1, 2, 4400, { 8600 }, 8600 },
  { "TestReplicaCalcScaleDownCM", 5, 3, 20000, { 12000, 12000, 12000, 12000, 12000 }, 12000 },
  { "TestReplicaCalcToleranceCM", 3, 3, 20000, { 20000, 21000, 21000 }, 20666 },
  { "TestPlainMetricReplicaCalcMissingMetricsNoChangeEq", 5, 5, 20000, { 20000, 19000, 21000 },
    20000 },
  { "TestReplicaCalcDuringRollingUpdateWithMaxSurgeCM", 2, 2, 17000, { 10000, 10000 }, 10000 },
};

static void
test_plain_replicas_upstream (void **state)
{
  FsHpaSettings settings = upstream_test_settings ();
  for (gsize c = 0; c < G_N_ELEMENTS (plain_cases); c++)
    {
      const PlainCase *tc = &plain_cases[c];
      FsHpaPod pods[6];
      memset (pods, 0, sizeof pods);
      guint n = (guint) tc->current;
      if (c == G_N_ELEMENTS (plain_cases) - 1)
        n = 3; /* podPhase of three Running pods with currentReplicas 2 */
      guint n_levels = count_until_zero (tc->levels, G_N_ELEMENTS (tc->levels));
      for (guint i = 0; i < n; i++)
        {
          pods[i].name = "pod";
          pods[i].has_metric = i < n_levels;
          pods[i].metric_milli = pods[i].has_metric ? tc->levels[i] : 0;
          /* Unready, hot pods: ignored by the Pods-metric rules. */
          pods[i].has_ready = TRUE;
          pods[i].ready = i % 2 == 0;
          pods[i].has_start = TRUE;
          pods[i].start_ms = NOW_MS;
        }
      FsHpaProposal out;
      fs_hpa_plain_replicas (tc->current, tc->target, pods, n, FALSE, &settings, &out);
      if (!out.valid || out.replicas != tc->expected || out.average_milli != tc->usage)
        fail_msg ("%s: valid %d replicas %d usage %" G_GINT64_FORMAT ", expected %d %"
                  G_GINT64_FORMAT " (%s)",
                  tc->name, out.valid, out.replicas, out.average_milli, tc->expected, tc->usage,
                  out.error);
    }

  /* Plain metric on a scale-down fills a missing pod with the target, on a scale-up with 0
   * (calcPlainMetricReplicas): 4 pods, 2 samples at 30000 against 10000 -> 0 for the missing
   * pods, average 15000, ratio 1.5 -> ceil(1.5 x 4) = 6. */
  FsHpaPod pods[4];
  memset (pods, 0, sizeof pods);
  for (int i = 0; i < 4; i++)
    {
      pods[i].name = "pod";
      pods[i].has_metric = i < 2;
      pods[i].metric_milli = i < 2 ? 30000 : 0;
    }
  FsHpaProposal out;
  fs_hpa_plain_replicas (4, 10000, pods, 4, FALSE, &settings, &out);
  assert_true (out.valid);
  assert_int_equal (out.replicas, 6);
  assert_int_equal (out.average_milli, 30000);
  assert_true (fabs (out.rebalanced_ratio - 1.5) < 1e-12);
}

/* ---- replica_calculator_test.go: Object / External metrics ------------------------------- */

static void
test_value_replicas_upstream (void **state)
{
  FsHpaSettings settings = upstream_test_settings ();
  FsHpaProposal out;
  /* TestReplicaCalcScaleUpCMObject: 3 ready pods. */
  fs_hpa_value_replicas (3, 20000, 15000, 3, &settings, &out);
  assert_true (out.valid);
  assert_int_equal (out.replicas, 4);
  assert_int_equal (out.value_milli, 20000);
  /* TestReplicaCalcScaleUpCMObjectIgnoresUnreadyPods: readiness F,T,F -> 1 ready pod. */
  fs_hpa_value_replicas (3, 50000, 10000, 1, &settings, &out);
  assert_int_equal (out.replicas, 5);
  /* TestReplicaCalcScaleDownCMObject */
  fs_hpa_value_replicas (5, 12000, 20000, 5, &settings, &out);
  assert_int_equal (out.replicas, 3);
  /* TestReplicaCalcToleranceCMObject */
  fs_hpa_value_replicas (3, 20666, 20000, 3, &settings, &out);
  assert_int_equal (out.replicas, 3);
  assert_true (out.within_tolerance);
  /* TestReplicaCalcScaleUpCMExternalIgnoresUnreadyPods: readiness F,T,F -> 1 ready pod. */
  fs_hpa_value_replicas (3, 8600, 4400, 1, &settings, &out);
  assert_int_equal (out.replicas, 2);
  /* TestReplicaCalcScaleDownCMExternal */
  fs_hpa_value_replicas (5, 8600, 14334, 5, &settings, &out);
  assert_int_equal (out.replicas, 3);
  /* TestReplicaCalcToleranceCMExternal */
  fs_hpa_value_replicas (3, 8600, 8888, 3, &settings, &out);
  assert_int_equal (out.replicas, 3);
  /* getUsageRatioReplicaCount with current 0: ceil(ratio), no tolerance. */
  fs_hpa_value_replicas (0, 10500, 10000, 0, &settings, &out);
  assert_true (out.valid);
  assert_int_equal (out.replicas, 2);
  fs_hpa_value_replicas (0, 0, 10000, 0, &settings, &out);
  assert_int_equal (out.replicas, 0);
  /* ... saturating at MaxInt32; no listed pods is an error. */
  fs_hpa_value_replicas (1, INT64_C (1) << 60, 1, 1, &settings, &out);
  assert_int_equal (out.replicas, INT32_MAX);
  fs_hpa_value_replicas (3, 50000, 10000, -1, &settings, &out);
  assert_false (out.valid);

  /* TestReplicaCalcScaleUpCMPerPodObject */
  fs_hpa_average_value_replicas (3, 20000, 5000, &settings, &out);
  assert_int_equal (out.replicas, 4);
  assert_int_equal (out.average_milli, 6667);
  /* TestReplicaCalcScaleDownPerPodCMObject */
  fs_hpa_average_value_replicas (5, 6000, 2000, &settings, &out);
  assert_int_equal (out.replicas, 3);
  assert_int_equal (out.average_milli, 1200);
  /* TestReplicaCalcTolerancePerPodCMObject */
  fs_hpa_average_value_replicas (4, 20166, 5000, &settings, &out);
  assert_int_equal (out.replicas, 4);
  assert_int_equal (out.average_milli, 5042);
  /* TestReplicaCalcScaleUpPerPodCMExternal */
  fs_hpa_average_value_replicas (3, 8600, 2150, &settings, &out);
  assert_int_equal (out.replicas, 4);
  assert_int_equal (out.average_milli, 2867);
  /* TestReplicaCalcScaleDownPerPodCMExternal */
  fs_hpa_average_value_replicas (5, 8600, 2867, &settings, &out);
  assert_int_equal (out.replicas, 3);
  assert_int_equal (out.average_milli, 1720);
  /* TestReplicaCalcTolerancePerPodCMExternal */
  fs_hpa_average_value_replicas (3, 8600, 2900, &settings, &out);
  assert_int_equal (out.replicas, 3);
  assert_int_equal (out.average_milli, 2867);
  /* Status replicas 0: the ratio is +Inf (not within any tolerance): ceil(usage / target). */
  fs_hpa_average_value_replicas (0, 8600, 2900, &settings, &out);
  assert_true (isinf (out.usage_ratio) && out.usage_ratio > 0);
  assert_false (out.within_tolerance);
  /* Status replicas 0: per-pod usage reported as 0. */
  fs_hpa_average_value_replicas (0, 8600, 2900, &settings, &out);
  assert_int_equal (out.replicas, 3);
  assert_int_equal (out.average_milli, 0);
}

/* replica_calculator_test.go TestReplicaCalcExternalMetric... "usage overflow caps at
 * MaxInt64": two values of MaxInt64/2+1 against a target of MaxInt64, 3 replicas: usage
 * MaxInt64, ratio 1, 3 replicas.  And GetExternalPerPodMetricReplicas' own rule (a negative
 * running sum is an overflow). */
static void
test_external_usage (void **state)
{
  (void) state;
  FsHpaSettings settings = upstream_test_settings ();
  FsHpaProposal out;
  const int64_t halves[] = { INT64_MAX / 2 + 1, INT64_MAX / 2 + 1 };
  int64_t usage = fs_hpa_external_usage (halves, 2, FALSE);
  assert_true (usage == INT64_MAX);
  fs_hpa_value_replicas (3, usage, INT64_MAX, 3, &settings, &out);
  assert_int_equal (out.replicas, 3);
  assert_true (out.value_milli == INT64_MAX);
  assert_true (fs_hpa_external_usage (halves, 2, TRUE) == INT64_MAX);
  /* Sums that fit are plain sums, in either rule; none is 0. */
  const int64_t plain[] = { 100000, 50000 };
  assert_true (fs_hpa_external_usage (plain, 2, FALSE) == 150000);
  assert_true (fs_hpa_external_usage (plain, 2, TRUE) == 150000);
  assert_true (fs_hpa_external_usage (NULL, 0, FALSE) == 0);
  /* Exactly MaxInt64 is not an overflow; one more is. */
  const int64_t exact[] = { INT64_MAX - 5, 5, -10 };
  assert_true (fs_hpa_external_usage (exact, 2, FALSE) == INT64_MAX);
  assert_true (fs_hpa_external_usage (exact, 3, FALSE) == INT64_MAX - 10);
  const int64_t past[] = { INT64_MAX - 5, 6, -100 };
  assert_true (fs_hpa_external_usage (past, 3, FALSE) == INT64_MAX);
  /* Negative values: the Value rule only guards positive overflow and sums them; the per-pod
   * rule takes any negative running sum for an overflow, as upstream's check does. */
  const int64_t negative[] = { 100, -300 };
  assert_true (fs_hpa_external_usage (negative, 2, FALSE) == -200);
  assert_true (fs_hpa_external_usage (negative, 2, TRUE) == INT64_MAX);
}

/* ---- replica_calculator_test.go TestGroupPods -------------------------------------------- */

/* Upstream's table gives most pods phase Succeeded, which the tree it was written for treats as
 * an ordinary (running) pod; in master (PR 141302) Succeeded pods are ignored, so the pods
 * below are Running and Succeeded gets its own case. */
static void
test_group_pods (void **state)
{
  FsHpaSettings s = upstream_test_settings ();
  FsHpaPodGroup g[3];

  /* "void" */
  fs_hpa_group_pods (NULL, 0, TRUE, &s, g);

  /* "count in a ready pod - memory": no condition, no start time, memory. */
  FsHpaPod p = { .name = "bentham", .has_metric = TRUE, .metric_milli = 1,
                 .metric_timestamp_ms = NOW_MS, .metric_window_ms = MINUTE };
  fs_hpa_group_pods (&p, 1, FALSE, &s, g);
  assert_int_equal (g[0], FS_HPA_POD_READY);

  /* "unready a pod without ready condition - CPU" */
  p = (FsHpaPod){ .name = "lucretius", .has_start = TRUE, .start_ms = NOW_MS, .has_metric = TRUE };
  fs_hpa_group_pods (&p, 1, TRUE, &s, g);
  assert_int_equal (g[0], FS_HPA_POD_UNREADY);

  /* "count in a ready pod with fresh metrics during initialization period - CPU" */
  p = (FsHpaPod){ .name = "bentham", .has_start = TRUE, .start_ms = NOW_MS - MINUTE,
                  .has_ready = TRUE, .ready = TRUE, .ready_transition_ms = NOW_MS - 30 * SEC,
                  .has_metric = TRUE, .metric_timestamp_ms = NOW_MS, .metric_window_ms = 30 * SEC };
  fs_hpa_group_pods (&p, 1, TRUE, &s, g);
  assert_int_equal (g[0], FS_HPA_POD_READY);

  /* "unready a ready pod without fresh metrics during initialization period - CPU" */
  p.metric_window_ms = 60 * SEC;
  fs_hpa_group_pods (&p, 1, TRUE, &s, g);
  assert_int_equal (g[0], FS_HPA_POD_UNREADY);

  /* "unready an unready pod during initialization period - CPU" */
  p = (FsHpaPod){ .name = "lucretius", .has_start = TRUE, .start_ms = NOW_MS - 10 * MINUTE,
                  .has_ready = TRUE, .ready = FALSE,
                  .ready_transition_ms = NOW_MS - 9 * MINUTE - 54 * SEC, .has_metric = TRUE,
                  .metric_timestamp_ms = GO_ZERO_MS };
  fs_hpa_group_pods (&p, 1, TRUE, &s, g);
  assert_int_equal (g[0], FS_HPA_POD_UNREADY);

  /* "count in a ready pod without fresh metrics after initialization period - CPU" */
  p = (FsHpaPod){ .name = "bentham", .has_start = TRUE, .start_ms = NOW_MS - 3 * MINUTE,
                  .has_ready = TRUE, .ready = TRUE, .ready_transition_ms = NOW_MS - 3 * MINUTE,
                  .has_metric = TRUE, .metric_timestamp_ms = NOW_MS - 2 * MINUTE,
                  .metric_window_ms = MINUTE };
  fs_hpa_group_pods (&p, 1, TRUE, &s, g);
  assert_int_equal (g[0], FS_HPA_POD_READY);

  /* "count in an unready pod that was ready after initialization period - CPU" */
  p = (FsHpaPod){ .name = "lucretius", .has_start = TRUE, .start_ms = NOW_MS - 10 * MINUTE,
                  .has_ready = TRUE, .ready = FALSE, .ready_transition_ms = NOW_MS - 9 * MINUTE,
                  .has_metric = TRUE, .metric_timestamp_ms = GO_ZERO_MS };
  fs_hpa_group_pods (&p, 1, TRUE, &s, g);
  assert_int_equal (g[0], FS_HPA_POD_READY);

  /* "unready pod that has never been ready after initialization period - CPU": the transition
   * is exactly start + 10 s, and After is strict, so upstream expects it counted as ready. */
  p.ready_transition_ms = NOW_MS - 9 * MINUTE - 50 * SEC;
  fs_hpa_group_pods (&p, 1, TRUE, &s, g);
  assert_int_equal (g[0], FS_HPA_POD_READY);
  /* ... one millisecond earlier it never became ready. */
  p.ready_transition_ms -= 1;
  fs_hpa_group_pods (&p, 1, TRUE, &s, g);
  assert_int_equal (g[0], FS_HPA_POD_UNREADY);

  /* "a missing pod" */
  p = (FsHpaPod){ .name = "epicurus", .has_start = TRUE, .start_ms = NOW_MS - 3 * MINUTE };
  fs_hpa_group_pods (&p, 1, TRUE, &s, g);
  assert_int_equal (g[0], FS_HPA_POD_MISSING);

  /* "several pods" */
  FsHpaPod several[3] = {
    { .name = "lucretius", .has_start = TRUE, .start_ms = NOW_MS, .has_metric = TRUE },
    { .name = "niccolo", .has_start = TRUE, .start_ms = NOW_MS - 3 * MINUTE, .has_ready = TRUE,
      .ready = TRUE, .ready_transition_ms = NOW_MS - 3 * MINUTE, .has_metric = TRUE },
    { .name = "epicurus", .has_start = TRUE, .start_ms = NOW_MS - 3 * MINUTE },
  };
  fs_hpa_group_pods (several, 3, TRUE, &s, g);
  assert_int_equal (g[0], FS_HPA_POD_UNREADY);
  assert_int_equal (g[1], FS_HPA_POD_READY);
  assert_int_equal (g[2], FS_HPA_POD_MISSING);

  /* "pending pods are unreadied" */
  p = (FsHpaPod){ .name = "unscheduled", .pending = TRUE };
  fs_hpa_group_pods (&p, 1, TRUE, &s, g);
  assert_int_equal (g[0], FS_HPA_POD_UNREADY);
  /* ... for every metric kind */
  fs_hpa_group_pods (&p, 1, FALSE, &s, g);
  assert_int_equal (g[0], FS_HPA_POD_UNREADY);

  /* "ignore pods with deletion timestamps" */
  p = (FsHpaPod){ .name = "deleted", .deleted = TRUE, .pending = TRUE, .has_metric = TRUE };
  fs_hpa_group_pods (&p, 1, TRUE, &s, g);
  assert_int_equal (g[0], FS_HPA_POD_IGNORED);

  /* "ignore pods in a failed state" */
  p = (FsHpaPod){ .name = "failed", .failed = TRUE, .has_metric = TRUE };
  fs_hpa_group_pods (&p, 1, TRUE, &s, g);
  assert_int_equal (g[0], FS_HPA_POD_IGNORED);

  /* Succeeded pods are ignored (master, PR 141302). */
  p = (FsHpaPod){ .name = "done", .succeeded = TRUE, .has_metric = TRUE };
  fs_hpa_group_pods (&p, 1, FALSE, &s, g);
  assert_int_equal (g[0], FS_HPA_POD_IGNORED);
}

static void
test_tolerance (void **state)
{
  FsHpaSettings s = fs_hpa_default_settings (NOW_MS);
  assert_int_equal (s.cpu_initialization_period_ms, 5 * MINUTE);
  assert_int_equal (s.initial_readiness_delay_ms, 30 * SEC);
  assert_true (fs_hpa_within_tolerance (1.0, &s));
  assert_true (fs_hpa_within_tolerance (0.9, &s));
  assert_true (fs_hpa_within_tolerance (1.1, &s));
  assert_false (fs_hpa_within_tolerance (1.1000000000000003, &s));
  assert_false (fs_hpa_within_tolerance (0.89, &s));
  assert_false (fs_hpa_within_tolerance (NAN, &s));
  /* Asymmetric (behavior.scaleUp/scaleDown.tolerance). */
  s.tolerance_up = 0.05;
  s.tolerance_down = 0.5;
  assert_false (fs_hpa_within_tolerance (1.06, &s));
  assert_true (fs_hpa_within_tolerance (0.55, &s));
}

/* The rule by version and the one reader of --kube-version. */
static void
test_tolerance_by_version (void **state)
{
  assert_true (fs_hpa_symmetric_tolerance (32));
  assert_false (fs_hpa_symmetric_tolerance (33));
  guint minor = 0;
  assert_true (fs_kube_version_parse ("--kube-version", NULL, &minor, NULL));
  assert_int_equal (minor, FS_KUBE_DEFAULT_MINOR);
  assert_true (fs_kube_version_parse ("--kube-version", "1.32", &minor, NULL));
  assert_int_equal (minor, 32);
  const char *bad[] = { "2.1", "1.", "1.33.2", "v1.32", "1.x", "1.1001", "BAD" };
  for (gsize i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      GError *error = NULL;
      minor = 7;
      assert_false (fs_kube_version_parse ("--kube-version", bad[i], &minor, &error));
      assert_int_equal (minor, 7);
      g_autofree char *want = g_strdup_printf ("--kube-version \"%s\": give 1.MINOR, e.g. 1.32", bad[i]);
      assert_string_equal (error->message, want);
      g_error_free (error);
    }
}

/* ---- horizontal.go computeReplicasForMetrics --------------------------------------------- */

static void
test_combine (void **state)
{
  FsHpaProposal p[3];
  memset (p, 0, sizeof p);
  int32_t replicas;

  /* TestScaleUpOneMetricEmpty: cpu asks 4 of 3, the external metric fails: scale up. */
  p[0].valid = TRUE;
  p[0].replicas = 4;
  p[1].valid = FALSE;
  assert_int_equal (fs_hpa_combine_proposals (3, p, 2, &replicas), 0);
  assert_int_equal (replicas, 4);

  /* TestNoScaleDownOneMetricInvalid / TestNoScaleDownOneMetricEmpty: cpu asks 3 of 5, the
   * other metric is invalid: stay at 5. */
  p[0].replicas = 3;
  assert_int_equal (fs_hpa_combine_proposals (5, p, 2, &replicas), 0);
  assert_int_equal (replicas, 5);

  /* The largest valid proposal wins. */
  p[1].valid = TRUE;
  p[1].replicas = 7;
  p[2].valid = TRUE;
  p[2].replicas = 6;
  assert_int_equal (fs_hpa_combine_proposals (5, p, 3, &replicas), 1);
  assert_int_equal (replicas, 7);
  /* All valid, all lower: scale down to the largest. */
  p[0].replicas = 2;
  p[1].replicas = 1;
  p[2].replicas = 3;
  assert_int_equal (fs_hpa_combine_proposals (5, p, 3, &replicas), 2);
  assert_int_equal (replicas, 3);

  /* None valid (or no metric at all). */
  p[0].valid = p[1].valid = p[2].valid = FALSE;
  assert_int_equal (fs_hpa_combine_proposals (5, p, 3, &replicas), -1);
  assert_int_equal (replicas, 5);
  assert_int_equal (fs_hpa_combine_proposals (5, p, 0, &replicas), -1);
  assert_int_equal (replicas, 5);
}

/* ---- horizontal.go: legacy normalization -------------------------------------------------- */

/* TestNormalizeDesiredReplicas (stabilizeRecommendation, 5 min window). */
static void
test_normalize_legacy_stabilization (void **state)
{
  static const struct {
    const char *name;
    FsHpaRecommendation recs[4];
    guint n;
    int32_t proposal, expected;
  } cases[] = {
    { "empty log", { { 0, 0 } }, 0, 5, 5 },
    { "stabilize", { { NOW_MS - 2 * MINUTE, 4 }, { NOW_MS - MINUTE, 5 } }, 2, 3, 5 },
    { "no stabilize", { { NOW_MS - 2 * MINUTE, 1 }, { NOW_MS - MINUTE, 2 } }, 2, 3, 3 },
    { "no stabilize - old recommendations",
      { { NOW_MS - 10 * MINUTE, 10 }, { NOW_MS - 9 * MINUTE, 9 } }, 2, 3, 3 },
    { "stabilize - old recommendations",
      { { NOW_MS - 10 * MINUTE, 10 }, { NOW_MS - MINUTE, 4 }, { NOW_MS - 2 * MINUTE, 5 },
        { NOW_MS - 9 * MINUTE, 9 } }, 4, 3, 5 },
  };
  for (gsize c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      FsHpaDecision d;
      fs_hpa_normalize_legacy (10, cases[c].proposal, 1, 100, NOW_MS, cases[c].recs, cases[c].n,
                               &d);
      if (d.stabilized != cases[c].expected)
        fail_msg ("%s: stabilized %d, expected %d", cases[c].name, d.stabilized,
                  cases[c].expected);
    }

  /* The legacy window keeps an entry exactly 300 s old (Before is strict). */
  FsHpaRecommendation edge[] = { { NOW_MS - 300 * SEC, 8 } };
  FsHpaDecision d;
  fs_hpa_normalize_legacy (8, 3, 1, 100, NOW_MS, edge, 1, &d);
  assert_int_equal (d.desired, 8);
  assert_int_equal (d.limited_by, FS_HPA_LIMIT_STABILIZATION);
  assert_string_equal (d.reason, "ScaleDownStabilized");
  assert_string_equal (d.message, "recent recommendations were higher than current one, "
                                  "applying the highest recent recommendation");
  edge[0].timestamp_ms -= 1;
  fs_hpa_normalize_legacy (8, 3, 1, 100, NOW_MS, edge, 1, &d);
  assert_int_equal (d.desired, 3);
  assert_string_equal (d.reason, "DesiredWithinRange");
}

/* TestConvertDesiredReplicasWithRules (no recommendations, so only the rules act). */
static void
test_normalize_legacy_rules (void **state)
{
  static const struct {
    const char *annotation;
    int32_t current, desired, min, max, expected;
    const char *condition;
    FsHpaLimit limit;
  } cases[] = {
    { "prenormalized desired replicas within range", 5, 7, 3, 8, 7, "DesiredWithinRange",
      FS_HPA_LIMIT_NONE },
    { "prenormalized desired replicas < minReplicas", 3, 1, 2, 8, 2, "TooFewReplicas",
      FS_HPA_LIMIT_MIN },
    { "prenormalized desired zeroed replicas within range", 1, 0, 0, 10, 0, "DesiredWithinRange",
      FS_HPA_LIMIT_NONE },
    { "maxReplicas is the limit because maxReplicas < scaleUpLimit", 20, 1000, 1, 10, 10,
      "TooManyReplicas", FS_HPA_LIMIT_MAX },
    { "scaleUpLimit is the limit because scaleUpLimit < maxReplicas", 3, 1000, 1, 2000, 6,
      "ScaleUpLimit", FS_HPA_LIMIT_SCALE_UP },
    /* calculateScaleUpLimit: max(2 x current, 4) */
    { "scale-up cap of 4 from 1 replica", 1, 50, 1, 100, 4, "ScaleUpLimit",
      FS_HPA_LIMIT_SCALE_UP },
  };
  for (gsize c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      FsHpaDecision d;
      fs_hpa_normalize_legacy (cases[c].current, cases[c].desired, cases[c].min, cases[c].max,
                               NOW_MS, NULL, 0, &d);
      if (d.desired != cases[c].expected || strcmp (d.reason, cases[c].condition) != 0
          || d.limited_by != cases[c].limit)
        fail_msg ("%s: %d %s, expected %d %s", cases[c].annotation, d.desired, d.reason,
                  cases[c].expected, cases[c].condition);
    }
  FsHpaDecision d;
  fs_hpa_normalize_legacy (20, 1000, 1, 10, NOW_MS, NULL, 0, &d);
  assert_string_equal (d.message, "the desired replica count is more than the maximum replica count");
  fs_hpa_normalize_legacy (3, 1, 2, 8, NOW_MS, NULL, 0, &d);
  assert_string_equal (d.message, "the desired replica count is less than the minimum replica count");
}

/* ---- horizontal.go: behavior ------------------------------------------------------------- */

static FsHpaRules
rules (int32_t pods, int32_t pods_period, int32_t percent, int32_t percent_period,
       int32_t window)
{
  /* horizontal_test.go generateScalingRules: selectPolicy Max, Pods then Percent. */
  FsHpaRules r = { .stabilization_window_seconds = window, .select = FS_HPA_SELECT_MAX };
  if (pods != 0)
    r.policies[r.n_policies++] = (FsHpaPolicy){ FS_HPA_POLICY_PODS, pods, pods_period };
  if (percent != 0)
    r.policies[r.n_policies++] = (FsHpaPolicy){ FS_HPA_POLICY_PERCENT, percent, percent_period };
  return r;
}

/* horizontal_test.go generateEventsUniformDistribution. */
static guint
uniform_events (const int *changes, guint n, int period_seconds, FsHpaScaleEvent *events)
{
  double segment = (double) period_seconds / (double) n;
  for (guint i = 0; i < n; i++)
    {
      int64_t seconds_ago
          = (int64_t) ((double) period_seconds - segment * (double) (i + 1) + segment / 2.0);
      events[i] = (FsHpaScaleEvent){ NOW_MS - seconds_ago * SEC, changes[i], FALSE };
    }
  return n;
}

typedef struct {
  const char *name;
  int up_events[4];
  guint n_up;
  int down_events[4];
  guint n_down;
  int32_t min, max;
  gboolean up_set, down_set;
  int32_t up_rules[5], down_rules[5]; /* generateScalingRules arguments */
  int32_t current, desired, expected;
  const char *condition;
} RulesCase;

#define UP(a, b, c, d, e) .up_set = TRUE, .up_rules = { a, b, c, d, e }
#define DOWN(a, b, c, d, e) .down_set = TRUE, .down_rules = { a, b, c, d, e }
#define UPEV(...) .up_events = { __VA_ARGS__ }, .n_up = sizeof ((int[]){ __VA_ARGS__ }) / sizeof (int)
#define DOWNEV(...) .down_events = { __VA_ARGS__ }, .n_down = sizeof ((int[]){ __VA_ARGS__ }) / sizeof (int)

/* TestScalingWithRules (convertDesiredReplicasWithBehaviorRate), all cases. */
static const RulesCase rules_cases[] = {
  { "prenormalized desired replicas within range", .current = 5, .desired = 7, .min = 3,
    .max = 8, .expected = 7, .condition = "DesiredWithinRange" },
  { "prenormalized desired replicas < minReplicas", .current = 3, .desired = 1, .min = 2,
    .max = 8, .expected = 2, .condition = "TooFewReplicas" },
  { "prenormalized desired replicas within range when minReplicas is 0", .current = 1,
    .desired = 0, .min = 0, .max = 10, .expected = 0, .condition = "DesiredWithinRange" },
  { "maxReplicas is the limit because maxReplicas < scaleUpLimit", .current = 20,
    .desired = 1000, .min = 1, .max = 10, .expected = 10, .condition = "TooManyReplicas" },
  { "desired replica count is more than the maximum replica count", .current = 100,
    .desired = 1000, .min = 100, .max = 150, .expected = 150, .condition = "TooManyReplicas" },
  { "scaleUpLimit is the limit because scaleUpLimit < maxReplicas with user policies",
    .current = 3, .desired = 1000, .min = 1, .max = 2000, UP (0, 0, 1, 60, 0), .expected = 4,
    .condition = "ScaleUpLimit" },
  { "scaleDownLimit is the limit because scaleDownLimit > minReplicas with user defined "
    "policies", .current = 1000, .desired = 3, .min = 3, .max = 2000, DOWN (20, 60, 0, 0, 0),
    .expected = 980, .condition = "ScaleDownLimit" },
  { "scaleUp with default behavior", .min = 1, .max = 1000, .current = 10, .desired = 50,
    .expected = 20, .condition = "ScaleUpLimit" },
  { "scaleUp with pods policy larger than percent policy", .min = 1, .max = 1000,
    UP (100, 60, 100, 60, 0), .current = 10, .desired = 500, .expected = 110,
    .condition = "ScaleUpLimit" },
  { "scaleUp with percent policy larger than pods policy", .min = 1, .max = 1000,
    UP (2, 60, 100, 60, 0), .current = 10, .desired = 500, .expected = 20,
    .condition = "ScaleUpLimit" },
  { "scaleUp with spec MaxReplicas limitation with large pod policy", .min = 1, .max = 1000,
    UP (100, 60, 0, 0, 0), .current = 10, .desired = 50, .expected = 50,
    .condition = "DesiredWithinRange" },
  { "scaleUp with spec MaxReplicas limitation with large percent policy", .min = 1,
    .max = 1000, UP (10000, 60, 0, 0, 0), .current = 10, .desired = 50, .expected = 50,
    .condition = "DesiredWithinRange" },
  { "scaleUp with pod policy limitation", .min = 1, .max = 1000, UP (30, 60, 0, 0, 0),
    .current = 10, .desired = 50, .expected = 40, .condition = "ScaleUpLimit" },
  { "scaleUp with percent policy limitation", .min = 1, .max = 1000, UP (0, 0, 200, 60, 0),
    .current = 10, .desired = 50, .expected = 30, .condition = "ScaleUpLimit" },
  { "scaleDown with percent policy larger than pod policy", .min = 1, .max = 1000,
    DOWN (20, 60, 1, 60, 300), .current = 100, .desired = 2, .expected = 80,
    .condition = "ScaleDownLimit" },
  { "scaleDown with pod policy larger than percent policy", .min = 1, .max = 1000,
    DOWN (2, 60, 1, 60, 300), .current = 100, .desired = 2, .expected = 98,
    .condition = "ScaleDownLimit" },
  { "scaleDown with spec MinReplicas=nil limitation with large pod policy", .min = 1,
    .max = 1000, DOWN (100, 60, 0, 0, 300), .current = 10, .desired = 0, .expected = 1,
    .condition = "TooFewReplicas" },
  { "scaleDown with spec MinReplicas limitation with large pod policy", .min = 1, .max = 1000,
    DOWN (100, 60, 0, 0, 300), .current = 10, .desired = 0, .expected = 1,
    .condition = "TooFewReplicas" },
  { "scaleDown with spec MinReplicas limitation with large percent policy", .min = 5,
    .max = 1000, DOWN (0, 0, 100, 60, 300), .current = 10, .desired = 2, .expected = 5,
    .condition = "TooFewReplicas" },
  { "scaleDown with pod policy limitation", .min = 1, .max = 1000, DOWN (5, 60, 0, 0, 300),
    .current = 10, .desired = 2, .expected = 5, .condition = "ScaleDownLimit" },
  { "scaleDown with percent policy limitation", .min = 1, .max = 1000,
    DOWN (0, 0, 50, 60, 300), .current = 10, .desired = 5, .expected = 5,
    .condition = "DesiredWithinRange" },
  { "scaleUp with spec MaxReplicas limitation with large pod policy and events", UPEV (1, 5, 9),
    .min = 1, .max = 200, UP (300, 60, 0, 0, 0), .current = 100, .desired = 500,
    .expected = 200, .condition = "TooManyReplicas" },
  { "scaleUp with spec MaxReplicas limitation with large percent policy and events",
    UPEV (1, 5, 9), .min = 1, .max = 200, UP (0, 0, 10000, 60, 0), .current = 100,
    .desired = 500, .expected = 200, .condition = "TooManyReplicas" },
  { "scaleUp with currentReplicas limitation with rate.PeriodSeconds with a lot of recent "
    "scale up events", UPEV (1, 5, 9), .min = 1, .max = 1000, UP (5, 120, 0, 0, 0),
    .current = 100, .desired = 500, .expected = 100, .condition = "ScaleUpLimit" },
  { "scaleUp with pod policy and previous scale up events", UPEV (1, 5, 9), .min = 1,
    .max = 1000, UP (150, 120, 0, 0, 0), .current = 100, .desired = 500, .expected = 235,
    .condition = "ScaleUpLimit" },
  { "scaleUp with percent policy and previous scale up events", UPEV (1, 5, 9), .min = 1,
    .max = 1000, UP (0, 0, 200, 120, 0), .current = 100, .desired = 500, .expected = 255,
    .condition = "ScaleUpLimit" },
  { "scaleUp with percent policy and previous scale up and down events", UPEV (4), DOWNEV (2),
    .min = 1, .max = 1000, UP (0, 0, 300, 300, 0), .current = 6, .desired = 24,
    .expected = 16, .condition = "ScaleUpLimit" },
  { "scaleDown with default policy and previous events", DOWNEV (1, 5, 9), .min = 1,
    .max = 1000, .current = 10, .desired = 5, .expected = 5, .condition = "DesiredWithinRange" },
  { "scaleDown with spec MinReplicas=nil limitation with large pod policy and previous events",
    DOWNEV (1, 5, 9), .min = 1, .max = 1000, DOWN (115, 120, 0, 0, 300), .current = 100,
    .desired = 0, .expected = 1, .condition = "TooFewReplicas" },
  { "scaleDown with spec MinReplicas limitation with large pod policy and previous events",
    DOWNEV (1, 5, 9), .min = 5, .max = 1000, DOWN (130, 120, 0, 0, 300), .current = 100,
    .desired = 0, .expected = 5, .condition = "TooFewReplicas" },
  { "scaleDown with spec MinReplicas limitation with large percent policy and previous events",
    DOWNEV (1, 5, 9), .min = 5, .max = 1000, DOWN (0, 0, 100, 120, 300), .current = 100,
    .desired = 2, .expected = 5, .condition = "TooFewReplicas" },
  { "scaleDown with pod policy limitation and previous events", DOWNEV (1, 5, 9), .min = 1,
    .max = 1000, DOWN (5, 120, 0, 0, 300), .current = 100, .desired = 2, .expected = 100,
    .condition = "ScaleDownLimit" },
  { "scaleDown with percent policy limitation and previous events", DOWNEV (2, 4, 6), .min = 1,
    .max = 1000, DOWN (0, 0, 50, 120, 300), .current = 100, .desired = 0, .expected = 56,
    .condition = "ScaleDownLimit" },
  { "scaleDown with percent policy and previous scale up and down events", UPEV (2), DOWNEV (4),
    .min = 1, .max = 1000, DOWN (0, 0, 50, 180, 0), .current = 10, .desired = 1, .expected = 6,
    .condition = "ScaleDownLimit" },
  { "scaleDown with previous events preventing further scale down", DOWNEV (10, 10, 10),
    .min = 1, .max = 1000, DOWN (0, 0, 10, 120, 300), .current = 100, .desired = 0,
    .expected = 100, .condition = "ScaleDownLimit" },
  { "scaleDown with with previous events still allowing more scale down", DOWNEV (10, 10, 10),
    .min = 1, .max = 1000, DOWN (0, 0, 1000, 120, 300), .current = 10, .desired = 5,
    .expected = 5, .condition = "DesiredWithinRange" },
  { "check 'outdated' flag for events for one behavior for up", UPEV (8, 12, 9, 11), .min = 1,
    .max = 1000, UP (1000, 60, 0, 0, 0), .current = 100, .desired = 200, .expected = 200,
    .condition = "DesiredWithinRange" },
  { "check that events were not marked 'outdated' for two different policies in the behavior "
    "for up", UPEV (8, 12, 9, 11), .min = 1, .max = 1000, UP (1000, 120, 100, 60, 0),
    .current = 100, .desired = 200, .expected = 200, .condition = "DesiredWithinRange" },
  { "check that events were marked 'outdated' for two different policies in the behavior for "
    "up", UPEV (8, 12, 9, 11), .min = 1, .max = 1000, UP (1000, 30, 100, 60, 0),
    .current = 100, .desired = 200, .expected = 200, .condition = "DesiredWithinRange" },
  { "check 'outdated' flag for events for one behavior for down", DOWNEV (8, 12, 9, 11),
    .min = 1, .max = 1000, DOWN (1000, 60, 0, 0, 300), .current = 100, .desired = 5,
    .expected = 5, .condition = "DesiredWithinRange" },
  { "check that events were not marked 'outdated' for two different policies in the behavior "
    "for down", DOWNEV (8, 12, 9, 11), .min = 1, .max = 1000, DOWN (1000, 120, 100, 60, 300),
    .current = 100, .desired = 5, .expected = 5, .condition = "DesiredWithinRange" },
  { "check that events were marked 'outdated' for two different policies in the behavior for "
    "down", DOWNEV (8, 12, 9, 11), .min = 1, .max = 1000, DOWN (1000, 30, 100, 60, 300),
    .current = 100, .desired = 5, .expected = 5, .condition = "DesiredWithinRange" },
};

static void
test_scaling_with_rules (void **state)
{
  for (gsize c = 0; c < G_N_ELEMENTS (rules_cases); c++)
    {
      const RulesCase *tc = &rules_cases[c];
      /* GenerateHPAScaleUpRules / GenerateHPAScaleDownRules: nil -> the defaults. */
      FsHpaBehavior b = fs_hpa_default_behavior ();
      if (tc->up_set)
        b.scale_up = rules (tc->up_rules[0], tc->up_rules[1], tc->up_rules[2], tc->up_rules[3],
                            tc->up_rules[4]);
      if (tc->down_set)
        b.scale_down = rules (tc->down_rules[0], tc->down_rules[1], tc->down_rules[2],
                              tc->down_rules[3], tc->down_rules[4]);
      FsHpaScaleEvent up[4], down[4];
      guint n_up = uniform_events (tc->up_events, tc->n_up, 120, up);
      guint n_down = uniform_events (tc->down_events, tc->n_down, 120, down);
      FsHpaDecision d;
      fs_hpa_normalize_behavior (tc->current, tc->desired, tc->min, tc->max, &b, NOW_MS, NULL, 0,
                                 up, n_up, down, n_down, &d);
      if (d.desired != tc->expected || strcmp (d.reason, tc->condition) != 0)
        fail_msg ("%s: %d %s, expected %d %s", tc->name, d.desired, d.reason, tc->expected,
                  tc->condition);
    }
}

/* TestCalculateScaleUpLimitWithScalingRules / TestCalculateScaleDownLimitWithBehaviors:
 * selectPolicy Min. */
static void
test_select_min (void **state)
{
  FsHpaBehavior b = fs_hpa_default_behavior ();
  b.scale_up = rules (2, 60, 50, 60, 300);
  b.scale_up.select = FS_HPA_SELECT_MIN;
  b.scale_down = b.scale_up;
  FsHpaDecision d;
  fs_hpa_normalize_behavior (1, 100, 0, 1000, &b, NOW_MS, NULL, 0, NULL, 0, NULL, 0, &d);
  assert_int_equal (d.desired, 2);
  assert_int_equal (d.limited_by, FS_HPA_LIMIT_SCALE_UP);
  fs_hpa_normalize_behavior (5, 0, 0, 1000, &b, NOW_MS, NULL, 0, NULL, 0, NULL, 0, &d);
  assert_int_equal (d.desired, 3);
  assert_int_equal (d.limited_by, FS_HPA_LIMIT_SCALE_DOWN);
  assert_string_equal (d.reason, "ScaleDownLimit");
  assert_string_equal (d.message,
                       "the desired replica count is decreasing faster than the maximum scale rate");
}

/* TestStoreScaleEvents: getReplicasChangePerPeriod(60, prevScaleEvents). */
static void
test_change_in_period (void **state)
{
  static const struct {
    const char *name;
    FsHpaScaleEvent events[4];
    guint n;
    int32_t expected;
  } cases[] = {
    { "empty entries with default behavior", { { 0, 0, FALSE } }, 0, 0 },
    { "empty entries with two-policy-behavior", { { 0, 0, FALSE } }, 0, 0 },
    { "one outdated entry to be kept untouched without behavior",
      { { NOW_MS - 61 * SEC, 7, FALSE } }, 1, 0 },
    { "one outdated entry to be replaced with behavior", { { NOW_MS - 61 * SEC, 7, FALSE } }, 1,
      0 },
    { "one actual entry to be not touched with behavior", { { NOW_MS - 58 * SEC, 7, FALSE } }, 1,
      7 },
    { "two entries, one of them to be replaced",
      { { NOW_MS - 61 * SEC, 7, FALSE }, { NOW_MS - 59 * SEC, 6, FALSE } }, 2, 6 },
    { "replace one entry, use policies with different periods",
      { { NOW_MS - 29 * SEC, 8, FALSE }, { NOW_MS - 59 * SEC, 6, FALSE },
        { NOW_MS - 61 * SEC, 7, FALSE }, { NOW_MS - 61 * SEC, 9, FALSE } }, 4, 14 },
    { "two entries, both actual",
      { { NOW_MS - 58 * SEC, 7, FALSE }, { NOW_MS - 59 * SEC, 6, FALSE } }, 2, 13 },
  };
  for (gsize c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      int32_t got = fs_hpa_change_in_period (60, NOW_MS, cases[c].events, cases[c].n);
      if (got != cases[c].expected)
        fail_msg ("%s: %d, expected %d", cases[c].name, got, cases[c].expected);
    }
  /* Strict: an event exactly one period old no longer counts; the outdated flag is ignored. */
  FsHpaScaleEvent e[] = { { NOW_MS - 60 * SEC, 3, FALSE }, { NOW_MS - 59999, 2, TRUE } };
  assert_int_equal (fs_hpa_change_in_period (60, NOW_MS, e, 2), 2);
}

/* TestNormalizeDesiredReplicasWithBehavior (stabilizeRecommendationWithBehaviors). */
static void
test_normalize_behavior_stabilization (void **state)
{
  static const struct {
    const char *name;
    FsHpaRecommendation recs[4];
    guint n;
    int32_t current, proposal, expected, up_window, down_window;
  } cases[] = {
    { "empty recommendations for scaling down", { { 0, 0 } }, 0, 100, 5, 5, 0, 0 },
    { "simple scale down stabilization", { { NOW_MS - 2 * MINUTE, 4 }, { NOW_MS - MINUTE, 5 } }, 2,
      100, 3, 5, 0, 180 },
    { "simple scale up stabilization", { { NOW_MS - 2 * MINUTE, 4 }, { NOW_MS - MINUTE, 5 } }, 2, 1,
      7, 4, 300, 0 },
    { "no scale down stabilization", { { NOW_MS - 2 * MINUTE, 1 }, { NOW_MS - MINUTE, 2 } }, 2, 100, 3,
      3, 300, 0 },
    { "no scale up stabilization", { { NOW_MS - 2 * MINUTE, 4 }, { NOW_MS - MINUTE, 5 } }, 2, 1, 3, 3,
      0, 300 },
    { "no scale down stabilization, reuse recommendation element",
      { { NOW_MS - 10 * MINUTE, 10 }, { NOW_MS - 9 * MINUTE, 9 } }, 2, 100, 3, 3, 0, 0 },
    { "no scale up stabilization, reuse recommendation element",
      { { NOW_MS - 10 * MINUTE, 10 }, { NOW_MS - 9 * MINUTE, 9 } }, 2, 1, 100, 100, 0, 0 },
    { "scale down stabilization, reuse one of obsolete recommendation element",
      { { NOW_MS - 10 * MINUTE, 10 }, { NOW_MS - MINUTE, 4 }, { NOW_MS - 2 * MINUTE, 5 },
        { NOW_MS - 9 * MINUTE, 9 } }, 4, 100, 3, 5, 0, 180 },
    { "scale up stabilization, reuse one of obsolete recommendation element",
      { { NOW_MS - 100 * MINUTE, 10 }, { NOW_MS - MINUTE, 6 }, { NOW_MS - 2 * MINUTE, 5 },
        { NOW_MS - 3 * MINUTE, 9 } }, 4, 1, 100, 5, 300, 0 },
    { "scale up and down stabilization, do not scale up when prenormalized rec goes down",
      { { NOW_MS - 100 * MINUTE, 2 }, { NOW_MS - 3 * MINUTE, 3 } }, 2, 2, 1, 2, 300, 300 },
    { "scale up and down stabilization, do not scale down when prenormalized rec goes up",
      { { NOW_MS - 100 * MINUTE, 2 }, { NOW_MS - 3 * MINUTE, 1 } }, 2, 2, 3, 2, 300, 300 },
  };
  for (gsize c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      FsHpaBehavior b = fs_hpa_default_behavior ();
      b.scale_up.stabilization_window_seconds = cases[c].up_window;
      b.scale_down.stabilization_window_seconds = cases[c].down_window;
      FsHpaDecision d;
      fs_hpa_normalize_behavior (cases[c].current, cases[c].proposal, 0, 1000, &b, NOW_MS,
                                 cases[c].recs, cases[c].n, NULL, 0, NULL, 0, &d);
      if (d.stabilized != cases[c].expected)
        fail_msg ("%s: stabilized %d, expected %d", cases[c].name, d.stabilized,
                  cases[c].expected);
    }

  /* Condition text when the window holds the value. */
  FsHpaBehavior b = fs_hpa_default_behavior ();
  FsHpaRecommendation recs[] = { { NOW_MS - MINUTE, 8 } };
  FsHpaDecision d;
  fs_hpa_normalize_behavior (8, 3, 1, 10, &b, NOW_MS, recs, 1, NULL, 0, NULL, 0, &d);
  assert_int_equal (d.desired, 8);
  assert_int_equal (d.limited_by, FS_HPA_LIMIT_STABILIZATION);
  assert_string_equal (d.reason, "ScaleDownStabilized");
  assert_string_equal (d.message, "recent recommendations were higher than current one, "
                                  "applying the highest recent recommendation");
  b.scale_up.stabilization_window_seconds = 120;
  recs[0].recommendation = 2;
  fs_hpa_normalize_behavior (3, 9, 1, 10, &b, NOW_MS, recs, 1, NULL, 0, NULL, 0, &d);
  assert_int_equal (d.desired, 3);
  assert_string_equal (d.reason, "ScaleUpStabilized");
}

static void
test_default_behavior (void **state)
{
  FsHpaBehavior b = fs_hpa_default_behavior ();
  assert_int_equal (b.scale_up.stabilization_window_seconds, 0);
  assert_int_equal (b.scale_up.select, FS_HPA_SELECT_MAX);
  assert_int_equal (b.scale_up.n_policies, 2);
  assert_int_equal (b.scale_down.stabilization_window_seconds, 300);
  assert_int_equal (b.scale_down.n_policies, 1);
  assert_int_equal (b.scale_down.policies[0].type, FS_HPA_POLICY_PERCENT);
  assert_int_equal (b.scale_down.policies[0].value, 100);
  assert_int_equal (b.scale_down.policies[0].period_seconds, 15);
  /* The notes' example: at 10 replicas the default up limit is max(14, 20) = 20, down 0. */
  FsHpaDecision d;
  fs_hpa_normalize_behavior (10, 1000, 0, 1000, &b, NOW_MS, NULL, 0, NULL, 0, NULL, 0, &d);
  assert_int_equal (d.desired, 20);
  fs_hpa_normalize_behavior (10, 0, 0, 1000, &b, NOW_MS, NULL, 0, NULL, 0, NULL, 0, &d);
  assert_int_equal (d.desired, 0);
  /* From 1 replica: max(1 + 4, 2) = 5. */
  fs_hpa_normalize_behavior (1, 1000, 0, 1000, &b, NOW_MS, NULL, 0, NULL, 0, NULL, 0, &d);
  assert_int_equal (d.desired, 5);
}

/* ---- the seed's worked numbers ------------------------------------------------------------ */

/* rag-api: 500m cpu request, 70 % target; pods Running and Ready for hours. */
static FsHpaPod
rag_pod (int percent)
{
  FsHpaPod pod = { .name = "rag-api", .has_ready = TRUE, .ready = TRUE,
                   .ready_transition_ms = NOW_MS - 4 * 60 * MINUTE, .has_start = TRUE,
                   .start_ms = NOW_MS - 4 * 60 * MINUTE, .has_metric = TRUE,
                   .metric_milli = 500 * percent / 100, .metric_timestamp_ms = NOW_MS - 10 * SEC,
                   .metric_window_ms = 30 * SEC, .has_request = TRUE, .request_milli = 500 };
  return pod;
}

static int32_t
rag_two_pods (int percent, FsHpaProposal *out)
{
  FsHpaSettings s = fs_hpa_default_settings (NOW_MS);
  FsHpaPod pods[2] = { rag_pod (percent), rag_pod (percent) };
  fs_hpa_resource_replicas (2, 70, pods, 2, TRUE, &s, out);
  assert_true (out->valid);
  return out->replicas;
}

static void
test_seed_two_pods (void **state)
{
  FsHpaProposal out;
  assert_int_equal (rag_two_pods (63, &out), 2);
  assert_int_equal (rag_two_pods (76, &out), 2);
  assert_int_equal (out.utilization, 76);
  /* 77 %: the ratio 77/70 is exactly the double 1.1 = 1 + 0.1, inside the asymmetric band
   * (1 - down) <= r <= (1 + up) of Tolerances.isWithin (1.33+).  The seed's 3 is the
   * pre-1.33 rule abs(1 - r) <= 0.1, where 1 - 1.1 = -0.10000000000000009. */
  assert_int_equal (rag_two_pods (77, &out), 2);
  assert_true (out.usage_ratio == 1.1);
  assert_true (fabs (1.0 - out.usage_ratio) > 0.1);
  assert_int_equal (rag_two_pods (78, &out), 3);
  assert_int_equal (rag_two_pods (105, &out), 3);
  assert_int_equal (rag_two_pods (106, &out), 4);
  assert_int_equal (rag_two_pods (140, &out), 4);
  assert_int_equal (rag_two_pods (141, &out), 5);
  assert_int_equal (rag_two_pods (176, &out), 6);
  assert_int_equal (rag_two_pods (300, &out), 9);
  /* The pre-1.33 rule abs(1 - r) <= 0.1 reproduces the seed's 77 % -> 3. */
  FsHpaSettings old = fs_hpa_default_settings (NOW_MS);
  old.symmetric_tolerance = TRUE;
  FsHpaPod pods[2] = { rag_pod (77), rag_pod (77) };
  fs_hpa_resource_replicas (2, 70, pods, 2, TRUE, &old, &out);
  assert_int_equal (out.replicas, 3);

  /* 9 within min 2 / max 6.  Legacy path from 2 replicas: the 2x/4 cap gives 4. */
  FsHpaDecision d;
  fs_hpa_normalize_legacy (2, 9, 2, 6, NOW_MS, NULL, 0, &d);
  assert_int_equal (d.desired, 4);
  assert_string_equal (d.reason, "ScaleUpLimit");
  /* ... from 3 replicas the cap is 6 = max: "TooManyReplicas". */
  fs_hpa_normalize_legacy (3, 9, 2, 6, NOW_MS, NULL, 0, &d);
  assert_int_equal (d.desired, 6);
  assert_int_equal (d.limited_by, FS_HPA_LIMIT_MAX);
  assert_string_equal (d.reason, "TooManyReplicas");
  assert_string_equal (d.message, "the desired replica count is more than the maximum replica count");
  /* Default behavior from 2: max(2 + 4, 4) = 6 = max -> 6, TooManyReplicas. */
  FsHpaBehavior b = fs_hpa_default_behavior ();
  fs_hpa_normalize_behavior (2, 9, 2, 6, &b, NOW_MS, NULL, 0, NULL, 0, NULL, 0, &d);
  assert_int_equal (d.desired, 6);
  assert_string_equal (d.reason, "TooManyReplicas");
  /* The manifest's behavior (scaleUp Pods 2 / 60 s): 4, ScaleUpLimit. */
  b.scale_up = rules (2, 60, 0, 0, 0);
  fs_hpa_normalize_behavior (2, 9, 2, 6, &b, NOW_MS, NULL, 0, NULL, 0, NULL, 0, &d);
  assert_int_equal (d.desired, 4);
  assert_string_equal (d.reason, "ScaleUpLimit");

  /* Memory at 52-56 % of 80 %: 2 either way (ceil(2 x 0.65) = 2). */
  FsHpaSettings s = fs_hpa_default_settings (NOW_MS);
  FsHpaPod mem[2] = { rag_pod (54), rag_pod (54) };
  fs_hpa_resource_replicas (2, 80, mem, 2, FALSE, &s, &out);
  assert_int_equal (out.replicas, 2);
}

/* 3 replicas, 2 Ready at PERCENT, 1 Pending (no sample, same request). */
static int32_t
rag_pending (int percent, FsHpaProposal *out)
{
  FsHpaSettings s = fs_hpa_default_settings (NOW_MS);
  FsHpaPod pods[3] = { rag_pod (percent), rag_pod (percent), rag_pod (0) };
  pods[2].name = "rag-api-pending";
  pods[2].pending = TRUE;
  pods[2].ready = FALSE;
  pods[2].has_start = FALSE;
  pods[2].has_metric = FALSE;
  fs_hpa_resource_replicas (3, 70, pods, 3, TRUE, &s, out);
  assert_true (out->valid);
  assert_int_equal (out->unready, 1);
  return out->replicas;
}

static void
test_seed_pending (void **state)
{
  FsHpaProposal out;
  /* 89 %: ratio 89/70 > 1, the Pending pod counts as 0: (890 x 100) / 1500 = 59 -> 0.843,
   * below 1 after the rebalance -> stay at 3. */
  assert_int_equal (rag_pending (89, &out), 3);
  assert_int_equal (out.utilization, 89);
  assert_true (fabs (out.rebalanced_ratio - 59.0 / 70.0) < 1e-12);
  assert_true (out.rebalanced_ratio > 0.84 && out.rebalanced_ratio < 0.85);
  assert_int_equal (rag_pending (82, &out), 3);
  assert_int_equal (rag_pending (115, &out), 3);
  /* 116 %: 1160 x 100 / 1500 = 77 (truncated), 77/70 = 1.1 is inside the 1.33+ band: 3.  The
   * seed says 4 (its float average 1.105 / the pre-1.33 abs rule); with truncation the first
   * reading that moves is 117 %. */
  assert_int_equal (rag_pending (116, &out), 3);
  assert_true (out.rebalanced_ratio == 1.1);
  assert_int_equal (rag_pending (117, &out), 4);
  /* with the pre-1.33 rule the seed's "grows past 3 above 115.5 %" holds: 116 % -> 4 */
  {
    FsHpaSettings old = fs_hpa_default_settings (NOW_MS);
    old.symmetric_tolerance = TRUE;
    FsHpaPod pods[3] = { rag_pod (116), rag_pod (116), rag_pod (0) };
    pods[2].name = "rag-api-pending";
    pods[2].pending = TRUE;
    pods[2].ready = FALSE;
    pods[2].has_start = FALSE;
    pods[2].has_metric = FALSE;
    fs_hpa_resource_replicas (3, 70, pods, 3, TRUE, &old, &out);
    assert_int_equal (out.replicas, 4);
    FsHpaPod at_115[3] = { rag_pod (115), rag_pod (115), pods[2] };
    fs_hpa_resource_replicas (3, 70, at_115, 3, TRUE, &old, &out);
    assert_int_equal (out.replicas, 3);
  }
  assert_int_equal (rag_pending (150, &out), 5);
  assert_int_equal (rag_pending (200, &out), 6);
}

/* What the controller keeps between syncs (stabilizeRecommendationWithBehaviors and
 * storeScaleEvent/markScaleEventsOutdated), replayed by the test. */
typedef struct {
  FsHpaRecommendation recs[64];
  guint n_recs;
  FsHpaScaleEvent up[64], down[64];
  guint n_up, n_down;
} History;

static void
record_recommendation (History *h, const FsHpaBehavior *b, int64_t now, int32_t desired)
{
  int64_t up_cutoff = now - (int64_t) b->scale_up.stabilization_window_seconds * SEC;
  int64_t down_cutoff = now - (int64_t) b->scale_down.stabilization_window_seconds * SEC;
  int old = -1;
  for (guint i = 0; i < h->n_recs; i++)
    if (h->recs[i].timestamp_ms < up_cutoff && h->recs[i].timestamp_ms < down_cutoff)
      old = (int) i;
  FsHpaRecommendation rec = { now, desired };
  if (old >= 0)
    h->recs[old] = rec;
  else
    h->recs[h->n_recs++] = rec;
}

static void
store_event (FsHpaScaleEvent *events, guint *n, const FsHpaRules *r, int64_t now, int32_t change)
{
  int32_t longest = 0;
  for (guint i = 0; i < r->n_policies; i++)
    longest = MAX (longest, r->policies[i].period_seconds);
  int old = -1;
  for (guint i = 0; i < *n; i++)
    {
      if (events[i].timestamp_ms < now - (int64_t) longest * SEC)
        events[i].outdated = TRUE;
      if (events[i].outdated)
        old = (int) i;
    }
  FsHpaScaleEvent e = { now, change, FALSE };
  if (old >= 0)
    events[old] = e;
  else
    events[(*n)++] = e;
}

/* One reconcile: normalize, record, scale.  Returns the new replica count. */
static int32_t
sync_once (History *h, const FsHpaBehavior *b, int64_t now, int32_t current, int32_t proposal,
           int32_t min, int32_t max, FsHpaDecision *d)
{
  fs_hpa_normalize_behavior (current, proposal, min, max, b, now, h->recs, h->n_recs, h->up,
                             h->n_up, h->down, h->n_down, d);
  record_recommendation (h, b, now, proposal);
  if (d->desired > current)
    store_event (h->up, &h->n_up, &b->scale_up, now, d->desired - current);
  else if (d->desired < current)
    store_event (h->down, &h->n_down, &b->scale_down, now, current - d->desired);
  return d->desired;
}

/* Scale-down after the load stops: window 300 s, Pods 1 / 60 s, min 2: 6 -> 5 -> 4 -> 3 -> 2
 * at 300, 360, 420, 480 s. */
static void
test_seed_scale_down_timeline (void **state)
{
  FsHpaBehavior b = fs_hpa_default_behavior ();
  b.scale_down = rules (1, 60, 0, 0, 300);
  b.scale_up = rules (2, 60, 0, 0, 0);
  History h = { 0 };
  const int64_t t0 = NOW_MS;
  /* Under load the metric asked for 6 every 15 s up to t0. */
  int32_t current = 6;
  FsHpaDecision d;
  for (int64_t t = t0 - 10 * MINUTE; t <= t0; t += 15 * SEC)
    current = sync_once (&h, &b, t, current, 6, 2, 6, &d);
  assert_int_equal (current, 6);
  int64_t changes_at[8];
  int32_t changes_to[8];
  guint n_changes = 0;
  for (int64_t t = t0 + 15 * SEC; t <= t0 + 15 * MINUTE; t += 15 * SEC)
    {
      int32_t before = current;
      current = sync_once (&h, &b, t, current, 1, 2, 6, &d);
      if (current != before)
        {
          assert_true (n_changes < G_N_ELEMENTS (changes_at));
          changes_at[n_changes] = (t - t0) / SEC;
          changes_to[n_changes++] = current;
        }
      if ((t - t0) / SEC == 315)
        {
          assert_int_equal (d.desired, 5);
          assert_string_equal (d.reason, "ScaleDownLimit");
        }
      if ((t - t0) / SEC == 285)
        assert_string_equal (d.reason, "ScaleDownStabilized");
    }
  assert_int_equal (n_changes, 4);
  const int64_t want_at[] = { 300, 360, 420, 480 };
  const int32_t want_to[] = { 5, 4, 3, 2 };
  for (guint i = 0; i < 4; i++)
    {
      assert_int_equal (changes_at[i], want_at[i]);
      assert_int_equal (changes_to[i], want_to[i]);
    }
  /* At 2 the metric's 1 is held by minReplicas. */
  assert_int_equal (current, 2);
  assert_string_equal (d.reason, "TooFewReplicas");
}

/* hpa-behavior-reference-es.txt: 18 pods, policies Percent 30 / 60 s and Pods 7 / 90 s, Max. */
static void
test_seed_spanish_scale_up (void **state)
{
  FsHpaBehavior b = fs_hpa_default_behavior ();
  b.scale_up = rules (7, 90, 30, 60, 0);
  /* generateScalingRules puts Pods first; the order does not matter for Max. */
  FsHpaDecision d;
  /* 30 % of 18 = 5.4 -> ceil(18 x 1.3) = 24 (+6) against 18 + 7 = 25: Max -> 25. */
  fs_hpa_normalize_behavior (18, 60, 1, 100, &b, NOW_MS, NULL, 0, NULL, 0, NULL, 0, &d);
  assert_int_equal (d.desired, 25);
  assert_string_equal (d.reason, "ScaleUpLimit");
  /* Then at 25: 30 % of 25 = 7.5 -> +8 (33) against +7 (32): 33. */
  fs_hpa_normalize_behavior (25, 60, 1, 100, &b, NOW_MS, NULL, 0, NULL, 0, NULL, 0, &d);
  assert_int_equal (d.desired, 33);
  /* With the +7 event of 60 s before still inside the Pods period (90 s) but not the Percent
   * period (60 s, strict): Percent from 25 -> 33, Pods from 18 -> 25: 33. */
  FsHpaScaleEvent up[] = { { NOW_MS - 60 * SEC, 7, FALSE } };
  fs_hpa_normalize_behavior (25, 60, 1, 100, &b, NOW_MS, NULL, 0, up, 1, NULL, 0, &d);
  assert_int_equal (d.desired, 33);
  /* 30 s after the +7 both periods still see it: max(ceil(18 x 1.3), 18 + 7) = 25: no move. */
  up[0].timestamp_ms = NOW_MS - 30 * SEC;
  fs_hpa_normalize_behavior (25, 60, 1, 100, &b, NOW_MS, NULL, 0, up, 1, NULL, 0, &d);
  assert_int_equal (d.desired, 25);
  assert_string_equal (d.reason, "ScaleUpLimit");
  /* selectPolicy Min picks the smaller change: +6 from 18. */
  b.scale_up.select = FS_HPA_SELECT_MIN;
  fs_hpa_normalize_behavior (18, 60, 1, 100, &b, NOW_MS, NULL, 0, NULL, 0, NULL, 0, &d);
  assert_int_equal (d.desired, 24);
  /* With the manifest's 120 s window, a lower recommendation inside it holds the scale-up. */
  b.scale_up.select = FS_HPA_SELECT_MAX;
  b.scale_up.stabilization_window_seconds = 120;
  FsHpaRecommendation recs[] = { { NOW_MS - 100 * SEC, 18 }, { NOW_MS - 30 * SEC, 40 } };
  fs_hpa_normalize_behavior (18, 60, 1, 100, &b, NOW_MS, recs, 2, NULL, 0, NULL, 0, &d);
  assert_int_equal (d.desired, 18);
  assert_string_equal (d.reason, "ScaleUpStabilized");
  recs[0].timestamp_ms = NOW_MS - 120 * SEC;
  fs_hpa_normalize_behavior (18, 60, 1, 100, &b, NOW_MS, recs, 2, NULL, 0, NULL, 0, &d);
  assert_int_equal (d.stabilized, 40);
  assert_int_equal (d.desired, 25);
}

/* selectPolicy Disabled on scaleDown: never scales down, still scales up. */
static void
test_seed_disabled (void **state)
{
  FsHpaBehavior b = fs_hpa_default_behavior ();
  b.scale_down.select = FS_HPA_SELECT_DISABLED;
  History h = { 0 };
  int32_t current = 10;
  FsHpaDecision d;
  for (int64_t t = NOW_MS; t <= NOW_MS + 60 * MINUTE; t += 15 * SEC)
    {
      current = sync_once (&h, &b, t, current, 2, 1, 10, &d);
      assert_int_equal (current, 10);
    }
  assert_int_equal (d.limited_by, FS_HPA_LIMIT_DISABLED);
  assert_string_equal (d.reason, "ScaleDownLimit");
  fs_hpa_normalize_behavior (4, 8, 1, 10, &b, NOW_MS, NULL, 0, NULL, 0, NULL, 0, &d);
  assert_int_equal (d.desired, 8);
  /* Disabled on scale-up: the limit is current. */
  b.scale_up.select = FS_HPA_SELECT_DISABLED;
  fs_hpa_normalize_behavior (4, 8, 1, 10, &b, NOW_MS, NULL, 0, NULL, 0, NULL, 0, &d);
  assert_int_equal (d.desired, 4);
  assert_int_equal (d.limited_by, FS_HPA_LIMIT_DISABLED);
  assert_string_equal (d.reason, "ScaleUpLimit");
}

/* calculateScaleDownLimitWithBehaviors: a Percent policy keeps
 * int32(float64(periodStartReplicas) * (1 - value/100)), truncated: at 50 % per 60 s, 11
 * replicas may go down to 5 (5.5), not 6; with 2 removed 30 s ago the period starts at 13
 * and the floor is 6 (6.5). */
static void
test_percent_scale_down_truncates (void **state)
{
  FsHpaBehavior b = fs_hpa_default_behavior ();
  b.scale_down = rules (0, 0, 50, 60, 0);
  FsHpaDecision d;
  fs_hpa_normalize_behavior (11, 1, 1, 100, &b, NOW_MS, NULL, 0, NULL, 0, NULL, 0, &d);
  assert_int_equal (d.desired, 5);
  assert_int_equal (d.limited_by, FS_HPA_LIMIT_SCALE_DOWN);
  assert_string_equal (d.reason, "ScaleDownLimit");
  FsHpaScaleEvent down[] = { { NOW_MS - 30 * SEC, 2, FALSE } };
  fs_hpa_normalize_behavior (11, 1, 1, 100, &b, NOW_MS, NULL, 0, NULL, 0, down, 1, &d);
  assert_int_equal (d.desired, 6);
}

/* groupPods: the cpu initialization period holds while start + period is after now (After is
 * strict).  A Ready pod whose sample predates one metric window after its transition is
 * unready inside the period and counted after it; at start + period == now it is after. */
static void
test_group_pods_initialization_edge (void **state)
{
  FsHpaSettings s = upstream_test_settings (); /* a 2 min initialization period */
  FsHpaPodGroup g[1];
  FsHpaPod p = { .name = "edge", .has_start = TRUE, .start_ms = NOW_MS - 2 * MINUTE,
                 .has_ready = TRUE, .ready = TRUE, .ready_transition_ms = NOW_MS - 2 * MINUTE,
                 .has_metric = TRUE, .metric_timestamp_ms = NOW_MS - 2 * MINUTE,
                 .metric_window_ms = MINUTE };
  fs_hpa_group_pods (&p, 1, TRUE, &s, g);
  assert_int_equal (g[0], FS_HPA_POD_READY);
  p.start_ms += 1; /* one millisecond later: still initializing, and the sample is stale */
  fs_hpa_group_pods (&p, 1, TRUE, &s, g);
  assert_int_equal (g[0], FS_HPA_POD_UNREADY);
}

/* pkg/apis/autoscaling/validation/validation_test.go TestValidateHorizontalPodAutoscaler:
 * the replica bounds' failure cases ("must be greater than or equal to 1", "must be greater
 * than 0", "must be greater than or equal to `minReplicas`") and the HPAScaleToZero case. */
static void
test_replicas_validation_upstream (void **state)
{
  (void) state;
  static const struct { int32_t min, max; gboolean zero; const char *message; } cases[] = {
    { 1, 5, FALSE, NULL },
    { 5, 5, FALSE, NULL },
    { 0, 5, FALSE, "field spec.minReplicas: Invalid value: 0: must be greater than or equal to 1" },
    { 0, 5, TRUE, NULL },
    { -1, 5, TRUE, "field spec.minReplicas: Invalid value: -1: must be greater than or equal to 0" },
    { 1, 0, FALSE, "field spec.maxReplicas: Invalid value: 0: must be greater than 0" },
    { 8, 3, FALSE, "field spec.maxReplicas: Invalid value: 3: must be greater than or equal to `minReplicas` (8)" },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      gboolean valid = fs_hpa_replicas_valid (cases[i].min, cases[i].max, cases[i].zero, "spec.minReplicas",
                                              "spec.maxReplicas", &error);
      assert_int_equal (valid, cases[i].message == NULL);
      if (cases[i].message != NULL)
        assert_string_equal (error->message, cases[i].message);
    }
}

/* replica_calculator_test.go TestCalculatePodRequests (its sidecar cases): regular
 * containers and restartable init containers summed, plain init containers not; a container
 * named alone; a summed container without the request is missing. */
static void
test_pod_request_counts_native_sidecars (void **state)
{
  FsContainer app = { .name = "app", .requests = { .cpu_milli = 100, .present = FS_RES_CPU } };
  FsContainer init[] = {
    { .name = "setup", .requests = { .cpu_milli = 5000, .present = FS_RES_CPU } },
    { .name = "side", .requests = { .cpu_milli = 50, .present = FS_RES_CPU }, .restartable = TRUE },
  };
  FsContainerSet set = { .n_containers = 1, .n_init = 2, .containers = &app, .init_containers = init };
  int64_t milli = 0;
  const char *missing = NULL;
  assert_true (fs_hpa_pod_request (&set, "cpu", NULL, &milli, &missing));
  assert_int_equal (milli, 150);
  assert_true (fs_hpa_pod_request (&set, "cpu", "side", &milli, &missing));
  assert_int_equal (milli, 50);
  assert_false (fs_hpa_pod_request (&set, "cpu", "setup", &milli, &missing)); /* not a sidecar: never summed */
  assert_false (fs_hpa_pod_request (&set, "memory", NULL, &milli, &missing));
  assert_string_equal (missing, "app");
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_pod_request_counts_native_sidecars),
    cmocka_unit_test (test_resource_replicas_upstream),
    cmocka_unit_test (test_replicas_validation_upstream),
    cmocka_unit_test (test_resource_computed_tolerance),
    cmocka_unit_test (test_resource_extra),
    cmocka_unit_test (test_plain_replicas_upstream),
    cmocka_unit_test (test_value_replicas_upstream),
    cmocka_unit_test (test_external_usage),
    cmocka_unit_test (test_group_pods),
    cmocka_unit_test (test_tolerance),
    cmocka_unit_test (test_tolerance_by_version),
    cmocka_unit_test (test_combine),
    cmocka_unit_test (test_normalize_legacy_stabilization),
    cmocka_unit_test (test_normalize_legacy_rules),
    cmocka_unit_test (test_scaling_with_rules),
    cmocka_unit_test (test_select_min),
    cmocka_unit_test (test_change_in_period),
    cmocka_unit_test (test_normalize_behavior_stabilization),
    cmocka_unit_test (test_default_behavior),
    cmocka_unit_test (test_seed_two_pods),
    cmocka_unit_test (test_seed_pending),
    cmocka_unit_test (test_seed_scale_down_timeline),
    cmocka_unit_test (test_seed_spanish_scale_up),
    cmocka_unit_test (test_seed_disabled),
    cmocka_unit_test (test_percent_scale_down_truncates),
    cmocka_unit_test (test_group_pods_initialization_edge),
  };
  return cmocka_run_group_tests_name ("hpa", tests, NULL, NULL);
}
