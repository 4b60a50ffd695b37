/* fitscale — VPAs and Hvpas decoded (see include/fitscale/kube/hvpaspec.h). */
#include "config.h"

#include "fitscale/kube/hvpaspec.h"
#include "fitscale/kube/tree.h"

void
fs_autoscaler_target_read (FsGenericObject *object)
{
  const char *ref = object->kind == FS_KIND_HPA ? "spec.scaleTargetRef"
                    : object->kind == FS_KIND_VPA || object->kind == FS_KIND_HVPA ? "spec.targetRef"
                                                                                  : NULL;
  const FsTree *tree = ref != NULL ? fs_tree_at (object->object, ref) : NULL;
  object->target_kind = fs_tree_text (tree, "kind");
  object->target_name = fs_tree_text (tree, "name");
}
