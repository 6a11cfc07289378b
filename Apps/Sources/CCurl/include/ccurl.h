// libcurl from the system (Debian: libcurl4-openssl-dev for the headers,
// libcurl4 at run time), loaded when the first transport is made rather
// than linked: libcurl and what it links (OpenSSL, GnuTLS, Kerberos, LDAP,
// nghttp2, libssh2…) are 25 libraries the dynamic loader mapped and
// resolved at every start of every program that linked it, 14-17 ms of a
// 100 ms second launch, for a gallery that mostly shows local photos.
//
// Swift calls libcurl through the functions here: each forwards to the
// function of the same name in the loaded library. Swift cannot call C
// variadic functions, and curl_easy_setopt, curl_easy_getinfo and
// curl_multi_setopt are variadic: each kind of argument the transport
// passes gets a typed wrapper. Call pk_curl_load() first and nothing else
// unless it returned 1.
#ifndef PARALLAX_CCURL_H
#define PARALLAX_CCURL_H

#include <curl/curl.h>

// Loads libcurl once per process (thread-safe); 1 when every function
// below can be called, 0 when the library or one of its functions is
// missing (pk_curl_load_failure() then says which).
int pk_curl_load(void);
// Why pk_curl_load() failed, in words; an empty string when it did not.
const char *pk_curl_load_failure(void);

CURLcode pk_curl_global_init(long flags);
CURL *pk_curl_easy_init(void);
void pk_curl_easy_cleanup(CURL *handle);
const char *pk_curl_easy_strerror(CURLcode code);
CURLM *pk_curl_multi_init(void);
CURLMcode pk_curl_multi_cleanup(CURLM *multi);
CURLMcode pk_curl_multi_add_handle(CURLM *multi, CURL *handle);
CURLMcode pk_curl_multi_remove_handle(CURLM *multi, CURL *handle);
CURLMsg *pk_curl_multi_info_read(CURLM *multi, int *messagesLeft);
CURLMcode pk_curl_multi_perform(CURLM *multi, int *runningHandles);
CURLMcode pk_curl_multi_poll(CURLM *multi, struct curl_waitfd extraFDs[], unsigned int extraCount, int timeoutMS,
                             int *descriptors);
CURLMcode pk_curl_multi_wakeup(CURLM *multi);

CURLcode pk_curl_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode pk_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode pk_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode pk_curl_easy_setopt_callback(CURL *handle, CURLoption option, curl_write_callback callback);
CURLcode pk_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode pk_curl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value);
CURLMcode pk_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);

// The result of a finished transfer's message (a union member Swift cannot read).
static inline CURLcode pk_curl_message_result(const CURLMsg *message) {
    return message->data.result;
}

#endif
