/* fitscale — in-place resize in the answers: the `resize` section of plan's document and its
 * text, the per-pod resize patches of `plan --apply-patch` for an in-place update, and the
 * `resize` part of why's answer for a pod whose resize is Deferred or Infeasible
 * (plan/resize.h computes them; docs/resize.md shows them). */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "fitscale/plan/plan.h"
#include "fitscale/plan/resize.h"
#include "fitscale/render/output.h"

G_BEGIN_DECLS

/* "resize": null, or {update, vpaUpdateMode, evictDeferred, counts, pods by outcome,
 * largestInPlace}. */
void fs_render_resize_fields (FsEmitter *emitter, const FsResizePlan *plan);
/* The per-pod outcome of an in-place update, after plan's table (nothing when not in place). */
void fs_render_resize_table (FILE *out, const FsPlanAnswer *answer);
/* `plan --apply-patch` for an in-place update: one `kubectl patch pod --subresource resize`
 * per pod, in an order that frees room before it takes it; evictions as comments. */
void fs_render_resize_patch_commands (FILE *out, const FsPlanAnswer *answer);

/* "resize": null, or the pod's resize: recorded state, the kubelet's verdict now, desired and
 * allocated requests, the shortfall, the pods holding the room, and the fixes. */
void fs_render_resize_diagnosis_fields (FsEmitter *emitter, const FsResizeDiagnosis *diagnosis);
/* The same for people. */
void fs_render_resize_diagnosis_text (FILE *out, const FsResizeDiagnosis *diagnosis);

G_END_DECLS
