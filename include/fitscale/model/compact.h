/* fitscale — a snapshot copied into a pool of its own that holds only what it uses.
 *
 * The live cache's snapshots share one pool (objects.h fs_snapshot_builder_new_from), which
 * only grows: the names, label sets and messages of objects that went stay in it.  Once the
 * pool holds much more than the current snapshot uses, the cache makes the next snapshot
 * from a compacted copy: every object deep-copied into a fresh pool (equal parts interned
 * once, as a load would), the derived node sums computed again.  The old pool is freed with
 * the last snapshot that uses it (readers keep theirs).
 *
 * Ownership: the copy is a new snapshot (one reference, for the caller); SNAPSHOT is only
 * read.  Every pointer the copy holds is into its own pool: whatever points into SNAPSHOT's
 * pool is copied, so a field added to a model struct must be added to compact.c too
 * (tests/test-compact.c frees the original before reading the copy under AddressSanitizer). */
#pragma once

#include <glib.h>

#include "fitscale/model/objects.h"

G_BEGIN_DECLS

/* SNAPSHOT's objects in a new pool of their own; NULL with ERROR only when the copy's nodes
 * cannot be summed (as fs_snapshot_builder_finish). */
FsSnapshot *fs_snapshot_compact (const FsSnapshot *snapshot, GError **error);

G_END_DECLS
