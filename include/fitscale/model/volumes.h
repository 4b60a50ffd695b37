/* fitscale — kube-scheduler's volume plugins of the default profile: their PreFilter checks
 * and the Filters VolumeRestrictions, NodeVolumeLimits (CSI), VolumeBinding and VolumeZone.
 *
 * Pure functions on snapshot structs: the claims, volumes, classes and CSINodes are the ones
 * of the snapshot the node belongs to (FsNode.storage), the pods already on the node are
 * FsNode.volume_pods.  A check that needs a kind the snapshot did not read (FsStorageKinds)
 * does not run: fitscale cannot tell a missing claim from one that was not fetched.  Each
 * function fills FsVerdict (filter, detail, volume_reasons, the names a message needs) and
 * returns TRUE when the pod passes; fs_verdict_reasons (model/fit.h) words it. */
#pragma once

#include <glib.h>

#include "fitscale/model/fit.h"
#include "fitscale/model/objects.h"

G_BEGIN_DECLS

/* Lookups in a snapshot's storage (sorted arrays: binary search); NULL when absent. */
const FsClaim *fs_snapshot_find_claim (const FsSnapshot *snapshot, const char *namespace,
                                       const char *name);
const FsPersistentVolume *fs_snapshot_find_persistent_volume (const FsSnapshot *snapshot,
                                                              const char *name);
const FsStorageClass *fs_snapshot_find_storage_class (const FsSnapshot *snapshot,
                                                      const char *name);
const FsCsiNode *fs_snapshot_find_csi_node (const FsSnapshot *snapshot, const char *name);

/* Whether SPEC has volumes that use PersistentVolumeClaims (persistentVolumeClaim, ephemeral):
 * the volume filters judge them only with the snapshot's claims (FS_STORAGE_CLAIMS). */
gboolean fs_pod_spec_uses_claims (const FsPodSpec *spec);

/* The PreFilter checks of VolumeRestrictions, VolumeBinding and VolumeZone, in the default
 * profile's order, and VolumeBinding's PreFilterResult (GetEligibleNodes) for NODE: FALSE
 * with VERDICT filled when the pod is rejected before any filter runs on NODE (VERDICT
 * prefilter TRUE: on every node alike), or when NODE is not among the nodes the PreFilter
 * result names. */
gboolean fs_volumes_prefilter (const FsSnapshot *snapshot, const FsNode *node,
                               const FsPodShape *pod, FsVerdict *verdict);

/* The Filters, in order: VolumeRestrictions, NodeVolumeLimits, VolumeBinding, VolumeZone.
 * TRUE when NODE passes them all. */
gboolean fs_volumes_filter (const FsSnapshot *snapshot, const FsNode *node,
                            const FsPodShape *pod, FsVerdict *verdict);

G_END_DECLS
