/* DefaultPreemption (model/preemption.h): cases ported from kubernetes/kubernetes
 * pkg/scheduler/framework/plugins/defaultpreemption/default_preemption_test.go, each test
 * naming the upstream test function and case.  Upstream's nodes have cpu 500m and memory 500
 * (veryLargeRes) and its pods request smallRes (100m, 100), mediumRes (200m, 200), largeRes
 * (300m, 300) or veryLargeRes (500m, 500); priorities are negPriority -100, lowPriority 0,
 * midPriority 100, highPriority 1000 and veryHighPriority 10000; epochTimeN is written here
 * as N seconds after 2026-01-01T00:00:00Z. */
#include "config.h"

#include "fitscale/model/preemption.h"
#include "testutil.h"

#define SMALL "100m", "100"
#define MEDIUM "200m", "200"
#define LARGE "300m", "300"
#define VERY_LARGE "500m", "500"
#define ZERO "0", "0"
#define NEG "-100"
#define LOW "0"
#define MID "100"
#define HIGH "1000"
#define VERY_HIGH "10000"

/* A node with allocatable cpu CPU, memory MEMORY and PODS pods, and LABELS (JSON members). */
#define NODE_OF(name, cpu, memory, pods, labels)                                              \
  "{\"kind\":\"Node\",\"metadata\":{\"name\":\"" name "\",\"labels\":{" labels "}},"        \
  "\"status\":{\"allocatable\":{\"cpu\":\"" cpu "\",\"memory\":\"" memory "\",\"pods\":\"" pods "\"}}}"
#define NODE(name) NODE_OF (name, "500m", "500", "110", "\"hostname\":\"" name "\"")
/* A pod of namespace default: META and SPEC and STATUS are extra JSON members (each starting
 * with a comma, or empty). */
#define POD_OF(name, node, priority, cpu, memory, meta, spec, status)                        \
  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"" name "\",\"namespace\":\"default\"" meta "},"  \
  "\"spec\":{\"nodeName\":\"" node "\",\"priority\":" priority ",\"containers\":[{\"name\":"    \
  "\"c\",\"resources\":{\"requests\":{\"cpu\":\"" cpu "\",\"memory\":\"" memory "\"}}}]" spec "}," \
  "\"status\":{\"phase\":\"Running\"" status "}}"
#define POD_WITH(name, node, priority, request, meta, spec, status)                        \
  POD_OF (name, node, priority, request, meta, spec, status)
#define POD(name, node, priority, request) POD_OF (name, node, priority, request, "", "", "")
#define STARTED(n) ",\"startTime\":\"2026-01-01T00:00:0" #n "Z\""
#define POD_AT(name, node, priority, request, n) POD_OF (name, node, priority, request, "", "", STARTED (n))
#define LABELED(name, node, priority, request, labels)                                        \
  POD_OF (name, node, priority, request, ",\"labels\":{" labels "}", "", "")
#define PDB(name, labels, allowed, disrupted)                                                 \
  "{\"kind\":\"PodDisruptionBudget\",\"apiVersion\":\"policy/v1\",\"metadata\":{\"name\":\"" name \
  "\",\"namespace\":\"default\"},\"spec\":{\"selector\":{\"matchLabels\":{" labels "}}},"    \
  "\"status\":{\"disruptionsAllowed\":" allowed ",\"disruptedPods\":{" disrupted "}}}"

/* The preemptor "p" asks for cpu and memory as its REQUEST pair says. */
#define PENDING(priority, request) PENDING_ (priority, request, "", "")
#define PENDING_OF(priority, request, meta, spec) PENDING_ (priority, request, meta, spec)
#define PENDING_(priority, cpu, memory, meta, spec)                                          \
  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\"" meta "},"        \
  "\"spec\":{\"priority\":" priority ",\"containers\":[{\"name\":\"c\",\"resources\":"      \
  "{\"requests\":{\"cpu\":\"" cpu "\",\"memory\":\"" memory "\"}}}]" spec "},"              \
  "\"status\":{\"phase\":\"Pending\"}}"

static gboolean
is_pod (const FsPod *pod, gpointer data)
{
  return pod == data;
}

typedef struct {
  FsSnapshot *snapshot;
  const FsPod *pod;
  FsPodShape shape;
  FsPackOptions options;
  FsNodeFit *nodes;
  FsPreemption preemption;
} Run;

/* The filters for pod p on every node of TEXT, then Evaluator.Preempt. */
static void
run_preempt (Run *run, const char *text)
{
  run->snapshot = test_load_valid_text (text);
  run->pod = fs_snapshot_find_pod (run->snapshot, "default", "p");
  assert_non_null (run->pod);
  run->shape = (FsPodShape){ .namespace = run->pod->namespace, .labels = run->pod->labels,
                             .spec = run->pod->spec, .priority = run->pod->priority };
  run->options = (FsPackOptions){ .replicas = 1, .exclude = is_pod, .exclude_data = (gpointer) run->pod };
  run->nodes = g_new0 (FsNodeFit, run->snapshot->n_nodes + 1);
  FsPackResult result;
  fs_pack (run->snapshot, &run->shape, &run->options, run->nodes, &result);
  assert_int_equal (result.capacity, 0);
  fs_preempt (run->snapshot, &run->shape, &run->options, run->pod->nominated_node, run->nodes,
              &run->preemption);
}

static void
run_clear (Run *run)
{
  fs_preemption_clear (&run->preemption);
  g_free (run->nodes);
  fs_snapshot_unref (run->snapshot);
}

static const char *
chosen_node (const Run *run)
{
  assert_true (run->preemption.found);
  return run->snapshot->nodes[run->preemption.chosen.node_index].name;
}

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

/* The victims' names, sorted (as upstream compares them), joined by spaces. */
static char *
victim_names (const FsPreemptionCandidate *candidate)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  for (guint i = 0; i < candidate->victims->len; i++)
    g_ptr_array_add (names, (gpointer) g_array_index (candidate->victims, FsVictim, i).pod->name);
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);
  return g_strjoinv (" ", (char **) names->pdata);
}

static void
expect_choice (const char *text, const char *node, const char *victims)
{
  Run run;
  run_preempt (&run, text);
  assert_string_equal (chosen_node (&run), node);
  g_autofree char *names = victim_names (&run.preemption.chosen);
  assert_string_equal (names, victims);
  run_clear (&run);
}

/* ---- TestSelectBestCandidate ---------------------------------------------------------------- */

static void
test_select_best_candidate (void **state)
{
  /* "a pod that fits on both nodes when lower priority pods are preempted": either node;
   * a tie left after every criterion goes to the first node by name */
  expect_choice (NODE ("node1") NODE ("node2") PENDING (HIGH, LARGE)
                 POD_AT ("p1", "node1", MID, LARGE, 0) POD_AT ("p2", "node2", MID, LARGE, 0),
                 "node1", "p1");
  /* "node with min highest priority pod is picked" */
  expect_choice (NODE ("node1") NODE ("node2") NODE ("node3") PENDING (HIGH, VERY_LARGE)
                 POD ("p1.1", "node1", MID, MEDIUM) POD ("p1.2", "node1", MID, LARGE)
                 POD ("p2.1", "node2", MID, MEDIUM) POD ("p2.2", "node2", LOW, MEDIUM)
                 POD ("p3.1", "node3", LOW, MEDIUM) POD ("p3.2", "node3", LOW, MEDIUM),
                 "node3", "p3.1 p3.2");
  /* "when highest priorities are the same, minimum sum of priorities is picked" */
  expect_choice (NODE ("node1") NODE ("node2") NODE ("node3") PENDING (HIGH, VERY_LARGE)
                 POD ("p1.1", "node1", MID, MEDIUM) POD ("p1.2", "node1", MID, LARGE)
                 POD ("p2.1", "node2", MID, LARGE) POD ("p2.2", "node2", LOW, MEDIUM)
                 POD ("p3.1", "node3", MID, MEDIUM) POD ("p3.2", "node3", MID, MEDIUM),
                 "node2", "p2.1 p2.2");
  /* "when highest priority and sum are the same, minimum number of pods is picked" */
  expect_choice (NODE ("node1") NODE ("node2") NODE ("node3") PENDING (HIGH, VERY_LARGE)
                 POD ("p1.1", "node1", MID, SMALL) POD ("p1.2", "node1", NEG, SMALL)
                 POD ("p1.3", "node1", MID, SMALL) POD ("p1.4", "node1", NEG, SMALL)
                 POD ("p2.1", "node2", MID, LARGE) POD ("p2.2", "node2", NEG, MEDIUM)
                 POD ("p3.1", "node3", MID, MEDIUM) POD ("p3.2", "node3", NEG, SMALL)
                 POD ("p3.3", "node3", LOW, SMALL),
                 "node2", "p2.1 p2.2");
  /* "sum of adjusted priorities is considered" */
  expect_choice (NODE ("node1") NODE ("node2") NODE ("node3") PENDING (HIGH, VERY_LARGE)
                 POD ("p1.1", "node1", MID, SMALL) POD ("p1.2", "node1", NEG, SMALL)
                 POD ("p1.3", "node1", NEG, SMALL)
                 POD ("p2.1", "node2", MID, LARGE) POD ("p2.2", "node2", NEG, MEDIUM)
                 POD ("p3.1", "node3", MID, MEDIUM) POD ("p3.2", "node3", NEG, SMALL)
                 POD ("p3.3", "node3", LOW, SMALL),
                 "node2", "p2.1 p2.2");
  /* "non-overlapping lowest high priority, sum priorities, and number of pods" */
  expect_choice (NODE ("node1") NODE ("node2") NODE ("node3") NODE ("node4") PENDING (VERY_HIGH, VERY_LARGE)
                 POD ("p1.1", "node1", MID, SMALL) POD ("p1.2", "node1", LOW, SMALL)
                 POD ("p1.3", "node1", LOW, SMALL) POD ("p2.1", "node2", HIGH, LARGE)
                 POD ("p3.1", "node3", MID, MEDIUM) POD ("p3.2", "node3", LOW, SMALL)
                 POD ("p3.3", "node3", LOW, SMALL) POD ("p3.4", "node3", LOW, MEDIUM)
                 POD ("p4.1", "node4", MID, MEDIUM) POD ("p4.2", "node4", MID, SMALL)
                 POD ("p4.3", "node4", MID, SMALL) POD ("p4.4", "node4", NEG, SMALL),
                 "node1", "p1.1 p1.2 p1.3");
  /* "same priority, same number of victims, different start time for each node's pod" */
  expect_choice (NODE ("node1") NODE ("node2") NODE ("node3") PENDING (HIGH, VERY_LARGE)
                 POD_AT ("p1.1", "node1", MID, MEDIUM, 2) POD_AT ("p1.2", "node1", MID, MEDIUM, 2)
                 POD_AT ("p2.1", "node2", MID, MEDIUM, 3) POD_AT ("p2.2", "node2", MID, MEDIUM, 3)
                 POD_AT ("p3.1", "node3", MID, MEDIUM, 1) POD_AT ("p3.2", "node3", MID, MEDIUM, 1),
                 "node2", "p2.1 p2.2");
  /* "same priority, same number of victims, different start time for all pods" */
  expect_choice (NODE ("node1") NODE ("node2") NODE ("node3") PENDING (HIGH, VERY_LARGE)
                 POD_AT ("p1.1", "node1", MID, MEDIUM, 4) POD_AT ("p1.2", "node1", MID, MEDIUM, 2)
                 POD_AT ("p2.1", "node2", MID, MEDIUM, 5) POD_AT ("p2.2", "node2", MID, MEDIUM, 1)
                 POD_AT ("p3.1", "node3", MID, MEDIUM, 3) POD_AT ("p3.2", "node3", MID, MEDIUM, 6),
                 "node3", "p3.1 p3.2");
  /* "different priority, same number of victims, different start time for all pods" */
  expect_choice (NODE ("node1") NODE ("node2") NODE ("node3") PENDING (HIGH, VERY_LARGE)
                 POD_AT ("p1.1", "node1", LOW, MEDIUM, 4) POD_AT ("p1.2", "node1", MID, MEDIUM, 2)
                 POD_AT ("p2.1", "node2", MID, MEDIUM, 6) POD_AT ("p2.2", "node2", LOW, MEDIUM, 1)
                 POD_AT ("p3.1", "node3", LOW, MEDIUM, 3) POD_AT ("p3.2", "node3", MID, MEDIUM, 5),
                 "node2", "p2.1 p2.2");
}

/* TestPreempt "basic preemption logic": node1's two low-priority pods, not node3's one of
 * mid priority. */
static void
test_preempt_basic (void **state)
{
  expect_choice (NODE ("node1") NODE ("node2") NODE ("node3") PENDING (HIGH, VERY_LARGE)
                 POD ("p1.1", "node1", LOW, SMALL) POD ("p1.2", "node1", LOW, SMALL)
                 POD ("p2.1", "node2", HIGH, LARGE) POD ("p3.1", "node3", MID, MEDIUM),
                 "node1", "p1.1 p1.2");
}

/* ---- SelectVictimsOnNode (TestDryRunPreemption) ---------------------------------------- */

/* SelectVictimsOnNode for pod p on node NODE of TEXT: the victims, sorted, and the PDB
 * violations; NULL when none is found. */
static char *
victims_on (const char *text, const char *node, int64_t *violations)
{
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (text);
  const FsPod *pod = fs_snapshot_find_pod (snapshot, "default", "p");
  FsPodShape shape = { .namespace = pod->namespace, .labels = pod->labels, .spec = pod->spec,
                       .priority = pod->priority };
  FsPackOptions options = { .replicas = 1, .exclude = is_pod, .exclude_data = (gpointer) pod };
  guint index = (guint) (fs_snapshot_find_node (snapshot, node) - snapshot->nodes);
  FsPreemptionCandidate candidate = { 0 };
  FsVerdict verdict;
  gboolean no_victims;
  if (!fs_select_victims_on_node (snapshot, &shape, &options, index, &candidate, &verdict, &no_victims))
    return NULL;
  *violations = candidate.n_pdb_violations;
  char *names = victim_names (&candidate);
  fs_preemption_candidate_clear (&candidate);
  return names;
}

static void
expect_victims (const char *text, const char *node, const char *want, int64_t want_violations)
{
  int64_t violations = -1;
  g_autofree char *names = victims_on (text, node, &violations);
  if (want == NULL)
    {
      assert_null (names);
      return;
    }
  assert_non_null (names);
  assert_string_equal (names, want);
  assert_int_equal (violations, want_violations);
}

static void
test_select_victims_on_node (void **state)
{
  /* "medium priority pod is preempted, but lower priority one stays as it is small" */
  expect_victims (NODE ("node1") PENDING (HIGH, LARGE) POD ("p1.1", "node1", LOW, SMALL)
                  POD ("p1.2", "node1", MID, LARGE),
                  "node1", "p1.2", 0);
  /* "mixed priority pods are preempted" */
  expect_victims (NODE ("node1") PENDING (HIGH, LARGE) POD ("p1.1", "node1", MID, SMALL)
                  POD ("p1.2", "node1", LOW, SMALL) POD ("p1.3", "node1", MID, MEDIUM)
                  POD ("p1.4", "node1", HIGH, SMALL),
                  "node1", "p1.2 p1.3", 0);
  /* "mixed priority pods are preempted, pick later StartTime one when priorities are equal" */
  expect_victims (NODE ("node1") PENDING (HIGH, LARGE) POD_AT ("p1.1", "node1", LOW, SMALL, 5)
                  POD_AT ("p1.2", "node1", LOW, SMALL, 4) POD_AT ("p1.3", "node1", MID, MEDIUM, 3)
                  POD_AT ("p1.4", "node1", HIGH, SMALL, 2),
                  "node1", "p1.1 p1.3", 0);
  /* "a pod that would fit on the nodes, but other pods running are higher priority" */
  expect_victims (NODE ("node1") PENDING (LOW, LARGE) POD ("p1", "node1", MID, LARGE), "node1", NULL, 0);
}

/* TestDryRunPreemption "pod with anti-affinity is preempted": InterPodAffinity, with the
 * existing pod's anti-affinity the reason, is evaluated with the victims gone. */
static void
test_select_victims_anti_affinity (void **state)
{
  expect_victims (NODE ("node1") NODE ("node2")
                  PENDING_OF (HIGH, SMALL, ",\"labels\":{\"foo\":\"\"}", "")
                  POD_WITH ("p1.1", "node1", LOW, SMALL, ",\"labels\":{\"foo\":\"\"}",
                          ",\"affinity\":{\"podAntiAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":"
                          "[{\"labelSelector\":{\"matchExpressions\":[{\"key\":\"foo\",\"operator\":\"Exists\"}]},"
                          "\"topologyKey\":\"hostname\"}]}}", "")
                  POD ("p1.2", "node1", MID, SMALL) POD ("p1.3", "node1", HIGH, SMALL)
                  POD ("p2", "node2", HIGH, SMALL),
                  "node1", "p1.1", 0);
}

#define SPREAD                                                                               \
  ",\"topologySpreadConstraints\":["                                                        \
  "{\"maxSkew\":1,\"topologyKey\":\"zone\",\"whenUnsatisfiable\":\"DoNotSchedule\","        \
  "\"labelSelector\":{\"matchExpressions\":[{\"key\":\"foo\",\"operator\":\"Exists\"}]}},"  \
  "{\"maxSkew\":1,\"topologyKey\":\"hostname\",\"whenUnsatisfiable\":\"DoNotSchedule\","    \
  "\"labelSelector\":{\"matchExpressions\":[{\"key\":\"foo\",\"operator\":\"Exists\"}]}}]"
#define ZONED(name, zone) NODE_OF (name, "500m", "500", "110", "\"hostname\":\"" name "\",\"zone\":\"" zone "\"")
#define FOO(name, node, priority) LABELED (name, node, priority, ZERO, "\"foo\":\"\"")

/* TestDryRunPreemption "preemption to resolve pod topology spread filter failure". */
static void
test_select_victims_topology_spread (void **state)
{
#define SPREAD_CLUSTER                                                                       \
  ZONED ("node-a", "zone1") ZONED ("node-b", "zone1") ZONED ("node-x", "zone2")             \
  PENDING_ (HIGH, "0", "0", ",\"labels\":{\"foo\":\"\"}", SPREAD)                          \
  FOO ("pod-a1", "node-a", MID) FOO ("pod-a2", "node-a", LOW) FOO ("pod-b1", "node-b", LOW)   \
  FOO ("pod-x1", "node-x", HIGH) FOO ("pod-x2", "node-x", HIGH)
  expect_victims (SPREAD_CLUSTER, "node-a", "pod-a2", 0);
  expect_victims (SPREAD_CLUSTER, "node-b", "pod-b1", 0);
  expect_victims (SPREAD_CLUSTER, "node-x", NULL, 0);
#undef SPREAD_CLUSTER
  /* the pod's own spread selects none of the victims: they are chosen by resources (the
   * verdicts of one packing with every lower-priority pod gone serve every node) */
  expect_choice (ZONED ("node-a", "zone1") ZONED ("node-b", "zone2")
                 PENDING_OF (HIGH, VERY_LARGE, ",\"labels\":{\"foo\":\"\"}", SPREAD)
                 POD ("x1", "node-a", LOW, LARGE) POD ("x2", "node-a", LOW, SMALL) POD ("y1", "node-b", MID, LARGE),
                 "node-a", "x1 x2");
  /* TestPreempt "preemption for topology spread constraints": node-b, evicting p-b1 */
  expect_choice (ZONED ("node-a", "zone1") ZONED ("node-b", "zone1") ZONED ("node-x", "zone2")
                 PENDING_ (HIGH, "0", "0", ",\"labels\":{\"foo\":\"\"}", SPREAD)
                 FOO ("p-a1", "node-a", HIGH) FOO ("p-a2", "node-a", HIGH) FOO ("p-b1", "node-b", LOW)
                 FOO ("p-x1", "node-x", HIGH) FOO ("p-x2", "node-x", HIGH),
                 "node-b", "p-b1");
}

#define APP_FOO(name, node) LABELED (name, node, MID, MEDIUM, "\"app\":\"foo\"")

/* TestDryRunPreemption's PodDisruptionBudget cases. */
static void
test_select_victims_with_pdbs (void **state)
{
  /* "preemption with violation of same pdb" */
  expect_victims (NODE ("node1") PENDING (HIGH, VERY_LARGE) APP_FOO ("p1.1", "node1") APP_FOO ("p1.2", "node1")
                  PDB ("pdb", "\"app\":\"foo\"", "1", ""),
                  "node1", "p1.1 p1.2", 1);
  /* "... the victim doesn't belong to DisruptedPods" */
  expect_victims (NODE ("node1") PENDING (HIGH, VERY_LARGE) APP_FOO ("p1.1", "node1") APP_FOO ("p1.2", "node1")
                  PDB ("pdb", "\"app\":\"foo\"", "1", "\"p2\":\"2026-01-01T00:00:00Z\""),
                  "node1", "p1.1 p1.2", 1);
  /* "... the victim belongs to DisruptedPods" */
  expect_victims (NODE ("node1") PENDING (HIGH, VERY_LARGE) APP_FOO ("p1.1", "node1") APP_FOO ("p1.2", "node1")
                  PDB ("pdb", "\"app\":\"foo\"", "1", "\"p1.2\":\"2026-01-01T00:00:00Z\""),
                  "node1", "p1.1 p1.2", 0);
  /* "... the victim which belongs to DisruptedPods is treated as 'nonViolating'" */
  expect_victims (NODE ("node1") PENDING (HIGH, VERY_LARGE) APP_FOO ("p1.1", "node1") APP_FOO ("p1.2", "node1")
                  APP_FOO ("p1.3", "node1") PDB ("pdb", "\"app\":\"foo\"", "1", "\"p1.3\":\"2026-01-01T00:00:00Z\""),
                  "node1", "p1.1 p1.2 p1.3", 1);
}

/* TestDryRunPreemption "preemption looks past numCandidates until a non-PDB violating node is
 * found": with every node tried, the pick is a node whose victim breaks no budget. */
static void
test_pick_avoids_pdb_violations (void **state)
{
#define FOO_LARGE(name, node) LABELED (name, node, MID, LARGE, "\"app\":\"foo\"")
  Run run;
  run_preempt (&run, NODE ("node1") NODE ("node2") NODE ("node3") NODE ("node4") NODE ("node5")
                     PENDING (HIGH, LARGE) FOO_LARGE ("p1", "node1") FOO_LARGE ("p2", "node2")
                     POD ("p3", "node3", MID, LARGE) POD ("p4", "node4", MID, LARGE) FOO_LARGE ("p5", "node5")
                     PDB ("pdb", "\"app\":\"foo\"", "0", ""));
  assert_int_equal (run.preemption.n_candidates, 5);
  assert_string_equal (chosen_node (&run), "node3");
  assert_int_equal (run.preemption.chosen.n_pdb_violations, 0);
  run_clear (&run);
#undef FOO_LARGE
}

/* ---- filterPodsWithPDBViolation --------------------------------------------------------- */

static void
test_filter_pods_with_pdb_violation (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (
      NODE ("node1") LABELED ("a", "node1", LOW, SMALL, "\"app\":\"db\"") LABELED ("b", "node1", LOW, SMALL, "\"app\":\"db\"")
      POD ("c", "node1", LOW, SMALL)
      "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"d\",\"namespace\":\"other\",\"labels\":{\"app\":\"db\"}},"
      "\"spec\":{\"nodeName\":\"node1\",\"containers\":[{\"name\":\"c\"}]},\"status\":{\"phase\":\"Running\"}}"
      PDB ("db", "\"app\":\"db\"", "1", "")
      /* an empty selector matches nothing */
      "{\"kind\":\"PodDisruptionBudget\",\"metadata\":{\"name\":\"all\",\"namespace\":\"default\"},"
      "\"spec\":{\"selector\":{}},\"status\":{\"disruptionsAllowed\":0}}");
  assert_int_equal (snapshot->n_pdbs, 2);
  const FsPod *pods[] = { fs_snapshot_find_pod (snapshot, "default", "a"), fs_snapshot_find_pod (snapshot, "default", "b"),
                          fs_snapshot_find_pod (snapshot, "default", "c"), fs_snapshot_find_pod (snapshot, "other", "d") };
  const FsPodDisruptionBudget *violates[4];
  fs_pods_with_pdb_violation (pods, 4, snapshot->pdbs, snapshot->n_pdbs, violates);
  assert_null (violates[0]);           /* takes the one disruption allowed */
  assert_non_null (violates[1]);       /* goes below it */
  assert_string_equal (violates[1]->name, "db");
  assert_null (violates[2]);           /* no labels: no budget */
  assert_null (violates[3]);           /* another namespace */
}

/* ---- TestPodEligibleToPreemptOthers ------------------------------------------------------ */

#define TERMINATING ",\"deletionTimestamp\":\"2026-01-01T00:00:00Z\""
#define PREEMPTED_CONDITION                                                                  \
  ",\"conditions\":[{\"type\":\"DisruptionTarget\",\"status\":\"True\",\"reason\":\"PreemptionByScheduler\"}]"
#define NOMINATED ",\"nominatedNodeName\":\"node1\""
#define NOMINATED_PENDING(extra_status)                                                      \
  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\"},\"spec\":"    \
  "{\"priority\":1000,\"containers\":[{\"name\":\"c\"}]},\"status\":{\"phase\":\"Pending\"" extra_status "}}"

static const char *
ineligible (const char *text, gboolean nominated_unresolvable)
{
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (text);
  const FsPod *pod = fs_snapshot_find_pod (snapshot, "default", "p");
  FsPodShape shape = { .namespace = pod->namespace, .labels = pod->labels, .spec = pod->spec,
                       .priority = pod->priority };
  g_autofree FsNodeFit *nodes = g_new0 (FsNodeFit, snapshot->n_nodes + 1);
  for (guint i = 0; i < snapshot->n_nodes; i++)
    {
      nodes[i].verdict.filter = FS_FILTER_TAINT_TOLERATION;
      nodes[i].verdict.unresolvable = nominated_unresolvable;
    }
  return fs_preemption_ineligible (snapshot, &shape, pod->nominated_node, nodes);
}

static void
test_pod_eligible_to_preempt_others (void **state)
{
  /* "Pod with nominated node": its node is UnschedulableAndUnresolvable */
  assert_null (ineligible (NODE ("node1") NOMINATED_PENDING (NOMINATED)
                           POD_WITH ("p1", "node1", LOW, SMALL, TERMINATING, "", PREEMPTED_CONDITION), TRUE));
  /* "Pod without nominated node" */
  assert_null (ineligible (NOMINATED_PENDING (""), FALSE));
  /* "Pod with 'PreemptNever' preemption policy" */
  assert_string_equal (ineligible ("{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\"},"
                                   "\"spec\":{\"priority\":1000,\"preemptionPolicy\":\"Never\",\"containers\":"
                                   "[{\"name\":\"c\"}]},\"status\":{\"phase\":\"Pending\"}}", FALSE),
                       "not eligible due to preemptionPolicy=Never.");
  /* "preemption victim pod terminating, as indicated by the dedicated DisruptionTarget condition" */
  assert_string_equal (ineligible (NODE ("node1") NOMINATED_PENDING (NOMINATED)
                                   POD_WITH ("p1", "node1", LOW, SMALL, TERMINATING, "", PREEMPTED_CONDITION), FALSE),
                       "not eligible due to a terminating pod on the nominated node.");
  /* "non-victim Pods terminating" */
  assert_null (ineligible (NODE ("node1") NOMINATED_PENDING (NOMINATED)
                           POD_WITH ("p1", "node1", LOW, SMALL, TERMINATING, "", ""), FALSE));
}

/* ---- TestPostFilter: the status messages --------------------------------------------------- */

#define ONE_POD(name) NODE_OF (name, "0", "0", "1", "")
#define SMALL_NODE(name) NODE_OF (name, "200m", "400", "110", "")

static void
expect_message (const char *text, const char *message)
{
  Run run;
  run_preempt (&run, text);
  assert_false (run.preemption.found);
  assert_string_equal (run.preemption.message, message);
  run_clear (&run);
}

static void
test_post_filter_messages (void **state)
{
  /* "pod with tied priority is still unschedulable" */
  expect_message (ONE_POD ("node1") PENDING (LOW, ZERO) POD ("p1", "node1", LOW, ZERO),
                  "preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.");
  /* "no candidate nodes found, no enough resource after removing low priority pods" */
  expect_message (SMALL_NODE ("node1") SMALL_NODE ("node2") PENDING (HIGH, LARGE)
                  POD ("p1", "node1", LOW, ZERO) POD ("p2", "node2", LOW, ZERO),
                  "preemption: 0/2 nodes are available: 2 Insufficient cpu.");
  /* "no candidate nodes found with mixed reasons, no lower priority pod and no enough CPU resource" */
  expect_message (ONE_POD ("node1") SMALL_NODE ("node2") ONE_POD ("node3") PENDING (HIGH, LARGE)
                  POD ("p1", "node1", HIGH, ZERO) POD ("p2", "node2", LOW, ZERO)
                  POD ("p3", "node3", HIGH, ZERO),
                  "preemption: 0/3 nodes are available: 1 Insufficient cpu, 2 No preemption victims found for "
                  "incoming pod.");
  /* "... 2 UnschedulableAndUnresolvable nodes and 2 nodes don't have enough CPU resource"
   * (here a taint makes node3 and node4 UnschedulableAndUnresolvable) */
#define TAINTED(name)                                                                        \
  "{\"kind\":\"Node\",\"metadata\":{\"name\":\"" name "\"},\"spec\":{\"taints\":[{\"key\":\"k\","  \
  "\"effect\":\"NoSchedule\"}]},\"status\":{\"allocatable\":{\"cpu\":\"200m\",\"memory\":\"400\",\"pods\":\"110\"}}}"
  expect_message (SMALL_NODE ("node1") SMALL_NODE ("node2") TAINTED ("node3") TAINTED ("node4")
                  PENDING (HIGH, LARGE) POD ("p1", "node1", LOW, ZERO) POD ("p2", "node2", LOW, ZERO),
                  "preemption: 0/4 nodes are available: 2 Insufficient cpu, 2 Preemption is not helpful for "
                  "scheduling.");
#undef TAINTED
  /* required pod affinity no pod satisfies is UnschedulableAndUnresolvable
   * (interpodaffinity/filtering.go Filter): preemption does not try those nodes */
  expect_message (NODE ("node1") NODE ("node2")
                  PENDING_OF (HIGH, SMALL, "", ",\"affinity\":{\"podAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":"
                              "[{\"labelSelector\":{\"matchLabels\":{\"app\":\"cache\"}},\"topologyKey\":\"hostname\"}]}}")
                  POD ("p1", "node1", LOW, SMALL) LABELED ("cache", "node2", HIGH, VERY_LARGE, "\"app\":\"cache\""),
                  "preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is "
                  "not helpful for scheduling.");
  /* TestPreempt "no preempting in pod" */
  expect_message (NODE ("node1") PENDING_OF (HIGH, VERY_LARGE, "", ",\"preemptionPolicy\":\"Never\"")
                  POD ("p1.1", "node1", LOW, SMALL) POD ("p1.2", "node1", LOW, SMALL),
                  "preemption: not eligible due to preemptionPolicy=Never.");
}

/* TestPostFilter "pod with higher priority can be made schedulable", "pod can be made
 * schedulable on one node" and "pod can be made schedulable on minHighestPriority node" (with
 * PodDisruptionBudgets: the node whose victim has the lower priority, each breaking one). */
static void
test_post_filter_candidates (void **state)
{
  expect_choice (ONE_POD ("node1") PENDING (HIGH, ZERO) POD ("p1", "node1", LOW, ZERO), "node1", "p1");
  expect_choice (ONE_POD ("node1") ONE_POD ("node2") PENDING (MID, ZERO)
                 POD ("p1", "node1", HIGH, ZERO) POD ("p2", "node2", LOW, ZERO),
                 "node2", "p2");
#define PDB_LABEL "\"test.kubernetes.io/is-violating-pdb\""
  Run run;
  run_preempt (&run, ONE_POD ("node1") ONE_POD ("node2") PENDING (VERY_HIGH, ZERO)
                     LABELED ("p1", "node1", HIGH, ZERO, PDB_LABEL ":\"non-violating\"")
                     LABELED ("p2", "node1", LOW, ZERO, PDB_LABEL ":\"violating\"")
                     LABELED ("p3", "node2", MID, ZERO, PDB_LABEL ":\"violating\"")
                     PDB ("violating-pdb", PDB_LABEL ":\"violating\"", "0", "")
                     PDB ("non-violating-pdb", PDB_LABEL ":\"non-violating\"", "2147483647", ""));
  assert_string_equal (chosen_node (&run), "node2");
  const FsVictim *victim = &g_array_index (run.preemption.chosen.victims, FsVictim, 0);
  assert_string_equal (victim->pod->name, "p3");
  assert_non_null (victim->violates);
  assert_string_equal (victim->violates->name, "violating-pdb");
  assert_int_equal (run.preemption.chosen.n_pdb_violations, 1);
  run_clear (&run);
#undef PDB_LABEL
}

/* util.MoreImportantPod: priority first, then the earlier start; no start time is "now". */
static void
test_more_important_pod (void **state)
{
  FsPod high = { .priority = 10 }, low = { .priority = 1, .start_time = 5 };
  FsPod early = { .priority = 1, .start_time = 3 }, unstarted = { .priority = 1 };
  assert_true (fs_more_important_pod (&high, &low));
  assert_false (fs_more_important_pod (&low, &high));
  assert_true (fs_more_important_pod (&early, &low));
  assert_true (fs_more_important_pod (&low, &unstarted));
  assert_false (fs_more_important_pod (&unstarted, &unstarted));
}

/* The decoder reads a PodDisruptionBudget's selector, disruptionsAllowed and disruptedPods,
 * and a pod's DisruptionTarget condition. */
static void
test_decode_pdb (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (
      "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: db, namespace: data}\n"
      "spec:\n  minAvailable: 2\n  selector:\n    matchExpressions: [{key: app, operator: In, values: [db]}]\n"
      "status:\n  disruptionsAllowed: 3\n  currentHealthy: 3\n  disruptedPods: {db-0: '2026-01-01T00:00:00Z', db-1: '2026-01-01T00:00:00Z'}\n"
      "---\n" NODE ("node1") "\n---\n"
      POD_WITH ("v", "node1", LOW, SMALL, TERMINATING, "", PREEMPTED_CONDITION));
  assert_int_equal (snapshot->n_pdbs, 1);
  const FsPodDisruptionBudget *pdb = &snapshot->pdbs[0];
  assert_string_equal (pdb->namespace, "data");
  assert_string_equal (pdb->name, "db");
  assert_int_equal (pdb->disruptions_allowed, 3);
  assert_int_equal (pdb->n_disrupted_pods, 2);
  assert_string_equal (pdb->disrupted_pods[1], "db-1");
  assert_non_null (pdb->selector);
  assert_int_equal (pdb->selector->match_expressions->n, 1);
  const FsPod *victim = fs_snapshot_find_pod (snapshot, "default", "v");
  assert_true (victim->flags & FS_POD_PREEMPTED);
  assert_true (victim->flags & FS_POD_TERMINATING);
  /* a watch's DELETED event takes it out of the next snapshot */
  FsSnapshotBuilder *next = fs_snapshot_builder_new_from (snapshot);
  assert_int_equal (fs_snapshot_builder_remove (next, "PodDisruptionBudget", "data", "db"), 1);
  g_autoptr (GError) error = NULL;
  g_autoptr (FsSnapshot) without = fs_snapshot_builder_finish (next, &error);
  assert_non_null (without);
  assert_int_equal (without->n_pdbs, 0);
  assert_int_equal (without->n_pods, 1);
  /* a bad disruptionsAllowed is an error naming the field */
  test_expect_error ("{\"kind\":\"PodDisruptionBudget\",\"metadata\":{\"name\":\"x\"},"
                     "\"status\":{\"disruptionsAllowed\":\"many\"}}",
                     "status.disruptionsAllowed", NULL);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_select_best_candidate),
    cmocka_unit_test (test_preempt_basic),
    cmocka_unit_test (test_select_victims_on_node),
    cmocka_unit_test (test_select_victims_anti_affinity),
    cmocka_unit_test (test_select_victims_topology_spread),
    cmocka_unit_test (test_select_victims_with_pdbs),
    cmocka_unit_test (test_pick_avoids_pdb_violations),
    cmocka_unit_test (test_filter_pods_with_pdb_violation),
    cmocka_unit_test (test_pod_eligible_to_preempt_others),
    cmocka_unit_test (test_post_filter_messages),
    cmocka_unit_test (test_post_filter_candidates),
    cmocka_unit_test (test_more_important_pod),
    cmocka_unit_test (test_decode_pdb),
  };
  return cmocka_run_group_tests_name ("preemption", tests, NULL, NULL);
}
