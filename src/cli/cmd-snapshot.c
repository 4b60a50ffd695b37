/* fitscale snapshot — the live cluster, as every command reads it, written as one `List`
 * that --snapshot reads back: the listings of kube/client.h (fs_kube_listings, the same
 * paths and field selectors the live commands list), each item with its kind and
 * apiVersion (the API leaves them out of a list's items), minus metadata.managedFields and
 * the last-applied-configuration annotation.  Secrets are never listed.  The List's
 * annotations record the API server's version, the time and the namespace it was taken of
 * (kube/decode.h FS_SNAPSHOT_*_ANNOTATION). */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <yajl/yajl_tree.h>

#include "commands.h"
#include "fitscale/kube/client.h"
#include "fitscale/kube/decode.h"
#include "fitscale/model/error.h"
#include "fitscale/model/timeutil.h"
#include "fitscale/plan/completeness.h"

#define SNAPSHOT_PAGE_LIMIT 500
#define SNAPSHOT_MAX_PAGES 100000
#define SNAPSHOT_MAX_ATTEMPTS 3

const FsCliCommand fs_cli_snapshot = {
  .name = "snapshot",
  .parameters = "",
  .summary = "write the live cluster, all that every command reads, as one List",
  .description =
      "Lists from the live cluster (kubeconfig and connection flags as kubectl's)\n"
      "everything the other commands read: nodes, namespaces, pods (without Succeeded\n"
      "and Failed ones), Deployments, StatefulSets, ReplicaSets, HPAs, VPAs, Hvpas,\n"
      "PodMetrics, FailedScheduling events, PersistentVolumeClaims, PersistentVolumes,\n"
      "StorageClasses, CSINodes and PodDisruptionBudgets; and writes them as one List\n"
      "on standard output, with the API server's version and the time in its\n"
      "annotations, without metadata.managedFields, never a Secret.  --snapshot reads it\n"
      "back: every command answers from it as it does live.  APIs the cluster does not\n"
      "serve (VPA, Hvpa, metrics-server, PDBs) are left out with a warning.",
  .epilogue =
      "Examples:\n"
      "  fitscale snapshot > cluster.json\n"
      "  fitscale snapshot --context prod -o yaml > cluster.yaml\n"
      "  fitscale plan -S cluster.json deployment/web -n production\n"
      "The same with kubectl (leave out vpa, hvpas and pods.metrics.k8s.io where the\n"
      "cluster does not serve them):\n"
      "  kubectl get nodes,namespaces,pods,deployments,statefulsets,replicasets,hpa,vpa,hvpas,\\\n"
      "    pods.metrics.k8s.io,events,pvc,pv,storageclasses,csinodes,pdb -A -o json > cluster.json\n"
      "-n NS lists the namespaced kinds of NS only (readers then warn that the pods of other\n"
      "namespaces are missing); -A, all namespaces, is the default: the live commands list\n"
      "them all.\n"
      "Exit status: 0 written, 2 bad usage or a listing failed.",
  .run = fs_cmd_snapshot,
};

/* A list's items, page by page (yajl trees), until the listing is whole. */
typedef struct {
  GPtrArray *pages;      /* yajl_val, freed with yajl_tree_free */
  GString *body;
} Listing;

static gboolean
collect_body (const char *data, gsize len, gpointer user_data, GError **error)
{
  Listing *listing = user_data;
  if (listing->body->len + len > (1u << 30))
    {
      g_set_error (error, FS_ERROR, FS_ERROR_LIMIT, "a list page of more than 1 GiB");
      return FALSE;
    }
  g_string_append_len (listing->body, data, (gssize) len);
  return TRUE;
}

static const char *
tree_string (yajl_val root, const char *first, const char *second)
{
  const char *path[] = { first, second, NULL };
  yajl_val value = yajl_tree_get (root, path, yajl_t_string);
  return value != NULL ? YAJL_GET_STRING (value) : NULL;
}

typedef enum { LISTED, ABSENT, FORBIDDEN, EXPIRED, FAILED } Outcome;

/* Lists PATH (with SELECTOR) page by page into LISTING's pages. */
static Outcome
list_all (FsKubeClient *client, const char *path, const char *selector, Listing *listing, GError **error)
{
  g_autofree char *token = NULL;
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  do
    {
      if (token != NULL && (!g_hash_table_add (seen, g_strdup (token)) || listing->pages->len >= SNAPSHOT_MAX_PAGES))
        {
          g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "%s: the list would never end (after %u pages)", path,
                       listing->pages->len);
          return FAILED;
        }
      g_autofree char *escaped_token = token != NULL ? g_uri_escape_string (token, NULL, FALSE) : NULL;
      g_autofree char *escaped_selector = selector != NULL ? g_uri_escape_string (selector, "=!,", FALSE) : NULL;
      g_autofree char *request = g_strdup_printf ("%s?limit=%d%s%s%s%s", path, SNAPSHOT_PAGE_LIMIT,
                                                  selector != NULL ? "&fieldSelector=" : "",
                                                  selector != NULL ? escaped_selector : "",
                                                  token != NULL ? "&continue=" : "", token != NULL ? escaped_token : "");
      g_string_truncate (listing->body, 0);
      long status = 0;
      GError *local_error = NULL;
      if (!fs_kube_client_get (client, request, collect_body, listing, &status, &local_error))
        {
          g_propagate_error (error, local_error);
          return status == 404 ? ABSENT : status == 403 ? FORBIDDEN : status == 410 ? EXPIRED : FAILED;
        }
      char message[256] = "";
      yajl_val page = yajl_tree_parse (listing->body->str, message, sizeof message);
      if (page == NULL || !YAJL_IS_OBJECT (page))
        {
          g_strchomp (message);
          g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "%s: the answer is no JSON list: %s", request,
                       page == NULL ? message : "not an object");
          if (page != NULL)
            yajl_tree_free (page);
          return FAILED;
        }
      g_ptr_array_add (listing->pages, page);
      g_clear_pointer (&token, g_free);
      const char *next = tree_string (page, "metadata", "continue");
      if (next != NULL && *next != '\0')
        token = g_strdup (next);
    }
  while (token != NULL);
  return LISTED;
}

/* VALUE as it is, minus metadata.managedFields and the last-applied annotation when it is an
 * object's metadata (AT_METADATA). */
static void
emit_value (FsEmitter *out, yajl_val value, int depth)
{
  if (YAJL_IS_STRING (value))
    fs_emit_string (out, YAJL_GET_STRING (value));
  else if (YAJL_IS_NUMBER (value))
    fs_emit_number (out, value->u.number.r);
  else if (YAJL_IS_TRUE (value) || YAJL_IS_FALSE (value))
    fs_emit_bool (out, YAJL_IS_TRUE (value));
  else if (YAJL_IS_ARRAY (value))
    {
      fs_emit_list_open (out);
      for (size_t i = 0; i < value->u.array.len; i++)
        emit_value (out, value->u.array.values[i], -1);
      fs_emit_list_close (out);
    }
  else if (YAJL_IS_OBJECT (value))
    {
      fs_emit_map_open (out);
      for (size_t i = 0; i < value->u.object.len; i++)
        {
          const char *key = value->u.object.keys[i];
          yajl_val child = value->u.object.values[i];
          /* depth 0: the item; 1: its metadata; 2: its annotations */
          if (depth == 1 && strcmp (key, "managedFields") == 0)
            continue;
          if (depth == 2 && strcmp (key, "kubectl.kubernetes.io/last-applied-configuration") == 0)
            continue;
          gboolean next = (depth == 0 && strcmp (key, "metadata") == 0)
                          || (depth == 1 && strcmp (key, "annotations") == 0);
          fs_emit_key (out, key);
          emit_value (out, child, next ? depth + 1 : -1);
        }
      fs_emit_map_close (out);
    }
  else
    fs_emit_null (out);
}

/* One item of a list page: kind and apiVersion first (from the list when the item has none). */
static void
emit_item (FsEmitter *out, yajl_val item, const char *kind, const char *api_version)
{
  if (!YAJL_IS_OBJECT (item))
    return;
  const char *own_kind = tree_string (item, "kind", NULL);
  const char *own_version = tree_string (item, "apiVersion", NULL);
  fs_emit_map_open (out);
  fs_emit_key (out, "apiVersion");
  fs_emit_string (out, own_version != NULL ? own_version : api_version);
  fs_emit_key (out, "kind");
  fs_emit_string (out, own_kind != NULL ? own_kind : kind);
  for (size_t i = 0; i < item->u.object.len; i++)
    {
      const char *key = item->u.object.keys[i];
      if (strcmp (key, "kind") == 0 || strcmp (key, "apiVersion") == 0)
        continue;
      fs_emit_key (out, key);
      emit_value (out, item->u.object.values[i], strcmp (key, "metadata") == 0 ? 1 : -1);
    }
  fs_emit_map_close (out);
}

static void
emit_pages (FsEmitter *out, GPtrArray *pages)
{
  for (guint p = 0; p < pages->len; p++)
    {
      yajl_val page = pages->pdata[p];
      const char *list_kind = tree_string (page, "kind", NULL);
      const char *api_version = tree_string (page, "apiVersion", NULL);
      g_autofree char *kind = list_kind != NULL && g_str_has_suffix (list_kind, "List")
                                  ? g_strndup (list_kind, strlen (list_kind) - 4) : NULL;
      const char *path[] = { "items", NULL };
      yajl_val items = yajl_tree_get (page, path, yajl_t_array);
      for (size_t i = 0; items != NULL && i < items->u.array.len; i++)
        emit_item (out, items->u.array.values[i], kind, api_version);
    }
}

/* LISTING's path, in namespace NS when it is namespaced and NS is not NULL. */
static char *
listing_path (const FsKubeListing *listing, const char *ns)
{
  if (ns == NULL || !listing->namespaced)
    return g_strdup (listing->path);
  const char *slash = strrchr (listing->path, '/');
  g_autofree char *escaped = g_uri_escape_string (ns, NULL, FALSE);
  return g_strdup_printf ("%.*s/namespaces/%s%s", (int) (slash - listing->path), listing->path, escaped, slash);
}

static void
pages_clear (GPtrArray *pages)
{
  for (guint i = 0; i < pages->len; i++)
    yajl_tree_free (pages->pdata[i]);
  g_ptr_array_set_size (pages, 0);
}

/* The server's version (GET /version: gitVersion), or NULL. */
static char *
server_version (FsKubeClient *client, GError **error)
{
  Listing body = { NULL, g_string_new (NULL) };
  long status = 0;
  char *version = NULL;
  if (fs_kube_client_get (client, "/version", collect_body, &body, &status, error))
    {
      yajl_val root = yajl_tree_parse (body.body->str, NULL, 0);
      const char *text = root != NULL ? tree_string (root, "gitVersion", NULL) : NULL;
      version = g_strdup (text != NULL ? text : "");
      if (root != NULL)
        yajl_tree_free (root);
    }
  g_string_free (body.body, TRUE);
  return version;
}

int
fs_cmd_snapshot (int argc, char **argv)
{
  FsCommonOptions options = { 0 };
  g_autofree char *namespace = NULL;
  gboolean all_namespaces = FALSE;
  GOptionEntry entries[] = {
    { "namespace", 'n', 0, G_OPTION_ARG_STRING, &namespace,
      "Only this namespace's namespaced objects (pods, workloads, autoscalers, ...); cluster-scoped "
      "ones (nodes, PersistentVolumes, ...) whole", "NS" },
    { "all-namespaces", 'A', 0, G_OPTION_ARG_NONE, &all_namespaces, "Every namespace (the default)", NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) context = fs_cli_context_new (&fs_cli_snapshot, entries, &options, FS_CLI_LIVE_ONLY);
  g_autoptr (GError) error = NULL;
  int status = FS_EXIT_ERROR;
  FsOutputFormat format = FS_OUTPUT_JSON;
  if (!g_option_context_parse (context, &argc, &argv, &error))
    goto out;
  if (argc > 1)
    {
      fs_cli_usage (&error, "snapshot takes no arguments (\"%s\")", argv[1]);
      goto out;
    }
  if (namespace != NULL && all_namespaces)
    {
      fs_cli_usage (&error, "-n and -A: give one of them");
      goto out;
    }
  if (namespace != NULL && *namespace == '\0')
    {
      fs_cli_usage (&error, "-n: the namespace is empty");
      goto out;
    }
  if (options.output != NULL && !fs_output_parse (options.output, &format, &error))
    goto out;
  if (format != FS_OUTPUT_JSON && format != FS_OUTPUT_YAML)
    {
      fs_cli_usage (&error, "-o %s: a snapshot is written as json or yaml", options.output);
      goto out;
    }
  {
    FsRestConfig *config = fs_rest_config_load (&options.connection, &error);
    if (config == NULL)
      goto out;
    g_autoptr (FsKubeClient) client = fs_kube_client_new (config, &error);
    if (client == NULL)
      goto out;
    g_autofree char *version = server_version (client, &error);
    if (version == NULL)
      goto out;
    guint n_listings;
    const FsKubeListing *listings = fs_kube_listings (&n_listings);
    g_autoptr (GPtrArray) skipped = g_ptr_array_new ();
    /* every listing is read whole before anything is written: an error leaves no half List */
    g_autoptr (GPtrArray) all_pages = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
    for (guint i = 0; i < n_listings; i++)
      {
        const FsKubeListing *listing = &listings[i];
        g_autofree char *path = listing_path (listing, namespace);
        Listing pages = { g_ptr_array_new (), g_string_new (NULL) };
        Outcome outcome = FAILED;
        for (guint attempt = 0; attempt < SNAPSHOT_MAX_ATTEMPTS; attempt++)
          {
            g_clear_error (&error);
            pages_clear (pages.pages);
            outcome = list_all (client, path, listing->field_selector, &pages, &error);
            if (outcome != EXPIRED)
              break; /* else a continue token expired (410): the listing starts again */
          }
        g_string_free (pages.body, TRUE);
        if ((outcome == ABSENT || outcome == FORBIDDEN) && listing->optional)
          {
            g_clear_error (&error);
            pages_clear (pages.pages);
            g_ptr_array_unref (pages.pages);
            g_autofree char *entry = g_strconcat (outcome == FORBIDDEN ? FS_KUBE_FORBIDDEN_PREFIX : "",
                                                  listing->name, NULL);
            g_ptr_array_add (skipped, (gpointer) g_intern_string (entry));
            continue;
          }
        if (outcome != LISTED)
          {
            pages_clear (pages.pages);
            g_ptr_array_unref (pages.pages);
            goto out;
          }
        g_ptr_array_add (all_pages, pages.pages);
      }
    fs_cli_warn ("snapshot", &options, fs_listing_warnings (skipped));
    char now[32];
    fs_time_format (g_get_real_time () / G_USEC_PER_SEC, now);
    {
      g_autoptr (FsEmitter) out = fs_emitter_new (format, stdout);
      fs_emit_map_open (out);
      fs_emit_key (out, "apiVersion");
      fs_emit_string (out, "v1");
      fs_emit_key (out, "kind");
      fs_emit_string (out, "List");
      fs_emit_key (out, "metadata");
      fs_emit_map_open (out);
      fs_emit_key (out, "annotations");
      fs_emit_map_open (out);
      fs_emit_key (out, FS_SNAPSHOT_SCOPE_ANNOTATION);
      fs_emit_string (out, namespace != NULL ? namespace : "");
      fs_emit_key (out, FS_SNAPSHOT_VERSION_ANNOTATION);
      fs_emit_string (out, version);
      fs_emit_key (out, FS_SNAPSHOT_TIME_ANNOTATION);
      fs_emit_string (out, now);
      fs_emit_map_close (out);
      fs_emit_map_close (out);
      fs_emit_key (out, "items");
      fs_emit_list_open (out);
      for (guint i = 0; i < all_pages->len; i++)
        emit_pages (out, all_pages->pdata[i]);
      fs_emit_list_close (out);
      fs_emit_map_close (out);
    }
    for (guint i = 0; i < all_pages->len; i++)
      pages_clear (all_pages->pdata[i]);
    status = fflush (stdout) == 0 && !ferror (stdout) ? FS_EXIT_OK : FS_EXIT_ERROR;
    if (status != FS_EXIT_OK)
      g_set_error (&error, FS_ERROR, FS_ERROR_IO, "cannot write the snapshot to standard output");
  }
out:
  if (status != FS_EXIT_OK && error != NULL)
    fs_cli_fail ("snapshot", error);
  fs_cli_common_clear (&options);
  return status;
}
