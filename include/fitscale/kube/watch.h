/* fitscale — a cache of the cluster kept current by list and watch.
 *
 * The cache lists the resources it was made for (client.h), remembers each list's
 * resourceVersion, and then watches each from there (watch=1, allowWatchBookmarks=true),
 * decoding the newline-delimited events as they arrive: ADDED and MODIFIED objects replace
 * their earlier selves, DELETED ones go, BOOKMARKs move the resume point, and a 410 ("too
 * old resource version", as an HTTP status or an ERROR event) is answered by listing again.
 * Every change makes a new immutable snapshot built on the previous one; a reader keeps the
 * reference it took for as long as it needs it.  The cache borrows its client; one thread
 * drives it, any thread may take snapshots. */
#pragma once

#include <glib.h>

#include "fitscale/model/schedconfig.h"

#include "fitscale/kube/client.h"

G_BEGIN_DECLS

typedef struct FsKubeCache FsKubeCache;

typedef struct {
  guint events;        /* watch events applied */
  guint bookmarks;
  guint relists;       /* lists after a 410 */
  guint watches;       /* watch requests made */
  gint64 synced_at;    /* g_get_real_time () of the last change, 0 before the first list */
} FsKubeCacheStats;

FsKubeCache *fs_kube_cache_new (FsKubeClient *client, guint resources);
void fs_kube_cache_free (FsKubeCache *cache);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FsKubeCache, fs_kube_cache_free)

/* Lists every resource (the first time, or after a 410).  SKIPPED as for fs_kube_load. */
gboolean fs_kube_cache_sync (FsKubeCache *cache, gboolean progress, GPtrArray *skipped, GError **error);

/* Gives the cache's snapshots (the current one and every later one) CONFIG, the
 * --scheduler-config profiles (NULL: none).  Call it before taking a snapshot. */
void fs_kube_cache_set_scheduler_config (FsKubeCache *cache, FsSchedulerConfig *config);

/* The current snapshot, a new reference (NULL before the first sync). */
FsSnapshot *fs_kube_cache_snapshot (FsKubeCache *cache);

/* Watches each resource once, until the server ends the stream or TIMEOUT_SECONDS pass,
 * applying what arrives.  *CHANGED: whether a new snapshot was made. */
gboolean fs_kube_cache_watch (FsKubeCache *cache, guint timeout_seconds, gboolean *changed,
                              GError **error);

FsKubeCacheStats fs_kube_cache_stats (FsKubeCache *cache);

G_END_DECLS
