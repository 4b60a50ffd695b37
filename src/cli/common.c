/* fitscale — option handling shared by the subcommands (see commands.h). */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "fitscale/kube/client.h"
#include "fitscale/kube/decode.h"
#include "fitscale/kube/schedconfig.h"
#include "fitscale/model/error.h"
#include "fitscale/model/selector.h"
#include "fitscale/model/timeutil.h"
#include "fitscale/plan/completeness.h"

/* The long options of the command being run ("--replicas"), for fs_cli_parse's suggestion:
 * one command runs per process, its context made once. */
static GPtrArray *known_options;

static void
know_options (const GOptionEntry *entries)
{
  if (known_options == NULL)
    known_options = g_ptr_array_new ();
  for (const GOptionEntry *entry = entries; entry != NULL && entry->long_name != NULL; entry++)
    g_ptr_array_add (known_options, (gpointer) g_intern_string (entry->long_name));
}

static void
add_entries (GOptionContext *context, const GOptionEntry *entries)
{
  know_options (entries);
  g_option_context_add_main_entries (context, entries, NULL);
}

static void
add_common (GOptionContext *context, FsCommonOptions *options, guint with_snapshot)
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
  if (with_snapshot == FS_CLI_LIVE_ONLY) /* fitscale snapshot: a file to read back */
    entries[1].description = "Output format: json (the default) or yaml";
  add_entries (context, with_snapshot == TRUE ? entries : entries + 1);
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
    { "scheduler-config", 0, 0, G_OPTION_ARG_FILENAME, &options->scheduler_config_path,
      "The cluster's KubeSchedulerConfiguration (kube-scheduler --config): each pod is judged by "
      "its schedulerName's profile (default: the default profile)", "FILE" },
    { NULL }
  };
  if (with_snapshot == FS_CLI_LIVE_ONLY)
    connection[G_N_ELEMENTS (connection) - 2] = (GOptionEntry) { NULL }; /* no --scheduler-config */
  add_entries (context, connection);
}

/* The edit distance of A and B (optimal string alignment: an insertion, deletion,
 * substitution or swap of neighbours costs 1), at most LIMIT + 1. */
static guint
edit_distance (const char *a, const char *b, guint limit)
{
  gsize n = strlen (a), m = strlen (b);
  if (n > 64 || m > 64)
    return limit + 1;
  guint d[65][65];
  for (gsize i = 0; i <= n; i++)
    d[i][0] = (guint) i;
  for (gsize j = 0; j <= m; j++)
    d[0][j] = (guint) j;
  for (gsize i = 1; i <= n; i++)
    for (gsize j = 1; j <= m; j++)
      {
        guint cost = g_ascii_tolower (a[i - 1]) == g_ascii_tolower (b[j - 1]) ? 0 : 1;
        guint best = MIN (MIN (d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
          best = MIN (best, d[i - 2][j - 2] + 1);
        d[i][j] = best;
      }
  return MIN (d[n][m], limit + 1);
}

const char *
fs_cli_closest (const char *typed, const char *const *names, guint n)
{
  /* as kubectl (cobra's SuggestionsFor): within 2 edits, or a name TYPED begins */
  const char *best = NULL;
  guint best_distance = 3;
  for (guint i = 0; i < n && *typed != '\0'; i++)
    {
      guint distance = edit_distance (typed, names[i], 2);
      if (distance > 2 && g_ascii_strncasecmp (names[i], typed, strlen (typed)) == 0)
        distance = 2;
      if (distance < best_distance)
        {
          best = names[i];
          best_distance = distance;
        }
    }
  return best;
}

void
fs_cli_suggest (GError *error, const char *typed, const char *prefix, const char *const *names, guint n)
{
  const char *closest = fs_cli_closest (typed, names, n);
  if (error == NULL || closest == NULL)
    return;
  g_autofree char *message = error->message;
  error->message = g_strdup_printf ("%s (did you mean %s%s?)", message, prefix, closest);
}

gboolean
fs_cli_output_parse (const char *text, FsOutputFormat *format, GError **error)
{
  if (fs_output_parse (text, format, error))
    return TRUE;
  fs_cli_suggest (error != NULL ? *error : NULL, text, "", fs_output_names, FS_OUTPUT_N_NAMES);
  return FALSE;
}

gboolean
fs_cli_output_among (const char *text, const char *const *names, guint n, FsOutputFormat *format, GError **error)
{
  if (text == NULL)
    return TRUE;
  for (guint i = 0; i < n; i++)
    if (strcmp (text, names[i]) == 0)
      return fs_output_parse (text, format, error);
  g_autoptr (GString) list = g_string_new (NULL);
  for (guint i = 0; i < n; i++)
    g_string_append_printf (list, "%s%s", i == 0 ? "" : i + 1 == n ? " or " : ", ", names[i]);
  gboolean elsewhere = fs_output_parse (text, &(FsOutputFormat){ 0 }, NULL) && *text != '\0'; /* wide, for snapshot */
  fs_cli_usage (error, "-o %s: not %s; give %s", text,
                elsewhere ? "one of this command's output formats" : "an output format", list->str);
  fs_cli_suggest (error != NULL ? *error : NULL, text, "", names, n);
  return FALSE;
}

gboolean
fs_cli_parse (GOptionContext *context, int *argc, char ***argv, GError **error)
{
  if (!g_option_context_parse (context, argc, argv, error))
    {
      /* "--replica=3" (the option GLib names at the end of its message): the closest known */
      const char *typed = error != NULL && *error != NULL && (*error)->domain == G_OPTION_ERROR
                                  && (*error)->code == G_OPTION_ERROR_UNKNOWN_OPTION
                              ? strstr ((*error)->message, " --")
                              : NULL;
      if (typed != NULL && known_options != NULL)
        {
          g_autofree char *name = g_strdup (typed + 3);
          name[strcspn (name, "= ")] = '\0';
          fs_cli_suggest (*error, name, "--", (const char *const *) known_options->pdata, known_options->len);
        }
      return FALSE;
    }
  /* the "--" that ends the options is no argument (GLib leaves it when it comes first) */
  if (*argc > 1 && strcmp ((*argv)[1], "--") == 0)
    {
      for (int i = 1; i + 1 < *argc; i++)
        (*argv)[i] = (*argv)[i + 1];
      (*argv)[--*argc] = NULL;
    }
  return TRUE;
}

GOptionContext *
fs_cli_context_new (const FsCliCommand *command, const GOptionEntry *entries,
                    FsCommonOptions *options, guint with_snapshot)
{
  g_autofree char *usage = g_strdup_printf ("%s%s- %s", command->parameters,
                                            command->parameters[0] != '\0' ? " " : "", command->summary);
  GOptionContext *context = g_option_context_new (usage);
  g_option_context_set_summary (context, command->description);
  if (command->epilogue != NULL)
    g_option_context_set_description (context, command->epilogue);
  if (entries != NULL)
    add_entries (context, entries);
  add_common (context, options, with_snapshot);
  return context;
}

void
fs_cli_common_clear (FsCommonOptions *options)
{
  g_strfreev (options->snapshot_paths);
  g_free (options->output);
  g_free (options->context_namespace);
  g_clear_pointer (&options->warnings, g_array_unref);
  g_free (options->scheduler_config_path);
  g_clear_pointer (&options->scheduler_config, fs_scheduler_config_unref);
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

static void
print_warnings (const char *command, GArray *warnings, guint from)
{
  for (guint i = from; i < warnings->len; i++)
    {
      /* a warning names objects of the snapshot: printed as table cells are */
      g_autofree char *text = fs_terminal_safe (g_array_index (warnings, FsWarning, i).text);
      fprintf (stderr, "fitscale %s: warning: %s\n", command, text);
    }
}

void
fs_cli_warn (const char *command, FsCommonOptions *options, GArray *more)
{
  if (options->warnings == NULL)
    options->warnings = fs_warnings_new ();
  guint from = options->warnings->len;
  fs_warnings_take (options->warnings, more);
  print_warnings (command, options->warnings, from);
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
  fs_cli_warn (command, options, fs_listing_warnings (live->skipped));
}

gboolean
fs_cli_scheduler_config (const char *command, FsCommonOptions *options, FsKubeLive *live,
                         GError **error)
{
  if (options->scheduler_config == NULL && options->scheduler_config_path != NULL)
    {
      options->scheduler_config = fs_scheduler_config_load (options->scheduler_config_path, error);
      if (options->scheduler_config == NULL)
        return FALSE;
      const FsSchedulerConfig *config = options->scheduler_config;
      for (guint p = 0; p < config->n_profiles; p++)
        for (guint i = 0; i < config->profiles[p].n_unmodelled; i++)
          fprintf (stderr, "fitscale %s: warning: profile %s enables the plugin %s, which fitscale does "
                   "not model: a filter of it is not applied\n", command,
                   config->profiles[p].scheduler_name, config->profiles[p].unmodelled[i]);
    }
  if (live != NULL)
    fs_kube_cache_set_scheduler_config (live->cache, options->scheduler_config);
  return TRUE;
}

/* The cluster the connection flags point to, listed once. */
static FsSnapshot *
load_live (const char *command, FsCommonOptions *options, guint resources, GError **error)
{
  g_autoptr (FsKubeLive) live = fs_kube_live_open (&options->connection, resources,
                                                   fs_cli_live_progress (options), NULL, error);
  if (live == NULL || !fs_cli_scheduler_config (command, options, live, error))
    return NULL;
  fs_cli_live_opened (command, options, live);
  return fs_kube_cache_snapshot (live->cache);
}

int
fs_cli_fail (const char *command, const GError *error)
{
  fprintf (stderr, "fitscale %s: %s\n", command, error->message);
  if (error->domain == G_OPTION_ERROR)
    fprintf (stderr, "Run 'fitscale %s --help' for usage.\n", command);
  return FS_EXIT_ERROR;
}

gboolean
fs_cli_check_range (const char *flag, gint64 value, gint64 min, gint64 max, GError **error)
{
  if (value >= min && value <= max)
    return TRUE;
  if (max == G_MAXINT64)
    fs_cli_usage (error, "%s %" G_GINT64_FORMAT ": give a number of at least %" G_GINT64_FORMAT, flag, value, min);
  else
    fs_cli_usage (error, "%s %" G_GINT64_FORMAT ": give a number from %" G_GINT64_FORMAT " to %" G_GINT64_FORMAT,
                  flag, value, min, max);
  return FALSE;
}

gboolean
fs_cli_parse_duration (const char *flag, const char *text, int64_t min_s, int64_t fallback_s, int64_t *seconds,
                       GError **error)
{
  int64_t ms;
  *seconds = fallback_s;
  if (text == NULL)
    return TRUE;
  gboolean parsed = fs_duration_parse (text, strlen (text), &ms);
  if (parsed && ms >= min_s * 1000)
    {
      *seconds = ms / 1000;
      return TRUE;
    }
  fs_cli_usage (error, "%s %s: %sgive a duration of at least %" G_GINT64_FORMAT "s, like 30s or 1m", flag, text,
                parsed ? "" : "not a duration; ", min_s);
  return FALSE;
}

int
fs_cli_usage (GError **error, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  g_propagate_error (error, g_error_new_valist (FS_ERROR, FS_ERROR_USAGE, format, args));
  va_end (args);
  return FS_EXIT_ERROR;
}

FsEmitter *
fs_cli_emitter_new (const FsCommonOptions *options, FsOutputFormat format)
{
  return fs_emitter_new_answer (format, stdout, options->warnings);
}

/* What the snapshot lacks for a command that reads RESOURCES, on stderr before its answer
 * (even with -q: an answer from a partial cluster can look exact and be wrong). */
static void
warn_incomplete (const char *command, FsCommonOptions *options, const FsSnapshot *snapshot, guint resources)
{
  guint needs = 0;
  if (resources & FS_KUBE_NODES)
    needs |= FS_NEEDS_NODES | FS_NEEDS_NODE_USAGE;
  fs_cli_warn (command, options, fs_snapshot_warnings (snapshot, needs));
}

static gboolean
has_warning (GArray *warnings, guint below, const char *text)
{
  for (guint i = 0; i < below; i++)
    if (strcmp (g_array_index (warnings, FsWarning, i).text, text) == 0)
      return TRUE;
  return FALSE;
}

void
fs_cli_snapshot_changed (const char *command, FsCommonOptions *options, const FsSnapshot *snapshot,
                         guint resources)
{
  /* the live listing's warnings stay; the snapshot's are computed again */
  GArray *previous = options->warnings;
  options->warnings = fs_warnings_new ();
  for (guint i = 0; previous != NULL && i < previous->len; i++)
    {
      FsWarning *warning = &g_array_index (previous, FsWarning, i);
      if (warning->kind == FS_WARNING_LISTING_UNAVAILABLE || warning->kind == FS_WARNING_LISTING_FORBIDDEN)
        fs_warnings_add (options->warnings, warning->kind, g_strdup (warning->text));
    }
  guint needs = (resources & FS_KUBE_NODES) ? FS_NEEDS_NODES | FS_NEEDS_NODE_USAGE : 0;
  g_autoptr (GArray) now = fs_snapshot_warnings (snapshot, needs);
  for (guint i = 0; i < now->len; i++)
    {
      FsWarning *warning = &g_array_index (now, FsWarning, i);
      if (previous == NULL || !has_warning (previous, previous->len, warning->text))
        {
          g_autofree char *text = fs_terminal_safe (warning->text); /* it names nodes and namespaces */
          fprintf (stderr, "fitscale %s: warning: %s\n", command, text);
        }
      fs_warnings_add (options->warnings, warning->kind, g_strdup (warning->text));
    }
  if (previous != NULL)
    g_array_unref (previous);
}

FsSnapshot *
fs_cli_load (const char *command, FsCommonOptions *options, guint resources, GError **error)
{
  FsSnapshot *snapshot;
  if (options->snapshot_paths == NULL)
    snapshot = load_live (command, options, resources, error);
  else if (!fs_cli_scheduler_config (command, options, NULL, error))
    return NULL;
  else
    {
      snapshot = fs_load_snapshot ((const char *const *) options->snapshot_paths, error);
      if (snapshot != NULL)
        fs_snapshot_set_scheduler_config (snapshot, options->scheduler_config);
      if (snapshot != NULL && snapshot->n_skipped > 0 && !options->quiet)
        fprintf (stderr, "fitscale %s: note: %u %s fitscale does not read %s skipped\n", command,
                 snapshot->n_skipped, snapshot->n_skipped == 1 ? "object of a kind" : "objects of kinds",
                 snapshot->n_skipped == 1 ? "was" : "were");
    }
  if (snapshot != NULL)
    warn_incomplete (command, options, snapshot, resources);
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
fs_cli_parse_now (const char *text, int64_t *seconds, GError **error)
{
  *seconds = g_get_real_time () / G_USEC_PER_SEC;
  if (text == NULL || fs_time_parse (text, strlen (text), seconds))
    return TRUE;
  g_set_error (error, FS_ERROR, FS_ERROR_USAGE, "--now \"%s\" is not an RFC 3339 time", text);
  return FALSE;
}

gboolean
fs_cli_parse_selector (const char *text, FsLabelSelector **selector, GError **error)
{
  *selector = NULL;
  if (text == NULL)
    return TRUE;
  *selector = fs_label_selector_parse (text, error);
  if (*selector == NULL)
    g_prefix_error (error, "-l: ");
  return *selector != NULL;
}

/* Printed on stderr as warn_incomplete prints the snapshot's; OPTIONS is where an
 * answer's warnings gather once its JSON carries them. */
void
fs_cli_warn_spec (const char *command, FsCommonOptions *options, const FsPodSpec *spec,
                  const char *name)
{
  GArray *warnings = fs_warnings_new ();
  fs_pod_spec_warnings (spec, name, warnings);
  fs_cli_warn (command, options, warnings);
}

void
fs_cli_warn_template (const char *command, FsCommonOptions *options, const FsSnapshot *snapshot,
                      const FsPodSpec *spec, const char *name)
{
  GArray *warnings = fs_warnings_new ();
  fs_pod_spec_warnings (spec, name, warnings);
  fs_template_warnings (snapshot, spec, name, warnings);
  fs_cli_warn (command, options, warnings);
}
