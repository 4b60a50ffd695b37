/* fitscale — POST /v1/admit (see include/fitscale/server/admit.h). */
#include "config.h"

#include <string.h>

#include "fitscale/kube/body.h"
#include "fitscale/kube/tree.h"
#include "fitscale/model/error.h"
#include "fitscale/render/output.h"
#include "fitscale/server/admit.h"

#define API_VERSION "admission.k8s.io/v1"

struct FsAdmitter {
  FsAdmitOptions options;
  char **exempt_users;
  gint counts[FS_ADMIT_N_VERDICTS][FS_ADMIT_N_MODES];
};

FsAdmitter *
fs_admitter_new (const FsAdmitOptions *options)
{
  FsAdmitter *admitter = g_new0 (FsAdmitter, 1);
  admitter->options = *options;
  admitter->exempt_users = g_strdupv ((char **) options->exempt_users);
  admitter->options.exempt_users = (const char *const *) admitter->exempt_users;
  return admitter;
}

void
fs_admitter_free (FsAdmitter *admitter)
{
  if (admitter == NULL)
    return;
  g_strfreev (admitter->exempt_users);
  g_free (admitter);
}

/* ---- reading the review -------------------------------------------------------------------- */

typedef struct {
  const char *path;             /* "request.userInfo" */
  const FsTree *map;
  GError **error;
} Fields;

/* Whether every key of F's map is one of ALLOWED; else an error naming the first other one. */
static gboolean
only_fields (const Fields *f, const char *const *allowed)
{
  for (guint i = 0; i < f->map->n; i++)
    if (!g_strv_contains (allowed, f->map->keys[i]))
      {
        g_set_error (f->error, FS_ERROR, FS_ERROR_INVALID, "%s: unknown field \"%s\"", f->path, f->map->keys[i]);
        return FALSE;
      }
  return TRUE;
}

/* The value of KEY when it has TYPE (null counts as absent); FALSE with an error when it has
 * another, or when REQUIRED and absent. */
static gboolean
typed (const Fields *f, const char *key, FsTreeType type, gboolean required, const FsTree **out)
{
  static const char *const type_names[] = { "null", "a boolean", "a number", "a string", "an object", "a list" };
  const FsTree *value = NULL;
  for (guint i = 0; i < f->map->n; i++)
    if (strcmp (f->map->keys[i], key) == 0)
      value = f->map->values[i];
  if (value != NULL && value->type == FS_TREE_NULL)
    value = NULL;
  if (value != NULL && value->type != type)
    {
      g_set_error (f->error, FS_ERROR, FS_ERROR_INVALID, "%s.%s: %s, not %s", f->path, key, type_names[type],
                   type_names[value->type]);
      return FALSE;
    }
  if (value == NULL && required)
    {
      g_set_error (f->error, FS_ERROR, FS_ERROR_INVALID, "%s.%s: required", f->path, key);
      return FALSE;
    }
  *out = value;
  return TRUE;
}

static gboolean
string_at (const Fields *f, const char *key, gboolean required, const char **out)
{
  const FsTree *value = NULL;
  if (!typed (f, key, FS_TREE_STRING, required, &value))
    return FALSE;
  *out = value != NULL ? value->text : NULL;
  return TRUE;
}

/* A GroupVersionResource or GroupVersionKind: the three strings, nothing else. */
static gboolean
read_group_version (const Fields *parent, const char *key, const char *last, gboolean required, const char **group,
                    const char **version, const char **name)
{
  const FsTree *map = NULL;
  if (!typed (parent, key, FS_TREE_MAP, required, &map))
    return FALSE;
  if (map == NULL)
    return TRUE;
  g_autofree char *path = g_strdup_printf ("%s.%s", parent->path, key);
  Fields f = { path, map, parent->error };
  const char *allowed[] = { "group", "version", last, NULL };
  const char *unused = NULL;
  return only_fields (&f, allowed) && string_at (&f, "group", FALSE, group != NULL ? group : &unused)
         && string_at (&f, "version", FALSE, version != NULL ? version : &unused)
         && string_at (&f, last, TRUE, name != NULL ? name : &unused);
}

static gboolean
read_user_info (const Fields *parent, const char **username)
{
  static const char *const allowed[] = { "username", "uid", "groups", "extra", NULL };
  const FsTree *map = NULL, *list = NULL;
  const char *uid = NULL;
  if (!typed (parent, "userInfo", FS_TREE_MAP, FALSE, &map))
    return FALSE;
  if (map == NULL)
    return TRUE;
  Fields f = { "request.userInfo", map, parent->error };
  return only_fields (&f, allowed) && string_at (&f, "username", FALSE, username) && string_at (&f, "uid", FALSE, &uid)
         && typed (&f, "groups", FS_TREE_LIST, FALSE, &list) && typed (&f, "extra", FS_TREE_MAP, FALSE, &list);
}

/* request: the AdmissionRequest's fields (k8s.io/api admission/v1 types.go AdmissionRequest). */
static gboolean
read_request (const FsTree *map, FsAdmitRequest *request, const FsTree **object, const FsTree **old_object,
              GError **error)
{
  static const char *const allowed[] = { "uid", "kind", "resource", "subResource", "requestKind", "requestResource",
                                         "requestSubResource", "name", "namespace", "operation", "userInfo",
                                         "object", "oldObject", "dryRun", "options", NULL };
  Fields f = { "request", map, error };
  const FsTree *dry_run = NULL, *options = NULL;
  const char *unused = NULL;
  if (!only_fields (&f, allowed) || !string_at (&f, "uid", TRUE, &request->uid)
      || !read_group_version (&f, "kind", "kind", TRUE, NULL, NULL, NULL)
      || !read_group_version (&f, "resource", "resource", TRUE, &request->group, &request->version, &request->resource)
      || !string_at (&f, "subResource", FALSE, &request->sub_resource)
      || !read_group_version (&f, "requestKind", "kind", FALSE, NULL, NULL, NULL)
      || !read_group_version (&f, "requestResource", "resource", FALSE, NULL, NULL, NULL)
      || !string_at (&f, "requestSubResource", FALSE, &unused) || !string_at (&f, "name", FALSE, &request->name)
      || !string_at (&f, "namespace", FALSE, &request->namespace)
      || !string_at (&f, "operation", TRUE, &request->operation) || !read_user_info (&f, &request->username)
      || !typed (&f, "object", FS_TREE_MAP, FALSE, object) || !typed (&f, "oldObject", FS_TREE_MAP, FALSE, old_object)
      || !typed (&f, "dryRun", FS_TREE_BOOL, FALSE, &dry_run) || !typed (&f, "options", FS_TREE_MAP, FALSE, &options))
    return FALSE;
  if (request->sub_resource != NULL && *request->sub_resource == '\0')
    request->sub_resource = NULL;
  request->dry_run = dry_run != NULL && strcmp (dry_run->text, "true") == 0;
  return TRUE;
}

/* The review around the request: apiVersion, kind and request, nothing else. */
static gboolean
read_review (const FsTree *body, FsAdmitRequest *request, const FsTree **object, const FsTree **old_object,
             GError **error)
{
  static const char *const allowed[] = { "apiVersion", "kind", "request", NULL };
  Fields f = { "AdmissionReview", body, error };
  const char *api_version = NULL, *kind = NULL;
  const FsTree *map = NULL;
  if (!only_fields (&f, allowed) || !string_at (&f, "apiVersion", TRUE, &api_version)
      || !string_at (&f, "kind", TRUE, &kind) || !typed (&f, "request", FS_TREE_MAP, TRUE, &map))
    return FALSE;
  if (strcmp (api_version, API_VERSION) != 0 || strcmp (kind, "AdmissionReview") != 0)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID,
                   "AdmissionReview: apiVersion %s and kind AdmissionReview, not \"%s\" and \"%s\" (set the webhook's "
                   "admissionReviewVersions to [v1])", API_VERSION, api_version, kind);
      return FALSE;
    }
  return read_request (map, request, object, old_object, error);
}

/* ---- the object ---------------------------------------------------------------------------- */

/* A Scale's spec.replicas (omitted when 0: autoscaling/v1 ScaleSpec `json:"replicas,omitempty"`). */
static gboolean
scale_replicas (const FsTree *object, const char *field, int32_t *out, GError **error)
{
  int64_t replicas = 0;
  GError *local = NULL;
  if (!fs_tree_int (object, "spec.replicas", 0, G_MAXINT32, &replicas, &local) && local != NULL)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "%s.spec.replicas: an integer from 0 to %d", field, G_MAXINT32);
      g_error_free (local);
      return FALSE;
    }
  *out = (int32_t) replicas;
  return TRUE;
}

/* What the written object holds for the decision. */
typedef struct {
  FsSnapshot *written;          /* a workload: the object decoded */
  FsWorkload workload;
  FsAdmitContainer containers[FS_ADMIT_MAX_CONTAINERS];
} Written;

static void
written_clear (Written *written)
{
  g_clear_pointer (&written->written, fs_snapshot_unref);
}

static gboolean
is_map (const FsTree *tree, const char *path)
{
  const FsTree *value = fs_tree_at (tree, path);
  return value != NULL && value->type == FS_TREE_MAP;
}

/* The object of a workload write, decoded by the decoders of kube/decode.h, and the maps of its
 * containers' resources. */
static gboolean
read_workload (FsAdmitRequest *request, const char *kind, const FsTree *object, Written *out, GError **error)
{
  FsSnapshotBuilder *builder = fs_snapshot_builder_new ();
  if (!fs_tree_decode_object (builder, "request.object", object, error))
    {
      fs_snapshot_builder_free (builder);
      return FALSE;
    }
  if ((out->written = fs_snapshot_builder_finish (builder, error)) == NULL)
    return FALSE;
  const FsWorkload *found = NULL;
  for (guint i = 0; i < out->written->n_workloads; i++)
    if (g_strcmp0 (fs_workload_kind_name (out->written->workloads[i].kind), kind) == 0)
      found = &out->written->workloads[i];
  if (found == NULL)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "request.object: not a %s, as request.resource says", kind);
      return FALSE;
    }
  out->workload = *found;
  /* the request names them (an object being created may leave the namespace out) */
  out->workload.namespace = g_intern_string (request->namespace != NULL ? request->namespace : "default");
  if (request->name != NULL && *request->name != '\0')
    out->workload.name = g_intern_string (request->name);
  request->workload = &out->workload;
  const FsTree *containers = fs_tree_at (object, "spec.template.spec.containers");
  for (guint j = 0; containers != NULL && containers->type == FS_TREE_LIST && j < containers->n; j++)
    {
      if (j == FS_ADMIT_MAX_CONTAINERS)
        {
          g_set_error (error, FS_ERROR, FS_ERROR_LIMIT, "request.object.spec.template.spec.containers: more than %d",
                       FS_ADMIT_MAX_CONTAINERS);
          return FALSE;
        }
      const FsTree *container = containers->values[j];
      out->containers[j] = (FsAdmitContainer){ fs_tree_text (container, "name"), is_map (container, "resources"),
                                               is_map (container, "resources.requests"),
                                               is_map (container, "resources.limits"),
                                               { fs_tree_at (container, "resources.limits.cpu") != NULL,
                                                 fs_tree_at (container, "resources.limits.memory") != NULL } };
      request->n_containers = j + 1;
    }
  request->containers = out->containers;
  return TRUE;
}

/* What a judged write's objects say, into REQUEST (and OUT, which holds it). */
static gboolean
read_objects (FsAdmitRequest *request, const FsTree *object, const FsTree *old_object, Written *out, GError **error)
{
  const char *kind = NULL;
  gboolean scale = FALSE;
  if (!fs_admit_judges (request, &kind, &scale))
    return TRUE;
  if (object == NULL)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "request.object: required for a %s of %s", request->operation,
                   request->resource);
      return FALSE;
    }
  request->old_replicas = -1;
  if (scale)
    return scale_replicas (object, "request.object", &request->replicas, error)
           && (old_object == NULL || scale_replicas (old_object, "request.oldObject", &request->old_replicas, error));
  return read_workload (request, kind, object, out, error);
}

/* ---- the answer ---------------------------------------------------------------------------- */

static char *
review_body (const FsAdmitRequest *request, const FsAdmitDecision *decision)
{
  FsEmitter *emitter = fs_emitter_new_string ();
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "apiVersion");
  fs_emit_string (emitter, API_VERSION);
  fs_emit_key (emitter, "kind");
  fs_emit_string (emitter, "AdmissionReview");
  fs_emit_key (emitter, "response");
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "uid");
  fs_emit_string (emitter, request->uid);
  fs_emit_key (emitter, "allowed");
  fs_emit_bool (emitter, decision->allowed);
  if (decision->warnings->len > 0)
    {
      fs_emit_key (emitter, "warnings");
      fs_emit_list_open (emitter);
      for (guint i = 0; i < decision->warnings->len; i++)
        fs_emit_string (emitter, g_ptr_array_index (decision->warnings, i));
      fs_emit_list_close (emitter);
    }
  if (decision->patch != NULL)
    {
      g_autofree char *patch = g_base64_encode ((const guchar *) decision->patch, strlen (decision->patch));
      fs_emit_key (emitter, "patchType");
      fs_emit_string (emitter, "JSONPatch");
      fs_emit_key (emitter, "patch");
      fs_emit_string (emitter, patch);
    }
  if (!decision->allowed)
    {
      fs_emit_key (emitter, "status");
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "status");
      fs_emit_string (emitter, "Failure");
      fs_emit_key (emitter, "message");
      fs_emit_string (emitter, decision->message);
      fs_emit_key (emitter, "reason");
      fs_emit_string (emitter, "Forbidden");
      fs_emit_key (emitter, "code");
      fs_emit_int (emitter, 403);
      fs_emit_map_close (emitter);
    }
  fs_emit_key (emitter, "auditAnnotations");
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "verdict");
  fs_emit_string (emitter, fs_admit_verdict_name (decision->verdict));
  fs_emit_key (emitter, "mode");
  fs_emit_string (emitter, fs_admit_mode_name (decision->mode));
  fs_emit_map_close (emitter);
  fs_emit_map_close (emitter);
  fs_emit_map_close (emitter);
  return fs_emitter_take_string (emitter);
}

void
fs_admitter_answer (FsAdmitter *admitter, const FsAdmitSnapshot *state, const FsTree *body, FsHttpResponse *response)
{
  FsAdmitRequest request = { 0 };
  const FsTree *object = NULL, *old_object = NULL;
  g_autoptr (GError) error = NULL;
  Written *written = g_new0 (Written, 1);
  if (!read_review (body, &request, &object, &old_object, &error)
      || !read_objects (&request, object, old_object, written, &error))
    {
      fs_http_error (response, 400, "BadRequest", "%s", error->message);
      written_clear (written);
      g_free (written);
      return;
    }
  g_autoptr (FsAdmitDecision) decision = fs_admit (state, &request, &admitter->options);
  written_clear (written);
  g_free (written);
  g_atomic_int_inc (&admitter->counts[decision->verdict][decision->mode]);
  response->body = review_body (&request, decision);
}

void
fs_admitter_append_metrics (FsAdmitter *admitter, GString *out)
{
  g_string_append (out, "# HELP fitscale_admission_reviews_total AdmissionReviews answered, by verdict and the mode "
                        "that applied.\n# TYPE fitscale_admission_reviews_total counter\n");
  for (int v = 0; v < FS_ADMIT_N_VERDICTS; v++)
    for (int m = 0; m < FS_ADMIT_N_MODES; m++)
      g_string_append_printf (out, "fitscale_admission_reviews_total{verdict=\"%s\",mode=\"%s\"} %d\n",
                              fs_admit_verdict_name ((FsAdmitVerdict) v), fs_admit_mode_name ((FsAdmitMode) m),
                              g_atomic_int_get (&admitter->counts[v][m]));
}
