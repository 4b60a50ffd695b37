/* fitscale — --watch for the commands that answer on a live cluster (why, nodes, capacity):
 * answer on the listed cluster, start the watches (kube/watch.h), and answer again after
 * every new snapshot whose answer differs from the last one printed.  A resource that has
 * not been confirmed current (list, event, bookmark) for longer than serve's --max-staleness
 * default is said on stderr, once when it goes stale and once when it is current again: an
 * answer that stopped changing because a watch keeps failing never looks current.  See
 * commands.h. */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "fitscale/model/error.h"
#include "fitscale/render/output.h"
#include "fitscale/render/why.h"

/* serve's --max-staleness default (cmd-serve.c); FS_WATCH_MAX_STALENESS (seconds) sets it,
 * for tests */
#define STALE_AFTER_S 120.0
/* how often staleness is looked at while no snapshot comes */
#define STALE_CHECK_MS 500

/* Which watched resources were last said to be stale (by fs_kube_listings index). */
typedef struct {
  double limit;
  gboolean *stale;
  guint n;
} Staleness;

static double
stale_limit (void)
{
  const char *text = g_getenv ("FS_WATCH_MAX_STALENESS");
  double limit = text != NULL ? g_ascii_strtod (text, NULL) : 0;
  return limit > 0 ? limit : STALE_AFTER_S;
}

/* Says on stderr which watched resources went stale past the limit (and why their watch or
 * list last failed) or came back, since the last call. */
static void
warn_staleness (const char *command, FsKubeCache *cache, Staleness *seen)
{
  guint n = 0;
  FsKubeListingStatus *status = fs_kube_cache_listing_status (cache, &n);
  for (guint i = 0; i < n && i < seen->n; i++)
    {
      gboolean stale = status[i].active && status[i].watched && status[i].age > seen->limit;
      if (stale == seen->stale[i])
        continue;
      seen->stale[i] = stale;
      g_autofree char *error = status[i].error != NULL ? fs_terminal_safe (status[i].error) : NULL;
      if (stale)
        fprintf (stderr, "fitscale %s: warning: %s not confirmed current for %.0f s (over %g s): the answer may be "
                 "out of date%s%s\n", command, status[i].name, status[i].age, seen->limit,
                 error != NULL ? ": " : "", error != NULL ? error : "");
      else
        fprintf (stderr, "fitscale %s: %s confirmed current again\n", command, status[i].name);
    }
  fflush (stderr);
  fs_kube_listing_status_free (status, n);
}

/* ANSWER's text for SNAPSHOT as it would be printed (stdout caught in a temporary file), and
 * its exit status in *STATUS; NULL when it cannot be caught. */
static char *
caught_answer (FsCliAnswer answer, const FsSnapshot *snapshot, gpointer data, int *status)
{
  fflush (stdout);
  FILE *caught = tmpfile ();
  int saved = caught != NULL ? dup (STDOUT_FILENO) : -1;
  if (saved < 0 || dup2 (fileno (caught), STDOUT_FILENO) < 0)
    {
      if (saved >= 0)
        close (saved);
      if (caught != NULL)
        fclose (caught);
      return NULL;
    }
  *status = answer (snapshot, data);
  fflush (stdout);
  dup2 (saved, STDOUT_FILENO);
  close (saved);
  GString *text = g_string_new (NULL);
  char buffer[8192];
  size_t n;
  rewind (caught);
  while ((n = fread (buffer, 1, sizeof buffer, caught)) > 0)
    g_string_append_len (text, buffer, (gssize) n);
  fclose (caught);
  return g_string_free (text, FALSE);
}

gboolean
fs_cli_watch_check (const FsCliWatch *watch, const FsCommonOptions *options, GError **error)
{
  if (!fs_cli_check_range ("--watch-timeout", watch->timeout, 1, 86400, error)
      || !fs_cli_check_range ("--watch-rounds", watch->rounds, 0, G_MAXINT32, error)
      || !fs_cli_check_range ("--metrics-interval", watch->metrics_interval, 1, 86400, error))
    return FALSE;
  if (watch->watch && options->snapshot_paths != NULL)
    {
      fs_cli_usage (error, "--watch reads a live cluster: drop --snapshot");
      return FALSE;
    }
  return TRUE;
}

int
fs_cli_watch (const FsCliCommand *command, FsCommonOptions *options, const FsCliWatch *watch,
              guint resources, FsOutputFormat format, FsCliAnswer answer, gpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FsKubeLive) live = fs_kube_live_open (&options->connection, resources,
                                                   fs_cli_live_progress (options), NULL, &error);
  if (live == NULL || !fs_cli_scheduler_config (command->name, options, live, &error))
    return fs_cli_fail (command->name, error);
  fs_cli_live_opened (command->name, options, live);
  FsKubeCacheOptions cache_options = { (guint) watch->timeout, 30, (guint) watch->metrics_interval, 0 };
  int status = FS_EXIT_OK;
  g_autofree char *last = NULL;
  gboolean started = FALSE;
  guint n_listings = 0;
  fs_kube_listings (&n_listings);
  g_autofree gboolean *stale = g_new0 (gboolean, n_listings);
  Staleness seen = { stale_limit (), stale, n_listings };
  for (gint changed = 0; watch->rounds <= 0 || changed <= watch->rounds;)
    {
      /* the generation first: a snapshot published in between is taken now and answered
       * again after the wait, never missed */
      guint64 generation = fs_kube_cache_stats (live->cache).generation;
      g_autoptr (FsSnapshot) snapshot = fs_kube_cache_snapshot (live->cache);
      /* the snapshot's own warnings go into the answer (and a new one to stderr) before it is
       * compared with the last: the first answer has them too */
      fs_cli_snapshot_changed (command->name, options, snapshot, resources);
      int answered = FS_EXIT_OK;
      g_autofree char *text = caught_answer (answer, snapshot, data, &answered);
      if (text == NULL)
        {
          g_set_error (&error, FS_ERROR, FS_ERROR_IO, "--watch: cannot hold an answer in a temporary file");
          return fs_cli_fail (command->name, error);
        }
      if (last == NULL || strcmp (text, last) != 0)
        {
          g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
          if (last != NULL && format != FS_OUTPUT_JSON && format != FS_OUTPUT_YAML)
            fs_render_cluster_changed (stdout, now);
          fputs (text, stdout);
          fflush (stdout);
          status = answered;
          changed += last != NULL;
          g_free (last);
          last = g_steal_pointer (&text);
          if (watch->rounds > 0 && changed == watch->rounds)
            break;
        }
      if (!started)
        {
          if (!fs_kube_cache_start (live->cache, &cache_options, &error))
            return fs_cli_fail (command->name, error);
          started = TRUE;
        }
      while (fs_kube_cache_wait (live->cache, generation, STALE_CHECK_MS) <= generation)
        warn_staleness (command->name, live->cache, &seen);
      warn_staleness (command->name, live->cache, &seen);
    }
  return status;
}
