/* fitscale — JSON request bodies as trees (see include/fitscale/kube/body.h). */
#include "config.h"

#include <string.h>
#include <yajl/yajl_tree.h>

#include "fitscale/kube/body.h"
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

const FsTree *
fs_json_body_parse (FsPool *pool, const char *text, gsize length, guint max_depth, GError **error)
{
  /* yajl_tree recurses: refuse deep nesting before it parses */
  if (raw_depth (text, length) > max_depth)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_LIMIT, "the body nests deeper than %u", max_depth);
      return NULL;
    }
  char problem[256] = "";
  yajl_val root = yajl_tree_parse (text, problem, sizeof problem);
  if (root == NULL || !YAJL_IS_OBJECT (root) || depth_of (root) > max_depth)
    {
      g_strdelimit (problem, "\n", ' ');
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "the body is not a JSON object%s%s", *problem ? ": " : "",
                   g_strstrip (problem));
      yajl_tree_free (root);
      return NULL;
    }
  const FsTree *tree = tree_of (pool, root);
  yajl_tree_free (root);
  return tree;
}
