// Loads libcrypto with dlopen on first use and forwards to it. Why not link
// it: see shim.h. Calls go through pointers typed exactly as openssl/evp.h
// declares the functions.
#include "shim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static struct {
    const EVP_CIPHER *(*aes_128_cbc)(void);
    const EVP_CIPHER *(*aes_192_cbc)(void);
    const EVP_CIPHER *(*aes_256_cbc)(void);
    EVP_CIPHER_CTX *(*context_new)(void);
    void (*context_free)(EVP_CIPHER_CTX *context);
    int (*encrypt_init)(EVP_CIPHER_CTX *context, const EVP_CIPHER *cipher, ENGINE *engine, const unsigned char *key,
                        const unsigned char *iv);
    int (*decrypt_init)(EVP_CIPHER_CTX *context, const EVP_CIPHER *cipher, ENGINE *engine, const unsigned char *key,
                        const unsigned char *iv);
    int (*encrypt_update)(EVP_CIPHER_CTX *context, unsigned char *output, int *written, const unsigned char *input,
                          int length);
    int (*decrypt_update)(EVP_CIPHER_CTX *context, unsigned char *output, int *written, const unsigned char *input,
                          int length);
    int (*encrypt_final)(EVP_CIPHER_CTX *context, unsigned char *output, int *written);
    int (*decrypt_final)(EVP_CIPHER_CTX *context, unsigned char *output, int *written);
} crypto;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const char *load_error = "libcrypto was not loaded";
static char load_error_text[512];

#define RESOLVE(field, symbol)                                                                          \
    do {                                                                                                \
        *(void **)(&crypto.field) = dlsym(library, symbol);                                             \
        if (!crypto.field) {                                                                            \
            snprintf(load_error_text, sizeof load_error_text, "libcrypto lacks %s (OpenSSL 3 is needed)", symbol); \
            load_error = load_error_text;                                                               \
            return;                                                                                     \
        }                                                                                               \
    } while (0)

static void load(void) {
    // The runtime library of libssl-dev (Debian's libssl3), by its ABI name.
    void *library = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(load_error_text, sizeof load_error_text, "cannot load libcrypto: %s", dlerror());
        load_error = load_error_text;
        return;
    }
    RESOLVE(aes_128_cbc, "EVP_aes_128_cbc");
    RESOLVE(aes_192_cbc, "EVP_aes_192_cbc");
    RESOLVE(aes_256_cbc, "EVP_aes_256_cbc");
    RESOLVE(context_new, "EVP_CIPHER_CTX_new");
    RESOLVE(context_free, "EVP_CIPHER_CTX_free");
    RESOLVE(encrypt_init, "EVP_EncryptInit_ex");
    RESOLVE(decrypt_init, "EVP_DecryptInit_ex");
    RESOLVE(encrypt_update, "EVP_EncryptUpdate");
    RESOLVE(decrypt_update, "EVP_DecryptUpdate");
    RESOLVE(encrypt_final, "EVP_EncryptFinal_ex");
    RESOLVE(decrypt_final, "EVP_DecryptFinal_ex");
    load_error = NULL;
}

const char *bunting_crypto_load(void) {
    pthread_once(&load_once, load);
    return load_error;
}

const EVP_CIPHER *bunting_crypto_aes_cbc(int key_length) {
    switch (key_length) {
    case 16: return crypto.aes_128_cbc();
    case 24: return crypto.aes_192_cbc();
    case 32: return crypto.aes_256_cbc();
    default: return NULL;
    }
}

EVP_CIPHER_CTX *bunting_crypto_context_new(void) { return crypto.context_new(); }
void bunting_crypto_context_free(EVP_CIPHER_CTX *context) { crypto.context_free(context); }

int bunting_crypto_init(EVP_CIPHER_CTX *context, const EVP_CIPHER *cipher, const unsigned char *key,
                        const unsigned char *iv, int encrypting) {
    return encrypting ? crypto.encrypt_init(context, cipher, NULL, key, iv)
                      : crypto.decrypt_init(context, cipher, NULL, key, iv);
}

int bunting_crypto_update(EVP_CIPHER_CTX *context, unsigned char *output, int *written, const unsigned char *input,
                          int length, int encrypting) {
    return encrypting ? crypto.encrypt_update(context, output, written, input, length)
                      : crypto.decrypt_update(context, output, written, input, length);
}

int bunting_crypto_final(EVP_CIPHER_CTX *context, unsigned char *output, int *written, int encrypting) {
    return encrypting ? crypto.encrypt_final(context, output, written) : crypto.decrypt_final(context, output, written);
}
