/* fitscale — a cache of the cluster kept current by list and watch, as client-go's informers.
 *
 * The cache lists the resources it was made for (client.h), remembers each list's
 * resourceVersion, and, once started, watches every one of them at the same time, each on
 * its own long-lived stream (watch=1, allowWatchBookmarks=true, timeoutSeconds of
 * --watch-timeout to twice that, resumed from the last resourceVersion or BOOKMARK when the
 * server ends it).  Events are applied as they arrive: what arrives within a few tens of
 * milliseconds is applied as one batch, and each batch publishes a new immutable snapshot.
 * A 410 ("too old resource version", as an HTTP status or an ERROR event) lists that one
 * resource again, not the others.  PodMetrics, which cannot be watched, are listed again
 * every --metrics-interval.  A reader keeps the reference it took for as long as it needs
 * it.  docs/live.md says why and how (threads, batches, the shared pool).  The cache
 * borrows its client for the first list; the streams make their own. */
#pragma once

#include <glib.h>

#include "fitscale/model/schedconfig.h"

#include "fitscale/kube/client.h"

G_BEGIN_DECLS

typedef struct FsKubeCache FsKubeCache;

/* The publish-delay histogram's upper bounds, in seconds (event received -> snapshot out). */
#define FS_KUBE_DELAY_BUCKETS 8
extern const double fs_kube_delay_bounds[FS_KUBE_DELAY_BUCKETS];

typedef struct {
  guint64 events;      /* watch events applied */
  guint64 bookmarks;
  guint relists;       /* one resource listed again (after a 410 or an ERROR event) */
  guint watches;       /* watch requests made */
  guint publishes;     /* snapshots published after the first list */
  guint compactions;   /* snapshots made from a copy of the shared pool (model/compact.h) */
  gint64 synced_at;    /* g_get_real_time () of the last snapshot published, 0 before */
  guint64 generation;  /* the published snapshot's number: 1 after the first list */
  /* publish delay: from the first event of a batch received to its snapshot published */
  guint64 delay_counts[FS_KUBE_DELAY_BUCKETS + 1]; /* per bucket, the last for +Inf */
  double delay_sum;
  guint64 delay_count;
} FsKubeCacheStats;

/* What one listing (fs_kube_listings) is doing. */
typedef struct {
  const char *name;      /* "pods", ... */
  gboolean active;       /* listed (served by the cluster, asked for) */
  gboolean watched;      /* kept current by a watch (else listed every --metrics-interval) */
  double age;            /* seconds since it was last confirmed current: listed, an event, a
                          * BOOKMARK, or a watch the server ended in order */
  guint64 events;
  guint relists;
  char *error;           /* why its watch or list last failed, NULL while it works */
} FsKubeListingStatus;

typedef struct {
  guint min_watch_seconds;  /* each watch asks timeoutSeconds in [this, 2 x this); 0: 300 */
  guint coalesce_ms;        /* a batch collects what arrives this long after its first; 0: 30 */
  guint metrics_interval;   /* seconds between PodMetrics lists; 0: 15 */
  guint compact_after_kib;  /* the shared pool is compacted once it grew by an eighth and by
                             * at least this many KiB since the last list or compaction; 0: 8192 */
} FsKubeCacheOptions;

FsKubeCache *fs_kube_cache_new (FsKubeClient *client, guint resources);
void fs_kube_cache_free (FsKubeCache *cache);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FsKubeCache, fs_kube_cache_free)

/* Lists every resource (the first time).  SKIPPED as for fs_kube_load. */
gboolean fs_kube_cache_sync (FsKubeCache *cache, gboolean progress, GPtrArray *skipped, GError **error);

/* Starts the watches (one thread per stream, one that applies) and the PodMetrics poll.
 * Call after a sync; FALSE when a stream's client cannot be made.  Free stops them and
 * joins their threads (fs_kube_cache_stop). */
gboolean fs_kube_cache_start (FsKubeCache *cache, const FsKubeCacheOptions *options, GError **error);
/* Stops the watches, the applier and the poll, and waits for their threads (a quiet
 * stream ends within about a second: fs_kube_client_set_cancel); returns how many were
 * joined.  The current snapshot stays readable; free calls it too. */
guint fs_kube_cache_stop (FsKubeCache *cache);
/* Gives the cache's snapshots (the current one and every later one) CONFIG, the
 * --scheduler-config profiles (NULL: none).  Call it before taking a snapshot. */
void fs_kube_cache_set_scheduler_config (FsKubeCache *cache, FsSchedulerConfig *config);

/* The current snapshot, a new reference (NULL before the first sync). */
FsSnapshot *fs_kube_cache_snapshot (FsKubeCache *cache);

/* Waits until a snapshot newer than GENERATION is published or TIMEOUT_MS pass (< 0: no
 * limit); returns the generation published now. */
guint64 fs_kube_cache_wait (FsKubeCache *cache, guint64 generation, gint64 timeout_ms);

FsKubeCacheStats fs_kube_cache_stats (FsKubeCache *cache);

/* Every listing's status (fs_kube_listings order, *N of them); free with
 * fs_kube_listing_status_free. */
FsKubeListingStatus *fs_kube_cache_listing_status (FsKubeCache *cache, guint *n);
void fs_kube_listing_status_free (FsKubeListingStatus *status, guint n);

/* The longest time, in seconds, any watched listing has gone unconfirmed, and its name
 * (PodMetrics, polled, are as old as their last list: fs_kube_cache_listing_status). */
double fs_kube_cache_staleness (FsKubeCache *cache, const char **listing);

/* Seconds since the listing NAME ("pods.metrics.k8s.io", ...) was last confirmed current;
 * -1 when it is not listed. */
double fs_kube_cache_listing_age (FsKubeCache *cache, const char *name);

/* Prometheus text of the cache: per-resource last-sync age, events and relists, bookmarks,
 * watch requests, publishes, and the publish-delay histogram. */
void fs_kube_cache_append_metrics (FsKubeCache *cache, GString *out);

G_END_DECLS
