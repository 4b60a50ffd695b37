/* fitscale — the plan's answer: its document (docs/api.md, "POST /v1/plan"), what
 * `fitscale plan -o json|yaml` prints and what the service answers (with its snapshot key
 * first); its text, what `fitscale plan` prints, and the curve of `plan --curve`; and the
 * strategic merge patch of `plan --apply-patch`, as a document and as the kubectl command
 * that applies it.  Each writes into an emitter or a FILE the caller owns; nothing is kept. */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "fitscale/plan/plan.h"
#include "fitscale/render/output.h"

G_BEGIN_DECLS

/* The plan document: one map of the fields below. */
void fs_render_plan (FsEmitter *emitter, const FsPlanAnswer *answer);
/* The plan's keys, inside a map the caller opened (the service adds "snapshot" first). */
void fs_render_plan_fields (FsEmitter *emitter, const FsPlanAnswer *answer);
/* The patch that applies the plan: {"spec": {"replicas", ["strategy"], "template"}}. */
void fs_render_plan_patch (FsEmitter *emitter, const FsPlanAnswer *answer);
/* --apply-patch: `kubectl patch ... -p 'PATCH'`, after comments on the HPA that owns
 * spec.replicas and on a plan that does not serve the whole demand. */
void fs_render_plan_patch_command (FILE *out, const FsPlanAnswer *answer);

/* The workload, its HPA, VPA and Hvpa; a row each for the current state, the HVPA point, the
 * plan (and the plan as configured); the outcome, why the HVPA point leaves pods Pending and
 * the nodes that would hold it; the rollout; the alternatives; the reason. */
void fs_render_plan_table (FILE *out, const FsPlanAnswer *answer);
/* --curve: per container resource the VPA moves, the HVPA curve against the largest request
 * that schedules at each replica count, as a table and an ASCII chart. */
void fs_render_plan_curve (FILE *out, const FsPlanAnswer *answer);

G_END_DECLS
