/* fitscale tests — the volume plugins (model/volumes.c): cases ported from upstream's
 * volumerestrictions/volume_restrictions_test.go, nodevolumelimits/csi_test.go,
 * volumebinding/volume_binding_test.go and binder_test.go, volumezone/volume_zone_test.go
 * (each test names the one it follows), run through fs_fit_node as the default profile does,
 * and the FailedScheduling message they make. */
#include "config.h"

#include "testutil.h"

#include "fitscale/model/fit.h"
#include "fitscale/model/volumes.h"

/* A node NAME with LABELS (a YAML flow map's inside) and room for anything. */
#define NODE(name, labels)                                                                   \
  "- kind: Node\n  metadata: {name: " name ", labels: {" labels "}}\n"                        \
  "  status: {allocatable: {cpu: '8', memory: 16Gi, pods: '110'}}\n"

/* A pod NAME, bound to NODE (or "" for Pending), with VOLUMES (a YAML flow list's inside). */
#define POD(name, node, volumes)                                                             \
  "- kind: Pod\n  metadata: {name: " name ", namespace: ns}\n"                                 \
  "  spec: {nodeName: '" node "', containers: [{name: c, resources: {requests: {cpu: 100m}}}],"  \
  " volumes: [" volumes "]}\n"                                                               \
  "  status: {phase: " node "Pending}\n"

#define CLAIM(name, rest) "- kind: PersistentVolumeClaim\n  metadata: {name: " name ", namespace: ns" rest "\n"
#define BOUND "pv.kubernetes.io/bind-completed: 'yes'"

static FsSnapshot *
load (const char *items)
{
  g_autofree char *text = g_strconcat ("kind: List\nitems:\n", items, NULL);
  return test_load_valid_text (text);
}

/* The first reason NODE gives POD, or "" when it fits. */
static char *
reason_on (const FsSnapshot *snapshot, const char *pod_name, const char *node_name)
{
  const FsPod *pod = fs_snapshot_find_pod (snapshot, "ns", pod_name);
  assert_non_null (pod);
  const FsNode *node = fs_snapshot_find_node (snapshot, node_name);
  assert_non_null (node);
  FsPodShape shape = { .namespace = pod->namespace, .labels = pod->labels, .spec = pod->spec,
                       .priority = pod->priority, .name = pod->name };
  FsVerdict verdict;
  if (fs_fit_node (node, NULL, &shape, &verdict))
    return g_strdup ("");
  g_autoptr (GPtrArray) reasons = g_ptr_array_new_with_free_func (g_free);
  fs_verdict_reasons (&verdict, reasons);
  GString *all = g_string_new (NULL);
  for (guint i = 0; i < reasons->len; i++)
    g_string_append_printf (all, "%s%s", i > 0 ? "; " : "", (const char *) reasons->pdata[i]);
  return g_string_free (all, FALSE);
}

/* FitError.Error over every node, without the PostFilter part. */
static char *
message_for (const FsSnapshot *snapshot, const char *pod_name)
{
  const FsPod *pod = fs_snapshot_find_pod (snapshot, "ns", pod_name);
  FsPodShape shape = { .namespace = pod->namespace, .labels = pod->labels, .spec = pod->spec,
                       .priority = pod->priority, .name = pod->name };
  g_autoptr (FsReasonCounts) counts = fs_reason_counts_new ();
  for (guint i = 0; i < snapshot->n_nodes; i++)
    {
      FsVerdict verdict;
      if (!fs_fit_node (&snapshot->nodes[i], NULL, &shape, &verdict))
        fs_reason_counts_add_verdict (counts, &verdict);
    }
  return fs_fit_error_message (snapshot->n_nodes, counts, NULL);
}

#define ASSERT_REASON(snapshot, pod, node, want)                                             \
  do                                                                                         \
    {                                                                                        \
      g_autofree char *got = reason_on ((snapshot), (pod), (node));                          \
      assert_string_equal (got, (want));                                                     \
    }                                                                                        \
  while (0)

/* ---- VolumeRestrictions ------------------------------------------------------------- */

/* volume_restrictions_test.go TestGCEDiskConflicts, TestAWSDiskConflicts: the same disk on
 * the node conflicts (a GCE PD unless both mount it read-only; an EBS volume always). */
static void
test_disk_conflicts (void **state)
{
  g_autoptr (FsSnapshot) s = load (
      NODE ("n1", "") POD ("on-node", "n1",
                           "{name: a, gcePersistentDisk: {pdName: foo, readOnly: true}},"
                           " {name: b, awsElasticBlockStore: {volumeID: vol-1, readOnly: true}}")
      POD ("gce-same", "", "{name: a, gcePersistentDisk: {pdName: foo}}")
      POD ("gce-other", "", "{name: a, gcePersistentDisk: {pdName: bar}}")
      POD ("gce-both-ro", "", "{name: a, gcePersistentDisk: {pdName: foo, readOnly: true}}")
      POD ("ebs-same-ro", "", "{name: a, awsElasticBlockStore: {volumeID: vol-1, readOnly: true}}")
      POD ("ebs-other", "", "{name: a, awsElasticBlockStore: {volumeID: vol-2}}"));
  ASSERT_REASON (s, "gce-same", "n1", "node(s) had no available disk");
  ASSERT_REASON (s, "gce-other", "n1", "");
  ASSERT_REASON (s, "gce-both-ro", "n1", "");
  ASSERT_REASON (s, "ebs-same-ro", "n1", "node(s) had no available disk");
  ASSERT_REASON (s, "ebs-other", "n1", "");
}

/* volume_restrictions_test.go TestRBDDiskConflicts, TestISCSIDiskConflicts: RBD images
 * conflict when a monitor is shared and pool and image match (the pool defaults to "rbd");
 * iSCSI by IQN, unless both are read-only. */
static void
test_rbd_iscsi_conflicts (void **state)
{
  g_autoptr (FsSnapshot) s = load (
      NODE ("n1", "") POD ("on-node", "n1",
                           "{name: a, rbd: {monitors: [a, b], image: foo}},"
                           " {name: b, iscsi: {targetPortal: 't:3260', iqn: iqn.a, lun: 0, readOnly: true}}")
      POD ("rbd-same", "", "{name: a, rbd: {monitors: [b, c], pool: rbd, image: foo}}")
      POD ("rbd-no-monitor", "", "{name: a, rbd: {monitors: [c, d], image: foo}}")
      POD ("rbd-other-pool", "", "{name: a, rbd: {monitors: [a], pool: other, image: foo}}")
      POD ("iscsi-same", "", "{name: a, iscsi: {targetPortal: 't:3260', iqn: iqn.a, lun: 0}}")
      POD ("iscsi-both-ro", "", "{name: a, iscsi: {targetPortal: 't:3260', iqn: iqn.a, lun: 0, readOnly: true}}"));
  ASSERT_REASON (s, "rbd-same", "n1", "node(s) had no available disk");
  ASSERT_REASON (s, "rbd-no-monitor", "n1", "");
  ASSERT_REASON (s, "rbd-other-pool", "n1", "");
  ASSERT_REASON (s, "iscsi-same", "n1", "node(s) had no available disk");
  ASSERT_REASON (s, "iscsi-both-ro", "n1", "");
}

/* volume_restrictions_test.go TestAccessModeConflicts: a ReadWriteOncePod claim another pod
 * already uses rejects every node (Unschedulable); a claim that does not exist is a PreFilter
 * rejection. */
static void
test_read_write_once_pod (void **state)
{
  g_autoptr (FsSnapshot) s = load (
      NODE ("n1", "") NODE ("n2", "")
      CLAIM ("rwop", ", annotations: {" BOUND "}}\n  spec: {accessModes: [ReadWriteOncePod], volumeName: pv-1}")
      CLAIM ("rwo", ", annotations: {" BOUND "}}\n  spec: {accessModes: [ReadWriteOnce], volumeName: pv-2}")
      "- kind: PersistentVolume\n  metadata: {name: pv-1}\n  spec: {capacity: {storage: 1Gi}}\n"
      "- kind: PersistentVolume\n  metadata: {name: pv-2}\n  spec: {capacity: {storage: 1Gi}}\n"
      "- kind: StorageClassList\n  items: []\n"
      POD ("holder", "n1", "{name: a, persistentVolumeClaim: {claimName: rwop}}, {name: b, persistentVolumeClaim: {claimName: rwo}}")
      POD ("wants-rwop", "", "{name: a, persistentVolumeClaim: {claimName: rwop}}")
      POD ("wants-rwo", "", "{name: a, persistentVolumeClaim: {claimName: rwo}}")
      POD ("wants-missing", "", "{name: a, persistentVolumeClaim: {claimName: claim-with-rwop-2}}"));
  const char *rwop = "node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode";
  ASSERT_REASON (s, "wants-rwop", "n1", rwop);
  ASSERT_REASON (s, "wants-rwop", "n2", rwop);
  ASSERT_REASON (s, "wants-rwo", "n2", "");   /* ReadWriteOnce: the node decides, not the pod */
  g_autofree char *message = message_for (s, "wants-missing");
  assert_string_equal (message, "0/2 nodes are available: persistentvolumeclaim \"claim-with-rwop-2\" not found.");
}

/* ---- NodeVolumeLimits ---------------------------------------------------------------- */

#define CSI_ITEMS                                                                            \
  NODE ("n1", "") NODE ("n2", "")                                                           \
  "- kind: CSINode\n  metadata: {name: n1}\n  spec: {drivers: [{name: ebs.csi.aws.com, nodeID: a, allocatable: {count: 2}}]}\n" \
  "- kind: CSINode\n  metadata: {name: n2}\n  spec: {drivers: [{name: ebs.csi.aws.com, nodeID: b}]}\n" \
  "- kind: StorageClass\n  metadata: {name: csi-sc}\n  provisioner: ebs.csi.aws.com\n  volumeBindingMode: WaitForFirstConsumer\n" \
  "- kind: PersistentVolume\n  metadata: {name: pv-1}\n  spec: {capacity: {storage: 1Gi}, csi: {driver: ebs.csi.aws.com, volumeHandle: h1}, claimRef: {namespace: ns, name: c1}}\n" \
  "- kind: PersistentVolume\n  metadata: {name: pv-2}\n  spec: {capacity: {storage: 1Gi}, csi: {driver: ebs.csi.aws.com, volumeHandle: h2}, claimRef: {namespace: ns, name: c2}}\n" \
  "- kind: PersistentVolume\n  metadata: {name: pv-3}\n  spec: {capacity: {storage: 1Gi}, csi: {driver: ebs.csi.aws.com, volumeHandle: h3}, claimRef: {namespace: ns, name: c3}}\n" \
  CLAIM ("c1", ", annotations: {" BOUND "}}\n  spec: {volumeName: pv-1, accessModes: [ReadWriteOnce]}") \
  CLAIM ("c2", ", annotations: {" BOUND "}}\n  spec: {volumeName: pv-2, accessModes: [ReadWriteOnce]}") \
  CLAIM ("c3", ", annotations: {" BOUND "}}\n  spec: {volumeName: pv-3, accessModes: [ReadWriteOnce]}") \
  CLAIM ("pending", "}\n  spec: {storageClassName: csi-sc, accessModes: [ReadWriteOnce]}")

/* csi_test.go TestCSILimits: the volumes of the node's pods plus the new pod's, per driver,
 * within the CSINode's allocatable count ("doesn't when node volume limit <= pods CSI
 * volume"; "should count pending PVCs if the PVC is not bound"; "should not count the same
 * volume twice"; a driver without a count has no limit). */
static void
test_csi_limits (void **state)
{
  g_autoptr (FsSnapshot) s = load (
      CSI_ITEMS
      POD ("on-n1", "n1", "{name: a, persistentVolumeClaim: {claimName: c1}}, {name: b, persistentVolumeClaim: {claimName: c2}}")
      POD ("on-n2", "n2", "{name: a, persistentVolumeClaim: {claimName: c1}}, {name: b, persistentVolumeClaim: {claimName: c2}}")
      POD ("wants-c3", "", "{name: a, persistentVolumeClaim: {claimName: c3}}")
      POD ("wants-pending", "", "{name: a, persistentVolumeClaim: {claimName: pending}}")
      POD ("wants-c1", "", "{name: a, persistentVolumeClaim: {claimName: c1}}")
      POD ("no-csi", "", "{name: a, gcePersistentDisk: {pdName: x}}"));
  ASSERT_REASON (s, "wants-c3", "n1", "node(s) exceed max volume count");
  ASSERT_REASON (s, "wants-pending", "n1", "node(s) exceed max volume count");
  ASSERT_REASON (s, "wants-c1", "n1", "");   /* already attached: counted once */
  ASSERT_REASON (s, "wants-c3", "n2", "");   /* no allocatable count */
  ASSERT_REASON (s, "no-csi", "n1", "");
}

/* ---- VolumeBinding -------------------------------------------------------------------- */

/* volume_binding_test.go TestVolumeBinding: "pod has not bound immediate PVCs", "PVC does not
 * exist", "Part of PVCs do not exist"; the PreFilter message stands alone in the message. */
static void
test_binding_prefilter (void **state)
{
  g_autoptr (FsSnapshot) s = load (
      NODE ("n1", "") NODE ("n2", "")
      "- kind: StorageClass\n  metadata: {name: immediate-sc}\n  provisioner: pl\n  volumeBindingMode: Immediate\n"
      "- kind: PersistentVolumeList\n  items: []\n"
      CLAIM ("pvc-a", "}\n  spec: {storageClassName: immediate-sc}")
      CLAIM ("pvc-b", "}\n  spec: {}")
      CLAIM ("deleting", ", deletionTimestamp: '2026-01-01T00:00:00Z'}\n  spec: {storageClassName: immediate-sc}")
      CLAIM ("lost", "}\n  spec: {volumeName: pv-gone}\n  status: {phase: Lost}")
      POD ("immediate", "", "{name: a, persistentVolumeClaim: {claimName: pvc-a}}")
      POD ("no-class", "", "{name: a, persistentVolumeClaim: {claimName: pvc-b}}")
      POD ("part-missing", "", "{name: a, persistentVolumeClaim: {claimName: pvc-a}}, {name: b, persistentVolumeClaim: {claimName: pvc-x}}")
      POD ("deleting", "", "{name: a, persistentVolumeClaim: {claimName: deleting}}")
      POD ("lost", "", "{name: a, persistentVolumeClaim: {claimName: lost}}")
      POD ("eph", "", "{name: data, ephemeral: {volumeClaimTemplate: {spec: {}}}}"));
  g_autofree char *immediate = message_for (s, "immediate");
  assert_string_equal (immediate, "0/2 nodes are available: pod has unbound immediate PersistentVolumeClaims.");
  g_autofree char *no_class = message_for (s, "no-class");
  assert_string_equal (no_class, "0/2 nodes are available: pod has unbound immediate PersistentVolumeClaims.");
  g_autofree char *part = message_for (s, "part-missing");
  assert_string_equal (part, "0/2 nodes are available: persistentvolumeclaim \"pvc-x\" not found.");
  ASSERT_REASON (s, "deleting", "n1", "persistentvolumeclaim \"deleting\" is being deleted");
  ASSERT_REASON (s, "lost", "n1", "persistentvolumeclaim \"lost\" bound to non-existent persistentvolume \"pv-gone\"");
  ASSERT_REASON (s, "eph", "n2",
                 "waiting for ephemeral volume controller to create the persistentvolumeclaim \"eph-data\"");
}

/* volume_binding_test.go TestVolumeBinding "unbound claims no matches", "bound and unbound
 * unsatisfied" (binder_test.go TestFindPodVolumesWithoutProvisioning): WaitForFirstConsumer
 * claims find a matching available volume or a class that provisions there; a bound
 * volume's node affinity must match. */
static void
test_binding_filter (void **state)
{
  g_autoptr (FsSnapshot) s = load (
      NODE ("n1", "zone: a") NODE ("n2", "zone: b")
      "- kind: StorageClass\n  metadata: {name: wait-sc}\n  provisioner: kubernetes.io/no-provisioner\n  volumeBindingMode: WaitForFirstConsumer\n"
      "- kind: StorageClass\n  metadata: {name: topo-sc}\n  provisioner: csi.example.com\n  volumeBindingMode: WaitForFirstConsumer\n"
      "  allowedTopologies: [{matchLabelExpressions: [{key: zone, values: [b]}]}]\n"
      "- kind: PersistentVolume\n  metadata: {name: pv-a}\n  spec: {capacity: {storage: 1Gi}, storageClassName: wait-sc,"
      " nodeAffinity: {required: {nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: In, values: [a]}]}]}}}\n"
      "- kind: PersistentVolume\n  metadata: {name: pv-free}\n  spec: {capacity: {storage: 5Gi}, storageClassName: wait-sc,"
      " accessModes: [ReadWriteOnce], nodeAffinity: {required: {nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: In, values: [b]}]}]}}}\n"
      "  status: {phase: Available}\n"
      CLAIM ("bound", ", annotations: {" BOUND "}}\n  spec: {volumeName: pv-a, storageClassName: wait-sc}")
      CLAIM ("unbound", "}\n  spec: {storageClassName: wait-sc, accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}")
      CLAIM ("too-big", "}\n  spec: {storageClassName: wait-sc, accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}}")
      CLAIM ("topo", "}\n  spec: {storageClassName: topo-sc}")
      POD ("bound", "", "{name: a, persistentVolumeClaim: {claimName: bound}}")
      POD ("unbound", "", "{name: a, persistentVolumeClaim: {claimName: unbound}}")
      POD ("too-big", "", "{name: a, persistentVolumeClaim: {claimName: too-big}}")
      POD ("both", "", "{name: a, persistentVolumeClaim: {claimName: bound}}, {name: b, persistentVolumeClaim: {claimName: too-big}}")
      POD ("topo", "", "{name: a, persistentVolumeClaim: {claimName: topo}}"));
  ASSERT_REASON (s, "bound", "n1", "");
  ASSERT_REASON (s, "bound", "n2", "node(s) had volume node affinity conflict");
  ASSERT_REASON (s, "unbound", "n2", "");  /* pv-free matches in zone b */
  ASSERT_REASON (s, "unbound", "n1", "node(s) didn't find available persistent volumes to bind");
  ASSERT_REASON (s, "too-big", "n2", "node(s) didn't find available persistent volumes to bind");
  ASSERT_REASON (s, "both", "n2", "node(s) had volume node affinity conflict; "
                                  "node(s) didn't find available persistent volumes to bind");
  ASSERT_REASON (s, "topo", "n2", "");     /* allowedTopologies: zone b */
  ASSERT_REASON (s, "topo", "n1", "node(s) didn't find available persistent volumes to bind");
  g_autofree char *message = message_for (s, "both");
  assert_string_equal (message, "0/2 nodes are available: 1 node(s) had volume node affinity conflict, "
                                "2 node(s) didn't find available persistent volumes to bind.");
}

/* binder_test.go TestFindPodVolumesWithoutProvisioning and TestFindPodVolumesWithProvisioning:
 * two claims cannot take the one volume that matches both ("two-unbound-pvcs,partial-match");
 * a claim's selector, a volume's phase and a prebound volume's node affinity decide; a
 * selected node ends the search elsewhere ("selected-node"). */
static void
test_matching_volumes (void **state)
{
  g_autoptr (FsSnapshot) s = load (
      NODE ("n1", "zone: a") NODE ("n2", "zone: b")
      "- kind: StorageClass\n  metadata: {name: wait-sc}\n  provisioner: kubernetes.io/no-provisioner\n  volumeBindingMode: WaitForFirstConsumer\n"
      "- kind: StorageClass\n  metadata: {name: prov-sc}\n  provisioner: csi.example.com\n  volumeBindingMode: WaitForFirstConsumer\n"
      "- kind: PersistentVolume\n  metadata: {name: pv-one, labels: {tier: gold}}\n  spec: {capacity: {storage: 1Gi}, storageClassName: wait-sc, accessModes: [ReadWriteOnce]}\n"
      "  status: {phase: Available}\n"
      "- kind: PersistentVolume\n  metadata: {name: pv-released}\n  spec: {capacity: {storage: 1Gi}, storageClassName: wait-sc, accessModes: [ReadWriteOnce]}\n"
      "  status: {phase: Released}\n"
      "- kind: PersistentVolume\n  metadata: {name: pv-prebound}\n  spec: {capacity: {storage: 1Gi}, storageClassName: wait-sc,"
      " claimRef: {namespace: ns, name: prebound-pv},"
      " nodeAffinity: {required: {nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: In, values: [b]}]}]}}}\n"
      CLAIM ("c1", "}\n  spec: {storageClassName: wait-sc, accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}")
      CLAIM ("c2", "}\n  spec: {storageClassName: wait-sc, accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}")
      CLAIM ("silver", "}\n  spec: {storageClassName: wait-sc, selector: {matchLabels: {tier: silver}}, accessModes: [ReadWriteOnce]}")
      CLAIM ("rwx", "}\n  spec: {storageClassName: wait-sc, accessModes: [ReadWriteMany]}")
      CLAIM ("prebound-pv", "}\n  spec: {storageClassName: wait-sc}")
      CLAIM ("selected", ", annotations: {volume.kubernetes.io/selected-node: n2}}\n  spec: {storageClassName: prov-sc}")
      POD ("one", "", "{name: a, persistentVolumeClaim: {claimName: c1}}")
      POD ("two", "", "{name: a, persistentVolumeClaim: {claimName: c1}}, {name: b, persistentVolumeClaim: {claimName: c2}}")
      POD ("silver", "", "{name: a, persistentVolumeClaim: {claimName: silver}}")
      POD ("rwx", "", "{name: a, persistentVolumeClaim: {claimName: rwx}}")
      POD ("prebound", "", "{name: a, persistentVolumeClaim: {claimName: prebound-pv}}")
      POD ("selected", "", "{name: a, persistentVolumeClaim: {claimName: selected}}"));
  const char *bind = "node(s) didn't find available persistent volumes to bind";
  ASSERT_REASON (s, "one", "n1", "");
  ASSERT_REASON (s, "two", "n1", bind);
  ASSERT_REASON (s, "silver", "n1", bind);
  ASSERT_REASON (s, "rwx", "n1", bind);
  ASSERT_REASON (s, "prebound", "n2", "");
  ASSERT_REASON (s, "prebound", "n1", bind);
  ASSERT_REASON (s, "selected", "n2", "");
  ASSERT_REASON (s, "selected", "n1", bind);
}

/* binder.go GetEligibleNodes (volume_binding_test.go "local volumes with node affinity"): a
 * bound volume naming nodes by hostname leaves the others out before any filter; two such
 * volumes naming different nodes leave none. */
static void
test_eligible_nodes (void **state)
{
  g_autoptr (FsSnapshot) s = load (
      NODE ("n1", "kubernetes.io/hostname: n1") NODE ("n2", "kubernetes.io/hostname: n2")
      "- kind: StorageClassList\n  items: []\n"
      "- kind: PersistentVolume\n  metadata: {name: local-1}\n  spec: {capacity: {storage: 1Gi},"
      " nodeAffinity: {required: {nodeSelectorTerms: [{matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [n1]}]}]}}}\n"
      "- kind: PersistentVolume\n  metadata: {name: local-2}\n  spec: {capacity: {storage: 1Gi},"
      " nodeAffinity: {required: {nodeSelectorTerms: [{matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [n2]}]}]}}}\n"
      CLAIM ("l1", ", annotations: {" BOUND "}}\n  spec: {volumeName: local-1}")
      CLAIM ("l2", ", annotations: {" BOUND "}}\n  spec: {volumeName: local-2}")
      POD ("one", "", "{name: a, persistentVolumeClaim: {claimName: l1}}")
      POD ("two", "", "{name: a, persistentVolumeClaim: {claimName: l1}}, {name: b, persistentVolumeClaim: {claimName: l2}}"));
  ASSERT_REASON (s, "one", "n1", "");
  ASSERT_REASON (s, "one", "n2", "node(s) didn't satisfy plugin(s) [VolumeBinding]");
  g_autofree char *message = message_for (s, "two");
  assert_string_equal (message, "0/2 nodes are available: node(s) didn't satisfy plugin VolumeBinding.");
}

/* volume_binding_test.go "pv not found": with the default profile VolumeZone's PreFilter
 * rejects a persistentVolumeClaim volume bound to a missing volume first; an ephemeral
 * volume's claim reaches VolumeBinding's Filter (ErrReasonPVNotExist). */
static void
test_pv_not_found (void **state)
{
  g_autoptr (FsSnapshot) s = load (
      NODE ("n1", "")
      "- kind: StorageClassList\n  items: []\n- kind: PersistentVolumeList\n  items: []\n"
      CLAIM ("pvc-a", ", annotations: {" BOUND "}}\n  spec: {volumeName: pv-a}")
      "- kind: PersistentVolumeClaim\n  metadata: {name: eph-data, namespace: ns, annotations: {" BOUND "},"
      " ownerReferences: [{kind: Pod, name: eph, apiVersion: v1, controller: true, uid: u}]}\n  spec: {volumeName: pv-b}\n"
      POD ("claim", "", "{name: a, persistentVolumeClaim: {claimName: pvc-a}}")
      POD ("eph", "", "{name: data, ephemeral: {volumeClaimTemplate: {spec: {}}}}")
      POD ("other", "", "{name: data, ephemeral: {volumeClaimTemplate: {spec: {}}}}"));
  g_autofree char *message = message_for (s, "claim");
  assert_string_equal (message, "0/1 nodes are available: persistentvolume \"pv-a\" not found.");
  ASSERT_REASON (s, "eph", "n1", "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)");
  ASSERT_REASON (s, "other", "n1",
                 "waiting for ephemeral volume controller to create the persistentvolumeclaim \"other-data\"");
}

/* ---- VolumeZone ----------------------------------------------------------------------- */

/* volume_zone_test.go TestSingleZone, TestMultiZone: a bound volume's zone or region labels
 * (several zones joined by "__") must be matched by a node that has any topology label; the
 * beta label of the volume matches the GA label of the node. */
static void
test_volume_zone (void **state)
{
  g_autoptr (FsSnapshot) s = load (
      NODE ("in-zone", "topology.kubernetes.io/zone: us-west1-a")
      NODE ("other-zone", "topology.kubernetes.io/zone: us-west1-c")
      NODE ("no-labels", "")
      NODE ("region-only", "topology.kubernetes.io/region: us-west1")
      "- kind: StorageClassList\n  items: []\n"
      "- kind: PersistentVolume\n  metadata: {name: pv-a, labels: {failure-domain.beta.kubernetes.io/zone: us-west1-a__us-west1-b}}\n"
      "  spec: {capacity: {storage: 1Gi}}\n"
      CLAIM ("pvc-a", ", annotations: {" BOUND "}}\n  spec: {volumeName: pv-a}")
      POD ("p", "", "{name: a, persistentVolumeClaim: {claimName: pvc-a}}"));
  ASSERT_REASON (s, "p", "in-zone", "");
  ASSERT_REASON (s, "p", "other-zone", "node(s) had no available volume zone");
  ASSERT_REASON (s, "p", "no-labels", "");
  ASSERT_REASON (s, "p", "region-only", "node(s) had no available volume zone");
}

/* ---- what the snapshot lacks ---------------------------------------------------------- */

/* A snapshot without claims cannot tell a missing claim from one not fetched: the claim-based
 * checks do not run (the disk conflicts, which need none, still do). */
static void
test_without_claims (void **state)
{
  g_autoptr (FsSnapshot) s = load (
      NODE ("n1", "") POD ("on-node", "n1", "{name: a, gcePersistentDisk: {pdName: foo}}")
      POD ("claim", "", "{name: a, persistentVolumeClaim: {claimName: anything}}")
      POD ("disk", "", "{name: a, persistentVolumeClaim: {claimName: anything}}, {name: b, gcePersistentDisk: {pdName: foo}}"));
  ASSERT_REASON (s, "claim", "n1", "");
  ASSERT_REASON (s, "disk", "n1", "node(s) had no available disk");
  assert_true (fs_fit_reason_is_modelled ("pod has unbound immediate PersistentVolumeClaims"));
  assert_true (fs_fit_reason_is_volume ("node(s) had volume node affinity conflict"));
  assert_false (fs_fit_reason_is_modelled ("node(s) did not have enough free storage"));
}

/* The decoder keeps the volume types the filters read, and two pods that differ only by their
 * volumes get distinct specs. */
static void
test_decoded_volumes (void **state)
{
  g_autoptr (FsSnapshot) s = load (
      NODE ("n1", "")
      POD ("a", "", "{name: x, configMap: {name: c}}, {name: y, rbd: {monitors: [m1, m2], image: img}}")
      POD ("b", "", "{name: x, persistentVolumeClaim: {claimName: one, readOnly: true}}")
      POD ("c", "", "{name: x, persistentVolumeClaim: {claimName: two}}"));
  const FsPod *a = fs_snapshot_find_pod (s, "ns", "a");
  assert_int_equal (a->spec->volumes->n, 1);
  const FsVolume *rbd = &a->spec->volumes->items[0];
  assert_int_equal (rbd->type, FS_VOLUME_RBD);
  assert_string_equal (rbd->pool, "rbd");
  assert_int_equal (rbd->n_monitors, 2);
  const FsPod *b = fs_snapshot_find_pod (s, "ns", "b");
  const FsPod *c = fs_snapshot_find_pod (s, "ns", "c");
  assert_true (b->spec != c->spec);
  assert_true (b->spec->volumes->items[0].read_only);
  assert_string_equal (c->spec->volumes->items[0].id, "two");
  test_expect_error ("kind: Pod\nmetadata: {name: p}\nspec: {volumes: [{name: x, persistentVolumeClaim: {}}]}\n",
                     "claimName", NULL);
  test_expect_error ("kind: PersistentVolumeClaim\nmetadata: {name: p}\nspec: {accessModes: [ReadWriteSometimes]}\n",
                     "ReadWriteSometimes", NULL);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_disk_conflicts),
    cmocka_unit_test (test_rbd_iscsi_conflicts),
    cmocka_unit_test (test_read_write_once_pod),
    cmocka_unit_test (test_csi_limits),
    cmocka_unit_test (test_binding_prefilter),
    cmocka_unit_test (test_binding_filter),
    cmocka_unit_test (test_matching_volumes),
    cmocka_unit_test (test_eligible_nodes),
    cmocka_unit_test (test_pv_not_found),
    cmocka_unit_test (test_volume_zone),
    cmocka_unit_test (test_without_claims),
    cmocka_unit_test (test_decoded_volumes),
  };
  return cmocka_run_group_tests_name ("volumes", tests, NULL, NULL);
}
