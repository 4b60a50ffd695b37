/* fitscale — admission decisions (see include/fitscale/plan/admit.h). */
#include "config.h"

#include <stdarg.h>
#include <string.h>

#include "fitscale/model/names.h"
#include "fitscale/model/nodeautoscaler.h"
#include "fitscale/model/resize.h"
#include "fitscale/model/resources.h"
#include "fitscale/plan/admit.h"
#include "fitscale/plan/plan.h"

#define MODE_KEY "fitscale.io/admission"

static const char *const resource_names[FS_HVPA_N_RESOURCES] = { "cpu", "memory" };

const char *
fs_admit_mode_name (FsAdmitMode mode)
{
  static const char *const names[] = { "warn", "adjust", "deny" };
  return names[mode];
}

gboolean
fs_admit_mode_parse (const char *text, FsAdmitMode *mode)
{
  for (int m = 0; m < FS_ADMIT_N_MODES; m++)
    if (g_strcmp0 (text, fs_admit_mode_name ((FsAdmitMode) m)) == 0)
      {
        *mode = (FsAdmitMode) m;
        return TRUE;
      }
  return FALSE;
}

const char *
fs_admit_verdict_name (FsAdmitVerdict verdict)
{
  static const char *const names[] = { "ignored", "unchanged", "exempt", "not-judged", "no-autoscaler",
                                       "fits", "warned", "adjusted", "denied" };
  return names[verdict];
}

gboolean
fs_node_autoscaler_parse (const char *text, FsNodeAutoscalerChoice *choice)
{
  static const char *const names[] = { "detect", "none", "cluster-autoscaler", "karpenter" };
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_strcmp0 (text, names[i]) == 0)
      {
        *choice = (FsNodeAutoscalerChoice) i;
        return TRUE;
      }
  return FALSE;
}

void
fs_admit_decision_free (FsAdmitDecision *decision)
{
  if (decision == NULL)
    return;
  g_ptr_array_unref (decision->warnings);
  g_free (decision->patch);
  g_free (decision->message);
  g_free (decision);
}

static FsAdmitDecision *
decision_new (FsAdmitVerdict verdict, FsAdmitMode mode)
{
  FsAdmitDecision *decision = g_new0 (FsAdmitDecision, 1);
  decision->allowed = TRUE;
  decision->verdict = verdict;
  decision->mode = mode;
  decision->warnings = g_ptr_array_new_with_free_func (g_free);
  return decision;
}

static void G_GNUC_PRINTF (2, 3)
add_warning (FsAdmitDecision *decision, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  g_autofree char *text = g_strdup_vprintf (format, args);
  va_end (args);
  g_ptr_array_add (decision->warnings, g_strconcat ("fitscale: ", text, NULL));
}

/* ---- what the write is -------------------------------------------------------------------- */

/* The write being judged: the workload, the replicas and requests it asks for. */
typedef struct {
  gboolean scale;               /* a Scale (the replicas only) */
  const char *kind;             /* "Deployment", "StatefulSet" */
  const FsWorkload *stored;     /* the snapshot's, or NULL */
  const FsWorkload *proposed;   /* workloads: the object as a workload */
  int32_t replicas;
  int32_t old_replicas;         /* -1: unknown */
  FsPlanRequest plan_request;
} Write;

static const char *
kind_of_resource (const char *group, const char *resource)
{
  if (g_strcmp0 (group, "apps") != 0)
    return NULL;
  return g_strcmp0 (resource, "deployments") == 0 ? "Deployment"
         : g_strcmp0 (resource, "statefulsets") == 0 ? "StatefulSet"
                                                      : NULL;
}

/* The proposal's requests: each container of the written template, cpu and memory as given
 * (limits copied into absent requests, as the decoders do; absent is 0, as the planner's
 * inputs hold it). */
static void
propose_requests (Write *write)
{
  const FsContainerSet *set = write->proposed->template->containers;
  FsPlanRequest *plan = &write->plan_request;
  for (guint i = 0; i < set->n_containers && i < FS_PLAN_MAX_TARGETS; i++)
    {
      const FsContainer *container = &set->containers[i];
      FsPlanVpaTarget *target = &plan->proposal_requests[plan->n_proposal_requests++];
      target->container = g_intern_string (container->name);
      target->has[FS_HVPA_CPU] = target->has[FS_HVPA_MEMORY] = TRUE;
      target->amount[FS_HVPA_CPU] = (container->requests.present & FS_RES_CPU) ? container->requests.cpu_milli : 0;
      target->amount[FS_HVPA_MEMORY] = (container->requests.present & FS_RES_MEMORY) ? container->requests.memory_bytes : 0;
    }
}

/* Whether the write leaves the stored workload's replicas and requests as they are. */
static gboolean
write_unchanged (const Write *write)
{
  if (write->stored == NULL)
    return FALSE;
  if (write->scale)
    return write->old_replicas >= 0 ? write->replicas == write->old_replicas : write->replicas == write->stored->replicas;
  if (write->replicas != write->stored->replicas)
    return FALSE;
  const FsContainerSet *set = write->stored->template->containers;
  const FsPlanRequest *plan = &write->plan_request;
  if (set->n_containers != plan->n_proposal_requests)
    return FALSE;
  for (guint i = 0; i < set->n_containers; i++)
    {
      const FsContainer *container = &set->containers[i];
      const FsPlanVpaTarget *target = &plan->proposal_requests[i];
      int64_t cpu = (container->requests.present & FS_RES_CPU) ? container->requests.cpu_milli : 0;
      int64_t memory = (container->requests.present & FS_RES_MEMORY) ? container->requests.memory_bytes : 0;
      if (g_strcmp0 (container->name, target->container) != 0 || cpu != target->amount[FS_HVPA_CPU]
          || memory != target->amount[FS_HVPA_MEMORY])
        return FALSE;
    }
  return TRUE;
}

/* ---- the mode ----------------------------------------------------------------------------- */

static const FsNamespace *
find_namespace (const FsSnapshot *snapshot, const char *name)
{
  for (guint i = 0; i < snapshot->n_namespaces; i++)
    if (g_strcmp0 (snapshot->namespaces[i].name, name) == 0)
      return &snapshot->namespaces[i];
  return NULL;
}

/* The workload's annotation, else its namespace's label, else --admission-mode; a value that
 * is no mode is warned about and passed over. */
static FsAdmitMode
resolve_mode (const FsSnapshot *snapshot, const char *namespace, const FsWorkload *workload,
              const FsAdmitOptions *options, FsAdmitDecision *decision)
{
  const FsNamespace *ns = find_namespace (snapshot, namespace);
  const char *values[] = { workload != NULL ? workload->admission : NULL,
                           ns != NULL ? fs_labels_get (ns->labels, MODE_KEY) : NULL };
  const char *where[] = { "annotation", "namespace label" };
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      FsAdmitMode mode;
      if (values[i] == NULL)
        continue;
      if (fs_admit_mode_parse (values[i], &mode))
        return mode;
      g_autofree char *value = g_strescape (values[i], NULL);
      add_warning (decision, "the %s " MODE_KEY " is \"%s\", not warn, adjust or deny: passed over", where[i], value);
    }
  return options->mode;
}

/* ---- words -------------------------------------------------------------------------------- */

/* "6Gi" (one resource of one container), "cpu=500m,memory=6Gi", "app:memory=6Gi,side:cpu=1": the
 * requests of CANDIDATE that differ from OTHER's (all of them when none does). */
static void
append_requests (GString *text, const FsPlanAnswer *answer, const FsPlanCandidate *candidate,
                 const FsPlanCandidate *other)
{
  const FsHvpaInput *in = &answer->hvpa.input;
  gboolean any_differs = FALSE;
  for (guint i = 0; i < in->n_containers; i++)
    for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
      any_differs |= candidate->request[i][r] != other->request[i][r];
  guint shown = 0;
  gsize start = text->len;
  for (guint i = 0; i < in->n_containers; i++)
    for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
      {
        if (candidate->request[i][r] == 0 || (any_differs && candidate->request[i][r] == other->request[i][r]))
          continue;
        char amount[32];
        g_string_append_printf (text, "%s%s%s%s=%s", shown > 0 ? "," : "", in->n_containers > 1 ? in->containers[i].name : "",
                                in->n_containers > 1 ? ":" : "", resource_names[r],
                                fs_format_amount (resource_names[r], candidate->request[i][r], amount));
        shown++;
      }
  if (shown == 1 && in->n_containers == 1)
    {
      /* one amount: just "6Gi" */
      const char *equals = strchr (text->str + start, '=');
      g_string_erase (text, (gssize) start, equals - (text->str + start) + 1);
    }
  if (shown == 0)
    g_string_append (text, "no requests");
}

/* "4 of 6 replicas of 6Gi would stay Pending: 0/2 nodes are available: 2 Insufficient memory;
 * the plan is 6 x 3917Mi" */
static char *
pending_sentence (const FsPlanAnswer *answer)
{
  const FsPlanCandidate *proposal = &answer->proposal, *plan = &answer->plan;
  GString *text = g_string_new (NULL);
  g_string_append_printf (text, "%" G_GINT64_FORMAT " of %d replicas of ", proposal->pending, proposal->replicas);
  append_requests (text, answer, proposal, plan);
  g_autofree char *message = g_strdup (answer->proposal_message != NULL ? answer->proposal_message : "");
  gsize len = strlen (message);
  if (len > 0 && message[len - 1] == '.')
    message[len - 1] = '\0';
  g_string_append_printf (text, " would stay Pending: %s", message);
  if (!plan->schedulable)
    {
      g_string_append (text, "; no replica count and no request the planner tried schedules");
      return g_string_free (text, FALSE);
    }
  g_string_append_printf (text, "; the plan is %d x ", plan->replicas);
  append_requests (text, answer, plan, proposal);
  if (answer->outcome == FS_PLAN_INFEASIBLE)
    g_string_append_printf (text, " (it serves %.0f %% of the demand: no pair that schedules serves all)",
                            100 * plan->served);
  return g_string_free (text, FALSE);
}

/* ---- the patch ---------------------------------------------------------------------------- */

/* The index of the container called NAME in the object's template, or -1. */
static int
container_index (const FsAdmitRequest *request, const char *name)
{
  for (guint j = 0; j < request->n_containers; j++)
    if (g_strcmp0 (request->containers[j].name, name) == 0)
      return (int) j;
  return -1;
}

static void
append_op (GString *patch, const char *path, const char *value_json)
{
  g_string_append_printf (patch, "%s{\"op\":\"add\",\"path\":\"%s\",\"value\":%s}", patch->len > 1 ? "," : "", path,
                          value_json);
}

/* {"cpu":"500m","memory":"3917Mi"}: the amounts of AMOUNTS marked in WHICH. */
static char *
amounts_json (const int64_t amounts[FS_HVPA_N_RESOURCES], const gboolean which[FS_HVPA_N_RESOURCES])
{
  GString *json = g_string_new ("{");
  for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
    if (which[r])
      {
        char amount[32];
        g_string_append_printf (json, "%s\"%s\":\"%s\"", json->len > 1 ? "," : "", resource_names[r],
                                fs_format_amount (resource_names[r], amounts[r], amount));
      }
  g_string_append_c (json, '}');
  return g_string_free (json, FALSE);
}

/* One container's requests (and the limits it has, scaled as the plan scales them): "add"
 * replaces a member that is there (RFC 6902 4.1), so each amount is one op; a map that is
 * absent is added whole. */
static void
patch_container (GString *patch, const FsAdmitContainer *container, int index, const FsPlanCandidate *plan,
                 const FsPlanCandidate *proposal, guint i)
{
  gboolean request_changes[FS_HVPA_N_RESOURCES] = { FALSE }, limit_changes[FS_HVPA_N_RESOURCES] = { FALSE };
  gboolean any = FALSE;
  for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
    {
      request_changes[r] = plan->request[i][r] != proposal->request[i][r] && plan->request[i][r] > 0;
      limit_changes[r] = request_changes[r] && plan->limit[i][r] > 0 && container->has_limit[r];
      any |= request_changes[r];
    }
  if (!any)
    return;
  g_autofree char *base = g_strdup_printf ("/spec/template/spec/containers/%d/resources", index);
  if (!container->has_resources)
    {
      g_autofree char *requests = amounts_json (plan->request[i], request_changes);
      g_autofree char *value = g_strdup_printf ("{\"requests\":%s}", requests);
      append_op (patch, base, value);
      return;
    }
  const char *maps[] = { "requests", "limits" };
  const gboolean *changes[] = { request_changes, limit_changes };
  const int64_t *amounts[] = { plan->request[i], plan->limit[i] };
  const gboolean has_map[] = { container->has_requests, container->has_limits };
  for (int m = 0; m < 2; m++)
    {
      g_autofree char *path = g_strdup_printf ("%s/%s", base, maps[m]);
      if (!has_map[m])
        {
          gboolean any_here = changes[m][FS_HVPA_CPU] || changes[m][FS_HVPA_MEMORY];
          if (any_here)
            {
              g_autofree char *value = amounts_json (amounts[m], changes[m]);
              append_op (patch, path, value);
            }
          continue;
        }
      for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
        if (changes[m][r])
          {
            char amount[32];
            g_autofree char *item = g_strdup_printf ("%s/%s", path, resource_names[r]);
            g_autofree char *value = g_strdup_printf ("\"%s\"", fs_format_amount (resource_names[r], amounts[m][r], amount));
            append_op (patch, item, value);
          }
    }
}

/* The JSON Patch that turns the written object into the plan; NULL when it already is. */
static char *
workload_patch (const FsAdmitRequest *request, const FsPlanAnswer *answer)
{
  const FsPlanCandidate *plan = &answer->plan, *proposal = &answer->proposal;
  GString *patch = g_string_new ("[");
  if (plan->replicas != proposal->replicas)
    {
      char value[16];
      g_snprintf (value, sizeof value, "%d", plan->replicas);
      append_op (patch, "/spec/replicas", value);
    }
  for (guint i = 0; i < answer->hvpa.input.n_containers; i++)
    {
      int index = container_index (request, answer->hvpa.input.containers[i].name);
      if (index >= 0)
        patch_container (patch, &request->containers[index], index, plan, proposal, i);
    }
  if (patch->len == 1)
    {
      g_string_free (patch, TRUE);
      return NULL;
    }
  g_string_append_c (patch, ']');
  return g_string_free (patch, FALSE);
}

/* ---- judging ------------------------------------------------------------------------------ */

/* The write of REQUEST (a judged one) as WRITE. */
static void
read_write (const FsSnapshot *snapshot, const FsAdmitRequest *request, Write *write)
{
  FsPlanRequest *plan = &write->plan_request;
  plan->namespace = g_intern_string (request->namespace != NULL ? request->namespace : "default");
  plan->kind = write->kind;
  plan->name = g_intern_string (request->name != NULL ? request->name : "");
  write->stored = fs_snapshot_find_workload (snapshot, plan->namespace, write->kind, plan->name);
  if (write->scale)
    {
      write->replicas = request->replicas;
      write->old_replicas = request->old_replicas;
      return;
    }
  write->proposed = request->workload;
  write->replicas = request->workload->replicas;
  write->old_replicas = -1;
  propose_requests (write);
}

static gboolean
has_autoscaler (const FsSnapshot *snapshot, const FsWorkload *workload)
{
  return fs_snapshot_find_autoscaler (snapshot, FS_KIND_HPA, workload) != NULL
         || fs_snapshot_find_autoscaler (snapshot, FS_KIND_VPA, workload) != NULL
         || fs_snapshot_find_autoscaler (snapshot, FS_KIND_HVPA, workload) != NULL;
}

static FsNodeAutoscalerFound
node_autoscaler (const FsSnapshot *snapshot, const FsAdmitOptions *options)
{
  switch (options->node_autoscaler)
    {
    case FS_NODE_AUTOSCALER_DETECT:
      return fs_node_autoscaler_detect (snapshot);
    case FS_NODE_AUTOSCALER_CLUSTER_AUTOSCALER:
      return FS_NODE_AUTOSCALER_FOUND_CLUSTER_AUTOSCALER;
    case FS_NODE_AUTOSCALER_KARPENTER:
      return FS_NODE_AUTOSCALER_FOUND_KARPENTER;
    case FS_NODE_AUTOSCALER_NONE:
    default:
      break;
    }
  return FS_NODE_AUTOSCALER_FOUND_NONE;
}

/* What the mode does with a write that leaves replicas Pending. */
static void
apply_mode (const FsAdmitRequest *request, const Write *write, const FsPlanAnswer *answer, FsAdmitDecision *decision)
{
  g_autofree char *sentence = pending_sentence (answer);
  const char *name = write->plan_request.name;
  if (decision->mode == FS_ADMIT_DENY)
    {
      decision->allowed = FALSE;
      decision->verdict = FS_ADMIT_DENIED;
      decision->message = g_strdup_printf ("fitscale denied %s %s/%s (" MODE_KEY ": deny): %s", write->kind,
                                           write->plan_request.namespace, name, sentence);
      return;
    }
  decision->verdict = FS_ADMIT_WARNED;
  if (decision->mode == FS_ADMIT_ADJUST && write->scale)
    {
      int64_t schedules = CLAMP (answer->proposal.capacity, 0, write->replicas);
      add_warning (decision, "%s; adjusted: %s replicas %d -> %" G_GINT64_FORMAT ", what schedules at the current "
                   "requests", sentence, write->kind, write->replicas, schedules);
      decision->patch = g_strdup_printf ("[{\"op\":\"add\",\"path\":\"/spec/replicas\",\"value\":%" G_GINT64_FORMAT "}]",
                                         schedules);
      decision->verdict = FS_ADMIT_ADJUSTED;
      return;
    }
  if (decision->mode == FS_ADMIT_ADJUST && (decision->patch = workload_patch (request, answer)) != NULL)
    {
      add_warning (decision, "%s; adjusted to the plan", sentence);
      decision->verdict = FS_ADMIT_ADJUSTED;
      return;
    }
  add_warning (decision, "%s%s", sentence, decision->mode != FS_ADMIT_ADJUST ? ""
                                           : answer->plan.schedulable ? " (the write is the plan already)"
                                                                      : " (not adjusted)");
}

/* Plans the write and decides. */
static void
judge (const FsSnapshot *snapshot, FsPlanMemo *memo, const FsAdmitRequest *request, Write *write,
       const FsAdmitOptions *options, FsAdmitDecision *decision)
{
  FsPlanRequest *plan = &write->plan_request;
  const FsWorkload *workload = write->stored != NULL ? write->stored : write->proposed;
  if (options->autoscaled_only && !has_autoscaler (snapshot, workload))
    {
      decision->verdict = FS_ADMIT_NO_AUTOSCALER;
      return;
    }
  if (write->replicas == 0)
    {
      decision->verdict = FS_ADMIT_FITS;
      return;
    }
  plan->workload = write->stored != NULL ? NULL : write->proposed;
  plan->has_hpa_desired = TRUE; /* the write's replicas are the wish */
  plan->hpa_desired = write->replicas;
  plan->has_proposal = TRUE;
  plan->proposal_first = TRUE; /* a write that schedules needs no plan */
  plan->proposal_replicas = write->replicas;
  plan->now_ms = g_get_real_time () / 1000;
  g_autoptr (GError) error = NULL;
  /* the memo is keyed by the snapshot's workloads: a workload only written (a CREATE) is not
   * one of them */
  g_autoptr (FsPlanAnswer) answer = fs_plan_shared (snapshot, plan->workload == NULL ? memo : NULL, plan, &error);
  if (answer == NULL)
    {
      decision->verdict = FS_ADMIT_NOT_JUDGED;
      add_warning (decision, "not judged: %s", error->message);
      return;
    }
  if (answer->proposal.schedulable)
    {
      decision->verdict = FS_ADMIT_FITS;
      return;
    }
  FsNodeAutoscalerFound found = node_autoscaler (snapshot, options);
  if (found != FS_NODE_AUTOSCALER_FOUND_NONE && decision->mode != FS_ADMIT_WARN)
    {
      add_warning (decision, "%s is the node autoscaler: Pending replicas are its signal to add nodes, so the mode "
                   "%s only warns", fs_node_autoscaler_name (found), fs_admit_mode_name (decision->mode));
      decision->mode = FS_ADMIT_WARN;
    }
  apply_mode (request, write, answer, decision);
}

/* ---- in-place resizes (pods/resize) --------------------------------------------------------- */

#define MEBIBYTE ((int64_t) 1 << 20)

/* The pod being resized, where it runs, and what the rest of its node holds. */
typedef struct {
  const FsPod *pod;             /* the written object */
  const FsPod *stored;          /* the snapshot's, bound to NODE */
  const FsNode *node;
  FsResources others;           /* the node's other pods' allocated requests, summed */
  int64_t n_others;
  const FsContainerSet *written; /* the object's containers */
  guint n;                      /* written->n_containers, at most FS_ADMIT_MAX_CONTAINERS */
  int64_t from[FS_ADMIT_MAX_CONTAINERS][FS_HVPA_N_RESOURCES]; /* what each container holds now */
} Resize;

static int64_t
request_of (const FsContainer *container, int r)
{
  guint8 bit = r == FS_HVPA_CPU ? FS_RES_CPU : FS_RES_MEMORY;
  if (!(container->requests.present & bit))
    return 0;
  return r == FS_HVPA_CPU ? container->requests.cpu_milli : container->requests.memory_bytes;
}

static void
set_request (FsContainer *container, int r, int64_t amount)
{
  if (r == FS_HVPA_CPU)
    container->requests.cpu_milli = amount;
  else
    container->requests.memory_bytes = amount;
  container->requests.present |= r == FS_HVPA_CPU ? FS_RES_CPU : FS_RES_MEMORY;
}

/* What each written container holds on the node now: the kubelet's allocated requests while the
 * stored pod reports a resize, else its spec's (allocation_manager.go GetContainerResourceAllocation
 * falls back to the spec); a container the stored pod lacks holds nothing. */
static void
resize_from (Resize *resize)
{
  const FsContainerSet *stored = resize->stored->spec->containers;
  const FsPodResize *status = resize->stored->resize;
  for (guint i = 0; i < resize->n; i++)
    {
      const char *name = resize->written->containers[i].name;
      for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
        resize->from[i][r] = 0;
      for (guint j = 0; j < stored->n_containers; j++)
        if (g_strcmp0 (stored->containers[j].name, name) == 0)
          for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
            resize->from[i][r] = request_of (&stored->containers[j], r);
      for (guint j = 0; status != NULL && j < status->n_containers; j++)
        if (g_strcmp0 (status->containers[j].name, name) == 0 && status->containers[j].has_allocated)
          {
            const FsResources *allocated = &status->containers[j].allocated;
            resize->from[i][FS_HVPA_CPU] = (allocated->present & FS_RES_CPU) ? allocated->cpu_milli : 0;
            resize->from[i][FS_HVPA_MEMORY] = (allocated->present & FS_RES_MEMORY) ? allocated->memory_bytes : 0;
          }
    }
}

/* The kubelet's answer to the pod resized to CONTAINERS (the written ones, requests changed). */
static void
resize_verdict (const Resize *resize, const FsContainer *containers, FsResizeVerdict *verdict)
{
  const FsContainerSet *written = resize->written;
  FsResources desired;
  if (!fs_pod_effective_request (containers, resize->n, written->init_containers, written->n_init,
                                 written->pod_level, written->overhead, &desired, NULL))
    desired = resize->pod->spec->request; /* too many names: as decoded */
  FsContainerSet after = *written;
  after.containers = containers;
  fs_resize_admit (resize->node, &desired, &resize->others, resize->n_others, resize->stored->spec->containers,
                   &after, NULL, verdict);
}

/* The amount of R for container I at the fraction W of the way from what it holds to TOP,
 * memory to the MiB below. */
static int64_t
toward (const Resize *resize, guint i, int r, int64_t top, double w)
{
  int64_t from = resize->from[i][r];
  int64_t amount = from + (int64_t) (w * (double) (top - from));
  if (r == FS_HVPA_MEMORY && amount > from)
    amount = MAX (from, amount - amount % MEBIBYTE);
  return amount;
}

/* OUT: the written containers with each resource the kubelet finds short taken back toward
 * what the container holds now (the same fraction of the increase for every container, found by
 * bisection; cpu to the millicore, memory to the MiB below) until the kubelet allocates the
 * resize.  A round takes back the resource the kubelet names, from what the rounds before left;
 * amounts only go down, so a few rounds settle.  FALSE when none of the increase fits, or the
 * kubelet's reason is no resource. */
static gboolean
largest_resize (const Resize *resize, FsContainer *out)
{
  memcpy (out, resize->written->containers, resize->n * sizeof *out);
  for (int round = 0;; round++)
    {
      FsResizeVerdict verdict;
      resize_verdict (resize, out, &verdict);
      if (verdict.state == FS_RESIZE_IN_PROGRESS)
        break;
      int r = g_strcmp0 (verdict.resource, "cpu") == 0 ? FS_HVPA_CPU
              : g_strcmp0 (verdict.resource, "memory") == 0 ? FS_HVPA_MEMORY : -1;
      if (r < 0 || round == 8)
        return FALSE;
      int64_t top[FS_ADMIT_MAX_CONTAINERS];
      gboolean any = FALSE;
      for (guint i = 0; i < resize->n; i++)
        {
          top[i] = request_of (&out[i], r);
          any |= top[i] > resize->from[i][r];
        }
      if (!any)
        return FALSE; /* short of R without asking more of it */
      /* the largest fraction W of each container's increase of R that R no longer stops */
      double lo = 0, hi = 1;
      for (int step = 0; step <= 40; step++)
        {
          double w = step == 0 ? 0 : (lo + hi) / 2;
          for (guint i = 0; i < resize->n; i++)
            if (top[i] > resize->from[i][r])
              set_request (&out[i], r, toward (resize, i, r, top[i], w));
          resize_verdict (resize, out, &verdict);
          gboolean passes = verdict.state == FS_RESIZE_IN_PROGRESS || g_strcmp0 (verdict.resource, resource_names[r]) != 0;
          if (step == 0 && !passes)
            return FALSE;
          if (step > 0)
            *(passes ? &lo : &hi) = w;
        }
      for (guint i = 0; i < resize->n; i++)
        if (top[i] > resize->from[i][r])
          set_request (&out[i], r, toward (resize, i, r, top[i], lo));
    }
  for (guint i = 0; i < resize->n; i++)
    for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
      if (request_of (&out[i], r) > resize->from[i][r])
        return TRUE;
  return FALSE;
}

/* "memory=12Gi", "app:memory=12Gi,side:cpu=1": the requests of CONTAINERS that differ from
 * BASE's (BASE NULL: from what each container holds now). */
static void
append_resize (GString *text, const Resize *resize, const FsContainer *containers, const FsContainer *base)
{
  guint shown = 0;
  for (guint i = 0; i < resize->n; i++)
    for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
      {
        int64_t amount = request_of (&containers[i], r);
        if (amount == (base != NULL ? request_of (&base[i], r) : resize->from[i][r]))
          continue;
        char buf[32];
        g_string_append_printf (text, "%s%s%s%s=%s", shown++ > 0 ? "," : "", resize->n > 1 ? containers[i].name : "",
                                resize->n > 1 ? ":" : "", resource_names[r], fs_format_amount (resource_names[r], amount, buf));
      }
  if (shown == 0)
    g_string_append (text, "the same requests");
}

/* The JSON Patch that turns the written pod's requests into LARGEST's (and a limit equal to its
 * written request into the same amount, so that the QoS class, which a resize may not change,
 * stays). */
static char *
resize_patch (const FsAdmitRequest *request, const Resize *resize, const FsContainer *largest)
{
  GString *patch = g_string_new ("[");
  for (guint i = 0; i < resize->n; i++)
    {
      const FsContainer *written = &resize->written->containers[i];
      int index = container_index (request, written->name);
      if (index < 0)
        continue;
      const FsAdmitContainer *object = &request->containers[index];
      gboolean changes[FS_HVPA_N_RESOURCES] = { FALSE }, limit_changes[FS_HVPA_N_RESOURCES] = { FALSE };
      int64_t amounts[FS_HVPA_N_RESOURCES] = { 0 };
      gboolean any = FALSE;
      for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
        {
          amounts[r] = request_of (&largest[i], r);
          changes[r] = amounts[r] != request_of (written, r);
          int64_t limit = r == FS_HVPA_CPU ? written->limits.cpu_milli : written->limits.memory_bytes;
          limit_changes[r] = changes[r] && object->has_limit[r] && limit == request_of (written, r);
          any |= changes[r];
        }
      if (!any)
        continue;
      g_autofree char *base = g_strdup_printf ("/spec/containers/%d/resources", index);
      if (!object->has_resources)
        {
          g_autofree char *requests = amounts_json (amounts, changes);
          g_autofree char *value = g_strdup_printf ("{\"requests\":%s}", requests);
          append_op (patch, base, value);
          continue;
        }
      const char *maps[] = { "requests", "limits" };
      const gboolean *which[] = { changes, limit_changes };
      const gboolean has_map[] = { object->has_requests, object->has_limits };
      for (int m = 0; m < 2; m++)
        {
          g_autofree char *path = g_strdup_printf ("%s/%s", base, maps[m]);
          if (!has_map[m])
            {
              if (which[m][FS_HVPA_CPU] || which[m][FS_HVPA_MEMORY])
                {
                  g_autofree char *value = amounts_json (amounts, which[m]);
                  append_op (patch, path, value);
                }
              continue;
            }
          for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
            if (which[m][r])
              {
                char buf[32];
                g_autofree char *item = g_strdup_printf ("%s/%s", path, resource_names[r]);
                g_autofree char *value = g_strdup_printf ("\"%s\"", fs_format_amount (resource_names[r], amounts[r], buf));
                append_op (patch, item, value);
              }
        }
    }
  if (patch->len == 1)
    {
      g_string_free (patch, TRUE);
      return NULL;
    }
  g_string_append_c (patch, ']');
  return g_string_free (patch, FALSE);
}


/* A pods/resize: what the pod's kubelet would answer, and what the mode does about it. */
static void
judge_resize (const FsSnapshot *snapshot, const FsAdmitRequest *request, const FsAdmitOptions *options,
              FsAdmitDecision *decision)
{
  const char *namespace = g_intern_string (request->namespace != NULL ? request->namespace : "default");
  const char *name = request->name != NULL ? request->name : "";
  const FsPod *stored = fs_snapshot_find_pod (snapshot, namespace, name);
  if (stored == NULL || stored->node_index < 0)
    {
      add_warning (decision, "not judged: Pod \"%s\" %s in namespace \"%s\" of the snapshot", name,
                   stored == NULL ? "not found" : "is on no node", namespace);
      return;
    }
  Resize resize = { .pod = request->pod, .stored = stored, .node = &snapshot->nodes[stored->node_index],
                    .written = request->pod->spec->containers };
  resize.n = MIN (resize.written->n_containers, FS_ADMIT_MAX_CONTAINERS);
  resize_from (&resize);
  gboolean unchanged = TRUE;
  for (guint i = 0; i < resize.n; i++)
    for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
      unchanged &= request_of (&resize.written->containers[i], r) == resize.from[i][r];
  if (unchanged)
    {
      decision->verdict = FS_ADMIT_UNCHANGED;
      return;
    }
  const FsWorkload *workload = fs_snapshot_pod_workload (snapshot, stored);
  decision->mode = resolve_mode (snapshot, namespace, workload, options, decision);
  if (request->dry_run && decision->mode != FS_ADMIT_WARN)
    {
      add_warning (decision, "a dry run: the mode %s only warns", fs_admit_mode_name (decision->mode));
      decision->mode = FS_ADMIT_WARN;
    }
  if (options->autoscaled_only && (workload == NULL || !has_autoscaler (snapshot, workload)))
    {
      decision->verdict = FS_ADMIT_NO_AUTOSCALER;
      return;
    }
  for (guint p = 0; p < snapshot->n_pods; p++)
    {
      const FsPod *other = &snapshot->pods[p];
      if (other != stored && other->node_index == stored->node_index && fs_pod_counts_on_node (other))
        {
          fs_resources_add (&resize.others, fs_pod_allocated_request (other), NULL);
          resize.n_others++;
        }
    }
  FsResizeVerdict verdict;
  resize_verdict (&resize, resize.written->containers, &verdict);
  if (verdict.state == FS_RESIZE_IN_PROGRESS)
    {
      decision->verdict = FS_ADMIT_FITS;
      return;
    }
  FsContainer largest[FS_ADMIT_MAX_CONTAINERS];
  gboolean has_largest = largest_resize (&resize, largest);
  GString *text = g_string_new (NULL);
  g_string_append_printf (text, "the resize of Pod %s/%s to ", namespace, name);
  append_resize (text, &resize, resize.written->containers, NULL);
  g_string_append_printf (text, " would be %s on %s: %s", verdict.state == FS_RESIZE_INFEASIBLE ? "Infeasible" : "Deferred",
                          resize.node->name, verdict.message);
  if (has_largest)
    {
      g_string_append (text, "; the largest that fits now is ");
      append_resize (text, &resize, largest, resize.written->containers);
    }
  else
    g_string_append (text, "; none of the increase fits now");
  g_autofree char *sentence = g_string_free (text, FALSE);
  if (decision->mode == FS_ADMIT_DENY)
    {
      decision->allowed = FALSE;
      decision->verdict = FS_ADMIT_DENIED;
      decision->message = g_strdup_printf ("fitscale denied (" MODE_KEY ": deny) %s", sentence);
      return;
    }
  decision->verdict = FS_ADMIT_WARNED;
  if (decision->mode == FS_ADMIT_ADJUST && has_largest
      && (decision->patch = resize_patch (request, &resize, largest)) != NULL)
    {
      add_warning (decision, "%s; adjusted to it", sentence);
      decision->verdict = FS_ADMIT_ADJUSTED;
      return;
    }
  add_warning (decision, "%s%s", sentence, decision->mode == FS_ADMIT_ADJUST ? " (not adjusted)" : "");
}

gboolean
fs_admit_judges (const FsAdmitRequest *request, const char **kind, gboolean *scale)
{
  *scale = g_strcmp0 (request->sub_resource, "scale") == 0;
  if ((request->group == NULL || *request->group == '\0') && g_strcmp0 (request->resource, "pods") == 0)
    {
      /* in-place resizes: the pods/resize subresource (KEP-1287) */
      *kind = "Pod";
      return g_strcmp0 (request->sub_resource, "resize") == 0 && g_strcmp0 (request->operation, "UPDATE") == 0;
    }
  *kind = kind_of_resource (request->group, request->resource);
  return *kind != NULL && (request->sub_resource == NULL || *scale)
         && (g_strcmp0 (request->operation, "UPDATE") == 0 || (!*scale && g_strcmp0 (request->operation, "CREATE") == 0));
}

FsAdmitDecision *
fs_admit (const FsAdmitSnapshot *state, const FsAdmitRequest *request, const FsAdmitOptions *options)
{
  Write write = { 0 };
  if (!fs_admit_judges (request, &write.kind, &write.scale))
    return decision_new (FS_ADMIT_IGNORED, options->mode);
  if (options->exempt_users != NULL && request->username != NULL
      && g_strv_contains ((const char *const *) options->exempt_users, request->username))
    return decision_new (FS_ADMIT_EXEMPT, options->mode);
  FsAdmitDecision *decision = decision_new (FS_ADMIT_NOT_JUDGED, options->mode);
  if (state->snapshot == NULL)
    add_warning (decision, "not judged: the cache has not synced yet");
  else if (state->not_ready != NULL)
    add_warning (decision, "not judged: the snapshot is not current: %s", state->not_ready);
  else if (state->age > options->max_age)
    add_warning (decision, "not judged: the snapshot is %.1f s old (over --admission-max-age %g s)", state->age,
                 options->max_age);
  else
    {
      const FsSnapshot *snapshot = state->snapshot;
      if (request->pod != NULL)
        {
          judge_resize (snapshot, request, options, decision);
          return decision;
        }
      read_write (snapshot, request, &write);
      if (write_unchanged (&write))
        decision->verdict = FS_ADMIT_UNCHANGED;
      else if (write.scale && write.stored == NULL)
        add_warning (decision, "not judged: %s \"%s\" not found in namespace \"%s\" of the snapshot", write.kind,
                     write.plan_request.name, write.plan_request.namespace);
      else
        {
          decision->mode = resolve_mode (snapshot, write.plan_request.namespace,
                                         write.scale ? write.stored : write.proposed, options, decision);
          if (request->dry_run && decision->mode != FS_ADMIT_WARN)
            {
              add_warning (decision, "a dry run: the mode %s only warns", fs_admit_mode_name (decision->mode));
              decision->mode = FS_ADMIT_WARN;
            }
          judge (snapshot, state->memo, request, &write, options, decision);
        }
    }
  return decision;
}
