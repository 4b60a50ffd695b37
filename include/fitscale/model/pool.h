/* fitscale — the snapshot's memory: an arena with interning.
 *
 * Everything a snapshot keeps lives in one FsPool and dies with it.  Strings and small
 * immutable structs are interned ("hash-consed"): equal content gives the same pointer, so
 * the 150,000 pods of a few hundred Deployments share their label sets, request vectors and
 * scheduling constraints, and comparing two of them is a pointer comparison.  Intern
 * bottom-up: a struct that points to interned parts can itself be interned by its bytes.
 * Not thread-safe while building; read-only (and shareable) afterwards. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct FsPool FsPool;

FsPool *fs_pool_new (void);
/* A pool whose interning first finds what PARENT (and its parents) hold, so that a snapshot
 * built on another shares its pointers.  PARENT must stay alive and unchanged. */
FsPool *fs_pool_new_child (const FsPool *parent);
/* How many parents are above POOL. */
guint fs_pool_depth (const FsPool *pool);
/* Drops a reference: the pool goes with the last (fs_pool_new gives the first). */
void fs_pool_free (FsPool *pool);
/* Another reference: a pool shared by the snapshots a watch cache builds one on another
 * (objects.h fs_snapshot_builder_new_sharing).  Interning into a shared pool is for one
 * thread at a time; the snapshots that share it only read what it holds already. */
FsPool *fs_pool_ref (FsPool *pool);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FsPool, fs_pool_free)

/* LEN bytes of TEXT, NUL-terminated, deduplicated: equal strings give equal pointers. */
const char *fs_pool_intern (FsPool *pool, const char *text, gsize len);
/* A copy of TEXT that is not deduplicated (names that are unique anyway). */
const char *fs_pool_strdup (FsPool *pool, const char *text, gsize len);
/* SIZE bytes of DATA, 8-byte aligned, deduplicated by content.  SIZE 0 gives NULL. */
const void *fs_pool_intern_blob (FsPool *pool, const void *data, gsize size);
/* SIZE zeroed bytes, 8-byte aligned, owned by the pool. */
void *fs_pool_alloc (FsPool *pool, gsize size);
/* Bytes held by the pool (arena blocks and index), for the memory figures. */
gsize fs_pool_bytes (const FsPool *pool);

G_END_DECLS
