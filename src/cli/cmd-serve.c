/* fitscale serve — the planner, why and capacity as an HTTP JSON service (docs/api.md), on
 * snapshot files or on a live cluster kept current by the watch cache. */
#include "config.h"

#include <glib-unix.h>
#include <stdio.h>
#include <string.h>
#include <yajl/yajl_tree.h>

#include "commands.h"
#include "fitscale/model/error.h"
#include "fitscale/model/quantity.h"
#include "fitscale/render/capacity.h"
#include "fitscale/render/plan.h"
#include "fitscale/render/why.h"
#include "fitscale/server/server.h"
#include "fitscale/model/timeutil.h"

#define SERVE_RESOURCES (FS_KUBE_NODES | FS_KUBE_PODS | FS_KUBE_NAMESPACES | FS_KUBE_WORKLOADS | FS_KUBE_HPAS \
                         | FS_KUBE_VPAS | FS_KUBE_HVPAS | FS_KUBE_POD_METRICS | FS_KUBE_EVENTS)
#define MAX_JSON_DEPTH 32
#define MAX_API_STEPS 200   /* 1,000 replica counts x 200 steps: 8 MB a request at most */
#define CACHE_TTL_US (1 * G_USEC_PER_SEC)
#define CACHE_ENTRIES 4096

/* A plan is a pure function of the snapshot and the request (and of the time, through the
 * HVPA's windows): an answer is reused for the same snapshot and body within a second. */
typedef struct {
  char *body;
  FsPlanOutcome outcome;
  gint64 expires;
} CachedPlan;

static void
cached_plan_free (gpointer data)
{
  CachedPlan *cached = data;
  g_free (cached->body);
  g_free (cached);
}

typedef struct {
  FsSnapshot *offline;         /* --snapshot files, else NULL */
  FsKubeLive *live;
  gboolean is_live;
  FsServer *server;
  gint plans[3];               /* by outcome: unchanged, adjusted, infeasible */
  gint stopping;
  guint watch_timeout;
  int verbosity;
  gint64 loaded_at;            /* offline: when the files were read */
  GMutex cache_lock;
  GHashTable *plan_cache;      /* "snapshot pointer|body" -> CachedPlan */
  gint cache_hits;
} Service;

static char *
cache_lookup (Service *service, const char *key, FsPlanOutcome *outcome)
{
  char *body = NULL;
  g_mutex_lock (&service->cache_lock);
  CachedPlan *cached = g_hash_table_lookup (service->plan_cache, key);
  if (cached != NULL && cached->expires > g_get_monotonic_time ())
    {
      body = g_strdup (cached->body);
      *outcome = cached->outcome;
    }
  g_mutex_unlock (&service->cache_lock);
  return body;
}

static void
cache_store (Service *service, const char *key, const char *body, FsPlanOutcome outcome)
{
  CachedPlan *cached = g_new (CachedPlan, 1);
  *cached = (CachedPlan){ g_strdup (body), outcome, g_get_monotonic_time () + CACHE_TTL_US };
  g_mutex_lock (&service->cache_lock);
  if (g_hash_table_size (service->plan_cache) >= CACHE_ENTRIES)
    g_hash_table_remove_all (service->plan_cache);
  g_hash_table_replace (service->plan_cache, g_strdup (key), cached);
  g_mutex_unlock (&service->cache_lock);
}

static FsSnapshot *
current_snapshot (Service *service)
{
  return service->is_live ? fs_kube_cache_snapshot (service->live->cache) : fs_snapshot_ref (service->offline);
}

static double
snapshot_age (Service *service)
{
  gint64 at = service->is_live ? fs_kube_cache_stats (service->live->cache).synced_at : service->loaded_at;
  return (double) (g_get_real_time () - at) / G_USEC_PER_SEC;
}

/* ---- JSON bodies ------------------------------------------------------------------------- */

static guint
depth_of (yajl_val value)
{
  guint deepest = 0;
  if (YAJL_IS_OBJECT (value))
    for (size_t i = 0; i < value->u.object.len; i++)
      deepest = MAX (deepest, depth_of (value->u.object.values[i]));
  else if (YAJL_IS_ARRAY (value))
    for (size_t i = 0; i < value->u.array.len; i++)
      deepest = MAX (deepest, depth_of (value->u.array.values[i]));
  else
    return 0;
  return deepest + 1;
}

/* The body as a JSON object, or an error answer (415, 400). */
static yajl_val
parse_body (const FsHttpRequest *request, FsHttpResponse *response)
{
  if (request->content_type == NULL || !g_str_has_prefix (request->content_type, "application/json"))
    {
      fs_http_error (response, 415, "UnsupportedMediaType", "send the body as application/json");
      return NULL;
    }
  /* yajl_tree recurses: refuse deep nesting before it parses */
  guint depth = 0, deepest = 0;
  for (gsize i = 0; i < request->body_length; i++)
    {
      char c = request->body[i];
      depth += c == '{' || c == '[';
      depth -= (c == '}' || c == ']') && depth > 0;
      deepest = MAX (deepest, depth);
    }
  if (deepest > MAX_JSON_DEPTH)
    {
      fs_http_error (response, 400, "BadRequest", "the body nests deeper than %d", MAX_JSON_DEPTH);
      return NULL;
    }
  char problem[256] = "";
  yajl_val root = yajl_tree_parse (request->body, problem, sizeof problem);
  if (root == NULL || !YAJL_IS_OBJECT (root) || depth_of (root) > MAX_JSON_DEPTH)
    {
      g_strdelimit (problem, "\n", ' ');
      fs_http_error (response, 400, "BadRequest", "the body is not a JSON object%s%s", *problem ? ": " : "",
                     g_strstrip (problem));
      yajl_tree_free (root);
      return NULL;
    }
  return root;
}

/* Whether every key of OBJECT is one of ALLOWED; else a 400 naming the first other one. */
static gboolean
known_fields (yajl_val object, const char *const *allowed, FsHttpResponse *response)
{
  for (size_t i = 0; i < object->u.object.len; i++)
    if (!g_strv_contains (allowed, object->u.object.keys[i]))
      {
        fs_http_error (response, 400, "BadRequest", "unknown field \"%s\"", object->u.object.keys[i]);
        return FALSE;
      }
  return TRUE;
}

static const char *
string_field (yajl_val object, const char *key, gboolean *bad)
{
  const char *path[] = { key, NULL };
  yajl_val value = yajl_tree_get (object, path, yajl_t_any);
  if (value != NULL && !YAJL_IS_STRING (value))
    *bad = TRUE;
  return value != NULL && YAJL_IS_STRING (value) ? value->u.string : NULL;
}

static gboolean
int_field (yajl_val object, const char *key, int64_t min, int64_t max, gboolean *present, int64_t *out,
           FsHttpResponse *response)
{
  const char *path[] = { key, NULL };
  yajl_val value = yajl_tree_get (object, path, yajl_t_any);
  *present = value != NULL;
  if (value == NULL)
    return TRUE;
  if (!YAJL_IS_INTEGER (value) || YAJL_GET_INTEGER (value) < min || YAJL_GET_INTEGER (value) > max)
    {
      fs_http_error (response, 422, "Invalid", "field %s: an integer from %" G_GINT64_FORMAT " to %" G_GINT64_FORMAT,
                     key, min, max);
      return FALSE;
    }
  *out = YAJL_GET_INTEGER (value);
  return TRUE;
}

static char *
emit_to_string (void (*write) (FsEmitter *emitter, gpointer data), gpointer data)
{
  char *buffer = NULL;
  size_t size = 0;
  FILE *out = open_memstream (&buffer, &size);
  {
    g_autoptr (FsEmitter) emitter = fs_emitter_new (FS_OUTPUT_JSON_COMPACT, out);
    write (emitter, data);
  }
  fclose (out);
  char *body = g_strdup (g_strchomp (buffer));
  free (buffer);
  return body;
}

/* ---- POST /v1/plan ----------------------------------------------------------------------- */

static gboolean
read_vpa_targets (yajl_val targets, FsPlanRequest *request, FsHttpResponse *response)
{
  if (targets == NULL)
    return TRUE;
  if (!YAJL_IS_OBJECT (targets) || targets->u.object.len > FS_PLAN_MAX_TARGETS)
    {
      fs_http_error (response, 422, "Invalid", "field vpaTarget: {CONTAINER: {cpu: Q, memory: Q}}, at most %d",
                     FS_PLAN_MAX_TARGETS);
      return FALSE;
    }
  for (size_t i = 0; i < targets->u.object.len; i++)
    {
      FsPlanVpaTarget *target = &request->vpa_targets[request->n_vpa_targets++];
      target->container = g_intern_string (targets->u.object.keys[i]);
      yajl_val amounts = targets->u.object.values[i];
      static const char *const resources[] = { "cpu", "memory", NULL };
      if (!YAJL_IS_OBJECT (amounts) || !known_fields (amounts, resources, response))
        {
          if (!YAJL_IS_OBJECT (amounts))
            fs_http_error (response, 422, "Invalid", "field vpaTarget.%s: {cpu: Q, memory: Q}", target->container);
          return FALSE;
        }
      for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
        {
          gboolean bad = FALSE;
          const char *text = string_field (amounts, resources[r], &bad);
          g_autoptr (GError) error = NULL;
          if (text == NULL && !bad)
            continue;
          gboolean ok = text != NULL && (r == FS_HVPA_CPU ? fs_quantity_parse_milli (text, strlen (text), &target->amount[r], &error)
                                                          : fs_quantity_parse_value (text, strlen (text), &target->amount[r], &error));
          if (!ok || target->amount[r] <= 0)
            {
              fs_http_error (response, 422, "Invalid", "field vpaTarget.%s.%s: %s", target->container, resources[r],
                             error != NULL ? error->message : "a positive quantity as a string");
              return FALSE;
            }
          target->has[r] = TRUE;
        }
    }
  return TRUE;
}

static gboolean
read_plan_request (yajl_val body, FsPlanRequest *request, FsHttpResponse *response)
{
  static const char *const allowed[] = { "namespace", "kind", "name", "hpaDesiredReplicas", "hpaFrom", "vpaTarget",
                                         "vpaWeight", "semantics", "steps", "now", NULL };
  if (!known_fields (body, allowed, response))
    return FALSE;
  memset (request, 0, sizeof *request);
  gboolean bad = FALSE, present = FALSE;
  const char *kind = string_field (body, "kind", &bad);
  const char *name = string_field (body, "name", &bad);
  const char *namespace = string_field (body, "namespace", &bad);
  const char *semantics = string_field (body, "semantics", &bad);
  const char *hpa_from = string_field (body, "hpaFrom", &bad);
  const char *now = string_field (body, "now", &bad);
  if (bad || kind == NULL || name == NULL)
    {
      fs_http_error (response, 422, "Invalid", "kind and name are required strings (namespace, semantics, hpaFrom "
                                              "and now are strings too)");
      return FALSE;
    }
  request->kind = g_intern_string (kind);
  request->name = g_intern_string (name);
  request->namespace = g_intern_string (namespace != NULL ? namespace : "default");
  if (!fs_hvpa_semantics_parse (semantics, &request->semantics))
    {
      fs_http_error (response, 422, "Invalid", "field semantics: design or hvpa");
      return FALSE;
    }
  request->hpa_source = g_strcmp0 (hpa_from, "metrics") == 0 ? FS_PLAN_HPA_METRICS : FS_PLAN_HPA_STATUS;
  int64_t number = 0, seconds = g_get_real_time () / G_USEC_PER_SEC;
  if (now != NULL && !fs_time_parse (now, strlen (now), &seconds))
    {
      fs_http_error (response, 422, "Invalid", "field now: an RFC 3339 time");
      return FALSE;
    }
  request->now_ms = seconds * 1000;
  if (!int_field (body, "hpaDesiredReplicas", 1, G_MAXINT32, &present, &number, response))
    return FALSE;
  request->has_hpa_desired = present;
  request->hpa_desired = (int32_t) number;
  if (!int_field (body, "steps", 2, MAX_API_STEPS, &present, &number, response))
    return FALSE;
  request->steps = present ? (guint) number : 0;
  const char *weight_path[] = { "vpaWeight", NULL };
  yajl_val weight = yajl_tree_get (body, weight_path, yajl_t_any);
  if (weight != NULL && (!YAJL_IS_NUMBER (weight) || YAJL_GET_DOUBLE (weight) < 0 || YAJL_GET_DOUBLE (weight) > 1))
    {
      fs_http_error (response, 422, "Invalid", "field vpaWeight: a number from 0 to 1");
      return FALSE;
    }
  request->has_vpa_weight = weight != NULL;
  request->vpa_weight = weight != NULL ? YAJL_GET_DOUBLE (weight) : 0;
  const char *target_path[] = { "vpaTarget", NULL };
  return read_vpa_targets (yajl_tree_get (body, target_path, yajl_t_any), request, response);
}

typedef struct {
  Service *service;
  const FsSnapshot *snapshot;
  const FsPlanAnswer *answer;
} PlanDocument;

static void
write_snapshot_info (FsEmitter *emitter, Service *service, const FsSnapshot *snapshot)
{
  fs_emit_key (emitter, "snapshot");
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "resourceVersion");
  fs_emit_string (emitter, snapshot->resource_version);
  fs_emit_key (emitter, "ageSeconds");
  fs_emit_decimal (emitter, snapshot_age (service), 3);
  fs_emit_map_close (emitter);
}

static void
write_plan (FsEmitter *emitter, gpointer data)
{
  PlanDocument *document = data;
  fs_emit_map_open (emitter);
  write_snapshot_info (emitter, document->service, document->snapshot);
  fs_render_plan_fields (emitter, document->answer);
  fs_emit_map_close (emitter);
}

static void
answer_error (FsHttpResponse *response, const GError *error)
{
  int status = error->code == FS_ERROR_NOT_FOUND ? 404 : 422;
  fs_http_error (response, status, status == 404 ? "NotFound" : "Invalid", "%s", error->message);
}

static void
handle_plan (const FsHttpRequest *request, FsHttpResponse *response, gpointer data)
{
  Service *service = data;
  yajl_val body = parse_body (request, response);
  if (body == NULL)
    return;
  FsPlanRequest plan_request;
  if (read_plan_request (body, &plan_request, response))
    {
      g_autoptr (FsSnapshot) snapshot = current_snapshot (service);
      g_autofree char *key = g_strdup_printf ("%p|%s", (void *) snapshot, request->body);
      FsPlanOutcome outcome;
      g_autoptr (GError) error = NULL;
      g_autoptr (FsPlanAnswer) answer = NULL;
      if ((response->body = cache_lookup (service, key, &outcome)) != NULL)
        {
          g_atomic_int_inc (&service->cache_hits);
          g_atomic_int_inc (&service->plans[outcome]);
        }
      else if ((answer = fs_plan (snapshot, &plan_request, &error)) == NULL)
        answer_error (response, error);
      else
        {
          g_atomic_int_inc (&service->plans[answer->outcome]);
          PlanDocument document = { service, snapshot, answer };
          response->body = emit_to_string (write_plan, &document);
          cache_store (service, key, response->body, answer->outcome);
        }
    }
  yajl_tree_free (body);
}

/* ---- GET /v1/why/NAMESPACE/POD ----------------------------------------------------------- */

typedef struct {
  Service *service;
  const FsSnapshot *snapshot;
  const FsDiagnosis *diagnosis;
} WhyDocument;

static void
write_why (FsEmitter *emitter, gpointer data)
{
  WhyDocument *document = data;
  fs_render_diagnosis (emitter, document->snapshot, document->diagnosis, 0);
}

static void
handle_why (const FsHttpRequest *request, FsHttpResponse *response, gpointer data)
{
  Service *service = data;
  g_auto (GStrv) parts = g_strsplit (request->tail[0] == '/' ? request->tail + 1 : request->tail, "/", -1);
  if (g_strv_length (parts) != 2 || *parts[0] == '\0' || *parts[1] == '\0')
    {
      fs_http_error (response, 404, "NotFound", "ask for /v1/why/NAMESPACE/POD");
      return;
    }
  g_autoptr (FsSnapshot) snapshot = current_snapshot (service);
  const FsPod *pod = fs_snapshot_find_pod (snapshot, parts[0], parts[1]);
  if (pod == NULL)
    {
      fs_http_error (response, 404, "NotFound", "pod \"%s\" not found in namespace \"%s\"", parts[1], parts[0]);
      return;
    }
  g_autoptr (FsDiagnosis) diagnosis = fs_diagnose (snapshot, pod);
  WhyDocument document = { service, snapshot, diagnosis };
  response->body = emit_to_string (write_why, &document);
}

/* ---- POST /v1/capacity ------------------------------------------------------------------ */

typedef struct {
  const FsSnapshot *snapshot;
  const FsShape *shape;
  const FsCapacityAnswer *answer;
  int64_t replicas;
} CapacityDocument;

static void
write_capacity (FsEmitter *emitter, gpointer data)
{
  CapacityDocument *document = data;
  fs_render_capacity (emitter, document->snapshot, document->shape, document->answer, document->replicas);
}

static void
handle_capacity (const FsHttpRequest *request, FsHttpResponse *response, gpointer data)
{
  Service *service = data;
  static const char *const allowed[] = { "namespace", "from", "request", "replicas", NULL };
  yajl_val body = parse_body (request, response);
  if (body == NULL)
    return;
  gboolean bad = FALSE, present = FALSE;
  int64_t replicas = -1;
  const char *from = string_field (body, "from", &bad);
  const char *shape_request = string_field (body, "request", &bad);
  const char *namespace = string_field (body, "namespace", &bad);
  if (!known_fields (body, allowed, response) || !int_field (body, "replicas", 0, 1000000, &present, &replicas, response))
    ;
  else if (bad || (from == NULL) == (shape_request == NULL))
    fs_http_error (response, 422, "Invalid", "give one of from (KIND/NAME) and request (\"cpu=..,memory=..\"), as strings");
  else
    {
      g_autoptr (FsSnapshot) snapshot = current_snapshot (service);
      FsShapeFlags flags = { .request = shape_request, .namespace = namespace };
      g_autoptr (GError) error = NULL;
      g_autoptr (FsShape) shape = from != NULL ? fs_shape_from_object (snapshot, from, &flags, &error)
                                               : fs_shape_from_flags (&flags, &error);
      if (shape == NULL)
        answer_error (response, error);
      else
        {
          g_autoptr (FsCapacityAnswer) answer = fs_capacity_answer (snapshot, fs_shape_pod (shape), present ? replicas : -1,
                                                                    fs_shape_workload (shape));
          CapacityDocument document = { snapshot, shape, answer, present ? replicas : -1 };
          response->body = emit_to_string (write_capacity, &document);
        }
    }
  yajl_tree_free (body);
}

/* ---- health and metrics ------------------------------------------------------------------ */

static void
handle_health (const FsHttpRequest *request, FsHttpResponse *response, gpointer data)
{
  response->body = g_strdup ("ok");
  response->content_type = "text/plain";
}

static void
handle_ready (const FsHttpRequest *request, FsHttpResponse *response, gpointer data)
{
  g_autoptr (FsSnapshot) snapshot = current_snapshot (data);
  if (snapshot == NULL)
    fs_http_error (response, 503, "ServiceUnavailable", "the cache has not synced yet");
  else
    handle_health (request, response, data);
}

static void
handle_metrics (const FsHttpRequest *request, FsHttpResponse *response, gpointer data)
{
  Service *service = data;
  GString *out = g_string_new (NULL);
  fs_server_metrics (service->server, out);
  static const char *const outcomes[] = { "unchanged", "adjusted", "infeasible" };
  g_string_append (out, "# HELP fitscale_plans_total Plans answered, by outcome.\n# TYPE fitscale_plans_total counter\n");
  for (int i = 0; i < 3; i++)
    g_string_append_printf (out, "fitscale_plans_total{outcome=\"%s\"} %d\n", outcomes[i],
                            g_atomic_int_get (&service->plans[i]));
  g_string_append_printf (out, "# HELP fitscale_plan_cache_hits_total Plans answered from the one-second cache.\n"
                               "# TYPE fitscale_plan_cache_hits_total counter\nfitscale_plan_cache_hits_total %d\n",
                          g_atomic_int_get (&service->cache_hits));
  g_autoptr (FsSnapshot) snapshot = current_snapshot (service);
  g_string_append_printf (out, "# HELP fitscale_snapshot_age_seconds Time since the snapshot last changed.\n"
                               "# TYPE fitscale_snapshot_age_seconds gauge\nfitscale_snapshot_age_seconds %.3f\n",
                          snapshot_age (service));
  g_string_append (out, "# HELP fitscale_snapshot_objects Objects in the snapshot, by kind.\n"
                        "# TYPE fitscale_snapshot_objects gauge\n");
  g_string_append_printf (out, "fitscale_snapshot_objects{kind=\"Node\"} %u\nfitscale_snapshot_objects{kind=\"Pod\"} %u\n"
                               "fitscale_snapshot_objects{kind=\"workload\"} %u\nfitscale_snapshot_objects{kind=\"autoscaler\"} %u\n",
                          snapshot->n_nodes, snapshot->n_pods, snapshot->n_workloads, snapshot->n_generic);
  if (service->is_live)
    {
      FsKubeCacheStats cache = fs_kube_cache_stats (service->live->cache);
      const FsKubeClientStats *client = fs_kube_client_stats (service->live->client);
      g_string_append_printf (out, "# HELP fitscale_watch_restarts_total Lists made again after a 410.\n"
                                   "# TYPE fitscale_watch_restarts_total counter\nfitscale_watch_restarts_total %u\n"
                                   "# HELP fitscale_watch_events_total Watch events applied.\n"
                                   "# TYPE fitscale_watch_events_total counter\nfitscale_watch_events_total %u\n"
                                   "# HELP fitscale_apiserver_requests_total Requests sent to the API server.\n"
                                   "# TYPE fitscale_apiserver_requests_total counter\nfitscale_apiserver_requests_total %u\n"
                                   "# HELP fitscale_apiserver_retries_total Requests to the API server that were retried.\n"
                                   "# TYPE fitscale_apiserver_retries_total counter\nfitscale_apiserver_retries_total %u\n",
                              cache.relists, cache.events, client->requests, client->retries);
    }
  response->body = g_string_free (out, FALSE);
  response->content_type = "text/plain; version=0.0.4";
}

/* ---- the watch thread and the main loop --------------------------------------------------- */

static gpointer
watch_thread (gpointer data)
{
  Service *service = data;
  while (!g_atomic_int_get (&service->stopping))
    {
      gboolean changed = FALSE;
      g_autoptr (GError) error = NULL;
      if (!fs_kube_cache_watch (service->live->cache, service->watch_timeout, &changed, &error))
        {
          fs_log (0, service->verbosity, "watch failed; retrying", "error", error->message, NULL);
          for (int i = 0; i < 20 && !g_atomic_int_get (&service->stopping); i++)
            g_usleep (100000);
        }
    }
  return NULL;
}

static gboolean
on_stop_signal (gpointer loop)
{
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

static void
add_routes (Service *service)
{
  fs_server_route (service->server, "POST", "/v1/plan", "plan", handle_plan, service);
  fs_server_route (service->server, "POST", "/v1/capacity", "capacity", handle_capacity, service);
  fs_server_route (service->server, "GET", "/v1/why", "why", handle_why, service);
  fs_server_route (service->server, "GET", "/healthz", "healthz", handle_health, service);
  fs_server_route (service->server, "GET", "/livez", "livez", handle_health, service);
  fs_server_route (service->server, "GET", "/readyz", "readyz", handle_ready, service);
  fs_server_route (service->server, "GET", "/metrics", "metrics", handle_metrics, service);
}

static int
run (Service *service, const FsServerOptions *server_options)
{
  service->server = fs_server_new (server_options);
  add_routes (service);
  g_autoptr (GError) error = NULL;
  if (!fs_server_start (service->server, &error))
    {
      fs_server_free (service->server);
      return fs_cli_fail ("serve", error);
    }
  char port[16];
  g_snprintf (port, sizeof port, "%u", fs_server_port (service->server));
  printf ("%s\n", port);
  fflush (stdout);
  fs_log (1, service->verbosity, "serving", "port", port, "source", service->is_live ? "live" : "snapshot", NULL);
  GThread *watcher = service->is_live ? g_thread_new ("watch", watch_thread, service) : NULL;
  g_autoptr (GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_unix_signal_add (SIGTERM, on_stop_signal, loop);
  g_unix_signal_add (SIGINT, on_stop_signal, loop);
  g_main_loop_run (loop);
  fs_log (1, service->verbosity, "stopping: finishing the requests in flight", NULL);
  fs_server_stop (service->server);
  g_atomic_int_set (&service->stopping, 1);
  if (watcher != NULL)
    g_thread_join (watcher);
  fs_server_free (service->server);
  return FS_EXIT_OK;
}

int
fs_cmd_serve (int argc, char **argv)
{
  FsCommonOptions common = { 0 };
  g_autofree char *listen = NULL, *tls_cert = NULL, *tls_key = NULL;
  gint verbosity = 1, max_in_flight = 64, max_body_kib = 1024, threads = 0, watch_timeout = 5;
  GOptionEntry entries[] = {
    { "listen", 0, 0, G_OPTION_ARG_STRING, &listen, "Address to listen on: HOST:PORT, :PORT (default :8443); port 0 picks one", "ADDR" },
    { "tls-cert", 0, 0, G_OPTION_ARG_FILENAME, &tls_cert, "Serve HTTPS with this certificate (PEM)", "FILE" },
    { "tls-key", 0, 0, G_OPTION_ARG_FILENAME, &tls_key, "... and this key (PEM)", "FILE" },
    { "threads", 0, 0, G_OPTION_ARG_INT, &threads, "Worker threads (default: one per processor)", "N" },
    { "max-in-flight", 0, 0, G_OPTION_ARG_INT, &max_in_flight, "Requests answered at once; more get 503 (default 64)", "N" },
    { "max-body", 0, 0, G_OPTION_ARG_INT, &max_body_kib, "Largest request body in KiB; more get 413 (default 1024)", "KIB" },
    { "watch-timeout", 0, 0, G_OPTION_ARG_INT, &watch_timeout, "Live: seconds each watch request stays open (default 5)", "S" },
    { "verbosity", 'v', 0, G_OPTION_ARG_INT, &verbosity, "Log level: 0 errors, 1 start and stop (default), 2 every request", "N" },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("- the planner as an HTTP JSON service");
  g_option_context_set_summary (
      context,
      "Answers POST /v1/plan (the fitscale plan -o json document, with the snapshot's\n"
      "resourceVersion and age), POST /v1/capacity, GET /v1/why/NAMESPACE/POD, /healthz,\n"
      "/livez, /readyz and /metrics (Prometheus), on --snapshot files or on the live cluster,\n"
      "which a watch cache keeps current (each request keeps the snapshot it started with).\n"
      "Errors are Kubernetes Status objects.  SIGTERM finishes the requests in flight and\n"
      "exits 0.  The API: docs/api.md and docs/openapi.yaml.  Prints the port once listening.");
  g_option_context_add_main_entries (context, entries, NULL);
  fs_cli_add_common (context, &common, TRUE);
  Service service = { .watch_timeout = (guint) MAX (watch_timeout, 1) };
  g_mutex_init (&service.cache_lock);
  service.plan_cache = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, cached_plan_free);
  int status = FS_EXIT_OK;
  if (!fs_cli_parse (context, "serve", &argc, &argv))
    status = FS_EXIT_ERROR;
  else if (argc > 1 || max_in_flight < 1 || max_body_kib < 1 || threads < 0)
    {
      fprintf (stderr, "fitscale serve: takes no arguments; --max-in-flight and --max-body are positive\n");
      status = FS_EXIT_ERROR;
    }
  else if (common.snapshot_paths != NULL)
    {
      service.offline = fs_cli_load ("serve", &common, SERVE_RESOURCES);
      service.loaded_at = g_get_real_time ();
      status = service.offline != NULL ? FS_EXIT_OK : FS_EXIT_ERROR;
    }
  else
    {
      g_autoptr (GError) error = NULL;
      service.live = fs_kube_live_open (&common.connection, SERVE_RESOURCES, fs_cli_live_progress (&common), NULL,
                                        &error);
      service.is_live = service.live != NULL;
      if (service.is_live)
        fs_cli_live_opened ("serve", &common, service.live);
      else
        status = fs_cli_fail ("serve", error);
    }
  service.verbosity = verbosity;
  service.watch_timeout = (guint) MAX (watch_timeout, 1);
  if (status == FS_EXIT_OK)
    {
      const char *delay = g_getenv ("FS_SERVE_TEST_DELAY_MS"); /* tests: requests that stay in flight */
      FsServerOptions options = { listen, tls_cert, tls_key, (guint) threads, (guint) max_in_flight,
                                  (gsize) max_body_kib << 10, 10, verbosity,
                                  delay != NULL ? (guint) g_ascii_strtoull (delay, NULL, 10) : 0 };
      status = run (&service, &options);
    }
  fs_snapshot_unref (service.offline);
  g_hash_table_unref (service.plan_cache);
  g_mutex_clear (&service.cache_lock);
  fs_kube_live_free (service.live);
  fs_cli_common_clear (&common);
  return status;
}
