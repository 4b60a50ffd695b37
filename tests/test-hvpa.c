/* The HVPA weight rules (src/model/hvpa.c) in both semantics: the seed's three examples
 * (the project's seed text on HVPA weight-based scaling, docs/hvpa.md), the cases of
 * gardener/hvpa-controller controllers/hvpa_controller_test.go (##ScaleTestScenarios,
 * fixtures of controllers/suite_test.go newHvpa / newTarget / newVpaStatus), and hand-computed numbers
 * for the rules of docs/hvpa.md. */
#include "config.h"

#include "testutil.h"
#include "fitscale/model/hvpa.h"

#define SEC INT64_C (1000)
#define MINUTE (60 * SEC)
#define HOUR (60 * MINUTE)
/* 2027-01-15T00:00:00Z */
#define DAY0 INT64_C (1799971200000)

static const FsHvpaSemantics D = FS_HVPA_SEMANTICS_DESIGN;
static const FsHvpaSemantics H = FS_HVPA_SEMANTICS_HVPA;

static FsHvpaChangeParams
change_params (gboolean has_value, int64_t value, gboolean has_percentage, int32_t percentage)
{
  FsHvpaChangeParams p = { has_value, value, has_percentage, percentage };
  return p;
}

static void
assert_blocked (const FsHvpaOutput *out, const FsHvpaBlockedReason *reasons, guint n)
{
  assert_int_equal (out->n_blocked, n);
  for (guint i = 0; i < n; i++)
    assert_int_equal (out->blocked[i].reason, reasons[i]);
}

/* ---- the seed's examples ------------------------------------------------------------- */

/* Example 1: 0 [1,2], 0.6 [3,7], 0 [7,10]; min 1 max 10; windows 2m/3m; minCpuChange
 * {200m, 70 %}, minMemChange {200M, 80 %}; memory minAllowed 400Mi, maxAllowed 3000Mi. */
static const FsHvpaInterval example1[] = { { 0, 1, 2 }, { 0.6, 3, 7 }, { 0, 7, 10 } };
/* Example 2: 1 [1,1], 0.6 [2,4], 0 [5,10] (hpaTemplate elided; the chart spans 1..10). */
static const FsHvpaInterval example2[] = { { 1, 1, 1 }, { 0.6, 2, 4 }, { 0, 5, 10 } };
/* Example 3: 0 [1,3], 0.6 [4,10]; min 1 max 10. */
static const FsHvpaInterval example3[] = { { 0, 1, 3 }, { 0.6, 4, 10 } };

static FsHvpaSpec
seed_spec (const FsHvpaInterval *intervals, guint n)
{
  FsHvpaSpec spec;
  memset (&spec, 0, sizeof spec);
  spec.intervals = intervals;
  spec.n_intervals = n;
  spec.min_replicas = 1;
  spec.max_replicas = 10;
  return spec;
}

static FsHvpaSpec
example1_spec (void)
{
  FsHvpaSpec spec = seed_spec (example1, G_N_ELEMENTS (example1));
  spec.hpa_scale_up.stabilization_ms = spec.vpa_scale_up.stabilization_ms = 2 * MINUTE;
  spec.hpa_scale_down.stabilization_ms = spec.vpa_scale_down.stabilization_ms = 3 * MINUTE;
  spec.vpa_scale_up.min_change[FS_HVPA_CPU] = change_params (TRUE, 200, TRUE, 70);
  spec.vpa_scale_up.min_change[FS_HVPA_MEMORY] = change_params (TRUE, 200000000, TRUE, 80);
  spec.vpa_scale_down.min_change[FS_HVPA_CPU] = spec.vpa_scale_up.min_change[FS_HVPA_CPU];
  spec.vpa_scale_down.min_change[FS_HVPA_MEMORY] = spec.vpa_scale_up.min_change[FS_HVPA_MEMORY];
  return spec;
}

static void
check_curve (const FsHvpaSpec *spec, int direction, int64_t current, int64_t target,
             const double *weights, const int64_t *requests)
{
  FsHvpaCurvePoint points[10];
  guint n = fs_hvpa_curve (spec, D, FS_HVPA_CPU, current, target, direction, 1, 10, points);
  assert_int_equal (n, 10);
  for (guint i = 0; i < n; i++)
    {
      assert_int_equal (points[i].replicas, (int32_t) i + 1);
      assert_true (points[i].weight == weights[i]);
      assert_int_equal (points[i].request, requests[i]);
    }
}

/* Example 1 chart: flat (weight 0) to 2, rising through 3..7 (0.6; 7 belongs to the
 * earlier interval), flat 8..10, and vertical at max 10 when the HPA wants more. */
static void
test_seed_example1_curve (void **state)
{
  FsHvpaSpec spec = example1_spec ();
  const double w_up[] = { 0, 0, .6, .6, .6, .6, .6, 0, 0, 1 };
  const int64_t r_up[] = { 1000, 1000, 1600, 1600, 1600, 1600, 1600, 1000, 1000, 2000 };
  const double w_none[] = { 0, 0, .6, .6, .6, .6, .6, 0, 0, 0 };
  const int64_t r_none[] = { 1000, 1000, 1600, 1600, 1600, 1600, 1600, 1000, 1000, 1000 };
  const double w_down[] = { 1, 0, .6, .6, .6, .6, .6, 0, 0, 0 };
  const int64_t r_down[] = { 500, 1000, 700, 700, 700, 700, 700, 1000, 1000, 1000 };
  int stage;
  check_curve (&spec, +1, 1000, 2000, w_up, r_up);
  check_curve (&spec, 0, 1000, 2000, w_none, r_none);
  check_curve (&spec, -1, 1000, 500, w_down, r_down);
  assert_true (fs_hvpa_stage_weight (&spec, D, 7, 8, &stage) == 0.6);
  assert_int_equal (stage, 1);
  assert_true (fs_hvpa_stage_weight (&spec, D, 8, 9, &stage) == 0.0);
  assert_int_equal (stage, 2);
}

/* Example 2 chart: vertical at 1 (weight 1), rising 2..4, flat 5..10 (vertical at max). */
static void
test_seed_example2_curve (void **state)
{
  FsHvpaSpec spec = seed_spec (example2, G_N_ELEMENTS (example2));
  const double w_up[] = { 1, .6, .6, .6, 0, 0, 0, 0, 0, 1 };
  const int64_t r_up[] = { 2000, 1600, 1600, 1600, 1000, 1000, 1000, 1000, 1000, 2000 };
  const double w_none[] = { 1, .6, .6, .6, 0, 0, 0, 0, 0, 0 };
  const int64_t r_none[] = { 2000, 1600, 1600, 1600, 1000, 1000, 1000, 1000, 1000, 1000 };
  check_curve (&spec, +1, 1000, 2000, w_up, r_up);
  check_curve (&spec, 0, 1000, 2000, w_none, r_none);
}

/* Example 3: "After maxReplicas, even if weight is not mentioned, there is only vertical
 * scaling because HPA is limited by maxReplicas": flat 1..3, rising 4..10, full at 10. */
static void
test_seed_example3_curve (void **state)
{
  FsHvpaSpec spec = seed_spec (example3, G_N_ELEMENTS (example3));
  const double w_up[] = { 0, 0, 0, .6, .6, .6, .6, .6, .6, 1 };
  const int64_t r_up[] = { 1000, 1000, 1000, 1600, 1600, 1600, 1600, 1600, 1600, 2000 };
  const double w_none[] = { 0, 0, 0, .6, .6, .6, .6, .6, .6, .6 };
  const int64_t r_none[] = { 1000, 1000, 1000, 1600, 1600, 1600, 1600, 1600, 1600, 1600 };
  check_curve (&spec, +1, 1000, 2000, w_up, r_up);
  check_curve (&spec, 0, 1000, 2000, w_none, r_none);
}

/* ---- design: one step with Example 1's spec ------------------------------------------- */

static FsHvpaContainer
design_container (void)
{
  FsHvpaContainer ct;
  memset (&ct, 0, sizeof ct);
  ct.name = "resource-consumer";
  ct.has_recommendation = TRUE;
  ct.request[FS_HVPA_CPU] = 500;
  ct.target[FS_HVPA_CPU] = 600;
  ct.request[FS_HVPA_MEMORY] = 1000 * MiB;
  ct.target[FS_HVPA_MEMORY] = 2000 * MiB;
  ct.has_min_allowed[FS_HVPA_MEMORY] = TRUE;
  ct.min_allowed[FS_HVPA_MEMORY] = 400 * MiB;
  ct.has_max_allowed[FS_HVPA_MEMORY] = TRUE;
  ct.max_allowed[FS_HVPA_MEMORY] = 3000 * MiB;
  return ct;
}

static FsHvpaInput
design_input (const FsHvpaContainer *ct, int32_t current, int32_t desired)
{
  FsHvpaInput in;
  memset (&in, 0, sizeof in);
  in.spec = example1_spec ();
  in.current_replicas = current;
  in.has_hpa_status = TRUE;
  in.desired_replicas = desired;
  in.has_vpa_recommendation = TRUE;
  in.containers = ct;
  in.n_containers = 1;
  in.now_ms = DAY0 + 12 * HOUR;
  return in;
}

/* 5 -> 8 at 0.6: ceil(5 + 3 * 0.4) = 7; memory 1000Mi + 0.6 * 1000Mi = 1600Mi (change
 * 600Mi >= min(200M, 80 % of 1000Mi)); cpu change 60m < min(200m, 350m): MinChange. */
static void
test_design_step (void **state)
{
  FsHvpaContainer ct = design_container ();
  FsHvpaInput in = design_input (&ct, 5, 8);
  FsHvpaContainerResult res;
  FsHvpaOutput out;
  const FsHvpaBlockedReason min_change[] = { FS_HVPA_BLOCKED_MIN_CHANGE };
  out.containers = &res;
  fs_hvpa_decide (&in, D, &out);
  assert_true (out.valid);
  assert_int_equal (out.stage, 1);
  assert_true (out.stage_weight == 0.6);
  assert_int_equal (out.replicas, 7);
  assert_int_equal (res.request[FS_HVPA_MEMORY], 1600 * MiB);
  assert_true (res.changed[FS_HVPA_MEMORY]);
  assert_int_equal (res.request[FS_HVPA_CPU], 500);
  assert_int_equal (res.change[FS_HVPA_CPU], 60);
  assert_int_equal (res.blocked[FS_HVPA_CPU], FS_HVPA_BLOCKED_MIN_CHANGE);
  assert_int_equal (res.limit[FS_HVPA_CPU], 0);
  assert_blocked (&out, min_change, 1);
  assert_true (out.blocked[0].vertical);
  assert_false (out.blocked[0].horizontal);
}

/* Stabilization: scale-up window 2m (elapsed 1m blocks, 2m passes), scale-down 3m. */
static void
test_design_stabilization (void **state)
{
  FsHvpaContainer ct = design_container ();
  FsHvpaInput in = design_input (&ct, 5, 8);
  FsHvpaContainerResult res;
  FsHvpaOutput out;
  const FsHvpaBlockedReason stab[] = { FS_HVPA_BLOCKED_STABILIZATION_WINDOW };
  out.containers = &res;
  in.has_last_scale_time = TRUE;
  in.last_scale_time_ms = in.now_ms - 1 * MINUTE;
  fs_hvpa_decide (&in, D, &out);
  assert_int_equal (out.replicas, 5);
  assert_int_equal (out.weighted_replicas, 7);
  assert_int_equal (res.request[FS_HVPA_MEMORY], 1000 * MiB);
  assert_blocked (&out, stab, 1);
  assert_true (out.blocked[0].vertical && out.blocked[0].horizontal);

  in.last_scale_time_ms = in.now_ms - 2 * MINUTE;
  fs_hvpa_decide (&in, D, &out);
  assert_int_equal (out.replicas, 7);
  assert_int_equal (res.request[FS_HVPA_MEMORY], 1600 * MiB);

  /* 5 -> 3 at 0.6: floor(5 - 2 * 0.4) = 4; memory 1000Mi -> 400Mi target: 640Mi */
  in = design_input (&ct, 5, 3);
  ct.target[FS_HVPA_MEMORY] = 400 * MiB;
  in.has_last_scale_time = TRUE;
  in.last_scale_time_ms = in.now_ms - 150 * SEC;
  fs_hvpa_decide (&in, D, &out);
  assert_int_equal (out.replicas, 5);
  assert_int_equal (res.request[FS_HVPA_MEMORY], 1000 * MiB);
  assert_int_equal (out.blocked[0].reason, FS_HVPA_BLOCKED_STABILIZATION_WINDOW);
  in.last_scale_time_ms = in.now_ms - 3 * MINUTE;
  fs_hvpa_decide (&in, D, &out);
  assert_int_equal (out.replicas, 4);
  assert_int_equal (res.request[FS_HVPA_MEMORY], 640 * MiB);
}

/* At maxReplicas with the HPA limited, weight 1 whatever the stage (7..10 has 0), clamped
 * to maxAllowed 3000Mi; at minReplicas with the HPA wanting fewer, weight 1, clamped to
 * minAllowed 400Mi.  Without the push the stage's 0 blocks with Weight. */
static void
test_design_extremes_and_clamp (void **state)
{
  FsHvpaContainer ct = design_container ();
  FsHvpaInput in = design_input (&ct, 10, 10);
  FsHvpaContainerResult res;
  FsHvpaOutput out;
  const FsHvpaBlockedReason weight[] = { FS_HVPA_BLOCKED_WEIGHT };
  out.containers = &res;
  ct.target[FS_HVPA_MEMORY] = 3500 * MiB;
  ct.target[FS_HVPA_CPU] = 900;
  in.hpa_scaling_limited = TRUE;
  fs_hvpa_decide (&in, D, &out);
  assert_int_equal (out.stage, 2);
  assert_true (out.stage_weight == 0.0);
  assert_true (out.vertical_weight == 1.0);
  assert_int_equal (res.request[FS_HVPA_MEMORY], 3000 * MiB);
  assert_int_equal (res.request[FS_HVPA_CPU], 900);
  assert_int_equal (out.replicas, 10);

  in.hpa_scaling_limited = FALSE;
  fs_hvpa_decide (&in, D, &out);
  assert_true (out.vertical_weight == 0.0);
  assert_int_equal (res.request[FS_HVPA_MEMORY], 1000 * MiB);
  assert_blocked (&out, weight, 1);

  /* the HPA asks 11 (raw, above max): also "wants more"; replicas stay clamped at 10 */
  in.desired_replicas = 11;
  fs_hvpa_decide (&in, D, &out);
  assert_true (out.vertical_weight == 1.0);
  assert_int_equal (out.replicas, 10);

  in = design_input (&ct, 1, 1);
  ct.target[FS_HVPA_MEMORY] = 300 * MiB;
  ct.target[FS_HVPA_CPU] = 500;
  in.hpa_scaling_limited = TRUE;
  fs_hvpa_decide (&in, D, &out);
  assert_true (out.vertical_weight == 1.0);
  assert_int_equal (res.request[FS_HVPA_MEMORY], 400 * MiB);
  in.hpa_scaling_limited = FALSE;
  in.current_replicas = 2;
  in.desired_replicas = 1;
  fs_hvpa_decide (&in, D, &out); /* 2 is not min: stage 0 weight 0 */
  assert_int_equal (res.request[FS_HVPA_MEMORY], 1000 * MiB);
  assert_int_equal (out.replicas, 1);
}

/* Fractions in [0,1]; when any weight exceeds 1 all are integer percent. */
static void
test_design_percent_vs_fraction (void **state)
{
  const FsHvpaInterval pct[] = { { 60, 1, 5 }, { 0, 6, 10 } };
  const FsHvpaInterval pct_one[] = { { 1, 1, 5 }, { 50, 6, 10 } };
  const FsHvpaInterval frac[] = { { 1, 1, 5 }, { 0.5, 6, 10 } };
  FsHvpaSpec spec = seed_spec (pct, 2);
  assert_true (fs_hvpa_stage_weight (&spec, D, 3, 3, NULL) == 0.6);
  spec = seed_spec (pct_one, 2);
  assert_true (fs_hvpa_stage_weight (&spec, D, 3, 3, NULL) == 0.01);
  assert_true (fs_hvpa_stage_weight (&spec, D, 7, 7, NULL) == 0.5);
  spec = seed_spec (frac, 2);
  assert_true (fs_hvpa_stage_weight (&spec, D, 3, 3, NULL) == 1.0);
  assert_true (fs_hvpa_stage_weight (&spec, D, 7, 7, NULL) == 0.5);
  /* 60 and 0.6 give the same replicas and requests */
  assert_int_equal (fs_hvpa_weighted_replicas (D, 3, 13, 60 / 100.0),
                    fs_hvpa_weighted_replicas (D, 3, 13, 0.6));
}

/* Omitted start/last = min/max; an uncovered count has weight 0 (stage -1). */
static void
test_design_stage_defaults (void **state)
{
  const FsHvpaInterval iv[] = { { 0.4, 0, 3 }, { 0.8, 6, 0 } };
  FsHvpaSpec spec = seed_spec (iv, 2);
  int stage;
  spec.min_replicas = 2;
  spec.max_replicas = 8;
  assert_true (fs_hvpa_stage_weight (&spec, D, 2, 2, &stage) == 0.4);
  assert_int_equal (stage, 0);
  assert_true (fs_hvpa_stage_weight (&spec, D, 1, 1, &stage) == 0.0);
  assert_int_equal (stage, -1);
  assert_true (fs_hvpa_stage_weight (&spec, D, 4, 4, &stage) == 0.0);
  assert_int_equal (stage, -1);
  assert_true (fs_hvpa_stage_weight (&spec, D, 8, 8, &stage) == 0.8);
  assert_int_equal (stage, 1);
  assert_true (fs_hvpa_stage_weight (&spec, D, 9, 9, &stage) == 0.0);
  spec.n_intervals = 0;
  assert_true (fs_hvpa_stage_weight (&spec, D, 5, 5, &stage) == 0.0);
}

/* ceil up / floor down; exact decimals (1 - 0.7 is 0.3, not 0.30000000000000004). */
static void
test_rounding_replicas (void **state)
{
  assert_int_equal (fs_hvpa_weighted_replicas (D, 2, 3, 0.9), 3);   /* ceil(2.1) */
  assert_int_equal (fs_hvpa_weighted_replicas (D, 5, 2, 0.5), 3);   /* floor(3.5) */
  assert_int_equal (fs_hvpa_weighted_replicas (D, 3, 13, 0.7), 6);  /* exactly 6 */
  assert_int_equal (fs_hvpa_weighted_replicas (D, 13, 3, 0.7), 10);
  assert_int_equal (fs_hvpa_weighted_replicas (D, 4, 9, 1.0), 4);
  assert_int_equal (fs_hvpa_weighted_replicas (D, 4, 9, 0.0), 9);
  assert_int_equal (fs_hvpa_weighted_replicas (D, 4, 4, 0.3), 4);
  assert_int_equal (fs_hvpa_weighted_replicas (H, 3, 13, 0.7), 6);
  assert_int_equal (fs_hvpa_weighted_replicas (H, 2, 3, 0.1), 3);   /* any h > 0 moves */
  assert_int_equal (fs_hvpa_weighted_replicas (H, 2, 3, 1.0), 2);
  assert_int_equal (fs_hvpa_weighted_replicas (H, 10, 1, 0.5), 5);  /* floor(5.5) */
}

/* The change is truncated toward zero in both directions; hvpa rounds memory up to kB. */
static void
test_rounding_requests (void **state)
{
  assert_int_equal (fs_hvpa_weighted_request (D, FS_HVPA_CPU, 100, 107, 0.5), 103);
  assert_int_equal (fs_hvpa_weighted_request (D, FS_HVPA_CPU, 107, 100, 0.5), 104);
  assert_int_equal (fs_hvpa_weighted_request (D, FS_HVPA_MEMORY, 1000, 0, 0.333), 667);
  assert_int_equal (fs_hvpa_weighted_request (D, FS_HVPA_MEMORY, 100000000, 100001001, 1.0),
                    100001001);
  assert_int_equal (fs_hvpa_weighted_request (H, FS_HVPA_MEMORY, 100000000, 100001001, 1.0),
                    100002000);
  assert_int_equal (fs_hvpa_weighted_request (H, FS_HVPA_MEMORY, 1000, 0, 0.33), 1000);
  assert_int_equal (fs_hvpa_weighted_request (H, FS_HVPA_CPU, 107, 100, 0.5), 104);
  assert_int_equal (fs_hvpa_weighted_request (H, FS_HVPA_CPU, 300, 500, 0.4), 380);
}

/* threshold = min(value, percentage % of current); equal passes; unset: design none,
 * hvpa 200m / 200M. */
static void
test_min_change (void **state)
{
  FsHvpaChangeParams both = change_params (TRUE, 200, TRUE, 70);
  FsHvpaChangeParams pct = change_params (FALSE, 0, TRUE, 70);
  FsHvpaChangeParams ten = change_params (FALSE, 0, TRUE, 10);
  FsHvpaChangeParams val = change_params (TRUE, 100, TRUE, 80);
  FsHvpaChangeParams unset = change_params (FALSE, 0, FALSE, 0);
  assert_true (fs_hvpa_min_change_passes (D, FS_HVPA_CPU, &both, 500, 200));
  assert_true (fs_hvpa_min_change_passes (D, FS_HVPA_CPU, &both, 500, -200));
  assert_false (fs_hvpa_min_change_passes (D, FS_HVPA_CPU, &both, 500, 199));
  assert_false (fs_hvpa_min_change_passes (D, FS_HVPA_CPU, &both, 500, -199));
  assert_true (fs_hvpa_min_change_passes (D, FS_HVPA_CPU, &both, 200, 140)); /* 70 % = 140 */
  assert_false (fs_hvpa_min_change_passes (D, FS_HVPA_CPU, &both, 200, 139));
  assert_true (fs_hvpa_min_change_passes (D, FS_HVPA_CPU, &pct, 500, 350));
  assert_false (fs_hvpa_min_change_passes (D, FS_HVPA_CPU, &pct, 500, 349));
  /* 10 % of 333 = 33.3: design exact, hvpa cpu floors to 33m, hvpa memory exact */
  assert_false (fs_hvpa_min_change_passes (D, FS_HVPA_CPU, &ten, 333, 33));
  assert_true (fs_hvpa_min_change_passes (D, FS_HVPA_CPU, &ten, 333, 34));
  assert_true (fs_hvpa_min_change_passes (H, FS_HVPA_CPU, &ten, 333, 33));
  assert_false (fs_hvpa_min_change_passes (H, FS_HVPA_CPU, &ten, 333, 32));
  assert_false (fs_hvpa_min_change_passes (H, FS_HVPA_MEMORY, &ten, 333, 33));
  assert_true (fs_hvpa_min_change_passes (H, FS_HVPA_MEMORY, &ten, 333, 34));
  /* unset */
  assert_true (fs_hvpa_min_change_passes (D, FS_HVPA_CPU, &unset, 500, 1));
  assert_true (fs_hvpa_min_change_passes (D, FS_HVPA_MEMORY, NULL, 500, 1));
  assert_true (fs_hvpa_min_change_passes (H, FS_HVPA_CPU, &unset, 500, 200));
  assert_false (fs_hvpa_min_change_passes (H, FS_HVPA_CPU, &unset, 500, 199));
  assert_true (fs_hvpa_min_change_passes (H, FS_HVPA_MEMORY, NULL, 500, -200000000));
  assert_false (fs_hvpa_min_change_passes (H, FS_HVPA_MEMORY, &unset, 500, 199999999));
  /* a percentage of an unset request is 0 and disables the threshold */
  assert_true (fs_hvpa_min_change_passes (H, FS_HVPA_CPU, &val, 0, 1));
  assert_false (fs_hvpa_min_change_passes (H, FS_HVPA_CPU, &val, 300, 99));
}

/* ---- limits (getScaledResourceLimit) ---------------------------------------------------- */

static void
test_hvpa_scaled_limit (void **state)
{
  FsHvpaChangeParams cpu_gap = change_params (TRUE, 1000, TRUE, 80);
  FsHvpaChangeParams half = change_params (FALSE, 0, TRUE, 50);
  FsHvpaChangeParams zero = change_params (FALSE, 0, TRUE, 0);
  FsHvpaChangeParams mem_value = change_params (TRUE, 1000000000, FALSE, 0);
  int64_t limit = -1;
  /* proportional: 600m * 500m / 300m */
  assert_true (fs_hvpa_scaled_limit (FS_HVPA_CPU, 600, 300, 500, NULL, &limit));
  assert_int_equal (limit, 1000);
  /* truncating: 2000m * 500m / 300m = 3333.3 -> 3333m; percentage 0 = unset */
  assert_true (fs_hvpa_scaled_limit (FS_HVPA_CPU, 2000, 300, 500, &zero, &limit));
  assert_int_equal (limit, 3333);
  /* memory: 450M * 500001000 / 300M = 750001500 bytes -> up to kB 750002000 */
  assert_true (fs_hvpa_scaled_limit (FS_HVPA_MEMORY, 450000000, 300000000, 500001000, NULL,
                                     &limit));
  assert_int_equal (limit, 750002000);
  /* gap: max(500m + 1, 500m + 80 %) = 1500m; percentage only: 750m */
  assert_true (fs_hvpa_scaled_limit (FS_HVPA_CPU, 2000, 300, 500, &cpu_gap, &limit));
  assert_int_equal (limit, 1500);
  assert_true (fs_hvpa_scaled_limit (FS_HVPA_CPU, 2000, 300, 500, &half, &limit));
  assert_int_equal (limit, 750);
  assert_true (fs_hvpa_scaled_limit (FS_HVPA_MEMORY, 5000000000, 200000000, 1320000000,
                                     &mem_value, &limit));
  assert_int_equal (limit, 2320000000);
  /* request equal to limit, or unset: limit = new request; no limit: none */
  assert_true (fs_hvpa_scaled_limit (FS_HVPA_MEMORY, 500000000, 500000000, 340000000, NULL,
                                     &limit));
  assert_int_equal (limit, 340000000);
  assert_true (fs_hvpa_scaled_limit (FS_HVPA_CPU, 1000, 0, 200, &cpu_gap, &limit));
  assert_int_equal (limit, 200);
  limit = -1;
  assert_false (fs_hvpa_scaled_limit (FS_HVPA_CPU, 0, 300, 500, NULL, &limit));
  assert_int_equal (limit, -1);
  /* overflow caps at int64 */
  assert_true (fs_hvpa_scaled_limit (FS_HVPA_CPU, INT64_MAX / 2, 1, 1000, NULL, &limit));
  assert_int_equal (limit, INT64_MAX);
}

/* ---- maintenance window (utils/timewindow.go) -------------------------------------------- */

static void
test_hvpa_maintenance_window (void **state)
{
  gboolean in = FALSE;
  /* 22:00-23:00 at +0100 = 21:00-22:00 UTC, both ends inclusive */
  assert_true (fs_hvpa_maintenance_window_contains ("220000+0100", "230000+0100",
                                                    DAY0 + 21 * HOUR + 30 * MINUTE, &in));
  assert_true (in);
  assert_true (fs_hvpa_maintenance_window_contains ("220000+0100", "230000+0100",
                                                    DAY0 + 22 * HOUR + 999, &in));
  assert_true (in);
  assert_true (fs_hvpa_maintenance_window_contains ("220000+0100", "230000+0100",
                                                    DAY0 + 22 * HOUR + SEC, &in));
  assert_false (in);
  assert_true (fs_hvpa_maintenance_window_contains ("220000+0100", "230000+0100",
                                                    DAY0 + 21 * HOUR - SEC, &in));
  assert_false (in);
  /* wrapping past midnight */
  assert_true (fs_hvpa_maintenance_window_contains ("230000-0000", "010000-0000",
                                                    DAY0 + 30 * MINUTE, &in));
  assert_true (in);
  assert_true (fs_hvpa_maintenance_window_contains ("230000-0000", "010000-0000",
                                                    DAY0 + 23 * HOUR, &in));
  assert_true (in);
  assert_true (fs_hvpa_maintenance_window_contains ("230000-0000", "010000-0000",
                                                    DAY0 + 12 * HOUR, &in));
  assert_false (in);
  /* the sample's 220000-0000 .. 230000-0000 */
  assert_true (fs_hvpa_maintenance_window_contains ("220000-0000", "230000-0000",
                                                    DAY0 + 22 * HOUR + 5 * MINUTE, &in));
  assert_true (in);
  assert_false (fs_hvpa_maintenance_window_contains ("2200+0100", "230000+0100", DAY0, &in));
  assert_false (fs_hvpa_maintenance_window_contains ("240000+0000", "230000+0000", DAY0, &in));
  assert_false (fs_hvpa_maintenance_window_contains ("220000", "230000+0000", DAY0, &in));
}

/* ---- hvpa stage (getVpaWeightFromIntervals) ------------------------------------------ */

static void
test_hvpa_stage_weight_100 (void **state)
{
  const FsHvpaInterval iv[] = { { 0, 1, 2 }, { 100, 3, 4 }, { 50, 5, 6 } };
  const FsHvpaInterval first[] = { { 100, 1, 3 }, { 40, 4, 10 } };
  const FsHvpaInterval last[] = { { 30, 1, 3 }, { 100, 4, 10 } };
  const FsHvpaInterval overlap[] = { { 0, 1, 2 }, { 60, 3, 7 }, { 0, 7, 10 } };
  FsHvpaSpec spec = seed_spec (iv, 3);
  int stage;
  assert_true (fs_hvpa_stage_weight (&spec, H, 3, 4, &stage) == 0.5); /* look-ahead */
  assert_int_equal (stage, 1);
  assert_true (fs_hvpa_stage_weight (&spec, H, 3, 2, &stage) == 0.0); /* look-back */
  assert_true (fs_hvpa_stage_weight (&spec, H, 3, 3, &stage) == 1.0);
  assert_true (fs_hvpa_stage_weight (&spec, D, 3, 4, &stage) == 1.0); /* design: no rule */
  assert_true (fs_hvpa_stage_weight (&spec, H, 8, 9, &stage) == 0.0); /* uncovered */
  assert_int_equal (stage, -1);
  spec = seed_spec (first, 2);
  assert_true (fs_hvpa_stage_weight (&spec, H, 2, 1, NULL) == 1.0); /* nothing earlier */
  assert_true (fs_hvpa_stage_weight (&spec, H, 2, 3, NULL) == 0.4);
  spec = seed_spec (last, 2);
  assert_true (fs_hvpa_stage_weight (&spec, H, 5, 6, NULL) == 1.0); /* nothing later */
  assert_true (fs_hvpa_stage_weight (&spec, H, 5, 4, NULL) == 0.3);
  spec = seed_spec (overlap, 3);
  assert_true (fs_hvpa_stage_weight (&spec, H, 7, 8, &stage) == 0.6);
  assert_int_equal (stage, 1);
}

/* ---- hvpa_controller_test.go ##ScaleTestScenarios ------------------------------------------ */

/* suite_test.go newHvpa: min 1, max 3, 3m stabilization everywhere, modes Auto, hpa deployed,
 * annotation hpa-controller: hvpa, never scaled; hvpa_controller_test.go minChange {100m,
 * 80 %} / {100M, 80 %}.  Upstream passes the vpaWeight straight to getWeightedRequests; one
 * interval covering every count carries it here. */
typedef struct {
  FsHvpaInterval interval;
  FsHvpaContainer container;
  FsHvpaVpaCondition conditions[2];
  FsHvpaInput in;
  FsHvpaContainerResult res;
  FsHvpaOutput out;
} Upstream;

static void
upstream_setup (Upstream *u, int32_t current, int32_t desired, gboolean limited,
                int64_t target_mem, int64_t target_cpu, int32_t weight)
{
  FsHvpaSpec *spec = &u->in.spec;
  memset (u, 0, sizeof *u);
  u->interval.vpa_weight = weight;
  spec->intervals = &u->interval;
  spec->n_intervals = 1;
  spec->min_replicas = 1;
  spec->max_replicas = 3;
  spec->hpa_deploy = TRUE;
  spec->hpa_controller_annotation = TRUE;
  FsHvpaScaleType *types[] = { &spec->hpa_scale_up, &spec->hpa_scale_down, &spec->vpa_scale_up,
                               &spec->vpa_scale_down };
  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    {
      types[i]->update_mode = FS_HVPA_MODE_AUTO;
      types[i]->stabilization_ms = 3 * MINUTE;
      types[i]->min_change[FS_HVPA_CPU] = change_params (TRUE, 100, TRUE, 80);
      types[i]->min_change[FS_HVPA_MEMORY] = change_params (TRUE, 100000000, TRUE, 80);
    }
  /* target "unscaled": requests 300m / 200M, limits 2 / 5G, 2 replicas */
  u->container.name = "deployment";
  u->container.request[FS_HVPA_CPU] = 300;
  u->container.request[FS_HVPA_MEMORY] = 200000000;
  u->container.limit[FS_HVPA_CPU] = 2000;
  u->container.limit[FS_HVPA_MEMORY] = 5000000000;
  u->container.has_recommendation = TRUE;
  u->container.target[FS_HVPA_CPU] = target_cpu;
  u->container.target[FS_HVPA_MEMORY] = target_mem;
  /* newVpaStatus: RecommendationProvided True */
  u->conditions[0].type = FS_HVPA_VPA_RECOMMENDATION_PROVIDED;
  u->conditions[0].status = TRUE;
  u->in.vpa_conditions = u->conditions;
  u->in.n_vpa_conditions = 1;
  u->in.has_vpa_recommendation = TRUE;
  u->in.current_replicas = current;
  u->in.has_hpa_status = TRUE;
  u->in.desired_replicas = desired;
  u->in.hpa_scaling_limited = limited;
  u->in.containers = &u->container;
  u->in.n_containers = 1;
  u->in.now_ms = DAY0 + 12 * HOUR + 30 * MINUTE;
  u->out.containers = &u->res;
}

/* limitScale: cpu {1, 80 %}, memory {1G, 80 %} */
static void
limit_scale (Upstream *u)
{
  u->in.spec.limits_gap[FS_HVPA_CPU] = change_params (TRUE, 1000, TRUE, 80);
  u->in.spec.limits_gap[FS_HVPA_MEMORY] = change_params (TRUE, 1000000000, TRUE, 80);
}

static void
all_modes (Upstream *u, FsHvpaUpdateMode mode)
{
  u->in.spec.hpa_scale_up.update_mode = u->in.spec.hpa_scale_down.update_mode = mode;
  u->in.spec.vpa_scale_up.update_mode = u->in.spec.vpa_scale_down.update_mode = mode;
}

static void
assert_resources (const Upstream *u, int64_t cpu_req, int64_t mem_req, int64_t cpu_lim,
                  int64_t mem_lim)
{
  assert_int_equal (u->res.request[FS_HVPA_CPU], cpu_req);
  assert_int_equal (u->res.request[FS_HVPA_MEMORY], mem_req);
  assert_int_equal (u->res.limit[FS_HVPA_CPU], cpu_lim);
  assert_int_equal (u->res.limit[FS_HVPA_MEMORY], mem_lim);
}

/* resources scaledByWeight40: requests 300m / 1320000k, limits 2 / 2376000k */
static void
test_upstream_auto_scale_only_memory (void **state)
{
  Upstream u;
  const FsHvpaBlockedReason want[] = { FS_HVPA_BLOCKED_MIN_CHANGE };
  upstream_setup (&u, 2, 3, TRUE, 3000000000, 500, 40);
  limit_scale (&u);
  fs_hvpa_decide (&u.in, H, &u.out);
  assert_true (u.out.valid);
  assert_true (u.out.hpa_scale_out_limited);
  assert_true (u.out.changed);
  assert_resources (&u, 300, 1320000000, 2000, 2376000000);
  assert_blocked (&u.out, want, 1);
  assert_int_equal (u.out.replicas, 3);
}

static void
test_upstream_auto_blocked_scaling (void **state)
{
  Upstream u;
  const FsHvpaBlockedReason want[] = { FS_HVPA_BLOCKED_MIN_CHANGE };
  upstream_setup (&u, 2, 3, TRUE, 250000000, 350, 90);
  fs_hvpa_decide (&u.in, H, &u.out);
  assert_false (u.res.changed[FS_HVPA_CPU] || u.res.changed[FS_HVPA_MEMORY]);
  assert_resources (&u, 300, 200000000, 2000, 5000000000);
  assert_blocked (&u.out, want, 1);
  assert_int_equal (u.out.replicas, 3);
}

/* window (now + 3h) .. (now + 4h): outside */
static void
test_upstream_maintenance_window_blocked (void **state)
{
  Upstream u;
  const FsHvpaBlockedReason want[] = { FS_HVPA_BLOCKED_MAINTENANCE_WINDOW };
  upstream_setup (&u, 2, 1, FALSE, 50000000, 50, 90);
  u.in.spec.maintenance_begin = "150000+0000";
  u.in.spec.maintenance_end = "160000+0000";
  all_modes (&u, FS_HVPA_MODE_MAINTENANCE_WINDOW);
  fs_hvpa_decide (&u.in, H, &u.out);
  assert_true (u.out.hpa_scale_out_limited); /* HPA update mode MaintenanceWindow */
  assert_false (u.out.changed);
  assert_resources (&u, 300, 200000000, 2000, 5000000000);
  assert_blocked (&u.out, want, 1);
  assert_true (u.out.blocked[0].vertical && u.out.blocked[0].horizontal);
  assert_int_equal (u.out.weighted_replicas, 1);
  assert_int_equal (u.out.replicas, 2);
}

/* window (now - 1h) .. (now + 1h): inside */
static void
test_upstream_maintenance_window_scale_only_memory (void **state)
{
  Upstream u;
  const FsHvpaBlockedReason want[] = { FS_HVPA_BLOCKED_MIN_CHANGE };
  upstream_setup (&u, 2, 3, TRUE, 3000000000, 200, 40);
  u.in.spec.maintenance_begin = "110000+0000";
  u.in.spec.maintenance_end = "130000+0000";
  all_modes (&u, FS_HVPA_MODE_MAINTENANCE_WINDOW);
  limit_scale (&u);
  fs_hvpa_decide (&u.in, H, &u.out);
  assert_false (u.out.scaling_off);
  assert_resources (&u, 300, 1320000000, 2000, 2376000000);
  assert_blocked (&u.out, want, 1);
  assert_int_equal (u.out.replicas, 3);
}

static void
test_upstream_hpa_not_limited (void **state)
{
  Upstream u;
  const FsHvpaBlockedReason want[] = { FS_HVPA_BLOCKED_UPDATE_POLICY };
  upstream_setup (&u, 2, 3, FALSE, 3000000000, 500, 40);
  fs_hvpa_decide (&u.in, H, &u.out);
  assert_false (u.out.hpa_scale_out_limited);
  assert_resources (&u, 300, 200000000, 2000, 5000000000);
  assert_blocked (&u.out, want, 1);
  assert_int_equal (u.out.replicas, 3);
}

/* proportionalScaled: requests 300m / 1320000k, limits 2 / 33000000k */
static void
test_upstream_proportional (void **state)
{
  Upstream u;
  const FsHvpaBlockedReason want[] = { FS_HVPA_BLOCKED_MIN_CHANGE };
  upstream_setup (&u, 2, 3, TRUE, 3000000000, 500, 40);
  fs_hvpa_decide (&u.in, H, &u.out);
  assert_resources (&u, 300, 1320000000, 2000, 33000000000);
  assert_blocked (&u.out, want, 1);
  assert_int_equal (u.out.replicas, 3);
}

/* limitEquallyScaled: limits memory 340000k; requests memory 340000k, cpu 200m */
static void
test_upstream_requests_equal_limits (void **state)
{
  Upstream u;
  upstream_setup (&u, 2, 3, TRUE, 100000000, 500, 40);
  u.container.request[FS_HVPA_CPU] = 0;
  u.container.limit[FS_HVPA_CPU] = 0;
  u.container.request[FS_HVPA_MEMORY] = 500000000;
  u.container.limit[FS_HVPA_MEMORY] = 500000000;
  fs_hvpa_decide (&u.in, H, &u.out);
  assert_resources (&u, 200, 340000000, 0, 340000000);
  assert_int_equal (u.out.n_blocked, 0);
  assert_int_equal (u.out.replicas, 3);
}

/* requestsCappedToLimit: RequestsOnly, 500M -> 800M target capped at the fixed 600M limit */
static void
test_upstream_requests_only_capped (void **state)
{
  Upstream u;
  upstream_setup (&u, 3, 3, TRUE, 800000000, 500, 100);
  u.container.request[FS_HVPA_CPU] = 0;
  u.container.limit[FS_HVPA_CPU] = 0;
  u.container.request[FS_HVPA_MEMORY] = 500000000;
  u.container.limit[FS_HVPA_MEMORY] = 600000000;
  u.container.requests_only = TRUE;
  fs_hvpa_decide (&u.in, H, &u.out);
  assert_resources (&u, 500, 600000000, 0, 600000000);
  assert_int_equal (u.out.n_blocked, 0);
  assert_int_equal (u.out.replicas, 3);
}

static void
test_upstream_vpa_unsupported_condition (void **state)
{
  Upstream u;
  upstream_setup (&u, 2, 3, TRUE, 3000000000, 500, 40);
  u.conditions[1] = u.conditions[0];
  u.conditions[0].type = FS_HVPA_VPA_CONFIG_UNSUPPORTED;
  u.conditions[0].status = TRUE;
  u.in.n_vpa_conditions = 2;
  fs_hvpa_decide (&u.in, H, &u.out);
  assert_resources (&u, 300, 200000000, 2000, 5000000000);
  assert_int_equal (u.out.n_blocked, 0);
  assert_int_equal (u.out.replicas, 3);
}

/* ---- hvpa: rules of hvpa.md with hand-computed numbers -------------------------------------- */

/* Memory rounded up to kB and the 200m / 200M defaults (no minChange set). */
static void
test_hvpa_kb_and_default_min_change (void **state)
{
  Upstream u;
  upstream_setup (&u, 3, 3, TRUE, 400000001, 500, 100);
  u.in.spec.vpa_scale_up.min_change[FS_HVPA_CPU] = change_params (FALSE, 0, FALSE, 0);
  u.in.spec.vpa_scale_up.min_change[FS_HVPA_MEMORY] = change_params (FALSE, 0, FALSE, 0);
  /* memory +200000001 >= 200M: 400000001 -> 400001000; cpu +200m = 200m passes */
  fs_hvpa_decide (&u.in, H, &u.out);
  assert_int_equal (u.res.request[FS_HVPA_MEMORY], 400001000);
  assert_int_equal (u.res.request[FS_HVPA_CPU], 500);
  /* limits proportional: 5G * 400001000 / 200M = 10000025000; 2000m * 500 / 300 = 3333m */
  assert_int_equal (u.res.limit[FS_HVPA_MEMORY], 10000025000);
  assert_int_equal (u.res.limit[FS_HVPA_CPU], 3333);
  assert_int_equal (u.out.n_blocked, 0);

  /* one byte / one millicore less: both MinChange */
  u.container.target[FS_HVPA_MEMORY] = 399999999;
  u.container.target[FS_HVPA_CPU] = 499;
  fs_hvpa_decide (&u.in, H, &u.out);
  assert_resources (&u, 300, 200000000, 2000, 5000000000);
  assert_int_equal (u.out.n_blocked, 1);
  assert_int_equal (u.out.blocked[0].reason, FS_HVPA_BLOCKED_MIN_CHANGE);
}

/* Vertical scale-up only while the HPA is limited; weight 0 at max never grows (Weight);
 * update mode Off (UpdatePolicy); stabilization 3m (elapsed 2m blocks, 3m passes). */
static void
test_hvpa_gates (void **state)
{
  Upstream u;
  const FsHvpaBlockedReason weight[] = { FS_HVPA_BLOCKED_WEIGHT };
  const FsHvpaBlockedReason policy[] = { FS_HVPA_BLOCKED_UPDATE_POLICY };
  const FsHvpaBlockedReason stab[] = { FS_HVPA_BLOCKED_STABILIZATION_WINDOW };
  upstream_setup (&u, 3, 3, TRUE, 3000000000, 500, 0);
  fs_hvpa_decide (&u.in, H, &u.out);
  assert_blocked (&u.out, weight, 1);
  assert_false (u.out.changed);

  upstream_setup (&u, 3, 3, TRUE, 3000000000, 500, 60);
  u.in.spec.vpa_scale_up.update_mode = FS_HVPA_MODE_OFF;
  fs_hvpa_decide (&u.in, H, &u.out);
  assert_blocked (&u.out, policy, 1);

  upstream_setup (&u, 3, 3, TRUE, 3000000000, 500, 60);
  u.in.has_last_scale_time = TRUE;
  u.in.last_scale_time_ms = u.in.now_ms - 2 * MINUTE;
  fs_hvpa_decide (&u.in, H, &u.out);
  assert_blocked (&u.out, stab, 1);
  u.in.last_scale_time_ms = u.in.now_ms - 3 * MINUTE;
  fs_hvpa_decide (&u.in, H, &u.out);
  /* 200M + 60 % of 2.8G = 1880M; cpu 300 + 60 % of 200 = 420m */
  assert_resources (&u, 420, 1880000000, 2800, 47000000000);
  assert_int_equal (u.out.n_blocked, 0);

  /* below max in a fractional stage only the scale-down happens */
  upstream_setup (&u, 2, 2, FALSE, 3000000000, 100, 60);
  fs_hvpa_decide (&u.in, H, &u.out);
  assert_int_equal (u.res.request[FS_HVPA_CPU], 180);      /* 300 - 60 % of 200 */
  assert_int_equal (u.res.request[FS_HVPA_MEMORY], 200000000);
  assert_blocked (&u.out, policy, 1);

  /* hpa deploy: false counts as limited; replicas are left alone */
  upstream_setup (&u, 2, 3, FALSE, 3000000000, 500, 40);
  u.in.spec.hpa_deploy = FALSE;
  limit_scale (&u);
  fs_hvpa_decide (&u.in, H, &u.out);
  assert_true (u.out.hpa_scale_out_limited);
  assert_int_equal (u.res.request[FS_HVPA_MEMORY], 1320000000);
  assert_int_equal (u.out.replicas, 2);
}

/* Vertical scale-down under MaintenanceWindow mode: outside blocks, inside applies; the
 * hpa scale-up in MaintenanceWindow mode outside the window counts as limited. */
static void
test_hvpa_maintenance_window_mode (void **state)
{
  Upstream u;
  const FsHvpaBlockedReason mw[] = { FS_HVPA_BLOCKED_MAINTENANCE_WINDOW };
  upstream_setup (&u, 2, 2, FALSE, 100000000, 300, 50);
  u.in.spec.vpa_scale_down.update_mode = FS_HVPA_MODE_MAINTENANCE_WINDOW;
  u.in.spec.maintenance_begin = "220000+0100";
  u.in.spec.maintenance_end = "230000+0100";
  u.in.now_ms = DAY0 + 20 * HOUR;
  u.in.spec.vpa_scale_down.min_change[FS_HVPA_MEMORY] = change_params (FALSE, 0, TRUE, 0);
  fs_hvpa_decide (&u.in, H, &u.out);
  assert_blocked (&u.out, mw, 1);
  assert_int_equal (u.res.request[FS_HVPA_MEMORY], 200000000);
  u.in.now_ms = DAY0 + 21 * HOUR + 15 * MINUTE;
  fs_hvpa_decide (&u.in, H, &u.out);
  assert_int_equal (u.out.n_blocked, 0);
  assert_int_equal (u.res.request[FS_HVPA_MEMORY], 150000000);
  assert_int_equal (u.res.limit[FS_HVPA_MEMORY], 3750000000); /* 5G * 150M / 200M */
  /* no window at all: the vpa MaintenanceWindow mode always blocks */
  u.in.spec.maintenance_begin = u.in.spec.maintenance_end = NULL;
  fs_hvpa_decide (&u.in, H, &u.out);
  assert_blocked (&u.out, mw, 1);

  /* HPA scaleUp MaintenanceWindow, outside: limited, and the scale-out is blocked */
  upstream_setup (&u, 2, 3, FALSE, 3000000000, 500, 40);
  u.in.spec.hpa_scale_up.update_mode = FS_HVPA_MODE_MAINTENANCE_WINDOW;
  u.in.spec.maintenance_begin = "220000+0100";
  u.in.spec.maintenance_end = "230000+0100";
  u.in.has_last_scale_time = TRUE;
  u.in.last_scale_time_ms = u.in.now_ms - MINUTE; /* MaintenanceWindow is checked first */
  fs_hvpa_decide (&u.in, H, &u.out);
  assert_true (u.out.hpa_scale_out_limited);
  assert_int_equal (u.out.replicas, 2);
  assert_int_equal (u.out.n_blocked, 2);
  assert_int_equal (u.out.blocked[0].reason, FS_HVPA_BLOCKED_STABILIZATION_WINDOW);
  assert_int_equal (u.out.blocked[1].reason, FS_HVPA_BLOCKED_MAINTENANCE_WINDOW);
  assert_true (u.out.blocked[1].horizontal && !u.out.blocked[1].vertical);
}

/* isScalingOff reads hpa.scaleUp and vpa.scaleUp (twice each): with both Off an allowed
 * vertical scale-down is computed but not written. */
static void
test_hvpa_scaling_off (void **state)
{
  Upstream u;
  upstream_setup (&u, 2, 2, FALSE, 100000000, 300, 50);
  u.in.spec.vpa_scale_down.min_change[FS_HVPA_MEMORY] = change_params (FALSE, 0, TRUE, 0);
  u.in.spec.hpa_scale_up.update_mode = FS_HVPA_MODE_OFF;
  u.in.spec.vpa_scale_up.update_mode = FS_HVPA_MODE_OFF;
  fs_hvpa_decide (&u.in, H, &u.out);
  assert_true (u.out.scaling_off);
  assert_false (u.out.changed);
  assert_int_equal (u.res.weighted_request[FS_HVPA_MEMORY], 150000000);
  assert_int_equal (u.res.request[FS_HVPA_MEMORY], 200000000);
  assert_int_equal (u.res.limit[FS_HVPA_MEMORY], 5000000000);
  u.in.spec.vpa_scale_up.update_mode = FS_HVPA_MODE_AUTO;
  fs_hvpa_decide (&u.in, H, &u.out);
  assert_false (u.out.scaling_off);
  assert_int_equal (u.res.request[FS_HVPA_MEMORY], 150000000);
}

/* OOM override: HPA counted as limited, weight 0 -> 1 %, scale-up stabilization and
 * minChange skipped, horizontal stabilization skipped. */
static void
test_hvpa_override (void **state)
{
  Upstream u;
  upstream_setup (&u, 2, 2, FALSE, 200000000, 1300, 0);
  u.container.request[FS_HVPA_CPU] = 1000;
  u.in.override_scale_up_stabilization = TRUE;
  u.in.has_last_scale_time = TRUE;
  u.in.last_scale_time_ms = u.in.now_ms - MINUTE;
  fs_hvpa_decide (&u.in, H, &u.out);
  assert_true (u.out.hpa_scale_out_limited);
  assert_true (u.out.stage_weight == 0.0);
  assert_true (u.out.vertical_weight == 0.01);
  assert_int_equal (u.res.request[FS_HVPA_CPU], 1003);   /* 1 % of 300m */
  assert_int_equal (u.out.n_blocked, 0);

  upstream_setup (&u, 2, 3, FALSE, 200000000, 300, 50);
  u.in.override_scale_up_stabilization = TRUE;
  u.in.has_last_scale_time = TRUE;
  u.in.last_scale_time_ms = u.in.now_ms - MINUTE;
  fs_hvpa_decide (&u.in, H, &u.out);
  assert_int_equal (u.out.replicas, 3);
  u.in.override_scale_up_stabilization = FALSE;
  fs_hvpa_decide (&u.in, H, &u.out);
  assert_int_equal (u.out.replicas, 2);
  assert_int_equal (u.out.blocked[0].reason, FS_HVPA_BLOCKED_STABILIZATION_WINDOW);
}

/* Replicas need the annotation; the weight-100 look-ahead weights the scale-out. */
static void
test_hvpa_replicas (void **state)
{
  Upstream u;
  const FsHvpaInterval iv[] = { { 100, 1, 2 }, { 50, 3, 10 } };
  upstream_setup (&u, 2, 10, FALSE, 200000000, 300, 0);
  u.in.spec.intervals = iv;
  u.in.spec.n_intervals = 2;
  u.in.spec.max_replicas = 10;
  fs_hvpa_decide (&u.in, H, &u.out);
  assert_int_equal (u.out.stage, 0);
  assert_true (u.out.stage_weight == 0.5);
  assert_int_equal (u.out.replicas, 6); /* ceil(2 + 8 * 0.5) */
  u.in.spec.hpa_controller_annotation = FALSE;
  fs_hvpa_decide (&u.in, H, &u.out);
  assert_int_equal (u.out.replicas, 2);
  assert_int_equal (u.out.n_blocked, 0);
  /* design: weight 1 keeps 2 and says why */
  fs_hvpa_decide (&u.in, D, &u.out);
  assert_int_equal (u.out.replicas, 2);
  assert_int_equal (u.out.n_blocked, 1);
  assert_int_equal (u.out.blocked[0].reason, FS_HVPA_BLOCKED_WEIGHT);
  assert_true (u.out.blocked[0].horizontal);
}

/* Validation: the seed's 0.6 is not an integer percent; windows must parse; min >= 1. */
static void
test_validation (void **state)
{
  FsHvpaSpec spec = example1_spec ();
  char error[256];
  const FsHvpaInterval bad[] = { { 120, 1, 2 } };
  assert_true (fs_hvpa_spec_valid (&spec, D, error, sizeof error));
  assert_false (fs_hvpa_spec_valid (&spec, H, error, sizeof error));
  assert_non_null (strstr (error, "integer percent"));
  spec.maintenance_begin = "22:00";
  spec.maintenance_end = "230000+0100";
  assert_true (fs_hvpa_spec_valid (&spec, D, error, sizeof error));
  spec = seed_spec (bad, 1);
  assert_false (fs_hvpa_spec_valid (&spec, D, NULL, 0));
  spec = seed_spec (example3, 2);
  spec.min_replicas = 0;
  assert_false (fs_hvpa_spec_valid (&spec, D, error, sizeof error));

  Upstream u;
  upstream_setup (&u, 2, 3, TRUE, 3000000000, 500, 40);
  u.in.spec.maintenance_begin = "22:00";
  u.in.spec.maintenance_end = "230000+0100";
  fs_hvpa_decide (&u.in, H, &u.out);
  assert_false (u.out.valid);
  assert_int_equal (u.out.replicas, 2);
  assert_resources (&u, 300, 200000000, 2000, 5000000000);
  assert_string_equal (fs_hvpa_blocked_reason_name (FS_HVPA_BLOCKED_MIN_CHANGE), "MinChange");
}

/* timewindow.go Contains: both bounds are inside, to the second (begin <= t <= end; across
 * midnight, not end < t < begin). */
static void
test_hvpa_maintenance_window_edges (void **state)
{
  gboolean in = FALSE;
  /* 22:00-23:00 at +0100 = 21:00-22:00 UTC */
  assert_true (fs_hvpa_maintenance_window_contains ("220000+0100", "230000+0100",
                                                    DAY0 + 21 * HOUR, &in));
  assert_true (in);
  assert_true (fs_hvpa_maintenance_window_contains ("220000+0100", "230000+0100",
                                                    DAY0 + 22 * HOUR, &in));
  assert_true (in);
  /* 23:00-01:00 UTC: at 01:00:00 in, a second later out */
  assert_true (fs_hvpa_maintenance_window_contains ("230000-0000", "010000-0000",
                                                    DAY0 + HOUR, &in));
  assert_true (in);
  assert_true (fs_hvpa_maintenance_window_contains ("230000-0000", "010000-0000",
                                                    DAY0 + HOUR + SEC, &in));
  assert_false (in);
  assert_true (fs_hvpa_maintenance_window_contains ("230000-0000", "010000-0000",
                                                    DAY0 + 23 * HOUR - SEC, &in));
  assert_false (in);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_seed_example1_curve),
    cmocka_unit_test (test_seed_example2_curve),
    cmocka_unit_test (test_seed_example3_curve),
    cmocka_unit_test (test_design_step),
    cmocka_unit_test (test_design_stabilization),
    cmocka_unit_test (test_design_extremes_and_clamp),
    cmocka_unit_test (test_design_percent_vs_fraction),
    cmocka_unit_test (test_design_stage_defaults),
    cmocka_unit_test (test_rounding_replicas),
    cmocka_unit_test (test_rounding_requests),
    cmocka_unit_test (test_min_change),
    cmocka_unit_test (test_hvpa_scaled_limit),
    cmocka_unit_test (test_hvpa_maintenance_window),
    cmocka_unit_test (test_hvpa_stage_weight_100),
    cmocka_unit_test (test_upstream_auto_scale_only_memory),
    cmocka_unit_test (test_upstream_auto_blocked_scaling),
    cmocka_unit_test (test_upstream_maintenance_window_blocked),
    cmocka_unit_test (test_upstream_maintenance_window_scale_only_memory),
    cmocka_unit_test (test_upstream_hpa_not_limited),
    cmocka_unit_test (test_upstream_proportional),
    cmocka_unit_test (test_upstream_requests_equal_limits),
    cmocka_unit_test (test_upstream_requests_only_capped),
    cmocka_unit_test (test_upstream_vpa_unsupported_condition),
    cmocka_unit_test (test_hvpa_kb_and_default_min_change),
    cmocka_unit_test (test_hvpa_gates),
    cmocka_unit_test (test_hvpa_maintenance_window_mode),
    cmocka_unit_test (test_hvpa_scaling_off),
    cmocka_unit_test (test_hvpa_override),
    cmocka_unit_test (test_hvpa_replicas),
    cmocka_unit_test (test_validation),
    cmocka_unit_test (test_hvpa_maintenance_window_edges),
  };
  return cmocka_run_group_tests_name ("hvpa", tests, NULL, NULL);
}
