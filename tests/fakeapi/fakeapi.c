/* fakeapi — a small Kubernetes API server for fitscale's tests (libmicrohttpd).
 *
 *   fakeapi [--port N] [--port-file FILE] [--tls-cert PEM --tls-key PEM] [--token T]
 *           [--client-ca PEM] [--fault SPEC]... [--watch-events FILE] [--log FILE]
 *           [--bookmark-ms MS] [--history N] [--page-limit N] FILE.json...
 *
 * Serves the objects of the given JSON files (single objects, typed lists, v1 Lists) as the
 * API server would: discovery (/version, /api, /apis, each group version's resource list),
 * list and get for nodes, pods, namespaces, events, deployments, statefulsets, replicasets,
 * HPAs, VPAs, Hvpas, PodMetrics, PVCs, PVs, StorageClasses, CSINodes and PodDisruptionBudgets,
 * cluster-wide and per namespace, paged with limit and continue, filtered by fieldSelector
 * (=, ==, != on metadata.name, metadata.namespace, spec.nodeName, status.phase, reason) and
 * labelSelector (key=value, key!=value, key).
 * Writes: POST (create), PUT (replace), PATCH (a JSON merge patch; what kubectl cordon
 * sends) and DELETE, each bumping the resourceVersion and logging a watch event (the last
 * --history, default 100,000).  ?watch=1 streams the events after resourceVersion as they
 * happen, as the API server's watch cache does (an object leaving the fieldSelector is
 * DELETED), a BOOKMARK after --bookmark-ms (default 1000; 0: never) without one, until
 * timeoutSeconds; a version older than the history kept gets an ERROR event 410.  A
 * resource's first watch starts with the events of --watch-events of its kind (one JSON
 * watch event per line) and a BOOKMARK at 2000.  --page-limit caps every page at N objects,
 * whatever limit the client asks (the API server too may send fewer).  --token and --client-ca make every request need that bearer token or
 * a client certificate signed by that CA (either will do, as for the API server).  Faults:
 *   status:CODE:N[:PREFIX]   the first N requests (under PREFIX) answer CODE with a Status
 *   list-status:CODE:N[:PREFIX]  the same, for lists only (not watches, not gets)
 *   watch-status:CODE:N[:PREFIX] the same, for watches only
 *   retry-after:N            with status 429: the Retry-After header to send
 *   gone-on-continue:N[:PATH] the first N requests with a continue token answer 410 Gone; with
 *                            PATH (/api/v1/namespaces/NS/pods/NAME), that object is deleted as
 *                            the 410 is answered (the write that made the token expire)
 *   html-error:N             the first N requests answer 400 with an HTML page holding an
 *                            escape sequence, not a Status (a proxy in front of the API)
 *   repeat-continue:1        a request with a continue token gets the page before it again,
 *                            with the same token: a list that never ends
 *   cut:N                    the first N list answers stop half way (the connection closes)
 *   slow:MS                  every answer waits MS milliseconds first
 *   slow-list:MS:N[:PREFIX]  the first N lists (under PREFIX) wait MS milliseconds first
 *   gone-on-watch:N[:PREFIX] the first N watches (under PREFIX) get an ERROR event 410
 *   watch-error:CODE:N[:PREFIX]  the same with an ERROR event of CODE (500: an internal error)
 *   watch-empty:N[:PREFIX]   the first N watches (under PREFIX) end at once, 200 and no event
 *   watch-cut:N              the first N events streamed are cut half way, and the stream
 * POST /fakeapi/fault?spec=SPEC adds a fault while the server runs; the watch faults (gone-on-watch,
 * watch-error, watch-empty) also end the watches already open under their PREFIX, one per count.
 * Every request is logged to --log as "METHOD PATH?QUERY STATUS".  The port is printed on
 * stdout (and written to --port-file) once the server listens. */
#include "config.h"

#include <microhttpd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <yajl/yajl_gen.h>
#include <yajl/yajl_tree.h>

#include <glib.h>
#include <gnutls/gnutls.h>

#include "fitscale/model/fit.h"
#include "fitscale/model/names.h"
#include "fitscale/model/selector.h"
#include "jsontree.h"

typedef struct {
  const char *group;      /* "" for the core group */
  const char *version;
  const char *resource;   /* plural */
  const char *kind;
  gboolean namespaced;
  const char *short_name;   /* kubectl's short name, or NULL */
} ResourceType;

static const ResourceType types[] = {
  { "", "v1", "nodes", "Node", FALSE, "no" },
  { "", "v1", "pods", "Pod", TRUE, "po" },
  { "", "v1", "namespaces", "Namespace", FALSE, "ns" },
  { "", "v1", "events", "Event", TRUE, "ev" },
  { "apps", "v1", "deployments", "Deployment", TRUE, "deploy" },
  { "apps", "v1", "statefulsets", "StatefulSet", TRUE, "sts" },
  { "apps", "v1", "replicasets", "ReplicaSet", TRUE, "rs" },
  { "autoscaling", "v2", "horizontalpodautoscalers", "HorizontalPodAutoscaler", TRUE, "hpa" },
  { "autoscaling.k8s.io", "v1", "verticalpodautoscalers", "VerticalPodAutoscaler", TRUE, "vpa" },
  { "autoscaling.k8s.io", "v1alpha1", "hvpas", "Hvpa", TRUE, NULL },
  { "metrics.k8s.io", "v1beta1", "pods", "PodMetrics", TRUE, NULL },
  /* what deploy/ holds, for kubectl create --dry-run=client */
  { "", "v1", "serviceaccounts", "ServiceAccount", TRUE, "sa" },
  { "", "v1", "services", "Service", TRUE, "svc" },
  { "rbac.authorization.k8s.io", "v1", "clusterroles", "ClusterRole", FALSE, NULL },
  { "rbac.authorization.k8s.io", "v1", "clusterrolebindings", "ClusterRoleBinding", FALSE, NULL },
  { "policy", "v1", "poddisruptionbudgets", "PodDisruptionBudget", TRUE, "pdb" },
  { "networking.k8s.io", "v1", "networkpolicies", "NetworkPolicy", TRUE, "netpol" },
  { "monitoring.coreos.com", "v1", "servicemonitors", "ServiceMonitor", TRUE, NULL },
  /* what the volume filters read */
  { "", "v1", "persistentvolumeclaims", "PersistentVolumeClaim", TRUE, "pvc" },
  { "", "v1", "persistentvolumes", "PersistentVolume", FALSE, "pv" },
  { "storage.k8s.io", "v1", "storageclasses", "StorageClass", FALSE, "sc" },
  { "storage.k8s.io", "v1", "csinodes", "CSINode", FALSE, NULL },
  /* what admission gives new pods */
  { "node.k8s.io", "v1", "runtimeclasses", "RuntimeClass", FALSE, NULL },
};

typedef struct {
  const ResourceType *type;
  char *namespace;
  char *name;
  yajl_val object;
  char *json;             /* the object as served, written once */
  FsLabelSet *labels;
} Object;

typedef enum { FAULT_ANY, FAULT_LISTS, FAULT_WATCHES } FaultScope;

typedef struct {
  int code;
  int count;
  char *prefix;
  FaultScope scope;
} StatusFault;

static struct {
  GPtrArray *objects;          /* Object, sorted by type, namespace, name */
  GPtrArray *roots;            /* yajl_val documents */
  char *token;
  gboolean client_ca;
  GPtrArray *status_faults;
  int retry_after;
  int gone_on_continue;
  char *gone_delete;           /* an object deleted as a continue token is answered 410 */
  int page_limit;              /* objects per page at most; 0: what the client asks */
  int repeat_continue;
  int html_error;
  int cut;
  int slow_ms;
  int slow_list_ms, slow_lists;  /* the first SLOW_LISTS lists under SLOW_LIST_PREFIX wait */
  char *slow_list_prefix;
  char *watch_events;
  FILE *log;
  GMutex lock;
  /* the store changes: every write makes an event and bumps the resourceVersion */
  GMutex store;                /* guards objects, events, rv, and the list cache */
  GCond changed;               /* an event was logged, or the server stops */
  guint64 rv;                  /* the newest resourceVersion */
  GPtrArray *events;           /* LoggedEvent, oldest first */
  guint history;               /* events kept; a watch from before the oldest gets 410 */
  guint64 oldest_rv;           /* a watch from a version below this is too old */
  int bookmark_ms;             /* a BOOKMARK after this long without events; 0: never */
  int gone_on_watch;           /* the first N watches answer an ERROR event of GONE_CODE */
  int gone_code;
  char *gone_prefix;
  int watch_empty;             /* the first N watches (under EMPTY_PREFIX) end at once */
  char *empty_prefix;
  int watch_cut;               /* the first N events streamed are cut half way, the stream with them */
  GHashTable *scripted;        /* types whose --watch-events went out already */
  gboolean stopping;
} server;

typedef struct {
  guint64 rv;
  const ResourceType *type;
  const char *kind;            /* ADDED, MODIFIED, DELETED */
  yajl_val before;             /* NULL for ADDED */
  yajl_val after;              /* the object as it is now (for DELETED: its last state) */
  char *json;                  /* AFTER as served */
  char *namespace;
} LoggedEvent;

/* ---- loading ------------------------------------------------------------------------- */

static const ResourceType *
type_of (const char *api_version, const char *kind)
{
  for (gsize i = 0; i < G_N_ELEMENTS (types); i++)
    {
      const ResourceType *type = &types[i];
      g_autofree char *want = type->group[0] != '\0' ? g_strdup_printf ("%s/%s", type->group, type->version)
                                                      : g_strdup (type->version);
      gboolean version_ok = api_version == NULL || strcmp (api_version, want) == 0
                            || (strcmp (type->kind, "HorizontalPodAutoscaler") == 0
                                && g_str_has_prefix (api_version, "autoscaling/"));
      if (g_strcmp0 (kind, type->kind) == 0 && version_ok)
        return type;
    }
  return NULL;
}

/* metadata.labels as the selector rules read them (model/fit.c fs_selector_matches, sorted
 * by key); the selector itself is parsed by model/selector.c, as the API server's labels.Parse. */
static FsLabelSet *
labels_of (yajl_val object)
{
  const char *path[] = { "metadata", "labels", NULL };
  yajl_val labels = yajl_tree_get (object, path, yajl_t_object);
  guint n = labels != NULL ? (guint) labels->u.object.len : 0;
  FsLabelSet *set = g_malloc0 (sizeof (FsLabelSet) + n * sizeof (FsLabel));
  for (guint i = 0; i < n; i++)
    if (YAJL_IS_STRING (labels->u.object.values[i]))
      set->items[set->n++] = (FsLabel){ labels->u.object.keys[i], labels->u.object.values[i]->u.string };
  qsort (set->items, set->n, sizeof (FsLabel), fs_label_compare);
  return set;
}

static void
add_object (yajl_val object, const char *list_kind, const char *list_version)
{
  const char *kind = fs_json_tree_string (object, "kind", NULL);
  const char *api_version = fs_json_tree_string (object, "apiVersion", NULL);
  if (kind == NULL && list_kind != NULL && g_str_has_suffix (list_kind, "List"))
    {
      static GHashTable *kinds;
      if (kinds == NULL)
        kinds = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      char *bare = g_strndup (list_kind, strlen (list_kind) - 4);
      char *interned = g_hash_table_lookup (kinds, bare);
      if (interned == NULL)
        g_hash_table_insert (kinds, interned = bare, bare);
      else
        g_free (bare);
      kind = interned;
      api_version = list_version;
    }
  const ResourceType *type = type_of (api_version, kind);
  if (type == NULL)
    return;
  Object *entry = g_new0 (Object, 1);
  entry->type = type;
  entry->namespace = g_strdup (fs_json_tree_string (object, "metadata", "namespace"));
  entry->name = g_strdup (fs_json_tree_string (object, "metadata", "name"));
  entry->labels = labels_of (object);
  entry->object = object;
  g_ptr_array_add (server.objects, entry);
}

static gboolean
load_file (const char *path)
{
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;
  if (!g_file_get_contents (path, &text, NULL, &error))
    {
      fprintf (stderr, "fakeapi: %s\n", error->message);
      return FALSE;
    }
  char problem[256];
  yajl_val root = yajl_tree_parse (text, problem, sizeof problem);
  if (root == NULL)
    {
      fprintf (stderr, "fakeapi: %s: %s\n", path, problem);
      return FALSE;
    }
  g_ptr_array_add (server.roots, root);
  const char *path_items[] = { "items", NULL };
  yajl_val items = yajl_tree_get (root, path_items, yajl_t_array);
  if (items == NULL)
    {
      add_object (root, NULL, NULL);
      return TRUE;
    }
  const char *list_kind = fs_json_tree_string (root, "kind", NULL);
  const char *list_version = fs_json_tree_string (root, "apiVersion", NULL);
  for (size_t i = 0; i < YAJL_GET_ARRAY (items)->len; i++)
    add_object (YAJL_GET_ARRAY (items)->values[i], list_kind, list_version);
  return TRUE;
}

static gint
compare_objects (gconstpointer a, gconstpointer b)
{
  const Object *x = *(const Object *const *) a, *y = *(const Object *const *) b;
  if (x->type != y->type)
    return x->type < y->type ? -1 : 1;
  int by_namespace = g_strcmp0 (x->namespace, y->namespace);
  return by_namespace != 0 ? by_namespace : g_strcmp0 (x->name, y->name);
}

/* ---- selectors ---------------------------------------------------------------------- */

static const char *
field_of (const Object *object, const char *field)
{
  if (strcmp (field, "metadata.name") == 0)
    return object->name;
  if (strcmp (field, "metadata.namespace") == 0)
    return object->namespace;
  g_auto (GStrv) parts = g_strsplit (field, ".", 2);
  return fs_json_tree_string (object->object, parts[0], parts[1]);
}

/* fieldSelector: TERM[,TERM...], TERM = FIELD=VALUE | FIELD==VALUE | FIELD!=VALUE */
static gboolean
fields_match (const Object *object, const char *selector)
{
  if (selector == NULL || *selector == '\0')
    return TRUE;
  g_auto (GStrv) terms = g_strsplit (selector, ",", -1);
  for (char **term = terms; *term != NULL; term++)
    {
      char *op = strstr (*term, "!=");
      gboolean negate = op != NULL;
      if (op == NULL)
        op = strchr (*term, '=');
      if (op == NULL)
        return FALSE;
      g_autofree char *field = g_strndup (*term, op - *term);
      const char *value = op + (negate ? 2 : op[1] == '=' ? 2 : 1);
      const char *actual = field_of (object, field);
      gboolean equal = g_strcmp0 (actual != NULL ? actual : "", value) == 0;
      if (equal == negate)
        return FALSE;
    }
  return TRUE;
}


/* ---- writing JSON ------------------------------------------------------------------------ */

static void
gen_text (yajl_gen gen, const char *text)
{
  yajl_gen_string (gen, (const unsigned char *) text, strlen (text));
}

static void
gen_pair (yajl_gen gen, const char *key, const char *value)
{
  gen_text (gen, key);
  gen_text (gen, value);
}

static char *
gen_finish (yajl_gen gen)
{
  const unsigned char *buffer;
  size_t length;
  yajl_gen_get_buf (gen, &buffer, &length);
  char *text = g_strndup ((const char *) buffer, length);
  yajl_gen_free (gen);
  return text;
}

static char *
status_json (int code, const char *reason, const char *message)
{
  yajl_gen gen = yajl_gen_alloc (NULL);
  yajl_gen_map_open (gen);
  gen_pair (gen, "kind", "Status");
  gen_pair (gen, "apiVersion", "v1");
  gen_text (gen, "metadata");
  yajl_gen_map_open (gen);
  yajl_gen_map_close (gen);
  gen_pair (gen, "status", "Failure");
  gen_pair (gen, "message", message);
  gen_pair (gen, "reason", reason);
  gen_text (gen, "code");
  yajl_gen_integer (gen, code);
  yajl_gen_map_close (gen);
  return gen_finish (gen);
}

/* ---- discovery ---------------------------------------------------------------------------- */

static char *
group_version_text (const ResourceType *type)
{
  return type->group[0] != '\0' ? g_strdup_printf ("%s/%s", type->group, type->version) : g_strdup (type->version);
}

static char *
resource_list (const char *group, const char *version)
{
  yajl_gen gen = yajl_gen_alloc (NULL);
  g_autofree char *group_version = group[0] != '\0' ? g_strdup_printf ("%s/%s", group, version) : g_strdup (version);
  yajl_gen_map_open (gen);
  gen_pair (gen, "kind", "APIResourceList");
  gen_pair (gen, "apiVersion", "v1");
  gen_pair (gen, "groupVersion", group_version);
  gen_text (gen, "resources");
  yajl_gen_array_open (gen);
  for (gsize i = 0; i < G_N_ELEMENTS (types); i++)
    {
      const ResourceType *type = &types[i];
      if (strcmp (type->group, group) != 0 || strcmp (type->version, version) != 0)
        continue;
      g_autofree char *singular = g_ascii_strdown (type->kind, -1);
      yajl_gen_map_open (gen);
      gen_pair (gen, "name", type->resource);
      gen_pair (gen, "singularName", singular);
      gen_text (gen, "namespaced");
      yajl_gen_bool (gen, type->namespaced);
      gen_pair (gen, "kind", type->kind);
      if (type->short_name != NULL)
        {
          gen_text (gen, "shortNames");
          yajl_gen_array_open (gen);
          gen_text (gen, type->short_name);
          yajl_gen_array_close (gen);
        }
      gen_text (gen, "verbs");
      yajl_gen_array_open (gen);
      gen_text (gen, "get");
      gen_text (gen, "list");
      gen_text (gen, "watch");
      yajl_gen_array_close (gen);
      yajl_gen_map_close (gen);
    }
  yajl_gen_array_close (gen);
  yajl_gen_map_close (gen);
  return gen_finish (gen);
}

static char *
group_list (void)
{
  yajl_gen gen = yajl_gen_alloc (NULL);
  yajl_gen_map_open (gen);
  gen_pair (gen, "kind", "APIGroupList");
  gen_pair (gen, "apiVersion", "v1");
  gen_text (gen, "groups");
  yajl_gen_array_open (gen);
  for (gsize i = 0; i < G_N_ELEMENTS (types); i++)
    {
      const ResourceType *type = &types[i];
      gboolean first = type->group[0] != '\0';
      for (gsize j = 0; j < i && first; j++)
        first = strcmp (types[j].group, type->group) != 0;
      if (!first)
        continue;
      yajl_gen_map_open (gen);
      gen_pair (gen, "name", type->group);
      gen_text (gen, "versions");
      yajl_gen_array_open (gen);
      g_autofree char *preferred = NULL;
      for (gsize j = i; j < G_N_ELEMENTS (types); j++)
        {
          gboolean seen = FALSE;
          for (gsize k = i; k < j; k++)
            seen |= strcmp (types[k].group, types[j].group) == 0 && strcmp (types[k].version, types[j].version) == 0;
          if (strcmp (types[j].group, type->group) != 0 || seen)
            continue;
          g_autofree char *group_version = group_version_text (&types[j]);
          yajl_gen_map_open (gen);
          gen_pair (gen, "groupVersion", group_version);
          gen_pair (gen, "version", types[j].version);
          yajl_gen_map_close (gen);
          if (preferred == NULL)
            preferred = g_steal_pointer (&group_version);
        }
      yajl_gen_array_close (gen);
      gen_text (gen, "preferredVersion");
      yajl_gen_map_open (gen);
      gen_pair (gen, "groupVersion", preferred);
      gen_pair (gen, "version", strchr (preferred, '/') + 1);
      yajl_gen_map_close (gen);
      yajl_gen_map_close (gen);
    }
  yajl_gen_array_close (gen);
  yajl_gen_map_close (gen);
  return gen_finish (gen);
}

/* ---- lists and objects -------------------------------------------------------------------- */

typedef struct {
  const ResourceType *type;
  const char *namespace;      /* NULL: every namespace */
  const char *name;           /* a get, NULL for a list */
  gboolean watch;
} Target;

/* /api/v1/[namespaces/NS/]RESOURCE[/NAME] or /apis/GROUP/VERSION/[namespaces/NS/]RESOURCE[/NAME] */
static gboolean
parse_target (const char *url, Target *target)
{
  g_auto (GStrv) parts = g_strsplit (url + 1, "/", -1);
  guint n = g_strv_length (parts), at;
  const char *group, *version;
  if (n >= 3 && strcmp (parts[0], "api") == 0)
    group = "", version = parts[1], at = 2;
  else if (n >= 4 && strcmp (parts[0], "apis") == 0)
    group = parts[1], version = parts[2], at = 3;
  else
    return FALSE;
  memset (target, 0, sizeof *target);
  static GStringChunk *strings;
  if (strings == NULL)
    strings = g_string_chunk_new (1024);
  if (at + 2 < n && strcmp (parts[at], "namespaces") == 0)
    {
      target->namespace = g_string_chunk_insert_const (strings, parts[at + 1]);
      at += 2;
    }
  const char *resource = parts[at];
  if (at + 1 < n)
    target->name = g_string_chunk_insert_const (strings, parts[at + 1]);
  if (at + 2 < n)
    return FALSE;
  for (gsize i = 0; i < G_N_ELEMENTS (types); i++)
    if (strcmp (types[i].group, group) == 0 && strcmp (types[i].version, version) == 0
        && strcmp (types[i].resource, resource) == 0)
      target->type = &types[i];
  /* GET /api/v1/namespaces/NAME is a get of a namespace */
  if (target->type == NULL && target->namespace == NULL && at + 1 < n && strcmp (resource, "namespaces") == 0)
    return FALSE;
  return target->type != NULL;
}

static void
gen_object (yajl_gen gen, const Object *object)
{
  yajl_val value = object->object;
  yajl_gen_map_open (gen);
  /* kind and apiVersion first, as the API server writes them */
  g_autofree char *api_version = group_version_text (object->type);
  gen_pair (gen, "kind", object->type->kind);
  gen_pair (gen, "apiVersion", api_version);
  for (size_t i = 0; i < YAJL_GET_OBJECT (value)->len; i++)
    {
      const char *key = YAJL_GET_OBJECT (value)->keys[i];
      if (strcmp (key, "kind") == 0 || strcmp (key, "apiVersion") == 0)
        continue;
      gen_text (gen, key);
      fs_json_tree_gen (gen, YAJL_GET_OBJECT (value)->values[i]);
    }
  yajl_gen_map_close (gen);
}

/* The objects a list selects, by index, remembered per query so that paging through a
 * large list costs each page its own items only. */
static GHashTable *queries; /* "type|namespace|fields|labels" -> GArray of guint */

static GArray *
selected (const Target *target, const char *fields, const char *labels)
{
  g_mutex_lock (&server.lock);
  if (queries == NULL)
    queries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);
  char *key = g_strdup_printf ("%s/%s|%s|%s|%s", target->type->group, target->type->resource,
                               target->namespace != NULL ? target->namespace : "", fields != NULL ? fields : "",
                               labels != NULL ? labels : "");
  GArray *indices = g_hash_table_lookup (queries, key);
  if (indices == NULL)
    {
      /* an empty or bad labelSelector selects every object (a real server answers 400) */
      g_autoptr (FsLabelSelector) selector = labels != NULL && *labels != '\0'
          ? fs_label_selector_parse (labels, NULL) : NULL;
      indices = g_array_new (FALSE, FALSE, sizeof (guint));
      for (guint i = 0; i < server.objects->len; i++)
        {
          const Object *object = server.objects->pdata[i];
          if (object->type == target->type && (target->namespace == NULL || g_strcmp0 (object->namespace, target->namespace) == 0)
              && fields_match (object, fields) && (selector == NULL || fs_selector_matches (selector, object->labels)))
            g_array_append_val (indices, i);
        }
      g_hash_table_insert (queries, key, indices);
    }
  else
    g_free (key);
  g_mutex_unlock (&server.lock);
  return indices;
}

static char *
list_json (const Target *target, const char *fields, const char *labels, int limit, int offset, int *next)
{
  g_autofree char *api_version = group_version_text (target->type);
  GString *json = g_string_new (NULL);
  g_string_append_printf (json, "{\"kind\":\"%sList\",\"apiVersion\":\"%s\",\"items\":[", target->type->kind, api_version);
  GArray *indices = selected (target, fields, labels);
  int emitted = 0;
  *next = -1;
  for (guint at = (guint) offset; at < indices->len; at++)
    {
      if (limit > 0 && emitted == limit)
        {
          *next = offset + emitted;
          break;
        }
      const Object *object = server.objects->pdata[g_array_index (indices, guint, at)];
      if (emitted > 0)
        g_string_append_c (json, ',');
      g_string_append (json, object->json);
      emitted++;
    }
  g_string_append_printf (json, "],\"metadata\":{\"resourceVersion\":\"%" G_GUINT64_FORMAT "\"", server.rv);
  if (*next >= 0)
    {
      g_autofree char *plain = g_strdup_printf ("{\"offset\":%d}", *next);
      g_autofree char *token = g_base64_encode ((const guchar *) plain, strlen (plain));
      g_string_append_printf (json, ",\"continue\":\"%s\"", token);
    }
  g_string_append (json, "}}");
  return g_string_free (json, FALSE);
}

static int
offset_of (const char *token)
{
  if (token == NULL)
    return 0;
  gsize length = 0;
  g_autofree guchar *plain = g_base64_decode (token, &length);
  g_autofree char *text = g_strndup ((const char *) plain, length);
  const char *at = strstr (text, "\"offset\":");
  return at != NULL ? atoi (at + 9) : -1;
}

/* ---- answers ------------------------------------------------------------------------------ */

typedef struct {
  char *body;
  size_t length, sent, cut_at;
} Body;

static ssize_t
read_body (void *data, uint64_t position, char *buffer, size_t max)
{
  Body *body = data;
  size_t end = body->cut_at > 0 ? body->cut_at : body->length;
  if (position >= end)
    return body->cut_at > 0 ? MHD_CONTENT_READER_END_WITH_ERROR : MHD_CONTENT_READER_END_OF_STREAM;
  size_t n = MIN (max, end - position);
  memcpy (buffer, body->body + position, n);
  return (ssize_t) n;
}

static void
free_body (void *data)
{
  Body *body = data;
  g_free (body->body);
  g_free (body);
}

static enum MHD_Result
answer (struct MHD_Connection *connection, const char *url, const char *query_log, int code, char *text,
        gboolean cut, int retry_after)
{
  struct MHD_Response *response;
  if (cut)
    {
      Body *body = g_new0 (Body, 1);
      body->body = text;
      body->length = strlen (text);
      body->cut_at = body->length / 2;
      response = MHD_create_response_from_callback (MHD_SIZE_UNKNOWN, 4096, read_body, body, free_body);
    }
  else
    response = MHD_create_response_from_buffer (strlen (text), text, MHD_RESPMEM_MUST_FREE);
  MHD_add_response_header (response, "Content-Type", "application/json");
  if (retry_after > 0)
    {
      char seconds[16];
      g_snprintf (seconds, sizeof seconds, "%d", retry_after);
      MHD_add_response_header (response, "Retry-After", seconds);
    }
  if (server.log != NULL)
    {
      g_mutex_lock (&server.lock);
      fprintf (server.log, "GET %s%s%s %d\n", url, *query_log ? "?" : "", query_log, code);
      fflush (server.log);
      g_mutex_unlock (&server.lock);
    }
  enum MHD_Result result = MHD_queue_response (connection, (unsigned int) code, response);
  MHD_destroy_response (response);
  return result;
}

static enum MHD_Result
collect_query (void *data, enum MHD_ValueKind kind, const char *key, const char *value)
{
  GString *query = data;
  if (query->len > 0)
    g_string_append_c (query, '&');
  g_string_append (query, key);
  if (value != NULL)
    g_string_append_printf (query, "=%s", value);
  return MHD_YES;
}

/* A status fault for URL, or 0. */
static int
take_status_fault (const char *url, gboolean watch, gboolean list)
{
  int code = 0;
  g_mutex_lock (&server.lock);
  for (guint i = 0; i < server.status_faults->len && code == 0; i++)
    {
      StatusFault *fault = server.status_faults->pdata[i];
      gboolean in_scope = fault->scope == FAULT_ANY || (fault->scope == FAULT_WATCHES && watch)
                          || (fault->scope == FAULT_LISTS && list);
      if (fault->count > 0 && in_scope && (fault->prefix == NULL || g_str_has_prefix (url, fault->prefix)))
        {
          fault->count--;
          code = fault->code;
        }
    }
  g_mutex_unlock (&server.lock);
  return code;
}

/* Whether a list of URL is one of the slow-list fault's. */
static gboolean
take_slow_list (const char *url)
{
  g_mutex_lock (&server.lock);
  gboolean take = server.slow_lists > 0 && (server.slow_list_prefix == NULL || g_str_has_prefix (url, server.slow_list_prefix));
  if (take)
    server.slow_lists--;
  g_mutex_unlock (&server.lock);
  return take;
}

static gboolean
take_count (int *counter)
{
  g_mutex_lock (&server.lock);
  gboolean take = *counter > 0;
  if (take)
    (*counter)--;
  g_mutex_unlock (&server.lock);
  return take;
}

/* ---- writes -------------------------------------------------------------------------------- */

/* BASE with PATCH merged in as RFC 7386 JSON merge patch says (null removes a key). */
static void
gen_merged (yajl_gen gen, yajl_val base, yajl_val patch)
{
  if (!YAJL_IS_OBJECT (patch))
    {
      fs_json_tree_gen (gen, patch);
      return;
    }
  yajl_gen_map_open (gen);
  gboolean base_map = base != NULL && YAJL_IS_OBJECT (base);
  for (size_t i = 0; base_map && i < base->u.object.len; i++)
    {
      const char *key = base->u.object.keys[i];
      yajl_val change = NULL;
      for (size_t j = 0; j < patch->u.object.len && change == NULL; j++)
        if (strcmp (patch->u.object.keys[j], key) == 0)
          change = patch->u.object.values[j];
      if (change != NULL && YAJL_IS_NULL (change))
        continue;
      gen_text (gen, key);
      if (change != NULL)
        gen_merged (gen, base->u.object.values[i], change);
      else
        fs_json_tree_gen (gen, base->u.object.values[i]);
    }
  for (size_t j = 0; j < patch->u.object.len; j++)
    {
      const char *key = patch->u.object.keys[j];
      gboolean in_base = FALSE;
      for (size_t i = 0; base_map && i < base->u.object.len && !in_base; i++)
        in_base = strcmp (base->u.object.keys[i], key) == 0;
      if (in_base || YAJL_IS_NULL (patch->u.object.values[j]))
        continue;
      gen_text (gen, key);
      gen_merged (gen, NULL, patch->u.object.values[j]);
    }
  yajl_gen_map_close (gen);
}

/* BASE merged with PATCH (may be NULL), then metadata.resourceVersion (and the namespace,
 * when NAMESPACE) set: a new tree, kept for the server's life. */
static yajl_val
stamped (yajl_val base, yajl_val patch, guint64 rv, const char *namespace)
{
  yajl_gen gen = yajl_gen_alloc (NULL);
  if (patch != NULL)
    gen_merged (gen, base, patch);
  else
    fs_json_tree_gen (gen, base);
  g_autofree char *merged = gen_finish (gen);
  char problem[128];
  yajl_val tree = yajl_tree_parse (merged, problem, sizeof problem);
  g_autofree char *meta = namespace != NULL
      ? g_strdup_printf ("{\"metadata\":{\"resourceVersion\":\"%" G_GUINT64_FORMAT "\",\"namespace\":\"%s\"}}", rv, namespace)
      : g_strdup_printf ("{\"metadata\":{\"resourceVersion\":\"%" G_GUINT64_FORMAT "\"}}", rv);
  yajl_val meta_tree = yajl_tree_parse (meta, problem, sizeof problem);
  gen = yajl_gen_alloc (NULL);
  gen_merged (gen, tree, meta_tree);
  g_autofree char *text = gen_finish (gen);
  yajl_tree_free (tree);
  yajl_tree_free (meta_tree);
  yajl_val result = yajl_tree_parse (text, problem, sizeof problem);
  g_mutex_lock (&server.lock);
  g_ptr_array_add (server.roots, result);
  g_mutex_unlock (&server.lock);
  return result;
}

static char *
object_json (const ResourceType *type, yajl_val tree)
{
  Object view = { .type = type, .object = tree };
  yajl_gen gen = yajl_gen_alloc (NULL);
  gen_object (gen, &view);
  return gen_finish (gen);
}

/* Logs an event; the store lock is held. */
static void
log_event (const ResourceType *type, const char *kind, yajl_val before, yajl_val after, const char *json,
           const char *namespace)
{
  LoggedEvent *event = g_new0 (LoggedEvent, 1);
  *event = (LoggedEvent){ server.rv, type, kind, before, after, g_strdup (json), g_strdup (namespace) };
  g_ptr_array_add (server.events, event);
  if (server.events->len > server.history + server.history / 4) /* trimmed in steps, not per event */
    {
      guint drop = server.events->len - server.history;
      for (guint i = 0; i < drop; i++)
        {
          LoggedEvent *oldest = server.events->pdata[i];
          server.oldest_rv = oldest->rv + 1;
          g_free (oldest->json);
          g_free (oldest->namespace);
          g_free (oldest);
        }
      g_ptr_array_remove_range (server.events, 0, drop);
    }
  if (queries != NULL)
    g_hash_table_remove_all (queries);
  g_cond_broadcast (&server.changed);
}

/* The stored object TYPE NAMESPACE/NAME: its index, or -1.  The store lock is held. */
static int
find_object (const ResourceType *type, const char *namespace, const char *name, guint *insert_at)
{
  Object key = { .type = type, .namespace = (char *) (type->namespaced ? namespace : NULL), .name = (char *) name };
  const Object *probe = &key;
  guint low = 0, high = server.objects->len;
  while (low < high) /* the objects are sorted by type, namespace, name (compare_objects) */
    {
      guint middle = low + (high - low) / 2;
      if (compare_objects (&server.objects->pdata[middle], &probe) < 0)
        low = middle + 1;
      else
        high = middle;
    }
  if (insert_at != NULL)
    *insert_at = low;
  if (low < server.objects->len && compare_objects (&server.objects->pdata[low], &probe) == 0)
    return (int) low;
  return -1;
}

/* POST (create), PUT (replace), PATCH (merge), DELETE: the answer's code and body. */
static int
write_object (const char *method, const Target *target, const char *body, char **text)
{
  char problem[256];
  yajl_val tree = body != NULL && *body != '\0' ? yajl_tree_parse (body, problem, sizeof problem) : NULL;
  if (body != NULL && *body != '\0' && tree == NULL)
    {
      *text = status_json (400, "BadRequest", problem);
      return 400;
    }
  g_mutex_lock (&server.store);
  int code = 200;
  const char *name = target->name != NULL ? target->name : fs_json_tree_string (tree, "metadata", "name");
  guint insert_at = 0;
  const char *in_namespace = target->namespace != NULL ? target->namespace : fs_json_tree_string (tree, "metadata", "namespace");
  int at = name != NULL ? find_object (target->type, in_namespace, name, &insert_at) : -1;
  if (name == NULL || (strcmp (method, "POST") == 0 && target->name != NULL))
    code = 400, *text = status_json (400, "BadRequest", "name or body missing");
  else if (strcmp (method, "POST") == 0 && at >= 0)
    code = 409, *text = status_json (409, "AlreadyExists", "already exists");
  else if (strcmp (method, "POST") != 0 && at < 0)
    code = 404, *text = status_json (404, "NotFound", "not found");
  else if ((strcmp (method, "PUT") == 0 || strcmp (method, "PATCH") == 0 || strcmp (method, "POST") == 0) && tree == NULL)
    code = 400, *text = status_json (400, "BadRequest", "no body");
  else
    {
      server.rv++;
      const char *namespace = target->type->namespaced ? in_namespace : NULL;
      if (strcmp (method, "DELETE") == 0)
        {
          Object *object = server.objects->pdata[at];
          yajl_val last = stamped (object->object, NULL, server.rv, NULL);
          g_autofree char *json = object_json (target->type, last);
          log_event (target->type, "DELETED", object->object, last, json, object->namespace);
          *text = g_strdup (json);
          g_ptr_array_remove_index (server.objects, (guint) at);
        }
      else
        {
          Object *object = at >= 0 ? server.objects->pdata[at] : NULL;
          yajl_val before = object != NULL ? object->object : NULL;
          yajl_val after = strcmp (method, "PATCH") == 0 ? stamped (before, tree, server.rv, NULL)
                                                         : stamped (tree, NULL, server.rv,
                                                                    fs_json_tree_string (tree, "metadata", "namespace") == NULL ? namespace : NULL);
          if (object == NULL)
            {
              object = g_new0 (Object, 1);
              object->type = target->type;
              object->namespace = g_strdup (fs_json_tree_string (after, "metadata", "namespace"));
              object->name = g_strdup (name);
              g_ptr_array_insert (server.objects, (gint) insert_at, object);
              code = 201;
            }
          object->object = after;
          object->labels = labels_of (after);
          object->json = object_json (target->type, after);
          log_event (target->type, before == NULL ? "ADDED" : "MODIFIED", before, after, object->json, object->namespace);
          *text = g_strdup (object->json);
        }
    }
  g_mutex_unlock (&server.store);
  if (tree != NULL)
    yajl_tree_free (tree);
  return code;
}


/* ---- churn: a scripted stream of writes, for bench/live-churn ------------------------------ */

static struct {
  GMutex lock;
  GString *probes;             /* "NAMESPACE/NAME SENT_US\n" (g_get_real_time) */
  gboolean running;
} churn;

typedef struct {
  double rate;                 /* writes a second */
  double seconds;
  guint probe_every;           /* every Nth create is a Pending probe pod */
} ChurnPlan;

static const ResourceType *
type_named (const char *resource)
{
  for (gsize i = 0; i < G_N_ELEMENTS (types); i++)
    if (strcmp (types[i].resource, resource) == 0 && types[i].group[0] == '\0')
      return &types[i];
  return NULL;
}

/* Creates, modifies and deletes pods of namespace "churn" (bound to random nodes), and
 * cordons and uncordons nodes: 35 % ADDED, 30 % MODIFIED, 30 % DELETED, 5 % node changes, at
 * RATE writes a second, each a write as a client's would be (write_object). */
static gpointer
churn_thread (gpointer data)
{
  ChurnPlan *plan = data;
  const ResourceType *pods = type_named ("pods"), *nodes = type_named ("nodes");
  g_autoptr (GPtrArray) node_names = g_ptr_array_new_with_free_func (g_free);
  g_mutex_lock (&server.store);
  for (guint i = 0; i < server.objects->len; i++)
    if (((Object *) server.objects->pdata[i])->type == nodes)
      g_ptr_array_add (node_names, g_strdup (((Object *) server.objects->pdata[i])->name));
  g_mutex_unlock (&server.store);
  GQueue live = G_QUEUE_INIT;  /* names of the churn pods there now, oldest first */
  GRand *rand = g_rand_new_with_seed (18);
  gint64 start = g_get_monotonic_time ();
  guint64 done = 0, created = 0;
  while ((double) (g_get_monotonic_time () - start) < plan->seconds * G_USEC_PER_SEC)
    {
      gint64 due = start + (gint64) ((double) done / plan->rate * G_USEC_PER_SEC);
      gint64 now = g_get_monotonic_time ();
      if (due > now)
        g_usleep ((gulong) (due - now));
      int roll = g_rand_int_range (rand, 0, 100);
      char *text = NULL;
      Target target = { pods, "churn", NULL, FALSE };
      if (roll < 5 && node_names->len > 0)
        {
          target = (Target){ nodes, NULL, node_names->pdata[g_rand_int_range (rand, 0, (gint32) node_names->len)], FALSE };
          write_object ("PATCH", &target, g_rand_boolean (rand) ? "{\"spec\":{\"unschedulable\":true}}"
                                                                : "{\"spec\":{\"unschedulable\":null}}", &text);
        }
      else if (roll < 35 && !g_queue_is_empty (&live))
        {
          g_autofree char *name = g_queue_pop_head (&live);
          target.name = name;
          write_object ("DELETE", &target, NULL, &text);
        }
      else if (roll < 65 && !g_queue_is_empty (&live))
        {
          target.name = g_queue_peek_nth (&live, (guint) g_rand_int_range (rand, 0, (gint32) g_queue_get_length (&live)));
          g_autofree char *patch = g_strdup_printf ("{\"metadata\":{\"labels\":{\"generation\":\"%" G_GUINT64_FORMAT "\"}}}", done);
          write_object ("PATCH", &target, patch, &text);
        }
      else
        {
          gboolean probe = plan->probe_every > 0 && created % plan->probe_every == 0;
          char *name = g_strdup_printf ("%s-%" G_GUINT64_FORMAT, probe ? "probe" : "churn", created++);
          g_autofree char *node = !probe && node_names->len > 0
              ? g_strdup_printf ("\"nodeName\":\"%s\",", (char *) node_names->pdata[g_rand_int_range (rand, 0, (gint32) node_names->len)])
              : g_strdup ("");
          g_autofree char *body = g_strdup_printf (
              "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"%s\",\"namespace\":\"churn\",\"labels\":{\"app\":\"churn\"}},"
              "\"spec\":{%s\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"10m\",\"memory\":\"16Mi\"}}}]},"
              "\"status\":{\"phase\":\"%s\"}}", name, node, probe ? "Pending" : "Running");
          gint64 sent = g_get_real_time ();
          write_object ("POST", &target, body, &text);
          if (probe)
            {
              g_mutex_lock (&churn.lock);
              g_string_append_printf (churn.probes, "churn/%s %" G_GINT64_FORMAT "\n", name, sent);
              g_mutex_unlock (&churn.lock);
              g_free (name);
            }
          else
            g_queue_push_tail (&live, name);
        }
      g_free (text);
      done++;
    }
  g_queue_clear_full (&live, g_free);
  g_rand_free (rand);
  g_mutex_lock (&churn.lock);
  churn.running = FALSE;
  g_mutex_unlock (&churn.lock);
  g_free (plan);
  return NULL;
}

/* POST /fakeapi/churn?rate=R&seconds=S&probe-every=N starts a churn; GET /fakeapi/probes
 * lists the probe pods that churn created so far with when (unix microseconds). */
static char *
churn_endpoint (struct MHD_Connection *connection, const char *url, const char *method, int *code)
{
  *code = 200;
  if (strcmp (url, "/fakeapi/probes") == 0)
    {
      g_mutex_lock (&churn.lock);
      char *text = g_strdup (churn.probes != NULL ? churn.probes->str : "");
      g_mutex_unlock (&churn.lock);
      return text;
    }
  const char *rate = MHD_lookup_connection_value (connection, MHD_GET_ARGUMENT_KIND, "rate");
  const char *seconds = MHD_lookup_connection_value (connection, MHD_GET_ARGUMENT_KIND, "seconds");
  const char *probe = MHD_lookup_connection_value (connection, MHD_GET_ARGUMENT_KIND, "probe-every");
  ChurnPlan plan = { rate != NULL ? g_ascii_strtod (rate, NULL) : 0, seconds != NULL ? g_ascii_strtod (seconds, NULL) : 0,
                     probe != NULL ? (guint) g_ascii_strtoull (probe, NULL, 10) : 0 };
  g_mutex_lock (&churn.lock);
  gboolean busy = churn.running;
  if (!busy && strcmp (method, "POST") == 0 && plan.rate > 0 && plan.seconds > 0)
    {
      churn.running = TRUE;
      if (churn.probes == NULL)
        churn.probes = g_string_new (NULL);
      g_string_truncate (churn.probes, 0); /* the probes of this churn only */
      g_thread_unref (g_thread_new ("churn", churn_thread, g_memdup2 (&plan, sizeof plan)));
    }
  g_mutex_unlock (&churn.lock);
  if (busy || strcmp (method, "POST") != 0 || plan.rate <= 0 || plan.seconds <= 0)
    {
      *code = busy ? 409 : 400;
      return status_json (*code, busy ? "Conflict" : "BadRequest", busy ? "a churn is running" : "POST with rate and seconds");
    }
  return g_strdup ("{\"started\":true}");
}

/* ---- watches ------------------------------------------------------------------------------- */

typedef struct {
  const ResourceType *type;
  char *url;                   /* what the watch asked, for the faults under a prefix */
  char *namespace;             /* NULL: every namespace */
  char *fields;                /* fieldSelector, NULL for none */
  guint64 cursor;              /* the version sent last */
  gint64 deadline;             /* monotonic end (timeoutSeconds) */
  gint64 quiet_since;          /* monotonic: the last line sent */
  GString *pending;            /* lines not yet sent */
  gsize sent;
  gboolean cut;                /* the stream ends in the middle of what is pending */
  gboolean done;
} WatchBody;

static gboolean
tree_matches (const ResourceType *type, yajl_val tree, const char *fields)
{
  if (tree == NULL)
    return FALSE;
  Object view = { .type = type, .object = tree,
                  .namespace = (char *) fs_json_tree_string (tree, "metadata", "namespace"),
                  .name = (char *) fs_json_tree_string (tree, "metadata", "name") };
  return fields_match (&view, fields);
}

/* The events after the watch's cursor, as the API server's watch cache sends them to a
 * watcher with a field selector (cacheWatcher.convertToWatchEvent): an object that starts
 * matching is ADDED, one that stops is DELETED.  The store lock is held. */
static void
collect_events (WatchBody *watch)
{
  guint low = 0, high = server.events->len; /* the log is in version order */
  while (low < high)
    {
      guint middle = low + (high - low) / 2;
      if (((const LoggedEvent *) server.events->pdata[middle])->rv <= watch->cursor)
        low = middle + 1;
      else
        high = middle;
    }
  for (guint i = low; i < server.events->len; i++)
    {
      const LoggedEvent *event = server.events->pdata[i];
      watch->cursor = event->rv;
      if (event->type != watch->type || (watch->namespace != NULL && g_strcmp0 (event->namespace, watch->namespace) != 0))
        continue;
      gboolean was = event->before != NULL && tree_matches (event->type, event->before, watch->fields);
      gboolean is = strcmp (event->kind, "DELETED") != 0 && tree_matches (event->type, event->after, watch->fields);
      const char *kind = was && is ? "MODIFIED" : is ? "ADDED" : was ? "DELETED" : NULL;
      if (kind == NULL)
        continue;
      gsize start = watch->pending->len;
      g_string_append_printf (watch->pending, "{\"type\":\"%s\",\"object\":%s}\n", kind, event->json);
      if (server.watch_cut > 0)
        {
          server.watch_cut--;
          g_string_truncate (watch->pending, start + (watch->pending->len - start) / 2);
          watch->cut = TRUE;
          return;
        }
    }
}

/* A watch fault for the watch of URL: the code of the ERROR event it gets, -1 when it ends at
 * once without any event, 0 for none.  The store lock is held. */
static int
take_watch_fault_locked (const char *url)
{
  if (server.gone_on_watch > 0 && (server.gone_prefix == NULL || g_str_has_prefix (url, server.gone_prefix)))
    {
      server.gone_on_watch--;
      return server.gone_code;
    }
  if (server.watch_empty > 0 && (server.empty_prefix == NULL || g_str_has_prefix (url, server.empty_prefix)))
    {
      server.watch_empty--;
      return -1;
    }
  return 0;
}

/* The watch ends with a fault (take_watch_fault_locked's CODE) after what it has pending. */
static void
end_watch (WatchBody *watch, int code)
{
  /* the API server answers a watch from a compacted version 200 with an ERROR event 410 */
  if (code > 0)
    g_string_append_printf (watch->pending, "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"apiVersion\":\"v1\","
                                            "\"metadata\":{},\"status\":\"Failure\",\"message\":\"%s\","
                                            "\"reason\":\"%s\",\"code\":%d}}\n",
                            code == 410 ? "too old resource version" : "injected watch error",
                            code == 410 ? "Expired" : "InternalError", code);
  watch->done = TRUE;
}

static ssize_t
read_watch (void *data, uint64_t position, char *buffer, size_t max)
{
  WatchBody *watch = data;
  for (;;)
    {
      if (watch->sent < watch->pending->len)
        {
          size_t n = MIN (max, watch->pending->len - watch->sent);
          memcpy (buffer, watch->pending->str + watch->sent, n);
          watch->sent += n;
          watch->quiet_since = g_get_monotonic_time ();
          return (ssize_t) n;
        }
      if (watch->cut)
        return MHD_CONTENT_READER_END_WITH_ERROR;
      if (watch->done)
        return MHD_CONTENT_READER_END_OF_STREAM;
      g_string_truncate (watch->pending, 0);
      watch->sent = 0;
      g_mutex_lock (&server.store);
      int fault = take_watch_fault_locked (watch->url);
      if (fault != 0)
        end_watch (watch, fault);
      else
        collect_events (watch);
      gint64 now = g_get_monotonic_time ();
      if (watch->pending->len == 0 && !server.stopping && !watch->done)
        {
          gint64 wake = watch->deadline;
          if (server.bookmark_ms > 0)
            wake = MIN (wake, watch->quiet_since + (gint64) server.bookmark_ms * 1000);
          if (now < wake)
            g_cond_wait_until (&server.changed, &server.store, wake);
          collect_events (watch);
          now = g_get_monotonic_time ();
          if (watch->pending->len == 0 && server.bookmark_ms > 0
              && now >= watch->quiet_since + (gint64) server.bookmark_ms * 1000)
            g_string_append_printf (watch->pending, "{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"%s\",\"apiVersion\":\"v1\","
                                                    "\"metadata\":{\"resourceVersion\":\"%" G_GUINT64_FORMAT "\"}}}\n",
                                    watch->type->kind, server.rv);
          if (watch->pending->len == 0 && now >= watch->deadline)
            watch->done = TRUE;
        }
      if (server.stopping)
        watch->done = TRUE;
      g_mutex_unlock (&server.store);
      if (watch->pending->len == 0 && watch->done)
        return MHD_CONTENT_READER_END_OF_STREAM;
    }
}

static void
free_watch (void *data)
{
  WatchBody *watch = data;
  g_string_free (watch->pending, TRUE);
  g_free (watch->url);
  g_free (watch->namespace);
  g_free (watch->fields);
  g_free (watch);
}

/* The events of --watch-events whose object is of TYPE (their first watch only). */
static void
scripted_events (const ResourceType *type, GString *stream)
{
  g_autofree char *events = NULL;
  g_auto (GStrv) lines = NULL;
  if (server.watch_events != NULL && g_file_get_contents (server.watch_events, &events, NULL, NULL))
    lines = g_strsplit (events, "\n", -1);
  for (char **line = lines; line != NULL && *line != NULL; line++)
    {
      char problem[128];
      yajl_val event = **line != '\0' ? yajl_tree_parse (*line, problem, sizeof problem) : NULL;
      if (event == NULL)
        continue;
      const char *kind = fs_json_tree_string (event, "object", "kind");
      if (g_strcmp0 (kind, type->kind) == 0 || g_strcmp0 (fs_json_tree_string (event, "type", NULL), "ERROR") == 0)
        g_string_append_printf (stream, "%s\n", *line);
      yajl_tree_free (event);
    }
}

static enum MHD_Result
answer_watch (struct MHD_Connection *connection, const char *url, const char *query_log, const Target *target)
{
  const char *version = MHD_lookup_connection_value (connection, MHD_GET_ARGUMENT_KIND, "resourceVersion");
  const char *timeout = MHD_lookup_connection_value (connection, MHD_GET_ARGUMENT_KIND, "timeoutSeconds");
  WatchBody *watch = g_new0 (WatchBody, 1);
  watch->type = target->type;
  watch->url = g_strdup (url);
  watch->namespace = g_strdup (target->namespace);
  watch->fields = g_strdup (MHD_lookup_connection_value (connection, MHD_GET_ARGUMENT_KIND, "fieldSelector"));
  watch->pending = g_string_new (NULL);
  watch->quiet_since = g_get_monotonic_time ();
  guint64 from = version != NULL ? g_ascii_strtoull (version, NULL, 10) : 0;
  gint64 seconds = timeout != NULL ? (gint64) g_ascii_strtoull (timeout, NULL, 10) : 1800;
  watch->deadline = g_get_monotonic_time () + MAX (seconds, 1) * G_USEC_PER_SEC;
  g_mutex_lock (&server.store);
  watch->cursor = from != 0 ? from : server.rv;
  int fault = from != 0 && from + 1 < server.oldest_rv ? 410 : take_watch_fault_locked (url);
  if (fault != 0)
    end_watch (watch, fault);
  else if (server.watch_events != NULL && g_hash_table_add (server.scripted, (gpointer) target->type))
    {
      scripted_events (target->type, watch->pending);
      g_string_append (watch->pending, "{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\","
                                       "\"metadata\":{\"resourceVersion\":\"2000\"}}}\n");
      watch->cursor = MAX (watch->cursor, 2000);
    }
  g_mutex_unlock (&server.store);
  struct MHD_Response *response = MHD_create_response_from_callback (MHD_SIZE_UNKNOWN, 4096, read_watch, watch, free_watch);
  MHD_add_response_header (response, "Content-Type", "application/json");
  if (server.log != NULL)
    {
      g_mutex_lock (&server.lock);
      fprintf (server.log, "GET %s%s%s 200\n", url, *query_log ? "?" : "", query_log);
      fflush (server.log);
      g_mutex_unlock (&server.lock);
    }
  enum MHD_Result result = MHD_queue_response (connection, 200, response);
  MHD_destroy_response (response);
  return result;
}

static char *
discovery (const char *url)
{
  if (strcmp (url, "/version") == 0)
    return g_strdup ("{\"major\":\"1\",\"minor\":\"31\",\"gitVersion\":\"v1.31.0-fakeapi\",\"platform\":\"linux/amd64\"}");
  if (strcmp (url, "/api") == 0)
    return g_strdup ("{\"kind\":\"APIVersions\",\"versions\":[\"v1\"],\"serverAddressByClientCIDRs\":"
                     "[{\"clientCIDR\":\"0.0.0.0/0\",\"serverAddress\":\"127.0.0.1\"}]}");
  if (strcmp (url, "/apis") == 0)
    return group_list ();
  g_auto (GStrv) parts = g_strsplit (url + 1, "/", -1);
  guint n = g_strv_length (parts);
  if (n == 2 && strcmp (parts[0], "api") == 0 && strcmp (parts[1], "v1") == 0)
    return resource_list ("", "v1");
  if (n == 3 && strcmp (parts[0], "apis") == 0)
    for (gsize i = 0; i < G_N_ELEMENTS (types); i++)
      if (strcmp (types[i].group, parts[1]) == 0 && strcmp (types[i].version, parts[2]) == 0)
        return resource_list (parts[1], parts[2]);
  return NULL;
}

/* The objects a page holds: the client's limit, capped by --page-limit. */
static int
page_size (const char *limit)
{
  int asked = limit != NULL ? atoi (limit) : 0;
  if (server.page_limit > 0 && (asked <= 0 || asked > server.page_limit))
    return server.page_limit;
  return asked;
}

/* gone-on-continue:N:PATH: the object at PATH deleted, as a write between two pages would. */
static void
delete_gone (void)
{
  Target target;
  char *text = NULL;
  if (server.gone_delete != NULL && parse_target (server.gone_delete, &target) && target.name != NULL)
    write_object ("DELETE", &target, NULL, &text);
  g_free (text);
}

static gboolean parse_fault (const char *spec);

/* POST /fakeapi/fault?spec=SPEC: a fault added while the server runs; the watches open wake
 * to take theirs. */
static char *
fault_endpoint (struct MHD_Connection *connection, const char *method, int *code)
{
  const char *spec = MHD_lookup_connection_value (connection, MHD_GET_ARGUMENT_KIND, "spec");
  g_mutex_lock (&server.store);
  g_mutex_lock (&server.lock);
  gboolean ok = strcmp (method, "POST") == 0 && spec != NULL && parse_fault (spec);
  g_mutex_unlock (&server.lock);
  g_cond_broadcast (&server.changed);
  g_mutex_unlock (&server.store);
  *code = ok ? 200 : 400;
  return ok ? g_strdup ("{\"added\":true}") : status_json (400, "BadRequest", "POST with a valid spec");
}

/* A bearer token equal to --token, or a client certificate that --client-ca signed. */
static gboolean
authenticated (struct MHD_Connection *connection)
{
  const char *authorization = MHD_lookup_connection_value (connection, MHD_HEADER_KIND, "Authorization");
  if (server.token != NULL && authorization != NULL && g_str_has_prefix (authorization, "Bearer ")
      && strcmp (authorization + 7, server.token) == 0)
    return TRUE;
  if (!server.client_ca)
    return FALSE;
  const union MHD_ConnectionInfo *info = MHD_get_connection_info (connection, MHD_CONNECTION_INFO_GNUTLS_SESSION);
  unsigned int status = 0;
  return info != NULL && info->tls_session != NULL
         && gnutls_certificate_get_peers (info->tls_session, &(unsigned int){ 0 }) != NULL
         && gnutls_certificate_verify_peers2 (info->tls_session, &status) == GNUTLS_E_SUCCESS && status == 0;
}

static enum MHD_Result
on_request (void *cls, struct MHD_Connection *connection, const char *url, const char *method,
            const char *version, const char *upload_data, size_t *upload_size, void **state)
{
  if (*state == NULL)
    {
      *state = g_string_new (NULL); /* the body, freed by on_completed */
      return MHD_YES;
    }
  GString *body = *state;
  if (*upload_size > 0)
    {
      if (body->len < (16u << 20))
        g_string_append_len (body, upload_data, (gssize) *upload_size);
      *upload_size = 0;
      return MHD_YES;
    }
  if (server.slow_ms > 0)
    g_usleep ((gulong) server.slow_ms * 1000);
  g_autoptr (GString) query = g_string_new (NULL);
  MHD_get_connection_values (connection, MHD_GET_ARGUMENT_KIND, collect_query, query);
  gboolean write = strcmp (method, "POST") == 0 || strcmp (method, "PUT") == 0 || strcmp (method, "PATCH") == 0
                   || strcmp (method, "DELETE") == 0;
  if (strcmp (method, "GET") != 0 && !write)
    return answer (connection, url, query->str, 405, status_json (405, "MethodNotAllowed", "GET, POST, PUT, PATCH and DELETE are served"), FALSE, 0);
  if ((server.token != NULL || server.client_ca) && !authenticated (connection))
    return answer (connection, url, query->str, 401, status_json (401, "Unauthorized", "Unauthorized"), FALSE, 0);
  if (take_count (&server.html_error))
    return answer (connection, url, query->str, 400,
                   g_strdup ("<html>\n<body>\033[2J\033[31mBad Request\r\n\tfrom the proxy</body></html>\n"), FALSE, 0);
  const char *watch_flag = MHD_lookup_connection_value (connection, MHD_GET_ARGUMENT_KIND, "watch");
  gboolean watching = watch_flag != NULL && (strcmp (watch_flag, "1") == 0 || strcmp (watch_flag, "true") == 0);
  Target faulted;
  gboolean listing = !watching && !write && parse_target (url, &faulted) && faulted.name == NULL;
  int fault = take_status_fault (url, watching, listing);
  if (listing && fault == 0 && take_slow_list (url))
    g_usleep ((gulong) server.slow_list_ms * 1000);
  if (fault != 0)
    return answer (connection, url, query->str, fault,
                   status_json (fault, fault == 429 ? "TooManyRequests" : "InternalError",
                                fault == 429 ? "the server has received too many requests" : "injected fault"),
                   FALSE, fault == 429 ? server.retry_after : 0);
  if (strcmp (url, "/fakeapi/fault") == 0)
    {
      int code;
      char *added = fault_endpoint (connection, method, &code);
      return answer (connection, url, query->str, code, added, FALSE, 0);
    }
  if (g_str_has_prefix (url, "/fakeapi/"))
    {
      int code;
      char *churned = churn_endpoint (connection, url, method, &code);
      return answer (connection, url, query->str, code, churned, FALSE, 0);
    }
  char *text = discovery (url);
  if (text != NULL)
    return answer (connection, url, query->str, 200, text, FALSE, 0);
  Target target;
  if (!parse_target (url, &target))
    return answer (connection, url, query->str, 404,
                   status_json (404, "NotFound", "the server could not find the requested resource"), FALSE, 0);
  if (write)
    {
      char *written = NULL;
      int code = write_object (method, &target, body->str, &written);
      if (server.log != NULL)
        {
          g_mutex_lock (&server.lock);
          fprintf (server.log, "%s %s %d\n", method, url, code);
          fflush (server.log);
          g_mutex_unlock (&server.lock);
        }
      return answer (connection, url, query->str, code, written, FALSE, 0);
    }
  if (target.name != NULL)
    {
      g_mutex_lock (&server.store);
      for (guint i = 0; i < server.objects->len; i++)
        {
          const Object *object = server.objects->pdata[i];
          if (object->type == target.type && g_strcmp0 (object->name, target.name) == 0
              && (target.namespace == NULL || g_strcmp0 (object->namespace, target.namespace) == 0))
            {
              char *json = g_strdup (object->json);
              g_mutex_unlock (&server.store);
              return answer (connection, url, query->str, 200, json, FALSE, 0);
            }
        }
      g_mutex_unlock (&server.store);
      g_autofree char *message = g_strdup_printf ("%s \"%s\" not found", target.type->resource, target.name);
      return answer (connection, url, query->str, 404, status_json (404, "NotFound", message), FALSE, 0);
    }
  if (watching)
    return answer_watch (connection, url, query->str, &target);
  const char *token = MHD_lookup_connection_value (connection, MHD_GET_ARGUMENT_KIND, "continue");
  if (token != NULL && take_count (&server.gone_on_continue))
    return delete_gone (), answer (connection, url, query->str, 410,
                   status_json (410, "Expired", "The provided continue parameter is too old to display a consistent list result."),
                   FALSE, 0);
  const char *limit = MHD_lookup_connection_value (connection, MHD_GET_ARGUMENT_KIND, "limit");
  int offset = offset_of (token);
  if (offset < 0)
    return answer (connection, url, query->str, 400, status_json (400, "BadRequest", "bad continue token"), FALSE, 0);
  if (token != NULL && server.repeat_continue && limit != NULL)
    offset = MAX (0, offset - atoi (limit));
  int next;
  g_mutex_lock (&server.store);
  text = list_json (&target, MHD_lookup_connection_value (connection, MHD_GET_ARGUMENT_KIND, "fieldSelector"),
                    MHD_lookup_connection_value (connection, MHD_GET_ARGUMENT_KIND, "labelSelector"),
                    page_size (limit), offset, &next);
  g_mutex_unlock (&server.store);
  return answer (connection, url, query->str, 200, text, take_count (&server.cut), 0);
}

/* ---- main --------------------------------------------------------------------------------- */

static gboolean
parse_fault (const char *spec)
{
  g_auto (GStrv) parts = g_strsplit (spec, ":", 4);
  guint n = g_strv_length (parts);
  FaultScope scope = strcmp (parts[0], "list-status") == 0 ? FAULT_LISTS
                     : strcmp (parts[0], "watch-status") == 0 ? FAULT_WATCHES : FAULT_ANY;
  if (n >= 3 && (strcmp (parts[0], "status") == 0 || scope != FAULT_ANY))
    {
      StatusFault *fault = g_new0 (StatusFault, 1);
      fault->code = atoi (parts[1]);
      fault->count = atoi (parts[2]);
      fault->prefix = n > 3 ? g_strdup (parts[3]) : NULL;
      fault->scope = scope;
      g_ptr_array_add (server.status_faults, fault);
      return fault->code >= 400 && fault->count > 0;
    }
  if (n == 2 && strcmp (parts[0], "retry-after") == 0)
    return (server.retry_after = atoi (parts[1])) > 0;
  if (n >= 2 && strcmp (parts[0], "gone-on-continue") == 0)
    {
      g_free (server.gone_delete);
      server.gone_delete = n > 2 ? g_strdup (parts[2]) : NULL;
      return (server.gone_on_continue = atoi (parts[1])) > 0;
    }
  if (n == 2 && strcmp (parts[0], "html-error") == 0)
    return (server.html_error = atoi (parts[1])) > 0;
  if (n == 2 && strcmp (parts[0], "repeat-continue") == 0)
    return (server.repeat_continue = atoi (parts[1])) > 0;
  if (n == 2 && strcmp (parts[0], "cut") == 0)
    return (server.cut = atoi (parts[1])) > 0;
  if (n >= 2 && strcmp (parts[0], "gone-on-watch") == 0)
    {
      g_free (server.gone_prefix);
      server.gone_prefix = n > 2 ? g_strdup (parts[2]) : NULL;
      server.gone_code = 410;
      return (server.gone_on_watch = atoi (parts[1])) > 0;
    }
  if (n >= 3 && strcmp (parts[0], "watch-error") == 0)
    {
      g_free (server.gone_prefix);
      server.gone_prefix = n > 3 ? g_strdup (parts[3]) : NULL;
      server.gone_code = atoi (parts[1]);
      return server.gone_code >= 400 && (server.gone_on_watch = atoi (parts[2])) > 0;
    }
  if (n >= 2 && strcmp (parts[0], "watch-empty") == 0)
    {
      g_free (server.empty_prefix);
      server.empty_prefix = n > 2 ? g_strdup (parts[2]) : NULL;
      return (server.watch_empty = atoi (parts[1])) > 0;
    }
  if (n == 2 && strcmp (parts[0], "watch-cut") == 0)
    return (server.watch_cut = atoi (parts[1])) > 0;
  if (n >= 3 && strcmp (parts[0], "slow-list") == 0)
    {
      g_free (server.slow_list_prefix);
      server.slow_list_prefix = n > 3 ? g_strdup (parts[3]) : NULL;
      server.slow_list_ms = atoi (parts[1]);
      return server.slow_list_ms > 0 && (server.slow_lists = atoi (parts[2])) > 0;
    }
  if (n == 2 && strcmp (parts[0], "slow") == 0)
    return (server.slow_ms = atoi (parts[1])) > 0;
  return FALSE;
}

static volatile sig_atomic_t stopping;

static void
on_completed (void *cls, struct MHD_Connection *connection, void **state, enum MHD_RequestTerminationCode code)
{
  if (*state != NULL)
    g_string_free (*state, TRUE);
  *state = NULL;
}

static void
on_signal (int signal_number)
{
  stopping = 1;
}

int
main (int argc, char **argv)
{
  gint port = 0, history = 100000;
  server.bookmark_ms = 1000;
  g_autofree char *port_file = NULL, *cert = NULL, *key = NULL, *log = NULL, *client_ca = NULL;
  g_auto (GStrv) faults = NULL;
  GOptionEntry entries[] = {
    { "port", 0, 0, G_OPTION_ARG_INT, &port, "Port (0: any free one)", "N" },
    { "port-file", 0, 0, G_OPTION_ARG_FILENAME, &port_file, "Write the port here once listening", "FILE" },
    { "tls-cert", 0, 0, G_OPTION_ARG_FILENAME, &cert, "Serve HTTPS with this certificate (PEM)", "FILE" },
    { "tls-key", 0, 0, G_OPTION_ARG_FILENAME, &key, "... and this key", "FILE" },
    { "token", 0, 0, G_OPTION_ARG_STRING, &server.token, "Require this bearer token", "TOKEN" },
    { "client-ca", 0, 0, G_OPTION_ARG_FILENAME, &client_ca, "Accept client certificates this CA signed", "FILE" },
    { "fault", 0, 0, G_OPTION_ARG_STRING_ARRAY, &faults, "Inject a fault (see the source)", "SPEC" },
    { "watch-events", 0, 0, G_OPTION_ARG_FILENAME, &server.watch_events, "Watch events to stream", "FILE" },
    { "log", 0, 0, G_OPTION_ARG_FILENAME, &log, "Log requests here", "FILE" },
    { "bookmark-ms", 0, 0, G_OPTION_ARG_INT, &server.bookmark_ms, "A watch quiet this long gets a BOOKMARK (default 1000; 0: never)", "MS" },
    { "history", 0, 0, G_OPTION_ARG_INT, &history, "Events kept for watches to resume from (default 100000)", "N" },
    { "page-limit", 0, 0, G_OPTION_ARG_INT, &server.page_limit, "Objects per page at most, whatever the client asks", "N" },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("FILE.json... - a fake Kubernetes API server");
  g_option_context_add_main_entries (context, entries, NULL);
  g_autoptr (GError) error = NULL;
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "fakeapi: %s\n", error->message);
      return 2;
    }
  server.objects = g_ptr_array_new ();
  server.roots = g_ptr_array_new ();
  server.status_faults = g_ptr_array_new ();
  server.events = g_ptr_array_new ();
  server.scripted = g_hash_table_new (NULL, NULL);
  server.rv = 1000;
  server.history = (guint) MAX (history, 1);
  for (char **fault = faults; fault != NULL && *fault != NULL; fault++)
    if (!parse_fault (*fault))
      {
        fprintf (stderr, "fakeapi: bad --fault \"%s\"\n", *fault);
        return 2;
      }
  for (int i = 1; i < argc; i++)
    if (!load_file (argv[i]))
      return 2;
  g_ptr_array_sort (server.objects, compare_objects);
  for (guint i = 0; i < server.objects->len; i++)
    {
      Object *object = server.objects->pdata[i];
      yajl_gen gen = yajl_gen_alloc (NULL);
      gen_object (gen, object);
      object->json = gen_finish (gen);
    }
  if (log != NULL && (server.log = fopen (log, "a")) == NULL)
    {
      fprintf (stderr, "fakeapi: %s: cannot write\n", log);
      return 2;
    }
  g_autofree char *cert_pem = NULL, *key_pem = NULL, *trust_pem = NULL;
  server.client_ca = client_ca != NULL;
  if ((cert != NULL && !g_file_get_contents (cert, &cert_pem, NULL, &error))
      || (key != NULL && !g_file_get_contents (key, &key_pem, NULL, &error))
      || (client_ca != NULL && !g_file_get_contents (client_ca, &trust_pem, NULL, &error)))
    {
      fprintf (stderr, "fakeapi: %s\n", error->message);
      return 2;
    }
  if (history < 1)
    {
      fprintf (stderr, "fakeapi: --history must be positive\n");
      return 2;
    }
  unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_ERROR_LOG;
  if (cert_pem != NULL)
    flags |= MHD_USE_TLS;
  struct MHD_Daemon *daemon
      = cert_pem != NULL
            ? (trust_pem != NULL
                   ? MHD_start_daemon (flags, (uint16_t) port, NULL, NULL, on_request, NULL, MHD_OPTION_NOTIFY_COMPLETED, on_completed, NULL, MHD_OPTION_HTTPS_MEM_CERT,
                                       cert_pem, MHD_OPTION_HTTPS_MEM_KEY, key_pem, MHD_OPTION_HTTPS_MEM_TRUST,
                                       trust_pem, MHD_OPTION_END)
                   : MHD_start_daemon (flags, (uint16_t) port, NULL, NULL, on_request, NULL, MHD_OPTION_NOTIFY_COMPLETED, on_completed, NULL, MHD_OPTION_HTTPS_MEM_CERT,
                                       cert_pem, MHD_OPTION_HTTPS_MEM_KEY, key_pem, MHD_OPTION_END))
            : MHD_start_daemon (flags, (uint16_t) port, NULL, NULL, on_request, NULL, MHD_OPTION_NOTIFY_COMPLETED, on_completed, NULL, MHD_OPTION_END);
  if (daemon == NULL)
    {
      fprintf (stderr, "fakeapi: cannot listen on port %d\n", port);
      return 2;
    }
  const union MHD_DaemonInfo *info = MHD_get_daemon_info (daemon, MHD_DAEMON_INFO_BIND_PORT);
  printf ("%u\n", info->port);
  fflush (stdout);
  if (port_file != NULL)
    {
      g_autofree char *text = g_strdup_printf ("%u\n", info->port);
      g_autofree char *partial = g_strconcat (port_file, ".tmp", NULL);
      if (g_file_set_contents (partial, text, -1, NULL))
        rename (partial, port_file);
    }
  signal (SIGTERM, on_signal);
  signal (SIGINT, on_signal);
  while (!stopping)
    g_usleep (100000);
  g_mutex_lock (&server.store);
  server.stopping = TRUE;
  g_cond_broadcast (&server.changed);
  g_mutex_unlock (&server.store);
  MHD_stop_daemon (daemon);
  return 0;
}
