/* fitscale — kube-scheduler's volume plugins (see include/fitscale/model/volumes.h).
 *
 * Every rule names the upstream file and function it follows (kubernetes/kubernetes,
 * pkg/scheduler/framework/plugins/..., trees of 2025–2026, and component-helpers/storage).
 * In the snapshot structs a NULL string means the empty string. */
#include "config.h"

#include "fitscale/model/volumes.h"
#include "fitscale/model/schedconfig.h"
#include "fitscale/model/names.h"

#include <string.h>

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

/* ---------------------------------------------------------------------------------------------
 * Lookups: the snapshot's storage arrays are sorted by namespace and name (objects.c). */

static int
compare_key (const char *ns_a, const char *name_a, const char *ns_b, const char *name_b)
{
  int by_ns = g_strcmp0 (ns_a, ns_b);
  return by_ns != 0 ? by_ns : g_strcmp0 (name_a, name_b);
}

#define BSEARCH(array, count, ns_of, name_of, ns, name)                                       \
  do                                                                                         \
    {                                                                                        \
      guint lo = 0, hi = (count);                                                            \
      while (lo < hi)                                                                        \
        {                                                                                    \
          guint mid = lo + (hi - lo) / 2;                                                    \
          int c = compare_key (ns_of (&(array)[mid]), name_of (&(array)[mid]), (ns), (name)); \
          if (c == 0)                                                                        \
            return &(array)[mid];                                                            \
          if (c < 0)                                                                         \
            lo = mid + 1;                                                                    \
          else                                                                               \
            hi = mid;                                                                        \
        }                                                                                    \
      return NULL;                                                                           \
    }                                                                                        \
  while (0)

#define NO_NS(x) ((const char *) NULL)
#define CLAIM_NS(x) ((x)->namespace)
#define NAME_OF(x) ((x)->name)

const FsClaim *
fs_snapshot_find_claim (const FsSnapshot *snapshot, const char *namespace, const char *name)
{
  BSEARCH (snapshot->claims, snapshot->n_claims, CLAIM_NS, NAME_OF, namespace, name);
}

const FsPersistentVolume *
fs_snapshot_find_persistent_volume (const FsSnapshot *snapshot, const char *name)
{
  BSEARCH (snapshot->persistent_volumes, snapshot->n_persistent_volumes, NO_NS, NAME_OF, NULL, name);
}

const FsStorageClass *
fs_snapshot_find_storage_class (const FsSnapshot *snapshot, const char *name)
{
  BSEARCH (snapshot->storage_classes, snapshot->n_storage_classes, NO_NS, NAME_OF, NULL, name);
}

const FsCsiNode *
fs_snapshot_find_csi_node (const FsSnapshot *snapshot, const char *name)
{
  BSEARCH (snapshot->csi_nodes, snapshot->n_csi_nodes, NO_NS, NAME_OF, NULL, name);
}

static gboolean
has (const FsSnapshot *snapshot, guint32 kinds)
{
  return (snapshot->storage_kinds & kinds) == kinds;
}

gboolean
fs_pod_spec_uses_claims (const FsPodSpec *spec)
{
  for (guint i = 0; spec != NULL && spec->volumes != NULL && i < spec->volumes->n; i++)
    if (spec->volumes->items[i].type == FS_VOLUME_CLAIM
        || spec->volumes->items[i].type == FS_VOLUME_EPHEMERAL)
      return TRUE;
  return FALSE;
}

/* ---------------------------------------------------------------------------------------------
 * A volume's claim */

/* component-helpers/storage/ephemeral VolumeClaimName: <pod name>-<volume name>.  Written
 * into BUFFER; NULL when the volume uses no claim, or is ephemeral and the pod has no name
 * yet (a replica not created: its claim is created with it). */
static const char *
claim_name (const FsVolume *volume, const char *pod_name, char *buffer, gsize size)
{
  if (volume->type == FS_VOLUME_CLAIM)
    return volume->id;
  if (volume->type != FS_VOLUME_EPHEMERAL || pod_name == NULL)
    return NULL;
  g_snprintf (buffer, size, "%s-%s", pod_name, str_or_empty (volume->name));
  return buffer;
}

static const FsClaim *
claim_of (const FsSnapshot *snapshot, const char *namespace, const FsVolume *volume,
          const char *pod_name)
{
  char buffer[600];
  const char *name = claim_name (volume, pod_name, buffer, sizeof buffer);
  return name != NULL ? fs_snapshot_find_claim (snapshot, namespace, name) : NULL;
}

/* volumebinding/binder.go isPVCFullyBound: spec.volumeName set and the PV controller's
 * pv.kubernetes.io/bind-completed annotation present. */
static gboolean
claim_fully_bound (const FsClaim *claim)
{
  return claim->volume_name != NULL && claim->bind_completed;
}

/* component-helpers/storage/volume helpers.go IsDelayBindingMode: the class's
 * volumeBindingMode is WaitForFirstConsumer; no class, or a class not found, is Immediate.
 * (A class without volumeBindingMode is an error upstream; the API server always sets it:
 * read as Immediate, its default.) */
static gboolean
claim_delays_binding (const FsSnapshot *snapshot, const FsClaim *claim)
{
  if (claim->storage_class == NULL)
    return FALSE;
  const FsStorageClass *class = fs_snapshot_find_storage_class (snapshot, claim->storage_class);
  return class != NULL && class->wait_for_first_consumer;
}

/* ---------------------------------------------------------------------------------------------
 * Node affinity of a PersistentVolume */

/* component-helpers/storage/volume pv_helpers.go CheckNodeAffinity: the required terms
 * matched against a node made of the labels alone (so matchFields never match). */
static gboolean
pv_node_affinity_matches (const FsPersistentVolume *pv, const FsNode *node)
{
  if (pv->node_affinity == NULL)
    return TRUE;
  FsNode labels_only = { .labels = node->labels };
  FsPlacement placement = { .required_affinity = pv->node_affinity };
  return fs_node_affinity_matches (&labels_only, &placement);
}

static gboolean
is_host_name_in (const FsRequirement *r)
{
  return str_eq (r->key, "kubernetes.io/hostname") && r->op == FS_OP_IN;
}

/* Whether NAME is in the intersection of TERM's kubernetes.io/hostname In expressions
 * (FALSE when it has none). */
static gboolean
term_names_contain (const FsNodeSelectorTerm *term, const char *name)
{
  const FsRequirementList *exprs = term->match_expressions;
  gboolean any = FALSE;
  for (guint e = 0; exprs != NULL && e < exprs->n; e++)
    {
      const FsRequirement *r = &exprs->items[e];
      if (!is_host_name_in (r))
        continue;
      any = TRUE;
      gboolean here = FALSE;
      for (guint v = 0; v < r->n_values && !here; v++)
        here = str_eq (r->values[v], name);
      if (!here)
        return FALSE;
    }
  return any;
}

/* storage/volume util GetLocalPersistentVolumeNodeNames, asked for one name: the values of
 * the kubernetes.io/hostname In expressions, intersected within a term and united over the
 * terms.  *ANY is TRUE when that union is not empty. */
static gboolean
pv_host_names_contain (const FsPersistentVolume *pv, const char *name, gboolean *any)
{
  *any = FALSE;
  gboolean found = FALSE;
  for (guint t = 0; pv->node_affinity != NULL && t < pv->node_affinity->n; t++)
    {
      const FsNodeSelectorTerm *term = &pv->node_affinity->terms[t];
      found = found || term_names_contain (term, name);
      const FsRequirementList *exprs = term->match_expressions;
      for (guint e = 0; exprs != NULL && e < exprs->n && !*any; e++)
        for (guint v = 0; is_host_name_in (&exprs->items[e]) && v < exprs->items[e].n_values && !*any; v++)
          *any = term_names_contain (term, exprs->items[e].values[v]);
    }
  return found;
}

/* ---------------------------------------------------------------------------------------------
 * PreFilter */

static gboolean
reject_all (FsVerdict *verdict, FsFilter filter, FsVerdictDetail detail, const FsVolume *volume,
            const FsClaim *claim, const char *pod_name)
{
  verdict->filter = filter;
  verdict->detail = detail;
  verdict->unresolvable = TRUE;
  verdict->prefilter = TRUE;
  verdict->volume = volume;
  verdict->claim = claim;
  verdict->pod_name = pod_name;
  return FALSE;
}

/* volumerestrictions/volume_restrictions.go PreFilter (readWriteOncePodPVCsForPod): every
 * persistentVolumeClaim volume's claim must exist. */
static gboolean
restrictions_prefilter (const FsSnapshot *snapshot, const FsPodShape *pod, FsVerdict *verdict)
{
  const FsVolumeList *volumes = pod->spec->volumes;
  for (guint i = 0; i < volumes->n; i++)
    if (volumes->items[i].type == FS_VOLUME_CLAIM
        && claim_of (snapshot, pod->namespace, &volumes->items[i], NULL) == NULL)
      return reject_all (verdict, FS_FILTER_VOLUME_RESTRICTIONS, FS_DETAIL_CLAIM_NOT_FOUND,
                         &volumes->items[i], NULL, pod->name);
  return TRUE;
}

/* component-helpers/storage/ephemeral VolumeIsForPod: the pod controls the claim (its
 * controller ownerReference; fitscale compares kind and name, having no UIDs). */
static gboolean
claim_is_for_pod (const FsClaim *claim, const char *pod_name)
{
  return claim->owner != NULL && claim->owner->controller && str_eq (claim->owner->kind, "Pod")
         && str_eq (claim->owner->name, pod_name);
}

/* volumebinding/volume_binding.go podHasPVCs, then binder.go GetPodVolumeClaims: a claim
 * missing, lost, being deleted or (ephemeral) not the pod's; then unbound claims that are
 * not WaitForFirstConsumer ("Immediate", or prebound: volumeName set, not bind-completed). */
static gboolean
binding_prefilter (const FsSnapshot *snapshot, const FsPodShape *pod, FsVerdict *verdict)
{
  const FsVolumeList *volumes = pod->spec->volumes;
  for (guint i = 0; i < volumes->n; i++)
    {
      const FsVolume *volume = &volumes->items[i];
      if (volume->type != FS_VOLUME_CLAIM && volume->type != FS_VOLUME_EPHEMERAL)
        continue;
      if (volume->type == FS_VOLUME_EPHEMERAL && pod->name == NULL)
        continue; /* created with the pod */
      const FsClaim *claim = claim_of (snapshot, pod->namespace, volume, pod->name);
      gboolean ephemeral = volume->type == FS_VOLUME_EPHEMERAL;
      if (claim == NULL)
        return reject_all (verdict, FS_FILTER_VOLUME_BINDING,
                           ephemeral ? FS_DETAIL_EPHEMERAL_WAITING : FS_DETAIL_CLAIM_NOT_FOUND,
                           volume, NULL, pod->name);
      if (claim->lost)
        return reject_all (verdict, FS_FILTER_VOLUME_BINDING, FS_DETAIL_CLAIM_LOST, volume, claim,
                           pod->name);
      if (claim->terminating)
        return reject_all (verdict, FS_FILTER_VOLUME_BINDING, FS_DETAIL_CLAIM_DELETING, volume,
                           claim, pod->name);
      if (ephemeral && !claim_is_for_pod (claim, pod->name))
        return reject_all (verdict, FS_FILTER_VOLUME_BINDING, FS_DETAIL_EPHEMERAL_NOT_OWNED, volume,
                           claim, pod->name);
    }
  for (guint i = 0; i < volumes->n; i++)
    {
      const FsClaim *claim = claim_of (snapshot, pod->namespace, &volumes->items[i], pod->name);
      if (claim == NULL || claim_fully_bound (claim))
        continue;
      if (claim->volume_name == NULL && claim->storage_class != NULL
          && !has (snapshot, FS_STORAGE_CLASSES))
        continue; /* its binding mode is not known (a prebound claim is Immediate whatever it is) */
      if (!claim_delays_binding (snapshot, claim) || claim->volume_name != NULL)
        return reject_all (verdict, FS_FILTER_VOLUME_BINDING, FS_DETAIL_UNBOUND_IMMEDIATE,
                           &volumes->items[i], claim, pod->name);
    }
  return TRUE;
}

/* volumebinding/binder.go GetEligibleNodes: the bound claims whose volumes name nodes by
 * kubernetes.io/hostname restrict the nodes to the intersection of those names (no
 * restriction when a bound claim's volume is not found).  NODE_IN tells whether NODE is in
 * it; the result is FALSE when the intersection is empty (RunPreFilterPlugins: "node(s)
 * didn't satisfy plugin VolumeBinding"). */
static gboolean
eligible_nodes (const FsSnapshot *snapshot, const FsPodShape *pod, const FsNode *node,
                gboolean *node_in)
{
  *node_in = TRUE;
  const FsVolumeList *volumes = pod->spec->volumes;
  g_autoptr (GPtrArray) restricting = g_ptr_array_new ();
  for (guint i = 0; i < volumes->n; i++)
    {
      const FsClaim *claim = claim_of (snapshot, pod->namespace, &volumes->items[i], pod->name);
      if (claim == NULL || !claim_fully_bound (claim))
        continue;
      const FsPersistentVolume *pv = fs_snapshot_find_persistent_volume (snapshot, claim->volume_name);
      if (pv == NULL)
        return TRUE;
      gboolean any;
      pv_host_names_contain (pv, "", &any);
      if (any)
        g_ptr_array_add (restricting, (gpointer) pv);
    }
  if (restricting->len == 0)
    return TRUE;
  gboolean any;
  for (guint i = 0; i < restricting->len; i++)
    *node_in = *node_in && pv_host_names_contain (restricting->pdata[i], node->name, &any);
  /* the intersection: the names of the first volume that every other one also names */
  const FsPersistentVolume *first = restricting->pdata[0];
  for (guint t = 0; t < first->node_affinity->n; t++)
    {
      const FsRequirementList *exprs = first->node_affinity->terms[t].match_expressions;
      for (guint e = 0; exprs != NULL && e < exprs->n; e++)
        for (guint v = 0; is_host_name_in (&exprs->items[e]) && v < exprs->items[e].n_values; v++)
          {
            const char *name = exprs->items[e].values[v];
            gboolean in_all = TRUE;
            for (guint i = 0; i < restricting->len && in_all; i++)
              in_all = pv_host_names_contain (restricting->pdata[i], name, &any);
            if (in_all)
              return TRUE;
          }
    }
  return FALSE;
}

/* volumezone/volume_zone.go PreFilter (getPVbyPod): a bound persistentVolumeClaim volume's
 * PersistentVolume must exist. */
static gboolean
zone_prefilter (const FsSnapshot *snapshot, const FsPodShape *pod, FsVerdict *verdict)
{
  const FsVolumeList *volumes = pod->spec->volumes;
  for (guint i = 0; i < volumes->n; i++)
    {
      if (volumes->items[i].type != FS_VOLUME_CLAIM)
        continue;
      const FsClaim *claim = claim_of (snapshot, pod->namespace, &volumes->items[i], NULL);
      if (claim == NULL || claim->volume_name == NULL)
        continue; /* WaitForFirstConsumer: skipped (others were rejected above) */
      if (fs_snapshot_find_persistent_volume (snapshot, claim->volume_name) == NULL)
        return reject_all (verdict, FS_FILTER_VOLUME_ZONE, FS_DETAIL_PV_NOT_FOUND,
                           &volumes->items[i], claim, pod->name);
    }
  return TRUE;
}

/* pkg/scheduler/framework/runtime/framework.go RunPreFilterPlugins, in the default profile's
 * order (VolumeRestrictions, NodeVolumeLimits: nothing to reject, VolumeBinding,
 * VolumeZone): the first UnschedulableAndUnresolvable ends it; then
 * schedule_one.go findNodesThatFitPod gives the nodes outside a PreFilterResult "node(s)
 * didn't satisfy plugin(s) [VolumeBinding]". */
gboolean
fs_volumes_prefilter (const FsSnapshot *snapshot, const FsNode *node, const FsPodShape *pod,
                      FsVerdict *verdict)
{
  if (snapshot == NULL || pod->spec == NULL || pod->spec->volumes == NULL
      || !has (snapshot, FS_STORAGE_CLAIMS))
    return TRUE;
  /* a plugin the pod's profile turns off runs neither its PreFilter nor its Filter */
  gboolean restrictions = fs_scheduler_profile_runs (pod->profile, FS_FILTER_VOLUME_RESTRICTIONS);
  gboolean binding = fs_scheduler_profile_runs (pod->profile, FS_FILTER_VOLUME_BINDING);
  if ((restrictions && !restrictions_prefilter (snapshot, pod, verdict))
      || (binding && !binding_prefilter (snapshot, pod, verdict)))
    return FALSE;
  if (!has (snapshot, FS_STORAGE_VOLUMES))
    return TRUE;
  gboolean node_in = TRUE;
  if (binding && !eligible_nodes (snapshot, pod, node, &node_in))
    return reject_all (verdict, FS_FILTER_VOLUME_BINDING, FS_DETAIL_NO_ELIGIBLE_NODE, NULL, NULL,
                       pod->name);
  if (fs_scheduler_profile_runs (pod->profile, FS_FILTER_VOLUME_ZONE)
      && !zone_prefilter (snapshot, pod, verdict))
    return FALSE;
  if (!node_in)
    {
      verdict->filter = FS_FILTER_VOLUME_BINDING;
      verdict->detail = FS_DETAIL_NOT_ELIGIBLE;
      verdict->unresolvable = TRUE;
      return FALSE;
    }
  return TRUE;
}

/* ---------------------------------------------------------------------------------------------
 * VolumeRestrictions */

/* volume_restrictions.go haveOverlap. */
static gboolean
monitors_overlap (const FsVolume *a, const FsVolume *b)
{
  for (guint i = 0; i < a->n_monitors; i++)
    for (guint j = 0; j < b->n_monitors; j++)
      if (str_eq (a->monitors[i], b->monitors[j]))
        return TRUE;
  return FALSE;
}

/* volume_restrictions.go isVolumeConflict, for one volume of each pod. */
static gboolean
volumes_conflict (const FsVolume *v, const FsVolume *e)
{
  if (v->type != e->type)
    return FALSE;
  gboolean both_read_only = v->read_only && e->read_only;
  switch (v->type)
    {
    case FS_VOLUME_GCE_PD:
      return str_eq (v->id, e->id) && !both_read_only;
    case FS_VOLUME_AWS_EBS:
      return str_eq (v->id, e->id);
    case FS_VOLUME_ISCSI:
      return str_eq (v->id, e->id) && !both_read_only;
    case FS_VOLUME_RBD:
      return monitors_overlap (v, e) && str_eq (v->pool, e->pool) && str_eq (v->id, e->id)
             && !both_read_only;
    default:
      return FALSE;
    }
}

/* volume_restrictions.go satisfyVolumeConflicts. */
static gboolean
satisfies_volume_conflicts (const FsNode *node, const FsVolumeList *volumes)
{
  for (guint i = 0; i < volumes->n; i++)
    {
      const FsVolume *v = &volumes->items[i];
      if (v->type != FS_VOLUME_GCE_PD && v->type != FS_VOLUME_AWS_EBS && v->type != FS_VOLUME_RBD
          && v->type != FS_VOLUME_ISCSI)
        continue;
      for (guint p = 0; node->volume_pods != NULL && p < node->volume_pods->n; p++)
        {
          const FsVolumeList *existing = node->volume_pods->items[p]->spec->volumes;
          for (guint k = 0; k < existing->n; k++)
            if (volumes_conflict (v, &existing->items[k]))
              return FALSE;
        }
    }
  return TRUE;
}

/* Whether a pod counted on a node of the snapshot uses the claim NAMESPACE/NAME through a
 * persistentVolumeClaim volume (framework/types.go NodeInfo.PVCRefCounts, read by
 * StorageInfos.IsPVCUsedByPods). */
static gboolean
claim_used_by_pods (const FsSnapshot *snapshot, const char *namespace, const char *name)
{
  for (guint n = 0; n < snapshot->n_nodes; n++)
    {
      const FsPodRefList *pods = snapshot->nodes[n].volume_pods;
      for (guint p = 0; pods != NULL && p < pods->n; p++)
        {
          const FsPod *other = pods->items[p];
          if (!str_eq (other->namespace, namespace))
            continue;
          for (guint k = 0; k < other->spec->volumes->n; k++)
            if (other->spec->volumes->items[k].type == FS_VOLUME_CLAIM
                && str_eq (other->spec->volumes->items[k].id, name))
              return TRUE;
        }
    }
  return FALSE;
}

/* volume_restrictions.go Filter: disk conflicts with the pods on the node, then
 * ReadWriteOncePod claims already in use (calPreFilterState, satisfyReadWriteOncePod);
 * both Unschedulable. */
static gboolean
volume_restrictions (const FsSnapshot *snapshot, const FsNode *node, const FsPodShape *pod,
                     FsVerdict *verdict)
{
  const FsVolumeList *volumes = pod->spec->volumes;
  FsVerdictDetail detail = FS_DETAIL_NONE;
  if (!satisfies_volume_conflicts (node, volumes))
    detail = FS_DETAIL_DISK_CONFLICT;
  for (guint i = 0; detail == FS_DETAIL_NONE && snapshot != NULL && has (snapshot, FS_STORAGE_CLAIMS)
                    && i < volumes->n; i++)
    {
      if (volumes->items[i].type != FS_VOLUME_CLAIM)
        continue;
      const FsClaim *claim = claim_of (snapshot, pod->namespace, &volumes->items[i], NULL);
      if (claim != NULL && (claim->access_modes & FS_ACCESS_RWOP) != 0
          && claim_used_by_pods (snapshot, claim->namespace, claim->name))
        detail = FS_DETAIL_RWOP_CONFLICT;
    }
  if (detail == FS_DETAIL_NONE)
    return TRUE;
  verdict->filter = FS_FILTER_VOLUME_RESTRICTIONS;
  verdict->detail = detail;
  return FALSE;
}

/* ---------------------------------------------------------------------------------------------
 * NodeVolumeLimits (CSI) */

/* One attachable volume: its CSI driver and what makes it unique (driverName/volumeHandle, or
 * for a claim not bound yet the claim itself: csi.go getCSIDriverInfoFromSC's random handle
 * prefix + namespace/name). */
typedef struct {
  const char *driver;
  const char *handle;
  const FsClaim *unbound_claim;
} Attachable;

/* csi.go getCSIDriverInfo / getCSIDriverInfoFromSC for CLAIM: FALSE when it is not counted
 * (not CSI, in-tree plugins whose CSI migration fitscale does not model, no class). */
static gboolean
attachable_of (const FsSnapshot *snapshot, const FsClaim *claim, Attachable *out)
{
  memset (out, 0, sizeof *out);
  const FsPersistentVolume *pv = claim->volume_name != NULL
                                     ? fs_snapshot_find_persistent_volume (snapshot, claim->volume_name)
                                     : NULL;
  if (pv != NULL)
    {
      if (pv->csi_driver == NULL || pv->csi_handle == NULL)
        return FALSE;
      out->driver = pv->csi_driver;
      out->handle = pv->csi_handle;
      return TRUE;
    }
  if (claim->storage_class == NULL)
    return FALSE;
  const FsStorageClass *class = fs_snapshot_find_storage_class (snapshot, claim->storage_class);
  if (class == NULL || class->provisioner == NULL || class->provisioner[0] == '\0'
      || g_str_has_prefix (class->provisioner, "kubernetes.io/"))
    return FALSE;
  out->driver = class->provisioner;
  out->unbound_claim = claim;
  return TRUE;
}

static gboolean
attachable_equal (const Attachable *a, const Attachable *b)
{
  if (!str_eq (a->driver, b->driver))
    return FALSE;
  if (a->unbound_claim != NULL || b->unbound_claim != NULL)
    return a->unbound_claim == b->unbound_claim;
  return str_eq (a->handle, b->handle);
}

/* csi.go filterAttachableVolumes: adds POD's claim volumes to SET, each unique volume once. */
static void
add_attachable (const FsSnapshot *snapshot, const char *namespace, const char *pod_name,
                const FsVolumeList *volumes, GArray *set)
{
  for (guint i = 0; i < volumes->n; i++)
    {
      const FsClaim *claim = claim_of (snapshot, namespace, &volumes->items[i], pod_name);
      Attachable volume;
      if (claim == NULL || !attachable_of (snapshot, claim, &volume))
        continue;
      gboolean seen = FALSE;
      for (guint k = 0; k < set->len && !seen; k++)
        seen = attachable_equal (&g_array_index (set, Attachable, k), &volume);
      if (!seen)
        g_array_append_val (set, volume);
    }
}

/* csi.go getVolumeLimits: the CSINode's drivers with allocatable.count. */
static gboolean
driver_limit (const FsCsiNode *csi_node, const char *driver, int64_t *limit)
{
  for (guint i = 0; csi_node != NULL && i < csi_node->n_drivers; i++)
    if (csi_node->drivers[i].has_count && str_eq (csi_node->drivers[i].name, driver))
      {
        *limit = csi_node->drivers[i].count;
        return TRUE;
      }
  return FALSE;
}

/* nodevolumelimits/csi.go CSILimits.Filter: per driver, the volumes of the pods on the node
 * plus the pod's new ones (a volume the node already has counts once) must stay within the
 * CSINode's allocatable count; Unschedulable.  (VolumeAttachments are not read.) */
static gboolean
csi_limits (const FsSnapshot *snapshot, const FsNode *node, const FsPodShape *pod,
            FsVerdict *verdict)
{
  if (snapshot == NULL || !has (snapshot, FS_STORAGE_CLAIMS))
    return TRUE;
  const FsCsiNode *csi_node = fs_snapshot_find_csi_node (snapshot, node->name);
  if (csi_node == NULL)
    return TRUE;
  g_autoptr (GArray) new_volumes = g_array_new (FALSE, FALSE, sizeof (Attachable));
  add_attachable (snapshot, pod->namespace, pod->name, pod->spec->volumes, new_volumes);
  if (new_volumes->len == 0)
    return TRUE;
  g_autoptr (GArray) attached = g_array_new (FALSE, FALSE, sizeof (Attachable));
  for (guint p = 0; node->volume_pods != NULL && p < node->volume_pods->n; p++)
    {
      const FsPod *other = node->volume_pods->items[p];
      add_attachable (snapshot, other->namespace, other->name, other->spec->volumes, attached);
    }
  for (guint i = 0; i < new_volumes->len; i++)
    {
      const Attachable *volume = &g_array_index (new_volumes, Attachable, i);
      int64_t limit;
      if (!driver_limit (csi_node, volume->driver, &limit))
        continue;
      int64_t count = 0;
      gboolean already = FALSE;
      for (guint k = 0; k < attached->len; k++)
        {
          const Attachable *other = &g_array_index (attached, Attachable, k);
          count += str_eq (other->driver, volume->driver);
          already = already || attachable_equal (other, volume);
        }
      if (already)
        continue; /* not a new volume: its driver is checked only for new ones */
      for (guint k = 0; k < new_volumes->len; k++)
        {
          const Attachable *other = &g_array_index (new_volumes, Attachable, k);
          gboolean on_node = FALSE;
          for (guint a = 0; a < attached->len && !on_node; a++)
            on_node = attachable_equal (&g_array_index (attached, Attachable, a), other);
          count += str_eq (other->driver, volume->driver) && !on_node;
        }
      if (count > limit)
        {
          verdict->filter = FS_FILTER_NODE_VOLUME_LIMITS;
          verdict->detail = FS_DETAIL_MAX_VOLUME_COUNT;
          return FALSE;
        }
    }
  return TRUE;
}

/* ---------------------------------------------------------------------------------------------
 * VolumeBinding */

/* component-helpers/storage/volume pv_helpers.go IsVolumeBoundToClaim (by namespace and name:
 * fitscale keeps no UIDs). */
static gboolean
volume_bound_to_claim (const FsPersistentVolume *pv, const FsClaim *claim)
{
  return pv->claim_name != NULL && str_eq (pv->claim_name, claim->name)
         && str_eq (pv->claim_namespace, claim->namespace);
}

/* pv_helpers.go CheckAccessModes: every mode the claim asks for is one the volume has. */
static gboolean
access_modes_fit (const FsClaim *claim, const FsPersistentVolume *pv)
{
  return (claim->access_modes & ~pv->access_modes) == 0;
}

/* pv_helpers.go FindMatchingVolume, on the scheduler's path (a node, delayed binding): the
 * volume pre-bound to the claim when its node affinity fits, else the smallest Available one
 * of the claim's class that is big enough, of its volume mode, matches its selector, access
 * modes and NODE, and is not in CHOSEN; NULL when none.  (VolumeAttributesClass is not read.) */
static const FsPersistentVolume *
find_matching_volume (const FsSnapshot *snapshot, const FsClaim *claim, const FsNode *node,
                      GPtrArray *chosen)
{
  const FsPersistentVolume *smallest = NULL;
  for (guint i = 0; i < snapshot->n_persistent_volumes; i++)
    {
      const FsPersistentVolume *pv = &snapshot->persistent_volumes[i];
      if (!str_eq (pv->storage_class, claim->storage_class)) /* pvCache.ListPVs(class) */
        continue;
      gboolean excluded = FALSE;
      for (guint k = 0; k < chosen->len && !excluded; k++)
        excluded = chosen->pdata[k] == pv;
      if (excluded || (pv->claim_name != NULL && !volume_bound_to_claim (pv, claim)))
        continue;
      if (pv->capacity_bytes < claim->request_bytes || pv->block != claim->block || pv->terminating)
        continue;
      gboolean affinity_fits = pv_node_affinity_matches (pv, node);
      if (volume_bound_to_claim (pv, claim))
        return affinity_fits ? pv : NULL;
      if (!pv->available)
        continue;
      if (claim->selector != NULL && !fs_selector_matches (claim->selector, pv->labels))
        continue;
      if (!affinity_fits || !access_modes_fit (claim, pv))
        continue;
      if (smallest == NULL || smallest->capacity_bytes > pv->capacity_bytes)
        smallest = pv;
    }
  return smallest;
}

/* apis/core/v1/helper MatchTopologySelectorTerms: no term matches every node; a term matches
 * when each of its expressions (key In values) does. */
static gboolean
topology_matches (const FsNodeSelector *terms, const FsNode *node)
{
  if (terms == NULL || terms->n == 0)
    return TRUE;
  for (guint t = 0; t < terms->n; t++)
    {
      const FsRequirementList *exprs = terms->terms[t].match_expressions;
      if (exprs == NULL || exprs->n == 0)
        continue;
      gboolean all = TRUE;
      for (guint e = 0; e < exprs->n && all; e++)
        all = fs_requirement_matches (&exprs->items[e], node->labels);
      if (all)
        return TRUE;
    }
  return FALSE;
}

/* binder.go checkVolumeProvisions for one claim: its class can provision (a provisioner that
 * is not kubernetes.io/no-provisioner) and allows NODE's topology.  (Storage capacity
 * tracking, CSIStorageCapacity, is not read: capacity is taken as sufficient.) */
static gboolean
can_provision (const FsSnapshot *snapshot, const FsClaim *claim, const FsNode *node)
{
  const FsStorageClass *class = claim->storage_class != NULL
                                    ? fs_snapshot_find_storage_class (snapshot, claim->storage_class)
                                    : NULL;
  if (class == NULL || class->provisioner == NULL || class->provisioner[0] == '\0'
      || strcmp (class->provisioner, "kubernetes.io/no-provisioner") == 0)
    return FALSE;
  return topology_matches (class->allowed_topologies, node);
}

static int
compare_claim_size (gconstpointer a, gconstpointer b)
{
  const FsClaim *x = *(const FsClaim *const *) a, *y = *(const FsClaim *const *) b;
  return x->request_bytes < y->request_bytes ? -1 : x->request_bytes > y->request_bytes;
}

/* binder.go FindPodVolumes: bound claims' volumes must fit NODE (checkBoundClaims: the first
 * missing volume or mismatch ends the check); unbound WaitForFirstConsumer claims need a
 * selected node equal to NODE, or an available volume (findMatchingVolumes, smallest claims
 * first) or else a class that can provision here.  Returns FsVolumeReasons. */
static guint32
find_pod_volumes (const FsSnapshot *snapshot, const FsNode *node, const FsPodShape *pod)
{
  gboolean classes_known = has (snapshot, FS_STORAGE_CLASSES);
  guint32 reasons = 0;
  const FsVolumeList *volumes = pod->spec->volumes;
  g_autoptr (GPtrArray) delayed = g_ptr_array_new ();
  for (guint i = 0; i < volumes->n; i++)
    {
      const FsClaim *claim = claim_of (snapshot, pod->namespace, &volumes->items[i], pod->name);
      if (claim == NULL)
        continue;
      if (!claim_fully_bound (claim))
        {
          if (classes_known) /* else its binding mode is not known (binding_prefilter) */
            g_ptr_array_add (delayed, (gpointer) claim);
          continue;
        }
      if (reasons != 0)
        continue;
      const FsPersistentVolume *pv = fs_snapshot_find_persistent_volume (snapshot, claim->volume_name);
      if (pv == NULL)
        reasons |= FS_VOLUME_PV_NOT_EXIST;
      else if (!pv_node_affinity_matches (pv, node))
        reasons |= FS_VOLUME_NODE_CONFLICT;
    }
  if (delayed->len == 0)
    return reasons;
  g_autoptr (GPtrArray) to_match = g_ptr_array_new ();
  for (guint i = 0; i < delayed->len; i++)
    {
      const FsClaim *claim = delayed->pdata[i];
      if (claim->selected_node == NULL)
        g_ptr_array_add (to_match, (gpointer) claim);
      else if (!str_eq (claim->selected_node, node->name))
        return reasons | FS_VOLUME_BIND_CONFLICT; /* the fast path: nothing else checked */
    }
  g_ptr_array_sort (to_match, compare_claim_size);
  g_autoptr (GPtrArray) chosen = g_ptr_array_new ();
  gboolean satisfied = TRUE;
  for (guint i = 0; i < delayed->len; i++)
    {
      const FsClaim *claim = delayed->pdata[i];
      gboolean matching = FALSE;
      for (guint k = 0; k < to_match->len && !matching; k++)
        matching = to_match->pdata[k] == claim;
      if (matching)
        continue;
      satisfied = satisfied && can_provision (snapshot, claim, node); /* a selected node */
    }
  for (guint i = 0; i < to_match->len; i++)
    {
      const FsClaim *claim = to_match->pdata[i];
      const FsPersistentVolume *pv = find_matching_volume (snapshot, claim, node, chosen);
      if (pv != NULL)
        g_ptr_array_add (chosen, (gpointer) pv);
      else
        satisfied = satisfied && can_provision (snapshot, claim, node);
    }
  return satisfied ? reasons : reasons | FS_VOLUME_BIND_CONFLICT;
}

/* volume_binding.go Filter: FindPodVolumes' reasons, UnschedulableAndUnresolvable. */
static gboolean
volume_binding (const FsSnapshot *snapshot, const FsNode *node, const FsPodShape *pod,
                FsVerdict *verdict)
{
  if (snapshot == NULL || !has (snapshot, FS_STORAGE_CLAIMS | FS_STORAGE_VOLUMES))
    return TRUE;
  guint32 reasons = find_pod_volumes (snapshot, node, pod);
  if (reasons == 0)
    return TRUE;
  verdict->filter = FS_FILTER_VOLUME_BINDING;
  verdict->detail = FS_DETAIL_VOLUME_BINDING;
  verdict->volume_reasons = reasons;
  verdict->unresolvable = TRUE;
  return FALSE;
}

/* ---------------------------------------------------------------------------------------------
 * VolumeZone */

static const char *const topology_labels[] = {
  "failure-domain.beta.kubernetes.io/zone",   /* v1.LabelFailureDomainBetaZone */
  "failure-domain.beta.kubernetes.io/region", /* v1.LabelFailureDomainBetaRegion */
  "topology.kubernetes.io/zone",              /* v1.LabelTopologyZone */
  "topology.kubernetes.io/region",            /* v1.LabelTopologyRegion */
};

/* volume_zone.go translateToGALabel. */
static const char *
ga_label (const char *label)
{
  if (strcmp (label, topology_labels[1]) == 0)
    return topology_labels[3];
  if (strcmp (label, topology_labels[0]) == 0)
    return topology_labels[2];
  return label;
}

/* cloud-provider volume/helpers LabelZonesToSet: VALUE split at "__", each part trimmed; FALSE
 * (the label is ignored) when a part is empty.  WANTED in it sets *FOUND. */
static gboolean
zones_contain (const char *value, const char *wanted, gboolean *found)
{
  *found = FALSE;
  g_auto (GStrv) parts = g_strsplit (value, "__", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      g_strstrip (parts[i]);
      if (parts[i][0] == '\0')
        return FALSE;
      *found = *found || (wanted != NULL && strcmp (parts[i], wanted) == 0);
    }
  return TRUE;
}

/* volume_zone.go Filter: a node with any topology label must carry each zone or region label
 * of the pod's bound volumes (the beta key or its GA one) with a value among the volume's;
 * UnschedulableAndUnresolvable. */
static gboolean
volume_zone (const FsSnapshot *snapshot, const FsNode *node, const FsPodShape *pod,
             FsVerdict *verdict)
{
  if (snapshot == NULL || !has (snapshot, FS_STORAGE_CLAIMS | FS_STORAGE_VOLUMES))
    return TRUE;
  gboolean node_has_any = FALSE;
  const char *ignored;
  for (gsize i = 0; i < G_N_ELEMENTS (topology_labels); i++)
    node_has_any = node_has_any || fs_labels_lookup (node->labels, topology_labels[i], &ignored);
  if (!node_has_any)
    return TRUE;
  const FsVolumeList *volumes = pod->spec->volumes;
  for (guint i = 0; i < volumes->n; i++)
    {
      if (volumes->items[i].type != FS_VOLUME_CLAIM)
        continue;
      const FsClaim *claim = claim_of (snapshot, pod->namespace, &volumes->items[i], NULL);
      const FsPersistentVolume *pv = claim != NULL && claim->volume_name != NULL
                                         ? fs_snapshot_find_persistent_volume (snapshot, claim->volume_name)
                                         : NULL;
      for (gsize k = 0; pv != NULL && k < G_N_ELEMENTS (topology_labels); k++)
        {
          const char *pv_value, *node_value = NULL;
          if (!fs_labels_lookup (pv->labels, topology_labels[k], &pv_value))
            continue;
          gboolean found;
          if (!zones_contain (pv_value, NULL, &found))
            continue;
          if (!fs_labels_lookup (node->labels, topology_labels[k], &node_value))
            fs_labels_lookup (node->labels, ga_label (topology_labels[k]), &node_value);
          zones_contain (pv_value, node_value, &found);
          if (node_value == NULL || !found)
            {
              verdict->filter = FS_FILTER_VOLUME_ZONE;
              verdict->detail = FS_DETAIL_VOLUME_ZONE;
              verdict->unresolvable = TRUE;
              return FALSE;
            }
        }
    }
  return TRUE;
}

/* ---------------------------------------------------------------------------------------------
 * The Filters in order */

/* pkg/scheduler/apis/config/v1/default_plugins.go: after NodeResourcesFit come
 * VolumeRestrictions, NodeVolumeLimits, VolumeBinding, VolumeZone. */
gboolean
fs_volumes_filter (const FsSnapshot *snapshot, const FsNode *node, const FsPodShape *pod,
                   FsVerdict *verdict)
{
  if (pod->spec == NULL || pod->spec->volumes == NULL)
    return TRUE;
  const FsSchedulerProfile *profile = pod->profile;
  return (!fs_scheduler_profile_runs (profile, FS_FILTER_VOLUME_RESTRICTIONS)
          || volume_restrictions (snapshot, node, pod, verdict))
         && (!fs_scheduler_profile_runs (profile, FS_FILTER_NODE_VOLUME_LIMITS)
             || csi_limits (snapshot, node, pod, verdict))
         && (!fs_scheduler_profile_runs (profile, FS_FILTER_VOLUME_BINDING)
             || volume_binding (snapshot, node, pod, verdict))
         && (!fs_scheduler_profile_runs (profile, FS_FILTER_VOLUME_ZONE)
             || volume_zone (snapshot, node, pod, verdict));
}
