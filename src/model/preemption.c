/* fitscale — DefaultPreemption (see include/fitscale/model/preemption.h).
 *
 * kubernetes/kubernetes pkg/scheduler/framework/preemption/preemption.go and
 * pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go, trees of 2025–2026
 * (the default plugin: IsEligiblePod accepts every lower-priority pod, MoreImportantPod is
 * util.MoreImportantPod, no extenders, no pod groups). */
#include "config.h"

#include <string.h>

#include "fitscale/model/preemption.h"

/* ---- ordering ------------------------------------------------------------------------- */

/* util.GetPodStartTime: status.startTime, or now for a pod that has not started. */
static int64_t
start_time (const FsPod *pod)
{
  return pod->start_time != 0 ? pod->start_time : G_MAXINT64;
}

gboolean
fs_more_important_pod (const FsPod *a, const FsPod *b)
{
  if (a->priority != b->priority)
    return a->priority > b->priority;
  return start_time (a) < start_time (b);
}

/* Most important first; equals keep their order (a stable sort, where upstream's sort.Slice
 * leaves them in any order). */
static gint
compare_importance (gconstpointer a, gconstpointer b)
{
  const FsPod *left = *(const FsPod *const *) a, *right = *(const FsPod *const *) b;
  return fs_more_important_pod (left, right) ? -1 : fs_more_important_pod (right, left) ? 1 : 0;
}

static gint
compare_victims (gconstpointer a, gconstpointer b)
{
  return compare_importance (&((const FsVictim *) a)->pod, &((const FsVictim *) b)->pod);
}

/* ---- PodDisruptionBudgets ------------------------------------------------------------- */

/* metav1.LabelSelectorAsSelector(...).Empty(): no matchLabels and no matchExpressions. */
static gboolean
selector_is_empty (const FsLabelSelector *selector)
{
  return selector == NULL
         || ((selector->match_labels == NULL || selector->match_labels->n == 0)
             && (selector->match_expressions == NULL || selector->match_expressions->n == 0));
}

static gboolean
already_disrupted (const FsPodDisruptionBudget *pdb, const FsPod *pod)
{
  for (guint i = 0; i < pdb->n_disrupted_pods; i++)
    if (g_strcmp0 (pdb->disrupted_pods[i], pod->name) == 0)
      return TRUE;
  return FALSE;
}

void
fs_pods_with_pdb_violation (const FsPod *const *pods, guint n_pods,
                            const FsPodDisruptionBudget *pdbs, guint n_pdbs,
                            const FsPodDisruptionBudget **violates)
{
  g_autofree int64_t *allowed = g_new (int64_t, n_pdbs + 1);
  for (guint i = 0; i < n_pdbs; i++)
    allowed[i] = pdbs[i].disruptions_allowed;
  for (guint p = 0; p < n_pods; p++)
    {
      const FsPod *pod = pods[p];
      violates[p] = NULL;
      /* a pod with no labels matches no budget */
      if (pod->labels == NULL || pod->labels->n == 0)
        continue;
      for (guint i = 0; i < n_pdbs; i++)
        {
          const FsPodDisruptionBudget *pdb = &pdbs[i];
          if (g_strcmp0 (pdb->namespace, pod->namespace) != 0)
            continue;
          /* a nil or empty selector matches nothing; an invalid one does not match */
          if (selector_is_empty (pdb->selector) || !fs_selector_matches (pdb->selector, pod->labels))
            continue;
          /* in disruptedPods: the API server has processed its eviction already */
          if (already_disrupted (pdb, pod))
            continue;
          if (--allowed[i] < 0 && violates[p] == NULL)
            violates[p] = pdb;
        }
    }
}

/* ---- eligibility ------------------------------------------------------------------------ */

/* default_preemption.go podTerminatingByPreemption: being deleted, with the DisruptionTarget
 * condition preemption sets (reason PreemptionByScheduler). */
static gboolean
terminating_by_preemption (const FsPod *pod)
{
  return (pod->flags & FS_POD_TERMINATING) && (pod->flags & FS_POD_PREEMPTED);
}

const char *
fs_preemption_ineligible (const FsSnapshot *snapshot, const FsPodShape *pod, const char *nominated,
                          const FsNodeFit *nodes)
{
  if (pod->spec->placement->preempt_never)
    return "not eligible due to preemptionPolicy=Never.";
  if (nominated == NULL || *nominated == '\0')
    return NULL;
  const FsNode *node = fs_snapshot_find_node (snapshot, nominated);
  if (node == NULL) /* no status for it: UnschedulableAndUnresolvable, eligible */
    return NULL;
  guint index = (guint) (node - snapshot->nodes);
  if (nodes != NULL && nodes[index].verdict.filter != FS_FILTER_PASS && nodes[index].verdict.unresolvable)
    return NULL;
  for (guint i = 0; i < snapshot->n_pods; i++)
    {
      const FsPod *other = &snapshot->pods[i];
      if (other->node_index == (int32_t) index && fs_pod_counts_on_node (other)
          && other->priority < pod->priority && terminating_by_preemption (other))
        return "not eligible due to a terminating pod on the nominated node.";
    }
  return NULL;
}

/* ---- SelectVictimsOnNode ---------------------------------------------------------------- */

typedef struct {
  const FsSnapshot *snapshot;
  const FsPodShape *pod;
  const FsPackOptions *options;   /* may be NULL */
  GHashTable *removed;            /* the pods taken off the node being tried */
  gboolean full;                  /* filters that read other pods apply (fs_pack_needs_pods) */
  FsNodeFit *scratch;             /* fs_pack's per-node answer when FULL */
  /* When FULL, from fs_preempt: the verdicts with every lower-priority pod of the cluster
   * taken off at once (NULL: none), and how many of those pods are relevant (below), in all
   * and per node.  Where no relevant one is on another node, BATCH[i] is node i's verdict
   * with its own taken off, as SelectVictimsOnNode sees it. */
  FsNodeFit *batch;
  guint n_relevant;
  guint *relevant_on_node;
} Trial;

static gboolean
excluded (const Trial *trial, const FsPod *pod)
{
  return trial->options != NULL && trial->options->exclude != NULL
         && trial->options->exclude (pod, trial->options->exclude_data);
}

/* The pods off the node: preemption's victims (NodeInfo.RemovePod) and those the caller
 * leaves out. */
static gboolean
taken_off (const FsPod *pod, gpointer data)
{
  const Trial *trial = data;
  return g_hash_table_contains (trial->removed, pod) || excluded (trial, pod);
}

/* Whether OTHER can change the verdicts of the filters that read other pods for the pod
 * (PodTopologySpread, InterPodAffinity): a spread constraint or an affinity term of the pod
 * selects it, or its own required anti-affinity selects the pod.  Namespaces are not
 * looked at, which only makes more pods relevant. */
static gboolean
relevant (const Trial *trial, const FsPod *other)
{
  const FsPodShape *pod = trial->pod;
  const FsPlacement *placement = pod->spec->placement;
  for (guint c = 0; placement->spread != NULL && c < placement->spread->n; c++)
    if (fs_selector_matches (placement->spread->items[c].label_selector, other->labels))
      return TRUE;
  const FsPodAffinityTermList *lists[] = { placement->pod_affinity, placement->pod_anti_affinity };
  for (gsize l = 0; l < G_N_ELEMENTS (lists); l++)
    for (guint t = 0; lists[l] != NULL && t < lists[l]->n; t++)
      if (fs_selector_matches (lists[l]->items[t].label_selector, other->labels))
        return TRUE;
  const FsPodAffinityTermList *theirs = other->spec->placement->pod_anti_affinity;
  for (guint t = 0; theirs != NULL && t < theirs->n; t++)
    if (fs_selector_matches (theirs->items[t].label_selector, pod->labels))
      return TRUE;
  return FALSE;
}

/* The filters that read the node alone, on node I with the removed pods gone.  PODS are the
 * pods counted on the node. */
static gboolean
fits_node_alone (Trial *trial, guint i, GPtrArray *pods, FsVerdict *verdict)
{
  const FsNode *node = &trial->snapshot->nodes[i];
  FsNodeLoad load = trial->options != NULL && trial->options->loads != NULL ? trial->options->loads[i]
                                                                          : fs_node_load (node);
  load.released = taken_off;
  load.released_data = trial;
  for (guint k = 0; k < pods->len; k++)
    {
      const FsPod *other = pods->pdata[k];
      if (!taken_off (other, trial))
        continue;
      fs_resources_sub (&load.requested, fs_pod_request (other), NULL);
      load.pod_count--;
    }
  return fs_fit_node (node, &load, trial->pod, verdict);
}

/* Every filter, by packing one replica with the removed pods gone. */
static gboolean
fits_packed (Trial *trial, guint i, FsVerdict *verdict)
{
  FsPackOptions options = { .loads = trial->options != NULL ? trial->options->loads : NULL,
                            .exclude = taken_off, .exclude_data = trial, .replicas = 1 };
  FsPackResult result;
  fs_pack (trial->snapshot, trial->pod, &options, trial->scratch, &result);
  *verdict = trial->scratch[i].verdict;
  return verdict->filter == FS_FILTER_PASS;
}

/* RunFilterPluginsWithNominatedPods on node I with the removed pods gone (nominated pods are
 * not modelled).  The node's own filters come first in the default profile, so they decide
 * when they fail.  Then, when the pod's spread or affinity apply: with every potential
 * victim gone (REPRIEVED NULL), the batch verdict when it holds for this node, else a
 * packing; after REPRIEVED came back to a state where the pod fitted, a packing only when
 * REPRIEVED is relevant to those filters. */
static gboolean
fits_without (Trial *trial, guint i, GPtrArray *pods, const FsPod *reprieved, FsVerdict *verdict)
{
  if (!fits_node_alone (trial, i, pods, verdict) || !trial->full)
    return verdict->filter == FS_FILTER_PASS;
  if (reprieved != NULL)
    return relevant (trial, reprieved) ? fits_packed (trial, i, verdict) : TRUE;
  if (trial->batch != NULL && trial->n_relevant == trial->relevant_on_node[i])
    {
      *verdict = trial->batch[i].verdict;
      return verdict->filter == FS_FILTER_PASS;
    }
  return fits_packed (trial, i, verdict);
}

/* SelectVictimsOnNode: take every lower-priority pod off (isPreemptionAllowed); if the pod
 * then fits, put them back one at a time, the PDB-violating ones first and the most important
 * first within each group (filterPodsWithPDBViolation keeps the order), keeping each that
 * still lets it fit: the others are the victims. */
static gboolean
select_victims (Trial *trial, guint i, GPtrArray *pods, FsPreemptionCandidate *candidate,
                FsVerdict *verdict, gboolean *no_victims)
{
  memset (verdict, 0, sizeof *verdict);
  *no_victims = FALSE;
  g_autoptr (GPtrArray) potential = g_ptr_array_new ();
  for (guint k = 0; k < pods->len; k++)
    {
      const FsPod *other = pods->pdata[k];
      if (!excluded (trial, other) && other->priority < trial->pod->priority)
        g_ptr_array_add (potential, (gpointer) other);
    }
  if (potential->len == 0) /* UnschedulableAndUnresolvable */
    {
      *no_victims = TRUE;
      return FALSE;
    }
  g_hash_table_remove_all (trial->removed);
  for (guint k = 0; k < potential->len; k++)
    g_hash_table_add (trial->removed, potential->pdata[k]);
  if (!fits_without (trial, i, pods, NULL, verdict))
    return FALSE;
  g_ptr_array_sort (potential, compare_importance);
  g_autofree const FsPodDisruptionBudget **violates = g_new0 (const FsPodDisruptionBudget *, potential->len);
  fs_pods_with_pdb_violation ((const FsPod *const *) potential->pdata, potential->len, trial->snapshot->pdbs,
                              trial->snapshot->n_pdbs, violates);
  GArray *victims = g_array_new (FALSE, TRUE, sizeof (FsVictim));
  int64_t violations = 0;
  guint n_violating = 0;
  for (guint pass = 0; pass < 2; pass++)
    for (guint k = 0; k < potential->len; k++)
      {
        gboolean violating = violates[k] != NULL;
        if (violating != (pass == 0))
          continue;
        n_violating += violating;
        const FsPod *other = potential->pdata[k];
        g_hash_table_remove (trial->removed, other);
        FsVerdict probe;
        if (fits_without (trial, i, pods, other, &probe))
          continue; /* reprieved */
        g_hash_table_add (trial->removed, (gpointer) other);
        FsVictim victim = { other, violates[k] };
        g_array_append_val (victims, victim);
        violations += violating;
      }
  if (n_violating > 0 && n_violating < potential->len)
    g_array_sort (victims, compare_victims);
  if (victims->len == 0) /* it fits as the node is: not a node preemption is for */
    {
      g_array_unref (victims);
      *no_victims = TRUE;
      return FALSE;
    }
  candidate->node_index = i;
  candidate->victims = victims;
  candidate->n_pdb_violations = violations;
  return TRUE;
}

static void
trial_init (Trial *trial, const FsSnapshot *snapshot, const FsPodShape *pod, const FsPackOptions *options)
{
  memset (trial, 0, sizeof *trial);
  trial->snapshot = snapshot;
  trial->pod = pod;
  trial->options = options;
  trial->removed = g_hash_table_new (NULL, NULL);
  trial->full = fs_pack_needs_pods (snapshot, pod);
  trial->scratch = trial->full ? g_new0 (FsNodeFit, snapshot->n_nodes + 1) : NULL;
}

static void
trial_clear (Trial *trial)
{
  g_hash_table_unref (trial->removed);
  g_free (trial->scratch);
  g_free (trial->batch);
  g_free (trial->relevant_on_node);
}

static gboolean
lower_priority (const FsPod *pod, gpointer data)
{
  const Trial *trial = data;
  return excluded (trial, pod) || (pod->node_index >= 0 && pod->priority < trial->pod->priority);
}

/* The batch verdicts and the relevant pods (see Trial). */
static void
trial_batch (Trial *trial)
{
  if (!trial->full)
    return;
  const FsSnapshot *snapshot = trial->snapshot;
  trial->relevant_on_node = g_new0 (guint, snapshot->n_nodes + 1);
  guint n_lower = 0;
  for (guint p = 0; p < snapshot->n_pods; p++)
    {
      const FsPod *other = &snapshot->pods[p];
      if (other->node_index < 0 || !fs_pod_counts_on_node (other) || excluded (trial, other)
          || other->priority >= trial->pod->priority)
        continue;
      n_lower++;
      if (relevant (trial, other))
        {
          trial->n_relevant++;
          trial->relevant_on_node[other->node_index]++;
        }
    }
  if (n_lower == 0) /* no victim anywhere: no node gets as far as these filters */
    return;
  trial->batch = g_new0 (FsNodeFit, snapshot->n_nodes + 1);
  FsPackOptions options = { .loads = trial->options != NULL ? trial->options->loads : NULL,
                            .exclude = lower_priority, .exclude_data = trial, .replicas = 1 };
  FsPackResult result;
  fs_pack (snapshot, trial->pod, &options, trial->batch, &result);
}

/* The pods counted on each node (NodeInfo.GetPods). */
static GPtrArray **
pods_by_node (const FsSnapshot *snapshot)
{
  GPtrArray **by_node = g_new0 (GPtrArray *, snapshot->n_nodes + 1);
  for (guint i = 0; i < snapshot->n_nodes; i++)
    by_node[i] = g_ptr_array_new ();
  for (guint p = 0; p < snapshot->n_pods; p++)
    {
      const FsPod *pod = &snapshot->pods[p];
      if (pod->node_index >= 0 && fs_pod_counts_on_node (pod))
        g_ptr_array_add (by_node[pod->node_index], (gpointer) pod);
    }
  return by_node;
}

static void
pods_by_node_free (const FsSnapshot *snapshot, GPtrArray **by_node)
{
  for (guint i = 0; i < snapshot->n_nodes; i++)
    g_ptr_array_unref (by_node[i]);
  g_free (by_node);
}

gboolean
fs_select_victims_on_node (const FsSnapshot *snapshot, const FsPodShape *pod, const FsPackOptions *options,
                           guint node_index, FsPreemptionCandidate *candidate, FsVerdict *verdict,
                           gboolean *no_victims)
{
  Trial trial;
  trial_init (&trial, snapshot, pod, options);
  GPtrArray **by_node = pods_by_node (snapshot);
  gboolean found = select_victims (&trial, node_index, by_node[node_index], candidate, verdict, no_victims);
  pods_by_node_free (snapshot, by_node);
  trial_clear (&trial);
  return found;
}

/* ---- pickOneNodeForPreemption ------------------------------------------------------------ */

/* util.GetEarliestPodStartTime: the earliest start among the highest-priority victims. */
static int64_t
earliest_start_of_highest (const FsPreemptionCandidate *candidate)
{
  const FsVictim *victims = (const FsVictim *) (gpointer) candidate->victims->data;
  int32_t highest = victims[0].pod->priority;
  int64_t earliest = start_time (victims[0].pod);
  for (guint i = 0; i < candidate->victims->len; i++)
    {
      const FsPod *pod = victims[i].pod;
      if (pod->priority == highest)
        earliest = MIN (earliest, start_time (pod));
      else if (pod->priority > highest)
        highest = pod->priority, earliest = start_time (pod);
    }
  return earliest;
}

/* The score of criterion K (higher is better). */
static int64_t
score (const FsPreemptionCandidate *candidate, guint k)
{
  const FsVictim *victims = (const FsVictim *) (gpointer) candidate->victims->data;
  switch (k)
    {
    case 0: /* the fewest PDB violations */
      return -candidate->n_pdb_violations;
    case 1: /* the lowest highest priority among the victims (they are sorted) */
      return -(int64_t) victims[0].pod->priority;
    case 2: /* the lowest sum of priorities, each shifted by MaxInt32 + 1 to be >= 0 */
      {
        int64_t sum = 0;
        for (guint i = 0; i < candidate->victims->len; i++)
          sum += (int64_t) victims[i].pod->priority + (int64_t) G_MAXINT32 + 1;
        return -sum;
      }
    case 3: /* the fewest victims */
      return -(int64_t) candidate->victims->len;
    default: /* the latest start of the highest-priority victims */
      return earliest_start_of_highest (candidate);
    }
}

guint
fs_pick_one_node_for_preemption (const FsPreemptionCandidate *candidates, guint n_candidates)
{
  g_autofree guint *tied = g_new (guint, n_candidates + 1);
  guint n_tied = n_candidates;
  for (guint i = 0; i < n_candidates; i++)
    tied[i] = i;
  for (guint k = 0; k < 5 && n_tied > 1; k++)
    {
      int64_t best = G_MININT64;
      guint kept = 0;
      for (guint i = 0; i < n_tied; i++)
        {
          int64_t value = score (&candidates[tied[i]], k);
          if (value > best)
            best = value, kept = 0;
          if (value == best)
            tied[kept++] = tied[i];
        }
      n_tied = kept;
    }
  return tied[0];
}

/* ---- Preempt ------------------------------------------------------------------------------ */

void
fs_preemption_candidate_clear (FsPreemptionCandidate *candidate)
{
  if (candidate->victims != NULL)
    g_array_unref (g_steal_pointer (&candidate->victims));
}

void
fs_preemption_clear (FsPreemption *preemption)
{
  fs_preemption_candidate_clear (&preemption->chosen);
  g_clear_pointer (&preemption->message, g_free);
}

void
fs_preempt (const FsSnapshot *snapshot, const FsPodShape *pod, const FsPackOptions *options,
            const char *nominated, const FsNodeFit *nodes, FsPreemption *preemption)
{
  memset (preemption, 0, sizeof *preemption);
  const char *ineligible = fs_preemption_ineligible (snapshot, pod, nominated, nodes);
  if (ineligible != NULL)
    {
      preemption->message = g_strconcat ("preemption: ", ineligible, NULL);
      return;
    }
  preemption->eligible = TRUE;
  g_autoptr (FsReasonCounts) counts = fs_reason_counts_new ();
  g_autoptr (GArray) candidates = g_array_new (FALSE, TRUE, sizeof (FsPreemptionCandidate));
  Trial trial;
  trial_init (&trial, snapshot, pod, options);
  trial_batch (&trial);
  GPtrArray **by_node = pods_by_node (snapshot);
  for (guint i = 0; i < snapshot->n_nodes; i++)
    {
      const FsVerdict *verdict = &nodes[i].verdict;
      /* findCandidates: only Unschedulable nodes; the others get the absent nodes' status */
      if (verdict->filter == FS_FILTER_PASS || verdict->unresolvable)
        {
          fs_reason_counts_add (counts, "Preemption is not helpful for scheduling", 1);
          continue;
        }
      preemption->n_potential++;
      FsPreemptionCandidate candidate = { 0 };
      FsVerdict after;
      gboolean no_victims;
      if (select_victims (&trial, i, by_node[i], &candidate, &after, &no_victims))
        g_array_append_val (candidates, candidate);
      else if (no_victims)
        fs_reason_counts_add (counts, "No preemption victims found for incoming pod", 1);
      else
        fs_reason_counts_add_verdict (counts, &after);
    }
  pods_by_node_free (snapshot, by_node);
  trial_clear (&trial);
  preemption->n_candidates = candidates->len;
  /* default_preemption.go calculateNumCandidates with the default DefaultPreemptionArgs
   * (MinCandidateNodesPercentage 10, MinCandidateNodesAbsolute 100) */
  preemption->n_sampled = MIN (MAX (preemption->n_potential * 10 / 100, 100u), preemption->n_potential);
  if (candidates->len == 0)
    {
      g_autofree char *fit_error = fs_fit_error_message (snapshot->n_nodes, counts, NULL);
      preemption->message = g_strconcat ("preemption: ", fit_error, NULL);
      return;
    }
  guint best = fs_pick_one_node_for_preemption ((const FsPreemptionCandidate *) (gpointer) candidates->data,
                                                candidates->len);
  for (guint i = 0; i < candidates->len; i++)
    {
      FsPreemptionCandidate *candidate = &g_array_index (candidates, FsPreemptionCandidate, i);
      if (i == best)
        preemption->chosen = *candidate;
      else
        fs_preemption_candidate_clear (candidate);
    }
  preemption->found = TRUE;
}
