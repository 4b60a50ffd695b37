/* fitscale — POST /v1/admit: admission.k8s.io/v1 AdmissionReview in and out, for the
 * decisions of plan/admit.h (docs/admission.md, docs/api.md).
 *
 * The review is read strictly: apiVersion admission.k8s.io/v1, kind AdmissionReview, only the
 * fields of AdmissionReview and AdmissionRequest (k8s.io/api admission/v1 types.go), each of
 * its type; anything else is a 400 Status naming the field.  The answer echoes the uid and
 * carries allowed, warnings, a base64 JSON Patch (patchType JSONPatch), a Status when denied,
 * and the verdict as the audit annotation fitscale.io/verdict.  Decisions are counted by
 * verdict and mode for /metrics. */
#pragma once

#include <glib.h>

#include "fitscale/model/objects.h"
#include "fitscale/plan/admit.h"
#include "fitscale/server/server.h"

G_BEGIN_DECLS

typedef struct FsAdmitter FsAdmitter;

/* An admitter with OPTIONS (copied, exempt users included). */
FsAdmitter *fs_admitter_new (const FsAdmitOptions *options);
void fs_admitter_free (FsAdmitter *admitter);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FsAdmitter, fs_admitter_free)

/* Answers the AdmissionReview BODY (a parsed JSON object) on STATE. */
void fs_admitter_answer (FsAdmitter *admitter, const FsAdmitSnapshot *state, const FsTree *body,
                         FsHttpResponse *response);

/* fitscale_admission_reviews_total{verdict,mode} in the Prometheus text format. */
void fs_admitter_append_metrics (FsAdmitter *admitter, GString *out);

G_END_DECLS
