/* fitscale — the capacity document (see include/fitscale/render/capacity.h). */
#include "config.h"

#include "fitscale/render/capacity.h"

static void
emit_shape (FsEmitter *emitter, const FsShape *shape)
{
  const FsPodShape *pod = fs_shape_pod (shape);
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "from");
  fs_emit_string (emitter, fs_shape_describe (shape));
  fs_emit_key (emitter, "namespace");
  fs_emit_string (emitter, pod->namespace);
  fs_emit_key (emitter, "effectiveRequest");
  fs_emit_resources (emitter, &pod->spec->request, FALSE);
  fs_emit_map_close (emitter);
}

/* Per node: the replicas that fit and were placed, why not more, and by how much. */
static void
emit_nodes (FsEmitter *emitter, const FsSnapshot *snapshot, const FsCapacityAnswer *answer)
{
  fs_emit_list_open (emitter);
  for (guint i = 0; i < answer->n_nodes; i++)
    {
      const FsNodeFit *fit = &answer->nodes[i];
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "name");
      fs_emit_string (emitter, snapshot->nodes[i].name);
      fs_emit_key (emitter, "fits");
      fs_emit_int (emitter, fit->capacity);
      fs_emit_key (emitter, "placed");
      fs_emit_int (emitter, fit->placed);
      fs_emit_key (emitter, "reasons");
      fs_emit_reasons (emitter, &fit->verdict);
      if (fit->verdict.filter == FS_FILTER_NODE_RESOURCES_FIT)
        {
          fs_emit_key (emitter, "short");
          fs_emit_resources (emitter, &fit->verdict.short_by, FALSE);
        }
      fs_emit_map_close (emitter);
    }
  fs_emit_list_close (emitter);
}

static void
emit_fragmentation (FsEmitter *emitter, const FsCapacityAnswer *answer)
{
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "eligibleNodes");
  fs_emit_int (emitter, answer->eligible_nodes);
  fs_emit_key (emitter, "freeTotal");
  fs_emit_resources (emitter, &answer->free_total, TRUE);
  fs_emit_key (emitter, "largestFree");
  fs_emit_resources (emitter, &answer->largest_free, TRUE);
  fs_emit_map_close (emitter);
}

/* New nodes of each existing shape that would hold the rest (null: one cannot hold one). */
static void
emit_nodes_needed (FsEmitter *emitter, const GArray *estimates)
{
  fs_emit_list_open (emitter);
  for (guint i = 0; i < estimates->len; i++)
    {
      const FsNodeShapeEstimate *estimate = &g_array_index (estimates, FsNodeShapeEstimate, i);
      fs_emit_map_open (emitter);
      fs_emit_key (emitter, "shape");
      fs_emit_string (emitter, estimate->shape);
      fs_emit_key (emitter, "existing");
      fs_emit_int (emitter, estimate->existing);
      fs_emit_key (emitter, "perNode");
      fs_emit_int (emitter, estimate->per_node);
      fs_emit_key (emitter, "nodes");
      estimate->per_node > 0 ? fs_emit_int (emitter, estimate->nodes_needed) : fs_emit_null (emitter);
      fs_emit_map_close (emitter);
    }
  fs_emit_list_close (emitter);
}

void
fs_render_capacity (FsEmitter *emitter, const FsSnapshot *snapshot, const FsShape *shape,
                    const FsCapacityAnswer *answer, int64_t replicas)
{
  fs_emit_map_open (emitter);
  fs_emit_key (emitter, "shape");
  emit_shape (emitter, shape);
  fs_emit_key (emitter, "capacity");
  fs_emit_int (emitter, answer->pack.capacity);
  fs_emit_key (emitter, "limitedBy");
  fs_emit_string (emitter, fs_pack_limit_name (answer->pack.limited_by));
  if (replicas >= 0)
    {
      fs_emit_key (emitter, "replicas");
      fs_emit_int (emitter, replicas);
      fs_emit_key (emitter, "fits");
      fs_emit_bool (emitter, answer->pack.pending == 0);
      fs_emit_key (emitter, "placed");
      fs_emit_int (emitter, answer->pack.placed);
      fs_emit_key (emitter, "pending");
      fs_emit_int (emitter, answer->pack.pending);
    }
  fs_emit_key (emitter, "nodes");
  emit_nodes (emitter, snapshot, answer);
  fs_emit_key (emitter, "fragmentation");
  emit_fragmentation (emitter, answer);
  fs_emit_key (emitter, "nodesNeeded");
  emit_nodes_needed (emitter, answer->estimates);
  fs_emit_map_close (emitter);
}
