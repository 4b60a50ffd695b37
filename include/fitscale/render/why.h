/* fitscale — the diagnosis of a Pending pod: its document (docs/api.md, "GET /v1/why"),
 * what `fitscale why -o json|yaml` prints, one per pod, and what the service answers; and
 * its text, what `fitscale why` prints, with the lines `why --all` and `why --watch` print
 * between answers.  Writes into an emitter or a FILE the caller owns; nothing is kept. */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "fitscale/model/objects.h"
#include "fitscale/plan/why.h"
#include "fitscale/render/output.h"

G_BEGIN_DECLS

/* One map: the pod, the scheduler's message and the recorded one, per node the filters'
 * verdict, the free room and the fixes; SIMILAR > 0 counts the owner's other Pending pods
 * with the same spec. */
void fs_render_diagnosis (FsEmitter *emitter, const FsSnapshot *snapshot, const FsDiagnosis *diagnosis,
                          guint similar);
/* The pod and its request, then whether it fits now, or the scheduler's message beside the
 * recorded one, a row per node (the first 30 unless WIDE) with the first failing filter and
 * the shortfall, the room in total and in one piece, and the fixes. */
void fs_render_diagnosis_table (FILE *out, const FsSnapshot *snapshot, const FsDiagnosis *diagnosis,
                                guint similar, gboolean wide);
/* `why --all`: the line between two diagnoses, and the answer when no pod is Pending
 * (NAMESPACE NULL: in any namespace). */
void fs_render_diagnosis_separator (FILE *out);
void fs_render_no_pending (FILE *out, const char *namespace);
/* After why --all: one line by cause, "7 Pending in 3 owners: 4 memory, 2 taint, 1 not
 * modelled".  Add each diagnosis with the Pending pods like it (SIMILAR), then print. */
typedef struct FsWhySummary FsWhySummary;
FsWhySummary *fs_why_summary_new (void);
void fs_why_summary_add (FsWhySummary *summary, const FsDiagnosis *diagnosis, guint similar);
void fs_why_summary_print (FILE *out, const FsWhySummary *summary);
void fs_why_summary_free (FsWhySummary *summary);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FsWhySummary, fs_why_summary_free)
/* `why --all`: the COUNT Pending pods it left out because they are bound (FIRST one of them):
 * they wait for their kubelet, and `why` on one says what for. */
void fs_render_bound_pending (FILE *out, guint count, const FsPod *first);
/* `why --watch`: the line before each answer after the first, at NOW. */
void fs_render_cluster_changed (FILE *out, GDateTime *now);

G_END_DECLS
