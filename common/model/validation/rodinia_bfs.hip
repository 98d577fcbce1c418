// Rodinia 3.1 (CUDA), application bfs: the two kernels of its level-synchronous
// breadth-first search, Kernel (expand the frontier) and Kernel2 (promote the
// nodes found into the next frontier), launched as the host code of
// cuda/bfs/bfs.cu launches them: one Kernel and one Kernel2 per level, a
// one-byte "again" flag copied in before and read back after each pair, until
// a level finds no new node.
//
// Source read: github.com/yuhc/gpu-rodinia (a mirror of Rodinia 3.1, University
// of Virginia; LICENSE: the suite's BSD-style licence; the BFS code itself is
// Pawan Harish's, IIIT Hyderabad, included in Rodinia by permission), commit
// 9c10d3ea16ddba2ba057cc3951a9efc4c2cc18a4, files cuda/bfs/bfs.cu,
// cuda/bfs/kernel.cu, cuda/bfs/kernel2.cu, cuda/bfs/run. The graph generator
// described is Rodinia's data/bfs/inputGen/graphgen.cpp (read at
// github.com/chunhualiao/gpu-rodinia, which carries the suite's data folder).
// Written here from that reading; no code copied.
//
// What is kept: the node record {first edge, edge count} of two ints, an int
// edge list, bool (one byte) frontier / next-frontier / visited arrays, an int
// cost array, one thread per node with tid = blockIdx.x * 512 + threadIdx.x
// (the original's MAX_THREADS_PER_BLOCK, not blockDim), blocks of 512 threads
// (one block of N threads when N <= 512), source node 0 (bfs.cu forces it).
//
// Input: the suite reads a graph file made by graphgen; here the same kind of
// graph is generated in the program from an integer hash instead of rand()
// and an LCG: node i draws 2 + hash % 3 edges (graphgen's MIN_EDGES 2 ..
// MAX_INIT_EDGES 4), each to a uniformly drawn node, and every edge is stored
// both ways (i -> d in i's list, d -> i in d's list), in the order graphgen
// appends them; so degrees are 2-4 drawn plus about 3 incoming (mean 6), with
// repeated edges and self loops possible, as in graphgen. Edge weights are not
// generated (bfs.cu reads and drops them).
//
// Sizes: the CUDA run script reads graph65536.txt (65,536 nodes); the OpenCL
// and OpenMP run scripts read graph1MW_6.txt, by its name a graph of 1M nodes
// (the data files are not in the mirror). The validation size is 1,048,576
// nodes (2,048 blocks of 512), so that each launch does real work on an H200
// (65,536 nodes are 128 blocks); --small is 3,000 nodes (not a multiple of
// 512: 6 blocks, the last one partly idle).
#include <hip/hip_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_THREADS_PER_BLOCK 512

#define HIP_CHECK(call)                                                                            \
    do {                                                                                           \
        hipError_t e_ = (call);                                                                    \
        if (e_ != hipSuccess) {                                                                    \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, hipGetErrorString(e_)); \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

struct Node {
    int starting;    // index of the node's first edge in the edge list
    int no_of_edges; // how many edges follow
};

// One frontier node per thread: clear its frontier bit, then give every
// unvisited neighbour the node's cost + 1 and mark it for the next frontier.
__global__ void Kernel(Node *g_graph_nodes, int *g_graph_edges, bool *g_graph_mask,
                       bool *g_updating_graph_mask, bool *g_graph_visited, int *g_cost,
                       int no_of_nodes) {
    const int node = blockIdx.x * MAX_THREADS_PER_BLOCK + threadIdx.x;
    if (node < no_of_nodes && g_graph_mask[node]) {
        g_graph_mask[node] = false;
        // the record is read from memory on each test, as the original's loop does
        for (int e = g_graph_nodes[node].starting;
             e < g_graph_nodes[node].no_of_edges + g_graph_nodes[node].starting; e++) {
            const int nb = g_graph_edges[e];
            if (!g_graph_visited[nb]) {
                g_cost[nb] = g_cost[node] + 1;
                g_updating_graph_mask[nb] = true;
            }
        }
    }
}

// One node per thread: a node found this level joins the frontier, is marked
// visited, and raises the flag that asks the host for another level.
__global__ void Kernel2(bool *g_graph_mask, bool *g_updating_graph_mask, bool *g_graph_visited,
                        bool *g_over, int no_of_nodes) {
    const int node = blockIdx.x * MAX_THREADS_PER_BLOCK + threadIdx.x;
    if (node < no_of_nodes && g_updating_graph_mask[node]) {
        g_graph_mask[node] = true;
        g_graph_visited[node] = true;
        *g_over = true;
        g_updating_graph_mask[node] = false;
    }
}

static unsigned mix32(unsigned x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

// graphgen's graph: node i draws 2..4 edges to uniform nodes; each is stored
// in both lists, in the order graphgen appends them (two passes: count, fill).
static void make_graph(int n, Node *nodes, int **edges_out, int *n_edges_out) {
    int *deg = (int *)calloc(n, sizeof(int));
    for (int i = 0; i < n; i++) {
        const int draws = 2 + (int)(mix32(2u * i + 1u) % 3u);
        for (int j = 0; j < draws; j++) {
            const int d = (int)(mix32(mix32(i * 8u + j) ^ 0x9e3779b9u) % (unsigned)n);
            deg[i]++;
            deg[d]++;
        }
    }
    int total = 0;
    for (int i = 0; i < n; i++) {
        nodes[i].starting = total;
        nodes[i].no_of_edges = deg[i];
        total += deg[i];
        deg[i] = 0; // reused as each list's fill cursor
    }
    int *edges = (int *)malloc(sizeof(int) * (size_t)total);
    for (int i = 0; i < n; i++) {
        const int draws = 2 + (int)(mix32(2u * i + 1u) % 3u);
        for (int j = 0; j < draws; j++) {
            const int d = (int)(mix32(mix32(i * 8u + j) ^ 0x9e3779b9u) % (unsigned)n);
            edges[nodes[i].starting + deg[i]++] = d;
            edges[nodes[d].starting + deg[d]++] = i;
        }
    }
    free(deg);
    *edges_out = edges;
    *n_edges_out = total;
}

int main(int argc, char **argv) {
    bool small = false, check = false;
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--small"))
            small = true;
        else if (!strcmp(argv[a], "--check"))
            check = true;
        else {
            fprintf(stderr, "usage: %s [--small] [--check]\n", argv[0]);
            return 2;
        }
    }
    const int n = small ? 3000 : 1048576;
    const int source = 0;

    Node *h_nodes = (Node *)malloc(sizeof(Node) * n);
    int *h_edges = nullptr, n_edges = 0;
    make_graph(n, h_nodes, &h_edges, &n_edges);
    bool *h_mask = (bool *)calloc(n, sizeof(bool));
    bool *h_visited = (bool *)calloc(n, sizeof(bool));
    int *h_cost = (int *)malloc(sizeof(int) * n);
    for (int i = 0; i < n; i++) h_cost[i] = -1;
    h_mask[source] = true;
    h_visited[source] = true;
    h_cost[source] = 0;

    int blocks = 1, threads = n;
    if (n > MAX_THREADS_PER_BLOCK) {
        blocks = (n + MAX_THREADS_PER_BLOCK - 1) / MAX_THREADS_PER_BLOCK;
        threads = MAX_THREADS_PER_BLOCK;
    }

    Node *d_graph_nodes = nullptr;
    int *d_graph_edges = nullptr, *d_cost = nullptr;
    bool *d_graph_mask = nullptr, *d_updating_graph_mask = nullptr, *d_graph_visited = nullptr,
         *d_over = nullptr;
    HIP_CHECK(hipMalloc(&d_graph_nodes, sizeof(Node) * n));
    HIP_CHECK(hipMalloc(&d_graph_edges, sizeof(int) * (size_t)n_edges));
    HIP_CHECK(hipMalloc(&d_graph_mask, sizeof(bool) * n));
    HIP_CHECK(hipMalloc(&d_updating_graph_mask, sizeof(bool) * n));
    HIP_CHECK(hipMalloc(&d_graph_visited, sizeof(bool) * n));
    HIP_CHECK(hipMalloc(&d_cost, sizeof(int) * n));
    HIP_CHECK(hipMalloc(&d_over, sizeof(bool)));
    HIP_CHECK(hipMemcpy(d_graph_nodes, h_nodes, sizeof(Node) * n, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_graph_edges, h_edges, sizeof(int) * (size_t)n_edges, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_graph_mask, h_mask, sizeof(bool) * n, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemset(d_updating_graph_mask, 0, sizeof(bool) * n));
    HIP_CHECK(hipMemcpy(d_graph_visited, h_visited, sizeof(bool) * n, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_cost, h_cost, sizeof(int) * n, hipMemcpyHostToDevice));

    const dim3 grid(blocks), block(threads);
    int levels = 0;
    bool again;
    do {
        again = false;
        HIP_CHECK(hipMemcpy(d_over, &again, sizeof(bool), hipMemcpyHostToDevice));
        Kernel<<<grid, block, 0>>>(d_graph_nodes, d_graph_edges, d_graph_mask, d_updating_graph_mask,
                                   d_graph_visited, d_cost, n);
        HIP_CHECK(hipGetLastError());
        Kernel2<<<grid, block, 0>>>(d_graph_mask, d_updating_graph_mask, d_graph_visited, d_over, n);
        HIP_CHECK(hipGetLastError());
        HIP_CHECK(hipMemcpy(&again, d_over, sizeof(bool), hipMemcpyDeviceToHost));
        levels++;
    } while (again);

    int *got = (int *)malloc(sizeof(int) * n);
    HIP_CHECK(hipMemcpy(got, d_cost, sizeof(int) * n, hipMemcpyDeviceToHost));
    int reached = 0;
    for (int i = 0; i < n; i++) reached += got[i] >= 0;
    printf("rodinia_bfs: %d nodes, %d edge entries, %d blocks of %d, %d levels (Kernel + Kernel2 each), "
           "%d nodes reached\n",
           n, n_edges, blocks, threads, levels, reached);

    int failed = 0;
    if (check) {
        // Host BFS by queue: a node's level is its distance from the source.
        int *ref = (int *)malloc(sizeof(int) * n);
        int *queue = (int *)malloc(sizeof(int) * n);
        for (int i = 0; i < n; i++) ref[i] = -1;
        int head = 0, tail = 0;
        ref[source] = 0;
        queue[tail++] = source;
        while (head < tail) {
            const int u = queue[head++];
            for (int e = h_nodes[u].starting; e < h_nodes[u].starting + h_nodes[u].no_of_edges; e++) {
                const int v = h_edges[e];
                if (ref[v] < 0) {
                    ref[v] = ref[u] + 1;
                    queue[tail++] = v;
                }
            }
        }
        // Kernel: every node's cost (its level, -1 if unreached); Kernel2: the
        // visited flags it left (set exactly on the nodes reached).
        bool *vis = (bool *)malloc(sizeof(bool) * n);
        HIP_CHECK(hipMemcpy(vis, d_graph_visited, sizeof(bool) * n, hipMemcpyDeviceToHost));
        long long cost_err = 0, vis_err = 0;
        for (int i = 0; i < n; i++) {
            const long long d = llabs((long long)got[i] - ref[i]);
            if (d > cost_err) cost_err = d;
            if (vis[i] != (ref[i] >= 0)) vis_err = 1;
        }
        free(vis);
        printf("check Kernel: max error %lld (%s)\n", cost_err, cost_err ? "FAILED" : "ok");
        printf("check Kernel2: max error %lld (%s)\n", vis_err, vis_err ? "FAILED" : "ok");
        failed = cost_err != 0 || vis_err != 0;
        free(ref);
        free(queue);
    }

    HIP_CHECK(hipFree(d_graph_nodes));
    HIP_CHECK(hipFree(d_graph_edges));
    HIP_CHECK(hipFree(d_graph_mask));
    HIP_CHECK(hipFree(d_updating_graph_mask));
    HIP_CHECK(hipFree(d_graph_visited));
    HIP_CHECK(hipFree(d_cost));
    HIP_CHECK(hipFree(d_over));
    free(h_nodes);
    free(h_edges);
    free(h_mask);
    free(h_visited);
    free(h_cost);
    free(got);
    return failed ? 1 : 0;
}
