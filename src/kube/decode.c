/* fitscale — the document walker: maps paths to fields through the schema (schema.c), skips
 * the rest, has generic objects captured as trees (capture.c), and keeps enough context to
 * say where an error is.  (see include/fitscale/kube/decode.h; the fields themselves are
 * handled by the object builder, objects.c) */
#include "config.h"

#include <string.h>
#include <yajl/yajl_parse.h>

#include "capture.h"
#include "fitscale/model/error.h"
#include "fields.h"
#include "schema.h"

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
  const SchemaNode *root;           /* fs_schema_root () */
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
  /* per open List: the namespace of its Pod items, whether they span several, how many */
  const char *list_namespace[MAX_OBJECT_LEVELS];
  gboolean list_mixed[MAX_OBJECT_LEVELS];
  guint list_pods[MAX_OBJECT_LEVELS];
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
  decoder->root = fs_schema_root ();
  decoder->snapshot_builder = builder;
  decoder->pool = fs_snapshot_builder_pool (builder);
  decoder->source = g_strdup (source);
  decoder->any_key = g_string_new (NULL);
  fs_capture_init (&decoder->tree, decoder->pool);
  yajl_quiet (decoder, FALSE);
  return decoder;
}

void
fs_decoder_free (FsDecoder *decoder)
{
  if (decoder == NULL)
    return;
  fs_capture_clear (&decoder->tree);
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

/* ---- the tree capture's events (capture.c) ------------------------------------------ */

/* Most events come while no capture is active: that is checked here, inline, and the
 * capture is called only while one is.  A failure (the tree's size limit) is recorded with
 * the context. */
static inline void
tree_open (FsDecoder *decoder, FsTreeType type)
{
  if (decoder->tree.active)
    fs_capture_open (&decoder->tree, type);
}

G_GNUC_NO_INLINE static gboolean
tree_close_active (FsDecoder *decoder)
{
  GError *error = NULL;
  return fs_capture_close (&decoder->tree, &error) || fail_with (decoder, error);
}

static inline gboolean
tree_close (FsDecoder *decoder)
{
  return !decoder->tree.active || tree_close_active (decoder);
}

static inline void
tree_key (FsDecoder *decoder, const char *key, gsize len)
{
  if (decoder->tree.active)
    fs_capture_key (&decoder->tree, key, len);
}

G_GNUC_NO_INLINE static gboolean
tree_scalar_active (FsDecoder *decoder, FsScalarType type, const char *text, gsize len)
{
  GError *error = NULL;
  return fs_capture_scalar (&decoder->tree, type, text, len, &error) || fail_with (decoder, error);
}

static inline gboolean
tree_scalar (FsDecoder *decoder, FsScalarType type, const char *text, gsize len)
{
  return !decoder->tree.active || tree_scalar_active (decoder, type, text, len);
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
  decoder->list_namespace[level] = NULL;
  decoder->list_mixed[level] = FALSE;
  decoder->list_pods[level] = 0;
  decoder->n_objects_open++;
  if (kind == NULL)
    {
      fs_capture_abort (&decoder->tree);
      decoder->tree.pending = TRUE;
      decoder->tree.object_level = level;
    }
  else if (fs_kind_is_generic (kind))
    {
      fs_capture_start (&decoder->tree, level);
      tree_open (decoder, FS_TREE_MAP);
    }
  return TRUE;
}

/* The deferred capture starts: the object's map, with the apiVersion read so far. */
static void
tree_resume (FsDecoder *decoder)
{
  TreeCapture *tree = &decoder->tree;
  fs_capture_start (tree, tree->object_level);
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

/* A Pod item of the List at LEVEL - 1 ended: its namespace is noted there. */
static void
note_list_item (FsDecoder *decoder, guint level)
{
  const FsObjectBuilder *item = decoder->objects[level];
  if (level == 0 || g_strcmp0 (fs_object_kind (item), "Pod") != 0)
    return;
  guint list = level - 1;
  const char *ns = fs_object_namespace (item);
  if (decoder->list_pods[list]++ == 0)
    decoder->list_namespace[list] = ns;
  else if (g_strcmp0 (decoder->list_namespace[list], ns) != 0)
    decoder->list_mixed[list] = TRUE;
}

/* A List ended: whether it is the answer of a one-namespace query (its selfLink names a
 * namespace, or all its pods are of one), for plan/completeness.h. */
static void
note_list (FsDecoder *decoder, guint level)
{
  const FsObjectBuilder *list = decoder->objects[level];
  const char *kind = fs_object_kind (list);
  if (kind == NULL || !g_str_has_suffix (kind, "List"))
    return;
  FsNamespacedList note = { 0 };
  note.n_pods = decoder->list_pods[level];
  note.namespace = fs_object_self_link_namespace (list);
  note.by_self_link = note.namespace != NULL;
  if (note.namespace == NULL && note.n_pods > 0 && !decoder->list_mixed[level] && !fs_object_all_namespaces (list))
    note.namespace = decoder->list_namespace[level];
  if (note.namespace != NULL)
    note.source = fs_pool_intern (fs_snapshot_builder_pool (decoder->snapshot_builder), decoder->source,
                                  strlen (decoder->source));
  fs_snapshot_builder_note_list (decoder->snapshot_builder, &note);
}

static gboolean
object_end (FsDecoder *decoder)
{
  guint level = decoder->n_objects_open - 1;
  const FsTree *tree = NULL;
  if (decoder->tree.pending && decoder->tree.object_level == level)
    decoder->tree.pending = FALSE;
  if (decoder->tree.active && decoder->tree.object_level == level)
    tree = fs_capture_finish (&decoder->tree);
  GError *error = NULL;
  gboolean ok = fs_object_end (decoder->objects[level], tree, &error);
  if (!ok)
    fail_with (decoder, error);
  else
    {
      note_list_item (decoder, level);
      note_list (decoder, level);
    }
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
    fs_capture_abort (&decoder->tree);
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
    fs_capture_abort (&decoder->tree);
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
