/* fitscale — the diagnosis document (docs/api.md, "GET /v1/why"): what
 * `fitscale why -o json|yaml` prints, one per pod, and what the service answers.  Writes
 * into an emitter the caller owns; nothing is kept. */
#pragma once

#include <glib.h>

#include "fitscale/model/objects.h"
#include "fitscale/plan/why.h"
#include "fitscale/render/output.h"

G_BEGIN_DECLS

/* One map: the pod, the scheduler's message and the recorded one, per node the filters'
 * verdict, the free room and the fixes; SIMILAR > 0 counts the owner's other Pending pods
 * with the same spec. */
void fs_render_diagnosis (FsEmitter *emitter, const FsSnapshot *snapshot, const FsDiagnosis *diagnosis,
                          guint similar);

G_END_DECLS
