/* bench-plan — how fast fitscale plans on a large snapshot.
 *
 *   bench-plan NODES.json PODS.json WORKLOAD.json [RUNS]
 *
 * Loads the snapshot (timed), then plans deployment/bench-api in namespace bench RUNS times
 * (default 11) and prints the load time, the median and the slowest planning time, the pairs
 * evaluated and the plan.  Built with the project (make bench/bench-plan), run by bench/plan. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "fitscale/kube/decode.h"
#include "fitscale/plan/plan.h"

static double
seconds_since (gint64 start)
{
  return (double) (g_get_monotonic_time () - start) / 1e6;
}

static int
compare_doubles (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

int
main (int argc, char **argv)
{
  if (argc < 4)
    {
      fprintf (stderr, "usage: %s NODES.json PODS.json WORKLOAD.json [RUNS]\n", argv[0]);
      return 2;
    }
  int runs = argc > 4 ? atoi (argv[4]) : 11;
  runs = CLAMP (runs, 1, 1000);
  const char *paths[] = { argv[1], argv[2], argv[3], NULL };
  g_autoptr (GError) error = NULL;
  gint64 start = g_get_monotonic_time ();
  g_autoptr (FsSnapshot) snapshot = fs_load_snapshot (paths, &error);
  if (snapshot == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 2;
    }
  double load = seconds_since (start);
  FsPlanRequest request = { .kind = "deployment", .namespace = "bench", .name = "bench-api" };
  g_autofree double *times = g_new (double, runs);
  g_autoptr (FsPlanAnswer) answer = NULL;
  for (int i = 0; i < runs; i++)
    {
      g_clear_pointer (&answer, fs_plan_answer_free);
      start = g_get_monotonic_time ();
      answer = fs_plan (snapshot, &request, &error);
      times[i] = seconds_since (start);
      if (answer == NULL)
        {
          fprintf (stderr, "%s\n", error->message);
          return 2;
        }
    }
  qsort (times, runs, sizeof *times, compare_doubles);
  printf ("snapshot: %u nodes, %u pods, loaded in %.2f s\n", snapshot->n_nodes, snapshot->n_pods, load);
  printf ("plan: %u pairs (%u request steps), median %.1f ms, slowest %.1f ms over %d runs; "
          "planning / load = %.4f\n",
          answer->n_candidates, answer->n_steps, times[runs / 2] * 1e3, times[runs - 1] * 1e3, runs,
          times[runs / 2] / load);
  printf ("HVPA point %d replicas, %" G_GINT64_FORMAT " of them Pending; plan %d replicas (%s), "
          "%" G_GINT64_FORMAT " Pending\n",
          answer->target.replicas, answer->target.pending, answer->plan.replicas,
          fs_plan_outcome_name (answer->outcome), answer->plan.pending);
  return 0;
}
