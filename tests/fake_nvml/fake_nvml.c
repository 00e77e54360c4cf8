/* A stand-in for the NVIDIA driver's libnvidia-ml.so.1, so the real NVML path runs where no GPU
 * is. It answers the calls gpumeter makes (through nvml-wrapper and gpumeter-driver) from one
 * scenario, named by FAKE_NVML_SCENARIO at nvmlInit; with none, one healthy A100 80GB.
 *
 *   gcc -shared -fPIC -o libnvidia-ml.so.1 fake_nvml.c
 *
 * Scenarios: eight (8 cards), mig (MIG on, two 10 GiB instances in seven slots), vgpu (a vGPU
 * guest), foreign (another tenant's PIDs hold memory), throttle (HW slowdown and HW thermal
 * slowdown), ecc (ECC errors, remapped rows, a remap pending), pcie_down (a slot that holds the
 * Gen4 x16 card at Gen3 x8: NVML's maximum is the lower of card and slot), pcie_trained_down
 * (a Gen4 x16 link that runs at Gen3 x8, seen only under load), off_bus (GPU 1 of 2
 * answers GPU_IS_LOST), errors (NOT_SUPPORTED, NO_PERMISSION and UNKNOWN answers), no_driver
 * (nvmlInit fails: driver not loaded), old_driver (R470: the calls R510 added answer
 * FUNCTION_NOT_FOUND, as a driver without the symbol would fail them).
 *
 * A symbol gpumeter does not call is left out: nvml-wrapper resolves each symbol on its own, and
 * one that is missing fails only the call that needs it. */

/* Scenarios are the healthy card with a few fields changed: a later designated initializer
 * replaces an earlier one, which is the point here, and a field left out is zero. */
#pragma GCC diagnostic ignored "-Woverride-init"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The return codes, struct layouts and enum values are NVIDIA's, as nvml.h declares them (the
 * header nvml-wrapper-sys's bindings are generated from): the fake speaks the driver's ABI, not
 * gpumeter's idea of it. */
typedef int nvmlReturn_t;
enum {
    OK = 0,
    UNINITIALIZED = 1,
    INVALID_ARGUMENT = 2,
    NOT_SUPPORTED = 3,
    NO_PERMISSION = 4,
    NOT_FOUND = 6,
    INSUFFICIENT_SIZE = 7,
    DRIVER_NOT_LOADED = 9,
    FUNCTION_NOT_FOUND = 13,
    GPU_IS_LOST = 15,
    UNKNOWN = 999,
};

/* The calls a scenario can make fail, each on its own. */
enum call {
    C_NAME, C_MEMORY, C_UTIL, C_POWER, C_LIMIT, C_ENERGY, C_TEMP, C_CLOCK, C_FAN, C_PCIE_TPUT,
    C_PCIE_LINK, C_MIG, C_VIRT, C_PROCS, C_GRAPHICS, C_EVENTS, C_ECC, C_RETIRED, C_ROWS,
    C_R510, /* the calls drivers before R510 lack: the _v2 memory and _v3 process lists */
    C_COUNT
};

typedef struct {
    const char *name;
    unsigned long long mem_total_mib, mem_used_mib, proc_mib;
    unsigned util_gpu, util_mem, power_mw, limit_mw, default_limit_mw, max_limit_mw;
    unsigned long long energy_mj;
    unsigned temp_c, fan_pct, sm_mhz, mem_mhz, sm_max_mhz, mem_max_mhz;
    unsigned pcie_gen, pcie_width, pcie_gen_max, pcie_width_max, pcie_tx_kib, pcie_rx_kib;
    int cc_major, cc_minor;
    unsigned virt_mode;               /* 0 bare metal, 1 passthrough, 2 vGPU guest */
    unsigned long long clock_events;  /* NVML's clock-event (throttle) reason bits */
    unsigned ecc_on;
    unsigned long long ecc_corrected, ecc_uncorrected;
    unsigned retired_single, retired_double, retired_pending;
    unsigned rows_corrected, rows_uncorrected, rows_pending;
    unsigned mig_slots, mig_present, mig_slice_mib; /* mig_present: a bit per slot in use */
    unsigned own_procs;               /* the calling process, listed as a compute process */
    unsigned proc_mem_hidden;         /* processes' memory NOT_AVAILABLE, as under MIG */
    unsigned foreign_procs;           /* PIDs no process on this machine has */
    int errors[C_COUNT];              /* the answer a call gives instead of data (0: data) */
} card_t;

typedef struct {
    const char *scenario;
    unsigned count;
    int lost;                         /* the card that fell off the bus, or -1 */
    nvmlReturn_t init;
    card_t card;
    const char *driver;               /* the driver's version, if not 550.54.15 */
    int cuda;                         /* the CUDA version it supports, if not 12040 */
} scenario_t;

#define A100_80GB                                                                          \
    .name = "NVIDIA A100-SXM4-80GB", .mem_total_mib = 81920, .mem_used_mib = 61440,        \
    .proc_mib = 60928, .util_gpu = 97, .util_mem = 61, .power_mw = 347000,                 \
    .limit_mw = 400000, .default_limit_mw = 400000, .max_limit_mw = 400000,                \
    .energy_mj = 1432018500ULL, .temp_c = 64, .sm_mhz = 1410, .mem_mhz = 1593,             \
    .sm_max_mhz = 1410, .mem_max_mhz = 1593, .pcie_gen = 4, .pcie_width = 16,              \
    .pcie_gen_max = 4, .pcie_width_max = 16, .pcie_tx_kib = 2048, .pcie_rx_kib = 8192,     \
    .cc_major = 8, .cc_minor = 0, .ecc_on = 1, .own_procs = 1,                             \
    .errors = {[C_FAN] = NOT_SUPPORTED}

static const scenario_t SCENARIOS[] = {
    {"healthy", 1, -1, OK, {A100_80GB}},
    {"eight", 8, -1, OK, {A100_80GB}},
    {"mig", 1, -1, OK,
     {A100_80GB, .mig_slots = 7, .mig_present = 0x9, .mig_slice_mib = 9856, .util_gpu = 0,
      .mem_used_mib = 25, .proc_mem_hidden = 1}},
    {"vgpu", 1, -1, OK,
     {A100_80GB, .name = "GRID A100-40C", .mem_total_mib = 40960, .mem_used_mib = 20480,
      .proc_mib = 19968, .virt_mode = 2, .ecc_on = 0,
      .errors = {[C_FAN] = NOT_SUPPORTED, [C_POWER] = NOT_SUPPORTED, [C_ENERGY] = NOT_SUPPORTED,
                 [C_LIMIT] = NOT_SUPPORTED, [C_TEMP] = NOT_SUPPORTED,
                 [C_GRAPHICS] = NOT_SUPPORTED}}},
    {"foreign", 1, -1, OK,
     {A100_80GB, .own_procs = 0, .foreign_procs = 2, .proc_mib = 19456, .mem_used_mib = 38912,
      .util_gpu = 45}},
    {"oom", 1, -1, OK, {A100_80GB, .mem_used_mib = 81920, .proc_mib = 81408}},
    {"throttle", 1, -1, OK,
     {A100_80GB, .clock_events = 0x48, .temp_c = 91, .sm_mhz = 1005}},
    {"ecc", 1, -1, OK,
     {A100_80GB, .ecc_corrected = 12, .ecc_uncorrected = 2, .rows_corrected = 3,
      .rows_uncorrected = 1, .rows_pending = 1}},
    {"pcie_down", 1, -1, OK,
     {A100_80GB, .pcie_gen = 3, .pcie_width = 8, .pcie_gen_max = 3, .pcie_width_max = 8}},
    {"pcie_trained_down", 1, -1, OK, {A100_80GB, .pcie_gen = 3, .pcie_width = 8}},
    {"off_bus", 2, 1, OK, {A100_80GB}},
    {"errors", 1, -1, OK,
     {A100_80GB,
      .errors = {[C_FAN] = NOT_SUPPORTED, [C_POWER] = NOT_SUPPORTED, [C_ENERGY] = NOT_SUPPORTED,
                 [C_PROCS] = NO_PERMISSION, [C_TEMP] = UNKNOWN, [C_ECC] = NO_PERMISSION,
                 [C_EVENTS] = NOT_SUPPORTED, [C_PCIE_LINK] = NOT_SUPPORTED}}},
    {"no_driver", 0, -1, DRIVER_NOT_LOADED, {A100_80GB}},
    {"old_driver", 1, -1, OK,
     {A100_80GB, .errors = {[C_FAN] = NOT_SUPPORTED, [C_R510] = FUNCTION_NOT_FOUND}},
     "470.182.03", 11040},
};

#define MAX_GPUS 8
#define MAX_MIG 7
/* A handle: the card, and the MIG slot for an instance's handle (-1 for the card itself). */
typedef struct {
    int gpu;
    int slot;
} fake_device;
typedef fake_device *nvmlDevice_t;

static fake_device CARDS[MAX_GPUS];
static fake_device INSTANCES[MAX_GPUS][MAX_MIG];
static const scenario_t *S;

/* The PCI bus numbers of an 8-GPU HGX board, in NVML's order. */
static const unsigned BUS[MAX_GPUS] = {0x07, 0x0F, 0x47, 0x4E, 0x87, 0x90, 0xB7, 0xBD};
#define MIB (1024ULL * 1024ULL)
/* NVML_VALUE_NOT_AVAILABLE, as an unsigned long long. */
#define NOT_AVAILABLE (~0ULL)
/* Beyond the kernel's largest pid_max, so no process here has them. */
#define FOREIGN_PID 4194404u

static const scenario_t *find(const char *name) {
    for (size_t i = 0; i < sizeof SCENARIOS / sizeof SCENARIOS[0]; i++)
        if (strcmp(SCENARIOS[i].scenario, name) == 0) return &SCENARIOS[i];
    return NULL;
}

/* The answer of `call` on `d` when it is not data: not started, lost card, or the scenario's. */
static nvmlReturn_t fails(const fake_device *d, enum call call) {
    if (!S) return UNINITIALIZED;
    if (!d || d->gpu < 0 || (unsigned)d->gpu >= S->count) return INVALID_ARGUMENT;
    if (d->gpu == S->lost) return GPU_IS_LOST;
    return S->card.errors[call];
}

#define CHECK(d, call)                               \
    do {                                             \
        nvmlReturn_t why_ = fails((d), (call));      \
        if (why_ != OK) return why_;                 \
    } while (0)
#define C (&S->card)

/* A getter that answers one field of the card, or the call's failure. */
#define FIELD(fn, call, type, field)                 \
    nvmlReturn_t fn(nvmlDevice_t d, type *value) {   \
        CHECK(d, call);                              \
        *value = C->field;                           \
        return OK;                                   \
    }

static void copy(char *out, unsigned length, const char *text) {
    if (out && length) snprintf(out, length, "%s", text);
}

/* ---- the library ---- */

nvmlReturn_t nvmlInit_v2(void) {
    const char *name = getenv("FAKE_NVML_SCENARIO");
    const scenario_t *s = find(name && *name ? name : "healthy");
    if (!s) {
        fprintf(stderr, "fake NVML: no scenario named %s\n", name);
        return UNKNOWN;
    }
    if (s->init != OK) return s->init;
    for (int i = 0; i < MAX_GPUS; i++) {
        CARDS[i] = (fake_device){i, -1};
        for (int k = 0; k < MAX_MIG; k++) INSTANCES[i][k] = (fake_device){i, k};
    }
    S = s;
    return OK;
}

nvmlReturn_t nvmlInitWithFlags(unsigned flags) {
    (void)flags;
    return nvmlInit_v2();
}

nvmlReturn_t nvmlShutdown(void) {
    S = NULL;
    return OK;
}

const char *nvmlErrorString(nvmlReturn_t r) {
    switch (r) {
    case OK: return "Success";
    case NOT_SUPPORTED: return "Not Supported";
    case NO_PERMISSION: return "Insufficient Permissions";
    case DRIVER_NOT_LOADED: return "Driver Not Loaded";
    case GPU_IS_LOST: return "GPU is lost";
    default: return "Unknown Error";
    }
}

nvmlReturn_t nvmlSystemGetDriverVersion(char *version, unsigned length) {
    if (!S) return UNINITIALIZED;
    copy(version, length, S->driver ? S->driver : "550.54.15");
    return OK;
}

nvmlReturn_t nvmlSystemGetCudaDriverVersion_v2(int *version) {
    if (!S) return UNINITIALIZED;
    *version = S->cuda ? S->cuda : 12040;
    return OK;
}

nvmlReturn_t nvmlSystemGetCudaDriverVersion(int *version) {
    return nvmlSystemGetCudaDriverVersion_v2(version);
}

nvmlReturn_t nvmlDeviceGetCount_v2(unsigned *count) {
    if (!S) return UNINITIALIZED;
    *count = S->count;
    return OK;
}

nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned index, nvmlDevice_t *device) {
    if (!S) return UNINITIALIZED;
    if (index >= S->count) return INVALID_ARGUMENT;
    *device = &CARDS[index];
    return OK;
}

/* ---- what a card is ---- */

nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t d, char *name, unsigned length) {
    CHECK(d, C_NAME);
    copy(name, length, C->name);
    return OK;
}

nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t d, char *uuid, unsigned length) {
    CHECK(d, C_NAME);
    char text[64];
    snprintf(text, sizeof text, "GPU-fa4e0000-0000-4000-8000-0000000000%02d", d->gpu);
    copy(uuid, length, text);
    return OK;
}

typedef struct {
    char busIdLegacy[16];
    unsigned domain, bus, device, pciDeviceId, pciSubSystemId;
    char busId[32];
} nvmlPciInfo_t;

nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t d, nvmlPciInfo_t *pci) {
    CHECK(d, C_NAME);
    memset(pci, 0, sizeof *pci);
    pci->bus = BUS[d->gpu];
    pci->pciDeviceId = 0x20B210DE;
    pci->pciSubSystemId = 0x147F10DE;
    snprintf(pci->busIdLegacy, sizeof pci->busIdLegacy, "0000:%02X:00.0", pci->bus);
    snprintf(pci->busId, sizeof pci->busId, "00000000:%02X:00.0", pci->bus);
    return OK;
}

nvmlReturn_t nvmlDeviceGetCudaComputeCapability(nvmlDevice_t d, int *major, int *minor) {
    CHECK(d, C_NAME);
    *major = C->cc_major;
    *minor = C->cc_minor;
    return OK;
}

FIELD(nvmlDeviceGetVirtualizationMode, C_VIRT, unsigned, virt_mode)

nvmlReturn_t nvmlDeviceGetComputeMode(nvmlDevice_t d, unsigned *mode) {
    CHECK(d, C_NAME);
    *mode = 0;
    return OK;
}

/* ---- readings ---- */

typedef struct {
    unsigned version;
    unsigned long long total, reserved, free, used;
} nvmlMemory_v2_t;

/* Total and used bytes of a card, or of the MIG instance a handle names. */
static nvmlReturn_t memory(nvmlDevice_t d, unsigned long long *total, unsigned long long *used) {
    CHECK(d, C_MEMORY);
    int slice = d->slot >= 0;
    *total = (slice ? C->mig_slice_mib : C->mem_total_mib) * MIB;
    *used = (slice ? C->mig_slice_mib / 8 : C->mem_used_mib) * MIB;
    return OK;
}

nvmlReturn_t nvmlDeviceGetMemoryInfo_v2(nvmlDevice_t d, nvmlMemory_v2_t *m) {
    CHECK(d, C_R510);
    m->reserved = 0;
    nvmlReturn_t r = memory(d, &m->total, &m->used);
    m->free = m->total - m->used;
    return r;
}

typedef struct {
    unsigned long long total, free, used;
} nvmlMemory_t;

nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t d, nvmlMemory_t *m) {
    nvmlReturn_t r = memory(d, &m->total, &m->used);
    m->free = m->total - m->used;
    return r;
}

typedef struct {
    unsigned gpu, memory;
} nvmlUtilization_t;

nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t d, nvmlUtilization_t *u) {
    CHECK(d, C_UTIL);
    /* Cards of one scenario differ a little, so a reading cannot come from the wrong card. */
    u->gpu = C->util_gpu > (unsigned)d->gpu ? C->util_gpu - (unsigned)d->gpu : 0;
    u->memory = C->util_mem;
    return OK;
}

FIELD(nvmlDeviceGetPowerUsage, C_POWER, unsigned, power_mw)
FIELD(nvmlDeviceGetTotalEnergyConsumption, C_ENERGY, unsigned long long, energy_mj)
FIELD(nvmlDeviceGetEnforcedPowerLimit, C_LIMIT, unsigned, limit_mw)
FIELD(nvmlDeviceGetPowerManagementDefaultLimit, C_LIMIT, unsigned, default_limit_mw)

nvmlReturn_t nvmlDeviceGetPowerManagementLimitConstraints(nvmlDevice_t d, unsigned *min,
                                                          unsigned *max) {
    CHECK(d, C_LIMIT);
    *min = 100000;
    *max = C->max_limit_mw;
    return OK;
}

nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t d, unsigned sensor, unsigned *celsius) {
    CHECK(d, C_TEMP);
    if (sensor != 0) return INVALID_ARGUMENT;
    *celsius = C->temp_c;
    return OK;
}

nvmlReturn_t nvmlDeviceGetFanSpeed_v2(nvmlDevice_t d, unsigned fan, unsigned *pct) {
    CHECK(d, C_FAN);
    if (fan != 0) return INVALID_ARGUMENT;
    *pct = C->fan_pct;
    return OK;
}

/* Clock types: 1 SM, 2 memory. */
static nvmlReturn_t clock_of(nvmlDevice_t d, unsigned type, int max, unsigned *mhz) {
    CHECK(d, C_CLOCK);
    if (type != 1 && type != 2) return NOT_SUPPORTED;
    if (type == 1) *mhz = max ? C->sm_max_mhz : C->sm_mhz;
    else *mhz = max ? C->mem_max_mhz : C->mem_mhz;
    return OK;
}

nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t d, unsigned type, unsigned *mhz) {
    return clock_of(d, type, 0, mhz);
}

nvmlReturn_t nvmlDeviceGetMaxClockInfo(nvmlDevice_t d, unsigned type, unsigned *mhz) {
    return clock_of(d, type, 1, mhz);
}

nvmlReturn_t nvmlDeviceGetPcieThroughput(nvmlDevice_t d, unsigned counter, unsigned *kib_s) {
    CHECK(d, C_PCIE_TPUT);
    *kib_s = counter == 0 ? C->pcie_tx_kib : C->pcie_rx_kib;
    return OK;
}

FIELD(nvmlDeviceGetCurrPcieLinkGeneration, C_PCIE_LINK, unsigned, pcie_gen)
FIELD(nvmlDeviceGetCurrPcieLinkWidth, C_PCIE_LINK, unsigned, pcie_width)
FIELD(nvmlDeviceGetMaxPcieLinkGeneration, C_PCIE_LINK, unsigned, pcie_gen_max)
FIELD(nvmlDeviceGetMaxPcieLinkWidth, C_PCIE_LINK, unsigned, pcie_width_max)

FIELD(nvmlDeviceGetCurrentClocksThrottleReasons, C_EVENTS, unsigned long long, clock_events)

nvmlReturn_t nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t d, unsigned long long *r) {
    return nvmlDeviceGetCurrentClocksThrottleReasons(d, r);
}

/* ---- MIG ---- */

nvmlReturn_t nvmlDeviceGetMigMode(nvmlDevice_t d, unsigned *current, unsigned *pending) {
    CHECK(d, C_MIG);
    *current = *pending = C->mig_slots > 0;
    return OK;
}

FIELD(nvmlDeviceGetMaxMigDeviceCount, C_MIG, unsigned, mig_slots)

/* A slot without an instance answers NOT_FOUND, as NVML does. */
nvmlReturn_t nvmlDeviceGetMigDeviceHandleByIndex(nvmlDevice_t d, unsigned slot,
                                                 nvmlDevice_t *instance) {
    CHECK(d, C_MIG);
    if (slot >= C->mig_slots || slot >= MAX_MIG) return INVALID_ARGUMENT;
    if (!(C->mig_present & (1u << slot))) return NOT_FOUND;
    *instance = &INSTANCES[d->gpu][slot];
    return OK;
}

/* ---- processes ---- */

typedef struct {
    unsigned pid;
    unsigned long long usedGpuMemory;
    unsigned gpuInstanceId, computeInstanceId;
} nvmlProcessInfo_t;

/* The _v2 and _v3 lists write the same struct; the _v3 calls came with R510. */
static nvmlReturn_t compute_processes(nvmlDevice_t d, unsigned *count, nvmlProcessInfo_t *infos) {
    CHECK(d, C_PROCS);
    unsigned n = C->own_procs + C->foreign_procs;
    if (*count < n) {
        *count = n;
        return INSUFFICIENT_SIZE;
    }
    for (unsigned i = 0; i < n; i++) {
        unsigned own = i < C->own_procs;
        infos[i] = (nvmlProcessInfo_t){
            own ? (unsigned)getpid() : FOREIGN_PID + i,
            C->proc_mem_hidden ? NOT_AVAILABLE : C->proc_mib * MIB, 0xFFFFFFFFu, 0xFFFFFFFFu};
    }
    *count = n;
    return OK;
}

static nvmlReturn_t graphics_processes(nvmlDevice_t d, unsigned *count) {
    CHECK(d, C_GRAPHICS);
    *count = 0;
    return OK;
}

nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t d, unsigned *count,
                                                     nvmlProcessInfo_t *infos) {
    CHECK(d, C_R510);
    return compute_processes(d, count, infos);
}

nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v2(nvmlDevice_t d, unsigned *count,
                                                     nvmlProcessInfo_t *infos) {
    return compute_processes(d, count, infos);
}

nvmlReturn_t nvmlDeviceGetGraphicsRunningProcesses_v3(nvmlDevice_t d, unsigned *count,
                                                      nvmlProcessInfo_t *infos) {
    (void)infos;
    CHECK(d, C_R510);
    return graphics_processes(d, count);
}

nvmlReturn_t nvmlDeviceGetGraphicsRunningProcesses_v2(nvmlDevice_t d, unsigned *count,
                                                      nvmlProcessInfo_t *infos) {
    (void)infos;
    return graphics_processes(d, count);
}

/* ---- ECC, retired pages and remapped rows ---- */

nvmlReturn_t nvmlDeviceGetEccMode(nvmlDevice_t d, unsigned *current, unsigned *pending) {
    CHECK(d, C_ECC);
    *current = *pending = C->ecc_on;
    return OK;
}

/* Error types: 0 corrected, 1 uncorrected; only the volatile counter (0) is kept. */
nvmlReturn_t nvmlDeviceGetTotalEccErrors(nvmlDevice_t d, unsigned type, unsigned counter,
                                         unsigned long long *count) {
    CHECK(d, C_ECC);
    if (!C->ecc_on) return NOT_SUPPORTED;
    *count = counter != 0 ? 0 : type == 0 ? C->ecc_corrected : C->ecc_uncorrected;
    return OK;
}

static nvmlReturn_t retired(nvmlDevice_t d, unsigned cause, unsigned *count,
                            unsigned long long *addresses, unsigned long long *timestamps) {
    CHECK(d, C_RETIRED);
    unsigned n = cause == 0 ? C->retired_single : C->retired_double;
    if (*count < n) {
        *count = n;
        return INSUFFICIENT_SIZE;
    }
    for (unsigned i = 0; i < n; i++) {
        if (addresses) addresses[i] = 0x1000ULL * (i + 1);
        if (timestamps) timestamps[i] = 1700000000ULL + i;
    }
    *count = n;
    return OK;
}

nvmlReturn_t nvmlDeviceGetRetiredPages(nvmlDevice_t d, unsigned cause, unsigned *count,
                                       unsigned long long *addresses) {
    return retired(d, cause, count, addresses, NULL);
}

nvmlReturn_t nvmlDeviceGetRetiredPages_v2(nvmlDevice_t d, unsigned cause, unsigned *count,
                                          unsigned long long *addresses,
                                          unsigned long long *timestamps) {
    return retired(d, cause, count, addresses, timestamps);
}

FIELD(nvmlDeviceGetRetiredPagesPendingStatus, C_RETIRED, unsigned, retired_pending)

nvmlReturn_t nvmlDeviceGetRemappedRows(nvmlDevice_t d, unsigned *corrected,
                                       unsigned *uncorrected, unsigned *pending,
                                       unsigned *failure) {
    CHECK(d, C_ROWS);
    *corrected = C->rows_corrected;
    *uncorrected = C->rows_uncorrected;
    *pending = C->rows_pending;
    *failure = 0;
    return OK;
}
