/* fitscale — the answer of `fitscale hvpa`: what the HVPA controller would apply now (stage,
 * weights, requests, blocked rules) as text with a table or as a JSON/YAML document, and the
 * request-vs-replicas curve of its weights.  Reads the answer plan/hvpaexplain.h computes
 * under SEMANTICS; the caller owns it, the emitter and the FILE. */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "fitscale/plan/hvpaexplain.h"
#include "fitscale/render/output.h"

G_BEGIN_DECLS

/* One map: the Hvpa, the stage and weights, the replicas, per container the requests,
 * limits and weighted requests, and the rules that blocked a change. */
void fs_render_hvpa (FsEmitter *emitter, const FsHvpaAnswer *answer, FsHvpaSemantics semantics);
/* A sentence on the Hvpa and its stage, a row per container resource, the blocked rules. */
void fs_render_hvpa_table (FILE *file, const FsHvpaAnswer *answer, FsHvpaSemantics semantics);
/* --curve: per container resource with a recommendation, the request against replicas
 * (minReplicas..maxReplicas, 200 at most) as a table and an ASCII chart. */
void fs_render_hvpa_curve (FILE *file, const FsHvpaAnswer *answer, FsHvpaSemantics semantics);

G_END_DECLS
