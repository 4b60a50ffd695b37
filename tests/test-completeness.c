/* What a snapshot lacks (src/plan/completeness.c), on the real fixtures whose gaps made
 * fitscale confidently wrong: pods bound to nodes a pod list does not carry, nodes without
 * pods, the pods of one namespace. */
#include "config.h"

#include "testutil.h"
#include "fitscale/plan/completeness.h"

#define ALL_NEEDS (FS_NEEDS_NODES | FS_NEEDS_NODE_USAGE)

static const FsWarning *
warning_at (GArray *warnings, guint i)
{
  return &g_array_index (warnings, FsWarning, i);
}

static void
test_pods_without_their_nodes (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_files ("tests/fixtures/real/eks-arm64-podlist.json", NULL);
  g_autoptr (GArray) warnings = fs_snapshot_warnings (snapshot, ALL_NEEDS);
  assert_int_equal (warnings->len, 2);
  assert_int_equal (warning_at (warnings, 0)->kind, FS_WARNING_NO_NODES);
  assert_string_equal (fs_warning_reason (warning_at (warnings, 0)->kind), "NoNodes");
  const FsWarning *missing = warning_at (warnings, 1);
  assert_int_equal (missing->kind, FS_WARNING_PODS_ON_MISSING_NODES);
  /* the node names the pods are bound to, as the list carries them */
  for (guint i = 0; i < snapshot->n_pods; i++)
    if (snapshot->pods[i].node_name != NULL)
      assert_non_null (strstr (missing->text, snapshot->pods[i].node_name));
  /* a question that reads no node (hpa, hvpa) is not warned */
  g_autoptr (GArray) none = fs_snapshot_warnings (snapshot, 0);
  assert_int_equal (none->len, 0);
}

static void
test_nodes_without_pods (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_files ("tests/fixtures/real/k3s-1node-nodes.json", NULL);
  g_autoptr (GArray) warnings = fs_snapshot_warnings (snapshot, ALL_NEEDS);
  assert_int_equal (warnings->len, 1);
  assert_int_equal (warning_at (warnings, 0)->kind, FS_WARNING_NO_PODS);
  /* placement alone (the nodes) is complete */
  g_autoptr (GArray) placement = fs_snapshot_warnings (snapshot, FS_NEEDS_NODES);
  assert_int_equal (placement->len, 0);
}

static void
test_one_namespace_of_pods (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_files (
      "tests/fixtures/real/k3s-1node-nodes.json", "tests/fixtures/real/k3s-1node-pods-default-pending.json", NULL);
  g_autoptr (GArray) warnings = fs_snapshot_warnings (snapshot, ALL_NEEDS);
  assert_int_equal (warnings->len, 1);
  const FsWarning *warning = warning_at (warnings, 0);
  assert_int_equal (warning->kind, FS_WARNING_NAMESPACES_MISSING);
  assert_non_null (strstr (warning->text, "1 namespace (default)"));
  assert_non_null (strstr (warning->text, "kubectl get pods -A"));
}

static void
test_whole_cluster_is_not_warned (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_files (
      "tests/fixtures/real/k3s-1node-nodes.json", "tests/fixtures/real/k3s-1node-pods-default-pending.json",
      "tests/fixtures/real/k3s-1node-pods-kube-system.json", NULL);
  g_autoptr (GArray) warnings = fs_snapshot_warnings (snapshot, ALL_NEEDS);
  assert_int_equal (warnings->len, 0);
}

static void
test_many_missing_nodes_are_counted (void **state)
{
  GString *text = g_string_new ("{\"kind\":\"List\",\"items\":[");
  for (guint i = 0; i < 5; i++)
    g_string_append_printf (text, "%s{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p%u\",\"namespace\":\"kube-system\"},"
                                  "\"spec\":{\"nodeName\":\"n%u\",\"containers\":[]},\"status\":{\"phase\":\"Running\"}}",
                            i == 0 ? "" : ",", i, i);
  g_string_append (text, "]}");
  g_autofree char *json = g_string_free (text, FALSE);
  g_autoptr (FsSnapshot) snapshot = test_load_valid_text (json);
  g_autoptr (GArray) warnings = fs_snapshot_warnings (snapshot, FS_NEEDS_NODE_USAGE);
  assert_int_equal (warnings->len, 1);
  assert_string_equal (warning_at (warnings, 0)->text,
                       "5 pods are bound to 5 nodes the snapshot does not hold (n0, n1, n2 and 2 more): "
                       "those nodes are left out of every answer; add them (kubectl get nodes -o json)");
}

/* A Pending pod with a claim in a snapshot without claims: the volume filters cannot judge
 * it; with the claims read (tests/data/volumes.yaml) nothing is warned of them. */
static void
test_claims_missing (void **state)
{
  g_autoptr (FsSnapshot) snapshot = test_load_files ("tests/data/volumes-no-claims.yaml", NULL);
  g_autoptr (GArray) warnings = fs_snapshot_warnings (snapshot, ALL_NEEDS);
  assert_int_equal (warnings->len, 1);
  assert_int_equal (warning_at (warnings, 0)->kind, FS_WARNING_CLAIMS_MISSING);
  assert_string_equal (fs_warning_reason (FS_WARNING_CLAIMS_MISSING), "ClaimsMissing");
  assert_non_null (strstr (warning_at (warnings, 0)->text, "default/db"));
  g_autoptr (FsSnapshot) with_claims = test_load_files ("tests/data/volumes.yaml", NULL);
  g_autoptr (GArray) others = fs_snapshot_warnings (with_claims, ALL_NEEDS);
  for (guint i = 0; i < others->len; i++)
    assert_int_not_equal (warning_at (others, i)->kind, FS_WARNING_CLAIMS_MISSING);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_pods_without_their_nodes),
    cmocka_unit_test (test_claims_missing),
    cmocka_unit_test (test_nodes_without_pods),
    cmocka_unit_test (test_one_namespace_of_pods),
    cmocka_unit_test (test_whole_cluster_is_not_warned),
    cmocka_unit_test (test_many_missing_nodes_are_counted),
  };
  return cmocka_run_group_tests (tests, NULL, NULL);
}
