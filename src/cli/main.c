/* fitscale — the command-line entry point: dispatches to a subcommand.  Installed also as
 * kubectl-fitscale, so that `kubectl fitscale ...` runs it as a kubectl plugin. */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"

typedef struct {
  const char *name;
  int (*run) (int argc, char **argv);
  const char *summary;
} Command;

static const Command commands[] = {
  { "capacity", fs_cmd_capacity, "How many replicas of a pod shape fit, where, and what is missing" },
  { "hpa", fs_cmd_hpa, "What a HorizontalPodAutoscaler computes, metric by metric, and why" },
  { "hvpa", fs_cmd_hvpa, "What the HVPA would apply now (stage, weights, blocked rules)" },
  { "nodes", fs_cmd_nodes, "Per-node allocatable, requested and free resources" },
  { "plan", fs_cmd_plan, "The replicas and requests that schedule, closest to the HPA and VPA" },
  { "quantity", fs_cmd_quantity, "Parse Kubernetes quantities and print their exact values" },
  { "serve", fs_cmd_serve, "The planner, why and capacity as an HTTP JSON service" },
  { "simulate", fs_cmd_simulate, "Replay a load trace through the HPA loop, sync by sync" },
  { "why", fs_cmd_why, "Why a pod is Pending, and the smallest fixes" },
};

static void
usage (FILE *out)
{
  fputs ("Usage: fitscale COMMAND [OPTIONS...]\n\n"
         "Plan Kubernetes scaling that the scheduler can actually carry out.\n\n"
         "Commands:\n", out);
  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (out, "  %-10s %s\n", commands[i].name, commands[i].summary);
  fputs ("\nRun 'fitscale COMMAND --help' for a command's options.\n"
         "As a kubectl plugin: kubectl fitscale COMMAND ...\n", out);
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  if (argc < 2)
    {
      usage (stderr);
      return FS_EXIT_ERROR;
    }
  const char *name = argv[1];
  if (strcmp (name, "--help") == 0 || strcmp (name, "-h") == 0 || strcmp (name, "help") == 0)
    {
      if (argc > 2 && strcmp (name, "help") == 0)
        {
          char *help_argv[] = { argv[2], (char *) "--help", NULL };
          for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
            if (strcmp (argv[2], commands[i].name) == 0)
              {
                g_autofree char *program = g_strdup_printf ("fitscale %s", argv[2]);
                g_set_prgname (program);
                return commands[i].run (2, help_argv);
              }
        }
      usage (stdout);
      return FS_EXIT_OK;
    }
  if (strcmp (name, "--version") == 0 || strcmp (name, "version") == 0)
    {
      printf ("fitscale %s\n", PACKAGE_VERSION);
      return FS_EXIT_OK;
    }
  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (name, commands[i].name) == 0)
      {
        /* --help then reads "Usage: fitscale CMD ..." */
        g_autofree char *program = g_strdup_printf ("fitscale %s", name);
        g_set_prgname (program);
        return commands[i].run (argc - 1, argv + 1);
      }
  fprintf (stderr, "fitscale: unknown command \"%s\"\n\n", name);
  usage (stderr);
  return FS_EXIT_ERROR;
}
