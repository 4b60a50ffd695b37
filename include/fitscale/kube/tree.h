/* fitscale — reading the generic trees a snapshot keeps of autoscaler objects (FsTree,
 * model/objects.h): lookups by path ("spec.metrics[0].resource.name") and typed reads that say
 * what was wrong.  The results point into the snapshot. */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "fitscale/model/objects.h"

G_BEGIN_DECLS

/* The value at PATH below TREE (dots between keys, [N] for list items), or NULL. */
const FsTree *fs_tree_at (const FsTree *tree, const char *path);
/* The text of a string, number or boolean at PATH, or NULL. */
const char *fs_tree_text (const FsTree *tree, const char *path);
/* The integer at PATH: TRUE and *OUT when present and an integer in [MIN, MAX]; FALSE with
 * no error when absent; FALSE with FS_ERROR_INVALID naming PATH when present but wrong. */
gboolean fs_tree_int (const FsTree *tree, const char *path, int64_t min, int64_t max,
                      int64_t *out, GError **error);
/* A quantity at PATH in milli-units (MilliValue): the same three outcomes. */
gboolean fs_tree_milli (const FsTree *tree, const char *path, int64_t *out, GError **error);
/* The number of items of the list at PATH (0 when absent or not a list). */
guint fs_tree_length (const FsTree *tree, const char *path);

G_END_DECLS
