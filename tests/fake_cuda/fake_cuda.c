/* A stand-in for the NVIDIA driver's libcuda.so.1, for gpumeter-driver's error paths: the
 * benchmark meets the failure a scenario names, where no GPU is.
 *
 *   gcc -shared -fPIC -o libcuda.so.1 fake_cuda.c
 *
 * Scenarios (FAKE_CUDA_SCENARIO, read by cuInit): no_device (cuInit answers NO_DEVICE; the
 * default), no_gpu (the driver starts and counts none), out_of_memory (one A100 on which every
 * allocation and module load answers OUT_OF_MEMORY), launch_failure (one A100 on which every
 * kernel launch and copy answers LAUNCH_FAILED), working (one A100 on which everything
 * succeeds and every timed span reads 1 ms: its figures mean nothing, but the benchmark runs
 * its course, so NVML is read while it runs).
 *
 * It also answers as cuBLAS (cublasCreate_v2 fails NOT_INITIALIZED), so the harness can load it
 * as libcublas.so too, and a machine's own cuBLAS never meets this fake driver.
 *
 * cudarc resolves each symbol when first called; one missing here stops the benchmark with
 * "Missing symbol", which the tests would show. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
enum {
    OK = 0,
    INVALID_VALUE = 1,
    OUT_OF_MEMORY = 2,
    NOT_INITIALIZED = 3,
    NO_DEVICE = 100,
    INVALID_DEVICE = 101,
    LAUNCH_FAILED = 719,
    UNKNOWN = 999,
};

typedef struct {
    const char *name;
    CUresult init;     /* cuInit's answer */
    int count;         /* the GPUs the driver counts */
    CUresult alloc;    /* the answer of every allocation and module load */
    CUresult launch;   /* the answer of every launch and copy */
} scenario_t;

static const scenario_t SCENARIOS[] = {
    {"no_device", NO_DEVICE, 0, OK, OK},
    {"no_gpu", OK, 0, OK, OK},
    {"out_of_memory", OK, 1, OUT_OF_MEMORY, OK},
    {"launch_failure", OK, 1, OK, LAUNCH_FAILED},
    {"working", OK, 1, OK, OK},
};

static const scenario_t *S;

/* Every handle the fake gives out points here: non-null, never read. */
static char HANDLE[64];
static unsigned long long next_address = 0x700000000000ULL;

CUresult cuInit(unsigned flags) {
    (void)flags;
    const char *name = getenv("FAKE_CUDA_SCENARIO");
    if (!name || !*name) name = "no_device";
    for (size_t i = 0; i < sizeof SCENARIOS / sizeof SCENARIOS[0]; i++)
        if (strcmp(SCENARIOS[i].name, name) == 0) S = &SCENARIOS[i];
    if (!S) {
        fprintf(stderr, "fake CUDA: no scenario named %s\n", name);
        return UNKNOWN;
    }
    return S->init;
}

#define STARTED()                              \
    do {                                       \
        if (!S || S->init != OK) return NOT_INITIALIZED; \
    } while (0)

CUresult cuGetErrorName(CUresult r, const char **name) {
    switch (r) {
    case OK: *name = "CUDA_SUCCESS"; break;
    case OUT_OF_MEMORY: *name = "CUDA_ERROR_OUT_OF_MEMORY"; break;
    case NO_DEVICE: *name = "CUDA_ERROR_NO_DEVICE"; break;
    case LAUNCH_FAILED: *name = "CUDA_ERROR_LAUNCH_FAILED"; break;
    default: *name = "CUDA_ERROR_UNKNOWN"; break;
    }
    return OK;
}

CUresult cuGetErrorString(CUresult r, const char **text) {
    switch (r) {
    case OK: *text = "no error"; break;
    case OUT_OF_MEMORY: *text = "out of memory"; break;
    case NO_DEVICE: *text = "no CUDA-capable device is detected"; break;
    case LAUNCH_FAILED: *text = "unspecified launch failure"; break;
    default: *text = "unknown error"; break;
    }
    return OK;
}

CUresult cuDriverGetVersion(int *version) {
    *version = 12040;
    return OK;
}

/* ---- devices and contexts ---- */

CUresult cuDeviceGetCount(int *count) {
    STARTED();
    *count = S->count;
    return OK;
}

CUresult cuDeviceGet(int *device, int ordinal) {
    STARTED();
    if (ordinal < 0 || ordinal >= S->count) return INVALID_DEVICE;
    *device = ordinal;
    return OK;
}

/* Attributes: 16 SM count, 33 PCI bus, 34 PCI device, 50 PCI domain, 75/76 compute
 * capability; memory pools (115) off, so allocations take the plain cuMemAlloc path. */
CUresult cuDeviceGetAttribute(int *value, int attribute, int device) {
    STARTED();
    (void)device;
    switch (attribute) {
    case 16: *value = 108; break;
    case 33: *value = 0x07; break;
    case 75: *value = 8; break;
    case 76: *value = 0; break;
    default: *value = 0; break;
    }
    return OK;
}

CUresult cuDevicePrimaryCtxRetain(void **ctx, int device) {
    STARTED();
    (void)device;
    *ctx = HANDLE;
    return OK;
}

CUresult cuDevicePrimaryCtxRelease_v2(int device) {
    (void)device;
    return OK;
}

CUresult cuCtxSetCurrent(void *ctx) {
    (void)ctx;
    return OK;
}

CUresult cuCtxGetCurrent(void **ctx) {
    *ctx = S ? HANDLE : NULL;
    return OK;
}

CUresult cuCtxPushCurrent_v2(void *ctx) {
    (void)ctx;
    return OK;
}

CUresult cuCtxPopCurrent_v2(void **ctx) {
    if (ctx) *ctx = HANDLE;
    return OK;
}

CUresult cuCtxSynchronize(void) {
    return OK;
}

/* ---- streams and events ---- */

CUresult cuStreamCreate(void **stream, unsigned flags) {
    (void)flags;
    *stream = HANDLE;
    return OK;
}

CUresult cuStreamDestroy_v2(void *stream) {
    (void)stream;
    return OK;
}

CUresult cuStreamSynchronize(void *stream) {
    (void)stream;
    return OK;
}

CUresult cuStreamWaitEvent(void *stream, void *event, unsigned flags) {
    (void)stream, (void)event, (void)flags;
    return OK;
}

CUresult cuEventCreate(void **event, unsigned flags) {
    (void)flags;
    *event = HANDLE;
    return OK;
}

CUresult cuEventDestroy_v2(void *event) {
    (void)event;
    return OK;
}

CUresult cuEventRecord(void *event, void *stream) {
    (void)event, (void)stream;
    return OK;
}

CUresult cuEventSynchronize(void *event) {
    (void)event;
    return OK;
}

CUresult cuEventElapsedTime(float *ms, void *start, void *end) {
    (void)start, (void)end;
    *ms = 1.0f;
    return OK;
}

/* ---- memory ---- */

CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total_bytes) {
    STARTED();
    *total_bytes = 80ULL << 30;
    *free_bytes = 79ULL << 30;
    return OK;
}

CUresult cuMemAlloc_v2(unsigned long long *address, size_t bytes) {
    STARTED();
    if (S->alloc != OK) return S->alloc;
    *address = next_address;
    next_address += (bytes + 0xFFFFF) & ~0xFFFFFULL;
    return OK;
}

CUresult cuMemFree_v2(unsigned long long address) {
    (void)address;
    return OK;
}

CUresult cuMemsetD8Async(unsigned long long address, unsigned char value, size_t n, void *s) {
    (void)address, (void)value, (void)n, (void)s;
    return OK;
}

CUresult cuMemcpyDtoDAsync_v2(unsigned long long dst, unsigned long long src, size_t n,
                              void *stream) {
    (void)dst, (void)src, (void)n, (void)stream;
    return S ? S->launch : NOT_INITIALIZED;
}

/* Copies to and from the host never touch memory here: the addresses are made up. */
CUresult cuMemcpyHtoDAsync_v2(unsigned long long dst, const void *src, size_t n, void *stream) {
    (void)dst, (void)src, (void)n, (void)stream;
    return OK;
}

CUresult cuMemcpyDtoHAsync_v2(void *dst, unsigned long long src, size_t n, void *stream) {
    (void)src, (void)stream;
    memset(dst, 0, n);
    return OK;
}

/* ---- modules and launches ---- */

CUresult cuModuleLoadData(void **module, const void *image) {
    STARTED();
    (void)image;
    if (S->alloc != OK) return S->alloc;
    *module = HANDLE;
    return OK;
}

CUresult cuModuleLoadDataEx(void **module, const void *image, unsigned n, void *options,
                            void **values) {
    (void)n, (void)options, (void)values;
    return cuModuleLoadData(module, image);
}

CUresult cuModuleUnload(void *module) {
    (void)module;
    return OK;
}

CUresult cuModuleGetFunction(void **function, void *module, const char *name) {
    (void)module, (void)name;
    *function = HANDLE;
    return OK;
}

CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                        unsigned by, unsigned bz, unsigned shared, void *stream, void **params,
                        void **extra) {
    (void)f, (void)gx, (void)gy, (void)gz, (void)bx, (void)by, (void)bz, (void)shared;
    (void)stream, (void)params, (void)extra;
    return S ? S->launch : NOT_INITIALIZED;
}

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *blocks, void *f, int size,
                                                              size_t shared, unsigned flags) {
    (void)f, (void)size, (void)shared, (void)flags;
    *blocks = 8;
    return OK;
}

/* ---- as cuBLAS ---- */

int cublasCreate_v2(void **handle) {
    (void)handle;
    return 1; /* CUBLAS_STATUS_NOT_INITIALIZED */
}
