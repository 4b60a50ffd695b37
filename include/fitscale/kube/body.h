/* fitscale — JSON request bodies (the service's POST /v1/plan and /v1/capacity) as the
 * generic trees (FsTree, model/objects.h) that kube/tree.h reads.
 *
 * A body is small (the server caps its size) and is parsed whole; nesting is checked on
 * the raw text first, so that a deep body is refused before it is parsed.  The tree lives
 * in the pool the caller gives and dies with it. */
#pragma once

#include <glib.h>

#include "fitscale/model/objects.h"
#include "fitscale/model/pool.h"

G_BEGIN_DECLS

/* The JSON object in the LENGTH bytes of TEXT (NUL-terminated), as a map tree in POOL.
 * NULL with FS_ERROR_LIMIT when brackets nest deeper than MAX_DEPTH (counted on the raw
 * text, strings included), or FS_ERROR_INVALID with the parser's message when it is not
 * JSON or not an object. */
const FsTree *fs_json_body_parse (FsPool *pool, const char *text, gsize length, guint max_depth,
                                  GError **error);

/* Decodes OBJECT, one Kubernetes object held as a tree (an AdmissionReview's request.object),
 * into BUILDER with the decoders of kube/decode.h, as they read it from JSON: the same fields,
 * limits and errors, SOURCE naming the input ("request.object"). */
gboolean fs_tree_decode_object (FsSnapshotBuilder *builder, const char *source, const FsTree *object,
                                GError **error);

G_END_DECLS
