/* fitscale — option handling shared by the subcommands (see commands.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "fitscale/decode.h"
#include "fitscale/error.h"
#include "fitscale/timeutil.h"

void
fs_cli_add_common (GOptionContext *context, FsCommonOptions *options, gboolean with_snapshot)
{
  GOptionEntry entries[] = {
    { "snapshot", 'S', 0, G_OPTION_ARG_FILENAME_ARRAY, &options->snapshot_paths,
      "Read the cluster from PATH: a JSON or YAML file (kubectl get -o json|yaml), a "
      "directory of them, or - for standard input. Repeat for more", "PATH" },
    { "output", 'o', 0, G_OPTION_ARG_STRING, &options->output,
      "Output format: wide, json or yaml (default: a table)", "FORMAT" },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &options->quiet, "Print no notes on stderr", NULL },
    { NULL }
  };
  g_option_context_add_main_entries (context, with_snapshot ? entries : entries + 1, NULL);
}

void
fs_cli_common_clear (FsCommonOptions *options)
{
  g_strfreev (options->snapshot_paths);
  g_free (options->output);
}

int
fs_cli_fail (const char *command, const GError *error)
{
  fprintf (stderr, "fitscale %s: %s\n", command, error->message);
  return FS_EXIT_ERROR;
}

gboolean
fs_cli_parse (GOptionContext *context, const char *command, int *argc, char ***argv)
{
  g_autoptr (GError) error = NULL;
  if (g_option_context_parse (context, argc, argv, &error))
    return TRUE;
  fprintf (stderr, "fitscale %s: %s\nRun 'fitscale %s --help' for usage.\n", command,
           error->message, command);
  return FALSE;
}

FsSnapshot *
fs_cli_load (const char *command, const FsCommonOptions *options)
{
  g_autoptr (GError) error = NULL;
  if (options->snapshot_paths == NULL)
    {
      g_set_error (&error, FS_ERROR, FS_ERROR_USAGE,
                   "no cluster to read: give --snapshot PATH (files from kubectl get -o json)");
      fs_cli_fail (command, error);
      return NULL;
    }
  FsSnapshot *snapshot = fs_load_snapshot ((const char *const *) options->snapshot_paths, &error);
  if (snapshot == NULL)
    fs_cli_fail (command, error);
  else if (snapshot->n_skipped > 0 && !options->quiet)
    fprintf (stderr, "fitscale %s: note: %u object%s of kinds fitscale does not read were skipped\n",
             command, snapshot->n_skipped, snapshot->n_skipped == 1 ? "" : "s");
  return snapshot;
}

const char *
fs_cli_split_name (const char *argument, const char *namespace, char **ns)
{
  const char *slash = strchr (argument, '/');
  *ns = slash != NULL ? g_strndup (argument, (gsize) (slash - argument))
                      : g_strdup (namespace != NULL ? namespace : "default");
  return slash != NULL ? slash + 1 : argument;
}

gboolean
fs_cli_parse_now (const char *command, const char *text, int64_t *seconds)
{
  *seconds = g_get_real_time () / G_USEC_PER_SEC;
  if (text == NULL || fs_time_parse (text, strlen (text), seconds))
    return TRUE;
  fprintf (stderr, "fitscale %s: --now \"%s\" is not an RFC 3339 time\n", command, text);
  return FALSE;
}
