#include "util/strmap.h"

#include <stdlib.h>
#include <string.h>

#include "util/strpool.h"

/* 16 bytes a slot: the key's bytes live in the pool behind a 4-byte
 * length, so a slot holds only where they are. */
struct slot {
    const char *key; /* NULL when empty */
    uint32_t hash;
    int32_t value;
};

struct strmap {
    struct slot *slots;
    size_t cap; /* a power of two */
    size_t used;
    strpool_t keys;
};

static uint32_t hash_bytes(const char *s, size_t n)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 16777619u;
    }
    return h;
}

static uint32_t key_len(const char *key)
{
    uint32_t n;
    memcpy(&n, key - sizeof n, sizeof n);
    return n;
}

strmap_t *strmap_new(void)
{
    strmap_t *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->cap = 16;
    m->slots = calloc(m->cap, sizeof *m->slots);
    if (!m->slots) {
        free(m);
        return NULL;
    }
    return m;
}

void strmap_free(strmap_t *m)
{
    if (!m)
        return;
    strpool_free(&m->keys);
    free(m->slots);
    free(m);
}

static struct slot *find(const strmap_t *m, const char *key, size_t len, uint32_t h)
{
    size_t mask = m->cap - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        struct slot *s = &m->slots[i];
        if (!s->key || (s->hash == h && key_len(s->key) == len && memcmp(s->key, key, len) == 0))
            return s;
    }
}

int32_t strmap_get(const strmap_t *m, const char *key, size_t len)
{
    if (len > UINT32_MAX)
        return -1;
    struct slot *s = find(m, key, len, hash_bytes(key, len));
    return s->key ? s->value : -1;
}

static int grow(strmap_t *m)
{
    size_t ncap = m->cap * 2;
    struct slot *ns = calloc(ncap, sizeof *ns);
    if (!ns)
        return -1;
    for (size_t i = 0; i < m->cap; i++) {
        struct slot *s = &m->slots[i];
        if (!s->key)
            continue;
        size_t j = s->hash & (ncap - 1);
        while (ns[j].key)
            j = (j + 1) & (ncap - 1);
        ns[j] = *s;
    }
    free(m->slots);
    m->slots = ns;
    m->cap = ncap;
    return 0;
}

int strmap_put(strmap_t *m, const char *key, size_t len, int32_t value)
{
    if (len > UINT32_MAX)
        return -1;
    if ((m->used + 1) * 4 > m->cap * 3 && grow(m) != 0)
        return -1;
    uint32_t h = hash_bytes(key, len);
    struct slot *s = find(m, key, len, h);
    if (!s->key) {
        uint32_t n = (uint32_t)len;
        char *at = strpool_alloc(&m->keys, sizeof n + len + 1, 1); /* the length is read by memcpy */
        if (!at)
            return -1;
        memcpy(at, &n, sizeof n);
        memcpy(at + sizeof n, key, len);
        at[sizeof n + len] = 0;
        s->key = at + sizeof n;
        s->hash = h;
        m->used++;
    }
    s->value = value;
    return 0;
}
