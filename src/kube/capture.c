/* fitscale — the tree capture (see capture.h). */
#include "config.h"

#include <string.h>

#include "capture.h"
#include "fitscale/model/error.h"

typedef struct {
  FsTreeType type;
  GPtrArray *keys;   /* const char*, interned */
  GPtrArray *values; /* const FsTree* */
  const char *pending_key;
} TreeFrame;

void
fs_capture_init (TreeCapture *tree, FsPool *pool)
{
  memset (tree, 0, sizeof *tree);
  tree->pool = pool;
  tree->frames = g_array_new (FALSE, FALSE, sizeof (TreeFrame));
}

void
fs_capture_clear (TreeCapture *tree)
{
  fs_capture_abort (tree);
  g_array_unref (tree->frames);
}

static void
tree_frame_clear (TreeFrame *frame)
{
  if (frame->keys != NULL)
    g_ptr_array_unref (frame->keys);
  if (frame->values != NULL)
    g_ptr_array_unref (frame->values);
}

void
fs_capture_abort (TreeCapture *tree)
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

void
fs_capture_start (TreeCapture *tree, guint object_level)
{
  fs_capture_abort (tree);
  tree->active = TRUE;
  tree->object_level = object_level;
}

const FsTree *
fs_capture_finish (TreeCapture *tree)
{
  const FsTree *result = tree->result;
  tree->active = FALSE;
  tree->result = NULL;
  tree->n_nodes = 0;
  return result;
}

static gboolean
tree_append (TreeCapture *tree, const FsTree *node, GError **error)
{
  if (++tree->n_nodes > FS_CAPTURE_MAX_NODES)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_LIMIT, "object has more than %u values",
                   FS_CAPTURE_MAX_NODES);
      return FALSE;
    }
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

void
fs_capture_open (TreeCapture *tree, FsTreeType type)
{
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

gboolean
fs_capture_close (TreeCapture *tree, GError **error)
{
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
  FsTree *node = fs_pool_alloc (tree->pool, sizeof (FsTree));
  node->type = frame.type;
  node->n = frame.values->len;
  gsize bytes = frame.values->len * sizeof (gpointer);
  node->values = bytes > 0 ? memcpy (fs_pool_alloc (tree->pool, bytes), frame.values->pdata, bytes)
                           : NULL;
  if (frame.keys != NULL && bytes > 0)
    node->keys = memcpy (fs_pool_alloc (tree->pool, bytes), frame.keys->pdata, bytes);
  tree_frame_clear (&frame);
  return tree_append (tree, node, error);
}

void
fs_capture_key (TreeCapture *tree, const char *key, gsize len)
{
  if (!tree->active || tree->skip_depth > 0)
    return;
  TreeFrame *top = &g_array_index (tree->frames, TreeFrame, tree->frames->len - 1);
  if (tree_excludes (tree, key, len))
    {
      top->pending_key = NULL;
      tree->skip_depth = 1; /* the next value is skipped; scalars end it at once */
      return;
    }
  top->pending_key = fs_pool_intern (tree->pool, key, len);
}

gboolean
fs_capture_scalar (TreeCapture *tree, FsScalarType type, const char *text, gsize len,
                   GError **error)
{
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
  FsTree *node = fs_pool_alloc (tree->pool, sizeof (FsTree));
  node->type = types[type];
  node->text = fs_pool_intern (tree->pool, text, len);
  return tree_append (tree, node, error);
}
