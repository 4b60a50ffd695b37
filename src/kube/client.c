/* fitscale — the API client (see include/fitscale/client.h). */
#include "config.h"

#include <curl/curl.h>
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fitscale/kube/client.h"
#include "fitscale/kube/decode.h"
#include "fitscale/model/error.h"
#include "fitscale/model/timeutil.h"
#include "jsontree.h"

#define PAGE_LIMIT 500
#define MAX_ATTEMPTS 6
#define MAX_LOAD_ATTEMPTS 4
#define MAX_LIST_PAGES 100000     /* 50 million objects at 500 a page */
#define MAX_ERROR_BODY (64u << 10)
#define MAX_EXEC_OUTPUT (1u << 20)
#define EXEC_DEFAULT_MS (60 * 1000)  /* without --request-timeout and without a terminal */

struct FsKubeClient {
  FsRestConfig *config;
  CURL *curl;
  char *token;                  /* the bearer token in use (owned, wiped on free) */
  time_t token_file_mtime;
  gboolean exec_token;          /* the token came from the exec plugin */
  int64_t exec_expiry;          /* unix seconds, 0 = none */
  GBytes *exec_cert, *exec_key;
  char *connect_to;             /* tls-server-name mapping for CURLOPT_CONNECT_TO */
  struct curl_slist connect_to_list;
  char *base;                   /* the URL prefix requests go to */
  FsKubeClientStats stats;
  guint backoff_base_ms;
  FsKubeProgress progress;      /* NULL: no one shows progress */
  gpointer progress_data;
  int64_t deadline_us;          /* monotonic end of the whole load (--request-timeout), 0 = none */
  const gint *cancel;           /* fs_kube_client_set_cancel: nonzero ends transfers and retries */
};

static void
wipe_free (char *secret)
{
  if (secret != NULL)
    explicit_bzero (secret, strlen (secret));
  g_free (secret);
}

void
fs_kube_client_free (FsKubeClient *client)
{
  if (client == NULL)
    return;
  if (client->curl != NULL)
    curl_easy_cleanup (client->curl);
  wipe_free (client->token);
  g_clear_pointer (&client->exec_cert, g_bytes_unref);
  g_clear_pointer (&client->exec_key, g_bytes_unref);
  g_free (client->connect_to);
  g_free (client->base);
  fs_rest_config_free (client->config);
  g_free (client);
}

const FsRestConfig *
fs_kube_client_config (const FsKubeClient *client)
{
  return client->config;
}

const FsKubeClientStats *
fs_kube_client_stats (const FsKubeClient *client)
{
  return &client->stats;
}

void
fs_kube_client_set_progress (FsKubeClient *client, FsKubeProgress progress, gpointer user_data)
{
  client->progress = progress;
  client->progress_data = user_data;
}

/* ---- credentials ------------------------------------------------------------------------ */

/* A bound service-account token rotates: read the file again when it changed. */
static gboolean
refresh_token_file (FsKubeClient *client, gboolean force, GError **error)
{
  const FsRestConfig *config = client->config;
  if (config->token != NULL || config->token_file == NULL)
    return TRUE;
  struct stat info;
  if (stat (config->token_file, &info) != 0)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_IO, "token file %s: %s", config->token_file, g_strerror (errno));
      return FALSE;
    }
  if (!force && client->token != NULL && info.st_mtime == client->token_file_mtime)
    return TRUE;
  char *contents = NULL;
  if (!fs_read_small_file (config->token_file, "token file", 1u << 20, &contents, NULL, error))
    return FALSE;
  wipe_free (client->token);
  client->token = g_strdup (g_strstrip (contents));
  wipe_free (contents);
  client->token_file_mtime = info.st_mtime;
  return TRUE;
}

static char *
exec_info (const FsKubeClient *client)
{
  const FsExecConfig *exec = client->config->exec;
  gboolean interactive = isatty (0) && g_strcmp0 (exec->interactive_mode, "Never") != 0;
  GString *json = g_string_new (NULL);
  g_string_append_printf (json, "{\"apiVersion\":\"%s\",\"kind\":\"ExecCredential\",\"spec\":{\"interactive\":%s",
                          exec->api_version, interactive ? "true" : "false");
  if (exec->provide_cluster_info)
    {
      g_autofree char *ca = NULL;
      if (client->config->ca_pem != NULL)
        {
          gsize length;
          const guchar *data = g_bytes_get_data (client->config->ca_pem, &length);
          ca = g_base64_encode (data, length);
        }
      g_string_append_printf (json, ",\"cluster\":{\"server\":\"%s\",\"insecure-skip-tls-verify\":%s%s%s%s}",
                              client->config->server, client->config->insecure ? "true" : "false",
                              ca != NULL ? ",\"certificate-authority-data\":\"" : "", ca != NULL ? ca : "",
                              ca != NULL ? "\"" : "");
    }
  g_string_append (json, "}}");
  return g_string_free (json, FALSE);
}

/* Reads the plugin's ExecCredential: a token, or a client certificate and key. */
static gboolean
read_exec_credential (FsKubeClient *client, const char *output, GError **error)
{
  const FsExecConfig *exec = client->config->exec;
  /* yajl's error text quotes the bytes around the fault: a plugin printing a bare token would
   * have the token in our message, so the output is never quoted */
  yajl_val root = yajl_tree_parse (output, NULL, 0);
  if (root == NULL)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID,
                   "exec plugin %s: its output is not an ExecCredential in JSON (not shown: it may hold a credential)",
                   exec->command);
      return FALSE;
    }
  const char *api_version = fs_json_tree_string (root, "apiVersion", NULL);
  const char *token = fs_json_tree_string (root, "status", "token");
  const char *cert = fs_json_tree_string (root, "status", "clientCertificateData");
  const char *key = fs_json_tree_string (root, "status", "clientKeyData");
  const char *expiry = fs_json_tree_string (root, "status", "expirationTimestamp");
  gboolean ok = FALSE;
  if (g_strcmp0 (api_version, exec->api_version) != 0)
    g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "exec plugin %s: it answered apiVersion %s, not the configured %s",
                 exec->command, api_version != NULL ? api_version : "(none)", exec->api_version);
  else if (token == NULL && (cert == NULL || key == NULL))
    g_set_error (error, FS_ERROR, FS_ERROR_INVALID,
                 "exec plugin %s: its ExecCredential has neither status.token nor a client certificate and key",
                 exec->command);
  else
    ok = TRUE;
  if (ok)
    {
      wipe_free (client->token);
      client->token = g_strdup (token);
      client->exec_token = token != NULL;
      g_clear_pointer (&client->exec_cert, g_bytes_unref);
      g_clear_pointer (&client->exec_key, g_bytes_unref);
      if (cert != NULL && key != NULL)
        {
          client->exec_cert = g_bytes_new (cert, strlen (cert));
          client->exec_key = g_bytes_new (key, strlen (key));
        }
      int64_t seconds = 0;
      client->exec_expiry = expiry != NULL && fs_time_parse (expiry, strlen (expiry), &seconds) ? seconds : 0;
    }
  yajl_tree_free (root);
  return ok;
}

/* How long the exec plugin may take: --request-timeout when given, else EXEC_DEFAULT_MS; none
 * when it may talk to the person at the terminal (interactiveMode not Never, a terminal on
 * stdin: a browser login takes what it takes, and ^C ends it). */
static int64_t
exec_deadline_ms (const FsKubeClient *client)
{
  const FsExecConfig *exec = client->config->exec;
  if (client->config->timeout_ms > 0)
    return client->config->timeout_ms;
  if (g_strcmp0 (exec->interactive_mode, "Never") != 0 && isatty (0))
    return 0;
  return EXEC_DEFAULT_MS;
}

/* Appends what FD gives to OUTPUT until end of file, more than MAX_EXEC_OUTPUT bytes, or
 * LIMIT_MS (0: none) have passed; FALSE only on the deadline. */
static gboolean
read_exec_output (int fd, int64_t limit_ms, GString *output)
{
  int64_t deadline = g_get_monotonic_time () + limit_ms * 1000;
  char chunk[4096];
  while (output->len <= MAX_EXEC_OUTPUT)
    {
      int wait_ms = -1;
      if (limit_ms > 0)
        {
          int64_t left = (deadline - g_get_monotonic_time ()) / 1000;
          if (left <= 0)
            return FALSE;
          wait_ms = (int) MIN (left, G_MAXINT);
        }
      struct pollfd pfd = { .fd = fd, .events = POLLIN };
      int ready = poll (&pfd, 1, wait_ms);
      if (ready < 0 && errno == EINTR)
        continue;
      if (ready == 0)
        return FALSE;
      ssize_t got = ready < 0 ? -1 : read (fd, chunk, sizeof chunk);
      if (got < 0 && errno == EINTR)
        continue;
      if (got <= 0)
        break;
      g_string_append_len (output, chunk, got);
    }
  return TRUE;
}

/* Runs the exec credential plugin (client-go plugin/pkg/client/auth/exec): the configured
 * command with its args and env, KUBERNETES_EXEC_INFO holding an ExecCredential. */
static gboolean
run_exec_plugin (FsKubeClient *client, GError **error)
{
  const FsExecConfig *exec = client->config->exec;
  if (exec->command == NULL)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "user %s: exec has no command", client->config->user);
      return FALSE;
    }
  if (g_strcmp0 (exec->interactive_mode, "Always") == 0 && !isatty (0))
    {
      g_set_error (error, FS_ERROR, FS_ERROR_USAGE, "exec plugin %s needs a terminal (interactiveMode Always)", exec->command);
      return FALSE;
    }
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_ptr_array_add (argv, exec->command);
  for (char **arg = exec->args; arg != NULL && *arg != NULL; arg++)
    g_ptr_array_add (argv, *arg);
  g_ptr_array_add (argv, NULL);
  g_auto (GStrv) envp = g_get_environ ();
  for (char **pair = exec->env; pair != NULL && *pair != NULL; pair++)
    {
      g_auto (GStrv) parts = g_strsplit (*pair, "=", 2);
      envp = g_environ_setenv (envp, parts[0], parts[1] != NULL ? parts[1] : "", TRUE);
    }
  g_autofree char *info = exec_info (client);
  envp = g_environ_setenv (envp, "KUBERNETES_EXEC_INFO", info, TRUE);
  GPid child;
  gint out_fd = -1;
  GError *spawn_error = NULL;
  if (!g_spawn_async_with_pipes (NULL, (char **) argv->pdata, envp,
                                 G_SPAWN_SEARCH_PATH | G_SPAWN_CHILD_INHERITS_STDIN | G_SPAWN_DO_NOT_REAP_CHILD,
                                 NULL, NULL, &child, NULL, &out_fd, NULL, &spawn_error))
    {
      g_set_error (error, FS_ERROR, FS_ERROR_IO, "exec plugin %s: %s%s%s", exec->command, spawn_error->message,
                   exec->install_hint != NULL ? "\n" : "", exec->install_hint != NULL ? exec->install_hint : "");
      g_error_free (spawn_error);
      return FALSE;
    }
  /* read at most MAX_EXEC_OUTPUT before the deadline: a plugin that writes more, or hangs, is
   * stopped, not waited on */
  GString *output = g_string_new (NULL);
  int64_t limit_ms = exec_deadline_ms (client);
  gboolean late = !read_exec_output (out_fd, limit_ms, output);
  gboolean too_much = output->len > MAX_EXEC_OUTPUT;
  if (too_much || late)
    kill (child, SIGKILL);
  close (out_fd);
  int wait_status = 0;
  waitpid (child, &wait_status, 0);
  g_spawn_close_pid (child);
  gboolean ok = FALSE;
  if (too_much)
    g_set_error (error, FS_ERROR, FS_ERROR_LIMIT, "exec plugin %s: over 1 MiB of output", exec->command);
  else if (late)
    g_set_error (error, FS_ERROR, FS_ERROR_IO,
                 "exec plugin %s: no credential within %" G_GINT64_FORMAT "s; stopped (--request-timeout sets the limit)",
                 exec->command, limit_ms / 1000);
  else if (!g_spawn_check_wait_status (wait_status, NULL))
    g_set_error (error, FS_ERROR, FS_ERROR_IO, "exec plugin %s failed (its messages are above)", exec->command);
  else
    ok = read_exec_credential (client, output->str, error);
  explicit_bzero (output->str, output->len);
  g_string_free (output, TRUE);
  return ok;
}

static gboolean
ensure_credentials (FsKubeClient *client, gboolean after_401, GError **error)
{
  const FsRestConfig *config = client->config;
  if (config->token != NULL)
    {
      if (client->token == NULL)
        client->token = g_strdup (config->token);
      return TRUE;
    }
  if (config->exec != NULL)
    {
      gboolean expired = client->exec_expiry > 0 && client->exec_expiry <= g_get_real_time () / G_USEC_PER_SEC;
      if (after_401 || expired || (client->token == NULL && client->exec_cert == NULL))
        return run_exec_plugin (client, error);
      return TRUE;
    }
  return refresh_token_file (client, after_401, error);
}

/* ---- the connection ----------------------------------------------------------------------- */

static void
set_blob (CURL *curl, CURLoption option, GBytes *bytes)
{
  gsize length = 0;
  struct curl_blob blob = { .data = (void *) g_bytes_get_data (bytes, &length), .len = length,
                            .flags = CURL_BLOB_COPY };
  curl_easy_setopt (curl, option, &blob);
}

/* With tls-server-name the request goes to that name (for SNI and verification) and libcurl
 * connects to the server's own host. */
static void
setup_server_name (FsKubeClient *client)
{
  const FsRestConfig *config = client->config;
  client->base = g_strdup (config->server);
  if (config->tls_server_name == NULL)
    return;
  g_autoptr (GUri) uri = g_uri_parse (config->server, G_URI_FLAGS_NONE, NULL);
  if (uri == NULL || g_uri_get_host (uri) == NULL)
    return;
  int port = g_uri_get_port (uri) > 0 ? g_uri_get_port (uri) : 443;
  g_free (client->base);
  client->base = g_strdup_printf ("https://%s:%d", config->tls_server_name, port);
  client->connect_to = g_strdup_printf ("%s:%d:%s:%d", config->tls_server_name, port, g_uri_get_host (uri), port);
}

FsKubeClient *
fs_kube_client_new (FsRestConfig *config, GError **error)
{
  static gsize initialized = 0;
  if (g_once_init_enter (&initialized))
    {
      curl_global_init (CURL_GLOBAL_DEFAULT);
      g_once_init_leave (&initialized, 1);
    }
  g_autoptr (FsKubeClient) client = g_new0 (FsKubeClient, 1);
  client->config = config;
  client->backoff_base_ms = 200;
  const char *base = g_getenv ("FS_RETRY_BASE_MS"); /* tests: retries without the wait */
  if (base != NULL)
    client->backoff_base_ms = (guint) g_ascii_strtoull (base, NULL, 10);
  client->curl = curl_easy_init ();
  if (client->curl == NULL)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_IO, "libcurl could not start");
      return NULL;
    }
  setup_server_name (client);
  return g_steal_pointer (&client);
}

FsKubeClient *
fs_kube_client_clone (const FsKubeClient *client, GError **error)
{
  FsKubeClient *clone = fs_kube_client_new (fs_rest_config_copy (client->config), error);
  if (clone != NULL)
    clone->backoff_base_ms = client->backoff_base_ms;
  return clone;
}

void
fs_kube_client_set_timeout (FsKubeClient *client, int64_t timeout_ms)
{
  client->config->timeout_ms = timeout_ms;
}

void
fs_kube_client_set_cancel (FsKubeClient *client, const gint *cancel)
{
  client->cancel = cancel;
}

static gboolean
cancelled (const FsKubeClient *client)
{
  return client->cancel != NULL && g_atomic_int_get (client->cancel);
}

/* libcurl's progress callback: called while bytes flow and about once a second while none
 * do (a quiet watch), so that a cancelled client ends its transfer within a second. */
static int
on_progress (void *user_data, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow)
{
  (void) dltotal, (void) dlnow, (void) ultotal, (void) ulnow;
  return cancelled (user_data) ? 1 : 0; /* nonzero: CURLE_ABORTED_BY_CALLBACK */
}

typedef struct {
  FsKubeClient *client;
  FsKubeSink sink;
  gpointer user_data;
  long status;
  GString *error_body;
  GError *sink_error;
  int64_t retry_after_ms;
  gboolean body_started;     /* bytes went to the sink: the request cannot be retried alone */
} Transfer;

static size_t
on_body (char *data, size_t size, size_t count, void *user_data)
{
  Transfer *transfer = user_data;
  gsize length = size * count;
  if (transfer->status == 0)
    curl_easy_getinfo (transfer->client->curl, CURLINFO_RESPONSE_CODE, &transfer->status);
  transfer->client->stats.bytes += length;
  if (transfer->status < 200 || transfer->status >= 300)
    {
      if (transfer->error_body->len < MAX_ERROR_BODY)
        g_string_append_len (transfer->error_body, data, MIN (length, MAX_ERROR_BODY - transfer->error_body->len));
      return length;
    }
  transfer->body_started = TRUE;
  if (!transfer->sink (data, length, transfer->user_data, &transfer->sink_error))
    return 0; /* aborts the transfer: CURLE_WRITE_ERROR */
  return length;
}

static size_t
on_header (char *data, size_t size, size_t count, void *user_data)
{
  Transfer *transfer = user_data;
  gsize length = size * count;
  if (length > 12 && g_ascii_strncasecmp (data, "Retry-After:", 12) == 0)
    {
      gint64 seconds = g_ascii_strtoll (data + 12, NULL, 10);
      if (seconds > 0 && seconds < 3600)
        transfer->retry_after_ms = seconds * 1000;
    }
  if (length > 5 && g_ascii_strncasecmp (data, "HTTP/", 5) == 0)
    transfer->status = 0; /* a new response (after a redirect or 100 Continue) */
  return length;
}

/* What is left of the load's deadline, in ms (G_MAXINT64 without one; <= 0 when passed). */
static int64_t
remaining_ms (const FsKubeClient *client)
{
  if (client->deadline_us == 0)
    return G_MAXINT64;
  return (client->deadline_us - g_get_monotonic_time ()) / 1000;
}

static gboolean
deadline_passed (const FsKubeClient *client, const char *path, GError **error)
{
  if (remaining_ms (client) > 0)
    return FALSE;
  g_set_error (error, FS_ERROR, FS_ERROR_IO, "%s%s: not done within --request-timeout %gs", client->config->server,
               path, (double) client->config->timeout_ms / 1000);
  return TRUE;
}

static void
setup_request (FsKubeClient *client, const char *url, Transfer *transfer, struct curl_slist **headers)
{
  CURL *curl = client->curl;
  const FsRestConfig *config = client->config;
  curl_easy_reset (curl);
  curl_easy_setopt (curl, CURLOPT_URL, url);
  curl_easy_setopt (curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt (curl, CURLOPT_USERAGENT, "fitscale/" PACKAGE_VERSION);
  curl_easy_setopt (curl, CURLOPT_HTTP_VERSION, (long) CURL_HTTP_VERSION_2TLS);
  curl_easy_setopt (curl, CURLOPT_CONNECTTIMEOUT_MS, 10000L);
  if (config->timeout_ms > 0)
    curl_easy_setopt (curl, CURLOPT_TIMEOUT_MS, (long) MAX (1, MIN (config->timeout_ms, remaining_ms (client))));
  if (!config->disable_compression)
    curl_easy_setopt (curl, CURLOPT_ACCEPT_ENCODING, "");
  if (config->proxy_url != NULL)
    curl_easy_setopt (curl, CURLOPT_PROXY, config->proxy_url);
  if (client->connect_to != NULL)
    {
      client->connect_to_list = (struct curl_slist){ client->connect_to, NULL };
      curl_easy_setopt (curl, CURLOPT_CONNECT_TO, &client->connect_to_list);
    }
  if (config->insecure)
    {
      curl_easy_setopt (curl, CURLOPT_SSL_VERIFYPEER, 0L);
      curl_easy_setopt (curl, CURLOPT_SSL_VERIFYHOST, 0L);
    }
  else if (config->ca_pem != NULL)
    set_blob (curl, CURLOPT_CAINFO_BLOB, config->ca_pem);
  GBytes *cert = client->exec_cert != NULL ? client->exec_cert : config->client_cert_pem;
  GBytes *key = client->exec_key != NULL ? client->exec_key : config->client_key_pem;
  if (cert != NULL && key != NULL)
    {
      curl_easy_setopt (curl, CURLOPT_SSLCERTTYPE, "PEM");
      set_blob (curl, CURLOPT_SSLCERT_BLOB, cert);
      curl_easy_setopt (curl, CURLOPT_SSLKEYTYPE, "PEM");
      set_blob (curl, CURLOPT_SSLKEY_BLOB, key);
    }
  *headers = curl_slist_append (NULL, "Accept: application/json");
  if (client->token != NULL)
    {
      g_autofree char *authorization = g_strconcat ("Authorization: Bearer ", client->token, NULL);
      *headers = curl_slist_append (*headers, authorization);
      explicit_bzero (authorization, strlen (authorization));
    }
  curl_easy_setopt (curl, CURLOPT_HTTPHEADER, *headers);
  curl_easy_setopt (curl, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt (curl, CURLOPT_WRITEDATA, transfer);
  curl_easy_setopt (curl, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt (curl, CURLOPT_HEADERDATA, transfer);
  if (client->cancel != NULL)
    {
      curl_easy_setopt (curl, CURLOPT_XFERINFOFUNCTION, on_progress);
      curl_easy_setopt (curl, CURLOPT_XFERINFODATA, client);
      curl_easy_setopt (curl, CURLOPT_NOPROGRESS, 0L);
    }
}

/* ---- errors a user can act on ------------------------------------------------------------ */

/* The message of the Status in BODY, or BODY's start. */
/* TEXT as one printable line of at most MAX_CHARS characters: valid UTF-8, blanks for line
 * breaks and tabs, '?' for other control characters (a server's error page can carry escape
 * sequences that would rewrite the terminal). */
static char *
printable_line (const char *text, gsize length, guint max_chars)
{
  g_autofree char *valid = g_utf8_make_valid (text, (gssize) length);
  GString *line = g_string_new (NULL);
  guint chars = 0;
  const char *p = valid;
  for (; *p != '\0' && chars < max_chars; p = g_utf8_next_char (p), chars++)
    {
      gunichar c = g_utf8_get_char (p);
      if (c == '\n' || c == '\r' || c == '\t')
        g_string_append_c (line, ' ');
      else if (g_unichar_iscntrl (c))
        g_string_append_c (line, '?');
      else
        g_string_append_len (line, p, g_utf8_next_char (p) - p);
    }
  if (*p != '\0')
    g_string_append (line, "...");
  return g_strstrip (g_string_free (line, FALSE));
}

/* The Status message of an error answer, else the start of its body: one printable line. */
static char *
status_message (const GString *body)
{
  yajl_val root = body->len > 0 ? yajl_tree_parse (body->str, NULL, 0) : NULL;
  const char *message = root != NULL ? fs_json_tree_string (root, "message", NULL) : NULL;
  char *text = message != NULL ? printable_line (message, strlen (message), 1000)
                               : printable_line (body->str, body->len, 200);
  if (root != NULL)
    yajl_tree_free (root);
  return text;
}

/* "list pods" in "" or "list deployments" in group "apps", from an API path. */
static char *
rbac_rule (const char *path)
{
  g_autofree char *bare = g_strndup (path, strcspn (path, "?"));
  g_auto (GStrv) parts = g_strsplit (bare, "/", -1);
  guint n = g_strv_length (parts);
  gboolean core = n > 1 && strcmp (parts[1], "api") == 0;
  const char *group = core ? "\"\" (core)" : n > 2 ? parts[2] : "?";
  const char *resource = n > 0 ? parts[n - 1] : "?";
  return g_strdup_printf ("verb list on resource %s in API group %s", resource, group);
}

static char *
credential_kind (const FsKubeClient *client)
{
  const FsRestConfig *config = client->config;
  if (config->token != NULL)
    return g_strdup ("a bearer token (--token or the kubeconfig's token)");
  if (config->exec != NULL)
    return g_strdup_printf ("%s from the exec plugin %s", client->exec_token ? "a token" : "a client certificate",
                            config->exec->command);
  if (config->token_file != NULL)
    return g_strdup_printf ("the token in %s", config->token_file);
  if (config->client_cert_pem != NULL)
    return g_strdup ("a client certificate");
  return g_strdup ("no credentials");
}

static void
http_error (const FsKubeClient *client, const char *path, long status, const GString *body, GError **error)
{
  g_autofree char *message = status_message (body);
  const FsRestConfig *config = client->config;
  if (status == 401)
    {
      g_autofree char *credential = credential_kind (client);
      g_set_error (error, FS_ERROR, FS_ERROR_IO, "%s: 401 Unauthorized for user %s, with %s (%s): %s",
                   config->server, config->user != NULL ? config->user : "(none)", credential, config->source, message);
    }
  else if (status == 403)
    {
      g_autofree char *rule = rbac_rule (path);
      g_set_error (error, FS_ERROR, FS_ERROR_IO, "%s: 403 Forbidden: %s; the RBAC rule needed: %s", config->server,
                   message, rule);
    }
  else
    g_set_error (error, FS_ERROR, status == 404 ? FS_ERROR_NOT_FOUND : FS_ERROR_IO, "%s%s: HTTP %ld: %s",
                 config->server, path, status, message);
}

static void
transport_error (const FsKubeClient *client, CURLcode code, const char *detail, GError **error)
{
  const FsRestConfig *config = client->config;
  const char *what = curl_easy_strerror (code);
  if (code == CURLE_PEER_FAILED_VERIFICATION || code == CURLE_SSL_CACERT_BADFILE || code == CURLE_SSL_CONNECT_ERROR)
    g_set_error (error, FS_ERROR, FS_ERROR_IO,
                 "TLS with %s (name %s) failed: %s (%s); the server's certificate was checked against %s",
                 config->server, config->tls_server_name != NULL ? config->tls_server_name : "from the URL", what,
                 detail, config->ca_origin != NULL ? config->ca_origin : "the system's CA certificates");
  else
    g_set_error (error, FS_ERROR, FS_ERROR_IO, "cannot reach the API server %s (%s): %s%s%s", config->server,
                 config->source, what, *detail != '\0' ? ": " : "", detail);
}

/* ---- requests ----------------------------------------------------------------------------- */

static gboolean
retryable_status (long status)
{
  return status == 429 || status >= 500;
}

static void
backoff (FsKubeClient *client, guint attempt, int64_t retry_after_ms)
{
  int64_t wait = (int64_t) client->backoff_base_ms << MIN (attempt, 5u);
  wait = MIN (wait, 5000);
  wait = wait * g_random_int_range (80, 121) / 100; /* jitter, +-20 % */
  if (retry_after_ms > 0)
    wait = MAX (wait, MIN (retry_after_ms, 30000));
  if (client->backoff_base_ms == 0)
    wait = 0;
  wait = MAX (0, MIN (wait, remaining_ms (client))); /* retries are bounded by the deadline */
  for (gint64 end = g_get_monotonic_time () + wait * 1000; !cancelled (client);)
    {
      gint64 left = end - g_get_monotonic_time ();
      if (left <= 0)
        break;
      g_usleep ((gulong) MIN (left, client->cancel != NULL ? 50000 : left)); /* cancelled: within 50 ms */
    }
  client->stats.retries++;
}

/* One request, with the retries that are safe: before any body byte reached the sink. */
static gboolean
get_once (FsKubeClient *client, const char *path, FsKubeSink sink, gpointer user_data, long *status,
          gboolean *body_started, GError **error)
{
  g_autofree char *url = g_strconcat (client->base, path, NULL);
  gboolean after_401 = FALSE;
  for (guint attempt = 0;; attempt++)
    {
      if (cancelled (client))
        {
          g_set_error (error, FS_ERROR, FS_ERROR_IO, "%s%s: cancelled", client->config->server, path);
          return FALSE;
        }
      if (deadline_passed (client, path, error) || !ensure_credentials (client, after_401, error))
        return FALSE;
      Transfer transfer = { client, sink, user_data, 0, g_string_new (NULL), NULL, 0, FALSE };
      char detail[CURL_ERROR_SIZE] = "";
      struct curl_slist *headers = NULL;
      setup_request (client, url, &transfer, &headers);
      curl_easy_setopt (client->curl, CURLOPT_ERRORBUFFER, detail);
      client->stats.requests++;
      CURLcode code = curl_easy_perform (client->curl);
      curl_slist_free_all (headers);
      if (transfer.status == 0)
        curl_easy_getinfo (client->curl, CURLINFO_RESPONSE_CODE, &transfer.status);
      *status = transfer.status;
      *body_started = transfer.body_started;
      gboolean can_retry = !transfer.body_started && attempt + 1 < MAX_ATTEMPTS;
      gboolean again = FALSE;
      if (transfer.sink_error != NULL)
        g_propagate_error (error, g_steal_pointer (&transfer.sink_error));
      else if (code != CURLE_OK)
        {
          /* a connection cut or a timeout is worth another try; a wrong name or certificate
           * is not */
          again = can_retry && code != CURLE_COULDNT_RESOLVE_HOST && code != CURLE_PEER_FAILED_VERIFICATION
                  && code != CURLE_SSL_CACERT_BADFILE && code != CURLE_COULDNT_CONNECT
                  && code != CURLE_SSL_CONNECT_ERROR;
          if (!again)
            transport_error (client, code, detail, error);
        }
      else if (transfer.status == 401 && !after_401
               && (client->config->exec != NULL || client->config->token_file != NULL))
        again = after_401 = TRUE; /* a rotated token or an expired plugin credential: once more */
      else if (retryable_status (transfer.status) && can_retry)
        again = TRUE;
      else if (transfer.status < 200 || transfer.status >= 300)
        http_error (client, path, transfer.status, transfer.error_body, error);
      int64_t retry_after = transfer.retry_after_ms;
      g_string_free (transfer.error_body, TRUE);
      if (!again)
        return error == NULL || *error == NULL;
      backoff (client, attempt, retry_after);
    }
}

gboolean
fs_kube_client_get (FsKubeClient *client, const char *path, FsKubeSink sink, gpointer user_data,
                    long *status, GError **error)
{
  gboolean body_started = FALSE;
  return get_once (client, path, sink, user_data, status, &body_started, error);
}

/* ---- lists ------------------------------------------------------------------------------ */

/* Where a list is, for the progress callback. */
typedef struct {
  const char *name;
  FsKubeProgress report;  /* NULL: not reported */
  gpointer report_data;
  gint64 started;
  gint64 shown_at;       /* 0 = not shown yet */
  guint pages;
  guint64 bytes;
} Progress;

static void
progress_update (Progress *progress, gsize more)
{
  progress->bytes += more;
  if (progress->report == NULL)
    return;
  gint64 now = g_get_monotonic_time ();
  if (now - progress->started < G_USEC_PER_SEC || now - progress->shown_at < G_USEC_PER_SEC / 10)
    return;
  progress->report (progress->name, progress->pages + 1, progress->bytes, FALSE, progress->report_data);
  progress->shown_at = now;
}

static void
progress_end (Progress *progress)
{
  if (progress->shown_at != 0)
    progress->report (progress->name, progress->pages, progress->bytes, TRUE, progress->report_data);
}

typedef struct {
  FsJsonFeed *feed;
  Progress *progress;
} PageSink;

static gboolean
feed_page (const char *data, gsize len, gpointer user_data, GError **error)
{
  PageSink *sink = user_data;
  progress_update (sink->progress, len);
  return fs_json_feed_bytes (sink->feed, data, len, error);
}

typedef enum { LIST_OK, LIST_ABSENT, LIST_RESTART, LIST_FAILED, LIST_FORBIDDEN } ListOutcome;

/* Lists PATH page by page into BUILDER. */
static ListOutcome
list_pages (FsKubeClient *client, const char *path, const char *selector, FsSnapshotBuilder *builder,
            Progress *progress, GError **error)
{
  g_autofree char *token = NULL;
  /* a server that hands back a continue token it gave before would be listed forever */
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  do
    {
      if (token != NULL && (!g_hash_table_add (seen, g_strdup (token)) || progress->pages >= MAX_LIST_PAGES))
        {
          g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "%s%s: %s after %u pages; the list would never end",
                       client->config->server, path,
                       progress->pages >= MAX_LIST_PAGES ? "still more" : "the server repeated a continue token",
                       progress->pages);
          return LIST_FAILED;
        }
      g_autofree char *escaped_token = token != NULL ? g_uri_escape_string (token, NULL, FALSE) : NULL;
      g_autofree char *escaped_selector = selector != NULL ? g_uri_escape_string (selector, "=!,", FALSE) : NULL;
      g_autofree char *request = g_strdup_printf ("%s?limit=%d%s%s%s%s", path, PAGE_LIMIT,
                                                  selector != NULL ? "&fieldSelector=" : "",
                                                  selector != NULL ? escaped_selector : "",
                                                  token != NULL ? "&continue=" : "", token != NULL ? escaped_token : "");
      g_autofree char *source = g_strconcat (client->config->server, request, NULL);
      g_autoptr (FsJsonFeed) feed = fs_json_feed_new (builder, source);
      PageSink sink = { feed, progress };
      long status = 0;
      gboolean body_started = FALSE;
      GError *local_error = NULL;
      if (!get_once (client, request, feed_page, &sink, &status, &body_started, &local_error))
        {
          if (status == 404 && !body_started)
            {
              g_error_free (local_error);
              return LIST_ABSENT;
            }
          gboolean restart = status == 410 || (body_started && local_error->domain == FS_ERROR
                                               && local_error->code == FS_ERROR_IO);
          gboolean forbidden = status == 403 && !body_started;
          g_propagate_error (error, local_error);
          return restart ? LIST_RESTART : forbidden ? LIST_FORBIDDEN : LIST_FAILED;
        }
      if (!fs_json_feed_finish (feed, error))
        return LIST_FAILED;
      g_clear_pointer (&token, g_free);
      token = fs_snapshot_builder_take_continue (builder);
      progress->pages++;
    }
  while (token != NULL);
  return LIST_OK;
}

static const FsKubeListing listings[] = {
  { FS_KUBE_NODES, "nodes", "/api/v1/nodes", NULL, FALSE, TRUE, FALSE },
  { FS_KUBE_NAMESPACES, "namespaces", "/api/v1/namespaces", NULL, FALSE, TRUE, FALSE },
  { FS_KUBE_PODS, "pods", "/api/v1/pods", "status.phase!=Succeeded,status.phase!=Failed", FALSE, TRUE, TRUE },
  { FS_KUBE_WORKLOADS, "deployments", "/apis/apps/v1/deployments", NULL, FALSE, TRUE, TRUE },
  { FS_KUBE_WORKLOADS, "statefulsets", "/apis/apps/v1/statefulsets", NULL, FALSE, TRUE, TRUE },
  { FS_KUBE_WORKLOADS, "replicasets", "/apis/apps/v1/replicasets", NULL, FALSE, TRUE, TRUE },
  { FS_KUBE_HPAS, "horizontalpodautoscalers", "/apis/autoscaling/v2/horizontalpodautoscalers", NULL, FALSE, TRUE, TRUE },
  { FS_KUBE_VPAS, "verticalpodautoscalers", "/apis/autoscaling.k8s.io/v1/verticalpodautoscalers", NULL, TRUE, TRUE, TRUE },
  { FS_KUBE_HVPAS, "hvpas", "/apis/autoscaling.k8s.io/v1alpha1/hvpas", NULL, TRUE, TRUE, TRUE },
  { FS_KUBE_POD_METRICS, "pods.metrics.k8s.io", "/apis/metrics.k8s.io/v1beta1/pods", NULL, TRUE, FALSE, TRUE },
  { FS_KUBE_EVENTS, "events", "/api/v1/events", "reason=FailedScheduling", FALSE, TRUE, TRUE },
  { FS_KUBE_STORAGE, "persistentvolumeclaims", "/api/v1/persistentvolumeclaims", NULL, FALSE, TRUE, TRUE },
  { FS_KUBE_STORAGE, "persistentvolumes", "/api/v1/persistentvolumes", NULL, FALSE, TRUE, FALSE },
  { FS_KUBE_STORAGE, "storageclasses", "/apis/storage.k8s.io/v1/storageclasses", NULL, FALSE, TRUE, FALSE },
  { FS_KUBE_STORAGE, "csinodes", "/apis/storage.k8s.io/v1/csinodes", NULL, FALSE, TRUE, FALSE },
  { FS_KUBE_PDBS, "poddisruptionbudgets", "/apis/policy/v1/poddisruptionbudgets", NULL, TRUE, TRUE, TRUE },
  { FS_KUBE_RUNTIME_CLASSES, "runtimeclasses", "/apis/node.k8s.io/v1/runtimeclasses", NULL, TRUE, TRUE, FALSE },
};

const FsKubeListing *
fs_kube_listings (guint *n)
{
  *n = G_N_ELEMENTS (listings);
  return listings;
}

static FsSnapshot *
load_once (FsKubeClient *client, guint resources, gboolean progress, GPtrArray *skipped,
           char **versions, gboolean *restart, GError **error)
{
  g_autoptr (FsSnapshotBuilder) builder = fs_snapshot_builder_new ();
  for (gsize i = 0; i < G_N_ELEMENTS (listings); i++)
    {
      const FsKubeListing *listing = &listings[i];
      if (!(resources & listing->resource))
        continue;
      Progress line = { listing->name, progress ? client->progress : NULL, client->progress_data,
                        g_get_monotonic_time (), 0, 0, 0 };
      ListOutcome outcome = list_pages (client, listing->path, listing->field_selector, builder, &line, error);
      progress_end (&line);
      if (outcome == LIST_OK && versions != NULL)
        {
          g_free (versions[i]);
          versions[i] = g_strdup (fs_snapshot_builder_resource_version (builder));
        }
      if (outcome == LIST_ABSENT && listing->optional)
        {
          if (skipped != NULL)
            g_ptr_array_add (skipped, (gpointer) listing->name);
          continue;
        }
      if (outcome == LIST_FORBIDDEN && listing->optional)
        {
          g_clear_error (error);
          if (skipped != NULL)
            {
              g_autofree char *entry = g_strconcat (FS_KUBE_FORBIDDEN_PREFIX, listing->name, NULL);
              g_ptr_array_add (skipped, (gpointer) g_intern_string (entry));
            }
          continue;
        }
      if (outcome == LIST_ABSENT)
        g_set_error (error, FS_ERROR, FS_ERROR_NOT_FOUND, "%s%s: the server does not serve %s",
                     client->config->server, listing->path, listing->name);
      if (outcome != LIST_OK)
        {
          *restart = outcome == LIST_RESTART;
          return NULL;
        }
    }
  /* cluster-wide listings, in pages: a page of one namespace's pods is no namespaced query */
  fs_snapshot_builder_forget_lists (builder);
  return fs_snapshot_builder_finish (g_steal_pointer (&builder), error);
}

/* One attempt only: a list cut or expired half way (LIST_RESTART) has left its first pages in
 * BUILDER, and an object deleted before a second attempt would stay there for good.  The
 * caller (kube/watch.c relist) drops BUILDER and lists again, after a backoff, into a new one
 * made from its current snapshot: a clean slate for that kind, as the Reflector's pager
 * starts a full list again (k8s.io/client-go/tools/pager/pager.go, ListPager.List, on an
 * expired continue token). */
gboolean
fs_kube_list_into (FsKubeClient *client, guint listing, FsSnapshotBuilder *builder, char **version,
                   gboolean *absent, GError **error)
{
  g_return_val_if_fail (listing < G_N_ELEMENTS (listings), FALSE);
  *absent = FALSE;
  Progress line = { listings[listing].name, NULL, NULL, g_get_monotonic_time (), 0, 0, 0 };
  GError *local_error = NULL;
  ListOutcome outcome = list_pages (client, listings[listing].path, listings[listing].field_selector,
                                    builder, &line, &local_error);
  if (outcome == LIST_OK)
    {
      g_free (*version);
      *version = g_strdup (fs_snapshot_builder_resource_version (builder));
      return TRUE;
    }
  if ((outcome == LIST_ABSENT || outcome == LIST_FORBIDDEN) && listings[listing].optional)
    {
      g_clear_error (&local_error);
      *absent = TRUE;
      return TRUE;
    }
  if (outcome == LIST_ABSENT)
    g_set_error (&local_error, FS_ERROR, FS_ERROR_NOT_FOUND, "%s%s: the server does not serve %s",
                 client->config->server, listings[listing].path, listings[listing].name);
  if (outcome == LIST_RESTART)
    {
      client->stats.relists++;
      g_prefix_error (&local_error, "%s: the list was cut or its continue token expired; to be listed again from the start: ",
                      listings[listing].name);
    }
  g_propagate_error (error, local_error);
  return FALSE;
}

FsSnapshot *
fs_kube_load (FsKubeClient *client, guint resources, gboolean progress, GPtrArray *skipped,
              GError **error)
{
  return fs_kube_load_versions (client, resources, progress, skipped, NULL, error);
}

FsSnapshot *
fs_kube_load_versions (FsKubeClient *client, guint resources, gboolean progress, GPtrArray *skipped,
                       char **versions, GError **error)
{
  /* --request-timeout bounds the whole load: every page, retry and relist */
  client->deadline_us = client->config->timeout_ms > 0
                            ? g_get_monotonic_time () + client->config->timeout_ms * 1000 : 0;
  for (guint attempt = 0;; attempt++)
    {
      gboolean restart = FALSE;
      GError *local_error = NULL;
      if (skipped != NULL)
        g_ptr_array_set_size (skipped, 0);
      FsSnapshot *snapshot = load_once (client, resources, progress, skipped, versions, &restart, &local_error);
      if (snapshot != NULL || !restart || attempt + 1 >= MAX_LOAD_ATTEMPTS)
        client->deadline_us = 0;
      if (snapshot != NULL)
        return snapshot;
      if (!restart || attempt + 1 >= MAX_LOAD_ATTEMPTS)
        {
          g_propagate_error (error, local_error);
          return NULL;
        }
      g_error_free (local_error); /* an expired continue token or a cut connection: list again */
      client->stats.relists++;
      backoff (client, attempt, 0);
    }
}
