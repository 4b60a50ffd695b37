/* fitscale — the diagnosis document (see include/fitscale/render/why.h). */
#include "config.h"

#include "fitscale/render/why.h"

static const char *const fix_kinds[] = {
  [FS_FIX_LOWER_REQUEST] = "LowerRequest", [FS_FIX_ADD_NODES] = "AddNodes",
  [FS_FIX_LOWER_REPLICAS] = "LowerReplicas", [FS_FIX_TOLERATE_TAINT] = "TolerateTaint",
  [FS_FIX_RELAX_AFFINITY] = "RelaxNodeAffinity", [FS_FIX_PREEMPT] = "Preemption",
  [FS_FIX_UNCORDON] = "Uncordon",
};

static void
emit_fix (FsEmitter *emitter, const FsFix *fix)
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
      fs_emit_key (emitter, fix->kind == FS_FIX_LOWER_REPLICAS ? "replicas"
                            : fix->kind == FS_FIX_PREEMPT      ? "victimCount"
                                                               : "nodes");
      fs_emit_int (emitter, fix->count);
    }
  if (fix->victims != NULL)
    {
      fs_emit_key (emitter, "victims");
      fs_emit_list_open (emitter);
      for (guint i = 0; i < fix->victims->len; i++)
        fs_emit_string (emitter, fix->victims->pdata[i]);
      fs_emit_list_close (emitter);
    }
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
  fs_emit_key (emitter, "effectiveRequest");
  fs_emit_resources (emitter, &pod->spec->request, FALSE);
  fs_emit_key (emitter, "nodes");
  emit_nodes (emitter, snapshot, diagnosis);
  fs_emit_key (emitter, "roomInTotal");
  fs_emit_bool (emitter, diagnosis->room_in_total);
  fs_emit_key (emitter, "freeTotal");
  fs_emit_resources (emitter, &diagnosis->free_total, TRUE);
  fs_emit_key (emitter, "largestFree");
  fs_emit_resources (emitter, &diagnosis->largest_free, TRUE);
  fs_emit_key (emitter, "fixes");
  fs_emit_list_open (emitter);
  for (guint i = 0; i < diagnosis->fixes->len; i++)
    emit_fix (emitter, &g_array_index (diagnosis->fixes, FsFix, i));
  fs_emit_list_close (emitter);
  fs_emit_map_close (emitter);
}
