// btree.cu - the findK kernel of Rodinia's b+tree: one thread block per
// query, one thread per key slot of a node (order + 1 threads). The block
// walks from the root to a leaf: at each level the thread whose key range
// holds the query writes the child to the block's entry of offset, and
// after a barrier thread 0 copies it to currKnode; at the leaf the thread
// whose key matches writes the record's value to ans. The tree is read by
// every SM; currKnode and offset are small arrays written by every block
// (what makes their sectors shared read-write under type-aware SC).
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
