/* fitscale — admission: what a write of replicas or requests would leave Pending, and what to
 * do about it (POST /v1/admit, docs/admission.md).
 *
 * The API server sends fitscale's mutating webhook every UPDATE of deployments/scale and
 * statefulsets/scale (the HPA's autoscaling/v1 Scale) and every CREATE and UPDATE of
 * Deployments and StatefulSets (spec.replicas and container requests).  The write is planned
 * with the planner of plan.h, the written replicas standing for the HPA's wish, and measured as
 * a candidate beside the plan: when every replica it asks for schedules, it passes untouched.
 * Otherwise the mode decides (the workload's annotation fitscale.io/admission, else its
 * namespace's label of that name, else --admission-mode):
 *   warn    allowed, with a warning ("4 of 6 replicas of 6Gi would stay Pending: ...; the plan
 *           is 6 x 3917Mi");
 *   adjust  allowed, with a JSON Patch (RFC 6902) applying the plan: for a Scale the replicas
 *           that schedule at the current requests, for a workload the plan's replicas and
 *           requests (limits scaled as the plan scales them); a write that already is the plan
 *           is not patched again, so a second call of the webhook changes nothing;
 *   deny    refused, the reason and the plan in the message.
 * Never harm the cluster: a dry run, an exempt user, a snapshot that is not ready or older than
 * the limit, a workload the snapshot lacks, an error of the planner, a workload without an
 * autoscaler (with --admission-autoscaled-only), and Pending replicas a node autoscaler would
 * add nodes for (they are its signal) are all allowed, at most with a warning. */
#pragma once

#include <glib.h>

#include "fitscale/model/objects.h"

G_BEGIN_DECLS

typedef enum {
  FS_ADMIT_WARN,
  FS_ADMIT_ADJUST,
  FS_ADMIT_DENY,
  FS_ADMIT_N_MODES,
} FsAdmitMode;

typedef enum {
  FS_NODE_AUTOSCALER_DETECT,    /* from the snapshot (model/autoscaler.h) */
  FS_NODE_AUTOSCALER_NONE,
  FS_NODE_AUTOSCALER_CLUSTER_AUTOSCALER,
  FS_NODE_AUTOSCALER_KARPENTER,
} FsNodeAutoscalerChoice;

/* What became of one review (counted in /metrics by verdict and mode). */
typedef enum {
  FS_ADMIT_IGNORED,             /* not a write fitscale judges (another resource, a DELETE, ...) */
  FS_ADMIT_UNCHANGED,           /* the write leaves replicas and requests as they are */
  FS_ADMIT_EXEMPT,              /* an exempt user */
  FS_ADMIT_NOT_JUDGED,          /* snapshot not ready or too old, workload unknown, planner error */
  FS_ADMIT_NO_AUTOSCALER,       /* --admission-autoscaled-only and none scales it */
  FS_ADMIT_FITS,                /* every replica schedules */
  FS_ADMIT_WARNED,
  FS_ADMIT_ADJUSTED,
  FS_ADMIT_DENIED,
  FS_ADMIT_N_VERDICTS,
} FsAdmitVerdict;

typedef struct {
  FsAdmitMode mode;             /* --admission-mode */
  const char *const *exempt_users; /* --admission-exempt-user, NULL-terminated (may be NULL) */
  FsNodeAutoscalerChoice node_autoscaler; /* --node-autoscaler */
  double max_age;               /* --admission-max-age: seconds */
  gboolean autoscaled_only;     /* --admission-autoscaled-only */
} FsAdmitOptions;

#define FS_ADMIT_MAX_CONTAINERS 64

/* What a patch needs of one container of the written template (spec.template.spec.containers,
 * in order): which of its resource maps are there, as "add" needs the parent of what it adds. */
typedef struct {
  const char *name;
  gboolean has_resources, has_requests, has_limits;
  gboolean has_limit[2];        /* resources.limits.cpu, .memory */
} FsAdmitContainer;

/* The AdmissionReview's request, as server/admit.c reads it (strings point into its tree). */
typedef struct {
  const char *uid;
  const char *operation;        /* CREATE, UPDATE, DELETE, CONNECT */
  const char *group, *version, *resource; /* request.resource */
  const char *sub_resource;     /* "scale", or NULL */
  const char *namespace, *name;
  gboolean dry_run;
  const char *username;
  /* what server/admit.c read of request.object and request.oldObject, for the writes
   * fs_admit_judges says are judged */
  int32_t replicas;             /* a Scale: spec.replicas */
  int32_t old_replicas;         /* a Scale: the old object's, -1 when there is none */
  const FsWorkload *workload;   /* a Deployment or StatefulSet: the object decoded (kube/body.h),
                                 * its namespace and name those of the request */
  guint n_containers;
  const FsAdmitContainer *containers;
} FsAdmitRequest;

/* The state of the snapshot a review is judged on. */
typedef struct {
  const FsSnapshot *snapshot;   /* NULL: none yet (not synced) */
  double age;                   /* seconds since it was last confirmed current */
  const char *not_ready;        /* why it is not ready (stale past --max-staleness), or NULL */
} FsAdmitSnapshot;

typedef struct {
  gboolean allowed;
  FsAdmitVerdict verdict;
  FsAdmitMode mode;             /* the mode that applied */
  GPtrArray *warnings;          /* char *, for the AdmissionReview's warnings */
  char *patch;                  /* a JSON Patch document, or NULL */
  char *message;                /* denied: the Status message */
} FsAdmitDecision;

/* Whether REQUEST is a write fitscale judges: then *KIND ("Deployment", "StatefulSet") and
 * *SCALE (a Scale of it) say what request.object is. */
gboolean fs_admit_judges (const FsAdmitRequest *request, const char **kind, gboolean *scale);

/* Judges REQUEST on SNAPSHOT: every review gets a decision. */
FsAdmitDecision *fs_admit (const FsAdmitSnapshot *snapshot, const FsAdmitRequest *request,
                           const FsAdmitOptions *options);
void fs_admit_decision_free (FsAdmitDecision *decision);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FsAdmitDecision, fs_admit_decision_free)

/* "warn", "adjust", "deny"; and back (FALSE when TEXT is none of them). */
const char *fs_admit_mode_name (FsAdmitMode mode);
gboolean fs_admit_mode_parse (const char *text, FsAdmitMode *mode);
/* "ignored", "unchanged", "exempt", "not-judged", "no-autoscaler", "fits", "warned",
 * "adjusted", "denied". */
const char *fs_admit_verdict_name (FsAdmitVerdict verdict);
/* "cluster-autoscaler", "karpenter", "none", "detect"; and back. */
gboolean fs_node_autoscaler_parse (const char *text, FsNodeAutoscalerChoice *choice);

G_END_DECLS
