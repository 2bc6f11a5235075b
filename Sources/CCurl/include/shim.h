// The one C header of the HTTP layer. libcurl is not linked but loaded on
// first use (see curl_loader.c): linked, its thirty dependent libraries would
// cost every start of `bunting serve` about 5 ms, HTTP or not. These typed
// functions stand in for libcurl's variadic ones and call it through the
// loaded symbols; curl.h gives the types and option constants.
#ifndef BUNTING_CCURL_SHIM_H
#define BUNTING_CCURL_SHIM_H

#include <curl/curl.h>
#include <time.h>

/// Loads libcurl and runs curl_global_init, once per process (thread-safe).
/// Returns NULL when libcurl is usable, or why it is not. Every other
/// function here must only be called after it returned NULL.
const char *bunting_curl_load(void);

/// The libcurl version string, e.g. "libcurl/7.88.1 OpenSSL/3.0.11 ...".
const char *bunting_curl_version(void);

CURL *bunting_curl_easy_init(void);
void bunting_curl_easy_cleanup(CURL *handle);
/// Forgets every option; live connections and caches stay, for reuse.
void bunting_curl_easy_reset(CURL *handle);
CURLcode bunting_curl_easy_perform(CURL *handle);
const char *bunting_curl_easy_strerror(CURLcode code);

CURLcode bunting_curl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode bunting_curl_setopt_off(CURL *handle, CURLoption option, curl_off_t value);
/// libcurl copies strings it is given (except POSTFIELDS, which is a pointer option).
CURLcode bunting_curl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode bunting_curl_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode bunting_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *list);

/// The shape of CURLOPT_WRITEFUNCTION.
typedef size_t (*bunting_curl_write_callback)(char *data, size_t size, size_t count, void *context);
CURLcode bunting_curl_setopt_write_function(CURL *handle, bunting_curl_write_callback callback);
/// CURLOPT_HEADERFUNCTION has the same shape: one header line at a time.
CURLcode bunting_curl_setopt_header_function(CURL *handle, bunting_curl_write_callback callback);

CURLcode bunting_curl_getinfo_long(CURL *handle, CURLINFO info, long *value);
/// The string belongs to the handle and lives until its next transfer.
CURLcode bunting_curl_getinfo_string(CURL *handle, CURLINFO info, const char **value);

/// The value of the last response's header `name` (the last one if repeated),
/// or NULL. It belongs to the handle and lives until its next transfer.
const char *bunting_curl_response_header(CURL *handle, const char *name);

// The multi interface, for a transfer that lasts (an event stream): its
// wait can be cut short from another thread with bunting_curl_multi_wakeup.
CURLM *bunting_curl_multi_init(void);
CURLMcode bunting_curl_multi_cleanup(CURLM *multi);
CURLMcode bunting_curl_multi_add_handle(CURLM *multi, CURL *handle);
CURLMcode bunting_curl_multi_remove_handle(CURLM *multi, CURL *handle);
CURLMcode bunting_curl_multi_perform(CURLM *multi, int *running);
/// Waits up to `timeout_ms` for activity on the transfers, or a wakeup.
CURLMcode bunting_curl_multi_poll(CURLM *multi, int timeout_ms);
/// Thread-safe: ends a bunting_curl_multi_poll under way (or the next one).
CURLMcode bunting_curl_multi_wakeup(CURLM *multi);
/// The result of a transfer that ended, from the multi handle's messages;
/// CURLE_OK also when none is queued (call once the transfer stopped running).
CURLcode bunting_curl_multi_result(CURLM *multi);

struct curl_slist *bunting_curl_slist_append(struct curl_slist *list, const char *text);
void bunting_curl_slist_free_all(struct curl_slist *list);

/// Parses an HTTP date (IMF-fixdate, RFC 850 or asctime); -1 if it is none.
time_t bunting_curl_getdate(const char *text);

#endif
