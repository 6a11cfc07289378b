// libcurl from the system (Debian: libcurl4-openssl-dev).
// Swift cannot call C variadic functions, and curl_easy_setopt,
// curl_easy_getinfo and curl_multi_setopt are variadic: each kind of
// argument the transport passes gets a typed wrapper here. The union in
// CURLMsg is read here too.
#ifndef PARALLAX_CCURL_SHIM_H
#define PARALLAX_CCURL_SHIM_H

#include <curl/curl.h>

static inline CURLcode pk_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode pk_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode pk_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode pk_curl_easy_setopt_callback(CURL *handle, CURLoption option, curl_write_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

static inline CURLcode pk_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode pk_curl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLMcode pk_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

static inline CURLcode pk_curl_message_result(const CURLMsg *message) {
    return message->data.result;
}

#endif
