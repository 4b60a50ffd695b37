/* fitscale — the informer cache (see include/fitscale/kube/watch.h).
 *
 * Threads.  One thread per watch stream, and one that applies.  A stream is a blocking
 * libcurl transfer that lasts minutes and carries a few events a second; there are at most
 * sixteen of them.  A thread each keeps every stream on the client that already does
 * credentials, retries and errors (client.c, one easy handle per FsKubeClient, cloned per
 * stream), decodes each stream's JSON on its own core, and keeps a stalled stream from
 * holding the others; libcurl's multi interface would save fifteen mostly idle threads at
 * the price of a second, non-blocking request path.  The streams parse each event and queue
 * it; the applier alone writes snapshots.
 *
 * Watches, as client-go's Reflector (staging/src/k8s.io/client-go/tools/cache/reflector.go):
 * each asks timeoutSeconds = min * (1 + rand), min being --watch-timeout (default 300, the
 * reflector's defaultMinWatchTimeout), as (*Reflector).watch does, so that streams do not
 * all end together; allowWatchBookmarks=true; a stream that ends in order is opened again at
 * once from the last resourceVersion an event or BOOKMARK carried (watchHandler: "A Bookmark
 * means watch has synced here, just update the resourceVersion"); a failure waits an
 * exponential backoff from 800 ms to 30 s with jitter, reset after 2 min without one
 * (NewReflectorWithOptions: wait.NewExponentialBackoffManager(800ms, 30s, 2min, 2.0, 1.0)),
 * each stream its own; a 410 Gone or an ERROR event (isExpiredError, and the ERROR
 * watch.Event handleAnyWatch turns into an error) lists that one resource again — the others
 * keep their streams —, after a backoff unless it was a 410 ending a watch that had brought
 * events.  A watch that ends in under a second without any event is a failure, not a
 * confirmation (watchHandler's "very short watch" check): it backs off.
 *
 * Batches.  The applier takes the first queued event, waits --coalesce (30 ms) for more,
 * and applies everything queued as one batch onto a builder made from the current snapshot
 * (objects.h fs_snapshot_builder_new_from): additions are decoded into the shared pool,
 * removals are binary searches in the current snapshot's arrays; finish merges the batch
 * into a copy of them (written into buffers an earlier snapshot let go) and the nodes' sums
 * follow the batch (objects.c follow_batch: the pods that went subtracted, those added
 * summed).  So a batch costs O(k log n) for its k events plus one O(n) copy at memory
 * speed, whatever the number of snapshots before it: no chain of pools, no depth cap and no
 * relist to cut one.  What went stays in the shared pool until it is compacted: a thread
 * copies the current snapshot into a fresh pool (model/compact.h) while the applier goes on,
 * and the events applied meanwhile are applied again onto the copy (after_batch_locked,
 * take_compaction_locked).  (Per-object persistent structures would make it O(k log n) alone,
 * but every reader in plan/ walks the flat arrays, and nodes point at their pods: this keeps every reader as it is.)  Under load the batches grow, not their number.  Relists and
 * the PodMetrics poll are items too, each a batch of its own, listed by the applier's own
 * client into a builder made from the current snapshot, after every object of the resource
 * was removed from it; a list that fails drops that builder, so the resource keeps the
 * objects it had (the Reflector replaces its store only with a list that succeeded:
 * (*Reflector).list, syncWith), its failure counted and its stream backing off.  Each event
 * carries its listing's epoch: events queued before a relist of their resource are dropped.
 * A resource is current as of an event when that event is applied, and as of a bookmark or
 * a clean end only once the events before it are (confirm_locked, applied_locked): events
 * waiting behind a long batch leave it unconfirmed. */
#include "config.h"

#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "fitscale/kube/decode.h"
#include "fitscale/model/compact.h"
#include "fitscale/model/schedconfig.h"
#include "fitscale/kube/watch.h"
#include "fitscale/model/error.h"
#include "jsontree.h"

#define MAX_EVENT_BYTES (16u << 20)
#define MAX_BATCH 20000            /* events applied in one batch at most */
#define BACKOFF_MIN_MS 800
#define BACKOFF_MAX_MS 30000
#define BACKOFF_RESET_US (120 * G_USEC_PER_SEC)
/* watchHandler: a watch that lasted less than this and brought no event is an error */
#define VERY_SHORT_WATCH_US G_USEC_PER_SEC
/* The shared pool is compacted once it grew by an eighth of what it held when last listed
 * or compacted, and by at least --compact-after (default 8 MiB): the garbage stays within
 * about a tenth of the memory, and the O(n) copy (on its own thread) comes once every O(n)
 * events: at 150,000 pods, 0.8 s of CPU every ~120,000 events (bench/compact). */
#define COMPACT_AFTER_KIB 8192
/* Events kept to replay onto a copy being made, at most: past it, the copy is given up. */
#define COMPACT_MAX_REPLAY 1000000
/* After this long without a batch, the arrays kept for the next one are freed. */
#define SPARE_IDLE_US (2 * G_USEC_PER_SEC)

const double fs_kube_delay_bounds[FS_KUBE_DELAY_BUCKETS] = { 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1 };

/* The kind each listing's objects have (fs_kube_listings order, by name). */
static const char *
listing_kind (const FsKubeListing *listing)
{
  static const char *const kinds[][2] = {
    { "nodes", "Node" }, { "namespaces", "Namespace" }, { "pods", "Pod" },
    { "deployments", "Deployment" }, { "statefulsets", "StatefulSet" }, { "replicasets", "ReplicaSet" },
    { "horizontalpodautoscalers", "HorizontalPodAutoscaler" },
    { "verticalpodautoscalers", "VerticalPodAutoscaler" }, { "hvpas", "Hvpa" },
    { "pods.metrics.k8s.io", "PodMetrics" }, { "events", "Event" },
    { "persistentvolumeclaims", "PersistentVolumeClaim" }, { "persistentvolumes", "PersistentVolume" },
    { "storageclasses", "StorageClass" }, { "csinodes", "CSINode" },
    { "poddisruptionbudgets", "PodDisruptionBudget" },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (kinds); i++)
    if (strcmp (kinds[i][0], listing->name) == 0)
      return kinds[i][1];
  return NULL;
}

typedef struct {
  char *version;          /* where its watch resumes; NULL: to be listed */
  gboolean active;        /* asked for and served */
  guint epoch;            /* bumped by every list: older queued events are stale */
  gint64 confirmed_at;    /* monotonic: listed, an event applied (when it came), a bookmark
                           * or a clean end once the events before it were applied */
  guint queued;           /* its events queued, not yet applied */
  gint64 confirm_when_applied; /* a bookmark or clean end that came while events were queued */
  guint64 events;
  guint relists;
  guint relist_failures;  /* lists after the first that failed (the objects were kept) */
  char *error;
  gboolean relist_queued;
} ListingState;

typedef enum { ITEM_EVENT, ITEM_RELIST } ItemType;

typedef struct {
  ItemType type;
  guint listing;
  guint epoch;
  yajl_val event;         /* ITEM_EVENT: the parsed event (owned) */
  gint64 received;        /* monotonic */
  gboolean stale;         /* queued before its resource was listed again: not applied */
} Item;

typedef struct {
  FsKubeCache *cache;
  guint listing;
  FsKubeClient *client;
  GThread *thread;
} Stream;

struct FsKubeCache {
  FsKubeClient *client;        /* borrowed: the first list */
  guint resources;
  const FsKubeListing *listings;
  guint n_listings;
  GMutex lock;                 /* guards everything below */
  GCond published;             /* a new snapshot */
  GCond queued;                /* an item for the applier, or stopping */
  GCond relisted;              /* a listing got its version */
  GCond wake;                  /* the cache stops: pauses end */
  FsSnapshot *current;
  FsKubeCacheStats stats;
  ListingState *states;
  GQueue queue;                /* Item */
  gint stopping;
  FsKubeCacheOptions options;
  FsKubeClient *lister;        /* the applier's: relists, PodMetrics */
  GThread *applier, *poller;
  GPtrArray *streams;          /* Stream */
  FsSchedulerConfig *scheduler_config; /* stamped on every snapshot it makes */
  /* compaction (model/compact.h): a thread copies COMPACT_SOURCE into a fresh pool while the
   * applier goes on; the items the applier applies meanwhile are kept in REPLAY and applied
   * again onto the copy, which then becomes current.  A relist meanwhile spoils the copy. */
  gsize compacted_bytes;       /* the pool's size when last listed or compacted */
  GThread *compactor;          /* running, or done and not yet taken */
  FsSnapshot *compact_source;
  FsSnapshot *compact_result;  /* set by the compactor (NULL: it failed) */
  gboolean compact_done;
  gboolean compact_spoiled;
  GQueue replay;               /* Item */
};

FsKubeCache *
fs_kube_cache_new (FsKubeClient *client, guint resources)
{
  FsKubeCache *cache = g_new0 (FsKubeCache, 1);
  cache->client = client;
  cache->resources = resources;
  cache->listings = fs_kube_listings (&cache->n_listings);
  cache->states = g_new0 (ListingState, cache->n_listings);
  g_mutex_init (&cache->lock);
  g_cond_init (&cache->published);
  g_cond_init (&cache->queued);
  g_cond_init (&cache->relisted);
  g_cond_init (&cache->wake);
  g_queue_init (&cache->queue);
  cache->streams = g_ptr_array_new ();
  return cache;
}

static void
item_free (gpointer data)
{
  Item *item = data;
  if (item->event != NULL)
    yajl_tree_free (item->event);
  g_free (item);
}

/* Stops every thread the cache started and waits for each: a stream's transfer ends at its
 * next byte or within about a second on a quiet stream (its client's cancel flag is
 * STOPPING: fs_kube_client_set_cancel), a backoff or a wait for a relist at once, the
 * applier after the batch it is building. */
guint
fs_kube_cache_stop (FsKubeCache *cache)
{
  guint joined = 0;
  g_mutex_lock (&cache->lock);
  g_atomic_int_set (&cache->stopping, TRUE);
  g_cond_broadcast (&cache->wake);
  g_cond_broadcast (&cache->queued);
  g_cond_broadcast (&cache->relisted);
  g_cond_broadcast (&cache->published);
  g_mutex_unlock (&cache->lock);
  for (guint i = 0; i < cache->streams->len; i++)
    {
      Stream *stream = cache->streams->pdata[i];
      if (stream->thread != NULL)
        g_thread_join (g_steal_pointer (&stream->thread)), joined++;
    }
  if (cache->applier != NULL)
    g_thread_join (g_steal_pointer (&cache->applier)), joined++;
  if (cache->poller != NULL)
    g_thread_join (g_steal_pointer (&cache->poller)), joined++;
  if (cache->compactor != NULL)
    g_thread_join (g_steal_pointer (&cache->compactor)), joined++;
  return joined;
}

void
fs_kube_cache_free (FsKubeCache *cache)
{
  if (cache == NULL)
    return;
  fs_kube_cache_stop (cache);
  for (guint i = 0; i < cache->streams->len; i++)
    {
      Stream *stream = cache->streams->pdata[i];
      fs_kube_client_free (stream->client);
      g_free (stream);
    }
  fs_kube_client_free (cache->lister);
  for (guint i = 0; i < cache->n_listings; i++)
    {
      g_free (cache->states[i].version);
      g_free (cache->states[i].error);
    }
  g_free (cache->states);
  g_queue_clear_full (&cache->queue, item_free);
  g_queue_clear_full (&cache->replay, item_free);
  fs_snapshot_unref (cache->compact_source);
  fs_snapshot_unref (cache->compact_result);
  fs_snapshot_unref (cache->current);
  g_ptr_array_unref (cache->streams);
  fs_scheduler_config_unref (cache->scheduler_config);
  g_mutex_clear (&cache->lock);
  g_cond_clear (&cache->published);
  g_cond_clear (&cache->queued);
  g_cond_clear (&cache->relisted);
  g_cond_clear (&cache->wake);
  g_free (cache);
}

void
fs_kube_cache_set_scheduler_config (FsKubeCache *cache, FsSchedulerConfig *config)
{
  g_mutex_lock (&cache->lock);
  FsSchedulerConfig *old = cache->scheduler_config;
  cache->scheduler_config = fs_scheduler_config_ref (config);
  if (cache->current != NULL)
    fs_snapshot_set_scheduler_config (cache->current, config);
  g_mutex_unlock (&cache->lock);
  fs_scheduler_config_unref (old);
}

/* Publishes SNAPSHOT; the lock is held. */
static void
publish_locked (FsKubeCache *cache, FsSnapshot *snapshot, gint64 first_received)
{
  /* not shared yet: the configuration goes on before anyone reads it */
  fs_snapshot_set_scheduler_config (snapshot, cache->scheduler_config);
  FsSnapshot *old = cache->current;
  cache->current = snapshot;
  cache->stats.synced_at = g_get_real_time ();
  cache->stats.generation++;
  if (first_received > 0)
    {
      double delay = (double) (g_get_monotonic_time () - first_received) / G_USEC_PER_SEC;
      guint bucket = 0;
      while (bucket < FS_KUBE_DELAY_BUCKETS && delay > fs_kube_delay_bounds[bucket])
        bucket++;
      cache->stats.delay_counts[bucket]++;
      cache->stats.delay_sum += delay;
      cache->stats.delay_count++;
      cache->stats.publishes++;
    }
  g_cond_broadcast (&cache->published);
  g_mutex_unlock (&cache->lock);
  fs_snapshot_unref (old);
  g_mutex_lock (&cache->lock);
}

FsSnapshot *
fs_kube_cache_snapshot (FsKubeCache *cache)
{
  g_mutex_lock (&cache->lock);
  FsSnapshot *snapshot = cache->current != NULL ? fs_snapshot_ref (cache->current) : NULL;
  g_mutex_unlock (&cache->lock);
  return snapshot;
}

guint64
fs_kube_cache_wait (FsKubeCache *cache, guint64 generation, gint64 timeout_ms)
{
  gint64 end = timeout_ms >= 0 ? g_get_monotonic_time () + timeout_ms * 1000 : 0;
  g_mutex_lock (&cache->lock);
  while (cache->stats.generation <= generation && !cache->stopping)
    if (timeout_ms < 0)
      g_cond_wait (&cache->published, &cache->lock);
    else if (!g_cond_wait_until (&cache->published, &cache->lock, end))
      break;
  guint64 now = cache->stats.generation;
  g_mutex_unlock (&cache->lock);
  return now;
}

FsKubeCacheStats
fs_kube_cache_stats (FsKubeCache *cache)
{
  g_mutex_lock (&cache->lock);
  FsKubeCacheStats stats = cache->stats;
  g_mutex_unlock (&cache->lock);
  return stats;
}

FsKubeListingStatus *
fs_kube_cache_listing_status (FsKubeCache *cache, guint *n)
{
  *n = cache->n_listings;
  FsKubeListingStatus *status = g_new0 (FsKubeListingStatus, cache->n_listings);
  gint64 now = g_get_monotonic_time ();
  g_mutex_lock (&cache->lock);
  for (guint i = 0; i < cache->n_listings; i++)
    {
      const ListingState *state = &cache->states[i];
      status[i] = (FsKubeListingStatus){
        .name = cache->listings[i].name,
        .active = state->active,
        .watched = cache->listings[i].watchable,
        .age = state->active ? (double) (now - state->confirmed_at) / G_USEC_PER_SEC : 0,
        .events = state->events,
        .relists = state->relists,
        .error = g_strdup (state->error),
      };
    }
  g_mutex_unlock (&cache->lock);
  return status;
}

void
fs_kube_listing_status_free (FsKubeListingStatus *status, guint n)
{
  for (guint i = 0; status != NULL && i < n; i++)
    g_free (status[i].error);
  g_free (status);
}

double
fs_kube_cache_staleness (FsKubeCache *cache, const char **listing)
{
  double worst = 0;
  gint64 now = g_get_monotonic_time ();
  g_mutex_lock (&cache->lock);
  for (guint i = 0; i < cache->n_listings; i++)
    {
      const ListingState *state = &cache->states[i];
      double age = (double) (now - state->confirmed_at) / G_USEC_PER_SEC;
      if (state->active && cache->listings[i].watchable && age > worst)
        {
          worst = age;
          if (listing != NULL)
            *listing = cache->listings[i].name;
        }
    }
  g_mutex_unlock (&cache->lock);
  return worst;
}

/* ---- the first list -------------------------------------------------------------------- */

gboolean
fs_kube_cache_sync (FsKubeCache *cache, gboolean progress, GPtrArray *skipped, GError **error)
{
  g_autofree char **versions = g_new0 (char *, cache->n_listings + 1);
  FsSnapshot *snapshot = fs_kube_load_versions (cache->client, cache->resources, progress, skipped,
                                                versions, error);
  if (snapshot == NULL)
    {
      for (guint i = 0; i < cache->n_listings; i++)
        g_free (versions[i]);
      return FALSE;
    }
  gint64 now = g_get_monotonic_time ();
  g_mutex_lock (&cache->lock);
  for (guint i = 0; i < cache->n_listings; i++)
    {
      ListingState *state = &cache->states[i];
      g_free (state->version);
      state->version = versions[i]; /* NULL where not listed or not served */
      state->active = versions[i] != NULL;
      state->confirmed_at = now;
      state->epoch++;
    }
  cache->compacted_bytes = fs_pool_bytes (snapshot->pool);
  publish_locked (cache, snapshot, 0);
  g_mutex_unlock (&cache->lock);
  return TRUE;
}

/* ---- the applier --------------------------------------------------------------------------- */

/* STATE's resource is current as of WHEN (a bookmark, a clean end), once the events it
 * received before are applied: a resource whose events wait behind a long batch is not
 * current, however many bookmarks come meanwhile.  The lock is held. */
static void
confirm_locked (ListingState *state, gint64 when)
{
  if (state->queued == 0)
    state->confirmed_at = MAX (state->confirmed_at, when);
  else
    state->confirm_when_applied = MAX (state->confirm_when_applied, when);
}

/* The events of BATCH left the queue: each resource is confirmed current as of the last of
 * its events applied (PUBLISHED: their snapshot is out) was received, and as of a bookmark or
 * clean end that came meanwhile once none of its events is left queued.  The lock is held. */
static void
applied_locked (FsKubeCache *cache, GQueue *batch, gboolean published)
{
  for (GList *link = batch->head; link != NULL; link = link->next)
    {
      const Item *item = link->data;
      if (item->type != ITEM_EVENT)
        continue;
      ListingState *state = &cache->states[item->listing];
      state->queued--;
      if (published && !item->stale)
        state->confirmed_at = MAX (state->confirmed_at, item->received);
      if (state->queued == 0 && state->confirm_when_applied > 0)
        {
          /* a bookmark or a clean end confirms only what was published before it */
          if (published)
            state->confirmed_at = MAX (state->confirmed_at, state->confirm_when_applied);
          state->confirm_when_applied = 0;
        }
    }
}

static void
set_error_locked (ListingState *state, const char *message)
{
  g_free (state->error);
  state->error = g_strdup (message);
}

/* Applies one event to BUILDER: {"type": ADDED|MODIFIED|DELETED, "object": {...}}. */
static void
apply_event (FsKubeCache *cache, FsSnapshotBuilder *builder, const Item *item)
{
  const char *type = fs_json_tree_string (item->event, "type", NULL);
  const char *path[] = { "object", NULL };
  yajl_val object = yajl_tree_get (item->event, path, yajl_t_object);
  g_autoptr (GError) error = NULL;
  if (g_strcmp0 (type, "DELETED") == 0)
    fs_snapshot_builder_remove (builder, fs_json_tree_string (object, "kind", NULL),
                                fs_json_tree_string (object, "metadata", "namespace"),
                                fs_json_tree_string (object, "metadata", "name"));
  else
    {
      /* a watch event's object need not say its kind (a typed watch): the listing's */
      const char *kind = fs_json_tree_string (object, "kind", NULL);
      yajl_gen gen = yajl_gen_alloc (NULL);
      fs_json_tree_gen (gen, object);
      const unsigned char *json;
      size_t length;
      yajl_gen_get_buf (gen, &json, &length);
      g_autofree char *text = NULL;
      if (kind == NULL)
        text = g_strdup_printf ("{\"kind\":\"%s\",%.*s", listing_kind (&cache->listings[item->listing]),
                                (int) length - 1, (const char *) json + 1);
      gboolean ok = text != NULL ? fs_load_bytes (builder, "watch event", text, strlen (text), &error)
                                 : fs_load_bytes (builder, "watch event", (const char *) json, length, &error);
      yajl_gen_free (gen);
      if (!ok)
        {
          g_mutex_lock (&cache->lock);
          set_error_locked (&cache->states[item->listing], error->message);
          g_mutex_unlock (&cache->lock);
        }
    }
}

/* Lists LISTING again into BUILDER, its objects removed first; FALSE when the list failed
 * (BUILDER then holds part of it: the caller drops it). */
static gboolean
relist (FsKubeCache *cache, FsSnapshotBuilder *builder, guint listing, gboolean counted)
{
  const FsKubeListing *entry = &cache->listings[listing];
  fs_snapshot_builder_remove_kind (builder, listing_kind (entry));
  g_autoptr (GError) error = NULL;
  char *version = NULL;
  gboolean absent = FALSE;
  gboolean ok = fs_kube_list_into (cache->lister, listing, builder, &version, &absent, &error);
  fs_snapshot_builder_forget_lists (builder);
  g_mutex_lock (&cache->lock);
  ListingState *state = &cache->states[listing];
  state->relist_queued = FALSE;
  if (ok)
    {
      state->epoch++;
      g_free (state->version);
      state->version = absent ? NULL : version;
      version = NULL;
      state->confirmed_at = g_get_monotonic_time ();
      g_clear_pointer (&state->error, g_free);
      if (counted)
        {
          state->relists++;
          cache->stats.relists++;
        }
    }
  else
    {
      set_error_locked (state, error->message);
      state->relist_failures++;
    }
  g_cond_broadcast (&cache->relisted);
  g_mutex_unlock (&cache->lock);
  g_free (version);
  return ok;
}

/* ---- compaction --------------------------------------------------------------------------- */

static gpointer
compactor_thread (gpointer data)
{
  FsKubeCache *cache = data;
  g_autoptr (GError) error = NULL;
  FsSnapshot *copy = fs_snapshot_compact (cache->compact_source, &error);
  g_mutex_lock (&cache->lock);
  cache->compact_result = copy;
  cache->compact_done = TRUE;
  g_cond_signal (&cache->queued);
  g_mutex_unlock (&cache->lock);
  return NULL;
}

/* Starts a copy of the current snapshot into a fresh pool.  The lock is held. */
static void
start_compaction_locked (FsKubeCache *cache)
{
  cache->compact_source = fs_snapshot_ref (cache->current);
  cache->compact_spoiled = FALSE;
  cache->compact_done = FALSE;
  cache->compactor = g_thread_new ("fitscale-compact", compactor_thread, cache);
}

/* After a batch made CURRENT: its items (BATCH, taken) kept for the copy under way, or a
 * copy started when the pool has grown enough; else the items freed.  The lock is held. */
static void
after_batch_locked (FsKubeCache *cache, GQueue *batch, gboolean relisted)
{
  if (cache->compactor != NULL && !cache->compact_spoiled
      && !relisted && cache->replay.length + batch->length <= COMPACT_MAX_REPLAY)
    {
      while (!g_queue_is_empty (batch))
        g_queue_push_tail (&cache->replay, g_queue_pop_head (batch));
      return;
    }
  g_queue_clear_full (batch, item_free);
  if (cache->compactor != NULL)
    {
      cache->compact_spoiled = TRUE; /* the copy lacks what a list changed, or too much went by */
      g_queue_clear_full (&cache->replay, item_free);
      return;
    }
  gsize bytes = fs_pool_bytes (cache->current->pool);
  if (bytes > cache->compacted_bytes + MAX (cache->compacted_bytes / 8, (gsize) cache->options.compact_after_kib << 10))
    start_compaction_locked (cache);
}

/* The copy is made: the items applied since its source applied again onto it, and the
 * result published (the same objects, in a pool that holds only them).  Called with the
 * lock held; drops it while it works. */
static void
take_compaction_locked (FsKubeCache *cache)
{
  GThread *thread = g_steal_pointer (&cache->compactor);
  FsSnapshot *copy = g_steal_pointer (&cache->compact_result);
  FsSnapshot *source = g_steal_pointer (&cache->compact_source);
  gboolean spoiled = cache->compact_spoiled || copy == NULL;
  GQueue replay = cache->replay;
  g_queue_init (&cache->replay);
  cache->compact_done = FALSE;
  g_mutex_unlock (&cache->lock);
  g_thread_join (thread);
  fs_snapshot_unref (source);
  FsSnapshot *next = NULL;
  if (!spoiled)
    {
      FsSnapshotBuilder *builder = fs_snapshot_builder_new_from (copy);
      for (GList *link = replay.head; link != NULL; link = link->next)
        if (!((const Item *) link->data)->stale)
          apply_event (cache, builder, link->data);
      g_autoptr (GError) error = NULL;
      next = fs_snapshot_builder_finish (builder, &error);
    }
  g_queue_clear_full (&replay, item_free);
  fs_snapshot_unref (copy);
  g_mutex_lock (&cache->lock);
  if (next == NULL)
    {
      /* not this time: the next batch may start another copy */
      cache->compacted_bytes = fs_pool_bytes (cache->current->pool);
      return;
    }
  cache->compacted_bytes = fs_pool_bytes (next->pool);
  cache->stats.compactions++;
  publish_locked (cache, next, 0);
}

static gpointer
applier_thread (gpointer data)
{
  FsKubeCache *cache = data;
  gboolean spares_held = FALSE; /* a batch left arrays for the next (objects.c array_release) */
  g_mutex_lock (&cache->lock);
  while (!cache->stopping)
    {
      if (cache->compact_done)
        {
          take_compaction_locked (cache);
          continue;
        }
      if (g_queue_is_empty (&cache->queue))
        {
          if (!spares_held)
            g_cond_wait (&cache->queued, &cache->lock);
          else if (!g_cond_wait_until (&cache->queued, &cache->lock, g_get_monotonic_time () + SPARE_IDLE_US)
                   && g_queue_is_empty (&cache->queue) && !cache->compact_done)
            {
              /* the churn stopped: what was kept to write the next batch into goes back, and
               * the free pages of every thread's malloc arena (the events' trees, the
               * batches' builders) with it */
              g_mutex_unlock (&cache->lock);
              fs_snapshot_release_spare_arrays ();
#ifdef __GLIBC__
              malloc_trim (0);
#endif
              g_mutex_lock (&cache->lock);
              spares_held = FALSE;
            }
          continue;
        }
      /* coalesce: what arrives within the window of the first goes into this batch */
      const Item *first = g_queue_peek_head (&cache->queue);
      gint64 until = first->received + (gint64) cache->options.coalesce_ms * 1000;
      while (!cache->stopping && g_queue_get_length (&cache->queue) < MAX_BATCH
             && g_cond_wait_until (&cache->queued, &cache->lock, until))
        ;
      if (cache->stopping)
        break;
      /* a relist is a batch of its own, so that one that fails changes nothing */
      GQueue batch = G_QUEUE_INIT;
      gboolean relisting = ((const Item *) g_queue_peek_head (&cache->queue))->type == ITEM_RELIST;
      do
        g_queue_push_tail (&batch, g_queue_pop_head (&cache->queue));
      while (!relisting && !g_queue_is_empty (&cache->queue) && batch.length < MAX_BATCH
             && ((const Item *) g_queue_peek_head (&cache->queue))->type != ITEM_RELIST);
      FsSnapshot *base = fs_snapshot_ref (cache->current);
      gint64 first_received = ((const Item *) g_queue_peek_head (&batch))->received;
      g_mutex_unlock (&cache->lock);

      FsSnapshotBuilder *builder = fs_snapshot_builder_new_from (base);
      fs_snapshot_unref (base);
      guint applied = 0, events = 0;
      gboolean relisted = FALSE;
      if (relisting)
        {
          guint listing = ((const Item *) g_queue_peek_head (&batch))->listing;
          relisted = relist (cache, builder, listing, cache->listings[listing].watchable);
          applied = relisted;
        }
      for (GList *link = relisting ? NULL : batch.head; link != NULL; link = link->next)
        {
          const Item *item = link->data;
          g_mutex_lock (&cache->lock);
          gboolean stale = item->epoch != cache->states[item->listing].epoch;
          g_mutex_unlock (&cache->lock);
          if (stale)
            {
              ((Item *) item)->stale = TRUE; /* nor applied again onto a compacted copy */
              continue;
            }
          apply_event (cache, builder, item);
          applied++;
          events++;
        }
      g_autoptr (GError) error = NULL;
      FsSnapshot *next = applied > 0 ? fs_snapshot_builder_finish (builder, &error)
                                     : (fs_snapshot_builder_free (builder), NULL);
      g_mutex_lock (&cache->lock);
      cache->stats.events += events;
      if (next != NULL)
        publish_locked (cache, next, first_received);
      applied_locked (cache, &batch, next != NULL || applied == 0); /* none to apply is no failure */
      if (relisting && !relisted)
        g_queue_clear_full (&batch, item_free); /* nothing changed: a copy under way goes on */
      else
        after_batch_locked (cache, &batch, relisted || next == NULL);
      spares_held = TRUE;
    }
  g_mutex_unlock (&cache->lock);
  return NULL;
}

/* ---- the streams --------------------------------------------------------------------------- */

typedef struct {
  Stream *stream;
  GString *line;
  char *version;          /* the resume point: the last event's or bookmark's */
  guint epoch;
  gboolean expired;       /* a 410 or an ERROR event: list again */
  char *failure;          /* an ERROR event that is not a 410 */
  guint received;         /* events and bookmarks the current watch brought */
} StreamState;

static void
queue_item_locked (FsKubeCache *cache, Item *item)
{
  g_queue_push_tail (&cache->queue, item);
  g_cond_signal (&cache->queued);
}

/* One line of the stream: parsed here (on the stream's thread), applied by the applier. */
static gboolean
on_event (StreamState *state, const char *text, GError **error)
{
  FsKubeCache *cache = state->stream->cache;
  guint listing = state->stream->listing;
  char problem[256];
  yajl_val root = yajl_tree_parse (text, problem, sizeof problem);
  if (root == NULL)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "watch %s: an event that is not JSON: %s",
                   cache->listings[listing].path, problem);
      return FALSE;
    }
  const char *type = fs_json_tree_string (root, "type", NULL);
  const char *object_path[] = { "object", NULL };
  yajl_val object = yajl_tree_get (root, object_path, yajl_t_object);
  const char *version = fs_json_tree_string (object, "metadata", "resourceVersion");
  gint64 now = g_get_monotonic_time ();
  if (g_strcmp0 (type, "ERROR") == 0)
    {
      const char *code_path[] = { "object", "code", NULL };
      yajl_val code = yajl_tree_get (root, code_path, yajl_t_number);
      const char *message = fs_json_tree_string (object, "message", NULL);
      /* reflector.go: a watch.Error event becomes an error; an expired version relists */
      state->expired = TRUE;
      if (code == NULL || !YAJL_IS_INTEGER (code) || YAJL_GET_INTEGER (code) != 410)
        state->failure = g_strdup_printf ("watch %s: ERROR event: %s", cache->listings[listing].name,
                                          message != NULL ? message : "(no message)");
      yajl_tree_free (root);
      return FALSE; /* the stream ends here */
    }
  state->received++;
  if (version != NULL)
    {
      g_free (state->version);
      state->version = g_strdup (version);
    }
  g_mutex_lock (&cache->lock);
  ListingState *listing_state = &cache->states[listing];
  if (version != NULL && listing_state->epoch == state->epoch)
    {
      g_free (listing_state->version);
      listing_state->version = g_strdup (version);
    }
  if (g_strcmp0 (type, "BOOKMARK") == 0)
    {
      cache->stats.bookmarks++;
      confirm_locked (listing_state, now);
      g_mutex_unlock (&cache->lock);
      yajl_tree_free (root);
      return TRUE;
    }
  if (object == NULL || (g_strcmp0 (type, "ADDED") != 0 && g_strcmp0 (type, "MODIFIED") != 0
                         && g_strcmp0 (type, "DELETED") != 0))
    {
      confirm_locked (listing_state, now);
      g_mutex_unlock (&cache->lock);
      yajl_tree_free (root);
      return TRUE; /* what client-go ignores too */
    }
  listing_state->events++;
  listing_state->queued++; /* current once applied (applied_locked) */
  Item *item = g_new0 (Item, 1);
  *item = (Item){ ITEM_EVENT, listing, state->epoch, root, now };
  queue_item_locked (cache, item);
  g_mutex_unlock (&cache->lock);
  return TRUE;
}

static gboolean
on_watch_bytes (const char *data, gsize len, gpointer user_data, GError **error)
{
  StreamState *state = user_data;
  if (g_atomic_int_get (&state->stream->cache->stopping))
    {
      g_set_error (error, FS_ERROR, FS_ERROR_IO, "stopping");
      return FALSE;
    }
  for (gsize i = 0; i < len; i++)
    {
      const char *end = memchr (data + i, '\n', len - i);
      gsize take = end != NULL ? (gsize) (end - (data + i)) : len - i;
      if (state->line->len + take > MAX_EVENT_BYTES)
        {
          g_set_error (error, FS_ERROR, FS_ERROR_LIMIT, "watch: an event over %u MiB", MAX_EVENT_BYTES >> 20);
          return FALSE;
        }
      g_string_append_len (state->line, data + i, (gssize) take);
      i += take;
      if (end == NULL)
        break;
      gboolean ok = state->line->len == 0 || on_event (state, state->line->str, error);
      g_string_truncate (state->line, 0);
      if (!ok)
        return FALSE;
    }
  return TRUE;
}

/* Asks the applier to list the stream's resource again and waits for its new version. */
static gboolean
await_relist (Stream *stream, char **version, guint *epoch)
{
  FsKubeCache *cache = stream->cache;
  g_mutex_lock (&cache->lock);
  ListingState *state = &cache->states[stream->listing];
  g_clear_pointer (&state->version, g_free);
  if (!state->relist_queued)
    {
      state->relist_queued = TRUE;
      Item *item = g_new0 (Item, 1);
      *item = (Item){ ITEM_RELIST, stream->listing, 0, NULL, g_get_monotonic_time () };
      queue_item_locked (cache, item);
    }
  while (!cache->stopping && state->relist_queued)
    g_cond_wait (&cache->relisted, &cache->lock);
  gboolean ok = !cache->stopping && state->version != NULL;
  if (ok)
    {
      g_free (*version);
      *version = g_strdup (state->version);
      *epoch = state->epoch;
    }
  g_mutex_unlock (&cache->lock);
  return ok;
}

static gboolean
stopping (FsKubeCache *cache)
{
  g_mutex_lock (&cache->lock);
  gboolean stop = cache->stopping;
  g_mutex_unlock (&cache->lock);
  return stop;
}

/* Sleeps MS or until the cache stops. */
static void
pause_ms (FsKubeCache *cache, gint64 ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;
  g_mutex_lock (&cache->lock);
  while (!cache->stopping && g_cond_wait_until (&cache->wake, &cache->lock, end))
    ;
  g_mutex_unlock (&cache->lock);
}

/* One stream's backoff, as client-go's backoff manager
 * (k8s.io/apimachinery/pkg/util/wait/backoff.go, exponentialBackoffManagerImpl.getNextBackoff,
 * made by NewReflectorWithOptions): 800 ms, doubled at each failure up to 30 s, each wait
 * that plus up to as much again (jitter 1.0), and back to 800 ms once 2 min went by without
 * one. */
typedef struct {
  gint64 delay_ms;
  gint64 last_us;         /* monotonic: the last backoff began */
} Backoff;

static void
backoff_pause (FsKubeCache *cache, Backoff *backoff)
{
  gint64 now = g_get_monotonic_time ();
  if (backoff->last_us == 0 || now - backoff->last_us > BACKOFF_RESET_US)
    backoff->delay_ms = BACKOFF_MIN_MS;
  else
    backoff->delay_ms = MIN (backoff->delay_ms * 2, BACKOFF_MAX_MS);
  backoff->last_us = now;
  pause_ms (cache, backoff->delay_ms + (gint64) (g_random_double () * (double) backoff->delay_ms));
}

static void
record_error (FsKubeCache *cache, guint listing, const char *message)
{
  g_mutex_lock (&cache->lock);
  set_error_locked (&cache->states[listing], message);
  g_mutex_unlock (&cache->lock);
}

/* One watch request from STATE's version; TRUE when the server ended it in order.  *STATUS
 * gets the HTTP status, *ERROR why it failed. */
static gboolean
watch_once (Stream *stream, StreamState *state, const char *selector, long *status, GError **error)
{
  FsKubeCache *cache = stream->cache;
  const FsKubeListing *listing = &cache->listings[stream->listing];
  /* (*Reflector).watch: timeoutSeconds = minWatchTimeout * (rand + 1) */
  guint timeout = (guint) (cache->options.min_watch_seconds * (1.0 + g_random_double ()));
  fs_kube_client_set_timeout (stream->client, ((gint64) timeout + 30) * 1000);
  g_autofree char *version = g_uri_escape_string (state->version, NULL, FALSE);
  g_autofree char *request = g_strdup_printf ("%s?watch=1&allowWatchBookmarks=true&resourceVersion=%s"
                                              "&timeoutSeconds=%u%s%s",
                                              listing->path, version, timeout,
                                              selector != NULL ? "&fieldSelector=" : "",
                                              selector != NULL ? selector : "");
  g_mutex_lock (&cache->lock);
  cache->stats.watches++;
  g_mutex_unlock (&cache->lock);
  g_string_truncate (state->line, 0);
  state->received = 0;
  gboolean ok = fs_kube_client_get (stream->client, request, on_watch_bytes, state, status, error);
  if (ok && state->line->len > 0)
    ok = on_watch_bytes ("\n", 1, state, error); /* a last event without its newline */
  return ok;
}

static gpointer
stream_thread (gpointer data)
{
  Stream *stream = data;
  FsKubeCache *cache = stream->cache;
  const FsKubeListing *listing = &cache->listings[stream->listing];
  StreamState state = { .stream = stream, .line = g_string_new (NULL) };
  g_mutex_lock (&cache->lock);
  state.version = g_strdup (cache->states[stream->listing].version);
  state.epoch = cache->states[stream->listing].epoch;
  g_mutex_unlock (&cache->lock);
  g_autofree char *selector = listing->field_selector != NULL
      ? g_uri_escape_string (listing->field_selector, "=!,", FALSE) : NULL;
  Backoff backoff = { 0, 0 };
  while (!stopping (cache))
    {
      if (state.version == NULL && !await_relist (stream, &state.version, &state.epoch))
        {
          if (stopping (cache))
            break;
          backoff_pause (cache, &backoff); /* the list failed: the resource kept its objects */
          continue;
        }
      long status = 0;
      g_autoptr (GError) error = NULL;
      gint64 started = g_get_monotonic_time ();
      gboolean ok = watch_once (stream, &state, selector, &status, &error);
      if (stopping (cache))
        break;
      /* watchHandler: "very short watch: ... watch lasted less than a second and no items
       * received" is an error, and (*Reflector).Run's BackoffUntil waits before the next */
      gboolean very_short = state.received == 0 && g_get_monotonic_time () - started < VERY_SHORT_WATCH_US;
      if (status == 410 || state.expired)
        {
          /* too old a resourceVersion (or an ERROR event): list this resource again, at once
           * only after a 410 that ended a watch which had brought events */
          gboolean failed = state.failure != NULL;
          if (failed)
            record_error (cache, stream->listing, state.failure);
          g_clear_pointer (&state.failure, g_free);
          g_clear_pointer (&state.version, g_free);
          state.expired = FALSE;
          if (failed || very_short)
            backoff_pause (cache, &backoff);
          continue;
        }
      if (ok && !very_short)
        {
          /* the server ended the stream at its timeout: current up to here; resume at once */
          g_mutex_lock (&cache->lock);
          confirm_locked (&cache->states[stream->listing], g_get_monotonic_time ());
          g_clear_pointer (&cache->states[stream->listing].error, g_free);
          g_mutex_unlock (&cache->lock);
          continue;
        }
      g_autofree char *short_watch = ok ? g_strdup_printf ("watch %s: very short watch: ended after %" G_GINT64_FORMAT
                                                           " ms without any event", listing->name,
                                                           (g_get_monotonic_time () - started) / 1000)
                                        : NULL;
      record_error (cache, stream->listing, ok ? short_watch : error->message);
      backoff_pause (cache, &backoff);
    }
  g_string_free (state.line, TRUE);
  g_free (state.version);
  g_free (state.failure);
  return NULL;
}

/* PodMetrics cannot be watched: listed again every --metrics-interval (the HPA controller's
 * sync period, --horizontal-pod-autoscaler-sync-period, is 15 s by default). */
static gpointer
poller_thread (gpointer data)
{
  FsKubeCache *cache = data;
  for (;;)
    {
      pause_ms (cache, (gint64) cache->options.metrics_interval * 1000);
      g_mutex_lock (&cache->lock);
      if (cache->stopping)
        {
          g_mutex_unlock (&cache->lock);
          return NULL;
        }
      for (guint i = 0; i < cache->n_listings; i++)
        if (cache->states[i].active && !cache->listings[i].watchable && !cache->states[i].relist_queued)
          {
            cache->states[i].relist_queued = TRUE;
            Item *item = g_new0 (Item, 1);
            *item = (Item){ ITEM_RELIST, i, 0, NULL, g_get_monotonic_time () };
            queue_item_locked (cache, item);
          }
      g_mutex_unlock (&cache->lock);
    }
}

gboolean
fs_kube_cache_start (FsKubeCache *cache, const FsKubeCacheOptions *options, GError **error)
{
  g_return_val_if_fail (cache->current != NULL && cache->applier == NULL, FALSE);
  cache->options = *options;
  if (cache->options.min_watch_seconds == 0)
    cache->options.min_watch_seconds = 300;
  if (cache->options.coalesce_ms == 0)
    cache->options.coalesce_ms = 30;
  if (cache->options.metrics_interval == 0)
    cache->options.metrics_interval = 15;
  if (cache->options.compact_after_kib == 0)
    cache->options.compact_after_kib = COMPACT_AFTER_KIB;
#if defined(__GLIBC__) && defined(M_MMAP_THRESHOLD)
  /* Each batch writes the snapshot's arrays (megabytes) into buffers an earlier snapshot
   * freed (objects.c array_alloc); the others, and those of a relist, come from mmap and go
   * back to the system when freed.  glibc's threshold otherwise grows to the size of the
   * first such block freed, and later ones come from the heap, which fragments and keeps
   * them (RSS grew by half in bench/live-churn). */
  mallopt (M_MMAP_THRESHOLD, 1 << 20);
#endif
  cache->lister = fs_kube_client_clone (cache->client, error);
  if (cache->lister == NULL)
    return FALSE;
  fs_kube_client_set_cancel (cache->lister, &cache->stopping);
  gboolean any_polled = FALSE;
  for (guint i = 0; i < cache->n_listings; i++)
    {
      if (!cache->states[i].active)
        continue;
      if (!cache->listings[i].watchable)
        {
          any_polled = TRUE;
          continue;
        }
      Stream *stream = g_new0 (Stream, 1);
      stream->cache = cache;
      stream->listing = i;
      stream->client = fs_kube_client_clone (cache->client, error);
      if (stream->client == NULL)
        {
          g_free (stream);
          return FALSE;
        }
      fs_kube_client_set_cancel (stream->client, &cache->stopping);
      g_ptr_array_add (cache->streams, stream);
    }
  cache->applier = g_thread_new ("fs-apply", applier_thread, cache);
  /* a first copy right after the list: the list's pool holds what objects listed twice (a
   * relist, a file given twice) left behind, and its tables are sized for the list's
   * growth (at 150,000 pods, 68 MB become 58 MB: bench/compact) */
  g_mutex_lock (&cache->lock);
  start_compaction_locked (cache);
  g_mutex_unlock (&cache->lock);
  for (guint i = 0; i < cache->streams->len; i++)
    {
      Stream *stream = cache->streams->pdata[i];
      g_autofree char *name = g_strdup_printf ("fs-watch-%u", stream->listing);
      stream->thread = g_thread_new (name, stream_thread, stream);
    }
  if (any_polled)
    cache->poller = g_thread_new ("fs-metrics", poller_thread, cache);
  return TRUE;
}

void
fs_kube_cache_append_metrics (FsKubeCache *cache, GString *out)
{
  FsKubeCacheStats stats = fs_kube_cache_stats (cache);
  guint n = 0;
  FsKubeListingStatus *status = fs_kube_cache_listing_status (cache, &n);
  g_string_append (out, "# HELP fitscale_watch_last_sync_age_seconds Time since the resource was last confirmed current (list, event, bookmark).\n"
                        "# TYPE fitscale_watch_last_sync_age_seconds gauge\n");
  for (guint i = 0; i < n; i++)
    if (status[i].active)
      g_string_append_printf (out, "fitscale_watch_last_sync_age_seconds{resource=\"%s\"} %.3f\n", status[i].name, status[i].age);
  g_string_append (out, "# HELP fitscale_watch_resource_events_total Watch events received, by resource.\n"
                        "# TYPE fitscale_watch_resource_events_total counter\n");
  for (guint i = 0; i < n; i++)
    if (status[i].active)
      g_string_append_printf (out, "fitscale_watch_resource_events_total{resource=\"%s\"} %" G_GUINT64_FORMAT "\n",
                              status[i].name, status[i].events);
  g_string_append (out, "# HELP fitscale_watch_relists_total Lists of one resource made again after a 410 or an ERROR event.\n"
                        "# TYPE fitscale_watch_relists_total counter\n");
  for (guint i = 0; i < n; i++)
    if (status[i].active)
      g_string_append_printf (out, "fitscale_watch_relists_total{resource=\"%s\"} %u\n", status[i].name, status[i].relists);
  fs_kube_listing_status_free (status, n);
  g_string_append (out, "# HELP fitscale_watch_relist_failures_total Lists of one resource after the first (relists, PodMetrics polls) that failed; the resource kept its objects.\n"
                        "# TYPE fitscale_watch_relist_failures_total counter\n");
  g_mutex_lock (&cache->lock);
  for (guint i = 0; i < cache->n_listings; i++)
    if (cache->states[i].active)
      g_string_append_printf (out, "fitscale_watch_relist_failures_total{resource=\"%s\"} %u\n", cache->listings[i].name,
                              cache->states[i].relist_failures);
  g_mutex_unlock (&cache->lock);
  g_string_append_printf (out, "# HELP fitscale_watch_bookmarks_total BOOKMARK events received.\n"
                               "# TYPE fitscale_watch_bookmarks_total counter\nfitscale_watch_bookmarks_total %" G_GUINT64_FORMAT "\n"
                               "# HELP fitscale_watch_requests_total Watch requests made.\n"
                               "# TYPE fitscale_watch_requests_total counter\nfitscale_watch_requests_total %u\n"
                               "# HELP fitscale_snapshot_publishes_total Snapshots published after the first list.\n"
                               "# TYPE fitscale_snapshot_publishes_total counter\nfitscale_snapshot_publishes_total %u\n"
                               "# HELP fitscale_snapshot_compactions_total Snapshots copied into a fresh pool, leaving what went behind.\n"
                               "# TYPE fitscale_snapshot_compactions_total counter\nfitscale_snapshot_compactions_total %u\n",
                          stats.bookmarks, stats.watches, stats.publishes, stats.compactions);
  FsSnapshot *snapshot = fs_kube_cache_snapshot (cache);
  if (snapshot != NULL)
    {
      /* the pool the current snapshot shares with the others built since the last list or
       * compaction (docs/live.md) */
      g_string_append_printf (out, "# HELP fitscale_snapshot_pool_bytes Bytes of the string and object pool the live snapshots share.\n"
                                   "# TYPE fitscale_snapshot_pool_bytes gauge\nfitscale_snapshot_pool_bytes %" G_GSIZE_FORMAT "\n",
                              fs_pool_bytes (snapshot->pool));
      fs_snapshot_unref (snapshot);
    }
  g_string_append (out, "# HELP fitscale_watch_publish_delay_seconds From the first event of a batch received to its snapshot published.\n"
                        "# TYPE fitscale_watch_publish_delay_seconds histogram\n");
  guint64 cumulative = 0;
  for (guint b = 0; b < FS_KUBE_DELAY_BUCKETS; b++)
    {
      cumulative += stats.delay_counts[b];
      g_string_append_printf (out, "fitscale_watch_publish_delay_seconds_bucket{le=\"%g\"} %" G_GUINT64_FORMAT "\n",
                              fs_kube_delay_bounds[b], cumulative);
    }
  cumulative += stats.delay_counts[FS_KUBE_DELAY_BUCKETS];
  g_string_append_printf (out, "fitscale_watch_publish_delay_seconds_bucket{le=\"+Inf\"} %" G_GUINT64_FORMAT "\n"
                               "fitscale_watch_publish_delay_seconds_sum %.6f\n"
                               "fitscale_watch_publish_delay_seconds_count %" G_GUINT64_FORMAT "\n",
                          cumulative, stats.delay_sum, stats.delay_count);
}

double
fs_kube_cache_listing_age (FsKubeCache *cache, const char *name)
{
  double age = -1;
  gint64 now = g_get_monotonic_time ();
  g_mutex_lock (&cache->lock);
  for (guint i = 0; i < cache->n_listings; i++)
    if (cache->states[i].active && strcmp (cache->listings[i].name, name) == 0)
      age = (double) (now - cache->states[i].confirmed_at) / G_USEC_PER_SEC;
  g_mutex_unlock (&cache->lock);
  return age;
}
