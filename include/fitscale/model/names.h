/* fitscale — Kubernetes names and label sets: the validation rules of
 * k8s.io/apimachinery/pkg/util/validation (IsQualifiedName, IsDNS1123Subdomain,
 * IsValidLabelValue), the order of an FsLabelSet and lookups in it, and the well-known label
 * keys fitscale reads in more than one place.  Pure functions, no allocation. */
#pragma once

#include <glib.h>

#include "fitscale/model/objects.h"

G_BEGIN_DECLS

/* validation.go IsDNS1123Subdomain: dot-separated [a-z0-9]([-a-z0-9]*[a-z0-9])?, at most 253. */
gboolean fs_name_is_dns1123_subdomain (const char *text, gsize len);
/* validation.go IsQualifiedName: an optional DNS-1123 subdomain prefix and '/', then
 * ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9] of at most 63 bytes. */
gboolean fs_name_is_qualified (const char *text);
/* validation.go IsValidLabelValue: empty, or a qualified name's name part. */
gboolean fs_label_value_is_valid (const char *value);

/* The node label that names the node, one topology domain per node (k8s.io/api core/v1
 * well_known_labels.go LabelHostname). */
#define FS_LABEL_HOSTNAME "kubernetes.io/hostname"

/* Whether the kubelet sets node label KEY itself and sets it back when it registers again
 * (pkg/kubelet/kubelet_node_status.go updateDefaultLabels: the hostname, zone, region,
 * instance type, os and arch labels, stable and beta): a fix never relabels a node with one. */
gboolean fs_label_is_kubelet_owned (const char *key);

/* The order of an FsLabelSet's items: by key (strcmp).  A GCompareFunc, for qsort too. */
gint fs_label_compare (gconstpointer a, gconstpointer b);
/* Whether LABELS (sorted by key) holds KEY; its value in *VALUE ("" for a NULL value). */
gboolean fs_labels_lookup (const FsLabelSet *labels, const char *key, const char **value);
/* The value of KEY in LABELS, or NULL when absent. */
const char *fs_labels_get (const FsLabelSet *labels, const char *key);

G_END_DECLS
