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
  /* app-4's pods also ask ephemeral storage: a node's sum has it only while one of them is there */
  return g_strdup_printf ("{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"pod-%04d\",\"namespace\":\"ns-%d\","
                          "\"labels\":{\"app\":\"app-%d\"}},\"spec\":{%s\"containers\":[{\"name\":\"c\",\"resources\":"
                          "{\"requests\":{\"cpu\":\"%dm\",\"memory\":\"%dMi\"%s}}}]},\"status\":{\"phase\":\"%s\"}}",
                          i, i % 7, pod->app, node, pod->cpu, pod->memory,
                          pod->app == 4 ? ",\"ephemeral-storage\":\"1Gi\"" : "", pod->node >= 0 ? "Running" : "Pending");
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
      assert_int_equal (x->requested.present, y->requested.present);
      assert_ptr_equal (fs_snapshot_find_node (a, x->name), x);
    }
  /* the counts an incremental build subtracts with (objects.c follow_batch) */
  assert_non_null (a->node_bits);
  assert_non_null (b->node_bits);
  assert_memory_equal (a->node_bits, b->node_bits, sizeof (guint32) * 5 * a->n_nodes);
  assert_int_equal (a->n_pods_with_anti_affinity, b->n_pods_with_anti_affinity);
}

/* Batches that change pods and modify nodes (cordon) but keep the same nodes: the nodes'
 * sums follow each batch (what went is subtracted, what came added) instead of a pass over
 * every pod, and after every batch equal a fresh build's; and the arrays a batch writes are
 * the buffers an earlier snapshot let go (objects.c array_alloc), not new memory each time. */
static void
test_node_sums_follow_each_batch (void **state)
{
  enum { MANY = 3000 }; /* a pods array over the 256 KiB that arrays are kept from */
  PodModel *pods = g_new0 (PodModel, N_PODS);
  NodeModel nodes[N_NODES] = { 0 };
  GRand *rand = g_rand_new_with_seed (7);
  for (int i = 0; i < N_NODES; i++)
    nodes[i].present = TRUE;
  for (int i = 0; i < N_PODS; i++)
    pods[i] = (PodModel){ TRUE, g_rand_int_range (rand, -1, N_NODES), 100 + i, 64 + i, i % 5 };
  FsSnapshotBuilder *first = fs_snapshot_builder_new ();
  for (int i = 0; i < N_PODS; i++)
    load (first, pod_json (i, &pods[i]));
  for (int i = 0; i < N_NODES; i++)
    load (first, node_json (i, &nodes[i]));
  for (int i = 0; i < MANY; i++) /* ballast in another namespace, never changed */
    load (first, g_strdup_printf ("{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"b-%05d\",\"namespace\":\"zz\",\"labels\":{\"app\":\"b\"}},"
                                  "\"spec\":{\"containers\":[{\"name\":\"c\"}]},\"status\":{\"phase\":\"Pending\"}}", i));
  g_autoptr (GError) error = NULL;
  FsSnapshot *current = fs_snapshot_builder_finish (first, &error);
  assert_non_null (current);
  const FsPod *freed = NULL;
  guint reused = 0;
  for (int round = 0; round < 200; round++)
    {
      FsSnapshotBuilder *builder = fs_snapshot_builder_new_from (current);
      for (int e = g_rand_int_range (rand, 1, 12); e > 0; e--)
        {
          int i = g_rand_int_range (rand, 0, N_PODS);
          if (g_rand_int_range (rand, 0, 8) == 0)
            {
              int n = g_rand_int_range (rand, 0, N_NODES);
              nodes[n].unschedulable = !nodes[n].unschedulable;
              load (builder, node_json (n, &nodes[n]));
            }
          else if (pods[i].present && g_rand_boolean (rand))
            {
              g_autofree char *name = g_strdup_printf ("pod-%04d", i);
              g_autofree char *namespace = g_strdup_printf ("ns-%d", i % 7);
              pods[i].present = FALSE;
              fs_snapshot_builder_remove (builder, "Pod", namespace, name);
            }
          else
            {
              pods[i] = (PodModel){ TRUE, g_rand_int_range (rand, -1, N_NODES), g_rand_int_range (rand, 1, 4000),
                                    g_rand_int_range (rand, 1, 8000), g_rand_int_range (rand, 0, 5) };
              load (builder, pod_json (i, &pods[i]));
            }
        }
      FsSnapshot *next = fs_snapshot_builder_finish (builder, &error);
      assert_non_null (next);
      reused += next->pods == freed;
      freed = current->pods;
      fs_snapshot_unref (current);
      current = next;
      /* what a fresh list of the same objects gives, the ballast included */
      FsSnapshotBuilder *again = fs_snapshot_builder_new ();
      for (int i = 0; i < N_PODS; i++)
        if (pods[i].present)
          load (again, pod_json (i, &pods[i]));
      for (int i = 0; i < N_NODES; i++)
        load (again, node_json (i, &nodes[i]));
      for (int i = 0; i < MANY; i++)
        load (again, g_strdup_printf ("{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"b-%05d\",\"namespace\":\"zz\",\"labels\":{\"app\":\"b\"}},"
                                      "\"spec\":{\"containers\":[{\"name\":\"c\"}]},\"status\":{\"phase\":\"Pending\"}}", i));
      g_autoptr (FsSnapshot) expected = fs_snapshot_builder_finish (again, &error);
      assert_non_null (expected);
      assert_same (current, expected);
    }
  /* each batch after the first writes into the pods array the one before last let go */
  assert_true (reused >= 150);
  fs_snapshot_unref (current);
  g_rand_free (rand);
  g_free (pods);
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
    cmocka_unit_test (test_node_sums_follow_each_batch),
  };
  return cmocka_run_group_tests_name ("watch", tests, NULL, NULL);
}
