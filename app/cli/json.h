/* json: a small streaming JSON writer (commas and escaping handled). */
#ifndef RS_JSON_H
#define RS_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct json {
    FILE *f;
    int depth;
    bool first[64];
} json_t;

void json_init(json_t *j, FILE *f);
/* key is NULL inside arrays and at the top level. */
void json_obj_begin(json_t *j, const char *key);
void json_obj_end(json_t *j);
void json_arr_begin(json_t *j, const char *key);
void json_arr_end(json_t *j);
void json_int(json_t *j, const char *key, int64_t v);
void json_str(json_t *j, const char *key, const char *s);
void json_bool(json_t *j, const char *key, bool v);
void json_null(json_t *j, const char *key);
void json_double(json_t *j, const char *key, double v);
/* The five keys of a footprint (DESIGN §9) as an object under key. */
struct footprint;
void json_footprint(json_t *j, const char *key, const struct footprint *f);
/* Where node i of r came from (DESIGN §10): "hlo", "op_name", "source",
 * each "" when unknown; no keys at all for a node that says nothing of it
 * (a plain §1 node, r NULL or i < 0), so those documents keep their keys. */
struct routine;
void json_node_origin(json_t *j, const struct routine *r, int32_t i);
/* An array under key of the names of r's nodes whose is_inline is set,
 * in node order (the first n nodes). */
void json_inline_nodes(json_t *j, const char *key, const struct routine *r, const uint8_t *is_inline, int32_t n);
/* Ends the document with a newline. */
void json_finish(json_t *j);

#endif
