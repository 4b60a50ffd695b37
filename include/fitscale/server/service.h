/* fitscale — the planner, why and capacity as an HTTP JSON service (`fitscale serve`,
 * docs/api.md and docs/openapi.yaml), on the HTTP server of server.h.
 *
 * POST /v1/plan, POST /v1/capacity, POST /v1/admit (server/admit.h), GET /v1/why/NAMESPACE/POD, /healthz, /livez, /readyz
 * and /metrics.  Request bodies are read as trees (kube/body.h) and a plan request goes
 * through the one check of plan/request.h; answers are the documents of render/.  Plans are
 * reused for a second (same snapshot, same body).  On a live source the cache's watches
 * (kube/watch.h) keep it current; each request keeps the snapshot it started with.  The service owns
 * its source and its server. */
#pragma once

#include <glib.h>

#include "fitscale/kube/live.h"
#include "fitscale/model/objects.h"
#include "fitscale/plan/admit.h"
#include "fitscale/server/server.h"

G_BEGIN_DECLS

typedef struct FsService FsService;

/* A service on SNAPSHOT, files read just now (takes it). */
FsService *fs_service_new_offline (FsSnapshot *snapshot);
/* A service on LIVE, a listed cluster whose cache it starts as WATCH says (takes it);
 * /readyz fails, and answers warn SnapshotStale, while a listing has gone unconfirmed for
 * over READY_LIMIT seconds. */
FsService *fs_service_new_live (FsKubeLive *live, const FsKubeCacheOptions *watch, double ready_limit);
void fs_service_free (FsService *service);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FsService, fs_service_free)

/* How POST /v1/admit decides (plan/admit.h; copied); before fs_service_start.  By default:
 * warn, no exempt user, the node autoscaler detected, snapshots up to 120 s old. */
void fs_service_set_admission (FsService *service, const FsAdmitOptions *options);

/* Starts listening as OPTIONS say; FALSE with an error when it cannot. */
gboolean fs_service_start (FsService *service, const FsServerOptions *options, GError **error);
guint16 fs_service_port (const FsService *service);
/* Serves (and on a live source watches) until SIGTERM or SIGINT, then finishes the
 * requests in flight and stops. */
void fs_service_run (FsService *service);

G_END_DECLS
