/* fitscale tests — snapshots built on snapshots, as the watch cache builds them
 * (fs_snapshot_builder_new_from): additions replace, removals find by key, a resource listed
 * again replaces all of its kind, and 10,000 events in batches give the snapshot a fresh
 * list of the same objects gives (client-go's informer keeps the same store either way:
 * staging/src/k8s.io/client-go/tools/cache/reflector.go, watchHandler and syncWith). */
#include "config.h"

#include "testutil.h"

#define N_NODES 12
#define N_PODS 400

typedef struct {
  gboolean present;
  int node;          /* -1: Pending, unbound */
  int cpu, memory;   /* m, Mi */
  int app;
} PodModel;

typedef struct {
  gboolean present;
  gboolean unschedulable;
} NodeModel;

static char *
pod_json (int i, const PodModel *pod)
{
  g_autofree char *node = pod->node >= 0 ? g_strdup_printf ("\"nodeName\":\"node-%02d\",", pod->node) : g_strdup ("");
  return g_strdup_printf ("{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"pod-%04d\",\"namespace\":\"ns-%d\","
                          "\"labels\":{\"app\":\"app-%d\"}},\"spec\":{%s\"containers\":[{\"name\":\"c\",\"resources\":"
                          "{\"requests\":{\"cpu\":\"%dm\",\"memory\":\"%dMi\"}}}]},\"status\":{\"phase\":\"%s\"}}",
                          i, i % 7, pod->app, node, pod->cpu, pod->memory, pod->node >= 0 ? "Running" : "Pending");
}

static char *
node_json (int i, const NodeModel *node)
{
  return g_strdup_printf ("{\"kind\":\"Node\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"node-%02d\"},"
                          "\"spec\":{\"unschedulable\":%s},\"status\":{\"allocatable\":{\"cpu\":\"64\",\"memory\":\"256Gi\",\"pods\":\"500\"}}}",
                          i, node->unschedulable ? "true" : "false");
}

static void
load (FsSnapshotBuilder *builder, char *json)
{
  g_autoptr (GError) error = NULL;
  gboolean ok = fs_load_bytes (builder, "test-event", json, strlen (json), &error);
  g_free (json);
  if (!ok)
    fail_msg ("%s", error->message);
}

/* A fresh snapshot of what the model holds: what a new list would give. */
static FsSnapshot *
fresh (const PodModel *pods, const NodeModel *nodes)
{
  FsSnapshotBuilder *builder = fs_snapshot_builder_new ();
  for (int i = N_PODS - 1; i >= 0; i--) /* any order: the build sorts */
    if (pods[i].present)
      load (builder, pod_json (i, &pods[i]));
  for (int i = 0; i < N_NODES; i++)
    if (nodes[i].present)
      load (builder, node_json (i, &nodes[i]));
  g_autoptr (GError) error = NULL;
  FsSnapshot *snapshot = fs_snapshot_builder_finish (builder, &error);
  assert_non_null (snapshot);
  return snapshot;
}

static void
assert_same (const FsSnapshot *a, const FsSnapshot *b)
{
  assert_int_equal (a->n_pods, b->n_pods);
  assert_int_equal (a->n_nodes, b->n_nodes);
  for (guint i = 0; i < a->n_pods; i++)
    {
      const FsPod *x = &a->pods[i], *y = &b->pods[i];
      assert_string_equal (x->namespace, y->namespace);
      assert_string_equal (x->name, y->name);
      assert_int_equal (x->node_name == NULL, y->node_name == NULL);
      if (x->node_name != NULL)
        assert_string_equal (x->node_name, y->node_name);
      assert_int_equal (x->node_index, y->node_index);
      assert_int_equal (x->phase, y->phase);
      assert_true (fs_resources_equal (&x->spec->request, &y->spec->request));
      assert_string_equal (test_label (x->labels, "app"), test_label (y->labels, "app"));
    }
  for (guint i = 0; i < a->n_nodes; i++)
    {
      const FsNode *x = &a->nodes[i], *y = &b->nodes[i];
      assert_string_equal (x->name, y->name);
      assert_int_equal (x->flags, y->flags);
      assert_int_equal (x->pod_count, y->pod_count);
      assert_true (fs_resources_equal (&x->requested, &y->requested));
      assert_ptr_equal (fs_snapshot_find_node (a, x->name), x);
    }
}

/* 10,000 random ADDED, MODIFIED and DELETED events of pods and nodes, in batches of 1 to 60,
 * each batch a snapshot built on the one before (which is let go at once: the pool is
 * shared, not inherited); the last equals a fresh build of the same objects. */
static void
test_events_in_batches_equal_a_fresh_list (void **state)
{
  PodModel pods[N_PODS] = { 0 };
  NodeModel nodes[N_NODES] = { 0 };
  GRand *rand = g_rand_new_with_seed (18);
  for (int i = 0; i < N_NODES; i++)
    nodes[i].present = TRUE;
  for (int i = 0; i < N_PODS; i += 2)
    pods[i] = (PodModel){ TRUE, g_rand_int_range (rand, -1, N_NODES), 100 + i, 64 + i, i % 5 };
  FsSnapshot *current = fresh (pods, nodes);
  int events = 0;
  while (events < 10000)
    {
      FsSnapshotBuilder *builder = fs_snapshot_builder_new_from (current);
      int batch = g_rand_int_range (rand, 1, 61);
      for (int e = 0; e < batch; e++, events++)
        {
          if (g_rand_int_range (rand, 0, 20) == 0)
            {
              int n = g_rand_int_range (rand, 0, N_NODES);
              if (nodes[n].present && g_rand_boolean (rand))
                {
                  g_autofree char *name = g_strdup_printf ("node-%02d", n);
                  nodes[n].present = FALSE;
                  assert_true (fs_snapshot_builder_remove (builder, "Node", NULL, name) >= 1);
                }
              else
                {
                  nodes[n] = (NodeModel){ TRUE, g_rand_boolean (rand) };
                  load (builder, node_json (n, &nodes[n]));
                }
              continue;
            }
          int i = g_rand_int_range (rand, 0, N_PODS);
          if (pods[i].present && g_rand_int_range (rand, 0, 3) == 0)
            {
              g_autofree char *name = g_strdup_printf ("pod-%04d", i);
              g_autofree char *namespace = g_strdup_printf ("ns-%d", i % 7);
              pods[i].present = FALSE;
              assert_true (fs_snapshot_builder_remove (builder, "Pod", namespace, name) >= 1); /* more: modified earlier in the batch */
            }
          else
            {
              pods[i] = (PodModel){ TRUE, g_rand_int_range (rand, -1, N_NODES), g_rand_int_range (rand, 1, 4000),
                                    g_rand_int_range (rand, 1, 8000), g_rand_int_range (rand, 0, 5) };
              load (builder, pod_json (i, &pods[i]));
            }
        }
      g_autoptr (GError) error = NULL;
      FsSnapshot *next = fs_snapshot_builder_finish (builder, &error);
      assert_non_null (next);
      fs_snapshot_unref (current); /* readers may drop the old one first */
      current = next;
    }
  g_autoptr (FsSnapshot) expected = fresh (pods, nodes);
  assert_same (current, expected);
  fs_snapshot_unref (current);
  g_rand_free (rand);
}

/* A removal finds an object added earlier in the same batch, and a later addition comes back. */
static void
test_remove_and_add_again_in_one_batch (void **state)
{
  PodModel pods[N_PODS] = { 0 };
  NodeModel nodes[N_NODES] = { 0 };
  nodes[0].present = TRUE;
  pods[1] = (PodModel){ TRUE, 0, 100, 100, 1 };
  g_autoptr (FsSnapshot) base = fresh (pods, nodes);
  FsSnapshotBuilder *builder = fs_snapshot_builder_new_from (base);
  PodModel changed = { TRUE, 0, 300, 100, 2 };
  load (builder, pod_json (1, &changed));                                          /* MODIFIED */
  assert_int_equal (fs_snapshot_builder_remove (builder, "Pod", "ns-1", "pod-0001"), 2); /* base's and the new */
  assert_int_equal (fs_snapshot_builder_remove (builder, "Pod", "ns-1", "pod-0001"), 0);
  load (builder, pod_json (1, &changed));                                          /* ADDED again */
  assert_int_equal (fs_snapshot_builder_remove (builder, "Pod", "ns-1", "no-such-pod"), 0);
  assert_int_equal (fs_snapshot_builder_remove (builder, "Deployment", "ns-1", "pod-0001"), 0);
  g_autoptr (GError) error = NULL;
  g_autoptr (FsSnapshot) next = fs_snapshot_builder_finish (builder, &error);
  assert_int_equal (next->n_pods, 1);
  assert_int_equal (next->nodes[0].requested.cpu_milli, 300);
  assert_string_equal (test_label (next->pods[0].labels, "app"), "app-2");
  /* the base is unchanged */
  assert_int_equal (base->n_pods, 1);
  assert_int_equal (base->nodes[0].requested.cpu_milli, 100);
}

/* A resource listed again: every object of its kind goes, what the list holds comes. */
static void
test_remove_kind (void **state)
{
  g_autoptr (FsSnapshot) base = test_load_valid_text (
      "{\"kind\":\"List\",\"apiVersion\":\"v1\",\"items\":["
      "{\"kind\":\"Deployment\",\"apiVersion\":\"apps/v1\",\"metadata\":{\"name\":\"web\",\"namespace\":\"a\"},\"spec\":{\"replicas\":2,\"selector\":{\"matchLabels\":{\"app\":\"web\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":[{\"name\":\"c\"}]}}}},"
      "{\"kind\":\"ReplicaSet\",\"apiVersion\":\"apps/v1\",\"metadata\":{\"name\":\"web-1\",\"namespace\":\"a\"},\"spec\":{\"replicas\":2,\"selector\":{\"matchLabels\":{\"app\":\"web\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":[{\"name\":\"c\"}]}}}},"
      "{\"kind\":\"Node\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"n1\"}},"
      "{\"kind\":\"Node\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"n2\"}}]}");
  assert_int_equal (base->n_workloads, 2);
  FsSnapshotBuilder *builder = fs_snapshot_builder_new_from (base);
  assert_int_equal (fs_snapshot_builder_remove_kind (builder, "ReplicaSet"), 1);
  assert_int_equal (fs_snapshot_builder_remove_kind (builder, "Node"), 2);
  load (builder, g_strdup ("{\"kind\":\"Node\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"n3\"}}"));
  assert_int_equal (fs_snapshot_builder_remove_kind (builder, "NoSuchKind"), 0);
  g_autoptr (GError) error = NULL;
  g_autoptr (FsSnapshot) next = fs_snapshot_builder_finish (builder, &error);
  assert_int_equal (next->n_workloads, 1);
  assert_int_equal (next->workloads[0].kind, FS_WORKLOAD_DEPLOYMENT);
  assert_int_equal (next->n_nodes, 1);
  assert_string_equal (next->nodes[0].name, "n3");
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_events_in_batches_equal_a_fresh_list),
    cmocka_unit_test (test_remove_and_add_again_in_one_batch),
    cmocka_unit_test (test_remove_kind),
  };
  return cmocka_run_group_tests_name ("watch", tests, NULL, NULL);
}
