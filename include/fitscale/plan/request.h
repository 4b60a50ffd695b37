/* fitscale — the plan request and its one check, for flags (cli/cmd-plan.c) and JSON
 * bodies (server/service.c, POST /v1/plan).
 *
 * Each front end reads its syntax (flag texts, JSON types) into an FsPlanRequestInput: the
 * values as given, or the mark that one came as the wrong JSON type.  fs_plan_request_check
 * holds them against the same enums and limits and fills the FsPlanRequest the planner
 * takes (plan.h); its errors name the flag or the JSON field, each in its front end's
 * words.  The request points at the input's strings, which the caller keeps alive (the
 * planner's answer keeps a copy of the request: intern what outlives the input). */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "fitscale/model/hvpa.h"
#include "fitscale/model/objects.h"

G_BEGIN_DECLS

#define FS_PLAN_MAX_TARGETS 16
#define FS_PLAN_DEFAULT_STEPS 50
#define FS_PLAN_MIN_STEPS 2
#define FS_PLAN_MAX_STEPS 200     /* 1,000 replica counts x 200 steps: 8 MB a request at most */

/* --vpa-target CONTAINER:cpu=..,memory=.. */
typedef struct {
  const char *container;
  gboolean has[FS_HVPA_N_RESOURCES];
  int64_t amount[FS_HVPA_N_RESOURCES];
} FsPlanVpaTarget;

typedef enum {
  FS_PLAN_HPA_STATUS,       /* status.desiredReplicas */
  FS_PLAN_HPA_METRICS,      /* fitscale's own computation from the snapshot's metrics */
} FsPlanHpaSource;

typedef struct {
  const char *namespace;
  const char *kind;             /* "hvpa", "deployment" or "statefulset" (aliases accepted) */
  const char *name;
  FsHvpaSemantics semantics;
  FsPlanHpaSource hpa_source;
  gboolean has_hpa_desired;     /* --hpa-desired */
  int32_t hpa_desired;
  gboolean has_vpa_weight;      /* --vpa-weight (a fraction): one stage, no Hvpa */
  double vpa_weight;
  guint n_vpa_targets;
  FsPlanVpaTarget vpa_targets[FS_PLAN_MAX_TARGETS];
  guint steps;                  /* request steps from current to target; 0 = default */
  int update;                   /* FsUpdateMode (plan/resize.h): --update, field update */
  int64_t now_ms;
  /* Admission (plan/admit.h): the workload to plan when the snapshot has none yet (a CREATE;
   * NULL: the snapshot's), and a proposed write measured beside the plan: its replicas and,
   * per container named, the requests it gives (those not given stay as the template has them). */
  const FsWorkload *workload;
  gboolean has_proposal;
  gboolean proposal_first;      /* stop once the proposal schedules (the answer is partial) */
  int32_t proposal_replicas;
  guint n_proposal_requests;
  FsPlanVpaTarget proposal_requests[FS_PLAN_MAX_TARGETS];
} FsPlanRequest;

/* ---- the request as given ------------------------------------------------------------ */

typedef enum {
  FS_PLAN_FROM_FLAGS,       /* errors name flags and echo the value: "--steps 0: give a number from 2 to 200" */
  FS_PLAN_FROM_JSON,        /* errors name fields: "field steps: an integer from 2 to 200" */
} FsPlanRequestForm;

/* How a value came: not at all, as its type, or as another JSON type. */
typedef enum {
  FS_PLAN_ABSENT = 0,
  FS_PLAN_GIVEN,
  FS_PLAN_WRONG_TYPE,
} FsPlanGiven;

/* One amount of a VPA target, in the order given. */
typedef struct {
  FsHvpaResource resource;
  FsPlanGiven given;            /* GIVEN or WRONG_TYPE (JSON: not a string) */
  const char *quantity;
} FsPlanAmountInput;

typedef struct {
  const char *container;        /* kept by the request: intern it */
  FsPlanGiven given;            /* WRONG_TYPE: JSON, not a {cpu, memory} map */
  const char *text;             /* flags: the --vpa-target as typed, for errors */
  guint n_amounts;
  const FsPlanAmountInput *amounts;
} FsPlanTargetInput;

typedef struct {
  FsPlanRequestForm form;
  const char *namespace;        /* NULL: default */
  const char *kind, *name;
  const char *semantics;        /* NULL: design */
  const char *hpa_from;         /* NULL: status */
  const char *update;           /* NULL: by the VPA's updateMode; "in-place" or "recreate" */
  FsPlanGiven hpa_desired_given;
  int64_t hpa_desired;          /* from 1 to G_MAXINT32 */
  FsPlanGiven steps_given;
  int64_t steps;                /* from FS_PLAN_MIN_STEPS to FS_PLAN_MAX_STEPS */
  FsPlanGiven vpa_weight_given;
  const char *vpa_weight;       /* a number from 0 to 1, as written */
  FsPlanGiven vpa_targets_given; /* WRONG_TYPE: JSON, not a map */
  guint n_vpa_targets;          /* as given: more than FS_PLAN_MAX_TARGETS is an error */
  FsPlanTargetInput vpa_targets[FS_PLAN_MAX_TARGETS];
} FsPlanRequestInput;

/* Checks INPUT and fills REQUEST (all but now_ms).  FALSE with the first problem, in the
 * order of the fields above. */
gboolean fs_plan_request_check (const FsPlanRequestInput *input, FsPlanRequest *request, GError **error);

G_END_DECLS
