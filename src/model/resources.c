/* fitscale — resource vectors and a pod's effective request (see include/fitscale/resources.h).
 *
 * Upstream, a resource list is a Go map: a key is either there (possibly with a 0 value) or not.
 * Here the four fixed resources carry a "given" bit and the extended ones are given when they
 * have an entry.  A fixed amount that is nonzero counts as given even if its bit was not set
 * (a struct filled in with designated initializers), so the bits never contradict the values.
 *
 * Nothing here allocates: results are built in a local copy and stored on success, so a
 * failing call leaves its output untouched. */
#include <string.h>

#include "fitscale/model/error.h"
#include "fitscale/model/names.h"
#include "fitscale/model/quantity.h"
#include "fitscale/model/resources.h"

/* Resource names and prefixes from k8s.io/api/core/v1 (types.go, well_known_*.go). */
#define NAME_CPU "cpu"
#define NAME_MEMORY "memory"
#define NAME_EPHEMERAL "ephemeral-storage"
#define NAME_PODS "pods"
#define PREFIX_HUGEPAGES "hugepages-"                    /* v1.ResourceHugePagesPrefix */
#define PREFIX_ATTACHABLE_VOLUMES "attachable-volumes-"  /* v1.ResourceAttachableVolumesPrefix */
#define NAMESPACE_DEFAULT "kubernetes.io/"               /* v1.ResourceDefaultNamespacePrefix */
#define PREFIX_QUOTA_REQUESTS "requests."                /* v1.DefaultResourceRequestsPrefix */

/* Length limit of a qualified name (k8s.io/apimachinery/pkg/api/validate/content). */
#define QUALIFIED_NAME_MAX (253 + 1 + 63)

#define FIXED_BITS (FS_RES_CPU | FS_RES_MEMORY | FS_RES_EPHEMERAL | FS_RES_PODS)

/* ---------------------------------------------------------------------------------------------
 * Names */

static gboolean
has_prefix (const char *text, const char *prefix)
{
  return strncmp (text, prefix, strlen (prefix)) == 0;
}

/* pkg/apis/core/v1/helper/helpers.go IsPrefixedNativeResource: contains "kubernetes.io/". */
static gboolean
is_prefixed_native_resource (const char *name)
{
  return strstr (name, NAMESPACE_DEFAULT) != NULL;
}

/* helpers.go IsNativeResource: no '/' at all, or in the *kubernetes.io/ namespace. */
static gboolean
is_native_resource (const char *name)
{
  return strchr (name, '/') == NULL || is_prefixed_native_resource (name);
}

/* helpers.go IsExtendedResourceName: not native, not "requests."-prefixed, and a valid
 * qualified name once "requests." is put in front (the quota name). */
static gboolean
is_extended_resource_name (const char *name)
{
  if (is_native_resource (name) || has_prefix (name, PREFIX_QUOTA_REQUESTS))
    return FALSE;
  char quota_name[QUALIFIED_NAME_MAX + 1];
  if (strlen (PREFIX_QUOTA_REQUESTS) + strlen (name) > QUALIFIED_NAME_MAX)
    return FALSE; /* longer than any valid qualified name */
  strcpy (quota_name, PREFIX_QUOTA_REQUESTS);
  strcat (quota_name, name);
  return fs_name_is_qualified (quota_name);
}

/* helpers.go IsScalarResourceName: extended, hugepages-*, kubernetes.io-prefixed or
 * attachable-volumes-*. */
static gboolean
is_scalar_resource_name (const char *name)
{
  return is_extended_resource_name (name) || has_prefix (name, PREFIX_HUGEPAGES)
         || is_prefixed_native_resource (name) || has_prefix (name, PREFIX_ATTACHABLE_VOLUMES);
}

/* The fixed names first, as pkg/scheduler/framework/types.go Resource.Add switches on them;
 * then v1helper.IsScalarResourceName; anything else the scheduler drops. */
FsResourceKind
fs_resource_kind (const char *name)
{
  if (name == NULL)
    return FS_RES_KIND_IGNORED;
  if (strcmp (name, NAME_CPU) == 0)
    return FS_RES_KIND_CPU;
  if (strcmp (name, NAME_MEMORY) == 0)
    return FS_RES_KIND_MEMORY;
  if (strcmp (name, NAME_EPHEMERAL) == 0)
    return FS_RES_KIND_EPHEMERAL;
  if (strcmp (name, NAME_PODS) == 0)
    return FS_RES_KIND_PODS;
  if (is_scalar_resource_name (name))
    return FS_RES_KIND_SCALAR;
  return FS_RES_KIND_IGNORED;
}

/* ---------------------------------------------------------------------------------------------
 * Saturating int64 arithmetic (never undefined behaviour) */

int64_t
fs_saturating_add (int64_t a, int64_t b)
{
  int64_t sum;
  if (__builtin_add_overflow (a, b, &sum))
    return b > 0 ? G_MAXINT64 : G_MININT64;
  return sum;
}

#define saturating_add fs_saturating_add

int64_t
fs_div_ceil (int64_t amount, int64_t divisor)
{
  g_return_val_if_fail (divisor > 0, amount);
  int64_t quotient = amount / divisor;
  return amount % divisor > 0 ? quotient + 1 : quotient; /* C truncates: up for amount > 0 */
}

int64_t
fs_round_up (int64_t amount, int64_t unit)
{
  g_return_val_if_fail (unit > 0, amount);
  int64_t units = fs_div_ceil (amount, unit);
  if (units > G_MAXINT64 / unit)
    return G_MAXINT64 / unit * unit;
  if (units < G_MININT64 / unit)
    return G_MININT64 / unit * unit;
  return units * unit;
}

int64_t
fs_saturating_sub (int64_t a, int64_t b)
{
  int64_t difference;
  if (__builtin_sub_overflow (a, b, &difference))
    return b < 0 ? G_MAXINT64 : G_MININT64;
  return difference;
}

int64_t
fs_saturating_mul (int64_t a, int64_t b)
{
  int64_t product;
  if (__builtin_mul_overflow (a, b, &product))
    return (a < 0) != (b < 0) ? G_MININT64 : G_MAXINT64;
  return product;
}

/* ---------------------------------------------------------------------------------------------
 * Fixed and extended slots */

/* The fixed bits that are given: set in PRESENT, or with a nonzero amount. */
static guint8
given_bits (const FsResources *res)
{
  guint8 bits = res->present & FIXED_BITS;
  if (res->cpu_milli != 0)
    bits |= FS_RES_CPU;
  if (res->memory_bytes != 0)
    bits |= FS_RES_MEMORY;
  if (res->ephemeral_bytes != 0)
    bits |= FS_RES_EPHEMERAL;
  if (res->pods != 0)
    bits |= FS_RES_PODS;
  return bits;
}

/* The address of the fixed amount BIT stands for. */
static int64_t *
fixed_slot (FsResources *res, FsResourceBit bit)
{
  switch (bit)
    {
    case FS_RES_CPU:
      return &res->cpu_milli;
    case FS_RES_MEMORY:
      return &res->memory_bytes;
    case FS_RES_EPHEMERAL:
      return &res->ephemeral_bytes;
    case FS_RES_PODS:
      return &res->pods;
    default:
      break;
    }
  g_assert_not_reached ();
  return NULL;
}

/* The fixed amount BIT stands for (fixed_slot only reads through the cast). */
static int64_t
fixed_amount (const FsResources *res, FsResourceBit bit)
{
  return *fixed_slot ((FsResources *) res, bit);
}

/* The bit of a fixed KIND, 0 for SCALAR and IGNORED. */
static FsResourceBit
kind_bit (FsResourceKind kind)
{
  switch (kind)
    {
    case FS_RES_KIND_CPU:
      return FS_RES_CPU;
    case FS_RES_KIND_MEMORY:
      return FS_RES_MEMORY;
    case FS_RES_KIND_EPHEMERAL:
      return FS_RES_EPHEMERAL;
    case FS_RES_KIND_PODS:
      return FS_RES_PODS;
    case FS_RES_KIND_SCALAR:
    case FS_RES_KIND_IGNORED:
    default:
      return 0;
    }
}

static const FsResourceBit fixed_resources[] = {
  FS_RES_CPU, FS_RES_MEMORY, FS_RES_EPHEMERAL, FS_RES_PODS,
};

/* n_extended, never past the array (a corrupt count must not read out of bounds). */
static guint
extended_count (const FsResources *res)
{
  return MIN (res->n_extended, FS_RES_MAX_EXTENDED);
}

/* Looks NAME up (strcmp order); on a miss *INDEX is where it would be inserted. */
static gboolean
find_extended (const FsResources *res, const char *name, guint *index)
{
  guint count = extended_count (res);
  guint i;
  for (i = 0; i < count; i++)
    {
      int order = strcmp (res->extended[i].name, name);
      if (order == 0)
        {
          *index = i;
          return TRUE;
        }
      if (order > 0)
        break;
    }
  *index = i;
  return FALSE;
}

static gboolean
insert_extended (FsResources *res, guint index, const char *name, int64_t value, GError **error)
{
  guint count = extended_count (res);
  if (count >= FS_RES_MAX_EXTENDED)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_LIMIT,
                   "resource \"%s\": more than %d extended resources in one resource list",
                   name, FS_RES_MAX_EXTENDED);
      return FALSE;
    }
  memmove (&res->extended[index + 1], &res->extended[index],
           (count - index) * sizeof res->extended[0]);
  res->extended[index] = (FsExtendedAmount){ .name = name, .value = value };
  res->n_extended = (guint8) (count + 1);
  return TRUE;
}

/* The amount of extended NAME, 0 when absent. */
static int64_t
extended_amount (const FsResources *res, const char *name)
{
  guint index;
  return find_extended (res, name, &index) ? res->extended[index].value : 0;
}

/* Sets extended NAME to VALUE, inserting it in order when absent.  NAME is borrowed. */
static gboolean
put_extended (FsResources *res, const char *name, int64_t value, GError **error)
{
  guint index;
  if (find_extended (res, name, &index))
    {
      res->extended[index].value = value;
      return TRUE;
    }
  return insert_extended (res, index, name, value, error);
}

/* ---------------------------------------------------------------------------------------------
 * Set and get */

/* An IGNORED name is dropped and the call succeeds: the scheduler's Resource.Add
 * (pkg/scheduler/framework/types.go) skips names that are neither fixed nor scalar, so a reader
 * may pass every key of a resource list through here. */
gboolean
fs_resources_set (FsResources *res, const char *name, int64_t value, GError **error)
{
  g_return_val_if_fail (res != NULL, FALSE);
  FsResourceKind kind = fs_resource_kind (name);
  FsResourceBit bit = kind_bit (kind);
  if (bit != 0)
    {
      *fixed_slot (res, bit) = value;
      res->present |= bit;
      return TRUE;
    }
  if (kind == FS_RES_KIND_SCALAR)
    return put_extended (res, name, value, error);
  return TRUE;
}

int64_t
fs_resources_get (const FsResources *res, const char *name)
{
  g_return_val_if_fail (res != NULL, 0);
  FsResourceKind kind = fs_resource_kind (name);
  FsResourceBit bit = kind_bit (kind);
  if (bit != 0)
    return fixed_amount (res, bit);
  if (kind == FS_RES_KIND_SCALAR)
    return extended_amount (res, name);
  return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Per-resource arithmetic */

/* The new amount of a resource that B gives; A_GIVEN tells whether A had it (A is 0 if not). */
typedef int64_t (*CombineFn) (gboolean a_given, int64_t a, int64_t b);

static int64_t
combine_add (gboolean a_given, int64_t a, int64_t b)
{
  return saturating_add (a, b);
}

static int64_t
combine_sub (gboolean a_given, int64_t a, int64_t b)
{
  return fs_saturating_sub (a, b);
}

/* component-helpers/resource/helpers.go maxResourceList: B's amount replaces A's when A lacks
 * the resource or B's is larger. */
static int64_t
combine_max (gboolean a_given, int64_t a, int64_t b)
{
  return (!a_given || b > a) ? b : a;
}

/* Applies FN to every resource B gives (helpers.go addResourceList and maxResourceList walk only
 * B's keys), into a copy of A stored on success. */
static gboolean
combine (FsResources *a, const FsResources *b, CombineFn fn, GError **error)
{
  g_return_val_if_fail (a != NULL && b != NULL, FALSE);
  FsResources result = *a;
  guint8 a_bits = given_bits (a);
  guint8 b_bits = given_bits (b);
  for (gsize i = 0; i < G_N_ELEMENTS (fixed_resources); i++)
    {
      FsResourceBit bit = fixed_resources[i];
      if (b_bits & bit)
        *fixed_slot (&result, bit) = fn ((a_bits & bit) != 0, fixed_amount (a, bit),
                                         fixed_amount (b, bit));
    }
  result.present = a_bits | b_bits;
  guint b_count = extended_count (b);
  for (guint i = 0; i < b_count; i++)
    {
      const FsExtendedAmount *entry = &b->extended[i];
      guint index;
      if (find_extended (&result, entry->name, &index))
        result.extended[index].value = fn (TRUE, result.extended[index].value, entry->value);
      else if (!insert_extended (&result, index, entry->name, fn (FALSE, 0, entry->value), error))
        return FALSE;
    }
  *a = result;
  return TRUE;
}

gboolean
fs_resources_add (FsResources *a, const FsResources *b, GError **error)
{
  return combine (a, b, combine_add, error);
}

gboolean
fs_resources_sub (FsResources *a, const FsResources *b, GError **error)
{
  return combine (a, b, combine_sub, error);
}

gboolean
fs_resources_max (FsResources *a, const FsResources *b, GError **error)
{
  return combine (a, b, combine_max, error);
}

void
fs_resources_floor_zero (FsResources *res)
{
  g_return_if_fail (res != NULL);
  for (gsize i = 0; i < G_N_ELEMENTS (fixed_resources); i++)
    {
      int64_t *slot = fixed_slot (res, fixed_resources[i]);
      *slot = MAX (*slot, 0);
    }
  for (guint i = 0; i < res->n_extended; i++)
    res->extended[i].value = MAX (res->extended[i].value, 0);
}

/* Same given resources with the same amounts (like equality.Semantic.DeepEqual on two
 * ResourceLists: a resource given as 0 differs from one not given). */
gboolean
fs_resources_equal (const FsResources *a, const FsResources *b)
{
  g_return_val_if_fail (a != NULL && b != NULL, FALSE);
  if (given_bits (a) != given_bits (b))
    return FALSE;
  for (gsize i = 0; i < G_N_ELEMENTS (fixed_resources); i++)
    if (fixed_amount (a, fixed_resources[i]) != fixed_amount (b, fixed_resources[i]))
      return FALSE;
  guint count = extended_count (a);
  if (count != extended_count (b))
    return FALSE;
  for (guint i = 0; i < count; i++)
    if (strcmp (a->extended[i].name, b->extended[i].name) != 0
        || a->extended[i].value != b->extended[i].value)
      return FALSE;
  return TRUE;
}

gboolean
fs_resources_is_zero (const FsResources *res)
{
  g_return_val_if_fail (res != NULL, TRUE);
  for (gsize i = 0; i < G_N_ELEMENTS (fixed_resources); i++)
    if (fixed_amount (res, fixed_resources[i]) != 0)
      return FALSE;
  guint count = extended_count (res);
  for (guint i = 0; i < count; i++)
    if (res->extended[i].value != 0)
      return FALSE;
  return TRUE;
}

/* ---------------------------------------------------------------------------------------------
 * Fit */

/* pkg/scheduler/framework/plugins/noderesources/fit.go fitsRequest: a resource is short only
 * when the pod asks for some (> 0) and more than is left; FREE (allocatable - requested) may be
 * negative on an over-committed node, and a 0 request still fits there. */
static gboolean
amount_fits (int64_t requested, int64_t free_amount)
{
  return requested <= 0 || requested <= free_amount;
}

/* fit.go fitsRequest for cpu, memory, ephemeral-storage and every scalar resource of the
 * request; a scalar the node does not have counts as 0 free.  The pods field of REQUEST is not
 * looked at: the "Too many pods" check counts the pods on the node (len(nodeInfo.Pods) + 1 >
 * allowed pods) and is done by the caller, not from a pods amount. */
gboolean
fs_resources_fits (const FsResources *request, const FsResources *free_res)
{
  g_return_val_if_fail (request != NULL && free_res != NULL, FALSE);
  if (!amount_fits (request->cpu_milli, free_res->cpu_milli)
      || !amount_fits (request->memory_bytes, free_res->memory_bytes)
      || !amount_fits (request->ephemeral_bytes, free_res->ephemeral_bytes))
    return FALSE;
  guint count = extended_count (request);
  for (guint i = 0; i < count; i++)
    {
      const FsExtendedAmount *entry = &request->extended[i];
      if (!amount_fits (entry->value, extended_amount (free_res, entry->name)))
        return FALSE;
    }
  return TRUE;
}

/* ---------------------------------------------------------------------------------------------
 * Effective request */

/* component-helpers/resource/helpers.go aggregateContainerResourcesByFn (spec requests): the sum
 * of the app containers; init containers in order, each restartable one (a sidecar) added to the
 * sum and to the running sidecar total S with S as its peak, each other one peaking at its own
 * requests + S; then the per-resource max of the sum and every init peak. */
static gboolean
aggregate_container_requests (const FsContainer *containers, guint n_containers,
                              const FsContainer *init_containers, guint n_init,
                              FsResources *total, GError **error)
{
  for (guint i = 0; i < n_containers; i++)
    if (!fs_resources_add (total, &containers[i].requests, error))
      return FALSE;
  FsResources sidecars = { 0 };
  FsResources init_peak = { 0 };
  for (guint i = 0; i < n_init; i++)
    {
      const FsContainer *init = &init_containers[i];
      FsResources peak = init->requests;
      if (init->restartable)
        {
          if (!fs_resources_add (total, &init->requests, error)
              || !fs_resources_add (&sidecars, &init->requests, error))
            return FALSE;
          peak = sidecars;
        }
      else if (!fs_resources_add (&peak, &sidecars, error))
        return FALSE;
      if (!fs_resources_max (&init_peak, &peak, error))
        return FALSE;
    }
  return fs_resources_max (total, &init_peak, error);
}

/* helpers.go applyPodLevelResources with IsSupportedPodLevelResource: pod-level cpu, memory and
 * hugepages-* replace the container aggregate; every other pod-level name is ignored. */
static gboolean
apply_pod_level_requests (FsResources *total, const FsResources *pod_level, GError **error)
{
  guint8 pod_bits = given_bits (pod_level);
  if (pod_bits & FS_RES_CPU)
    total->cpu_milli = pod_level->cpu_milli;
  if (pod_bits & FS_RES_MEMORY)
    total->memory_bytes = pod_level->memory_bytes;
  total->present |= pod_bits & (FS_RES_CPU | FS_RES_MEMORY);
  guint count = extended_count (pod_level);
  for (guint i = 0; i < count; i++)
    {
      const FsExtendedAmount *entry = &pod_level->extended[i];
      if (has_prefix (entry->name, PREFIX_HUGEPAGES)
          && !put_extended (total, entry->name, entry->value, error))
        return FALSE;
    }
  return TRUE;
}

/* helpers.go PodRequests with default options as fit.go computePodResourceRequest uses them
 * (spec requests, pod-level resources, overhead added last).  The "pods" key is dropped: the
 * scheduler's Resource.Add turns it into AllowedPodNumber, which fitsRequest never reads. */
gboolean
fs_pod_effective_request (const FsContainer *containers, guint n_containers,
                          const FsContainer *init_containers, guint n_init,
                          const FsResources *pod_level, const FsResources *overhead,
                          FsResources *out, GError **error)
{
  g_return_val_if_fail (out != NULL, FALSE);
  g_return_val_if_fail (containers != NULL || n_containers == 0, FALSE);
  g_return_val_if_fail (init_containers != NULL || n_init == 0, FALSE);
  FsResources total = { 0 };
  if (!aggregate_container_requests (containers, n_containers, init_containers, n_init, &total,
                                     error))
    return FALSE;
  if (pod_level != NULL && !apply_pod_level_requests (&total, pod_level, error))
    return FALSE;
  if (overhead != NULL && !fs_resources_add (&total, overhead, error))
    return FALSE;
  total.pods = 0;
  total.present &= (guint8) ~FS_RES_PODS;
  *out = total;
  return TRUE;
}

/* ---------------------------------------------------------------------------------------------
 * Defaulting */

/* pkg/apis/core/v1/defaults.go SetDefaults_Pod: for each resource with a limit and no request,
 * the request becomes the limit; an explicit request (0 included) is kept. */
gboolean
fs_container_default_requests (FsContainer *container, GError **error)
{
  g_return_val_if_fail (container != NULL, FALSE);
  FsResources requests = container->requests;
  const FsResources *limits = &container->limits;
  guint8 missing = given_bits (limits) & (guint8) ~given_bits (&requests);
  for (gsize i = 0; i < G_N_ELEMENTS (fixed_resources); i++)
    if (missing & fixed_resources[i])
      *fixed_slot (&requests, fixed_resources[i]) = fixed_amount (limits, fixed_resources[i]);
  requests.present = given_bits (&requests) | missing;
  guint count = extended_count (limits);
  for (guint i = 0; i < count; i++)
    {
      const FsExtendedAmount *entry = &limits->extended[i];
      guint index;
      if (!find_extended (&requests, entry->name, &index)
          && !insert_extended (&requests, index, entry->name, entry->value, error))
        return FALSE;
    }
  container->requests = requests;
  return TRUE;
}

/* Canonical text of an amount, by the resource kind's format (resource.Quantity). */
char *
fs_format_amount (const char *name, int64_t amount, char buf[32])
{
  switch (fs_resource_kind (name))
    {
    case FS_RES_KIND_CPU:
      return fs_quantity_format_int (amount, -3, FS_QUANTITY_DECIMAL_SI, buf);
    case FS_RES_KIND_MEMORY:
    case FS_RES_KIND_EPHEMERAL:
      return fs_quantity_format_int (amount, 0, FS_QUANTITY_BINARY_SI, buf);
    case FS_RES_KIND_SCALAR:
      if (g_str_has_prefix (name, "hugepages-"))
        return fs_quantity_format_int (amount, 0, FS_QUANTITY_BINARY_SI, buf);
      return fs_quantity_format_int (amount, 0, FS_QUANTITY_DECIMAL_SI, buf);
    case FS_RES_KIND_PODS:
    case FS_RES_KIND_IGNORED:
    default:
      return fs_quantity_format_int (amount, 0, FS_QUANTITY_DECIMAL_SI, buf);
    }
}

/* Bytes rounded into the largest binary unit that holds them. */
static char *
bytes_for_people (int64_t bytes, char buf[32])
{
  static const char *const units[] = { "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
  uint64_t magnitude = bytes < 0 ? (uint64_t) -(bytes + 1) + 1 : (uint64_t) bytes;
  const char *sign = bytes < 0 ? "-" : "";
  if (magnitude < 1024)
    {
      g_snprintf (buf, 32, "%s%" G_GUINT64_FORMAT, sign, magnitude);
      return buf;
    }
  /* exact in a unit, in four digits of it: the quantity as written ("16Gi", "2000Mi") */
  int unit = -1;
  uint64_t scaled = magnitude;
  while (scaled % 1024 == 0 && scaled >= 1024)
    scaled /= 1024, unit++;
  if (unit >= 0 && scaled < 10000)
    {
      g_snprintf (buf, 32, "%s%" G_GUINT64_FORMAT "%s", sign, scaled, units[unit]);
      return buf;
    }
  unit = 0;
  double value = (double) magnitude / 1024.0;
  while (value >= 1024.0 && unit < 5)
    value /= 1024.0, unit++;
  /* "1023.97Mi" rounds to the next unit as 1Gi */
  if (value >= 1023.95 && unit < 5)
    value /= 1024.0, unit++;
  if (unit == 2 && value < 10.0)
    {
      /* under 10Gi in whole Mi, as kubectl top prints memory: one decimal of Gi is up to
       * 51Mi off ("1.6Gi" for 1600Mi would overstate it by 38Mi) */
      uint64_t mebibytes = (magnitude + (1 << 19)) >> 20;
      if (mebibytes % 1024 == 0)
        g_snprintf (buf, 32, "%s%" G_GUINT64_FORMAT "Gi", sign, mebibytes / 1024);
      else
        g_snprintf (buf, 32, "%s%" G_GUINT64_FORMAT "Mi", sign, mebibytes);
      return buf;
    }
  if (value < 100.0 && unit >= 2)
    {
      g_snprintf (buf, 32, "%s%.1f", sign, value);
      gsize len = strlen (buf);
      if (len > 2 && g_str_has_suffix (buf, ".0"))
        buf[len - 2] = '\0';
    }
  else
    g_snprintf (buf, 32, "%s%.0f", sign, value);
  g_strlcat (buf, units[unit], 32);
  return buf;
}

char *
fs_format_for_people (const char *name, int64_t amount, char buf[32])
{
  switch (fs_resource_kind (name))
    {
    case FS_RES_KIND_CPU:
      if (amount % 1000 != 0 && (amount >= 10000 || amount <= -10000))
        {
          g_snprintf (buf, 32, "%.2f", (double) amount / 1000.0);
          gsize len = strlen (buf);
          while (len > 0 && buf[len - 1] == '0')
            buf[--len] = '\0';
          if (len > 0 && buf[len - 1] == '.')
            buf[--len] = '\0';
          return buf;
        }
      return fs_format_amount (name, amount, buf);
    case FS_RES_KIND_MEMORY:
    case FS_RES_KIND_EPHEMERAL:
      return bytes_for_people (amount, buf);
    case FS_RES_KIND_SCALAR:
      if (g_str_has_prefix (name, "hugepages-"))
        return bytes_for_people (amount, buf);
      return fs_format_amount (name, amount, buf);
    case FS_RES_KIND_PODS:
    case FS_RES_KIND_IGNORED:
    default:
      return fs_format_amount (name, amount, buf);
    }
}

static gboolean
is_bytes (const char *name)
{
  FsResourceKind kind = fs_resource_kind (name);
  return kind == FS_RES_KIND_MEMORY || kind == FS_RES_KIND_EPHEMERAL
         || (kind == FS_RES_KIND_SCALAR && g_str_has_prefix (name, "hugepages-"));
}

/* The finest unit WRITTEN (> 0) is whole in, at most Mi (or M): "8Gi" gives Mi. */
static int64_t
written_unit (int64_t written)
{
  return written % (1 << 20) == 0 ? (1 << 20)
         : written % 1000000 == 0 ? 1000000
         : written % 1024 == 0    ? 1024
         : written % 1000 == 0    ? 1000
                                  : 1;
}

int64_t
fs_round_up_like (const char *name, int64_t amount, int64_t written)
{
  if (!is_bytes (name) || amount <= 0 || written <= 0)
    return amount;
  int64_t up = fs_round_up (amount, written_unit (written));
  return up >= amount ? up : amount;
}

char *
fs_format_exact (const char *name, int64_t amount, char buf[32])
{
  if (!is_bytes (name))
    return fs_format_amount (name, amount, buf);
  /* resource.Quantity prints bytes BinarySI ("5348011Ki", or plain bytes when 1024 does not
   * divide them); DecimalSI is exact too ("5476363k"): the shorter, binary on a tie */
  char decimal[32];
  fs_quantity_format_int (amount, 0, FS_QUANTITY_BINARY_SI, buf);
  fs_quantity_format_int (amount, 0, FS_QUANTITY_DECIMAL_SI, decimal);
  if (strlen (decimal) < strlen (buf))
    g_strlcpy (buf, decimal, 32);
  return buf;
}

char *
fs_format_like (const char *name, int64_t amount, int64_t written, int64_t at_least, char buf[32])
{
  if (!is_bytes (name) || amount <= 0 || written <= 0)
    return fs_format_amount (name, amount, buf);
  int64_t unit = written_unit (written);
  int64_t rest = amount % unit;
  int64_t down = amount - rest;
  int64_t up = rest == 0 ? amount : fs_saturating_add (down, unit);
  if (up % unit != 0) /* saturated: the largest whole unit */
    up = down;
  int64_t rounded = rest * 2 < unit ? down : up;
  if (rounded < at_least)
    rounded = up >= at_least ? up : amount;
  return fs_quantity_format_int (rounded, 0, unit == 1000000 || unit == 1000 ? FS_QUANTITY_DECIMAL_SI
                                                                              : FS_QUANTITY_BINARY_SI, buf);
}

gboolean
fs_resource_amount_valid (int64_t amount, const char *text, gsize text_len, GError **error)
{
  if (amount >= 0)
    return TRUE;
  g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "Invalid value: \"%.*s\": must be greater than or equal to 0",
               (int) MIN (text_len, 40), text);
  return FALSE;
}
