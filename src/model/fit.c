/* fitscale — kube-scheduler's node filters, one node at a time, and the FailedScheduling message.
 *
 * Every rule below names the upstream file and function it follows (kubernetes/kubernetes,
 * trees of 2025–2026).  In the snapshot structs a NULL string means the empty string. */
#include "config.h"

#include "fitscale/model/fit.h"
#include "fitscale/model/schedconfig.h"
#include "fitscale/model/names.h"
#include "fitscale/model/volumes.h"

#include <string.h>

/* ---------------------------------------------------------------------------------------------
 * Small helpers */

static const char *
str_or_empty (const char *s)
{
  return s != NULL ? s : "";
}

static gboolean
str_eq (const char *a, const char *b)
{
  return strcmp (str_or_empty (a), str_or_empty (b)) == 0;
}

static gboolean
str_empty (const char *s)
{
  return s == NULL || *s == '\0';
}


/* ---------------------------------------------------------------------------------------------
 * Validation labels.NewRequirement applies (staging/src/k8s.io/apimachinery/pkg/labels/selector.go
 * NewRequirement, validateLabelKey, validateLabelValue; pkg/util/validation/validation.go
 * IsQualifiedName, IsValidLabelValue, IsDNS1123Subdomain).  A requirement that fails it never
 * becomes part of a selector upstream: the selector (and so the node selector term) fails to
 * build and matches nothing. */


/* strconv.ParseInt (s, 10, 64): an optional sign, then one or more decimal digits (leading
 * zeros allowed), in the int64 range. */
static gboolean
parse_int64_base10 (const char *s, int64_t *out)
{
  const char *p = str_or_empty (s);
  gboolean negative = FALSE;
  if (*p == '+' || *p == '-')
    negative = *p++ == '-';
  if (*p == '\0')
    return FALSE;
  uint64_t magnitude = 0;
  const uint64_t limit = negative ? (uint64_t) G_MAXINT64 + 1u : (uint64_t) G_MAXINT64;
  for (; *p != '\0'; p++)
    {
      if (*p < '0' || *p > '9')
        return FALSE;
      uint64_t digit = (uint64_t) (*p - '0');
      if (magnitude > (limit - digit) / 10u)
        return FALSE;
      magnitude = magnitude * 10u + digit;
    }
  if (negative)
    *out = magnitude == (uint64_t) G_MAXINT64 + 1u ? G_MININT64 : -(int64_t) magnitude;
  else
    *out = (int64_t) magnitude;
  return TRUE;
}

/* labels.NewRequirement's checks. */
static gboolean
requirement_valid (const FsRequirement *r)
{
  if (!fs_name_is_qualified (str_or_empty (r->key)))
    return FALSE;
  switch (r->op)
    {
    case FS_OP_IN:
    case FS_OP_NOT_IN:
      if (r->n_values == 0)
        return FALSE;
      break;
    case FS_OP_EXISTS:
    case FS_OP_DOES_NOT_EXIST:
      if (r->n_values != 0)
        return FALSE;
      break;
    case FS_OP_GT:
    case FS_OP_LT:
      if (r->n_values != 1)
        return FALSE;
      {
        int64_t ignored;
        if (!parse_int64_base10 (r->values[0], &ignored))
          return FALSE;
      }
      break;
    default:
      return FALSE;
    }
  for (guint i = 0; i < r->n_values; i++)
    if (!fs_label_value_is_valid (str_or_empty (r->values[i])))
      return FALSE;
  return TRUE;
}

static gboolean
requirement_has_value (const FsRequirement *r, const char *value)
{
  for (guint i = 0; i < r->n_values; i++)
    if (str_eq (r->values[i], value))
      return TRUE;
  return FALSE;
}

/* ---------------------------------------------------------------------------------------------
 * Label requirements and selectors */

/* staging/src/k8s.io/apimachinery/pkg/labels/selector.go Requirement.Matches, for a requirement
 * that NewRequirement accepted (an invalid one matches nothing, see requirement_valid). */
gboolean
fs_requirement_matches (const FsRequirement *requirement, const FsLabelSet *labels)
{
  g_return_val_if_fail (requirement != NULL, FALSE);
  if (!requirement_valid (requirement))
    return FALSE;
  const char *value = NULL;
  gboolean exists = fs_labels_lookup (labels, requirement->key, &value);
  switch (requirement->op)
    {
    case FS_OP_IN:
      return exists && requirement_has_value (requirement, value);
    case FS_OP_NOT_IN:
      return !exists || !requirement_has_value (requirement, value);
    case FS_OP_EXISTS:
      return exists;
    case FS_OP_DOES_NOT_EXIST:
      return !exists;
    case FS_OP_GT:
    case FS_OP_LT:
      {
        /* The label must be present and parse; exactly one value that parses. */
        int64_t label_value, wanted;
        if (!exists || !parse_int64_base10 (value, &label_value))
          return FALSE;
        if (requirement->n_values != 1
            || !parse_int64_base10 (requirement->values[0], &wanted))
          return FALSE;
        return requirement->op == FS_OP_GT ? label_value > wanted : label_value < wanted;
      }
    default:
      return FALSE;
    }
}

/* staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/helpers.go LabelSelectorAsSelector: nil →
 * labels.Nothing(); no matchLabels and no matchExpressions → labels.Everything(); otherwise
 * each matchLabels pair as an Equals requirement and each expression, ANDed (an invalid one
 * makes the conversion fail: here, match nothing).  Label selectors carry no Gt/Lt (the
 * decoder rejects them, as LabelSelectorAsSelector does). */
gboolean
fs_selector_matches (const FsLabelSelector *selector, const FsLabelSet *labels)
{
  if (selector == NULL)
    return FALSE;
  const FsLabelSet *want = selector->match_labels;
  const FsRequirementList *exprs = selector->match_expressions;
  if (want != NULL)
    for (guint i = 0; i < want->n; i++)
      {
        const char *key = str_or_empty (want->items[i].key);
        const char *wanted = str_or_empty (want->items[i].value);
        const char *value;
        if (!fs_name_is_qualified (key) || !fs_label_value_is_valid (wanted))
          return FALSE;
        if (!fs_labels_lookup (labels, key, &value) || strcmp (value, wanted) != 0)
          return FALSE;
      }
  if (exprs != NULL)
    for (guint i = 0; i < exprs->n; i++)
      if (!fs_requirement_matches (&exprs->items[i], labels))
        return FALSE;
  return TRUE;
}

/* ---------------------------------------------------------------------------------------------
 * Taints and tolerations */

/* staging/src/k8s.io/api/core/v1/toleration.go Toleration.ToleratesTaint (used through
 * component-helpers/scheduling/corev1 TolerationsTolerateTaint): the effect is empty or equal;
 * the key is empty or equal (API validation only allows an empty key with Exists, where it
 * matches every key); then Exists tolerates, and Equal (or an empty operator) needs equal
 * values.  Toleration seconds do not matter for scheduling. */
gboolean
fs_toleration_tolerates (const FsToleration *toleration, const FsTaint *taint)
{
  g_return_val_if_fail (toleration != NULL && taint != NULL, FALSE);
  if (toleration->effect != FS_EFFECT_ALL && toleration->effect != taint->effect)
    return FALSE;
  if (!str_empty (toleration->key) && !str_eq (toleration->key, taint->key))
    return FALSE;
  switch (toleration->op)
    {
    case FS_TOLERATION_EXISTS:
      return TRUE;
    case FS_TOLERATION_EQUAL:
      return str_eq (toleration->value, taint->value);
    default:
      return FALSE;
    }
}

/* component-helpers/scheduling/corev1/helpers.go TolerationsTolerateTaint: any toleration. */
gboolean
fs_tolerations_tolerate (const FsTolerationList *tolerations, const FsTaint *taint)
{
  if (tolerations == NULL)
    return FALSE;
  for (guint i = 0; i < tolerations->n; i++)
    if (fs_toleration_tolerates (&tolerations->items[i], taint))
      return TRUE;
  return FALSE;
}

/* component-helpers/scheduling/corev1/helpers.go FindMatchingUntoleratedTaint with
 * pkg/scheduler/framework/plugins/helper/taint.go DoNotScheduleTaintsFilterFunc (only
 * NoSchedule and NoExecute taints count), as tainttoleration/taint_toleration.go Filter
 * calls it: the first such taint, in the node's order, that no toleration tolerates. */
const FsTaint *
fs_first_untolerated_taint (const FsTaintList *taints, const FsTolerationList *tolerations)
{
  if (taints == NULL)
    return NULL;
  for (guint i = 0; i < taints->n; i++)
    {
      const FsTaint *taint = &taints->items[i];
      if (taint->effect != FS_EFFECT_NO_SCHEDULE && taint->effect != FS_EFFECT_NO_EXECUTE)
        continue;
      if (!fs_tolerations_tolerate (tolerations, taint))
        return taint;
    }
  return NULL;
}

/* ---------------------------------------------------------------------------------------------
 * Node affinity */

static gboolean
requirement_list_empty (const FsRequirementList *list)
{
  return list == NULL || list->n == 0;
}

/* component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go
 * nodeSelectorRequirementsAsFieldSelector and fields.OneTerm(Not)EqualSelector: only In and
 * NotIn, each with exactly one value (anything else is a parse error: the term matches
 * nothing); the fields are those of extractNodeFields (metadata.name), and a field the node
 * lacks reads as "". */
static gboolean
field_requirement_matches (const FsRequirement *r, const char *node_name, gboolean *valid)
{
  if ((r->op != FS_OP_IN && r->op != FS_OP_NOT_IN) || r->n_values != 1)
    {
      *valid = FALSE;
      return FALSE;
    }
  const char *field = strcmp (str_or_empty (r->key), "metadata.name") == 0 ? node_name : "";
  gboolean equal = str_eq (field, r->values[0]);
  return r->op == FS_OP_IN ? equal : !equal;
}

/* nodeaffinity.go nodeSelectorTerm.match (after newNodeSelectorTerm): matchExpressions as a
 * labels selector and matchFields as a fields selector, ANDed; a parse error fails the term.
 * The fields are checked only when the node has a name (len(nodeFields) > 0). */
static gboolean
node_selector_term_matches (const FsNodeSelectorTerm *term, const FsNode *node)
{
  /* isEmptyNodeSelectorTerm: selects nothing. */
  if (requirement_list_empty (term->match_expressions) && requirement_list_empty (term->match_fields))
    return FALSE;
  if (!requirement_list_empty (term->match_expressions))
    for (guint i = 0; i < term->match_expressions->n; i++)
      {
        /* fs_requirement_matches fails a requirement NewRequirement rejects. */
        if (!fs_requirement_matches (&term->match_expressions->items[i], node->labels))
          return FALSE;
      }
  if (!requirement_list_empty (term->match_fields))
    {
      gboolean has_fields = !str_empty (node->name);
      for (guint i = 0; i < term->match_fields->n; i++)
        {
          gboolean valid = TRUE;
          gboolean ok = field_requirement_matches (&term->match_fields->items[i],
                                                   str_or_empty (node->name), &valid);
          if (!valid)
            return FALSE;
          if (has_fields && !ok)
            return FALSE;
        }
    }
  return TRUE;
}

/* pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go Filter via
 * component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go GetRequiredNodeAffinity and
 * RequiredNodeAffinity.Match: spec.nodeSelector (labels.SelectorFromSet: every pair equal,
 * no validation) and, when present, the required terms (LazyErrorNodeSelector.Match: ORed;
 * an empty term or one that fails to parse matches nothing; no terms match nothing). */
/* NodeSelector.Match: the terms ORed (none: nothing matches). */
static gboolean
node_selector_matches (const FsNodeSelector *selector, const FsNode *node)
{
  for (guint i = 0; i < selector->n; i++)
    if (node_selector_term_matches (&selector->terms[i], node))
      return TRUE;
  return FALSE;
}

gboolean
fs_node_affinity_matches (const FsNode *node, const FsPlacement *placement)
{
  g_return_val_if_fail (node != NULL, FALSE);
  if (placement == NULL)
    return TRUE;
  const FsLabelSet *selector = placement->node_selector;
  if (selector != NULL)
    for (guint i = 0; i < selector->n; i++)
      {
        const char *value;
        if (!fs_labels_lookup (node->labels, selector->items[i].key, &value)
            || strcmp (value, str_or_empty (selector->items[i].value)) != 0)
          return FALSE;
      }
  const FsNodeSelector *required = placement->required_affinity;
  return required == NULL || node_selector_matches (required, node);
}

/* ---------------------------------------------------------------------------------------------
 * NodeResourcesFit */

/* One fixed resource: pkg/scheduler/framework/plugins/noderesources/fit.go fitsRequest,
 * "request > 0 && request > allocatable - requested". */
static void
check_fixed (int64_t request, int64_t allocatable, int64_t requested, guint32 bit,
             int64_t *short_slot, FsResourceBit present_bit, FsVerdict *verdict)
{
  if (request <= 0)
    return;
  int64_t free_amount = fs_saturating_sub (allocatable, requested);
  if (request <= free_amount)
    return;
  verdict->short_bits |= bit;
  *short_slot = fs_saturating_sub (request, free_amount);
  verdict->short_by.present |= present_bit;
}

/* noderesources/fit.go fitsRequest's room: allocatable minus NodeInfo.Requested, and
 * allowedPodNumber minus len(nodeInfo.Pods) (pkg/scheduler/framework/types.go NodeInfo.AddPod
 * counts every pod the informer holds, terminating ones too; Succeeded and Failed never reach
 * it: fs_pod_counts_on_node). */
FsResources
fs_node_load_taken (const FsNodeLoad *load)
{
  FsResources taken = load->requested;
  taken.pods = load->pod_count;
  taken.present |= FS_RES_PODS;
  return taken;
}

FsResources
fs_node_room (const FsResources *allocatable, const FsNodeLoad *load, GError **error)
{
  FsResources room = *allocatable;
  FsResources taken = fs_node_load_taken (load);
  fs_resources_sub (&room, &taken, error);
  return room;
}

gboolean
fs_room_holds_pod (const FsResources *request, const FsResources *room)
{
  return room->pods >= 1 && fs_resources_fits (request, room);
}

/* noderesources/fit.go fitsRequest (ignoredResources/ignoredResourceGroups empty, DRA extended
 * resources off):
 *  - "Too many pods" when pods on the node + 1 > allocatable pods (never unresolvable);
 *  - a pod that requests no cpu, memory, ephemeral-storage or scalar resource stops there;
 *  - cpu, memory, ephemeral-storage: request > 0 && request > allocatable - requested;
 *  - each scalar resource with a nonzero request: request > allocatable - requested, a name the
 *    node does not advertise having allocatable 0 (upstream walks a Go map, so its order is
 *    arbitrary; here it is by name).
 * The status is Unschedulable, so preemption is tried.  From v1.36 (kubernetes/kubernetes
 * PR #131345, issue #131310) a request over the node's whole allocatable makes it
 * UnschedulableAndUnresolvable; fitscale follows the releases clusters run today and does not.
 * VERDICT is reset; on failure its filter is NODE_RESOURCES_FIT. */
gboolean
fs_resources_fit (const FsResources *allocatable, const FsNodeLoad *load,
                  const FsResources *pod_request, FsVerdict *verdict)
{
  return fs_resources_fit_profile (allocatable, load, pod_request, NULL, verdict);
}

gboolean
fs_resources_fit_profile (const FsResources *allocatable, const FsNodeLoad *load,
                          const FsResources *pod_request, const FsSchedulerProfile *profile,
                          FsVerdict *verdict)
{
  g_return_val_if_fail (allocatable != NULL && load != NULL && pod_request != NULL
                          && verdict != NULL,
                        FALSE);
  memset (verdict, 0, sizeof *verdict);

  if (load->pod_count >= G_MAXINT64 || load->pod_count + 1 > allocatable->pods)
    {
      verdict->short_bits |= FS_SHORT_PODS;
      verdict->short_by.pods = 1;
      verdict->short_by.present |= FS_RES_PODS;
    }

  gboolean any_scalar = FALSE;
  for (guint i = 0; i < pod_request->n_extended; i++)
    if (pod_request->extended[i].value > 0)
      any_scalar = TRUE;
  if (pod_request->cpu_milli == 0 && pod_request->memory_bytes == 0
      && pod_request->ephemeral_bytes == 0 && !any_scalar)
    goto done;

  check_fixed (pod_request->cpu_milli, allocatable->cpu_milli, load->requested.cpu_milli,
               FS_SHORT_CPU, &verdict->short_by.cpu_milli, FS_RES_CPU, verdict);
  check_fixed (pod_request->memory_bytes, allocatable->memory_bytes,
               load->requested.memory_bytes, FS_SHORT_MEMORY, &verdict->short_by.memory_bytes,
               FS_RES_MEMORY, verdict);
  check_fixed (pod_request->ephemeral_bytes, allocatable->ephemeral_bytes,
               load->requested.ephemeral_bytes, FS_SHORT_EPHEMERAL,
               &verdict->short_by.ephemeral_bytes, FS_RES_EPHEMERAL, verdict);

  for (guint i = 0; i < pod_request->n_extended; i++)
    {
      const char *name = pod_request->extended[i].name;
      int64_t request = pod_request->extended[i].value;
      if (request <= 0 || fs_resource_kind (name) != FS_RES_KIND_SCALAR
          || fs_scheduler_profile_ignores (profile, name))
        continue;
      int64_t node_allocatable = fs_resources_get (allocatable, name);
      int64_t free_amount = fs_saturating_sub (node_allocatable, fs_resources_get (&load->requested, name));
      if (request <= free_amount)
        continue;
      verdict->short_bits |= FS_SHORT_SCALAR;
      /* At most as many names as the request has: never over FS_RES_MAX_EXTENDED. */
      fs_resources_set (&verdict->short_by, name, fs_saturating_sub (request, free_amount), NULL);
    }

done:
  if (verdict->short_bits == 0)
    return TRUE;
  verdict->filter = FS_FILTER_NODE_RESOURCES_FIT;
  return FALSE;
}

/* ---------------------------------------------------------------------------------------------
 * The filters in order */

static const FsTaint unschedulable_taint = {
  .key = "node.kubernetes.io/unschedulable", /* v1.TaintNodeUnschedulable */
  .value = NULL,
  .effect = FS_EFFECT_NO_SCHEDULE,
};

/* pkg/scheduler/apis/config/v1/default_plugins.go: NodeUnschedulable, NodeName,
 * TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit; the framework's RunFilterPlugins
 * stops at the first plugin that rejects.  A NULL LOAD means the node's own (FsNode.requested,
 * pod_count and used_ports). */
gboolean
fs_fit_node (const FsNode *node, const FsNodeLoad *load, const FsPodShape *pod, FsVerdict *verdict)
{
  g_return_val_if_fail (node != NULL && pod != NULL && verdict != NULL, FALSE);
  memset (verdict, 0, sizeof *verdict);
  const FsPlacement *placement = pod->spec != NULL ? pod->spec->placement : NULL;
  const FsTolerationList *tolerations = placement != NULL ? placement->tolerations : NULL;

  /* The volume plugins' PreFilter and VolumeBinding's PreFilterResult (model/volumes.h):
   * before any filter runs on the node. */
  if (!fs_volumes_prefilter (node->storage, node, pod, verdict))
    return FALSE;

  const FsSchedulerProfile *profile = pod->profile;

  /* nodeunschedulable/node_unschedulable.go Filter: spec.unschedulable rejects unless the pod
   * tolerates {node.kubernetes.io/unschedulable, NoSchedule}; UnschedulableAndUnresolvable. */
  if (fs_scheduler_profile_runs (profile, FS_FILTER_NODE_UNSCHEDULABLE)
      && (node->flags & FS_NODE_UNSCHEDULABLE) != 0
      && !fs_tolerations_tolerate (tolerations, &unschedulable_taint))
    {
      verdict->filter = FS_FILTER_NODE_UNSCHEDULABLE;
      verdict->unresolvable = TRUE;
      return FALSE;
    }

  /* nodename/node_name.go Fits: spec.nodeName empty or equal; UnschedulableAndUnresolvable. */
  if (fs_scheduler_profile_runs (profile, FS_FILTER_NODE_NAME)
      && !str_empty (pod->node_name) && !str_eq (pod->node_name, node->name))
    {
      verdict->filter = FS_FILTER_NODE_NAME;
      verdict->unresolvable = TRUE;
      return FALSE;
    }

  /* tainttoleration/taint_toleration.go Filter; UnschedulableAndUnresolvable. */
  const FsTaint *taint = fs_scheduler_profile_runs (profile, FS_FILTER_TAINT_TOLERATION)
                             ? fs_first_untolerated_taint (node->taints, tolerations) : NULL;
  if (taint != NULL)
    {
      verdict->filter = FS_FILTER_TAINT_TOLERATION;
      verdict->unresolvable = TRUE;
      verdict->taint = taint;
      return FALSE;
    }

  /* nodeaffinity/node_affinity.go Filter; UnschedulableAndUnresolvable.  The profile's
   * addedAffinity first (addedNodeSelector: ErrReasonEnforced), then the pod's own. */
  if (fs_scheduler_profile_runs (profile, FS_FILTER_NODE_AFFINITY))
    {
      if (profile != NULL && profile->added_affinity != NULL
          && !node_selector_matches (profile->added_affinity, node))
        {
          verdict->filter = FS_FILTER_NODE_AFFINITY;
          verdict->detail = FS_DETAIL_ENFORCED_AFFINITY;
          verdict->unresolvable = TRUE;
          return FALSE;
        }
      if (!fs_node_affinity_matches (node, placement))
        {
          verdict->filter = FS_FILTER_NODE_AFFINITY;
          verdict->unresolvable = TRUE;
          return FALSE;
        }
    }

  FsNodeLoad own;
  if (load == NULL)
    {
      memset (&own, 0, sizeof own);
      own.requested = node->requested;
      own.pod_count = node->pod_count;
      own.used_ports = node->used_ports;
      load = &own;
    }

  /* nodeports/node_ports.go Filter (fitsPorts against NodeInfo.UsedPorts); Unschedulable. */
  if (pod->spec != NULL && fs_scheduler_profile_runs (profile, FS_FILTER_NODE_PORTS)
      && !fs_host_ports_fit (pod->spec->host_ports, load->used_ports, load->released,
                             load->released_data))
    {
      verdict->filter = FS_FILTER_NODE_PORTS;
      return FALSE;
    }

  /* noderesources/fit.go Filter. */
  static const FsResources nothing;
  const FsResources *request = pod->spec != NULL ? &pod->spec->request : &nothing;
  if (fs_scheduler_profile_runs (profile, FS_FILTER_NODE_RESOURCES_FIT)
      && !fs_resources_fit_profile (&node->allocatable, load, request, profile, verdict))
    return FALSE;

  /* VolumeRestrictions, NodeVolumeLimits, VolumeBinding, VolumeZone (model/volumes.h). */
  return fs_volumes_filter (node->storage, node, pod, verdict);
}

/* ---------------------------------------------------------------------------------------------
 * Reason strings */

/* The name of the claim of VERDICT's volume: claimName, or ephemeral.VolumeClaimName. */
static char *
verdict_claim_name (const FsVerdict *verdict)
{
  if (verdict->claim != NULL)
    return g_strdup (verdict->claim->name);
  if (verdict->volume == NULL)
    return g_strdup ("");
  if (verdict->volume->type == FS_VOLUME_EPHEMERAL)
    return g_strdup_printf ("%s-%s", str_or_empty (verdict->pod_name),
                            str_or_empty (verdict->volume->name));
  return g_strdup (str_or_empty (verdict->volume->id));
}

/* The volume plugins' reasons and PreFilter messages. */
static void
volume_reasons (const FsVerdict *verdict, GPtrArray *reasons)
{
  g_autofree char *claim = verdict_claim_name (verdict);
  const char *namespace = verdict->claim != NULL ? str_or_empty (verdict->claim->namespace) : "";
  switch (verdict->detail)
    {
    case FS_DETAIL_DISK_CONFLICT:
      /* volume_restrictions.go ErrReasonDiskConflict */
      g_ptr_array_add (reasons, g_strdup ("node(s) had no available disk"));
      return;
    case FS_DETAIL_RWOP_CONFLICT:
      /* volume_restrictions.go ErrReasonReadWriteOncePodConflict */
      g_ptr_array_add (reasons, g_strdup ("node has pod using PersistentVolumeClaim with the same "
                                          "name and ReadWriteOncePod access mode"));
      return;
    case FS_DETAIL_MAX_VOLUME_COUNT:
      /* nodevolumelimits/csi.go ErrReasonMaxVolumeCountExceeded */
      g_ptr_array_add (reasons, g_strdup ("node(s) exceed max volume count"));
      return;
    case FS_DETAIL_VOLUME_BINDING:
      /* volumebinding/binder.go FindPodVolumes: ErrReasonNodeConflict, ErrReasonBindConflict,
       * (ErrReasonNotEnoughSpace: not modelled), ErrReasonPVNotExist, in that order */
      if (verdict->volume_reasons & FS_VOLUME_NODE_CONFLICT)
        g_ptr_array_add (reasons, g_strdup ("node(s) had volume node affinity conflict"));
      if (verdict->volume_reasons & FS_VOLUME_BIND_CONFLICT)
        g_ptr_array_add (reasons, g_strdup ("node(s) didn't find available persistent volumes to bind"));
      if (verdict->volume_reasons & FS_VOLUME_PV_NOT_EXIST)
        g_ptr_array_add (reasons, g_strdup ("node(s) unavailable due to one or more pvc(s) bound "
                                            "to non-existent pv(s)"));
      return;
    case FS_DETAIL_NOT_ELIGIBLE:
      /* schedule_one.go findNodesThatFitPod: "node(s) didn't satisfy plugin(s) %v" */
      g_ptr_array_add (reasons, g_strdup ("node(s) didn't satisfy plugin(s) [VolumeBinding]"));
      return;
    case FS_DETAIL_VOLUME_ZONE:
      /* volume_zone.go ErrReasonConflict */
      g_ptr_array_add (reasons, g_strdup ("node(s) had no available volume zone"));
      return;
    case FS_DETAIL_CLAIM_NOT_FOUND:
      /* the lister's NotFound: apimachinery errors.NewNotFound */
      g_ptr_array_add (reasons, g_strdup_printf ("persistentvolumeclaim \"%s\" not found", claim));
      return;
    case FS_DETAIL_EPHEMERAL_WAITING:
      /* volume_binding.go podHasPVCs */
      g_ptr_array_add (reasons, g_strdup_printf ("waiting for ephemeral volume controller to "
                                                 "create the persistentvolumeclaim \"%s\"", claim));
      return;
    case FS_DETAIL_CLAIM_LOST:
      g_ptr_array_add (reasons, g_strdup_printf ("persistentvolumeclaim \"%s\" bound to "
                                                 "non-existent persistentvolume \"%s\"", claim,
                                                 verdict->claim != NULL
                                                     ? str_or_empty (verdict->claim->volume_name) : ""));
      return;
    case FS_DETAIL_CLAIM_DELETING:
      g_ptr_array_add (reasons, g_strdup_printf ("persistentvolumeclaim \"%s\" is being deleted", claim));
      return;
    case FS_DETAIL_EPHEMERAL_NOT_OWNED:
      /* component-helpers/storage/ephemeral VolumeIsForPod */
      g_ptr_array_add (reasons, g_strdup_printf ("PVC %s/%s was not created for pod %s/%s (pod is "
                                                 "not owner)", namespace, claim, namespace,
                                                 str_or_empty (verdict->pod_name)));
      return;
    case FS_DETAIL_UNBOUND_IMMEDIATE:
      /* volume_binding.go PreFilter */
      g_ptr_array_add (reasons, g_strdup ("pod has unbound immediate PersistentVolumeClaims"));
      return;
    case FS_DETAIL_NO_ELIGIBLE_NODE:
      /* framework/runtime/framework.go RunPreFilterPlugins */
      g_ptr_array_add (reasons, g_strdup ("node(s) didn't satisfy plugin VolumeBinding"));
      return;
    case FS_DETAIL_PV_NOT_FOUND:
      /* volume_zone.go getPVbyPod: the lister's NotFound */
      g_ptr_array_add (reasons, g_strdup_printf ("persistentvolume \"%s\" not found",
                                                 verdict->claim != NULL
                                                     ? str_or_empty (verdict->claim->volume_name) : ""));
      return;
    default:
      return;
    }
}

/* The reason texts of the plugins (their ErrReason constants and Filter's fmt.Sprintf). */
void
fs_verdict_reasons (const FsVerdict *verdict, GPtrArray *reasons)
{
  g_return_if_fail (verdict != NULL && reasons != NULL);
  switch (verdict->filter)
    {
    case FS_FILTER_PASS:
      return;
    case FS_FILTER_NODE_UNSCHEDULABLE:
      /* node_unschedulable.go ErrReasonUnschedulable */
      g_ptr_array_add (reasons, g_strdup ("node(s) were unschedulable"));
      return;
    case FS_FILTER_NODE_NAME:
      /* node_name.go ErrReason */
      g_ptr_array_add (reasons, g_strdup ("node(s) didn't match the requested node name"));
      return;
    case FS_FILTER_TAINT_TOLERATION:
      /* taint_toleration.go Filter: "node(s) had untolerated taint {%s: %s}" */
      g_ptr_array_add (reasons,
                       g_strdup_printf ("node(s) had untolerated taint {%s: %s}",
                                        verdict->taint != NULL ? str_or_empty (verdict->taint->key) : "",
                                        verdict->taint != NULL ? str_or_empty (verdict->taint->value) : ""));
      return;
    case FS_FILTER_NODE_AFFINITY:
      /* node_affinity.go ErrReasonEnforced, ErrReasonPod */
      g_ptr_array_add (reasons, g_strdup (verdict->detail == FS_DETAIL_ENFORCED_AFFINITY
                                              ? "node(s) didn't match scheduler-enforced node affinity"
                                              : "node(s) didn't match Pod's node affinity/selector"));
      return;
    case FS_FILTER_NODE_PORTS:
      /* node_ports.go ErrReason */
      g_ptr_array_add (reasons, g_strdup ("node(s) didn't have free ports for the requested pod ports"));
      return;
    case FS_FILTER_NODE_RESOURCES_FIT:
      /* fit.go fitsRequest, in its order: pods, cpu, memory, ephemeral-storage, scalars. */
      if (verdict->short_bits & FS_SHORT_PODS)
        g_ptr_array_add (reasons, g_strdup ("Too many pods"));
      if (verdict->short_bits & FS_SHORT_CPU)
        g_ptr_array_add (reasons, g_strdup ("Insufficient cpu"));
      if (verdict->short_bits & FS_SHORT_MEMORY)
        g_ptr_array_add (reasons, g_strdup ("Insufficient memory"));
      if (verdict->short_bits & FS_SHORT_EPHEMERAL)
        g_ptr_array_add (reasons, g_strdup ("Insufficient ephemeral-storage"));
      if (verdict->short_bits & FS_SHORT_SCALAR)
        for (guint i = 0; i < verdict->short_by.n_extended; i++)
          if (verdict->short_by.extended[i].value > 0)
            g_ptr_array_add (reasons, g_strdup_printf ("Insufficient %s",
                                                       str_or_empty (verdict->short_by.extended[i].name)));
      return;
    case FS_FILTER_POD_TOPOLOGY_SPREAD:
      /* podtopologyspread/filtering.go ErrReasonConstraintsNotMatch, ErrReasonNodeLabelNotMatch */
      g_ptr_array_add (reasons, g_strdup (verdict->detail == FS_DETAIL_SPREAD_MISSING_LABEL
                                              ? "node(s) didn't match pod topology spread "
                                                "constraints (missing required label)"
                                              : "node(s) didn't match pod topology spread constraints"));
      return;
    case FS_FILTER_VOLUME_RESTRICTIONS:
    case FS_FILTER_NODE_VOLUME_LIMITS:
    case FS_FILTER_VOLUME_BINDING:
    case FS_FILTER_VOLUME_ZONE:
      volume_reasons (verdict, reasons);
      return;
    case FS_FILTER_INTER_POD_AFFINITY:
      /* interpodaffinity/filtering.go ErrReasonAffinityRulesNotMatch,
       * ErrReasonAntiAffinityRulesNotMatch, ErrReasonExistingAntiAffinityRulesNotMatch */
      g_ptr_array_add (reasons, g_strdup (verdict->detail == FS_DETAIL_AFFINITY
                                              ? "node(s) didn't match pod affinity rules"
                                          : verdict->detail == FS_DETAIL_EXISTING_ANTI_AFFINITY
                                              ? "node(s) didn't satisfy existing pods anti-affinity rules"
                                              : "node(s) didn't match pod anti-affinity rules"));
      return;
    default:
      return;
    }
}

/* ---------------------------------------------------------------------------------------------
 * The message */

struct FsReasonCounts {
  GHashTable *counts; /* reason (owned) → count (GUINT_TO_POINTER) */
  char *prefilter;    /* a PreFilter's message (Diagnosis.PreFilterMsg), or NULL */
};

FsReasonCounts *
fs_reason_counts_new (void)
{
  FsReasonCounts *counts = g_new0 (FsReasonCounts, 1);
  counts->counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  return counts;
}

void
fs_reason_counts_free (FsReasonCounts *counts)
{
  if (counts == NULL)
    return;
  g_hash_table_destroy (counts->counts);
  g_free (counts->prefilter);
  g_free (counts);
}

void
fs_reason_counts_add (FsReasonCounts *counts, const char *reason, guint n)
{
  g_return_if_fail (counts != NULL && reason != NULL);
  gpointer key, value;
  if (g_hash_table_lookup_extended (counts->counts, reason, &key, &value))
    {
      guint total = GPOINTER_TO_UINT (value);
      total = n > G_MAXUINT - total ? G_MAXUINT : total + n;
      g_hash_table_insert (counts->counts, g_strdup (reason), GUINT_TO_POINTER (total));
    }
  else
    g_hash_table_insert (counts->counts, g_strdup (reason), GUINT_TO_POINTER (n));
}

/* framework/types.go FitError.Error: each reason of each node's status adds one; a PreFilter
 * rejection is the same status on every node, and its message stands alone. */
void
fs_reason_counts_add_verdict (FsReasonCounts *counts, const FsVerdict *verdict)
{
  g_return_if_fail (counts != NULL && verdict != NULL);
  g_autoptr (GPtrArray) reasons = g_ptr_array_new_with_free_func (g_free);
  fs_verdict_reasons (verdict, reasons);
  if (verdict->prefilter)
    {
      if (counts->prefilter == NULL && reasons->len > 0)
        counts->prefilter = g_strdup (g_ptr_array_index (reasons, 0));
      return;
    }
  for (guint i = 0; i < reasons->len; i++)
    fs_reason_counts_add (counts, g_ptr_array_index (reasons, i), 1);
}

static gint
compare_strings (gconstpointer a, gconstpointer b)
{
  /* Go sort.Strings: byte order (strcmp compares as unsigned char). */
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* pkg/scheduler/framework/types.go FitError.Error, with no PreFilter message:
 * "0/N nodes are available:", then — when the histogram is not empty — " " + the sorted
 * "count reason" entries joined by ", " + "."; then " " + the PostFilter message when there
 * is one (an empty one adds nothing, as upstream's postFilterMsg != "" test).
 * With no node at all there is no FitError: pkg/scheduler/schedule_one.go schedulePod returns
 * ErrNoNodesAvailable before any filter or PostFilter runs, and that is the message. */
char *
fs_fit_error_message (guint n_nodes, const FsReasonCounts *counts, const char *postfilter)
{
  if (n_nodes == 0)
    return g_strdup ("no nodes available to schedule pods");
  GString *message = g_string_new (NULL);
  g_string_append_printf (message, "0/%u nodes are available:", n_nodes);
  if (counts != NULL && counts->prefilter != NULL)
    g_string_append_printf (message, " %s.", counts->prefilter); /* SeparatorFormat " %v." */
  else if (counts != NULL && g_hash_table_size (counts->counts) > 0)
    {
      g_autoptr (GPtrArray) entries = g_ptr_array_new_with_free_func (g_free);
      GHashTableIter iter;
      gpointer key, value;
      g_hash_table_iter_init (&iter, counts->counts);
      while (g_hash_table_iter_next (&iter, &key, &value))
        g_ptr_array_add (entries, g_strdup_printf ("%u %s", GPOINTER_TO_UINT (value),
                                                   (const char *) key));
      g_ptr_array_sort (entries, compare_strings);
      for (guint i = 0; i < entries->len; i++)
        {
          g_string_append (message, i == 0 ? " " : ", ");
          g_string_append (message, g_ptr_array_index (entries, i));
        }
      g_string_append_c (message, '.');
    }
  if (!str_empty (postfilter))
    {
      g_string_append_c (message, ' ');
      g_string_append (message, postfilter);
    }
  return g_string_free (message, FALSE);
}

/* ---------------------------------------------------------------------------------------------
 * Well-known taints: k8s.io/api core/v1 well_known_taints.go (TaintNodeNotReady,
 * TaintNodeUnreachable, TaintNodeUnschedulable, TaintNodeMemoryPressure, TaintNodeDiskPressure,
 * TaintNodeNetworkUnavailable, TaintNodePIDPressure, TaintNodeOutOfService) and
 * k8s.io/cloud-provider api/well_known_taints.go (TaintExternalCloudProvider). */

gboolean
fs_taint_is_cordon (const FsTaint *taint)
{
  return taint != NULL && g_strcmp0 (taint->key, unschedulable_taint.key) == 0
         && taint->effect == FS_EFFECT_NO_SCHEDULE;
}

gboolean
fs_taint_is_node_state (const FsTaint *taint)
{
  static const char *const keys[] = {
    "node.kubernetes.io/not-ready",      "node.kubernetes.io/unreachable",
    "node.kubernetes.io/memory-pressure", "node.kubernetes.io/disk-pressure",
    "node.kubernetes.io/pid-pressure",   "node.kubernetes.io/network-unavailable",
    "node.kubernetes.io/out-of-service", "node.cloudprovider.kubernetes.io/uninitialized",
  };
  for (gsize i = 0; taint != NULL && i < G_N_ELEMENTS (keys); i++)
    if (g_strcmp0 (taint->key, keys[i]) == 0)
      return TRUE;
  return FALSE;
}

gboolean
fs_node_not_ready_untainted (const FsNode *node)
{
  if (!(node->flags & FS_NODE_READY_KNOWN) || (node->flags & FS_NODE_READY))
    return FALSE;
  for (guint t = 0; node->taints != NULL && t < node->taints->n; t++)
    {
      const FsTaint *taint = &node->taints->items[t];
      if ((taint->effect == FS_EFFECT_NO_SCHEDULE || taint->effect == FS_EFFECT_NO_EXECUTE)
          && (g_strcmp0 (taint->key, "node.kubernetes.io/not-ready") == 0
              || g_strcmp0 (taint->key, "node.kubernetes.io/unreachable") == 0))
        return FALSE;
    }
  return TRUE;
}

/* The reasons fs_verdict_reasons writes, as prefixes, with the phrasings of older schedulers
 * (taint_toleration.go before 1.25 "node(s) had taint {k: v}, that the pod didn't tolerate";
 * 1.35+ "node(s) had untolerated taint(s)"). */
gboolean
fs_fit_reason_is_modelled (const char *reason)
{
  static const char *const prefixes[] = {
    "node(s) were unschedulable",
    "node(s) didn't match the requested node name",
    "node(s) had untolerated taint",
    "node(s) had taint {",
    "node(s) didn't match Pod's node affinity/selector",
    "node(s) didn't have free ports for the requested pod ports",
    "Too many pods",
    "Insufficient ",
    "node(s) didn't match pod topology spread constraints",
    "node(s) didn't match pod affinity rules",
    "node(s) didn't match pod anti-affinity rules",
    "node(s) didn't satisfy existing pods anti-affinity rules",
  };
  for (gsize i = 0; reason != NULL && i < G_N_ELEMENTS (prefixes); i++)
    if (g_str_has_prefix (reason, prefixes[i]))
      return TRUE;
  return fs_fit_reason_is_volume (reason);
}

/* The reasons and PreFilter messages of the volume plugins (model/volumes.h). */
gboolean
fs_fit_reason_is_volume (const char *reason)
{
  static const char *const prefixes[] = {
    "node(s) had no available disk",
    "node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode",
    "node(s) exceed max volume count",
    "node(s) had volume node affinity conflict",
    "node(s) didn't find available persistent volumes to bind",
    "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)",
    "node(s) didn't satisfy plugin(s) [VolumeBinding]",
    "node(s) didn't satisfy plugin VolumeBinding",
    "node(s) had no available volume zone",
    "persistentvolumeclaim \"",
    "persistentvolume \"",
    "waiting for ephemeral volume controller to create the persistentvolumeclaim",
    "pod has unbound immediate PersistentVolumeClaims",
    "PVC ",
  };
  for (gsize i = 0; reason != NULL && i < G_N_ELEMENTS (prefixes); i++)
    if (g_str_has_prefix (reason, prefixes[i]))
      return TRUE;
  return FALSE;
}
