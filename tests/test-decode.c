/* The decoders: list shapes, YAML, interning, node accounting, and every kind of bad input
 * rejected with the source, object and field named. */
#include "config.h"

#include <glib/gstdio.h>
#include <unistd.h>

#include "testutil.h"
#include "fitscale/kube/tree.h"

#define NODE(name, cpu, memory)                                                              \
  "{\"kind\":\"Node\",\"metadata\":{\"name\":\"" name "\",\"labels\":{\"kubernetes.io/hostname\":\"" name "\"}},"\
  "\"status\":{\"allocatable\":{\"cpu\":\"" cpu "\",\"memory\":\"" memory "\",\"pods\":\"110\"}}}"
#define POD(name, node, phase, cpu, memory)                                                  \
  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"" name "\",\"namespace\":\"prod\",\"labels\":{\"app\":\"web\"}},"   \
  "\"spec\":{\"nodeName\":\"" node "\",\"containers\":[{\"name\":\"c\",\"resources\":"         \
  "{\"requests\":{\"cpu\":\"" cpu "\",\"memory\":\"" memory "\"}}}]},"                      \
  "\"status\":{\"phase\":\"" phase "\"}}"

static void
test_typed_lists_without_item_kind (void **state)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FsSnapshot) snapshot = test_load_text (
      "{\"kind\":\"NodeList\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"42\"},"
      "\"items\":[" NODE ("a", "2", "4Gi") "," NODE ("b", "4", "8Gi") "]}"
      "{\"kind\":\"PodList\",\"items\":[" POD ("p1", "a", "Running", "500m", "1Gi") ","
      POD ("p2", "a", "Succeeded", "1", "1Gi") "," POD ("p3", "b", "Running", "250m", "512Mi") "]}",
      &error);
  assert_non_null (snapshot);
  assert_int_equal (snapshot->n_nodes, 2);
  assert_int_equal (snapshot->n_pods, 3);
  assert_string_equal (snapshot->resource_version, "42");
  const FsNode *a = fs_snapshot_find_node (snapshot, "a");
  assert_int_equal (a->requested.cpu_milli, 500);       /* the Succeeded pod does not count */
  assert_int_equal (a->pod_count, 1);
  assert_int_equal (a->allocatable.memory_bytes, 4LL << 30);
  /* identical label sets and pod specs are one interned object */
  assert_ptr_equal (snapshot->pods[0].labels, snapshot->pods[2].labels);
  assert_ptr_equal (snapshot->pods[0].spec->placement, snapshot->pods[2].spec->placement);
  assert_ptr_not_equal (snapshot->pods[0].spec, snapshot->pods[2].spec);
}

static void
test_mixed_list_and_unknown_kinds (void **state)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FsSnapshot) mixed = test_load_text (
      "{\"kind\":\"List\",\"items\":["
      "{\"kind\":\"Service\",\"metadata\":{\"name\":\"s\"},\"spec\":{\"ports\":[{\"port\":80}]}},"
      "{\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\"},\"data\":{\"x\":\"y\"}},"
      "{\"kind\":\"Namespace\",\"metadata\":{\"name\":\"prod\"},\"status\":{\"phase\":\"Active\"}},"
      "{\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\",\"namespace\":\"prod\"},"
      " \"spec\":{\"replicas\":3,\"selector\":{\"matchLabels\":{\"app\":\"web\"}},"
      "  \"strategy\":{\"rollingUpdate\":{\"maxSurge\":\"25%\",\"maxUnavailable\":0}},"
      "  \"template\":{\"metadata\":{\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":"
      "   [{\"name\":\"c\",\"resources\":{\"limits\":{\"cpu\":\"1\",\"memory\":\"2Gi\"},"
      "     \"requests\":{\"cpu\":\"100m\"}}}]}}}}]}",
      &error);
  assert_non_null (mixed);
  assert_int_equal (mixed->n_skipped, 2);
  assert_int_equal (mixed->n_namespaces, 1);
  assert_int_equal (mixed->n_workloads, 1);
  const FsWorkload *web = &mixed->workloads[0];
  assert_int_equal (web->replicas, 3);
  assert_true (web->max_surge.percent);
  assert_int_equal (web->max_surge.value, 25);
  assert_false (web->max_unavailable.percent);
  /* templates are not defaulted by the API server: the memory limit becomes the request */
  assert_int_equal (web->template->request.cpu_milli, 100);
  assert_int_equal (web->template->request.memory_bytes, 2LL << 30);
  assert_string_equal (test_label (web->selector->match_labels, "app"), "web");
}

static void
test_yaml_documents (void **state)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FsSnapshot) snapshot = test_load_text (
      "apiVersion: v1\nkind: Node\nmetadata:\n  name: y1\n"
      "spec:\n  unschedulable: yes\n  taints:\n  - key: gpu\n    effect: NoSchedule\n"
      "status:\n  allocatable:\n    cpu: 2\n    memory: 3G\n    pods: 10\n"
      "---\n"
      "apiVersion: v1\nkind: Pod\nmetadata:\n  name: q\n  namespace: ns\n"
      "  labels:\n    version: 1\nspec:\n  nodeName: y1\n  tolerations:\n"
      "  - operator: Exists\n  containers:\n  - name: c\n    resources:\n"
      "      requests:\n        cpu: 0.5\n        memory: '1e3'\n"
      "status:\n  phase: Running\n---\n",
      &error);
  if (snapshot == NULL)
    fail_msg ("%s", error->message);
  assert_int_equal (snapshot->n_nodes, 1);
  const FsNode *node = &snapshot->nodes[0];
  assert_true (node->flags & FS_NODE_UNSCHEDULABLE);
  assert_int_equal (node->allocatable.cpu_milli, 2000);
  assert_int_equal (node->allocatable.memory_bytes, 3000000000LL);
  assert_int_equal (node->requested.cpu_milli, 500);
  assert_int_equal (node->requested.memory_bytes, 1000);
  assert_string_equal (test_label (snapshot->pods[0].labels, "version"), "1");
  const FsTolerationList *tolerations = snapshot->pods[0].spec->placement->tolerations;
  assert_int_equal (tolerations->n, 1);
  assert_int_equal (tolerations->items[0].op, FS_TOLERATION_EXISTS);
  assert_null (tolerations->items[0].key);
}

/* kubectl's `List` names its kind after the items, so each item's capture waits for its own
 * apiVersion and kind: a Pod costs no tree, a generic object keeps every key in order. */
static void
test_generic_items_of_a_kindless_list (void **state)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FsSnapshot) snapshot = test_load_text (
      "{\"apiVersion\":\"v1\",\"items\":["
      "{\"apiVersion\":\"autoscaling/v2\",\"kind\":\"HorizontalPodAutoscaler\","
      "\"metadata\":{\"name\":\"a\",\"namespace\":\"x\"},\"spec\":{\"maxReplicas\":3}},"
      POD ("p", "n", "Running", "1", "1Gi") ","
      "{\"kind\":\"HorizontalPodAutoscaler\",\"apiVersion\":\"autoscaling/v2\","
      "\"metadata\":{\"name\":\"b\",\"namespace\":\"x\"}},"
      "{\"apiVersion\":\"autoscaling/v2\",\"metadata\":{\"name\":\"c\",\"namespace\":\"x\"},"
      "\"kind\":\"HorizontalPodAutoscaler\",\"spec\":{\"maxReplicas\":5}}"
      "],\"kind\":\"List\",\"metadata\":{\"resourceVersion\":\"\"}}",
      &error);
  if (snapshot == NULL)
    fail_msg ("%s", error->message);
  assert_int_equal (snapshot->n_pods, 1);
  assert_int_equal (snapshot->n_generic, 3);
  static const char *const keys_a[] = { "apiVersion", "kind", "metadata", "spec" };
  const FsTree *a = snapshot->generic[0].object;
  assert_int_equal (a->n, G_N_ELEMENTS (keys_a));
  for (guint i = 0; i < a->n; i++)
    assert_string_equal (a->keys[i], keys_a[i]);
  assert_string_equal (fs_tree_text (a, "apiVersion"), "autoscaling/v2");
  assert_string_equal (fs_tree_text (a, "kind"), "HorizontalPodAutoscaler");
  assert_string_equal (fs_tree_text (a, "spec.maxReplicas"), "3");
  const FsTree *b = snapshot->generic[1].object;
  assert_string_equal (fs_tree_text (b, "kind"), "HorizontalPodAutoscaler");
  assert_string_equal (fs_tree_text (b, "metadata.name"), "b");
  const FsTree *c = snapshot->generic[2].object; /* kind after metadata: captured all along */
  assert_string_equal (fs_tree_text (c, "apiVersion"), "autoscaling/v2");
  assert_string_equal (fs_tree_text (c, "kind"), "HorizontalPodAutoscaler");
  assert_string_equal (fs_tree_text (c, "spec.maxReplicas"), "5");
}

static void
test_later_copy_wins (void **state)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FsSnapshot) snapshot = test_load_text (
      NODE ("n", "1", "1Gi") NODE ("n", "2", "1Gi") POD ("p", "n", "Running", "1", "1") POD ("p", "n", "Running", "2", "1"),
      &error);
  assert_non_null (snapshot);
  assert_int_equal (snapshot->n_nodes, 1);
  assert_int_equal (snapshot->n_pods, 1);
  assert_int_equal (snapshot->nodes[0].allocatable.cpu_milli, 2000);
  assert_int_equal (snapshot->nodes[0].requested.cpu_milli, 2000);
}

static void
test_generic_tree_keeps_spec_drops_managed_fields (void **state)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FsSnapshot) snapshot = test_load_text (
      "{\"spec\":{\"minReplicas\":2},\"kind\":\"HorizontalPodAutoscaler\","
      "\"apiVersion\":\"autoscaling/v2\",\"metadata\":{\"name\":\"h\",\"namespace\":\"x\","
      "\"managedFields\":[{\"manager\":\"kubectl\",\"fieldsV1\":{\"f:spec\":{}}}],"
      "\"annotations\":{\"a\":\"b\"}},\"status\":{\"desiredReplicas\":4}}",
      &error);
  if (snapshot == NULL)
    fail_msg ("%s", error->message);
  assert_int_equal (snapshot->n_generic, 1);
  const FsGenericObject *hpa = &snapshot->generic[0];
  assert_int_equal (hpa->kind, FS_KIND_HPA);
  assert_string_equal (test_label (hpa->annotations, "a"), "b");
  const FsTree *root = hpa->object;
  gboolean saw_spec = FALSE;
  for (guint i = 0; i < root->n; i++)
    {
      if (strcmp (root->keys[i], "spec") == 0)
        {
          saw_spec = TRUE;
          assert_string_equal (root->values[i]->keys[0], "minReplicas");
          assert_string_equal (root->values[i]->values[0]->text, "2");
        }
      if (strcmp (root->keys[i], "metadata") == 0)
        for (guint j = 0; j < root->values[i]->n; j++)
          {
            assert_string_not_equal (root->values[i]->keys[j], "managedFields");
            assert_string_not_equal (root->values[i]->keys[j], "annotations");
          }
    }
  assert_true (saw_spec);
}

static void
test_errors_name_object_and_field (void **state)
{
  test_expect_error ("{\"kind\":\"PodList\",\"items\":[" POD ("ok", "n", "Running", "1", "1")
                     "," POD ("bad", "n", "Running", "1.5.5", "1") "]}",
                     "test-input", "item 1 (Pod prod/bad)", "spec.containers[0].resources.requests.cpu",
                     "1.5.5", NULL);
  test_expect_error ("{\"kind\":\"Deployment\",\"metadata\":{\"name\":\"d\"},\"spec\":{\"replicas\":\"three\"}}",
                     "Deployment d", "spec.replicas", "expected an integer", NULL);
  test_expect_error ("{\"kind\":\"Deployment\",\"metadata\":{\"name\":\"d\"},\"spec\":{\"replicas\":1e300}}",
                     "spec.replicas", "not an integer", NULL);
  test_expect_error ("{\"kind\":\"Node\",\"metadata\":{\"name\":\"n\"},\"spec\":{\"unschedulable\":\"yes\"}}",
                     "spec.unschedulable", "true or false", NULL);
  test_expect_error ("{\"kind\":\"Node\",\"metadata\":{\"name\":\"n\"},\"spec\":[1]}",
                     "field spec", "expected an object, got a list", NULL);
  test_expect_error ("{\"kind\":\"Node\",\"metadata\":{\"name\":\"n\"},\"spec\":{\"taints\":[{\"key\":\"a\",\"effect\":\"Sometimes\"}]}}",
                     "spec.taints[0].effect", "Sometimes", NULL);
  test_expect_error ("{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},\"status\":{\"startTime\":\"yesterday\"}}",
                     "status.startTime", "RFC 3339", NULL);
  test_expect_error ("{\"kind\":\"Node\",\"status\":{}}", "metadata.name", NULL);
  test_expect_error ("{\"metadata\":{\"name\":\"n\"}}", "kind", "missing", NULL);
  test_expect_error ("[1,2]", "expected an object", NULL);
  test_expect_error ("{\"kind\":\"Node\",\"metadata\":{\"name\":\"n\"", "truncated", NULL);
  test_expect_error ("{\"kind\":\"Node\",,}", "invalid JSON", "byte", NULL);
  test_expect_error ("kind: Node\nmetadata:\n  name: n\n bad: x\n", "invalid YAML", "line", NULL);
  test_expect_error ("a: &x 1\nb: *x\n", "aliases", NULL);
  test_expect_error ("{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},\"spec\":{\"affinity\":{\"podAntiAffinity\":"
                     "{\"requiredDuringSchedulingIgnoredDuringExecution\":[{\"labelSelector\":{\"matchExpressions\":"
                     "[{\"key\":\"a\",\"operator\":\"Gt\",\"values\":[\"1\"]}]}}]}}}}",
                     "Gt and Lt are for node selectors only", NULL);
}

/* Integers: decimal digits after an optional sign, range-checked; fractions and exponents
 * are not integers, as with g_ascii_string_to_signed. */
static void
test_integer_fields (void **state)
{
#define PRIORITY_POD(value)                                                                  \
  "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"d\"},\"spec\":{\"priority\":" value "}}"
  static const struct { const char *text; int32_t priority; } accepted[] = {
    { "0", 0 },
    { "-0", 0 },
    { "7", 7 },
    { "2147483647", G_MAXINT32 },
    { "-2147483648", G_MININT32 },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (accepted); i++)
    {
      g_autofree char *text = g_strdup_printf (PRIORITY_POD ("%s"), accepted[i].text);
      g_autoptr (FsSnapshot) snapshot = test_load_valid_text (text);
      assert_int_equal (snapshot->pods[0].priority, accepted[i].priority);
    }
  static const char *const rejected[] = { "2147483648", "-2147483649", "1.5", "1e3",
                                          "99999999999999999999", "-9223372036854775809" };
  for (gsize i = 0; i < G_N_ELEMENTS (rejected); i++)
    {
      g_autofree char *text = g_strdup_printf (PRIORITY_POD ("%s"), rejected[i]);
      test_expect_error (text, "spec.priority", rejected[i], "is not an integer", NULL);
    }
  /* the shared reader itself, case by case against g_ascii_string_to_signed's rules */
  static const struct { const char *text; gboolean ok; int64_t value; } cases[] = {
    { "0", TRUE, 0 }, { "+7", TRUE, 7 }, { "007", TRUE, 7 }, { "-12", TRUE, -12 },
    { "9223372036854775807", TRUE, G_MAXINT64 }, { "-9223372036854775808", TRUE, G_MININT64 },
    { "9223372036854775808", FALSE, 0 }, { "", FALSE, 0 }, { "-", FALSE, 0 }, { "+", FALSE, 0 },
    { " 1", FALSE, 0 }, { "1 ", FALSE, 0 }, { "0x10", FALSE, 0 }, { "1e3", FALSE, 0 },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      int64_t value = 0, expected = 0;
      gboolean ok = fs_decode_int (cases[i].text, strlen (cases[i].text), G_MININT64, G_MAXINT64, &value);
      assert_int_equal (ok, cases[i].ok);
      assert_int_equal (ok, g_ascii_string_to_signed (cases[i].text, 10, G_MININT64, G_MAXINT64, &expected, NULL));
      if (ok)
        assert_int_equal (value, cases[i].value);
    }
  int64_t bounded = 0;
  assert_false (fs_decode_int ("11", 2, 0, 10, &bounded));
  assert_false (fs_decode_int ("-1", 2, 0, 10, &bounded));
  /* YAML: a plain +7 is the integer 7 (go-yaml resolves it so) */
  g_autoptr (FsSnapshot) yaml = test_load_valid_text ("kind: Pod\nmetadata:\n  name: p\n  namespace: d\n"
                                                      "spec:\n  priority: +7\n");
  assert_int_equal (yaml->pods[0].priority, 7);
#undef PRIORITY_POD
}

/* Inside subtrees nobody reads yajl is not asked for keys or scalars (decode.c, yajl_quiet),
 * but it still lexes and checks every byte there, and reading resumes after them. */
static void
test_skipped_subtrees_are_still_checked (void **state)
{
  test_expect_error ("{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"managedFields\":[{\"f\":\"\\q\"}]}}",
                     "invalid JSON", NULL);
  test_expect_error ("{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},\"spec\":{\"imagePullSecrets\":[1,]}}",
                     "invalid JSON", NULL);
  test_expect_error ("{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},\"spec\":{\"imagePullSecrets\":[{\"n\":\"\xff\"}]}}",
                     "invalid JSON", NULL);
  test_expect_error ("{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},\"spec\":{\"imagePullSecrets\":[{\"n\":tru}]}}",
                     "invalid JSON", NULL);
  /* after a skipped subtree (even one that holds escapes and nested lists) fields are read again */
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (
      "{\"kind\":\"PodList\",\"items\":[{\"metadata\":{\"name\":\"a\",\"namespace\":\"n\","
      "\"managedFields\":[{\"fieldsV1\":{\"f:spec\":{\"f:containers\":[\"k:{\\\"name\\\":\\\"c\\\"}\"]}}}],"
      "\"labels\":{\"app\":\"web\"}},\"spec\":{\"imagePullSecrets\":[[{}],[]],\"nodeName\":\"n1\","
      "\"containers\":[{\"name\":\"c\",\"env\":[{\"name\":\"X\",\"value\":\"\\u00e9\"}],"
      "\"resources\":{\"requests\":{\"cpu\":\"250m\"}}}]},\"status\":{\"phase\":\"Running\"}},"
      "{\"metadata\":{\"name\":\"b\",\"namespace\":\"n\"},\"spec\":{\"priority\":3}}]}");
  assert_int_equal (snapshot->n_pods, 2);
  assert_string_equal (snapshot->pods[0].name, "a");
  assert_string_equal (snapshot->pods[0].node_name, "n1");
  assert_string_equal (fs_labels_get (snapshot->pods[0].labels, "app"), "web");
  assert_int_equal (snapshot->pods[0].spec->request.cpu_milli, 250);
  assert_int_equal (snapshot->pods[0].phase, FS_PHASE_RUNNING);
  assert_int_equal (snapshot->pods[1].priority, 3);
}

/* Lists are as long as the input makes them: assembling one for interning must not take
 * the stack (hundreds of thousands of tolerations, labels or node terms crashed it). */
static void
test_long_lists (void **state)
{
  const guint count = 400000;
  GString *text = g_string_new ("{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"d\",\"labels\":{");
  for (guint i = 0; i < count; i++)
    g_string_append_printf (text, "%s\"k%u\":\"v\"", i > 0 ? "," : "", i);
  g_string_append (text, "}},\"spec\":{\"tolerations\":[");
  for (guint i = 0; i < count; i++)
    g_string_append_printf (text, "%s{\"key\":\"t%u\",\"operator\":\"Exists\"}", i > 0 ? "," : "", i);
  g_string_append (text, "],\"affinity\":{\"nodeAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":"
                         "{\"nodeSelectorTerms\":[");
  for (guint i = 0; i < count; i++)
    g_string_append_printf (text, "%s{}", i > 0 ? "," : "");
  g_string_append (text, "]}}},\"containers\":[{\"name\":\"c\"}]}}");
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (text->str);
  g_string_free (text, TRUE);
  assert_int_equal (snapshot->n_pods, 1);
  assert_int_equal (snapshot->pods[0].labels->n, count);
  assert_int_equal (snapshot->pods[0].spec->placement->tolerations->n, count);
  assert_int_equal (snapshot->pods[0].spec->placement->required_affinity->n, count);
}

/* A file of 16 MiB or more is read ahead on a second thread (load.c): the same snapshot as
 * from the same bytes in memory, errors early or late, and no thread or buffer left behind. */
static char *
write_temp (const char *text, gsize len)
{
  char *path = NULL;
  GError *error = NULL;
  int fd = g_file_open_tmp ("fitscale-ahead-XXXXXX.json", &path, &error);
  assert_true (fd >= 0);
  close (fd);
  assert_true (g_file_set_contents (path, text, (gssize) len, &error));
  return path;
}

static GString *
large_pod_list (guint pods)
{
  g_autofree char *filler = g_strnfill (64 * 1024, 'x');
  GString *text = g_string_new ("{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"items\":[");
  for (guint i = 0; i < pods; i++)
    g_string_append_printf (text, "%s{\"metadata\":{\"name\":\"p%05u\",\"namespace\":\"n\"},"
                            "\"spec\":{\"nodeName\":\"node-%u\",\"volumes\":[{\"name\":\"%s\"}],"
                            "\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"%um\"}}}]},"
                            "\"status\":{\"phase\":\"Running\"}}",
                            i > 0 ? "," : "", i, i % 7, filler, 100 + i);
  g_string_append (text, "]}");
  return text;
}

static void
test_read_ahead (void **state)
{
  g_autoptr (GString) text = large_pod_list (300); /* about 19.7 MB */
  assert_true (text->len > (16u << 20));
  g_autofree char *path = write_temp (text->str, text->len);
  const char *paths[] = { path, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (FsSnapshot) from_file = fs_load_snapshot (paths, &error);
  assert_non_null (from_file);
  g_autoptr (FsSnapshot) from_memory = test_load_valid_text (text->str);
  assert_int_equal (from_file->n_pods, 300);
  assert_int_equal (from_memory->n_pods, 300);
  for (guint i = 0; i < 300; i++)
    {
      assert_string_equal (from_file->pods[i].name, from_memory->pods[i].name);
      assert_string_equal (from_file->pods[i].node_name, from_memory->pods[i].node_name);
      assert_int_equal (from_file->pods[i].spec->request.cpu_milli, 100 + i);
    }
  /* an error in the first megabyte stops the load while the reader is ahead */
  g_autoptr (GString) early = large_pod_list (300);
  char *cpu = strstr (early->str, "\"cpu\":\"100m\"");
  assert_non_null (cpu);
  memcpy (cpu + 7, "1.5.", 4);
  g_autofree char *early_path = write_temp (early->str, early->len);
  g_autoptr (FsSnapshotBuilder) builder = fs_snapshot_builder_new ();
  assert_false (fs_load_path (builder, early_path, &error));
  assert_non_null (strstr (error->message, "item 0 (Pod n/p00000)"));
  assert_non_null (strstr (error->message, "1.5."));
  /* a file cut short ends in an error too */
  g_autofree char *cut_path = write_temp (text->str, text->len - 2);
  g_autoptr (FsSnapshotBuilder) cut_builder = fs_snapshot_builder_new ();
  g_clear_error (&error);
  assert_false (fs_load_path (cut_builder, cut_path, &error));
  assert_non_null (strstr (error->message, "truncated"));
  g_unlink (path);
  g_unlink (early_path);
  g_unlink (cut_path);
}

static void
test_limits (void **state)
{
  /* a string over the limit is refused while it streams in */
  gsize big = FS_DECODE_MAX_STRING + 16;
  g_autofree char *long_string = g_malloc (big + 64);
  char *end = g_stpcpy (long_string, "{\"kind\":\"");
  memset (end, 'x', big);
  strcpy (end + big, "\"}");
  g_autoptr (GError) error = NULL;
  g_autoptr (FsSnapshot) snapshot = test_load_text (long_string, &error);
  assert_null (snapshot);
  assert_int_equal (error->code, FS_ERROR_LIMIT);
  assert_non_null (strstr (error->message, "longer than"));
  /* nesting */
  GString *deep = g_string_new ("{\"kind\":\"Node\",\"metadata\":{\"name\":\"n\"},\"x\":");
  for (int i = 0; i < 1000; i++)
    g_string_append_c (deep, '[');
  g_clear_error (&error);
  g_autoptr (FsSnapshot) nested = test_load_text (deep->str, &error);
  assert_null (nested);
  assert_non_null (strstr (error->message, "nesting deeper than"));
  g_string_free (deep, TRUE);
  /* absurd quantities saturate instead of wrapping */
  g_clear_error (&error);
  g_autoptr (FsSnapshot) huge = test_load_text (NODE ("n", "99999999999999999999", "1E"), &error);
  assert_non_null (huge);
  assert_int_equal (huge->nodes[0].allocatable.cpu_milli, G_MAXINT64);
  assert_int_equal (huge->nodes[0].allocatable.memory_bytes, 1000000000000000000LL);
}

static void
test_missing_file (void **state)
{
  g_autoptr (FsSnapshotBuilder) builder = fs_snapshot_builder_new ();
  g_autoptr (GError) error = NULL;
  assert_false (fs_load_path (builder, "/nonexistent/cluster.json", &error));
  assert_int_equal (error->code, FS_ERROR_IO);
  assert_non_null (strstr (error->message, "/nonexistent/cluster.json"));
}

/* A Pod written by hand with limits only asks what the API server would have stored:
 * SetDefaults_Pod copies each limit into the missing request; a template likewise. */
static void
test_pod_limits_stand_in_for_requests (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (
      "kind: List\nitems:\n"
      "- kind: Pod\n  metadata: {name: huge, namespace: prod}\n"
      "  spec: {containers: [{name: c, resources: {limits: {cpu: '1', hugepages-2Mi: 2Gi},"
      " requests: {cpu: 250m}}}]}\n  status: {phase: Pending}\n"
      "- kind: Pod\n  metadata: {name: live, namespace: prod}\n"
      "  spec: {containers: [{name: c, resources: {limits: {cpu: '1'}, requests: {cpu: '1'}}}]}\n"
      "  status: {phase: Pending}\n");
  const FsPod *huge = fs_snapshot_find_pod (snapshot, "prod", "huge");
  assert_int_equal (huge->spec->request.cpu_milli, 250); /* a request given stays */
  assert_int_equal (fs_resources_get (&huge->spec->request, "hugepages-2Mi"), 2LL << 30);
  const FsPod *live = fs_snapshot_find_pod (snapshot, "prod", "live");
  assert_int_equal (live->spec->request.cpu_milli, 1000); /* already defaulted: unchanged */
}

/* spec.schedulingGates[].name and spec.runtimeClassName are read, for Pods and templates. */
static void
test_scheduling_gates_and_runtime_class_read (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (
      "kind: List\nitems:\n"
      "- kind: Pod\n  metadata: {name: gated, namespace: prod}\n"
      "  spec: {schedulingGates: [{name: example.com/a}, {name: example.com/b}], runtimeClassName: gvisor,"
      " containers: [{name: c}]}\n  status: {phase: Pending}\n"
      "- kind: Pod\n  metadata: {name: free, namespace: prod}\n"
      "  spec: {containers: [{name: c}]}\n  status: {phase: Pending}\n");
  const FsPodSpec *gated = fs_snapshot_find_pod (snapshot, "prod", "gated")->spec;
  assert_int_equal (gated->n_scheduling_gates, 2);
  assert_string_equal (gated->scheduling_gates[0], "example.com/a");
  assert_string_equal (gated->scheduling_gates[1], "example.com/b");
  assert_string_equal (gated->runtime_class, "gvisor");
  const FsPodSpec *free_spec = fs_snapshot_find_pod (snapshot, "prod", "free")->spec;
  assert_int_equal (free_spec->n_scheduling_gates, 0);
  assert_null (free_spec->runtime_class);
  assert_ptr_not_equal (gated, free_spec);
}

#define RUNTIME_CLASS(name, rest)                                                              \
  "- apiVersion: node.k8s.io/v1\n  kind: RuntimeClass\n  metadata: {name: " name "}\n  handler: x\n" rest
#define TEMPLATE_DEPLOYMENT(name, spec)                                                        \
  "- kind: Deployment\n  metadata: {name: " name ", namespace: prod}\n"                        \
  "  spec: {selector: {matchLabels: {app: " name "}}, template: {metadata: {labels: {app: " name "}},"\
  " spec: {" spec "containers: [{name: c, resources: {requests: {cpu: 500m}}}]}}}\n"

/* RuntimeClass admission (setOverhead, setScheduling) applied to templates at build: the
 * class's overhead joins the request, its nodeSelector and tolerations the placement; a
 * template admission refuses (an overhead of its own that is not the class's, a nodeSelector
 * conflict) keeps what it states. */
static void
test_runtime_class_applied_to_templates (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (
      "kind: List\nitems:\n"
      TEMPLATE_DEPLOYMENT ("web", "runtimeClassName: kata, ")
      RUNTIME_CLASS ("kata", "  overhead: {podFixed: {cpu: 500m, memory: 120Mi}}\n"
                     "  scheduling: {nodeSelector: {runtime: kata}, tolerations: [{key: kata, operator: Exists,"
                     " effect: NoSchedule}]}\n")
      TEMPLATE_DEPLOYMENT ("own", "runtimeClassName: kata, overhead: {cpu: 100m}, ")
      TEMPLATE_DEPLOYMENT ("clash", "runtimeClassName: kata, nodeSelector: {runtime: runc}, ")
      TEMPLATE_DEPLOYMENT ("ghost", "runtimeClassName: gone, ")
      "- kind: Node\n  metadata: {name: node-1}\n  status: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}}\n"
      "- kind: Pod\n  metadata: {name: by-hand, namespace: prod}\n"
      "  spec: {nodeName: node-1, runtimeClassName: kata, containers: [{name: c, resources: {requests: {cpu: 500m}}}]}\n"
      "  status: {phase: Running}\n");
  const FsPodSpec *web = fs_snapshot_find_workload (snapshot, "prod", "Deployment", "web")->template;
  assert_int_equal (web->request.cpu_milli, 1000);
  assert_int_equal (web->request.memory_bytes, 120LL << 20);
  assert_non_null (web->containers->overhead);
  assert_string_equal (test_label (web->placement->node_selector, "runtime"), "kata");
  assert_int_equal (web->placement->tolerations->n, 1);
  assert_string_equal (web->placement->tolerations->items[0].key, "kata");
  assert_int_equal (web->placement->tolerations->items[0].effect, FS_EFFECT_NO_SCHEDULE);
  const FsPodSpec *own = fs_snapshot_find_workload (snapshot, "prod", "Deployment", "own")->template;
  assert_int_equal (own->request.cpu_milli, 600); /* its own overhead, not the class's: refused, */
  assert_null (own->placement->node_selector);     /* so nothing of the class is applied */
  const FsPodSpec *clash = fs_snapshot_find_workload (snapshot, "prod", "Deployment", "clash")->template;
  assert_string_equal (test_label (clash->placement->node_selector, "runtime"), "runc");
  assert_null (clash->placement->tolerations);
  const FsPodSpec *ghost = fs_snapshot_find_workload (snapshot, "prod", "Deployment", "ghost")->template;
  assert_int_equal (ghost->request.cpu_milli, 500);
  assert_null (ghost->containers->overhead);
  /* a Pod written by hand gets it too, and its node counts it */
  assert_int_equal (fs_snapshot_find_pod (snapshot, "prod", "by-hand")->spec->request.cpu_milli, 1000);
  assert_int_equal (fs_snapshot_find_node (snapshot, "node-1")->requested.cpu_milli, 1000);
}

static void
test_runtime_class_bad_overhead (void **state)
{
  test_expect_error ("kind: List\nitems:\n" TEMPLATE_DEPLOYMENT ("web", "runtimeClassName: kata, ")
                     RUNTIME_CLASS ("kata", "  overhead: {podFixed: {cpu: lots}}\n"),
                     "Deployment prod/web", "RuntimeClass kata: overhead.podFixed.cpu", NULL);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_typed_lists_without_item_kind),
    cmocka_unit_test (test_mixed_list_and_unknown_kinds),
    cmocka_unit_test (test_yaml_documents),
    cmocka_unit_test (test_later_copy_wins),
    cmocka_unit_test (test_generic_tree_keeps_spec_drops_managed_fields),
    cmocka_unit_test (test_generic_items_of_a_kindless_list),
    cmocka_unit_test (test_errors_name_object_and_field),
    cmocka_unit_test (test_integer_fields),
    cmocka_unit_test (test_skipped_subtrees_are_still_checked),
    cmocka_unit_test (test_long_lists),
    cmocka_unit_test (test_read_ahead),
    cmocka_unit_test (test_limits),
    cmocka_unit_test (test_missing_file),
    cmocka_unit_test (test_pod_limits_stand_in_for_requests),
    cmocka_unit_test (test_scheduling_gates_and_runtime_class_read),
    cmocka_unit_test (test_runtime_class_applied_to_templates),
    cmocka_unit_test (test_runtime_class_bad_overhead),
  };
  return cmocka_run_group_tests_name ("decode", tests, NULL, NULL);
}
