/* fitscale — talking to the Kubernetes API server (libcurl).
 *
 * One FsKubeClient holds one reused connection (keep-alive, HTTP/2 where libcurl offers it,
 * gzip) and the credentials of an FsRestConfig: a bearer token (re-read from its file when
 * it changes), a client certificate, or an exec credential plugin run when needed and again
 * after a 401.  Lists are paged (limit=500, continue) and every page is decoded by the
 * streaming decoders (decode.h) while it downloads.  429 and 5xx answers are retried with
 * capped exponential backoff and jitter, honouring Retry-After; other failures become errors
 * a user can act on (which server, which certificate, which credential, which RBAC rule).
 * Tokens and keys are never printed.  The client owns its config. */
#pragma once

#include <glib.h>

#include "fitscale/kube/kubeconfig.h"
#include "fitscale/model/objects.h"

G_BEGIN_DECLS

typedef struct FsKubeClient FsKubeClient;

/* Takes CONFIG. */
FsKubeClient *fs_kube_client_new (FsRestConfig *config, GError **error);
void fs_kube_client_free (FsKubeClient *client);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FsKubeClient, fs_kube_client_free)

const FsRestConfig *fs_kube_client_config (const FsKubeClient *client);

typedef struct {
  guint requests;      /* HTTP requests sent */
  guint retries;       /* of which retries (429, 5xx, a connection cut) */
  guint relists;       /* lists started again (410 Gone on a continue token) */
  guint64 bytes;       /* body bytes received */
} FsKubeClientStats;

const FsKubeClientStats *fs_kube_client_stats (const FsKubeClient *client);

/* How far a list is, for a caller that shows it: LISTING is its name ("pods"), PAGE the page
 * arriving (from 1), BYTES the body bytes of the list so far.  Called for a list that has
 * taken over a second, at most ten times a second, and once more with DONE when such a list
 * ends (the caller erases what it showed).  The library prints nothing itself. */
typedef void (*FsKubeProgress) (const char *listing, guint page, guint64 bytes, gboolean done,
                                gpointer user_data);
/* PROGRESS (NULL: none) hears of the lists of every fs_kube_load asked for progress. */
void fs_kube_client_set_progress (FsKubeClient *client, FsKubeProgress progress, gpointer user_data);

/* The resources fitscale reads.  A command asks for the ones it needs. */
typedef enum {
  FS_KUBE_NODES = 1 << 0,
  FS_KUBE_PODS = 1 << 1,
  FS_KUBE_NAMESPACES = 1 << 2,
  FS_KUBE_WORKLOADS = 1 << 3,       /* deployments, statefulsets, replicasets */
  FS_KUBE_HPAS = 1 << 4,
  FS_KUBE_VPAS = 1 << 5,            /* optional: the VPA CRD may not be installed */
  FS_KUBE_HVPAS = 1 << 6,           /* optional */
  FS_KUBE_POD_METRICS = 1 << 7,     /* optional: metrics-server */
  FS_KUBE_EVENTS = 1 << 8,          /* FailedScheduling events only */
  FS_KUBE_STORAGE = 1 << 9,         /* persistentvolumeclaims, persistentvolumes, storageclasses,
                                     * csinodes: what the volume filters read (model/volumes.h) */
  FS_KUBE_PDBS = 1 << 10,           /* policy/v1 PodDisruptionBudgets (preemption); optional */
  FS_KUBE_RUNTIME_CLASSES = 1 << 11, /* node.k8s.io/v1 RuntimeClasses: the overhead and scheduling
                                      * admission gives new pods (model/runtimeclass.h) */
} FsKubeResources;

/* One list fitscale makes: the resource it belongs to, its API path and field selector. */
typedef struct {
  guint resource;              /* FsKubeResources */
  const char *name;            /* "pods", "verticalpodautoscalers", ... */
  const char *path;            /* "/api/v1/pods" */
  const char *field_selector;  /* NULL for none */
  gboolean optional;           /* an API the cluster may not serve */
  gboolean watchable;          /* metrics.k8s.io has no watch */
  gboolean namespaced;         /* the resource lives in namespaces (listed per namespace at
                                * PREFIX/namespaces/NS/RESOURCE) */
} FsKubeListing;

/* Every listing, in the order fs_kube_load lists them; *N gets their number. */
const FsKubeListing *fs_kube_listings (guint *n);

/* What prefixes a listing's name in SKIPPED when the credentials may not list it (403). */
#define FS_KUBE_FORBIDDEN_PREFIX "forbidden:"

/* Lists RESOURCES into a new snapshot, cluster-wide (pods without Succeeded and Failed ones:
 * they hold no room).  An optional API the server does not serve (404), or that the
 * credentials may not list (403), is skipped, and its name (prefixed by
 * FS_KUBE_FORBIDDEN_PREFIX for a 403) appended to SKIPPED (may be NULL).  A list whose continue token expired (410) starts
 * again.  With PROGRESS, the client's progress callback hears of a list that takes over a
 * second (fs_kube_client_set_progress). */
FsSnapshot *fs_kube_load (FsKubeClient *client, guint resources, gboolean progress,
                          GPtrArray *skipped, GError **error);
/* The same, and each listing's resourceVersion in VERSIONS (fs_kube_listings order; the
 * caller frees each; NULL where not listed, or not served). */
FsSnapshot *fs_kube_load_versions (FsKubeClient *client, guint resources, gboolean progress,
                                   GPtrArray *skipped, char **versions, GError **error);

/* Lists the one listing LISTING (an index of fs_kube_listings) into BUILDER; a list cut
 * short (an expired continue token, a connection lost mid-page) fails, so that the caller
 * lists again on a fresh builder, with none of the failed attempt's pages in it (the live
 * cache does, after its backoff); *VERSION (freed first) gets the list's resourceVersion.
 * An optional API the server does not serve or the credentials may not list sets *ABSENT
 * and lists nothing. */
gboolean fs_kube_list_into (FsKubeClient *client, guint listing, FsSnapshotBuilder *builder, char **version,
                            gboolean *absent, GError **error);

/* A second client for the same server and credentials, with its own connection: one per
 * thread (an FsKubeClient is for one thread at a time). */
FsKubeClient *fs_kube_client_clone (const FsKubeClient *client, GError **error);
/* The time every request of CLIENT may take, in ms (0: none): a watch's client allows its
 * timeoutSeconds and a margin, not --request-timeout. */
void fs_kube_client_set_timeout (FsKubeClient *client, int64_t timeout_ms);
/* CANCEL (borrowed, read atomically; NULL: none) set nonzero ends CLIENT's transfer in
 * flight within about a second (libcurl's progress callback, called about once a second on
 * a quiet stream) and its retries and their waits at once: how the watch cache stops its
 * streams to join their threads. */
void fs_kube_client_set_cancel (FsKubeClient *client, const gint *cancel);

/* GETs PATH (with its query) and hands the body to SINK chunk by chunk; *STATUS gets the HTTP
 * status.  For a non-2xx answer the body is not handed on: ERROR says what the API's Status
 * says.  Retries as described above. */
typedef gboolean (*FsKubeSink) (const char *data, gsize len, gpointer user_data, GError **error);
gboolean fs_kube_client_get (FsKubeClient *client, const char *path, FsKubeSink sink,
                             gpointer user_data, long *status, GError **error);

G_END_DECLS
