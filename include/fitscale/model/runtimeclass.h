/* fitscale — RuntimeClass (node.k8s.io/v1) and what its admission does to a pod.
 *
 * plugin/pkg/admission/runtimeclass/admission.go sets a new pod's spec.overhead from the
 * RuntimeClass its runtimeClassName names (setOverhead) and merges the class's
 * scheduling.nodeSelector and tolerations into it (setScheduling).  Pods read from the API
 * server went through it; workload templates did not, so the snapshot applies the overhead
 * to them when it is built, and the answers warn about what it cannot apply. */
#pragma once

#include <glib.h>

#include "fitscale/model/objects.h"

G_BEGIN_DECLS

/* What fitscale reads of a RuntimeClass (its generic object, FS_KIND_RUNTIME_CLASS). */
typedef struct {
  const char *name;
  gboolean has_overhead;        /* overhead.podFixed given */
  FsResources overhead;         /* overhead.podFixed */
  const FsLabelSet *node_selector;       /* scheduling.nodeSelector, NULL when none */
  const FsTolerationList *tolerations;   /* scheduling.tolerations, NULL when none */
} FsRuntimeClass;

/* The RuntimeClass NAME (cluster-scoped) of SNAPSHOT, or NULL. */
const FsGenericObject *fs_snapshot_find_runtime_class (const FsSnapshot *snapshot, const char *name);
/* Reads OBJECT into OUT (names interned in POOL); FALSE with FS_ERROR_INVALID naming the
 * field when overhead.podFixed holds what is not a quantity. */
gboolean fs_runtime_class_read (const FsGenericObject *object, FsPool *pool, FsRuntimeClass *out,
                                GError **error);
/* Why RuntimeClass admission refuses pods of SPEC (setOverhead, validateOverhead: an overhead
 * of their own that is not the class's; setScheduling: a nodeSelector key the class gives
 * another value), for people (caller frees); NULL when it admits them. */
char *fs_runtime_class_refusal (const FsRuntimeClass *runtime_class, const FsPodSpec *spec);
/* SPEC as RuntimeClass admission leaves it when it names a RuntimeClass of SNAPSHOT: the
 * class's overhead.podFixed as its overhead, added to its effective request, unless it has
 * one of its own (setOverhead); the class's scheduling.nodeSelector and tolerations merged
 * into its own (setScheduling).  Nothing when admission would refuse the pods
 * (fs_runtime_class_refusal), nor when the class's overhead does not fit a request (more
 * extended resources than it holds, which the API server allows): that never fails a snapshot
 * or stops a live cache's batches; the answers warn instead (plan/completeness.c).  A copy in
 * POOL, or SPEC itself when nothing changes; NULL with ERROR naming the field when the class
 * holds what is not a quantity (a file written by hand: the API server refuses it). */
const FsPodSpec *fs_pod_spec_with_runtime_class (const FsSnapshot *snapshot, FsPool *pool,
                                                 const FsPodSpec *spec, GError **error);
/* Applies fs_pod_spec_with_runtime_class to the templates of SNAPSHOT's workloads and, with
 * PODS_TOO, to its Pods (those written by hand lack what admission adds; a Pod with a resize
 * is left as read), during the build: before the snapshot is shared and its pods counted. */
gboolean fs_snapshot_apply_runtime_classes (FsSnapshot *snapshot, gboolean pods_too, GError **error);

G_END_DECLS
