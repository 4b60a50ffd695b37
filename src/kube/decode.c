/* fitscale — the document walker: maps paths to fields, skips the rest, captures generic
 * objects as trees, and keeps enough context to say where an error is.
 * (see include/fitscale/decode.h; the fields themselves are handled in objects.c) */
#include "config.h"

#include <string.h>
#include <yajl/yajl_parse.h>

#include "fitscale/model/error.h"
#include "fields.h"

/* ---- the schema: a trie of the paths fitscale reads -------------------------------- */

#define SCHEMA_BUCKETS 16

typedef struct SchemaNode SchemaNode;
struct SchemaNode {
  const char *key;          /* edge from the parent: a name, "*" or "[]" */
  gsize key_len;
  FsField field;            /* scalar read here */
  FsRecord record;          /* map that begins/ends a record here */
  SchemaNode *first_child;  /* named children */
  SchemaNode *next_sibling;
  SchemaNode *buckets[SCHEMA_BUCKETS]; /* the named children again, hashed for lookup */
  SchemaNode *next_in_bucket;
  SchemaNode *any;          /* "*": every key of a map */
  SchemaNode *elem;         /* "[]": every element of a list */
};

typedef struct {
  const char *path;
  FsField field;
  FsRecord record;
} PathSpec;

/* Object-level paths, relative to an object's root. */
static const PathSpec object_paths[] = {
  { "kind", F_KIND, 0 },
  { "apiVersion", F_API_VERSION, 0 },
  { "metadata.name", F_NAME, 0 },
  { "metadata.namespace", F_NAMESPACE, 0 },
  { "metadata.resourceVersion", F_RESOURCE_VERSION, 0 },
  { "metadata.continue", F_CONTINUE, 0 },
  { "metadata.creationTimestamp", F_CREATION_TIME, 0 },
  { "metadata.deletionTimestamp", F_DELETION_TIME, 0 },
  { "metadata.labels.*", F_LABEL, 0 },
  { "metadata.annotations.*", F_ANNOTATION, 0 },
  { "metadata.ownerReferences[]", 0, R_OWNER },
  { "metadata.ownerReferences[].kind", F_OWNER_KIND, 0 },
  { "metadata.ownerReferences[].name", F_OWNER_NAME, 0 },
  { "metadata.ownerReferences[].apiVersion", F_OWNER_API_VERSION, 0 },
  { "metadata.ownerReferences[].controller", F_OWNER_CONTROLLER, 0 },
  { "status.conditions[]", 0, R_CONDITION },
  { "status.conditions[].type", F_COND_TYPE, 0 },
  { "status.conditions[].status", F_COND_STATUS, 0 },
  { "status.conditions[].reason", F_COND_REASON, 0 },
  { "status.conditions[].message", F_COND_MESSAGE, 0 },
  { "status.conditions[].lastTransitionTime", F_COND_TIME, 0 },
  /* Node */
  { "spec.unschedulable", F_UNSCHEDULABLE, 0 },
  { "spec.taints[]", 0, R_TAINT },
  { "spec.taints[].key", F_TAINT_KEY, 0 },
  { "spec.taints[].value", F_TAINT_VALUE, 0 },
  { "spec.taints[].effect", F_TAINT_EFFECT, 0 },
  { "status.allocatable.*", F_ALLOCATABLE, 0 },
  { "status.capacity.*", F_CAPACITY, 0 },
  /* Pod status, Namespace status */
  { "status.phase", F_PHASE, 0 },
  { "status.startTime", F_START_TIME, 0 },
  { "status.nominatedNodeName", F_NOMINATED_NODE, 0 },
  /* Deployment, StatefulSet, ReplicaSet */
  { "spec.replicas", F_REPLICAS, 0 },
  { "spec.strategy.type", F_STRATEGY_TYPE, 0 },
  { "spec.strategy.rollingUpdate.maxSurge", F_MAX_SURGE, 0 },
  { "spec.strategy.rollingUpdate.maxUnavailable", F_MAX_UNAVAILABLE, 0 },
  { "spec.updateStrategy.type", F_STRATEGY_TYPE, 0 },
  { "spec.updateStrategy.rollingUpdate.maxUnavailable", F_MAX_UNAVAILABLE, 0 },
  { "spec.template.metadata.labels.*", F_TEMPLATE_LABEL, 0 },
  { "status.replicas", F_STATUS_REPLICAS, 0 },
  { "status.readyReplicas", F_STATUS_READY, 0 },
  /* PodMetrics (metrics.k8s.io/v1beta1) */
  { "timestamp", F_TIMESTAMP, 0 },
  { "window", F_WINDOW, 0 },
  { "containers[]", 0, R_USAGE_CONTAINER },
  { "containers[].name", F_USAGE_NAME, 0 },
  { "containers[].usage.*", F_USAGE, 0 },
  /* Event (core/v1) */
  { "involvedObject.kind", F_EV_KIND, 0 },
  { "involvedObject.namespace", F_EV_NAMESPACE, 0 },
  { "involvedObject.name", F_EV_NAME, 0 },
  { "reason", F_EV_REASON, 0 },
  { "message", F_EV_MESSAGE, 0 },
  { "type", F_EV_TYPE, 0 },
  { "count", F_EV_COUNT, 0 },
  { "lastTimestamp", F_EV_LAST_TIME, 0 },
  { "eventTime", F_EV_EVENT_TIME, 0 },
  { "firstTimestamp", F_EV_FIRST_TIME, 0 },
  { "source.component", F_EV_SOURCE, 0 },
  { "reportingComponent", F_EV_REPORTER, 0 },
  /* Event (events.k8s.io/v1) */
  { "regarding.kind", F_EV_KIND, 0 },
  { "regarding.namespace", F_EV_NAMESPACE, 0 },
  { "regarding.name", F_EV_NAME, 0 },
  { "note", F_EV_MESSAGE, 0 },
  { "deprecatedCount", F_EV_COUNT, 0 },
  { "deprecatedLastTimestamp", F_EV_LAST_TIME, 0 },
  { "deprecatedSource.component", F_EV_SOURCE, 0 },
  { "reportingController", F_EV_REPORTER, 0 },
};

/* Pod-spec paths: under "spec." for a Pod and "spec.template.spec." for a workload. */
static const PathSpec pod_spec_paths[] = {
  { "nodeName", F_NODE_NAME, 0 },
  { "priority", F_PRIORITY, 0 },
  { "priorityClassName", F_PRIORITY_CLASS, 0 },
  { "schedulerName", F_SCHEDULER_NAME, 0 },
  { "preemptionPolicy", F_PREEMPTION_POLICY, 0 },
  { "nodeSelector.*", F_NODE_SELECTOR, 0 },
  { "tolerations[]", 0, R_TOLERATION },
  { "tolerations[].key", F_TOL_KEY, 0 },
  { "tolerations[].operator", F_TOL_OP, 0 },
  { "tolerations[].value", F_TOL_VALUE, 0 },
  { "tolerations[].effect", F_TOL_EFFECT, 0 },
  { "tolerations[].tolerationSeconds", F_TOL_SECONDS, 0 },
  { "containers[]", 0, R_CONTAINER },
  { "containers[].name", F_CTR_NAME, 0 },
  { "containers[].resources.requests.*", F_CTR_REQUEST, 0 },
  { "containers[].resources.limits.*", F_CTR_LIMIT, 0 },
  { "initContainers[]", 0, R_INIT_CONTAINER },
  { "initContainers[].name", F_CTR_NAME, 0 },
  { "initContainers[].restartPolicy", F_CTR_RESTART_POLICY, 0 },
  { "initContainers[].resources.requests.*", F_CTR_REQUEST, 0 },
  { "initContainers[].resources.limits.*", F_CTR_LIMIT, 0 },
  { "resources.requests.*", F_POD_REQUEST, 0 },
  { "overhead.*", F_OVERHEAD, 0 },
  { "affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution", 0,
    R_REQUIRED_AFFINITY },
  { "affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[]",
    0, R_NODE_TERM },
  { "topologySpreadConstraints[]", 0, R_SPREAD },
  { "topologySpreadConstraints[].maxSkew", F_SPREAD_MAX_SKEW, 0 },
  { "topologySpreadConstraints[].topologyKey", F_SPREAD_TOPOLOGY_KEY, 0 },
  { "topologySpreadConstraints[].whenUnsatisfiable", F_SPREAD_WHEN, 0 },
  { "topologySpreadConstraints[].minDomains", F_SPREAD_MIN_DOMAINS, 0 },
  { "topologySpreadConstraints[].nodeAffinityPolicy", F_SPREAD_AFFINITY_POLICY, 0 },
  { "topologySpreadConstraints[].nodeTaintsPolicy", F_SPREAD_TAINTS_POLICY, 0 },
  { "topologySpreadConstraints[].matchLabelKeys[]", F_SPREAD_LABEL_KEY, 0 },
};

#define NODE_TERMS \
  "affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[]"
#define POD_AFFINITY "affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[]"
#define POD_ANTI "affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[]"

/* Where a requirement list ({key, operator, values[]}) sits, relative to a pod spec. */
static const PathSpec pod_requirement_lists[] = {
  { NODE_TERMS ".matchExpressions[]", 0, R_REQ_NODE_EXPR },
  { NODE_TERMS ".matchFields[]", 0, R_REQ_NODE_FIELD },
};

/* Where pod-affinity terms sit, relative to a pod spec. */
static const PathSpec pod_affinity_terms[] = {
  { POD_AFFINITY, 0, R_AFFINITY_TERM },
  { POD_ANTI, 0, R_ANTI_AFFINITY_TERM },
};

static SchemaNode *
schema_child (SchemaNode *parent, const char *key, gsize len)
{
  if (len == 1 && key[0] == '*')
    return parent->any != NULL ? parent->any : (parent->any = g_new0 (SchemaNode, 1));
  if (len == 2 && key[0] == '[' && key[1] == ']')
    return parent->elem != NULL ? parent->elem : (parent->elem = g_new0 (SchemaNode, 1));
  for (SchemaNode *child = parent->first_child; child != NULL; child = child->next_sibling)
    if (child->key_len == len && memcmp (child->key, key, len) == 0)
      return child;
  SchemaNode *child = g_new0 (SchemaNode, 1);
  child->key = g_strndup (key, len);
  child->key_len = len;
  child->next_sibling = parent->first_child;
  parent->first_child = child;
  return child;
}

/* Walks PREFIX then PATH ("a.b[].c.*") from ROOT, creating nodes; returns the last one. */
static SchemaNode *
schema_walk (SchemaNode *root, const char *prefix, const char *path)
{
  g_autofree char *full = g_strconcat (prefix, path, NULL);
  SchemaNode *node = root;
  const char *segment = full;
  while (*segment != '\0')
    {
      gsize len = strcspn (segment, ".[");
      if (len > 0)
        node = schema_child (node, segment, len);
      segment += len;
      if (g_str_has_prefix (segment, "[]"))
        {
          node = schema_child (node, "[]", 2);
          segment += 2;
        }
      if (*segment == '.')
        segment++;
    }
  return node;
}

static void
schema_add (SchemaNode *root, const char *prefix, const PathSpec *spec)
{
  SchemaNode *node = schema_walk (root, prefix, spec->path);
  if (spec->field != F_NONE)
    node->field = spec->field;
  if (spec->record != R_NONE)
    node->record = spec->record;
}

static void
schema_add_requirements (SchemaNode *root, const char *prefix, const PathSpec *list)
{
  g_autofree char *base = g_strconcat (prefix, list->path, NULL);
  schema_add (root, "", &(PathSpec){ base, 0, list->record });
  schema_add (root, base, &(PathSpec){ ".key", F_REQ_KEY, 0 });
  schema_add (root, base, &(PathSpec){ ".operator", F_REQ_OP, 0 });
  schema_add (root, base, &(PathSpec){ ".values[]", F_REQ_VALUE, 0 });
}

static void
schema_add_selector (SchemaNode *root, const char *path, FsRecord record)
{
  schema_add (root, "", &(PathSpec){ path, 0, record });
  schema_add (root, path, &(PathSpec){ ".matchLabels.*", F_SEL_LABEL, 0 });
  schema_add_requirements (root, path, &(PathSpec){ ".matchExpressions[]", 0, R_REQ_SEL });
}

static void
schema_add_pod_spec (SchemaNode *root, const char *prefix)
{
  for (gsize i = 0; i < G_N_ELEMENTS (pod_spec_paths); i++)
    schema_add (root, prefix, &pod_spec_paths[i]);
  for (gsize i = 0; i < G_N_ELEMENTS (pod_requirement_lists); i++)
    schema_add_requirements (root, prefix, &pod_requirement_lists[i]);
  for (gsize i = 0; i < G_N_ELEMENTS (pod_affinity_terms); i++)
    {
      const PathSpec *term = &pod_affinity_terms[i];
      schema_add (root, prefix, term);
      g_autofree char *base = g_strconcat (prefix, term->path, NULL);
      schema_add (root, base, &(PathSpec){ ".topologyKey", F_TERM_TOPOLOGY_KEY, 0 });
      schema_add (root, base, &(PathSpec){ ".namespaces[]", F_TERM_NAMESPACE, 0 });
      g_autofree char *selector = g_strconcat (base, ".labelSelector", NULL);
      g_autofree char *ns_selector = g_strconcat (base, ".namespaceSelector", NULL);
      schema_add_selector (root, selector, R_SEL_TERM);
      schema_add_selector (root, ns_selector, R_SEL_TERM_NS);
    }
  g_autofree char *spread = g_strconcat (prefix, "topologySpreadConstraints[].labelSelector", NULL);
  schema_add_selector (root, spread, R_SEL_SPREAD);
}

static guint
key_bucket (const char *key, gsize len)
{
  return (guint) (len * 7 + (guchar) key[0] * 3 + (guchar) key[len - 1]) % SCHEMA_BUCKETS;
}

/* Hashes every node's named children into its buckets, once the trie is complete. */
static void
schema_index (SchemaNode *node, GHashTable *seen)
{
  if (node == NULL || !g_hash_table_add (seen, node))
    return;
  for (SchemaNode *child = node->first_child; child != NULL; child = child->next_sibling)
    {
      guint bucket = key_bucket (child->key, child->key_len);
      child->next_in_bucket = node->buckets[bucket];
      node->buckets[bucket] = child;
      schema_index (child, seen);
    }
  schema_index (node->any, seen);
  schema_index (node->elem, seen);
}

static const SchemaNode *
schema_root (void)
{
  static SchemaNode *root;
  if (g_once_init_enter (&root))
    {
      SchemaNode *built = g_new0 (SchemaNode, 1);
      built->record = R_OBJECT;
      for (gsize i = 0; i < G_N_ELEMENTS (object_paths); i++)
        schema_add (built, "", &object_paths[i]);
      schema_add_pod_spec (built, "spec.");
      schema_add_pod_spec (built, "spec.template.spec.");
      schema_add_selector (built, "spec.selector", R_SEL_WORKLOAD);
      /* A list's items are objects: "items[]" leads back to the root. */
      schema_child (built, "items", 5)->elem = built;
      g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);
      schema_index (built, seen);
      g_once_init_leave (&root, built);
    }
  return root;
}

/* Whether A and B (LEN bytes each, LEN > 0) are equal: schema keys are short, and two
 * overlapping loads per side beat a call to memcmp. */
static inline gboolean
same_bytes (const char *a, const char *b, gsize len)
{
  if (len >= 8)
    {
      for (gsize at = 0; at + 8 < len; at += 8)
        {
          guint64 wa, wb;
          memcpy (&wa, a + at, 8);
          memcpy (&wb, b + at, 8);
          if (wa != wb)
            return FALSE;
        }
      guint64 ta, tb;
      memcpy (&ta, a + len - 8, 8);
      memcpy (&tb, b + len - 8, 8);
      return ta == tb;
    }
  if (len >= 4)
    {
      guint32 ha, hb, ta, tb;
      memcpy (&ha, a, 4);
      memcpy (&hb, b, 4);
      memcpy (&ta, a + len - 4, 4);
      memcpy (&tb, b + len - 4, 4);
      return ha == hb && ta == tb;
    }
  for (gsize at = 0; at < len; at++)
    if (a[at] != b[at])
      return FALSE;
  return TRUE;
}

static inline __attribute__ ((always_inline)) const SchemaNode *
schema_lookup (const SchemaNode *parent, const char *key, gsize len)
{
  if (len > 0)
    for (const SchemaNode *child = parent->buckets[key_bucket (key, len)]; child != NULL;
         child = child->next_in_bucket)
      if (child->key_len == len && same_bytes (child->key, key, len))
        return child;
  return parent->any;
}

static gboolean
schema_is_container (const SchemaNode *node)
{
  return node->first_child != NULL || node->any != NULL;
}

/* ---- generic trees ------------------------------------------------------------------ */

typedef struct {
  FsTreeType type;
  GPtrArray *keys;   /* const char*, interned */
  GPtrArray *values; /* const FsTree* */
  const char *pending_key;
} TreeFrame;

#define TREE_MAX_NODES 200000

/* An object whose kind is not known yet (the first item of a kubectl `List`, whose kind
 * comes after its items) may be generic.  Its capture is deferred while only apiVersion and
 * kind are read, which is where a real object says what it is: a Pod then costs no tree. */
typedef struct {
  gboolean active;
  gboolean pending;      /* deferred: starts at the object's first other key, or its kind */
  guint object_level;    /* the object (builder level) whose tree this is */
  guint skip_depth;      /* > 0 inside managedFields / annotations */
  GArray *frames;        /* TreeFrame */
  const FsTree *result;
  guint n_nodes;
} TreeCapture;

/* ---- the decoder -------------------------------------------------------------------- */

typedef struct {
  const SchemaNode *node;   /* the container's schema node */
  const SchemaNode *child;  /* maps: the schema node of the current key; NULL = skip it */
  const char *key;          /* maps: the current key (schema name), for error paths */
  gboolean is_list;
  guint index;              /* lists: index of the current element */
} Frame;

#define MAX_OBJECT_LEVELS 4

struct FsDecoder {
  const SchemaNode *root;           /* schema_root () */
  FsSnapshotBuilder *snapshot_builder;
  FsPool *pool;
  char *source;
  char *position;
  Frame frames[FS_DECODE_MAX_DEPTH];
  guint depth;
  guint skip_depth;                 /* > 0 while inside a subtree nobody reads */
  FsObjectBuilder *objects[MAX_OBJECT_LEVELS];
  guint object_frame[MAX_OBJECT_LEVELS]; /* frame depth at which each open object began */
  guint object_item[MAX_OBJECT_LEVELS];  /* its index in the enclosing list, or G_MAXUINT */
  guint n_objects_open;
  guint64 n_objects_seen;
  GString *any_key;                 /* the last key read through a "*" node */
  TreeCapture tree;
  GError *error;
  yajl_callbacks yajl;              /* the JSON front end's (fs_decoder_yajl_callbacks) */
};

static void yajl_quiet (FsDecoder *decoder, gboolean quiet);

FsDecoder *
fs_decoder_new (FsSnapshotBuilder *builder, const char *source)
{
  FsDecoder *decoder = g_new0 (FsDecoder, 1);
  decoder->root = schema_root ();
  decoder->snapshot_builder = builder;
  decoder->pool = fs_snapshot_builder_pool (builder);
  decoder->source = g_strdup (source);
  decoder->any_key = g_string_new (NULL);
  decoder->tree.frames = g_array_new (FALSE, FALSE, sizeof (TreeFrame));
  yajl_quiet (decoder, FALSE);
  return decoder;
}

static void tree_abort (TreeCapture *tree);

void
fs_decoder_free (FsDecoder *decoder)
{
  if (decoder == NULL)
    return;
  tree_abort (&decoder->tree);
  g_array_unref (decoder->tree.frames);
  for (guint i = 0; i < MAX_OBJECT_LEVELS; i++)
    if (decoder->objects[i] != NULL)
      fs_object_builder_free (decoder->objects[i]);
  g_string_free (decoder->any_key, TRUE);
  g_clear_error (&decoder->error);
  g_free (decoder->source);
  g_free (decoder->position);
  g_free (decoder);
}

void
fs_decoder_set_position (FsDecoder *decoder, const char *position)
{
  g_free (decoder->position);
  decoder->position = g_strdup (position);
}

gboolean
fs_decoder_in_document (const FsDecoder *decoder)
{
  return decoder->depth > 0 || decoder->skip_depth > 0;
}

/* "spec.containers[0].resources.requests.memory" for the innermost open object. */
static char *
field_path (const FsDecoder *decoder)
{
  GString *path = g_string_new (NULL);
  guint first = decoder->n_objects_open > 0
                    ? decoder->object_frame[decoder->n_objects_open - 1] : 0;
  for (guint i = first; i < decoder->depth; i++)
    {
      const Frame *frame = &decoder->frames[i];
      if (frame->is_list)
        g_string_append_printf (path, "[%u]", frame->index);
      else if (frame->key != NULL)
        {
          gboolean any = frame->child != NULL && frame->node->any == frame->child
                         && strcmp (frame->key, "*") == 0;
          if (path->len > 0)
            g_string_append_c (path, '.');
          g_string_append (path, any ? decoder->any_key->str : frame->key);
        }
    }
  return g_string_free (path, FALSE);
}

static char *
object_context (FsDecoder *decoder)
{
  if (decoder->n_objects_open == 0)
    return g_strdup ("");
  guint level = decoder->n_objects_open - 1;
  const char *described = fs_object_describe (decoder->objects[level]);
  guint item = decoder->object_item[level];
  if (item != G_MAXUINT && described[0] != '\0')
    return g_strdup_printf ("item %u (%s): ", item, described);
  if (item != G_MAXUINT)
    return g_strdup_printf ("item %u: ", item);
  if (described[0] != '\0')
    return g_strdup_printf ("%s: ", described);
  return g_strdup ("");
}

/* "object: field path: MESSAGE" — the source and position are added when it is taken. */
static GError *
contextual_error (FsDecoder *decoder, const char *message, gboolean with_field)
{
  g_autofree char *object = object_context (decoder);
  g_autofree char *path = with_field ? field_path (decoder) : NULL;
  g_autofree char *field = path != NULL && path[0] != '\0'
                               ? g_strdup_printf ("field %s: ", path) : g_strdup ("");
  return g_error_new (FS_ERROR, FS_ERROR_INVALID, "%s%s%s", object, field, message);
}

static GError *
with_source (FsDecoder *decoder, GError *error)
{
  g_autofree char *position = decoder->position != NULL
                                  ? g_strdup_printf ("%s: ", decoder->position) : g_strdup ("");
  GError *located = g_error_new (FS_ERROR, error->code, "%s: %s%s", decoder->source, position,
                                 error->message);
  g_error_free (error);
  return located;
}

GError *
fs_decoder_wrap_error (FsDecoder *decoder, const char *message)
{
  return with_source (decoder, contextual_error (decoder, message, TRUE));
}

GError *
fs_decoder_take_error (FsDecoder *decoder)
{
  if (decoder->error == NULL)
    return NULL;
  return with_source (decoder, g_steal_pointer (&decoder->error));
}

/* Records ERROR (taken) with the context; always returns FALSE.  The failures are out of
 * line (and cold), so that the event paths need no stack frame. */
G_GNUC_NO_INLINE __attribute__ ((cold)) static gboolean
fail_with (FsDecoder *decoder, GError *error)
{
  if (decoder->error == NULL)
    {
      GError *wrapped = contextual_error (decoder, error->message, TRUE);
      wrapped->code = error->code;
      decoder->error = wrapped;
    }
  g_error_free (error);
  return FALSE;
}

G_GNUC_PRINTF (2, 3)
G_GNUC_NO_INLINE __attribute__ ((cold)) static gboolean
fail (FsDecoder *decoder, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  g_autofree char *message = g_strdup_vprintf (format, args);
  va_end (args);
  return fail_with (decoder, g_error_new_literal (FS_ERROR, FS_ERROR_INVALID, message));
}

/* ---- tree capture ------------------------------------------------------------------- */

static void
tree_frame_clear (TreeFrame *frame)
{
  if (frame->keys != NULL)
    g_ptr_array_unref (frame->keys);
  if (frame->values != NULL)
    g_ptr_array_unref (frame->values);
}

static void
tree_abort (TreeCapture *tree)
{
  for (guint i = 0; i < tree->frames->len; i++)
    tree_frame_clear (&g_array_index (tree->frames, TreeFrame, i));
  g_array_set_size (tree->frames, 0);
  tree->active = FALSE;
  tree->pending = FALSE;
  tree->skip_depth = 0;
  tree->result = NULL;
  tree->n_nodes = 0;
}

static void
tree_start (TreeCapture *tree, guint object_level)
{
  tree_abort (tree);
  tree->active = TRUE;
  tree->object_level = object_level;
}

static gboolean
tree_append (FsDecoder *decoder, const FsTree *node)
{
  TreeCapture *tree = &decoder->tree;
  if (++tree->n_nodes > TREE_MAX_NODES)
    return fail_with (decoder, g_error_new (FS_ERROR, FS_ERROR_LIMIT,
                                            "object has more than %u values", TREE_MAX_NODES));
  if (tree->frames->len == 0)
    {
      tree->result = node;
      return TRUE;
    }
  TreeFrame *top = &g_array_index (tree->frames, TreeFrame, tree->frames->len - 1);
  if (top->type == FS_TREE_MAP)
    {
      g_ptr_array_add (top->keys, (gpointer) (top->pending_key != NULL ? top->pending_key : ""));
      top->pending_key = NULL;
    }
  g_ptr_array_add (top->values, (gpointer) node);
  return TRUE;
}

/* Whether the tree stays out of this key (at the object's metadata level). */
static gboolean
tree_excludes (const TreeCapture *tree, const char *key, gsize len)
{
  if (tree->frames->len != 2)
    return FALSE;
  const char *parent_key = g_array_index (tree->frames, TreeFrame, 0).pending_key;
  if (g_strcmp0 (parent_key, "metadata") != 0)
    return FALSE;
  return (len == 13 && memcmp (key, "managedFields", 13) == 0)
         || (len == 11 && memcmp (key, "annotations", 11) == 0);
}

static void
tree_open (FsDecoder *decoder, FsTreeType type)
{
  TreeCapture *tree = &decoder->tree;
  if (!tree->active)
    return;
  if (tree->skip_depth > 0)
    {
      tree->skip_depth++;
      return;
    }
  TreeFrame frame = { .type = type, .values = g_ptr_array_new () };
  if (type == FS_TREE_MAP)
    frame.keys = g_ptr_array_new ();
  g_array_append_val (tree->frames, frame);
}

static gboolean
tree_close (FsDecoder *decoder)
{
  TreeCapture *tree = &decoder->tree;
  if (!tree->active)
    return TRUE;
  if (tree->skip_depth > 0)
    {
      /* depth 1 means "the next value is excluded"; the excluded container's own end
       * brings it back to 1, which ends the exclusion */
      if (--tree->skip_depth == 1)
        tree->skip_depth = 0;
      return TRUE;
    }
  TreeFrame frame = g_array_index (tree->frames, TreeFrame, tree->frames->len - 1);
  g_array_set_size (tree->frames, tree->frames->len - 1);
  FsTree *node = fs_pool_alloc (decoder->pool, sizeof (FsTree));
  node->type = frame.type;
  node->n = frame.values->len;
  gsize bytes = frame.values->len * sizeof (gpointer);
  node->values = bytes > 0 ? memcpy (fs_pool_alloc (decoder->pool, bytes), frame.values->pdata, bytes)
                           : NULL;
  if (frame.keys != NULL && bytes > 0)
    node->keys = memcpy (fs_pool_alloc (decoder->pool, bytes), frame.keys->pdata, bytes);
  tree_frame_clear (&frame);
  return tree_append (decoder, node);
}

static void
tree_key (FsDecoder *decoder, const char *key, gsize len)
{
  TreeCapture *tree = &decoder->tree;
  if (!tree->active || tree->skip_depth > 0)
    return;
  TreeFrame *top = &g_array_index (tree->frames, TreeFrame, tree->frames->len - 1);
  if (tree_excludes (tree, key, len))
    {
      top->pending_key = NULL;
      tree->skip_depth = 1; /* the next value is skipped; scalars end it at once */
      return;
    }
  top->pending_key = fs_pool_intern (decoder->pool, key, len);
}

static gboolean
tree_scalar (FsDecoder *decoder, FsScalarType type, const char *text, gsize len)
{
  TreeCapture *tree = &decoder->tree;
  if (!tree->active)
    return TRUE;
  if (tree->skip_depth > 0)
    {
      if (tree->skip_depth == 1)
        tree->skip_depth = 0; /* an excluded scalar value */
      return TRUE;
    }
  static const FsTreeType types[] = { [FS_SCALAR_NULL] = FS_TREE_NULL,
                                      [FS_SCALAR_BOOL] = FS_TREE_BOOL,
                                      [FS_SCALAR_NUMBER] = FS_TREE_NUMBER,
                                      [FS_SCALAR_STRING] = FS_TREE_STRING };
  FsTree *node = fs_pool_alloc (decoder->pool, sizeof (FsTree));
  node->type = types[type];
  node->text = fs_pool_intern (decoder->pool, text, len);
  return tree_append (decoder, node);
}

/* ---- objects ------------------------------------------------------------------------ */

static const char *
inherited_kind (FsDecoder *decoder, char *buffer, gsize size)
{
  if (decoder->n_objects_open == 0)
    return NULL;
  const char *list_kind = fs_object_kind (decoder->objects[decoder->n_objects_open - 1]);
  if (list_kind == NULL || !g_str_has_suffix (list_kind, "List") || strcmp (list_kind, "List") == 0)
    return NULL;
  g_strlcpy (buffer, list_kind, MIN (size, strlen (list_kind) - 4 + 1));
  return buffer;
}

static gboolean
object_begin (FsDecoder *decoder)
{
  if (decoder->n_objects_open == MAX_OBJECT_LEVELS)
    return fail (decoder, "lists nested more than %d deep", MAX_OBJECT_LEVELS - 1);
  if (++decoder->n_objects_seen > FS_DECODE_MAX_OBJECTS)
    return fail_with (decoder, g_error_new (FS_ERROR, FS_ERROR_LIMIT,
                                            "more than %u objects", FS_DECODE_MAX_OBJECTS));
  char kind_buffer[128];
  const char *kind = inherited_kind (decoder, kind_buffer, sizeof kind_buffer);
  guint level = decoder->n_objects_open;
  const Frame *parent = decoder->depth >= 2 ? &decoder->frames[decoder->depth - 2] : NULL;
  decoder->object_item[level] = parent != NULL && parent->is_list ? parent->index : G_MAXUINT;
  decoder->object_frame[level] = decoder->depth - 1; /* the object's own frame */
  if (decoder->objects[level] == NULL)
    decoder->objects[level] = fs_object_builder_new (decoder->snapshot_builder);
  fs_object_begin (decoder->objects[level], kind);
  decoder->n_objects_open++;
  if (kind == NULL)
    {
      tree_abort (&decoder->tree);
      decoder->tree.pending = TRUE;
      decoder->tree.object_level = level;
    }
  else if (fs_kind_is_generic (kind))
    {
      tree_start (&decoder->tree, level);
      tree_open (decoder, FS_TREE_MAP);
    }
  return TRUE;
}

/* The deferred capture starts: the object's map, with the apiVersion read so far. */
static void
tree_resume (FsDecoder *decoder)
{
  TreeCapture *tree = &decoder->tree;
  tree_start (tree, tree->object_level);
  tree_open (decoder, FS_TREE_MAP);
  const char *api_version = fs_object_api_version (decoder->objects[tree->object_level]);
  if (api_version != NULL)
    {
      tree_key (decoder, "apiVersion", 10);
      tree_scalar (decoder, FS_SCALAR_STRING, api_version, strlen (api_version));
    }
}

/* Whether the key being read is at the root of the object whose capture is deferred. */
static gboolean
tree_pending_here (const FsDecoder *decoder)
{
  guint level = decoder->tree.object_level;
  return decoder->tree.pending && decoder->skip_depth == 0 && level + 1 == decoder->n_objects_open
         && decoder->object_frame[level] + 1 == decoder->depth;
}

static gboolean
object_end (FsDecoder *decoder)
{
  guint level = decoder->n_objects_open - 1;
  const FsTree *tree = NULL;
  if (decoder->tree.pending && decoder->tree.object_level == level)
    decoder->tree.pending = FALSE;
  if (decoder->tree.active && decoder->tree.object_level == level)
    {
      tree = decoder->tree.result;
      decoder->tree.active = FALSE;
      decoder->tree.result = NULL;
      decoder->tree.n_nodes = 0;
    }
  GError *error = NULL;
  gboolean ok = fs_object_end (decoder->objects[level], tree, &error);
  if (!ok)
    fail_with (decoder, error);
  decoder->n_objects_open--;
  return ok;
}

/* The kind became known: stop capturing a tree unless the kind is generic. */
static void
object_kind_known (FsDecoder *decoder)
{
  guint level = decoder->n_objects_open - 1;
  const char *kind = fs_object_kind (decoder->objects[level]);
  if (kind == NULL || decoder->tree.object_level != level)
    return;
  if (decoder->tree.pending)
    {
      decoder->tree.pending = FALSE;
      if (fs_kind_is_generic (kind))
        {
          tree_resume (decoder);
          tree_key (decoder, "kind", 4);
          tree_scalar (decoder, FS_SCALAR_STRING, kind, strlen (kind));
        }
    }
  else if (decoder->tree.active && !fs_kind_is_generic (kind))
    tree_abort (&decoder->tree);
}

/* ---- events ------------------------------------------------------------------------- */

/* The schema node the next value goes to: NULL when nobody reads it. */
static const SchemaNode *
value_target (FsDecoder *decoder)
{
  if (decoder->depth == 0)
    return decoder->root;
  const Frame *top = &decoder->frames[decoder->depth - 1];
  return top->is_list ? top->node->elem : top->child;
}

G_GNUC_NO_INLINE __attribute__ ((cold)) static gboolean
too_deep (FsDecoder *decoder)
{
  return fail_with (decoder, g_error_new (FS_ERROR, FS_ERROR_LIMIT, "nesting deeper than %d",
                                          FS_DECODE_MAX_DEPTH));
}

static gboolean
container_begin (FsDecoder *decoder, gboolean is_list)
{
  if (decoder->skip_depth > 0)
    {
      if (decoder->depth + ++decoder->skip_depth > FS_DECODE_MAX_DEPTH)
        return too_deep (decoder);
      return TRUE;
    }
  const SchemaNode *target = value_target (decoder);
  if (target == NULL)
    {
      decoder->skip_depth = 1;
      if (!decoder->tree.active)
        yajl_quiet (decoder, TRUE);
      return TRUE;
    }
  if (is_list && target->elem == NULL)
    return fail (decoder, "expected %s, got a list",
                 schema_is_container (target) ? "an object" : "a single value");
  if (!is_list && !schema_is_container (target))
    return fail (decoder, "expected %s, got an object",
                 target->elem != NULL ? "a list" : "a single value");
  if (decoder->depth == FS_DECODE_MAX_DEPTH)
    return too_deep (decoder);
  decoder->frames[decoder->depth++] = (Frame){ .node = target, .is_list = is_list };
  if (target->record == R_OBJECT)
    return object_begin (decoder);
  if (target->record != R_NONE)
    fs_object_record_begin (decoder->objects[decoder->n_objects_open - 1], target->record);
  return TRUE;
}

/* The end of a container inside a skipped subtree; at the subtree's own end, yajl calls
 * every callback again. */
static gboolean
skipped_container_end (FsDecoder *decoder)
{
  if (--decoder->skip_depth > 0)
    return TRUE;
  yajl_quiet (decoder, FALSE);
  if (decoder->depth > 0 && decoder->frames[decoder->depth - 1].is_list)
    decoder->frames[decoder->depth - 1].index++;
  return TRUE;
}

static gboolean
container_end (FsDecoder *decoder)
{
  if (decoder->skip_depth > 0)
    return skipped_container_end (decoder);
  const SchemaNode *node = decoder->frames[decoder->depth - 1].node;
  gboolean ok = TRUE;
  if (node->record == R_OBJECT)
    ok = object_end (decoder);
  else if (node->record != R_NONE)
    {
      GError *error = NULL;
      ok = fs_object_record_end (decoder->objects[decoder->n_objects_open - 1], node->record,
                                 &error);
      if (!ok)
        fail_with (decoder, error);
    }
  decoder->depth--;
  if (decoder->depth > 0 && decoder->frames[decoder->depth - 1].is_list)
    decoder->frames[decoder->depth - 1].index++;
  return ok;
}

/* Most events fall inside subtrees nobody reads; the entry points handle those inline and
 * leave the rest to the out-of-line functions, so the common case costs a few instructions. */
#define SKIPPING(decoder) ((decoder)->skip_depth > 0 && !(decoder)->tree.active)

static gboolean
skipped_container_begin (FsDecoder *decoder)
{
  if (G_UNLIKELY (decoder->depth + ++decoder->skip_depth > FS_DECODE_MAX_DEPTH))
    return too_deep (decoder);
  return TRUE;
}

G_GNUC_NO_INLINE static gboolean
map_begin_slow (FsDecoder *decoder)
{
  tree_open (decoder, FS_TREE_MAP);
  return container_begin (decoder, FALSE);
}

G_GNUC_NO_INLINE static gboolean
list_begin_slow (FsDecoder *decoder)
{
  tree_open (decoder, FS_TREE_LIST);
  return container_begin (decoder, TRUE);
}

G_GNUC_NO_INLINE static gboolean
container_end_slow (FsDecoder *decoder)
{
  return tree_close (decoder) && container_end (decoder);
}

gboolean
fs_decoder_map_begin (FsDecoder *decoder)
{
  return SKIPPING (decoder) ? skipped_container_begin (decoder) : map_begin_slow (decoder);
}

gboolean
fs_decoder_list_begin (FsDecoder *decoder)
{
  return SKIPPING (decoder) ? skipped_container_begin (decoder) : list_begin_slow (decoder);
}

gboolean
fs_decoder_map_end (FsDecoder *decoder)
{
  return SKIPPING (decoder) ? skipped_container_end (decoder) : container_end_slow (decoder);
}

gboolean
fs_decoder_list_end (FsDecoder *decoder)
{
  return SKIPPING (decoder) ? skipped_container_end (decoder) : container_end_slow (decoder);
}

/* A key read through a "*" node: kept for the value's field (a label's key, say). */
G_GNUC_NO_INLINE static gboolean
any_key_read (FsDecoder *decoder, Frame *top, const char *key, gsize len)
{
  top->key = "*";
  g_string_set_size (decoder->any_key, len);
  memcpy (decoder->any_key->str, key, len);
  return TRUE;
}

/* A key while a tree is captured or deferred, or inside a skipped subtree being captured. */
G_GNUC_NO_INLINE static gboolean
map_key_captured (FsDecoder *decoder, const char *key, gsize len)
{
  if (len > FS_DECODE_MAX_STRING)
    return fail_with (decoder, g_error_new (FS_ERROR, FS_ERROR_LIMIT,
                                            "a key longer than %u bytes",
                                            FS_DECODE_MAX_STRING));
  Frame *top = &decoder->frames[decoder->depth - 1];
  const SchemaNode *child = decoder->skip_depth > 0 ? NULL : schema_lookup (top->node, key, len);
  if (G_UNLIKELY (decoder->tree.pending) && tree_pending_here (decoder)
      && (child == NULL || (child->field != F_KIND && child->field != F_API_VERSION)))
    {
      if (child != NULL && child->elem == decoder->root)
        decoder->tree.pending = FALSE; /* a list's items: the list itself is not generic */
      else
        tree_resume (decoder);
    }
  tree_key (decoder, key, len);
  if (decoder->skip_depth > 0)
    return TRUE;
  top->child = child;
  top->key = child != NULL ? child->key : NULL;
  if (child != NULL && child == top->node->any)
    any_key_read (decoder, top, key, len);
  /* A list's items are never generic objects themselves: stop capturing the list. */
  if (child != NULL && child->elem == decoder->root && decoder->tree.active
      && decoder->tree.object_level == decoder->n_objects_open - 1)
    tree_abort (&decoder->tree);
  return TRUE;
}

/* A key of a map somebody reads (not SKIPPING), with no tree in the way: the schema says
 * what follows.  Inside a skipped subtree a tree is being captured, so skip_depth > 0 goes
 * to map_key_captured with tree.active. */
G_GNUC_NO_INLINE static gboolean
map_key_read (FsDecoder *decoder, const char *key, gsize len)
{
  if (G_UNLIKELY (decoder->tree.pending || decoder->tree.active || len > FS_DECODE_MAX_STRING))
    return map_key_captured (decoder, key, len);
  Frame *top = &decoder->frames[decoder->depth - 1];
  const SchemaNode *child = schema_lookup (top->node, key, len);
  top->child = child;
  if (child == NULL)
    {
      top->key = NULL;
      return TRUE;
    }
  if (child == top->node->any)
    return any_key_read (decoder, top, key, len);
  top->key = child->key;
  return TRUE;
}

gboolean
fs_decoder_map_key (FsDecoder *decoder, const char *key, gsize len)
{
  return SKIPPING (decoder) ? TRUE : map_key_read (decoder, key, len);
}

G_GNUC_NO_INLINE static gboolean
scalar_slow (FsDecoder *decoder, FsScalarType type, const char *text, gsize len)
{
  if (len > FS_DECODE_MAX_STRING)
    return fail_with (decoder, g_error_new (FS_ERROR, FS_ERROR_LIMIT,
                                            "a value longer than %u bytes",
                                            FS_DECODE_MAX_STRING));
  if (!tree_scalar (decoder, type, text, len))
    return FALSE;
  if (decoder->skip_depth > 0)
    return TRUE;
  const SchemaNode *target = value_target (decoder);
  if (target == NULL || type == FS_SCALAR_NULL)
    goto next;
  if (decoder->depth == 0)
    return fail (decoder, "expected an object, got a single value");
  if (target->field == F_NONE)
    return fail (decoder, "expected %s, got a single value",
                 target->elem != NULL ? "a list" : "an object");
  FsObjectBuilder *object = decoder->objects[decoder->n_objects_open - 1];
  const char *any_key = target == decoder->frames[decoder->depth - 1].node->any
                            ? decoder->any_key->str : NULL;
  GError *error = NULL;
  FsScalar scalar = { type, text, len };
  if (!fs_object_scalar (object, target->field, any_key, &scalar, &error))
    return fail_with (decoder, error);
  if (target->field == F_KIND)
    object_kind_known (decoder);
next:
  if (decoder->depth > 0 && decoder->frames[decoder->depth - 1].is_list)
    decoder->frames[decoder->depth - 1].index++;
  return TRUE;
}

gboolean
fs_decoder_scalar (FsDecoder *decoder, FsScalarType type, const char *text, gsize len)
{
  return SKIPPING (decoder) ? TRUE : scalar_slow (decoder, type, text, len);
}

/* ---- the JSON front end's callbacks (decode.h) --------------------------------------- */

static int
on_null (void *decoder)
{
  return fs_decoder_scalar (decoder, FS_SCALAR_NULL, "null", 4);
}

static int
on_boolean (void *decoder, int value)
{
  return value ? fs_decoder_scalar (decoder, FS_SCALAR_BOOL, "true", 4)
               : fs_decoder_scalar (decoder, FS_SCALAR_BOOL, "false", 5);
}

static int
on_number (void *decoder, const char *text, size_t len)
{
  return fs_decoder_scalar (decoder, FS_SCALAR_NUMBER, text, len);
}

static int
on_string (void *decoder, const unsigned char *text, size_t len)
{
  return fs_decoder_scalar (decoder, FS_SCALAR_STRING, (const char *) text, len);
}

static int
on_map_begin (void *decoder)
{
  return fs_decoder_map_begin (decoder);
}

static int
on_map_key (void *decoder, const unsigned char *key, size_t len)
{
  return fs_decoder_map_key (decoder, (const char *) key, len);
}

static int
on_map_end (void *decoder)
{
  return fs_decoder_map_end (decoder);
}

static int
on_list_begin (void *decoder)
{
  return fs_decoder_list_begin (decoder);
}

static int
on_list_end (void *decoder)
{
  return fs_decoder_list_end (decoder);
}

/* In a quiet subtree (below) only the depth matters. */
static int
on_quiet_begin (void *decoder)
{
  return skipped_container_begin (decoder);
}

static int
on_quiet_end (void *decoder)
{
  return skipped_container_end (decoder);
}

/* Inside a subtree nobody reads (and no tree captures), yajl need not call anything but the
 * container callbacks, which count the depth: yajl_alloc keeps the table by reference and
 * checks each entry before a call, so clearing the key and scalar entries spares those calls
 * (and yajl's unescaping of the strings).  Nothing depends on it: were the table copied, the
 * decoder would get those events and ignore them, as fs_decoder_* do while skipping. */
static void
yajl_quiet (FsDecoder *decoder, gboolean quiet)
{
  yajl_callbacks *table = &decoder->yajl;
  table->yajl_null = quiet ? NULL : on_null;
  table->yajl_boolean = quiet ? NULL : on_boolean;
  table->yajl_number = quiet ? NULL : on_number;
  table->yajl_string = quiet ? NULL : on_string;
  table->yajl_map_key = quiet ? NULL : on_map_key;
  table->yajl_start_map = quiet ? on_quiet_begin : on_map_begin;
  table->yajl_end_map = quiet ? on_quiet_end : on_map_end;
  table->yajl_start_array = quiet ? on_quiet_begin : on_list_begin;
  table->yajl_end_array = quiet ? on_quiet_end : on_list_end;
}

const yajl_callbacks *
fs_decoder_yajl_callbacks (FsDecoder *decoder)
{
  return &decoder->yajl;
}
