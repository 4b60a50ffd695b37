/* fitscale — the plan's answer documents (docs/api.md, "POST /v1/plan"): what
 * `fitscale plan -o json|yaml` prints and what the service answers (with its snapshot key
 * first), and the strategic merge patch of `plan --apply-patch`.  Each writes into an
 * emitter the caller owns; nothing is kept. */
#pragma once

#include <glib.h>

#include "fitscale/plan/plan.h"
#include "fitscale/render/output.h"

G_BEGIN_DECLS

/* The plan document: one map of the fields below. */
void fs_render_plan (FsEmitter *emitter, const FsPlanAnswer *answer);
/* The plan's keys, inside a map the caller opened (the service adds "snapshot" first). */
void fs_render_plan_fields (FsEmitter *emitter, const FsPlanAnswer *answer);
/* The patch that applies the plan: {"spec": {"replicas", ["strategy"], "template"}}. */
void fs_render_plan_patch (FsEmitter *emitter, const FsPlanAnswer *answer);

G_END_DECLS
