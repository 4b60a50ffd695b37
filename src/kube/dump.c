/* fitscale — the live cluster listed whole, for `fitscale snapshot` (fitscale/kube/dump.h). */
#include "config.h"

#include <string.h>
#include <yajl/yajl_tree.h>

#include "fitscale/kube/dump.h"
#include "fitscale/model/error.h"

#define DUMP_PAGE_LIMIT 500
#define DUMP_MAX_PAGES 100000
#define DUMP_MAX_ATTEMPTS 3
#define DUMP_MAX_PAGE_BYTES (1u << 30)

struct FsDump {
  char *version;
  GPtrArray *pages; /* yajl_val of every list page, in listing order */
};

/* A body being received. */
typedef struct {
  GString *body;
} Body;

static gboolean
collect_body (const char *data, gsize len, gpointer user_data, GError **error)
{
  Body *body = user_data;
  if (body->body->len + len > DUMP_MAX_PAGE_BYTES)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_LIMIT, "a list page of more than 1 GiB");
      return FALSE;
    }
  g_string_append_len (body->body, data, (gssize) len);
  return TRUE;
}

static const char *
tree_string (yajl_val root, const char *first, const char *second)
{
  const char *path[] = { first, second, NULL };
  yajl_val value = yajl_tree_get (root, path, yajl_t_string);
  return value != NULL ? YAJL_GET_STRING (value) : NULL;
}

static void
pages_clear (GPtrArray *pages, guint from)
{
  for (guint i = from; i < pages->len; i++)
    yajl_tree_free (pages->pdata[i]);
  g_ptr_array_set_size (pages, from);
}

typedef enum { LISTED, ABSENT, FORBIDDEN, EXPIRED, FAILED } Outcome;

/* Lists PATH (with SELECTOR) page by page, appending the pages to PAGES. */
static Outcome
list_all (FsKubeClient *client, const char *path, const char *selector, GPtrArray *pages, GError **error)
{
  g_autofree char *token = NULL;
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  Body body = { g_string_new (NULL) };
  Outcome outcome = LISTED;
  guint n_pages = 0;
  do
    {
      if (token != NULL && (!g_hash_table_add (seen, g_strdup (token)) || n_pages >= DUMP_MAX_PAGES))
        {
          g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "%s: the list would never end (after %u pages)", path,
                       n_pages);
          outcome = FAILED;
          break;
        }
      g_autofree char *escaped_token = token != NULL ? g_uri_escape_string (token, NULL, FALSE) : NULL;
      g_autofree char *escaped_selector = selector != NULL ? g_uri_escape_string (selector, "=!,", FALSE) : NULL;
      g_autofree char *request = g_strdup_printf ("%s?limit=%d%s%s%s%s", path, DUMP_PAGE_LIMIT,
                                                  selector != NULL ? "&fieldSelector=" : "",
                                                  selector != NULL ? escaped_selector : "",
                                                  token != NULL ? "&continue=" : "", token != NULL ? escaped_token : "");
      g_string_truncate (body.body, 0);
      long status = 0;
      if (!fs_kube_client_get (client, request, collect_body, &body, &status, error))
        {
          outcome = status == 404 ? ABSENT : status == 403 ? FORBIDDEN : status == 410 ? EXPIRED : FAILED;
          break;
        }
      char message[256] = "";
      yajl_val page = yajl_tree_parse (body.body->str, message, sizeof message);
      if (page == NULL || !YAJL_IS_OBJECT (page))
        {
          g_strchomp (message);
          g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "%s: the answer is no JSON list: %s", request,
                       page == NULL ? message : "not an object");
          if (page != NULL)
            yajl_tree_free (page);
          outcome = FAILED;
          break;
        }
      g_ptr_array_add (pages, page);
      n_pages++;
      g_clear_pointer (&token, g_free);
      const char *next = tree_string (page, "metadata", "continue");
      if (next != NULL && *next != '\0')
        token = g_strdup (next);
    }
  while (token != NULL);
  g_string_free (body.body, TRUE);
  return outcome;
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

/* The server's version (GET /version: gitVersion; "" when it does not say), or NULL. */
static char *
server_version (FsKubeClient *client, GError **error)
{
  Body body = { g_string_new (NULL) };
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

void
fs_dump_free (FsDump *dump)
{
  if (dump == NULL)
    return;
  pages_clear (dump->pages, 0);
  g_ptr_array_unref (dump->pages);
  g_free (dump->version);
  g_free (dump);
}

FsDump *
fs_kube_dump (FsKubeClient *client, const char *namespace, GPtrArray *skipped, GError **error)
{
  g_autoptr (FsDump) dump = g_new0 (FsDump, 1);
  dump->pages = g_ptr_array_new ();
  dump->version = server_version (client, error);
  if (dump->version == NULL)
    return NULL;
  guint n_listings;
  const FsKubeListing *listings = fs_kube_listings (&n_listings);
  for (guint i = 0; i < n_listings; i++)
    {
      const FsKubeListing *listing = &listings[i];
      g_autofree char *path = listing_path (listing, namespace);
      guint from = dump->pages->len;
      Outcome outcome = FAILED;
      GError *local_error = NULL;
      for (guint attempt = 0; attempt < DUMP_MAX_ATTEMPTS; attempt++)
        {
          g_clear_error (&local_error);
          pages_clear (dump->pages, from);
          outcome = list_all (client, path, listing->field_selector, dump->pages, &local_error);
          if (outcome != EXPIRED)
            break; /* else a continue token expired (410): the listing starts again */
        }
      if ((outcome == ABSENT || outcome == FORBIDDEN) && listing->optional)
        {
          g_clear_error (&local_error);
          pages_clear (dump->pages, from);
          if (skipped != NULL)
            {
              g_autofree char *entry = g_strconcat (outcome == FORBIDDEN ? FS_KUBE_FORBIDDEN_PREFIX : "",
                                                    listing->name, NULL);
              g_ptr_array_add (skipped, (gpointer) g_intern_string (entry));
            }
          continue;
        }
      if (outcome != LISTED)
        {
          g_propagate_error (error, local_error);
          return NULL;
        }
    }
  return g_steal_pointer (&dump);
}

const char *
fs_dump_server_version (const FsDump *dump)
{
  return dump->version;
}

/* VALUE as it is; DEPTH 1 marks an item's metadata, 2 its annotations (-1 elsewhere), where
 * managedFields and the last-applied annotation are left out. */
static void
write_value (const FsDumpSink *sink, gpointer data, yajl_val value, int depth)
{
  if (YAJL_IS_STRING (value))
    sink->string (data, YAJL_GET_STRING (value));
  else if (YAJL_IS_NUMBER (value))
    sink->number (data, value->u.number.r);
  else if (YAJL_IS_TRUE (value) || YAJL_IS_FALSE (value))
    sink->boolean (data, YAJL_IS_TRUE (value));
  else if (YAJL_IS_ARRAY (value))
    {
      sink->list_open (data);
      for (size_t i = 0; i < value->u.array.len; i++)
        write_value (sink, data, value->u.array.values[i], -1);
      sink->list_close (data);
    }
  else if (YAJL_IS_OBJECT (value))
    {
      sink->map_open (data);
      for (size_t i = 0; i < value->u.object.len; i++)
        {
          const char *key = value->u.object.keys[i];
          if (depth == 1 && strcmp (key, "managedFields") == 0)
            continue;
          if (depth == 2 && strcmp (key, "kubectl.kubernetes.io/last-applied-configuration") == 0)
            continue;
          gboolean deeper = depth == 1 && strcmp (key, "annotations") == 0;
          sink->key (data, key);
          write_value (sink, data, value->u.object.values[i], deeper ? 2 : -1);
        }
      sink->map_close (data);
    }
  else
    sink->null (data);
}

/* One item of a list page: apiVersion and kind first (the list's when the item has none). */
static void
write_item (const FsDumpSink *sink, gpointer data, yajl_val item, const char *kind, const char *api_version)
{
  if (!YAJL_IS_OBJECT (item))
    return;
  const char *own_kind = tree_string (item, "kind", NULL);
  const char *own_version = tree_string (item, "apiVersion", NULL);
  sink->map_open (data);
  sink->key (data, "apiVersion");
  sink->string (data, own_version != NULL ? own_version : api_version != NULL ? api_version : "");
  sink->key (data, "kind");
  sink->string (data, own_kind != NULL ? own_kind : kind != NULL ? kind : "");
  for (size_t i = 0; i < item->u.object.len; i++)
    {
      const char *key = item->u.object.keys[i];
      if (strcmp (key, "kind") == 0 || strcmp (key, "apiVersion") == 0)
        continue;
      sink->key (data, key);
      write_value (sink, data, item->u.object.values[i], strcmp (key, "metadata") == 0 ? 1 : -1);
    }
  sink->map_close (data);
}

void
fs_dump_write_items (const FsDump *dump, const FsDumpSink *sink, gpointer data)
{
  for (guint p = 0; p < dump->pages->len; p++)
    {
      yajl_val page = dump->pages->pdata[p];
      const char *list_kind = tree_string (page, "kind", NULL);
      const char *api_version = tree_string (page, "apiVersion", NULL);
      /* "PodList" -> "Pod" */
      g_autofree char *kind = list_kind != NULL && g_str_has_suffix (list_kind, "List")
                                  ? g_strndup (list_kind, strlen (list_kind) - 4) : NULL;
      const char *path[] = { "items", NULL };
      yajl_val items = yajl_tree_get (page, path, yajl_t_array);
      for (size_t i = 0; items != NULL && i < items->u.array.len; i++)
        write_item (sink, data, items->u.array.values[i], kind, api_version);
    }
}
