/* fitscale — the fields the decoder keeps, and the object builder that receives them.
 *
 * Private to kube/: decode.c walks the document and maps each path it knows (schema.c) to a
 * field (a scalar) or a record (a map that begins and ends, such as one container); the object
 * builder gathers them into one object at a time and, when the object ends, interns its
 * parts into the snapshot builder's pool (objects.c: its life and the records; fields.c:
 * each field; kinds.c: each kind's object; intern.c and scalars.c; their shared state in
 * builder.h).  An FsObjectBuilder is reused from object to object: its scratch arrays keep
 * their memory, so a long list costs no allocation per object beyond what the snapshot
 * keeps. */
#pragma once

#include <glib.h>

#include "fitscale/kube/decode.h"
#include "fitscale/model/objects.h"

typedef enum {
  F_NONE = 0,
  /* every object */
  F_KIND, F_API_VERSION, F_NAME, F_NAMESPACE, F_RESOURCE_VERSION, F_CONTINUE, F_CREATION_TIME,
  F_DELETION_TIME, F_LABEL, F_ANNOTATION,
  F_OWNER_KIND, F_OWNER_NAME, F_OWNER_API_VERSION, F_OWNER_CONTROLLER,
  F_COND_TYPE, F_COND_STATUS, F_COND_REASON, F_COND_MESSAGE, F_COND_TIME,
  /* Node */
  F_UNSCHEDULABLE, F_TAINT_KEY, F_TAINT_VALUE, F_TAINT_EFFECT, F_ALLOCATABLE, F_CAPACITY,
  /* pod spec (a Pod's spec, or a workload's spec.template.spec) */
  F_NODE_NAME, F_PRIORITY, F_PRIORITY_CLASS, F_SCHEDULER_NAME, F_PREEMPTION_POLICY,
  F_RUNTIME_CLASS, F_SCHEDULING_GATE,
  F_HOST_NETWORK, F_NODE_SELECTOR, F_TOL_KEY, F_TOL_OP, F_TOL_VALUE, F_TOL_EFFECT, F_TOL_SECONDS,
  F_CTR_NAME, F_CTR_RESTART_POLICY, F_CTR_REQUEST, F_CTR_LIMIT,
  F_RP_RESOURCE, F_RP_RESTART,                      /* a container's resizePolicy entry */
  F_PORT_HOST_PORT, F_PORT_CONTAINER_PORT, F_PORT_PROTOCOL, F_PORT_HOST_IP, /* a container port */
  F_POD_REQUEST, F_OVERHEAD,
  F_REQ_KEY, F_REQ_OP, F_REQ_VALUE,                 /* one selector requirement */
  F_SEL_LABEL,                                      /* a matchLabels entry */
  F_TERM_TOPOLOGY_KEY, F_TERM_NAMESPACE,            /* a pod (anti-)affinity term */
  F_SPREAD_MAX_SKEW, F_SPREAD_TOPOLOGY_KEY, F_SPREAD_WHEN, F_SPREAD_MIN_DOMAINS,
  F_SPREAD_AFFINITY_POLICY, F_SPREAD_TAINTS_POLICY, F_SPREAD_LABEL_KEY,
  /* Pod status */
  F_PHASE, F_START_TIME, F_NOMINATED_NODE,
  /* workloads */
  F_REPLICAS, F_STRATEGY_TYPE, F_MAX_SURGE, F_MAX_UNAVAILABLE, F_STATUS_REPLICAS,
  F_STATUS_READY, F_TEMPLATE_LABEL,
  /* PodMetrics */
  F_TIMESTAMP, F_WINDOW, F_USAGE_NAME, F_USAGE,
  /* Event */
  F_EV_KIND, F_EV_NAMESPACE, F_EV_NAME, F_EV_REASON, F_EV_MESSAGE, F_EV_TYPE, F_EV_COUNT,
  F_EV_LAST_TIME, F_EV_EVENT_TIME, F_EV_FIRST_TIME, F_EV_SOURCE, F_EV_REPORTER,
  /* pod spec volumes (one entry of spec.volumes) */
  F_VOL_NAME, F_VOL_ID, F_VOL_READ_ONLY, F_VOL_POOL, F_VOL_MONITOR,
  /* PersistentVolumeClaim, PersistentVolume, StorageClass, CSINode */
  F_ST_VOLUME_NAME, F_ST_CLASS, F_ST_ACCESS_MODE, F_ST_VOLUME_MODE, F_ST_STORAGE,
  F_ST_CLAIM_NAMESPACE, F_ST_CLAIM_NAME, F_ST_CSI_DRIVER, F_ST_CSI_HANDLE,
  F_SC_PROVISIONER, F_SC_BINDING_MODE, F_CSI_DRIVER_NAME, F_CSI_COUNT,
  /* PodDisruptionBudget (its spec.selector is the workloads' R_SEL_WORKLOAD) */
  F_PDB_DISRUPTIONS_ALLOWED, F_PDB_DISRUPTED_POD,
  /* Pod status the kubelet writes (what a bound pod waits for) */
  F_POD_REASON, F_POD_MESSAGE, F_CS_NAME, F_CS_WAITING_REASON, F_CS_WAITING_MESSAGE,
  F_CS_RUNNING, F_CS_EXIT_CODE, F_CS_TERMINATED_REASON, F_CS_TERMINATED_MESSAGE,
  F_CS_ALLOCATED, F_CS_ACTUATED, F_POD_RESIZE,      /* in-place resize (model/resize.h) */
  F_CLAIM_NAME,                                     /* a resource claim's name: only counted */
  /* a List's */
  F_SELF_LINK,
  F_N_FIELDS
} FsField;

typedef enum {
  R_NONE = 0,
  R_OBJECT,          /* a whole object: the document root or one item of a list */
  R_OWNER, R_CONDITION, R_TAINT, R_TOLERATION,
  R_CONTAINER, R_INIT_CONTAINER,
  R_PORT, R_INIT_PORT,                              /* a container's or init container's port */
  R_REQUIRED_AFFINITY,                              /* nodeAffinity required: present */
  R_NODE_TERM, R_REQ_NODE_EXPR, R_REQ_NODE_FIELD,   /* node selector term and its parts */
  R_AFFINITY_TERM, R_ANTI_AFFINITY_TERM,
  R_SPREAD,
  R_SEL_WORKLOAD, R_SEL_TERM, R_SEL_TERM_NS, R_SEL_SPREAD, /* label selectors by owner */
  R_REQ_SEL,                                        /* a label selector's expression */
  R_USAGE_CONTAINER,
  R_VOLUME,                                         /* one entry of a pod spec's volumes */
  R_VOL_CLAIM, R_VOL_EPHEMERAL, R_VOL_GCE, R_VOL_EBS, R_VOL_RBD, R_VOL_ISCSI, /* its source */
  R_CSI_DRIVER,                                     /* one driver of a CSINode */
  R_CTR_STATUS, R_INIT_CTR_STATUS,                  /* status.(init)containerStatuses[] */
  R_RESOURCE_CLAIM,                                 /* spec.resourceClaims[] */
  R_CTR_CLAIM,                                      /* resources.claims[] of a container or pod */
  R_RESIZE_POLICY,                                  /* containers[].resizePolicy[] */
  R_CS_ALLOCATED, R_CS_ACTUATED,                    /* a container status's allocatedResources,
                                                     * resources.requests */
  R_N_RECORDS
} FsRecord;

typedef struct FsObjectBuilder FsObjectBuilder;

/* The scalar as the document gave it. */
typedef struct {
  FsScalarType type;
  const char *text; /* not NUL-terminated; LEN bytes */
  gsize len;
} FsScalar;

FsObjectBuilder *fs_object_builder_new (FsSnapshotBuilder *snapshot_builder);
void fs_object_builder_free (FsObjectBuilder *builder);

/* An object starts: INHERITED_KIND is what the enclosing typed list says ("Pod" inside a
 * PodList), or NULL. */
void fs_object_begin (FsObjectBuilder *builder, const char *inherited_kind);
/* The object's kind as known so far (its own "kind", else the inherited one), or NULL. */
const char *fs_object_kind (const FsObjectBuilder *builder);
/* The object's apiVersion as read so far, or NULL. */
const char *fs_object_api_version (const FsObjectBuilder *builder);
/* The object's metadata.namespace as read so far (interned), or NULL. */
const char *fs_object_namespace (const FsObjectBuilder *builder);
/* The namespace a List's metadata.selfLink names (".../namespaces/NS/..."), or NULL. */
const char *fs_object_self_link_namespace (const FsObjectBuilder *builder);
/* Whether a List says it holds every namespace (FS_SNAPSHOT_SCOPE_ANNOTATION ""). */
gboolean fs_object_all_namespaces (const FsObjectBuilder *builder);
/* Whether objects of KIND are kept as generic trees (HPA, VPA, Hvpa, metric values). */
gboolean fs_kind_is_generic (const char *kind);
/* A short description for error messages: `Pod production/rag-api-x`, or "" if unknown. */
const char *fs_object_describe (FsObjectBuilder *builder);
/* The object ended; TREE is its generic capture (NULL unless the kind is generic).  Adds it
 * to the snapshot builder, or counts it as skipped. */
gboolean fs_object_end (FsObjectBuilder *builder, const FsTree *tree, GError **error);

gboolean fs_object_scalar (FsObjectBuilder *builder, FsField field, const char *map_key,
                           const FsScalar *scalar, GError **error);
void fs_object_record_begin (FsObjectBuilder *builder, FsRecord record);
gboolean fs_object_record_end (FsObjectBuilder *builder, FsRecord record, GError **error);
