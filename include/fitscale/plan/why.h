/* fitscale — "why is this pod Pending, and what is the smallest fix?" (fitscale why).
 *
 * A pure function of a snapshot and one pod: per node the first filter that rejects it and
 * by how much it is short, the FailedScheduling message as kube-scheduler would write it
 * (with its preemption part), what DefaultPreemption will do (the node and the victims it
 * evicts, model/preemption.h), whether the cluster has room in total but not in one piece,
 * and fixes, each checked against the snapshot.  The diagnosis owns all it points to except
 * snapshot objects. */
#pragma once

#include <glib.h>

#include "fitscale/model/kubelet.h"
#include "fitscale/model/pack.h"
#include "fitscale/model/preemption.h"
#include "fitscale/plan/resize.h"

G_BEGIN_DECLS

typedef enum {
  FS_FIX_LOWER_REQUEST,   /* lower the request so that it fits on one node */
  FS_FIX_ADD_NODES,       /* add nodes of an existing shape */
  FS_FIX_LOWER_REPLICAS,  /* scale the owning workload down to what fits */
  FS_FIX_TOLERATE_TAINT,  /* tolerate a taint that keeps it off nodes with room */
  FS_FIX_RELAX_AFFINITY,  /* relax the node selector / affinity */
  FS_FIX_UNCORDON,        /* cordoned nodes with room */
} FsFixKind;

/* LOWER_REQUEST: one container's new requests (-1: that resource unchanged). */
typedef struct {
  const char *name;
  int64_t cpu_milli;
  int64_t memory_bytes;
  gboolean init;          /* an init container (spec.initContainers) */
} FsFixContainer;

typedef struct {
  FsFixKind kind;
  char *text;             /* one line for people */
  /* what the fix changes, for JSON */
  FsResources request;    /* LOWER_REQUEST: the request that fits */
  const char *node;       /* the node it is checked against (LOWER_REQUEST, UNCORDON) */
  int64_t count;          /* ADD_NODES: nodes; LOWER_REPLICAS: replicas; TOLERATE/RELAX/
                           * UNCORDON: nodes it opens */
  char *shape;            /* ADD_NODES: the node shape; TOLERATE_TAINT: the taint */
  GArray *additions;      /* ADD_NODES: FsNodeAddition, where each group of new nodes goes */
  /* what the command that does it needs (render/why.c writes it, shell-quoted): */
  const FsWorkload *workload; /* LOWER_REQUEST, LOWER_REPLICAS, TOLERATE_TAINT: the owner at
                               * the top of the pod's chain; NULL for a bare pod */
  const char *container;  /* LOWER_REQUEST: the pod's one container (NULL when several) */
  GArray *containers;     /* LOWER_REQUEST: FsFixContainer, the containers whose requests
                           * change so that the pod's effective request becomes REQUEST (the
                           * largest request of each resource gives up the difference, and
                           * each init container above the new request comes down to it); NULL
                           * when that cannot be done (pod-level resources set it, or no
                           * container is large enough) */
  gboolean bare;          /* the pod has no owner: its spec changes only by recreating it */
  const char *provider;   /* ADD_NODES: who adds nodes here: "karpenter", "gke-auto-provisioning",
                           * "cluster-autoscaler", "eks-nodegroup", "gke-nodepool",
                           * "aks-nodepool" or "none" */
  const char *eksctl_cluster; /* ADD_NODES in one eksctl node group (its nodes carry
                           * alpha.eksctl.io/cluster-name): eksctl scale nodegroup's cluster, */
  const char *pool;       /* its node group, */
  int64_t pool_nodes;     /* and the group's nodes once the new ones are added */
  const char *hpa;        /* LOWER_REPLICAS: the HPA whose bounds to lower, or NULL */
  gboolean lower_min;     /* LOWER_REPLICAS with an HPA: minReplicas too */
  GPtrArray *uncordon;    /* UNCORDON: nodes with spec.unschedulable (kubectl uncordon) */
  GPtrArray *untaint;     /* UNCORDON: nodes with the cordon taint only (kubectl taint ...-) */
  GPtrArray *taints;      /* TOLERATE_TAINT: the const FsTaint * to tolerate */
  GPtrArray *label_nodes; /* RELAX_AFFINITY: the nodes with room, when the pod has a
                           * nodeSelector only (kubectl label node), else NULL */
} FsFix;

typedef struct {
  const FsPod *pod;
  FsPodShape shape;
  guint n_nodes;
  FsNodeFit *nodes;             /* per snapshot node */
  char *message;                /* FailedScheduling as kube-scheduler writes it */
  FsPreemption preemption;      /* what DefaultPreemption does once the filters fail: the
                                 * node and victims when found (the message then has no
                                 * "preemption: ..." part), else that part (.message) */
  const char *recorded;         /* the message the cluster recorded (condition or event) */
  gboolean agrees;              /* the two say the same, up to version differences */
  GPtrArray *unmodelled;        /* reasons of the recorded message from filters fitscale does
                                 * not model (strings, without their counts) */
  gboolean fits;                /* some node takes the pod now */
  int64_t room_for;             /* replicas of its shape the nodes take now, together (fs_pack's
                                 * capacity): fewer than its owner's Pending pods leaves some Pending */
  const char *room_limit;       /* what stops more than ROOM_FOR: the resource the nodes run out
                                 * of first ("cpu", "memory", "ephemeral-storage", "pods", an
                                 * extended resource's name) or fs_pack_limit_name's; static or
                                 * a snapshot string; NULL when none fits */
  int64_t pending;              /* Pending pods of its owner (1 for a bare pod) */
  gboolean volumes_unjudged;    /* its volumes use claims the snapshot does not hold: the
                                 * volume filters did not run (model/volumes.h) */
  gboolean room_in_total;       /* short on every node, but the free room adds up */
  FsResources largest_free;     /* on nodes that pass every filter but resources */
  FsResources free_total;
  GArray *fixes;                /* FsFix */
  const FsPodMetrics *usage;    /* metrics of this pod or its siblings, when known */
  int64_t sibling_usage_memory; /* average memory its owner's running pods use, or -1 */
  int64_t sibling_usage_cpu;
  GPtrArray *unmodelled_filters; /* filters the pod needs that fitscale does not model
                                 * ("DynamicResources"; static strings) */
  FsSpreadList *default_spread; /* SHAPE's List default constraints (--scheduler-config), owned */
  /* A pod whose schedulerName no profile of --scheduler-config names gets no answer: no
   * scheduler of the configuration takes it (scheduler.go frameworkForPod). */
  const char *unknown_scheduler; /* that name, else NULL */
  /* A pod with spec.schedulingGates is kept out of the scheduling queue until every gate is
   * removed (schedulinggates/scheduling_gates.go PreEnqueue): the filters never run for it.
   * Its answer is its gates (pod->spec->scheduling_gates) and whether it would fit once
   * ungated (FITS, ROOM_FOR, ROOM_LIMIT, NODES, and MESSAGE without its preemption part when
 * it would not fit); no preemption and no fix. */
  gboolean gated;
  /* A bound pod (spec.nodeName set) gets no scheduling answer, only these: */
  gboolean bound;
  const FsNode *node;           /* its node, NULL when the snapshot does not hold it */
  FsKubeletWait kubelet;        /* what it waits for on that node */
  FsResizeDiagnosis *resize;    /* its in-place resize, when it reports one (plan/resize.h) */
} FsDiagnosis;

/* A bound pod's diagnosis is where it is bound and what its kubelet is at (BOUND, NODE,
 * KUBELET): no node is filtered, no message made, no fix offered. */
FsDiagnosis *fs_diagnose (const FsSnapshot *snapshot, const FsPod *pod);
void fs_diagnosis_free (FsDiagnosis *diagnosis);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FsDiagnosis, fs_diagnosis_free)

/* Adds to OUT (strings) the reasons of the FailedScheduling MESSAGE, without their counts and
 * without its preemption part, that no filter fitscale models writes. */
void fs_message_unmodelled_reasons (const char *message, GPtrArray *out);

/* Whether two FailedScheduling messages say the same, ignoring the differences between
 * kube-scheduler versions (taint phrasing, a doubled final period). */
gboolean fs_messages_agree (const char *a, const char *b);

G_END_DECLS
