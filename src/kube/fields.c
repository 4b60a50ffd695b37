/* fitscale — the field handlers: what each scalar the decoder hands over sets in the object
 * being read, by the kind that has the field (every object, Node, pod spec, Pod, workloads,
 * PodMetrics, Event and PodDisruptionBudget).  This is the per-scalar path: the handlers and the small readers
 * they call are inlined into fs_object_scalar. */
#include "config.h"

#include <string.h>

#include "builder.h"
#include "scalars.h"
#include "fitscale/model/quantity.h"
#include "fitscale/model/resize.h"
#include "fitscale/model/timeutil.h"

static void
label_append (FsObjectBuilder *builder, GArray *labels, const char *key, const FsScalar *scalar)
{
  FsLabel label = { fs_pool_intern (builder->pool, key, strlen (key)),
                    fs_pool_intern (builder->pool, scalar->text, scalar->len) };
  g_array_append_val (labels, label);
}

/* The annotations of claims and volumes the volume binder reads
 * (component-helpers/storage/volume helpers.go: AnnBindCompleted, AnnSelectedNode,
 * AnnStorageClass via GetPersistentVolumeClaimClass and GetPersistentVolumeClass). */
static void
storage_annotation (FsObjectBuilder *builder, const char *key, const FsScalar *scalar)
{
  ObjectState *st = &builder->st;
  if (strcmp (key, "pv.kubernetes.io/bind-completed") == 0)
    st->ann_bind_completed = TRUE;
  else if (strcmp (key, "volume.kubernetes.io/selected-node") == 0)
    st->ann_selected_node = fs_pool_intern (builder->pool, scalar->text, scalar->len);
  else if (strcmp (key, "volume.beta.kubernetes.io/storage-class") == 0)
    st->ann_beta_class = fs_pool_intern (builder->pool, scalar->text, scalar->len);
}

static gboolean
metadata_scalar (FsObjectBuilder *builder, FsField field, const char *key,
                 const FsScalar *scalar, GError **error)
{
  ObjectState *st = &builder->st;
  switch (field)
    {
    case F_KIND:
      return fs_scalar_copy (scalar, st->kind, sizeof st->kind, error);
    case F_API_VERSION:
      return fs_scalar_copy (scalar, st->api_version, sizeof st->api_version, error);
    case F_NAME:
      st->name = fs_pool_strdup (builder->pool, scalar->text, scalar->len);
      return TRUE;
    case F_NAMESPACE:
      st->namespace = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_RESOURCE_VERSION:
      if (scalar->len < sizeof st->resource_version)
        {
          memcpy (st->resource_version, scalar->text, scalar->len);
          st->resource_version[scalar->len] = '\0';
        }
      return TRUE;
    case F_CONTINUE: /* a list's: where its next page starts */
      fs_snapshot_builder_set_continue (builder->snapshot_builder, scalar->text, scalar->len);
      return TRUE;
    case F_SELF_LINK: /* "/api/v1/namespaces/NS/pods": a list of one namespace */
      {
        g_autofree char *link = g_strndup (scalar->text, scalar->len);
        const char *at = strstr (link, "/namespaces/");
        const char *end = at != NULL ? strchr (at + strlen ("/namespaces/"), '/') : NULL;
        if (end != NULL)
          {
            const char *ns = at + strlen ("/namespaces/");
            st->self_link_namespace = fs_pool_intern (builder->pool, ns, (gsize) (end - ns));
          }
        return TRUE;
      }
    case F_CREATION_TIME:
      return fs_scalar_time (scalar, &st->creation_time, error);
    case F_DELETION_TIME:
      st->terminating = TRUE;
      return TRUE;
    case F_LABEL:
      /* kept raw: the pods of one ReplicaSet share one label set, found by these bytes */
      if (memchr (scalar->text, '\0', scalar->len) != NULL)
        {
          g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "a label value holds a NUL character");
          return FALSE;
        }
      bytes_put (&builder->raw_labels, key, strlen (key) + 1);
      bytes_put (&builder->raw_labels, scalar->text, scalar->len);
      bytes_put (&builder->raw_labels, "", 1);
      return TRUE;
    case F_ANNOTATION:
      {
        /* Kept for generic objects only (and of workloads, fitscale.io/admission); the
         * last-applied copy of the object is not. */
        const char *kind = object_kind (builder);
        storage_annotation (builder, key, scalar);
        if (strcmp (key, FS_SNAPSHOT_SCOPE_ANNOTATION) == 0)
          {
            /* a fitscale snapshot's List: "" every namespace, else the one it was taken of */
            st->all_namespaces = scalar->len == 0;
            st->self_link_namespace = scalar->len > 0 ? fs_pool_intern (builder->pool, scalar->text, scalar->len)
                                                      : NULL;
          }
        if (strcmp (key, "fitscale.io/admission") == 0)
          st->admission = scalar_intern (builder, field, scalar);
        if ((kind == NULL || kind_is_generic (kind))
            && strcmp (key, "kubectl.kubernetes.io/last-applied-configuration") != 0)
          label_append (builder, builder->annotations, key, scalar);
        return TRUE;
      }
    case F_OWNER_KIND:
      st->current_owner.kind = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_OWNER_NAME:
      st->current_owner.name = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_OWNER_API_VERSION:
      st->current_owner.api_version = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_OWNER_CONTROLLER:
      return fs_scalar_bool (scalar, &st->current_owner.controller, error);
    case F_COND_TYPE:
      return fs_scalar_copy (scalar, st->cond_type, sizeof st->cond_type, error);
    case F_COND_STATUS:
      return fs_scalar_copy (scalar, st->cond_status, sizeof st->cond_status, error);
    case F_COND_REASON:
      /* a longer reason is no reason fitscale reads: keep its first 63 bytes */
      memcpy (st->cond_reason, scalar->text, MIN (scalar->len, sizeof st->cond_reason - 1));
      st->cond_reason[MIN (scalar->len, sizeof st->cond_reason - 1)] = '\0';
      return TRUE;
    case F_COND_MESSAGE:
      g_string_truncate (builder->cond_message, 0);
      g_string_append_len (builder->cond_message, scalar->text, (gssize) scalar->len);
      return TRUE;
    case F_COND_TIME:
      if (scalar->type != FS_SCALAR_STRING)
        return fs_scalar_type_error (scalar, "an RFC 3339 time", error);
      return fs_scalar_copy (scalar, st->cond_time, sizeof st->cond_time, error);
    default:
      g_assert_not_reached ();
    }
}

static gboolean
node_scalar (FsObjectBuilder *builder, FsField field, const char *key, const FsScalar *scalar,
             GError **error)
{
  ObjectState *st = &builder->st;
  switch (field)
    {
    case F_UNSCHEDULABLE:
      return fs_scalar_bool (scalar, &st->node_unschedulable, error);
    case F_TAINT_KEY:
      st->current_taint.key = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_TAINT_VALUE:
      st->current_taint.value = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_TAINT_EFFECT:
      return fs_scalar_effect (scalar, FALSE, &st->current_taint.effect, error);
    case F_ALLOCATABLE:
      return fs_scalar_resource (builder->pool, &st->allocatable, key, scalar, error);
    case F_CAPACITY:
      return fs_scalar_resource (builder->pool, &st->capacity, key, scalar, error);
    default:
      g_assert_not_reached ();
    }
}

static gboolean
toleration_scalar (FsObjectBuilder *builder, FsField field, const FsScalar *scalar,
                   GError **error)
{
  FsToleration *toleration = &builder->st.current_toleration;
  switch (field)
    {
    case F_TOL_KEY:
      toleration->key = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_TOL_VALUE:
      toleration->value = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_TOL_OP:
      if (fs_scalar_equals (scalar, "Exists"))
        toleration->op = FS_TOLERATION_EXISTS;
      else if (fs_scalar_equals (scalar, "Equal") || scalar->len == 0)
        toleration->op = FS_TOLERATION_EQUAL;
      else
        {
          g_set_error (error, FS_ERROR, FS_ERROR_INVALID,
                       "\"%.*s\" is not a toleration operator (Equal, Exists)",
                       (int) MIN (scalar->len, 40), scalar->text);
          return FALSE;
        }
      return TRUE;
    case F_TOL_EFFECT:
      return fs_scalar_effect (scalar, TRUE, &toleration->effect, error);
    case F_TOL_SECONDS:
      toleration->has_seconds = TRUE;
      return fs_scalar_int (scalar, G_MININT64, G_MAXINT64, &toleration->toleration_seconds, error);
    default:
      g_assert_not_reached ();
    }
}

static gboolean
container_scalar (FsObjectBuilder *builder, FsField field, const char *key,
                  const FsScalar *scalar, GError **error)
{
  ObjectState *st = &builder->st;
  FsContainer *container = &st->current_container;
  switch (field)
    {
    case F_CTR_NAME:
      container->name = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_CTR_RESTART_POLICY:
      container->restartable = fs_scalar_equals (scalar, "Always");
      return TRUE;
    case F_CTR_REQUEST:
      return fs_scalar_resource (builder->pool, &container->requests, key, scalar, error);
    case F_CTR_LIMIT:
      return fs_scalar_resource (builder->pool, &container->limits, key, scalar, error);
    case F_RP_RESOURCE: /* core/v1 ContainerResizePolicy: cpu or memory */
      st->current_policy_resource = fs_scalar_equals (scalar, "cpu")      ? FS_RES_CPU
                                    : fs_scalar_equals (scalar, "memory") ? FS_RES_MEMORY : 0;
      return TRUE;
    case F_RP_RESTART: /* NotRequired (the default) or RestartContainer */
      st->current_policy_restart = fs_scalar_equals (scalar, "RestartContainer");
      return TRUE;
    case F_PORT_HOST_PORT:
      return fs_scalar_int32 (scalar, 0, &st->current_port.host_port, error);
    case F_PORT_CONTAINER_PORT:
      return fs_scalar_int32 (scalar, 0, &st->current_port.container_port, error);
    case F_PORT_PROTOCOL:
      st->current_port.protocol = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_PORT_HOST_IP:
      st->current_port.host_ip = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_POD_REQUEST:
      st->has_pod_level = TRUE;
      return fs_scalar_resource (builder->pool, &st->pod_level, key, scalar, error);
    case F_OVERHEAD:
      st->has_overhead = TRUE;
      return fs_scalar_resource (builder->pool, &st->overhead, key, scalar, error);
    default:
      g_assert_not_reached ();
    }
}

static gboolean
affinity_scalar (FsObjectBuilder *builder, FsField field, const char *key,
                 const FsScalar *scalar, GError **error)
{
  ObjectState *st = &builder->st;
  FsSpreadConstraint *spread = &st->current_spread;
  switch (field)
    {
    case F_REQ_KEY:
      st->current_requirement.key = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_REQ_OP:
      /* the node-selector operators are checked when the requirement ends */
      return fs_scalar_selector_op (scalar, TRUE, &st->current_requirement.op, error);
    case F_REQ_VALUE:
      g_ptr_array_add (builder->requirement_values, (gpointer) scalar_intern (builder, field, scalar));
      return TRUE;
    case F_SEL_LABEL:
      label_append (builder, builder->selector_labels, key, scalar);
      return TRUE;
    case F_TERM_TOPOLOGY_KEY:
      st->current_term.topology_key = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_TERM_NAMESPACE:
      g_ptr_array_add (builder->term_namespaces, (gpointer) scalar_intern (builder, field, scalar));
      return TRUE;
    case F_SPREAD_MAX_SKEW:
      return fs_scalar_int32 (scalar, 1, &spread->max_skew, error);
    case F_SPREAD_TOPOLOGY_KEY:
      spread->topology_key = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_SPREAD_WHEN:
      if (fs_scalar_equals (scalar, "ScheduleAnyway"))
        spread->when_unsatisfiable = FS_SPREAD_SCHEDULE_ANYWAY;
      else if (fs_scalar_equals (scalar, "DoNotSchedule"))
        spread->when_unsatisfiable = FS_SPREAD_DO_NOT_SCHEDULE;
      else
        {
          g_set_error (error, FS_ERROR, FS_ERROR_INVALID,
                       "\"%.*s\" is not DoNotSchedule or ScheduleAnyway",
                       (int) MIN (scalar->len, 40), scalar->text);
          return FALSE;
        }
      return TRUE;
    case F_SPREAD_MIN_DOMAINS:
      return fs_scalar_int32 (scalar, 1, &spread->min_domains, error);
    case F_SPREAD_AFFINITY_POLICY:
      return fs_scalar_policy (scalar, &spread->node_affinity_policy, error);
    case F_SPREAD_TAINTS_POLICY:
      return fs_scalar_policy (scalar, &spread->node_taints_policy, error);
    case F_SPREAD_LABEL_KEY:
      g_ptr_array_add (builder->spread_label_keys, (gpointer) scalar_intern (builder, field, scalar));
      return TRUE;
    default:
      g_assert_not_reached ();
    }
}

static gboolean
pod_scalar (FsObjectBuilder *builder, FsField field, const char *key, const FsScalar *scalar,
            GError **error)
{
  ObjectState *st = &builder->st;
  switch (field)
    {
    case F_NODE_NAME:
      st->node_name = scalar->len > 0 ? scalar_intern (builder, field, scalar) : NULL;
      return TRUE;
    case F_PRIORITY:
      return fs_scalar_int32 (scalar, G_MININT32, &st->priority, error);
    case F_PRIORITY_CLASS:
      st->priority_class = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_SCHEDULER_NAME:
      st->scheduler_name = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_PREEMPTION_POLICY:
      st->preempt_never = fs_scalar_equals (scalar, "Never");
      return TRUE;
    case F_RUNTIME_CLASS:
      st->runtime_class = scalar->len > 0 ? scalar_intern (builder, field, scalar) : NULL;
      return TRUE;
    case F_SCHEDULING_GATE:
      g_ptr_array_add (builder->scheduling_gates, (gpointer) scalar_intern (builder, field, scalar));
      return TRUE;
    case F_HOST_NETWORK:
      return fs_scalar_bool (scalar, &st->host_network, error);
    case F_NODE_SELECTOR:
      label_append (builder, builder->node_selector, key, scalar);
      return TRUE;
    case F_PHASE:
      st->phase = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_START_TIME:
      return fs_scalar_time (scalar, &st->start_time, error);
    case F_NOMINATED_NODE:
      st->nominated_node = scalar_intern (builder, field, scalar);
      return TRUE;
    default:
      g_assert_not_reached ();
    }
}

static gboolean
workload_scalar (FsObjectBuilder *builder, FsField field, const char *key,
                 const FsScalar *scalar, GError **error)
{
  ObjectState *st = &builder->st;
  switch (field)
    {
    case F_REPLICAS:
      st->has_replicas = TRUE;
      return fs_scalar_int32 (scalar, 0, &st->replicas, error);
    case F_STRATEGY_TYPE:
      st->strategy = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_MAX_SURGE:
      return fs_scalar_int_or_percent (scalar, &st->max_surge, error);
    case F_MAX_UNAVAILABLE:
      return fs_scalar_int_or_percent (scalar, &st->max_unavailable, error);
    case F_STATUS_REPLICAS:
      return fs_scalar_int32 (scalar, 0, &st->status_replicas, error);
    case F_STATUS_READY:
      return fs_scalar_int32 (scalar, 0, &st->ready_replicas, error);
    case F_TEMPLATE_LABEL:
      label_append (builder, builder->template_labels, key, scalar);
      return TRUE;
    default:
      g_assert_not_reached ();
    }
}

static gboolean
metrics_event_scalar (FsObjectBuilder *builder, FsField field, const char *key,
                      const FsScalar *scalar, GError **error)
{
  ObjectState *st = &builder->st;
  switch (field)
    {
    case F_TIMESTAMP:
      return fs_scalar_time (scalar, &st->timestamp, error);
    case F_WINDOW:
      if (scalar->type == FS_SCALAR_STRING
          && fs_duration_parse (scalar->text, scalar->len, &st->window_ms))
        return TRUE;
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "\"%.*s\" is not a duration like \"30s\"",
                   (int) MIN (scalar->len, 40), scalar->text);
      return FALSE;
    case F_USAGE_NAME:
      st->current_usage.name = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_USAGE:
      return fs_scalar_resource (builder->pool, &st->current_usage.usage, key, scalar, error);
    case F_EV_KIND:
      st->ev_kind = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_EV_NAMESPACE:
      st->ev_namespace = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_EV_NAME:
      st->ev_name = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_EV_REASON:
      st->ev_reason = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_EV_MESSAGE:
      st->ev_message = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_EV_TYPE:
      st->ev_type = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_EV_SOURCE:
    case F_EV_REPORTER:
      if (st->ev_source == NULL || field == F_EV_SOURCE)
        st->ev_source = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_EV_COUNT:
      return fs_scalar_int32 (scalar, 0, &st->ev_count, error);
    case F_EV_LAST_TIME:
      return fs_scalar_time (scalar, &st->ev_last, error);
    case F_EV_EVENT_TIME:
      return fs_scalar_time (scalar, &st->ev_event_time, error);
    case F_EV_FIRST_TIME:
      return fs_scalar_time (scalar, &st->ev_first, error);
    default:
      g_assert_not_reached ();
    }
}

/* core/v1 PersistentVolumeAccessMode. */
static gboolean
access_mode (const FsScalar *scalar, guint32 *modes, GError **error)
{
  static const struct { const char *name; guint32 bit; } names[] = {
    { "ReadWriteOnce", FS_ACCESS_RWO }, { "ReadOnlyMany", FS_ACCESS_ROX },
    { "ReadWriteMany", FS_ACCESS_RWX }, { "ReadWriteOncePod", FS_ACCESS_RWOP },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    if (fs_scalar_equals (scalar, names[i].name))
      {
        *modes |= names[i].bit;
        return TRUE;
      }
  g_set_error (error, FS_ERROR, FS_ERROR_INVALID,
               "\"%.*s\" is not an access mode (ReadWriteOnce, ReadOnlyMany, ReadWriteMany, "
               "ReadWriteOncePod)", (int) MIN (scalar->len, 40), scalar->text);
  return FALSE;
}

static gboolean
storage_scalar (FsObjectBuilder *builder, FsField field, const FsScalar *scalar, GError **error)
{
  ObjectState *st = &builder->st;
  FsVolume *volume = &st->current_volume;
  switch (field)
    {
    case F_VOL_NAME:
      volume->name = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_VOL_ID:
      volume->id = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_VOL_READ_ONLY:
      return fs_scalar_bool (scalar, &volume->read_only, error);
    case F_VOL_POOL:
      volume->pool = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_VOL_MONITOR:
      g_ptr_array_add (builder->volume_monitors, (gpointer) scalar_intern (builder, field, scalar));
      return TRUE;
    case F_ST_VOLUME_NAME:
      st->volume_name = scalar->len > 0 ? scalar_intern (builder, field, scalar) : NULL;
      return TRUE;
    case F_ST_CLASS:
      st->has_storage_class = TRUE;
      st->storage_class = scalar->len > 0 ? scalar_intern (builder, field, scalar) : NULL;
      return TRUE;
    case F_ST_ACCESS_MODE:
      return access_mode (scalar, &st->access_modes, error);
    case F_ST_VOLUME_MODE:
      st->block = fs_scalar_equals (scalar, "Block");
      return TRUE;
    case F_ST_STORAGE:
      if (scalar->type != FS_SCALAR_STRING && scalar->type != FS_SCALAR_NUMBER)
        return fs_scalar_type_error (scalar, "a quantity", error);
      return fs_quantity_parse_value (scalar->text, scalar->len, &st->storage_bytes, error);
    case F_ST_CLAIM_NAMESPACE:
      st->claim_namespace = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_ST_CLAIM_NAME:
      st->claim_name = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_ST_CSI_DRIVER:
      st->csi_driver = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_ST_CSI_HANDLE:
      st->csi_handle = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_SC_PROVISIONER:
      st->provisioner = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_SC_BINDING_MODE:
      st->has_binding_mode = TRUE;
      st->wait_for_first_consumer = fs_scalar_equals (scalar, "WaitForFirstConsumer");
      return TRUE;
    case F_CSI_DRIVER_NAME:
      st->current_csi_driver.name = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_CSI_COUNT:
      st->current_csi_driver.has_count = TRUE;
      return fs_scalar_int32 (scalar, 0, &st->current_csi_driver.count, error);
    default:
      g_assert_not_reached ();
    }
}

static gboolean
pdb_scalar (FsObjectBuilder *builder, FsField field, const char *key, const FsScalar *scalar,
            GError **error)
{
  switch (field)
    {
    case F_PDB_DISRUPTIONS_ALLOWED:
      return fs_scalar_int32 (scalar, G_MININT32, &builder->st.disruptions_allowed, error);
    case F_PDB_DISRUPTED_POD: /* pod name -> the time its eviction was processed */
      g_ptr_array_add (builder->disrupted_pods, (gpointer) fs_pool_intern (builder->pool, key, strlen (key)));
      return TRUE;
    default:
      g_assert_not_reached ();
    }
}

/* What the kubelet wrote of a pod: status.reason and status.message, and the container
 * statuses (strings interned; messages kept as scratch, see StatusMessage). */
static gboolean
kubelet_scalar (FsObjectBuilder *builder, FsField field, const char *key, const FsScalar *scalar,
                GError **error)
{
  ObjectState *st = &builder->st;
  FsContainerStatus *status = &st->current_status;
  switch (field)
    {
    case F_POD_REASON:
      st->pod_reason = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_POD_MESSAGE:
      g_string_truncate (builder->status_message[STATUS_MESSAGE_POD], 0);
      g_string_append_len (builder->status_message[STATUS_MESSAGE_POD], scalar->text, (gssize) scalar->len);
      return TRUE;
    case F_CS_NAME:
      status->name = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_CS_WAITING_REASON:
      status->state = FS_CONTAINER_WAITING;
      status->reason = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_CS_RUNNING:
      status->state = FS_CONTAINER_RUNNING;
      return TRUE;
    case F_CS_EXIT_CODE:
      status->state = FS_CONTAINER_TERMINATED;
      return fs_scalar_int32 (scalar, G_MININT32, &status->exit_code, error);
    case F_CS_TERMINATED_REASON:
      status->state = FS_CONTAINER_TERMINATED;
      status->reason = scalar_intern (builder, field, scalar);
      return TRUE;
    case F_CS_WAITING_MESSAGE:
    case F_CS_TERMINATED_MESSAGE:
      g_string_truncate (builder->status_message[STATUS_MESSAGE_CURRENT], 0);
      g_string_append_len (builder->status_message[STATUS_MESSAGE_CURRENT], scalar->text, (gssize) scalar->len);
      return TRUE;
    case F_CLAIM_NAME: /* the record counts the claim (DynamicResources is not modelled) */
      return TRUE;
    case F_CS_ALLOCATED:
      return fs_scalar_resource (builder->pool, &builder->allocation.allocated, key, scalar, error);
    case F_CS_ACTUATED:
      return fs_scalar_resource (builder->pool, &builder->allocation.actuated, key, scalar, error);
    case F_POD_RESIZE:
      {
        char text[16];
        if (scalar->len >= sizeof text)
          return TRUE;
        memcpy (text, scalar->text, scalar->len);
        text[scalar->len] = '\0';
        st->resize_field_state = fs_resize_state_parse (text);
        return TRUE;
      }
    default:
      g_assert_not_reached ();
    }
}

gboolean
fs_object_scalar (FsObjectBuilder *builder, FsField field, const char *map_key,
                  const FsScalar *scalar, GError **error)
{
  if (field <= F_COND_TIME || field == F_SELF_LINK)
    return metadata_scalar (builder, field, map_key, scalar, error);
  if (field <= F_CAPACITY)
    return node_scalar (builder, field, map_key, scalar, error);
  if (field >= F_TOL_KEY && field <= F_TOL_SECONDS)
    return toleration_scalar (builder, field, scalar, error);
  if (field >= F_CTR_NAME && field <= F_OVERHEAD)
    return container_scalar (builder, field, map_key, scalar, error);
  if (field >= F_REQ_KEY && field <= F_SPREAD_LABEL_KEY)
    return affinity_scalar (builder, field, map_key, scalar, error);
  if (field <= F_NOMINATED_NODE)
    return pod_scalar (builder, field, map_key, scalar, error);
  if (field <= F_TEMPLATE_LABEL)
    return workload_scalar (builder, field, map_key, scalar, error);
  if (field >= F_PDB_DISRUPTIONS_ALLOWED && field <= F_PDB_DISRUPTED_POD)
    return pdb_scalar (builder, field, map_key, scalar, error);
  if (field >= F_VOL_NAME && field <= F_CSI_COUNT)
    return storage_scalar (builder, field, scalar, error);
  if (field >= F_POD_REASON && field <= F_CLAIM_NAME)
    return kubelet_scalar (builder, field, map_key, scalar, error);
  return metrics_event_scalar (builder, field, map_key, scalar, error);
}
