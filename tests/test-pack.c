/* Packing identical replicas, capacity answers and Pending-pod diagnoses, on small clusters
 * written out by hand (with the seed's rag-api numbers) and on the bundled example. */
#include "config.h"

#include "fitscale/plan/capacity.h"
#include "fitscale/plan/nodes.h"
#include "fitscale/plan/shape.h"
#include "fitscale/plan/why.h"
#include "testutil.h"

#define NODE(name, zone, extra)                                                              \
  "{\"kind\":\"Node\",\"metadata\":{\"name\":\"" name "\",\"labels\":{"                     \
  "\"kubernetes.io/hostname\":\"" name "\",\"topology.kubernetes.io/zone\":\"" zone "\","      \
  "\"node.kubernetes.io/instance-type\":\"m5.xlarge\"}}," extra                              \
  "\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"15204352Ki\",\"pods\":\"110\"},"  \
  "\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}}"
#define POD(name, node, app, memory, extra)                                                  \
  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"" name "\",\"namespace\":\"production\","       \
  "\"labels\":{\"app\":\"" app "\"}},\"spec\":{" node "\"containers\":[{\"name\":\"c\","     \
  "\"resources\":{\"requests\":{\"cpu\":\"100m\",\"memory\":\"" memory "\"}}}]" extra "},"   \
  "\"status\":{\"phase\":\"Running\"}}"
#define ON(node) "\"nodeName\":\"" node "\","

/* The seed's two nodes of 14.5Gi: opensearch (2Gi) and one rag-api pod on A, airflow (2Gi),
 * opensearch-dashboards (0.5Gi) and one rag-api pod on B, rag-api at RAG_MEMORY. */
#define SEED_CLUSTER(rag_memory)                                                             \
  NODE ("node-a", "zone-a", "") NODE ("node-b", "zone-b", "")                              \
  POD ("opensearch-0", ON ("node-a"), "opensearch", "2Gi", "")                              \
  POD ("rag-api-1", ON ("node-a"), "rag-api", rag_memory, "")                              \
  POD ("airflow", ON ("node-b"), "airflow", "2Gi", "")                                      \
  POD ("dashboards", ON ("node-b"), "dashboards", "512Mi", "")                              \
  POD ("rag-api-2", ON ("node-b"), "rag-api", rag_memory, "")

static FsShape *
shape (const char *request, char **tolerations, char **selector)
{
  FsShapeFlags flags = { .request = request, .namespace = "production",
                         .tolerations = tolerations, .node_selector = selector };
  g_autoptr (GError) error = NULL;
  FsShape *built = fs_shape_from_flags (&flags, &error);
  if (built == NULL)
    fail_msg ("%s", error->message);
  return built;
}

static int64_t
free_memory (const FsSnapshot *snapshot, const char *node_name)
{
  const FsNode *node = fs_snapshot_find_node (snapshot, node_name);
  return node->allocatable.memory_bytes - node->requested.memory_bytes;
}

/* hpa-pending-pods-worked-example.txt: "one API pod per node: node A has 6.5 GiB unreserved,
 * node B 6.0 GiB; after one more API pod on each node: 0.5 and 0.0 GiB to spare". */
static void
test_seed_6gi (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (SEED_CLUSTER ("6Gi"));
  assert_int_equal (free_memory (snapshot, "node-a"), 14.5 * GiB - 8 * GiB);
  assert_int_equal (free_memory (snapshot, "node-b"), 14.5 * GiB - 8.5 * GiB);
  g_autoptr (FsShape) rag = shape ("cpu=500m,memory=6Gi", NULL, NULL);
  g_autoptr (FsCapacityAnswer) answer = fs_capacity_answer (snapshot, fs_shape_pod (rag), 4, NULL);
  assert_int_equal (answer->nodes[0].capacity, 1); /* 6.5Gi free: one, then 0.5Gi left */
  assert_int_equal (answer->nodes[1].capacity, 1); /* 6.0Gi free: one, then 0.0Gi left */
  assert_int_equal (answer->pack.capacity, 2);
  assert_int_equal (answer->pack.placed, 2);
  assert_int_equal (answer->pack.pending, 2);
  /* 12.5Gi free in total, 6.5Gi at most on one node */
  assert_int_equal (answer->free_total.memory_bytes, 12.5 * GiB);
  assert_int_equal (answer->largest_free.memory_bytes, 6.5 * GiB);
  /* the two left over need one more m5.xlarge (two 6Gi pods per empty 14.5Gi node) */
  assert_int_equal (answer->estimates->len, 1);
  FsNodeShapeEstimate *estimate = &g_array_index (answer->estimates, FsNodeShapeEstimate, 0);
  assert_string_equal (estimate->shape, "m5.xlarge");
  assert_int_equal (estimate->per_node, 2);
  assert_int_equal (estimate->nodes_needed, 1);
}

/* "A 3Gi request changes the picture ... each node could take another pod and still have
 * 6.5 and 6.0 GiB to spare": all six fit. */
static void
test_seed_3gi (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (SEED_CLUSTER ("3Gi"));
  g_autoptr (FsShape) rag = shape ("cpu=500m,memory=3Gi", NULL, NULL);
  g_autoptr (FsCapacityAnswer) answer = fs_capacity_answer (snapshot, fs_shape_pod (rag), 4, NULL);
  assert_int_equal (free_memory (snapshot, "node-a") - 3 * GiB, 6.5 * GiB);
  assert_int_equal (free_memory (snapshot, "node-b") - 3 * GiB, 6.0 * GiB);
  assert_int_equal (answer->pack.capacity, 6); /* 9.5Gi / 3 = 3 and 9.0Gi / 3 = 3 */
  assert_int_equal (answer->pack.pending, 0);
  assert_int_equal (answer->nodes[0].placed + answer->nodes[1].placed, 4);
}

/* Adding each placed replica to its node, one at a time, gives the closed form. */
static void
test_capacity_equals_sequential_placement (void **state)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (42);
  for (int round = 0; round < 2000; round++)
    {
      FsResources allocatable = { 0 }, request = { 0 };
      FsNodeLoad load = { 0 };
      allocatable.cpu_milli = g_rand_int_range (rand, 0, 16000);
      allocatable.memory_bytes = (int64_t) g_rand_int_range (rand, 0, 64) * GiB;
      allocatable.pods = g_rand_int_range (rand, 0, 120);
      load.requested.cpu_milli = g_rand_int_range (rand, 0, 20000);
      load.requested.memory_bytes = (int64_t) g_rand_int_range (rand, 0, 70) * GiB;
      load.pod_count = g_rand_int_range (rand, 0, 130);
      request.cpu_milli = g_rand_int_range (rand, 0, 3000);
      request.memory_bytes = (int64_t) g_rand_int_range (rand, 0, 8) * 512 * MiB;
      int64_t placed = 0;
      FsNodeLoad running = load;
      FsVerdict verdict;
      while (placed < 1000 && fs_resources_fit (&allocatable, &running, &request, &verdict))
        {
          fs_resources_add (&running.requested, &request, NULL);
          running.pod_count++;
          placed++;
        }
      assert_int_equal (fs_resources_capacity (&allocatable, &load, &request), placed);
    }
}

static void
test_taints_and_selectors_restrict_nodes (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (
      NODE ("plain", "zone-a", "")
      NODE ("gpu", "zone-a", "\"spec\":{\"taints\":[{\"key\":\"dedicated\",\"value\":\"gpu\",\"effect\":\"NoSchedule\"}]},")
      NODE ("cordoned", "zone-b", "\"spec\":{\"unschedulable\":true},"));
  g_autoptr (FsShape) plain = shape ("memory=4Gi", NULL, NULL);
  g_autoptr (FsCapacityAnswer) answer = fs_capacity_answer (snapshot, fs_shape_pod (plain), -1, NULL);
  /* nodes sort by name: cordoned, gpu, plain */
  assert_int_equal (answer->nodes[0].verdict.filter, FS_FILTER_NODE_UNSCHEDULABLE);
  assert_int_equal (answer->nodes[1].verdict.filter, FS_FILTER_TAINT_TOLERATION);
  assert_string_equal (answer->nodes[1].verdict.taint->key, "dedicated");
  assert_int_equal (answer->nodes[2].capacity, 3); /* 14.5Gi / 4Gi */
  assert_int_equal (answer->pack.capacity, 3);

  char *tolerations[] = { (char *) "dedicated=gpu:NoSchedule", NULL };
  g_autoptr (FsShape) tolerant = shape ("memory=4Gi", tolerations, NULL);
  g_autoptr (FsCapacityAnswer) more = fs_capacity_answer (snapshot, fs_shape_pod (tolerant), -1, NULL);
  assert_int_equal (more->pack.capacity, 6);

  char *selector[] = { (char *) "kubernetes.io/hostname=gpu", NULL };
  g_autoptr (FsShape) pinned = shape ("memory=4Gi", tolerations, selector);
  g_autoptr (FsCapacityAnswer) only_gpu = fs_capacity_answer (snapshot, fs_shape_pod (pinned), -1, NULL);
  assert_int_equal (only_gpu->pack.capacity, 3);
  assert_int_equal (only_gpu->nodes[2].verdict.filter, FS_FILTER_NODE_AFFINITY);

  char *cordon[] = { (char *) "node.kubernetes.io/unschedulable:NoSchedule", NULL };
  g_autoptr (FsShape) daemon = shape ("memory=4Gi", cordon, NULL);
  g_autoptr (FsCapacityAnswer) with_cordoned = fs_capacity_answer (snapshot, fs_shape_pod (daemon), -1, NULL);
  assert_int_equal (with_cordoned->nodes[0].capacity, 3);
}

#define ANTI_AFFINITY(app)                                                                   \
  ",\"affinity\":{\"podAntiAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":"  \
  "[{\"labelSelector\":{\"matchLabels\":{\"app\":\"" app "\"}},"                             \
  "\"topologyKey\":\"kubernetes.io/hostname\"}]}}"

static void
test_anti_affinity_one_per_node (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (
      NODE ("n1", "zone-a", "") NODE ("n2", "zone-a", "") NODE ("n3", "zone-b", "")
      POD ("web-0", ON ("n1"), "web", "1Gi", ANTI_AFFINITY ("web"))
      "{\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\",\"namespace\":\"production\"},"
      "\"spec\":{\"replicas\":3,\"selector\":{\"matchLabels\":{\"app\":\"web\"}},\"template\":"
      "{\"metadata\":{\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":[{\"name\":\"c\","
      "\"resources\":{\"requests\":{\"memory\":\"1Gi\"}}}]" ANTI_AFFINITY ("web") "}}}}");
  FsShapeFlags flags = { .namespace = "production" };
  g_autoptr (GError) error = NULL;
  g_autoptr (FsShape) web = fs_shape_from_object (snapshot, "deployment/web", &flags, &error);
  assert_non_null (web);
  /* more replicas: web-0 stays, so n1 is taken and each other node takes one */
  g_autoptr (FsCapacityAnswer) more = fs_capacity_answer (snapshot, fs_shape_pod (web), -1, NULL);
  assert_int_equal (more->nodes[0].verdict.filter, FS_FILTER_INTER_POD_AFFINITY);
  g_autoptr (GPtrArray) reasons = g_ptr_array_new_with_free_func (g_free);
  fs_verdict_reasons (&more->nodes[0].verdict, reasons);
  assert_string_equal (reasons->pdata[0], "node(s) didn't match pod anti-affinity rules");
  assert_int_equal (more->nodes[1].capacity, 1);
  assert_int_equal (more->pack.capacity, 2);
  assert_int_equal (more->pack.limited_by, FS_PACK_LIMIT_ANTI_AFFINITY);
  /* the whole workload, replacing its own pod: one per node, three in all */
  g_autoptr (FsCapacityAnswer) all = fs_capacity_answer (snapshot, fs_shape_pod (web), 4,
                                                         fs_shape_workload (web));
  assert_int_equal (all->pack.capacity, 3);
  assert_int_equal (all->pack.pending, 1);
}

static void
test_existing_pods_anti_affinity (void **state)
{
  /* a database that refuses web pods beside it */
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (
      NODE ("n1", "zone-a", "") NODE ("n2", "zone-a", "")
      POD ("db-0", ON ("n1"), "db", "1Gi", ANTI_AFFINITY ("web")));
  g_autoptr (FsShape) web = shape ("memory=1Gi", NULL, NULL);
  FsPodShape labelled = *fs_shape_pod (web);
  labelled.labels = snapshot->pods[0].labels; /* app=db: not selected */
  g_autoptr (FsCapacityAnswer) db_like = fs_capacity_answer (snapshot, &labelled, -1, NULL);
  assert_int_equal (db_like->nodes[0].verdict.filter, FS_FILTER_PASS);
  g_autoptr (FsSnapshot) with_web = test_load_valid_text (
      NODE ("n1", "zone-a", "") NODE ("n2", "zone-a", "")
      POD ("db-0", ON ("n1"), "db", "1Gi", ANTI_AFFINITY ("web"))
      POD ("web-0", ON ("n2"), "web", "1Gi", ""));
  FsPodShape web_pod = *fs_shape_pod (web);
  web_pod.labels = with_web->pods[1].labels; /* app=web */
  g_autoptr (FsCapacityAnswer) answer = fs_capacity_answer (with_web, &web_pod, -1, NULL);
  assert_int_equal (answer->nodes[0].verdict.filter, FS_FILTER_INTER_POD_AFFINITY);
  assert_int_equal (answer->nodes[0].verdict.detail, FS_DETAIL_EXISTING_ANTI_AFFINITY);
  assert_true (answer->nodes[1].capacity > 0);
}

static void
test_zone_spread (void **state)
{
  /* zone-a holds three matching pods and room for two more; zone-b is empty.  With maxSkew 1
   * each replica goes to the zone with fewer: b to 3, then a and b in turn to 5 and 5 (a is
   * then full), b to 6; a seventh in b would make the skew 7 - 5 = 2. */
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (
      NODE ("a1", "zone-a", "") NODE ("b1", "zone-b", "")
      POD ("w1", ON ("a1"), "web", "4Gi", "") POD ("w2", ON ("a1"), "web", "4Gi", "")
      POD ("w3", ON ("a1"), "web", "4Gi", "")
      "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"template\",\"namespace\":\"production\","
      "\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":"
      "{\"requests\":{\"memory\":\"1Gi\"}}}],\"topologySpreadConstraints\":[{\"maxSkew\":1,"
      "\"topologyKey\":\"topology.kubernetes.io/zone\",\"whenUnsatisfiable\":\"DoNotSchedule\","
      "\"labelSelector\":{\"matchLabels\":{\"app\":\"web\"}}}]},\"status\":{\"phase\":\"Pending\"}}");
  const FsPod *template = fs_snapshot_find_pod (snapshot, "production", "template");
  FsPodShape pod = { .namespace = template->namespace, .labels = template->labels,
                     .spec = template->spec };
  g_autoptr (FsCapacityAnswer) answer = fs_capacity_answer (snapshot, &pod, -1, NULL);
  /* a1 (2.5Gi free: room for two) is skewed now: 3 + 1 - 0 > 1, yet takes its two once b1
   * caught up; b1 (14 by resources) stops at 6, held by the skew */
  assert_int_equal (answer->nodes[0].verdict.filter, FS_FILTER_POD_TOPOLOGY_SPREAD);
  assert_int_equal (answer->nodes[0].capacity, 2);
  assert_int_equal (answer->nodes[0].limit.filter, FS_FILTER_NODE_RESOURCES_FIT);
  assert_int_equal (answer->nodes[1].capacity, 6);
  assert_int_equal (answer->nodes[1].limit.filter, FS_FILTER_POD_TOPOLOGY_SPREAD);
  assert_int_equal (answer->pack.capacity, 8);
  assert_int_equal (answer->pack.limited_by, FS_PACK_LIMIT_TOPOLOGY_SPREAD);
  /* placed one at a time as the filter allows: a1, skewed at first, takes 2 once b1 caught up */
  assert_int_equal (answer->nodes[0].placed, 2);
  assert_int_equal (answer->nodes[1].placed, 6);
}

/* fs_snapshot_namespace_pods: exactly the pods of the namespace, and the base loads less a
 * workload's pods are the same whether every pod or only its namespace's range is asked. */
static void
test_namespace_range (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_files ("examples/rag-api", "tests/fixtures/real/k3s-1node-pods-kube-system.json",
                                                     NULL);
  const char *names[] = { "production", "kube-system", "default", "zzz-none", "", NULL };
  for (guint n = 0; n < G_N_ELEMENTS (names); n++)
    {
      guint first, end, count = 0;
      fs_snapshot_namespace_pods (snapshot, names[n], &first, &end);
      assert_true (first <= end && end <= snapshot->n_pods);
      for (guint i = 0; i < snapshot->n_pods; i++)
        {
          gboolean inside = i >= first && i < end;
          assert_int_equal (inside, g_strcmp0 (snapshot->pods[i].namespace, names[n]) == 0);
          count += inside;
        }
      assert_int_equal (count, end - first);
    }
  guint first, end;
  fs_snapshot_namespace_pods (snapshot, "production", &first, &end);
  assert_true (end > first);
  const FsWorkload *workload = fs_snapshot_find_workload (snapshot, "production", "Deployment", "rag-api");
  assert_non_null (workload);
  FsPackOptions all = { .exclude = fs_workload_owns_pod, .exclude_data = (gpointer) workload };
  FsPackOptions ranged = all;
  ranged.exclude_namespace = workload->namespace;
  g_autofree FsNodeLoad *a = g_new0 (FsNodeLoad, snapshot->n_nodes + 1);
  g_autofree FsNodeLoad *b = g_new0 (FsNodeLoad, snapshot->n_nodes + 1);
  fs_pack_base_loads (snapshot, &all, a);
  fs_pack_base_loads (snapshot, &ranged, b);
  for (guint i = 0; i < snapshot->n_nodes; i++)
    {
      assert_true (a[i].requested.cpu_milli == b[i].requested.cpu_milli);
      assert_true (a[i].requested.memory_bytes == b[i].requested.memory_bytes);
      assert_int_equal (a[i].pod_count, b[i].pod_count);
      /* the workload's pods are taken off: less than the node's own totals */
      assert_true (a[i].pod_count <= snapshot->nodes[i].pod_count);
    }
}

static void
test_why_on_the_example (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_files ("examples/rag-api", NULL);
  const FsPod *pod = fs_snapshot_find_pod (snapshot, "production", "rag-api-7948f7fb7-dc5k8");
  assert_non_null (pod);
  g_autoptr (FsDiagnosis) diagnosis = fs_diagnose (snapshot, pod);
  assert_false (diagnosis->fits);
  assert_string_equal (diagnosis->message,
                       "0/2 nodes are available: 2 Insufficient memory. preemption: 0/2 nodes are "
                       "available: 2 No preemption victims found for incoming pod.");
  assert_true (diagnosis->agrees);
  assert_true (diagnosis->room_in_total);
  gboolean lower = FALSE, add = FALSE, replicas = FALSE;
  for (guint i = 0; i < diagnosis->fixes->len; i++)
    {
      const FsFix *fix = &g_array_index (diagnosis->fixes, FsFix, i);
      if (fix->kind == FS_FIX_LOWER_REQUEST)
        {
          lower = TRUE;
          assert_true (fix->request.memory_bytes < 6 * GiB);
        }
      add |= fix->kind == FS_FIX_ADD_NODES;
      if (fix->kind == FS_FIX_LOWER_REPLICAS)
        {
          replicas = TRUE;
          assert_int_equal (fix->count, 2);
        }
    }
  assert_true (lower && add && replicas);
}

static void
test_preemption_finds_victims (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (
      NODE ("n1", "zone-a", "")
      "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"batch\",\"namespace\":\"production\"},\"spec\":"
      "{\"nodeName\":\"n1\",\"priority\":-10,\"containers\":[{\"name\":\"c\",\"resources\":"
      "{\"requests\":{\"memory\":\"10Gi\"}}}]},\"status\":{\"phase\":\"Running\"}}"
      "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"api\",\"namespace\":\"production\"},\"spec\":"
      "{\"priority\":1000,\"containers\":[{\"name\":\"c\",\"resources\":"
      "{\"requests\":{\"memory\":\"6Gi\"}}}]},\"status\":{\"phase\":\"Pending\"}}");
  const FsPod *api = fs_snapshot_find_pod (snapshot, "production", "api");
  g_autoptr (FsDiagnosis) diagnosis = fs_diagnose (snapshot, api);
  assert_false (diagnosis->fits);
  /* the scheduler preempts: the message carries no preemption part, and it is no fix */
  assert_string_equal (diagnosis->message, "0/1 nodes are available: 1 Insufficient memory.");
  assert_true (diagnosis->preemption.found);
  const FsPreemptionCandidate *chosen = &diagnosis->preemption.chosen;
  assert_int_equal (chosen->victims->len, 1);
  assert_string_equal (g_array_index (chosen->victims, FsVictim, 0).pod->name, "batch");
}

static void
test_messages_agree_across_versions (void **state)
{
  assert_true (fs_messages_agree (
      "0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/master: }.",
      "0/3 nodes are available: 1 node(s) had taint {node-role.kubernetes.io/master: }, that the pod didn't tolerate."));
  assert_true (fs_messages_agree ("0/1 nodes are available: 1 Insufficient cpu. preemption: x.",
                                  "0/1 nodes are available: 1 Insufficient cpu. preemption: x.."));
  assert_false (fs_messages_agree ("0/1 nodes are available: 1 Insufficient cpu.",
                                   "0/1 nodes are available: 1 Insufficient memory."));
}

/* ---- NodePorts --------------------------------------------------------------------- */

/* A pod of APP in PHASE asking 100m and 256Mi, whose one container has PORTS (a JSON list). */
#define PORTS_POD(name, node, app, phase, ports, extra)                                      \
  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"" name "\",\"namespace\":\"production\","       \
  "\"labels\":{\"app\":\"" app "\"}},\"spec\":{" node "\"containers\":[{\"name\":\"c\","     \
  "\"ports\":" ports ",\"resources\":{\"requests\":{\"cpu\":\"100m\",\"memory\":\"256Mi\"}}}]" \
  extra "},\"status\":{\"phase\":\"" phase "\"}}"
/* A Deployment of 3 web pods whose template is SPEC (a pod spec's members). */
#define WEB_DEPLOYMENT(spec)                                                                 \
  "{\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\",\"namespace\":\"production\"},"    \
  "\"spec\":{\"replicas\":3,\"selector\":{\"matchLabels\":{\"app\":\"web\"}},\"template\":"  \
  "{\"metadata\":{\"labels\":{\"app\":\"web\"}},\"spec\":{" spec "}}}}"
#define WEB_CONTAINER(ports)                                                                 \
  "\"containers\":[{\"name\":\"c\",\"ports\":" ports ",\"resources\":{\"requests\":"         \
  "{\"cpu\":\"100m\",\"memory\":\"256Mi\"}}}]"
#define HOST_80 "[{\"containerPort\":8080,\"hostPort\":80,\"protocol\":\"TCP\"}]"

static FsShape *
web_shape (const FsSnapshot *snapshot)
{
  FsShapeFlags flags = { .namespace = "production" };
  g_autoptr (GError) error = NULL;
  FsShape *web = fs_shape_from_object (snapshot, "deployment/web", &flags, &error);
  if (web == NULL)
    fail_msg ("%s", error->message);
  return web;
}

static char *
first_reason (const FsVerdict *verdict)
{
  g_autoptr (GPtrArray) reasons = g_ptr_array_new_with_free_func (g_free);
  fs_verdict_reasons (verdict, reasons);
  return reasons->len > 0 ? g_strdup (reasons->pdata[0]) : g_strdup ("");
}

/* Replicas with hostPort 80: each takes the port of its node, so a node with room for forty
 * takes one; a node whose pod holds TCP 80 takes none, one whose pod holds UDP 80 does. */
static void
test_host_ports_one_replica_per_node (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (
      NODE ("n1", "zone-a", "") NODE ("n2", "zone-a", "") NODE ("n3", "zone-b", "")
      PORTS_POD ("ingress", ON ("n1"), "ingress", "Running", "[{\"containerPort\":80,\"hostPort\":80}]", "")
      PORTS_POD ("dns", ON ("n2"), "dns", "Running",
                 "[{\"containerPort\":53,\"hostPort\":80,\"protocol\":\"UDP\"}]", "")
      WEB_DEPLOYMENT (WEB_CONTAINER (HOST_80)));
  const FsNode *n1 = fs_snapshot_find_node (snapshot, "n1");
  assert_non_null (n1->used_ports);
  assert_int_equal (n1->used_ports->n, 1);
  assert_int_equal (n1->used_ports->items[0].port.port, 80);
  assert_null (fs_snapshot_find_node (snapshot, "n3")->used_ports);
  g_autoptr (FsShape) web = web_shape (snapshot);
  assert_non_null (fs_shape_pod (web)->spec->host_ports);
  g_autoptr (FsCapacityAnswer) answer = fs_capacity_answer (snapshot, fs_shape_pod (web), 3, NULL);
  assert_int_equal (answer->nodes[0].verdict.filter, FS_FILTER_NODE_PORTS);
  assert_int_equal (answer->nodes[0].capacity, 0);
  g_autofree char *taken = first_reason (&answer->nodes[0].verdict);
  assert_string_equal (taken, "node(s) didn't have free ports for the requested pod ports");
  for (guint i = 1; i < 3; i++)
    {
      assert_int_equal (answer->nodes[i].verdict.filter, FS_FILTER_PASS);
      assert_int_equal (answer->nodes[i].capacity, 1); /* resources alone: 40 */
      assert_int_equal (answer->nodes[i].limit.filter, FS_FILTER_NODE_PORTS);
    }
  assert_int_equal (answer->pack.capacity, 2);
  assert_int_equal (answer->pack.limited_by, FS_PACK_LIMIT_HOST_PORTS);
  assert_string_equal (fs_pack_limit_name (answer->pack.limited_by), "host ports (NodePorts)");
  assert_int_equal (answer->pack.pending, 1);
  /* a new node takes one replica, as the existing ones do */
  FsNodeShapeEstimate *estimate = &g_array_index (answer->estimates, FsNodeShapeEstimate, 0);
  assert_int_equal (estimate->per_node, 1);
  assert_int_equal (estimate->nodes_needed, 1);
  /* the same shape without its port: 40 per node, limited by resources */
  g_autoptr (FsSnapshot) portless = test_load_valid_text (
      NODE ("n1", "zone-a", "") WEB_DEPLOYMENT (WEB_CONTAINER ("[{\"containerPort\":8080}]")));
  g_autoptr (FsShape) plain = web_shape (portless);
  assert_null (fs_shape_pod (plain)->spec->host_ports);
  g_autoptr (FsCapacityAnswer) many = fs_capacity_answer (portless, fs_shape_pod (plain), -1, NULL);
  assert_int_equal (many->pack.capacity, 40);
  assert_int_equal (many->pack.limited_by, FS_PACK_LIMIT_RESOURCES);
}

/* The workload's own pods hold its port on their nodes: more replicas go elsewhere, and the
 * replicas that replace them (capacity --from, plan) find it free. */
static void
test_host_ports_replacing_own_pods (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (
      NODE ("n1", "zone-a", "") NODE ("n2", "zone-a", "")
      PORTS_POD ("web-0", ON ("n1"), "web", "Running", HOST_80, "")
      WEB_DEPLOYMENT (WEB_CONTAINER (HOST_80)));
  g_autoptr (FsShape) web = web_shape (snapshot);
  g_autoptr (FsCapacityAnswer) more = fs_capacity_answer (snapshot, fs_shape_pod (web), -1, NULL);
  assert_int_equal (more->nodes[0].verdict.filter, FS_FILTER_NODE_PORTS);
  assert_int_equal (more->pack.capacity, 1);
  g_autoptr (FsCapacityAnswer) all = fs_capacity_answer (snapshot, fs_shape_pod (web), 3,
                                                         fs_shape_workload (web));
  assert_int_equal (all->nodes[0].verdict.filter, FS_FILTER_PASS);
  assert_int_equal (all->pack.capacity, 2);
  assert_int_equal (all->pack.pending, 1);
  /* a Succeeded pod holds nothing */
  g_autoptr (FsSnapshot) done = test_load_valid_text (
      NODE ("n1", "zone-a", "") PORTS_POD ("old", ON ("n1"), "web", "Succeeded", HOST_80, "")
      WEB_DEPLOYMENT (WEB_CONTAINER (HOST_80)));
  assert_null (done->nodes[0].used_ports);
}

/* The host ports of a template: hostNetwork gives every port its containerPort as hostPort
 * (the API server does it for Pods, not for templates), and a sidecar's ports count where a
 * plain init container's do not. */
static void
test_host_ports_of_templates (void **state)
{
  g_autoptr (FsSnapshot) host_network = test_load_valid_text (
      NODE ("n1", "zone-a", "") NODE ("n2", "zone-a", "")
      WEB_DEPLOYMENT ("\"hostNetwork\":true," WEB_CONTAINER ("[{\"containerPort\":9100}]")));
  g_autoptr (FsShape) exporter = web_shape (host_network);
  const FsHostPortList *ports = fs_shape_pod (exporter)->spec->host_ports;
  assert_non_null (ports);
  assert_int_equal (ports->n, 1);
  assert_int_equal (ports->items[0].port, 9100);
  g_autoptr (FsCapacityAnswer) answer = fs_capacity_answer (host_network, fs_shape_pod (exporter), -1, NULL);
  assert_int_equal (answer->pack.capacity, 2);

  g_autoptr (FsSnapshot) init = test_load_valid_text (
      NODE ("n1", "zone-a", "")
      WEB_DEPLOYMENT ("\"initContainers\":[{\"name\":\"setup\",\"ports\":[{\"containerPort\":7000,"
                      "\"hostPort\":7000}]},{\"name\":\"proxy\",\"ports\":[{\"containerPort\":8081,"
                      "\"hostPort\":8081,\"hostIP\":\"10.0.0.1\"}],\"restartPolicy\":\"Always\"}],"
                      WEB_CONTAINER ("[{\"containerPort\":8080}]")));
  g_autoptr (FsShape) sidecar = web_shape (init);
  ports = fs_shape_pod (sidecar)->spec->host_ports;
  assert_non_null (ports);
  assert_int_equal (ports->n, 1);
  assert_int_equal (ports->items[0].port, 8081);
  assert_string_equal (ports->items[0].host_ip, "10.0.0.1");
  assert_null (ports->items[0].protocol);

  /* a port no container can hold is an error naming it */
  test_expect_error (PORTS_POD ("bad", "", "x", "Pending", "[{\"containerPort\":80,\"hostPort\":-1}]", ""),
                     "hostPort", NULL);
}

/* why, for a pod whose hostPort is taken on every node: the scheduler's message, and
 * preemption when the ports' holders have a lower priority. */
static void
test_why_host_port_taken (void **state)
{
#define INGRESS_CLUSTER(priority)                                                            \
  NODE ("n1", "zone-a", "") NODE ("n2", "zone-b", "")                                        \
  PORTS_POD ("ingress-1", ON ("n1"), "ingress", "Running", HOST_80, ",\"priority\":" priority) \
  PORTS_POD ("ingress-2", ON ("n2"), "ingress", "Running", HOST_80, ",\"priority\":" priority) \
  PORTS_POD ("web-x", "", "web", "Pending", HOST_80, "")
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (INGRESS_CLUSTER ("0"));
  const FsPod *pod = fs_snapshot_find_pod (snapshot, "production", "web-x");
  g_autoptr (FsDiagnosis) diagnosis = fs_diagnose (snapshot, pod);
  assert_false (diagnosis->fits);
  assert_string_equal (diagnosis->message,
                       "0/2 nodes are available: 2 node(s) didn't have free ports for the requested "
                       "pod ports. preemption: 0/2 nodes are available: 2 No preemption victims "
                       "found for incoming pod.");
  assert_false (diagnosis->room_in_total);
  /* what bounds its replicas: the ports, not the resources */
  FsPodShape web = { .namespace = pod->namespace, .labels = pod->labels, .spec = pod->spec };
  g_autoptr (FsCapacityAnswer) none = fs_capacity_answer (snapshot, &web, -1, NULL);
  assert_int_equal (none->pack.capacity, 0);
  assert_int_equal (none->pack.limited_by, FS_PACK_LIMIT_HOST_PORTS);
  /* lower-priority holders: evicting one frees its port, and the scheduler would */
  g_autoptr (FsSnapshot) lower = test_load_valid_text (INGRESS_CLUSTER ("-10"));
  pod = fs_snapshot_find_pod (lower, "production", "web-x");
  g_autoptr (FsDiagnosis) preempting = fs_diagnose (lower, pod);
  assert_false (preempting->fits);
  assert_string_equal (preempting->message, "0/2 nodes are available: 2 node(s) didn't have free "
                                            "ports for the requested pod ports.");
  assert_true (preempting->preemption.found);
  const FsPreemptionCandidate *chosen = &preempting->preemption.chosen;
  assert_string_equal (lower->nodes[chosen->node_index].name, "n1");
  assert_string_equal (g_array_index (chosen->victims, FsVictim, 0).pod->name, "ingress-1");
#undef INGRESS_CLUSTER
}

/* cluster-autoscaler's estimate rounds the nodes needed up: with two 6Gi replicas per empty
 * 14.5Gi node, 7 Pending need 4 new nodes (3.5), 8 need 4, 2 need 1 (the two existing nodes
 * take one each first). */
static void
test_nodes_needed_round_up (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (SEED_CLUSTER ("6Gi"));
  g_autoptr (FsShape) rag = shape ("cpu=500m,memory=6Gi", NULL, NULL);
  static const struct { int64_t pending, nodes; } cases[] = { { 7, 4 }, { 8, 4 }, { 2, 1 }, { 1, 1 } };
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GArray) estimates = fs_node_shape_estimates_new ();
      FsPackOptions options = { .replicas = 2 + cases[i].pending };
      fs_estimate_new_nodes (snapshot, fs_shape_pod (rag), &options, estimates);
      assert_int_equal (estimates->len, 1);
      const FsNodeShapeEstimate *estimate = &g_array_index (estimates, FsNodeShapeEstimate, 0);
      assert_int_equal (estimate->existing, 2);
      assert_int_equal (estimate->per_node, 2);
      assert_int_equal (estimate->nodes_needed, cases[i].nodes);
    }
}

/* A Pending pod labelled app=APP, 1Gi, with one DoNotSchedule zone constraint of maxSkew 1 on
 * app=web (and the constraint's FIELDS, each followed by a comma). */
#define SPREAD_TEMPLATE(app, fields)                                                         \
  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"template\",\"namespace\":\"production\","        \
  "\"labels\":{\"app\":\"" app "\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":"    \
  "{\"requests\":{\"memory\":\"1Gi\"}}}],\"topologySpreadConstraints\":[{\"maxSkew\":1," fields  \
  "\"topologyKey\":\"topology.kubernetes.io/zone\",\"whenUnsatisfiable\":\"DoNotSchedule\","     \
  "\"labelSelector\":{\"matchLabels\":{\"app\":\"web\"}}}]},\"status\":{\"phase\":\"Pending\"}}"

/* The capacity answer for the snapshot's pod "template". */
static FsCapacityAnswer *
spread_capacity_of (const FsSnapshot *snapshot)
{
  const FsPod *template = fs_snapshot_find_pod (snapshot, "production", "template");
  assert_non_null (template);
  FsPodShape pod = { .namespace = template->namespace, .labels = template->labels,
                     .spec = template->spec };
  return fs_capacity_answer (snapshot, &pod, -1, NULL);
}

/* Topology spread for replicas the constraint's selector does not match (podtopologyspread
 * Filter with selfMatchNum 0): placing them moves no count, so every domain whose count - min
 * <= maxSkew takes all its nodes hold.  zone-a holds one matching pod and zone-b none: with
 * maxSkew 1 zone-a is within the skew (1 - 0 = 1) and takes its 10 (10.5Gi free) beside
 * zone-b's 14. */
static void
test_zone_spread_not_self_matching (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (
      NODE ("a1", "zone-a", "") NODE ("b1", "zone-b", "")
      POD ("w1", ON ("a1"), "web", "4Gi", "") SPREAD_TEMPLATE ("batch", ""));
  g_autoptr (FsCapacityAnswer) answer = spread_capacity_of (snapshot);
  assert_int_equal (answer->nodes[0].verdict.filter, FS_FILTER_PASS); /* 1 + 0 - 0 <= 1 */
  assert_int_equal (answer->nodes[0].capacity, 10);
  assert_int_equal (answer->nodes[1].capacity, 14);
  assert_int_equal (answer->pack.capacity, 24);
  assert_int_equal (answer->pack.limited_by, FS_PACK_LIMIT_RESOURCES);
}

/* cluster-autoscaler's estimator with required anti-affinity against the replicas' own labels
 * (on the hostname): one replica a new node, however much room it has (14 of 1Gi by
 * resources), so 3 Pending need 3 nodes. */
static void
test_new_nodes_self_anti_affinity (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (
      NODE ("n1", "zone-a", "") NODE ("n2", "zone-b", "")
      "{\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\",\"namespace\":\"production\"},"
      "\"spec\":{\"replicas\":3,\"selector\":{\"matchLabels\":{\"app\":\"web\"}},\"template\":"
      "{\"metadata\":{\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":[{\"name\":\"c\","
      "\"resources\":{\"requests\":{\"memory\":\"1Gi\"}}}]" ANTI_AFFINITY ("web") "}}}}");
  FsShapeFlags flags = { .namespace = "production" };
  g_autoptr (GError) error = NULL;
  g_autoptr (FsShape) web = fs_shape_from_object (snapshot, "deployment/web", &flags, &error);
  assert_non_null (web);
  g_autoptr (GArray) estimates = fs_node_shape_estimates_new ();
  FsPackOptions options = { .replicas = 5 }; /* n1 and n2 take one each */
  fs_estimate_new_nodes (snapshot, fs_shape_pod (web), &options, estimates);
  assert_int_equal (estimates->len, 1);
  const FsNodeShapeEstimate *estimate = &g_array_index (estimates, FsNodeShapeEstimate, 0);
  assert_int_equal (estimate->per_node, 1);
  assert_int_equal (estimate->nodes_needed, 3);
}

/* podtopologyspread calPreFilterState: fewer eligible domains than minDomains make the global
 * minimum 0; as many leave it the real one.  zone-a holds two matching pods, zone-b one: with
 * minDomains 2 the minimum is 1, so b1 passes (1 + 1 - 1 <= 1) and a1 does not (2 + 1 - 1)
 * for the first replica; once b1 holds 2 the minimum is 2 and a1 takes its 12 (12.5Gi free)
 * in turn with b1's 13.  With minDomains 3 the minimum stays 0 and both are skewed for good. */
static void
test_zone_spread_min_domains (void **state)
{
  g_autoptr (FsSnapshot) two = test_load_valid_text (
      NODE ("a1", "zone-a", "") NODE ("b1", "zone-b", "")
      POD ("w1", ON ("a1"), "web", "1Gi", "") POD ("w2", ON ("a1"), "web", "1Gi", "")
      POD ("w3", ON ("b1"), "web", "1Gi", "") SPREAD_TEMPLATE ("web", "\"minDomains\":2,"));
  g_autoptr (FsCapacityAnswer) answer = spread_capacity_of (two);
  assert_int_equal (answer->nodes[0].verdict.filter, FS_FILTER_POD_TOPOLOGY_SPREAD);
  assert_int_equal (answer->nodes[1].verdict.filter, FS_FILTER_PASS);
  assert_int_equal (answer->pack.capacity, 25);
  assert_int_equal (answer->nodes[0].capacity, 12);
  assert_int_equal (answer->nodes[1].capacity, 13);
  assert_int_equal (answer->pack.limited_by, FS_PACK_LIMIT_RESOURCES);
  g_autoptr (FsSnapshot) three = test_load_valid_text (
      NODE ("a1", "zone-a", "") NODE ("b1", "zone-b", "")
      POD ("w1", ON ("a1"), "web", "1Gi", "") POD ("w2", ON ("a1"), "web", "1Gi", "")
      POD ("w3", ON ("b1"), "web", "1Gi", "") SPREAD_TEMPLATE ("web", "\"minDomains\":3,"));
  g_autoptr (FsCapacityAnswer) few = spread_capacity_of (three);
  assert_int_equal (few->nodes[0].verdict.filter, FS_FILTER_POD_TOPOLOGY_SPREAD);
  assert_int_equal (few->nodes[1].verdict.filter, FS_FILTER_POD_TOPOLOGY_SPREAD);
  assert_int_equal (few->pack.capacity, 0);
}

/* podtopologyspread counts no terminating pod (one with a deletionTimestamp), though its
 * request still holds room on its node: a1's terminating web pod leaves zone-a at 0, so both
 * zones take replicas (13 on a1, 14 on b1). */
static void
test_zone_spread_skips_terminating (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (
      NODE ("a1", "zone-a", "") NODE ("b1", "zone-b", "")
      "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"leaving\",\"namespace\":\"production\","
      "\"deletionTimestamp\":\"2026-01-01T00:00:00Z\",\"labels\":{\"app\":\"web\"}},\"spec\":"
      "{\"nodeName\":\"a1\",\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":"
      "{\"memory\":\"1Gi\"}}}]},\"status\":{\"phase\":\"Running\"}}"
      SPREAD_TEMPLATE ("web", ""));
  g_autoptr (FsCapacityAnswer) answer = spread_capacity_of (snapshot);
  assert_int_equal (answer->nodes[0].verdict.filter, FS_FILTER_PASS); /* 0 + 1 - 0 <= 1 */
  assert_int_equal (answer->nodes[0].capacity, 13);
  assert_int_equal (answer->pack.capacity, 27);
}

/* podtopologyspread nodeTaintsPolicy: Ignore (the default) counts the domain of a node whose
 * taint the pod does not tolerate, Honor does not.  zone-a and zone-b hold one matching pod
 * each, zone-c only a tainted node: under Ignore the minimum is zone-c's 0 and a1, b1 are
 * skewed (1 + 1 - 0); under Honor it is 1 and both take replicas. */
static void
test_zone_spread_taints_policy (void **state)
{
#define TAINTED_ZONES(fields)                                                                \
  NODE ("a1", "zone-a", "") NODE ("b1", "zone-b", "")                                      \
  NODE ("c1", "zone-c", "\"spec\":{\"taints\":[{\"key\":\"k\",\"effect\":\"NoSchedule\"}]},")       \
  POD ("w1", ON ("a1"), "web", "1Gi", "") POD ("w2", ON ("b1"), "web", "1Gi", "")          \
  SPREAD_TEMPLATE ("web", fields)
  g_autoptr (FsSnapshot) ignore = test_load_valid_text (TAINTED_ZONES (""));
  g_autoptr (FsCapacityAnswer) ignored = spread_capacity_of (ignore);
  assert_int_equal (ignored->nodes[0].verdict.filter, FS_FILTER_POD_TOPOLOGY_SPREAD);
  assert_int_equal (ignored->nodes[1].verdict.filter, FS_FILTER_POD_TOPOLOGY_SPREAD);
  assert_int_equal (ignored->nodes[2].verdict.filter, FS_FILTER_TAINT_TOLERATION);
  assert_int_equal (ignored->pack.capacity, 0);
  g_autoptr (FsSnapshot) honor = test_load_valid_text (TAINTED_ZONES ("\"nodeTaintsPolicy\":\"Honor\","));
  g_autoptr (FsCapacityAnswer) honored = spread_capacity_of (honor);
  assert_int_equal (honored->nodes[0].verdict.filter, FS_FILTER_PASS);
  assert_int_equal (honored->nodes[1].verdict.filter, FS_FILTER_PASS);
  assert_int_equal (honored->pack.capacity, 26);
#undef TAINTED_ZONES
}

/* A pod "template" labelled app=web asking REQUESTS (a JSON map), spread by CONSTRAINTS (a
 * JSON list; WEB_SPREAD builds one that selects app=web). */
#define SPREAD_SHAPE(requests, constraints)                                                  \
  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"template\",\"namespace\":\"production\","        \
  "\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":"    \
  "{\"requests\":" requests "}}],\"topologySpreadConstraints\":" constraints "},"            \
  "\"status\":{\"phase\":\"Pending\"}}"
#define WEB_SPREAD(skew, key, fields)                                                        \
  "{\"maxSkew\":" skew ",\"topologyKey\":\"" key "\",\"whenUnsatisfiable\":\"DoNotSchedule\"," \
  fields "\"labelSelector\":{\"matchLabels\":{\"app\":\"web\"}}}"

static FsCapacityAnswer *
spread_answer (const FsSnapshot *snapshot, int64_t replicas)
{
  const FsPod *template = fs_snapshot_find_pod (snapshot, "production", "template");
  assert_non_null (template);
  FsPodShape pod = { .namespace = template->namespace, .labels = template->labels,
                     .spec = template->spec };
  return fs_capacity_answer (snapshot, &pod, replicas, NULL);
}

/* A cluster that starts skewed: web-old (100m) on n1 in zone-a, none in zone-b.  The first
 * replica must go to n2 (1 + 1 - 0 > 1 on n1), but then the minimum is 1 and n1 passes again:
 * one at a time the zones take turns until n1 is full at 39 more (3.9 cpu) and n2 at 40, 79 in
 * all, held by cpu, not 40 (the reviewer's capacity -f shape.yaml --replicas 79). */
static void
test_zone_spread_skewed_start (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (
      NODE ("n1", "zone-a", "") NODE ("n2", "zone-b", "")
      POD ("web-old", ON ("n1"), "web", "0", "")
      SPREAD_SHAPE ("{\"cpu\":\"100m\"}", "[" WEB_SPREAD ("1", "topology.kubernetes.io/zone", "") "]"));
  g_autoptr (FsCapacityAnswer) answer = spread_answer (snapshot, 79);
  assert_int_equal (answer->nodes[0].verdict.filter, FS_FILTER_POD_TOPOLOGY_SPREAD);
  assert_int_equal (answer->nodes[0].capacity, 39);
  assert_int_equal (answer->nodes[0].limit.filter, FS_FILTER_NODE_RESOURCES_FIT);
  assert_int_equal (answer->nodes[1].verdict.filter, FS_FILTER_PASS);
  assert_int_equal (answer->nodes[1].capacity, 40);
  assert_int_equal (answer->nodes[1].limit.filter, FS_FILTER_NODE_RESOURCES_FIT);
  assert_int_equal (answer->pack.capacity, 79);
  assert_int_equal (answer->pack.limited_by, FS_PACK_LIMIT_RESOURCES);
  assert_int_equal (answer->pack.pending, 0);
  assert_int_equal (answer->nodes[0].placed, 39);
  assert_int_equal (answer->nodes[1].placed, 40);
  /* 10 replicas, the zone with fewer first: n2 to 1, then the zones in turn, 5 and 5 more
   * (zone-a at 6, zone-b at 5) */
  g_autoptr (FsCapacityAnswer) ten = spread_answer (snapshot, 10);
  assert_int_equal (ten->pack.placed, 10);
  assert_int_equal (ten->nodes[0].placed, 5);
  assert_int_equal (ten->nodes[1].placed, 5);
}

/* minDomains above the eligible domains (podtopologyspread/filtering.go minMatchNum): two
 * empty zones, minDomains 3, so the minimum stays 0 and each zone takes maxSkew = 1 replica
 * however much cpu it has; of 6 asked 2 fit, the others held by topology spread on both nodes
 * (the reviewer's deployment/web), not "Insufficient cpu". */
static void
test_zone_spread_min_domains_caps (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (
      NODE ("n1", "zone-a", "") NODE ("n2", "zone-b", "")
      SPREAD_SHAPE ("{\"cpu\":\"100m\"}",
                    "[" WEB_SPREAD ("1", "topology.kubernetes.io/zone", "\"minDomains\":3,") "]"));
  g_autoptr (FsCapacityAnswer) answer = spread_answer (snapshot, 6);
  assert_int_equal (answer->pack.capacity, 2);
  assert_int_equal (answer->pack.pending, 4);
  assert_int_equal (answer->pack.limited_by, FS_PACK_LIMIT_TOPOLOGY_SPREAD);
  for (guint i = 0; i < 2; i++)
    {
      assert_int_equal (answer->nodes[i].verdict.filter, FS_FILTER_PASS);
      assert_int_equal (answer->nodes[i].capacity, 1);
      assert_int_equal (answer->nodes[i].placed, 1);
      assert_int_equal (answer->nodes[i].limit.filter, FS_FILTER_POD_TOPOLOGY_SPREAD);
      assert_int_equal (answer->nodes[i].limit.detail, FS_DETAIL_SPREAD);
    }
}

/* Ported from kubernetes podtopologyspread/filtering_test.go TestSingleConstraint "pods spread
 * across nodes as 2/2/1, maxSkew is 2, and the number of domains < minDomains, then the third
 * node fits" (minDomains 4 over 3 hostnames: only node-c passes) and "... > minDomains, then
 * the all nodes fit" (minDomains 2).  Then one at a time: with minimum 0 node-c takes 1 more
 * (2 + 1 - 0 > 2 after); with minDomains 2 the nodes rise together until memory holds them. */
static void
test_upstream_single_constraint_min_domains (void **state)
{
#define TWO_TWO_ONE(min_domains)                                                             \
  NODE ("node-a", "zone-a", "") NODE ("node-b", "zone-a", "") NODE ("node-c", "zone-a", "")  \
  POD ("p-a1", ON ("node-a"), "web", "1Gi", "") POD ("p-a2", ON ("node-a"), "web", "1Gi", "") \
  POD ("p-b1", ON ("node-b"), "web", "1Gi", "") POD ("p-b2", ON ("node-b"), "web", "1Gi", "") \
  POD ("p-c1", ON ("node-c"), "web", "1Gi", "")                                              \
  SPREAD_SHAPE ("{\"memory\":\"4Gi\"}",                                                      \
                "[" WEB_SPREAD ("2", "kubernetes.io/hostname", "\"minDomains\":" min_domains ",") "]")
  g_autoptr (FsSnapshot) four = test_load_valid_text (TWO_TWO_ONE ("4"));
  g_autoptr (FsCapacityAnswer) few = spread_answer (four, -1);
  assert_int_equal (few->nodes[0].verdict.filter, FS_FILTER_POD_TOPOLOGY_SPREAD);
  assert_int_equal (few->nodes[1].verdict.filter, FS_FILTER_POD_TOPOLOGY_SPREAD);
  assert_int_equal (few->nodes[2].verdict.filter, FS_FILTER_PASS);
  assert_int_equal (few->nodes[0].capacity, 0);
  assert_int_equal (few->nodes[2].capacity, 1);
  assert_int_equal (few->pack.capacity, 1);
  assert_int_equal (few->pack.limited_by, FS_PACK_LIMIT_TOPOLOGY_SPREAD);
  g_autoptr (FsSnapshot) two = test_load_valid_text (TWO_TWO_ONE ("2"));
  g_autoptr (FsCapacityAnswer) all = spread_answer (two, -1);
  for (guint i = 0; i < 3; i++)
    assert_int_equal (all->nodes[i].verdict.filter, FS_FILTER_PASS);
  /* 12.5Gi free on a and b: 3 of 4Gi; 13.5Gi on c: 3; 2+3, 2+3, 1+3: within maxSkew 2 */
  assert_int_equal (all->pack.capacity, 9);
  assert_int_equal (all->pack.limited_by, FS_PACK_LIMIT_RESOURCES);
#undef TWO_TWO_ONE
}

/* Ported from kubernetes podtopologyspread/filtering_test.go TestMultipleConstraints "two
 * Constraints on zone and node, spreads = [3/3, 2/1/0/3]": only node-x passes for the first
 * replica.  One at a time after that (each node has room for 3 of 4Gi), worked by hand:
 * x, b, x, a, b, x, y, a, b; then the hostname minimum is x's 3 with x full, and a (4), y (4)
 * would go to a skew of 2: 9 in all — a 2, b 3, x 3, y 1, a and y held by the spread. */
static void
test_upstream_multiple_constraints (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (
      NODE ("node-a", "zone1", "") NODE ("node-b", "zone1", "")
      NODE ("node-x", "zone2", "") NODE ("node-y", "zone2", "")
      POD ("p-a1", ON ("node-a"), "web", "1Mi", "") POD ("p-a2", ON ("node-a"), "web", "1Mi", "")
      POD ("p-b1", ON ("node-b"), "web", "1Mi", "") POD ("p-y1", ON ("node-y"), "web", "1Mi", "")
      POD ("p-y2", ON ("node-y"), "web", "1Mi", "") POD ("p-y3", ON ("node-y"), "web", "1Mi", "")
      SPREAD_SHAPE ("{\"memory\":\"4Gi\"}", "[" WEB_SPREAD ("1", "topology.kubernetes.io/zone", "") ","
                                            WEB_SPREAD ("1", "kubernetes.io/hostname", "") "]"));
  g_autoptr (FsCapacityAnswer) answer = spread_answer (snapshot, -1);
  static const FsFilter verdicts[] = { FS_FILTER_POD_TOPOLOGY_SPREAD, FS_FILTER_POD_TOPOLOGY_SPREAD,
                                       FS_FILTER_PASS, FS_FILTER_POD_TOPOLOGY_SPREAD };
  static const int64_t most[] = { 2, 3, 3, 1 };
  for (guint i = 0; i < 4; i++)
    {
      assert_int_equal (answer->nodes[i].verdict.filter, verdicts[i]);
      assert_int_equal (answer->nodes[i].capacity, most[i]);
      assert_int_equal (answer->nodes[i].placed, most[i]);
    }
  assert_int_equal (answer->nodes[0].limit.filter, FS_FILTER_POD_TOPOLOGY_SPREAD);
  assert_int_equal (answer->nodes[2].limit.filter, FS_FILTER_NODE_RESOURCES_FIT);
  assert_int_equal (answer->pack.capacity, 9);
  assert_int_equal (answer->pack.limited_by, FS_PACK_LIMIT_TOPOLOGY_SPREAD);
}

/* Ported from kubernetes podtopologyspread/filtering_test.go TestMultipleConstraints "two
 * Constraints on zone and node, absence of label 'node' on node-x, spreads = [1/1, 1/0/0/1]":
 * node-x lacks the hostname key, so it is rejected (missing required label) and counts in
 * neither constraint (nodeLabelsMatchSpreadConstraints), nor does the web pod added on it
 * (zone2 stays at 1); only node-b passes.  One at a time
 * (room for 3 of 4Gi each), by hand: b, y, a; then b would make zone1 3 against 2 and y its
 * hostname 3 against 1: 3 in all, one each on a, b and y. */
static void
test_upstream_multiple_constraints_missing_label (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (
      NODE ("node-a", "zone1", "") NODE ("node-b", "zone1", "")
      "{\"kind\":\"Node\",\"metadata\":{\"name\":\"node-x\",\"labels\":{\"topology.kubernetes.io/zone\":"
      "\"zone2\"}},\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"15204352Ki\",\"pods\":\"110\"},"
      "\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}}"
      NODE ("node-y", "zone2", "")
      POD ("p-a1", ON ("node-a"), "web", "1Mi", "") POD ("p-y3", ON ("node-y"), "web", "1Mi", "")
      POD ("p-x1", ON ("node-x"), "web", "1Mi", "")
      SPREAD_SHAPE ("{\"memory\":\"4Gi\"}", "[" WEB_SPREAD ("1", "topology.kubernetes.io/zone", "") ","
                                            WEB_SPREAD ("1", "kubernetes.io/hostname", "") "]"));
  g_autoptr (FsCapacityAnswer) answer = spread_answer (snapshot, -1);
  assert_int_equal (answer->nodes[0].verdict.filter, FS_FILTER_POD_TOPOLOGY_SPREAD);
  assert_int_equal (answer->nodes[1].verdict.filter, FS_FILTER_PASS);
  assert_int_equal (answer->nodes[2].verdict.filter, FS_FILTER_POD_TOPOLOGY_SPREAD);
  assert_int_equal (answer->nodes[2].verdict.detail, FS_DETAIL_SPREAD_MISSING_LABEL);
  assert_true (answer->nodes[2].verdict.unresolvable);
  assert_int_equal (answer->nodes[3].verdict.filter, FS_FILTER_POD_TOPOLOGY_SPREAD);
  static const int64_t most[] = { 1, 1, 0, 1 };
  for (guint i = 0; i < 4; i++)
    assert_int_equal (answer->nodes[i].capacity, most[i]);
  assert_int_equal (answer->pack.capacity, 3);
  assert_int_equal (answer->pack.limited_by, FS_PACK_LIMIT_TOPOLOGY_SPREAD);
}

/* One constraint: fs_pack's total against placing replicas one at a time with the Filter's
 * rule (count + 1 - min <= maxSkew, min 0 below minDomains) on the first node that allows one,
 * on random clusters: the total does not depend on the order, so any order must agree. */
static void
test_zone_spread_equals_one_at_a_time (void **state)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (7);
  static const char *const zones[] = { "zone-a", "zone-b", "zone-c" };
  for (int round = 0; round < 300; round++)
    {
      guint n_nodes = g_rand_int_range (rand, 1, 6);
      int max_skew = g_rand_int_range (rand, 1, 4), min_domains = g_rand_int_range (rand, 0, 5);
      g_autoptr (GString) text = g_string_new ("");
      int zone_of[8], count[3] = { 0 }, room[8];
      gboolean zone_seen[3] = { FALSE };
      for (guint i = 0; i < n_nodes; i++)
        {
          zone_of[i] = g_rand_int_range (rand, 0, 3);
          zone_seen[zone_of[i]] = TRUE;
          int web = g_rand_int_range (rand, 0, 5), filler_gi = g_rand_int_range (rand, 0, 14);
          g_string_append_printf (text, NODE ("n%u", "%s", ""), i, i, zones[zone_of[i]]);
          for (int w = 0; w < web; w++)
            g_string_append_printf (text, POD ("w%u-%d", ON ("n%u"), "web", "1Gi", ""), i, w, i);
          if (filler_gi > 0)
            g_string_append_printf (text, POD ("f%u", ON ("n%u"), "batch", "%dGi", ""), i, i, filler_gi);
          count[zone_of[i]] += web;
          room[i] = MAX (0, (int) ((14.5 - web - filler_gi) / 2)); /* replicas of 2Gi */
        }
      g_string_append_printf (text, SPREAD_SHAPE ("{\"memory\":\"2Gi\"}",
                                                  "[" WEB_SPREAD ("%d", "topology.kubernetes.io/zone",
                                                                  "\"minDomains\":%d,") "]"),
                              max_skew, MAX (min_domains, 1));
      int n_zones = zone_seen[0] + zone_seen[1] + zone_seen[2];
      int64_t expected = 0;
      for (gboolean progress = TRUE; progress;)
        {
          progress = FALSE;
          int least = G_MAXINT;
          for (int z = 0; z < 3; z++)
            if (zone_seen[z])
              least = MIN (least, count[z]);
          if (n_zones < MAX (min_domains, 1))
            least = 0;
          for (guint i = 0; i < n_nodes && !progress; i++)
            if (room[i] > 0 && count[zone_of[i]] + 1 - least <= max_skew)
              {
                room[i]--, count[zone_of[i]]++, expected++;
                progress = TRUE;
              }
        }
      g_autoptr (FsSnapshot) snapshot = test_load_valid_text (text->str);
      g_autoptr (FsCapacityAnswer) answer = spread_answer (snapshot, -1);
      int64_t sum = 0;
      for (guint i = 0; i < n_nodes; i++)
        sum += answer->nodes[i].capacity;
      if (answer->pack.capacity != expected || sum != expected)
        fail_msg ("round %d: %" G_GINT64_FORMAT " (nodes %" G_GINT64_FORMAT "), one at a time %" G_GINT64_FORMAT
                  "\n%s", round, answer->pack.capacity, sum, expected, text->str);
    }
}

/* Pending means no node and phase Pending: a pod without a node that ended Failed (podgc
 * fails an unscheduled terminating pod before deleting it) is not Pending, nor counted. */
static void
test_pending_needs_phase_pending (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (
      NODE ("n1", "zone-a", "") POD ("running", ON ("n1"), "web", "1Gi", "")
      "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"waiting\",\"namespace\":\"production\"},"
      "\"spec\":{\"containers\":[{\"name\":\"c\"}]},\"status\":{\"phase\":\"Pending\"}}"
      "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"given-up\",\"namespace\":\"production\"},"
      "\"spec\":{\"containers\":[{\"name\":\"c\"}]},\"status\":{\"phase\":\"Failed\"}}");
  assert_false (fs_pod_is_pending (fs_snapshot_find_pod (snapshot, "production", "running")));
  assert_true (fs_pod_is_pending (fs_snapshot_find_pod (snapshot, "production", "waiting")));
  assert_false (fs_pod_is_pending (fs_snapshot_find_pod (snapshot, "production", "given-up")));
  FsNodeSummary rows[1];
  guint n_rows;
  FsClusterSummary total;
  assert_true (fs_nodes_summarize (snapshot, NULL, rows, &n_rows, &total, NULL));
  assert_int_equal (total.pods_bound, 1);
  assert_int_equal (total.pods_pending, 1);
}

/* ---- node additions that satisfy the pod's spread, affinity and taints --------------- */

/* A node of TYPE in ZONE and node group POOL (eks.amazonaws.com/nodegroup), 4 cpu, 14.5Gi. */
#define POOL_NODE(name, zone, type, pool, extra)                                             \
  "{\"kind\":\"Node\",\"metadata\":{\"name\":\"" name "\",\"labels\":{"                     \
  "\"kubernetes.io/hostname\":\"" name "\",\"topology.kubernetes.io/zone\":\"" zone "\","      \
  "\"eks.amazonaws.com/nodegroup\":\"" pool "\","                                               \
  "\"node.kubernetes.io/instance-type\":\"" type "\"}}," extra                                 \
  "\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"15204352Ki\",\"pods\":\"110\"},"  \
  "\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}}"

static const FsNodeAddition *
addition_in (const FsNodeShapeEstimate *estimate, const char *zone)
{
  for (guint i = 0; i < estimate->additions->len; i++)
    {
      const FsNodeAddition *addition = &g_array_index (estimate->additions, FsNodeAddition, i);
      if (g_strcmp0 (addition->zone, zone) == 0)
        return addition;
    }
  return NULL;
}

static const FsNodeShapeEstimate *
estimate_of (const GArray *estimates, const char *shape)
{
  for (guint i = 0; i < estimates->len; i++)
    if (strcmp (g_array_index (estimates, FsNodeShapeEstimate, i).shape, shape) == 0)
      return &g_array_index (estimates, FsNodeShapeEstimate, i);
  return NULL;
}

/* Three zones, maxSkew 1 on the zone, web pods skewed 3 / 1 / 1 (podtopologyspread Filter:
 * count + 1 - min <= maxSkew).  a1 has room but is skewed (3 + 1 - 1 = 3); b1 and c1 are
 * full (0.5Gi free).  A new node in zone-a would be skewed too, so 2 replicas need one new
 * node in zone-b and one in zone-c, one replica each, though 14 fit on an empty node by
 * memory: uneven across zones (none in zone-a). */
static void
test_new_nodes_zone_spread_skewed (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (
      NODE ("a1", "zone-a", "") NODE ("b1", "zone-b", "") NODE ("c1", "zone-c", "")
      POD ("w1", ON ("a1"), "web", "4Gi", "") POD ("w2", ON ("a1"), "web", "4Gi", "")
      POD ("w3", ON ("a1"), "web", "4Gi", "")
      POD ("w4", ON ("b1"), "web", "4Gi", "") POD ("fill-b", ON ("b1"), "batch", "10Gi", "")
      POD ("w5", ON ("c1"), "web", "4Gi", "") POD ("fill-c", ON ("c1"), "batch", "10Gi", "")
      SPREAD_TEMPLATE ("web", ""));
  const FsPod *template = fs_snapshot_find_pod (snapshot, "production", "template");
  FsPodShape pod = { .namespace = template->namespace, .labels = template->labels, .spec = template->spec };
  g_autoptr (GArray) estimates = fs_node_shape_estimates_new ();
  FsPackOptions options = { .replicas = 2 };
  fs_estimate_new_nodes (snapshot, &pod, &options, estimates);
  assert_int_equal (estimates->len, 1);
  const FsNodeShapeEstimate *estimate = &g_array_index (estimates, FsNodeShapeEstimate, 0);
  assert_int_equal (estimate->per_node, 14);
  assert_true (estimate->complete);
  assert_int_equal (estimate->nodes_needed, 2);
  assert_null (addition_in (estimate, "zone-a"));
  assert_non_null (addition_in (estimate, "zone-b"));
  assert_non_null (addition_in (estimate, "zone-c"));
  assert_int_equal (addition_in (estimate, "zone-b")->count, 1);
  assert_int_equal (addition_in (estimate, "zone-b")->replicas_per_node, 1);
  assert_int_equal (addition_in (estimate, "zone-c")->replicas_per_node, 1);
  assert_true (estimate->uneven);
  /* the same through capacity: 0 fit now, so 2 Pending and the same two new nodes */
  g_autoptr (FsCapacityAnswer) answer = fs_capacity_answer (snapshot, &pod, 2, NULL);
  assert_int_equal (answer->pack.pending, 2);
  const FsNodeShapeEstimate *again = &g_array_index (answer->estimates, FsNodeShapeEstimate, 0);
  assert_int_equal (again->nodes_needed, 2);
  assert_null (addition_in (again, "zone-a"));
}

/* Required node affinity (a nodeSelector) to one pool: only that pool's nodes are copied
 * (nodeaffinity Filter on the new node's labels, its pool label among them). */
static void
test_new_nodes_node_affinity_pool (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (
      POOL_NODE ("g1", "zone-a", "m5.xlarge", "general", "")
      POOL_NODE ("g2", "zone-b", "m5.xlarge", "general", "")
      POOL_NODE ("m1", "zone-a", "r5.xlarge", "memory", "")
      POD ("big", ON ("m1"), "db", "14Gi", ""));
  char *selector[] = { (char *) "eks.amazonaws.com/nodegroup=memory", NULL };
  g_autoptr (FsShape) pinned = shape ("memory=6Gi", NULL, selector);
  g_autoptr (FsCapacityAnswer) answer = fs_capacity_answer (snapshot, fs_shape_pod (pinned), 3, NULL);
  assert_int_equal (answer->pack.pending, 3);
  const FsNodeShapeEstimate *general = estimate_of (answer->estimates, "m5.xlarge");
  const FsNodeShapeEstimate *memory = estimate_of (answer->estimates, "r5.xlarge");
  assert_non_null (general);
  assert_non_null (memory);
  assert_int_equal (general->verdict.filter, FS_FILTER_NODE_AFFINITY);
  assert_int_equal (general->per_node, 0);
  assert_false (general->complete);
  assert_int_equal (general->additions->len, 0);
  assert_true (memory->complete);
  assert_int_equal (memory->nodes_needed, 2); /* two 6Gi a 14.5Gi node */
  assert_int_equal (memory->additions->len, 1);
  const FsNodeAddition *addition = &g_array_index (memory->additions, FsNodeAddition, 0);
  assert_string_equal (addition->pool, "memory");
  assert_string_equal (addition->pool_key, "eks.amazonaws.com/nodegroup");
  assert_string_equal (addition->zone, "zone-a");
  assert_int_equal (addition->count, 2);
  assert_int_equal (addition->replicas, 3);
  assert_int_equal (addition->replicas_per_node, 2);
}

/* A pool's taint the pod does not tolerate (tainttoleration Filter on the copied taints):
 * its nodes are not added; tolerated, they are.  The cordon and not-ready taints of the
 * example are not copied: a new node is Ready and schedulable. */
static void
test_new_nodes_pool_taint (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (
      POOL_NODE ("gpu1", "zone-a", "g4dn.xlarge", "gpu",
                 "\"spec\":{\"taints\":[{\"key\":\"nvidia.com/gpu\",\"value\":\"true\",\"effect\":\"NoSchedule\"}]},")
      POOL_NODE ("n1", "zone-a", "m5.xlarge", "general",
                 "\"spec\":{\"unschedulable\":true,\"taints\":[{\"key\":\"node.kubernetes.io/unschedulable\","
                 "\"effect\":\"NoSchedule\"}]},"));
  g_autoptr (FsShape) plain = shape ("memory=6Gi", NULL, NULL);
  g_autoptr (FsCapacityAnswer) answer = fs_capacity_answer (snapshot, fs_shape_pod (plain), 2, NULL);
  const FsNodeShapeEstimate *gpu = estimate_of (answer->estimates, "g4dn.xlarge");
  const FsNodeShapeEstimate *general = estimate_of (answer->estimates, "m5.xlarge");
  assert_int_equal (gpu->verdict.filter, FS_FILTER_TAINT_TOLERATION);
  assert_string_equal (gpu->verdict.taint->key, "nvidia.com/gpu");
  assert_false (gpu->complete);
  assert_int_equal (gpu->nodes_needed, 0);
  assert_true (general->complete); /* the cordoned example's copy is schedulable */
  assert_int_equal (general->nodes_needed, 1);
  char *tolerations[] = { (char *) "nvidia.com/gpu=true:NoSchedule", NULL };
  g_autoptr (FsShape) tolerant = shape ("memory=6Gi", tolerations, NULL);
  g_autoptr (FsCapacityAnswer) tolerated = fs_capacity_answer (snapshot, fs_shape_pod (tolerant), 4, NULL);
  /* gpu1 itself takes 2 now; 2 more need one new node of either shape */
  assert_int_equal (tolerated->pack.pending, 2);
  assert_int_equal (estimate_of (tolerated->estimates, "g4dn.xlarge")->nodes_needed, 1);
  assert_string_equal (g_array_index (estimate_of (tolerated->estimates, "g4dn.xlarge")->additions,
                                      FsNodeAddition, 0).pool, "gpu");
}

#define ZONE_ANTI_AFFINITY(app)                                                              \
  ",\"affinity\":{\"podAntiAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":"  \
  "[{\"labelSelector\":{\"matchLabels\":{\"app\":\"" app "\"}},"                             \
  "\"topologyKey\":\"topology.kubernetes.io/zone\"}]}}"

/* Hostname spread (podtopologyspread with topologyKey kubernetes.io/hostname, maxSkew 1):
 * a new node is a domain of its own with 0 matching pods.  Three full nodes hold 2 web pods
 * each; the new node takes replicas while count + 1 - min <= 1: to 1 (min 0), 2 (min 1),
 * 3 (min 2), not a fourth (3 + 1 - 2 = 2), so 3 Pending need 1 node and 4 need 2, though
 * 14 fit on it by memory. */
static void
test_new_nodes_hostname_spread (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (
      NODE ("a1", "zone-a", "") NODE ("b1", "zone-b", "") NODE ("c1", "zone-c", "")
      POD ("w1", ON ("a1"), "web", "1Gi", "") POD ("w2", ON ("a1"), "web", "1Gi", "")
      POD ("w3", ON ("b1"), "web", "1Gi", "") POD ("w4", ON ("b1"), "web", "1Gi", "")
      POD ("w5", ON ("c1"), "web", "1Gi", "") POD ("w6", ON ("c1"), "web", "1Gi", "")
      POD ("fill-a", ON ("a1"), "batch", "12Gi", "") POD ("fill-b", ON ("b1"), "batch", "12Gi", "")
      POD ("fill-c", ON ("c1"), "batch", "12Gi", "")
      "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"template\",\"namespace\":\"production\","
      "\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":"
      "{\"requests\":{\"memory\":\"1Gi\"}}}],\"topologySpreadConstraints\":[{\"maxSkew\":1,"
      "\"topologyKey\":\"kubernetes.io/hostname\",\"whenUnsatisfiable\":\"DoNotSchedule\","
      "\"labelSelector\":{\"matchLabels\":{\"app\":\"web\"}}}]},\"status\":{\"phase\":\"Pending\"}}");
  const FsPod *template = fs_snapshot_find_pod (snapshot, "production", "template");
  FsPodShape pod = { .namespace = template->namespace, .labels = template->labels, .spec = template->spec };
  static const struct { int64_t replicas, nodes, per_node; } cases[] = { { 3, 1, 3 }, { 4, 2, 2 } };
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GArray) estimates = fs_node_shape_estimates_new ();
      FsPackOptions options = { .replicas = cases[i].replicas };
      fs_estimate_new_nodes (snapshot, &pod, &options, estimates);
      const FsNodeShapeEstimate *estimate = &g_array_index (estimates, FsNodeShapeEstimate, 0);
      assert_int_equal (estimate->per_node, 14);
      assert_true (estimate->complete);
      assert_int_equal (estimate->nodes_needed, cases[i].nodes);
      int64_t most = 0, replicas = 0;
      for (guint a = 0; a < estimate->additions->len; a++)
        {
          most = MAX (most, g_array_index (estimate->additions, FsNodeAddition, a).replicas_per_node);
          replicas += g_array_index (estimate->additions, FsNodeAddition, a).replicas;
        }
      assert_int_equal (most, cases[i].per_node);
      assert_int_equal (replicas, cases[i].replicas);
    }
}

/* Required anti-affinity of the replicas to themselves on the zone (interpodaffinity
 * satisfyPodAntiAffinity): every zone already holds one, and a new node copies an existing
 * zone, so no number of new nodes helps: nodes_needed 0, not complete. */
static void
test_new_nodes_zone_anti_affinity_never (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (
      NODE ("a1", "zone-a", "") NODE ("b1", "zone-b", "")
      POD ("w1", ON ("a1"), "web", "1Gi", ZONE_ANTI_AFFINITY ("web"))
      POD ("w2", ON ("b1"), "web", "1Gi", ZONE_ANTI_AFFINITY ("web"))
      "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"template\",\"namespace\":\"production\","
      "\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":"
      "{\"requests\":{\"memory\":\"1Gi\"}}}]" ZONE_ANTI_AFFINITY ("web") "},\"status\":{\"phase\":\"Pending\"}}");
  const FsPod *template = fs_snapshot_find_pod (snapshot, "production", "template");
  FsPodShape pod = { .namespace = template->namespace, .labels = template->labels, .spec = template->spec };
  g_autoptr (GArray) estimates = fs_node_shape_estimates_new ();
  FsPackOptions options = { .replicas = 1 };
  fs_estimate_new_nodes (snapshot, &pod, &options, estimates);
  const FsNodeShapeEstimate *estimate = &g_array_index (estimates, FsNodeShapeEstimate, 0);
  assert_false (estimate->complete);
  assert_int_equal (estimate->nodes_needed, 0);
  assert_int_equal (estimate->additions->len, 0);
  assert_int_equal (estimate->unplaced, 1);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_seed_6gi),
    cmocka_unit_test (test_namespace_range),
    cmocka_unit_test (test_seed_3gi),
    cmocka_unit_test (test_capacity_equals_sequential_placement),
    cmocka_unit_test (test_taints_and_selectors_restrict_nodes),
    cmocka_unit_test (test_anti_affinity_one_per_node),
    cmocka_unit_test (test_existing_pods_anti_affinity),
    cmocka_unit_test (test_zone_spread),
    cmocka_unit_test (test_why_on_the_example),
    cmocka_unit_test (test_preemption_finds_victims),
    cmocka_unit_test (test_messages_agree_across_versions),
    cmocka_unit_test (test_host_ports_one_replica_per_node),
    cmocka_unit_test (test_host_ports_replacing_own_pods),
    cmocka_unit_test (test_host_ports_of_templates),
    cmocka_unit_test (test_why_host_port_taken),
    cmocka_unit_test (test_nodes_needed_round_up),
    cmocka_unit_test (test_zone_spread_not_self_matching),
    cmocka_unit_test (test_new_nodes_self_anti_affinity),
    cmocka_unit_test (test_zone_spread_min_domains),
    cmocka_unit_test (test_zone_spread_skips_terminating),
    cmocka_unit_test (test_zone_spread_taints_policy),
    cmocka_unit_test (test_zone_spread_skewed_start),
    cmocka_unit_test (test_zone_spread_min_domains_caps),
    cmocka_unit_test (test_upstream_single_constraint_min_domains),
    cmocka_unit_test (test_upstream_multiple_constraints),
    cmocka_unit_test (test_upstream_multiple_constraints_missing_label),
    cmocka_unit_test (test_zone_spread_equals_one_at_a_time),
    cmocka_unit_test (test_new_nodes_zone_spread_skewed),
    cmocka_unit_test (test_new_nodes_node_affinity_pool),
    cmocka_unit_test (test_new_nodes_pool_taint),
    cmocka_unit_test (test_new_nodes_hostname_spread),
    cmocka_unit_test (test_new_nodes_zone_anti_affinity_never),
    cmocka_unit_test (test_pending_needs_phase_pending),
  };
  return cmocka_run_group_tests_name ("pack", tests, NULL, NULL);
}
