/* fitscale — the NodePorts filter (see include/fitscale/model/ports.h).
 *
 * Follows kubernetes/kubernetes pkg/scheduler/framework/plugins/nodeports/node_ports.go
 * (Filter, fitsPorts), pkg/scheduler/framework/types.go (HostPortInfo: Add, CheckConflict,
 * sanitize; NodeInfo.updateUsedPorts) and pkg/scheduler/util/utils.go GetHostPorts, in trees
 * of 2025-2026 (restartable init containers count since PR #132040, v1.34, back-ported to
 * 1.33). */
#include "config.h"

#include <string.h>

#include "fitscale/model/ports.h"

/* types.go DefaultBindAllHostIP */
#define BIND_ALL_HOST_IP "0.0.0.0"

/* HostPortInfo.sanitize: an empty hostIP is 0.0.0.0, an empty protocol TCP. */
static const char *
sanitized_ip (const char *ip)
{
  return ip != NULL && *ip != '\0' ? ip : BIND_ALL_HOST_IP;
}

static const char *
sanitized_protocol (const char *protocol)
{
  return protocol != NULL && *protocol != '\0' ? protocol : "TCP";
}

/* One pass of GetHostPorts over the containers of one kind (INIT), with defaultHostNetworkPorts
 * applied first. */
static guint
collect (const FsContainerPort *ports, guint n_ports, gboolean host_network, gboolean init,
         FsHostPort *out, guint n)
{
  for (guint i = 0; i < n_ports; i++)
    {
      const FsContainerPort *port = &ports[i];
      /* GetHostPorts: only init containers that run the pod's whole life */
      if (port->init != init || (init && !port->restartable))
        continue;
      /* defaults.go defaultHostNetworkPorts */
      int32_t host_port = port->host_port == 0 && host_network ? port->container_port
                                                                : port->host_port;
      if (host_port <= 0)
        continue;
      out[n].host_ip = port->host_ip;
      out[n].protocol = port->protocol;
      out[n].port = host_port;
      n++;
    }
  return n;
}

guint
fs_pod_host_ports (const FsContainerPort *ports, guint n_ports, gboolean host_network,
                   FsHostPort *out)
{
  if (n_ports == 0)
    return 0;
  memset (out, 0, n_ports * sizeof *out);
  guint n = collect (ports, n_ports, host_network, TRUE, out, 0);
  return collect (ports, n_ports, host_network, FALSE, out, n);
}

gboolean
fs_host_port_conflicts (const FsUsedPortList *used, FsPodReleased released,
                        gpointer released_data, const FsHostPort *wanted)
{
  if (wanted->port <= 0 || used == NULL)
    return FALSE;
  const char *ip = sanitized_ip (wanted->host_ip);
  const char *protocol = sanitized_protocol (wanted->protocol);
  gboolean any_ip = strcmp (ip, BIND_ALL_HOST_IP) == 0;
  for (guint i = 0; i < used->n; i++)
    {
      const FsUsedPort *entry = &used->items[i];
      if (entry->port.port != wanted->port
          || strcmp (sanitized_protocol (entry->port.protocol), protocol) != 0)
        continue;
      if (released != NULL && released (entry->pod, released_data))
        continue;
      /* 0.0.0.0 checks every IP's (protocol, port); another IP only its own and 0.0.0.0's */
      const char *entry_ip = sanitized_ip (entry->port.host_ip);
      if (any_ip || strcmp (entry_ip, BIND_ALL_HOST_IP) == 0 || strcmp (entry_ip, ip) == 0)
        return TRUE;
    }
  return FALSE;
}

gboolean
fs_host_ports_fit (const FsHostPortList *wanted, const FsUsedPortList *used,
                   FsPodReleased released, gpointer released_data)
{
  if (wanted == NULL)
    return TRUE;
  for (guint i = 0; i < wanted->n; i++)
    if (fs_host_port_conflicts (used, released, released_data, &wanted->items[i]))
      return FALSE;
  return TRUE;
}
