/* fitscale — tests for src/model/resources.c.
 *
 * Cases named "Test.../<name>" are transcribed from the upstream Go tests of kubernetes/kubernetes:
 *   staging/src/k8s.io/component-helpers/resource/helpers_test.go   (effective request)
 *   pkg/apis/core/v1/helper/helpers_test.go                          (resource kinds)
 *   pkg/scheduler/framework/plugins/noderesources/fit_test.go        (fit)
 *   pkg/apis/core/v1/defaults_test.go                                (limits -> requests)
 * Quantities are plain integers: cpu in millicores ("1" = 1000, "2m" = 2), everything else in
 * whole units (memory and hugepages in bytes: "1Gi" = GiB, "5" = 5). */
#include "config.h"

#include "testutil.h"
#include "fitscale/model/error.h"
#include "fitscale/model/resources.h"

#define GPU "nvidia.com/gpu"
#define EXTENDED_A "example.com/aaa" /* fit_test.go extendedResourceA */
#define EXTENDED_B "example.com/bbb" /* fit_test.go extendedResourceB */
#define KUBERNETES_IO_A "kubernetes.io/something"
#define KUBERNETES_IO_B "subdomain.kubernetes.io/something"
#define HUGEPAGES_2MI "hugepages-2Mi"
#define HUGEPAGES_1GI "hugepages-1Gi"

/* ---------------------------------------------------------------------------------------------
 * Helpers */

typedef struct {
  const char *name;
  int64_t value;
} Amount;

static FsResources
resources_from (const Amount *amounts, gsize n_amounts)
{
  FsResources res = { 0 };
  for (gsize i = 0; i < n_amounts; i++)
    {
      g_autoptr (GError) error = NULL;
      if (!fs_resources_set (&res, amounts[i].name, amounts[i].value, &error))
        fail_msg ("setting %s: %s", amounts[i].name, error->message);
    }
  return res;
}

/* RES ({ "cpu", 1000 }, { "memory", 5 }): a resource vector built with fs_resources_set. */
#define RES(...)                                                                                  \
  resources_from ((const Amount[]){ __VA_ARGS__ },                                                \
                  G_N_ELEMENTS (((const Amount[]){ __VA_ARGS__ })))
#define NONE ((FsResources){ 0 })

static FsContainer
container (FsResources requests)
{
  return (FsContainer){ .name = "container", .requests = requests };
}

static FsContainer
sidecar (FsResources requests)
{
  return (FsContainer){ .name = "sidecar", .requests = requests, .restartable = TRUE };
}

static FsContainer
limited (FsResources requests, FsResources limits)
{
  return (FsContainer){ .name = "limited", .requests = requests, .limits = limits };
}

/* LIST (container (...), ...): an array and its length, as two arguments. */
#define LIST(...)                                                                                 \
  ((const FsContainer[]){ __VA_ARGS__ }),                                                         \
      (guint) G_N_ELEMENTS (((const FsContainer[]){ __VA_ARGS__ }))
#define NO_CONTAINERS NULL, 0

static char *
describe (const FsResources *res)
{
  GString *text = g_string_new (NULL);
  g_string_append_printf (text, "{present=%#x cpu=%" G_GINT64_FORMAT " memory=%" G_GINT64_FORMAT
                          " ephemeral=%" G_GINT64_FORMAT " pods=%" G_GINT64_FORMAT,
                          res->present, res->cpu_milli, res->memory_bytes, res->ephemeral_bytes,
                          res->pods);
  for (guint i = 0; i < res->n_extended; i++)
    g_string_append_printf (text, " %s=%" G_GINT64_FORMAT, res->extended[i].name,
                            res->extended[i].value);
  g_string_append (text, "}");
  return g_string_free (text, FALSE);
}

static void
assert_resources_equal (const char *what, const FsResources *got, const FsResources *want)
{
  if (fs_resources_equal (got, want))
    return;
  g_autofree char *got_text = describe (got);
  g_autofree char *want_text = describe (want);
  fail_msg ("%s: got %s, want %s", what, got_text, want_text);
}

static void
check_effective (const char *upstream_case, const FsContainer *containers, guint n_containers,
                 const FsContainer *init_containers, guint n_init, const FsResources *pod_level,
                 const FsResources *overhead, FsResources want)
{
  g_autoptr (GError) error = NULL;
  FsResources got;
  if (!fs_pod_effective_request (containers, n_containers, init_containers, n_init, pod_level,
                                 overhead, &got, &error))
    fail_msg ("%s: %s", upstream_case, error->message);
  assert_resources_equal (upstream_case, &got, &want);
}

static void
assert_limit_error (gboolean ok, GError *error)
{
  assert_false (ok);
  assert_non_null (error);
  assert_true (g_error_matches (error, FS_ERROR, FS_ERROR_LIMIT));
}

/* FS_RES_MAX_EXTENDED + 1 distinct extended names, in strcmp order. */
static const char *const many_names[FS_RES_MAX_EXTENDED + 1] = {
  "example.com/r00", "example.com/r01", "example.com/r02", "example.com/r03", "example.com/r04",
  "example.com/r05", "example.com/r06", "example.com/r07", "example.com/r08", "example.com/r09",
  "example.com/r10", "example.com/r11", "example.com/r12", "example.com/r13", "example.com/r14",
  "example.com/r15", "example.com/r16",
};

static FsResources
full_extended (void)
{
  FsResources res = { 0 };
  for (guint i = 0; i < FS_RES_MAX_EXTENDED; i++)
    assert_true (fs_resources_set (&res, many_names[i], 1, NULL));
  assert_int_equal (res.n_extended, FS_RES_MAX_EXTENDED);
  return res;
}

/* ---------------------------------------------------------------------------------------------
 * fs_resource_kind */

static void
test_kind_fixed (void **state)
{
  assert_int_equal (fs_resource_kind ("cpu"), FS_RES_KIND_CPU);
  assert_int_equal (fs_resource_kind ("memory"), FS_RES_KIND_MEMORY);
  assert_int_equal (fs_resource_kind ("ephemeral-storage"), FS_RES_KIND_EPHEMERAL);
  assert_int_equal (fs_resource_kind ("pods"), FS_RES_KIND_PODS);
}

static void
test_kind_scalar (void **state)
{
  static const char *const scalar[] = {
    HUGEPAGES_2MI, HUGEPAGES_1GI, "hugepages-", /* IsHugePageResourceName is a prefix test */
    GPU, "attachable-volumes-aws-ebs",
    KUBERNETES_IO_A, KUBERNETES_IO_B, /* fit_test.go kubernetesIOResourceA/B */
    /* pkg/apis/core/v1/helper/helpers_test.go TestIsNativeResource: these two are native (in
     * *kubernetes.io/) and so scalar through IsPrefixedNativeResource ... */
    "pod.alpha.kubernetes.io/opaque-int-resource-foo", "kubernetes.io/resource-foo",
    /* ... and "a/b" is not native, so extended ("requests.a/b" is a qualified name) */
    "a/b", EXTENDED_A, "example.com/gpu", "example.com/GPU_v1.x", /* name part: [-A-Za-z0-9_.] */
  };
  for (gsize i = 0; i < G_N_ELEMENTS (scalar); i++)
    if (fs_resource_kind (scalar[i]) != FS_RES_KIND_SCALAR)
      fail_msg ("%s should be scalar", scalar[i]);
}

static void
test_kind_ignored (void **state)
{
  static const char *const ignored[] = {
    "storage",                 /* unprefixed, not a scheduler resource */
    "requests.nvidia.com/gpu", /* the quota spelling is not an extended resource */
    "foo", "", "BAD!!",        /* no '/': native but not kubernetes.io-prefixed */
    "example.com/a/b",         /* two '/' */
    "Example.com/gpu",         /* DNS-1123 prefix must be lower case */
    "example.com/",            /* empty name part */
    "/gpu",                    /* empty prefix: "requests." is not a subdomain */
    "example..com/gpu",        /* empty label */
    "-example.com/gpu",        /* label must start alphanumeric */
    "example.com/-gpu",        /* name must start alphanumeric */
    "example.com/gpu-",        /* and end alphanumeric */
    "example.com/g pu",        /* no spaces */
  };
  for (gsize i = 0; i < G_N_ELEMENTS (ignored); i++)
    if (fs_resource_kind (ignored[i]) != FS_RES_KIND_IGNORED)
      fail_msg ("\"%s\" should be ignored", ignored[i]);
  assert_int_equal (fs_resource_kind (NULL), FS_RES_KIND_IGNORED);
}

/* content.IsLabelKey length limits: the name part is at most 63 bytes and the quota prefix
 * "requests." + domain at most 253, so the domain may have 244. */
static void
test_kind_extended_length_limits (void **state)
{
  char name[400];

  memset (name, 'a', 244);
  strcpy (name + 244, "/gpu");
  assert_int_equal (fs_resource_kind (name), FS_RES_KIND_SCALAR);
  memset (name, 'a', 245);
  strcpy (name + 245, "/gpu");
  assert_int_equal (fs_resource_kind (name), FS_RES_KIND_IGNORED);

  strcpy (name, "example.com/");
  memset (name + 12, 'n', 63);
  name[12 + 63] = '\0';
  assert_int_equal (fs_resource_kind (name), FS_RES_KIND_SCALAR);
  memset (name + 12, 'n', 64);
  name[12 + 64] = '\0';
  assert_int_equal (fs_resource_kind (name), FS_RES_KIND_IGNORED);

  memset (name, 'x', sizeof name - 1);
  name[sizeof name - 1] = '\0';
  name[100] = '/';
  assert_int_equal (fs_resource_kind (name), FS_RES_KIND_IGNORED);
}

/* ---------------------------------------------------------------------------------------------
 * set / get */

static void
test_set_fixed_sets_present_even_for_zero (void **state)
{
  FsResources res = { 0 };
  assert_true (fs_resources_set (&res, "cpu", 0, NULL));
  assert_int_equal (res.present, FS_RES_CPU);
  assert_int_equal (res.cpu_milli, 0);

  assert_true (fs_resources_set (&res, "memory", 5, NULL));
  assert_true (fs_resources_set (&res, "ephemeral-storage", 7, NULL));
  assert_true (fs_resources_set (&res, "pods", 110, NULL));
  assert_int_equal (res.present, FS_RES_CPU | FS_RES_MEMORY | FS_RES_EPHEMERAL | FS_RES_PODS);
  assert_int_equal (fs_resources_get (&res, "cpu"), 0);
  assert_int_equal (fs_resources_get (&res, "memory"), 5);
  assert_int_equal (fs_resources_get (&res, "ephemeral-storage"), 7);
  assert_int_equal (fs_resources_get (&res, "pods"), 110);
  assert_int_equal (res.n_extended, 0);
}

static void
test_get_absent_is_zero (void **state)
{
  FsResources res = RES ({ GPU, 2 });
  assert_int_equal (fs_resources_get (&res, "cpu"), 0);
  assert_int_equal (fs_resources_get (&res, EXTENDED_A), 0);
  assert_int_equal (fs_resources_get (&res, "storage"), 0);
  assert_int_equal (fs_resources_get (&res, NULL), 0);
  assert_int_equal (fs_resources_get (&res, GPU), 2);
}

static void
test_set_extended_sorted_and_borrowed (void **state)
{
  static const char zeta[] = "zeta.io/z";
  static const char alpha[] = "alpha.io/a";
  static const char mid[] = HUGEPAGES_2MI;
  FsResources res = { 0 };
  assert_true (fs_resources_set (&res, zeta, 3, NULL));
  assert_true (fs_resources_set (&res, alpha, 1, NULL));
  assert_true (fs_resources_set (&res, mid, 2, NULL));
  assert_int_equal (res.n_extended, 3);
  assert_ptr_equal (res.extended[0].name, alpha); /* borrowed, not copied */
  assert_ptr_equal (res.extended[1].name, mid);
  assert_ptr_equal (res.extended[2].name, zeta);
  assert_int_equal (res.extended[0].value, 1);
  assert_int_equal (res.extended[2].value, 3);
  assert_int_equal (res.present, 0);

  /* Same name through another pointer: found by strcmp, value replaced, no new entry. */
  char other_zeta[] = "zeta.io/z";
  assert_true (fs_resources_set (&res, other_zeta, 30, NULL));
  assert_int_equal (res.n_extended, 3);
  assert_int_equal (fs_resources_get (&res, zeta), 30);
  assert_ptr_equal (res.extended[2].name, zeta);
}

static void
test_set_ignored_is_a_no_op (void **state)
{
  FsResources res = RES ({ "cpu", 5 }, { GPU, 1 });
  FsResources before = res;
  assert_true (fs_resources_set (&res, "storage", 9, NULL));
  assert_true (fs_resources_set (&res, "requests.nvidia.com/gpu", 9, NULL));
  assert_true (fs_resources_set (&res, NULL, 9, NULL));
  assert_resources_equal ("after ignored names", &res, &before);
}

static void
test_set_limit (void **state)
{
  FsResources res = full_extended ();
  FsResources before = res;
  g_autoptr (GError) error = NULL;
  gboolean ok = fs_resources_set (&res, many_names[FS_RES_MAX_EXTENDED], 1, &error);
  assert_limit_error (ok, error);
  assert_resources_equal ("after the refused name", &res, &before);

  /* A name already there, and the fixed resources, still work on a full list. */
  assert_true (fs_resources_set (&res, many_names[3], 42, NULL));
  assert_int_equal (fs_resources_get (&res, many_names[3]), 42);
  assert_true (fs_resources_set (&res, "cpu", 1, NULL));
  assert_int_equal (res.n_extended, FS_RES_MAX_EXTENDED);
}

/* ---------------------------------------------------------------------------------------------
 * add / sub / max */

static void
test_add (void **state)
{
  FsResources a = RES ({ "cpu", 100 }, { GPU, 1 }, { "zeta.io/z", 4 });
  FsResources b = RES ({ "cpu", 50 }, { "memory", 0 }, { GPU, 2 }, { HUGEPAGES_2MI, 2 * MiB });
  assert_true (fs_resources_add (&a, &b, NULL));
  FsResources want = RES ({ "cpu", 150 }, { "memory", 0 }, { GPU, 3 }, { HUGEPAGES_2MI, 2 * MiB },
                         { "zeta.io/z", 4 });
  assert_resources_equal ("a + b", &a, &want);
  assert_int_equal (a.present, FS_RES_CPU | FS_RES_MEMORY); /* OR of the bits */
  assert_string_equal (a.extended[0].name, HUGEPAGES_2MI);  /* still sorted */
  assert_string_equal (a.extended[1].name, GPU);
  assert_string_equal (a.extended[2].name, "zeta.io/z");

  /* a + a through the same pointer */
  FsResources c = RES ({ "memory", 7 }, { GPU, 5 });
  assert_true (fs_resources_add (&c, &c, NULL));
  FsResources doubled = RES ({ "memory", 14 }, { GPU, 10 });
  assert_resources_equal ("c + c", &c, &doubled);
}

static void
test_add_saturates (void **state)
{
  FsResources a = RES ({ "cpu", G_MAXINT64 - 1 }, { "memory", G_MININT64 + 1 },
                      { "ephemeral-storage", G_MAXINT64 }, { "pods", G_MININT64 },
                      { GPU, G_MAXINT64 });
  FsResources b = RES ({ "cpu", 5 }, { "memory", -5 }, { "ephemeral-storage", G_MAXINT64 },
                      { "pods", -1 }, { GPU, 1 });
  assert_true (fs_resources_add (&a, &b, NULL));
  assert_true (a.cpu_milli == G_MAXINT64);
  assert_true (a.memory_bytes == G_MININT64);
  assert_true (a.ephemeral_bytes == G_MAXINT64);
  assert_true (a.pods == G_MININT64);
  assert_true (fs_resources_get (&a, GPU) == G_MAXINT64);

  FsResources exact = RES ({ "cpu", G_MAXINT64 - 5 });
  FsResources five = RES ({ "cpu", 5 });
  assert_true (fs_resources_add (&exact, &five, NULL));
  assert_true (exact.cpu_milli == G_MAXINT64); /* reaching the bound is not an overflow */
}

static void
test_sub (void **state)
{
  FsResources a = RES ({ "cpu", 100 }, { GPU, 4 });
  FsResources b = RES ({ "cpu", 150 }, { "memory", 10 }, { GPU, 1 }, { EXTENDED_A, 2 });
  assert_true (fs_resources_sub (&a, &b, NULL));
  /* names only in b come out negative */
  FsResources want = RES ({ "cpu", -50 }, { "memory", -10 }, { EXTENDED_A, -2 }, { GPU, 3 });
  assert_resources_equal ("a - b", &a, &want);
}

static void
test_sub_saturates (void **state)
{
  FsResources a = RES ({ "cpu", G_MININT64 + 1 }, { "memory", G_MAXINT64 - 1 },
                      { "ephemeral-storage", 0 }, { GPU, G_MININT64 });
  FsResources b = RES ({ "cpu", 2 }, { "memory", -2 }, { "ephemeral-storage", G_MININT64 },
                      { GPU, 1 }, { EXTENDED_A, G_MININT64 });
  assert_true (fs_resources_sub (&a, &b, NULL));
  assert_true (a.cpu_milli == G_MININT64);
  assert_true (a.memory_bytes == G_MAXINT64);
  assert_true (a.ephemeral_bytes == G_MAXINT64); /* 0 - MIN does not fit */
  assert_true (fs_resources_get (&a, GPU) == G_MININT64);
  assert_true (fs_resources_get (&a, EXTENDED_A) == G_MAXINT64);
}

static void
test_max (void **state)
{
  FsResources a = RES ({ "cpu", 100 }, { "memory", 50 }, { GPU, 1 }, { EXTENDED_A, 9 });
  FsResources b = RES ({ "cpu", 80 }, { "memory", 70 }, { "ephemeral-storage", -3 }, { GPU, 4 });
  assert_true (fs_resources_max (&a, &b, NULL));
  /* helpers.go maxResourceList: a resource a lacks takes b's amount, even a negative one */
  FsResources want = RES ({ "cpu", 100 }, { "memory", 70 }, { "ephemeral-storage", -3 },
                         { GPU, 4 }, { EXTENDED_A, 9 });
  assert_resources_equal ("max (a, b)", &a, &want);

  FsResources given_zero = RES ({ "cpu", 0 });
  FsResources none = NONE;
  assert_true (fs_resources_max (&none, &given_zero, NULL));
  assert_int_equal (none.present, FS_RES_CPU);

  FsResources low = RES ({ GPU, -5 });
  FsResources negative = RES ({ GPU, -2 });
  assert_true (fs_resources_max (&low, &negative, NULL));
  assert_int_equal (fs_resources_get (&low, GPU), -2);
}

static void
test_arithmetic_limit_leaves_a_unchanged (void **state)
{
  FsResources a = full_extended ();
  FsResources before = a;
  FsResources b = RES ({ "cpu", 1 }, { many_names[FS_RES_MAX_EXTENDED], 1 });
  GError *error = NULL;

  gboolean ok = fs_resources_add (&a, &b, &error);
  assert_limit_error (ok, error);
  g_clear_error (&error);
  assert_resources_equal ("after add", &a, &before);
  ok = fs_resources_sub (&a, &b, &error);
  assert_limit_error (ok, error);
  g_clear_error (&error);
  assert_resources_equal ("after sub", &a, &before);
  ok = fs_resources_max (&a, &b, &error);
  assert_limit_error (ok, error);
  g_clear_error (&error);
  assert_resources_equal ("after max", &a, &before);

  /* Names a already has do not count against the limit. */
  FsResources same_names = full_extended ();
  assert_true (fs_resources_add (&a, &same_names, NULL));
  assert_int_equal (fs_resources_get (&a, many_names[0]), 2);
}

/* ---------------------------------------------------------------------------------------------
 * equal / is_zero */

static void
test_equal (void **state)
{
  FsResources a = RES ({ "cpu", 5 }, { GPU, 1 });
  FsResources same = RES ({ GPU, 1 }, { "cpu", 5 });
  assert_true (fs_resources_equal (&a, &same));

  FsResources designated = { .cpu_milli = 5 }; /* nonzero counts as given */
  FsResources cpu_five = RES ({ "cpu", 5 });
  assert_true (fs_resources_equal (&designated, &cpu_five));

  FsResources given_zero = RES ({ "cpu", 0 });
  FsResources none = NONE;
  assert_false (fs_resources_equal (&given_zero, &none));

  FsResources other_value = RES ({ "cpu", 5 }, { GPU, 2 });
  assert_false (fs_resources_equal (&a, &other_value));
  FsResources other_name = RES ({ "cpu", 5 }, { EXTENDED_A, 1 });
  assert_false (fs_resources_equal (&a, &other_name));
  FsResources extra_zero = RES ({ "cpu", 5 }, { GPU, 1 }, { EXTENDED_A, 0 });
  assert_false (fs_resources_equal (&a, &extra_zero));
}

static void
test_is_zero (void **state)
{
  FsResources none = NONE;
  FsResources given_zeros = RES ({ "cpu", 0 }, { "pods", 0 }, { GPU, 0 });
  FsResources pods = RES ({ "pods", 1 });
  FsResources gpu = RES ({ GPU, 1 });
  FsResources negative = RES ({ "memory", -1 });
  assert_true (fs_resources_is_zero (&none));
  assert_true (fs_resources_is_zero (&given_zeros));
  assert_false (fs_resources_is_zero (&pods));
  assert_false (fs_resources_is_zero (&gpu));
  assert_false (fs_resources_is_zero (&negative));
}

/* ---------------------------------------------------------------------------------------------
 * fits */

static void
test_fits_basic (void **state)
{
  FsResources request = RES ({ "cpu", 500 }, { "memory", GiB }, { "ephemeral-storage", 10 },
                            { GPU, 1 });
  FsResources equal = request;
  assert_true (fs_resources_fits (&request, &equal)); /* equality fits */

  FsResources short_cpu = RES ({ "cpu", 499 }, { "memory", GiB }, { "ephemeral-storage", 10 },
                              { GPU, 1 });
  FsResources short_memory = RES ({ "cpu", 500 }, { "memory", GiB - 1 },
                                 { "ephemeral-storage", 10 }, { GPU, 1 });
  FsResources short_ephemeral = RES ({ "cpu", 500 }, { "memory", GiB },
                                    { "ephemeral-storage", 9 }, { GPU, 1 });
  FsResources no_gpu = RES ({ "cpu", 500 }, { "memory", GiB }, { "ephemeral-storage", 10 });
  assert_false (fs_resources_fits (&request, &short_cpu));
  assert_false (fs_resources_fits (&request, &short_memory));
  assert_false (fs_resources_fits (&request, &short_ephemeral));
  assert_false (fs_resources_fits (&request, &no_gpu)); /* absent on the node = 0 */
}

static void
test_fits_zero_request_on_overcommitted_node (void **state)
{
  FsResources free_res = RES ({ "cpu", -10 }, { "memory", -10 }, { "ephemeral-storage", -1 },
                             { GPU, -3 });
  FsResources zeros = RES ({ "cpu", 0 }, { "memory", 0 }, { "ephemeral-storage", 0 }, { GPU, 0 },
                          { EXTENDED_A, 0 });
  FsResources none = NONE;
  assert_true (fs_resources_fits (&zeros, &free_res));
  assert_true (fs_resources_fits (&none, &free_res));
  FsResources one_cpu = RES ({ "cpu", 1 });
  assert_false (fs_resources_fits (&one_cpu, &free_res));
}

/* The pods amount is not part of the resource comparison: the pod-count check ("Too many pods")
 * counts the node's pods and is the caller's. */
static void
test_fits_ignores_pods (void **state)
{
  FsResources request = RES ({ "pods", 100 }, { "cpu", 1 });
  FsResources free_res = RES ({ "pods", 0 }, { "cpu", 1 });
  assert_true (fs_resources_fits (&request, &free_res));
}

/* fit_test.go TestEnoughRequests: node allocatable makeAllocatableResources(10, 20, 32, 5, 20, 5)
 * (milliCPU, memory, pods, extendedResourceA, ephemeral-storage, hugePageResourceA); USED is the
 * request of the one pod already on the node.  Cases with plugin arguments (ignoredResources,
 * ignoredResourceGroups) or DRA are not transcribed. */
static void
check_enough (const char *upstream_case, const FsContainer *containers, guint n_containers,
              const FsContainer *init_containers, guint n_init, const FsResources *pod_level,
              const FsResources *overhead, FsResources used, gboolean want_fit)
{
  FsResources free_res = RES ({ "cpu", 10 }, { "memory", 20 }, { "pods", 32 }, { EXTENDED_A, 5 },
                             { "ephemeral-storage", 20 }, { HUGEPAGES_2MI, 5 });
  FsResources request;
  g_autoptr (GError) error = NULL;
  if (!fs_pod_effective_request (containers, n_containers, init_containers, n_init, pod_level,
                                 overhead, &request, &error)
      || !fs_resources_sub (&free_res, &used, &error))
    fail_msg ("%s: %s", upstream_case, error->message);
  if (fs_resources_fits (&request, &free_res) != want_fit)
    {
      g_autofree char *request_text = describe (&request);
      g_autofree char *free_text = describe (&free_res);
      fail_msg ("%s: request %s against free %s should %s", upstream_case, request_text,
                free_text, want_fit ? "fit" : "not fit");
    }
}

#define CPU_MEM(cpu, memory) RES ({ "cpu", cpu }, { "memory", memory })

static void
test_fits_enough_requests (void **state)
{
  check_enough ("TestEnoughRequests/no resources requested always fits", NO_CONTAINERS,
                NO_CONTAINERS, NULL, NULL, CPU_MEM (10, 20), TRUE);
  check_enough ("TestEnoughRequests/too many resources fails", LIST (container (CPU_MEM (1, 1))),
                NO_CONTAINERS, NULL, NULL, CPU_MEM (10, 20), FALSE);
  check_enough ("TestEnoughRequests/too many resources fails due to init container cpu",
                LIST (container (CPU_MEM (1, 1))), LIST (container (CPU_MEM (3, 1))), NULL, NULL,
                CPU_MEM (8, 19), FALSE);
  check_enough ("TestEnoughRequests/too many resources fails due to highest init container cpu",
                LIST (container (CPU_MEM (1, 1))),
                LIST (container (CPU_MEM (3, 1)), container (CPU_MEM (2, 1))), NULL, NULL,
                CPU_MEM (8, 19), FALSE);
  check_enough ("TestEnoughRequests/too many resources fails due to init container memory",
                LIST (container (CPU_MEM (1, 1))), LIST (container (CPU_MEM (1, 3))), NULL, NULL,
                CPU_MEM (9, 19), FALSE);
  check_enough ("TestEnoughRequests/too many resources fails due to highest init container memory",
                LIST (container (CPU_MEM (1, 1))),
                LIST (container (CPU_MEM (1, 3)), container (CPU_MEM (1, 2))), NULL, NULL,
                CPU_MEM (9, 19), FALSE);
  check_enough ("TestEnoughRequests/init container fits because it's the max, not sum, of "
                "containers and init containers",
                LIST (container (CPU_MEM (1, 1))), LIST (container (CPU_MEM (1, 1))), NULL, NULL,
                CPU_MEM (9, 19), TRUE);
  check_enough ("TestEnoughRequests/multiple init containers fit because it's the max, not sum, "
                "of containers and init containers",
                LIST (container (CPU_MEM (1, 1))),
                LIST (container (CPU_MEM (1, 1)), container (CPU_MEM (1, 1))), NULL, NULL,
                CPU_MEM (9, 19), TRUE);
  check_enough ("TestEnoughRequests/both resources fit", LIST (container (CPU_MEM (1, 1))),
                NO_CONTAINERS, NULL, NULL, CPU_MEM (5, 5), TRUE);
  check_enough ("TestEnoughRequests/one resource memory fits", LIST (container (CPU_MEM (2, 1))),
                NO_CONTAINERS, NULL, NULL, CPU_MEM (9, 5), FALSE);
  check_enough ("TestEnoughRequests/one resource cpu fits", LIST (container (CPU_MEM (1, 2))),
                NO_CONTAINERS, NULL, NULL, CPU_MEM (5, 19), FALSE);
  check_enough ("TestEnoughRequests/equal edge case", LIST (container (CPU_MEM (5, 1))),
                NO_CONTAINERS, NULL, NULL, CPU_MEM (5, 19), TRUE);
  check_enough ("TestEnoughRequests/equal edge case for init container",
                LIST (container (CPU_MEM (4, 1))), LIST (container (CPU_MEM (5, 1))), NULL, NULL,
                CPU_MEM (5, 19), TRUE);
  check_enough ("TestEnoughRequests/extended resource fits",
                LIST (container (RES ({ EXTENDED_A, 1 }))), NO_CONTAINERS, NULL, NULL, NONE, TRUE);
  check_enough ("TestEnoughRequests/extended resource fits for init container",
                LIST (container (NONE)), LIST (container (RES ({ EXTENDED_A, 1 }))), NULL, NULL,
                NONE, TRUE);
  check_enough ("TestEnoughRequests/extended resource capacity enforced",
                LIST (container (RES ({ "cpu", 1 }, { "memory", 1 }, { EXTENDED_A, 10 }))),
                NO_CONTAINERS, NULL, NULL, RES ({ EXTENDED_A, 0 }), FALSE);
  check_enough ("TestEnoughRequests/extended resource capacity enforced for init container",
                LIST (container (NONE)),
                LIST (container (RES ({ "cpu", 1 }, { "memory", 1 }, { EXTENDED_A, 10 }))), NULL,
                NULL, RES ({ EXTENDED_A, 0 }), FALSE);
  check_enough ("TestEnoughRequests/extended resource allocatable enforced",
                LIST (container (RES ({ "cpu", 1 }, { "memory", 1 }, { EXTENDED_A, 1 }))),
                NO_CONTAINERS, NULL, NULL, RES ({ EXTENDED_A, 5 }), FALSE);
  check_enough ("TestEnoughRequests/extended resource allocatable enforced for init container",
                LIST (container (NONE)),
                LIST (container (RES ({ "cpu", 1 }, { "memory", 1 }, { EXTENDED_A, 1 }))), NULL,
                NULL, RES ({ EXTENDED_A, 5 }), FALSE);
  check_enough ("TestEnoughRequests/extended resource allocatable enforced for multiple "
                "containers",
                LIST (container (RES ({ "cpu", 1 }, { "memory", 1 }, { EXTENDED_A, 3 })),
                      container (RES ({ "cpu", 1 }, { "memory", 1 }, { EXTENDED_A, 3 }))),
                NO_CONTAINERS, NULL, NULL, RES ({ EXTENDED_A, 2 }), FALSE);
  check_enough ("TestEnoughRequests/extended resource allocatable admits multiple init "
                "containers",
                LIST (container (NONE)),
                LIST (container (RES ({ "cpu", 1 }, { "memory", 1 }, { EXTENDED_A, 3 })),
                      container (RES ({ "cpu", 1 }, { "memory", 1 }, { EXTENDED_A, 3 }))),
                NULL, NULL, RES ({ EXTENDED_A, 2 }), TRUE);
  check_enough ("TestEnoughRequests/extended resource allocatable enforced for multiple init "
                "containers",
                LIST (container (NONE)),
                LIST (container (RES ({ "cpu", 1 }, { "memory", 1 }, { EXTENDED_A, 6 })),
                      container (RES ({ "cpu", 1 }, { "memory", 1 }, { EXTENDED_A, 3 }))),
                NULL, NULL, RES ({ EXTENDED_A, 2 }), FALSE);
  check_enough ("TestEnoughRequests/extended resource allocatable enforced for unknown resource",
                LIST (container (RES ({ "cpu", 1 }, { "memory", 1 }, { EXTENDED_B, 1 }))),
                NO_CONTAINERS, NULL, NULL, NONE, FALSE);
  check_enough ("TestEnoughRequests/extended resource allocatable enforced for unknown resource "
                "for init container",
                LIST (container (NONE)),
                LIST (container (RES ({ "cpu", 1 }, { "memory", 1 }, { EXTENDED_B, 1 }))), NULL,
                NULL, NONE, FALSE);
  check_enough ("TestEnoughRequests/kubernetes.io resource capacity enforced",
                LIST (container (RES ({ "cpu", 1 }, { "memory", 1 }, { KUBERNETES_IO_A, 10 }))),
                NO_CONTAINERS, NULL, NULL, NONE, FALSE);
  check_enough ("TestEnoughRequests/kubernetes.io resource capacity enforced for init container",
                LIST (container (NONE)),
                LIST (container (RES ({ "cpu", 1 }, { "memory", 1 }, { KUBERNETES_IO_B, 10 }))),
                NULL, NULL, NONE, FALSE);
  check_enough ("TestEnoughRequests/hugepages resource capacity enforced",
                LIST (container (RES ({ "cpu", 1 }, { "memory", 1 }, { HUGEPAGES_2MI, 10 }))),
                NO_CONTAINERS, NULL, NULL, RES ({ HUGEPAGES_2MI, 0 }), FALSE);
  check_enough ("TestEnoughRequests/hugepages resource capacity enforced for init container",
                LIST (container (NONE)),
                LIST (container (RES ({ "cpu", 1 }, { "memory", 1 }, { HUGEPAGES_2MI, 10 }))),
                NULL, NULL, RES ({ HUGEPAGES_2MI, 0 }), FALSE);
  check_enough ("TestEnoughRequests/hugepages resource allocatable enforced for multiple "
                "containers",
                LIST (container (RES ({ "cpu", 1 }, { "memory", 1 }, { HUGEPAGES_2MI, 3 })),
                      container (RES ({ "cpu", 1 }, { "memory", 1 }, { HUGEPAGES_2MI, 3 }))),
                NO_CONTAINERS, NULL, NULL, RES ({ HUGEPAGES_2MI, 2 }), FALSE);

  FsResources overhead_fits = CPU_MEM (3, 13);
  FsResources overhead_too_much = CPU_MEM (1, 15);
  check_enough ("TestEnoughRequests/resources + pod overhead fits",
                LIST (container (CPU_MEM (1, 1))), NO_CONTAINERS, NULL, &overhead_fits,
                CPU_MEM (5, 5), TRUE);
  check_enough ("TestEnoughRequests/requests + overhead does not fit for memory",
                LIST (container (CPU_MEM (1, 1))), NO_CONTAINERS, NULL, &overhead_too_much,
                CPU_MEM (5, 5), FALSE);

  check_enough ("TestEnoughRequests/skip checking extended resource request with quantity zero "
                "via resource groups",
                LIST (container (RES ({ "cpu", 1 }, { "memory", 1 }, { EXTENDED_A, 0 }))),
                NO_CONTAINERS, NULL, NULL, RES ({ EXTENDED_A, 6 }), TRUE);
  check_enough ("TestEnoughRequests/skip checking resource request with quantity zero",
                LIST (container (RES ({ "cpu", 0 }, { "memory", 0 }, { EXTENDED_A, 1 }))),
                NO_CONTAINERS, NULL, NULL,
                RES ({ "cpu", 20 }, { "memory", 30 }, { EXTENDED_A, 1 }), TRUE);

  FsResources pod_1m_2 = CPU_MEM (1, 2);
  FsResources pod_7m_2 = CPU_MEM (7, 2);
  FsResources pod_3m_2 = CPU_MEM (3, 2);
  FsResources pod_huge_5 = RES ({ "cpu", 3 }, { "memory", 2 }, { HUGEPAGES_2MI, 5 });
  FsResources pod_huge_10 = RES ({ "cpu", 3 }, { "memory", 2 }, { HUGEPAGES_2MI, 10 });
  check_enough ("TestEnoughRequests/both pod-level and container-level resources fit",
                LIST (container (CPU_MEM (1, 1))), NO_CONTAINERS, &pod_1m_2, NULL,
                CPU_MEM (5, 5), TRUE);
  check_enough ("TestEnoughRequests/pod-level cpu resource not fit",
                LIST (container (CPU_MEM (1, 1))), NO_CONTAINERS, &pod_7m_2, NULL,
                CPU_MEM (5, 5), FALSE);
  check_enough ("TestEnoughRequests/pod-level memory resource not fit",
                LIST (container (CPU_MEM (1, 1))), NO_CONTAINERS, &pod_3m_2, NULL,
                CPU_MEM (5, 19), FALSE);
  check_enough ("TestEnoughRequests/pod-level hugepages resource fit", NO_CONTAINERS,
                NO_CONTAINERS, &pod_huge_5, NULL, NONE, TRUE);
  check_enough ("TestEnoughRequests/both pod-level and container-level hugepages resource fit",
                LIST (container (RES ({ "cpu", 1 }, { "memory", 1 }, { HUGEPAGES_2MI, 3 }))),
                NO_CONTAINERS, &pod_huge_5, NULL, NONE, TRUE);
  check_enough ("TestEnoughRequests/pod-level hugepages resource not fit", NO_CONTAINERS,
                NO_CONTAINERS, &pod_huge_10, NULL, NONE, FALSE);
  check_enough ("TestEnoughRequests/one pod-level cpu resource fits and all init and non-init "
                "containers resources fit",
                LIST (container (CPU_MEM (1, 1))), LIST (container (CPU_MEM (1, 1))), &pod_3m_2,
                NULL, CPU_MEM (5, 19), FALSE);
}

/* ---------------------------------------------------------------------------------------------
 * Effective request: the table of scheduler-fit.md §1.1, then the upstream helpers_test.go cases.
 * "requests" only; cases that read pod status (UseStatusResources, in-place resize), DRA claim
 * statuses or NonMissingContainerRequests are not transcribed: the API has no such inputs.
 * ExcludeOverhead / SkipPodLevelResources are passed as a NULL overhead / pod_level. */

#define CPU(cores) RES ({ "cpu", (cores) * 1000 })

static void
test_effective_reference_table (void **state)
{
  FsResources overhead = RES ({ "cpu", 1000 }, { "memory", GiB });
  check_effective ("init 4 / containers 1", LIST (container (CPU (1))), LIST (container (CPU (4))),
                   NULL, NULL, CPU (4));
  check_effective ("init 2 / containers 2+3", LIST (container (CPU (2)), container (CPU (3))),
                   LIST (container (CPU (2))), NULL, NULL, CPU (5));
  check_effective ("sidecar 1 / containers 1", LIST (container (CPU (1))),
                   LIST (sidecar (CPU (1))), NULL, NULL, CPU (2));
  check_effective ("init 5, sidecar 1, sidecar 2, sidecar 3 / containers 1",
                   LIST (container (CPU (1))),
                   LIST (container (CPU (5)), sidecar (CPU (1)), sidecar (CPU (2)),
                         sidecar (CPU (3))),
                   NULL, NULL, CPU (7));
  check_effective ("init 5, sidecar 1, sidecar 2, init 5, sidecar 3 / containers 1",
                   LIST (container (CPU (1))),
                   LIST (container (CPU (5)), sidecar (CPU (1)), sidecar (CPU (2)),
                         container (CPU (5)), sidecar (CPU (3))),
                   NULL, NULL, CPU (8));
  check_effective ("sidecar 10, init 200 / containers 100", LIST (container (CPU (100))),
                   LIST (sidecar (CPU (10)), container (CPU (200))), NULL, NULL, CPU (210));
  check_effective ("overhead {cpu 1, memory 1Gi} on init 2 / containers 2+3",
                   LIST (container (CPU (2)), container (CPU (3))), LIST (container (CPU (2))),
                   NULL, &overhead, RES ({ "cpu", 6000 }, { "memory", GiB }));
}

/* helpers_test.go TestPodRequestsAndLimits (requests); getPod puts the same requests on one
 * container and one init container. */
static void
test_effective_pod_requests_and_limits (void **state)
{
  FsResources cpu9_limit = RES ({ "cpu", 9000 });
  FsResources overhead_5_5 = RES ({ "cpu", 5000 }, { "memory", 5 });
  FsResources req_1_10 = RES ({ "cpu", 1000 }, { "memory", 10 });
  FsResources want_6_15 = RES ({ "cpu", 6000 }, { "memory", 15 });

  check_effective ("TestPodRequestsAndLimits/just-limit-no-overhead",
                   LIST (limited (NONE, cpu9_limit)), LIST (limited (NONE, cpu9_limit)), NULL,
                   NULL, NONE);
  check_effective ("TestPodRequestsAndLimits/just-overhead", LIST (container (NONE)),
                   LIST (container (NONE)), NULL, &overhead_5_5, overhead_5_5);
  check_effective ("TestPodRequestsAndLimits/req-and-overhead", LIST (container (req_1_10)),
                   LIST (container (req_1_10)), NULL, &overhead_5_5, want_6_15);
  check_effective ("TestPodRequestsAndLimits/all-req-lim-and-overhead",
                   LIST (limited (req_1_10, RES ({ "cpu", 2000 }, { "memory", 12 }))),
                   LIST (limited (req_1_10, RES ({ "cpu", 2000 }, { "memory", 12 }))), NULL,
                   &overhead_5_5, want_6_15);
  check_effective ("TestPodRequestsAndLimits/req-some-lim-and-overhead",
                   LIST (limited (req_1_10, RES ({ "cpu", 2000 }))),
                   LIST (limited (req_1_10, RES ({ "cpu", 2000 }))), NULL, &overhead_5_5,
                   want_6_15);
}

/* helpers_test.go TestPodRequestsAndLimitsWithoutOverhead (ExcludeOverhead: overhead NULL). */
static void
test_effective_without_overhead (void **state)
{
  FsResources foobar = RES ({ "cpu", 1000 }, { "memory", 5 });
  FsResources foobar2 = RES ({ "cpu", 4000 }, { "memory", 12 });
  FsResources want = RES ({ "cpu", 5000 }, { "memory", 17 });
  check_effective ("TestPodRequestsAndLimitsWithoutOverhead/two container no overhead - should "
                   "just be sum of containers",
                   LIST (container (foobar), container (foobar2)), NO_CONTAINERS, NULL, NULL,
                   want);
  check_effective ("TestPodRequestsAndLimitsWithoutOverhead/two container with overhead - "
                   "shouldn't consider overhead",
                   LIST (container (foobar), container (foobar2)), NO_CONTAINERS, NULL, NULL,
                   want);
  check_effective ("TestPodRequestsAndLimitsWithoutOverhead/two container with overhead, massive "
                   "init - should just be the largest init",
                   LIST (container (foobar), container (foobar2)),
                   LIST (container (RES ({ "cpu", 1000 }, { "memory", 5 })),
                         container (RES ({ "cpu", 40000 }, { "memory", 120 }))),
                   NULL, NULL, RES ({ "cpu", 40000 }, { "memory", 120 }));
}

/* helpers_test.go TestPodResourceRequests and TestPodResourceRequestsReuse (spec cases). */
static void
test_effective_pod_resource_requests (void **state)
{
  FsResources overhead_cpu_memory = RES ({ "cpu", 1000 }, { "memory", GiB });

  check_effective ("TestPodResourceRequests/nil options, larger init container",
                   LIST (container (CPU (1))), LIST (container (CPU (4))), NULL, NULL, CPU (4));
  check_effective ("TestPodResourceRequests/nil options, larger containers",
                   LIST (container (CPU (2)), container (CPU (3))), LIST (container (CPU (2))),
                   NULL, NULL, CPU (5));
  /* "pod overhead excluded" sets ExcludeOverhead: its overhead {cpu 1} is not passed */
  check_effective ("TestPodResourceRequests/pod overhead excluded",
                   LIST (container (CPU (2)), container (CPU (3))), LIST (container (CPU (2))),
                   NULL, NULL, CPU (5));
  check_effective ("TestPodResourceRequests/pod overhead included",
                   LIST (container (CPU (2)), container (CPU (3))),
                   LIST (limited (CPU (2), CPU (2))), NULL, &overhead_cpu_memory,
                   RES ({ "cpu", 6000 }, { "memory", GiB }));
  check_effective ("TestPodResourceRequests/resized, infeasible, but don't use status",
                   LIST (container (CPU (4))), NO_CONTAINERS, NULL, NULL, CPU (4));
  check_effective ("TestPodResourceRequests/resized, restartable init container, infeasible, but "
                   "don't use status",
                   NO_CONTAINERS, LIST (sidecar (CPU (4))), NULL, NULL, CPU (4));
  check_effective ("TestPodResourceRequests/restartable init container",
                   LIST (container (CPU (1))), LIST (sidecar (CPU (1))), NULL, NULL, CPU (2));
  check_effective ("TestPodResourceRequests/multiple restartable init containers",
                   LIST (container (CPU (1))),
                   LIST (container (CPU (5)), sidecar (CPU (1)), sidecar (CPU (2)),
                         sidecar (CPU (3))),
                   NULL, NULL, CPU (7));
  check_effective ("TestPodResourceRequests/multiple restartable and regular init containers",
                   LIST (container (CPU (1))),
                   LIST (container (CPU (5)), sidecar (CPU (1)), sidecar (CPU (2)),
                         container (CPU (5)), sidecar (CPU (3))),
                   NULL, NULL, CPU (8));
  check_effective ("TestPodResourceRequests/restartable-init, init and regular",
                   LIST (container (CPU (100))), LIST (sidecar (CPU (10)), container (CPU (200))),
                   NULL, NULL, CPU (210));
  check_effective ("TestPodResourceRequestsReuse", LIST (container (CPU (1))), NO_CONTAINERS,
                   NULL, NULL, CPU (1));
}

/* helpers_test.go TestPodLevelResourceRequests (cases without status). */
static void
test_effective_pod_level (void **state)
{
  FsResources empty = NONE;
  FsResources memory_2mi = RES ({ "memory", 2 * MiB });
  FsResources pod_6mi_8m = RES ({ "memory", 6 * MiB }, { "cpu", 8 });
  FsResources pod_15mi_18m = RES ({ "memory", 15 * MiB }, { "cpu", 18 });
  FsResources mem_3mi_cpu_2m = RES ({ "memory", 3 * MiB }, { "cpu", 2 });
  FsResources mem_5mi_cpu_4m = RES ({ "memory", 5 * MiB }, { "cpu", 4 });
  FsResources mem_6mi_cpu_8m = RES ({ "memory", 6 * MiB }, { "cpu", 8 });
  FsResources storage_2mi = RES ({ "storage", 2 * MiB }); /* IGNORED: stays empty */

  check_effective ("TestPodLevelResourceRequests/nil", NO_CONTAINERS, NO_CONTAINERS, &empty, NULL,
                   NONE);
  check_effective ("TestPodLevelResourceRequests/pod level memory resource with "
                   "SkipPodLevelResources true",
                   NO_CONTAINERS, NO_CONTAINERS, NULL, NULL, NONE);
  check_effective ("TestPodLevelResourceRequests/pod level memory resource with "
                   "SkipPodLevelResources false",
                   NO_CONTAINERS, NO_CONTAINERS, &memory_2mi, NULL, memory_2mi);
  check_effective ("TestPodLevelResourceRequests/pod level memory and container level cpu "
                   "resources with SkipPodLevelResources false",
                   LIST (container (RES ({ "cpu", 2 }))), NO_CONTAINERS, &memory_2mi, NULL,
                   RES ({ "memory", 2 * MiB }, { "cpu", 2 }));
  /* Upstream keeps {storage: 3Mi}; "storage" is IGNORED here (the scheduler's Resource.Add drops
   * it too), so nothing is left. */
  check_effective ("TestPodLevelResourceRequests/pod level unsupported resources set at both "
                   "pod-level and container-level with SkipPodLevelResources false",
                   LIST (container (RES ({ "storage", 3 * MiB }))), NO_CONTAINERS, &storage_2mi,
                   NULL, NONE);
  check_effective ("TestPodLevelResourceRequests/pod level unsupported resources set at "
                   "pod-level with SkipPodLevelResources false",
                   LIST (container (RES ({ "memory", 3 * MiB }))), NO_CONTAINERS, &storage_2mi,
                   NULL, RES ({ "memory", 3 * MiB }));
  check_effective ("TestPodLevelResourceRequests/only container level resources set with "
                   "SkipPodLevelResources false",
                   LIST (container (mem_3mi_cpu_2m)), NO_CONTAINERS, &empty, NULL,
                   mem_3mi_cpu_2m);
  check_effective ("TestPodLevelResourceRequests/both container-level and pod-level resources "
                   "set with SkipPodLevelResources false",
                   LIST (container (mem_3mi_cpu_2m)), NO_CONTAINERS, &pod_6mi_8m, NULL,
                   pod_6mi_8m);
  check_effective ("TestPodLevelResourceRequests/container-level resources and init container "
                   "set with SkipPodLevelResources false",
                   LIST (container (mem_3mi_cpu_2m)), LIST (container (mem_5mi_cpu_4m)), &empty,
                   NULL, mem_5mi_cpu_4m);
  check_effective ("TestPodLevelResourceRequests/container-level resources and init container "
                   "set with SkipPodLevelResources true",
                   LIST (container (mem_3mi_cpu_2m)), LIST (container (mem_5mi_cpu_4m)), NULL,
                   NULL, mem_5mi_cpu_4m);
  check_effective ("TestPodLevelResourceRequests/container-level resources and sidecar container "
                   "set with SkipPodLevelResources false",
                   LIST (container (mem_3mi_cpu_2m)), LIST (sidecar (mem_5mi_cpu_4m)), &empty,
                   NULL, RES ({ "memory", 8 * MiB }, { "cpu", 6 }));
  check_effective ("TestPodLevelResourceRequests/container-level resources, init and sidecar "
                   "container set with SkipPodLevelResources false",
                   LIST (container (mem_3mi_cpu_2m)),
                   LIST (sidecar (mem_5mi_cpu_4m), container (mem_6mi_cpu_8m)), &empty, NULL,
                   RES ({ "memory", 11 * MiB }, { "cpu", 12 }));
  check_effective ("TestPodLevelResourceRequests/pod-level resources, container-level resources, "
                   "init and sidecar container set with SkipPodLevelResources false",
                   LIST (container (mem_3mi_cpu_2m)),
                   LIST (sidecar (mem_5mi_cpu_4m), container (mem_6mi_cpu_8m)), &pod_15mi_18m,
                   NULL, pod_15mi_18m);

  FsResources huge_single = RES ({ "memory", 10 * MiB }, { HUGEPAGES_2MI, 2 * MiB });
  check_effective ("TestPodLevelResourceRequests/pod-level resources, hugepage request/limit "
                   "single page size",
                   NO_CONTAINERS, NO_CONTAINERS, &huge_single, NULL, huge_single);
  FsResources huge_multiple = RES ({ "cpu", 1000 }, { HUGEPAGES_2MI, 2 * MiB },
                                   { HUGEPAGES_1GI, GiB });
  check_effective ("TestPodLevelResourceRequests/pod-level resources, hugepage request/limit "
                   "multiple page sizes",
                   NO_CONTAINERS, NO_CONTAINERS, &huge_multiple, NULL, huge_multiple);
  FsResources pod_cpu_huge_10mi = RES ({ "cpu", 1000 }, { HUGEPAGES_2MI, 10 * MiB });
  check_effective ("TestPodLevelResourceRequests/pod-level resources, container-level resources, "
                   "hugepage request/limit single page size",
                   LIST (limited (RES ({ HUGEPAGES_2MI, 6 * MiB }),
                                  RES ({ HUGEPAGES_2MI, 6 * MiB }))),
                   NO_CONTAINERS, &pod_cpu_huge_10mi, NULL, pod_cpu_huge_10mi);
  FsResources pod_cpu_huge_both = RES ({ "cpu", 1000 }, { HUGEPAGES_2MI, 10 * MiB },
                                       { HUGEPAGES_1GI, 2 * GiB });
  check_effective ("TestPodLevelResourceRequests/pod-level resources, container-level resources, "
                   "hugepage request/limit multiple page sizes",
                   LIST (limited (RES ({ "cpu", 1000 }, { HUGEPAGES_1GI, 2 * GiB }),
                                  RES ({ HUGEPAGES_1GI, 2 * GiB }))),
                   NO_CONTAINERS, &pod_cpu_huge_both, NULL, pod_cpu_huge_both);
  check_effective ("TestPodLevelResourceRequests/pod-level resources, container-level resources, "
                   "hugepage request/limit multiple page sizes between pod-level and "
                   "container-level",
                   LIST (limited (RES ({ "memory", 4 * MiB }, { HUGEPAGES_1GI, GiB }),
                                  RES ({ HUGEPAGES_1GI, GiB }))),
                   NO_CONTAINERS, &pod_cpu_huge_10mi, NULL,
                   RES ({ "cpu", 1000 }, { "memory", 4 * MiB }, { HUGEPAGES_2MI, 10 * MiB },
                        { HUGEPAGES_1GI, GiB }));
}

/* helpers_test.go TestAggregateContainerRequestsAndLimits (requests, spec cases) and
 * TestPodRequestsAndLimitsWithDRA cases without claim statuses. */
static void
test_effective_aggregate (void **state)
{
  check_effective ("TestAggregateContainerRequestsAndLimits/one container with limits",
                   LIST (limited (NONE, CPU (9))), NO_CONTAINERS, NULL, NULL, NONE);
  check_effective ("TestAggregateContainerRequestsAndLimits/two containers with limits",
                   LIST (limited (NONE, CPU (9)), limited (NONE, CPU (9))), NO_CONTAINERS, NULL,
                   NULL, NONE);
  check_effective ("TestAggregateContainerRequestsAndLimits/one container with requests",
                   LIST (container (CPU (9))), NO_CONTAINERS, NULL, NULL, CPU (9));
  check_effective ("TestAggregateContainerRequestsAndLimits/two containers with requests",
                   LIST (container (CPU (9)), container (CPU (9))), NO_CONTAINERS, NULL, NULL,
                   CPU (18));
  check_effective ("TestAggregateContainerRequestsAndLimits/regular and init containers with "
                   "requests",
                   LIST (container (CPU (9))), LIST (container (CPU (9))), NULL, NULL, CPU (9));
  check_effective ("TestAggregateContainerRequestsAndLimits/regular, init and sidecar containers "
                   "with requests",
                   LIST (container (CPU (9))), LIST (sidecar (CPU (8)), container (CPU (6))),
                   NULL, NULL, CPU (17));
  check_effective ("TestAggregateContainerRequestsAndLimits/regular and init containers with "
                   "limits",
                   LIST (limited (NONE, CPU (9))), LIST (limited (NONE, CPU (9))), NULL, NULL,
                   NONE);
  FsContainer sidecar_limit = limited (NONE, CPU (8));
  sidecar_limit.restartable = TRUE;
  check_effective ("TestAggregateContainerRequestsAndLimits/regular, init and sidecar containers "
                   "with limits",
                   LIST (limited (NONE, CPU (9))), LIST (sidecar_limit, limited (NONE, CPU (6))),
                   NULL, NULL, NONE);

  FsResources c1 = RES ({ "cpu", 100 }, { "memory", GiB });
  check_effective ("TestPodRequestsAndLimitsWithDRA/No claims", LIST (limited (c1, c1)),
                   NO_CONTAINERS, NULL, NULL, c1);
  check_effective ("TestPodRequestsAndLimitsWithDRA/UseDRANodeAllocatableResourceClaimStatus "
                   "flag disabled",
                   LIST (limited (RES ({ "cpu", 100 }), RES ({ "cpu", 100 }))), NO_CONTAINERS,
                   NULL, NULL, RES ({ "cpu", 100 }));
}

/* Rules of our own API around the upstream cases. */
static void
test_effective_details (void **state)
{
  check_effective ("a container's pods request is dropped",
                   LIST (container (RES ({ "pods", 5 }, { "cpu", 1 }))),
                   LIST (container (RES ({ "pods", 7 }))), NULL, NULL, RES ({ "cpu", 1 }));

  FsResources pod_level_other = RES ({ "ephemeral-storage", 1 }, { GPU, 1 }, { "pods", 1 });
  check_effective ("pod-level ephemeral-storage, extended and pods are ignored",
                   LIST (container (RES ({ "ephemeral-storage", 3 }, { GPU, 2 }))), NO_CONTAINERS,
                   &pod_level_other, NULL, RES ({ "ephemeral-storage", 3 }, { GPU, 2 }));

  FsResources pod_level_zero_cpu = RES ({ "cpu", 0 });
  check_effective ("a pod-level cpu of 0 replaces the containers' cpu",
                   LIST (container (RES ({ "cpu", 500 }, { "memory", 9 }))), NO_CONTAINERS,
                   &pod_level_zero_cpu, NULL, RES ({ "cpu", 0 }, { "memory", 9 }));

  check_effective ("a pod-level cpu of 0 is given even when no container asks for cpu",
                   LIST (container (RES ({ "memory", 9 }))), NO_CONTAINERS, &pod_level_zero_cpu,
                   NULL, RES ({ "cpu", 0 }, { "memory", 9 }));

  FsResources overhead = RES ({ "cpu", 10 }, { "pods", 1 });
  check_effective ("overhead is added after the pod-level replacement",
                   LIST (container (CPU (1))), NO_CONTAINERS, &pod_level_zero_cpu, &overhead,
                   RES ({ "cpu", 10 }));

  check_effective ("extended resources follow the sidecar rule",
                   LIST (container (RES ({ GPU, 1 }))),
                   LIST (container (RES ({ GPU, 4 })), sidecar (RES ({ GPU, 2 })),
                         container (RES ({ GPU, 1 }))),
                   NULL, NULL, RES ({ GPU, 4 }));

  FsResources sum_saturated = RES ({ "memory", G_MAXINT64 });
  check_effective ("sums saturate",
                   LIST (container (sum_saturated), container (sum_saturated)), NO_CONTAINERS,
                   NULL, NULL, sum_saturated);
}

static void
test_effective_limit (void **state)
{
  FsResources full = full_extended ();
  FsResources overhead = RES ({ many_names[FS_RES_MAX_EXTENDED], 1 });
  FsResources out = RES ({ "cpu", 77 });
  FsResources before = out;
  GError *error = NULL;
  gboolean ok = fs_pod_effective_request (LIST (container (full)), NO_CONTAINERS, NULL, &overhead,
                                          &out, &error);
  assert_limit_error (ok, error);
  g_clear_error (&error);
  assert_resources_equal ("out after a failure", &out, &before);

  ok = fs_pod_effective_request (LIST (container (full)), LIST (container (overhead)), NULL, NULL,
                                 &out, &error);
  assert_limit_error (ok, error);
  g_clear_error (&error);
}

/* ---------------------------------------------------------------------------------------------
 * Defaulting */

/* defaults_test.go TestSetDefaultRequestsPod: limits cpu 100m, memory 1Gi with an explicit
 * memory request of 0 default the cpu request to 100m and keep memory at 0; the same for an
 * init container (the caller runs this on both). */
static void
test_default_requests_pod (void **state)
{
  FsContainer c = limited (RES ({ "memory", 0 }), RES ({ "cpu", 100 }, { "memory", GiB }));
  assert_true (fs_container_default_requests (&c, NULL));
  FsResources want = RES ({ "cpu", 100 }, { "memory", 0 });
  assert_resources_equal ("TestSetDefaultRequestsPod", &c.requests, &want);
  FsResources limits = RES ({ "cpu", 100 }, { "memory", GiB });
  assert_resources_equal ("limits untouched", &c.limits, &limits);

  /* "verify we do nothing if no limits are specified" */
  FsContainer empty = container (NONE);
  assert_true (fs_container_default_requests (&empty, NULL));
  FsResources none = NONE;
  assert_resources_equal ("TestSetDefaultRequestsPod/no limits", &empty.requests, &none);
}

static void
test_default_requests_all_kinds (void **state)
{
  FsContainer c = limited (RES ({ "cpu", 5 }, { HUGEPAGES_2MI, 2 * MiB }),
                           RES ({ "cpu", 50 }, { "memory", 0 }, { "ephemeral-storage", 3 },
                                { "pods", 1 }, { GPU, 2 }, { HUGEPAGES_2MI, 4 * MiB },
                                { EXTENDED_A, 0 }));
  assert_true (fs_container_default_requests (&c, NULL));
  /* a limit of 0 gives a request of 0 (the key is copied, like the map entry upstream) */
  FsResources want = RES ({ "cpu", 5 }, { "memory", 0 }, { "ephemeral-storage", 3 },
                         { "pods", 1 }, { GPU, 2 }, { HUGEPAGES_2MI, 2 * MiB }, { EXTENDED_A, 0 });
  assert_resources_equal ("defaulted", &c.requests, &want);
}

static void
test_default_requests_limit (void **state)
{
  FsContainer c = limited (full_extended (), RES ({ many_names[FS_RES_MAX_EXTENDED], 1 },
                                                  { "cpu", 1 }));
  FsContainer before = c;
  GError *error = NULL;
  gboolean ok = fs_container_default_requests (&c, &error);
  assert_limit_error (ok, error);
  g_clear_error (&error);
  assert_resources_equal ("requests after a failure", &c.requests, &before.requests);
}

/* fs_resources_floor_zero: a node overcommitted in cpu and a GPU has nothing free of them, and
 * the rest of what it has free is kept (issue 16: capacity summed negative free). */
static void
test_floor_zero (void **state)
{
  FsResources free_res = RES ({ "cpu", 2000 }, { "memory", 1024 }, { "nvidia.com/gpu", 1 });
  FsResources used = RES ({ "cpu", 3000 }, { "memory", 24 }, { "nvidia.com/gpu", 2 });
  assert_true (fs_resources_sub (&free_res, &used, NULL));
  assert_int_equal (free_res.cpu_milli, -1000);
  fs_resources_floor_zero (&free_res);
  assert_int_equal (free_res.cpu_milli, 0);
  assert_int_equal (free_res.memory_bytes, 1000);
  assert_int_equal (fs_resources_get (&free_res, "nvidia.com/gpu"), 0);
  FsResources total = RES ({ "cpu", 1000 });
  assert_true (fs_resources_add (&total, &free_res, NULL));
  assert_int_equal (total.cpu_milli, 1000);
}

/* fitscale-only: the rounding helpers saturate at the int64 edges instead of wrapping (the
 * (amount / MiB + 1) * MiB of a 100Pi VPA target wrapped negative and flipped the plan). */
static void
test_rounding_at_int64_edges (void **state)
{
  (void) state;
  assert_int_equal (fs_div_ceil (1500, 1000), 2);
  assert_int_equal (fs_div_ceil (2000, 1000), 2);
  assert_int_equal (fs_div_ceil (0, 1000), 0);
  assert_int_equal (fs_div_ceil (-1500, 1000), -1);
  assert_int_equal (fs_div_ceil (G_MAXINT64, 1000), G_MAXINT64 / 1000 + 1);
  assert_int_equal (fs_div_ceil (G_MININT64, 1000), G_MININT64 / 1000);
  assert_int_equal (fs_round_up (MiB + 1, MiB), 2 * MiB);
  assert_int_equal (fs_round_up (MiB, MiB), MiB);
  assert_int_equal (fs_round_up (G_MAXINT64, MiB), G_MAXINT64 / MiB * MiB);
  assert_int_equal (fs_round_up (G_MAXINT64 - 1, 1000), G_MAXINT64 / 1000 * 1000);
  assert_int_equal (fs_round_up (G_MININT64, MiB), G_MININT64 / MiB * MiB);
  assert_int_equal (fs_saturating_add (G_MAXINT64, 1), G_MAXINT64);
  assert_int_equal (fs_saturating_add (G_MININT64, -1), G_MININT64);
  assert_int_equal (fs_saturating_sub (G_MININT64, 1), G_MININT64);
  assert_int_equal (fs_saturating_sub (G_MAXINT64, -1), G_MAXINT64);
}

/* The one formatter of quantities for people (issue 20): kubectl's units, no "0Ki", no bytes
 * beyond 1Ki, no millicores past 10 cores, an exact quantity kept as written. */
static void
test_format_for_people (void **state)
{
  (void) state;
  char buf[32];
  assert_string_equal (fs_format_for_people ("memory", 0, buf), "0");
  assert_string_equal (fs_format_for_people ("memory", 512, buf), "512");
  assert_string_equal (fs_format_for_people ("memory", 16LL << 30, buf), "16Gi");
  assert_string_equal (fs_format_for_people ("memory", 2000LL << 20, buf), "2000Mi");
  assert_string_equal (fs_format_for_people ("memory", 16678711296LL, buf), "15.5Gi");
  assert_string_equal (fs_format_for_people ("memory", 5476363000LL, buf), "5223Mi");
  assert_string_equal (fs_format_for_people ("memory", 1677722000LL, buf), "1600Mi"); /* not an overstated 1.6Gi */
  assert_string_equal (fs_format_for_people ("memory", 10LL << 30, buf), "10Gi");
  assert_string_equal (fs_format_for_people ("memory", (10LL << 30) - (60LL << 20), buf), "10180Mi");
  assert_string_equal (fs_format_for_people ("memory", 100000000, buf), "95Mi");
  assert_string_equal (fs_format_for_people ("memory", 921600 + 1, buf), "900Ki");
  assert_string_equal (fs_format_for_people ("memory", (1LL << 30) - 1, buf), "1Gi");
  assert_string_equal (fs_format_for_people ("memory", G_MAXINT64, buf), "8Ei");
  assert_string_equal (fs_format_for_people ("memory", -(16LL << 30), buf), "-16Gi");
  assert_string_equal (fs_format_for_people ("ephemeral-storage", 0, buf), "0");
  assert_string_equal (fs_format_for_people ("hugepages-2Mi", 4LL << 20, buf), "4Mi");
  assert_string_equal (fs_format_for_people ("cpu", 0, buf), "0");
  assert_string_equal (fs_format_for_people ("cpu", 250, buf), "250m");
  assert_string_equal (fs_format_for_people ("cpu", 2000, buf), "2");
  assert_string_equal (fs_format_for_people ("cpu", 9710, buf), "9710m");
  assert_string_equal (fs_format_for_people ("cpu", 3940750, buf), "3940.75");
  assert_string_equal (fs_format_for_people ("cpu", 3920000, buf), "3920");
  assert_string_equal (fs_format_for_people ("cpu", 10001, buf), "10");
  assert_string_equal (fs_format_for_people ("nvidia.com/gpu", 2, buf), "2");
  assert_string_equal (fs_format_for_people ("pods", 110, buf), "110");
}

/* A limit scaled with its request, in the units the user wrote it in (issue 20). */
static void
test_format_like (void **state)
{
  (void) state;
  char buf[32];
  assert_string_equal (fs_format_like ("memory", 5476363000LL, 8LL << 30, 0, buf), "5223Mi");
  assert_string_equal (fs_format_like ("memory", 4294968000LL, 8LL << 30, 0, buf), "4Gi");
  assert_string_equal (fs_format_like ("memory", 4294968000LL, 8LL << 30, 4294967297LL, buf), "4097Mi");
  assert_string_equal (fs_format_like ("memory", 5476363000LL, 8000000000LL, 0, buf), "5476M");
  assert_string_equal (fs_format_like ("memory", 5476363000LL, 8388608LL * 1024 + 1024, 0, buf), "5348011Ki");
  assert_string_equal (fs_format_like ("memory", 5476363000LL, 8000000001LL, 0, buf), "5476363000");
  assert_string_equal (fs_format_like ("memory", 6LL << 30, 8LL << 30, 0, buf), "6Gi");
  char top[32]; /* saturated: a whole Mi, never a wrapped negative */
  assert_string_equal (fs_format_like ("memory", G_MAXINT64, 8LL << 30, 0, buf),
                       fs_format_amount ("memory", G_MAXINT64 - G_MAXINT64 % (1 << 20), top));
  assert_string_equal (fs_format_like ("cpu", 1333, 2000, 0, buf), "1333m");
}

/* The patch's requests: rounded up to the written unit, or exact in the most readable unit
 * (issue 20). */
static void
test_round_up_like_and_exact (void **state)
{
  (void) state;
  char buf[32];
  assert_int_equal (fs_round_up_like ("memory", 3476363000LL, 6LL << 30), 3316LL << 20);
  assert_int_equal (fs_round_up_like ("memory", 3316LL << 20, 6LL << 30), 3316LL << 20);
  assert_int_equal (fs_round_up_like ("memory", 3476363000LL, 6000000000LL), 3477000000LL);
  assert_int_equal (fs_round_up_like ("cpu", 1333, 2000), 1333);
  assert_int_equal (fs_round_up_like ("memory", G_MAXINT64, 8LL << 30), G_MAXINT64);
  assert_string_equal (fs_format_exact ("memory", 5476363264LL, buf), "5348011Ki");
  assert_string_equal (fs_format_exact ("memory", 5476363000LL, buf), "5476363k");
  assert_string_equal (fs_format_exact ("memory", 5476363001LL, buf), "5476363001");
  assert_string_equal (fs_format_exact ("memory", 1LL << 30, buf), "1Gi");
  assert_string_equal (fs_format_exact ("memory", 3477000000LL, buf), "3477M");
  assert_string_equal (fs_format_exact ("cpu", 1500, buf), "1500m");
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_rounding_at_int64_edges),
    cmocka_unit_test (test_format_for_people),
    cmocka_unit_test (test_format_like),
    cmocka_unit_test (test_round_up_like_and_exact),
    cmocka_unit_test (test_kind_fixed),
    cmocka_unit_test (test_kind_scalar),
    cmocka_unit_test (test_kind_ignored),
    cmocka_unit_test (test_kind_extended_length_limits),
    cmocka_unit_test (test_set_fixed_sets_present_even_for_zero),
    cmocka_unit_test (test_get_absent_is_zero),
    cmocka_unit_test (test_set_extended_sorted_and_borrowed),
    cmocka_unit_test (test_set_ignored_is_a_no_op),
    cmocka_unit_test (test_set_limit),
    cmocka_unit_test (test_add),
    cmocka_unit_test (test_add_saturates),
    cmocka_unit_test (test_sub),
    cmocka_unit_test (test_sub_saturates),
    cmocka_unit_test (test_max),
    cmocka_unit_test (test_arithmetic_limit_leaves_a_unchanged),
    cmocka_unit_test (test_equal),
    cmocka_unit_test (test_is_zero),
    cmocka_unit_test (test_fits_basic),
    cmocka_unit_test (test_fits_zero_request_on_overcommitted_node),
    cmocka_unit_test (test_fits_ignores_pods),
    cmocka_unit_test (test_fits_enough_requests),
    cmocka_unit_test (test_effective_reference_table),
    cmocka_unit_test (test_effective_pod_requests_and_limits),
    cmocka_unit_test (test_effective_without_overhead),
    cmocka_unit_test (test_effective_pod_resource_requests),
    cmocka_unit_test (test_effective_pod_level),
    cmocka_unit_test (test_effective_aggregate),
    cmocka_unit_test (test_effective_details),
    cmocka_unit_test (test_effective_limit),
    cmocka_unit_test (test_default_requests_pod),
    cmocka_unit_test (test_default_requests_all_kinds),
    cmocka_unit_test (test_default_requests_limit),
    cmocka_unit_test (test_floor_zero),
  };
  return cmocka_run_group_tests (tests, NULL, NULL);
}
