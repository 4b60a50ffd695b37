/* fitscale — the live cluster listed whole, for `fitscale snapshot`: every listing of
 * fs_kube_listings (client.h; the same paths and field selectors the live commands list),
 * kept as the API sent it and handed back item by item, each with its kind and apiVersion
 * (the API leaves them out of a list's items), without metadata.managedFields and the
 * last-applied-configuration annotation.  Secrets are never listed.
 *
 * kube/ reads the JSON; the caller writes it (render/'s emitter) through an FsDumpSink. */
#pragma once

#include <glib.h>

#include "fitscale/kube/client.h"

G_BEGIN_DECLS

/* The events of the items, as a JSON writer takes them; numbers as the API wrote them. */
typedef struct {
  void (*map_open) (gpointer data);
  void (*map_close) (gpointer data);
  void (*list_open) (gpointer data);
  void (*list_close) (gpointer data);
  void (*key) (gpointer data, const char *key);
  void (*string) (gpointer data, const char *value);
  void (*number) (gpointer data, const char *text);
  void (*boolean) (gpointer data, gboolean value);
  void (*null) (gpointer data);
} FsDumpSink;

typedef struct FsDump FsDump;

/* Lists every listing, in NAMESPACE only for the namespaced ones when NAMESPACE is not NULL,
 * and the server's version (GET /version).  An optional API the server does not serve (404)
 * or the credentials may not list (403) is skipped, its name (FS_KUBE_FORBIDDEN_PREFIX for a
 * 403) appended to SKIPPED; a list whose continue token expired (410) starts again.  Every
 * listing is read whole before it returns: an error leaves nothing half listed. */
FsDump *fs_kube_dump (FsKubeClient *client, const char *namespace, GPtrArray *skipped, GError **error);
/* The API server's gitVersion ("" when /version does not say). */
const char *fs_dump_server_version (const FsDump *dump);
/* Hands every item of DUMP to SINK, in listing order. */
void fs_dump_write_items (const FsDump *dump, const FsDumpSink *sink, gpointer data);
void fs_dump_free (FsDump *dump);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FsDump, fs_dump_free)

G_END_DECLS
