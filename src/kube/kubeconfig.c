/* fitscale — kubeconfig and in-cluster configuration (see include/fitscale/kubeconfig.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <yaml.h>

#include "fitscale/model/error.h"
#include "fitscale/kube/kubeconfig.h"
#include "fitscale/model/timeutil.h"

#define MAX_KUBECONFIG_BYTES (16u << 20)
#define MAX_PEM_BYTES (4u << 20)   /* a CA bundle, a certificate or a key */
#define MAX_TOKEN_BYTES (1u << 20)

/* One kubeconfig file, parsed. */
typedef struct {
  char *path;
  char *dir;
  yaml_document_t document;
} KubeFile;

/* A named entry of clusters, users or contexts: the inner map, in the file that defined it
 * first (loader.go: the first file to set a key wins, and the entry is taken whole). */
typedef struct {
  KubeFile *file;
  yaml_node_t *node;
} Entry;

typedef struct {
  GPtrArray *files;
  GHashTable *clusters, *users, *contexts;  /* name -> Entry (owned) */
  char *current_context;
  KubeFile *current_context_file;
} Kubeconfig;

static void
kube_file_free (KubeFile *file)
{
  yaml_document_delete (&file->document);
  g_free (file->path);
  g_free (file->dir);
  g_free (file);
}

static void
kubeconfig_clear (Kubeconfig *config)
{
  g_hash_table_unref (config->clusters);
  g_hash_table_unref (config->users);
  g_hash_table_unref (config->contexts);
  g_ptr_array_unref (config->files);
  g_free (config->current_context);
}

void
fs_connection_flags_clear (FsConnectionFlags *flags)
{
  g_free (flags->kubeconfig);
  g_free (flags->context);
  g_free (flags->cluster);
  g_free (flags->user);
  g_free (flags->server);
  g_free (flags->token);
  g_free (flags->certificate_authority);
  g_free (flags->client_certificate);
  g_free (flags->client_key);
  g_free (flags->tls_server_name);
  g_free (flags->request_timeout);
  g_free (flags->namespace);
  memset (flags, 0, sizeof *flags);
}

static void
exec_config_free (FsExecConfig *exec)
{
  if (exec == NULL)
    return;
  g_free (exec->command);
  g_strfreev (exec->args);
  g_strfreev (exec->env);
  g_free (exec->api_version);
  g_free (exec->install_hint);
  g_free (exec->interactive_mode);
  g_free (exec);
}

void
fs_rest_config_free (FsRestConfig *config)
{
  if (config == NULL)
    return;
  g_free (config->source);
  g_free (config->context);
  g_free (config->user);
  g_free (config->server);
  g_free (config->tls_server_name);
  g_clear_pointer (&config->ca_pem, g_bytes_unref);
  g_free (config->ca_origin);
  g_clear_pointer (&config->client_cert_pem, g_bytes_unref);
  g_clear_pointer (&config->client_key_pem, g_bytes_unref);
  if (config->token != NULL)
    explicit_bzero (config->token, strlen (config->token));
  g_free (config->token);
  g_free (config->token_file);
  g_free (config->proxy_url);
  exec_config_free (config->exec);
  g_free (config->namespace);
  g_free (config->context_namespace);
  g_free (config);
}

static GBytes *
bytes_ref0 (GBytes *bytes)
{
  return bytes != NULL ? g_bytes_ref (bytes) : NULL;
}

FsRestConfig *
fs_rest_config_copy (const FsRestConfig *config)
{
  FsRestConfig *copy = g_new0 (FsRestConfig, 1);
  *copy = *config;
  copy->source = g_strdup (config->source);
  copy->context = g_strdup (config->context);
  copy->user = g_strdup (config->user);
  copy->server = g_strdup (config->server);
  copy->tls_server_name = g_strdup (config->tls_server_name);
  copy->ca_pem = bytes_ref0 (config->ca_pem);
  copy->ca_origin = g_strdup (config->ca_origin);
  copy->client_cert_pem = bytes_ref0 (config->client_cert_pem);
  copy->client_key_pem = bytes_ref0 (config->client_key_pem);
  copy->token = g_strdup (config->token);
  copy->token_file = g_strdup (config->token_file);
  copy->proxy_url = g_strdup (config->proxy_url);
  if (config->exec != NULL)
    {
      copy->exec = g_new0 (FsExecConfig, 1);
      *copy->exec = *config->exec;
      copy->exec->command = g_strdup (config->exec->command);
      copy->exec->args = g_strdupv (config->exec->args);
      copy->exec->env = g_strdupv (config->exec->env);
      copy->exec->api_version = g_strdup (config->exec->api_version);
      copy->exec->install_hint = g_strdup (config->exec->install_hint);
      copy->exec->interactive_mode = g_strdup (config->exec->interactive_mode);
    }
  copy->namespace = g_strdup (config->namespace);
  copy->context_namespace = g_strdup (config->context_namespace);
  return copy;
}

const char *
fs_service_account_dir (void)
{
  const char *dir = g_getenv ("FS_SERVICEACCOUNT_DIR");
  return dir != NULL && *dir != '\0' ? dir : "/var/run/secrets/kubernetes.io/serviceaccount";
}

gboolean
fs_parse_request_timeout (const char *text, int64_t *ms)
{
  char *end = NULL;
  gint64 seconds = g_ascii_strtoll (text, &end, 10);
  if (end != text && *end == '\0' && seconds >= 0 && seconds < G_MAXINT64 / 1000)
    {
      *ms = seconds * 1000; /* kubectl: a bare integer is seconds */
      return TRUE;
    }
  return fs_duration_parse (text, strlen (text), ms) && *ms >= 0;
}

/* ---- reading the YAML ----------------------------------------------------------------- */

static yaml_node_t *
map_get (yaml_document_t *document, yaml_node_t *map, const char *key)
{
  if (map == NULL || map->type != YAML_MAPPING_NODE)
    return NULL;
  for (yaml_node_pair_t *pair = map->data.mapping.pairs.start; pair < map->data.mapping.pairs.top; pair++)
    {
      yaml_node_t *k = yaml_document_get_node (document, pair->key);
      if (k != NULL && k->type == YAML_SCALAR_NODE && strlen (key) == k->data.scalar.length
          && memcmp (k->data.scalar.value, key, k->data.scalar.length) == 0)
        return yaml_document_get_node (document, pair->value);
    }
  return NULL;
}

/* The scalar at KEY of MAP (NULL when absent, empty or not a scalar). */
static const char *
map_text (yaml_document_t *document, yaml_node_t *map, const char *key)
{
  yaml_node_t *node = map_get (document, map, key);
  if (node == NULL || node->type != YAML_SCALAR_NODE || node->data.scalar.length == 0)
    return NULL;
  return (const char *) node->data.scalar.value;
}

static gboolean
map_bool (yaml_document_t *document, yaml_node_t *map, const char *key)
{
  return g_strcmp0 (map_text (document, map, key), "true") == 0;
}

/* Adds every NAME of LIST (clusters, users or contexts: [{name, INNER: {...}}]) not yet seen. */
static void
collect_entries (KubeFile *file, const char *list, const char *inner, GHashTable *entries)
{
  yaml_document_t *document = &file->document;
  yaml_node_t *sequence = map_get (document, yaml_document_get_root_node (document), list);
  if (sequence == NULL || sequence->type != YAML_SEQUENCE_NODE)
    return;
  for (yaml_node_item_t *item = sequence->data.sequence.items.start; item < sequence->data.sequence.items.top; item++)
    {
      yaml_node_t *entry = yaml_document_get_node (document, *item);
      const char *name = map_text (document, entry, "name");
      yaml_node_t *body = map_get (document, entry, inner);
      if (name == NULL || body == NULL || g_hash_table_contains (entries, name))
        continue;
      Entry *found = g_new (Entry, 1);
      *found = (Entry){ file, body };
      g_hash_table_insert (entries, g_strdup (name), found);
    }
}

gboolean
fs_read_small_file (const char *path, const char *what, gsize max_bytes, char **contents, gsize *length,
                    GError **error)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), "%s %s: %s", what, path, g_strerror (saved));
      return FALSE;
    }
  GString *data = g_string_new (NULL);
  char chunk[16384];
  ssize_t got;
  while ((got = read (fd, chunk, sizeof chunk)) != 0 && data->len <= max_bytes)
    {
      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0)
        break;
      g_string_append_len (data, chunk, got);
    }
  int saved = errno;
  close (fd);
  if (got < 0 || data->len > max_bytes)
    {
      if (got < 0)
        g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), "%s %s: %s", what, path, g_strerror (saved));
      else
        g_set_error (error, FS_ERROR, FS_ERROR_LIMIT, "%s %s: over %" G_GSIZE_FORMAT " %s", what, path,
                     max_bytes >= (1u << 20) ? max_bytes >> 20 : max_bytes >> 10, max_bytes >= (1u << 20) ? "MiB" : "KiB");
      explicit_bzero (data->str, data->len);
      g_string_free (data, TRUE);
      return FALSE;
    }
  if (length != NULL)
    *length = data->len;
  *contents = g_string_free (data, FALSE);
  return TRUE;
}

static gboolean
parse_file (const char *path, KubeFile **out, GError **error)
{
  g_autofree char *data = NULL;
  gsize length = 0;
  if (!fs_read_small_file (path, "kubeconfig", MAX_KUBECONFIG_BYTES, &data, &length, error))
    return FALSE;
  KubeFile *file = g_new0 (KubeFile, 1);
  yaml_parser_t parser;
  yaml_parser_initialize (&parser);
  yaml_parser_set_input_string (&parser, (const unsigned char *) data, length);
  gboolean ok = yaml_parser_load (&parser, &file->document);
  if (!ok)
    g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "kubeconfig %s: line %zu: %s", path,
                 parser.problem_mark.line + 1, parser.problem != NULL ? parser.problem : "not YAML");
  yaml_parser_delete (&parser);
  if (!ok)
    {
      g_free (file);
      return FALSE;
    }
  yaml_node_t *root = yaml_document_get_root_node (&file->document);
  if (root != NULL && root->type != YAML_MAPPING_NODE)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "kubeconfig %s: not a mapping", path);
      yaml_document_delete (&file->document);
      g_free (file);
      return FALSE;
    }
  file->path = g_strdup (path);
  file->dir = g_path_get_dirname (path);
  *out = file;
  return TRUE;
}

static gboolean
add_file (Kubeconfig *config, const char *path, GError **error)
{
  KubeFile *file;
  if (!parse_file (path, &file, error))
    return FALSE;
  g_ptr_array_add (config->files, file);
  collect_entries (file, "clusters", "cluster", config->clusters);
  collect_entries (file, "users", "user", config->users);
  collect_entries (file, "contexts", "context", config->contexts);
  const char *current = map_text (&file->document, yaml_document_get_root_node (&file->document), "current-context");
  if (config->current_context == NULL && current != NULL)
    {
      config->current_context = g_strdup (current);
      config->current_context_file = file;
    }
  return TRUE;
}

/* The files the loader reads: --kubeconfig alone (it must exist), else KUBECONFIG's list
 * (missing files skipped, duplicates dropped), else ~/.kube/config when present. */
static gboolean
load_files (const FsConnectionFlags *flags, Kubeconfig *config, GError **error)
{
  if (flags->kubeconfig != NULL)
    {
      if (!add_file (config, flags->kubeconfig, error))
        {
          g_prefix_error (error, "--kubeconfig: ");
          return FALSE;
        }
      return TRUE;
    }
  const char *list = g_getenv ("KUBECONFIG");
  if (list != NULL && *list != '\0')
    {
      g_auto (GStrv) paths = g_strsplit (list, G_SEARCHPATH_SEPARATOR_S, -1);
      g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
      for (char **path = paths; *path != NULL; path++)
        if (**path != '\0' && g_hash_table_add (seen, *path) && g_file_test (*path, G_FILE_TEST_EXISTS)
            && !add_file (config, *path, error))
          return FALSE;
      return TRUE;
    }
  g_autofree char *home = g_build_filename (g_get_home_dir (), ".kube", "config", NULL);
  return !g_file_test (home, G_FILE_TEST_EXISTS) || add_file (config, home, error);
}

/* ---- the chosen entries ------------------------------------------------------------- */

static char *
resolve_path (const KubeFile *file, const char *path)
{
  if (path == NULL)
    return NULL;
  if (g_path_is_absolute (path) || file == NULL)
    return g_strdup (path);
  return g_build_filename (file->dir, path, NULL);
}

/* PEM bytes from FIELD-data (base64) or FIELD (a path relative to the kubeconfig); data
 * overrides the path.  *ORIGIN names where it came from. */
static gboolean
read_pem (const Entry *entry, const char *field, GBytes **out, char **origin, GError **error)
{
  if (entry == NULL)
    return TRUE;
  yaml_document_t *document = &entry->file->document;
  g_autofree char *data_key = g_strdup_printf ("%s-data", field);
  const char *data = map_text (document, entry->node, data_key);
  if (data != NULL)
    {
      gsize length = 0;
      guchar *decoded = g_base64_decode (data, &length);
      if (length == 0)
        {
          g_free (decoded);
          g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "kubeconfig %s: %s is not base64", entry->file->path, data_key);
          return FALSE;
        }
      *out = g_bytes_new_take (decoded, length);
      if (origin != NULL)
        *origin = g_strdup_printf ("%s in %s", data_key, entry->file->path);
      return TRUE;
    }
  g_autofree char *path = resolve_path (entry->file, map_text (document, entry->node, field));
  if (path == NULL)
    return TRUE;
  char *contents = NULL;
  gsize length = 0;
  if (!fs_read_small_file (path, "file", MAX_PEM_BYTES, &contents, &length, error))
    {
      g_prefix_error (error, "kubeconfig %s: %s: ", entry->file->path, field);
      return FALSE;
    }
  *out = g_bytes_new_take (contents, length);
  if (origin != NULL)
    *origin = g_steal_pointer (&path);
  return TRUE;
}

/* A PEM file given on the command line (relative to the working directory). */
static gboolean
read_flag_pem (const char *path, const char *flag, GBytes **out, char **origin, GError **error)
{
  char *contents = NULL;
  gsize length = 0;
  if (!fs_read_small_file (path, "file", MAX_PEM_BYTES, &contents, &length, error))
    {
      g_prefix_error (error, "%s: ", flag);
      return FALSE;
    }
  g_clear_pointer (out, g_bytes_unref);
  *out = g_bytes_new_take (contents, length);
  if (origin != NULL)
    {
      g_free (*origin);
      *origin = g_strdup (path);
    }
  return TRUE;
}

static char **
read_string_list (yaml_document_t *document, yaml_node_t *sequence)
{
  if (sequence == NULL || sequence->type != YAML_SEQUENCE_NODE)
    return NULL;
  GPtrArray *items = g_ptr_array_new ();
  for (yaml_node_item_t *item = sequence->data.sequence.items.start; item < sequence->data.sequence.items.top; item++)
    {
      yaml_node_t *node = yaml_document_get_node (document, *item);
      if (node != NULL && node->type == YAML_SCALAR_NODE)
        g_ptr_array_add (items, g_strndup ((const char *) node->data.scalar.value, node->data.scalar.length));
    }
  g_ptr_array_add (items, NULL);
  return (char **) g_ptr_array_free (items, FALSE);
}

static FsExecConfig *
read_exec (const Entry *user, yaml_node_t *exec)
{
  yaml_document_t *document = &user->file->document;
  FsExecConfig *out = g_new0 (FsExecConfig, 1);
  const char *command = map_text (document, exec, "command");
  /* a command with a slash is a path relative to the kubeconfig; a bare name is looked up */
  out->command = command != NULL && strchr (command, '/') != NULL ? resolve_path (user->file, command)
                                                                   : g_strdup (command);
  out->args = read_string_list (document, map_get (document, exec, "args"));
  yaml_node_t *env = map_get (document, exec, "env");
  GPtrArray *pairs = g_ptr_array_new ();
  for (yaml_node_item_t *item = env != NULL && env->type == YAML_SEQUENCE_NODE ? env->data.sequence.items.start : NULL;
       item != NULL && item < env->data.sequence.items.top; item++)
    {
      yaml_node_t *pair = yaml_document_get_node (document, *item);
      const char *name = map_text (document, pair, "name");
      const char *value = map_text (document, pair, "value");
      if (name != NULL)
        g_ptr_array_add (pairs, g_strdup_printf ("%s=%s", name, value != NULL ? value : ""));
    }
  g_ptr_array_add (pairs, NULL);
  out->env = (char **) g_ptr_array_free (pairs, FALSE);
  out->api_version = g_strdup (map_text (document, exec, "apiVersion"));
  out->install_hint = g_strdup (map_text (document, exec, "installHint"));
  out->provide_cluster_info = map_bool (document, exec, "provideClusterInfo");
  out->interactive_mode = g_strdup (map_text (document, exec, "interactiveMode"));
  return out;
}

static gboolean
read_cluster (const Entry *cluster, FsRestConfig *out, GError **error)
{
  if (cluster == NULL)
    return TRUE;
  yaml_document_t *document = &cluster->file->document;
  out->server = g_strdup (map_text (document, cluster->node, "server"));
  out->tls_server_name = g_strdup (map_text (document, cluster->node, "tls-server-name"));
  out->insecure = map_bool (document, cluster->node, "insecure-skip-tls-verify");
  out->proxy_url = g_strdup (map_text (document, cluster->node, "proxy-url"));
  out->disable_compression = map_bool (document, cluster->node, "disable-compression");
  return read_pem (cluster, "certificate-authority", &out->ca_pem, &out->ca_origin, error);
}

static gboolean
read_user (const Entry *user, FsRestConfig *out, GError **error)
{
  if (user == NULL)
    return TRUE;
  yaml_document_t *document = &user->file->document;
  if (map_get (document, user->node, "auth-provider") != NULL)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID,
                   "kubeconfig %s: user %s uses an auth-provider, which client-go no longer ships; "
                   "use an exec credential plugin (e.g. gke-gcloud-auth-plugin, kubelogin)", user->file->path, out->user);
      return FALSE;
    }
  if (map_get (document, user->node, "username") != NULL)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID,
                   "kubeconfig %s: user %s uses basic authentication (username/password), which "
                   "fitscale does not send; use a token or a client certificate", user->file->path, out->user);
      return FALSE;
    }
  out->token = g_strdup (map_text (document, user->node, "token"));
  out->token_file = resolve_path (user->file, map_text (document, user->node, "tokenFile"));
  yaml_node_t *exec = map_get (document, user->node, "exec");
  if (exec != NULL)
    out->exec = read_exec (user, exec);
  return read_pem (user, "client-certificate", &out->client_cert_pem, NULL, error)
         && read_pem (user, "client-key", &out->client_key_pem, NULL, error);
}

static const Entry *
find_entry (GHashTable *entries, const char *name)
{
  return name != NULL ? g_hash_table_lookup (entries, name) : NULL;
}

static gboolean
from_kubeconfig (const FsConnectionFlags *flags, Kubeconfig *config, FsRestConfig *out, GError **error)
{
  const char *context_name = flags->context != NULL ? flags->context : config->current_context;
  const Entry *context = find_entry (config->contexts, context_name);
  if (context_name != NULL && context == NULL)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_NOT_FOUND, "context \"%s\" not found in the kubeconfig (%s)",
                   context_name, ((KubeFile *) config->files->pdata[0])->path);
      return FALSE;
    }
  yaml_document_t *document = context != NULL ? &context->file->document : NULL;
  const char *cluster_name = flags->cluster != NULL ? flags->cluster
                             : context != NULL ? map_text (document, context->node, "cluster") : NULL;
  const char *user_name = flags->user != NULL ? flags->user
                          : context != NULL ? map_text (document, context->node, "user") : NULL;
  const Entry *cluster = find_entry (config->clusters, cluster_name);
  const Entry *user = find_entry (config->users, user_name);
  if (cluster_name != NULL && cluster == NULL && flags->server == NULL)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_NOT_FOUND, "cluster \"%s\" not found in the kubeconfig", cluster_name);
      return FALSE;
    }
  out->context = g_strdup (context_name);
  out->user = g_strdup (user_name);
  if (context != NULL)
    out->namespace = g_strdup (map_text (document, context->node, "namespace"));
  const KubeFile *first = config->files->pdata[0];
  out->source = g_strdup_printf ("kubeconfig %s%s%s%s", context != NULL ? context->file->path : first->path,
                                 context_name != NULL ? " (context " : "", context_name != NULL ? context_name : "",
                                 context_name != NULL ? ")" : "");
  return read_cluster (cluster, out, error) && read_user (user, out, error);
}

/* client-go InClusterConfig: KUBERNETES_SERVICE_HOST and _PORT, the service account's token,
 * ca.crt and namespace. */
static gboolean
from_cluster (FsRestConfig *out, GError **error)
{
  const char *host = g_getenv ("KUBERNETES_SERVICE_HOST");
  const char *port = g_getenv ("KUBERNETES_SERVICE_PORT");
  const char *dir = fs_service_account_dir ();
  gboolean ipv6 = strchr (host, ':') != NULL;
  out->server = g_strdup_printf ("https://%s%s%s:%s", ipv6 ? "[" : "", host, ipv6 ? "]" : "", port);
  out->source = g_strdup ("in-cluster service account");
  out->user = g_strdup ("serviceaccount");
  out->token_file = g_build_filename (dir, "token", NULL);
  g_autofree char *ca = g_build_filename (dir, "ca.crt", NULL);
  char *contents = NULL;
  gsize length = 0;
  if (!fs_read_small_file (ca, "file", MAX_PEM_BYTES, &contents, &length, error))
    {
      g_prefix_error (error, "in-cluster configuration: ");
      return FALSE;
    }
  out->ca_pem = g_bytes_new_take (contents, length);
  out->ca_origin = g_steal_pointer (&ca);
  g_autofree char *ns_path = g_build_filename (dir, "namespace", NULL);
  g_autofree char *ns = NULL;
  if (fs_read_small_file (ns_path, "file", MAX_TOKEN_BYTES, &ns, NULL, NULL))
    out->namespace = g_strdup (g_strstrip (ns));
  return TRUE;
}

static gboolean
apply_flags (const FsConnectionFlags *flags, FsRestConfig *out, GError **error)
{
  if (flags->server != NULL)
    {
      g_free (out->server);
      out->server = g_strdup (flags->server);
    }
  if (flags->tls_server_name != NULL)
    {
      g_free (out->tls_server_name);
      out->tls_server_name = g_strdup (flags->tls_server_name);
    }
  out->insecure |= flags->insecure_skip_tls_verify;
  if (flags->token != NULL)
    {
      g_free (out->token);
      out->token = g_strdup (flags->token);
      g_clear_pointer (&out->exec, exec_config_free);
    }
  if ((flags->certificate_authority != NULL
       && !read_flag_pem (flags->certificate_authority, "--certificate-authority", &out->ca_pem, &out->ca_origin, error))
      || (flags->client_certificate != NULL
          && !read_flag_pem (flags->client_certificate, "--client-certificate", &out->client_cert_pem, NULL, error))
      || (flags->client_key != NULL && !read_flag_pem (flags->client_key, "--client-key", &out->client_key_pem, NULL, error)))
    return FALSE;
  out->context_namespace = g_strdup (out->namespace);
  if (flags->namespace != NULL)
    {
      g_free (out->namespace);
      out->namespace = g_strdup (flags->namespace);
      out->namespace_explicit = TRUE;
    }
  if (out->namespace == NULL)
    out->namespace = g_strdup ("default");
  if (flags->request_timeout != NULL && !fs_parse_request_timeout (flags->request_timeout, &out->timeout_ms))
    {
      g_set_error (error, FS_ERROR, FS_ERROR_USAGE,
                   "--request-timeout \"%s\": give a duration such as 30s, 2m or 0 (none)", flags->request_timeout);
      return FALSE;
    }
  return TRUE;
}

static gboolean
validate (FsRestConfig *out, GError **error)
{
  if (out->server == NULL)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_USAGE,
                   "no API server: the %s gives none (set one with --server, or read files with --snapshot)",
                   out->source != NULL ? out->source : "configuration");
      return FALSE;
    }
  while (g_str_has_suffix (out->server, "/"))
    out->server[strlen (out->server) - 1] = '\0';
  if (!g_str_has_prefix (out->server, "https://") && !g_str_has_prefix (out->server, "http://"))
    {
      char *with_scheme = g_strconcat ("https://", out->server, NULL);
      g_free (out->server);
      out->server = with_scheme;
    }
  if ((out->client_cert_pem == NULL) != (out->client_key_pem == NULL))
    {
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID, "user %s: a client certificate needs its key, and a key its certificate",
                   out->user != NULL ? out->user : "(flags)");
      return FALSE;
    }
  if (out->insecure && out->ca_pem != NULL && out->ca_origin != NULL && !g_str_has_prefix (out->source, "in-cluster"))
    {
      g_set_error (error, FS_ERROR, FS_ERROR_INVALID,
                   "specifying a root certificates file with the insecure flag is not allowed (%s)", out->ca_origin);
      return FALSE;
    }
  return TRUE;
}

FsRestConfig *
fs_rest_config_load (const FsConnectionFlags *flags, GError **error)
{
  g_autoptr (FsRestConfig) out = g_new0 (FsRestConfig, 1);
  Kubeconfig config = {
    .files = g_ptr_array_new_with_free_func ((GDestroyNotify) kube_file_free),
    .clusters = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free),
    .users = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free),
    .contexts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free),
  };
  gboolean ok = load_files (flags, &config, error);
  const char *host = g_getenv ("KUBERNETES_SERVICE_HOST"), *port = g_getenv ("KUBERNETES_SERVICE_PORT");
  gboolean in_cluster = host != NULL && *host != '\0' && port != NULL && *port != '\0';
  if (ok && config.files->len > 0)
    ok = from_kubeconfig (flags, &config, out, error);
  else if (ok && in_cluster && flags->server == NULL)
    ok = from_cluster (out, error);
  else if (ok && flags->server != NULL)
    out->source = g_strdup ("the command-line flags");
  else if (ok)
    {
      g_set_error (error, FS_ERROR, FS_ERROR_USAGE,
                   "no cluster to read: give --snapshot PATH (files from kubectl get -o json), or a "
                   "kubeconfig (--kubeconfig, KUBECONFIG, ~/.kube/config), or --server");
      ok = FALSE;
    }
  kubeconfig_clear (&config);
  if (!ok || !apply_flags (flags, out, error) || !validate (out, error))
    return NULL;
  return g_steal_pointer (&out);
}
