/* fitscale — decoding HorizontalPodAutoscalers and metric values from the generic trees a
 * snapshot keeps of them (FsTree, model/objects.h) into the model's structs (model/hpa.h).
 * autoscaling/v2 is read, v2beta2 as v2, and v2beta1's targetAverageUtilization /
 * targetAverageValue too, as Hvpa templates still use them.  The defaults are the model's
 * (fs_hpa_spec_init).  What is decoded points into the snapshot. */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "fitscale/model/hpa.h"
#include "fitscale/model/objects.h"

G_BEGIN_DECLS

/* Reads OBJECT (an FS_KIND_HPA generic object), spec and status.  Errors name the HPA and
 * the field. */
gboolean fs_hpa_spec_read (const FsGenericObject *object, FsHpaSpec *spec, GError **error);

/* Reads OBJECT's status alone into SPEC's status fields (and the current values of the
 * metrics SPEC already holds); what does not parse is left out.  fs_hpa_spec_read calls it. */
void fs_hpa_status_read (const FsGenericObject *object, FsHpaSpec *spec);

/* minReplicas at MIN_PATH (default FS_HPA_DEFAULT_MIN_REPLICAS) and maxReplicas at MAX_PATH
 * (required: MAX_MISSING is the error when it is absent) below TREE, an HPA spec or an Hvpa's
 * HPA template. */
gboolean fs_hpa_replicas_read (const FsTree *tree, const char *min_path, const char *max_path,
                               const char *max_missing, int32_t *min_replicas,
                               int32_t *max_replicas, GError **error);

/* Reads ITEM (an FS_KIND_METRIC_VALUE or FS_KIND_EXTERNAL_METRIC_VALUE generic object). */
void fs_metric_value_read (const FsGenericObject *item, FsMetricValue *value);

G_END_DECLS
