/* fitscale — replaying a load trace through the HPA loop (fitscale simulate).
 *
 * Every sync period the simulated controller reads the trace, computes the metric's proposal
 * with the replica calculator (pods still starting or left Pending count as unready), and
 * normalizes it with the HPA's limits and behavior and its own history, seeded as upstream
 * seeds a new HPA.  With a snapshot, new pods are placed by the fit model: those that do not
 * fit stay Pending — the seed's trap, visible in time.  The timeline is owned by the caller. */
#pragma once

#include <glib.h>

#include "fitscale/model/hpa.h"
#include "fitscale/model/objects.h"

G_BEGIN_DECLS

typedef enum {
  FS_TRACE_UTILIZATION,  /* "t_seconds,value": the per-pod average utilization, percent */
  FS_TRACE_LOAD,         /* "t_seconds,load": a total in metric units the ready pods share */
} FsTraceKind;

typedef struct {
  FsTraceKind kind;
  GArray *times_s;       /* int64 */
  GArray *values;        /* double */
} FsTrace;

/* Parses a CSV trace (a header row naming the second column "value" or "load", then rows of
 * "seconds,number" in increasing time).  Errors name the line. */
gboolean fs_trace_load (const char *path, FsTrace *trace, GError **error);
void fs_trace_clear (FsTrace *trace);

typedef struct {
  int64_t sync_s;              /* --sync, 15 s */
  int64_t startup_s;           /* --startup: a new pod is ready this long after it starts */
  int64_t duration_s;          /* how long to run; default: the trace's last time + 600 s */
  int32_t replicas;            /* start; -1 = the HPA's status.currentReplicas */
  int64_t request_milli;       /* per-pod request of the metric's resource (load traces) */
  gboolean symmetric_tolerance;
  const FsSnapshot *snapshot;  /* for placement (may be NULL: every pod fits) */
  const FsWorkload *workload;  /* the HPA's target in the snapshot, for placement */
} FsSimulateOptions;

typedef struct {
  int64_t t_s;
  double value;                /* the trace at t */
  int32_t replicas;            /* before this sync */
  int32_t ready;
  int32_t starting;
  int32_t pending;             /* created but not placed: they do not fit */
  int32_t utilization;         /* what the ready pods report (percent, or -1) */
  int32_t recommendation;      /* the replica calculator's proposal */
  int32_t stabilized;
  int32_t desired;             /* after limits and behavior */
  const char *reason;          /* the limiting condition's reason */
} FsSimulateStep;

/* Appends one FsSimulateStep per sync to TIMELINE. */
gboolean fs_simulate (const FsHpaSpec *hpa, const FsTrace *trace, const FsSimulateOptions *options,
                      GArray *timeline, GError **error);

G_END_DECLS
