/* fitscale — small JSON documents as yajl trees (API Status bodies, exec credentials,
 * watch events): reading a string at a path and writing a tree back out.  Internal to
 * kube/; the tree belongs to the caller. */
#pragma once

#include <yajl/yajl_gen.h>
#include <yajl/yajl_tree.h>

/* The string at ROOT.FIRST(.SECOND), or NULL (SECOND may be NULL). */
const char *fs_json_tree_string (yajl_val root, const char *first, const char *second);

/* Writes VALUE to GEN as it is. */
void fs_json_tree_gen (yajl_gen gen, yajl_val value);
