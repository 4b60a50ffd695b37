/* fitscale — decoding VerticalPodAutoscalers and Hvpas from the generic trees a snapshot
 * keeps of them (FsTree, model/objects.h) into the model's structs (model/hvpa.h), and the
 * scale target reference of every autoscaler object.  What is decoded points into the
 * snapshot. */
#pragma once

#include <glib.h>

#include "fitscale/model/objects.h"

G_BEGIN_DECLS

/* Sets OBJECT's target_kind and target_name from its tree: spec.scaleTargetRef for an HPA,
 * spec.targetRef for a VPA or an Hvpa (the decoder calls it as it adds the object). */
void fs_autoscaler_target_read (FsGenericObject *object);

G_END_DECLS
