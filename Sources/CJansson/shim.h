// The one C header of the JSON layer. jansson's type tests and flag helpers are
// macros, which Swift cannot call; these inline functions stand in for them.
#ifndef BUNTING_CJANSSON_SHIM_H
#define BUNTING_CJANSSON_SHIM_H

#include <jansson.h>

static inline int bunting_json_type(const json_t *json) { return (int)json_typeof(json); }

/// Decoding: any value at the top level, NUL kept inside strings, a key given twice refused.
static inline size_t bunting_json_decode_flags(void) {
    return JSON_DECODE_ANY | JSON_ALLOW_NUL | JSON_REJECT_DUPLICATES;
}

/// Decoding one value at the start of a longer text (see JSON+Pieces.swift):
/// as above, and the text may go on after the value.
static inline size_t bunting_json_decode_piece_flags(void) {
    return bunting_json_decode_flags() | JSON_DISABLE_EOF_CHECK;
}

/// Encoding: compact, any value at the top level, reals with `digits` significant digits.
static inline size_t bunting_json_encode_flags(int digits) {
    return JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(digits);
}

/// Swift may hand over a null pointer for an empty string; jansson wants a valid one.
static inline json_t *bunting_json_stringn(const char *value, size_t length) {
    return json_stringn_nocheck(value ? value : "", length);
}

/// Takes over the reference to `value`, as json_object_setn_new_nocheck does.
static inline int bunting_json_object_set(json_t *object, const char *key, size_t length, json_t *value) {
    return json_object_setn_new_nocheck(object, key ? key : "", length, value);
}

static inline int bunting_json_error_code(const json_error_t *error) { return (int)json_error_code(error); }

static inline const char *bunting_json_error_text(const json_error_t *error) { return error->text; }

#endif
