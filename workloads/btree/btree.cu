// btree.cu - the findK kernel of Rodinia's b+tree: one thread block per
// query, one thread per key slot of a node (order + 1 threads). The block
// walks from the root to a leaf: at each level the thread whose key range
// holds the query writes the child to the block's entry of offset, and
// after a barrier thread 0 copies it to currKnode; at the leaf the thread
// whose key matches writes the record's value to ans. The tree is read by
// every SM; currKnode and offset are small arrays written by every block
// (what makes their sectors shared read-write under type-aware SC).
// findRangeK is the range query of the same program (Rodinia's `j` command):
// each block walks two paths at once, one to the range's start and one to
// its end, so a level's loads of currKnode and lastKnode (and the stores to
// offset and offset2) are independent of each other: two shared read-write
// sectors per level in place of one.
#define ORDER 63

struct knode {
    int location;
    int indices[ORDER + 1];
    int keys[ORDER + 1];
    int is_leaf;
    int num_keys;
};

extern "C" __global__ void findK(long height, const knode *knodes, long knodes_elem,
                                 const int *records, long *currKnode, long *offset,
                                 const int *keys, int *ans)
{
    int thid = threadIdx.x;
    int bid = blockIdx.x;
    for (int i = 0; i < height; i++) {
        if (thid < ORDER && knodes[currKnode[bid]].keys[thid] <= keys[bid] &&
            knodes[currKnode[bid]].keys[thid + 1] > keys[bid]) {
            if (knodes[offset[bid]].indices[thid] < knodes_elem)
                offset[bid] = knodes[offset[bid]].indices[thid];
        }
        __syncthreads();
        if (thid == 0)
            currKnode[bid] = offset[bid];
        __syncthreads();
    }
    if (knodes[currKnode[bid]].keys[thid] == keys[bid])
        ans[bid] = records[knodes[currKnode[bid]].indices[thid]];
}

extern "C" __global__ void findRangeK(long height, const knode *knodes, long knodes_elem,
                                      long *currKnode, long *offset, long *lastKnode,
                                      long *offset2, const int *start, const int *end,
                                      int *recstart, int *reclen)
{
    int thid = threadIdx.x;
    int bid = blockIdx.x;
    for (int i = 0; i < height; i++) {
        if (thid < ORDER && knodes[currKnode[bid]].keys[thid] <= start[bid] &&
            knodes[currKnode[bid]].keys[thid + 1] > start[bid]) {
            if (knodes[currKnode[bid]].indices[thid] < knodes_elem)
                offset[bid] = knodes[currKnode[bid]].indices[thid];
        }
        if (thid < ORDER && knodes[lastKnode[bid]].keys[thid] <= end[bid] &&
            knodes[lastKnode[bid]].keys[thid + 1] > end[bid]) {
            if (knodes[lastKnode[bid]].indices[thid] < knodes_elem)
                offset2[bid] = knodes[lastKnode[bid]].indices[thid];
        }
        __syncthreads();
        if (thid == 0) {
            currKnode[bid] = offset[bid];
            lastKnode[bid] = offset2[bid];
        }
        __syncthreads();
    }
    if (knodes[currKnode[bid]].keys[thid] == start[bid])
        recstart[bid] = knodes[currKnode[bid]].indices[thid];
    __syncthreads();
    if (knodes[lastKnode[bid]].keys[thid] == end[bid])
        reclen[bid] = knodes[lastKnode[bid]].indices[thid] - recstart[bid] + 1;
}
