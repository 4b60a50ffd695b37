/* fitscale — "how many replicas of this shape fit, and where?" (fitscale capacity).
 *
 * A pure function of a snapshot and a pod shape: per node the verdict and how many
 * replicas it takes, the total, the fragmentation (free in total beside the largest free
 * piece on one eligible node), and, when replicas are left over, how many new nodes of each
 * existing shape would hold them.  The answer owns its arrays. */
#pragma once

#include <glib.h>

#include "fitscale/model/pack.h"

G_BEGIN_DECLS

typedef struct {
  guint n_nodes;
  FsNodeFit *nodes;            /* per snapshot node */
  FsPackResult pack;
  guint eligible_nodes;        /* nodes the shape may use (every filter but resources passes) */
  FsResources free_total;      /* free on the eligible nodes, summed */
  FsResources largest_free;    /* the most any one eligible node has free, per resource */
  GArray *estimates;           /* FsNodeShapeEstimate for the pending replicas (may be empty) */
  const FsPod *recorded_pod;   /* a Pending pod of the workload whose recorded verdict has */
  GPtrArray *unmodelled;       /* these reasons the answer cannot reproduce (owned) */
} FsCapacityAnswer;

/* REPLICAS: how many to place, or -1 for "as many as fit".  REPLACING (may be NULL): a
 * workload whose existing pods the replicas replace, so they are not counted on the nodes
 * (its pods: those of its namespace that its selector matches, as its controller adopts). */
FsCapacityAnswer *fs_capacity_answer (const FsSnapshot *snapshot, const FsPodShape *pod,
                                      int64_t replicas, const FsWorkload *replacing);
/* The first Pending pod of WORKLOAD (may be NULL) whose recorded PodScheduled message names
 * reasons its answers cannot reproduce, appended to REASONS; or NULL.  Those are the reasons of
 * filters fitscale does not model and, for a StatefulSet, the volume plugins' (its claims come
 * from volumeClaimTemplates, not read).  The answers say so first. */
const FsPod *fs_workload_unmodelled (const FsSnapshot *snapshot, const FsWorkload *workload,
                                     GPtrArray *reasons);
/* How many of the snapshot's counted pods REPLACING owns. */
guint fs_capacity_replaced_pods (const FsSnapshot *snapshot, const FsWorkload *replacing);
void fs_capacity_answer_free (FsCapacityAnswer *answer);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FsCapacityAnswer, fs_capacity_answer_free)

typedef struct {
  int64_t amount;              /* the request of the varied resource */
  int64_t capacity;            /* replicas that fit */
} FsFrontierPoint;

/* For each amount FROM, FROM+STEP, ... <= TO of resource NAME (cpu in millicores, the rest in
 * units), how many replicas fit; appended to OUT (FsFrontierPoint).  Node-only filters are
 * evaluated once; each point then costs one division per node and resource. */
gboolean fs_capacity_frontier (const FsSnapshot *snapshot, const FsPodShape *pod,
                               const FsWorkload *replacing, const char *name, int64_t from,
                               int64_t to, int64_t step, GArray *out, GError **error);

/* The new nodes of ESTIMATE for people, with PURPOSE (may be NULL): "1 node of shape
 * m5.large in zone eu-west-1b (pool ng-b) PURPOSE, 2 replicas per node", "3 nodes of shape
 * m5.large PURPOSE: 2 in zone a, 1 in zone b (pool p), 2 replicas per node", and "; uneven
 * across zones: ..." when they are.  Caller frees. */
char *fs_node_additions_text (const FsNodeShapeEstimate *estimate, const char *purpose);

G_END_DECLS
