/* fitscale — in-place resize in plan's and why's answers (see include/fitscale/render/resize.h). */
#include "config.h"

#include <string.h>

#include "fitscale/render/resize.h"

static const char *const resource_names[FS_HVPA_N_RESOURCES] = { "cpu", "memory" };

/* ---- plan: the document ---------------------------------------------------------------- */

static void
emit_pod (FsEmitter *emitter, const FsPodResizePlan *pod)
{
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "name");
  fs_emit_string (emitter, pod->pod->name);
  fs_emit_key (emitter, "node");
  fs_emit_string (emitter, pod->node->name);
  fs_emit_key (emitter, "from");
  fs_emit_resources (emitter, &pod->from, FALSE);
  fs_emit_key (emitter, "to");
  fs_emit_resources (emitter, &pod->to, FALSE);
  if (pod->outcome == FS_RESIZE_RESIZED)
    {
      fs_emit_key (emitter, "restarts");
      fs_emit_int (emitter, pod->restarts);
      fs_emit_key (emitter, "order");
      fs_emit_int (emitter, pod->order + 1);
    }
  if (pod->outcome == FS_RESIZE_LEFT_DEFERRED || pod->outcome == FS_RESIZE_EVICTED)
    {
      fs_emit_key (emitter, "reason");
      fs_emit_string (emitter, pod->verdict.state == FS_RESIZE_INFEASIBLE ? "Infeasible" : "Deferred");
      fs_emit_key (emitter, "message");
      fs_emit_string (emitter, pod->verdict.message);
    }
  if (pod->outcome == FS_RESIZE_EVICTED)
    {
      fs_emit_key (emitter, "placedOn");
      fs_emit_string (emitter, pod->placed_on != NULL ? pod->placed_on->name : NULL);
    }
  fs_emit_map_close (emitter);
}

void
fs_render_resize_fields (FsEmitter *emitter, const FsResizePlan *plan)
{
  static const char *const keys[FS_RESIZE_N_OUTCOMES] = { "unchanged", "inPlace", "deferred", "evicted" };
  fs_emit_key (emitter, "resize");
  if (plan == NULL)
    {
      fs_emit_null (emitter);
      return;
    }
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "update");
  fs_emit_string (emitter, "in-place");
  fs_emit_key (emitter, "vpaUpdateMode");
  fs_emit_string (emitter, plan->vpa_update_mode);
  fs_emit_key (emitter, "evictDeferred");
  fs_emit_bool (emitter, plan->evict_deferred);
  fs_emit_key (emitter, "counts");
  fs_emit_map_open (emitter);
  for (int o = 0; o < FS_RESIZE_N_OUTCOMES; o++)
    {
      fs_emit_key (emitter, keys[o]);
      fs_emit_int (emitter, plan->counts[o]);
    }
  fs_emit_key (emitter, "restarts");
  fs_emit_int (emitter, plan->restarts);
  fs_emit_key (emitter, "unplaced");
  fs_emit_int (emitter, plan->unplaced);
  fs_emit_map_close (emitter);
  fs_emit_key (emitter, "pods");
  fs_emit_map_open (emitter);
  for (int o = 0; o < FS_RESIZE_N_OUTCOMES; o++)
    {
      fs_emit_key (emitter, keys[o]);
      fs_emit_list_open (emitter);
      for (guint i = 0; i < plan->pods->len; i++)
        {
          const FsPodResizePlan *pod = &g_array_index (plan->pods, FsPodResizePlan, i);
          if ((int) pod->outcome == o)
            emit_pod (emitter, pod);
        }
      fs_emit_list_close (emitter);
    }
  fs_emit_map_close (emitter);
  fs_emit_key (emitter, "largestInPlace");
  if (!plan->has_largest)
    fs_emit_null (emitter);
  else
    {
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "weight");
      fs_emit_decimal (emitter, plan->largest_weight, 4);
      fs_emit_key (emitter, "containers");
      fs_emit_list_open (emitter);
      for (guint i = 0; i < plan->largest.n; i++)
        {
          fs_emit_map_open (emitter);
          fs_emit_key (emitter, "name");
          fs_emit_string (emitter, plan->largest.names[i]);
          fs_emit_key (emitter, "requests");
          fs_emit_map_open (emitter);
          for (int r = 0; r < FS_HVPA_N_RESOURCES; r++)
            {
              char amount[32];
              fs_emit_key (emitter, resource_names[r]);
              fs_emit_string (emitter, fs_format_amount (resource_names[r], plan->largest.request[i][r], amount));
            }
          fs_emit_map_close (emitter);
          fs_emit_map_close (emitter);
        }
      fs_emit_list_close (emitter);
      fs_emit_map_close (emitter);
    }
  fs_emit_map_close (emitter);
}

/* ---- plan: the text --------------------------------------------------------------------- */

static char *
request_text (const FsResources *res)
{
  char cpu[32], memory[32];
  return g_strdup_printf ("cpu=%s,memory=%s", fs_format_for_people ("cpu", res->cpu_milli, cpu),
                          fs_format_for_people ("memory", res->memory_bytes, memory));
}

void
fs_render_resize_table (FILE *out, const FsPlanAnswer *answer)
{
  const FsResizePlan *plan = answer->resize;
  if (plan == NULL)
    return;
  g_autofree char *asked = plan->mode == FS_UPDATE_IN_PLACE
                            ? g_strdup ("--update in-place")
                            : g_strdup_printf ("the VPA's updateMode %s", plan->vpa_update_mode);
  fprintf (out, "\nIn place (%s): %u resized, %u Deferred, %u evicted, %u unchanged; %u container "
           "restart%s (resizePolicy RestartContainer).\n", asked,
           plan->counts[FS_RESIZE_RESIZED], plan->counts[FS_RESIZE_LEFT_DEFERRED], plan->counts[FS_RESIZE_EVICTED],
           plan->counts[FS_RESIZE_UNCHANGED], plan->restarts, plan->restarts == 1 ? "" : "s");
  if (plan->pods->len > 0)
    {
      static const char *const headers[] = { "POD", "NODE", "OUTCOME", "FROM", "TO", "WHY / WHERE" };
      g_autoptr (FsTable) table = fs_table_new (G_N_ELEMENTS (headers), headers);
      for (guint i = 0; i < plan->pods->len; i++)
        {
          const FsPodResizePlan *pod = &g_array_index (plan->pods, FsPodResizePlan, i);
          g_autofree char *from = request_text (&pod->from), *to = request_text (&pod->to);
          g_autofree char *why = NULL;
          if (pod->outcome == FS_RESIZE_EVICTED) /* the cells are escaped by fs_table_add_row */
            why = g_strdup_printf ("%s; recreated on %s", pod->verdict.message,
                                   pod->placed_on != NULL ? pod->placed_on->name : "no node (Pending)");
          else if (pod->outcome == FS_RESIZE_LEFT_DEFERRED)
            why = g_strdup (pod->verdict.message);
          else if (pod->outcome == FS_RESIZE_RESIZED && pod->restarts > 0)
            why = g_strdup_printf ("%u container%s restart%s", pod->restarts, pod->restarts == 1 ? "" : "s",
                                   pod->restarts == 1 ? "s" : "");
          const char *cells[] = { pod->pod->name, pod->node->name, fs_resize_outcome_name (pod->outcome), from, to,
                                  why != NULL ? why : "" };
          fs_table_add_row (table, cells);
        }
      fs_table_print (table, out);
    }
  if (plan->has_largest && plan->largest_weight < 1)
    {
      FS_SCRATCH (safe);
      fprintf (out, "The largest requests every pod takes in place (%.0f%% of the way):", plan->largest_weight * 100);
      for (guint i = 0; i < plan->largest.n; i++)
        {
          char cpu[32], memory[32];
          fprintf (out, " %s: cpu=%s,memory=%s", fs_safe (safe, plan->largest.names[i]),
                   fs_format_for_people ("cpu", plan->largest.request[i][FS_HVPA_CPU], cpu),
                   fs_format_for_people ("memory", plan->largest.request[i][FS_HVPA_MEMORY], memory));
        }
      fprintf (out, ".\n");
    }
  else if (!plan->has_largest)
    fprintf (out, "No step toward these requests resizes every pod in place.\n");
}

/* ---- plan: the resize patches ----------------------------------------------------------- */

static char *
pod_patch (const FsPodResizePlan *pod)
{
  FsEmitter *emitter = fs_emitter_new_string ();
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "spec");
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "containers");
  fs_emit_list_open (emitter);
  const FsContainerSet *now = pod->pod->spec->containers;
  for (guint i = 0; i < pod->n_containers; i++)
    {
      const FsContainer *after = &pod->containers[i], *before = &now->containers[i];
      if (fs_resources_equal (&after->requests, &before->requests) && fs_resources_equal (&after->limits, &before->limits))
        continue;
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "name");
      fs_emit_string (emitter, after->name);
      fs_emit_key (emitter, "resources");
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "requests");
      fs_emit_map_open (emitter);
      char amount[32];
      fs_emit_key (emitter, "cpu");
      fs_emit_string (emitter, fs_format_amount ("cpu", after->requests.cpu_milli, amount));
      fs_emit_key (emitter, "memory");
      fs_emit_string (emitter, fs_format_exact ("memory", after->requests.memory_bytes, amount));
      fs_emit_map_close (emitter);
      if (after->limits.present & (FS_RES_CPU | FS_RES_MEMORY))
        {
          fs_emit_key (emitter, "limits");
          fs_emit_map_open (emitter);
          if (after->limits.present & FS_RES_CPU)
            {
              fs_emit_key (emitter, "cpu");
              fs_emit_string (emitter, fs_format_amount ("cpu", after->limits.cpu_milli, amount));
            }
          if (after->limits.present & FS_RES_MEMORY)
            {
              fs_emit_key (emitter, "memory");
              fs_emit_string (emitter, fs_format_exact ("memory", after->limits.memory_bytes, amount));
            }
          fs_emit_map_close (emitter);
        }
      fs_emit_map_close (emitter);
      fs_emit_map_close (emitter);
    }
  fs_emit_list_close (emitter);
  fs_emit_map_close (emitter);
  fs_emit_map_close (emitter);
  return fs_emitter_take_string (emitter);
}

void
fs_render_resize_patch_commands (FILE *out, const FsPlanAnswer *answer)
{
  const FsResizePlan *plan = answer->resize;
  const FsWorkload *workload = answer->workload;
  FS_SCRATCH (safe);
  fprintf (out, "# in place: %u pod%s resized, %u Deferred, %u evicted; decreases first, so that room is "
           "freed before it is taken\n", plan->counts[FS_RESIZE_RESIZED], plan->counts[FS_RESIZE_RESIZED] == 1 ? "" : "s",
           plan->counts[FS_RESIZE_LEFT_DEFERRED], plan->counts[FS_RESIZE_EVICTED]);
  for (guint i = 0; i < plan->pods->len; i++)
    {
      const FsPodResizePlan *pod = &g_array_index (plan->pods, FsPodResizePlan, i);
      switch (pod->outcome)
        {
        case FS_RESIZE_RESIZED:
        case FS_RESIZE_LEFT_DEFERRED:
          {
            g_autofree char *patch = pod_patch (pod);
            if (pod->outcome == FS_RESIZE_LEFT_DEFERRED)
              fprintf (out, "# %s stays Deferred on %s: %s\n", fs_safe (safe, pod->pod->name), fs_safe (safe, pod->node->name),
                       fs_safe (safe, pod->verdict.message));
            fprintf (out, "kubectl patch pod %s -n %s --subresource resize --type strategic -p %s\n",
                     fs_shell_word (safe, pod->pod->name), fs_shell_word (safe, pod->pod->namespace),
                     fs_shell_word (safe, patch));
            break;
          }
        case FS_RESIZE_EVICTED:
          fprintf (out, "# %s on %s: %s, %s; its replacement %s\n", fs_safe (safe, pod->pod->name), fs_safe (safe, pod->node->name),
                   pod->verdict.state == FS_RESIZE_INFEASIBLE ? "Infeasible" : "Deferred", fs_safe (safe, pod->verdict.message),
                   pod->placed_on != NULL ? "schedules" : "fits on no node");
          if (pod->placed_on != NULL)
            fprintf (out, "#   (on %s): kubectl delete pod %s -n %s\n", fs_safe (safe, pod->placed_on->name),
                     fs_shell_word (safe, pod->pod->name), fs_shell_word (safe, pod->pod->namespace));
          break;
        case FS_RESIZE_UNCHANGED:
        case FS_RESIZE_N_OUTCOMES:
        default:
          break;
        }
    }
  if (answer->plan.replicas != answer->current.replicas)
    fprintf (out, "kubectl scale %s %s -n %s --replicas=%d\n",
             workload->kind == FS_WORKLOAD_STATEFULSET ? "statefulset" : "deployment",
             fs_shell_word (safe, workload->name), fs_shell_word (safe, workload->namespace), answer->plan.replicas);
  fprintf (out, "# the template is not changed: new pods take its requests unless the VPA's admission "
           "controller sets them\n");
}

/* ---- why -------------------------------------------------------------------------------- */

static const char *
state_reason (FsResizeState state)
{
  return state == FS_RESIZE_INFEASIBLE ? "Infeasible" : state == FS_RESIZE_DEFERRED ? "Deferred"
         : state == FS_RESIZE_IN_PROGRESS ? "InProgress" : state == FS_RESIZE_PROPOSED ? "Proposed" : "None";
}

void
fs_render_resize_diagnosis_fields (FsEmitter *emitter, const FsResizeDiagnosis *diagnosis)
{
  fs_emit_key (emitter, "resize");
  if (diagnosis == NULL)
    {
      fs_emit_null (emitter);
      return;
    }
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "node");
  fs_emit_string (emitter, diagnosis->node->name);
  fs_emit_key (emitter, "recorded");
  fs_emit_string (emitter, state_reason (diagnosis->recorded));
  fs_emit_key (emitter, "recordedMessage");
  fs_emit_string (emitter, diagnosis->pod->resize->message);
  fs_emit_key (emitter, "verdict");
  fs_emit_string (emitter, diagnosis->verdict.state == FS_RESIZE_IN_PROGRESS ? "Fits" : state_reason (diagnosis->verdict.state));
  fs_emit_key (emitter, "message");
  fs_emit_string (emitter, diagnosis->verdict.message[0] != '\0' ? diagnosis->verdict.message : NULL);
  fs_emit_key (emitter, "desired");
  fs_emit_resources (emitter, &diagnosis->desired, FALSE);
  fs_emit_key (emitter, "allocated");
  fs_emit_resources (emitter, &diagnosis->allocated, FALSE);
  fs_emit_key (emitter, "othersAllocated");
  fs_emit_resources (emitter, &diagnosis->others, FALSE);
  fs_emit_key (emitter, "shortfall");
  fs_emit_resources (emitter, &diagnosis->shortfall, FALSE);
  fs_emit_key (emitter, "holders");
  fs_emit_list_open (emitter);
  for (guint i = 0; i < diagnosis->holders->len && i < 10; i++)
    {
      const FsResizeHolder *holder = &g_array_index (diagnosis->holders, FsResizeHolder, i);
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "pod");
      g_autofree char *name = g_strdup_printf ("%s/%s", holder->pod->namespace, holder->pod->name);
      fs_emit_string (emitter, name);
      fs_emit_key (emitter, "allocated");
      fs_emit_resources (emitter, fs_pod_allocated_request (holder->pod), FALSE);
      fs_emit_map_close (emitter);
    }
  fs_emit_list_close (emitter);
  fs_emit_key (emitter, "fixes");
  fs_emit_list_open (emitter);
  if (diagnosis->has_fit_request)
    {
      char amount[32];
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "kind");
      fs_emit_string (emitter, "LowerRequest");
      fs_emit_key (emitter, "resource");
      fs_emit_string (emitter, diagnosis->verdict.resource);
      fs_emit_key (emitter, "request");
      fs_emit_string (emitter, fs_format_amount (diagnosis->verdict.resource, diagnosis->fit_request, amount));
      fs_emit_map_close (emitter);
    }
  if (diagnosis->move != NULL)
    {
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "kind");
      fs_emit_string (emitter, "MovePod");
      fs_emit_key (emitter, "pod");
      g_autofree char *name = g_strdup_printf ("%s/%s", diagnosis->move->namespace, diagnosis->move->name);
      fs_emit_string (emitter, name);
      fs_emit_key (emitter, "to");
      fs_emit_string (emitter, diagnosis->move_to != NULL ? diagnosis->move_to->name : NULL);
      fs_emit_map_close (emitter);
    }
  if (diagnosis->verdict.state == FS_RESIZE_INFEASIBLE)
    {
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "kind");
      fs_emit_string (emitter, "Recreate");
      fs_emit_key (emitter, "nodes");
      fs_emit_list_open (emitter);
      for (guint i = 0; i < diagnosis->nodes_that_fit->len; i++)
        fs_emit_string (emitter, ((const FsNode *) diagnosis->nodes_that_fit->pdata[i])->name);
      fs_emit_list_close (emitter);
      fs_emit_map_close (emitter);
    }
  fs_emit_list_close (emitter);
  fs_emit_map_close (emitter);
}

void
fs_render_resize_diagnosis_text (FILE *out, const FsResizeDiagnosis *diagnosis)
{
  if (diagnosis == NULL)
    return;
  const FsPod *pod = diagnosis->pod;
  g_autofree char *desired = request_text (&diagnosis->desired), *allocated = request_text (&diagnosis->allocated);
  g_autofree char *recorded = fs_terminal_safe (pod->resize->message != NULL ? pod->resize->message : "");
  FS_SCRATCH (safe);
  fprintf (out, "\nIts resize (%s -> %s) is %s%s%s%s.\n", allocated, desired, state_reason (diagnosis->recorded),
           recorded[0] != '\0' ? " (\"" : "", recorded, recorded[0] != '\0' ? "\")" : "");
  switch (diagnosis->verdict.state)
    {
    case FS_RESIZE_IN_PROGRESS:
      fprintf (out, "On node %s as the snapshot has it, the kubelet would admit it now: the other pods' "
               "allocations leave room.\n", fs_safe (safe, diagnosis->node->name));
      break;
    case FS_RESIZE_INFEASIBLE:
      fprintf (out, "It can never fit node %s: %s.\n", fs_safe (safe, diagnosis->node->name),
               fs_safe (safe, diagnosis->verdict.message));
      break;
    case FS_RESIZE_DEFERRED:
    default:
      {
        char need[32], held[32], cap[32];
        const char *resource = diagnosis->verdict.resource;
        fprintf (out, "It does not fit beside the other %" G_GINT64_FORMAT " pod%s on node %s now: %s hold%s %s "
                 "of its %s %s, and it asks %s.\n", diagnosis->n_others, diagnosis->n_others == 1 ? "" : "s",
                 fs_safe (safe, diagnosis->node->name), diagnosis->n_others == 1 ? "it" : "they",
                 diagnosis->n_others == 1 ? "s" : "",
                 fs_format_for_people (resource, diagnosis->verdict.used, held), fs_format_for_people (resource, diagnosis->verdict.capacity, cap),
                 resource, fs_format_for_people (resource, diagnosis->verdict.requested, need));
        break;
      }
    }
  if (diagnosis->holders->len > 0 && diagnosis->verdict.resource != NULL)
    {
      fprintf (out, "What holds the %s there:", diagnosis->verdict.resource);
      for (guint i = 0; i < diagnosis->holders->len && i < 5; i++)
        {
          const FsResizeHolder *holder = &g_array_index (diagnosis->holders, FsResizeHolder, i);
          char amount[32];
          fprintf (out, "%s %s/%s %s", i > 0 ? "," : "", fs_safe (safe, holder->pod->namespace),
                   fs_safe (safe, holder->pod->name),
                   fs_format_for_people (diagnosis->verdict.resource, holder->amount, amount));
        }
      fprintf (out, ".\n");
    }
  if (diagnosis->has_fit_request)
    {
      char amount[32];
      fprintf (out, "Fix: a %s request of %s fits in place now.\n", diagnosis->verdict.resource,
               fs_format_amount (diagnosis->verdict.resource, diagnosis->fit_request, amount));
    }
  else if (diagnosis->verdict.state == FS_RESIZE_DEFERRED && diagnosis->verdict.resource != NULL)
    fprintf (out, "No larger %s request fits in place now: the other pods hold all the node has beside its own.\n",
             diagnosis->verdict.resource);
  if (diagnosis->move != NULL)
    fprintf (out, "Fix: moving %s/%s off the node makes room%s%s.\n", fs_safe (safe, diagnosis->move->namespace),
             fs_safe (safe, diagnosis->move->name),
             diagnosis->move_to != NULL ? "; it fits on " : " (it fits on no other node now)",
             diagnosis->move_to != NULL ? fs_safe (safe, diagnosis->move_to->name) : "");
  if (diagnosis->verdict.state == FS_RESIZE_INFEASIBLE)
    {
      if (diagnosis->nodes_that_fit->len == 0)
        fprintf (out, "Fix: no node of the cluster has the allocatable for it; a node with at least %s would.\n", desired);
      else
        {
          fprintf (out, "Fix: recreate it (the VPA's InPlaceOrRecreate evicts it): nodes whose allocatable holds it:");
          for (guint i = 0; i < diagnosis->nodes_that_fit->len && i < 5; i++)
            fprintf (out, "%s %s", i > 0 ? "," : "",
                     fs_safe (safe, ((const FsNode *) diagnosis->nodes_that_fit->pdata[i])->name));
          fprintf (out, ".\n");
        }
    }
}
