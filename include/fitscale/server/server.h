/* fitscale — the HTTP side of `fitscale serve` (libmicrohttpd).
 *
 * A small JSON server: routes by method and path prefix to handlers, a thread pool, TLS,
 * limits on body size, nesting, slow clients and requests in flight (503 with Retry-After
 * past it), errors as Kubernetes Status objects, request counts and latency histograms in
 * the Prometheus text format, one JSON log line per request, and a graceful stop that
 * finishes what is in flight.  Handlers run on the pool's threads and must only read shared
 * state (snapshots are immutable).  The server owns what it allocates; a handler's response
 * body is handed over to it. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  const char *method;
  const char *path;            /* the whole path, e.g. /v1/why/production/web-1 */
  const char *tail;            /* what follows the route's prefix */
  const char *body;            /* NUL-terminated; "" when none */
  gsize body_length;
  const char *content_type;    /* NULL when absent */
} FsHttpRequest;

typedef struct {
  int status;
  char *body;                  /* g_malloc'd, taken by the server */
  const char *content_type;    /* default application/json */
  int retry_after;             /* seconds, 0 = no header */
} FsHttpResponse;

typedef void (*FsHttpHandler) (const FsHttpRequest *request, FsHttpResponse *response, gpointer user_data);

typedef struct {
  const char *listen;          /* "HOST:PORT", ":PORT" or "PORT"; port 0 picks a free one */
  const char *tls_cert;        /* PEM files, both or neither */
  const char *tls_key;
  guint threads;               /* 0: the number of processors */
  guint max_in_flight;         /* 0: 64 */
  gsize max_body;              /* 0: 1 MiB */
  guint client_timeout_s;      /* 0: 10; idle, and the whole request's headers and body */
  int verbosity;               /* 0 errors, 1 + start/stop, 2 + every request */
  guint test_delay_ms;         /* tests: every handler waits this long first */
} FsServerOptions;

typedef struct FsServer FsServer;

FsServer *fs_server_new (const FsServerOptions *options);
void fs_server_free (FsServer *server);

/* Requests with METHOD and a path starting with PREFIX (whole segments) go to HANDLER; the
 * longest prefix wins.  ENDPOINT labels its metrics. */
void fs_server_route (FsServer *server, const char *method, const char *prefix, const char *endpoint,
                      FsHttpHandler handler, gpointer user_data);

gboolean fs_server_start (FsServer *server, GError **error);
guint16 fs_server_port (const FsServer *server);
/* Stops accepting, lets the requests in flight finish, then returns. */
void fs_server_stop (FsServer *server);

/* Appends the request metrics (fitscale_http_*) in the Prometheus text format. */
void fs_server_metrics (FsServer *server, GString *out);

/* A Kubernetes Status error: {"kind":"Status","apiVersion":"v1","status":"Failure",
 * "message":...,"reason":...,"code":STATUS}. */
void fs_http_error (FsHttpResponse *response, int status, const char *reason, const char *format, ...)
    G_GNUC_PRINTF (4, 5);

/* One JSON log line on stderr at VERBOSITY or above: {"ts":...,"level":...,"msg":...} and
 * the extra "key": "value" pairs (NULL-terminated). */
void fs_log (int level, int verbosity, const char *message, ...) G_GNUC_NULL_TERMINATED;

G_END_DECLS
