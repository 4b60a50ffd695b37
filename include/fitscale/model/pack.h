/* fitscale — placing identical replicas of one pod shape on a snapshot.
 *
 * For each node: the verdict for one more replica (fit.h filters, in order), and how many
 * replicas the node can take, which is what adding each placed replica's request to the
 * node, one after the other, allows (computed in closed form: O(nodes) per shape); a
 * replica with host ports takes them, so a node takes at most one (NodePorts).
 * Required pod anti-affinity and affinity, and topology spread with DoNotSchedule, then
 * constrain the total, as InterPodAffinity and PodTopologySpread would one replica at a
 * time: each placed replica a spread constraint selects raises its domain's count and the
 * global minimum, so a node the skew rejects for the first replica may take some later
 * (one constraint in closed form, O(nodes + domains log); several one at a time, bounded;
 * docs/filters.md "Topology spread").  The caller owns every array it passes. */
#pragma once

#include <glib.h>

#include "fitscale/model/fit.h"
#include "fitscale/model/objects.h"

G_BEGIN_DECLS

typedef struct {
  FsVerdict verdict;   /* placing one replica on the node as it is now */
  int64_t capacity;    /* replicas the node takes when as many as fit are placed (0 when the
                        * verdict fails, but for a node only the spread's skew rejects now:
                        * it may take some once other domains caught up) */
  int64_t placed;      /* replicas the packing put there */
  FsVerdict limit;     /* why the node takes no more than capacity when it takes some, or
                        * when the verdict passes (topology spread when the skew, not the
                        * node's room, stops it) */
} FsNodeFit;

typedef struct {
  /* Loads to start from (n_nodes entries); NULL = the snapshot's bound pods. */
  const FsNodeLoad *loads;
  /* Pods not to count (the workload's own old pods when planning a replacement): a pod is
   * left out, its request and its host ports, when this returns TRUE.  NULL = none. */
  gboolean (*exclude) (const FsPod *pod, gpointer user_data);
  gpointer exclude_data;
  /* Non-NULL: EXCLUDE only ever takes pods of this namespace, so only they are asked (a
   * binary search for their range instead of a pass over every pod). */
  const char *exclude_namespace;
  /* How many replicas to place; -1 = as many as fit. */
  int64_t replicas;
  /* Only the totals (FsPackResult): the per-node placed counts are left 0 (the new-nodes
   * estimate's trial packings); under several spread constraints that select the replicas,
   * capacity counts no further than REPLICAS (when >= 0). */
  gboolean totals_only;
} FsPackOptions;

/* What bounds the replicas that fit in all. */
typedef enum {
  FS_PACK_LIMIT_RESOURCES,        /* what the nodes have free */
  FS_PACK_LIMIT_ANTI_AFFINITY,    /* the replicas' anti-affinity to themselves: one per domain */
  FS_PACK_LIMIT_AFFINITY,         /* the replicas' affinity to themselves: all in one domain */
  FS_PACK_LIMIT_TOPOLOGY_SPREAD,  /* a DoNotSchedule topology spread constraint's maxSkew */
  FS_PACK_LIMIT_HOST_PORTS,       /* NodePorts: ports held keep nodes empty, or to one replica */
  FS_PACK_LIMIT_VOLUMES,          /* the volume plugins (model/volumes.h) keep nodes empty */
  FS_PACK_LIMIT_NODE_FILTERS,     /* no node admits one replica, and none for want of room */
  FS_PACK_LIMIT_NO_NODES,         /* the snapshot holds no node */
} FsPackLimit;

/* The limit as the answers name it: "resources", "pod anti-affinity", "pod affinity",
 * "topology spread", "host ports (NodePorts)", "node filters", "no nodes". */
const char *fs_pack_limit_name (FsPackLimit limit);

typedef struct {
  int64_t capacity;        /* replicas that fit in all, constraints applied */
  int64_t placed;          /* replicas placed: min(replicas, capacity) */
  int64_t pending;         /* replicas asked for that do not fit */
  guint nodes_passing;     /* nodes whose verdict passes */
  FsPackLimit limited_by;
} FsPackResult;

/* Fills NODES (snapshot->n_nodes entries) and RESULT. */
void fs_pack (const FsSnapshot *snapshot, const FsPodShape *pod, const FsPackOptions *options,
              FsNodeFit *nodes, FsPackResult *result);

/* The replicas of POD that fit on a node with LOAD by resources alone
 * (NodeResourcesFit applied after each placed replica). */
int64_t fs_resources_capacity (const FsResources *allocatable, const FsNodeLoad *load,
                               const FsResources *pod_request);
/* The same under PROFILE (NULL: the default profile): the extended resources its
 * NodeResourcesFitArgs ignore are not counted, and with NodeResourcesFit off nothing limits
 * the count but FS_PACK_UNLIMITED. */
#define FS_PACK_UNLIMITED ((int64_t) G_MAXINT32)
int64_t fs_resources_capacity_profile (const FsResources *allocatable, const FsNodeLoad *load,
                                       const FsResources *pod_request,
                                       const FsSchedulerProfile *profile);

/* The loads fs_pack starts from: OPTIONS' loads or the snapshot's, less excluded pods.
 * LOADS has snapshot->n_nodes entries. */
void fs_pack_base_loads (const FsSnapshot *snapshot, const FsPackOptions *options,
                         FsNodeLoad *loads);

/* The topology key of a required anti-affinity term the replicas of POD select themselves
 * with (each domain of it then takes one), or NULL. */
const char *fs_pack_self_anti_affinity_key (const FsSnapshot *snapshot, const FsPodShape *pod);

/* Whether packing POD reads other pods (pod affinity, anti-affinity or spread, its own or
 * an existing pod's anti-affinity, host ports); when not, capacity is a division per node
 * and resource over the nodes fs_pack_usable_nodes marks. */
gboolean fs_pack_needs_pods (const FsSnapshot *snapshot, const FsPodShape *pod);

/* USABLE[i] (snapshot->n_nodes entries): whether node i passes every filter that does not
 * depend on the request (NodeUnschedulable, NodeName, TaintToleration, NodeAffinity,
 * NodePorts, and NodeResourcesFit's pod count), with LOADS on it. */
void fs_pack_usable_nodes (const FsSnapshot *snapshot, const FsPodShape *pod, const FsNodeLoad *loads,
                           gboolean *usable);

/* The node's load as the snapshot has it (its requests, pods and host ports in use). */
FsNodeLoad fs_node_load (const FsNode *node);

G_END_DECLS

G_BEGIN_DECLS

/* New nodes for replicas that do not fit (cluster-autoscaler's
 * estimator/binpacking_estimator.go, with node templates built from existing nodes as its
 * TemplateNodeInfo does for a node group: labels, taints and allocatable, and its DaemonSet
 * pods).  A template is a group of existing nodes with one shape, pool and zone; a new node
 * is a copy of its first node (a hostname of its own, Ready, without the node-state and
 * cordon taints).  The count is found by packing the replicas with fs_pack onto the
 * existing nodes plus new ones, adding one node at a time of the template whose node lets
 * the most more replicas land (so topology spread, pod affinity, node affinity and taints
 * decide which pool and zone help), and the replicas each new node takes are those the
 * packing puts there. */

/* COUNT new nodes copied from EXAMPLE (one shape, pool and zone). */
typedef struct {
  const FsNode *example;      /* the existing node copied */
  const char *zone;           /* its topology.kubernetes.io/zone, NULL when it has none */
  const char *pool;           /* its node pool label's value, NULL when it has none */
  const char *pool_key;       /* that label's key (eks.amazonaws.com/nodegroup, ...) */
  int64_t count;
  int64_t replicas;           /* replicas the packing puts on these new nodes in all */
  int64_t replicas_per_node;  /* the most it puts on one of them */
} FsNodeAddition;

typedef struct {
  char *shape;                /* the instance-type label, or "cpu=..,memory=.." (owned) */
  const FsNode *example;      /* the first node of this shape */
  guint existing;             /* nodes of this shape now */
  FsVerdict verdict;          /* one replica on a new node of this shape (its first template
                               * that takes one, else the first template's verdict) */
  int64_t per_node;           /* replicas one new node takes by its own filters (resources,
                               * host ports, the replicas' anti-affinity), before spread */
  int64_t nodes_needed;       /* new nodes that place every replica; 0 when none do */
  GArray *additions;          /* FsNodeAddition, in the order first added (owned) */
  gboolean uneven;            /* the additions differ in count between zones */
  gboolean complete;          /* the additions place every replica asked for */
  int64_t unplaced;           /* when not complete: replicas still left over */
} FsNodeShapeEstimate;

/* The most new nodes one estimate adds before it gives up (complete FALSE). */
#define FS_ESTIMATE_MAX_NEW_NODES 200

/* An empty array of FsNodeShapeEstimate that frees each entry's shape and additions. */
GArray *fs_node_shape_estimates_new (void);

/* Appends one FsNodeShapeEstimate per node shape to OUT, ordered by shape name: the new
 * nodes of that shape that let fs_pack place OPTIONS->replicas replicas of POD (OPTIONS as
 * fs_pack takes them; replicas >= 0).  Nothing is appended when they all fit already. */
void fs_estimate_new_nodes (const FsSnapshot *snapshot, const FsPodShape *pod,
                            const FsPackOptions *options, GArray *out);

/* The snapshot's node groups (shape, pool and zone) and the new node of each, as the
 * estimate builds them before it looks at the pod: made once per snapshot, they can be given
 * to every estimate on it (plan/memo.h keeps one).  Immutable once made; points into SNAPSHOT. */
typedef struct FsNodeGroups FsNodeGroups;
FsNodeGroups *fs_node_groups_new (const FsSnapshot *snapshot);
void fs_node_groups_free (FsNodeGroups *groups);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FsNodeGroups, fs_node_groups_free)

/* fs_estimate_new_nodes with GROUPS of SNAPSHOT (NULL: made for this call); the same answer. */
void fs_estimate_new_nodes_grouped (const FsSnapshot *snapshot, const FsNodeGroups *groups, const FsPodShape *pod,
                                    const FsPackOptions *options, GArray *out);

G_END_DECLS
