/* fitscale — the pod shape a question is about, from flags, a workload or a file.
 *
 * An FsShape owns an FsPool holding the pod spec it builds (or a reference to the snapshot
 * it borrows the spec from), so the FsPodShape inside stays valid until fs_shape_free. */
#pragma once

#include <glib.h>

#include "fitscale/model/fit.h"
#include "fitscale/model/objects.h"

G_BEGIN_DECLS

typedef struct FsShape FsShape;

typedef struct {
  const char *request;         /* "cpu=500m,memory=3Gi,nvidia.com/gpu=1" */
  char **node_selector;        /* "key=value" each */
  char **tolerations;          /* "key[=value][:Effect]", "key:Exists"-like; "*" tolerates all */
  const char *namespace;       /* for --request shapes and name lookups */
} FsShapeFlags;

/* A shape from --request and the selector/toleration flags. */
FsShape *fs_shape_from_flags (const FsShapeFlags *flags, GError **error);
/* A shape from KIND/NAME (deployment/web, statefulset/db, replicaset/x, pod/y) in the
 * snapshot; the flags' selectors and tolerations are added to its own. */
FsShape *fs_shape_from_object (const FsSnapshot *snapshot, const char *reference,
                               const FsShapeFlags *flags, GError **error);
/* A shape from the first Pod, Deployment, StatefulSet or ReplicaSet in PATH. */
FsShape *fs_shape_from_file (const char *path, const FsShapeFlags *flags, GError **error);
/* SHAPE's spec as admission in SNAPSHOT's cluster would leave it: its RuntimeClass's overhead
 * and scheduling applied (model/runtimeclass.h); FALSE when the class is malformed. */
gboolean fs_shape_apply_runtime_class (FsShape *shape, const FsSnapshot *snapshot, GError **error);
void fs_shape_free (FsShape *shape);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FsShape, fs_shape_free)

const FsPodShape *fs_shape_pod (const FsShape *shape);
/* "deployment/web" or "cpu=500m,memory=3Gi": what the shape was made from. */
const char *fs_shape_describe (const FsShape *shape);
/* The workload the shape came from, or NULL. */
const FsWorkload *fs_shape_workload (const FsShape *shape);
/* POD as SNAPSHOT's scheduler configuration (--scheduler-config) judges it: with its
 * schedulerName's profile and, under PodTopologySpread's List defaulting, the profile's
 * default constraints selecting what SELECTOR (its workload's selector, NULL for none)
 * selects.  *OWNED (NULL when none) is the default constraint list, for the caller to
 * g_free once done with the result. */
FsPodShape fs_shape_judged (const FsSnapshot *snapshot, const FsPodShape *pod,
                            const FsLabelSelector *selector, FsSpreadList **owned);
/* FALSE with FS_ERROR_INVALID naming WHAT ("deployment/web") when SNAPSHOT's scheduler
 * configuration has no profile for the schedulerName of SPEC's pods: no scheduler of it would
 * place them, and fitscale does not judge them by the default profile instead. */
gboolean fs_shape_check_scheduler (const FsSnapshot *snapshot, const FsPodSpec *spec,
                                   const char *what, GError **error);
/* Parses "cpu=500m,memory=3Gi" into RESOURCES (names interned in POOL). */
gboolean fs_parse_resource_list (const char *text, FsPool *pool, FsResources *resources,
                                 GError **error);

G_END_DECLS
