/* fitscale — "what would the HVPA apply now?" (fitscale hvpa).
 *
 * Gathers from a snapshot what the HVPA controller reads: the Hvpa (both the released
 * autoscaling.k8s.io/v1alpha1 layout and the design text's hpaTemplate/vpaTemplate layout),
 * its target workload, the HPA and the VPA it owns (by the target reference or by its
 * selectors), decoded by kube/hvpaspec.h and kube/hpaspec.h, and turns them into the plain
 * input of the weight rules (model/hvpa.h).  The input points into the snapshot and into the
 * answer's own arrays. */
#pragma once

#include <glib.h>

#include "fitscale/model/hvpa.h"
#include "fitscale/model/objects.h"

G_BEGIN_DECLS

#define FS_HVPA_MAX_CONTAINERS 16

typedef struct {
  const FsGenericObject *hvpa;
  const FsWorkload *target;
  const FsGenericObject *hpa;      /* NULL when none is in the snapshot */
  const FsGenericObject *vpa;
  FsHvpaInterval intervals[FS_HVPA_MAX_INTERVALS];
  FsHvpaContainer containers[FS_HVPA_MAX_CONTAINERS];
  FsHvpaVpaCondition vpa_conditions[8];
  FsHvpaInput input;
  FsHvpaContainerResult results[FS_HVPA_MAX_CONTAINERS];
  FsHvpaOutput output;
} FsHvpaAnswer;

/* Reads everything the decision needs (errors name the object and field). */
gboolean fs_hvpa_gather (const FsSnapshot *snapshot, const FsGenericObject *hvpa, int64_t now_ms,
                         FsHvpaAnswer *answer, GError **error);

/* For TARGET without an Hvpa: its HPA and VPA (found by their target references), and one
 * stage of weight VPA_WEIGHT (a fraction) over the HPA's minReplicas..maxReplicas. */
gboolean fs_hvpa_gather_workload (const FsSnapshot *snapshot, const FsWorkload *target,
                                  double vpa_weight, int64_t now_ms, FsHvpaAnswer *answer,
                                  GError **error);

/* fs_hvpa_gather, then fs_hvpa_decide. */
gboolean fs_hvpa_explain (const FsSnapshot *snapshot, const FsGenericObject *hvpa,
                          FsHvpaSemantics semantics, int64_t now_ms, FsHvpaAnswer *answer,
                          GError **error);

G_END_DECLS
