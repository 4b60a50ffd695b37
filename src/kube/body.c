/* fitscale — JSON request bodies as trees (see include/fitscale/kube/body.h). */
#include "config.h"

#include <string.h>
#include <yajl/yajl_parse.h>
#include <yajl/yajl_tree.h>

#include "fitscale/kube/body.h"
#include "fitscale/kube/decode.h"
#include "fitscale/model/error.h"

/* The deepest nesting of brackets in TEXT, strings included (no parser needed). */
static guint
raw_depth (const char *text, gsize length)
{
  guint depth = 0, deepest = 0;
  for (gsize i = 0; i < length; i++)
    {
      char c = text[i];
      depth += c == '{' || c == '[';
      depth -= (c == '}' || c == ']') && depth > 0;
      deepest = MAX (deepest, depth);
    }
  return deepest;
}

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

static const char *
pool_text (FsPool *pool, const char *text)
{
  return fs_pool_strdup (pool, text, strlen (text));
}

/* VALUE copied into POOL as a tree. */
static const FsTree *
tree_of (FsPool *pool, yajl_val value)
{
  FsTree *tree = fs_pool_alloc (pool, sizeof *tree);
  if (YAJL_IS_STRING (value))
    *tree = (FsTree){ .type = FS_TREE_STRING, .text = pool_text (pool, value->u.string) };
  else if (YAJL_IS_NUMBER (value))
    *tree = (FsTree){ .type = FS_TREE_NUMBER, .text = pool_text (pool, value->u.number.r) };
  else if (YAJL_IS_TRUE (value) || YAJL_IS_FALSE (value))
    *tree = (FsTree){ .type = FS_TREE_BOOL, .text = YAJL_IS_TRUE (value) ? "true" : "false" };
  else if (YAJL_IS_OBJECT (value))
    {
      guint n = (guint) value->u.object.len;
      const char **keys = fs_pool_alloc (pool, n * sizeof *keys);
      const FsTree **values = fs_pool_alloc (pool, n * sizeof *values);
      for (guint i = 0; i < n; i++)
        {
          keys[i] = pool_text (pool, value->u.object.keys[i]);
          values[i] = tree_of (pool, value->u.object.values[i]);
        }
      *tree = (FsTree){ .type = FS_TREE_MAP, .n = n, .keys = keys, .values = values };
    }
  else if (YAJL_IS_ARRAY (value))
    {
      guint n = (guint) value->u.array.len;
      const FsTree **items = fs_pool_alloc (pool, n * sizeof *items);
      for (guint i = 0; i < n; i++)
        items[i] = tree_of (pool, value->u.array.values[i]);
      *tree = (FsTree){ .type = FS_TREE_LIST, .n = n, .values = items };
    }
  else
    *tree = (FsTree){ .type = FS_TREE_NULL };
  return tree;
}

/* Where and why TEXT is not JSON, without yajl's context (which quotes the raw bytes around
 * the fault: an error message must stay one line of valid UTF-8 and echo nothing sent). */
static gboolean
json_syntax_ok (const char *text, gsize length, GError **error)
{
  yajl_handle handle = yajl_alloc (NULL, NULL, NULL);
  yajl_status status = yajl_parse (handle, (const unsigned char *) text, length);
  if (status == yajl_status_ok)
    status = yajl_complete_parse (handle);
  gboolean ok = status == yajl_status_ok;
  if (!ok)
    {
      unsigned char *message = yajl_get_error (handle, 0, (const unsigned char *) text, length);
      g_autofree char *line = g_strdup ((const char *) message);
      g_strdelimit (line, "\n", ' ');
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "the body is not JSON at byte %zu: %s",
                   yajl_get_bytes_consumed (handle), g_strstrip (line));
      yajl_free_error (handle, message);
    }
  yajl_free (handle);
  return ok;
}

/* The first key VALUE's objects repeat, or NULL: encoding/json would keep the last, yajl's
 * tree readers the first; the API server's strict decoding refuses it. */
static const char *
duplicate_key (yajl_val value)
{
  if (YAJL_IS_OBJECT (value))
    for (size_t i = 0; i < value->u.object.len; i++)
      {
        for (size_t j = 0; j < i; j++)
          if (strcmp (value->u.object.keys[i], value->u.object.keys[j]) == 0)
            return value->u.object.keys[i];
        const char *inner = duplicate_key (value->u.object.values[i]);
        if (inner != NULL)
          return inner;
      }
  if (YAJL_IS_ARRAY (value))
    for (size_t i = 0; i < value->u.array.len; i++)
      {
        const char *inner = duplicate_key (value->u.array.values[i]);
        if (inner != NULL)
          return inner;
      }
  return NULL;
}

const FsTree *
fs_json_body_parse (FsPool *pool, const char *text, gsize length, guint max_depth, GError **error)
{
  const char *nul = memchr (text, '\0', length);
  const char *bad_utf8 = NULL;
  if (nul != NULL)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "the body holds a NUL byte at byte %zu", (size_t) (nul - text));
      return NULL;
    }
  if (!g_utf8_validate_len (text, length, &bad_utf8))
    {
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "the body is not UTF-8 at byte %zu", (size_t) (bad_utf8 - text));
      return NULL;
    }
  /* yajl_tree recurses: refuse deep nesting before it parses */
  if (raw_depth (text, length) > max_depth)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_LIMIT, "the body nests deeper than %u", max_depth);
      return NULL;
    }
  if (!json_syntax_ok (text, length, error))
    return NULL;
  g_autofree char *copy = g_strndup (text, length); /* yajl_tree_parse reads up to a NUL */
  yajl_val root = yajl_tree_parse (copy, NULL, 0);
  const char *repeated = root != NULL ? duplicate_key (root) : NULL;
  if (root == NULL || !YAJL_IS_OBJECT (root) || depth_of (root) > max_depth || repeated != NULL)
    {
      if (repeated != NULL)
        g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "duplicate field \"%.64s\"", repeated);
      else
        g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "the body is not a JSON object");
      yajl_tree_free (root);
      return NULL;
    }
  const FsTree *tree = tree_of (pool, root);
  yajl_tree_free (root);
  return tree;
}

/* ---- a tree through the decoders ---------------------------------------------------------- */

static gboolean
feed_tree (FsDecoder *decoder, const FsTree *tree)
{
  switch (tree->type)
    {
    case FS_TREE_NULL:
      return fs_decoder_scalar (decoder, FS_SCALAR_NULL, "null", 4);
    case FS_TREE_BOOL:
      return fs_decoder_scalar (decoder, FS_SCALAR_BOOL, tree->text, strlen (tree->text));
    case FS_TREE_NUMBER:
      return fs_decoder_scalar (decoder, FS_SCALAR_NUMBER, tree->text, strlen (tree->text));
    case FS_TREE_STRING:
      return fs_decoder_scalar (decoder, FS_SCALAR_STRING, tree->text, strlen (tree->text));
    case FS_TREE_MAP:
      if (!fs_decoder_map_begin (decoder))
        return FALSE;
      for (guint i = 0; i < tree->n; i++)
        if (!fs_decoder_map_key (decoder, tree->keys[i], strlen (tree->keys[i])) || !feed_tree (decoder, tree->values[i]))
          return FALSE;
      return fs_decoder_map_end (decoder);
    case FS_TREE_LIST:
      if (!fs_decoder_list_begin (decoder))
        return FALSE;
      for (guint i = 0; i < tree->n; i++)
        if (!feed_tree (decoder, tree->values[i]))
          return FALSE;
      return fs_decoder_list_end (decoder);
    default:
      return FALSE;
    }
}

gboolean
fs_tree_decode_object (FsSnapshotBuilder *builder, const char *source, const FsTree *object, GError **error)
{
  g_autoptr (FsDecoder) decoder = fs_decoder_new (builder, source);
  if (object->type != FS_TREE_MAP)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "%s: not an object", source);
      return FALSE;
    }
  if (feed_tree (decoder, object))
    return TRUE;
  g_propagate_error (error, fs_decoder_take_error (decoder));
  return FALSE;
}
