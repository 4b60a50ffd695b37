/* fitscale — DefaultPreemption: which lower-priority pods the scheduler evicts to place a pod
 * that fits nowhere, on which node, and the PodDisruptionBudgets that costs.
 *
 * Follows pkg/scheduler/framework/preemption/preemption.go (Evaluator.Preempt, findCandidates,
 * DryRunPreemption, pickOneNodeForPreemption) and
 * pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go (SelectVictimsOnNode,
 * PodEligibleToPreemptOthers, filterPodsWithPDBViolation).  Pure: the result owns its message
 * and its victims array; victims, PDBs and nodes point into the snapshot. */
#pragma once

#include <glib.h>

#include "fitscale/model/pack.h"

G_BEGIN_DECLS

typedef struct {
  const FsPod *pod;
  /* evicting it takes a PodDisruptionBudget below what it allows: the budget (the first one
   * it breaks), else NULL */
  const FsPodDisruptionBudget *violates;
} FsVictim;

/* One node where evicting victims makes room (extenderv1.Victims and the node's name). */
typedef struct {
  guint node_index;
  GArray *victims;            /* FsVictim, the most important first */
  int64_t n_pdb_violations;   /* victims evicted against a budget (NumPDBViolations) */
} FsPreemptionCandidate;

typedef struct {
  gboolean eligible;          /* PodEligibleToPreemptOthers */
  gboolean found;             /* a candidate was chosen: the scheduler preempts */
  FsPreemptionCandidate chosen;
  guint n_candidates;         /* nodes where preemption would make room */
  guint n_potential;          /* nodes where it might help (Unschedulable, not Unresolvable) */
  guint n_sampled;            /* candidates the scheduler's dry run stops at (calculateNumCandidates:
                               * 10% of N_POTENTIAL, at least 100, at most N_POTENTIAL) */
  /* The PostFilter status message when no candidate is chosen: "preemption: 0/N nodes are
   * available: ..." or "preemption: not eligible due to ..."; NULL when found. */
  char *message;
} FsPreemption;

/* pkg/scheduler/util/utils.go MoreImportantPod: higher priority, then the earlier start time
 * (a pod without status.startTime counts as starting now, GetPodStartTime). */
gboolean fs_more_important_pod (const FsPod *a, const FsPod *b);

/* default_preemption.go filterPodsWithPDBViolation: walking PODS in order, each budget of a
 * pod's namespace whose selector matches its labels (a nil or empty selector matches
 * nothing, a pod without labels no budget) and that does not already list it among its
 * disruptedPods loses one disruption; a pod that takes one below zero is violating.
 * VIOLATES[i] gets that budget or NULL. */
void fs_pods_with_pdb_violation (const FsPod *const *pods, guint n_pods,
                                 const FsPodDisruptionBudget *pdbs, guint n_pdbs,
                                 const FsPodDisruptionBudget **violates);

/* default_preemption.go PodEligibleToPreemptOthers: NULL when POD may preempt, else the reason
 * ("not eligible due to preemptionPolicy=Never.", "not eligible due to a terminating pod on
 * the nominated node.").  NOMINATED is its status.nominatedNodeName (NULL for none) and
 * NODES the verdict of every snapshot node: a nominated node the filters find
 * UnschedulableAndUnresolvable makes it eligible again. */
const char *fs_preemption_ineligible (const FsSnapshot *snapshot, const FsPodShape *pod,
                                      const char *nominated, const FsNodeFit *nodes);

/* SelectVictimsOnNode for node NODE_INDEX: TRUE and CANDIDATE filled (its victims array
 * created) when evicting lower-priority pods lets POD fit; else FALSE with VERDICT saying why:
 * no lower-priority pod (verdict filter PASS, *NO_VICTIMS set), or the filter that still
 * rejects it with all of them gone.  OPTIONS' exclude leaves pods out as in fs_pack. */
gboolean fs_select_victims_on_node (const FsSnapshot *snapshot, const FsPodShape *pod,
                                    const FsPackOptions *options, guint node_index,
                                    FsPreemptionCandidate *candidate, FsVerdict *verdict,
                                    gboolean *no_victims);

/* preemption.go pickOneNodeForPreemption: the index in CANDIDATES of the node with the fewest
 * PDB violations, then the lowest highest victim priority, the lowest sum of victim
 * priorities, the fewest victims, the latest earliest start time among the highest-priority
 * victims; the first of any tie left.  N_CANDIDATES > 0. */
guint fs_pick_one_node_for_preemption (const FsPreemptionCandidate *candidates, guint n_candidates);

/* Evaluator.Preempt as a dry run, after POD failed on every node with the verdicts NODES:
 * eligibility, every node whose failure removing pods might fix (nodesWherePreemptionMightHelp:
 * Unschedulable, not UnschedulableAndUnresolvable), SelectVictimsOnNode on each, and the
 * chosen candidate.  The scheduler's dry run starts at a random node and stops once it has
 * N_SAMPLED candidates (one of them breaking no budget); this evaluates every node, which is
 * the same when there are no more candidates than that. */
void fs_preempt (const FsSnapshot *snapshot, const FsPodShape *pod, const FsPackOptions *options,
                 const char *nominated, const FsNodeFit *nodes, FsPreemption *preemption);
void fs_preemption_clear (FsPreemption *preemption);
void fs_preemption_candidate_clear (FsPreemptionCandidate *candidate);

G_END_DECLS
