/* fitscale — opening a live source: the cluster that kubectl's connection flags and the
 * kubeconfig point to (kubeconfig.h), listed into a watch cache (watch.h) that later
 * watches keep current.  The commands take one snapshot of it (or answer again as it
 * changes, why --watch); the service's watch thread keeps it current.  An FsKubeLive owns
 * its client and its cache; the cache's snapshots outlive it. */
#pragma once

#include <glib.h>

#include "fitscale/kube/client.h"
#include "fitscale/kube/kubeconfig.h"
#include "fitscale/kube/watch.h"

G_BEGIN_DECLS

typedef struct {
  FsKubeClient *client;
  FsKubeCache *cache;           /* listed once: fs_kube_cache_snapshot has the cluster */
  char *context_namespace;      /* the kubeconfig context's namespace, NULL if none */
  GPtrArray *skipped;           /* names of the optional APIs the cluster does not serve */
} FsKubeLive;

/* Connects as FLAGS say and lists RESOURCES (FsKubeResources) into a new cache; PROGRESS
 * (NULL: none) hears of every list that takes over a second (fs_kube_client_set_progress),
 * then and later.  NULL and an error when the configuration, the connection or a list
 * fails. */
FsKubeLive *fs_kube_live_open (const FsConnectionFlags *flags, guint resources, FsKubeProgress progress,
                               gpointer progress_data, GError **error);
void fs_kube_live_free (FsKubeLive *live);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FsKubeLive, fs_kube_live_free)

G_END_DECLS
