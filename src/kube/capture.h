/* fitscale — the tree capture: a generic object (HPA, VPA, Hvpa, metric values) kept as an
 * FsTree while the decoder streams it, minus metadata.managedFields and
 * metadata.annotations; its nodes and strings live in the pool.
 *
 * Private to kube/: decode.c feeds it the document's events and decides when a capture
 * starts (a generic kind), waits (the kind is not known yet: `pending`) or is dropped.  The
 * event functions do nothing while no capture is active; the decoder checks `active` inline
 * before it calls them, since most events of a document pass while none is. */
#pragma once

#include <glib.h>

#include "fields.h"

#define FS_CAPTURE_MAX_NODES 200000

/* An object whose kind is not known yet (the first item of a kubectl `List`, whose kind
 * comes after its items) may be generic.  Its capture is deferred while only apiVersion and
 * kind are read, which is where a real object says what it is: a Pod then costs no tree. */
typedef struct {
  FsPool *pool;
  gboolean active;
  gboolean pending;      /* deferred: starts at the object's first other key, or its kind */
  guint object_level;    /* the object (builder level) whose tree this is */
  guint skip_depth;      /* > 0 inside managedFields / annotations */
  GArray *frames;        /* the maps and lists open in the tree (capture.c) */
  const FsTree *result;
  guint n_nodes;
} TreeCapture;

void fs_capture_init (TreeCapture *tree, FsPool *pool);
/* Frees what the capture holds (not the tree it made: that is in the pool). */
void fs_capture_clear (TreeCapture *tree);
/* Drops the capture in progress, if any: no longer active nor pending. */
void fs_capture_abort (TreeCapture *tree);
/* A capture of the object at OBJECT_LEVEL starts: its map comes next. */
void fs_capture_start (TreeCapture *tree, guint object_level);
/* The object ended: its tree (NULL if it has none), and the capture stops. */
const FsTree *fs_capture_finish (TreeCapture *tree);

/* The document's events.  A tree that grows past FS_CAPTURE_MAX_NODES values fails. */
void fs_capture_open (TreeCapture *tree, FsTreeType type);
gboolean fs_capture_close (TreeCapture *tree, GError **error);
void fs_capture_key (TreeCapture *tree, const char *key, gsize len);
gboolean fs_capture_scalar (TreeCapture *tree, FsScalarType type, const char *text, gsize len,
                            GError **error);
