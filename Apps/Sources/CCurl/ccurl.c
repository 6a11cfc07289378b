#include "ccurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// The functions of the loaded libcurl, each typed as its declaration in
// curl.h (the variadic ones stay variadic: they are called as such).
static struct {
    __typeof__(curl_global_init) *global_init;
    __typeof__(curl_easy_init) *easy_init;
    __typeof__(curl_easy_cleanup) *easy_cleanup;
    __typeof__(curl_easy_strerror) *easy_strerror;
    __typeof__(curl_easy_setopt) *easy_setopt;
    __typeof__(curl_easy_getinfo) *easy_getinfo;
    __typeof__(curl_multi_init) *multi_init;
    __typeof__(curl_multi_cleanup) *multi_cleanup;
    __typeof__(curl_multi_add_handle) *multi_add_handle;
    __typeof__(curl_multi_remove_handle) *multi_remove_handle;
    __typeof__(curl_multi_info_read) *multi_info_read;
    __typeof__(curl_multi_perform) *multi_perform;
    __typeof__(curl_multi_poll) *multi_poll;
    __typeof__(curl_multi_wakeup) *multi_wakeup;
    __typeof__(curl_multi_setopt) *multi_setopt;
} pk_curl_api;
static int pk_curl_loaded;
static char pk_curl_failure[256];
static pthread_once_t pk_curl_once = PTHREAD_ONCE_INIT;

// The versioned name is what a runtime-only system has (libcurl4); the
// unversioned one is the -dev package's link.
static void pk_curl_load_once(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) library = dlopen("libcurl.so", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *reason = dlerror();
        snprintf(pk_curl_failure, sizeof pk_curl_failure, "libcurl (Debian: libcurl4) could not be loaded: %s",
                 reason ? reason : "not found");
        return;
    }
#define PK_BIND(field, symbol)                                                                                   \
    if (!(*(void **)&pk_curl_api.field = dlsym(library, #symbol))) {                                           \
        snprintf(pk_curl_failure, sizeof pk_curl_failure, "the libcurl found lacks " #symbol " (7.68 or later is needed)"); \
        return;                                                                                                 \
    }
    PK_BIND(global_init, curl_global_init)
    PK_BIND(easy_init, curl_easy_init)
    PK_BIND(easy_cleanup, curl_easy_cleanup)
    PK_BIND(easy_strerror, curl_easy_strerror)
    PK_BIND(easy_setopt, curl_easy_setopt)
    PK_BIND(easy_getinfo, curl_easy_getinfo)
    PK_BIND(multi_init, curl_multi_init)
    PK_BIND(multi_cleanup, curl_multi_cleanup)
    PK_BIND(multi_add_handle, curl_multi_add_handle)
    PK_BIND(multi_remove_handle, curl_multi_remove_handle)
    PK_BIND(multi_info_read, curl_multi_info_read)
    PK_BIND(multi_perform, curl_multi_perform)
    PK_BIND(multi_poll, curl_multi_poll)
    PK_BIND(multi_wakeup, curl_multi_wakeup)
    PK_BIND(multi_setopt, curl_multi_setopt)
#undef PK_BIND
    pk_curl_loaded = 1;
}

int pk_curl_load(void) {
    pthread_once(&pk_curl_once, pk_curl_load_once);
    return pk_curl_loaded;
}

const char *pk_curl_load_failure(void) {
    pthread_once(&pk_curl_once, pk_curl_load_once);
    return pk_curl_failure;
}

CURLcode pk_curl_global_init(long flags) { return pk_curl_api.global_init(flags); }
CURL *pk_curl_easy_init(void) { return pk_curl_api.easy_init(); }
void pk_curl_easy_cleanup(CURL *handle) { pk_curl_api.easy_cleanup(handle); }
const char *pk_curl_easy_strerror(CURLcode code) { return pk_curl_api.easy_strerror(code); }
CURLM *pk_curl_multi_init(void) { return pk_curl_api.multi_init(); }
CURLMcode pk_curl_multi_cleanup(CURLM *multi) { return pk_curl_api.multi_cleanup(multi); }
CURLMcode pk_curl_multi_add_handle(CURLM *multi, CURL *handle) { return pk_curl_api.multi_add_handle(multi, handle); }
CURLMcode pk_curl_multi_remove_handle(CURLM *multi, CURL *handle) { return pk_curl_api.multi_remove_handle(multi, handle); }
CURLMsg *pk_curl_multi_info_read(CURLM *multi, int *messagesLeft) { return pk_curl_api.multi_info_read(multi, messagesLeft); }
CURLMcode pk_curl_multi_perform(CURLM *multi, int *runningHandles) { return pk_curl_api.multi_perform(multi, runningHandles); }
CURLMcode pk_curl_multi_poll(CURLM *multi, struct curl_waitfd extraFDs[], unsigned int extraCount, int timeoutMS,
                             int *descriptors) {
    return pk_curl_api.multi_poll(multi, extraFDs, extraCount, timeoutMS, descriptors);
}
CURLMcode pk_curl_multi_wakeup(CURLM *multi) { return pk_curl_api.multi_wakeup(multi); }

CURLcode pk_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return pk_curl_api.easy_setopt(handle, option, value);
}
CURLcode pk_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return pk_curl_api.easy_setopt(handle, option, value);
}
CURLcode pk_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return pk_curl_api.easy_setopt(handle, option, value);
}
CURLcode pk_curl_easy_setopt_callback(CURL *handle, CURLoption option, curl_write_callback callback) {
    return pk_curl_api.easy_setopt(handle, option, callback);
}
CURLcode pk_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return pk_curl_api.easy_getinfo(handle, info, value);
}
CURLcode pk_curl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return pk_curl_api.easy_getinfo(handle, info, value);
}
CURLMcode pk_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return pk_curl_api.multi_setopt(multi, option, value);
}
