/* fitscale — the cluster's own scheduler configuration: the profiles of a
 * KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1) as far as they change filtering.
 *
 * A pod is judged by the profile named by its spec.schedulerName; a scheduler no profile names
 * does not schedule it at all (kube-scheduler's frameworkForPod: "profile not found for
 * scheduler name"), so fitscale reports such a pod instead of judging it by the default
 * profile.  Read per profile: the filter plugins enabled and disabled (plugins.filter and
 * plugins.multiPoint), NodeResourcesFitArgs ignoredResources / ignoredResourceGroups,
 * NodeAffinityArgs.addedAffinity (its required terms), PodTopologySpreadArgs
 * defaultingType / defaultConstraints.  Scoring (score plugins, weights, scoringStrategy,
 * InterPodAffinityArgs, which only weigh preferred terms) does not change which nodes pass
 * and is not read.  kube/schedconfig.h decodes the file; model/fit.c and model/pack.c consult
 * the profile an FsPodShape carries (NULL: the default profile, every filter on, no args).
 *
 * Pure data and lookups: no I/O.  An FsSchedulerConfig owns its profiles and keeps the
 * decoded document (whose strings the profiles point into) alive. */
#pragma once

#include <glib.h>

#include "fitscale/model/fit.h"
#include "fitscale/model/objects.h"

G_BEGIN_DECLS

/* kube-scheduler's name for a pod without spec.schedulerName (v1.DefaultSchedulerName). */
#define FS_DEFAULT_SCHEDULER_NAME "default-scheduler"

/* PodTopologySpreadArgs.defaultingType (v1 default: System). */
typedef enum {
  FS_SPREAD_DEFAULTING_SYSTEM = 0,
  FS_SPREAD_DEFAULTING_LIST,
} FsSpreadDefaulting;

#define FS_SCHED_MAX_NAMES 64

struct FsSchedulerProfile {
  const char *scheduler_name;             /* profiles[].schedulerName ("default-scheduler") */
  guint32 disabled_filters;               /* 1 << FsFilter for each filter plugin turned off */
  guint n_ignored_resources;              /* NodeResourcesFitArgs.ignoredResources */
  const char *ignored_resources[FS_SCHED_MAX_NAMES];
  guint n_ignored_groups;                 /* NodeResourcesFitArgs.ignoredResourceGroups */
  const char *ignored_groups[FS_SCHED_MAX_NAMES];
  const FsNodeSelector *added_affinity;   /* NodeAffinityArgs.addedAffinity required terms */
  FsSpreadDefaulting spread_defaulting;
  const FsSpreadList *default_constraints; /* List: PodTopologySpreadArgs.defaultConstraints */
  guint n_unmodelled;                     /* filter plugins it enables that fitscale lacks */
  const char *unmodelled[FS_SCHED_MAX_NAMES];
}; /* FsSchedulerProfile (model/fit.h) */

typedef struct FsSchedulerConfig {
  gint ref_count;
  char *source;                           /* the file it came from */
  guint n_profiles;
  FsSchedulerProfile *profiles;
  gpointer document;                      /* what the profiles' strings point into */
  GDestroyNotify document_free;
  GPtrArray *owned;                       /* allocations the profiles point to */
} FsSchedulerConfig;

FsSchedulerConfig *fs_scheduler_config_new (const char *source, gpointer document,
                                            GDestroyNotify document_free);
FsSchedulerConfig *fs_scheduler_config_ref (FsSchedulerConfig *config);
void fs_scheduler_config_unref (FsSchedulerConfig *config);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FsSchedulerConfig, fs_scheduler_config_unref)

/* The kube-scheduler plugin NAME's filter ("NodeResourcesFit" -> FS_FILTER_NODE_RESOURCES_FIT);
 * FALSE for a plugin with no filter fitscale models. */
gboolean fs_scheduler_filter_plugin (const char *name, FsFilter *filter);
/* The plugin name of FILTER ("TaintToleration"). */
const char *fs_scheduler_filter_name (FsFilter filter);

/* The profile that schedules pods of SCHEDULER_NAME (NULL or "": default-scheduler), as
 * scheduler.go frameworkForPod picks it; NULL when CONFIG names none.  CONFIG NULL (no
 * --scheduler-config) is the default profile of the version in use: returns NULL, and
 * fs_scheduler_knows says TRUE. */
const FsSchedulerProfile *fs_scheduler_profile_for (const FsSchedulerConfig *config,
                                                    const char *scheduler_name);
/* Whether a pod of SCHEDULER_NAME is scheduled at all under CONFIG (always without one). */
gboolean fs_scheduler_knows (const FsSchedulerConfig *config, const char *scheduler_name);

/* The profile of the pods of SPEC (its schedulerName) in SNAPSHOT's scheduler configuration,
 * NULL for the default profile (or an unknown scheduler: see fs_snapshot_knows_scheduler). */
const FsSchedulerProfile *fs_snapshot_profile (const FsSnapshot *snapshot, const FsPodSpec *spec);
/* Whether SNAPSHOT's configuration schedules pods of SPEC at all (always without one). */
gboolean fs_snapshot_knows_scheduler (const FsSnapshot *snapshot, const FsPodSpec *spec);

/* podtopologyspread/common.go buildDefaultConstraints, for a pod with no constraints of its
 * own: PROFILE's List defaultConstraints, each with SELECTOR as its labelSelector (upstream's
 * helper.DefaultSelector: the selectors of the Services, ReplicationControllers, ReplicaSets
 * and StatefulSets that select the pod; fitscale has the selector of the workload that owns
 * it).  NULL when PLACEMENT has constraints, the defaulting is System (its defaults are
 * ScheduleAnyway: they only score), there are none, or SELECTOR is NULL (an empty selector:
 * upstream builds none).  The caller frees the list with g_free. */
FsSpreadList *fs_scheduler_default_spread (const FsSchedulerProfile *profile,
                                           const FsPlacement *placement,
                                           const FsLabelSelector *selector);

/* Whether PROFILE (NULL: the default profile) runs FILTER. */
gboolean fs_scheduler_profile_runs (const FsSchedulerProfile *profile, FsFilter filter);

/* noderesources/fit.go fitsRequest: whether the extended resource NAME is skipped, by name
 * (ignoredResources) or by the part of its name before '/' (ignoredResourceGroups). */
gboolean fs_scheduler_profile_ignores (const FsSchedulerProfile *profile, const char *name);

G_END_DECLS
