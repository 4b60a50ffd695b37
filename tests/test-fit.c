/* fitscale tests — model/fit.c: the scheduler's node filters and the FailedScheduling message.
 *
 * Most cases are transcribed from the upstream unit tests (kubernetes/kubernetes), each
 * naming its source file, test function and case name.  Upstream pods are written here as
 * their effective request (what PreFilter computes: containers summed, init containers
 * maxed, pod-level values replacing cpu/memory/hugepages, overhead added). */
#include "config.h"

#include <stdlib.h>

#include "testutil.h"
#include "fitscale/model/fit.h"
#include "fitscale/model/names.h"
#include "fitscale/model/pack.h"
#include "fitscale/model/schedconfig.h"
#include "fitscale/model/selector.h"

/* ---------------------------------------------------------------------------------------------
 * Building snapshot structs by hand */

static GPtrArray *garbage; /* everything the helpers allocate; freed by the group teardown */

static gpointer
keep (gpointer p)
{
  g_ptr_array_add (garbage, p);
  return p;
}

/* Key, value, key, value, ..., NULL: a label set sorted by key as the snapshot keeps it. */
static const FsLabelSet *
make_labels (const char *first_key, ...)
{
  guint n = 0;
  va_list ap;
  va_start (ap, first_key);
  for (const char *k = first_key; k != NULL; k = va_arg (ap, const char *))
    {
      (void) va_arg (ap, const char *);
      n++;
    }
  va_end (ap);
  FsLabelSet *set = keep (g_malloc0 (sizeof (FsLabelSet) + n * sizeof (FsLabel)));
  set->n = n;
  va_start (ap, first_key);
  guint i = 0;
  for (const char *k = first_key; k != NULL; k = va_arg (ap, const char *))
    {
      set->items[i].key = k;
      set->items[i].value = va_arg (ap, const char *);
      i++;
    }
  va_end (ap);
  qsort (set->items, n, sizeof (FsLabel), fs_label_compare);
  return set;
}
#define LABELS(...) make_labels (__VA_ARGS__, NULL)

static const FsTaintList *
make_taints (const FsTaint *items, guint n)
{
  FsTaintList *list = keep (g_malloc0 (sizeof (FsTaintList) + n * sizeof (FsTaint)));
  list->n = n;
  memcpy (list->items, items, n * sizeof (FsTaint));
  return list;
}
#define TAINTS(...)                                                                          \
  make_taints ((const FsTaint[]){ __VA_ARGS__ }, G_N_ELEMENTS (((const FsTaint[]){ __VA_ARGS__ })))

static const FsTolerationList *
make_tolerations (const FsToleration *items, guint n)
{
  FsTolerationList *list = keep (g_malloc0 (sizeof (FsTolerationList) + n * sizeof (FsToleration)));
  list->n = n;
  if (n > 0)
    memcpy (list->items, items, n * sizeof (FsToleration));
  return list;
}
#define TOLS(...)                                                                            \
  make_tolerations ((const FsToleration[]){ __VA_ARGS__ },                                   \
                    G_N_ELEMENTS (((const FsToleration[]){ __VA_ARGS__ })))
#define NO_TOLS make_tolerations (NULL, 0)

static const FsRequirementList *
make_requirements (const FsRequirement *items, guint n)
{
  FsRequirementList *list = keep (g_malloc0 (sizeof (FsRequirementList) + n * sizeof (FsRequirement)));
  list->n = n;
  if (n > 0)
    memcpy (list->items, items, n * sizeof (FsRequirement));
  return list;
}
#define REQS(...)                                                                            \
  make_requirements ((const FsRequirement[]){ __VA_ARGS__ },                                 \
                     G_N_ELEMENTS (((const FsRequirement[]){ __VA_ARGS__ })))
#define NO_REQS make_requirements (NULL, 0)
/* A requirement with values (the array lives as long as the enclosing block). */
#define REQ(k, o, ...)                                                                       \
  ((FsRequirement){ .key = (k), .op = (o),                                                   \
                    .n_values = G_N_ELEMENTS (((const char *const[]){ __VA_ARGS__ })),       \
                    .values = (const char *const[]){ __VA_ARGS__ } })
#define REQ0(k, o) ((FsRequirement){ .key = (k), .op = (o), .n_values = 0, .values = NULL })

static const FsNodeSelector *
make_node_selector (const FsNodeSelectorTerm *terms, guint n)
{
  FsNodeSelector *sel = keep (g_malloc0 (sizeof (FsNodeSelector) + n * sizeof (FsNodeSelectorTerm)));
  sel->n = n;
  if (n > 0)
    memcpy (sel->terms, terms, n * sizeof (FsNodeSelectorTerm));
  return sel;
}
#define TERMS(...)                                                                           \
  make_node_selector ((const FsNodeSelectorTerm[]){ __VA_ARGS__ },                           \
                      G_N_ELEMENTS (((const FsNodeSelectorTerm[]){ __VA_ARGS__ })))
#define TERM(exprs, fields) ((FsNodeSelectorTerm){ .match_expressions = (exprs), .match_fields = (fields) })

/* A pod: its placement, spec and shape in one place. */
typedef struct {
  FsPlacement placement;
  FsPodSpec spec;
  FsPodShape shape;
} TestPod;

static TestPod *
test_pod (void)
{
  TestPod *pod = keep (g_new0 (TestPod, 1));
  pod->spec.placement = &pod->placement;
  pod->shape.spec = &pod->spec;
  return pod;
}

/* A node that passes NodeResourcesFit for a pod that requests nothing. */
static FsNode *
test_node (const char *name, const FsLabelSet *labels, const FsTaintList *taints)
{
  FsNode *node = keep (g_new0 (FsNode, 1));
  node->name = name;
  node->labels = labels;
  node->taints = taints;
  node->allocatable.pods = 110;
  node->allocatable.present = FS_RES_PODS;
  return node;
}

static void
put (FsResources *res, const char *name, int64_t value)
{
  assert_true (fs_resources_set (res, name, value, NULL));
}

/* The reasons of VERDICT joined by "; " (caller frees). */
static char *
reasons_of (const FsVerdict *verdict)
{
  g_autoptr (GPtrArray) reasons = g_ptr_array_new_with_free_func (g_free);
  fs_verdict_reasons (verdict, reasons);
  g_ptr_array_add (reasons, NULL);
  return g_strjoinv ("; ", (char **) reasons->pdata);
}

#define CHECK(cond, name)                                                                    \
  do                                                                                         \
    {                                                                                        \
      if (!(cond))                                                                           \
        fail_msg ("case \"%s\": %s", (name), #cond);                                         \
    }                                                                                        \
  while (0)

#define CHECK_STR(got, want, name)                                                           \
  do                                                                                         \
    {                                                                                        \
      if (strcmp ((got), (want)) != 0)                                                       \
        fail_msg ("case \"%s\": got \"%s\", want \"%s\"", (name), (got), (want));            \
    }                                                                                        \
  while (0)

static const char *const EXT_A = "example.com/aaa";
static const char *const EXT_B = "example.com/bbb";
static const char *const K8S_IO_A = "kubernetes.io/something";
static const char *const K8S_IO_B = "subdomain.kubernetes.io/something";
static const char *const HUGE_A = "hugepages-2Mi";
static const char *const EXT_DRA = "extended.resource.dra.io/something";

/* ---------------------------------------------------------------------------------------------
 * NodeResourcesFit */

typedef enum {
  ALLOC_ENOUGH,     /* makeAllocatableResources(10, 20, 32, 5, 20, 5) */
  ALLOC_NOT_ENOUGH, /* makeAllocatableResources(10, 20, 1, 0, 0, 0) */
  ALLOC_SIDECAR,    /* makeAllocatableResources(2, 0, 1, 0, 0, 0) */
} AllocKind;

typedef struct {
  const char *name;
  AllocKind alloc;
  /* the incoming pod's effective request */
  int64_t cpu, mem, eph;
  const char *ext_name[2];
  int64_t ext[2];
  /* the node's load: pods on it and their summed request */
  int64_t on_node;
  int64_t used_cpu, used_mem, used_eph;
  const char *used_ext_name;
  int64_t used_ext;
  /* expected */
  gboolean fits;
  const char *reasons; /* joined by "; " */
  int64_t short_cpu, short_mem, short_eph;
  int64_t short_ext; /* for ext_name[0] */
} FitCase;

/* noderesources/fit_test.go: TestEnoughRequests (all cases but the two with plugin args
 * "skip checking ignored extended resource" / "... via resource groups", ported in
 * test_resources_fit_ignored_upstream, and the two whose
 * outcome depends on the DRAExtendedResource gate: "extended resource backed by DRA" and
 * "extended resource was backed by Device Plugin (Allocatable: 0)"), TestNotEnoughRequests,
 * TestStorageRequests, TestRestartableInitContainers (the two filter cases with requests). */
static const FitCase fit_cases[] = {
  /* ---- TestEnoughRequests ---- */
  { "no resources requested always fits", ALLOC_ENOUGH, 0, 0, 0, { 0 }, { 0 }, 1, 10, 20, 0, NULL, 0,
    TRUE, "", 0, 0, 0, 0 },
  { "too many resources fails", ALLOC_ENOUGH, 1, 1, 0, { 0 }, { 0 }, 1, 10, 20, 0, NULL, 0,
    FALSE, "Insufficient cpu; Insufficient memory", 1, 1, 0, 0 },
  { "too many resources fails due to init container cpu", ALLOC_ENOUGH, 3, 1, 0, { 0 }, { 0 }, 1, 8, 19, 0,
    NULL, 0, FALSE, "Insufficient cpu", 1, 0, 0, 0 },
  { "too many resources fails due to highest init container cpu", ALLOC_ENOUGH, 3, 1, 0, { 0 }, { 0 }, 1, 8,
    19, 0, NULL, 0, FALSE, "Insufficient cpu", 1, 0, 0, 0 },
  { "too many resources fails due to init container memory", ALLOC_ENOUGH, 1, 3, 0, { 0 }, { 0 }, 1, 9, 19,
    0, NULL, 0, FALSE, "Insufficient memory", 0, 2, 0, 0 },
  { "too many resources fails due to highest init container memory", ALLOC_ENOUGH, 1, 3, 0, { 0 }, { 0 }, 1,
    9, 19, 0, NULL, 0, FALSE, "Insufficient memory", 0, 2, 0, 0 },
  { "init container fits because it's the max, not sum, of containers and init containers", ALLOC_ENOUGH,
    1, 1, 0, { 0 }, { 0 }, 1, 9, 19, 0, NULL, 0, TRUE, "", 0, 0, 0, 0 },
  { "multiple init containers fit because it's the max, not sum, of containers and init containers",
    ALLOC_ENOUGH, 1, 1, 0, { 0 }, { 0 }, 1, 9, 19, 0, NULL, 0, TRUE, "", 0, 0, 0, 0 },
  { "both resources fit", ALLOC_ENOUGH, 1, 1, 0, { 0 }, { 0 }, 1, 5, 5, 0, NULL, 0, TRUE, "", 0, 0,
    0, 0 },
  { "one resource memory fits", ALLOC_ENOUGH, 2, 1, 0, { 0 }, { 0 }, 1, 9, 5, 0, NULL, 0, FALSE,
    "Insufficient cpu", 1, 0, 0, 0 },
  { "one resource cpu fits", ALLOC_ENOUGH, 1, 2, 0, { 0 }, { 0 }, 1, 5, 19, 0, NULL, 0, FALSE,
    "Insufficient memory", 0, 1, 0, 0 },
  { "equal edge case", ALLOC_ENOUGH, 5, 1, 0, { 0 }, { 0 }, 1, 5, 19, 0, NULL, 0, TRUE, "", 0, 0, 0,
    0 },
  { "equal edge case for init container", ALLOC_ENOUGH, 5, 1, 0, { 0 }, { 0 }, 1, 5, 19, 0, NULL, 0, TRUE,
    "", 0, 0, 0, 0 },
  { "extended resource fits", ALLOC_ENOUGH, 0, 0, 0, { EXT_A }, { 1 }, 1, 0, 0, 0, NULL, 0, TRUE, "",
    0, 0, 0, 0 },
  { "extended resource fits for init container", ALLOC_ENOUGH, 0, 0, 0, { EXT_A }, { 1 }, 1, 0, 0, 0,
    NULL, 0, TRUE, "", 0, 0, 0, 0 },
  { "extended resource capacity enforced", ALLOC_ENOUGH, 1, 1, 0, { EXT_A }, { 10 }, 1, 0, 0, 0, EXT_A, 0,
    FALSE, "Insufficient example.com/aaa", 0, 0, 0, 5 },
  { "extended resource capacity enforced for init container", ALLOC_ENOUGH, 1, 1, 0, { EXT_A }, { 10 }, 1,
    0, 0, 0, EXT_A, 0, FALSE, "Insufficient example.com/aaa", 0, 0, 0, 5 },
  { "extended resource allocatable enforced", ALLOC_ENOUGH, 1, 1, 0, { EXT_A }, { 1 }, 1, 0, 0, 0, EXT_A, 5,
    FALSE, "Insufficient example.com/aaa", 0, 0, 0, 1 },
  { "extended resource allocatable enforced for init container", ALLOC_ENOUGH, 1, 1, 0, { EXT_A }, { 1 }, 1,
    0, 0, 0, EXT_A, 5, FALSE, "Insufficient example.com/aaa", 0, 0, 0, 1 },
  { "extended resource allocatable enforced for multiple containers", ALLOC_ENOUGH, 2, 2, 0, { EXT_A },
    { 6 }, 1, 0, 0, 0, EXT_A, 2, FALSE, "Insufficient example.com/aaa", 0, 0, 0, 3 },
  { "extended resource allocatable admits multiple init containers", ALLOC_ENOUGH, 1, 1, 0, { EXT_A },
    { 3 }, 1, 0, 0, 0, EXT_A, 2, TRUE, "", 0, 0, 0, 0 },
  { "extended resource allocatable enforced for multiple init containers", ALLOC_ENOUGH, 1, 1, 0,
    { EXT_A }, { 6 }, 1, 0, 0, 0, EXT_A, 2, FALSE, "Insufficient example.com/aaa", 0, 0, 0, 3 },
  { "extended resource allocatable enforced for unknown resource", ALLOC_ENOUGH, 1, 1, 0, { EXT_B }, { 1 },
    1, 0, 0, 0, NULL, 0, FALSE, "Insufficient example.com/bbb", 0, 0, 0, 1 },
  { "extended resource allocatable enforced for unknown resource for init container", ALLOC_ENOUGH, 1, 1,
    0, { EXT_B }, { 1 }, 1, 0, 0, 0, NULL, 0, FALSE, "Insufficient example.com/bbb", 0, 0, 0, 1 },
  { "kubernetes.io resource capacity enforced", ALLOC_ENOUGH, 1, 1, 0, { K8S_IO_A }, { 10 }, 1, 0, 0, 0,
    NULL, 0, FALSE, "Insufficient kubernetes.io/something", 0, 0, 0, 10 },
  { "kubernetes.io resource capacity enforced for init container", ALLOC_ENOUGH, 1, 1, 0, { K8S_IO_B },
    { 10 }, 1, 0, 0, 0, NULL, 0, FALSE, "Insufficient subdomain.kubernetes.io/something", 0, 0, 0,
    10 },
  { "hugepages resource capacity enforced", ALLOC_ENOUGH, 1, 1, 0, { HUGE_A }, { 10 }, 1, 0, 0, 0, HUGE_A,
    0, FALSE, "Insufficient hugepages-2Mi", 0, 0, 0, 5 },
  { "hugepages resource capacity enforced for init container", ALLOC_ENOUGH, 1, 1, 0, { HUGE_A }, { 10 },
    1, 0, 0, 0, HUGE_A, 0, FALSE, "Insufficient hugepages-2Mi", 0, 0, 0, 5 },
  { "hugepages resource allocatable enforced for multiple containers", ALLOC_ENOUGH, 2, 2, 0, { HUGE_A },
    { 6 }, 1, 0, 0, 0, HUGE_A, 2, FALSE, "Insufficient hugepages-2Mi", 0, 0, 0, 3 },
  { "resources + pod overhead fits", ALLOC_ENOUGH, 1 + 3, 1 + 13, 0, { 0 }, { 0 }, 1, 5, 5, 0, NULL, 0,
    TRUE, "", 0, 0, 0, 0 },
  { "requests + overhead does not fit for memory", ALLOC_ENOUGH, 1 + 1, 1 + 15, 0, { 0 }, { 0 }, 1, 5, 5,
    0, NULL, 0, FALSE, "Insufficient memory", 0, 1, 0, 0 },
  { "skip checking extended resource request with quantity zero via resource groups", ALLOC_ENOUGH, 1, 1,
    0, { EXT_A }, { 0 }, 1, 0, 0, 0, EXT_A, 6, TRUE, "", 0, 0, 0, 0 },
  { "skip checking resource request with quantity zero", ALLOC_ENOUGH, 0, 0, 0, { EXT_A }, { 1 }, 1, 20,
    30, 0, EXT_A, 1, TRUE, "", 0, 0, 0, 0 },
  { "both pod-level and container-level resources fit", ALLOC_ENOUGH, 1, 2, 0, { 0 }, { 0 }, 1, 5, 5, 0,
    NULL, 0, TRUE, "", 0, 0, 0, 0 },
  { "pod-level cpu resource not fit", ALLOC_ENOUGH, 7, 2, 0, { 0 }, { 0 }, 1, 5, 5, 0, NULL, 0, FALSE,
    "Insufficient cpu", 2, 0, 0, 0 },
  { "pod-level memory resource not fit", ALLOC_ENOUGH, 3, 2, 0, { 0 }, { 0 }, 1, 5, 19, 0, NULL, 0, FALSE,
    "Insufficient memory", 0, 1, 0, 0 },
  { "pod-level hugepages resource fit", ALLOC_ENOUGH, 3, 2, 0, { HUGE_A }, { 5 }, 0, 0, 0, 0, NULL, 0, TRUE,
    "", 0, 0, 0, 0 },
  { "both pod-level and container-level hugepages resource fit", ALLOC_ENOUGH, 3, 2, 0, { HUGE_A }, { 5 },
    0, 0, 0, 0, NULL, 0, TRUE, "", 0, 0, 0, 0 },
  { "pod-level hugepages resource not fit", ALLOC_ENOUGH, 3, 2, 0, { HUGE_A }, { 10 }, 0, 0, 0, 0, NULL, 0,
    FALSE, "Insufficient hugepages-2Mi", 0, 0, 0, 5 },
  { "one pod-level cpu resource fits and all init and non-init containers resources fit", ALLOC_ENOUGH, 3,
    2, 0, { 0 }, { 0 }, 1, 5, 19, 0, NULL, 0, FALSE, "Insufficient memory", 0, 1, 0, 0 },
  { "extended resource backed by device plugin", ALLOC_ENOUGH, 0, 0, 0, { EXT_A }, { 1 }, 1, 0, 0, 0, NULL,
    0, TRUE, "", 0, 0, 0, 0 },
  { "extended resource backed by DRA, nil draManager", ALLOC_ENOUGH, 1, 1, 0, { EXT_A }, { 1 }, 1, 0, 0, 0,
    NULL, 0, TRUE, "", 0, 0, 0, 0 },
  { "extended resource backed by DRA not enabled", ALLOC_ENOUGH, 1, 1, 0, { EXT_DRA }, { 1 }, 1, 0, 0, 0,
    NULL, 0, FALSE, "Insufficient extended.resource.dra.io/something", 0, 0, 0, 1 },
  { "extended resource NOT backed by DRA", ALLOC_ENOUGH, 1, 1, 0, { EXT_B }, { 1 }, 1, 0, 0, 0, NULL, 0,
    FALSE, "Insufficient example.com/bbb", 0, 0, 0, 1 },
  { "extended resource was backed by Device Plugin (Allocatable: 0), global cache", ALLOC_ENOUGH, 0, 0, 0,
    { EXT_A }, { 1 }, 1, 0, 0, 0, EXT_A, 0, TRUE, "", 0, 0, 0, 0 },
  /* ---- TestNotEnoughRequests ---- */
  { "even without specified resources, predicate fails when there's no space for additional pod",
    ALLOC_NOT_ENOUGH, 0, 0, 0, { 0 }, { 0 }, 1, 10, 20, 0, NULL, 0, FALSE, "Too many pods", 0, 0, 0,
    0 },
  { "even if both resources fit, predicate fails when there's no space for additional pod",
    ALLOC_NOT_ENOUGH, 1, 1, 0, { 0 }, { 0 }, 1, 5, 5, 0, NULL, 0, FALSE, "Too many pods", 0, 0, 0,
    0 },
  { "even for equal edge case, predicate fails when there's no space for additional pod",
    ALLOC_NOT_ENOUGH, 5, 1, 0, { 0 }, { 0 }, 1, 5, 19, 0, NULL, 0, FALSE, "Too many pods", 0, 0, 0,
    0 },
  { "even for equal edge case, predicate fails when there's no space for additional pod due to init "
    "container",
    ALLOC_NOT_ENOUGH, 5, 1, 0, { 0 }, { 0 }, 1, 5, 19, 0, NULL, 0, FALSE, "Too many pods", 0, 0, 0,
    0 },
  /* ---- TestStorageRequests ---- */
  { "empty storage requested, and pod fits", ALLOC_ENOUGH, 1, 1, 0, { 0 }, { 0 }, 1, 2, 10, 0, NULL, 0,
    TRUE, "", 0, 0, 0, 0 },
  { "storage ephemeral local storage request exceeds allocatable", ALLOC_ENOUGH, 0, 0, 25, { 0 }, { 0 }, 1,
    2, 2, 0, NULL, 0, FALSE, "Insufficient ephemeral-storage", 0, 0, 5, 0 },
  { "ephemeral local storage is sufficient", ALLOC_ENOUGH, 0, 0, 5, { 0 }, { 0 }, 1, 2, 2, 10, NULL, 0,
    TRUE, "", 0, 0, 0, 0 },
  { "pod fits", ALLOC_ENOUGH, 0, 0, 10, { 0 }, { 0 }, 1, 2, 2, 0, NULL, 0, TRUE, "", 0, 0, 0, 0 },
  /* ---- TestRestartableInitContainers ---- */
  { "allow pod if the total requested resources do not exceed the node's allocatable resources",
    ALLOC_SIDECAR, 1 + 1, 0, 0, { 0 }, { 0 }, 0, 0, 0, 0, NULL, 0, TRUE, "", 0, 0, 0, 0 },
  { "not allow pod if the total requested resources do exceed the node's allocatable resources",
    ALLOC_SIDECAR, 1 + 2, 0, 0, { 0 }, { 0 }, 0, 0, 0, 0, NULL, 0, FALSE, "Insufficient cpu", 1, 0,
    0, 0 },
};

static void
allocatable_for (AllocKind kind, FsResources *alloc)
{
  memset (alloc, 0, sizeof *alloc);
  switch (kind)
    {
    case ALLOC_ENOUGH:
      put (alloc, "cpu", 10);
      put (alloc, "memory", 20);
      put (alloc, "pods", 32);
      put (alloc, EXT_A, 5);
      put (alloc, "ephemeral-storage", 20);
      put (alloc, HUGE_A, 5);
      break;
    case ALLOC_NOT_ENOUGH:
      put (alloc, "cpu", 10);
      put (alloc, "memory", 20);
      put (alloc, "pods", 1);
      put (alloc, EXT_A, 0);
      put (alloc, "ephemeral-storage", 0);
      put (alloc, HUGE_A, 0);
      break;
    case ALLOC_SIDECAR:
      put (alloc, "cpu", 2);
      put (alloc, "memory", 0);
      put (alloc, "pods", 1);
      put (alloc, EXT_A, 0);
      put (alloc, "ephemeral-storage", 0);
      put (alloc, HUGE_A, 0);
      break;
    default:
      fail ();
    }
}

static void
test_resources_fit_upstream (void **state)
{
  (void) state;
  for (gsize i = 0; i < G_N_ELEMENTS (fit_cases); i++)
    {
      const FitCase *c = &fit_cases[i];
      FsResources alloc, request;
      FsNodeLoad load;
      memset (&request, 0, sizeof request);
      memset (&load, 0, sizeof load);
      allocatable_for (c->alloc, &alloc);
      request.cpu_milli = c->cpu;
      request.memory_bytes = c->mem;
      request.ephemeral_bytes = c->eph;
      for (guint j = 0; j < 2; j++)
        if (c->ext_name[j] != NULL)
          put (&request, c->ext_name[j], c->ext[j]);
      load.pod_count = c->on_node;
      load.requested.cpu_milli = c->used_cpu;
      load.requested.memory_bytes = c->used_mem;
      load.requested.ephemeral_bytes = c->used_eph;
      if (c->used_ext_name != NULL)
        put (&load.requested, c->used_ext_name, c->used_ext);

      FsVerdict verdict;
      gboolean fits = fs_resources_fit (&alloc, &load, &request, &verdict);
      CHECK (fits == c->fits, c->name);
      CHECK (verdict.filter == (c->fits ? FS_FILTER_PASS : FS_FILTER_NODE_RESOURCES_FIT), c->name);
      /* Unschedulable, never UnschedulableAndUnresolvable: the releases before v1.36 */
      CHECK (!verdict.unresolvable, c->name);
      g_autofree char *reasons = reasons_of (&verdict);
      CHECK_STR (reasons, c->reasons, c->name);
      CHECK (verdict.short_by.cpu_milli == c->short_cpu, c->name);
      CHECK (verdict.short_by.memory_bytes == c->short_mem, c->name);
      CHECK (verdict.short_by.ephemeral_bytes == c->short_eph, c->name);
      CHECK (verdict.short_by.pods == (strstr (c->reasons, "Too many pods") != NULL ? 1 : 0), c->name);
      if (c->ext_name[0] != NULL)
        CHECK (fs_resources_get (&verdict.short_by, c->ext_name[0]) == c->short_ext, c->name);
      /* The same answer through fs_fit_node on a node with no other constraint. */
      FsNode *node = test_node ("n", NULL, NULL);
      node->allocatable = alloc;
      TestPod *pod = test_pod ();
      pod->spec.request = request;
      FsVerdict via_node;
      CHECK (fs_fit_node (node, &load, &pod->shape, &via_node) == c->fits, c->name);
      CHECK (via_node.filter == verdict.filter && via_node.unresolvable == verdict.unresolvable
               && via_node.taint == NULL && via_node.short_bits == verdict.short_bits
               && fs_resources_equal (&via_node.short_by, &verdict.short_by),
             c->name);
    }
}

/* noderesources/fit_test.go TestEnoughRequests, the two cases with plugin args: "skip checking
 * ignored extended resource" (IgnoredResources: example.com/bbb) and "skip checking ignored
 * extended resource via resource groups" (IgnoredResourceGroups: example.com).  The pod asks
 * cpu 1, memory 1 and example.com/bbb 1 of a node with none of it; its one pod asks nothing. */
static void
test_resources_fit_ignored_upstream (void **state)
{
  (void) state;
  FsResources alloc, request;
  FsNodeLoad load;
  memset (&request, 0, sizeof request);
  memset (&load, 0, sizeof load);
  allocatable_for (ALLOC_ENOUGH, &alloc);
  request.cpu_milli = 1;
  request.memory_bytes = 1;
  put (&request, EXT_B, 1);
  load.pod_count = 1;
  FsSchedulerProfile by_name = { .scheduler_name = "default-scheduler", .n_ignored_resources = 1,
                                 .ignored_resources = { EXT_B } };
  FsSchedulerProfile by_group = { .scheduler_name = "default-scheduler", .n_ignored_groups = 1,
                                  .ignored_groups = { "example.com" } };
  FsVerdict verdict;
  assert_true (fs_resources_fit_profile (&alloc, &load, &request, &by_name, &verdict));
  assert_int_equal (verdict.short_bits, 0);
  assert_true (fs_resources_fit_profile (&alloc, &load, &request, &by_group, &verdict));
  assert_int_equal (verdict.short_bits, 0);
  /* without the args: "extended resource allocatable enforced for unknown resource" */
  assert_false (fs_resources_fit_profile (&alloc, &load, &request, NULL, &verdict));
  g_autofree char *reasons = reasons_of (&verdict);
  assert_string_equal (reasons, "Insufficient example.com/bbb");
  /* a group is the whole part before '/': "example", "example.co", "example.com2" ignore
   * nothing */
  FsSchedulerProfile near = { .n_ignored_groups = 3,
                              .ignored_groups = { "example", "example.co", "example.com2" } };
  assert_false (fs_resources_fit_profile (&alloc, &load, &request, &near, &verdict));
  /* only extended resources are ignored (v1helper.IsExtendedResourceName): not hugepages,
   * not a kubernetes.io name, not cpu */
  FsSchedulerProfile natives = { .n_ignored_resources = 3,
                                 .ignored_resources = { HUGE_A, K8S_IO_A, "cpu" },
                                 .n_ignored_groups = 1, .ignored_groups = { "kubernetes.io" } };
  assert_false (fs_scheduler_profile_ignores (&natives, HUGE_A));
  assert_false (fs_scheduler_profile_ignores (&natives, K8S_IO_A));
  assert_false (fs_scheduler_profile_ignores (&natives, "cpu"));
  FsResources huge;
  memset (&huge, 0, sizeof huge);
  put (&huge, HUGE_A, 10);
  assert_false (fs_resources_fit_profile (&alloc, &load, &huge, &natives, &verdict));
  /* the same through fs_fit_node, and packing counts the replicas the same way */
  FsNode *node = test_node ("n", NULL, NULL);
  node->allocatable = alloc;
  TestPod *pod = test_pod ();
  pod->spec.request = request;
  assert_false (fs_fit_node (node, &load, &pod->shape, &verdict));
  pod->shape.profile = &by_group;
  assert_true (fs_fit_node (node, &load, &pod->shape, &verdict));
  assert_int_equal (fs_resources_capacity_profile (&alloc, &load, &request, &by_group), 10);
  assert_int_equal (fs_resources_capacity_profile (&alloc, &load, &request, NULL), 0);
}

/* A profile's filter plugins (plugins.filter / multiPoint disabled) and NodeAffinityArgs
 * addedAffinity (node_affinity.go Filter: addedNodeSelector first, ErrReasonEnforced,
 * UnschedulableAndUnresolvable); profiles looked up by schedulerName (frameworkForPod). */
static void
test_scheduler_profile_filters (void **state)
{
  (void) state;
  FsNode *node = test_node ("batch-b", LABELS ("pool", "batch"),
                            TAINTS ({ .key = "dedicated", .value = "batch", .effect = FS_EFFECT_NO_SCHEDULE }));
  TestPod *pod = test_pod ();
  FsVerdict verdict;
  assert_false (fs_fit_node (node, NULL, &pod->shape, &verdict));
  assert_int_equal (verdict.filter, FS_FILTER_TAINT_TOLERATION);
  FsSchedulerProfile no_taints = { .scheduler_name = "batch",
                                   .disabled_filters = 1u << FS_FILTER_TAINT_TOLERATION };
  pod->shape.profile = &no_taints;
  assert_true (fs_fit_node (node, NULL, &pod->shape, &verdict));
  assert_true (fs_scheduler_profile_runs (&no_taints, FS_FILTER_NODE_AFFINITY));
  assert_false (fs_scheduler_profile_runs (&no_taints, FS_FILTER_TAINT_TOLERATION));
  assert_true (fs_scheduler_profile_runs (NULL, FS_FILTER_TAINT_TOLERATION));

  FsSchedulerProfile enforced = {
    .scheduler_name = "default-scheduler",
    .disabled_filters = 1u << FS_FILTER_TAINT_TOLERATION,
    .added_affinity = TERMS (TERM (REQS (REQ ("pool", FS_OP_IN, "general")), NULL)),
  };
  pod->shape.profile = &enforced;
  assert_false (fs_fit_node (node, NULL, &pod->shape, &verdict));
  assert_int_equal (verdict.filter, FS_FILTER_NODE_AFFINITY);
  assert_int_equal (verdict.detail, FS_DETAIL_ENFORCED_AFFINITY);
  assert_true (verdict.unresolvable);
  g_autofree char *reasons = reasons_of (&verdict);
  assert_string_equal (reasons, "node(s) didn't match scheduler-enforced node affinity");
  FsNode *general = test_node ("general-a", LABELS ("pool", "general"), NULL);
  assert_true (fs_fit_node (general, NULL, &pod->shape, &verdict));
  /* the pod's own affinity still applies beside the added one */
  pod->placement.node_selector = LABELS ("disk", "ssd");
  assert_false (fs_fit_node (general, NULL, &pod->shape, &verdict));
  assert_int_equal (verdict.detail, FS_DETAIL_NONE);
  g_autofree char *own = reasons_of (&verdict);
  assert_string_equal (own, "node(s) didn't match Pod's node affinity/selector");
  /* NodeAffinity off: neither */
  enforced.disabled_filters |= 1u << FS_FILTER_NODE_AFFINITY;
  assert_true (fs_fit_node (node, NULL, &pod->shape, &verdict));

  /* profiles by schedulerName; no name is default-scheduler's; an unknown one has none */
  g_autoptr (FsSchedulerConfig) config = fs_scheduler_config_new ("test", NULL, NULL);
  config->profiles = g_new0 (FsSchedulerProfile, 2);
  config->n_profiles = 2;
  config->profiles[0] = enforced;
  config->profiles[1] = no_taints;
  assert_ptr_equal (fs_scheduler_profile_for (config, NULL), &config->profiles[0]);
  assert_ptr_equal (fs_scheduler_profile_for (config, ""), &config->profiles[0]);
  assert_ptr_equal (fs_scheduler_profile_for (config, "batch"), &config->profiles[1]);
  assert_null (fs_scheduler_profile_for (config, "my-scheduler"));
  assert_false (fs_scheduler_knows (config, "my-scheduler"));
  assert_true (fs_scheduler_knows (config, NULL));
  assert_true (fs_scheduler_knows (NULL, "my-scheduler"));
  assert_null (fs_scheduler_profile_for (NULL, NULL));
  FsFilter filter;
  assert_true (fs_scheduler_filter_plugin ("PodTopologySpread", &filter));
  assert_int_equal (filter, FS_FILTER_POD_TOPOLOGY_SPREAD);
  assert_false (fs_scheduler_filter_plugin ("ImageLocality", &filter));
  assert_string_equal (fs_scheduler_filter_name (FS_FILTER_NODE_RESOURCES_FIT), "NodeResourcesFit");
}

/* fitscale: several failing resources reported together, in upstream's order, scalars by
 * name; the NULL load of fs_fit_node means the node's own. */
static void
test_resources_fit_order (void **state)
{
  (void) state;
  FsNode *node = test_node ("n", NULL, NULL);
  put (&node->allocatable, "pods", 2);
  put (&node->allocatable, "cpu", 1000);
  put (&node->allocatable, "memory", 1000);
  put (&node->allocatable, "ephemeral-storage", 1000);
  put (&node->allocatable, "nvidia.com/gpu", 1);
  node->pod_count = 2;
  node->requested.cpu_milli = 900;
  node->requested.memory_bytes = 100;
  node->requested.ephemeral_bytes = 999;
  TestPod *pod = test_pod ();
  pod->spec.request.cpu_milli = 200;
  pod->spec.request.memory_bytes = 900;
  pod->spec.request.ephemeral_bytes = 2;
  put (&pod->spec.request, "nvidia.com/gpu", 2);
  put (&pod->spec.request, "hugepages-1Gi", 1);
  FsVerdict v;
  assert_false (fs_fit_node (node, NULL, &pod->shape, &v));
  assert_int_equal (v.filter, FS_FILTER_NODE_RESOURCES_FIT);
  g_autofree char *reasons = reasons_of (&v);
  assert_string_equal (reasons, "Too many pods; Insufficient cpu; Insufficient ephemeral-storage; "
                                "Insufficient hugepages-1Gi; Insufficient nvidia.com/gpu");
  assert_int_equal (v.short_bits,
                    FS_SHORT_PODS | FS_SHORT_CPU | FS_SHORT_EPHEMERAL | FS_SHORT_SCALAR);
  assert_int_equal (v.short_by.pods, 1);
  assert_int_equal (v.short_by.cpu_milli, 100);
  assert_int_equal (v.short_by.memory_bytes, 0);
  assert_int_equal (v.short_by.ephemeral_bytes, 1);
  assert_int_equal (fs_resources_get (&v.short_by, "nvidia.com/gpu"), 1);
  assert_int_equal (fs_resources_get (&v.short_by, "hugepages-1Gi"), 1);
  /* gpu 2 > allocatable 1 (and hugepages 1 > 0): preemption is still tried (v1.36 would not) */
  assert_false (v.unresolvable);
  /* Too many pods alone is never unresolvable (fit.go sets no Unresolvable for pods). */
  FsResources alloc = { 0 };
  FsNodeLoad load = { 0 };
  FsResources nothing = { 0 };
  assert_false (fs_resources_fit (&alloc, &load, &nothing, &v));
  assert_int_equal (v.short_bits, FS_SHORT_PODS);
  assert_false (v.unresolvable);
}

#define KI (INT64_C (1024))
#define GI (INT64_C (1024) * 1024 * 1024)

/* The seed's rag-api numbers: a node with allocatable memory 15204352Ki (14.5Gi) already
 * running pods of 2Gi and 6Gi. */
static void
test_resources_fit_rag_api (void **state)
{
  (void) state;
  FsResources alloc = { 0 };
  put (&alloc, "cpu", 4000);
  put (&alloc, "memory", 15204352 * KI);
  put (&alloc, "pods", 110);
  assert_int_equal (alloc.memory_bytes, 14 * GI + GI / 2);
  FsNodeLoad load = { 0 };
  load.pod_count = 2;
  load.requested.memory_bytes = 2 * GI + 6 * GI;

  FsResources six = { 0 };
  put (&six, "memory", 6 * GI);
  FsVerdict v;
  /* 6.5Gi free: a 6Gi pod fits. */
  assert_true (fs_resources_fit (&alloc, &load, &six, &v));
  assert_int_equal (v.filter, FS_FILTER_PASS);
  /* With it placed (14Gi requested, 0.5Gi free) the next 6Gi pod does not, short by 5.5Gi. */
  FsNodeLoad after = load;
  after.pod_count++;
  after.requested.memory_bytes += 6 * GI;
  assert_int_equal (after.requested.memory_bytes, 14 * GI);
  assert_false (fs_resources_fit (&alloc, &after, &six, &v));
  assert_int_equal (v.filter, FS_FILTER_NODE_RESOURCES_FIT);
  assert_int_equal (v.short_bits, FS_SHORT_MEMORY);
  assert_int_equal (v.short_by.memory_bytes, 5 * GI + GI / 2);
  assert_int_equal (v.short_by.memory_bytes, INT64_C (5905580032));
  assert_false (v.unresolvable); /* 6Gi <= 14.5Gi: evicting could make room */
  g_autofree char *reasons = reasons_of (&v);
  assert_string_equal (reasons, "Insufficient memory");

  /* 3Gi pods from the original load: two fit (6.5 → 3.5 → 0.5Gi free), the third is short
   * by 2.5Gi. */
  FsResources three = { 0 };
  put (&three, "memory", 3 * GI);
  FsNodeLoad l = load;
  int placed = 0;
  while (fs_resources_fit (&alloc, &l, &three, &v))
    {
      placed++;
      l.pod_count++;
      l.requested.memory_bytes += 3 * GI;
      assert_true (placed < 10);
    }
  assert_int_equal (placed, 2);
  assert_int_equal (l.requested.memory_bytes, 14 * GI);
  assert_int_equal (v.short_by.memory_bytes, 2 * GI + GI / 2);

  /* A 15Gi pod exceeds the whole 14.5Gi: UnschedulableAndUnresolvable from v1.36
   * (PR #131345); Unschedulable as in the releases before. */
  FsResources fifteen = { 0 };
  put (&fifteen, "memory", 15 * GI);
  assert_false (fs_resources_fit (&alloc, &load, &fifteen, &v));
  assert_false (v.unresolvable);
  assert_int_equal (v.short_by.memory_bytes, 15 * GI - (6 * GI + GI / 2));

  /* The event from two such full nodes (real message shape, scheduler-fit.md §3). */
  g_autoptr (FsReasonCounts) counts = fs_reason_counts_new ();
  for (int node = 0; node < 2; node++)
    {
      assert_false (fs_resources_fit (&alloc, &after, &six, &v));
      fs_reason_counts_add_verdict (counts, &v);
    }
  g_autofree char *message = fs_fit_error_message (
    2, counts, "preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.");
  assert_string_equal (message, "0/2 nodes are available: 2 Insufficient memory. preemption: 0/2 nodes "
                                "are available: 2 No preemption victims found for incoming pod.");
  g_autofree char *bare = fs_fit_error_message (2, counts, NULL);
  assert_string_equal (bare, "0/2 nodes are available: 2 Insufficient memory.");
}

/* ---------------------------------------------------------------------------------------------
 * Tolerations and taints */

/* staging/src/k8s.io/api/core/v1/toleration_test.go TestTolerationToleratesTaint (the
 * Toleration.ToleratesTaint that component-helpers' TolerationsTolerateTaint calls). */
static void
test_toleration_tolerates_upstream (void **state)
{
  (void) state;
  static const struct {
    const char *name;
    FsToleration toleration;
    FsTaint taint;
    gboolean want;
  } cases[] = {
    { "toleration and taint have the same key and effect, and operator is Exists, and taint has no "
      "value, expect tolerated",
      { .key = "foo", .op = FS_TOLERATION_EXISTS, .effect = FS_EFFECT_NO_SCHEDULE },
      { .key = "foo", .effect = FS_EFFECT_NO_SCHEDULE }, TRUE },
    { "toleration and taint have the same key and effect, and operator is Exists, and taint has some "
      "value, expect tolerated",
      { .key = "foo", .op = FS_TOLERATION_EXISTS, .effect = FS_EFFECT_NO_SCHEDULE },
      { .key = "foo", .value = "bar", .effect = FS_EFFECT_NO_SCHEDULE }, TRUE },
    { "toleration and taint have the same effect, toleration has empty key and operator is Exists, "
      "means match all taints, expect tolerated",
      { .key = "", .op = FS_TOLERATION_EXISTS, .effect = FS_EFFECT_NO_SCHEDULE },
      { .key = "foo", .value = "bar", .effect = FS_EFFECT_NO_SCHEDULE }, TRUE },
    { "toleration and taint have the same key, effect and value, and operator is Equal, expect "
      "tolerated",
      { .key = "foo", .op = FS_TOLERATION_EQUAL, .value = "bar", .effect = FS_EFFECT_NO_SCHEDULE },
      { .key = "foo", .value = "bar", .effect = FS_EFFECT_NO_SCHEDULE }, TRUE },
    { "toleration and taint have the same key and effect, but different values, and operator is "
      "Equal, expect not tolerated",
      { .key = "foo", .op = FS_TOLERATION_EQUAL, .value = "value1", .effect = FS_EFFECT_NO_SCHEDULE },
      { .key = "foo", .value = "value2", .effect = FS_EFFECT_NO_SCHEDULE }, FALSE },
    { "toleration and taint have the same key and value, but different effects, and operator is "
      "Equal, expect not tolerated",
      { .key = "foo", .op = FS_TOLERATION_EQUAL, .value = "bar", .effect = FS_EFFECT_NO_SCHEDULE },
      { .key = "foo", .value = "bar", .effect = FS_EFFECT_NO_EXECUTE }, FALSE },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    CHECK (fs_toleration_tolerates (&cases[i].toleration, &cases[i].taint) == cases[i].want,
           cases[i].name);
}

/* fitscale: NULL strings are empty; an Exists toleration with no key and no effect tolerates
 * everything; NULL toleration lists tolerate nothing. */
static void
test_toleration_edges (void **state)
{
  (void) state;
  FsToleration all = { .op = FS_TOLERATION_EXISTS };
  FsTaint t = { .key = "a", .value = "b", .effect = FS_EFFECT_NO_EXECUTE };
  assert_true (fs_toleration_tolerates (&all, &t));
  FsToleration equal_empty = { .key = "k", .value = NULL, .effect = FS_EFFECT_NO_SCHEDULE };
  FsTaint empty_value = { .key = "k", .value = "", .effect = FS_EFFECT_NO_SCHEDULE };
  assert_true (fs_toleration_tolerates (&equal_empty, &empty_value));
  empty_value.value = "x";
  assert_false (fs_toleration_tolerates (&equal_empty, &empty_value));
  assert_false (fs_tolerations_tolerate (NULL, &t));
  assert_null (fs_first_untolerated_taint (NULL, NULL));
  /* Only NoSchedule / NoExecute count; the first untolerated one in node order is reported. */
  const FsTaintList *taints = TAINTS ({ .key = "p", .effect = FS_EFFECT_PREFER_NO_SCHEDULE },
                                      { .key = "a", .value = "1", .effect = FS_EFFECT_NO_SCHEDULE },
                                      { .key = "b", .effect = FS_EFFECT_NO_EXECUTE });
  assert_ptr_equal (fs_first_untolerated_taint (taints, NULL), &taints->items[1]);
  const FsTolerationList *tols = TOLS ({ .key = "a", .op = FS_TOLERATION_EXISTS });
  assert_ptr_equal (fs_first_untolerated_taint (taints, tols), &taints->items[2]);
}

/* tainttoleration/taint_toleration_test.go TestTaintTolerationFilter, run through fs_fit_node. */
static void
test_taint_toleration_filter_upstream (void **state)
{
  (void) state;
  static const struct {
    const char *name;
    FsToleration tols[2];
    guint n_tols;
    FsTaint taints[2];
    guint n_taints;
    const char *want; /* NULL: fits */
  } cases[] = {
    { "A pod having no tolerations can't be scheduled onto a node with nonempty taints",
      { { 0 } }, 0, { { .key = "dedicated", .value = "user1", .effect = FS_EFFECT_NO_SCHEDULE } }, 1,
      "node(s) had untolerated taint {dedicated: user1}" },
    { "A pod which can be scheduled on a dedicated node assigned to user1 with effect NoSchedule",
      { { .key = "dedicated", .value = "user1", .effect = FS_EFFECT_NO_SCHEDULE } }, 1,
      { { .key = "dedicated", .value = "user1", .effect = FS_EFFECT_NO_SCHEDULE } }, 1, NULL },
    { "A pod which can't be scheduled on a dedicated node assigned to user2 with effect NoSchedule",
      { { .key = "dedicated", .op = FS_TOLERATION_EQUAL, .value = "user2", .effect = FS_EFFECT_NO_SCHEDULE } },
      1, { { .key = "dedicated", .value = "user1", .effect = FS_EFFECT_NO_SCHEDULE } }, 1,
      "node(s) had untolerated taint {dedicated: user1}" },
    { "A pod can be scheduled onto the node, with a toleration uses operator Exists that tolerates the "
      "taints on the node",
      { { .key = "foo", .op = FS_TOLERATION_EXISTS, .effect = FS_EFFECT_NO_SCHEDULE } }, 1,
      { { .key = "foo", .value = "bar", .effect = FS_EFFECT_NO_SCHEDULE } }, 1, NULL },
    { "A pod has multiple tolerations, node has multiple taints, all the taints are tolerated, pod can "
      "be scheduled onto the node",
      { { .key = "dedicated", .op = FS_TOLERATION_EQUAL, .value = "user2", .effect = FS_EFFECT_NO_SCHEDULE },
        { .key = "foo", .op = FS_TOLERATION_EXISTS, .effect = FS_EFFECT_NO_SCHEDULE } },
      2,
      { { .key = "dedicated", .value = "user2", .effect = FS_EFFECT_NO_SCHEDULE },
        { .key = "foo", .value = "bar", .effect = FS_EFFECT_NO_SCHEDULE } },
      2, NULL },
    { "A pod has a toleration that keys and values match the taint on the node, but (non-empty) effect "
      "doesn't match, can't be scheduled onto the node",
      { { .key = "foo", .op = FS_TOLERATION_EQUAL, .value = "bar", .effect = FS_EFFECT_PREFER_NO_SCHEDULE } },
      1, { { .key = "foo", .value = "bar", .effect = FS_EFFECT_NO_SCHEDULE } }, 1,
      "node(s) had untolerated taint {foo: bar}" },
    { "The pod has a toleration that keys and values match the taint on the node, the effect of "
      "toleration is empty, and the effect of taint is NoSchedule. Pod can be scheduled onto the node",
      { { .key = "foo", .op = FS_TOLERATION_EQUAL, .value = "bar" } }, 1,
      { { .key = "foo", .value = "bar", .effect = FS_EFFECT_NO_SCHEDULE } }, 1, NULL },
    { "The pod has a toleration that key and value don't match the taint on the node, but the effect "
      "of taint on node is PreferNoSchedule. Pod can be scheduled onto the node",
      { { .key = "dedicated", .op = FS_TOLERATION_EQUAL, .value = "user2", .effect = FS_EFFECT_NO_SCHEDULE } },
      1, { { .key = "dedicated", .value = "user1", .effect = FS_EFFECT_PREFER_NO_SCHEDULE } }, 1, NULL },
    { "The pod has no toleration, but the effect of taint on node is PreferNoSchedule. Pod can be "
      "scheduled onto the node",
      { { 0 } }, 0, { { .key = "dedicated", .value = "user1", .effect = FS_EFFECT_PREFER_NO_SCHEDULE } }, 1,
      NULL },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      FsNode *node = test_node ("nodeA", NULL, make_taints (cases[i].taints, cases[i].n_taints));
      TestPod *pod = test_pod ();
      pod->placement.tolerations = make_tolerations (cases[i].tols, cases[i].n_tols);
      FsVerdict v;
      gboolean fits = fs_fit_node (node, NULL, &pod->shape, &v);
      g_autofree char *reasons = reasons_of (&v);
      if (cases[i].want == NULL)
        {
          CHECK (fits, cases[i].name);
          CHECK (v.filter == FS_FILTER_PASS, cases[i].name);
        }
      else
        {
          CHECK (!fits, cases[i].name);
          CHECK (v.filter == FS_FILTER_TAINT_TOLERATION, cases[i].name);
          CHECK (v.unresolvable, cases[i].name);
          CHECK (v.taint == &node->taints->items[0], cases[i].name);
          CHECK_STR (reasons, cases[i].want, cases[i].name);
        }
    }
}

/* scheduler-fit.md §3: an empty taint value prints as "{key: }". */
static void
test_taint_reason_empty_value (void **state)
{
  (void) state;
  FsNode *node = test_node ("cp", NULL,
                            TAINTS ({ .key = "node-role.kubernetes.io/control-plane",
                                      .effect = FS_EFFECT_NO_SCHEDULE }));
  TestPod *pod = test_pod ();
  FsVerdict v;
  assert_false (fs_fit_node (node, NULL, &pod->shape, &v));
  g_autofree char *reasons = reasons_of (&v);
  assert_string_equal (reasons, "node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }");
}

/* ---------------------------------------------------------------------------------------------
 * NodeUnschedulable and NodeName */

/* nodeunschedulable/node_unschedulable_test.go TestNodeUnschedulable. */
static void
test_node_unschedulable_upstream (void **state)
{
  (void) state;
  FsVerdict v;
  /* "Does not schedule pod to unschedulable node (node.Spec.Unschedulable==true)" */
  FsNode *cordoned = test_node (NULL, NULL, NULL);
  cordoned->flags = FS_NODE_UNSCHEDULABLE;
  TestPod *pod = test_pod ();
  assert_false (fs_fit_node (cordoned, NULL, &pod->shape, &v));
  assert_int_equal (v.filter, FS_FILTER_NODE_UNSCHEDULABLE);
  assert_true (v.unresolvable);
  g_autofree char *reasons = reasons_of (&v);
  assert_string_equal (reasons, "node(s) were unschedulable");
  /* "Schedule pod to normal node" */
  FsNode *normal = test_node (NULL, NULL, NULL);
  assert_true (fs_fit_node (normal, NULL, &pod->shape, &v));
  assert_int_equal (v.filter, FS_FILTER_PASS);
  /* "Schedule pod with toleration to unschedulable node (node.Spec.Unschedulable==true)":
   * {Key: node.kubernetes.io/unschedulable, Effect: NoSchedule}, no operator. */
  TestPod *tolerant = test_pod ();
  tolerant->placement.tolerations =
    TOLS ({ .key = "node.kubernetes.io/unschedulable", .effect = FS_EFFECT_NO_SCHEDULE });
  assert_true (fs_fit_node (cordoned, NULL, &tolerant->shape, &v));
  /* fitscale: a blanket Exists toleration covers it too; a NoExecute one does not. */
  TestPod *blanket = test_pod ();
  blanket->placement.tolerations = TOLS ({ .op = FS_TOLERATION_EXISTS });
  assert_true (fs_fit_node (cordoned, NULL, &blanket->shape, &v));
  TestPod *wrong = test_pod ();
  wrong->placement.tolerations = TOLS ({ .key = "node.kubernetes.io/unschedulable",
                                         .op = FS_TOLERATION_EXISTS, .effect = FS_EFFECT_NO_EXECUTE });
  assert_false (fs_fit_node (cordoned, NULL, &wrong->shape, &v));
}

/* nodename/node_name_test.go TestNodeName. */
static void
test_node_name_upstream (void **state)
{
  (void) state;
  FsVerdict v;
  /* "no host specified" */
  TestPod *pod = test_pod ();
  assert_true (fs_fit_node (test_node (NULL, NULL, NULL), NULL, &pod->shape, &v));
  /* "host matches" */
  pod->shape.node_name = "foo";
  assert_true (fs_fit_node (test_node ("foo", NULL, NULL), NULL, &pod->shape, &v));
  /* "host doesn't match" */
  pod->shape.node_name = "bar";
  assert_false (fs_fit_node (test_node ("foo", NULL, NULL), NULL, &pod->shape, &v));
  assert_int_equal (v.filter, FS_FILTER_NODE_NAME);
  assert_true (v.unresolvable);
  g_autofree char *reasons = reasons_of (&v);
  assert_string_equal (reasons, "node(s) didn't match the requested node name");
}

/* ---------------------------------------------------------------------------------------------
 * NodeAffinity */

static void
check_affinity (const char *name, const char *node_name, const FsLabelSet *labels,
                const FsLabelSet *node_selector, const FsNodeSelector *required, gboolean want)
{
  FsNode *node = test_node (node_name, labels, NULL);
  TestPod *pod = test_pod ();
  pod->placement.node_selector = node_selector;
  pod->placement.required_affinity = required;
  CHECK (fs_node_affinity_matches (node, &pod->placement) == want, name);
  FsVerdict v;
  CHECK (fs_fit_node (node, NULL, &pod->shape, &v) == want, name);
  if (!want)
    {
      CHECK (v.filter == FS_FILTER_NODE_AFFINITY, name);
      CHECK (v.unresolvable, name);
      g_autofree char *reasons = reasons_of (&v);
      CHECK_STR (reasons, "node(s) didn't match Pod's node affinity/selector", name);
    }
}

/* nodeaffinity/node_affinity_test.go TestNodeAffinity: every case without plugin args (the
 * three AddedAffinity cases are left out); Filter's status only. */
static void
test_node_affinity_upstream (void **state)
{
  (void) state;
  const FsLabelSet *foo_bar = LABELS ("foo", "bar");
  const FsLabelSet *gpu = LABELS ("GPU", "NVIDIA-GRID-K1");

  check_affinity ("missing labels", NULL, NULL, LABELS ("foo", "bar"), NULL, FALSE);
  check_affinity ("same labels", NULL, foo_bar, LABELS ("foo", "bar"), NULL, TRUE);
  check_affinity ("node labels are superset", NULL, LABELS ("foo", "bar", "baz", "blah"),
                  LABELS ("foo", "bar"), NULL, TRUE);
  check_affinity ("node labels are subset", NULL, foo_bar, LABELS ("foo", "bar", "baz", "blah"), NULL,
                  FALSE);
  check_affinity ("Pod with matchExpressions using In operator that matches the existing node", NULL,
                  foo_bar, NULL, TERMS (TERM (REQS (REQ ("foo", FS_OP_IN, "bar", "value2")), NULL)),
                  TRUE);
  check_affinity ("Pod with matchExpressions using Gt operator that matches the existing node", NULL,
                  LABELS ("kernel-version", "0206"), NULL,
                  TERMS (TERM (REQS (REQ ("kernel-version", FS_OP_GT, "0204")), NULL)), TRUE);
  check_affinity ("Pod with matchExpressions using NotIn operator that matches the existing node", NULL,
                  LABELS ("mem-type", "DDR3"), NULL,
                  TERMS (TERM (REQS (REQ ("mem-type", FS_OP_NOT_IN, "DDR", "DDR2")), NULL)), TRUE);
  check_affinity ("Pod with matchExpressions using Exists operator that matches the existing node", NULL,
                  gpu, NULL, TERMS (TERM (REQS (REQ0 ("GPU", FS_OP_EXISTS)), NULL)), TRUE);
  check_affinity ("Pod with affinity that don't match node's labels won't schedule onto the node", NULL,
                  foo_bar, NULL, TERMS (TERM (REQS (REQ ("foo", FS_OP_IN, "value1", "value2")), NULL)),
                  FALSE);
  check_affinity ("Pod with empty MatchExpressions is not a valid value will match no objects and won't "
                  "schedule onto the node",
                  NULL, foo_bar, NULL, TERMS (TERM (NO_REQS, NULL)), FALSE);
  check_affinity ("Pod with no Affinity will schedule onto a node", NULL, foo_bar, NULL, NULL, TRUE);
  check_affinity ("Pod with Affinity but nil NodeSelector will schedule onto a node", NULL, foo_bar, NULL,
                  NULL, TRUE);
  check_affinity ("Pod with multiple matchExpressions ANDed that matches the existing node", NULL, gpu,
                  NULL,
                  TERMS (TERM (REQS (REQ0 ("GPU", FS_OP_EXISTS), REQ ("GPU", FS_OP_NOT_IN, "AMD", "INTER")),
                               NULL)),
                  TRUE);
  check_affinity ("Pod with multiple matchExpressions ANDed that doesn't match the existing node", NULL,
                  gpu, NULL,
                  TERMS (TERM (REQS (REQ0 ("GPU", FS_OP_EXISTS), REQ ("GPU", FS_OP_IN, "AMD", "INTER")),
                               NULL)),
                  FALSE);
  check_affinity ("Pod with multiple NodeSelectorTerms ORed in affinity, matches the node's labels and "
                  "will schedule onto the node",
                  NULL, foo_bar, NULL,
                  TERMS (TERM (REQS (REQ ("foo", FS_OP_IN, "bar", "value2")), NULL),
                         TERM (REQS (REQ ("diffkey", FS_OP_IN, "wrong", "value2")), NULL)),
                  TRUE);
  check_affinity ("Pod with an Affinity and a PodSpec.NodeSelector(the old thing that we are deprecating) "
                  "both are satisfied, will schedule onto the node",
                  NULL, foo_bar, LABELS ("foo", "bar"),
                  TERMS (TERM (REQS (REQ0 ("foo", FS_OP_EXISTS)), NULL)), TRUE);
  check_affinity ("Pod with an Affinity matches node's labels but the PodSpec.NodeSelector(the old thing "
                  "that we are deprecating) is not satisfied, won't schedule onto the node",
                  NULL, LABELS ("foo", "barrrrrr"), LABELS ("foo", "bar"),
                  TERMS (TERM (REQS (REQ0 ("foo", FS_OP_EXISTS)), NULL)), FALSE);
  check_affinity ("Pod with an invalid value in Affinity term won't be scheduled onto the node", NULL,
                  foo_bar, NULL,
                  TERMS (TERM (REQS (REQ ("foo", FS_OP_NOT_IN, "invalid value: ___@#$%^")), NULL)),
                  FALSE);
  check_affinity ("Pod with matchFields using In operator that matches the existing node", "node1", NULL,
                  NULL, TERMS (TERM (NULL, REQS (REQ ("metadata.name", FS_OP_IN, "node1")))), TRUE);
  check_affinity ("Pod with matchFields using In operator that does not match the existing node", "node2",
                  NULL, NULL, TERMS (TERM (NULL, REQS (REQ ("metadata.name", FS_OP_IN, "node1")))), FALSE);
  check_affinity ("Pod with two terms: matchFields does not match, but matchExpressions matches", "node2",
                  foo_bar, NULL,
                  TERMS (TERM (NULL, REQS (REQ ("metadata.name", FS_OP_IN, "node1"),
                                           REQ ("metadata.name", FS_OP_IN, "node2"))),
                         TERM (REQS (REQ ("foo", FS_OP_IN, "bar")), NULL)),
                  TRUE);
  check_affinity ("Pod with one term: matchFields does not match, but matchExpressions matches", "node2",
                  foo_bar, NULL,
                  TERMS (TERM (REQS (REQ ("foo", FS_OP_IN, "bar")),
                               REQS (REQ ("metadata.name", FS_OP_IN, "node1")))),
                  FALSE);
  check_affinity ("Pod with one term: both matchFields and matchExpressions match", "node1", foo_bar, NULL,
                  TERMS (TERM (REQS (REQ ("foo", FS_OP_IN, "bar")),
                               REQS (REQ ("metadata.name", FS_OP_IN, "node1")))),
                  TRUE);
  check_affinity ("Pod with two terms: both matchFields and matchExpressions do not match", "node2",
                  foo_bar, NULL,
                  TERMS (TERM (NULL, REQS (REQ ("metadata.name", FS_OP_IN, "node1"))),
                         TERM (REQS (REQ ("foo", FS_OP_IN, "not-match-to-bar")), NULL)),
                  FALSE);
  check_affinity ("Pod with two terms of node.Name affinity", "node2", NULL, NULL,
                  TERMS (TERM (NULL, REQS (REQ ("metadata.name", FS_OP_IN, "node1"))),
                         TERM (NULL, REQS (REQ ("metadata.name", FS_OP_IN, "node2")))),
                  TRUE);
  check_affinity ("Pod with two conflicting mach field requirements", "node2", foo_bar, NULL,
                  TERMS (TERM (NULL, REQS (REQ ("metadata.name", FS_OP_IN, "node1"),
                                           REQ ("metadata.name", FS_OP_IN, "node2")))),
                  FALSE);
  check_affinity ("Matches node selector correctly even if PreFilter is not called", NULL,
                  LABELS ("foo", "bar", "baz", "blah"), LABELS ("foo", "bar"), NULL, TRUE);
  check_affinity ("Matches node affinity correctly even if PreFilter is not called", NULL, gpu, NULL,
                  TERMS (TERM (REQS (REQ0 ("GPU", FS_OP_EXISTS), REQ ("GPU", FS_OP_NOT_IN, "AMD", "INTER")),
                               NULL)),
                  TRUE);
}

/* staging/src/k8s.io/component-helpers/scheduling/corev1/helpers_test.go
 * TestMatchNodeSelectorTerms (all but "nil terms", which passes a nil node). */
static void
test_match_node_selector_terms_upstream (void **state)
{
  (void) state;
  const FsNodeSelector *label_term = TERMS (TERM (REQS (REQ ("label_1", FS_OP_IN, "label_1_val")), NULL));
  const FsNodeSelector *field_term =
    TERMS (TERM (NULL, REQS (REQ ("metadata.name", FS_OP_IN, "host_1"))));
  const FsNodeSelector *both_term = TERMS (TERM (REQS (REQ ("label_1", FS_OP_IN, "label_1_val")),
                                                 REQS (REQ ("metadata.name", FS_OP_IN, "host_1"))));
  check_affinity ("node label matches matchExpressions terms", NULL, LABELS ("label_1", "label_1_val"),
                  NULL, label_term, TRUE);
  check_affinity ("node field matches matchFields terms", "host_1", NULL, NULL, field_term, TRUE);
  check_affinity ("invalid node field requirement", "host_1", NULL, NULL,
                  TERMS (TERM (NULL, REQS (REQ ("metadata.name", FS_OP_IN, "host_1", "host_2")))), FALSE);
  check_affinity ("fieldSelectorTerm with node labels", "not_host_1", LABELS ("metadata.name", "host_1"),
                  NULL, field_term, FALSE);
  check_affinity ("labelSelectorTerm with node fields", "host_1", NULL, NULL,
                  TERMS (TERM (REQS (REQ ("metadata.name", FS_OP_IN, "host_1")), NULL)), FALSE);
  check_affinity ("labelSelectorTerm and fieldSelectorTerm was set, but only node fields", "host_1", NULL,
                  NULL, both_term, FALSE);
  check_affinity ("labelSelectorTerm and fieldSelectorTerm was set, both node fields and labels (both "
                  "matched)",
                  "host_1", LABELS ("label_1", "label_1_val"), NULL, both_term, TRUE);
  check_affinity ("labelSelectorTerm and fieldSelectorTerm was set, both node fields and labels (one "
                  "mismatched)",
                  "host_1", LABELS ("label_1", "label_1_val-failed"), NULL, both_term, FALSE);
  check_affinity ("multi-selector was set, both node fields and labels (one mismatched)", "host_1",
                  LABELS ("label_1", "label_1_val-failed"), NULL,
                  TERMS (TERM (REQS (REQ ("label_1", FS_OP_IN, "label_1_val")), NULL),
                         TERM (NULL, REQS (REQ ("metadata.name", FS_OP_IN, "host_1")))),
                  TRUE);
}

/* fitscale: required_affinity with no terms matches nothing; NotIn on a field; an unnamed node
 * skips the fields check (nodeaffinity.go nodeSelectorTerm.match, len(nodeFields) > 0), but a
 * malformed field requirement still fails the term. */
static void
test_node_affinity_edges (void **state)
{
  (void) state;
  check_affinity ("no terms", "n", NULL, NULL, make_node_selector (NULL, 0), FALSE);
  check_affinity ("field NotIn", "n", NULL, NULL,
                  TERMS (TERM (NULL, REQS (REQ ("metadata.name", FS_OP_NOT_IN, "other")))), TRUE);
  check_affinity ("field NotIn self", "n", NULL, NULL,
                  TERMS (TERM (NULL, REQS (REQ ("metadata.name", FS_OP_NOT_IN, "n")))), FALSE);
  check_affinity ("field with Exists", "n", NULL, NULL,
                  TERMS (TERM (NULL, REQS (REQ0 ("metadata.name", FS_OP_EXISTS)))), FALSE);
  check_affinity ("unnamed node skips fields", NULL, NULL, NULL,
                  TERMS (TERM (NULL, REQS (REQ ("metadata.name", FS_OP_IN, "x")))), TRUE);
  check_affinity ("an invalid term does not stop the next", NULL, LABELS ("a", "1"), NULL,
                  TERMS (TERM (REQS (REQ ("bad key!", FS_OP_EXISTS, "x")), NULL),
                         TERM (REQS (REQ ("a", FS_OP_IN, "1")), NULL)),
                  TRUE);
  check_affinity ("NULL placement", NULL, NULL, NULL, NULL, TRUE);
  assert_true (fs_node_affinity_matches (test_node ("n", NULL, NULL), NULL));
}

/* ---------------------------------------------------------------------------------------------
 * Requirements and label selectors (fitscale cases, per labels.Requirement.Matches and
 * NewRequirement) */

static void
test_requirement_matches (void **state)
{
  (void) state;
  const FsLabelSet *l = LABELS ("v", "0206", "neg", "-5", "word", "abc", "big", "9223372036854775807",
                                "empty", "");
  FsRequirement r;
  r = REQ ("v", FS_OP_GT, "0204"); assert_true (fs_requirement_matches (&r, l));
  r = REQ ("v", FS_OP_GT, "206"); assert_false (fs_requirement_matches (&r, l));
  r = REQ ("v", FS_OP_LT, "207"); assert_true (fs_requirement_matches (&r, l));
  /* Signed values parse but are not valid label values (they must start with an alphanumeric),
   * so NewRequirement rejects them. */
  r = REQ ("v", FS_OP_LT, "+207"); assert_false (fs_requirement_matches (&r, l));
  r = REQ ("neg", FS_OP_LT, "-4"); assert_false (fs_requirement_matches (&r, l));
  r = REQ ("neg", FS_OP_GT, "0"); assert_false (fs_requirement_matches (&r, l)); /* "-5" on the
                                                                                    node parses */
  r = REQ ("neg", FS_OP_LT, "0"); assert_true (fs_requirement_matches (&r, l));
  r = REQ ("big", FS_OP_GT, "9223372036854775806"); assert_true (fs_requirement_matches (&r, l));
  r = REQ ("big", FS_OP_LT, "9223372036854775808"); assert_false (fs_requirement_matches (&r, l));
  r = REQ ("word", FS_OP_GT, "1"); assert_false (fs_requirement_matches (&r, l));
  r = REQ ("word", FS_OP_LT, "1"); assert_false (fs_requirement_matches (&r, l));
  r = REQ ("absent", FS_OP_LT, "1"); assert_false (fs_requirement_matches (&r, l));
  r = REQ ("v", FS_OP_GT, "1", "2"); assert_false (fs_requirement_matches (&r, l));
  r = REQ ("v", FS_OP_GT, "1.5"); assert_false (fs_requirement_matches (&r, l));
  r = REQ ("v", FS_OP_GT, ""); assert_false (fs_requirement_matches (&r, l));
  r = REQ ("v", FS_OP_GT, "-"); assert_false (fs_requirement_matches (&r, l));
  r = REQ0 ("v", FS_OP_GT); assert_false (fs_requirement_matches (&r, l));
  r = REQ ("empty", FS_OP_IN, ""); assert_true (fs_requirement_matches (&r, l));
  r = REQ ("absent", FS_OP_NOT_IN, "x"); assert_true (fs_requirement_matches (&r, l));
  r = REQ ("word", FS_OP_NOT_IN, "abc"); assert_false (fs_requirement_matches (&r, l));
  r = REQ ("absent", FS_OP_IN, "x"); assert_false (fs_requirement_matches (&r, l));
  r = REQ0 ("empty", FS_OP_EXISTS); assert_true (fs_requirement_matches (&r, l));
  r = REQ0 ("absent", FS_OP_DOES_NOT_EXIST); assert_true (fs_requirement_matches (&r, l));
  r = REQ0 ("word", FS_OP_DOES_NOT_EXIST); assert_false (fs_requirement_matches (&r, l));
  r = REQ0 ("absent", FS_OP_NOT_IN); assert_false (fs_requirement_matches (&r, NULL)); /* no values */
  r = REQ ("word", FS_OP_EXISTS, "abc"); assert_false (fs_requirement_matches (&r, l)); /* values */
  r = REQ ("example.com/zone", FS_OP_DOES_NOT_EXIST, "x"); /* values are invalid for it */
  assert_false (fs_requirement_matches (&r, NULL));
  r = REQ0 ("example.com/zone", FS_OP_DOES_NOT_EXIST); assert_true (fs_requirement_matches (&r, NULL));
  r = REQ0 ("Example.com/zone", FS_OP_DOES_NOT_EXIST); assert_false (fs_requirement_matches (&r, NULL));
  r = REQ0 ("/zone", FS_OP_DOES_NOT_EXIST); assert_false (fs_requirement_matches (&r, NULL));
  r = REQ0 ("a/b/c", FS_OP_DOES_NOT_EXIST); assert_false (fs_requirement_matches (&r, NULL));
  r = REQ0 ("-zone", FS_OP_DOES_NOT_EXIST); assert_false (fs_requirement_matches (&r, NULL));
}

static void
test_selector_matches (void **state)
{
  (void) state;
  const FsLabelSet *l = LABELS ("app", "web", "tier", "front");
  assert_false (fs_selector_matches (NULL, l));
  FsLabelSelector empty = { 0 };
  assert_true (fs_selector_matches (&empty, l));
  assert_true (fs_selector_matches (&empty, NULL));
  FsLabelSelector s = { .match_labels = LABELS ("app", "web") };
  assert_true (fs_selector_matches (&s, l));
  assert_false (fs_selector_matches (&s, NULL));
  s.match_labels = LABELS ("app", "web", "tier", "back");
  assert_false (fs_selector_matches (&s, l));
  s.match_labels = LABELS ("app", "web");
  s.match_expressions = REQS (REQ ("tier", FS_OP_IN, "front", "mid"), REQ0 ("canary", FS_OP_DOES_NOT_EXIST));
  assert_true (fs_selector_matches (&s, l));
  s.match_expressions = REQS (REQ ("tier", FS_OP_NOT_IN, "front"));
  assert_false (fs_selector_matches (&s, l));
  FsLabelSelector only_exprs = { .match_expressions = REQS (REQ0 ("app", FS_OP_EXISTS)) };
  assert_true (fs_selector_matches (&only_exprs, l));
  FsLabelSelector bad = { .match_labels = LABELS ("app", "not a value") };
  assert_false (fs_selector_matches (&bad, LABELS ("app", "not a value")));
}

/* ---------------------------------------------------------------------------------------------
 * Filter order */

/* scheduler-fit.md §2: the first rejecting filter alone is reported. */
static void
test_filter_order (void **state)
{
  (void) state;
  FsVerdict v;
  TestPod *pod = test_pod ();
  pod->spec.request.cpu_milli = 500;
  pod->placement.node_selector = LABELS ("zone", "a");
  /* Cordoned, tainted, wrong labels and full: only "were unschedulable". */
  FsNode *node = test_node ("n1", LABELS ("zone", "b"),
                            TAINTS ({ .key = "k", .value = "v", .effect = FS_EFFECT_NO_SCHEDULE }));
  node->flags = FS_NODE_UNSCHEDULABLE;
  put (&node->allocatable, "cpu", 100);
  assert_false (fs_fit_node (node, NULL, &pod->shape, &v));
  assert_int_equal (v.filter, FS_FILTER_NODE_UNSCHEDULABLE);
  /* Uncordoned, pinned elsewhere: node name. */
  node->flags = 0;
  pod->shape.node_name = "n2";
  assert_false (fs_fit_node (node, NULL, &pod->shape, &v));
  assert_int_equal (v.filter, FS_FILTER_NODE_NAME);
  /* Pinned here: the taint. */
  pod->shape.node_name = "n1";
  assert_false (fs_fit_node (node, NULL, &pod->shape, &v));
  assert_int_equal (v.filter, FS_FILTER_TAINT_TOLERATION);
  assert_int_equal (v.short_bits, 0); /* NodeResourcesFit never ran */
  /* Tolerated: the selector. */
  pod->placement.tolerations = TOLS ({ .key = "k", .op = FS_TOLERATION_EXISTS });
  assert_false (fs_fit_node (node, NULL, &pod->shape, &v));
  assert_int_equal (v.filter, FS_FILTER_NODE_AFFINITY);
  /* Labels right: resources; 500m exceeds the whole 100m allocatable (Unschedulable before
   * v1.36). */
  node->labels = LABELS ("zone", "a");
  assert_false (fs_fit_node (node, NULL, &pod->shape, &v));
  assert_int_equal (v.filter, FS_FILTER_NODE_RESOURCES_FIT);
  assert_false (v.unresolvable);
  put (&node->allocatable, "cpu", 1000);
  node->requested.cpu_milli = 600;
  assert_false (fs_fit_node (node, NULL, &pod->shape, &v));
  assert_false (v.unresolvable);
  assert_int_equal (v.short_by.cpu_milli, 100);
  node->requested.cpu_milli = 500;
  assert_true (fs_fit_node (node, NULL, &pod->shape, &v));
  /* A pod with no spec requests nothing. */
  FsPodShape bare = { 0 };
  assert_true (fs_fit_node (test_node ("n3", NULL, NULL), NULL, &bare, &v));
  /* The verdict is reset on every call. */
  assert_int_equal (v.filter, FS_FILTER_PASS);
  assert_null (v.taint);
}

static void
test_verdict_reasons_other_filters (void **state)
{
  (void) state;
  FsVerdict v = { .filter = FS_FILTER_POD_TOPOLOGY_SPREAD };
  g_autofree char *spread = reasons_of (&v);
  assert_string_equal (spread, "node(s) didn't match pod topology spread constraints");
  v.filter = FS_FILTER_INTER_POD_AFFINITY;
  g_autofree char *anti = reasons_of (&v);
  assert_string_equal (anti, "node(s) didn't match pod anti-affinity rules");
  v.filter = FS_FILTER_PASS;
  g_autofree char *none = reasons_of (&v);
  assert_string_equal (none, "");
}

/* ---------------------------------------------------------------------------------------------
 * The message */

/* framework/types_test.go TestFitError_Error: the cases without a PreFilter message (the two
 * "nodes failed Prefilter plugin" cases have no counterpart here). */
static void
test_fit_error_upstream (void **state)
{
  (void) state;
  static const struct {
    const char *name;
    guint n_nodes;
    const char *node_reasons[3];
    const char *postfilter;
    const char *want;
  } cases[] = {
    { "nodes failed one Filter plugin with an empty PostFilterMsg", 3,
      { "Node(s) failed Filter plugin FalseFilter-1", "Node(s) failed Filter plugin FalseFilter-1",
        "Node(s) failed Filter plugin FalseFilter-1" },
      NULL, "0/3 nodes are available: 3 Node(s) failed Filter plugin FalseFilter-1." },
    { "nodes failed one Filter plugin with a non-empty PostFilterMsg", 3,
      { "Node(s) failed Filter plugin FalseFilter-1", "Node(s) failed Filter plugin FalseFilter-1",
        "Node(s) failed Filter plugin FalseFilter-1" },
      "Error running PostFilter plugin FailedPostFilter",
      "0/3 nodes are available: 3 Node(s) failed Filter plugin FalseFilter-1. Error running PostFilter "
      "plugin FailedPostFilter" },
    { "nodes failed two Filter plugins with an empty PostFilterMsg", 3,
      { "Node(s) failed Filter plugin FalseFilter-1", "Node(s) failed Filter plugin FalseFilter-1",
        "Node(s) failed Filter plugin FalseFilter-2" },
      NULL,
      "0/3 nodes are available: 1 Node(s) failed Filter plugin FalseFilter-2, 2 Node(s) failed Filter "
      "plugin FalseFilter-1." },
    { "nodes failed two Filter plugins with a non-empty PostFilterMsg", 3,
      { "Node(s) failed Filter plugin FalseFilter-1", "Node(s) failed Filter plugin FalseFilter-1",
        "Node(s) failed Filter plugin FalseFilter-2" },
      "Error running PostFilter plugin FailedPostFilter",
      "0/3 nodes are available: 1 Node(s) failed Filter plugin FalseFilter-2, 2 Node(s) failed Filter "
      "plugin FalseFilter-1. Error running PostFilter plugin FailedPostFilter" },
    { "failed to Permit on node", 1, { "Node failed Permit plugin Permit-1" }, NULL,
      "0/1 nodes are available: 1 Node failed Permit plugin Permit-1." },
    { "failed to Reserve on node", 1, { "Node failed Reserve plugin Reserve-1" }, NULL,
      "0/1 nodes are available: 1 Node failed Reserve plugin Reserve-1." },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (FsReasonCounts) counts = fs_reason_counts_new ();
      for (guint j = 0; j < G_N_ELEMENTS (cases[i].node_reasons); j++)
        if (cases[i].node_reasons[j] != NULL)
          fs_reason_counts_add (counts, cases[i].node_reasons[j], 1);
      g_autofree char *got = fs_fit_error_message (cases[i].n_nodes, counts, cases[i].postfilter);
      CHECK_STR (got, cases[i].want, cases[i].name);
    }
}

/* fitscale: sort.Strings order puts "10 ..." before "2 ..." and digits before letters; the
 * empty histogram (FitError.Error adds nothing after the colon); one verdict adding several
 * reasons; the 1.3x message shape of scheduler-fit.md §3. */
static void
test_fit_error_sorting (void **state)
{
  (void) state;
  g_autoptr (FsReasonCounts) counts = fs_reason_counts_new ();
  fs_reason_counts_add (counts, "Insufficient memory", 2);
  fs_reason_counts_add (counts, "Insufficient cpu", 4);
  fs_reason_counts_add (counts, "Insufficient cpu", 6);
  g_autofree char *m = fs_fit_error_message (12, counts, NULL);
  assert_string_equal (m, "0/12 nodes are available: 10 Insufficient cpu, 2 Insufficient memory.");

  g_autofree char *empty = fs_fit_error_message (3, NULL, NULL);
  assert_string_equal (empty, "0/3 nodes are available:");
  g_autoptr (FsReasonCounts) none = fs_reason_counts_new ();
  g_autofree char *empty_post = fs_fit_error_message (3, none, "preemption: x");
  assert_string_equal (empty_post, "0/3 nodes are available: preemption: x");
  g_autofree char *empty_string_post = fs_fit_error_message (3, none, "");
  assert_string_equal (empty_string_post, "0/3 nodes are available:");
  /* No node: schedule_one.go schedulePod returns ErrNoNodesAvailable, no PostFilter runs
   * (it said "0/0 nodes are available: preemption: 0/0 nodes are available:"). */
  g_autofree char *no_nodes = fs_fit_error_message (0, none, "preemption: x");
  assert_string_equal (no_nodes, "no nodes available to schedule pods");

  /* 0/3: a tainted control plane and two nodes the selector rejects. */
  g_autoptr (FsReasonCounts) c3 = fs_reason_counts_new ();
  FsNode *cp = test_node ("cp", NULL,
                          TAINTS ({ .key = "node-role.kubernetes.io/control-plane",
                                    .effect = FS_EFFECT_NO_SCHEDULE }));
  FsNode *w1 = test_node ("w1", LABELS ("pool", "a"), NULL);
  FsNode *w2 = test_node ("w2", LABELS ("pool", "a"), NULL);
  TestPod *pod = test_pod ();
  pod->placement.node_selector = LABELS ("pool", "gpu");
  const FsNode *nodes[] = { cp, w1, w2 };
  for (gsize i = 0; i < G_N_ELEMENTS (nodes); i++)
    {
      FsVerdict v;
      assert_false (fs_fit_node (nodes[i], NULL, &pod->shape, &v));
      fs_reason_counts_add_verdict (c3, &v);
    }
  g_autofree char *m3 = fs_fit_error_message (
    3, c3, "preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.");
  assert_string_equal (m3, "0/3 nodes are available: 1 node(s) had untolerated taint "
                           "{node-role.kubernetes.io/control-plane: }, 2 node(s) didn't match Pod's "
                           "node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption "
                           "is not helpful for scheduling.");

  /* One node short of cpu and memory adds both; a passing verdict adds nothing. */
  g_autoptr (FsReasonCounts) c = fs_reason_counts_new ();
  FsVerdict both = { .filter = FS_FILTER_NODE_RESOURCES_FIT,
                     .short_bits = FS_SHORT_CPU | FS_SHORT_MEMORY };
  FsVerdict pass = { .filter = FS_FILTER_PASS };
  fs_reason_counts_add_verdict (c, &both);
  fs_reason_counts_add_verdict (c, &both);
  fs_reason_counts_add_verdict (c, &both);
  fs_reason_counts_add_verdict (c, &pass);
  g_autofree char *mb = fs_fit_error_message (4, c, NULL);
  assert_string_equal (mb, "0/4 nodes are available: 3 Insufficient cpu, 3 Insufficient memory.");
  fs_reason_counts_free (NULL);
}

/* ---------------------------------------------------------------------------------------------
 * Main */

static int
group_setup (void **state)
{
  (void) state;
  garbage = g_ptr_array_new_with_free_func (g_free);
  return 0;
}

static int
group_teardown (void **state)
{
  (void) state;
  g_ptr_array_unref (garbage);
  garbage = NULL;
  return 0;
}

/* apimachinery pkg/labels selector_test.go TestSelectorParse (good and bad strings), and what
 * the parsed selectors match. */
static void
test_selector_parse (void **state)
{
  static const char *const good[] = { "x=a,y=b,z=c", "", "x!=a,y=b", "x=", "x= ", "x=,z= ", "x= ,z= ", "!x",
                                      "x>1", "x>1,z<5", "x in (a, b)", "x notin (a),y", "app.kubernetes.io/name==web" };
  static const char *const bad[] = { "x=a||y=b", "x==a==b", "!x=a", "x<a", "x in a", "x in (a", "-x=a", "x=a b" };
  for (gsize i = 0; i < G_N_ELEMENTS (good); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (FsLabelSelector) selector = fs_label_selector_parse (good[i], &error);
      if (selector == NULL)
        fail_msg ("\"%s\" rejected: %s", good[i], error->message);
    }
  for (gsize i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (FsLabelSelector) selector = fs_label_selector_parse (bad[i], &error);
      if (selector != NULL)
        fail_msg ("\"%s\" accepted", bad[i]);
      assert_non_null (strstr (error->message, bad[i]));
    }
  static const FsLabelSet *labels; /* {app: web, tier: front, replicas: 3} */
  static struct { guint n; FsLabel items[3]; } set = { 3, { { "app", "web" }, { "replicas", "3" }, { "tier", "front" } } };
  labels = (const FsLabelSet *) &set;
  static const struct { const char *selector; gboolean matches; } cases[] = {
    { "", TRUE }, { "app=web", TRUE }, { "app==web,tier=front", TRUE }, { "app!=web", FALSE },
    { "app in (db, web)", TRUE }, { "app notin (db, web)", FALSE }, { "tier", TRUE }, { "!tier", FALSE },
    { "!zone", TRUE }, { "replicas>2", TRUE }, { "replicas<3", FALSE }, { "zone=a", FALSE }, { "zone!=a", TRUE },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (FsLabelSelector) selector = fs_label_selector_parse (cases[i].selector, NULL);
      assert_non_null (selector);
      if (fs_selector_matches (selector, labels) != cases[i].matches)
        fail_msg ("\"%s\" should %smatch", cases[i].selector, cases[i].matches ? "" : "not ");
    }
}

/* ---------------------------------------------------------------------------------------------
 * NodePorts */

/* "PROTOCOL/IP/PORT" strings as node_ports_test.go newPod writes them; "" parts are absent.
 * Returns the number of entries written to OUT. */
static guint
parse_ports (const char *const *specs, FsHostPort *out)
{
  guint n = 0;
  for (; specs[n] != NULL; n++)
    {
      g_auto (GStrv) parts = g_strsplit (specs[n], "/", 3);
      memset (&out[n], 0, sizeof out[n]);
      out[n].protocol = *parts[0] ? keep (g_strdup (parts[0])) : NULL;
      out[n].host_ip = *parts[1] ? keep (g_strdup (parts[1])) : NULL;
      out[n].port = atoi (parts[2]);
    }
  return n;
}

static const FsHostPortList *
make_wanted_ports (const char *const *specs)
{
  FsHostPortList *list = keep (g_malloc0 (sizeof (FsHostPortList) + 8 * sizeof (FsHostPort)));
  list->n = parse_ports (specs, list->items);
  return list;
}
#define WANT(...) make_wanted_ports ((const char *const[]){ __VA_ARGS__, NULL })

/* The ports a node's bound pods hold, each entry held by HOLDER. */
static const FsUsedPortList *
make_used_ports (const FsPod *holder, const char *const *specs)
{
  FsHostPort ports[8];
  guint n = parse_ports (specs, ports);
  FsUsedPortList *list = keep (g_malloc0 (sizeof (FsUsedPortList) + n * sizeof (FsUsedPort)));
  list->n = n;
  for (guint i = 0; i < n; i++)
    list->items[i] = (FsUsedPort){ .port = ports[i], .pod = holder };
  return list;
}
#define USED(holder, ...) make_used_ports ((holder), (const char *const[]){ __VA_ARGS__, NULL })

static const char *const NODE_PORTS_REASON = "node(s) didn't have free ports for the requested pod ports";

/* pkg/scheduler/framework/plugins/nodeports/node_ports_test.go TestNodePorts: the incoming
 * pod's ports against one node's pods, through fs_fit_node (the filter runs between
 * NodeAffinity and NodeResourcesFit; the node has room for everything else). */
static void
test_node_ports_upstream (void **state)
{
  (void) state;
  static const FsPod holder = { .name = "m1-pod" };
  static const struct {
    const char *name;
    const char *want[3];
    const char *used[3];
    gboolean fits;
  } cases[] = {
    { "other port", { "UDP/127.0.0.1/8080" }, { "UDP/127.0.0.1/9090" }, TRUE },
    { "same udp port", { "UDP/127.0.0.1/8080" }, { "UDP/127.0.0.1/8080" }, FALSE },
    { "same tcp port", { "TCP/127.0.0.1/8080" }, { "TCP/127.0.0.1/8080" }, FALSE },
    { "different host ip", { "TCP/127.0.0.1/8080" }, { "TCP/127.0.0.2/8080" }, TRUE },
    { "different protocol", { "UDP/127.0.0.1/8080" }, { "TCP/127.0.0.1/8080" }, TRUE },
    { "second udp port conflict", { "UDP/127.0.0.1/8000", "UDP/127.0.0.1/8080" },
      { "UDP/127.0.0.1/8080" }, FALSE },
    { "first tcp port conflict", { "TCP/127.0.0.1/8001", "UDP/127.0.0.1/8080" },
      { "TCP/127.0.0.1/8001", "UDP/127.0.0.1/8081" }, FALSE },
    { "first tcp port conflict due to 0.0.0.0 hostIP", { "TCP/0.0.0.0/8001" },
      { "TCP/127.0.0.1/8001" }, FALSE },
    { "TCP hostPort conflict due to 0.0.0.0 hostIP", { "TCP/10.0.10.10/8001", "TCP/0.0.0.0/8001" },
      { "TCP/127.0.0.1/8001" }, FALSE },
    { "second tcp port conflict to 0.0.0.0 hostIP", { "TCP/127.0.0.1/8001" },
      { "TCP/0.0.0.0/8001" }, FALSE },
    { "second different protocol", { "UDP/127.0.0.1/8001" }, { "TCP/0.0.0.0/8001" }, TRUE },
    { "UDP hostPort conflict due to 0.0.0.0 hostIP", { "UDP/127.0.0.1/8001" },
      { "TCP/0.0.0.0/8001", "UDP/0.0.0.0/8001" }, FALSE },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      TestPod *pod = test_pod ();
      pod->spec.host_ports = make_wanted_ports (cases[i].want);
      FsNode *node = test_node ("m1", NULL, NULL);
      node->used_ports = make_used_ports (&holder, cases[i].used);
      FsVerdict v;
      if (fs_fit_node (node, NULL, &pod->shape, &v) != cases[i].fits)
        fail_msg ("%s: expected %s", cases[i].name, cases[i].fits ? "a fit" : "a conflict");
      g_autofree char *reasons = reasons_of (&v);
      assert_string_equal (reasons, cases[i].fits ? "" : NODE_PORTS_REASON);
      assert_int_equal (v.filter, cases[i].fits ? FS_FILTER_PASS : FS_FILTER_NODE_PORTS);
      assert_false (v.unresolvable); /* Unschedulable: preemption may help */
    }
  /* "skip filter": a pod without host ports fits whatever the node holds */
  TestPod *none = test_pod ();
  FsNode *busy = test_node ("m1", NULL, NULL);
  busy->used_ports = USED (&holder, "TCP/0.0.0.0/80");
  FsVerdict v;
  assert_true (fs_fit_node (busy, NULL, &none->shape, &v));
  assert_true (fs_host_ports_fit (NULL, busy->used_ports, NULL, NULL));
}

/* pkg/scheduler/framework/types_test.go TestHostPortInfo_Check: CheckConflict after Add, with
 * sanitize's defaults (hostIP "" is 0.0.0.0, protocol "" is TCP). */
static void
test_host_port_info_check_upstream (void **state)
{
  (void) state;
  static const FsPod holder = { .name = "p" };
  static const struct {
    const char *name;
    const char *added[5];
    const char *check;
    gboolean conflict;
  } cases[] = {
    { "empty check should check 0.0.0.0 and TCP", { "TCP/127.0.0.1/80" }, "//81", FALSE },
    { "empty check should check 0.0.0.0 and TCP (conflicted)", { "TCP/127.0.0.1/80" }, "//80", TRUE },
    { "empty port check should pass", { "TCP/127.0.0.1/80" }, "//0", FALSE },
    { "0.0.0.0 should check all registered IPs", { "TCP/127.0.0.1/80" }, "TCP/0.0.0.0/80", TRUE },
    { "0.0.0.0 with different protocol should be allowed", { "UDP/127.0.0.1/80" },
      "TCP/0.0.0.0/80", FALSE },
    { "0.0.0.0 with different port should be allowed",
      { "TCP/127.0.0.1/79", "TCP/127.0.0.1/81", "TCP/127.0.0.1/82" }, "TCP/0.0.0.0/80", FALSE },
    { "normal ip should check all registered 0.0.0.0", { "TCP/0.0.0.0/80" }, "TCP/127.0.0.1/80", TRUE },
    { "normal ip with different port/protocol should be allowed (0.0.0.0)",
      { "TCP/0.0.0.0/79", "UDP/0.0.0.0/80", "TCP/0.0.0.0/81", "TCP/0.0.0.0/82" },
      "TCP/127.0.0.1/80", FALSE },
    { "normal ip with different port/protocol should be allowed",
      { "TCP/127.0.0.1/79", "UDP/127.0.0.1/80", "TCP/127.0.0.1/81", "TCP/127.0.0.1/82" },
      "TCP/127.0.0.1/80", FALSE },
    /* Add sanitizes too: an entry written without hostIP and protocol is TCP on 0.0.0.0 */
    { "(fitscale) an added entry without IP and protocol", { "//8080" }, "TCP/10.0.0.1/8080", TRUE },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const FsUsedPortList *used = make_used_ports (&holder, cases[i].added);
      FsHostPort check;
      parse_ports ((const char *const[]){ cases[i].check, NULL }, &check);
      if (fs_host_port_conflicts (used, NULL, NULL, &check) != cases[i].conflict)
        fail_msg ("%s: expected %s", cases[i].name, cases[i].conflict ? "a conflict" : "none");
    }
}

/* The ports of a pod taken off the node (a workload's own pods its replicas replace,
 * preemption's victims) no longer count: NodeInfo.RemovePod -> updateUsedPorts. */
static gboolean
released_if_first (const FsPod *pod, gpointer first)
{
  return pod == first;
}

static void
test_node_ports_released (void **state)
{
  (void) state;
  static const FsPod pods[2] = { { .name = "old" }, { .name = "other" } };
  FsUsedPortList *used = keep (g_malloc0 (sizeof (FsUsedPortList) + 2 * sizeof (FsUsedPort)));
  used->n = 2;
  used->items[0] = (FsUsedPort){ .port = { .port = 80 }, .pod = &pods[0] };
  used->items[1] = (FsUsedPort){ .port = { .port = 443 }, .pod = &pods[1] };
  TestPod *pod = test_pod ();
  pod->spec.host_ports = WANT ("TCP//80");
  FsNode *node = test_node ("n", NULL, NULL);
  node->used_ports = used;
  FsNodeLoad load = { .used_ports = used };
  FsVerdict v;
  assert_false (fs_fit_node (node, &load, &pod->shape, &v));
  assert_int_equal (v.filter, FS_FILTER_NODE_PORTS);
  load.released = released_if_first;
  load.released_data = (gpointer) &pods[0];
  assert_true (fs_fit_node (node, &load, &pod->shape, &v));
  pod->spec.host_ports = WANT ("TCP//443");
  assert_false (fs_fit_node (node, &load, &pod->shape, &v));
}

/* pkg/scheduler/util/utils.go GetHostPorts (and node_ports_test.go TestGetContainerPorts: the
 * ports without a hostPort are left out), after pkg/apis/core/v1/defaults.go
 * defaultHostNetworkPorts. */
static void
test_pod_host_ports (void **state)
{
  (void) state;
  const FsContainerPort ports[] = {
    { .host_port = 8001, .container_port = 8001, .protocol = "TCP" },
    { .host_port = 8002, .container_port = 8002, .protocol = "TCP" },
    { .container_port = 8005, .protocol = "TCP" },                    /* no hostPort */
    { .host_port = 9001, .container_port = 9001, .init = TRUE },        /* a plain init container */
    { .host_port = 9002, .container_port = 9002, .init = TRUE, .restartable = TRUE, .host_ip = "10.0.0.1" },
    { .container_port = 9003, .init = TRUE, .restartable = TRUE },    /* a sidecar, no hostPort */
  };
  FsHostPort out[G_N_ELEMENTS (ports)];
  /* the sidecar's first (GetHostPorts walks init containers first), then the containers' */
  guint n = fs_pod_host_ports (ports, G_N_ELEMENTS (ports), FALSE, out);
  assert_int_equal (n, 3);
  assert_int_equal (out[0].port, 9002);
  assert_string_equal (out[0].host_ip, "10.0.0.1");
  assert_null (out[0].protocol);
  assert_int_equal (out[1].port, 8001);
  assert_string_equal (out[1].protocol, "TCP");
  assert_int_equal (out[2].port, 8002);
  assert_int_equal (out[0].unused + out[1].unused + out[2].unused, 0);
  /* hostNetwork: every port without a hostPort takes its containerPort, and the same
   * containers count */
  n = fs_pod_host_ports (ports, G_N_ELEMENTS (ports), TRUE, out);
  assert_int_equal (n, 5);
  assert_int_equal (out[0].port, 9002);
  assert_int_equal (out[1].port, 9003);
  assert_int_equal (out[2].port, 8001);
  assert_int_equal (out[3].port, 8002);
  assert_int_equal (out[4].port, 8005);
  assert_int_equal (fs_pod_host_ports (NULL, 0, TRUE, out), 0);
}

/* NodePorts runs after NodeAffinity and before NodeResourcesFit (default_plugins.go), and
 * the framework stops at the first rejection: a full node whose port is taken is reported
 * for its ports only. */
static void
test_node_ports_filter_order (void **state)
{
  (void) state;
  static const FsPod holder = { .name = "ingress" };
  TestPod *pod = test_pod ();
  pod->spec.request.cpu_milli = 500;
  pod->spec.host_ports = WANT ("TCP//80");
  pod->placement.node_selector = LABELS ("pool", "edge");
  FsNode *node = test_node ("n1", LABELS ("pool", "core"), NULL);
  node->used_ports = USED (&holder, "TCP//80");
  put (&node->allocatable, "cpu", 1000);
  node->requested.cpu_milli = 900;
  FsVerdict v;
  assert_false (fs_fit_node (node, NULL, &pod->shape, &v));
  assert_int_equal (v.filter, FS_FILTER_NODE_AFFINITY);
  node->labels = LABELS ("pool", "edge");
  assert_false (fs_fit_node (node, NULL, &pod->shape, &v));
  assert_int_equal (v.filter, FS_FILTER_NODE_PORTS);
  assert_int_equal (v.short_bits, 0); /* NodeResourcesFit never ran */
  node->used_ports = NULL;
  assert_false (fs_fit_node (node, NULL, &pod->shape, &v));
  assert_int_equal (v.filter, FS_FILTER_NODE_RESOURCES_FIT);
  /* in the FailedScheduling message the reason counts like any other */
  g_autoptr (FsReasonCounts) counts = fs_reason_counts_new ();
  FsVerdict ports = { .filter = FS_FILTER_NODE_PORTS };
  fs_reason_counts_add_verdict (counts, &ports);
  fs_reason_counts_add_verdict (counts, &ports);
  fs_reason_counts_add_verdict (counts, &v);
  g_autofree char *message = fs_fit_error_message (3, counts, NULL);
  assert_string_equal (message, "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't "
                                "have free ports for the requested pod ports.");
}

/* fit.go fitsRequest: a pod that asks only for a scalar resource (no cpu, memory or
 * ephemeral-storage) is still checked, against the free amount on the node. */
static void
test_resources_fit_scalar_only (void **state)
{
  FsResources alloc = { 0 }, gpu = { 0 };
  put (&alloc, "cpu", 4000);
  put (&alloc, "memory", 1024);
  put (&alloc, "pods", 10);
  put (&alloc, "nvidia.com/gpu", 2);
  FsNodeLoad load = { 0 };
  put (&gpu, "nvidia.com/gpu", 1);
  FsVerdict v;
  assert_true (fs_resources_fit (&alloc, &load, &gpu, &v));
  put (&load.requested, "nvidia.com/gpu", 1);
  load.pod_count = 1;
  assert_true (fs_resources_fit (&alloc, &load, &gpu, &v)); /* 1 of 1 free: equal fits */
  put (&load.requested, "nvidia.com/gpu", 2);
  assert_false (fs_resources_fit (&alloc, &load, &gpu, &v));
  g_autofree char *reasons = reasons_of (&v);
  assert_string_equal (reasons, "Insufficient nvidia.com/gpu");
  assert_int_equal (fs_resources_get (&v.short_by, "nvidia.com/gpu"), 1);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_selector_parse),
    cmocka_unit_test (test_resources_fit_upstream),
    cmocka_unit_test (test_resources_fit_ignored_upstream),
    cmocka_unit_test (test_scheduler_profile_filters),
    cmocka_unit_test (test_resources_fit_order),
    cmocka_unit_test (test_resources_fit_rag_api),
    cmocka_unit_test (test_toleration_tolerates_upstream),
    cmocka_unit_test (test_toleration_edges),
    cmocka_unit_test (test_taint_toleration_filter_upstream),
    cmocka_unit_test (test_taint_reason_empty_value),
    cmocka_unit_test (test_node_unschedulable_upstream),
    cmocka_unit_test (test_node_name_upstream),
    cmocka_unit_test (test_node_affinity_upstream),
    cmocka_unit_test (test_match_node_selector_terms_upstream),
    cmocka_unit_test (test_node_affinity_edges),
    cmocka_unit_test (test_requirement_matches),
    cmocka_unit_test (test_selector_matches),
    cmocka_unit_test (test_filter_order),
    cmocka_unit_test (test_verdict_reasons_other_filters),
    cmocka_unit_test (test_fit_error_upstream),
    cmocka_unit_test (test_fit_error_sorting),
    cmocka_unit_test (test_node_ports_upstream),
    cmocka_unit_test (test_host_port_info_check_upstream),
    cmocka_unit_test (test_node_ports_released),
    cmocka_unit_test (test_pod_host_ports),
    cmocka_unit_test (test_node_ports_filter_order),
    cmocka_unit_test (test_resources_fit_scalar_only),
  };
  return cmocka_run_group_tests_name ("fit", tests, group_setup, group_teardown);
}
