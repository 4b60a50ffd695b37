/* fitscale — Kubernetes name validation and label-set lookups (see include/fitscale/names.h). */
#include "config.h"

#include <string.h>

#include "fitscale/model/names.h"

/* Length limits of k8s.io/apimachinery/pkg/api/validate/content (dns.go, kube.go). */
#define DNS1123_SUBDOMAIN_MAX 253
#define LABEL_KEY_NAME_MAX 63

static gboolean
is_lower_alnum (char c)
{
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

static gboolean
is_alnum (char c)
{
  return is_lower_alnum (c) || (c >= 'A' && c <= 'Z');
}

/* One label of dns1123SubdomainFmt: [a-z0-9]([-a-z0-9]*[a-z0-9])? (no length limit of its own;
 * content/dns.go bounds only the whole subdomain). */
static gboolean
is_dns1123_label_chars (const char *label, gsize len)
{
  if (len == 0 || !is_lower_alnum (label[0]) || !is_lower_alnum (label[len - 1]))
    return FALSE;
  for (gsize i = 1; i + 1 < len; i++)
    if (!is_lower_alnum (label[i]) && label[i] != '-')
      return FALSE;
  return TRUE;
}

/* content/dns.go IsDNS1123Subdomain: at most 253 bytes, dot-separated lowercase labels. */
gboolean
fs_name_is_dns1123_subdomain (const char *text, gsize len)
{
  if (len == 0 || len > DNS1123_SUBDOMAIN_MAX)
    return FALSE;
  gsize label_start = 0;
  for (gsize i = 0; i <= len; i++)
    if (i == len || text[i] == '.')
      {
        if (!is_dns1123_label_chars (text + label_start, i - label_start))
          return FALSE;
        label_start = i + 1;
      }
  return TRUE;
}

/* content/kube.go labelKeyFmt: ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9], 1 to 63 bytes. */
static gboolean
is_label_key_name (const char *name, gsize len)
{
  if (len == 0 || len > LABEL_KEY_NAME_MAX || !is_alnum (name[0]) || !is_alnum (name[len - 1]))
    return FALSE;
  for (gsize i = 1; i + 1 < len; i++)
    if (!is_alnum (name[i]) && name[i] != '-' && name[i] != '_' && name[i] != '.')
      return FALSE;
  return TRUE;
}

/* content/kube.go IsLabelKey (validation.IsQualifiedName): an optional DNS-1123 subdomain
 * prefix and '/', then a label-key name; more than one '/' is invalid. */
gboolean
fs_name_is_qualified (const char *text)
{
  const char *slash = strchr (text, '/');
  if (slash == NULL)
    return is_label_key_name (text, strlen (text));
  if (strchr (slash + 1, '/') != NULL)
    return FALSE;
  return fs_name_is_dns1123_subdomain (text, (gsize) (slash - text))
         && is_label_key_name (slash + 1, strlen (slash + 1));
}

/* validation.go IsValidLabelValue: empty, or a label-key name (at most 63). */
gboolean
fs_label_value_is_valid (const char *value)
{
  gsize len = strlen (value);
  return len == 0 || is_label_key_name (value, len);
}

gint
fs_label_compare (gconstpointer a, gconstpointer b)
{
  return strcmp (((const FsLabel *) a)->key, ((const FsLabel *) b)->key);
}

gboolean
fs_labels_lookup (const FsLabelSet *labels, const char *key, const char **value)
{
  if (labels == NULL || key == NULL)
    return FALSE;
  guint lo = 0, hi = labels->n;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      int order = strcmp (labels->items[mid].key, key);
      if (order == 0)
        {
          *value = labels->items[mid].value != NULL ? labels->items[mid].value : "";
          return TRUE;
        }
      if (order < 0)
        lo = mid + 1;
      else
        hi = mid;
    }
  return FALSE;
}

gboolean
fs_label_is_kubelet_owned (const char *key)
{
  /* k8s.io/api core/v1 well_known_labels.go, the keys updateDefaultLabels keeps current */
  static const char *const owned[] = {
    FS_LABEL_HOSTNAME, "topology.kubernetes.io/zone", "topology.kubernetes.io/region",
    "failure-domain.beta.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/region",
    "node.kubernetes.io/instance-type", "beta.kubernetes.io/instance-type", "kubernetes.io/os",
    "kubernetes.io/arch", "beta.kubernetes.io/os", "beta.kubernetes.io/arch", "node.kubernetes.io/windows-build",
  };
  for (gsize i = 0; key != NULL && i < G_N_ELEMENTS (owned); i++)
    if (strcmp (key, owned[i]) == 0)
      return TRUE;
  return FALSE;
}

const char *
fs_labels_get (const FsLabelSet *labels, const char *key)
{
  const char *value;
  return fs_labels_lookup (labels, key, &value) ? value : NULL;
}
