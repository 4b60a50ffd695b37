/* fitscale — the diagnosis document (see include/fitscale/render/why.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "fitscale/render/why.h"
#include "fitscale/render/resize.h"
#include "fitscale/render/nodes-needed.h"
#include "fitscale/model/timeutil.h"
#include "fitscale/plan/completeness.h"

static const char *const fix_kinds[] = {
  [FS_FIX_LOWER_REQUEST] = "LowerRequest", [FS_FIX_ADD_NODES] = "AddNodes",
  [FS_FIX_LOWER_REPLICAS] = "LowerReplicas", [FS_FIX_TOLERATE_TAINT] = "TolerateTaint",
  [FS_FIX_RELAX_AFFINITY] = "RelaxNodeAffinity", [FS_FIX_UNCORDON] = "Uncordon",
};

static const char *const workload_kinds[] = {
  [FS_WORKLOAD_DEPLOYMENT] = "deployment", [FS_WORKLOAD_STATEFULSET] = "statefulset",
  [FS_WORKLOAD_REPLICASET] = "replicaset",
};

static const char *
effect_text (FsTaintEffect effect)
{
  switch (effect)
    {
    case FS_EFFECT_NO_SCHEDULE: return "NoSchedule";
    case FS_EFFECT_PREFER_NO_SCHEDULE: return "PreferNoSchedule";
    case FS_EFFECT_NO_EXECUTE: return "NoExecute";
    case FS_EFFECT_ALL:
    default: return "";
    }
}

/* A toleration of TAINT, as a JSON map (key, operator Equal or Exists, value, effect). */
static void
emit_toleration (FsEmitter *emitter, const FsTaint *taint)
{
  gboolean has_value = taint->value != NULL && taint->value[0] != '\0';
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "key");
  fs_emit_string (emitter, taint->key);
  fs_emit_key (emitter, "operator");
  fs_emit_string (emitter, has_value ? "Equal" : "Exists");
  if (has_value)
    {
      fs_emit_key (emitter, "value");
      fs_emit_string (emitter, taint->value);
    }
  fs_emit_key (emitter, "effect");
  fs_emit_string (emitter, effect_text (taint->effect));
  fs_emit_map_close (emitter);
}

/* The JSON patch that adds tolerations of TAINTS to the workload's template: appended to the
 * template's list, or the list itself when the template has none (a JSON patch cannot append
 * to an absent array). */
static char *
tolerations_patch (const FsWorkload *workload, GPtrArray *taints)
{
  const FsPlacement *placement = workload->template != NULL ? workload->template->placement : NULL;
  gboolean has_list = placement != NULL && placement->tolerations != NULL && placement->tolerations->n > 0;
  FsEmitter *emitter = fs_emitter_new_string ();
  fs_emit_list_open (emitter);
  for (guint i = 0; i < taints->len; i++)
    {
      if (!has_list && i > 0)
        break;
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "op");
      fs_emit_string (emitter, "add");
      fs_emit_key (emitter, "path");
      fs_emit_string (emitter, has_list ? "/spec/template/spec/tolerations/-" : "/spec/template/spec/tolerations");
      fs_emit_key (emitter, "value");
      if (has_list)
        emit_toleration (emitter, taints->pdata[i]);
      else
        {
          fs_emit_list_open (emitter);
          for (guint t = 0; t < taints->len; t++)
            emit_toleration (emitter, taints->pdata[t]);
          fs_emit_list_close (emitter);
        }
      fs_emit_map_close (emitter);
    }
  fs_emit_list_close (emitter);
  return fs_emitter_take_string (emitter);
}

/* "containers" (INIT: "initContainers"): each entry of CONTAINERS of that kind, by name, with
 * its new requests; nothing when none is of that kind. */
static void
emit_container_requests (FsEmitter *emitter, GArray *containers, gboolean init)
{
  guint of_kind = 0;
  for (guint i = 0; i < containers->len; i++)
    of_kind += g_array_index (containers, FsFixContainer, i).init == init;
  if (of_kind == 0)
    return;
  fs_emit_key (emitter, init ? "initContainers" : "containers");
  fs_emit_list_open (emitter);
  for (guint i = 0; i < containers->len; i++)
    {
      const FsFixContainer *entry = &g_array_index (containers, FsFixContainer, i);
      if (entry->init != init)
        continue;
      char amount[32];
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "name");
      fs_emit_string (emitter, entry->name);
      fs_emit_key (emitter, "resources");
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "requests");
      fs_emit_map_open (emitter);
      if (entry->cpu_milli >= 0)
        {
          fs_emit_key (emitter, "cpu");
          fs_emit_string (emitter, fs_format_exact ("cpu", entry->cpu_milli, amount));
        }
      if (entry->memory_bytes >= 0)
        {
          fs_emit_key (emitter, "memory");
          fs_emit_string (emitter, fs_format_exact ("memory", entry->memory_bytes, amount));
        }
      fs_emit_map_close (emitter);
      fs_emit_map_close (emitter);
      fs_emit_map_close (emitter);
    }
  fs_emit_list_close (emitter);
}

/* The strategic merge patch of CONTAINERS' requests (FsFixContainer): under
 * spec.template.spec for a workload (TEMPLATE), under spec for a pod. */
static char *
containers_patch (GArray *containers, gboolean template)
{
  FsEmitter *emitter = fs_emitter_new_string ();
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "spec");
  fs_emit_map_open (emitter);
  if (template)
    {
      fs_emit_key (emitter, "template");
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "spec");
      fs_emit_map_open (emitter);
    }
  for (int init = 0; init < 2; init++)
    emit_container_requests (emitter, containers, init);
  if (template)
    {
      fs_emit_map_close (emitter);
      fs_emit_map_close (emitter);
    }
  fs_emit_map_close (emitter);
  fs_emit_map_close (emitter);
  return fs_emitter_take_string (emitter);
}

/* The kubectl command that applies FIX to POD's cluster, names shell-quoted; NULL when no one
 * command does it (new nodes depend on the provider; a bare pod's request cannot be lowered
 * in place of its spec; several containers need a request each). */
static char *
fix_command (const FsFix *fix, const FsPod *pod)
{
  FS_SCRATCH (scratch);
  const FsWorkload *workload = fix->workload;
  g_autoptr (GString) command = g_string_new (NULL);
  switch (fix->kind)
    {
    case FS_FIX_LOWER_REQUEST:
      {
        if (fix->containers == NULL || (workload == NULL && !fix->bare))
          return NULL;
        if (workload != NULL && fix->containers->len == 1)
          {
            /* one container changes: kubectl set resources -c NAME */
            const FsFixContainer *entry = &g_array_index (fix->containers, FsFixContainer, 0);
            g_autoptr (GString) requests = g_string_new (NULL);
            char amount[32];
            if (entry->cpu_milli >= 0)
              g_string_append_printf (requests, "cpu=%s", fs_format_exact ("cpu", entry->cpu_milli, amount));
            if (entry->memory_bytes >= 0)
              g_string_append_printf (requests, "%smemory=%s", requests->len ? "," : "",
                                      fs_format_exact ("memory", entry->memory_bytes, amount));
            g_autofree char *target = g_strdup_printf ("%s/%s", workload_kinds[workload->kind], workload->name);
            g_string_printf (command, "kubectl set resources -n %s %s -c %s --requests=%s",
                             fs_shell_word (scratch, workload->namespace), fs_shell_word (scratch, target),
                             fs_shell_word (scratch, entry->name), fs_shell_word (scratch, requests->str));
            break;
          }
        g_autofree char *patch = containers_patch (fix->containers, workload != NULL);
        if (workload != NULL) /* several containers: one patch naming each, one rollout */
          g_string_printf (command, "kubectl patch %s -n %s %s --type=strategic -p %s", workload_kinds[workload->kind],
                           fs_shell_word (scratch, workload->namespace), fs_shell_word (scratch, workload->name),
                           fs_shell_word (scratch, patch));
        else /* a bare pod: its requests change only in a new pod (kubectl replace --force
              * deletes it and creates it again from its own manifest, patched) */
          g_string_printf (command, "kubectl get pod -n %s %s -o json | kubectl patch --local -f - --type=strategic -p %s "
                           "-o json | kubectl replace --force -f -",
                           fs_shell_word (scratch, pod->namespace), fs_shell_word (scratch, pod->name),
                           fs_shell_word (scratch, patch));
        break;
      }
    case FS_FIX_LOWER_REPLICAS:
      if (workload == NULL)
        return NULL;
      if (fix->hpa != NULL)
        {
          g_autofree char *patch = fix->lower_min
              ? g_strdup_printf ("{\"spec\":{\"minReplicas\":%" G_GINT64_FORMAT ",\"maxReplicas\":%" G_GINT64_FORMAT "}}",
                                 fix->count, fix->count)
              : g_strdup_printf ("{\"spec\":{\"maxReplicas\":%" G_GINT64_FORMAT "}}", fix->count);
          g_string_printf (command, "kubectl patch hpa -n %s %s --type=merge -p %s",
                           fs_shell_word (scratch, workload->namespace), fs_shell_word (scratch, fix->hpa),
                           fs_shell_word (scratch, patch));
        }
      else
        {
          g_autofree char *target = g_strdup_printf ("%s/%s", workload_kinds[workload->kind], workload->name);
          g_string_printf (command, "kubectl scale -n %s %s --replicas=%" G_GINT64_FORMAT,
                           fs_shell_word (scratch, workload->namespace), fs_shell_word (scratch, target), fix->count);
        }
      break;
    case FS_FIX_UNCORDON:
      if (fix->uncordon != NULL && fix->uncordon->len > 0)
        {
          g_string_append (command, "kubectl uncordon");
          for (guint i = 0; i < fix->uncordon->len; i++)
            g_string_append_printf (command, " %s", fs_shell_word (scratch, fix->uncordon->pdata[i]));
        }
      /* the taint alone: kubectl uncordon leaves a taint set by hand */
      for (guint i = 0; fix->untaint != NULL && i < fix->untaint->len; i++)
        g_string_append_printf (command, "%skubectl taint node %s node.kubernetes.io/unschedulable:NoSchedule-",
                                command->len ? " && " : "", fs_shell_word (scratch, fix->untaint->pdata[i]));
      break;
    case FS_FIX_TOLERATE_TAINT:
      {
        if (workload == NULL || fix->taints == NULL || fix->taints->len == 0)
          return NULL;
        g_autofree char *patch = tolerations_patch (workload, fix->taints);
        g_string_printf (command, "kubectl patch %s -n %s %s --type=json -p %s", workload_kinds[workload->kind],
                         fs_shell_word (scratch, workload->namespace), fs_shell_word (scratch, workload->name),
                         fs_shell_word (scratch, patch));
        break;
      }
    case FS_FIX_RELAX_AFFINITY:
      {
        if (fix->label_nodes == NULL || fix->label_nodes->len == 0)
          return NULL;
        const FsLabelSet *selector = pod->spec->placement->node_selector;
        g_string_append (command, "kubectl label node");
        for (guint i = 0; i < fix->label_nodes->len; i++)
          g_string_append_printf (command, " %s", fs_shell_word (scratch, fix->label_nodes->pdata[i]));
        for (guint i = 0; i < selector->n; i++)
          {
            g_autofree char *label = g_strdup_printf ("%s=%s", selector->items[i].key,
                                                      selector->items[i].value != NULL ? selector->items[i].value : "");
            g_string_append_printf (command, " %s", fs_shell_word (scratch, label));
          }
        g_string_append (command, " --overwrite");
        break;
      }
    case FS_FIX_ADD_NODES:
      /* only where the snapshot names everything the command needs: an eksctl node group */
      if (fix->eksctl_cluster == NULL || fix->pool == NULL)
        return NULL;
      g_string_printf (command, "eksctl scale nodegroup --cluster %s --name %s --nodes %" G_GINT64_FORMAT,
                       fs_shell_word (scratch, fix->eksctl_cluster), fs_shell_word (scratch, fix->pool), fix->pool_nodes);
      break;
    default:
      return NULL;
    }
  return command->len > 0 ? g_string_free (g_steal_pointer (&command), FALSE) : NULL;
}

static void
emit_fix (FsEmitter *emitter, const FsFix *fix, const FsPod *pod)
{
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "type");
  fs_emit_string (emitter, fix_kinds[fix->kind]);
  fs_emit_key (emitter, "text");
  fs_emit_string (emitter, fix->text);
  if (fix->kind == FS_FIX_LOWER_REQUEST)
    {
      fs_emit_key (emitter, "request");
      fs_emit_resources (emitter, &fix->request, FALSE);
    }
  if (fix->node != NULL)
    {
      fs_emit_key (emitter, "node");
      fs_emit_string (emitter, fix->node);
    }
  if (fix->shape != NULL)
    {
      fs_emit_key (emitter, fix->kind == FS_FIX_ADD_NODES ? "nodeShape" : "taints");
      fs_emit_string (emitter, fix->shape);
    }
  if (fix->kind != FS_FIX_LOWER_REQUEST)
    {
      fs_emit_key (emitter, fix->kind == FS_FIX_LOWER_REPLICAS ? "replicas" : "nodes");
      fs_emit_int (emitter, fix->count);
    }
  if (fix->kind == FS_FIX_ADD_NODES)
    {
      fs_emit_key (emitter, "provider");
      fs_emit_string (emitter, fix->provider);
    }
  if (fix->additions != NULL)
    {
      fs_emit_key (emitter, "additions");
      fs_emit_node_additions (emitter, fix->shape, fix->additions);
    }
  g_autofree char *command = fix_command (fix, pod);
  fs_emit_key (emitter, "command");
  fs_emit_string (emitter, command);
  fs_emit_map_close (emitter);
}

/* What DefaultPreemption does: the node it nominates and the pods it evicts there, or null
 * when it evicts none (the message's "preemption: ..." part then says why). */
static void
emit_preemption (FsEmitter *emitter, const FsSnapshot *snapshot, const FsPreemption *preemption)
{
  if (!preemption->found)
    {
      fs_emit_null (emitter);
      return;
    }
  const FsPreemptionCandidate *chosen = &preemption->chosen;
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "node");
  fs_emit_string (emitter, snapshot->nodes[chosen->node_index].name);
  fs_emit_key (emitter, "victims");
  fs_emit_list_open (emitter);
  for (guint i = 0; i < chosen->victims->len; i++)
    {
      const FsVictim *victim = &g_array_index (chosen->victims, FsVictim, i);
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "namespace");
      fs_emit_string (emitter, victim->pod->namespace);
      fs_emit_key (emitter, "name");
      fs_emit_string (emitter, victim->pod->name);
      fs_emit_key (emitter, "priority");
      fs_emit_int (emitter, victim->pod->priority);
      fs_emit_key (emitter, "pdbViolation");
      fs_emit_bool (emitter, victim->violates != NULL);
      if (victim->violates != NULL)
        {
          fs_emit_key (emitter, "podDisruptionBudget");
          fs_emit_string (emitter, victim->violates->name);
        }
      fs_emit_map_close (emitter);
    }
  fs_emit_list_close (emitter);
  fs_emit_key (emitter, "numPDBViolations");
  fs_emit_int (emitter, chosen->n_pdb_violations);
  fs_emit_key (emitter, "candidateNodes");
  fs_emit_int (emitter, preemption->n_candidates);
  fs_emit_map_close (emitter);
}

/* Per node: whether the pod passes the filters, the reasons it does not, and by how much. */
static void
emit_nodes (FsEmitter *emitter, const FsSnapshot *snapshot, const FsDiagnosis *diagnosis)
{
  fs_emit_list_open (emitter);
  for (guint i = 0; i < diagnosis->n_nodes; i++)
    {
      const FsNodeFit *fit = &diagnosis->nodes[i];
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "name");
      fs_emit_string (emitter, snapshot->nodes[i].name);
      fs_emit_key (emitter, "fits");
      fs_emit_bool (emitter, fit->verdict.filter == FS_FILTER_PASS);
      fs_emit_key (emitter, "reasons");
      fs_emit_reasons (emitter, &fit->verdict);
      fs_emit_key (emitter, "short");
      fs_emit_resources (emitter, &fit->verdict.short_by, FALSE);
      fs_emit_map_close (emitter);
    }
  fs_emit_list_close (emitter);
}

/* Where a bound pod is and what it waits for on that node. */
static void
emit_bound (FsEmitter *emitter, const FsDiagnosis *diagnosis)
{
  const FsPod *pod = diagnosis->pod;
  const FsKubeletWait *wait = &diagnosis->kubelet;
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "node");
  fs_emit_string (emitter, pod->node_name);
  fs_emit_key (emitter, "nodeInSnapshot");
  fs_emit_bool (emitter, diagnosis->node != NULL);
  fs_emit_key (emitter, "nodeReady"); /* null: no such node, or no Ready condition */
  if (diagnosis->node != NULL && (diagnosis->node->flags & FS_NODE_READY_KNOWN))
    fs_emit_bool (emitter, (diagnosis->node->flags & FS_NODE_READY) != 0);
  else
    fs_emit_null (emitter);
  fs_emit_key (emitter, "scheduledAt");
  char stamp[32];
  int64_t scheduled = pod->kubelet != NULL ? pod->kubelet->scheduled_time : 0;
  fs_emit_string (emitter, scheduled > 0 ? fs_time_format (scheduled, stamp) : NULL);
  fs_emit_key (emitter, "waitingFor");
  fs_emit_string (emitter, fs_kubelet_wait_name (wait->kind));
  fs_emit_key (emitter, "reason");
  fs_emit_string (emitter, wait->reason);
  fs_emit_key (emitter, "message");
  fs_emit_string (emitter, wait->message);
  fs_emit_key (emitter, "container");
  fs_emit_string (emitter, wait->container);
  fs_emit_key (emitter, "initContainer");
  fs_emit_bool (emitter, wait->init_container);
  fs_emit_map_close (emitter);
}

static void
emit_unmodelled_filters (FsEmitter *emitter, const FsDiagnosis *diagnosis)
{
  fs_emit_key (emitter, "unmodelledFilters"); /* filters the pod needs: docs/filters.md */
  fs_emit_list_open (emitter);
  for (guint i = 0; i < diagnosis->unmodelled_filters->len; i++)
    fs_emit_string (emitter, diagnosis->unmodelled_filters->pdata[i]);
  fs_emit_list_close (emitter);
}

/* A gated pod's answer (schedulinggates/scheduling_gates.go PreEnqueue): its gates, and
 * whether it would fit once they are gone; no message, fix or preemption. */
static void
emit_gated (FsEmitter *emitter, const FsSnapshot *snapshot, const FsDiagnosis *diagnosis)
{
  fs_emit_key (emitter, "gated");
  fs_emit_bool (emitter, TRUE);
  fs_emit_key (emitter, "fitsOnceUngated");
  fs_emit_bool (emitter, diagnosis->fits);
  fs_emit_key (emitter, "messageOnceUngated"); /* null when it would fit */
  fs_emit_string (emitter, diagnosis->message);
  fs_emit_key (emitter, "roomFor");
  fs_emit_int (emitter, diagnosis->room_for);
  fs_emit_key (emitter, "roomLimit");
  fs_emit_string (emitter, diagnosis->room_limit);
  fs_emit_key (emitter, "recordedMessage");
  fs_emit_string (emitter, diagnosis->recorded);
  emit_unmodelled_filters (emitter, diagnosis);
  fs_emit_key (emitter, "effectiveRequest");
  fs_emit_resources (emitter, &diagnosis->pod->spec->request, FALSE);
  fs_emit_key (emitter, "nodes");
  emit_nodes (emitter, snapshot, diagnosis);
}

void
fs_render_diagnosis (FsEmitter *emitter, const FsSnapshot *snapshot, const FsDiagnosis *diagnosis,
                     guint similar)
{
  const FsPod *pod = diagnosis->pod;
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "pod");
  fs_emit_string (emitter, pod->name);
  fs_emit_key (emitter, "namespace");
  fs_emit_string (emitter, pod->namespace);
  fs_emit_key (emitter, "phase");
  fs_emit_string (emitter, fs_pod_phase_name (pod->phase));
  fs_emit_key (emitter, "nodeName");
  fs_emit_string (emitter, pod->node_name);
  if (pod->owner != NULL)
    {
      fs_emit_key (emitter, "owner");
      g_autofree char *owner = g_strdup_printf ("%s/%s", pod->owner->kind, pod->owner->name);
      fs_emit_string (emitter, owner);
    }
  if (similar > 0)
    {
      fs_emit_key (emitter, "samePendingPods");
      fs_emit_int (emitter, similar);
    }
  fs_emit_key (emitter, "schedulingGates");
  fs_emit_list_open (emitter);
  for (guint i = 0; i < pod->spec->n_scheduling_gates; i++)
    fs_emit_string (emitter, pod->spec->scheduling_gates[i]);
  fs_emit_list_close (emitter);
  if (diagnosis->bound)
    {
      /* placed already: no scheduling answer, only where and what it waits for */
      fs_emit_key (emitter, "bound");
      emit_bound (emitter, diagnosis);
      emit_unmodelled_filters (emitter, diagnosis);
      fs_emit_key (emitter, "effectiveRequest");
      fs_emit_resources (emitter, &pod->spec->request, FALSE);
      fs_render_resize_diagnosis_fields (emitter, diagnosis->resize); /* issue 21, render/resize.c */
      fs_emit_map_close (emitter);
      return;
    }
  if (diagnosis->unknown_scheduler != NULL)
    {
      /* no profile of --scheduler-config takes it: not judged by the default profile */
      fs_emit_key (emitter, "unknownScheduler");
      fs_emit_string (emitter, diagnosis->unknown_scheduler);
      fs_emit_key (emitter, "recordedMessage");
      fs_emit_string (emitter, diagnosis->recorded);
      fs_emit_key (emitter, "effectiveRequest");
      fs_emit_resources (emitter, &pod->spec->request, FALSE);
      fs_emit_map_close (emitter);
      return;
    }
  if (diagnosis->gated)
    {
      emit_gated (emitter, snapshot, diagnosis);
      fs_emit_map_close (emitter);
      return;
    }
  fs_emit_key (emitter, "fits");
  fs_emit_bool (emitter, diagnosis->fits);
  fs_emit_key (emitter, "message");
  fs_emit_string (emitter, diagnosis->message);
  fs_emit_key (emitter, "recordedMessage");
  fs_emit_string (emitter, diagnosis->recorded);
  fs_emit_key (emitter, "agrees");
  diagnosis->recorded != NULL && diagnosis->message != NULL ? fs_emit_bool (emitter, diagnosis->agrees)
                                                            : fs_emit_null (emitter);
  fs_emit_key (emitter, "unmodelledReasons"); /* of the recorded message: docs/filters.md */
  fs_emit_list_open (emitter);
  for (guint i = 0; i < diagnosis->unmodelled->len; i++)
    fs_emit_string (emitter, diagnosis->unmodelled->pdata[i]);
  fs_emit_list_close (emitter);
  emit_unmodelled_filters (emitter, diagnosis);
  fs_emit_key (emitter, "effectiveRequest");
  fs_emit_resources (emitter, &pod->spec->request, FALSE);
  fs_emit_key (emitter, "nodes");
  emit_nodes (emitter, snapshot, diagnosis);
  fs_emit_key (emitter, "roomFor"); /* replicas of its shape the nodes take now, together */
  fs_emit_int (emitter, diagnosis->room_for);
  fs_emit_key (emitter, "roomLimit");
  fs_emit_string (emitter, diagnosis->room_limit);
  fs_emit_key (emitter, "pendingOfOwner");
  fs_emit_int (emitter, diagnosis->pending);
  fs_emit_key (emitter, "roomInTotal");
  fs_emit_bool (emitter, diagnosis->room_in_total);
  fs_emit_key (emitter, "freeTotal");
  fs_emit_resources (emitter, &diagnosis->free_total, TRUE);
  fs_emit_key (emitter, "largestFree");
  fs_emit_resources (emitter, &diagnosis->largest_free, TRUE);
  fs_emit_key (emitter, "fixes");
  fs_emit_list_open (emitter);
  for (guint i = 0; i < diagnosis->fixes->len; i++)
    emit_fix (emitter, &g_array_index (diagnosis->fixes, FsFix, i), diagnosis->pod);
  fs_emit_list_close (emitter);
  fs_emit_key (emitter, "preemption");
  emit_preemption (emitter, snapshot, &diagnosis->preemption);
  fs_emit_map_close (emitter);
}

/* ---- text ----------------------------------------------------------------------------- */

static char *
amount_text (const char *name, int64_t amount)
{
  char text[32];
  return g_strdup (fs_format_for_people (name, amount, text));
}

/* "5966Mi free", or "none free (overcommitted by 4)" where the node's pods request more
 * than it has. */
static char *
free_text (const char *name, int64_t free_amount)
{
  g_autofree char *amount = amount_text (name, free_amount < 0 ? fs_saturating_sub (0, free_amount) : free_amount);
  return free_amount < 0 ? g_strdup_printf ("none free (overcommitted by %s)", amount)
                         : g_strdup_printf ("%s free", amount);
}

/* "memory: needs 6Gi, 5966Mi free" for each resource the node is short of. */
static char *
short_text (const FsSnapshot *snapshot, guint node_index, const FsResources *request,
            const FsVerdict *verdict)
{
  if (verdict->filter != FS_FILTER_NODE_RESOURCES_FIT)
    return g_strdup ("");
  const FsNode *node = &snapshot->nodes[node_index];
  FsNodeLoad load = fs_node_load (node);
  FsResources node_room = fs_node_room (&node->allocatable, &load, NULL);
  GString *text = g_string_new (NULL);
  struct { const char *name; guint32 bit; int64_t want, free_amount; } rows[] = {
    { "cpu", FS_SHORT_CPU, request->cpu_milli, node_room.cpu_milli },
    { "memory", FS_SHORT_MEMORY, request->memory_bytes, node_room.memory_bytes },
    { "ephemeral-storage", FS_SHORT_EPHEMERAL, request->ephemeral_bytes, node_room.ephemeral_bytes },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (rows); i++)
    if (verdict->short_bits & rows[i].bit)
      {
        g_autofree char *want = amount_text (rows[i].name, rows[i].want);
        g_autofree char *room = free_text (rows[i].name, rows[i].free_amount);
        g_string_append_printf (text, "%s%s: needs %s, %s", text->len ? "; " : "", rows[i].name, want, room);
      }
  for (guint i = 0; i < verdict->short_by.n_extended; i++)
    {
      const char *name = verdict->short_by.extended[i].name;
      int64_t want = fs_resources_get (request, name);
      int64_t free_amount = fs_resources_get (&node_room, name);
      g_autofree char *want_text = amount_text (name, want);
      g_autofree char *room = free_text (name, free_amount);
      g_string_append_printf (text, "%s%s: needs %s, %s", text->len ? "; " : "", name, want_text, room);
    }
  if (verdict->short_bits & FS_SHORT_PODS)
    g_string_append_printf (text, "%spods: %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT " used",
                            text->len ? "; " : "", node->pod_count, node->allocatable.pods);
  return g_string_free (text, FALSE);
}

/* "cpu 2, memory 6.0Gi, nvidia.com/gpu 5": AMOUNTS of each resource REQUEST asks for (> 0). */
static char *
requested_text (const FsResources *request, const FsResources *amounts)
{
  static const struct { const char *name; FsResourceBit bit; } fixed[] = {
    { "cpu", FS_RES_CPU }, { "memory", FS_RES_MEMORY }, { "ephemeral-storage", FS_RES_EPHEMERAL },
  };
  g_autoptr (GString) text = g_string_new (NULL);
  for (gsize i = 0; i < G_N_ELEMENTS (fixed); i++)
    if (fs_resources_get (request, fixed[i].name) > 0)
      {
        g_autofree char *amount = amount_text (fixed[i].name, fs_resources_get (amounts, fixed[i].name));
        g_string_append_printf (text, "%s%s %s", text->len ? ", " : "", fixed[i].name, amount);
      }
  for (guint i = 0; i < request->n_extended; i++)
    if (request->extended[i].value > 0)
      {
        /* hugepages in bytes for people ("2Gi"), a count as it is ("nvidia.com/gpu 2") */
        g_autofree char *amount = amount_text (request->extended[i].name,
                                               fs_resources_get (amounts, request->extended[i].name));
        g_string_append_printf (text, "%s%s %s", text->len ? ", " : "", request->extended[i].name, amount);
      }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* "Pod NS/NAME is Pending; it requests cpu 500m, memory 6.0Gi." and the owner's others. */
static void
print_pod (FILE *out, const FsPod *pod, guint similar)
{
  g_autofree char *requests = requested_text (&pod->spec->request, &pod->spec->request);
  FS_SCRATCH (safe);
  fprintf (out, "Pod %s/%s is %s%s%s; it requests %s.\n", fs_safe (safe, pod->namespace), fs_safe (safe, pod->name),
           fs_pod_phase_name (pod->phase), pod->node_name ? " on " : "", pod->node_name ? fs_safe (safe, pod->node_name) : "",
           requests[0] ? fs_safe (safe, requests) : "no resources (only a pod slot)");
  if (similar > 0 && pod->owner != NULL)
    fprintf (out, "%u more Pending pod%s of %s %s ask%s the same.\n", similar, similar == 1 ? "" : "s",
             fs_safe (safe, pod->owner->kind), fs_safe (safe, pod->owner->name), similar == 1 ? "s" : "");
}

/* What the kubelet is at, as the end of "it waits for its kubelet: ...": a template whose
 * %s, where it has one, is the container ("container web", "init container migrate"). */
static const char *
kubelet_wait_text (FsKubeletWaitKind kind)
{
  static const char *const texts[] = {
    [FS_KUBELET_IMAGE_PULL] = "image pull failing for %s",
    [FS_KUBELET_CRASH_LOOP] = "%s keeps failing and is restarted with back-off",
    [FS_KUBELET_CONTAINER_CONFIG] = "%s cannot be created: a ConfigMap, Secret or key it names is missing",
    [FS_KUBELET_CONTAINER_ERROR] = "the container runtime fails to create or start %s",
    [FS_KUBELET_VOLUME] = "volumes to attach or mount",
    [FS_KUBELET_SANDBOX] = "the pod sandbox (its network and runtime) to be set up",
    [FS_KUBELET_NODE_NOT_READY] = "its node to turn Ready (the node's kubelet is not reporting Ready, so "
                                  "nothing it says of the pod is current)",
    [FS_KUBELET_NODE_MISSING] = "which step it is at is not known here, as the snapshot does not hold "
                                "the node",
    [FS_KUBELET_INIT_CONTAINER] = "%s to finish (init containers run one by one)",
    [FS_KUBELET_CONTAINER_CREATING] = "its containers to be created (image pulls, volume mounts)",
    [FS_KUBELET_STARTING] = "its containers to start and its status to turn Running",
    [FS_KUBELET_UNREPORTED] = "its first report: the kubelet has written no status for the pod yet",
  };
  return (gsize) kind < G_N_ELEMENTS (texts) && texts[kind] != NULL ? texts[kind] : "its containers";
}

/* The template of kubelet_wait_text with the container filled in. */
static void
print_wait_text (FILE *out, const FsKubeletWait *wait)
{
  const char *text = kubelet_wait_text (wait->kind);
  const char *slot = strstr (text, "%s");
  if (slot == NULL)
    {
      fputs (text, out);
      return;
    }
  fwrite (text, 1, (gsize) (slot - text), out);
  if (wait->container != NULL)
    {
      g_autofree char *container = fs_terminal_safe (wait->container);
      fprintf (out, "%scontainer %s", wait->init_container ? "init " : "", container);
    }
  else
    fputs ("a container", out);
  fputs (slot + 2, out);
}

/* " (REASON: MESSAGE)", when known. */
static void
print_wait_detail (FILE *out, const FsKubeletWait *wait)
{
  g_autofree char *message = wait->message != NULL ? fs_terminal_safe (wait->message) : NULL;
  g_autofree char *reason = wait->reason != NULL ? fs_terminal_safe (wait->reason) : NULL;
  if (reason != NULL && message != NULL)
    fprintf (out, " (%s: %s)", reason, message);
  else if (reason != NULL || message != NULL)
    fprintf (out, " (%s)", reason != NULL ? reason : message);
}

/* The node's line: whether the snapshot holds it and whether it is Ready. */
static void
print_bound_node (FILE *out, const FsDiagnosis *diagnosis)
{
  const FsNode *node = diagnosis->node;
  g_autofree char *name = fs_terminal_safe (diagnosis->pod->node_name);
  if (node == NULL)
    fprintf (out, "Node %s is not in the snapshot: add it (kubectl get node %s -o json) to see whether it is Ready.\n",
             name, name);
  else if (!(node->flags & FS_NODE_READY_KNOWN))
    fprintf (out, "Node %s is in the snapshot; it reports no Ready condition.\n", name);
  else
    fprintf (out, "Node %s is in the snapshot and %s.\n", name, (node->flags & FS_NODE_READY) ? "Ready" : "NotReady");
}

/* A pod with spec.nodeName set is placed: the scheduler's part is done, and what it waits
 * for is its kubelet's (model/kubelet.h).  The sentence that says so comes first. */
static void
print_bound (FILE *out, const FsDiagnosis *diagnosis)
{
  const FsPod *pod = diagnosis->pod;
  const FsKubeletWait *wait = &diagnosis->kubelet;
  char stamp[32];
  int64_t scheduled = pod->kubelet != NULL ? pod->kubelet->scheduled_time : 0;
  FS_SCRATCH (safe);
  fprintf (out, "Pod %s/%s is bound to node %s", fs_safe (safe, pod->namespace), fs_safe (safe, pod->name),
           fs_safe (safe, pod->node_name));
  if (scheduled > 0)
    fprintf (out, " by the scheduler at %s", fs_time_format (scheduled, stamp));
  else if (pod->flags & FS_POD_SCHEDULED)
    fprintf (out, " by the scheduler");
  switch (wait->kind)
    {
    case FS_KUBELET_RUNNING:
      /* a Running pod's container states are not read: a crash loop would not show here */
      fprintf (out, " and %s: nothing is Pending (fitscale reads no container states of a %s pod, so "
               "restarts and crash loops are not judged here; kubectl describe pod shows them).\n",
               fs_pod_phase_name (pod->phase), fs_pod_phase_name (pod->phase));
      break;
    case FS_KUBELET_REJECTED:
      fprintf (out, "; its kubelet rejected it at admission");
      print_wait_detail (out, wait);
      fprintf (out, ".\nA pod the kubelet rejects stays Failed: it is not retried. Its controller, if it has one, "
               "makes a new pod, which the scheduler places again.\n");
      break;
    case FS_KUBELET_FAILED:
      fprintf (out, "; it Failed on that node");
      print_wait_detail (out, wait);
      fprintf (out, ".\nA Failed pod is not restarted: its controller, if it has one, makes a new pod.\n");
      break;
    case FS_KUBELET_STARTING:
      if (pod->kubelet != NULL && pod->kubelet->running > 0)
        {
          guint running = pod->kubelet->running;
          fprintf (out, "; it waits for its kubelet to report it Running: %u container%s already run%s.\n",
                   running, running == 1 ? "" : "s", running == 1 ? "s" : "");
          break;
        }
      /* fall through */
    default:
      fprintf (out, "; it waits for its kubelet: ");
      print_wait_text (out, wait);
      print_wait_detail (out, wait);
      fprintf (out, ".\n");
      break;
    }
  print_bound_node (out, diagnosis);
  fs_render_resize_diagnosis_text (out, diagnosis->resize); /* issue 21, render/resize.c */
  if (pod->scheduled_message != NULL)
    fprintf (out, "Its PodScheduled condition still holds what the scheduler wrote before it bound the pod: %s\n",
             fs_safe (safe, pod->scheduled_message));
  fprintf (out, "The scheduler's part is done: fitscale gives no scheduling answer for a pod bound to a node.\n");
}

/* The scheduler's recorded verdict, first, when fitscale's differs, and why it may: a filter
 * fitscale does not model, a snapshot that lacks part of the cluster, or a cluster that
 * changed since the message was written. */
static void
print_disagreement (FILE *out, const FsSnapshot *snapshot, const FsDiagnosis *diagnosis)
{
  g_autofree char *recorded = fs_terminal_safe (diagnosis->recorded);
  fprintf (out, "\nThe scheduler recorded: %s\n", recorded);
  fprintf (out, "fitscale's verdict differs");
  const char *sep = ": ";
  if (diagnosis->unmodelled->len > 0)
    {
      g_autoptr (GString) reasons = g_string_new (NULL);
      for (guint i = 0; i < diagnosis->unmodelled->len; i++)
        g_string_append_printf (reasons, "%s\"%s\"", i == 0 ? "" : ", ",
                                (const char *) diagnosis->unmodelled->pdata[i]);
      g_autofree char *safe = fs_terminal_safe (reasons->str);
      fprintf (out, "%sthe scheduler's reasons include %s, from %s fitscale does not model (docs/filters.md)",
               sep, safe, diagnosis->unmodelled->len == 1 ? "a filter" : "filters");
      sep = "; ";
    }
  for (guint i = 0; i < diagnosis->unmodelled_filters->len; i++)
    {
      fprintf (out, "%sthe pod needs the %s filter, which fitscale does not model", sep,
               (const char *) diagnosis->unmodelled_filters->pdata[i]);
      sep = "; ";
    }
  g_autoptr (GArray) warnings = fs_snapshot_warnings (snapshot, FS_NEEDS_NODES | FS_NEEDS_NODE_USAGE);
  guint untainted = 0;
  for (guint i = 0; i < warnings->len; i++)
    untainted += g_array_index (warnings, FsWarning, i).kind == FS_WARNING_NOT_READY_UNTAINTED;
  if (untainted > 0)
    {
      fprintf (out, "%sa node not Ready has no taint for it yet in the snapshot (the warning above)", sep);
      sep = "; ";
    }
  if (warnings->len > untainted)
    {
      fprintf (out, "%sthe snapshot lacks part of the cluster (the warnings above)", sep);
      sep = "; ";
    }
  /* "or" only after another cause */
  fprintf (out, "%s%sthe cluster changed since the message was recorded.\n", sep,
           strcmp (sep, ": ") == 0 ? "" : "or ");
}

static gboolean
disagrees (const FsDiagnosis *diagnosis)
{
  return diagnosis->recorded != NULL && !diagnosis->agrees;
}

static void print_fixes (FILE *out, const FsDiagnosis *diagnosis);

/* When the room now takes fewer of its owner's Pending pods than there are: how many stay
 * Pending, what stops more, and the fixes for them. */
static void
print_leftover (FILE *out, const FsDiagnosis *diagnosis)
{
  if (diagnosis->room_for >= diagnosis->pending)
    return;
  int64_t left = diagnosis->pending - diagnosis->room_for;
  g_autofree char *limit = fs_terminal_safe (diagnosis->room_limit); /* may be a node's resource name;
                                                                       * set: room_for > 0 */
  fprintf (out, "The nodes have room now for %" G_GINT64_FORMAT " of the %" G_GINT64_FORMAT " Pending pods of "
           "its owner: %" G_GINT64_FORMAT " stay%s Pending (the limit: %s).\n", diagnosis->room_for,
           diagnosis->pending, left, left == 1 ? "s" : "", limit);
  print_fixes (out, diagnosis);
}

static void
print_fits (FILE *out, const FsDiagnosis *diagnosis)
{
  guint passing = 0;
  for (guint i = 0; i < diagnosis->n_nodes; i++)
    passing += diagnosis->nodes[i].verdict.filter == FS_FILTER_PASS;
  if (disagrees (diagnosis))
    fprintf (out, "\nfitscale finds room on %u node%s, against the scheduler's verdict above: expect the pod "
             "to stay Pending until what it names is resolved.\n", passing, passing == 1 ? "" : "s");
  else if (diagnosis->unmodelled_filters->len > 0)
    fprintf (out, "\nIt passes the filters fitscale models on %u node%s; the %s filter, which fitscale does "
             "not model, decides whether the scheduler can place it there.\n", passing, passing == 1 ? "" : "s",
             (const char *) diagnosis->unmodelled_filters->pdata[0]);
  else if (diagnosis->volumes_unjudged)
    fprintf (out, "\nIt fits on %u node%s by every filter but the volume ones: its PersistentVolumeClaims "
             "are not in the snapshot, so whether their binding lets the scheduler place it is not "
             "known (the warning above).\n", passing, passing == 1 ? "" : "s");
  else
    {
      fprintf (out, "\nIt fits on %u node%s now: the scheduler will place it on its next attempt "
               "(or nominated pods of higher priority hold the room).\n", passing,
               passing == 1 ? "" : "s");
      print_leftover (out, diagnosis);
    }
}

static void
print_messages (FILE *out, const FsDiagnosis *diagnosis)
{
  g_autofree char *message = fs_terminal_safe (diagnosis->message); /* a taint's key, a node's name */
  fprintf (out, "\nfitscale: %s\n", message);
  if (diagnosis->recorded != NULL && diagnosis->agrees)
    {
      g_autofree char *recorded = fs_terminal_safe (diagnosis->recorded);
      fprintf (out, "recorded: %s\n          (the same as the scheduler's own message)\n", recorded);
    }
  fprintf (out, "\n");
}

/* How far node I is from taking the pod, for the order of the node table: 0 when it fits,
 * then by the largest share of a request it is short of (a node short of 10% of the memory
 * before one short of all of it), then every other filter after. */
typedef struct {
  const FsSnapshot *snapshot;
  const FsDiagnosis *diagnosis;
} NodeOrder;

static double
shortness (const FsDiagnosis *diagnosis, guint i)
{
  const FsVerdict *verdict = &diagnosis->nodes[i].verdict;
  if (verdict->filter == FS_FILTER_PASS)
    return 0.0;
  if (verdict->filter != FS_FILTER_NODE_RESOURCES_FIT)
    return 1e300;
  const FsResources *request = &diagnosis->pod->spec->request;
  double worst = 0.0;
  struct { int64_t short_by, want; } rows[] = {
    { verdict->short_by.cpu_milli, request->cpu_milli },
    { verdict->short_by.memory_bytes, request->memory_bytes },
    { verdict->short_by.ephemeral_bytes, request->ephemeral_bytes },
  };
  for (gsize r = 0; r < G_N_ELEMENTS (rows); r++)
    if (rows[r].short_by > 0)
      worst = MAX (worst, rows[r].want > 0 ? (double) rows[r].short_by / (double) rows[r].want : 1.0);
  for (guint e = 0; e < verdict->short_by.n_extended; e++)
    {
      int64_t want = fs_resources_get (request, verdict->short_by.extended[e].name);
      if (verdict->short_by.extended[e].value > 0)
        worst = MAX (worst, want > 0 ? (double) verdict->short_by.extended[e].value / (double) want : 1.0);
    }
  if (verdict->short_bits & FS_SHORT_PODS)
    worst = MAX (worst, 1.0);
  return 1.0 + worst; /* after every node that fits */
}

static gint
compare_nodes (gconstpointer a, gconstpointer b, gpointer data)
{
  const NodeOrder *order = data;
  guint i = *(const guint *) a, j = *(const guint *) b;
  double si = shortness (order->diagnosis, i), sj = shortness (order->diagnosis, j);
  if (si != sj)
    return si < sj ? -1 : 1;
  return strcmp (order->snapshot->nodes[i].name, order->snapshot->nodes[j].name);
}

/* Per node the first failing filter and the shortfall, closest to fitting first (then by
 * name): the first 30 nodes unless WIDE, saying how many are left out. */
static void
print_nodes (FILE *out, const FsSnapshot *snapshot, const FsDiagnosis *diagnosis, gboolean wide)
{
  const FsResources *request = &diagnosis->pod->spec->request;
  static const char *const headers[] = { "NODE", "FIRST FAILING FILTER", "SHORT" };
  g_autoptr (FsTable) table = fs_table_new (3, headers);
  g_autofree guint *order = g_new (guint, diagnosis->n_nodes + 1);
  for (guint i = 0; i < diagnosis->n_nodes; i++)
    order[i] = i;
  NodeOrder data = { snapshot, diagnosis };
  g_qsort_with_data (order, (gint) diagnosis->n_nodes, sizeof (guint), compare_nodes, &data);
  guint shown = 0;
  for (guint k = 0; k < diagnosis->n_nodes; k++)
    {
      guint i = order[k];
      const FsVerdict *verdict = &diagnosis->nodes[i].verdict;
      if (!wide && shown >= 30)
        break;
      g_autoptr (GPtrArray) reasons = g_ptr_array_new_with_free_func (g_free);
      fs_verdict_reasons (verdict, reasons);
      g_ptr_array_add (reasons, NULL);
      g_autofree char *why = g_strjoinv (", ", (char **) reasons->pdata);
      g_autofree char *short_by = short_text (snapshot, i, request, verdict);
      const char *cells[] = { snapshot->nodes[i].name, why[0] ? why : "fits",
                              short_by[0] ? short_by : "-" };
      fs_table_add_row (table, cells);
      shown++;
    }
  fs_table_print (table, out);
  if (shown < diagnosis->n_nodes)
    fprintf (out, "(%u more node%s, further from fitting, left out: -o wide lists them all)\n",
             diagnosis->n_nodes - shown, diagnosis->n_nodes - shown == 1 ? "" : "s");
}

static void
print_room (FILE *out, const FsDiagnosis *diagnosis)
{
  const FsResources *request = &diagnosis->pod->spec->request;
  g_autofree char *total = requested_text (request, &diagnosis->free_total);
  g_autofree char *largest = requested_text (request, &diagnosis->largest_free);
  FS_SCRATCH (safe); /* extended resources' names come from the snapshot */
  fprintf (out, "\nRoom in total, not in one piece: %s free on the nodes it may use,\n"
           "but at most %s on any one of them.\n", fs_safe (safe, total), fs_safe (safe, largest));
}

/* "ns/name (priority P)" or "ns/name (priority P, beyond PodDisruptionBudget B)". */
static void
append_victim (GString *text, const FsVictim *victim)
{
  g_string_append_printf (text, "%s/%s (priority %d", victim->pod->namespace, victim->pod->name,
                          victim->pod->priority);
  if (victim->violates != NULL)
    g_string_append_printf (text, ", beyond what PodDisruptionBudget %s allows", victim->violates->name);
  g_string_append (text, ")");
}

/* The PodDisruptionBudgets the victims break, each once, in victim order. */
static guint
count_budgets (const FsPreemptionCandidate *chosen, GString *names)
{
  g_autoptr (GPtrArray) seen = g_ptr_array_new ();
  for (guint i = 0; i < chosen->victims->len; i++)
    {
      const FsPodDisruptionBudget *pdb = g_array_index (chosen->victims, FsVictim, i).violates;
      if (pdb == NULL || g_ptr_array_find (seen, pdb, NULL))
        continue;
      g_string_append_printf (names, "%s%s/%s", seen->len > 0 ? ", " : "", pdb->namespace, pdb->name);
      g_ptr_array_add (seen, (gpointer) pdb);
    }
  return seen->len;
}

/* What the scheduler does by itself when the pod fits nowhere and lower-priority pods hold the
 * room: DefaultPreemption's victims on the node it nominates. */
static void
print_preemption (FILE *out, const FsSnapshot *snapshot, const FsDiagnosis *diagnosis)
{
  const FsPreemption *preemption = &diagnosis->preemption;
  const FsPod *pod = diagnosis->pod;
  FS_SCRATCH (safe);
  if (!preemption->eligible && !diagnosis->shape.spec->placement->preempt_never)
    fprintf (out, "\nIt is nominated to node %s, where lower-priority pods preemption evicted are still "
             "terminating: the scheduler waits for them instead of preempting again.\n",
             fs_safe (safe, pod->nominated_node));
  if (!preemption->found)
    return;
  const FsPreemptionCandidate *chosen = &preemption->chosen;
  guint n = chosen->victims->len;
  g_autoptr (GString) text = g_string_new (NULL);
  guint shown = 0;
  for (guint i = 0; i < n; i++)
    {
      const FsVictim *victim = &g_array_index (chosen->victims, FsVictim, i);
      if (shown >= 10 && victim->violates == NULL) /* every one that breaks a budget is named */
        continue;
      g_string_append (text, shown == 0 ? "" : ", ");
      append_victim (text, victim);
      shown++;
    }
  if (shown < n)
    g_string_append_printf (text, " and %u more (-o json lists them all)", n - shown);
  g_autoptr (GString) budgets = g_string_new (NULL);
  guint n_budgets = count_budgets (chosen, budgets);
  const char *node = fs_safe (safe, snapshot->nodes[chosen->node_index].name);
  fprintf (out, "\nThe scheduler will preempt %u pod%s on node %s: %s", n, n == 1 ? "" : "s", node,
           fs_safe (safe, text->str));
  if (n_budgets > 0)
    fprintf (out, ", violating %u PodDisruptionBudget%s (%s)", n_budgets, n_budgets == 1 ? "" : "s",
             fs_safe (safe, budgets->str));
  fprintf (out, ".\nIt nominates %s for the pod (status.nominatedNodeName) and schedules it once the victims"
           " have terminated (their graceful termination period).\n", node);
  if (chosen->n_pdb_violations > 0)
    fprintf (out, "Preemption does not wait for PodDisruptionBudgets: it prefers nodes where fewer victims "
             "break one, and every node where it would make room has such a victim.\n");
  if (preemption->n_candidates > preemption->n_sampled)
    fprintf (out, "(The scheduler's dry run stops at the first %u of these %u candidate nodes, from a random "
             "one, so it may pick another node.)\n", preemption->n_sampled, preemption->n_candidates);
}

static void
print_fixes (FILE *out, const FsDiagnosis *diagnosis)
{
  if (diagnosis->n_nodes == 0)
    {
      fprintf (out, "No fix can be checked: the snapshot holds no node.\n");
      return;
    }
  if (diagnosis->fixes->len == 0)
    {
      fprintf (out, "\nNo fix found within this snapshot%s.\n",
               diagnosis->fits ? " for the ones left Pending"
               : diagnosis->preemption.found ? " that would place it without preempting" : "");
      return;
    }
  fprintf (out, "\nFixes%s, each checked against the snapshot:\n",
           diagnosis->fits ? " for the ones left Pending"
           : diagnosis->preemption.found ? " that place it without preempting" : "");
  for (guint i = 0; i < diagnosis->fixes->len; i++)
    {
      /* a fix names nodes, taints and labels of the snapshot */
      const FsFix *fix = &g_array_index (diagnosis->fixes, FsFix, i);
      g_autofree char *text = fs_terminal_safe (fix->text);
      fprintf (out, "  - %s\n", text);
      /* the command's words are escaped and shell-quoted already */
      g_autofree char *command = fix_command (fix, diagnosis->pod);
      if (command != NULL)
        fprintf (out, "      %s\n", command);
    }
}

/* A gated pod: it waits for its gates to go, not for room; then whether room is there. */
static void
print_gated (FILE *out, const FsDiagnosis *diagnosis)
{
  const FsPodSpec *spec = diagnosis->pod->spec;
  g_autoptr (GString) gates = g_string_new (NULL);
  for (guint i = 0; i < spec->n_scheduling_gates; i++)
    g_string_append_printf (gates, "%s%s", i == 0 ? "" : ", ", spec->scheduling_gates[i]);
  g_autofree char *names = fs_terminal_safe (gates->str);
  fprintf (out, "It is gated: the scheduler does not try to place it while spec.schedulingGates holds "
                "any gate, and it holds %u (%s).  It waits for whoever added %s to remove %s, not for "
                "room; no node or request change schedules it sooner.\n",
           spec->n_scheduling_gates, names, spec->n_scheduling_gates == 1 ? "it" : "them",
           spec->n_scheduling_gates == 1 ? "it" : "them");
  guint passing = 0;
  for (guint i = 0; i < diagnosis->n_nodes; i++)
    passing += diagnosis->nodes[i].verdict.filter == FS_FILTER_PASS;
  if (diagnosis->fits)
    fprintf (out, "\nOnce ungated it would fit on %u node%s as the cluster is now.\n", passing,
             passing == 1 ? "" : "s");
  else
    {
      g_autofree char *message = fs_terminal_safe (diagnosis->message);
      fprintf (out, "\nOnce ungated it would fit on no node as the cluster is now; the scheduler would "
                    "say: %s\nOnce its gates are gone, fitscale why on it says what would make room.\n",
               message);
    }
}

void
fs_render_diagnosis_table (FILE *out, const FsSnapshot *snapshot, const FsDiagnosis *diagnosis,
                           guint similar, gboolean wide)
{
  if (diagnosis->bound)
    {
      print_bound (out, diagnosis);
      fprintf (out, "\n");
      print_pod (out, diagnosis->pod, similar);
      return;
    }
  print_pod (out, diagnosis->pod, similar);
  if (diagnosis->unknown_scheduler != NULL)
    {
      g_autofree char *name = fs_terminal_safe (diagnosis->unknown_scheduler);
      fprintf (out, "No profile of the scheduler configuration is named %s: no scheduler it "
                    "configures takes this pod, so fitscale does not judge it (kube-scheduler leaves "
                    "it to a scheduler called %s).\n", name, name);
      return;
    }
  if (diagnosis->gated)
    {
      print_gated (out, diagnosis);
      return;
    }
  if (disagrees (diagnosis))
    print_disagreement (out, snapshot, diagnosis);
  if (diagnosis->fits)
    {
      print_fits (out, diagnosis);
      return;
    }
  print_messages (out, diagnosis);
  if (diagnosis->n_nodes > 0)
    print_nodes (out, snapshot, diagnosis, wide);
  if (diagnosis->room_in_total)
    print_room (out, diagnosis);
  print_preemption (out, snapshot, diagnosis);
  print_fixes (out, diagnosis);
}

void
fs_render_diagnosis_separator (FILE *out)
{
  fprintf (out, "\n%s\n\n", "----");
}

void
fs_render_no_pending (FILE *out, const char *namespace)
{
  g_autofree char *safe = namespace != NULL ? fs_terminal_safe (namespace) : NULL;
  fprintf (out, "No Pending pods without a node%s%s.\n", namespace ? " in namespace " : "",
           namespace ? safe : "");
}

/* ---- why --all: one line by cause -------------------------------------------------------- */

struct FsWhySummary {
  guint pods;
  GHashTable *owners;   /* FsPodGroupKey of the owners seen (namespace and owner) */
  guint bare_pods;      /* pods without an owner: each its own */
  GPtrArray *causes;    /* in the order first met */
  GHashTable *counts;   /* cause -> pods (GUINT_TO_POINTER) */
};

FsWhySummary *
fs_why_summary_new (void)
{
  FsWhySummary *summary = g_new0 (FsWhySummary, 1);
  summary->owners = g_hash_table_new_full (fs_pod_group_key_hash, fs_pod_group_key_equal, g_free, NULL);
  summary->causes = g_ptr_array_new ();
  summary->counts = g_hash_table_new (g_str_hash, g_str_equal);
  return summary;
}

void
fs_why_summary_free (FsWhySummary *summary)
{
  if (summary == NULL)
    return;
  g_hash_table_unref (summary->owners);
  g_ptr_array_unref (summary->causes);
  g_hash_table_unref (summary->counts);
  g_free (summary);
}

static const char *
filter_cause (FsFilter filter)
{
  switch (filter)
    {
    case FS_FILTER_NODE_UNSCHEDULABLE: return "cordoned";
    case FS_FILTER_TAINT_TOLERATION: return "taint";
    case FS_FILTER_NODE_AFFINITY: return "node affinity";
    case FS_FILTER_NODE_PORTS: return "host port";
    case FS_FILTER_POD_TOPOLOGY_SPREAD: return "topology spread";
    case FS_FILTER_INTER_POD_AFFINITY: return "pod affinity";
    case FS_FILTER_NODE_RESOURCES_FIT: return "resources";
    case FS_FILTER_PASS: return "fits now";
    default: return "volumes";
    }
}

/* One word for what keeps DIAGNOSIS's pod Pending: what the closest node is short of when a
 * node is short only of resources (the first of cpu, memory, ephemeral-storage, pods, then an
 * extended resource), else the filter that rejects the most nodes; "not modelled" when the
 * pod or the scheduler's recorded verdict needs what fitscale does not model, "verdict
 * differs" when the recorded verdict disagrees with fitscale's for another reason. */
static const char *
diagnosis_cause (const FsDiagnosis *diagnosis)
{
  if (diagnosis->gated && diagnosis->unknown_scheduler == NULL)
    return "gated"; /* kept out of the queue by its schedulingGates: no filter ran */
  if (diagnosis->unknown_scheduler != NULL || diagnosis->unmodelled_filters->len > 0
      || (diagnosis->unmodelled != NULL && diagnosis->unmodelled->len > 0))
    return "not modelled";
  if (disagrees (diagnosis))
    return "verdict differs"; /* from the recorded one: the snapshot or the cluster, not the model */
  if (diagnosis->fits)
    return "fits now";
  if (diagnosis->n_nodes == 0)
    return "no nodes";
  guint closest = G_MAXUINT;
  for (guint i = 0; i < diagnosis->n_nodes; i++)
    if (diagnosis->nodes[i].verdict.filter == FS_FILTER_NODE_RESOURCES_FIT
        && (closest == G_MAXUINT || shortness (diagnosis, i) < shortness (diagnosis, closest)))
      closest = i;
  if (closest != G_MAXUINT)
    {
      const FsVerdict *verdict = &diagnosis->nodes[closest].verdict;
      if (verdict->short_bits & FS_SHORT_CPU)
        return "cpu";
      if (verdict->short_bits & FS_SHORT_MEMORY)
        return "memory";
      if (verdict->short_bits & FS_SHORT_EPHEMERAL)
        return "ephemeral-storage";
      if (verdict->short_bits & FS_SHORT_PODS)
        return "pod slots";
      if (verdict->short_by.n_extended > 0)
        return verdict->short_by.extended[0].name; /* a node's resource name: printed safe */
      return "resources";
    }
  guint counts[64] = { 0 }, best = 0;
  for (guint i = 0; i < diagnosis->n_nodes; i++)
    {
      guint f = MIN ((guint) diagnosis->nodes[i].verdict.filter, 63u);
      if (++counts[f] > counts[best] || (counts[f] == counts[best] && f < best))
        best = f;
    }
  if (best == FS_FILTER_INTER_POD_AFFINITY)
    for (guint i = 0; i < diagnosis->n_nodes; i++)
      if (diagnosis->nodes[i].verdict.filter == FS_FILTER_INTER_POD_AFFINITY)
        return diagnosis->nodes[i].verdict.detail == FS_DETAIL_AFFINITY ? "pod affinity" : "pod anti-affinity";
  return filter_cause ((FsFilter) best);
}

static void
summary_count (FsWhySummary *summary, const char *cause, guint pods)
{
  if (pods == 0)
    return;
  gpointer old = NULL;
  if (!g_hash_table_lookup_extended (summary->counts, cause, NULL, &old))
    g_ptr_array_add (summary->causes, (gpointer) cause);
  g_hash_table_insert (summary->counts, (gpointer) cause, GUINT_TO_POINTER (GPOINTER_TO_UINT (old) + pods));
}

void
fs_why_summary_add (FsWhySummary *summary, const FsDiagnosis *diagnosis, guint similar)
{
  const char *cause = diagnosis_cause (diagnosis);
  guint pods = 1 + similar;
  summary->pods += pods;
  if (diagnosis->pod->owner != NULL)
    {
      FsPodGroupKey owner = { diagnosis->pod->namespace, diagnosis->pod->owner, NULL };
      g_hash_table_add (summary->owners, g_memdup2 (&owner, sizeof owner));
    }
  else
    summary->bare_pods++;
  /* of pods that fit one by one, only as many as the room takes together fit now */
  guint fit = strcmp (cause, "fits now") == 0 ? (guint) MIN ((int64_t) pods, diagnosis->room_for) : pods;
  summary_count (summary, cause, fit);
  if (fit < pods)
    summary_count (summary, g_strcmp0 (diagnosis->room_limit, "pods") == 0 ? "pod slots" : diagnosis->room_limit,
                   pods - fit);
}

static gint
compare_causes (gconstpointer a, gconstpointer b, gpointer data)
{
  GHashTable *counts = data;
  const char *x = *(const char *const *) a, *y = *(const char *const *) b;
  guint nx = GPOINTER_TO_UINT (g_hash_table_lookup (counts, x)), ny = GPOINTER_TO_UINT (g_hash_table_lookup (counts, y));
  if (nx != ny)
    return nx > ny ? -1 : 1;
  return strcmp (x, y);
}

void
fs_why_summary_print (FILE *out, const FsWhySummary *summary)
{
  if (summary->pods == 0)
    return;
  g_autoptr (GPtrArray) causes = g_ptr_array_copy (summary->causes, NULL, NULL);
  g_ptr_array_sort_with_data (causes, compare_causes, summary->counts);
  guint owners = g_hash_table_size (summary->owners) + summary->bare_pods; /* a bare pod is its own */
  g_autoptr (GString) line = g_string_new (NULL);
  g_string_append_printf (line, "%u Pending in %u owner%s:", summary->pods, owners, owners == 1 ? "" : "s");
  for (guint i = 0; i < causes->len; i++)
    {
      const char *cause = causes->pdata[i];
      guint count = GPOINTER_TO_UINT (g_hash_table_lookup (summary->counts, cause));
      if (count != 1 && strcmp (cause, "fits now") == 0)
        cause = "fit now";
      g_string_append_printf (line, "%s %u %s", i > 0 ? "," : "", count, cause);
    }
  g_autofree char *safe = fs_terminal_safe (line->str);
  fprintf (out, "\n%s.\n", safe);
}

void
fs_render_bound_pending (FILE *out, guint count, const FsPod *first)
{
  FS_SCRATCH (safe);
  fprintf (out, "\n%u Pending pod%s %s bound to a node already: %s wait%s for %s kubelet, not for the "
           "scheduler (fitscale why %s/%s says what for).\n", count, count == 1 ? "" : "s",
           count == 1 ? "is" : "are", count == 1 ? "it" : "they", count == 1 ? "s" : "",
           count == 1 ? "its" : "their", fs_safe (safe, first->namespace), fs_safe (safe, first->name));
}

void
fs_render_cluster_changed (FILE *out, GDateTime *now)
{
  g_autofree char *stamp = g_date_time_format_iso8601 (now);
  fprintf (out, "\n==== %s: the cluster changed\n\n", stamp);
}
