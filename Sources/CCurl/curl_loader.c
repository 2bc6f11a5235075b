// Loads libcurl with dlopen on first use and forwards to it. Why not link it:
// see shim.h. Calls go through pointers typed exactly as curl.h declares the
// functions, so the variadic ones are called as variadic functions.
#include "shim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static struct {
    CURLcode (*global_init)(long flags);
    char *(*version)(void);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *handle);
    void (*easy_reset)(CURL *handle);
    CURLcode (*easy_perform)(CURL *handle);
    const char *(*easy_strerror)(CURLcode code);
    CURLcode (*easy_setopt)(CURL *handle, CURLoption option, ...);
    CURLcode (*easy_getinfo)(CURL *handle, CURLINFO info, ...);
    CURLHcode (*easy_header)(CURL *handle, const char *name, size_t index, unsigned int origin, int request,
                             struct curl_header **header);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *multi);
    CURLMcode (*multi_add_handle)(CURLM *multi, CURL *handle);
    CURLMcode (*multi_remove_handle)(CURLM *multi, CURL *handle);
    CURLMcode (*multi_perform)(CURLM *multi, int *running);
    CURLMcode (*multi_poll)(CURLM *multi, struct curl_waitfd extra[], unsigned int count, int timeout_ms, int *ready);
    CURLMcode (*multi_wakeup)(CURLM *multi);
    CURLMsg *(*multi_info_read)(CURLM *multi, int *queued);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *text);
    void (*slist_free_all)(struct curl_slist *list);
    time_t (*getdate)(const char *text, const time_t *unused);
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const char *load_error = "libcurl was not loaded";
static char load_error_text[512];

#define RESOLVE(field, symbol)                                                                   \
    do {                                                                                         \
        *(void **)(&curl.field) = dlsym(library, symbol);                                        \
        if (!curl.field) {                                                                       \
            snprintf(load_error_text, sizeof load_error_text, "libcurl lacks %s (7.85 or newer is needed)", symbol); \
            load_error = load_error_text;                                                        \
            return;                                                                              \
        }                                                                                        \
    } while (0)

static void load(void) {
    // The runtime library of libcurl4-openssl-dev, by its ABI name.
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(load_error_text, sizeof load_error_text, "cannot load libcurl: %s", dlerror());
        load_error = load_error_text;
        return;
    }
    RESOLVE(global_init, "curl_global_init");
    RESOLVE(version, "curl_version");
    RESOLVE(easy_init, "curl_easy_init");
    RESOLVE(easy_cleanup, "curl_easy_cleanup");
    RESOLVE(easy_reset, "curl_easy_reset");
    RESOLVE(easy_perform, "curl_easy_perform");
    RESOLVE(easy_strerror, "curl_easy_strerror");
    RESOLVE(easy_setopt, "curl_easy_setopt");
    RESOLVE(easy_getinfo, "curl_easy_getinfo");
    RESOLVE(easy_header, "curl_easy_header");
    RESOLVE(multi_init, "curl_multi_init");
    RESOLVE(multi_cleanup, "curl_multi_cleanup");
    RESOLVE(multi_add_handle, "curl_multi_add_handle");
    RESOLVE(multi_remove_handle, "curl_multi_remove_handle");
    RESOLVE(multi_perform, "curl_multi_perform");
    RESOLVE(multi_poll, "curl_multi_poll");
    RESOLVE(multi_wakeup, "curl_multi_wakeup");
    RESOLVE(multi_info_read, "curl_multi_info_read");
    RESOLVE(slist_append, "curl_slist_append");
    RESOLVE(slist_free_all, "curl_slist_free_all");
    RESOLVE(getdate, "curl_getdate");
    // Once, before any handle exists; pthread_once keeps other threads out.
    if (curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        load_error = "curl_global_init failed";
        return;
    }
    load_error = NULL;
}

const char *bunting_curl_load(void) {
    pthread_once(&load_once, load);
    return load_error;
}

const char *bunting_curl_version(void) { return curl.version(); }

CURL *bunting_curl_easy_init(void) { return curl.easy_init(); }
void bunting_curl_easy_cleanup(CURL *handle) { curl.easy_cleanup(handle); }
void bunting_curl_easy_reset(CURL *handle) { curl.easy_reset(handle); }
CURLcode bunting_curl_easy_perform(CURL *handle) { return curl.easy_perform(handle); }
const char *bunting_curl_easy_strerror(CURLcode code) { return curl.easy_strerror(code); }

CURLcode bunting_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode bunting_curl_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode bunting_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode bunting_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode bunting_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *list) {
    return curl.easy_setopt(handle, option, list);
}

CURLcode bunting_curl_setopt_write_function(CURL *handle, bunting_curl_write_callback callback) {
    return curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}

CURLcode bunting_curl_setopt_header_function(CURL *handle, bunting_curl_write_callback callback) {
    return curl.easy_setopt(handle, CURLOPT_HEADERFUNCTION, callback);
}

CURLcode bunting_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl.easy_getinfo(handle, info, value);
}

CURLcode bunting_curl_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    return curl.easy_getinfo(handle, info, value);
}

const char *bunting_curl_response_header(CURL *handle, const char *name) {
    struct curl_header *header = NULL;
    // Index 0 asks for the first; its `amount` says how many there are.
    if (curl.easy_header(handle, name, 0, CURLH_HEADER, -1, &header) != CURLHE_OK) return NULL;
    if (header->amount > 1 && curl.easy_header(handle, name, header->amount - 1, CURLH_HEADER, -1, &header) != CURLHE_OK)
        return NULL;
    return header->value;
}

CURLM *bunting_curl_multi_init(void) { return curl.multi_init(); }
CURLMcode bunting_curl_multi_cleanup(CURLM *multi) { return curl.multi_cleanup(multi); }
CURLMcode bunting_curl_multi_add_handle(CURLM *multi, CURL *handle) { return curl.multi_add_handle(multi, handle); }
CURLMcode bunting_curl_multi_remove_handle(CURLM *multi, CURL *handle) { return curl.multi_remove_handle(multi, handle); }
CURLMcode bunting_curl_multi_perform(CURLM *multi, int *running) { return curl.multi_perform(multi, running); }
CURLMcode bunting_curl_multi_poll(CURLM *multi, int timeout_ms) { return curl.multi_poll(multi, NULL, 0, timeout_ms, NULL); }
CURLMcode bunting_curl_multi_wakeup(CURLM *multi) { return curl.multi_wakeup(multi); }

CURLcode bunting_curl_multi_result(CURLM *multi) {
    int queued = 0;
    CURLMsg *message;
    while ((message = curl.multi_info_read(multi, &queued)) != NULL) {
        if (message->msg == CURLMSG_DONE) return message->data.result;
    }
    return CURLE_OK;
}

struct curl_slist *bunting_curl_slist_append(struct curl_slist *list, const char *text) {
    return curl.slist_append(list, text);
}

void bunting_curl_slist_free_all(struct curl_slist *list) { curl.slist_free_all(list); }

time_t bunting_curl_getdate(const char *text) { return curl.getdate(text, NULL); }
