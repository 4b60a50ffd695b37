/* fitscale — label selectors as written on the command line (kubectl -l).
 *
 * k8s.io/apimachinery/pkg/labels selector.go Parse: terms joined by commas, each
 * "key", "!key", "key=value", "key==value", "key!=value", "key in (a,b)", "key notin (a,b)",
 * "key>N" or "key<N", keys and values validated as upstream does.  The result is an
 * FsLabelSelector (all terms as match expressions) that fit.h's fs_selector_matches reads;
 * the caller owns it and frees it with fs_label_selector_free, as one built from its parts. */
#pragma once

#include <glib.h>

#include "fitscale/model/objects.h"

G_BEGIN_DECLS

/* NULL with an error quoting TEXT when it does not parse.  An empty TEXT selects everything. */
FsLabelSelector *fs_label_selector_parse (const char *text, GError **error);
/* metav1.LabelSelector from its parts, as a decoder read them: LABELS (any order) and
 * REQUIREMENTS, copied (strings too; a NULL string stays NULL). */
FsLabelSelector *fs_label_selector_new (const FsLabel *labels, guint n_labels,
                                        const FsRequirement *requirements, guint n_requirements);
void fs_label_selector_free (FsLabelSelector *selector);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FsLabelSelector, fs_label_selector_free)

G_END_DECLS
