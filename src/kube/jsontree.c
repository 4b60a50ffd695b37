/* fitscale — yajl tree helpers (see src/kube/jsontree.h). */
#include "config.h"

#include <string.h>

#include "jsontree.h"

const char *
fs_json_tree_string (yajl_val root, const char *first, const char *second)
{
  const char *path[] = { first, second, NULL };
  yajl_val value = yajl_tree_get (root, path, yajl_t_string);
  return value != NULL ? YAJL_GET_STRING (value) : NULL;
}

void
fs_json_tree_gen (yajl_gen gen, yajl_val value)
{
  if (YAJL_IS_STRING (value))
    yajl_gen_string (gen, (const unsigned char *) value->u.string, strlen (value->u.string));
  else if (YAJL_IS_NUMBER (value))
    yajl_gen_number (gen, value->u.number.r, strlen (value->u.number.r));
  else if (YAJL_IS_TRUE (value) || YAJL_IS_FALSE (value))
    yajl_gen_bool (gen, YAJL_IS_TRUE (value));
  else if (YAJL_IS_ARRAY (value))
    {
      yajl_gen_array_open (gen);
      for (size_t i = 0; i < value->u.array.len; i++)
        fs_json_tree_gen (gen, value->u.array.values[i]);
      yajl_gen_array_close (gen);
    }
  else if (YAJL_IS_OBJECT (value))
    {
      yajl_gen_map_open (gen);
      for (size_t i = 0; i < value->u.object.len; i++)
        {
          yajl_gen_string (gen, (const unsigned char *) value->u.object.keys[i], strlen (value->u.object.keys[i]));
          fs_json_tree_gen (gen, value->u.object.values[i]);
        }
      yajl_gen_map_close (gen);
    }
  else
    yajl_gen_null (gen);
}
