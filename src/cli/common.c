/* fitscale — option handling shared by the subcommands (see commands.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "fitscale/kube/client.h"
#include "fitscale/kube/decode.h"
#include "fitscale/model/error.h"
#include "fitscale/model/timeutil.h"

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
  if (!with_snapshot)
    return;
  FsConnectionFlags *flags = &options->connection;
  GOptionEntry connection[] = {
    { "kubeconfig", 0, 0, G_OPTION_ARG_FILENAME, &flags->kubeconfig,
      "Without --snapshot, the cluster: this kubeconfig file alone (default: KUBECONFIG's files merged, "
      "else ~/.kube/config, else the in-cluster service account)", "FILE" },
    { "context", 0, 0, G_OPTION_ARG_STRING, &flags->context, "The kubeconfig context to use", "NAME" },
    { "cluster", 0, 0, G_OPTION_ARG_STRING, &flags->cluster, "The kubeconfig cluster to use", "NAME" },
    { "user", 0, 0, G_OPTION_ARG_STRING, &flags->user, "The kubeconfig user to use", "NAME" },
    { "server", 's', 0, G_OPTION_ARG_STRING, &flags->server, "The API server's address and port", "URL" },
    { "token", 0, 0, G_OPTION_ARG_STRING, &flags->token, "A bearer token for the API server", "TOKEN" },
    { "certificate-authority", 0, 0, G_OPTION_ARG_FILENAME, &flags->certificate_authority,
      "A CA certificate file to check the server with", "FILE" },
    { "client-certificate", 0, 0, G_OPTION_ARG_FILENAME, &flags->client_certificate,
      "A client certificate file for TLS", "FILE" },
    { "client-key", 0, 0, G_OPTION_ARG_FILENAME, &flags->client_key, "The client certificate's key file", "FILE" },
    { "insecure-skip-tls-verify", 0, 0, G_OPTION_ARG_NONE, &flags->insecure_skip_tls_verify,
      "Do not check the server's certificate (insecure)", NULL },
    { "tls-server-name", 0, 0, G_OPTION_ARG_STRING, &flags->tls_server_name,
      "The name to check the server's certificate against (and send as SNI)", "NAME" },
    { "request-timeout", 0, 0, G_OPTION_ARG_STRING, &flags->request_timeout,
      "How long one request may take: 30s, 2m, ... (0: no limit, the default)", "DURATION" },
    { NULL }
  };
  g_option_context_add_main_entries (context, connection, NULL);
}

void
fs_cli_common_clear (FsCommonOptions *options)
{
  g_strfreev (options->snapshot_paths);
  g_free (options->output);
  g_free (options->context_namespace);
  fs_connection_flags_clear (&options->connection);
}

gboolean
fs_cli_names_cluster (const FsCommonOptions *options)
{
  const FsConnectionFlags *flags = &options->connection;
  return options->snapshot_paths != NULL || flags->kubeconfig != NULL || flags->context != NULL
         || flags->cluster != NULL || flags->user != NULL || flags->server != NULL;
}

const char *
fs_cli_namespace (const FsCommonOptions *options, const char *flag)
{
  return flag != NULL ? flag : options->context_namespace;
}

/* The client's progress (FsKubeProgress) as one line on stderr, rewritten in place, erased when
 * the list is done. */
static void
live_progress (const char *listing, guint page, guint64 bytes, gboolean done, gpointer user_data)
{
  if (done)
    fprintf (stderr, "\r\033[K");
  else
    fprintf (stderr, "\r\033[Kfitscale: listing %s: page %u, %.1f MB", listing, page, bytes / 1e6);
}

FsKubeProgress
fs_cli_live_progress (const FsCommonOptions *options)
{
  return !options->quiet && isatty (2) ? live_progress : NULL;
}

void
fs_cli_live_opened (const char *command, FsCommonOptions *options, const FsKubeLive *live)
{
  g_free (options->context_namespace);
  options->context_namespace = g_strdup (live->context_namespace);
  for (guint i = 0; i < live->skipped->len && !options->quiet; i++)
    fprintf (stderr, "fitscale %s: note: the cluster does not serve %s (not installed?): going on without them\n",
             command, (const char *) live->skipped->pdata[i]);
}

/* The cluster the connection flags point to, listed. */
static FsSnapshot *
load_live (const char *command, FsCommonOptions *options, guint resources)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FsKubeLive) live = fs_kube_live_open (&options->connection, resources,
                                                   fs_cli_live_progress (options), NULL, &error);
  if (live == NULL)
    {
      fs_cli_fail (command, error);
      return NULL;
    }
  fs_cli_live_opened (command, options, live);
  return fs_kube_cache_snapshot (live->cache);
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
fs_cli_load (const char *command, FsCommonOptions *options, guint resources)
{
  g_autoptr (GError) error = NULL;
  if (options->snapshot_paths == NULL)
    return load_live (command, options, resources);
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
