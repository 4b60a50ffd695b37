/* fitscale — the HTTP server (see include/fitscale/server/server.h). */
#include "config.h"

#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "fitscale/model/error.h"
#include "fitscale/render/output.h"
#include "fitscale/server/server.h"

static const double buckets[] = { 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5 };
#define N_BUCKETS G_N_ELEMENTS (buckets)

typedef struct {
  char *method;
  char *prefix;
  char *endpoint;
  FsHttpHandler handler;
  gpointer user_data;
} Route;

/* The request line and headers fitscale reads (414 past the first, 431 past both together,
 * as Status JSON), and the memory libmicrohttpd may use per connection: a request head that
 * does not fit in it is refused by libmicrohttpd itself, with its own HTML page (docs/api.md,
 * "Errors libmicrohttpd answers").  The pool is larger than the limits so that every head
 * up to about 60 KiB is answered here, in JSON; not much larger, as libmicrohttpd clears the
 * whole pool for each request of a kept-alive connection (memorypool.c, MHD_pool_reset):
 * 64 KiB instead of its default 32 KiB. */
#define MAX_URI (8u << 10)
#define MAX_HEAD (16u << 10)
#define CONNECTION_MEMORY (64u << 10)

/* Counts and latencies of one endpoint and status code. */
typedef struct {
  guint64 count;
  guint64 in_bucket[N_BUCKETS];
  double seconds;
} Series;

struct FsServer {
  FsServerOptions options;
  char *listen;
  char *tls_cert_pem, *tls_key_pem;
  GPtrArray *routes;
  struct MHD_Daemon *daemon;
  guint16 port;
  gint in_flight;
  gint requests_open;            /* headers read, not yet answered: bodies arriving, handlers running */
  gint slow_clients;             /* requests cut off at client_timeout_s */
  GMutex lock;                 /* guards series */
  GHashTable *series;          /* "endpoint\tcode" -> Series */
  GMutex peers_lock;           /* guards peers, each Peer's fields and stopping */
  GHashTable *peers;           /* the open connections: Peer set */
  GCond peers_changed;         /* wakes the watchdog to stop */
  gboolean stopping;
  GThread *watchdog;
};

/* Per connection, from libmicrohttpd's NOTIFY_STARTED to NOTIFY_CLOSED (which comes before
 * it closes the socket, so the watchdog never shuts down a descriptor reused by another). */
typedef struct {
  MHD_socket fd;
  gint64 since;                /* opened, or its last answer sent: the next request is due by
                                * since + client_timeout_s, headers and body */
  gboolean answering;          /* the whole request is in: the handler and the reply are not timed */
  gboolean served;             /* it has answered a request (keep-alive) */
  gboolean request_line;       /* the next request's first line has arrived */
  gsize uri_length;            /* its URI, as the client sent it */
} Peer;

/* Per connection: the body as it arrives. */
typedef struct {
  GString *body;
  gboolean too_large;
  gint64 started;
} Upload;

/* ---- logs and errors --------------------------------------------------------------------- */

void
fs_log (int level, int verbosity, const char *message, ...)
{
  if (verbosity < level)
    return;
  FsEmitter *emitter = fs_emitter_new_string ();
  fs_emit_map_open (emitter);
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *stamp = g_date_time_format (now, "%Y-%m-%dT%H:%M:%S.%fZ");
  const char *pairs[] = { "ts", stamp, "level", level == 0 ? "error" : level == 1 ? "info" : "debug", "msg", message };
  for (gsize i = 0; i < G_N_ELEMENTS (pairs); i++)
    fs_emit_string (emitter, pairs[i]);
  va_list args;
  va_start (args, message);
  for (const char *key = va_arg (args, const char *); key != NULL; key = va_arg (args, const char *))
    {
      const char *value = va_arg (args, const char *);
      fs_emit_key (emitter, key);
      fs_emit_string (emitter, value != NULL ? value : "");
    }
  va_end (args);
  fs_emit_map_close (emitter);
  g_autofree char *line = fs_emitter_take_string (emitter);
  fprintf (stderr, "%s\n", line);
}

void
fs_http_error (FsHttpResponse *response, int status, const char *reason, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  g_autofree char *message = g_strdup_vprintf (format, args);
  va_end (args);
  FsEmitter *emitter = fs_emitter_new_string ();
  fs_emit_map_open (emitter);
  const char *pairs[] = { "kind", "Status", "apiVersion", "v1", "status", "Failure", "message", message, "reason", reason };
  for (gsize i = 0; i < G_N_ELEMENTS (pairs); i++)
    fs_emit_string (emitter, pairs[i]);
  fs_emit_key (emitter, "code");
  fs_emit_int (emitter, status);
  fs_emit_map_close (emitter);
  g_free (response->body);
  response->body = fs_emitter_take_string (emitter);
  response->status = status;
  response->content_type = "application/json";
}

/* ---- routes ------------------------------------------------------------------------------ */

FsServer *
fs_server_new (const FsServerOptions *options)
{
  FsServer *server = g_new0 (FsServer, 1);
  server->options = *options;
  server->listen = g_strdup (options->listen != NULL ? options->listen : ":8443");
  server->options.listen = server->listen;
  if (server->options.threads == 0)
    server->options.threads = g_get_num_processors ();
  if (server->options.max_in_flight == 0)
    server->options.max_in_flight = 64;
  if (server->options.max_body == 0)
    server->options.max_body = 1u << 20;
  if (server->options.client_timeout_s == 0)
    server->options.client_timeout_s = 10;
  server->routes = g_ptr_array_new ();
  server->series = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_mutex_init (&server->lock);
  server->peers = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_mutex_init (&server->peers_lock);
  g_cond_init (&server->peers_changed);
  return server;
}

void
fs_server_free (FsServer *server)
{
  if (server == NULL)
    return;
  for (guint i = 0; i < server->routes->len; i++)
    {
      Route *route = server->routes->pdata[i];
      g_free (route->method);
      g_free (route->prefix);
      g_free (route->endpoint);
      g_free (route);
    }
  g_ptr_array_unref (server->routes);
  g_hash_table_unref (server->series);
  g_mutex_clear (&server->lock);
  g_hash_table_unref (server->peers);
  g_mutex_clear (&server->peers_lock);
  g_cond_clear (&server->peers_changed);
  g_free (server->listen);
  g_free (server->tls_cert_pem);
  g_free (server->tls_key_pem);
  g_free (server);
}

void
fs_server_route (FsServer *server, const char *method, const char *prefix, const char *endpoint,
                 FsHttpHandler handler, gpointer user_data)
{
  Route *route = g_new0 (Route, 1);
  route->method = g_strdup (method);
  route->prefix = g_strdup (prefix);
  route->endpoint = g_strdup (endpoint);
  route->handler = handler;
  route->user_data = user_data;
  g_ptr_array_add (server->routes, route);
}

/* The route for PATH: the longest prefix that ends at a segment boundary.  *PATH_KNOWN: some
 * route has the path, whatever its method (405 rather than 404). */
static const Route *
find_route (const FsServer *server, const char *method, const char *path, gboolean *path_known)
{
  const Route *best = NULL;
  *path_known = FALSE;
  for (guint i = 0; i < server->routes->len; i++)
    {
      const Route *route = server->routes->pdata[i];
      gsize length = strlen (route->prefix);
      gboolean prefix = strncmp (path, route->prefix, length) == 0
                        && (path[length] == '\0' || path[length] == '/' || route->prefix[length - 1] == '/');
      if (!prefix)
        continue;
      *path_known = TRUE;
      /* HEAD is GET without the body (RFC 9110 9.3.2; libmicrohttpd sends no body for it) */
      gboolean method_ok = strcmp (route->method, method) == 0
                           || (strcmp (method, "HEAD") == 0 && strcmp (route->method, "GET") == 0);
      if (method_ok && (best == NULL || length > strlen (best->prefix)))
        best = route;
    }
  return best;
}

/* ---- metrics ----------------------------------------------------------------------------- */

static void
record (FsServer *server, const char *endpoint, int status, double seconds)
{
  g_autofree char *key = g_strdup_printf ("%s\t%d", endpoint, status);
  g_mutex_lock (&server->lock);
  Series *series = g_hash_table_lookup (server->series, key);
  if (series == NULL)
    {
      series = g_new0 (Series, 1);
      g_hash_table_insert (server->series, g_steal_pointer (&key), series);
    }
  series->count++;
  series->seconds += seconds;
  for (gsize b = 0; b < N_BUCKETS; b++)
    series->in_bucket[b] += seconds <= buckets[b];
  g_mutex_unlock (&server->lock);
}

static gint
compare_keys (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

void
fs_server_metrics (FsServer *server, GString *out)
{
  g_mutex_lock (&server->lock);
  g_autoptr (GPtrArray) keys = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;
  g_hash_table_iter_init (&iter, server->series);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (keys, key);
  g_ptr_array_sort (keys, compare_keys);
  g_string_append (out, "# HELP fitscale_http_requests_total HTTP requests answered, by endpoint and status code.\n"
                        "# TYPE fitscale_http_requests_total counter\n");
  for (guint i = 0; i < keys->len; i++)
    {
      g_auto (GStrv) parts = g_strsplit (keys->pdata[i], "\t", 2);
      const Series *series = g_hash_table_lookup (server->series, keys->pdata[i]);
      g_string_append_printf (out, "fitscale_http_requests_total{endpoint=\"%s\",code=\"%s\"} %" G_GUINT64_FORMAT "\n",
                              parts[0], parts[1], series->count);
    }
  g_string_append (out, "# HELP fitscale_http_request_duration_seconds Time to answer, by endpoint and status code.\n"
                        "# TYPE fitscale_http_request_duration_seconds histogram\n");
  for (guint i = 0; i < keys->len; i++)
    {
      g_auto (GStrv) parts = g_strsplit (keys->pdata[i], "\t", 2);
      const Series *series = g_hash_table_lookup (server->series, keys->pdata[i]);
      for (gsize b = 0; b < N_BUCKETS; b++)
        g_string_append_printf (out, "fitscale_http_request_duration_seconds_bucket{endpoint=\"%s\",code=\"%s\",le=\"%g\"} %"
                                G_GUINT64_FORMAT "\n", parts[0], parts[1], buckets[b], series->in_bucket[b]);
      g_string_append_printf (out, "fitscale_http_request_duration_seconds_bucket{endpoint=\"%s\",code=\"%s\",le=\"+Inf\"} %"
                              G_GUINT64_FORMAT "\n", parts[0], parts[1], series->count);
      g_string_append_printf (out, "fitscale_http_request_duration_seconds_sum{endpoint=\"%s\",code=\"%s\"} %.6f\n",
                              parts[0], parts[1], series->seconds);
      g_string_append_printf (out, "fitscale_http_request_duration_seconds_count{endpoint=\"%s\",code=\"%s\"} %"
                              G_GUINT64_FORMAT "\n", parts[0], parts[1], series->count);
    }
  g_string_append_printf (out, "# HELP fitscale_http_requests_in_flight Requests being answered now.\n"
                               "# TYPE fitscale_http_requests_in_flight gauge\nfitscale_http_requests_in_flight %d\n",
                          g_atomic_int_get (&server->in_flight));
  g_string_append_printf (out, "# HELP fitscale_http_slow_clients_total Requests cut off: their headers and body took "
                               "longer than the client timeout.\n"
                               "# TYPE fitscale_http_slow_clients_total counter\nfitscale_http_slow_clients_total %d\n",
                          g_atomic_int_get (&server->slow_clients));
  g_mutex_unlock (&server->lock);
}

/* ---- answering --------------------------------------------------------------------------- */

static enum MHD_Result
send_response (FsServer *server, struct MHD_Connection *connection, const char *method, const char *path,
               const char *endpoint, FsHttpResponse *response, gint64 started)
{
  if (response->body == NULL)
    response->body = g_strdup ("");
  gsize length = strlen (response->body);
  struct MHD_Response *reply = MHD_create_response_from_buffer (length, g_steal_pointer (&response->body),
                                                                MHD_RESPMEM_MUST_FREE);
  MHD_add_response_header (reply, "Content-Type", response->content_type != NULL ? response->content_type
                                                                                  : "application/json");
  if (response->retry_after > 0)
    {
      char seconds[16];
      g_snprintf (seconds, sizeof seconds, "%d", response->retry_after);
      MHD_add_response_header (reply, "Retry-After", seconds);
    }
  enum MHD_Result result = MHD_queue_response (connection, (unsigned int) response->status, reply);
  MHD_destroy_response (reply);
  double seconds = (double) (g_get_monotonic_time () - started) / G_USEC_PER_SEC;
  record (server, endpoint, response->status, seconds);
  if (server->options.verbosity >= 2)
    {
      char status[8], ms[32];
      g_snprintf (status, sizeof status, "%d", response->status);
      g_snprintf (ms, sizeof ms, "%.3f", seconds * 1e3);
      /* the path as the client sent it, made printable and cut (a 414's is 8 KiB) */
      g_autofree char *safe = fs_terminal_safe (path);
      g_autofree char *shown = g_utf8_substring (safe, 0, MIN (g_utf8_strlen (safe, -1), 200));
      fs_log (2, server->options.verbosity, "request", "method", method, "path", shown, "status", status,
              "durationMs", ms, NULL);
    }
  return result;
}

/* ---- connections: the whole request within client_timeout_s ----------------------------- */

static Peer *
peer_of (struct MHD_Connection *connection)
{
  const union MHD_ConnectionInfo *info = MHD_get_connection_info (connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  return info != NULL ? info->socket_context : NULL;
}

static void
on_connection (void *cls, struct MHD_Connection *connection, void **socket_context,
               enum MHD_ConnectionNotificationCode code)
{
  FsServer *server = cls;
  if (code == MHD_CONNECTION_NOTIFY_STARTED)
    {
      const union MHD_ConnectionInfo *info = MHD_get_connection_info (connection, MHD_CONNECTION_INFO_CONNECTION_FD);
      Peer *peer = g_new0 (Peer, 1);
      peer->fd = info != NULL ? info->connect_fd : MHD_INVALID_SOCKET;
      peer->since = g_get_monotonic_time ();
      g_mutex_lock (&server->peers_lock);
      g_hash_table_add (server->peers, peer);
      g_mutex_unlock (&server->peers_lock);
      *socket_context = peer;
    }
  else if (*socket_context != NULL)
    {
      g_mutex_lock (&server->peers_lock);
      g_hash_table_remove (server->peers, *socket_context);
      g_mutex_unlock (&server->peers_lock);
      g_free (*socket_context);
      *socket_context = NULL;
    }
}

/* libmicrohttpd's URI log callback: the request line is in (its URI as sent, before any
 * decoding).  The value returned starts the access handler's state: none. */
static void *
on_request_line (void *cls, const char *uri, struct MHD_Connection *connection)
{
  FsServer *server = cls;
  Peer *peer = peer_of (connection);
  if (peer != NULL)
    {
      g_mutex_lock (&server->peers_lock);
      peer->request_line = TRUE;
      peer->uri_length = strlen (uri);
      g_mutex_unlock (&server->peers_lock);
    }
  return NULL;
}

static void
set_answering (FsServer *server, Peer *peer, gboolean answering)
{
  if (peer == NULL)
    return;
  g_mutex_lock (&server->peers_lock);
  peer->answering = answering;
  if (!answering)
    {
      /* answered: the next request on this connection is due within the timeout from now */
      peer->since = g_get_monotonic_time ();
      peer->served = TRUE;
      peer->request_line = FALSE;
    }
  g_mutex_unlock (&server->peers_lock);
}

/* libmicrohttpd's --client-timeout (MHD_OPTION_CONNECTION_TIMEOUT) is an idle timer, reset by
 * every byte: a client sending one header byte a second would hold its connection forever.
 * This thread cuts every connection whose request (TLS handshake, request line, headers and
 * body) has not wholly arrived client_timeout_s after the connection opened or its previous
 * answer was sent: shutdown(2) on the socket, which libmicrohttpd's own loop then sees
 * closed.  A keep-alive connection that has not begun another request is not counted as a
 * slow client: libmicrohttpd's idle timer would close it at the same moment. */
static gpointer
watch_peers (gpointer data)
{
  FsServer *server = data;
  const gint64 timeout = (gint64) server->options.client_timeout_s * G_USEC_PER_SEC;
  g_mutex_lock (&server->peers_lock);
  while (!server->stopping)
    {
      gint64 now = g_get_monotonic_time ();
      gint64 next = now + G_USEC_PER_SEC / 4;
      GHashTableIter iter;
      gpointer key;
      g_hash_table_iter_init (&iter, server->peers);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        {
          Peer *peer = key;
          if (peer->answering || peer->fd == MHD_INVALID_SOCKET)
            continue;
          if (peer->since + timeout > now)
            {
              next = MIN (next, peer->since + timeout);
              continue;
            }
          shutdown (peer->fd, SHUT_RDWR);
          if (!peer->served || peer->request_line)
            g_atomic_int_inc (&server->slow_clients);
          peer->fd = MHD_INVALID_SOCKET; /* once */
        }
      g_cond_wait_until (&server->peers_changed, &server->peers_lock, next);
    }
  g_mutex_unlock (&server->peers_lock);
  return NULL;
}

/* ---- requests ---------------------------------------------------------------------------- */

/* The checks of a request's head, before any of its body is read: a Status in RESPONSE and
 * TRUE when it is refused. */
static gboolean
refuse_head (FsServer *server, struct MHD_Connection *connection, Peer *peer, FsHttpResponse *response)
{
  gsize uri_length = 0;
  if (peer != NULL)
    {
      g_mutex_lock (&server->peers_lock);
      uri_length = peer->uri_length;
      g_mutex_unlock (&server->peers_lock);
    }
  const union MHD_ConnectionInfo *info = MHD_get_connection_info (connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
  gsize head = info != NULL ? info->header_size : 0;
  const char *length = MHD_lookup_connection_value (connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
  if (uri_length > MAX_URI)
    fs_http_error (response, 414, "BadRequest", "the URI is %" G_GSIZE_FORMAT " bytes long, over %u", uri_length, MAX_URI);
  else if (head > uri_length && head - uri_length > MAX_HEAD)
    fs_http_error (response, 431, "BadRequest", "the header fields are over %u bytes", MAX_HEAD);
  else if (length != NULL && g_ascii_isdigit (length[0])
           && g_ascii_strtoull (length, NULL, 10) > server->options.max_body)
    fs_http_error (response, 413, "RequestEntityTooLarge", "the body is over %" G_GSIZE_FORMAT " bytes",
                   server->options.max_body);
  else
    return FALSE;
  return TRUE;
}

static enum MHD_Result
on_request (void *cls, struct MHD_Connection *connection, const char *url, const char *method,
            const char *version, const char *upload_data, size_t *upload_size, void **state)
{
  FsServer *server = cls;
  Upload *upload = *state;
  Peer *peer = peer_of (connection);
  if (upload == NULL)
    {
      upload = g_new0 (Upload, 1);
      upload->body = g_string_new (NULL);
      upload->started = g_get_monotonic_time ();
      *state = upload;
      g_atomic_int_inc (&server->requests_open);
      /* refused on its head alone: answered now, before its body (libmicrohttpd then reads
       * no body, sends no 100 Continue, and closes the connection) */
      FsHttpResponse response = { .status = 200 };
      if (!refuse_head (server, connection, peer, &response))
        return MHD_YES;
      set_answering (server, peer, TRUE);
      gboolean path_known;
      const Route *route = find_route (server, method, url, &path_known);
      return send_response (server, connection, method, url, route != NULL ? route->endpoint : "other", &response,
                            upload->started);
    }
  if (*upload_size > 0)
    {
      /* a client that sends its body a byte at a time is cut off by watch_peers */
      if (upload->body->len + *upload_size > server->options.max_body)
        upload->too_large = TRUE;
      else
        g_string_append_len (upload->body, upload_data, (gssize) *upload_size);
      *upload_size = 0;
      return MHD_YES;
    }
  set_answering (server, peer, TRUE);
  FsHttpResponse response = { .status = 200 };
  gboolean path_known = FALSE;
  const Route *route = find_route (server, method, url, &path_known);
  const char *endpoint = route != NULL ? route->endpoint : "other";
  if (upload->too_large)
    fs_http_error (&response, 413, "RequestEntityTooLarge", "the body is over %" G_GSIZE_FORMAT " bytes",
                   server->options.max_body);
  else if (route == NULL && path_known)
    fs_http_error (&response, 405, "MethodNotAllowed", "%s is not served on %s", method, url);
  else if (route == NULL)
    fs_http_error (&response, 404, "NotFound", "no endpoint %s", url);
  else if (g_atomic_int_add (&server->in_flight, 1) >= (gint) server->options.max_in_flight)
    {
      g_atomic_int_add (&server->in_flight, -1);
      fs_http_error (&response, 503, "ServiceUnavailable", "over %u requests in flight", server->options.max_in_flight);
      response.retry_after = 1;
    }
  else
    {
      if (server->options.test_delay_ms > 0)
        g_usleep ((gulong) server->options.test_delay_ms * 1000);
      FsHttpRequest request = { method, url, url + strlen (route->prefix), upload->body->str, upload->body->len,
                                MHD_lookup_connection_value (connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE) };
      route->handler (&request, &response, route->user_data);
      g_atomic_int_add (&server->in_flight, -1);
    }
  return send_response (server, connection, method, url, endpoint, &response, upload->started);
}

static void
on_completed (void *cls, struct MHD_Connection *connection, void **state, enum MHD_RequestTerminationCode code)
{
  FsServer *server = cls;
  Upload *upload = *state;
  set_answering (server, peer_of (connection), FALSE);
  if (upload == NULL)
    return;
  g_string_free (upload->body, TRUE);
  g_free (upload);
  *state = NULL;
  g_atomic_int_add (&server->requests_open, -1);
}

/* libmicrohttpd's percent-decoding of the path and arguments (MHD_http_unescape), except
 * that "%00" stays as it is: decoded, the NUL would end the C string early and
 * /v1/why/NS/POD%00x would answer for POD; kept, it names a pod that does not exist. */
static size_t
unescape_keeping_nul (void *cls, struct MHD_Connection *connection, char *text)
{
  (void) cls, (void) connection;
  char *out = text;
  for (const char *in = text; *in != '\0'; in++)
    {
      if (in[0] == '%' && g_ascii_isxdigit (in[1]) && g_ascii_isxdigit (in[2]))
        {
          int byte = g_ascii_xdigit_value (in[1]) * 16 + g_ascii_xdigit_value (in[2]);
          if (byte != 0)
            {
              *out++ = (char) byte;
              in += 2;
              continue;
            }
        }
      *out++ = *in;
    }
  *out = '\0';
  return (size_t) (out - text);
}

/* libmicrohttpd's own messages, as fitscale's log lines (one JSON object, printable, at most
 * 200 characters: its error messages quote the HTML page it answered with).  The requests
 * it refuses by itself, before fitscale sees them (docs/api.md), are counted under the
 * endpoint "unparsed" from its "Error processing request (HTTP response code is N" message
 * (connection.c, transmit_error_response_len). */
static void
on_library_message (void *cls, const char *format, va_list args)
{
  FsServer *server = cls;
  g_autofree char *text = g_strdup_vprintf (format, args);
  unsigned int code = 0;
  if (sscanf (text, "Error processing request (HTTP response code is %u", &code) == 1 && code >= 400 && code < 600)
    record (server, "unparsed", (int) code, 0);
  g_strchomp (text);
  g_autofree char *safe = fs_terminal_safe (text);
  g_autofree char *line = g_utf8_substring (safe, 0, MIN (g_utf8_strlen (safe, -1), 200));
  fs_log (1, server->options.verbosity, "libmicrohttpd", "detail", line, NULL);
}

/* --listen HOST:PORT, :PORT or PORT: HOST an IPv4 address, localhost, or an IPv6 address in
 * brackets ([::1]:8443, [::]:8443) as Go's net.SplitHostPort takes it. */
static gboolean
parse_listen (const char *listen, struct sockaddr_storage *address, GError **error)
{
  const char *colon = strrchr (listen, ':');
  const char *port_text = colon != NULL ? colon + 1 : listen;
  char *end = NULL;
  guint64 port = g_ascii_strtoull (port_text, &end, 10);
  memset (address, 0, sizeof *address);
  struct sockaddr_in *v4 = (struct sockaddr_in *) address;
  struct sockaddr_in6 *v6 = (struct sockaddr_in6 *) address;
  v4->sin_family = AF_INET;
  v4->sin_addr.s_addr = htonl (INADDR_ANY);
  if (end == port_text || *end != '\0' || port > 65535)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_USAGE, "--listen \"%s\": give HOST:PORT, :PORT or PORT", listen);
      return FALSE;
    }
  g_autofree char *host = colon != NULL && colon > listen ? g_strndup (listen, colon - listen) : NULL;
  gsize host_len = host != NULL ? strlen (host) : 0;
  if (host != NULL && host[0] == '[' && host_len > 2 && host[host_len - 1] == ']')
    {
      host[host_len - 1] = '\0';
      v6->sin6_family = AF_INET6;
      v6->sin6_port = htons ((uint16_t) port);
      if (inet_pton (AF_INET6, host + 1, &v6->sin6_addr) == 1)
        return TRUE;
      g_set_error (error, FS_ERROR, FS_ERROR_USAGE, "--listen \"%s\": \"%s\" is not an IPv6 address", listen, host + 1);
      return FALSE;
    }
  v4->sin_port = htons ((uint16_t) port);
  if (host != NULL && strcmp (host, "localhost") == 0)
    v4->sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  else if (host != NULL && inet_pton (AF_INET, host, &v4->sin_addr) != 1)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_USAGE,
                   "--listen \"%s\": \"%s\" is not an IPv4 address (write an IPv6 one in brackets: [::1]:8443)",
                   listen, host);
      return FALSE;
    }
  return TRUE;
}

static void
stop_watchdog (FsServer *server)
{
  if (server->watchdog == NULL)
    return;
  g_mutex_lock (&server->peers_lock);
  server->stopping = TRUE;
  g_cond_signal (&server->peers_changed);
  g_mutex_unlock (&server->peers_lock);
  g_thread_join (server->watchdog);
  server->watchdog = NULL;
}

gboolean
fs_server_start (FsServer *server, GError **error)
{
  struct sockaddr_storage address;
  if (!parse_listen (server->listen, &address, error))
    return FALSE;
  const FsServerOptions *options = &server->options;
  if ((options->tls_cert == NULL) != (options->tls_key == NULL))
    {
      g_set_error (error, FS_ERROR, FS_ERROR_USAGE, "--tls-cert and --tls-key go together");
      return FALSE;
    }
  if (options->tls_cert != NULL
      && (!g_file_get_contents (options->tls_cert, &server->tls_cert_pem, NULL, error)
          || !g_file_get_contents (options->tls_key, &server->tls_key_pem, NULL, error)))
    return FALSE;
  unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG | MHD_USE_EPOLL | MHD_USE_ITC;
  if (address.ss_family == AF_INET6)
    flags |= MHD_USE_IPv6;
  if (server->tls_cert_pem != NULL)
    flags |= MHD_USE_TLS;
  struct MHD_OptionItem tls[] = {
    { MHD_OPTION_HTTPS_MEM_CERT, 0, server->tls_cert_pem },
    { MHD_OPTION_HTTPS_MEM_KEY, 0, server->tls_key_pem },
    { MHD_OPTION_END, 0, NULL },
  };
  server->stopping = FALSE;
  server->watchdog = g_thread_new ("fitscale-watchdog", watch_peers, server);
  server->daemon = MHD_start_daemon (flags, 0, NULL, NULL, on_request, server,
                                     MHD_OPTION_EXTERNAL_LOGGER, on_library_message, server, /* first: all of them */
                                     MHD_OPTION_SOCK_ADDR, &address,
                                     MHD_OPTION_UNESCAPE_CALLBACK, unescape_keeping_nul, NULL,
                                     MHD_OPTION_THREAD_POOL_SIZE, (unsigned int) options->threads,
                                     MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int) options->client_timeout_s,
                                     MHD_OPTION_CONNECTION_LIMIT, (unsigned int) (options->max_in_flight * 4),
                                     /* one client may not hold every slot: the kubelet's probes come
                                      * from the node's address and still get in */
                                     MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned int) (options->max_in_flight * 2),
                                     MHD_OPTION_NOTIFY_COMPLETED, on_completed, server,
                                     MHD_OPTION_NOTIFY_CONNECTION, on_connection, server,
                                     MHD_OPTION_URI_LOG_CALLBACK, on_request_line, server,
                                     MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t) CONNECTION_MEMORY,
                                     MHD_OPTION_ARRAY, server->tls_cert_pem != NULL ? tls : tls + 2,
                                     MHD_OPTION_END);
  if (server->daemon == NULL)
    {
      stop_watchdog (server);
      g_set_error (error, FS_ERROR, FS_ERROR_IO, "cannot listen on %s", server->listen);
      return FALSE;
    }
  const union MHD_DaemonInfo *info = MHD_get_daemon_info (server->daemon, MHD_DAEMON_INFO_BIND_PORT);
  server->port = info != NULL ? info->port : 0;
  return TRUE;
}

guint16
fs_server_port (const FsServer *server)
{
  return server->port;
}

void
fs_server_stop (FsServer *server)
{
  if (server->daemon == NULL)
    return;
  MHD_quiesce_daemon (server->daemon); /* no new connections */
  /* finish every request already begun, its body still arriving included: a late one is cut
   * at the client timeout anyway, so that bounds the wait (a second more for its answer) */
  gint64 deadline = g_get_monotonic_time () + ((gint64) server->options.client_timeout_s + 1) * G_USEC_PER_SEC;
  while ((g_atomic_int_get (&server->requests_open) > 0 || g_atomic_int_get (&server->in_flight) > 0)
         && g_get_monotonic_time () < deadline)
    g_usleep (10000);
  MHD_stop_daemon (server->daemon);
  server->daemon = NULL;
  stop_watchdog (server);
}
