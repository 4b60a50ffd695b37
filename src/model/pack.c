/* fitscale — placing identical replicas (see include/fitscale/pack.h). */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "fitscale/model/names.h"
#include "fitscale/model/pack.h"
#include "fitscale/model/schedconfig.h"

FsNodeLoad
fs_node_load (const FsNode *node)
{
  FsNodeLoad load = { .requested = node->requested, .pod_count = node->pod_count,
                      .used_ports = node->used_ports };
  return load;
}

typedef struct {
  int64_t request;
  int64_t free_amount;
} Amount;

/* NodeResourcesFit (pkg/scheduler/framework/plugins/noderesources/fit.go fitsRequest)
 * applied after each placed replica: with identical replicas, the j-th still fits while
 * j * request <= free for every requested resource and pod_count + j <= allocatable pods,
 * so the count is a division per resource. */
int64_t
fs_resources_capacity (const FsResources *allocatable, const FsNodeLoad *load,
                       const FsResources *pod_request)
{
  return fs_resources_capacity_profile (allocatable, load, pod_request, NULL);
}

int64_t
fs_resources_capacity_profile (const FsResources *allocatable, const FsNodeLoad *load,
                               const FsResources *pod_request, const FsSchedulerProfile *profile)
{
  if (!fs_scheduler_profile_runs (profile, FS_FILTER_NODE_RESOURCES_FIT))
    return FS_PACK_UNLIMITED;
  /* at most FS_PACK_UNLIMITED a node, so that sums over nodes and domains stay far from the
   * int64 limits whatever a node's allocatable says */
  int64_t count = CLAMP (fs_saturating_sub (allocatable->pods, load->pod_count), 0, FS_PACK_UNLIMITED);
  Amount amounts[3 + FS_RES_MAX_EXTENDED];
  guint n = 0;
  amounts[n++] = (Amount){ pod_request->cpu_milli,
                           fs_saturating_sub (allocatable->cpu_milli, load->requested.cpu_milli) };
  amounts[n++] = (Amount){ pod_request->memory_bytes,
                           fs_saturating_sub (allocatable->memory_bytes, load->requested.memory_bytes) };
  amounts[n++] = (Amount){ pod_request->ephemeral_bytes,
                           fs_saturating_sub (allocatable->ephemeral_bytes, load->requested.ephemeral_bytes) };
  for (guint i = 0; i < pod_request->n_extended; i++)
    {
      const FsExtendedAmount *want = &pod_request->extended[i];
      if (fs_scheduler_profile_ignores (profile, want->name))
        continue;
      amounts[n++] = (Amount){ want->value, fs_saturating_sub (fs_resources_get (allocatable, want->name),
                                                               fs_resources_get (&load->requested, want->name)) };
    }
  for (guint i = 0; i < n; i++)
    {
      if (amounts[i].request <= 0)
        continue;
      int64_t by_resource = amounts[i].free_amount > 0 ? amounts[i].free_amount / amounts[i].request : 0;
      count = MIN (count, by_resource);
    }
  return count;
}

/* ---- label and namespace matching for pod (anti-)affinity ----------------------------- */


static const FsNamespace *
find_namespace (const FsSnapshot *snapshot, const char *name)
{
  for (guint i = 0; i < snapshot->n_namespaces; i++)
    if (strcmp (snapshot->namespaces[i].name, name) == 0)
      return &snapshot->namespaces[i];
  return NULL;
}

/* Whether a term written in OWNER_NAMESPACE covers pods of NAMESPACE
 * (interpodaffinity: AffinityTerm.Matches with its namespaces and namespaceSelector; an
 * empty list and no selector mean the term owner's own namespace). */
static gboolean
term_covers_namespace (const FsSnapshot *snapshot, const FsPodAffinityTerm *term,
                       const char *owner_namespace, const char *namespace)
{
  for (guint i = 0; i < term->n_namespaces; i++)
    if (strcmp (term->namespaces[i], namespace) == 0)
      return TRUE;
  if (term->namespace_selector != NULL)
    {
      const FsNamespace *ns = find_namespace (snapshot, namespace);
      return fs_selector_matches (term->namespace_selector, ns != NULL ? ns->labels : NULL);
    }
  return term->n_namespaces == 0 && g_strcmp0 (owner_namespace, namespace) == 0;
}

static gboolean
term_matches_pod (const FsSnapshot *snapshot, const FsPodAffinityTerm *term,
                  const char *owner_namespace, const char *namespace, const FsLabelSet *labels)
{
  return term_covers_namespace (snapshot, term, owner_namespace, namespace)
         && fs_selector_matches (term->label_selector, labels);
}

/* ---- the packing ------------------------------------------------------------------ */

typedef struct {
  const FsSnapshot *snapshot;
  const FsPodShape *pod;
  const FsPackOptions *options;
  FsNodeFit *nodes;
  int64_t *room;       /* per node: replicas it may take by its own filters and the pod rules
                        * that never change while replicas land: 0 for a node rejected for
                        * good, its own capacity for a node that passes or that only the skew
                        * of a constraint the replicas match rejects for now */
} Packing;

static gboolean
pod_counts (const Packing *packing, const FsPod *pod)
{
  return pod->node_index >= 0 && fs_pod_counts_on_node (pod)
         && (packing->options->exclude == NULL
             || !packing->options->exclude (pod, packing->options->exclude_data));
}

static void
reject (FsNodeFit *fit, FsFilter filter, FsVerdictDetail detail, gboolean unresolvable)
{
  memset (&fit->verdict, 0, sizeof fit->verdict);
  fit->verdict.filter = filter;
  fit->verdict.detail = detail;
  fit->verdict.unresolvable = unresolvable;
  fit->capacity = 0;
}

/* A rule that placing replicas does not change rejects node I: its verdict says so when
 * nothing rejected it before, and it takes no replica even once the skew allows. */
static void
rule_out (const Packing *packing, guint i, FsFilter filter, FsVerdictDetail detail, gboolean unresolvable)
{
  if (packing->nodes[i].verdict.filter == FS_FILTER_PASS)
    reject (&packing->nodes[i], filter, detail, unresolvable);
  packing->room[i] = 0;
}

/* Why a node that takes some replicas takes no more: another one would break the replicas'
 * own required anti-affinity (interpodaffinity/filtering.go ErrReasonAntiAffinityRulesNotMatch). */
static void
limit_by_anti_affinity (FsNodeFit *fit)
{
  memset (&fit->limit, 0, sizeof fit->limit);
  fit->limit.filter = FS_FILTER_INTER_POD_AFFINITY;
  fit->limit.detail = FS_DETAIL_ANTI_AFFINITY;
}

/* A set of topology domains: topology key -> set of label values (both interned, so the
 * pointers compare). */
typedef GHashTable DomainSet;

static DomainSet *
domain_set_new (void)
{
  return g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_hash_table_unref);
}

/* Adds the TOPOLOGY_KEY domain of node NODE_INDEX (nodes without the label have none). */
static void
domain_set_add (DomainSet *set, const FsSnapshot *snapshot, const char *topology_key,
                int32_t node_index)
{
  const char *value = fs_labels_get (snapshot->nodes[node_index].labels, topology_key);
  if (value == NULL)
    return;
  const char *key = NULL;
  for (guint i = 0; i < snapshot->nodes[node_index].labels->n; i++)
    if (snapshot->nodes[node_index].labels->items[i].value == value
        && strcmp (snapshot->nodes[node_index].labels->items[i].key, topology_key) == 0)
      key = snapshot->nodes[node_index].labels->items[i].key;
  GHashTable *values = g_hash_table_lookup (set, key);
  if (values == NULL)
    {
      values = g_hash_table_new (NULL, NULL);
      g_hash_table_insert (set, (gpointer) key, values);
    }
  g_hash_table_add (values, (gpointer) value);
}

/* Whether NODE lies in one of the domains of SET. */
static gboolean
domain_set_holds (DomainSet *set, const FsNode *node)
{
  GHashTableIter iter;
  gpointer key, values;
  g_hash_table_iter_init (&iter, set);
  while (g_hash_table_iter_next (&iter, &key, &values))
    {
      const char *value = fs_labels_get (node->labels, key);
      if (value != NULL && g_hash_table_contains (values, value))
        return TRUE;
    }
  return FALSE;
}

/* The pod's topology spread constraints as its profile applies them: none when the profile
 * turns PodTopologySpread off, else the pod's own, else the profile's List defaults the
 * planner gave the shape (podtopologyspread/common.go buildDefaultConstraints). */
static const FsSpreadList *
spread_of (const FsPodShape *pod)
{
  if (!fs_scheduler_profile_runs (pod->profile, FS_FILTER_POD_TOPOLOGY_SPREAD))
    return NULL;
  return pod->spec->placement->spread != NULL ? pod->spec->placement->spread : pod->default_spread;
}

/* Whether the pod's profile runs InterPodAffinity. */
static gboolean
inter_pod_affinity_runs (const FsPodShape *pod)
{
  return fs_scheduler_profile_runs (pod->profile, FS_FILTER_INTER_POD_AFFINITY);
}

/* InterPodAffinity (interpodaffinity/filtering.go satisfyPodAntiAffinity and
 * satisfyExistingPodsAntiAffinity): nodes in a domain holding a pod that the incoming
 * pod's anti-affinity selects, or whose own anti-affinity selects the incoming pod. */
static void
apply_anti_affinity (const Packing *packing)
{
  const FsSnapshot *snapshot = packing->snapshot;
  const FsPodShape *pod = packing->pod;
  const FsPodAffinityTermList *terms = pod->spec->placement->pod_anti_affinity;
  if ((terms == NULL && snapshot->n_pods_with_anti_affinity == 0) || !inter_pod_affinity_runs (pod))
    return;
  g_autoptr (GHashTable) own = domain_set_new ();
  g_autoptr (GHashTable) existing = domain_set_new ();
  for (guint p = 0; p < snapshot->n_pods; p++)
    {
      const FsPod *other = &snapshot->pods[p];
      if (!pod_counts (packing, other))
        continue;
      for (guint t = 0; terms != NULL && t < terms->n; t++)
        if (term_matches_pod (snapshot, &terms->items[t], pod->namespace, other->namespace,
                              other->labels))
          domain_set_add (own, snapshot, terms->items[t].topology_key, other->node_index);
      const FsPodAffinityTermList *theirs = other->spec->placement->pod_anti_affinity;
      for (guint t = 0; theirs != NULL && t < theirs->n; t++)
        if (term_matches_pod (snapshot, &theirs->items[t], other->namespace, pod->namespace,
                              pod->labels))
          domain_set_add (existing, snapshot, theirs->items[t].topology_key, other->node_index);
    }
  for (guint i = 0; i < snapshot->n_nodes; i++)
    {
      if (packing->room[i] == 0 && packing->nodes[i].verdict.filter != FS_FILTER_PASS)
        continue;
      if (domain_set_holds (own, &snapshot->nodes[i]))
        rule_out (packing, i, FS_FILTER_INTER_POD_AFFINITY, FS_DETAIL_ANTI_AFFINITY, FALSE);
      else if (domain_set_holds (existing, &snapshot->nodes[i]))
        rule_out (packing, i, FS_FILTER_INTER_POD_AFFINITY, FS_DETAIL_EXISTING_ANTI_AFFINITY, FALSE);
    }
}

/* InterPodAffinity required affinity (interpodaffinity/filtering.go satisfyPodAffinity):
 * every term needs a matching pod in the node's domain; when no pod anywhere matches and the
 * pod matches its own term, the first replica may go to any node with the topology label,
 * and the rest follow it into that one domain.  Returns the topology key of such a
 * self-affine term (the replicas then share one domain), or NULL. */
static const char *
apply_affinity (const Packing *packing)
{
  const FsSnapshot *snapshot = packing->snapshot;
  const FsPodShape *pod = packing->pod;
  const FsPodAffinityTermList *terms = inter_pod_affinity_runs (pod) ? pod->spec->placement->pod_affinity
                                                                     : NULL;
  const char *co_locate_key = NULL;
  for (guint t = 0; terms != NULL && t < terms->n; t++)
    {
      const FsPodAffinityTerm *term = &terms->items[t];
      g_autoptr (GHashTable) allowed = domain_set_new ();
      gboolean any_match = FALSE;
      for (guint p = 0; p < snapshot->n_pods; p++)
        {
          const FsPod *other = &snapshot->pods[p];
          if (pod_counts (packing, other)
              && term_matches_pod (snapshot, term, pod->namespace, other->namespace, other->labels))
            {
              any_match = TRUE;
              domain_set_add (allowed, snapshot, term->topology_key, other->node_index);
            }
        }
      gboolean self_match = term_matches_pod (snapshot, term, pod->namespace, pod->namespace,
                                              pod->labels);
      if (!any_match && self_match)
        co_locate_key = term->topology_key;
      for (guint i = 0; i < snapshot->n_nodes; i++)
        {
          gboolean has_label = fs_labels_get (snapshot->nodes[i].labels, term->topology_key) != NULL;
          gboolean ok = any_match ? domain_set_holds (allowed, &snapshot->nodes[i])
                                  : (self_match && has_label);
          /* UnschedulableAndUnresolvable (interpodaffinity/filtering.go Filter): removing pods
           * cannot bring a matching one, so preemption skips the node */
          if (!ok)
            rule_out (packing, i, FS_FILTER_INTER_POD_AFFINITY, FS_DETAIL_AFFINITY, TRUE);
        }
    }
  return co_locate_key;
}

/* Capacity when every replica must share one domain of KEY: the roomiest domain (ROOM of
 * the nodes elsewhere set to 0). */
static int64_t
best_single_domain (const Packing *packing, const char *key)
{
  const FsSnapshot *snapshot = packing->snapshot;
  g_autoptr (GHashTable) totals = g_hash_table_new (NULL, NULL);
  const char *best_domain = NULL;
  int64_t best = 0;
  for (guint i = 0; i < snapshot->n_nodes; i++)
    {
      const char *domain = fs_labels_get (snapshot->nodes[i].labels, key);
      if (domain == NULL || packing->room[i] == 0)
        continue;
      int64_t sum = GPOINTER_TO_SIZE (g_hash_table_lookup (totals, domain)) + packing->room[i];
      g_hash_table_insert (totals, (gpointer) domain, GSIZE_TO_POINTER (sum));
      if (sum > best)
        best = sum, best_domain = domain;
    }
  for (guint i = 0; i < snapshot->n_nodes; i++)
    if (fs_labels_get (snapshot->nodes[i].labels, key) != best_domain)
      packing->room[i] = 0;
  return best;
}

const char *
fs_pack_self_anti_affinity_key (const FsSnapshot *snapshot, const FsPodShape *pod)
{
  const FsPodAffinityTermList *terms = inter_pod_affinity_runs (pod)
                                          ? pod->spec->placement->pod_anti_affinity : NULL;
  for (guint t = 0; terms != NULL && t < terms->n; t++)
    if (term_matches_pod (snapshot, &terms->items[t], pod->namespace, pod->namespace, pod->labels))
      return terms->items[t].topology_key;
  return NULL;
}

gboolean
fs_pack_needs_pods (const FsSnapshot *snapshot, const FsPodShape *pod)
{
  const FsPlacement *placement = pod->spec->placement;
  return ((placement->pod_affinity != NULL || placement->pod_anti_affinity != NULL
           || snapshot->n_pods_with_anti_affinity > 0)
          && inter_pod_affinity_runs (pod))
         || spread_of (pod) != NULL || pod->spec->host_ports != NULL;
}

void
fs_pack_usable_nodes (const FsSnapshot *snapshot, const FsPodShape *pod, const FsNodeLoad *loads,
                      gboolean *usable)
{
  /* the node-only filters do not depend on the request: run them with none */
  FsPodSpec unsized_spec = *pod->spec;
  memset (&unsized_spec.request, 0, sizeof unsized_spec.request);
  FsPodShape unsized = *pod;
  unsized.spec = &unsized_spec;
  for (guint i = 0; i < snapshot->n_nodes; i++)
    {
      FsVerdict verdict;
      usable[i] = fs_fit_node (&snapshot->nodes[i], &loads[i], &unsized, &verdict)
                  || verdict.filter == FS_FILTER_NODE_RESOURCES_FIT;
    }
}

/* Capacity when each domain of KEY takes at most one replica (ROOM cut to match). */
static int64_t
one_per_domain (const Packing *packing, const char *key)
{
  const FsSnapshot *snapshot = packing->snapshot;
  g_autoptr (GHashTable) domains = g_hash_table_new (NULL, NULL);
  int64_t total = 0;
  for (guint i = 0; i < snapshot->n_nodes; i++)
    {
      FsNodeFit *fit = &packing->nodes[i];
      int64_t *room = &packing->room[i];
      const char *domain = fs_labels_get (snapshot->nodes[i].labels, key);
      if (*room == 0)
        continue;
      if (domain == NULL || strcmp (key, FS_LABEL_HOSTNAME) == 0)
        {
          if (domain != NULL && *room > 1)
            limit_by_anti_affinity (fit);
          *room = domain == NULL ? *room : 1;
          total += *room;
        }
      else if (g_hash_table_add (domains, (gpointer) domain))
        {
          if (*room > 1)
            limit_by_anti_affinity (fit);
          *room = 1;
          total += 1;
        }
      else
        *room = 0; /* another node of the domain takes its one replica */
    }
  return total;
}

/* ---- topology spread (podtopologyspread/filtering.go) ----------------------------- */

static gboolean
spread_selects (const Packing *packing, const FsSpreadConstraint *constraint,
                const FsPod *other)
{
  return g_strcmp0 (other->namespace, packing->pod->namespace) == 0
         && !(other->flags & FS_POD_TERMINATING)
         && fs_selector_matches (constraint->label_selector, other->labels);
}

/* One DoNotSchedule constraint as PreFilter leaves it. */
typedef struct {
  const FsSpreadConstraint *constraint;
  guint n_domains;       /* eligible domains */
  int64_t *count;        /* per domain: matching pods there */
  int32_t *node_domain;  /* per node: index of its domain, -1 when not an eligible domain */
  gboolean self_match;   /* the replicas match the constraint's own selector */
  gboolean few_domains;  /* fewer eligible domains than minDomains: the minimum is 0 */
} SpreadState;

static void
spread_state_clear (SpreadState *state)
{
  g_free (state->count);
  g_free (state->node_domain);
}

/* Whether NODE has the topology key of every DoNotSchedule constraint in SPREAD
 * (podtopologyspread/common.go nodeLabelsMatchSpreadConstraints). */
static gboolean
node_has_spread_keys (const FsNode *node, const FsSpreadList *spread)
{
  for (guint c = 0; c < spread->n; c++)
    if (spread->items[c].when_unsatisfiable == FS_SPREAD_DO_NOT_SCHEDULE
        && fs_labels_get (node->labels, spread->items[c].topology_key) == NULL)
      return FALSE;
  return TRUE;
}

/* The global minimum of matching pods (podtopologyspread/filtering.go
 * preFilterState.minMatchNum): 0 when fewer domains than minDomains are eligible. */
static int64_t
spread_global_min (const SpreadState *state)
{
  if (state->few_domains || state->n_domains == 0)
    return 0;
  int64_t least = G_MAXINT64;
  for (guint d = 0; d < state->n_domains; d++)
    least = MIN (least, state->count[d]);
  return least;
}

/* The eligible domains of CONSTRAINT (one of SPREAD) with their matching pods
 * (podtopologyspread/filtering.go calPreFilterState): domains come from nodes that have every
 * constraint's topology key, pass the pod's node affinity (nodeAffinityPolicy Honor, the
 * default) and, with nodeTaintsPolicy Honor, whose taints it tolerates; a node without the
 * constraint's label is rejected with "(missing required label)" (Filter). */
static void
spread_state_init (const Packing *packing, const FsSpreadList *spread,
                   const FsSpreadConstraint *constraint, SpreadState *state)
{
  const FsSnapshot *snapshot = packing->snapshot;
  g_autoptr (GHashTable) index = g_hash_table_new (NULL, NULL);
  state->constraint = constraint;
  state->n_domains = 0;
  state->node_domain = g_new (int32_t, snapshot->n_nodes + 1);
  for (guint i = 0; i < snapshot->n_nodes; i++)
    {
      const FsNode *node = &snapshot->nodes[i];
      const char *domain = fs_labels_get (node->labels, constraint->topology_key);
      state->node_domain[i] = -1;
      if (domain == NULL)
        {
          rule_out (packing, i, FS_FILTER_POD_TOPOLOGY_SPREAD, FS_DETAIL_SPREAD_MISSING_LABEL, TRUE);
          continue;
        }
      gboolean eligible = node_has_spread_keys (node, spread)
                          && (constraint->node_affinity_policy == FS_POLICY_IGNORE
                              || fs_node_affinity_matches (node, packing->pod->spec->placement));
      if (constraint->node_taints_policy == FS_POLICY_HONOR)
        eligible = eligible && fs_first_untolerated_taint (node->taints,
                                                           packing->pod->spec->placement->tolerations) == NULL;
      if (!eligible)
        continue;
      gpointer slot = g_hash_table_lookup (index, domain);
      if (slot == NULL)
        {
          slot = GUINT_TO_POINTER (++state->n_domains);
          g_hash_table_insert (index, (gpointer) domain, slot);
        }
      state->node_domain[i] = GPOINTER_TO_INT (slot) - 1;
    }
  state->count = g_new0 (int64_t, state->n_domains + 1);
  for (guint p = 0; p < snapshot->n_pods; p++)
    {
      const FsPod *other = &snapshot->pods[p];
      if (pod_counts (packing, other) && state->node_domain[other->node_index] >= 0
          && spread_selects (packing, constraint, other))
        state->count[state->node_domain[other->node_index]]++;
    }
  state->self_match = fs_selector_matches (constraint->label_selector, packing->pod->labels);
  state->few_domains = constraint->min_domains > 0 && state->n_domains < (guint) constraint->min_domains;
}

/* Whether one more replica on node I keeps the skew: count + self - min <= maxSkew
 * (podtopologyspread/filtering.go Filter).  A node outside the eligible domains counts 0. */
static gboolean
spread_allows (const SpreadState *state, guint i, int64_t global_min)
{
  int32_t d = state->node_domain[i];
  int64_t here = d >= 0 ? state->count[d] : 0;
  return here + state->self_match - global_min <= state->constraint->max_skew;
}

/* The filter for the first replica: a node it rejects takes none now.  A constraint the
 * replicas do not match is the same for every replica, so it rules the node out for good; one
 * they match lets the node take replicas once the other domains caught up. */
static void
spread_reject_skewed (const Packing *packing, const SpreadState *state)
{
  int64_t global_min = spread_global_min (state);
  for (guint i = 0; i < packing->snapshot->n_nodes; i++)
    {
      if (packing->room[i] == 0 && packing->nodes[i].verdict.filter != FS_FILTER_PASS)
        continue;
      if (spread_allows (state, i, global_min))
        continue;
      if (!state->self_match)
        rule_out (packing, i, FS_FILTER_POD_TOPOLOGY_SPREAD, FS_DETAIL_SPREAD, FALSE);
      else if (packing->nodes[i].verdict.filter == FS_FILTER_PASS)
        reject (&packing->nodes[i], FS_FILTER_POD_TOPOLOGY_SPREAD, FS_DETAIL_SPREAD, FALSE);
    }
}

/* Sum over the items of what raising each to LEVEL takes: clamp(LEVEL - start, 0, top). */
static int64_t
filled_to (guint n, const int64_t *start, const int64_t *top, int64_t level)
{
  int64_t sum = 0;
  for (guint k = 0; k < n; k++)
    sum += CLAMP (level - (start != NULL ? start[k] : 0), 0, top[k]);
  return sum;
}

/* WANTED placed one at a time on N items, each to the item lowest now (START[k], NULL = 0)
 * that can still take one (at most TOP[k]), the first of equals first: the items below the
 * level reached rise to it, and the rest go one each to the first items at it.  TAKEN gets
 * what each item took; O(n log(range)). */
static void
fill_lowest_first (guint n, const int64_t *start, const int64_t *top, int64_t wanted, int64_t *taken)
{
  int64_t low = G_MAXINT64, high = 0;
  for (guint k = 0; k < n; k++)
    {
      int64_t from = start != NULL ? start[k] : 0;
      low = MIN (low, from);
      high = MAX (high, from + top[k]);
    }
  if (n == 0)
    return;
  while (low < high)
    {
      int64_t mid = low + (high - low + 1) / 2;
      if (filled_to (n, start, top, mid) <= wanted)
        low = mid;
      else
        high = mid - 1;
    }
  int64_t left = wanted - filled_to (n, start, top, low);
  for (guint k = 0; k < n; k++)
    {
      int64_t from = start != NULL ? start[k] : 0;
      taken[k] = CLAMP (low - from, 0, top[k]);
      if (left > 0 && from + taken[k] == low && taken[k] < top[k])
        taken[k]++, left--;
    }
}

/* The nodes grouped by domain: those of domain d are order[first[d] .. first[d + 1]); the
 * nodes in no eligible domain that may take replicas follow, one group each. */
typedef struct {
  guint n_groups;
  guint *first;
  guint *order;
} NodeGroups;

static void
node_groups_init (const Packing *packing, const SpreadState *state, NodeGroups *groups)
{
  guint n_nodes = packing->snapshot->n_nodes;
  guint loose = 0;
  for (guint i = 0; i < n_nodes; i++)
    loose += state->node_domain[i] < 0 && packing->room[i] > 0;
  groups->n_groups = state->n_domains + loose;
  groups->first = g_new0 (guint, groups->n_groups + 2);
  groups->order = g_new (guint, n_nodes + 1);
  for (guint i = 0; i < n_nodes; i++)
    if (state->node_domain[i] >= 0)
      groups->first[state->node_domain[i] + 1]++;
  for (guint d = 0; d < state->n_domains; d++)
    groups->first[d + 1] += groups->first[d];
  g_autofree guint *next = g_memdup2 (groups->first, (state->n_domains + 1) * sizeof (guint));
  guint tail = groups->first[state->n_domains], group = state->n_domains;
  for (guint i = 0; i < n_nodes; i++)
    if (state->node_domain[i] >= 0)
      groups->order[next[state->node_domain[i]]++] = i;
    else if (packing->room[i] > 0)
      {
        groups->order[tail++] = i;
        groups->first[++group] = tail;
      }
}

static void
node_groups_clear (NodeGroups *groups)
{
  g_free (groups->first);
  g_free (groups->order);
}

/* Each group's WANTED[g] spread over its nodes, lowest first, at most TOP[i] a node: OUT[i]. */
static void
fill_groups (const NodeGroups *groups, const int64_t *wanted, const int64_t *top, int64_t *out)
{
  guint most = 0;
  for (guint g = 0; g < groups->n_groups; g++)
    most = MAX (most, groups->first[g + 1] - groups->first[g]);
  g_autofree int64_t *tops = g_new (int64_t, most + 1);
  g_autofree int64_t *taken = g_new (int64_t, most + 1);
  for (guint g = 0; g < groups->n_groups; g++)
    {
      guint n = groups->first[g + 1] - groups->first[g];
      const guint *nodes = &groups->order[groups->first[g]];
      for (guint k = 0; k < n; k++)
        tops[k] = top[nodes[k]];
      fill_lowest_first (n, NULL, tops, wanted[g], taken);
      for (guint k = 0; k < n; k++)
        out[nodes[k]] = taken[k];
    }
}

/* One constraint the replicas match, alone: how many replicas each node takes (MOST) when as
 * many as fit are placed one at a time, and, when PLACED is not NULL, when WANTED are.  In
 * closed form: a domain at the minimum with room always passes (count + 1 - min = 1), so the
 * placing stops only when every domain at the minimum is full; the minimum is then
 * m = min over domains of (count + room), fixed by the data, whatever the order (0 with too
 * few domains for minDomains), and a domain takes min(room, m + maxSkew - count).  WANTED
 * replicas fill the domains lowest first (podtopologyspread/scoring.go prefers the fewest
 * matching pods), and a domain's replicas its nodes evenly.  Returns the total of MOST. */
static int64_t
spread_alone (const Packing *packing, const SpreadState *state, int64_t *most,
              int64_t wanted, int64_t *placed)
{
  NodeGroups groups;
  node_groups_init (packing, state, &groups);
  g_autofree int64_t *start = g_new0 (int64_t, groups.n_groups + 1);
  g_autofree int64_t *room = g_new0 (int64_t, groups.n_groups + 1);
  g_autofree int64_t *group_most = g_new0 (int64_t, groups.n_groups + 1);
  for (guint g = 0; g < groups.n_groups; g++)
    {
      start[g] = g < state->n_domains ? state->count[g] : 0;
      for (guint k = groups.first[g]; k < groups.first[g + 1]; k++)
        room[g] += packing->room[groups.order[k]];
    }
  int64_t floor = G_MAXINT64;
  for (guint d = 0; d < state->n_domains; d++)
    floor = MIN (floor, start[d] + room[d]);
  if (state->few_domains || state->n_domains == 0)
    floor = 0;
  int64_t total = 0;
  for (guint g = 0; g < groups.n_groups; g++)
    {
      group_most[g] = g < state->n_domains
                          ? CLAMP (floor + state->constraint->max_skew - start[g], 0, room[g])
                          : room[g];
      total += group_most[g];
    }
  fill_groups (&groups, group_most, packing->room, most);
  if (placed != NULL)
    {
      g_autofree int64_t *group_placed = g_new0 (int64_t, groups.n_groups + 1);
      fill_lowest_first (groups.n_groups, start, group_most, wanted < 0 ? total : MIN (wanted, total), group_placed);
      fill_groups (&groups, group_placed, most, placed);
    }
  node_groups_clear (&groups);
  return total;
}

/* Several constraints the replicas match: the replicas one at a time, each to a node every
 * constraint still allows (Filter), the one whose domains hold the fewest matching pods first
 * (podtopologyspread/scoring.go), then the one with the fewest placed; WANTED -1 = until none
 * is allowed.  O(replicas x nodes x constraints): the caller bounds it.  PLACED per node;
 * returns the total. */
static int64_t
spread_one_at_a_time (const Packing *packing, const SpreadState *states, guint n, int64_t wanted,
                      int64_t *placed)
{
  guint n_nodes = packing->snapshot->n_nodes;
  g_autofree int64_t **counts = g_new (int64_t *, n + 1);
  g_autofree int64_t *global_min = g_new (int64_t, n + 1);
  for (guint k = 0; k < n; k++)
    {
      counts[k] = g_memdup2 (states[k].count, (states[k].n_domains + 1) * sizeof (int64_t));
      global_min[k] = spread_global_min (&states[k]);
    }
  memset (placed, 0, n_nodes * sizeof *placed);
  int64_t total = 0;
  for (; wanted < 0 || total < wanted; total++)
    {
      gint best = -1;
      int64_t best_count = 0;
      for (guint i = 0; i < n_nodes; i++)
        {
          if (placed[i] >= packing->room[i])
            continue;
          int64_t sum = 0;
          gboolean allowed = TRUE;
          for (guint k = 0; k < n && allowed; k++)
            {
              int32_t d = states[k].node_domain[i];
              int64_t here = d >= 0 ? counts[k][d] : 0;
              allowed = here + 1 - global_min[k] <= states[k].constraint->max_skew;
              sum += here;
            }
          if (allowed && (best < 0 || sum < best_count || (sum == best_count && placed[i] < placed[best])))
            best = i, best_count = sum;
        }
      if (best < 0)
        break;
      placed[best]++;
      for (guint k = 0; k < n; k++)
        {
          int32_t d = states[k].node_domain[best];
          if (d < 0)
            continue;
          counts[k][d]++;
          /* AddPod (updateWithPod) raises the domain; the minimum follows */
          SpreadState now = states[k];
          now.count = counts[k];
          global_min[k] = spread_global_min (&now);
        }
    }
  for (guint k = 0; k < n; k++)
    g_free (counts[k]);
  return total;
}

/* The most work spread_one_at_a_time may do (replicas x nodes). */
#define SPREAD_STEPS_MAX 2e7

/* The constraints the replicas match (STATES, N > 0): per node the replicas it takes when as
 * many as fit are placed one at a time (MOST), and when WANTED are (PLACED, unless NULL).
 * One constraint: in closed form.  Several: each alone bounds the total; placed one at a time
 * when that bound times the nodes stays under SPREAD_STEPS_MAX, else the tightest alone
 * stands for them all (an upper bound).  Without PLACED (totals only) the bound is a
 * twentieth, and with WANTED >= 0 several are placed no further than WANTED.  Returns the
 * total of MOST. */
static int64_t
spread_most (const Packing *packing, const SpreadState *states, guint n, int64_t wanted,
             int64_t *most, int64_t *placed)
{
  if (n == 1) /* one constraint: its closed form alone */
    return spread_alone (packing, &states[0], most, wanted, placed);
  guint n_nodes = packing->snapshot->n_nodes;
  int64_t bound = G_MAXINT64;
  guint tightest = 0;
  g_autofree int64_t *alone = g_new (int64_t, n_nodes + 1);
  for (guint k = 0; k < n; k++)
    {
      int64_t total = spread_alone (packing, &states[k], alone, wanted, NULL);
      if (total < bound)
        bound = total, tightest = k;
    }
  /* totals only (the new-node estimate's trial packings, many per answer): a twentieth of
   * the work, and no further than the replicas asked, as the answer needs no more */
  double steps_max = placed == NULL ? SPREAD_STEPS_MAX / 20 : SPREAD_STEPS_MAX;
  if (placed == NULL && wanted >= 0)
    bound = MIN (bound, wanted);
  if ((double) bound * n_nodes > steps_max)
    return spread_alone (packing, &states[tightest], most, wanted, placed);
  if (placed == NULL && wanted >= 0)
    return spread_one_at_a_time (packing, states, n, wanted, most);
  int64_t total = spread_one_at_a_time (packing, states, n, -1, most);
  if (placed != NULL)
    spread_one_at_a_time (packing, states, n, wanted < 0 ? total : MIN (wanted, total), placed);
  return total;
}

/* ---- distribution ----------------------------------------------------------------- */

/* Spreads WANTED replicas over the nodes that can take them, one per node per round, as
 * the default LeastAllocated scoring tends to. */
static void
distribute (FsNodeFit *nodes, guint n_nodes, int64_t wanted)
{
  int64_t left = wanted;
  gboolean progress = TRUE;
  while (left > 0 && progress)
    {
      progress = FALSE;
      for (guint i = 0; i < n_nodes && left > 0; i++)
        if (nodes[i].placed < nodes[i].capacity)
          {
            int64_t room = nodes[i].capacity - nodes[i].placed;
            int64_t rounds_left = (left + n_nodes - 1) / n_nodes;
            int64_t take = MIN (room, MAX (rounds_left, 1));
            nodes[i].placed += take;
            left -= take;
            progress = TRUE;
          }
    }
}

void
fs_pack_base_loads (const FsSnapshot *snapshot, const FsPackOptions *options, FsNodeLoad *loads)
{
  for (guint i = 0; i < snapshot->n_nodes; i++)
    {
      /* the resources up to their last extended entry: most nodes have none or few of the
       * FS_RES_MAX_EXTENDED, and these loads are copied for every packing */
      const FsNode *node = &snapshot->nodes[i];
      const FsNodeLoad *given = options->loads != NULL ? &options->loads[i] : NULL;
      const FsResources *requested = given != NULL ? &given->requested : &node->requested;
      memcpy (&loads[i].requested, requested,
              offsetof (FsResources, extended) + requested->n_extended * sizeof requested->extended[0]);
      loads[i].pod_count = given != NULL ? given->pod_count : node->pod_count;
      loads[i].used_ports = given != NULL ? given->used_ports : node->used_ports;
      loads[i].released = given != NULL ? given->released : NULL;
      loads[i].released_data = given != NULL ? given->released_data : NULL;
      if (options->exclude != NULL)
        {
          /* their host ports go with them */
          loads[i].released = options->exclude;
          loads[i].released_data = options->exclude_data;
        }
    }
  if (options->exclude == NULL)
    return;
  guint first = 0, end = snapshot->n_pods;
  if (options->exclude_namespace != NULL)
    fs_snapshot_namespace_pods (snapshot, options->exclude_namespace, &first, &end);
  for (guint p = first; p < end; p++)
    {
      const FsPod *other = &snapshot->pods[p];
      if (other->node_index >= 0 && fs_pod_counts_on_node (other)
          && options->exclude (other, options->exclude_data))
        {
          FsNodeLoad *load = &loads[other->node_index];
          fs_resources_sub (&load->requested, fs_pod_request (other), NULL);
          load->pod_count--;
        }
    }
}

/* LOAD with K more replicas of REQUEST on it. */
static FsNodeLoad
load_with (const FsNodeLoad *load, const FsResources *request, int64_t k)
{
  FsNodeLoad full = *load;
  FsResources scaled = *request;
  scaled.cpu_milli *= k;
  scaled.memory_bytes *= k;
  scaled.ephemeral_bytes *= k;
  for (guint i = 0; i < scaled.n_extended; i++)
    scaled.extended[i].value *= k;
  fs_resources_add (&full.requested, &scaled, NULL);
  full.pod_count += k;
  return full;
}

/* Each node's verdict for one replica and how many it takes by its own filters.  Returns
 * whether host ports held a node to fewer replicas than its resources allow: others' ports
 * keep it empty, or the replicas' own keep it to one. */
static gboolean
base_verdicts (const Packing *packing, gboolean *held_by_volumes)
{
  const FsSnapshot *snapshot = packing->snapshot;
  g_autofree FsNodeLoad *loads = g_new (FsNodeLoad, snapshot->n_nodes + 1);
  fs_pack_base_loads (snapshot, packing->options, loads);
  gboolean held_by_ports = FALSE;
  for (guint i = 0; i < snapshot->n_nodes; i++)
    {
      FsNodeFit *fit = &packing->nodes[i];
      memset (fit, 0, sizeof *fit);
      if (!fs_fit_node (&snapshot->nodes[i], &loads[i], packing->pod, &fit->verdict))
        {
          held_by_ports = held_by_ports || fit->verdict.filter == FS_FILTER_NODE_PORTS;
          *held_by_volumes = *held_by_volumes || fit->verdict.filter == FS_FILTER_VOLUME_RESTRICTIONS
                             || fit->verdict.filter == FS_FILTER_NODE_VOLUME_LIMITS
                             || fit->verdict.filter == FS_FILTER_VOLUME_BINDING
                             || fit->verdict.filter == FS_FILTER_VOLUME_ZONE;
          continue;
        }
      const FsResources *request = &packing->pod->spec->request;
      fit->capacity = fs_resources_capacity_profile (&snapshot->nodes[i].allocatable, &loads[i], request,
                                                     packing->pod->profile);
      if (fit->capacity > 0 && packing->pod->spec->host_ports != NULL)
        {
          /* NodePorts, before NodeResourcesFit: a placed replica holds its host ports, and
           * each conflicts with itself (HostPortInfo.CheckConflict of the same hostIP,
           * protocol and port), so the next replica finds none free */
          held_by_ports = held_by_ports || fit->capacity > 1;
          fit->capacity = 1;
          fit->limit.filter = FS_FILTER_NODE_PORTS;
          continue;
        }
      /* capacity * request cannot overflow: each product is at most the node's free amount */
      FsNodeLoad full = load_with (&loads[i], request, fit->capacity);
      fs_resources_fit_profile (&snapshot->nodes[i].allocatable, &full, request, packing->pod->profile,
                                &fit->limit);
    }
  return held_by_ports;
}

/* Every DoNotSchedule constraint's state, the ones the replicas match first (N_SELF of the
 * N), after rejecting the nodes each one's skew rejects for the first replica. */
static SpreadState *
spread_states_init (const Packing *packing, guint *n, guint *n_self)
{
  const FsSpreadList *spread = spread_of (packing->pod);
  *n = *n_self = 0;
  if (spread == NULL)
    return NULL;
  SpreadState *states = g_new0 (SpreadState, spread->n + 1);
  for (int pass = 0; pass < 2; pass++)
    for (guint c = 0; c < spread->n; c++)
      {
        const FsSpreadConstraint *constraint = &spread->items[c];
        gboolean self_match = fs_selector_matches (constraint->label_selector, packing->pod->labels);
        if (constraint->when_unsatisfiable != FS_SPREAD_DO_NOT_SCHEDULE || self_match != (pass == 0))
          continue;
        spread_state_init (packing, spread, constraint, &states[*n]);
        spread_reject_skewed (packing, &states[*n]);
        *n_self += self_match;
        (*n)++;
      }
  return states;
}

/* With constraints the replicas match: each node's capacity is what it takes when as many as
 * fit are placed one at a time (a node the skew rejects for the first replica may take some
 * once the other domains caught up), and where the skew, not the node's own filters, stops it
 * the limit names topology spread.  *PLACED (allocated unless totals only): the replicas asked
 * for, per node.  Returns the total. */
static int64_t
spread_capacities (const Packing *packing, const SpreadState *states, guint n, int64_t **placed)
{
  guint n_nodes = packing->snapshot->n_nodes;
  g_autofree int64_t *most = g_new0 (int64_t, n_nodes + 1);
  if (!packing->options->totals_only)
    *placed = g_new0 (int64_t, n_nodes + 1);
  int64_t total = spread_most (packing, states, n, packing->options->replicas, most, *placed);
  for (guint i = 0; i < n_nodes; i++)
    {
      FsNodeFit *fit = &packing->nodes[i];
      fit->capacity = most[i];
      if (most[i] < packing->room[i])
        {
          memset (&fit->limit, 0, sizeof fit->limit);
          fit->limit.filter = FS_FILTER_POD_TOPOLOGY_SPREAD;
          fit->limit.detail = FS_DETAIL_SPREAD;
        }
    }
  return total;
}

const char *
fs_pack_limit_name (FsPackLimit limit)
{
  switch (limit)
    {
    case FS_PACK_LIMIT_ANTI_AFFINITY:
      return "pod anti-affinity";
    case FS_PACK_LIMIT_AFFINITY:
      return "pod affinity";
    case FS_PACK_LIMIT_TOPOLOGY_SPREAD:
      return "topology spread";
    case FS_PACK_LIMIT_HOST_PORTS:
      return "host ports (NodePorts)";
    case FS_PACK_LIMIT_VOLUMES:
      return "volumes";
    case FS_PACK_LIMIT_NODE_FILTERS:
      return "node filters";
    case FS_PACK_LIMIT_NO_NODES:
      return "no nodes";
    case FS_PACK_LIMIT_RESOURCES:
    default:
      return "resources";
    }
}

void
fs_pack (const FsSnapshot *snapshot, const FsPodShape *pod, const FsPackOptions *options,
         FsNodeFit *nodes, FsPackResult *result)
{
  Packing packing = { snapshot, pod, options, nodes };
  memset (result, 0, sizeof *result);
  gboolean held_by_volumes = FALSE;
  gboolean held_by_ports = base_verdicts (&packing, &held_by_volumes);
  result->limited_by = held_by_ports     ? FS_PACK_LIMIT_HOST_PORTS
                       : held_by_volumes ? FS_PACK_LIMIT_VOLUMES
                                         : FS_PACK_LIMIT_RESOURCES;
  /* a node the skew rejects now may take replicas once other domains caught up */
  g_autofree int64_t *room = g_new (int64_t, snapshot->n_nodes + 1);
  for (guint i = 0; i < snapshot->n_nodes; i++)
    room[i] = nodes[i].capacity;
  packing.room = room;
  /* PodTopologySpread comes before InterPodAffinity in the default profile */
  guint n_states = 0, n_self = 0;
  g_autofree SpreadState *states = spread_states_init (&packing, &n_states, &n_self);
  apply_anti_affinity (&packing);
  const char *co_locate_key = apply_affinity (&packing);

  int64_t total = 0;
  const char *self_key = fs_pack_self_anti_affinity_key (snapshot, pod);
  if (self_key != NULL)
    {
      total = one_per_domain (&packing, self_key);
      result->limited_by = FS_PACK_LIMIT_ANTI_AFFINITY;
    }
  else if (co_locate_key != NULL)
    {
      total = best_single_domain (&packing, co_locate_key);
      result->limited_by = FS_PACK_LIMIT_AFFINITY;
    }
  else
    for (guint i = 0; i < snapshot->n_nodes; i++)
      total += room[i];
  g_autofree int64_t *placed = NULL;
  if (n_self > 0)
    {
      int64_t spread_total = spread_capacities (&packing, states, n_self, &placed);
      if (spread_total < total)
        result->limited_by = FS_PACK_LIMIT_TOPOLOGY_SPREAD;
      total = spread_total;
    }
  else
    for (guint i = 0; i < snapshot->n_nodes; i++)
      nodes[i].capacity = nodes[i].verdict.filter == FS_FILTER_PASS ? room[i] : 0;
  for (guint k = 0; k < n_states; k++)
    spread_state_clear (&states[k]);

  gboolean short_of_room = FALSE;
  for (guint i = 0; i < snapshot->n_nodes; i++)
    {
      result->nodes_passing += nodes[i].verdict.filter == FS_FILTER_PASS;
      short_of_room = short_of_room || nodes[i].verdict.filter == FS_FILTER_NODE_RESOURCES_FIT;
    }
  /* every node rejects one replica for something other than room (taints, affinity, ...):
   * not resources */
  if (result->limited_by == FS_PACK_LIMIT_RESOURCES && result->nodes_passing == 0 && !short_of_room)
    result->limited_by = snapshot->n_nodes == 0 ? FS_PACK_LIMIT_NO_NODES : FS_PACK_LIMIT_NODE_FILTERS;
  result->capacity = total;
  int64_t wanted = options->replicas < 0 ? total : MIN (options->replicas, total);
  result->placed = wanted;
  result->pending = options->replicas < 0 ? 0 : options->replicas - wanted;
  if (options->totals_only)
    return;
  if (placed != NULL)
    for (guint i = 0; i < snapshot->n_nodes; i++)
      nodes[i].placed = placed[i];
  else
    distribute (nodes, snapshot->n_nodes, wanted);
}

/* ---- new nodes (cluster-autoscaler estimator) ----------------------------------------- */

static char *
node_shape_name (const FsNode *node)
{
  const char *type = fs_labels_get (node->labels, "node.kubernetes.io/instance-type");
  if (type == NULL)
    type = fs_labels_get (node->labels, "beta.kubernetes.io/instance-type");
  if (type != NULL)
    return g_strdup (type);
  /* exact quantities as kubectl prints them ("cpu=4,memory=16287804Ki,pods=110"): the name
   * also groups the nodes of one shape, so it must not round */
  char cpu[32], memory[32];
  return g_strdup_printf ("cpu=%s,memory=%s,pods=%" G_GINT64_FORMAT, fs_format_amount ("cpu", node->allocatable.cpu_milli, cpu),
                          fs_format_amount ("memory", node->allocatable.memory_bytes, memory), node->allocatable.pods);
}

/* k8s.io/api core/v1 well_known_labels.go LabelTopologyZone, then its deprecated beta form. */
static const char *
node_zone (const FsNode *node)
{
  const char *zone = fs_labels_get (node->labels, "topology.kubernetes.io/zone");
  return zone != NULL ? zone : fs_labels_get (node->labels, "failure-domain.beta.kubernetes.io/zone");
}

/* The labels the managed node groups of the clouds and provisioners put on their nodes. */
static const char *const pool_label_keys[] = {
  "eks.amazonaws.com/nodegroup", "alpha.eksctl.io/nodegroup-name", "karpenter.sh/nodepool",
  "cloud.google.com/gke-nodepool", "kubernetes.azure.com/agentpool", "agentpool",
  "doks.digitalocean.com/node-pool", "worker.gardener.cloud/pool",
};

static const char *
node_pool (const FsNode *node, const char **key)
{
  for (gsize i = 0; i < G_N_ELEMENTS (pool_label_keys); i++)
    {
      const char *value = fs_labels_get (node->labels, pool_label_keys[i]);
      if (value != NULL)
        {
          *key = pool_label_keys[i];
          return value;
        }
    }
  *key = NULL;
  return NULL;
}

static gboolean
is_daemon_pod (const FsPod *pod)
{
  return pod->owner != NULL && g_strcmp0 (pod->owner->kind, "DaemonSet") == 0;
}

/* One group of existing nodes (shape, pool, zone) and the new node copied from its first. */
typedef struct {
  guint estimate;             /* index of its shape's estimate in the output */
  guint example_index;        /* the node copied */
  const char *zone;
  const char *pool;
  const char *pool_key;
  FsNode fresh;               /* the new node: labels with a hostname of its own, no state */
  FsTaintList *taints;        /* owned: the example's less node-state and cordon taints */
  FsUsedPortList *ports;      /* owned: the host ports its DaemonSet pods hold, or NULL */
  FsLabelSet *trial_labels;   /* owned: labels of a node tried, not kept */
  FsVerdict verdict;          /* one replica on the new node */
  int64_t per_node;           /* replicas it takes by its own filters */
  int64_t added;              /* new nodes of this template kept so far */
  gboolean shadowed;          /* an earlier template of the shape has its zone and per_node:
                               * the packing cannot tell their nodes apart, so only it is tried */
  gboolean borrowed;          /* TAINTS and PORTS are an FsNodeGroups' */
} Template;

static void
template_clear (gpointer data)
{
  Template *template = data;
  if (!template->borrowed)
    {
      g_free (template->taints);
      g_free (template->ports);
    }
  g_free (template->trial_labels);
}

/* LABELS with the hostname's value replaced by HOSTNAME (a string of the caller's, so that
 * the new node is a topology domain of its own). */
static FsLabelSet *
labels_with_hostname (const FsLabelSet *labels, const char *hostname)
{
  guint n = labels != NULL ? labels->n : 0;
  FsLabelSet *copy = g_malloc (sizeof (FsLabelSet) + (n + 1) * sizeof (FsLabel));
  copy->n = n;
  for (guint i = 0; i < n; i++)
    {
      copy->items[i] = labels->items[i];
      if (strcmp (labels->items[i].key, FS_LABEL_HOSTNAME) == 0)
        copy->items[i].value = hostname;
    }
  return copy;
}

/* What a new node copied from node EXAMPLE_INDEX carries before any replica: the taints of
 * its pool (a new node is Ready and schedulable, whatever the example's state) and its
 * DaemonSet pods' host ports; their requests are added by collect_templates (daemon_loads). */
static void
template_init (const FsSnapshot *snapshot, guint example_index, Template *template)
{
  const FsNode *example = &snapshot->nodes[example_index];
  FsNode *fresh = &template->fresh;
  *fresh = *example;
  fresh->flags = FS_NODE_READY | FS_NODE_READY_KNOWN;
  /* no pod of the example holds a volume on a new node, and a new node's name is its own (a
   * volume pinned to the example by name, VolumeBinding's GetEligibleNodes, is not on it) */
  fresh->volume_pods = NULL;
  memset (&fresh->requested, 0, sizeof fresh->requested);
  fresh->pod_count = 0;
  guint n_taints = example->taints != NULL ? example->taints->n : 0;
  template->taints = g_malloc0 (sizeof (FsTaintList) + (n_taints + 1) * sizeof (FsTaint));
  for (guint t = 0; t < n_taints; t++)
    if (!fs_taint_is_cordon (&example->taints->items[t]) && !fs_taint_is_node_state (&example->taints->items[t]))
      template->taints->items[template->taints->n++] = example->taints->items[t];
  fresh->taints = template->taints;
  guint n_ports = example->used_ports != NULL ? example->used_ports->n : 0;
  fresh->used_ports = NULL;
  for (guint u = 0; u < n_ports; u++)
    if (is_daemon_pod (example->used_ports->items[u].pod))
      {
        if (template->ports == NULL)
          template->ports = g_malloc0 (sizeof (FsUsedPortList) + n_ports * sizeof (FsUsedPort));
        template->ports->items[template->ports->n++] = example->used_ports->items[u];
      }
  fresh->used_ports = template->ports;
}

/* Adds to each template's new node the requests of its example's DaemonSet pods
 * (cluster-autoscaler adds them to node templates): one pass over the pods for all of them. */
static void
daemon_loads (const FsSnapshot *snapshot, GArray *templates)
{
  g_autofree gint *template_of = g_new (gint, snapshot->n_nodes + 1);
  for (guint i = 0; i < snapshot->n_nodes; i++)
    template_of[i] = -1;
  for (guint t = 0; t < templates->len; t++)
    template_of[g_array_index (templates, Template, t).example_index] = (gint) t;
  for (guint p = 0; p < snapshot->n_pods; p++)
    {
      const FsPod *other = &snapshot->pods[p];
      if (other->node_index < 0 || template_of[other->node_index] < 0 || !fs_pod_counts_on_node (other)
          || !is_daemon_pod (other))
        continue;
      FsNode *fresh = &g_array_index (templates, Template, template_of[other->node_index]).fresh;
      fs_resources_add (&fresh->requested, fs_pod_request (other), NULL);
      fresh->pod_count++;
    }
}

/* One replica of POD on TEMPLATE's new node: its verdict, and how many it takes. */
static void
template_fit (const FsSnapshot *snapshot, const FsPodShape *pod, Template *template)
{
  const FsNode *example = &snapshot->nodes[template->example_index];
  FsNode *fresh = &template->fresh;
  guint n_taints = example->taints != NULL ? example->taints->n : 0;
  FsNodeLoad load = fs_node_load (fresh);
  if (fs_fit_node (fresh, &load, pod, &template->verdict))
    template->per_node = fs_resources_capacity_profile (&fresh->allocatable, &load, &pod->spec->request,
                                                        pod->profile);
  /* the verdict outlives the template: name the example's own taint (the same position
   * among the taints kept) */
  for (guint t = 0, kept = 0; template->verdict.taint != NULL && t < n_taints; t++)
    if (!fs_taint_is_cordon (&example->taints->items[t]) && !fs_taint_is_node_state (&example->taints->items[t])
        && template->verdict.taint == &template->taints->items[kept++])
      {
        template->verdict.taint = &example->taints->items[t];
        break;
      }
  /* NodePorts: a replica's host ports keep the next one off its node */
  if (pod->spec->host_ports != NULL)
    template->per_node = MIN (template->per_node, 1);
  const FsPodAffinityTermList *anti = pod->spec->placement->pod_anti_affinity;
  for (guint t = 0; anti != NULL && t < anti->n; t++)
    if (fs_selector_matches (anti->items[t].label_selector, pod->labels))
      template->per_node = MIN (template->per_node, 1);
}

/* The existing nodes plus the new ones: a snapshot that shares everything with the real one
 * but its node array (new nodes hold no pod, so the pods' node indices stay right). */
typedef struct {
  const FsSnapshot *snapshot;
  const FsPodShape *pod;
  FsPackOptions options;      /* the caller's, with loads covering the new nodes */
  FsSnapshot grown;
  GArray *nodes;              /* FsNode: the snapshot's, then the new ones */
  GArray *loads;              /* FsNodeLoad like nodes, when the caller gave loads */
  GArray *origin;             /* per new node: its template's index */
  GPtrArray *owned;           /* the new nodes' label sets and names */
  FsNodeFit *fits;
  GArray *templates;          /* Template */
} Growth;

static void
growth_reset (Growth *growth)
{
  g_array_set_size (growth->nodes, growth->snapshot->n_nodes);
  g_array_set_size (growth->origin, 0);
  if (growth->loads != NULL)
    g_array_set_size (growth->loads, growth->snapshot->n_nodes);
  for (guint t = 0; t < growth->templates->len; t++)
    g_array_index (growth->templates, Template, t).added = 0;
}

static void
growth_push (Growth *growth, const FsNode *node, guint template_index)
{
  g_array_append_val (growth->nodes, *node);
  g_array_append_val (growth->origin, template_index);
  if (growth->loads != NULL)
    {
      FsNodeLoad load = fs_node_load (node);
      g_array_append_val (growth->loads, load);
    }
}

static void
growth_pop (Growth *growth)
{
  g_array_set_size (growth->nodes, growth->nodes->len - 1);
  g_array_set_size (growth->origin, growth->origin->len - 1);
  if (growth->loads != NULL)
    g_array_set_size (growth->loads, growth->loads->len - 1);
}

/* Packs the replicas onto the existing and new nodes; returns how many land. */
static int64_t
growth_pack (Growth *growth, FsPackResult *result)
{
  growth->grown.nodes = (const FsNode *) growth->nodes->data;
  growth->grown.n_nodes = growth->nodes->len;
  if (growth->loads != NULL)
    growth->options.loads = (const FsNodeLoad *) growth->loads->data;
  fs_pack (&growth->grown, growth->pod, &growth->options, growth->fits, result);
  return result->placed;
}

/* Keeps one more new node of template T (a hostname and name of its own). */
static void
growth_keep (Growth *growth, guint t)
{
  Template *template = &g_array_index (growth->templates, Template, t);
  char *name = g_strdup_printf ("new-%s-%" G_GINT64_FORMAT, growth->snapshot->nodes[template->example_index].name,
                                ++template->added);
  FsLabelSet *labels = labels_with_hostname (template->fresh.labels, name);
  g_ptr_array_add (growth->owned, name);
  g_ptr_array_add (growth->owned, labels);
  FsNode node = template->fresh;
  node.name = name;
  node.labels = labels;
  growth_push (growth, &node, t);
}

/* Tries one new node of template T; returns how many replicas then land. */
static int64_t
growth_try (Growth *growth, guint t, int64_t *capacity)
{
  Template *template = &g_array_index (growth->templates, Template, t);
  FsNode node = template->fresh;
  node.name = "new-node-tried";
  node.labels = template->trial_labels;
  growth_push (growth, &node, t);
  FsPackResult result;
  growth->options.totals_only = TRUE;
  int64_t placed = growth_pack (growth, &result);
  growth->options.totals_only = FALSE;
  growth_pop (growth);
  *capacity = result.capacity;
  return placed;
}

/* How many new nodes of ZONE are kept so far (over every template of ESTIMATE). */
static int64_t
zone_added (const Growth *growth, guint estimate, const char *zone)
{
  int64_t added = 0;
  for (guint t = 0; t < growth->templates->len; t++)
    {
      const Template *template = &g_array_index (growth->templates, Template, t);
      if (template->estimate == estimate && g_strcmp0 (template->zone, zone) == 0)
        added += template->added;
    }
  return added;
}

/* Takes back the last new node kept. */
static void
growth_unkeep (Growth *growth)
{
  guint t = g_array_index (growth->origin, guint, growth->origin->len - 1);
  g_array_index (growth->templates, Template, t).added--;
  growth_pop (growth);
}

static gboolean
template_usable (const Template *template, guint estimate)
{
  return template->estimate == estimate && template->per_node > 0 && !template->shadowed;
}

/* The distinct zones of ESTIMATE's usable templates. */
static guint
usable_zones (const Growth *growth, guint estimate)
{
  g_autoptr (GHashTable) zones = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint t = 0; t < growth->templates->len; t++)
    {
      const Template *template = &g_array_index (growth->templates, Template, t);
      if (template_usable (template, estimate))
        g_hash_table_add (zones, (gpointer) (template->zone != NULL ? template->zone : ""));
    }
  return g_hash_table_size (zones);
}

/* Whether the last R new nodes lie in R different zones (or R is 1). */
static gboolean
last_picks_are_a_round (const Growth *growth, guint r)
{
  guint n = growth->origin->len;
  if (n < r)
    return FALSE;
  for (guint i = n - r; i < n; i++)
    for (guint j = i + 1; j < n; j++)
      {
        const Template *a = &g_array_index (growth->templates, Template, g_array_index (growth->origin, guint, i));
        const Template *b = &g_array_index (growth->templates, Template, g_array_index (growth->origin, guint, j));
        if (g_strcmp0 (a->zone, b->zone) == 0)
          return FALSE;
      }
  return TRUE;
}

/* Repeats the last R new nodes (a round) K = 1, 2, 4, ... times while each repetition lets
 * GAIN more replicas land, as the last round did: the greedy choice would have made the same
 * picks, so they need not be tried one by one.  HISTORY holds the replicas landed after
 * each new node.  Returns the replicas that land. */
static int64_t
gallop (Growth *growth, guint r, int64_t gain, int64_t placed, GArray *history)
{
  int64_t wanted = growth->options.replicas;
  for (int64_t k = 1;; k *= 2)
    {
      k = MIN (k, (wanted - placed) / gain);
      k = MIN (k, (int64_t) (FS_ESTIMATE_MAX_NEW_NODES - growth->origin->len) / r);
      if (k < 1)
        return placed;
      guint first = growth->origin->len - r;
      for (int64_t round = 0; round < k; round++)
        for (guint i = 0; i < r; i++)
          {
            growth_keep (growth, g_array_index (growth->origin, guint, first + i));
            int64_t reached = placed + (round + 1) * gain;
            g_array_append_val (history, reached);
          }
      FsPackResult result;
      growth->options.totals_only = TRUE;
      int64_t landed = growth_pack (growth, &result);
      growth->options.totals_only = FALSE;
      if (landed != placed + k * gain)
        {
          for (int64_t n = 0; n < k * (int64_t) r; n++)
            growth_unkeep (growth);
          g_array_set_size (history, growth->origin->len);
          return placed;
        }
      placed = landed;
    }
}

/* Adds, one at a time, the new node of ESTIMATE's templates that lets the most replicas
 * land (ties: the zone with the fewest new nodes, then the first template), until all
 * land, none helps, or FS_ESTIMATE_MAX_NEW_NODES; a pick (or a round of picks over the
 * zones) whose gain repeats is repeated without trying every template again.  Returns the
 * replicas that land. */
static int64_t
grow_greedy (Growth *growth, guint estimate, int64_t placed)
{
  int64_t wanted = growth->options.replicas;
  guint zones = usable_zones (growth, estimate);
  g_autoptr (GArray) history = g_array_new (FALSE, FALSE, sizeof (int64_t));
  g_autoptr (GArray) landed_by = g_array_new (FALSE, FALSE, sizeof (int64_t)); /* per template */
  int64_t start = placed;
  while (placed < wanted && growth->origin->len < FS_ESTIMATE_MAX_NEW_NODES)
    {
      int64_t best_placed = placed, best_capacity = -1, best_zone_added = 0;
      gint best = -1;
      g_array_set_size (landed_by, growth->templates->len);
      for (guint t = 0; t < growth->templates->len; t++)
        {
          const Template *template = &g_array_index (growth->templates, Template, t);
          g_array_index (landed_by, int64_t, t) = -1;
          if (!template_usable (template, estimate))
            continue;
          int64_t capacity;
          int64_t landed = growth_try (growth, t, &capacity);
          g_array_index (landed_by, int64_t, t) = landed;
          int64_t in_zone = zone_added (growth, estimate, template->zone);
          if (landed > best_placed
              || (best >= 0 && landed == best_placed
                  && (capacity > best_capacity || (capacity == best_capacity && in_zone < best_zone_added))))
            best = t, best_placed = landed, best_capacity = capacity, best_zone_added = in_zone;
        }
      if (best < 0)
        break;
      /* a pick that ties with another zone's is not repeated alone: the next pick balances */
      gboolean tied = FALSE;
      const char *best_zone = g_array_index (growth->templates, Template, best).zone;
      for (guint t = 0; t < growth->templates->len; t++)
        tied = tied || (g_array_index (landed_by, int64_t, t) == best_placed
                        && g_strcmp0 (g_array_index (growth->templates, Template, t).zone, best_zone) != 0);
      growth_keep (growth, best);
      placed = best_placed;
      g_array_append_val (history, placed);
      guint rounds[2] = { zones, 1 };
      for (guint i = zones > 1 ? 0 : 1; i < 2; i++)
        {
          guint r = rounds[i];
          if ((r == 1 && tied) || !last_picks_are_a_round (growth, r))
            continue;
          guint n = growth->origin->len;
          int64_t before = n > r ? g_array_index (history, int64_t, n - r - 1) : start;
          if (placed - before <= 0)
            continue;
          int64_t galloped = gallop (growth, r, placed - before, placed, history);
          if (galloped > placed)
            {
              placed = galloped;
              break;
            }
        }
    }
  return placed;
}

/* Replicas that need no other pod's rule: new nodes are independent, so the count is
 * rounded up from what one takes, spread round-robin over the zones of the first pool whose
 * node takes the most (as a node group balanced over its zones grows). */
static void
grow_independent (Growth *growth, guint estimate, int64_t placed)
{
  const Template *best = NULL;
  for (guint t = 0; t < growth->templates->len; t++)
    {
      const Template *template = &g_array_index (growth->templates, Template, t);
      if (template->estimate == estimate && template->per_node > 0
          && (best == NULL || template->per_node > best->per_node))
        best = template;
    }
  int64_t left = growth->options.replicas - placed;
  int64_t count = (left + best->per_node - 1) / best->per_node;
  const char *pool = best->pool;
  int64_t per_node = best->per_node;
  for (int64_t k = 0; k < count && k < FS_ESTIMATE_MAX_NEW_NODES;)
    for (guint t = 0; t < growth->templates->len && k < count; t++)
      {
        const Template *template = &g_array_index (growth->templates, Template, t);
        if (template->estimate == estimate && template->per_node == per_node
            && g_strcmp0 (template->pool, pool) == 0)
          {
            growth_keep (growth, t);
            k++;
          }
      }
}

/* The kept new nodes as additions, from the packing that places the replicas on them. */
static void
collect_additions (Growth *growth, guint estimate_index, FsNodeShapeEstimate *estimate)
{
  guint first_new = growth->snapshot->n_nodes;
  g_autoptr (GHashTable) by_template = g_hash_table_new (NULL, NULL); /* template -> index + 1 */
  for (guint k = 0; k < growth->origin->len; k++)
    {
      guint t = g_array_index (growth->origin, guint, k);
      const Template *template = &g_array_index (growth->templates, Template, t);
      gpointer slot = g_hash_table_lookup (by_template, GUINT_TO_POINTER (t + 1));
      if (slot == NULL)
        {
          FsNodeAddition addition = { .example = &growth->snapshot->nodes[template->example_index],
                                      .zone = template->zone, .pool = template->pool,
                                      .pool_key = template->pool_key };
          g_array_append_val (estimate->additions, addition);
          slot = GUINT_TO_POINTER (estimate->additions->len);
          g_hash_table_insert (by_template, GUINT_TO_POINTER (t + 1), slot);
        }
      FsNodeAddition *addition = &g_array_index (estimate->additions, FsNodeAddition, GPOINTER_TO_UINT (slot) - 1);
      int64_t placed = growth->fits[first_new + k].placed;
      addition->count++;
      addition->replicas += placed;
      addition->replicas_per_node = MAX (addition->replicas_per_node, placed);
    }
  /* uneven: not the counts a node group balanced over the shape's zones would add (the
   * zones in node order, the first ones one more when they do not divide evenly) */
  g_autoptr (GPtrArray) zones = g_ptr_array_new ();
  for (guint t = 0; t < growth->templates->len; t++)
    {
      const Template *template = &g_array_index (growth->templates, Template, t);
      if (template->estimate == estimate_index && template->zone != NULL && template->per_node > 0
          && !g_ptr_array_find_with_equal_func (zones, template->zone, g_str_equal, NULL))
        g_ptr_array_add (zones, (gpointer) template->zone);
    }
  int64_t total = growth->origin->len;
  for (guint z = 0; zones->len > 1 && z < zones->len; z++)
    {
      int64_t balanced = total / zones->len + ((int64_t) z < total % (int64_t) zones->len);
      if (zone_added (growth, estimate_index, zones->pdata[z]) != balanced)
        estimate->uneven = TRUE;
    }
}

static void
clear_estimate (gpointer data)
{
  FsNodeShapeEstimate *estimate = data;
  g_free (estimate->shape);
  if (estimate->additions != NULL)
    g_array_unref (estimate->additions);
}

GArray *
fs_node_shape_estimates_new (void)
{
  GArray *estimates = g_array_new (FALSE, TRUE, sizeof (FsNodeShapeEstimate));
  g_array_set_clear_func (estimates, clear_estimate);
  return estimates;
}

static gint
compare_estimates (gconstpointer a, gconstpointer b, gpointer unused)
{
  return strcmp (((const FsNodeShapeEstimate *) a)->shape, ((const FsNodeShapeEstimate *) b)->shape);
}

/* The node groups of a snapshot: one per shape, pool and zone, in node order, with the new
 * node copied from its first (what does not depend on the pod), and the shapes. */
struct FsNodeGroups {
  GArray *shapes;             /* FsNodeShapeEstimate: shape, example and existing only */
  GArray *templates;          /* Template: estimate, example, zone, pool, fresh, taints, ports */
};

FsNodeGroups *
fs_node_groups_new (const FsSnapshot *snapshot)
{
  FsNodeGroups *groups_out = g_new0 (FsNodeGroups, 1);
  groups_out->shapes = fs_node_shape_estimates_new ();
  groups_out->templates = g_array_new (FALSE, TRUE, sizeof (Template));
  g_array_set_clear_func (groups_out->templates, template_clear);
  GArray *out = groups_out->shapes;
  g_autoptr (GHashTable) shapes = g_hash_table_new (g_str_hash, g_str_equal);    /* shape -> i + 1 */
  g_autoptr (GHashTable) groups = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < snapshot->n_nodes; i++)
    {
      const FsNode *node = &snapshot->nodes[i];
      g_autofree char *name = node_shape_name (node);
      gpointer slot = g_hash_table_lookup (shapes, name);
      if (slot == NULL)
        {
          FsNodeShapeEstimate estimate = { .example = node };
          estimate.shape = g_strdup (name);
          g_array_append_val (out, estimate);
          slot = GUINT_TO_POINTER (out->len);
          g_hash_table_insert (shapes, estimate.shape, slot);
        }
      guint e = GPOINTER_TO_UINT (slot) - 1;
      g_array_index (out, FsNodeShapeEstimate, e).existing++;
      const char *pool_key;
      const char *pool = node_pool (node, &pool_key);
      const char *zone = node_zone (node);
      char *group = g_strdup_printf ("%s\x1f%s\x1f%s", name, pool != NULL ? pool : "", zone != NULL ? zone : "");
      if (!g_hash_table_add (groups, group))
        continue;
      Template template = { .estimate = e, .example_index = i, .zone = zone, .pool = pool,
                            .pool_key = pool_key };
      template_init (snapshot, i, &template);
      g_array_append_val (groups_out->templates, template);
    }
  daemon_loads (snapshot, groups_out->templates);
  return groups_out;
}

void
fs_node_groups_free (FsNodeGroups *groups)
{
  if (groups == NULL)
    return;
  g_array_unref (groups->shapes);
  g_array_unref (groups->templates);
  g_free (groups);
}

/* One estimate per shape and one template per shape, pool and zone, in node order, from
 * GROUPS (made here when NULL). */
static void
collect_templates (Growth *growth, const FsNodeGroups *given, GArray *out, guint first)
{
  const FsSnapshot *snapshot = growth->snapshot;
  g_autoptr (FsNodeGroups) made = given == NULL ? fs_node_groups_new (snapshot) : NULL;
  /* taints and ports point into a template's own lists: borrowed from GIVEN, taken from MADE */
  FsNodeGroups *groups = given != NULL ? (FsNodeGroups *) given : made;
  for (guint e = 0; e < groups->shapes->len; e++)
    {
      const FsNodeShapeEstimate *shape = &g_array_index (groups->shapes, FsNodeShapeEstimate, e);
      FsNodeShapeEstimate estimate = { .example = shape->example, .existing = shape->existing,
                                       .shape = g_strdup (shape->shape),
                                       .additions = g_array_new (FALSE, TRUE, sizeof (FsNodeAddition)) };
      g_array_append_val (out, estimate);
    }
  for (guint t = 0; t < groups->templates->len; t++)
    {
      Template *group = &g_array_index (groups->templates, Template, t);
      Template template = *group;
      template.trial_labels = NULL;
      template.borrowed = made == NULL;
      if (made != NULL)
        group->taints = NULL, group->ports = NULL; /* the growth's now: MADE goes at the end */
      g_array_append_val (growth->templates, template);
    }
  for (guint t = 0; t < growth->templates->len; t++)
    {
      Template *template = &g_array_index (growth->templates, Template, t);
      template_fit (snapshot, growth->pod, template);
      for (guint u = 0; u < t && template->per_node > 0; u++)
        {
          const Template *earlier = &g_array_index (growth->templates, Template, u);
          template->shadowed = template->shadowed
                               || (earlier->estimate == template->estimate && earlier->per_node == template->per_node
                                   && g_strcmp0 (earlier->zone, template->zone) == 0);
        }
      template->trial_labels = labels_with_hostname (template->fresh.labels, "new-node-tried");
    }
}

/* The shape's verdict and per_node: of its first template that takes a replica. */
static gboolean
estimate_verdict (const Growth *growth, guint e, FsNodeShapeEstimate *estimate)
{
  gboolean any = FALSE, have_verdict = FALSE;
  for (guint t = 0; t < growth->templates->len; t++)
    {
      const Template *template = &g_array_index (growth->templates, Template, t);
      if (template->estimate != e)
        continue;
      if (!any && (template->per_node > 0 || !have_verdict))
        estimate->verdict = template->verdict, have_verdict = TRUE;
      if (template->per_node > estimate->per_node)
        estimate->per_node = template->per_node;
      any = any || template->per_node > 0;
    }
  return any;
}

void
fs_estimate_new_nodes (const FsSnapshot *snapshot, const FsPodShape *pod,
                       const FsPackOptions *options, GArray *out)
{
  fs_estimate_new_nodes_grouped (snapshot, NULL, pod, options, out);
}

void
fs_estimate_new_nodes_grouped (const FsSnapshot *snapshot, const FsNodeGroups *groups, const FsPodShape *pod,
                               const FsPackOptions *options, GArray *out)
{
  if (options->replicas <= 0)
    return;
  Growth growth = { .snapshot = snapshot, .pod = pod, .options = *options, .grown = *snapshot };
  growth.nodes = g_array_sized_new (FALSE, FALSE, sizeof (FsNode), snapshot->n_nodes + FS_ESTIMATE_MAX_NEW_NODES + 1);
  g_array_append_vals (growth.nodes, snapshot->nodes, snapshot->n_nodes);
  growth.origin = g_array_new (FALSE, FALSE, sizeof (guint));
  if (options->loads != NULL)
    {
      growth.loads = g_array_new (FALSE, FALSE, sizeof (FsNodeLoad));
      g_array_append_vals (growth.loads, options->loads, snapshot->n_nodes);
    }
  growth.owned = g_ptr_array_new_with_free_func (g_free);
  growth.fits = g_new0 (FsNodeFit, snapshot->n_nodes + FS_ESTIMATE_MAX_NEW_NODES + 2);
  growth.templates = g_array_new (FALSE, TRUE, sizeof (Template));
  g_array_set_clear_func (growth.templates, template_clear);

  FsPackResult result;
  int64_t placed_now = growth_pack (&growth, &result);
  guint first = out->len;
  if (placed_now < options->replicas)
    collect_templates (&growth, groups, out, first);
  gboolean independent = !fs_pack_needs_pods (snapshot, pod);
  for (guint e = 0; first + e < out->len; e++)
    {
      FsNodeShapeEstimate *estimate = &g_array_index (out, FsNodeShapeEstimate, first + e);
      growth_reset (&growth);
      int64_t placed = placed_now;
      if (estimate_verdict (&growth, e, estimate))
        {
          if (independent)
            grow_independent (&growth, e, placed);
          else
            grow_greedy (&growth, e, placed);
          placed = growth_pack (&growth, &result);
          collect_additions (&growth, e, estimate);
        }
      estimate->complete = placed >= options->replicas;
      estimate->nodes_needed = estimate->complete ? growth.origin->len : 0;
      estimate->unplaced = options->replicas - placed;
    }
  g_qsort_with_data (out->data + (gsize) first * sizeof (FsNodeShapeEstimate), out->len - first,
                     sizeof (FsNodeShapeEstimate), (GCompareDataFunc) compare_estimates, NULL);
  g_array_unref (growth.templates);
  g_free (growth.fits);
  g_ptr_array_unref (growth.owned);
  if (growth.loads != NULL)
    g_array_unref (growth.loads);
  g_array_unref (growth.origin);
  g_array_unref (growth.nodes);
}
