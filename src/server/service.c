/* fitscale — the HTTP JSON service (see include/fitscale/server/service.h). */
#include "config.h"

#include <glib-unix.h>
#include <string.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "fitscale/kube/body.h"
#include "fitscale/kube/tree.h"
#include "fitscale/model/error.h"
#include "fitscale/model/timeutil.h"
#include "fitscale/plan/capacity.h"
#include "fitscale/plan/completeness.h"
#include "fitscale/plan/plan.h"
#include "fitscale/plan/request.h"
#include "fitscale/plan/shape.h"
#include "fitscale/plan/why.h"
#include "fitscale/render/capacity.h"
#include "fitscale/render/plan.h"
#include "fitscale/render/why.h"
#include "fitscale/server/admit.h"
#include "fitscale/server/service.h"

#define MAX_JSON_DEPTH 32
#define CACHE_TTL_US (1 * G_USEC_PER_SEC)
#define CACHE_ENTRIES 4096

static const char *const resource_names[FS_HVPA_N_RESOURCES] = { "cpu", "memory" };

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

struct FsService {
  FsSnapshot *offline;         /* --snapshot files, else NULL */
  FsKubeLive *live;            /* else the live cluster */
  FsServer *server;
  gint plans[3];               /* by outcome: unchanged, adjusted, infeasible */
  gint stopping;
  FsKubeCacheOptions watch;    /* live: how the cache watches */
  double ready_limit;          /* live: /readyz fails past this many seconds unconfirmed */
  int verbosity;
  gint64 loaded_at;            /* offline: when the files were read */
  GMutex cache_lock;
  GHashTable *plan_cache;      /* "snapshot pointer|body" -> CachedPlan */
  gint cache_hits;
  FsSnapshot *warned;          /* the snapshot SNAPSHOT_WARNINGS were found for (a reference: its
                                * address is not reused while the cache holds it) */
  GArray *snapshot_warnings;   /* fs_snapshot_warnings of WARNED: found once per snapshot */
  FsPlanMemo *memo;            /* what plans on the current snapshot share (plan/memo.h): the
                                * service owns it, guarded by cache_lock; fs_plan_memo_for
                                * replaces it, and so drops the old snapshot's, when a request
                                * comes for a new snapshot (requests in flight keep theirs) */
  FsAdmitter *admitter;        /* POST /v1/admit (server/admit.h) */
};

static char *
cache_lookup (FsService *service, const char *key, FsPlanOutcome *outcome)
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
cache_store (FsService *service, const char *key, const char *body, FsPlanOutcome outcome)
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
current_snapshot (FsService *service)
{
  return service->live != NULL ? fs_kube_cache_snapshot (service->live->cache) : fs_snapshot_ref (service->offline);
}

/* Live: seconds since the PodMetrics were last listed (-1: not listed); offline: -1. */
static double
metrics_age (FsService *service)
{
  return service->live != NULL ? fs_kube_cache_listing_age (service->live->cache, "pods.metrics.k8s.io") : -1;
}

/* Live: how long the least recently confirmed listing has gone without an event, a
 * bookmark or a list (kube/watch.h fs_kube_cache_staleness); offline: since the files were
 * read. */
static double
snapshot_age (FsService *service)
{
  if (service->live != NULL)
    return fs_kube_cache_staleness (service->live->cache, NULL);
  return (double) (g_get_real_time () - service->loaded_at) / G_USEC_PER_SEC;
}

/* Live and unconfirmed for longer than --max-staleness: why (the listing and its error), else NULL. */
static char *
stale_reason (FsService *service)
{
  const char *listing = NULL;
  double age = fs_kube_cache_staleness (service->live->cache, &listing);
  if (age <= service->ready_limit || listing == NULL)
    return NULL;
  guint n = 0;
  FsKubeListingStatus *status = fs_kube_cache_listing_status (service->live->cache, &n);
  const char *error = NULL;
  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (status[i].name, listing) == 0)
      error = status[i].error;
  char *reason = g_strdup_printf ("%s not confirmed current for %.1f s (over --max-staleness %g s)%s%s", listing, age,
                                  service->ready_limit, error != NULL ? ": " : "", error != NULL ? error : "");
  fs_kube_listing_status_free (status, n);
  return reason;
}

/* What every answer on SNAPSHOT warns of first (plan/completeness.h): what the snapshot
 * lacks, the listings the cluster refused, and a watch that has been failing. */
static GArray *
answer_warnings (FsService *service, FsSnapshot *snapshot)
{
  GArray *warnings = fs_warnings_new ();
  g_mutex_lock (&service->cache_lock);
  if (service->warned != snapshot)
    {
      g_clear_pointer (&service->warned, fs_snapshot_unref);
      g_clear_pointer (&service->snapshot_warnings, g_array_unref);
      service->snapshot_warnings = fs_snapshot_warnings (snapshot, FS_NEEDS_NODES | FS_NEEDS_NODE_USAGE);
      service->warned = fs_snapshot_ref (snapshot);
    }
  for (guint i = 0; i < service->snapshot_warnings->len; i++)
    {
      const FsWarning *warning = &g_array_index (service->snapshot_warnings, FsWarning, i);
      fs_warnings_add (warnings, warning->kind, g_strdup (warning->text));
    }
  if (service->live != NULL)
    {
      fs_warnings_take (warnings, fs_listing_warnings (service->live->skipped));
      g_autofree char *stale = stale_reason (service);
      if (stale != NULL)
        fs_warnings_take (warnings, fs_stale_warnings (snapshot_age (service), stale));
    }
  g_mutex_unlock (&service->cache_lock);
  return warnings;
}

/* The emitter of an answer about pods of SPEC (NAME: "pod default/web-0", "Deployment
 * default/web"): the snapshot's warnings, then what the answer cannot say for that spec
 * (a filter fitscale does not model, plan/completeness.h fs_pod_spec_warnings) and, when the
 * answer is about NEW pods of it, what they cannot be promised (fs_template_warnings). */
static FsEmitter *
answer_emitter (FsService *service, FsSnapshot *snapshot, const FsPodSpec *spec, const char *name,
                gboolean new_pods)
{
  g_autoptr (GArray) warnings = answer_warnings (service, snapshot);
  if (spec != NULL)
    fs_pod_spec_warnings (spec, name, warnings);
  if (spec != NULL && new_pods)
    fs_template_warnings (snapshot, spec, name, warnings);
  FsEmitter *emitter = fs_emitter_new_answer_string (warnings);
  fs_emitter_set_snapshot (emitter, snapshot->resource_version, snapshot_age (service), metrics_age (service));
  return emitter;
}

/* ---- JSON bodies ------------------------------------------------------------------------- */

/* Whether CONTENT_TYPE names application/json: the media type before any parameter
 * ("; charset=utf-8"), without blanks, compared without regard to case (RFC 9110 8.3.1), and
 * exactly: application/jsonx is another type. */
static gboolean
media_type_is_json (const char *content_type)
{
  if (content_type == NULL)
    return FALSE;
  const char *end = strchr (content_type, ';');
  g_autofree char *type = g_strndup (content_type, end != NULL ? (gsize) (end - content_type) : strlen (content_type));
  return g_ascii_strcasecmp (g_strstrip (type), "application/json") == 0;
}

/* The body as a JSON object in POOL, or an error answer (415, 400). */
static const FsTree *
parse_body (const FsHttpRequest *request, FsPool *pool, FsHttpResponse *response)
{
  if (!media_type_is_json (request->content_type))
    {
      fs_http_error (response, 415, "UnsupportedMediaType", "send the body as application/json");
      return NULL;
    }
  g_autoptr (GError) error = NULL;
  const FsTree *body = fs_json_body_parse (pool, request->body, request->body_length, MAX_JSON_DEPTH, &error);
  if (body == NULL)
    fs_http_error (response, 400, "BadRequest", "%s", error->message);
  return body;
}

/* Whether every key of OBJECT is one of ALLOWED; else a 400 naming the first other one. */
static gboolean
known_fields (const FsTree *object, const char *const *allowed, FsHttpResponse *response)
{
  for (guint i = 0; i < object->n; i++)
    if (!g_strv_contains (allowed, object->keys[i]))
      {
        fs_http_error (response, 400, "BadRequest", "unknown field \"%s\"", object->keys[i]);
        return FALSE;
      }
  return TRUE;
}

/* The string at KEY, NULL when absent; *BAD when present and not a string. */
static const char *
string_field (const FsTree *object, const char *key, gboolean *bad)
{
  const FsTree *value = fs_tree_at (object, key);
  if (value != NULL && value->type != FS_TREE_STRING)
    *bad = TRUE;
  return value != NULL && value->type == FS_TREE_STRING ? value->text : NULL;
}

/* The integer at KEY (any int64) in *OUT, as the request check takes it. */
static FsPlanGiven
int_field (const FsTree *object, const char *key, int64_t *out)
{
  if (fs_tree_at (object, key) == NULL)
    return FS_PLAN_ABSENT;
  return fs_tree_int (object, key, G_MININT64, G_MAXINT64, out, NULL) ? FS_PLAN_GIVEN : FS_PLAN_WRONG_TYPE;
}

/* The number at KEY as written, in *TEXT. */
static FsPlanGiven
number_field (const FsTree *object, const char *key, const char **text)
{
  const FsTree *value = fs_tree_at (object, key);
  *text = value != NULL ? value->text : NULL;
  return value == NULL ? FS_PLAN_ABSENT : value->type == FS_TREE_NUMBER ? FS_PLAN_GIVEN : FS_PLAN_WRONG_TYPE;
}

static void
answer_error (FsHttpResponse *response, const GError *error)
{
  int status = error->code == FS_ERROR_NOT_FOUND ? 404 : 422;
  fs_http_error (response, status, status == 404 ? "NotFound" : "Invalid", "%s", error->message);
}

/* ---- POST /v1/plan ----------------------------------------------------------------------- */

/* One VPA target's amounts as the check reads them: cpu, then memory, those given. */
typedef FsPlanAmountInput TargetAmounts[FS_HVPA_N_RESOURCES];

/* vpaTarget, {CONTAINER: {cpu: Q, memory: Q}}, into INPUT; another resource is a 400, and
 * what the check rejects (not a map, too many, not a quantity) is left to it. */
static gboolean
read_targets (const FsTree *targets, FsPlanRequestInput *input, TargetAmounts *amounts, FsHttpResponse *response)
{
  static const char *const allowed[] = { "cpu", "memory", NULL };
  if (targets == NULL)
    return TRUE;
  gboolean is_map = targets->type == FS_TREE_MAP;
  input->vpa_targets_given = is_map ? FS_PLAN_GIVEN : FS_PLAN_WRONG_TYPE;
  input->n_vpa_targets = is_map ? targets->n : 0;
  for (guint i = 0; is_map && targets->n <= FS_PLAN_MAX_TARGETS && i < targets->n; i++)
    {
      FsPlanTargetInput *target = &input->vpa_targets[i];
      const FsTree *resources = targets->values[i];
      target->container = g_intern_string (targets->keys[i]);
      target->given = resources->type == FS_TREE_MAP ? FS_PLAN_GIVEN : FS_PLAN_WRONG_TYPE;
      if (target->given == FS_PLAN_WRONG_TYPE)
        continue;
      if (!known_fields (resources, allowed, response))
        return FALSE;
      target->amounts = amounts[i];
      for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
        {
          const FsTree *amount = fs_tree_at (resources, resource_names[r]);
          if (amount != NULL)
            amounts[i][target->n_amounts++] = (FsPlanAmountInput){
              (FsHvpaResource) r, amount->type == FS_TREE_STRING ? FS_PLAN_GIVEN : FS_PLAN_WRONG_TYPE, amount->text };
        }
    }
  return TRUE;
}

/* The body's fields as the request check's input (AMOUNTS holds what its targets point to),
 * and the "now" text: unknown fields are a 400, strings of another type a 422. */
static gboolean
read_plan_input (const FsTree *body, FsPlanRequestInput *input, TargetAmounts *amounts, const char **now,
                 FsHttpResponse *response)
{
  static const char *const allowed[] = { "namespace", "kind", "name", "hpaDesiredReplicas", "hpaFrom", "vpaTarget",
                                         "vpaWeight", "semantics", "steps", "now", "update", NULL };
  if (!known_fields (body, allowed, response))
    return FALSE;
  memset (input, 0, sizeof *input);
  input->form = FS_PLAN_FROM_JSON;
  gboolean bad = FALSE;
  const char *kind = string_field (body, "kind", &bad);
  const char *name = string_field (body, "name", &bad);
  const char *namespace = string_field (body, "namespace", &bad);
  input->semantics = string_field (body, "semantics", &bad);
  input->hpa_from = string_field (body, "hpaFrom", &bad);
  input->update = string_field (body, "update", &bad);
  *now = string_field (body, "now", &bad);
  if (bad || kind == NULL || name == NULL)
    {
      fs_http_error (response, 422, "Invalid", "kind and name are required strings (namespace, semantics, hpaFrom, "
                                              "update and now are strings too)");
      return FALSE;
    }
  input->kind = g_intern_string (kind);
  input->name = g_intern_string (name);
  input->namespace = g_intern_string (namespace != NULL ? namespace : "default");
  input->hpa_desired_given = int_field (body, "hpaDesiredReplicas", &input->hpa_desired);
  input->steps_given = int_field (body, "steps", &input->steps);
  input->vpa_weight_given = number_field (body, "vpaWeight", &input->vpa_weight);
  return read_targets (fs_tree_at (body, "vpaTarget"), input, amounts, response);
}

/* The plan request in BODY, checked; else an error answer. */
static gboolean
read_plan_request (const FsTree *body, FsPlanRequest *request, FsHttpResponse *response)
{
  FsPlanRequestInput input;
  TargetAmounts amounts[FS_PLAN_MAX_TARGETS];
  const char *now = NULL;
  g_autoptr (GError) error = NULL;
  if (!read_plan_input (body, &input, amounts, &now, response))
    return FALSE;
  if (!fs_plan_request_check (&input, request, &error))
    {
      answer_error (response, error);
      return FALSE;
    }
  int64_t seconds = g_get_real_time () / G_USEC_PER_SEC;
  if (now != NULL && !fs_time_parse (now, strlen (now), &seconds))
    {
      fs_http_error (response, 422, "Invalid", "field now: an RFC 3339 time");
      return FALSE;
    }
  request->now_ms = seconds * 1000;
  return TRUE;
}

/* The plan document with the snapshot's resourceVersion and age first. */
static char *
plan_body (FsService *service, FsSnapshot *snapshot, const FsPlanAnswer *answer)
{
  g_autoptr (GArray) warnings = answer_warnings (service, snapshot);
  if (answer->workload != NULL)
    {
      g_autofree char *name = g_strdup_printf ("%s %s/%s", fs_workload_kind_name (answer->workload->kind),
                                               answer->workload->namespace, answer->workload->name);
      fs_pod_spec_warnings (answer->workload->template, name, warnings);
      fs_template_warnings (snapshot, answer->workload->template, name, warnings);
    }
  fs_warnings_take (warnings, fs_plan_answer_warnings (answer));
  FsEmitter *emitter = fs_emitter_new_answer_string (warnings);
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "snapshot");
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "resourceVersion");
  fs_emit_string (emitter, snapshot->resource_version);
  fs_emit_key (emitter, "ageSeconds");
  fs_emit_decimal (emitter, snapshot_age (service), 3);
  fs_emit_key (emitter, "metricsAgeSeconds");
  if (metrics_age (service) >= 0)
    fs_emit_decimal (emitter, metrics_age (service), 3);
  else
    fs_emit_null (emitter);
  fs_emit_map_close (emitter);
  fs_render_plan_fields (emitter, answer);
  fs_emit_map_close (emitter);
  return fs_emitter_take_string (emitter);
}

/* Answers REQUEST on the current snapshot, from the cache when it can. */
static void
answer_plan (FsService *service, const FsHttpRequest *http, const FsPlanRequest *request, FsHttpResponse *response)
{
  g_autoptr (FsSnapshot) snapshot = current_snapshot (service);
  g_autoptr (FsPlanMemo) memo = snapshot != NULL ? fs_plan_memo_for (&service->memo, &service->cache_lock, snapshot)
                                                 : NULL;
  g_autofree char *key = g_strdup_printf ("%p|%s", (void *) snapshot, http->body);
  FsPlanOutcome outcome;
  g_autoptr (GError) error = NULL;
  g_autoptr (FsPlanAnswer) answer = NULL;
  if ((response->body = cache_lookup (service, key, &outcome)) != NULL)
    {
      g_atomic_int_inc (&service->cache_hits);
      g_atomic_int_inc (&service->plans[outcome]);
    }
  else if ((answer = fs_plan_shared (snapshot, memo, request, &error)) == NULL)
    answer_error (response, error);
  else
    {
      g_atomic_int_inc (&service->plans[answer->outcome]);
      response->body = plan_body (service, snapshot, answer);
      cache_store (service, key, response->body, answer->outcome);
    }
}

static void
handle_plan (const FsHttpRequest *request, FsHttpResponse *response, gpointer data)
{
  g_autoptr (FsPool) pool = fs_pool_new ();
  const FsTree *body = parse_body (request, pool, response);
  FsPlanRequest plan_request;
  if (body != NULL && read_plan_request (body, &plan_request, response))
    answer_plan (data, request, &plan_request, response);
}

/* ---- GET /v1/why/NAMESPACE/POD ----------------------------------------------------------- */

static void
handle_why (const FsHttpRequest *request, FsHttpResponse *response, gpointer data)
{
  FsService *service = data;
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
  g_autofree char *name = g_strdup_printf ("pod %s/%s", pod->namespace, pod->name);
  FsEmitter *emitter = answer_emitter (service, snapshot, pod->spec, name, FALSE);
  fs_render_diagnosis (emitter, snapshot, diagnosis, 0);
  response->body = fs_emitter_take_string (emitter);
}

/* ---- POST /v1/capacity ------------------------------------------------------------------ */

/* The capacity of the shape FROM names (KIND/NAME) or REQUEST spells, for REPLICAS (-1: no
 * replica count asked). */
static void
answer_capacity (FsService *service, const char *from, const FsShapeFlags *flags, int64_t replicas,
                 FsHttpResponse *response)
{
  g_autoptr (FsSnapshot) snapshot = current_snapshot (service);
  g_autoptr (GError) error = NULL;
  g_autoptr (FsShape) shape = from != NULL ? fs_shape_from_object (snapshot, from, flags, &error)
                                           : fs_shape_from_flags (flags, &error);
  if (shape == NULL
      || !fs_shape_check_scheduler (snapshot, fs_shape_pod (shape)->spec, fs_shape_describe (shape), &error))
    {
      answer_error (response, error);
      return;
    }
  g_autoptr (FsCapacityAnswer) answer = fs_capacity_answer (snapshot, fs_shape_pod (shape), replicas,
                                                            fs_shape_workload (shape));
  FsEmitter *emitter = answer_emitter (service, snapshot, fs_shape_pod (shape)->spec, fs_shape_describe (shape),
                                       TRUE);
  fs_render_capacity (emitter, snapshot, shape, answer, replicas);
  response->body = fs_emitter_take_string (emitter);
}

static void
handle_capacity (const FsHttpRequest *request, FsHttpResponse *response, gpointer data)
{
  static const char *const allowed[] = { "namespace", "from", "request", "replicas", NULL };
  g_autoptr (FsPool) pool = fs_pool_new ();
  const FsTree *body = parse_body (request, pool, response);
  if (body == NULL)
    return;
  gboolean bad = FALSE;
  int64_t replicas = -1;
  const char *from = string_field (body, "from", &bad);
  const char *shape_request = string_field (body, "request", &bad);
  const char *namespace = string_field (body, "namespace", &bad);
  gboolean has_replicas = fs_tree_at (body, "replicas") != NULL;
  if (!known_fields (body, allowed, response))
    return;
  if (has_replicas && !fs_tree_int (body, "replicas", 0, 1000000, &replicas, NULL))
    fs_http_error (response, 422, "Invalid", "field replicas: an integer from 0 to 1000000");
  else if (bad || (from == NULL) == (shape_request == NULL))
    fs_http_error (response, 422, "Invalid", "give one of from (KIND/NAME) and request (\"cpu=..,memory=..\"), as strings");
  else
    {
      FsShapeFlags flags = { .request = shape_request, .namespace = namespace };
      answer_capacity (data, from, &flags, has_replicas ? replicas : -1, response);
    }
}

/* ---- POST /v1/admit (server/admit.h) ---------------------------------------------------- */

static void
handle_admit (const FsHttpRequest *request, FsHttpResponse *response, gpointer data)
{
  FsService *service = data;
  g_autoptr (FsPool) pool = fs_pool_new ();
  const FsTree *body = parse_body (request, pool, response);
  if (body == NULL)
    return;
  g_autoptr (FsSnapshot) snapshot = current_snapshot (service);
  g_autofree char *stale = snapshot != NULL && service->live != NULL ? stale_reason (service) : NULL;
  /* the plans of /v1/plan and of admission share the snapshot's memo (plan/memo.h): a write
   * planned on 5,000 nodes then measures its candidates on loads computed once per workload */
  g_autoptr (FsPlanMemo) memo = snapshot != NULL ? fs_plan_memo_for (&service->memo, &service->cache_lock, snapshot)
                                                 : NULL;
  FsAdmitSnapshot state = { snapshot, snapshot != NULL ? snapshot_age (service) : 0, stale, memo };
  fs_admitter_answer (service->admitter, &state, body, response);
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
  FsService *service = data;
  g_autoptr (FsSnapshot) snapshot = current_snapshot (service);
  g_autofree char *stale = snapshot != NULL && service->live != NULL ? stale_reason (service) : NULL;
  if (snapshot == NULL)
    fs_http_error (response, 503, "ServiceUnavailable", "the cache has not synced yet");
  else if (stale != NULL)
    fs_http_error (response, 503, "ServiceUnavailable", "%s", stale);
  else
    handle_health (request, response, data);
}

static void
append_plan_metrics (FsService *service, GString *out)
{
  static const char *const outcomes[] = { "unchanged", "adjusted", "infeasible" };
  g_string_append (out, "# HELP fitscale_plans_total Plans answered, by outcome.\n# TYPE fitscale_plans_total counter\n");
  for (int i = 0; i < 3; i++)
    g_string_append_printf (out, "fitscale_plans_total{outcome=\"%s\"} %d\n", outcomes[i],
                            g_atomic_int_get (&service->plans[i]));
  g_string_append_printf (out, "# HELP fitscale_plan_cache_hits_total Plans answered from the one-second cache.\n"
                               "# TYPE fitscale_plan_cache_hits_total counter\nfitscale_plan_cache_hits_total %d\n",
                          g_atomic_int_get (&service->cache_hits));
}

static void
append_snapshot_metrics (FsService *service, GString *out)
{
  g_autoptr (FsSnapshot) snapshot = current_snapshot (service);
  /* its name is kept (dashboards and docs/api.md use it); what it measures is staleness */
  g_string_append_printf (out, "# HELP fitscale_snapshot_age_seconds Seconds since the least recently confirmed watched "
                               "resource was last confirmed current (list, event, bookmark); offline, since the files were read.\n"
                               "# TYPE fitscale_snapshot_age_seconds gauge\nfitscale_snapshot_age_seconds %.3f\n",
                          snapshot_age (service));
  g_string_append (out, "# HELP fitscale_snapshot_objects Objects in the snapshot, by kind.\n"
                        "# TYPE fitscale_snapshot_objects gauge\n");
  g_string_append_printf (out, "fitscale_snapshot_objects{kind=\"Node\"} %u\nfitscale_snapshot_objects{kind=\"Pod\"} %u\n"
                               "fitscale_snapshot_objects{kind=\"workload\"} %u\nfitscale_snapshot_objects{kind=\"autoscaler\"} %u\n",
                          snapshot->n_nodes, snapshot->n_pods, snapshot->n_workloads, snapshot->n_generic);
}

static void
append_watch_metrics (FsService *service, GString *out)
{
  FsKubeCacheStats cache = fs_kube_cache_stats (service->live->cache);
  const FsKubeClientStats *client = fs_kube_client_stats (service->live->client);
  g_string_append_printf (out, "# HELP fitscale_watch_restarts_total Resources listed again after a 410 or an ERROR event.\n"
                               "# TYPE fitscale_watch_restarts_total counter\nfitscale_watch_restarts_total %u\n"
                               "# HELP fitscale_watch_events_total Watch events applied.\n"
                               "# TYPE fitscale_watch_events_total counter\nfitscale_watch_events_total %" G_GUINT64_FORMAT "\n"
                               "# HELP fitscale_apiserver_requests_total Requests sent to the API server.\n"
                               "# TYPE fitscale_apiserver_requests_total counter\nfitscale_apiserver_requests_total %u\n"
                               "# HELP fitscale_apiserver_retries_total Requests to the API server that were retried.\n"
                               "# TYPE fitscale_apiserver_retries_total counter\nfitscale_apiserver_retries_total %u\n",
                          cache.relists, cache.events, client->requests, client->retries);
  fs_kube_cache_append_metrics (service->live->cache, out);
}

static void
handle_metrics (const FsHttpRequest *request, FsHttpResponse *response, gpointer data)
{
  FsService *service = data;
  GString *out = g_string_new (NULL);
  fs_server_metrics (service->server, out);
  append_plan_metrics (service, out);
  fs_admitter_append_metrics (service->admitter, out);
  append_snapshot_metrics (service, out);
  if (service->live != NULL)
    append_watch_metrics (service, out);
  response->body = g_string_free (out, FALSE);
  response->content_type = "text/plain; version=0.0.4";
}

/* ---- the service, its watch thread and its main loop -------------------------------------- */

static FsService *
service_new (void)
{
  FsService *service = g_new0 (FsService, 1);
  g_mutex_init (&service->cache_lock);
  service->plan_cache = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, cached_plan_free);
  service->admitter = fs_admitter_new (&(FsAdmitOptions){ .mode = FS_ADMIT_WARN, .max_age = 120 });
  return service;
}

FsService *
fs_service_new_offline (FsSnapshot *snapshot)
{
  FsService *service = service_new ();
  service->offline = snapshot;
  service->loaded_at = g_get_real_time ();
  return service;
}

FsService *
fs_service_new_live (FsKubeLive *live, const FsKubeCacheOptions *watch, double ready_limit)
{
  FsService *service = service_new ();
  service->live = live;
  service->watch = *watch;
  service->ready_limit = ready_limit;
  return service;
}

void
fs_service_free (FsService *service)
{
  if (service == NULL)
    return;
  g_clear_pointer (&service->server, fs_server_free);
  fs_snapshot_unref (service->offline);
  g_hash_table_unref (service->plan_cache);
  g_mutex_clear (&service->cache_lock);
  fs_snapshot_unref (service->warned);
  fs_plan_memo_unref (service->memo);
  if (service->snapshot_warnings != NULL)
    g_array_unref (service->snapshot_warnings);
  fs_kube_live_free (service->live);
  fs_admitter_free (service->admitter);
  g_free (service);
}

static void
add_routes (FsService *service)
{
  fs_server_route (service->server, "POST", "/v1/plan", "plan", handle_plan, service);
  fs_server_route (service->server, "POST", "/v1/capacity", "capacity", handle_capacity, service);
  fs_server_route (service->server, "POST", "/v1/admit", "admit", handle_admit, service);
  fs_server_route (service->server, "GET", "/v1/why", "why", handle_why, service);
  fs_server_route (service->server, "GET", "/healthz", "healthz", handle_health, service);
  fs_server_route (service->server, "GET", "/livez", "livez", handle_health, service);
  fs_server_route (service->server, "GET", "/readyz", "readyz", handle_ready, service);
  fs_server_route (service->server, "GET", "/metrics", "metrics", handle_metrics, service);
}

/* A plan the memo has not seen allocates arrays of a few MB per packing (per-node loads and
 * fits, the estimator's node arrays).  glibc gives blocks that large back to the kernel on
 * free (mmap, or trimming the worker threads' arenas), and the next request takes every page
 * again as a page fault that the kernel zeroes: on 5,000 nodes that doubled the time of such
 * a plan under load.  Kept in the arenas instead, they are reused; what is kept is bounded by
 * the largest request's working set per worker thread. */
static void
keep_freed_memory (void)
{
#if defined(__GLIBC__)
  mallopt (M_MMAP_THRESHOLD, 64 * 1024 * 1024);
  mallopt (M_TRIM_THRESHOLD, 256 * 1024 * 1024);
#endif
}

gboolean
fs_service_start (FsService *service, const FsServerOptions *options, GError **error)
{
  keep_freed_memory ();
  service->verbosity = options->verbosity;
  service->server = fs_server_new (options);
  add_routes (service);
  if (fs_server_start (service->server, error))
    return TRUE;
  g_clear_pointer (&service->server, fs_server_free);
  return FALSE;
}

void
fs_service_set_admission (FsService *service, const FsAdmitOptions *options)
{
  fs_admitter_free (service->admitter);
  service->admitter = fs_admitter_new (options);
}

guint16
fs_service_port (const FsService *service)
{
  return fs_server_port (service->server);
}

static gboolean
on_stop_signal (gpointer loop)
{
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

void
fs_service_run (FsService *service)
{
  char port[16];
  g_snprintf (port, sizeof port, "%u", fs_service_port (service));
  fs_log (1, service->verbosity, "serving", "port", port, "source", service->live != NULL ? "live" : "snapshot", NULL);
  g_autoptr (GError) error = NULL;
  if (service->live != NULL && !fs_kube_cache_start (service->live->cache, &service->watch, &error))
    fs_log (0, service->verbosity, "cannot start the watches; answering on the first list", "error", error->message, NULL);
  g_autoptr (GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_unix_signal_add (SIGTERM, on_stop_signal, loop);
  g_unix_signal_add (SIGINT, on_stop_signal, loop);
  g_main_loop_run (loop);
  fs_log (1, service->verbosity, "stopping: finishing the requests in flight", NULL);
  fs_server_stop (service->server);
  g_atomic_int_set (&service->stopping, 1);
  g_clear_pointer (&service->server, fs_server_free);
  if (service->live != NULL)
    {
      char threads[16];
      g_snprintf (threads, sizeof threads, "%u", fs_kube_cache_stop (service->live->cache));
      fs_log (1, service->verbosity, "stopped: the watch threads joined", "threads", threads, NULL);
    }
}
