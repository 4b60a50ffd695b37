/* fitscale — what a snapshot lacks for an answer (see include/fitscale/plan/completeness.h). */
#include "config.h"

#include <string.h>

#include "fitscale/plan/completeness.h"

/* Node agents (kube-proxy, the CNI, static control-plane pods) run in kube-system on every
 * distribution fitscale has seen: a snapshot of pods with none there was listed namespace by
 * namespace (kubectl get pods -n NS) and lacks what the other namespaces reserve. */
#define SYSTEM_NAMESPACE "kube-system"
#define NAMED_AT_MOST 3

static void
warning_free (gpointer data)
{
  g_free (((FsWarning *) data)->text);
}

static void
add (GArray *warnings, FsWarningKind kind, char *text)
{
  FsWarning warning = { kind, text };
  g_array_append_val (warnings, warning);
}

/* "a, b, c and 2 more" of the first NAMED_AT_MOST names. */
static char *
some_names (GPtrArray *names)
{
  g_autoptr (GString) text = g_string_new (NULL);
  for (guint i = 0; i < names->len && i < NAMED_AT_MOST; i++)
    g_string_append_printf (text, "%s%s", i == 0 ? "" : ", ", (const char *) names->pdata[i]);
  if (names->len > NAMED_AT_MOST)
    g_string_append_printf (text, " and %u more", names->len - NAMED_AT_MOST);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
check_missing_nodes (const FsSnapshot *snapshot, GArray *warnings)
{
  g_autoptr (GPtrArray) nodes = g_ptr_array_new ();
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  guint pods = 0;
  for (guint i = 0; i < snapshot->n_pods; i++)
    {
      const FsPod *pod = &snapshot->pods[i];
      if (pod->node_name == NULL || pod->node_index >= 0)
        continue;
      pods++;
      if (g_hash_table_add (seen, (gpointer) pod->node_name))
        g_ptr_array_add (nodes, (gpointer) pod->node_name);
    }
  if (pods == 0)
    return;
  g_autofree char *names = some_names (nodes);
  add (warnings, FS_WARNING_PODS_ON_MISSING_NODES,
       g_strdup_printf ("%u pod%s bound to %u node%s the snapshot does not hold (%s): those nodes are "
                        "left out of every answer; add them (kubectl get nodes -o json)",
                        pods, pods == 1 ? " is" : "s are", nodes->len, nodes->len == 1 ? "" : "s", names));
}

static void
check_namespaces (const FsSnapshot *snapshot, GArray *warnings)
{
  if (snapshot->n_nodes == 0)
    return;
  if (snapshot->n_pods == 0)
    {
      add (warnings, FS_WARNING_NO_PODS,
           g_strdup ("the snapshot holds nodes but no pods: what running pods reserve is not counted, "
                     "so every node looks empty; add them (kubectl get pods -A -o json)"));
      return;
    }
  g_autoptr (GPtrArray) namespaces = g_ptr_array_new ();
  for (guint i = 0; i < snapshot->n_pods; i++)
    {
      const char *ns = snapshot->pods[i].namespace;
      if (g_strcmp0 (ns, SYSTEM_NAMESPACE) == 0)
        return;
      /* pods are sorted by namespace: a new one differs from the last seen */
      if (namespaces->len == 0 || g_strcmp0 (namespaces->pdata[namespaces->len - 1], ns) != 0)
        g_ptr_array_add (namespaces, (gpointer) ns);
    }
  g_autofree char *names = some_names (namespaces);
  add (warnings, FS_WARNING_NAMESPACES_MISSING,
       g_strdup_printf ("the snapshot holds the pods of %u namespace%s (%s) and none of " SYSTEM_NAMESPACE
                        ": pods of the namespaces it lacks still reserve room on the nodes; "
                        "give all of them (kubectl get pods -A -o json)",
                        namespaces->len, namespaces->len == 1 ? "" : "s", names));
}

GArray *
fs_snapshot_warnings (const FsSnapshot *snapshot, guint needs)
{
  GArray *warnings = g_array_new (FALSE, TRUE, sizeof (FsWarning));
  g_array_set_clear_func (warnings, warning_free);
  if ((needs & FS_NEEDS_NODES) && snapshot->n_nodes == 0)
    add (warnings, FS_WARNING_NO_NODES,
         g_strdup ("the snapshot holds no nodes: nothing can be placed; add them (kubectl get nodes -o json)"));
  if (needs & (FS_NEEDS_NODES | FS_NEEDS_NODE_USAGE))
    check_missing_nodes (snapshot, warnings);
  if (needs & FS_NEEDS_NODE_USAGE)
    check_namespaces (snapshot, warnings);
  return warnings;
}

/* pkg/scheduler/framework/plugins/dynamicresources (names.DynamicResources): PreFilter and
 * Filter allocate the pod's ResourceClaims from ResourceSlices; fitscale reads neither. */
#define DYNAMIC_RESOURCES "DynamicResources"

void
fs_pod_spec_unmodelled_filters (const FsPodSpec *spec, GPtrArray *out)
{
  if (spec != NULL && spec->n_resource_claims > 0)
    g_ptr_array_add (out, (gpointer) DYNAMIC_RESOURCES);
}

void
fs_pod_spec_warnings (const FsPodSpec *spec, const char *name, GArray *warnings)
{
  if (spec == NULL || spec->n_resource_claims == 0)
    return;
  guint claims = spec->n_resource_claims;
  add (warnings, FS_WARNING_UNMODELLED_FILTER,
       g_strdup_printf ("%s has %u resource claim%s (dynamic resource allocation) in its pod spec: "
                        "fitscale does not model the " DYNAMIC_RESOURCES " filter, so this answer leaves "
                        "out whether %s be allocated on a node (docs/filters.md)",
                        name, claims, claims == 1 ? "" : "s", claims == 1 ? "it can" : "they can"));
}

const char *
fs_warning_reason (FsWarningKind kind)
{
  static const char *const reasons[] = {
    [FS_WARNING_NO_NODES] = "NoNodes",
    [FS_WARNING_PODS_ON_MISSING_NODES] = "PodsOnMissingNodes",
    [FS_WARNING_NO_PODS] = "NoPods",
    [FS_WARNING_NAMESPACES_MISSING] = "NamespacesMissing",
    [FS_WARNING_UNMODELLED_FILTER] = "UnmodelledFilter",
  };
  return (gsize) kind < G_N_ELEMENTS (reasons) ? reasons[kind] : "Unknown";
}
