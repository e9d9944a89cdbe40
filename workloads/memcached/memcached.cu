// memcached.cu - the GET path of a GPU memcached (Hetherington et al.,
// ISPASS 2012), reduced to its memory pattern: one thread per request. The
// thread hashes its key, reads the bucket's slots (a set-associative hash
// table: `ways` item indices per bucket), compares each item's key (a
// dependent load chain: bucket -> item -> key), and on a hit copies the
// item's value to the response and raises the item's last-access time to
// the request's (atomicMax: the occasional writes to a read-mostly table,
// memcached's LRU update). A miss answers -1.
extern "C" __device__ unsigned mc_hash(unsigned k)
{
    k ^= k >> 16;
    k *= 0x7feb352du;
    k ^= k >> 15;
    k *= 0x846ca68bu;
    k ^= k >> 16;
    return k;
}

extern "C" __global__ void mc_get(int n_req, const unsigned *req_key, const unsigned *req_time,
                                  unsigned n_buckets, int ways, const int *buckets,
                                  const unsigned *item_key, const int *item_value,
                                  unsigned *item_time, int *resp)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= n_req)
        return;
    unsigned key = req_key[r];
    unsigned b = mc_hash(key) % n_buckets;
    int found = -1;
    for (int w = 0; w < ways; w++) {
        int it = buckets[b * ways + w];
        if (it >= 0 && item_key[it] == key) {
            found = it;
            break;
        }
    }
    if (found >= 0) {
        resp[r] = item_value[found];
        atomicMax(&item_time[found], req_time[r]);
    } else {
        resp[r] = -1;
    }
}
