/* fitscale — decoding VerticalPodAutoscalers and Hvpas from the generic trees a snapshot
 * keeps of them (FsTree, model/objects.h) into the model's structs (model/hvpa.h), and the
 * scale target reference of every autoscaler object.  What is decoded points into the
 * snapshot. */
#pragma once

#include <glib.h>

#include "fitscale/model/hvpa.h"
#include "fitscale/model/objects.h"

G_BEGIN_DECLS

/* Reads HVPA (an FS_KIND_HVPA generic object): its spec in either layout, the selectors of
 * its HPA and VPA, its VPA template's container policies and its status.  Errors name the
 * field (the caller names the Hvpa).  OUT is to be cleared with fs_hvpa_object_clear, also
 * after an error. */
gboolean fs_hvpa_object_read (const FsGenericObject *hvpa, FsHvpaObject *out, GError **error);

/* Reads VPA (an FS_KIND_VPA generic object): its recommendation, container policies and
 * conditions.  Errors name the field; clear OUT with fs_vpa_object_clear, also after an
 * error. */
gboolean fs_vpa_object_read (const FsGenericObject *vpa, FsVpaObject *out, GError **error);

/* A VPA's spec.updatePolicy.updateMode ("Off", "Initial", "Recreate", "Auto",
 * "InPlaceOrRecreate", "InPlace"), or NULL when absent. */
const char *fs_vpa_update_mode (const FsGenericObject *vpa);

/* Sets OBJECT's target_kind and target_name from its tree: spec.scaleTargetRef for an HPA,
 * spec.targetRef for a VPA or an Hvpa (the decoder calls it as it adds the object). */
void fs_autoscaler_target_read (FsGenericObject *object);

G_END_DECLS
