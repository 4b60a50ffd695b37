/* fitscale — the object builder: its life from object to object, and the records (maps that
 * begin and end inside an object: an owner, a condition, a container, a toleration, a
 * selector ...) it gathers the fields into (see fields.h).  The fields themselves are set in
 * fields.c, the object is made in kinds.c when it ends, its parts are interned in intern.c
 * and its scalars read in scalars.c; the state they share is in builder.h. */
#include "config.h"

#include <string.h>

#include "builder.h"
#include "scalars.h"
#include "fitscale/model/resize.h"

static GArray *
array_of (gsize element_size)
{
  return g_array_new (FALSE, FALSE, element_size);
}

FsObjectBuilder *
fs_object_builder_new (FsSnapshotBuilder *snapshot_builder)
{
  FsObjectBuilder *builder = g_new0 (FsObjectBuilder, 1);
  builder->snapshot_builder = snapshot_builder;
  builder->pool = fs_snapshot_builder_pool (snapshot_builder);
  builder->labels = array_of (sizeof (FsLabel));
  builder->annotations = array_of (sizeof (FsLabel));
  builder->template_labels = array_of (sizeof (FsLabel));
  builder->node_selector = array_of (sizeof (FsLabel));
  builder->taints = array_of (sizeof (FsTaint));
  builder->tolerations = array_of (sizeof (FsToleration));
  builder->containers = array_of (sizeof (FsContainer));
  builder->init_containers = array_of (sizeof (FsContainer));
  builder->node_terms = array_of (sizeof (FsNodeSelectorTerm));
  builder->term_expressions = array_of (sizeof (FsRequirement));
  builder->term_fields = array_of (sizeof (FsRequirement));
  builder->selector_expressions = array_of (sizeof (FsRequirement));
  builder->requirement_values = g_ptr_array_new ();
  builder->selector_labels = array_of (sizeof (FsLabel));
  builder->affinity_terms = array_of (sizeof (FsPodAffinityTerm));
  builder->anti_affinity_terms = array_of (sizeof (FsPodAffinityTerm));
  builder->term_namespaces = g_ptr_array_new ();
  builder->spreads = array_of (sizeof (FsSpreadConstraint));
  builder->spread_label_keys = g_ptr_array_new ();
  builder->usages = array_of (sizeof (FsContainerUsage));
  builder->volumes = array_of (sizeof (FsVolume));
  builder->volume_monitors = g_ptr_array_new ();
  builder->csi_drivers = array_of (sizeof (FsCsiDriver));
  builder->allocations = array_of (sizeof (FsContainerAllocation));
  builder->disrupted_pods = g_ptr_array_new ();
  builder->scheduling_gates = g_ptr_array_new ();
  builder->cond_message = g_string_new (NULL);
  for (guint i = 0; i < STATUS_N_MESSAGES; i++)
    builder->status_message[i] = g_string_new (NULL);
  builder->label_sets = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref, NULL);
  builder->pod_specs = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref, NULL);
  return builder;
}

#define EACH_ARRAY(builder, DO)                                                              \
  DO (builder->labels) DO (builder->annotations) DO (builder->template_labels)              \
  DO (builder->node_selector) DO (builder->taints) DO (builder->tolerations)                \
  DO (builder->containers) DO (builder->init_containers) DO (builder->node_terms)           \
  DO (builder->term_expressions) DO (builder->term_fields) DO (builder->selector_expressions) \
  DO (builder->selector_labels) DO (builder->affinity_terms)                                \
  DO (builder->anti_affinity_terms) DO (builder->spreads) DO (builder->usages)               \
  DO (builder->volumes) DO (builder->csi_drivers) DO (builder->allocations)
#define EACH_PTR_ARRAY(builder, DO)                                                          \
  DO (builder->requirement_values) DO (builder->term_namespaces) DO (builder->spread_label_keys) \
  DO (builder->volume_monitors) DO (builder->disrupted_pods) DO (builder->scheduling_gates)

void
fs_object_builder_free (FsObjectBuilder *builder)
{
  if (builder == NULL)
    return;
#define FREE_ARRAY(array) g_array_unref (array);
#define FREE_PTR_ARRAY(array) g_ptr_array_unref (array);
  EACH_ARRAY (builder, FREE_ARRAY)
  EACH_PTR_ARRAY (builder, FREE_PTR_ARRAY)
  g_string_free (builder->cond_message, TRUE);
  for (guint i = 0; i < STATUS_N_MESSAGES; i++)
    g_string_free (builder->status_message[i], TRUE);
  g_free (builder->raw_labels.data);
  g_hash_table_unref (builder->label_sets);
  g_free (builder->spec_key.data);
  g_free (builder->scratch.data);
  g_free (builder->ports.data);
  g_free (builder->host_ports.data);
  g_free (builder->previous_labels.data);
  g_free (builder->previous_spec_key.data);
  g_hash_table_unref (builder->pod_specs);
  g_free (builder);
}

void
fs_object_begin (FsObjectBuilder *builder, const char *inherited_kind)
{
#define TRUNCATE(array) if (array->len > 0) g_array_set_size (array, 0);
#define TRUNCATE_PTR(array) if (array->len > 0) g_ptr_array_set_size (array, 0);
  EACH_ARRAY (builder, TRUNCATE)
  EACH_PTR_ARRAY (builder, TRUNCATE_PTR)
  memset (&builder->st, 0, sizeof builder->st);
  for (guint i = 0; i < STATUS_N_MESSAGES; i++)
    g_string_truncate (builder->status_message[i], 0);
  builder->raw_labels.len = 0;
  builder->ports.len = 0;
  if (inherited_kind != NULL)
    g_strlcpy (builder->st.inherited_kind, inherited_kind, sizeof builder->st.inherited_kind);
}

const char *
fs_object_describe (FsObjectBuilder *builder)
{
  const char *kind = fs_object_kind (builder);
  const ObjectState *st = &builder->st;
  if (st->name == NULL)
    g_strlcpy (builder->description, kind != NULL ? kind : "", sizeof builder->description);
  else
    g_snprintf (builder->description, sizeof builder->description, "%s %s%s%s",
                kind != NULL ? kind : "object", st->namespace != NULL ? st->namespace : "",
                st->namespace != NULL ? "/" : "", st->name);
  return builder->description;
}

/* ---- records ----------------------------------------------------------------------- */

void
fs_object_record_begin (FsObjectBuilder *builder, FsRecord record)
{
  ObjectState *st = &builder->st;
  switch (record)
    {
    case R_OWNER:
      memset (&st->current_owner, 0, sizeof st->current_owner);
      break;
    case R_CONDITION:
      st->cond_type[0] = st->cond_status[0] = st->cond_reason[0] = st->cond_time[0] = '\0';
      g_string_truncate (builder->cond_message, 0);
      break;
    case R_TAINT:
      memset (&st->current_taint, 0, sizeof st->current_taint);
      break;
    case R_TOLERATION:
      memset (&st->current_toleration, 0, sizeof st->current_toleration);
      break;
    case R_CONTAINER:
    case R_INIT_CONTAINER:
      memset (&st->current_container, 0, sizeof st->current_container);
      st->container_first_port = builder->ports.len;
      break;
    case R_PORT:
    case R_INIT_PORT:
      memset (&st->current_port, 0, sizeof st->current_port);
      st->current_port.init = record == R_INIT_PORT;
      break;
    case R_REQUIRED_AFFINITY:
      st->has_required_affinity = TRUE;
      break;
    case R_NODE_TERM:
      g_array_set_size (builder->term_expressions, 0);
      g_array_set_size (builder->term_fields, 0);
      break;
    case R_REQ_NODE_EXPR:
    case R_REQ_NODE_FIELD:
    case R_REQ_SEL:
      memset (&st->current_requirement, 0, sizeof st->current_requirement);
      g_ptr_array_set_size (builder->requirement_values, 0);
      break;
    case R_AFFINITY_TERM:
    case R_ANTI_AFFINITY_TERM:
      memset (&st->current_term, 0, sizeof st->current_term);
      g_ptr_array_set_size (builder->term_namespaces, 0);
      break;
    case R_SPREAD:
      memset (&st->current_spread, 0, sizeof st->current_spread);
      g_ptr_array_set_size (builder->spread_label_keys, 0);
      break;
    case R_SEL_WORKLOAD:
    case R_SEL_TERM:
    case R_SEL_TERM_NS:
    case R_SEL_SPREAD:
      g_array_set_size (builder->selector_labels, 0);
      g_array_set_size (builder->selector_expressions, 0);
      break;
    case R_USAGE_CONTAINER:
      memset (&st->current_usage, 0, sizeof st->current_usage);
      break;
    case R_VOLUME:
      memset (&st->current_volume, 0, sizeof st->current_volume);
      g_ptr_array_set_size (builder->volume_monitors, 0);
      break;
    case R_VOL_CLAIM:
    case R_VOL_EPHEMERAL:
    case R_VOL_GCE:
    case R_VOL_EBS:
    case R_VOL_RBD:
    case R_VOL_ISCSI:
      {
        static const FsVolumeType types[] = {
          [R_VOL_CLAIM - R_VOL_CLAIM] = FS_VOLUME_CLAIM,
          [R_VOL_EPHEMERAL - R_VOL_CLAIM] = FS_VOLUME_EPHEMERAL,
          [R_VOL_GCE - R_VOL_CLAIM] = FS_VOLUME_GCE_PD,
          [R_VOL_EBS - R_VOL_CLAIM] = FS_VOLUME_AWS_EBS,
          [R_VOL_RBD - R_VOL_CLAIM] = FS_VOLUME_RBD,
          [R_VOL_ISCSI - R_VOL_CLAIM] = FS_VOLUME_ISCSI,
        };
        st->current_volume.type = types[record - R_VOL_CLAIM];
        break;
      }
    case R_CSI_DRIVER:
      memset (&st->current_csi_driver, 0, sizeof st->current_csi_driver);
      break;
    case R_CTR_STATUS:
    case R_INIT_CTR_STATUS:
      memset (&st->current_status, 0, sizeof st->current_status);
      g_string_truncate (builder->status_message[STATUS_MESSAGE_CURRENT], 0);
      st->allocation_read = FALSE;
      break;
    case R_CS_ALLOCATED:
    case R_CS_ACTUATED:
      if (!st->allocation_read)
        {
          memset (&builder->allocation, 0, sizeof builder->allocation);
          st->allocation_read = TRUE;
        }
      if (record == R_CS_ALLOCATED)
        builder->allocation.has_allocated = TRUE;
      else
        builder->allocation.has_actuated = TRUE;
      break;
    case R_RESIZE_POLICY:
      st->current_policy_resource = 0;
      st->current_policy_restart = FALSE;
      break;
    case R_RESOURCE_CLAIM:
    case R_CTR_CLAIM:
    case R_OBJECT:
    case R_NONE:
    case R_N_RECORDS:
    default:
      break;
    }
}

/* The conditions the kubelet writes that say how far a bound pod got
 * (pkg/kubelet/status/generate.go): PodReadyToStartContainers, Initialized, ContainersReady. */
static guint8 *
kubelet_condition (ObjectState *st)
{
  if (strcmp (st->cond_type, "PodReadyToStartContainers") == 0)
    return &st->ready_to_start;
  if (strcmp (st->cond_type, "Initialized") == 0)
    return &st->initialized;
  if (strcmp (st->cond_type, "ContainersReady") == 0)
    return &st->containers_ready;
  return NULL;
}

/* What one condition says, by type (Ready for nodes and pods, PodScheduled for pods). */
static gboolean
condition_end (FsObjectBuilder *builder, GError **error)
{
  ObjectState *st = &builder->st;
  gboolean is_true = strcmp (st->cond_status, "True") == 0;
  guint8 *kubelet = kubelet_condition (st);
  if (kubelet != NULL)
    *kubelet = is_true ? FS_CONDITION_TRUE : FS_CONDITION_FALSE;
  if (strcmp (st->cond_type, "Ready") == 0)
    {
      st->ready_known = TRUE;
      st->ready = is_true;
      FsScalar time = { FS_SCALAR_STRING, st->cond_time, strlen (st->cond_time) };
      if (time.len > 0 && !fs_scalar_time (&time, &st->ready_time, error))
        {
          g_prefix_error (error, "Ready condition lastTransitionTime: ");
          return FALSE;
        }
    }
  else if (strcmp (st->cond_type, "PodScheduled") == 0)
    {
      st->scheduled_true = is_true;
      FsScalar time = { FS_SCALAR_STRING, st->cond_time, strlen (st->cond_time) };
      if (is_true && time.len > 0 && !fs_scalar_time (&time, &st->scheduled_time, error))
        {
          g_prefix_error (error, "PodScheduled condition lastTransitionTime: ");
          return FALSE;
        }
      if (!is_true && strcmp (st->cond_reason, "Unschedulable") == 0)
        {
          st->unschedulable_cond = TRUE;
          st->scheduled_message = builder->cond_message->len > 0
                                      ? fs_pool_intern (builder->pool, builder->cond_message->str,
                                                        builder->cond_message->len)
                                      : NULL;
        }
    }
  else if (memcmp (st->cond_type, "PodResize", 9) == 0
           && (strcmp (st->cond_type + 9, "Pending") == 0 || strcmp (st->cond_type + 9, "InProgress") == 0))
    {
      /* pkg/kubelet/status/status_manager.go SetPodResizePendingCondition (reason Deferred or
       * Infeasible) and SetPodResizeInProgressCondition (reason "" or Error); Pending wins */
      gboolean pending = st->cond_type[9] == 'P';
      if (!is_true || (!pending && st->resize_state >= FS_RESIZE_DEFERRED))
        return TRUE;
      st->resize_state = pending ? fs_resize_state_parse (st->cond_reason) : FS_RESIZE_IN_PROGRESS;
      if (pending && st->resize_state == FS_RESIZE_NONE)
        st->resize_state = FS_RESIZE_PROPOSED;
      st->resize_message = builder->cond_message->len > 0
                               ? fs_pool_intern (builder->pool, builder->cond_message->str,
                                                 builder->cond_message->len)
                               : NULL;
      FsScalar time = { FS_SCALAR_STRING, st->cond_time, strlen (st->cond_time) };
      if (pending && time.len > 0 && !fs_scalar_time (&time, &st->resize_pending_since, error))
        {
          g_prefix_error (error, "PodResizePending condition lastTransitionTime: ");
          return FALSE;
        }
    }
  else if (strcmp (st->cond_type, "DisruptionTarget") == 0)
    /* the condition preemption sets on its victims (preemption.go, PreemptPod) */
    st->preempted = is_true && strcmp (st->cond_reason, "PreemptionByScheduler") == 0;
  return TRUE;
}

static gboolean
requirement_end (FsObjectBuilder *builder, FsRecord record, GError **error)
{
  FsRequirement *requirement = &builder->st.current_requirement;
  if (requirement->key == NULL)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "a requirement without a key");
      return FALSE;
    }
  if (record == R_REQ_SEL && (requirement->op == FS_OP_GT || requirement->op == FS_OP_LT))
    {
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID,
                   "label selector %s: Gt and Lt are for node selectors only", requirement->key);
      return FALSE;
    }
  requirement->values = fs_intern_strings (builder, builder->requirement_values,
                                        &requirement->n_values);
  GArray *target = record == R_REQ_NODE_EXPR    ? builder->term_expressions
                   : record == R_REQ_NODE_FIELD ? builder->term_fields
                                                : builder->selector_expressions;
  g_array_append_val (target, *requirement);
  return TRUE;
}

static void
selector_end (FsObjectBuilder *builder, FsRecord record)
{
  const FsLabelSelector *selector = fs_intern_selector (builder);
  ObjectState *st = &builder->st;
  if (record == R_SEL_WORKLOAD)
    st->workload_selector = selector;
  else if (record == R_SEL_TERM)
    st->current_term.label_selector = selector;
  else if (record == R_SEL_TERM_NS)
    st->current_term.namespace_selector = selector;
  else
    st->current_spread.label_selector = selector;
}

/* One entry of spec.volumes: kept when it is of a type the volume filters read (the API's
 * defaulting gives an rbd volume the pool "rbd", SetDefaults_RBDVolumeSource). */
static gboolean
volume_end (FsObjectBuilder *builder, GError **error)
{
  FsVolume *volume = &builder->st.current_volume;
  if (volume->type == 0)
    return TRUE;
  if (volume->type == FS_VOLUME_CLAIM && (volume->id == NULL || volume->id[0] == '\0'))
    {
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID,
                   "volume %s: field persistentVolumeClaim.claimName: missing",
                   volume->name != NULL ? volume->name : "(no name)");
      return FALSE;
    }
  if (volume->type == FS_VOLUME_EPHEMERAL && volume->name == NULL)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "an ephemeral volume without a name");
      return FALSE;
    }
  if (volume->type == FS_VOLUME_RBD && volume->pool == NULL)
    volume->pool = fs_pool_intern (builder->pool, "rbd", 3);
  volume->monitors = fs_intern_strings (builder, builder->volume_monitors, &volume->n_monitors);
  g_array_append_val (builder->volumes, *volume);
  return TRUE;
}

/* Keeps the container status just read when it is the one the pod waits on: for init
 * containers (which run one by one) the first waiting or failed one, else the first running
 * one; for containers the first waiting or terminated one. */
static void
container_status_end (FsObjectBuilder *builder, FsRecord record)
{
  ObjectState *st = &builder->st;
  const FsContainerStatus *current = &st->current_status;
  gboolean stuck = current->state == FS_CONTAINER_WAITING
                   || (current->state == FS_CONTAINER_TERMINATED && current->exit_code != 0);
  FsContainerStatus *kept;
  StatusMessage message;
  if (record == R_INIT_CTR_STATUS)
    {
      kept = &st->init_status;
      message = STATUS_MESSAGE_INIT;
      gboolean running = current->state == FS_CONTAINER_RUNNING;
      if (!(stuck && (kept->name == NULL || kept->state == FS_CONTAINER_RUNNING))
          && !(running && kept->name == NULL))
        return;
    }
  else
    {
      if (current->state == FS_CONTAINER_RUNNING && st->running < G_MAXUINT8)
        st->running++;
      kept = &st->container_status;
      message = STATUS_MESSAGE_CONTAINER;
      if (kept->name != NULL
          || (current->state != FS_CONTAINER_WAITING && current->state != FS_CONTAINER_TERMINATED))
        return;
    }
  *kept = *current;
  g_string_assign (builder->status_message[message], builder->status_message[STATUS_MESSAGE_CURRENT]->str);
}

gboolean
fs_object_record_end (FsObjectBuilder *builder, FsRecord record, GError **error)
{
  ObjectState *st = &builder->st;
  switch (record)
    {
    case R_OWNER:
      if (!st->has_owner || (st->current_owner.controller && !st->owner_is_controller))
        {
          st->owner = st->current_owner;
          st->has_owner = TRUE;
          st->owner_is_controller = st->current_owner.controller;
        }
      return TRUE;
    case R_CONDITION:
      return condition_end (builder, error);
    case R_TAINT:
      g_array_append_val (builder->taints, st->current_taint);
      return TRUE;
    case R_TOLERATION:
      g_array_append_val (builder->tolerations, st->current_toleration);
      return TRUE;
    case R_CONTAINER:
      g_array_append_val (builder->containers, st->current_container);
      return TRUE;
    case R_INIT_CONTAINER:
      /* its restartPolicy may come after its ports */
      for (gsize at = st->container_first_port; at < builder->ports.len; at += sizeof (FsContainerPort))
        ((FsContainerPort *) (gpointer) (builder->ports.data + at))->restartable
            = st->current_container.restartable;
      g_array_append_val (builder->init_containers, st->current_container);
      return TRUE;
    case R_PORT:
    case R_INIT_PORT:
      st->any_host_port = st->any_host_port || st->current_port.host_port > 0;
      bytes_put (&builder->ports, &st->current_port, sizeof st->current_port);
      return TRUE;
    case R_NODE_TERM:
      {
        FsNodeSelectorTerm term;
        memset (&term, 0, sizeof term);
        term.match_expressions = INTERN_LIST (builder, builder->term_expressions, FsRequirementList);
        term.match_fields = INTERN_LIST (builder, builder->term_fields, FsRequirementList);
        g_array_append_val (builder->node_terms, term);
        return TRUE;
      }
    case R_REQ_NODE_EXPR:
    case R_REQ_NODE_FIELD:
    case R_REQ_SEL:
      return requirement_end (builder, record, error);
    case R_AFFINITY_TERM:
    case R_ANTI_AFFINITY_TERM:
      st->current_term.namespaces = fs_intern_strings (builder, builder->term_namespaces,
                                                    &st->current_term.n_namespaces);
      g_array_append_val (record == R_AFFINITY_TERM ? builder->affinity_terms
                                                    : builder->anti_affinity_terms,
                          st->current_term);
      return TRUE;
    case R_SPREAD:
      st->current_spread.match_label_keys = fs_intern_strings (builder, builder->spread_label_keys,
                                                            &st->current_spread.n_match_label_keys);
      g_array_append_val (builder->spreads, st->current_spread);
      return TRUE;
    case R_SEL_WORKLOAD:
    case R_SEL_TERM:
    case R_SEL_TERM_NS:
    case R_SEL_SPREAD:
      selector_end (builder, record);
      return TRUE;
    case R_USAGE_CONTAINER:
      g_array_append_val (builder->usages, st->current_usage);
      return TRUE;
    case R_VOLUME:
      return volume_end (builder, error);
    case R_CSI_DRIVER:
      if (st->current_csi_driver.name == NULL)
        {
          g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "field spec.drivers[].name: missing");
          return FALSE;
        }
      g_array_append_val (builder->csi_drivers, st->current_csi_driver);
      return TRUE;
    case R_VOL_CLAIM:
    case R_VOL_EPHEMERAL:
    case R_VOL_GCE:
    case R_VOL_EBS:
    case R_VOL_RBD:
    case R_VOL_ISCSI:
      return TRUE;
    case R_CTR_STATUS:
    case R_INIT_CTR_STATUS:
      container_status_end (builder, record);
      if (st->allocation_read)
        {
          builder->allocation.name = st->current_status.name;
          g_array_append_val (builder->allocations, builder->allocation);
        }
      return TRUE;
    case R_RESIZE_POLICY:
      if (st->current_policy_restart)
        st->current_container.resize_restart |= st->current_policy_resource;
      return TRUE;
    case R_CS_ALLOCATED:
    case R_CS_ACTUATED:
      return TRUE;
    case R_RESOURCE_CLAIM:
      st->n_resource_claims++;
      return TRUE;
    case R_CTR_CLAIM:
      st->n_container_claims++;
      return TRUE;
    case R_REQUIRED_AFFINITY:
    case R_OBJECT:
    case R_NONE:
    case R_N_RECORDS:
    default:
      return TRUE;
    }
}
