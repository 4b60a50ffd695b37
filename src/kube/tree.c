/* fitscale — generic tree lookups (see include/fitscale/tree.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fitscale/kube/decode.h"
#include "fitscale/model/error.h"
#include "fitscale/model/quantity.h"
#include "fitscale/kube/tree.h"

static const FsTree *
map_get (const FsTree *tree, const char *key, gsize len)
{
  if (tree == NULL || tree->type != FS_TREE_MAP)
    return NULL;
  for (guint i = 0; i < tree->n; i++)
    if (strlen (tree->keys[i]) == len && memcmp (tree->keys[i], key, len) == 0)
      return tree->values[i];
  return NULL;
}

const FsTree *
fs_tree_at (const FsTree *tree, const char *path)
{
  const char *at = path;
  while (tree != NULL && *at != '\0')
    {
      if (*at == '[')
        {
          char *end;
          unsigned long index = strtoul (at + 1, &end, 10);
          if (*end != ']' || tree->type != FS_TREE_LIST || index >= tree->n)
            return NULL;
          tree = tree->values[index];
          at = end + 1;
        }
      else
        {
          gsize len = strcspn (at, ".[");
          tree = map_get (tree, at, len);
          at += len;
        }
      if (*at == '.')
        at++;
    }
  return tree;
}

const char *
fs_tree_text (const FsTree *tree, const char *path)
{
  const FsTree *value = fs_tree_at (tree, path);
  if (value == NULL || value->type == FS_TREE_MAP || value->type == FS_TREE_LIST
      || value->type == FS_TREE_NULL)
    return NULL;
  return value->text;
}

gboolean
fs_tree_int (const FsTree *tree, const char *path, int64_t min, int64_t max, int64_t *out,
             GError **error)
{
  const FsTree *value = fs_tree_at (tree, path);
  if (value == NULL || value->type == FS_TREE_NULL)
    return FALSE;
  if (value->type == FS_TREE_NUMBER && fs_decode_int (value->text, strlen (value->text), min, max, out))
    return TRUE;
  g_set_error (error, FS_ERROR, FS_ERROR_INVALID,
               "field %s: \"%.40s\" is not an integer from %" G_GINT64_FORMAT " to %" G_GINT64_FORMAT,
               path, value->text != NULL ? value->text : "(an object or list)", min, max);
  return FALSE;
}

gboolean
fs_tree_milli (const FsTree *tree, const char *path, int64_t *out, GError **error)
{
  const FsTree *value = fs_tree_at (tree, path);
  if (value == NULL || value->type == FS_TREE_NULL)
    return FALSE;
  if (value->type != FS_TREE_STRING && value->type != FS_TREE_NUMBER)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "field %s: expected a quantity", path);
      return FALSE;
    }
  GError *local_error = NULL;
  if (fs_quantity_parse_milli (value->text, strlen (value->text), out, &local_error))
    return TRUE;
  g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "field %s: %s", path, local_error->message);
  g_error_free (local_error);
  return FALSE;
}

guint
fs_tree_length (const FsTree *tree, const char *path)
{
  const FsTree *value = fs_tree_at (tree, path);
  return value != NULL && value->type == FS_TREE_LIST ? value->n : 0;
}
