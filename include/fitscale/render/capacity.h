/* fitscale — the capacity document (docs/api.md, "POST /v1/capacity"): what
 * `fitscale capacity -o json|yaml` prints and what the service answers.  Writes into an
 * emitter the caller owns; nothing is kept. */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "fitscale/plan/capacity.h"
#include "fitscale/plan/shape.h"
#include "fitscale/render/output.h"

G_BEGIN_DECLS

/* One map: the shape, the replicas that fit and what limits them, per node, the
 * fragmentation and the new nodes needed; REPLICAS >= 0 adds whether that many fit. */
void fs_render_capacity (FsEmitter *emitter, const FsSnapshot *snapshot, const FsShape *shape,
                         const FsCapacityAnswer *answer, int64_t replicas);

G_END_DECLS
