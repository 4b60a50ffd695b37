/* fitscale — the object builder: gathers one object's fields, checks their types, and
 * interns the parts into the snapshot when the object ends (see fields.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fields.h"
#include "fitscale/kube/hvpaspec.h"
#include "fitscale/model/error.h"
#include "fitscale/model/quantity.h"
#include "fitscale/model/timeutil.h"

/* A growable byte string written field by field: appends of a few bytes are inline moves,
 * not library calls (a pod's spec key takes dozens of them). */
typedef struct {
  char *data;
  gsize len, size;
} Bytes;

static void
bytes_grow (Bytes *bytes, gsize more)
{
  bytes->size = MAX (64, MAX (bytes->size * 2, bytes->len + more));
  bytes->data = g_realloc (bytes->data, bytes->size);
}

static inline void
bytes_put (Bytes *bytes, const void *data, gsize size)
{
  if (G_UNLIKELY (bytes->size - bytes->len < size))
    bytes_grow (bytes, size);
  if (size > 0)
    memcpy (bytes->data + bytes->len, data, size);
  bytes->len += size;
}

static inline gboolean
bytes_equal (const Bytes *a, const Bytes *b)
{
  return a->len == b->len && (a->len == 0 || memcmp (a->data, b->data, a->len) == 0);
}

static void
bytes_copy (Bytes *to, const Bytes *from)
{
  to->len = 0;
  bytes_put (to, from->data, from->len);
}

/* Plain per-object values; zeroed when an object begins. */
typedef struct {
  char kind[96];
  char inherited_kind[96];
  char api_version[96];
  const char *name;
  const char *namespace;
  char resource_version[64];     /* kept for lists only (an item's is never read) */
  int64_t creation_time;
  gboolean terminating;
  FsOwnerRef owner, current_owner;
  gboolean has_owner, owner_is_controller;
  /* the condition being read, and what the conditions said */
  char cond_type[32];
  char cond_status[16];
  char cond_reason[64];   /* reason, message and time are kept only for the conditions */
  char cond_time[40];     /* fitscale reads; the message waits in builder->cond_message */
  gboolean ready_known, ready, scheduled_true, unschedulable_cond;
  int64_t ready_time;
  const char *scheduled_message;
  /* Node */
  gboolean node_unschedulable;
  FsTaint current_taint;
  FsResources allocatable, capacity;
  /* pod spec */
  const char *node_name, *priority_class, *scheduler_name;
  int32_t priority;
  gboolean preempt_never;
  FsToleration current_toleration;
  FsContainer current_container;
  FsResources pod_level, overhead;
  gboolean has_pod_level, has_overhead, has_required_affinity;
  FsRequirement current_requirement;
  FsPodAffinityTerm current_term;
  FsSpreadConstraint current_spread;
  const FsLabelSelector *workload_selector;
  /* Pod status */
  const char *phase;
  int64_t start_time;
  const char *nominated_node;
  /* workloads */
  gboolean has_replicas;
  int32_t replicas;
  const char *strategy;
  FsIntOrPercent max_surge, max_unavailable;
  int32_t status_replicas, ready_replicas;
  /* PodMetrics */
  int64_t timestamp, window_ms;
  FsContainerUsage current_usage;
  /* Event */
  const char *ev_kind, *ev_namespace, *ev_name, *ev_reason, *ev_message, *ev_type, *ev_source;
  int32_t ev_count;
  int64_t ev_last, ev_event_time, ev_first;
} ObjectState;

struct FsObjectBuilder {
  FsSnapshotBuilder *snapshot_builder;
  FsPool *pool;
  ObjectState st;
  GArray *labels, *annotations, *template_labels, *node_selector; /* FsLabel */
  GArray *taints;                 /* FsTaint */
  GArray *tolerations;            /* FsToleration */
  GArray *containers, *init_containers; /* FsContainer */
  GArray *node_terms;             /* FsNodeSelectorTerm */
  GArray *term_expressions, *term_fields, *selector_expressions; /* FsRequirement */
  GPtrArray *requirement_values;  /* const char* of the requirement being read */
  GArray *selector_labels;        /* FsLabel of the selector being read */
  GArray *affinity_terms, *anti_affinity_terms; /* FsPodAffinityTerm */
  GPtrArray *term_namespaces;
  GArray *spreads;                /* FsSpreadConstraint */
  GPtrArray *spread_label_keys;
  GArray *usages;                 /* FsContainerUsage */
  GString *cond_message;          /* the condition being read */
  guint n_nameless;               /* metric values numbered so far */
  Bytes raw_labels;               /* metadata.labels as read: "key\0value\0" pairs */
  /* the last string interned for each field: consecutive objects (the pods of one
   * ReplicaSet, listed together) mostly repeat them, and a compare beats a table lookup */
  const char *last_value[F_N_FIELDS][2];  /* two ways: a pod's two tolerations, two containers */
  gsize last_len[F_N_FIELDS][2];
  guint8 last_next[F_N_FIELDS];
  GHashTable *label_sets;         /* interned raw labels -> their FsLabelSet */
  /* The previous object's raw labels and spec key with what they gave: the pods of one
   * ReplicaSet come one after another, and a compare beats hashing a few hundred bytes. */
  Bytes previous_labels, previous_spec_key;
  const FsLabelSet *previous_label_set;
  const FsPodSpec *previous_spec;
  Bytes spec_key;                 /* the pod spec being read, compactly (see spec_key_*) */
  Bytes scratch;                  /* a list being assembled for interning (scratch_zeroed) */
  GHashTable *pod_specs;          /* interned compact spec -> its FsPodSpec */
  char description[256];
};

static GArray *
array_of (gsize element_size)
{
  return g_array_new (FALSE, FALSE, element_size);
}

FsObjectBuilder *
fs_object_builder_new (FsSnapshotBuilder *snapshot_builder)
{
  FsObjectBuilder *builder = g_new0 (FsObjectBuilder, 1);
  builder->snapshot_builder = snapshot_builder;
  builder->pool = fs_snapshot_builder_pool (snapshot_builder);
  builder->labels = array_of (sizeof (FsLabel));
  builder->annotations = array_of (sizeof (FsLabel));
  builder->template_labels = array_of (sizeof (FsLabel));
  builder->node_selector = array_of (sizeof (FsLabel));
  builder->taints = array_of (sizeof (FsTaint));
  builder->tolerations = array_of (sizeof (FsToleration));
  builder->containers = array_of (sizeof (FsContainer));
  builder->init_containers = array_of (sizeof (FsContainer));
  builder->node_terms = array_of (sizeof (FsNodeSelectorTerm));
  builder->term_expressions = array_of (sizeof (FsRequirement));
  builder->term_fields = array_of (sizeof (FsRequirement));
  builder->selector_expressions = array_of (sizeof (FsRequirement));
  builder->requirement_values = g_ptr_array_new ();
  builder->selector_labels = array_of (sizeof (FsLabel));
  builder->affinity_terms = array_of (sizeof (FsPodAffinityTerm));
  builder->anti_affinity_terms = array_of (sizeof (FsPodAffinityTerm));
  builder->term_namespaces = g_ptr_array_new ();
  builder->spreads = array_of (sizeof (FsSpreadConstraint));
  builder->spread_label_keys = g_ptr_array_new ();
  builder->usages = array_of (sizeof (FsContainerUsage));
  builder->cond_message = g_string_new (NULL);
  builder->label_sets = g_hash_table_new (NULL, NULL);
  builder->pod_specs = g_hash_table_new (NULL, NULL);
  return builder;
}

#define EACH_ARRAY(builder, DO)                                                              \
  DO (builder->labels) DO (builder->annotations) DO (builder->template_labels)              \
  DO (builder->node_selector) DO (builder->taints) DO (builder->tolerations)                \
  DO (builder->containers) DO (builder->init_containers) DO (builder->node_terms)           \
  DO (builder->term_expressions) DO (builder->term_fields) DO (builder->selector_expressions) \
  DO (builder->selector_labels) DO (builder->affinity_terms)                                \
  DO (builder->anti_affinity_terms) DO (builder->spreads) DO (builder->usages)
#define EACH_PTR_ARRAY(builder, DO)                                                          \
  DO (builder->requirement_values) DO (builder->term_namespaces) DO (builder->spread_label_keys)

void
fs_object_builder_free (FsObjectBuilder *builder)
{
  if (builder == NULL)
    return;
#define FREE_ARRAY(array) g_array_unref (array);
#define FREE_PTR_ARRAY(array) g_ptr_array_unref (array);
  EACH_ARRAY (builder, FREE_ARRAY)
  EACH_PTR_ARRAY (builder, FREE_PTR_ARRAY)
  g_string_free (builder->cond_message, TRUE);
  g_free (builder->raw_labels.data);
  g_hash_table_unref (builder->label_sets);
  g_free (builder->spec_key.data);
  g_free (builder->scratch.data);
  g_free (builder->previous_labels.data);
  g_free (builder->previous_spec_key.data);
  g_hash_table_unref (builder->pod_specs);
  g_free (builder);
}

void
fs_object_begin (FsObjectBuilder *builder, const char *inherited_kind)
{
#define TRUNCATE(array) if (array->len > 0) g_array_set_size (array, 0);
#define TRUNCATE_PTR(array) if (array->len > 0) g_ptr_array_set_size (array, 0);
  EACH_ARRAY (builder, TRUNCATE)
  EACH_PTR_ARRAY (builder, TRUNCATE_PTR)
  memset (&builder->st, 0, sizeof builder->st);
  builder->raw_labels.len = 0;
  if (inherited_kind != NULL)
    g_strlcpy (builder->st.inherited_kind, inherited_kind, sizeof builder->st.inherited_kind);
}

const char *
fs_object_kind (const FsObjectBuilder *builder)
{
  if (builder->st.kind[0] != '\0')
    return builder->st.kind;
  return builder->st.inherited_kind[0] != '\0' ? builder->st.inherited_kind : NULL;
}

const char *
fs_object_api_version (const FsObjectBuilder *builder)
{
  return builder->st.api_version[0] != '\0' ? builder->st.api_version : NULL;
}

gboolean
fs_kind_is_generic (const char *kind)
{
  return strcmp (kind, "HorizontalPodAutoscaler") == 0
         || strcmp (kind, "VerticalPodAutoscaler") == 0 || strcmp (kind, "Hvpa") == 0
         || strcmp (kind, "MetricValue") == 0 || strcmp (kind, "ExternalMetricValue") == 0;
}

const char *
fs_object_describe (FsObjectBuilder *builder)
{
  const char *kind = fs_object_kind (builder);
  const ObjectState *st = &builder->st;
  if (st->name == NULL)
    g_strlcpy (builder->description, kind != NULL ? kind : "", sizeof builder->description);
  else
    g_snprintf (builder->description, sizeof builder->description, "%s %s%s%s",
                kind != NULL ? kind : "object", st->namespace != NULL ? st->namespace : "",
                st->namespace != NULL ? "/" : "", st->name);
  return builder->description;
}

/* ---- scalar conversions ------------------------------------------------------------ */

static const char *
scalar_type_name (FsScalarType type)
{
  switch (type)
    {
    case FS_SCALAR_BOOL:
      return "a boolean";
    case FS_SCALAR_NUMBER:
      return "a number";
    case FS_SCALAR_STRING:
      return "a string";
    case FS_SCALAR_NULL:
    default:
      return "null";
    }
}

static gboolean
type_error (const FsScalar *scalar, const char *expected, GError **error)
{
  g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "expected %s, got %s", expected,
               scalar_type_name (scalar->type));
  return FALSE;
}

/* Strings: a YAML plain scalar such as `version: 1` arrives as a number and is taken as
 * its text, as kubectl's YAML-to-JSON conversion would leave it for a string field. */
static const char *
intern_text (FsObjectBuilder *builder, FsField field, const char *text, gsize len)
{
  for (guint way = 0; way < 2; way++)
    {
      const char *last = builder->last_value[field][way];
      if (last != NULL && builder->last_len[field][way] == len && memcmp (last, text, len) == 0)
        return last;
    }
  const char *interned = fs_pool_intern (builder->pool, text, len);
  guint way = builder->last_next[field];
  builder->last_value[field][way] = interned;
  builder->last_len[field][way] = len;
  builder->last_next[field] = (guint8) (way ^ 1);
  return interned;
}

static const char *
scalar_intern (FsObjectBuilder *builder, FsField field, const FsScalar *scalar)
{
  return intern_text (builder, field, scalar->text, scalar->len);
}

static gboolean
scalar_copy (const FsScalar *scalar, char *buffer, gsize size, GError **error)
{
  if (scalar->len >= size)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "value \"%.*s...\" is too long (%" G_GSIZE_FORMAT
                   " bytes, at most %" G_GSIZE_FORMAT ")", 24, scalar->text, scalar->len, size - 1);
      return FALSE;
    }
  memcpy (buffer, scalar->text, scalar->len);
  buffer[scalar->len] = '\0';
  return TRUE;
}

static gboolean
scalar_equals (const FsScalar *scalar, const char *text)
{
  return strlen (text) == scalar->len && memcmp (scalar->text, text, scalar->len) == 0;
}

gboolean
fs_decode_int (const char *text, gsize len, int64_t min, int64_t max, int64_t *out)
{
  gboolean negative = len > 0 && text[0] == '-';
  gsize at = len > 0 && (text[0] == '-' || text[0] == '+') ? 1 : 0;
  guint64 magnitude = 0;
  gboolean ok = at < len;
  for (; ok && at < len; at++)
    {
      guint digit = (guint) (guchar) text[at] - '0';
      ok = digit <= 9 && magnitude <= ((guint64) G_MAXINT64 + 1 - digit) / 10;
      magnitude = magnitude * 10 + digit;
    }
  ok = ok && magnitude <= (guint64) G_MAXINT64 + negative;
  int64_t value = negative ? (int64_t) (0 - magnitude) : (int64_t) magnitude;
  ok = ok && value >= min && value <= max;
  if (ok)
    *out = value;
  return ok;
}

static gboolean
scalar_int (const FsScalar *scalar, int64_t min, int64_t max, int64_t *out, GError **error)
{
  if (scalar->type != FS_SCALAR_NUMBER)
    return type_error (scalar, "an integer", error);
  gboolean ok = fs_decode_int (scalar->text, scalar->len, min, max, out);
  if (!ok)
    g_set_error (error, FS_ERROR, FS_ERROR_INVALID,
                 "%.*s is not an integer from %" G_GINT64_FORMAT " to %" G_GINT64_FORMAT,
                 (int) MIN (scalar->len, 40), scalar->text, min, max);
  return ok;
}

static gboolean
scalar_int32 (const FsScalar *scalar, int32_t min, int32_t *out, GError **error)
{
  int64_t value;
  if (!scalar_int (scalar, min, G_MAXINT32, &value, error))
    return FALSE;
  *out = (int32_t) value;
  return TRUE;
}

static gboolean
scalar_bool (const FsScalar *scalar, gboolean *out, GError **error)
{
  if (scalar->type != FS_SCALAR_BOOL)
    return type_error (scalar, "true or false", error);
  *out = scalar_equals (scalar, "true");
  return TRUE;
}

static gboolean
scalar_time (const FsScalar *scalar, int64_t *out, GError **error)
{
  if (scalar->type != FS_SCALAR_STRING)
    return type_error (scalar, "an RFC 3339 time", error);
  if (fs_time_parse (scalar->text, scalar->len, out))
    return TRUE;
  g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "\"%.*s\" is not an RFC 3339 time",
               (int) MIN (scalar->len, 64), scalar->text);
  return FALSE;
}

static gboolean
scalar_int_or_percent (const FsScalar *scalar, FsIntOrPercent *out, GError **error)
{
  out->set = TRUE;
  if (scalar->type == FS_SCALAR_NUMBER)
    return scalar_int32 (scalar, 0, &out->value, error);
  int64_t percent;
  if (scalar->type == FS_SCALAR_STRING && scalar->len >= 2 && scalar->text[scalar->len - 1] == '%')
    {
      if (fs_decode_int (scalar->text, scalar->len - 1, 0, G_MAXINT32, &percent))
        {
          out->percent = TRUE;
          out->value = (int32_t) percent;
          return TRUE;
        }
    }
  g_set_error (error, FS_ERROR, FS_ERROR_INVALID,
               "\"%.*s\" is neither an integer nor a percentage like \"25%%\"",
               (int) MIN (scalar->len, 40), scalar->text);
  return FALSE;
}

/* One entry of a resource list ("cpu": "500m"): cpu in millicores (MilliValue), everything
 * else in whole units (Value), as pkg/scheduler/framework/types.go Resource.Add reads them. */
static gboolean
resource_entry (FsObjectBuilder *builder, FsResources *resources, const char *name,
                const FsScalar *scalar, GError **error)
{
  if (scalar->type != FS_SCALAR_STRING && scalar->type != FS_SCALAR_NUMBER)
    return type_error (scalar, "a quantity", error);
  FsResourceKind kind = fs_resource_kind (name);
  if (kind == FS_RES_KIND_IGNORED)
    return TRUE;
  int64_t amount;
  gboolean parsed = kind == FS_RES_KIND_CPU
                        ? fs_quantity_parse_milli (scalar->text, scalar->len, &amount, error)
                        : fs_quantity_parse_value (scalar->text, scalar->len, &amount, error);
  if (!parsed)
    return FALSE;
  const char *interned = kind == FS_RES_KIND_SCALAR
                             ? fs_pool_intern (builder->pool, name, strlen (name)) : name;
  return fs_resources_set (resources, interned, amount, error);
}

static void
label_append (FsObjectBuilder *builder, GArray *labels, const char *key, const FsScalar *scalar)
{
  FsLabel label = { fs_pool_intern (builder->pool, key, strlen (key)),
                    fs_pool_intern (builder->pool, scalar->text, scalar->len) };
  g_array_append_val (labels, label);
}

static gboolean
parse_selector_op (const FsScalar *scalar, gboolean node_selector, FsSelectorOp *out,
                   GError **error)
{
  static const struct { const char *name; FsSelectorOp op; gboolean node_only; } ops[] = {
    { "In", FS_OP_IN, FALSE },       { "NotIn", FS_OP_NOT_IN, FALSE },
    { "Exists", FS_OP_EXISTS, FALSE }, { "DoesNotExist", FS_OP_DOES_NOT_EXIST, FALSE },
    { "Gt", FS_OP_GT, TRUE },        { "Lt", FS_OP_LT, TRUE },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (ops); i++)
    if (scalar_equals (scalar, ops[i].name) && (node_selector || !ops[i].node_only))
      {
        *out = ops[i].op;
        return TRUE;
      }
  g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "\"%.*s\" is not a valid operator (%s)",
               (int) MIN (scalar->len, 40), scalar->text,
               node_selector ? "In, NotIn, Exists, DoesNotExist, Gt, Lt"
                             : "In, NotIn, Exists, DoesNotExist");
  return FALSE;
}

static gboolean
parse_effect (const FsScalar *scalar, gboolean allow_empty, FsTaintEffect *out, GError **error)
{
  if (scalar_equals (scalar, "NoSchedule"))
    *out = FS_EFFECT_NO_SCHEDULE;
  else if (scalar_equals (scalar, "PreferNoSchedule"))
    *out = FS_EFFECT_PREFER_NO_SCHEDULE;
  else if (scalar_equals (scalar, "NoExecute"))
    *out = FS_EFFECT_NO_EXECUTE;
  else if (allow_empty && scalar->len == 0)
    *out = FS_EFFECT_ALL;
  else
    {
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID,
                   "\"%.*s\" is not a taint effect (NoSchedule, PreferNoSchedule, NoExecute)",
                   (int) MIN (scalar->len, 40), scalar->text);
      return FALSE;
    }
  return TRUE;
}

static gboolean
parse_policy (const FsScalar *scalar, FsInclusionPolicy *out, GError **error)
{
  if (scalar_equals (scalar, "Honor"))
    *out = FS_POLICY_HONOR;
  else if (scalar_equals (scalar, "Ignore"))
    *out = FS_POLICY_IGNORE;
  else
    {
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "\"%.*s\" is not Honor or Ignore",
                   (int) MIN (scalar->len, 40), scalar->text);
      return FALSE;
    }
  return TRUE;
}

/* ---- fields ------------------------------------------------------------------------ */

static gboolean
metadata_scalar (FsObjectBuilder *builder, FsField field, const char *key,
                 const FsScalar *scalar, GError **error)
{
  ObjectState *st = &builder->st;
  switch (field)
    {
    case F_KIND:
      return scalar_copy (scalar, st->kind, sizeof st->kind, error);
    case F_API_VERSION:
      return scalar_copy (scalar, st->api_version, sizeof st->api_version, error);
    case F_NAME:
      st->name = fs_pool_strdup (builder->pool, scalar->text, scalar->len);
      return TRUE;
    case F_NAMESPACE:
      st->namespace = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_RESOURCE_VERSION:
      if (scalar->len < sizeof st->resource_version)
        {
          memcpy (st->resource_version, scalar->text, scalar->len);
          st->resource_version[scalar->len] = '\0';
        }
      return TRUE;
    case F_CONTINUE: /* a list's: where its next page starts */
      fs_snapshot_builder_set_continue (builder->snapshot_builder, scalar->text, scalar->len);
      return TRUE;
    case F_CREATION_TIME:
      return scalar_time (scalar, &st->creation_time, error);
    case F_DELETION_TIME:
      st->terminating = TRUE;
      return TRUE;
    case F_LABEL:
      /* kept raw: the pods of one ReplicaSet share one label set, found by these bytes */
      if (memchr (scalar->text, '\0', scalar->len) != NULL)
        {
          g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "a label value holds a NUL character");
          return FALSE;
        }
      bytes_put (&builder->raw_labels, key, strlen (key) + 1);
      bytes_put (&builder->raw_labels, scalar->text, scalar->len);
      bytes_put (&builder->raw_labels, "", 1);
      return TRUE;
    case F_ANNOTATION:
      {
        /* Kept for generic objects only; the last-applied copy of the object is not. */
        const char *kind = fs_object_kind (builder);
        if ((kind == NULL || fs_kind_is_generic (kind))
            && strcmp (key, "kubectl.kubernetes.io/last-applied-configuration") != 0)
          label_append (builder, builder->annotations, key, scalar);
        return TRUE;
      }
    case F_OWNER_KIND:
      st->current_owner.kind = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_OWNER_NAME:
      st->current_owner.name = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_OWNER_API_VERSION:
      st->current_owner.api_version = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_OWNER_CONTROLLER:
      return scalar_bool (scalar, &st->current_owner.controller, error);
    case F_COND_TYPE:
      return scalar_copy (scalar, st->cond_type, sizeof st->cond_type, error);
    case F_COND_STATUS:
      return scalar_copy (scalar, st->cond_status, sizeof st->cond_status, error);
    case F_COND_REASON:
      /* a longer reason is no reason fitscale reads: keep its first 63 bytes */
      memcpy (st->cond_reason, scalar->text, MIN (scalar->len, sizeof st->cond_reason - 1));
      st->cond_reason[MIN (scalar->len, sizeof st->cond_reason - 1)] = '\0';
      return TRUE;
    case F_COND_MESSAGE:
      g_string_truncate (builder->cond_message, 0);
      g_string_append_len (builder->cond_message, scalar->text, (gssize) scalar->len);
      return TRUE;
    case F_COND_TIME:
      if (scalar->type != FS_SCALAR_STRING)
        return type_error (scalar, "an RFC 3339 time", error);
      return scalar_copy (scalar, st->cond_time, sizeof st->cond_time, error);
    default:
      g_assert_not_reached ();
    }
}

static gboolean
node_scalar (FsObjectBuilder *builder, FsField field, const char *key, const FsScalar *scalar,
             GError **error)
{
  ObjectState *st = &builder->st;
  switch (field)
    {
    case F_UNSCHEDULABLE:
      return scalar_bool (scalar, &st->node_unschedulable, error);
    case F_TAINT_KEY:
      st->current_taint.key = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_TAINT_VALUE:
      st->current_taint.value = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_TAINT_EFFECT:
      return parse_effect (scalar, FALSE, &st->current_taint.effect, error);
    case F_ALLOCATABLE:
      return resource_entry (builder, &st->allocatable, key, scalar, error);
    case F_CAPACITY:
      return resource_entry (builder, &st->capacity, key, scalar, error);
    default:
      g_assert_not_reached ();
    }
}

static gboolean
toleration_scalar (FsObjectBuilder *builder, FsField field, const FsScalar *scalar,
                   GError **error)
{
  FsToleration *toleration = &builder->st.current_toleration;
  switch (field)
    {
    case F_TOL_KEY:
      toleration->key = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_TOL_VALUE:
      toleration->value = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_TOL_OP:
      if (scalar_equals (scalar, "Exists"))
        toleration->op = FS_TOLERATION_EXISTS;
      else if (scalar_equals (scalar, "Equal") || scalar->len == 0)
        toleration->op = FS_TOLERATION_EQUAL;
      else
        {
          g_set_error (error, FS_ERROR, FS_ERROR_INVALID,
                       "\"%.*s\" is not a toleration operator (Equal, Exists)",
                       (int) MIN (scalar->len, 40), scalar->text);
          return FALSE;
        }
      return TRUE;
    case F_TOL_EFFECT:
      return parse_effect (scalar, TRUE, &toleration->effect, error);
    case F_TOL_SECONDS:
      toleration->has_seconds = TRUE;
      return scalar_int (scalar, G_MININT64, G_MAXINT64, &toleration->toleration_seconds, error);
    default:
      g_assert_not_reached ();
    }
}

static gboolean
container_scalar (FsObjectBuilder *builder, FsField field, const char *key,
                  const FsScalar *scalar, GError **error)
{
  ObjectState *st = &builder->st;
  FsContainer *container = &st->current_container;
  switch (field)
    {
    case F_CTR_NAME:
      container->name = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_CTR_RESTART_POLICY:
      container->restartable = scalar_equals (scalar, "Always");
      return TRUE;
    case F_CTR_REQUEST:
      return resource_entry (builder, &container->requests, key, scalar, error);
    case F_CTR_LIMIT:
      return resource_entry (builder, &container->limits, key, scalar, error);
    case F_POD_REQUEST:
      st->has_pod_level = TRUE;
      return resource_entry (builder, &st->pod_level, key, scalar, error);
    case F_OVERHEAD:
      st->has_overhead = TRUE;
      return resource_entry (builder, &st->overhead, key, scalar, error);
    default:
      g_assert_not_reached ();
    }
}

static gboolean
affinity_scalar (FsObjectBuilder *builder, FsField field, const char *key,
                 const FsScalar *scalar, GError **error)
{
  ObjectState *st = &builder->st;
  FsSpreadConstraint *spread = &st->current_spread;
  switch (field)
    {
    case F_REQ_KEY:
      st->current_requirement.key = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_REQ_OP:
      /* the node-selector operators are checked when the requirement ends */
      return parse_selector_op (scalar, TRUE, &st->current_requirement.op, error);
    case F_REQ_VALUE:
      g_ptr_array_add (builder->requirement_values, (gpointer) scalar_intern (builder, field, scalar));
      return TRUE;
    case F_SEL_LABEL:
      label_append (builder, builder->selector_labels, key, scalar);
      return TRUE;
    case F_TERM_TOPOLOGY_KEY:
      st->current_term.topology_key = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_TERM_NAMESPACE:
      g_ptr_array_add (builder->term_namespaces, (gpointer) scalar_intern (builder, field, scalar));
      return TRUE;
    case F_SPREAD_MAX_SKEW:
      return scalar_int32 (scalar, 1, &spread->max_skew, error);
    case F_SPREAD_TOPOLOGY_KEY:
      spread->topology_key = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_SPREAD_WHEN:
      if (scalar_equals (scalar, "ScheduleAnyway"))
        spread->when_unsatisfiable = FS_SPREAD_SCHEDULE_ANYWAY;
      else if (scalar_equals (scalar, "DoNotSchedule"))
        spread->when_unsatisfiable = FS_SPREAD_DO_NOT_SCHEDULE;
      else
        {
          g_set_error (error, FS_ERROR, FS_ERROR_INVALID,
                       "\"%.*s\" is not DoNotSchedule or ScheduleAnyway",
                       (int) MIN (scalar->len, 40), scalar->text);
          return FALSE;
        }
      return TRUE;
    case F_SPREAD_MIN_DOMAINS:
      return scalar_int32 (scalar, 1, &spread->min_domains, error);
    case F_SPREAD_AFFINITY_POLICY:
      return parse_policy (scalar, &spread->node_affinity_policy, error);
    case F_SPREAD_TAINTS_POLICY:
      return parse_policy (scalar, &spread->node_taints_policy, error);
    case F_SPREAD_LABEL_KEY:
      g_ptr_array_add (builder->spread_label_keys, (gpointer) scalar_intern (builder, field, scalar));
      return TRUE;
    default:
      g_assert_not_reached ();
    }
}

static gboolean
pod_scalar (FsObjectBuilder *builder, FsField field, const char *key, const FsScalar *scalar,
            GError **error)
{
  ObjectState *st = &builder->st;
  switch (field)
    {
    case F_NODE_NAME:
      st->node_name = scalar->len > 0 ? scalar_intern (builder, field, scalar) : NULL;
      return TRUE;
    case F_PRIORITY:
      return scalar_int32 (scalar, G_MININT32, &st->priority, error);
    case F_PRIORITY_CLASS:
      st->priority_class = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_SCHEDULER_NAME:
      st->scheduler_name = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_PREEMPTION_POLICY:
      st->preempt_never = scalar_equals (scalar, "Never");
      return TRUE;
    case F_NODE_SELECTOR:
      label_append (builder, builder->node_selector, key, scalar);
      return TRUE;
    case F_PHASE:
      st->phase = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_START_TIME:
      return scalar_time (scalar, &st->start_time, error);
    case F_NOMINATED_NODE:
      st->nominated_node = scalar_intern (builder, field, scalar);
      return TRUE;
    default:
      g_assert_not_reached ();
    }
}

static gboolean
workload_scalar (FsObjectBuilder *builder, FsField field, const char *key,
                 const FsScalar *scalar, GError **error)
{
  ObjectState *st = &builder->st;
  switch (field)
    {
    case F_REPLICAS:
      st->has_replicas = TRUE;
      return scalar_int32 (scalar, 0, &st->replicas, error);
    case F_STRATEGY_TYPE:
      st->strategy = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_MAX_SURGE:
      return scalar_int_or_percent (scalar, &st->max_surge, error);
    case F_MAX_UNAVAILABLE:
      return scalar_int_or_percent (scalar, &st->max_unavailable, error);
    case F_STATUS_REPLICAS:
      return scalar_int32 (scalar, 0, &st->status_replicas, error);
    case F_STATUS_READY:
      return scalar_int32 (scalar, 0, &st->ready_replicas, error);
    case F_TEMPLATE_LABEL:
      label_append (builder, builder->template_labels, key, scalar);
      return TRUE;
    default:
      g_assert_not_reached ();
    }
}

static gboolean
metrics_event_scalar (FsObjectBuilder *builder, FsField field, const char *key,
                      const FsScalar *scalar, GError **error)
{
  ObjectState *st = &builder->st;
  switch (field)
    {
    case F_TIMESTAMP:
      return scalar_time (scalar, &st->timestamp, error);
    case F_WINDOW:
      if (scalar->type == FS_SCALAR_STRING
          && fs_duration_parse (scalar->text, scalar->len, &st->window_ms))
        return TRUE;
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "\"%.*s\" is not a duration like \"30s\"",
                   (int) MIN (scalar->len, 40), scalar->text);
      return FALSE;
    case F_USAGE_NAME:
      st->current_usage.name = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_USAGE:
      return resource_entry (builder, &st->current_usage.usage, key, scalar, error);
    case F_EV_KIND:
      st->ev_kind = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_EV_NAMESPACE:
      st->ev_namespace = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_EV_NAME:
      st->ev_name = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_EV_REASON:
      st->ev_reason = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_EV_MESSAGE:
      st->ev_message = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_EV_TYPE:
      st->ev_type = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_EV_SOURCE:
    case F_EV_REPORTER:
      if (st->ev_source == NULL || field == F_EV_SOURCE)
        st->ev_source = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_EV_COUNT:
      return scalar_int32 (scalar, 0, &st->ev_count, error);
    case F_EV_LAST_TIME:
      return scalar_time (scalar, &st->ev_last, error);
    case F_EV_EVENT_TIME:
      return scalar_time (scalar, &st->ev_event_time, error);
    case F_EV_FIRST_TIME:
      return scalar_time (scalar, &st->ev_first, error);
    default:
      g_assert_not_reached ();
    }
}

gboolean
fs_object_scalar (FsObjectBuilder *builder, FsField field, const char *map_key,
                  const FsScalar *scalar, GError **error)
{
  if (field <= F_COND_TIME)
    return metadata_scalar (builder, field, map_key, scalar, error);
  if (field <= F_CAPACITY)
    return node_scalar (builder, field, map_key, scalar, error);
  if (field >= F_TOL_KEY && field <= F_TOL_SECONDS)
    return toleration_scalar (builder, field, scalar, error);
  if (field >= F_CTR_NAME && field <= F_OVERHEAD)
    return container_scalar (builder, field, map_key, scalar, error);
  if (field >= F_REQ_KEY && field <= F_SPREAD_LABEL_KEY)
    return affinity_scalar (builder, field, map_key, scalar, error);
  if (field <= F_NOMINATED_NODE)
    return pod_scalar (builder, field, map_key, scalar, error);
  if (field <= F_TEMPLATE_LABEL)
    return workload_scalar (builder, field, map_key, scalar, error);
  return metrics_event_scalar (builder, field, map_key, scalar, error);
}

/* ---- interning --------------------------------------------------------------------- */

static gint
compare_labels (gconstpointer a, gconstpointer b)
{
  return strcmp (((const FsLabel *) a)->key, ((const FsLabel *) b)->key);
}

/* SIZE zeroed bytes to assemble one list in before it is interned, reused from list to list:
 * a list is as long as the input makes it, too long for the stack. */
static void *
scratch_zeroed (FsObjectBuilder *builder, gsize size)
{
  Bytes *scratch = &builder->scratch;
  scratch->len = 0;
  if (scratch->size < size)
    bytes_grow (scratch, size);
  memset (scratch->data, 0, size);
  return scratch->data;
}

/* Labels sorted by key; a key given twice keeps its last value (as a JSON decoder would). */
static const FsLabelSet *
intern_labels (FsObjectBuilder *builder, GArray *labels)
{
  if (labels->len == 0)
    return NULL;
  g_array_sort (labels, compare_labels); /* stable merge sort */
  gsize size = sizeof (FsLabelSet) + labels->len * sizeof (FsLabel);
  FsLabelSet *set = scratch_zeroed (builder, size);
  const FsLabel *items = (const FsLabel *) (gpointer) labels->data;
  for (guint i = 0; i < labels->len; i++)
    {
      if (set->n > 0 && strcmp (set->items[set->n - 1].key, items[i].key) == 0)
        set->n--;
      set->items[set->n++] = items[i];
    }
  return fs_pool_intern_blob (builder->pool, set, sizeof (FsLabelSet) + set->n * sizeof (FsLabel));
}

static const FsLabelSet *find_labels (FsObjectBuilder *builder, const Bytes *raw);

/* The object's metadata.labels: looked up by their raw bytes first, so that only a label set
 * not seen before costs its strings' interning and a sort. */
static const FsLabelSet *
intern_object_labels (FsObjectBuilder *builder)
{
  const Bytes *raw = &builder->raw_labels;
  if (raw->len == 0)
    return NULL;
  if (builder->previous_label_set != NULL && bytes_equal (raw, &builder->previous_labels))
    return builder->previous_label_set;
  const FsLabelSet *set = find_labels (builder, raw);
  bytes_copy (&builder->previous_labels, raw);
  builder->previous_label_set = set;
  return set;
}

/* The label set of RAW ("key\0value\0" pairs), interned. */
static const FsLabelSet *
find_labels (FsObjectBuilder *builder, const Bytes *raw)
{
  const void *key = fs_pool_intern_blob (builder->pool, raw->data, raw->len);
  const FsLabelSet *known = g_hash_table_lookup (builder->label_sets, key);
  if (known != NULL)
    return known;
  g_array_set_size (builder->labels, 0);
  for (gsize at = 0; at < raw->len;)
    {
      const char *label_key = raw->data + at;
      const char *value = label_key + strlen (label_key) + 1;
      g_assert (value < raw->data + raw->len); /* every key is followed by its value */
      gsize value_len = strlen (value);
      FsLabel label = { fs_pool_intern (builder->pool, label_key, strlen (label_key)),
                        fs_pool_intern (builder->pool, value, value_len) };
      g_array_append_val (builder->labels, label);
      at = (gsize) (value - raw->data) + value_len + 1;
    }
  const FsLabelSet *set = intern_labels (builder, builder->labels);
  g_hash_table_insert (builder->label_sets, (gpointer) key, (gpointer) set);
  return set;
}

static const void *
intern_array (FsObjectBuilder *builder, const void *data, guint count, gsize element_size)
{
  return fs_pool_intern_blob (builder->pool, data, count * element_size);
}

/* An interned {guint n; T items[]} list from a GArray of T. */
static const void *
intern_list (FsObjectBuilder *builder, GArray *array, gsize header_size)
{
  if (array->len == 0)
    return NULL;
  gsize element_size = g_array_get_element_size (array);
  gsize size = header_size + array->len * element_size;
  char *list = scratch_zeroed (builder, size);
  *(guint *) list = array->len;
  memcpy (list + header_size, array->data, array->len * element_size);
  return fs_pool_intern_blob (builder->pool, list, size);
}

#define INTERN_LIST(builder, array, type)                                                    \
  ((const type *) intern_list ((builder), (array), G_STRUCT_OFFSET (type, items)))

static const char *const *
intern_strings (FsObjectBuilder *builder, GPtrArray *strings, guint *count)
{
  *count = strings->len;
  const char *const *interned = intern_array (builder, strings->pdata, strings->len,
                                              sizeof (gpointer));
  g_ptr_array_set_size (strings, 0);
  return interned;
}

static const FsLabelSelector *
intern_selector (FsObjectBuilder *builder)
{
  FsLabelSelector selector;
  memset (&selector, 0, sizeof selector);
  selector.match_labels = intern_labels (builder, builder->selector_labels);
  selector.match_expressions = INTERN_LIST (builder, builder->selector_expressions,
                                            FsRequirementList);
  g_array_set_size (builder->selector_labels, 0);
  g_array_set_size (builder->selector_expressions, 0);
  return fs_pool_intern_blob (builder->pool, &selector, sizeof selector);
}

/* ---- records ----------------------------------------------------------------------- */

void
fs_object_record_begin (FsObjectBuilder *builder, FsRecord record)
{
  ObjectState *st = &builder->st;
  switch (record)
    {
    case R_OWNER:
      memset (&st->current_owner, 0, sizeof st->current_owner);
      break;
    case R_CONDITION:
      st->cond_type[0] = st->cond_status[0] = st->cond_reason[0] = st->cond_time[0] = '\0';
      g_string_truncate (builder->cond_message, 0);
      break;
    case R_TAINT:
      memset (&st->current_taint, 0, sizeof st->current_taint);
      break;
    case R_TOLERATION:
      memset (&st->current_toleration, 0, sizeof st->current_toleration);
      break;
    case R_CONTAINER:
    case R_INIT_CONTAINER:
      memset (&st->current_container, 0, sizeof st->current_container);
      break;
    case R_REQUIRED_AFFINITY:
      st->has_required_affinity = TRUE;
      break;
    case R_NODE_TERM:
      g_array_set_size (builder->term_expressions, 0);
      g_array_set_size (builder->term_fields, 0);
      break;
    case R_REQ_NODE_EXPR:
    case R_REQ_NODE_FIELD:
    case R_REQ_SEL:
      memset (&st->current_requirement, 0, sizeof st->current_requirement);
      g_ptr_array_set_size (builder->requirement_values, 0);
      break;
    case R_AFFINITY_TERM:
    case R_ANTI_AFFINITY_TERM:
      memset (&st->current_term, 0, sizeof st->current_term);
      g_ptr_array_set_size (builder->term_namespaces, 0);
      break;
    case R_SPREAD:
      memset (&st->current_spread, 0, sizeof st->current_spread);
      g_ptr_array_set_size (builder->spread_label_keys, 0);
      break;
    case R_SEL_WORKLOAD:
    case R_SEL_TERM:
    case R_SEL_TERM_NS:
    case R_SEL_SPREAD:
      g_array_set_size (builder->selector_labels, 0);
      g_array_set_size (builder->selector_expressions, 0);
      break;
    case R_USAGE_CONTAINER:
      memset (&st->current_usage, 0, sizeof st->current_usage);
      break;
    case R_OBJECT:
    case R_NONE:
    case R_N_RECORDS:
    default:
      break;
    }
}

/* What one condition says, by type (Ready for nodes and pods, PodScheduled for pods). */
static gboolean
condition_end (FsObjectBuilder *builder, GError **error)
{
  ObjectState *st = &builder->st;
  gboolean is_true = strcmp (st->cond_status, "True") == 0;
  if (strcmp (st->cond_type, "Ready") == 0)
    {
      st->ready_known = TRUE;
      st->ready = is_true;
      FsScalar time = { FS_SCALAR_STRING, st->cond_time, strlen (st->cond_time) };
      if (time.len > 0 && !scalar_time (&time, &st->ready_time, error))
        {
          g_prefix_error (error, "Ready condition lastTransitionTime: ");
          return FALSE;
        }
    }
  else if (strcmp (st->cond_type, "PodScheduled") == 0)
    {
      st->scheduled_true = is_true;
      if (!is_true && strcmp (st->cond_reason, "Unschedulable") == 0)
        {
          st->unschedulable_cond = TRUE;
          st->scheduled_message = builder->cond_message->len > 0
                                      ? fs_pool_intern (builder->pool, builder->cond_message->str,
                                                        builder->cond_message->len)
                                      : NULL;
        }
    }
  return TRUE;
}

static gboolean
requirement_end (FsObjectBuilder *builder, FsRecord record, GError **error)
{
  FsRequirement *requirement = &builder->st.current_requirement;
  if (requirement->key == NULL)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "a requirement without a key");
      return FALSE;
    }
  if (record == R_REQ_SEL && (requirement->op == FS_OP_GT || requirement->op == FS_OP_LT))
    {
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID,
                   "label selector %s: Gt and Lt are for node selectors only", requirement->key);
      return FALSE;
    }
  requirement->values = intern_strings (builder, builder->requirement_values,
                                        &requirement->n_values);
  GArray *target = record == R_REQ_NODE_EXPR    ? builder->term_expressions
                   : record == R_REQ_NODE_FIELD ? builder->term_fields
                                                : builder->selector_expressions;
  g_array_append_val (target, *requirement);
  return TRUE;
}

static void
selector_end (FsObjectBuilder *builder, FsRecord record)
{
  const FsLabelSelector *selector = intern_selector (builder);
  ObjectState *st = &builder->st;
  if (record == R_SEL_WORKLOAD)
    st->workload_selector = selector;
  else if (record == R_SEL_TERM)
    st->current_term.label_selector = selector;
  else if (record == R_SEL_TERM_NS)
    st->current_term.namespace_selector = selector;
  else
    st->current_spread.label_selector = selector;
}

gboolean
fs_object_record_end (FsObjectBuilder *builder, FsRecord record, GError **error)
{
  ObjectState *st = &builder->st;
  switch (record)
    {
    case R_OWNER:
      if (!st->has_owner || (st->current_owner.controller && !st->owner_is_controller))
        {
          st->owner = st->current_owner;
          st->has_owner = TRUE;
          st->owner_is_controller = st->current_owner.controller;
        }
      return TRUE;
    case R_CONDITION:
      return condition_end (builder, error);
    case R_TAINT:
      g_array_append_val (builder->taints, st->current_taint);
      return TRUE;
    case R_TOLERATION:
      g_array_append_val (builder->tolerations, st->current_toleration);
      return TRUE;
    case R_CONTAINER:
      g_array_append_val (builder->containers, st->current_container);
      return TRUE;
    case R_INIT_CONTAINER:
      g_array_append_val (builder->init_containers, st->current_container);
      return TRUE;
    case R_NODE_TERM:
      {
        FsNodeSelectorTerm term;
        memset (&term, 0, sizeof term);
        term.match_expressions = INTERN_LIST (builder, builder->term_expressions, FsRequirementList);
        term.match_fields = INTERN_LIST (builder, builder->term_fields, FsRequirementList);
        g_array_append_val (builder->node_terms, term);
        return TRUE;
      }
    case R_REQ_NODE_EXPR:
    case R_REQ_NODE_FIELD:
    case R_REQ_SEL:
      return requirement_end (builder, record, error);
    case R_AFFINITY_TERM:
    case R_ANTI_AFFINITY_TERM:
      st->current_term.namespaces = intern_strings (builder, builder->term_namespaces,
                                                    &st->current_term.n_namespaces);
      g_array_append_val (record == R_AFFINITY_TERM ? builder->affinity_terms
                                                    : builder->anti_affinity_terms,
                          st->current_term);
      return TRUE;
    case R_SPREAD:
      st->current_spread.match_label_keys = intern_strings (builder, builder->spread_label_keys,
                                                            &st->current_spread.n_match_label_keys);
      g_array_append_val (builder->spreads, st->current_spread);
      return TRUE;
    case R_SEL_WORKLOAD:
    case R_SEL_TERM:
    case R_SEL_TERM_NS:
    case R_SEL_SPREAD:
      selector_end (builder, record);
      return TRUE;
    case R_USAGE_CONTAINER:
      g_array_append_val (builder->usages, st->current_usage);
      return TRUE;
    case R_REQUIRED_AFFINITY:
    case R_OBJECT:
    case R_NONE:
    case R_N_RECORDS:
    default:
      return TRUE;
    }
}

/* ---- objects ----------------------------------------------------------------------- */

static const FsResources *
intern_resources (FsObjectBuilder *builder, gboolean present, const FsResources *resources)
{
  return present ? fs_pool_intern_blob (builder->pool, resources, sizeof *resources) : NULL;
}

static const FsPlacement *
intern_placement (FsObjectBuilder *builder)
{
  ObjectState *st = &builder->st;
  FsPlacement placement;
  memset (&placement, 0, sizeof placement);
  placement.node_selector = intern_labels (builder, builder->node_selector);
  if (st->has_required_affinity)
    {
      /* present with no terms matches no node: keep it as an empty, non-NULL list */
      gsize size = sizeof (FsNodeSelector) + builder->node_terms->len * sizeof (FsNodeSelectorTerm);
      FsNodeSelector *selector = scratch_zeroed (builder, size);
      selector->n = builder->node_terms->len;
      if (selector->n > 0) /* an empty GArray may have no data at all */
        memcpy (selector->terms, builder->node_terms->data,
                builder->node_terms->len * sizeof (FsNodeSelectorTerm));
      placement.required_affinity = fs_pool_intern_blob (builder->pool, selector, size);
    }
  placement.tolerations = INTERN_LIST (builder, builder->tolerations, FsTolerationList);
  placement.pod_affinity = INTERN_LIST (builder, builder->affinity_terms, FsPodAffinityTermList);
  placement.pod_anti_affinity = INTERN_LIST (builder, builder->anti_affinity_terms,
                                             FsPodAffinityTermList);
  placement.spread = INTERN_LIST (builder, builder->spreads, FsSpreadList);
  placement.scheduler_name = st->scheduler_name;
  placement.priority_class = st->priority_class;
  placement.preempt_never = st->preempt_never;
  return fs_pool_intern_blob (builder->pool, &placement, sizeof placement);
}

/* ---- the pod spec, found by a compact key ------------------------------------------- */

/* A pod spec is interned by what it holds, but a resource vector is 296 bytes, mostly empty
 * extended slots: the pods of one ReplicaSet are matched by a compact key of the same
 * content first, and only a spec not seen before is built, defaulted and summed. */
static void
spec_key_resources (Bytes *key, const FsResources *resources)
{
  int64_t basic[4] = { resources->cpu_milli, resources->memory_bytes, resources->ephemeral_bytes,
                       resources->pods };
  bytes_put (key, basic, sizeof basic);
  guint8 header[2] = { resources->present, resources->n_extended };
  bytes_put (key, header, sizeof header);
  for (guint i = 0; i < resources->n_extended; i++)
    {
      bytes_put (key, &resources->extended[i].name, sizeof (const char *));
      bytes_put (key, &resources->extended[i].value, sizeof (int64_t));
    }
}

static void
spec_key_containers (Bytes *key, GArray *containers)
{
  guint32 count = containers->len;
  bytes_put (key, &count, sizeof count);
  for (guint i = 0; i < containers->len; i++)
    {
      const FsContainer *container = &g_array_index (containers, FsContainer, i);
      guint8 restartable = (guint8) container->restartable;
      bytes_put (key, &container->name, sizeof container->name);
      bytes_put (key, &restartable, 1);
      spec_key_resources (key, &container->requests);
      spec_key_resources (key, &container->limits);
    }
}

static void
spec_key_array (Bytes *key, GArray *array)
{
  guint32 count = array->len;
  bytes_put (key, &count, sizeof count);
  bytes_put (key, array->data, array->len * g_array_get_element_size (array));
}

/* The compact key, into builder->spec_key: the containers, pod-level resources and
 * overhead, and the placement as read (its parts hold interned pointers, so equal
 * placements have equal bytes). */
static void
spec_key_build (FsObjectBuilder *builder, gboolean default_requests)
{
  ObjectState *st = &builder->st;
  Bytes *key = &builder->spec_key;
  key->len = 0;
  guint8 flags[5] = { (guint8) default_requests, (guint8) st->has_pod_level,
                      (guint8) st->has_overhead, (guint8) st->has_required_affinity,
                      (guint8) st->preempt_never };
  bytes_put (key, flags, sizeof flags);
  const char *names[2] = { st->scheduler_name, st->priority_class };
  bytes_put (key, names, sizeof names);
  spec_key_containers (key, builder->containers);
  spec_key_containers (key, builder->init_containers);
  if (st->has_pod_level)
    spec_key_resources (key, &st->pod_level);
  if (st->has_overhead)
    spec_key_resources (key, &st->overhead);
  GArray *placement[] = { builder->node_selector, builder->tolerations, builder->node_terms,
                          builder->affinity_terms, builder->anti_affinity_terms, builder->spreads };
  for (gsize i = 0; i < G_N_ELEMENTS (placement); i++)
    spec_key_array (key, placement[i]);
}

static const FsPodSpec *find_pod_spec (FsObjectBuilder *builder, gboolean default_requests,
                                       GError **error);

/* The pod spec of a Pod (DEFAULT_REQUESTS false) or of a workload's template (true: the
 * API server has not copied limits into absent requests there). */
static const FsPodSpec *
intern_pod_spec (FsObjectBuilder *builder, gboolean default_requests, GError **error)
{
  spec_key_build (builder, default_requests);
  if (builder->previous_spec != NULL && bytes_equal (&builder->spec_key, &builder->previous_spec_key))
    return builder->previous_spec;
  const FsPodSpec *spec = find_pod_spec (builder, default_requests, error);
  if (spec != NULL)
    {
      bytes_copy (&builder->previous_spec_key, &builder->spec_key);
      builder->previous_spec = spec;
    }
  return spec;
}

/* The pod spec whose key spec_key_build has just written: found, or built and interned. */
static const FsPodSpec *
find_pod_spec (FsObjectBuilder *builder, gboolean default_requests, GError **error)
{
  const void *key = fs_pool_intern_blob (builder->pool, builder->spec_key.data, builder->spec_key.len);
  const FsPodSpec *known = g_hash_table_lookup (builder->pod_specs, key);
  if (known != NULL)
    return known;
  const FsPlacement *placement = intern_placement (builder);
  ObjectState *st = &builder->st;
  FsContainer *containers = (FsContainer *) (gpointer) builder->containers->data;
  FsContainer *init = (FsContainer *) (gpointer) builder->init_containers->data;
  for (guint i = 0; default_requests && i < builder->containers->len; i++)
    if (!fs_container_default_requests (&containers[i], error))
      return NULL;
  for (guint i = 0; default_requests && i < builder->init_containers->len; i++)
    if (!fs_container_default_requests (&init[i], error))
      return NULL;

  FsContainerSet set;
  memset (&set, 0, sizeof set);
  set.n_containers = builder->containers->len;
  set.n_init = builder->init_containers->len;
  set.containers = intern_array (builder, containers, set.n_containers, sizeof (FsContainer));
  set.init_containers = intern_array (builder, init, set.n_init, sizeof (FsContainer));
  set.pod_level = intern_resources (builder, st->has_pod_level, &st->pod_level);
  set.overhead = intern_resources (builder, st->has_overhead, &st->overhead);

  FsPodSpec spec;
  memset (&spec, 0, sizeof spec);
  if (!fs_pod_effective_request (containers, set.n_containers, init, set.n_init, set.pod_level,
                                 set.overhead, &spec.request, error))
    return NULL;
  spec.containers = fs_pool_intern_blob (builder->pool, &set, sizeof set);
  spec.placement = placement;
  const FsPodSpec *interned = fs_pool_intern_blob (builder->pool, &spec, sizeof spec);
  g_hash_table_insert (builder->pod_specs, (gpointer) key, (gpointer) interned);
  return interned;
}

static const FsOwnerRef *
intern_owner (FsObjectBuilder *builder)
{
  if (!builder->st.has_owner)
    return NULL;
  FsOwnerRef owner;
  memset (&owner, 0, sizeof owner);
  owner.kind = builder->st.owner.kind;
  owner.name = builder->st.owner.name;
  owner.api_version = builder->st.owner.api_version;
  owner.controller = builder->st.owner.controller;
  return fs_pool_intern_blob (builder->pool, &owner, sizeof owner);
}

static gboolean
require_name (FsObjectBuilder *builder, GError **error)
{
  if (builder->st.name != NULL && builder->st.name[0] != '\0')
    return TRUE;
  g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "field metadata.name: missing");
  return FALSE;
}

/* Namespaced objects without a namespace are in "default", as `kubectl apply -f` puts them. */
static const char *
namespace_or_default (FsObjectBuilder *builder)
{
  return builder->st.namespace != NULL ? builder->st.namespace
                                       : fs_pool_intern (builder->pool, "default", 7);
}

static gboolean
end_node (FsObjectBuilder *builder, GError **error)
{
  ObjectState *st = &builder->st;
  FsNode node;
  memset (&node, 0, sizeof node);
  node.name = fs_pool_intern (builder->pool, st->name, strlen (st->name));
  node.labels = intern_object_labels (builder);
  node.taints = INTERN_LIST (builder, builder->taints, FsTaintList);
  node.flags = (st->ready ? FS_NODE_READY : 0) | (st->ready_known ? FS_NODE_READY_KNOWN : 0)
               | (st->node_unschedulable ? FS_NODE_UNSCHEDULABLE : 0);
  node.allocatable = st->allocatable;
  node.capacity = st->capacity;
  fs_snapshot_builder_add_node (builder->snapshot_builder, &node);
  return TRUE;
}

static FsPodPhase
parse_phase (const char *phase)
{
  static const char *const names[] = { "Unknown", "Pending", "Running", "Succeeded", "Failed" };
  for (gsize i = 0; phase != NULL && i < G_N_ELEMENTS (names); i++)
    if (strcmp (phase, names[i]) == 0)
      return (FsPodPhase) i;
  return FS_PHASE_UNKNOWN;
}

static gboolean
end_pod (FsObjectBuilder *builder, GError **error)
{
  ObjectState *st = &builder->st;
  FsPod pod;
  memset (&pod, 0, sizeof pod);
  pod.spec = intern_pod_spec (builder, FALSE, error);
  if (pod.spec == NULL)
    return FALSE;
  pod.namespace = namespace_or_default (builder);
  pod.name = st->name;
  pod.node_name = st->node_name;
  pod.node_index = -1;
  pod.phase = st->phase != NULL ? parse_phase (st->phase) : FS_PHASE_PENDING;
  pod.flags = (st->ready ? FS_POD_READY : 0) | (st->ready_known ? FS_POD_READY_KNOWN : 0)
              | (st->terminating ? FS_POD_TERMINATING : 0)
              | (st->unschedulable_cond ? FS_POD_UNSCHEDULABLE : 0)
              | (st->scheduled_true ? FS_POD_SCHEDULED : 0);
  pod.priority = st->priority;
  pod.owner = intern_owner (builder);
  pod.labels = intern_object_labels (builder);
  pod.creation_time = st->creation_time;
  pod.start_time = st->start_time;
  pod.ready_transition_time = st->ready_time;
  pod.scheduled_message = st->scheduled_message;
  pod.nominated_node = st->nominated_node;
  fs_snapshot_builder_add_pod (builder->snapshot_builder, &pod);
  return TRUE;
}

static gboolean
end_workload (FsObjectBuilder *builder, FsWorkloadKind kind, GError **error)
{
  ObjectState *st = &builder->st;
  FsWorkload workload;
  memset (&workload, 0, sizeof workload);
  workload.template = intern_pod_spec (builder, TRUE, error);
  if (workload.template == NULL)
    return FALSE;
  workload.kind = kind;
  workload.namespace = namespace_or_default (builder);
  workload.name = st->name;
  workload.owner = intern_owner (builder);
  workload.has_replicas = st->has_replicas;
  workload.replicas = st->has_replicas ? st->replicas : 1; /* apps/v1 defaults to 1 */
  workload.selector = st->workload_selector;
  workload.template_labels = intern_labels (builder, builder->template_labels);
  workload.strategy = st->strategy;
  workload.max_surge = st->max_surge;
  workload.max_unavailable = st->max_unavailable;
  workload.status_replicas = st->status_replicas;
  workload.ready_replicas = st->ready_replicas;
  fs_snapshot_builder_add_workload (builder->snapshot_builder, &workload);
  return TRUE;
}

static gboolean
end_pod_metrics (FsObjectBuilder *builder)
{
  ObjectState *st = &builder->st;
  FsPodMetrics metrics;
  memset (&metrics, 0, sizeof metrics);
  metrics.namespace = namespace_or_default (builder);
  metrics.name = st->name;
  metrics.timestamp = st->timestamp;
  metrics.window_seconds = st->window_ms / 1000;
  metrics.n_containers = builder->usages->len;
  metrics.containers = intern_array (builder, builder->usages->data, builder->usages->len,
                                     sizeof (FsContainerUsage));
  fs_snapshot_builder_add_pod_metrics (builder->snapshot_builder, &metrics);
  return TRUE;
}

static gboolean
end_event (FsObjectBuilder *builder)
{
  ObjectState *st = &builder->st;
  FsEvent event;
  memset (&event, 0, sizeof event);
  event.namespace = namespace_or_default (builder);
  event.name = st->name;
  event.involved_kind = st->ev_kind;
  event.involved_namespace = st->ev_namespace;
  event.involved_name = st->ev_name;
  event.reason = st->ev_reason;
  event.message = st->ev_message;
  event.type = st->ev_type;
  event.source = st->ev_source;
  event.count = st->ev_count;
  event.last_time = st->ev_last != 0 ? st->ev_last
                    : st->ev_event_time != 0 ? st->ev_event_time : st->ev_first;
  fs_snapshot_builder_add_event (builder->snapshot_builder, &event);
  return TRUE;
}

static gboolean
end_generic (FsObjectBuilder *builder, const char *kind, const FsTree *tree)
{
  static const char *const kinds[] = {
    [FS_KIND_HPA] = "HorizontalPodAutoscaler", [FS_KIND_VPA] = "VerticalPodAutoscaler",
    [FS_KIND_HVPA] = "Hvpa", [FS_KIND_METRIC_VALUE] = "MetricValue",
    [FS_KIND_EXTERNAL_METRIC_VALUE] = "ExternalMetricValue",
  };
  ObjectState *st = &builder->st;
  FsGenericObject object;
  memset (&object, 0, sizeof object);
  for (gsize i = 0; i < G_N_ELEMENTS (kinds); i++)
    if (strcmp (kind, kinds[i]) == 0)
      object.kind = (FsGenericKind) i;
  object.api_version = st->api_version[0] != '\0'
                           ? fs_pool_intern (builder->pool, st->api_version,
                                             strlen (st->api_version)) : NULL;
  object.namespace = namespace_or_default (builder);
  object.name = st->name;
  object.labels = intern_object_labels (builder);
  object.annotations = intern_labels (builder, builder->annotations);
  object.object = tree;
  fs_autoscaler_target_read (&object);
  fs_snapshot_builder_add_generic (builder->snapshot_builder, &object);
  return TRUE;
}

gboolean
fs_object_end (FsObjectBuilder *builder, const FsTree *tree, GError **error)
{
  const char *kind = fs_object_kind (builder);
  if (kind == NULL)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID,
                   "field kind: missing (and no typed list around the object gives it)");
      return FALSE;
    }
  if (g_str_has_suffix (kind, "List"))
    {
      if (builder->st.resource_version[0] != '\0')
        fs_snapshot_builder_set_resource_version (builder->snapshot_builder,
                                                  builder->st.resource_version);
      return TRUE;
    }
  static const struct { const char *kind; FsWorkloadKind workload; } workloads[] = {
    { "Deployment", FS_WORKLOAD_DEPLOYMENT },
    { "StatefulSet", FS_WORKLOAD_STATEFULSET },
    { "ReplicaSet", FS_WORKLOAD_REPLICASET },
  };
  gboolean known = strcmp (kind, "Node") == 0 || strcmp (kind, "Pod") == 0
                   || strcmp (kind, "Namespace") == 0 || strcmp (kind, "PodMetrics") == 0
                   || strcmp (kind, "Event") == 0 || fs_kind_is_generic (kind);
  for (gsize i = 0; i < G_N_ELEMENTS (workloads); i++)
    known = known || strcmp (kind, workloads[i].kind) == 0;
  if (!known)
    {
      fs_snapshot_builder_count_skipped (builder->snapshot_builder, kind);
      return TRUE;
    }
  gboolean nameless = strcmp (kind, "MetricValue") == 0 || strcmp (kind, "ExternalMetricValue") == 0;
  if (nameless && builder->st.name == NULL)
    {
      /* metric values have no name of their own: number them, so that none replaces another */
      g_autofree char *name = g_strdup_printf ("%s-%u", kind, ++builder->n_nameless);
      builder->st.name = fs_pool_strdup (builder->pool, name, strlen (name));
    }
  if (!require_name (builder, error))
    return FALSE;
  if (strcmp (kind, "Node") == 0)
    return end_node (builder, error);
  if (strcmp (kind, "Pod") == 0)
    return end_pod (builder, error);
  for (gsize i = 0; i < G_N_ELEMENTS (workloads); i++)
    if (strcmp (kind, workloads[i].kind) == 0)
      return end_workload (builder, workloads[i].workload, error);
  if (strcmp (kind, "Namespace") == 0)
    {
      FsNamespace ns = { builder->st.name, intern_object_labels (builder),
                         builder->st.phase };
      fs_snapshot_builder_add_namespace (builder->snapshot_builder, &ns);
      return TRUE;
    }
  if (strcmp (kind, "PodMetrics") == 0)
    return end_pod_metrics (builder);
  if (strcmp (kind, "Event") == 0)
    return end_event (builder);
  return end_generic (builder, kind, tree);
}
