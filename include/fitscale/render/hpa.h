/* fitscale — the answer of `fitscale hpa`: what the HorizontalPodAutoscaler computes, metric
 * by metric, as text with a table or as a JSON/YAML document.  Reads the answer
 * plan/hpaexplain.h computes; the caller owns it, the emitter and the FILE. */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "fitscale/plan/hpaexplain.h"
#include "fitscale/render/output.h"

G_BEGIN_DECLS

/* One map: the HPA, its metrics (values, ratios, proposals, pods counted), the winning
 * metric, and the decision now and once the stabilization windows pass. */
void fs_render_hpa (FsEmitter *emitter, const FsHpaAnswer *answer);
/* A sentence on the HPA, a row per metric, the pods not counted as ready, the winner and
 * the decision, and the capacity command to run when it scales up. */
void fs_render_hpa_table (FILE *out, const FsHpaAnswer *answer);

G_END_DECLS
