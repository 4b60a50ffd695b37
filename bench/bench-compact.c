/* bench-compact — what compacting the live cache's shared pool costs (model/compact.h).
 *
 *   bench-compact NODES.json PODS.json [BATCHES]
 *
 * Loads the snapshot (timed), then applies BATCHES (default 2000) batches of 30 pod events as
 * the watch cache does (fs_snapshot_builder_new_from and finish: ADDED, MODIFIED with a new
 * label, DELETED), so that the shared pool holds what went; then compacts the last snapshot
 * and prints the pool before and after, the compaction's time beside a batch's and the
 * load's, and the events after which compaction pays for itself at the cache's thresholds.
 * CPU time of the process (CLOCK_PROCESS_CPUTIME_ID), so other load on the machine counts
 * less.  Built with the project (make), run by bench/compact. */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "fitscale/kube/decode.h"
#include "fitscale/model/compact.h"

static double
cpu_seconds (void)
{
  struct timespec now;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &now);
  return (double) now.tv_sec + (double) now.tv_nsec / 1e9;
}

static void
load_pod (FsSnapshotBuilder *builder, guint64 n, guint64 generation, const char *node)
{
  g_autofree char *json = g_strdup_printf (
      "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"churn-%" G_GUINT64_FORMAT "\",\"namespace\":\"churn\","
      "\"labels\":{\"app\":\"churn\",\"generation\":\"%" G_GUINT64_FORMAT "\"}},\"spec\":{\"nodeName\":\"%s\",\"containers\":[{\"name\":\"c\","
      "\"resources\":{\"requests\":{\"cpu\":\"10m\",\"memory\":\"16Mi\"}}}]},\"status\":{\"phase\":\"Running\"}}",
      n, generation, node);
  g_autoptr (GError) error = NULL;
  if (!fs_load_bytes (builder, "bench event", json, strlen (json), &error))
    g_error ("%s", error->message);
}

int
main (int argc, char **argv)
{
  if (argc < 3)
    {
      fprintf (stderr, "usage: %s NODES.json PODS.json [BATCHES]\n", argv[0]);
      return 2;
    }
  guint batches = argc > 3 ? (guint) g_ascii_strtoull (argv[3], NULL, 10) : 2000;
  const char *paths[] = { argv[1], argv[2], NULL };
  g_autoptr (GError) error = NULL;
  double start = cpu_seconds ();
  FsSnapshot *current = fs_load_snapshot (paths, &error);
  if (current == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 2;
    }
  double load = cpu_seconds () - start;
  gsize listed_bytes = fs_pool_bytes (current->pool);
  GRand *rand = g_rand_new_with_seed (18);
  guint64 created = 0, first_live = 0, events = 0;
  start = cpu_seconds ();
  for (guint b = 0; b < batches; b++)
    {
      FsSnapshotBuilder *builder = fs_snapshot_builder_new_from (current);
      for (int e = 0; e < 30; e++, events++)
        {
          int roll = g_rand_int_range (rand, 0, 100);
          const char *node = current->nodes[g_rand_int_range (rand, 0, (gint32) current->n_nodes)].name;
          if (roll < 30 && first_live < created)
            {
              g_autofree char *name = g_strdup_printf ("churn-%" G_GUINT64_FORMAT, first_live++);
              fs_snapshot_builder_remove (builder, "Pod", "churn", name);
            }
          else if (roll < 65 && first_live < created)
            load_pod (builder, first_live + (guint64) g_rand_int_range (rand, 0, (gint32) (created - first_live)), events, node);
          else
            load_pod (builder, created++, events, node);
        }
      FsSnapshot *next = fs_snapshot_builder_finish (builder, &error);
      if (next == NULL)
        g_error ("%s", error->message);
      fs_snapshot_unref (current);
      current = next;
    }
  double per_batch = (cpu_seconds () - start) / MAX (batches, 1);
  gsize grown_bytes = fs_pool_bytes (current->pool);
  start = cpu_seconds ();
  FsSnapshot *compacted = fs_snapshot_compact (current, &error);
  double compact = cpu_seconds () - start;
  if (compacted == NULL)
    g_error ("%s", error->message);
  gsize compacted_bytes = fs_pool_bytes (compacted->pool);
  printf ("snapshot: %u nodes, %u pods; load %.2f s CPU; pool after the list %.1f MB\n",
          current->n_nodes, current->n_pods, load, listed_bytes / 1048576.0);
  printf ("churn: %" G_GUINT64_FORMAT " events in %u batches of 30, %.1f ms CPU a batch; pool %.1f MB (%.0f bytes an event)\n",
          events, batches, per_batch * 1e3, grown_bytes / 1048576.0,
          (double) (grown_bytes - listed_bytes) / (double) MAX (events, 1));
  printf ("compaction: %.0f ms CPU (%.1f batches, %.2f of the load); pool %.1f MB -> %.1f MB\n",
          compact * 1e3, compact / per_batch, compact / load, grown_bytes / 1048576.0, compacted_bytes / 1048576.0);
  double garbage_per_event = (double) (grown_bytes - listed_bytes) / (double) MAX (events, 1);
  double between = garbage_per_event > 0 ? MAX ((double) compacted_bytes / 8, 8.0 * 1048576) / garbage_per_event : 0;
  printf ("at the cache's threshold (an eighth of the live pool, at least 8 MiB): a compaction every %.0f events, %.2f ms CPU per 1,000 events\n",
          between, between > 0 ? compact * 1e3 * 1000 / between : 0);
  fs_snapshot_unref (compacted);
  fs_snapshot_unref (current);
  g_rand_free (rand);
  return 0;
}
