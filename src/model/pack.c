/* fitscale — placing identical replicas (see include/fitscale/pack.h). */
#include "config.h"

#include <string.h>

#include "fitscale/model/names.h"
#include "fitscale/model/pack.h"

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
  int64_t count = MAX (allocatable->pods - load->pod_count, 0);
  Amount amounts[3 + FS_RES_MAX_EXTENDED];
  guint n = 0;
  amounts[n++] = (Amount){ pod_request->cpu_milli,
                           allocatable->cpu_milli - load->requested.cpu_milli };
  amounts[n++] = (Amount){ pod_request->memory_bytes,
                           allocatable->memory_bytes - load->requested.memory_bytes };
  amounts[n++] = (Amount){ pod_request->ephemeral_bytes,
                           allocatable->ephemeral_bytes - load->requested.ephemeral_bytes };
  for (guint i = 0; i < pod_request->n_extended; i++)
    {
      const FsExtendedAmount *want = &pod_request->extended[i];
      amounts[n++] = (Amount){ want->value, fs_resources_get (allocatable, want->name)
                                                - fs_resources_get (&load->requested, want->name) };
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
  int64_t *room;       /* per node: replicas by the node's own filters, before spread */
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

/* InterPodAffinity (interpodaffinity/filtering.go satisfyPodAntiAffinity and
 * satisfyExistingPodsAntiAffinity): nodes in a domain holding a pod that the incoming
 * pod's anti-affinity selects, or whose own anti-affinity selects the incoming pod. */
static void
apply_anti_affinity (const Packing *packing)
{
  const FsSnapshot *snapshot = packing->snapshot;
  const FsPodShape *pod = packing->pod;
  const FsPodAffinityTermList *terms = pod->spec->placement->pod_anti_affinity;
  if (terms == NULL && snapshot->n_pods_with_anti_affinity == 0)
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
      if (packing->nodes[i].verdict.filter != FS_FILTER_PASS)
        continue;
      if (domain_set_holds (own, &snapshot->nodes[i]))
        reject (&packing->nodes[i], FS_FILTER_INTER_POD_AFFINITY, FS_DETAIL_ANTI_AFFINITY, FALSE);
      else if (domain_set_holds (existing, &snapshot->nodes[i]))
        reject (&packing->nodes[i], FS_FILTER_INTER_POD_AFFINITY,
                FS_DETAIL_EXISTING_ANTI_AFFINITY, FALSE);
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
  const FsPodAffinityTermList *terms = pod->spec->placement->pod_affinity;
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
          if (!ok && packing->nodes[i].verdict.filter == FS_FILTER_PASS)
            reject (&packing->nodes[i], FS_FILTER_INTER_POD_AFFINITY, FS_DETAIL_AFFINITY, TRUE);
        }
    }
  return co_locate_key;
}

/* Capacity when every replica must share one domain of KEY: the roomiest domain. */
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
      if (domain == NULL || packing->nodes[i].capacity == 0)
        continue;
      int64_t sum = GPOINTER_TO_SIZE (g_hash_table_lookup (totals, domain))
                    + packing->nodes[i].capacity;
      g_hash_table_insert (totals, (gpointer) domain, GSIZE_TO_POINTER (sum));
      if (sum > best)
        best = sum, best_domain = domain;
    }
  for (guint i = 0; i < snapshot->n_nodes; i++)
    if (fs_labels_get (snapshot->nodes[i].labels, key) != best_domain)
      packing->nodes[i].capacity = 0;
  return best;
}

const char *
fs_pack_self_anti_affinity_key (const FsSnapshot *snapshot, const FsPodShape *pod)
{
  const FsPodAffinityTermList *terms = pod->spec->placement->pod_anti_affinity;
  for (guint t = 0; terms != NULL && t < terms->n; t++)
    if (term_matches_pod (snapshot, &terms->items[t], pod->namespace, pod->namespace, pod->labels))
      return terms->items[t].topology_key;
  return NULL;
}

gboolean
fs_pack_needs_pods (const FsSnapshot *snapshot, const FsPodShape *pod)
{
  const FsPlacement *placement = pod->spec->placement;
  return placement->pod_affinity != NULL || placement->pod_anti_affinity != NULL
         || placement->spread != NULL || snapshot->n_pods_with_anti_affinity > 0
         || pod->spec->host_ports != NULL;
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

/* Capacity when each domain of KEY takes at most one replica. */
static int64_t
one_per_domain (const Packing *packing, const char *key)
{
  const FsSnapshot *snapshot = packing->snapshot;
  g_autoptr (GHashTable) domains = g_hash_table_new (NULL, NULL);
  int64_t total = 0;
  for (guint i = 0; i < snapshot->n_nodes; i++)
    {
      FsNodeFit *fit = &packing->nodes[i];
      const char *domain = fs_labels_get (snapshot->nodes[i].labels, key);
      if (fit->capacity == 0)
        continue;
      if (domain == NULL || strcmp (key, FS_LABEL_HOSTNAME) == 0)
        {
          if (domain != NULL && fit->capacity > 1)
            limit_by_anti_affinity (fit);
          fit->capacity = domain == NULL ? fit->capacity : 1;
          total += fit->capacity;
        }
      else if (g_hash_table_add (domains, (gpointer) domain))
        total += 1;
      else
        fit->capacity = 0; /* another node of the domain takes its one replica */
    }
  return total;
}

/* ---- topology spread (podtopologyspread/filtering.go) ----------------------------- */

typedef struct {
  const char *domain;
  int64_t count;     /* matching pods already there */
  int64_t capacity;  /* replicas the domain's nodes can still take */
  int64_t placed;
} SpreadDomain;

static gboolean
spread_selects (const Packing *packing, const FsSpreadConstraint *constraint,
                const FsPod *other)
{
  return g_strcmp0 (other->namespace, packing->pod->namespace) == 0
         && !(other->flags & FS_POD_TERMINATING)
         && fs_selector_matches (constraint->label_selector, other->labels);
}

typedef struct {
  GArray *domains;       /* SpreadDomain */
  int32_t *node_domain;  /* per node: index in domains, -1 when not an eligible domain */
  gboolean self_match;   /* the replicas match the constraint's own selector */
  int64_t global_min;    /* fewest matching pods over the eligible domains */
} SpreadState;

static void
spread_state_clear (SpreadState *state)
{
  g_array_unref (state->domains);
  g_free (state->node_domain);
}

/* The eligible domains of CONSTRAINT with their matching pods (podtopologyspread/filtering.go
 * calPreFilterState): domains come from nodes that pass the pod's node affinity (policy
 * Honor, the default) and, with nodeTaintsPolicy Honor, whose taints it tolerates; nodes
 * without the topology label are rejected with "(missing required label)". */
static void
spread_state_init (const Packing *packing, const FsSpreadConstraint *constraint, SpreadState *state)
{
  const FsSnapshot *snapshot = packing->snapshot;
  g_autoptr (GHashTable) index = g_hash_table_new (NULL, NULL);
  state->domains = g_array_new (FALSE, TRUE, sizeof (SpreadDomain));
  state->node_domain = g_new (int32_t, snapshot->n_nodes + 1);
  for (guint i = 0; i < snapshot->n_nodes; i++)
    {
      const FsNode *node = &snapshot->nodes[i];
      const char *domain = fs_labels_get (node->labels, constraint->topology_key);
      state->node_domain[i] = -1;
      gboolean eligible = constraint->node_affinity_policy == FS_POLICY_IGNORE
                          || fs_node_affinity_matches (node, packing->pod->spec->placement);
      if (constraint->node_taints_policy == FS_POLICY_HONOR)
        eligible = eligible && fs_first_untolerated_taint (node->taints,
                                                           packing->pod->spec->placement->tolerations) == NULL;
      if (domain == NULL)
        {
          if (packing->nodes[i].verdict.filter == FS_FILTER_PASS)
            reject (&packing->nodes[i], FS_FILTER_POD_TOPOLOGY_SPREAD,
                    FS_DETAIL_SPREAD_MISSING_LABEL, TRUE);
          continue;
        }
      if (!eligible)
        continue;
      gpointer slot = g_hash_table_lookup (index, domain);
      if (slot == NULL)
        {
          SpreadDomain fresh = { .domain = domain };
          g_array_append_val (state->domains, fresh);
          slot = GINT_TO_POINTER (state->domains->len);
          g_hash_table_insert (index, (gpointer) domain, slot);
        }
      state->node_domain[i] = GPOINTER_TO_INT (slot) - 1;
    }
  for (guint p = 0; p < snapshot->n_pods; p++)
    {
      const FsPod *other = &snapshot->pods[p];
      if (pod_counts (packing, other) && state->node_domain[other->node_index] >= 0
          && spread_selects (packing, constraint, other))
        g_array_index (state->domains, SpreadDomain, state->node_domain[other->node_index]).count++;
    }
  state->self_match = fs_selector_matches (constraint->label_selector, packing->pod->labels);
  state->global_min = G_MAXINT64;
  for (guint d = 0; d < state->domains->len; d++)
    state->global_min = MIN (state->global_min, g_array_index (state->domains, SpreadDomain, d).count);
  if (state->domains->len == 0
      || (constraint->min_domains > 0 && state->domains->len < (guint) constraint->min_domains))
    state->global_min = 0;
}

/* The filter for one more replica: count(domain) + self - min <= maxSkew
 * (podtopologyspread/filtering.go Filter). */
static void
spread_reject_skewed (const Packing *packing, const FsSpreadConstraint *constraint,
                      const SpreadState *state)
{
  for (guint i = 0; i < packing->snapshot->n_nodes; i++)
    {
      int32_t d = state->node_domain[i];
      if (d < 0 || packing->nodes[i].verdict.filter != FS_FILTER_PASS)
        continue;
      int64_t count = g_array_index (state->domains, SpreadDomain, d).count;
      if (count + state->self_match - state->global_min > constraint->max_skew)
        reject (&packing->nodes[i], FS_FILTER_POD_TOPOLOGY_SPREAD, FS_DETAIL_SPREAD, FALSE);
    }
}

/* Places replicas one at a time into the domain with the fewest matching pods, while
 * count + self - min(count over eligible domains) <= maxSkew holds, as the filter checks for
 * each replica.  Returns how many can be placed. */
static int64_t
spread_capacity (const Packing *packing, const FsSpreadConstraint *constraint, int64_t wanted)
{
  const FsSnapshot *snapshot = packing->snapshot;
  SpreadState state;
  spread_state_init (packing, constraint, &state);
  GArray *domains = state.domains;
  for (guint i = 0; i < snapshot->n_nodes; i++)
    if (state.node_domain[i] >= 0)
      g_array_index (domains, SpreadDomain, state.node_domain[i]).capacity += packing->room[i];
  gboolean few_domains = constraint->min_domains > 0 && domains->len < (guint) constraint->min_domains;
  int64_t placed = 0;
  while (wanted < 0 || placed < wanted)
    {
      int64_t global_min = G_MAXINT64;
      SpreadDomain *best = NULL;
      for (guint d = 0; d < domains->len; d++)
        {
          SpreadDomain *domain = &g_array_index (domains, SpreadDomain, d);
          global_min = MIN (global_min, domain->count);
          if (domain->placed < domain->capacity && (best == NULL || domain->count < best->count))
            best = domain;
        }
      if (few_domains)
        global_min = 0;
      if (best == NULL || best->count + state.self_match - global_min > constraint->max_skew)
        break;
      if (!state.self_match)
        {
          /* placements do not change the counts: every domain within the skew takes all
           * its nodes can hold */
          placed = 0;
          for (guint d = 0; d < domains->len; d++)
            {
              SpreadDomain *domain = &g_array_index (domains, SpreadDomain, d);
              if (domain->count - global_min <= constraint->max_skew)
                placed += domain->capacity;
            }
          placed = wanted < 0 ? placed : MIN (placed, wanted);
          break;
        }
      best->placed++;
      best->count++;
      placed++;
    }
  spread_state_clear (&state);
  return placed;
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
      loads[i] = options->loads != NULL ? options->loads[i] : fs_node_load (&snapshot->nodes[i]);
      if (options->exclude != NULL)
        {
          /* their host ports go with them */
          loads[i].released = options->exclude;
          loads[i].released_data = options->exclude_data;
        }
    }
  if (options->exclude == NULL)
    return;
  for (guint p = 0; p < snapshot->n_pods; p++)
    {
      const FsPod *other = &snapshot->pods[p];
      if (other->node_index >= 0 && fs_pod_counts_on_node (other)
          && options->exclude (other, options->exclude_data))
        {
          FsNodeLoad *load = &loads[other->node_index];
          fs_resources_sub (&load->requested, &other->spec->request, NULL);
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
      fit->capacity = fs_resources_capacity (&snapshot->nodes[i].allocatable, &loads[i], request);
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
      fs_resources_fit (&snapshot->nodes[i].allocatable, &full, request, &fit->limit);
    }
  return held_by_ports;
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
  const FsPlacement *placement = pod->spec->placement;
  /* a node the skew rejects now may take replicas once other domains caught up */
  g_autofree int64_t *room = g_new (int64_t, snapshot->n_nodes + 1);
  for (guint i = 0; i < snapshot->n_nodes; i++)
    room[i] = nodes[i].capacity;
  packing.room = room;
  /* PodTopologySpread comes before InterPodAffinity in the default profile */
  for (guint c = 0; placement->spread != NULL && c < placement->spread->n; c++)
    {
      const FsSpreadConstraint *constraint = &placement->spread->items[c];
      if (constraint->when_unsatisfiable != FS_SPREAD_DO_NOT_SCHEDULE)
        continue;
      SpreadState state;
      spread_state_init (&packing, constraint, &state);
      spread_reject_skewed (&packing, constraint, &state);
      spread_state_clear (&state);
    }
  apply_anti_affinity (&packing);
  const char *co_locate_key = apply_affinity (&packing);
  for (guint i = 0; i < snapshot->n_nodes; i++)
    if (nodes[i].verdict.filter == FS_FILTER_INTER_POD_AFFINITY)
      room[i] = 0;

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
      total += nodes[i].capacity;

  for (guint c = 0; placement->spread != NULL && c < placement->spread->n; c++)
    {
      const FsSpreadConstraint *constraint = &placement->spread->items[c];
      if (constraint->when_unsatisfiable != FS_SPREAD_DO_NOT_SCHEDULE)
        continue;
      int64_t spread_total = spread_capacity (&packing, constraint, options->replicas);
      if (spread_total < total)
        {
          total = spread_total;
          result->limited_by = FS_PACK_LIMIT_TOPOLOGY_SPREAD;
        }
    }

  for (guint i = 0; i < snapshot->n_nodes; i++)
    result->nodes_passing += nodes[i].verdict.filter == FS_FILTER_PASS;
  result->capacity = total;
  int64_t wanted = options->replicas < 0 ? total : MIN (options->replicas, total);
  result->placed = wanted;
  result->pending = options->replicas < 0 ? 0 : options->replicas - wanted;
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
  return g_strdup_printf ("cpu=%" G_GINT64_FORMAT "m,memory=%" G_GINT64_FORMAT ",pods=%" G_GINT64_FORMAT,
                          node->allocatable.cpu_milli, node->allocatable.memory_bytes,
                          node->allocatable.pods);
}

/* What a new node copied from EXAMPLE carries before any replica: its DaemonSet pods
 * (cluster-autoscaler adds them to node templates). */
static gboolean
not_daemon_pod (const FsPod *pod, gpointer unused)
{
  return pod->owner == NULL || g_strcmp0 (pod->owner->kind, "DaemonSet") != 0;
}

static FsNodeLoad
template_load (const FsSnapshot *snapshot, guint example_index)
{
  /* the DaemonSet pods' host ports too, and no other pod's */
  FsNodeLoad load = { .used_ports = snapshot->nodes[example_index].used_ports,
                      .released = not_daemon_pod };
  for (guint p = 0; p < snapshot->n_pods; p++)
    {
      const FsPod *pod = &snapshot->pods[p];
      if (pod->node_index == (int32_t) example_index && fs_pod_counts_on_node (pod)
          && pod->owner != NULL && g_strcmp0 (pod->owner->kind, "DaemonSet") == 0)
        {
          fs_resources_add (&load.requested, &pod->spec->request, NULL);
          load.pod_count++;
        }
    }
  return load;
}

static void
clear_estimate (gpointer data)
{
  g_free (((FsNodeShapeEstimate *) data)->shape);
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

void
fs_estimate_new_nodes (const FsSnapshot *snapshot, const FsPodShape *pod, int64_t pending,
                       GArray *out)
{
  g_autoptr (GHashTable) index = g_hash_table_new (g_str_hash, g_str_equal); /* shape -> i + 1 */
  guint first = out->len;
  for (guint i = 0; i < snapshot->n_nodes; i++)
    {
      const FsNode *node = &snapshot->nodes[i];
      g_autofree char *name = node_shape_name (node);
      gpointer slot = g_hash_table_lookup (index, name);
      if (slot != NULL)
        {
          g_array_index (out, FsNodeShapeEstimate, GPOINTER_TO_UINT (slot) - 1).existing++;
          continue;
        }
      FsNodeShapeEstimate estimate = { .example = node, .existing = 1 };
      /* a new node is Ready and schedulable, whatever the state of the example */
      FsNode fresh = *node;
      fresh.flags = FS_NODE_READY | FS_NODE_READY_KNOWN;
      /* a new node: no pod of the example holds a volume on it, and it has a name of its own
       * (a volume pinned to the example by name, VolumeBinding's GetEligibleNodes, is not
       * on it) */
      fresh.volume_pods = NULL;
      fresh.name = "";
      FsNodeLoad load = template_load (snapshot, i);
      if (fs_fit_node (&fresh, &load, pod, &estimate.verdict))
        estimate.per_node = fs_resources_capacity (&node->allocatable, &load, &pod->spec->request);
      /* NodePorts: a replica's host ports keep the next one off its node */
      if (pod->spec->host_ports != NULL)
        estimate.per_node = MIN (estimate.per_node, 1);
      const FsPodAffinityTermList *anti = pod->spec->placement->pod_anti_affinity;
      for (guint t = 0; anti != NULL && t < anti->n; t++)
        if (fs_selector_matches (anti->items[t].label_selector, pod->labels))
          estimate.per_node = MIN (estimate.per_node, 1);
      if (estimate.per_node > 0 && pending > 0)
        estimate.nodes_needed = (pending + estimate.per_node - 1) / estimate.per_node;
      estimate.shape = g_steal_pointer (&name);
      g_array_append_val (out, estimate);
      g_hash_table_insert (index, (gpointer) estimate.shape, GUINT_TO_POINTER (out->len));
    }
  g_qsort_with_data (out->data + (gsize) first * sizeof (FsNodeShapeEstimate), out->len - first,
                     sizeof (FsNodeShapeEstimate), (GCompareDataFunc) compare_estimates, NULL);
}
