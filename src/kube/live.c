/* fitscale — opening a live source (see include/fitscale/kube/live.h). */
#include "config.h"

#include "fitscale/kube/live.h"

FsKubeLive *
fs_kube_live_open (const FsConnectionFlags *flags, guint resources, FsKubeProgress progress,
                   gpointer progress_data, GError **error)
{
  FsRestConfig *config = fs_rest_config_load (flags, error);
  if (config == NULL)
    return NULL;
  g_autoptr (FsKubeLive) live = g_new0 (FsKubeLive, 1);
  live->context_namespace = g_strdup (config->context_namespace);
  live->skipped = g_ptr_array_new ();
  live->client = fs_kube_client_new (config, error);
  if (live->client == NULL)
    return NULL;
  if (progress != NULL)
    fs_kube_client_set_progress (live->client, progress, progress_data);
  live->cache = fs_kube_cache_new (live->client, resources);
  if (!fs_kube_cache_sync (live->cache, progress != NULL, live->skipped, error))
    return NULL;
  return g_steal_pointer (&live);
}

void
fs_kube_live_free (FsKubeLive *live)
{
  if (live == NULL)
    return;
  g_clear_pointer (&live->cache, fs_kube_cache_free);
  g_clear_pointer (&live->client, fs_kube_client_free);
  g_free (live->context_namespace);
  g_ptr_array_unref (live->skipped);
  g_free (live);
}
