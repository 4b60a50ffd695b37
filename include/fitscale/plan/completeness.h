/* fitscale — what a snapshot lacks for an answer, said before the answer.
 *
 * fitscale answers from the objects it was given.  When those cannot be the whole cluster —
 * no nodes, pods bound to nodes it does not hold, the pods of only some namespaces — an
 * answer that looks exact can be wrong, so every command and the server report these
 * warnings first (stderr, and a "warnings" array in every JSON answer).  A pure function of
 * the snapshot; the returned array owns its texts. */
#pragma once

#include <glib.h>

#include "fitscale/model/objects.h"

G_BEGIN_DECLS

typedef enum {
  FS_WARNING_NO_NODES,              /* the snapshot holds no node */
  FS_WARNING_PODS_ON_MISSING_NODES, /* pods bound to nodes the snapshot does not hold */
  FS_WARNING_NO_PODS,               /* nodes, but no pod: nothing they reserve is counted */
  FS_WARNING_NAMESPACES_MISSING,    /* pods, but none in kube-system: only some namespaces */
  FS_WARNING_UNMODELLED_FILTER,     /* the pod asks for what a filter fitscale lacks decides */
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

/* The warnings for an answer that reads NEEDS of SNAPSHOT, most severe first; an empty
 * array when nothing is known to be missing. */
GArray *fs_snapshot_warnings (const FsSnapshot *snapshot, guint needs);
/* Adds to WARNINGS (an array fs_snapshot_warnings made) what the answer for pods of SPEC
 * cannot say because it does not model a filter that reads it: resource claims
 * (DynamicResources).  NAME says whose spec it is ("pod default/web-0", "deployment
 * default/web"). */
void fs_pod_spec_warnings (const FsPodSpec *spec, const char *name, GArray *warnings);
/* The filters of the default profile SPEC needs that fitscale does not model, as
 * kube-scheduler names them ("DynamicResources"); adds static strings to OUT. */
void fs_pod_spec_unmodelled_filters (const FsPodSpec *spec, GPtrArray *out);

/* The machine-readable reason of KIND: "NoNodes", "PodsOnMissingNodes", ... */
const char *fs_warning_reason (FsWarningKind kind);

G_END_DECLS
