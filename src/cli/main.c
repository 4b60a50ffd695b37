/* fitscale — the command-line entry point: dispatches to a subcommand.  Installed also as
 * kubectl-fitscale, so that `kubectl fitscale ...` runs it as a kubectl plugin. */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"

static const FsCliCommand *const commands[] = {
  &fs_cli_capacity, &fs_cli_hpa, &fs_cli_hvpa, &fs_cli_nodes, &fs_cli_plan,
  &fs_cli_quantity, &fs_cli_serve, &fs_cli_simulate, &fs_cli_snapshot, &fs_cli_why,
};

static void
usage (FILE *out)
{
  fputs ("Usage: fitscale COMMAND [OPTIONS...]\n\n"
         "Plan Kubernetes scaling that the scheduler can actually carry out.\n\n"
         "Commands:\n", out);
  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (out, "  %-10s %c%s\n", commands[i]->name, g_ascii_toupper (commands[i]->summary[0]),
             commands[i]->summary + 1);
  fputs ("\nRun 'fitscale COMMAND --help' for a command's options.\n"
         "As a kubectl plugin: kubectl fitscale COMMAND ...\n", out);
}

/* Runs COMMAND on ARGV (ARGV[0] its name); its --help then reads "Usage: fitscale CMD ...". */
static int
run (const FsCliCommand *command, int argc, char **argv)
{
  g_autofree char *program = g_strdup_printf ("fitscale %s", command->name);
  g_set_prgname (program);
  return command->run (argc, argv);
}

/* NAME is no command: said, with the closest one when one is close (as kubectl does), and the
 * usage. */
static int
unknown_command (const char *name)
{
  const char *names[G_N_ELEMENTS (commands)];
  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    names[i] = commands[i]->name;
  const char *closest = fs_cli_closest (name, names, G_N_ELEMENTS (names));
  g_autofree char *safe = fs_terminal_safe (name);
  if (closest != NULL)
    fprintf (stderr, "fitscale: unknown command \"%s\": did you mean \"%s\"?\n\n", safe, closest);
  else
    fprintf (stderr, "fitscale: unknown command \"%s\"\n\n", safe);
  usage (stderr);
  return FS_EXIT_ERROR;
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
            if (strcmp (argv[2], commands[i]->name) == 0)
              return run (commands[i], 2, help_argv);
          return unknown_command (argv[2]);
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
    if (strcmp (name, commands[i]->name) == 0)
      return run (commands[i], argc - 1, argv + 1);
  return unknown_command (name);
}
