/* fitscale — what a snapshot lacks for an answer, said before the answer.
 *
 * fitscale answers from the objects it was given.  When those cannot be the whole cluster —
 * no nodes, pods bound to nodes it does not hold, the pods of only some namespaces, a
 * DaemonSet's or a workload's pods missing, an autoscaler's target or metrics absent, a
 * listing the cluster refused — an answer that looks exact can be wrong, so every command
 * and the server report these warnings first (stderr, and the "warnings" array that opens
 * every JSON or YAML answer: render/output.h fs_emitter_new_answer).  Each function is pure
 * (of the snapshot, an answer, or what the live client reported) and returns a new array of
 * FsWarning that owns its texts (fs_warnings_new); free it with g_array_unref. */
#pragma once

#include <glib.h>

#include "fitscale/model/hpa.h"
#include "fitscale/model/objects.h"
#include "fitscale/plan/hpaexplain.h"
#include "fitscale/plan/hvpaexplain.h"
#include "fitscale/plan/plan.h"

G_BEGIN_DECLS

typedef enum {
  FS_WARNING_NO_NODES,              /* the snapshot holds no node */
  FS_WARNING_PODS_ON_MISSING_NODES, /* pods bound to nodes the snapshot does not hold */
  FS_WARNING_NO_PODS,               /* nodes, but no pod: nothing they reserve is counted */
  FS_WARNING_NAMESPACES_MISSING,    /* pods, but none in kube-system: only some namespaces */
  FS_WARNING_UNMODELLED_FILTER,     /* the pod asks for what a filter fitscale lacks decides */
  FS_WARNING_DAEMON_PODS_MISSING,   /* nodes where a DaemonSet should run and has no pod */
  FS_WARNING_WORKLOAD_PODS_MISSING, /* workloads whose status counts more pods than the snapshot holds */
  FS_WARNING_TARGET_MISSING,        /* an autoscaler whose scale target is not in the snapshot */
  FS_WARNING_METRICS_MISSING,       /* an HPA metric without its data (read from status, or none) */
  FS_WARNING_AUTOSCALER_MISSING,    /* an Hvpa's HPA or VPA is not in the snapshot */
  FS_WARNING_LISTING_UNAVAILABLE,   /* live: a listing the server does not serve (404) */
  FS_WARNING_LISTING_FORBIDDEN,     /* live: a listing the credentials may not read (403) */
  FS_WARNING_SNAPSHOT_STALE,        /* live: the watch has failed since the snapshot was taken */
  FS_WARNING_NAMESPACED_LIST,       /* a List that came from a one-namespace query */
  FS_WARNING_CLAIMS_MISSING,        /* Pending pods use PersistentVolumeClaims, none read */
  FS_WARNING_NOT_READY_UNTAINTED,   /* nodes not Ready yet without the taint that keeps pods off */
  FS_WARNING_SCHEDULING_GATED,      /* a template's pods are created with schedulingGates */
  FS_WARNING_RUNTIME_CLASS_MISSING, /* a template names a RuntimeClass the snapshot lacks */
  FS_WARNING_RUNTIME_CLASS_REFUSED, /* RuntimeClass admission refuses the template's pods */
} FsWarningKind;

typedef struct {
  FsWarningKind kind;
  char *text;          /* one sentence for people, naming what is missing and how to add it */
} FsWarning;

/* What an answer reads of the snapshot. */
typedef enum {
  FS_NEEDS_NODES = 1 << 0,       /* placement: the nodes themselves */
  FS_NEEDS_NODE_USAGE = 1 << 1,  /* what the pods bound to them reserve */
} FsSnapshotNeeds;

/* An empty array of FsWarning that frees their texts. */
GArray *fs_warnings_new (void);
/* Appends a warning of KIND with TEXT (taken). */
void fs_warnings_add (GArray *warnings, FsWarningKind kind, char *text);
/* Moves the warnings of MORE (consumed) to the end of WARNINGS. */
void fs_warnings_take (GArray *warnings, GArray *more);

/* The warnings for an answer that reads NEEDS of SNAPSHOT, most severe first; an empty
 * array when nothing is known to be missing. */
GArray *fs_snapshot_warnings (const FsSnapshot *snapshot, guint needs);
/* Adds to WARNINGS (an array fs_snapshot_warnings made) what the answer for pods of SPEC
 * cannot say because it does not model a filter that reads it: resource claims
 * (DynamicResources).  NAME says whose spec it is ("pod default/web-0", "deployment
 * default/web"). */
void fs_pod_spec_warnings (const FsPodSpec *spec, const char *name, GArray *warnings);
/* Adds to WARNINGS what the answer for new pods made of SPEC (a workload's template, or a
 * shape's) cannot promise: that they are gated (spec.schedulingGates: SchedulingGated), that
 * their RuntimeClass's overhead is known (RuntimeClassMissing: SNAPSHOT lacks the class), that
 * admission takes them at all (RuntimeClassRefused: model/runtimeclass.h
 * fs_runtime_class_refusal). */
void fs_template_warnings (const FsSnapshot *snapshot, const FsPodSpec *spec, const char *name,
                           GArray *warnings);
/* The filters of the default profile SPEC needs that fitscale does not model, as
 * kube-scheduler names them ("DynamicResources"); adds static strings to OUT. */
void fs_pod_spec_unmodelled_filters (const FsPodSpec *spec, GPtrArray *out);

/* What an HPA's explanation lacks: its scale target (TargetMissing), a metric's data
 * (MetricsMissing: no value anywhere, or only the HPA's own status). */
GArray *fs_hpa_answer_warnings (const FsHpaAnswer *answer);
/* What an Hvpa's decision lacks: the HPA or the VPA it manages (AutoscalerMissing). */
GArray *fs_hvpa_answer_warnings (const FsHvpaAnswer *answer);
/* What a plan lacks: for an Hvpa's plan, the HPA or VPA it manages (AutoscalerMissing). */
GArray *fs_plan_answer_warnings (const FsPlanAnswer *answer);
/* An HPA (simulate --hpa) whose scale target SNAPSHOT does not hold (TargetMissing). */
GArray *fs_hpa_target_warnings (const FsSnapshot *snapshot, const FsHpaSpec *hpa);

/* Live: a warning for each listing named in SKIPPED (kube/client.h: the optional APIs the
 * cluster does not serve, "forbidden:NAME" for those the credentials may not list). */
GArray *fs_listing_warnings (const GPtrArray *skipped);
/* Live: the cluster's watch has failed for SECONDS since the snapshot last changed, with
 * MESSAGE: the answers come from an older picture of the cluster. */
GArray *fs_stale_warnings (double seconds, const char *message);
/* The machine-readable reason of KIND: "NoNodes", "PodsOnMissingNodes", ... */
const char *fs_warning_reason (FsWarningKind kind);

G_END_DECLS
