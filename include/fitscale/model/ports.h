/* fitscale — the NodePorts filter: the host ports a pod asks for, and whether a node has them
 * free.
 *
 * Pure functions, no allocation.  kube/ reads each container's ports and calls
 * fs_pod_host_ports once per pod spec (the list is interned in FsPodSpec.host_ports); the
 * snapshot gathers each node's ports in use when it is built (FsNode.used_ports,
 * model/objects.c); fs_fit_node (fit.h) asks fs_host_ports_fit between NodeAffinity and
 * NodeResourcesFit, as kube-scheduler's default profile orders them. */
#pragma once

#include <glib.h>

#include "fitscale/model/objects.h"

G_BEGIN_DECLS

/* One entry of a container's spec.containers[].ports (v1.ContainerPort) as read, with the
 * container it belongs to.  Strings are NULL when absent. */
typedef struct {
  const char *host_ip;
  const char *protocol;
  int32_t host_port;       /* 0 when absent */
  int32_t container_port;  /* 0 when not read: kube/ reads it in templates only, since the
                            * API server has applied the hostNetwork default to Pods */
  gboolean init;           /* the container is an init container */
  gboolean restartable;    /* ... with restartPolicy: Always (a sidecar) */
} FsContainerPort;

/* The host ports of a pod whose containers' ports are PORTS (N_PORTS of them, in any order)
 * and whose spec.hostNetwork is HOST_NETWORK, written to OUT (room for N_PORTS, zeroed
 * first); returns how many.  The API server's defaulting first (pkg/apis/core/v1/defaults.go
 * SetDefaults_Pod, defaultHostNetworkPorts: with hostNetwork every port without a hostPort
 * takes its containerPort; since v1.28 it is applied to Pods only, so pod templates need it
 * done here), then pkg/scheduler/util/utils.go GetHostPorts: the ports with hostPort > 0 of
 * the init containers with restartPolicy: Always, then of the containers. */
guint fs_pod_host_ports (const FsContainerPort *ports, guint n_ports, gboolean host_network,
                         FsHostPort *out);

/* Pods whose ports no longer count on a node (taken off it), as fs_fit_node's FsNodeLoad
 * says; NULL for none. */
typedef gboolean (*FsPodReleased) (const FsPod *pod, gpointer data);

/* pkg/scheduler/framework/types.go HostPortInfo.CheckConflict on the ports USED holds, those
 * of pods RELEASED returns TRUE for left out: after sanitize (an empty hostIP is 0.0.0.0, an
 * empty protocol TCP), a port of 0 or less conflicts with nothing; hostIP 0.0.0.0 conflicts
 * with the same protocol and port on any IP; another IP with the same protocol and port on
 * that IP or on 0.0.0.0. */
gboolean fs_host_port_conflicts (const FsUsedPortList *used, FsPodReleased released,
                                 gpointer released_data, const FsHostPort *wanted);

/* pkg/scheduler/framework/plugins/nodeports/node_ports.go fitsPorts: TRUE when no port of
 * WANTED conflicts (a pod without host ports is skipped: PreFilter returns Skip). */
gboolean fs_host_ports_fit (const FsHostPortList *wanted, const FsUsedPortList *used,
                            FsPodReleased released, gpointer released_data);

G_END_DECLS
