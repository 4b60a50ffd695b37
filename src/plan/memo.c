/* fitscale — what plans on one snapshot share (see include/fitscale/plan/memo.h).  plan.c
 * asks it through src/plan/planner.h: a workload's PlanBase, a request step's capacity, P*'s
 * message and new nodes.  The memo owns its tables and everything in them; it hands out
 * references (PlanBase) and copies (the rest), so that emptying a full table never takes
 * anything from a request that is still reading it. */
#include "config.h"

#include <string.h>

#include "fitscale/plan/memo.h"
#include "planner.h"

struct FsPlanMemo {
  gint refs;
  FsSnapshot *snapshot;       /* a reference: the keys point into it */
  FsNodeLoad *loads_now;      /* every node's fs_node_load, shared by the bases */
  guint max_bases;
  GMutex lock;                /* guards everything below */
  FsNodeGroups *node_groups;  /* made on first use, kept while the memo lives */
  GHashTable *bases;          /* FsWorkload * -> PlanBase * (a reference) */
  GHashTable *capacities;     /* FsPlanMemoKey * -> int64_t * */
  GHashTable *pending;        /* FsPlanMemoKey * -> Pending * */
  GHashTable *rollouts;       /* FsPlanMemoKey * -> FsPlanRollout * */
  guint64 hits, misses;
};

typedef struct {
  char *message;
  GArray *nodes_needed;       /* FsNodeShapeEstimate, as fs_node_shape_estimates_new makes them */
} Pending;

static guint
key_hash (gconstpointer data)
{
  const FsPlanMemoKey *key = data;
  guint64 h = 1469598103934665603ULL;
  h = (h ^ GPOINTER_TO_SIZE (key->workload)) * 1099511628211ULL;
  h = (h ^ (guint64) key->replicas) * 1099511628211ULL;
  h = (h ^ key->flags) * 1099511628211ULL;
  for (guint i = 0; i < key->n_containers; i++)
    for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
      h = (h ^ (guint64) key->request[i][r]) * 1099511628211ULL;
  return (guint) (h ^ (h >> 32));
}

static gboolean
key_equal (gconstpointer a, gconstpointer b)
{
  const FsPlanMemoKey *x = a, *y = b;
  return x->workload == y->workload && x->replicas == y->replicas && x->flags == y->flags
         && x->n_containers == y->n_containers
         && memcmp (x->request, y->request, x->n_containers * sizeof x->request[0]) == 0;
}

static void
pending_free (gpointer data)
{
  Pending *pending = data;
  g_free (pending->message);
  g_array_unref (pending->nodes_needed);
  g_free (pending);
}

/* Appends a deep copy of FROM's estimates to TO. */
static void
copy_estimates (const GArray *from, GArray *to)
{
  for (guint i = 0; i < from->len; i++)
    {
      FsNodeShapeEstimate estimate = g_array_index (from, FsNodeShapeEstimate, i);
      estimate.shape = g_strdup (estimate.shape);
      estimate.additions = g_array_copy (estimate.additions);
      g_array_append_val (to, estimate);
    }
}

FsPlanMemo *
fs_plan_memo_new (FsSnapshot *snapshot)
{
  FsPlanMemo *memo = g_new0 (FsPlanMemo, 1);
  memo->refs = 1;
  memo->snapshot = fs_snapshot_ref (snapshot);
  memo->loads_now = g_new0 (FsNodeLoad, snapshot->n_nodes + 1);
  for (guint i = 0; i < snapshot->n_nodes; i++)
    memo->loads_now[i] = fs_node_load (&snapshot->nodes[i]);
  /* a base holds two per-node arrays: the loads without the workload and the usable flags */
  gsize per_base = ((gsize) snapshot->n_nodes + 1) * (sizeof (FsNodeLoad) + sizeof (gboolean));
  memo->max_bases = (guint) CLAMP (FS_PLAN_MEMO_MAX_BYTES / per_base, 1, FS_PLAN_MEMO_MAX_WORKLOADS);
  g_mutex_init (&memo->lock);
  memo->bases = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) fs_plan_base_unref);
  memo->capacities = g_hash_table_new_full (key_hash, key_equal, g_free, g_free);
  memo->pending = g_hash_table_new_full (key_hash, key_equal, g_free, pending_free);
  memo->rollouts = g_hash_table_new_full (key_hash, key_equal, g_free, g_free);
  return memo;
}

FsPlanMemo *
fs_plan_memo_ref (FsPlanMemo *memo)
{
  g_atomic_int_inc (&memo->refs);
  return memo;
}

void
fs_plan_memo_unref (FsPlanMemo *memo)
{
  if (memo == NULL || !g_atomic_int_dec_and_test (&memo->refs))
    return;
  g_hash_table_unref (memo->bases);
  g_hash_table_unref (memo->capacities);
  g_hash_table_unref (memo->pending);
  g_hash_table_unref (memo->rollouts);
  fs_node_groups_free (memo->node_groups);
  g_mutex_clear (&memo->lock);
  g_free (memo->loads_now);
  fs_snapshot_unref (memo->snapshot);
  g_free (memo);
}

const FsSnapshot *
fs_plan_memo_snapshot (const FsPlanMemo *memo)
{
  return memo->snapshot;
}

FsPlanMemo *
fs_plan_memo_for (FsPlanMemo **slot, GMutex *lock, FsSnapshot *snapshot)
{
  g_mutex_lock (lock);
  if (*slot == NULL || (*slot)->snapshot != snapshot)
    {
      g_clear_pointer (slot, fs_plan_memo_unref);
      *slot = fs_plan_memo_new (snapshot);
    }
  FsPlanMemo *memo = fs_plan_memo_ref (*slot);
  g_mutex_unlock (lock);
  return memo;
}

FsPlanMemoStats
fs_plan_memo_stats (FsPlanMemo *memo)
{
  g_mutex_lock (&memo->lock);
  FsPlanMemoStats stats = { memo->hits, memo->misses,
                            g_hash_table_size (memo->bases) + g_hash_table_size (memo->capacities)
                                + g_hash_table_size (memo->pending) + g_hash_table_size (memo->rollouts) };
  g_mutex_unlock (&memo->lock);
  return stats;
}

PlanBase *
fs_plan_memo_base (FsPlanMemo *memo, const FsWorkload *workload)
{
  g_mutex_lock (&memo->lock);
  PlanBase *base = g_hash_table_lookup (memo->bases, workload);
  if (base != NULL)
    {
      memo->hits++;
      base = fs_plan_base_ref (base);
    }
  g_mutex_unlock (&memo->lock);
  if (base != NULL)
    return base;
  /* computed outside the lock: O(pods) */
  base = fs_plan_base_new (memo->snapshot, workload, memo->loads_now);
  g_mutex_lock (&memo->lock);
  memo->misses++;
  PlanBase *other = g_hash_table_lookup (memo->bases, workload);
  if (other == NULL)
    {
      if (g_hash_table_size (memo->bases) >= memo->max_bases)
        g_hash_table_remove_all (memo->bases);
      g_hash_table_insert (memo->bases, (gpointer) workload, fs_plan_base_ref (base));
    }
  g_mutex_unlock (&memo->lock);
  return base;
}

gboolean
fs_plan_memo_capacity (FsPlanMemo *memo, const FsPlanMemoKey *key, int64_t *capacity)
{
  g_mutex_lock (&memo->lock);
  const int64_t *kept = g_hash_table_lookup (memo->capacities, key);
  if (kept != NULL)
    {
      *capacity = *kept;
      memo->hits++;
    }
  g_mutex_unlock (&memo->lock);
  return kept != NULL;
}

void
fs_plan_memo_store_capacity (FsPlanMemo *memo, const FsPlanMemoKey *key, int64_t capacity)
{
  FsPlanMemoKey *stored = g_memdup2 (key, sizeof *key);
  int64_t *value = g_memdup2 (&capacity, sizeof capacity);
  g_mutex_lock (&memo->lock);
  memo->misses++;
  if (g_hash_table_size (memo->capacities) >= FS_PLAN_MEMO_MAX_CAPACITIES)
    g_hash_table_remove_all (memo->capacities);
  g_hash_table_replace (memo->capacities, stored, value);
  g_mutex_unlock (&memo->lock);
}

gboolean
fs_plan_memo_pending (FsPlanMemo *memo, const FsPlanMemoKey *key, char **message, GArray *nodes_needed)
{
  g_mutex_lock (&memo->lock);
  const Pending *kept = g_hash_table_lookup (memo->pending, key);
  if (kept != NULL)
    {
      *message = g_strdup (kept->message);
      copy_estimates (kept->nodes_needed, nodes_needed);
      memo->hits++;
    }
  g_mutex_unlock (&memo->lock);
  return kept != NULL;
}

void
fs_plan_memo_store_pending (FsPlanMemo *memo, const FsPlanMemoKey *key, const char *message,
                            const GArray *nodes_needed)
{
  Pending *pending = g_new0 (Pending, 1);
  pending->message = g_strdup (message);
  pending->nodes_needed = fs_node_shape_estimates_new ();
  copy_estimates (nodes_needed, pending->nodes_needed);
  FsPlanMemoKey *stored = g_memdup2 (key, sizeof *key);
  g_mutex_lock (&memo->lock);
  memo->misses++;
  if (g_hash_table_size (memo->pending) >= FS_PLAN_MEMO_MAX_PENDING)
    g_hash_table_remove_all (memo->pending);
  g_hash_table_replace (memo->pending, stored, pending);
  g_mutex_unlock (&memo->lock);
}

gboolean
fs_plan_memo_rollout (FsPlanMemo *memo, const FsPlanMemoKey *key, FsPlanRollout *rollout)
{
  g_mutex_lock (&memo->lock);
  const FsPlanRollout *kept = g_hash_table_lookup (memo->rollouts, key);
  if (kept != NULL)
    {
      *rollout = *kept;
      memo->hits++;
    }
  g_mutex_unlock (&memo->lock);
  return kept != NULL;
}

void
fs_plan_memo_store_rollout (FsPlanMemo *memo, const FsPlanMemoKey *key, const FsPlanRollout *rollout)
{
  FsPlanMemoKey *stored = g_memdup2 (key, sizeof *key);
  FsPlanRollout *value = g_memdup2 (rollout, sizeof *rollout);
  g_mutex_lock (&memo->lock);
  memo->misses++;
  if (g_hash_table_size (memo->rollouts) >= FS_PLAN_MEMO_MAX_ROLLOUTS)
    g_hash_table_remove_all (memo->rollouts);
  g_hash_table_replace (memo->rollouts, stored, value);
  g_mutex_unlock (&memo->lock);
}

const FsNodeGroups *
fs_plan_memo_node_groups (FsPlanMemo *memo)
{
  g_mutex_lock (&memo->lock);
  const FsNodeGroups *groups = memo->node_groups;
  g_mutex_unlock (&memo->lock);
  if (groups != NULL)
    return groups;
  FsNodeGroups *made = fs_node_groups_new (memo->snapshot); /* O(nodes + pods), outside the lock */
  g_mutex_lock (&memo->lock);
  if (memo->node_groups == NULL)
    memo->node_groups = g_steal_pointer (&made);
  groups = memo->node_groups;
  g_mutex_unlock (&memo->lock);
  fs_node_groups_free (made);
  return groups;
}
