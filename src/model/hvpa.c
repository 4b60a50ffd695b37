/* fitscale — HVPA weight-based scaling (include/fitscale/hvpa.h).
 *
 * Two semantics.  DESIGN follows the project's seed text on HVPA weight-based scaling
 * ("the seed", docs/hvpa.md) with its gaps filled as the autoscaler-math issue decided.  HVPA follows the
 * released controller gardener/hvpa-controller v0.5.1 .. v0.17.0, controllers/hvpa_controller.go
 * (getVpaWeightFromIntervals, getWeightedReplicas, getWeightedRequests, getThreshold,
 * getScaledLimits, getScaledResourceLimit, scaleQuantityProportionally, capRequestsToLimits,
 * isHpaScaleOutLimited, isScalingOff, isScalingOffByMode) and utils/timewindow.go.
 *
 * Differences between the semantics (DESIGN | HVPA):
 *
 *  1. Weights.  DESIGN: the manifest's numbers are fractions in [0,1] (0.6) unless one of
 *     them exceeds 1, then all are integer percent (60) and divided by 100; anything outside
 *     [0,100] is invalid.  HVPA: always integer percent 0..100 (CRD int32, min 0, max 100);
 *     a fraction such as the seed's 0.6 is invalid (the API server rejects the manifest).
 *     DESIGN arithmetic is exact to 1e-6 of a weight (weights are kept in millionths, so
 *     1 - 0.7 is exactly 0.3: 3 -> 13 at 0.7 gives 6, not the float artefact 7); HVPA
 *     computes replicas in float64 like Go (exact for integer percent).
 *  2. Stage.  Both: chosen by the CURRENT replica count, first listed interval whose
 *     [start, last] contains it (inclusive), start/last 0 = minReplicas/maxReplicas, no
 *     interval = weight 0.  HVPA only: a matched weight of 100 looks back (HPA wants fewer:
 *     the last weight < 100 listed earlier) or ahead (HPA wants more: the first weight < 100
 *     listed later), ignoring those intervals' ranges; DESIGN keeps 1 (pure vertical).
 *  3. Replicas.  Both: ceil(c + (d - c)(1 - w)) up, floor(...) down.  HVPA applies them only
 *     with the annotation hpa-controller: hvpa, an HPA status with desiredReplicas != 0 and
 *     spec.hpa.deploy true (otherwise the replica count is left as is); DESIGN always, and
 *     clamps the result to [minReplicas, maxReplicas].  DESIGN reports Weight when the HPA
 *     wants a change and the weight is 1; HVPA never reports Weight for replicas (with
 *     weight 100 the weighted count equals the current one and nothing is recorded).
 *  4. Requests.  Both: current + trunc((target - current) * w), truncated toward zero.
 *     HVPA then rounds memory up to a whole kB (1000 bytes), even at weight 100, and caps
 *     the request at the (new or existing) limit.  DESIGN clamps the applied value to the
 *     containerPolicy minAllowed/maxAllowed; HVPA never clamps (it trusts the VPA target).
 *     A blocked resource keeps its current request in both.
 *  5. Extremes.  DESIGN: at maxReplicas with the HPA wanting more (desired > current or
 *     ScalingLimited) vertical scaling uses weight 1 (the full target) in both directions,
 *     whatever the stage; symmetrically at minReplicas with the HPA wanting fewer.  HVPA has
 *     no such override; instead EVERY vertical scale-up needs "HPA scale-out limited"
 *     (isHpaScaleOutLimited: hpa scaleUp mode Off or outside its maintenance window, or
 *     desiredReplicas >= maxReplicas with ScalingLimited; plus hpa.deploy false and the
 *     override flag), is still weighted by the stage, and is blocked (UpdatePolicy) otherwise.
 *     Inside a fractional stage below max HVPA therefore only scales down vertically.
 *  6. minChange.  Both: the threshold is min(value, percentage % of the current request),
 *     compared with the weighted change (before kB rounding and capping); equal passes.
 *     DESIGN: unset = no threshold, the percentage is exact.  HVPA: unset (no value and no
 *     percentage) = 200m cpu / 200M (200,000,000 bytes) memory; the cpu percentage is
 *     floored to whole millicores; the override flag skips the scale-up threshold.
 *  7. Stabilization.  Both: blocked while now - lastScaleTime < the direction's duration
 *     (equal passes), never scaled = never blocked, one shared timestamp.  HVPA: the override
 *     flag skips vertical scale-up and both horizontal checks.  DESIGN has no override.
 *  8. Gates only in HVPA: update modes (Auto, Off, MaintenanceWindow) per hpa/vpa direction,
 *     the maintenance window, the weight-0 Weight reason order (Weight, UpdatePolicy,
 *     StabilizationWindow, MaintenanceWindow, MinChange for requests; UpdatePolicy,
 *     MaintenanceWindow, StabilizationWindow for replicas), controlledResources /
 *     controlledValues, VPA conditions (LowConfidence, ConfigUnsupported, ConfigDeprecated,
 *     RecommendationProvided with upstream's scan quirk), isScalingOff (with upstream's
 *     copy-paste bug: only the two scaleUp modes are read), and the OOM override
 *     (overrideScaleUpStabilization: HPA counted as limited, weight 0 becomes 1 percent).
 *     DESIGN order: Weight, StabilizationWindow, MinChange.
 *  9. Limits.  HVPA rescales the limit of a changed resource (getScaledResourceLimit): none
 *     without an original limit; = new request when the original request is unset or equal
 *     to the limit; proportional (truncating milli-unit arithmetic) without gap parameters;
 *     else max(new + value, new + new * p / 100); memory limits rounded up to kB; capped at
 *     int64.  RequestsOnly keeps limits.  DESIGN leaves limits untouched (the seed says
 *     nothing about them), so a design request may exceed its limit.
 * 10. Invalid input.  Both reject min < 1 and max < min; HVPA also an unparsable maintenance
 *     window (validation).  HVPA upstream panics (nil window) when the hpa mode is
 *     MaintenanceWindow and no window is set; here that blocks with MaintenanceWindow.
 *     Reading the Hvpa (both): an updateMode other than Auto, Off, MaintenanceWindow (or "")
 *     and a stabilizationDuration time.ParseDuration refuses are errors naming the field, as
 *     the Hvpa validation (validateScaleType) refuses them.
 * 11. lowerBound/upperBound are read by neither (the released controller ignores them and the
 *     seed does not mention them).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fitscale/model/hvpa.h"
#include "fitscale/model/resources.h"
#include "fitscale/model/selector.h"

#define MICRO INT64_C (1000000)
#define DEFAULT_MIN_CHANGE_CPU INT64_C (200)        /* getThreshold "200m" */
#define DEFAULT_MIN_CHANGE_MEMORY INT64_C (200000000) /* getThreshold "200M" */

static const char *const resource_names[FS_HVPA_N_RESOURCES] = { "cpu", "memory" };

/* fitscale's names for the two semantics (--semantics, the API's "semantics"). */
gboolean
fs_hvpa_semantics_parse (const char *text, FsHvpaSemantics *semantics)
{
  if (text == NULL || strcmp (text, "design") == 0)
    *semantics = FS_HVPA_SEMANTICS_DESIGN;
  else if (strcmp (text, "hvpa") == 0)
    *semantics = FS_HVPA_SEMANTICS_HVPA;
  else
    return FALSE;
  return TRUE;
}

const char *
fs_hvpa_semantics_name (FsHvpaSemantics semantics)
{
  return semantics == FS_HVPA_SEMANTICS_HVPA ? "hvpa" : "design";
}

/* api/v1alpha1 hvpa_types.go BlockingReason values. */
const char *
fs_hvpa_blocked_reason_name (FsHvpaBlockedReason reason)
{
  switch (reason)
    {
    case FS_HVPA_BLOCKED_WEIGHT: return "Weight";
    case FS_HVPA_BLOCKED_UPDATE_POLICY: return "UpdatePolicy";
    case FS_HVPA_BLOCKED_STABILIZATION_WINDOW: return "StabilizationWindow";
    case FS_HVPA_BLOCKED_MAINTENANCE_WINDOW: return "MaintenanceWindow";
    case FS_HVPA_BLOCKED_MIN_CHANGE: return "MinChange";
    case FS_HVPA_BLOCKED_NONE:
    default: return "";
    }
}

/* ---- helpers ------------------------------------------------------------------------- */

static int64_t
clamp_i128 (__int128 v)
{
  if (v > INT64_MAX)
    return INT64_MAX;
  if (v < INT64_MIN)
    return INT64_MIN;
  return (int64_t) v;
}

/* resource.Quantity SetScaled(ScaledValue(resource.Kilo), resource.Kilo): up to whole kB. */
static int64_t
ceil_kb (int64_t bytes)
{
  __int128 b = bytes;
  __int128 r = b >= 0 ? (b + 999) / 1000 * 1000 : -((-b) / 1000 * 1000);
  return clamp_i128 (r);
}

static int64_t
weight_micro (double w)
{
  return (int64_t) llround (w * (double) MICRO);
}

static int32_t
weight_percent (double w)
{
  return (int32_t) lround (w * 100.0);
}

static gboolean
any_weight_above_one (const FsHvpaSpec *spec)
{
  for (guint i = 0; i < spec->n_intervals; i++)
    if (spec->intervals[i].vpa_weight > 1.0)
      return TRUE;
  return FALSE;
}

/* ---- maintenance window (utils/timewindow.go) -------------------------------------------- */

static gboolean
two_digits (const char *s, int *v)
{
  if (s[0] < '0' || s[0] > '9' || s[1] < '0' || s[1] > '9')
    return FALSE;
  *v = (s[0] - '0') * 10 + (s[1] - '0');
  return TRUE;
}

/* ParseMaintenanceTime: time.Parse("150405-0700", value) converted to UTC; the UTC second of
 * the day in *SECONDS.  Go accepts zone offsets up to 24 h / 60 min ("use > rather than >="). */
static gboolean
parse_maintenance_time (const char *value, int *seconds)
{
  int h, m, s, oh, om;
  if (value == NULL || strlen (value) != 11)
    return FALSE;
  if (!two_digits (value, &h) || !two_digits (value + 2, &m) || !two_digits (value + 4, &s))
    return FALSE;
  if (value[6] != '+' && value[6] != '-')
    return FALSE;
  if (!two_digits (value + 7, &oh) || !two_digits (value + 9, &om))
    return FALSE;
  if (h > 23 || m > 59 || s > 59 || oh > 24 || om > 60)
    return FALSE;
  int offset = (oh * 3600 + om * 60) * (value[6] == '-' ? -1 : 1);
  int t = h * 3600 + m * 60 + s - offset;
  t %= 86400;
  if (t < 0)
    t += 86400;
  *seconds = t;
  return TRUE;
}

/* utils/timewindow.go ParseMaintenanceTimeWindow + MaintenanceTimeWindow.Contains. */
gboolean
fs_hvpa_maintenance_window_contains (const char *begin, const char *end, int64_t now_ms,
                                     gboolean *contains)
{
  int b, e;
  if (!parse_maintenance_time (begin, &b) || !parse_maintenance_time (end, &e))
    return FALSE;
  int64_t secs = now_ms >= 0 ? now_ms / 1000 : -((-now_ms + 999) / 1000);
  int64_t t = secs % 86400;
  if (t < 0)
    t += 86400;
  if (contains != NULL)
    {
      if (e < b) /* spansDifferentDays */
        *contains = !(t > e && t < b);
      else
        *contains = t >= b && t <= e;
    }
  return TRUE;
}

/* ---- validation --------------------------------------------------------------------- */

/* internal/api/validation/hvpa.go (min >= 1, max >= min, window parses) plus the CRD's
 * vpaWeight bounds; DESIGN: the seed's weights "between and including 0 and 1" (or percent). */
gboolean
fs_hvpa_spec_valid (const FsHvpaSpec *spec, FsHvpaSemantics semantics, char *error,
                    gsize error_size)
{
  char scratch[8];
  if (error == NULL || error_size == 0)
    {
      error = scratch;
      error_size = sizeof scratch;
    }
  error[0] = '\0';
  if (spec->min_replicas < 1)
    {
      snprintf (error, error_size, "minReplicas %d must be at least 1", spec->min_replicas);
      return FALSE;
    }
  if (spec->max_replicas < spec->min_replicas)
    {
      snprintf (error, error_size, "maxReplicas %d is below minReplicas %d", spec->max_replicas,
                spec->min_replicas);
      return FALSE;
    }
  if (spec->n_intervals > 0 && spec->intervals == NULL)
    {
      snprintf (error, error_size, "%u intervals but no array", spec->n_intervals);
      return FALSE;
    }
  for (guint i = 0; i < spec->n_intervals; i++)
    {
      double w = spec->intervals[i].vpa_weight;
      if (!(w >= 0.0 && w <= 100.0))
        {
          snprintf (error, error_size, "interval %u: vpaWeight %g outside [0, 100]", i, w);
          return FALSE;
        }
      if (semantics == FS_HVPA_SEMANTICS_HVPA && w != floor (w))
        {
          snprintf (error, error_size,
                    "interval %u: vpaWeight %g is not an integer percent (0..100)", i, w);
          return FALSE;
        }
    }
  if (semantics == FS_HVPA_SEMANTICS_HVPA
      && (spec->maintenance_begin != NULL || spec->maintenance_end != NULL)
      && !fs_hvpa_maintenance_window_contains (spec->maintenance_begin, spec->maintenance_end, 0,
                                               NULL))
    {
      snprintf (error, error_size, "maintenanceTimeWindow %s..%s does not parse (HHMMSS+ZONE)",
                spec->maintenance_begin ? spec->maintenance_begin : "(none)",
                spec->maintenance_end ? spec->maintenance_end : "(none)");
      return FALSE;
    }
  return TRUE;
}

/* ---- stage --------------------------------------------------------------------------- */

/* Seed ("weights in [0,1]"; percent when one exceeds 1) / hvpa_types.go VpaWeight (percent). */
double
fs_hvpa_interval_weight (const FsHvpaSpec *spec, FsHvpaSemantics semantics, guint i)
{
  double w = spec->intervals[i].vpa_weight;
  if (semantics == FS_HVPA_SEMANTICS_HVPA || any_weight_above_one (spec))
    return w / 100.0;
  return w;
}

static void interval_bounds (const FsHvpaSpec *spec, guint i, int32_t *start, int32_t *last);

void
fs_hvpa_interval_bounds (const FsHvpaSpec *spec, guint i, int32_t *start, int32_t *last)
{
  interval_bounds (spec, i, start, last);
}

static void
interval_bounds (const FsHvpaSpec *spec, guint i, int32_t *start, int32_t *last)
{
  *start = spec->intervals[i].start_replica_count;
  *last = spec->intervals[i].last_replica_count;
  if (*start == 0)
    *start = spec->min_replicas;
  if (*last == 0)
    *last = spec->max_replicas;
}

/* hvpa_controller.go getVpaWeightFromIntervals, in integer percent. */
static int32_t
hvpa_stage_percent (const FsHvpaSpec *spec, int32_t current, int32_t desired, int *stage)
{
  int32_t weight = 0;
  int32_t last_fraction = 100;
  gboolean lookup_next = FALSE;
  *stage = -1;
  for (guint i = 0; i < spec->n_intervals; i++)
    {
      int32_t w = (int32_t) lround (spec->intervals[i].vpa_weight);
      if (lookup_next)
        {
          if (w < 100)
            {
              weight = w;
              break;
            }
          continue;
        }
      int32_t start, last;
      interval_bounds (spec, i, &start, &last);
      if (w < 100)
        last_fraction = w;
      if (current >= start && current <= last)
        {
          *stage = (int) i;
          weight = w;
          if (weight == 100)
            {
              if (desired < current)
                weight = last_fraction;
              else if (desired > current)
                {
                  lookup_next = TRUE;
                  continue;
                }
            }
          break;
        }
    }
  return weight;
}

/* Seed: "stages depending on number of replicas", first listed interval containing CURRENT;
 * hvpa: getVpaWeightFromIntervals (with the weight-100 look-back/look-ahead). */
double
fs_hvpa_stage_weight (const FsHvpaSpec *spec, FsHvpaSemantics semantics, int32_t current,
                      int32_t desired, int *stage)
{
  int dummy;
  if (stage == NULL)
    stage = &dummy;
  if (semantics == FS_HVPA_SEMANTICS_HVPA)
    return hvpa_stage_percent (spec, current, desired, stage) / 100.0;
  *stage = -1;
  for (guint i = 0; i < spec->n_intervals; i++)
    {
      int32_t start, last;
      interval_bounds (spec, i, &start, &last);
      if (current >= start && current <= last)
        {
          *stage = (int) i;
          return fs_hvpa_interval_weight (spec, semantics, i);
        }
    }
  return 0.0;
}

/* ---- replicas and requests ------------------------------------------------------------- */

/* Seed "According to HPA, new number of replicas" (exact, weights in millionths);
 * hvpa getWeightedReplicas (float64 as Go, hpaWeight = 100 - vpaWeight). */
int32_t
fs_hvpa_weighted_replicas (FsHvpaSemantics semantics, int32_t current, int32_t desired,
                           double vpa_weight)
{
  if (desired == current)
    return current;
  if (semantics == FS_HVPA_SEMANTICS_HVPA)
    {
      int32_t hpa_weight = 100 - weight_percent (vpa_weight);
      double x = (double) current + (double) (desired - current) * (double) hpa_weight / 100.0;
      return (int32_t) (desired > current ? ceil (x) : floor (x));
    }
  int64_t num = (int64_t) (desired - current) * (MICRO - weight_micro (vpa_weight));
  /* up: num >= 0, ceil; down: num <= 0, floor */
  int64_t step = desired > current ? (num + MICRO - 1) / MICRO : -((-num + MICRO - 1) / MICRO);
  return (int32_t) (current + step);
}

static int64_t
weighted_change (FsHvpaSemantics semantics, int64_t current, int64_t target, double vpa_weight)
{
  __int128 gap = (__int128) target - current;
  if (semantics == FS_HVPA_SEMANTICS_HVPA)
    return clamp_i128 (gap * weight_percent (vpa_weight) / 100);
  return clamp_i128 (gap * weight_micro (vpa_weight) / MICRO);
}

/* Seed "According to VPA, new requests will be currentRequest + (targetRequest -
 * currentRequest) * vpaWeight", the change truncated toward zero; hvpa getWeightedRequests
 * (diff = (T - C) * vpaWeight / 100, memory SetScaled(ScaledValue(Kilo), Kilo)). */
int64_t
fs_hvpa_weighted_request (FsHvpaSemantics semantics, FsHvpaResource resource, int64_t current,
                          int64_t target, double vpa_weight)
{
  int64_t v = clamp_i128 ((__int128) current
                          + weighted_change (semantics, current, target, vpa_weight));
  if (semantics == FS_HVPA_SEMANTICS_HVPA && resource == FS_HVPA_MEMORY)
    v = ceil_kb (v);
  return v;
}

/* Seed minCpuChange/minMemChange {value, percentage} (smaller wins, unset = none);
 * hvpa getThreshold and the `Cmp(threshold) < 0` checks of getWeightedRequests. */
gboolean
fs_hvpa_min_change_passes (FsHvpaSemantics semantics, FsHvpaResource resource,
                           const FsHvpaChangeParams *params, int64_t current, int64_t change)
{
  __int128 abs_change = change < 0 ? -(__int128) change : (__int128) change;
  gboolean has_value = params != NULL && params->has_value;
  gboolean has_percentage = params != NULL && params->has_percentage;
  if (!has_value && !has_percentage)
    {
      if (semantics == FS_HVPA_SEMANTICS_DESIGN)
        return TRUE;
      int64_t def = resource == FS_HVPA_MEMORY ? DEFAULT_MIN_CHANGE_MEMORY : DEFAULT_MIN_CHANGE_CPU;
      return abs_change >= def;
    }
  /* |change| < min(a, b)  <=>  |change| < a && |change| < b */
  gboolean below_value = !has_value || abs_change < params->value;
  gboolean below_percentage = TRUE;
  if (has_percentage)
    {
      __int128 p = params->percentage;
      if (semantics == FS_HVPA_SEMANTICS_HVPA && resource == FS_HVPA_CPU)
        /* currentVal.ScaledValue(-3) * percentage / 100: whole millicores */
        below_percentage = abs_change < (__int128) current * p / 100;
      else
        /* exact (hvpa memory: a milli-byte threshold, C * 1000 * p / 100 = C * 10 * p) */
        below_percentage = abs_change * 100 < (__int128) current * p;
    }
  return !(below_value && below_percentage);
}

/* hvpa getScaledResourceLimit + scaleQuantityProportionally + the kB rounding of memory
 * limits in getScaledLimits.  Milli-units: cpu millicores, memory bytes * 1000. */
gboolean
fs_hvpa_scaled_limit (FsHvpaResource resource, int64_t original_limit, int64_t original_request,
                      int64_t new_request, const FsHvpaChangeParams *gap, int64_t *limit)
{
  __int128 to_milli = resource == FS_HVPA_MEMORY ? 1000 : 1;
  __int128 result_milli;
  if (original_limit == 0)
    return FALSE;
  if (original_request == 0 || original_request == original_limit)
    result_milli = (__int128) new_request * to_milli;
  else
    {
      gboolean has_percentage = gap != NULL && gap->has_percentage && gap->percentage != 0;
      gboolean has_value = gap != NULL && gap->has_value;
      __int128 new_milli = (__int128) new_request * to_milli;
      if (!has_value && !has_percentage)
        result_milli = (__int128) original_limit * to_milli * new_milli
                       / ((__int128) original_request * to_milli);
      else
        {
          __int128 by_percentage = 0, by_value = 0;
          if (has_percentage)
            by_percentage = new_milli * gap->percentage / 100 + new_milli;
          if (has_value)
            by_value = new_milli + (__int128) gap->value * to_milli;
          result_milli = by_value > by_percentage ? by_value : by_percentage;
        }
      if (result_milli > INT64_MAX)
        result_milli = INT64_MAX; /* "capping limit to int64" */
    }
  if (resource == FS_HVPA_MEMORY)
    {
      /* NewMilliQuantity then ScaledValue(Kilo): up to whole kB */
      __int128 kb = result_milli >= 0 ? (result_milli + 999999) / 1000000
                                      : -((-result_milli) / 1000000);
      *limit = clamp_i128 (kb * 1000);
    }
  else
    *limit = clamp_i128 (result_milli);
  return TRUE;
}

/* ---- curve ----------------------------------------------------------------------------- */

/* Seed "Resource request vs number of replicas curve" (Examples 1-3). */
guint
fs_hvpa_curve (const FsHvpaSpec *spec, FsHvpaSemantics semantics, FsHvpaResource resource,
               int64_t current, int64_t target, int direction, int32_t from, int32_t to,
               FsHvpaCurvePoint *points)
{
  guint n = 0;
  if (to < from)
    return 0;
  for (int64_t r = from; r <= to; r++)
    {
      FsHvpaCurvePoint *p = &points[n++];
      int32_t replicas = (int32_t) r;
      int32_t desired = replicas + (direction > 0 ? 1 : direction < 0 ? -1 : 0);
      p->replicas = replicas;
      p->weight = fs_hvpa_stage_weight (spec, semantics, replicas, desired, &p->stage);
      if (semantics == FS_HVPA_SEMANTICS_DESIGN
          && ((direction > 0 && replicas >= spec->max_replicas)
              || (direction < 0 && replicas <= spec->min_replicas)))
        p->weight = 1.0;
      p->request = fs_hvpa_weighted_request (semantics, resource, current, target, p->weight);
    }
  return n;
}

/* ---- blocked reasons --------------------------------------------------------------------- */

typedef struct {
  gboolean hit[FS_HVPA_BLOCKED_MIN_CHANGE + 1];
  char text[FS_HVPA_BLOCKED_MIN_CHANGE + 1][256];
} VerticalBlocks;

static void
note_vertical (VerticalBlocks *vb, FsHvpaBlockedReason reason, const char *container,
               FsHvpaResource resource, int64_t current, int64_t weighted)
{
  char item[128], from[32], to[32];
  /* the amounts as quantities ("100m -> 160m"): a bare 100 would read as 100 cpus */
  snprintf (item, sizeof item, "%s%s/%s %s -> %s", vb->hit[reason] ? "; " : "", container ? container : "",
            resource_names[resource], fs_format_amount (resource_names[resource], current, from),
            fs_format_amount (resource_names[resource], weighted, to));
  vb->hit[reason] = TRUE;
  g_strlcat (vb->text[reason], item, sizeof vb->text[reason]);
}

/* getWeightedRequests: one entry per reason, in the order Weight, UpdatePolicy,
 * StabilizationWindow, MaintenanceWindow, MinChange. */
static void
flush_vertical (const VerticalBlocks *vb, FsHvpaOutput *out)
{
  for (int r = FS_HVPA_BLOCKED_WEIGHT; r <= FS_HVPA_BLOCKED_MIN_CHANGE; r++)
    {
      if (!vb->hit[r] || out->n_blocked >= FS_HVPA_MAX_BLOCKED)
        continue;
      FsHvpaBlocked *b = &out->blocked[out->n_blocked++];
      b->reason = (FsHvpaBlockedReason) r;
      b->vertical = TRUE;
      g_strlcpy (b->message, vb->text[r], sizeof b->message);
    }
}

/* getWeightedReplicas: joins the entry with the same reason, else appends one. */
static void
note_horizontal (FsHvpaOutput *out, FsHvpaBlockedReason reason, int32_t current, int32_t weighted)
{
  char item[96];
  FsHvpaBlocked *b = NULL;
  for (guint i = 0; i < out->n_blocked; i++)
    if (out->blocked[i].reason == reason)
      b = &out->blocked[i];
  if (b == NULL)
    {
      if (out->n_blocked >= FS_HVPA_MAX_BLOCKED)
        return;
      b = &out->blocked[out->n_blocked++];
      b->reason = reason;
    }
  snprintf (item, sizeof item, "%sreplicas %d -> %d", b->message[0] ? "; " : "", current,
            weighted);
  b->horizontal = TRUE;
  g_strlcat (b->message, item, sizeof b->message);
}

/* ---- one step: design ------------------------------------------------------------------ */

static int64_t
elapsed_ms (const FsHvpaInput *in)
{
  if (!in->has_last_scale_time)
    return INT64_MAX;
  return clamp_i128 ((__int128) in->now_ms - in->last_scale_time_ms);
}

/* Seed: stages, replicas, requests, "vertical scaling will be done unconditionally" at
 * maxReplicas (and the symmetric minReplicas case), minCpuChange/minMemChange, the two
 * stabilization windows, the VPA containerPolicy bounds. */
static void
decide_design (const FsHvpaInput *in, FsHvpaOutput *out)
{
  const FsHvpaSpec *spec = &in->spec;
  int32_t c = in->current_replicas;
  int32_t d = in->has_hpa_status ? in->desired_replicas : c;
  int64_t elapsed = elapsed_ms (in);
  double w = fs_hvpa_stage_weight (spec, FS_HVPA_SEMANTICS_DESIGN, c, d, &out->stage);
  gboolean at_max = in->has_hpa_status && c >= spec->max_replicas
                    && (d > c || in->hpa_scaling_limited);
  gboolean at_min = in->has_hpa_status && c <= spec->min_replicas
                    && (d < c || in->hpa_scaling_limited);
  double vw = at_max || at_min ? 1.0 : w;
  VerticalBlocks vb;

  memset (&vb, 0, sizeof vb);
  out->stage_weight = w;
  out->vertical_weight = vw;
  out->hpa_scale_out_limited = at_max;

  for (guint k = 0; in->has_vpa_recommendation && k < in->n_containers; k++)
    {
      const FsHvpaContainer *ct = &in->containers[k];
      FsHvpaContainerResult *res = &out->containers[k];
      if (!ct->has_recommendation)
        continue;
      for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
        {
          int64_t cur = ct->request[r];
          int64_t change = weighted_change (FS_HVPA_SEMANTICS_DESIGN, cur, ct->target[r], vw);
          int64_t weighted = clamp_i128 ((__int128) cur + change);
          FsHvpaBlockedReason why = FS_HVPA_BLOCKED_NONE;
          res->weighted_request[r] = weighted;
          res->change[r] = change;
          if (ct->target[r] == cur)
            continue;
          if (weight_micro (vw) == 0)
            why = FS_HVPA_BLOCKED_WEIGHT;
          else if (change == 0)
            continue;
          else if (elapsed < (change > 0 ? spec->vpa_scale_up.stabilization_ms
                                         : spec->vpa_scale_down.stabilization_ms))
            why = FS_HVPA_BLOCKED_STABILIZATION_WINDOW;
          else if (!fs_hvpa_min_change_passes (FS_HVPA_SEMANTICS_DESIGN, (FsHvpaResource) r,
                                               change > 0 ? &spec->vpa_scale_up.min_change[r]
                                                          : &spec->vpa_scale_down.min_change[r],
                                               cur, change))
            why = FS_HVPA_BLOCKED_MIN_CHANGE;
          if (why != FS_HVPA_BLOCKED_NONE)
            {
              res->blocked[r] = why;
              note_vertical (&vb, why, ct->name, (FsHvpaResource) r, cur, weighted);
              continue;
            }
          if (ct->has_max_allowed[r] && weighted > ct->max_allowed[r])
            weighted = ct->max_allowed[r];
          if (ct->has_min_allowed[r] && weighted < ct->min_allowed[r])
            weighted = ct->min_allowed[r];
          if (weighted != cur)
            {
              res->request[r] = weighted;
              res->changed[r] = TRUE;
              out->changed = TRUE;
            }
        }
    }
  flush_vertical (&vb, out);

  if (d != c)
    {
      int32_t r = fs_hvpa_weighted_replicas (FS_HVPA_SEMANTICS_DESIGN, c, d, w);
      if (r > spec->max_replicas)
        r = spec->max_replicas;
      if (r < spec->min_replicas)
        r = spec->min_replicas;
      out->weighted_replicas = r;
      if (r == c)
        {
          if (weight_micro (w) == MICRO)
            note_horizontal (out, FS_HVPA_BLOCKED_WEIGHT, c, d);
        }
      else if (elapsed < (r > c ? spec->hpa_scale_up.stabilization_ms
                                : spec->hpa_scale_down.stabilization_ms))
        note_horizontal (out, FS_HVPA_BLOCKED_STABILIZATION_WINDOW, c, r);
      else
        {
          out->replicas = r;
          out->changed = TRUE;
        }
    }
}

/* ---- one step: hvpa ------------------------------------------------------------------- */

typedef struct {
  gboolean has_window;
  gboolean in_window;
} Window;

/* isScalingOffByMode */
static gboolean
off_by_mode (FsHvpaUpdateMode mode, const Window *win)
{
  switch (mode)
    {
    case FS_HVPA_MODE_OFF:
      return TRUE;
    case FS_HVPA_MODE_MAINTENANCE_WINDOW:
      return win->has_window && !win->in_window;
    case FS_HVPA_MODE_AUTO:
    default:
      return FALSE;
    }
}

/* getWeightedRequests: the VPA status conditions (scan stops at RecommendationProvided). */
static gboolean
vpa_recommendation_usable (const FsHvpaInput *in)
{
  if (!in->has_vpa_recommendation)
    return FALSE;
  for (guint k = 0; k < in->n_vpa_conditions; k++)
    {
      const FsHvpaVpaCondition *v = &in->vpa_conditions[k];
      if (v->status
          && (v->type == FS_HVPA_VPA_CONFIG_UNSUPPORTED || v->type == FS_HVPA_VPA_CONFIG_DEPRECATED
              || v->type == FS_HVPA_VPA_LOW_CONFIDENCE))
        return FALSE;
      if (v->type == FS_HVPA_VPA_RECOMMENDATION_PROVIDED)
        return v->status;
      if (k == in->n_vpa_conditions - 1)
        return FALSE;
    }
  return TRUE;
}

/* isHpaScaleOutLimited */
static gboolean
hpa_scale_out_limited (const FsHvpaInput *in, const Window *win)
{
  if (off_by_mode (in->spec.hpa_scale_up.update_mode, win))
    return TRUE;
  if (!in->has_hpa_status)
    return FALSE;
  if (in->desired_replicas < in->spec.max_replicas)
    return FALSE;
  return in->hpa_scaling_limited;
}

/* getWeightedRequests for one container (plus getScaledLimits, capRequestsToLimits). */
static void
hvpa_container (const FsHvpaInput *in, const FsHvpaContainer *ct, int32_t vpa_percent,
                gboolean limited, const Window *win, VerticalBlocks *vb, FsHvpaContainerResult *res,
                FsHvpaOutput *out)
{
  const FsHvpaSpec *spec = &in->spec;
  gboolean override = in->override_scale_up_stabilization;
  int64_t elapsed = elapsed_ms (in);
  int64_t weighted[FS_HVPA_N_RESOURCES], diff[FS_HVPA_N_RESOURCES];
  int64_t new_limit[FS_HVPA_N_RESOURCES] = { 0, 0 };
  gboolean has_new_limit[FS_HVPA_N_RESOURCES] = { FALSE, FALSE };
  gboolean controlled[FS_HVPA_N_RESOURCES];
  double w = vpa_percent / 100.0;

  for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
    {
      diff[r] = weighted_change (FS_HVPA_SEMANTICS_HVPA, ct->request[r], ct->target[r], w);
      weighted[r] = fs_hvpa_weighted_request (FS_HVPA_SEMANTICS_HVPA, (FsHvpaResource) r,
                                              ct->request[r], ct->target[r], w);
      controlled[r] = !ct->controlled_resources_set || ct->controlled[r];
    }
  if (!ct->requests_only)
    for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
      if (controlled[r])
        has_new_limit[r] = fs_hvpa_scaled_limit ((FsHvpaResource) r, ct->limit[r],
                                                 ct->request[r], weighted[r],
                                                 &spec->limits_gap[r], &new_limit[r]);
  gboolean any_new_limit = has_new_limit[0] || has_new_limit[1];
  for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
    {
      gboolean has_cap = any_new_limit ? has_new_limit[r] : ct->limit[r] != 0;
      int64_t cap = any_new_limit ? new_limit[r] : ct->limit[r];
      if (has_cap && cap < weighted[r])
        weighted[r] = cap;
    }

  for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
    {
      FsHvpaBlockedReason why = FS_HVPA_BLOCKED_NONE;
      res->weighted_request[r] = weighted[r];
      res->change[r] = diff[r];
      if (!controlled[r])
        continue;
      if (vpa_percent == 0)
        why = FS_HVPA_BLOCKED_WEIGHT;
      else if (diff[r] > 0)
        {
          const FsHvpaScaleType *up = &spec->vpa_scale_up;
          if (!limited || up->update_mode == FS_HVPA_MODE_OFF)
            why = FS_HVPA_BLOCKED_UPDATE_POLICY;
          else if (!override && elapsed < up->stabilization_ms)
            why = FS_HVPA_BLOCKED_STABILIZATION_WINDOW;
          else if (up->update_mode == FS_HVPA_MODE_MAINTENANCE_WINDOW
                   && (!win->has_window || !win->in_window))
            why = FS_HVPA_BLOCKED_MAINTENANCE_WINDOW;
          else if (!override
                   && !fs_hvpa_min_change_passes (FS_HVPA_SEMANTICS_HVPA, (FsHvpaResource) r,
                                                  &up->min_change[r], ct->request[r], diff[r]))
            why = FS_HVPA_BLOCKED_MIN_CHANGE;
        }
      else if (diff[r] < 0)
        {
          const FsHvpaScaleType *down = &spec->vpa_scale_down;
          if (down->update_mode == FS_HVPA_MODE_OFF)
            why = FS_HVPA_BLOCKED_UPDATE_POLICY;
          else if (elapsed < down->stabilization_ms)
            why = FS_HVPA_BLOCKED_STABILIZATION_WINDOW;
          else if (down->update_mode == FS_HVPA_MODE_MAINTENANCE_WINDOW
                   && (!win->has_window || !win->in_window))
            why = FS_HVPA_BLOCKED_MAINTENANCE_WINDOW;
          else if (!fs_hvpa_min_change_passes (FS_HVPA_SEMANTICS_HVPA, (FsHvpaResource) r,
                                               &down->min_change[r], ct->request[r], diff[r]))
            why = FS_HVPA_BLOCKED_MIN_CHANGE;
        }
      else
        continue;
      if (why != FS_HVPA_BLOCKED_NONE)
        {
          res->blocked[r] = why;
          note_vertical (vb, why, ct->name, (FsHvpaResource) r, ct->request[r], weighted[r]);
          continue;
        }
      res->request[r] = weighted[r];
      if (has_new_limit[r])
        res->limit[r] = new_limit[r];
      res->changed[r] = TRUE;
      out->changed = TRUE;
    }
}

/* scaleIfRequired: getVpaWeightFromIntervals, isHpaScaleOutLimited (+ hpa.deploy false),
 * getWeightedRequests, getWeightedReplicas, isScalingOff. */
static void
decide_hvpa (const FsHvpaInput *in, FsHvpaOutput *out)
{
  const FsHvpaSpec *spec = &in->spec;
  int32_t c = in->current_replicas;
  int32_t d = in->has_hpa_status ? in->desired_replicas : c;
  int64_t elapsed = elapsed_ms (in);
  gboolean override = in->override_scale_up_stabilization;
  Window win = { FALSE, FALSE };
  VerticalBlocks vb;

  memset (&vb, 0, sizeof vb);
  if (spec->maintenance_begin != NULL && spec->maintenance_end != NULL)
    win.has_window = fs_hvpa_maintenance_window_contains (spec->maintenance_begin,
                                                          spec->maintenance_end, in->now_ms,
                                                          &win.in_window);

  int32_t percent = hvpa_stage_percent (spec, c, d, &out->stage);
  out->stage_weight = percent / 100.0;
  out->vertical_weight = out->stage_weight;

  gboolean limited = hpa_scale_out_limited (in, &win) || !spec->hpa_deploy;
  out->hpa_scale_out_limited = limited;

  if (vpa_recommendation_usable (in))
    {
      int32_t vertical = percent;
      if (override)
        {
          limited = TRUE;
          if (vertical == 0)
            vertical = 1; /* "will override vpaWeight from 0 to 1" (1 %) */
        }
      out->hpa_scale_out_limited = limited;
      out->vertical_weight = vertical / 100.0;
      for (guint k = 0; k < in->n_containers; k++)
        if (in->containers[k].has_recommendation)
          hvpa_container (in, &in->containers[k], vertical, limited, &win, &vb,
                          &out->containers[k], out);
    }
  flush_vertical (&vb, out);

  /* getWeightedReplicas */
  if (spec->hpa_controller_annotation && in->has_hpa_status && in->desired_replicas != 0
      && spec->hpa_deploy && d != c)
    {
      int32_t r = fs_hvpa_weighted_replicas (FS_HVPA_SEMANTICS_HVPA, c, d, percent / 100.0);
      out->weighted_replicas = r;
      if (r != c)
        {
          const FsHvpaScaleType *st = r > c ? &spec->hpa_scale_up : &spec->hpa_scale_down;
          if (st->update_mode == FS_HVPA_MODE_OFF)
            note_horizontal (out, FS_HVPA_BLOCKED_UPDATE_POLICY, c, r);
          else if (st->update_mode == FS_HVPA_MODE_MAINTENANCE_WINDOW
                   && (!win.has_window || !win.in_window)) /* no window: upstream panics */
            note_horizontal (out, FS_HVPA_BLOCKED_MAINTENANCE_WINDOW, c, r);
          else if (!override && elapsed < st->stabilization_ms)
            note_horizontal (out, FS_HVPA_BLOCKED_STABILIZATION_WINDOW, c, r);
          else
            {
              out->replicas = r;
              out->changed = TRUE;
            }
        }
    }

  /* isScalingOff, reading hpa.scaleUp and vpa.scaleUp twice each as upstream does. */
  if (out->changed && off_by_mode (spec->hpa_scale_up.update_mode, &win)
      && off_by_mode (spec->vpa_scale_up.update_mode, &win))
    {
      out->scaling_off = TRUE;
      out->changed = FALSE;
      out->replicas = c;
      for (guint k = 0; k < in->n_containers; k++)
        for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
          {
            out->containers[k].request[r] = in->containers[k].request[r];
            out->containers[k].limit[r] = in->containers[k].limit[r];
            out->containers[k].changed[r] = FALSE;
          }
    }
}

/* scaleIfRequired (hvpa) / the seed's whole mechanism (design). */
void
fs_hvpa_decide (const FsHvpaInput *input, FsHvpaSemantics semantics, FsHvpaOutput *out)
{
  FsHvpaContainerResult *results = out->containers;
  memset (out, 0, sizeof *out);
  out->containers = results;
  out->stage = -1;
  out->replicas = input->current_replicas;
  out->weighted_replicas = input->current_replicas;
  for (guint k = 0; k < input->n_containers; k++)
    {
      FsHvpaContainerResult *res = &results[k];
      memset (res, 0, sizeof *res);
      for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
        {
          res->request[r] = input->containers[k].request[r];
          res->limit[r] = input->containers[k].limit[r];
          res->weighted_request[r] = input->containers[k].request[r];
        }
    }
  out->valid = fs_hvpa_spec_valid (&input->spec, semantics, out->error, sizeof out->error);
  if (!out->valid)
    return;
  if (semantics == FS_HVPA_SEMANTICS_HVPA)
    decide_hvpa (input, out);
  else
    decide_design (input, out);
}

/* ---- the decoded objects ---------------------------------------------------------------- */

void
fs_vpa_object_clear (FsVpaObject *vpa)
{
  g_clear_pointer (&vpa->recommendations, g_free);
  g_clear_pointer (&vpa->policies, g_free);
  vpa->n_recommendations = vpa->n_policies = 0;
}

void
fs_hvpa_object_clear (FsHvpaObject *hvpa)
{
  g_clear_pointer (&hvpa->hpa_selector, fs_label_selector_free);
  g_clear_pointer (&hvpa->vpa_selector, fs_label_selector_free);
  g_clear_pointer (&hvpa->container_policies, g_free);
  hvpa->n_container_policies = 0;
}

G_STATIC_ASSERT (G_STRUCT_OFFSET (FsVpaContainerPolicy, container_name) == 0);
G_STATIC_ASSERT (G_STRUCT_OFFSET (FsVpaRecommendation, container_name) == 0);

/* The entry named CONTAINER of N entries of SIZE bytes from ENTRIES (each starting with its
 * container name), else the last named "*". */
static gconstpointer
entry_for (gconstpointer entries, gsize size, guint n, const char *container)
{
  gconstpointer wildcard = NULL;
  for (guint i = 0; i < n; i++)
    {
      gconstpointer entry = (const char *) entries + (gsize) i * size;
      const char *name = *(const char *const *) entry;
      if (g_strcmp0 (name, container) == 0)
        return entry;
      if (g_strcmp0 (name, "*") == 0)
        wildcard = entry;
    }
  return wildcard;
}

const FsVpaContainerPolicy *
fs_vpa_container_policy (const FsVpaContainerPolicy *policies, guint n, const char *container)
{
  return entry_for (policies, sizeof *policies, n, container);
}

const FsVpaRecommendation *
fs_vpa_container_recommendation (const FsVpaObject *vpa, const char *container)
{
  return entry_for (vpa->recommendations, sizeof *vpa->recommendations, vpa->n_recommendations,
                    container);
}
