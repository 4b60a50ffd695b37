/* fitscale — the list+watch cache (see include/fitscale/watch.h). */
#include "config.h"

#include <string.h>

#include "fitscale/kube/decode.h"
#include "fitscale/model/error.h"
#include "fitscale/model/schedconfig.h"
#include "fitscale/kube/watch.h"
#include "jsontree.h"

#define MAX_EVENT_BYTES (16u << 20)
#define MAX_DEPTH 16           /* snapshots built on snapshots before a fresh list */

struct FsKubeCache {
  FsKubeClient *client;
  guint resources;
  char **versions;             /* per listing: where its watch resumes */
  guint n_listings;
  GMutex lock;                 /* guards current */
  FsSnapshot *current;
  FsKubeCacheStats stats;
  FsSchedulerConfig *scheduler_config; /* stamped on every snapshot it makes */
};

FsKubeCache *
fs_kube_cache_new (FsKubeClient *client, guint resources)
{
  FsKubeCache *cache = g_new0 (FsKubeCache, 1);
  cache->client = client;
  cache->resources = resources;
  fs_kube_listings (&cache->n_listings);
  cache->versions = g_new0 (char *, cache->n_listings + 1);
  g_mutex_init (&cache->lock);
  return cache;
}

void
fs_kube_cache_free (FsKubeCache *cache)
{
  if (cache == NULL)
    return;
  for (guint i = 0; i < cache->n_listings; i++)
    g_free (cache->versions[i]); /* NULL where not listed: no g_strfreev */
  g_free (cache->versions);
  fs_snapshot_unref (cache->current);
  fs_scheduler_config_unref (cache->scheduler_config);
  g_mutex_clear (&cache->lock);
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

static void
swap_in (FsKubeCache *cache, FsSnapshot *snapshot)
{
  /* not shared yet: the configuration goes on before anyone reads it */
  fs_snapshot_set_scheduler_config (snapshot, cache->scheduler_config);
  g_mutex_lock (&cache->lock);
  FsSnapshot *old = cache->current;
  cache->current = snapshot;
  cache->stats.synced_at = g_get_real_time ();
  g_mutex_unlock (&cache->lock);
  fs_snapshot_unref (old);
}

FsSnapshot *
fs_kube_cache_snapshot (FsKubeCache *cache)
{
  g_mutex_lock (&cache->lock);
  FsSnapshot *snapshot = cache->current != NULL ? fs_snapshot_ref (cache->current) : NULL;
  g_mutex_unlock (&cache->lock);
  return snapshot;
}

FsKubeCacheStats
fs_kube_cache_stats (FsKubeCache *cache)
{
  g_mutex_lock (&cache->lock);
  FsKubeCacheStats stats = cache->stats;
  g_mutex_unlock (&cache->lock);
  return stats;
}

gboolean
fs_kube_cache_sync (FsKubeCache *cache, gboolean progress, GPtrArray *skipped, GError **error)
{
  for (guint i = 0; i < cache->n_listings; i++)
    g_clear_pointer (&cache->versions[i], g_free);
  FsSnapshot *snapshot = fs_kube_load_versions (cache->client, cache->resources, progress, skipped,
                                                cache->versions, error);
  if (snapshot == NULL)
    return FALSE;
  swap_in (cache, snapshot);
  return TRUE;
}

/* ---- one watch ---------------------------------------------------------------------------- */

typedef struct {
  FsKubeCache *cache;
  guint listing;
  GString *line;
  FsSnapshotBuilder *builder;  /* made on the first change */
  gboolean expired;            /* 410: list again */
  guint applied;
} WatchStream;

static void
resume_at (WatchStream *stream, yajl_val object)
{
  const char *version = fs_json_tree_string (object, "metadata", "resourceVersion");
  if (version == NULL)
    return;
  g_free (stream->cache->versions[stream->listing]);
  stream->cache->versions[stream->listing] = g_strdup (version);
}

static FsSnapshotBuilder *
builder_of (WatchStream *stream)
{
  if (stream->builder == NULL)
    stream->builder = fs_snapshot_builder_new_from (stream->cache->current);
  return stream->builder;
}

/* Applies one event: {"type": ADDED|MODIFIED|DELETED|BOOKMARK|ERROR, "object": {...}}. */
static gboolean
apply_event (WatchStream *stream, const char *text, GError **error)
{
  char problem[256];
  yajl_val root = yajl_tree_parse (text, problem, sizeof problem);
  if (root == NULL)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "watch %s: an event that is not JSON: %s",
                   fs_kube_listings (&(guint){ 0 })[stream->listing].path, problem);
      return FALSE;
    }
  const char *type = fs_json_tree_string (root, "type", NULL);
  const char *path[] = { "object", NULL };
  yajl_val object = yajl_tree_get (root, path, yajl_t_object);
  gboolean ok = TRUE;
  if (g_strcmp0 (type, "ERROR") == 0)
    {
      const char *code_path[] = { "object", "code", NULL };
      yajl_val code = yajl_tree_get (root, code_path, yajl_t_number);
      stream->expired = code != NULL && YAJL_IS_INTEGER (code) && YAJL_GET_INTEGER (code) == 410;
      if (!stream->expired)
        {
          const char *message = fs_json_tree_string (object, "message", NULL);
          g_set_error (error, FS_ERROR, FS_ERROR_IO, "watch: %s", message != NULL ? message : "an ERROR event");
          ok = FALSE;
        }
    }
  else if (object != NULL && g_strcmp0 (type, "BOOKMARK") == 0)
    {
      resume_at (stream, object);
      stream->cache->stats.bookmarks++;
    }
  else if (object != NULL && g_strcmp0 (type, "DELETED") == 0)
    {
      fs_snapshot_builder_remove (builder_of (stream), fs_json_tree_string (object, "kind", NULL),
                                  fs_json_tree_string (object, "metadata", "namespace"), fs_json_tree_string (object, "metadata", "name"));
      resume_at (stream, object);
      stream->applied++;
    }
  else if (object != NULL && (g_strcmp0 (type, "ADDED") == 0 || g_strcmp0 (type, "MODIFIED") == 0))
    {
      yajl_gen gen = yajl_gen_alloc (NULL);
      fs_json_tree_gen (gen, object);
      const unsigned char *json;
      size_t length;
      yajl_gen_get_buf (gen, &json, &length);
      ok = fs_load_bytes (builder_of (stream), "watch event", (const char *) json, length, error);
      yajl_gen_free (gen);
      resume_at (stream, object);
      stream->applied++;
    }
  yajl_tree_free (root);
  return ok;
}

static gboolean
on_watch_bytes (const char *data, gsize len, gpointer user_data, GError **error)
{
  WatchStream *stream = user_data;
  for (gsize i = 0; i < len; i++)
    {
      if (data[i] != '\n')
        {
          if (stream->line->len >= MAX_EVENT_BYTES)
            {
              g_set_error (error, FS_ERROR, FS_ERROR_LIMIT, "watch: an event over %u MiB", MAX_EVENT_BYTES >> 20);
              return FALSE;
            }
          g_string_append_c (stream->line, data[i]);
          continue;
        }
      gboolean ok = stream->line->len == 0 || apply_event (stream, stream->line->str, error);
      g_string_truncate (stream->line, 0);
      if (!ok)
        return FALSE;
    }
  return TRUE;
}

static gboolean
watch_listing (FsKubeCache *cache, guint i, guint timeout_seconds, WatchStream *stream, GError **error)
{
  const FsKubeListing *listing = &fs_kube_listings (&(guint){ 0 })[i];
  g_autofree char *selector = listing->field_selector != NULL
      ? g_uri_escape_string (listing->field_selector, "=!,", FALSE) : NULL;
  g_autofree char *version = g_uri_escape_string (cache->versions[i], NULL, FALSE);
  g_autofree char *request = g_strdup_printf ("%s?watch=1&allowWatchBookmarks=true&resourceVersion=%s"
                                              "&timeoutSeconds=%u%s%s",
                                              listing->path, version, timeout_seconds,
                                              selector != NULL ? "&fieldSelector=" : "", selector != NULL ? selector : "");
  long status = 0;
  GError *local_error = NULL;
  cache->stats.watches++;
  if (fs_kube_client_get (cache->client, request, on_watch_bytes, stream, &status, &local_error))
    return stream->line->len == 0 || on_watch_bytes ("\n", 1, stream, error);
  if (status == 410)
    {
      stream->expired = TRUE; /* "too old resource version" as a plain HTTP answer */
      g_error_free (local_error);
      return TRUE;
    }
  g_propagate_error (error, local_error);
  return FALSE;
}

gboolean
fs_kube_cache_watch (FsKubeCache *cache, guint timeout_seconds, gboolean *changed, GError **error)
{
  *changed = FALSE;
  if (cache->current == NULL && !fs_kube_cache_sync (cache, FALSE, NULL, error))
    return FALSE;
  const FsKubeListing *listings = fs_kube_listings (&(guint){ 0 });
  WatchStream stream = { cache, 0, g_string_new (NULL), NULL, FALSE, 0 };
  gboolean ok = TRUE;
  for (guint i = 0; ok && !stream.expired && i < cache->n_listings; i++)
    {
      if (!(cache->resources & listings[i].resource) || !listings[i].watchable || cache->versions[i] == NULL)
        continue;
      stream.listing = i;
      g_string_truncate (stream.line, 0);
      ok = watch_listing (cache, i, timeout_seconds, &stream, error);
    }
  g_string_free (stream.line, TRUE);
  cache->stats.events += stream.applied;
  if (!ok || stream.expired)
    {
      fs_snapshot_builder_free (stream.builder);
      if (!ok)
        return FALSE;
      cache->stats.relists++;
      *changed = TRUE;
      return fs_kube_cache_sync (cache, FALSE, NULL, error);
    }
  if (stream.builder == NULL)
    return TRUE;
  FsSnapshot *next = fs_snapshot_builder_finish (stream.builder, error);
  if (next == NULL)
    return FALSE;
  *changed = TRUE;
  swap_in (cache, next);
  if (fs_snapshot_depth (next) >= MAX_DEPTH)
    return fs_kube_cache_sync (cache, FALSE, NULL, error); /* a fresh pool, without the chain */
  return TRUE;
}
