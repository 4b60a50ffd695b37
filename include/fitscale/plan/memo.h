/* fitscale — what plans on one snapshot share (POST /v1/plan at speed).
 *
 * For one snapshot and one workload, most of a plan does not depend on the question: the
 * workload's pods and the loads without them, the nodes its pods may use, the replicas each
 * request step packs to (the grid's columns), and, for one P* (requests and replicas), its
 * FailedScheduling message and the new nodes that would hold it.  A memo keeps those for the
 * requests that follow, so that a request with another hpaDesiredReplicas only ranks the grid.
 * Answers are the same bytes as without it (tests/test-plan.c).
 *
 * Ownership: whoever answers plans on a snapshot owns the memo of that snapshot (the service
 * keeps one, src/server/service.c, and drops it when it answers from a new snapshot).  A memo
 * holds a reference to its snapshot, so the pointers it is keyed by (workloads) stay valid
 * while it lives, and is reference-counted, so that a request in flight keeps the one it
 * started with.  It is thread-safe (one mutex over its tables; what it hands out is a copy or
 * an immutable, referenced record) and bounded: at most FS_PLAN_MEMO_MAX_WORKLOADS workloads'
 * per-node records (fewer when the snapshot is large: FS_PLAN_MEMO_MAX_BYTES), and
 * FS_PLAN_MEMO_MAX_CAPACITIES, FS_PLAN_MEMO_MAX_PENDING and FS_PLAN_MEMO_MAX_ROLLOUTS entries; a full table is emptied and
 * filled again. */
#pragma once

#include <glib.h>

#include "fitscale/model/objects.h"

G_BEGIN_DECLS

#define FS_PLAN_MEMO_MAX_WORKLOADS 64
#define FS_PLAN_MEMO_MAX_BYTES (64 * 1024 * 1024)
#define FS_PLAN_MEMO_MAX_CAPACITIES 16384
#define FS_PLAN_MEMO_MAX_PENDING 4096
#define FS_PLAN_MEMO_MAX_ROLLOUTS 16384

typedef struct FsPlanMemo FsPlanMemo;

/* A new, empty memo for SNAPSHOT (it takes a reference of its own). */
FsPlanMemo *fs_plan_memo_new (FsSnapshot *snapshot);
FsPlanMemo *fs_plan_memo_ref (FsPlanMemo *memo);
void fs_plan_memo_unref (FsPlanMemo *memo);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FsPlanMemo, fs_plan_memo_unref)

/* The snapshot the memo answers for. */
const FsSnapshot *fs_plan_memo_snapshot (const FsPlanMemo *memo);

/* A reference to the memo of SNAPSHOT: *SLOT's when it is that snapshot's, else a new one
 * that replaces it in *SLOT (the old one is released: requests still using it keep their
 * reference).  LOCK guards *SLOT. */
FsPlanMemo *fs_plan_memo_for (FsPlanMemo **slot, GMutex *lock, FsSnapshot *snapshot);

typedef struct {
  guint64 hits;       /* lookups answered from the memo (workloads, capacities, P*'s) */
  guint64 misses;     /* lookups computed and stored */
  guint entries;      /* records held now */
} FsPlanMemoStats;

FsPlanMemoStats fs_plan_memo_stats (FsPlanMemo *memo);

G_END_DECLS
