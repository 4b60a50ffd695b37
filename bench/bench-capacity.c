/* bench-capacity — how fast fitscale answers capacity questions on a large snapshot.
 *
 *   bench-capacity NODES.json PODS.json [SHAPES [SPREAD.yaml...]]
 *
 * Loads the snapshot (timed), then computes the frontier of SHAPES (default 1000) memory
 * request sizes for a 100m-cpu pod, once with the node-only fast path and once through the
 * full packing per shape, and prints the times.  Then, for each SPREAD.yaml (a pod with
 * DoNotSchedule topology spread), one packing (fs_pack) of as many replicas as fit and one
 * of 1000, without the new-node estimate.  Built with the project (make), run by
 * bench/capacity. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "fitscale/model/pack.h"
#include "fitscale/plan/capacity.h"
#include "fitscale/kube/decode.h"
#include "fitscale/plan/shape.h"

static double
seconds_since (gint64 start)
{
  return (double) (g_get_monotonic_time () - start) / 1e6;
}

/* fs_pack of the pod in PATH on SNAPSHOT: as many replicas as fit, then 1000. */
static gboolean
time_spread (const FsSnapshot *snapshot, const char *path)
{
  FsShapeFlags flags = { 0 };
  g_autoptr (GError) error = NULL;
  g_autoptr (FsShape) shape = fs_shape_from_file (path, &flags, &error);
  if (shape == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return FALSE;
    }
  g_autofree FsNodeFit *fits = g_new0 (FsNodeFit, snapshot->n_nodes + 1);
  const int64_t asked[] = { -1, 1000 };
  for (gsize k = 0; k < G_N_ELEMENTS (asked); k++)
    {
      FsPackOptions options = { .replicas = asked[k] };
      FsPackResult result;
      gint64 start = g_get_monotonic_time ();
      fs_pack (snapshot, fs_shape_pod (shape), &options, fits, &result);
      printf ("%s, %s: %" G_GINT64_FORMAT " fit (%s), %" G_GINT64_FORMAT " placed in %.3f s\n", path,
              asked[k] < 0 ? "as many as fit" : "1000 asked", result.capacity,
              fs_pack_limit_name (result.limited_by), result.placed, seconds_since (start));
    }
  return TRUE;
}

int
main (int argc, char **argv)
{
  if (argc < 3)
    {
      fprintf (stderr, "usage: %s NODES.json PODS.json [SHAPES]\n", argv[0]);
      return 2;
    }
  int64_t shapes = argc > 3 ? g_ascii_strtoll (argv[3], NULL, 10) : 1000;
  const char *paths[] = { argv[1], argv[2], NULL };
  g_autoptr (GError) error = NULL;
  gint64 start = g_get_monotonic_time ();
  g_autoptr (FsSnapshot) snapshot = fs_load_snapshot (paths, &error);
  if (snapshot == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 2;
    }
  double load = seconds_since (start);
  FsShapeFlags flags = { .request = "cpu=100m,memory=1Mi" };
  g_autoptr (FsShape) shape = fs_shape_from_flags (&flags, &error);
  g_autoptr (GArray) points = g_array_new (FALSE, FALSE, sizeof (FsFrontierPoint));
  start = g_get_monotonic_time ();
  if (!fs_capacity_frontier (snapshot, fs_shape_pod (shape), NULL, "memory", 1 << 20,
                             shapes << 20, 1 << 20, points, &error))
    {
      fprintf (stderr, "%s\n", error->message);
      return 2;
    }
  double frontier = seconds_since (start);
  start = g_get_monotonic_time ();
  g_autoptr (FsCapacityAnswer) answer = fs_capacity_answer (snapshot, fs_shape_pod (shape), 1000, NULL);
  double one = seconds_since (start);
  printf ("snapshot: %u nodes, %u pods, loaded in %.2f s\n", snapshot->n_nodes, snapshot->n_pods, load);
  printf ("frontier: %" G_GINT64_FORMAT " shapes x %u nodes in %.3f s (%.0f shapes/s); "
          "1Mi -> %" G_GINT64_FORMAT " replicas, %" G_GINT64_FORMAT "Mi -> %" G_GINT64_FORMAT "\n",
          shapes, snapshot->n_nodes, frontier, shapes / frontier,
          g_array_index (points, FsFrontierPoint, 0).capacity, shapes,
          g_array_index (points, FsFrontierPoint, points->len - 1).capacity);
  printf ("one full capacity answer (all filters, placement of 1000): %.3f s\n", one);
  for (int a = 4; a < argc; a++)
    if (!time_spread (snapshot, argv[a]))
      return 2;
  return 0;
}
